//! Seed 001's loop columns: its 1-4 B and 1-4 kB rows were published for
//! 1000 and 5000 loops, and `--method seed` plans those cases at both
//! counts (param `loops`; divided by 10 with `--quick`).

use super::{cells, secs, Published, TESTS};
use cryptobench_core::Measurement;

/// The seed's 5000-loop column ("5000 loops / ø 1 cycle", seconds per
/// call) for its 1-4 B and 1-4 kB rows: the bytes, then the seconds of each
/// of the seed's tests in [`TESTS`] order.
pub(super) const FIVE_THOUSAND_LOOPS: [(u64, [f64; 6]); 2] = [
    (
        4,
        [0.000259, 0.000508, 0.000006, 0.000011, 0.000006, 0.000012],
    ),
    (
        4096,
        [0.000577, 0.001157, 0.000041, 0.000109, 0.000026, 0.000080],
    ),
];

/// The largest size with loop columns (the seed's "1-4 kB").
pub(super) const FIVE_THOUSAND_MAX_BYTES: u64 = 4096;

/// `--method seed` plans each small case at 1000 and at 5000 loops (param
/// `loops`); our method has no such param.
pub(super) fn loops_of(m: &Measurement) -> Option<u64> {
    m.param("loops").and_then(|l| l.parse().ok())
}

pub(super) fn five_thousand(test: &str, bytes: u64) -> Option<f64> {
    let column = TESTS.iter().position(|t| t.0 == test)?;
    FIVE_THOUSAND_LOOPS
        .iter()
        .find(|(b, _)| *b == bytes)
        .map(|(_, seconds)| seconds[column])
}

/// The 5000-loop column: published, and here when `--method seed` ran it.
pub(super) fn five_thousand_cell(ms: &[Measurement], p: &Published) -> String {
    let Some(seed) = five_thousand(p.test, p.bytes) else {
        return "-".into();
    };
    match secs(longer_loop(cells(ms, p.cipher, p.backend, p.op, p.bytes))) {
        Some(here) => format!("{seed} | {here:.7}"),
        None => seed.to_string(),
    }
}

/// Of one published row's cells, the longer of two loop counts (the seed's
/// 5000, divided by 10 with `--quick`); `None` unless the case ran at two
/// loop counts.
fn longer_loop(cells: Vec<&Measurement>) -> Option<&Measurement> {
    let looped: Vec<&Measurement> = cells
        .into_iter()
        .filter(|m| loops_of(m).is_some())
        .collect();
    let longest = looped.iter().copied().max_by_key(|m| loops_of(m))?;
    let shortest = looped.iter().copied().min_by_key(|m| loops_of(m))?;
    (loops_of(longest) > loops_of(shortest)).then_some(longest)
}
