// The hot state (issue 16): what every post's check and every map request read — a campaign,
// its members, its latest turn with the decoded opening map, the control list, the turn's
// amendments and sanctions and the map they make — and the accounts tokens name, each kept at
// the state version it was read at and read again once the version moves on.

package campaign

import (
	"context"
	"sync"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// hotLimit bounds the campaigns and the accounts kept: past it, the stale ones go first.
const hotLimit = 1024

// hot keeps the service's hot state, by campaign and by account.
type hot struct {
	mu        sync.Mutex
	campaigns map[int64]*hotCampaign
	accounts  map[int64]hotAccount
}

// hotCampaign is one campaign's state as read in one transaction at a state version. Nothing
// in it is changed once ready: every reader shares it.
type hotCampaign struct {
	// version is the state version the state was read at.
	version int64
	// ready is closed once the state is read, or err says why it could not be.
	ready chan struct{}
	err   error

	c         *Campaign
	members   []Member
	byAccount map[int64]*Member
	turn      *Turn
	control   []ControlEntry
	am        []Amendment
	sn        []Sanction
	// settled is the time of the latest control-list entry: from then on the list gives the
	// same controllers at every moment, those of the map below.
	settled time.Time

	mapOnce sync.Once
	m       *domain.Map
	mapErr  error
}

type hotAccount struct {
	version int64
	acc     Account
}

// member is the membership of an account, or nil.
func (h *hotCampaign) member(account int64) *Member { return h.byAccount[account] }

// controlledAt is the turn's map as amended, with every army's controllers as the control
// list stood at time at (C4, 5.2.1). From the list's latest entry on it is one map, shared:
// the caller must not change it.
func (h *hotCampaign) controlledAt(at time.Time) (*domain.Map, error) {
	if at.Before(h.settled) {
		m := h.turn.Snapshot.Map()
		if err := applyChanges(m, h.am, h.sn); err != nil {
			return nil, err
		}
		applyControl(m, h.control, h.members, at, 0)
		return m, nil
	}
	h.mapOnce.Do(func() {
		m := h.turn.Snapshot.Map()
		if h.mapErr = applyChanges(m, h.am, h.sn); h.mapErr == nil {
			applyControl(m, h.control, h.members, h.settled, 0)
			h.m = m
		}
	})
	return h.m, h.mapErr
}

// hotCampaign is campaign id's hot state at the request's state version (or a later one),
// read from the store when the one kept is older.
func (s *Service) hotCampaign(ctx context.Context, id int64) (*hotCampaign, error) {
	v, err := s.version(ctx)
	if err != nil {
		return nil, err
	}
	s.hot.mu.Lock()
	h := s.hot.campaigns[id]
	if h != nil && h.version >= v {
		s.hot.mu.Unlock()
		select {
		case <-h.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if h.err == nil {
			s.stats.CacheHits.Add(1)
			return h, nil
		}
		return nil, h.err
	}
	h = &hotCampaign{version: v, ready: make(chan struct{})}
	if s.hot.campaigns == nil {
		s.hot.campaigns = map[int64]*hotCampaign{}
	}
	if len(s.hot.campaigns) >= hotLimit {
		evict(s.hot.campaigns, func(o *hotCampaign) bool { return o.version < v })
	}
	s.hot.campaigns[id] = h
	s.hot.mu.Unlock()
	s.stats.CacheMisses.Add(1)

	var read int64
	h.err = s.store.Read(context.WithoutCancel(ctx), func(r Reader) (err error) {
		read, err = h.load(r, id)
		return err
	})
	s.hot.mu.Lock()
	h.version = max(h.version, read)
	if h.err != nil && s.hot.campaigns[id] == h {
		delete(s.hot.campaigns, id)
	}
	s.hot.mu.Unlock()
	close(h.ready)
	if h.err != nil {
		return nil, h.err
	}
	return h, nil
}

// load reads the campaign's state in one transaction, the state version first (returned):
// what follows is at least as new as it.
func (h *hotCampaign) load(r Reader, id int64) (int64, error) {
	v, err := r.StateVersion()
	if err != nil {
		return 0, err
	}
	return v, h.read(r, id)
}

func (h *hotCampaign) read(r Reader, id int64) (err error) {
	if h.c, err = r.Campaign(id); err != nil {
		return err
	}
	if h.members, err = r.Members(id); err != nil {
		return err
	}
	h.byAccount = make(map[int64]*Member, len(h.members))
	for i := range h.members {
		h.byAccount[h.members[i].AccountID] = &h.members[i]
	}
	if h.turn, err = r.LatestTurn(id); err != nil {
		return err
	}
	if h.control, err = r.Control(id); err != nil {
		return err
	}
	for i := range h.control {
		if e := h.control[i].EffectiveAt; e.After(h.settled) {
			h.settled = e
		}
	}
	if h.am, err = r.Amendments(h.turn.ID); err != nil {
		return err
	}
	h.sn, err = r.Sanctions(h.turn.ID)
	return err
}

// evict deletes from m the entries stale says are out of date, or, when none is, one entry.
func evict[V any](m map[int64]V, stale func(V) bool) {
	n := len(m)
	for k, e := range m {
		if stale(e) {
			delete(m, k)
		}
	}
	if len(m) < n {
		return
	}
	for k := range m {
		delete(m, k)
		return
	}
}

// AccountFor is the account a token names, from the hot state when it is current and holds
// the token's version, else read from the store; the caller compares the token version.
func (s *Service) AccountFor(ctx context.Context, id int64, tokenVersion int) (*Account, error) {
	v, err := s.version(ctx)
	if err != nil {
		return nil, err
	}
	s.hot.mu.Lock()
	e, ok := s.hot.accounts[id]
	s.hot.mu.Unlock()
	if ok && e.version >= v && e.acc.TokenVersion == tokenVersion {
		s.stats.CacheHits.Add(1)
		acc := e.acc
		return &acc, nil
	}
	s.stats.CacheMisses.Add(1)
	var acc *Account
	if err := s.store.Peek(ctx, func(r Reader) (err error) {
		acc, err = r.Account(id)
		return err
	}); err != nil {
		return nil, err
	}
	s.hot.mu.Lock()
	if s.hot.accounts == nil {
		s.hot.accounts = map[int64]hotAccount{}
	}
	if len(s.hot.accounts) >= hotLimit {
		evict(s.hot.accounts, func(o hotAccount) bool { return o.version < v })
	}
	s.hot.accounts[id] = hotAccount{version: v, acc: *acc}
	s.hot.mu.Unlock()
	return acc, nil
}
