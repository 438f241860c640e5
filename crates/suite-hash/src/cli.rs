//! `cryptobench hash`: options of the hash suite.

use crate::HashSuite;
use cryptobench_core::{units, Error, RunConfig, SuiteAction};

/// Options of `cryptobench hash`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct HashArgs {
    /// Algorithms, comma-separated (SHA-256, SHA-512, SHA3-256, BLAKE2b-512); default all.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub algorithms: Option<String>,
    /// Message sizes, comma-separated (16, 1KiB, 8KiB, ...); default 16 B .. 16 KiB.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub sizes: Option<String>,
    /// Do not measure the `openssl speed` peer.
    #[arg(long = "no-peers", alias = "no-peer")]
    pub no_peer: bool,
}

/// Turns the options into the suite to benchmark.
pub fn command(args: &HashArgs, _cfg: &RunConfig) -> Result<SuiteAction, Error> {
    Ok(SuiteAction::Bench(vec![Box::new(suite_from(args)?)]))
}

/// The suite these options describe (validated).
pub fn suite_from(args: &HashArgs) -> Result<HashSuite, Error> {
    let sizes = match &args.sizes {
        Some(s) => {
            let v = units::parse_size_list_within(s, 1, units::MAX_MESSAGE_SIZE)
                .map_err(|e| Error::usage(format!("--sizes: {e}")))?;
            Some(v)
        }
        None => None,
    };
    let algorithms: Vec<String> = match &args.algorithms {
        Some(list) => list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        None => Vec::new(),
    };
    // An empty list would otherwise mean "all": say so instead of guessing.
    if args.algorithms.is_some() && algorithms.is_empty() {
        return Err(Error::usage(
            "--algorithms: an empty list (accepted: SHA-256, SHA-512, SHA3-256, BLAKE2b-512, comma-separated; omit the flag for all)",
        ));
    }
    let suite = HashSuite {
        algorithms,
        sizes,
        no_peer: args.no_peer,
    };
    // Resolve names now so a typo is a usage error before anything runs.
    cryptobench_core::Suite::plan(
        &suite,
        &RunConfig {
            backends: Some(vec![]),
            ..RunConfig::default()
        },
    )?;
    Ok(suite)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptobench_core::{CheckOutcome, Setup, Suite};

    #[test]
    fn every_backend_passes_its_vectors_and_agrees() {
        let cases = HashSuite::default().plan(&RunConfig::quick()).unwrap();
        let mut checked = 0;
        for c in cases
            .iter()
            .filter(|c| c.spec.backend != cryptobench_engine::build::peers::OPENSSL_SPEED)
        {
            let Setup::Ready(f) = &c.setup else {
                panic!("{} not ready", c.spec.primitive)
            };
            let checks = f().unwrap().checks();
            assert!(checks.iter().any(|x| x.name.starts_with("kat:")));
            let agreements = checks.iter().filter(|x| x.name.starts_with("agree:"));
            assert_eq!(agreements.count(), crate::backend::all().len() - 1);
            for x in checks {
                assert_eq!(
                    x.outcome,
                    CheckOutcome::Pass,
                    "{} {}: {} {}",
                    c.spec.primitive,
                    c.spec.backend,
                    x.name,
                    x.detail
                );
            }
            checked += 1;
        }
        let backends = crate::backend::all().len();
        assert_eq!(
            checked,
            crate::ALGORITHMS.len() * backends * crate::QUICK_SIZES.len()
        );
    }

    #[test]
    fn bad_names_and_sizes_are_usage_errors() {
        let e = suite_from(&HashArgs {
            algorithms: Some("sha265".into()),
            ..HashArgs::default()
        })
        .unwrap_err();
        assert!(e.to_string().contains("did you mean SHA-256"), "{e}");
        let e = suite_from(&HashArgs {
            sizes: Some("12QB".into()),
            ..HashArgs::default()
        })
        .unwrap_err();
        assert!(e.to_string().starts_with("--sizes:"), "{e}");
        assert!(suite_from(&HashArgs {
            sizes: Some("0".into()),
            ..HashArgs::default()
        })
        .is_err());
    }
}
