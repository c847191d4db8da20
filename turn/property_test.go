package turn_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/turn"
)

var (
	propSeeds = flag.Int("prop.seeds", 2000, "random maps TestTurnProperties plays (200 with -short)")
	propTurns = flag.Int("prop.turns", 4, "turns TestTurnProperties runs in sequence on each map")
	propSeed  = flag.Int64("prop.seed", -1, "play only this seed")
	propDump  = flag.String("prop.dump", "", "write each failing seed as a scenario file into this folder")
)

// knownCodes are the rejection codes of the scenario format (scenario-format.md).
var knownCodes = map[domain.Code]bool{}

func init() {
	for _, c := range strings.Fields(`parse_error unknown_army not_controller conflicting_controllers
		wrong_origin off_map out_of_range bad_route missing_engage missing_replace wrong_keyword in_battle
		superseded joint_engage_rank joint_engage_site joint_engage_failed joint_engage_limit
		transfer_not_adjacent transfer_from_site transfer_no_room transfer_cancelled transfer_not_friendly
		transfer_wrong_square private_too_early too_late intercept_not_enemy`) {
		knownCodes[domain.Code(c)] = true
	}
}

// problem is one broken property: which one, and what was seen.
type problem struct {
	property, detail string
}

// TestTurnProperties plays random crowded maps for several turns through turn.Run, with
// random posts (valid and invalid lines of every kind) and random battle results, and checks
// after every lock what must hold whatever the orders (M7, M12, M13, 3.2.2.1, M2, B6, G1):
// see checkTurn and playSeed. It reports each broken property once, with the number of seeds
// that broke it and the first few. Play more seeds with -prop.seeds=20000, one with
// -prop.seed=N; -prop.dump=DIR writes every failing seed as a scenario file for
// `coalition adjudicate`.
func TestTurnProperties(t *testing.T) {
	seeds := *propSeeds
	if testing.Short() {
		seeds = min(seeds, 200)
	}
	first := int64(0)
	if *propSeed >= 0 {
		first, seeds = *propSeed, 1
	}
	type tally struct {
		seeds    int
		examples []string
	}
	broken := map[string]*tally{}
	for s := first; s < first+int64(seeds); s++ {
		problems, turns, start := playSeed(uint64(s), *propTurns)
		if len(problems) == 0 {
			continue
		}
		seen := map[string]bool{}
		hung := false
		for _, p := range problems {
			hung = hung || p.property == "terminates"
			tl := broken[p.property]
			if tl == nil {
				tl = &tally{}
				broken[p.property] = tl
			}
			if !seen[p.property] {
				seen[p.property] = true
				tl.seeds++
				if len(tl.examples) < 3 {
					tl.examples = append(tl.examples, fmt.Sprintf("seed %d, %s", s, p.detail))
				}
			}
		}
		if *propDump != "" {
			data, err := enginetest.ScenarioJSON(fmt.Sprintf("property-seed-%d", s), s, start, turns)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(*propDump, fmt.Sprintf("property-seed-%d.json", s)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if hung {
			break // the runaway lock still holds a core
		}
	}
	props := make([]string, 0, len(broken))
	for p := range broken {
		props = append(props, p)
	}
	slices.Sort(props)
	for _, p := range props {
		tl := broken[p]
		t.Errorf("property %q broken in %d of %d seeds (replay one with -prop.seed=N), e.g.\n\t%s", p, tl.seeds, seeds, strings.Join(tl.examples, "\n\t"))
	}
}

// opening is the time the first generated turn opens.
var opening = time.Date(2026, 3, 1, 5, 0, 0, 0, time.UTC)

// playSeed builds the seed's map and plays turns on it, each turn's map feeding the next. Besides
// checkTurn's properties it checks that Run leaves its input map alone, that running a turn
// twice gives byte-identical JSON (B6), and that the order in which posts, transfer details and
// results are listed changes nothing (Check sorts posts by time, then id: M2, M7). It returns the
// problems of the first turn that has any, the turns played up to it, and the opening map.
func playSeed(seed uint64, turns int) ([]problem, []enginetest.Turn, *domain.Map) {
	r := enginetest.Rand(seed)
	m := enginetest.Map(r, enginetest.Small(r))
	start := m
	var played []enginetest.Turn
	for k := range turns {
		tn := enginetest.Turn{
			Orders:  enginetest.Posts(r, m, opening.Add(time.Duration(k)*72*time.Hour), int64(k*1000+1), enginetest.Style{}),
			Results: enginetest.Results(r, m),
		}
		in := turn.Input{Seed: domain.ScenarioSeed(int64(seed), k), Posts: tn.Posts, Lock: tn.Lock, Transfers: tn.Transfers, Results: tn.Results}
		before := mustJSON(m)
		next, rep, done, err := runWithin(m, in, hangAfter)
		if !done {
			played = append(played, tn)
			return []problem{{"terminates", fmt.Sprintf("turn %d: Run has not returned after %v", k+1, hangAfter)}}, played, start
		}
		if err != nil && strings.Contains(err.Error(), "cannot be pushed to") {
			// the judge named a square a friend of the loser moved into: Settle is right to
			// refuse it (B8); let the push be random instead
			for i := range in.Results {
				in.Results[i].LoserTo = domain.Square{}
			}
			next, rep, err = turn.Run(m, in)
		}
		tn.Results = in.Results
		played = append(played, tn)
		where := fmt.Sprintf("turn %d: ", k+1)
		if err != nil {
			return []problem{{"run", where + "Run refused a valid input: " + err.Error()}}, played, start
		}
		var problems []problem
		if mustJSON(m) != before {
			problems = append(problems, problem{"input map untouched", "Run changed the map it was given"})
		}
		want := mustJSON(next) + mustJSON(rep)
		if again := runJSON(m, in); again != want {
			problems = append(problems, problem{"deterministic", "a second run of the same input gives different JSON (B6): " + firstDiff(want, again)})
		}
		sh := in
		rs := rand.New(rand.NewPCG(seed, uint64(k)))
		sh.Posts = shuffled(rs, in.Posts)
		sh.Transfers = shuffled(rs, in.Transfers)
		sh.Results = shuffled(rs, in.Results)
		if got := runJSON(m, sh); got != want {
			problems = append(problems, problem{"post order", "listing the posts in another order changes the outcome (M2): " + firstDiff(want, got)})
		}
		problems = append(problems, checkTurn(m, next, rep)...)
		if len(problems) > 0 {
			for i := range problems {
				problems[i].detail = where + problems[i].detail
			}
			return problems, played, start
		}
		m = next
	}
	return nil, played, start
}

// hangAfter is how long a lock may take before the property tests call it a hang: a thousand
// times what a crowded small map needs.
const hangAfter = 10 * time.Second

// runWithin runs the lock in a goroutine and gives up waiting after d; done is false then, and
// the runaway goroutine is left behind (the test stops playing seeds).
func runWithin(m *domain.Map, in turn.Input, d time.Duration) (next *domain.Map, rep *turn.Report, done bool, err error) {
	type result struct {
		next *domain.Map
		rep  *turn.Report
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		n, r, e := turn.Run(m, in)
		ch <- result{n, r, e}
	}()
	select {
	case res := <-ch:
		return res.next, res.rep, true, res.err
	case <-time.After(d):
		return nil, nil, false, nil
	}
}

func runJSON(m *domain.Map, in turn.Input) string {
	next, rep, err := turn.Run(m, in)
	if err != nil {
		return "error: " + err.Error()
	}
	return mustJSON(next) + mustJSON(rep)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func shuffled[T any](r *rand.Rand, s []T) []T {
	out := slices.Clone(s)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-150, 0)
	return fmt.Sprintf("first difference at byte %d:\n\t\twant …%s…\n\t\tgot  …%s…", i, a[lo:min(i+150, len(a))], b[lo:min(i+150, len(b))])
}

// checkTurn checks what must hold after any lock, whatever the orders and results:
//   - the map is valid, every army is on the grid and the report's positions are the map's (G1);
//   - no two armies of one side share a square, except the two armies of a joint engagement
//     (M7, M13); mercenaries never share (M12); no square holds armies of three sides (M12);
//   - every square with armies of two sides has exactly one battle listed, with exactly those
//     armies, and every listed battle is such a square (M12, B1);
//   - no army moves more than 3 single steps by its own move: each move starts where the army
//     stood, its route is a chain of at most 3 single steps, and it ends on its route or where it
//     started (3.2.2.1, M4, M8);
//   - every army ends where its move, then the pushes and teleports after the battles (B8, 4.5),
//     put it; an army that left the map is listed as removed;
//   - every rejection has a known code and a message.
func checkTurn(before, next *domain.Map, rep *turn.Report) []problem {
	var bad []problem
	fail := func(property, format string, args ...any) {
		bad = append(bad, problem{property, fmt.Sprintf(format, args...)})
	}
	if err := next.Validate(); err != nil {
		fail("valid map", "the map after the lock is not valid: %v", err)
	}
	if len(rep.Positions) != len(next.Armies) {
		fail("positions", "the report lists %d positions for %d armies", len(rep.Positions), len(next.Armies))
	}
	bySquare := map[domain.Square][]*domain.Army{}
	for i := range next.Armies {
		a := &next.Armies[i]
		if !next.Grid.Contains(a.At) {
			fail("on the map", "%s is off the map (%q)", a.Name, a.At)
		}
		if p, ok := rep.Positions.Map()[a.Name]; !ok || p != a.At {
			fail("positions", "the report puts %s on %q, the map on %s", a.Name, p, a.At)
		}
		if a.Days < 0 {
			fail("days", "%s has a negative day count %d", a.Name, a.Days)
		}
		bySquare[a.At] = append(bySquare[a.At], a)
	}
	battleAt := map[domain.Square]turn.Battle{}
	for _, b := range rep.Battles {
		if _, dup := battleAt[b.Square]; dup {
			fail("one battle per square", "two battles are listed at %s: at most one battle per square (M12)", b.Square)
		}
		battleAt[b.Square] = b
		if !slices.IsSorted(b.Armies) {
			fail("battles", "the armies of the battle at %s are not sorted: %v", b.Square, b.Armies)
		}
		switch b.Kind {
		case domain.Attack, domain.Meeting, domain.Intercept, domain.Joint, domain.Push:
		default:
			fail("battles", "the battle at %s has kind %q", b.Square, b.Kind)
		}
		if b.Attacker != nil && !slices.Contains(b.Armies, *b.Attacker) {
			fail("battles", "the battle at %s names attacker %s, who is not in it", b.Square, *b.Attacker)
		}
	}
	for sq, as := range bySquare {
		perSide := map[domain.Side][]string{}
		var names []string
		for _, a := range as {
			perSide[a.Side] = append(perSide[a.Side], a.Name)
			names = append(names, a.Name)
		}
		slices.Sort(names)
		b, hasBattle := battleAt[sq]
		if len(perSide) > 2 {
			fail("three sides", "%s holds armies of three sides: %v (M12)", sq, perSide)
		}
		for side, ns := range perSide {
			switch {
			case len(ns) < 2:
			case side == domain.Mercenary:
				fail("mercenaries share", "mercenaries %v share %s (M12)", ns, sq)
			case len(ns) > 2:
				fail("friends share", "%d armies of %s share %s: %v (M7)", len(ns), side, sq, ns)
			case !hasBattle || b.Kind != domain.Joint:
				fail("friends share", "%v of %s share %s outside a joint engagement (M7, M13)", ns, side, sq)
			}
		}
		switch {
		case len(perSide) >= 2 && !hasBattle:
			fail("battles", "%s holds enemies %v but no battle is listed there (B1)", sq, names)
		case len(perSide) >= 2 && !slices.Equal(b.Armies, names):
			fail("battles", "the battle at %s lists %v, but %v stand there", sq, b.Armies, names)
		}
	}
	for _, b := range rep.Battles {
		if len(bySquare[b.Square]) < 2 {
			fail("battles", "a battle is listed at %s, where %d army stands", b.Square, len(bySquare[b.Square]))
		}
	}

	start := map[string]domain.Square{}
	for _, a := range before.Armies {
		start[a.Name] = a.At
	}
	pos := maps(start)
	moved := map[string]bool{}
	for _, mv := range rep.Moves {
		s, ok := start[mv.Army]
		switch {
		case !ok:
			fail("moves", "%s moved, but was not on the map", mv.Army)
			continue
		case moved[mv.Army]:
			fail("moves", "%s moved twice", mv.Army)
		case mv.From != s:
			fail("moves", "%s moved from %s, but stood on %s", mv.Army, mv.From, s)
		}
		moved[mv.Army] = true
		if len(mv.Route) > 3 {
			fail("at most 3 steps", "%s's route %v has %d steps: at most 3 (3.2.2.1)", mv.Army, mv.Route, len(mv.Route))
		}
		prev := mv.From
		for _, sq := range mv.Route {
			if domain.Steps(prev, sq) != 1 {
				fail("at most 3 steps", "%s's route %v jumps from %s to %s (3.2.2.1, G2)", mv.Army, mv.Route, prev, sq)
			}
			prev = sq
		}
		if len(mv.Route) == 0 && domain.Steps(mv.From, mv.To) > 3 {
			fail("at most 3 steps", "%s moved %d steps from %s to %s (3.2.2.1)", mv.Army, domain.Steps(mv.From, mv.To), mv.From, mv.To)
		}
		if len(mv.Route) == 0 && (mv.Partial || mv.Intercepted) {
			fail("at most 3 steps", "%s's move was cut short or intercepted, but its route is not reported (M4, M8, M9)", mv.Army)
		}
		if len(mv.Route) > 0 && mv.To != mv.From && !slices.Contains(mv.Route, mv.To) {
			fail("at most 3 steps", "%s ended its move on %s, off its route %s %v", mv.Army, mv.To, mv.From, mv.Route)
		}
		pos[mv.Army] = mv.To
	}
	for _, p := range rep.Pushes {
		switch {
		case pos[p.Army] != p.From:
			fail("pushes", "%s is pushed from %s, but stood on %s (%s)", p.Army, p.From, pos[p.Army], p.Reason)
		case !next.Grid.Contains(p.To):
			fail("on the map", "%s is pushed off the map to %q (%s)", p.Army, p.To, p.Reason)
		}
		pos[p.Army] = p.To
	}
	for _, a := range next.Armies {
		if s, ok := pos[a.Name]; !ok {
			fail("positions", "%s appeared from nowhere on %s", a.Name, a.At)
		} else if s != a.At {
			fail("positions", "%s ended on %s; its move and pushes put it on %s", a.Name, a.At, s)
		}
	}
	for name := range start {
		if _, ok := rep.Positions.Map()[name]; !ok && !slices.Contains(rep.Removed, name) {
			fail("removed", "%s left the map without being listed as removed", name)
		}
	}
	for _, name := range rep.Removed {
		if _, ok := rep.Positions.Map()[name]; ok {
			fail("removed", "%s is listed as removed but is still on %s", name, rep.Positions.Map()[name])
		}
	}
	for _, r := range rep.Rejected {
		if !knownCodes[r.Code] {
			fail("known codes", "post %d line %d (%q) is rejected with code %q, which the scenario format does not know", r.Post, r.Line, r.Text, r.Code)
		}
		if strings.TrimSpace(r.Message) == "" {
			fail("messages", "post %d line %d (%q) is rejected (%s) with no message", r.Post, r.Line, r.Text, r.Code)
		}
		if r.Army == "" {
			fail("messages", "post %d line %d (%q) is rejected (%s) for no army", r.Post, r.Line, r.Text, r.Code)
		}
	}
	return bad
}

func maps(m map[string]domain.Square) map[string]domain.Square {
	out := make(map[string]domain.Square, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TestCheckTurnCatches proves that checkTurn can fail: each broken lock below must draw at
// least one complaint naming what is wrong.
func TestCheckTurnCatches(t *testing.T) {
	sq := func(s string) domain.Square {
		v, err := domain.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	base := func() *domain.Map {
		return &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{
			{Name: "Ash", Side: domain.Coalition, Rank: domain.Lieutenant, At: sq("3D")},
			{Name: "Birch", Side: domain.Coalition, Rank: domain.Lieutenant, At: sq("5D")},
			{Name: "Grim", Side: domain.Phyrexia, Rank: domain.Lieutenant, At: sq("8D")},
			{Name: "Raider", Side: domain.Mercenary, Rank: domain.Lieutenant, At: sq("12D")},
			{Name: "Raider Two", Side: domain.Mercenary, Rank: domain.Lieutenant, At: sq("14D")},
		}}
	}
	before := base()
	_, good, err := turn.Run(before, turn.Input{})
	if err != nil {
		t.Fatal(err)
	}
	if bad := checkTurn(before, before, good); len(bad) > 0 {
		t.Fatalf("a quiet turn draws complaints: %v", bad)
	}
	cases := []struct {
		name   string
		want   string
		change func(next *domain.Map, rep *turn.Report)
	}{
		{"friends share", "outside a joint engagement", func(m *domain.Map, rep *turn.Report) {
			m.Armies[1].At = sq("3D")
			rep.Moves = append(rep.Moves, domain.Move{Army: "Birch", From: sq("5D"), To: sq("3D"), Route: []domain.Square{sq("4D"), sq("3D")}})
		}},
		{"three sides", "three sides", func(m *domain.Map, rep *turn.Report) {
			m.Armies[2].At, m.Armies[3].At = sq("3D"), sq("3D")
			rep.Pushes = append(rep.Pushes, pushOf("Grim", sq("8D"), sq("3D")), pushOf("Raider", sq("12D"), sq("3D")))
		}},
		{"mercenaries share", "mercenaries", func(m *domain.Map, rep *turn.Report) {
			m.Armies[4].At = sq("12D")
			rep.Pushes = append(rep.Pushes, pushOf("Raider Two", sq("14D"), sq("12D")))
		}},
		{"enemies without a battle", "no battle is listed", func(m *domain.Map, rep *turn.Report) {
			m.Armies[2].At = sq("5D")
			rep.Pushes = append(rep.Pushes, pushOf("Grim", sq("8D"), sq("5D")))
		}},
		{"four steps", "4 steps", func(m *domain.Map, rep *turn.Report) {
			m.Armies[0].At = sq("3H")
			rep.Moves = append(rep.Moves, domain.Move{Army: "Ash", From: sq("3D"), To: sq("3H"), Route: []domain.Square{sq("3E"), sq("3F"), sq("3G"), sq("3H")}})
		}},
		{"diagonal step", "jumps", func(m *domain.Map, rep *turn.Report) {
			m.Armies[0].At = sq("4E")
			rep.Moves = append(rep.Moves, domain.Move{Army: "Ash", From: sq("3D"), To: sq("4E"), Route: []domain.Square{sq("4E")}})
		}},
		{"off its route", "off its route", func(m *domain.Map, rep *turn.Report) {
			m.Armies[0].At = sq("6D")
			rep.Moves = append(rep.Moves, domain.Move{Army: "Ash", From: sq("3D"), To: sq("6D"), Route: []domain.Square{sq("3E")}})
		}},
		{"teleported silently", "its move and pushes put it", func(m *domain.Map, rep *turn.Report) {
			m.Armies[0].At = sq("20D")
		}},
		{"off the map", "off the map", func(m *domain.Map, rep *turn.Report) {
			m.Armies[0].At = domain.Square{Col: 39, Row: 1}
		}},
		{"vanished", "without being listed", func(m *domain.Map, rep *turn.Report) {
			m.Armies = m.Armies[1:]
		}},
		{"unknown code", "does not know", func(m *domain.Map, rep *turn.Report) {
			rep.Rejected = append(rep.Rejected, domain.Rejection{Army: "Ash", Code: "nonsense", Message: "no"})
		}},
		{"no message", "no message", func(m *domain.Map, rep *turn.Report) {
			rep.Rejected = append(rep.Rejected, domain.Rejection{Army: "Ash", Code: domain.CodeParseError})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			next, rep, err := turn.Run(before, turn.Input{})
			if err != nil {
				t.Fatal(err)
			}
			c.change(next, rep)
			rep.Positions = nil
			for _, a := range next.Armies {
				rep.Positions.Set(a.Name, a.At)
			}
			bad := checkTurn(before, next, rep)
			if !slices.ContainsFunc(bad, func(p problem) bool { return strings.Contains(p.detail, c.want) }) {
				t.Errorf("checkTurn did not say %q; it said %v", c.want, bad)
			}
		})
	}
}

// TestPlaySeedIsReproducible checks that a seed always plays the same game, so that a failing
// seed can be replayed.
func TestPlaySeedIsReproducible(t *testing.T) {
	_, a, _ := playSeed(7, 3)
	_, b, _ := playSeed(7, 3)
	if !bytes.Equal([]byte(mustJSON(a)), []byte(mustJSON(b))) {
		t.Fatal("seed 7 played two different games")
	}
}

func pushOf(army string, from, to domain.Square) battle.Push {
	return battle.Push{Army: army, From: from, To: to, Reason: "made up by the test"}
}

// TestRunConcurrently runs locks of different maps at once, as a server locking several
// campaigns does, and checks that each gives what it gives alone: the engines' pooled scratch
// memory (movement, battle) must never be shared between two locks.
func TestRunConcurrently(t *testing.T) {
	type job struct {
		m    *domain.Map
		in   turn.Input
		want string
	}
	var jobs []job
	for s := range 16 {
		cfg := enginetest.Campaign()
		if s%4 == 3 {
			cfg = enginetest.Big()
		}
		m, in := campaignTurn(t, cfg, uint64(s+1))
		jobs = append(jobs, job{m, in, runJSON(m, in)})
	}
	var wg sync.WaitGroup
	errs := make(chan string, len(jobs)*4)
	for round := range 4 {
		for i, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if got := runJSON(j.m, j.in); got != j.want {
					errs <- fmt.Sprintf("round %d, map %d: %s", round, i, firstDiff(j.want, got))
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
