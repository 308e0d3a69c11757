//! The game's positions by index: the whole game's index ([`Indexed`]), and the pieces unranked once for both sides to move.

use super::fast_paths::FirstLookPath;
use super::rules_game::RulesGame;
use crate::compiled::position::RulesPosition;
use gsolve_engine::Indexed;

impl<const N: usize> RulesGame<N> {
    pub(super) fn placement(&self) -> &crate::index::PlacementIndex {
        // The front ends ask `placement_index()` before using an index solver.
        self.index().expect("a rules game used with an index solver has an index")
    }

    /// The position the index keeps for `p` (itself, unless the index is folded
    /// by symmetry).
    #[inline]
    pub(crate) fn kept(&self, p: &RulesPosition<N>) -> RulesPosition<N> {
        match self.fold() {
            Some(fold) => fold.kept(p),
            None => *p,
        }
    }

    /// Calls `f(index, decoded, side)` for each of `indices` (ascending), holes
    /// skipped, decoding the pieces once for the two sides to move of one
    /// placement: they are neighbours (`2i`, `2i + 1`; every tier starts at an
    /// even index), where the tiers hold both sides (else each index is a
    /// placement of its own). `decode` gives the pieces at the placement's
    /// first index and the sides to move they have there (bit s: side s).
    pub(super) fn for_each_paired<T: Copy>(
        &self,
        indices: impl Iterator<Item = u64>,
        decode: impl Fn(u64) -> Option<(T, u8)>,
        mut f: impl FnMut(u64, T, usize),
    ) {
        let shift = self.placement().side_shift();
        let side_mask = shift as u64;
        let mut last: Option<(u64, Option<(T, u8)>)> = None;
        for index in indices {
            let pieces = match last {
                Some((pair, decoded)) if pair == index >> shift => decoded,
                _ => {
                    let decoded = decode(index & !side_mask);
                    last = Some((index >> shift, decoded));
                    decoded
                }
            };
            if let Some((decoded, sides)) = pieces {
                let side = (index & side_mask) as usize;
                if sides >> side & 1 == 1 {
                    f(index, decoded, side);
                }
            }
        }
    }

    /// [`Self::for_each_paired`] of positions, each with its side to move.
    pub(super) fn for_each_paired_position(
        &self,
        indices: impl Iterator<Item = u64>,
        decode: impl Fn(u64) -> Option<(RulesPosition<N>, u8)>,
        mut f: impl FnMut(u64, RulesPosition<N>),
    ) {
        self.for_each_paired(indices, decode, |index, mut p: RulesPosition<N>, side| {
            p.set_to_move(side);
            f(index, p)
        })
    }

    /// [`Indexed::for_each_first_look_in`] from the groups' cell sets
    /// ([`crate::retrograde::first_look::first_look_sets`]), each placement unranked once
    /// to sets ([`crate::index::PlacementIndex::unrank_sets`]), no position
    /// made.
    fn for_each_set_look_in(
        &self,
        look: &crate::retrograde::first_look::SetLook,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, gsolve_engine::FirstLook),
    ) {
        let (tables, placement) = (self.tables(), self.placement());
        let groups = tables.groups();
        let indices = range.start..range.end.min(placement.size());
        self.for_each_paired(
            indices,
            |index| {
                let tier = placement.tier_at(index);
                let info = &placement.tiers()[tier];
                let mut masks = [0u64; crate::index::MASK_GROUPS];
                placement.unrank_sets::<N>(tier, index - info.offset, &mut masks).then_some(((masks, tier), info.sides))
            },
            |index, (masks, tier), side| {
                let hands = &placement.tiers()[tier].counts[groups..];
                let look =
                    crate::retrograde::first_look::first_look_sets(tables, placement, look, &masks, hands, side, N);
                #[cfg(debug_assertions)]
                {
                    // The tests' builds check it against the look from the list.
                    let offset = placement.tiers()[tier].offset;
                    let mut p: RulesPosition<N> = placement.pieces_in(tier, index - offset).expect("not a hole");
                    p.set_to_move(side);
                    let from_list = crate::retrograde::first_look::first_look(tables, placement, &p);
                    debug_assert_eq!(look, from_list, "the first look from sets at {index}");
                }
                f(index, look)
            },
        )
    }
}

/// The whole game's index: the tiers one after another. Meetings end the game and
/// have no index: retrograde values them from the moves.
impl<const N: usize> Indexed for RulesGame<N> {
    /// Every terminal position is indexed unless pieces can meet (two pieces on one
    /// cell, which no index holds), a piece ends the game where it arrives (no
    /// index holds it there) or a side can lose its royal pieces (no tier holds
    /// it without them): then retrograde values terminal children from the moves.
    fn terminals_indexed(&self) -> bool {
        self.terminals_indexed
    }

    /// Where the royal pieces are ranked as a pair ([`crate::index`], "Royal
    /// pieces placed as a pair"), a position where the side to move can take
    /// the other's royal piece at once is a win in 1: with its royal piece it
    /// has no index, with another piece it has one, but the solvers value it
    /// from here all the same ([`gsolve_engine::FirstLook::ByRules`]).
    #[inline]
    fn value_by_rules(&self, p: &RulesPosition<N>) -> Option<gsolve_engine::Value> {
        if let Some(outcome) = gsolve_engine::Game::terminal(self, p) {
            return Some(outcome.value());
        }
        let pair = self.index()?.royal_pair()?;
        pair.side_takes_royal(self.tables(), p.to_move(), p.packed()).then_some(gsolve_engine::Value::Win(1))
    }

    /// 0 for a game without an index (never built from parameters).
    fn index_size(&self) -> u64 {
        self.index().map_or(0, |index| index.size())
    }

    /// `u64::MAX` (past every index) for a position no tier holds: more pieces
    /// than the limits, or a piece where it would have ended the game; callers
    /// that take positions from users check the index against `index_size`.
    /// A position of an index folded by symmetry has its kept image's index.
    #[inline]
    fn index(&self, p: &RulesPosition<N>) -> u64 {
        self.placement().index(&self.kept(p)).unwrap_or(u64::MAX)
    }

    /// The pieces are unranked once for both sides to move.
    fn for_each_position_in(&self, range: std::ops::Range<u64>, f: impl FnMut(u64, RulesPosition<N>)) {
        let Some(placement) = self.index() else { return };
        let indices = range.start..range.end.min(placement.size());
        self.for_each_paired_position(
            indices,
            |index| {
                let tier = placement.tier_at(index);
                let offset = placement.tiers()[tier].offset;
                placement.pieces_in(tier, index - offset).map(|p| (p, placement.tier_sides(tier)))
            },
            f,
        )
    }

    /// Where a turn moves one piece and the endings are one table
    /// ([`crate::retrograde::first_look`]): from the groups' cell sets if every move is
    /// short and the board has at most 64 cells ("From cell sets"); else,
    /// where the game's pieces only step, from the piece list
    /// ([`crate::retrograde::steps`]); else from the pieces' ending words. Otherwise the
    /// engine's default (each position decoded, its moves counted or its
    /// children played).
    fn for_each_first_look_in(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64, gsolve_engine::FirstLook)) {
        let (tables, placement) = (self.tables(), self.placement());
        match &self.paths.first_look {
            FirstLookPath::Sets(look) => self.for_each_set_look_in(look, range, f),
            FirstLookPath::StepLists(steps) => crate::retrograde::steps::for_each_first_look_in::<N>(
                tables,
                placement,
                steps,
                self.terminals_indexed,
                range,
                &mut f,
            ),
            FirstLookPath::EndingWords => self.for_each_position_in(range, |index, p| {
                f(index, crate::retrograde::first_look::first_look(tables, placement, &p))
            }),
            FirstLookPath::Engine => {
                self.for_each_position_in(range, |index, p| f(index, gsolve_engine::first_look(self, &p)))
            }
        }
    }

    #[inline]
    fn position(&self, index: u64) -> Option<RulesPosition<N>> {
        let placement = self.index()?;
        (index < placement.size()).then(|| placement.position(index)).flatten()
    }
}
