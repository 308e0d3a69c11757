//! Turns the engine's progress reports into an indicatif bar (or, for a search, a
//! spinner) on standard error.
//!
//! The bar stays hidden (unmade) for the first half second, so quick solves print
//! nothing, and whenever standard error is not a terminal. Reports with a total draw a bar
//! with a percentage; a search (no total) draws the positions visited and what is
//! known of the value so far.

use gsolve_engine::{Progress, Value};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A solve shorter than this shows no progress at all.
const SHOW_AFTER: Duration = Duration::from_millis(500);

/// A progress display that follows the steps of one solve.
///
/// The indicatif bar is made only when it is first drawn: a quick solve (most
/// contest cases) never builds one, which keeps their processes small (the bar's
/// setup is a noticeable part of a small case's memory).
pub struct Bar {
    started: Instant,
    /// The step shown, and the bar once drawn.
    shown: Mutex<(&'static str, Option<ProgressBar>)>,
    terminal: bool,
}

impl Bar {
    /// A display for a solve; nothing is drawn until it has run for half a second.
    pub fn new() -> Self {
        Bar { started: Instant::now(), shown: Mutex::new(("", None)), terminal: std::io::stderr().is_terminal() }
    }

    /// Takes one report from any thread.
    pub fn observe(&self, p: Progress) {
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        if shown.1.is_none() {
            if !self.terminal || self.started.elapsed() < SHOW_AFTER {
                return;
            }
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(120));
            *shown = ("", Some(bar));
        }
        let (step, Some(bar)) = &mut *shown else { return };
        if *step != p.step {
            *step = p.step;
            bar.set_style(style(p.total));
            bar.set_length(p.total);
            bar.set_position(0);
            bar.reset_elapsed();
            bar.set_message(p.step);
        }
        if let Some((worst, best)) = p.bounds {
            bar.set_message(format!("{}: {}", p.step, bounds_text(worst, best)));
        }
        if p.done > bar.position() {
            bar.set_position(p.done);
        }
    }
}

impl Default for Bar {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        let shown = self.shown.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(bar) = &shown.1 {
            bar.finish_and_clear();
        }
    }
}

/// A bar with a percentage when the total is known, a spinner with a count when not.
fn style(total: u64) -> ProgressStyle {
    let template = if total > 0 {
        "{msg:>12} [{elapsed_precise}] {wide_bar} {percent:>3}% ({rate})"
    } else {
        "{spinner} {msg} [{elapsed_precise}] {count} positions ({rate})"
    };
    ProgressStyle::with_template(template)
        .expect("valid template")
        .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{}/s", human(state.per_sec()));
        })
        .with_key("count", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&human(state.pos() as f64));
        })
}

/// A count for people: `950`, `12.8 k`, `3.07 M`, `1.20 G`.
pub fn human(x: f64) -> String {
    let (value, unit) = match x {
        x if x >= 1e9 => (x / 1e9, " G"),
        x if x >= 1e6 => (x / 1e6, " M"),
        x if x >= 1e4 => (x / 1e3, " k"),
        x => return format!("{x:.0}"),
    };
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.digits$}{unit}")
}

/// What a search knows of a value from its bounds (the worst and the best the side
/// to move can get): `a win in at most 19 plies`, `a loss in 12 to 30 plies`.
pub fn bounds_text(worst: Value, best: Value) -> String {
    match (worst, best) {
        (Value::Win(slow), Value::Win(fast)) if slow == fast => format!("win in {slow}"),
        (Value::Win(slow), Value::Win(0)) => format!("a win in at most {slow} plies"),
        (Value::Win(slow), Value::Win(fast)) => format!("a win in {fast} to {slow} plies"),
        (Value::Loss(fast), Value::Loss(slow)) if fast == slow => format!("loss in {fast}"),
        (Value::Loss(0), Value::Loss(slow)) => format!("a loss in at most {slow} plies"),
        (Value::Loss(fast), Value::Loss(slow)) => format!("a loss in {fast} to {slow} plies"),
        (worst, best) => format!("between {worst} and {best}"),
    }
}

/// A one-line account of a report, for displays that draw their own (the terminal
/// game): `search: 3.07 M positions, a win in at most 19 plies`.
pub fn describe(p: &Progress, elapsed: Duration) -> String {
    let mut text = String::from(p.step);
    if p.total > 0 {
        let _ = write!(text, ": {}%", p.done * 100 / p.total.max(1));
    } else {
        let _ = write!(text, ": {} positions", human(p.done as f64));
    }
    let seconds = elapsed.as_secs_f64();
    if seconds > 0.0 && p.total == 0 {
        let _ = write!(text, " ({}/s)", human(p.done as f64 / seconds));
    }
    if let Some((worst, best)) = p.bounds {
        let _ = write!(text, ", {}", bounds_text(worst, best));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_counts_read_as_numbers() {
        assert_eq!(human(12_759_584.979_7), "12.8 M");
        assert_eq!(human(950.4), "950");
        assert_eq!(human(45_300.0), "45.3 k");
        assert_eq!(human(3_204_289_362.0), "3.20 G");
        assert_eq!(human(150_000_000.0), "150 M");
    }

    #[test]
    fn bounds_say_what_is_known() {
        assert_eq!(bounds_text(Value::Win(19), Value::Win(0)), "a win in at most 19 plies");
        assert_eq!(bounds_text(Value::Win(21), Value::Win(17)), "a win in 17 to 21 plies");
        assert_eq!(bounds_text(Value::Loss(0), Value::Loss(30)), "a loss in at most 30 plies");
        assert_eq!(bounds_text(Value::Loss(12), Value::Loss(30)), "a loss in 12 to 30 plies");
        assert_eq!(bounds_text(Value::Loss(3), Value::Win(5)), "between loss in 3 and win in 5");
    }

    #[test]
    fn a_search_report_reads_as_a_sentence() {
        let p = Progress { bounds: Some((Value::Win(19), Value::Win(0))), ..Progress::new("search", 3_070_000, 0) };
        assert_eq!(
            describe(&p, Duration::from_secs(1)),
            "search: 3.07 M positions (3.07 M/s), a win in at most 19 plies"
        );
        assert_eq!(describe(&Progress::new("propagate", 50, 200), Duration::from_secs(1)), "propagate: 25%");
    }
}
