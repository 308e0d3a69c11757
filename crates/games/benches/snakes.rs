//! The two snakes: alpha-beta search from the start of a board.
//!
//! Run: `cargo bench -p gsolve-games --bench snakes`

use criterion::{criterion_group, criterion_main, Criterion};
use gsolve_engine::search::Searcher;
use gsolve_games::rng::SplitMix64;
use gsolve_games::snakes::{parse_boards, Snakes, SnakesBoard};
use std::hint::black_box;

/// The empty rows×cols board, snake 1 top-left, snake 2 bottom-right.
fn corners(rows: u32, cols: u32) -> SnakesBoard {
    let mut cells = vec!["0"; (rows * cols) as usize];
    cells[0] = "1";
    cells[(rows * cols - 1) as usize] = "2";
    parse_boards(&format!("{rows} {cols}\n{}\n", cells.join(" "))).unwrap().remove(0)
}

/// A 9×9 board with random obstacles until exactly `empty` cells are empty, and the
/// heads on random cells.
fn random_board(empty: usize, seed: u64) -> SnakesBoard {
    let mut rng = SplitMix64::new(seed);
    let mut cells = vec![0u32; 81];
    let mut open = 81;
    while open > empty + 2 {
        let i = rng.below(81) as usize;
        if cells[i] == 0 {
            cells[i] = 3;
            open -= 1;
        }
    }
    for head in [1, 2] {
        loop {
            let i = rng.below(81) as usize;
            if cells[i] == 0 {
                cells[i] = head;
                break;
            }
        }
    }
    let text: Vec<String> = cells.iter().map(u32::to_string).collect();
    parse_boards(&format!("9 9\n{}\n", text.join(" "))).unwrap().remove(0)
}

fn solve(board: &SnakesBoard) -> gsolve_engine::Value {
    let game = Snakes::new(board);
    let searcher = Searcher::new(&game);
    searcher.value(&game.start()).unwrap()
}

fn snakes(c: &mut Criterion) {
    let mut group = c.benchmark_group("snakes");
    group.sample_size(10);
    let b6 = corners(6, 6);
    group.bench_function("6x6 corners", |b| b.iter(|| solve(black_box(&b6))));
    let random = random_board(50, 4);
    group.bench_function("9x9, 50 empty cells, random obstacles", |b| b.iter(|| solve(black_box(&random))));
    let b7 = corners(7, 7);
    group.bench_function("7x7 corners", |b| b.iter(|| solve(black_box(&b7))));
    group.finish();
}

criterion_group!(benches, snakes);
criterion_main!(benches);
