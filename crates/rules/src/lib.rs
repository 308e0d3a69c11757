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
//! ## The crate's floors
//! Each folder is a layer and uses only the layers below it; no module imports
//! from a layer above its own, and the crate's modules import one another in no
//! circle.
//!
//! | floor | folder | what it holds |
//! |---|---|---|
//! | 6 | [`setup()`], `solve` | rules + board + position → a game to solve; whole solves |
//! | 5 | [`game`] | [`RulesGame`]: the fast paths chosen once, the engine's traits, words, notation, books |
//! | 4 | `retrograde` | what needs the index: moves run back, folding, first looks, parents' walks, tier scans, pursuits |
//! | 3 | [`index`] | the dense index over piece placements, in tiers |
//! | 3 | `search` | what needs no index: line games, step games on bit sets, immediate wins, trail races |
//! | 2 | `compiled` | the rules on one board: [`board`], [`position`], endings, tables, moves, [`symmetry`] |
//! | 1 | `language` | the rules file read and checked ([`spec`]), its errors ([`error`]) |
//!
//! (`search` and [`index`] share floor 3: both stand on `compiled` and ignore
//! each other.)
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod compiled;
pub mod game;
pub mod index;
mod language;
mod retrograde;
mod search;
mod setup;
mod solve;

pub use compiled::{board, position, symmetry};
pub use language::{error, spec};

/// Opening books of line games: positions near a start solved once
/// (docs/rules-solving.md, "Opening books").
pub mod book {
    pub use crate::search::lines::book::{
        BookError, LinesOfPlay, OpeningBook, Opponent, KEY_VERSION, MAX_BOOK_PLIES, MAX_PLAY_PLIES,
    };
}
/// Flip games (Othello-like rules) searched for their margins on bit sets:
/// [`RulesGame::flip_shape`] says which rules files are one.
pub mod flips {
    pub use crate::search::flips::{
        Directions, FlipMove, FlipSearch, FlipShape, Limits, OutOfBudget, Progress, ScoreValue, ShapeError, Stats,
    };
}
pub use error::RulesError;
pub use game::notation;
pub use game::{
    compact, describe_without_position, escape_text, intern, map_from_line, unescape_text, CompactTask, FastPath,
    RulesGame, RulesMove,
};
pub use index::Folds;
pub use language::syntax::MAX_RULES_BYTES;
pub use position::RulesPosition;
pub use setup::{setup, Setup, SetupError};
pub use solve::{solve_by_bit_rows, solve_retrograde};
pub use spec::Rules;
