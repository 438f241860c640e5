package main

import (
	"strings"
	"testing"
)

// libargon2's string (through argon2-cffi) for password "password", salt
// "somesalt", m=64, t=2, p=1: RFC 9106's vectors use a secret and
// associated data, which x/crypto/argon2 does not take.
const referencePHC = "$argon2id$v=19$m=64,t=2,p=1$c29tZXNhbHQ$FqGkmHNGCd0BRW2kBt6fPZ2pPmyGwwChL8FGUhTOSSI"

func TestAReferenceStringVerifies(t *testing.T) {
	if !verifyPHC(referencePHC, []byte("password")) {
		t.Fatalf("%s does not verify", referencePHC)
	}
	if verifyPHC(referencePHC, []byte("passwore")) {
		t.Fatal("a wrong password verifies")
	}
}

func TestEncodeParseRoundTrip(t *testing.T) {
	p := phcParams{variant: "argon2id", m: 64, t: 2, lanes: 1}
	s, err := hashPHC(p, []byte("pw"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s, "$argon2id$v=19$m=64,t=2,p=1$") || strings.HasSuffix(s, "=") {
		t.Fatalf("not an unpadded PHC string: %s", s)
	}
	got, salt, hash, err := parsePHC(s)
	if err != nil || got != p || len(salt) != 16 || len(hash) != 32 {
		t.Fatalf("%s parses to %+v %x %x %v", s, got, salt, hash, err)
	}
	if !verifyPHC(s, []byte("pw")) {
		t.Fatalf("%s does not verify", s)
	}
}

func TestTamperedStringsAreRefused(t *testing.T) {
	hash := referencePHC[strings.LastIndex(referencePHC, "$")+1:]
	edited := strings.TrimSuffix(referencePHC, hash) + "A" + hash[1:]
	for _, s := range []string{
		edited,
		strings.Replace(referencePHC, "t=2", "t=3", 1),
		strings.Replace(referencePHC, "v=19", "v=16", 1),
		strings.Replace(referencePHC, "argon2id", "argon2d", 1),
		referencePHC + "=",
		"$argon2id$v=19$m=64,t=2$c29tZXNhbHQ$" + hash,
		"",
	} {
		if verifyPHC(s, []byte("password")) {
			t.Errorf("%q verifies", s)
		}
	}
}
