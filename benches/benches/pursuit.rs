//! Whole-game retrograde solves of the two pursuit games, and the bit-parallel
//! solves of one start that their contest lines use.
//!
//! Run: `cargo bench -p gsolve-benches --bench pursuit`
#![forbid(unsafe_code)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gsolve_engine::{retrograde, Indexed};
use gsolve_games::chase::{parse_cases, Chase};
use gsolve_games::pursuit::BitwiseOptions;
use gsolve_games::queens_case::{generate, parse_maps, QueensCase};
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

/// One start each: the bit-parallel solve (stops when the start is decided; a
/// draw runs until nothing changes) beside the engine's solve of every position.
fn one_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("one start");
    group.sample_size(20);
    // The second map of the one-exit file: a draw, not decided by distances.
    let maps = parse_maps(include_str!("../data/queens-case-30x30-five-maps-1-exit.txt")).unwrap();
    let draw = QueensCase::new(&maps[1]);
    assert!(draw.escape_by_distance(&draw.start()).is_none());
    group.bench_function("queens-case 30x30 draw, bitwise", |b| {
        b.iter(|| black_box(&draw).value_bitwise(&draw.start(), &BitwiseOptions::unlimited()))
    });
    group.bench_function("queens-case 30x30 draw, engine", |b| b.iter(|| retrograde::solve(black_box(&draw))));
    for n in [20, 50] {
        let chase = Chase::new(n);
        let start = chase.start(&parse_cases(&format!("{n} 1 1 {n} {n}\n")).unwrap()[0]);
        group.bench_function(format!("chase n={n} corners, bitwise"), |b| {
            b.iter(|| black_box(&chase).value_bitwise(&start, &BitwiseOptions::unlimited()))
        });
        group.bench_function(format!("chase n={n} corners, engine"), |b| {
            b.iter(|| retrograde::solve(black_box(&chase)))
        });
    }
    group.finish();
}

criterion_group!(benches, pursuit, one_start);
criterion_main!(benches);
