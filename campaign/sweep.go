// The lock sweep (C3, R96): every due turn locked once, each campaign's lock alone among that
// campaign's and within a time budget, a failure recorded for the judges and retried next tick,
// one backup before the sweep, and what it did reported to the metrics.

package campaign

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// ErrAbandoned marks a lock that ran past its time budget: its transaction was rolled back,
// and the scheduler tries it again at the next tick (R96).
var ErrAbandoned = errors.New("lock abandoned")

// ErrBusy marks a lock that could not start because another lock of the same campaign was
// still running (an abandoned attempt that has not returned yet, or a judge's).
var ErrBusy = errors.New("campaign busy")

// lockFailure is a lock that did not run to its end for want of time: a conflict for the
// judge who asked (409, with the reason), a failure the scheduler records and retries.
type lockFailure struct {
	kind error
	msg  string
}

func (e *lockFailure) Error() string { return e.msg }

// Unwrap makes a lockFailure both its kind and a domain.ErrConflict.
func (e *lockFailure) Unwrap() []error { return []error{e.kind, domain.ErrConflict} }

// retried reports whether err is a lock that did not run for want of time, which the
// scheduler records and retries, unlike a turn that is simply locked already.
func retried(err error) bool { return errors.Is(err, ErrAbandoned) || errors.Is(err, ErrBusy) }

// campaignLocks lets one lock of each campaign run at a time in this process, and any number
// of campaigns' locks at once.
type campaignLocks struct {
	mu   sync.Mutex
	held map[int64]*campaignLock
}

// campaignLock is one campaign's: a semaphore, and whether its holder was abandoned.
type campaignLock struct {
	sem       chan struct{}
	abandoned bool
}

func (k *campaignLocks) get(id int64) *campaignLock {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.held == nil {
		k.held = map[int64]*campaignLock{}
	}
	l, ok := k.held[id]
	if !ok {
		l = &campaignLock{sem: make(chan struct{}, 1)}
		k.held[id] = l
	}
	return l
}

// acquire takes campaign id's lock, waiting for a running lock of it until ctx is done, but not
// for one that was abandoned and has not returned yet; release gives it back.
func (k *campaignLocks) acquire(ctx context.Context, id int64) (release func(), err error) {
	l := k.get(id)
	release = func() {
		k.mu.Lock()
		l.abandoned = false
		k.mu.Unlock()
		<-l.sem
	}
	select {
	case l.sem <- struct{}{}:
		return release, nil
	default:
	}
	k.mu.Lock()
	stuck := l.abandoned
	k.mu.Unlock()
	if stuck {
		return nil, ErrBusy
	}
	select {
	case l.sem <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, ErrBusy
	}
}

// abandon notes that campaign id's running lock was abandoned.
func (k *campaignLocks) abandon(id int64) {
	l := k.get(id)
	k.mu.Lock()
	l.abandoned = true
	k.mu.Unlock()
}

// budget is a lock's time: its context is canceled when the budget runs out, which rolls its
// transaction back. The wait for the database's writer does not count (pause, restart): a lock
// stuck in its transaction holds an SQLite writer for at most one budget, after which the next
// lock gets a whole budget of its own.
type budget struct {
	ctx     context.Context
	cancel  context.CancelFunc
	d       time.Duration
	timer   *time.Timer
	expired chan struct{}
	once    sync.Once
}

func newBudget(parent context.Context, d time.Duration) *budget {
	b := &budget{d: d, expired: make(chan struct{})}
	b.ctx, b.cancel = context.WithCancel(parent)
	b.timer = time.AfterFunc(d, b.expire)
	return b
}

func (b *budget) expire() {
	b.once.Do(func() {
		close(b.expired)
		b.cancel()
	})
}

func (b *budget) pause()   { b.timer.Stop() }
func (b *budget) restart() { b.timer.Reset(b.d) }
func (b *budget) stop()    { b.timer.Stop(); b.cancel() }

// write runs fn in one transaction within the budget, not counting the wait for the writer.
func (b *budget) write(st Store, fn func(Tx) error) error {
	b.pause()
	return st.Write(b.ctx, func(tx Tx) error {
		b.restart()
		return fn(tx)
	})
}

// guarded runs body as campaign id's one running lock, within the lock budget; what names the
// work for the failure's message. It waits at most a budget for a running lock of the campaign.
// A body that outlives its budget is abandoned: its context is canceled (its transaction rolled
// back), the caller gets an ErrAbandoned at once, and the campaign stays taken until the body
// returns, so that no second attempt overlaps it (a later one fails at once, ErrBusy).
func (s *Service) guarded(ctx context.Context, id int64, what string, body func(*budget) error) error {
	wctx, cancel := context.WithTimeout(ctx, s.opt.LockBudget)
	release, err := s.campaigns.acquire(wctx, id)
	cancel()
	if err != nil {
		return &lockFailure{kind: ErrBusy, msg: fmt.Sprintf("%s could not start: another lock of this campaign is still running (the scheduler tries again at its next tick)", what)}
	}
	b := newBudget(ctx, s.opt.LockBudget)
	done := make(chan error, 1)
	go func() {
		defer release()
		defer b.stop()
		done <- body(b)
	}()
	select {
	case err := <-done:
		return err
	case <-b.expired:
	case <-ctx.Done():
	}
	select {
	case err := <-done:
		return err
	default:
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	s.campaigns.abandon(id)
	return &lockFailure{kind: ErrAbandoned, msg: fmt.Sprintf("%s took longer than its budget of %s and was abandoned, changing nothing; it is tried again at the next tick (R96)", what, s.opt.LockBudget)}
}

// LockOutcome names a turn the scheduler locked, or failed to lock and why.
type LockOutcome struct {
	Campaign int64  `json:"campaign"`
	Turn     int    `json:"turn"`
	Error    string `json:"error,omitempty"`
}

// SweepMetrics receives what the scheduler's sweeps, the locks and the backups did, for
// monitoring (package api keeps them as Prometheus series).
type SweepMetrics interface {
	// Lock is called after every lock attempt.
	Lock(LockRecord)
	// Backup is called after every backup attempt.
	Backup(BackupRecord)
	// Sweep is called after every sweep of the scheduler.
	Sweep(SweepRecord)
}

// LockRecord is one lock attempt.
type LockRecord struct {
	// Outcome is locked, failed (the lock's own error), abandoned (its budget ran out), busy
	// (another lock of the campaign was running) or conflict (locked already, by another
	// server or a judge).
	Outcome string
	// Scheduled is set for the scheduler's locks, unset for a judge's.
	Scheduled bool
	// Took is the attempt's time, Lag how long after the turn's lock time it ended (scheduled
	// locks only).
	Took, Lag time.Duration
}

// BackupRecord is one backup attempt: its time, the file's size, and its error if it failed.
type BackupRecord struct {
	Took time.Duration
	Size int64
	Err  error
}

// SweepRecord is one sweep: how many turns were due, locked and failed, how long it took, and
// how far behind its lock time the oldest turn it left open is (0 when it left none).
type SweepRecord struct {
	Due, Locked, Failed int
	Took, Overdue       time.Duration
}

// noMetrics records nothing.
type noMetrics struct{}

func (noMetrics) Lock(LockRecord)     {}
func (noMetrics) Backup(BackupRecord) {}
func (noMetrics) Sweep(SweepRecord)   {}

// lockOutcome names what err makes of a lock attempt, for the metrics.
func lockOutcome(err error) string {
	switch {
	case err == nil:
		return "locked"
	case errors.Is(err, ErrAbandoned):
		return "abandoned"
	case errors.Is(err, ErrBusy):
		return "busy"
	case errors.Is(err, domain.ErrConflict):
		return "conflict"
	}
	return "failed"
}

// LockDue locks every open turn whose lock time has passed, in campaigns that are not paused,
// and publishes every turn whose after-lock edit window has run out (6.3.2). It is idempotent —
// a turn is locked once, ever — so the scheduler calls it on every tick and once after start-up,
// to run a lock that fell due while the server was down (C3). It backs the database up once
// before it locks anything, and locks the due turns LockWorkers at a time, each campaign's
// alone and within the lock budget; a lock that fails or runs out of time is recorded on its
// turn for the judges and tried again next tick (R96).
func (s *Service) LockDue(ctx context.Context) ([]LockOutcome, error) {
	started := time.Now()
	var open []OpenTurn
	if err := s.store.Read(ctx, func(r Reader) (err error) {
		open, err = r.OpenTurns()
		return err
	}); err != nil {
		return nil, err
	}
	now := s.now()
	var due []OpenTurn
	for _, o := range open {
		if !o.Paused && !now.Before(o.LockAt) {
			due = append(due, o)
		}
	}
	var out []LockOutcome
	rec := SweepRecord{Due: len(due)}
	if len(due) > 0 {
		if err := s.backupBefore(ctx, due); err != nil {
			// no lock without a good copy to go back to: each due turn says why, and the next
			// tick tries again
			for _, o := range due {
				out = append(out, s.failed(ctx, o, fmt.Errorf("the backup before the lock failed: %w", err)))
			}
		} else {
			out = s.lockAll(ctx, due)
		}
	}
	failed := map[[2]int64]bool{}
	for _, o := range out {
		if o.Error != "" {
			rec.Failed++
			failed[[2]int64{o.Campaign, int64(o.Turn)}] = true
		} else {
			rec.Locked++
		}
	}
	for _, o := range due {
		if failed[[2]int64{o.CampaignID, int64(o.Number)}] {
			rec.Overdue = max(rec.Overdue, s.now().Sub(o.LockAt))
		}
	}
	s.retrying.Lock()
	s.retrying.failed = failed
	s.retrying.Unlock()
	out = append(out, s.closeEdits(ctx, now)...)
	rec.Took = time.Since(started)
	s.metrics.Sweep(rec)
	return out, ctx.Err()
}

// lockAll locks the due turns, LockWorkers at a time, and lists what happened to each in the
// order given (a turn another server or a judge locked first is left out).
func (s *Service) lockAll(ctx context.Context, due []OpenTurn) []LockOutcome {
	results := make([]*LockOutcome, len(due))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(s.opt.LockWorkers, len(due)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = s.lockScheduled(ctx, due[i])
			}
		}()
	}
	for i := range due {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	var out []LockOutcome
	for _, r := range results {
		if r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// lockScheduled locks one due turn for the scheduler; nil when it was locked already.
func (s *Service) lockScheduled(ctx context.Context, o OpenTurn) *LockOutcome {
	start := time.Now()
	_, err := s.lockTurn(ctx, Actor{As: Scheduler}, o.CampaignID, o.Number, "lock time reached")
	s.metrics.Lock(LockRecord{Outcome: lockOutcome(err), Scheduled: true, Took: time.Since(start), Lag: s.now().Sub(o.LockAt)})
	switch {
	case errors.Is(err, domain.ErrConflict) && !retried(err):
		return nil
	case err != nil:
		out := s.failed(ctx, o, err)
		return &out
	}
	s.opt.Log.Info("turn locked on schedule", "campaign", o.CampaignID, "turn", o.Number)
	return &LockOutcome{Campaign: o.CampaignID, Turn: o.Number}
}

// failed logs a scheduled lock's failure and records it on the turn for the judges.
func (s *Service) failed(ctx context.Context, o OpenTurn, cause error) LockOutcome {
	s.opt.Log.Error("scheduled lock failed", "campaign", o.CampaignID, "turn", o.Number, "err", cause)
	if err := s.noteLockError(ctx, o.CampaignID, o.Number, cause); err != nil && ctx.Err() == nil {
		s.opt.Log.Error("recording the lock failure failed", "campaign", o.CampaignID, "turn", o.Number, "err", err)
	}
	return LockOutcome{Campaign: o.CampaignID, Turn: o.Number, Error: cause.Error()}
}

func (s *Service) noteLockError(ctx context.Context, id int64, n int, cause error) error {
	return s.store.Write(ctx, func(tx Tx) error {
		t, err := tx.Turn(id, n)
		if err != nil || t.Status != Open {
			return err
		}
		t.LockError = cause.Error()
		return tx.UpdateTurnTiming(t)
	})
}

// backupEvery is how often a sweep that only retries the locks that failed in the sweep before
// backs the database up: a lock waiting days for a battle's result does not fill the backup
// folder with a copy a minute.
const backupEvery = time.Hour

// backupBefore backs the database up before the sweep locks the due turns, unless every one of
// them failed in the sweep before and the last backup is less than backupEvery old (R96).
func (s *Service) backupBefore(ctx context.Context, due []OpenTurn) error {
	s.retrying.Lock()
	retry := s.now().Sub(s.retrying.backedUp) < backupEvery
	for _, o := range due {
		retry = retry && s.retrying.failed[[2]int64{o.CampaignID, int64(o.Number)}]
	}
	s.retrying.Unlock()
	if retry {
		return nil
	}
	if err := s.backup(ctx, "before the lock sweep"); err != nil {
		return err
	}
	s.retrying.Lock()
	s.retrying.backedUp = s.now()
	s.retrying.Unlock()
	return nil
}

// backup copies the database to the backup folder, once at a time, and reports it; why says
// what it comes before, for the log.
func (s *Service) backup(ctx context.Context, why string) error {
	b, ok := s.store.(Backupper)
	if !ok || s.opt.BackupDir == "" {
		return nil
	}
	s.backups.Lock()
	defer s.backups.Unlock()
	s.cleanBackups(ctx, b)
	start := time.Now()
	f, err := b.Backup(ctx, s.opt.BackupDir, s.opt.BackupKeep, s.now())
	s.metrics.Backup(BackupRecord{Took: time.Since(start), Size: f.Size, Err: err})
	if err != nil {
		return err
	}
	s.opt.Log.Info("backup written "+why, "path", f.Path, "bytes", f.Size, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// CleanBackups removes what a crash left in the backup folder (partial copies, their journals)
// and sets aside a backup that does not pass its check, once per process; the first backup
// does it too. The server calls it at start-up, after it listens.
func (s *Service) CleanBackups(ctx context.Context) {
	b, ok := s.store.(Backupper)
	if !ok || s.opt.BackupDir == "" {
		return
	}
	s.backups.Lock()
	defer s.backups.Unlock()
	s.cleanBackups(ctx, b)
}

// cleanBackups is CleanBackups with the backups' lock held.
func (s *Service) cleanBackups(ctx context.Context, b Backupper) {
	if s.cleaned {
		return
	}
	c, err := b.CleanBackups(ctx, s.opt.BackupDir)
	if err != nil {
		s.opt.Log.Error("cleaning the backup folder failed", "dir", s.opt.BackupDir, "err", err)
		return
	}
	s.cleaned = true
	for _, p := range c.Removed {
		s.opt.Log.Warn("removed a partial backup a crash left", "path", p)
	}
	for _, p := range c.Bad {
		s.opt.Log.Warn("set aside a backup that fails its check: it does not count among the kept ones", "path", p)
	}
}
