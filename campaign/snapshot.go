// Snapshots: a turn's opening map as it is stored, and the process-wide cache of decoded ones,
// which hands out nothing a caller could change.

package campaign

import (
	"crypto/sha256"
	"encoding/json"
	"sync"

	"github.com/coalition-wargame/coalition/domain"
)

// Snapshot is a turn's opening map (the previous lock's result), which never changes once
// stored. Every reader of the turn shares one (see DecodeSnapshot), so it gives out values and
// copies only: Map is a copy the caller may change; the zero Snapshot is a turn read without
// its map.
type Snapshot struct {
	m *domain.Map
}

// NewSnapshot keeps a copy of m as a snapshot: m stays the caller's.
func NewSnapshot(m *domain.Map) Snapshot { return Snapshot{m: m.Clone()} }

// Map is a copy of the snapshot's map that the caller may change as domain.Map.Clone allows;
// nil for the zero Snapshot.
func (s Snapshot) Map() *domain.Map {
	if s.m == nil {
		return nil
	}
	return s.m.Clone()
}

// Grid is the map's grid.
func (s Snapshot) Grid() domain.Grid {
	if s.m == nil {
		return domain.Grid{}
	}
	return s.m.Grid
}

// Side is the side of the named army, and whether the map holds it.
func (s Snapshot) Side(army string) (domain.Side, bool) {
	if s.m == nil {
		return "", false
	}
	if a := s.m.Army(army); a != nil {
		return a.Side, true
	}
	return "", false
}

// Encode is the snapshot's stored form: its JSON, losing nothing (DecodeSnapshot reads it).
func (s Snapshot) Encode() ([]byte, error) { return encodeMap(s.m) }

// mapEnvelope is how a map is stored: the domain JSON plus what it loses, the armies whose
// troop list is known to be empty.
type mapEnvelope struct {
	*domain.Map
	EmptyTroops []string `json:"empty_troops,omitempty"`
}

// encodeMap is the stored form of a map: its JSON, losing nothing.
func encodeMap(m *domain.Map) ([]byte, error) {
	env := mapEnvelope{Map: m}
	if m != nil {
		for i := range m.Armies {
			if m.Armies[i].Troops != nil && len(m.Armies[i].Troops) == 0 {
				env.EmptyTroops = append(env.EmptyTroops, m.Armies[i].Name)
			}
		}
	}
	return json.Marshal(env)
}

// decoded keeps the snapshots DecodeSnapshot made, by the SHA-256 of their stored form: a
// turn's opening map never changes once stored, and decoding a full map costs milliseconds.
var decoded struct {
	sync.Mutex
	maps map[[sha256.Size]byte]Snapshot
}

// DecodeSnapshot reads a snapshot stored by Snapshot.Encode. Snapshots of the same bytes are
// one, shared by every caller: nothing in it can be changed.
func DecodeSnapshot(b []byte) (Snapshot, error) {
	key := sha256.Sum256(b)
	decoded.Lock()
	s, ok := decoded.maps[key]
	decoded.Unlock()
	if ok {
		return s, nil
	}
	m, err := decodeMap(b)
	if err != nil {
		return Snapshot{}, err
	}
	s = Snapshot{m: m}
	decoded.Lock()
	defer decoded.Unlock()
	if decoded.maps == nil || len(decoded.maps) >= 64 {
		decoded.maps = map[[sha256.Size]byte]Snapshot{}
	}
	decoded.maps[key] = s
	return s, nil
}

func decodeMap(b []byte) (*domain.Map, error) {
	env := mapEnvelope{Map: &domain.Map{}}
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, err
	}
	for _, n := range env.EmptyTroops {
		if a := env.Map.Army(n); a != nil && a.Troops == nil {
			a.Troops = []domain.Troop{}
		}
	}
	return env.Map, nil
}
