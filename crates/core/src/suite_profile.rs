//! What a suite is called and how it reads its finished measurements, as
//! data.
//!
//! Every suite used to forward five trait methods to its own constants and
//! modules (`name` to `SUITE`, `summarize` to `summary::tables`, ...). A
//! [`SuiteProfile`] states that once, in one line of the suite's
//! `impl Suite`; [`crate::Suite`]'s `name`, `about`, `summarize`, `headline`
//! and `charts` read it, and a suite that wraps another hands on the inner
//! suite's profile instead of forwarding each method.

use crate::chart::Chart;
use crate::model::Measurement;
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
