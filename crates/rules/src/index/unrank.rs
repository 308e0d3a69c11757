//! Unranking: an index to its position, its pieces, or its groups' cell sets.

use super::{arith::*, placement::*, places::*, tiers::*};
use crate::compiled::position::{cell_of, pack, RulesPosition};

impl PlacementIndex {
    /// The position at an index of a tier, `None` for a hole.
    pub fn position_in<const N: usize>(&self, tier: usize, index: u64) -> Option<RulesPosition<N>> {
        if self.tiers[tier].sides >> self.side_at(index) & 1 == 0 {
            return None;
        }
        self.pieces_in(tier, index)
    }

    /// The pieces at an index of a tier (with the side to move of the index, even
    /// where the tier has no position with that side to move), `None` where the
    /// pieces are a hole.
    ///
    /// Groups are unranked in group order and each group's cells come out in
    /// increasing order, so the pieces are appended already sorted.
    pub(crate) fn pieces_in<const N: usize>(&self, tier: usize, index: u64) -> Option<RulesPosition<N>> {
        let mut list = [0u32; N];
        let len = self.unrank_pieces(tier, index, &mut list)?;
        let mut hand = 0u64;
        for (slot, &c) in self.tiers[tier].counts[self.groups..].iter().enumerate() {
            hand |= (c as u64) << (4 * slot);
        }
        Some(RulesPosition::from_list(self.side_at(index), hand, list, len))
    }

    /// The packed pieces at an index of a tier written sorted to the start of
    /// `list`, and how many; `None` where the pieces are a hole. [`Self::pieces_in`]
    /// without the position: the list is whole before a position holds it (a
    /// position written piece by piece, then copied, stalled on its last writes).
    pub(crate) fn unrank_pieces<const N: usize>(&self, tier: usize, index: u64, list: &mut [u32; N]) -> Option<usize> {
        if self.cells <= 64 && self.groups <= MASK_GROUPS {
            let len = self.unrank_small(tier, index, list);
            #[cfg(debug_assertions)]
            {
                let mut general = [0u32; N];
                let expected = self.unrank_general(tier, index, &mut general);
                debug_assert_eq!(len, expected, "the 64-bit unranking finds the same holes");
                debug_assert_eq!(list[..len.unwrap_or(0)], general[..len.unwrap_or(0)], "and the same pieces");
            }
            return len;
        }
        self.unrank_general(tier, index, list)
    }

    /// [`Self::unrank_pieces`] on any board, [`Taken`] keeping the cells taken.
    pub(super) fn unrank_general<const N: usize>(&self, tier: usize, index: u64, list: &mut [u32; N]) -> Option<usize> {
        let info = &self.tiers[tier];
        let mut len = 0;
        let mut rest = index >> self.side_shift;
        let mut taken = Taken::<N>::new(self.cells, self.groups);
        let mut ranks = [0u32; N];
        for (g, &c) in info.counts[..self.groups].iter().enumerate() {
            let k = c as usize;
            if k == 0 {
                continue;
            }
            let places = &self.places[g];
            let radix = info.radices[g];
            let group_rank = rest % radix;
            rest /= radix;
            if let Some(pair) = &self.royal_pair {
                if g == pair.first {
                    let (x, y) = pair.cells_of[group_rank as usize];
                    list[len] = pack(g, x);
                    len += 1;
                    taken.add(g, x);
                    taken.add(pair.second, y);
                    continue;
                }
                if g == pair.second {
                    // Placed with the first: it comes here in the sorted list.
                    let y = (taken.masks[g]).trailing_zeros();
                    list[len] = pack(g, y);
                    len += 1;
                    continue;
                }
            }
            if let Some(table) = info.cell_tables[g] {
                let mask = self.cell_sets[table as usize][group_rank as usize];
                if !taken.add_mask(g, mask, !places.all_within) {
                    return None; // an earlier group not within stands there: a hole
                }
                let mut bits = mask;
                while bits != 0 {
                    list[len] = pack(g, bits.trailing_zeros());
                    len += 1;
                    bits &= bits - 1;
                }
                continue;
            }
            // The ranks among the free places, increasing.
            self.combination(info, g, group_rank, &mut ranks[..k]);
            // The cells of a group are found among the places left free before any
            // is taken: a group's own cells do not shift each other.
            let start = len;
            taken.free_places(places, &ranks[..k], |cell| {
                list[len] = pack(g, cell);
                len += 1;
            });
            let cells = list[start..len].iter().map(|&q| cell_of(q));
            if !taken.add_group(g, cells, !places.all_within) {
                return None; // an earlier group not within stands there: a hole
            }
        }
        Some(len)
    }

    /// The ranks among its free places of group `g`'s pieces in the tier `info`,
    /// increasing, from the group's digit `group_rank` (colex): one table load
    /// where the group has a table in the tier, else a search a piece.
    #[inline]
    pub(super) fn combination(&self, info: &TierInfo, g: usize, mut group_rank: u64, ranks: &mut [u32]) {
        let k = ranks.len();
        if let Some(table) = info.tables[g] {
            let mut set = self.combinations[table as usize][group_rank as usize];
            for rank in ranks {
                *rank = set.trailing_zeros();
                set &= set - 1;
            }
            return;
        }
        // Colex unranking: the largest r with C(r, i) ≤ what is left, for i = k..1.
        let mut hi = info.free[g];
        for i in (1..=k).rev() {
            let r = if i == 1 {
                // C(r, 1) = r: what is left is the rank itself.
                group_rank as u32
            } else {
                // Binary search for the last r in [i − 1, hi) with C(r, i) ≤ what
                // is left (C(r, i) grows with r; C(i − 1, i) = 0 always fits),
                // its step a select the compiler keeps free of branches: the
                // comparisons are unpredictable.
                let row = &self.binomial[i * (self.cells as usize + 1)..];
                let mut lo = i as u32 - 1;
                let mut len = hi - lo;
                while len > 1 {
                    let half = len / 2;
                    let fits = row[(lo + half) as usize] <= group_rank;
                    lo = std::hint::select_unpredictable(fits, lo + half, lo);
                    len -= half;
                }
                lo
            };
            group_rank -= self.choose(r, i);
            ranks[i - 1] = r;
            hi = r;
        }
    }

    /// [`Self::unrank_pieces`] on a board of at most 64 cells with at most
    /// [`MASK_GROUPS`] groups: the same list, with the cells taken so far as
    /// 64-bit sets in registers (no [`Taken`] to set up) and the tier's radices
    /// divided by multiplications ([`div_rem`]) where the rank fits in 32 bits.
    ///
    /// Why: every position retrograde propagates from is unranked, and the
    /// general walk's set-up and divisions were a large part of Dobutsu's solve.
    #[inline]
    pub(super) fn unrank_small<const N: usize>(&self, tier: usize, index: u64, list: &mut [u32; N]) -> Option<usize> {
        let mut len = 0;
        let placed = self.unrank_small_groups::<N>(tier, index, |g, mut bits| {
            while bits != 0 {
                list[len] = pack(g, bits.trailing_zeros());
                len += 1;
                bits &= bits - 1;
            }
        });
        placed.then_some(len)
    }

    /// The cells of each group at an index of a tier as 64-bit sets
    /// (`masks[g]`, bit c for cell c; every other entry 0), on a board of at
    /// most 64 cells with at most [`MASK_GROUPS`] groups ([`Self::unranks_to_sets`]):
    /// [`Self::unrank_pieces`] without the list. False where the index is a hole.
    #[inline]
    pub(crate) fn unrank_sets<const N: usize>(&self, tier: usize, index: u64, masks: &mut [u64; MASK_GROUPS]) -> bool {
        *masks = [0; MASK_GROUPS];
        let placed = self.unrank_small_groups::<N>(tier, index, |g, cells| masks[g] = cells);
        #[cfg(debug_assertions)]
        {
            let mut general = [0u32; N];
            let len = self.unrank_general(tier, index, &mut general);
            debug_assert_eq!(placed, len.is_some(), "the sets find the same holes");
            if let Some(len) = len {
                let mut sets = [0u64; MASK_GROUPS];
                general[..len].iter().for_each(|&q| sets[crate::compiled::position::group_of(q)] |= 1 << cell_of(q));
                debug_assert_eq!(*masks, sets, "and the same cells");
            }
        }
        placed
    }

    /// Does [`Self::unrank_sets`] unrank this index, and
    /// [`Self::group_ranks_of_sets`] and [`Self::index_of_sets`] rank every
    /// placement of it (at most 64 cells and [`MASK_GROUPS`] groups)? The
    /// placements [`Self::locate_few`] ranks get the same ranks from the sets:
    /// it is a shortcut to the general walk's numbers, not another numbering.
    pub(crate) fn unranks_to_sets(&self) -> bool {
        self.cells <= 64 && self.groups <= MASK_GROUPS
    }

    /// The walk of [`Self::unrank_small`] and [`Self::unrank_sets`]: calls
    /// `placed(g, cells)` with the cells of each group that has pieces in the
    /// tier, in group order (the royal pair's second group in its own turn);
    /// false where the index is a hole (some groups may have been placed).
    /// No group has more than `N` pieces.
    #[inline(always)]
    pub(super) fn unrank_small_groups<const N: usize>(
        &self,
        tier: usize,
        index: u64,
        mut placed: impl FnMut(usize, u64),
    ) -> bool {
        debug_assert!(self.cells <= 64 && self.groups <= MASK_GROUPS);
        let info = &self.tiers[tier];
        let groups = self.groups;
        let magics = &self.tier_magic[tier * groups..][..groups];
        let mut masks = [0u64; MASK_GROUPS];
        let mut all = 0u64;
        let mut rest = index >> self.side_shift;
        let mut ranks = [0u32; N];
        for (g, &count) in info.counts[..groups].iter().enumerate() {
            let k = count as usize;
            if k == 0 {
                continue;
            }
            let (quotient, group_rank) = div_rem(rest, info.radices[g], magics[g]);
            rest = quotient;
            if let Some(pair) = &self.royal_pair {
                if g == pair.first {
                    let (x, y) = pair.cells_of[group_rank as usize];
                    placed(g, 1 << x);
                    masks[g] = 1 << x;
                    masks[pair.second] = 1 << y;
                    all |= 1 << x | 1 << y;
                    continue;
                }
                if g == pair.second {
                    // Placed with the first: it comes here in group order.
                    placed(g, masks[g]);
                    continue;
                }
            }
            let places = &self.places[g];
            let mask = match info.cell_tables[g] {
                Some(table) => self.cell_sets[table as usize][group_rank as usize] as u64,
                None => {
                    let taken = places.taken_small(&masks, all);
                    self.combination(info, g, group_rank, &mut ranks[..k]);
                    // The ranked places among the free ones, picked in one walk.
                    let mut free = places.mask as u64 & !taken;
                    let (mut at, mut mask) = (0u32, 0u64);
                    for &rank in &ranks[..k] {
                        while at < rank {
                            free &= free - 1;
                            at += 1;
                        }
                        mask |= free & free.wrapping_neg();
                    }
                    mask
                }
            };
            if mask & all != 0 {
                return false; // an earlier group not within stands there: a hole
            }
            placed(g, mask);
            masks[g] = mask;
            all |= mask;
        }
        true
    }

    /// The position at a whole-game index, `None` for a hole.
    pub fn position<const N: usize>(&self, index: u64) -> Option<RulesPosition<N>> {
        let tier = self.tier_at(index);
        self.position_in(tier, index - self.tiers[tier].offset)
    }
}
