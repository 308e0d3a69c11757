//! The positions reachable from a start position.

use crate::game::Indexed;

/// Marks every position reachable from `start` (start included), by index.
/// Memory: one byte per index, and eight per position waiting to be expanded: the
/// stack holds indices, not positions (a big game's positions would not fit: a
/// rules position is up to 224 bytes, and Dobutsu shogi's stack reached tens of
/// millions). The game must index its terminal positions too.
pub fn reachable<G: Indexed>(game: &G, start: &G::Position) -> Vec<bool> {
    let mut seen = vec![false; game.index_size() as usize];
    let mut stack = Vec::new();
    let first = game.index(start);
    seen[first as usize] = true;
    if game.terminal(start).is_none() {
        stack.push(first);
    }
    while let Some(index) = stack.pop() {
        let Some(p) = game.position(index) else { continue };
        game.for_each_child(&p, |c| {
            let i = game.index(&c);
            if !seen[i as usize] {
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
