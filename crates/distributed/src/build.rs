//! A distributed solve written as a tablebase: each worker compresses the blocks
//! of the chunks it owns, worker 0 gathers them in block order and writes the
//! file. The header is planned from the whole run's largest code, so the file is
//! the one the single-process build writes, byte for byte.

use crate::cluster::Lost;
use crate::partition::Partition;
use crate::retrograde::Part;
use crate::rounds::Rounds;
use gsolve_tablebase::format::Header;
use gsolve_tablebase::write::{self, Identity, StoredIdentity, Values, WriteOptions, Written};
use timely::worker::Worker;

/// A worker's part, seen as the values of the indices it owns (only those may be
/// asked for).
struct PartValues<'a> {
    part: &'a Part,
    partition: &'a Partition,
}

impl Values for PartValues<'_> {
    fn len(&self) -> u64 {
        self.partition.size
    }
    fn max_code(&self) -> u32 {
        self.part.max_code()
    }
    fn fill(&self, range: std::ops::Range<u64>, width: u8, out: &mut Vec<u8>) -> std::io::Result<()> {
        // A block lies within one chunk, so its indices are contiguous here.
        let start = self.partition.local(range.start);
        for local in start..start + (range.end - range.start) as usize {
            let code = self.part.code(local);
            out.extend_from_slice(&code.to_le_bytes()[..width as usize]);
        }
        Ok(())
    }
}

/// How a written build went, on worker 0; `None` on the other workers.
pub type Outcome = Option<Result<Written, gsolve_tablebase::Error>>;

/// Writes the tablebase of a solve whose parts the workers hold. Every worker
/// calls it; worker 0 writes `path` and returns what it wrote.
///
/// The partition's chunks must hold whole blocks (chunks of at least
/// `options.block_bytes` indices, a multiple of the block length).
pub fn write_parts(
    worker: &mut Worker,
    rounds: &mut Rounds,
    part: &Part,
    identity: &Identity<'_>,
    path: &std::path::Path,
    options: &WriteOptions,
) -> Result<Outcome, Lost> {
    write_parts_in_batches(worker, rounds, part, identity, path, options, GATHER_RAW_BYTES)
}

/// [`write_parts`], gathering to process 0 the blocks of `batch_raw_bytes` of
/// values (uncompressed) a round.
pub fn write_parts_in_batches(
    worker: &mut Worker,
    rounds: &mut Rounds,
    part: &Part,
    identity: &Identity<'_>,
    path: &std::path::Path,
    options: &WriteOptions,
    batch_raw_bytes: u64,
) -> Result<Outcome, Lost> {
    let partition = *rounds.partition();
    let me = worker.index();
    let values = PartValues { part, partition: &partition };
    let summary = [values.max_code() as u64, part.holes()];
    let summaries = rounds.finish(worker, &summary, &mut |_| unreachable!("no updates"))?;
    let max_code = summaries.iter().map(|s| s[0]).max().unwrap_or(0) as u32;
    // Counted here, where every value is seen, for the report.
    let holes = summaries.iter().map(|s| s[1]).sum::<u64>();
    let header = write::plan(identity, partition.size, max_code, options);
    let header = match header {
        Ok(header) => header,
        Err(e) => {
            // Every worker planned the same header and fails the same way.
            rounds.gather(worker, Vec::new())?;
            return Ok((me == 0).then_some(Err(e)));
        }
    };
    // The file is gathered a batch of blocks at a time, in file order, every
    // worker taking part in each batch's round: process 0 holds one batch of
    // compressed blocks, not the whole file (which can be many times its
    // memory in a build spread over machines).
    let blocks = owned_blocks(&header, &partition, me);
    let raw_block = header.block_positions as u64 * header.value_width as u64;
    let per_batch = (batch_raw_bytes / raw_block.max(1)).max(1);
    let batches = header.block_count.div_ceil(per_batch);
    let level = options.level;
    let gather = |worker: &mut Worker, rounds: &mut Rounds, batch: u64| {
        let range = batch * per_batch..((batch + 1) * per_batch).min(header.block_count);
        let mine: Vec<u64> = blocks.iter().copied().filter(|b| range.contains(b)).collect();
        let parcels = match write::compress_blocks(&header, &values, &mine, level) {
            Ok(compressed) => mine.into_iter().zip(compressed).map(|(block, bytes)| (0usize, block, bytes)).collect(),
            Err(e) => {
                // Worker 0 then misses blocks: the writer refuses the file.
                eprintln!("worker {me}: cannot compress: {e}");
                Vec::new()
            }
        };
        Ok(Ok(rounds.gather(worker, parcels)?.into_iter().map(|(_, bytes)| bytes).collect()))
    };
    let written = write_batches(worker, rounds, path, &header, options, batches, gather)?;
    Ok(written.map(|written| written.map(|written| Written { holes: Some(holes), ..written })))
}

/// The rounds of a file gathered to process 0 a batch at a time: `gather(worker,
/// rounds, batch)` takes part in batch `batch`'s round on every worker and, on
/// worker 0, returns the batch's compressed blocks in file order, which worker 0
/// writes to `path` as `header` lays them out. Every worker takes part in every
/// batch's round, also after a write that failed part-way, so that no peer
/// waits for a round that never comes. Worker 0 returns what it wrote.
pub(crate) fn write_batches(
    worker: &mut Worker,
    rounds: &mut Rounds,
    path: &std::path::Path,
    header: &Header,
    options: &WriteOptions,
    batches: u64,
    mut gather: impl FnMut(&mut Worker, &mut Rounds, u64) -> Result<gsolve_tablebase::Result<Vec<Vec<u8>>>, Lost>,
) -> Result<Outcome, Lost> {
    if worker.index() != 0 {
        // What fails here is told to worker 0, which fails the write.
        for batch in 0..batches {
            let _ = gather(worker, rounds, batch)?;
        }
        return Ok(None);
    }
    let (mut batch, mut lost) = (0u64, None);
    let written = write::write_blocks(
        path,
        header.clone(),
        |_| {
            if batch == batches {
                return Ok(None);
            }
            batch += 1;
            match gather(worker, rounds, batch - 1) {
                Ok(blocks) => blocks.map(Some),
                Err(e) => {
                    lost = Some(e);
                    Err(gsolve_tablebase::Error::Io(std::io::Error::other("a process of the build is gone")))
                }
            }
        },
        options,
        None,
    );
    if let Some(lost) = lost {
        return Err(lost);
    }
    while batch < batches {
        let _ = gather(worker, rounds, batch)?;
        batch += 1;
    }
    Ok(Some(written))
}

/// Raw (uncompressed) bytes of values gathered to process 0 in one round.
const GATHER_RAW_BYTES: u64 = 64 << 20;

/// The blocks of `header` that lie in `worker`'s chunks.
fn owned_blocks(header: &Header, partition: &Partition, worker: usize) -> Vec<u64> {
    let block = header.block_positions as u64;
    assert_eq!((1u64 << partition.chunk_shift) % block, 0, "chunks must hold whole blocks");
    partition.ranges(worker).flat_map(|range| range.start / block..range.end.div_ceil(block)).collect()
}

/// Receives progress reports in a distributed build (worker 0 of process 0 only).
pub type SharedObserver = std::sync::Arc<dyn Fn(gsolve_engine::Progress) + Send + Sync>;

/// Where a distributed build writes, and how.
#[derive(Clone)]
pub struct Target {
    /// The file (written by process 0 only).
    pub path: std::path::PathBuf,
    /// How to write it.
    pub options: WriteOptions,
    /// Progress of the whole run, shown by process 0.
    pub progress: Option<SharedObserver>,
}

/// What a distributed build did, on each process.
#[derive(Clone, Debug)]
pub struct Report {
    /// What process 0 wrote (`None` on the other processes).
    pub written: Option<Written>,
    /// Updates (8 bytes each, 12 for a tie) the workers of the run sent to
    /// workers of other processes during the solve.
    pub updates_away: u64,
    /// Bytes of compressed blocks sent to process 0 by the other processes.
    pub block_bytes_away: u64,
    /// Rounds the solve took.
    pub rounds: u64,
}

/// Solves a game with un-moves by distributed retrograde analysis over the
/// cluster and writes its tablebase on process 0: the same file, byte for byte,
/// as the single-process build. Every process calls it with the same game and
/// `job` (a description of the build, checked when processes connect).
///
/// `stored` is what the file says it holds: the game `game` solves (which may
/// be a faster form of it, with the same index).
pub fn build_retrograde<G>(
    cluster: &crate::Cluster,
    job: &str,
    game: std::sync::Arc<G>,
    stored: StoredIdentity,
    target: Target,
) -> Result<Report, BuildError>
where
    G: gsolve_engine::Unmoves + Send + Sync + 'static,
{
    let threads = cluster.threads;
    let lead = cluster.process == 0;
    let results = crate::cluster::run(cluster, job, move |worker| {
        let partition = Partition::new(game.index_size(), worker.peers(), Partition::DEFAULT_CHUNK_SHIFT);
        let mut rounds = Rounds::new(worker, partition, threads);
        let observe = target.progress.clone().filter(|_| lead && worker.index() == 0);
        let observer = observe.as_ref().map(|o| move |p| o(p));
        let options = crate::retrograde::Options {
            progress: observer.as_ref().map(|o| o as &(dyn Fn(gsolve_engine::Progress) + Sync)),
            frontier_limit: None,
        };
        let part = crate::retrograde::solve(worker, &mut rounds, &*game, &options)?;
        let outcome = write_parts(worker, &mut rounds, &part, &stored.identity(), &target.path, &target.options)?;
        drop(part);
        // The traffic of the whole run, for the report.
        let summary = [rounds.sent_away, rounds.parcel_bytes_away];
        let totals = rounds.finish(worker, &summary, &mut |_| unreachable!("no updates"))?;
        let total = |i: usize| totals.iter().map(|s| s[i]).sum::<u64>();
        Ok((outcome, total(0), total(1), rounds.round()))
    })?;
    let mut report = Report { written: None, updates_away: 0, block_bytes_away: 0, rounds: 0 };
    for (outcome, updates, bytes, rounds) in results {
        // Every worker has the totals.
        report.updates_away = updates;
        report.block_bytes_away = bytes;
        report.rounds = rounds;
        if let Some(outcome) = outcome {
            report.written = Some(outcome.map_err(BuildError::Write)?);
        }
    }
    Ok(report)
}

/// Why a distributed build failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The run failed (a peer, the connections, the setup).
    #[error(transparent)]
    Run(#[from] crate::Error),
    /// Process 0 could not write the file.
    #[error(transparent)]
    Write(gsolve_tablebase::Error),
}
