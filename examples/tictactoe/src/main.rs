//! Solves tic-tac-toe with gsolve's engine and prints what it found.
#![forbid(unsafe_code)]

use gsolve_engine::line::principal_line;
use gsolve_engine::reachable::count_reachable;
use gsolve_engine::retrograde::solve_forward_only;
use gsolve_engine::Indexed;
use tictactoe::{Board, TicTacToe};

/// Names of the cells, by cell number.
const CELL_NAMES: [&str; 9] =
    ["top left", "top", "top right", "left", "centre", "right", "bottom left", "bottom", "bottom right"];

fn main() {
    let game = TicTacToe;
    let start = Board::EMPTY;
    let solution = solve_forward_only(&game);

    let value = solution.value_of(&game, &start).expect("the start is a position");
    println!("empty board, X to move: {value}");
    println!("positions reachable from the start: {}", count_reachable(&game, &start));

    let counts = solution.counts();
    let positions = counts.wins + counts.losses + counts.ties + counts.draws;
    println!(
        "all {} indices: {} positions ({} wins, {} losses, {} ties, {} draws for the side to move), {} holes",
        game.index_size(),
        positions,
        counts.wins,
        counts.losses,
        counts.ties,
        counts.draws,
        counts.holes,
    );

    println!("\noptimal line:\n{start}");
    let line = principal_line(&game, &solution, &start, 9);
    let mut board = start;
    for (n, ply) in line.plies.iter().enumerate() {
        board = board.play(ply.mv);
        println!(
            "\nply {}: {} takes the {} ({} for {})\n{board}",
            n + 1,
            ply.before.to_move(),
            CELL_NAMES[ply.mv],
            ply.value,
            ply.before.to_move(),
        );
    }
    debug_assert_eq!(board, line.end_position);
}
