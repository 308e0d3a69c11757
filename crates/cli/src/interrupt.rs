//! Files to remove if the process is interrupted (Ctrl-C, SIGTERM, SIGHUP) before it
//! finishes them: a tablebase being written goes to a temporary name, and an
//! interrupted build must not leave it behind.
//!
//! A watcher thread waits for the signals (through tokio's signal handling, already
//! linked in for `serve`); on one, it removes every registered file, says so, and
//! ends the process with the shell's status for the signal (128 + its number).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// Paths to remove on an interrupt.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static WATCHER: Once = Once::new();

/// A registered path; dropping it unregisters the path (the work finished or
/// failed and cleaned up after itself).
pub struct RemoveOnInterrupt {
    path: PathBuf,
}

impl Drop for RemoveOnInterrupt {
    fn drop(&mut self) {
        let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = pending.iter().position(|p| *p == self.path) {
            pending.remove(at);
        }
    }
}

/// Removes `path` if the process is interrupted while the guard lives.
pub fn remove_on_interrupt(path: &Path) -> RemoveOnInterrupt {
    WATCHER.call_once(start_watcher);
    PENDING.lock().unwrap_or_else(|e| e.into_inner()).push(path.to_path_buf());
    RemoveOnInterrupt { path: path.to_path_buf() }
}

fn start_watcher() {
    let started = std::thread::Builder::new().name("interrupt".into()).spawn(|| {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_io().build() else { return };
        let signal = runtime.block_on(wait_for_signal());
        let pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        for path in pending.iter() {
            if std::fs::remove_file(path).is_ok() {
                eprintln!("gsolve: interrupted: removed the unfinished {}", path.display());
            }
        }
        std::process::exit(128 + signal);
    });
    if let Err(e) = started {
        eprintln!("gsolve: cannot watch for Ctrl-C ({e}): an interrupted build may leave its temporary file");
    }
}

/// Waits for SIGINT, SIGTERM or SIGHUP; returns its number.
#[cfg(unix)]
async fn wait_for_signal() -> i32 {
    use tokio::signal::unix::{signal, SignalKind};
    let kinds = [(SignalKind::interrupt(), 2), (SignalKind::terminate(), 15), (SignalKind::hangup(), 1)];
    let mut streams: Vec<(tokio::signal::unix::Signal, i32)> =
        kinds.into_iter().filter_map(|(kind, number)| signal(kind).ok().map(|s| (s, number))).collect();
    std::future::poll_fn(|cx| {
        for (stream, number) in &mut streams {
            if stream.poll_recv(cx).is_ready() {
                return std::task::Poll::Ready(*number);
            }
        }
        std::task::Poll::Pending
    })
    .await
}

#[cfg(not(unix))]
async fn wait_for_signal() -> i32 {
    let _ = tokio::signal::ctrl_c().await;
    2
}
