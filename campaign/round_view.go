// The round setup's views (2.5): what each member sees of a round before it starts — his side's
// sites, descriptions and armies, the public positions once published — and the judges' all of
// it with every problem that keeps it from starting.

package campaign

import (
	"context"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/round"
)

// RoundView is a round as one member sees it.
type RoundView struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	// State is setup, open (its campaign runs) or finished.
	State    string `json:"state"`
	Campaign int64  `json:"campaign,omitempty"`
	Previous int64  `json:"previous,omitempty"`
	Version  int64  `json:"version"`
	// Seed is the round's seed: the judges', and everyone's once the round started.
	Seed      *domain.Seed      `json:"seed,omitempty"`
	Grid      domain.Grid       `json:"grid"`
	Terrain   domain.TerrainMap `json:"terrain"`
	Published bool              `json:"published"`
	Counts    round.Counts      `json:"counts"`
	// Sites are the sites the caller may see: his side's, and every one once the positions are
	// public (2.5.1.3); a description shows to its side and the judges, and to all once accepted
	// and published.
	Sites []round.Site `json:"sites"`
	// Armies are the caller's side's armies (every one for the judges).
	Armies []round.Army `json:"armies"`
	// Mercenaries show to the judges and the mercenary judge.
	Mercenaries []domain.Army `json:"mercenaries"`
	// Requests are the team leaders' requests: their own side's, every one for the judges.
	Requests []round.Request `json:"requests"`
	Members  []Member        `json:"members"`
	// Problems are every check that fails, each with its rule: for the judges (nil otherwise).
	Problems round.Problems `json:"problems,omitempty"`
	// Ready is set when nothing keeps the round from starting (the judges').
	Ready bool `json:"ready"`
	// Audit is the round's steps in the audit log, newest first (the judges').
	Audit []AuditEntry `json:"audit,omitempty"`
	// You is what the caller may do in the round.
	You RoundRights `json:"you"`
}

// RoundRights say what the caller may do in a round now.
type RoundRights struct {
	Run        bool        `json:"run"`
	Side       domain.Side `json:"side,omitempty"`
	Leader     bool        `json:"leader,omitempty"`
	Mercenary  bool        `json:"mercenary,omitempty"`
	WinChooser bool        `json:"win_chooser,omitempty"`
}

// state is the round's state: setup, or its campaign's (open while it runs or is paused).
func roundState(rr *RoundRecord, c *Campaign) string {
	switch {
	case rr.Campaign == 0:
		return RoundSetup
	case c != nil && c.Status == Finished:
		return RoundFinished
	}
	return RoundOpen
}

// viewRound is rr as x sees it; problems and audit are the judges' (nil for others).
func viewRound(rr *RoundRecord, x access, c *Campaign, problems round.Problems) *RoundView {
	rd := &rr.Round
	all := maySeeRoundSecrets(x)
	side := x.side()
	v := &RoundView{ID: rr.ID, Name: rr.Name, State: roundState(rr, c), Campaign: rr.Campaign, Previous: rr.Previous, Version: rr.Version,
		Grid: rd.Grid, Terrain: rd.Terrain, Published: rd.Published, Counts: rd.Counts,
		Sites: []round.Site{}, Armies: []round.Army{}, Mercenaries: []domain.Army{}, Requests: []round.Request{}, Members: nonNil(slices.Clone(rr.Members)),
		You: RoundRights{Run: mayRunRound(x), Side: side, Leader: x.has(Leader) && side.IsTeam(), Mercenary: mayEditRoundMercenaries(x), WinChooser: mayChooseWinConditions(x)}}
	started := rr.Campaign != 0
	if all || started {
		seed := rd.Seed
		v.Seed = &seed
	}
	for _, s := range rd.Sites {
		own := s.Side == side && side.IsTeam()
		if !all && !own && !rd.Published && !started {
			continue
		}
		if !all && !own && !(s.Review == round.Accepted && (rd.Published || started)) {
			s.Description, s.Review, s.Reason, s.By = "", "", "", ""
		}
		if !all && s.Side == domain.Coalition && side != domain.Coalition && !rd.Published && !started {
			s.WinCondition = false
		}
		v.Sites = append(v.Sites, s)
	}
	for _, a := range rd.Armies {
		if all || started || (a.Side == side && side.IsTeam()) {
			v.Armies = append(v.Armies, a)
		}
	}
	if all || started || x.has(MercenaryJudge) {
		v.Mercenaries = append(v.Mercenaries, rd.Mercenaries...)
	}
	for _, q := range rd.Requests {
		if all || (q.Side == side && side.IsTeam()) {
			v.Requests = append(v.Requests, q)
		}
	}
	if all {
		v.Problems = problems
		v.Ready = len(problems) == 0 && !started
	}
	return v
}

// Round shows a round to anyone, each seeing what his place in it allows (viewRound).
func (s *Service) Round(ctx context.Context, a Actor, id int64) (*RoundView, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	var out *RoundView
	err = s.store.Read(ctx, func(r Reader) error {
		rr, x, err := roundAccess(r, a, id)
		if err != nil {
			return err
		}
		if !maySeeRound(x) {
			return x.refuse("see the round")
		}
		var c *Campaign
		if rr.Campaign != 0 {
			if c, err = r.Campaign(rr.Campaign); err != nil {
				return err
			}
		}
		var problems round.Problems
		if maySeeRoundSecrets(x) && rr.Campaign == 0 {
			problems = round.Check(&rr.Round, rr.players(), cat)
		}
		out = viewRound(rr, x, c, problems)
		if maySeeRoundSecrets(x) {
			if out.Audit, err = r.Audit(-rr.ID, 100); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// RoundSummary is a round in the list of rounds.
type RoundSummary struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	State    string `json:"state"`
	Campaign int64  `json:"campaign,omitempty"`
	Previous int64  `json:"previous,omitempty"`
}

// Rounds lists every round, for anyone.
func (s *Service) Rounds(ctx context.Context) ([]RoundSummary, error) {
	out := []RoundSummary{}
	err := s.store.Read(ctx, func(r Reader) error {
		rounds, err := r.Rounds()
		if err != nil {
			return err
		}
		for i := range rounds {
			rr := &rounds[i]
			var c *Campaign
			if rr.Campaign != 0 {
				if c, err = r.Campaign(rr.Campaign); err != nil {
					return err
				}
			}
			out = append(out, RoundSummary{ID: rr.ID, Name: rr.Name, State: roundState(rr, c), Campaign: rr.Campaign, Previous: rr.Previous})
		}
		return nil
	})
	return out, err
}
