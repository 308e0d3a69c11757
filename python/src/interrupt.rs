//! Long work without the GIL, stopped by Ctrl-C.
//!
//! The work runs on a scoped worker thread. The calling thread releases the GIL
//! and waits for it, waking every [`POLL`] to let Python check its signals. On
//! Ctrl-C it raises a flag that the work's progress observer reads: the next
//! progress report unwinds the solve ([`std::panic::resume_unwind`], which runs no
//! panic hook and prints nothing), the worker thread catches the unwind, and the
//! caller gets `KeyboardInterrupt`. A solve stops at its next progress report
//! (retrograde and layered solves report every block of positions, searches every
//! few thousand nodes).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use gsolve_engine::{Observer, Progress};

/// How often the waiting thread lets Python look for signals.
const POLL: Duration = Duration::from_millis(50);

/// The payload of the unwind that stops interrupted work.
struct Interrupted;

/// What became of the work: its result, or why there is none.
pub(crate) enum Outcome<T> {
    /// The work finished.
    Done(T),
    /// Ctrl-C stopped it: the error is Python's `KeyboardInterrupt`.
    Interrupted(PyErr),
}

/// Runs `work` on a worker thread with the GIL released, stopping it on Ctrl-C.
/// `work` is given the observer to pass to the solvers. A panic in the work (a bug)
/// is a `RuntimeError`.
pub(crate) fn run<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(Option<Observer<'_>>) -> T + Send,
) -> PyResult<Outcome<T>> {
    let stop = AtomicBool::new(false);
    let observer = |_: Progress| {
        if stop.load(Ordering::Relaxed) {
            resume_unwind(Box::new(Interrupted));
        }
    };
    let finished = (Mutex::new(false), Condvar::new());
    let result = std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let result = catch_unwind(AssertUnwindSafe(|| work(Some(&observer))));
            let (done, wake) = &finished;
            *done.lock().unwrap_or_else(|e| e.into_inner()) = true;
            wake.notify_all();
            result
        });
        let mut interrupted = None;
        loop {
            let done = py.detach(|| {
                let (done, wake) = &finished;
                let guard = done.lock().unwrap_or_else(|e| e.into_inner());
                let (guard, _) = wake.wait_timeout_while(guard, POLL, |done| !*done).unwrap_or_else(|e| e.into_inner());
                *guard
            });
            if done {
                break;
            }
            if interrupted.is_none() {
                if let Err(error) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupted = Some(error);
                }
            }
        }
        let joined = py.detach(|| worker.join());
        (joined, interrupted)
    });
    match result {
        (Ok(Ok(value)), None) => Ok(Outcome::Done(value)),
        // Interrupted just as the work finished: Ctrl-C still stops the program.
        (Ok(Ok(_)), Some(error)) => Ok(Outcome::Interrupted(error)),
        (Ok(Err(payload)), Some(error)) if payload.is::<Interrupted>() => Ok(Outcome::Interrupted(error)),
        (Ok(Err(payload)), _) | (Err(payload), _) => {
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("a panic");
            Err(PyRuntimeError::new_err(format!("internal error: {message}")))
        }
    }
}
