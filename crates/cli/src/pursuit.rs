//! `gsolve queens-case` and `gsolve chase`.

use crate::progress::{self, Bar};
use crate::report::{write_error, CaseReport, Style};
use crate::rules;
use crate::{input, Failure, PursuitArgs};
use gsolve_analysis::{CatalogGame, GameKind};
use gsolve_engine::retrograde::{self, Options};
use gsolve_engine::{Solution, Unmoves};
use gsolve_games::chase::{self, Chase, ChaseCase};
use gsolve_games::pursuit::BitwiseOptions;
use gsolve_games::queens_case::{self, Cell, Map, QueensCase};
use std::collections::HashMap;
use std::io::{BufWriter, Write};

/// Solves every position of a game, with a progress bar on long solves.
fn solve<G: Unmoves + Sync>(game: &G) -> Solution {
    let bar = Bar::new();
    let observe = |p| bar.observe(p);
    retrograde::solve_with(game, &Options { progress: Some(&observe), ..Options::default() })
}

/// Solves every position the catalog's way (bit rows within their budget), with a
/// progress bar on long solves.
fn solve_whole<G: CatalogGame>(game: &G) -> Solution {
    let bar = Bar::new();
    game.solve_whole(Some(&|p| bar.observe(p))).0
}

/// Runs a bit-parallel solve within `budget`, with a progress bar on long solves.
fn bit_parallel<T>(budget: u64, run: impl FnOnce(&BitwiseOptions<'_>) -> Option<T>) -> Option<T> {
    progress::bit_parallel(&Bar::new(), budget, run)
}

pub fn queens_case(PursuitArgs { case: args, retrograde }: &PursuitArgs) -> Result<(), Failure> {
    let (text, name) = input::read(args.file.as_ref())?;
    let maps = queens_case::parse_maps(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    if let Some(file) = &args.rules {
        let cases = maps.iter().map(|map| (queens_text(map), true)).collect();
        return rules::contest(GameKind::QueensCase, file, cases, args.explain, args.json);
    }
    let style = Style::new(args.explain, args.json);
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (i, map) in maps.iter().enumerate() {
        let game = QueensCase::new(map);
        // The contest line needs only the start's value, not the line of play the
        // other styles print: an escape that walking distances prove needs no
        // solve, and the bit-parallel solve stops once the start is decided (on
        // open maps, within its budget; else the whole map is solved).
        if style == Style::Contest && !retrograde {
            let start = game.start();
            let answer = if game.escape_by_distance(&start).is_some() {
                queens_case::QUEEN_ESCAPES
            } else {
                let bitwise =
                    game.bitwise_budget().and_then(|budget| bit_parallel(budget, |o| game.value_bitwise(&start, o)));
                QueensCase::verdict(
                    bitwise.unwrap_or_else(|| solve(&game).value_of(&game, &start).expect("every position is solved")),
                )
            };
            writeln!(out, "{answer}").map_err(write_error)?;
            continue;
        }
        let solution = if *retrograde { solve(&game) } else { solve_whole(&game) };
        let verdict = |value| QueensCase::verdict(value).to_string();
        let report = CaseReport::new(i + 1, verdict, &game, &solution, &game.start(), style);
        report.print(style, &mut out).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}

/// Cases of one chase board size that are each solved alone: the bit-parallel
/// solve of a start costs about 60% of the whole board's (n = 100: 2.5 s and 83 MB
/// against 4.2 s and 474 MB), so two cases already pay for the whole board.
const FEW_CASES: usize = 1;

pub fn chase(PursuitArgs { case: args, retrograde }: &PursuitArgs) -> Result<(), Failure> {
    let (text, name) = input::read(args.file.as_ref())?;
    let cases = chase::parse_cases(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    if let Some(file) = &args.rules {
        let cases = cases.iter().map(|case| (chase_text(case), true)).collect();
        return rules::contest(GameKind::Chase, file, cases, args.explain, args.json);
    }
    let style = Style::new(args.explain, args.json);
    let mut out = BufWriter::new(std::io::stdout().lock());
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
        let mut bitwise_pays = !retrograde;
        if style == Style::Contest
            && bitwise_pays
            && per_size[&case.size] <= FEW_CASES
            && !solved.contains_key(&case.size)
        {
            let game = Chase::new(case.size);
            if let Some(value) = bit_parallel(game.bitwise_budget(), |o| game.value_bitwise(&game.start(case), o)) {
                writeln!(out, "{}", Chase::verdict(value)).map_err(write_error)?;
                continue;
            }
            bitwise_pays = false;
        }
        let (game, solution) = solved.entry(case.size).or_insert_with(|| {
            let game = Chase::new(case.size);
            let solution = if bitwise_pays { solve_whole(&game) } else { solve(&game) };
            (game, solution)
        });
        let report = CaseReport::new(i + 1, Chase::verdict, &*game, &*solution, &game.start(case), style);
        report.print(style, &mut out).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}

/// A Queen's Case map as a position of examples/rules/queens-case.toml: the map's
/// rows with `Q` and `A` on their cells, the queen to move.
fn queens_text(map: &Map) -> String {
    let game = QueensCase::new(map);
    let start = game.start();
    let (queen, army) = (game.coord(start.queen), game.coord(start.army));
    let rows: Vec<String> = (0..map.height())
        .map(|r| {
            (0..map.width())
                .map(|c| {
                    let here = |at: gsolve_games::notation::Coord| at.row == r + 1 && at.col == c + 1;
                    match map.cell(r, c) {
                        _ if here(queen) => 'Q',
                        _ if here(army) => 'A',
                        Cell::Wall => '#',
                        Cell::Exit => 'E',
                        Cell::Floor => '.',
                    }
                })
                .collect()
        })
        .collect();
    format!("{} q", rows.join("/"))
}

/// A chase case as a position of examples/rules/chase.toml: `W` and `B` on an n×n
/// board, white to move.
fn chase_text(case: &ChaseCase) -> String {
    let n = case.size as usize;
    let mut rows = vec![vec!['.'; n]; n];
    rows[case.white.row as usize - 1][case.white.col as usize - 1] = 'W';
    rows[case.black.row as usize - 1][case.black.col as usize - 1] = 'B';
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    format!("{} w", rows.join("/"))
}
