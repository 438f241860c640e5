//! Which cases a screen holds: the controls and the A/A case always, then
//! the library cases of the algorithms and backends asked for.

use crate::case::Planned;
use crate::{aead, controls, pubkey};
use cryptobench_core::{BackendInfo, Error};

/// What a screen runs (from `cryptobench leak` flags).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// Algorithms; `None` = the default set ([`default_algorithms`]).
    pub algorithms: Option<Vec<&'static str>>,
    /// Backends of the library cases; `None` = every backend.
    pub backends: Option<Vec<String>>,
    /// `--full`: every default algorithm of the aead suite too.
    pub full: bool,
}

/// Every algorithm a screen knows, AEAD first.
pub fn algorithm_names() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = cryptobench_suite_aead::algorithms::ALGORITHMS
        .iter()
        .map(|a| a.name)
        .collect();
    out.extend(pubkey::ALGORITHMS);
    out.push(crate::rsa_decrypt::NAME);
    out
}

/// The algorithms screened unless `--algorithms` names others.
pub fn default_algorithms(full: bool) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = if full {
        cryptobench_suite_aead::algorithms::ALGORITHMS
            .iter()
            .filter(|a| a.default)
            .map(|a| a.name)
            .collect()
    } else {
        aead::DEFAULT.to_vec()
    };
    out.extend(pubkey::ALGORITHMS);
    out.push(crate::rsa_decrypt::NAME);
    out
}

/// `--algorithms LIST` resolved (case and separators ignored), or a usage
/// error naming what is accepted and the closest names.
pub fn resolve_algorithms(list: &str) -> Result<Vec<&'static str>, Error> {
    cryptobench_core::names::resolve_list("leak algorithm", list, &algorithm_names())
}

/// Backend names of the library cases and the controls.
pub fn backend_names() -> Vec<&'static str> {
    let mut out = vec![controls::EARLY_EXIT, controls::CONSTANT_TIME];
    for n in aead::backend_names()
        .into_iter()
        .chain(pubkey::backend_names())
    {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// The controls as backends in the run's fingerprint (the libraries are
/// listed by their own suites).
pub fn backends() -> Vec<BackendInfo> {
    // The controls are this crate's own code (the constant-time one is
    // `subtle`'s comparison), so the version names what was built in.
    let built_in = format!("cryptobench {} (built in)", env!("CARGO_PKG_VERSION"));
    [
        (controls::EARLY_EXIT, built_in.clone()),
        (controls::CONSTANT_TIME, format!("{built_in}, subtle 2.6")),
    ]
    .into_iter()
    .map(|(name, version)| BackendInfo {
        name: name.to_string(),
        version,
        unavailable: None,
    })
    .collect()
}

/// The cases of a screen, controls and A/A first.
pub fn plan(options: &Options) -> Vec<Planned> {
    let mut out = controls::plan();
    #[cfg(feature = "planted")]
    out.extend(crate::planted::plan());
    let algorithms = options
        .algorithms
        .clone()
        .unwrap_or_else(|| default_algorithms(options.full));
    let backends = options.backends.as_deref();
    for name in algorithms {
        if let Some(alg) = cryptobench_suite_aead::algorithms::by_name(name) {
            out.extend(aead::plan(alg, backends));
        } else if name == crate::rsa_decrypt::NAME {
            out.extend(crate::rsa_decrypt::plan(backends));
        } else {
            out.extend(pubkey::plan(name, backends));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_algorithm_is_refused_with_the_accepted_names() {
        let e = resolve_algorithms("chacha20poly1305,x2551").unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("did you mean X25519"), "{msg}");
        assert!(msg.contains("ML-KEM-768"), "{msg}");
        assert_eq!(
            resolve_algorithms("mlkem768,aes128gcm").unwrap(),
            ["ML-KEM-768", "AES-128-GCM"]
        );
    }

    #[test]
    fn every_plan_starts_with_the_controls_and_the_a_a_case() {
        let only = Options {
            algorithms: Some(vec!["X25519"]),
            backends: Some(vec!["nothing".into()]),
            full: false,
        };
        let p = plan(&only);
        assert_eq!(p.len(), 3);
        assert_eq!(p[0].info.spec.backend, controls::EARLY_EXIT);
        assert_eq!(p[1].info.spec.backend, controls::CONSTANT_TIME);
        assert_eq!(p[2].info.spec.primitive, controls::SAME_CLASSES);
    }
}
