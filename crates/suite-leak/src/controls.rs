//! The controls every run holds, and its A/A case.
//!
//! Two comparisons of 4 KiB buffers whose second operand differs from the
//! first at its first byte (class 0) or at its last byte (class 1):
//! an early-exit comparison stops at the first difference, so its classes
//! differ by the whole buffer's walk and the screen must flag it; a
//! constant-time comparison (`subtle`'s, the one the RustCrypto crates
//! use) reads every byte either way and the screen must clear it. The
//! A/A case runs the early-exit comparison with both classes differing
//! at the last byte: an operation that would leak, given classes that
//! cannot differ, so any flag it raises is a false alarm of the loop or
//! the machine. Its classes copy from one buffer: with two buffers of equal
//! content, the copy's source address alone (what the prefetchers pull in
//! next to it) was a difference between the classes.

use crate::case::{check, LeakCase, LeakInfo, Planned, Role};
use crate::error::LeakError;
use cryptobench_core::{CaseSpec, CheckResult};
use std::hint::black_box;
use subtle::ConstantTimeEq;

/// Bytes compared.
pub const SIZE: usize = 4096;
/// The controls' and the A/A case's primitive.
pub const PRIMITIVE: &str = "byte comparison";
/// The early-exit comparison's backend name.
pub const EARLY_EXIT: &str = "control-early-exit";
/// The constant-time comparison's backend name.
pub const CONSTANT_TIME: &str = "control-constant-time";
/// The A/A case's primitive.
pub const SAME_CLASSES: &str = "A/A";

/// Equal when every byte is; returns at the first difference.
#[inline(never)]
pub fn early_exit_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    for i in 0..a.len() {
        if black_box(a[i]) != black_box(b[i]) {
            return false;
        }
    }
    true
}

/// Equal when every byte is, reading all of them whatever they hold.
#[inline(never)]
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    bool::from(a.ct_eq(b))
}

/// A comparison of a fixed buffer against one of two others.
struct Comparison {
    reference: Vec<u8>,
    /// The classes' operands: one buffer when both classes differ at the
    /// same byte (the A/A case), so the classes share their address too.
    operands: Vec<Vec<u8>>,
    /// Which operand each class copies.
    source: [usize; 2],
    /// The operand the timed call compares, rewritten before each measurement.
    work: Vec<u8>,
    compare: fn(&[u8], &[u8]) -> bool,
}

impl Comparison {
    fn new(compare: fn(&[u8], &[u8]) -> bool, positions: [usize; 2]) -> Self {
        let reference: Vec<u8> = (0..SIZE).map(|i| (i * 131 % 251) as u8).collect();
        let same = positions[0] == positions[1];
        let distinct = if same {
            &positions[..1]
        } else {
            &positions[..]
        };
        let operands = distinct
            .iter()
            .map(|&p| {
                let mut v = reference.clone();
                v[p] ^= 0x5a;
                v
            })
            .collect();
        let source = if same { [0, 0] } else { [0, 1] };
        Self {
            work: reference.clone(),
            reference,
            operands,
            source,
            compare,
        }
    }
}

impl LeakCase for Comparison {
    fn inputs(&self) -> usize {
        1
    }
    fn checks(&mut self) -> Vec<CheckResult> {
        let differ = self
            .operands
            .iter()
            .all(|o| !(self.compare)(&self.reference, o));
        let same = (self.compare)(&self.reference, &self.reference.clone());
        vec![check(
            "compare",
            differ && same,
            "equal buffers compare equal, each class's operand unequal",
        )]
    }
    fn prepare(&mut self, class: usize, _input: usize) {
        self.work
            .copy_from_slice(&self.operands[self.source[class]]);
    }
    fn run(&mut self, _class: usize, _input: usize, calls: u32) -> Result<(), LeakError> {
        for _ in 0..calls {
            black_box((self.compare)(
                black_box(&self.reference),
                black_box(&self.work),
            ));
        }
        Ok(())
    }
}

fn info(primitive: &str, backend: &str, classes: [&str; 2], probes: &str, role: Role) -> LeakInfo {
    LeakInfo {
        spec: CaseSpec::new(crate::SUITE, primitive, backend, "", "compare").size(SIZE as u64),
        classes: classes.map(str::to_string),
        probes: probes.into(),
        role,
    }
}

const FIRST_LAST: [&str; 2] = ["differs at byte 0", "differs at byte 4095"];

/// The two controls and the A/A case.
pub fn plan() -> Vec<Planned> {
    let last = SIZE - 1;
    vec![
        Planned::ready(
            info(
                PRIMITIVE,
                EARLY_EXIT,
                FIRST_LAST,
                "control: must be flagged (stops at the first difference)",
                Role::Control { leaks: true },
            ),
            Box::new(move || Ok(Box::new(Comparison::new(early_exit_eq, [0, last])))),
        ),
        Planned::ready(
            info(
                PRIMITIVE,
                CONSTANT_TIME,
                FIRST_LAST,
                "control: must be cleared (reads every byte)",
                Role::Control { leaks: false },
            ),
            Box::new(move || Ok(Box::new(Comparison::new(constant_time_eq, [0, last])))),
        ),
        Planned::ready(
            info(
                SAME_CLASSES,
                EARLY_EXIT,
                ["differs at byte 4095", "differs at byte 4095 (again)"],
                "false alarms: both classes alike, any flag is one",
                Role::SameClasses,
            ),
            Box::new(move || Ok(Box::new(Comparison::new(early_exit_eq, [last, last])))),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_comparisons_answer_alike() {
        let a = vec![7u8; 64];
        let mut b = a.clone();
        assert!(early_exit_eq(&a, &b) && constant_time_eq(&a, &b));
        b[63] = 0;
        assert!(!early_exit_eq(&a, &b) && !constant_time_eq(&a, &b));
        assert!(!early_exit_eq(&a, &b[..10]) && !constant_time_eq(&a, &b[..10]));
    }

    #[test]
    fn every_control_passes_its_check() {
        for p in plan() {
            let mut case = (p.setup.ok().unwrap())().unwrap();
            assert!(
                case.checks()
                    .iter()
                    .all(|c| c.outcome == cryptobench_core::CheckOutcome::Pass),
                "{:?}",
                p.info
            );
        }
    }
}
