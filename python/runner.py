"""cryptobench's Python runner: cryptography, PyNaCl, argon2-cffi and hashlib
measured from inside Python.

Speaks cryptobench's JSON-lines runner protocol on stdin/stdout, one request
per line: `hello` (versions, families, offers), `prepare` (a native cell:
suite, primitive, operation, params, size, plus the suite's known-answer
vectors and the native half of an interop check), `time` (a batch of
`iters` operations timed with time.perf_counter_ns) and `release`. Checks
run in `prepare`, before any timing; a cell this Python cannot serve is
answered `unavailable` or `skipped` with the reason.
"""

import hashlib
import json
import os
import platform
import sys
import time

PROTOCOL = 1
INTEROP_BYTES = 1024

FAMILIES = {}
LIBRARIES = {}


def _family(name, importer, install):
    try:
        mod = importer()
        FAMILIES[name] = {"available": True}
        return mod
    except Exception as e:  # an absent or broken library leaves the rest running
        FAMILIES[name] = {"available": False, "reason": f"{name} missing ({e}): install {install}"}
        return None


def _cryptography():
    import cryptography
    from cryptography.hazmat.primitives import hashes, serialization  # noqa: F401
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, ed448, x25519, x448  # noqa: F401
    from cryptography.hazmat.primitives.ciphers import aead  # noqa: F401
    from cryptography.hazmat.backends.openssl.backend import backend

    LIBRARIES["cryptography"] = cryptography.__version__
    LIBRARIES["openssl"] = backend.openssl_version_text()
    return cryptography


def _nacl():
    import nacl
    import nacl.bindings  # noqa: F401

    LIBRARIES["pynacl"] = nacl.__version__
    return nacl


def _argon2():
    import argon2
    import argon2.low_level  # noqa: F401

    LIBRARIES["argon2-cffi"] = getattr(argon2, "__version__", "installed")
    return argon2


CRYPTOGRAPHY = _family("cryptography", _cryptography, "python3-cryptography")
NACL = _family("pynacl", _nacl, "python3-nacl")
ARGON2 = _family("argon2-cffi", _argon2, "python3-argon2")
if CRYPTOGRAPHY:
    from cryptography.exceptions import InvalidSignature, InvalidTag
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, ed448, x25519, x448
    from cryptography.hazmat.primitives.ciphers import aead as caead
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives import padding as cpadding
if NACL:
    import nacl.bindings as sodium
    import nacl.exceptions
    import nacl.pwhash.argon2id as nacl_argon2id
if ARGON2:
    import argon2
    import argon2.exceptions
    from argon2 import low_level as argon2_ll


class Unavailable(Exception):
    """The cell needs something this Python lacks."""


class Skipped(Exception):
    """The cell breaks a parameter rule of the API."""


def check(name, ok, detail):
    return {"name": name, "outcome": "pass" if ok else "fail", "detail": detail}


def skipped(name, detail):
    return {"name": name, "outcome": "skipped", "detail": detail}


# --- hash ------------------------------------------------------------------

HASHES = {"sha-256": "sha256", "sha-512": "sha512", "sha3-256": "sha3_256", "blake2b-512": "blake2b"}


def prepare_hash(cell, kats, interop):
    name = HASHES.get(cell["primitive"].lower())
    if name is None or cell["operation"] != "digest":
        raise Unavailable(f"hashlib has no {cell['primitive']} {cell['operation']}")
    digest = lambda data: hashlib.new(name, data).digest()  # noqa: E731
    checks = [check(f"kat:{k['source']}", digest(bytes.fromhex(k["msg"])).hex() == k["digest"],
                    "hashlib matches the suite's vector") for k in kats]
    artifacts = None
    if interop is not None:
        ok = digest(bytes.fromhex(interop["msg"])).hex() == interop["digest"]
        checks.append(check("interop:native->python", ok, "hashlib gives the native digest of the native message"))
        msg = os.urandom(INTEROP_BYTES)
        artifacts = {"msg": msg.hex(), "digest": digest(msg).hex()}
    data = os.urandom(cell["size"])

    def run(iters):
        for _ in range(iters):
            hashlib.new(name, data).digest()

    return run, checks, artifacts


# --- cipher ----------------------------------------------------------------

# OpenSSL-style names (AES-256-CBC, DES-EDE3-CBC, CAMELLIA-128-CFB) to
# cryptography's algorithm, block size and key bytes.
BLOCK_CIPHERS = {"AES": (lambda k: algorithms.AES(k), 16), "CAMELLIA": (lambda k: algorithms.Camellia(k), 16)}
MODES = {"CBC": lambda iv: modes.CBC(iv), "ECB": lambda iv: modes.ECB(), "CFB": lambda iv: modes.CFB(iv),
         "CFB8": lambda iv: modes.CFB8(iv), "OFB": lambda iv: modes.OFB(iv), "CTR": lambda iv: modes.CTR(iv)}


def cipher_api(primitive):
    """(make(key, iv) -> Cipher, key bytes, IV bytes, block bytes) for a cipher name."""
    if not CRYPTOGRAPHY:
        raise Unavailable(FAMILIES["cryptography"]["reason"])
    p = primitive.upper()
    if p == "CHACHA20":
        # OpenSSL's 16-byte ChaCha20 IV (32-bit counter, 96-bit nonce) is cryptography's nonce.
        return (lambda k, iv: Cipher(algorithms.ChaCha20(k, iv), None)), 32, 16, 1
    parts = p.split("-")
    if p.startswith("DES-EDE3-") and len(parts) == 3:
        family, key_len, block, mode = (lambda k: algorithms.TripleDES(k)), 24, 8, parts[2]
    elif len(parts) == 3 and parts[0] in BLOCK_CIPHERS and parts[1].isdigit():
        family, block = BLOCK_CIPHERS[parts[0]]
        key_len, mode = int(parts[1]) // 8, parts[2]
    else:
        raise Unavailable(f"cryptography's Cipher has no {primitive} here")
    if mode not in MODES or (mode == "CTR" and block != 16):
        raise Unavailable(f"cryptography's Cipher has no {mode} mode for {primitive}")
    iv_len = 0 if mode == "ECB" else block
    return (lambda k, iv: Cipher(family(k), MODES[mode](iv))), key_len, iv_len, block


def prepare_cipher(cell, kats, interop):
    make, key_len, iv_len, block = cipher_api(cell["primitive"])
    op = cell["operation"]
    if op not in ("encrypt", "decrypt", "roundtrip"):
        raise Unavailable(f"the runner times encrypt, decrypt and roundtrip, not {op}")
    pkcs7 = cell["params"].get("padding") == "pkcs7"

    def encrypt(key, iv, data, pad):
        if pad:
            p = cpadding.PKCS7(block * 8).padder()
            data = p.update(data) + p.finalize()
        e = make(key, iv).encryptor()
        return e.update(data) + e.finalize()

    def decrypt(key, iv, data, pad):
        d = make(key, iv).decryptor()
        out = d.update(data) + d.finalize()
        if pad:
            u = cpadding.PKCS7(block * 8).unpadder()
            out = u.update(out) + u.finalize()
        return out

    try:
        make(os.urandom(key_len), os.urandom(iv_len))
    except Exception as e:  # the OpenSSL beneath may lack the algorithm
        raise Unavailable(f"cryptography refuses {cell['primitive']}: {e}")
    checks = []
    for k in kats:
        key, iv, pt, ct = (bytes.fromhex(k[f]) for f in ("key", "iv", "pt", "ct"))
        ok = encrypt(key, iv, pt, False) == ct and decrypt(key, iv, ct, False) == pt
        checks.append(check(f"kat:{k['source']}", ok, "cryptography's Cipher encrypts to the vector and back"))
    key, iv = os.urandom(key_len), os.urandom(iv_len)
    data = os.urandom(cell["size"])
    sealed = encrypt(key, iv, data, pkcs7)
    checks.append(check("round trip", decrypt(key, iv, sealed, pkcs7) == data, "decrypts what it encrypted"))
    artifacts = None
    if interop is not None:
        got = decrypt(bytes.fromhex(interop["key"]), bytes.fromhex(interop["iv"]), bytes.fromhex(interop["ct"]),
                      interop.get("padding") == "pkcs7")
        checks.append(check("interop:native->python", got == bytes.fromhex(interop["pt"]),
                            "cryptography decrypts the native ciphertext"))
        ik, iiv, ip = os.urandom(key_len), os.urandom(iv_len), os.urandom(INTEROP_BYTES)
        artifacts = {"key": ik.hex(), "iv": iiv.hex(), "pt": ip.hex(), "ct": encrypt(ik, iiv, ip, False).hex(),
                     "size": INTEROP_BYTES}
    if op == "encrypt":
        def run(iters):
            for _ in range(iters):
                encrypt(key, iv, data, pkcs7)
    elif op == "decrypt":
        def run(iters):
            for _ in range(iters):
                decrypt(key, iv, sealed, pkcs7)
    else:
        def run(iters):
            for _ in range(iters):
                # Encrypt, decrypt and compare, as the native roundtrip does.
                _ = decrypt(key, iv, encrypt(key, iv, data, pkcs7), pkcs7) == data
    return run, checks, artifacts


# --- aead ------------------------------------------------------------------

def aead_api(primitive, tag):
    """(library label, key bytes, nonce bytes, keyed) for an AEAD name:
    keyed(key) -> (seal(nonce, msg, aad), open(nonce, sealed, aad)), bound to
    one keyed object where the library has one, as the native case keys its
    context once and seals every message on it."""
    p = primitive.lower()
    if p == "xchacha20-poly1305":
        if not NACL:
            raise Unavailable(FAMILIES["pynacl"]["reason"])
        if tag != 16:
            raise Skipped("XChaCha20-Poly1305 has a 16-byte tag")

        # PyNaCl's functions take the key with every message: no keyed object.
        def keyed(k):
            return (lambda n, m, a: sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(m, a, n, k),
                    lambda n, c, a: sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(c, a, n, k))
        return "PyNaCl", 32, 24, keyed
    if not CRYPTOGRAPHY:
        raise Unavailable(FAMILIES["cryptography"]["reason"])
    if is_aes_siv(p):
        return siv_api(p, tag)
    key_len = 16 if p.startswith("aes-128") else 32
    if p in ("aes-128-gcm", "aes-256-gcm"):
        if tag != 16:
            raise Skipped("cryptography's AESGCM makes 16-byte tags only")
        cls, nonce = caead.AESGCM, 12
    elif p == "chacha20-poly1305":
        if tag != 16:
            raise Skipped("ChaCha20-Poly1305 has a 16-byte tag")
        cls, nonce = caead.ChaCha20Poly1305, 12
    elif p in ("aes-128-ccm", "aes-256-ccm"):
        cls, nonce = (lambda k: caead.AESCCM(k, tag_length=tag)), 12
    elif p in ("aes-128-ocb", "aes-256-ocb"):
        if not hasattr(caead, "AESOCB3"):
            raise Unavailable(f"cryptography {LIBRARIES['cryptography']} has no AESOCB3 (36+)")
        if tag != 16:
            raise Skipped("cryptography's AESOCB3 makes 16-byte tags only")
        cls, nonce = caead.AESOCB3, 12
    else:
        raise Unavailable(f"no Python library here offers {primitive}")

    def keyed(k):
        aead = cls(k)
        return aead.encrypt, aead.decrypt

    return "cryptography", key_len, nonce, keyed


def is_aes_siv(primitive):
    return primitive.lower() in ("aes-128-siv", "aes-256-siv")


def siv_components(aad, nonce):
    """AES-SIV's S2V components as the native side orders them: the
    associated data, then the nonce when there is one."""
    return [aad, nonce] if nonce else [aad]


def siv_api(p, tag):
    """cryptography's AESSIV, turned to the suite's layout: it returns the
    synthetic IV first (RFC 5297), the suite puts the tag after the ciphertext."""
    if not hasattr(caead, "AESSIV"):
        raise Unavailable(f"cryptography {LIBRARIES['cryptography']} has no AESSIV")
    if tag != 16:
        raise Skipped("AES-SIV's tag is its 16-byte synthetic IV")

    def keyed(k):
        siv = caead.AESSIV(k)

        def seal(n, m, a):
            out = siv.encrypt(m, siv_components(a, n))
            return out[16:] + out[:16]

        def opn(n, c, a):
            return siv.decrypt(c[-16:] + c[:-16], siv_components(a, n))

        return seal, opn

    return "cryptography", 32 if p.startswith("aes-128") else 64, 16, keyed


def opens(opn, key, nonce, sealed, aad):
    try:
        return opn(key, nonce, sealed, aad)
    except Exception:
        return None


def prepare_aead(cell, kats, interop):
    params = cell["params"]
    tag = int(params.get("tag", 16))
    aad_len = int(params.get("aad", 0))
    lib, key_len, nonce_len, keyed = aead_api(cell["primitive"], tag)

    def seal(k, n, m, a):
        return keyed(k)[0](n, m, a)

    def opn(k, n, c, a):
        return keyed(k)[1](n, c, a)

    if cell["size"] == 0 and is_aes_siv(cell["primitive"]):
        # OpenSSL 3.0 beneath cryptography computes no synthetic IV for it.
        raise Skipped(f"{lib}'s AESSIV cannot seal an empty message")
    if cell["operation"] not in ("encrypt", "decrypt"):
        raise Unavailable(f"the runner times encrypt and decrypt, not {cell['operation']}")
    checks = []
    for k in kats:
        key, nonce, aad = bytes.fromhex(k["key"]), bytes.fromhex(k["nonce"]), bytes.fromhex(k["aad"])
        sealed = bytes.fromhex(k["ct"]) + bytes.fromhex(k["tag"])
        if len(key) != key_len or len(nonce) != nonce_len:
            continue
        if not k["pt"] and is_aes_siv(cell["primitive"]):
            checks.append(skipped(f"kat:{k['source']}", f"{lib}'s AESSIV cannot seal an empty message"))
            continue
        if k["valid"]:
            ok = seal(key, nonce, bytes.fromhex(k["pt"]), aad) == sealed \
                and opens(opn, key, nonce, sealed, aad) == bytes.fromhex(k["pt"])
            checks.append(check(f"kat:{k['source']}", ok, f"{lib} seals to the vector and opens it"))
        else:
            checks.append(check(f"kat:{k['source']}", opens(opn, key, nonce, sealed, aad) is None,
                                f"{lib} refuses the invalid vector"))
    key = os.urandom(key_len)
    msg = os.urandom(min(cell["size"], 1 << 20))
    aad = os.urandom(aad_len)
    nonce = os.urandom(nonce_len)
    sealed = seal(key, nonce, msg, aad)
    checks.append(check("round trip", opens(opn, key, nonce, sealed, aad) == msg, "opens what it sealed"))
    tampered = bytearray(sealed)
    tampered[0] ^= 1
    checks.append(check("tamper", opens(opn, key, nonce, bytes(tampered), aad) is None,
                        "refuses a flipped ciphertext bit"))
    artifacts = None
    if interop is not None:
        n_sealed = bytes.fromhex(interop["ct"]) + bytes.fromhex(interop["tag"])
        got = opens(opn, bytes.fromhex(interop["key"]), bytes.fromhex(interop["nonce"]), n_sealed,
                    bytes.fromhex(interop["aad"]))
        checks.append(check("interop:native->python", got == bytes.fromhex(interop["pt"]),
                            f"{lib} opens the native ciphertext and tag"))
        ik, inn, ia, ip = os.urandom(key_len), os.urandom(len(bytes.fromhex(interop["nonce"]))), \
            os.urandom(13), os.urandom(INTEROP_BYTES)
        out = seal(ik, inn, ip, ia)
        artifacts = {"key": ik.hex(), "nonce": inn.hex(), "aad": ia.hex(), "pt": ip.hex(),
                     "ct": out[:-tag].hex(), "tag": out[-tag:].hex(), "size": INTEROP_BYTES}
    data = os.urandom(cell["size"])
    counter = [0]

    def nonce_at(i):
        return i.to_bytes(nonce_len, "little")

    # Keyed once, as the native case: each timed message is one seal or open.
    seal_keyed, open_keyed = keyed(key)
    if cell["operation"] == "encrypt":
        def run(iters):
            c = counter[0]
            for i in range(c, c + iters):
                seal_keyed(nonce_at(i), data, aad)
            counter[0] = c + iters
    else:
        fixed = seal(key, nonce, data, aad)

        def run(iters):
            for _ in range(iters):
                open_keyed(nonce, fixed, aad)
    return run, checks, artifacts


# --- ecc -------------------------------------------------------------------

def curve_api(name):
    """(generate, kind) where kind is 'ecdsa', 'eddsa' or 'dh'."""
    if not CRYPTOGRAPHY:
        raise Unavailable(FAMILIES["cryptography"]["reason"])
    n = name.lower()
    fixed = {"x25519": (x25519.X25519PrivateKey.generate, "dh"),
             "x448": (x448.X448PrivateKey.generate, "dh"),
             "ed25519": (ed25519.Ed25519PrivateKey.generate, "eddsa"),
             "ed448": (ed448.Ed448PrivateKey.generate, "eddsa")}
    if n in fixed:
        return fixed[n]
    aliases = {"prime256v1": "secp256r1", "prime192v1": "secp192r1"}
    curve = ec._CURVE_TYPES.get(aliases.get(n, n))
    if curve is None:
        raise Unavailable(f"cryptography has no curve {name}")
    c = curve() if isinstance(curve, type) else curve
    return (lambda: ec.generate_private_key(c)), "ecdsa"


def sign(key, kind, msg):
    return key.sign(msg, ec.ECDSA(hashes.SHA256())) if kind == "ecdsa" else key.sign(msg)


def verify(pub, kind, sig, msg):
    try:
        if kind == "ecdsa":
            pub.verify(sig, msg, ec.ECDSA(hashes.SHA256()))
        else:
            pub.verify(sig, msg)
        return True
    except InvalidSignature:
        return False


def works_together(private, public, kind, generate):
    """Whether a private key and a public key form a pair: sign with one and
    verify with the other, or agree on a secret with a fresh key both ways."""
    if kind == "dh":
        mine = generate()
        return private.exchange(mine.public_key()) == mine.exchange(public)
    msg = os.urandom(32)
    return verify(public, kind, sign(private, kind, msg), msg)


def prepare_ecc(cell, kats, interop):
    generate, kind = curve_api(cell["primitive"])
    op = cell["operation"]
    if op not in ("keygen", "sign") or (op == "sign" and kind == "dh"):
        raise Unavailable(f"the runner times keygen and signatures, not {op} on {cell['primitive']}")
    key = generate()
    checks = [check("round trip", works_together(key, key.public_key(), kind, generate),
                    "a fresh key signs and verifies" if kind != "dh" else "two fresh keys agree")]
    msg = os.urandom(32)
    if kind != "dh":
        sig = sign(key, kind, msg)
        bad = bytearray(msg)
        bad[0] ^= 1
        checks.append(check("tamper", not verify(key.public_key(), kind, sig, bytes(bad)),
                            "a signature does not verify another message"))
    artifacts = None
    if interop is not None:
        priv = serialization.load_pem_private_key(interop["pem"].encode(), None)
        pub = serialization.load_der_public_key(bytes.fromhex(interop["spki"]))
        checks.append(check("interop:native->python", works_together(priv, pub, kind, generate),
                            "the native PKCS#8 key and SPKI public key work together in cryptography"))
        mine = generate()
        artifacts = {
            "pem": mine.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()).decode(),
            "spki": mine.public_key().public_bytes(serialization.Encoding.DER,
                                                   serialization.PublicFormat.SubjectPublicKeyInfo).hex()}
    if op == "keygen":
        def run(iters):
            for _ in range(iters):
                generate().public_key()
    else:
        def run(iters):
            for _ in range(iters):
                sign(key, kind, msg)
    return run, checks, artifacts


# --- argon2 ----------------------------------------------------------------

def argon2_raw(variant, password, salt, t, m_kib, p, tag_len, secret=b"", ad=b""):
    if secret or ad:
        raise Skipped("argon2-cffi's hash_secret_raw takes no secret key or associated data")
    types = {"argon2i": argon2_ll.Type.I, "argon2d": argon2_ll.Type.D, "argon2id": argon2_ll.Type.ID}
    return argon2_ll.hash_secret_raw(password, salt, t, m_kib, p, tag_len, types[variant], version=19)


def sodium_argon2id(variant, password, salt, t, m_kib, p, tag_len, secret=b"", ad=b""):
    """PyNaCl's nacl.pwhash.argon2id.kdf (libsodium): Argon2id, one lane, a 16-byte salt."""
    if variant != "argon2id":
        raise Unavailable(f"PyNaCl's pwhash offers Argon2id only, not {variant}")
    if secret or ad:
        raise Skipped("PyNaCl's kdf takes no secret key or associated data")
    if p != 1:
        raise Skipped(f"libsodium's Argon2 runs one lane; this has {p}")
    if len(salt) != nacl_argon2id.SALTBYTES:
        raise Skipped(f"PyNaCl's kdf takes a {nacl_argon2id.SALTBYTES}-byte salt, not {len(salt)}")
    return nacl_argon2id.kdf(tag_len, password, salt, opslimit=t, memlimit=m_kib * 1024)


ARGON2_TYPES = {"argon2i": "I", "argon2d": "D", "argon2id": "ID"}


def cffi_phc(variant, password, t, m_kib, p):
    """argon2-cffi's PasswordHasher: a PHC string with a fresh 16-byte salt."""
    hasher = argon2.PasswordHasher(time_cost=t, memory_cost=m_kib, parallelism=p, hash_len=32, salt_len=16,
                                   type=getattr(argon2_ll.Type, ARGON2_TYPES[variant]))
    return hasher.hash(password)


def cffi_verify(phc, password):
    try:
        return argon2.PasswordHasher().verify(phc, password)
    except (argon2.exceptions.VerificationError, argon2.exceptions.InvalidHash):
        return False


def sodium_phc(variant, password, t, m_kib, p):
    """PyNaCl's nacl.pwhash.argon2id.str (libsodium's crypto_pwhash_str)."""
    if variant != "argon2id" or p != 1:
        raise Skipped(f"PyNaCl's str makes one-lane Argon2id strings, not {variant} with {p} lanes")
    return nacl_argon2id.str(password, opslimit=t, memlimit=m_kib * 1024).decode("ascii")


def sodium_verify(phc, password):
    try:
        return nacl_argon2id.verify(phc.encode("ascii"), password)
    except nacl.exceptions.CryptoError:
        return False


# The Argon2 APIs, by the `api` parameter of a cell; the first is the default.
# Each: its family, the library named in interop checks, the raw-tag
# function, and the PHC string maker and verifier.
ARGON2_APIS = {"argon2-cffi": ("argon2-cffi", "argon2-cffi", lambda: (argon2_raw, cffi_phc, cffi_verify)),
               "pynacl": ("pynacl", "PyNaCl nacl.pwhash.argon2id", lambda: (sodium_argon2id, sodium_phc, sodium_verify))}


def argon2_apis():
    return [name for name, (family, _, _) in ARGON2_APIS.items() if FAMILIES[family]["available"]]


def prepare_argon2(cell, kats, interop):
    params = cell["params"]
    api = params.get("api", "argon2-cffi")
    if api not in ARGON2_APIS:
        raise Unavailable(f"the python runner has no Argon2 API {api}; it has {', '.join(ARGON2_APIS)}")
    family, library, get = ARGON2_APIS[api]
    if not FAMILIES[family]["available"]:
        raise Unavailable(FAMILIES[family]["reason"])
    raw_hash, make_phc, verify_phc = get()
    variant = cell["primitive"].lower()
    if variant not in ("argon2i", "argon2d", "argon2id"):
        raise Unavailable(f"{api} has no {cell['primitive']}")
    if params.get("version", "0x13") != "0x13":
        raise Unavailable("the runner hashes Argon2 version 0x13 only")
    m, t, p = int(params["m_kib"]), int(params["t"]), int(params["p"])
    threads, tag = int(params.get("threads", p)), int(params.get("tag", 32))
    if threads != p:
        raise Skipped(f"{api} runs one thread per lane; this cell has {p} lanes on {threads} threads")
    salt = os.urandom(16)
    raw_hash(variant, b"password", salt, 1, 8 * p, p, tag)  # refuses what this API cannot run, before the checks
    checks = []
    for k in kats:
        try:
            got = raw_hash(k["variant"], bytes.fromhex(k["password"]), bytes.fromhex(k["salt"]), k["t"],
                           k["m_kib"], k["p"], len(k["tag"]) // 2, bytes.fromhex(k["secret"]),
                           bytes.fromhex(k["ad"]))
            checks.append(check(f"kat:{k['source']}", got.hex() == k["tag"], f"{api} matches the vector"))
        except Skipped as why:
            checks.append(skipped(f"kat:{k['source']}", str(why)))
    artifacts = None
    if interop is not None:
        pw, isalt = bytes.fromhex(interop["password"]), bytes.fromhex(interop["salt"])
        raw = raw_hash(variant, pw, isalt, interop["t"], interop["m_kib"], interop["threads"], 32)
        checks.append(check("interop:native->python", raw.hex() == interop["raw"],
                            f"{library} gives the native 32-byte tag for the native inputs"))
        artifacts = {"password": pw.hex(), "salt": isalt.hex(), "raw": raw.hex(), "library": library}
        if "phc" in interop:
            wrong = bytes.fromhex(interop["wrong_password"])
            ok = verify_phc(interop["phc"], pw) and not verify_phc(interop["phc"], wrong)
            checks.append(check("interop:native->python phc", ok,
                                f"{library} verifies the native PHC string (and refuses a wrong password)"))
            artifacts["phc"] = make_phc(variant, pw, interop["t"], interop["m_kib"], interop["threads"])

    def run(iters):
        for _ in range(iters):
            raw_hash(variant, b"password", salt, t, m, p, tag)

    return run, checks, artifacts


PREPARE = {"hash": prepare_hash, "cipher": prepare_cipher, "aead": prepare_aead, "ecc": prepare_ecc, "argon2": prepare_argon2}


def offers():
    out = {"hash": [n.upper() if n.startswith("sha") else "BLAKE2b-512" for n in HASHES]}
    aeads = []
    if CRYPTOGRAPHY:
        aeads += ["AES-128-GCM", "AES-256-GCM", "ChaCha20-Poly1305", "AES-128-CCM", "AES-256-CCM"]
        if hasattr(caead, "AESOCB3"):
            aeads += ["AES-128-OCB", "AES-256-OCB"]
        if hasattr(caead, "AESSIV"):
            aeads += ["AES-128-SIV", "AES-256-SIV"]
    if NACL:
        aeads.append("XChaCha20-Poly1305")
    out["aead"] = aeads
    ciphers = []
    if CRYPTOGRAPHY:
        for bits in (128, 192, 256):
            ciphers += [f"AES-{bits}-{m}" for m in MODES]
            ciphers += [f"CAMELLIA-{bits}-{m}" for m in MODES if m != "CTR"]
        ciphers += [f"DES-EDE3-{m}" for m in MODES if m != "CTR"] + ["ChaCha20"]
    out["cipher"] = ciphers
    curves = []
    if CRYPTOGRAPHY:
        curves = ["prime256v1", "secp256r1", "secp384r1", "secp521r1", "secp256k1", "secp224r1",
                  "brainpoolP256r1", "brainpoolP384r1", "brainpoolP512r1",
                  "X25519", "X448", "Ed25519", "Ed448"]
    out["ecc"] = curves
    out["argon2"] = ["Argon2i", "Argon2d", "Argon2id"] if ARGON2 else (["Argon2id"] if NACL else [])
    return out


def main():
    cases = {}
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            op = req.get("op")
            if op == "hello":
                ans = {"ok": True, "protocol": PROTOCOL, "runtime": "python",
                       "version": platform.python_version(), "libraries": LIBRARIES,
                       "families": FAMILIES, "offers": offers(), "apis": {"argon2": argon2_apis()}}
            elif op == "offers":
                ans = {"ok": True, "offers": offers()}
            elif op == "prepare":
                cell = req["cell"]
                prep = PREPARE.get(cell["suite"])
                try:
                    if prep is None:
                        raise Unavailable(f"the python runner serves no suite {cell['suite']}")
                    run, checks, artifacts = prep(cell, req.get("kats", []), req.get("interop"))
                    cases[req["id"]] = run
                    ans = {"ok": True, "checks": checks, "artifacts": artifacts}
                except Unavailable as why:
                    ans = {"ok": True, "unavailable": str(why)}
                except Skipped as why:
                    ans = {"ok": True, "skipped": str(why)}
            elif op == "time":
                run = cases.get(req["id"])
                if run is None:
                    ans = {"ok": False, "error": f"no prepared case {req['id']}"}
                else:
                    iters = int(req["iters"])
                    # A batch of several operations starts with one untimed,
                    # as in every runner: the members of a group take turns,
                    # and the first operation after another runner's batch
                    # pays for the caches that batch took. Timed, it
                    # scattered this runner's 100-250 us batches by a median
                    # MAD of 8% and inflated their medians. A single-call
                    # batch (100 us or more) is not doubled for it.
                    if iters > 1:
                        run(1)
                    start = time.perf_counter_ns()
                    run(iters)
                    ans = {"ok": True, "ns": time.perf_counter_ns() - start, "iters": iters}
            elif op == "release":
                if cases.pop(req.get("id"), None) is None:
                    ans = {"ok": False, "error": f"no prepared case {req.get('id')}"}
                else:
                    ans = {"ok": True}
            else:
                ans = {"ok": False, "error": f"unknown op {op!r}"}
        except Exception as e:  # a request that fails answers, the runner lives on
            ans = {"ok": False, "error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(ans) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
