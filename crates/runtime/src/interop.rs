//! Interop: what a runtime makes opens natively, and what we make opens in
//! the runtime.
//!
//! Each [`Interop`] has two halves. [`Interop::native_artifacts`] makes a
//! ciphertext (or digest, PHC string, key, signature) with the native
//! library and sends it in the prepare request; the runner opens it and
//! reports `interop:native->RUNTIME`. The runner answers with its own
//! artifacts, which [`Interop::check_runtime_artifacts`] opens with the
//! native library (`interop:RUNTIME->native`). The artifacts' shape is the
//! same for every runtime, so one native side serves them all. Native means the libraries the native suites
//! measure: OpenSSL through the `openssl` crate, the vendored libsodium,
//! RustCrypto's `argon2`.

use argon2::{Algorithm, Argon2, Params, PasswordHasher, PasswordVerifier, Version};
use cryptobench_core::CheckResult;
use openssl::cipher::Cipher;
use openssl::cipher_ctx::CipherCtx;
use openssl::nid::Nid;
use serde_json::{json, Value};
use std::ffi::{c_int, c_uchar, c_ulonglong, CString};
use thiserror::Error;

/// Why one half of an interop check could not be made. `RUNTIME` in a
/// message stands for the runtime's name; [`verdict`] fills it in.
#[derive(Debug, Error, Clone)]
pub enum InteropError {
    /// The native library lacks the primitive (here).
    #[error("the native {library} has no {primitive}")]
    NativeLacks {
        /// `OpenSSL`, `libsodium`.
        library: &'static str,
        /// What it lacks, and why when known.
        primitive: String,
    },
    /// The native OpenSSL failed on the native side's own work.
    #[error("the native OpenSSL failed: {0}")]
    OpenSsl(#[from] openssl::error::ErrorStack),
    /// A native library other than OpenSSL failed.
    #[error("the native {library} failed: {reason}")]
    NativeFailed {
        /// `libsodium`, `RustCrypto argon2`.
        library: &'static str,
        /// Its reason.
        reason: String,
    },
    /// The artifacts lack a field.
    #[error("RUNTIME's artifacts have no `{0}`")]
    MissingArtifact(&'static str),
    /// An artifact field is not hex.
    #[error("RUNTIME's artifact `{field}` is not hex: {reason}")]
    NotHex {
        /// The field.
        field: &'static str,
        /// The decoder's reason.
        reason: String,
    },
    /// An artifact has the wrong length for the native API.
    #[error("RUNTIME's {field} is {got} bytes; the native side takes {want}")]
    WrongLength {
        /// The field.
        field: &'static str,
        /// Its length.
        got: usize,
        /// The length the native API takes.
        want: usize,
    },
    /// The native library refused what the runtime made.
    #[error("the native {library} refused RUNTIME's {what}")]
    Refused {
        /// `OpenSSL`, `libsodium`.
        library: &'static str,
        /// `ciphertext and tag`.
        what: &'static str,
    },
    /// The native OpenSSL cannot read the runtime's key.
    #[error("the native OpenSSL cannot parse RUNTIME's key: {0}")]
    UnreadableKey(openssl::error::ErrorStack),
    /// The runtime's key is of another type or on another curve.
    #[error("RUNTIME's key is not {0}")]
    WrongKey(String),
    /// The curve is unknown to the native OpenSSL.
    #[error("unknown curve {0}")]
    UnknownCurve(String),
    /// The inputs sent to the runtime were not kept for the check.
    #[error("the native inputs sent to RUNTIME were not kept")]
    InputsLost,
}

fn argon2_failed(e: impl std::fmt::Display) -> InteropError {
    InteropError::NativeFailed {
        library: "RustCrypto argon2",
        reason: e.to_string(),
    }
}

/// Bytes of the interop message (seed 003's 1 KB; a multiple of every block).
pub const INTEROP_BYTES: usize = 1024;

/// The name of the check that opens a runtime's artifacts natively.
pub fn back_check(runtime: &str) -> String {
    format!("interop:{runtime}->native")
}

/// Both directions of one primitive's interop.
pub trait Interop: Send + Sync {
    /// What the native side made, as the runner's `interop` object.
    fn native_artifacts(&self) -> Result<Value, InteropError>;
    /// Opens what the runtime made; the check is named
    /// `interop:RUNTIME->native`.
    fn check_runtime_artifacts(&self, runtime: &str, artifacts: &Value) -> CheckResult;
    /// Further checks of the same artifacts, each under its own name
    /// (Argon2's PHC string beside its raw tag).
    fn more_runtime_checks(&self, _runtime: &str, _artifacts: &Value) -> Vec<CheckResult> {
        Vec::new()
    }
}

pub(crate) fn random(n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    if n > 0 {
        // The CSPRNG only fails when the OS has no entropy source at all.
        let _ = openssl::rand::rand_bytes(&mut v);
    }
    v
}

pub(crate) fn field(a: &Value, k: &'static str) -> Result<Vec<u8>, InteropError> {
    let s = a
        .get(k)
        .and_then(Value::as_str)
        .ok_or(InteropError::MissingArtifact(k))?;
    hex::decode(s).map_err(|e| InteropError::NotHex {
        field: k,
        reason: e.to_string(),
    })
}

pub(crate) fn verdict(
    runtime: &str,
    result: Result<bool, InteropError>,
    ok: &str,
    bad: &str,
) -> CheckResult {
    let name = back_check(runtime);
    let say = |s: &str| s.replace("RUNTIME", runtime);
    match result {
        Ok(true) => CheckResult::pass(name, say(ok)),
        Ok(false) => CheckResult::fail(name, say(bad)),
        Err(e) => CheckResult::fail(name, say(&e.to_string())),
    }
}

/// The verdict on the native side's plaintext of RUNTIME's ciphertext: it
/// passes when `decrypt` gives RUNTIME's own message (`pt`) back.
pub(crate) fn decrypts_to_runtime_message(
    runtime: &str,
    a: &Value,
    decrypt: impl FnOnce() -> Result<Vec<u8>, InteropError>,
    ok: &str,
    bad: &str,
) -> CheckResult {
    let result = decrypt().and_then(|pt| field(a, "pt").map(|sent| pt == sent));
    verdict(runtime, result, ok, bad)
}

extern "C" {
    // Not bound by openssl-sys: looks a name up as short name, long name or OID.
    fn OBJ_txt2nid(s: *const std::ffi::c_char) -> c_int;
}

/// The NID of an OpenSSL object name (short or long: `AES-128-CBC`,
/// `aes-128-cbc`, `prime256v1`).
pub fn nid_of(name: &str) -> Option<Nid> {
    let c = CString::new(name).ok()?;
    // SAFETY: reads a NUL-terminated string; NID_undef (0) means unknown.
    // A failed lookup leaves an error on the thread's queue: cleared so it
    // is not reported by the next, unrelated OpenSSL call.
    let nid = unsafe { OBJ_txt2nid(c.as_ptr()) };
    if nid == 0 {
        // SAFETY: clears this thread's error queue only.
        unsafe { openssl_sys::ERR_clear_error() };
        return None;
    }
    Some(Nid::from_raw(nid))
}

/// The cipher behind an OpenSSL method name, fetched by name from the
/// default and legacy providers (`aes-128-wrap`, `des-ede3-ecb` are
/// provider names without a classic NID).
pub fn fetch(method: &str) -> Result<Cipher, InteropError> {
    let _ = cryptobench_suite_common::openssl_lib::ensure_providers();
    Cipher::fetch(None, method, None).map_err(|_| InteropError::NativeLacks {
        library: "OpenSSL",
        primitive: method.to_string(),
    })
}

fn key_iv(cipher: &Cipher) -> (Vec<u8>, Vec<u8>) {
    (random(cipher.key_length()), random(cipher.iv_length()))
}

fn crypt(
    method: &str,
    encrypt: bool,
    key: &[u8],
    iv: &[u8],
    pad: bool,
    data: &[u8],
) -> Result<Vec<u8>, InteropError> {
    let cipher = fetch(method)?;
    let iv = (!iv.is_empty()).then_some(iv);
    let mut ctx = CipherCtx::new()?;
    if encrypt {
        ctx.encrypt_init(Some(&cipher), Some(key), iv)
    } else {
        ctx.decrypt_init(Some(&cipher), Some(key), iv)
    }?;
    ctx.set_padding(pad);
    let mut out = Vec::new();
    ctx.cipher_update_vec(data, &mut out)?;
    ctx.cipher_final_vec(&mut out)?;
    Ok(out)
}

/// Seals with an AEAD method; CCM needs its tag and message lengths up front.
fn aead_seal(
    method: &str,
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    pt: &[u8],
    tag: &mut [u8],
) -> Result<Vec<u8>, InteropError> {
    let cipher = fetch(method)?;
    let ccm = method.ends_with("-ccm");
    let mut ctx = CipherCtx::new()?;
    ctx.encrypt_init(Some(&cipher), None, None)?;
    ctx.set_iv_length(nonce.len())?;
    if ccm {
        ctx.set_tag_length(tag.len())?;
    }
    ctx.encrypt_init(None, Some(key), Some(nonce))?;
    if ccm {
        ctx.set_data_len(pt.len())?;
    }
    if !aad.is_empty() {
        ctx.cipher_update(aad, None)?;
    }
    let mut out = Vec::new();
    ctx.cipher_update_vec(pt, &mut out)?;
    ctx.cipher_final_vec(&mut out)?;
    ctx.tag(tag)?;
    Ok(out)
}

/// Opens with an AEAD method; `Err` when the tag does not verify.
fn aead_open(
    method: &str,
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    ct: &[u8],
    tag: &[u8],
) -> Result<Vec<u8>, InteropError> {
    let refused = |_| InteropError::Refused {
        library: "OpenSSL",
        what: "ciphertext and tag",
    };
    let cipher = fetch(method)?;
    let ccm = method.ends_with("-ccm");
    let mut ctx = CipherCtx::new().map_err(refused)?;
    ctx.decrypt_init(Some(&cipher), None, None)
        .map_err(refused)?;
    ctx.set_iv_length(nonce.len()).map_err(refused)?;
    if ccm {
        ctx.set_tag(tag).map_err(refused)?;
    }
    ctx.decrypt_init(None, Some(key), Some(nonce))
        .map_err(refused)?;
    if ccm {
        ctx.set_data_len(ct.len()).map_err(refused)?;
    }
    if !aad.is_empty() {
        ctx.cipher_update(aad, None).map_err(refused)?;
    }
    let mut out = Vec::new();
    ctx.cipher_update_vec(ct, &mut out).map_err(refused)?;
    if !ccm {
        ctx.set_tag(tag).map_err(refused)?;
        ctx.cipher_final_vec(&mut out).map_err(refused)?;
    }
    Ok(out)
}

/// `openssl_encrypt` of a plain cipher against the `openssl` crate.
#[derive(Debug, Clone)]
pub struct CipherInterop {
    /// The OpenSSL method name.
    pub method: String,
    /// PKCS#7 padding (else none: the message is whole blocks).
    pub pkcs7: bool,
}

impl Interop for CipherInterop {
    fn native_artifacts(&self) -> Result<Value, InteropError> {
        let (key, iv) = key_iv(&fetch(&self.method)?);
        let pt = random(INTEROP_BYTES);
        let ct = crypt(&self.method, true, &key, &iv, self.pkcs7, &pt)?;
        Ok(
            json!({"key": hex::encode(&key), "iv": hex::encode(&iv), "pt": hex::encode(&pt),
            "ct": hex::encode(&ct), "size": INTEROP_BYTES,
            "padding": if self.pkcs7 { "pkcs7" } else { "none" }}),
        )
    }

    fn check_runtime_artifacts(&self, runtime: &str, a: &Value) -> CheckResult {
        decrypts_to_runtime_message(
            runtime,
            a,
            || {
                crypt(
                    &self.method,
                    false,
                    &field(a, "key")?,
                    &field(a, "iv")?,
                    self.pkcs7,
                    &field(a, "ct")?,
                )
            },
            "the native OpenSSL decrypted RUNTIME's ciphertext",
            "the native OpenSSL decryption of RUNTIME's ciphertext differs from RUNTIME's message",
        )
    }
}

/// `openssl_encrypt` with a tag (GCM, CCM, OCB, ChaCha20-Poly1305).
#[derive(Debug, Clone)]
pub struct OpensslAeadInterop {
    /// The OpenSSL method name.
    pub method: String,
    /// Tag bytes.
    pub tag: usize,
    /// Nonce bytes.
    pub nonce: usize,
}

impl Interop for OpensslAeadInterop {
    fn native_artifacts(&self) -> Result<Value, InteropError> {
        let key = random(fetch(&self.method)?.key_length());
        let nonce = random(self.nonce);
        let aad = random(13);
        let pt = random(INTEROP_BYTES);
        let mut tag = vec![0u8; self.tag];
        let ct = aead_seal(&self.method, &key, &nonce, &aad, &pt, &mut tag)?;
        Ok(
            json!({"key": hex::encode(&key), "nonce": hex::encode(&nonce), "aad": hex::encode(&aad),
            "pt": hex::encode(&pt), "ct": hex::encode(&ct), "tag": hex::encode(&tag), "size": INTEROP_BYTES}),
        )
    }

    fn check_runtime_artifacts(&self, runtime: &str, a: &Value) -> CheckResult {
        decrypts_to_runtime_message(
            runtime,
            a,
            || {
                aead_open(
                    &self.method,
                    &field(a, "key")?,
                    &field(a, "nonce")?,
                    &field(a, "aad")?,
                    &field(a, "ct")?,
                    &field(a, "tag")?,
                )
            },
            "the native OpenSSL opened RUNTIME's ciphertext and tag",
            "the native OpenSSL opened RUNTIME's ciphertext to a different message",
        )
    }
}

type SealFn = unsafe extern "C" fn(
    *mut c_uchar,
    *mut c_ulonglong,
    *const c_uchar,
    c_ulonglong,
    *const c_uchar,
    c_ulonglong,
    *const c_uchar,
    *const c_uchar,
    *const c_uchar,
) -> c_int;
type OpenFn = unsafe extern "C" fn(
    *mut c_uchar,
    *mut c_ulonglong,
    *mut c_uchar,
    *const c_uchar,
    c_ulonglong,
    *const c_uchar,
    c_ulonglong,
    *const c_uchar,
    *const c_uchar,
) -> c_int;

/// libsodium's functions and sizes for a libsodium AEAD name (PHP's spelling).
fn sodium_aead(alg: &str) -> Option<(SealFn, OpenFn, usize, usize)> {
    use libsodium_sys as s;
    Some(match alg {
        "aes256gcm" => (
            s::crypto_aead_aes256gcm_encrypt as SealFn,
            s::crypto_aead_aes256gcm_decrypt as OpenFn,
            32,
            12,
        ),
        "chacha20poly1305" => (
            s::crypto_aead_chacha20poly1305_encrypt,
            s::crypto_aead_chacha20poly1305_decrypt,
            32,
            8,
        ),
        "chacha20poly1305_ietf" => (
            s::crypto_aead_chacha20poly1305_ietf_encrypt,
            s::crypto_aead_chacha20poly1305_ietf_decrypt,
            32,
            12,
        ),
        "xchacha20poly1305_ietf" => (
            s::crypto_aead_xchacha20poly1305_ietf_encrypt,
            s::crypto_aead_xchacha20poly1305_ietf_decrypt,
            32,
            24,
        ),
        _ => return None,
    })
}

/// A libsodium AEAD (`sodium_crypto_aead_*` in PHP) against the vendored libsodium.
#[derive(Debug, Clone)]
pub struct SodiumAeadInterop {
    /// The algorithm name, as libsodium's functions spell it (`chacha20poly1305_ietf`).
    pub alg: String,
}

impl SodiumAeadInterop {
    fn fns(&self) -> Result<(SealFn, OpenFn, usize, usize), InteropError> {
        cryptobench_suite_common::sodium::init().map_err(|e| InteropError::NativeFailed {
            library: "libsodium",
            reason: e.to_string(),
        })?;
        if self.alg == "aes256gcm" {
            // SAFETY: a pure CPU-feature query after sodium_init.
            if unsafe { libsodium_sys::crypto_aead_aes256gcm_is_available() } == 0 {
                return Err(InteropError::NativeLacks {
                    library: "libsodium",
                    primitive: "AES-256-GCM on this CPU (it needs AES-NI and PCLMUL)".into(),
                });
            }
        }
        sodium_aead(&self.alg).ok_or_else(|| InteropError::NativeLacks {
            library: "libsodium",
            primitive: self.alg.clone(),
        })
    }
}

impl Interop for SodiumAeadInterop {
    fn native_artifacts(&self) -> Result<Value, InteropError> {
        let (seal, _, key_len, nonce_len) = self.fns()?;
        let (key, nonce, aad, pt) = (
            random(key_len),
            random(nonce_len),
            random(13),
            random(INTEROP_BYTES),
        );
        let mut out = vec![0u8; pt.len() + 16];
        let mut n: c_ulonglong = 0;
        // SAFETY: buffers are sized as libsodium documents (message + ABYTES,
        // KEYBYTES key, NPUBBYTES nonce); nsec is unused and NULL.
        let rc = unsafe {
            seal(
                out.as_mut_ptr(),
                &mut n,
                pt.as_ptr(),
                pt.len() as c_ulonglong,
                aad.as_ptr(),
                aad.len() as c_ulonglong,
                std::ptr::null(),
                nonce.as_ptr(),
                key.as_ptr(),
            )
        };
        if rc != 0 {
            return Err(InteropError::NativeFailed {
                library: "libsodium",
                reason: format!("{} refused to seal", self.alg),
            });
        }
        out.truncate(n as usize);
        let (ct, tag) = out.split_at(out.len() - 16);
        Ok(
            json!({"key": hex::encode(&key), "nonce": hex::encode(&nonce), "aad": hex::encode(&aad),
            "pt": hex::encode(&pt), "ct": hex::encode(ct), "tag": hex::encode(tag), "size": INTEROP_BYTES}),
        )
    }

    fn check_runtime_artifacts(&self, runtime: &str, a: &Value) -> CheckResult {
        decrypts_to_runtime_message(
            runtime,
            a,
            || {
                let (_, open, key_len, nonce_len) = self.fns()?;
                let (key, nonce, aad) = (field(a, "key")?, field(a, "nonce")?, field(a, "aad")?);
                for (field, got, want) in [
                    ("key", key.len(), key_len),
                    ("nonce", nonce.len(), nonce_len),
                ] {
                    if got != want {
                        return Err(InteropError::WrongLength { field, got, want });
                    }
                }
                let mut sealed = field(a, "ct")?;
                sealed.extend(field(a, "tag")?);
                let mut pt = vec![0u8; sealed.len()];
                let mut n: c_ulonglong = 0;
                // SAFETY: lengths checked above; the output has room for the
                // whole input.
                let rc = unsafe {
                    open(
                        pt.as_mut_ptr(),
                        &mut n,
                        std::ptr::null_mut(),
                        sealed.as_ptr(),
                        sealed.len() as c_ulonglong,
                        aad.as_ptr(),
                        aad.len() as c_ulonglong,
                        nonce.as_ptr(),
                        key.as_ptr(),
                    )
                };
                if rc != 0 {
                    return Err(InteropError::Refused {
                        library: "libsodium",
                        what: "ciphertext",
                    });
                }
                pt.truncate(n as usize);
                Ok(pt)
            },
            "the native libsodium opened RUNTIME's ciphertext",
            "the native libsodium opened RUNTIME's ciphertext to a different message",
        )
    }
}

/// `mcrypt_encrypt` with rijndael-128 against OpenSSL's AES (the only
/// libmcrypt algorithm both share here).
#[derive(Debug, Clone)]
pub struct McryptInterop {
    /// The OpenSSL method with the same algorithm and mode (`aes-128-cfb8`).
    pub openssl_method: String,
}

impl Interop for McryptInterop {
    fn native_artifacts(&self) -> Result<Value, InteropError> {
        CipherInterop {
            method: self.openssl_method.clone(),
            pkcs7: false,
        }
        .native_artifacts()
    }
    fn check_runtime_artifacts(&self, runtime: &str, a: &Value) -> CheckResult {
        CipherInterop {
            method: self.openssl_method.clone(),
            pkcs7: false,
        }
        .check_runtime_artifacts(runtime, a)
    }
}

/// Interop parameters for Argon2: small, so the check costs milliseconds.
pub const INTEROP_ARGON2: (u32, u32) = (1024, 3);

/// The [`Argon2Interop`] API of the cell-driven runners: PHC strings both
/// ways and, as a second, independent check, raw 32-byte tags.
pub const ARGON2_PHC_AND_RAW: &str = "phc-and-raw";

/// The name of the check that verifies a runtime's PHC string natively.
pub fn phc_back_check(runtime: &str) -> String {
    format!("{} phc", back_check(runtime))
}

/// `phc` with the first character of its hash replaced: a string that
/// still parses but must not verify.
pub fn edit_phc_hash(phc: &str) -> String {
    let Some(at) = phc.rfind('$') else {
        return phc.to_string();
    };
    let mut out = phc.to_string();
    if let Some(c) = phc[at + 1..].chars().next() {
        let other = if c == 'A' { "B" } else { "A" };
        out.replace_range(at + 1..at + 1 + c.len_utf8(), other);
    }
    out
}

/// Argon2 from a runtime against RustCrypto's `argon2`: PHC strings
/// (`password_hash`), raw tags (`sodium_crypto_pwhash`), or both
/// ([`ARGON2_PHC_AND_RAW`], the cell-driven runners).
#[derive(Debug, Clone)]
pub struct Argon2Interop {
    /// `password_hash`, `sodium` or [`ARGON2_PHC_AND_RAW`].
    pub api: String,
    /// `argon2i` or `argon2id`.
    pub variant: String,
    /// Password and salt sent to the runtime, kept to recompute its raw tag.
    pub sent: std::sync::OnceLock<(Vec<u8>, Vec<u8>)>,
}

impl Argon2Interop {
    /// Interop for `api` (`password_hash`, `sodium` or
    /// [`ARGON2_PHC_AND_RAW`]) and `variant`.
    pub fn new(api: &str, variant: &str) -> Self {
        Self {
            api: api.into(),
            variant: variant.into(),
            sent: std::sync::OnceLock::new(),
        }
    }

    fn sends_phc(&self) -> bool {
        self.api == "password_hash" || self.api == ARGON2_PHC_AND_RAW
    }

    fn sends_raw(&self) -> bool {
        self.api != "password_hash"
    }

    fn hasher(&self, m_kib: u32, t: u32, lanes: u32) -> Result<Argon2<'static>, InteropError> {
        let alg = match self.variant.as_str() {
            "argon2i" => Algorithm::Argon2i,
            "argon2d" => Algorithm::Argon2d,
            _ => Algorithm::Argon2id,
        };
        let params = Params::new(m_kib, t, lanes, Some(32)).map_err(argon2_failed)?;
        Ok(Argon2::new(alg, Version::V0x13, params))
    }

    /// What made the runtime's artifacts: the runner names its library,
    /// PHP's runner does not.
    fn library(&self, a: &Value) -> String {
        match a.get("library").and_then(Value::as_str) {
            Some(lib) => format!("RUNTIME's {lib}"),
            None if self.api == "sodium" => "sodium_crypto_pwhash".into(),
            None => "RUNTIME's password_hash".into(),
        }
    }

    /// RustCrypto verifies the runtime's PHC string with the password sent
    /// back, and refuses it with a wrong password and with an edited hash.
    fn check_phc(&self, name: String, runtime: &str, a: &Value) -> CheckResult {
        let library = self.library(a);
        let say = |s: String| s.replace("RUNTIME", runtime);
        let Some(phc) = a.get("phc").and_then(Value::as_str) else {
            // A library that makes no PHC strings says so (Node.js).
            return match a.get("phc_unavailable").and_then(Value::as_str) {
                Some(why) => CheckResult::skipped(name, say(why.to_string())),
                None => CheckResult::fail(name, say("RUNTIME sent no PHC string".into())),
            };
        };
        let r = (|| -> Result<bool, InteropError> {
            let pw = field(a, "password")?;
            let mut wrong = pw.clone();
            wrong.push(b'x');
            // The PHC string carries variant and parameters itself.
            let verifies =
                |pw: &[u8], phc: &str| Argon2::default().verify_password(pw, phc).is_ok();
            let good = verifies(&pw, phc);
            let refused = !verifies(&wrong, phc) && !verifies(&pw, &edit_phc_hash(phc));
            Ok(good && refused)
        })();
        match r {
            Ok(true) => CheckResult::pass(
                name,
                say(format!("RustCrypto argon2 verifies the PHC string from {library} (and refuses a wrong password and an edited hash)")),
            ),
            Ok(false) => CheckResult::fail(
                name,
                say(format!("RustCrypto argon2 does not verify the PHC string {phc} from {library}, or verifies it with a wrong password or an edited hash")),
            ),
            Err(e) => CheckResult::fail(name, say(e.to_string())),
        }
    }

    /// The runtime's raw tag for the native password and salt equals
    /// RustCrypto's.
    fn check_raw(&self, runtime: &str, a: &Value) -> CheckResult {
        let library = self.library(a);
        let r = (|| {
            let (m, t) = INTEROP_ARGON2;
            let raw = field(a, "raw")?;
            // The same password and salt the native side sent.
            let sent = self.sent.get().ok_or(InteropError::InputsLost)?;
            let mut out = [0u8; 32];
            self.hasher(m, t, 1)?
                .hash_password_into(&sent.0, &sent.1, &mut out)
                .map_err(argon2_failed)?;
            Ok(raw == out)
        })();
        verdict(
            runtime,
            r,
            &format!("{library} gives RustCrypto argon2's 32-byte tag (1 lane, same inputs)"),
            &format!("{library} and RustCrypto argon2 disagree on the 32-byte tag"),
        )
    }
}

impl Interop for Argon2Interop {
    fn native_artifacts(&self) -> Result<Value, InteropError> {
        let (m, t) = INTEROP_ARGON2;
        let password = random(12);
        let salt = random(16);
        let mut v = json!({"password": hex::encode(&password), "salt": hex::encode(&salt),
            "m_kib": m, "t": t, "threads": 1});
        let _ = self.sent.set((password.clone(), salt.clone()));
        if self.sends_phc() {
            let phc = self
                .hasher(m, t, 1)?
                .hash_password_with_salt(&password, &salt)
                .map_err(argon2_failed)?;
            v["phc"] = Value::String(phc.to_string());
        }
        if self.sends_raw() {
            let mut raw = [0u8; 32];
            self.hasher(m, t, 1)?
                .hash_password_into(&password, &salt, &mut raw)
                .map_err(argon2_failed)?;
            v["raw"] = Value::String(hex::encode(raw));
        }
        if self.api == ARGON2_PHC_AND_RAW {
            // The password a runner must refuse the native PHC string with.
            let mut wrong = password;
            wrong.push(b'x');
            v["wrong_password"] = Value::String(hex::encode(wrong));
        }
        Ok(v)
    }

    fn check_runtime_artifacts(&self, runtime: &str, a: &Value) -> CheckResult {
        if self.api == "password_hash" {
            self.check_phc(back_check(runtime), runtime, a)
        } else {
            self.check_raw(runtime, a)
        }
    }

    fn more_runtime_checks(&self, runtime: &str, a: &Value) -> Vec<CheckResult> {
        if self.api == ARGON2_PHC_AND_RAW {
            vec![self.check_phc(phc_back_check(runtime), runtime, a)]
        } else {
            Vec::new()
        }
    }
}

/// Keys from `openssl_pkey_new` against the native OpenSSL.
#[derive(Debug, Clone)]
pub struct EcInterop {
    /// Curve short name as OpenSSL prints it.
    pub curve: String,
}

/// The NID of a curve short name.
pub fn curve_nid(curve: &str) -> Option<Nid> {
    nid_of(curve)
}

impl Interop for EcInterop {
    fn native_artifacts(&self) -> Result<Value, InteropError> {
        let nid =
            curve_nid(&self.curve).ok_or_else(|| InteropError::UnknownCurve(self.curve.clone()))?;
        let group = openssl::ec::EcGroup::from_curve_name(nid)?;
        let key = openssl::ec::EcKey::generate(&group)?;
        match openssl::pkey::PKey::from_ec_key(key).and_then(|k| k.private_key_to_pem_pkcs8()) {
            Ok(pem) => Ok(json!({"pem": String::from_utf8_lossy(&pem)})),
            // Curves without an OID (Oakley-EC2N-3/4) have no key encoding.
            Err(e) => Ok(
                json!({"skip": format!("the native OpenSSL cannot encode a {} key: {e}", self.curve)}),
            ),
        }
    }

    fn check_runtime_artifacts(&self, runtime: &str, a: &Value) -> CheckResult {
        let Some(pem) = a.get("pem").and_then(Value::as_str) else {
            let why = a
                .get("skip")
                .and_then(Value::as_str)
                .unwrap_or("the runtime exported no key");
            return CheckResult::skipped(back_check(runtime), why);
        };
        let r = (|| {
            let pkey = openssl::pkey::PKey::private_key_from_pem(pem.as_bytes())
                .map_err(InteropError::UnreadableKey)?;
            if self.curve == "SM2" {
                // OpenSSL 3.0 decodes SM2 keys as their own type, out of
                // EC_KEY's reach; decoding checked the point is on the curve.
                return Ok(pkey.bits() == 256);
            }
            let key = pkey
                .ec_key()
                .map_err(|_| InteropError::WrongKey("an EC key".into()))?;
            let want = curve_nid(&self.curve);
            if key.group().curve_name() != want {
                return Err(InteropError::WrongKey(format!("on {}", self.curve)));
            }
            // EC_KEY_check_key: the point is on the curve, not at infinity,
            // of the right order, and matches the private scalar.
            Ok(key.check_key().is_ok())
        })();
        verdict(
            runtime,
            r,
            "the native OpenSSL parsed RUNTIME's key: public point on the curve and matching the private key",
            "RUNTIME's key fails EC_KEY_check_key",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::CheckOutcome;

    /// Artifacts as a runner sends them: its PHC string of `password`.
    fn runner_artifacts(i: &Argon2Interop, password: &[u8]) -> Value {
        let native = i.native_artifacts().expect("native artifacts");
        let salt = random(16);
        let phc = i
            .hasher(1024, 2, 1)
            .expect("params")
            .hash_password_with_salt(password, &salt)
            .expect("hash")
            .to_string();
        json!({"password": hex::encode(password), "salt": native["salt"], "raw": native["raw"],
            "phc": phc, "library": "test library"})
    }

    #[test]
    fn a_runtime_phc_string_verifies_and_tampered_ones_are_refused() {
        let i = Argon2Interop::new(ARGON2_PHC_AND_RAW, "argon2id");
        let good = runner_artifacts(&i, b"correct horse");
        let checks = i.more_runtime_checks("test", &good);
        assert_eq!(checks.len(), 1);
        assert_eq!(checks[0].name, "interop:test->native phc");
        assert_eq!(checks[0].outcome, CheckOutcome::Pass, "{checks:?}");
        assert!(
            checks[0].detail.contains("test's test library"),
            "{checks:?}"
        );
        assert_eq!(
            i.check_runtime_artifacts("test", &good).outcome,
            CheckOutcome::Pass
        );

        let mut wrong_password = good.clone();
        wrong_password["password"] = json!(hex::encode(b"correct horsf"));
        let mut edited_hash = good.clone();
        edited_hash["phc"] = json!(edit_phc_hash(good["phc"].as_str().expect("phc")));
        let mut no_phc = good.clone();
        no_phc.as_object_mut().expect("object").remove("phc");
        let mut no_phc_said_why = no_phc.clone();
        no_phc_said_why["phc_unavailable"] = json!("raw tags only");
        for bad in [wrong_password, edited_hash, no_phc] {
            let checks = i.more_runtime_checks("test", &bad);
            assert_eq!(checks[0].outcome, CheckOutcome::Fail, "{bad}");
        }
        let why = i.more_runtime_checks("test", &no_phc_said_why);
        assert_eq!(why[0].outcome, CheckOutcome::Skipped, "{why:?}");

        let mut wrong_tag = good;
        wrong_tag["raw"] = json!(hex::encode([0u8; 32]));
        assert_eq!(
            i.check_runtime_artifacts("test", &wrong_tag).outcome,
            CheckOutcome::Fail
        );
    }

    #[test]
    fn the_native_phc_string_is_standard_and_refuses_the_wrong_password() {
        let i = Argon2Interop::new(ARGON2_PHC_AND_RAW, "argon2id");
        let a = i.native_artifacts().expect("native artifacts");
        let phc = a["phc"].as_str().expect("phc");
        assert!(phc.starts_with("$argon2id$v=19$m=1024,t=3,p=1$"), "{phc}");
        // Unpadded standard base64, as the runners' parsers expect.
        assert!(!phc.ends_with('='), "{phc}");
        let password = hex::decode(a["password"].as_str().expect("pw")).expect("hex");
        let wrong = hex::decode(a["wrong_password"].as_str().expect("wrong")).expect("hex");
        assert_ne!(password, wrong);
        let verifies = |pw: &[u8], s: &str| Argon2::default().verify_password(pw, s).is_ok();
        assert!(verifies(&password, phc));
        assert!(!verifies(&wrong, phc));
        assert!(!verifies(&password, &edit_phc_hash(phc)));
    }

    #[test]
    fn editing_a_phc_hash_changes_only_its_first_character() {
        assert_eq!(
            edit_phc_hash("$argon2id$v=19$m=8,t=1,p=1$c2FsdA$Qk"),
            "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$Ak"
        );
        assert_eq!(edit_phc_hash("$x$Ak"), "$x$Bk");
    }
}
