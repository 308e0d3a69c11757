//! `gsolve queens-case` and `gsolve chase`.

use crate::progress::Bar;
use crate::report::{write_error, CaseReport, Style};
use crate::{input, CaseArgs, Failure};
use gsolve_engine::retrograde::{self, Options};
use gsolve_engine::{Solution, Unmoves};
use gsolve_games::chase::{self, Chase};
use gsolve_games::queens_case::{self, QueensCase};
use std::collections::HashMap;
use std::io::{BufWriter, Write};

/// Solves every position of a game, with a progress bar on long solves.
fn solve<G: Unmoves + Sync>(game: &G) -> Solution {
    let bar = Bar::new();
    let observe = |p| bar.observe(p);
    retrograde::solve_with(game, &Options { progress: Some(&observe), ..Options::default() })
}

pub fn queens_case(args: &CaseArgs) -> Result<(), Failure> {
    let (text, name) = input::read(args.file.as_ref())?;
    let maps = queens_case::parse_maps(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    let style = Style::new(args.explain, args.json);
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (i, map) in maps.iter().enumerate() {
        let game = QueensCase::new(map);
        let solution = solve(&game);
        let verdict = |value| QueensCase::verdict(value).to_string();
        let report = CaseReport::new(i + 1, verdict, &game, &solution, &game.start(), style);
        report.print(style, &mut out).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}

pub fn chase(args: &CaseArgs) -> Result<(), Failure> {
    let (text, name) = input::read(args.file.as_ref())?;
    let cases = chase::parse_cases(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    let style = Style::new(args.explain, args.json);
    let mut out = BufWriter::new(std::io::stdout().lock());
    // One solve per board size answers every case of that size.
    let mut solved: HashMap<u32, (Chase, Solution)> = HashMap::new();
    for (i, case) in cases.iter().enumerate() {
        let (game, solution) = solved.entry(case.size).or_insert_with(|| {
            let game = Chase::new(case.size);
            let solution = solve(&game);
            (game, solution)
        });
        let report = CaseReport::new(i + 1, Chase::verdict, &*game, &*solution, &game.start(case), style);
        report.print(style, &mut out).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}
