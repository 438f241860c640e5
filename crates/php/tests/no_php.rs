//! Without php on the machine the backend says "php not found" and every
//! php cell is planned unavailable with that reason (never dropped). Its own
//! test binary: the environment override must be set before anything asks
//! for PHP, and the answer is cached per process.

use cryptobench_core::{RunConfig, Setup};

#[test]
fn no_php_means_unavailable_php_not_found() {
    std::env::set_var(cryptobench_php::runner::ENV_PHP, "/nonexistent/bin/php");
    let why = cryptobench_php::available().expect_err("no php here");
    assert!(why.starts_with("php not found"), "{why}");
    let info = cryptobench_php::backend_info();
    assert_eq!(info.name, "php");
    assert!(info
        .unavailable
        .as_deref()
        .is_some_and(|w| w.starts_with("php not found")));
    let cfg = RunConfig::quick();
    for suite in ["cipher", "aead", "ecc", "argon2"] {
        let plan = cryptobench_php::plan(suite, &cfg);
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
    assert!(cryptobench_php::plan("hash", &cfg).is_empty());
}
