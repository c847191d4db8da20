// A new round set up on the server (2.5): the round's record, its store port, who is what in it,
// and its creation — from nothing by an admin, or as the next round of a finished campaign.

package campaign

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/round"
)

// RoundRecord is a round as the store keeps it: the setup document, the members who set it up
// and play it, the campaign it became when it started and the finished campaign it follows.
type RoundRecord struct {
	ID      int64
	Name    string
	Round   round.Round
	Members []Member
	// Campaign is the campaign the round started as; 0 while it is set up.
	Campaign int64
	// Previous is the finished campaign the round follows (the next round, 1.7); 0 for none.
	Previous  int64
	Version   int64
	CreatedAt time.Time
	StartedAt *time.Time
}

// RoundReader is what the round setup reads from a store.
type RoundReader interface {
	// Round returns a round by id.
	Round(id int64) (*RoundRecord, error)
	// Rounds lists every round by id.
	Rounds() ([]RoundRecord, error)
}

// RoundWriter is what the round setup writes.
type RoundWriter interface {
	// CreateRound stores a new round and sets its id.
	CreateRound(r *RoundRecord) error
	// UpdateRound stores a round's setup, members, campaign and start, and its version.
	UpdateRound(r *RoundRecord) error
}

// The states of a round: set up, then open (its campaign runs), then finished (1.7).
const (
	RoundSetup    = "setup"
	RoundOpen     = "open"
	RoundFinished = "finished"
)

// players are the round's players and team leaders as its checks see them.
func (rr *RoundRecord) players() []round.Player {
	var out []round.Player
	for i := range rr.Members {
		m := &rr.Members[i]
		if !m.Plays() {
			continue
		}
		out = append(out, round.Player{Name: m.Name, Side: m.Side, Rank: m.Rank, Leader: m.Has(Leader), Factions: slices.Clone(m.Factions)})
	}
	return out
}

// member is the round's member who is the actor, or nil.
func (rr *RoundRecord) member(a Actor) *Member {
	if a.Account == nil {
		return nil
	}
	for i := range rr.Members {
		if domain.SameName(rr.Members[i].Name, a.Account.Name) {
			return &rr.Members[i]
		}
	}
	return nil
}

// roundAccess loads a round and what the actor is in it.
func roundAccess(r Reader, a Actor, id int64) (*RoundRecord, access, error) {
	rr, err := r.Round(id)
	if err != nil {
		return nil, access{}, err
	}
	return rr, access{actor: a, member: rr.member(a)}, nil
}

// roundAudit writes a round's step to the audit log: under campaign -id, so that the round's
// entries read apart from every campaign's (and the server's log holds them all).
func (s *Service) roundAudit(tx Tx, rr *RoundRecord, a Actor, action, format string, args ...any) error {
	return s.audit(tx, -rr.ID, a, action, "round %q: "+format, append([]any{rr.Name}, args...)...)
}

// NewRound is what a new round starts with: its name, its members (accounts that do not exist
// are made, with passwords shown once) and a seed (random when nil).
type NewRound struct {
	Name    string        `json:"name"`
	Members []MemberInput `json:"members,omitempty"`
	Seed    *int64        `json:"seed,omitempty"`
	Grid    *domain.Grid  `json:"grid,omitempty"`
}

// roundSpec is a round to create: the request, its members, the finished campaign it follows.
type roundSpec struct {
	NewRound
	members []Member
	from    int64
}

// MemberInput is a member of a new round as a request names him.
type MemberInput struct {
	Name        string         `json:"name"`
	Roles       []Role         `json:"roles"`
	Side        domain.Side    `json:"side,omitempty"`
	Rank        domain.Rank    `json:"rank,omitempty"`
	Factions    []domain.Color `json:"factions,omitempty"`
	RankFaction domain.Color   `json:"rank_faction,omitempty"`
	// Assists names the judge an assistant judge assists (1.3).
	Assists string `json:"assists,omitempty"`
}

// RoundCreated is a round just created and the accounts made for it, with their passwords.
type RoundCreated struct {
	Round    *RoundView   `json:"round"`
	Accounts []NewAccount `json:"accounts"`
}

// CreateRound creates a round to set up (admins only): its members, and its seed.
func (s *Service) CreateRound(ctx context.Context, a Actor, in NewRound) (*RoundCreated, error) {
	x := access{actor: a}
	if err := x.need("create a round (admins only)", mayCreateRound(x)); err != nil {
		return nil, err
	}
	spec := roundSpec{NewRound: in}
	for _, mi := range in.Members {
		spec.members = append(spec.members, Member{Name: mi.Name, Roles: mi.Roles, Side: mi.Side, Rank: mi.Rank, Factions: mi.Factions, RankFaction: mi.RankFaction, Assists: mi.Assists})
	}
	return s.createRound(ctx, a, spec)
}

// createRound stores a new round with its members, making their missing accounts.
func (s *Service) createRound(ctx context.Context, a Actor, in roundSpec) (*RoundCreated, error) {
	name, err := NormalName(CampaignName, in.Name)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i := range in.members {
		m := &in.members[i]
		if m.Name, err = NormalName(AccountName, m.Name); err != nil {
			return nil, err
		}
		if err := checkMember(m); err != nil {
			return nil, err
		}
		if seen[domain.NameKey(m.Name)] {
			return nil, domain.Errorf(domain.ErrInvalid, "%s is listed twice among the members", m.Name)
		}
		seen[domain.NameKey(m.Name)] = true
	}
	if err := checkAssistants(in.members); err != nil {
		return nil, err
	}
	rd := &round.Round{Grid: domain.DefaultGrid}
	if in.Grid != nil {
		rd.Grid = *in.Grid
	}
	if in.Seed != nil {
		rd.Seed = round.SeedOf(*in.Seed)
	} else if rd.Seed, err = domain.NewSeed(s.opt.Rand); err != nil {
		return nil, err
	}
	fresh, err := s.freshAccounts(ctx, in.members)
	if err != nil {
		return nil, err
	}
	now := s.now()
	rr := &RoundRecord{Name: name, Round: *rd, Members: in.members, Previous: in.from, Version: 1, CreatedAt: now}
	out := &RoundCreated{Accounts: []NewAccount{}}
	err = s.store.Write(ctx, func(tx Tx) error {
		out.Accounts = out.Accounts[:0]
		if err := noLookalikeCampaign(tx, name); err != nil {
			return err
		}
		rounds, err := tx.Rounds()
		if err != nil {
			return err
		}
		for _, o := range rounds {
			if o.Campaign == 0 && domain.NameKey(o.Name) == domain.NameKey(name) {
				return domain.Errorf(domain.ErrConflict, "a round named %s is already being set up", o.Name)
			}
		}
		if out.Accounts, err = s.makeAccounts(tx, fresh, now); err != nil {
			return err
		}
		for i := range rr.Members {
			acc, err := tx.AccountByName(rr.Members[i].Name)
			if err != nil {
				return err
			}
			rr.Members[i].AccountID, rr.Members[i].Name = acc.ID, acc.Name
		}
		if err := tx.CreateRound(rr); err != nil {
			return err
		}
		return s.roundAudit(tx, rr, a, "round.create", "created with %d members", len(rr.Members))
	})
	if err != nil {
		return nil, err
	}
	out.Round = viewRound(rr, access{actor: a, member: rr.member(a)}, nil, nil)
	return out, nil
}

// NextRoundRequest names the next round of a finished campaign and, optionally, its seed.
type NextRoundRequest struct {
	Name string `json:"name"`
	Seed *int64 `json:"seed,omitempty"`
}

// NextRound starts setting up the next round of a finished campaign (1.7): its members — ranks,
// factions, roles and accounts — carry over; the map does not (judges of the campaign, and
// admins).
func (s *Service) NextRound(ctx context.Context, a Actor, id int64, req NextRoundRequest) (*RoundCreated, error) {
	var members []Member
	err := s.store.Read(ctx, func(r Reader) error {
		c, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		if err := x.need("start the next round (its judges only)", mayStartNextRound(x)); err != nil {
			return err
		}
		if c.Status != Finished {
			return domain.Errorf(domain.ErrConflict, "%s is not decided yet: the next round starts when one team has won (1.7)", c.Name)
		}
		rounds, err := r.Rounds()
		if err != nil {
			return err
		}
		for _, o := range rounds {
			if o.Previous == id {
				return domain.Errorf(domain.ErrConflict, "the next round of %s is already %s", c.Name, o.Name)
			}
		}
		members, err = r.Members(id)
		return err
	})
	if err != nil {
		return nil, err
	}
	for i := range members {
		members[i].CampaignID = 0
	}
	return s.createRound(ctx, a, roundSpec{NewRound: NewRound{Name: req.Name, Seed: req.Seed}, from: id, members: members})
}

// pools keeps the legal creature pool of each card catalogue the generator drew from.
var pools struct {
	sync.Mutex
	by map[*cards.Catalogue]poolEntry
}

type poolEntry struct {
	size int
	pool *round.Pool
}

// legalPool is the generator's creature pool: the catalogue's creatures the troop checker
// accepts (round.LegalPool), kept per catalogue until its size changes.
func (s *Service) legalPool(ctx context.Context) (*cards.Catalogue, *round.Pool, error) {
	cat, err := s.Catalogue(ctx)
	if err != nil {
		return nil, nil, err
	}
	pools.Lock()
	defer pools.Unlock()
	if e, ok := pools.by[cat]; ok && e.size == cat.Len() {
		return cat, e.pool, nil
	}
	p := round.LegalPool(cat, cat.CreaturePool())
	if pools.by == nil {
		pools.by = map[*cards.Catalogue]poolEntry{}
	}
	pools.by[cat] = poolEntry{size: cat.Len(), pool: p}
	return cat, p, nil
}
