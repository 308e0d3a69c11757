//! The contest commands the catalog judges (`gsolve chase` and the others with a
//! [`Entry::contest`]): one command each, made in `crate::args` from the catalog.

use crate::args::PursuitArgs;
use crate::failure::Failure;
use crate::input;
use crate::progress::Bar;
use crate::report::write_error;
use crate::rules;
use gsolve_analysis::catalog::{ContestError, Entry, Judging};
use gsolve_analysis::print::Style;
use gsolve_engine::Progress;
use std::io::{BufWriter, Write};

/// Judges the input of `entry`'s contest: by the built-in game, or with `--rules` by
/// a rules file, printing the same lines.
pub fn run(entry: &Entry, PursuitArgs { case: args, retrograde }: &PursuitArgs) -> Result<(), Failure> {
    let Some(contest) = entry.contest else {
        return Err(Failure::Other(anyhow::anyhow!("{} has no contest format", entry.name)));
    };
    let (text, name) = input::read(args.file.as_ref())?;
    if let Some(file) = &args.rules {
        let cases = (contest.rules_cases)(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
        return rules::contest(entry.kind, file, cases, args.explain, args.json);
    }
    let progress = || -> Box<dyn Fn(Progress) + Sync> {
        let bar = Bar::new();
        Box::new(move |p| bar.observe(p))
    };
    let judging = Judging { style: Style::new(args.explain, args.json), engine_only: *retrograde, progress: &progress };
    let mut out = BufWriter::new(std::io::stdout().lock());
    (contest.judge)(&text, &judging, &mut out).map_err(|e| match e {
        ContestError::Input(e) => Failure::Input(format!("{name}: {e}")),
        ContestError::Write(e) => write_error(e),
    })?;
    out.flush().map_err(write_error)
}
