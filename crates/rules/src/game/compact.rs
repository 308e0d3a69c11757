//! Positions of the smallest room that holds a game's pieces, for the solvers.

use super::rules_game::RulesGame;

/// Work to run on a rules game with the smallest position room that holds its
/// pieces: see [`compact`].
pub trait CompactTask {
    /// What the work gives.
    type Output;
    /// Runs on the game with room for `N` pieces.
    fn run<const N: usize>(self, game: &RulesGame<N>) -> Self::Output;
}

/// Runs `task` on `game` with positions of room for 4, 8 or 16 pieces, the
/// smallest that holds its index's pieces, or on `game` itself (48).
///
/// Why: every move and every parent copies a position, and the full room is 224
/// bytes where chase needs 48, and solves of games with few pieces spent much of
/// their time in those copies. The indices are the same, so what the task gives
/// (a solution, tier values) serves `game` itself.
pub fn compact<T: CompactTask>(game: &RulesGame, task: T) -> T::Output {
    if let Some(small) = game.compact::<4>() {
        return task.run(&small);
    }
    if let Some(small) = game.compact::<8>() {
        return task.run(&small);
    }
    if let Some(small) = game.compact::<16>() {
        return task.run(&small);
    }
    task.run(game)
}
