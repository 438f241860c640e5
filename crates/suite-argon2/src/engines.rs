//! The implementations measured: one [`Hasher`] per library.
//!
//! Each one says which points it can take ([`Hasher::supports`], with the
//! reason when it cannot) and computes a tag; the suite's cases, checks and
//! subcommands use nothing else, so adding a library is one more struct.
//! The `argon2` CLI is a hasher too (it spawns the process), which lets the
//! same known-answer and agreement checks run on it before it is timed.

use crate::params::{Params, Variant, Version};
use std::ffi::{c_char, c_int, c_void};
use std::io::Write;
use std::process::{Command, Stdio};

/// What one hash consumes besides the parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inputs {
    /// Password (message).
    pub password: Vec<u8>,
    /// Salt (nonce), at least 8 bytes.
    pub salt: Vec<u8>,
    /// Secret key `K` (optional).
    pub secret: Vec<u8>,
    /// Associated data `X` (optional).
    pub ad: Vec<u8>,
}

/// Why a hasher cannot run or did not produce a tag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    /// The library or tool is missing on this machine.
    #[error("{0}")]
    Unavailable(String),
    /// The backend never takes points of this kind (a variant, several
    /// lanes, a secret key): the case is reported as unavailable.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The backend cannot take this particular point (a lower limit on
    /// passes, memory or tag length): the case is skipped.
    #[error("skipped: {0}")]
    Skipped(String),
    /// The library, the rayon pool or the CLI process failed.
    #[error("{0}")]
    Failed(String),
}

impl From<cryptobench_suite_common::BackendError> for HashError {
    fn from(e: cryptobench_suite_common::BackendError) -> Self {
        HashError::Unavailable(e.to_string())
    }
}

/// One Argon2 implementation.
pub trait Hasher: Send + Sync {
    /// Backend name in results.
    fn name(&self) -> &'static str;
    /// The library's version.
    fn version(&self) -> String;
    /// `Err(reason)` when it cannot run on this machine at all.
    fn available(&self) -> Result<(), HashError> {
        Ok(())
    }
    /// `Err(reason)` when it cannot take these parameters and inputs.
    fn supports(&self, params: &Params, inputs: &Inputs) -> Result<(), HashError>;
    /// Computes the tag into `out` (`out.len() == params.tag_len`).
    fn hash(&self, params: &Params, inputs: &Inputs, out: &mut [u8]) -> Result<(), HashError>;
}

/// Backend names, as `--backend` takes them.
pub const LIBARGON2: &str = "libargon2";
/// libsodium.
pub const LIBSODIUM: &str = cryptobench_suite_common::sodium::NAME;
/// RustCrypto `argon2`.
pub const RUSTCRYPTO: &str = cryptobench_suite_common::rustcrypto::NAME;
/// The reference CLI run as a process.
pub const CLI: &str = "peer:argon2-cli";

/// Every hasher, reference library first.
pub fn all() -> Vec<Box<dyn Hasher>> {
    vec![
        Box::new(RefLib),
        Box::new(RustCrypto),
        Box::new(Sodium),
        Box::new(Cli),
    ]
}

/// A hasher by backend name.
pub fn by_name(name: &str) -> Option<Box<dyn Hasher>> {
    all().into_iter().find(|h| h.name() == name)
}

// ---------------------------------------------------------------------------
// The reference library (libargon2), through its `argon2_ctx` entry point.

/// `argon2_context` from argon2.h (version 20171227); field order matters.
#[repr(C)]
struct RefContext {
    out: *mut u8,
    outlen: u32,
    pwd: *mut u8,
    pwdlen: u32,
    salt: *mut u8,
    saltlen: u32,
    secret: *mut u8,
    secretlen: u32,
    ad: *mut u8,
    adlen: u32,
    t_cost: u32,
    m_cost: u32,
    lanes: u32,
    threads: u32,
    version: u32,
    allocate_cbk: *const c_void,
    free_cbk: *const c_void,
    flags: u32,
}

/// libargon2's `allocate_fptr`: the hash's memory mapped fresh
/// ([`cryptobench_engine::host::heap::FreshPages`]), as libsodium maps its own,
/// so the page faults every hash pays do not depend on what the heap
/// holds. Returns 0, or `ARGON2_MEMORY_ALLOCATION_ERROR` (-22).
extern "C" fn fresh_memory(memory: *mut *mut u8, bytes: usize) -> c_int {
    match cryptobench_engine::host::heap::FreshPages::map(bytes) {
        Some(pages) => {
            // SAFETY: libargon2 passes a valid place for the pointer.
            unsafe { *memory = pages.into_raw() };
            0
        }
        None => -22,
    }
}

/// libargon2's `deallocate_fptr`, for memory from [`fresh_memory`].
extern "C" fn unmap_memory(memory: *mut u8, bytes: usize) {
    if !memory.is_null() {
        // SAFETY: libargon2 hands back the mapping `fresh_memory` made, with
        // its length, once.
        unsafe { cryptobench_engine::host::heap::FreshPages::unmap(memory, bytes) };
    }
}

/// `argon2_ctx(context, type)`.
type CtxFn = unsafe extern "C" fn(*mut RefContext, u32) -> c_int;
/// `argon2_error_message(code)`.
type ErrorMessageFn = unsafe extern "C" fn(c_int) -> *const c_char;

extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

/// `RTLD_NOW | RTLD_LOCAL` (glibc values): resolve now, export nothing.
const RTLD_NOW_LOCAL: c_int = 2;

/// The reference library's entry points, looked up in libargon2 itself.
#[derive(Clone, Copy)]
struct RefFns {
    ctx: CtxFn,
    error_message: ErrorMessageFn,
}

/// Opens libargon2 once. Its symbols must come from its own handle:
/// libsodium, linked statically, exports a different `argon2_ctx`.
fn ref_fns() -> Result<RefFns, HashError> {
    static FNS: std::sync::OnceLock<Result<RefFns, HashError>> = std::sync::OnceLock::new();
    FNS.get_or_init(|| {
        let names = [c"libargon2.so.1", c"libargon2.so"];
        let handle = names
            .iter()
            // SAFETY: NUL-terminated names; dlopen has no other precondition.
            .map(|n| unsafe { dlopen(n.as_ptr(), RTLD_NOW_LOCAL) })
            .find(|h| !h.is_null())
            .ok_or_else(|| {
                HashError::Unavailable(
                    "libargon2 is not installed (Debian package libargon2-1)".into(),
                )
            })?;
        // SAFETY: a live handle and NUL-terminated symbol names.
        let (ctx, msg) = unsafe {
            (
                dlsym(handle, c"argon2_ctx".as_ptr()),
                dlsym(handle, c"argon2_error_message".as_ptr()),
            )
        };
        if ctx.is_null() || msg.is_null() {
            return Err(HashError::Unavailable(
                "libargon2 lacks argon2_ctx / argon2_error_message".into(),
            ));
        }
        // SAFETY: these are the documented signatures of argon2.h; the
        // handle is never closed, so the pointers stay valid.
        Ok(unsafe {
            RefFns {
                ctx: std::mem::transmute::<*mut c_void, CtxFn>(ctx),
                error_message: std::mem::transmute::<*mut c_void, ErrorMessageFn>(msg),
            }
        })
    })
    .clone()
}

/// libargon2, the reference C implementation (the one PHP links).
#[derive(Debug, Clone, Copy, Default)]
pub struct RefLib;

fn len32(what: &str, n: usize) -> Result<u32, HashError> {
    u32::try_from(n).map_err(|_| HashError::Failed(format!("{what} longer than 2^32 - 1 bytes")))
}

impl Hasher for RefLib {
    fn name(&self) -> &'static str {
        LIBARGON2
    }
    fn version(&self) -> String {
        format!("libargon2 {}", env!("CRYPTOBENCH_LIBARGON2_VERSION"))
    }
    fn available(&self) -> Result<(), HashError> {
        ref_fns().map(|_| ())
    }
    fn supports(&self, _params: &Params, _inputs: &Inputs) -> Result<(), HashError> {
        Ok(())
    }
    fn hash(&self, params: &Params, inputs: &Inputs, out: &mut [u8]) -> Result<(), HashError> {
        let fns = ref_fns()?;
        // The library never writes through pwd/salt/secret/ad unless the
        // clear-password/secret flags are set, which they are not; copies
        // keep the `*mut` honest anyway.
        let mut pwd = inputs.password.clone();
        let mut salt = inputs.salt.clone();
        let mut secret = inputs.secret.clone();
        let mut ad = inputs.ad.clone();
        let ptr = |v: &mut Vec<u8>| {
            if v.is_empty() {
                std::ptr::null_mut()
            } else {
                v.as_mut_ptr()
            }
        };
        let mut ctx = RefContext {
            out: out.as_mut_ptr(),
            outlen: len32("tag", out.len())?,
            pwdlen: len32("password", pwd.len())?,
            pwd: ptr(&mut pwd),
            saltlen: len32("salt", salt.len())?,
            salt: ptr(&mut salt),
            secretlen: len32("secret", secret.len())?,
            secret: ptr(&mut secret),
            adlen: len32("associated data", ad.len())?,
            ad: ptr(&mut ad),
            t_cost: params.t,
            m_cost: params.m_kib,
            lanes: params.lanes,
            threads: params.threads,
            version: params.version.number(),
            allocate_cbk: fresh_memory as *const c_void,
            free_cbk: unmap_memory as *const c_void,
            flags: 0,
        };
        // SAFETY: every pointer refers to a live buffer of the stated length
        // for the duration of the call; the library takes its memory from
        // `fresh_memory` and gives it back to `unmap_memory`.
        let rc = unsafe { (fns.ctx)(&mut ctx, params.variant.ref_type()) };
        if rc == 0 {
            Ok(())
        } else {
            // SAFETY: argon2_error_message returns a static C string.
            let msg = unsafe { std::ffi::CStr::from_ptr((fns.error_message)(rc)) };
            Err(HashError::Failed(format!(
                "libargon2: {}",
                msg.to_string_lossy()
            )))
        }
    }
}

// ---------------------------------------------------------------------------
// RustCrypto `argon2`.

/// RustCrypto's pure-Rust `argon2` crate, lanes filled on a rayon pool.
#[derive(Debug, Clone, Copy, Default)]
pub struct RustCrypto;

/// The crate version this suite is built against.
pub const RUSTCRYPTO_ARGON2_VERSION: &str = "0.6";

impl Hasher for RustCrypto {
    fn name(&self) -> &'static str {
        RUSTCRYPTO
    }
    fn version(&self) -> String {
        format!("RustCrypto argon2 {RUSTCRYPTO_ARGON2_VERSION} (parallel)")
    }
    fn supports(&self, _params: &Params, inputs: &Inputs) -> Result<(), HashError> {
        if inputs.ad.len() > argon2::Params::MAX_DATA_LEN {
            return Err(HashError::Unsupported(format!(
                "RustCrypto argon2 takes at most {} bytes of associated data",
                argon2::Params::MAX_DATA_LEN
            )));
        }
        Ok(())
    }
    fn hash(&self, params: &Params, inputs: &Inputs, out: &mut [u8]) -> Result<(), HashError> {
        // With `parallel`, lanes go to rayon's global pool unless a pool is
        // installed: a pool of `threads` workers keeps the count honest.
        let pool = rustcrypto_pool(params)?;
        rustcrypto_hash_on(pool.as_ref(), params, inputs, out)
    }
}

/// The worker pool a RustCrypto hash at `params` needs: none for one lane,
/// else exactly `threads` workers (one worker = the sequential fill).
pub fn rustcrypto_pool(params: &Params) -> Result<Option<rayon::ThreadPool>, HashError> {
    if params.lanes <= 1 {
        return Ok(None);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(params.threads.max(1) as usize)
        .build()
        .map(Some)
        .map_err(|e| HashError::Failed(format!("rayon pool: {e}")))
}

/// Builds the RustCrypto context for a point.
pub fn rustcrypto_context<'k>(
    params: &Params,
    inputs: &'k Inputs,
) -> Result<argon2::Argon2<'k>, HashError> {
    let algorithm = match params.variant {
        Variant::D => argon2::Algorithm::Argon2d,
        Variant::I => argon2::Algorithm::Argon2i,
        Variant::Id => argon2::Algorithm::Argon2id,
    };
    let version = match params.version {
        Version::V10 => argon2::Version::V0x10,
        Version::V13 => argon2::Version::V0x13,
    };
    let mut builder = argon2::ParamsBuilder::new();
    builder
        .m_cost(params.m_kib)
        .t_cost(params.t)
        .p_cost(params.lanes)
        .output_len(params.tag_len);
    if !inputs.ad.is_empty() {
        let ad = argon2::AssociatedData::new(&inputs.ad)
            .map_err(|e| HashError::Failed(e.to_string()))?;
        builder.data(ad);
    }
    let built = builder
        .build()
        .map_err(|e| HashError::Failed(format!("RustCrypto argon2: {e}")))?;
    if inputs.secret.is_empty() {
        Ok(argon2::Argon2::new(algorithm, version, built))
    } else {
        argon2::Argon2::new_with_secret(&inputs.secret, algorithm, version, built)
            .map_err(|e| HashError::Failed(format!("RustCrypto argon2: {e}")))
    }
}

/// A RustCrypto hash's blocks, mapped fresh for each hash as libargon2's
/// and libsodium's memory is ([`fresh_memory`]).
struct FreshBlocks {
    pages: cryptobench_engine::host::heap::FreshPages,
    blocks: usize,
}

impl FreshBlocks {
    fn map(blocks: usize) -> Result<Self, HashError> {
        let bytes = blocks * std::mem::size_of::<argon2::Block>();
        cryptobench_engine::host::heap::FreshPages::map(bytes)
            .map(|pages| Self { pages, blocks })
            .ok_or_else(|| HashError::Failed(format!("could not map {bytes} bytes")))
    }
}

impl AsMut<[argon2::Block]> for FreshBlocks {
    fn as_mut(&mut self) -> &mut [argon2::Block] {
        // SAFETY: the mapping holds `blocks` blocks, is page-aligned (a
        // block needs 64) and zeroed (all-zero bytes are a valid block),
        // and this borrow is the only one.
        unsafe { std::slice::from_raw_parts_mut(self.pages.as_mut_ptr().cast(), self.blocks) }
    }
}

/// A RustCrypto hash on a pool kept by the caller (the timed cases build the
/// pool once, outside the timed region).
pub fn rustcrypto_hash_on(
    pool: Option<&rayon::ThreadPool>,
    params: &Params,
    inputs: &Inputs,
    out: &mut [u8],
) -> Result<(), HashError> {
    let ctx = rustcrypto_context(params, inputs)?;
    let mut memory = FreshBlocks::map(ctx.params().block_count())?;
    let mut run =
        || ctx.hash_password_into_with_memory(&inputs.password, &inputs.salt, out, &mut memory);
    match pool {
        Some(p) => p.install(run),
        None => run(),
    }
    .map_err(|e| HashError::Failed(format!("RustCrypto argon2: {e}")))
}

// ---------------------------------------------------------------------------
// libsodium `crypto_pwhash`.

/// libsodium's `crypto_pwhash` (argon2i13 and argon2id13, one lane).
#[derive(Debug, Clone, Copy, Default)]
pub struct Sodium;

impl Sodium {
    fn opslimit_min(variant: Variant) -> u64 {
        // SAFETY: pure getters of compile-time constants.
        unsafe {
            match variant {
                Variant::I => libsodium_sys::crypto_pwhash_argon2i_opslimit_min() as u64,
                _ => libsodium_sys::crypto_pwhash_argon2id_opslimit_min() as u64,
            }
        }
    }
    fn memlimit_min(variant: Variant) -> u64 {
        // SAFETY: pure getters of compile-time constants.
        unsafe {
            match variant {
                Variant::I => libsodium_sys::crypto_pwhash_argon2i_memlimit_min() as u64,
                _ => libsodium_sys::crypto_pwhash_argon2id_memlimit_min() as u64,
            }
        }
    }
}

impl Hasher for Sodium {
    fn name(&self) -> &'static str {
        LIBSODIUM
    }
    fn version(&self) -> String {
        cryptobench_suite_common::sodium::version()
    }
    fn available(&self) -> Result<(), HashError> {
        Ok(cryptobench_suite_common::sodium::init()?)
    }
    fn supports(&self, params: &Params, inputs: &Inputs) -> Result<(), HashError> {
        if params.variant == Variant::D {
            return Err(HashError::Unsupported(
                "libsodium offers Argon2i and Argon2id only".into(),
            ));
        }
        if params.version != Version::V13 {
            return Err(HashError::Unsupported(
                "libsodium implements version 0x13 only".into(),
            ));
        }
        if params.lanes != 1 {
            return Err(HashError::Unsupported("libsodium uses one lane".into()));
        }
        if !inputs.secret.is_empty() || !inputs.ad.is_empty() {
            return Err(HashError::Unsupported(
                "libsodium takes no secret key or associated data".into(),
            ));
        }
        // SAFETY: pure getter of a compile-time constant.
        let salt_len = unsafe { libsodium_sys::crypto_pwhash_saltbytes() };
        if inputs.salt.len() != salt_len {
            return Err(HashError::Unsupported(format!(
                "libsodium takes a {salt_len}-byte salt only"
            )));
        }
        let ops_min = Self::opslimit_min(params.variant);
        if u64::from(params.t) < ops_min {
            return Err(HashError::Skipped(format!(
                "libsodium requires t >= {ops_min} for {}",
                params.variant.name()
            )));
        }
        let mem_min = Self::memlimit_min(params.variant);
        if params.memory_bytes() < mem_min {
            return Err(HashError::Skipped(format!(
                "libsodium requires at least {} KiB of memory",
                mem_min / 1024
            )));
        }
        if params.tag_len < 16 {
            return Err(HashError::Skipped(
                "libsodium requires a tag of at least 16 bytes".into(),
            ));
        }
        Ok(())
    }
    fn hash(&self, params: &Params, inputs: &Inputs, out: &mut [u8]) -> Result<(), HashError> {
        self.available()?;
        self.supports(params, inputs)?;
        let alg = match params.variant {
            Variant::I => libsodium_sys::crypto_pwhash_ALG_ARGON2I13,
            _ => libsodium_sys::crypto_pwhash_ALG_ARGON2ID13,
        } as c_int;
        let memlimit = usize::try_from(params.memory_bytes())
            .map_err(|_| HashError::Failed("memory does not fit in this address space".into()))?;
        // SAFETY: out, password and salt are live buffers of the stated
        // lengths; the salt length was checked against crypto_pwhash_SALTBYTES.
        let rc = unsafe {
            libsodium_sys::crypto_pwhash(
                out.as_mut_ptr(),
                out.len() as u64,
                inputs.password.as_ptr().cast::<c_char>(),
                inputs.password.len() as u64,
                inputs.salt.as_ptr(),
                u64::from(params.t),
                memlimit,
                alg,
            )
        };
        if rc == 0 {
            Ok(())
        } else {
            Err(HashError::Failed(
                "libsodium crypto_pwhash failed (out of memory or limits)".into(),
            ))
        }
    }
}

// ---------------------------------------------------------------------------
// The reference CLI as a process.

/// The `argon2` command-line tool, one process per hash.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cli;

/// The CLI reads at most this many password bytes (run.c: a 128-byte
/// buffer; a full buffer is refused as too long, an empty one as missing).
const CLI_MAX_PASSWORD: usize = 127;

impl Cli {
    /// The command for one hash, raw hex output.
    pub fn command(params: &Params, salt: &[u8]) -> Result<Command, HashError> {
        let salt = std::str::from_utf8(salt).map_err(|_| {
            HashError::Unsupported("the argon2 CLI takes the salt as a text argument".into())
        })?;
        let mut cmd = Command::new("argon2");
        cmd.arg(salt)
            .arg(params.variant.cli_flag())
            .args(["-t", &params.t.to_string()])
            .args(["-k", &params.m_kib.to_string()])
            .args(["-p", &params.lanes.to_string()])
            .args(["-l", &params.tag_len.to_string()])
            .args([
                "-v",
                if params.version == Version::V10 {
                    "10"
                } else {
                    "13"
                },
            ])
            .arg("-r")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        Ok(cmd)
    }

    /// Runs one hash; returns the tag.
    pub fn run(params: &Params, inputs: &Inputs) -> Result<Vec<u8>, HashError> {
        let mut child = Self::command(params, &inputs.salt)?
            .spawn()
            .map_err(|e| HashError::Failed(format!("cannot run argon2: {e}")))?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(&inputs.password)
                .map_err(|e| HashError::Failed(format!("argon2 stdin: {e}")))?;
        }
        let output = child
            .wait_with_output()
            .map_err(|e| HashError::Failed(format!("argon2: {e}")))?;
        if !output.status.success() {
            return Err(HashError::Failed(format!(
                "argon2 exited with {}: {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            )));
        }
        let text = String::from_utf8_lossy(&output.stdout);
        hex::decode(text.trim())
            .map_err(|_| HashError::Failed(format!("argon2 printed '{}', not hex", text.trim())))
    }

    /// Whether `argon2` is on PATH (it prints usage and exits non-zero when
    /// given nothing; a spawn error means it is missing).
    pub fn installed() -> bool {
        Command::new("argon2")
            .arg("-h")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok()
    }
}

impl Hasher for Cli {
    fn name(&self) -> &'static str {
        CLI
    }
    fn version(&self) -> String {
        // Asked once: the plan names the version on every CLI case.
        static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        VERSION
            .get_or_init(|| {
                let out = Command::new("dpkg-query")
                    .args(["-W", "-f", "${Version}", "argon2"])
                    .output();
                match out {
                    Ok(o) if o.status.success() && !o.stdout.is_empty() => {
                        format!("argon2 CLI {}", String::from_utf8_lossy(&o.stdout).trim())
                    }
                    _ => "argon2 CLI (version unknown)".into(),
                }
            })
            .clone()
    }
    fn available(&self) -> Result<(), HashError> {
        if Self::installed() {
            Ok(())
        } else {
            Err(HashError::Unavailable(
                "the argon2 CLI is not installed (Debian package argon2)".into(),
            ))
        }
    }
    fn supports(&self, params: &Params, inputs: &Inputs) -> Result<(), HashError> {
        if !inputs.secret.is_empty() || !inputs.ad.is_empty() {
            return Err(HashError::Unsupported(
                "the argon2 CLI takes no secret key or associated data".into(),
            ));
        }
        if params.threads != params.lanes {
            return Err(HashError::Unsupported(
                "the argon2 CLI runs one thread per lane".into(),
            ));
        }
        if inputs.password.is_empty() || inputs.password.len() > CLI_MAX_PASSWORD {
            return Err(HashError::Unsupported(format!(
                "the argon2 CLI reads 1 to {CLI_MAX_PASSWORD} password bytes"
            )));
        }
        let text_salt = std::str::from_utf8(&inputs.salt)
            .map(|s| !s.contains('\0') && !s.starts_with('-'))
            .unwrap_or(false);
        if !text_salt {
            return Err(HashError::Unsupported(
                "the argon2 CLI takes the salt as a text argument".into(),
            ));
        }
        Ok(())
    }
    fn hash(&self, params: &Params, inputs: &Inputs, out: &mut [u8]) -> Result<(), HashError> {
        self.supports(params, inputs)?;
        let tag = Self::run(params, inputs)?;
        if tag.len() != out.len() {
            return Err(HashError::Failed(format!(
                "argon2 printed a {}-byte tag, {} expected",
                tag.len(),
                out.len()
            )));
        }
        out.copy_from_slice(&tag);
        Ok(())
    }
}
