// Where a battle is fought (4.1.2.4, 4.1.2.5): the square's terrain, the weather drawn for it and
// the accepted description of the base or portal on it, shown with the battle.

package campaign

import (
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/round"
)

// Setting is where a battle is fought: the terrain of its square (4.1.2.4), its weather
// (4.1.2.5, R74) and, on a base or portal, the site and the side's description of it (2.5.1.2).
type Setting struct {
	Terrain     domain.Terrain `json:"terrain"`
	Weather     round.Weather  `json:"weather"`
	Site        string         `json:"site,omitempty"`
	Description string         `json:"description,omitempty"`
}

// weatherSeed is the seed a turn's battles draw their weather from (R74): the seed of the lock
// that made them (B1) — revealed when the battles are announced, so anyone may check the draw —
// or, for battles on a campaign's first map, the first turn's own.
func weatherSeed(r Reader, t *Turn) (domain.Seed, error) {
	if t.Number <= 1 {
		return t.Seed, nil
	}
	prev, err := r.Turn(t.CampaignID, t.Number-1)
	if err != nil {
		return domain.Seed{}, err
	}
	return prev.Seed, nil
}

// setting is where battle b of the desk's turn is fought.
func (d *deskTurn) setting(b *domain.Battle) *Setting {
	t := d.m.Terrain.At(b.Square)
	out := &Setting{Terrain: t, Weather: round.WeatherOf(d.weather, b.Square, t)}
	if s := d.m.SiteAt(b.Square); s != nil {
		out.Site = s.Name
		if s.Kind != domain.Town {
			out.Description = s.Description
		}
	}
	return out
}
