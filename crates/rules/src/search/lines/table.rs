//! The search's transposition table: bounds on scores by position, exact keys in
//! one word an entry.
//!
//! ```text
//!   entry (one u64, read and written whole, so threads never see half of one):
//!     63      62 ............ 16  15 ..... 8  7 ...... 0
//!     stored  rest of the key      upper (i8)  lower (i8)
//! ```
//!
//! A position's key is a number below 2^64 that no other position shares
//! ([`super::solver`] makes it). It is mixed by a multiplication by an odd
//! constant, which is a one-to-one map of 64-bit words (an odd number has an
//! inverse modulo 2^64); of the mixed key, the top `b` bits pick one of the 2^b
//! entries and the other 64 − b bits (at most 47, as b ≥ 17) are stored. The two
//! parts together are the mixed key, hence the key: an entry whose stored bits
//! match is the position's own, never another's. A lookup is exact, not a hash
//! with rare collisions, and needs no division.

use std::sync::atomic::{AtomicU64, Ordering};

/// The most bits of a key an entry stores.
const KEY_BITS: u32 = 47;
/// The least number of entries: 2^(64 − 47), so that the rest fits.
const MIN_ENTRIES: usize = 1 << (64 - KEY_BITS);
const STORED: u64 = 1 << 63;
/// The mixing multiplier: odd (2^64 / φ, Fibonacci hashing).
const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// Lower and upper bounds on scores by position.
pub(crate) struct Table {
    entries: Vec<AtomicU64>,
    /// log2 of the number of entries.
    bits: u32,
}

impl Table {
    /// A table of `entries` entries (8 bytes each), rounded up to a power of two
    /// of at least 2^17.
    pub(crate) fn new(entries: usize) -> Table {
        let size = entries.max(MIN_ENTRIES).next_power_of_two();
        Table { entries: (0..size).map(|_| AtomicU64::new(0)).collect(), bits: size.trailing_zeros() }
    }

    /// The entry of `key`, and what it stores of it.
    #[inline]
    fn place(&self, key: u64) -> (usize, u64) {
        let mixed = key.wrapping_mul(MIX);
        ((mixed >> (64 - self.bits)) as usize, mixed & ((1 << (64 - self.bits)) - 1))
    }

    /// Bytes the table takes.
    pub(crate) fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<AtomicU64>()
    }

    /// The bounds stored for `key`: (lower, upper).
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<(i32, i32)> {
        let (slot, rest) = self.place(key);
        let entry = self.entries[slot].load(Ordering::Relaxed);
        (entry & !0xffff == STORED | rest << 16).then_some((entry as u8 as i8 as i32, (entry >> 8) as u8 as i8 as i32))
    }

    /// Stores bounds for `key` (replacing what the entry held): the score is at
    /// least `lower` and at most `upper`, both within an i8.
    #[inline]
    pub(crate) fn put(&self, key: u64, lower: i32, upper: i32) {
        debug_assert!(i8::try_from(lower).is_ok() && i8::try_from(upper).is_ok());
        let (slot, rest) = self.place(key);
        let entry = STORED | rest << 16 | u64::from(upper as i8 as u8) << 8 | u64::from(lower as i8 as u8);
        self.entries[slot].store(entry, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_keep_bounds_and_tell_keys_apart() {
        let table = Table::new(1000);
        assert_eq!(table.entries.len(), MIN_ENTRIES);
        assert_eq!(table.get(12345), None);
        table.put(12345, -40, 7);
        assert_eq!(table.get(12345), Some((-40, 7)));
        // Another key of the same entry: not mistaken for it, and replaces it.
        let (slot, _) = table.place(12345);
        let other = (0..u64::MAX).find(|&k| k != 12345 && table.place(k).0 == slot).unwrap();
        assert_eq!(table.get(other), None);
        table.put(other, 3, 3);
        assert_eq!(table.get(12345), None);
        assert_eq!(table.get(other), Some((3, 3)));
        assert_eq!(table.get(u64::MAX), None);
        table.put(u64::MAX, -128, 127);
        assert_eq!(table.get(u64::MAX), Some((-128, 127)));
        assert_eq!(table.get(0), None);
    }

    /// The entry and the stored rest together tell every key apart.
    #[test]
    fn the_place_and_the_rest_are_the_key() {
        let table = Table::new(1 << 20);
        assert_eq!(table.bits, 20);
        let keys: std::collections::BTreeSet<u64> =
            (0..200_000u64).chain((0..200_000).map(|k| u64::MAX - k)).chain((0..64).map(|b| 1 << b)).collect();
        let places: std::collections::HashSet<(usize, u64)> = keys.iter().map(|&k| table.place(k)).collect();
        assert_eq!(places.len(), keys.len());
        // The rest fits the entry's 47 bits.
        assert!(table.place(u64::MAX).1 < 1 << KEY_BITS);
    }
}
