//! Games against perfect play as `gsolve play` runs them, timed: each turn the
//! position is analysed (its value and every move's), the computer plays the best
//! move and its opponent a random one. Prints, ply by ply, the slowest analysis:
//! the figures behind docs/performance.md's "Rules games: opening books".
//!
//!   cargo run -p gsolve-benches --release --example book_play -- ROWS COLS GAMES [BOOK]
//!
//! The rules are examples/rules/connect-4.toml (or the book's); the computer moves
//! first in even games, second in odd ones. In the environment, `FROM=POSITION`
//! starts the games there instead of the start, and `OPPONENT=best` has the
//! opponent play a random one of its best moves instead of any move.
use gsolve_analysis::{Analyzer, GameKind, Limits};
use gsolve_games::rng::SplitMix64;
use gsolve_rules::Rules;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: book_play ROWS COLS GAMES [BOOK]");
        std::process::exit(2);
    }
    let number = |s: &str| s.parse::<u32>().unwrap_or_else(|_| panic!("{s}: not a number"));
    let (rows, cols, games) = (number(&args[0]), number(&args[1]), number(&args[2]));
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/rules/connect-4.toml");
    let rules = Arc::new(Rules::parse(&std::fs::read_to_string(file).expect("a rules file")).expect("rules"));
    let mut analyzer = Analyzer::with_rules(Limits::default(), rules);
    if let Some(path) = args.get(3) {
        let loaded = gsolve_analysis::book::read(std::path::Path::new(path)).expect("a book");
        analyzer = analyzer.with_book(loaded.book).expect("a book of these rules");
    }
    let board = [("rows".to_string(), rows.to_string()), ("cols".to_string(), cols.to_string())];
    let start = match std::env::var("FROM") {
        Ok(position) => gsolve_analysis::Setup::new(GameKind::Rules, position),
        Err(_) => analyzer.start(GameKind::Rules, &board).expect("a start"),
    };
    let mut rng = SplitMix64::new(7);
    let best_opponent = std::env::var("OPPONENT").is_ok_and(|o| o == "best");
    let mut slowest: Vec<f64> = Vec::new();
    let mut over_a_second = 0;
    let mut analyses = 0;
    for game in 0..games {
        let mut setup = start.clone();
        for ply in 0.. {
            let started = Instant::now();
            let analysis = analyzer.analyze(&setup).expect("an analysis");
            let seconds = started.elapsed().as_secs_f64();
            analyses += 1;
            if seconds > 1.0 {
                over_a_second += 1;
            }
            if slowest.len() <= ply {
                slowest.push(0.0);
            }
            slowest[ply] = slowest[ply].max(seconds);
            if analysis.over || analysis.moves.is_empty() {
                break;
            }
            let computer = ply % 2 == (game % 2) as usize;
            // The opponent plays at random, or (OPPONENT=best) a random one of its best moves.
            let choices = if best_opponent {
                analysis.moves.iter().take_while(|m| m.value == analysis.moves[0].value).count()
            } else {
                analysis.moves.len()
            };
            let chosen = if computer { 0 } else { rng.below(choices as u64) as usize };
            setup.position = analysis.moves[chosen].position.clone();
        }
    }
    for (ply, seconds) in slowest.iter().enumerate() {
        println!("ply {ply:2}: slowest analysis {seconds:.3} s");
    }
    println!(
        "{games} games, {analyses} analyses, {over_a_second} over a second, slowest {:.2} s",
        slowest.iter().cloned().fold(0.0, f64::max)
    );
}
