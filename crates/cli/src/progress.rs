//! Turns the engine's progress reports into an indicatif bar on standard error.

use gsolve_engine::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;

/// Solves with fewer indices than this finish in well under a second: no bar.
const MIN_INDICES_FOR_BAR: u64 = 20_000_000;

/// A progress bar that follows the steps of one solve; draws nothing when standard
/// error is not a terminal or the solve is small.
pub struct Bar {
    bar: ProgressBar,
    step: Mutex<&'static str>,
}

impl Bar {
    /// A bar for a solve over `indices` positions.
    pub fn new(indices: u64) -> Self {
        let visible = indices >= MIN_INDICES_FOR_BAR && std::io::stderr().is_terminal();
        let target = if visible { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
        let bar = ProgressBar::with_draw_target(Some(indices), target);
        bar.set_style(
            ProgressStyle::with_template("{msg:>12} [{elapsed_precise}] {wide_bar} {percent:>3}% ({per_sec})")
                .expect("valid template"),
        );
        Bar { bar, step: Mutex::new("") }
    }

    /// Takes one report from any thread.
    pub fn observe(&self, p: Progress) {
        let mut step = self.step.lock().unwrap_or_else(|e| e.into_inner());
        if *step != p.step {
            *step = p.step;
            self.bar.set_message(p.step);
            self.bar.set_length(p.total);
            self.bar.set_position(0);
        }
        if p.done > self.bar.position() {
            self.bar.set_position(p.done);
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
