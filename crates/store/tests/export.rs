//! Exporters as snapshots, and `-o FORMAT:PATH` parsing and writing.

use crate::common;

use cryptobench_core::{Error, Run};
use cryptobench_store::{
    exporter, parse_target, write_target, CsvExporter, Exporter, JsonExporter, MarkdownExporter,
    OutputError, OutputTarget, Outputs, StoreError, FORMATS,
};
use std::path::PathBuf;

/// The fixture with a fixed host name, so the snapshots do not depend on
/// the machine the tests run on.
fn fixed_run() -> Run {
    let mut run = common::full_run();
    run.machine.hostname = "bench-01".into();
    run
}

fn text(e: &dyn Exporter, run: &Run) -> String {
    String::from_utf8(e.serialize(run).unwrap()).unwrap()
}

#[test]
fn json_is_the_canonical_run_and_parses_back_equal() {
    let mut run = fixed_run();
    run.measurements[0].samples_ns.push(0.1 + 0.2);
    run.fleet = Some("fleet-1".into());
    let bytes = JsonExporter.serialize(&run).unwrap();
    let back: Run = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(back, run);
    let s = String::from_utf8(bytes).unwrap();
    assert!(
        s.starts_with("{\n  \"schema\": \"cryptobench/1\",\n  \"id\": \"20261122-031502-4f2a\""),
        "{s}"
    );
    assert!(s.ends_with("}\n"));
}

const CSV_SNAPSHOT: &str = r#"run_id,host,suite,primitive,backend,backend_version,operation,input_bytes,threads,params,status,reason,median_ns,ci95_lo_ns,ci95_hi_ns,p25_ns,p75_ns,min_ns,mean_ns,stddev_ns,mad_ns,ops_per_s,bytes_per_s,cycles_per_byte,samples,checks,labels,warnings
20261122-031502-4f2a,bench-01,hash,SHA-256,openssl,OpenSSL 3.0.19,digest,16384,1,impl=evp,measured,,5120,5100,5140.5,5110,5130.25,5100,5120.166666666667,20.25,20,195312.5,3200000000,0.906,3,"kat:FIPS 180-4 ""abc"":pass;agree:pass",fast path,1 outlier
20261122-031502-4f2a,bench-01,hash,SHA-512,rustcrypto,sha2 0.10,digest,16,1,,failed,"digest mismatch, expected ""ddaf""",,,,,,,,,,,,,0,"kat:FIPS 180-4 ""abc"":fail",,
20261122-031502-4f2a,bench-01,aead,AES-256-GCM-SIV,libsodium,,encrypt,1024,2,aad=0,unavailable,libsodium has no AES-GCM-SIV,,,,,,,,,,,,,0,,insecure: none;nonce-misuse resistant,
"#;

#[test]
fn csv_quotes_line_breaks_and_keeps_column_count() {
    let mut run = fixed_run();
    run.measurements[0].warnings = vec!["noisy\nrerun".into()];
    let csv = text(&CsvExporter, &run);
    assert!(csv.contains(",\"noisy\nrerun\"\n"), "{csv}");
    // Every record has the header's 28 fields (counting commas outside quotes).
    let mut fields = 1;
    let mut quoted = false;
    let mut counts = Vec::new();
    for c in csv.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => fields += 1,
            '\n' if !quoted => {
                counts.push(fields);
                fields = 1;
            }
            _ => {}
        }
    }
    assert_eq!(counts, vec![28; 4]);
}

const MD_SNAPSHOT: &str = "# cryptobench run 20261122-031502-4f2a

- Status: failed
- Started: 2026-11-22T03:15:02Z
- Finished: 2026-11-22T03:16:40Z
- Command: `cryptobench run --quick`
- Machine: Example CPU 9000 (bench-01), 8 logical cores, 16.0 GiB memory
- CPU flags: aes, avx2 (absent: vaes)
- Kernel: 6.1.0 (Debian GNU/Linux 12), governor performance, TSC 2.90 GHz, address layout fixed, one-core cases on cpu 0
- Backends:
  - openssl: OpenSSL 3.0.19 27 Jan 2026
  - libsodium: unavailable (not built)
- cryptobench 0.1.0 (git abc1234)

## hash

| Primitive | Backend | Operation | Parameters | Size | Median | 95% CI | Throughput | Status |
|---|---|---|---|--:|--:|--:|--:|---|
| SHA-256 | openssl | digest | impl=evp | 16 KiB | 5.12 us | 5.10 us .. 5.14 us | 3.20 GB/s | measured; fast path |
| SHA-512 | rustcrypto | digest | - | 16 B | - | - | - | FAILED: digest mismatch, expected \"ddaf\" |

Warnings:

- SHA-256 / openssl / digest / 16 KiB: 1 outlier

## aead

| Primitive | Backend | Operation | Parameters | Size | Median | 95% CI | Throughput | Status |
|---|---|---|---|--:|--:|--:|--:|---|
| AES-256-GCM-SIV | libsodium | encrypt | aad=0, threads=2 | 1 KiB | - | - | - | unavailable: libsodium has no AES-GCM-SIV; insecure: none; nonce-misuse resistant |
";

#[test]
fn csv_and_markdown_match_their_snapshots() {
    assert_eq!(text(&CsvExporter, &fixed_run()), CSV_SNAPSHOT);
    assert_eq!(text(&MarkdownExporter, &fixed_run()), MD_SNAPSHOT);
}

#[test]
fn markdown_keeps_pipes_inside_cells_and_handles_an_empty_run() {
    let mut run = fixed_run();
    run.measurements.truncate(1);
    run.measurements[0].params.clear();
    run.measurements[0].primitive = "A|B".into();
    let md = text(&MarkdownExporter, &run);
    assert!(md.contains("| A\\|B | openssl | digest | 16 KiB |"), "{md}");
    assert!(
        !md.contains("Parameters"),
        "no parameters column when none: {md}"
    );
    run.measurements.clear();
    run.finished_at = None;
    let md = text(&MarkdownExporter, &run);
    assert!(md.contains("No measurements were stored"), "{md}");
    assert!(md.contains("- Finished: not finished"), "{md}");
}

#[test]
fn exporters_by_name() {
    for f in FORMATS {
        assert_eq!(exporter(f).unwrap().format(), f);
    }
    assert_eq!(exporter("Markdown").unwrap().format(), "md");
    assert_eq!(exporter("JSON").unwrap().format(), "json");
    match exporter("jsn") {
        Err(Error::Usage(msg)) => {
            assert!(msg.contains("did you mean json"), "{msg}");
            assert!(msg.contains("json, csv, md"), "{msg}");
        }
        Err(e) => panic!("expected a usage error, got {e:?}"),
        Ok(_) => panic!("jsn accepted"),
    }
}

#[test]
fn targets_parse() {
    assert_eq!(
        parse_target("json:out/run.json").unwrap(),
        OutputTarget {
            format: "json".into(),
            path: Some(PathBuf::from("out/run.json"))
        }
    );
    assert_eq!(
        parse_target("CSV:-").unwrap(),
        OutputTarget {
            format: "csv".into(),
            path: None
        }
    );
    assert_eq!(
        parse_target("markdown:a:b.md").unwrap().path,
        Some(PathBuf::from("a:b.md"))
    );
    assert_eq!(parse_target("md:out.md").unwrap().format, "md");
}

#[test]
fn bad_targets_say_what_is_accepted() {
    let usage = |spec: &str| match parse_target(spec) {
        Err(Error::Usage(msg)) => msg,
        other => panic!("{spec}: expected a usage error, got {other:?}"),
    };
    let cases: [(&str, &[&str]); 5] = [
        ("results.json", &["FORMAT:PATH", "json:run.json"]),
        ("csv", &["did you mean csv:-?"]),
        (
            "xml:out.xml",
            &["unknown export format 'xml'", "json, csv, md"],
        ),
        ("jsno:out.json", &["did you mean json"]),
        ("json:", &["no PATH"]),
    ];
    for (spec, says) in cases {
        let msg = usage(spec);
        for part in says {
            assert!(msg.contains(part), "{spec}: {part:?} is not in: {msg}");
        }
    }
}

#[test]
fn write_target_writes_the_exporter_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let run = fixed_run();
    for f in FORMATS {
        let path = dir.path().join(format!("run.{f}"));
        let target = parse_target(&format!("{f}:{}", path.display())).unwrap();
        write_target(&target, &run, &Outputs::default()).unwrap();
        let expected = exporter(f).unwrap().serialize(&run).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), expected, "{f}");
        // Every format carries a marker, so a second export replaces the first.
        write_target(&target, &run, &Outputs::default()).unwrap();
        let json = dir.path().join("run.json");
        let over = parse_target(&format!("{f}:{}", json.display())).unwrap();
        write_target(&over, &run, &Outputs::default()).unwrap();
    }
}

#[test]
fn an_export_never_replaces_a_file_it_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("thesis.md");
    std::fs::write(&path, "# My thesis\n").unwrap();
    let target = parse_target(&format!("md:{}", path.display())).unwrap();
    let e = write_target(&target, &fixed_run(), &Outputs::default()).unwrap_err();
    assert!(e.to_string().contains("--force"), "{e}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "# My thesis\n");
    write_target(&target, &fixed_run(), &Outputs::new(true, None)).unwrap();
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .starts_with("# cryptobench run"));
}

#[test]
fn an_unwritable_export_path_is_a_clear_error() {
    let run = fixed_run();
    for (spec, expect) in [
        (
            "json:/proc/nope/run.json",
            "the directory /proc/nope does not exist",
        ),
        ("csv:/proc/version", "/proc/version"),
    ] {
        let target = parse_target(spec).unwrap();
        let e = write_target(&target, &run, &Outputs::new(true, None)).unwrap_err();
        assert!(
            matches!(e, StoreError::Output(OutputError::Unwritable { .. })),
            "{e:?}"
        );
        let msg = e.to_string();
        assert!(
            msg.contains("cannot write") && msg.contains(expect),
            "{msg}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let target = OutputTarget {
        format: "md".into(),
        path: Some(dir.path().to_path_buf()),
    };
    let e = write_target(&target, &run, &Outputs::default()).unwrap_err();
    assert!(e.to_string().contains("is a directory"), "{e}");
}

#[test]
fn an_unknown_format_is_a_usage_error_and_a_store_failure_keeps_its_source() {
    let run = fixed_run();
    let target = OutputTarget {
        format: "xml".into(),
        path: None,
    };
    let e = write_target(&target, &run, &Outputs::default()).unwrap_err();
    assert!(
        matches!(&e, StoreError::UnknownFormat { format } if format == "xml"),
        "{e:?}"
    );
    assert!(e.to_string().contains("json, csv, md"), "{e}");
    assert!(Error::from(e).is_usage());

    let dir = tempfile::tempdir().unwrap();
    let unwritable = OutputTarget {
        format: "md".into(),
        path: Some(dir.path().to_path_buf()),
    };
    let e = write_target(&unwritable, &run, &Outputs::default()).unwrap_err();
    let message = e.to_string();
    let core = Error::from(e);
    assert!(!core.is_usage(), "{core:?}");
    let Error::Store(source) = &core else {
        panic!("expected Error::Store, got {core:?}")
    };
    assert!(source.downcast_ref::<StoreError>().is_some(), "{source:?}");
    assert_eq!(core.to_string(), message);
}
