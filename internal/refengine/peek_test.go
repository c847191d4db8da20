package refengine_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/coalition-wargame/coalition/scenario"
)

func TestPeekRef(t *testing.T) {
	data, _ := os.ReadFile(os.Getenv("PEEK"))
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	res, err := runScenario(sc)
	if err != nil {
		t.Fatal(err)
	}
	r := res[len(res)-1]
	fmt.Printf("REF positions=%v\nbattles=%v\nrejected=%v\npartial=%v removed=%v\n", r.Positions, r.Battles, r.Rejected, r.Partial, r.Removed)
}
