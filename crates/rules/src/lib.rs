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
//! | `endings`    | the endings compiled for the board: reach zones, royal kinds, lines, a full board |
//! | `tables`     | the rules compiled for the board: sides, stays, trails, meetings, drops, hands, promotions, gravity, progress; the endings |
//! | `moves`      | the move generator: moves, the position after one, whether play is over |
//! | [`index`]    | the dense index over piece placements, in tiers               |
//! | `unmoves`    | parents: the moves run backwards                              |
//! | `set_unmoves` | retrograde's parents walked on cell sets (one piece a turn, short moves, endings in a table, at most 64 cells) |
//! | `first_look` | retrograde's first look at a position, no child built (one piece a turn, endings in a table), read from cell sets where every move is short and the board has at most 64 cells |
//! | `scan`       | pawn-like games: a tier's children ranked move by move        |
//! | `race`       | trail races (the snakes on a graph): the search's knowledge   |
//! | `knowledge`  | immediate wins read from the rules, for the search            |
//! | `mirror`     | the left-right symmetry the search folds                      |
//! | `lines`      | line games (drops, lines, a full board) on bit sets, their own search, and opening books ([`book`]) |
//! | `bits`       | step games (pieces step forward and capture: Breakthrough, pawns) on bit sets, their own search |
//! | [`game`]     | [`RulesGame`]: all of the above put together, an engine `Game` |
//! | `pursuit`    | pursuits (one piece a side) solved whole by bit rows          |
//! | [`notation`] | positions and maps as one line of text                        |
//! | `impls`, `search`, `explain` | the engine's other traits; the game in words  |
//! | [`setup()`]  | rules + size or map + position → a game to solve              |
//!
//! A module uses only those above it in this table: the tables, the moves, the
//! index and the fast paths know nothing of [`RulesGame`], which composes them.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod bits;
pub mod board;
mod endings;
pub mod error;
mod explain;
mod first_look;
pub mod game;
mod impls;
pub mod index;
mod knowledge;
mod lines;
mod moves;
pub mod notation;
pub mod position;
mod pursuit;
mod race;
mod scan;
mod search;
mod set_unmoves;
mod setup;
pub mod spec;
mod steps;
pub mod symmetry;
mod syntax;
mod tables;
mod unmoves;

/// Opening books of line games: positions near a start solved once
/// (docs/rules.md, "Opening books").
pub mod book {
    pub use crate::lines::book::{
        BookError, LinesOfPlay, OpeningBook, Opponent, KEY_VERSION, MAX_BOOK_PLIES, MAX_PLAY_PLIES,
    };
}
pub use error::RulesError;
pub use explain::{describe_without_position, intern, SolverChoice};
pub use game::{RulesGame, RulesMove};
pub use impls::{escape_text, map_from_line, unescape_text};
pub use index::Folds;
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
