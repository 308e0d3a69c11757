//! The search's transposition table: proven bounds on scores by position, keyed
//! by the position itself (a key is never mistaken for another).
//!
//! ```text
//!   key (u128): the groups' sets side by side, then the side to move
//!     bits g·cells .. (g+1)·cells   sets[g]        (g < groups)
//!     bit  groups·cells             to_move
//!   entry (24 bytes):  key as two u64 | lower i16 | upper i16 | best u16 | work u8
//!   best: the best move, from | to << 7 | promotes << 14 (module `solver`)
//!   bucket: entries 2i and 2i + 1; i from the top bits of key · an odd constant
//! ```
//! The shape keeps `groups · cells + 1 ≤ 127` (module `super`), so a key holds
//! the whole position and the top bit of a key is never set. An empty entry has
//! the bounds (0, 0), which no stored entry has: no score is 0 in a game without
//! ties, and a bound is a score. The first entry of a bucket keeps the result
//! that took the most work, the second the latest: deep results survive, and
//! the many small ones near the leaves still find a place.

use super::layout::Pos;
use super::set::CellSet;

/// A bound beyond every score: "no bound".
pub(crate) const NO_LOWER: i16 = i16::MIN;
pub(crate) const NO_UPPER: i16 = i16::MAX;
/// No best move stored.
pub(crate) const NO_MOVE: u16 = u16::MAX;

/// The mixing multiplier: odd, so the product is one-to-one on 128-bit words.
const MIX: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: [u64; 2],
    lower: i16,
    upper: i16,
    best: u16,
    work: u8,
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Known {
    pub(crate) lower: i32,
    pub(crate) upper: i32,
    pub(crate) best: u16,
}

/// Bounds on scores by position (module docs).
pub(crate) struct Table {
    entries: Vec<Entry>,
    /// log2 of the number of buckets.
    bits: u32,
}

impl Table {
    /// A table of about `entries` entries (24 bytes each), at least 2^10.
    pub(crate) fn new(entries: usize) -> Table {
        let entries = entries.max(1 << 10).next_power_of_two();
        Table { entries: vec![Entry::default(); entries], bits: (entries / 2).trailing_zeros() }
    }

    /// Bytes the table takes.
    pub(crate) fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// The key of `p` (module docs).
    #[inline]
    pub(crate) fn key<B: CellSet>(p: &Pos<B>, groups: usize, cells: usize) -> u128 {
        let mut key = 0u128;
        for g in (0..groups).rev() {
            key = key << cells | p.sets[g].wide();
        }
        key | (p.to_move as u128) << (groups * cells)
    }

    #[inline]
    fn bucket(&self, key: u128) -> usize {
        (key.wrapping_mul(MIX) >> (128 - self.bits)) as usize * 2
    }

    /// The bounds stored for `key`.
    #[inline]
    pub(crate) fn get(&self, key: u128) -> Option<Known> {
        let b = self.bucket(key);
        let words = [key as u64, (key >> 64) as u64];
        self.entries[b..b + 2].iter().find(|e| e.key == words && (e.lower, e.upper) != (0, 0)).map(|e| Known {
            lower: e.lower as i32,
            upper: e.upper as i32,
            best: e.best,
        })
    }

    /// Stores bounds for `key` (each a score, or `NO_LOWER` / `NO_UPPER`),
    /// found by a search that visited `work` positions, with its best move:
    /// with what the entry held for the same key (both proven), else in place
    /// of the lesser work or the latest.
    #[inline]
    pub(crate) fn put(&mut self, key: u128, lower: i32, upper: i32, best: u16, work: u64) {
        let b = self.bucket(key);
        let words = [key as u64, (key >> 64) as u64];
        let work = (64 - work.leading_zeros()) as u8;
        let (lower, upper) = (lower as i16, upper as i16);
        let pair = &mut self.entries[b..b + 2];
        if let Some(e) = pair.iter_mut().find(|e| e.key == words && (e.lower, e.upper) != (0, 0)) {
            e.lower = e.lower.max(lower);
            e.upper = e.upper.min(upper);
            e.best = best;
            e.work = e.work.max(work);
            return;
        }
        let entry = Entry { key: words, lower, upper, best, work };
        if work >= pair[0].work {
            pair[1] = pair[0];
            pair[0] = entry;
        } else {
            pair[1] = entry;
        }
    }
}
