package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// GET /api/campaigns/{cid}/map keeps its version and ETag through changes that leave the map
// as it was — a pause, a control change to the same controllers, an army edit to what it is —
// and takes a new one when the map does change.
func TestGetMap200VersionChangesOnlyWithTheMap(t *testing.T) {
	e := newEnv(t)
	version := func() int64 {
		t.Helper()
		var v struct{ Version int64 }
		res := e.as(anon, "GET", c1+"/map", nil)
		if res.Code != http.StatusOK {
			t.Fatalf("%d %s", res.Code, res.Body)
		}
		json.Unmarshal(res.Body.Bytes(), &v)
		return v.Version
	}
	v0 := version()
	want(t, e.as(mover, "POST", c1+"/pause", map[string]string{"reason": "maintenance"}), http.StatusOK, nil)
	if v := version(); v != v0 {
		t.Errorf("a pause changed the map's version %d → %d", v0, v)
	}
	want(t, e.as(mover, "POST", c1+"/resume", map[string]string{"reason": "back"}), http.StatusOK, nil)
	v1 := version() // resuming moves the lock time, which the map shows
	want(t, e.as(mover, "POST", c1+"/control", map[string]any{"army": "Sai Rei", "controllers": []string{"Gazetzot"}, "reason": "again"}), http.StatusCreated, nil)
	if v := version(); v != v1 {
		t.Errorf("a control change to the same controller changed the version %d → %d", v1, v)
	}
	want(t, e.as(mover, "PUT", c1+"/armies/Sai%20Rei", map[string]any{"at": "3F"}), http.StatusOK, nil)
	if v := version(); v != v1 {
		t.Errorf("moving Sai Rei to the square it stands on changed the version %d → %d", v1, v)
	}
	want(t, e.as(mover, "PUT", c1+"/armies/Sai%20Rei", map[string]any{"at": "4F"}), http.StatusOK, nil)
	if v := version(); v == v1 {
		t.Error("moving Sai Rei did not change the map's version")
	}
}
