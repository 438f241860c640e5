//! The HTML report in a real browser: a quick hash run (twice, so the
//! baseline comparison is drawn too) is written as a report and opened in
//! headless Chromium.
//!
//! How the browser is checked, without any extra crate or WebDriver: the
//! page itself has no script, so the test writes a copy with one small probe
//! script at the top of `<head>`. The probe records every `error` event
//! (script errors and resources that fail to load), every `console.error`
//! and `console.warn`, and, on `load`, the rendered size of every
//! `svg.chart` and every resource the page fetched; it writes that as JSON
//! into a `<pre>` that `--dump-dom` prints, with the height of the default
//! view (every `<details>` closed) and, once every `<details>` is opened,
//! any table wider than its card. Chromium's own log
//! (`--enable-logging=stderr`) must show no console message either. The
//! untouched page is then screenshotted to `target/test-artifacts/`
//! (`report.png` beside `report.html`: the first screen at 1,400 x 1,000)
//! for people to look at. A second, synthetic page (`report-synthetic.*`) adds what a quick hash run lacks:
//! a suite's own line chart on log axes, peer ratios and a FAILED case.
//!
//! Chromium is required: install it with
//! `apt-get install -y chromium chromium-driver` (scripts/install-deps does).

use crate::common;

use common::{bin, quick_hash, report_page, temp_db, with_db, Outcome};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The Chromium binary, or a failure that says how to install it.
fn chromium() -> PathBuf {
    let candidates = [
        std::env::var_os("CHROMIUM").map(PathBuf::from),
        Some("/usr/bin/chromium".into()),
        Some("/usr/bin/chromium-browser".into()),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "headless Chromium is needed to test the HTML report and was not found \
                 (looked at $CHROMIUM, /usr/bin/chromium, /usr/bin/chromium-browser); \
                 install it with `apt-get install -y chromium chromium-driver` \
                 (scripts/install-deps does this)"
            )
        })
}

/// Runs Chromium headless on `url` with `extra` flags and a fresh profile;
/// returns (stdout, stderr). Fails the test after two minutes.
fn run_chromium(extra: &[String], url: &str) -> (String, String) {
    let profile = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    // Read both pipes on threads so a chatty browser never blocks on them.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).ok();
        s
    });
    let err_t = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut err, &mut s).ok();
        s
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            child.kill().ok();
            child.wait().ok();
            panic!("chromium did not finish within 2 minutes on {url}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let (stdout, stderr) = (out_t.join().unwrap(), err_t.join().unwrap());
    assert!(status.success(), "chromium failed ({status}): {stderr}");
    (stdout, stderr)
}

/// The probe inserted into the test copy only (see the module comment).
const PROBE: &str = r#"<script>
window.__cbErrors = [];
window.addEventListener('error', function (e) {
  var t = e.target && e.target !== window && e.target.outerHTML ? e.target.outerHTML : '';
  window.__cbErrors.push('error: ' + (e.message || t));
}, true);
['error', 'warn'].forEach(function (level) {
  var orig = console[level];
  console[level] = function () {
    window.__cbErrors.push('console.' + level + ': ' + Array.prototype.join.call(arguments, ' '));
    orig.apply(console, arguments);
  };
});
window.addEventListener('load', function () {
  // The default view first (long tables collapsed), then everything open:
  // no chart may stay unsized and no table may spill out of its card.
  var defaultHeight = document.documentElement.scrollHeight;
  Array.prototype.forEach.call(document.querySelectorAll('details'), function (d) { d.open = true; });
  var overflowing = [];
  Array.prototype.forEach.call(document.querySelectorAll('table'), function (t) {
    var card = t.closest('.card') || t.parentElement;
    var box = t.parentElement;
    var tr = t.getBoundingClientRect(), cr = card.getBoundingClientRect();
    if (tr.right > cr.right + 1 || t.scrollWidth > box.clientWidth + 1) {
      var th = t.querySelector('th');
      overflowing.push((th ? th.textContent : '?') + ': table right ' + Math.round(tr.right) +
                       ' > card right ' + Math.round(cr.right));
    }
  });
  var charts = Array.prototype.map.call(document.querySelectorAll('svg.chart'), function (s) {
    var b = s.getBoundingClientRect();
    return { title: s.getAttribute('aria-label'), width: b.width, height: b.height,
             bars: s.querySelectorAll('rect.bar').length,
             paths: s.querySelectorAll('path.series').length };
  });
  var pre = document.createElement('pre');
  pre.id = 'cb-probe';
  pre.textContent = JSON.stringify({
    charts: charts,
    defaultHeight: defaultHeight,
    pageWidth: document.documentElement.scrollWidth,
    overflowing: overflowing,
    errors: window.__cbErrors,
    resources: performance.getEntriesByType('resource').map(function (r) { return r.name; })
  });
  document.body.appendChild(pre);
});
</script>"#;

fn unescape_text(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

fn artifacts_dir() -> PathBuf {
    // target/<profile>/cryptobench -> target/test-artifacts
    let bin = assert_cmd::cargo::cargo_bin("cryptobench");
    let target = bin
        .parent()
        .and_then(Path::parent)
        .expect("binary under target/<profile>");
    let dir = target.join("test-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every hash algorithm and backend at two sizes, for pages with every
/// ranking chart.
fn quick_hash_run(db: &Path) {
    with_db(db)
        .args([
            "--quick",
            "--quiet",
            "hash",
            "--sizes",
            "64,1KiB",
            "--no-peer",
            "--backend",
            "openssl,rustcrypto",
        ])
        .assert()
        .success();
}

#[test]
fn report_renders_every_chart_in_headless_chromium() {
    // Fail first, with the install hint, when there is no browser.
    chromium();
    let (dir, db) = temp_db();
    quick_hash_run(&db);
    quick_hash_run(&db);
    let page = dir.path().join("r.html");
    let out = with_db(&db)
        .args(["report", "latest", "--baseline", "latest~1", "-o"])
        .arg(&page)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(
        String::from_utf8_lossy(&out).contains(&page.display().to_string()),
        "the path of the page is printed"
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("<script"),
        "the report itself needs no script"
    );
    let expected_charts = html.matches("<svg class=\"chart\"").count();
    // Two sizes -> at least two ranking charts, plus the comparison chart.
    assert!(expected_charts >= 3, "{expected_charts} charts");
    assert!(html.contains("id=\"comparison\""));

    let charts = check_in_browser(&html, dir.path(), "report");
    assert!(
        charts.iter().any(|c| c["bars"].as_u64().unwrap_or(0) > 0),
        "bars are drawn"
    );
}

/// The main job's own report: `run --quick` over every suite writes the
/// page; each suite's own charts, the recommendations and the seed
/// experiments are on it, and every chart renders in the browser.
#[test]
fn the_main_jobs_report_renders_every_suites_charts_in_headless_chromium() {
    chromium();
    let (dir, db) = temp_db();
    let page = dir.path().join("main.html");
    bin()
        .args(["--quick", "--quiet", "--db"])
        .arg(&db)
        // The page is under test, not the figures: loose, short sampling
        // (an explicit --time lifts the 60 s measuring limit) cuts the run
        // from about 130 s to 100 s.
        .args([
            "--precision",
            "0.2",
            "--samples",
            "3",
            "--min-sample",
            "1ms",
            "--time",
            "5ms",
        ])
        .args(["run", "--report"])
        .arg(&page)
        // Every library and one runtime: the runtimes' runners took most
        // of the run's 100 s (Node.js and Java warm up until their
        // compilers settle), and PHP alone puts runtime sections on the page.
        // Of the peers, the argon2 CLI only: each `openssl speed` sample
        // takes a second, and its groups took 30 s of an 80 s run.
        .args(["--backend", &libraries_and_php()])
        .assert()
        .code(predicates::prelude::predicate::in_iter([0, 1]));
    let html = std::fs::read_to_string(&page).unwrap();
    for title in [
        "Cipher ranking",
        "AEAD data rate",
        "AEAD operations per second",
        "seed 000 Fig. 1",
        "time vs memory per lane count",
        "EC-ElGamal",
    ] {
        assert!(html.contains(title), "no chart titled like {title:?}");
    }
    assert!(html.contains("<meta name=\"generator\" content=\"cryptobench\">"));
    for suite in ["hash", "cipher", "aead", "ecc", "argon2", "elgamal"] {
        assert!(
            html.contains(&format!("<section id=\"suite-{suite}\"")),
            "a realistic run measures every suite; {suite} is missing"
        );
    }
    // The answers come first: verdict banner and recommendations before any suite.
    let first_suite = html.find("<section id=\"suite-").unwrap();
    assert!(html.find("class=\"banner").unwrap() < first_suite);
    assert!(html.find("<section id=\"recommendations\"").unwrap() < first_suite);
    for section in ["recommendations", "papers", "peer-ratios"] {
        assert!(
            html.contains(&format!("<section id=\"{section}\"")),
            "no {section} section"
        );
    }
    let probe = probe_in_browser(&html, dir.path(), "report-main");
    assert!(
        probe.default_height <= MAX_DEFAULT_HEIGHT,
        "the default view is {} px tall at {VIEW_WIDTH} px wide (at most {MAX_DEFAULT_HEIGHT})",
        probe.default_height
    );
    assert!(
        probe.default_height > 2_000.0,
        "a report of six suites cannot be this short: {} px",
        probe.default_height
    );
    let charts = probe.charts;
    assert!(charts.len() >= 20, "{} charts", charts.len());
    assert!(
        charts.iter().any(|c| c["paths"].as_u64().unwrap_or(0) > 0),
        "line charts are drawn"
    );
}

/// Every backend `list backends` names but the `openssl speed` peer, and
/// of the runtimes only PHP, comma-separated for `--backend`.
fn libraries_and_php() -> String {
    let out = bin()
        .args(["--format", "json", "list", "backends"])
        .output()
        .unwrap();
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut names: Vec<&str> = list["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| match r["kind"].as_str() {
            Some("backend") => r["name"] != "peer:openssl-speed",
            Some("runtime") => r["name"] == "php",
            _ => false,
        })
        .filter_map(|r| r["name"].as_str())
        .collect();
    names.dedup();
    assert!(
        names.contains(&"php") && names.contains(&"openssl"),
        "{names:?}"
    );
    names.join(",")
}

/// Width of the browser window the report is checked at.
const VIEW_WIDTH: u32 = 1400;
/// Tallest default view (details closed) a report may have at that width:
/// about eighteen screens, read in a minute by skimming (seven suites: the
/// pubkey section with its handshake chart measured 15,370 px in all).
const MAX_DEFAULT_HEIGHT: f64 = 15_000.0;

/// What the probe saw of a page.
struct Probe {
    charts: Vec<serde_json::Value>,
    default_height: f64,
}

/// Opens a probed copy of `html` at 1,400 px wide (sizes, errors, network,
/// tables spilling out of their card, no horizontal scrolling), then
/// screenshots the page as users get it into target/test-artifacts/NAME.png
/// (the page itself beside it as NAME.html).
fn check_in_browser(html: &str, tmp: &Path, name: &str) -> Vec<serde_json::Value> {
    probe_in_browser(html, tmp, name).charts
}

fn probe_in_browser(html: &str, tmp: &Path, name: &str) -> Probe {
    assert!(
        !html.contains("<script"),
        "the report itself needs no script"
    );
    let expected_charts = html.matches("<svg class=\"chart\"").count();
    let probed = tmp.join(format!("{name}-probed.html"));
    std::fs::write(
        &probed,
        html.replacen("<head>", &format!("<head>\n{PROBE}"), 1),
    )
    .unwrap();
    let (dom, log) = run_chromium(
        &[
            "--dump-dom".to_string(),
            format!("--window-size={VIEW_WIDTH},1000"),
        ],
        &format!("file://{}", probed.display()),
    );
    let start = dom.find("<pre id=\"cb-probe\">").unwrap_or_else(|| {
        panic!(
            "the probe did not report; DOM tail: {}",
            &dom[dom.len().saturating_sub(500)..]
        )
    }) + "<pre id=\"cb-probe\">".len();
    let end = start + dom[start..].find("</pre>").unwrap();
    let probe: serde_json::Value = serde_json::from_str(&unescape_text(&dom[start..end])).unwrap();
    let charts = probe["charts"].as_array().unwrap().clone();
    assert_eq!(charts.len(), expected_charts, "every chart is in the DOM");
    for c in &charts {
        let (w, h) = (c["width"].as_f64().unwrap(), c["height"].as_f64().unwrap());
        assert!(w > 100.0 && h > 40.0, "chart rendered too small: {c}");
    }
    assert_eq!(probe["errors"], serde_json::json!([]), "page errors");
    assert_eq!(
        probe["overflowing"],
        serde_json::json!([]),
        "tables wider than their card"
    );
    assert!(
        probe["pageWidth"].as_f64().unwrap() <= f64::from(VIEW_WIDTH),
        "the page scrolls sideways: {}",
        probe["pageWidth"]
    );
    assert_eq!(
        probe["resources"],
        serde_json::json!([]),
        "the page fetched something"
    );
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:#?}");

    let artifacts = artifacts_dir();
    let page = artifacts.join(format!("{name}.html"));
    let png = artifacts.join(format!("{name}.png"));
    std::fs::remove_file(&png).ok();
    std::fs::write(&page, html).unwrap();
    run_chromium(
        &[
            format!("--screenshot={}", png.display()),
            format!("--window-size={VIEW_WIDTH},1000"),
        ],
        &format!("file://{}", page.display()),
    );
    let shot = std::fs::read(&png).expect("screenshot written");
    assert!(shot.starts_with(b"\x89PNG"), "a PNG");
    assert!(
        shot.len() > 20_000,
        "a blank page would be tiny: {} bytes",
        shot.len()
    );
    Probe {
        charts,
        default_height: probe["defaultHeight"].as_f64().unwrap(),
    }
}

/// A suite drawing its own line chart (log axes), as the Argon2 and
/// EC-ElGamal suites do, so that lines are checked in the browser too.
struct LineSuite;

impl cryptobench_core::Suite for LineSuite {
    fn profile(&self) -> cryptobench_core::SuiteProfile {
        use cryptobench_core::profile::no_view;
        let about = "Argon2id time against memory (synthetic figures)";
        cryptobench_core::SuiteProfile::new("argon2", about).views(no_view, no_view, line_chart)
    }
    fn backends(&self) -> Vec<cryptobench_core::BackendInfo> {
        vec![]
    }
    fn primitives(&self) -> Vec<String> {
        vec![]
    }
    fn plan(
        &self,
        _cfg: &cryptobench_core::RunConfig,
    ) -> Result<Vec<cryptobench_core::PlannedCase>, cryptobench_core::Error> {
        Ok(vec![])
    }
}

fn line_chart(ms: &[cryptobench_core::Measurement]) -> Vec<cryptobench_core::Chart> {
    use cryptobench_core::{Chart, Series};
    let mut c = Chart::log_lines(
        "Argon2id time vs memory per lane count",
        "memory (KiB)",
        "time per hash (ms)",
    );
    for lanes in ["1", "4"] {
        c.series.push(Series {
            name: format!("p={lanes}"),
            points: ms
                .iter()
                .filter(|m| m.param("p") == Some(lanes) && m.backend == "libargon2")
                .filter_map(|m| {
                    let kib: f64 = m.param("m")?.parse().ok()?;
                    Some((kib, m.median_ns()? / 1e6))
                })
                .collect(),
        });
    }
    vec![c]
}

#[test]
fn line_charts_peers_and_failures_render_in_headless_chromium() {
    use cryptobench_core::{
        CaseSpec, CaseStatus, Fingerprint, Measurement, Run, RunStatus, Summary,
    };
    chromium();
    let case = |backend: &str, m_kib: u64, p: u32, ms: f64| -> Measurement {
        let mut x = CaseSpec::new("argon2", "Argon2id", backend, "v", "hash")
            .param("m", m_kib)
            .param("t", 3)
            .param("p", p)
            .measurement(CaseStatus::Measured, None);
        let ns = ms * 1e6;
        x.samples_ns = vec![ns; 5];
        x.stats = Some(Summary {
            median: ns,
            ci95: [ns * 0.98, ns * 1.02],
            ops_per_s: 1e9 / ns,
            ..Default::default()
        });
        x
    };
    let mut ms = Vec::new();
    for (i, m_kib) in [1024u64, 4096, 16384, 65536, 262144]
        .into_iter()
        .enumerate()
    {
        let base = 1.3 * 4f64.powi(i as i32);
        ms.push(case("libargon2", m_kib, 1, base));
        ms.push(case("libargon2", m_kib, 4, base / 3.0));
        ms.push(case("rustcrypto", m_kib, 1, base * 1.2));
    }
    ms.push(case("peer:argon2-cli", 65536, 1, 1.3 * 256.0 * 1.1));
    let mut runtime_row = case("python", 65536, 1, 1.3 * 256.0 * 1.05);
    runtime_row.params.insert(
        cryptobench_core::advice::RUNTIME_PARAM.into(),
        "python".into(),
    );
    ms.push(runtime_row);
    ms.push(
        CaseSpec::new("argon2", "Argon2d", "rustcrypto", "v", "hash")
            .param("m", 1024)
            .measurement(
                CaseStatus::Failed,
                Some("RFC 9106 section 5.1 vector: tag mismatch".into()),
            ),
    );
    let run = Run {
        started_at: "2026-11-22T04:00:00Z".into(),
        finished_at: Some("2026-11-22T04:01:00Z".into()),
        status: RunStatus::Failed,
        command: vec!["cryptobench".into(), "argon2".into()],
        machine: Fingerprint {
            hostname: "synthetic".into(),
            cpu_model: "synthetic CPU".into(),
            cores: 2,
            ..Default::default()
        },
        ..Run::new("20261122-040000-line", ms)
    };
    let suites: Vec<Box<dyn cryptobench_core::Suite>> = vec![Box::new(LineSuite)];
    let html = cryptobench_report::html::render_html(&run, &suites, None);
    assert!(html.contains("id=\"peer-ratios\""));
    assert!(html.contains("RFC 9106 section 5.1 vector: tag mismatch"));
    let dir = tempfile::tempdir().unwrap();
    let charts = check_in_browser(&html, dir.path(), "report-synthetic");
    assert!(
        charts
            .iter()
            .any(|c| c["title"] == "Argon2id time vs memory per lane count" && c["paths"] == 2),
        "both lines drawn: {charts:?}"
    );
}

#[test]
fn report_bad_input_exits_2() {
    let (dir, db) = temp_db();
    quick_hash(&db).assert().success();
    // Unwritable output path: the error names it.
    let bad = dir.path().join("no-such-dir").join("r.html");
    with_db(&db)
        .args(["report", "latest", "--out"])
        .arg(&bad)
        .usage_error(&bad.display().to_string());
    // Unknown run id and baseline, and an export format where a page is wanted.
    let refused: [(&[&str], &str); 3] = [
        (&["report", "20991231-000000-dead"], "20991231-000000-dead"),
        (&["report", "latest", "--baseline", "nope"], "nope"),
        (&["report", "latest", "-o", "json:x.json"], "json"),
    ];
    for (args, says) in refused {
        with_db(&db).args(args).usage_error(says);
    }
}

/// Runs stored as they are left by Ctrl-C (nothing measured) and by a
/// failed check still give a page that says so.
#[test]
fn report_on_empty_interrupted_and_failed_runs() {
    use cryptobench_core::{CaseSpec, CaseStatus, Run, RunStatus};
    let (dir, db) = temp_db();
    let store = cryptobench_store::Store::open(&db).unwrap();
    let run = |id: &str, status: RunStatus| Run {
        started_at: "2026-11-22T03:00:00Z".into(),
        status,
        command: vec!["cryptobench".into(), "run".into()],
        ..Run::new(id, vec![])
    };
    store
        .begin_run(&run("20261122-030000-0001", RunStatus::Interrupted))
        .unwrap();
    let mut failed = run("20261122-030000-0002", RunStatus::Failed);
    failed.measurements.push(
        CaseSpec::new("aead", "AES-128-GCM", "openssl", "v", "encrypt")
            .size(1024)
            .measurement(
                CaseStatus::Failed,
                Some("tamper check: a modified tag was accepted".into()),
            ),
    );
    store.begin_run(&failed).unwrap();
    drop(store);
    for (id, expect) in [
        ("20261122-030000-0001", "This run has no measurements"),
        ("20261122-030000-0001", "was interrupted"),
        ("20261122-030000-0002", "a modified tag was accepted"),
        ("20261122-030000-0002", "1 case(s) FAILED"),
    ] {
        let html = report_page(&db, id, dir.path());
        assert!(html.contains(expect), "{id}: {expect}");
        assert!(html.trim_end().ends_with("</html>"));
    }
}
