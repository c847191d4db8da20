package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// bigMap is a full 38 × 14 map with terrain and 90 armies of four troops each, like the
// demo's: the size the viewer loads.
func bigMap() *domain.Map {
	m := &domain.Map{Grid: domain.DefaultGrid, Terrain: domain.TerrainMap{Default: domain.Plains, Squares: map[domain.Square]domain.Terrain{}}}
	terrains := []domain.Terrain{domain.Ocean, domain.Islands, domain.Mountain, domain.Forest, domain.Swamp}
	for i := range m.Grid.Size() {
		if i%3 == 0 {
			m.Terrain.Squares[m.Grid.At(i)] = terrains[i%len(terrains)]
		}
	}
	for i := range 90 {
		side, col := domain.Coalition, 2+i%15
		if i%2 == 1 {
			side, col = domain.Phyrexia, 23+i%15
		}
		a := domain.Army{Name: fmt.Sprintf("Army %d", i), Side: side, Rank: domain.Rank(1 + i%6), At: domain.Square{Col: uint8(col), Row: uint8(1 + (i/15)%14)}, Controllers: []string{"Gazetzot"}}
		if side == domain.Phyrexia {
			a.Controllers = []string{"Tevesh"}
		}
		for s := 1; s <= domain.Slots; s++ {
			a.Troops = append(a.Troops, domain.Troop{Creature: fmt.Sprintf("Creature %d-%d", i, s), Size: domain.Size{Power: s, Toughness: s}, Colors: []domain.Color{domain.Black}, Slot: s, Alive: domain.SlotCapacity(s), Full: domain.SlotCapacity(s)})
		}
		m.Armies = append(m.Armies, a)
	}
	return m
}

func benchCampaign(b *testing.B, e *env) string {
	b.Helper()
	created, err := e.svc.CreateCampaign(context.Background(), e.actor(admin), campaign.Setup{Name: "Bench", Map: bigMap(), Members: []campaign.Member{
		{Name: "Gazetzot", Roles: []campaign.Role{campaign.Player}, Side: domain.Coalition, Rank: domain.General},
		{Name: "Tevesh", Roles: []campaign.Role{campaign.Player}, Side: domain.Phyrexia, Rank: domain.General},
	}})
	if err != nil {
		b.Fatal(err)
	}
	return "/api/campaigns/" + strconv.FormatInt(created.Campaign.ID, 10)
}

// cpuPerOp starts counting the process's CPU time; the returned function reports it per
// operation (cpu-ns/op: the work, which the load of other processes does not inflate as it
// does the wall time).
func cpuPerOp(b *testing.B) func() {
	b.ResetTimer()
	c := cpuTime()
	return func() { b.ReportMetric(float64((cpuTime()-c).Nanoseconds())/float64(b.N), "cpu-ns/op") }
}

// serve sends one request straight to the handler, without the contract check.
func serve(e *env, req *http.Request) *httptest.ResponseRecorder {
	res := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(res, req)
	return res
}

// BenchmarkPostOrders posts a three-line text post and gets each line's outcome.
func BenchmarkPostOrders(b *testing.B) {
	e := newEnv(b)
	path := benchCampaign(b, e) + "/posts"
	tok := e.token(player)
	body := `{"text":"Army 0: 2A > 3A\nArmy 2: 4A > 4C\nArmy 4: 6A > 9A"}`
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		if res := serve(e, req); res.Code != http.StatusCreated {
			b.Fatalf("%d %s", res.Code, res.Body)
		}
	}
}

// BenchmarkMap200 serves the current map from the cache of encoded maps.
func BenchmarkMap200(b *testing.B) {
	e := newEnv(b)
	path := benchCampaign(b, e) + "/map"
	res := serve(e, httptest.NewRequest("GET", path, nil))
	b.SetBytes(int64(res.Body.Len()))
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		if res := serve(e, httptest.NewRequest("GET", path, nil)); res.Code != http.StatusOK {
			b.Fatal(res.Code)
		}
	}
}

// BenchmarkMap304 answers If-None-Match with the current map's tag.
func BenchmarkMap304(b *testing.B) {
	e := newEnv(b)
	path := benchCampaign(b, e) + "/map"
	tag := serve(e, httptest.NewRequest("GET", path, nil)).Header().Get("ETag")
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("If-None-Match", tag)
		if res := serve(e, req); res.Code != http.StatusNotModified {
			b.Fatal(res.Code)
		}
	}
}

// BenchmarkMapUncached encodes the map for every request, for comparison with the cache.
func BenchmarkMapUncached(b *testing.B) {
	e := newEnv(b)
	path := benchCampaign(b, e)
	id, _ := strconv.ParseInt(strings.TrimPrefix(path, "/api/campaigns/"), 10, 64)
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		if _, err := e.svc.CurrentMap(context.Background(), campaign.Actor{}, id); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPostOrders64 posts from 64 goroutines at once, each post one line, as in a deadline
// rush: the posts are checked side by side and committed in groups (issue 16).
func BenchmarkPostOrders64(b *testing.B) {
	e := newEnv(b)
	path := benchCampaign(b, e) + "/posts"
	tok := e.token(player)
	b.SetParallelism(max(1, 64/runtime.GOMAXPROCS(0)))
	b.ReportAllocs()
	defer cpuPerOp(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest("POST", path, strings.NewReader(`{"text":"Army 0: 2A > 3A"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+tok)
			if res := serve(e, req); res.Code != http.StatusCreated {
				b.Errorf("%d %s", res.Code, res.Body)
				return
			}
		}
	})
}

// BenchmarkPostOrders64Keyed is BenchmarkPostOrders64 with an Idempotency-Key on every post, as
// the web pages send: the key looked up first, stored with the post's answer.
func BenchmarkPostOrders64Keyed(b *testing.B) {
	e := newEnv(b)
	path := benchCampaign(b, e) + "/posts"
	tok := e.token(player)
	var n atomic.Int64
	b.SetParallelism(max(1, 64/runtime.GOMAXPROCS(0)))
	b.ReportAllocs()
	defer cpuPerOp(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest("POST", path, strings.NewReader(`{"text":"Army 0: 2A > 3A"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Idempotency-Key", "bench-"+strconv.FormatInt(n.Add(1), 10))
			if res := serve(e, req); res.Code != http.StatusCreated {
				b.Errorf("%d %s", res.Code, res.Body)
				return
			}
		}
	})
}

// BenchmarkMap304Player answers a logged-in player's If-None-Match: his token checked, his
// class and orderable armies looked up, from 32 goroutines.
func BenchmarkMap304Player(b *testing.B) {
	e := newEnv(b)
	path := benchCampaign(b, e) + "/map"
	tok := e.token(player)
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	tag := serve(e, req).Header().Get("ETag")
	b.SetParallelism(max(1, 32/runtime.GOMAXPROCS(0)))
	b.ReportAllocs()
	defer cpuPerOp(b)()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest("GET", path, nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("If-None-Match", tag)
			if res := serve(e, req); res.Code != http.StatusNotModified {
				b.Errorf("%d", res.Code)
				return
			}
		}
	})
}
