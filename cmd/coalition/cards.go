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
	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/roster"
)

const cardsUsage = `usage: coalition cards SUBCOMMAND [FLAGS] ARGS

subcommands:
  lookup [--catalogue FILE] NAME...           print the cards named (case, punctuation and accents do not matter)
  search [--catalogue FILE] [-n N] QUERY      list cards whose names contain QUERY
  import [--all] [--into FILE] [--out FILE] MTGJSON
                                              merge an MTGJSON AtomicCards.json or AllPrintings.json
                                              (.json or .json.gz) into a catalogue and write it;
                                              --all: the every-card catalogue decks are checked against
  check [--catalogue FILE] LIST.json          check a troop list (2.1–2.2, 2.3.2, 2.6) and print the report

--catalogue and --into name a catalogue file written by import; without one the card data
shipped in the program is used. import writes to --out, else to --into, else to cards.json.gz.
`

// cardsCommand runs "coalition cards …"; args are the words after "cards".
func cardsCommand(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, cardsUsage)
		return errors.New("cards: no subcommand given")
	}
	switch args[0] {
	case "lookup":
		return cardsLookup(args[1:], stdout)
	case "search":
		return cardsSearch(args[1:], stdout)
	case "import":
		return cardsImport(args[1:], stdout)
	case "check":
		return cardsCheck(args[1:], stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, cardsUsage)
		return nil
	}
	fmt.Fprint(stdout, cardsUsage)
	return fmt.Errorf("cards: unknown subcommand %q", args[0])
}

func cardsFlags(name string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("cards "+name, flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() { fmt.Fprint(stdout, cardsUsage) }
	return fs
}

// cardsCatalogue loads the catalogue file at path, or the shipped data when path is empty.
func cardsCatalogue(path string) (*cards.Catalogue, error) { return catalogueFile(path, cards.Load) }

// catalogueFile loads the catalogue file at path, or the shipped one when path is empty.
func catalogueFile(path string, shipped func() (*cards.Catalogue, error)) (*cards.Catalogue, error) {
	if path == "" {
		return shipped()
	}
	cs, err := cardsReadFile(path)
	if err != nil {
		return nil, err
	}
	return cards.New(cs), nil
}

func cardsReadFile(path string) ([]cards.Card, error) { return readFile(path, cards.ReadCards) }

// readFile reads the file at path with read, naming the file in an error.
func readFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

func cardsLookup(args []string, stdout io.Writer) error {
	fs := cardsFlags("lookup", stdout)
	catalogue := fs.String("catalogue", "", "catalogue file (default: the shipped card data)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("usage: coalition cards lookup NAME...")
	}
	cat, err := cardsCatalogue(*catalogue)
	if err != nil {
		return err
	}
	missing := 0
	for _, name := range fs.Args() {
		card, ok := cat.Lookup(name)
		if !ok {
			missing++
			msg := fmt.Sprintf("no creature card named %q", name)
			if s := cat.Suggest(name, 5); len(s) > 0 {
				msg += "; did you mean: " + strings.Join(s, "; ")
			}
			fmt.Fprintln(stdout, msg)
			continue
		}
		out, err := json.MarshalIndent(card, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", out)
	}
	if missing > 0 {
		return fmt.Errorf("%d of %d names not found", missing, fs.NArg())
	}
	return nil
}

func cardsSearch(args []string, stdout io.Writer) error {
	fs := cardsFlags("search", stdout)
	catalogue := fs.String("catalogue", "", "catalogue file (default: the shipped card data)")
	n := fs.Int("n", 20, "how many cards to list at most")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("usage: coalition cards search [-n N] QUERY")
	}
	cat, err := cardsCatalogue(*catalogue)
	if err != nil {
		return err
	}
	for _, c := range cat.Search(strings.Join(fs.Args(), " "), *n) {
		colors := strings.Join(c.Colors, "")
		if colors == "" {
			colors = "colourless"
		}
		fmt.Fprintf(stdout, "%s\t%s/%s\t%s\t%s\n", c.Name, c.Power, c.Toughness, colors, strings.Join(c.Types, " "))
	}
	return nil
}

func cardsImport(args []string, stdout io.Writer) error {
	fs := cardsFlags("import", stdout)
	into := fs.String("into", "", "catalogue file to merge into (default: the shipped card data)")
	out := fs.String("out", "", "file to write (default: --into, else cards.json.gz)")
	all := fs.Bool("all", false, "every card, not only creatures: the catalogue decks are checked against (default base: the shipped every-card data)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	load, read, kind := cards.Load, cards.ReadMTGJSON, "creature cards"
	if *all {
		load, read, kind = cards.LoadAll, cards.ReadMTGJSONAll, "cards"
	}
	if fs.NArg() != 1 {
		return errors.New("usage: coalition cards import [--into FILE] [--out FILE] AtomicCards.json|AllPrintings.json")
	}
	var base []cards.Card
	if *into != "" {
		cs, err := cardsReadFile(*into)
		if err != nil {
			return err
		}
		base = cs
	} else {
		cat, err := load()
		if err != nil {
			return err
		}
		base = cat.Cards()
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	newer, err := read(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	cards.MarkOldLegends(newer)
	merged, added, changed := cards.Merge(base, newer)
	dest := *out
	if dest == "" {
		dest = *into
	}
	if dest == "" {
		dest = "cards.json.gz"
	}
	tmp := dest + ".tmp"
	w, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := cards.WriteCards(w, merged); err != nil {
		w.Close()
		os.Remove(tmp)
		return err
	}
	if err := w.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, dest); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "read %d %s from %s: %d new, %d changed; wrote %d cards to %s\n",
		len(newer), kind, fs.Arg(0), added, changed, len(merged), dest)
	return nil
}

// cardsCheckInput is the file "coalition cards check" reads.
type cardsCheckInput struct {
	Army   roster.Army `json:"army"`
	Troops roster.List `json:"troops"`
	// Mode is "new" (the default, 2.5.2.2), "change" (at a base, 2.3.2) or "customise" (2.6).
	Mode string `json:"mode,omitempty"`
	// Current are the army's troops now, for change and customise.
	Current []domain.Troop `json:"current,omitempty"`
	// Destroyed are the colours of destroyed Coalition bases, for change.
	Destroyed []domain.Color `json:"destroyed,omitempty"`
}

func cardsCheck(args []string, stdout io.Writer) error {
	fs := cardsFlags("check", stdout)
	catalogue := fs.String("catalogue", "", "catalogue file (default: the shipped card data)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: coalition cards check [--catalogue FILE] LIST.json")
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	cat, err := cardsCatalogue(*catalogue)
	if err != nil {
		return err
	}
	rep, err := checkTroopFile(cat, fs.Arg(0), data)
	if err != nil {
		return err
	}
	out, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n", out)
	if !rep.OK() {
		return fmt.Errorf("the troop list has %d %s", len(rep.Problems), cardsPlural(len(rep.Problems), "problem", "problems"))
	}
	return nil
}

// checkTroopFile checks the troop list of a "cards check" file against the catalogue.
func checkTroopFile(cat *cards.Catalogue, name string, data []byte) (roster.Report, error) {
	var in cardsCheckInput
	if err := json.Unmarshal(data, &in); err != nil {
		return roster.Report{}, fmt.Errorf("%s: %w", name, err)
	}
	side, err := domain.ParseSide(string(in.Army.Side))
	if err != nil {
		return roster.Report{}, fmt.Errorf("%s: army: %w", name, err)
	}
	in.Army.Side = side
	switch in.Mode {
	case "", "new":
		return roster.Check(cat, in.Troops, in.Army), nil
	case "change":
		return roster.CheckChange(cat, in.Troops, in.Army, in.Current, in.Destroyed), nil
	case "customise", "customize":
		return roster.CheckCustomisation(cat, in.Troops, in.Army, in.Current), nil
	}
	return roster.Report{}, fmt.Errorf("%s: mode %q: use new, change or customise", name, in.Mode)
}

func cardsPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
