// Rules B7, 4.2.5 and 4.4 (B10): casualties — a side's losses shared between its fighting armies
// and their creatures.

package battle

import (
	"cmp"
	"math"
	"slices"
)

// casualties computes each side's losses with the formula (B7) and spreads them over the
// fighting armies (4.4, B10) and their creatures.
func (pr *proposer) casualties() error {
	sp := &pr.p.Sides
	if sp[0].Stratless && sp[1].Stratless {
		pr.note("neither side sent a strategy: by default both lose nothing and nobody wins (B2)")
		return nil
	}
	first := pr.p.Dice.First()
	armies := len(sp[0].Fighting) + len(sp[1].Fighting)
	for s := range 2 {
		fighter := func(k int) Fighter {
			return Fighter{Stats: sp[k].Stats, Bonus: sp[k].Bonus, Pairs: first.Pairs[k], Sum: first.Sums[k], Stratless: sp[k].Stratless, Runs: sp[k].RunsAway}
		}
		w := pr.p.Dice.Winner
		env := CasualtyEnv{Me: fighter(s), Enemy: fighter(1 - s), Won: w == s, Lost: w == 1-s, Level: w < 0, Armies: armies}
		n, err := pr.fs.Casualties(env)
		if err != nil {
			return err
		}
		sp[s].Lost = pr.spread(s, n)
	}
	return nil
}

// spread shares a side's losses between its fighting armies by how much each fought, then
// over each army's creatures by their fighting troops, and returns how many were placed.
func (pr *proposer) spread(s, n int) int {
	var xs []*army
	var weights []float64
	var caps []int
	for _, x := range pr.sides[s] {
		if !x.fights {
			continue
		}
		xs = append(xs, x)
		w := 0.0
		if x.strat != nil {
			w = x.strat.Fought
		}
		weights = append(weights, w)
		c := 0
		for i := range x.a.Troops {
			c += max(x.fighting(i), 0)
		}
		caps = append(caps, c)
	}
	if !slices.ContainsFunc(weights, func(w float64) bool { return w > 0 }) {
		for i := range weights {
			weights[i] = 1
		}
	}
	placed := 0
	for k, share := range apportion(n, weights, caps) {
		x := xs[k]
		cw := make([]float64, len(x.a.Troops))
		cc := make([]int, len(x.a.Troops))
		for i := range x.a.Troops {
			cc[i] = max(x.fighting(i), 0)
			cw[i] = float64(cc[i])
		}
		for i, v := range apportion(share, cw, cc) {
			x.lost[i] += v
			placed += v
		}
	}
	return placed
}

// apportion shares total among entries in proportion to their weights, never giving an entry
// more than its cap nor anything to an entry of weight 0: entries that would pass their cap get
// it and the rest is shared again among the others; whole troops left over by rounding go to
// the largest fractions, earlier entries first. What cannot be placed is dropped.
func apportion(total int, weights []float64, caps []int) []int {
	out := make([]int, len(weights))
	var active []int
	for i, w := range weights {
		if w > 0 && caps[i] > 0 {
			active = append(active, i)
		}
	}
	for total > 0 && len(active) > 0 {
		sum := 0.0
		for _, i := range active {
			sum += weights[i]
		}
		capped := false
		active = slices.DeleteFunc(active, func(i int) bool {
			if float64(total)*weights[i]/sum >= float64(caps[i]-out[i]) {
				capped = true
				total -= caps[i] - out[i]
				out[i] = caps[i]
				return true
			}
			return false
		})
		if capped {
			continue
		}
		fracs := make([]float64, len(active))
		left := total
		for k, i := range active {
			share := float64(total) * weights[i] / sum
			fl := math.Floor(share)
			out[i] += int(fl)
			fracs[k] = share - fl
			left -= int(fl)
		}
		order := make([]int, len(active))
		for k := range order {
			order[k] = k
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(fracs[b], fracs[a]) })
		for _, k := range order {
			if left <= 0 {
				break
			}
			i := active[k]
			if out[i] < caps[i] {
				out[i]++
				left--
			}
		}
		total = 0
	}
	return out
}
