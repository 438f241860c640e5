//! Runs across machines and every table in every format: two databases
//! stand for two hosts (the exported file is given the other host's name,
//! as if written there), a run is exported on one, imported on the other,
//! compared and reported side by side.

use crate::common;

use common::{bin, db_with_runs, latest_run, quick_hash, stdout, temp_db, with_db, Outcome};
use std::path::Path;

/// The run of `db`'s latest as JSON, with the host renamed to `host`.
fn export_as(db: &Path, host: &str, to: &Path) -> serde_json::Value {
    let mut run = latest_run(db);
    run["machine"]["hostname"] = host.into();
    std::fs::write(to, serde_json::to_vec_pretty(&run).unwrap()).unwrap();
    run
}

fn median(run: &serde_json::Value, backend: &str, size: u64) -> f64 {
    run["measurements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["backend"] == backend && m["input_bytes"] == size && m["status"] == "measured")
        .and_then(|m| m["stats"]["median"].as_f64())
        .unwrap()
}

#[test]
fn a_run_exported_on_one_host_is_imported_compared_and_reported_on_another() {
    let dir = tempfile::tempdir().unwrap();
    let (db_alpha, db_beta) = (dir.path().join("alpha.db"), dir.path().join("beta.db"));
    quick_hash(&db_alpha).assert().success();
    quick_hash(&db_beta).assert().success();
    let file = dir.path().join("alpha.json");
    let alpha = export_as(&db_alpha, "alpha", &file);
    let alpha_id = alpha["id"].as_str().unwrap().to_string();
    let beta = export_as(&db_beta, "beta", &dir.path().join("beta.json"));

    // A file compares without importing; `latest` is beta's own run.
    let csv = stdout(
        &db_beta,
        &[
            "--format",
            "csv",
            "compare",
            file.to_str().unwrap(),
            "latest",
        ],
    );
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    let col = |name: &str| rows[0].iter().position(|h| *h == name).unwrap();
    let (machine, ratio, backend, size) =
        (col("machine"), col("ratio"), col("backend"), col("size"));
    let base = rows
        .iter()
        .find(|r| r[machine] == "alpha" && r[backend] == "openssl" && r[size] == "1 KiB")
        .expect("alpha's row");
    assert_eq!(base[ratio], "baseline");
    // beta's own database still records its real host; its row's ratio is
    // its median over alpha's.
    let other = rows
        .iter()
        .find(|r| r[machine] != "alpha" && r[backend] == "openssl" && r[size] == "1 KiB")
        .expect("the other machine's row");
    let want = median(&beta, "openssl", 1024) / median(&alpha, "openssl", 1024);
    let got: f64 = other[ratio].parse().unwrap();
    assert!(
        (got - want).abs() < 0.002,
        "ratio {got}, medians give {want}"
    );

    // Import keeps id and host; twice is a no-op that says so.
    let import = || with_db(&db_beta).arg("import").arg(&file).checked_stdout();
    let first = import();
    assert!(
        first.contains(&format!("imported run {alpha_id} (host alpha")),
        "{first}"
    );
    let again = import();
    assert!(
        again.contains("already stored") && again.contains("nothing changed"),
        "{again}"
    );
    let runs: serde_json::Value =
        serde_json::from_str(&stdout(&db_beta, &["--format", "json", "runs"])).unwrap();
    let listed = runs["rows"].as_array().unwrap();
    assert_eq!(listed.len(), 2);
    assert!(listed
        .iter()
        .any(|r| r["id"] == alpha_id.as_str() && r["host"] == "alpha"));

    // The side-by-side table with the imported run as the baseline.
    let table = stdout(&db_beta, &["compare", "latest", "--baseline", &alpha_id]);
    assert!(table.contains("Machines side by side"), "{table}");
    assert!(table.contains("alpha (baseline)"), "{table}");
    assert!(
        table.contains("times the baseline's time overall"),
        "{table}"
    );

    // The report puts both machines on one page, ratios to alpha.
    let page = dir.path().join("r.html");
    with_db(&db_beta)
        .args(["report", "latest", "--baseline", &alpha_id, "--out"])
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<section id=\"machines\">"),
        "no machines section"
    );
    assert!(html.contains("baseline alpha"), "baseline not named");
    assert!(html.contains("<td>alpha</td>"), "no alpha row");

    // The CSV export names the run and host on every row.
    let csv = stdout(&db_beta, &["--format", "csv", "export", &alpha_id]);
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().starts_with("run_id,host,suite,"));
    assert!(lines.all(|l| l.starts_with(&format!("{alpha_id},alpha,"))));
}

#[test]
fn a_file_that_is_not_a_run_is_refused_with_exit_2_and_nothing_is_imported() {
    let (dir, db) = db_with_runs(1);
    let good = dir.path().join("good.json");
    export_as(&db, "alpha", &good);
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"name\": \"something else\"}").unwrap();
    let other = tempfile::tempdir().unwrap();
    let target = other.path().join("t.db");
    with_db(&target)
        .arg("import")
        .arg(&good)
        .arg(&bad)
        .usage_error("bad.json is not a cryptobench run");
    assert!(!target.exists(), "a refused import created the database");
    with_db(&db)
        .args(["compare", "latest"])
        .arg(&bad)
        .assert()
        .code(2);
}

#[test]
fn tables_honour_every_format_and_show_filters_by_suite() {
    let (_dir, db) = db_with_runs(2);
    let out = bin()
        .args(["--format", "json", "list", "backends"])
        .checked_stdout();
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    // The first registered runtime stands for the runtime rows.
    for expected in [
        "openssl",
        cryptobench_runtime::php::NAME,
        "serial",
        "threads",
        "mpi",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    let csv = stdout(&db, &["--format", "csv", "runs"]);
    assert!(
        csv.starts_with("id,started,status,cases,failed,suites,host,command\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 3);
    let md = stdout(&db, &["--format", "md", "compare", "latest~1", "latest"]);
    assert!(md.starts_with("### Compare"), "{md}");
    assert!(md.contains("| suite | primitive |"), "{md}");
    let cmp: serde_json::Value = serde_json::from_str(&stdout(
        &db,
        &[
            "--format",
            "json",
            "compare",
            "latest~1",
            "latest",
            "--backend",
            "openssl",
        ],
    ))
    .unwrap();
    let rows = cmp["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "two openssl sizes");
    assert!(rows.iter().all(|r| r["backend"] == "openssl"));
    bin()
        .args(["--format", "csv", "list"])
        .usage_error("list backends");
    let rec: serde_json::Value =
        serde_json::from_str(&stdout(&db, &["--format", "json", "recommend"])).unwrap();
    assert!(rec["recommendations"].is_array(), "{rec}");
    // `--suite` keeps only that suite's cases; an unknown one is refused.
    let shown = stdout(
        &db,
        &["--format", "csv", "show", "latest", "--suite", "hash"],
    );
    assert!(
        shown.lines().skip(1).all(|l| l.contains(",hash,")),
        "{shown}"
    );
    // A suite the run did not measure is a question with no answer.
    with_db(&db)
        .args(["--format", "csv", "show", "latest", "--suite", "aead"])
        .usage_error("matches the filter");
    with_db(&db)
        .args(["show", "latest", "--suite", "hsah"])
        .usage_error("hash");
}

#[test]
fn no_line_of_list_is_wider_than_120_columns() {
    let text = bin().env("COLUMNS", "120").arg("list").checked_stdout();
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 120, "a line of {widest} columns");
    assert!(
        text.contains("mpi") && text.contains(cryptobench_runtime::php::NAME),
        "{text}"
    );
}

#[test]
fn the_hint_keeps_db_and_latest_is_the_newest_run_not_a_later_suite_command() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("my runs.db");
    let text = with_db(&db)
        .args(["--quick", "--precision", "0.1"])
        .args(["run", "--suite", "hash", "--no-report"])
        .args(["--backend", "openssl,rustcrypto"])
        .checked_stdout();
    let hint = text
        .lines()
        .find(|l| l.starts_with("every case:"))
        .expect("the hint");
    assert!(
        hint.contains(&format!("--db '{}' show ", db.display())),
        "{hint}"
    );
    let run_id = hint
        .rsplit(' ')
        .next()
        .unwrap()
        .trim_matches('`')
        .to_string();
    quick_hash(&db).assert().success();
    let shown = with_db(&db)
        .args(["--format", "json", "show", "latest"])
        .output()
        .unwrap();
    let run: serde_json::Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(run["id"], run_id.as_str(), "latest is the `run`");
    let note = String::from_utf8_lossy(&shown.stderr);
    assert!(note.contains("latest-any"), "{note}");
    let any = stdout(&db, &["--format", "json", "show", "latest-any"]);
    let any: serde_json::Value = serde_json::from_str(&any).unwrap();
    assert_ne!(any["id"], run_id.as_str());
}

#[test]
fn help_shows_each_command_its_own_options_and_one_spelling() {
    let help = |args: &[&str]| bin().args(args).checked_stdout();
    let compare = help(&["compare", "--help"]);
    assert!(
        !compare.contains("--quick") && !compare.contains("--no-db"),
        "{compare}"
    );
    assert!(!compare.contains("Measurement options"), "{compare}");
    assert!(
        compare.contains("--backend") && compare.contains("--suite"),
        "{compare}"
    );
    let hash = help(&["hash", "--help"]);
    assert!(hash.contains("--no-peers") && hash.contains("Measurement options"));
    assert!(!hash.contains("--no-peer "), "the old spelling is hidden");
    let ecc = help(&["ecc", "--help"]);
    assert!(
        ecc.contains("--list ") && !ecc.contains("--list-curves"),
        "{ecc}"
    );
    // The old spellings still work.
    assert!(help(&["ecc", "--list-curves"]).contains("secp256k1"));
    assert!(help(&["ecc", "--list"]).contains("secp256k1"));
}

#[test]
fn show_of_one_suite_fits_100_columns() {
    let (_dir, db) = temp_db();
    with_db(&db)
        .args(["--quick", "--precision", "0.1"])
        .args(["aead", "--algorithms", "AES-256-GCM,ChaCha20-Poly1305"])
        .args(["--sizes", "64,16KiB", "--no-peers"])
        // One runtime is enough for a runtime's longer row names.
        .args(["--backend", "openssl,libsodium,rustcrypto,php"])
        .assert()
        .success();
    let text = with_db(&db)
        .env("COLUMNS", "100")
        .args(["show", "latest", "--suite", "aead"])
        .checked_stdout();
    assert!(text.contains("AES-256-GCM"), "{text}");
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 100, "a line of {widest} columns:\n{text}");
    // The Markdown export opens with the summary and the advice.
    let md = stdout(&db, &["--format", "md", "export", "latest"]);
    let (summary, advice, suite) = (
        md.find("\n## Summary\n").expect("summary"),
        md.find("\n## Recommendations\n").expect("recommendations"),
        md.find("\n## aead\n").expect("the suite's table"),
    );
    assert!(summary < advice && advice < suite, "{md}");
    assert!(md[advice..suite].contains("- **AEAD"), "{md}");
    assert!(
        md[advice..suite].lines().all(|l| !l.starts_with('|')),
        "advice with several lines of evidence is a list, not a broken table"
    );
}
