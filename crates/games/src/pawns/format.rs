//! Pawn chess text formats.
//!
//! **UVa 10838 input**, generalized: a line with the number of cases, then each board
//! as a block of non-blank lines (a blank line before each block): the first line is
//! the rank white wants to reach; `P` white pawn, `p` black pawn, `.` empty. Any R×C
//! board with MIN_SIDE ≤ R, C ≤ MAX_SIDE. Blank lines, CR line ends and spaces
//! around rows are accepted.
//!
//! **Plain notation** of one position: rows top to bottom joined by `/`, a space,
//! then `w` or `b` for the side to move: `pppp/..../..../PPPP w`.

use super::PawnsPosition;
use crate::error::FormatError;
use crate::plain::{exact_tokens, notation_error, parse_side};
use crate::text::excerpt;

/// The smallest number of rows or columns.
pub const MIN_SIDE: u32 = 2;
/// The largest number of rows or columns (a board is a 64-bit bitboard).
pub const MAX_SIDE: u32 = 8;

/// One board of the input (white to move, as in the contest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PawnsCase {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// The pawns; `white_to_move` is true.
    pub position: PawnsPosition,
}

/// Reads the rows of one board: (input line, column of the row's first character,
/// the row's text) each, for messages that point at the cell. `goal_pawns`: accept
/// pawns on their goal rank (decided positions, which an index holds but a contest
/// input never gives).
fn parse_rows(
    case: Option<usize>,
    rows: &[(usize, usize, &str)],
    white_to_move: bool,
    goal_pawns: bool,
) -> Result<PawnsCase, FormatError> {
    let err =
        |line: usize, column: Option<usize>, message: String| FormatError { case, line: Some(line), column, message };
    let (first_line, _, first) = rows[0];
    let cols = first.chars().count() as u32;
    let height = rows.len() as u32;
    if !(MIN_SIDE..=MAX_SIDE).contains(&height) || !(MIN_SIDE..=MAX_SIDE).contains(&cols) {
        return Err(err(
            first_line,
            None,
            format!("the board is {height}x{cols}; rows and columns must be {MIN_SIDE} to {MAX_SIDE}"),
        ));
    }
    let (mut white, mut black) = (0u64, 0u64);
    for (r, &(line, column_base, text)) in rows.iter().enumerate() {
        let width = text.chars().count() as u32;
        if width != cols {
            return Err(err(line, None, format!("row {} has {width} cells, the board's first row has {cols}", r + 1)));
        }
        for (c, ch) in text.chars().enumerate() {
            let bit = 1u64 << (r as u32 * cols + c as u32);
            let at = Some(column_base + c);
            match ch {
                '.' => {}
                'P' if r == 0 && !goal_pawns => {
                    return Err(err(line, at, "a white pawn is already on its goal rank (the first row)".into()))
                }
                'p' if r as u32 == height - 1 && !goal_pawns => {
                    return Err(err(line, at, "a black pawn is already on its goal rank (the last row)".into()))
                }
                'P' => white |= bit,
                'p' => black |= bit,
                other => return Err(err(line, at, format!("unknown character {other:?} (expected P, p or .)"))),
            }
        }
    }
    Ok(PawnsCase { rows: height, cols, position: PawnsPosition { white, black, white_to_move } })
}

fn boards(n: usize) -> String {
    if n == 1 {
        "1 board".into()
    } else {
        format!("{n} boards")
    }
}

/// Parses a whole input: the case count, then that many boards.
pub fn parse_boards(text: &str) -> Result<Vec<PawnsCase>, FormatError> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    let mut rest = lines.iter().skip_while(|(_, l)| l.trim().is_empty());
    let Some(&(count_line, count_text)) = rest.next() else {
        return Err(FormatError {
            case: None,
            line: None,
            column: None,
            message: "empty input: expected the number of cases".into(),
        });
    };
    let count: usize = count_text.trim().parse().map_err(|_| FormatError {
        case: None,
        line: Some(count_line),
        column: None,
        message: format!("expected the number of cases, found {}", excerpt(count_text.trim())),
    })?;
    // Blocks of non-blank lines.
    let mut blocks: Vec<Vec<(usize, usize, &str)>> = Vec::new();
    let mut in_block = false;
    for &(line, text) in rest {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            in_block = false;
            continue;
        }
        if !in_block {
            blocks.push(Vec::new());
            in_block = true;
        }
        let column_base = text.chars().take_while(|c| c.is_whitespace()).count() + 1;
        blocks.last_mut().expect("a block was started").push((line, column_base, trimmed));
    }
    if blocks.len() < count {
        let last = lines.last().map_or(count_line, |(l, _)| *l);
        return Err(FormatError::at(
            blocks.len() + 1,
            last,
            None,
            format!("the input announces {} but has {} (truncated?)", boards(count), blocks.len()),
        ));
    }
    if blocks.len() > count {
        return Err(FormatError::at(
            count + 1,
            blocks[count][0].0,
            None,
            format!("the input announces {} (line {count_line}) but has more", boards(count)),
        ));
    }
    blocks.iter().enumerate().map(|(i, rows)| parse_rows(Some(i + 1), rows, true, false)).collect()
}

/// Parses a position in plain notation (`pppp/..../..../PPPP w`), of any board size,
/// as a contest input would give it: a pawn on its goal rank is an error. Errors have
/// the column of the offending token or cell.
pub fn parse_position(text: &str) -> Result<PawnsCase, FormatError> {
    parse_plain(text, None, false)
}

/// Plain notation for a board of `size` (rows, columns) if given, any size otherwise;
/// `goal_pawns` as in [`parse_rows`].
pub(super) fn parse_plain(text: &str, size: Option<(u32, u32)>, goal_pawns: bool) -> Result<PawnsCase, FormatError> {
    let example = "rows joined by '/', then w or b (`pppp/..../..../PPPP w`)";
    let tokens = exact_tokens(text, &["the board", "the side to move"], example)?;
    let (board_column, board) = tokens[0];
    let mut column = board_column;
    let rows: Vec<(usize, usize, &str)> = board
        .split('/')
        .map(|row| {
            let entry = (1, column, row);
            column += row.chars().count() + 1;
            entry
        })
        .collect();
    let height = rows.len() as u32;
    let cols = rows[0].2.chars().count() as u32;
    for (r, &(_, column, row)) in rows.iter().enumerate() {
        let width = row.chars().count() as u32;
        if width != cols {
            return Err(notation_error(
                column,
                format!("row {} has {width} cells, the board's first row has {cols}", r + 1),
            ));
        }
    }
    match size {
        Some((rows, columns)) if (rows, columns) != (height, cols) => {
            return Err(notation_error(
                board_column,
                format!("the board is {height}x{cols} but this game is {rows}x{columns}"),
            ));
        }
        None if !(MIN_SIDE..=MAX_SIDE).contains(&height) || !(MIN_SIDE..=MAX_SIDE).contains(&cols) => {
            return Err(notation_error(
                board_column,
                format!("the board is {height}x{cols}; rows and columns must be {MIN_SIDE} to {MAX_SIDE}"),
            ));
        }
        _ => {}
    }
    // Sizes and widths are checked: what is left (characters, goal ranks) has a column.
    let mut case = parse_rows(None, &rows, true, goal_pawns).map_err(|e| FormatError { line: None, ..e })?;
    // A side starts with one pawn a column and never gains one: a position of the
    // game has at most as many pawns a side as the board has columns.
    for (side, pawns) in [("white", case.position.white), ("black", case.position.black)] {
        let count = pawns.count_ones();
        if count > cols {
            return Err(notation_error(
                board_column,
                format!("{side} has {count} pawns; a board of {cols} columns holds at most {cols} a side"),
            ));
        }
    }
    // The side last: errors name the first offending token, left to right.
    case.position.white_to_move = parse_side(tokens[1], ["w", "b"])?;
    Ok(case)
}
