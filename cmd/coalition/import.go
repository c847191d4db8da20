package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/coalition-wargame/coalition/api"
	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/scenario"
)

// importCommand creates a campaign from a scenario file: coalition import [--db FILE] FILE.
func importCommand(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	commonFlags(fs, getenv, &c)
	name := fs.String("name", "", "the campaign's name (the scenario's name by default)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: coalition import [--db FILE] [--name NAME] FILE.json")
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	c.log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	st, svc, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	out, err := svc.CreateCampaign(ctx, campaign.Operator("command-line import"), api.SetupFromScenario(sc, *name))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Imported %s as campaign %d (%q).\n", fs.Arg(0), out.Campaign.ID, out.Campaign.Name)
	if len(out.Accounts) > 0 {
		fmt.Fprintln(stdout, "New accounts (passwords are shown this once):")
		for _, a := range out.Accounts {
			fmt.Fprintf(stdout, "  %-24s %s\n", a.Account.Name, a.Password)
		}
	}
	return nil
}
