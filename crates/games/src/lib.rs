//! # gsolve-games
//!
//! The games gsolve solves, each implementing the engine's traits, with its state
//! index and its text formats. No game here knows about the command line.
//!
//! | module         | game                                          | engine traits              |
//! |----------------|-----------------------------------------------|----------------------------|
//! | [`queens_case`] | Queen's Case (JAG, HDU 3514)                  | `Game + Indexed + Unmoves` |
//! | [`chase`]       | CQOI 2013 board game                          | `Game + Indexed + Unmoves` |
//! | [`pawns`]       | pawn chess (UVa 10838), any R×C board         | `Game + Indexed + Layered` |
//! | [`snakes`]      | two snakes (alternating Tron)                 | `Game + SearchHooks`       |
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod chase;
pub mod error;
pub mod graph;
pub mod notation;
pub mod pawns;
pub(crate) mod plain;
pub mod pursuit;
pub mod queens_case;
pub mod rng;
pub mod snakes;
pub mod text;

pub use error::FormatError;
