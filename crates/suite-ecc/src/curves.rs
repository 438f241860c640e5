//! The curve catalogue: every named curve the linked OpenSSL offers, found
//! at run time, plus the four Edwards/Montgomery curves.
//!
//! The list is not written down here because it changes with the OpenSSL
//! build (88 curves in 3.0, fewer when a distribution strips binary curves,
//! SM2 only when compiled in). Each curve's facts (field degree = the seed's
//! "key length", order size, cofactor, field type) are read from the group
//! itself, and one key is generated to learn whether the curve actually
//! works: a curve listed but unusable is kept with the reason.

use cryptobench_core::{names, Error};
use openssl::bn::BigNumContext;
use openssl::ec::{EcGroup, EcKey};
use openssl::nid::Nid;
use std::ffi::{c_char, c_int, CStr};
use std::sync::OnceLock;

/// One entry of OpenSSL's built-in curve list (`EC_builtin_curve`).
#[repr(C)]
struct BuiltinCurve {
    nid: c_int,
    comment: *const c_char,
}

extern "C" {
    // Both are in libcrypto, which openssl-sys already links; the crates
    // only lack the declarations.
    fn EC_get_builtin_curves(r: *mut BuiltinCurve, nitems: usize) -> usize;
    fn EC_GROUP_get_field_type(group: *const openssl_sys::EC_GROUP) -> c_int;
}

/// `NID_X9_62_characteristic_two_field` (OpenSSL obj_mac.h).
const NID_CHARACTERISTIC_TWO_FIELD: c_int = 407;

/// Curve families as the seed groups them (Fig. 1), plus the curves it
/// could not have measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Brainpool r1/t1 (RFC 5639).
    Brainpool,
    /// ANSI X9.62 prime curves (`prime192v1` ... `prime256v1`).
    Prime,
    /// ANSI X9.62 binary curves over a pentanomial basis.
    C2pnb,
    /// ANSI X9.62 binary curves over a trinomial basis.
    C2tnb,
    /// SECG prime curves (SEC 2).
    Secp,
    /// SECG binary curves (SEC 2).
    Sect,
    /// X25519, X448, Ed25519, Ed448 (RFC 7748, RFC 8032).
    EdwardsMontgomery,
    /// Everything else: WAP/WTLS, Oakley (RFC 2409), SM2.
    Other,
}

impl Family {
    /// Every family, in the seed's order.
    pub const ALL: [Family; 8] = [
        Family::Brainpool,
        Family::Prime,
        Family::C2pnb,
        Family::C2tnb,
        Family::Secp,
        Family::Sect,
        Family::EdwardsMontgomery,
        Family::Other,
    ];

    /// Display name, as in the seed where the seed has one.
    pub fn name(self) -> &'static str {
        match self {
            Family::Brainpool => "Brainpool",
            Family::Prime => "Prime",
            Family::C2pnb => "C2pnb",
            Family::C2tnb => "C2tnb",
            Family::Secp => "Secp",
            Family::Sect => "Sect",
            Family::EdwardsMontgomery => "Edwards/Montgomery",
            Family::Other => "Other",
        }
    }

    /// The family of a curve from its OpenSSL short name.
    pub fn of(name: &str) -> Family {
        let lower = name.to_ascii_lowercase();
        let starts = |p: &str| lower.starts_with(p);
        if starts("brainpool") {
            Family::Brainpool
        } else if starts("prime") {
            Family::Prime
        } else if starts("c2pnb") {
            Family::C2pnb
        } else if starts("c2tnb") {
            Family::C2tnb
        } else if starts("secp") {
            Family::Secp
        } else if starts("sect") {
            Family::Sect
        } else if matches!(lower.as_str(), "x25519" | "x448" | "ed25519" | "ed448") {
            Family::EdwardsMontgomery
        } else {
            Family::Other
        }
    }

    /// Resolves a user-typed family name.
    pub fn resolve_list(list: &str) -> Result<Vec<Family>, Error> {
        let accepted: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
        let mut out = Vec::new();
        for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let family = match names::fold(part).as_str() {
                "edwards" | "montgomery" | "ed" | "edwardsmontgomery" => Family::EdwardsMontgomery,
                _ => {
                    let hit = names::resolve("curve family", part, &accepted)?;
                    Family::of_name(hit).unwrap_or(Family::Other)
                }
            };
            if !out.contains(&family) {
                out.push(family);
            }
        }
        if out.is_empty() {
            return Err(Error::usage(format!(
                "no curve family given; accepted: {}",
                accepted.join(", ")
            )));
        }
        Ok(out)
    }

    fn of_name(display: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == display)
    }
}

/// Which code path builds and uses keys of a curve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A short-Weierstrass curve OpenSSL knows by this NID.
    Weierstrass(i32),
    /// X25519 (RFC 7748).
    X25519,
    /// X448 (RFC 7748).
    X448,
    /// Ed25519 (RFC 8032).
    Ed25519,
    /// Ed448 (RFC 8032).
    Ed448,
}

impl Kind {
    /// True for the Montgomery (key agreement only) curves.
    pub fn is_montgomery(self) -> bool {
        matches!(self, Kind::X25519 | Kind::X448)
    }
    /// True for the Edwards (signature only) curves.
    pub fn is_edwards(self) -> bool {
        matches!(self, Kind::Ed25519 | Kind::Ed448)
    }
}

/// Everything the suite knows about one curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// OpenSSL short name (`prime256v1`, `X25519`).
    pub name: String,
    /// OpenSSL's one-line description.
    pub comment: String,
    /// How keys are made.
    pub kind: Kind,
    /// Seed family.
    pub family: Family,
    /// Field degree in bits: the seed's "key length".
    pub key_bits: u32,
    /// Bits of the group order n.
    pub order_bits: u32,
    /// Cofactor h = #E / n.
    pub cofactor: u64,
    /// Field of characteristic two.
    pub binary: bool,
    /// NIST name (`P-256`, `K-233`) when the curve has one.
    pub nist: Option<&'static str>,
    /// Why OpenSSL lists it but cannot generate a key on it.
    pub unsupported: Option<String>,
}

impl Curve {
    /// Security level in bits: the best generic attack (Pollard rho) costs
    /// about sqrt(n) group operations, so half the order size.
    pub fn security_bits(&self) -> u32 {
        self.order_bits / 2
    }

    /// The seed's Table 1 band of the key length (`None` below 160 bits).
    pub fn band(&self) -> Option<&'static Band> {
        Band::of(self.key_bits)
    }

    /// Security and context labels for results.
    pub fn labels(&self) -> Vec<String> {
        let mut labels = Vec::new();
        if self.security_bits() < 112 {
            labels.push("< 112-bit security".to_string());
        }
        if self.binary {
            labels.push("binary curve (removed from TLS 1.3)".to_string());
        }
        if self.cofactor > 1 {
            labels.push("cofactor > 1".to_string());
        }
        if !self.recommended() {
            labels.push("not for new designs".to_string());
        }
        labels
    }

    /// Curves still chosen for new designs: the prime curves of NIST SP
    /// 800-186 (P-224 ... P-521, Curve25519/448, Edwards25519/448), the
    /// Brainpool r1 curves of 256 bits and more (RFC 5639, BSI TR-02102-1)
    /// and secp256k1 (SEC 2; the curve of the largest deployed signature
    /// systems). Everything else is kept for interoperability only.
    pub fn recommended(&self) -> bool {
        const CHOSEN: [&str; 12] = [
            "secp224r1",
            "prime256v1",
            "secp384r1",
            "secp521r1",
            "X25519",
            "X448",
            "Ed25519",
            "Ed448",
            "brainpoolP256r1",
            "brainpoolP384r1",
            "brainpoolP512r1",
            "secp256k1",
        ];
        CHOSEN.contains(&self.name.as_str())
    }

    /// Name with the NIST alias, e.g. `prime256v1 (P-256)`.
    pub fn display(&self) -> String {
        match self.nist {
            Some(n) => format!("{} ({n})", self.name),
            None => self.name.clone(),
        }
    }
}

/// A key-length band of the seed's Table 1 / Table 11.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Band {
    /// Label as in the seed (`160-223`).
    pub label: &'static str,
    /// Smallest key length in the band.
    pub min_bits: u32,
    /// Largest key length in the band (inclusive).
    pub max_bits: u32,
    /// Security level NIST attaches to the band (seed Table 1).
    pub security: u32,
    /// RSA/DSA modulus of the same level (seed Table 1).
    pub rsa_bits: u32,
    /// ECC-to-RSA key size ratio (seed Table 1).
    pub ratio: &'static str,
}

/// The seed's Table 1 (NIST SP 800-57 Part 1, Table 2), in bits: the seed
/// prints "bytes" but the figures are bits.
pub const BANDS: [Band; 5] = [
    Band {
        label: "160-223",
        min_bits: 160,
        max_bits: 223,
        security: 80,
        rsa_bits: 1024,
        ratio: "1:6",
    },
    Band {
        label: "224-255",
        min_bits: 224,
        max_bits: 255,
        security: 112,
        rsa_bits: 2048,
        ratio: "1:9",
    },
    Band {
        label: "256-383",
        min_bits: 256,
        max_bits: 383,
        security: 128,
        rsa_bits: 3072,
        ratio: "1:12",
    },
    Band {
        label: "384-511",
        min_bits: 384,
        max_bits: 511,
        security: 192,
        rsa_bits: 7680,
        ratio: "1:20",
    },
    Band {
        label: "512+",
        min_bits: 512,
        max_bits: u32::MAX,
        security: 256,
        rsa_bits: 15360,
        ratio: "1:30",
    },
];

impl Band {
    /// The band a key length falls in.
    pub fn of(bits: u32) -> Option<&'static Band> {
        BANDS
            .iter()
            .find(|b| (b.min_bits..=b.max_bits).contains(&bits))
    }
}

/// NIST (FIPS 186-4 / SP 800-186) names of OpenSSL curves, and the SECG
/// synonyms OpenSSL spells differently.
const ALIASES: [(&str, &str); 17] = [
    ("P-192", "prime192v1"),
    ("secp192r1", "prime192v1"),
    ("P-224", "secp224r1"),
    ("P-256", "prime256v1"),
    ("secp256r1", "prime256v1"),
    ("P-384", "secp384r1"),
    ("P-521", "secp521r1"),
    ("K-163", "sect163k1"),
    ("B-163", "sect163r2"),
    ("K-233", "sect233k1"),
    ("B-233", "sect233r1"),
    ("K-283", "sect283k1"),
    ("B-283", "sect283r1"),
    ("K-409", "sect409k1"),
    ("B-409", "sect409r1"),
    ("K-571", "sect571k1"),
    ("B-571", "sect571r1"),
];

/// The NIST name of an OpenSSL curve name.
pub fn nist_name(openssl_name: &str) -> Option<&'static str> {
    ALIASES
        .iter()
        .find(|(alias, name)| *name == openssl_name && alias.contains('-'))
        .map(|(alias, _)| *alias)
}

/// Every curve of this OpenSSL plus the Edwards/Montgomery four, once per
/// process.
pub fn catalogue() -> &'static [Curve] {
    static CATALOGUE: OnceLock<Vec<Curve>> = OnceLock::new();
    CATALOGUE.get_or_init(build_catalogue)
}

/// The named curves `EC_get_builtin_curves` returns, as (nid, comment).
pub fn builtin_curves() -> Vec<(i32, String)> {
    // SAFETY: with a null buffer the call only returns the count; the second
    // call fills at most `count` entries of a buffer that large. Comments
    // point to static strings inside libcrypto.
    unsafe {
        let count = EC_get_builtin_curves(std::ptr::null_mut(), 0);
        let mut list: Vec<BuiltinCurve> = (0..count)
            .map(|_| BuiltinCurve {
                nid: 0,
                comment: std::ptr::null(),
            })
            .collect();
        let filled = EC_get_builtin_curves(list.as_mut_ptr(), count).min(count);
        list.truncate(filled);
        list.into_iter()
            .map(|c| {
                let comment = if c.comment.is_null() {
                    String::new()
                } else {
                    let raw = CStr::from_ptr(c.comment).to_string_lossy().into_owned();
                    raw.split_whitespace().collect::<Vec<_>>().join(" ")
                };
                (c.nid, comment)
            })
            .collect()
    }
}

fn build_catalogue() -> Vec<Curve> {
    let _ = cryptobench_suite_common::openssl_lib::ensure_providers();
    let mut out: Vec<Curve> = builtin_curves()
        .into_iter()
        .map(|(nid, comment)| weierstrass(nid, comment))
        .collect();
    out.extend(edwards_montgomery());
    out
}

fn weierstrass(raw_nid: i32, comment: String) -> Curve {
    let nid = Nid::from_raw(raw_nid);
    let name = nid
        .short_name()
        .map(str::to_string)
        .unwrap_or_else(|_| format!("nid{raw_nid}"));
    let mut curve = Curve {
        family: Family::of(&name),
        nist: nist_name(&name),
        name,
        comment,
        kind: Kind::Weierstrass(raw_nid),
        key_bits: 0,
        order_bits: 0,
        cofactor: 0,
        binary: false,
        unsupported: None,
    };
    match EcGroup::from_curve_name(nid) {
        Err(e) => curve.unsupported = Some(format!("unsupported: group not constructible: {e}")),
        Ok(group) => {
            curve.key_bits = group.degree();
            curve.order_bits = group.order_bits();
            // SAFETY: the group pointer is valid for the call.
            curve.binary = unsafe {
                EC_GROUP_get_field_type(foreign_types::ForeignType::as_ptr(&group))
                    == NID_CHARACTERISTIC_TWO_FIELD
            };
            if let Ok(mut ctx) = BigNumContext::new() {
                let mut h = openssl::bn::BigNum::new().ok();
                if let Some(h) = h.as_mut() {
                    if group.cofactor(h, &mut ctx).is_ok() {
                        curve.cofactor = h
                            .to_dec_str()
                            .ok()
                            .and_then(|s| s.parse().ok())
                            .unwrap_or(0);
                    }
                }
            }
            if let Err(e) = EcKey::generate(&group) {
                curve.unsupported = Some(format!("unsupported: key generation fails: {e}"));
            }
        }
    }
    curve
}

fn edwards_montgomery() -> Vec<Curve> {
    // RFC 7748 section 4.1/4.2 and RFC 8032 section 5: field sizes 255 and
    // 448 bits, orders of 253 and 446 bits, cofactors 8 and 4.
    let make = |name: &str, kind, comment: &str, key_bits, order_bits, cofactor| Curve {
        name: name.to_string(),
        comment: comment.to_string(),
        kind,
        family: Family::EdwardsMontgomery,
        key_bits,
        order_bits,
        cofactor,
        binary: false,
        nist: None,
        unsupported: None,
    };
    vec![
        make(
            "X25519",
            Kind::X25519,
            "Curve25519 key agreement (RFC 7748)",
            255,
            253,
            8,
        ),
        make(
            "X448",
            Kind::X448,
            "Curve448 key agreement (RFC 7748)",
            448,
            446,
            4,
        ),
        make(
            "Ed25519",
            Kind::Ed25519,
            "Edwards25519 signatures (RFC 8032)",
            255,
            253,
            8,
        ),
        make(
            "Ed448",
            Kind::Ed448,
            "Edwards448 signatures (RFC 8032)",
            448,
            446,
            4,
        ),
    ]
}

/// Finds a curve by OpenSSL name or alias (case-insensitive), with
/// "did you mean" on a miss.
pub fn resolve(wanted: &str) -> Result<&'static Curve, Error> {
    let all = catalogue();
    let folded = names::fold(wanted);
    let target = ALIASES
        .iter()
        .find(|(alias, _)| names::fold(alias) == folded)
        .map(|(_, name)| *name)
        .or(match folded.as_str() {
            "curve25519" => Some("X25519"),
            "curve448" => Some("X448"),
            "edwards25519" => Some("Ed25519"),
            "edwards448" => Some("Ed448"),
            _ => None,
        });
    let lookup = target.unwrap_or(wanted);
    if let Some(c) = all
        .iter()
        .find(|c| names::fold(&c.name) == names::fold(lookup))
    {
        return Ok(c);
    }
    let mut candidates: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
    candidates.extend(ALIASES.iter().map(|(a, _)| *a));
    Err(names::unknown("curve", wanted, &candidates))
}

/// Resolves a comma-separated list of curves, without duplicates.
pub fn resolve_list(list: &str) -> Result<Vec<&'static Curve>, Error> {
    let mut out: Vec<&'static Curve> = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let c = resolve(part)?;
        if !out.iter().any(|o| o.name == c.name) {
            out.push(c);
        }
    }
    if out.is_empty() {
        return Err(Error::usage("no curve given; see `cryptobench ecc --list`"));
    }
    Ok(out)
}
