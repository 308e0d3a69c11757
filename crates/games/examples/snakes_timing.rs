//! Timing harness for the snakes search (release build:
//! `cargo build --release -p gsolve-games --example snakes_timing`).
//!
//! - `snakes_timing 5 6 7 5x26`: the empty n×n (or R×C) boards, snakes in opposite
//!   corners;
//! - `snakes_timing file PATH`: every board of a file in the contest's format;
//! - `snakes_timing random EMPTY COUNT [ROWS [COLS [SEED]]]`: COUNT random ROWS×COLS
//!   boards (default 9×9) with obstacles until EMPTY cells are empty and the heads on
//!   random cells; the three slowest are printed.
//!
//! Each board is solved with a fresh game and table; `REPEAT=n` in the environment
//! solves it n times and reports the fastest (the machine is noisy), `TABLE=b` gives
//! the table 2^b entries (default [`SEARCH_TABLE_ENTRIES`]), `THREADS=n` searches on n threads
//! ([`Searcher::value_in_parallel`]), `WIDE=1` searches in 256-cell masks even
//! boards that fit in 128, `LINE=1` also follows the line of optimal
//! play as the command line does (timed too) and counts its extra nodes.

use gsolve_engine::search::Searcher;
use gsolve_games::rng::SplitMix64;
use gsolve_games::snakes::{parse_boards, Cell, Mask, Mask256, Snakes, SnakesBoard, SEARCH_TABLE_ENTRIES};
use std::time::{Duration, Instant};

/// A number from the environment, or `default`.
fn env(name: &str, default: u32) -> u32 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

/// One board solved: the contest's answer with the value, nodes, the fastest time.
struct Solved {
    answer: String,
    nodes: u64,
    time: Duration,
}

/// Solves a board in the narrowest masks that hold it, or in 256-cell masks with
/// `WIDE=1` in the environment.
fn solve(board: &SnakesBoard) -> Solved {
    if env("WIDE", 0) == 1 || board.empty_cells() > 128 {
        solve_in::<Mask256>(board)
    } else {
        solve_in::<u128>(board)
    }
}

fn solve_in<M: Mask>(board: &SnakesBoard) -> Solved {
    let mut solved = Solved { answer: String::new(), nodes: 0, time: Duration::MAX };
    for _ in 0..env("REPEAT", 1).max(1) {
        let started = Instant::now();
        let game = Snakes::<M>::new(board);
        let entries = std::env::var("TABLE").map_or(SEARCH_TABLE_ENTRIES, |b| 1 << b.parse::<u32>().unwrap());
        let searcher = Searcher::with_table_entries(&game, entries);
        let helpers = (1..env("THREADS", 1)).map(|_| Snakes::<M>::new(board)).collect();
        let v = searcher.value_in_parallel(&game.start(), helpers, None).expect("the snakes game has no ties");
        if env("LINE", 0) == 1 {
            let nodes = searcher.nodes();
            let line = gsolve_engine::line::principal_line(&game, &searcher, &game.start(), 1 << 20);
            eprintln!("line: {} plies, {} more nodes", line.plies.len(), searcher.nodes() - nodes);
        }
        solved.time = solved.time.min(started.elapsed());
        solved.answer = format!("{} ({v:?})", Snakes::verdict(&game.start(), v));
        solved.nodes = searcher.nodes();
    }
    solved
}

/// The contest's text of a board.
fn text(board: &SnakesBoard) -> String {
    let rows: Vec<String> = board
        .cells
        .chunks(board.cols as usize)
        .map(|row| {
            let cells: Vec<&str> = row
                .iter()
                .map(|c| match c {
                    Cell::Empty => "0",
                    Cell::Snake1 => "1",
                    Cell::Snake2 => "2",
                    Cell::Obstacle | Cell::Body1 | Cell::Body2 => "3",
                })
                .collect();
            cells.join(" ")
        })
        .collect();
    format!("{} {}\n{}\n", board.rows, board.cols, rows.join("\n"))
}

/// A rows×cols board with random obstacles until `empty` cells are empty, and the
/// heads on random cells.
fn random_board(rng: &mut SplitMix64, rows: usize, cols: usize, empty: usize) -> SnakesBoard {
    let n = rows * cols;
    let mut cells = vec!["0"; n];
    let mut open = n;
    while open > empty + 2 {
        let i = rng.below(n as u64) as usize;
        if cells[i] == "0" {
            cells[i] = "3";
            open -= 1;
        }
    }
    for head in ["1", "2"] {
        loop {
            let i = rng.below(n as u64) as usize;
            if cells[i] == "0" {
                cells[i] = head;
                break;
            }
        }
    }
    parse_boards(&format!("{rows} {cols}\n{}\n", cells.join(" "))).unwrap().remove(0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: usize| args.get(i).map_or(default, |s| s.parse().unwrap());
    match args.first().map(String::as_str) {
        Some("file") => {
            let boards = parse_boards(&std::fs::read_to_string(&args[1]).unwrap()).unwrap();
            let (mut nodes, mut total, mut slowest) = (0, Duration::ZERO, Duration::ZERO);
            for (i, board) in boards.iter().enumerate() {
                let s = solve(board);
                println!("{}#{}: {}, {} nodes, {:?}", args[1], i + 1, s.answer, s.nodes, s.time);
                nodes += s.nodes;
                total += s.time;
                slowest = slowest.max(s.time);
            }
            println!("{} boards: {nodes} nodes, {total:?}, slowest {slowest:?}", boards.len());
        }
        Some("random") => {
            let (empty, count) = (arg(1, 50), arg(2, 100));
            let rows = arg(3, 9);
            let (cols, seed) = (arg(4, rows), arg(5, 0) as u64);
            let mut rng = SplitMix64::new(0x5eed ^ (empty as u64) << 8 ^ (rows * 100 + cols) as u64 ^ seed << 20);
            let started = Instant::now();
            let mut results: Vec<(Solved, usize, SnakesBoard)> = (0..count)
                .map(|i| {
                    let board = random_board(&mut rng, rows, cols, empty);
                    (solve(&board), i, board)
                })
                .collect();
            println!("{count} boards, {empty} empty cells, {rows}x{cols}: total {:?}", started.elapsed());
            results.sort_by_key(|r| std::cmp::Reverse(r.0.time));
            for (s, i, board) in results.iter().take(3) {
                println!("#{i}: {}, {} nodes, {:?}\n{}", s.answer, s.nodes, s.time, text(board));
            }
        }
        _ => {
            for a in &args {
                // `n` for the n×n board, `RxC` for R rows and C columns.
                let (rows, cols): (usize, usize) = match a.split_once('x') {
                    Some((r, c)) => (r.parse().unwrap(), c.parse().unwrap()),
                    None => (a.parse().unwrap(), a.parse().unwrap()),
                };
                let mut cells = vec!["0"; rows * cols];
                cells[0] = "1";
                cells[rows * cols - 1] = "2";
                let board = parse_boards(&format!("{rows} {cols}\n{}\n", cells.join(" "))).unwrap().remove(0);
                let s = solve(&board);
                println!("{rows}x{cols}: {}, {} nodes, {:?}", s.answer, s.nodes, s.time);
            }
        }
    }
}
