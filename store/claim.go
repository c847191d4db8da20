// Claims across servers: a campaign taken for a lock by one transaction, so that servers sharing
// one PostgreSQL database do not adjudicate the same turn at once (issue 16.5).

package store

// claimSpace is the first key of the campaigns' PostgreSQL advisory locks ("coal"), apart from
// the single-key space goose's migration lock uses.
const claimSpace = 0x636f616c

// ClaimCampaign takes a transaction-scoped advisory lock on campaign id on PostgreSQL, without
// waiting: false when another transaction holds it. SQLite's one writer is alone already.
func (t *txn) ClaimCampaign(id int64) (bool, error) {
	if t.db.Dialector.Name() != "postgres" {
		return true, nil
	}
	var ok bool
	err := t.db.Raw("SELECT pg_try_advisory_xact_lock(?, ?)", claimSpace, int32(id)).Scan(&ok).Error
	return ok, err
}
