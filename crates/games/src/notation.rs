//! Plain, readable descriptions of moves, shared by the games' explanations.

use crate::error::FormatError;
use gsolve_engine::Game;
use std::fmt;

/// A cell as (row, column), both 1-based, row 1 at the top as in the input files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    /// 1-based row, counted from the top.
    pub row: u32,
    /// 1-based column, counted from the left.
    pub col: u32,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// One piece moving from one cell to another (or staying, where the rules allow);
/// in games where a side moves every piece at once, the other pieces' steps too;
/// or a piece dropped onto a cell (`from` = `to`, `drop` its letter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMove {
    /// Who moves, e.g. `"queen"`.
    pub side: &'static str,
    /// Where the piece was.
    pub from: Coord,
    /// Where it goes.
    pub to: Coord,
    /// The other pieces moved in the same turn, (from, to) each, in order; the
    /// first `None` ends the list.
    pub also: [Option<(Coord, Coord)>; 3],
    /// The letter of a piece dropped onto `to` (from outside the board), if the
    /// move is a drop.
    pub drop: Option<char>,
    /// The side passes: it has no move, and the rules let it pass (`from` and
    /// `to` are a cell of its own, or (1,1) when it has none).
    pub pass: bool,
}

impl PieceMove {
    /// One piece's move.
    pub fn new(side: &'static str, from: Coord, to: Coord) -> Self {
        PieceMove { side, from, to, also: [None; 3], drop: None, pass: false }
    }

    /// A piece with letter `letter` dropped onto `to`.
    pub fn dropped(side: &'static str, letter: char, to: Coord) -> Self {
        PieceMove { side, from: to, to, also: [None; 3], drop: Some(letter), pass: false }
    }

    /// A pass by a side with no move, written at cell `at`.
    pub fn passed(side: &'static str, at: Coord) -> Self {
        PieceMove { pass: true, ..PieceMove::new(side, at, at) }
    }

    /// Every piece's (from, to) in the turn, this piece first.
    pub fn steps(&self) -> impl Iterator<Item = (Coord, Coord)> + '_ {
        std::iter::once((self.from, self.to)).chain(self.also.iter().map_while(|s| *s))
    }
}

impl fmt::Display for PieceMove {
    /// `queen (1,1) -> (1,2)`, `queen stays at (1,1)`; several pieces: `cops (1,1) ->
    /// (1,2), (3,3) stays`; a drop: `x X*(2,2)` (shogi's `P*5e`, with a cell).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pass {
            return write!(f, "{} passes", self.side);
        }
        if let Some(letter) = self.drop {
            return write!(f, "{} {letter}*{}", self.side, self.to);
        }
        if self.also[0].is_none() {
            return if self.from == self.to {
                write!(f, "{} stays at {}", self.side, self.from)
            } else {
                write!(f, "{} {} -> {}", self.side, self.from, self.to)
            };
        }
        write!(f, "{}", self.side)?;
        for (i, (from, to)) in self.steps().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            if from == to {
                write!(f, "{sep}{from} stays")?;
            } else {
                write!(f, "{sep}{from} -> {to}")?;
            }
        }
        Ok(())
    }
}

/// What a game says about its positions and moves in words, for explanations.
pub trait Explain: Game {
    /// The name of the side to move, e.g. `"queen"`.
    fn side_to_move(&self, position: &Self::Position) -> &'static str;
    /// A move in readable form.
    fn describe_move(&self, position: &Self::Position, mv: &Self::Move) -> PieceMove;
    /// How the game ended, for a position where it is over; `None` otherwise.
    fn describe_end(&self, position: &Self::Position) -> Option<String>;
}

/// A position drawn as rows of one-character cells, row 1 at the top, for terminals
/// and web pages. The default reads the rows from the plain notation's first word:
/// games whose notation is the board itself (pawns, snakes, rules games) need
/// nothing more.
pub trait DrawnBoard: PlainNotation {
    /// The rows, top to bottom, each a string of one character a cell.
    fn drawn_rows(&self, position: &Self::Position) -> Vec<String> {
        let text = self.format_position(position);
        text.split_whitespace().next().unwrap_or("").split('/').map(str::to_string).collect()
    }
}

/// A game's plain position notation: one line of text a user can type, documented in
/// docs/games.md for each game (pawns: `pppp/..../..../PPPP w`).
///
/// # Invariant
/// `parse_position(&format_position(p)) == Ok(p)` for every position `p` of the game.
pub trait PlainNotation: Game {
    /// Parses one position; errors give the 1-based column in `text` where they can.
    fn parse_position(&self, text: &str) -> Result<Self::Position, FormatError>;
    /// Writes a position in plain notation.
    fn format_position(&self, position: &Self::Position) -> String;
}
