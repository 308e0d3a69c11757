//! The start of a rules game searched by the engine's alpha-beta, with the
//! positions visited and the time: the figures behind docs/rules.md's table of
//! immediate wins in the search.
//!
//!   cargo run -p gsolve-benches --release --example rules_search -- FILE ROWS COLS [plain] [TABLE_BITS]
//!
//! `plain` searches without the rules' immediate wins
//! (`RulesGame::without_search_knowledge`: no `SearchHooks::wins_at_once`, no
//! threats in the move order); every other hook stays. The table has
//! 2^TABLE_BITS entries, by default 2^20, as `gsolve rules` gives a search.
use gsolve_engine::search::{SearchHooks, Searcher};
use gsolve_rules::{setup, Rules, RulesPosition};
use std::sync::Arc;
use std::time::Instant;

/// Searches `start` in `game`, printing the value, positions and time.
fn run<G: SearchHooks<Position = RulesPosition>>(game: &G, start: &RulesPosition, bits: u32, what: &str) {
    let started = Instant::now();
    let searcher = Searcher::with_table_entries(game, 1 << bits);
    let value = searcher.value(start).expect("a value");
    let seconds = started.elapsed().as_secs_f64();
    println!("{what}: {value}: {seconds:.2} s, {} positions", searcher.nodes());
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: rules_search FILE ROWS COLS [plain] [TABLE_BITS]");
        std::process::exit(2);
    };
    let (file, rows, cols, rest) = match args.as_slice() {
        [file, rows, cols, rest @ ..] if rest.len() <= 2 => (file, rows, cols, rest),
        _ => usage(),
    };
    let plain = rest.first().is_some_and(|a| a == "plain");
    let bits = match rest.get(plain as usize) {
        Some(bits) => bits.parse::<u32>().ok().filter(|&b| b <= 30).unwrap_or_else(|| usage()),
        None => 20,
    };
    let number = |s: &str| s.parse::<u32>().unwrap_or_else(|_| panic!("{s}: not a number"));
    let rules = Arc::new(Rules::parse(&std::fs::read_to_string(file).expect("a rules file")).expect("rules"));
    let s = setup(rules, Some((number(rows), number(cols))), None, None).expect("a start");
    let what = format!("{file} {rows}x{cols}{}", if plain { " plain" } else { "" });
    if plain {
        run(&s.game.without_search_knowledge(), &s.position, bits, &what);
    } else {
        run(&s.game, &s.position, bits, &what);
    }
}
