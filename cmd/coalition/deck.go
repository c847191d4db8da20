// The deck command: a deck list checked against a card format (Coalition, Heroic,
// Manahearth), as text or as the verdict's JSON, with exit status 0 legal, 1 illegal, 2
// unreadable.

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/deck"
	"github.com/coalition-wargame/coalition/format"
)

const deckUsage = `usage: coalition deck check [FLAGS] FILE

Checks the deck list in FILE ("-" for standard input) against a card format's rules and prints
every problem with its line and rule. Exit status: 0 legal, 1 illegal, 2 unreadable (no card
line, an unknown format or revision, a file that cannot be read).

flags:
  --format NAME       coalition (default), heroic or manahearth
  --revision R        the format's revision (coalition: page (default), draft, site-2026;
                      heroic: 2023-12-03; manahearth: rules)
  --subformat NAME    a sub-format of the revision (a set filter), where it has any
  --json              print the verdict as JSON: {"legal", "hero", "types", "problems"}
  --catalogue FILE    an every-card catalogue written by "coalition cards import --all"
                      (default: the card data shipped in the program)
  --formats FILE      a formats document (format/data/formats.json's shape) with edited
                      banned lists or revisions (default: the shipped one)
`

// exitError is an error that sets the process's exit status.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// exitCode is the exit status for an error run returned: its own, else 1.
func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}

// unreadable marks an error as exit status 2.
func unreadable(err error) error { return &exitError{code: 2, err: err} }

// deckCommand runs "coalition deck …"; args are the words after "deck".
func deckCommand(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, deckUsage)
		if len(args) == 0 {
			return unreadable(errors.New("deck: no subcommand given"))
		}
		return nil
	}
	if args[0] != "check" {
		fmt.Fprint(stdout, deckUsage)
		return unreadable(fmt.Errorf("deck: unknown subcommand %q", args[0]))
	}
	fs := flag.NewFlagSet("deck check", flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() { fmt.Fprint(stdout, deckUsage) }
	var req format.Request
	fs.StringVar(&req.Format, "format", "coalition", "the card format")
	fs.StringVar(&req.Revision, "revision", "", "the format's revision (default: the format's default)")
	fs.StringVar(&req.Subformat, "subformat", "", "a sub-format of the revision")
	asJSON := fs.Bool("json", false, "print the verdict as JSON")
	catalogue := fs.String("catalogue", "", "an every-card catalogue file (default: the shipped card data)")
	formats := fs.String("formats", "", "a formats document (default: the shipped one)")
	if err := fs.Parse(args[1:]); err != nil {
		return unreadable(err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return unreadable(errors.New("usage: coalition deck check [--format NAME] [--revision R] [--json] FILE"))
	}
	list, err := readInput(fs.Arg(0), stdin)
	if err != nil {
		return unreadable(err)
	}
	req.List = list
	doc, err := formatsDocument(*formats)
	if err != nil {
		return unreadable(err)
	}
	all, err := catalogueFile(*catalogue, cards.LoadAll)
	if err != nil {
		return err
	}
	v, err := doc.Check(deck.NewCatalogue(all), req)
	if err != nil {
		return unreadable(fmt.Errorf("%s: %w", fs.Arg(0), err))
	}
	if *asJSON {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		writeVerdict(stdout, v)
	}
	if !v.Legal {
		return &exitError{code: 1, err: fmt.Errorf("the deck is not legal in %s %s: %d %s", v.Format, v.Revision, len(v.Problems), cardsPlural(len(v.Problems), "problem", "problems"))}
	}
	return nil
}

// readInput reads the file, or standard input for "-".
func readInput(path string, stdin io.Reader) (string, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(io.LimitReader(stdin, 8<<20))
	} else {
		b, err = os.ReadFile(path)
	}
	return string(b), err
}

// formatsDocument reads a formats document, or gives the shipped one for "".
func formatsDocument(path string) (*format.Formats, error) {
	if path == "" {
		return format.Shipped(), nil
	}
	return readFile(path, format.Read)
}

// writeVerdict prints a verdict for people: a summary line, then a problem a line.
func writeVerdict(w io.Writer, v format.Verdict) {
	state := "legal"
	if !v.Legal {
		state = "not legal"
	}
	fmt.Fprintf(w, "%s %s: %s", v.Format, v.Revision, state)
	if v.Hero != "" {
		fmt.Fprintf(w, "; hero %s", v.Hero)
	}
	switch {
	case len(v.Types) > 12:
		fmt.Fprintf(w, "; the deck may choose any of %d types", len(v.Types))
	case len(v.Types) > 0:
		fmt.Fprintf(w, "; the deck may choose %s", strings.Join(v.Types, ", "))
	}
	fmt.Fprintln(w)
	for _, p := range v.Problems {
		where := "deck"
		if p.Line > 0 {
			where = fmt.Sprintf("line %d", p.Line)
		}
		fmt.Fprintf(w, "%-8s %-18s %s\n", where, p.Rule, p.Message)
	}
}
