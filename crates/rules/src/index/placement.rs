//! The index itself: what it holds, and what it tells of itself (sizes, tiers, folding, places).

use super::{folds::*, pair::*, places::*, royal::*, tiers::*};

/// The index.
#[derive(Clone, Debug)]
pub struct PlacementIndex {
    pub(super) cells: u32,
    /// Groups (the first entries of a count vector).
    pub(super) groups: usize,
    /// Hand slots (the last entries of a count vector: pieces in hand).
    pub(super) slots: usize,
    /// Each group's places (see the module docs).
    pub(super) places: Vec<Places>,
    pub(super) limits: Vec<u8>,
    /// The counts the index was made for: the limits, or in games with drops the
    /// floor (the counts of the position whose game it is).
    pub(super) given: Vec<u8>,
    /// Tiers can be solved in order (no move leads back to an earlier tier): false
    /// where pieces are both dropped and captured.
    pub(super) ordered: bool,
    /// Count vectors where a side has lost its royal pieces were left out.
    pub(super) royal_tiers_left_out: bool,
    /// The symmetries folded (module docs).
    pub(super) folding: Folding,
    /// The royal pieces ranked as a pair (module docs).
    pub(super) royal_pair: Option<RoyalPair>,
    /// 1 where the side to move is the low bit of an index within a tier (`rank ·
    /// 2 + side`), 0 where the tiers hold the first side only (`rank`).
    pub(super) side_shift: u32,
    pub(super) tiers: Vec<TierInfo>,
    /// Tier number by the mixed-radix code of its counts.
    pub(super) tier_of_code: TierLookup,
    /// `strides[g]`: what one piece of group g adds to the code of a count vector.
    pub(super) strides: Vec<u64>,
    /// `slot_of[g * cells + c]`: each group's [`Places::slots`] one after another
    /// (one load a piece, where a group's own table is a pointer away).
    pub(super) slot_of: Vec<u32>,
    /// `within_of[g]`: the earlier groups within group g's places, as a bit set
    /// (the first 64 groups).
    pub(super) within_of: Vec<u64>,
    /// `taken_by[g]`: the groups whose taken cells [`PlacementIndex::rank_small`]
    /// counts g's among (none for the royal pair's groups, whose digit is one
    /// table's): moving one of g's pieces may change their digits.
    pub(super) taken_by: Vec<u64>,
    /// `tier_radices[t * groups + g]`: each tier's `C_g`, one after another.
    pub(super) tier_radices: Vec<u64>,
    /// Each tier's first whole-game index, in tier order (a search through them
    /// reads one cache line, not one a tier).
    pub(super) offsets: Vec<u64>,
    /// `place_cells[g * cells + s]`: group g's place of slot `s` (each group's
    /// [`Places::cells`] one after another, padded to `cells`).
    pub(super) place_cells: Vec<u32>,
    /// Each tier's groups with a piece, as a bit set (the first 64 groups).
    pub(super) tier_present: Vec<u64>,
    /// `tier_magic[t * groups + g]`: the multiplier of a division by `C_g` in
    /// tier t ([`div_rem`]), 0 where `C_g` is below 2 or from 2^32 up.
    pub(super) tier_magic: Vec<u64>,
    /// No group has more than one piece, and [`Self::locates_pieces`] holds for
    /// every tier: [`Self::unrank_singles`] unranks.
    pub(super) singles: bool,
    /// `binomial[k * (cells + 1) + n]` = C(n, k), saturating, for k ≤ the largest
    /// limit: one flat table, one load a lookup.
    pub(super) binomial: Vec<u64>,
    /// Unranking tables: `combinations[t][rank]` is the combination of colex rank
    /// `rank` as a bit set of the ranks among the free cells, for each (free cells,
    /// pieces) with 2 to [`TABLE_PIECES`] pieces among at most 64 cells and at most
    /// [`TABLE_ENTRIES`] combinations. One load instead of a binary search a piece,
    /// whose dependent loads made unranking most of a small game's tier sweep.
    pub(super) combinations: Vec<Vec<u64>>,
    /// Unranking straight to cells: `cell_sets[t][rank]` is the cells of the
    /// combination of colex rank `rank` as a bit set, for a group with an
    /// unranking table whose free places are all its places (no earlier group
    /// within it has a piece in the tier), on boards of at most 128 cells. One
    /// load gives the group's cells, where the pawns' tier sweeps walked the free
    /// places for each rank.
    pub(super) cell_sets: Vec<Vec<u128>>,
    pub(super) size: u64,
}

impl PlacementIndex {
    /// Can every group stand on every cell (then no index is a hole, and the
    /// index holds every position, terminal ones too)?
    pub fn places_everywhere(&self) -> bool {
        self.places.iter().all(|p| p.cells.len() == self.cells as usize)
    }

    /// Does the index hold every ended position: every group stands everywhere
    /// ([`Self::places_everywhere`]) and no tier of a side without its royal
    /// pieces was left out?
    pub fn holds_every_ending(&self) -> bool {
        self.places_everywhere() && !self.royal_tiers_left_out && self.royal_pair.is_none()
    }

    /// The royal pieces ranked as a pair, if they are (module docs).
    pub(crate) fn royal_pair(&self) -> Option<&RoyalPair> {
        self.royal_pair.as_ref()
    }

    /// Can an entry name no position (two groups whose places differ, neither
    /// within the other, or a side to move a tier does not have)?
    pub fn has_holes(&self) -> bool {
        // A tier folded by the side swap holds one side, and has entries for it alone.
        let every_side = if self.side_shift == 1 { 3 } else { 1 };
        self.places.iter().any(|p| !p.all_within) || self.tiers.iter().any(|t| t.sides != every_side)
    }

    /// The most pieces of each group a position of the index has.
    pub fn limits(&self) -> &[u8] {
        &self.limits
    }

    /// The counts the index was made for: [`Self::limits`], or in games with drops
    /// the counts of the position the game was set up from (the floor), from which
    /// the tiers are those drops can reach. Variants store these.
    pub fn given(&self) -> &[u8] {
        &self.given
    }

    /// The most pieces a position of the index has.
    pub fn max_pieces(&self) -> usize {
        self.tiers.iter().map(|t| t.counts[..self.groups].iter().map(|&c| c as usize).sum::<usize>()).max().unwrap_or(0)
    }

    /// The hand slots: count vectors are the groups' counts on the board, then the
    /// pieces in each hand slot.
    pub fn hand_slots(&self) -> usize {
        self.slots
    }

    /// Can the tiers be solved one after another, each move staying in its tier or
    /// going to one listed earlier? Not where pieces are both dropped and captured
    /// (a drop and a capture lead back to the same counts): such games are solved
    /// whole.
    pub fn tiers_ordered(&self) -> bool {
        self.ordered
    }

    /// Positions in all tiers.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The tiers in solving order.
    pub fn tiers(&self) -> &[TierInfo] {
        &self.tiers
    }

    /// The tier holding a count vector, if it is one.
    pub fn tier_of(&self, counts: &[u8]) -> Option<usize> {
        if counts.len() != self.limits.len() || counts.iter().zip(&self.limits).any(|(c, l)| c > l) {
            return None;
        }
        self.tier_of_code.get(code(&self.limits, counts))
    }

    /// The layout of the tier of one piece of each of two groups, in a game of
    /// exactly two groups and no hands where the second group's places hold the
    /// first's (no index of the tier is a hole): what the bit-parallel solve of a
    /// pursuit needs to rank its positions without a position in hand.
    pub(crate) fn pair_layout(&self) -> Option<PairLayout> {
        if self.groups != 2
            || self.slots != 0
            || self.limits != [1, 1]
            || !self.places[1].within[0]
            || self.royal_pair.is_some()
        {
            return None;
        }
        let tier = self.tier_of(&[1, 1])?;
        let info = &self.tiers[tier];
        (info.sides == 3).then(|| PairLayout {
            tier,
            offset: info.offset,
            first_radix: info.radices[0],
            first_slot: self.places[0].slot.clone(),
            second_slot: self.places[1].slot.clone(),
        })
    }

    /// C(n, k), for k up to the largest limit (one load from a flat table).
    #[inline]
    pub(crate) fn choose(&self, n: u32, k: usize) -> u64 {
        self.binomial[k * (self.cells as usize + 1) + n as usize]
    }

    /// Each group's places, in group order.
    pub(crate) fn places(&self) -> &[Places] {
        &self.places
    }

    /// The cells of the combination of colex rank `rank` in cell table `table`
    /// ([`TierInfo::cell_table`]), as a bit set.
    #[inline]
    pub(crate) fn cell_set(&self, table: u32, rank: u64) -> u128 {
        self.cell_sets[table as usize][rank as usize]
    }

    /// The slot of `cell` among group `g`'s places, `u32::MAX` if it is not one.
    #[inline]
    pub(crate) fn slot(&self, g: usize, cell: u32) -> u32 {
        self.slot_of[g * self.cells as usize + cell as usize]
    }

    /// `C_g` of group `g` in tier `tier` (module docs).
    #[inline]
    pub(crate) fn radix(&self, tier: usize, g: usize) -> u64 {
        self.tier_radices[tier * self.groups + g]
    }

    /// The earlier groups within group `g`'s places, as a bit set of groups
    /// (games of at most 64 groups): moving one of their pieces changes group
    /// `g`'s rank.
    #[inline]
    pub(crate) fn groups_within(&self, g: usize) -> u64 {
        self.within_of[g]
    }

    /// The side to move at an index within a tier.
    #[inline]
    pub(crate) fn side_at(&self, index: u64) -> usize {
        (index & self.side_shift as u64) as usize
    }

    /// 1 where an index within a tier is `rank · 2 + side`, 0 where it is
    /// `rank` (the tiers hold one side to move: folded by the side swap).
    #[inline]
    pub(crate) fn side_shift(&self) -> u32 {
        self.side_shift
    }

    /// The symmetries folded (module docs, "Folded by symmetry").
    pub fn folding(&self) -> Folding {
        self.folding
    }

    /// The sides to move a tier's positions have (bit s: side s).
    #[inline]
    pub fn tier_sides(&self, tier: usize) -> u8 {
        self.tiers[tier].sides
    }

    /// Can [`Self::locate_pieces`] rank this index's positions of up to `pieces`
    /// pieces (no hands, at most 64 groups)?
    pub(crate) fn locates_pieces(&self, pieces: usize) -> bool {
        self.slots == 0 && self.groups <= 64 && pieces <= FEW_PIECES
    }

    /// The tier holding a whole-game index.
    #[inline]
    pub(crate) fn tier_at(&self, index: u64) -> usize {
        // A few tiers (the pursuits have one to four) are counted without a
        // branch: a binary search's branches follow the index, which a
        // retrograde solve takes at random.
        if self.offsets.len() <= 8 {
            return self.offsets.iter().map(|&offset| (offset <= index) as usize).sum::<usize>() - 1;
        }
        self.offsets.partition_point(|&offset| offset <= index) - 1
    }
}
