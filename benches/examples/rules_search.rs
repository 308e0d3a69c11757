//! The start of a rules game searched by the engine's alpha-beta, with the
//! positions visited and the time: the figures behind docs/performance.md's table of
//! immediate wins in the search.
//!
//!   cargo run -p gsolve-benches --release --example rules_search -- FILE ROWS COLS [plain|general] [TABLE_BITS]
//!
//! Games of the bit-set core's shape (step games: Breakthrough, pawns) are
//! searched by it, as every front end searches them, and the positions it
//! visited are printed. `general` searches on the engine's general positions
//! instead, with the rules' immediate wins (`RulesGame::without(&[FastPath::BitCore])`);
//! `plain` without them either (`RulesGame::without(&[FastPath::ImmediateWins, FastPath::BitCore])`: no
//! `SearchHooks::wins_at_once`, no threats in the move order); every other hook
//! stays. The engine's table has 2^TABLE_BITS entries, by default 2^20, as
//! `gsolve rules` gives a search (the core sizes its own by the board).
use gsolve_engine::search::Searcher;
use gsolve_rules::{setup, FastPath, Rules, RulesGame, RulesPosition};
use std::sync::Arc;
use std::time::Instant;

/// Searches `start` in `game`, printing the value, positions and time.
fn run(game: &RulesGame, start: &RulesPosition, bits: u32, what: &str) {
    let started = Instant::now();
    let searcher = Searcher::with_table_entries(game, 1 << bits);
    let value = searcher.value(start).expect("a value");
    let seconds = started.elapsed().as_secs_f64();
    match game.bit_search_stats() {
        Some((positions, bytes)) => {
            println!(
                "{what}: {value}: {seconds:.2} s, {positions} positions (bit-set core, a {} MB table)",
                bytes >> 20
            )
        }
        None => println!("{what}: {value}: {seconds:.2} s, {} positions", searcher.nodes()),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: rules_search FILE ROWS COLS [plain|general] [TABLE_BITS]");
        std::process::exit(2);
    };
    let (file, rows, cols, rest) = match args.as_slice() {
        [file, rows, cols, rest @ ..] if rest.len() <= 2 => (file, rows, cols, rest),
        _ => usage(),
    };
    let mode = rest.first().filter(|a| *a == "plain" || *a == "general").cloned();
    let bits = match rest.get(mode.is_some() as usize) {
        Some(bits) => bits.parse::<u32>().ok().filter(|&b| b <= 30).unwrap_or_else(|| usage()),
        None => 20,
    };
    let number = |s: &str| s.parse::<u32>().unwrap_or_else(|_| panic!("{s}: not a number"));
    let rules = Arc::new(Rules::parse(&std::fs::read_to_string(file).expect("a rules file")).expect("rules"));
    let s = setup(rules, Some((number(rows), number(cols))), None, None).expect("a start");
    let what = format!("{file} {rows}x{cols}{}", mode.as_ref().map_or(String::new(), |m| format!(" {m}")));
    let game = match mode.as_deref() {
        Some("plain") => s.game.without(&[FastPath::ImmediateWins, FastPath::BitCore]),
        Some(_) => s.game.without(&[FastPath::BitCore]),
        None => s.game,
    };
    run(&game, &s.position, bits, &what);
}
