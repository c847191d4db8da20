package api_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/coalition-wargame/coalition/api"
	"github.com/coalition-wargame/coalition/campaign"
)

// gathered is every series of reg as name{label="value",…} → its value (a histogram's count).
func gathered(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+`"`+l.GetValue()+`"`)
			}
			name := f.GetName()
			if len(labels) > 0 {
				name += "{" + strings.Join(labels, ",") + "}"
			}
			switch {
			case m.GetCounter() != nil:
				out[name] = m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				out[name] = m.GetGauge().GetValue()
			case m.GetHistogram() != nil:
				out[name] = float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return out
}

// Issue 16.6: what the service reports of its locks, backups and sweeps becomes Prometheus
// series: locks by outcome and by whom, the lag of the scheduler's successful locks only, the
// backups by outcome with the last good one's size and time, the last sweep's due and overdue.
func TestSweepMetricsSeries(t *testing.T) {
	reg := prometheus.NewRegistry()
	at := time.Date(2026, 3, 9, 5, 0, 0, 0, time.UTC)
	m := api.NewSweepMetrics(reg, func() time.Time { return at })
	m.Lock(campaign.LockRecord{Outcome: "locked", Scheduled: true, Took: 20 * time.Millisecond, Lag: 40 * time.Second})
	m.Lock(campaign.LockRecord{Outcome: "abandoned", Scheduled: true, Took: time.Minute, Lag: 2 * time.Minute})
	m.Lock(campaign.LockRecord{Outcome: "locked", Took: 10 * time.Millisecond})
	m.Backup(campaign.BackupRecord{Took: 300 * time.Millisecond, Size: 1 << 20})
	m.Backup(campaign.BackupRecord{Err: errors.New("disk full")})
	m.Sweep(campaign.SweepRecord{Due: 2, Locked: 1, Failed: 1, Took: time.Minute, Overdue: 2 * time.Minute})
	got := gathered(t, reg)
	for series, want := range map[string]float64{
		`coalition_locks_total{by="scheduler",outcome="locked"}`:    1,
		`coalition_locks_total{by="scheduler",outcome="abandoned"}`: 1,
		`coalition_locks_total{by="judge",outcome="locked"}`:        1,
		`coalition_lock_duration_seconds{by="scheduler"}`:           2,
		`coalition_lock_duration_seconds{by="judge"}`:               1,
		`coalition_lock_lag_seconds`:                                1,
		`coalition_lock_sweeps_total`:                               1,
		`coalition_lock_sweep_due`:                                  2,
		`coalition_lock_overdue_seconds`:                            120,
		`coalition_backups_total{outcome="ok"}`:                     1,
		`coalition_backups_total{outcome="failed"}`:                 1,
		`coalition_backup_duration_seconds`:                         1,
		`coalition_backup_size_bytes`:                               1 << 20,
		`coalition_backup_last_success_timestamp_seconds`:           float64(at.Unix()),
	} {
		if got[series] != want {
			t.Errorf("%s = %v, want %v", series, got[series], want)
		}
	}
}
