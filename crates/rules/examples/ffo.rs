//! Solves Othello endgame positions given one a line (Edax's `.obf` or a plain
//! `board side` line: 64 cells `X` / `O` / `-` from a1 to h8, then `X` or `O`)
//! and prints, per line: its number, empty cells, best move and exact score
//! (empty cells to the winner), nodes, seconds; with `--every-move` each move's
//! score too; with `--value` the remoteness of the best score as well (plies to
//! the end when the winner hurries and the loser holds out). Lines starting with
//! `%` or `#` are skipped.
//!
//! ```text
//! cargo run --release -p gsolve-rules --example ffo -- [--threads N] [--table-mb M]
//!     [--every-move] [--value] FILE...
//! cargo run --release -p gsolve-rules --example ffo -- [--threads N] [--table-mb M]
//!     [--value] --start RxC
//! ```
//!
//! With `--start RxC` it solves instead the usual start of Othello on a board of
//! R rows and C columns (the four middle cells crosswise, black to move) and
//! prints black's margin, its remoteness with `--value`.
//!
//! Through the crate's `flips` module: the same search `gsolve rules` runs on a
//! flip game, here on the positions of an obf file.
#![forbid(unsafe_code)]

use gsolve_rules::flips::{FlipMove, FlipSearch, FlipShape, Limits};
use std::time::Instant;

fn main() {
    let mut threads = 2;
    let mut table_mb = 256;
    let mut every_move = false;
    let mut value = false;
    let mut files = Vec::new();
    let mut start = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" => threads = args.next().and_then(|n| n.parse().ok()).expect("--threads N"),
            "--table-mb" => table_mb = args.next().and_then(|n| n.parse().ok()).expect("--table-mb M"),
            "--every-move" => every_move = true,
            "--value" => value = true,
            "--start" => start = args.next(),
            _ => files.push(arg),
        }
    }
    if let Some(size) = start {
        solve_start(&size, threads, table_mb, value);
        return;
    }
    if files.is_empty() {
        eprintln!("usage: ffo [--threads N] [--table-mb M] [--every-move] [--value] FILE...");
        std::process::exit(2);
    }
    let search = FlipSearch::new(FlipShape::othello(), table_mb << 20);
    let mut number = 0;
    let (mut all_nodes, all_clock) = (0, Instant::now());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('%') && !l.starts_with('#')) {
            number += 1;
            let (mine, theirs) = parse(line);
            let empties = 64 - (mine | theirs).count_ones();
            if number > 1 {
                search.clear();
            }
            let clock = Instant::now();
            let limits = Limits::new(threads, None);
            let (best, score, stats, moves) = if every_move {
                let (moves, stats) = search.move_margins(mine, theirs, limits).expect("no budget");
                let (best, score) =
                    moves.first().copied().unwrap_or((FlipMove::Pass, search.final_margin(mine, theirs)));
                (Some(best), score, stats, moves)
            } else {
                let (score, stats) = search.margin(mine, theirs, limits).expect("no budget");
                (None, score, stats, Vec::new())
            };
            let seconds = clock.elapsed().as_secs_f64();
            let (nodes, probes) = (stats.nodes, stats.probes);
            all_nodes += nodes;
            let best = best.map_or("-".to_string(), name);
            print!("{number} empties {empties} move {best} score {score:+} nodes {nodes} seconds {seconds:.3} probes {probes}");
            for (mv, s) in &moves {
                print!(" {}:{s:+}", name(*mv));
            }
            if value {
                let clock = Instant::now();
                let (v, stats) = search.value(mine, theirs, limits).expect("no budget");
                print!(" value {v} nodes {} seconds {:.3}", stats.nodes, clock.elapsed().as_secs_f64());
            }
            println!();
        }
    }
    println!("total nodes {all_nodes} seconds {:.3}", all_clock.elapsed().as_secs_f64());
}

/// Solves Othello's start on a board of `size` (`RxC`).
fn solve_start(size: &str, threads: usize, table_mb: usize, value: bool) {
    let (rows, cols) = size.split_once('x').expect("--start RxC");
    let (rows, cols) = (rows.parse().expect("rows"), cols.parse().expect("columns"));
    let shape =
        FlipShape::new(rows, cols, gsolve_rules::flips::Directions::ALL, true, true).unwrap_or_else(|e| panic!("{e}"));
    let (mine, theirs) = shape.start().expect("a board with a middle 2 x 2");
    let search = FlipSearch::new(shape, table_mb << 20);
    let clock = Instant::now();
    let limits = Limits::new(threads, None);
    let (margin, stats) = search.margin(mine, theirs, limits).expect("no budget");
    let seconds = clock.elapsed().as_secs_f64();
    print!("{rows}x{cols} black {margin:+} nodes {} seconds {seconds:.3} probes {}", stats.nodes, stats.probes);
    if value {
        let (v, stats) = search.value(mine, theirs, limits).expect("no budget");
        print!(" value {v} nodes {} seconds {:.3}", stats.nodes, clock.elapsed().as_secs_f64());
    }
    println!();
}

/// A line's position for the side to move: (its discs, the other's).
fn parse(line: &str) -> (u64, u64) {
    let mut fields = line.split(|c: char| c.is_whitespace() || c == ';').filter(|f| !f.is_empty());
    let board = fields.next().expect("a board");
    let side = fields.next().expect("a side to move");
    let (mut black, mut white) = (0u64, 0u64);
    for (cell, ch) in board.chars().take(64).enumerate() {
        match ch {
            'X' | 'x' | '*' => black |= 1 << cell,
            'O' | 'o' => white |= 1 << cell,
            _ => {}
        }
    }
    if side.eq_ignore_ascii_case("x") {
        (black, white)
    } else {
        (white, black)
    }
}

fn name(mv: FlipMove) -> String {
    match mv {
        FlipMove::Cell(c) => format!("{}{}", (b'A' + c % 8) as char, c / 8 + 1),
        FlipMove::Pass => "PS".to_string(),
    }
}
