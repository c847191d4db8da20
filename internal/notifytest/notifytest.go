// Package notifytest gives tests the real receivers of notifications: an SMTP server started
// in-process (github.com/emersion/go-smtp) that keeps every message it is sent, and an HTTP
// server on a random port that keeps every webhook request. Each stops when its test ends.
package notifytest

import (
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Mail is one message an SMTP server received: its envelope, headers and decoded text.
type Mail struct {
	From    string
	To      []string
	Subject string
	Header  mail.Header
	Text    string
}

// SMTP is a mail server on 127.0.0.1 and a random port.
type SMTP struct {
	// Addr is host:port.
	Addr  string
	mu    sync.Mutex
	mails []Mail
	fail  int
}

// StartSMTP starts a mail server for the test, without TLS or authentication.
func StartSMTP(t testing.TB) *SMTP {
	t.Helper()
	s := &SMTP{}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{srv: s}, nil }))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.MaxMessageBytes = 1 << 20
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// FailNext makes the server refuse the next n messages (a temporary failure, 451).
func (s *SMTP) FailNext(n int) {
	s.mu.Lock()
	s.fail = n
	s.mu.Unlock()
}

// Mails are the messages received so far.
func (s *SMTP) Mails() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.mails...)
}

// WaitMails waits up to ten seconds for at least n messages and returns them all.
func (s *SMTP) WaitMails(t testing.TB, n int) []Mail {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m := s.Mails(); len(m) >= n || time.Now().After(deadline) {
			if len(m) < n {
				t.Fatalf("the SMTP server got %d messages, want %d", len(m), n)
			}
			return m
		}
	}
}

type session struct {
	srv  *SMTP
	from string
	to   []string
}

func (x *session) Reset()        { x.from, x.to = "", nil }
func (x *session) Logout() error { return nil }
func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	x.from = from
	return nil
}
func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	msg, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	x.srv.mu.Lock()
	defer x.srv.mu.Unlock()
	if x.srv.fail > 0 {
		x.srv.fail--
		_, _ = io.Copy(io.Discard, msg.Body)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	var body io.Reader = msg.Body
	if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	text, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		return err
	}
	x.srv.mails = append(x.srv.mails, Mail{From: x.from, To: x.to, Subject: subject, Header: msg.Header, Text: strings.ReplaceAll(string(text), "\r\n", "\n")})
	return nil
}

// Hook is one webhook request received.
type Hook struct {
	Path   string
	Header http.Header
	Body   []byte
}

// Webhooks is an HTTP server that keeps every request; it answers 204, or 503 while failing.
type Webhooks struct {
	// URL is the server's address, http://127.0.0.1:PORT.
	URL   string
	mu    sync.Mutex
	hooks []Hook
	fail  int
}

// StartWebhooks starts a webhook receiver for the test.
func StartWebhooks(t testing.TB) *Webhooks {
	t.Helper()
	w := &Webhooks{}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(rw, err.Error(), http.StatusBadRequest)
			return
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.fail > 0 {
			w.fail--
			http.Error(rw, "busy", http.StatusServiceUnavailable)
			return
		}
		w.hooks = append(w.hooks, Hook{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		rw.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	w.URL = srv.URL
	return w
}

// FailNext makes the receiver answer 503 to the next n requests.
func (w *Webhooks) FailNext(n int) {
	w.mu.Lock()
	w.fail = n
	w.mu.Unlock()
}

// Hooks are the requests received so far.
func (w *Webhooks) Hooks() []Hook {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Hook(nil), w.hooks...)
}

// WaitHooks waits up to ten seconds for at least n requests and returns them all.
func (w *Webhooks) WaitHooks(t testing.TB, n int) []Hook {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if h := w.Hooks(); len(h) >= n || time.Now().After(deadline) {
			if len(h) < n {
				t.Fatalf("the webhook receiver got %d requests, want %d", len(h), n)
			}
			return h
		}
	}
}
