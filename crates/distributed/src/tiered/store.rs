//! Where each worker keeps its codes of the finished tiers: no file system is
//! shared.
//!
//! ```text
//! WORK/                     one per process (or one shared by all: it works either way)
//!   build.txt               the build's identity (gsolve_tablebase::tiers::WorkDir)
//!   finished.txt, T.tier    whole tiers of a single-process build, if one was resumed
//!   w0of2/ w1of2/ …         one per worker (its global index, of how many), a WorkDir of its own:
//!     build.txt, finished.txt
//!     T.tier                the worker's part of tier T: the codes of the indices
//!                           it owns (Partition, chunks of 16,384), in that order
//! ```
//!
//! A tier is finished when every worker has its part (or the whole tier, from a
//! single-process build): a run stopped at any point, on any process, goes on
//! from there. A run with another number of workers has directories of its own
//! (a part's chunks depend on that number, not only its length), and a part
//! whose length does not fit is not counted (the tier is solved again). Process 0 writes the file from the
//! codes each worker sends it of each batch of the index, in index order.

use crate::build::{BuildError, Target};
use crate::cluster::Lost;
use crate::partition::Partition;
use crate::rounds::Rounds;
use gsolve_engine::tiered::TierValues;
use gsolve_engine::{PackedValue, Tiered};
use gsolve_tablebase::tiers::{self, WorkDir};
use gsolve_tablebase::write::{self, Identity, Values};
use gsolve_tablebase::Written;
use std::ops::Range;
use std::path::Path;
use timely::worker::Worker;

/// The partition of a tier of `size` positions over `peers` workers.
pub(super) fn tier_partition(size: u64, peers: usize) -> Partition {
    Partition::new(size, peers, Partition::DEFAULT_CHUNK_SHIFT)
}

/// Where this worker's codes of a tier are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kept {
    /// Not finished (by every worker).
    No,
    /// Its part, in its own work directory, `width` bytes a code.
    Part(u8),
    /// The whole tier of a single-process build, in the top work directory.
    Whole(u8),
}

/// This worker's view of the finished tiers, and its work directories.
pub(super) struct Store {
    me: usize,
    peers: usize,
    /// The first worker of each process removes the work directory at the end.
    first_of_process: bool,
    top: WorkDir,
    mine: WorkDir,
    kept: Vec<Kept>,
    /// The largest code of each finished tier, over every worker.
    max_codes: Vec<u32>,
}

impl Store {
    /// Opens the work directories: the top one by process 0, then by the first
    /// worker of each other process (on a shared file system it is the same
    /// one, then found made), then every worker's own; and agrees on the
    /// finished tiers. `Ok(Err(..))`: a directory could not be opened or holds
    /// another build (everywhere at once).
    pub(super) fn open<G: Tiered>(
        worker: &mut Worker,
        rounds: &mut Rounds,
        game: &G,
        tiers: &[G::Tier],
        work_dir: &Path,
        identity: &Identity<'_>,
        threads: usize,
    ) -> Result<Result<Store, String>, Lost> {
        let (me, peers) = (worker.index(), worker.peers());
        let first_of_process = me % threads == 0;
        let mut problem = None;
        for turn in 0..2 {
            if first_of_process && (me == 0) == (turn == 0) {
                if let Err(e) = WorkDir::open(work_dir, identity) {
                    problem = Some(format!("process {}: {e}", me / threads));
                }
            }
            if let Err(message) = agree(worker, rounds, problem.take())? {
                return Ok(Err(message));
            }
        }
        let opened = WorkDir::open(work_dir, identity)
            .and_then(|top| Ok((top, WorkDir::open(&work_dir.join(format!("w{me}of{peers}")), identity)?)));
        let (top, mine) = match opened {
            Ok(opened) => (Some(opened.0), Some(opened.1)),
            Err(e) => {
                problem = Some(format!("process {}: {e}", me / threads));
                (None, None)
            }
        };
        if let Err(message) = agree(worker, rounds, problem)? {
            return Ok(Err(message));
        }
        let (top, mine) = (top.expect("opened"), mine.expect("opened"));
        // What each worker keeps of each tier: width (0: nothing), whether the
        // whole tier, and the largest code, in one word a tier.
        let words: Vec<u64> = tiers
            .iter()
            .map(|&tier| {
                let (name, size) = (game.tier_name(tier), game.tier_size(tier));
                let owned = tier_partition(size, peers).owned(me) as u64;
                match (mine.tier_file(&name), top.tier_file(&name)) {
                    (Some((_, width, length)), _) if length == owned => {
                        (mine.max_code(&name).unwrap_or(0) as u64) << 8 | width as u64
                    }
                    (_, Some((_, width, length))) if length == size => {
                        (top.max_code(&name).unwrap_or(0) as u64) << 8 | 1 << 7 | width as u64
                    }
                    _ => 0,
                }
            })
            .collect();
        let everyone = rounds.finish(worker, &words, &mut |_| unreachable!("no updates"))?;
        let mut store = Store {
            me,
            peers,
            first_of_process,
            top,
            mine,
            kept: vec![Kept::No; tiers.len()],
            max_codes: vec![0; tiers.len()],
        };
        for (n, &word) in words.iter().enumerate() {
            if everyone.iter().all(|w| w[n] & 7 != 0) {
                let width = (word & 7) as u8;
                store.kept[n] = if word >> 7 & 1 == 1 { Kept::Whole(width) } else { Kept::Part(width) };
                store.max_codes[n] = everyone.iter().map(|w| (w[n] >> 8) as u32).max().unwrap_or(0);
            }
        }
        Ok(Ok(store))
    }

    /// Whether tier `n` is finished everywhere.
    pub(super) fn finished(&self, n: usize) -> bool {
        self.kept[n] != Kept::No
    }

    /// This worker's codes of finished tier `n` (`size` positions), in
    /// partition order, and their width.
    pub(super) fn own_codes(&self, name: &str, n: usize, size: u64) -> Result<(u8, Vec<u8>), String> {
        let partition = tier_partition(size, self.peers);
        self.own_ranges(name, n, size, partition.ranges(self.me))
    }

    /// This worker's codes of `ranges` (indices of tier `n` that it owns,
    /// ascending), one after the other, and their width.
    fn own_ranges(
        &self,
        name: &str,
        n: usize,
        size: u64,
        ranges: impl Iterator<Item = Range<u64>> + Clone,
    ) -> Result<(u8, Vec<u8>), String> {
        let read = match self.kept[n] {
            Kept::No => return Err(format!("tier {name} is not finished")),
            Kept::Part(width) => {
                let Some((path, _, owned)) = self.mine.tier_file(name) else {
                    return Err(format!("worker {}: tier {name}: its part is not kept", self.me));
                };
                let partition = tier_partition(size, self.peers);
                let local = ranges.map(|r| {
                    let start = partition.local(r.start) as u64;
                    start..start + (r.end - r.start)
                });
                tiers::read_parts(&path, width, owned, local.collect::<Vec<_>>().into_iter()).map(|b| (width, b))
            }
            Kept::Whole(width) => {
                let Some((path, ..)) = self.top.tier_file(name) else {
                    return Err(format!("worker {}: tier {name}: the whole tier is not kept", self.me));
                };
                tiers::read_parts(&path, width, size, ranges).map(|b| (width, b))
            }
        };
        read.map_err(|e| format!("tier {name}: {e}"))
    }

    /// Keeps this worker's codes of tier `n` (in partition order) as its part,
    /// the tier's largest code over every worker being `max_code`.
    /// `Ok(Err(..))`: some worker could not (everywhere at once).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn save(
        &mut self,
        worker: &mut Worker,
        rounds: &mut Rounds,
        name: &str,
        n: usize,
        width: u8,
        codes: Vec<u8>,
        max_code: u32,
    ) -> Result<Result<(), String>, Lost> {
        let problem = self.save_quietly(name, width, codes).err();
        let agreed = agree(worker, rounds, problem)?;
        if agreed.is_ok() {
            self.mark_saved(n, width, max_code);
        }
        Ok(agreed)
    }

    /// Records a part saved without a round of its own (its wave agrees after).
    pub(super) fn save_quietly(&mut self, name: &str, width: u8, codes: Vec<u8>) -> Result<(), String> {
        let me = self.me;
        self.mine
            .save(name, &TierValues::from_bytes(width, codes))
            .map_err(|e| format!("worker {me}: tier {name}: {e}"))
    }

    /// After a wave's agreement: tier `n` is kept as this worker's part.
    pub(super) fn mark_saved(&mut self, n: usize, width: u8, max_code: u32) {
        self.kept[n] = Kept::Part(width);
        self.max_codes[n] = max_code;
    }

    /// The file, written by process 0 from the codes every worker sends it, a
    /// batch of blocks a round; then every process removes its work directory.
    /// Every worker calls it once every tier is finished.
    pub(super) fn write<G: Tiered>(
        self,
        worker: &mut Worker,
        rounds: &mut Rounds,
        game: &G,
        tiers: &[G::Tier],
        identity: &Identity<'_>,
        target: &Target,
    ) -> Result<Result<Option<Written>, BuildError>, Lost> {
        let index_size: u64 = tiers.iter().map(|&t| game.tier_size(t)).sum();
        let max_code = self.max_codes.iter().copied().max().unwrap_or(0);
        let header = match write::plan(identity, index_size, max_code, &target.options) {
            Ok(header) => header,
            Err(e) => return Ok(Err(BuildError::Write(e))),
        };
        let width = header.value_width;
        let mut offsets = vec![0u64];
        for &tier in tiers {
            offsets.push(offsets.last().expect("one") + game.tier_size(tier));
        }
        let block = header.block_positions as u64;
        let per_batch = (GATHER_RAW_BYTES / (block * width as u64).max(1)).max(1);
        let batches = header.block_count.div_ceil(per_batch);
        // One batch: every worker sends its codes of the batch's indices, at
        // the file's width, keyed by their first index; process 0 lays them
        // out and compresses the batch's blocks.
        let gather = |worker: &mut Worker, rounds: &mut Rounds, batch: u64| -> Result<Result<Batch, String>, Lost> {
            let blocks = batch * per_batch..((batch + 1) * per_batch).min(header.block_count);
            let range = blocks.start * block..(blocks.end * block).min(index_size);
            let mut parcels = Vec::new();
            let mut problem = None;
            let first = offsets.partition_point(|&o| o <= range.start) - 1;
            for (n, &tier) in tiers.iter().enumerate().skip(first) {
                let (start, size) = (offsets[n], game.tier_size(tier));
                if start >= range.end {
                    break;
                }
                let within = range.start.max(start) - start..range.end.min(start + size) - start;
                let partition = tier_partition(size, self.peers);
                let mine: Vec<Range<u64>> = partition
                    .ranges(self.me)
                    .filter_map(|r| {
                        let r = r.start.max(within.start)..r.end.min(within.end);
                        (r.start < r.end).then_some(r)
                    })
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                match self.own_ranges(&game.tier_name(tier), n, size, mine.iter().cloned()) {
                    Ok((from, bytes)) => {
                        let mut at = 0usize;
                        for r in mine {
                            let length = (r.end - r.start) as usize;
                            let mut out = Vec::with_capacity(length * width as usize);
                            for code in
                                bytes[at * from as usize..(at + length) * from as usize].chunks_exact(from as usize)
                            {
                                let mut word = [0u8; 4];
                                word[..from as usize].copy_from_slice(code);
                                out.extend_from_slice(&u32::from_le_bytes(word).to_le_bytes()[..width as usize]);
                            }
                            parcels.push((0usize, start + r.start, out));
                            at += length;
                        }
                    }
                    Err(message) => {
                        problem.get_or_insert(message);
                    }
                }
            }
            if let Some(problem) = problem {
                parcels = vec![(0, u64::MAX, problem.into_bytes())];
            }
            let received = rounds.gather(worker, parcels)?;
            let mut batch = Batch { start: range.start, width, bytes: Vec::new(), holes: 0 };
            if worker.index() == 0 {
                batch.bytes = vec![0; ((range.end - range.start) * width as u64) as usize];
                for (key, bytes) in received {
                    if key == u64::MAX {
                        return Ok(Err(String::from_utf8_lossy(&bytes).into_owned()));
                    }
                    let at = ((key - range.start) * width as u64) as usize;
                    batch.bytes[at..at + bytes.len()].copy_from_slice(&bytes);
                }
                let none = PackedValue::NONE.0.to_le_bytes();
                batch.holes =
                    batch.bytes.chunks_exact(width as usize).filter(|c| *c == &none[..width as usize]).count() as u64;
            }
            Ok(Ok(batch))
        };
        let mut holes = 0u64;
        let blocks_of = |worker: &mut Worker, rounds: &mut Rounds, batch: u64| {
            let gathered = match gather(worker, rounds, batch)? {
                Ok(gathered) => gathered,
                Err(message) => return Ok(Err(gsolve_tablebase::Error::Unwritable(message))),
            };
            holes += gathered.holes;
            if worker.index() != 0 {
                return Ok(Ok(Vec::new()));
            }
            let first = batch * per_batch;
            let blocks: Vec<u64> = (first..(first + per_batch).min(header.block_count)).collect();
            let values = BatchValues { batch: &gathered, len: index_size, max_code };
            Ok(write::compress_blocks(&header, &values, &blocks, target.options.level))
        };
        let outcome =
            crate::build::write_batches(worker, rounds, &target.path, &header, &target.options, batches, blocks_of)?;
        let outcome = outcome.map(|written| written.map(|written| Written { holes: Some(holes), ..written }));
        // Everyone learns whether the file was written; then each process
        // removes its work directory (kept when the file is not written, for a
        // run that goes on from it).
        let problem = match &outcome {
            Some(Err(e)) => Some(e.to_string()),
            _ => None,
        };
        let written = agree(worker, rounds, problem)?;
        if written.is_ok() && self.first_of_process {
            let top = self.top;
            drop(self.mine);
            if let Err(e) = top.remove() {
                // Another process on a shared file system may have removed it.
                if !matches!(&e, gsolve_tablebase::Error::Io(io) if io.kind() == std::io::ErrorKind::NotFound) {
                    eprintln!("gsolve: worker {}: {e}", self.me);
                }
            }
        }
        Ok(match outcome {
            None => Ok(None),
            Some(Ok(written)) => Ok(Some(written)),
            Some(Err(e)) => Err(BuildError::Write(e)),
        })
    }
}

/// Raw (uncompressed) bytes of values gathered to process 0 in one round.
/// Process 0 holds them twice while it lays them out (as received, and laid
/// out), so a large gather raises its peak above the other processes'; 16 MiB is
/// still a few rounds a gigabyte.
const GATHER_RAW_BYTES: u64 = 16 << 20;

/// The codes of one batch of the index, laid out by process 0.
struct Batch {
    start: u64,
    width: u8,
    bytes: Vec<u8>,
    holes: u64,
}

/// A batch as the writer reads it (only the batch's blocks are asked for).
struct BatchValues<'a> {
    batch: &'a Batch,
    len: u64,
    max_code: u32,
}

impl Values for BatchValues<'_> {
    fn len(&self) -> u64 {
        self.len
    }
    fn max_code(&self) -> u32 {
        self.max_code
    }
    fn fill(&self, range: Range<u64>, width: u8, out: &mut Vec<u8>) -> std::io::Result<()> {
        debug_assert_eq!(width, self.batch.width);
        let w = width as u64;
        let (from, to) = ((range.start - self.batch.start) * w, (range.end - self.batch.start) * w);
        out.extend_from_slice(&self.batch.bytes[from as usize..to as usize]);
        Ok(())
    }
}

/// A round in which every worker says whether it failed: `Err` with a failing
/// worker's message (this worker's own, if it failed) when any did.
pub(super) fn agree(
    worker: &mut Worker,
    rounds: &mut Rounds,
    problem: Option<String>,
) -> Result<Result<(), String>, Lost> {
    let parcels = match &problem {
        Some(message) => {
            (0..worker.peers()).map(|to| (to, worker.index() as u64, message.clone().into_bytes())).collect()
        }
        None => Vec::new(),
    };
    let received = rounds.gather(worker, parcels)?;
    Ok(match (problem, received.into_iter().next()) {
        (Some(mine), _) => Err(mine),
        (None, Some((_, message))) => Err(String::from_utf8_lossy(&message).into_owned()),
        (None, None) => Ok(()),
    })
}
