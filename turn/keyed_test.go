package turn

import (
	"encoding/json"
	"testing"
)

// TestKeyedWritesAsAMap: a Keyed value is written byte for byte as encoding/json writes the
// same map (names sorted byte by byte, HTML-safe escaping), and reads back to itself.
func TestKeyedWritesAsAMap(t *testing.T) {
	m := map[string]int{"Sai Rei": 3, "Ash": 1, "ash": 2, "<Lim-Dûl>": 4, "Zed & Co": 5}
	want, _ := json.Marshal(m)
	k := KeyedOf(m)
	got, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Keyed writes %s, a map %s", got, want)
	}
	var back Keyed[int]
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if v, ok := back.Get("Sai Rei"); !ok || v != 3 || len(back) != len(m) {
		t.Errorf("read back %v", back)
	}
	if _, ok := back.Get("Nobody"); ok {
		t.Error("Get found a name that is not there")
	}
	back.Set("Birch", 9)
	back.Set("Ash", 7)
	if v, _ := back.Get("Birch"); v != 9 || len(back) != len(m)+1 {
		t.Errorf("after Set: %v", back)
	}
	if v, _ := back.Get("Ash"); v != 7 {
		t.Errorf("Set did not replace Ash's value: %v", back)
	}
	var empty Keyed[int]
	if got, _ := json.Marshal(empty); string(got) != "{}" {
		t.Errorf("an empty Keyed writes %s, want {}", got)
	}
}
