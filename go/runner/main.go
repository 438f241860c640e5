// cryptobench's Go runner: the standard library's crypto and
// golang.org/x/crypto measured from inside Go.
//
// It speaks cryptobench's JSON-lines runner protocol on stdin/stdout, one
// request per line: hello (versions, families, offers), prepare (a native
// cell: suite, primitive, operation, params, size, plus the suite's
// known-answer vectors and the native half of an interop check), time (a
// batch of iters operations timed with Go's monotonic clock) and release.
// Checks run in prepare, before any timing; a cell this runner cannot
// serve is answered unavailable or skipped with the reason.
//
// It builds with Go 1.19 and x/crypto 0.4.0 (Debian bookworm) and later:
// X25519 goes through x/crypto/curve25519 and its PKCS#8 and SPKI
// encodings are written here, since crypto/ecdh arrived in Go 1.20.
package main

import (
	"bufio"
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"hash"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/curve25519"
	"golang.org/x/crypto/sha3"
)

const protocol = 1
const interopBytes = 1024

// xcrypto is the x/crypto version, set at build time (-ldflags -X).
var xcrypto = "unknown"

type obj = map[string]interface{}

type unavailable struct{ why string }

func (u unavailable) Error() string { return u.why }

type skipped struct{ why string }

func (s skipped) Error() string { return s.why }

func check(name string, ok bool, detail string) obj {
	outcome := "fail"
	if ok {
		outcome = "pass"
	}
	return obj{"name": name, "outcome": outcome, "detail": detail}
}

func random(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return b
}

func unhex(v interface{}) []byte {
	s, _ := v.(string)
	b, _ := hex.DecodeString(s)
	return b
}

func str(v interface{}) string { s, _ := v.(string); return s }

func num(v interface{}) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case string:
		n, _ := strconv.Atoi(x)
		return n
	}
	return 0
}

type cell struct {
	Suite     string            `json:"suite"`
	Primitive string            `json:"primitive"`
	Operation string            `json:"operation"`
	Params    map[string]string `json:"params"`
	Size      int               `json:"size"`
}

func (c cell) param(k string, def int) int {
	if v, ok := c.Params[k]; ok {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}

type prepared struct {
	run       func(iters int)
	checks    []obj
	artifacts obj
}

// --- hash --------------------------------------------------------------------

func hasher(name string) func() hash.Hash {
	switch strings.ToLower(name) {
	case "sha-256":
		return sha256.New
	case "sha-512":
		return sha512.New
	case "sha3-256":
		return sha3.New256
	case "blake2b-512":
		return func() hash.Hash { h, _ := blake2b.New512(nil); return h }
	}
	return nil
}

func prepareHash(c cell, kats []obj, interop obj) (*prepared, error) {
	mk := hasher(c.Primitive)
	if mk == nil || c.Operation != "digest" {
		return nil, unavailable{fmt.Sprintf("Go has no %s %s here", c.Primitive, c.Operation)}
	}
	digest := func(b []byte) []byte { h := mk(); h.Write(b); return h.Sum(nil) }
	p := &prepared{}
	for _, k := range kats {
		ok := hex.EncodeToString(digest(unhex(k["msg"]))) == str(k["digest"])
		p.checks = append(p.checks, check("kat:"+str(k["source"]), ok, "Go matches the suite's vector"))
	}
	if interop != nil {
		ok := hex.EncodeToString(digest(unhex(interop["msg"]))) == str(interop["digest"])
		p.checks = append(p.checks, check("interop:native->go", ok, "Go gives the native digest of the native message"))
		msg := random(interopBytes)
		p.artifacts = obj{"msg": hex.EncodeToString(msg), "digest": hex.EncodeToString(digest(msg))}
	}
	data := random(c.Size)
	p.run = func(iters int) {
		for i := 0; i < iters; i++ {
			h := mk()
			h.Write(data)
			h.Sum(nil)
		}
	}
	return p, nil
}

// --- aead --------------------------------------------------------------------

func aeadFor(primitive string, tag int) (func(key []byte) (cipher.AEAD, error), int, error) {
	p := strings.ToLower(primitive)
	switch p {
	case "aes-128-gcm", "aes-192-gcm", "aes-256-gcm":
		if tag < 12 || tag > 16 {
			return nil, 0, skipped{"cipher.NewGCMWithTagSize takes tags of 12 to 16 bytes"}
		}
		bits, _ := strconv.Atoi(p[4:7])
		return func(key []byte) (cipher.AEAD, error) {
			b, err := aes.NewCipher(key)
			if err != nil {
				return nil, err
			}
			return cipher.NewGCMWithTagSize(b, tag)
		}, bits / 8, nil
	case "chacha20-poly1305", "xchacha20-poly1305":
		if tag != 16 {
			return nil, 0, skipped{primitive + " has a 16-byte tag"}
		}
		if p == "chacha20-poly1305" {
			return chacha20poly1305.New, 32, nil
		}
		return chacha20poly1305.NewX, 32, nil
	}
	return nil, 0, unavailable{fmt.Sprintf("neither Go's standard library nor x/crypto offers %s", primitive)}
}

func prepareAead(c cell, kats []obj, interop obj) (*prepared, error) {
	tag := c.param("tag", 16)
	mk, keyLen, err := aeadFor(c.Primitive, tag)
	if err != nil {
		return nil, err
	}
	if c.Operation != "encrypt" && c.Operation != "decrypt" {
		return nil, unavailable{"the runner times encrypt and decrypt, not " + c.Operation}
	}
	key := random(keyLen)
	a, err := mk(key)
	if err != nil {
		return nil, err
	}
	nonceLen := a.NonceSize()
	p := &prepared{}
	for _, k := range kats {
		kk, n, aad := unhex(k["key"]), unhex(k["nonce"]), unhex(k["aad"])
		if len(kk) != keyLen || len(n) != nonceLen {
			continue
		}
		ka, err := mk(kk)
		if err != nil {
			return nil, err
		}
		sealed := append(unhex(k["ct"]), unhex(k["tag"])...)
		got, openErr := ka.Open(nil, n, sealed, aad)
		if k["valid"] == true {
			ok := bytes.Equal(ka.Seal(nil, n, unhex(k["pt"]), aad), sealed) && openErr == nil && bytes.Equal(got, unhex(k["pt"]))
			p.checks = append(p.checks, check("kat:"+str(k["source"]), ok, "Go seals to the vector and opens it"))
		} else {
			p.checks = append(p.checks, check("kat:"+str(k["source"]), openErr != nil, "Go refuses the invalid vector"))
		}
	}
	aad := random(c.param("aad", 0))
	size := c.Size
	if size > 1<<20 {
		size = 1 << 20
	}
	msg, nonce := random(size), random(nonceLen)
	sealed := a.Seal(nil, nonce, msg, aad)
	back, err := a.Open(nil, nonce, sealed, aad)
	p.checks = append(p.checks, check("round trip", err == nil && bytes.Equal(back, msg), "opens what it sealed"))
	bad := append([]byte(nil), sealed...)
	bad[0] ^= 1
	_, err = a.Open(nil, nonce, bad, aad)
	p.checks = append(p.checks, check("tamper", err != nil, "refuses a flipped bit"))
	if interop != nil {
		na, err := mk(unhex(interop["key"]))
		ok := false
		if err == nil && len(unhex(interop["nonce"])) == nonceLen {
			got, err := na.Open(nil, unhex(interop["nonce"]), append(unhex(interop["ct"]), unhex(interop["tag"])...), unhex(interop["aad"]))
			ok = err == nil && bytes.Equal(got, unhex(interop["pt"]))
		}
		p.checks = append(p.checks, check("interop:native->go", ok, "Go opens the native ciphertext and tag"))
		ik, in, ia, ip := random(keyLen), random(nonceLen), random(13), random(interopBytes)
		ia2, _ := mk(ik)
		out := ia2.Seal(nil, in, ip, ia)
		p.artifacts = obj{"key": hex.EncodeToString(ik), "nonce": hex.EncodeToString(in), "aad": hex.EncodeToString(ia),
			"pt": hex.EncodeToString(ip), "ct": hex.EncodeToString(out[:len(out)-tag]),
			"tag": hex.EncodeToString(out[len(out)-tag:]), "size": interopBytes}
	}
	data := random(c.Size)
	dst := make([]byte, 0, c.Size+tag)
	if c.Operation == "encrypt" {
		var counter uint64
		n := make([]byte, nonceLen)
		p.run = func(iters int) {
			for i := 0; i < iters; i++ {
				binary.LittleEndian.PutUint64(n, counter)
				counter++
				dst = a.Seal(dst[:0], n, data, aad)
			}
		}
	} else {
		fixed := a.Seal(nil, nonce, data, aad)
		p.run = func(iters int) {
			for i := 0; i < iters; i++ {
				dst, _ = a.Open(dst[:0], nonce, fixed, aad)
			}
		}
	}
	return p, nil
}

// --- ecc ---------------------------------------------------------------------

// X25519 in PKCS#8 and SPKI (RFC 8410): a fixed DER prefix and 32 bytes.
var x25519PKCS8 = []byte{0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22, 0x04, 0x20}
var x25519SPKI = []byte{0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00}

type keyPair struct {
	private interface{}
	public  interface{}
}

type curveAPI struct {
	kind     string // ecdsa, eddsa, dh
	generate func() keyPair
	encode   func(k keyPair) (pemText string, spki []byte)
	decode   func(pemText string, spki []byte) (keyPair, error)
}

func ecdsaCurve(name string) elliptic.Curve {
	switch strings.ToLower(name) {
	case "prime256v1", "secp256r1", "p-256":
		return elliptic.P256()
	case "secp384r1", "p-384":
		return elliptic.P384()
	case "secp521r1", "p-521":
		return elliptic.P521()
	}
	return nil
}

func x509Codec(k keyPair) (string, []byte) {
	der, _ := x509.MarshalPKCS8PrivateKey(k.private)
	spki, _ := x509.MarshalPKIXPublicKey(k.public)
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), spki
}

func x509Decode(pemText string, spki []byte) (keyPair, error) {
	b, _ := pem.Decode([]byte(pemText))
	if b == nil {
		return keyPair{}, errors.New("no PEM block")
	}
	priv, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return keyPair{}, err
	}
	pub, err := x509.ParsePKIXPublicKey(spki)
	return keyPair{priv, pub}, err
}

func curveFor(name string) (*curveAPI, error) {
	if c := ecdsaCurve(name); c != nil {
		return &curveAPI{kind: "ecdsa", generate: func() keyPair {
			k, _ := ecdsa.GenerateKey(c, rand.Reader)
			return keyPair{k, &k.PublicKey}
		}, encode: x509Codec, decode: x509Decode}, nil
	}
	switch strings.ToLower(name) {
	case "ed25519":
		return &curveAPI{kind: "eddsa", generate: func() keyPair {
			pub, priv, _ := ed25519.GenerateKey(rand.Reader)
			return keyPair{priv, pub}
		}, encode: x509Codec, decode: x509Decode}, nil
	case "x25519":
		return &curveAPI{kind: "dh", generate: func() keyPair {
			priv := random(32)
			pub, _ := curve25519.X25519(priv, curve25519.Basepoint)
			return keyPair{priv, pub}
		}, encode: func(k keyPair) (string, []byte) {
			der := append(append([]byte(nil), x25519PKCS8...), k.private.([]byte)...)
			spki := append(append([]byte(nil), x25519SPKI...), k.public.([]byte)...)
			return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), spki
		}, decode: func(pemText string, spki []byte) (keyPair, error) {
			b, _ := pem.Decode([]byte(pemText))
			if b == nil || len(b.Bytes) != 48 || !bytes.HasPrefix(b.Bytes, x25519PKCS8) ||
				len(spki) != 44 || !bytes.HasPrefix(spki, x25519SPKI) {
				return keyPair{}, errors.New("not an RFC 8410 X25519 key")
			}
			return keyPair{b.Bytes[16:], spki[12:]}, nil
		}}, nil
	}
	return nil, unavailable{fmt.Sprintf("Go's standard library and x/crypto have no curve %s", name)}
}

func sign(kind string, priv interface{}, msg []byte) []byte {
	if kind == "eddsa" {
		return ed25519.Sign(priv.(ed25519.PrivateKey), msg)
	}
	d := sha256.Sum256(msg)
	sig, _ := ecdsa.SignASN1(rand.Reader, priv.(*ecdsa.PrivateKey), d[:])
	return sig
}

func verify(kind string, pub interface{}, msg, sig []byte) bool {
	if kind == "eddsa" {
		p, ok := pub.(ed25519.PublicKey)
		return ok && ed25519.Verify(p, msg, sig)
	}
	p, ok := pub.(*ecdsa.PublicKey)
	d := sha256.Sum256(msg)
	return ok && ecdsa.VerifyASN1(p, d[:], sig)
}

func worksTogether(api *curveAPI, k keyPair) bool {
	if api.kind == "dh" {
		mine := api.generate()
		a, err1 := curve25519.X25519(k.private.([]byte), mine.public.([]byte))
		b, err2 := curve25519.X25519(mine.private.([]byte), k.public.([]byte))
		return err1 == nil && err2 == nil && bytes.Equal(a, b)
	}
	msg := random(32)
	return verify(api.kind, k.public, msg, sign(api.kind, k.private, msg))
}

func prepareEcc(c cell, kats []obj, interop obj) (*prepared, error) {
	api, err := curveFor(c.Primitive)
	if err != nil {
		return nil, err
	}
	if !(c.Operation == "keygen" || (c.Operation == "sign" && api.kind != "dh")) {
		return nil, unavailable{fmt.Sprintf("the runner times keygen and signatures, not %s on %s", c.Operation, c.Primitive)}
	}
	k := api.generate()
	p := &prepared{}
	p.checks = append(p.checks, check("round trip", worksTogether(api, k), "a fresh key signs and verifies, or two agree"))
	msg := random(32)
	if api.kind != "dh" {
		sig := sign(api.kind, k.private, msg)
		other := append([]byte(nil), msg...)
		other[0] ^= 1
		p.checks = append(p.checks, check("tamper", !verify(api.kind, k.public, other, sig), "a signature does not verify another message"))
	}
	if interop != nil {
		nk, err := api.decode(str(interop["pem"]), unhex(interop["spki"]))
		ok := err == nil && worksTogether(api, nk)
		detail := "the native PKCS#8 key and SPKI public key work together in Go"
		if err != nil {
			detail = "Go cannot read the native key: " + err.Error()
		}
		p.checks = append(p.checks, check("interop:native->go", ok, detail))
		pemText, spki := api.encode(api.generate())
		p.artifacts = obj{"pem": pemText, "spki": hex.EncodeToString(spki)}
	}
	if c.Operation == "keygen" {
		p.run = func(iters int) {
			for i := 0; i < iters; i++ {
				api.generate()
			}
		}
	} else {
		p.run = func(iters int) {
			for i := 0; i < iters; i++ {
				sign(api.kind, k.private, msg)
			}
		}
	}
	return p, nil
}

// --- argon2 ------------------------------------------------------------------

func argon2Raw(variant string, password, salt []byte, t, m, lanes, tagLen int) ([]byte, error) {
	if lanes < 1 || lanes > 255 {
		return nil, skipped{"x/crypto/argon2 takes 1 to 255 lanes"}
	}
	switch variant {
	case "argon2id":
		return argon2.IDKey(password, salt, uint32(t), uint32(m), uint8(lanes), uint32(tagLen)), nil
	case "argon2i":
		return argon2.Key(password, salt, uint32(t), uint32(m), uint8(lanes), uint32(tagLen)), nil
	}
	return nil, unavailable{"x/crypto/argon2 offers Argon2i and Argon2id, not " + variant}
}

func prepareArgon2(c cell, kats []obj, interop obj) (*prepared, error) {
	variant := strings.ToLower(c.Primitive)
	if v, ok := c.Params["version"]; ok && v != "0x13" {
		return nil, unavailable{"x/crypto/argon2 is version 0x13 only"}
	}
	t, m, lanes, tag := c.param("t", 1), c.param("m_kib", 0), c.param("p", 1), c.param("tag", 32)
	if threads := c.param("threads", lanes); threads != lanes {
		return nil, skipped{fmt.Sprintf("x/crypto/argon2 runs one goroutine per lane; this cell has %d lanes on %d threads", lanes, threads)}
	}
	if _, err := argon2Raw(variant, []byte("p"), random(16), 1, 8*lanes, lanes, 32); err != nil {
		return nil, err
	}
	p := &prepared{}
	for _, k := range kats {
		name := "kat:" + str(k["source"])
		if len(unhex(k["secret"])) > 0 || len(unhex(k["ad"])) > 0 {
			p.checks = append(p.checks, obj{"name": name, "outcome": "skipped",
				"detail": "x/crypto/argon2 takes no secret key or associated data"})
			continue
		}
		got, err := argon2Raw(str(k["variant"]), unhex(k["password"]), unhex(k["salt"]), num(k["t"]), num(k["m_kib"]), num(k["p"]), len(str(k["tag"]))/2)
		p.checks = append(p.checks, check(name, err == nil && hex.EncodeToString(got) == str(k["tag"]), "x/crypto/argon2 matches the vector"))
	}
	if interop != nil {
		raw, err := argon2Raw(variant, unhex(interop["password"]), unhex(interop["salt"]), num(interop["t"]), num(interop["m_kib"]), num(interop["threads"]), 32)
		p.checks = append(p.checks, check("interop:native->go", err == nil && hex.EncodeToString(raw) == str(interop["raw"]), "x/crypto/argon2 gives the native tag for the native inputs"))
		p.artifacts = obj{"password": interop["password"], "salt": interop["salt"], "raw": hex.EncodeToString(raw),
			"library": "x/crypto/argon2"}
		if nativePHC := str(interop["phc"]); nativePHC != "" {
			pw := unhex(interop["password"])
			ok := verifyPHC(nativePHC, pw) && !verifyPHC(nativePHC, unhex(interop["wrong_password"]))
			p.checks = append(p.checks, check("interop:native->go phc", ok, "x/crypto/argon2 verifies the native PHC string, parsed by the runner (and refuses a wrong password)"))
			params := phcParams{variant: variant, m: num(interop["m_kib"]), t: num(interop["t"]), lanes: num(interop["threads"])}
			// Without a string the native side fails the check.
			if own, err := hashPHC(params, pw); err == nil {
				p.artifacts["phc"] = own
			}
		}
	}
	salt := random(16)
	p.run = func(iters int) {
		for i := 0; i < iters; i++ {
			argon2Raw(variant, []byte("password"), salt, t, m, lanes, tag)
		}
	}
	return p, nil
}

var preparers = map[string]func(cell, []obj, obj) (*prepared, error){
	"hash": prepareHash, "cipher": prepareCipher, "aead": prepareAead, "ecc": prepareEcc, "argon2": prepareArgon2,
}

func offers() obj {
	return obj{
		"hash":   []string{"SHA-256", "SHA-512", "SHA3-256", "BLAKE2b-512"},
		"cipher": cipherOffers(),
		"aead":   []string{"AES-128-GCM", "AES-256-GCM", "ChaCha20-Poly1305", "XChaCha20-Poly1305"},
		"ecc":    []string{"prime256v1", "secp256r1", "secp384r1", "secp521r1", "X25519", "Ed25519"},
		"argon2": []string{"Argon2i", "Argon2id"},
	}
}

type request struct {
	Op      string          `json:"op"`
	ID      json.RawMessage `json:"id"`
	Iters   int             `json:"iters"`
	Cell    *cell           `json:"cell"`
	Kats    []obj           `json:"kats"`
	Interop obj             `json:"interop"`
}

func answer(req request, cases map[string]*prepared) obj {
	id := string(req.ID)
	switch req.Op {
	case "hello":
		return obj{"ok": true, "protocol": protocol, "runtime": "go",
			"version":   strings.TrimPrefix(runtime.Version(), "go"),
			"libraries": obj{"golang.org/x/crypto": xcrypto},
			"families":  obj{"stdlib": obj{"available": true}, "x/crypto": obj{"available": true}},
			"offers":    offers()}
	case "offers":
		return obj{"ok": true, "offers": offers()}
	case "prepare":
		if req.Cell == nil {
			return obj{"ok": false, "error": "prepare without a cell"}
		}
		prep, ok := preparers[req.Cell.Suite]
		if !ok {
			return obj{"ok": true, "unavailable": "the go runner serves no suite " + req.Cell.Suite}
		}
		p, err := prep(*req.Cell, req.Kats, req.Interop)
		var u unavailable
		var s skipped
		switch {
		case errors.As(err, &u):
			return obj{"ok": true, "unavailable": u.why}
		case errors.As(err, &s):
			return obj{"ok": true, "skipped": s.why}
		case err != nil:
			return obj{"ok": false, "error": err.Error()}
		}
		cases[id] = p
		return obj{"ok": true, "checks": p.checks, "artifacts": p.artifacts}
	case "time":
		p, ok := cases[id]
		if !ok {
			return obj{"ok": false, "error": "no prepared case " + id}
		}
		// One untimed operation first, as in every runner: the first after
		// another runner's batch pays for the caches it took.
		if req.Iters > 1 {
			p.run(1)
		}
		start := time.Now()
		p.run(req.Iters)
		return obj{"ok": true, "ns": time.Since(start).Nanoseconds(), "iters": req.Iters}
	case "release":
		if _, ok := cases[id]; !ok {
			return obj{"ok": false, "error": "no prepared case " + id}
		}
		delete(cases, id)
		return obj{"ok": true}
	}
	return obj{"ok": false, "error": fmt.Sprintf("unknown op %q", req.Op)}
}

func main() {
	if info, ok := debug.ReadBuildInfo(); ok && xcrypto == "unknown" {
		for _, d := range info.Deps {
			if d.Path == "golang.org/x/crypto" {
				xcrypto = d.Version
			}
		}
	}
	cases := map[string]*prepared{}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<28)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		line := bytes.TrimSpace(in.Bytes())
		if len(line) == 0 {
			continue
		}
		var req request
		var ans obj
		if err := json.Unmarshal(line, &req); err != nil {
			ans = obj{"ok": false, "error": "not JSON: " + err.Error()}
		} else {
			func() {
				defer func() {
					if r := recover(); r != nil {
						ans = obj{"ok": false, "error": fmt.Sprint(r)}
					}
				}()
				ans = answer(req, cases)
			}()
		}
		b, _ := json.Marshal(ans)
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
}
