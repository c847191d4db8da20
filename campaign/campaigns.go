// Campaigns and their turns: a campaign created with its first turn, the next turn opened, and the
// campaign and turn views.

package campaign

import (
	"context"
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
	// Mercenary are the mercenary AI's settings; nil takes DefaultMercenarySettings.
	Mercenary *MercenarySettings
	// MercenaryHistory are mercenary engagements from before the campaign (an imported
	// scenario's), which the AI remembers (6.2.1).
	MercenaryHistory []Engagement
}

// Created is a campaign just created and the accounts made for it, with their passwords
// (shown once).
type Created struct {
	Campaign *Campaign    `json:"campaign"`
	Accounts []NewAccount `json:"accounts"`
}

// CreateCampaign creates a campaign with its map, members and control list, and opens its
// first turn (admins only).
func (s *Service) CreateCampaign(ctx context.Context, a Actor, su Setup) (*Created, error) {
	x := access{actor: a}
	if err := x.need("create campaigns (admins only)", mayCreateCampaign(x)); err != nil {
		return nil, err
	}
	return s.createCampaign(ctx, a, su, nil)
}

// createCampaign is CreateCampaign once the actor may: then, when given, runs last in the
// campaign's transaction (a round's start records its campaign there).
func (s *Service) createCampaign(ctx context.Context, a Actor, su Setup, then func(Tx, *Campaign) error) (*Created, error) {
	if strings.TrimSpace(su.Name) == "" {
		return nil, domain.Errorf(domain.ErrInvalid, "the campaign needs a name")
	}
	name, err := NormalName(CampaignName, su.Name)
	if err != nil {
		return nil, err
	}
	if su.Map == nil {
		return nil, domain.Errorf(domain.ErrInvalid, "the campaign needs a map")
	}
	m := su.Map.Clone()
	if err := normalArmies(m); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	m.NoteLeaders()
	m.NoteHomes()
	su.Settings = su.Settings.normal()
	su.FirstDeadline = su.FirstDeadline.UTC().Truncate(time.Microsecond)
	if err := su.Settings.Check(); err != nil {
		return nil, err
	}
	if err := checkPlan(su); err != nil {
		return nil, err
	}
	for i := range su.Members {
		if su.Members[i].Name, err = NormalName(AccountName, su.Members[i].Name); err != nil {
			return nil, err
		}
		if err := checkMember(&su.Members[i]); err != nil {
			return nil, err
		}
	}
	if err := checkAssistants(su.Members); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, mem := range su.Members {
		key := domain.NameKey(mem.Name)
		if seen[key] {
			return nil, domain.Errorf(domain.ErrInvalid, "%s is listed twice among the members", mem.Name)
		}
		seen[key] = true
	}
	fresh, err := s.freshAccounts(ctx, su.Members)
	if err != nil {
		return nil, err
	}
	now := s.now()
	c := &Campaign{Name: name, Status: Running, Settings: su.Settings, ScenarioSeed: su.ScenarioSeed, Plan: su.Plan, MapVersion: 1, CreatedAt: now}
	out := &Created{Campaign: c, Accounts: []NewAccount{}}
	err = s.store.Write(ctx, func(tx Tx) error {
		if err := noLookalikeCampaign(tx, name); err != nil {
			return err
		}
		if out.Accounts, err = s.makeAccounts(tx, fresh, now); err != nil {
			return err
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
		if err := checkTurnTiming(t, "first_deadline"); err != nil {
			return err
		}
		if err := tx.CreateTurn(t); err != nil {
			return err
		}
		if err := s.setUpMercenaries(tx, c, t, m, su, now); err != nil {
			return err
		}
		if then != nil {
			if err := then(tx, c); err != nil {
				return err
			}
		}
		return s.audit(tx, c.ID, a, "campaign.create", "created campaign %q with %d armies and %d members; turn 1 locks at %s", c.Name, len(m.Armies), len(su.Members), turn.Stamp(t.LockAt))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// newTurn opens turn number n of c on map m: its timing (from the plan, or after the last
// deadline) and its seed (random, or derived from the scenario's seed).
func (s *Service) newTurn(c *Campaign, n int, m *domain.Map, last, now time.Time) (*Turn, error) {
	t := &Turn{CampaignID: c.ID, Number: n, Status: Open, OpenedAt: now, CheckWindow: true, Snapshot: NewSnapshot(m)}
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
		t.Deadline = after(d, now, st.TurnLength)
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
	return notBefore(d, earliest, 24*time.Hour)
}

func bumpMap(tx Tx, id int64) error {
	c, err := tx.Campaign(id)
	if err != nil {
		return err
	}
	c.MapVersion++
	return tx.UpdateCampaign(c)
}

// CampaignView is a campaign as its page shows it.
type CampaignView struct {
	Campaign
	Settings SettingsView `json:"settings"`
	// Mercenary is the mercenary AI's settings (chapter 6).
	Mercenary *MercenaryView `json:"mercenary"`
	Turn      *TurnView      `json:"turn"`
	// Class is what the caller may see: judge, a side, or public.
	Class string  `json:"class"`
	You   *Member `json:"you,omitempty"`
	// MayPost says whether the caller posts orders here (mayPost): the page offers him the
	// order desk.
	MayPost bool `json:"may_post"`
	// Now is the server's time, so that pages count down to the lock by the server's clock.
	Now time.Time `json:"now"`
	// StratlessSettle says whether battles without strategies settle themselves at the lock
	// (B2); an imported scenario's campaign needs a result for every battle instead.
	StratlessSettle bool `json:"stratless_settle"`
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
	// EditUntil is when the after-lock edit window closes, while the turn's update waits for
	// the mercenary judge's edit (status editing, 6.3.2).
	EditUntil *time.Time `json:"edit_until,omitempty"`
	// Timing says, in words, why the deadline and the lock are what they are (C1; the open turn
	// of a campaign's view only).
	Timing []string `json:"timing,omitempty"`
}

func viewTurn(t *Turn, x access) *TurnView {
	v := &TurnView{Number: t.Number, Status: viewStatus(t), OpenedAt: t.OpenedAt, Deadline: t.Deadline, LockAt: t.LockAt,
		ExtensionHours: t.Extension.Hours(), CheckWindow: t.CheckWindow, Commitment: t.Commitment,
		LockedAt: t.LockedAt, LockedBy: t.LockedBy, LockReason: t.LockReason}
	if t.Published() {
		v.Seed = t.Seed.String()
	}
	if t.Editing() {
		v.EditUntil = t.EditUntil
	}
	if maySeeLockError(x) {
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
		if !maySeeCampaign(x) {
			return x.refuse("see this campaign")
		}
		t, err := r.LatestTurn(id)
		if err != nil {
			return err
		}
		st, err := mercenarySettings(r, id)
		if err != nil {
			return err
		}
		v = &CampaignView{Campaign: *c, Settings: viewSettings(c.Settings), Mercenary: viewMercenary(st), Turn: viewTurn(t, x), Class: viewClass(x), You: x.member, MayPost: mayPost(x), Now: s.now(),
			StratlessSettle: c.ScenarioSeed == nil}
		v.Turn.Timing, err = explainTiming(r, c, t)
		return err
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
		if !maySeeCampaign(x) {
			return x.refuse("see this campaign's turns")
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
		if !maySeeCampaign(x) {
			return x.refuse("see this turn")
		}
		v = viewTurn(t, x)
		return nil
	})
	return v, err
}

// checkAssistants checks every assistant judge among a new campaign's or round's members: he
// assists another member, a judge whose role he holds (1.3).
func checkAssistants(members []Member) error {
	for i := range members {
		m := &members[i]
		if m.Assists == "" {
			continue
		}
		j := slices.IndexFunc(members, func(h Member) bool { return domain.SameName(h.Name, m.Assists) })
		if j < 0 || j == i {
			return domain.Errorf(domain.ErrInvalid, "%s assists %q, who is no other member (1.3)", m.Name, m.Assists)
		}
		if err := assistsHead(m, &members[j]); err != nil {
			return err
		}
	}
	return nil
}
