// Rules 4.3 and 4.5: kill and capture attempts as proposed — the troops risked, the dice rolled,
// success or the risked troops lost.

package battle

import (
	"cmp"
	"slices"

	"github.com/coalition-wargame/coalition/domain"
)

type attempt struct {
	kind      string
	by        *army
	target    *army
	riskedSum int
}

// plan sets aside the troops risked on kill and capture attempts (4.3.2, 4.5, B9), dropping
// attempts the rules do not allow.
func (pr *proposer) plan() error {
	var planned []attempt
	for _, x := range pr.armies {
		if !x.fights || x.strat == nil {
			continue
		}
		kind, name := "kill", x.strat.Kill
		if name == "" {
			kind, name = "capture", x.strat.Capture
		}
		if name == "" {
			continue
		}
		t := pr.find(name)
		if slices.ContainsFunc(planned, func(at attempt) bool { return at.kind == kind && at.by.side == x.side }) {
			pr.note("%s's %s attempt on %s is not made: a side makes at most one %s attempt a battle", x.a.Name, kind, t.a.Name, kind)
			continue
		}
		slot, alive := pr.lowest(x.a)
		want := 2000
		if kind == "kill" {
			want = 500
			if slot, alive = x.a.TopSlot(); alive < want {
				pr.note("%s cannot go for a kill: it has %d troops alive in its top slot (its largest creatures) and needs 500 (4.3.2, 4.5)", x.a.Name, alive)
				continue
			}
		} else if !t.a.Rank.Lowest() {
			pr.note("%s cannot capture %s: only Lieutenant/Centurion and Lt Commander/CPL armies can be captured (4.5)", x.a.Name, t.a.Name)
			continue
		}
		n := min(want, alive)
		at := attempt{kind: kind, by: x, target: t, riskedSum: n}
		for i, tr := range x.a.Troops {
			if tr.Slot == slot && tr.Alive > 0 && n > 0 {
				k := min(n, tr.Alive)
				x.risked[i] += k
				n -= k
			}
		}
		planned = append(planned, at)
	}
	pr.planned = planned
	return nil
}

// lowest is the army's lowest slot with troops alive, where a capture risks its 2000, and how
// many are alive in it, as battle.Settle takes risked troops (4.5, B9).
func (pr *proposer) lowest(a *domain.Army) (int, int) {
	slot := 0
	for _, t := range a.Troops {
		if t.Alive > 0 && (slot == 0 || t.Slot < slot) {
			slot = t.Slot
		}
	}
	n := 0
	for _, t := range a.Troops {
		if t.Slot == slot {
			n += t.Alive
		}
	}
	return slot, n
}

// attempts rolls the kill and capture attempts (4.3.3, 4.5): the winner's, which need the
// pair of dice, and the loser's, which fail and only risk their troops. When nobody won no
// attempt is made and the risked troops are safe.
func (pr *proposer) attempts() error {
	w := pr.p.Dice.Winner
	if w < 0 {
		for _, at := range pr.planned {
			pr.note("%s's %s attempt is not made: nobody won the battle, and an attempt needs the battle won first (4.3.3)", at.by.a.Name, at.kind)
		}
		return nil
	}
	slices.SortStableFunc(pr.planned, func(x, y attempt) int {
		// the winner's first, a kill before a capture
		return cmp.Or(cmp.Compare(boolInt(x.by.side != w), boolInt(y.by.side != w)), cmp.Compare(boolInt(x.kind != "kill"), boolInt(y.kind != "kill")))
	})
	killed := map[*army]bool{}
	for _, at := range pr.planned {
		rep := AttemptReport{Kind: at.kind, By: at.by.a.Name, Target: at.target.a.Name, Risked: at.riskedSum}
		won := at.by.side == w
		if won && killed[at.target] {
			pr.note("%s's %s attempt on %s is not made: %s was killed", at.by.a.Name, at.kind, at.target.a.Name, at.target.a.Name)
			continue
		}
		if won {
			env := pr.killEnv(at)
			rep.Rolled, rep.Roll, rep.EnemyRoll = true, env.Roll, env.EnemyRoll
			var err error
			if at.kind == "kill" {
				rep.Value, err = pr.fs.Kill(env)
			} else {
				rep.Value, err = pr.fs.Capture(env)
			}
			if err != nil {
				return err
			}
			rep.Success = rep.Value > 0
			if rep.Success && at.kind == "kill" {
				killed[at.target] = true
			}
		}
		if !rep.Success {
			rep.RiskRoll = pr.rec.D20(RiskLabel(pr.b.Square, at.by.a.Name))
			n, err := pr.fs.Risk(RiskEnv{Risked: at.riskedSum, Roll: rep.RiskRoll, Won: won, Capture: at.kind == "capture", Faction: string(at.by.a.Faction)})
			if err != nil {
				return err
			}
			if at.kind == "kill" && Hellbent(at.by.a) {
				n = 0
				pr.note("%s is a raider: Hellbent, it keeps its kill squad after a failed kill (6.3.2)", at.by.a.Name)
			}
			rep.RiskedLost = n
		}
		pr.p.Attempts = append(pr.p.Attempts, rep)
		res := &domain.Attempt{By: rep.By, Target: rep.Target, Success: rep.Success, RiskedLost: rep.RiskedLost}
		switch {
		case at.kind == "kill" && pr.p.Result.Kill == nil:
			pr.p.Result.Kill = res
		case at.kind == "capture" && pr.p.Result.Capture == nil:
			pr.p.Result.Capture = res
		default:
			// the result has room for one kill and one capture: this one's risked losses go
			// with the battle's losses
			n := rep.RiskedLost
			for i := range at.by.a.Troops {
				k := min(n, at.by.risked[i])
				at.by.lost[i] += k
				n -= k
			}
		}
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// killEnv rolls the pair of dice of an attempt and describes the two armies after the battle.
func (pr *proposer) killEnv(at attempt) KillEnv {
	first := pr.p.Dice.First()
	env := KillEnv{
		Roll:       pr.rec.D20(AttemptLabel(at.kind, pr.b.Square, at.by.a.Name)),
		EnemyRoll:  pr.rec.D20(AttemptLabel(at.kind, pr.b.Square, at.target.a.Name)),
		Me:         stats([]*domain.Army{at.by.a}, func(_ *domain.Army, i int) int { return at.by.after(i) }),
		Enemy:      stats([]*domain.Army{at.target.a}, func(_ *domain.Army, i int) int { return at.target.after(i) }),
		Pairs:      first.Pairs[at.by.side],
		EnemyPairs: first.Pairs[at.target.side],
	}
	before, lost := 0, 0
	for i := range at.target.a.Troops {
		before += max(at.target.fighting(i), 0)
		lost += at.target.lost[i]
	}
	if before > 0 {
		env.Damage = float64(lost) / float64(before)
	}
	return env
}
