// Prometheus metrics of the lock scheduler and the backups (issue 16.6): locks by outcome, their
// duration and lag behind their lock time, sweeps, and the backups' duration and size.

package api

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/coalition-wargame/coalition/campaign"
)

// SweepMetrics keeps what campaign.Service reports of its locks, backups and sweeps as
// Prometheus series; it is a campaign.SweepMetrics.
type SweepMetrics struct {
	clock        func() time.Time
	locks        *prometheus.CounterVec
	lockDuration *prometheus.HistogramVec
	lockLag      prometheus.Histogram
	sweeps       prometheus.Counter
	sweepTook    prometheus.Histogram
	due          prometheus.Gauge
	overdue      prometheus.Gauge
	backups      *prometheus.CounterVec
	backupTook   prometheus.Histogram
	backupSize   prometheus.Gauge
	backupLast   prometheus.Gauge
}

var _ campaign.SweepMetrics = (*SweepMetrics)(nil)

// NewSweepMetrics registers the scheduler's and the backups' series on reg; clock stamps the
// last good backup (time.Now when nil).
func NewSweepMetrics(reg prometheus.Registerer, clock func() time.Time) *SweepMetrics {
	if clock == nil {
		clock = time.Now
	}
	seconds := []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120}
	m := &SweepMetrics{
		clock: clock,
		locks: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "coalition", Name: "locks_total",
			Help: "Lock attempts by outcome (locked, failed, abandoned: past its budget, busy: an abandoned attempt still running, conflict: locked already) and by whom (scheduler, judge)."}, []string{"outcome", "by"}),
		lockDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "coalition", Name: "lock_duration_seconds",
			Help: "How long a lock attempt took, its wait for the database's writer included.", Buckets: seconds}, []string{"by"}),
		lockLag: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "coalition", Name: "lock_lag_seconds",
			Help:    "How long after its lock time a scheduled lock ended (C3), for the locks that succeeded.",
			Buckets: []float64{1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 6 * 3600, 24 * 3600}}),
		sweeps: prometheus.NewCounter(prometheus.CounterOpts{Namespace: "coalition", Name: "lock_sweeps_total",
			Help: "Sweeps of the lock scheduler (one a tick, and one after start-up)."}),
		sweepTook: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "coalition", Name: "lock_sweep_duration_seconds",
			Help: "How long a sweep took, its backup included.", Buckets: append(seconds, 300, 600)}),
		due: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "coalition", Name: "lock_sweep_due",
			Help: "How many turns the last sweep found due."}),
		overdue: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "coalition", Name: "lock_overdue_seconds",
			Help: "How far behind its lock time the oldest turn the last sweep failed to lock is (0: none)."}),
		backups: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "coalition", Name: "backups_total",
			Help: "Backups before the locks, by outcome (ok, failed)."}, []string{"outcome"}),
		backupTook: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: "coalition", Name: "backup_duration_seconds",
			Help: "How long a backup took: the copy, its sync and its check.", Buckets: append(seconds, 300, 600)}),
		backupSize: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "coalition", Name: "backup_size_bytes",
			Help: "The size of the last good backup."}),
		backupLast: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: "coalition", Name: "backup_last_success_timestamp_seconds",
			Help: "When the last good backup was made (Unix time)."}),
	}
	reg.MustRegister(m.locks, m.lockDuration, m.lockLag, m.sweeps, m.sweepTook, m.due, m.overdue, m.backups, m.backupTook, m.backupSize, m.backupLast)
	return m
}

// Lock counts a lock attempt.
func (m *SweepMetrics) Lock(r campaign.LockRecord) {
	by := "judge"
	if r.Scheduled {
		by = "scheduler"
	}
	m.locks.WithLabelValues(r.Outcome, by).Inc()
	m.lockDuration.WithLabelValues(by).Observe(r.Took.Seconds())
	if r.Scheduled && r.Outcome == "locked" {
		m.lockLag.Observe(max(r.Lag, 0).Seconds())
	}
}

// Backup counts a backup attempt.
func (m *SweepMetrics) Backup(r campaign.BackupRecord) {
	if r.Err != nil {
		m.backups.WithLabelValues("failed").Inc()
		return
	}
	m.backups.WithLabelValues("ok").Inc()
	m.backupTook.Observe(r.Took.Seconds())
	m.backupSize.Set(float64(r.Size))
	m.backupLast.Set(float64(m.clock().UnixNano()) / 1e9)
}

// Sweep counts a sweep.
func (m *SweepMetrics) Sweep(r campaign.SweepRecord) {
	m.sweeps.Inc()
	m.sweepTook.Observe(r.Took.Seconds())
	m.due.Set(float64(r.Due))
	m.overdue.Set(r.Overdue.Seconds())
}
