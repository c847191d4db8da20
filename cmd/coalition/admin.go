// The admin's commands at the command line: reset-password gives an account (the admin's own,
// when its password is lost) a new password, to be changed at the next login.

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/coalition-wargame/coalition/campaign"
)

const adminUsage = `usage: coalition admin reset-password [--db FILE] [--password P] NAME

Gives the account NAME a new password — a random one, printed once, unless --password gives
it — ends its sessions and makes it choose its own at its next login. Run it on the server's
database (stop the server first on SQLite, or run it beside it: it is one transaction).
`

// adminCommand runs "coalition admin …"; args are the words after "admin".
func adminCommand(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "reset-password" {
		fmt.Fprint(stderr, adminUsage)
		if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
			return nil
		}
		return fmt.Errorf("admin: the command is reset-password")
	}
	fs := flag.NewFlagSet("admin reset-password", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, adminUsage); fs.PrintDefaults() }
	var c common
	commonFlags(fs, getenv, &c)
	password := fs.String("password", "", "the new password (8 to 72 bytes); a random one by default")
	if err := fs.Parse(args[1:]); err != nil {
		if err == flag.ErrHelp {
			return nil
		}
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("admin reset-password takes one account name")
	}
	c.log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	st, svc, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	out, err := svc.ResetPassword(ctx, campaign.Operator("command-line admin"), fs.Arg(0), *password)
	if err != nil {
		return err
	}
	if *password != "" {
		fmt.Fprintf(stdout, "%s's password is reset to the one given; it must be changed at the next login.\n", out.Account.Name)
		return nil
	}
	fmt.Fprintf(stdout, "%s's new password: %s\n(shown this once; it must be changed at the next login).\n", out.Account.Name, out.Password)
	return nil
}
