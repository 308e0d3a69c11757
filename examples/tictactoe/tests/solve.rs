//! The engine's solution of tic-tac-toe against an independent plain minimax.

use gsolve_engine::line::{principal_line, LineEnd};
use gsolve_engine::reachable::{count_reachable, reachable};
use gsolve_engine::retrograde::solve_forward_only;
use gsolve_engine::{Indexed, Solution, Value};
use std::collections::HashSet;
use std::sync::OnceLock;
use tictactoe::{Board, Player, TicTacToe};

/// The engine's solution, computed once for all tests.
fn solution() -> &'static Solution {
    static SOLUTION: OnceLock<Solution> = OnceLock::new();
    SOLUTION.get_or_init(|| solve_forward_only(&TicTacToe))
}

fn value(board: &str) -> Value {
    let board: Board = board.parse().expect("a board");
    solution().value_of(&TicTacToe, &board).expect("a position")
}

/// The oracle: its own board (`0` empty, `1` X, `2` O), its own rules and a plain
/// recursive minimax, sharing nothing with the game or the engine but `Value`.
mod oracle {
    use gsolve_engine::Value;

    pub type Cells = [u8; 9];

    const LINES: [[usize; 3]; 8] =
        [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

    fn line(cells: &Cells, mark: u8) -> bool {
        LINES.iter().any(|l| l.iter().all(|&c| cells[c] == mark))
    }

    /// The side to move: X (1) when the counts are equal, else O (2).
    pub fn mover(cells: &Cells) -> u8 {
        let x = cells.iter().filter(|&&c| c == 1).count();
        let o = cells.iter().filter(|&&c| c == 2).count();
        if x == o {
            1
        } else {
            2
        }
    }

    /// True when the game is over: a line on the board or no empty cell.
    pub fn over(cells: &Cells) -> bool {
        line(cells, 1) || line(cells, 2) || !cells.contains(&0)
    }

    /// The value for the side to move: win as fast as possible, lose as slowly as
    /// possible, otherwise tie as fast as possible. (In tic-tac-toe a tie always ends
    /// on a full board, so every tie-in-`r` has `r` empty cells and the fastest-tie
    /// rule never has to choose.)
    pub fn minimax(cells: &mut Cells) -> Value {
        let me = mover(cells);
        let other = 3 - me;
        if line(cells, other) {
            return Value::Loss(0);
        }
        if line(cells, me) {
            // Never reached in play; the game's rule for such boards.
            return Value::Win(0);
        }
        // Remoteness, seen from here, of each kind of child.
        let (mut opponent_loses, mut tie, mut opponent_wins) = (vec![], vec![], vec![]);
        for cell in 0..9 {
            if cells[cell] != 0 {
                continue;
            }
            cells[cell] = me;
            let child = minimax(cells);
            cells[cell] = 0;
            match child {
                Value::Loss(r) => opponent_loses.push(r + 1),
                Value::Tie(r) => tie.push(r + 1),
                Value::Win(r) => opponent_wins.push(r + 1),
                Value::Draw => unreachable!("tic-tac-toe always ends"),
            }
        }
        if let Some(&r) = opponent_loses.iter().min() {
            Value::Win(r)
        } else if let Some(&r) = tie.iter().min() {
            Value::Tie(r)
        } else if let Some(&r) = opponent_wins.iter().max() {
            Value::Loss(r)
        } else {
            // A full board without a line.
            Value::Tie(0)
        }
    }

    /// Every board reachable from the empty one, found by the oracle's own rules.
    pub fn reachable() -> Vec<Cells> {
        let mut seen = std::collections::HashSet::from([[0; 9]]);
        let mut stack = vec![[0; 9]];
        while let Some(cells) = stack.pop() {
            if over(&cells) {
                continue;
            }
            for cell in (0..9).filter(|&c| cells[c] == 0) {
                let mut child = cells;
                child[cell] = mover(&cells);
                if seen.insert(child) {
                    stack.push(child);
                }
            }
        }
        seen.into_iter().collect()
    }
}

fn cells_of(board: &Board) -> oracle::Cells {
    std::array::from_fn(|i| match board.cell(i) {
        None => 0,
        Some(Player::X) => 1,
        Some(Player::O) => 2,
    })
}

#[test]
fn the_empty_board_is_a_tie_in_nine() {
    assert_eq!(solution().value_of(&TicTacToe, &Board::EMPTY), Some(Value::Tie(9)));
}

#[test]
fn positions_reachable_from_the_start() {
    assert_eq!(count_reachable(&TicTacToe, &Board::EMPTY), 5478);
}

#[test]
fn the_engine_and_the_oracle_reach_the_same_boards() {
    let game = TicTacToe;
    let by_oracle: HashSet<oracle::Cells> = oracle::reachable().into_iter().collect();
    assert_eq!(by_oracle.len(), 5478);
    let by_engine: HashSet<oracle::Cells> = reachable(&game, &Board::EMPTY)
        .iter()
        .enumerate()
        .filter(|(_, &seen)| seen)
        .map(|(i, _)| cells_of(&game.position(i as u64).expect("a reachable board")))
        .collect();
    assert_eq!(by_engine, by_oracle);
}

#[test]
fn every_reachable_position_matches_plain_minimax() {
    let game = TicTacToe;
    let reached = reachable(&game, &Board::EMPTY);
    let mut checked = 0;
    for (index, _) in reached.iter().enumerate().filter(|(_, &seen)| seen) {
        let board = game.position(index as u64).expect("a reachable board");
        let expected = oracle::minimax(&mut cells_of(&board));
        assert_eq!(solution().value(index as u64), Some(expected), "\n{board}");
        checked += 1;
    }
    assert_eq!(checked, 5478);
}

#[test]
fn every_indexed_position_matches_plain_minimax() {
    let game = TicTacToe;
    let mut checked = 0;
    for index in 0..game.index_size() {
        let Some(board) = game.position(index) else {
            assert_eq!(solution().value(index), None, "index {index} is a hole");
            continue;
        };
        let cells = cells_of(&board);
        let expected = oracle::minimax(&mut cells.clone());
        assert_eq!(solution().value(index), Some(expected), "\n{board}");
        if let Value::Tie(r) = expected {
            let empty = cells.iter().filter(|&&c| c == 0).count();
            assert_eq!(r as usize, empty, "ties end on a full board\n{board}");
        }
        checked += 1;
    }
    assert_eq!(checked, 6046);
}

#[test]
fn handpicked_positions() {
    // X to move with two in a row and the third cell free: wins at once.
    assert_eq!(value("XX. OO. ..."), Value::Win(1));
    // O to move, X threatens the top row, O completes the middle row first.
    assert_eq!(value("XX. OO. X.."), Value::Win(1));
    // O has a double threat (cells 2 and 6) and X no line to finish: X loses.
    assert_eq!(value("OO. OXX .X."), Value::Loss(2));
    // X just made a line: O to move has lost.
    assert_eq!(value("XXX OO. ..."), Value::Loss(0));
    // A full board without a line.
    assert_eq!(value("XOX XOO OXX"), Value::Tie(0));
    // One empty cell, and filling it makes no line.
    assert_eq!(value("XOX XOO OX."), Value::Tie(1));
    // X in the centre: O's corner reply holds the tie...
    assert_eq!(value("... .X. ..."), Value::Tie(8));
    assert_eq!(value("O.. .X. ..."), Value::Tie(7));
    // ...but an edge reply loses: X corner, O must block, X forks, X wins.
    assert_eq!(value(".O. .X. ..."), Value::Win(5));
}

#[test]
fn the_principal_line_ties_on_a_full_board() {
    let line = principal_line(&TicTacToe, solution(), &Board::EMPTY, 20);
    assert_eq!(line.end, LineEnd::GameOver);
    assert_eq!(line.plies.len(), 9);
    assert_eq!(line.plies[0].value, Value::Tie(9));
    let end = line.end_position;
    assert!(!end.has_line(Player::X) && !end.has_line(Player::O));
}
