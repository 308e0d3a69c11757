//! Games of the second part of the rules language (docs/rules.md): the Connect 4
//! 5 × 5 start searched by alpha-beta (a tie in 25), tic-tac-toe strongly solved
//! tier by tier, and a Dobutsu shogi endgame (lions and a chick each, with drops and
//! captures into hands) solved whole by retrograde analysis.
//!
//! Run: `cargo bench -p gsolve-benches --bench placement`
#![forbid(unsafe_code)]

use criterion::{criterion_group, criterion_main, Criterion};
use gsolve_engine::search::Searcher;
use gsolve_engine::Value;
use gsolve_rules::{setup, solve_whole, Rules};
use std::hint::black_box;
use std::sync::Arc;

fn rules(name: &str) -> Arc<Rules> {
    let path = format!("{}/../examples/rules/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    Arc::new(Rules::parse(&std::fs::read_to_string(path).unwrap()).unwrap())
}

fn placement(c: &mut Criterion) {
    let mut group = c.benchmark_group("placement");
    group.sample_size(10);

    let connect = setup(rules("connect-4"), Some((5, 5)), None, None).unwrap();
    group.bench_function("connect-4 5x5 start", |b| {
        b.iter(|| {
            let value = Searcher::with_table_entries(black_box(&connect.game), 1 << 20).value(&connect.position);
            assert_eq!(value, Ok(Value::Tie(25)));
        })
    });

    let ttt = setup(rules("tic-tac-toe"), None, None, None).unwrap();
    group.bench_function("tic-tac-toe strong solve", |b| {
        b.iter(|| gsolve_engine::tiered::solve_all(black_box(&ttt.game)))
    });

    let dobutsu = setup(rules("dobutsu"), None, None, Some("l../.c./.C./..L s -")).unwrap();
    let options = gsolve_engine::retrograde::Options::default();
    group.bench_function("dobutsu lions and chicks endgame", |b| {
        b.iter(|| solve_whole(black_box(&dobutsu.game), &options))
    });
    group.finish();
}

criterion_group!(benches, placement);
criterion_main!(benches);
