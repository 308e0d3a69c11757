//! The two snakes: alpha-beta search from the start of a board.
//!
//! Run: `cargo bench -p gsolve-benches --bench snakes`
#![forbid(unsafe_code)]

use criterion::{criterion_group, criterion_main, Criterion};
use gsolve_engine::search::Searcher;
use gsolve_games::rng::SplitMix64;
use gsolve_games::snakes::{parse_boards, Mask, Mask256, Snakes, SnakesBoard, SEARCH_TABLE_ENTRIES};
use std::hint::black_box;

/// The empty rows×cols board, snake 1 top-left, snake 2 bottom-right.
fn corners(rows: u32, cols: u32) -> SnakesBoard {
    let mut cells = vec!["0"; (rows * cols) as usize];
    cells[0] = "1";
    cells[(rows * cols - 1) as usize] = "2";
    parse_boards(&format!("{rows} {cols}\n{}\n", cells.join(" "))).unwrap().remove(0)
}

/// An open rows×cols board (no obstacles) with the heads on random cells: open
/// regions are the hard ones (obstacles tend to part the snakes at once).
fn random_heads(rows: u32, cols: u32, seed: u64) -> SnakesBoard {
    let mut rng = SplitMix64::new(seed);
    let n = (rows * cols) as u64;
    let mut cells = vec![0u32; n as usize];
    for head in [1, 2] {
        loop {
            let i = rng.below(n) as usize;
            if cells[i] == 0 {
                cells[i] = head;
                break;
            }
        }
    }
    let text: Vec<String> = cells.iter().map(u32::to_string).collect();
    parse_boards(&format!("{rows} {cols}\n{}\n", text.join(" "))).unwrap().remove(0)
}

/// An open n×n board with, at its centre, a ring of obstacles around a k×k room
/// holding the heads in opposite corners.
fn room_board(n: usize, k: usize) -> SnakesBoard {
    let first = (n - k) / 2;
    let inside = |i: usize| (first..first + k).contains(&i);
    let ring = |i: usize| (first - 1..=first + k).contains(&i);
    let mut cells = vec!["0"; n * n];
    for r in 0..n {
        for c in 0..n {
            if ring(r) && ring(c) && !(inside(r) && inside(c)) {
                cells[r * n + c] = "9";
            }
        }
    }
    cells[first * n + first] = "1";
    cells[(first + k - 1) * n + first + k - 1] = "2";
    parse_boards(&format!("{n} {n}\n{}\n", cells.join(" "))).unwrap().remove(0)
}

/// The value of a board's start, searched with masks of type `M`.
fn solve_in<M: Mask>(board: &SnakesBoard) -> gsolve_engine::Value {
    let game = Snakes::<M>::new(board);
    let searcher = Searcher::with_table_entries(&game, SEARCH_TABLE_ENTRIES);
    searcher.value(&game.start()).unwrap()
}

/// The same on two threads sharing the table (as `gsolve snakes` searches one board).
fn solve_on_two_threads(board: &SnakesBoard) -> gsolve_engine::Value {
    let game = Snakes::<u128>::new(board);
    let searcher = Searcher::with_table_entries(&game, SEARCH_TABLE_ENTRIES);
    searcher.value_in_parallel(&game.start(), vec![Snakes::new(board)], None).unwrap()
}

fn solve(board: &SnakesBoard) -> gsolve_engine::Value {
    solve_in::<u128>(board)
}

fn snakes(c: &mut Criterion) {
    let mut group = c.benchmark_group("snakes");
    group.sample_size(10);
    let b6 = corners(6, 6);
    group.bench_function("6x6 corners", |b| b.iter(|| solve(black_box(&b6))));
    // 50 empty cells; five head placements (seeds 0..4) solved per iteration.
    let open: Vec<SnakesBoard> = (0..5).map(|seed| random_heads(4, 13, seed)).collect();
    group.bench_function("4x13 open, 50 empty cells, 5 random head placements", |b| {
        b.iter(|| open.iter().map(|board| solve(black_box(board))).collect::<Vec<_>>())
    });
    let b7 = corners(7, 7);
    group.bench_function("7x7 corners", |b| b.iter(|| solve(black_box(&b7))));
    let b8 = corners(8, 8);
    group.bench_function("8x8 corners", |b| b.iter(|| solve(black_box(&b8))));
    let b9 = corners(9, 9);
    group.bench_function("9x9 corners", |b| b.iter(|| solve(black_box(&b9))));
    group.bench_function("9x9 corners, two threads", |b| b.iter(|| solve_on_two_threads(black_box(&b9))));
    // The same board in 256-cell masks: what the wide masks cost.
    group.bench_function("8x8 corners, 256-cell masks", |b| b.iter(|| solve_in::<Mask256>(black_box(&b8))));
    // A board past 128 empty cells: a 14×14 open board around a walled 6×6 room
    // holding the heads in its corners (166 empty cells, 256-cell masks).
    let room = room_board(14, 6);
    assert_eq!(room.empty_cells(), 166);
    group.bench_function("14x14, heads in a walled 6x6 room (166 empty cells)", |b| {
        b.iter(|| solve_in::<Mask256>(black_box(&room)))
    });
    // The largest square board the 128-cell mask allows (119 empty cells).
    let b11 = corners(11, 11);
    group.bench_function("11x11 corners", |b| b.iter(|| solve(black_box(&b11))));
    group.bench_function("11x11 corners, two threads", |b| b.iter(|| solve_on_two_threads(black_box(&b11))));
    group.finish();
}

criterion_group!(benches, snakes);
criterion_main!(benches);
