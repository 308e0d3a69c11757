//! Pawn chess: the 4×4 strong solve, 50 random UVa cases, the 5×5 and 6×6 starts.
//!
//! Run: `cargo bench -p gsolve-benches --bench pawns`
#![forbid(unsafe_code)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gsolve_engine::{layered, memo::MemoSolution, search, Indexed};
use gsolve_games::pawns::{Pawns, PawnsPosition};
use gsolve_games::rng::SplitMix64;
use std::hint::black_box;

/// 50 random 4×4 contest cases: 1 to 4 pawns a side, none on its goal rank,
/// white to move with at least one move.
fn uva_cases(game: &Pawns) -> Vec<PawnsPosition> {
    let mut rng = SplitMix64::new(10838);
    let mut cases = Vec::new();
    while cases.len() < 50 {
        let (mut white, mut black) = (0u64, 0u64);
        let (wn, bn) = (1 + rng.below(4), 1 + rng.below(4));
        while (white.count_ones() as u64) < wn {
            white |= 1 << (4 + rng.below(12)); // rows 1-3
        }
        while (black.count_ones() as u64) < bn {
            let cell = rng.below(12); // rows 0-2
            if white & (1 << cell) == 0 {
                black |= 1 << cell;
            }
        }
        let p = PawnsPosition { white, black, white_to_move: true };
        if gsolve_engine::Game::move_count(game, &p) > 0 {
            cases.push(p);
        }
    }
    cases
}

fn pawns(c: &mut Criterion) {
    let mut group = c.benchmark_group("pawns");
    group.sample_size(10);
    let g44 = Pawns::new(4, 4);
    group.throughput(Throughput::Elements(g44.index_size()));
    group.bench_function("4x4 strong solve (layered)", |b| b.iter(|| layered::solve(black_box(&g44))));
    let cases = uva_cases(&g44);
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("50 random UVa cases (memo, one table)", |b| {
        b.iter(|| {
            let mut memo = MemoSolution::new();
            for p in &cases {
                black_box(memo.search(&g44, p).unwrap());
            }
        })
    });
    group.bench_function("50 random UVa cases (alpha-beta, one table)", |b| {
        b.iter(|| {
            let searcher = search::Searcher::new(&g44);
            for p in &cases {
                black_box(searcher.value(p).unwrap());
            }
        })
    });
    let g55 = Pawns::new(5, 5);
    group.throughput(Throughput::Elements(1));
    group.bench_function("5x5 start (alpha-beta)", |b| b.iter(|| search::solve(&g55, &g55.start()).unwrap().0));
    let g66 = Pawns::new(6, 6);
    group.bench_function("6x6 start (alpha-beta)", |b| b.iter(|| search::solve(&g66, &g66.start()).unwrap().0));
    group.finish();
}

criterion_group!(benches, pawns);
criterion_main!(benches);
