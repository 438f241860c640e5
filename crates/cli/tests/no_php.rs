//! Without php on the machine the backend says "php not found" and every
//! php cell is planned unavailable with that reason (never dropped). Its own
//! test binary: the environment override must be set before anything asks
//! for PHP, and the answer is cached per process.

use cryptobench_core::{CaseSpec, RunConfig, Setup, Suite};

/// Each suite's quick native plan, as the binary hands it over.
fn native(suite: &str, cfg: &RunConfig) -> Vec<CaseSpec> {
    let s: Box<dyn Suite> = match suite {
        "cipher" => Box::new(cryptobench_suite_cipher::CipherSuite::new(
            Default::default(),
        )),
        "aead" => Box::new(cryptobench_suite_aead::AeadSuite::new(Default::default())),
        "ecc" => Box::new(cryptobench_suite_ecc::EccSuite::default()),
        _ => Box::new(cryptobench_suite_argon2::Argon2Suite { grid: None }),
    };
    s.plan(cfg)
        .expect("native plan")
        .into_iter()
        .map(|c| c.spec)
        .collect()
}

#[test]
fn no_php_means_unavailable_php_not_found() {
    std::env::set_var(
        cryptobench_runtime::php::runner::ENV_PHP,
        "/nonexistent/bin/php",
    );
    let why = cryptobench_runtime::php::available().expect_err("no php here");
    assert!(
        matches!(
            why,
            cryptobench_runtime::php::PhpError::NotFound(
                cryptobench_runtime::discover::ProgramError::NotExecutable { .. }
            )
        ),
        "{why:?}"
    );
    assert!(why.to_string().starts_with("php not found"), "{why}");
    let info = cryptobench_runtime::php::backend_info();
    assert_eq!(info.name, "php");
    assert!(info
        .unavailable
        .as_deref()
        .is_some_and(|w| w.starts_with("php not found")));
    let cfg = RunConfig::quick();
    for suite in ["cipher", "aead", "ecc", "argon2"] {
        let plan = cryptobench_runtime::php::plan(suite, &cfg, &native(suite, &cfg));
        assert!(
            !plan.is_empty(),
            "{suite}: cells must be planned, not dropped"
        );
        for c in &plan {
            assert_eq!(c.spec.backend, "php");
            match &c.setup {
                Setup::Unavailable(r) => assert!(r.starts_with("php not found"), "{suite}: {r}"),
                Setup::Skipped(_) => {}
                Setup::Ready(_) => panic!("{suite}: a php case is ready without php"),
            }
        }
    }
    let hash = [CaseSpec::new("hash", "SHA-256", "openssl", "", "digest").size(1024)];
    assert!(cryptobench_runtime::php::plan("hash", &cfg, &hash).is_empty());
}
