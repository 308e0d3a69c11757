//! Two single pieces: where their positions lie in the index, and a placement of a tier of two single pieces unranked.

/// Where the positions of one piece of each of two groups lie in the index
/// ([`PlacementIndex::pair_layout`]): with the first group's piece on cell `a`
/// and the second's on `b ≠ a`, side `s` to move,
///
/// ```text
///   index = offset + (slot₀[a] + radix₀ · (slot₁[b] − [a < b])) · 2 + s
/// ```
/// (the module docs' formula for two groups of one piece: the second group's
/// free places are its places less the first piece's cell, which lies among
/// them); a cell without a slot (`u32::MAX`) is not a place of the group.
#[derive(Clone, Debug)]
pub(crate) struct PairLayout {
    /// The tier's number.
    pub(super) tier: usize,
    pub(super) offset: u64,
    pub(super) first_radix: u64,
    pub(super) first_slot: Vec<u32>,
    pub(super) second_slot: Vec<u32>,
}

impl PairLayout {
    /// The tier of the positions with both pieces.
    pub fn tier(&self) -> usize {
        self.tier
    }

    /// The index of the position, `None` when a piece is off its group's places
    /// or both stand on one cell.
    #[inline]
    pub fn index(&self, first: u32, second: u32, to_move: usize) -> Option<u64> {
        let (a, b) = (self.first_slot[first as usize], self.second_slot[second as usize]);
        if a == u32::MAX || b == u32::MAX || first == second {
            return None;
        }
        let b = b - (first < second) as u32;
        Some(self.offset + ((a as u64 + self.first_radix * b as u64) << 1) + to_move as u64)
    }
}

/// The two pieces of a placement in a tier of two single pieces
/// ([`PlacementIndex::unrank_pair`]); index 0 is the earlier group's.
///
/// | field | meaning |
/// |---|---|
/// | `groups[k]`, `cells[k]` | the k-th piece's group and cell |
/// | `ranks[k]` | its group's rank: the placement's rank in the tier is `ranks[0] + ranks[1] × radix` |
/// | `radix` | the first group's radix in the tier (the second group's multiplier) |
/// | `within` | the first group is within the second's places: the second's rank counts the first piece when it stands below |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SinglePair {
    pub(crate) groups: [usize; 2],
    pub(crate) cells: [u32; 2],
    pub(crate) ranks: [u64; 2],
    pub(crate) radix: u64,
    pub(crate) within: bool,
}
