//! Sets of a board's empty cells as bit masks: bit i is empty cell i.
//!
//! Two widths: `u128` for boards of at most 128 empty cells (one pair of machine
//! words, the fast path: every open board up to 11×11), and [`Mask256`] for at most
//! 256. The game, the longest paths and the notation are written once over
//! [`Mask`]; the front ends pick the width from the board ([`super::with_game`]).
//!
//! Bits at or past the board's number of empty cells are never set in a mask the
//! game makes, except in complements (`!dark`), which are only ever intersected with
//! masks of empty cells.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// A set of empty cells, of a fixed capacity.
pub trait Mask:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// How many cells a mask can hold.
    const CELLS: usize;
    /// No cell.
    const EMPTY: Self;
    /// The mask as 8-byte words, for keys of hash maps whose entries should not be
    /// padded to a 16-byte alignment.
    type Words: Copy + Eq + Hash + Debug + Send + Sync;
    /// The cells of a set, lowest first.
    type Ones: Iterator<Item = usize>;

    /// The set of cell `i` alone (`i < CELLS`).
    fn cell(i: usize) -> Self;
    /// Cells `0..n` (`n ≤ CELLS`).
    fn first(n: usize) -> Self;
    /// Whether cell `i` is in the set.
    fn contains(self, i: usize) -> bool;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// How many cells the set has.
    fn len(self) -> u32;
    /// The lowest cell of a set that is not empty.
    fn lowest(self) -> usize;
    /// The set without its lowest cell.
    fn without_lowest(self) -> Self;
    /// Byte `j` of the mask: cells `8j..8j + 8`.
    fn byte(self, j: usize) -> u8;
    /// The mask as words.
    fn words(self) -> Self::Words;
    /// The mask folded to 64 bits, for hashing.
    fn fold(self) -> u64;

    /// The cells of the set, lowest first.
    fn ones(self) -> Self::Ones;

    /// The set without cell `i`.
    #[inline]
    fn without(self, i: usize) -> Self {
        self & !Self::cell(i)
    }
}

/// The cells of a `u128` set, lowest first ([`Mask::ones`]).
#[derive(Clone, Copy, Debug)]
pub struct Ones128(u128);

impl Iterator for Ones128 {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// The cells of a [`Mask256`], lowest first ([`Mask::ones`]): word by word, so
/// that each step looks at one word.
#[derive(Clone, Copy, Debug)]
pub struct Ones256 {
    words: [u64; 4],
    /// The word being walked; the words before it are done.
    at: usize,
}

impl Iterator for Ones256 {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.words[self.at] == 0 {
            if self.at == 3 {
                return None;
            }
            self.at += 1;
        }
        let w = &mut self.words[self.at];
        let i = 64 * self.at + w.trailing_zeros() as usize;
        *w &= *w - 1;
        Some(i)
    }
}

impl Mask for u128 {
    const CELLS: usize = 128;
    const EMPTY: Self = 0;
    type Words = [u64; 2];
    type Ones = Ones128;

    #[inline]
    fn ones(self) -> Ones128 {
        Ones128(self)
    }

    #[inline]
    fn cell(i: usize) -> Self {
        1 << i
    }

    #[inline]
    fn first(n: usize) -> Self {
        if n >= 128 {
            u128::MAX
        } else {
            (1 << n) - 1
        }
    }

    #[inline]
    fn contains(self, i: usize) -> bool {
        self >> i & 1 == 1
    }

    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }

    #[inline]
    fn len(self) -> u32 {
        self.count_ones()
    }

    #[inline]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }

    #[inline]
    fn without_lowest(self) -> Self {
        self & (self - 1)
    }

    #[inline]
    fn byte(self, j: usize) -> u8 {
        (self >> (8 * j)) as u8
    }

    #[inline]
    fn words(self) -> [u64; 2] {
        [self as u64, (self >> 64) as u64]
    }

    #[inline]
    fn fold(self) -> u64 {
        (self as u64) ^ ((self >> 64) as u64).rotate_left(17)
    }
}

/// A set of up to 256 cells: four 64-bit words, cell i in word i / 64.
///
/// ```text
///   word:   0          1           2            3
///   cells:  0..64      64..128     128..192     192..256
/// ```
///
/// The order (derived) compares word 0 first: a total order, which is all the
/// symmetry folding needs (the smallest image is the key).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Mask256(pub [u64; 4]);

impl BitAnd for Mask256 {
    type Output = Self;
    #[inline]
    fn bitand(self, o: Self) -> Self {
        Mask256(std::array::from_fn(|w| self.0[w] & o.0[w]))
    }
}

impl BitOr for Mask256 {
    type Output = Self;
    #[inline]
    fn bitor(self, o: Self) -> Self {
        Mask256(std::array::from_fn(|w| self.0[w] | o.0[w]))
    }
}

impl Not for Mask256 {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Mask256(self.0.map(|w| !w))
    }
}

impl BitAndAssign for Mask256 {
    #[inline]
    fn bitand_assign(&mut self, o: Self) {
        *self = *self & o;
    }
}

impl BitOrAssign for Mask256 {
    #[inline]
    fn bitor_assign(&mut self, o: Self) {
        *self = *self | o;
    }
}

impl Mask for Mask256 {
    const CELLS: usize = 256;
    const EMPTY: Self = Mask256([0; 4]);
    type Words = [u64; 4];
    type Ones = Ones256;

    #[inline]
    fn ones(self) -> Ones256 {
        Ones256 { words: self.0, at: 0 }
    }

    #[inline]
    fn cell(i: usize) -> Self {
        let mut m = [0; 4];
        m[i / 64] = 1 << (i % 64);
        Mask256(m)
    }

    #[inline]
    fn first(n: usize) -> Self {
        Mask256(std::array::from_fn(|w| match n.saturating_sub(64 * w) {
            0 => 0,
            k if k >= 64 => u64::MAX,
            k => (1 << k) - 1,
        }))
    }

    #[inline]
    fn contains(self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }

    #[inline]
    fn len(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    fn lowest(self) -> usize {
        let w = self.0.iter().position(|&w| w != 0).unwrap_or(3);
        64 * w + self.0[w].trailing_zeros() as usize
    }

    #[inline]
    fn without_lowest(self) -> Self {
        let mut m = self.0;
        if let Some(w) = m.iter_mut().find(|w| **w != 0) {
            *w &= *w - 1;
        }
        Mask256(m)
    }

    #[inline]
    fn byte(self, j: usize) -> u8 {
        (self.0[j / 8] >> (8 * (j % 8))) as u8
    }

    #[inline]
    fn words(self) -> [u64; 4] {
        self.0
    }

    #[inline]
    fn fold(self) -> u64 {
        self.0[0] ^ self.0[1].rotate_left(17) ^ self.0[2].rotate_left(31) ^ self.0[3].rotate_left(47)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// A set as a sorted list of cells, the obviously correct model.
    fn model<M: Mask>(m: M) -> Vec<usize> {
        (0..M::CELLS).filter(|&i| m.contains(i)).collect()
    }

    fn random<M: Mask>(rng: &mut SplitMix64, density: u64) -> M {
        (0..M::CELLS).filter(|_| rng.chance(density, 10)).fold(M::EMPTY, |m, i| m | M::cell(i))
    }

    fn check<M: Mask>(seed: u64) {
        let mut rng = SplitMix64::new(seed);
        for n in 0..=M::CELLS {
            assert_eq!(model(M::first(n)), (0..n).collect::<Vec<_>>());
        }
        for _ in 0..500 {
            let density = rng.below(11);
            let (a, b): (M, M) = (random(&mut rng, density), random(&mut rng, density));
            let (ma, mb) = (model(a), model(b));
            assert_eq!(a.ones().collect::<Vec<_>>(), ma);
            assert_eq!(a.len() as usize, ma.len());
            assert_eq!(a.is_empty(), ma.is_empty());
            if let Some(&low) = ma.first() {
                assert_eq!(a.lowest(), low);
                assert_eq!(model(a.without_lowest()), ma[1..]);
                assert_eq!(model(a.without(low)), ma[1..]);
            }
            assert_eq!(model(a & b), ma.iter().copied().filter(|i| mb.contains(i)).collect::<Vec<_>>());
            let mut union: Vec<usize> = ma.iter().chain(&mb).copied().collect();
            union.sort_unstable();
            union.dedup();
            assert_eq!(model(a | b), union);
            assert_eq!(model(!a), (0..M::CELLS).filter(|i| !ma.contains(i)).collect::<Vec<_>>());
            for j in 0..M::CELLS / 8 {
                let byte = (0..8).filter(|&k| a.contains(8 * j + k)).fold(0u8, |v, k| v | 1 << k);
                assert_eq!(a.byte(j), byte);
            }
            assert_eq!(a == b, ma == mb);
        }
    }

    /// Both widths agree with a list of cells on every operation.
    #[test]
    fn masks_are_sets_of_cells() {
        check::<u128>(1);
        check::<Mask256>(2);
    }
}
