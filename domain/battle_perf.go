package domain

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
)

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
