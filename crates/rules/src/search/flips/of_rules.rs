//! Which rules files are flip games: the shape this module searches, read from
//! the compiled rules (never from a game's name).

use super::shape::{Directions, FlipShape};
use crate::compiled::tables::Tables;
use crate::language::spec::{CellColour, Ending, ScoreCount, Turn};

/// The flip shape of the rules on their board, where they are one: a single
/// piece kind of both sides whose only move is a drop from an endless supply
/// onto any empty cell (no gravity, no zone) that flips along some directions;
/// a side with no move passes and play ends, the score deciding, when neither
/// can move (or on a full board, which is the same); the score counts the
/// pieces; a whole rectangle of at most 64 cells, no map.
pub(crate) fn shape_of(tables: &Tables) -> Option<FlipShape> {
    let rules = tables.rules();
    let board = tables.board();
    let score = rules.score.as_ref()?;
    if !matches!(score.count, ScoreCount::Pieces) || !rules.pass {
        return None;
    }
    let [kind] = &rules.kinds[..] else { return None };
    let drop = kind.drop.as_ref()?;
    let flips = drop.flips?;
    let one_move = kind.moves.is_empty() && !kind.stay && !kind.trail && kind.promote.is_none();
    let plain_drop = !drop.gravity && !drop.from_hand && drop.zone.is_none();
    let both_sides = kind.letters.iter().all(Option::is_some);
    let endings = rules.endings.iter().all(|e| matches!(e, Ending::Scored { .. }));
    let turns = rules.sides.iter().all(|s| s.turn == Turn::OnePiece);
    let (rows, cols) = (board.rows, board.cols);
    let whole = !rules.board.map
        && rules.board.cells == CellColour::All
        && board.map.is_none()
        && (rows * cols) as usize == board.cells()
        && rows * cols <= 64;
    if !(one_move && plain_drop && both_sides && endings && turns && whole) {
        return None;
    }
    let directions = Directions { orthogonal: flips.orthogonal, diagonal: flips.diagonal };
    FlipShape::new(rows, cols, directions, flips.must_flip, score.empty_to_winner).ok()
}
