//! Case-insensitive name resolution with "did you mean".
//!
//! Every user-facing name (suite, backend, primitive, curve, cipher) goes
//! through [`resolve`], so the rules are the same everywhere: exact match
//! ignoring case and the separators `-`, `_`, ` `; otherwise a usage error
//! that lists what is accepted and the closest names by Jaro-Winkler.

use crate::Error;
use std::borrow::Cow;

/// Text from a file (a run id, host, label, machine or backend name) made
/// safe to print on a terminal: every control character, newlines and
/// escape sequences included, is shown as `\u{..}` (`\n`, `\t`, `\e` for
/// the common ones), so a hostile file can neither move the cursor, clear
/// the screen nor fake a line of output.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{1b}' => out.push_str("\\e"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`printable`] that keeps line breaks: for messages and notes made of
/// several lines, some of whose text came from a file.
pub fn printable_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\n') {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.split('\n')
            .map(printable)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Folds case and separators so `aes-128-ctr`, `AES_128_CTR` and `Aes128Ctr` meet.
pub fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' ' | '/' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The closest candidates to `wanted`, best first (at most three).
pub fn suggest<'a>(wanted: &str, candidates: &[&'a str]) -> Vec<&'a str> {
    let w = fold(wanted);
    let mut scored: Vec<(f64, &str)> = candidates
        .iter()
        .map(|c| (strsim::jaro_winkler(&w, &fold(c)), *c))
        .filter(|(s, _)| *s >= 0.75)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Finds `wanted` among `candidates`; `what` names the kind ("suite", "cipher").
pub fn resolve<'a>(what: &str, wanted: &str, candidates: &[&'a str]) -> Result<&'a str, Error> {
    let w = fold(wanted);
    if let Some(c) = candidates.iter().find(|c| fold(c) == w) {
        return Ok(c);
    }
    Err(unknown(what, wanted, candidates))
}

/// Resolves a comma-separated list of names.
pub fn resolve_list<'a>(
    what: &str,
    list: &str,
    candidates: &[&'a str],
) -> Result<Vec<&'a str>, Error> {
    let mut out = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let name = resolve(what, part, candidates)?;
        if !out.contains(&name) {
            out.push(name);
        }
    }
    if out.is_empty() {
        return Err(Error::usage(format!("no {what} given")));
    }
    Ok(out)
}

/// The usage error for an unknown name.
pub fn unknown(what: &str, wanted: &str, candidates: &[&str]) -> Error {
    let close = suggest(wanted, candidates);
    let mut msg = format!("unknown {what} '{wanted}'");
    if !close.is_empty() {
        msg.push_str(&format!("; did you mean {}?", close.join(", ")));
    }
    let shown: Vec<&str> = candidates.iter().take(40).copied().collect();
    msg.push_str(&format!("\naccepted {what} names: {}", shown.join(", ")));
    if candidates.len() > shown.len() {
        msg.push_str(&format!(
            ", ... ({} in all; see `cryptobench list`)",
            candidates.len()
        ));
    }
    Error::Usage(msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_ignoring_case_and_separators() {
        let c = ["SHA-256", "SHA-512", "SHA3-256"];
        assert_eq!(resolve("primitive", "sha256", &c).unwrap(), "SHA-256");
        assert_eq!(resolve("primitive", "Sha3_256", &c).unwrap(), "SHA3-256");
    }

    #[test]
    fn unknown_names_get_did_you_mean() {
        let c = ["hash", "cipher", "aead", "ecc", "argon2", "elgamal"];
        let e = resolve("suite", "ciphr", &c).unwrap_err().to_string();
        assert!(e.contains("did you mean cipher"), "{e}");
        assert!(e.contains("accepted suite names: hash, cipher"), "{e}");
        let e = resolve("suite", "zzzz", &c).unwrap_err().to_string();
        assert!(!e.contains("did you mean"), "{e}");
    }

    #[test]
    fn lists_deduplicate() {
        let c = ["hash", "aead"];
        assert_eq!(
            resolve_list("suite", "hash, HASH,aead", &c).unwrap(),
            vec!["hash", "aead"]
        );
        assert!(resolve_list("suite", "", &c).is_err());
    }
}
