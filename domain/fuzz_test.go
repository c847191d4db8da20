package domain_test

import (
	"errors"
	"regexp"
	"runtime/debug"
	"strconv"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
)

// squareForm is G1's form of a square, independent of the parser: a number and a letter, in
// either order.
var squareForm = regexp.MustCompile(`^(?:([0-9]+)([a-zA-Z])|([a-zA-Z])([0-9]+))$`)

// FuzzParseSquare checks ParseSquare against G1 on any text: it never panics; a text of the
// form number-letter or letter-number is a square when the number is 1–38 and the letter A–N,
// else off_map; anything else is a parse_error; and every square it accepts prints number
// first in upper case and parses back to itself.
func FuzzParseSquare(f *testing.F) {
	for _, s := range []string{"3D", "14H", "38N", "1A", "d3", "D3", "3d", "0A", "39A", "5O", "5", "E", "",
		"03D", "000000000001a", "256A", "257a", "99999999999999999999a", "3 D", " 3D", "3D ", "3DD", "D3D",
		"-3D", "+3D", "3\u00c4", "a\x00", "N38", "n38", "O1", "Z255"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("panic on %q: %v\n%s", text, r, debug.Stack())
			}
		}()
		sq, err := domain.ParseSquare(text)
		want := domain.Code("")
		if g := squareForm.FindStringSubmatch(text); g == nil {
			want = domain.CodeParseError
		} else {
			num, letter := g[1], g[2]
			if num == "" {
				num, letter = g[4], g[3]
			}
			n, convErr := strconv.Atoi(num)
			row := int(letter[0]|0x20-'a') + 1
			if convErr != nil || n < 1 || n > 38 || row > 14 {
				want = domain.CodeOffMap
			}
		}
		if err != nil {
			var se *domain.SquareError
			if !errors.As(err, &se) {
				t.Fatalf("ParseSquare(%q) fails with %T %v, not a *SquareError", text, err, err)
			}
			if se.Code() != want {
				t.Fatalf("ParseSquare(%q) fails with %s (%v), G1 says %q", text, se.Code(), err, want)
			}
			if err.Error() == "" {
				t.Fatalf("ParseSquare(%q) fails with no message", text)
			}
			return
		}
		if want != "" {
			t.Fatalf("ParseSquare(%q) = %s, G1 says %s", text, sq, want)
		}
		printed := sq.String()
		if !regexp.MustCompile(`^[1-9][0-9]*[A-N]$`).MatchString(printed) {
			t.Fatalf("ParseSquare(%q) = %q, not number-first upper case (G1)", text, printed)
		}
		back, err := domain.ParseSquare(printed)
		if err != nil || back != sq {
			t.Fatalf("ParseSquare(%q) = %s, which parses back to %v, %v", text, printed, back, err)
		}
		js, err := sq.MarshalText()
		if err != nil || string(js) != printed {
			t.Fatalf("%s marshals to %q, %v", printed, js, err)
		}
	})
}
