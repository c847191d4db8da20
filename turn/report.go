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
	// MercenaryAI is what the mercenary AI did, when the campaign has it on (chapter 6).
	MercenaryAI *MercenaryAI `json:"mercenary_ai,omitempty"`
	// AfterLockEdit is what became of the mercenary judge's after-lock edit (6.3.2), if any.
	AfterLockEdit *AfterLockEdit `json:"after_lock_edit,omitempty"`
	// Corrections are the battle judge's corrections this turn was adjudicated with (3.3.3).
	Corrections *Corrections `json:"corrections,omitempty"`
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
	// every army by name: positions, days, and troops alive where the troops are known
	order := byName(m.Armies)
	troops := 0
	for i := range m.Armies {
		troops += len(m.Armies[i].Troops)
	}
	r.Days = make(Keyed[int], len(order))
	r.Positions = make(Keyed[domain.Square], len(order))
	r.Alive = make(Keyed[Keyed[int]], 0, len(order))
	flat := make(Keyed[int], 0, troops)
	for j, k := range order {
		a := &m.Armies[k]
		r.Positions[j] = Entry[domain.Square]{a.Name, a.At}
		r.Days[j] = Entry[int]{a.Name, a.Days}
		if a.Troops == nil {
			continue
		}
		first := len(flat)
		for _, t := range a.Troops {
			flat = append(flat, Entry[int]{t.Creature, t.Alive})
		}
		al := flat[first:len(flat):len(flat)]
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
	r.Removed = append(r.Removed, merc.Disbanded...)
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

// byName lists the armies' indexes in the order of their names, byte by byte, and by index
// where two names are the same. Names that start with the same byte share a prefix (the
// group's longest): each name's key is its first byte, the 5 bytes after its group's prefix and
// its index, so that one sort of integers orders them; names whose keys tie on the bytes (the
// same 5 bytes after the prefix) are then put in order by their whole names.
func byName(armies []domain.Army) []int32 {
	n := len(armies)
	out := make([]int32, n)
	if n >= 1<<16 {
		for i := range out {
			out[i] = int32(i)
		}
		slices.SortStableFunc(out, func(a, b int32) int { return strings.Compare(armies[a].Name, armies[b].Name) })
		return out
	}
	var first [256]int32 // a name of each group, index + 1
	var lcp [256]int
	for i := range armies {
		name := armies[i].Name
		if name == "" {
			continue
		}
		g := name[0]
		if first[g] == 0 {
			first[g], lcp[g] = int32(i+1), len(name)
			continue
		}
		other := armies[first[g]-1].Name
		k := 1
		for k < lcp[g] && k < len(name) && name[k] == other[k] {
			k++
		}
		lcp[g] = k
	}
	keys := make([]uint64, n)
	for i := range armies {
		name := armies[i].Name
		var key uint64
		if name != "" {
			key = uint64(name[0])
			for k, p := 0, lcp[name[0]]; k < 5; k++ {
				key <<= 8
				if p+k < len(name) {
					key |= uint64(name[p+k])
				}
			}
		}
		keys[i] = key<<16 | uint64(i)
	}
	slices.Sort(keys)
	for i := range keys {
		out[i] = int32(keys[i] & 0xffff)
	}
	for i := 0; i < n; {
		j := i + 1
		for j < n && keys[j]>>16 == keys[i]>>16 {
			j++
		}
		if j-i > 1 {
			slices.SortStableFunc(out[i:j], func(a, b int32) int { return strings.Compare(armies[a].Name, armies[b].Name) })
		}
		i = j
	}
	return out
}
