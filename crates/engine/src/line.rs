//! Reading a solved game: each move's value, and the line of optimal play.

use crate::game::{Game, ValueLookup};
use crate::value::Value;
use std::collections::HashMap;

/// A legal move and what it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue<G: Game> {
    /// The move.
    pub mv: G::Move,
    /// The position after the move.
    pub child: G::Position,
    /// The value of the move for the side making it: `child value .parent_view()`.
    pub value: Value,
}

/// Every legal move of `position` with its value, best first (ties in value keep the
/// game's move order). Moves whose child value is unknown are left out.
pub fn move_values<G: Game, L: ValueLookup<G> + ?Sized>(
    game: &G,
    values: &L,
    position: &G::Position,
) -> Vec<MoveValue<G>> {
    let mut list = Vec::new();
    if game.terminal(position).is_some() {
        return list;
    }
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    for mv in moves {
        let child = game.play(position, &mv);
        if let Some(v) = values.lookup(game, &child) {
            list.push(MoveValue { mv, child, value: v.parent_view() });
        }
    }
    list.sort_by_key(|m| std::cmp::Reverse(m.value));
    list
}

/// One ply of a line of play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply<G: Game> {
    /// The position before the move.
    pub before: G::Position,
    /// Its value for the side to move.
    pub value: Value,
    /// The move played.
    pub mv: G::Move,
}

/// Why a line of play stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// The game is over (a terminal position, or the side to move has no move).
    GameOver,
    /// The next position already occurred after ply `ply` (0 = the start): the
    /// line cycles from there, as drawn games do.
    Repeats {
        /// Number of plies played before the repeated position first occurred.
        ply: usize,
    },
    /// No value was known for the position reached.
    Unknown,
    /// The line reached the length limit.
    Truncated,
}

/// A line of optimal play from a start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<G: Game> {
    /// The plies, in order.
    pub plies: Vec<Ply<G>>,
    /// The position after the last ply.
    pub end_position: G::Position,
    /// Why the line stops.
    pub end: LineEnd,
}

/// The line where each side plays a best move: the fastest win, the slowest loss, or
/// a move that keeps the draw (the first such move in the game's move order).
/// Stops at the end of the game, at the first repeated position, or after `max_plies`.
pub fn principal_line<G: Game, L: ValueLookup<G> + ?Sized>(
    game: &G,
    values: &L,
    start: &G::Position,
    max_plies: usize,
) -> Line<G> {
    let mut plies = Vec::new();
    let mut seen = HashMap::new();
    let mut position = start.clone();
    let end = loop {
        if let Some(&ply) = seen.get(&position) {
            break LineEnd::Repeats { ply };
        }
        seen.insert(position.clone(), plies.len());
        let Some(value) = values.lookup(game, &position) else { break LineEnd::Unknown };
        if game.terminal(&position).is_some() {
            break LineEnd::GameOver;
        }
        if plies.len() >= max_plies {
            break LineEnd::Truncated;
        }
        let best = move_values(game, values, &position).into_iter().find(|m| m.value == value);
        let Some(best) = best else { break LineEnd::GameOver };
        plies.push(Ply { before: position.clone(), value, mv: best.mv });
        position = best.child;
    };
    Line { plies, end_position: position, end }
}
