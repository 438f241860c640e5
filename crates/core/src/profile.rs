//! What suites and papers say about themselves, as data.
//!
//! Every suite used to forward five trait methods to its own constants and
//! modules (`name` to `SUITE`, `summarize` to `summary::tables`, ...), and
//! every paper three (`name`, `title`, `seed_counts`). A [`SuiteProfile`] or
//! [`PaperProfile`] states them once, in one method of the `impl`; the
//! traits' `name`, `about`, `summarize`, ... read it, and a suite that wraps
//! another hands on the inner suite's profile instead of forwarding each
//! method.

use crate::chart::Chart;
use crate::model::Measurement;
use crate::paper_method::SeedCounts;
use crate::table::Table;

/// A view of the finished measurements: tables, headline lines or charts.
pub type View<T> = fn(&[Measurement]) -> Vec<T>;

/// A suite's name, its one-line description and its three views of the
/// finished measurements.
#[derive(Clone, Copy)]
pub struct SuiteProfile {
    /// Name on the command line (`hash`, `cipher`, ...).
    pub name: &'static str,
    /// One line for `list` and `--help`.
    pub about: &'static str,
    /// Suite-specific tables (seed-shaped tables, rankings); the generic
    /// per-case table is drawn anyway.
    pub tables: View<Table>,
    /// A few lines for the one-screen summary of `cryptobench run`, each
    /// citing its measurement.
    pub headline: View<String>,
    /// Suite-specific charts for the HTML report.
    pub charts: View<Chart>,
}

impl SuiteProfile {
    /// The profile of a suite with no views of its own; add them with
    /// [`SuiteProfile::views`].
    pub const fn new(name: &'static str, about: &'static str) -> Self {
        Self {
            name,
            about,
            tables: no_view,
            headline: no_view,
            charts: no_view,
        }
    }

    /// This profile with these three views. They differ in type, so they
    /// cannot be given in the wrong order; [`no_view`] stands for one a
    /// suite does not have.
    pub const fn views(
        self,
        tables: View<Table>,
        headline: View<String>,
        charts: View<Chart>,
    ) -> Self {
        Self {
            tables,
            headline,
            charts,
            ..self
        }
    }
}

/// A paper's name, title and the seed's own counts.
#[derive(Clone, Copy)]
pub struct PaperProfile {
    /// Name on the command line (`openssl-vs-mcrypt`, `aegis`, ...).
    pub name: &'static str,
    /// Title of the experiment and its source document.
    pub title: &'static str,
    /// The seed's own counts for `--method seed`; `None` when the seed
    /// states none.
    pub seed_counts: Option<SeedCounts>,
}

impl PaperProfile {
    /// The profile of a paper whose seed states no counts.
    pub const fn new(name: &'static str, title: &'static str) -> Self {
        Self {
            name,
            title,
            seed_counts: None,
        }
    }

    /// This profile with the seed's own counts.
    pub const fn seed_counts(self, counts: SeedCounts) -> Self {
        Self {
            seed_counts: Some(counts),
            ..self
        }
    }
}

/// The view of a suite that has none of this kind.
pub fn no_view<T>(_measurements: &[Measurement]) -> Vec<T> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_table(ms: &[Measurement]) -> Vec<Table> {
        vec![Table::new(format!("{} cases", ms.len()), ["x"])]
    }

    #[test]
    fn a_profile_calls_the_views_it_names_and_a_plain_one_has_none() {
        let with = SuiteProfile::new("s", "a suite").views(one_table, no_view, no_view);
        let tables = (with.tables)(&[]);
        assert_eq!(tables.len(), 1);
        assert_eq!(tables[0].title, "0 cases");
        let plain = SuiteProfile::new("s", "a suite");
        assert!((plain.tables)(&[]).is_empty());
        assert!((plain.headline)(&[]).is_empty());
        assert!((plain.charts)(&[]).is_empty());
    }
}
