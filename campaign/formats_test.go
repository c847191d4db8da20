package campaign_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/deck"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/format"
	"github.com/coalition-wargame/coalition/match"
)

func legalCoalition(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../format/testdata/coalition-legal.txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rulesOf lists a verdict's problems by rule id.
func rulesOf(v *format.Verdict) string {
	var out []string
	for _, p := range v.Problems {
		out = append(out, p.Rule)
	}
	return strings.Join(out, " ")
}

func check(t *testing.T, svc *campaign.Service, req campaign.DeckCheck) *format.Verdict {
	t.Helper()
	v, err := svc.CheckDeck(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSetBanlist: an admin saves a new version of a shipped banned list (F6), versioned as the
// battle formulas are; the checks use the newest, the versions before it stay, a new service on
// the same database reads it, and no one else may edit a list.
func TestSetBanlist(t *testing.T) {
	f := newFixture(t)
	f.campaign()
	ctx := context.Background()
	list := legalCoalition(t)
	if v := check(t, f.svc, campaign.DeckCheck{Format: "coalition", List: list}); !v.Legal {
		t.Fatalf("the legal deck: %+v", v.Problems)
	}
	shipped, _ := format.Shipped().Banlist("coalition-2026-03-09")
	in := campaign.BanlistInput{Categories: []string{"reserved", "ante", "ante"}, Names: append(slices.Clone(shipped.Names), " Lightning  Bolt ", "lightning bolt", "Lightening Bolt"),
		Offensive: shipped.Offensive, Reason: "testing a ban"}
	for _, who := range []string{"Mover", "Gazetzot"} {
		if _, err := f.svc.SetBanlist(ctx, f.as(who), "coalition-2026-03-09", in); !errors.Is(err, domain.ErrForbidden) {
			t.Errorf("%s edited a banned list: %v", who, err)
		}
	}
	if _, err := f.svc.SetBanlist(ctx, campaign.Actor{}, "coalition-2026-03-09", in); !errors.Is(err, domain.ErrUnauthorized) {
		t.Errorf("the anonymous edited a banned list: %v", err)
	}
	if _, err := f.svc.SetBanlist(ctx, f.admin, "modern", in); !errors.Is(err, domain.ErrNotFound) || !strings.Contains(err.Error(), "coalition-2026-03-09") {
		t.Errorf("an unknown list: %v", err)
	}
	bad := in
	bad.Categories = []string{"silver-bordered"}
	if _, err := f.svc.SetBanlist(ctx, f.admin, "coalition-2026-03-09", bad); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "sticker") {
		t.Errorf("an unknown category: %v", err)
	}
	got, err := f.svc.SetBanlist(ctx, f.admin, "coalition-2026-03-09", in)
	if err != nil {
		t.Fatal(err)
	}
	b := got.Banlist
	if b.Version != 2 || b.By != "admin" || b.Reason != "testing a ban" || b.Title != shipped.Title || !slices.Equal(b.Categories, []string{"reserved", "ante"}) ||
		len(b.Names) != len(shipped.Names)+2 || len(got.History) != 1 {
		t.Errorf("version 2: %+v", got)
	}
	if !slices.Equal(got.Unknown, []string{"Nadu, Winged Wisdom", "Lightening Bolt"}) {
		t.Errorf("the names the data lacks: %v", got.Unknown)
	}
	// The deck is checked against version 2: Lightning Bolt is banned; the shipped document is
	// unchanged.
	if v := check(t, f.svc, campaign.DeckCheck{Format: "coalition", List: list}); v.Legal || rulesOf(v) != "banned" || v.Problems[0].Card != "Lightning Bolt" {
		t.Errorf("under version 2: %+v", v.Problems)
	}
	if _, err := format.Shipped().Check(mustDecks(t), format.Request{Format: "coalition", List: list}); err != nil {
		t.Fatal(err)
	}
	// Version 3 takes Lightning Bolt off; a service started afresh reads it.
	in.Names = shipped.Names
	if _, err := f.svc.SetBanlist(ctx, f.admin, "coalition-2026-03-09", in); err != nil {
		t.Fatal(err)
	}
	again := f.service(f.db)
	h, err := again.Banlist(ctx, "coalition-2026-03-09")
	if err != nil || h.Banlist.Version != 3 || len(h.History) != 2 || h.History[0].Version != 2 {
		t.Fatalf("the history: %+v %v", h, err)
	}
	if v := check(t, again, campaign.DeckCheck{Format: "coalition", List: list}); !v.Legal {
		t.Errorf("under version 3: %+v", v.Problems)
	}
	view, err := again.CardFormats(ctx)
	if err != nil || len(view.Banlists) != 3 || view.Banlists[0].Version != 3 || view.Banlists[1].Version != 1 || !slices.Equal(view.MatchFormats, match.Formats()) {
		t.Errorf("the formats: %+v %v", view, err)
	}
	audit, _ := f.svc.Audit(ctx, f.admin, 0, 10)
	if len(audit) == 0 || audit[0].Action != "banlist.set" || !strings.Contains(audit[0].Detail, "version 3") {
		t.Errorf("the audit log: %+v", audit)
	}
}

func mustDecks(t *testing.T) *deck.Catalogue {
	t.Helper()
	c, err := deck.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPutDeckCard: a judge corrects a card of the every-card data; the checks read the
// correction at once and after a restart; the shared card data is not written to; a player
// may not correct.
func TestPutDeckCard(t *testing.T) {
	f := newFixture(t)
	f.campaign()
	ctx := context.Background()
	text := "Lightning Bolt deals 3 damage to any target. Elves you control get +1/+0 until end of turn."
	bolt := cards.Card{Types: []string{"Instant"}, Colors: []string{"R"}, ManaCost: "{R}", Text: &text}
	if _, err := f.svc.PutDeckCard(ctx, f.as("Gazetzot"), "Lightning Bolt", bolt); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("a player corrected the card data: %v", err)
	}
	if _, err := f.svc.PutDeckCard(ctx, f.as("Batty"), "Lightning Bolt", cards.Card{Name: "Lightning Bolt"}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a card with no type: %v", err)
	}
	if _, err := f.svc.PutDeckCard(ctx, f.as("Batty"), "Shock", bolt); err != nil {
		t.Fatal(err)
	}
	bolt.Name = "Lightning Bolt"
	if _, err := f.svc.PutDeckCard(ctx, f.as("Batty"), "Shock", bolt); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a card named otherwise than the request: %v", err)
	}
	got, err := f.svc.PutDeckCard(ctx, f.as("Batty"), "Lightning Bolt", bolt)
	if err != nil || !got.Corrected || !slices.Equal(got.Identity.Types, []string{"Elf"}) {
		t.Fatalf("the corrected card: %+v %v", got, err)
	}
	list := legalCoalition(t)
	for name, svc := range map[string]*campaign.Service{"at once": f.svc, "after a restart": f.service(f.db)} {
		v := check(t, svc, campaign.DeckCheck{Format: "coalition", List: list})
		if rulesOf(v) != "typal" || v.Problems[0].Card != "Lightning Bolt" {
			t.Errorf("%s: %+v", name, v.Problems)
		}
	}
	if c, _ := f.svc.DeckCard(ctx, "Kaalia of the Vast"); c == nil || c.Corrected || !slices.Contains(c.Identity.Types, "Dragon") {
		t.Errorf("Kaalia: %+v", c)
	}
	if _, err := f.svc.DeckCard(ctx, "Lightening Bolt"); !errors.Is(err, domain.ErrNotFound) || !strings.Contains(err.Error(), "Lightning Bolt") {
		t.Errorf("a misspelt card: %v", err)
	}
	shared, _, _ := mustDecks(t).Cards.Find("Lightning Bolt")
	if strings.Contains(*shared.Text, "Elves") {
		t.Error("the correction was written into the shared card data")
	}
}

// TestLeagueMatch plays a Heroic match of a league through the service: the league names the
// revision its decks are checked against (E2); the table enters events, refused ones are not
// stored, a stale event or undo is a conflict, an undone event stays in the log; only the
// table and the admins keep the score; a new service replays the same state.
func TestLeagueMatch(t *testing.T) {
	f := newFixture(t)
	f.campaign()
	ctx := context.Background()
	ann, bob := f.as("Gazetzot"), f.as("Tevesh")
	if _, err := f.svc.CreateLeague(ctx, ann, campaign.LeagueInput{Name: "Winter", Format: "heroic"}); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("a player made a league: %v", err)
	}
	if _, err := f.svc.CreateLeague(ctx, f.admin, campaign.LeagueInput{Name: "Winter", Format: "heroic", Revision: "1999"}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("an unknown revision: %v", err)
	}
	l, err := f.svc.CreateLeague(ctx, f.admin, campaign.LeagueInput{Name: "  Winter   League ", Format: "Heroic"})
	if err != nil || l.Name != "Winter League" || l.Format != "heroic" || l.Revision != "2023-12-03" {
		t.Fatalf("the league: %+v %v", l, err)
	}
	if _, err := f.svc.CreateLeague(ctx, f.admin, campaign.LeagueInput{Name: "winter league", Format: "coalition"}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a second league of the name: %v", err)
	}
	// League names are names as campaigns' are (issue 17): no invisible character, none that
	// would look like a league's name taken.
	if _, err := f.svc.CreateLeague(ctx, f.admin, campaign.LeagueInput{Name: "Winter​League", Format: "coalition"}); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "league name") {
		t.Errorf("an invisible character: %v", err)
	}
	if _, err := f.svc.CreateLeague(ctx, f.admin, campaign.LeagueInput{Name: "Wіnter League", Format: "coalition"}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("a look-alike name: %v", err)
	}
	if l2, err := f.svc.CreateLeague(ctx, f.admin, campaign.LeagueInput{Name: "Summer: the Heroic Cup", Format: "heroic"}); err != nil || l2.Name != "Summer: the Heroic Cup" {
		t.Errorf("a league named with a colon: %+v %v", l2, err)
	}
	// The league's revision: Heroic's sideboard of 8 (906.6a).
	if v := check(t, f.svc, campaign.DeckCheck{League: l.ID, List: legalCoalition(t)}); rulesOf(v) != "size.sideboard" || v.Format != "heroic" {
		t.Errorf("the deck in the league: %+v", v)
	}
	if _, err := f.svc.CheckDeck(ctx, campaign.DeckCheck{League: l.ID, Format: "coalition", List: legalCoalition(t)}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a league and another format: %v", err)
	}
	if _, err := f.svc.CheckDeck(ctx, campaign.DeckCheck{League: 99, List: legalCoalition(t)}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("an unknown league: %v", err)
	}

	if _, err := f.svc.CreateMatch(ctx, f.as("Mover"), campaign.MatchInput{League: l.ID, Players: []string{"Gazetzot", "Tevesh"}}); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("a match started by one who does not play in it: %v", err)
	}
	if _, err := f.svc.CreateMatch(ctx, ann, campaign.MatchInput{League: l.ID, Players: []string{"Gazetzot", "Nobody"}}); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "Nobody") {
		t.Errorf("a player with no account: %v", err)
	}
	m, err := f.svc.CreateMatch(ctx, ann, campaign.MatchInput{League: l.ID, Players: []string{"gazetzot", "Tevesh"}, Games: 3})
	if err != nil || m.Format != "heroic" || m.Revision != "2023-12-03" || !slices.Equal(m.Players, []string{"Gazetzot", "Tevesh"}) || m.LeagueName != "Winter League" || !m.MayKeepScore {
		t.Fatalf("the match: %+v %v", m, err)
	}
	id := m.ID
	ev := func(a campaign.Actor, e campaign.MatchEventInput) *campaign.MatchChange {
		t.Helper()
		out, err := f.svc.AddMatchEvent(ctx, a, id, e)
		if err != nil {
			t.Fatalf("%+v: %v", e, err)
		}
		return out
	}
	ev(ann, campaign.MatchEventInput{Kind: "turn", Player: "Gazetzot"})
	ev(ann, campaign.MatchEventInput{Kind: "damage", Player: "Gazetzot", Target: "Tevesh", Amount: 9, Source: "hero", Combat: true})
	if _, err := f.svc.AddMatchEvent(ctx, f.as("Mover"), id, campaign.MatchEventInput{Kind: "draw"}); !errors.Is(err, domain.ErrForbidden) {
		t.Errorf("one not at the table entered an event: %v", err)
	}
	if _, err := f.svc.AddMatchEvent(ctx, bob, id, campaign.MatchEventInput{Kind: "damage", Player: "Tevesh", Target: "Tevesh", Amount: 2, Source: "hero"}); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "self") {
		t.Errorf("damage to oneself: %v", err)
	}
	stale := 1
	if _, err := f.svc.AddMatchEvent(ctx, bob, id, campaign.MatchEventInput{Kind: "turn", Player: "Tevesh", After: &stale}); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("an event after a stale count: %v", err)
	}
	two := 2
	ev(bob, campaign.MatchEventInput{Kind: "turn", Player: "Tevesh", After: &two})
	ev(bob, campaign.MatchEventInput{Kind: "damage", Player: "Tevesh", Target: "Gazetzot", Amount: 30, Source: "creature", Combat: true})
	// Bob's 30 damage was a typo: the table undoes it.
	if _, err := f.svc.UndoMatchEvent(ctx, ann, id, 3); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("an undo of an event not the last: %v", err)
	}
	u, err := f.svc.UndoMatchEvent(ctx, ann, id, 4)
	if err != nil || !u.Outcome.OK || u.Match.InForce != 3 || len(u.Match.Log) != 4 || u.Match.Log[3].UndoneBy != "Gazetzot" || u.Match.Log[3].N != 0 ||
		u.Match.State.Game != 1 || u.Match.State.Players[0].Life != 25 {
		t.Fatalf("the undo: %+v %v", u, err)
	}
	ev(bob, campaign.MatchEventInput{Kind: "damage", Player: "Tevesh", Target: "Gazetzot", Amount: 3, Source: "creature", Combat: true})
	// Ann's hero deals 8 more on her turn: 17 hero damage wins game 1 (903.11b); game 2 is
	// drawn by the rules; Bob concedes game 3, and Ann has won two of three.
	ev(ann, campaign.MatchEventInput{Kind: "turn", Player: "Gazetzot"})
	ev(ann, campaign.MatchEventInput{Kind: "damage", Player: "Gazetzot", Target: "Tevesh", Amount: 8, Source: "hero", Combat: true})
	out := ev(ann, campaign.MatchEventInput{Kind: "draw"})
	if out.Match.Over || out.Match.State.Game != 3 || out.Match.State.Players[0].Wins != 1 || !out.Match.State.Finished[1].Draw {
		t.Fatalf("after game 2: %+v", out.Match.State)
	}
	out = ev(bob, campaign.MatchEventInput{Kind: "concede", Player: "Tevesh"})
	if !out.Match.Over || out.Match.Result != "Gazetzot won" || !out.Match.State.Over || out.Outcome.Message == "" {
		t.Fatalf("the end: %+v", out.Match)
	}
	if _, err := f.svc.AddMatchEvent(ctx, ann, id, campaign.MatchEventInput{Kind: "draw"}); !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "over") {
		t.Errorf("an event after the end: %v", err)
	}
	// An admin may put the table's mistake right, and it is audited.
	if _, err := f.svc.UndoMatchEvent(ctx, f.admin, id, 8); err != nil {
		t.Fatal(err)
	}
	again, err := f.service(f.db).Match(ctx, campaign.Actor{}, id)
	if err != nil || again.Over || again.InForce != 7 || len(again.Log) != 9 || again.MayKeepScore || again.Version != 11 || again.State.Game != 3 {
		t.Fatalf("the match read afresh: %+v %v", again, err)
	}
	list, err := f.svc.Matches(ctx, l.ID, 0)
	if err != nil || len(list) != 1 || list[0].ID != id {
		t.Errorf("the league's matches: %+v %v", list, err)
	}
	if _, err := f.svc.Matches(ctx, 42, 0); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the matches of an unknown league: %v", err)
	}
	audit, _ := f.svc.Audit(ctx, f.admin, 0, 3)
	if audit[0].Action != "match.undo" || audit[0].Actor != "admin" {
		t.Errorf("the audit log: %+v", audit[0])
	}
}

// TestMatchEventsAtOnce: players entering events at the same moment (E4) — each event is
// stored once or refused as a conflict, never lost or doubled, and the log numbers them
// without a gap.
func TestMatchEventsAtOnce(t *testing.T) {
	f := newFixture(t)
	f.campaign()
	ctx := context.Background()
	m, err := f.svc.CreateMatch(ctx, f.as("Gazetzot"), campaign.MatchInput{Format: "manahearth", Players: []string{"Gazetzot", "Tevesh"}})
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		who := []string{"Gazetzot", "Tevesh"}[i%2]
		go func() {
			_, err := f.svc.AddMatchEvent(ctx, f.as(who), m.ID, campaign.MatchEventInput{Kind: "life", Player: who, Amount: 1})
			errs <- err
		}()
	}
	ok := 0
	for range n {
		switch err := <-errs; {
		case err == nil:
			ok++
		case !errors.Is(err, domain.ErrConflict):
			t.Errorf("an event at the same moment: %v", err)
		}
	}
	got, err := f.svc.Match(ctx, campaign.Actor{}, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	life := got.State.Players[0].Life + got.State.Players[1].Life
	if ok == 0 || len(got.Log) != ok || got.InForce != ok || life != 40+ok || got.Version != int64(ok) {
		t.Errorf("%d accepted; the log has %d, in force %d, life %d, version %d", ok, len(got.Log), got.InForce, life, got.Version)
	}
	for i, e := range got.Log {
		if e.Seq != i+1 {
			t.Errorf("event %d numbered %d", i+1, e.Seq)
		}
	}
}

// TestServerFormatsDocument: a server given a formats document of its own (serve --formats,
// F-7) checks decks by its sub-formats and revisions, and its admins edit its banned lists.
func TestServerFormatsDocument(t *testing.T) {
	doc, err := format.Read(strings.NewReader(`{"banlists":[{"id":"house","title":"House list","categories":[],"names":["Shock"]}],
		"formats":[{"name":"manahearth","system":"manahearth","title":"Manahearth","default":"house","revisions":[{"name":"house","source":"the house rules","main":31,"side":0,
		"copies":{"any":2,"legendary":1},"banned":"house","subformats":[{"name":"alpha","title":"Alpha Manahearth","sets":["LEA"]}],"cite":{}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	svc := campaign.NewService(f.db, campaign.Options{Clock: f.clock.Now, Log: quiet, PasswordCost: 4, Formats: doc})
	ctx := context.Background()
	list, err := os.ReadFile("../format/testdata/manahearth-legal.txt")
	if err != nil {
		t.Fatal(err)
	}
	v := check(t, svc, campaign.DeckCheck{Format: "manahearth", Subformat: "alpha", List: string(list)})
	if v.Legal || v.Revision != "house" || !strings.Contains(rulesOf(v), "banned") || !strings.Contains(rulesOf(v), "subformat") {
		t.Errorf("the house revision: %s %s", v.Revision, rulesOf(v))
	}
	if _, err := svc.CheckDeck(ctx, campaign.DeckCheck{Format: "coalition", List: string(list)}); !errors.Is(err, format.ErrUnknown) {
		t.Errorf("a format the document lacks: %v", err)
	}
	view, err := svc.CardFormats(ctx)
	if err != nil || len(view.Formats) != 1 || len(view.Banlists) != 1 || view.Banlists[0].ID != "house" {
		t.Errorf("the formats: %+v %v", view, err)
	}
	h, err := svc.SetBanlist(ctx, f.admin, "house", campaign.BanlistInput{Categories: []string{}, Names: []string{}})
	if err != nil || h.Banlist.Version != 2 || h.Banlist.Title != "House list" {
		t.Fatalf("the house list edited: %+v %v", h, err)
	}
	if v := check(t, svc, campaign.DeckCheck{Format: "manahearth", List: string(list)}); !v.Legal {
		t.Errorf("the deck after the edit: %s", rulesOf(v))
	}
	if _, err := svc.SetBanlist(ctx, f.admin, "coalition-2026-03-09", campaign.BanlistInput{}); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a list of the shipped document only: %v", err)
	}
}
