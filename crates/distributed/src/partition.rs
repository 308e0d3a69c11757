//! Which worker owns which index.
//!
//! The index is cut into chunks of `1 << chunk_shift` indices, dealt round-robin:
//! chunk `c` belongs to worker `c % workers`. A worker keeps its chunks one after
//! another in its own arrays:
//!
//! ```text
//! index:   | chunk 0 | chunk 1 | chunk 2 | chunk 3 | chunk 4 |   (2 workers)
//! owner:       w0        w1        w0        w1        w0
//! w0 keeps | chunk 0 | chunk 2 | chunk 4 |        local offset = (c / 2) << shift | low bits
//! ```
//!
//! Dealing chunks rather than cutting the index in halves evens out the work:
//! nearby indices (similar positions) tend to be decided in the same levels.
//! Chunks of 16,384 indices (the default) hold whole blocks of a tablebase file
//! at every value width, so each worker compresses its own blocks.

use std::ops::Range;

/// The owner of every index, and where the owner keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    /// Number of indices.
    pub size: u64,
    /// Number of workers.
    pub workers: usize,
    /// log2 of the chunk length.
    pub chunk_shift: u32,
}

impl Partition {
    /// The chunk length used unless a caller asks otherwise: 16,384 indices, a
    /// multiple of every tablebase block length (16 KiB of 1-, 2- or 4-byte values).
    pub const DEFAULT_CHUNK_SHIFT: u32 = 14;

    /// `size` indices over `workers` workers in chunks of `1 << chunk_shift`.
    pub fn new(size: u64, workers: usize, chunk_shift: u32) -> Partition {
        assert!(workers > 0 && chunk_shift < 40);
        Partition { size, workers, chunk_shift }
    }

    fn chunk_mask(&self) -> u64 {
        (1 << self.chunk_shift) - 1
    }

    /// The worker that owns `index`.
    #[inline]
    pub fn owner(&self, index: u64) -> usize {
        ((index >> self.chunk_shift) % self.workers as u64) as usize
    }

    /// Where the owner keeps `index`.
    #[inline]
    pub fn local(&self, index: u64) -> usize {
        (((index >> self.chunk_shift) / self.workers as u64) << self.chunk_shift | (index & self.chunk_mask())) as usize
    }

    /// The index worker `worker` keeps at `local`.
    #[inline]
    pub fn global(&self, worker: usize, local: usize) -> u64 {
        let chunk = (local as u64 >> self.chunk_shift) * self.workers as u64 + worker as u64;
        chunk << self.chunk_shift | (local as u64 & self.chunk_mask())
    }

    /// The ranges of indices worker `worker` owns, in order.
    pub fn ranges(&self, worker: usize) -> impl Iterator<Item = Range<u64>> + Clone + '_ {
        let chunks = self.size.div_ceil(1 << self.chunk_shift);
        (worker as u64..chunks)
            .step_by(self.workers)
            .map(move |c| (c << self.chunk_shift)..((c + 1) << self.chunk_shift).min(self.size))
    }

    /// How many indices worker `worker` owns.
    pub fn owned(&self, worker: usize) -> usize {
        self.ranges(worker).map(|r| (r.end - r.start) as usize).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_has_one_owner_and_one_place() {
        for (size, workers, shift) in [(0, 1, 2), (1, 3, 0), (37, 2, 2), (100, 3, 3), (64, 4, 4), (1000, 5, 1)] {
            let partition = Partition::new(size, workers, shift);
            let mut seen = vec![false; size as usize];
            for worker in 0..workers {
                let mut local = 0usize;
                for range in partition.ranges(worker) {
                    for index in range {
                        assert_eq!(partition.owner(index), worker);
                        assert_eq!(partition.local(index), local, "size {size} workers {workers} index {index}");
                        assert_eq!(partition.global(worker, local), index);
                        assert!(!seen[index as usize]);
                        seen[index as usize] = true;
                        local += 1;
                    }
                }
                assert_eq!(partition.owned(worker), local);
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
}
