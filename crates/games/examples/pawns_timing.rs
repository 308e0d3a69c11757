//! Timing harness for the pawns' alpha-beta search (release build:
//! `cargo build --release -p gsolve-games --example pawns_timing`).
//!
//! `pawns_timing 5 6 6x5 7`: the start of each n×n (or R×C) board, home ranks
//! full, white to move, searched with a fresh table. `TABLE=b` in the environment
//! gives the table 2^b entries (default 2^24), `THREADS=n` searches on n threads
//! ([`Searcher::value_in_parallel`]), `REPEAT=n` solves each board n times and
//! reports the fastest.

use gsolve_engine::search::{Searcher, DEFAULT_TABLE_ENTRIES};
use gsolve_games::pawns::Pawns;
use std::time::{Duration, Instant};

/// A number from the environment, or `default`.
fn env(name: &str, default: u32) -> u32 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn main() {
    for arg in std::env::args().skip(1) {
        let (rows, cols) = match arg.split_once('x') {
            Some((r, c)) => (r.parse().expect("rows"), c.parse().expect("cols")),
            None => {
                let n = arg.parse().expect("a board size: n or RxC");
                (n, n)
            }
        };
        let mut best = Duration::MAX;
        let (mut answer, mut nodes) = (String::new(), 0);
        for _ in 0..env("REPEAT", 1).max(1) {
            let started = Instant::now();
            let game = Pawns::new(rows, cols);
            let entries =
                std::env::var("TABLE").map_or(DEFAULT_TABLE_ENTRIES, |b| 1 << b.parse::<u32>().expect("TABLE"));
            let searcher = Searcher::with_table_entries(&game, entries);
            let helpers = (1..env("THREADS", 1)).map(|_| Pawns::new(rows, cols)).collect();
            let start = game.start();
            let value = searcher.value_in_parallel(&start, helpers, None).expect("pawn chess always ends");
            best = best.min(started.elapsed());
            answer = format!("{} ({value:?})", Pawns::verdict(&start, value));
            nodes = searcher.nodes();
        }
        println!("{rows}x{cols}: {answer}, {nodes} nodes, {:.3} s", best.as_secs_f64());
    }
}
