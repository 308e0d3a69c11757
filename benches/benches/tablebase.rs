//! Tablebases of pawn chess 4×4: build (solve + write), probe, verify.
//!
//! Run: `cargo bench -p gsolve-benches --bench tablebase`
#![forbid(unsafe_code)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gsolve_engine::{layered, Indexed};
use gsolve_games::pawns::Pawns;
use gsolve_games::rng::SplitMix64;
use gsolve_tablebase::{verify, write, GameTablebase, Tablebase, WriteOptions};
use std::hint::black_box;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gsolve-bench-{}-{name}", std::process::id()))
}

fn tablebase(c: &mut Criterion) {
    let game = Pawns::new(4, 4);
    let size = game.index_size();
    let path = scratch("pawns-4x4.gtb");
    let options = WriteOptions { force: true, ..WriteOptions::default() };

    let mut group = c.benchmark_group("tablebase pawns 4x4");
    group.sample_size(10);
    group.throughput(Throughput::Elements(size));
    group.bench_function("build (solve + write)", |b| {
        b.iter(|| {
            let solution = layered::solve(&game);
            write::write_solution(&path, &game, &solution, &options, None).unwrap()
        })
    });
    let solution = layered::solve(&game);
    group.bench_function("write only", |b| b.iter(|| write::write_solution(&path, &game, &solution, &options, None)));
    let file = Tablebase::open(&path).unwrap();
    group.bench_function("load (decompress every block)", |b| b.iter(|| file.load(None).unwrap()));
    let table = file.load(None).unwrap();
    group.bench_function("verify values (loaded)", |b| {
        b.iter(|| {
            let report = verify(&game, &table, 10, None);
            assert!(report.is_ok());
        })
    });
    group.finish();

    // Probes at random indices: each decompresses its block (16 KiB) from page cache.
    let probes = GameTablebase::<Pawns>::open(&path).unwrap();
    let mut rng = SplitMix64::new(5);
    let indices: Vec<u64> = (0..1000).map(|_| rng.below(size)).collect();
    let positions: Vec<_> = indices.iter().map(|&i| game.position(i).unwrap()).collect();
    let mut group = c.benchmark_group("probe pawns 4x4");
    group.throughput(Throughput::Elements(indices.len() as u64));
    group.bench_function("1000 values at random indices", |b| {
        b.iter(|| indices.iter().filter(|&&i| black_box(file.value(i).unwrap()).is_some()).count())
    });
    group.bench_function("1000 positions with every move's value", |b| {
        b.iter(|| positions.iter().map(|p| black_box(probes.move_values(p).unwrap()).len()).sum::<usize>())
    });
    group.bench_function("open (header and block index checks)", |b| {
        b.iter(|| Tablebase::open(black_box(&path)).unwrap())
    });
    group.finish();
    let _ = std::fs::remove_file(&path);
}

criterion_group!(benches, tablebase);
criterion_main!(benches);
