//! Retrograde analysis's first look at a position ([`gsolve_engine::FirstLook`]:
//! its moves counted, the children the rules value valued) without building a
//! child, for games whose turn moves one piece and whose endings are one table.
//!
//! # Which games
//! Those [`applies`] accepts: each side moves one piece a turn (or drops one, or
//! passes where a piece may stay); the endings are one table
//! ([`crate::compiled::endings::EndingTable`]); no two pieces meet, no piece leaves a
//! trail, being stuck is a loss; and the index does not hold every ending
//! (where it does, the engine only counts the moves, which is cheap already).
//! Dobutsu shogi, Fox and Hounds with captures, Breakthrough-like games with
//! hands.
//!
//! # How
//! Whether a position is over is the OR of its pieces' ending words, looked up
//! in the table with the side to move. A child differs from its parent by the
//! moved piece (gone from its cell, on its target, perhaps promoted), a taken
//! enemy (gone) or a dropped piece (added): its word is the OR of the parent's
//! words of the pieces still there and the word of the piece where it lands.
//! Hands play no part in the words. Where the royal pieces are ranked as a pair
//! ([`crate::index`], "Royal pieces placed as a pair"), a child that is not over
//! is a win in 1 for its side to move when one of that side's pieces takes the
//! other's royal piece for sure ([`crate::index::RoyalPair::sure_takes`]): the
//! OR of those pieces' cells taken (a move changes it only by taking one of
//! them) against the mover's royal cell after the move. A position that is such
//! a win itself is [`FirstLook::ByRules`], its moves not counted.
//!
//! The moves themselves: where every ray is one cell long or a leap
//! ([`Tables::short_targets`]: Dobutsu shogi), each piece's are its two target
//! sets met with the empty and the enemy cells, and the drops an allowed set
//! met with the empty cells ([`short_moves`]); elsewhere [`moves::for_each`]
//! walks the rays.
//!
//! # From cell sets
//! Where, besides, every move is short and the index unranks to 64-bit sets
//! ([`SetLook`]: boards of at most 64 cells; Dobutsu shogi), no piece list is
//! made at all: each placement is unranked to one cell set a group
//! ([`PlacementIndex::unrank_sets`]) and [`first_look_sets`] reads everything
//! from the sets. The ORs of the pieces' words (and threats) but one or two
//! come from which bits one, two or three pieces have ([`Tally`]); a piece's
//! quiet targets outside its promotion zone are taken a landing word at a time
//! (their children differ only in the mover's cell: one ending asked, the
//! targets counted), and so are the drops that do not fall.
//!
//! This is [`gsolve_engine::first_look`] on [`crate::game::RulesGame`]'s
//! `value_by_rules`, answer for answer; a test compares the two on random
//! games.
//!
//! Why: playing each move into a position and asking the table of its pieces
//! again was most of Dobutsu's first look, and the first look a large part of its
//! solve.

mod sets;
mod tally;
mod words;

pub(crate) use sets::{first_look_sets, SetLook};
pub(crate) use tally::Tally;
pub(crate) use words::{applies, first_look};

#[cfg(test)]
mod tests {
    use super::Tally;
    use proptest::prelude::*;

    proptest! {
        /// The ORs with one or two words left out equal the ORs taken again
        /// over the others (words of 4 bits: most bits are had by several).
        #[test]
        fn tally_leaves_out_words_as_or_of_the_rest(
            words in proptest::collection::vec(0usize..16, 2..9),
            a in 0usize..8,
            b in 0usize..8,
        ) {
            let (a, b) = (a % words.len(), b % words.len());
            prop_assume!(a != b);
            let mut tally = Tally::default();
            words.iter().for_each(|&w| tally.add(w));
            let or_but = |skip: &[usize]| {
                words.iter().enumerate().filter(|(i, _)| !skip.contains(i)).fold(0, |set, (_, &w)| set | w)
            };
            prop_assert_eq!(tally.all(), or_but(&[]));
            prop_assert_eq!(tally.without(words[a]), or_but(&[a]));
            prop_assert_eq!(tally.without_two(words[a], words[b]), or_but(&[a, b]));
        }
    }
}
