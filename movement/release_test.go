package movement_test

import (
	"encoding/json"
	"testing"

	"github.com/coalition-wargame/coalition/domain"
	"github.com/coalition-wargame/coalition/internal/enginetest"
	"github.com/coalition-wargame/coalition/movement"
)

// TestCheckAfterReleaseIsFresh checks a turn's posts on memory released by an earlier Check of
// other posts (Orders.Release) and compares every line with a check on fresh memory: nothing
// of the earlier lines may show through.
func TestCheckAfterReleaseIsFresh(t *testing.T) {
	r := enginetest.Rand(7)
	m := enginetest.Map(r, enginetest.Campaign())
	var turns [][]domain.Post
	for k := range 6 {
		// garbage lines and bad authors now and then, so that released lines held rejections,
		// warnings and transfer details
		turns = append(turns, enginetest.Posts(r, m, benchOpening, int64(k*1000+1), enginetest.Style{Realistic: k%2 == 0}).Posts)
	}
	linesOf := func(o *movement.Orders) string {
		data, err := json.Marshal(o.Lines)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	for k, posts := range turns {
		fresh := linesOf(movement.Check(m, posts, movement.Options{}))
		prev := movement.Check(m, turns[(k+1)%len(turns)], movement.Options{})
		prev.Release()
		if got := linesOf(movement.Check(m, posts, movement.Options{})); got != fresh {
			t.Fatalf("turn %d: the lines checked on released memory differ from fresh ones", k)
		}
	}
}
