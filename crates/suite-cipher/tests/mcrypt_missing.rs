//! Without libmcrypt the backend is unavailable with the package to
//! install, and every other backend still runs. (Its own test binary: the
//! library is loaded once per process.)

use cryptobench_core::{RunConfig, Setup, Suite};
use cryptobench_suite_cipher::{mcrypt, CipherSuite, Options};

#[test]
fn missing_libmcrypt_makes_only_that_backend_unavailable() {
    std::env::set_var(mcrypt::LIBRARY_ENV, "/nonexistent/libmcrypt.so.4");
    assert_eq!(mcrypt::version().unwrap_err().to_string(), mcrypt::MISSING);
    assert!(mcrypt::ciphers().is_empty());
    let suite = CipherSuite::new(Options {
        ciphers: Some("aes-128-ctr".into()),
        sizes: Some(vec![16]),
        peers: false,
        ..Options::default()
    });
    let info = suite.backends();
    let m = info.iter().find(|b| b.name == "libmcrypt").unwrap();
    assert!(m
        .unavailable
        .as_deref()
        .unwrap()
        .contains("apt-get install libmcrypt4"));
    let cases = suite.plan(&RunConfig::quick()).unwrap();
    let unavailable: Vec<_> = cases
        .iter()
        .filter(
            |c| matches!(&c.setup, Setup::Unavailable(r) if r.contains("libmcrypt not installed")),
        )
        .collect();
    assert_eq!(unavailable.len(), 1);
    assert!(cases
        .iter()
        .any(|c| c.spec.backend == "openssl" && matches!(c.setup, Setup::Ready(_))));
    // BF-CFB8 exists only in libmcrypt: without it the name is unknown.
    let bf = CipherSuite::new(Options {
        ciphers: Some("bf-cfb8".into()),
        ..Options::default()
    });
    assert!(bf.plan(&RunConfig::quick()).is_err());
}
