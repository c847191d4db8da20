package round

// This file holds a battle's weather (4.1.2.5): a d20 by the seed, read on the table of
// docs/READINGS.md R74, worded for the square's terrain.

import (
	"github.com/coalition-wargame/coalition/domain"
)

// Weather is the weather a battle is fought in (4.1.2.5): the d20 drawn, its kind and the words
// the battle desk shows.
type Weather struct {
	Roll  int    `json:"roll"`
	Label string `json:"label"`
	Kind  string `json:"kind"`
	Text  string `json:"text"`
}

// weatherRow is one row of the weather table: the highest roll it covers, its kind, and its
// words on each terrain (the first when the terrain has none of its own).
type weatherRow struct {
	upTo  int
	kind  string
	words map[domain.Terrain]string
}

// weatherTable is R74's table.
var weatherTable = []weatherRow{
	{7, "clear", map[domain.Terrain]string{"": "Clear skies: good light from dawn to dusk, and a bright moon after."}},
	{10, "overcast", map[domain.Terrain]string{"": "Overcast: a grey, windless day; the night is very dark."}},
	{12, "fog", map[domain.Terrain]string{"": "Fog until midday: armies cannot see further than a bowshot before noon.",
		domain.Ocean: "Sea fog: banks of fog drift over the water all day.", domain.Islands: "Sea fog: banks of fog drift between the islands all day.",
		domain.Swamp: "Marsh mist: a thick mist lies on the swamp all day."}},
	{15, "rain", map[domain.Terrain]string{"": "Rain: steady rain all day; the ground turns to mud and bowstrings slacken.",
		domain.Mountain: "Sleet: icy rain on the slopes, the paths slippery.", domain.Ocean: "Rain: steady rain and a rising swell."}},
	{17, "wind", map[domain.Terrain]string{"": "Strong wind: gusts all day; arrows and fliers drift with it.",
		domain.Ocean: "Gale: high seas and a hard wind; fliers struggle.", domain.Mountain: "Gale: a howling wind on the heights; fliers struggle."}},
	{18, "thunderstorm", map[domain.Terrain]string{"": "Thunderstorm in the afternoon: lightning, downpours, and no sight beyond a few hundred yards."}},
	{19, "heat", map[domain.Terrain]string{"": "Heat wave: a scorching day; armies tire fast in armour.",
		domain.Mountain: "Bitter cold: frost on the heights; hands and hooves numb.", domain.Ocean: "Dead calm and heat: no wind at all on the water."}},
	{20, "storm", map[domain.Terrain]string{"": "Great storm: a downpour and wind all day, rivers in flood.",
		domain.Mountain: "Blizzard: snow all day; the passes close.", domain.Ocean: "Tempest: a storm at sea all day.", domain.Islands: "Tempest: a storm lashes the islands all day."}},
}

// WeatherLabel is the draw of the weather of the battle on square s: "weather:<square>".
func WeatherLabel(s domain.Square) string { return "weather:" + s.String() }

// WeatherOf is the weather of the battle fought on square s, of terrain t, drawn from seed (a
// d20, label "weather:<square>", R74).
func WeatherOf(seed domain.Seed, s domain.Square, t domain.Terrain) Weather {
	label := WeatherLabel(s)
	roll := seed.IntnOnce(label, 20) + 1
	for _, row := range weatherTable {
		if roll <= row.upTo {
			text, ok := row.words[t]
			if !ok {
				text = row.words[""]
			}
			return Weather{Roll: roll, Label: label, Kind: row.kind, Text: text}
		}
	}
	return Weather{Roll: roll, Label: label}
}
