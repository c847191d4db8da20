package battle

import (
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// TestWithSquare checks withSquare against Square.String for every square a byte can hold.
func TestWithSquare(t *testing.T) {
	for c := range 256 {
		for r := range 256 {
			s := domain.Square{Col: uint8(c), Row: uint8(r)}
			if got, want := withSquare("at ", s), "at "+s.String(); got != want {
				t.Fatalf("%v: %q, want %q", s, got, want)
			}
		}
	}
}

// TestNameSet checks that the name set finds exactly the names added, with their bits, as a
// map would, for names that share long prefixes and suffixes.
func TestNameSet(t *testing.T) {
	var s nameSet
	want := map[string]uint8{}
	names := []string{"", "a", "Sai Rei", "sai rei", "Coalition 1", "Coalition 12", "Coalition 21", "Coalition 121", "Darkhand1", "Darkhand11", "Ünïcödé army", "x y"}
	for i := range 40 {
		names = append(names, "Phyrexia "+string(rune('0'+i%10))+string(rune('A'+i/10)))
	}
	s.reset(len(names))
	for i, n := range names {
		b := uint8(1 << (i % 5))
		s.add(n, b)
		want[n] |= b
	}
	s.add("Sai Rei", markNext)
	want["Sai Rei"] |= markNext
	for n, b := range want {
		if got := s.get(n); got != b {
			t.Errorf("%q: bits %b, want %b", n, got, b)
		}
	}
	for _, n := range []string{"SAI REI", "Coalition 2", "Darkhand", "Phyrexia 0Z", " a"} {
		if got := s.get(n); got != 0 {
			t.Errorf("%q was never added but has bits %b", n, got)
		}
	}
}
