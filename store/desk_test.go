package store

import (
	"errors"
	"testing"
	"time"

	"github.com/coalition-wargame/coalition/battle"
	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/cards"
	"github.com/coalition-wargame/coalition/domain"
)

// deskTurn stores a campaign with one turn and returns their ids.
func deskTurn(t *testing.T, db *DB) (int64, int64) {
	t.Helper()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var cid, tid int64
	err := db.Write(ctx, func(tx campaign.Tx) error {
		c := &campaign.Campaign{Name: "Desk", Status: campaign.Running, Settings: campaign.DefaultSettings, MapVersion: 1, CreatedAt: now}
		if err := tx.CreateCampaign(c); err != nil {
			return err
		}
		tt := &campaign.Turn{CampaignID: c.ID, Number: 1, Status: campaign.Open, OpenedAt: now, Deadline: now, LockAt: now, CheckWindow: true,
			Snapshot: campaign.NewSnapshot(&domain.Map{Grid: domain.DefaultGrid})}
		tt.Commitment = tt.Seed.Commitment()
		if err := tx.CreateTurn(tt); err != nil {
			return err
		}
		cid, tid = c.ID, tt.ID
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return cid, tid
}

func TestStrategiesReplaceTheSendersEarlierOne(t *testing.T) {
	db := open(t)
	_, tid := deskTurn(t, db)
	at := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	put := func(army string, contingency bool, text string) int64 {
		s := &campaign.Strategy{TurnID: tid, Square: domain.Square{Col: 5, Row: 5}, Army: army, Side: domain.Coalition, Contingency: contingency, Author: "Kim", Text: text,
			Choices: campaign.StrategyChoices{Kill: "Grim", Leaves: &domain.Leave{Army: army, To: domain.Square{Col: 5, Row: 4}}}, SubmittedAt: at}
		if err := db.Write(ctx, func(tx campaign.Tx) error { return tx.PutStrategy(s) }); err != nil {
			t.Fatal(err)
		}
		return s.ID
	}
	a := put("Karn", false, "first")
	b := put("Karn", true, "by the contingency")
	c := put("Karn", false, "second")
	if a != c || a == b || a == 0 {
		t.Errorf("ids %d %d %d: a resend keeps its row, a contingency's is another", a, b, c)
	}
	if err := db.Read(ctx, func(r campaign.Reader) error {
		ss, err := r.Strategies(tid)
		if err != nil {
			return err
		}
		if len(ss) != 2 || ss[0].Text != "second" || !ss[1].Contingency || ss[0].Choices.Leaves.To != (domain.Square{Col: 5, Row: 4}) || ss[0].Square.String() != "5E" {
			t.Errorf("strategies %+v", ss)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func TestProposalsFormulasSanctionsAmendmentsCards(t *testing.T) {
	db := open(t)
	cid, tid := deskTurn(t, db)
	at := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	legend := "Mirri"
	err := db.Write(ctx, func(tx campaign.Tx) error {
		for _, winner := range []string{"Karn", "Vorthos"} {
			p := &campaign.ProposalRecord{TurnID: tid, Square: domain.Square{Col: 15, Row: 10}, MadeBy: "Batty", MadeAt: at,
				Judgement: battle.Judgement{Bonus: 3, BonusTo: winner}, Proposal: battle.Proposal{Result: domain.BattleResult{Winner: winner}, Rolls: []battle.Roll{{Label: "dice:15J:Karn:1", Value: 7}}}}
			if err := tx.PutProposal(p); err != nil {
				return err
			}
		}
		for v := 2; v <= 3; v++ {
			if err := tx.AddFormula(&campaign.FormulaVersion{CampaignID: cid, Name: "size", Version: v, Text: "5", By: "Batty", At: at}); err != nil {
				return err
			}
		}
		s := &campaign.Sanction{TurnID: tid, Army: "Sai Rei", K: 1, Severity: 2, Roll: battle.Roll{Label: "sanction:Sai Rei:1", Value: 9}, Losses: map[string]int{"Grizzly Bears": 1800}, Reason: "x", By: "Batty", At: at}
		if err := tx.AddSanction(s); err != nil {
			return err
		}
		if err := tx.AddAmendment(&campaign.Amendment{TurnID: tid, Kind: campaign.ArmyCustomised, Army: "Urza's Guard", Player: "Kim", By: "Kim", At: at,
			Patch: campaign.ArmyPatch{Name: "Kim's Guard", Legend: &legend, Troops: []domain.Troop{{Creature: "Llanowar Elves", Slot: 1, Alive: 1000, Full: 1200}}}}); err != nil {
			return err
		}
		for _, p := range []string{"1", "7"} {
			if err := tx.PutCardCorrection(&campaign.CardCorrection{Key: cards.Key("Zz Beast"), Card: cards.Card{Name: "Zz Beast", Types: []string{"Creature"}, Power: p, Toughness: "1"}, By: "Batty", At: at}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A clash fails its transaction (PostgreSQL aborts it): each is tried in its own.
	for what, add := range map[string]func(campaign.Tx) error{
		"a formula version saved twice": func(tx campaign.Tx) error {
			return tx.AddFormula(&campaign.FormulaVersion{CampaignID: cid, Name: "size", Version: 3, Text: "6", By: "Batty", At: at})
		},
		"sanction 1 laid twice": func(tx campaign.Tx) error {
			return tx.AddSanction(&campaign.Sanction{TurnID: tid, Army: "Sai Rei", K: 1, Roll: battle.Roll{Label: "sanction:Sai Rei:1", Value: 9}, Losses: map[string]int{"Grizzly Bears": 1800}, At: at})
		},
	} {
		if err := db.Write(ctx, add); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("%s: %v, want a conflict", what, err)
		}
	}
	err = db.Read(ctx, func(r campaign.Reader) error {
		ps, err := r.Proposals(tid)
		if err != nil || len(ps) != 1 || ps[0].Proposal.Result.Winner != "Vorthos" || ps[0].Judgement.Bonus != 3 || ps[0].Proposal.Rolls[0].Value != 7 {
			t.Errorf("proposals %+v %v: the second replaces the first", ps, err)
		}
		fs, err := r.Formulas(cid)
		if err != nil || len(fs) != 2 || fs[1].Version != 3 || fs[1].Formula().String() != "size v3" {
			t.Errorf("formulas %+v %v", fs, err)
		}
		ss, err := r.Sanctions(tid)
		if err != nil || len(ss) != 1 || ss[0].Losses["Grizzly Bears"] != 1800 || ss[0].Roll.Label != "sanction:Sai Rei:1" {
			t.Errorf("sanctions %+v %v", ss, err)
		}
		as, err := r.Amendments(tid)
		if err != nil || len(as) != 1 || as[0].Player != "Kim" || *as[0].Patch.Legend != "Mirri" || as[0].Patch.Troops[0].Full != 1200 {
			t.Errorf("amendments %+v %v", as, err)
		}
		cs, err := r.CardCorrections()
		if err != nil || len(cs) != 1 || cs[0].Card.Power != "7" {
			t.Errorf("card corrections %+v %v: one a name, the latest", cs, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCampaignKeepsItsWinner(t *testing.T) {
	db := open(t)
	cid, _ := deskTurn(t, db)
	if err := db.Write(ctx, func(tx campaign.Tx) error {
		c, err := tx.Campaign(cid)
		if err != nil {
			return err
		}
		c.Status, c.Winner = campaign.Finished, domain.Phyrexia
		return tx.UpdateCampaign(c)
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Read(ctx, func(r campaign.Reader) error {
		c, err := r.Campaign(cid)
		if err == nil && (c.Status != campaign.Finished || c.Winner != domain.Phyrexia) {
			t.Errorf("campaign %+v", c)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
