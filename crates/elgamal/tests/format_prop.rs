//! Property tests over the EC-ElGamal key and ciphertext files: arbitrary
//! text and mutated valid files parse or give a usage error, never a panic;
//! valid files round-trip.

use cryptobench_core::Error;
use cryptobench_elgamal::arith;
use cryptobench_elgamal::cli::{decrypt_text, encrypt_text};
use cryptobench_elgamal::curve::Curve;
use cryptobench_elgamal::format::{CiphertextFile, KeyFile};
use cryptobench_elgamal::keys::RngSource;
use cryptobench_elgamal::scheme::open;
use proptest::prelude::*;

fn secret_key(seed: u64) -> String {
    let keys = open(
        Curve::P256,
        arith::default_for(Curve::P256),
        None,
        RngSource::Seeded(seed),
    )
    .unwrap();
    KeyFile::from_material(keys.material()).to_json()
}

fn usage_or_ok<T>(r: Result<T, Error>) -> Result<(), TestCaseError> {
    match r {
        Ok(_) | Err(Error::Usage(_)) => Ok(()),
        Err(other) => Err(TestCaseError::fail(format!("not a usage error: {other}"))),
    }
}

/// `text` with the byte at `at` replaced (kept UTF-8 by replacing a char).
fn mutate(text: &str, at: usize, with: char) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if !chars.is_empty() {
        let i = at % chars.len();
        chars[i] = with;
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_text_is_no_key_and_no_ciphertext(text in any::<String>()) {
        usage_or_ok(KeyFile::parse(&text))?;
        usage_or_ok(CiphertextFile::parse(&text))?;
    }

    #[test]
    fn mutated_files_parse_or_explain(seed in any::<u64>(), at in any::<usize>(), with in any::<char>(), plain in proptest::collection::vec(any::<u8>(), 0..24)) {
        let key = secret_key(seed % 8);
        usage_or_ok(KeyFile::parse(&mutate(&key, at, with)))?;
        let ct = encrypt_text(&key, &plain, "char", 1, &None, RngSource::Seeded(seed)).unwrap();
        let bad = mutate(&ct, at, with);
        usage_or_ok(CiphertextFile::parse(&bad))?;
        usage_or_ok(decrypt_text(&key, &bad, 1, &None))?;
    }

    #[test]
    fn files_round_trip(seed in any::<u64>(), plain in proptest::collection::vec(any::<u8>(), 0..24)) {
        let key = secret_key(seed % 8);
        let material = KeyFile::parse(&key).unwrap();
        prop_assert_eq!(KeyFile::from_material(&material).to_json(), key.clone());
        let ct = encrypt_text(&key, &plain, "packed", 1, &None, RngSource::Seeded(seed)).unwrap();
        let raw = CiphertextFile::parse(&ct).unwrap();
        prop_assert_eq!(CiphertextFile::from_raw(&raw).to_json(), ct.clone());
        prop_assert_eq!(decrypt_text(&key, &ct, 1, &None).unwrap(), plain);
    }
}
