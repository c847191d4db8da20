// The store port: what the workflow asks of a store, which package store implements.

package campaign

import (
	"context"
	"time"
)

// Store keeps the server's accounts and campaigns. package store implements it on SQLite
// or PostgreSQL; every method reports a missing row as domain.ErrNotFound and a broken
// uniqueness rule as domain.ErrConflict.
type Store interface {
	// Write runs fn in one write transaction: every change fn makes is kept, or none is.
	Write(ctx context.Context, fn func(Tx) error) error
	// Read runs fn on a consistent, read-only view.
	Read(ctx context.Context, fn func(Reader) error) error
	// Peek runs fn on the read-only pool without a transaction, for the hot paths that
	// read one row at a time: each read sees the latest commit.
	Peek(ctx context.Context, fn func(Reader) error) error
	// State is the state version as of now (Reader.StateVersion): a store that is the only
	// writer of its database (SQLite, one process) answers from memory, advanced by its own
	// commits; a shared one (PostgreSQL) reads it.
	State(ctx context.Context) (int64, error)
}

// Backupper is a store that can copy itself to a file before a lock.
type Backupper interface {
	// Backup writes a checked copy of the whole database to a new file in dir named after at,
	// under a temporary name until it is complete, synced and checked, so that a crash never
	// leaves a file that looks like a backup; it keeps the newest keep copies.
	Backup(ctx context.Context, dir string, keep int, at time.Time) (BackupFile, error)
	// CleanBackups removes what a crash left in dir (partial copies and their journals) and
	// sets aside backups that fail their check.
	CleanBackups(ctx context.Context, dir string) (BackupClean, error)
}

// BackupFile is a backup written: its path and size in bytes.
type BackupFile struct {
	Path string
	Size int64
}

// BackupClean is what cleaning the backup folder did: the leftovers removed, the bad backups
// set aside, and how many good ones are there.
type BackupClean struct {
	Removed, Bad []string
	Good         int
}

// Reader is what a read-only view offers.
type Reader interface {
	// Secret returns a server secret by name.
	Secret(name string) ([]byte, error)
	// CountAccounts counts the accounts.
	CountAccounts() (int, error)
	// Account returns an account by id.
	Account(id int64) (*Account, error)
	// AccountByName finds an account by domain.NameKey of its name.
	AccountByName(name string) (*Account, error)
	// Accounts lists every account by id.
	Accounts() ([]Account, error)

	// Campaign returns a campaign by id.
	Campaign(id int64) (*Campaign, error)
	// CampaignVersion is a campaign's MapVersion, read cheaply.
	CampaignVersion(id int64) (int64, error)
	// Campaigns lists every campaign by id.
	Campaigns() ([]Campaign, error)
	// Members lists a campaign's members by name.
	Members(campaign int64) ([]Member, error)
	// Member returns the account's membership, or domain.ErrNotFound.
	Member(campaign, account int64) (*Member, error)

	// Turn returns turn number n of a campaign; LatestTurn the one with the highest number.
	Turn(campaign int64, n int) (*Turn, error)
	// LatestTurn returns the turn with the highest number.
	LatestTurn(campaign int64) (*Turn, error)
	// Turns lists a campaign's turns without their snapshots and reports.
	Turns(campaign int64) ([]Turn, error)
	// OpenTurns lists the open turns of campaigns that are not finished.
	OpenTurns() ([]OpenTurn, error)

	// Posts lists a turn's posts, withdrawn ones included, by id.
	Posts(campaign int64, turn int) ([]Post, error)
	// Post returns a post by id.
	Post(id int64) (*Post, error)
	// Results lists a turn's battle results.
	Results(turnID int64) ([]Result, error)
	// Control lists a campaign's control-list entries by effective time, then id.
	Control(campaign int64) ([]ControlEntry, error)
	// Audit lists the newest audit entries first; campaign 0 means the whole server.
	Audit(campaign int64, limit int) ([]AuditEntry, error)
	// StateVersion is the state version: every write but a post's increments it (BumpState),
	// so that what was cached at one version is current while it stays the same.
	StateVersion() (int64, error)
	// Idempotency returns the record of an account's idempotency key, or domain.ErrNotFound.
	Idempotency(account int64, key string) (*IdempotencyRecord, error)
	DeskReader
	MercenaryReader
	NotifyReader
	RoundReader
	CorrectionReader
	GovernReader
	FormatsReader
}

// Tx is a write transaction.
type Tx interface {
	Reader
	// PutSecret stores a new server secret.
	PutSecret(name string, value []byte) error
	// CreateAccount stores a new account and sets its id.
	CreateAccount(a *Account) error
	// UpdateAccount stores an account's password hash, admin flag and token version.
	UpdateAccount(a *Account) error
	// CreateCampaign stores a new campaign and sets its id.
	CreateCampaign(c *Campaign) error
	// UpdateCampaign stores a campaign's status, pause, settings and map version.
	UpdateCampaign(c *Campaign) error
	// PutMember adds a membership or replaces it.
	PutMember(m *Member) error
	// CreateTurn stores a new turn; a second turn of the same number is a conflict.
	CreateTurn(t *Turn) error
	// UpdateTurnTiming stores a turn's deadline, lock time, extension, lock error and the end of
	// its after-lock edit window.
	UpdateTurnTiming(t *Turn) error
	// ClaimCampaign takes campaign id for a lock until the transaction ends, if no other
	// transaction (another server's) holds it: false when one does. On SQLite, whose one writer
	// is alone already, it is always true.
	ClaimCampaign(id int64) (bool, error)
	// LockTurn marks an open turn locked with its report, in one conditional update; it
	// reports false when the turn was not open (a turn is locked once, ever).
	LockTurn(t *Turn) (bool, error)
	// CreatePost stores a new post with its transfer details and sets its id.
	CreatePost(p *Post) error
	// CreatePosts stores new posts in one statement and sets their ids.
	CreatePosts(ps []*Post) error
	// WithdrawPost marks a post withdrawn at a time; withdrawing it twice is a conflict.
	WithdrawPost(id int64, at time.Time) error
	// PutResult stores a battle result, replacing an earlier one for the same square.
	PutResult(r *Result) error
	// AddControl appends an entry to the control list and sets its id.
	AddControl(e *ControlEntry) error
	// AddAudit appends an entry to the audit log and sets its id.
	AddAudit(e *AuditEntry) error
	// AddAudits appends entries to the audit log in one statement and sets their ids.
	AddAudits(es []*AuditEntry) error
	// BumpState increments the state version and returns the new one.
	BumpState() (int64, error)
	// PutIdempotency stores a new idempotency record; the same account and key twice is a
	// conflict.
	PutIdempotency(r *IdempotencyRecord) error
	// PutIdempotencies stores new idempotency records in one statement; an account and key
	// stored already is a conflict.
	PutIdempotencies(rs []*IdempotencyRecord) error
	// AnswerIdempotency stores the answer (status, content type, body) of a stored record.
	AnswerIdempotency(r *IdempotencyRecord) error
	// ExpireIdempotency deletes the records made before a time.
	ExpireIdempotency(before time.Time) error
	DeskWriter
	MercenaryWriter
	NotifyWriter
	RoundWriter
	CorrectionWriter
	GovernWriter
	FormatsWriter
}

// DeskReader is what the battle desk, the army edits and the card corrections read from a
// store (package store implements it with the rest of Reader).
type DeskReader interface {
	// Strategies lists a turn's battle strategies by id.
	Strategies(turnID int64) ([]Strategy, error)
	// Proposals lists a turn's battle proposals by square.
	Proposals(turnID int64) ([]ProposalRecord, error)
	// Formulas lists every version of a campaign's battle formulas by id.
	Formulas(campaign int64) ([]FormulaVersion, error)
	// Sanctions lists a turn's sanctions by id.
	Sanctions(turnID int64) ([]Sanction, error)
	// Amendments lists a turn's army amendments by id.
	Amendments(turnID int64) ([]Amendment, error)
	// CardCorrections lists the judges' card corrections in the order first made.
	CardCorrections() ([]CardCorrection, error)
}

// DeskWriter is what the battle desk, the army edits and the card corrections write.
type DeskWriter interface {
	// PutStrategy stores a strategy, replacing the one of the same turn, army and
	// contingency flag; it sets the id.
	PutStrategy(s *Strategy) error
	// PutProposal stores a proposal, replacing the one of the same turn and square; it sets
	// the id.
	PutProposal(p *ProposalRecord) error
	// AddFormula stores a new version of a formula; a version given twice is a conflict.
	AddFormula(f *FormulaVersion) error
	// AddSanction stores a sanction and sets its id; the same k twice for an army is a conflict.
	AddSanction(s *Sanction) error
	// AddAmendment stores an army amendment and sets its id.
	AddAmendment(a *Amendment) error
	// PutCardCorrection stores a judge's card, replacing one of the same name.
	PutCardCorrection(c *CardCorrection) error
}
