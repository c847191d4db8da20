package turn

import (
	"cmp"
	"slices"
	"strings"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/mercenary"
	"github.com/coalition-wargame/coalition/movement"
)

// Report is the lock report, the old "movement update" post: the map after the lock and what
// happened at it. Its first fields are those of the scenario format's result.
type Report struct {
	Positions      Keyed[domain.Square]      `json:"positions"`
	Battles        []Battle                  `json:"battles"`
	Rejected       []domain.Rejection        `json:"rejected"`
	Warnings       []domain.Warning          `json:"warnings"`
	Partial        []string                  `json:"partial"`
	Days           Keyed[int]                `json:"days"`
	Alive          Keyed[Keyed[int]]         `json:"alive"`
	DestroyedSites []string                  `json:"destroyed_sites"`
	Removed        []string                  `json:"removed"`
	ChangedSides   map[string]domain.Side    `json:"changed_sides"`
	Winner         *domain.Side              `json:"winner"`
	Turn           int                       `json:"turn"`
	Moves          []domain.Move             `json:"moves"`
	Settled        []battle.Settled          `json:"settled"`
	Pushes         []battle.Push             `json:"pushes"`
	Healed         map[string]map[string]int `json:"healed"`
	Converted      []string                  `json:"converted"`
	Transfers      []domain.TransferOrder    `json:"transfers"`
	Mercenary      *mercenary.Report         `json:"mercenary,omitempty"`
	Wars           []mercenary.War           `json:"wars,omitempty"`
	Seed           string                    `json:"seed,omitempty"`
}

// Battle is an engagement in the report: attacker is null when there is none.
type Battle struct {
	Square   domain.Square     `json:"square"`
	Armies   []string          `json:"armies"`
	Kind     domain.BattleKind `json:"kind"`
	Attacker *string           `json:"attacker"`
}

func newReport(before, m *domain.Map, orders *movement.Orders, mv *movement.Outcome, lg *battle.Ledger, ch *battle.Changes, merc *mercenary.Report) *Report {
	r := &Report{
		ChangedSides: lg.ChangedSides,
		Turn:         m.Turn,
		Moves:        nonNil(mv.Moves),
		Settled:      nonNil(lg.Settled),
		Pushes:       nonNil(lg.Pushes),
		Healed:       ch.Healed,
		Converted:    nonNil(ch.Converted),
		Transfers:    nonNil(ch.Delivered),
		Partial:      nonNil(slices.Clone(mv.Partial)),
		Warnings:     nonNil(orders.Warnings()),
		Mercenary:    merc,
	}
	// every army by name: positions, days, and troops alive where the troops are known; while
	// the names are sorted, Days holds each army's index
	r.Days = make(Keyed[int], len(m.Armies))
	troops := 0
	for i := range m.Armies {
		r.Days[i] = Entry[int]{m.Armies[i].Name, i}
		troops += len(m.Armies[i].Troops)
	}
	slices.SortFunc(r.Days, func(a, b Entry[int]) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return a.Value - b.Value
	})
	r.Positions = make(Keyed[domain.Square], len(r.Days))
	r.Alive = make(Keyed[Keyed[int]], 0, len(r.Days))
	flat := make(Keyed[int], 0, troops)
	for j := range r.Days {
		a := &m.Armies[r.Days[j].Value]
		r.Positions[j] = Entry[domain.Square]{a.Name, a.At}
		r.Days[j].Value = a.Days
		if a.Troops == nil {
			continue
		}
		k := len(flat)
		for _, t := range a.Troops {
			flat = append(flat, Entry[int]{t.Creature, t.Alive})
		}
		al := flat[k:len(flat):len(flat)]
		al.sort()
		r.Alive = append(r.Alive, Entry[Keyed[int]]{a.Name, al})
	}
	r.Battles = make([]Battle, 0, len(m.Battles))
	for _, b := range m.Battles {
		rb := Battle{Square: b.Square, Armies: b.Armies, Kind: b.Kind}
		if b.Attacker != "" {
			att := b.Attacker
			rb.Attacker = &att
		}
		r.Battles = append(r.Battles, rb)
	}
	r.Battles = nonNil(r.Battles)
	rej := orders.Rejections()
	rej = append(rej, mv.Rejected...)
	rej = append(rej, ch.Rejected...)
	slices.SortStableFunc(rej, func(a, b domain.Rejection) int {
		return cmp.Or(cmp.Compare(a.Post, b.Post), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Code, b.Code))
	})
	r.Rejected = nonNil(rej)
	slices.Sort(r.Partial)
	for _, s := range m.Sites {
		if s.Destroyed {
			r.DestroyedSites = append(r.DestroyedSites, s.Name)
		}
	}
	r.DestroyedSites = nonNil(r.DestroyedSites)
	r.Removed = append(slices.Clone(mv.Removed), lg.Removed...)
	slices.Sort(r.Removed)
	r.Removed = nonNil(r.Removed)
	if m.Winner != "" {
		w := m.Winner
		r.Winner = &w
	}
	return r
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
