// The audit log: every state-changing action, with who, when and from where.

package campaign

import (
	"context"
	"fmt"
)

func (s *Service) audit(tx Tx, campaign int64, a Actor, action, format string, args ...any) error {
	return tx.AddAudit(&AuditEntry{CampaignID: campaign, At: s.now(), Actor: a.Name(), Action: action, Detail: fmt.Sprintf(format, args...), IP: a.IP})
}

// Audit lists the newest audit entries of a campaign (its judges and the admins), or of the
// whole server when campaign is 0 (admins only).
func (s *Service) Audit(ctx context.Context, a Actor, id int64, limit int) ([]AuditEntry, error) {
	if limit <= 0 || limit > 1000 {
		limit = 200
	}
	var out []AuditEntry
	err := s.store.Read(ctx, func(r Reader) error {
		if id == 0 {
			x := access{actor: a}
			if err := x.need("read the server's audit log (admins only)", mayReadServerAudit(x)); err != nil {
				return err
			}
		} else {
			_, x, err := campaignAccess(r, a, id)
			if err != nil {
				return err
			}
			if err := x.need("read the audit log (judges only)", mayReadAudit(x)); err != nil {
				return err
			}
		}
		var err error
		out, err = r.Audit(id, limit)
		return err
	})
	return nonNil(out), err
}
