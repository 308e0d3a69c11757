//! Which positions some thread is searching right now (ABDADA): a thread that
//! meets a child another thread is searching leaves it for after its other
//! children, so that two threads spread over the children instead of both
//! proving the same subtree; by the time it comes back, the other thread has
//! usually stored the child's bound.
//!
//! ```text
//!   slot (one u64 each, 2^SLOT_BITS of them): 0 free, else the hash of the
//!   position being searched (odd, so never 0); a position's slot is picked
//!   by its hash
//! ```
//!
//! A mark is a hint, never a proof: two positions of one slot, or a mark
//! left by a thread that has just finished, only change the order in which
//! children are searched, never a value.

use std::sync::atomic::{AtomicU64, Ordering};

const SLOT_BITS: u32 = 14;

pub(crate) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    pub(crate) fn new() -> Busy {
        Busy { slots: (0..1 << SLOT_BITS).map(|_| AtomicU64::new(0)).collect() }
    }

    #[inline]
    fn hash(mine: u64, theirs: u64) -> u64 {
        (mine.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ theirs.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)) | 1
    }

    #[inline]
    fn slot(&self, hash: u64) -> &AtomicU64 {
        &self.slots[(hash >> (64 - SLOT_BITS)) as usize]
    }

    /// Marks a position as searched by this thread, if its slot is free: the
    /// mark to give back to [`Busy::leave`].
    #[inline]
    pub(crate) fn enter(&self, mine: u64, theirs: u64) -> Option<u64> {
        let hash = Self::hash(mine, theirs);
        self.slot(hash).compare_exchange(0, hash, Ordering::Relaxed, Ordering::Relaxed).ok().map(|_| hash)
    }

    #[inline]
    pub(crate) fn leave(&self, mark: u64) {
        self.slot(mark).store(0, Ordering::Relaxed);
    }

    /// Is some thread searching the position?
    #[inline]
    pub(crate) fn searched(&self, mine: u64, theirs: u64) -> bool {
        let hash = Self::hash(mine, theirs);
        self.slot(hash).load(Ordering::Relaxed) == hash
    }
}
