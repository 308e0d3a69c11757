//! The language: a rules file as written (TOML with the place of every key),
//! read ([`reader`]) and checked into the types of [`spec`], and the errors a
//! file can have.
//!
//! Floor 1 of the crate: it uses nothing else of the crate.

pub mod error;
mod reader;
pub mod spec;
pub(crate) mod syntax;
