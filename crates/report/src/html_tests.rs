//! Tests of the HTML report: states of a run, failed cases, peers,
//! baseline comparison, and that nothing on the page reaches the network.

use super::*;
use cryptobench_core::profile::no_view;
use cryptobench_core::{
    BackendInfo, CaseSpec, CheckResult, Error, Fingerprint, PlannedCase, RunConfig, SuiteProfile,
    Summary,
};

fn measured(primitive: &str, backend: &str, bytes: u64, samples: &[f64]) -> Measurement {
    let mut m = CaseSpec::new("hash", primitive, backend, "v1", "digest")
        .size(bytes)
        .measurement(CaseStatus::Measured, None);
    m.samples_ns = samples.to_vec();
    let median = samples[samples.len() / 2];
    m.stats = Some(Summary {
        median,
        ci95: [median * 0.99, median * 1.01],
        ops_per_s: 1e9 / median,
        bytes_per_s: Some(bytes as f64 * 1e9 / median),
        ..Default::default()
    });
    m
}

fn run(id: &str, status: RunStatus, ms: Vec<Measurement>) -> Run {
    Run {
        started_at: "2026-11-22T03:00:00Z".into(),
        finished_at: Some("2026-11-22T03:01:00Z".into()),
        status,
        command: vec!["cryptobench".into(), "hash".into()],
        machine: Fingerprint {
            hostname: "lab-host".into(),
            cpu_model: "Test CPU <x86>".into(),
            cores: 2,
            cpu_flags: vec!["aes".into(), "avx2".into()],
            ..Default::default()
        },
        ..Run::new(id, ms)
    }
}

/// Asserts that `html` contains every one of `parts`.
fn shows(html: &str, parts: &[&str]) {
    for part in parts {
        assert!(html.contains(part), "{part:?} is not in the page");
    }
}

fn well_formed(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
    assert_eq!(html.matches("<svg").count(), html.matches("</svg>").count());
    assert_eq!(
        html.matches("<table").count(),
        html.matches("</table>").count()
    );
    assert_eq!(
        html.matches("<section").count(),
        html.matches("</section>").count()
    );
}

fn self_contained(html: &str) {
    for bad in [
        "<script",
        "<link",
        "<img",
        "src=",
        "url(",
        "@import",
        "href=\"http",
    ] {
        assert!(!html.contains(bad), "page must not load anything: {bad}");
    }
}

#[test]
fn complete_run_has_fingerprint_one_chart_per_size_and_labels() {
    let mut md5 = measured("MD5", "openssl", 64, &[50.0; 5]);
    md5.labels
        .push("insecure: broken collision resistance".into());
    let ms = vec![
        measured("SHA-256", "openssl", 64, &[100.0; 5]),
        measured("SHA-256", "rustcrypto", 64, &[120.0; 5]),
        md5,
        measured("SHA-256", "openssl", 1024, &[900.0; 5]),
    ];
    let html = render_html(&run("r1", RunStatus::Complete, ms), &[], None);
    well_formed(&html);
    self_contained(&html);
    shows(
        &html,
        &[
            "Test CPU &lt;x86&gt; (2 logical cores)",
            "aes avx2",
            "id=\"suite-hash\"",
        ],
    );
    // Two sizes of one operation: two ranking charts.
    assert_eq!(html.matches("<svg class=\"chart\"").count(), 2);
    shows(
        &html,
        &[
            "hash: digest, 64 B per operation",
            "hash: digest, 1 KiB per operation",
            "class=\"label caution\">insecure: broken collision resistance",
        ],
    );
    // SHA-256 carries no caveat, so it is the marked (shaded) category.
    shows(&html, &["class=\"marked\"", "Every measured case passed"]);
    assert!(!html.contains("id=\"failed-run\""));
}

#[test]
fn failed_case_is_red_with_its_reason() {
    let mut bad = CaseSpec::new("hash", "SHA-512", "rustcrypto", "v1", "digest")
        .size(64)
        .measurement(
            CaseStatus::Failed,
            Some("known answer mismatch <FIPS 180-4 \"abc\">".into()),
        );
    bad.checks.push(CheckResult::fail("kat:abc", "got 00ff"));
    let skipped = CaseSpec::new("hash", "SHA3-256", "mcrypt", "v1", "digest")
        .size(64)
        .measurement(
            CaseStatus::Unavailable,
            Some("libmcrypt has no SHA-3".into()),
        );
    let ms = vec![
        measured("SHA-256", "openssl", 64, &[100.0; 5]),
        bad,
        skipped,
    ];
    let html = render_html(&run("r2", RunStatus::Failed, ms), &[], None);
    well_formed(&html);
    shows(&html, &["id=\"failed-run\"", "1 case(s) FAILED"]);
    let reason = "known answer mismatch &lt;FIPS 180-4 &quot;abc&quot;&gt;";
    assert!(html.contains(&format!(
        "<li class=\"failed\">hash SHA-512 rustcrypto digest (64 B): {reason}</li>"
    )));
    let row = html
        .split("<tr class=\"row-failed\">")
        .nth(1)
        .expect("a red row");
    let row = &row[..row.find("</tr>").unwrap()];
    assert!(
        row.contains("<td class=\"failed\">FAILED: known answer mismatch"),
        "{row}"
    );
    assert!(row.contains("check kat:abc: got 00ff"));
    assert!(html.contains("<td class=\"skipped\">unavailable: libmcrypt has no SHA-3</td>"));
    // The CSS makes `.failed` red.
    assert!(html.contains(".failed, td.failed { color: #c01616"));
    // Failed and unavailable cases are in the table, never in the chart.
    assert_eq!(html.matches("class=\"bar\"").count(), 1);
}

#[test]
fn empty_and_interrupted_runs_say_so() {
    let empty = render_html(&run("r3", RunStatus::Complete, vec![]), &[], None);
    well_formed(&empty);
    shows(
        &empty,
        &["id=\"empty-run\"", "This run has no measurements"],
    );
    assert!(!empty.contains("<svg"));
    let empty_interrupted = render_html(&run("r4", RunStatus::Interrupted, vec![]), &[], None);
    shows(
        &empty_interrupted,
        &["id=\"interrupted-run\"", "id=\"empty-run\""],
    );
    let part = vec![measured("SHA-256", "openssl", 64, &[100.0; 5])];
    let interrupted = render_html(&run("r5", RunStatus::Interrupted, part.clone()), &[], None);
    well_formed(&interrupted);
    assert!(interrupted.contains("was interrupted before every case was attempted"));
    assert!(!interrupted.contains("Every measured case passed"));
    let running = render_html(&run("r6", RunStatus::Running, part), &[], None);
    assert!(running.contains("id=\"running-run\""));
}

#[test]
fn baseline_adds_the_comparison_with_ratios_and_verdicts() {
    let fast: Vec<f64> = (0..20).map(|i| 100.0 + (i % 3) as f64).collect();
    let slow: Vec<f64> = fast.iter().map(|x| x * 1.25).collect();
    let hashes = |id: &str, sha256: &[f64]| {
        let ms = vec![
            measured("SHA-256", "openssl", 64, sha256),
            measured("SHA-512", "openssl", 64, &fast),
        ];
        run(id, RunStatus::Complete, ms)
    };
    let (base, cand) = (hashes("base", &fast), hashes("cand", &slow));
    let html = render_html(&cand, &[], Some(&base));
    well_formed(&html);
    shows(
        &html,
        &[
            "id=\"comparison\"",
            "<strong>1</strong> changed, <strong>1</strong> unchanged, <strong>0</strong> inconclusive of 2",
            "<td class=\"verdict-slower\">SLOWER</td>",
            "<td>unchanged</td>",
            "2 case(s) compared: 2 decided (100%: 1 unchanged, 1 changed",
        ],
    );
    // A ratio near 1.25 with its interval.
    assert!(
        html.contains(">1.250<") || html.contains(">1.24"),
        "ratio cell"
    );
    let none = render_html(&cand, &[], Some(&run("other", RunStatus::Complete, vec![])));
    assert!(none.contains("id=\"no-common-cases\""));
    let without = render_html(&cand, &[], None);
    assert!(!without.contains("id=\"comparison\""));
}

#[test]
fn peers_get_a_ratio_section() {
    let mut peer = measured("SHA-256", "peer:openssl-speed", 1024, &[2000.0; 5]);
    peer.params
        .insert("command".into(), "openssl speed -evp sha256".into());
    let ms = vec![measured("SHA-256", "openssl", 1024, &[1000.0; 5]), peer];
    let html = render_html(&run("r7", RunStatus::Complete, ms), &[], None);
    well_formed(&html);
    shows(
        &html,
        &[
            "id=\"peer-ratios\"",
            "<td>ours / peer</td><td class=\"num\">2.000</td>",
        ],
    );
    assert!(
        !html.contains("openssl speed -evp sha256"),
        "commands stay out of the params"
    );
    assert!(
        html.contains("class=\"reference\""),
        "a dashed line at ratio 1"
    );
}

#[test]
fn write_html_names_an_unwritable_path() {
    let dir = std::env::temp_dir().join("cryptobench-report-no-such-dir-4f2a");
    let path = dir.join("r.html");
    let err = write_html(&path, &run("r9", RunStatus::Complete, vec![]), &[], None)
        .expect_err("the directory does not exist");
    match err {
        Error::Usage(msg) => assert!(msg.contains(&path.display().to_string()), "{msg}"),
        other => panic!("expected a usage error, got {other:?}"),
    }
}

/// A suite whose own drawing code panics: the report must survive it.
struct Clumsy;

impl Suite for Clumsy {
    fn profile(&self) -> SuiteProfile {
        SuiteProfile::new("hash", "a suite used by tests").views(
            panicking_tables,
            no_view,
            own_chart,
        )
    }
    fn backends(&self) -> Vec<BackendInfo> {
        vec![]
    }
    fn primitives(&self) -> Vec<String> {
        vec![]
    }
    fn plan(&self, _cfg: &RunConfig) -> Result<Vec<PlannedCase>, Error> {
        Ok(vec![])
    }
}

fn panicking_tables(_ms: &[Measurement]) -> Vec<Table> {
    panic!("summary bug")
}

fn own_chart(ms: &[Measurement]) -> Vec<Chart> {
    let mut c = Chart::new(cryptobench_core::ChartKind::Line, "own <chart>", "x", "y");
    c.series.push(cryptobench_core::Series {
        name: "s".into(),
        points: vec![(1.0, ms.len() as f64), (2.0, 3.0)],
    });
    vec![c]
}

#[test]
fn suite_charts_are_drawn_and_a_panicking_suite_costs_only_a_note() {
    let suites: Vec<Box<dyn Suite>> = vec![Box::new(Clumsy)];
    let ms = vec![measured("SHA-256", "openssl", 64, &[100.0; 5])];
    let html = render_html(&run("r8", RunStatus::Complete, ms), &suites, None);
    well_formed(&html);
    shows(
        &html,
        &[
            "own &lt;chart&gt;",
            "a suite used by tests",
            "own tables could not be drawn",
        ],
    );
    assert_eq!(html.matches("<svg class=\"chart\"").count(), 2);
}

#[test]
fn recommendations_papers_and_fleet_get_sections_and_contents_entries() {
    let ms = vec![measured("SHA-256", "openssl", 64, &[100.0; 5])];
    let r = run("r9", RunStatus::Complete, ms);
    let mut other = r.clone();
    other.id = "r9-r1".into();
    let mut table = Table::new("Published <vs> here", ["claim", "verdict"]);
    table.row(["AEGIS is 2-3x GCM", "holds here"]);
    let extras = Extras {
        baseline: None,
        recommendations: vec![crate::recommend::Recommendation {
            topic: "AEAD, bulk data".into(),
            advice: "Use AEGIS-128L & friends".into(),
            evidence: vec!["aead AEGIS-128L libaegis encrypt 16 KiB".into()],
            record: crate::recommend_record::record(
                "AEAD, bulk data",
                "Use AEGIS-128L & friends",
                &[],
                cryptobench_core::recommendation::Stance::Use,
            ),
        }],
        papers: vec![PaperSection {
            name: "aegis".into(),
            title: "AEGIS vs AES-GCM (seed 003)".into(),
            tables: vec![table],
        }],
        fleet: vec![r.clone(), other.clone()],
        machines: vec![r.clone(), other],
        machines_baseline: 1,
    };
    let html = render_html_with(&r, &[], &extras);
    well_formed(&html);
    for anchor in ["recommendations", "papers", "fleet", "machines"] {
        assert!(html.contains(&format!("href=\"#{anchor}\"")), "{anchor}");
        assert!(
            html.contains(&format!("<section id=\"{anchor}\"")),
            "{anchor}"
        );
    }
    shows(
        &html,
        &[
            "Use AEGIS-128L &amp; friends",
            "Published &lt;vs&gt; here",
            "id=\"paper-aegis\"",
            "r1/r0",
        ],
    );
    assert!(html.contains("ratio to the baseline"), "machines section");
    // Recommendations come before the suites in the contents.
    let rec = html.find("href=\"#recommendations\"").unwrap();
    let suite = html.find("href=\"#suite-hash\"").unwrap();
    let papers = html.find("href=\"#papers\"").unwrap();
    assert!(rec < suite && suite < papers);
    // Without extras, none of the three sections appears.
    let plain = render_html(&r, &[], None);
    assert!(!plain.contains("id=\"recommendations\"") && !plain.contains("id=\"fleet\""));
    assert!(!plain.contains("id=\"machines\""));
}

#[test]
fn a_note_several_charts_share_is_said_once_and_each_charts_own_stays() {
    let chart = |own: &str| {
        let mut c = Chart::bars(own, "MB/s");
        c.notes = vec![own.to_string(), "shaded rows are recommended".to_string()];
        c
    };
    let mut charts = vec![chart("16 B"), chart("1 KiB"), chart("16 KiB")];
    let shared = take_shared_notes(&mut charts);
    assert_eq!(shared, ["shaded rows are recommended"]);
    for (c, own) in charts.iter().zip(["16 B", "1 KiB", "16 KiB"]) {
        assert_eq!(c.notes, [own]);
    }
    let mut alone = vec![chart("16 B")];
    assert!(take_shared_notes(&mut alone).is_empty());
    assert_eq!(alone[0].notes.len(), 2, "one chart keeps all its notes");
}
