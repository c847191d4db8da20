package deck

import (
	"sync"
	"testing"

	"github.com/coalition-wargame/coalition/cards"
)

var shared = sync.OnceValues(func() (*Catalogue, error) {
	c, err := cards.LoadAll()
	if err != nil {
		return nil, err
	}
	return NewCatalogue(c), nil
})

// catalogue is the shipped every-card catalogue, loaded once for all the tests; they must not
// put cards into it.
func catalogue(t testing.TB) *Catalogue {
	t.Helper()
	c, err := shared()
	if err != nil {
		t.Fatal(err)
	}
	return c
}
