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
    let partition = *rounds.partition();
    let me = worker.index();
    let values = PartValues { part, partition: &partition };
    let summaries = rounds.finish(worker, &[values.max_code() as u64], &mut |_| unreachable!("no updates"))?;
    let max_code = summaries.iter().map(|s| s[0]).max().unwrap_or(0) as u32;
    let header = write::plan(identity, partition.size, max_code, options);
    let header = match header {
        Ok(header) => header,
        Err(e) => {
            // Every worker planned the same header and fails the same way.
            rounds.gather(worker, Vec::new())?;
            return Ok((me == 0).then_some(Err(e)));
        }
    };
    let blocks = owned_blocks(&header, &partition, me);
    let parcels = match write::compress_blocks(&header, &values, &blocks, options.level) {
        Ok(compressed) => blocks.into_iter().zip(compressed).map(|(block, bytes)| (0usize, block, bytes)).collect(),
        Err(e) => {
            eprintln!("worker {me}: cannot compress: {e}");
            Vec::new()
        }
    };
    let received = rounds.gather(worker, parcels)?;
    if me != 0 {
        return Ok(None);
    }
    let mut batches = Some(received.into_iter().map(|(_, bytes)| bytes).collect::<Vec<_>>());
    let written = write::write_blocks(path, header, |_| Ok(batches.take()), options, None);
    Ok(Some(written))
}

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
