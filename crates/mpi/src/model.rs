//! A scaling model: what speedup `mpi` mode would reach on 2..64 hosts, from
//! what one machine measures.
//!
//! For one operation on a message of N characters split over p hosts:
//!
//! ```text
//! T(p) = T1 * s  +  T1 * (1 - s) * ceil(U / p) / U / E   (compute)
//!      + B * N * (p - 1) / p / bandwidth                 (transfer)
//!      + k * ceil(log2 p) * latency                      (latency)
//! S(p) = T(1) / T(p)
//! ```
//!
//! - T1: the 1-rank time of the operation; s: its measured serial fraction
//!   (the share of T1 outside compute: copying, packing; it does not shrink
//!   with p). U: encoding units (pairs); ceil(U/p)/U is the largest share,
//!   so imbalance from uneven division is included.
//! - E: compute efficiency of one rank next to the others, 1 for one rank
//!   per host; below 1 when ranks share a machine's cores and memory.
//! - B: bytes moved per character between rank 0 and the others (P-256
//!   `char`: 1 scattered + 66 gathered for encryption, 1 gathered for
//!   decryption); rank 0's link carries the (p-1)/p that leaves it.
//! - k: collectives on the critical path (encrypt: scatter + gather = 2;
//!   decrypt: gather = 1), each a tree of ceil(log2 p) latency steps.

/// A network as the model sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Network {
    /// Name in tables.
    pub name: &'static str,
    /// One-way small-message latency, seconds.
    pub latency_s: f64,
    /// Bandwidth of rank 0's link, bytes per second.
    pub bandwidth_bytes_per_s: f64,
}

impl Network {
    /// Ranks on one machine (OpenMPI's shared-memory transport): about
    /// 1 us and several GB/s.
    pub const SHARED_MEMORY: Network = Network {
        name: "shared memory",
        latency_s: 1e-6,
        bandwidth_bytes_per_s: 5e9,
    };
    /// Gigabit Ethernet with TCP: about 50 us, 117 MB/s of payload.
    pub const GIGABIT: Network = Network {
        name: "1 GbE TCP",
        latency_s: 50e-6,
        bandwidth_bytes_per_s: 117e6,
    };
    /// 10 Gigabit Ethernet with TCP: about 20 us, 1.17 GB/s.
    pub const TEN_GIGABIT: Network = Network {
        name: "10 GbE TCP",
        latency_s: 20e-6,
        bandwidth_bytes_per_s: 1.17e9,
    };
}

/// What one machine measured for one operation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Workload {
    /// The 1-rank time of the operation, seconds.
    pub t1_s: f64,
    /// Fraction of `t1_s` that does not split over ranks.
    pub serial_fraction: f64,
    /// Characters in the message.
    pub chars: usize,
    /// Encoding units (pairs) of the message.
    pub units: usize,
    /// Bytes moved between rank 0 and the others per character.
    pub bytes_per_char: f64,
    /// Collectives on the critical path.
    pub collectives: usize,
    /// Compute efficiency of a rank beside the others (1: one per host).
    pub efficiency: f64,
}

/// The figures one `mpi`-mode run records for an operation (the
/// measurement's `wall_s`, `compute_s` and `pack_s`), seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankRun {
    /// Wall time of the whole operation.
    pub wall_s: f64,
    /// Rank 0's encryption or decryption work.
    pub compute_s: f64,
    /// Rank 0's packing and unpacking.
    pub pack_s: f64,
}

impl RankRun {
    /// The time a rank is busy with its share.
    fn busy_s(&self) -> f64 {
        self.compute_s + self.pack_s
    }
}

impl Workload {
    /// The workload of one operation from a 1-rank run and a `ranks`-rank
    /// run of the same message on one machine: the serial fraction is the
    /// 1-rank time outside the busy work; the efficiency E compares the
    /// many-rank busy time of the largest share with that share of the
    /// 1-rank busy time (on separate hosts E would be 1).
    pub fn from_runs(
        one: RankRun,
        many: RankRun,
        ranks: usize,
        units: usize,
        chars: usize,
        bytes_per_char: f64,
        collectives: usize,
    ) -> Self {
        let share = units.div_ceil(ranks.max(1)) as f64 / units.max(1) as f64;
        Workload {
            t1_s: one.wall_s,
            serial_fraction: ((one.wall_s - one.busy_s()) / one.wall_s).clamp(0.0, 1.0),
            chars,
            units,
            bytes_per_char,
            collectives,
            efficiency: one.busy_s() * share / many.busy_s(),
        }
    }
}

/// The model's time for `hosts` ranks, seconds.
pub fn predict_time(w: &Workload, net: &Network, hosts: usize) -> f64 {
    let p = hosts.max(1);
    let largest_share = w.units.div_ceil(p) as f64 / w.units.max(1) as f64;
    let efficiency = if p == 1 { 1.0 } else { w.efficiency.max(1e-6) };
    let compute = w.t1_s * w.serial_fraction
        + w.t1_s * (1.0 - w.serial_fraction) * largest_share / efficiency;
    let pf = p as f64;
    let transfer = w.bytes_per_char * w.chars as f64 * (pf - 1.0) / pf / net.bandwidth_bytes_per_s;
    let steps = (usize::BITS - (p - 1).leading_zeros()) as f64; // ceil(log2 p)
    let latency = w.collectives as f64 * steps * net.latency_s;
    compute + transfer + latency
}

/// The model's speedup over one rank at `hosts` ranks.
pub fn predict_speedup(w: &Workload, net: &Network, hosts: usize) -> f64 {
    predict_time(w, net, 1) / predict_time(w, net, hosts)
}

/// Host counts the docs tabulate.
pub const HOSTS: [usize; 6] = [2, 4, 8, 16, 32, 64];

/// Speedup at each of [`HOSTS`] for each network.
pub fn table(w: &Workload, nets: &[Network]) -> cryptobench_core::Table {
    let mut headers = vec!["network".to_string()];
    headers.extend(HOSTS.iter().map(|h| format!("{h} hosts")));
    let mut t = cryptobench_core::Table::new(
        format!(
            "Predicted mpi speedup over one host ({} chars, serial fraction {:.4}, {:.0} B/char moved)",
            w.chars, w.serial_fraction, w.bytes_per_char
        ),
        headers,
    )
    .right(&[1, 2, 3, 4, 5, 6]);
    for net in nets {
        let mut row = vec![net.name.to_string()];
        row.extend(
            HOSTS
                .iter()
                .map(|&h| format!("{:.2}", predict_speedup(w, net, h))),
        );
        t.row(row);
    }
    t.note("S(p) = T(1)/T(p), T(p) = T1*s + T1*(1-s)*ceil(U/p)/U + B*N*(p-1)/p/bandwidth + k*ceil(log2 p)*latency");
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workload() -> Workload {
        Workload {
            t1_s: 2.0,
            serial_fraction: 0.0,
            chars: 65536,
            units: 65536,
            bytes_per_char: 67.0,
            collectives: 2,
            efficiency: 1.0,
        }
    }

    #[test]
    fn one_host_is_the_measured_time() {
        let w = workload();
        assert_eq!(predict_time(&w, &Network::GIGABIT, 1), 2.0);
        assert_eq!(predict_speedup(&w, &Network::GIGABIT, 1), 1.0);
    }

    #[test]
    fn perfect_split_without_network_cost_is_linear() {
        let w = workload();
        let free = Network {
            name: "free",
            latency_s: 0.0,
            bandwidth_bytes_per_s: f64::INFINITY,
        };
        for p in [2, 4, 8, 16, 32, 64] {
            assert!((predict_speedup(&w, &free, p) - p as f64).abs() < 1e-9);
        }
    }

    #[test]
    fn amdahl_bounds_the_speedup() {
        let mut w = workload();
        w.serial_fraction = 0.1;
        let s = predict_speedup(&w, &Network::SHARED_MEMORY, 64);
        assert!(s < 10.0, "{s}");
        assert!(s > 8.0, "{s}");
    }

    #[test]
    fn slow_networks_cost_more_and_speedup_saturates() {
        let w = workload();
        // 65536 * 67 B * 63/64 over 117 MB/s = 37 ms: small next to 2 s / 64.
        let g = predict_speedup(&w, &Network::GIGABIT, 64);
        let t = predict_speedup(&w, &Network::TEN_GIGABIT, 64);
        assert!(g < t && t < 64.0, "{g} {t}");
        let transfer = 67.0 * 65536.0 * 63.0 / 64.0 / 117e6;
        let expected = 2.0 / (2.0 / 64.0 + transfer + 2.0 * 6.0 * 50e-6);
        assert!((g - expected).abs() < 1e-9, "{g} vs {expected}");
    }

    /// The 2-rank prediction from two recorded runs, worked by hand: what the
    /// live check (scripts/mpi-model-check) does with fresh figures.
    #[test]
    fn two_rank_prediction_from_recorded_runs() {
        let one = RankRun {
            wall_s: 0.40,
            compute_s: 0.36,
            pack_s: 0.02,
        };
        let two = RankRun {
            wall_s: 0.23,
            compute_s: 0.20,
            pack_s: 0.01,
        };
        let w = Workload::from_runs(one, two, 2, 4096, 4096, 67.0, 2);
        // Serial fraction: (0.40 - 0.38) / 0.40; E: (0.38 / 2) / 0.21.
        assert!((w.serial_fraction - 0.05).abs() < 1e-12, "{w:?}");
        assert!((w.efficiency - 0.19 / 0.21).abs() < 1e-12, "{w:?}");
        let net = Network::SHARED_MEMORY;
        let expected = 0.40 * 0.05
            + 0.40 * 0.95 * 0.5 / (0.19 / 0.21)
            + 67.0 * 4096.0 * 0.5 / net.bandwidth_bytes_per_s
            + 2.0 * 1.0 * net.latency_s;
        let predicted = predict_time(&w, &net, 2);
        assert!(
            (predicted - expected).abs() < 1e-12,
            "{predicted} vs {expected}"
        );
        // 0.02 + 0.21 + 27 us + 2 us: within 1% of the 2-rank wall time.
        assert!(
            (predicted - two.wall_s).abs() / two.wall_s < 0.01,
            "{predicted}"
        );
        // An odd number of units: the larger share sets E.
        let uneven = Workload::from_runs(one, two, 2, 3, 3, 67.0, 2);
        assert!((uneven.efficiency - 0.38 * (2.0 / 3.0) / 0.21).abs() < 1e-12);
    }

    #[test]
    fn uneven_division_shows_up() {
        let mut w = workload();
        w.units = 3;
        w.chars = 3;
        // 3 units on 2 hosts: the larger share is 2 of 3.
        let free = Network {
            name: "free",
            latency_s: 0.0,
            bandwidth_bytes_per_s: f64::INFINITY,
        };
        assert!((predict_speedup(&w, &free, 2) - 1.5).abs() < 1e-12);
    }
}
