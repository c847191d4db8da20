package loadtest

import (
	"slices"
	"testing"
)

// The demo's accounts are read from serve --demo's message, names with spaces too.
func TestDemoAccounts(t *testing.T) {
	out := "Loaded the demo campaign as campaign 1: 97 armies on a 38 × 14 map.\n" +
		"Demo accounts (passwords are shown this once):\n" +
		"  Gerrard        Tev5gMWEMmhhsNaKGwPk   leader, player General of the Coalition\n" +
		"  Tsabo Tavoc    htuHqDFiMecDpHNFUEYL   leader, player Praetor of Phyrexia\n" +
		"  Barrin         CdJcTDgmud8BHRDjCyJZ   movement-judge\n" +
		"Its map: GET /api/campaigns/1/map; log in with POST /api/login.\n"
	got := demoAccounts(out)
	want := []account{
		{"Gerrard", "Tev5gMWEMmhhsNaKGwPk", "leader, player General of the Coalition"},
		{"Tsabo Tavoc", "htuHqDFiMecDpHNFUEYL", "leader, player Praetor of Phyrexia"},
		{"Barrin", "CdJcTDgmud8BHRDjCyJZ", "movement-judge"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestNeighbours(t *testing.T) {
	if got, want := neighbours("3G"), []string{"4G", "3H", "2G", "3F"}; !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
	if got := neighbours("1A"); !slices.Equal(got, []string{"2A", "1B"}) {
		t.Errorf("1A: %q", got)
	}
	if got := neighbours("G3"); got != nil {
		t.Errorf("G3: %q", got)
	}
}
