// PHC strings for x/crypto/argon2, which derives raw keys only: the runner
// encodes and parses `$argon2id$v=19$m=..,t=..,p=..$salt$hash` itself so
// that its Argon2 hashes can be exchanged with other libraries.

package main

import (
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
)

// phcParams is what a PHC string says besides its salt and hash.
type phcParams struct {
	variant string
	m, t    int
	lanes   int
}

// PHC strings use standard base64 without padding.
var phcBase64 = base64.RawStdEncoding

// encodePHC writes an Argon2 hash as a PHC string (version 0x13).
func encodePHC(p phcParams, salt, hash []byte) string {
	return fmt.Sprintf("$%s$v=19$m=%d,t=%d,p=%d$%s$%s", p.variant, p.m, p.t, p.lanes,
		phcBase64.EncodeToString(salt), phcBase64.EncodeToString(hash))
}

// parsePHC reads a PHC string written by encodePHC or another Argon2
// library; it refuses other versions and malformed fields.
func parsePHC(s string) (phcParams, []byte, []byte, error) {
	var p phcParams
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[0] != "" {
		return p, nil, nil, fmt.Errorf("a PHC string has five $-separated fields: %q", s)
	}
	p.variant = parts[1]
	if p.variant != "argon2i" && p.variant != "argon2id" {
		return p, nil, nil, fmt.Errorf("x/crypto/argon2 has no %q", p.variant)
	}
	if parts[2] != "v=19" {
		return p, nil, nil, fmt.Errorf("only Argon2 version 19 (0x13), not %q", parts[2])
	}
	if n, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.m, &p.t, &p.lanes); err != nil || n != 3 ||
		fmt.Sprintf("m=%d,t=%d,p=%d", p.m, p.t, p.lanes) != parts[3] {
		return p, nil, nil, fmt.Errorf("parameters are m=KiB,t=passes,p=lanes, not %q", parts[3])
	}
	salt, err := phcBase64.DecodeString(parts[4])
	if err != nil {
		return p, nil, nil, fmt.Errorf("salt: %v", err)
	}
	hash, err := phcBase64.DecodeString(parts[5])
	if err != nil || len(hash) == 0 {
		return p, nil, nil, fmt.Errorf("hash: not unpadded base64 %q", parts[5])
	}
	return p, salt, hash, nil
}

// verifyPHC says whether password hashes to the PHC string's hash.
func verifyPHC(s string, password []byte) bool {
	p, salt, hash, err := parsePHC(s)
	if err != nil {
		return false
	}
	got, err := argon2Raw(p.variant, password, salt, p.t, p.m, p.lanes, len(hash))
	return err == nil && subtle.ConstantTimeCompare(got, hash) == 1
}

// hashPHC hashes password with a fresh 16-byte salt into a PHC string.
func hashPHC(p phcParams, password []byte) (string, error) {
	salt := random(16)
	hash, err := argon2Raw(p.variant, password, salt, p.t, p.m, p.lanes, 32)
	if err != nil {
		return "", err
	}
	return encodePHC(p, salt, hash), nil
}
