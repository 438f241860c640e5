//! Which native cells a runtime's cells stand beside.
//!
//! A runtime row answers "what does this language cost over the library
//! beneath it", so it is only worth measuring where the native row it is
//! compared with was measured too. A runtime's plan is therefore derived
//! from the native plan of the same suite, after the suite applied the
//! user's filters (`--ciphers`, `--sizes`, `--curves`, an Argon2 grid, a
//! paper's configuration): every runtime cell has a native cell with the
//! same primitive (compared case-insensitively), operation, size and the
//! parameters that change the work (tag and AAD length, Argon2 memory,
//! passes and lanes).
//!
//! Three kinds of cells get no twin: other runtimes' cells, peers
//! (`peer:openssl-speed`, `peer:argon2-cli`), which are not libraries a
//! runtime wraps, and the OpenSSL
//! encrypt cells the cipher suite adds at `openssl speed`'s sizes for its
//! fidelity ratio even when the run's sizes lack them.

use cryptobench_core::advice::is_runtime_case;
use cryptobench_core::model::is_caution_label;
use cryptobench_core::CaseSpec;

/// A peer's backend name starts with this.
const PEER: &str = "peer:";

fn is_library(s: &CaseSpec) -> bool {
    !s.backend.starts_with(PEER) && !is_runtime_case(&s.params) && s.primitive != "*"
}

/// An OpenSSL encrypt cell with an `openssl speed` peer beside it: it may
/// exist only for the fidelity ratio.
fn beside_a_peer(s: &CaseSpec, all: &[CaseSpec]) -> bool {
    s.backend == "openssl"
        && s.operation == "encrypt"
        && all.iter().any(|p| {
            p.backend.starts_with(PEER)
                && p.primitive.eq_ignore_ascii_case(&s.primitive)
                && p.input_bytes == s.input_bytes
        })
}

/// The native library cells of `suite` that runtime cells may stand beside,
/// in plan order.
pub fn native_cells<'a>(suite: &str, all: &'a [CaseSpec]) -> Vec<&'a CaseSpec> {
    let cells: Vec<&CaseSpec> = all
        .iter()
        .filter(|s| s.suite == suite && is_library(s))
        .collect();
    if suite != "cipher" {
        return cells;
    }
    // A size counts as asked for when some native cell uses it for more
    // than the `openssl speed` comparison.
    let asked: Vec<u64> = cells
        .iter()
        .filter(|s| !beside_a_peer(s, all))
        .map(|s| s.input_bytes)
        .collect();
    cells
        .into_iter()
        .filter(|s| asked.contains(&s.input_bytes))
        .collect()
}

/// `cells` grouped by primitive (case-insensitively; the first spelling
/// is kept) in plan order, each group deduplicated by `key` (the native
/// backends of one cell collapse into one).
pub fn by_primitive<'a, K: PartialEq>(
    cells: &[&'a CaseSpec],
    key: impl Fn(&CaseSpec) -> K,
) -> Vec<(String, Vec<&'a CaseSpec>)> {
    let mut out: Vec<(String, Vec<&CaseSpec>, Vec<K>)> = Vec::new();
    for &s in cells {
        let k = key(s);
        let group = match out
            .iter_mut()
            .position(|(p, _, _)| p.eq_ignore_ascii_case(&s.primitive))
        {
            Some(i) => &mut out[i],
            None => {
                out.push((s.primitive.clone(), Vec::new(), Vec::new()));
                let last = out.len() - 1;
                &mut out[last]
            }
        };
        if !group.2.contains(&k) {
            group.2.push(k);
            group.1.push(s);
        }
    }
    out.into_iter().map(|(p, c, _)| (p, c)).collect()
}

/// A parameter of a native cell as a number (`None` when absent or not one).
pub fn num(s: &CaseSpec, name: &str) -> Option<u64> {
    s.params.get(name).and_then(|v| v.parse().ok())
}

/// Labels that, besides a security caution, keep a cell out of a default
/// runtime grid: a language's cost over a cipher or curve nobody should
/// pick is not worth a default run's time.
const NOT_CHOSEN: [&str; 2] = ["not for new designs", "< 112-bit"];

/// AEAD sizes of the default PHP grid: seed 003's 1 KB, the fidelity size
/// 16 KiB, and the run's largest size (seed 003's 20 MB by default).
const AEAD_HEADLINE_SIZES: [u64; 2] = [1_000, 16_384];

/// The native cells a default run gives PHP twins (the seeds' runtime
/// measured broadly): cipher and curve cells without a security warning,
/// AEAD cells at the headline sizes, every Argon2 cell. `--full`,
/// `--backend NAME` and `paper` twin every cell.
pub fn headline_cells(suite: &str, native: &[CaseSpec]) -> Vec<CaseSpec> {
    let largest = native
        .iter()
        .filter(|s| s.suite == suite)
        .map(|s| s.input_bytes)
        .max()
        .unwrap_or(0);
    native
        .iter()
        .filter(|s| match suite {
            "cipher" | "ecc" => !s.labels.iter().any(|l| {
                is_caution_label(l)
                    || NOT_CHOSEN
                        .iter()
                        .any(|w| l.to_ascii_lowercase().contains(w))
            }),
            "aead" => AEAD_HEADLINE_SIZES.contains(&s.input_bytes) || s.input_bytes == largest,
            _ => true,
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(primitive: &str, backend: &str, op: &str, size: u64) -> CaseSpec {
        CaseSpec::new("cipher", primitive, backend, "", op).size(size)
    }

    #[test]
    fn peer_sizes_are_not_asked_for() {
        let all = vec![
            spec("AES-128-CBC", "openssl", "encrypt", 1024),
            spec("AES-128-CBC", "openssl", "decrypt", 1024),
            spec("AES-128-CBC", "openssl", "encrypt", 16384),
            spec("AES-128-CBC", "peer:openssl-speed", "encrypt", 16384),
            spec("AES-128-CBC", "php", "encrypt", 4).param("runtime", "php"),
        ];
        let cells = native_cells("cipher", &all);
        assert_eq!(cells.len(), 2);
        assert!(cells.iter().all(|s| s.input_bytes == 1024));
        // The same size asked on another backend counts.
        let mut more = all.clone();
        more.push(spec("AES-128-CBC", "rustcrypto", "encrypt", 16384));
        assert_eq!(native_cells("cipher", &more).len(), 4);
        // Other suites keep every library cell.
        assert_eq!(native_cells("aead", &all).len(), 0);
    }

    #[test]
    fn backends_of_one_cell_collapse() {
        let all = [
            spec("AES-128-CBC", "openssl", "encrypt", 1024),
            spec("aes-128-cbc", "rustcrypto", "encrypt", 1024),
            spec("AES-128-CBC", "openssl", "encrypt", 4),
            spec("ChaCha20", "openssl", "encrypt", 4),
        ];
        let cells: Vec<&CaseSpec> = all.iter().collect();
        let groups = by_primitive(&cells, |s| (s.operation.clone(), s.input_bytes));
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].0, "AES-128-CBC");
        assert_eq!(groups[0].1.len(), 2);
        assert_eq!(groups[1].1.len(), 1);
    }
}

#[cfg(test)]
mod headline_tests {
    use super::*;

    fn cell(suite: &str, primitive: &str, bytes: u64, labels: &[&str]) -> CaseSpec {
        CaseSpec::new(suite, primitive, "openssl", "3", "encrypt")
            .size(bytes)
            .labels(labels.iter().copied())
    }

    #[test]
    fn the_default_broad_grid_keeps_headline_cells_only() {
        let native = vec![
            cell("ecc", "prime256v1", 0, &[]),
            cell("ecc", "X25519", 0, &["cofactor > 1"]),
            cell(
                "ecc",
                "secp112r1",
                0,
                &["< 112-bit security", "not for new designs"],
            ),
            cell("ecc", "brainpoolP256r1", 0, &["not for new designs"]),
        ];
        let kept: Vec<String> = headline_cells("ecc", &native)
            .into_iter()
            .map(|s| s.primitive)
            .collect();
        assert_eq!(kept, ["prime256v1", "X25519"]);

        let native = vec![
            cell("cipher", "AES-128-CTR", 16_384, &["no authentication"]),
            cell(
                "cipher",
                "AES-128-ECB",
                16_384,
                &["ECB", "no authentication"],
            ),
            cell(
                "cipher",
                "BF-CBC",
                16_384,
                &["64-bit block (Sweet32)", "legacy provider"],
            ),
        ];
        assert_eq!(headline_cells("cipher", &native).len(), 1);

        let sizes = [16, 1_000, 16_384, 1_048_576, 20_000_000];
        let native: Vec<CaseSpec> = sizes
            .iter()
            .map(|&b| cell("aead", "AES-256-GCM", b, &[]))
            .collect();
        let kept: Vec<u64> = headline_cells("aead", &native)
            .into_iter()
            .map(|s| s.input_bytes)
            .collect();
        assert_eq!(kept, [1_000, 16_384, 20_000_000]);

        let native = vec![cell("argon2", "Argon2id", 0, &["anything"])];
        assert_eq!(headline_cells("argon2", &native).len(), 1);
    }
}
