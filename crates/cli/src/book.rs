//! `gsolve book`: an opening book of a line game, written for `--book FILE`.

use crate::args::{BookArgs, OpponentArg};
use crate::failure::Failure;
use crate::progress::Bar;
use crate::rules::{board_options, load, setup_error};
use crate::tablebase::worded;
use gsolve_games::notation::PlainNotation;
use gsolve_games::text::excerpt;
use gsolve_rules::book::{LinesOfPlay, Opponent};
use gsolve_tablebase::write;
use std::time::Instant;

pub fn run(args: &BookArgs) -> Result<(), Failure> {
    let rules = load(&args.file)?;
    let name = args.file.display().to_string();
    let (size, map) = board_options(&rules, args.rows, args.cols, None)?;
    let what = match &args.position {
        Some(text) => format!("{name}: position {}", excerpt(text)),
        None => format!("{name}: the start"),
    };
    let s = gsolve_rules::setup(rules, size, map, args.position.as_deref()).map_err(|e| setup_error(&what, e))?;
    // Refused before the work, not after it.
    write::check_output(&args.output, args.force).map_err(|e| Failure::Input(worded(&e)))?;
    let started = Instant::now();
    let bar = Bar::new();
    let opponent = match args.opponent {
        None | Some(OpponentArg::Any) => Opponent::Any,
        Some(OpponentArg::Perfect) => Opponent::Perfect,
    };
    let play = LinesOfPlay::new(args.play.unwrap_or(0), opponent);
    let built = s.game.build_book(&s.position, args.plies, play, Some(&|p| bar.observe(p)));
    drop(bar);
    let book = built.map_err(|e| Failure::Input(format!("{what}: {e}")))?;
    let solved = started.elapsed();
    let _cleanup = crate::interrupt::remove_on_interrupt(&write::temporary_path(&args.output));
    let bytes = gsolve_analysis::book::write(&args.output, &book, args.force).map_err(|e| match e {
        e if !e.is_bad_file() => Failure::Input(format!("cannot write {}: {}", args.output.display(), worded(&e))),
        e => Failure::Other(anyhow::Error::new(e).context(format!("cannot write {}", args.output.display()))),
    })?;
    let start = s.game.book_key(&s.position).and_then(|key| book.get(key));
    let lines = match args.play {
        Some(play) if play > args.plies => format!(
            " and on the lines of play before ply {play}{}",
            if opponent == Opponent::Perfect { " against perfect play" } else { "" }
        ),
        _ => String::new(),
    };
    println!(
        "{}: {} positions within {} {}{lines} of {}{}, {bytes} bytes, solved in {:.1} s",
        args.output.display(),
        book.len(),
        book.plies(),
        if book.plies() == 1 { "ply" } else { "plies" },
        s.game.format_position(&s.position),
        start.map_or_else(String::new, |v| format!(" ({v} for the side to move)")),
        solved.as_secs_f64()
    );
    Ok(())
}
