//! Games of the second part of the rules language (docs/rules.md): Connect 4 starts
//! searched as line games on bit sets (5 × 5 a tie in 25, 6 wide and 5 high a tie
//! in 30, 7 wide and 4 high a tie in 28; each from a fresh game, its tables empty),
//! tic-tac-toe strongly solved tier by tier, and a Dobutsu shogi endgame (lions and
//! a chick each, with drops and captures into hands) solved whole by retrograde
//! analysis. Positions and rates of the line games' search:
//! `cargo run -p gsolve-benches --release --example line_search -- ROWS COLS`.
//!
//! Run: `cargo bench -p gsolve-benches --bench placement`
#![forbid(unsafe_code)]

use criterion::{criterion_group, criterion_main, Criterion};
use gsolve_engine::search::Searcher;
use gsolve_engine::Value;
use gsolve_rules::{setup, solve_retrograde, Rules};
use std::hint::black_box;
use std::sync::Arc;

fn rules(name: &str) -> Arc<Rules> {
    let path = format!("{}/../examples/rules/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    Arc::new(Rules::parse(&std::fs::read_to_string(path).unwrap()).unwrap())
}

fn placement(c: &mut Criterion) {
    let mut group = c.benchmark_group("placement");
    group.sample_size(10);

    for (rows, cols, want) in [(5, 5, Value::Tie(25)), (5, 6, Value::Tie(30)), (4, 7, Value::Tie(28))] {
        let name = format!("connect-4 {cols} wide {rows} high start");
        group.bench_function(&name, |b| {
            b.iter_batched(
                || setup(rules("connect-4"), Some((rows, cols)), None, None).unwrap(),
                |connect| {
                    let value = Searcher::with_table_entries(&connect.game, 1 << 20).value(&connect.position);
                    assert_eq!(value, Ok(want));
                },
                criterion::BatchSize::PerIteration,
            )
        });
    }

    let ttt = setup(rules("tic-tac-toe"), None, None, None).unwrap();
    group.bench_function("tic-tac-toe strong solve", |b| {
        b.iter(|| gsolve_engine::tiered::solve_all(black_box(&ttt.game)))
    });

    let dobutsu = setup(rules("dobutsu"), None, None, Some("l../.c./.C./..L s -")).unwrap();
    let options = gsolve_engine::retrograde::Options::default();
    group.bench_function("dobutsu lions and chicks endgame", |b| {
        b.iter(|| solve_retrograde(black_box(&dobutsu.game), &options))
    });
    group.finish();
}

criterion_group!(benches, placement);
criterion_main!(benches);
