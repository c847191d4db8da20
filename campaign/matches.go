// Leagues and matches of the card formats as the server's state (issue 19, docs/FORMATS.md
// E1–E6): a match's players are accounts, its events are entered by the table and kept in a
// log, an undone event stays in the log marked, and its state is the events in force replayed
// by package match.

package campaign

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/format"
	"github.com/coalition-wargame/coalition/match"
)

// LeagueInput is a new league: its name, and the format and revision its matches and decks
// are held to (the format's default revision when left out).
type LeagueInput struct {
	Name     string `json:"name"`
	Format   string `json:"format"`
	Revision string `json:"revision,omitempty"`
}

// formatRevision finds a format and revision a match can be kept in: the formats document must
// know it, and package match must keep its score.
func formatRevision(doc *format.Formats, name, rev string) (string, string, error) {
	f, r, err := doc.Find(name, rev)
	if err != nil {
		return "", "", domain.Errorf(domain.ErrInvalid, "%s", err)
	}
	if !slices.Contains(match.Formats(), f.Name) {
		return "", "", domain.Errorf(domain.ErrInvalid, "the server keeps no score of %s matches; it keeps %s", f.Name, strings.Join(match.Formats(), ", "))
	}
	return f.Name, r.Name, nil
}

// CreateLeague makes a league (admins only).
func (s *Service) CreateLeague(ctx context.Context, a Actor, in LeagueInput) (*League, error) {
	name, err := NormalName(LeagueName, in.Name)
	if err != nil {
		return nil, err
	}
	var out *League
	err = s.store.Write(ctx, func(tx Tx) error {
		x := access{actor: a}
		if err := x.need("create a league (admins only)", mayCreateLeague(x)); err != nil {
			return err
		}
		ls, err := tx.Leagues()
		if err != nil {
			return err
		}
		taken := make([]string, len(ls))
		for i, l := range ls {
			taken[i] = l.Name
		}
		if err := distinct(LeagueName, name, taken); err != nil {
			return err
		}
		doc, err := s.formatsDocument(tx)
		if err != nil {
			return err
		}
		f, rev, err := formatRevision(doc, in.Format, in.Revision)
		if err != nil {
			return err
		}
		out = &League{Name: name, Format: f, Revision: rev, By: a.Name(), At: s.now()}
		if err := tx.CreateLeague(out); err != nil {
			return err
		}
		return s.audit(tx, 0, a, "league.create", "created the league %s (%s %s)", name, f, rev)
	})
	return out, err
}

// Leagues lists the leagues (anyone).
func (s *Service) Leagues(ctx context.Context) ([]League, error) {
	var out []League
	err := s.store.Read(ctx, func(r Reader) (err error) {
		out, err = r.Leagues()
		return err
	})
	return nonNil(out), err
}

// MatchInput is a new match: its league, or its format and revision; its players, accounts in
// seat order; and its options.
type MatchInput struct {
	League   int64    `json:"league,omitempty"`
	Format   string   `json:"format,omitempty"`
	Revision string   `json:"revision,omitempty"`
	Players  []string `json:"players"`
	// Games is how many games a Heroic or Manahearth match is played over (1, 3 or 5);
	// Coalition is played over three.
	Games int `json:"games,omitempty"`
	// WinBonus is Coalition's victory points for winning a game: 5 when left out, -1 for none.
	WinBonus int `json:"win_bonus,omitempty"`
}

// MatchView is a match as the table sees it: its record, its state, every event entered
// (undone ones marked) and whether the caller may enter events.
type MatchView struct {
	MatchRecord
	LeagueName string      `json:"league_name,omitempty"`
	State      match.State `json:"state"`
	Log        []MatchLine `json:"log"`
	// InForce is how many events are in force: the number an undo names.
	InForce      int  `json:"in_force"`
	MayKeepScore bool `json:"may_keep_score"`
}

// MatchLine is one event of a match's log as the table reads it.
type MatchLine struct {
	MatchEvent
	// N is the event's number among the events in force; 0 once it is undone.
	N int `json:"n"`
}

// MatchChange is what an event or an undo did, and the match after it.
type MatchChange struct {
	Outcome match.Outcome `json:"outcome"`
	Match   *MatchView    `json:"match"`
}

// CreateMatch starts a match (a player who sits at the table, or an admin): its players must
// be accounts of the server (E3).
func (s *Service) CreateMatch(ctx context.Context, a Actor, in MatchInput) (*MatchView, error) {
	var out *MatchView
	err := s.store.Write(ctx, func(tx Tx) error {
		if err := (access{actor: a}).needLogin(); err != nil {
			return err
		}
		rec := &MatchRecord{LeagueID: in.League, Format: in.Format, Revision: in.Revision, By: a.Name(), CreatedAt: s.now()}
		rec.UpdatedAt = rec.CreatedAt
		if in.League != 0 {
			l, err := tx.League(in.League)
			if err != nil {
				return err
			}
			if in.Format != "" && !strings.EqualFold(in.Format, l.Format) || in.Revision != "" && in.Revision != l.Revision {
				return domain.Errorf(domain.ErrInvalid, "the league %s is played in %s %s: leave the format and revision out, or name those (E2)", l.Name, l.Format, l.Revision)
			}
			rec.Format, rec.Revision = l.Format, l.Revision
		}
		doc, err := s.formatsDocument(tx)
		if err != nil {
			return err
		}
		if rec.Format, rec.Revision, err = formatRevision(doc, rec.Format, rec.Revision); err != nil {
			return err
		}
		for _, name := range in.Players {
			acc, err := tx.AccountByName(name)
			if err != nil {
				return domain.Errorf(domain.ErrInvalid, "%q has no account on this server: a match's players are accounts (E3); an admin creates them", name)
			}
			rec.Players = append(rec.Players, acc.Name)
		}
		m, err := match.New(rec.Format, rec.Players, match.Options{Games: in.Games, WinBonus: in.WinBonus})
		if err != nil {
			return domain.Errorf(domain.ErrInvalid, "%s", err)
		}
		rec.Options = m.Options
		x := access{actor: a}
		if err := x.need("start a match he does not play in (admins only)", mayCreateMatch(a, rec)); err != nil {
			return err
		}
		if err := tx.CreateMatch(rec); err != nil {
			return err
		}
		out = matchView(a, rec, m, nil, "")
		if rec.LeagueID != 0 {
			l, _ := tx.League(rec.LeagueID)
			out.LeagueName = l.Name
		}
		return s.audit(tx, 0, a, "match.create", "started match %d (%s %s): %s", rec.ID, rec.Format, rec.Revision, strings.Join(rec.Players, ", "))
	})
	return out, err
}

// MaxMatches is the most matches a list returns.
const MaxMatches = 200

// Matches lists the matches (anyone), of one league or of every one (league 0), newest first.
func (s *Service) Matches(ctx context.Context, league int64, limit int) ([]MatchRecord, error) {
	if limit <= 0 || limit > MaxMatches {
		limit = 50
	}
	var out []MatchRecord
	err := s.store.Read(ctx, func(r Reader) error {
		if league != 0 {
			if _, err := r.League(league); err != nil {
				return err
			}
		}
		var err error
		out, err = r.Matches(league, limit)
		return err
	})
	return nonNil(out), err
}

// loadMatch reads a match and its events and replays the events in force.
func loadMatch(r Reader, id int64) (*MatchRecord, *match.Match, []MatchEvent, error) {
	rec, err := r.Match(id)
	if err != nil {
		return nil, nil, nil, err
	}
	evs, err := r.MatchEvents(id)
	if err != nil {
		return nil, nil, nil, err
	}
	var log []match.Entry
	for _, e := range evs {
		if e.UndoneAt == nil {
			log = append(log, match.Entry{Event: e.Event})
		}
	}
	m, err := match.Replay(rec.Format, rec.Players, rec.Options, log)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("match %d no longer replays: %w", id, err)
	}
	return rec, m, evs, nil
}

func matchView(a Actor, rec *MatchRecord, m *match.Match, evs []MatchEvent, league string) *MatchView {
	v := &MatchView{MatchRecord: *rec, LeagueName: league, State: m.State(), Log: []MatchLine{}, InForce: len(m.Log), MayKeepScore: mayKeepScore(a, rec)}
	n := 0
	for _, e := range evs {
		line := MatchLine{MatchEvent: e}
		if e.UndoneAt == nil {
			n++
			line.N = n
		}
		v.Log = append(v.Log, line)
	}
	return v
}

// Match shows a match (anyone): its state and every event entered.
func (s *Service) Match(ctx context.Context, a Actor, id int64) (*MatchView, error) {
	var out *MatchView
	err := s.store.Read(ctx, func(r Reader) error {
		rec, m, evs, err := loadMatch(r, id)
		if err != nil {
			return err
		}
		out = matchView(a, rec, m, evs, "")
		if rec.LeagueID != 0 {
			l, err := r.League(rec.LeagueID)
			if err != nil {
				return err
			}
			out.LeagueName = l.Name
		}
		return nil
	})
	return out, err
}

// MatchEventInput is an event the table enters (match.Event) and, optionally, how many events
// in force the caller saw: when another came first, the event is refused as a conflict (E4).
type MatchEventInput struct {
	Kind    string   `json:"kind"`
	Player  string   `json:"player,omitempty"`
	Players []string `json:"players,omitempty"`
	Target  string   `json:"target,omitempty"`
	Amount  int      `json:"amount,omitempty"`
	Source  string   `json:"source,omitempty"`
	Combat  bool     `json:"combat,omitempty"`
	Card    string   `json:"card,omitempty"`
	After   *int     `json:"after,omitempty"`
}

// changeMatch runs a change of a match by someone at its table (or an admin): fn changes the
// replayed match and says what to store; the match's version guards against a change that
// came first.
func (s *Service) changeMatch(ctx context.Context, a Actor, id int64, what string, fn func(tx Tx, rec *MatchRecord, m *match.Match, evs []MatchEvent) (match.Outcome, error)) (*MatchChange, error) {
	var out *MatchChange
	err := s.store.Write(ctx, func(tx Tx) error {
		rec, m, evs, err := loadMatch(tx, id)
		if err != nil {
			return err
		}
		x := access{actor: a}
		if err := x.need(what+" (the match's players and admins only)", mayKeepScore(a, rec)); err != nil {
			return err
		}
		outcome, err := fn(tx, rec, m, evs)
		if err != nil {
			return err
		}
		prev := rec.Version
		st := m.State()
		rec.Version, rec.Over, rec.Result, rec.UpdatedAt = prev+1, st.Over, matchResult(st), s.now()
		ok, err := tx.UpdateMatch(rec, prev)
		if err != nil {
			return err
		}
		if !ok {
			return domain.Errorf(domain.ErrConflict, "match %d changed meanwhile: reload it and enter the event again", id)
		}
		evs, err = tx.MatchEvents(id)
		if err != nil {
			return err
		}
		out = &MatchChange{Outcome: outcome, Match: matchView(a, rec, m, evs, "")}
		if rec.LeagueID != 0 {
			l, err := tx.League(rec.LeagueID)
			if err != nil {
				return err
			}
			out.Match.LeagueName = l.Name
		}
		return nil
	})
	return out, err
}

// matchResult words how a match ended, or "" while it is played.
func matchResult(st match.State) string {
	switch {
	case !st.Over:
		return ""
	case st.Draw:
		return "a draw between " + strings.Join(st.Tied, " and ")
	}
	return st.Winner + " won"
}

// AddMatchEvent enters an event of a match (its players, or an admin): the rules of its format
// accept it and it is logged, or refuse it with their code and words and nothing is stored.
func (s *Service) AddMatchEvent(ctx context.Context, a Actor, id int64, in MatchEventInput) (*MatchChange, error) {
	e := match.Event{Kind: strings.TrimSpace(in.Kind), Player: in.Player, Players: in.Players, Target: in.Target, Amount: in.Amount, Source: in.Source, Combat: in.Combat, Card: strings.TrimSpace(in.Card)}
	return s.changeMatch(ctx, a, id, "enter an event of the match", func(tx Tx, rec *MatchRecord, m *match.Match, evs []MatchEvent) (match.Outcome, error) {
		if in.After != nil && *in.After != len(m.Log) {
			return match.Outcome{}, domain.Errorf(domain.ErrConflict, "the match has %d events in force, not %d: someone at the table entered or undid one meanwhile; reload it (E4)", len(m.Log), *in.After)
		}
		out := m.Apply(e)
		if !out.OK {
			return out, domain.Errorf(domain.ErrInvalid, "%s (refused: %s)", out.Message, out.Code)
		}
		last := m.Log[len(m.Log)-1]
		seq := 1
		if len(evs) > 0 {
			seq = evs[len(evs)-1].Seq + 1
		}
		if err := tx.AddMatchEvent(&MatchEvent{MatchID: id, Seq: seq, Game: last.Game, Event: e, Says: last.Says, By: a.Name(), At: s.now()}); err != nil {
			return out, err
		}
		if !atTable(a, rec) {
			return out, s.audit(tx, 0, a, "match.event", "entered event %d of match %d, where he does not play: %s", seq, id, last.Says)
		}
		return out, nil
	})
}

// UndoMatchEvent takes back the last event in force of a match (its players, or an admin): n
// must be its number, so that two people undoing at once take back one event, not two. The
// event stays in the log, marked undone; the state is the others replayed.
func (s *Service) UndoMatchEvent(ctx context.Context, a Actor, id int64, n int) (*MatchChange, error) {
	return s.changeMatch(ctx, a, id, "undo an event of the match", func(tx Tx, rec *MatchRecord, m *match.Match, evs []MatchEvent) (match.Outcome, error) {
		if len(m.Log) == 0 {
			return match.Outcome{}, domain.Errorf(domain.ErrConflict, "match %d has no event in force to undo", id)
		}
		if n != len(m.Log) {
			return match.Outcome{}, domain.Errorf(domain.ErrConflict, "event %d is not the last in force (%d is): only the last event is undone; reload the match (E4)", n, len(m.Log))
		}
		last, _ := m.Undo()
		i := len(evs) - 1
		for evs[i].UndoneAt != nil {
			i--
		}
		ev := evs[i]
		if err := tx.UndoMatchEvent(id, ev.Seq, a.Name(), s.now()); err != nil {
			return match.Outcome{}, err
		}
		out := match.Outcome{OK: true, Message: fmt.Sprintf("undone: %s", cmp.Or(last.Says, last.Event.Kind))}
		return out, s.audit(tx, 0, a, "match.undo", "undid event %d of match %d: %s", ev.Seq, id, last.Says)
	})
}
