//! The positions reachable from a start position.

use crate::game::Indexed;

/// Marks every position reachable from `start` (start included), by index.
/// Memory: one byte per index. The game must index its terminal positions too.
pub fn reachable<G: Indexed>(game: &G, start: &G::Position) -> Vec<bool> {
    let mut seen = vec![false; game.index_size() as usize];
    let mut stack = vec![start.clone()];
    seen[game.index(start) as usize] = true;
    while let Some(p) = stack.pop() {
        if game.terminal(&p).is_some() {
            continue;
        }
        game.for_each_child(&p, |c| {
            let i = game.index(&c) as usize;
            if !seen[i] {
                seen[i] = true;
                stack.push(c);
            }
        });
    }
    seen
}

/// The number of positions reachable from `start`, start included.
pub fn count_reachable<G: Indexed>(game: &G, start: &G::Position) -> u64 {
    reachable(game, start).iter().filter(|&&b| b).count() as u64
}
