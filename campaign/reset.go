// An admin's password reset: the account gets a new password, its tokens stop working, and it
// must choose its own password before it does anything else.

package campaign

import (
	"context"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// ResetPassword gives an account a new password (random when password is empty), ends its
// tokens and makes it change the password at its next login (admins only). The password is
// returned once.
func (s *Service) ResetPassword(ctx context.Context, a Actor, name, password string) (*NewAccount, error) {
	x := access{actor: a}
	if err := x.need("reset passwords (admins only)", mayResetPassword(x)); err != nil {
		return nil, err
	}
	password, h, err := s.passwordHash(password)
	if err != nil {
		return nil, err
	}
	var acc *Account
	err = s.store.Write(ctx, func(tx Tx) error {
		var err error
		if acc, err = tx.AccountByName(strings.TrimSpace(name)); err != nil {
			return domain.Errorf(domain.ErrNotFound, "there is no account named %q", name)
		}
		acc.PasswordHash, acc.MustChange = h, true
		acc.TokenVersion++
		if err := tx.UpdateAccount(acc); err != nil {
			return err
		}
		return s.audit(tx, 0, a, "account.reset", "reset the password of %s (it must be changed at the next login)", acc.Name)
	})
	if err != nil {
		return nil, err
	}
	return &NewAccount{Account: acc, Password: password}, nil
}
