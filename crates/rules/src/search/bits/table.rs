//! The search's transposition table: proven bounds on scores by position, keyed
//! by the position itself (a key is never mistaken for another), shared by the
//! threads of one search.
//!
//! ```text
//!   key (u128): the groups' sets side by side, then the side to move
//!     bits g·cells .. (g+1)·cells   sets[g]        (g < groups)
//!     bit  groups·cells             to_move
//!   bucket (64 bytes, one cache line):
//!     word 0       sequence: odd while a thread writes the bucket
//!     words 1..4   entry 0: key low, key high, data
//!     words 4..7   entry 1: the same
//!     word 7       unused
//!   data: lower i16 | upper i16 << 16 | best u16 << 32 | work u8 << 48
//!   best: the best move, from | to << 7 | promotes << 14 (module `solver`)
//!   bucket index: the top bits of key · an odd constant
//! ```
//! The shape keeps `groups · cells + 1 ≤ 127` (module `super`), so a key holds
//! the whole position. An empty entry has the bounds (0, 0), which no stored
//! entry has: no score is 0 in a game without ties, and a bound is a score. The
//! first entry of a bucket keeps the result that took the most work, the second
//! the latest: deep results survive, and the many small ones near the leaves
//! still find a place.
//!
//! # Threads
//! An entry is three words, which no instruction reads or writes at once, so
//! each bucket is a sequence lock. A writer makes the sequence odd with a
//! compare-and-swap (a bucket another thread is writing is left alone: a table
//! may always drop a bound), writes, and makes it even again. A reader reads
//! the sequence, the words, then the sequence again, and believes the words
//! only if the sequence was even and did not change: then no write overlapped
//! its reads (the acquire fence keeps the second read of the sequence after
//! the words'; the writer's release fence keeps its words after the odd
//! sequence), so it saw one whole state of the bucket. A read that fails is a
//! miss. So every bound a thread reads is one some complete search stored,
//! and a 64-bit sequence does not come back to a value within any read.

use super::layout::Pos;
use super::set::CellSet;
use std::sync::atomic::{fence, AtomicU64, Ordering};

/// A bound beyond every score: "no bound".
pub(crate) const NO_LOWER: i16 = i16::MIN;
pub(crate) const NO_UPPER: i16 = i16::MAX;
/// No best move stored.
pub(crate) const NO_MOVE: u16 = u16::MAX;

/// The mixing multiplier: odd, so the product is one-to-one on 128-bit words.
const MIX: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835;

/// Two entries and their sequence (module docs).
#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    sequence: AtomicU64,
    words: [AtomicU64; 6],
    _unused: u64,
}

/// One entry as read from a bucket.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Entry {
    key: u128,
    lower: i16,
    upper: i16,
    best: u16,
    work: u8,
}

impl Entry {
    fn is_empty(&self) -> bool {
        (self.lower, self.upper) == (0, 0)
    }

    fn data(&self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best) << 32
            | u64::from(self.work) << 48
    }

    fn of(words: [u64; 3]) -> Entry {
        let data = words[2];
        Entry {
            key: u128::from(words[0]) | u128::from(words[1]) << 64,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: (data >> 32) as u16,
            work: (data >> 48) as u8,
        }
    }
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
    buckets: Vec<Bucket>,
    /// log2 of the number of buckets.
    bits: u32,
}

impl Table {
    /// A table of about `entries` entries (32 bytes each), at least 2^10.
    pub(crate) fn new(entries: usize) -> Table {
        let buckets = (entries.max(1 << 10) / 2).next_power_of_two();
        Table { buckets: (0..buckets).map(|_| Bucket::default()).collect(), bits: buckets.trailing_zeros() }
    }

    /// Bytes the table takes.
    pub(crate) fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
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
    fn bucket(&self, key: u128) -> &Bucket {
        &self.buckets[(key.wrapping_mul(MIX) >> (128 - self.bits)) as usize]
    }

    /// The bucket's two entries, if no write overlapped the reads (module docs).
    #[inline]
    fn read(bucket: &Bucket) -> Option<[Entry; 2]> {
        let before = bucket.sequence.load(Ordering::Acquire);
        if before & 1 == 1 {
            return None;
        }
        let w: [u64; 6] = std::array::from_fn(|i| bucket.words[i].load(Ordering::Relaxed));
        fence(Ordering::Acquire);
        if bucket.sequence.load(Ordering::Relaxed) != before {
            return None;
        }
        Some([Entry::of([w[0], w[1], w[2]]), Entry::of([w[3], w[4], w[5]])])
    }

    /// The bounds stored for `key`.
    #[inline]
    pub(crate) fn get(&self, key: u128) -> Option<Known> {
        let entries = Self::read(self.bucket(key))?;
        entries.iter().find(|e| e.key == key && !e.is_empty()).map(|e| Known {
            lower: e.lower as i32,
            upper: e.upper as i32,
            best: e.best,
        })
    }

    /// Stores bounds for `key` (each a score, or `NO_LOWER` / `NO_UPPER`),
    /// found by a search that visited `work` positions, with its best move:
    /// with what the entry held for the same key (both proven), else in place
    /// of the lesser work or the latest. Nothing is stored while another thread
    /// writes the bucket.
    #[inline]
    pub(crate) fn put(&self, key: u128, lower: i32, upper: i32, best: u16, work: u64) {
        let bucket = self.bucket(key);
        let sequence = bucket.sequence.load(Ordering::Relaxed);
        if sequence & 1 == 1
            || bucket.sequence.compare_exchange(sequence, sequence + 1, Ordering::Acquire, Ordering::Relaxed).is_err()
        {
            return;
        }
        fence(Ordering::Release);
        // This thread holds the bucket: its words are what the last writer left.
        let w: [u64; 6] = std::array::from_fn(|i| bucket.words[i].load(Ordering::Relaxed));
        let mut pair = [Entry::of([w[0], w[1], w[2]]), Entry::of([w[3], w[4], w[5]])];
        let work = (64 - work.leading_zeros()) as u8;
        let (lower, upper) = (lower as i16, upper as i16);
        if let Some(e) = pair.iter_mut().find(|e| e.key == key && !e.is_empty()) {
            e.lower = e.lower.max(lower);
            e.upper = e.upper.min(upper);
            e.best = best;
            e.work = e.work.max(work);
        } else {
            let entry = Entry { key, lower, upper, best, work };
            if work >= pair[0].work {
                pair[1] = pair[0];
                pair[0] = entry;
            } else {
                pair[1] = entry;
            }
        }
        for (i, e) in pair.iter().enumerate() {
            bucket.words[3 * i].store(e.key as u64, Ordering::Relaxed);
            bucket.words[3 * i + 1].store((e.key >> 64) as u64, Ordering::Relaxed);
            bucket.words[3 * i + 2].store(e.data(), Ordering::Relaxed);
        }
        bucket.sequence.store(sequence + 2, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    #[test]
    fn entries_keep_bounds_merge_them_and_tell_keys_apart() {
        let table = Table::new(1 << 10);
        let key = (1u128 << 100) | 12345;
        assert!(table.get(key).is_none());
        table.put(key, -40, NO_UPPER as i32, 7, 100);
        table.put(key, NO_LOWER as i32, 9, 8, 3);
        let known = table.get(key).unwrap();
        assert_eq!((known.lower, known.upper, known.best), (-40, 9, 8));
        // Keys of the same bucket: the one with more work stays first, the
        // latest second, a third pushes out the lesser.
        let same: Vec<u128> =
            (0..u128::MAX).filter(|&k| k != key && std::ptr::eq(table.bucket(k), table.bucket(key))).take(2).collect();
        table.put(same[0], 5, 5, 1, 1);
        assert!(table.get(key).is_some() && table.get(same[0]).is_some());
        table.put(same[1], -3, -3, 2, 1);
        assert!(table.get(key).is_some(), "the entry with more work stays");
        assert!(table.get(same[0]).is_none(), "the latest replaced the lesser");
        assert_eq!(table.get(same[1]).map(|k| (k.lower, k.upper, k.best)), Some((-3, -3, 2)));
    }

    /// Threads writing and reading the same few buckets never read a mix of
    /// two writes: every entry read is one some thread stored whole.
    #[test]
    fn threads_never_read_half_an_entry() {
        let table = Table::new(1 << 10);
        // Each key's bounds are a function of the key, so a torn read shows.
        let bounds = |k: u128| {
            let b = (k % 20_000) as i32 + 1;
            (b, b + (k >> 64) as i32 % 7)
        };
        // Keys of one bucket, so that writes and reads meet.
        let first = table.bucket(1 << 64 | 1);
        let keys: Vec<u128> = (0..u128::MAX)
            .map(|i| (i % 97) << 64 | (i + 1))
            .filter(|&k| std::ptr::eq(table.bucket(k), first))
            .take(6)
            .collect();
        std::thread::scope(|scope| {
            for t in 0..2 {
                let (table, keys) = (&table, &keys);
                scope.spawn(move || {
                    for round in 0..200_000usize {
                        let k = keys[(round * 13 + t * 5) % keys.len()];
                        let (lower, upper) = bounds(k);
                        table.put(k, lower, upper, (k % 1000) as u16, round as u64);
                        let other = keys[(round * 7 + t) % keys.len()];
                        if let Some(known) = table.get(other) {
                            assert_eq!((known.lower, known.upper), bounds(other));
                            assert_eq!(known.best, (other % 1000) as u16);
                        }
                    }
                });
            }
        });
    }
}
