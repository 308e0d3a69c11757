//! From a rules file, a board size or map, and a position (or the rules' start) to
//! a game ready to solve: the board is sized from the position where none is given,
//! and the index covers the pieces the position has.

use crate::compiled::board::{Board, Map};
use crate::compiled::position::{pack, RulesPosition, MAX_PIECES};
use crate::compiled::tables::check_counts;
use crate::game::notation::{map_of_position, parse_position};
use crate::game::RulesGame;
use crate::language::error::RulesError;
use crate::language::spec::{Rules, Start};
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
    check_counts(&rules, probe.board(), &counts)?;
    if rules.has_hands() && text.is_some() {
        check_pieces_exist(&probe, &position)?;
    }
    let game = probe.with_limits(&counts)?;
    Ok(Setup { game, position })
}

/// The start made of cell sets (`[start.place]`).
fn place_start(game: &RulesGame) -> Result<RulesPosition, RulesError> {
    let Some(Start::Place { to_move, pieces, hand }) = &game.rules().start else {
        return Err(RulesError::Board("no start position".into()));
    };
    let mut p = RulesPosition::empty(*to_move);
    let board = game.board();
    for (side, kind, set) in pieces {
        let g = board.groups.iter().position(|g| g.side == *side && g.kind == *kind).unwrap_or(0);
        let letter = board.groups[g].letter;
        let what = format!("the start's `{letter}`");
        for cell in board.cell_set(set, game.rules().sides[*side].forward, &what)? {
            if p.at(cell).is_some() {
                let (r, c) = board.coords[cell as usize];
                return Err(RulesError::Board(format!("the start puts two pieces on row {}, column {}", r + 1, c + 1)));
            }
            if p.piece_count() == MAX_PIECES {
                return Err(RulesError::Board(format!("the start has more than {MAX_PIECES} pieces")));
            }
            p.insert(pack(g, cell));
        }
    }
    if !hand.is_empty() {
        crate::game::notation::read_hand(game, &mut p, hand, 1).map_err(|e| {
            RulesError::Board(format!("the start's hand {}: {}", gsolve_games::text::excerpt(hand), e.message))
        })?;
    }
    Ok(p)
}

/// In a game with hands, no more pieces of a kind (on the board, promoted, or in
/// a hand) than the start has: pieces change sides and kinds, but none is made.
/// Kinds linked by promotion or by going to a hand as another count together.
fn check_pieces_exist(game: &RulesGame, position: &RulesPosition) -> Result<(), SetupError> {
    let rules = game.rules();
    let start = match &rules.start {
        Some(Start::Text(t)) => parse_position(game, t)?,
        Some(Start::Place { .. }) => place_start(game)?,
        None => return Ok(()),
    };
    // The family of a kind: the kind it goes to a hand as, or it promotes from.
    let family = |kind: usize| -> usize {
        rules.kinds[kind].to_hand.unwrap_or_else(|| {
            rules.kinds.iter().position(|k| k.promote.as_ref().is_some_and(|p| p.to == kind)).unwrap_or(kind)
        })
    };
    let totals = |p: &RulesPosition| -> Vec<usize> {
        let mut out = vec![0usize; rules.kinds.len()];
        for piece in p.pieces() {
            out[family(game.groups()[piece.group].kind)] += 1;
        }
        for (slot, &g) in game.hand_groups().iter().enumerate() {
            out[family(game.groups()[g].kind)] += p.in_hand(slot) as usize;
        }
        out
    };
    let (have, exist) = (totals(position), totals(&start));
    for (kind, (&h, &e)) in have.iter().zip(&exist).enumerate() {
        if h > e {
            return Err(RulesError::Board(format!(
                "{h} pieces of the kind {} (on the board, promoted or in hand), but the game has {e}",
                rules.kinds[kind].name
            ))
            .into());
        }
    }
    Ok(())
}
