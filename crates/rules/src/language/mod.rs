//! The language: a rules file as written (TOML with the place of every key),
//! read and checked into [`spec::Rules`], and the errors a file can have.
//!
//! Floor 1 of the crate: it uses nothing else of the crate.

pub mod error;
pub mod spec;
pub(crate) mod syntax;
