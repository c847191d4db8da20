// The battle formulas a campaign's battle judges edit, version by version (B3, B7, 4.3.3, 4.5).

package campaign

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/domain"
)

// FormulaVersion is one version of one of a campaign's battle formulas: every edit is a new
// version, with who made it and when.
type FormulaVersion struct {
	ID         int64     `json:"id"`
	CampaignID int64     `json:"-"`
	Name       string    `json:"name"`
	Version    int       `json:"version"`
	Text       string    `json:"text"`
	By         string    `json:"by"`
	At         time.Time `json:"at"`
}

// Formula is the version as the battle engine takes it.
func (f *FormulaVersion) Formula() battle.Formula {
	return battle.Formula{Name: f.Name, Version: f.Version, Text: f.Text}
}

// campaignFormulas compiles the latest version of each of a campaign's formulas, the shipped
// default where a battle judge has not edited it.
func campaignFormulas(r Reader, id int64) (*battle.Formulas, error) {
	fvs, err := r.Formulas(id)
	if err != nil {
		return nil, err
	}
	if len(fvs) == 0 {
		return battle.Defaults(), nil
	}
	latest := map[string]battle.Formula{}
	for _, fv := range fvs {
		if f, ok := latest[fv.Name]; !ok || fv.Version > f.Version {
			latest[fv.Name] = fv.Formula()
		}
	}
	fs := make([]battle.Formula, 0, len(latest))
	for _, f := range latest {
		fs = append(fs, f)
	}
	slices.SortFunc(fs, func(a, b battle.Formula) int { return cmp.Compare(a.Name, b.Name) })
	return battle.CompileFormulas(fs)
}

// FormulaView is one of a campaign's battle formulas as the battle judges edit it.
type FormulaView struct {
	Name    string `json:"name"`
	Version int    `json:"version"`
	Text    string `json:"text"`
	// By and At say who saved this version and when; empty for a shipped default.
	By string     `json:"by,omitempty"`
	At *time.Time `json:"at,omitempty"`
	// Variables are the names the formula may use.
	Variables []string `json:"variables"`
}

// FormulasView is a campaign's formulas as they stand and every version saved.
type FormulasView struct {
	Formulas []FormulaView    `json:"formulas"`
	History  []FormulaVersion `json:"history"`
}

func formulasView(fvs []FormulaVersion) *FormulasView {
	out := &FormulasView{Formulas: []FormulaView{}, History: nonNil(fvs)}
	for _, f := range battle.DefaultFormulas() {
		v := FormulaView{Name: f.Name, Version: f.Version, Text: f.Text, Variables: battle.FormulaVariables(f.Name)}
		for _, fv := range fvs {
			if fv.Name == f.Name && fv.Version >= v.Version {
				at := fv.At
				v.Version, v.Text, v.By, v.At = fv.Version, fv.Text, fv.By, &at
			}
		}
		out.Formulas = append(out.Formulas, v)
	}
	return out
}

// Formulas shows a campaign's battle formulas (B3, B7, 4.3.3, 4.5): battle judges only, never
// players.
func (s *Service) Formulas(ctx context.Context, a Actor, id int64) (*FormulasView, error) {
	var out *FormulasView
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		if err := x.need("read the battle formulas (battle judges only)", mayReadFormulas(x)); err != nil {
			return err
		}
		fvs, err := r.Formulas(id)
		out = formulasView(fvs)
		return err
	})
	return out, err
}

// SetFormula saves a new version of one of a campaign's battle formulas (battle judges only).
// The formula is compiled first: one that does not compile is refused with the reason and the
// variables it may use.
func (s *Service) SetFormula(ctx context.Context, a Actor, id int64, name, text string) (*FormulasView, error) {
	var out *FormulasView
	err := s.store.Write(ctx, func(tx Tx) error {
		c, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("edit the battle formulas (battle judges only)", mayEditFormulas(x)); err != nil {
			return err
		}
		if c.Status == Finished {
			return domain.Errorf(domain.ErrConflict, "%s is finished", c.Name)
		}
		fvs, err := tx.Formulas(id)
		if err != nil {
			return err
		}
		version := 1
		for _, fv := range fvs {
			if fv.Name == name {
				version = max(version, fv.Version)
			}
		}
		f := &FormulaVersion{CampaignID: id, Name: name, Version: version + 1, Text: strings.TrimSpace(text), By: a.Name(), At: s.now()}
		if err := battle.CheckFormula(f.Formula()); err != nil {
			return err
		}
		if err := tx.AddFormula(f); err != nil {
			return err
		}
		out = formulasView(append(fvs, *f))
		return s.audit(tx, id, a, "formula.set", "saved version %d of the %s formula", f.Version, name)
	})
	return out, err
}
