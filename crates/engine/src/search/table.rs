//! The transposition table: what the search knows of positions it has searched.
//!
//! A fixed number of two-entry buckets chosen by a hash of the position. An entry
//! holds the position itself (so a hash collision can never give a wrong value),
//! a score with its bound (exact, lower, upper), the best move and the work spent
//! on it. The first entry of a bucket keeps the most expensive result, the second
//! takes whatever comes: a full table forgets cheap results first, and forgetting
//! costs time, never exactness.
//!
//! Two forms of the same buckets: [`Table`], owned by one search, which starts small
//! and grows; and [`SharedTable`], at its full size, each bucket behind a lock of
//! its own, for searches on several threads ([`super::Searcher::value_in_parallel`]).
//! A bucket's lock is on the bucket's own cache line, which the probe reads anyway.

use crate::memo::FxHasher;
use std::hash::{BuildHasher, BuildHasherDefault, Hash};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Bound {
    Exact,
    /// The score is at least this.
    Lower,
    /// The score is at most this.
    Upper,
}

#[derive(Clone, Debug)]
pub(super) struct Entry<P> {
    pub(super) position: P,
    pub(super) score: i32,
    pub(super) bound: Bound,
    /// Index of the best child in the game's move order (`u16::MAX`: none).
    pub(super) best: u16,
    /// Nodes searched to get this result, saturated: what forgetting it would cost.
    pub(super) work: u32,
}

/// What a probe finds: an entry without its position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Stored {
    pub(super) score: i32,
    pub(super) bound: Bound,
    pub(super) best: u16,
}

/// Two entries: `[kept, recent]`.
type Bucket<P> = [Option<Entry<P>>; 2];

/// The stored result for `position` in a bucket.
#[inline]
fn find<P: Eq>(bucket: &Bucket<P>, position: &P) -> Option<Stored> {
    bucket.iter().flatten().find(|e| &e.position == position).map(|e| Stored {
        score: e.score,
        bound: e.bound,
        best: e.best,
    })
}

/// Puts `entry` in its bucket: over the entry of the same position, else the most
/// expensive result stays first and the one it displaces goes second. Returns by how
/// much the bucket's number of entries grew (0 or 1).
#[inline]
fn place<P: Eq>(bucket: &mut Bucket<P>, entry: Entry<P>) -> usize {
    let before = bucket.iter().flatten().count();
    if let Some(slot) = bucket.iter_mut().find(|s| s.as_ref().is_some_and(|e| e.position == entry.position)) {
        *slot = Some(entry);
    } else {
        match &bucket[0] {
            None => bucket[0] = Some(entry),
            Some(kept) if entry.work >= kept.work => bucket[1] = bucket[0].replace(entry),
            Some(_) => bucket[1] = Some(entry),
        }
    }
    bucket.iter().flatten().count() - before
}

/// The hash of a position, spread over 64 bits.
#[inline]
fn hash<P: Hash>(position: &P) -> u64 {
    let x = BuildHasherDefault::<FxHasher>::default().hash_one(position);
    // Fx leaves the low bits weak: fold the high half in.
    x ^ (x >> 29) ^ (x >> 47)
}

/// Buckets for a table of about `max_entries` entries (a power of two, at least 1).
fn max_buckets(max_entries: usize) -> usize {
    (max_entries / 2).next_power_of_two().max(1)
}

/// A table owned by one search. Starts small and doubles while more than 3/4 full,
/// up to its largest size; then it replaces.
pub(super) struct Table<P> {
    buckets: Vec<Bucket<P>>,
    mask: usize,
    pub(super) len: usize,
    max_buckets: usize,
}

impl<P: Eq + Hash> Table<P> {
    pub(super) fn new(max_entries: usize) -> Self {
        let max_buckets = max_buckets(max_entries);
        let buckets = max_buckets.min(1 << 8);
        Table { buckets: Self::empty(buckets), mask: buckets - 1, len: 0, max_buckets }
    }

    fn empty(buckets: usize) -> Vec<Bucket<P>> {
        (0..buckets).map(|_| [None, None]).collect()
    }

    fn grow(&mut self) {
        let old = std::mem::replace(&mut self.buckets, Self::empty(2 * (self.mask + 1)));
        self.mask = 2 * self.mask + 1;
        self.len = 0;
        for entry in old.into_iter().flatten().flatten() {
            self.insert(entry);
        }
    }

    #[inline]
    pub(super) fn get(&self, position: &P) -> Option<Stored> {
        find(&self.buckets[hash(position) as usize & self.mask], position)
    }

    pub(super) fn insert(&mut self, entry: Entry<P>) {
        if self.len * 4 > self.buckets.len() * 2 * 3 && self.buckets.len() < self.max_buckets {
            self.grow();
        }
        let b = hash(&entry.position) as usize & self.mask;
        self.len += place(&mut self.buckets[b], entry);
    }

    /// The same entries in a table at its largest size, for several threads.
    pub(super) fn into_shared(self) -> SharedTable<P> {
        let full = if self.buckets.len() == self.max_buckets {
            self
        } else {
            // Straight to the largest size: one pass over the entries, not one a doubling.
            let max_buckets = self.max_buckets;
            let mut full = Table { buckets: Self::empty(max_buckets), mask: max_buckets - 1, len: 0, max_buckets };
            for entry in self.buckets.into_iter().flatten().flatten() {
                full.insert(entry);
            }
            full
        };
        SharedTable { buckets: full.buckets.into_iter().map(Mutex::new).collect(), mask: full.mask }
    }

    /// A table of `max_entries` entries at most holding what `shared` holds (its
    /// size if that is larger).
    pub(super) fn from_shared(shared: SharedTable<P>, max_entries: usize) -> Self {
        let buckets: Vec<Bucket<P>> = shared
            .buckets
            .into_iter()
            .map(|b| b.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()))
            .collect();
        let len = buckets.iter().flatten().flatten().count();
        Table { mask: buckets.len() - 1, buckets, len, max_buckets: max_buckets(max_entries).max(shared.mask + 1) }
    }
}

/// A table at its full size shared by the threads of one search: each bucket is
/// locked for the moment of a probe or a store (a lock poisoned by a panicking
/// thread still holds whole entries: each is written in one assignment).
pub(super) struct SharedTable<P> {
    buckets: Vec<Mutex<Bucket<P>>>,
    mask: usize,
}

impl<P: Eq + Hash> SharedTable<P> {
    fn bucket(&self, position: &P) -> std::sync::MutexGuard<'_, Bucket<P>> {
        let lock = &self.buckets[hash(position) as usize & self.mask];
        lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    #[inline]
    pub(super) fn get(&self, position: &P) -> Option<Stored> {
        find(&self.bucket(position), position)
    }

    pub(super) fn insert(&self, entry: Entry<P>) {
        place(&mut self.bucket(&entry.position), entry);
    }
}

/// Slots of [`Busy`] (a power of two).
const BUSY_SLOTS: usize = 1 << 12;

/// The positions the threads of a parallel search are searching now, by hash: a
/// thread that finds a child busy leaves it for last, by which time the other
/// thread's result is often in the table (ABDADA, Weill 1996). Only the order of
/// the search depends on it, never a value: a hash collision, or a slot another
/// position took over, costs time at most.
pub(super) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    pub(super) fn new() -> Self {
        Busy { slots: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }

    /// A position's mark: its hash, never 0 (an empty slot).
    #[inline]
    pub(super) fn mark_of<P: Hash>(position: &P) -> u64 {
        hash(position) | 1
    }

    #[inline]
    fn slot(&self, mark: u64) -> &AtomicU64 {
        &self.slots[(mark >> 20) as usize & (BUSY_SLOTS - 1)]
    }

    /// A thread starts searching the position of `mark`.
    #[inline]
    pub(super) fn enter(&self, mark: u64) {
        self.slot(mark).store(mark, Ordering::Relaxed);
    }

    /// A thread is done with the position of `mark` (the slot is cleared unless
    /// another position took it over since).
    #[inline]
    pub(super) fn leave(&self, mark: u64) {
        let _ = self.slot(mark).compare_exchange(mark, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Whether some thread is searching the position of `mark`.
    #[inline]
    pub(super) fn is_busy(&self, mark: u64) -> bool {
        self.slot(mark).load(Ordering::Relaxed) == mark
    }
}

/// Where one search thread keeps and finds results: its own table, or a shared
/// one with the busy marks of the threads sharing it.
pub(super) trait Transpositions<P> {
    fn get(&self, position: &P) -> Option<Stored>;
    fn insert(&mut self, entry: Entry<P>);
    /// The busy marks, in a parallel search.
    fn busy(&self) -> Option<&Busy>;
}

impl<P: Eq + Hash> Transpositions<P> for Table<P> {
    #[inline]
    fn get(&self, position: &P) -> Option<Stored> {
        Table::get(self, position)
    }
    #[inline]
    fn insert(&mut self, entry: Entry<P>) {
        Table::insert(self, entry)
    }
    #[inline]
    fn busy(&self) -> Option<&Busy> {
        None
    }
}

/// One thread's view of a parallel search's table.
pub(super) struct Shared<'a, P> {
    pub(super) table: &'a SharedTable<P>,
    pub(super) busy: &'a Busy,
}

impl<P: Eq + Hash> Transpositions<P> for Shared<'_, P> {
    #[inline]
    fn get(&self, position: &P) -> Option<Stored> {
        self.table.get(position)
    }
    #[inline]
    fn insert(&mut self, entry: Entry<P>) {
        self.table.insert(entry)
    }
    #[inline]
    fn busy(&self) -> Option<&Busy> {
        Some(self.busy)
    }
}
