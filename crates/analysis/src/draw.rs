//! A board as a grid of one-character cells, for terminals and web pages.

use gsolve_engine::Game;
use gsolve_games::notation::DrawnBoard;
use serde_json::json;

/// A board: `rows` strings of `cols` characters, row 1 at the top. Each game's
/// characters are listed in its catalog entry ([`crate::catalog::Entry::cells`]);
/// a rules game's are the rules' piece letters and zone marks, `#` wall, `.` empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Number of rows.
    pub rows: u32,
    /// Number of columns.
    pub cols: u32,
    /// The rows, top to bottom.
    pub cells: Vec<String>,
}

impl Board {
    /// The character at 1-based (row, col).
    pub fn at(&self, row: u32, col: u32) -> char {
        self.cells[row as usize - 1].chars().nth(col as usize - 1).unwrap_or(' ')
    }

    /// As JSON: `{"rows", "cols", "cells": [row strings]}`.
    pub fn to_json(&self) -> serde_json::Value {
        json!({"rows": self.rows, "cols": self.cols, "cells": self.cells})
    }

    fn from_rows(rows: Vec<String>) -> Board {
        Board { rows: rows.len() as u32, cols: rows.first().map_or(0, |r| r.chars().count() as u32), cells: rows }
    }

    pub(crate) fn from_notation(notation: &str) -> Board {
        let board = notation.split_whitespace().next().unwrap_or("");
        Board::from_rows(board.split('/').map(str::to_string).collect())
    }
}

/// Drawing a position as rows of characters (a [`Board`]): every game that draws
/// itself ([`DrawnBoard`], in its own module) does.
pub trait Draw: Game {
    /// The position's board.
    fn board(&self, position: &Self::Position) -> Board;
}

impl<G: DrawnBoard> Draw for G {
    fn board(&self, position: &G::Position) -> Board {
        Board::from_rows(self.drawn_rows(position))
    }
}
