//! Tic-tac-toe, written the way a gsolve user writes a game: the rules through
//! [`Game`], a dense numbering of the boards through [`Indexed`], and nothing else.
//!
//! Without [`gsolve_engine::Unmoves`] the game does not know its parents;
//! [`gsolve_engine::retrograde::solve_forward_only`] builds them from the moves.
//!
//! ```
//! use gsolve_engine::{retrograde, Value};
//! use tictactoe::{Board, TicTacToe};
//!
//! let solution = retrograde::solve_forward_only(&TicTacToe);
//! assert_eq!(solution.value_of(&TicTacToe, &Board::EMPTY), Some(Value::Tie(9)));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use gsolve_engine::{Game, Indexed, Outcome};
use std::fmt;
use std::str::FromStr;

/// One of the two players. X moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Player {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Player {
    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::X => "X",
            Player::O => "O",
        })
    }
}

/// The eight lines of three, by cell number (cells are numbered as in [`TicTacToe`]).
pub const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// A position: the nine cells. The side to move is not stored: X has moved as often
/// as O when X is to move, once more when O is to move.
///
/// Every `Board` value has counts that fit this rule: boards are made by
/// [`Board::EMPTY`], [`Board::play`], [`FromStr`] or [`Indexed::position`], which all
/// keep it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    cells: [Option<Player>; 9],
}

impl Board {
    /// The empty board, X to move.
    pub const EMPTY: Board = Board { cells: [None; 9] };

    /// Checks the piece counts; `None` if no side could be to move.
    fn new(cells: [Option<Player>; 9]) -> Option<Board> {
        let count = |p| cells.iter().filter(|&&c| c == Some(p)).count();
        let (x, o) = (count(Player::X), count(Player::O));
        (x == o || x == o + 1).then_some(Board { cells })
    }

    /// What is in `cell` (0..9).
    pub fn cell(&self, cell: usize) -> Option<Player> {
        self.cells[cell]
    }

    /// The side to move.
    pub fn to_move(&self) -> Player {
        let empty = self.cells.iter().filter(|c| c.is_none()).count();
        // 9 empty cells: X to move; 8: O; 7: X; ...
        if empty % 2 == 1 {
            Player::X
        } else {
            Player::O
        }
    }

    /// True if `player` has three in a row.
    pub fn has_line(&self, player: Player) -> bool {
        LINES.iter().any(|line| line.iter().all(|&c| self.cells[c] == Some(player)))
    }

    /// The board after the side to move puts a mark on the empty `cell`.
    ///
    /// # Panics
    /// If `cell` is taken (or not in `0..9`).
    pub fn play(&self, cell: usize) -> Board {
        assert!(self.cells[cell].is_none(), "cell {cell} is taken");
        let mut next = *self;
        next.cells[cell] = Some(self.to_move());
        next
    }
}

/// A string that is not a board: see [`Board`]'s [`FromStr`] implementation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ParseBoardError;

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected 9 cells of `X`, `O` or `.`, with as many X as O or one more")
    }
}

impl std::error::Error for ParseBoardError {}

impl FromStr for Board {
    type Err = ParseBoardError;

    /// Reads nine cells row by row, `X`, `O` or `.` (empty); whitespace is ignored:
    /// `"XO. .X. ..O"`.
    fn from_str(s: &str) -> Result<Board, ParseBoardError> {
        let mut cells = [None; 9];
        let mut n = 0;
        for ch in s.chars().filter(|ch| !ch.is_whitespace()) {
            let cell = cells.get_mut(n).ok_or(ParseBoardError)?;
            *cell = match ch {
                'X' => Some(Player::X),
                'O' => Some(Player::O),
                '.' => None,
                _ => return Err(ParseBoardError),
            };
            n += 1;
        }
        if n != 9 {
            return Err(ParseBoardError);
        }
        Board::new(cells).ok_or(ParseBoardError)
    }
}

impl fmt::Display for Board {
    /// Three rows of three, `.` for an empty cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (row, cells) in self.cells.chunks(3).enumerate() {
            if row > 0 {
                writeln!(f)?;
            }
            for (col, cell) in cells.iter().enumerate() {
                let sep = if col > 0 { " " } else { "" };
                match cell {
                    Some(p) => write!(f, "{sep}{p}")?,
                    None => write!(f, "{sep}.")?,
                }
            }
        }
        Ok(())
    }
}

/// The game. A move is the number of the empty cell the side to move marks.
///
/// # Index layout
/// A board is the base-3 number whose digit `k` is cell `k`:
///
/// ```text
///  cell numbers        weight of each cell's digit     digit: 0 empty
///   0 | 1 | 2             1 |    3 |    9                     1 X
///  ---+---+---         -----+------+-----                     2 O
///   3 | 4 | 5            27 |   81 |  243
///  ---+---+---         -----+------+-----
///   6 | 7 | 8           729 | 2187 | 6561
///
///  index = digit(0)·1 + digit(1)·3 + … + digit(8)·6561   in 0..3^9 = 19683
/// ```
///
/// Why this layout: every board gets its own number with plain arithmetic and no
/// table, and the side to move needs no digit of its own because it follows from the
/// counts of X and O. The price is holes: an index whose counts are impossible (more O
/// than X, or X two ahead) names no position. 6,046 of the 19,683 indices are boards;
/// the 5,478 of them that play can reach are solved together with the rest, which
/// costs nothing at this size.
///
/// # End of the game
/// The game ends as soon as a line of three is on the board:
/// - a line of the side that just moved: the side to move has lost
///   ([`Outcome::Loss`]);
/// - a full board without a line: [`Outcome::Tie`].
///
/// The index also holds boards that play never reaches, such as a line of the side
/// to move (the game would have ended before). Such a board is a win for the side to
/// move ([`Outcome::Win`]), so that every indexed board has a sensible value; if both
/// sides have a line, the last mover's line counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToe;

impl Game for TicTacToe {
    type Position = Board;
    type Move = usize;

    fn terminal(&self, board: &Board) -> Option<Outcome> {
        let mover = board.to_move();
        if board.has_line(mover.opponent()) {
            Some(Outcome::Loss)
        } else if board.has_line(mover) {
            Some(Outcome::Win)
        } else if board.cells.iter().all(Option::is_some) {
            Some(Outcome::Tie)
        } else {
            None
        }
    }

    fn moves(&self, board: &Board, moves: &mut Vec<usize>) {
        moves.extend((0..9).filter(|&cell| board.cells[cell].is_none()));
    }

    fn play(&self, board: &Board, cell: &usize) -> Board {
        board.play(*cell)
    }
}

impl Indexed for TicTacToe {
    fn index_size(&self) -> u64 {
        3u64.pow(9)
    }

    fn index(&self, board: &Board) -> u64 {
        // Horner's rule from the most significant digit, cell 8, down to cell 0.
        board.cells.iter().rev().fold(0, |index, cell| {
            let digit = match cell {
                None => 0,
                Some(Player::X) => 1,
                Some(Player::O) => 2,
            };
            index * 3 + digit
        })
    }

    fn position(&self, mut index: u64) -> Option<Board> {
        if index >= self.index_size() {
            return None;
        }
        let mut cells = [None; 9];
        for cell in &mut cells {
            *cell = match index % 3 {
                0 => None,
                1 => Some(Player::X),
                _ => Some(Player::O),
            };
            index /= 3;
        }
        Board::new(cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_position_are_inverse() {
        let game = TicTacToe;
        let mut boards = 0;
        for i in 0..game.index_size() {
            if let Some(board) = game.position(i) {
                assert_eq!(game.index(&board), i);
                boards += 1;
            }
        }
        assert_eq!(boards, 6046);
    }

    #[test]
    fn the_layout_drawn_in_the_docs() {
        let game = TicTacToe;
        assert_eq!(game.index(&Board::EMPTY), 0);
        // X in cell 4 (weight 81), O in cell 0 (weight 1).
        let board: Board = "O.. .X. ...".parse().unwrap();
        assert_eq!(game.index(&board), 2 + 81);
        // Nine X: impossible counts, a hole.
        assert_eq!(game.position(9841), None);
    }

    #[test]
    fn side_to_move_follows_the_counts() {
        assert_eq!(Board::EMPTY.to_move(), Player::X);
        let after_one = Board::EMPTY.play(4);
        assert_eq!(after_one.to_move(), Player::O);
        assert_eq!(after_one.play(0).to_move(), Player::X);
        assert_eq!("OO. ... ...".parse::<Board>(), Err(ParseBoardError));
        assert_eq!("XXX ... ...".parse::<Board>(), Err(ParseBoardError));
    }

    #[test]
    fn parse_and_display_round_trip() {
        let text = "X O .\n. X .\nO . .";
        let board: Board = text.parse().unwrap();
        assert_eq!(board.to_string(), text);
        assert_eq!(board.cell(0), Some(Player::X));
        assert_eq!(board.cell(2), None);
    }

    #[test]
    fn terminal_positions() {
        let game = TicTacToe;
        let x_won: Board = "XXX OO. ...".parse().unwrap();
        assert_eq!(game.terminal(&x_won), Some(Outcome::Loss));
        let full: Board = "XOX XOO OXX".parse().unwrap();
        assert_eq!(game.terminal(&full), Some(Outcome::Tie));
        assert_eq!(game.terminal(&Board::EMPTY), None);
        // Never reached in play: X to move with X's line already there.
        let odd: Board = "XXX OOO ...".parse().unwrap();
        assert_eq!(odd.to_move(), Player::X);
        assert_eq!(game.terminal(&odd), Some(Outcome::Loss));
        let odd: Board = "XXX OO. O..".parse().unwrap();
        assert_eq!(game.terminal(&odd), Some(Outcome::Win));
    }
}
