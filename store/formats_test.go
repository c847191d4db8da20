package store

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/format"
	"github.com/coalition-wargame/coalition/match"
)

// TestFormatsRecords: the card formats' records come back as they were stored, and the
// store's own guards hold — a banned list's version, a league's name and a match event's
// number given twice are conflicts, a match's conditional update refuses a stale version, an
// event is undone once (issue 19).
func TestFormatsRecords(t *testing.T) {
	db := open(t)
	// conflict runs a write that must fail as a conflict, in a transaction of its own (on
	// PostgreSQL a failed statement ends its transaction).
	conflict := func(what string, fn func(tx campaign.Tx) error) {
		t.Helper()
		if err := db.Write(ctx, fn); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("%s: %v, want a conflict", what, err)
		}
	}
	at := time.Date(2026, 3, 2, 5, 0, 0, 0, time.UTC)
	err := db.Write(ctx, func(tx campaign.Tx) error {
		v := &campaign.BanlistVersion{List: "heroic-2023-12-03", Version: 2, Banlist: format.Banlist{ID: "heroic-2023-12-03", Title: "t", Categories: []string{"ante"}, Names: []string{"Sol Ring"}}, By: "admin", At: at, Reason: "r"}
		if err := tx.AddBanlistVersion(v); err != nil || v.ID == 0 {
			t.Fatalf("a banned list's version: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	conflict("a version given twice", func(tx campaign.Tx) error {
		return tx.AddBanlistVersion(&campaign.BanlistVersion{List: "heroic-2023-12-03", Version: 2, By: "admin", At: at})
	})
	var id int64
	err = db.Write(ctx, func(tx campaign.Tx) error {
		l := &campaign.League{Name: "Winter League", Format: "heroic", Revision: "2023-12-03", By: "admin", At: at}
		if err := tx.CreateLeague(l); err != nil {
			return err
		}
		m := &campaign.MatchRecord{LeagueID: l.ID, Format: "heroic", Revision: "2023-12-03", Players: []string{"Ann", "Bob"}, Options: match.Options{Games: 3, WinBonus: 5}, By: "Ann", CreatedAt: at, UpdatedAt: at}
		if err := tx.CreateMatch(m); err != nil {
			return err
		}
		id = m.ID
		for seq := 1; seq <= 2; seq++ {
			if err := tx.AddMatchEvent(&campaign.MatchEvent{MatchID: id, Seq: seq, Game: 1, Event: match.Event{Kind: "turn", Player: "Ann"}, Says: "Ann's turn", By: "Ann", At: at}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	conflict("a second league of the name", func(tx campaign.Tx) error {
		return tx.CreateLeague(&campaign.League{Name: "winter  league", Format: "coalition", Revision: "page", By: "admin", At: at})
	})
	conflict("an event number given twice", func(tx campaign.Tx) error {
		return tx.AddMatchEvent(&campaign.MatchEvent{MatchID: id, Seq: 2, Event: match.Event{Kind: "draw"}, By: "Bob", At: at})
	})
	err = db.Write(ctx, func(tx campaign.Tx) error {
		m, err := tx.Match(id)
		if err != nil {
			return err
		}
		m.Version, m.Over, m.Result, m.UpdatedAt = 1, true, "Ann won", at.Add(time.Hour)
		if ok, err := tx.UpdateMatch(m, 0); !ok || err != nil {
			t.Errorf("the update: %v %v", ok, err)
		}
		m.Version = 2
		if ok, err := tx.UpdateMatch(m, 0); ok || err != nil {
			t.Errorf("an update from a stale version: %v %v", ok, err)
		}
		return tx.UndoMatchEvent(id, 2, "Bob", at.Add(time.Minute))
	})
	if err != nil {
		t.Fatal(err)
	}
	conflict("an event undone twice", func(tx campaign.Tx) error { return tx.UndoMatchEvent(id, 2, "Bob", at.Add(time.Minute)) })
	err = db.Read(ctx, func(r campaign.Reader) error {
		vs, err := r.BanlistVersions()
		if err != nil || len(vs) != 1 || vs[0].Reason != "r" || !slices.Equal(vs[0].Banlist.Names, []string{"Sol Ring"}) || !vs[0].At.Equal(at) {
			t.Errorf("the versions: %+v %v", vs, err)
		}
		m, err := r.Match(id)
		if err != nil || m.Version != 1 || !m.Over || m.Result != "Ann won" || m.LeagueID == 0 || !slices.Equal(m.Players, []string{"Ann", "Bob"}) || m.Options.Games != 3 {
			t.Errorf("the match: %+v %v", m, err)
		}
		evs, err := r.MatchEvents(id)
		if err != nil || len(evs) != 2 || evs[0].UndoneAt != nil || evs[1].UndoneBy != "Bob" || evs[1].UndoneAt == nil || evs[1].Event.Player != "Ann" {
			t.Errorf("the events: %+v %v", evs, err)
		}
		ms, err := r.Matches(m.LeagueID, 10)
		if err != nil || len(ms) != 1 {
			t.Errorf("the league's matches: %+v %v", ms, err)
		}
		if ms, _ := r.Matches(m.LeagueID+1, 10); len(ms) != 0 {
			t.Errorf("another league's matches: %+v", ms)
		}
		if _, err := r.League(99); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("a missing league: %v", err)
		}
		if _, err := r.Match(99); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("a missing match: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
