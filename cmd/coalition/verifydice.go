package main

import (
	"fmt"
	"io"
	"os"

	"github.com/coalition-wargame/coalition/battle"
)

// verifyDiceCommand checks a turn's published randomness (B6): it reads
// {"commitment", "seed", "rolls": [{"label", "value"}]} from the file named in args, or from
// stdin when there is none or it is "-", checks the seed against its SHA-256 commitment,
// re-derives every roll from the seed and prints OK or every mismatch. Mismatches make it
// return an error, so the program exits non-zero.
func verifyDiceCommand(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) > 1 {
		return fmt.Errorf("usage: coalition verify-dice [FILE.json]   (no file or - reads standard input)")
	}
	var data []byte
	var err error
	name := "standard input"
	if len(args) == 0 || args[0] == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		name = args[0]
		data, err = os.ReadFile(args[0])
	}
	if err != nil {
		return err
	}
	p, err := battle.ParsePublication(data)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	ms, err := p.Check()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(ms) == 0 {
		_, err = fmt.Fprintf(stdout, "OK: the seed matches its commitment and all %d rolls match the seed\n", len(p.Rolls))
		return err
	}
	for _, m := range ms {
		if _, err := fmt.Fprintln(stdout, m); err != nil {
			return err
		}
	}
	if len(ms) == 1 {
		return fmt.Errorf("1 mismatch: the published dice are not what the seed gives")
	}
	return fmt.Errorf("%d mismatches: the published dice are not what the seed gives", len(ms))
}
