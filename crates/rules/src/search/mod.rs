//! Searches that need no index: line games on bit sets and their opening
//! books ([`lines`]), step games on bit sets ([`bits`]), immediate wins read
//! from the rules ([`knowledge`]) and trail races ([`race`]), each for the
//! rules of its shape; flip games (Othello's shape) for their exact margins
//! on bit sets ([`flips`]).
//!
//! Floor 3: it uses [`crate::compiled`] and [`crate::language`], never the
//! index nor the game.

pub(crate) mod bits;
pub(crate) mod flips;
pub(crate) mod knowledge;
pub(crate) mod lines;
pub(crate) mod race;
