//! Games that end in a score: a position's final margin and every move's, best
//! first, and the line of best play, from a source of exact [`ScoreValue`]s
//! (the engine's memo, or a margin search).

use super::{piece_move_label, same_kind};
use crate::draw::Draw;
use crate::{Analysis, AnalysisError, Board, MoveInfo, Setup};
use gsolve_engine::{Game, ScoreValue};
use gsolve_games::notation::{Explain, PieceMove, PlainNotation};

/// The exact value of a position, as a source of them answers.
pub(crate) type ValueOf<'a, G> = dyn FnMut(&<G as Game>::Position) -> Result<ScoreValue, AnalysisError> + 'a;

/// The analysis of `position` with every move's margin, best first (equal
/// values in the game's order).
pub(crate) fn analysis_of_scores<G>(
    setup: &Setup,
    game: &G,
    position: &G::Position,
    solver: &'static str,
    value_of: &mut ValueOf<'_, G>,
) -> Result<Analysis, AnalysisError>
where
    G: Game + PlainNotation + Explain + Draw,
{
    let value = value_of(position)?;
    let over = game.terminal(position).is_some();
    let mut moves = Vec::new();
    if !over {
        game.moves(position, &mut moves);
    }
    let mut valued = Vec::with_capacity(moves.len());
    for mv in moves {
        let child = game.play(position, &mv);
        let child_value = value_of(&child)?.parent_view();
        valued.push((mv, child, child_value));
    }
    valued.sort_by_key(|m| std::cmp::Reverse(m.2));
    let mut moves: Vec<MoveInfo> = valued
        .iter()
        .map(|(mv, child, v)| {
            let described = game.describe_move(position, mv);
            MoveInfo {
                label: piece_move_label(&described),
                from: described.from,
                to: described.to,
                drop: described.drop,
                value: v.value(),
                score: Some(v.margin),
                delta: None,
                position: game.format_position(child),
            }
        })
        .collect();
    for i in 0..moves.len() {
        let best = moves.iter().find(|m| m.score == moves[i].score && same_kind(m.value, moves[i].value));
        moves[i].delta = match (moves[i].value.remoteness(), best.and_then(|m| m.value.remoteness())) {
            (Some(r), Some(b)) => Some(r as i64 - b as i64),
            _ => None,
        };
    }
    let end = if over || moves.is_empty() { game.describe_end(position) } else { None };
    let board: Board = game.board(position);
    Ok(Analysis {
        setup: setup.at(game.format_position(position)),
        to_move: game.side_to_move(position),
        value: value.value(),
        score: Some(value.margin),
        solver,
        moves,
        end,
        over,
        board,
    })
}

/// A position's exact value and the line of best play from it to the end.
#[derive(Clone, Debug)]
pub struct ScoredLine {
    /// The value for the side to move at the start.
    pub value: ScoreValue,
    /// The side to move at the start.
    pub to_move: &'static str,
    /// Each ply of the line, described.
    pub line: Vec<PieceMove>,
    /// How the line ends, in words.
    pub end: String,
    /// The pieces each side has on the board where the line ends (in the
    /// order of the game's sides), where the game counts pieces.
    pub pieces: Option<[u32; 2]>,
}

/// The line of best play from `start`: at each ply a move whose value is the
/// position's (the first such in the game's order).
pub(crate) fn scored_line<G>(
    game: &G,
    start: &G::Position,
    value_of: &mut ValueOf<'_, G>,
) -> Result<(ScoredLine, G::Position), AnalysisError>
where
    G: Game + Explain,
{
    let value = value_of(start)?;
    let mut position = start.clone();
    let mut line = Vec::new();
    let mut moves = Vec::new();
    while game.terminal(&position).is_none() {
        let here = value_of(&position)?;
        moves.clear();
        game.moves(&position, &mut moves);
        let mut next = None;
        for mv in &moves {
            let child = game.play(&position, mv);
            if value_of(&child)?.parent_view() == here {
                next = Some((mv.clone(), child));
                break;
            }
        }
        let Some((mv, child)) = next else {
            return Err(AnalysisError::Internal("no move keeps the position's value".into()));
        };
        line.push(game.describe_move(&position, &mv));
        position = child;
    }
    let end = game.describe_end(&position).unwrap_or_else(|| "the game is over".into());
    Ok((ScoredLine { value, to_move: game.side_to_move(start), line, end, pieces: None }, position))
}
