//! The engine's whole-game retrograde solve of a rules file beside the built-in
//! game it describes, in turn, one thread or all: the ratio of issue 35's
//! deliverable 5 (docs/performance.md, "Rules games"), with the fastest of each and the
//! median of the paired ratios (timings on a shared machine are noisy; pairs
//! run back to back see the same noise).
//!
//!   cargo run -p gsolve-benches --release --example engine_ratio -- [chase|queens-case] [RUNS] [rules-only]
//!
//! Chase n = 20 from the corners, or the 30 × 30 Queen's Case map of the
//! pursuit bench, as `cargo bench -p gsolve-benches --bench rules -- engine`
//! solves them. `RAYON_NUM_THREADS=1` times one thread; `rules-only` runs the
//! rules game alone (for a profiler).
use gsolve_engine::retrograde;
use gsolve_games::chase::Chase;
use gsolve_games::queens_case::QueensCase;
use gsolve_rules::{compact, setup, CompactTask, Rules, RulesGame};
use std::sync::Arc;
use std::time::Instant;

#[path = "../shared/queens_map.rs"]
mod queens_map;

/// A whole-game retrograde solve, as `gsolve rules` runs it.
struct Retrograde;

impl CompactTask for Retrograde {
    type Output = gsolve_engine::Solution;
    fn run<const N: usize>(self, game: &RulesGame<N>) -> Self::Output {
        retrograde::solve(game)
    }
}

fn rules_game(name: &str, rows: &[Vec<char>], side: char) -> RulesGame {
    let path = format!("{}/../examples/rules/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let rules = Arc::new(Rules::parse(&std::fs::read_to_string(path).expect("the example")).expect("its rules"));
    let rows: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    setup(rules, None, None, Some(&format!("{} {side}", rows.join("/")))).expect("the position").game
}

/// A solve that says how many seconds it took.
type Timed = Box<dyn Fn() -> f64>;

/// Seconds of one run of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> f64 {
    let started = Instant::now();
    std::hint::black_box(f());
    started.elapsed().as_secs_f64()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map_or("chase", String::as_str);
    let runs: usize = args.get(1).map_or(20, |r| r.parse().expect("RUNS is a number"));
    let (built_in, rules): (Timed, Timed) = match which {
        "chase" => {
            let chase = Chase::new(20);
            let mut board = vec![vec!['.'; 20]; 20];
            board[0][0] = 'W';
            board[19][19] = 'B';
            let game = rules_game("chase", &board, 'w');
            (
                Box::new(move || timed(|| retrograde::solve(&chase))),
                Box::new(move || timed(|| compact(&game, Retrograde))),
            )
        }
        "queens-case" => {
            let (map, grid) = queens_map::queens_case_30();
            let queens = QueensCase::new(&map);
            let game = rules_game("queens-case", &grid, 'q');
            (
                Box::new(move || timed(|| retrograde::solve(&queens))),
                Box::new(move || timed(|| compact(&game, Retrograde))),
            )
        }
        other => panic!("no such game here: {other} (chase or queens-case)"),
    };
    if args.get(2).map(String::as_str) == Some("rules-only") {
        // For a profiler: the rules game's solves alone.
        let fastest = (0..runs).map(|_| rules()).fold(f64::INFINITY, f64::min);
        return println!("{which}: rules {:.2} ms (fastest of {runs})", fastest * 1e3);
    }
    // One of each first: pages and caches warm.
    built_in();
    rules();
    let (mut a, mut b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        let (x, y) = (built_in(), rules());
        a.push(x);
        b.push(y);
        ratios.push(y / x);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let fastest = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "{which}: built-in {:.2} ms, rules {:.2} ms (fastest of {runs}); rules/built-in: fastest {:.2}, median of pairs {:.2}",
        fastest(&a) * 1e3,
        fastest(&b) * 1e3,
        fastest(&b) / fastest(&a),
        median(&mut ratios)
    );
}
