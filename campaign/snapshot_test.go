package campaign_test

import (
	"bytes"
	"testing"

	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/domain"
)

// A snapshot is shared by every reader of its turn, so it hands out nothing that changes it:
// what Map gives may be changed by the caller alone, and the map it was made from stays the
// caller's.
func TestSnapshotHandsOutCopies(t *testing.T) {
	m := &domain.Map{Grid: domain.DefaultGrid, Armies: []domain.Army{army("Sai Rei", domain.Coalition, domain.Captain, "3F", "Gazetzot")}}
	stored, err := campaign.NewSnapshot(m).Encode()
	if err != nil {
		t.Fatal(err)
	}
	m.Armies[0].Troops[0].Alive = 2
	one, err := campaign.DecodeSnapshot(stored)
	if err != nil {
		t.Fatal(err)
	}
	two, err := campaign.DecodeSnapshot(stored)
	if err != nil {
		t.Fatal(err)
	}
	c := one.Map()
	c.Armies[0].Troops[0].Alive = 1
	c.Armies[0].Name = "Someone Else"
	c.Grid.Cols = 3
	got := two.Map()
	if a := got.Army("Sai Rei"); a == nil || a.Troops[0].Alive != 1000 || got.Grid != domain.DefaultGrid {
		t.Fatalf("a change to one reader's map shows in another's: %+v", got.Armies)
	}
	if again, err := two.Encode(); err != nil || !bytes.Equal(again, stored) {
		t.Errorf("the stored form changed: %v\n%s\n%s", err, stored, again)
	}
	if side, ok := two.Side("sai rei"); !ok || side != domain.Coalition {
		t.Errorf("Side(sai rei) = %q, %v", side, ok)
	}
	if _, ok := two.Side("Nobody"); ok || two.Grid() != domain.DefaultGrid {
		t.Error("Side or Grid answers wrong")
	}
	if (campaign.Snapshot{}).Map() != nil {
		t.Error("the zero snapshot has a map")
	}
}
