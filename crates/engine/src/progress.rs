//! Progress reports from long solves.
//!
//! A solver calls the observer now and then from any of its threads; the observer
//! decides how to show it (the CLI draws an indicatif bar or spinner). Reports of one
//! step have non-decreasing `done` and a fixed `total`.

use crate::value::Value;

/// One progress report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The named step of the algorithm, e.g. `"initialize"`.
    pub step: &'static str,
    /// Work units finished in this step (positions; for a search, positions visited).
    pub done: u64,
    /// Work units in this step; 0 when not known in advance (a search).
    pub total: u64,
    /// For a search: the value of the position searched is known to lie between these
    /// two (the worst, then the best for its side to move); `None` before anything is
    /// known and for other solvers.
    pub bounds: Option<(Value, Value)>,
}

impl Progress {
    /// A report of `done` out of `total` units of `step`.
    pub fn new(step: &'static str, done: u64, total: u64) -> Self {
        Progress { step, done, total, bounds: None }
    }
}

/// Receives progress reports. Must be callable from several threads at once.
pub type Observer<'a> = &'a (dyn Fn(Progress) + Sync);

/// Calls the observer, if there is one.
#[inline]
pub fn report(observer: Option<Observer<'_>>, step: &'static str, done: u64, total: u64) {
    if let Some(f) = observer {
        f(Progress::new(step, done, total));
    }
}
