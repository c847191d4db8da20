// Replays: a locked turn adjudicated again from what is stored and compared byte for byte.

package campaign

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/turn"
)

// ReplayResult says whether adjudicating a locked turn again from what is stored gives the
// same report and the same next map, byte for byte.
type ReplayResult struct {
	Campaign   int64  `json:"campaign"`
	Turn       int    `json:"turn"`
	Same       bool   `json:"same"`
	ReportSame bool   `json:"report_same"`
	MapSame    bool   `json:"map_same"`
	Detail     string `json:"detail"`
}

// Replay adjudicates a locked turn again from its stored opening map, control list, posts,
// transfer details, results and seed, and compares the outcome with the stored report and
// the next turn's opening map (judges only).
func (s *Service) Replay(ctx context.Context, a Actor, id int64, n int) (*ReplayResult, error) {
	ai, _, err := s.aiSetupFor(ctx, id, n)
	if err != nil {
		return nil, err
	}
	var out *ReplayResult
	err = s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		if err := x.need("replay a turn (judges only)", mayReplay(x)); err != nil {
			return err
		}
		out, err = replay(r, id, n, ai)
		return err
	})
	return out, err
}

// ReplayTurn is Replay for the command line, which has the database itself in hand.
func (s *Service) ReplayTurn(ctx context.Context, id int64, n int) (*ReplayResult, error) {
	ai, _, err := s.aiSetupFor(ctx, id, n)
	if err != nil {
		return nil, err
	}
	var out *ReplayResult
	err = s.store.Read(ctx, func(r Reader) (err error) {
		out, err = replay(r, id, n, ai)
		return err
	})
	return out, err
}

func replay(r Reader, id int64, n int, ai *aiSetup) (*ReplayResult, error) {
	t, err := r.Turn(id, n)
	if err != nil {
		return nil, err
	}
	if t.Status != Locked {
		return nil, domain.Errorf(domain.ErrConflict, "turn %d is not locked: there is nothing to replay", n)
	}
	if t.Editing() {
		return nil, domain.Errorf(domain.ErrConflict, "turn %d waits for the mercenary judge's after-lock edit: its update is not published yet", n)
	}
	next, err := r.Turn(id, n+1)
	if err != nil {
		return nil, err
	}
	m, in, err := lockInput(r, t, *t.ControlAt, t.ControlSeq, ai)
	if err != nil {
		return nil, err
	}
	nm, rep, err := turn.Run(m, in)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(rep)
	if err != nil {
		return nil, err
	}
	got, err := encodeMap(nm)
	if err != nil {
		return nil, err
	}
	want, err := next.Snapshot.Encode()
	if err != nil {
		return nil, err
	}
	res := &ReplayResult{Campaign: id, Turn: n, ReportSame: bytes.Equal(body, t.Report), MapSame: bytes.Equal(got, want)}
	res.Same = res.ReportSame && res.MapSame
	switch {
	case res.Same:
		res.Detail = fmt.Sprintf("turn %d adjudicated again gives the same report (%d bytes) and the same next map (%d bytes)", n, len(body), len(got))
	case !res.ReportSame:
		res.Detail = fmt.Sprintf("turn %d adjudicated again gives a different report: %s", n, firstDiff(t.Report, body))
	default:
		res.Detail = fmt.Sprintf("turn %d adjudicated again gives a different next map: %s", n, firstDiff(want, got))
	}
	return res, nil
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-40)
	cut := func(x []byte) string { return string(x[lo:min(len(x), i+40)]) }
	return fmt.Sprintf("stored …%s… vs replayed …%s… (byte %d)", cut(a), cut(b), i)
}
