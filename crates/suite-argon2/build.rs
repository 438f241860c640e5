//! Records the version of the reference Argon2 library (Debian
//! `libargon2-dev`), which the library cannot report at run time.
//!
//! The library is not linked here: libsodium (vendored, statically linked)
//! exports its own `argon2_ctx` with a different context layout, so the
//! reference library is opened at run time and its symbols are looked up in
//! it alone (see `engines::RefLib`).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = pkg_config::Config::new()
        .cargo_metadata(false)
        .env_metadata(false)
        .probe("libargon2")
        .map(|lib| lib.version)
        .unwrap_or_else(|_| "(version unknown)".to_string());
    println!("cargo:rustc-env=CRYPTOBENCH_LIBARGON2_VERSION={version}");
}
