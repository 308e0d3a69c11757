//! A rules game beside the built-in game it describes, the same work in one run
//! (docs/performance.md, "Rules games"): chase n = 20 and a 30×30 Queen's Case map solved whole
//! (as the front ends do: by bit rows, and by the engine's retrograde analysis
//! alone), the 4×4 pawns strong solve, the 7×7 snakes corners searched by
//! alpha-beta, and Breakthrough 4 × 6 searched by the bit-set core of step
//! games against the engine's search.
//!
//! Run: `cargo bench -p gsolve-benches --bench rules`
#![forbid(unsafe_code)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use gsolve_engine::search::Searcher;
use gsolve_engine::{retrograde, tiered};
use gsolve_games::chase::Chase;
use gsolve_games::pawns::Pawns;
use gsolve_games::pursuit::BitwiseOptions;
use gsolve_games::queens_case::QueensCase;
use gsolve_games::snakes::{parse_boards, Snakes};
use gsolve_rules::{compact, setup, solve_by_bit_rows, CompactTask, FastPath, Rules, RulesGame};
use std::hint::black_box;
use std::sync::Arc;

#[path = "../shared/queens_map.rs"]
mod queens_map;

/// Entries of both searchers' tables: the rules CLI's size (a rules position is
/// large), so that neither side pays for clearing a big table.
const TABLE: usize = 1 << 20;

fn rules(name: &str) -> Arc<Rules> {
    let path = format!("{}/../examples/rules/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    Arc::new(Rules::parse(&std::fs::read_to_string(path).unwrap()).unwrap())
}

/// A whole-game retrograde solve, as `gsolve rules` runs it: positions with the
/// smallest room that holds the game's pieces.
struct Retrograde;

impl CompactTask for Retrograde {
    type Output = gsolve_engine::Solution;
    fn run<const N: usize>(self, game: &RulesGame<N>) -> Self::Output {
        retrograde::solve(game)
    }
}

/// Every tier solved in memory, as `gsolve build --rules` does tier by tier.
struct Tiers;

impl CompactTask for Tiers {
    type Output = tiered::TiersInMemory<u32>;
    fn run<const N: usize>(self, game: &RulesGame<N>) -> Self::Output {
        tiered::solve_all(game)
    }
}

/// The game of a rules file set up at a position.
fn rules_game(name: &str, position: &str) -> (RulesGame, gsolve_rules::RulesPosition) {
    let set = setup(rules(name), None, None, Some(position)).unwrap();
    (set.game, set.position)
}

/// Rows joined by `/`, then the side to move.
fn position(rows: &[Vec<char>], side: char) -> String {
    let rows: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    format!("{} {side}", rows.join("/"))
}

fn side_by_side(c: &mut Criterion) {
    let mut group = c.benchmark_group("rules");
    group.sample_size(10);

    // Chase n = 20: every position.
    let chase = Chase::new(20);
    let mut board = vec![vec!['.'; 20]; 20];
    board[0][0] = 'W';
    board[19][19] = 'B';
    let (chase_rules, _) = rules_game("chase", &position(&board, 'w'));
    let options = retrograde::Options::default();
    group.bench_function("chase n=20 built-in bit rows", |b| {
        b.iter(|| black_box(&chase).solve_bitwise(&BitwiseOptions::unlimited()).unwrap())
    });
    group.bench_function("chase n=20 rules bit rows", |b| {
        b.iter(|| solve_by_bit_rows(black_box(&chase_rules), &options).expect("a pursuit"))
    });
    group.bench_function("chase n=20 built-in engine", |b| b.iter(|| retrograde::solve(black_box(&chase))));
    group.bench_function("chase n=20 rules engine", |b| b.iter(|| compact(black_box(&chase_rules), Retrograde)));

    // Queen's Case on a 30×30 map (the pursuit bench's map): every position.
    let (map, grid) = queens_map::queens_case_30();
    let queens = QueensCase::new(&map);
    let (queens_rules, _) = rules_game("queens-case", &position(&grid, 'q'));
    group.bench_function("queens-case 30x30 built-in bit rows", |b| {
        b.iter(|| black_box(&queens).solve_bitwise(&BitwiseOptions::unlimited()).unwrap())
    });
    group.bench_function("queens-case 30x30 rules bit rows", |b| {
        b.iter(|| solve_by_bit_rows(black_box(&queens_rules), &options).expect("a pursuit"))
    });
    group.bench_function("queens-case 30x30 built-in engine", |b| b.iter(|| retrograde::solve(black_box(&queens))));
    group
        .bench_function("queens-case 30x30 rules engine", |b| b.iter(|| compact(black_box(&queens_rules), Retrograde)));

    // Pawns 4×4: every position, tier by tier.
    let pawns = Pawns::new(4, 4);
    let (pawns_rules, _) = rules_game("pawns", "pppp/..../..../PPPP w");
    group.bench_function("pawns 4x4 built-in", |b| b.iter(|| tiered::solve_all(black_box(&pawns))));
    group.bench_function("pawns 4x4 rules", |b| b.iter(|| compact(black_box(&pawns_rules), Tiers)));

    // Snakes 7×7 from the corners: alpha-beta from the start.
    let mut cells = vec!["0"; 49];
    cells[0] = "1";
    cells[48] = "2";
    let snakes_board = parse_boards(&format!("7 7\n{}\n", cells.join(" "))).unwrap().remove(0);
    let snakes = Snakes::<u128>::new(&snakes_board);
    let mut grid = vec![vec!['.'; 7]; 7];
    grid[0][0] = '1';
    grid[6][6] = '2';
    let (snakes_rules, snakes_start) = rules_game("snakes", &position(&grid, '1'));
    group.bench_function("snakes 7x7 corners built-in", |b| {
        b.iter(|| Searcher::with_table_entries(black_box(&snakes), TABLE).value(&snakes.start()).unwrap())
    });
    group.bench_function("snakes 7x7 corners rules", |b| {
        b.iter(|| Searcher::with_table_entries(black_box(&snakes_rules), TABLE).value(&snakes_start).unwrap())
    });

    // Breakthrough 4 × 6 from the start (a loss in 18): the bit-set core of step
    // games against the engine's search of the general positions, each with a
    // fresh table (the core keeps its own with the game: a game set up again).
    let breakthrough = || setup(rules("breakthrough"), Some((4, 6)), None, None).unwrap();
    group.bench_function("breakthrough 4x6 rules bit-set core", |b| {
        b.iter_batched(
            breakthrough,
            |s| Searcher::with_table_entries(&s.game, 1 << 10).value(&s.position).unwrap(),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("breakthrough 4x6 rules general search", |b| {
        b.iter_batched(
            || {
                let s = breakthrough();
                (s.game.without(&[FastPath::BitCore]), s.position)
            },
            |(game, start)| Searcher::with_table_entries(&game, TABLE).value(&start).unwrap(),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, side_by_side);
criterion_main!(benches);
