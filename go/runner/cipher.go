// The cipher suite in Go: crypto/aes and crypto/des through crypto/cipher's
// CBC, CTR, CFB and OFB, and x/crypto's ChaCha20. Each message sets its key
// and IV (cipher.Block, then the mode), as the other runners' APIs do, so
// the runtimes compare like with like. Go has no ECB mode.
//
// The output goes into a buffer the caller keeps, as crypto/cipher's API
// asks of a Go program that encrypts in a loop, and as the AEAD cases do.
// A fresh 2 MB slice per call made every call's time depend on whether
// the heap had pages to give or had to fault new ones in and collect:
// Go's 2 MB cases scattered by a median MAD of 5.8-8.4% of their median,
// 3.0-3.4% with the buffer kept (docs/methodology.md).

package main

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"

	"golang.org/x/crypto/chacha20"
)

// cipherAPI encrypts or decrypts a whole message (already padded) under a
// key and IV into dst, reused when it is large enough.
type cipherAPI struct {
	keyLen, ivLen, block int
	crypt                func(encrypt bool, key, iv, dst, in []byte) ([]byte, error)
}

// sized is dst with n bytes, allocated only when dst is too small.
func sized(dst []byte, n int) []byte {
	if cap(dst) < n {
		return make([]byte, n)
	}
	return dst[:n]
}

func blockMode(newBlock func([]byte) (cipher.Block, error), mode string) func(bool, []byte, []byte, []byte, []byte) ([]byte, error) {
	return func(encrypt bool, key, iv, dst, in []byte) ([]byte, error) {
		b, err := newBlock(key)
		if err != nil {
			return nil, err
		}
		out := sized(dst, len(in))
		switch {
		case mode == "CBC" && encrypt:
			cipher.NewCBCEncrypter(b, iv).CryptBlocks(out, in)
		case mode == "CBC":
			cipher.NewCBCDecrypter(b, iv).CryptBlocks(out, in)
		case mode == "CTR":
			cipher.NewCTR(b, iv).XORKeyStream(out, in)
		case mode == "OFB":
			cipher.NewOFB(b, iv).XORKeyStream(out, in)
		case mode == "CFB" && encrypt:
			cipher.NewCFBEncrypter(b, iv).XORKeyStream(out, in)
		case mode == "CFB":
			cipher.NewCFBDecrypter(b, iv).XORKeyStream(out, in)
		}
		return out, nil
	}
}

// chacha20Crypt takes OpenSSL's 16-byte IV: a little-endian 32-bit block
// counter, then the 96-bit nonce.
func chacha20Crypt(_ bool, key, iv, dst, in []byte) ([]byte, error) {
	c, err := chacha20.NewUnauthenticatedCipher(key, iv[4:])
	if err != nil {
		return nil, err
	}
	c.SetCounter(binary.LittleEndian.Uint32(iv[:4]))
	out := sized(dst, len(in))
	c.XORKeyStream(out, in)
	return out, nil
}

func cipherFor(primitive string) (*cipherAPI, error) {
	p := strings.ToUpper(primitive)
	if p == "CHACHA20" {
		return &cipherAPI{32, 16, 1, chacha20Crypt}, nil
	}
	parts := strings.Split(p, "-")
	none := unavailable{"Go's crypto/cipher has no " + primitive + " (AES and 3DES in CBC, CTR, CFB, OFB; ChaCha20)"}
	if len(parts) != 3 {
		return nil, none
	}
	mode := parts[2]
	if mode != "CBC" && mode != "CTR" && mode != "CFB" && mode != "OFB" {
		return nil, none
	}
	switch {
	case parts[0] == "AES":
		bits, err := strconv.Atoi(parts[1])
		if err != nil || (bits != 128 && bits != 192 && bits != 256) {
			return nil, none
		}
		return &cipherAPI{bits / 8, 16, 16, blockMode(aes.NewCipher, mode)}, nil
	case parts[0] == "DES" && parts[1] == "EDE3" && mode != "CTR":
		return &cipherAPI{24, 8, 8, blockMode(des.NewTripleDESCipher, mode)}, nil
	}
	return nil, none
}

// pkcs7Pad writes in and its padding into dst, reused when large enough.
func pkcs7Pad(dst, in []byte, block int) []byte {
	n := block - len(in)%block
	out := sized(dst, len(in)+n)
	copy(out, in)
	for i := len(in); i < len(out); i++ {
		out[i] = byte(n)
	}
	return out
}

func pkcs7Unpad(in []byte, block int) []byte {
	if len(in) == 0 || len(in)%block != 0 {
		return nil
	}
	n := int(in[len(in)-1])
	if n == 0 || n > block || !bytes.Equal(in[len(in)-n:], bytes.Repeat([]byte{byte(n)}, n)) {
		return nil
	}
	return in[:len(in)-n]
}

func prepareCipher(c cell, kats []obj, interop obj) (*prepared, error) {
	api, err := cipherFor(c.Primitive)
	if err != nil {
		return nil, err
	}
	if c.Operation != "encrypt" && c.Operation != "decrypt" && c.Operation != "roundtrip" {
		return nil, unavailable{"the runner times encrypt, decrypt and roundtrip, not " + c.Operation}
	}
	pkcs7 := c.Params["padding"] == "pkcs7"
	if !pkcs7 && api.block > 1 && strings.Contains(strings.ToUpper(c.Primitive), "CBC") && c.Size%api.block != 0 {
		return nil, skipped{"CBC without padding takes whole blocks"}
	}
	// Into buffers the caller keeps: the checks pass none (fresh slices
	// they can compare), the timed loops their own.
	type buffers struct{ padded, out []byte }
	encrypt := func(b *buffers, key, iv, msg []byte, pad bool) []byte {
		if pad {
			b.padded = pkcs7Pad(b.padded, msg, api.block)
			msg = b.padded
		}
		out, err := api.crypt(true, key, iv, b.out, msg)
		if err != nil {
			return nil
		}
		b.out = out
		return out
	}
	decrypt := func(b *buffers, key, iv, ct []byte, pad bool) []byte {
		out, err := api.crypt(false, key, iv, b.out, ct)
		if err != nil {
			return nil
		}
		b.out = out
		if pad {
			return pkcs7Unpad(out, api.block)
		}
		return out
	}
	p := &prepared{}
	for _, k := range kats {
		key, iv, pt, ct := unhex(k["key"]), unhex(k["iv"]), unhex(k["pt"]), unhex(k["ct"])
		ok := bytes.Equal(encrypt(&buffers{}, key, iv, pt, false), ct) && bytes.Equal(decrypt(&buffers{}, key, iv, ct, false), pt)
		p.checks = append(p.checks, check("kat:"+str(k["source"]), ok, "Go encrypts to the vector and back"))
	}
	key, iv, data := random(api.keyLen), random(api.ivLen), random(c.Size)
	sealed := encrypt(&buffers{}, key, iv, data, pkcs7)
	p.checks = append(p.checks, check("round trip", bytes.Equal(decrypt(&buffers{}, key, iv, sealed, pkcs7), data), "decrypts what it encrypted"))
	if interop != nil {
		got := decrypt(&buffers{}, unhex(interop["key"]), unhex(interop["iv"]), unhex(interop["ct"]), str(interop["padding"]) == "pkcs7")
		p.checks = append(p.checks, check("interop:native->go", got != nil && bytes.Equal(got, unhex(interop["pt"])),
			"Go decrypts the native ciphertext"))
		ik, iiv, ip := random(api.keyLen), random(api.ivLen), random(interopBytes)
		p.artifacts = obj{"key": hex.EncodeToString(ik), "iv": hex.EncodeToString(iiv), "pt": hex.EncodeToString(ip),
			"ct": hex.EncodeToString(encrypt(&buffers{}, ik, iiv, ip, false)), "size": interopBytes}
	}
	var sealing, opening buffers
	if c.Operation == "encrypt" {
		p.run = func(iters int) {
			for i := 0; i < iters; i++ {
				encrypt(&sealing, key, iv, data, pkcs7)
			}
		}
	} else if c.Operation == "decrypt" {
		p.run = func(iters int) {
			for i := 0; i < iters; i++ {
				decrypt(&opening, key, iv, sealed, pkcs7)
			}
		}
	} else {
		p.run = func(iters int) {
			for i := 0; i < iters; i++ {
				// Encrypt, decrypt and compare, as the native roundtrip does.
				_ = bytes.Equal(decrypt(&opening, key, iv, encrypt(&sealing, key, iv, data, pkcs7), pkcs7), data)
			}
		}
	}
	return p, nil
}

func cipherOffers() []string {
	out := []string{"ChaCha20"}
	for _, bits := range []string{"128", "192", "256"} {
		for _, m := range []string{"CBC", "CTR", "CFB", "OFB"} {
			out = append(out, "AES-"+bits+"-"+m)
		}
	}
	return append(out, "DES-EDE3-CBC", "DES-EDE3-CFB", "DES-EDE3-OFB")
}
