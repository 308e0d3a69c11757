//! A tiered game's build over many workers, in the same file, byte for byte,
//! as the single-process tiered build ([`gsolve_tablebase::tiers::build`]). No
//! file system need be shared: each worker keeps its part of every finished
//! tier in a work directory of its own process (`store.rs`).
//!
//! # The steps
//! 0. **open** the work directories and agree on the tiers every worker
//!    finished before: a run stopped at any point, on any process, goes on
//!    from them.
//! 1. **small tiers side by side** (`waves.rs`): a run of tiers that do not read
//!    each other, each at most [`Options::small`] positions with the tiers it
//!    reads, is dealt whole, one tier to one worker, and solved there by the
//!    engine's single-process tier solve: three rounds for the whole run,
//!    where each tier split would take a round a layer.
//! 2. **large tiers split** over every worker (`split.rs`; `cyclic.rs` for
//!    tiers that may have cycles, see below), each worker owning
//!    the tier's indices that [`Partition`] deals it and holding its own part
//!    of each child tier, the same way:
//!    - the tier goes in *steps*, parts whose children in the tier all lie in
//!      earlier parts: the game's layers ([`Tiered::for_each_layer_in_tier`]),
//!      or classes of equal progress from the greatest down
//!      ([`Tiered::progress_bound`]; each worker sorts its own positions by
//!      progress); long parts go in pieces. For each:
//!    - each worker lists the children of its positions that are owned by
//!      another worker: in this tier (an earlier part: solved already) or in a
//!      child tier, and asks their owners (8 bytes a child);
//!    - the owners answer with the codes (4 bytes a child), in the next round,
//!      which carries the next part's questions too: one round a part;
//!    - each worker values its positions: the best of its children's values from
//!      the parent's side, as the single-process sweep does.
//!
//!    Codes are kept `width` bytes each (1, else 2, else 4: the whole run
//!    widens together, as the single-process tier does); each worker then
//!    keeps its part.
//! 3. **write**: process 0 writes the file from the codes every worker sends
//!    it, a batch of the index a round, in index order; then each process
//!    removes its work directory.
//!
//! A large tier that may have cycles (the game gives neither its layers nor a
//! progress measure: a rules game of kings that step any way) is split over every
//! worker too, and solved by retrograde analysis within it (`cyclic.rs`): one
//! round a level, as the whole-game retrograde ([`crate::retrograde`]) goes,
//! with the tier's moves to solved tiers as events at their levels.

mod cyclic;
mod split;
mod store;
mod waves;

use crate::build::{BuildError, Report, Target};
use crate::cluster::Lost;
use crate::partition::Partition;
use crate::rounds::Rounds;
use gsolve_engine::tiered::sweep_of;
use gsolve_engine::{Indexed, Tiered};
use gsolve_tablebase::write::StoredIdentity;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use store::Store;
use timely::worker::Worker;
use waves::{solve_side_by_side, wave_from};

/// How a tiered build deals its tiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// A tier whose positions, with those of the child tiers it reads, number
    /// at most this many is *small*: solved whole by one worker, beside other
    /// small tiers that do not read each other ([`Options::wave`]). Larger
    /// tiers are split over every worker. 0: every tier is split.
    pub small: u64,
    /// The most positions (of the tiers solved, not of the tiers they read) one
    /// wave of small tiers holds: what a worker solves and sends in one round.
    pub wave: u64,
}

impl Default for Options {
    /// Small: up to 2^22 positions with the tiers read (at most a few tens of
    /// MB for one worker, beside a large tier's share); a wave of up to 2^26
    /// positions (64 MB of 1-byte codes sent to their owners in one round).
    fn default() -> Options {
        Options { small: 1 << 22, wave: 1 << 26 }
    }
}

/// Builds a tiered game's tablebase over the cluster: see the module
/// documentation. Every process calls it with the same game, `job` and
/// options; `work_dir` is where this process keeps its parts (its own, or one
/// every process shares). `game` is the game solved, `stored` the game the
/// file and the work directories say they hold (`game` may be a faster form of
/// it with the same tiers and indices).
pub fn build_tiered<G>(
    cluster: &crate::Cluster,
    job: &str,
    game: Arc<G>,
    stored: StoredIdentity,
    work_dir: PathBuf,
    target: Target,
    options: Options,
) -> Result<Report, BuildError>
where
    G: Tiered + Indexed + Send + Sync + 'static,
{
    let threads = cluster.threads;
    let results = crate::cluster::run(cluster, job, move |worker| {
        // Updates (of a tier solved by retrograde) go to their owners by the
        // tiers' partition, whatever the tier's size: an owner depends only on
        // the chunk.
        let tiers_partition = Partition::new(0, worker.peers(), Partition::DEFAULT_CHUNK_SHIFT);
        let mut rounds = Rounds::new(worker, tiers_partition, threads);
        let outcome = run_worker(worker, &mut rounds, &*game, &stored, &work_dir, &target, &options, threads)?;
        let totals = rounds
            .finish(worker, &[rounds.parcel_bytes_away, rounds.sent_away], &mut |_| unreachable!("no updates"))?;
        let bytes = totals.iter().map(|s| s[0]).sum::<u64>();
        let updates = totals.iter().map(|s| s[1]).sum::<u64>();
        Ok((outcome, bytes, updates, rounds.round()))
    })?;
    let mut report = Report { written: None, updates_away: 0, block_bytes_away: 0, rounds: 0 };
    for (outcome, bytes, updates, rounds) in results {
        report.block_bytes_away = bytes;
        report.updates_away = updates;
        report.rounds = rounds;
        match outcome {
            Ok(Some(written)) => report.written = Some(written),
            Ok(None) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(report)
}

/// A failure every worker agrees on, reported by the lead worker.
fn failed(message: String) -> BuildError {
    BuildError::Write(gsolve_tablebase::Error::Unwritable(message))
}

/// One worker's build. `Ok(Err(..))`: the build failed, the same way everywhere.
#[allow(clippy::type_complexity)]
#[allow(clippy::too_many_arguments)]
fn run_worker<G: Tiered + Indexed + Sync>(
    worker: &mut Worker,
    rounds: &mut Rounds,
    game: &G,
    stored: &StoredIdentity,
    work_dir: &Path,
    target: &Target,
    options: &Options,
    threads: usize,
) -> Result<Result<Option<gsolve_tablebase::Written>, BuildError>, Lost> {
    let tiers = game.tiers();
    let identity = stored.identity();
    let lead = worker.index() == 0;
    // The work directories, and the tiers every worker finished before (a
    // stopped build goes on from them).
    let mut store = match Store::open(worker, rounds, game, &tiers, work_dir, &identity, threads)? {
        Ok(store) => store,
        Err(message) => return Ok(Err(failed(message))),
    };
    let total: u64 = tiers.iter().map(|&t| game.tier_size(t)).sum();
    let mut done = 0u64;
    let mut number = 0;
    while number < tiers.len() {
        let wave = wave_from(game, &tiers, &store, number, options);
        let end = if !wave.is_empty() {
            if let Err(message) = solve_side_by_side(worker, rounds, game, &tiers, &wave, &mut store)? {
                return Ok(Err(failed(message)));
            }
            wave.end
        } else {
            if !store.finished(number) {
                let tier = tiers[number];
                let name = game.tier_name(tier);
                let solved = match sweep_of(game, tier) {
                    Some(_) => split::solve_tier(worker, rounds, game, tier, &tiers, &store)?,
                    None => cyclic::solve_tier(worker, rounds, game, tier, &tiers, &store)?,
                };
                let (codes, width, max_code) = match solved {
                    Ok(solved) => solved,
                    Err(message) => return Ok(Err(failed(message))),
                };
                if let Err(message) = store.save(worker, rounds, &name, number, width, codes.bytes, max_code)? {
                    return Ok(Err(failed(message)));
                }
            }
            number + 1
        };
        done += tiers[number..end].iter().map(|&t| game.tier_size(t)).sum::<u64>();
        number = end;
        if lead {
            if let Some(observe) = &target.progress {
                observe(gsolve_engine::Progress::new("tiers", done, total));
            }
        }
    }
    store.write(worker, rounds, game, &tiers, &identity, target)
}

/// The tiers read by `tier` (its child tiers other than itself), by number.
fn read_by<G: Tiered>(game: &G, tiers: &[G::Tier], tier: G::Tier) -> Vec<usize> {
    let mut read: Vec<usize> = game
        .child_tiers(tier)
        .into_iter()
        .filter(|&c| c != tier)
        .filter_map(|c| tiers.iter().position(|&t| t == c))
        .collect();
    read.sort_unstable();
    read.dedup();
    read
}
