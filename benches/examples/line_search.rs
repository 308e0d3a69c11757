//! One line game's start by its bit-set search, with the positions visited, the
//! rate and the table's size: the figures behind docs/performance.md's Connect 4 table.
//!
//!   cargo run -p gsolve-benches --release --example line_search -- [FILE] ROWS COLS
//!
//! FILE defaults to examples/rules/connect-4.toml; the threads are rayon's
//! (`RAYON_NUM_THREADS=1` for one). With `POSITION=…` in the environment (the
//! rules' notation, of the board given), that position instead of the start.
use gsolve_engine::search::SearchHooks;
use gsolve_rules::{setup, Rules};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (file, size) = match args.as_slice() {
        [rows, cols] => {
            (concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/rules/connect-4.toml").to_string(), (rows, cols))
        }
        [file, rows, cols] => (file.clone(), (rows, cols)),
        _ => {
            eprintln!("usage: line_search [FILE] ROWS COLS");
            std::process::exit(2);
        }
    };
    let number = |s: &str| s.parse::<u32>().unwrap_or_else(|_| panic!("{s}: not a number"));
    let rules = Arc::new(Rules::parse(&std::fs::read_to_string(&file).expect("a rules file")).expect("rules"));
    let position = std::env::var("POSITION").ok();
    let size = if position.is_some() { None } else { Some((number(size.0), number(size.1))) };
    let s = setup(rules, size, None, position.as_deref()).expect("a start");
    let started = Instant::now();
    let Some(Ok(value)) = s.game.solve_outright(&s.position, None, None) else {
        eprintln!("{file}: not a line game");
        std::process::exit(1);
    };
    let seconds = started.elapsed().as_secs_f64();
    let (nodes, bytes) = s.game.line_search_stats().expect("searched");
    println!(
        "{} {value}: {seconds:.3} s, {nodes} positions, {:.2} M/s, table {} MiB",
        position.unwrap_or_else(|| format!("{}x{}", args[args.len() - 2], args[args.len() - 1])),
        nodes as f64 / seconds / 1e6,
        bytes >> 20
    );
}
