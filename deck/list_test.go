package deck

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		lines      []Line
		syntax     []int // lines with a syntax problem
	}{
		{"counts", "4 Lightning Bolt\n4x Mountain\n2X Shock\n1  Grizzly Bears  ", []Line{
			{Number: 1, Count: 4, Name: "Lightning Bolt"}, {Number: 2, Count: 4, Name: "Mountain"},
			{Number: 3, Count: 2, Name: "Shock"}, {Number: 4, Count: 1, Name: "Grizzly Bears"}}, nil},
		{"SB: prefix", "4 Lightning Bolt\nSB: 1 Kaalia of the Vast\nsb:2 Duress", []Line{
			{Number: 1, Count: 4, Name: "Lightning Bolt"}, {Number: 2, Count: 1, Name: "Kaalia of the Vast", Sideboard: true},
			{Number: 3, Count: 2, Name: "Duress", Sideboard: true}}, nil},
		{"sections, comments and blank lines", "// Kaalia angels\n# main\n4 Lightning Bolt\n\nSideboard\n1 Kaalia of the Vast\nDeck\n1 Shock\nSIDEBOARD:\n1 Duress\nMain (60)\n1 Opt", []Line{
			{Number: 3, Count: 4, Name: "Lightning Bolt"}, {Number: 6, Count: 1, Name: "Kaalia of the Vast", Sideboard: true},
			{Number: 8, Count: 1, Name: "Shock"}, {Number: 10, Count: 1, Name: "Duress", Sideboard: true}, {Number: 12, Count: 1, Name: "Opt"}}, nil},
		{"MTGA export", "About\nName Angels\n\nCompanion\n1 Lurrus of the Dream-Den (IKO) 226\n\nDeck\n4 Lightning Bolt (M10) 146\n1 Fire // Ice (MH2) 290\n\nSideboard\n1 Kaalia of the Vast (2X2) 235\n1 Lurrus of the Dream-Den (IKO) 226 *F*", []Line{
			{Number: 8, Count: 4, Name: "Lightning Bolt", Set: "M10", Collector: "146"},
			{Number: 9, Count: 1, Name: "Fire // Ice", Set: "MH2", Collector: "290"},
			{Number: 12, Count: 1, Name: "Kaalia of the Vast", Set: "2X2", Collector: "235", Sideboard: true},
			{Number: 13, Count: 1, Name: "Lurrus of the Dream-Den", Set: "IKO", Collector: "226", Sideboard: true}}, nil},
		{"set code without number, in brackets", "4 Lightning Bolt (M10)\r\n1 Kaalia of the Vast [CMD]", []Line{
			{Number: 1, Count: 4, Name: "Lightning Bolt", Set: "M10"}, {Number: 2, Count: 1, Name: "Kaalia of the Vast", Set: "CMD"}}, nil},
		{"parentheses in a name are not a set code", "1 B.F.M. (Big Furry Monster)", []Line{
			{Number: 1, Count: 1, Name: "B.F.M. (Big Furry Monster)"}}, nil},
		{"Commander section holds the hero", "Commander\n1 Kaalia of the Vast\nDeck\n4 Lightning Bolt", []Line{
			{Number: 2, Count: 1, Name: "Kaalia of the Vast", Sideboard: true}, {Number: 4, Count: 4, Name: "Lightning Bolt"}}, nil},
		{"byte order mark", "\uFEFF4 Lightning Bolt", []Line{{Number: 1, Count: 4, Name: "Lightning Bolt"}}, nil},
		{"unreadable lines among card lines", "4 Lightning Bolt\nLightning Bolt\n0 Shock\n99999 Mountain\n4x\nSB: Opt\nSB:\n3 Opt", []Line{
			{Number: 1, Count: 4, Name: "Lightning Bolt"}, {Number: 8, Count: 3, Name: "Opt", Sideboard: true}}, []int{2, 3, 4, 5, 6}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Parse(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(l.Lines, tt.lines) {
				t.Errorf("lines\n got %+v\nwant %+v", l.Lines, tt.lines)
			}
			var syntax []int
			for _, p := range l.Problems {
				if p.Rule != "syntax" || !strings.Contains(p.Message, "line ") {
					t.Errorf("problem %+v", p)
				}
				syntax = append(syntax, p.Line)
			}
			if !reflect.DeepEqual(syntax, tt.syntax) {
				t.Errorf("syntax problems on lines %v, want %v", syntax, tt.syntax)
			}
		})
	}
}

// A text with no card line at all is unreadable (F8).
func TestParseUnreadable(t *testing.T) {
	for _, text := range []string{"", "\n\n", "// only a comment", "Sideboard\nDeck", "Lightning Bolt\nKaalia of the Vast", "{\"format\": \"coalition\"}", "\xff\xfe4\x00 \x00B"} {
		if _, err := Parse(text); !errors.Is(err, ErrUnreadable) {
			t.Errorf("Parse(%q) = %v, want ErrUnreadable", text, err)
		}
	}
}

func TestResolve(t *testing.T) {
	c := catalogue(t)
	l, err := Parse("4 lightning bolt\n1 Delver of Secrets\n1 Insectile Aberration\n2 Lim-Dul's Vault\n1 Lightening Bolt\nSB: 1 kaalia of the vast")
	if err != nil {
		t.Fatal(err)
	}
	d := c.Resolve(l)
	names := func(es []Entry) (out []string) {
		for _, e := range es {
			out = append(out, e.Card.Name)
		}
		return out
	}
	if got, want := names(d.Main), []string{"Lightning Bolt", "Delver of Secrets // Insectile Aberration", "Delver of Secrets // Insectile Aberration", "Lim-Dûl's Vault"}; !reflect.DeepEqual(got, want) {
		t.Errorf("main deck %q, want %q", got, want)
	}
	if got := names(d.Side); !reflect.DeepEqual(got, []string{"Kaalia of the Vast"}) {
		t.Errorf("sideboard %q", got)
	}
	if Size(d.Main) != 8 || len(d.Entries()) != 5 {
		t.Errorf("main deck of %d cards, %d entries in all", Size(d.Main), len(d.Entries()))
	}
	if len(d.Unknown) != 1 || d.Unknown[0].Number != 5 {
		t.Fatalf("unknown lines %+v", d.Unknown)
	}
	p := c.Unknown(d.Unknown[0])
	if p.Rule != "unknown-card" || p.Line != 5 || p.Card != "Lightening Bolt" || !strings.Contains(p.Message, "Lightning Bolt") {
		t.Errorf("unknown card problem %+v", p)
	}
}

// FuzzParse: any text parses without panic; card lines have a count within bounds, a name and
// a line number inside the text; a text with no card line is unreadable, and only then.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"4 Lightning Bolt\nSB: 1 Kaalia of the Vast", "Deck\n4x Shock (M10) 146\nSideboard\n1 Fire // Ice [MH2]", "About\nName x\n\nCompanion\n1 Lurrus", "", "0 Opt\n99999999999999999999 Bolt", "SB:\n# x\n// y\n\uFEFF3 Opt *F*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		l, err := Parse(text)
		lines := strings.Count(text, "\n") + 1
		if (err != nil) != (len(l.Lines) == 0) {
			t.Fatalf("err %v with %d card lines", err, len(l.Lines))
		}
		prev := 0
		for _, line := range l.Lines {
			if line.Count < 1 || line.Count > MaxCount || line.Name == "" || line.Number <= prev || line.Number > lines || !utf8.ValidString(line.Name) {
				t.Fatalf("line %+v of %q", line, text)
			}
			prev = line.Number
		}
		for _, p := range l.Problems {
			if p.Rule != "syntax" || p.Line < 1 || p.Line > lines {
				t.Fatalf("problem %+v of %q", p, text)
			}
		}
	})
}
