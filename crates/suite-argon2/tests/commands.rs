//! `argon2 hash`, `verify`, `tune` argument rules and the benchmark plan.

use cryptobench_core::Suite;
use cryptobench_core::{CaseStatus, Error, Measurement, RunConfig, Setup, Summary};
use cryptobench_suite_argon2::cases::{self, Grid, TABLE_10_CELLS, TABLE_9_CELLS};
use cryptobench_suite_argon2::cli::{self, Argon2Args, HashArgs};
use cryptobench_suite_argon2::engines::{Cli, CLI, LIBARGON2, LIBSODIUM};
use cryptobench_suite_argon2::params::Variant;
use cryptobench_suite_argon2::{papers, report, Argon2Suite};
use std::io::Write;
use std::process::{Command, Stdio};

fn args(variant: &str, memory: &str, t: u32, p: u32, salt: &str) -> HashArgs {
    HashArgs {
        variant: variant.into(),
        memory: memory.into(),
        iterations: t,
        lanes: p,
        length: 32,
        salt: Some(salt.into()),
        argon2_version: "13".into(),
        raw: false,
        max_memory: "1GiB".into(),
        max_time: "10s".into(),
        took: false,
    }
}

fn reference_cli(extra: &[&str], password: &[u8]) -> String {
    let mut child = Command::new("argon2")
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("argon2 runs");
    child.stdin.take().unwrap().write_all(password).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn hash_matches_the_reference_cli_byte_for_byte() {
    assert!(
        Cli::installed(),
        "this test needs the argon2 CLI: install with `apt-get install argon2`"
    );
    let cfg = RunConfig::default();
    let cases = [
        ("id", "64MiB", 3, 4, "-id", "65536"),
        ("i", "1MiB", 2, 1, "-i", "1024"),
        ("d", "256KiB", 1, 2, "-d", "256"),
    ];
    for (variant, memory, t, p, flag, kib) in cases {
        let ours = cli::hash(
            &args(variant, memory, t, p, "somesaltSOMESALT"),
            &cfg,
            b"password",
        )
        .unwrap();
        let theirs = reference_cli(
            &[
                "somesaltSOMESALT",
                flag,
                "-t",
                &t.to_string(),
                "-k",
                kib,
                "-p",
                &p.to_string(),
                "-l",
                "32",
                "-e",
            ],
            b"password",
        );
        assert_eq!(ours, theirs, "{variant} {memory}");
    }
    let mut raw = args("id", "64MiB", 3, 4, "somesaltSOMESALT");
    raw.raw = true;
    raw.argon2_version = "10".into();
    let ours = cli::hash(&raw, &cfg, b"pw\n").unwrap();
    let theirs = reference_cli(
        &[
            "somesaltSOMESALT",
            "-id",
            "-t",
            "3",
            "-k",
            "65536",
            "-p",
            "4",
            "-l",
            "32",
            "-v",
            "10",
            "-r",
        ],
        b"pw\n",
    );
    assert_eq!(ours, theirs);
}

#[test]
fn hash_then_verify_round_trips_on_every_library() {
    for backend in ["libargon2", "rustcrypto", "libsodium"] {
        let cfg = RunConfig {
            backends: Some(vec![backend.into()]),
            ..RunConfig::default()
        };
        let mut a = args("id", "1MiB", 3, 1, "0123456789abcdef");
        if backend != "libsodium" {
            a.lanes = 2;
        }
        let phc = cli::hash(&a, &cfg, b"hunter2").unwrap();
        assert!(phc.starts_with("$argon2id$v=19$m=1024,t=3,p="), "{phc}");
        assert!(cli::verify(&phc, &cfg, b"hunter2").unwrap(), "{backend}");
        assert!(!cli::verify(&phc, &cfg, b"hunter3").unwrap(), "{backend}");
    }
    // A string from the reference implementation (test.c, v0x13).
    let reference =
        "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA";
    assert!(cli::verify(reference, &RunConfig::default(), b"password").unwrap());
}

fn usage_message(r: Result<String, Error>) -> String {
    match r {
        Err(Error::Usage(m)) => m,
        other => panic!("expected a usage error, got {other:?}"),
    }
}

#[test]
fn bad_hash_input_is_a_usage_error_naming_the_rule() {
    let cfg = RunConfig::default();
    let h = |a: HashArgs| usage_message(cli::hash(&a, &cfg, b"pw"));
    assert!(h(args("id", "24KiB", 1, 4, "saltsalt")).contains("8 KiB per lane"));
    assert!(h(args("id", "1MiB", 0, 1, "saltsalt")).contains("t >= 1"));
    assert!(h(args("id", "1MiB", 1, 0, "saltsalt")).contains("2^24 - 1"));
    assert!(h(args("id", "1MiB", 1, 1 << 24, "saltsalt")).contains("2^24 - 1"));
    assert!(h(args("id", "1MiB", 1, 1, "short")).contains("at least 8 bytes"));
    let m = h(args("argon2x", "1MiB", 1, 1, "saltsalt"));
    assert!(
        m.contains("unknown variant") && m.contains("did you mean"),
        "{m}"
    );
    assert!(h(args("id", "1000", 1, 1, "saltsalt")).contains("whole number of KiB"));
    let mut short_tag = args("id", "1MiB", 1, 1, "saltsalt");
    short_tag.length = 3;
    assert!(h(short_tag).contains("tag length"));
    match cli::verify("$argon2id$v=19$m=1024,t=1$c2FsdHNhbHQ$AAAA", &cfg, b"pw") {
        Err(Error::Usage(m)) => assert!(m.contains("malformed PHC string")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn grid_flags_replace_the_default_dimensions() {
    let cfg = RunConfig::default();
    let mut a = Argon2Args {
        memory: Some("16MiB..1GiB".into()),
        ..Argon2Args::default()
    };
    let g = cli::grid(&a, &cfg).unwrap();
    assert_eq!(g.memory_kib.len(), 7);
    assert_eq!(g.cells, Grid::standard().cells);
    a.variants = Some("i".into());
    a.iterations = Some("1,3,6".into());
    a.lanes = Some("1..8".into());
    a.workers = Some(2);
    let g = cli::grid(&a, &cfg).unwrap();
    assert_eq!(
        g.cells,
        vec![(Variant::I, 1), (Variant::I, 3), (Variant::I, 6)]
    );
    assert_eq!(g.lanes, vec![1, 2, 4, 8]);
    let pts = g.points();
    assert_eq!(pts.len(), 7 * 3 * 4);
    assert!(pts.iter().all(|p| p.threads == p.lanes.min(2)));
    // The global --threads N (N > 1) sets the workers too.
    let two = RunConfig {
        threads: 2,
        ..RunConfig::default()
    };
    assert_eq!(
        cli::grid(&Argon2Args::default(), &two).unwrap().threads,
        Some(2)
    );
    assert_eq!(
        cli::grid(&Argon2Args::default(), &cfg).unwrap().threads,
        None
    );
    let full = Grid::for_config(&RunConfig {
        full: true,
        ..RunConfig::default()
    });
    // Seed 000's cells (Tables 9 and 10) and RFC 9106's, 16 to 64 MiB, 1 to 8 lanes.
    assert_eq!(full.points().len(), 6 * 3 * 4);
    assert!(matches!(
        cli::grid(
            &Argon2Args {
                variants: Some("q".into()),
                ..Argon2Args::default()
            },
            &cfg
        ),
        Err(Error::Usage(_))
    ));
    assert!(matches!(
        cli::grid(
            &Argon2Args {
                workers: Some(0),
                ..Argon2Args::default()
            },
            &cfg
        ),
        Err(Error::Usage(_))
    ));
}

#[test]
fn the_plan_gives_every_cell_a_case_or_a_reason() {
    let cfg = RunConfig {
        seed: Some(1),
        ..RunConfig::quick()
    };
    let grid = Grid::quick();
    let planned = cases::plan(std::slice::from_ref(&grid), &cfg);
    // Four backends per point, plus the CLI's start-up case.
    assert_eq!(planned.len(), grid.points().len() * 4 + 1);
    for pc in &planned {
        if pc.spec.backend == LIBSODIUM {
            let lanes: u32 = pc.spec.params["p"].parse().unwrap();
            let t: u32 = pc.spec.params["t"].parse().unwrap();
            match &pc.setup {
                Setup::Unavailable(r) if lanes > 1 || pc.spec.primitive == "Argon2d" => {
                    assert!(r.starts_with("unsupported"), "{r}")
                }
                Setup::Skipped(r) if pc.spec.primitive == "Argon2i" && t < 3 => {
                    assert!(r.contains("t >= 3"), "{r}")
                }
                Setup::Ready(_) => assert!(lanes == 1 && pc.spec.primitive != "Argon2d"),
                _ => panic!("libsodium {:?}: unexpected setup", pc.spec.params),
            }
        }
    }
    // Backend filter.
    let only = RunConfig {
        backends: Some(vec!["libargon2".into()]),
        ..cfg
    };
    assert!(cases::plan(&[grid], &only)
        .iter()
        .all(|p| p.spec.backend == "libargon2"));
}

fn measured(
    backend: &str,
    variant: &str,
    m_kib: u32,
    t: u32,
    p: u32,
    op: &str,
    ms: f64,
) -> Measurement {
    let mut spec = cryptobench_core::CaseSpec::new("argon2", variant, backend, "x", op)
        .param("m_kib", m_kib)
        .param("t", t)
        .param("p", p)
        .param("threads", p);
    spec.input_bytes = u64::from(m_kib) * 1024 * u64::from(t);
    let mut m = spec.measurement(CaseStatus::Measured, None);
    m.stats = Some(Summary {
        median: ms * 1e6,
        ..Summary::default()
    });
    m
}

#[test]
fn summary_tables_show_ratios_and_speedups() {
    let ms = vec![
        measured(CLI, "Argon2id", 8, 1, 1, "startup", 1.0),
        measured(CLI, "Argon2id", 65536, 3, 1, "hash", 201.0),
        measured("libargon2", "Argon2id", 65536, 3, 1, "hash", 250.0),
        measured("rustcrypto", "Argon2id", 65536, 3, 1, "hash", 200.0),
        measured("rustcrypto", "Argon2id", 65536, 3, 2, "hash", 110.0),
    ];
    let tables = Argon2Suite::default().summarize(&ms);
    let ratio = tables
        .iter()
        .find(|t| t.title.starts_with("Library vs"))
        .expect("ratio table");
    let row = &ratio.rows[0];
    assert_eq!(row[6], "rustcrypto");
    assert_eq!(row[8], "1.00"); // 201 / 200
    assert_eq!(row[9], "1.00"); // (201 - 1) / 200
    let overview = &tables[0];
    let two_lanes = overview.rows.iter().find(|r| r[3] == "2").unwrap();
    assert_eq!(two_lanes.last().unwrap(), "1.82x"); // 200 / 110
                                                    // 64 MiB x 3 passes in 0.2 s = 960 MiB/s.
    let one_lane = overview.rows.iter().find(|r| r[3] == "1").unwrap();
    assert_eq!(one_lane[one_lane.len() - 2], "960");
    assert!(report::summarize(&[]).is_empty());
}

#[test]
fn the_paper_prints_published_and_measured_figures_with_verdicts() {
    let paper = papers().into_iter().next().unwrap();
    assert_eq!(paper.name(), "argon2");
    let ms: Vec<Measurement> = [1u32, 2]
        .iter()
        .flat_map(|&p| {
            [16u32, 32, 64].iter().flat_map(move |&mib| {
                let ms = f64::from(mib) * 3.0 / f64::from(p);
                [
                    measured("libargon2", "Argon2i", mib * 1024, 3, p, "hash", ms),
                    measured(CLI, "Argon2i", mib * 1024, 3, p, "hash", ms * 1.05),
                ]
            })
        })
        .collect();
    let tables = paper.render(&ms);
    assert_eq!(tables.len(), 2);
    assert_eq!(tables[0].rows.len(), 28);
    assert_eq!(tables[0].rows[0][2], "0.031"); // seed: 1 thread, 16 MB, Argon2d
    assert_eq!(tables[0].rows[0][5], "0.050"); // CLI, 16 MiB, t=3, 1 lane: 48 ms x 1.05
    let notes = tables[1].notes.join("\n");
    assert!(
        notes.contains("grows with the memory used\": holds here")
            && notes.contains("per doubling from 32 MiB up (the seed: about x2)"),
        "{notes}"
    );
    assert!(
        notes.contains("similar to the library's\": holds here"),
        "{notes}"
    );
    assert!(
        notes.contains("more threads cut the time\" (seed"),
        "{notes}"
    );
    assert!(notes.contains("holds here, x2.00 at 2 lanes"), "{notes}");
    assert!(
        notes.contains(
            "console times grow with threads (x0.8 at 2 threads, 1 GB Argon2d): differs here"
        ),
        "{notes}"
    );
    let cfg = RunConfig::quick();
    assert_eq!(paper.suites(&cfg).unwrap().len(), 2);
}

#[test]
fn bad_tune_input_is_a_usage_error_before_anything_is_measured() {
    use cryptobench_suite_argon2::cli::{command, Argon2Command, TuneArgs};
    let tune = |target: &str, max_memory: &str, lanes: &str, runs: usize| Argon2Args {
        action: Some(Argon2Command::Tune(TuneArgs {
            target: target.into(),
            max_memory: max_memory.into(),
            variant: "id".into(),
            lanes: lanes.into(),
            strict: false,
            runs,
            no_profiles: true,
        })),
        ..Argon2Args::default()
    };
    let cfg = RunConfig::default();
    let cases = [
        (tune("0ms", "1GiB", "auto", 5), "--target"),
        (tune("500ms", "1GiB", "many", 5), "--lanes"),
        (
            tune("500ms", "1GiB", "0", 5),
            "0 is out of range (accepted: 1 to 255)",
        ),
        (
            tune("500ms", "1GiB", "-1", 5),
            "-1 is out of range (accepted: 1 to 255)",
        ),
        (
            tune("1ns", "1GiB", "auto", 5),
            "1ns is below the shortest accepted, 1 ms",
        ),
        (
            tune("99999999999999999999s", "1GiB", "auto", 5),
            "longest accepted, 1 h",
        ),
        (tune("500ms", "1GiB", "auto", 1_000_000_000), "at most 100"),
        (tune("500ms", "16KiB", "4", 5), "8 KiB per lane"),
        (tune("500ms", "1GiB", "auto", 2), "at least 3"),
    ];
    for (args, rule) in cases {
        match command(&args, &cfg) {
            Err(Error::Usage(m)) => assert!(m.contains(rule), "{rule}: {m}"),
            Err(e) => panic!("{rule}: expected a usage error, got {e}"),
            Ok(_) => panic!("{rule}: expected a usage error, got success"),
        }
    }
}

#[test]
fn the_default_grid_stops_at_64_mib_and_full_sweeps_to_1_gib() {
    let default = Grid::for_config(&RunConfig::default());
    assert_eq!(default.memory_kib, vec![16 << 10, 64 << 10]);
    assert_eq!(default.points().len(), 3 * 2 * 2);
    assert_eq!(Grid::all_for_config(&RunConfig::default()), vec![default]);
    let full = RunConfig {
        full: true,
        ..RunConfig::default()
    };
    let grids = Grid::all_for_config(&full);
    let shared = &grids[0];
    assert_eq!(shared, &Grid::for_config(&full));
    assert_eq!(shared.memory_kib, vec![16 << 10, 32 << 10, 64 << 10]);
    assert!(shared.twinned && shared.backends.is_none());
    // Past 64 MiB: seed 000's own setup, to 1 GiB, without runtime twins.
    let beyond = &grids[1..];
    assert_eq!(beyond.len(), 2);
    for g in beyond {
        assert!(!g.twinned);
        assert_eq!(g.memory_kib.first(), Some(&(128 << 10)));
        assert_eq!(g.memory_kib.last(), Some(&(1 << 20)));
        assert_eq!(g.lanes, vec![1, 2, 4, 8]);
    }
    assert_eq!(beyond[0].backends, Some(vec![CLI.to_string()]));
    assert_eq!(beyond[0].cells, TABLE_9_CELLS.to_vec());
    assert_eq!(beyond[1].backends, Some(vec![LIBARGON2.to_string()]));
    assert!(TABLE_10_CELLS.iter().all(|c| beyond[1].cells.contains(c)));
    // One CLI start-up case, and the planned cells past 64 MiB say "no twins".
    let cfg = RunConfig {
        seed: Some(1),
        ..full
    };
    let planned = cases::plan(&grids, &cfg);
    let startups = planned.iter().filter(|c| c.spec.operation == "startup");
    assert_eq!(startups.count(), 1);
    for c in &planned {
        let big = c
            .spec
            .params
            .get("m_kib")
            .is_some_and(|m| m.parse::<u32>().unwrap() > 64 << 10);
        assert_eq!(c.spec.twinned, !big, "{:?}", c.spec.params);
    }
}

#[test]
fn full_reaches_1_gib_only_when_no_flag_names_the_grid() {
    let full = RunConfig {
        full: true,
        ..RunConfig::default()
    };
    let largest = |args: &Argon2Args| -> u64 {
        let cryptobench_core::SuiteAction::Bench(suites) = cli::command(args, &full).unwrap()
        else {
            panic!("a bench run")
        };
        suites[0]
            .plan(&full)
            .unwrap()
            .iter()
            .filter_map(|c| c.spec.params.get("m_kib")?.parse::<u64>().ok())
            .max()
            .unwrap()
    };
    assert_eq!(largest(&Argon2Args::default()), 1 << 20);
    // The shared sweep's memory, named: that grid alone, though it equals the default's.
    let named = Argon2Args {
        memory: Some("16MiB,32MiB,64MiB".into()),
        ..Argon2Args::default()
    };
    assert_eq!(cli::grid(&named, &full).unwrap(), Grid::for_config(&full));
    assert_eq!(largest(&named), 64 << 10);
}
