//! Whole solves of a rules game with an index: by bit rows where the game is a
//! pursuit, else by the engine's retrograde analysis.

use crate::game::{compact, CompactTask, RulesGame};
use crate::retrograde::pursuit;

/// The whole solve of a pursuit by bit rows ([`RulesGame::is_pursuit`]), what
/// [`solve_whole`] tries first; `None` when the game is not a pursuit or the solve
/// gave up (past six row words of work a position, or a remoteness of 16,383).
pub fn solve_by_bit_rows(
    game: &RulesGame,
    options: &gsolve_engine::retrograde::Options<'_>,
) -> Option<gsolve_engine::Solution> {
    pursuit::solve(game.pursuit()?, game.tables(), game.index()?, options.progress)
}

/// Whole-game retrograde analysis of a rules game with an index: what every front
/// end runs. A pursuit (one piece a side, moves by its cell alone: see
/// [`RulesGame::is_pursuit`]) is solved by bit rows, the built-in pursuit games'
/// bit-parallel solve; any other game, or a pursuit that solve gives up on, by the
/// engine with positions of the smallest room that holds its pieces
/// ([`compact`]). The values are the same either way.
pub fn solve_whole(game: &RulesGame, options: &gsolve_engine::retrograde::Options<'_>) -> gsolve_engine::Solution {
    match solve_by_bit_rows(game, options) {
        Some(solution) => solution,
        None => solve_retrograde(game, options),
    }
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
