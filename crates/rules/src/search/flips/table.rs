//! The transposition table: bounds on margins by position, the position itself
//! stored whole, shared by the search's threads without a lock.
//!
//! ```text
//!   bucket (64 bytes, one cache line): two entries of four words each
//!     word 0  version: odd while a thread writes the entry
//!     word 1  mine     (the folded position, whole: a lookup never
//!     word 2  theirs    mistakes another position for it)
//!     word 3  data:
//!       63      39 ...... 32  31 ..... 24  23 ..... 16  15 ...... 8  7 ...... 0
//!       stored  generation    empties      best cell    upper (i8)   lower (i8)
//! ```
//!
//! A writer makes the version odd (a compare-and-swap: a writer that finds it
//! odd or changed gives up, its bound is lost, never wrong), writes the three
//! words and makes it even again; a reader reads the version, the words and the
//! version again and believes the words only when both versions are the same
//! even number (a sequence lock). Every word is an atomic, so a torn read is
//! refused, not undefined.
//!
//! Replacement: a bucket keeps the position's own entry when it holds it;
//! otherwise the new bound replaces the entry of an earlier search (an older
//! generation), else the one with fewer empty cells (the cheaper to find again).

use std::sync::atomic::{fence, AtomicU64, Ordering};

const STORED: u64 = 1 << 63;
/// No best cell.
pub(crate) const NO_CELL: u8 = 255;

/// What the table holds of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub(crate) lower: i32,
    pub(crate) upper: i32,
    /// The move (a cell of the folded position) that proved the lower bound,
    /// or [`NO_CELL`].
    pub(crate) best: u8,
}

#[repr(align(64))]
struct Bucket([AtomicU64; 8]);

/// Bounds on margins by (folded) position.
pub(crate) struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
}

impl Table {
    /// A table of at most `bytes` bytes (a power of two of buckets, at least 1,024).
    pub(crate) fn new(bytes: usize) -> Table {
        let buckets = (bytes / 64).max(1024);
        let buckets = if buckets.is_power_of_two() { buckets } else { buckets.next_power_of_two() / 2 };
        Table {
            buckets: (0..buckets).map(|_| Bucket(std::array::from_fn(|_| AtomicU64::new(0)))).collect(),
            mask: buckets - 1,
        }
    }

    /// Bytes the table takes.
    pub(crate) fn bytes(&self) -> usize {
        self.buckets.len() * 64
    }

    /// Forgets everything.
    pub(crate) fn clear(&self) {
        for bucket in &self.buckets {
            for word in &bucket.0 {
                word.store(0, Ordering::Relaxed);
            }
        }
    }

    #[inline]
    fn bucket(&self, mine: u64, theirs: u64) -> &[AtomicU64; 8] {
        let h = (mine ^ theirs.rotate_left(23).wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_mul(0xd6e8_feb8_6659_fd93);
        &self.buckets[(h >> 32) as usize & self.mask].0
    }

    /// The bounds stored for a position.
    #[inline]
    pub(crate) fn get(&self, mine: u64, theirs: u64) -> Option<Bounds> {
        let bucket = self.bucket(mine, theirs);
        for entry in bucket.chunks_exact(4) {
            if let Some((m, t, data)) = read(entry) {
                if m == mine && t == theirs && data & STORED != 0 {
                    return Some(Bounds {
                        lower: data as u8 as i8 as i32,
                        upper: (data >> 8) as u8 as i8 as i32,
                        best: (data >> 16) as u8,
                    });
                }
            }
        }
        None
    }

    /// Stores proven bounds of a position with `empties` empty cells, kept
    /// together with the bounds the entry already holds for it.
    #[inline]
    pub(crate) fn put(&self, mine: u64, theirs: u64, new: Bounds, empties: u32, generation: u8) {
        let bucket = self.bucket(mine, theirs);
        let (a, b) = bucket.split_at(4);
        let (da, db) = (read(a), read(b));
        let own = |e: Option<(u64, u64, u64)>| e.is_some_and(|(m, t, d)| m == mine && t == theirs && d & STORED != 0);
        let cost = |e: Option<(u64, u64, u64)>| match e {
            None => 0,
            Some((_, _, d)) if d & STORED == 0 || (d >> 32) as u8 != generation => 0,
            Some((_, _, d)) => 1 + (d >> 24) as u8 as u32,
        };
        let (entry, old) = if own(da) {
            (a, da)
        } else if own(db) {
            (b, db)
        } else if cost(da) <= cost(db) {
            (a, None)
        } else {
            (b, None)
        };
        let mut bounds = new;
        if let Some((_, _, d)) = old {
            bounds.lower = bounds.lower.max(d as u8 as i8 as i32);
            bounds.upper = bounds.upper.min((d >> 8) as u8 as i8 as i32);
            if new.best == NO_CELL {
                bounds.best = (d >> 16) as u8;
            }
        }
        let data = STORED
            | u64::from(generation) << 32
            | u64::from(empties.min(255)) << 24
            | u64::from(bounds.best) << 16
            | u64::from(bounds.upper as i8 as u8) << 8
            | u64::from(bounds.lower as i8 as u8);
        write(entry, mine, theirs, data);
    }
}

/// An entry's words, if no writer was at work on it meanwhile.
#[inline]
fn read(entry: &[AtomicU64]) -> Option<(u64, u64, u64)> {
    let before = entry[0].load(Ordering::Acquire);
    let words = (entry[1].load(Ordering::Relaxed), entry[2].load(Ordering::Relaxed), entry[3].load(Ordering::Relaxed));
    fence(Ordering::Acquire);
    let after = entry[0].load(Ordering::Relaxed);
    (before == after && before & 1 == 0).then_some(words)
}

/// Writes an entry, unless another writer holds it.
#[inline]
fn write(entry: &[AtomicU64], mine: u64, theirs: u64, data: u64) {
    let version = entry[0].load(Ordering::Relaxed);
    if version & 1 == 1
        || entry[0].compare_exchange(version, version + 1, Ordering::Acquire, Ordering::Relaxed).is_err()
    {
        return;
    }
    fence(Ordering::Release);
    entry[1].store(mine, Ordering::Relaxed);
    entry[2].store(theirs, Ordering::Relaxed);
    entry[3].store(data, Ordering::Relaxed);
    entry[0].store(version + 2, Ordering::Release);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_kept_by_position_and_narrowed() {
        let table = Table::new(1 << 16);
        assert_eq!(table.get(1, 2), None);
        table.put(1, 2, Bounds { lower: -64, upper: 10, best: 3 }, 20, 1);
        assert_eq!(table.get(1, 2), Some(Bounds { lower: -64, upper: 10, best: 3 }));
        table.put(1, 2, Bounds { lower: 4, upper: 64, best: NO_CELL }, 20, 1);
        assert_eq!(table.get(1, 2), Some(Bounds { lower: 4, upper: 10, best: 3 }));
        // The empty position is a position like any other.
        assert_eq!(table.get(0, 0), None);
        table.put(0, 0, Bounds { lower: 0, upper: 0, best: NO_CELL }, 64, 1);
        assert_eq!(table.get(0, 0), Some(Bounds { lower: 0, upper: 0, best: NO_CELL }));
        assert_eq!(table.get(2, 1), None);
        table.clear();
        assert_eq!(table.get(1, 2), None);
    }
}
