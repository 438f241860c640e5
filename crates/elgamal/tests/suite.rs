//! The suite's plan, its cases' checks, its tables and the paper, on tiny
//! grids (timing itself is the engine's business and is not tested here).

use cryptobench_core::{
    CaseSpec, CaseStatus, CheckOutcome, Measurement, RunConfig, Setup, Suite, SuiteAction, Summary,
};
use cryptobench_elgamal::cli::{self, BenchArgs, ElgamalArgs, ElgamalCommand};
use cryptobench_elgamal::curve::Curve;
use cryptobench_elgamal::encoding::Encoding;
use cryptobench_elgamal::executor::ExecutorSpec;
use cryptobench_elgamal::suite::{ElgamalSuite, Grid};
use cryptobench_elgamal::{papers, summary};

fn tiny(curves: Vec<Curve>) -> ElgamalSuite {
    ElgamalSuite::new(Grid {
        curves: Some(curves),
        encodings: Some(vec![Encoding::Char, Encoding::Packed]),
        lengths: Some(vec![40]),
        executors: Some(vec![ExecutorSpec::Serial, ExecutorSpec::Threads(3)]),
        ariths: None,
        peer: Some(false),
    })
}

#[test]
fn plans_every_cell_with_labels_and_params() {
    let suite = tiny(vec![Curve::Toy64, Curve::P256]);
    let plan = suite.plan(&RunConfig::quick()).unwrap();
    // 2 curves x 2 encodings x 1 length x 2 executors x 2 operations.
    assert_eq!(plan.len(), 16);
    for p in &plan {
        assert_eq!(p.spec.suite, "elgamal");
        assert_eq!(
            p.spec.threads, 1,
            "workers are a parameter, not the runner's threads"
        );
        assert_eq!(p.spec.input_bytes, 40);
        assert!(p.spec.params.contains_key("threads"));
        assert!(p.spec.labels.iter().any(|l| l.contains("malleable")));
        if p.spec.primitive == "toy64" {
            assert!(p.spec.labels.iter().any(|l| l.contains("breakable")));
            assert_eq!(p.spec.backend, "native");
        }
    }
    // An arithmetic that cannot run a curve is planned as unavailable, with the reason.
    let mut g = tiny(vec![Curve::Toy64]).grid;
    g.ariths = Some(vec![cryptobench_elgamal::arith::parse("openssl").unwrap()]);
    let plan = ElgamalSuite::new(g).plan(&RunConfig::quick()).unwrap();
    assert!(plan
        .iter()
        .all(|p| matches!(&p.setup, Setup::Unavailable(r) if r.contains("64-bit"))));
}

#[test]
fn cases_pass_their_checks_and_run() {
    let suite = tiny(vec![Curve::Toy64, Curve::Secp256k1]);
    for p in suite.plan(&RunConfig::quick()).unwrap() {
        let Setup::Ready(factory) = &p.setup else {
            panic!("{:?} not ready", p.spec)
        };
        let mut case = factory().unwrap();
        let checks = case.checks();
        assert!(checks.iter().any(|c| c.name == "roundtrip"));
        assert!(checks.iter().any(|c| c.name == "encoding-table"));
        for c in &checks {
            assert_eq!(c.outcome, CheckOutcome::Pass, "{:?}: {}", c.name, c.detail);
        }
        case.prepare_batch(2).unwrap();
        case.run_batch(2).unwrap();
        case.prepare_batch(1).unwrap();
    }
}

fn measured(
    curve: &str,
    op: &str,
    enc: &str,
    mode: &str,
    threads: usize,
    len: u64,
    ns: f64,
) -> Measurement {
    let spec = CaseSpec::new("elgamal", curve, "openssl", "v", op)
        .size(len)
        .param("encoding", enc)
        .param("mode", mode)
        .param("threads", threads);
    let mut m = spec.measurement(CaseStatus::Measured, None);
    m.stats = Some(Summary {
        median: ns,
        ops_per_s: 1e9 / ns,
        ..Summary::default()
    });
    m
}

#[test]
fn summary_computes_throughput_speedup_and_targets() {
    let mut ms = vec![
        measured("P-256", "decrypt", "char", "serial", 1, 65536, 2e9),
        measured("P-256", "decrypt", "char", "threads", 2, 65536, 1e9),
        measured("P-256", "encrypt", "char", "serial", 1, 65536, 1e9),
        measured("P-256", "encrypt", "char", "threads", 2, 65536, 0.625e9),
    ];
    let mut peer = CaseSpec::new("elgamal", "P-256", "peer:openssl-speed", "v", "derive")
        .measurement(CaseStatus::Measured, None);
    peer.stats = Some(Summary {
        median: 50_000.0,
        ops_per_s: 20_000.0,
        ..Summary::default()
    });
    ms.push(peer);
    let cells = summary::cells(&ms);
    assert_eq!(cells.len(), 4, "the peer is not an elgamal cell");
    assert_eq!(
        summary::find(&cells, "P-256", "char", "decrypt", 65536, "serial", 1),
        Some(32768.0)
    );
    let sp = summary::speedups(&cells);
    let dec = &sp[&(
        "P-256".into(),
        "openssl".into(),
        "char".into(),
        "decrypt".into(),
    )];
    assert!((dec[&65536][&2] - 2.0).abs() < 1e-9);
    let tables = summary::tables(&ms);
    let targets = tables.iter().find(|t| t.title.contains("targets")).unwrap();
    let text = format!("{:?}", targets.rows);
    // 32768 chars/s vs 20000 ops/s = 1.64x: met; encrypt speedup 1.6: missed.
    assert!(text.contains("1.64x"), "{text}");
    assert!(text.contains("MISSED"), "{text}");
}

#[test]
fn the_paper_renders_published_beside_measured() {
    let p = papers();
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].name(), "ecelgamal-parallel");
    let suites = p[0].suites(&RunConfig::quick()).unwrap();
    assert_eq!(suites.len(), 1);
    let ms = vec![
        measured("toy64", "encrypt", "char", "serial", 1, 1024, 2e6),
        measured("toy64", "encrypt", "char", "threads", 2, 1024, 1.1e6),
    ];
    let tables = p[0].render(&ms);
    let first = &tables[0];
    assert!(first.title.contains("Table V"));
    // Seed value and ours side by side: 1.68 (published) | 1.82 (2e6 / 1.1e6).
    assert_eq!(first.rows[0][1], "1.68 | 1.82");
    assert!(first
        .notes
        .iter()
        .any(|n| n.contains("holds here") || n.contains("differs here")));
}

#[test]
fn bench_flags_build_the_grid_and_reject_bad_names() {
    let b = BenchArgs {
        curve: Some("toy64,p256".into()),
        encoding: Some("char,packed".into()),
        lengths: Some("1024,4KiB".into()),
        mode: Some("serial,threads".into()),
        workers: Some("2,4,10,100,1000".into()),
        arith: None,
    };
    let g = cli::grid(&b, &RunConfig::default()).unwrap();
    assert_eq!(g.curves, Some(vec![Curve::Toy64, Curve::P256]));
    assert_eq!(g.lengths, Some(vec![1024, 4096]));
    assert_eq!(g.executors.as_ref().map(Vec::len), Some(6));
    let bad = BenchArgs {
        curve: Some("P-265".into()),
        ..Default::default()
    };
    let e = cli::grid(&bad, &RunConfig::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("did you mean P-256"), "{e}");
    let bad = BenchArgs {
        workers: Some("0".into()),
        ..Default::default()
    };
    assert!(cli::grid(&bad, &RunConfig::default()).is_err());
    // `--threads LIST` and `-o PATH` handed over from the binary's globals.
    let mut args = ElgamalArgs::default();
    let mut outputs = vec![];
    let mut threads = Some("2,4".to_string());
    args.adopt_globals(&mut outputs, &mut threads);
    assert_eq!(args.bench.workers.as_deref(), Some("2,4"));
    assert!(threads.is_none());
    let mut args = ElgamalArgs {
        command: Some(ElgamalCommand::Keygen(cli::KeygenArgs {
            curve: "toy64".into(),
            out: None,
            path: None,
            public: None,
            force: false,
        })),
        ..Default::default()
    };
    let mut outputs = vec!["key.json".to_string()];
    args.adopt_globals(&mut outputs, &mut None);
    assert!(outputs.is_empty());
    // No subcommand: the benchmark.
    let action = cli::command(&ElgamalArgs::default(), &RunConfig::quick()).unwrap();
    assert!(matches!(action, SuiteAction::Bench(ref s) if s.len() == 1));
}

#[test]
fn the_default_run_takes_the_two_shortest_seed_lengths_and_full_all_five() {
    use cryptobench_elgamal::suite::{Grid, DEFAULT_LENGTHS, SEED_LENGTHS};
    let lengths = |cfg: &cryptobench_core::RunConfig| Grid::default().resolved(cfg).lengths;
    let default = cryptobench_core::RunConfig::default();
    assert_eq!(lengths(&default), Some(DEFAULT_LENGTHS.to_vec()));
    assert_eq!(&DEFAULT_LENGTHS[..], &SEED_LENGTHS[..2]);
    let full = cryptobench_core::RunConfig {
        full: true,
        ..cryptobench_core::RunConfig::default()
    };
    assert_eq!(lengths(&full), Some(SEED_LENGTHS.to_vec()));
    // secp256k1 when named: by default every run sweeps the seed's toy curve and P-256.
    let curves = |cfg: &cryptobench_core::RunConfig| Grid::default().resolved(cfg).curves;
    let seed_curves = Some(vec![Curve::Toy64, Curve::P256]);
    assert_eq!(curves(&full), seed_curves);
    assert_eq!(curves(&default), seed_curves);
    let named = Grid {
        curves: Some(vec![Curve::Secp256k1]),
        ..Grid::default()
    };
    assert_eq!(named.resolved(&full).curves, Some(vec![Curve::Secp256k1]));
}
