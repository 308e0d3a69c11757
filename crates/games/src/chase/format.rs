//! The CQOI 2013 input format: `n r1 c1 r2 c2` (white at row r1 column c1, black
//! at r2 c2, 1-based). gsolve reads any number of such cases, one after another
//! (whitespace, including line breaks, separates the numbers). A case may run over
//! several lines, but then it must start and end at line breaks: a case that ends
//! part-way through a later line, or starts part-way through a line and runs on
//! into the next, is the mark of a number missing or one too many, and is reported
//! as such rather than misread.

use crate::error::FormatError;
use crate::notation::Coord;
use crate::text::{excerpt, tokens_with_columns};

/// The smallest board.
pub const MIN_SIZE: u32 = 2;
/// The largest board: a solve takes about 10 bytes per (white, black) pair of
/// cells, 2·n⁴ positions (1 GB at n = 100; the contest's n ≤ 20).
pub const MAX_SIZE: u32 = 100;

/// One input case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChaseCase {
    /// Board size n.
    pub size: u32,
    /// White's cell.
    pub white: Coord,
    /// Black's cell.
    pub black: Coord,
}

/// Parses every case of an input.
pub fn parse_cases(text: &str) -> Result<Vec<ChaseCase>, FormatError> {
    let tokens: Vec<(usize, usize, &str)> = text
        .lines()
        .enumerate()
        .flat_map(|(i, line)| tokens_with_columns(line).into_iter().map(move |(col, t)| (i + 1, col, t)))
        .collect();
    let mut cases = Vec::new();
    for (n, group) in tokens.chunks(5).enumerate() {
        let case = n + 1;
        let (first_line, last_line) = (group[0].0, group[group.len() - 1].0);
        let previous = (n * 5).checked_sub(1).map(|i| tokens[i]);
        if first_line != last_line && previous.is_some_and(|(line, _, _)| line == first_line) {
            // The case starts after a case that ended part-way through its line, and
            // runs on: that line has too many numbers. Blame it.
            let (_, col, _) = group[0];
            return Err(FormatError::at(
                case,
                first_line,
                Some(col),
                format!(
                    "a case is 5 numbers `n r1 c1 r2 c2`, but this line has more: this case would start here, \
                     after the previous case, and run on into line {last_line} (a number too many)"
                ),
            ));
        }
        let next = tokens.get(n * 5 + group.len());
        if first_line != last_line && next.is_some_and(|&(line, _, _)| line == last_line) {
            // The case would take numbers from a line that goes on with more: one of
            // its own lines is short. Blame the first line of the case.
            let on_first = group.iter().filter(|t| t.0 == first_line).count();
            return Err(FormatError::at(
                case,
                first_line,
                None,
                format!(
                    "a case is 5 numbers `n r1 c1 r2 c2`, but this case has {on_first} on this line and would take the rest \
                     from line {last_line}, which has more numbers after them (a number is missing)"
                ),
            ));
        }
        if group.len() < 5 {
            let (line, _, _) = group[group.len() - 1];
            return Err(FormatError::at(
                case,
                line,
                None,
                format!("truncated case: expected 5 numbers `n r1 c1 r2 c2`, found {}", group.len()),
            ));
        }
        let mut numbers = [0u32; 5];
        for (slot, &(line, col, token)) in numbers.iter_mut().zip(group) {
            *slot = token.parse().map_err(|_| {
                let message = if token.bytes().all(|b| b.is_ascii_digit()) {
                    format!("{token} is out of range (far too large)")
                } else {
                    format!("{} is not a whole number ≥ 0", excerpt(token))
                };
                FormatError::at(case, line, Some(col), message)
            })?;
        }
        let at = |i: usize| FormatError::at(case, group[i].0, Some(group[i].1), "");
        let [size, r1, c1, r2, c2] = numbers;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(FormatError {
                message: format!("board size n = {size} is out of range {MIN_SIZE}..={MAX_SIZE}"),
                ..at(0)
            });
        }
        for (i, (what, v)) in [("r1", r1), ("c1", c1), ("r2", r2), ("c2", c2)].into_iter().enumerate() {
            if !(1..=size).contains(&v) {
                return Err(FormatError {
                    message: format!("{what} = {v} is off the {size}x{size} board (1..={size})"),
                    ..at(i + 1)
                });
            }
        }
        if (r1, c1) == (r2, c2) {
            return Err(FormatError { message: format!("both pieces are on ({r1},{c1})"), ..at(3) });
        }
        cases.push(ChaseCase { size, white: Coord { row: r1, col: c1 }, black: Coord { row: r2, col: c2 } });
    }
    Ok(cases)
}
