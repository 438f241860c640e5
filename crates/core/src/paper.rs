//! The `paper` registry: each seed experiment as one [`Paper`].
//!
//! A paper names the suites (configured as the paper's experiment) that the
//! binary runs through the normal engine, then renders the published figures
//! from the seed beside this machine's, with a verdict line per conclusion.

use crate::model::Measurement;
use crate::suite::{RunConfig, Suite};
use crate::table::Table;
use crate::Error;

/// One experiment of a seed document.
pub trait Paper: Send + Sync {
    /// Name on the command line (`openssl-vs-mcrypt`, `aegis`, ...).
    fn name(&self) -> &'static str;
    /// Title of the experiment and its source document.
    fn title(&self) -> &'static str;
    /// The suites to run, configured for this experiment.
    fn suites(&self, cfg: &RunConfig) -> Result<Vec<Box<dyn Suite>>, Error>;
    /// Published table(s) beside this machine's, with conclusions as notes
    /// ("holds here" / "differs here: ...").
    fn render(&self, measurements: &[Measurement]) -> Vec<Table>;
}
