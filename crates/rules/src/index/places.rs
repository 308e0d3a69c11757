//! Places: the cells a group's pieces may stand on, how they relate to earlier groups' places, and a placement ranked group by group.

use crate::compiled::tables::Tables;

/// Where a group's pieces may stand, and how it relates to earlier groups.
#[derive(Clone, Debug)]
pub(crate) struct Places {
    /// The cells, ascending.
    pub(super) cells: Vec<u32>,
    /// `slot[cell]`: the cell's place in `cells`, `u32::MAX` if it is not one.
    pub(super) slot: Vec<u32>,
    /// `cells` as a bit set, on boards of at most 128 cells.
    pub(super) mask: u128,
    /// `within[h]` for each earlier group h: all of h's places are among these.
    pub(super) within: Vec<bool>,
    /// `within` as a bit set of groups (bit h), for the first 64 groups.
    pub(super) within_mask: u64,
    /// Every earlier group is within: no index of this group is a hole.
    pub(super) all_within: bool,
    /// For a group between the two of a royal pair ([`RoyalPair`]): the second's
    /// places are among these, so its piece, placed with the first, takes one.
    pub(super) pair_within: Option<usize>,
}

impl Places {
    /// The places of the cells `list` (ascending) on a board of `cells` cells,
    /// related to the earlier groups' `earlier`.
    pub(super) fn of(list: Vec<u32>, cells: usize, earlier: &[Places]) -> Places {
        let mut slot = vec![u32::MAX; cells];
        for (i, &c) in list.iter().enumerate() {
            slot[c as usize] = i as u32;
        }
        let mask = if cells <= 128 { list.iter().fold(0u128, |m, &c| m | 1u128 << c) } else { 0 };
        let within: Vec<bool> =
            earlier.iter().map(|earlier| earlier.cells.iter().all(|&c| slot[c as usize] != u32::MAX)).collect();
        let all_within = within.iter().all(|&w| w);
        let within_mask = within.iter().take(64).enumerate().fold(0u64, |m, (h, &w)| m | (w as u64) << h);
        Places { cells: list, slot, mask, within, within_mask, all_within, pair_within: None }
    }

    /// The cells, ascending.
    pub(crate) fn cells(&self) -> &[u32] {
        &self.cells
    }

    /// `[cell]`: the cell's place among [`Self::cells`], `u32::MAX` if it is not one.
    pub(crate) fn slots(&self) -> &[u32] {
        &self.slot
    }

    /// The cells taken among these places on a board of at most 64 cells, from
    /// the cells of each earlier group `masks` (the royal pair's both set with
    /// its first) and of all of them, `all`: all of them where every earlier
    /// group is within, else those of the groups within.
    #[inline]
    pub(super) fn taken_small(&self, masks: &[u64; MASK_GROUPS], all: u64) -> u64 {
        if self.all_within {
            return all;
        }
        let mut taken = self.pair_within.map_or(0, |h| masks[h]);
        let mut within = self.within_mask;
        while within != 0 {
            taken |= masks[within.trailing_zeros() as usize];
            within &= within - 1;
        }
        taken
    }

    /// Are all of some earlier group's places among these (its pieces then always
    /// take some of this group's places)?
    pub(crate) fn holds_an_earlier_group(&self) -> bool {
        self.within.contains(&true)
    }
}

/// A placement ranked group by group ([`PlacementIndex::group_ranks`]), on a
/// board of at most 64 cells with at most [`MASK_GROUPS`] groups: what
/// [`PlacementIndex::moved_index`] needs to rank it again with one piece moved.
#[derive(Clone, Debug, Default)]
pub(crate) struct GroupRanks {
    /// The tier of its counts and hands, `None` if no tier holds them.
    pub(super) tier: Option<u32>,
    /// That tier's first index and sides to move.
    pub(super) offset: u64,
    pub(super) sides: u8,
    /// Σ `digits[g] · mults[g]` over the groups with a digit.
    pub(super) rank: u64,
    /// Each group's digit (the royal pair's at its first group, 0 at its second).
    pub(super) digits: [u64; MASK_GROUPS],
    /// Each group's multiplier in the tier: the product of earlier radices.
    pub(super) mults: [u64; MASK_GROUPS],
    /// Each group's cells.
    pub(super) masks: [u64; MASK_GROUPS],
    /// The cells counted as taken below each group's pieces
    /// ([`Places::taken_small`]).
    pub(super) taken: [u64; MASK_GROUPS],
    /// Groups with pieces (bit g).
    pub(super) present: u32,
    /// Groups without a digit (a piece off its places, a pair without a rank).
    pub(super) unranked: u32,
}

impl GroupRanks {
    /// Does a tier hold the counts and hands?
    #[inline]
    pub(crate) fn has_tier(&self) -> bool {
        self.tier.is_some()
    }
}

/// Each group's places: every cell but those where one of its pieces ends the
/// game the moment it stands there; then which earlier groups lie within.
pub(super) fn group_places(tables: &Tables, groups: usize, keep: impl Fn(usize, u32) -> bool) -> Vec<Places> {
    let cells = tables.board().cells() as u32;
    let mut out: Vec<Places> = Vec::with_capacity(groups);
    for g in 0..groups {
        let list: Vec<u32> = (0..cells).filter(|&c| !tables.endings().ends_on_arrival(g, c) && keep(g, c)).collect();
        let places = Places::of(list, cells as usize, &out);
        out.push(places);
    }
    out
}

/// The most pieces of a position [`PlacementIndex::locate_few`] ranks.
pub(crate) const FEW_PIECES: usize = 16;

/// The most groups whose cells [`Taken`] keeps as bit sets.
pub(crate) const MASK_GROUPS: usize = 16;

/// The cells earlier groups took, by group: how many of those within a group lie
/// below a cell, which free place has a given rank, whether a cell is taken. Bit
/// sets on boards of up to 128 cells (and up to [`MASK_GROUPS`] groups), a short
/// sorted list of room `N` beyond. Built for every index ranked or unranked: small
/// enough to be cheap to start.
pub(super) struct Taken<const N: usize> {
    pub(super) small: bool,
    /// Small boards: each group's cells, and all of them.
    pub(super) masks: [u128; MASK_GROUPS],
    pub(super) all: u128,
    /// Large boards: (cell, group), sorted by cell.
    pub(super) list: [(u32, u8); N],
    pub(super) len: usize,
}

impl<const N: usize> Taken<N> {
    pub(super) fn new(cells: u32, groups: usize) -> Self {
        let small = cells <= 128 && groups <= MASK_GROUPS;
        Taken { small, masks: [0; MASK_GROUPS], all: 0, list: [(0, 0); N], len: 0 }
    }

    /// The cells taken by groups within `places`, as a bit set (small boards).
    #[inline]
    pub(super) fn within_mask(&self, places: &Places) -> u128 {
        // Every group taken so far is within (the usual case): all of them.
        if places.all_within {
            return self.all;
        }
        let mut m = places.pair_within.map_or(0, |h| self.masks[h]);
        for (h, &w) in places.within.iter().enumerate() {
            if w {
                m |= self.masks[h];
            }
        }
        m
    }

    /// How many cells below `cell` groups within `places` took.
    #[inline]
    pub(super) fn within_below(&self, places: &Places, cell: u32) -> u32 {
        if self.small {
            (self.within_mask(places) & ((1u128 << cell) - 1)).count_ones()
        } else {
            let below = self.list[..self.len].partition_point(|&(c, _)| c < cell);
            if places.all_within {
                below as u32
            } else {
                self.list[..below].iter().filter(|&&(_, h)| places.within[h as usize]).count() as u32
            }
        }
    }

    /// Adds a group's cells; with `exclusive`, first checks that no earlier
    /// group holds one of them, and adds nothing (false) if one does.
    ///
    /// On small boards the group's cells are gathered in a register and stored
    /// whole: setting the 128-bit masks one bit at a time in memory wrote parts of
    /// them that the next read had to wait for (a store-forwarding stall, on every
    /// unranking of the pawns' sweeps).
    #[inline]
    pub(super) fn add_group(
        &mut self,
        group: usize,
        cells: impl Iterator<Item = u32> + Clone,
        exclusive: bool,
    ) -> bool {
        if self.small {
            let mask = cells.fold(0u128, |m, cell| m | 1u128 << cell);
            if exclusive && mask & self.all != 0 {
                return false;
            }
            self.masks[group] |= mask;
            self.all |= mask;
        } else {
            if exclusive && cells.clone().any(|cell| self.holds(cell)) {
                return false;
            }
            cells.for_each(|cell| self.add(group, cell));
        }
        true
    }

    /// [`Self::add_group`] for a bit set of cells (small boards only).
    #[inline]
    pub(super) fn add_mask(&mut self, group: usize, mask: u128, exclusive: bool) -> bool {
        debug_assert!(self.small);
        if exclusive && mask & self.all != 0 {
            return false;
        }
        self.masks[group] |= mask;
        self.all |= mask;
        true
    }

    /// Adds one cell (large boards: the sorted list).
    #[inline]
    pub(super) fn add(&mut self, group: usize, cell: u32) {
        if self.small {
            self.masks[group] |= 1u128 << cell;
            self.all |= 1u128 << cell;
        } else {
            // Insertion by hand: a few entries, where `copy_within` calls `memmove`.
            let mut at = self.len;
            while at > 0 && self.list[at - 1].0 > cell {
                self.list[at] = self.list[at - 1];
                at -= 1;
            }
            self.list[at] = (cell, group as u8);
            self.len += 1;
        }
    }

    /// Is `cell` taken by any earlier group?
    #[inline]
    pub(super) fn holds(&self, cell: u32) -> bool {
        if self.small {
            self.all >> cell & 1 == 1
        } else {
            self.list[..self.len].iter().any(|&(c, _)| c == cell)
        }
    }

    /// Calls `f` with the cell of each of `ranks` (increasing) among the places
    /// that groups within `places` left free.
    #[inline]
    pub(super) fn free_places(&self, places: &Places, ranks: &[u32], mut f: impl FnMut(u32)) {
        if self.small {
            let mut free = places.mask & !self.within_mask(places);
            // Walk the free places once, in order, picking the ranked ones.
            let mut at = 0u32;
            for &rank in ranks {
                while at < rank {
                    free &= free - 1;
                    at += 1;
                }
                f(free.trailing_zeros());
            }
        } else {
            for &rank in ranks {
                let mut slot = rank;
                for &(c, h) in &self.list[..self.len] {
                    if places.all_within || places.within[h as usize] {
                        if places.slot[c as usize] <= slot {
                            slot += 1;
                        } else {
                            break;
                        }
                    }
                }
                f(places.cells[slot as usize]);
            }
        }
    }
}
