//! Key, ciphertext and signature files of the `pubkey` subcommands: JSON
//! whose byte fields are lowercase hex of the standards' encodings (see
//! docs/pubkey-format.md). The `format` field comes first: it is the
//! marker by which cryptobench recognises a file it may overwrite.

use crate::algorithms::{self, Algorithm, Kind};
use cryptobench_core::Error;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// `format` of every pubkey file.
pub const FORMAT: &str = "cryptobench-pubkey/1";

/// A key file: public only, or public and secret.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Canonical set name (`ML-KEM-768`).
    pub algorithm: String,
    /// `public` or `secret`.
    pub kind: String,
    /// How the byte fields are encoded (for a human reader).
    pub encoding: String,
    /// The public key, hex (absent only when the backend cannot derive it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_key: Option<String>,
    /// The secret key, hex (secret files only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_key: Option<String>,
}

/// A ciphertext (KEM) or a signature, with the set it belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlobFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Canonical set name.
    pub algorithm: String,
    /// `ciphertext` or `signature`.
    pub kind: String,
    /// The bytes, hex. A ciphertext file holds the ciphertext alone: it
    /// goes to the peer, the shared secret never does.
    pub value: String,
}

impl BlobFile {
    /// A `kind` file (`ciphertext` or `signature`) of `alg` holding `value`.
    pub fn new(alg: &Algorithm, kind: &str, value: &[u8]) -> Self {
        Self {
            format: FORMAT.into(),
            algorithm: alg.name.into(),
            kind: kind.into(),
            value: hex::encode(value),
        }
    }
}

/// The encoding sentence of a set's key files.
pub fn encoding(alg: &Algorithm) -> String {
    let keys = match alg.name {
        n if n.starts_with("ML-KEM") => "FIPS 203 encapsulation key / decapsulation key (dk_pke || ek || H(ek) || z)",
        "X25519MLKEM768" => "ML-KEM-768 ek || X25519 public (draft-ietf-tls-ecdhe-mlkem) / ML-KEM-768 dk || X25519 secret",
        "X25519" | "X448" => "RFC 7748 u-coordinate / RFC 7748 scalar bytes",
        n if n.starts_with("ECDH") || n.starts_with("ECDSA") => {
            "SEC1 uncompressed point (04 || x || y) / big-endian scalar of the field size"
        }
        n if n.starts_with("ML-DSA") => "FIPS 204 pkEncode / skEncode",
        n if n.starts_with("SLH-DSA") => "FIPS 205 PK.seed || PK.root / SK.seed || SK.prf || PK.seed || PK.root",
        "Ed25519" | "Ed448" => "RFC 8032 public key / RFC 8032 private key (seed)",
        _ => "PKCS#1 RSAPublicKey DER / PKCS#8 PrivateKeyInfo DER",
    };
    format!("lowercase hex; public / secret = {keys}")
}

fn bad(path: &Path, what: impl std::fmt::Display) -> Error {
    Error::usage(format!("{}: {what}", path.display()))
}

fn parse_hex(path: &Path, field: &str, text: &str) -> Result<Vec<u8>, Error> {
    hex::decode(text.trim()).map_err(|e| {
        bad(
            path,
            format!(
                "field '{field}' is not hex ({e}); accepted: lowercase or uppercase hex digits"
            ),
        )
    })
}

/// Reads a key file.
pub fn read_key(path: &Path) -> Result<(KeyFile, &'static Algorithm), Error> {
    let text = cryptobench_core::input::read_file_to_string("--key", path)?;
    let file: KeyFile = serde_json::from_str(&text).map_err(|e| {
        bad(path, format!("not a pubkey key file ({e}); expected JSON with format {FORMAT:?} as written by `cryptobench pubkey keygen`"))
    })?;
    if file.format != FORMAT {
        return Err(bad(
            path,
            format!("format {:?}; expected {FORMAT:?}", file.format),
        ));
    }
    let alg = algorithms::resolve(&file.algorithm)?;
    Ok((file, alg))
}

/// Reads a ciphertext or signature file of `kind`.
pub fn read_blob(path: &Path, kind: &str) -> Result<(BlobFile, Vec<u8>), Error> {
    let text = cryptobench_core::input::read_file_to_string("input", path)?;
    let file: BlobFile = serde_json::from_str(&text).map_err(|e| {
        bad(
            path,
            format!("not a pubkey {kind} file ({e}); expected JSON with format {FORMAT:?}"),
        )
    })?;
    if file.format != FORMAT || file.kind != kind {
        return Err(bad(
            path,
            format!(
                "a {:?} file of format {:?}; expected a {kind} file of format {FORMAT:?}",
                file.kind, file.format
            ),
        ));
    }
    let bytes = parse_hex(path, "value", &file.value)?;
    Ok((file, bytes))
}

impl KeyFile {
    /// A key file for `alg`.
    pub fn new(alg: &Algorithm, public: Option<&[u8]>, secret: Option<&[u8]>) -> Self {
        Self {
            format: FORMAT.into(),
            algorithm: alg.name.into(),
            kind: if secret.is_some() { "secret" } else { "public" }.into(),
            encoding: encoding(alg),
            public_key: public.map(hex::encode),
            secret_key: secret.map(hex::encode),
        }
    }
    /// The public key bytes, or a usage error naming the file.
    pub fn public(&self, path: &Path) -> Result<Vec<u8>, Error> {
        let text = self
            .public_key
            .as_deref()
            .ok_or_else(|| bad(path, "has no public_key"))?;
        parse_hex(path, "public_key", text)
    }
    /// The secret key bytes, or a usage error naming the file.
    pub fn secret(&self, path: &Path) -> Result<Vec<u8>, Error> {
        let text = self.secret_key.as_deref().ok_or_else(|| {
            bad(
                path,
                "is a public key file; this command needs the secret key file written by keygen -o",
            )
        })?;
        parse_hex(path, "secret_key", text)
    }
}

/// JSON text of a file, pretty, with a final newline.
pub fn to_json<T: Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}

/// Whether `alg` is of `kind`, as a usage error naming the command.
pub fn expect_kind(alg: &Algorithm, kind: Kind, command: &str) -> Result<(), Error> {
    if alg.kind == kind {
        return Ok(());
    }
    let of = |k: Kind| -> Vec<&str> {
        algorithms::ALGORITHMS
            .iter()
            .filter(|a| a.kind == k)
            .map(|a| a.name)
            .collect()
    };
    Err(Error::usage(format!(
        "`pubkey {command}` takes {} keys; {} is not one (accepted: {})",
        match kind {
            Kind::Kem => "KEM",
            Kind::Agreement => "key-agreement",
            Kind::Signature => "signature",
        },
        alg.name,
        of(kind).join(", ")
    )))
}
