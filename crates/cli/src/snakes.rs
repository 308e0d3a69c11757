//! `gsolve snakes`: each board by alpha-beta search, cut short where the snakes part.
//!
//! A file of several boards is solved a board per thread (each board its own game
//! and table), and the answers are printed in the file's order. A file of one board
//! is searched on every thread once its search proves long, sharing one table
//! (`crate::search`): the answer is exact whichever thread finishes first.

use crate::args::CaseArgs;
use crate::failure::Failure;
use crate::input;
use crate::progress::Bar;
use crate::report::write_error;
use gsolve_analysis::print::{CaseReport, Style};
use gsolve_engine::search::Searcher;
use gsolve_engine::Observer;
use gsolve_engine::Progress;
use gsolve_games::notation::PlainNotation;
use gsolve_games::snakes::{self, Mask, Snakes, SnakesBoard, SnakesTask};
use rayon::prelude::*;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicU64, Ordering};

pub fn run(args: &CaseArgs) -> Result<(), Failure> {
    let (text, name) = input::read(args.file.as_ref())?;
    let boards = snakes::parse_boards(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    if let Some(file) = &args.rules {
        // The board as examples/rules/snakes.toml writes it: heads `1` and `2`,
        // obstacles `#` (walls, as trails leave them), snake 1 to move.
        let cases = boards.iter().map(|board| (snakes::with_game(board, StartText), true)).collect();
        return crate::rules::contest(gsolve_analysis::GameKind::Snakes, file, cases, args.explain, args.json);
    }
    let style = Style::new(args.explain, args.json);
    let mut out = BufWriter::new(std::io::stdout().lock());
    if boards.len() == 1 || rayon::current_num_threads() == 1 {
        // One board at a time, a bar following each search.
        for (i, board) in boards.iter().enumerate() {
            let bar = Bar::new();
            let threads = rayon::current_num_threads();
            let solve = Solve { board, threads, case: i + 1, style, observer: Some(&|p| bar.observe(p)) };
            let text = snakes::with_game(board, solve)?;
            drop(bar);
            out.write_all(&text).map_err(write_error)?;
        }
    } else {
        // The bar counts boards solved.
        let bar = Bar::new();
        let done = AtomicU64::new(0);
        let total = boards.len() as u64;
        let solved: Vec<Result<Vec<u8>, Failure>> = boards
            .par_iter()
            .enumerate()
            .map(|(i, board): (usize, &SnakesBoard)| {
                let text = snakes::with_game(board, Solve { board, threads: 1, case: i + 1, style, observer: None });
                bar.observe(Progress::new("boards searched", done.fetch_add(1, Ordering::Relaxed) + 1, total));
                text
            })
            .collect();
        drop(bar);
        for text in solved {
            out.write_all(&text?).map_err(write_error)?;
        }
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

/// Solves a board; its case's text as printed.
struct Solve<'o> {
    board: &'o SnakesBoard,
    /// Threads the search may take (`crate::search`).
    threads: usize,
    case: usize,
    style: Style,
    observer: Option<Observer<'o>>,
}

impl SnakesTask for Solve<'_> {
    type Output = Result<Vec<u8>, Failure>;
    fn run<M: Mask>(self, game: Snakes<M>) -> Result<Vec<u8>, Failure> {
        let searcher = Searcher::with_table_entries(&game, snakes::SEARCH_TABLE_ENTRIES);
        let start = game.start();
        let helper = || Snakes::<M>::new(self.board);
        let value =
            crate::search::value(&searcher, &start, (self.threads, crate::search::ALONE), helper, self.observer);
        value.map_err(|e| Failure::Other(anyhow::anyhow!("{e}")))?;
        let report = CaseReport::new(self.case, |v| Snakes::verdict(&start, v), &game, &searcher, &start, self.style);
        let mut text = Vec::new();
        report.print(self.style, &mut text).map_err(write_error)?;
        Ok(text)
    }
}
