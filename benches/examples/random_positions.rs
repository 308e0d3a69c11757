//! Random positions reachable from a rules game's start, one a line in the
//! rules' notation: the positions behind docs/performance.md's comparison of two
//! Dobutsu tablebases (fed to `gsolve probe --json` of each build).
//!
//!   cargo run -p gsolve-benches --release --example random_positions -- FILE COUNT [SEED]
//!
//! Each position ends a random game from the start of a random length (0 to
//! 200 plies, every move that does not end the game equally likely, a game
//! stopped early where every move ends it), so every one is reachable and
//! none is over; positions may repeat.
use gsolve_engine::Game;
use gsolve_games::notation::PlainNotation;
use gsolve_games::rng::SplitMix64;
use gsolve_rules::{setup, Rules};
use std::io::Write;
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: random_positions FILE COUNT [SEED]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[0]).unwrap_or_else(|e| {
        eprintln!("{}: {e}", args[0]);
        std::process::exit(2)
    });
    let rules = Arc::new(Rules::parse(&text).unwrap_or_else(|e| {
        eprintln!("{}: {e}", args[0]);
        std::process::exit(2)
    }));
    let count: u64 = args[1].parse().expect("COUNT is a number");
    let seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("SEED is a number"));
    let s = setup(rules, None, None, None).unwrap_or_else(|e| {
        eprintln!("{}: {e}", args[0]);
        std::process::exit(2)
    });
    let mut rng = SplitMix64::new(seed);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut children = Vec::new();
    for _ in 0..count {
        let mut p = s.position;
        for _ in 0..rng.below(201) {
            children.clear();
            s.game.for_each_child(&p, |c| {
                if s.game.terminal(&c).is_none() {
                    children.push(c)
                }
            });
            if children.is_empty() {
                break;
            }
            p = children[rng.below(children.len() as u64) as usize];
        }
        writeln!(out, "{}", s.game.format_position(&p)).expect("stdout");
    }
}
