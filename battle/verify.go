// Rule B6: checking a turn's published rolls against its seed and commitment.

package battle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/coalition-wargame/coalition/domain"
)

// Publication is what the server publishes about a turn's randomness (B6): the commitment
// published when the turn opened, the seed revealed after the lock, and every roll made.
type Publication struct {
	Commitment string `json:"commitment"`
	Seed       string `json:"seed"`
	Rolls      []Roll `json:"rolls"`
}

// ParsePublication reads a publication written as JSON:
// {"commitment": "<64 hex>", "seed": "<64 hex>", "rolls": [{"label": "…", "value": 7}, …]},
// a roll's "die" (its number of faces) defaulting to 20. Fields it does not know are ignored.
func ParsePublication(data []byte) (Publication, error) {
	var p Publication
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&p); err != nil {
		return p, domain.Errorf(domain.ErrInvalid, "the publication is not valid JSON of the form {\"commitment\", \"seed\", \"rolls\": [{\"label\", \"value\"}]}: %v", err)
	}
	if dec.More() {
		return p, domain.Errorf(domain.ErrInvalid, "the publication has text after its JSON object")
	}
	if strings.TrimSpace(p.Seed) == "" {
		return p, domain.Errorf(domain.ErrInvalid, "the publication gives no seed")
	}
	if strings.TrimSpace(p.Commitment) == "" {
		return p, domain.Errorf(domain.ErrInvalid, "the publication gives no commitment")
	}
	if _, err := domain.ParseSeed(strings.TrimSpace(p.Seed)); err != nil {
		return p, domain.Errorf(domain.ErrInvalid, "the publication's seed %q is not 64 hex digits", p.Seed)
	}
	for i, r := range p.Rolls {
		if r.Label == "" {
			return p, domain.Errorf(domain.ErrInvalid, "roll %d of the publication has no label", i+1)
		}
		if r.Die < 0 {
			return p, domain.Errorf(domain.ErrInvalid, "roll %d (%s) has a die of %d faces", i+1, r.Label, r.Die)
		}
	}
	return p, nil
}

// Mismatch is one thing in a publication that the seed does not bear out.
type Mismatch struct {
	// Label is the roll's label; empty for the commitment.
	Label string `json:"label,omitempty"`
	// Index is the roll's place in the publication, from 1; 0 for the commitment.
	Index int `json:"index,omitempty"`
	// Published is what was published, Derived what the seed gives.
	Published string `json:"published"`
	Derived   string `json:"derived"`
}

func (m Mismatch) String() string {
	if m.Index == 0 {
		return fmt.Sprintf("commitment: published %s, but the seed's SHA-256 is %s", m.Published, m.Derived)
	}
	return fmt.Sprintf("roll %d, %s: published %s, but the seed gives %s", m.Index, m.Label, m.Published, m.Derived)
}

// Verify checks a revealed seed against its commitment and re-derives every published roll
// from it (B6), returning each mismatch; none means the publication is honest.
func Verify(commitment string, seed domain.Seed, rolls []Roll) []Mismatch {
	var out []Mismatch
	want := strings.ToLower(strings.TrimSpace(commitment))
	if got := seed.Commitment(); got != want {
		out = append(out, Mismatch{Published: commitment, Derived: got})
	}
	d := seed.Draws()
	for i, r := range rolls {
		faces := r.Faces()
		got := r.Derive(d)
		if got != r.Value {
			out = append(out, Mismatch{Label: r.Label, Index: i + 1, Published: fmt.Sprintf("%d on a d%d", r.Value, faces), Derived: fmt.Sprintf("%d", got)})
		}
	}
	return out
}

// Check verifies a publication: Verify with its seed parsed.
func (p Publication) Check() ([]Mismatch, error) {
	seed, err := domain.ParseSeed(strings.TrimSpace(p.Seed))
	if err != nil {
		return nil, err
	}
	return Verify(p.Commitment, seed, p.Rolls), nil
}
