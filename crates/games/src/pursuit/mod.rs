//! What the two pursuit games (Queen's Case, chase) share: two tokens on the cells
//! of a graph, and a dense index of (first token, second token, side to move).

pub mod bit_rows;

pub use bit_rows::BitwiseOptions;

/// Index of a pursuit position over `cells` cells:
///
/// ```text
///   index = (first * cells + second) * 2 + side
///            \_____ pair of cells ____/   \_ 0: first token's side to move
///                                            1: second token's side to move
/// ```
/// Side-minor order keeps the parents of a position (the other side's token moved)
/// close in memory for one of the two sides. Decoding divides by `cells` with a
/// precomputed reciprocal (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019): exact for every 32-bit dividend, so the pair number must
/// fit in 32 bits (`cells` ≤ 65,535).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairIndex {
    cells: u32,
    /// ⌈2^64 / cells⌉.
    reciprocal: u64,
}

/// A decoded pursuit index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    /// Cell of the token whose side moves first in the game.
    pub first: u32,
    /// Cell of the other token.
    pub second: u32,
    /// True when the second token's side is to move.
    pub second_to_move: bool,
}

impl PairIndex {
    /// The largest number of cells the index supports.
    pub const MAX_CELLS: u32 = 65_535;

    /// An index over `cells` cells, 2 ≤ cells ≤ [`Self::MAX_CELLS`].
    pub fn new(cells: u32) -> Self {
        assert!((2..=Self::MAX_CELLS).contains(&cells), "pair index over {cells} cells");
        PairIndex { cells, reciprocal: u64::MAX / cells as u64 + 1 }
    }

    /// Number of indices: 2 · cells².
    #[inline]
    pub fn size(&self) -> u64 {
        2 * self.cells as u64 * self.cells as u64
    }

    /// The index of a pair.
    #[inline]
    pub fn index(&self, pair: Pair) -> u64 {
        ((pair.first as u64 * self.cells as u64 + pair.second as u64) << 1) | pair.second_to_move as u64
    }

    /// The pair at an index (< [`Self::size`]).
    #[inline]
    pub fn pair(&self, index: u64) -> Pair {
        let pair_no = (index >> 1) as u32;
        let first = ((self.reciprocal as u128 * pair_no as u128) >> 64) as u32;
        Pair { first, second: pair_no - first * self.cells, second_to_move: index & 1 == 1 }
    }
}

/// The cells each cell can move to, as flat arrays: `targets[offsets[c]..offsets[c+1]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjacency {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl Adjacency {
    /// Builds from one target list per cell, in order.
    pub fn from_lists(lists: impl IntoIterator<Item = impl IntoIterator<Item = u32>>) -> Self {
        let mut offsets = vec![0];
        let mut targets = Vec::new();
        for list in lists {
            targets.extend(list);
            offsets.push(targets.len() as u32);
        }
        Adjacency { offsets, targets }
    }

    /// The targets of `cell`.
    #[inline]
    pub fn of(&self, cell: u32) -> &[u32] {
        &self.targets[self.offsets[cell as usize] as usize..self.offsets[cell as usize + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn decoding_inverts_encoding(cells in 2u32..=65_535, a in any::<u32>(), b in any::<u32>(), side: bool) {
            let ix = PairIndex::new(cells);
            let pair = Pair { first: a % cells, second: b % cells, second_to_move: side };
            let i = ix.index(pair);
            prop_assert!(i < ix.size());
            prop_assert_eq!(ix.pair(i), pair);
        }
    }

    #[test]
    fn largest_pairs_decode() {
        for cells in [2, 3, 7, 900, 20_000, 65_535] {
            let ix = PairIndex::new(cells);
            let last = Pair { first: cells - 1, second: cells - 1, second_to_move: true };
            assert_eq!(ix.pair(ix.index(last)), last);
            assert_eq!(ix.index(last), ix.size() - 1);
        }
    }
}
