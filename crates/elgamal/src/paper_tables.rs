//! Seed 002's published speedup tables, cell by cell, as stored data for
//! `paper ecelgamal-parallel`.
//!
//! The figures are data, not code: `data/seed002-speedups.txt` holds them
//! as the seed prints them (its header names the source and the layout),
//! read once per process. Rows are the message lengths 1024..65536
//! characters; columns of the thread tables are 2, 4, 10, 100 and 1000
//! threads (per process for Parallel Three).

use crate::curve::Curve;
use std::sync::OnceLock;

/// The published tables as text (see the file's header for its layout).
const SEED_TABLES: &str = include_str!("../data/seed002-speedups.txt");

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

impl Program {
    fn parse(name: &str) -> Option<Self> {
        match name {
            "one" => Some(Program::One),
            "two" => Some(Program::Two),
            "three" => Some(Program::Three),
            _ => None,
        }
    }
}

/// A line of the stored tables that does not read (a broken data file).
#[derive(Debug, thiserror::Error)]
#[error("data/seed002-speedups.txt line {line}: {what}")]
pub struct TableError {
    line: usize,
    what: String,
}

/// Reads the stored tables: a header line, then five rows of five
/// speedups, or of one repeated (Parallel One has a single column).
fn parse_tables(text: &'static str) -> Result<Vec<Published>, TableError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let mut out = Vec::new();
    while let Some((line, header)) = lines.next() {
        let bad = |what: String| TableError { line, what };
        let fields: Vec<&'static str> = header.split('|').map(str::trim).collect();
        let [table, program, curve, op, what] = fields[..] else {
            return Err(bad(format!(
                "expected `table | program | curve | op | what`, found {header:?}"
            )));
        };
        let program = Program::parse(program)
            .ok_or_else(|| bad(format!("program {program:?}: accepted one, two, three")))?;
        let curve = Curve::parse(curve).map_err(|e| bad(e.to_string()))?;
        let mut rows = [[0.0; 5]; 5];
        for row in &mut rows {
            let (line, text) = lines
                .next()
                .ok_or_else(|| bad(format!("{table}: fewer than 5 rows")))?;
            let cells: Vec<f64> = text
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|e| TableError {
                    line,
                    what: format!("{text:?}: {e}"),
                })?;
            *row = match cells[..] {
                [one] => [one; 5],
                [a, b, c, d, e] => [a, b, c, d, e],
                _ => {
                    return Err(TableError {
                        line,
                        what: format!("{} cells: accepted 1 or 5", cells.len()),
                    })
                }
            };
        }
        out.push(Published {
            table,
            what,
            program,
            curve,
            op,
            rows,
        });
    }
    Ok(out)
}

/// Every stored table, in the file's order (Tables III-XII).
fn stored() -> &'static [Published] {
    static TABLES: OnceLock<Vec<Published>> = OnceLock::new();
    // The file ships inside the binary and a test reads all of it, so a
    // failure here is a broken build, not a user's mistake.
    TABLES.get_or_init(|| parse_tables(SEED_TABLES).unwrap_or_else(|e| panic!("{e}")))
}

/// The tables of `program`: III-IV (split per operation), V-VIII or IX-XII.
pub fn tables(program: Program) -> impl Iterator<Item = &'static Published> {
    stored().iter().filter(move |p| p.program == program)
}

/// The published speedup of `program` for (curve, op) at a length index and
/// thread-column index.
pub fn published(program: Program, curve: Curve, op: &str, row: usize, col: usize) -> Option<f64> {
    tables(program)
        .find(|p| p.curve == curve && p.op == op)
        .and_then(|p| p.rows.get(row)?.get(col).copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stored_table_reads() {
        let all = parse_tables(SEED_TABLES).expect("the data file reads");
        assert_eq!(all.len(), 12);
        for program in [Program::One, Program::Two, Program::Three] {
            assert_eq!(tables(program).count(), 4, "{program:?}");
        }
        assert_eq!(
            all[0].rows[2], [1.7368; 5],
            "Parallel One repeats its column"
        );
        assert!(parse_tables("Table V | two | toy64 | encrypt | x\n1 2 3\n").is_err());
        assert!(parse_tables("Table V | four | toy64 | encrypt | x\n").is_err());
    }

    #[test]
    fn stored_cells_match_the_seed() {
        // Spot checks against the seed's text, one per table family.
        let seed = [
            (Program::One, Curve::Toy64, "decrypt", 4, 0, 2.2301),
            (Program::Two, Curve::Toy64, "decrypt", 3, 4, 14.7390),
            (Program::Three, Curve::Toy64, "decrypt", 3, 4, 18.254),
            (Program::Three, Curve::P256, "decrypt", 1, 4, 11.170),
            (Program::Three, Curve::P256, "encrypt", 0, 4, 1.5048),
        ];
        for (program, curve, op, row, col, value) in seed {
            let got = published(program, curve, op, row, col);
            assert_eq!(got, Some(value), "{program:?} {curve} {op} [{row}][{col}]");
        }
    }
}
