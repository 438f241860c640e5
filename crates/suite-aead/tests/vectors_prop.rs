//! Property tests over the Wycheproof-format reader of `aead verify`:
//! arbitrary text and mutated valid files parse or give a message, never a
//! panic; a valid file keeps its tests.

use cryptobench_suite_aead::vectors;
use proptest::prelude::*;

const VALID: &str = r#"{
  "algorithm": "AES-GCM",
  "numberOfTests": 2,
  "testGroups": [
    {
      "ivSize": 96, "keySize": 128, "tagSize": 128, "type": "AeadTest",
      "tests": [
        {"tcId": 1, "comment": "", "flags": [], "key": "5b9604fe14eadba931b0ccf34843dab9",
         "iv": "028318abc1824029138141a2", "aad": "", "msg": "001d0c231287c1182784554ca3a21908",
         "ct": "26073cc1d851beff176384dc9896d5ff", "tag": "0a3ea7a5487cb5f7d70fb6c58d038554", "result": "valid"},
        {"tcId": 2, "comment": "", "flags": [], "key": "5b9604fe14eadba931b0ccf34843dab9",
         "iv": "028318abc1824029138141a2", "aad": "", "msg": "001d0c231287c1182784554ca3a21908",
         "ct": "26073cc1d851beff176384dc9896d5ff", "tag": "0a3ea7a5487cb5f7d70fb6c58d038555", "result": "invalid"}
      ]
    }
  ]
}"#;

fn mutate(text: &str, at: usize, with: char) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let i = at % chars.len();
    chars[i] = with;
    chars.into_iter().collect()
}

#[test]
fn the_valid_file_parses() {
    let file = vectors::parse("valid.json", VALID).unwrap();
    assert_eq!(file.algorithm, "AES-GCM");
    assert_eq!(file.len(), 2);
}

proptest! {
    #[test]
    fn arbitrary_text_parses_or_explains(text in any::<String>()) {
        if let Err(e) = vectors::parse("fuzz.json", &text) {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn mutated_files_parse_or_explain(at in any::<usize>(), with in any::<char>(), cut in any::<usize>()) {
        let mutated = mutate(VALID, at, with);
        if let Err(e) = vectors::parse("fuzz.json", &mutated) {
            prop_assert!(!e.to_string().is_empty());
        }
        let truncated: String = VALID.chars().take(cut % VALID.len()).collect();
        prop_assert!(vectors::parse("fuzz.json", &truncated).is_err());
    }
}
