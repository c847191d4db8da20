// Accounts: passwords, logins, the first admin, the accounts an admin creates, and server secrets.

package campaign

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/coalition-wargame/coalition/domain"
	"golang.org/x/crypto/bcrypt"
)

// passwordAlphabet avoids letters that look alike, so printed passwords can be typed.
const passwordAlphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// NewPassword draws a random 20-character password (about 116 bits).
func (s *Service) NewPassword() (string, error) {
	b := make([]byte, 20)
	if _, err := io.ReadFull(s.opt.Rand, b); err != nil {
		return "", err
	}
	for i := range b {
		b[i] = passwordAlphabet[int(b[i])%len(passwordAlphabet)]
	}
	return string(b), nil
}

func (s *Service) hash(password string) (string, error) {
	if err := checkPassword(password); err != nil {
		return "", err
	}
	cost := s.opt.PasswordCost
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	return string(h), err
}

func checkPassword(p string) error {
	switch {
	case utf8.RuneCountInString(p) < 8:
		return domain.Errorf(domain.ErrInvalid, "the password is too short: use at least 8 characters")
	case len(p) > 72:
		return domain.Errorf(domain.ErrInvalid, "the password is too long: use at most 72 bytes")
	}
	return nil
}

// Bootstrap creates the first admin account on an empty server. It returns the password it
// set — password when given, else a fresh random one — or "" when accounts already exist.
func (s *Service) Bootstrap(ctx context.Context, name, password string) (string, error) {
	name, err := NormalName(AccountName, name)
	if err != nil {
		return "", err
	}
	password, h, err := s.passwordHash(password)
	if err != nil {
		return "", err
	}
	created := false
	err = s.store.Write(ctx, func(tx Tx) error {
		n, err := tx.CountAccounts()
		if err != nil || n > 0 {
			return err
		}
		a := &Account{Name: name, PasswordHash: h, Admin: true, TokenVersion: 1, CreatedAt: s.now()}
		if err := tx.CreateAccount(a); err != nil {
			return err
		}
		created = true
		return s.audit(tx, 0, Actor{Account: a}, "account.bootstrap", "created the first admin account %s", name)
	})
	if err != nil || !created {
		return "", err
	}
	return password, nil
}

// passwordHash is password, or a fresh random one when it is empty, and its hash.
func (s *Service) passwordHash(password string) (string, string, error) {
	if password == "" {
		p, err := s.NewPassword()
		if err != nil {
			return "", "", err
		}
		password = p
	}
	h, err := s.hash(password)
	return password, h, err
}

// dummyHash is compared against when a login names no account, so that a wrong name takes
// as long as a wrong password: it has the cost of the service's real hashes.
func (s *Service) dummyHash() []byte {
	s.dummy.Do(func() {
		s.dummy.hash, _ = s.hash("coalition-dummy-password")
	})
	return []byte(s.dummy.hash)
}

// Login checks a name and password and returns the account.
func (s *Service) Login(ctx context.Context, name, password string) (*Account, error) {
	if n, err := NormalName(AccountName, name); err == nil {
		name = n // as it was stored; a name that is not valid names no account
	}
	var acc *Account
	err := s.store.Read(ctx, func(r Reader) error {
		a, err := r.AccountByName(name)
		if err != nil && !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		acc = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	if acc == nil {
		_ = s.opt.ComparePassword(s.dummyHash(), []byte(password))
		return nil, domain.Errorf(domain.ErrUnauthorized, "wrong name or password")
	}
	if s.opt.ComparePassword([]byte(acc.PasswordHash), []byte(password)) != nil {
		return nil, domain.Errorf(domain.ErrUnauthorized, "wrong name or password")
	}
	return acc, nil
}

// Account returns an account by id, for the authentication of a request.
func (s *Service) Account(ctx context.Context, id int64) (*Account, error) {
	var acc *Account
	err := s.store.Read(ctx, func(r Reader) (err error) {
		acc, err = r.Account(id)
		return err
	})
	return acc, err
}

// Me is an account and its campaign memberships.
type Me struct {
	Account *Account `json:"account"`
	Members []Member `json:"memberships"`
}

// Memberships lists the campaigns the actor belongs to.
func (s *Service) Memberships(ctx context.Context, a Actor) (*Me, error) {
	if !maySeeMemberships(a) {
		return nil, access{actor: a}.refuse("see memberships")
	}
	me := &Me{Account: a.Account, Members: []Member{}}
	err := s.store.Read(ctx, func(r Reader) error {
		ms, err := memberships(r, a)
		for _, m := range ms {
			me.Members = append(me.Members, *m)
		}
		return err
	})
	return me, err
}

// NewAccount is an account just created and the password it was given.
type NewAccount struct {
	Account  *Account `json:"account"`
	Password string   `json:"password"`
}

// CreateAccount creates an account (admins only); an empty password draws a random one,
// returned once.
func (s *Service) CreateAccount(ctx context.Context, a Actor, name, password string, admin bool) (*NewAccount, error) {
	x := access{actor: a}
	if err := x.need("create accounts (admins only)", mayCreateAccount(x)); err != nil {
		return nil, err
	}
	name, err := NormalName(AccountName, name)
	if err != nil {
		return nil, err
	}
	password, h, err := s.passwordHash(password)
	if err != nil {
		return nil, err
	}
	acc := &Account{Name: name, PasswordHash: h, Admin: admin, TokenVersion: 1, CreatedAt: s.now()}
	err = s.store.Write(ctx, func(tx Tx) error {
		if _, err := tx.AccountByName(name); err == nil {
			return domain.Errorf(domain.ErrConflict, "the name %q is taken", name)
		}
		if err := noLookalikeAccount(tx, name); err != nil {
			return err
		}
		if err := tx.CreateAccount(acc); err != nil {
			return err
		}
		return s.audit(tx, 0, a, "account.create", "created account %s (admin: %v)", name, admin)
	})
	if err != nil {
		return nil, err
	}
	return &NewAccount{Account: acc, Password: password}, nil
}

// Accounts lists every account (admins only).
func (s *Service) Accounts(ctx context.Context, a Actor) ([]Account, error) {
	x := access{actor: a}
	if err := x.need("list accounts (admins only)", mayListAccounts(x)); err != nil {
		return nil, err
	}
	var out []Account
	err := s.store.Read(ctx, func(r Reader) (err error) {
		out, err = r.Accounts()
		return err
	})
	return out, err
}

// ChangePassword sets a new password after checking the old one; tokens issued before stop
// working.
func (s *Service) ChangePassword(ctx context.Context, a Actor, old, password string) error {
	if !mayChangePassword(a) {
		return access{actor: a}.refuse("change a password")
	}
	if s.opt.ComparePassword([]byte(a.Account.PasswordHash), []byte(old)) != nil {
		return domain.Errorf(domain.ErrForbidden, "the old password is wrong")
	}
	h, err := s.hash(password)
	if err != nil {
		return err
	}
	return s.store.Write(ctx, func(tx Tx) error {
		acc, err := tx.Account(a.Account.ID)
		if err != nil {
			return err
		}
		acc.PasswordHash, acc.MustChange = h, false
		acc.TokenVersion++
		if err := tx.UpdateAccount(acc); err != nil {
			return err
		}
		return s.audit(tx, 0, a, "account.password", "changed the password of %s", acc.Name)
	})
}

// Secret returns the named server secret, creating it with size random bytes the first time.
func (s *Service) Secret(ctx context.Context, name string, size int) ([]byte, error) {
	var key []byte
	err := s.store.Write(ctx, func(tx Tx) error {
		k, err := tx.Secret(name)
		if err == nil {
			key = k
			return nil
		}
		if !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		key = make([]byte, size)
		if _, err := io.ReadFull(s.opt.Rand, key); err != nil {
			return err
		}
		return tx.PutSecret(name, key)
	})
	return key, err
}

// pendingAccount is an account to make for a new member: its name, password and hash.
type pendingAccount struct{ name, password, hash string }

// freshAccounts lists the members with no account yet, with a new password each (hashed
// before any transaction: bcrypt is slow by design).
func (s *Service) freshAccounts(ctx context.Context, members []Member) ([]pendingAccount, error) {
	var fresh []pendingAccount
	err := s.store.Read(ctx, func(r Reader) error {
		for _, m := range members {
			if _, err := r.AccountByName(m.Name); errors.Is(err, domain.ErrNotFound) {
				fresh = append(fresh, pendingAccount{name: strings.TrimSpace(m.Name)})
			} else if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range fresh {
		p, err := s.NewPassword()
		if err != nil {
			return nil, err
		}
		if fresh[i].hash, err = s.hash(p); err != nil {
			return nil, err
		}
		fresh[i].password = p
	}
	return fresh, nil
}

// makeAccounts stores the pending accounts.
func (s *Service) makeAccounts(tx Tx, fresh []pendingAccount, now time.Time) ([]NewAccount, error) {
	names := make([]string, len(fresh))
	for i, f := range fresh {
		names[i] = f.name
	}
	if err := noLookalikeAccount(tx, names...); err != nil {
		return nil, err
	}
	out := []NewAccount{}
	for _, f := range fresh {
		acc := &Account{Name: f.name, PasswordHash: f.hash, TokenVersion: 1, CreatedAt: now}
		if err := tx.CreateAccount(acc); err != nil {
			return nil, err
		}
		out = append(out, NewAccount{Account: acc, Password: f.password})
	}
	return out, nil
}
