// Screen names (1.6): a player asks for a new screen name and the battle judge approves it. The
// account keeps its powers: its controls, its contingency links and the judge it assists follow
// the new name; its namesake army, if he asks, is renamed with him when the next turn opens (the
// open turn's orders name it as it is); old posts keep the name they were made under and link to
// the new one; the lock reads a post by the name its author holds at the lock.

package campaign

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/coalition-wargame/coalition/domain"
)

// NameRequest is a player's request for a new screen name (1.6), and whether his namesake army
// should be renamed with him.
type NameRequest struct {
	Name       string `json:"name"`
	RenameArmy bool   `json:"rename_army"`
}

// AskName records a member's request for a new screen name, for the battle judge (1.6).
func (s *Service) AskName(ctx context.Context, a Actor, id int64, in NameRequest) (*NameChange, error) {
	name, err := NormalName(AccountName, in.Name)
	if err != nil {
		return nil, err
	}
	var out *NameChange
	err = s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("ask for a new screen name here (members only, 1.6)", mayAskName(x)); err != nil {
			return err
		}
		acc := x.actor.Account
		if domain.SameName(name, acc.Name) {
			return domain.Errorf(domain.ErrInvalid, "%q is already your screen name", name)
		}
		if err := freeName(tx, acc.ID, name); err != nil {
			return err
		}
		all, err := tx.NameChanges(0)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(all, func(n NameChange) bool { return n.AccountID == acc.ID && n.Status == Pending }) {
			return domain.Errorf(domain.ErrConflict, "a request for a new screen name of yours already waits for the battle judge")
		}
		out = &NameChange{CampaignID: id, AccountID: acc.ID, Old: acc.Name, New: name, Status: Pending, At: s.now()}
		if in.RenameArmy {
			tm, err := loadTeam(tx, id, s.now())
			if err != nil {
				return err
			}
			army := tm.m.Army(acc.Name)
			if army == nil || tm.namesake(army) == nil || tm.namesake(army).AccountID != acc.ID {
				return domain.Errorf(domain.ErrInvalid, "you have no namesake army on the map of this campaign to rename with you")
			}
			if err := freeArmyName(tm.m, army.Name, name); err != nil {
				return err
			}
			out.Army, out.ArmyName = army.Name, name
		}
		if err := tx.AddNameChange(out); err != nil {
			return err
		}
		return s.audit(tx, id, a, "name.ask", "%s asks to be called %s (1.6)", acc.Name, name)
	})
	return out, err
}

// freeName refuses a screen name another account holds, or one that would look like it.
func freeName(r Reader, self int64, name string) error {
	accs, err := r.Accounts()
	if err != nil {
		return err
	}
	var taken []string
	for _, acc := range accs {
		if acc.ID == self {
			continue
		}
		if domain.SameName(acc.Name, name) {
			return domain.Errorf(domain.ErrConflict, "the screen name %q is taken", acc.Name)
		}
		taken = append(taken, acc.Name)
	}
	return distinct(AccountName, name, taken)
}

// freeArmyName refuses a new name for army that another army of m holds or would look like.
func freeArmyName(m *domain.Map, army, name string) error {
	var taken []string
	for _, a := range m.Armies {
		switch {
		case domain.SameName(a.Name, army):
		case domain.SameName(a.Name, name):
			return domain.Errorf(domain.ErrConflict, "there is already an army named %s", a.Name)
		default:
			taken = append(taken, a.Name)
		}
	}
	return distinct(ArmyName, name, taken)
}

// DecideName is the battle judge's answer to a request for a new screen name (1.6). Approved,
// the account takes the name at once in every campaign it belongs to, with its controls (a
// control entry for each army it controls), the contingency links naming it and the judge it
// assists; its namesake army, if asked, is renamed when the next turn opens.
func (s *Service) DecideName(ctx context.Context, a Actor, id, rid int64, approve bool, reason string) (*NameChange, error) {
	var out *NameChange
	err := s.store.Write(ctx, func(tx Tx) error {
		_, x, err := campaignAccess(tx, a, id)
		if err != nil {
			return err
		}
		if err := x.need("decide a screen name change (the battle judge only, 1.6)", mayDecideName(x)); err != nil {
			return err
		}
		list, err := tx.NameChanges(id)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(list, func(n NameChange) bool { return n.ID == rid })
		if i < 0 {
			return domain.Errorf(domain.ErrNotFound, "there is no name change %d in this campaign", rid)
		}
		out = &list[i]
		if out.Status != Pending {
			return domain.Errorf(domain.ErrConflict, "the request was already %s by %s", out.Status, out.DecidedBy)
		}
		if err := checkText("reason", reason, 500, false); err != nil {
			return err
		}
		now := s.now()
		out.Status, out.DecidedBy, out.DecidedAt, out.Reason = Declined, a.Name(), &now, strings.TrimSpace(reason)
		if approve {
			out.Status = Approved
			if err := s.rename(tx, a, out); err != nil {
				return err
			}
		}
		if err := tx.UpdateNameChange(out); err != nil {
			return err
		}
		return s.audit(tx, id, a, "name."+out.Status, "%s the screen name %s for %s (1.6)", out.Status, out.New, out.Old)
	})
	return out, err
}

// rename gives n's account its new name in every campaign it belongs to (1.6).
func (s *Service) rename(tx Tx, a Actor, n *NameChange) error {
	acc, err := tx.Account(n.AccountID)
	if err != nil {
		return err
	}
	if err := freeName(tx, acc.ID, n.New); err != nil {
		return err
	}
	old := acc.Name
	if err := tx.RenameAccount(acc.ID, n.New); err != nil {
		return err
	}
	cs, err := tx.Campaigns()
	if err != nil {
		return err
	}
	now := s.now()
	for _, c := range cs {
		if _, err := tx.Member(c.ID, acc.ID); errors.Is(err, domain.ErrNotFound) {
			continue
		} else if err != nil {
			return err
		}
		tm, err := loadTeam(tx, c.ID, now)
		if err != nil {
			return err
		}
		why := fmt.Sprintf("screen name change (1.6): %s is now %s", old, n.New)
		changed := false
		for _, army := range tm.m.Armies {
			if !army.ControlledBy(old) {
				continue
			}
			ctl := slices.Clone(army.Controllers)
			for k := range ctl {
				if domain.SameName(ctl[k], old) {
					ctl[k] = n.New
				}
			}
			if err := tx.AddControl(&ControlEntry{CampaignID: c.ID, Army: army.Name, Controllers: ctl, EffectiveAt: now, By: a.Name(), Reason: why}); err != nil {
				return err
			}
			changed = true
		}
		for _, m := range tm.members {
			if domain.SameName(m.Contingency, old) || domain.SameName(m.Assists, old) {
				if domain.SameName(m.Contingency, old) {
					m.Contingency = n.New
				}
				if domain.SameName(m.Assists, old) {
					m.Assists = n.New
				}
				if err := tx.PutMember(&m); err != nil {
					return err
				}
			}
		}
		if changed {
			if err := bumpMap(tx, c.ID); err != nil {
				return err
			}
		}
		if err := s.audit(tx, c.ID, a, "name.change", "%s", why); err != nil {
			return err
		}
	}
	return nil
}

// renameArmies renames, on turn nt's map as it opens, the namesake armies whose players asked
// for it with a name change approved since (1.6): an amendment of the new turn, with a control
// entry under the army's new name. An army that fights a battle this turn keeps its name until
// the next turn opens.
func (s *Service) renameArmies(tx Tx, c *Campaign, nt *Turn, next *domain.Map) error {
	list, err := tx.NameChanges(c.ID)
	if err != nil {
		return err
	}
	for i := range list {
		n := &list[i]
		if n.Status != Approved || n.Army == "" || n.ArmyDone {
			continue
		}
		army := next.Army(n.Army)
		if army == nil {
			n.ArmyDone = true
			if err := tx.UpdateNameChange(n); err != nil {
				return err
			}
			continue
		}
		if slices.ContainsFunc(next.Battles, func(b domain.Battle) bool {
			return slices.ContainsFunc(b.Armies, func(x string) bool { return domain.SameName(x, army.Name) })
		}) || freeArmyName(next, army.Name, n.ArmyName) != nil {
			continue
		}
		at := s.now()
		if err := tx.AddAmendment(&Amendment{TurnID: nt.ID, Kind: ArmyEdited, Army: army.Name, Patch: ArmyPatch{Name: n.ArmyName}, By: n.DecidedBy, At: at}); err != nil {
			return err
		}
		if err := tx.AddControl(&ControlEntry{CampaignID: c.ID, Army: n.ArmyName, Controllers: nonNil(slices.Clone(army.Controllers)), EffectiveAt: at, By: n.DecidedBy,
			Reason: fmt.Sprintf("%s renamed %s with its player (1.6)", army.Name, n.ArmyName)}); err != nil {
			return err
		}
		n.ArmyDone = true
		if err := tx.UpdateNameChange(n); err != nil {
			return err
		}
	}
	return nil
}

// NameChanges lists the name changes of a campaign the actor may see: the approved ones, and his
// own; every one for the judges and admins.
func (s *Service) NameChanges(ctx context.Context, a Actor, id int64) ([]NameChange, error) {
	out := []NameChange{}
	err := s.store.Read(ctx, func(r Reader) error {
		_, x, err := campaignAccess(r, a, id)
		if err != nil {
			return err
		}
		list, err := r.NameChanges(id)
		for i := range list {
			if maySeeNameRequest(x, &list[i]) {
				out = append(out, list[i])
			}
		}
		return err
	})
	return out, err
}

// authorsAt gives each post the name its author held at time at: a post made before an approved
// name change of its account counts at a later lock as the account's, under its new name (1.6).
// Renames are never undone, so a replay gives the same authors.
func authorsAt(r Reader, posts []Post, at time.Time) error {
	renames, err := r.NameChanges(0)
	if err != nil {
		return err
	}
	for i := range posts {
		p := &posts[i]
		for _, n := range renames {
			if n.Status == Approved && n.AccountID == p.AccountID && n.DecidedAt != nil && !n.DecidedAt.Before(p.At) && !n.DecidedAt.After(at) && domain.SameName(p.Author, n.Old) {
				p.Author = n.New
			}
		}
	}
	return nil
}
