// Package notify sends a campaign's notifications where its accounts asked: webhooks over HTTP
// (a JSON payload signed with HMAC-SHA256, or Discord's message format) and e-mail through an
// SMTP server. It implements campaign.Notifier; cmd wires it to the dispatcher.
package notify

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/campaign"
)

// Options configure a Sender.
type Options struct {
	// BaseURL is the server's address as people reach it, for the links in notifications.
	BaseURL string
	// SMTP is the mail server: smtp://[user:password@]host[:587][?from=ADDRESS] speaks
	// STARTTLS (add tls=none for a relay on the same machine), smtps://…[:465] TLS from the
	// start. Nil sends no e-mail.
	SMTP *url.URL
	// HTTP sends webhooks; a client with a 10 s timeout by default.
	HTTP *http.Client
	// Clock stamps webhooks' signatures; time.Now by default.
	Clock func() time.Time
	// TLS is the configuration of TLS to the mail server (tests give their own roots).
	TLS *tls.Config
	// PrivateWebhooks lets webhooks reach loopback, private, link-local and other
	// non-public addresses. Off by default, so that a subscriber cannot make the server call
	// into its own network (a receiver on the same network, or a test, turns it on).
	PrivateWebhooks bool
}

// Sender sends deliveries of campaign events by webhook and e-mail.
type Sender struct {
	opt  Options
	from *mail.Address
	auth *url.Userinfo
}

var _ campaign.Notifier = (*Sender)(nil)

// New makes a sender, checking the SMTP URL when there is one.
func New(opt Options) (*Sender, error) {
	if opt.HTTP == nil {
		opt.HTTP = webhookClient(opt.PrivateWebhooks)
	}
	if opt.Clock == nil {
		opt.Clock = time.Now
	}
	opt.BaseURL = strings.TrimRight(opt.BaseURL, "/")
	s := &Sender{opt: opt}
	if u := opt.SMTP; u != nil {
		if u.Scheme != "smtp" && u.Scheme != "smtps" {
			return nil, fmt.Errorf("COALITION_SMTP_URL %q: the scheme must be smtp:// (STARTTLS) or smtps:// (TLS)", u.Redacted())
		}
		if u.Hostname() == "" {
			return nil, fmt.Errorf("COALITION_SMTP_URL %q names no host", u.Redacted())
		}
		from := u.Query().Get("from")
		if from == "" {
			from = "coalition@" + u.Hostname()
			if u.User != nil && strings.Contains(u.User.Username(), "@") {
				from = u.User.Username()
			}
		}
		a, err := mail.ParseAddress(from)
		if err != nil {
			return nil, fmt.Errorf("COALITION_SMTP_URL: from=%q is not an e-mail address", from)
		}
		if a.Name == "" {
			a.Name = "Coalition Wargame"
		}
		s.from, s.auth = a, u.User
		switch tlsMode := u.Query().Get("tls"); tlsMode {
		case "", "none":
		default:
			return nil, fmt.Errorf("COALITION_SMTP_URL: tls=%q: the only choice is tls=none (no STARTTLS, for a relay on this machine)", tlsMode)
		}
	}
	return s, nil
}

// Channels are the ways this sender sends: webhooks always, e-mail with an SMTP server.
func (s *Sender) Channels() []string {
	if s.opt.SMTP != nil {
		return []string{campaign.ByWebhook, campaign.ByEmail}
	}
	return []string{campaign.ByWebhook}
}

// Send sends one delivery by its channel.
func (s *Sender) Send(ctx context.Context, o campaign.Outgoing) error {
	switch o.Delivery.Channel {
	case campaign.ByWebhook:
		return s.webhook(ctx, o)
	case campaign.ByEmail:
		return s.mail(ctx, o)
	}
	return fmt.Errorf("no channel %q", o.Delivery.Channel)
}

// link is the page of the event's campaign.
func (s *Sender) link(o campaign.Outgoing) string {
	base := s.opt.BaseURL
	if base == "" {
		base = "http://localhost:8080"
	}
	return fmt.Sprintf("%s/?c=%d", base, o.Event.CampaignID)
}

func dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

// CheckTarget says what is wrong with a webhook's URL or an e-mail address, or nil.
func (s *Sender) CheckTarget(channel, target string) error {
	switch channel {
	case campaign.ByWebhook:
		u, err := url.Parse(target)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || len(target) > 2000 {
			return fmt.Errorf("%q is not a webhook address: give an http:// or https:// URL without a user name", target)
		}
		if !s.opt.PrivateWebhooks {
			if err := publicHost(u.Hostname()); err != nil {
				return fmt.Errorf("%q: %w", target, err)
			}
		}
	case campaign.ByEmail:
		a, err := mail.ParseAddress(target)
		if err != nil || a.Name != "" || a.Address != target || len(target) > 254 {
			return fmt.Errorf("%q is not an e-mail address", target)
		}
	default:
		return fmt.Errorf("no channel %q", channel)
	}
	return nil
}
