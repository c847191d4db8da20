// E-mail: the event as a plain-text message (UTF-8, quoted-printable) through the SMTP server of
// COALITION_SMTP_URL, with STARTTLS, TLS or, for a relay on this machine, neither.

package notify

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/coalition-wargame/coalition/campaign"
)

// Message is the e-mail of one delivery, CRLF line ends.
func (s *Sender) Message(o campaign.Outgoing) []byte {
	var b bytes.Buffer
	h := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	h("From", s.from.String())
	h("To", o.Delivery.Target)
	h("Subject", mime.QEncoding.Encode("utf-8", o.Event.Title))
	h("Date", o.Event.At.UTC().Format(time.RFC1123Z))
	h("Message-ID", fmt.Sprintf("<delivery-%d.event-%d@%s>", o.Delivery.ID, o.Event.ID, s.opt.SMTP.Hostname()))
	h("MIME-Version", "1.0")
	h("Content-Type", "text/plain; charset=utf-8")
	h("Content-Transfer-Encoding", "quoted-printable")
	h("X-Coalition-Event", string(o.Event.Kind))
	b.WriteString("\r\n")
	text := o.Event.Body + "\n\n-- \n" + o.Campaign + ": " + s.link(o) + "\nYou receive this because " + o.Account +
		" subscribed to these notifications; change them on the campaign's Notifications tab.\n"
	qp := quotedprintable.NewWriter(&b)
	_, _ = qp.Write([]byte(strings.ReplaceAll(text, "\n", "\r\n")))
	_ = qp.Close()
	return b.Bytes()
}

func (s *Sender) mail(ctx context.Context, o campaign.Outgoing) error {
	u := s.opt.SMTP
	if u == nil {
		return fmt.Errorf("this server sends no e-mail (COALITION_SMTP_URL is not set)")
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"smtp": "587", "smtps": "465"}[u.Scheme]
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := dial(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	cfg := s.opt.TLS
	if cfg == nil {
		cfg = &tls.Config{}
	}
	cfg = cfg.Clone()
	cfg.ServerName = u.Hostname()
	var c *smtp.Client
	switch {
	case u.Scheme == "smtps":
		c = smtp.NewClient(tls.Client(conn, cfg))
	case u.Query().Get("tls") == "none":
		c = smtp.NewClient(conn)
	default:
		if c, err = smtp.NewClientStartTLS(conn, cfg); err != nil {
			conn.Close()
			return err
		}
	}
	defer c.Close()
	if s.auth != nil {
		pw, _ := s.auth.Password()
		if err := c.Auth(sasl.NewPlainClient("", s.auth.Username(), pw)); err != nil {
			return err
		}
	}
	if err := c.SendMail(s.from.Address, []string{o.Delivery.Target}, bytes.NewReader(s.Message(o))); err != nil {
		return err
	}
	return c.Quit()
}
