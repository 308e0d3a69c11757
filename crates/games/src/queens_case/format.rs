//! The Queen's Case input format: maps until end of input or a line `0 0`.
//!
//! ```text
//! W H          width first; 1 ≤ W, H ≤ 1000 here (the contest: 30)
//! H rows of W characters: . floor  # wall  E exit  Q queen  A army
//! ```
//! Exactly one `Q`, one `A`, at least one `E`. Blank lines between maps, trailing
//! spaces and CR line ends are accepted.

use crate::error::FormatError;
use crate::text::{excerpt, tokens_with_columns};
use std::fmt;

/// The largest width or height accepted.
pub const MAX_SIDE: u32 = 1000;
/// The largest number of open (non-wall) cells accepted: the solve needs about
/// 10 bytes per pair of open cells (4 GB at this limit).
pub const MAX_OPEN_CELLS: u32 = 20_000;

/// What a map cell holds (the queen and army stand on floor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// `.` (also under `Q` and `A`).
    Floor,
    /// `#`.
    Wall,
    /// `E`.
    Exit,
}

/// A checked map: a rectangle of cells with one queen, one army and an exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    width: u32,
    height: u32,
    cells: Vec<Cell>,
    queen: (u32, u32),
    army: (u32, u32),
}

impl Map {
    /// Width (columns).
    pub fn width(&self) -> u32 {
        self.width
    }
    /// Height (rows).
    pub fn height(&self) -> u32 {
        self.height
    }
    /// The cell at 0-based (row, col).
    pub fn cell(&self, row: u32, col: u32) -> Cell {
        self.cells[(row * self.width + col) as usize]
    }
    /// The queen's 0-based (row, col).
    pub fn queen(&self) -> (u32, u32) {
        self.queen
    }
    /// The army's 0-based (row, col).
    pub fn army(&self) -> (u32, u32) {
        self.army
    }

    /// Parses exactly one map (the `W H` line and its rows).
    pub fn parse(text: &str) -> Result<Map, FormatError> {
        let mut maps = parse_maps(text)?;
        match maps.len() {
            1 => Ok(maps.remove(0)),
            n => Err(FormatError {
                case: None,
                line: None,
                column: None,
                message: format!("expected one map, found {n}"),
            }),
        }
    }
}

/// Writes the map in the input format (without the final `0 0`).
impl fmt::Display for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} {}", self.width, self.height)?;
        for row in 0..self.height {
            let line: String = (0..self.width)
                .map(|col| match (row, col) {
                    p if p == self.queen => 'Q',
                    p if p == self.army => 'A',
                    _ => match self.cell(row, col) {
                        Cell::Floor => '.',
                        Cell::Wall => '#',
                        Cell::Exit => 'E',
                    },
                })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// Parses every map of an input.
pub fn parse_maps(text: &str) -> Result<Vec<Map>, FormatError> {
    let mut lines = text.lines().map(str::trim_end).enumerate().map(|(i, l)| (i + 1, l)).peekable();
    let mut maps = Vec::new();
    loop {
        let case = maps.len() + 1;
        // Skip blank lines before a size line.
        while lines.peek().is_some_and(|(_, l)| l.trim().is_empty()) {
            lines.next();
        }
        let Some((size_line, text)) = lines.next() else { break };
        let (width, height) = parse_size(case, size_line, text)?;
        if (width, height) == (0, 0) {
            break;
        }
        maps.push(parse_rows(case, size_line, width, height, &mut lines)?);
    }
    Ok(maps)
}

fn parse_size(case: usize, line: usize, text: &str) -> Result<(u32, u32), FormatError> {
    let err = |col: Option<usize>, msg: String| FormatError::at(case, line, col, msg);
    let tokens: Vec<(usize, &str)> = tokens_with_columns(text);
    if tokens.len() != 2 {
        return Err(err(None, format!("expected the map size `W H` (two numbers), found {}", excerpt(text.trim()))));
    }
    let mut size = [0u32; 2];
    for (slot, &(col, token)) in size.iter_mut().zip(&tokens) {
        *slot = match token.parse() {
            Ok(n) => n,
            // All digits but too large for u32: out of range, not malformed.
            Err(_) if token.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(err(
                    Some(col),
                    format!("map size {token} is out of range: width and height must be 1 to {MAX_SIDE}"),
                ));
            }
            Err(_) => return Err(err(Some(col), format!("map size {} is not a whole number", excerpt(token)))),
        };
    }
    let [width, height] = size;
    let in_range = |side: u32| (1..=MAX_SIDE).contains(&side);
    if (width, height) != (0, 0) && !(in_range(width) && in_range(height)) {
        return Err(err(
            None,
            format!("map size {width}x{height} is out of range: width and height must be 1 to {MAX_SIDE}"),
        ));
    }
    Ok((width, height))
}

fn parse_rows<'a>(
    case: usize,
    size_line: usize,
    width: u32,
    height: u32,
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
) -> Result<Map, FormatError> {
    let mut cells = Vec::with_capacity((width * height) as usize);
    let mut queen: Option<(u32, u32, usize, usize)> = None;
    let mut army: Option<(u32, u32, usize, usize)> = None;
    let mut exits = 0;
    let mut last_line = size_line;
    for row in 0..height {
        let Some((line, text)) = lines.next() else {
            return Err(FormatError::at(
                case,
                last_line,
                None,
                format!("input ends after {row} of {height} rows of the map (truncated)"),
            ));
        };
        last_line = line;
        let err = |col: Option<usize>, msg: String| FormatError::at(case, line, col, msg);
        if text.is_empty() {
            return Err(err(None, format!("row {} of {height} is blank", row + 1)));
        }
        let len = text.chars().count() as u32;
        // A row never holds digits: a line of numbers here is the next map's size
        // line (or the final `0 0`), whatever its length.
        if text.bytes().all(|b| b.is_ascii_digit() || b.is_ascii_whitespace()) {
            return Err(err(
                None,
                format!(
                    "expected row {} of {height}, found the size line {}: the map has only {row} rows",
                    row + 1,
                    excerpt(text.trim())
                ),
            ));
        }
        for (col, ch) in text.chars().enumerate() {
            let place = Some(col + 1);
            let cell = match ch {
                '.' => Cell::Floor,
                '#' => Cell::Wall,
                'E' => {
                    exits += 1;
                    Cell::Exit
                }
                'Q' | 'A' => {
                    let slot = if ch == 'Q' { &mut queen } else { &mut army };
                    if let Some((_, _, l, c)) = *slot {
                        let who = if ch == 'Q' { "queen" } else { "army" };
                        return Err(err(
                            place,
                            format!("a second {who} '{ch}' (the first is at line {l}, column {c})"),
                        ));
                    }
                    *slot = Some((row, col as u32, line, col + 1));
                    Cell::Floor
                }
                other => return Err(err(place, format!("unknown character {other:?} (expected one of . # E Q A)"))),
            };
            if col as u32 >= width {
                return Err(err(place, format!("row {} has {len} characters, expected {width}", row + 1)));
            }
            cells.push(cell);
        }
        if len < width {
            return Err(err(Some(len as usize + 1), format!("row {} has {len} characters, expected {width}", row + 1)));
        }
    }
    let missing = |what: &str| {
        FormatError::at(case, size_line, None, format!("the map (lines {}-{last_line}) has no {what}", size_line + 1))
    };
    let (queen, army) = match (queen, army) {
        (Some(q), Some(a)) => ((q.0, q.1), (a.0, a.1)),
        (None, _) => return Err(missing("queen 'Q'")),
        (_, None) => return Err(missing("army 'A'")),
    };
    if exits == 0 {
        return Err(missing("exit 'E'"));
    }
    let open = cells.iter().filter(|&&c| c != Cell::Wall).count() as u32;
    if open > MAX_OPEN_CELLS {
        return Err(FormatError::at(
            case,
            size_line,
            None,
            format!("the map has {open} open cells; at most {MAX_OPEN_CELLS} are supported"),
        ));
    }
    Ok(Map { width, height, cells, queen, army })
}
