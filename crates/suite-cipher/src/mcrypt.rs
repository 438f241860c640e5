//! libmcrypt 2.5, loaded at run time with `dlopen`.
//!
//! libmcrypt is the library behind PHP's old `mcrypt_*` functions (seed 001).
//! It is abandoned upstream, so it is loaded when present rather than linked:
//! a machine without it builds and runs everything else, and this backend is
//! reported as unavailable with the package to install.
//!
//! libmcrypt's mode names differ from OpenSSL's: its `cfb` and `ofb` are the
//! 8-bit feedback modes (one block operation per byte), `ncfb`/`nofb` are the
//! full-block ones. So PHP's `mcrypt_module_open('blowfish', '', 'cfb', '')`
//! in the seed is Blowfish-CFB8, named `BF-CFB8` here.

use crate::catalog::{CipherBackend, CipherDesc, Mode};
use crate::engine::{CipherError, Dir, Engine, EngineRequest};
use cryptobench_core::Availability;
use libloading::Library;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::OnceLock;

/// Backend name.
pub const NAME: &str = "libmcrypt";

/// What to tell the user when the library is missing.
pub const MISSING: &str = "libmcrypt not installed (apt-get install libmcrypt4)";
/// Environment variable naming another library file to load instead
/// (tests use a missing path to see the backend become unavailable).
pub const LIBRARY_ENV: &str = "CRYPTOBENCH_LIBMCRYPT";

type Td = *mut c_void;

/// The libmcrypt functions this backend calls.
struct Api {
    _lib: Library,
    module_open:
        unsafe extern "C" fn(*const c_char, *const c_char, *const c_char, *const c_char) -> Td,
    module_close: unsafe extern "C" fn(Td) -> c_int,
    generic_init: unsafe extern "C" fn(Td, *const c_void, c_int, *const c_void) -> c_int,
    generic_deinit: unsafe extern "C" fn(Td) -> c_int,
    generic: unsafe extern "C" fn(Td, *mut c_void, c_int) -> c_int,
    mdecrypt_generic: unsafe extern "C" fn(Td, *mut c_void, c_int) -> c_int,
    iv_size: unsafe extern "C" fn(Td) -> c_int,
    block_size: unsafe extern "C" fn(Td) -> c_int,
    key_size: unsafe extern "C" fn(Td) -> c_int,
    list_algorithms: unsafe extern "C" fn(*const c_char, *mut c_int) -> *mut *mut c_char,
    list_modes: unsafe extern "C" fn(*const c_char, *mut c_int) -> *mut *mut c_char,
    free_p: unsafe extern "C" fn(*mut *mut c_char, c_int),
    check_version: unsafe extern "C" fn(*const c_char) -> *const c_char,
}

fn load() -> Result<Api, CipherError> {
    // SAFETY: loading libmcrypt runs no initialisers with preconditions; the
    // symbol types below are the prototypes of mcrypt.h 2.5.
    unsafe {
        let lib = match std::env::var_os(LIBRARY_ENV) {
            Some(path) => Library::new(path),
            None => Library::new("libmcrypt.so.4").or_else(|_| Library::new("libmcrypt.so")),
        }
        .map_err(|_| CipherError::Unavailable(MISSING.to_string()))?;
        macro_rules! sym {
            ($name:literal) => {
                *lib.get($name).map_err(|e| {
                    CipherError::Unavailable(format!("libmcrypt lacks {}: {e}", stringify!($name)))
                })?
            };
        }
        Ok(Api {
            module_open: sym!(b"mcrypt_module_open\0"),
            module_close: sym!(b"mcrypt_module_close\0"),
            generic_init: sym!(b"mcrypt_generic_init\0"),
            generic_deinit: sym!(b"mcrypt_generic_deinit\0"),
            generic: sym!(b"mcrypt_generic\0"),
            mdecrypt_generic: sym!(b"mdecrypt_generic\0"),
            iv_size: sym!(b"mcrypt_enc_get_iv_size\0"),
            block_size: sym!(b"mcrypt_enc_get_block_size\0"),
            key_size: sym!(b"mcrypt_enc_get_key_size\0"),
            list_algorithms: sym!(b"mcrypt_list_algorithms\0"),
            list_modes: sym!(b"mcrypt_list_modes\0"),
            free_p: sym!(b"mcrypt_free_p\0"),
            check_version: sym!(b"mcrypt_check_version\0"),
            _lib: lib,
        })
    }
}

fn api() -> Result<&'static Api, CipherError> {
    static API: OnceLock<Result<Api, CipherError>> = OnceLock::new();
    API.get_or_init(load).as_ref().map_err(Clone::clone)
}

/// `libmcrypt 2.5.8`, or why it is unavailable.
pub fn version() -> Result<String, CipherError> {
    let api = api()?;
    // SAFETY: with a NULL argument the function returns the version string.
    let v = unsafe { (api.check_version)(std::ptr::null()) };
    if v.is_null() {
        return Ok("libmcrypt".into());
    }
    // SAFETY: a static NUL-terminated string.
    Ok(format!(
        "libmcrypt {}",
        unsafe { CStr::from_ptr(v) }.to_string_lossy()
    ))
}

fn list(f: unsafe extern "C" fn(*const c_char, *mut c_int) -> *mut *mut c_char) -> Vec<String> {
    let Ok(api) = api() else { return Vec::new() };
    let mut n: c_int = 0;
    // SAFETY: returns an array of `n` C strings freed with mcrypt_free_p.
    unsafe {
        let p = f(std::ptr::null(), &mut n);
        if p.is_null() {
            return Vec::new();
        }
        let out = (0..n.max(0) as usize)
            .map(|i| CStr::from_ptr(*p.add(i)).to_string_lossy().into_owned())
            .collect();
        (api.free_p)(p, n);
        out
    }
}

/// An open libmcrypt module (algorithm x mode).
struct Module {
    td: Td,
    initialised: bool,
}

// SAFETY: a module handle is used by one thread at a time; the engine owns it.
unsafe impl Send for Module {}

impl Module {
    fn open(algorithm: &str, mode: &str) -> Option<Module> {
        let api = api().ok()?;
        let a = CString::new(algorithm).ok()?;
        let m = CString::new(mode).ok()?;
        let empty = c"";
        // SAFETY: valid C strings; MCRYPT_FAILED is a null handle.
        let td =
            unsafe { (api.module_open)(a.as_ptr(), empty.as_ptr(), m.as_ptr(), empty.as_ptr()) };
        (!td.is_null()).then_some(Module {
            td,
            initialised: false,
        })
    }
    fn sizes(&self) -> (usize, usize, usize) {
        let Ok(api) = api() else { return (0, 0, 0) };
        // SAFETY: `td` is an open module.
        unsafe {
            (
                (api.key_size)(self.td).max(0) as usize,
                (api.iv_size)(self.td).max(0) as usize,
                (api.block_size)(self.td).max(1) as usize,
            )
        }
    }
    fn init(&mut self, key: &[u8], iv: &[u8]) -> Result<(), CipherError> {
        let api = api()?;
        // SAFETY: `td` is open; libmcrypt copies key and IV (it reads
        // iv_size bytes, which the caller provides).
        unsafe {
            if self.initialised {
                (api.generic_deinit)(self.td);
                self.initialised = false;
            }
            let ivp = if iv.is_empty() {
                std::ptr::null()
            } else {
                iv.as_ptr() as *const c_void
            };
            let rc = (api.generic_init)(
                self.td,
                key.as_ptr() as *const c_void,
                key.len() as c_int,
                ivp,
            );
            if rc < 0 {
                return Err(CipherError::KeyRejected(format!(
                    "mcrypt_generic_init refused a {}-byte key (code {rc})",
                    key.len()
                )));
            }
        }
        self.initialised = true;
        Ok(())
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        if let Ok(api) = api() {
            // SAFETY: closing the module this struct opened, once.
            unsafe {
                if self.initialised {
                    (api.generic_deinit)(self.td);
                }
                (api.module_close)(self.td);
            }
        }
    }
}

/// The canonical name parts of a libmcrypt algorithm: (family, key length
/// used for timing, family name in canonical names).
fn algorithm_shape(algorithm: &str, max_key: usize) -> Vec<(String, usize)> {
    match algorithm {
        // rijndael-128 is AES; the key length picks AES-128 or AES-256.
        "rijndael-128" => vec![("AES-128".into(), 16), ("AES-256".into(), 32)],
        "blowfish" => vec![("BF".into(), 16)],
        // Blowfish with little-endian words (RustCrypto's BlowfishLE).
        "blowfish-compat" => vec![("BF-LE".into(), 16)],
        "des" => vec![("DES".into(), 8)],
        "tripledes" => vec![("DES-EDE3".into(), 24)],
        "cast-128" => vec![("CAST5".into(), 16)],
        "arcfour" => vec![("RC4".into(), 16)],
        "rc2" => vec![("RC2-MCRYPT".into(), 16)],
        "cast-256" => vec![("CAST-256".into(), 32)],
        "enigma" | "wake" => vec![(algorithm.to_ascii_uppercase(), max_key)],
        other => vec![(
            format!("{}-{}", other.to_ascii_uppercase(), max_key * 8),
            max_key,
        )],
    }
}

fn family_of(prefix: &str) -> String {
    match prefix {
        "AES-128" | "AES-256" => "AES".into(),
        p if p.starts_with("DES-EDE3") => "DES-EDE3".into(),
        "BF-LE" | "CAST-256" => prefix.into(),
        p => p.split('-').next().unwrap_or(p).to_string(),
    }
}

fn mode_shape(mode: &str) -> Option<(Mode, &'static str)> {
    Some(match mode {
        "ecb" => (Mode::Ecb, "ECB"),
        "cbc" => (Mode::Cbc, "CBC"),
        "cfb" => (Mode::Cfb8, "CFB8"),
        "ncfb" => (Mode::Cfb, "CFB"),
        "ofb" => (Mode::Ofb8, "OFB8"),
        "nofb" => (Mode::Ofb, "OFB"),
        "ctr" => (Mode::Ctr, "CTR"),
        "stream" => (Mode::Stream, ""),
        _ => return None,
    })
}

/// libmcrypt, when installed.
pub struct Mcrypt;

impl cryptobench_core::Library for Mcrypt {
    fn name(&self) -> &'static str {
        NAME
    }
    fn version(&self) -> String {
        version().unwrap_or_default()
    }
    fn availability(&self) -> Availability {
        match version() {
            Ok(_) => Availability::Available,
            Err(reason) => Availability::Unavailable(reason.to_string()),
        }
    }
}

impl CipherBackend for Mcrypt {
    fn ciphers(&self) -> Vec<CipherDesc> {
        ciphers()
    }

    fn engine(&self, request: EngineRequest<'_>) -> Result<Box<dyn Engine>, CipherError> {
        let EngineRequest { desc, dir, key, iv } = request;
        let (algorithm, mode) = desc.native.split_once('/').ok_or_else(|| {
            CipherError::Unavailable(format!("not a libmcrypt name: {}", desc.native))
        })?;
        let module = Module::open(algorithm, mode).ok_or_else(|| {
            CipherError::Unavailable(format!("mcrypt_module_open({algorithm}, {mode}) failed"))
        })?;
        let (_, iv_len, _) = module.sizes();
        let iv_len = if mode == "ecb" || mode == "stream" {
            0
        } else {
            iv_len
        };
        if iv.len() < iv_len {
            return Err(CipherError::IvLength { expected: iv_len });
        }
        // libmcrypt reads iv_size bytes even where the mode ignores them.
        let mut full_iv = iv.to_vec();
        full_iv.resize(module.sizes().1.max(iv.len()), 0);
        let restart_mid_block = (mode == "ncfb").then_some(desc.block.max(1));
        let mut engine = McryptEngine {
            module,
            dir,
            key: Vec::new(),
            iv: Vec::new(),
            iv_len: full_iv.len(),
            restart_mid_block,
            done: 0,
        };
        engine.rekey(key, &full_iv)?;
        Ok(Box::new(engine))
    }
}

/// Every algorithm x mode libmcrypt lists and can open here (empty when the
/// library is missing).
pub fn ciphers() -> Vec<CipherDesc> {
    let Ok(api) = api() else { return Vec::new() };
    let mut out = Vec::new();
    for algorithm in list(api.list_algorithms) {
        for mode_name in list(api.list_modes) {
            let Some((mode, suffix)) = mode_shape(&mode_name) else {
                continue;
            };
            let Some(module) = Module::open(&algorithm, &mode_name) else {
                continue;
            };
            let (max_key, iv_len, block) = module.sizes();
            for (prefix, key_len) in algorithm_shape(&algorithm, max_key) {
                let name = match (prefix.as_str(), suffix) {
                    (p, "") => p.to_string(),
                    (p, s) => format!("{p}-{s}"),
                };
                let family = family_of(&prefix);
                let key_bits = match family.as_str() {
                    "DES" => 56,
                    "DES-EDE3" => 168,
                    _ => key_len * 8,
                };
                out.push(CipherDesc {
                    name,
                    backend: &Mcrypt,
                    native: format!("{algorithm}/{mode_name}"),
                    family,
                    mode,
                    key_len,
                    key_bits,
                    iv_len: if mode == Mode::Ecb { 0 } else { iv_len },
                    block: if mode == Mode::Stream { 1 } else { block },
                    legacy: false,
                });
            }
        }
    }
    out
}

struct McryptEngine {
    module: Module,
    dir: Dir,
    key: Vec<u8>,
    iv: Vec<u8>,
    iv_len: usize,
    /// libmcrypt's `ncfb` falls out of step between encryptor and decryptor
    /// when a call ends mid-block and the next continues (found by this
    /// suite's round trip); such messages restart from key and IV.
    restart_mid_block: Option<usize>,
    /// Bytes processed since the last (re)initialisation.
    done: usize,
}

/// Whether libmcrypt must restart (key + IV) between messages of this size
/// in this mode (see `McryptEngine::restart_mid_block`).
pub fn restarts_per_message(desc: &CipherDesc, size: usize) -> bool {
    desc.backend.name() == NAME
        && desc.native.ends_with("/ncfb")
        && !size.is_multiple_of(desc.block)
}

impl Engine for McryptEngine {
    fn set_iv(&mut self, iv: &[u8]) -> Result<(), CipherError> {
        // libmcrypt has no IV-only reset: generic_init keys again.
        let mut full = iv.to_vec();
        full.resize(self.iv_len, 0);
        self.iv = full;
        self.done = 0;
        let key = std::mem::take(&mut self.key);
        let r = self.module.init(&key, &self.iv);
        self.key = key;
        r
    }
    fn rekey(&mut self, key: &[u8], iv: &[u8]) -> Result<(), CipherError> {
        self.key = key.to_vec();
        self.set_iv(iv)
    }
    fn process(&mut self, input: &[u8], out: &mut [u8]) -> Result<usize, CipherError> {
        let api = api()?;
        if let Some(block) = self.restart_mid_block {
            if !self.done.is_multiple_of(block) {
                let iv = self.iv.clone();
                self.set_iv(&iv)?;
            }
        }
        let n = input.len();
        self.done += n;
        let buf = out.get_mut(..n).ok_or(CipherError::OutputTooSmall)?;
        buf.copy_from_slice(input);
        let len = c_int::try_from(n)
            .map_err(|_| CipherError::MessageRejected("message too long for libmcrypt".into()))?;
        // SAFETY: in-place on `n` bytes the module owns no reference to.
        let rc = unsafe {
            match self.dir {
                Dir::Encrypt => (api.generic)(self.module.td, buf.as_mut_ptr() as *mut c_void, len),
                Dir::Decrypt => {
                    (api.mdecrypt_generic)(self.module.td, buf.as_mut_ptr() as *mut c_void, len)
                }
            }
        };
        if rc != 0 {
            return Err(CipherError::Library(format!(
                "libmcrypt refused a {n}-byte message (code {rc})"
            )));
        }
        Ok(n)
    }
}
