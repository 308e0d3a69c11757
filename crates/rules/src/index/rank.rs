//! Ranking: a position (or its pieces, or its groups' cell sets) to its index.

use super::{placement::*, places::*, tiers::*};
use crate::compiled::position::{cell_of, group_of, RulesPosition};
use crate::compiled::tables::MAX_HAND_SLOTS;

impl PlacementIndex {
    /// (tier, index within the tier) of a position, `None` if no tier holds it (a
    /// piece off its group's places: the game is over there).
    pub fn locate<const N: usize>(&self, p: &RulesPosition<N>) -> Option<(usize, u64)> {
        self.locate_hinted(p, &mut TierHint::default())
    }

    /// [`Self::locate`], the tier's lookup skipped where the count vector is
    /// `hint`'s, which then holds this position's.
    ///
    /// Why: a retrograde solve locates every parent of a position, and most
    /// parents have the counts of the one before (a quiet move), so the lookup in
    /// the table of tiers is mostly skipped.
    #[inline]
    pub(crate) fn locate_hinted<const N: usize>(
        &self,
        p: &RulesPosition<N>,
        hint: &mut TierHint,
    ) -> Option<(usize, u64)> {
        if self.uses_few(p) {
            return self.locate_few(p);
        }
        let packed = p.packed();
        let groups = self.groups;
        let entries = groups + self.slots;
        // The counts, and the code of the count vector on the way.
        let mut counts = [0u8; 64 + MAX_HAND_SLOTS];
        let mut code = 0u64;
        for &q in packed {
            let g = group_of(q);
            counts[g] += 1;
            code = code.wrapping_add(self.strides[g]);
        }
        for slot in 0..self.slots {
            let c = p.in_hand(slot);
            counts[groups + slot] = c;
            code = code.wrapping_add(c as u64 * self.strides[groups + slot]);
        }
        // A count past its limit would alias another vector's code.
        if counts[..entries].iter().zip(&self.limits).any(|(c, l)| c > l) {
            return None;
        }
        let tier = self.tier_of_code_hinted(code, hint)?;
        let info = &self.tiers[tier];
        if self.cells <= 64 && groups <= MASK_GROUPS {
            let rank = self.rank_small(packed, &counts[..groups], info)?;
            let to_move = p.to_move();
            if info.sides >> to_move & 1 == 0 {
                return None;
            }
            return Some((tier, (rank << self.side_shift) + to_move as u64));
        }
        let mut rank: u64 = 0;
        let mut mult: u64 = 1;
        let mut taken = Taken::<N>::new(self.cells, groups);
        let mut i = 0;
        for (g, &count) in counts[..groups].iter().enumerate() {
            let k = count as usize;
            let run = &packed[i..i + k];
            if let Some(pair) = &self.royal_pair {
                if g == pair.first {
                    let (pair_rank, x, y) = pair.digit(packed, &counts[..groups])?;
                    rank += pair_rank * mult;
                    mult = mult.wrapping_mul(info.radices[g]);
                    taken.add(g, x);
                    taken.add(pair.second, y);
                    i += k;
                    continue;
                }
                if g == pair.second {
                    i += k;
                    continue;
                }
            }
            let places = &self.places[g];
            let mut group_rank = 0;
            for (j, &q) in run.iter().enumerate() {
                let cell = cell_of(q);
                let slot = places.slot[cell as usize];
                if slot == u32::MAX {
                    return None;
                }
                group_rank += self.choose(slot - taken.within_below(places, cell), j + 1);
            }
            rank += group_rank * mult;
            mult = mult.wrapping_mul(info.radices[g]);
            taken.add_group(g, run.iter().map(|&q| cell_of(q)), false);
            i += k;
        }
        let to_move = p.to_move();
        if info.sides >> to_move & 1 == 0 {
            return None;
        }
        Some((tier, (rank << self.side_shift) + to_move as u64))
    }

    /// The tier of the count vector with code `code`, `hint`'s if it met that
    /// code last.
    #[inline]
    pub(super) fn tier_of_code_hinted(&self, code: u64, hint: &mut TierHint) -> Option<usize> {
        match *hint {
            TierHint(Some((known, tier))) if known == code => Some(tier),
            _ => {
                let tier = self.tier_of_code.get(code)?;
                *hint = TierHint(Some((code, tier)));
                Some(tier)
            }
        }
    }

    /// The rank within tier `info` of the pieces `packed` (sorted), `counts` of
    /// each group, on a board of at most 64 cells with at most [`MASK_GROUPS`]
    /// groups: [`Self::locate_hinted`]'s ranks, with the cells taken so far as
    /// 64-bit sets (all of them in a register, each group's in a small array
    /// read only for a group that not every earlier group is within), no
    /// [`Taken`] to set up. `None` where a piece stands off its group's places
    /// or the royal pair has no rank.
    ///
    /// Why: every parent of a retrograde solve is located, and [`Taken`]'s
    /// 128-bit sets and list, set up and stored to for each, were most of the
    /// locating of Dobutsu's parents.
    #[inline]
    pub(super) fn rank_small(&self, packed: &[u32], counts: &[u8], info: &TierInfo) -> Option<u64> {
        debug_assert!(self.cells <= 64 && counts.len() <= MASK_GROUPS);
        let cells = self.cells as usize;
        let mut masks = [0u64; MASK_GROUPS];
        let mut all = 0u64;
        let (mut rank, mut mult) = (0u64, 1u64);
        let mut i = 0;
        for (g, &count) in counts.iter().enumerate() {
            let run = &packed[i..i + count as usize];
            i += count as usize;
            if let Some(pair) = &self.royal_pair {
                if g == pair.first {
                    let (pair_rank, x, y) = pair.digit(packed, counts)?;
                    rank += pair_rank * mult;
                    mult = mult.wrapping_mul(info.radices[g]);
                    masks[g] = 1 << x;
                    masks[pair.second] = 1 << y;
                    all |= 1 << x | 1 << y;
                    continue;
                }
                if g == pair.second {
                    continue;
                }
            }
            let places = &self.places[g];
            let taken = places.taken_small(&masks, all);
            let slots = &self.slot_of[g * cells..(g + 1) * cells];
            let (mut group_rank, mut mask) = (0u64, 0u64);
            for (j, &q) in run.iter().enumerate() {
                let cell = cell_of(q);
                let slot = slots[cell as usize];
                if slot == u32::MAX {
                    return None;
                }
                let below = (taken & ((1u64 << cell) - 1)).count_ones();
                group_rank += self.choose(slot - below, j + 1);
                mask |= 1 << cell;
            }
            rank += group_rank * mult;
            mult = mult.wrapping_mul(info.radices[g]);
            masks[g] = mask;
            all |= mask;
        }
        Some(rank)
    }

    /// A position's placement ranked group by group, for [`Self::moved_index`]:
    /// `None` where [`Self::locate_hinted`] would not rank it by
    /// [`Self::rank_small`] (more than 64 cells or [`MASK_GROUPS`] groups, or a
    /// few pieces without hands, which [`Self::locate_few`] ranks).
    #[inline]
    pub(crate) fn group_ranks<const N: usize>(&self, p: &RulesPosition<N>, hint: &mut TierHint) -> Option<GroupRanks> {
        if self.cells > 64 || self.groups > MASK_GROUPS || self.uses_few(p) {
            return None;
        }
        let mut masks = [0u64; MASK_GROUPS];
        for &q in p.packed() {
            masks[group_of(q)] |= 1 << cell_of(q);
        }
        let mut hands = [0u8; MAX_HAND_SLOTS];
        for (slot, hand) in hands[..self.slots].iter_mut().enumerate() {
            *hand = p.in_hand(slot);
        }
        Some(self.group_ranks_of_sets(&masks, &hands[..self.slots], hint))
    }

    /// The tier of the counts of the groups on `masks` and of the hands
    /// `hands`, `None` where a count passes its limit (its code would alias
    /// another vector's) or no tier holds them.
    #[inline]
    pub(super) fn tier_of_sets(&self, masks: &[u64; MASK_GROUPS], hands: &[u8], hint: &mut TierHint) -> Option<usize> {
        let groups = self.groups;
        let mut code = 0u64;
        for (g, mask) in masks[..groups].iter().enumerate() {
            let count = mask.count_ones() as u8;
            if count > self.limits[g] {
                return None;
            }
            code = code.wrapping_add(count as u64 * self.strides[g]);
        }
        for (slot, &hand) in hands.iter().enumerate() {
            if hand > self.limits[groups + slot] {
                return None;
            }
            code = code.wrapping_add(hand as u64 * self.strides[groups + slot]);
        }
        self.tier_of_code_hinted(code, hint)
    }

    /// [`Self::group_ranks`] of the placement whose groups stand on `masks`
    /// (`masks[g]`: group g's cells) with the hand counts `hands` (by slot),
    /// on a board of at most 64 cells with at most [`MASK_GROUPS`] groups
    /// ([`Self::unranks_to_sets`]).
    #[inline]
    pub(crate) fn group_ranks_of_sets(
        &self,
        masks: &[u64; MASK_GROUPS],
        hands: &[u8],
        hint: &mut TierHint,
    ) -> GroupRanks {
        debug_assert!(self.cells <= 64 && self.groups <= MASK_GROUPS && hands.len() == self.slots);
        let groups = self.groups;
        let cells = self.cells as usize;
        let mut ranks = GroupRanks { masks: *masks, ..GroupRanks::default() };
        let Some(tier) = self.tier_of_sets(masks, hands, hint) else {
            // No tier holds the counts, which a quiet move keeps: no such parent
            // has an index.
            return ranks;
        };
        let info = &self.tiers[tier];
        ranks.tier = Some(tier as u32);
        ranks.offset = info.offset;
        ranks.sides = info.sides;
        let mut mult = 1u64;
        for (g, &radix) in info.radices[..groups].iter().enumerate() {
            ranks.mults[g] = mult;
            mult = mult.wrapping_mul(radix);
            if masks[g] != 0 {
                ranks.present |= 1 << g;
            }
        }
        // The cells of the groups ranked so far (the pair's second with its
        // first): what a group all earlier groups lie within counts as taken.
        let mut all = 0u64;
        for g in 0..groups {
            ranks.taken[g] = self.places[g].taken_small(&ranks.masks, all);
            match &self.royal_pair {
                Some(pair) if g == pair.first => all |= ranks.masks[g] | ranks.masks[pair.second],
                Some(pair) if g == pair.second => {}
                _ => all |= ranks.masks[g],
            }
            let digit = match &self.royal_pair {
                Some(pair) if g == pair.first => {
                    pair.rank_at(ranks.masks[g].trailing_zeros(), ranks.masks[pair.second].trailing_zeros())
                }
                Some(pair) if g == pair.second => Some(0),
                _ => self.digit_of(g, ranks.masks[g], ranks.taken[g], cells),
            };
            match digit {
                Some(digit) => {
                    ranks.digits[g] = digit;
                    ranks.rank = ranks.rank.wrapping_add(digit.wrapping_mul(ranks.mults[g]));
                }
                None => ranks.unranked |= 1 << g,
            }
        }
        ranks
    }

    /// The whole-game index of the placement whose groups stand on `masks`
    /// with the hand counts `hands`, `to_move` to move, where
    /// [`Self::unranks_to_sets`]: [`Self::locate_hinted`]'s, `None` where it has
    /// none. [`Self::group_ranks_of_sets`] without keeping the ranks.
    ///
    /// Why: every parent that changes the counts (a capture, a drop, a
    /// promotion undone) is ranked once, and keeping each group's digit,
    /// multiplier and taken cells cost more than the ranking.
    #[inline]
    pub(crate) fn index_of_sets(
        &self,
        masks: &[u64; MASK_GROUPS],
        hands: &[u8],
        to_move: usize,
        hint: &mut TierHint,
    ) -> Option<u64> {
        debug_assert!(self.cells <= 64 && self.groups <= MASK_GROUPS && hands.len() == self.slots);
        let groups = self.groups;
        let tier = self.tier_of_sets(masks, hands, hint)?;
        let info = &self.tiers[tier];
        if info.sides >> to_move & 1 == 0 {
            return None;
        }
        // As `group_ranks_of_sets`: a group's taken cells are those of the
        // groups ranked before it (the pair's second with its first).
        let (mut rank, mut mult, mut all) = (0u64, 1u64, 0u64);
        for (g, &mask) in masks[..groups].iter().enumerate() {
            let digit = match &self.royal_pair {
                Some(pair) if g == pair.first => {
                    let second = masks[pair.second];
                    all |= mask | second;
                    pair.rank_at(mask.trailing_zeros(), second.trailing_zeros())?
                }
                Some(pair) if g == pair.second => 0,
                _ if mask == 0 => 0,
                _ => {
                    let taken = self.places[g].taken_small(masks, all);
                    all |= mask;
                    self.digit_of(g, mask, taken, self.cells as usize)?
                }
            };
            rank = rank.wrapping_add(digit.wrapping_mul(mult));
            mult = mult.wrapping_mul(info.radices[g]);
        }
        Some(info.offset + (rank << self.side_shift) + to_move as u64)
    }

    /// The whole-game index of the position `ranks` ranks with `to_move` to
    /// move: what [`Self::locate_hinted`] gives it, `None` where no tier holds
    /// it, a group has no digit or the tier lacks that side to move.
    #[inline]
    pub(crate) fn ranked_index(&self, ranks: &GroupRanks, to_move: usize) -> Option<u64> {
        ranks.tier?;
        (ranks.unranked == 0 && ranks.sides >> to_move & 1 == 1)
            .then(|| ranks.offset + (ranks.rank << self.side_shift) + to_move as u64)
    }

    /// The index of the position `ranks` ranks ([`Self::group_ranks`]) with the
    /// piece of group `g` on `to` moved to `from` (a quiet move run backwards:
    /// the counts and the hands stay) and `to_move` to move: what
    /// [`Self::locate_hinted`] gives that position, `None` where no tier holds
    /// it. Only group `g`'s digit changes, and the digits of the later groups
    /// that count its cells as taken ([`Self::taken_by`]).
    ///
    /// Why: a retrograde solve locates every parent of a position, and most of a
    /// game with hands' parents are quiet: ranking each from scratch ranked again
    /// every group the move left alone.
    #[inline]
    pub(crate) fn moved_index(&self, ranks: &GroupRanks, g: usize, from: u32, to: u32, to_move: usize) -> Option<u64> {
        ranks.tier?;
        if ranks.sides >> to_move & 1 == 0 {
            return None;
        }
        let cells = self.cells as usize;
        let moved = 1u64 << from | 1u64 << to;
        let mut unranked = ranks.unranked;
        let mut rank = ranks.rank;
        let mut change = |h: usize, digit: Option<u64>, unranked: &mut u32| {
            if ranks.unranked >> h & 1 == 0 {
                rank = rank.wrapping_sub(ranks.digits[h].wrapping_mul(ranks.mults[h]));
            }
            match digit {
                Some(digit) => {
                    *unranked &= !(1 << h);
                    rank = rank.wrapping_add(digit.wrapping_mul(ranks.mults[h]));
                }
                None => *unranked |= 1 << h,
            }
        };
        match &self.royal_pair {
            Some(pair) if g == pair.first || g == pair.second => {
                let cell = |h: usize| {
                    if h == g {
                        from
                    } else {
                        ranks.masks[h].trailing_zeros()
                    }
                };
                change(pair.first, pair.rank_at(cell(pair.first), cell(pair.second)), &mut unranked);
            }
            _ => change(g, self.digit_of(g, ranks.masks[g] ^ moved, ranks.taken[g], cells), &mut unranked),
        }
        // A later group's piece counts one taken cell more or fewer below it
        // only if it stands between the two cells (neither of which it holds).
        let (low, high) = (from.min(to), from.max(to));
        let between = ((1u64 << high) - 1) & !((2u64 << low) - 1);
        let mut later = self.taken_by[g] & ranks.present as u64;
        while later != 0 {
            let h = later.trailing_zeros() as usize;
            later &= later - 1;
            if ranks.masks[h] & between != 0 {
                change(h, self.digit_of(h, ranks.masks[h], ranks.taken[h] ^ moved, cells), &mut unranked);
            }
        }
        (unranked == 0).then(|| ranks.offset + (rank << self.side_shift) + to_move as u64)
    }

    /// Group `g`'s digit with its pieces on the cells `mask`, those of `taken`
    /// not free: [`Self::rank_small`]'s, `None` where a piece stands off the
    /// group's places.
    #[inline]
    pub(super) fn digit_of(&self, g: usize, mut mask: u64, taken: u64, cells: usize) -> Option<u64> {
        let slots = &self.slot_of[g * cells..(g + 1) * cells];
        let mut digit = 0u64;
        let mut j = 0;
        while mask != 0 {
            let cell = mask.trailing_zeros();
            mask &= mask - 1;
            let slot = slots[cell as usize];
            if slot == u32::MAX {
                return None;
            }
            // More taken cells below than places: an earlier group's piece
            // stands off its places, and that group has no digit either.
            let below = (taken & ((1u64 << cell) - 1)).count_ones();
            j += 1;
            digit += self.choose(slot.checked_sub(below)?, j);
        }
        Some(digit)
    }

    /// Does [`Self::locate_hinted`] rank `p` by [`Self::locate_few`]?
    #[inline]
    pub(super) fn uses_few<const N: usize>(&self, p: &RulesPosition<N>) -> bool {
        self.slots == 0 && self.groups <= 64 && p.piece_count() <= FEW_PIECES && self.royal_pair.is_none()
    }

    /// [`Self::locate`] of a position of at most [`FEW_PIECES`] pieces in a game
    /// without hands (of at most 64 groups): the same ranks, in one pass over the
    /// pieces with nothing to set up. Each piece's rank among its group's free
    /// places is its slot less the pieces of earlier groups within the group's
    /// places on cells below it, counted on the list itself (a few pieces: no
    /// [`Taken`] to build); the count vector's code is summed on the way.
    ///
    /// Why: every parent of a retrograde solve is located, and with two pieces
    /// the setting up of the general walk (the count vector, [`Taken`]) was most of
    /// it.
    #[inline]
    pub(super) fn locate_few<const N: usize>(&self, p: &RulesPosition<N>) -> Option<(usize, u64)> {
        self.locate_pieces(p.packed(), p.to_move())
    }

    /// (tier, index within the tier) of the position of the packed pieces
    /// `packed` (sorted, as a position keeps them; at most [`FEW_PIECES`]) with
    /// `to_move` to move, in a game without hands: [`Self::locate_few`] of a
    /// list that need not be in a position.
    #[inline]
    pub(crate) fn locate_pieces(&self, packed: &[u32], to_move: usize) -> Option<(usize, u64)> {
        debug_assert!(self.slots == 0 && packed.len() <= FEW_PIECES);
        // First the tier: the code of the count vector, each group's run of pieces
        // checked against its limit (a larger count would alias another code).
        let mut code = 0u64;
        let mut run = 0u8;
        let mut last = usize::MAX;
        for &q in packed {
            let g = group_of(q);
            run = if g == last { run + 1 } else { 1 };
            last = g;
            if run > self.limits[g] {
                return None;
            }
            code += self.strides[g];
        }
        let tier = self.tier_of_code.get(code)?;
        if self.tiers[tier].sides >> to_move & 1 == 0 {
            return None;
        }
        // Then the ranks, each group's combined with the radices of the groups
        // before it (a group without pieces has radix C(free, 0) = 1).
        let (mut rank, mut mult) = (0u64, 1u64);
        let mut start = 0;
        while start < packed.len() {
            let g = group_of(packed[start]);
            let end = start + packed[start..].iter().take_while(|&&q| group_of(q) == g).count();
            rank += self.group_rank(packed, start..end)? * mult;
            mult = mult.wrapping_mul(self.radix(tier, g));
            start = end;
        }
        Some((tier, (rank << self.side_shift) + to_move as u64))
    }

    /// The colex rank among its group's free places of a group's run of pieces
    /// `packed[run]` (sorted), the pieces of earlier groups being `packed[..run.start]`
    /// (module docs: each piece's slot less the pieces of earlier groups within
    /// the group's places on cells below it); `None` when a piece stands off the
    /// group's places. Games without hands, of at most 64 groups.
    // Always inlined: it runs for every parent of a step game's retrograde solve,
    // where the call cost as much as the ranking of a group of one piece.
    #[inline(always)]
    pub(crate) fn group_rank(&self, packed: &[u32], run: std::ops::Range<usize>) -> Option<u64> {
        let g = group_of(packed[run.start]);
        let within = self.within_of[g];
        let slots = &self.slot_of[g * self.cells as usize..];
        let mut rank = 0;
        for (j, &q) in packed[run.clone()].iter().enumerate() {
            let cell = cell_of(q);
            let slot = slots[cell as usize];
            if slot == u32::MAX {
                return None;
            }
            let below = if within == 0 {
                0
            } else {
                packed[..run.start].iter().filter(|&&e| within >> group_of(e) & 1 == 1 && cell_of(e) < cell).count()
                    as u32
            };
            // C(n, 1) = n: the first piece needs no table.
            rank += if j == 0 { (slot - below) as u64 } else { self.choose(slot - below, j + 1) };
        }
        Some(rank)
    }

    /// The whole-game index of a position.
    pub fn index<const N: usize>(&self, p: &RulesPosition<N>) -> Option<u64> {
        self.locate(p).map(|(t, i)| self.tiers[t].offset + i)
    }
}
