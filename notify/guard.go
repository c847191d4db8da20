package notify

// This file keeps webhooks to public addresses: a subscriber names the URL, so without this
// guard the server could be made to call into its own network (server-side request forgery).

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// errPrivate is the refusal of a webhook to a non-public address.
var errPrivate = errors.New("webhooks go to public addresses only, not to this server's own network (the server's --webhook-private allows them)")

// public reports whether ip is an address on the public internet: not loopback, private,
// link-local, unspecified, multicast, shared (RFC 6598) or an IPv4-mapped form of those.
func public(ip netip.Addr) bool {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid(), ip.IsLoopback(), ip.IsPrivate(), ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast(),
		ip.IsInterfaceLocalMulticast(), ip.IsMulticast(), ip.IsUnspecified():
		return false
	}
	return !sharedSpace.Contains(ip)
}

// sharedSpace is the carrier-grade NAT range (RFC 6598), private in all but name.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// publicHost says what is wrong with a webhook's host name when it is a literal address or
// localhost; other names are checked when they are dialled, address by address.
func publicHost(host string) error {
	if h := strings.ToLower(strings.TrimSuffix(host, ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return errPrivate
	}
	if ip, err := netip.ParseAddr(host); err == nil && !public(ip) {
		return errPrivate
	}
	return nil
}

// webhookClient is the HTTP client webhooks are sent with: a 10 s timeout, no redirects, and,
// unless private is set, a dialer that refuses every non-public address a name resolves to
// (checked on the address actually dialled, so a name that changes its answer gains nothing).
func webhookClient(private bool) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if !private {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("webhook address %q: %w", address, err)
			}
			if !public(ap.Addr()) {
				return fmt.Errorf("%s: %w", address, errPrivate)
			}
			return nil
		}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}
	return &http.Client{Timeout: 10 * time.Second, Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}
