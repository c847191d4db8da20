package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"

	"github.com/coalition-wargame/coalition/campaign"
)

// replayCommand adjudicates locked turns again from what the database holds and compares
// the reports and next maps byte for byte: coalition replay [--db FILE] CAMPAIGN TURN|all.
func replayCommand(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	commonFlags(fs, getenv, &c)
	if err := fs.Parse(args); err != nil {
		return err
	}
	usage := errors.New("usage: coalition replay [--db FILE] CAMPAIGN TURN|all")
	if fs.NArg() != 2 {
		return usage
	}
	id, err := strconv.ParseInt(fs.Arg(0), 10, 64)
	if err != nil {
		return usage
	}
	c.log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	st, svc, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	var turns []int
	if fs.Arg(1) == "all" {
		all, err := svc.Turns(ctx, campaign.Operator("command-line replay"), id)
		if err != nil {
			return err
		}
		for _, t := range all {
			if t.Status == campaign.Locked {
				turns = append(turns, t.Number)
			}
		}
	} else {
		n, err := strconv.Atoi(fs.Arg(1))
		if err != nil {
			return usage
		}
		turns = []int{n}
	}
	differ := 0
	for _, n := range turns {
		res, err := svc.ReplayTurn(ctx, id, n)
		if err != nil {
			return fmt.Errorf("turn %d: %w", n, err)
		}
		word := "same"
		if !res.Same {
			word = "DIFFERENT"
			differ++
		}
		fmt.Fprintf(stdout, "campaign %d turn %d: %s — %s\n", id, n, word, res.Detail)
	}
	if differ > 0 {
		return fmt.Errorf("%d of %d turns adjudicate differently", differ, len(turns))
	}
	return nil
}
