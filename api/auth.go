package api

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
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
}

func newAuthenticator(svc *campaign.Service, key []byte, clock func() time.Time, ttl time.Duration) (*authenticator, error) {
	if len(key) < MinKeyBytes {
		return nil, fmt.Errorf("the token signing key has %d bytes: it needs at least %d random bytes", len(key), MinKeyBytes)
	}
	p := jwt.NewParser(jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithIssuer(issuer), jwt.WithAudience(audience),
		jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithLeeway(30*time.Second), jwt.WithTimeFunc(clock))
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

// account checks a token and returns its account.
func (a *authenticator) account(c echo.Context, raw string) (*campaign.Account, error) {
	var cl claims
	_, err := a.parser.ParseWithClaims(raw, &cl, a.keyFunc)
	if err != nil {
		return nil, domain.Errorf(domain.ErrUnauthorized, "the token is not valid: %s; log in again", tokenProblem(err))
	}
	id, err := strconv.ParseInt(cl.Subject, 10, 64)
	if err != nil {
		return nil, domain.Errorf(domain.ErrUnauthorized, "the token names no account; log in again")
	}
	acc, err := a.svc.AccountFor(c.Request().Context(), id, cl.Version)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, domain.Errorf(domain.ErrUnauthorized, "the token's account no longer exists")
	}
	if err != nil {
		return nil, err
	}
	if acc.TokenVersion != cl.Version {
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
		act := campaign.Actor{IP: c.RealIP()}
		if h := c.Request().Header.Get(echo.HeaderAuthorization); h != "" {
			scheme, raw, ok := strings.Cut(h, " ")
			if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(raw) == "" {
				return domain.Errorf(domain.ErrUnauthorized, "send the token as \"Authorization: Bearer <token>\"")
			}
			acc, err := a.account(c, strings.TrimSpace(raw))
			if err != nil {
				return err
			}
			act.Account = acc
			if acc.MustChange && c.Path() != "/api/me" && c.Path() != "/api/me/password" {
				return domain.Errorf(domain.ErrForbidden, "an admin reset the password of %s: choose a new one first (PUT /api/me/password)", acc.Name)
			}
		}
		c.Set(actorKey, act)
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
