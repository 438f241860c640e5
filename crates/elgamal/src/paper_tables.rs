//! Seed 002's published speedup tables, cell by cell, as stored data for
//! `paper ecelgamal-parallel`.
//!
//! Source: H. Suwanda, R. Munir, "Increasing Speed of Elliptic Curve ElGamal
//! using Parallelization" (seed 002), Tables III-XII, on an Intel i3-2370M
//! (2 cores, 4 threads), OpenMP and OpenMPI, 2 processes. Rows are the
//! message lengths 1024..65536 characters; columns of the thread tables are
//! 2, 4, 10, 100 and 1000 threads (per process for Parallel Three).

use crate::curve::Curve;

/// Which parallel program of the seed a table measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// Parallel One: 2 MPI processes, one thread each (Tables III-IV).
    One,
    /// Parallel Two: OpenMP threads in one process (Tables V-VIII).
    Two,
    /// Parallel Three: 2 MPI processes x N threads (Tables IX-XII).
    Three,
}

/// One published table of speedups over the serial program.
#[derive(Debug, Clone, Copy)]
pub struct Published {
    /// "Table V", ...
    pub table: &'static str,
    /// What it measures, in words.
    pub what: &'static str,
    /// The seed's parallel program.
    pub program: Program,
    /// The curve its key size maps to here (64-bit: toy64, 256-bit: P-256).
    pub curve: Curve,
    /// `encrypt` or `decrypt`.
    pub op: &'static str,
    /// Speedups, one row per length; Parallel One has one column (2
    /// processes) repeated so every table has the same shape.
    pub rows: [[f64; 5]; 5],
}

const fn one(
    table: &'static str,
    what: &'static str,
    curve: Curve,
    op: &'static str,
    col: [f64; 5],
) -> Published {
    Published {
        table,
        what,
        program: Program::One,
        curve,
        op,
        rows: [
            [col[0]; 5],
            [col[1]; 5],
            [col[2]; 5],
            [col[3]; 5],
            [col[4]; 5],
        ],
    }
}

/// Tables III-IV (Parallel One, 2 processes), split per operation.
pub const PARALLEL_ONE: [Published; 4] = [
    one(
        "Table III",
        "encrypting, 64-bit",
        Curve::Toy64,
        "encrypt",
        [1.6752, 1.6629, 1.7368, 1.7011, 1.7059],
    ),
    one(
        "Table III",
        "decrypting, 64-bit",
        Curve::Toy64,
        "decrypt",
        [1.2210, 1.4159, 1.6341, 2.0970, 2.2301],
    ),
    one(
        "Table IV",
        "encrypting, 256-bit",
        Curve::P256,
        "encrypt",
        [1.6900, 1.6317, 1.6638, 1.6847, 1.6715],
    ),
    one(
        "Table IV",
        "decrypting, 256-bit",
        Curve::P256,
        "decrypt",
        [1.5705, 1.6301, 1.4130, 1.3990, 1.3990],
    ),
];

/// Tables V-VIII (Parallel Two, OpenMP threads).
pub const PARALLEL_TWO: [Published; 4] = [
    Published {
        table: "Table V",
        what: "encrypting, 64-bit",
        program: Program::Two,
        curve: Curve::Toy64,
        op: "encrypt",
        rows: [
            [1.6833, 2.1095, 2.0672, 2.1762, 2.7749],
            [1.6963, 1.9706, 2.0375, 2.2560, 2.6232],
            [1.7487, 2.0698, 2.1872, 2.2780, 2.4780],
            [1.7284, 1.9855, 2.1885, 2.2320, 2.3463],
            [1.7215, 1.9239, 2.1733, 2.1990, 2.2918],
        ],
    },
    Published {
        table: "Table VI",
        what: "encrypting, 256-bit",
        program: Program::Two,
        curve: Curve::P256,
        op: "encrypt",
        rows: [
            [1.6831, 1.8006, 2.1160, 2.1613, 2.1320],
            [1.6378, 1.8378, 2.1780, 2.1672, 2.0868],
            [1.6990, 1.9184, 2.1799, 2.1934, 2.1531],
            [1.7216, 1.7465, 2.0563, 2.1773, 2.1695],
            [1.7042, 1.8895, 2.1532, 2.1586, 2.0105],
        ],
    },
    Published {
        table: "Table VII",
        what: "decrypting, 64-bit",
        program: Program::Two,
        curve: Curve::Toy64,
        op: "decrypt",
        rows: [
            [1.9306, 2.4428, 2.6144, 6.3157, 1.4491],
            [1.7493, 2.0535, 2.3924, 4.6746, 3.8890],
            [1.7410, 2.0971, 2.2610, 3.5554, 12.7803],
            [2.1844, 2.5397, 2.7497, 4.0328, 14.7390],
            [2.3208, 2.6139, 3.0090, 3.6217, 13.0621],
        ],
    },
    Published {
        table: "Table VIII",
        what: "decrypting, 256-bit",
        program: Program::Two,
        curve: Curve::P256,
        op: "decrypt",
        rows: [
            [1.6256, 1.7278, 2.1425, 3.9573, 6.7452],
            [1.7179, 1.9123, 2.3577, 2.9613, 13.9507],
            [1.6086, 1.8246, 2.0889, 2.3706, 5.2421],
            [1.5940, 1.6053, 1.9084, 2.1396, 3.7131],
            [1.6875, 1.8881, 2.1600, 2.2881, 3.2143],
        ],
    },
];

/// Tables IX-XII (Parallel Three, 2 processes x N threads).
pub const PARALLEL_THREE: [Published; 4] = [
    Published {
        table: "Table IX",
        what: "encrypting, 64-bit",
        program: Program::Three,
        curve: Curve::Toy64,
        op: "encrypt",
        rows: [
            [1.6450, 1.6431, 1.6245, 1.7301, 2.1031],
            [1.6024, 1.5962, 1.6126, 1.6832, 1.9471],
            [1.6108, 1.6234, 1.6250, 1.6540, 1.8801],
            [1.6045, 1.6130, 1.6026, 1.6341, 1.8158],
            [1.6077, 1.6016, 1.6101, 1.6093, 1.6914],
        ],
    },
    Published {
        table: "Table X",
        what: "encrypting, 256-bit",
        program: Program::Three,
        curve: Curve::P256,
        op: "encrypt",
        rows: [
            [1.5989, 1.5923, 1.5955, 1.5917, 1.5048],
            [1.5949, 1.5738, 1.5902, 1.5896, 1.5604],
            [1.5992, 1.6033, 1.6005, 1.5837, 1.6056],
            [1.5858, 1.5804, 1.5879, 1.5796, 1.5700],
            [1.5885, 1.6005, 1.5955, 1.5829, 1.5906],
        ],
    },
    Published {
        table: "Table XI",
        what: "decrypting, 64-bit",
        program: Program::Three,
        curve: Curve::Toy64,
        op: "decrypt",
        rows: [
            [1.7228, 2.1411, 2.5355, 3.9521, 1.5520],
            [1.5183, 1.5709, 1.7076, 4.0299, 4.9646],
            [1.2582, 1.3676, 1.4332, 2.5032, 12.081],
            [1.5832, 1.6242, 1.6371, 2.7045, 18.254],
            [1.6970, 1.6880, 1.7835, 2.1803, 14.043],
        ],
    },
    Published {
        // Titled "encrypting" in the seed; by its place after Table XI and
        // its decryption-like 1000-thread values it reports decryption.
        table: "Table XII",
        what: "decrypting, 256-bit (the seed titles it 'encrypting')",
        program: Program::Three,
        curve: Curve::P256,
        op: "decrypt",
        rows: [
            [1.6091, 1.5480, 1.6652, 3.3497, 5.2059],
            [1.6442, 1.6750, 1.6943, 2.3876, 11.170],
            [1.4198, 1.4667, 1.4640, 1.7184, 4.8313],
            [1.4590, 1.4771, 1.4885, 1.6360, 3.5379],
            [1.4662, 1.4714, 1.4808, 1.5554, 2.4797],
        ],
    },
];

/// The published speedup of `program` for (curve, op) at a length index and
/// thread-column index.
pub fn published(program: Program, curve: Curve, op: &str, row: usize, col: usize) -> Option<f64> {
    let tables: &[Published] = match program {
        Program::One => &PARALLEL_ONE,
        Program::Two => &PARALLEL_TWO,
        Program::Three => &PARALLEL_THREE,
    };
    tables
        .iter()
        .find(|p| p.curve == curve && p.op == op)
        .and_then(|p| p.rows.get(row)?.get(col).copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_cells_match_the_seed() {
        // Spot checks against the seed's text, one per table family.
        assert_eq!(
            published(Program::One, Curve::Toy64, "decrypt", 4, 0),
            Some(2.2301)
        );
        assert_eq!(
            published(Program::Two, Curve::Toy64, "decrypt", 3, 4),
            Some(14.7390)
        );
        assert_eq!(
            published(Program::Three, Curve::Toy64, "decrypt", 3, 4),
            Some(18.254)
        );
        assert_eq!(
            published(Program::Three, Curve::P256, "decrypt", 1, 4),
            Some(11.170)
        );
        assert_eq!(
            published(Program::Three, Curve::P256, "encrypt", 0, 4),
            Some(1.5048)
        );
    }
}
