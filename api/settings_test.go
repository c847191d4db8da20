package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// R95, issue 17: every time setting of a new campaign lies in its bounds, or the campaign is
// refused with a problem naming the field and its range; nothing is created. Before, a turn
// length of 0.0001 h was stored as 0 and its lock spun forever, and a first deadline in 9999
// read back as year 1.
func TestPostCampaigns422SettingOutOfBounds(t *testing.T) {
	cases := []struct {
		name     string
		settings map[string]any
		deadline string
		field    string
		min, max string
	}{
		{"a tiny turn length", map[string]any{"turn_length_hours": 0.0001}, "", "settings.turn_length_hours", "1", "720"},
		{"a turn length under an hour", map[string]any{"turn_length_hours": 0.5}, "", "settings.turn_length_hours", "1", "720"},
		{"a turn length over 30 days", map[string]any{"turn_length_hours": 721}, "", "settings.turn_length_hours", "1", "720"},
		{"a negative turn length", map[string]any{"turn_length_hours": -168}, "", "settings.turn_length_hours", "1", "720"},
		{"a huge turn length", map[string]any{"turn_length_hours": 1e300}, "", "settings.turn_length_hours", "1", "720"},
		{"a lock delay under an hour", map[string]any{"lock_delay_hours": 0.25}, "", "settings.lock_delay_hours", "1", "720"},
		{"a lock delay over 30 days", map[string]any{"lock_delay_hours": 1000}, "", "settings.lock_delay_hours", "1", "720"},
		{"an extension cap under a minute", map[string]any{"extension_cap_hours": 0.001}, "", "settings.extension_cap_hours", "0.016666666666666666", "720"},
		{"an extension cap over 30 days", map[string]any{"extension_cap_hours": 800}, "", "settings.extension_cap_hours", "0.016666666666666666", "720"},
		{"a first deadline in 9999", map[string]any{"lock_delay_hours": 720}, "9999-12-31T23:00:00Z", "first_deadline", "1970-01-01T00:00:00Z", "2999-12-31T23:59:59Z"},
		{"a first deadline whose lock is in 3000", map[string]any{"lock_delay_hours": 720}, "2999-12-20T05:00:00Z", "first_deadline", "1970-01-01T00:00:00Z", "2999-12-31T23:59:59Z"},
		{"a first deadline in year 1", nil, "0001-01-02T05:00:00Z", "first_deadline", "1970-01-01T00:00:00Z", "2999-12-31T23:59:59Z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			before := e.dump()
			body := map[string]any{"name": "Bounds", "map": smallMap()}
			if c.settings != nil {
				body["settings"] = c.settings
			}
			if c.deadline != "" {
				body["first_deadline"] = c.deadline
			}
			res := e.as(admin, "POST", "/api/campaigns", body)
			var p struct {
				Detail string
				Field  string
				Range  struct{ Min, Max, Unit string }
			}
			json.Unmarshal(res.Body.Bytes(), &p)
			if res.Code != http.StatusUnprocessableEntity || res.Header().Get("Content-Type") != "application/problem+json" {
				t.Fatalf("%d %s, want 422 problem+json", res.Code, res.Body)
			}
			if p.Field != c.field || p.Range.Min != c.min || p.Range.Max != c.max || !strings.Contains(p.Detail, c.field) {
				t.Errorf("the problem names %q in [%s, %s]: %s; want %q in [%s, %s]", p.Field, p.Range.Min, p.Range.Max, p.Detail, c.field, c.min, c.max)
			}
			if e.dump() != before {
				t.Error("a refused campaign changed the database")
			}
		})
	}
}

// R95: settings in bounds are kept as given, to the microsecond, not to the second; the turn's
// deadline and lock follow from them.
func TestPostCampaigns201SettingsKeptExactly(t *testing.T) {
	e := newEnv(t)
	res := e.as(admin, "POST", "/api/campaigns", map[string]any{"name": "Exact", "map": smallMap(),
		"settings":       map[string]any{"turn_length_hours": 1.0001, "lock_delay_hours": 1.5, "extension_cap_hours": 0.1},
		"first_deadline": "2999-11-01T05:00:00Z"})
	if res.Code != http.StatusCreated {
		t.Fatalf("%d %s", res.Code, res.Body)
	}
	var created struct{ Campaign struct{ ID int64 } }
	json.Unmarshal(res.Body.Bytes(), &created)
	got := e.as(admin, "GET", "/api/campaigns/"+itoa(created.Campaign.ID), nil)
	var raw struct {
		Settings map[string]float64
		Turn     struct {
			Deadline time.Time
			LockAt   time.Time `json:"lock_at"`
		}
	}
	json.Unmarshal(got.Body.Bytes(), &raw)
	want := map[string]float64{"turn_length_hours": 1.0001, "lock_delay_hours": 1.5, "extension_cap_hours": 0.1}
	for k, w := range want {
		if raw.Settings[k] != w {
			t.Errorf("%s reads back as %v, want %v", k, raw.Settings[k], w)
		}
	}
	if d := time.Date(2999, 11, 1, 5, 0, 0, 0, time.UTC); !raw.Turn.Deadline.Equal(d) || !raw.Turn.LockAt.Equal(d.Add(90*time.Minute)) {
		t.Errorf("turn 1: deadline %s, lock %s", raw.Turn.Deadline, raw.Turn.LockAt)
	}
}
