//! The ecc suite's php cells: key generation with `openssl_pkey_new`.

use super::{cell, version, Setup};
use crate::interop::{EcInterop, Interop};
use crate::php::NAME;
use crate::twin::by_primitive;
use cryptobench_core::{CaseSpec, PlannedCase};
use serde_json::json;
use std::sync::Arc;

/// Key generation beside each native keygen cell (the runner measures
/// `openssl_pkey_new`, as the seed did; other EC operations get no php cell).
pub(super) fn ecc(setup: &Setup, cells: &[&CaseSpec]) -> Vec<PlannedCase> {
    let keygen: Vec<&CaseSpec> = cells
        .iter()
        .copied()
        .filter(|s| s.operation == "keygen")
        .collect();
    by_primitive(&keygen, |_| ())
        .into_iter()
        .map(|(curve, twins)| {
            let native = twins[0];
            let mut spec = CaseSpec::new("ecc", &curve, NAME, version(setup, "openssl"), "keygen")
                .size(native.input_bytes)
                .param("api", "openssl_pkey_new")
                .labels(native.labels.clone());
            for p in ["family", "key_bits", "security_bits"] {
                if let Some(v) = native.params.get(p) {
                    spec = spec.param(p, v);
                }
            }
            cell(spec, setup, move |ctx| {
                let Some(php_curve) = ctx
                    .hello
                    .curves
                    .iter()
                    .find(|c| c.eq_ignore_ascii_case(&curve))
                    .cloned()
                else {
                    return Err(format!(
                        "PHP's openssl_get_curve_names() does not list {curve}"
                    ));
                };
                let case = json!({"kind": "ecc", "curve": php_curve});
                let i: Arc<dyn Interop> = Arc::new(EcInterop {
                    curve: php_curve.clone(),
                });
                Ok((case, None, Some((format!("ecc:{php_curve}"), i))))
            })
        })
        .collect()
}
