//! `gsolve snakes`: each board by alpha-beta search, cut short where the snakes part.

use crate::progress::Bar;
use crate::report::{write_error, CaseReport, Style};
use crate::{input, CaseArgs, Failure};
use gsolve_engine::search::Searcher;
use gsolve_games::notation::PlainNotation;
use gsolve_games::snakes::{self, Mask, Snakes, SnakesTask};
use std::io::{BufWriter, Write};

pub fn run(args: &CaseArgs) -> Result<(), Failure> {
    let (text, name) = input::read(args.file.as_ref())?;
    let boards = snakes::parse_boards(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    if let Some(file) = &args.rules {
        // The board as examples/rules/snakes.toml writes it: heads `1` and `2`,
        // obstacles `#` (walls, as trails leave them), snake 1 to move.
        let cases = boards.iter().map(|board| (snakes::with_game(board, StartText), true)).collect();
        return crate::rules::contest(crate::rules::Contest::Snakes, file, cases, args.explain, args.json);
    }
    let style = Style::new(args.explain, args.json);
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (i, board) in boards.iter().enumerate() {
        snakes::with_game(board, Solve { case: i + 1, style, out: &mut out })?;
    }
    out.flush().map_err(write_error)
}

/// The start of a board in plain notation.
struct StartText;

impl SnakesTask for StartText {
    type Output = String;
    fn run<M: Mask>(self, game: Snakes<M>) -> String {
        game.format_position(&game.start())
    }
}

/// Solves a board and prints its case.
struct Solve<'a, W> {
    case: usize,
    style: Style,
    out: &'a mut W,
}

impl<W: Write> SnakesTask for Solve<'_, W> {
    type Output = Result<(), Failure>;
    fn run<M: Mask>(self, game: Snakes<M>) -> Result<(), Failure> {
        let searcher = Searcher::new(&game);
        let start = game.start();
        let bar = Bar::new();
        searcher
            .value_with_progress(&start, Some(&|p| bar.observe(p)))
            .map_err(|e| Failure::Other(anyhow::anyhow!("{e}")))?;
        drop(bar);
        let report = CaseReport::new(self.case, |v| Snakes::verdict(&start, v), &game, &searcher, &start, self.style);
        report.print(self.style, self.out).map_err(write_error)
    }
}
