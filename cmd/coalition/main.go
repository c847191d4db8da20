// Command coalition runs the Coalition Wargame server and its tools: it alone names concrete
// types, wiring the store, the campaign workflow and the API together; it holds the demo
// campaign.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// the first signal asks the command to stop; a second one ends the process at once, even
	// if the command is busy in work that does not watch the context
	go func() {
		<-ctx.Done()
		stop()
	}()
	if err := run(ctx, os.Args, os.Getenv, os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "coalition:", err)
		os.Exit(exitCode(err))
	}
}

// now is the program's clock; tests replace it with one they control.
var now = time.Now

const usage = `usage: coalition COMMAND [ARGS]

commands:
  serve [--addr :8080] [--db coalition.db] [--demo]
                              run the campaign server (coalition serve --help for every flag)
  import [--db FILE] [--name NAME] FILE.json
                              create a campaign from a scenario file
  new-round [--db FILE] [--seed N] [--from CAMPAIGN] [--start] NAME
                              make a whole legal round by the generator (a finished campaign's next round with --from)
  replay [--db FILE] CAMPAIGN TURN|all
                              adjudicate locked turns again and compare, byte for byte
  adjudicate FILE.json        run a rule scenario and print its result
  cards SUBCOMMAND ...        the card catalogue and troop-list checker
  deck check [--format F] [--revision R] [--json] FILE
                              check a deck list for Coalition, Heroic or Manahearth
  verify-dice [FILE.json]     check a turn's published seed and dice
  backup [--db FILE] [--backups DIR]
                              write a checked backup of the SQLite database
  restore [--db FILE] BACKUP  put a backup in place of the SQLite database (server stopped)
  admin reset-password [--db FILE] NAME
                              give an account a new password (a lost admin password too)
  version                     the program's version, commit and Go version
`

// run is the whole program: main only wires it to the process.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("no command given")
	}
	switch args[1] {
	case "serve":
		return serve(ctx, args[2:], getenv, stdout, stderr)
	case "import":
		return importCommand(ctx, args[2:], getenv, stdout, stderr)
	case "replay":
		return replayCommand(ctx, args[2:], getenv, stdout, stderr)
	case "new-round":
		return newRoundCommand(ctx, args[2:], getenv, stdout, stderr)
	case "adjudicate":
		return adjudicate(ctx, args[2:], stdout)
	case "cards":
		return cardsCommand(args[2:], stdout)
	case "deck":
		return deckCommand(args[2:], stdin, stdout)
	case "verify-dice":
		return verifyDiceCommand(args[2:], stdin, stdout)
	case "admin":
		return adminCommand(ctx, args[2:], getenv, stdout, stderr)
	case "backup":
		return backupCommand(ctx, args[2:], getenv, stdout, stderr)
	case "restore":
		return restoreCommand(ctx, args[2:], getenv, stdout, stderr)
	case "version", "--version":
		return versionCommand(stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[1])
}
