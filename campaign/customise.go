// A new player's customisation (2.6): he must remain long enough to fight 2 battles first.

package campaign

import (
	"encoding/json"
	"fmt"

	"github.com/coalition-wargame/coalition/domain"
)

// NewPlayerBattles is how many battles a new player fights before he may customise an army (2.6).
const NewPlayerBattles = 2

// foughtBattles counts the battles player has fought in campaign id (2.6, R78): those settled at
// each published lock in which an army he controlled at that lock (the control list as the lock
// read it, 5.4.2) fought.
func foughtBattles(r Reader, id int64, player string) (int, error) {
	turns, err := r.Turns(id)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, brief := range turns {
		if brief.Status != Locked || brief.Editing() || brief.ControlAt == nil {
			continue
		}
		t, err := r.Turn(id, brief.Number)
		if err != nil {
			return 0, err
		}
		var rep struct {
			Settled []struct {
				Battle domain.Battle `json:"battle"`
			} `json:"settled"`
		}
		if err := json.Unmarshal(t.Report, &rep); err != nil {
			return 0, fmt.Errorf("turn %d's report: %w", t.Number, err)
		}
		if len(rep.Settled) == 0 {
			continue
		}
		m, _, err := controlledMapAt(r, t, *t.ControlAt, t.ControlSeq)
		if err != nil {
			return 0, err
		}
		for _, s := range rep.Settled {
			for _, name := range s.Battle.Armies {
				if a := m.Army(name); a != nil && a.ControlledBy(player) {
					n++
					break
				}
			}
		}
	}
	return n, nil
}

// mayCustomiseYet refuses a player who has not fought 2 battles yet (2.6).
func mayCustomiseYet(r Reader, id int64, player string) error {
	n, err := foughtBattles(r, id, player)
	if err != nil {
		return err
	}
	if n < NewPlayerBattles {
		return domain.Errorf(domain.ErrConflict, "%s has fought %d %s: a new player customises an army once he has remained long enough to fight %d (2.6)",
			player, n, map[bool]string{true: "battle", false: "battles"}[n == 1], NewPlayerBattles)
	}
	return nil
}
