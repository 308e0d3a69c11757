//! Positions of a rules game in one line of text: the board's rows from the top,
//! joined by `/`, then the letter of the side to move, then in games with hands
//! the pieces in hand (their letters, `-` for none).
//!
//! ```text
//!   Q...E/.##../..#../E...A q      . empty   # wall   E a mark (map games)
//!   \__________________/    |      a piece letter: that piece (on a floor cell)
//!        the rows           side to move
//!   gle/.c./.C./ELG s CEc          hands: sente holds C and E, gote a c
//! ```
//! In games with a map the walls and marks are part of the map: a position must
//! agree with it, and a position typed without a map gives the map. In games with
//! trails a `#` on a cell of the board is a wall a trail has left.

use super::rules_game::RulesGame;
use crate::compiled::board::Map;
use crate::compiled::position::{pack, RulesPosition, MAX_PIECES};
use crate::language::spec::Rules;
use gsolve_games::text::{excerpt, tokens_with_columns};
use gsolve_games::FormatError;

fn at(column: usize, message: impl Into<String>) -> FormatError {
    FormatError { case: None, line: None, column: Some(column), message: message.into() }
}

/// A token and its 1-based column.
type Token = (usize, String);

/// The board and side tokens of a position, with the board's column, and the
/// hand token where the rules have hands.
fn split(text: &str, rules: &Rules) -> Result<(Token, Token, Option<Token>), FormatError> {
    let tokens = tokens_with_columns(text);
    let hands = if rules.has_hands() { " then the pieces in hand (- for none)" } else { "" };
    let example = format!(
        "rows joined by / then the side to move ({} or {}){hands}",
        rules.sides[0].letter, rules.sides[1].letter
    );
    match tokens.as_slice() {
        [board, side] => Ok(((board.0, board.1.to_string()), (side.0, side.1.to_string()), None)),
        [board, side, hand] if rules.has_hands() => {
            Ok(((board.0, board.1.to_string()), (side.0, side.1.to_string()), Some((hand.0, hand.1.to_string()))))
        }
        [] => Err(at(1, format!("empty position: expected {example}"))),
        [board] => {
            Err(at(board.0 + board.1.chars().count() + 1, format!("missing the side to move: expected {example}")))
        }
        [_, _, extra, ..] => Err(at(extra.0, format!("unexpected {} after the side to move", excerpt(extra.1)))),
    }
}

/// The rows of a board token, each with its starting column; all the same width.
fn rows(token: &str, column: usize) -> Result<Vec<(usize, Vec<char>)>, FormatError> {
    let mut out: Vec<(usize, Vec<char>)> = Vec::new();
    let mut col = column;
    for row in token.split('/') {
        let chars: Vec<char> = row.chars().collect();
        if chars.is_empty() {
            return Err(at(col, "an empty row"));
        }
        if let Some((_, first)) = out.first() {
            if chars.len() != first.len() {
                return Err(at(
                    col,
                    format!(
                        "row {} has {} cells, row 1 has {}: rows must have the same width",
                        out.len() + 1,
                        chars.len(),
                        first.len()
                    ),
                ));
            }
        }
        let width = chars.len();
        out.push((col, chars));
        col += width + 1;
    }
    if out.len() as i64 > crate::language::spec::MAX_SIDE || out[0].1.len() as i64 > crate::language::spec::MAX_SIDE {
        return Err(at(column, format!("a board of more than {} rows or columns", crate::language::spec::MAX_SIDE)));
    }
    Ok(out)
}

/// The letters a map may use for marks.
fn marks(rules: &Rules) -> Vec<char> {
    rules.zones.iter().flat_map(|z| z.cells.iter().flat_map(|c| c.marks.iter().copied())).collect()
}

/// The map a position carries (walls and marks; pieces stand on floor), for rules
/// with `map = true`. A `.` is floor.
pub fn map_of_position(rules: &Rules, text: &str) -> Result<Map, FormatError> {
    let ((column, token), _, _) = split(text, rules)?;
    map_of_rows(rules, &token, column)
}

/// A map from its notation (rows joined by `/`, or one row a line in a file).
pub fn parse_map(rules: &Rules, text: &str) -> Result<Map, FormatError> {
    let joined: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if joined.is_empty() {
        return Err(at(1, "an empty map"));
    }
    map_of_rows(rules, &joined.join("/"), 1)
}

fn map_of_rows(rules: &Rules, token: &str, column: usize) -> Result<Map, FormatError> {
    let rows = rows(token, column)?;
    let marks = marks(rules);
    let mut chars = Vec::new();
    for (col, row) in &rows {
        for (i, &ch) in row.iter().enumerate() {
            chars.push(match ch {
                '.' | '#' => ch,
                c if marks.contains(&c) => c,
                c if rules.piece_with_letter(c).is_some() => '.',
                c => {
                    return Err(at(
                        col + i,
                        format!(
                            "unknown character {}: expected `.`, `#`, a mark ({}) or a piece letter",
                            excerpt(&c.to_string()),
                            marks.iter().collect::<String>()
                        ),
                    ))
                }
            });
        }
    }
    Ok(Map { rows: rows.len() as u32, cols: rows[0].1.len() as u32, chars })
}

/// Reads a position of `game`.
pub fn parse_position(game: &RulesGame, text: &str) -> Result<RulesPosition, FormatError> {
    let rules = game.rules();
    let board = game.board();
    let ((column, token), (side_column, side), hand) = split(text, rules)?;
    let rows = rows(&token, column)?;
    if rows.len() as u32 != board.rows || rows[0].1.len() as u32 != board.cols {
        return Err(at(
            column,
            format!(
                "the board is {}×{} (rows × columns), this position {}×{}",
                board.rows,
                board.cols,
                rows.len(),
                rows[0].1.len()
            ),
        ));
    }
    let to_move = match side.as_str() {
        s if s.chars().eq([rules.sides[0].letter]) => 0,
        s if s.chars().eq([rules.sides[1].letter]) => 1,
        other => {
            return Err(at(
                side_column,
                format!(
                    "side to move {}: expected {} or {}",
                    excerpt(other),
                    rules.sides[0].letter,
                    rules.sides[1].letter
                ),
            ))
        }
    };
    let trails = rules.has_trails();
    let mut p = RulesPosition::empty(to_move);
    for (r, (col, row)) in rows.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            let column = col + c;
            let map_char = board.map.as_ref().map_or('.', |m| m.chars[r * board.cols as usize + c]);
            let cell = board.cell(r as u32, c as u32);
            match ch {
                '#' if map_char == '#' => {}
                '#' if trails && cell.is_some() => p.add_walls(1u128 << cell.unwrap_or(0)),
                '#' => {
                    return Err(at(
                        column,
                        if board.map.is_some() {
                            "a wall where the map has none (the map is fixed for a board)".to_string()
                        } else {
                            "a wall: these rules have no walls (no map, no trails)".to_string()
                        },
                    ))
                }
                '.' if map_char == '#' => return Err(at(column, "an open cell where the map has a wall")),
                '.' => {}
                m if m == map_char => {}
                l => match rules.piece_with_letter(l) {
                    Some((side, kind)) => {
                        let Some(cell) = cell else {
                            return Err(at(
                                column,
                                format!("the piece `{l}` stands on a cell that is not part of the board"),
                            ));
                        };
                        let group = board.groups.iter().position(|g| g.side == side && g.kind == kind).unwrap_or(0);
                        if p.piece_count() == MAX_PIECES {
                            return Err(at(column, format!("more than {MAX_PIECES} pieces")));
                        }
                        p.insert(pack(group, cell));
                    }
                    None => {
                        return Err(at(
                            column,
                            format!(
                                "unknown character {}: not a piece letter, `.` or `#`{}",
                                excerpt(&l.to_string()),
                                if board.map.is_some() { ", or the map's mark here" } else { "" }
                            ),
                        ))
                    }
                },
            }
        }
    }
    if let Some((hand_column, hand)) = hand {
        read_hand(game, &mut p, &hand, hand_column)?;
    }
    if let Some(limits) = game.limits() {
        let mut counts = vec![0u8; board.groups.len()];
        for piece in p.pieces() {
            counts[piece.group] += 1;
        }
        for (g, (&c, &l)) in counts.iter().zip(limits).enumerate() {
            if c > l {
                let group = &board.groups[g];
                return Err(at(
                    column,
                    format!(
                        "{c} pieces `{}` ({} {}), more than the {l} this game's index covers",
                        group.letter, rules.sides[group.side].name, rules.kinds[group.kind].name
                    ),
                ));
            }
        }
    }
    Ok(p)
}

/// Reads the hand token into `p`: each letter one piece in its side's hand.
pub(crate) fn read_hand(game: &RulesGame, p: &mut RulesPosition, hand: &str, column: usize) -> Result<(), FormatError> {
    if hand == "-" {
        return Ok(());
    }
    let rules = game.rules();
    let board = game.board();
    for (i, l) in hand.chars().enumerate() {
        let column = column + i;
        let Some((side, kind)) = rules.piece_with_letter(l) else {
            return Err(at(column, format!("unknown piece {} in hand: not a piece letter", excerpt(&l.to_string()))));
        };
        let group = board.groups.iter().position(|g| g.side == side && g.kind == kind).unwrap_or(0);
        let slot = game.tables().hand_slot_of(group);
        if slot == crate::compiled::tables::NO_SLOT {
            return Err(at(
                column,
                format!(
                    "the {} {} `{l}` is never in a hand (it is not dropped from one)",
                    rules.sides[side].name, rules.kinds[kind].name
                ),
            ));
        }
        if p.in_hand(slot as usize) == 15 {
            return Err(at(column, format!("more than 15 `{l}` in hand")));
        }
        p.put_in_hand(slot as usize);
    }
    Ok(())
}

/// Writes a position.
pub fn format_position(game: &RulesGame, p: &RulesPosition) -> String {
    let board = game.board();
    let mut grid: Vec<char> = match &board.map {
        Some(m) => m.chars.clone(),
        None => vec!['.'; (board.rows * board.cols) as usize],
    };
    for cell in 0..board.cells() as u32 {
        if p.is_wall(cell) {
            let (r, c) = board.coords[cell as usize];
            grid[(r * board.cols + c) as usize] = '#';
        }
    }
    for piece in p.pieces() {
        let (r, c) = board.coords[piece.cell as usize];
        grid[(r * board.cols + c) as usize] = board.groups[piece.group].letter;
    }
    let mut out = String::new();
    for r in 0..board.rows as usize {
        if r > 0 {
            out.push('/');
        }
        out.extend(&grid[r * board.cols as usize..(r + 1) * board.cols as usize]);
    }
    out.push(' ');
    out.push(game.rules().sides[p.to_move()].letter);
    if game.rules().has_hands() {
        out.push(' ');
        let start = out.len();
        for (slot, &g) in game.hand_groups().iter().enumerate() {
            for _ in 0..p.in_hand(slot) {
                out.push(board.groups[g].letter);
            }
        }
        if out.len() == start {
            out.push('-');
        }
    }
    out
}
