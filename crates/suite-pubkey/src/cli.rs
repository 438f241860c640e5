//! `cryptobench pubkey`: the benchmark (`--algorithms`, `--operations`,
//! `--backend`, `--list`) and the file-level commands for interop with
//! other tools: `keygen`, `encaps`, `decaps`, `derive`, `sign`, `verify`.
//!
//! Files are JSON with hex fields (docs/pubkey-format.md), written through
//! the store's output rules: never over a file cryptobench did not write,
//! secrets created 0600 and never replaced without `--force`. The binary's
//! global `-o` and `--force` are handed over by [`PubkeyArgs::adopt_globals`].

use crate::algorithms::{self, Algorithm, Kind};
use crate::case::{agreement_entry, kem_entry, signer_entry};
use crate::error::PkError;
use crate::files::{self, BlobFile, KeyFile};
use crate::{entries, Options, PubkeySuite};
use cryptobench_core::{names, Error, RunConfig, SuiteAction};
use cryptobench_store::output::{Access, Outputs};
use std::path::{Path, PathBuf};

/// Options of `cryptobench pubkey`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PubkeyArgs {
    /// A file-level subcommand; none runs the benchmark.
    #[command(subcommand)]
    pub command: Option<PubkeyCommand>,
    /// Parameter sets, comma-separated (default: the default grid; see --list).
    #[arg(long, value_name = "LIST")]
    pub algorithms: Option<String>,
    /// Operations, comma-separated: keygen, encaps, decaps, derive, sign, verify.
    #[arg(long, value_name = "LIST")]
    pub operations: Option<String>,
    /// List every set with its backends and why any is unavailable; run nothing.
    #[arg(long)]
    pub list: bool,
    /// Leave out the `openssl speed` peer measurements.
    #[arg(long)]
    pub no_peers: bool,
}

/// The file-level subcommands.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum PubkeyCommand {
    /// Generate a key pair: secret key file (0600) and its public key file.
    Keygen(KeygenArgs),
    /// Encapsulate to a (public) KEM key file; ciphertext JSON out.
    Encaps(EncapsArgs),
    /// Decapsulate a ciphertext file with a secret KEM key file; prints the secret.
    Decaps(DecapsArgs),
    /// Diffie-Hellman: a secret key file with a peer's public key file.
    Derive(DeriveArgs),
    /// Sign a file's bytes with a secret key file; signature JSON out.
    Sign(SignArgs),
    /// Verify a signature file over a file's bytes; exit 1 when invalid.
    Verify(VerifyArgs),
}

/// `pubkey keygen`.
#[derive(Debug, Clone, clap::Args)]
pub struct KeygenArgs {
    /// Parameter set (ML-KEM-768, X25519, ML-DSA-65, RSA-2048-PSS, ...).
    #[arg(long = "alg", value_name = "SET")]
    pub alg: String,
    /// Secret key file to write (or the global -o).
    #[arg(long = "out", value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Public key file (default: the secret file's name with .pub.json).
    #[arg(long, value_name = "PATH")]
    pub public: Option<PathBuf>,
    /// Replace existing files (the binary's global `--force`).
    #[arg(skip)]
    pub force: bool,
}

/// `pubkey encaps`.
#[derive(Debug, Clone, clap::Args)]
pub struct EncapsArgs {
    /// Public (or secret) KEM key file.
    #[arg(long, value_name = "PATH")]
    pub key: PathBuf,
    /// Ciphertext file to write (the ciphertext alone, for the peer); default stdout.
    #[arg(long = "out", value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// File for the shared secret, hex (0600); default stdout.
    #[arg(long = "secret", value_name = "PATH")]
    pub secret: Option<PathBuf>,
    /// Replace an existing file (the binary's global `--force`).
    #[arg(skip)]
    pub force: bool,
}

/// `pubkey decaps`.
#[derive(Debug, Clone, clap::Args)]
pub struct DecapsArgs {
    /// Secret KEM key file.
    #[arg(long, value_name = "PATH")]
    pub key: PathBuf,
    /// Ciphertext file (from `pubkey encaps`).
    #[arg(long, value_name = "PATH")]
    pub ciphertext: PathBuf,
}

/// `pubkey derive`.
#[derive(Debug, Clone, clap::Args)]
pub struct DeriveArgs {
    /// Our secret key file.
    #[arg(long, value_name = "PATH")]
    pub key: PathBuf,
    /// The peer's public key file.
    #[arg(long, value_name = "PATH")]
    pub peer: PathBuf,
}

/// `pubkey sign`.
#[derive(Debug, Clone, clap::Args)]
pub struct SignArgs {
    /// Secret signature key file.
    #[arg(long, value_name = "PATH")]
    pub key: PathBuf,
    /// The file whose bytes are signed.
    #[arg(long, value_name = "PATH")]
    pub message: PathBuf,
    /// Signature file to write; default stdout.
    #[arg(long = "out", value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Replace an existing file (the binary's global `--force`).
    #[arg(skip)]
    pub force: bool,
}

/// `pubkey verify`.
#[derive(Debug, Clone, clap::Args)]
pub struct VerifyArgs {
    /// Public (or secret) signature key file.
    #[arg(long, value_name = "PATH")]
    pub key: PathBuf,
    /// The file whose bytes were signed.
    #[arg(long, value_name = "PATH")]
    pub message: PathBuf,
    /// Signature file (from `pubkey sign`).
    #[arg(long, value_name = "PATH")]
    pub signature: PathBuf,
}

impl PubkeyArgs {
    /// Takes over the binary's global `-o PATH` (one) and `--force` for
    /// the subcommands that write a file, as the issue spells them.
    pub fn adopt_globals(&mut self, outputs: &mut Vec<String>, force: bool) {
        let out = match &mut self.command {
            Some(PubkeyCommand::Keygen(k)) => {
                k.force = force;
                &mut k.out
            }
            Some(PubkeyCommand::Encaps(e)) => {
                e.force = force;
                &mut e.out
            }
            Some(PubkeyCommand::Sign(s)) => {
                s.force = force;
                &mut s.out
            }
            _ => return,
        };
        if out.is_none() && outputs.len() == 1 {
            *out = outputs.pop().map(PathBuf::from);
        }
    }

    /// The subcommand's name as typed (`pubkey keygen`), for messages.
    pub fn name(&self) -> &'static str {
        match &self.command {
            None => "pubkey",
            Some(PubkeyCommand::Keygen(_)) => "pubkey keygen",
            Some(PubkeyCommand::Encaps(_)) => "pubkey encaps",
            Some(PubkeyCommand::Decaps(_)) => "pubkey decaps",
            Some(PubkeyCommand::Derive(_)) => "pubkey derive",
            Some(PubkeyCommand::Sign(_)) => "pubkey sign",
            Some(PubkeyCommand::Verify(_)) => "pubkey verify",
        }
    }

    /// The benchmark's options; bad names are usage errors.
    pub fn options(&self) -> Result<Options, Error> {
        let algorithms = match &self.algorithms {
            Some(list) => Some(algorithms::resolve_list(list)?),
            None => None,
        };
        let operations = match &self.operations {
            Some(list) => {
                let all = [
                    algorithms::KEYGEN,
                    algorithms::ENCAPS,
                    algorithms::DECAPS,
                    algorithms::DERIVE,
                    algorithms::SIGN,
                    algorithms::VERIFY,
                ];
                Some(names::resolve_list("operation", list, &all)?)
            }
            None => None,
        };
        Ok(Options {
            algorithms,
            operations,
            no_peers: self.no_peers,
        })
    }
}

/// Runs `cryptobench pubkey ...`.
pub fn command(args: &PubkeyArgs, cfg: &RunConfig) -> Result<SuiteAction, Error> {
    let done = |r: Result<u8, Error>| r.map(SuiteAction::Done);
    match &args.command {
        None if args.list => done(list(cfg)),
        None => Ok(SuiteAction::Bench(vec![Box::new(PubkeySuite::new(
            args.options()?,
        ))])),
        Some(PubkeyCommand::Keygen(k)) => done(keygen(k, cfg)),
        Some(PubkeyCommand::Encaps(e)) => done(encaps(e, cfg)),
        Some(PubkeyCommand::Decaps(d)) => done(decapsulate(d, cfg).map(print_secret)),
        Some(PubkeyCommand::Derive(d)) => done(derive_secret(d, cfg).map(print_secret)),
        Some(PubkeyCommand::Sign(s)) => done(sign(s, cfg)),
        Some(PubkeyCommand::Verify(v)) => done(verify(v, cfg)),
    }
}

/// `pubkey --list`: every set, its backends and availability.
fn list(cfg: &RunConfig) -> Result<u8, Error> {
    for alg in algorithms::ALGORITHMS {
        println!(
            "{:<20} {:>3}-bit {:<13} {}",
            alg.name,
            alg.security_bits,
            if alg.post_quantum {
                "post-quantum"
            } else {
                "classical"
            },
            alg.standard
        );
        for (backend, version, why) in entries(alg) {
            if !crate::wanted(cfg, backend) {
                continue;
            }
            match why {
                None => println!("    {backend:<20} {version}"),
                Some(why) => println!("    {backend:<20} unavailable: {why}"),
            }
        }
    }
    Ok(0)
}

/// The backend the file commands use: `--backend` if given, else the
/// first available one in registry order.
fn pick(alg: &Algorithm, cfg: &RunConfig) -> Result<&'static str, Error> {
    let rows = entries(alg);
    let ok: Vec<&'static str> = rows
        .iter()
        .filter(|(b, _, why)| why.is_none() && crate::wanted(cfg, b))
        .map(|(b, _, _)| *b)
        .collect();
    ok.first().copied().ok_or_else(|| {
        let offered: Vec<String> = rows
            .iter()
            .map(|(b, _, why)| match why {
                None => b.to_string(),
                Some(w) => format!("{b} (unavailable: {w})"),
            })
            .collect();
        Error::usage(format!(
            "no chosen backend offers {} here; its backends: {}",
            alg.name,
            offered.join(", ")
        ))
    })
}

fn pk(e: PkError) -> Error {
    match e {
        PkError::Encoding(why) => Error::usage(why),
        low @ PkError::LowOrder(_) => Error::usage(low.to_string()),
        other => Error::Suite(Box::new(other)),
    }
}

/// Writes `blob` (public: a ciphertext or a signature) to `out`, or
/// prints it.
fn write_blob(out: Option<&Path>, force: bool, blob: &BlobFile) -> Result<(), Error> {
    let text = files::to_json(blob);
    match out {
        Some(path) => Outputs::new(force, None)
            .write(path, text.as_bytes(), Access::Public)
            .map_err(|e| Error::usage(e.to_string())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

fn public_path(secret: &Path) -> PathBuf {
    let name = secret
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let stem = name.strip_suffix(".json").unwrap_or(&name);
    secret.with_file_name(format!("{stem}.pub.json"))
}

fn keygen(k: &KeygenArgs, cfg: &RunConfig) -> Result<u8, Error> {
    let alg = algorithms::resolve(&k.alg)?;
    let out = k.out.as_deref().ok_or_else(|| {
        Error::usage("pubkey keygen needs the secret key file: -o key.json (or --out key.json)")
    })?;
    let public_out = k.public.clone().unwrap_or_else(|| public_path(out));
    cryptobench_store::output::distinct([("-o", out), ("--public", public_out.as_path())])
        .map_err(|e| Error::usage(e.to_string()))?;
    let outputs = Outputs::new(k.force, None);
    outputs
        .check(out, Access::Secret)
        .and_then(|_| outputs.check(&public_out, Access::Public))
        .map_err(|e| Error::usage(e.to_string()))?;
    let backend = pick(alg, cfg)?;
    let generated = match alg.kind {
        Kind::Kem => kem_entry(alg, backend).map(|e| {
            e.generate()
                .and_then(|k| Ok((Some(k.public_key()), k.secret_key()?)))
        }),
        Kind::Agreement => agreement_entry(alg, backend).map(|e| {
            e.generate()
                .and_then(|k| Ok((Some(k.public_key()), k.secret_key()?)))
        }),
        Kind::Signature => signer_entry(alg, backend).map(|e| {
            e.generate()
                .and_then(|k| Ok((k.public_key().ok(), k.secret_key()?)))
        }),
    };
    let (public, secret) = generated
        .ok_or_else(|| missing(alg, backend))?
        .map_err(pk)?;
    let secret_file = KeyFile::new(alg, public.as_deref(), Some(&secret));
    outputs
        .write(out, files::to_json(&secret_file).as_bytes(), Access::Secret)
        .map_err(|e| Error::usage(e.to_string()))?;
    if let Some(p) = &public {
        let public_file = KeyFile::new(alg, Some(p), None);
        outputs
            .write(
                &public_out,
                files::to_json(&public_file).as_bytes(),
                Access::Public,
            )
            .map_err(|e| Error::usage(e.to_string()))?;
    }
    eprintln!(
        "{} key pair ({backend}): secret {} (0600){}",
        alg.name,
        out.display(),
        if public.is_some() {
            format!(", public {}", public_out.display())
        } else {
            String::new()
        }
    );
    Ok(0)
}

/// The entry of `alg` on the backend `--backends` picks, from the family's
/// `find` (one of the `*_entry` lookups).
fn chosen<E: ?Sized>(
    alg: &Algorithm,
    cfg: &RunConfig,
    find: fn(&Algorithm, &str) -> Option<Box<E>>,
) -> Result<Box<E>, Error> {
    let backend = pick(alg, cfg)?;
    find(alg, backend).ok_or_else(|| missing(alg, backend))
}

fn missing(alg: &Algorithm, backend: &str) -> Error {
    Error::NotOffered {
        backend: backend.to_string(),
        algorithm: alg.name.to_string(),
    }
}

fn encaps(e: &EncapsArgs, cfg: &RunConfig) -> Result<u8, Error> {
    let (file, alg) = files::read_key(&e.key)?;
    files::expect_kind(alg, Kind::Kem, "encaps")?;
    if e.out.is_none() && e.secret.is_none() {
        return Err(Error::usage(
            "pubkey encaps writes the ciphertext and the shared secret: name a file for one \
             (--out ct.json for the ciphertext, --secret ss.hex for the secret), the other goes to stdout",
        ));
    }
    let outputs = Outputs::new(e.force, None);
    let named: Vec<(&str, &Path)> = [
        ("--out", e.out.as_deref()),
        ("--secret", e.secret.as_deref()),
    ]
    .into_iter()
    .filter_map(|(o, p)| p.map(|p| (o, p)))
    .collect();
    cryptobench_store::output::distinct(named.iter().copied())
        .map_err(|err| Error::usage(err.to_string()))?;
    for (option, path) in &named {
        let access = if *option == "--secret" {
            Access::Secret
        } else {
            Access::Public
        };
        outputs
            .check(path, access)
            .map_err(|err| Error::usage(err.to_string()))?;
    }
    let public = file.public(&e.key)?;
    let entry = chosen(alg, cfg, kem_entry)?;
    let (ct, ss) = entry
        .import_public(&public)
        .map_err(pk)?
        .encaps()
        .map_err(pk)?;
    let blob = BlobFile::new(alg, "ciphertext", &ct);
    write_blob(e.out.as_deref(), e.force, &blob)?;
    let secret = format!("{}\n", hex::encode(ss));
    match &e.secret {
        Some(path) => outputs
            .write(path, secret.as_bytes(), Access::Secret)
            .map_err(|err| Error::usage(err.to_string()))?,
        None => print!("{secret}"),
    }
    Ok(0)
}

/// Prints a shared secret as hex: exit code 0.
fn print_secret(secret: Vec<u8>) -> u8 {
    println!("{}", hex::encode(secret));
    0
}

/// The shared secret `pubkey decaps` prints.
pub fn decapsulate(d: &DecapsArgs, cfg: &RunConfig) -> Result<Vec<u8>, Error> {
    let (file, alg) = files::read_key(&d.key)?;
    files::expect_kind(alg, Kind::Kem, "decaps")?;
    let (blob, ct) = files::read_blob(&d.ciphertext, "ciphertext")?;
    same_set(alg, &blob.algorithm, &d.ciphertext)?;
    crate::error::expect_len(
        &format!("{} ciphertext in {}", alg.name, d.ciphertext.display()),
        &ct,
        alg.output_bytes,
    )
    .map_err(pk)?;
    let secret = file.secret(&d.key)?;
    let entry = chosen(alg, cfg, kem_entry)?;
    entry
        .import_secret(&secret)
        .map_err(pk)?
        .decaps(&ct)
        .map_err(pk)
}

/// The shared secret `pubkey derive` prints.
pub fn derive_secret(d: &DeriveArgs, cfg: &RunConfig) -> Result<Vec<u8>, Error> {
    let (file, alg) = files::read_key(&d.key)?;
    files::expect_kind(alg, Kind::Agreement, "derive")?;
    let (peer, peer_alg) = files::read_key(&d.peer)?;
    same_set(alg, peer_alg.name, &d.peer)?;
    let entry = chosen(alg, cfg, agreement_entry)?;
    entry
        .import_secret(&file.secret(&d.key)?)
        .map_err(pk)?
        .derive(&peer.public(&d.peer)?)
        .map_err(pk)
}

fn same_set(alg: &Algorithm, other: &str, path: &Path) -> Result<(), Error> {
    if alg.name == other {
        Ok(())
    } else {
        Err(Error::usage(format!(
            "{} is for {other}, the key for {}; use files of one parameter set",
            path.display(),
            alg.name
        )))
    }
}

fn sign(s: &SignArgs, cfg: &RunConfig) -> Result<u8, Error> {
    let (file, alg) = files::read_key(&s.key)?;
    files::expect_kind(alg, Kind::Signature, "sign")?;
    let message = cryptobench_core::input::read_file("--message", &s.message)?;
    let entry = chosen(alg, cfg, signer_entry)?;
    let sig = entry
        .import_secret(&file.secret(&s.key)?)
        .map_err(pk)?
        .sign(&message)
        .map_err(pk)?;
    let blob = BlobFile::new(alg, "signature", &sig);
    write_blob(s.out.as_deref(), s.force, &blob)?;
    Ok(0)
}

fn verify(v: &VerifyArgs, cfg: &RunConfig) -> Result<u8, Error> {
    let (file, alg) = files::read_key(&v.key)?;
    files::expect_kind(alg, Kind::Signature, "verify")?;
    let (blob, sig) = files::read_blob(&v.signature, "signature")?;
    same_set(alg, &blob.algorithm, &v.signature)?;
    let message = cryptobench_core::input::read_file("--message", &v.message)?;
    let entry = chosen(alg, cfg, signer_entry)?;
    let key = entry.import_public(&file.public(&v.key)?).map_err(pk)?;
    let ok = key.verify(&message, &sig).map_err(pk)?;
    println!(
        "{} ({}, {}): {}",
        v.signature.display(),
        alg.name,
        entry.backend(),
        if ok { "valid" } else { "INVALID" }
    );
    Ok(if ok { 0 } else { 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> RunConfig {
        RunConfig::default()
    }

    fn keygen_to(dir: &Path, alg: &str, name: &str) -> (PathBuf, PathBuf) {
        let out = dir.join(format!("{name}.json"));
        let args = KeygenArgs {
            alg: alg.into(),
            out: Some(out.clone()),
            public: None,
            force: false,
        };
        assert_eq!(keygen(&args, &cfg()).unwrap(), 0);
        (out.clone(), public_path(&out))
    }

    #[test]
    fn kem_files_round_trip_and_secrets_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (key, public) = keygen_to(dir.path(), "ml-kem-768", "key");
        let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let ct = dir.path().join("ct.json");
        let ss = dir.path().join("ss.hex");
        let e = EncapsArgs {
            key: public.clone(),
            out: Some(ct.clone()),
            secret: Some(ss.clone()),
            force: false,
        };
        encaps(&e, &cfg()).unwrap();
        let shared = std::fs::read_to_string(&ss).unwrap();
        assert_eq!(
            std::fs::metadata(&ss).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert!(!std::fs::read_to_string(&ct)
            .unwrap()
            .contains(shared.trim()));
        let secret = decapsulate(
            &DecapsArgs {
                key: key.clone(),
                ciphertext: ct.clone(),
            },
            &cfg(),
        )
        .unwrap();
        assert_eq!(hex::encode(secret), shared.trim());
        // The public file has no secret: decaps with it is a usage error.
        let err = decapsulate(
            &DecapsArgs {
                key: public,
                ciphertext: ct,
            },
            &cfg(),
        )
        .unwrap_err();
        assert!(matches!(err, Error::Usage(_)), "{err}");
        // A second keygen to the same name would lose the secret.
        let again = KeygenArgs {
            alg: "ML-KEM-768".into(),
            out: Some(key),
            public: Some(dir.path().join("other.pub.json")),
            force: false,
        };
        let err = keygen(&again, &cfg()).unwrap_err().to_string();
        assert!(err.contains("refusing to overwrite"), "{err}");
    }

    #[test]
    fn signature_files_verify_and_a_changed_message_does_not() {
        let dir = tempfile::tempdir().unwrap();
        for alg in ["Ed25519", "ML-DSA-44", "ECDSA-P256", "RSA-2048-PSS"] {
            let (key, public) = keygen_to(dir.path(), alg, alg);
            let msg = dir.path().join("msg.txt");
            std::fs::write(&msg, b"hello").unwrap();
            let sig = dir.path().join(format!("{alg}.sig.json"));
            let s = SignArgs {
                key,
                message: msg.clone(),
                out: Some(sig.clone()),
                force: false,
            };
            sign(&s, &cfg()).unwrap();
            let v = VerifyArgs {
                key: public,
                message: msg.clone(),
                signature: sig,
            };
            assert_eq!(verify(&v, &cfg()).unwrap(), 0, "{alg}");
            std::fs::write(&msg, b"hellO").unwrap();
            assert_eq!(verify(&v, &cfg()).unwrap(), 1, "{alg}");
        }
    }

    #[test]
    fn agreement_files_derive_the_same_secret_both_ways() {
        let dir = tempfile::tempdir().unwrap();
        let (a, a_pub) = keygen_to(dir.path(), "X25519", "a");
        let (b, b_pub) = keygen_to(dir.path(), "X25519", "b");
        let ab = derive_secret(
            &DeriveArgs {
                key: a,
                peer: b_pub,
            },
            &cfg(),
        )
        .unwrap();
        let ba = derive_secret(
            &DeriveArgs {
                key: b,
                peer: a_pub,
            },
            &cfg(),
        )
        .unwrap();
        assert_eq!(ab, ba);
        assert_eq!(ab.len(), 32);
    }

    #[test]
    fn wrong_inputs_are_usage_errors_that_say_what_is_accepted() {
        let dir = tempfile::tempdir().unwrap();
        let (key, _) = keygen_to(dir.path(), "Ed25519", "ed");
        let e = EncapsArgs {
            key,
            out: None,
            secret: None,
            force: false,
        };
        let err = encaps(&e, &cfg()).unwrap_err().to_string();
        assert!(
            err.contains("takes KEM keys") && err.contains("ML-KEM-768"),
            "{err}"
        );
        let junk = dir.path().join("junk.json");
        std::fs::write(&junk, b"{not json").unwrap();
        let e = EncapsArgs {
            key: junk,
            out: None,
            secret: None,
            force: false,
        };
        assert!(matches!(encaps(&e, &cfg()), Err(Error::Usage(_))));
        let args = KeygenArgs {
            alg: "ML-KEM-786".into(),
            out: Some(dir.path().join("k.json")),
            public: None,
            force: false,
        };
        let err = keygen(&args, &cfg()).unwrap_err().to_string();
        assert!(err.contains("did you mean ML-KEM-768"), "{err}");
    }
}
