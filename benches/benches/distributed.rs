//! The distributed retrograde solver against the engine's, on chase n = 20:
//! one timely worker, two workers in one process (threads, exchanging through
//! memory), and the engine's rayon solve. Two processes over TCP are measured
//! by whole commands instead (docs/distributed.md).
//!
//! Run: `cargo bench -p gsolve-benches --bench distributed`
#![forbid(unsafe_code)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gsolve_distributed::{retrograde, Cluster, Partition};
use gsolve_engine::Indexed;
use gsolve_games::chase::Chase;
use std::sync::Arc;

fn distributed(c: &mut Criterion) {
    let mut group = c.benchmark_group("distributed retrograde");
    group.sample_size(10);
    let chase = Arc::new(Chase::new(20));
    group.throughput(Throughput::Elements(chase.index_size()));
    group.bench_function("chase n=20, engine (rayon)", |b| b.iter(|| gsolve_engine::retrograde::solve(&*chase)));
    for workers in [1, 2] {
        let cluster = Cluster::single(workers);
        group.bench_function(format!("chase n=20, {workers} timely worker(s), gathered"), |b| {
            b.iter(|| {
                retrograde::solve_on(&cluster, "bench", Arc::clone(&chase), Partition::DEFAULT_CHUNK_SHIFT)
                    .expect("the run works")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, distributed);
criterion_main!(benches);
