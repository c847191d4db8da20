package turn

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// TestKeyedWritesAsAMap: a Keyed value is written byte for byte as encoding/json writes the
// same map (names sorted byte by byte, HTML-safe escaping), and reads back to itself.
func TestKeyedWritesAsAMap(t *testing.T) {
	m := map[string]int{"Sai Rei": 3, "Ash": 1, "ash": 2, "<Lim-Dûl>": 4, "Zed & Co": 5}
	want, _ := json.Marshal(m)
	k := KeyedOf(m)
	got, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Keyed writes %s, a map %s", got, want)
	}
	var back Keyed[int]
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if v, ok := back.Get("Sai Rei"); !ok || v != 3 || len(back) != len(m) {
		t.Errorf("read back %v", back)
	}
	if _, ok := back.Get("Nobody"); ok {
		t.Error("Get found a name that is not there")
	}
	back.Set("Birch", 9)
	back.Set("Ash", 7)
	if v, _ := back.Get("Birch"); v != 9 || len(back) != len(m)+1 {
		t.Errorf("after Set: %v", back)
	}
	if v, _ := back.Get("Ash"); v != 7 {
		t.Errorf("Set did not replace Ash's value: %v", back)
	}
	var empty Keyed[int]
	if got, _ := json.Marshal(empty); string(got) != "{}" {
		t.Errorf("an empty Keyed writes %s, want {}", got)
	}
}

// TestByNameSortsLikeStrings checks the report's sort of armies by name against a plain sort
// of the names (then indexes) on random names built to tie: shared prefixes, names that are
// prefixes of others, equal names, empty names, bytes above 0x7f.
func TestByNameSortsLikeStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	parts := []string{"", "Coalition ", "Coalition 1", "Darkhand", "D", "Raider 1", "ab", "abcdefgh", "Lim-Dûl", "1", "2", "10", " "}
	for seed := range 2000 {
		n := r.IntN(40)
		armies := make([]domain.Army, n)
		for i := range armies {
			var b strings.Builder
			for range r.IntN(4) {
				b.WriteString(parts[r.IntN(len(parts))])
			}
			armies[i].Name = b.String()
		}
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int { return strings.Compare(armies[a].Name, armies[b].Name) })
		if got := byName(armies); !slices.Equal(got, want) {
			t.Fatalf("seed %d: byName gives %v, a plain sort %v", seed, got, want)
		}
	}
}

// BenchmarkByName sorts the army names of the benchmark maps: a campaign's 102 and the big
// map's 600 (teams of 45 and 270, 12 and 60 raiders).
func BenchmarkByName(b *testing.B) {
	for _, c := range []struct {
		name          string
		team, raiders int
	}{{"campaign", 45, 12}, {"600-armies", 270, 60}} {
		b.Run(c.name, func(b *testing.B) {
			var armies []domain.Army
			for i := range c.team {
				armies = append(armies, domain.Army{Name: fmt.Sprintf("Coalition %d", i+1)}, domain.Army{Name: fmt.Sprintf("Darkhand%d", i+1)})
			}
			for i := range c.raiders {
				armies = append(armies, domain.Army{Name: fmt.Sprintf("Raider %d", i+1)})
			}
			b.ReportAllocs()
			for b.Loop() {
				byName(armies)
			}
		})
	}
}
