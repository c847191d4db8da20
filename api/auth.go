package api

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/labstack/echo/v4"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// Token claims: issuer, audience and a type header name this server's access tokens
// (RFC 8725: allow one algorithm, check iss and aud, type the token).
const (
	issuer    = "coalition"
	audience  = "coalition-api"
	tokenType = "coalition-access+jwt"
)

// MinKeyBytes is the shortest signing key accepted: 256 bits.
const MinKeyBytes = 32

type claims struct {
	jwt.RegisteredClaims
	// Version is the account's token version: a password change ends older tokens.
	Version int `json:"ver"`
}

type authenticator struct {
	svc    *campaign.Service
	key    []byte
	clock  func() time.Time
	ttl    time.Duration
	parser *jwt.Parser
	// verified keeps the tokens found valid, by their text (issue 16): a token's bytes give
	// the same answer every time but for the clock, which is checked again at every use.
	verified struct {
		sync.RWMutex
		m map[string]verifiedToken
	}
}

// verifiedToken is what a valid token says: its account and token version, and its times.
type verifiedToken struct {
	account            int64
	version            int
	expires, notBefore time.Time
	issued             time.Time
}

// leeway is the clock skew the tokens' times allow.
const leeway = 30 * time.Second

// maxVerified bounds the tokens kept as valid; past it the set starts again.
const maxVerified = 8192

func newAuthenticator(svc *campaign.Service, key []byte, clock func() time.Time, ttl time.Duration) (*authenticator, error) {
	if len(key) < MinKeyBytes {
		return nil, fmt.Errorf("the token signing key has %d bytes: it needs at least %d random bytes", len(key), MinKeyBytes)
	}
	p := jwt.NewParser(jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithIssuer(issuer), jwt.WithAudience(audience),
		jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithLeeway(leeway), jwt.WithTimeFunc(clock))
	return &authenticator{svc: svc, key: key, clock: clock, ttl: ttl, parser: p}, nil
}

// issue signs a token for an account.
func (a *authenticator) issue(acc *campaign.Account) (string, time.Time, error) {
	now := a.clock().UTC()
	exp := now.Add(a.ttl)
	t := jwt.NewWithClaims(jwt.SigningMethodHS256, claims{
		RegisteredClaims: jwt.RegisteredClaims{Issuer: issuer, Audience: jwt.ClaimStrings{audience}, Subject: strconv.FormatInt(acc.ID, 10),
			IssuedAt: jwt.NewNumericDate(now), NotBefore: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(exp)},
		Version: acc.TokenVersion,
	})
	t.Header["typ"] = tokenType
	s, err := t.SignedString(a.key)
	return s, exp, err
}

func (a *authenticator) keyFunc(t *jwt.Token) (any, error) {
	if typ, _ := t.Header["typ"].(string); typ != tokenType {
		return nil, fmt.Errorf("it is not an access token of this server")
	}
	return a.key, nil
}

// verify checks a token's signature and claims, once for each token while it is valid, and
// returns its account and token version.
func (a *authenticator) verify(raw string) (int64, int, error) {
	now := a.clock()
	a.verified.RLock()
	v, ok := a.verified.m[raw]
	a.verified.RUnlock()
	if ok && now.Before(v.expires.Add(leeway)) && !now.Before(v.notBefore.Add(-leeway)) && !v.issued.After(now.Add(leeway)) {
		return v.account, v.version, nil
	}
	var cl claims
	if _, err := a.parser.ParseWithClaims(raw, &cl, a.keyFunc); err != nil {
		return 0, 0, domain.Errorf(domain.ErrUnauthorized, "the token is not valid: %s; log in again", tokenProblem(err))
	}
	id, err := strconv.ParseInt(cl.Subject, 10, 64)
	if err != nil {
		return 0, 0, domain.Errorf(domain.ErrUnauthorized, "the token names no account; log in again")
	}
	v = verifiedToken{account: id, version: cl.Version, expires: cl.ExpiresAt.Time}
	if cl.NotBefore != nil {
		v.notBefore = cl.NotBefore.Time
	}
	if cl.IssuedAt != nil {
		v.issued = cl.IssuedAt.Time
	}
	a.verified.Lock()
	if a.verified.m == nil || len(a.verified.m) >= maxVerified {
		a.verified.m = map[string]verifiedToken{}
	}
	a.verified.m[raw] = v
	a.verified.Unlock()
	return id, cl.Version, nil
}

// account checks a token and returns its account.
func (a *authenticator) account(c echo.Context, raw string) (*campaign.Account, error) {
	id, version, err := a.verify(raw)
	if err != nil {
		return nil, err
	}
	acc, err := a.svc.AccountFor(c.Request().Context(), id, version)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, domain.Errorf(domain.ErrUnauthorized, "the token's account no longer exists")
	}
	if err != nil {
		return nil, err
	}
	if acc.TokenVersion != version {
		return nil, domain.Errorf(domain.ErrUnauthorized, "the token was issued before the password changed; log in again")
	}
	return acc, nil
}

func tokenProblem(err error) string {
	switch {
	case strings.Contains(err.Error(), "signing method"):
		return "it is not signed with HS256 by this server"
	case errors.Is(err, jwt.ErrTokenExpired):
		return "it has expired"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return "its signature is wrong"
	case errors.Is(err, jwt.ErrTokenUnverifiable):
		return "it is not signed with HS256 by this server"
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "it is malformed"
	case errors.Is(err, jwt.ErrTokenInvalidIssuer), errors.Is(err, jwt.ErrTokenInvalidAudience):
		return "it was issued for something else"
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		return "it has no expiry"
	case errors.Is(err, jwt.ErrTokenUsedBeforeIssued), errors.Is(err, jwt.ErrTokenNotValidYet):
		return "it is not valid yet"
	}
	return "it cannot be verified"
}

const actorKey = "coalition.actor"

// identify reads the bearer token, if any, and puts the caller in the context. A request
// without a token is anonymous; one with a bad token is refused, whatever the route.
func (a *authenticator) identify(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if h := c.Request().Header.Get(echo.HeaderAuthorization); h != "" {
			scheme, raw, ok := strings.Cut(h, " ")
			if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(raw) == "" {
				return domain.Errorf(domain.ErrUnauthorized, "send the token as \"Authorization: Bearer <token>\"")
			}
			acc, err := a.account(c, strings.TrimSpace(raw))
			if err != nil {
				return err
			}
			act := campaign.Actor{IP: c.RealIP(), Account: acc}
			if acc.MustChange && c.Path() != "/api/me" && c.Path() != "/api/me/password" {
				return domain.Errorf(domain.ErrForbidden, "an admin reset the password of %s: choose a new one first (PUT /api/me/password)", acc.Name)
			}
			c.Set(actorKey, act)
		}
		// an anonymous caller is what actor gives without a value in echo's context (whose
		// map would cost every anonymous read one allocation more)
		return next(c)
	}
}

// actor is the caller identified for this request.
func actor(c echo.Context) campaign.Actor {
	if a, ok := c.Get(actorKey).(campaign.Actor); ok {
		return a
	}
	return campaign.Actor{IP: c.RealIP()}
}
