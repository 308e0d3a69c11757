//! Whole-game retrograde solves of the two pursuit games.
//!
//! Run: `cargo bench -p gsolve-benches --bench pursuit`
#![forbid(unsafe_code)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gsolve_engine::{retrograde, Indexed};
use gsolve_games::chase::Chase;
use gsolve_games::queens_case::{generate, QueensCase};
use std::hint::black_box;

fn pursuit(c: &mut Criterion) {
    let mut group = c.benchmark_group("retrograde");
    group.sample_size(20);
    let open = QueensCase::new(&generate::random_map(30, 30, 0, 6, 1));
    let maze = QueensCase::new(&generate::maze(30, 30, 4, 1));
    let chase = Chase::new(20);
    group.throughput(Throughput::Elements(open.index_size()));
    group.bench_function("queens-case 30x30 open, 6 exits", |b| b.iter(|| retrograde::solve(black_box(&open))));
    group.throughput(Throughput::Elements(maze.index_size()));
    group.bench_function("queens-case 30x30 maze, 4 exits", |b| b.iter(|| retrograde::solve(black_box(&maze))));
    group.throughput(Throughput::Elements(chase.index_size()));
    group.bench_function("chase n=20", |b| b.iter(|| retrograde::solve(black_box(&chase))));
    group.finish();
}

criterion_group!(benches, pursuit);
criterion_main!(benches);
