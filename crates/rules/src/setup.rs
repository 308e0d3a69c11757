//! From a rules file, a board size or map, and a position (or the rules' start) to
//! a game ready to solve: the board is sized from the position where none is given,
//! and the index covers the pieces the position has.

use crate::board::{Board, Map};
use crate::error::RulesError;
use crate::game::{check_counts, RulesGame};
use crate::notation::{map_of_position, parse_position};
use crate::position::{pack, RulesPosition, MAX_PIECES};
use crate::spec::{Rules, Start};
use gsolve_games::FormatError;
use std::sync::Arc;

/// What went wrong setting a game up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The rules cannot make this board.
    #[error("{0}")]
    Rules(#[from] RulesError),
    /// The position is malformed.
    #[error("the position: {0}")]
    Position(#[from] FormatError),
}

/// A game and the position to solve in it.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The game, with an index covering the position's pieces (when it can have one).
    pub game: RulesGame,
    /// The position.
    pub position: RulesPosition,
}

/// The rows and columns of a position's board token, if it reads as one.
fn position_size(text: &str) -> Option<(u32, u32)> {
    let board = text.split_whitespace().next()?;
    let rows: Vec<&str> = board.split('/').collect();
    Some((rows.len() as u32, rows[0].chars().count() as u32))
}

/// Sets up `position` (or the start of the rules) on a board of `size`, or `map`.
pub fn setup(
    rules: Arc<Rules>,
    size: Option<(u32, u32)>,
    map: Option<Map>,
    position: Option<&str>,
) -> Result<Setup, SetupError> {
    let text = match (position, &rules.start) {
        (Some(p), _) => Some(p.to_string()),
        (None, Some(Start::Text(t))) => Some(t.clone()),
        (None, Some(Start::Place { .. })) => None,
        (None, None) => {
            return Err(
                RulesError::Board(format!("the rules of {} give no start position: give one", rules.name)).into()
            )
        }
    };
    let map = match (map, &text) {
        (Some(m), _) => Some(m),
        (None, Some(t)) if rules.board.map => Some(map_of_position(&rules, t)?),
        _ => None,
    };
    let size = match (size, &text) {
        (Some(s), _) => Some(s),
        (None, Some(t)) if map.is_none() => position_size(t),
        _ => None,
    };
    let board = Board::new(&rules, size, map)?;
    let probe = RulesGame::new(rules.clone(), board, None)?;
    let position = match &text {
        Some(t) => parse_position(&probe, t)?,
        None => place_start(&probe)?,
    };
    let counts = probe.counts(&position);
    check_counts(&rules, &probe.board, &counts)?;
    let game = probe.with_limits(&counts)?;
    Ok(Setup { game, position })
}

/// The start made of cell sets (`[start.place]`).
fn place_start(game: &RulesGame) -> Result<RulesPosition, RulesError> {
    let Some(Start::Place { to_move, pieces }) = &game.rules.start else {
        return Err(RulesError::Board("no start position".into()));
    };
    let mut p = RulesPosition::empty(*to_move);
    let board = &game.board;
    for (side, kind, set) in pieces {
        let g = board.groups.iter().position(|g| g.side == *side && g.kind == *kind).unwrap_or(0);
        let letter = board.groups[g].letter;
        let what = format!("the start's `{letter}`");
        for cell in board.cell_set(set, game.rules.sides[*side].forward, &what)? {
            if p.at(cell).is_some() {
                let (r, c) = board.coords[cell as usize];
                return Err(RulesError::Board(format!("the start puts two pieces on row {}, column {}", r + 1, c + 1)));
            }
            if p.len as usize == MAX_PIECES {
                return Err(RulesError::Board(format!("the start has more than {MAX_PIECES} pieces")));
            }
            p.insert(pack(g, cell));
        }
    }
    Ok(p)
}
