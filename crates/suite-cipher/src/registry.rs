//! Every cipher of every backend on this machine, grouped by canonical name,
//! and the resolution of user-typed names against them.

use crate::catalog::{Backend, CipherDesc};
use crate::{mcrypt, openssl_backend, rustcrypto};
use cryptobench_core::names::{self, fold};
use cryptobench_core::{Availability, Error};
use std::collections::BTreeMap;

/// Every cipher backend, in table order.
pub fn all() -> &'static [Backend] {
    &[
        &openssl_backend::OpenSsl,
        &mcrypt::Mcrypt,
        &rustcrypto::RUST_CRYPTO,
    ]
}

/// A backend by its name.
pub fn by_name(name: &str) -> Option<Backend> {
    all().iter().copied().find(|b| b.name() == name)
}

/// A backend's place in [`all`] (the order of a cipher's descriptions).
fn rank(b: Backend) -> usize {
    all()
        .iter()
        .position(|x| x.name() == b.name())
        .unwrap_or(usize::MAX)
}

/// The ciphers of the backends in use, by canonical name.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// Canonical name -> its descriptions, one per backend, in backend order.
    pub by_name: BTreeMap<String, Vec<CipherDesc>>,
    /// The backends missing here, with the reason.
    pub missing: Vec<(&'static str, String)>,
}

impl Registry {
    /// Enumerates the backends `wants` admits.
    pub fn load(wants: impl Fn(Backend) -> bool) -> Self {
        let mut descs = Vec::new();
        let mut missing = Vec::new();
        for &backend in all().iter().filter(|&&b| wants(b)) {
            match backend.availability() {
                Availability::Available => descs.extend(backend.ciphers()),
                Availability::Unavailable(reason) => missing.push((backend.name(), reason)),
            }
        }
        let mut by_name: BTreeMap<String, Vec<CipherDesc>> = BTreeMap::new();
        // Group case-insensitively under the first spelling seen (OpenSSL's).
        let mut spelling: BTreeMap<String, String> = BTreeMap::new();
        for d in descs {
            let key = spelling
                .entry(fold(&d.name))
                .or_insert_with(|| d.name.clone())
                .clone();
            let mut d = d;
            d.name = key.clone();
            by_name.entry(key).or_default().push(d);
        }
        for descs in by_name.values_mut() {
            descs.sort_by_key(|d| rank(d.backend));
        }
        Self { by_name, missing }
    }

    /// Canonical names, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.by_name.keys().map(String::as_str).collect()
    }

    /// Resolves one user-typed cipher name: a canonical name or an OpenSSL
    /// alias (`bf`, `des3`, `aes256`), case and separators ignored.
    pub fn resolve(&self, wanted: &str) -> Result<String, Error> {
        let names = self.names();
        if let Ok(n) = names::resolve("cipher", wanted, &names) {
            return Ok(n.to_string());
        }
        let w = fold(wanted);
        if let Some(canon) = openssl_backend::aliases()
            .iter()
            .find(|(alias, _)| fold(alias) == w)
            .map(|(_, c)| c)
        {
            if let Some(n) = names.iter().find(|n| fold(n) == fold(canon)) {
                return Ok(n.to_string());
            }
        }
        Err(names::unknown("cipher", wanted, &names))
    }

    /// Resolves a comma-separated list, keeping order, without duplicates.
    pub fn resolve_list(&self, list: &str) -> Result<Vec<String>, Error> {
        let mut out: Vec<String> = Vec::new();
        for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let n = self.resolve(part)?;
            if !out.contains(&n) {
                out.push(n);
            }
        }
        if out.is_empty() {
            return Err(Error::usage("no cipher given to --ciphers"));
        }
        Ok(out)
    }
}
