package round_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/round"
)

// data is the shipped card data and its legal pool, loaded once.
var data struct {
	once sync.Once
	cat  *cards.Catalogue
	pool *round.Pool
	err  error
}

func catalogue(t testing.TB) (*cards.Catalogue, *round.Pool) {
	t.Helper()
	data.once.Do(func() {
		data.cat, data.err = cards.Load()
		if data.err == nil {
			data.pool = round.LegalPool(data.cat, data.cat.CreaturePool())
		}
	})
	if data.err != nil {
		t.Fatal(data.err)
	}
	return data.cat, data.pool
}

// randomPlayers makes a side's players from r: up to the most of each rank 2.5.2.1 allows (a
// few more Lieutenants than the recommended 14), their first ones leaders, Coalition players
// with 1–3 factions.
func randomPlayers(r *rand.Rand) []round.Player {
	var out []round.Player
	for _, side := range []domain.Side{domain.Coalition, domain.Phyrexia} {
		for _, rk := range round.ArmyRanks {
			most := round.Maximum.Of(rk)
			if most == 0 {
				most = 20
			}
			for k := range r.IntN(most + 1) {
				p := round.Player{Name: fmt.Sprintf("%s %s %c", side, rk.Word(side), 'a'+k), Side: side, Rank: rk, Leader: rk <= domain.Admiral}
				if side == domain.Coalition {
					fs := slices.Clone(round.Factions)
					r.Shuffle(len(fs), func(i, j int) { fs[i], fs[j] = fs[j], fs[i] })
					p.Factions = fs[:1+r.IntN(3)]
				}
				out = append(out, p)
			}
		}
	}
	return out
}

// generated is a round the generator made from seed n with random players.
func generated(t testing.TB, n int64) (*round.Round, []round.Player) {
	t.Helper()
	_, pool := catalogue(t)
	players := randomPlayers(rand.New(rand.NewPCG(uint64(n), 7)))
	r, err := round.Generate(round.SeedOf(n), domain.DefaultGrid, round.Options{Players: players, Pool: pool, By: "Judge"})
	if err != nil {
		t.Fatalf("seed %d: %v", n, err)
	}
	return r, players
}

// Property (issue 14): 1,000 rounds from the generator, each with its own seed and players, each
// passes every check of 2.5 and chapter 6, and its starting map is one the rules can work on.
func TestGeneratedRoundsPassEveryCheck(t *testing.T) {
	cat, _ := catalogue(t)
	rounds := int64(1000)
	if testing.Short() {
		rounds = 100
	}
	var wg sync.WaitGroup
	fails := make(chan string, rounds*3)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := int64(w); n < rounds; n += 2 {
				r, players := generated(t, n)
				if ps := round.Check(r, players, cat); len(ps) > 0 {
					fails <- fmt.Sprintf("seed %d: %d problems, the first: %+v", n, len(ps), ps[0])
					continue
				}
				m := round.Map(r, players, cat)
				if err := m.Validate(); err != nil {
					fails <- fmt.Sprintf("seed %d: the starting map: %v", n, err)
				}
				if got, want := len(m.Armies), 2*r.Counts.Total()+10; got != want {
					fails <- fmt.Sprintf("seed %d: %d armies on the map, want %d", n, got, want)
				}
			}
		}()
	}
	wg.Wait()
	close(fails)
	for f := range fails {
		t.Error(f)
	}
}

// The generator is a function of its seed, players and pool: the same inputs give the same
// round, byte for byte; another seed another round.
func TestGenerateIsDeterministic(t *testing.T) {
	a, _ := generated(t, 42)
	b, _ := generated(t, 42)
	c, _ := generated(t, 43)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	jc, _ := json.Marshal(c)
	if string(ja) != string(jb) {
		t.Error("the same seed gave two rounds")
	}
	if string(ja) == string(jc) {
		t.Error("two seeds gave one round")
	}
}

// The weather table (4.1.2.5, R74) covers every roll of the d20 on every terrain with words, and
// the draw is the documented one: Intn("weather:<square>", 20) + 1.
func TestWeatherTable(t *testing.T) {
	kinds := map[string]bool{}
	seed := round.SeedOf(1)
	for _, sqs := range []string{"1A", "5E", "12H", "38N"} {
		s, _ := domain.ParseSquare(sqs)
		for _, tr := range []domain.Terrain{domain.Ocean, domain.Islands, domain.Plains, domain.Mountain, domain.Forest, domain.Swamp} {
			w := round.WeatherOf(seed, s, tr)
			if w.Label != "weather:"+sqs || w.Roll != seed.Intn(w.Label, 20)+1 || w.Text == "" || w.Kind == "" {
				t.Errorf("%s on %s: %+v", sqs, tr, w)
			}
			kinds[w.Kind] = true
		}
	}
	for n := range int64(200) {
		w := round.WeatherOf(round.SeedOf(n), domain.Square{Col: 3, Row: 3}, domain.Forest)
		if w.Text == "" {
			t.Fatalf("roll %d has no words", w.Roll)
		}
		kinds[w.Kind] = true
	}
	if len(kinds) != 8 {
		t.Errorf("200 draws give %d kinds of weather of 8: %v", len(kinds), kinds)
	}
}
