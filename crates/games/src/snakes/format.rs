//! The two-snakes input format: `n m`, then n·m whitespace-separated integers row by
//! row: 0 empty, 1 snake 1's head, 2 snake 2's head, anything else an obstacle.
//! gsolve reads any number of such cases one after another.

use crate::error::FormatError;
use crate::text::{excerpt, tokens_with_columns};

/// The largest number of rows or columns.
pub const MAX_SIDE: u32 = 64;
/// The largest number of empty cells: the search keeps the free cells in at most
/// 256 bits ([`super::Mask256`]).
pub const MAX_EMPTY: usize = 256;

/// What a grid cell holds at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// 0.
    Empty,
    /// Any value other than 0, 1, 2 (and the snakes' own cells are not empty).
    Obstacle,
    /// 1: snake 1's head.
    Snake1,
    /// 2: snake 2's head.
    Snake2,
    /// A cell snake 1 has been on: blocked like an obstacle, drawn as its body (plain
    /// notation `a`; the contest format has no such cell).
    Body1,
    /// A cell snake 2 has been on (plain notation `b`).
    Body2,
}

/// One checked board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnakesBoard {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// Row-major cells.
    pub cells: Vec<Cell>,
}

impl SnakesBoard {
    /// The cell at 0-based (row, col).
    pub fn cell(&self, row: u32, col: u32) -> Cell {
        self.cells[(row * self.cols + col) as usize]
    }

    /// How many cells are empty at the start.
    pub fn empty_cells(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Empty).count()
    }
}

/// Parses every case of an input.
pub fn parse_boards(text: &str) -> Result<Vec<SnakesBoard>, FormatError> {
    let tokens: Vec<(usize, usize, &str)> = text
        .lines()
        .enumerate()
        .flat_map(|(i, line)| tokens_with_columns(line).into_iter().map(move |(col, t)| (i + 1, col, t)))
        .collect();
    let mut boards = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let case = boards.len() + 1;
        let err =
            |(line, col, _): (usize, usize, &str), message: String| FormatError::at(case, line, Some(col), message);
        // An integer too large for i64 is still an integer: out of range as a size,
        // an obstacle as a cell (saturated, so it is neither 0, 1 nor 2).
        let number = |i: usize| -> Result<i64, FormatError> {
            let t = tokens[i];
            t.2.parse::<i64>().or_else(|_| {
                let digits = t.2.strip_prefix(['+', '-']).unwrap_or(t.2);
                if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    Ok(if t.2.starts_with('-') { i64::MIN } else { i64::MAX })
                } else {
                    Err(err(t, format!("{} is not an integer", excerpt(t.2))))
                }
            })
        };
        // After a first case, leftovers usually mean that case had too many cells.
        let hint = if case > 1 { format!(" (or case {} has more than n·m cells)", case - 1) } else { String::new() };
        if at + 1 >= tokens.len() {
            return Err(err(tokens[at], format!("truncated case: expected the size `n m`{hint}")));
        }
        let (n, m) = (number(at)?, number(at + 1)?);
        for (i, v, what) in [(at, n, "n (rows)"), (at + 1, m, "m (columns)")] {
            if !(1..=MAX_SIDE as i64).contains(&v) {
                let shown = tokens[i].2;
                return Err(err(tokens[i], format!("{what} = {shown} is out of range 1..={MAX_SIDE}{hint}")));
            }
        }
        let (rows, cols) = (n as u32, m as u32);
        let count = (rows * cols) as usize;
        let first = at + 2;
        if first + count > tokens.len() {
            let last = tokens[tokens.len() - 1];
            return Err(err(
                last,
                format!(
                    "truncated case: a {rows}x{cols} board needs {count} cells, the input has {}{hint}",
                    tokens.len() - first
                ),
            ));
        }
        let mut cells = Vec::with_capacity(count);
        let mut heads: [Option<(usize, usize, &str)>; 2] = [None, None];
        for (i, &token) in tokens.iter().enumerate().skip(first).take(count) {
            let cell = match number(i)? {
                0 => Cell::Empty,
                v @ (1 | 2) => {
                    let slot = &mut heads[v as usize - 1];
                    if let Some((line, col, _)) = *slot {
                        return Err(err(
                            token,
                            format!("a second head of snake {v} (the first is at line {line}, column {col})"),
                        ));
                    }
                    *slot = Some(token);
                    if v == 1 {
                        Cell::Snake1
                    } else {
                        Cell::Snake2
                    }
                }
                _ => Cell::Obstacle,
            };
            cells.push(cell);
        }
        for (s, head) in heads.iter().enumerate() {
            if head.is_none() {
                return Err(err(tokens[at], format!("the board has no snake {} (no cell holds {})", s + 1, s + 1)));
            }
        }
        let empty = cells.iter().filter(|&&c| c == Cell::Empty).count();
        if empty > MAX_EMPTY {
            return Err(err(
                tokens[at],
                format!("the board has {empty} empty cells; at most {MAX_EMPTY} are supported"),
            ));
        }
        boards.push(SnakesBoard { rows, cols, cells });
        at = first + count;
    }
    Ok(boards)
}
