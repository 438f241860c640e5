//! Reading back measurements whose JSON holds `null` where a number belongs.
//!
//! serde_json writes NaN and the infinities as `null`, which it then refuses
//! to read into an `f64`. Such a value should never reach the store, but if
//! one does, the run must stay readable: the affected samples are dropped,
//! broken statistics become "not timed", and a warning says so.

use cryptobench_core::Measurement;
use serde_json::Value;

/// Reads a measurement, tolerating the `null`s serde_json writes for NaN
/// and infinities: those samples and statistics are dropped with a warning
/// instead of making the whole run unreadable.
pub(crate) fn parse_measurement(json: &str) -> Result<Measurement, serde_json::Error> {
    let err = match serde_json::from_str(json) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    let mut value: Value = serde_json::from_str(json)?;
    if !repair_non_finite(&mut value) {
        return Err(err);
    }
    serde_json::from_value(value)
}

fn repair_non_finite(value: &mut Value) -> bool {
    let Some(obj) = value.as_object_mut() else {
        return false;
    };
    let mut changed = false;
    for key in ["samples_ns", "cpu_samples_ns"] {
        if let Some(Value::Array(samples)) = obj.get_mut(key) {
            let before = samples.len();
            samples.retain(|s| !s.is_null());
            changed |= samples.len() != before;
        }
    }
    if let Some(Value::Object(extra)) = obj.get_mut("extra") {
        let before = extra.len();
        extra.retain(|_, v| !v.is_null());
        changed |= extra.len() != before;
    }
    if let Some(Value::Object(stats)) = obj.get("stats") {
        let optional = ["bytes_per_s", "cycles_per_byte"];
        let broken = stats.iter().any(|(k, v)| {
            (v.is_null() && !optional.contains(&k.as_str()))
                || v.as_array().is_some_and(|a| a.iter().any(Value::is_null))
        });
        if broken {
            obj.insert("stats".into(), Value::Null);
            changed = true;
        }
    }
    if changed {
        let note =
            Value::from("non-finite values (NaN or infinity) could not be stored and were dropped");
        match obj.get_mut("warnings") {
            Some(Value::Array(w)) => w.push(note),
            _ => {
                obj.insert("warnings".into(), Value::Array(vec![note]));
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_statistics_are_dropped_not_fatal() {
        let json = r#"{"suite":"hash","primitive":"SHA-256","backend":"openssl",
            "backend_version":"x","operation":"digest","input_bytes":16,
            "iterations_per_sample":1,"samples_ns":[1.0,null],
            "stats":{"median":null,"ci95":[null,null],"p25":1,"p75":1,"min":1,"max":1,
            "mean":1,"stddev":0,"mad":0,"ops_per_s":1},
            "status":"measured","checks":[]}"#;
        let m = parse_measurement(json).unwrap();
        assert_eq!(m.samples_ns, vec![1.0]);
        assert!(m.stats.is_none());
        assert_eq!(m.warnings.len(), 1);
        assert!(parse_measurement(r#"{"suite":1}"#).is_err());
    }
}
