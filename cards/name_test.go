package cards

import "testing"

func TestKey(t *testing.T) {
	tests := []struct{ a, b string }{
		{"Lim-Dûl the Necromancer", "lim dul the necromancer"},
		{"Lim-Dûl the Necromancer", "LIM-DUL THE NECROMANCER"},
		{"Æther Figment", "Aether Figment"},
		{"æthersnipe", "AETHERSNIPE"},
		{"Summoner's Egg", "summoners egg"},
		{"Summoner’s Egg", "Summoner's Egg"},
		{"Dandân", "dandan"},
		{"Jötun Grunt", "jotun grunt"},
		{"B.F.M. (Big Furry Monster)", "bfm big furry monster"},
		{"Delver of Secrets // Insectile Aberration", "delver of secrets insectile aberration"},
		{"  Grizzly   Bears ", "grizzly bears"},
	}
	for _, tt := range tests {
		if Key(tt.a) != Key(tt.b) {
			t.Errorf("Key(%q) = %q, Key(%q) = %q: want them equal", tt.a, Key(tt.a), tt.b, Key(tt.b))
		}
	}
	if Key("Grizzly Bears") == Key("Grizzly Bear") {
		t.Error("different names must have different keys")
	}
	if got := Key("_____"); got != "_____" {
		t.Errorf(`Key("_____") = %q: a name of punctuation only is its own key`, got)
	}
}

func TestWords(t *testing.T) {
	tests := map[string]string{
		"Lim-Dûl's High Guard":     "lim duls high guard",
		"Æther Figment":            "aether figment",
		"Sol'kanar the Swamp King": "solkanar the swamp king",
		"  Two   Spaces ":          "two spaces",
	}
	for in, want := range tests {
		if got := Words(in); got != want {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"grizzlybears", "grizzlybears", 3, 0},
		{"grizlybears", "grizzlybears", 3, 1},
		{"serraangle", "serraangel", 3, 1},
		{"kitten", "sitting", 3, 3},
		{"abc", "abcdefgh", 3, 4},
		{"", "abc", 3, 3},
		{"shivandragon", "serraangel", 3, 4},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}
