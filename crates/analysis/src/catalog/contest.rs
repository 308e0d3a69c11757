//! Contest formats judged from the catalog: a game whose contest is answered by
//! solving each case's board whole (the two pursuits) has its judge here, and the
//! command line makes one command per judge (`gsolve chase`, `gsolve queens-case`)
//! from [`super::Entry::contest`]. Pawn chess and the two snakes keep commands of
//! their own: they search rather than solve whole, on every thread, and pawn chess
//! also counts whole boards (`--summary`).
//!
//! A judge reads the whole input first (a malformed case is reported before any
//! answer is printed), then answers each case in the input's order.

use crate::print::{CaseReport, Style};
use crate::CatalogGame;
use gsolve_engine::retrograde::{self, Options};
use gsolve_engine::{Progress, Solution, Unmoves};
use gsolve_games::chase::{self, Chase, ChaseCase};
use gsolve_games::notation::DrawnBoard;
use gsolve_games::pursuit::BitwiseOptions;
use gsolve_games::queens_case::{self, Map, QueensCase};
use std::collections::HashMap;
use std::io::{self, Write};

/// A contest judged by solving: the command's help, the judge, and how its cases read
/// as positions of the game's rules file.
pub struct Contest {
    /// The command's one-line help.
    pub about: &'static str,
    /// The command's long help: the input and output formats and their limits.
    pub long_about: &'static str,
    /// Each case of an input as a position of the game's file in examples/rules/
    /// (answered by the rules instead of the built-in game), with whether the
    /// contest's first side is to move.
    pub rules_cases: fn(&str) -> Result<Vec<RulesCase>, String>,
    /// Answers every case of an input.
    pub judge: fn(&str, &Judging<'_>, &mut dyn Write) -> Result<(), ContestError>,
}

impl std::fmt::Debug for Contest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Contest").field("about", &self.about).finish_non_exhaustive()
    }
}

/// A contest case as a position of the game's rules file, and whether the
/// contest's first side is to move.
pub type RulesCase = (String, bool);

/// How a judge answers.
pub struct Judging<'a> {
    /// What each case prints.
    pub style: Style,
    /// Every board solved by the engine's retrograde analysis, as `build` does,
    /// instead of the fastest exact way for each case; the answers are the same.
    pub engine_only: bool,
    /// A fresh progress display for each solve (dropped when the solve ends).
    pub progress: &'a dyn Fn() -> Box<dyn Fn(Progress) + Sync + 'a>,
}

/// Why a judge stopped.
#[derive(Debug, thiserror::Error)]
pub enum ContestError {
    /// The input is malformed: what and where.
    #[error("{0}")]
    Input(String),
    /// The answers could not be written.
    #[error(transparent)]
    Write(#[from] io::Error),
}

impl Judging<'_> {
    /// Every position of `game` by the engine's retrograde analysis.
    fn engine_solve<G: Unmoves + Sync>(&self, game: &G) -> Solution {
        let observe = (self.progress)();
        retrograde::solve_with(game, &Options { progress: Some(&*observe), ..Options::default() })
    }

    /// Every position of `game` the catalog's way (bit rows within their budget).
    fn whole_solve<G: CatalogGame>(&self, game: &G) -> Solution {
        let observe = (self.progress)();
        game.solve_whole(Some(&*observe)).0
    }

    /// A bit-parallel solve within `budget`.
    fn bit_parallel<T>(&self, budget: u64, run: impl FnOnce(&BitwiseOptions<'_>) -> Option<T>) -> Option<T> {
        let observe = (self.progress)();
        let observe = |p| observe(p);
        run(&BitwiseOptions { budget, progress: Some(&observe) })
    }
}

// ---------------------------------------------------------------------------------
// Queen's Case (JAG, HDU 3514)

pub(super) static QUEENS_CASE: Contest = Contest {
    about: "Queen's Case (HDU 3514): can the queen escape the army?",
    long_about: "Queen's Case (HDU 3514): can the queen escape the army?\n\n\
        Input: maps `W H` + H rows of `. # E Q A`, until end of input or `0 0`.\n\
        Output per map: `Queen can escape.`, `Army can catch Queen.` or\n\
        `Queen can not escape and Army can not catch Queen.`\n\
        Maps up to 1000x1000 with at most 20,000 open cells.",
    rules_cases: queens_rules_cases,
    judge: judge_queens_case,
};

fn judge_queens_case(text: &str, judging: &Judging<'_>, out: &mut dyn Write) -> Result<(), ContestError> {
    let maps = queens_case::parse_maps(text).map_err(|e| ContestError::Input(e.to_string()))?;
    for (i, map) in maps.iter().enumerate() {
        let game = QueensCase::new(map);
        // The contest line needs only the start's value, not the line of play the
        // other styles print: an escape that walking distances prove needs no
        // solve, and the bit-parallel solve stops once the start is decided (on
        // open maps, within its budget; else the whole map is solved).
        if judging.style == Style::Contest && !judging.engine_only {
            let start = game.start();
            let answer = if game.escape_by_distance(&start).is_some() {
                queens_case::QUEEN_ESCAPES
            } else {
                let bitwise = game
                    .bitwise_budget()
                    .and_then(|budget| judging.bit_parallel(budget, |o| game.value_bitwise(&start, o)));
                QueensCase::verdict(bitwise.unwrap_or_else(|| {
                    judging.engine_solve(&game).value_of(&game, &start).expect("every position is solved")
                }))
            };
            writeln!(out, "{answer}")?;
            continue;
        }
        let solution = if judging.engine_only { judging.engine_solve(&game) } else { judging.whole_solve(&game) };
        let verdict = |value| QueensCase::verdict(value).to_string();
        let report = CaseReport::new(i + 1, verdict, &game, &solution, &game.start(), judging.style);
        report.print(judging.style, out)?;
    }
    Ok(())
}

/// Each map as a position of examples/rules/queens-case.toml: the map drawn with
/// `Q` and `A` on their cells (as the game draws itself), the queen to move.
fn queens_rules_cases(text: &str) -> Result<Vec<RulesCase>, String> {
    let maps = queens_case::parse_maps(text).map_err(|e| e.to_string())?;
    Ok(maps.iter().map(|map| (queens_rules_position(map), true)).collect())
}

fn queens_rules_position(map: &Map) -> String {
    let game = QueensCase::new(map);
    format!("{} q", game.drawn_rows(&game.start()).join("/"))
}

// ---------------------------------------------------------------------------------
// Chase (CQOI 2013)

pub(super) static CHASE: Contest = Contest {
    about: "CQOI 2013 board game: white (1 step) against black (1 or 2 steps)",
    long_about: "CQOI 2013 board game: white (1 step) against black (1 or 2 steps).\n\n\
        Input per case: `n r1 c1 r2 c2`. Output: `WHITE x`, `BLACK x` or `DRAW`,\n\
        x = plies including the capture. Boards 2 ≤ n ≤ 100.",
    rules_cases: chase_rules_cases,
    judge: judge_chase,
};

/// Cases of one chase board size that are each solved alone: the bit-parallel
/// solve of a start costs more than half of the whole board's, so two cases
/// already pay for the whole board.
const FEW_CASES: usize = 1;

fn judge_chase(text: &str, judging: &Judging<'_>, out: &mut dyn Write) -> Result<(), ContestError> {
    let cases = chase::parse_cases(text).map_err(|e| ContestError::Input(e.to_string()))?;
    // One solve per board size answers every case of that size.
    let mut solved: HashMap<u32, (Chase, Solution)> = HashMap::new();
    // Cases a board size: a few are answered one by one, many by one solve.
    let mut per_size: HashMap<u32, usize> = HashMap::new();
    for case in &cases {
        *per_size.entry(case.size).or_default() += 1;
    }
    for (i, case) in cases.iter().enumerate() {
        // The contest line needs only the start's value: the bit-parallel solve
        // stops once the start is decided; for the other styles (they print the
        // line of play), or for a size with more than `FEW_CASES` cases, the whole
        // board is solved, bit-parallel unless a start already went over the
        // budget (the whole board would too), else by the engine.
        let mut bitwise_pays = !judging.engine_only;
        if judging.style == Style::Contest
            && bitwise_pays
            && per_size[&case.size] <= FEW_CASES
            && !solved.contains_key(&case.size)
        {
            let game = Chase::new(case.size);
            if let Some(value) =
                judging.bit_parallel(game.bitwise_budget(), |o| game.value_bitwise(&game.start(case), o))
            {
                writeln!(out, "{}", Chase::verdict(value))?;
                continue;
            }
            bitwise_pays = false;
        }
        let (game, solution) = solved.entry(case.size).or_insert_with(|| {
            let game = Chase::new(case.size);
            let solution = if bitwise_pays { judging.whole_solve(&game) } else { judging.engine_solve(&game) };
            (game, solution)
        });
        let report = CaseReport::new(i + 1, Chase::verdict, &*game, &*solution, &game.start(case), judging.style);
        report.print(judging.style, out)?;
    }
    Ok(())
}

/// Each case as a position of examples/rules/chase.toml: `W` and `B` on the n×n
/// board as the game draws itself, white to move.
fn chase_rules_cases(text: &str) -> Result<Vec<RulesCase>, String> {
    let cases = chase::parse_cases(text).map_err(|e| e.to_string())?;
    Ok(cases.iter().map(|case| (chase_rules_position(case), true)).collect())
}

fn chase_rules_position(case: &ChaseCase) -> String {
    let game = Chase::new(case.size);
    format!("{} w", game.drawn_rows(&game.start(case)).join("/"))
}
