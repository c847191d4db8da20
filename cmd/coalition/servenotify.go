// The server's notifications as the command line sets them: the SMTP server, the address in
// links, the reminders' lead and the dispatcher's tick; and the address the start line prints.

package main

import (
	"flag"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/notify"
)

// notifyFlags are serve's flags for notifications.
type notifyFlags struct {
	smtp, baseURL  string
	remindBefore   time.Duration
	every          time.Duration
	privateWebhook bool
}

func (n *notifyFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&n.smtp, "smtp", getenv("COALITION_SMTP_URL"), "the SMTP server that sends e-mail notifications: smtp://user:password@host:587?from=ADDRESS (STARTTLS; tls=none for a relay on this machine) or smtps://…:465; none: no e-mail (env COALITION_SMTP_URL)")
	fs.StringVar(&n.baseURL, "base-url", getenv("COALITION_BASE_URL"), "the server's address as people reach it, for links in notifications (default: the address it listens on; env COALITION_BASE_URL)")
	remind, _ := time.ParseDuration(env(getenv, "COALITION_REMIND_BEFORE", "24h"))
	fs.DurationVar(&n.remindBefore, "remind-before", remind, "how long before the lock (and the battle deadline) players are reminded of missing orders (and strategies) (env COALITION_REMIND_BEFORE)")
	fs.BoolVar(&n.privateWebhook, "webhook-private", getenv("COALITION_WEBHOOK_PRIVATE") == "allow", "let webhooks reach loopback and private addresses (a receiver on this server's own network); off, a subscription to such an address is refused (env COALITION_WEBHOOK_PRIVATE=allow)")
	fs.DurationVar(&n.every, "dispatch-every", 15*time.Second, "how often the dispatcher looks for reminders due and notifications to retry (it sends a lock's at once)")
}

// notifier is the sender of notifications: webhooks always, e-mail when an SMTP server is set.
func (n *notifyFlags) notifier(listening string) (*notify.Sender, error) {
	opt := notify.Options{BaseURL: n.baseURL, Clock: now, PrivateWebhooks: n.privateWebhook}
	if opt.BaseURL == "" {
		opt.BaseURL = listening
	}
	if n.smtp != "" {
		u, err := url.Parse(n.smtp)
		if err != nil {
			return nil, fmt.Errorf("COALITION_SMTP_URL: %w", err)
		}
		opt.SMTP = u
	}
	if n.every <= 0 {
		return nil, fmt.Errorf("--dispatch-every must be positive")
	}
	return notify.New(opt)
}

// serverURL is the address to click for a listener: localhost when it listens on every
// address (":8080", "[::]:8080"), else the address itself.
func serverURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String()
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// shellQuote quotes a word for a shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[](){}<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
