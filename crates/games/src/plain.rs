//! Text helpers shared by the games' plain notations and [`gsolve_engine::Variant`]
//! parameters (chase, Queen's Case and pawns use them).

use crate::error::FormatError;
use crate::notation::Coord;
use crate::text::{excerpt, tokens_with_columns};
use std::ops::RangeInclusive;

/// An error of a one-line notation: it has a column, and no case or line to name.
pub(crate) fn notation_error(column: usize, message: impl Into<String>) -> FormatError {
    FormatError { case: None, line: None, column: Some(column), message: message.into() }
}

/// The whitespace-separated tokens of a one-line notation, exactly `names.len()` of
/// them; `names` say what each is (`the board`), `example` what a whole notation is.
pub(crate) fn exact_tokens<'a>(
    text: &'a str,
    names: &[&str],
    example: &str,
) -> Result<Vec<(usize, &'a str)>, FormatError> {
    let tokens = tokens_with_columns(text);
    if let Some(&(column, token)) = tokens.get(names.len()) {
        return Err(notation_error(
            column,
            format!("unexpected {} after {}: expected {example}", excerpt(token), names[names.len() - 1]),
        ));
    }
    if tokens.len() < names.len() {
        // Point just past the last token: where the missing one should start.
        let column = tokens.last().map_or(1, |&(c, t)| c + t.chars().count() + 1);
        return Err(notation_error(column, format!("missing {}: expected {example}", names[tokens.len()])));
    }
    Ok(tokens)
}

/// Reads the side-to-move token: `letters[0]` for the first side (true), `letters[1]`
/// for the second.
pub(crate) fn parse_side((column, token): (usize, &str), letters: [&str; 2]) -> Result<bool, FormatError> {
    match token {
        t if t == letters[0] => Ok(true),
        t if t == letters[1] => Ok(false),
        other => Err(notation_error(
            column,
            format!("side to move {}: expected {} or {}", excerpt(other), letters[0], letters[1]),
        )),
    }
}

/// Reads a cell token `R,C` (1-based row and column; range checks are the caller's).
pub(crate) fn parse_coord((column, token): (usize, &str), what: &str) -> Result<Coord, FormatError> {
    let err = |message: String| notation_error(column, message);
    let Some((row, col)) = token.split_once(',') else {
        return Err(err(format!("{what} {}: expected row,column (e.g. 1,1)", excerpt(token))));
    };
    let number = |part: &str, name: &str| {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(format!("{what} {}: the {name} {} is not a whole number", excerpt(token), excerpt(part))));
        }
        part.parse::<u32>().map_err(|_| {
            let shown = if part.len() <= 20 { part.to_string() } else { excerpt(part) };
            err(format!("{what} {}: the {name} {shown} is out of range", excerpt(token)))
        })
    };
    Ok(Coord { row: number(row, "row")?, col: number(col, "column")? })
}

/// The notation of the pursuit games: `R,C R,C S`, the first piece's cell, the
/// second's, then the side to move (`letters[0]`: the first piece's side). `cell`
/// turns a coordinate into a cell id, or says why it is no cell (`is a wall`: the
/// message reads `queen's cell 2,2 is a wall`). Returns (first cell, second cell,
/// first side to move).
pub(crate) fn parse_two_cells(
    text: &str,
    pieces: [&str; 2],
    letters: [&str; 2],
    cell: impl Fn(Coord) -> Result<u32, String>,
) -> Result<(u32, u32, bool), FormatError> {
    let example =
        format!("`R,C R,C S` ({}'s cell, {}'s cell, then {} or {})", pieces[0], pieces[1], letters[0], letters[1]);
    let names = [format!("{}'s cell", pieces[0]), format!("{}'s cell", pieces[1]), "the side to move".to_string()];
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let tokens = exact_tokens(text, &names, &example)?;
    let mut cells = [0; 2];
    for (slot, (&token, what)) in cells.iter_mut().zip(tokens.iter().zip(&names)) {
        let coord = parse_coord(token, what)?;
        *slot = cell(coord).map_err(|why| notation_error(token.0, format!("{what} {} {why}", token.1)))?;
    }
    let first_to_move = parse_side(tokens[2], letters)?;
    Ok((cells[0], cells[1], first_to_move))
}

/// Writes `R,C R,C S` (see [`parse_two_cells`]).
pub(crate) fn format_two_cells(first: Coord, second: Coord, letter: &str) -> String {
    format!("{},{} {},{} {letter}", first.row, first.col, second.row, second.col)
}

/// [`gsolve_engine::Variant`] parameters being read: every key must be known and
/// given once, so a typo or a stale file is an error, not a silent default.
pub(crate) struct Parameters<'a> {
    list: &'a [(String, String)],
}

impl<'a> Parameters<'a> {
    /// Checks that the keys are exactly some of `known`, each at most once.
    pub(crate) fn new(list: &'a [(String, String)], known: &[&str]) -> Result<Self, String> {
        for (i, (key, _)) in list.iter().enumerate() {
            if !known.contains(&key.as_str()) {
                return Err(format!("unknown parameter {} (expected {})", excerpt(key), known.join(", ")));
            }
            if list[..i].iter().any(|(k, _)| k == key) {
                return Err(format!("parameter {} is given twice", excerpt(key)));
            }
        }
        Ok(Parameters { list })
    }

    /// The value of `key`.
    pub(crate) fn text(&self, key: &str) -> Result<&'a str, String> {
        self.list
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| format!("missing parameter {key:?}"))
    }

    /// The value of `key` as a whole number in `range`. Only plain digits count: the
    /// text is stored, so it has one spelling.
    pub(crate) fn number(&self, key: &str, range: RangeInclusive<u32>) -> Result<u32, String> {
        let text = self.text(key)?;
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("parameter {key:?} = {} is not a whole number", excerpt(text)));
        }
        let out_of_range = || format!("parameter {key:?} = {text} is out of range {}..={}", range.start(), range.end());
        let n: u32 = text.parse().map_err(|_| out_of_range())?;
        if n.to_string() != text {
            // One spelling per value: files and caches compare the text.
            return Err(format!("parameter {key:?} = {text:?}: write it {n}, without leading zeros"));
        }
        if range.contains(&n) {
            Ok(n)
        } else {
            Err(out_of_range())
        }
    }
}
