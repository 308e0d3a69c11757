//! Parents ranked from their child's pieces, for games whose pieces only step:
//! retrograde analysis asks every position it decides for its parents' indices
//! ([`gsolve_engine::Unmoves::for_each_parent_index`]), and here no parent is
//! built as a position.
//!
//! # Which games
//! Those [`ranks_parents`] accepts:
//! - pieces only step ([`Tables::steps_only`]: no drops, promotions, hands or
//!   trails) and each side moves one piece a turn;
//! - the endings are one table ([`crate::compiled::endings::EndingTable`]: no `line` or
//!   `full` ending) and being stuck is a loss (so whether a position is over
//!   depends on its pieces alone, not on its moves);
//! - the index ranks a list of pieces ([`PlacementIndex::locates_pieces`]: no
//!   hands, at most [`crate::index::FEW_PIECES`] pieces in all).
//!
//! Chase, Queen's Case, cops and robbers, fox and hounds: the pursuits and the
//! pieces-on-a-board games without promotions. Where the board has at most 64
//! cells and every move is one cell long or a leap, the walk on cell sets
//! ([`crate::retrograde::set_unmoves`]) and the first look from them
//! ([`crate::retrograde::first_look`], "From cell sets") go first: they read sets rather
//! than lists (0.90 of Fox and Hounds' instructions), so this module serves
//! the larger boards and the long rays.
//!
//! # How
//! A parent is its child with one piece of the side that moved back on a cell
//! of one of its backward rays (and, for a capture, an enemy where it landed),
//! or, where a piece may stay, the child with the other side to move: the same
//! parents as [`crate::retrograde::unmoves`] finds, found the same way. Each is a short
//! sorted list on the stack: whether it is over is the OR of its pieces' ending
//! words looked up once, and its index is ranked from the list
//! ([`PlacementIndex::locate_pieces`]). Why: building each parent as a
//! [`RulesPosition`] (a copy of the child, changed, copied again to be ranked)
//! stalled on every copy of a just-changed position, and was with the ending
//! checks most of a pursuit's retrograde solve.

mod first_look;
mod layout;
mod parents;

pub(crate) use first_look::for_each_first_look_in;
pub(crate) use layout::{ranks_parents, Steps};
pub(crate) use parents::for_each_parent_index;
