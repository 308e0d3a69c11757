//! The compiled game: the rules laid out on one board — the board's cells,
//! zones and rays ([`board`]), positions ([`position`]), the endings
//! ([`endings`]), flips by bracketing ([`flips`]), passes and the score
//! ([`score`]), the tables that move generation and every fast path read
//! ([`tables`]), the move generator ([`moves`]), and the symmetries found
//! from the rules ([`symmetry`]).
//!
//! Floor 2: it uses only [`crate::language`].

pub mod board;
pub(crate) mod endings;
pub(crate) mod flips;
pub(crate) mod moves;
pub mod position;
pub(crate) mod score;
pub mod symmetry;
pub(crate) mod tables;
