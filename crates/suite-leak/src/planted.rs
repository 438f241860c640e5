//! Planted leaks of known size, for measuring the screen's sensitivity
//! (`scripts/bench-leak`); built only with the `planted` feature, never
//! in a product build.
//!
//! Each planted case compares 4 KiB in constant time in both classes, and
//! in class 1 compares `n` more bytes the same way: a difference of a
//! known amount of work, whose time the screen's own effect estimate
//! reports. `CRYPTOBENCH_LEAK_PLANT_BYTES` lists the sizes (`1,4,16`).

use crate::case::{LeakCase, LeakInfo, Planned, Role};
use crate::controls::{constant_time_eq, SIZE};
use crate::error::LeakError;
use cryptobench_core::CaseSpec;
use std::hint::black_box;

/// The variable listing the planted sizes, in bytes.
pub const VARIABLE: &str = "CRYPTOBENCH_LEAK_PLANT_BYTES";

struct Planted {
    a: Vec<u8>,
    b: Vec<u8>,
    extra: usize,
}

impl LeakCase for Planted {
    fn inputs(&self) -> usize {
        1
    }
    fn run(&mut self, class: usize, _input: usize, calls: u32) -> Result<(), LeakError> {
        let (head, tail) = (&self.a[..SIZE], &self.b[..SIZE]);
        for _ in 0..calls {
            black_box(constant_time_eq(black_box(head), black_box(tail)));
            if class == 1 {
                let n = self.extra;
                black_box(constant_time_eq(
                    black_box(&self.a[..n]),
                    black_box(&self.b[..n]),
                ));
            }
        }
        Ok(())
    }
}

/// One planted case per size the variable lists (none when unset).
pub fn plan() -> Vec<Planned> {
    let sizes: Vec<usize> = std::env::var(VARIABLE)
        .unwrap_or_default()
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .filter(|n| (1..=SIZE).contains(n))
        .collect();
    sizes
        .into_iter()
        .map(|n| {
            let info = LeakInfo {
                spec: CaseSpec::new(
                    crate::SUITE,
                    "planted leak",
                    format!("planted-{n}B"),
                    "",
                    "compare",
                )
                .size(SIZE as u64),
                classes: ["4096 bytes".into(), format!("4096 + {n} bytes")],
                probes: format!("sensitivity: {n} more bytes compared in class 1"),
                role: Role::Control { leaks: true },
            };
            Planned::ready(
                info,
                Box::new(move || {
                    let a = vec![7u8; SIZE];
                    Ok(Box::new(Planted {
                        b: a.clone(),
                        a,
                        extra: n,
                    }) as Box<dyn LeakCase>)
                }),
            )
        })
        .collect()
}
