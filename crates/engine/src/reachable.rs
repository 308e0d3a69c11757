//! The positions reachable from a start position.

use crate::game::Indexed;

/// Marks every position reachable from `start` (start included), by index.
/// Memory: one byte per index, and eight per position waiting to be expanded: the
/// stack holds indices, not positions (a big game's positions would not fit: a
/// rules position is up to 224 bytes, and Dobutsu shogi's stack reached tens of
/// millions). Terminal positions the game does not index
/// ([`Indexed::terminals_indexed`] false: a pawn on its goal row, Dobutsu without a
/// lion) are not marked: they have no index.
pub fn reachable<G: Indexed>(game: &G, start: &G::Position) -> Vec<bool> {
    reachable_with(game, start, |_| {})
}

/// [`reachable`], calling `unindexed` on each terminal position without an index
/// each time a move reaches it (so a counter of them must remove duplicates).
pub fn reachable_with<G: Indexed>(game: &G, start: &G::Position, mut unindexed: impl FnMut(&G::Position)) -> Vec<bool> {
    let size = game.index_size();
    let mut seen = vec![false; size as usize];
    let mut stack = Vec::new();
    let first = game.index(start);
    if first >= size {
        unindexed(start);
        return seen;
    }
    seen[first as usize] = true;
    if game.terminal(start).is_none() {
        stack.push(first);
    }
    while let Some(index) = stack.pop() {
        let Some(p) = game.position(index) else { continue };
        game.for_each_child(&p, |c| {
            let i = game.index(&c);
            if i >= size {
                unindexed(&c);
            } else if !seen[i as usize] {
                seen[i as usize] = true;
                if game.terminal(&c).is_none() {
                    stack.push(i);
                }
            }
        });
    }
    seen
}

/// The number of positions reachable from `start`, start included.
pub fn count_reachable<G: Indexed>(game: &G, start: &G::Position) -> u64 {
    reachable(game, start).iter().filter(|&&b| b).count() as u64
}
