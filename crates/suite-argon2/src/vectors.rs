//! Known answers and cross-backend agreement: what every backend must get
//! right before any of its points is timed.
//!
//! Sources, named beside each vector:
//! - RFC 9106 section 5 (5.1 Argon2d, 5.2 Argon2i, 5.3 Argon2id): version
//!   0x13 with a secret and associated data, m = 32 KiB, t = 3, p = 4.
//! - The reference implementation (github.com/P-H-C/phc-winner-argon2):
//!   `kats/argon2{d,i,id}_v16` (the same inputs at version 0x10) and
//!   `src/test.c` (Argon2i, password "password", salt "somesalt").
//!
//! A backend that cannot take a vector's inputs (libsodium: no secret, one
//! lane, version 0x13 only; the CLI: no secret) records the vector as
//! skipped with the reason, so the report shows what was not checked.

use crate::engines::{Hasher, Inputs};
use crate::params::{Params, Variant, Version};
use cryptobench_core::CheckResult;
use cryptobench_stats::SplitMix64;

/// One known answer.
#[derive(Debug, Clone, Copy)]
pub struct Vector {
    /// Where it comes from.
    pub source: &'static str,
    /// Variant.
    pub variant: Variant,
    /// Version.
    pub version: Version,
    /// Memory, KiB.
    pub m_kib: u32,
    /// Passes.
    pub t: u32,
    /// Lanes.
    pub lanes: u32,
    /// Password.
    pub password: &'static [u8],
    /// Salt.
    pub salt: &'static [u8],
    /// Secret key.
    pub secret: &'static [u8],
    /// Associated data.
    pub ad: &'static [u8],
    /// Expected tag, hex.
    pub tag: &'static str,
}

impl Vector {
    /// Parameters (threads = lanes).
    pub fn params(&self) -> Params {
        Params {
            version: self.version,
            tag_len: self.tag.len() / 2,
            ..Params::new(self.variant, self.m_kib, self.t, self.lanes)
        }
    }
    /// Inputs.
    pub fn inputs(&self) -> Inputs {
        Inputs {
            password: self.password.to_vec(),
            salt: self.salt.to_vec(),
            secret: self.secret.to_vec(),
            ad: self.ad.to_vec(),
        }
    }
}

// RFC 9106 section 5 inputs: password 32 x 0x01, salt 16 x 0x02,
// secret 8 x 0x03, associated data 12 x 0x04.
const RFC_PWD: &[u8] = &[1; 32];
const RFC_SALT: &[u8] = &[2; 16];
const RFC_SECRET: &[u8] = &[3; 8];
const RFC_AD: &[u8] = &[4; 12];

const fn rfc(
    source: &'static str,
    variant: Variant,
    version: Version,
    tag: &'static str,
) -> Vector {
    Vector {
        source,
        variant,
        version,
        m_kib: 32,
        t: 3,
        lanes: 4,
        password: RFC_PWD,
        salt: RFC_SALT,
        secret: RFC_SECRET,
        ad: RFC_AD,
        tag,
    }
}

const fn test_c(
    t: u32,
    log2_m: u32,
    lanes: u32,
    password: &'static [u8],
    salt: &'static [u8],
    version: Version,
    tag: &'static str,
) -> Vector {
    Vector {
        source: "phc-winner-argon2 src/test.c (Argon2i)",
        variant: Variant::I,
        version,
        m_kib: 1 << log2_m,
        t,
        lanes,
        password,
        salt,
        secret: b"",
        ad: b"",
        tag,
    }
}

/// Every known answer, per variant.
pub const VECTORS: &[Vector] = &[
    rfc(
        "RFC 9106 section 5.1 (Argon2d)",
        Variant::D,
        Version::V13,
        "512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb",
    ),
    rfc(
        "RFC 9106 section 5.2 (Argon2i)",
        Variant::I,
        Version::V13,
        "c814d9d1dc7f37aa13f0d77f2494bda1c8de6b016dd388d29952a4c4672b6ce8",
    ),
    rfc(
        "RFC 9106 section 5.3 (Argon2id)",
        Variant::Id,
        Version::V13,
        "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659",
    ),
    rfc(
        "phc-winner-argon2 kats/argon2d_v16",
        Variant::D,
        Version::V10,
        "96a9d4e5a1734092c85e29f410a45914a5dd1f5cbf08b2670da68a0285abf32b",
    ),
    rfc(
        "phc-winner-argon2 kats/argon2i_v16",
        Variant::I,
        Version::V10,
        "87aeedd6517ab830cd9765cd8231abb2e647a5dee08f7c05e02fcb763335d0fd",
    ),
    rfc(
        "phc-winner-argon2 kats/argon2id_v16",
        Variant::Id,
        Version::V10,
        "b64615f07789b66b645b67ee9ed3b377ae350b6bfcbb0fc95141ea8f322613c0",
    ),
    // test.c's hashtest(version, t, m = 2^log2_m, p, pwd, salt, hexref).
    // Its 2^20 KiB (1 GiB) case is left out to keep checks under a second.
    test_c(
        2,
        16,
        1,
        b"password",
        b"somesalt",
        Version::V10,
        "f6c4db4a54e2a370627aff3db6176b94a2a209a62c8e36152711802f7b30c694",
    ),
    test_c(
        2,
        18,
        1,
        b"password",
        b"somesalt",
        Version::V10,
        "3e689aaa3d28a77cf2bc72a51ac53166761751182f1ee292e3f677a7da4c2467",
    ),
    test_c(
        2,
        8,
        1,
        b"password",
        b"somesalt",
        Version::V10,
        "fd4dd83d762c49bdeaf57c47bdcd0c2f1babf863fdeb490df63ede9975fccf06",
    ),
    test_c(
        2,
        8,
        2,
        b"password",
        b"somesalt",
        Version::V10,
        "b6c11560a6a9d61eac706b79a2f97d68b4463aa3ad87e00c07e2b01e90c564fb",
    ),
    test_c(
        1,
        16,
        1,
        b"password",
        b"somesalt",
        Version::V10,
        "81630552b8f3b1f48cdb1992c4c678643d490b2b5eb4ff6c4b3438b5621724b2",
    ),
    test_c(
        4,
        16,
        1,
        b"password",
        b"somesalt",
        Version::V10,
        "f212f01615e6eb5d74734dc3ef40ade2d51d052468d8c69440a3a1f2c1c2847b",
    ),
    test_c(
        2,
        16,
        1,
        b"differentpassword",
        b"somesalt",
        Version::V10,
        "e9c902074b6754531a3a0be519e5baf404b30ce69b3f01ac3bf21229960109a3",
    ),
    test_c(
        2,
        16,
        1,
        b"password",
        b"diffsalt",
        Version::V10,
        "79a103b90fe8aef8570cb31fc8b22259778916f8336b7bdac3892569d4f1c497",
    ),
    test_c(
        2,
        16,
        1,
        b"password",
        b"somesalt",
        Version::V13,
        "c1628832147d9720c5bd1cfd61367078729f6dfb6f8fea9ff98158e0d7816ed0",
    ),
];

/// Runs every vector of `variant` on `hasher`: pass, fail, or skipped with
/// the reason the backend cannot take the inputs.
pub fn known_answers(hasher: &dyn Hasher, variant: Variant) -> Vec<CheckResult> {
    known_answers_up_to(hasher, variant, u32::MAX)
}

/// As [`known_answers`], leaving out (as skipped) vectors above `max_kib`
/// of memory: `--quick` keeps its checks to a fraction of a second.
pub fn known_answers_up_to(
    hasher: &dyn Hasher,
    variant: Variant,
    max_kib: u32,
) -> Vec<CheckResult> {
    VECTORS
        .iter()
        .filter(|v| v.variant == variant)
        .map(|v| {
            if v.m_kib > max_kib {
                CheckResult::skipped(
                    vector_name(v),
                    format!("left out by --quick ({} KiB)", v.m_kib),
                )
            } else {
                run_vector(hasher, v)
            }
        })
        .collect()
}

fn vector_name(v: &Vector) -> String {
    format!(
        "kat:{} v=0x{:x} m={} t={} p={}",
        v.source,
        v.version.number(),
        v.m_kib,
        v.t,
        v.lanes
    )
}

fn run_vector(hasher: &dyn Hasher, v: &Vector) -> CheckResult {
    let params = v.params();
    let name = vector_name(v);
    let inputs = v.inputs();
    if let Err(why) = hasher.supports(&params, &inputs) {
        return CheckResult::skipped(name, why.to_string());
    }
    let mut out = vec![0u8; params.tag_len];
    match hasher.hash(&params, &inputs, &mut out) {
        Ok(()) if hex::encode(&out) == v.tag => CheckResult::pass(name, v.source),
        Ok(()) => CheckResult::fail(
            name,
            format!("tag {} != expected {}", hex::encode(&out), v.tag),
        ),
        Err(e) => CheckResult::fail(name, e.to_string()),
    }
}

/// Random check inputs from the statistics crate's deterministic
/// generator (SplitMix64).
#[derive(Debug, Clone)]
pub struct SplitMix(SplitMix64);

impl SplitMix {
    /// Generator whose whole output is determined by `seed`.
    pub fn new(seed: u64) -> Self {
        Self(SplitMix64::new(seed))
    }
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next_u64() % u64::from(hi - lo + 1)) as u32
    }
    /// `len` printable ASCII bytes (the CLI takes text salts).
    pub fn text(&mut self, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| b'a' + (self.next_u64() % 26) as u8)
            .collect()
    }
    /// `len` arbitrary bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}

/// A seed from the clock when the user gave none.
pub fn fresh_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x5eed)
    })
}

/// Random small points of `variant` on which `hasher` must agree with
/// `reference`. Points the backend cannot take are re-drawn in the shape it
/// can (one lane, t >= its minimum, a 16-byte salt) so every backend gets
/// `count` comparisons.
pub fn agreement(
    hasher: &dyn Hasher,
    reference: &dyn Hasher,
    variant: Variant,
    count: usize,
    seed: u64,
) -> CheckResult {
    let name = format!("agree:{} vs {}", hasher.name(), reference.name());
    let mut rng = SplitMix::new(seed ^ (variant.ref_type() as u64) << 32);
    let mut compared = 0;
    let mut attempts = 0;
    let mut skipped_reason = String::new();
    while compared < count && attempts < count * 20 {
        attempts += 1;
        let lanes = rng.range(1, 4);
        let mut params = Params::new(variant, 0, rng.range(1, 4), lanes);
        params.m_kib = rng.range(8 * lanes, 1024);
        params.tag_len = rng.range(16, 64) as usize;
        if rng.range(0, 3) == 0 {
            params.version = Version::V10;
        }
        let password_len = rng.range(1, 64) as usize;
        let inputs = Inputs {
            password: rng.text(password_len),
            salt: rng.text(16),
            secret: Vec::new(),
            ad: Vec::new(),
        };
        if let Err(why) = hasher.supports(&params, &inputs) {
            skipped_reason = why.to_string();
            continue;
        }
        let (mut a, mut b) = (vec![0u8; params.tag_len], vec![0u8; params.tag_len]);
        let point = format!(
            "{} v=0x{:x} pwd={:?} salt={:?}",
            params.label(),
            params.version.number(),
            String::from_utf8_lossy(&inputs.password),
            String::from_utf8_lossy(&inputs.salt)
        );
        if let Err(e) = hasher.hash(&params, &inputs, &mut a) {
            return CheckResult::fail(name, format!("{point}: {e}"));
        }
        if let Err(e) = reference.hash(&params, &inputs, &mut b) {
            return CheckResult::fail(name, format!("{point}: reference: {e}"));
        }
        if a != b {
            return CheckResult::fail(
                name,
                format!("{point}: {} != {}", hex::encode(&a), hex::encode(&b)),
            );
        }
        compared += 1;
    }
    if compared == 0 {
        return CheckResult::skipped(name, skipped_reason);
    }
    CheckResult::pass(
        name,
        format!("{compared} random points (seed {seed:#x}) agree bit for bit"),
    )
}
