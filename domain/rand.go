package domain

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"io"
	"strconv"
)

// Seed is a turn's secret random seed (B6). Every random draw of the turn is derived from it
// and a label naming the draw, so that anyone holding the seed can re-derive each draw in any
// order; docs/RANDOMNESS.md says how, step by step.
type Seed [32]byte

// NewSeed reads a fresh seed from r (crypto/rand when r is nil).
func NewSeed(r io.Reader) (Seed, error) {
	if r == nil {
		r = rand.Reader
	}
	var s Seed
	_, err := io.ReadFull(r, s[:])
	return s, err
}

// ScenarioSeed is the seed of turn index turn (0-based) of a scenario with the given seed:
// SHA-256 of the text "coalition-scenario:<seed>:turn:<turn>".
func ScenarioSeed(seed int64, turn int) Seed {
	return sha256.Sum256([]byte("coalition-scenario:" + strconv.FormatInt(seed, 10) + ":turn:" + strconv.Itoa(turn)))
}

// String is the seed in lower-case hex, as revealed after the lock.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// Commitment is the SHA-256 of the seed in hex, published when the turn opens (B6).
func (s Seed) Commitment() string {
	h := sha256.Sum256(s[:])
	return hex.EncodeToString(h[:])
}

// ParseSeed reads a seed written in hex.
func ParseSeed(text string) (Seed, error) {
	var s Seed
	b, err := hex.DecodeString(text)
	if err != nil || len(b) != len(s) {
		return s, Errorf(ErrInvalid, "a seed is 64 hex digits")
	}
	copy(s[:], b)
	return s, nil
}

// MarshalText prints the seed in hex.
func (s Seed) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a seed in hex.
func (s *Seed) UnmarshalText(b []byte) error {
	v, err := ParseSeed(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Intn draws a whole number in [0, n) for the draw named label: the first 8 bytes of
// HMAC-SHA256(seed, label + "#" + k), big-endian, for k = 0, 1, 2 …, taking the first value
// below the largest multiple of n that fits in 64 bits, reduced modulo n.
func (s Seed) Intn(label string, n int) int { return s.Draws().Intn(label, n) }

// D20 rolls a twenty-sided die for the draw named label: 1–20.
func (s Seed) D20(label string) int { return s.Intn(label, 20) + 1 }

// Draws makes the draws of one turn from its seed, reusing one HMAC; it gives the same
// numbers as Seed.Intn.
type Draws struct {
	mac hash.Hash
	buf []byte
	sum [sha256.Size]byte
}

// Draws starts the draws of the seed's turn.
func (s Seed) Draws() *Draws { return &Draws{mac: hmac.New(sha256.New, s[:])} }

// Intn draws a whole number in [0, n) for the draw named label (see Seed.Intn).
func (d *Draws) Intn(label string, n int) int {
	if n <= 1 {
		return 0
	}
	un := uint64(n)
	limit := ^uint64(0) - (^uint64(0)%un+1)%un
	for k := 0; ; k++ {
		d.buf = append(d.buf[:0], label...)
		d.buf = append(d.buf, '#')
		d.buf = strconv.AppendInt(d.buf, int64(k), 10)
		d.mac.Reset()
		d.mac.Write(d.buf)
		v := binary.BigEndian.Uint64(d.mac.Sum(d.sum[:0]))
		if v <= limit {
			return int(v % un)
		}
	}
}

// D20 rolls a twenty-sided die for the draw named label: 1–20.
func (d *Draws) D20(label string) int { return d.Intn(label, 20) + 1 }

// IntnOnce draws as s.Intn(label, n) does, computing each HMAC-SHA256 from the padded key
// without keeping an HMAC, so that it allocates nothing: cheaper than Draws for a caller that
// makes one draw or two of a seed.
func (s Seed) IntnOnce(label string, n int) int {
	if n <= 1 {
		return 0
	}
	un := uint64(n)
	limit := ^uint64(0) - (^uint64(0)%un+1)%un
	// HMAC(key, msg) = SHA-256((key ^ opad) || SHA-256((key ^ ipad) || msg)), the 32-byte key
	// padded with zeros to the 64-byte block
	var in [128]byte
	var out [64 + sha256.Size]byte
	for i := range 64 {
		var k byte
		if i < len(s) {
			k = s[i]
		}
		in[i], out[i] = k^0x36, k^0x5c
	}
	for k := 0; ; k++ {
		msg := append(in[:64], label...)
		msg = append(msg, '#')
		msg = strconv.AppendInt(msg, int64(k), 10)
		inner := sha256.Sum256(msg)
		copy(out[64:], inner[:])
		sum := sha256.Sum256(out[:])
		if v := binary.BigEndian.Uint64(sum[:8]); v <= limit {
			return int(v % un)
		}
	}
}
