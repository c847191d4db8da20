package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/coalition-wargame/coalition/scenario"
)

// adjudicate runs one scenario file and prints the result JSON (scenario-format.md).
func adjudicate(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: coalition adjudicate FILE.json")
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	res, err := sc.RunContext(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	out, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", out)
	return err
}
