// The round setup's steps on the armies (2.5.2, 2.5.3): the number per rank, the players' and
// leaders' army requests through the troop checker, the placement by the seed and the judge's
// moves, and the mercenaries.

package campaign

import (
	"context"
	"fmt"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
	"github.com/coalition-wargame/coalition/round"
)

// SetCounts sets the number of armies of each rank both sides start with (2.5.2.1): at most
// 1/2/7/7/14 (Lieutenants unlimited), at least the players of either side holding the rank.
func (s *Service) SetCounts(ctx context.Context, a Actor, id int64, req round.Counts) (*RoundView, error) {
	return s.roundWrite(ctx, a, id, "set the number of armies (the judges only)", judgesOnly, func(tx Tx, rr *RoundRecord, _ access) (string, string, error) {
		if err := roundRefused("the counts are refused", round.CheckCounts(req, rr.players())); err != nil {
			return "", "", err
		}
		rr.Round.Counts = req
		return "round.counts", fmt.Sprintf("each side starts with %d/%d/%d/%d/%d/%d armies (2.5.2.1)", req.General, req.Admiral, req.Captain, req.Commander, req.LtCommander, req.Lieutenant), nil
	})
}

// RoundArmyInput is an army's request (2.5.2.2, 2.5.2.3): fields left out keep what the army
// has. A player's own army takes his name, rank, side and factions; At and Controllers are the
// judges' (Controllers the leaders' too).
type RoundArmyInput struct {
	Side        domain.Side    `json:"side,omitempty"`
	Rank        domain.Rank    `json:"rank,omitempty"`
	Colors      []domain.Color `json:"colors,omitempty"`
	Troops      roster.List    `json:"troops,omitempty"`
	Base        string         `json:"base,omitempty"`
	At          *domain.Square `json:"at,omitempty"`
	Controllers []string       `json:"controllers,omitempty"`
}

// PutRoundArmy creates or changes an army of the round: a player sends his own army's troop
// list and colours, a team leader any army of his side (the proxies' too, 2.5.2.2) and where it
// starts (2.5.2.3), a judge any army and its square. The troop list goes through the troop
// checker and is refused with every problem; the colours, the base and the square are checked
// by their rules.
func (s *Service) PutRoundArmy(ctx context.Context, a Actor, id int64, name string, req RoundArmyInput) (*RoundView, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	name, err = NormalName(ArmyName, name)
	if err != nil {
		return nil, err
	}
	return s.roundWrite(ctx, a, id, "send this army's request", func(x access, rr *RoundRecord) bool {
		old := rr.Round.Army(name)
		side := req.Side
		if old != nil {
			side = old.Side
		}
		return maySendRoundArmy(x, name, side)
	}, func(tx Tx, rr *RoundRecord, x access) (string, string, error) {
		rd := &rr.Round
		judge := mayRunRound(x)
		a := rd.Army(name)
		created := a == nil
		if created {
			if rd.Mercenary(name) != nil {
				return "", "", domain.Errorf(domain.ErrConflict, "a mercenary is named %s", name)
			}
			rd.Armies = append(rd.Armies, round.Army{Name: name, By: x.actor.Name()})
			a = &rd.Armies[len(rd.Armies)-1]
			if p := rr.member(Actor{Account: &Account{Name: name}}); p != nil && p.Plays() {
				a.Player, a.Side, a.Rank, a.Colors = p.Name, p.Side, p.Rank, slices.Clone(p.Factions)
			} else {
				a.Side, a.Rank = req.Side, req.Rank
				if a.Side == "" {
					a.Side = x.side()
				}
			}
		}
		if !maySendRoundArmy(x, name, a.Side) {
			return "", "", x.refuse("send the request of " + a.Side.Title() + "'s army " + name)
		}
		if a.Player == "" && req.Rank != 0 {
			a.Rank = req.Rank
		}
		if !a.Side.IsTeam() || !slices.Contains(round.ArmyRanks, a.Rank) {
			return "", "", domain.Errorf(domain.ErrInvalid, "say the side and the rank of the army %s (2.5.2.1)", name)
		}
		if created && !rd.Counts.IsZero() {
			n := 0
			for _, o := range rd.Armies {
				if o.Side == a.Side && o.Rank == a.Rank {
					n++
				}
			}
			if n > rd.Counts.Of(a.Rank) {
				return "", "", domain.Errorf(domain.ErrInvalid, "%s starts with %d %s armies, and has them all: the count is the judges' (2.5.2.1)", a.Side.Title(), rd.Counts.Of(a.Rank), a.Rank.Name(a.Side))
			}
		}
		if req.Colors != nil {
			a.Colors = req.Colors
		}
		if req.Troops != nil {
			a.Troops = req.Troops
			rep := round.CheckList(cat, a)
			if !rep.OK() {
				return "", "", &ListProblem{Army: name, Problems: rep.Problems}
			}
		}
		if req.Base != "" {
			if !rd.Published && !judge {
				return "", "", domain.Errorf(domain.ErrConflict, "the base positions are not public yet: the sides request where their armies start once they are (2.5.2.3)")
			}
			if req.Base != a.Base {
				a.Base, a.At = req.Base, domain.Square{}
			}
		}
		if req.At != nil {
			if !judge {
				return "", "", domain.Errorf(domain.ErrForbidden, "players cannot request individual squares: the judge drops the armies by their bases (2.5.2.3)")
			}
			a.At = *req.At
		}
		if req.Controllers != nil {
			if !judge && !x.has(Leader) {
				return "", "", domain.Errorf(domain.ErrForbidden, "the team leaders and the judges say who controls an army (5.2.1)")
			}
			a.Controllers = req.Controllers
		}
		if err := roundRefused("the army is refused", armyProblems(rd, a)); err != nil {
			return "", "", err
		}
		verb := "changed"
		if created {
			verb = "created"
		}
		return "round.army", fmt.Sprintf("%s %s %s (%s of %s)", x.actor.Name(), verb, name, a.Rank.Name(a.Side), a.Side.Title()), nil
	})
}

// armyProblems are the problems of the round's checks that concern army a and that its request
// can fix: its colours (2.2.1.1), its base (2.5.2.3), its square when it has one (2.5.2.3).
func armyProblems(rd *round.Round, a *round.Army) round.Problems {
	out := round.CheckColors(a)
	for _, p := range round.CheckPlacement(rd) {
		if p.Subject != a.Name {
			continue
		}
		switch p.Code {
		case round.CodeNoBase:
			if a.Base != "" {
				out = append(out, p)
			}
		case round.CodeUnplaced:
			if !a.At.IsZero() {
				out = append(out, p)
			}
		default:
			out = append(out, p)
		}
	}
	return out
}

// RemoveRoundArmy takes an army out of the round: a judge any, a team leader his side's proxies.
func (s *Service) RemoveRoundArmy(ctx context.Context, a Actor, id int64, name string) (*RoundView, error) {
	return s.roundWrite(ctx, a, id, "remove this army", func(x access, rr *RoundRecord) bool {
		old := rr.Round.Army(name)
		return old == nil || mayRemoveRoundArmy(x, old)
	}, func(tx Tx, rr *RoundRecord, x access) (string, string, error) {
		i := slices.IndexFunc(rr.Round.Armies, func(o round.Army) bool { return domain.SameName(o.Name, name) })
		if i < 0 {
			return "", "", domain.Errorf(domain.ErrNotFound, "the round has no army named %q", name)
		}
		rr.Round.Armies = slices.Delete(rr.Round.Armies, i, i+1)
		return "round.army.remove", fmt.Sprintf("%s removed %s", x.actor.Name(), name), nil
	})
}

// PlaceRequest asks the server to drop the armies by their bases.
type PlaceRequest struct{}

// PlaceArmies drops every army with a base and no square on a free square next to that base, by
// the round's seed (2.5.2.3, round.Place); the judge may move them afterwards.
func (s *Service) PlaceArmies(ctx context.Context, a Actor, id int64, _ PlaceRequest) (*RoundView, error) {
	return s.roundWrite(ctx, a, id, "drop the armies on the map (the judges only)", judgesOnly, func(tx Tx, rr *RoundRecord, _ access) (string, string, error) {
		if !rr.Round.Published {
			return "", "", domain.Errorf(domain.ErrConflict, "the base positions are not public yet: the armies are dropped once the sides requested their bases (2.5.2.3)")
		}
		placed := round.Place(&rr.Round)
		return "round.place", fmt.Sprintf("dropped %d armies by their bases (2.5.2.3)", len(placed)), nil
	})
}

// MercenaryInput is a mercenary army of the round as the judge writes it (2.5.3, chapter 6).
type MercenaryInput struct {
	Faction domain.Faction `json:"faction"`
	Rank    domain.Rank    `json:"rank"`
	At      domain.Square  `json:"at"`
	Troops  roster.List    `json:"troops"`
	Ocean   bool           `json:"ocean,omitempty"`
}

// PutRoundMercenary creates or replaces a mercenary of the round (the judges and the mercenary
// judge): its troop list through the troop checker; where it stands and its rank are checked
// with the round's other checks (6.1–6.3).
func (s *Service) PutRoundMercenary(ctx context.Context, a Actor, id int64, name string, req MercenaryInput) (*RoundView, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	name, err = NormalName(ArmyName, name)
	if err != nil {
		return nil, err
	}
	return s.roundWrite(ctx, a, id, "edit the mercenaries (the judges and the mercenary judge)", func(x access, _ *RoundRecord) bool { return mayEditRoundMercenaries(x) },
		func(tx Tx, rr *RoundRecord, x access) (string, string, error) {
			rd := &rr.Round
			if rd.Army(name) != nil {
				return "", "", domain.Errorf(domain.ErrConflict, "an army of a side is named %s", name)
			}
			switch req.Faction {
			case domain.TownDefender, domain.Theme, domain.Raider:
			default:
				return "", "", domain.Errorf(domain.ErrInvalid, "%q is no mercenary faction: town-defender, theme or raider (6)", req.Faction)
			}
			if !rd.Grid.Contains(req.At) {
				return "", "", domain.Errorf(domain.ErrInvalid, "%s is not on the map", req.At)
			}
			rep := roster.Check(cat, req.Troops, roster.Army{Name: name, Side: domain.Mercenary, Rank: req.Rank})
			if !rep.OK() {
				return "", "", &ListProblem{Army: name, Problems: rep.Problems}
			}
			m := domain.Army{Name: name, Side: domain.Mercenary, Rank: req.Rank, At: req.At, Faction: req.Faction, Troops: rep.Troops, Legend: rep.Legend}
			switch req.Faction {
			case domain.TownDefender:
				for _, t := range rd.SitesOf(domain.Town, "") {
					if t.At == req.At {
						m.Home = t.Name
					}
				}
			case domain.Theme:
				m.Territory, m.Ocean = req.At, req.Ocean
			}
			if i := slices.IndexFunc(rd.Mercenaries, func(o domain.Army) bool { return domain.SameName(o.Name, name) }); i >= 0 {
				rd.Mercenaries[i] = m
			} else {
				rd.Mercenaries = append(rd.Mercenaries, m)
			}
			return "round.mercenary", fmt.Sprintf("%s wrote the mercenary %s (%s, %s on %s)", x.actor.Name(), name, req.Faction, req.Rank.Name(domain.Coalition), req.At), nil
		})
}

// RemoveRoundMercenary takes a mercenary out of the round (the judges and the mercenary judge).
func (s *Service) RemoveRoundMercenary(ctx context.Context, a Actor, id int64, name string) (*RoundView, error) {
	return s.roundWrite(ctx, a, id, "edit the mercenaries (the judges and the mercenary judge)", func(x access, _ *RoundRecord) bool { return mayEditRoundMercenaries(x) },
		func(tx Tx, rr *RoundRecord, x access) (string, string, error) {
			i := slices.IndexFunc(rr.Round.Mercenaries, func(o domain.Army) bool { return domain.SameName(o.Name, name) })
			if i < 0 {
				return "", "", domain.Errorf(domain.ErrNotFound, "the round has no mercenary named %q", name)
			}
			rr.Round.Mercenaries = slices.Delete(rr.Round.Mercenaries, i, i+1)
			return "round.mercenary.remove", fmt.Sprintf("%s removed the mercenary %s", x.actor.Name(), name), nil
		})
}
