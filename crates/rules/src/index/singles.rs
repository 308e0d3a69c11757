//! Tiers whose groups have at most one piece: ranks walked digit by digit, and placements unranked piece by piece.

use super::{arith::*, pair::*, placement::*};
use crate::compiled::position::{cell_of, group_of, pack};

impl PlacementIndex {
    /// Has no group more than one piece (and the index no hands, at most 64
    /// groups and [`FEW_PIECES`] pieces)? Then [`Self::unrank_singles`] unranks,
    /// and a step game's parents are ranked from their child's ranks.
    #[inline]
    pub fn singles(&self) -> bool {
        self.singles
    }

    /// The number of pieces of each placement of tier `tier` in an index of
    /// [`Self::singles`] (one a group present).
    #[inline]
    pub(crate) fn single_count(&self, tier: usize) -> usize {
        self.tier_present[tier].count_ones() as usize
    }

    /// The groups with pieces in tier `tier`, as a bit set of groups.
    #[inline]
    pub(crate) fn tier_groups(&self, tier: usize) -> u64 {
        self.tier_present[tier]
    }

    /// The group ranks of `index` of tier `tier` in an index of [`Self::singles`],
    /// one a group with a piece, in group order, written to `digits` (room for
    /// the tier's pieces).
    #[inline(always)]
    pub(crate) fn single_ranks<const N: usize>(&self, tier: usize, index: u64, digits: &mut [u64; N]) {
        let base = tier * self.groups;
        let mut rest = index >> self.side_shift;
        let mut present = self.tier_present[tier];
        // Bounded by the room, so that a small room's loop is unrolled.
        for digit in digits.iter_mut() {
            if present == 0 {
                break;
            }
            let g = present.trailing_zeros() as usize;
            present &= present - 1;
            // The last group's rank is what is left: no division.
            *digit = if present == 0 {
                rest
            } else {
                let (quotient, rank) = div_rem(rest, self.tier_radices[base + g], self.tier_magic[base + g]);
                rest = quotient;
                rank
            };
        }
    }

    /// The group ranks after `digits` ([`Self::single_ranks`]) in tier `tier`: the
    /// next placement, the first group counting fastest; false past the last.
    #[inline]
    pub(crate) fn next_single_ranks<const N: usize>(&self, tier: usize, digits: &mut [u64; N]) -> bool {
        let mut present = self.tier_present[tier];
        let mut k = 0;
        while present != 0 {
            let g = present.trailing_zeros() as usize;
            present &= present - 1;
            digits[k] += 1;
            if digits[k] < self.radix(tier, g) {
                return true;
            }
            digits[k] = 0;
            k += 1;
        }
        false
    }

    /// [`Self::unrank_pieces`] in an index of [`Self::singles`], from the group
    /// ranks `digits` of tier `tier` ([`Self::single_ranks`]): the packed pieces
    /// written to the start of `list` (sorted: one piece a group, in group order),
    /// with each piece's group rank and the multiplier of its group written to
    /// `ranks` (the rank within the tier is `Σ rank × multiplier`, module docs);
    /// how many, `None` for a hole.
    ///
    /// A group of one piece ranks the cell's slot among its places less the
    /// pieces of earlier groups within it on slots below (module docs), so the
    /// piece's slot `s` is the least with `s = rank + #{such pieces on slots ≤
    /// s}`: iterated from `s = rank`, it grows to that fixed point, which no
    /// such piece takes (were `s` taken, `s − 1` would be a smaller one). Why not
    /// [`Self::unrank_pieces`]: its bookkeeping for groups of many pieces
    /// ([`Taken`], the combination tables) cost more than the unranking of two
    /// pieces, which every position of a pursuit's retrograde solve needs, and
    /// it does not give the ranks its caller then needs.
    #[inline(always)]
    pub(crate) fn singles_at<const N: usize>(
        &self,
        tier: usize,
        digits: &[u64; N],
        list: &mut [u32; N],
        ranks: &mut [(u64, u64); N],
    ) -> Option<usize> {
        debug_assert!(self.singles);
        let cells = self.cells as usize;
        let mut mult = 1u64;
        let mut present = self.tier_present[tier];
        // Bounded by the room, so that a small room's loop is unrolled.
        for n in 0..N {
            if present == 0 {
                return Some(n);
            }
            let g = present.trailing_zeros() as usize;
            present &= present - 1;
            let rank = digits[n];
            let within = self.within_of[g];
            let mut slot = rank as u32;
            if within != 0 {
                let slots = &self.slot_of[g * cells..];
                let below = |slot: u32| {
                    list[..n]
                        .iter()
                        .filter(|&&q| within >> group_of(q) & 1 == 1 && slots[cell_of(q) as usize] <= slot)
                        .count() as u32
                };
                if N <= 4 {
                    // The iteration grows `s` by at least one each time it does
                    // not stop, and the count below is at most n: n steps reach
                    // the fixed point. Taken without a test, they leave no
                    // branch to mispredict (which piece stands first is a coin
                    // toss from one index to the next).
                    for _ in 0..n {
                        slot = rank as u32 + below(slot);
                    }
                } else {
                    loop {
                        let next = rank as u32 + below(slot);
                        if next == slot {
                            break;
                        }
                        slot = next;
                    }
                }
            }
            let cell = self.place_cells[g * cells + slot as usize];
            // An earlier group not within this one stands there: a hole.
            if list[..n].iter().any(|&q| cell_of(q) == cell) {
                return None;
            }
            list[n] = pack(g, cell);
            ranks[n] = (rank, mult);
            mult = mult.wrapping_mul(self.radix(tier, g));
        }
        debug_assert_eq!(present, 0, "room for every piece of the tier");
        Some(N)
    }

    /// [`Self::singles_at`] of `index` in tier `tier`.
    #[inline(always)]
    pub(crate) fn unrank_singles<const N: usize>(
        &self,
        tier: usize,
        index: u64,
        list: &mut [u32; N],
        ranks: &mut [(u64, u64); N],
    ) -> Option<usize> {
        let mut digits = [0u64; N];
        self.single_ranks(tier, index, &mut digits);
        self.singles_at(tier, &digits, list, ranks)
    }

    /// [`Self::unrank_singles`] of `index` in tier `tier`, which holds exactly
    /// two pieces (one of each of two groups): `None` for a hole.
    ///
    /// The rank within the tier is `r0 + r1 × radix0` (module docs): the first
    /// group's rank is its piece's slot (no group comes before it), the
    /// second's its slot less one where the first piece stands within its
    /// places on a lower slot, so its slot is `r1 + [slot of the first piece ≤
    /// r1]` (the fixed point of [`Self::singles_at`] after its one step). Why
    /// apart: the general unranking's loops over the room and the digits were
    /// a sixth of a pursuit's parent walk.
    #[inline(always)]
    pub(crate) fn unrank_pair(&self, tier: usize, index: u64) -> Option<SinglePair> {
        debug_assert!(self.singles && self.single_count(tier) == 2);
        let cells = self.cells as usize;
        let present = self.tier_present[tier];
        let first = present.trailing_zeros() as usize;
        let second = (present & (present - 1)).trailing_zeros() as usize;
        let at = tier * self.groups + first;
        let radix = self.tier_radices[at];
        let (second_rank, first_rank) = div_rem(index >> self.side_shift, radix, self.tier_magic[at]);
        let first_cell = self.place_cells[first * cells + first_rank as usize];
        let within = self.within_of[second] >> first & 1 == 1;
        let mut slot = second_rank as u32;
        // A cell off the second group's places has slot u32::MAX: never below.
        slot += (within && self.slot_of[second * cells + first_cell as usize] <= slot) as u32;
        let second_cell = self.place_cells[second * cells + slot as usize];
        let pair = (second_cell != first_cell).then_some(SinglePair {
            groups: [first, second],
            cells: [first_cell, second_cell],
            ranks: [first_rank, second_rank],
            radix,
            within,
        });
        // The general unranking, as a check in the tests' builds.
        #[cfg(debug_assertions)]
        {
            let (mut list, mut ranks) = ([0u32; 2], [(0u64, 0u64); 2]);
            let expected = self.unrank_singles(tier, index, &mut list, &mut ranks).map(|_| (list, ranks));
            let got =
                pair.map(|p| ([0, 1].map(|k| pack(p.groups[k], p.cells[k])), [(p.ranks[0], 1), (p.ranks[1], p.radix)]));
            debug_assert_eq!(got, expected, "tier {tier}, index {index}");
        }
        pair
    }
}
