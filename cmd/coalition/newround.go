package main

// This file holds `coalition new-round`: a whole legal round made by the generator from a seed,
// the members (a finished campaign's, for its next round) and the card data (2.5), published,
// and started when asked.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
)

// newRoundCommand makes a round: coalition new-round [--db FILE] [--seed N] [--from CAMPAIGN]
// [--start] [--first-deadline TIME] NAME.
func newRoundCommand(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("new-round", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	commonFlags(fs, getenv, &c)
	seedText := fs.String("seed", "", "the round's seed, a whole number (random when left out)")
	from := fs.Int64("from", 0, "a finished campaign: the round is its next round, its members carried over (1.7)")
	start := fs.Bool("start", false, "start the round at once: its campaign opens turn 1")
	deadline := fs.String("first-deadline", "", "the first turn's battle deadline, RFC 3339 (with --start; the first 05:00 UTC a turn length away by default)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: coalition new-round [--db FILE] [--seed N] [--from CAMPAIGN] [--start] [--first-deadline TIME] NAME")
	}
	var seed *int64
	if *seedText != "" {
		n, err := strconv.ParseInt(*seedText, 10, 64)
		if err != nil {
			return fmt.Errorf("--seed %q is not a whole number", *seedText)
		}
		seed = &n
	}
	var first *time.Time
	if *deadline != "" {
		t, err := time.Parse(time.RFC3339, *deadline)
		if err != nil {
			return fmt.Errorf("--first-deadline: %w", err)
		}
		first = &t
	}
	c.log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	st, svc, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	op := campaign.Operator("command-line new-round")
	var created *campaign.RoundCreated
	if *from != 0 {
		created, err = svc.NextRound(ctx, op, *from, campaign.NextRoundRequest{Name: fs.Arg(0), Seed: seed})
	} else {
		created, err = svc.CreateRound(ctx, op, campaign.NewRound{Name: fs.Arg(0), Seed: seed})
	}
	if err != nil {
		return err
	}
	id := created.Round.ID
	if _, err := svc.GenerateRound(ctx, op, id, campaign.GenerateRequest{}); err != nil {
		return err
	}
	v, err := svc.Publish(ctx, op, id, campaign.PublishRequest{})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Made round %d (%q) by the generator: %d sites, %d armies a side, %d mercenaries; its positions are public.\n",
		id, v.Name, len(v.Sites), v.Counts.Total(), len(v.Mercenaries))
	if len(created.Accounts) > 0 {
		fmt.Fprintln(stdout, "New accounts (passwords are shown this once):")
		for _, a := range created.Accounts {
			fmt.Fprintf(stdout, "  %-24s %s\n", a.Account.Name, a.Password)
		}
	}
	for _, p := range v.Problems {
		fmt.Fprintf(stdout, "  problem (%s): %s\n", p.Rule, p.Message)
	}
	if !*start {
		fmt.Fprintf(stdout, "Its judges set it up further at GET /api/rounds/%d, and start it with POST /api/rounds/%d/start.\n", id, id)
		return nil
	}
	camp, err := svc.StartRound(ctx, op, id, campaign.StartRequest{FirstDeadline: first})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Started it as campaign %d.\n", camp.ID)
	return nil
}
