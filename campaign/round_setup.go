// The round setup's steps on the map (2.5.1): the generator's proposal, the judges' sites, the
// leaders' requests, the descriptions and their review, the Coalition's win conditions, and the
// publishing of the positions.

package campaign

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/round"
)

// RoundProblem is a step of the setup the rules refuse: every problem, each with its rule. It
// wraps kind (domain.ErrInvalid, or domain.ErrConflict for a start refused).
type RoundProblem struct {
	What     string
	Problems round.Problems
	kind     error
}

// Error lists every problem's message.
func (e *RoundProblem) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.Message
	}
	return fmt.Sprintf("%s: %s", e.What, strings.Join(parts, "; "))
}

// Unwrap is the error's kind.
func (e *RoundProblem) Unwrap() error { return e.kind }

// roundRefused is nil for no problems, else a RoundProblem of kind ErrInvalid.
func roundRefused(what string, ps round.Problems) error {
	if len(ps) == 0 {
		return nil
	}
	return &RoundProblem{What: what, Problems: ps, kind: domain.ErrInvalid}
}

// roundStep is one write of a round's setup: fn changes the round in place and says what it did
// for the audit log.
type roundStep func(tx Tx, rr *RoundRecord, x access) (action, detail string, err error)

// roundWrite runs a step on round id in one transaction, when the actor may (may) and the round
// is still being set up; the round's version moves on and the step is audited. It returns the
// round as the actor sees it.
func (s *Service) roundWrite(ctx context.Context, a Actor, id int64, what string, may func(access, *RoundRecord) bool, step roundStep) (*RoundView, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, err
	}
	var rr *RoundRecord
	var x access
	err = s.store.Write(ctx, func(tx Tx) error {
		if rr, x, err = roundAccess(tx, a, id); err != nil {
			return err
		}
		if err := x.need(what, may(x, rr)); err != nil {
			return err
		}
		if rr.Campaign != 0 {
			return domain.Errorf(domain.ErrConflict, "%s has started as campaign %d: its setup is closed (2.5)", rr.Name, rr.Campaign)
		}
		action, detail, err := step(tx, rr, x)
		if err != nil {
			return err
		}
		rr.Version++
		if err := tx.UpdateRound(rr); err != nil {
			return err
		}
		return s.roundAudit(tx, rr, a, action, "%s", detail)
	})
	if err != nil {
		return nil, err
	}
	var problems round.Problems
	if maySeeRoundSecrets(x) {
		problems = round.Check(&rr.Round, rr.players(), cat)
	}
	return viewRound(rr, x, nil, problems), nil
}

// judgesOnly is the permission of the steps only the judges take.
func judgesOnly(x access, _ *RoundRecord) bool { return mayRunRound(x) }

// GenerateRequest asks the generator to fill in what the round lacks.
type GenerateRequest struct{}

// GenerateRound fills in everything the round lacks by its seed, its players and the card data
// (round.Fill): the judges' proposal, which they may change afterwards.
func (s *Service) GenerateRound(ctx context.Context, a Actor, id int64, _ GenerateRequest) (*RoundView, error) {
	_, pool, err := s.legalPool(ctx)
	if err != nil {
		return nil, err
	}
	return s.roundWrite(ctx, a, id, "fill in the round (its judges only)", judgesOnly, func(tx Tx, rr *RoundRecord, x access) (string, string, error) {
		before := len(rr.Round.Armies) + len(rr.Round.Mercenaries) + len(rr.Round.Sites)
		if err := round.Fill(&rr.Round, round.Options{Players: rr.players(), Pool: pool, By: x.actor.Name()}); err != nil {
			return "", "", err
		}
		after := len(rr.Round.Armies) + len(rr.Round.Mercenaries) + len(rr.Round.Sites)
		return "round.generate", fmt.Sprintf("the generator filled in %d sites and armies", after-before), nil
	})
}

// SiteInput is a base, portal or town as the judge places it; the side follows from the kind.
type SiteInput struct {
	Name  string          `json:"name"`
	Kind  domain.SiteKind `json:"kind"`
	Color domain.Color    `json:"color,omitempty"`
	At    domain.Square   `json:"at"`
}

// SitesRequest is every site of the round, as the judge places them.
type SitesRequest struct {
	Sites []SiteInput `json:"sites"`
}

// SetSites places the round's bases, portals and towns (2.5.1.1, 2.5.1.4), keeping the
// description of every site that keeps its name. A base less than 3 squares from an enemy base
// is refused naming both (2.5.1.1), as are more sites of a kind than the round has, and a base or
// portal moved once the positions are public (2.5.1.3).
func (s *Service) SetSites(ctx context.Context, a Actor, id int64, req SitesRequest) (*RoundView, error) {
	return s.roundWrite(ctx, a, id, "place the round's sites (its judges only)", judgesOnly, func(tx Tx, rr *RoundRecord, _ access) (string, string, error) {
		rd := &rr.Round
		var sites []round.Site
		for _, in := range req.Sites {
			side := map[domain.SiteKind]domain.Side{domain.Base: domain.Coalition, domain.Portal: domain.Phyrexia, domain.Town: domain.Neutral}[in.Kind]
			if side == "" {
				return "", "", domain.Errorf(domain.ErrInvalid, "site %s has kind %q: use base, portal or town", in.Name, in.Kind)
			}
			name, err := NormalName(CampaignName, in.Name)
			if err != nil {
				return "", "", err
			}
			st := round.Site{Site: domain.Site{Name: name, Kind: in.Kind, Side: side, At: in.At, WinCondition: in.Kind == domain.Portal}}
			if in.Kind == domain.Base {
				st.Color = in.Color
			}
			if old := rd.Site(name); old != nil && old.Kind == in.Kind {
				st.Description, st.Review, st.Reason, st.By = old.Description, old.Review, old.Reason, old.By
				st.WinCondition = st.WinCondition || old.WinCondition
				if rd.Published && old.Kind != domain.Town && old.At != in.At {
					return "", "", domain.Errorf(domain.ErrConflict, "the base positions are public: %s stays on %s (2.5.1.3, 2.5.2.3)", old.Name, old.At)
				}
			} else if rd.Published && in.Kind != domain.Town {
				return "", "", domain.Errorf(domain.ErrConflict, "the base positions are public: no base or portal is added now (2.5.1.3, 2.5.2.3)")
			}
			sites = append(sites, st)
		}
		next := *rd
		next.Sites = sites
		if err := roundRefused("the sites are refused", round.CheckSitesSoFar(&next)); err != nil {
			return "", "", err
		}
		rd.Sites = sites
		return "round.sites", fmt.Sprintf("placed %d sites", len(sites)), nil
	})
}

// RequestInput is a team leader's request to the judges.
type RequestInput struct {
	Text string `json:"text"`
}

// maxRequest is the most characters a request or a description may have.
const maxRequest = 8000

// AddRequest records a team leader's request to the judges, which they see beside the map
// (2.5.1.1 "Team leaders may make requests").
func (s *Service) AddRequest(ctx context.Context, a Actor, id int64, req RequestInput) (*RoundView, error) {
	return s.roundWrite(ctx, a, id, "send the judges a request (team leaders only)", func(x access, _ *RoundRecord) bool { return mayRequestRound(x) },
		func(tx Tx, rr *RoundRecord, x access) (string, string, error) {
			text := strings.TrimSpace(req.Text)
			if text == "" || utf8.RuneCountInString(text) > maxRequest {
				return "", "", domain.Errorf(domain.ErrInvalid, "write the request: 1–%d characters", maxRequest)
			}
			rr.Round.Requests = append(rr.Round.Requests, round.Request{By: x.actor.Name(), Side: x.side(), Text: text})
			return "round.request", fmt.Sprintf("%s sent a request for %s", x.actor.Name(), x.side().Title()), nil
		})
}

// DescriptionInput is a side's description of one of its bases (2.5.1.2).
type DescriptionInput struct {
	Text string `json:"text"`
}

// Describe records a side's description of its base or portal (2.5.1.2): its team leaders (or a
// judge) write it, and it waits for the judge's review.
func (s *Service) Describe(ctx context.Context, a Actor, id int64, site string, req DescriptionInput) (*RoundView, error) {
	return s.roundWrite(ctx, a, id, "describe the base (its side's team leaders)", func(x access, rr *RoundRecord) bool {
		st := rr.Round.Site(site)
		return st == nil || mayDescribeBase(x, st.Side)
	}, func(tx Tx, rr *RoundRecord, x access) (string, string, error) {
		st := rr.Round.Site(site)
		if st == nil || st.Kind == domain.Town {
			return "", "", domain.Errorf(domain.ErrNotFound, "the round has no base or portal named %q", site)
		}
		text := strings.TrimSpace(req.Text)
		if text == "" || utf8.RuneCountInString(text) > maxRequest {
			return "", "", domain.Errorf(domain.ErrInvalid, "write the description: 1–%d characters (2.5.1.2)", maxRequest)
		}
		st.Description, st.Review, st.Reason, st.By = text, round.Pending, "", x.actor.Name()
		return "round.describe", fmt.Sprintf("%s described %s; it waits for the judge (2.5.1.2)", x.actor.Name(), st.Name), nil
	})
}

// ReviewInput is the judge's verdict on a description: accepted, or rejected with a reason.
type ReviewInput struct {
	Accept bool   `json:"accept"`
	Reason string `json:"reason,omitempty"`
}

// ReviewDescription accepts or rejects a base's description (2.5.1.2): a rejection says why
// ("too unbalanced"), and the side writes another.
func (s *Service) ReviewDescription(ctx context.Context, a Actor, id int64, site string, req ReviewInput) (*RoundView, error) {
	return s.roundWrite(ctx, a, id, "review base descriptions (the judges only)", judgesOnly, func(tx Tx, rr *RoundRecord, _ access) (string, string, error) {
		st := rr.Round.Site(site)
		if st == nil || st.Kind == domain.Town {
			return "", "", domain.Errorf(domain.ErrNotFound, "the round has no base or portal named %q", site)
		}
		if strings.TrimSpace(st.Description) == "" {
			return "", "", domain.Errorf(domain.ErrConflict, "%s has no description to review yet (2.5.1.2)", st.Name)
		}
		reason := strings.TrimSpace(req.Reason)
		if !req.Accept && reason == "" {
			return "", "", domain.Errorf(domain.ErrInvalid, "say why the description of %s is rejected: the side writes another (2.5.1.2)", st.Name)
		}
		st.Review, st.Reason = round.Accepted, ""
		if !req.Accept {
			st.Review, st.Reason = round.Rejected, reason
		}
		return "round.review", fmt.Sprintf("the description of %s is %s %s", st.Name, st.Review, reason), nil
	})
}

// WinConditionsInput names the Coalition's 5 win conditions (2.5.1.3).
type WinConditionsInput struct {
	Bases []string `json:"bases"`
}

// ChooseWinConditions records the Coalition leadership's choice of exactly 5 of its bases as win
// conditions, before the positions are public (2.5.1.3): 4 or 6 are refused.
func (s *Service) ChooseWinConditions(ctx context.Context, a Actor, id int64, req WinConditionsInput) (*RoundView, error) {
	return s.roundWrite(ctx, a, id, "choose the Coalition's win conditions (its team leaders)", func(x access, _ *RoundRecord) bool { return mayChooseWinConditions(x) },
		func(tx Tx, rr *RoundRecord, x access) (string, string, error) {
			if err := round.ChooseWinConditions(&rr.Round, req.Bases); err != nil {
				return "", "", err
			}
			return "round.win-conditions", fmt.Sprintf("%s chose the Coalition's win conditions: %s (2.5.1.3)", x.actor.Name(), strings.Join(req.Bases, ", ")), nil
		})
}

// PublishRequest makes the base positions public.
type PublishRequest struct{}

// Publish makes the base positions public (2.5.1.3, 2.5.2.3): refused until the 12 bases stand
// where the rules allow and the Coalition has chosen its 5 win conditions; then the sides
// request where their armies start.
func (s *Service) Publish(ctx context.Context, a Actor, id int64, _ PublishRequest) (*RoundView, error) {
	return s.roundWrite(ctx, a, id, "publish the base positions (the judges only)", judgesOnly, func(tx Tx, rr *RoundRecord, _ access) (string, string, error) {
		rd := &rr.Round
		if rd.Published {
			return "", "", domain.Errorf(domain.ErrConflict, "the base positions are public already")
		}
		ps := append(round.CheckPositions(rd), round.CheckWinConditions(rd)...)
		if err := roundRefused("the positions cannot be published yet", ps); err != nil {
			return "", "", err
		}
		rd.Published = true
		return "round.publish", "the base positions are public (2.5.1.3, 2.5.2.3)", nil
	})
}
