//! # gsolve-rules
//!
//! Games described in a rules file (TOML) instead of Rust: the board, the sides, the
//! pieces and how they move, the zones and how the game ends. A rules file read
//! with [`Rules::parse`] and set up on a board with [`setup()`] is a [`RulesGame`]:
//! an engine game like the built-in ones, with the capabilities its rules allow.
//!
//! | rules                       | capabilities              | solvers                      |
//! |-----------------------------|---------------------------|------------------------------|
//! | no trails                   | `Indexed`, `Unmoves`, `Tiered` | whole-game retrograde (draws exact), tiers on disk |
//! | trails (cells become walls) | `SearchHooks`             | alpha-beta with a transposition table |
//!
//! The language is documented key by key in docs/rules.md.
//!
//! | module       | what it holds                                                 |
//! |--------------|---------------------------------------------------------------|
//! | [`spec`]     | the rules as read from the file, checked                       |
//! | [`board`]    | a board of one size or map: cells, zones, move rays           |
//! | [`position`] | positions: a sorted piece list, walls left by trails          |
//! | [`game`]     | moves, play, endings                                          |
//! | [`index`]    | the dense index over piece placements, in tiers               |
//! | `unmoves`    | parents: the moves run backwards                              |
//! | `pursuit`    | pursuits (one piece a side) solved whole by bit rows          |
//! | `race`       | trail races (the snakes on a graph): the search's knowledge   |
//! | [`notation`] | positions and maps as one line of text                        |
//! | [`setup()`]  | rules + size or map + position → a game to solve              |
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod board;
pub mod error;
mod explain;
pub mod game;
mod impls;
pub mod index;
pub mod notation;
pub mod position;
mod pursuit;
mod race;
mod scan;
mod search;
mod setup;
pub mod spec;
mod syntax;
mod unmoves;

pub use error::RulesError;
pub use explain::{describe_without_position, intern, SolverChoice};
pub use game::{RulesGame, RulesMove};
pub use impls::{escape_text, map_from_line, unescape_text};
pub use position::RulesPosition;
pub use setup::{setup, Setup, SetupError};
pub use spec::Rules;
pub use syntax::MAX_RULES_BYTES;

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
/// bytes where chase needs 48; solves of games with few pieces ran a quarter of
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

/// The whole solve of a pursuit by bit rows ([`RulesGame::is_pursuit`]), what
/// [`solve_whole`] tries first; `None` when the game is not a pursuit or the solve
/// gave up (past six row words of work a position, or a remoteness of 16,383).
pub fn solve_by_bit_rows(
    game: &RulesGame,
    options: &gsolve_engine::retrograde::Options<'_>,
) -> Option<gsolve_engine::Solution> {
    pursuit::solve(game, options.progress)
}

/// Whole-game retrograde analysis of a rules game with an index: what every front
/// end runs. A pursuit (one piece a side, moves by its cell alone: see
/// [`RulesGame::is_pursuit`]) is solved by bit rows, the built-in pursuit games'
/// bit-parallel solve; any other game, or a pursuit that solve gives up on, by the
/// engine with positions of the smallest room that holds its pieces
/// ([`compact`]). The values are the same either way.
pub fn solve_whole(game: &RulesGame, options: &gsolve_engine::retrograde::Options<'_>) -> gsolve_engine::Solution {
    if let Some(solution) = pursuit::solve(game, options.progress) {
        return solution;
    }
    struct Whole<'a, 'o>(&'a gsolve_engine::retrograde::Options<'o>);
    impl CompactTask for Whole<'_, '_> {
        type Output = gsolve_engine::Solution;
        fn run<const N: usize>(self, game: &RulesGame<N>) -> Self::Output {
            gsolve_engine::retrograde::solve_with(game, self.0)
        }
    }
    compact(game, Whole(options))
}
