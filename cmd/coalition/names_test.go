package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coalition-wargame/coalition/api"
	"github.com/coalition-wargame/coalition/campaign"
	"github.com/coalition-wargame/coalition/scenario"
)

// TestDemoAndScenarioNamesAccepted: every name of the demo campaign and of the scenarios under
// testdata/scenarios — campaigns, members, armies, controllers; apostrophes, spaces, accents
// among them ("Urza's Guard") — is accepted by the name checks of issue 17 and kept as it is,
// and no two names of one campaign would look alike.
func TestDemoAndScenarioNamesAccepted(t *testing.T) {
	setups := map[string]campaign.Setup{}
	demo, err := demoSetup()
	if err != nil {
		t.Fatal(err)
	}
	setups["demo"] = demo
	err = filepath.WalkDir("../../testdata/scenarios", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sc, err := scenario.Parse(data)
		if err != nil {
			return nil // the scenarios meant to be refused
		}
		setups[path] = api.SetupFromScenario(sc, "")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(setups) < 100 {
		t.Fatalf("only %d campaigns read", len(setups))
	}
	names := 0
	for where, su := range setups {
		check := func(kind campaign.NameKind, name string) {
			names++
			if got, err := campaign.NormalName(kind, name); err != nil || got != name {
				t.Errorf("%s: the %s %q: %q %v", where, kind, name, got, err)
			}
		}
		check(campaign.CampaignName, su.Name)
		var armies, people []string
		for _, m := range su.Members {
			check(campaign.AccountName, m.Name)
			people = append(people, m.Name)
		}
		for _, a := range su.Map.Armies {
			check(campaign.ArmyName, a.Name)
			armies = append(armies, a.Name)
			for _, c := range a.Controllers {
				check(campaign.AccountName, c)
			}
		}
		for _, list := range [][]string{armies, people} {
			for i, a := range list {
				for _, b := range list[i+1:] {
					if campaign.LookAlike(a, b) {
						t.Errorf("%s: %q and %q would look alike", where, a, b)
					}
				}
			}
		}
	}
	t.Logf("%d names of %d campaigns accepted", names, len(setups))
}
