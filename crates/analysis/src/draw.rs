//! A board as a grid of one-character cells, for terminals and web pages.

use gsolve_engine::Game;
use gsolve_games::chase::{Chase, ChasePosition};
use gsolve_games::notation::PlainNotation;
use gsolve_games::pawns::{Pawns, PawnsPosition};
use gsolve_games::queens_case::{Cell, QueensCase, QueensPosition};
use gsolve_games::snakes::{Mask, Snakes, SnakesPosition};
use gsolve_rules::{RulesGame, RulesPosition};
use serde_json::json;

/// A board: `rows` strings of `cols` characters, row 1 at the top.
///
/// | game          | characters                                                       |
/// |---------------|------------------------------------------------------------------|
/// | `pawns`       | `P` white pawn, `p` black pawn, `.` empty                        |
/// | `chase`       | `W` white, `B` black, `X` both (a capture), `.` empty            |
/// | `queens-case` | `Q` queen, `A` army, `X` both, `E` exit, `#` wall, `.` floor     |
/// | `snakes`      | `1` and `2` heads, `a` and `b` their bodies, `#` obstacle, `.` free |
/// | `rules`       | the rules' piece letters and zone marks, `#` wall, `.` empty      |
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

/// Drawing a position as rows of characters (a [`Board`]).
pub trait Draw: Game {
    /// The position's board.
    fn board(&self, position: &Self::Position) -> Board;
}

impl Draw for Pawns {
    fn board(&self, position: &PawnsPosition) -> Board {
        Board::from_notation(&self.format_position(position))
    }
}

impl<M: Mask> Draw for Snakes<M> {
    fn board(&self, position: &SnakesPosition<M>) -> Board {
        Board::from_notation(&self.format_position(position))
    }
}

impl Draw for Chase {
    fn board(&self, p: &ChasePosition) -> Board {
        let n = self.size();
        let rows = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| match (r * n + c == p.white, r * n + c == p.black) {
                        (true, true) => 'X',
                        (true, false) => 'W',
                        (false, true) => 'B',
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        Board::from_rows(rows)
    }
}

impl Draw for QueensCase {
    fn board(&self, p: &QueensPosition) -> Board {
        let map = self.map();
        let (queen, army) = (self.coord(p.queen), self.coord(p.army));
        let rows = (0..map.height())
            .map(|r| {
                (0..map.width())
                    .map(|c| {
                        let here = |at: gsolve_games::notation::Coord| at.row == r + 1 && at.col == c + 1;
                        match (here(queen), here(army), map.cell(r, c)) {
                            (true, true, _) => 'X',
                            (true, false, _) => 'Q',
                            (false, true, _) => 'A',
                            (_, _, Cell::Wall) => '#',
                            (_, _, Cell::Exit) => 'E',
                            (_, _, Cell::Floor) => '.',
                        }
                    })
                    .collect()
            })
            .collect();
        Board::from_rows(rows)
    }
}

impl Draw for RulesGame {
    fn board(&self, position: &RulesPosition) -> Board {
        Board::from_notation(&self.format_position(position))
    }
}
