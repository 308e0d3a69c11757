//! One position's alpha-beta search on every thread, once it proves long.

use gsolve_engine::search::{SearchError, SearchHooks, Searcher};
use gsolve_engine::{Observer, Value};

/// Positions a search visits on the calling thread alone before the other threads
/// join it, by default. A search this short is over before a second thread would
/// pay for its start and for moving the table to a shared one. Games with a big
/// table wait longer (the pawns: [`crate::pawns`]).
pub const ALONE: u64 = 1 << 16;

/// The value of `start` by `searcher`: on the calling thread alone up to `alone`
/// positions, then on `threads` threads, the others each with a game made by
/// `helper` ([`Searcher::value_in_parallel`]); what the short search found stays
/// in the table. One thread: the plain search.
pub fn value<G>(
    searcher: &Searcher<'_, G>,
    start: &G::Position,
    (threads, alone): (usize, u64),
    helper: impl Fn() -> G,
    observer: Option<Observer<'_>>,
) -> Result<Value, SearchError>
where
    G: SearchHooks + Send,
    G::Position: Send + Sync,
{
    if threads <= 1 {
        return searcher.value_with_progress(start, observer);
    }
    searcher.set_node_limit(Some(alone));
    let alone = searcher.value_with_progress(start, observer);
    searcher.set_node_limit(None);
    match alone {
        Err(SearchError::OutOfBudget { .. }) => {
            searcher.value_in_parallel(start, (1..threads).map(|_| helper()).collect(), observer)
        }
        other => other,
    }
}
