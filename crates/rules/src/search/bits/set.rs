//! A set of cells as one machine word: `u64` for boards of at most 64 cells,
//! `u128` for at most 128. Cell `c` is bit `c` (the board's cell numbering:
//! playable cells in reading order, walls left out).

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A word of cell bits (module docs).
pub(crate) trait CellSet:
    Copy
    + Eq
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The set of one cell.
    fn cell(c: u32) -> Self;
    /// Does the set hold cell `c`?
    fn has(self, c: u32) -> bool;
    /// Is the set empty?
    fn is_empty(self) -> bool;
    /// The lowest cell of a set that is not empty.
    fn first(self) -> u32;
    /// The set without its lowest cell.
    fn without_first(self) -> Self;
    /// The number of cells.
    fn count(self) -> u32;
    /// The same bits in a `u128`.
    fn wide(self) -> u128;
}

/// The same bit operations on each width: one body, written once.
macro_rules! cell_set {
    ($($t:ty),*) => {$(
        impl CellSet for $t {
            #[inline]
            fn cell(c: u32) -> Self {
                1 << c
            }
            #[inline]
            fn has(self, c: u32) -> bool {
                self >> c & 1 == 1
            }
            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline]
            fn first(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn without_first(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn wide(self) -> u128 {
                self as u128
            }
        }
    )*};
}

cell_set!(u64, u128);

/// The cells of a set, lowest first.
#[inline]
pub(crate) fn cells<B: CellSet>(mut set: B) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if set.is_empty() {
            return None;
        }
        let c = set.first();
        set = set.without_first();
        Some(c)
    })
}
