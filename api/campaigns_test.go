package api_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/api"
	"github.com/coalition-wargame/coalition/campaign"
)

// smallMap is a campaign map with one army, for campaign creation; the army's days are left
// out, as a new map may (MapArmy).
func smallMap() map[string]any {
	return map[string]any{"grid": map[string]int{"Cols": 10, "Rows": 5},
		"armies": []map[string]any{{"name": "A", "side": "coalition", "rank": "captain", "at": "3C"}}}
}

// A campaign may be created with its members, each a new account holding what the request gives.
func TestPostCampaigns201WithMembers(t *testing.T) {
	cases := []struct {
		name    string
		members []map[string]any
		want    []string
	}{
		{"a player with side and rank", []map[string]any{{"name": "Hanna", "roles": []string{"player"}, "side": "coalition", "rank": "captain"}},
			[]string{`"name":"Hanna"`, `"side":"coalition"`, `"rank":"captain"`}},
		{"a judge and a player with factions", []map[string]any{
			{"name": "Judy", "roles": []string{"movement-judge"}},
			{"name": "Phil", "roles": []string{"player"}, "side": "coalition", "rank": "lieutenant", "factions": []string{"black"}, "contingency": "Judy"}},
			[]string{`"name":"Judy"`, `"movement-judge"`, `"name":"Phil"`, `"factions":["black"]`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			res := e.as(admin, "POST", "/api/campaigns", map[string]any{"name": "With members", "map": smallMap(), "members": c.members})
			if res.Code != http.StatusCreated {
				t.Fatalf("%d %s", res.Code, res.Body)
			}
			var created struct{ Campaign struct{ ID int64 } }
			json.Unmarshal(res.Body.Bytes(), &created)
			members := e.as(anon, "GET", "/api/campaigns/"+itoa(created.Campaign.ID)+"/members", nil).Body.String()
			for _, w := range c.want {
				if !strings.Contains(members, w) {
					t.Errorf("the members do not show %s: %s", w, truncate(members))
				}
			}
		})
	}
}

// A member in a new campaign is checked as strictly as a member edit: unknown fields and
// a missing name are refused.
func TestPostCampaigns400BadMembers(t *testing.T) {
	cases := []struct {
		name   string
		member map[string]any
		detail string
	}{
		{"unknown field", map[string]any{"name": "Hanna", "roles": []string{"player"}, "mood": "happy"}, `property "mood" is unsupported`},
		{"no name", map[string]any{"roles": []string{"player"}}, `"name"`},
		{"no roles", map[string]any{"name": "Hanna"}, `"roles"`},
		{"unknown role", map[string]any{"name": "Hanna", "roles": []string{"king"}}, `/members/0/roles/0`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			res := e.as(admin, "POST", "/api/campaigns", map[string]any{"name": "Bad members", "map": smallMap(), "members": []any{c.member}})
			var p struct{ Detail string }
			json.Unmarshal(res.Body.Bytes(), &p)
			if res.Code != http.StatusBadRequest || !strings.Contains(p.Detail, c.detail) {
				t.Fatalf("%d %s, want 400 saying %s", res.Code, res.Body, c.detail)
			}
		})
	}
}

// A campaign's map is checked before anything is made: unknown terrain, army names too long
// or with control characters, troop counts no slot holds are refused, naming what is wrong.
func TestPostCampaigns422BadMap(t *testing.T) {
	army := func(change func(a map[string]any)) map[string]any {
		a := map[string]any{"name": "A", "side": "coalition", "rank": "captain", "at": "3C", "days": 0,
			"troops": []map[string]any{{"creature": "Grizzly Bears", "size": "2/2", "slot": 1, "alive": 1000, "full": 1000}}}
		change(a)
		return a
	}
	troops := func(alive, full int) func(a map[string]any) {
		return func(a map[string]any) {
			a["troops"] = []map[string]any{{"creature": "Grizzly Bears", "size": "2/2", "slot": 1, "alive": alive, "full": full}}
		}
	}
	cases := []struct {
		name    string
		terrain map[string]any
		army    map[string]any
		detail  string
	}{
		{"lava", map[string]any{"default": "lava"}, army(func(map[string]any) {}), `the map's default terrain "lava" is not a terrain`},
		{"lava on a square", map[string]any{"squares": map[string]string{"4C": "lava"}}, army(func(map[string]any) {}), `the terrain of 4C, "lava", is not a terrain`},
		{"a name of 5000 characters", nil, army(func(a map[string]any) { a["name"] = strings.Repeat("A", 5000) }), "is too long: at most 40 characters"},
		{"a NUL in a name", nil, army(func(a map[string]any) { a["name"] = "A\x00B" }), "may not contain control characters"},
		{"10^15 troops", nil, army(troops(1e15, 1e15)), "army A: Grizzly Bears has 1000000000000000 troops; a slot holds at most 5000 (2.1)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			m := map[string]any{"grid": map[string]int{"Cols": 10, "Rows": 5}, "armies": []any{c.army}}
			if c.terrain != nil {
				m["terrain"] = c.terrain
			}
			before := e.dump()
			res := e.as(admin, "POST", "/api/campaigns", map[string]any{"name": "Bad map", "map": m})
			var p struct{ Detail string }
			json.Unmarshal(res.Body.Bytes(), &p)
			if res.Code != http.StatusUnprocessableEntity || !strings.Contains(p.Detail, c.detail) {
				t.Fatalf("%d %s, want 422 saying %s", res.Code, truncate(res.Body.String()), c.detail)
			}
			if e.dump() != before {
				t.Error("the refused campaign changed the database")
			}
		})
	}
}

// A setting absent or 0 takes its default (campaign.DefaultSettings), as the document's
// SettingsInput says, giving each default in hours.
func TestPostCampaigns201ZeroSettingsMeanTheDefaults(t *testing.T) {
	def := campaign.DefaultSettings
	hours := func(d time.Duration) float64 { return d.Hours() }
	cases := []struct {
		name     string
		settings map[string]any
		want     campaign.SettingsView
	}{
		{"absent", nil, campaign.SettingsView{LockDelayHours: hours(def.LockDelay), TurnLengthHours: hours(def.TurnLength), ExtensionCapHours: hours(def.ExtensionCap)}},
		{"all zero", map[string]any{"lock_delay_hours": 0, "turn_length_hours": 0, "extension_cap_hours": 0},
			campaign.SettingsView{LockDelayHours: hours(def.LockDelay), TurnLengthHours: hours(def.TurnLength), ExtensionCapHours: hours(def.ExtensionCap)}},
		{"some given", map[string]any{"lock_delay_hours": 12, "extension_cap_hours": 0},
			campaign.SettingsView{LockDelayHours: 12, TurnLengthHours: hours(def.TurnLength), ExtensionCapHours: hours(def.ExtensionCap)}},
		{"all given", map[string]any{"lock_delay_hours": 6, "turn_length_hours": 48, "extension_cap_hours": 1.5},
			campaign.SettingsView{LockDelayHours: 6, TurnLengthHours: 48, ExtensionCapHours: 1.5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			req := map[string]any{"name": "Timed", "map": smallMap()}
			if c.settings != nil {
				req["settings"] = c.settings
			}
			var created struct{ Campaign struct{ ID int64 } }
			want(t, e.as(admin, "POST", "/api/campaigns", req), http.StatusCreated, &created)
			var view struct{ Settings campaign.SettingsView }
			want(t, e.as(anon, "GET", "/api/campaigns/"+itoa(created.Campaign.ID), nil), http.StatusOK, &view)
			if view.Settings != c.want {
				t.Errorf("settings %+v, want %+v", view.Settings, c.want)
			}
		})
	}
	doc, err := api.LoadSpec(api.Spec)
	if err != nil {
		t.Fatal(err)
	}
	in := doc.Components.Schemas["SettingsInput"]
	if in == nil || doc.Components.Schemas["CampaignCreate"].Value.Properties["settings"].Ref != "#/components/schemas/SettingsInput" {
		t.Fatal("CampaignCreate's settings are not a SettingsInput")
	}
	for field, d := range map[string]time.Duration{"lock_delay_hours": def.LockDelay, "turn_length_hours": def.TurnLength, "extension_cap_hours": def.ExtensionCap} {
		say := field + " " + strconv.FormatFloat(d.Hours(), 'f', -1, 64)
		if !strings.Contains(strings.Join(strings.Fields(in.Value.Description), " "), say) {
			t.Errorf("SettingsInput's description does not say %q: %s", say, in.Value.Description)
		}
		if p := in.Value.Properties[field]; p == nil || !strings.Contains(p.Value.Description, "absent or 0: "+strconv.FormatFloat(d.Hours(), 'f', -1, 64)) {
			t.Errorf("%s's description does not give its default", field)
		}
	}
}

// A scenario that is JSON of the wrong shape is a 400 saying it does not fit the scenario
// format (not that it is no JSON); one that fits but breaks a rule is a 422.
func TestPostCampaignsImport400WrongShape422BadScenario(t *testing.T) {
	army := `{"name":"A","side":"coalition","rank":"captain","at":"3D"}`
	cases := []struct {
		name, scenario string
		status         int
		detail         string
	}{
		{"a number for an army's name", `{"name":"x","armies":[{"name":5,"side":"coalition","rank":"captain","at":"3D"}]}`, 400,
			`the scenario does not fit the scenario format: "armies.name" must be a string, not a number`},
		{"a post time that is no time", `{"name":"x","armies":[` + army + `],"turns":[{"posts":[{"id":1,"author":"A","at":"soon","text":"A: 3D > 4D"}]}]}`, 400,
			`the scenario does not fit the scenario format: "soon" is not a time`},
		{"an army off the map", `{"name":"x","armies":[{"name":"A","side":"coalition","rank":"captain","at":"39D"}]}`, 422, "39D"},
		{"lava", `{"name":"x","terrain":{"default":"lava"},"armies":[` + army + `]}`, 422, `"lava" is not a terrain`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			res := e.as(admin, "POST", "/api/campaigns/import", c.scenario)
			var p struct{ Detail string }
			json.Unmarshal(res.Body.Bytes(), &p)
			if res.Code != c.status || !strings.Contains(p.Detail, c.detail) {
				t.Fatalf("%d %s, want %d saying %s", res.Code, truncate(res.Body.String()), c.status, c.detail)
			}
		})
	}
}
