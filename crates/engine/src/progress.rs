//! Progress reports from long solves.
//!
//! A solver calls the observer now and then from any of its threads; the observer
//! decides how to show it (the CLI draws an indicatif bar). Reports of one step have
//! non-decreasing `done` and a fixed `total`.

/// One progress report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The named step of the algorithm, e.g. `"initialize"`.
    pub step: &'static str,
    /// Work units finished in this step.
    pub done: u64,
    /// Work units in this step.
    pub total: u64,
}

/// Receives progress reports. Must be callable from several threads at once.
pub type Observer<'a> = &'a (dyn Fn(Progress) + Sync);

/// Calls the observer, if there is one.
#[inline]
pub(crate) fn report(observer: Option<Observer<'_>>, step: &'static str, done: u64, total: u64) {
    if let Some(f) = observer {
        f(Progress { step, done, total });
    }
}
