package api_test

import (
	"net/http"
	"testing"
)

// FuzzPostBody sends arbitrary bodies to the posting endpoint: the answer is never a 500,
// and the contract check (in do) holds for every answer.
func FuzzPostBody(f *testing.F) {
	for _, s := range []string{
		`{"text":"Sai Rei: 3F > 4F"}`,
		`{"orders":[{"army":"Sai Rei","kind":"move","from":"3F","legs":[{"to":"4F","route":["3F","4F"]}],"keyword":"engage","target":"X"}]}`,
		`{"text":"Urza's Guard: Transfer to Karn at 15J","transfers":[{"army":"Urza's Guard","creatures":{"Grizzly Bears":1}}]}`,
		`{"private":true,"text":"x"}`, `[]`, `null`, `{"text":1}`, `{"orders":[{"kind":"hold","note":"fighting"}]}`,
	} {
		f.Add(s)
	}
	e := newEnv(f)
	tok := e.token(player)
	f.Fuzz(func(t *testing.T, body string) {
		e.t = t
		res := e.do("POST", c1+"/posts", tok, []byte(body))
		if res.Code >= http.StatusInternalServerError {
			t.Fatalf("%q → %d %s", body, res.Code, res.Body)
		}
	})
}
