// Corrections of locked turns (3.3.3): the battle judge overrules a line's outcome, a battle's
// result or a day count with a reason; the turn and every later one are adjudicated again from
// their stored inputs, the changes shown before they are confirmed, the originals kept.

package campaign

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/movement"
	"github.com/coalition-wargame/coalition/turn"
)

// CorrectionRequest is what the battle judge corrects in a locked turn (3.3.3), and why.
type CorrectionRequest struct {
	Reason string `json:"reason"`
	// Orders overrule lines' outcomes: accept a line refused for its controller or timing, or
	// refuse an accepted one (R75).
	Orders []movement.Ruling `json:"orders,omitempty"`
	// Results replace the turn's battle results, by square.
	Results []domain.BattleResult `json:"results,omitempty"`
	// Days set armies' day counts in the map the turn's update leaves (R76).
	Days []turn.DayCount `json:"days,omitempty"`
	// Later are results for battles of later turns that the correction makes or changes (R77).
	Later []LaterResults `json:"later,omitempty"`
	// Preview is the digest of the preview the judge confirms; a confirmation without it, or
	// with another, is refused.
	Preview string `json:"preview,omitempty"`
}

// LaterResults are results for one later turn's battles.
type LaterResults struct {
	Turn    int                   `json:"turn"`
	Results []domain.BattleResult `json:"results"`
}

// Correction is a confirmed correction as the record keeps it.
type Correction struct {
	ID         int64             `json:"id"`
	CampaignID int64             `json:"-"`
	Turn       int               `json:"turn"`
	Request    CorrectionRequest `json:"request"`
	// Changes are what the correction changed, turn by turn.
	Changes []TurnChange `json:"changes"`
	// Original is every record the correction replaced, as it was (the judges').
	Original []OriginalTurn `json:"original,omitempty"`
	By       string         `json:"by"`
	At       time.Time      `json:"at"`
}

// OriginalTurn is a turn's records before a correction: its lock report, the opening map of
// the turn after it, its results and the mercenaries' engagements it recorded.
type OriginalTurn struct {
	Turn       int             `json:"turn"`
	Report     json.RawMessage `json:"report"`
	ReportText string          `json:"report_text"`
	NextMap    json.RawMessage `json:"next_map"`
	Results    []Result        `json:"results"`
	History    []Engagement    `json:"history,omitempty"`
}

// CorrectionPreview is what a correction would change, before it is confirmed: the changes turn
// by turn, and the digest to confirm them with.
type CorrectionPreview struct {
	Turn    int          `json:"turn"`
	Digest  string       `json:"digest"`
	Changes []TurnChange `json:"changes"`
}

// CorrectionReader is what the corrections read from a store.
type CorrectionReader interface {
	// Corrections lists a campaign's corrections of turn n (every turn's for 0) by id.
	Corrections(campaign int64, n int) ([]Correction, error)
}

// CorrectionWriter is what the corrections write.
type CorrectionWriter interface {
	// AddCorrection stores a correction and sets its id.
	AddCorrection(c *Correction) error
	// SetTurnOutcome stores a turn's report, rendered report and opening map anew.
	SetTurnOutcome(t *Turn) error
	// DeleteResult removes a turn's result for a square.
	DeleteResult(turnID int64, square domain.Square) error
	// SetMercenaryHistory replaces the mercenaries' engagements a turn's lock recorded (none
	// removes them).
	SetMercenaryHistory(campaign int64, n int, es []Engagement) error
}

// errPreviewed ends a preview's transaction, so that nothing of it is kept.
var errPreviewed = errors.New("previewed")

// PreviewCorrection adjudicates turn n again with the correction, and every later turn, and says
// what would change; nothing is kept (the battle judges).
func (s *Service) PreviewCorrection(ctx context.Context, a Actor, id int64, n int, req CorrectionRequest) (*CorrectionPreview, error) {
	req.Preview = ""
	var out *CorrectionPreview
	err := s.correct(ctx, a, id, n, req, false, func(tx Tx, p *CorrectionPreview, _ *Correction) error {
		out = p
		return errPreviewed
	})
	if errors.Is(err, errPreviewed) {
		err = nil
	}
	return out, err
}

// Correct confirms a correction the battle judge previewed (3.3.3): turn n and every later turn
// are adjudicated again, their reports and maps replaced, the originals kept in the record. The
// preview's digest must be the one the same correction gives now: a turn that changed since is a
// conflict, to preview again.
func (s *Service) Correct(ctx context.Context, a Actor, id int64, n int, req CorrectionRequest) (*Correction, error) {
	var out *Correction
	err := s.correct(ctx, a, id, n, req, true, func(tx Tx, p *CorrectionPreview, c *Correction) error {
		if p.Digest != req.Preview {
			return domain.Errorf(domain.ErrConflict, "the correction would not change what its preview showed (the turns changed since): preview it again")
		}
		if err := tx.AddCorrection(c); err != nil {
			return err
		}
		out = c
		if err := s.publishCorrection(tx, c); err != nil {
			return err
		}
		return s.audit(tx, id, a, "turn.correct", "corrected turn %d (%s): turns %d–%d adjudicated again", n, c.Request.Reason, n, n+len(c.Changes)-1)
	})
	if err == nil {
		s.wake()
	}
	return out, err
}

// Corrections lists a turn's corrections (every turn's for n = 0); anyone sees them, the
// originals only the judges.
func (s *Service) Corrections(ctx context.Context, a Actor, id int64, n int) ([]Correction, error) {
	var out []Correction
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		if out, err = r.Corrections(id, n); err != nil {
			return err
		}
		if !maySeeOriginals(x) {
			for i := range out {
				out[i].Original = nil
			}
		}
		return nil
	})
	return nonNil(out), err
}

// digest is the SHA-256 of a correction's outcome: the request and every turn's new report and
// next map, so that a confirmation is of exactly what the preview showed.
func digest(req CorrectionRequest, outcomes [][]byte) string {
	req.Preview = ""
	h := sha256.New()
	b, _ := json.Marshal(req)
	h.Write(b)
	for _, o := range outcomes {
		h.Write([]byte{0})
		h.Write(o)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkRequest checks the correction's own words before anything is adjudicated.
func checkRequest(req *CorrectionRequest) error {
	req.Reason = strings.TrimSpace(req.Reason)
	if req.Reason == "" {
		return domain.Errorf(domain.ErrInvalid, "say why the turn is corrected: a reason is recorded with every correction (3.3.3)")
	}
	if len(req.Orders)+len(req.Results)+len(req.Days)+len(req.Later) == 0 {
		return domain.Errorf(domain.ErrInvalid, "the correction changes nothing: overrule a line, replace a result or set a day count (3.3.3)")
	}
	for _, o := range req.Orders {
		if !o.Accept && strings.TrimSpace(o.Reason) == "" {
			return domain.Errorf(domain.ErrInvalid, "say why line %d of post %d is refused: the player reads it in the report (3.3.3)", o.Line, o.Post)
		}
	}
	for _, d := range req.Days {
		if d.Days < 0 {
			return domain.Errorf(domain.ErrInvalid, "%s cannot count %d days", d.Army, d.Days)
		}
	}
	return nil
}

// correctionInput adds turn t's stored corrections to its lock input, in the order they were
// made: the lines overruled and the day counts set (3.3.3). A replay thus adjudicates a corrected
// turn as it was corrected.
func correctionInput(r Reader, t *Turn, in *turn.Input) error {
	cs, err := r.Corrections(t.CampaignID, t.Number)
	if err != nil {
		return err
	}
	for _, c := range cs {
		in.Rulings = append(in.Rulings, c.Request.Orders...)
		in.Days = append(in.Days, c.Request.Days...)
	}
	return nil
}
