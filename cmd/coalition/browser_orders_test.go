package main

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"
)

// mercenaryScenario has two mercenary armies: the Raiders, whom nobody controls, and the Hired
// Blades, a theme army Gazetzot controls (6.2.2); the mercenary judge posts for the Raiders.
const mercenaryScenario = `{"name":"hired swords","seed":5,"sites":[],
 "armies":[
  {"name":"Sai Rei","side":"coalition","rank":"lieutenant","at":"5F","controllers":["Gazetzot"]},
  {"name":"Raiders","side":"mercenary","rank":"lieutenant","at":"20F","faction":"raider"},
  {"name":"Hired Blades","side":"mercenary","rank":"lieutenant","at":"22F","faction":"theme","controllers":["Gazetzot"]}],
 "turns":[{"lock":"2026-03-09T05:00:00Z","posts":[{"id":1,"author":"mercenary-judge","at":"2026-03-01T12:00:00Z","text":"Raiders: no move"}]}]}`

// TestBrowserOrderDeskOffersWhatTheServerMarks: the order desk lists exactly the armies the
// server marks orderable for the reader (3.3.6, 5.4.1, M15), with no rule of its own: the
// mercenary judge is offered the Raiders, nobody's, and not the Hired Blades, which Gazetzot
// controls (the page used to offer him every mercenary army); Gazetzot is offered his two.
func TestBrowserOrderDeskOffersWhatTheServerMarks(t *testing.T) {
	b := browser(t)
	s := startServer(t, "--lock-tick", "off")
	s.clock.Set(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	var created struct {
		Campaign struct{ ID int64 }
		Accounts []newAccount
	}
	s.call("POST", "/api/campaigns/import", s.login("admin", e2eAdminPassword), []byte(mercenaryScenario), http.StatusCreated, &created)
	pw := map[string]string{}
	for _, a := range created.Accounts {
		pw[a.Account.Name] = a.Password
	}
	path := fmt.Sprintf("/api/campaigns/%d/map", created.Campaign.ID)
	for who, want := range map[string][]string{"mercenary-judge": {"Raiders"}, "Gazetzot": {"Hired Blades", "Sai Rei"}} {
		var m struct {
			Armies []struct {
				Name      string
				Orderable bool
			}
		}
		s.call("GET", path, s.login(who, pw[who]), nil, http.StatusOK, &m)
		var marked []string
		for _, a := range m.Armies {
			if a.Orderable {
				marked = append(marked, a.Name)
			}
		}
		slices.Sort(marked)
		if !slices.Equal(marked, want) {
			t.Errorf("the server marks %v orderable for %s, want %v", marked, who, want)
		}
		p := newTab(t, b, who)
		p.open(s.base, fmt.Sprintf("/?c=%d", created.Campaign.ID))
		p.login(who, pw[who])
		p.view("orders")
		p.until("the armies on offer", `document.querySelectorAll('#my-armies button[data-army]').length > 0`)
		offered := eval[[]string](p, `[...document.querySelectorAll('#my-armies button[data-army]')].map((b) => b.dataset.army).sort()`)
		if !slices.Equal(offered, want) {
			t.Errorf("the order desk offers %s %v, the server marks %v", who, offered, want)
		}
	}
}
