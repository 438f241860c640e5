//! OpenSSL: every cipher the default and legacy providers offer, found at
//! run time with `EVP_CIPHER_do_all_provided`, and an [`Engine`] over
//! `EVP_CIPHER_CTX`.
//!
//! Enumeration asks the library rather than a list written here, so a newer
//! OpenSSL with more ciphers shows them without a code change. Each provided
//! algorithm is reported once under its first name (`EVP_CIPHER_get0_name`),
//! which folds the aliases (`bf`, `blowfish`, `BF-CBC`) into one canonical
//! name; the aliases stay accepted on the command line through
//! [`aliases`].

use crate::catalog::{CipherBackend, CipherDesc, Mode};
use crate::engine::{process_each, CipherError, Dir, Engine, EngineRequest};
use foreign_types::ForeignTypeRef;
use openssl::cipher::Cipher;
use openssl::cipher_ctx::CipherCtx;
use openssl::error::ErrorStack;
use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::OnceLock;

// Not all of these are in openssl-sys; they are plain OpenSSL 3 functions.
extern "C" {
    fn EVP_CIPHER_do_all_provided(
        libctx: *mut c_void,
        f: unsafe extern "C" fn(cipher: *mut openssl_sys::EVP_CIPHER, arg: *mut c_void),
        arg: *mut c_void,
    );
    fn EVP_CIPHER_get0_name(cipher: *const openssl_sys::EVP_CIPHER) -> *const c_char;
    fn EVP_CIPHER_get0_provider(cipher: *const openssl_sys::EVP_CIPHER) -> *const c_void;
    fn OSSL_PROVIDER_get0_name(prov: *const c_void) -> *const c_char;
    fn EVP_CIPHER_names_do_all(
        cipher: *const openssl_sys::EVP_CIPHER,
        f: unsafe extern "C" fn(name: *const c_char, data: *mut c_void),
        data: *mut c_void,
    ) -> c_int;
    fn EVP_CIPHER_get_key_length(cipher: *const openssl_sys::EVP_CIPHER) -> c_int;
    fn EVP_CIPHER_get_iv_length(cipher: *const openssl_sys::EVP_CIPHER) -> c_int;
    fn EVP_CIPHER_get_block_size(cipher: *const openssl_sys::EVP_CIPHER) -> c_int;
}

// EVP_CIPH_* mode numbers and flags from openssl/evp.h (OpenSSL 3.0).
const EVP_CIPH_MODE: u64 = 0xF0007;
const EVP_CIPH_FLAG_AEAD_CIPHER: u64 = 0x0020_0000;
const MODE_STREAM: u64 = 0x0;
const MODE_ECB: u64 = 0x1;
const MODE_CBC: u64 = 0x2;
const MODE_CFB: u64 = 0x3;
const MODE_OFB: u64 = 0x4;
const MODE_CTR: u64 = 0x5;
const MODE_XTS: u64 = 0x10001;
const MODE_WRAP: u64 = 0x10002;

/// One provided cipher as enumerated.
#[derive(Debug, Clone)]
struct Raw {
    name: String,
    names: Vec<String>,
    provider: String,
    flags: u64,
    key_len: usize,
    iv_len: usize,
    block: usize,
}

unsafe fn c_str(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        // SAFETY: OpenSSL returns NUL-terminated static names.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

unsafe extern "C" fn collect_name(name: *const c_char, data: *mut c_void) {
    // SAFETY: `data` is the Vec<String> passed by `enumerate_raw`.
    let names = unsafe { &mut *(data as *mut Vec<String>) };
    names.push(unsafe { c_str(name) });
}

unsafe extern "C" fn collect_cipher(cipher: *mut openssl_sys::EVP_CIPHER, arg: *mut c_void) {
    // SAFETY: `arg` is the Vec<Raw> passed by `enumerate_raw`; `cipher` is
    // valid for the duration of the callback.
    unsafe {
        let out = &mut *(arg as *mut Vec<Raw>);
        let mut names: Vec<String> = Vec::new();
        EVP_CIPHER_names_do_all(
            cipher,
            collect_name,
            &mut names as *mut Vec<String> as *mut c_void,
        );
        let provider = c_str(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(cipher)));
        out.push(Raw {
            name: c_str(EVP_CIPHER_get0_name(cipher)),
            names,
            provider,
            flags: openssl_sys::EVP_CIPHER_get_flags(cipher) as u64,
            key_len: EVP_CIPHER_get_key_length(cipher).max(0) as usize,
            iv_len: EVP_CIPHER_get_iv_length(cipher).max(0) as usize,
            block: EVP_CIPHER_get_block_size(cipher).max(1) as usize,
        });
    }
}

fn enumerate_raw() -> Vec<Raw> {
    let _ = cryptobench_suite_common::openssl_lib::ensure_providers();
    let mut raw: Vec<Raw> = Vec::new();
    // SAFETY: the callback only reads the cipher and appends to `raw`.
    unsafe {
        EVP_CIPHER_do_all_provided(
            std::ptr::null_mut(),
            collect_cipher,
            &mut raw as *mut Vec<Raw> as *mut c_void,
        );
    }
    raw
}

/// The canonical spelling: OpenSSL's first name, upper-cased when OpenSSL
/// spells it in lower case only (`aes-256-ccm`); `ChaCha20` stays as is.
fn canonical(name: &str) -> String {
    if name.chars().any(|c| c.is_ascii_uppercase()) {
        name.to_string()
    } else {
        name.to_ascii_uppercase()
    }
}

fn family_of(name: &str) -> String {
    let up = name.to_ascii_uppercase();
    for fam in [
        "DES-EDE3", "DES-EDE", "DES3", "DESX", "RC4", "RC2", "CHACHA20",
    ] {
        if up.starts_with(fam) {
            return if fam == "DES3" {
                "DES-EDE3".into()
            } else {
                fam.into()
            };
        }
    }
    up.split('-').next().unwrap_or(&up).to_string()
}

fn mode_of(raw: &Raw) -> Mode {
    let up = raw.name.to_ascii_uppercase();
    if up.contains("HMAC") {
        return Mode::TlsComposite;
    }
    if up == "NULL" {
        return Mode::Null;
    }
    if up.ends_with("-CTS") {
        return Mode::Cts;
    }
    if raw.flags & EVP_CIPH_FLAG_AEAD_CIPHER != 0 || up.contains("POLY1305") {
        return Mode::Aead;
    }
    match raw.flags & EVP_CIPH_MODE {
        MODE_STREAM => Mode::Stream,
        MODE_ECB => Mode::Ecb,
        MODE_CBC => Mode::Cbc,
        MODE_CFB if up.ends_with("CFB1") => Mode::Cfb1,
        MODE_CFB if up.ends_with("CFB8") => Mode::Cfb8,
        MODE_CFB => Mode::Cfb,
        MODE_OFB => Mode::Ofb,
        MODE_CTR => Mode::Ctr,
        MODE_XTS => Mode::Xts,
        MODE_WRAP if up.contains("PAD") => Mode::WrapPad,
        MODE_WRAP => Mode::Wrap,
        // GCM, CCM, OCB, SIV and anything newer with its own rules.
        _ => Mode::Aead,
    }
}

fn key_bits(family: &str, name: &str, mode: Mode, key_len: usize) -> usize {
    let up = name.to_ascii_uppercase();
    match family {
        "DES" => 56,
        "DES-EDE" => 112,
        // Three 56-bit keys; meet-in-the-middle leaves 112 bits of strength.
        "DES-EDE3" => 168,
        "DESX" => 184,
        _ if up.contains("-40") => 40,
        _ if up.contains("-64") => 64,
        _ if mode == Mode::Xts => key_len * 4,
        _ => key_len * 8,
    }
}

struct Enumerated {
    descs: Vec<CipherDesc>,
    aliases: BTreeMap<String, String>,
}

fn enumerated() -> &'static Enumerated {
    static CACHE: OnceLock<Enumerated> = OnceLock::new();
    CACHE.get_or_init(|| {
        let mut by_name: BTreeMap<String, CipherDesc> = BTreeMap::new();
        let mut aliases = BTreeMap::new();
        for raw in enumerate_raw() {
            let name = canonical(&raw.name);
            let mode = mode_of(&raw);
            let family = family_of(&name);
            for alias in &raw.names {
                // OIDs are names too; they are not something anyone types.
                if !alias.starts_with(|c: char| c.is_ascii_digit()) {
                    aliases.insert(alias.clone(), name.clone());
                }
            }
            // OpenSSL reports a block size of 1 for the feedback and counter
            // modes; the cipher's block is the IV there.
            let block = match mode {
                Mode::Cfb | Mode::Cfb1 | Mode::Cfb8 | Mode::Ofb | Mode::Ctr => raw.iv_len.max(1),
                _ => raw.block,
            };
            let desc = CipherDesc {
                key_bits: key_bits(&family, &name, mode, raw.key_len),
                name: name.clone(),
                backend: &OpenSsl,
                native: raw.name.clone(),
                family,
                mode,
                key_len: raw.key_len,
                iv_len: raw.iv_len,
                block,
                legacy: raw.provider == "legacy",
            };
            by_name.entry(name).or_insert(desc);
        }
        Enumerated {
            descs: by_name.into_values().collect(),
            aliases,
        }
    })
}

/// System OpenSSL through EVP, legacy provider included.
pub use cryptobench_suite_common::openssl_lib::OpenSsl;

impl CipherBackend for OpenSsl {
    fn ciphers(&self) -> Vec<CipherDesc> {
        ciphers()
    }

    fn engine(&self, request: EngineRequest<'_>) -> Result<Box<dyn Engine>, CipherError> {
        let EngineRequest { desc, dir, key, iv } = request;
        let _ = cryptobench_suite_common::openssl_lib::ensure_providers();
        let cipher = Cipher::fetch(None, &desc.native, None).map_err(|e| {
            CipherError::Unavailable(format!("OpenSSL cannot fetch {}: {e}", desc.native))
        })?;
        if desc.iv_len > 0 && iv.len() < desc.iv_len {
            return Err(CipherError::IvLength {
                expected: desc.iv_len,
            });
        }
        let ctx = CipherCtx::new().map_err(|e| CipherError::Library(e.to_string()))?;
        let update: UpdateFn = match dir {
            Dir::Encrypt => openssl_sys::EVP_EncryptUpdate,
            Dir::Decrypt => openssl_sys::EVP_DecryptUpdate,
        };
        let mut engine = OpensslEngine {
            ctx,
            dir,
            update,
            reinit_each: !desc.mode.chains(),
            iv: iv[..desc.iv_len.min(iv.len())].to_vec(),
            has_iv: desc.iv_len > 0,
        };
        // Cipher first, then the key length (variable for BF, RC2, RC4, CAST5),
        // then key and IV: the key schedule is computed here, once.
        let has_iv = engine.has_iv;
        engine.has_iv = false;
        engine.init(Some(&cipher), None)?;
        engine.has_iv = has_iv;
        if key.len() != engine.ctx.key_length() {
            engine.ctx.set_key_length(key.len()).map_err(|e| {
                CipherError::KeyRejected(format!("key length {} refused: {e}", key.len()))
            })?;
        }
        engine.ctx.set_padding(false);
        engine.init(None, Some(key))?;
        Ok(Box::new(engine))
    }
}

/// Every cipher the providers offer, one per canonical name, AEAD and TLS
/// composites included (the plan lists those as skipped with the reason).
pub fn ciphers() -> Vec<CipherDesc> {
    enumerated().descs.clone()
}

/// Every OpenSSL name and alias (`bf`, `des3`, `id-aes128-wrap`) with the
/// canonical name it folds to.
pub fn aliases() -> &'static BTreeMap<String, String> {
    &enumerated().aliases
}

/// The update function of one direction, called directly (not through
/// `EVP_CipherUpdate`, which only dispatches to these two).
type UpdateFn = unsafe extern "C" fn(
    *mut openssl_sys::EVP_CIPHER_CTX,
    *mut u8,
    *mut c_int,
    *const u8,
    c_int,
) -> c_int;

/// An `EVP_CIPHER_CTX` keyed once; `set_iv` keeps the key schedule.
struct OpensslEngine {
    ctx: CipherCtx,
    dir: Dir,
    update: UpdateFn,
    /// Key wrap cannot continue across messages: the IV is set again before
    /// every message.
    reinit_each: bool,
    iv: Vec<u8>,
    has_iv: bool,
}

// SAFETY: an EVP_CIPHER_CTX is used by one thread at a time; the engine owns it.
unsafe impl Send for OpensslEngine {}

impl OpensslEngine {
    fn init(&mut self, cipher: Option<&Cipher>, key: Option<&[u8]>) -> Result<(), CipherError> {
        let iv = if self.has_iv {
            Some(self.iv.as_slice())
        } else {
            None
        };
        let r = match self.dir {
            Dir::Encrypt => self.ctx.encrypt_init(cipher.map(|c| &**c), key, iv),
            Dir::Decrypt => self.ctx.decrypt_init(cipher.map(|c| &**c), key, iv),
        };
        r.map_err(|e| CipherError::Library(format!("OpenSSL init: {e}")))
    }

    /// The input length as OpenSSL takes it, once `out` is known to have
    /// room for the most one update writes (the input plus one block).
    fn checked_len(input: &[u8], out: &[u8]) -> Result<c_int, CipherError> {
        if out.len() < input.len() + crate::engine::OUT_SLACK / 2 {
            return Err(CipherError::OutputTooSmall);
        }
        c_int::try_from(input.len())
            .map_err(|_| CipherError::MessageRejected("message longer than 2 GiB".into()))
    }

    /// `times` updates of `input` into `out`, back to back, after
    /// [`Self::checked_len`] has vetted the buffers; the bytes the last wrote.
    fn update_loop(
        &mut self,
        input: &[u8],
        out: &mut [u8],
        len: c_int,
        times: u64,
    ) -> Result<usize, CipherError> {
        let (ctx, src, dst) = (self.ctx.as_ptr(), input.as_ptr(), out.as_mut_ptr());
        let update = self.update;
        let mut written: c_int = 0;
        for _ in 0..times {
            // SAFETY: `ctx` is the live context this engine owns, initialised
            // for `self.dir` (whose update function `update` is) when the
            // engine was built; `src` is valid for `len` bytes; `dst` has room
            // for `len` plus more than one block (checked by `checked_len`),
            // the most one update writes with padding off; the two slices
            // are distinct borrows, so they do not overlap.
            if unsafe { update(ctx, dst, &mut written, src, len) } != 1 {
                return Err(CipherError::Library(format!(
                    "OpenSSL update: {}",
                    ErrorStack::get()
                )));
            }
        }
        Ok(written.max(0) as usize)
    }
}

impl Engine for OpensslEngine {
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), CipherError> {
        self.iv.clear();
        self.iv.extend_from_slice(iv);
        if self.has_iv {
            self.init(None, None)?;
        }
        Ok(())
    }

    fn rekey(&mut self, key: &[u8], iv: &[u8]) -> Result<(), CipherError> {
        self.iv.clear();
        self.iv.extend_from_slice(iv);
        self.init(None, Some(key))
    }

    fn process(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, CipherError> {
        if self.reinit_each {
            self.init(None, None)?;
        }
        let len = Self::checked_len(input, out)?;
        self.update_loop(input, out, len, 1)
    }

    /// The loop `openssl speed -evp` runs: `EVP_EncryptUpdate` (or
    /// `EVP_DecryptUpdate`) on the same context, message after message,
    /// checked once per batch instead of once per message.
    fn process_repeat(
        &mut self,
        input: &[u8],
        out: &mut [u8],
        times: u64,
    ) -> Result<usize, CipherError> {
        if self.reinit_each {
            return process_each(self, input, out, times);
        }
        let len = Self::checked_len(input, out)?;
        self.update_loop(input, out, len, times)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumeration_folds_aliases_and_finds_the_legacy_provider() {
        let all = ciphers();
        let names: Vec<&str> = all.iter().map(|d| d.name.as_str()).collect();
        assert!(names.contains(&"AES-128-CBC"), "{names:?}");
        assert!(names.contains(&"BF-CBC"), "{names:?}");
        assert!(!names.iter().any(|n| n.eq_ignore_ascii_case("blowfish")));
        let blowfish = aliases()
            .iter()
            .find(|(a, _)| a.eq_ignore_ascii_case("blowfish"));
        assert_eq!(blowfish.map(|(_, c)| c.as_str()), Some("BF-CBC"));
        let bf = all.iter().find(|d| d.name == "BF-CBC").unwrap();
        assert!(bf.legacy);
        assert_eq!(bf.block, 8);
        let gcm = all
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case("id-aes128-GCM"));
        assert!(gcm.is_none_or(|d| d.mode == Mode::Aead));
        let xts = all.iter().find(|d| d.name == "AES-128-XTS").unwrap();
        assert_eq!((xts.mode, xts.key_len), (Mode::Xts, 32));
    }
}
