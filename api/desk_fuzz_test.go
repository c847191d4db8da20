package api_test

import (
	"net/http"
	"testing"
)

// FuzzDeskBodies sends arbitrary bodies to the desk's endpoints that read structured input —
// a strategy, a judgement, a confirmation, a troop-list check, an army — as the callers who may
// use them: the answer is never a 500, and the contract check (in do) holds for every answer.
func FuzzDeskBodies(f *testing.F) {
	for _, s := range []string{
		`{"army":"Karn","text":"hold","kill":"Vorthos"}`,
		`{"army":"Karn","text":"x","leaves":{"army":"Karn","to":"15K"}}`,
		`{"bonus_to":"Karn","bonus":3,"fought":{"Karn":1}}`,
		`{"result":{"square":"15J","winner":"Karn","losses":{"Karn":{"Grizzly Bears":5}}}}`,
		`{"army":"Karn","kind":"change","troops":[{"creature":"Grizzly Bears","count":10,"size":"2/2","slot":2}]}`,
		`{"name":"X","side":"coalition","rank":"captain","at":"3C","troops":[{"creature":"Llanowar Elves","count":1}]}`,
		`{}`, `[]`, `null`, `{"troops":[{"creature":""}]}`,
	} {
		for p := range 5 {
			f.Add(uint8(p), s)
		}
	}
	e := newEnv(f)
	paths := []struct{ caller, path string }{
		{sameSide, battle15J + "/strategies"}, {batty, battle15J + "/proposal"}, {batty, battle15J + "/confirm"},
		{anon, c1 + "/troops/check"}, {mover, c1 + "/armies"},
	}
	for _, p := range paths {
		e.token(p.caller)
	}
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		e.t = t
		p := paths[int(which)%len(paths)]
		res := e.do("POST", p.path, e.tokens[p.caller], []byte(body))
		if res.Code >= http.StatusInternalServerError {
			t.Fatalf("POST %s %q → %d %s", p.path, body, res.Code, res.Body)
		}
	})
}
