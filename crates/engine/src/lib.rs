//! # gsolve-engine
//!
//! The game-independent core of gsolve: the [`Value`] of a position, the game
//! traits ([`Game`], [`Indexed`], [`Unmoves`]) and exact solvers. It knows no game
//! and no user interface.
//!
//! | module          | what it does                                                   |
//! |-----------------|----------------------------------------------------------------|
//! | [`value`]       | `Value` (win/loss/tie with remoteness, draw), its order, packing |
//! | [`game`]        | the traits a game implements                                   |
//! | [`retrograde`]  | exact values of every position of an indexed game, cycles included |
//! | [`layered`]     | one-sweep solve of an acyclic game indexed in layers           |
//! | [`memo`]        | forward search with a memo table, for acyclic games too big to index |
//! | [`search`]      | alpha-beta with a transposition table, exact remoteness        |
//! | [`score`]       | games that end in a score: margins as values, an exact memo    |
//! | [`tiered`]      | one tier at a time, finished tiers as inputs: games too big for memory |
//! | [`line`]        | each move's value and the line of optimal play                 |
//! | [`check`]       | self-checks for game authors                                   |
//! | [`reachable`]   | the positions reachable from a start                           |
//!
//! ```
//! use gsolve_engine::{retrograde, Game, Indexed, Outcome, Unmoves, Value};
//!
//! /// Subtraction game: take 1 or 2 from a pile; who cannot move loses.
//! struct Nim2 { max: u64 }
//! impl Game for Nim2 {
//!     type Position = u64;
//!     type Move = u64;
//!     fn terminal(&self, _: &u64) -> Option<Outcome> { None }
//!     fn moves(&self, pile: &u64, out: &mut Vec<u64>) { out.extend((1..=2).filter(|t| t <= pile)) }
//!     fn play(&self, pile: &u64, take: &u64) -> u64 { pile - take }
//! }
//! impl Indexed for Nim2 {
//!     fn index_size(&self) -> u64 { self.max + 1 }
//!     fn index(&self, pile: &u64) -> u64 { *pile }
//!     fn position(&self, i: u64) -> Option<u64> { Some(i) }
//! }
//! let solution = retrograde::solve_forward_only(&Nim2 { max: 10 });
//! assert_eq!(solution.value(9), Some(Value::Loss(6)));
//! assert_eq!(solution.value(10), Some(Value::Win(7)));
//! ```
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod check;
pub mod game;
pub mod layered;
pub mod line;
pub mod memo;
pub mod progress;
pub mod reachable;
pub mod retrograde;
pub mod reverse_graph;
pub mod score;
pub mod search;
pub mod solution;
pub mod tiered;
pub mod value;

pub use game::{
    first_look, located_at, ChildAt, FirstLook, Game, Indexed, Layered, Scan, Tiered, Unmoves, ValueLookup, Variant,
};
pub use progress::{Observer, Progress};
pub use score::{MemoError, ScoreValue, Scored};
pub use solution::{Counts, Solution, StoredCodes};
pub use value::{Outcome, PackedValue, Value};
