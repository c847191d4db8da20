package deck

import "testing"

// catalogue is the shipped every-card catalogue (Shipped), loaded once for all the tests;
// they must not put cards into it.
func catalogue(t testing.TB) *Catalogue {
	t.Helper()
	c, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	return c
}
