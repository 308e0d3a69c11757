//! The snakes' plain position notation: the board's rows top to bottom joined by
//! `/`, then the snake to move, `1` or `2`:
//!
//! ```text
//! a1.#/..../#.b2 1      . free          # an obstacle
//!                       1 2 the heads   a b cells snake 1 / snake 2 has been on
//! ```
//! `a` and `b` block a cell exactly as `#` does; they only say whose body it is, so
//! that a board can be drawn with each snake's body apart from the walls.
//!
//! A board in this notation is a game of its own ([`parse_plain`]: blocked cells are
//! obstacles, the heads start where they stand), and within a game
//! ([`PlainNotation`]) it is a position: the free cells, the heads and the side to
//! move.

use super::{Cell, Mask, Node, Snakes, SnakesBoard, SnakesPosition, MAX_EMPTY, MAX_SIDE};
use crate::error::FormatError;
use crate::notation::PlainNotation;
use crate::plain::{exact_tokens, notation_error};
use crate::text::excerpt;

const EXAMPLE: &str =
    "rows joined by '/' (. free, # obstacle, 1 and 2 the heads, a and b their bodies), then 1 or 2 (e.g. `a1./.#./..2 1`)";

/// One character of the board with its grid cell and 1-based column in the text.
struct Square {
    row: u32,
    col: u32,
    column: usize,
    ch: char,
}

/// Splits the board token into squares; checks the shape (every row as wide as the
/// first, 1 to [`MAX_SIDE`] each way).
fn squares((column, board): (usize, &str)) -> Result<(u32, u32, Vec<Square>), FormatError> {
    let mut squares = Vec::new();
    let mut at = column;
    let mut widths = Vec::new();
    for (row, text) in board.split('/').enumerate() {
        let width = text.chars().count();
        if let Some(&first) = widths.first() {
            if width != first {
                return Err(notation_error(
                    at,
                    format!("row {} has {width} cells, the first row has {first}", row + 1),
                ));
            }
        }
        widths.push(width);
        for (col, ch) in text.chars().enumerate() {
            squares.push(Square { row: row as u32, col: col as u32, column: at + col, ch });
        }
        at += width + 1;
    }
    let (rows, cols) = (widths.len() as u32, widths[0] as u32);
    if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
        return Err(notation_error(
            column,
            format!("the board is {rows}x{cols}; rows and columns must be 1 to {MAX_SIDE}"),
        ));
    }
    Ok((rows, cols, squares))
}

/// Reads the side token: snake 1 (0) or snake 2 (1).
fn side((column, token): (usize, &str)) -> Result<u8, FormatError> {
    match token {
        "1" => Ok(0),
        "2" => Ok(1),
        other => Err(notation_error(column, format!("snake to move {}: expected 1 or 2", excerpt(other)))),
    }
}

/// A board in plain notation as a game of its own: blocked cells become obstacles,
/// the heads start where they stand. Returns the board and the snake to move (0 for
/// snake 1, 1 for snake 2); play it with [`Snakes::new`] from [`Snakes::start`] with
/// `to_move` set.
pub fn parse_plain(text: &str) -> Result<(SnakesBoard, u8), FormatError> {
    let tokens = exact_tokens(text, &["the board", "the snake to move"], EXAMPLE)?;
    let (rows, cols, squares) = squares(tokens[0])?;
    let to_move = side(tokens[1])?;
    let mut cells = Vec::with_capacity(squares.len());
    let mut heads = [None, None];
    for square in &squares {
        cells.push(match square.ch {
            '.' => Cell::Empty,
            '#' => Cell::Obstacle,
            'a' => Cell::Body1,
            'b' => Cell::Body2,
            '1' | '2' => {
                let snake = square.ch as usize - '1' as usize;
                if let Some(first) = heads[snake] {
                    return Err(notation_error(
                        square.column,
                        format!("a second head of snake {} (the first is at column {first})", snake + 1),
                    ));
                }
                heads[snake] = Some(square.column);
                [Cell::Snake1, Cell::Snake2][snake]
            }
            other => {
                return Err(notation_error(square.column, format!("unknown cell {other:?}: expected . # a b 1 or 2")))
            }
        });
    }
    for (snake, head) in heads.iter().enumerate() {
        if head.is_none() {
            return Err(notation_error(tokens[0].0, format!("the board has no snake {}", snake + 1)));
        }
    }
    let empty = cells.iter().filter(|&&c| c == Cell::Empty).count();
    if empty > MAX_EMPTY {
        return Err(notation_error(tokens[0].0, format!("{empty} free cells; at most {MAX_EMPTY} are supported")));
    }
    Ok((SnakesBoard { rows, cols, cells }, to_move))
}

impl<M: Mask> PlainNotation for Snakes<M> {
    /// A position of this board: the same size, free cells only where the board
    /// had empty cells, heads on any cell but an obstacle.
    fn parse_position(&self, text: &str) -> Result<SnakesPosition<M>, FormatError> {
        let tokens = exact_tokens(text, &["the board", "the snake to move"], EXAMPLE)?;
        let (rows, cols, squares) = squares(tokens[0])?;
        if (rows, cols) != (self.rows, self.cols) {
            return Err(notation_error(
                tokens[0].0,
                format!("the board is {rows}x{cols} but this game is {}x{}", self.rows, self.cols),
            ));
        }
        let to_move = side(tokens[1])?;
        let empty = self.empty_cells();
        let mut free = M::EMPTY;
        let mut heads: [Option<Node>; 2] = [None, None];
        for square in &squares {
            let node = self.node_of[(square.row * self.cols + square.col) as usize];
            let at = |what: &str| format!("cell {},{} {what}", square.row + 1, square.col + 1);
            match square.ch {
                '#' | 'a' | 'b' => {}
                '.' if node < empty => free |= M::cell(node as usize),
                '.' if node == u32::MAX => {
                    return Err(notation_error(square.column, at("is an obstacle on this board")))
                }
                '.' => return Err(notation_error(square.column, at("is a snake's start cell: never free again"))),
                '1' | '2' => {
                    let snake = square.ch as usize - '1' as usize;
                    if node == u32::MAX {
                        return Err(notation_error(square.column, at("is an obstacle on this board")));
                    }
                    if heads[snake].is_some() {
                        return Err(notation_error(square.column, format!("a second head of snake {}", snake + 1)));
                    }
                    heads[snake] = Some(node as Node);
                }
                other => {
                    return Err(notation_error(
                        square.column,
                        format!("unknown cell {other:?}: expected . # a b 1 or 2"),
                    ))
                }
            }
        }
        let [Some(first), Some(second)] = heads else {
            let missing = if heads[0].is_none() { 1 } else { 2 };
            return Err(notation_error(tokens[0].0, format!("the board has no snake {missing}")));
        };
        Ok(SnakesPosition { free, heads: [first, second], to_move })
    }

    /// Bodies as `a` and `b`: those the board was read with, and the cells visited
    /// since (see [`Snakes::bodies`]).
    fn format_position(&self, p: &SnakesPosition<M>) -> String {
        let owners = self.bodies(p);
        let rows: Vec<String> = (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        let cell = (r * self.cols + c) as usize;
                        match (self.node_of[cell], self.board[cell]) {
                            (u32::MAX, Cell::Body1) => 'a',
                            (u32::MAX, Cell::Body2) => 'b',
                            (u32::MAX, _) => '#',
                            (node, _) if node == p.heads[0] as u32 => '1',
                            (node, _) if node == p.heads[1] as u32 => '2',
                            (node, _) if node < self.empty_cells() && p.free.contains(node as usize) => '.',
                            (node, _) => ['a', 'b'][owners[node as usize] as usize],
                        }
                    })
                    .collect()
            })
            .collect();
        format!("{} {}", rows.join("/"), p.to_move + 1)
    }
}

/// The plain notation is the board.
impl<M: Mask> crate::notation::DrawnBoard for Snakes<M> {}
