package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// 1.1: a team leader sets the ranks of his side's players below Admiral/Praetor, but the rank
// of the General or an Admiral — his own included — is the judges' to change; a refusal
// changes nothing.
func TestPutMember403LeaderChangesAGeneralsRank(t *testing.T) {
	e := newEnv(t)
	before := e.dump()
	res := e.as(leader, "PUT", c1+"/members/Gerrard", map[string]any{"rank": "lieutenant"})
	want(t, res, http.StatusForbidden, nil)
	if !strings.Contains(res.Body.String(), "only judges may change the rank of the General or an Admiral") {
		t.Errorf("the refusal does not say why: %s", res.Body)
	}
	if e.dump() != before {
		t.Error("a refused rank change changed the database")
	}
	want(t, e.as(leader, "PUT", c1+"/members/Kim", map[string]any{"rank": "lt-commander"}), http.StatusOK, nil)
	want(t, e.as(mover, "PUT", c1+"/members/Gerrard", map[string]any{"rank": "admiral"}), http.StatusOK, nil)
}
