//! The search's transposition table: bounds on scores by position, exact keys in
//! one word an entry.
//!
//! ```text
//!   entry (one u64, read and written whole, so threads never see half of one):
//!     63      62 ............ 16  15 ..... 8  7 ...... 0
//!     stored  key mod 2^47         upper (i8)  lower (i8)
//! ```
//!
//! A position's key is a number below 2^64 that no other position shares
//! ([`super::solver`] makes it). The entry for a key is at `key mod p`, p a prime
//! of at least 2^17, and stores `key mod 2^47`: since p and 2^47 are coprime, the
//! two remainders fix the key among all numbers below p · 2^47 ≥ 2^64 (the Chinese
//! remainder theorem). An entry whose stored remainder matches is the position's
//! own, never another's: a lookup is exact, not a hash with rare collisions.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bits of the key stored in an entry.
const KEY_BITS: u32 = 47;
/// The least number of entries: with [`KEY_BITS`], p · 2^47 ≥ 2^64.
const MIN_ENTRIES: usize = 1 << (64 - KEY_BITS);
const STORED: u64 = 1 << 63;

/// Lower and upper bounds on scores by position.
pub(crate) struct Table {
    entries: Vec<AtomicU64>,
}

impl Table {
    /// A table of about `entries` entries (8 bytes each): the least prime at or
    /// above it, and at least 2^17.
    pub(crate) fn new(entries: usize) -> Table {
        let size = next_prime(entries.max(MIN_ENTRIES));
        Table { entries: (0..size).map(|_| AtomicU64::new(0)).collect() }
    }

    /// Bytes the table takes.
    pub(crate) fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<AtomicU64>()
    }

    /// The bounds stored for `key`: (lower, upper).
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<(i32, i32)> {
        let entry = self.entries[(key % self.entries.len() as u64) as usize].load(Ordering::Relaxed);
        let wanted = STORED | (key & ((1 << KEY_BITS) - 1)) << 16;
        (entry & !0xffff == wanted).then_some((entry as u8 as i8 as i32, (entry >> 8) as u8 as i8 as i32))
    }

    /// Stores bounds for `key` (replacing what the entry held): the score is at
    /// least `lower` and at most `upper`, both within an i8.
    #[inline]
    pub(crate) fn put(&self, key: u64, lower: i32, upper: i32) {
        debug_assert!(i8::try_from(lower).is_ok() && i8::try_from(upper).is_ok());
        let entry = STORED
            | (key & ((1 << KEY_BITS) - 1)) << 16
            | u64::from(upper as i8 as u8) << 8
            | u64::from(lower as i8 as u8);
        self.entries[(key % self.entries.len() as u64) as usize].store(entry, Ordering::Relaxed);
    }
}

/// The least prime at or above `n` (trial division: n is at most a few billion).
fn next_prime(n: usize) -> usize {
    let is_prime = |k: usize| k >= 2 && (2..).take_while(|d| d * d <= k).all(|d| !k.is_multiple_of(d));
    (n..).find(|&k| is_prime(k)).expect("a prime")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_keep_bounds_and_tell_keys_apart() {
        let table = Table::new(1000);
        let size = table.entries.len() as u64;
        assert!(size >= MIN_ENTRIES as u64);
        assert_eq!(table.get(12345), None);
        table.put(12345, -40, 7);
        assert_eq!(table.get(12345), Some((-40, 7)));
        // The same slot, another key: not mistaken for it, and replaces it.
        let other = 12345 + size;
        assert_eq!(table.get(other), None);
        table.put(other, 3, 3);
        assert_eq!(table.get(12345), None);
        assert_eq!(table.get(other), Some((3, 3)));
        // Keys that agree in their low 47 bits but not their slot.
        let far = 12345 + (1u64 << KEY_BITS);
        assert_eq!(table.get(far), None);
        assert_eq!(table.get(u64::MAX), None);
        table.put(u64::MAX, -128, 127);
        assert_eq!(table.get(u64::MAX), Some((-128, 127)));
    }

    #[test]
    fn sizes_are_primes_large_enough_for_every_key() {
        assert_eq!(next_prime(1 << 17), 131_101);
        assert_eq!(next_prime(13), 13);
        // p · 2^47 ≥ 2^64 for the least table.
        assert!((next_prime(MIN_ENTRIES) as u128) << KEY_BITS >= 1u128 << 64);
    }
}
