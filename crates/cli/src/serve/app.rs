//! What the server's handlers share: [`App`], made in the parent module and read by
//! [`super::api`]'s handlers.
//!
//! Uses no other module: the bottom of `serve`.

use gsolve_analysis::Analyzer;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// What the handlers share.
pub struct App {
    /// Answers every analysis; caches whole-game solves.
    pub(super) analyzer: Analyzer,
    /// One permit an analysis running (each may take a core for a second): an
    /// analysis that finds none is refused at once (`503`, `busy`) rather than
    /// queued, so that a burst of heavy requests cannot pile up work and memory.
    pub(super) slots: Arc<Semaphore>,
    /// How many analyses may run at once (the permits of `slots`).
    pub(super) slot_count: usize,
    /// One permit a body over [`super::api::SMALL_BODY`] being read.
    pub(super) large_bodies: Semaphore,
    /// With `--tablebase`: `{game, parameters, start}`, what the file answers.
    pub(super) tablebase: Option<serde_json::Value>,
}
