package campaign

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// Setup is everything a new campaign starts with.
type Setup struct {
	Name string
	Map  *domain.Map
	// Settings are DefaultSettings where zero.
	Settings Settings
	// FirstDeadline is the first turn's battle deadline; zero picks the first 05:00 UTC at
	// least TurnLength-LockDelay away.
	FirstDeadline time.Time
	// ScenarioSeed and Plan come from an imported scenario (see Campaign, PlannedTurn).
	ScenarioSeed *int64
	Plan         []PlannedTurn
	// Members are the campaign's people; accounts that do not exist yet are created with
	// random passwords.
	Members []Member
}

// Created is a campaign just created and the accounts made for it, with their passwords
// (shown once).
type Created struct {
	Campaign *Campaign    `json:"campaign"`
	Accounts []NewAccount `json:"accounts"`
}

func (st *Settings) fill() {
	if st.LockDelay <= 0 {
		st.LockDelay = DefaultSettings.LockDelay
	}
	if st.TurnLength <= 0 {
		st.TurnLength = DefaultSettings.TurnLength
	}
	if st.ExtensionCap <= 0 {
		st.ExtensionCap = DefaultSettings.ExtensionCap
	}
}

// CreateCampaign creates a campaign with its map, members and control list, and opens its
// first turn (admins only).
func (s *Service) CreateCampaign(ctx context.Context, a Actor, su Setup) (*Created, error) {
	x := access{actor: a}
	if err := x.need("create campaigns (admins only)", x.admin()); err != nil {
		return nil, err
	}
	if strings.TrimSpace(su.Name) == "" {
		return nil, domain.Errorf(domain.ErrInvalid, "the campaign needs a name")
	}
	if su.Map == nil {
		return nil, domain.Errorf(domain.ErrInvalid, "the campaign needs a map")
	}
	m := su.Map.Clone()
	if err := m.Validate(); err != nil {
		return nil, err
	}
	m.NoteLeaders()
	m.NoteHomes()
	su.Settings.fill()
	for i := range su.Members {
		if err := CheckName(su.Members[i].Name); err != nil {
			return nil, err
		}
		if err := checkMember(&su.Members[i]); err != nil {
			return nil, err
		}
	}
	// Passwords are hashed before the transaction: bcrypt is slow by design.
	type pending struct {
		name, password, hash string
	}
	var fresh []pending
	err := s.store.Read(ctx, func(r Reader) error {
		seen := map[string]bool{}
		for _, mem := range su.Members {
			key := domain.NameKey(mem.Name)
			if seen[key] {
				return domain.Errorf(domain.ErrInvalid, "%s is listed twice among the members", mem.Name)
			}
			seen[key] = true
			if _, err := r.AccountByName(mem.Name); errors.Is(err, domain.ErrNotFound) {
				fresh = append(fresh, pending{name: strings.TrimSpace(mem.Name)})
			} else if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range fresh {
		p, err := s.NewPassword()
		if err != nil {
			return nil, err
		}
		if fresh[i].hash, err = s.hash(p); err != nil {
			return nil, err
		}
		fresh[i].password = p
	}
	now := s.now()
	c := &Campaign{Name: strings.TrimSpace(su.Name), Status: Running, Settings: su.Settings, ScenarioSeed: su.ScenarioSeed, Plan: su.Plan, MapVersion: 1, CreatedAt: now}
	out := &Created{Campaign: c, Accounts: []NewAccount{}}
	err = s.store.Write(ctx, func(tx Tx) error {
		out.Accounts = out.Accounts[:0]
		for _, f := range fresh {
			acc := &Account{Name: f.name, PasswordHash: f.hash, TokenVersion: 1, CreatedAt: now}
			if err := tx.CreateAccount(acc); err != nil {
				return err
			}
			out.Accounts = append(out.Accounts, NewAccount{Account: acc, Password: f.password})
		}
		if err := tx.CreateCampaign(c); err != nil {
			return err
		}
		for _, mem := range su.Members {
			acc, err := tx.AccountByName(mem.Name)
			if err != nil {
				return err
			}
			mem.CampaignID, mem.AccountID, mem.Name = c.ID, acc.ID, acc.Name
			if err := tx.PutMember(&mem); err != nil {
				return err
			}
		}
		for _, army := range m.Armies {
			e := &ControlEntry{CampaignID: c.ID, Army: army.Name, Controllers: nonNil(slices.Clone(army.Controllers)), EffectiveAt: now, By: a.Name(), Reason: "campaign set up"}
			if err := tx.AddControl(e); err != nil {
				return err
			}
		}
		t, err := s.newTurn(c, 1, m, su.FirstDeadline, now)
		if err != nil {
			return err
		}
		if err := tx.CreateTurn(t); err != nil {
			return err
		}
		return s.audit(tx, c.ID, a, "campaign.create", "created campaign %q with %d armies and %d members; turn 1 locks at %s", c.Name, len(m.Armies), len(su.Members), turn.Stamp(t.LockAt))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkMember checks a member's roles, side, rank and factions (1.1.2, 1.3, chapter 6).
func checkMember(m *Member) error {
	if len(m.Roles) == 0 {
		return domain.Errorf(domain.ErrInvalid, "%s needs at least one role: %s", m.Name, roleList())
	}
	for _, r := range m.Roles {
		if !slices.Contains(Roles, r) {
			return domain.Errorf(domain.ErrInvalid, "%q is not a role: use %s", r, roleList())
		}
	}
	slices.Sort(m.Roles)
	m.Roles = slices.Compact(m.Roles)
	plays := m.Has(Player) || m.Has(Leader)
	switch {
	case plays && !m.Side.IsTeam():
		return domain.Errorf(domain.ErrInvalid, "%s plays, so needs a side: coalition or phyrexia", m.Name)
	case !plays && m.Side != "":
		return domain.Errorf(domain.ErrInvalid, "%s has a side but is neither a player nor a team leader", m.Name)
	case plays && m.Has(BattleJudge):
		return domain.Errorf(domain.ErrInvalid, "%s: the battle judge cannot be a player (1.3)", m.Name)
	case plays && m.Has(MercenaryJudge):
		return domain.Errorf(domain.ErrInvalid, "%s: the mercenary judge cannot be a player on either team (6)", m.Name)
	}
	if !plays {
		m.Rank, m.Factions, m.RankFaction = 0, nil, ""
		return nil
	}
	if m.Rank == 0 {
		m.Rank = domain.Lieutenant
	}
	if !m.Rank.Valid() {
		return domain.Errorf(domain.ErrInvalid, "%s has no valid rank", m.Name)
	}
	if m.Side != domain.Coalition && (len(m.Factions) > 0 || m.RankFaction != "") {
		return domain.Errorf(domain.ErrInvalid, "%s: only Coalition players belong to factions (1.1.2)", m.Name)
	}
	if len(m.Factions) > 3 {
		return domain.Errorf(domain.ErrInvalid, "%s claims %d factions: at most 3 (1.1.2)", m.Name, len(m.Factions))
	}
	for i, f := range m.Factions {
		if !f.IsMagic() && f != domain.FiveColor && f != domain.Colorless {
			return domain.Errorf(domain.ErrInvalid, "%s: %q is not a faction: use white, blue, black, red, green, five-color or colorless (1.1.2)", m.Name, f)
		}
		if slices.Contains(m.Factions[:i], f) {
			return domain.Errorf(domain.ErrInvalid, "%s lists the %s faction twice", m.Name, f)
		}
	}
	if m.RankFaction == "" && len(m.Factions) > 0 {
		m.RankFaction = m.Factions[0]
	}
	if m.RankFaction != "" && !slices.Contains(m.Factions, m.RankFaction) {
		return domain.Errorf(domain.ErrInvalid, "%s holds his rank in the %s faction, which is not one of his factions (1.1.2)", m.Name, m.RankFaction)
	}
	return nil
}

func roleList() string {
	parts := make([]string, len(Roles))
	for i, r := range Roles {
		parts[i] = string(r)
	}
	return strings.Join(parts, ", ")
}

// newTurn opens turn number n of c on map m: its timing (from the plan, or after the last
// deadline) and its seed (random, or derived from the scenario's seed).
func (s *Service) newTurn(c *Campaign, n int, m *domain.Map, last, now time.Time) (*Turn, error) {
	t := &Turn{CampaignID: c.ID, Number: n, Status: Open, OpenedAt: now, CheckWindow: true, Snapshot: m}
	st := c.Settings
	planned := n-1 < len(c.Plan)
	switch {
	case planned && c.Plan[n-1].Lock != nil:
		t.LockAt = c.Plan[n-1].Lock.UTC()
		t.Deadline = t.LockAt.Add(-st.LockDelay)
	default:
		t.CheckWindow = !planned
		d := last
		if d.IsZero() {
			d = firstDeadline(now, st)
		}
		for !d.After(now) {
			d = d.Add(st.TurnLength)
		}
		t.Deadline = d
		t.LockAt = d.Add(st.LockDelay)
	}
	if c.ScenarioSeed != nil && planned {
		// a scenario's own turns replay `coalition adjudicate`; any turn after them is a
		// real turn, whose seed nobody may know before its lock (B6)
		t.Seed = domain.ScenarioSeed(*c.ScenarioSeed, n-1)
	} else {
		seed, err := domain.NewSeed(s.opt.Rand)
		if err != nil {
			return nil, err
		}
		t.Seed = seed
	}
	t.Commitment = t.Seed.Commitment()
	return t, nil
}

// firstDeadline is the first 05:00 UTC at least TurnLength-LockDelay after now, so that the
// lock falls at 05:00 UTC (C1).
func firstDeadline(now time.Time, st Settings) time.Time {
	earliest := now.Add(st.TurnLength - st.LockDelay)
	d := time.Date(earliest.Year(), earliest.Month(), earliest.Day(), 5, 0, 0, 0, time.UTC)
	for d.Before(earliest) {
		d = d.Add(24 * time.Hour)
	}
	return d
}

// CampaignView is a campaign as its page shows it.
type CampaignView struct {
	Campaign
	Settings SettingsView `json:"settings"`
	Turn     *TurnView    `json:"turn"`
	// Class is what the caller may see: judge, a side, or public.
	Class string  `json:"class"`
	You   *Member `json:"you,omitempty"`
	// Now is the server's time, so that pages count down to the lock by the server's clock.
	Now time.Time `json:"now"`
}

// SettingsView is a campaign's settings in hours.
type SettingsView struct {
	LockDelayHours    float64 `json:"lock_delay_hours"`
	TurnLengthHours   float64 `json:"turn_length_hours"`
	ExtensionCapHours float64 `json:"extension_cap_hours"`
}

// TurnView is a turn's public face: timing, seed commitment, and after the lock the seed.
type TurnView struct {
	Number         int        `json:"number"`
	Status         TurnStatus `json:"status"`
	OpenedAt       time.Time  `json:"opened_at"`
	Deadline       time.Time  `json:"deadline"`
	LockAt         time.Time  `json:"lock_at"`
	ExtensionHours float64    `json:"extension_hours"`
	CheckWindow    bool       `json:"check_window"`
	Commitment     string     `json:"commitment"`
	Seed           string     `json:"seed,omitempty"`
	LockedAt       *time.Time `json:"locked_at,omitempty"`
	LockedBy       string     `json:"locked_by,omitempty"`
	LockReason     string     `json:"lock_reason,omitempty"`
	LockError      string     `json:"lock_error,omitempty"`
}

func viewTurn(t *Turn, x access) *TurnView {
	v := &TurnView{Number: t.Number, Status: t.Status, OpenedAt: t.OpenedAt, Deadline: t.Deadline, LockAt: t.LockAt,
		ExtensionHours: t.Extension.Hours(), CheckWindow: t.CheckWindow, Commitment: t.Commitment,
		LockedAt: t.LockedAt, LockedBy: t.LockedBy, LockReason: t.LockReason}
	if t.Status == Locked {
		v.Seed = t.Seed.String()
	}
	if x.judge() {
		v.LockError = t.LockError
	}
	return v
}

func viewSettings(st Settings) SettingsView {
	return SettingsView{LockDelayHours: st.LockDelay.Hours(), TurnLengthHours: st.TurnLength.Hours(), ExtensionCapHours: st.ExtensionCap.Hours()}
}

// Campaigns lists every campaign; anyone may see the list.
func (s *Service) Campaigns(ctx context.Context) ([]Campaign, error) {
	var out []Campaign
	err := s.store.Read(ctx, func(r Reader) (err error) {
		out, err = r.Campaigns()
		return err
	})
	return nonNil(out), err
}

// Campaign shows one campaign and its current turn.
func (s *Service) Campaign(ctx context.Context, a Actor, id int64) (*CampaignView, error) {
	var v *CampaignView
	err := s.store.Read(ctx, func(r Reader) error {
		c, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		t, err := r.LatestTurn(id)
		if err != nil {
			return err
		}
		v = &CampaignView{Campaign: *c, Settings: viewSettings(c.Settings), Turn: viewTurn(t, x), Class: x.class(), You: x.member, Now: s.now()}
		return nil
	})
	return v, err
}

// Turns lists a campaign's turns.
func (s *Service) Turns(ctx context.Context, a Actor, id int64) ([]TurnView, error) {
	var out []TurnView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		ts, err := r.Turns(id)
		for i := range ts {
			out = append(out, *viewTurn(&ts[i], x))
		}
		return err
	})
	return nonNil(out), err
}

// Turn shows one turn.
func (s *Service) Turn(ctx context.Context, a Actor, id int64, n int) (*TurnView, error) {
	var v *TurnView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, t, err := turnAccess(r, a, id, n)
		if err != nil {
			return err
		}
		v = viewTurn(t, x)
		return nil
	})
	return v, err
}

// Members lists a campaign's members: the roster is public, as the Proxy List thread is.
func (s *Service) Members(ctx context.Context, id int64) ([]Member, error) {
	var out []Member
	err := s.store.Read(ctx, func(r Reader) error {
		if _, err := r.Campaign(id); err != nil {
			return err
		}
		ms, err := r.Members(id)
		out = ms
		return err
	})
	return nonNil(out), err
}

// SetMember adds an account to a campaign or changes its roles, side, rank, factions or
// contingency. Admins and judges may set anything; a team leader may add players to his own
// side and set their rank (below Admiral/Praetor), factions and contingency (1.1, 5.2.3).
// A demotion takes away the armies the player may no longer control (5.3.1).
func (s *Service) SetMember(ctx context.Context, a Actor, id int64, m Member) (*Member, error) {
	if err := CheckName(m.Name); err != nil {
		return nil, err
	}
	var out *Member
	err := s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("change the members of this campaign", x.judge() || x.has(Leader)); err != nil {
			return err
		}
		acc, err := tx.AccountByName(m.Name)
		if errors.Is(err, domain.ErrNotFound) {
			return domain.Errorf(domain.ErrNotFound, "there is no account named %q: an admin creates accounts first", m.Name)
		}
		if err != nil {
			return err
		}
		old, err := tx.Member(id, acc.ID)
		if err != nil && !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		if old != nil {
			// Fields left out keep their values.
			if len(m.Roles) == 0 {
				m.Roles = old.Roles
			}
			if m.Side == "" {
				m.Side = old.Side
			}
			if m.Rank == 0 {
				m.Rank = old.Rank
			}
			if m.Factions == nil {
				m.Factions = old.Factions
			}
			if m.RankFaction == "" && slices.Contains(m.Factions, old.RankFaction) {
				m.RankFaction = old.RankFaction
			}
			if m.Contingency == "" {
				m.Contingency = old.Contingency
			}
		}
		if !x.judge() {
			if err := leaderMay(x.member, old, &m); err != nil {
				return err
			}
		}
		if err := checkMember(&m); err != nil {
			return err
		}
		if c := m.Contingency; c != "" {
			cacc, err := tx.AccountByName(c)
			if err != nil {
				return domain.Errorf(domain.ErrInvalid, "the contingency %q is not an account", c)
			}
			cm, err := tx.Member(id, cacc.ID)
			if err != nil || !cm.Plays() || cm.Side != m.Side || cacc.ID == acc.ID {
				return domain.Errorf(domain.ErrInvalid, "the contingency of %s must be another player of the same side (5.2.3)", m.Name)
			}
			m.Contingency = cacc.Name
		}
		m.CampaignID, m.AccountID, m.Name = id, acc.ID, acc.Name
		if err := tx.PutMember(&m); err != nil {
			return err
		}
		if err := s.demote(tx, a, id, &m); err != nil {
			return err
		}
		out = &m
		return s.audit(tx, id, a, "member.set", "set %s: roles %v, side %q, rank %q, factions %v, contingency %q", m.Name, m.Roles, m.Side, m.Rank.Word(m.Side), m.Factions, m.Contingency)
	})
	return out, err
}

// leaderMay checks what a team leader asks for a member (5.2, 1.1).
func leaderMay(leader, old *Member, m *Member) error {
	if old != nil && (!old.Plays() || old.Side != leader.Side) {
		return domain.Errorf(domain.ErrForbidden, "%s is not a player of your side: only judges may change him", m.Name)
	}
	if old == nil && m.Side == "" {
		m.Side = leader.Side
	}
	if m.Side != leader.Side {
		return domain.Errorf(domain.ErrForbidden, "a team leader manages only players of his own side (%s)", leader.Side)
	}
	if old == nil && len(m.Roles) == 0 {
		m.Roles = []Role{Player}
	}
	want := slices.Sorted(slices.Values(m.Roles))
	switch {
	case old == nil && slices.Equal(want, []Role{Player}):
	case old != nil && slices.Equal(want, old.Roles):
	default:
		return domain.Errorf(domain.ErrForbidden, "only judges may grant or take away roles; a team leader may add players")
	}
	if m.Rank != 0 && m.Rank < domain.Captain && (old == nil || old.Rank != m.Rank) {
		return domain.Errorf(domain.ErrForbidden, "only judges may make someone %s or %s", domain.General.Name(leader.Side), domain.Admiral.Name(leader.Side))
	}
	if old != nil && old.Rank != 0 && old.Rank < domain.Captain && m.Rank != old.Rank {
		return domain.Errorf(domain.ErrForbidden, "%s is %s: only judges may change the rank of the %s or an %s (1.1)", m.Name, old.Rank.Name(leader.Side), domain.General.Name(leader.Side), domain.Admiral.Name(leader.Side))
	}
	return nil
}

// mayControl checks the rank rule 5.3.1 for one player and one army.
func mayControl(m *Member, army *domain.Army) error {
	switch {
	case !m.Plays() || m.Side != army.Side:
		return domain.Errorf(domain.ErrInvalid, "%s does not play for %s, so cannot control %s", m.Name, army.Side.Title(), army.Name)
	case m.Rank == domain.Cadet:
		return domain.Errorf(domain.ErrInvalid, "%s is a %s, who controls no army (1.1, 5.3.1)", m.Name, m.Rank.Name(m.Side))
	case !m.Rank.Leader() && army.Rank < m.Rank:
		return domain.Errorf(domain.ErrInvalid, "%s is a %s and cannot control %s, a %s army: only %s and above may control armies of higher rank than their own (5.3.1)",
			m.Name, m.Rank.Name(m.Side), army.Name, army.Rank.Name(army.Side), domain.Captain.Name(m.Side))
	}
	return nil
}

// demote takes from a player the armies his rank no longer allows (5.3.1).
func (s *Service) demote(tx Tx, a Actor, id int64, m *Member) error {
	t, err := tx.LatestTurn(id)
	if err != nil {
		return err
	}
	entries, err := tx.Control(id)
	if err != nil {
		return err
	}
	now := s.now()
	list := controlAt(entries, now, 0)
	changed := false
	cur, err := amended(tx, t)
	if err != nil {
		return err
	}
	for i := range cur.Armies {
		army := &cur.Armies[i]
		ctl := list[domain.NameKey(army.Name)]
		if !slices.ContainsFunc(ctl, func(n string) bool { return domain.SameName(n, m.Name) }) || mayControl(m, army) == nil {
			continue
		}
		keep := slices.DeleteFunc(slices.Clone(ctl), func(n string) bool { return domain.SameName(n, m.Name) })
		if err := tx.AddControl(&ControlEntry{CampaignID: id, Army: army.Name, Controllers: nonNil(keep), EffectiveAt: now, By: a.Name(), Reason: m.Name + " may no longer control it (5.3.1)"}); err != nil {
			return err
		}
		changed = true
	}
	if changed {
		return bumpMap(tx, id)
	}
	return nil
}

func bumpMap(tx Tx, id int64) error {
	c, err := tx.Campaign(id)
	if err != nil {
		return err
	}
	c.MapVersion++
	return tx.UpdateCampaign(c)
}

// controlAt is the control list at time at (5.2.1): army name key → the controllers of
// the latest entry in effect then, counting only entries up to id upTo (0 for all).
func controlAt(entries []ControlEntry, at time.Time, upTo int64) map[string][]string {
	latest := map[string]*ControlEntry{}
	for i := range entries {
		e := &entries[i]
		if (upTo > 0 && e.ID > upTo) || e.EffectiveAt.After(at) {
			continue
		}
		k := domain.NameKey(e.Army)
		if f := latest[k]; f == nil || e.EffectiveAt.After(f.EffectiveAt) || (e.EffectiveAt.Equal(f.EffectiveAt) && e.ID > f.ID) {
			latest[k] = e
		}
	}
	out := make(map[string][]string, len(latest))
	for k, e := range latest {
		out[k] = e.Controllers
	}
	return out
}

// applyControl writes into m the controllers of every army at time at (C4, 5.4.2). An army
// that was never on the list keeps the controllers the map gives it, or else is controlled
// by the player of the same name (5.2.1).
func applyControl(m *domain.Map, entries []ControlEntry, members []Member, at time.Time, upTo int64) {
	list := controlAt(entries, at, upTo)
	for i := range m.Armies {
		a := &m.Armies[i]
		if ctl, ok := list[domain.NameKey(a.Name)]; ok {
			a.Controllers = slices.Clone(ctl)
			continue
		}
		if len(a.Controllers) > 0 {
			continue
		}
		for _, mem := range members {
			if mem.Plays() && mem.Side == a.Side && domain.SameName(mem.Name, a.Name) {
				a.Controllers = []string{mem.Name}
			}
		}
	}
}

// ControlList is the control list as it stands now and every change made to it.
type ControlList struct {
	Current map[string][]string `json:"current"`
	History []ControlEntry      `json:"history"`
}

// controlledMap is turn t's map as amended during the turn, with every army's controllers as
// the control list stands now (5.2.1).
func (s *Service) controlledMap(r Reader, id int64, t *Turn) (*domain.Map, error) {
	m, _, err := controlledMapAt(r, t, s.now(), 0)
	return m, err
}

// controlledMapAt is turn t's map as amended during the turn, with every army's controllers as
// the control list stood at time at (entries up to upTo, 0 for all; C4, 5.2.1), and the
// list's entries.
func controlledMapAt(r Reader, t *Turn, at time.Time, upTo int64) (*domain.Map, []ControlEntry, error) {
	m, err := amended(r, t)
	if err != nil {
		return nil, nil, err
	}
	entries, err := readControl(r, t.CampaignID, m, at, upTo)
	if err != nil {
		return nil, nil, err
	}
	return m, entries, nil
}

// readControl reads campaign id's control list and members and writes into m the controllers
// of every army at time at (entries up to upTo, 0 for all), returning the list's entries.
func readControl(r Reader, id int64, m *domain.Map, at time.Time, upTo int64) ([]ControlEntry, error) {
	entries, err := r.Control(id)
	if err != nil {
		return nil, err
	}
	members, err := r.Members(id)
	if err != nil {
		return nil, err
	}
	applyControl(m, entries, members, at, upTo)
	return entries, nil
}

// Control shows a campaign's control list; it is public (the Proxy List thread, 5.2.1).
func (s *Service) Control(ctx context.Context, id int64) (*ControlList, error) {
	out := &ControlList{Current: map[string][]string{}}
	err := s.store.Read(ctx, func(r Reader) error {
		t, err := r.LatestTurn(id)
		if err != nil {
			return err
		}
		m, entries, err := controlledMapAt(r, t, s.now(), 0)
		if err != nil {
			return err
		}
		for _, a := range m.Armies {
			out.Current[a.Name] = nonNil(a.Controllers)
		}
		out.History = nonNil(entries)
		return nil
	})
	return out, err
}

// SetControl changes who controls an army from now on (5.2.1). A team leader changes his
// own side's armies; the movement judge any army. Every controller must play for the army's
// side and hold a rank that may control it (5.3.1).
func (s *Service) SetControl(ctx context.Context, a Actor, id int64, army string, controllers []string, reason string) (*ControlEntry, error) {
	var out *ControlEntry
	err := s.store.Write(ctx, func(tx Tx) error {
		c, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("change the control list", x.has(Leader) || x.has(MovementJudge) || x.admin()); err != nil {
			return err
		}
		if c.Status == Finished {
			return domain.Errorf(domain.ErrConflict, "the campaign is finished")
		}
		t, err := tx.LatestTurn(id)
		if err != nil {
			return err
		}
		m, err := s.controlledMap(tx, id, t)
		if err != nil {
			return err
		}
		ar := m.Army(army)
		if ar == nil {
			return domain.Errorf(domain.ErrNotFound, "there is no army named %q on the map", army)
		}
		if !x.judge() && !x.has(MovementJudge) && ar.Side != x.member.Side {
			return domain.Errorf(domain.ErrForbidden, "%s is an army of %s: a team leader changes only his own side's armies", ar.Name, ar.Side.Title())
		}
		names := make([]string, 0, len(controllers))
		for _, n := range controllers {
			acc, err := tx.AccountByName(n)
			if errors.Is(err, domain.ErrNotFound) {
				return domain.Errorf(domain.ErrInvalid, "there is no account named %q", n)
			} else if err != nil {
				return err
			}
			mem, err := tx.Member(id, acc.ID)
			if errors.Is(err, domain.ErrNotFound) {
				return domain.Errorf(domain.ErrInvalid, "%s is not a member of this campaign", acc.Name)
			} else if err != nil {
				return err
			}
			if err := mayControl(mem, ar); err != nil {
				return err
			}
			if slices.Contains(names, acc.Name) {
				return domain.Errorf(domain.ErrInvalid, "%s is listed twice", acc.Name)
			}
			names = append(names, acc.Name)
		}
		if strings.TrimSpace(reason) == "" {
			reason = "control change requested by " + a.Name()
		}
		out = &ControlEntry{CampaignID: id, Army: ar.Name, Controllers: names, EffectiveAt: s.now(), By: a.Name(), Reason: reason}
		if err := tx.AddControl(out); err != nil {
			return err
		}
		// the map shows controllers: its version changes only if they do
		if !sameNames(slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(ar.Controllers))) {
			if err := bumpMap(tx, id); err != nil {
				return err
			}
		}
		return s.audit(tx, id, a, "control.set", "%s is controlled by %v from %s: %s", ar.Name, names, turn.Stamp(out.EffectiveAt), reason)
	})
	return out, err
}
