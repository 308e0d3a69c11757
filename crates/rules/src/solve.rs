//! Whole solves of a rules game with an index: by bit rows where the game is a
//! pursuit, by the engine's retrograde analysis. Which one runs is the catalog's
//! policy (`gsolve-analysis`), not this crate's.

use crate::game::{compact, CompactTask, RulesGame};
use crate::retrograde::pursuit;

/// The whole solve of a pursuit by bit rows ([`RulesGame::is_pursuit`]): the
/// engine's values, index for index; `None` when the game is not a pursuit or the
/// solve gave up (past six row words of work a position, or a remoteness of
/// 16,383), which leaves the game to [`solve_retrograde`].
pub fn solve_by_bit_rows(
    game: &RulesGame,
    options: &gsolve_engine::retrograde::Options<'_>,
) -> Option<gsolve_engine::Solution> {
    pursuit::solve(game.pursuit()?, game.tables(), game.index()?, options.progress)
}

/// The engine's retrograde analysis of a rules game with an index, with positions of
/// the smallest room that holds its pieces ([`compact`]).
pub fn solve_retrograde(game: &RulesGame, options: &gsolve_engine::retrograde::Options<'_>) -> gsolve_engine::Solution {
    struct Whole<'a, 'o>(&'a gsolve_engine::retrograde::Options<'o>);
    impl CompactTask for Whole<'_, '_> {
        type Output = gsolve_engine::Solution;
        fn run<const N: usize>(self, game: &RulesGame<N>) -> Self::Output {
            gsolve_engine::retrograde::solve_with(game, self.0)
        }
    }
    compact(game, Whole(options))
}
