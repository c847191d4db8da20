// Snapshots: a turn's opening map as it is stored, and the cache of decoded maps.

package campaign

import (
	"crypto/sha256"
	"encoding/json"
	"sync"

	"github.com/coalition-wargame/coalition/domain"
)

// mapEnvelope is how a map is stored: the domain JSON plus what it loses, the armies whose
// troop list is known to be empty.
type mapEnvelope struct {
	*domain.Map
	EmptyTroops []string `json:"empty_troops,omitempty"`
}

// EncodeMap is the stored form of a map (a snapshot): its JSON, losing nothing.
func EncodeMap(m *domain.Map) ([]byte, error) {
	env := mapEnvelope{Map: m}
	for i := range m.Armies {
		if m.Armies[i].Troops != nil && len(m.Armies[i].Troops) == 0 {
			env.EmptyTroops = append(env.EmptyTroops, m.Armies[i].Name)
		}
	}
	return json.Marshal(env)
}

// decoded keeps the maps DecodeMap made, by the SHA-256 of their stored form: a turn's
// opening map never changes once stored, and decoding a full map costs milliseconds.
var decoded struct {
	sync.Mutex
	maps map[[sha256.Size]byte]*domain.Map
}

// DecodeMap reads a map stored by EncodeMap. The map it returns may be shared with other
// callers: never change it, Clone it first.
func DecodeMap(b []byte) (*domain.Map, error) {
	key := sha256.Sum256(b)
	decoded.Lock()
	m, ok := decoded.maps[key]
	decoded.Unlock()
	if ok {
		return m, nil
	}
	m, err := decodeMap(b)
	if err != nil {
		return nil, err
	}
	decoded.Lock()
	defer decoded.Unlock()
	if decoded.maps == nil || len(decoded.maps) >= 64 {
		decoded.maps = map[[sha256.Size]byte]*domain.Map{}
	}
	decoded.maps[key] = m
	return m, nil
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
