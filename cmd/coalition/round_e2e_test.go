package main

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/round"
)

// roundClient is the round e2e test's server with its people's tokens.
type roundClient struct {
	*server
	passwords map[string]string
	tokens    map[string]string
}

func (c *roundClient) as(name string) string {
	if tok, ok := c.tokens[name]; ok {
		return tok
	}
	c.tokens[name] = c.login(name, c.passwords[name])
	return c.tokens[name]
}

// refused sends a request the rules refuse and checks the answer names the rule.
func (c *roundClient) refused(method, path, who string, body any, status int, rule string) {
	c.t.Helper()
	raw := c.call(method, path, c.as(who), body, status, nil)
	if !strings.Contains(string(raw), rule) {
		c.t.Errorf("%s %s as %s: the refusal does not name %s: %s", method, path, who, rule, raw)
	}
}

// TestRoundSetUpStartedPlayedAndNextOverHTTP (issue 14): through the real program on a random
// port, a round is set up step by step as its judges and leaders would — sites (a base too near
// an enemy's refused, 2.5.1.1), a leader's request, descriptions written, one rejected and
// rewritten (2.5.1.2), the Coalition's win conditions (4 refused, 5 taken, 2.5.1.3), the positions
// published, the counts (too many refused, 2.5.2.1), a player's troop list through the troop
// checker, a leader's proxy and placement requests (a base not of the army's colours refused,
// 2.5.2.3), the rest filled in by the generator, a mercenary broken and mended (6.1) and an army
// moved by the judge — started once every check passes, played for 3 turns, decided by a forced
// win (the movement judge takes Phyrexia's leaders off the map, 1.7.3), and its next round
// started with the members, their ranks, factions and accounts carried over (1.7).
func TestRoundSetUpStartedPlayedAndNextOverHTTP(t *testing.T) {
	s := startServer(t, "--lock-tick", "off")
	c := &roundClient{server: s, passwords: map[string]string{"admin": e2eAdminPassword}, tokens: map[string]string{}}
	members := []map[string]any{
		{"name": "Barrin", "roles": []string{"movement-judge"}},
		{"name": "Serra", "roles": []string{"battle-judge"}},
		{"name": "Maraxus", "roles": []string{"mercenary-judge"}},
		{"name": "Gerrard", "roles": []string{"player", "leader"}, "side": "coalition", "rank": "general", "factions": []string{"white", "red", "green"}},
		{"name": "Hanna", "roles": []string{"player"}, "side": "coalition", "rank": "captain", "factions": []string{"blue", "colorless"}},
		{"name": "Gix", "roles": []string{"player", "leader"}, "side": "phyrexia", "rank": "general"},
		{"name": "Crovax", "roles": []string{"player"}, "side": "phyrexia", "rank": "captain"},
	}
	var created campaign.RoundCreated
	s.call("POST", "/api/rounds", c.as("admin"), map[string]any{"name": "Test Round", "seed": 11, "members": members}, http.StatusCreated, &created)
	for _, a := range created.Accounts {
		c.passwords[a.Account.Name] = a.Password
	}
	base := fmt.Sprintf("/api/rounds/%d", created.Round.ID)
	esc := func(name string) string { return url.PathEscape(name) }

	// 2.5.1.1, 2.5.1.4: the judge places the sites; a portal 2 squares from a base is refused
	sites := []map[string]any{}
	for i, b := range []struct {
		name, color string
	}{{"Benalia Base", "white"}, {"Tolaria Base", "blue"}, {"Urborg Base", "black"}, {"Shiv Base", "red"}, {"Llanowar Base", "green"}, {"Keld Base", "five-color"}, {"Argive Base", "colorless"}} {
		sites = append(sites, map[string]any{"name": b.name, "kind": "base", "color": b.color, "at": fmt.Sprintf("%d%c", 5+2*(i%3)*2, 'B'+2*i)})
	}
	for i, p := range []string{"Rath Portal", "Mercadia Gate", "Caligo Portal", "Koilos Portal", "Phyrexia's Maw"} {
		sites = append(sites, map[string]any{"name": p, "kind": "portal", "at": fmt.Sprintf("%d%c", 28+(i%2)*4, 'B'+3*i)})
	}
	var tooNear []map[string]any
	for _, st := range sites {
		cp := maps.Clone(st)
		if cp["name"] == "Rath Portal" {
			cp["at"] = "6B"
		}
		tooNear = append(tooNear, cp)
	}
	c.refused("PUT", base+"/sites", "Barrin", map[string]any{"sites": tooNear}, http.StatusUnprocessableEntity, "2.5.1.1")
	for i, tw := range []string{"Jamuraa", "Zhalfir", "Femeref"} {
		sites = append(sites, map[string]any{"name": tw, "kind": "town", "at": fmt.Sprintf("%dC", 18+i)})
	}
	sites[len(sites)-1]["at"] = "19L"
	sites[len(sites)-2]["at"] = "20G"
	s.call("PUT", base+"/sites", c.as("Barrin"), map[string]any{"sites": sites}, http.StatusOK, nil)
	s.call("POST", base+"/requests", c.as("Gerrard"), map[string]any{"text": "Shiv Base belongs in the mountains"}, http.StatusOK, nil)
	c.refused("POST", base+"/requests", "Hanna", map[string]any{"text": "me too"}, http.StatusForbidden, "team leaders")

	// 2.5.1.2: each side describes its bases; the judge rejects one, the side rewrites it
	for _, st := range sites {
		who := map[string]string{"base": "Gerrard", "portal": "Gix"}[st["kind"].(string)]
		if who == "" {
			continue
		}
		s.call("PUT", base+"/descriptions/"+esc(st["name"].(string)), c.as(who), map[string]any{"text": st["name"].(string) + " is a fortress with high walls."}, http.StatusOK, nil)
	}
	c.refused("PUT", base+"/descriptions/"+esc("Rath Portal"), "Gerrard", map[string]any{"text": "an open gate"}, http.StatusForbidden, "team leaders")
	s.call("POST", base+"/descriptions/"+esc("Rath Portal")+"/review", c.as("Serra"), map[string]any{"accept": false, "reason": "plague bombs on every wall are too unbalanced"}, http.StatusOK, nil)
	s.call("PUT", base+"/descriptions/"+esc("Rath Portal"), c.as("Gix"), map[string]any{"text": "Rath Portal hides in a canyon; its gate is narrow."}, http.StatusOK, nil)
	for _, st := range sites {
		if st["kind"] != "town" {
			s.call("POST", base+"/descriptions/"+esc(st["name"].(string))+"/review", c.as("Serra"), map[string]any{"accept": true}, http.StatusOK, nil)
		}
	}
	// 2.5.1.3: the Coalition's leadership chooses exactly 5 win conditions
	c.refused("PUT", base+"/win-conditions", "Gerrard", map[string]any{"bases": []string{"Benalia Base", "Tolaria Base", "Urborg Base", "Shiv Base"}}, http.StatusUnprocessableEntity, "2.5.1.3")
	c.refused("PUT", base+"/win-conditions", "Gix", map[string]any{"bases": []string{"Benalia Base"}}, http.StatusForbidden, "win conditions")
	s.call("PUT", base+"/win-conditions", c.as("Gerrard"), map[string]any{"bases": []string{"Benalia Base", "Tolaria Base", "Urborg Base", "Shiv Base", "Keld Base"}}, http.StatusOK, nil)
	var phyrexian campaign.RoundView
	s.call("GET", base, c.as("Crovax"), nil, http.StatusOK, &phyrexian)
	for _, st := range phyrexian.Sites {
		if st.Side == domain.Coalition {
			t.Errorf("before the positions are public, Phyrexia sees %s", st.Name)
		}
	}
	c.refused("PUT", base+"/armies/Hanna", "Hanna", map[string]any{"base": "Tolaria Base"}, http.StatusConflict, "2.5.2.3")
	s.call("POST", base+"/publish", c.as("Barrin"), map[string]any{}, http.StatusOK, nil)

	// 2.5.2: the counts, the armies, their placement
	c.refused("PUT", base+"/counts", "Barrin", map[string]any{"general": 1, "admiral": 0, "captain": 8, "commander": 0, "lt-commander": 0, "lieutenant": 1}, http.StatusUnprocessableEntity, "2.5.2.1")
	s.call("PUT", base+"/counts", c.as("Barrin"), map[string]any{"general": 1, "admiral": 0, "captain": 1, "commander": 0, "lt-commander": 0, "lieutenant": 1}, http.StatusOK, nil)
	c.refused("PUT", base+"/armies/Hanna", "Hanna", map[string]any{"troops": []map[string]any{{"creature": "Shivan Dragon", "count": 1000, "slot": 2}}}, http.StatusUnprocessableEntity, "2.2.1")
	s.call("PUT", base+"/armies/Hanna", c.as("Hanna"), map[string]any{"troops": []map[string]any{{"creature": "Air Elemental", "count": 5000, "slot": 1}, {"creature": "Sea Serpent", "count": 2500, "slot": 2}}}, http.StatusOK, nil)
	c.refused("PUT", base+"/armies/Hanna", "Hanna", map[string]any{"base": "Shiv Base"}, http.StatusUnprocessableEntity, "2.5.2.3")
	s.call("PUT", base+"/armies/Hanna", c.as("Hanna"), map[string]any{"base": "Tolaria Base"}, http.StatusOK, nil)
	c.refused("PUT", base+"/armies/Hanna", "Hanna", map[string]any{"at": "3C"}, http.StatusForbidden, "2.5.2.3")
	s.call("PUT", base+"/armies/"+esc("Phyrexian Guard"), c.as("Gix"), map[string]any{"rank": "lieutenant", "troops": []map[string]any{{"creature": "Mogg Fanatic", "count": 5000}}, "base": "Rath Portal"}, http.StatusOK, nil)
	c.refused("PUT", base+"/armies/"+esc("Phyrexian Guard"), "Gerrard", map[string]any{"base": "Tolaria Base"}, http.StatusForbidden, "")
	var v campaign.RoundView
	s.call("POST", base+"/generate", c.as("Barrin"), map[string]any{}, http.StatusOK, &v)
	if len(v.Armies) != 6 || len(v.Mercenaries) != 10 {
		t.Fatalf("after the generator: %d armies, %d mercenaries", len(v.Armies), len(v.Mercenaries))
	}
	s.call("POST", base+"/place", c.as("Barrin"), map[string]any{}, http.StatusOK, &v)
	var hanna *round.Army
	for i := range v.Armies {
		if v.Armies[i].Name == "Hanna" {
			hanna = &v.Armies[i]
		}
	}
	if hanna == nil || hanna.Base != "Tolaria Base" || hanna.Troops[0].Creature != "Air Elemental" {
		t.Fatalf("Hanna's army: %+v", hanna)
	}
	// the judge moves Hanna: not 4 squares from her base, but next to it
	tol := siteAt(t, v.Sites, "Tolaria Base")
	c.refused("PUT", base+"/armies/Hanna", "Barrin", map[string]any{"at": domain.Square{Col: tol.Col + 4, Row: tol.Row}.String()}, http.StatusUnprocessableEntity, "2.5.2.3")
	next := freeByBase(v, tol)
	s.call("PUT", base+"/armies/Hanna", c.as("Barrin"), map[string]any{"at": next.String()}, http.StatusOK, nil)

	// 6.1: the mercenary judge makes a town defender 3/3–6/6; the start is refused naming 6.1
	var tdf domain.Army
	for _, m := range v.Mercenaries {
		if m.Faction == domain.TownDefender {
			tdf = m
		}
	}
	troops := func(rank string, list ...string) map[string]any {
		var ts []map[string]any
		for slot, cr := range list {
			ts = append(ts, map[string]any{"creature": cr, "count": domain.SlotCapacity(slot + 1), "slot": slot + 1})
		}
		return map[string]any{"faction": "town-defender", "rank": rank, "at": tdf.At.String(), "troops": ts}
	}
	s.call("PUT", base+"/mercenaries/"+esc(tdf.Name), c.as("Maraxus"), troops("commander", "Hill Giant"), http.StatusOK, nil)
	c.refused("POST", base+"/start", "Barrin", map[string]any{}, http.StatusConflict, "6.1")
	s.call("PUT", base+"/mercenaries/"+esc(tdf.Name), c.as("Maraxus"), troops("lt-commander", "Gray Ogre", "Hill Giant"), http.StatusOK, nil)
	var camp campaign.Campaign
	s.call("POST", base+"/start", c.as("Barrin"), map[string]any{}, http.StatusCreated, &camp)
	s.call("GET", base, c.as("Hanna"), nil, http.StatusOK, &v)
	if v.State != campaign.RoundOpen || v.Campaign != camp.ID {
		t.Fatalf("after the start the round is %s (campaign %d)", v.State, v.Campaign)
	}
	cb := fmt.Sprintf("/api/campaigns/%d", camp.ID)
	m := c.currentMap(cb)
	if len(m.Armies) != 16 {
		t.Errorf("the campaign's map has %d armies", len(m.Armies))
	}
	for _, st := range m.Sites {
		if st.Kind != domain.Town && !strings.Contains(st.Description, "fortress") && !strings.Contains(st.Description, "canyon") {
			t.Errorf("%s is published without its accepted description: %q", st.Name, st.Description)
		}
	}
	if a := m.Army("Hanna"); a == nil || a.At != next {
		t.Errorf("Hanna starts on %v, not %s", a, next)
	}

	// three turns: Hanna walks out and back, each lock replays the same
	s.call("PUT", cb+"/mercenary", c.as("Maraxus"), map[string]any{"after_lock_edit_hours": 0}, http.StatusOK, nil)
	from := next
	for n := 1; n <= 3; n++ {
		to := freeStep(m, from)
		s.call("POST", cb+"/posts", c.as("Hanna"), map[string]string{"text": fmt.Sprintf("Hanna: %s > %s", from, to)}, http.StatusCreated, nil)
		s.call("POST", fmt.Sprintf("%s/turns/%d/lock", cb, n), c.as("Barrin"), map[string]string{"reason": "e2e"}, http.StatusOK, nil)
		m = c.currentMap(cb)
		if a := m.Army("Hanna"); a == nil || a.At != to {
			t.Fatalf("after turn %d Hanna is on %v, not %s", n, a, to)
		}
		var rp campaign.ReplayResult
		s.call("GET", fmt.Sprintf("%s/turns/%d/replay", cb, n), c.as("Barrin"), nil, http.StatusOK, &rp)
		if !rp.Same {
			t.Errorf("turn %d: %s", n, rp.Detail)
		}
		from = to
	}
	// a forced win: the movement judge takes Phyrexia's Captain-or-higher armies off the map
	// (1.7.3); the next lock decides the round for the Coalition
	c.refused("POST", cb+"/next-round", "Barrin", map[string]any{"name": "Too Early"}, http.StatusConflict, "1.7")
	for _, a := range []string{"Gix", "Crovax"} {
		s.call("DELETE", cb+"/armies/"+esc(a), c.as("Barrin"), nil, http.StatusOK, nil)
	}
	s.call("POST", cb+"/turns/4/lock", c.as("Barrin"), map[string]string{"reason": "e2e"}, http.StatusOK, nil)
	var cv struct {
		Status string
		Winner string
	}
	s.call("GET", cb, "", nil, http.StatusOK, &cv)
	if cv.Status != "finished" || cv.Winner != "coalition" {
		t.Fatalf("after the forced win the campaign is %s, won by %q", cv.Status, cv.Winner)
	}
	s.call("GET", base, "", nil, http.StatusOK, &v)
	if v.State != campaign.RoundFinished {
		t.Errorf("the round is %s", v.State)
	}

	// 1.7: the next round, its members carried over — accounts, ranks, factions, roles
	c.refused("POST", cb+"/next-round", "Hanna", map[string]any{"name": "Test Round II"}, http.StatusForbidden, "")
	var nr campaign.RoundCreated
	s.call("POST", cb+"/next-round", c.as("Serra"), map[string]any{"name": "Test Round II", "seed": 12}, http.StatusCreated, &nr)
	if len(nr.Accounts) != 0 || nr.Round.Previous != camp.ID || nr.Round.State != campaign.RoundSetup {
		t.Errorf("the next round: %+v, %d new accounts", nr.Round, len(nr.Accounts))
	}
	c.refused("POST", cb+"/next-round", "Serra", map[string]any{"name": "Test Round III"}, http.StatusConflict, "already")
	var nv campaign.RoundView
	s.call("GET", fmt.Sprintf("/api/rounds/%d", nr.Round.ID), c.login("Hanna", c.passwords["Hanna"]), nil, http.StatusOK, &nv)
	got := map[string]campaign.Member{}
	for _, mem := range nv.Members {
		got[mem.Name] = mem
	}
	for _, want := range members {
		mem, ok := got[want["name"].(string)]
		if !ok {
			t.Errorf("%s is not carried over", want["name"])
			continue
		}
		if r, ok := want["rank"].(string); ok && mem.Rank.Word(mem.Side) != r && mem.Rank.Word(domain.Coalition) != r {
			t.Errorf("%s's rank %s, want %s", mem.Name, mem.Rank.Word(mem.Side), r)
		}
		if fs, ok := want["factions"].([]string); ok && len(mem.Factions) != len(fs) {
			t.Errorf("%s's factions %v, want %v", mem.Name, mem.Factions, fs)
		}
	}
	if !nv.You.Leader && nv.You.Side != domain.Coalition {
		t.Errorf("Hanna in the next round: %+v", nv.You)
	}
	if len(nv.Sites) != 0 || len(nv.Armies) != 0 {
		t.Errorf("the map carried over: %d sites, %d armies", len(nv.Sites), len(nv.Armies))
	}
}

// siteAt is the square of the named site.
func siteAt(t *testing.T, sites []round.Site, name string) domain.Square {
	for _, s := range sites {
		if s.Name == name {
			return s.At
		}
	}
	t.Fatalf("no site %s", name)
	return domain.Square{}
}

// freeByBase is a square next to s no site or army of the round holds.
func freeByBase(v campaign.RoundView, s domain.Square) domain.Square {
	taken := map[domain.Square]bool{}
	for _, x := range v.Sites {
		taken[x.At] = true
	}
	for _, a := range v.Armies {
		taken[a.At] = true
	}
	for _, a := range v.Mercenaries {
		taken[a.At] = true
	}
	for _, n := range v.Grid.Neighbours(nil, s) {
		if !taken[n] && v.Terrain.At(n) != domain.Ocean {
			return n
		}
	}
	return domain.Square{}
}

// freeStep is a square one step from s that no army holds and no site is on.
func freeStep(m *domain.Map, s domain.Square) domain.Square {
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		n := domain.Square{Col: uint8(int(s.Col) + d[0]), Row: uint8(int(s.Row) + d[1])}
		if int(s.Col)+d[0] < 1 || int(s.Row)+d[1] < 1 || !m.Grid.Contains(n) || m.SiteAt(n) != nil {
			continue
		}
		free := true
		for _, a := range m.Armies {
			if a.At == n {
				free = false
			}
		}
		if free {
			return n
		}
	}
	return s
}

// currentMap is the campaign's map as a judge sees it.
func (c *roundClient) currentMap(cb string) *domain.Map {
	c.t.Helper()
	return mapOf(c.t, c.call("GET", cb+"/map", c.as("Barrin"), nil, http.StatusOK, nil))
}
