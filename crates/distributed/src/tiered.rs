//! A tiered game's build over many workers: each tier's index split over the
//! workers ([`Partition`]), solved layer by layer, saved in the work directory
//! that every process sees, then assembled by process 0 into the same file, byte
//! for byte, as the single-process tiered build
//! ([`gsolve_tablebase::tiers::build`]).
//!
//! # The steps, for each tier not finished yet
//! 1. **read** this worker's part of each child tier (dealt like the tier
//!    itself, by [`Partition`]) from the finished tier files in the work
//!    directory: no process holds a whole tier.
//! 2. **steps**: the tier in parts whose children in the tier all lie in earlier
//!    parts ([`Steps`]): the game's layers ([`Tiered::for_each_layer_in_tier`]),
//!    or classes of equal progress from the greatest down
//!    ([`Tiered::progress_bound`]; each worker sorts its own positions by
//!    progress); long parts go in pieces. For each:
//!    - each worker lists the children of its positions that are owned by
//!      another worker: in this tier (an earlier part: solved already) or in a
//!      child tier, and asks their owners (8 bytes a child);
//!    - the owners answer with the codes (4 bytes a child), in the next round,
//!      which carries the next part's questions too: one round a part;
//!    - each worker values its positions: the best of its children's values from
//!      the parent's side, as the single-process sweep does.
//! 3. **save**: codes are kept `width` bytes each (1, else 2, else 4: the whole
//!    run widens together, as the single-process tier does); process 0 creates the
//!    tier's file, every worker writes its chunks at their offsets, process 0
//!    checks and lists it as finished. A build stopped at any point goes on from
//!    the last finished tier when started again.
//!
//! Only tiers without cycles by the game's word are solved here: layered (pawn
//! chess) or measured by progress (pawn-like rules games: Breakthrough, pawns,
//! placing games). A tier that may have cycles is refused by name.

use crate::build::{BuildError, Report, Target};
use crate::cluster::Lost;
use crate::partition::Partition;
use crate::rounds::Rounds;
use gsolve_engine::tiered::{sweep_of, Sweep};
use gsolve_engine::{ChildAt, Indexed, PackedValue, Scan, Tiered, Value};
use gsolve_tablebase::tiers::{self, WorkDir};
use gsolve_tablebase::write::StoredIdentity;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use timely::worker::Worker;

/// Builds a tiered game's tablebase over the cluster: see the module
/// documentation. Every process calls it with the same game, `job` and work
/// directory (a directory every process sees, at the same path). `game` is the
/// game solved, `stored` the game the file and the work directory say they hold
/// (`game` may be a faster form of it with the same tiers and indices).
pub fn build_tiered<G>(
    cluster: &crate::Cluster,
    job: &str,
    game: Arc<G>,
    stored: StoredIdentity,
    work_dir: PathBuf,
    target: Target,
) -> Result<Report, BuildError>
where
    G: Tiered + Indexed + Send + Sync + 'static,
{
    build_tiered_with(cluster, job, game, stored, work_dir, target, Options::default())
}

/// How a tiered build deals its tiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// A tier whose positions, with those of the child tiers it reads, number
    /// at most this many is *small*: solved whole by one worker, beside other
    /// small tiers that do not read each other ([`Options::wave`]). Larger
    /// tiers are split over every worker. 0: every tier is split.
    pub small: u64,
    /// The most positions (of the tiers solved, not of the tiers they read) one
    /// wave of small tiers holds: process 0 writes every tier of a wave from
    /// what it is sent in one round.
    pub wave: u64,
}

impl Default for Options {
    /// Small: up to 2^22 positions with the tiers read (at most a few tens of
    /// MB for one worker, beside a large tier's share); a wave of up to 2^26
    /// positions (64 MB of 1-byte codes sent to process 0 in one round).
    fn default() -> Options {
        Options { small: 1 << 22, wave: 1 << 26 }
    }
}

/// [`build_tiered`] with [`Options`] other than the default.
pub fn build_tiered_with<G>(
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
    let lead_process = cluster.process == 0;
    let results = crate::cluster::run(cluster, job, move |worker| {
        let lead = lead_process && worker.index() == 0;
        // Only parcels and summaries travel here: the partition of updates is unused.
        let mut rounds = Rounds::new(worker, Partition::new(0, worker.peers(), 0), threads);
        let outcome = run_worker(worker, &mut rounds, &*game, &stored, &work_dir, &target, &options, lead)?;
        let totals = rounds.finish(worker, &[rounds.parcel_bytes_away], &mut |_| unreachable!("no updates"))?;
        Ok((outcome, totals.iter().map(|s| s[0]).sum::<u64>(), rounds.round()))
    })?;
    let mut report = Report { written: None, updates_away: 0, block_bytes_away: 0, rounds: 0 };
    for (outcome, bytes, rounds) in results {
        report.block_bytes_away = bytes;
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

/// The words of a byte string of u64s.
fn words(bytes: &[u8]) -> impl Iterator<Item = u64> + '_ {
    bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
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
    lead: bool,
) -> Result<Result<Option<gsolve_tablebase::Written>, BuildError>, Lost> {
    let tiers = game.tiers();
    let identity = stored.identity();

    // The lead opens the work directory (resuming a stopped build) and tells
    // everyone the width of each finished tier (0: not finished).
    let mut work = None;
    let mut widths = vec![0u64; tiers.len()];
    let mut problem = None;
    if lead {
        match WorkDir::open(work_dir, &identity) {
            Ok(opened) => {
                for (i, &tier) in tiers.iter().enumerate() {
                    if let Some((_, width, _)) = opened.tier_file(&game.tier_name(tier)) {
                        widths[i] = width as u64;
                    }
                }
                work = Some(opened);
            }
            Err(e) => problem = Some(e.to_string()),
        }
        if problem.is_none() {
            if let Some(tier) = tiers.iter().find(|&&t| sweep_of(game, t).is_none()) {
                problem = Some(format!(
                    "tier {} may have cycles (the game gives neither its layers nor a progress measure): \
                     distributed builds solve such tiers only with the whole game",
                    game.tier_name(*tier)
                ));
            }
        }
    }
    // The widths, or what is wrong (so that every process says it).
    let bytes: Vec<u8> = match &problem {
        Some(problem) => problem.as_bytes().to_vec(),
        None => widths.iter().flat_map(|w| w.to_le_bytes()).collect(),
    };
    let flag = problem.is_some() as u64;
    let parcels = if lead { (0..worker.peers()).map(|to| (to, flag, bytes.clone())).collect() } else { Vec::new() };
    let received = rounds.gather(worker, parcels)?;
    let (flag, bytes) = received.into_iter().next().expect("the lead sends to everyone");
    if flag != 0 {
        return Ok(Err(failed(String::from_utf8_lossy(&bytes).into_owned())));
    }
    let mut widths: Vec<u8> = words(&bytes).map(|w| w as u8).collect();

    let total: u64 = tiers.iter().map(|&t| game.tier_size(t)).sum();
    let mut done = 0u64;
    let mut number = 0;
    while number < tiers.len() {
        let wave = wave_from(game, &tiers, &widths, number, options);
        if !wave.is_empty() {
            let solved = solve_side_by_side(worker, rounds, game, &tiers, &wave, &mut widths, work.as_mut(), work_dir)?;
            if let Err(message) = solved {
                return Ok(Err(failed(message)));
            }
            let end = wave.end;
            done += tiers[number..end].iter().map(|&t| game.tier_size(t)).sum::<u64>();
            number = end;
            if lead {
                if let Some(observe) = &target.progress {
                    observe(gsolve_engine::Progress::new("tiers", done, total));
                }
            }
            continue;
        }
        let tier = tiers[number];
        let size = game.tier_size(tier);
        if widths[number] == 0 {
            let name = game.tier_name(tier);
            let solved = solve_tier(worker, rounds, game, tier, &tiers, &widths, work_dir)?;
            let (codes, width, max_code) = match solved {
                Ok(solved) => solved,
                Err(message) => return Ok(Err(failed(message))),
            };
            if let Err(message) = save(worker, rounds, game, tier, &codes, width, max_code, work.as_mut(), work_dir)? {
                return Ok(Err(failed(format!("tier {name}: {message}"))));
            }
            widths[number] = width;
        }
        done += size;
        number += 1;
        if lead {
            if let Some(observe) = &target.progress {
                observe(gsolve_engine::Progress::new("tiers", done, total));
            }
        }
    }
    if !lead {
        return Ok(Ok(None));
    }
    let work = work.expect("the lead opened the work directory");
    match tiers::assemble(game, &identity, &target.path, work, &target.options, None) {
        Ok(written) => Ok(Ok(Some(written))),
        Err(e) => Ok(Err(BuildError::Write(e))),
    }
}

/// The tier file of `name` in `work_dir`, and its temporary name.
fn tier_paths(work_dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    (work_dir.join(format!("{name}.tier")), work_dir.join(format!("{name}.tier.tmp")))
}

/// This worker's codes of a tier, `width` bytes each, in partition order.
struct Codes {
    width: u8,
    bytes: Vec<u8>,
}

impl Codes {
    fn get(&self, local: usize) -> u32 {
        let w = self.width as usize;
        let mut word = [0u8; 4];
        word[..w].copy_from_slice(&self.bytes[local * w..local * w + w]);
        u32::from_le_bytes(word)
    }
    fn set(&mut self, local: usize, code: u32) {
        let w = self.width as usize;
        self.bytes[local * w..local * w + w].copy_from_slice(&code.to_le_bytes()[..w]);
    }
}

/// The most positions of the tier valued in one round (by all workers together).
const PIECE: u64 = 1 << 14;

/// This worker's part of a finished child tier, read from its file.
struct Held<T> {
    tier: T,
    partition: Partition,
    codes: Codes,
}

/// Where a child's code is: `slot` 0 is the tier being solved, slot `s` the
/// child tier `held[s − 1]`.
fn slot_of<T: PartialEq>(tier: T, child: T, held: &[Held<T>]) -> Option<usize> {
    if child == tier {
        return Some(0);
    }
    held.iter().position(|h| h.tier == child).map(|at| at + 1)
}

/// The code of index `i` of `slot`, held by this worker: in `codes` (the tier
/// being solved, dealt by `partition`) or in a child tier's part.
fn own_code<T>(slot: usize, i: u64, codes: &Codes, partition: &Partition, held: &[Held<T>]) -> u32 {
    match slot {
        0 => codes.get(partition.local(i)),
        _ => {
            let h = &held[slot - 1];
            h.codes.get(h.partition.local(i))
        }
    }
}

/// A parcel's key: the slot of the codes it asks for or answers, the sender,
/// and whether it is an answer.
fn key(slot: usize, from: usize, answer: bool) -> u64 {
    (slot as u64) << 33 | (from as u64) << 1 | answer as u64
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

/// A wave of small tiers from tier `number` on ([`Options::small`]): tiers
/// `number..end` in solving order, none reading another one of them that is
/// not finished yet, the unfinished ones all small, together at most
/// [`Options::wave`] positions. Empty where tier `number` is finished or not
/// small (it is then skipped, or split over the workers).
struct Wave {
    /// The unfinished tiers of the wave, by number.
    tiers: Vec<usize>,
    /// One past the wave's last tier.
    end: usize,
}

impl Wave {
    fn is_empty(&self) -> bool {
        self.tiers.is_empty()
    }
}

fn wave_from<G: Tiered>(game: &G, tiers: &[G::Tier], widths: &[u8], number: usize, options: &Options) -> Wave {
    let small = |n: usize| {
        let read: u64 = read_by(game, tiers, tiers[n]).iter().map(|&c| game.tier_size(tiers[c])).sum();
        game.tier_size(tiers[n]) + read <= options.small
    };
    let mut wave = Wave { tiers: Vec::new(), end: number };
    if widths[number] != 0 || !small(number) {
        return wave;
    }
    let mut positions = 0u64;
    for n in number..tiers.len() {
        if widths[n] == 0 {
            let size = game.tier_size(tiers[n]);
            let reads_the_wave = read_by(game, tiers, tiers[n]).iter().any(|c| wave.tiers.contains(c));
            if !small(n) || reads_the_wave || !wave.tiers.is_empty() && positions + size > options.wave {
                break;
            }
            positions += size;
            wave.tiers.push(n);
        }
        wave.end = n + 1;
    }
    wave
}

/// A wave of small tiers, solved side by side: each dealt whole to one worker
/// (the largest first, each to the worker with the fewest positions so far:
/// the same deal everywhere), solved there by the engine's single-process tier
/// solve from the finished tiers it reads, whole, and sent to process 0, which
/// saves them. Two rounds a wave, where a split tier takes one a step.
/// `Ok(Err(..))`: a tier could not be solved or saved (everywhere at once).
#[allow(clippy::too_many_arguments)]
fn solve_side_by_side<G: Tiered + Sync>(
    worker: &mut Worker,
    rounds: &mut Rounds,
    game: &G,
    tiers: &[G::Tier],
    wave: &Wave,
    widths: &mut [u8],
    work: Option<&mut WorkDir>,
    work_dir: &Path,
) -> Result<Result<(), String>, Lost> {
    const FAILED: u64 = u64::MAX;
    let (me, peers) = (worker.index(), worker.peers());
    let mut by_size = wave.tiers.clone();
    by_size.sort_by_key(|&n| (std::cmp::Reverse(game.tier_size(tiers[n])), n));
    let mut load = vec![0u64; peers];
    let mut parcels = Vec::new();
    for n in by_size {
        let least = (0..peers).min_by_key(|&w| (load[w], w)).expect("a worker");
        load[least] += game.tier_size(tiers[n]);
        if least != me {
            continue;
        }
        match solve_whole(game, tiers, tiers[n], widths, work_dir) {
            Ok(values) => {
                let mut bytes = Vec::with_capacity(values.bytes().len() + 1);
                bytes.push(values.width());
                bytes.extend_from_slice(values.bytes());
                parcels.push((0, n as u64, bytes));
            }
            Err(message) => {
                parcels.push((0, FAILED, message.into_bytes()));
                break;
            }
        }
    }
    // Process 0's first worker saves them, then tells everyone the widths (or
    // the first failure).
    let received = rounds.gather(worker, parcels)?;
    let mut problem = None;
    let mut saved = Vec::new();
    if let Some(work) = work {
        for (key, bytes) in received {
            if problem.is_some() {
                break;
            }
            if key == FAILED {
                problem = Some(String::from_utf8_lossy(&bytes).into_owned());
                continue;
            }
            let (n, width) = (key as usize, bytes[0]);
            let values = gsolve_engine::tiered::TierValues::from_bytes(width, bytes[1..].to_vec());
            let name = game.tier_name(tiers[n]);
            match work.save(&name, &values) {
                Ok(()) => saved.extend([n as u64, width as u64]),
                Err(e) => problem = Some(format!("tier {name}: {e}")),
            }
        }
    }
    let lead = me == 0;
    let parcels = match (&problem, lead) {
        (_, false) => Vec::new(),
        (Some(problem), true) => (0..peers).map(|to| (to, 1, problem.as_bytes().to_vec())).collect(),
        (None, true) => (0..peers).map(|to| (to, 0, saved.iter().flat_map(|w| w.to_le_bytes()).collect())).collect(),
    };
    let (flag, bytes) = rounds.gather(worker, parcels)?.into_iter().next().expect("the lead sends to everyone");
    if flag != 0 {
        return Ok(Err(String::from_utf8_lossy(&bytes).into_owned()));
    }
    let saved: Vec<u64> = words(&bytes).collect();
    for pair in saved.chunks_exact(2) {
        widths[pair[0] as usize] = pair[1] as u8;
    }
    Ok(Ok(()))
}

/// One small tier solved whole by the engine, from the finished tiers it reads,
/// read whole. A game that breaks the [`Tiered`] invariants makes the engine
/// panic: that is caught and returned as the message.
fn solve_whole<G: Tiered + Sync>(
    game: &G,
    tiers: &[G::Tier],
    tier: G::Tier,
    widths: &[u8],
    work_dir: &Path,
) -> Result<gsolve_engine::tiered::TierValues, String> {
    struct Read<T>(Vec<(T, u8, Vec<u8>)>);
    impl<T: Copy + Eq + Sync> gsolve_engine::tiered::SolvedTiers<T> for Read<T> {
        fn codes(&self, tier: T) -> Option<gsolve_engine::tiered::Codes<'_>> {
            let (_, width, bytes) = self.0.iter().find(|(t, ..)| *t == tier)?;
            Some(gsolve_engine::tiered::Codes { width: *width, bytes })
        }
    }
    let mut read = Read(Vec::new());
    for c in read_by(game, tiers, tier) {
        let (child, width) = (tiers[c], widths[c]);
        let (name, size) = (game.tier_name(child), game.tier_size(child));
        let (path, _) = tier_paths(work_dir, &name);
        let bytes =
            tiers::read_parts(&path, width, size, std::iter::once(0..size)).map_err(|e| format!("tier {name}: {e}"))?;
        read.0.push((child, width, bytes));
    }
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        gsolve_engine::tiered::solve_tier(game, tier, &read, None)
    }))
    .map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("the tier's solve failed");
        format!("tier {}: {message}", game.tier_name(tier))
    })
}

/// The positions this worker values in one round of a tier's solve.
enum Mine {
    /// Its indices of a layer's piece, as ranges.
    Ranges(Vec<Range<u64>>),
    /// Its indices of a progress class's piece, increasing.
    Indices(Vec<u64>),
}

impl Mine {
    fn for_each_located<G: Tiered>(&self, game: &G, tier: G::Tier, mut f: impl FnMut(u64, Scan<'_, G::Tier>)) {
        match self {
            Mine::Ranges(ranges) => {
                for range in ranges {
                    game.for_each_located(tier, range.clone(), &mut f);
                }
            }
            Mine::Indices(indices) => game.for_each_located_at(tier, indices.iter().copied(), f),
        }
    }
}

/// A tier in parts, in solving order, each valued in one round.
///
/// Invariant: every child in the tier of a position of step k lies in a step
/// before k that is not a piece of the same part (a layer, or a class of
/// progress), and every worker has the same number of steps, some of them
/// empty for it: a part's pieces are as many as its largest share of a worker
/// needs.
enum Steps {
    /// The game's layers, cut into pieces of at most [`PIECE`] indices.
    Layers(Vec<Range<u64>>),
    /// This worker's indices (local, as [`Partition`] keeps them) sorted by
    /// progress, the greatest first (by index within a progress), and each
    /// step's range of that order.
    Progress { order: Vec<u32>, pieces: Vec<Range<usize>> },
}

impl Steps {
    fn len(&self) -> usize {
        match self {
            Steps::Layers(pieces) => pieces.len(),
            Steps::Progress { pieces, .. } => pieces.len(),
        }
    }

    fn mine(&self, k: usize, partition: &Partition, me: usize) -> Mine {
        match self {
            Steps::Layers(pieces) => {
                let piece = &pieces[k];
                Mine::Ranges(
                    partition
                        .ranges(me)
                        .filter_map(|r| {
                            let (start, end) = (r.start.max(piece.start), r.end.min(piece.end));
                            (start < end).then_some(start..end)
                        })
                        .collect(),
                )
            }
            Steps::Progress { order, pieces } => Mine::Indices(
                order[pieces[k].clone()].iter().map(|&local| partition.global(me, local as usize)).collect(),
            ),
        }
    }
}

/// The steps of `tier` ([`Steps`]): its layers, or this worker's positions
/// sorted by progress. The classes' sizes are agreed on in one round, so that
/// every worker takes as many steps. `Ok(Err(..))`: the game broke its
/// progress measure, or a worker's share is past 2^32 positions (everywhere
/// at once).
fn steps<G: Tiered>(
    worker: &mut Worker,
    rounds: &mut Rounds,
    game: &G,
    tier: G::Tier,
    partition: &Partition,
) -> Result<Result<Steps, String>, Lost> {
    let bound = match sweep_of(game, tier) {
        Some(Sweep::Progress(bound)) => bound,
        _ => {
            // A long layer goes in pieces, so that what one round asks and
            // answers stays bounded.
            let mut pieces = Vec::new();
            game.for_each_layer_in_tier(tier, |layer| {
                let mut start = layer.start;
                while start < layer.end {
                    let end = layer.end.min(start + PIECE);
                    pieces.push(start..end);
                    start = end;
                }
            });
            return Ok(Ok(Steps::Layers(pieces)));
        }
    };
    let me = worker.index();
    let owned = partition.owned(me);
    let levels = bound as usize + 1;
    // 1. Each owned position's progress, and each class's size (class l:
    //    progress bound − l); holes have none.
    const HOLE: u16 = u16::MAX;
    let too_many = owned > u32::MAX as usize;
    let mut progress = vec![HOLE; if too_many { 0 } else { owned }];
    let mut lengths = vec![0u64; levels];
    let mut broken = false;
    if !too_many {
        let mut first = 0usize;
        for range in partition.ranges(me) {
            game.for_each_progress_in_tier(tier, range.clone(), |index, p| {
                if p > bound {
                    broken = true;
                    return;
                }
                progress[first + (index - range.start) as usize] = p as u16;
                lengths[(bound - p) as usize] += 1;
            });
            first += (range.end - range.start) as usize;
        }
    }
    let mut summary = lengths.clone();
    summary.extend([too_many as u64, broken as u64]);
    let summaries = rounds.finish(worker, &summary, &mut |_| unreachable!("no updates"))?;
    if summaries.iter().any(|s| s[levels] != 0) {
        return Ok(Err(format!(
            "a worker's share is more than 2^32 positions: build it with more workers ({} now)",
            worker.peers()
        )));
    }
    if summaries.iter().any(|s| s[levels + 1] != 0) {
        return Ok(Err(format!(
            "a position's progress is above the bound {bound}: the game breaks the Tiered invariants"
        )));
    }
    // 2. A counting sort of the owned positions, greatest progress first.
    let mut starts = vec![0usize; levels + 1];
    for l in 0..levels {
        starts[l + 1] = starts[l] + lengths[l] as usize;
    }
    let mut order = vec![0u32; starts[levels]];
    let mut next = starts.clone();
    for (local, &p) in progress.iter().enumerate() {
        if p != HOLE {
            let slot = &mut next[(bound - p as u32) as usize];
            order[*slot] = local as u32;
            *slot += 1;
        }
    }
    drop(progress);
    // 3. Each class in as many pieces as its largest share needs.
    let piece = (PIECE as usize / worker.peers()).max(1);
    let mut pieces = Vec::new();
    for l in 0..levels {
        let most = summaries.iter().map(|s| s[l]).max().unwrap_or(0) as usize;
        for k in 0..most.div_ceil(piece) {
            let start = (starts[l] + k * piece).min(starts[l + 1]);
            pieces.push(start..(start + piece).min(starts[l + 1]));
        }
    }
    Ok(Ok(Steps::Progress { order, pieces }))
}

/// Steps 1 and 2 for one tier: this worker's codes, their width, and the run's
/// largest code. Starts over wider when a code does not fit (everywhere at once).
///
/// Memory: a worker holds its own part of the tier being solved and of each
/// child tier (both dealt by [`Partition`]), and the codes asked for one layer;
/// any code owned elsewhere, in this tier or a child tier, is asked of its owner.
#[allow(clippy::type_complexity)]
fn solve_tier<G: Tiered + Sync>(
    worker: &mut Worker,
    rounds: &mut Rounds,
    game: &G,
    tier: G::Tier,
    tiers: &[G::Tier],
    widths: &[u8],
    work_dir: &Path,
) -> Result<Result<(Codes, u8, u32), String>, Lost> {
    let me = worker.index();
    let peers = worker.peers();
    let size = game.tier_size(tier);
    let partition = Partition::new(size, peers, Partition::DEFAULT_CHUNK_SHIFT);
    // Step 1: this worker's part of each child tier.
    let mut held: Vec<Held<G::Tier>> = Vec::new();
    for child in game.child_tiers(tier) {
        let Some(at) = tiers.iter().position(|&t| t == child) else { continue };
        if child == tier || held.iter().any(|h| h.tier == child) {
            continue;
        }
        let (name, width, child_size) = (game.tier_name(child), widths[at], game.tier_size(child));
        let (path, _) = tier_paths(work_dir, &name);
        let child_partition = Partition::new(child_size, peers, Partition::DEFAULT_CHUNK_SHIFT);
        let bytes = match tiers::read_parts(&path, width, child_size, child_partition.ranges(me)) {
            Ok(bytes) => bytes,
            Err(e) => return Ok(Err(format!("tier {name}: {e}"))),
        };
        held.push(Held { tier: child, partition: child_partition, codes: Codes { width, bytes } });
    }
    let slots = held.len() + 1;
    let partition_of = |slot: usize| if slot == 0 { &partition } else { &held[slot - 1].partition };
    let steps = match steps(worker, rounds, game, tier, &partition)? {
        Ok(steps) => steps,
        Err(message) => return Ok(Err(format!("tier {}: {message}", game.tier_name(tier)))),
    };
    'widths: for width in [1u8, 2, 4] {
        let mut codes = Codes { width, bytes: vec![0; partition.owned(me) * width as usize] };
        let mut overflow = false;
        let mut broken = None;
        // Step k's requests travel in round k with the answers to step k − 1's
        // (which ask only for child tiers and steps before k − 1, solved by
        // then: a part's pieces do not read each other); step k − 1 is valued
        // when they arrive: one round a step, and one more at the end.
        let mut requests_in: Vec<(usize, usize, Vec<u8>)> = Vec::new();
        // asked[slot][owner]: the indices asked of `owner`, sorted.
        let mut previous: Option<(Mine, Vec<Vec<Vec<u64>>>)> = None;
        for k in 0..=steps.len() {
            let mut parcels: Vec<(usize, u64, Vec<u8>)> = requests_in
                .drain(..)
                .map(|(slot, from, bytes)| {
                    let answer = words(&bytes)
                        .flat_map(|i| own_code(slot, i, &codes, &partition, &held).to_le_bytes())
                        .collect();
                    (from, key(slot, me, true), answer)
                })
                .collect();
            let current = (k < steps.len()).then(|| {
                // This worker's positions of the step.
                let mine = steps.mine(k, &partition, me);
                // The children held by other workers.
                let mut asked: Vec<Vec<Vec<u64>>> = vec![vec![Vec::new(); peers]; slots];
                mine.for_each_located(game, tier, |_, scan| {
                    if let Scan::Moves(moves) = scan {
                        for child in moves {
                            if let ChildAt::In(t, i) = *child {
                                if let Some(slot) = slot_of(tier, t, &held) {
                                    let owner = partition_of(slot).owner(i);
                                    if owner != me {
                                        asked[slot][owner].push(i);
                                    }
                                }
                            }
                        }
                    }
                });
                for list in asked.iter_mut().flatten() {
                    list.sort_unstable();
                    list.dedup();
                }
                (mine, asked)
            });
            if let Some((_, asked)) = &current {
                for (slot, lists) in asked.iter().enumerate() {
                    for (to, list) in lists.iter().enumerate().filter(|(_, l)| !l.is_empty()) {
                        parcels.push((to, key(slot, me, false), list.iter().flat_map(|i| i.to_le_bytes()).collect()));
                    }
                }
            }
            let received = rounds.gather(worker, parcels)?;
            let mut answered: Vec<Vec<Vec<u32>>> = vec![vec![Vec::new(); peers]; slots];
            for (key, bytes) in received {
                let (slot, from) = ((key >> 33) as usize, (key >> 1 & 0xffff_ffff) as usize);
                if key & 1 == 0 {
                    requests_in.push((slot, from, bytes));
                } else {
                    answered[slot][from] =
                        bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
                }
            }
            let Some((mine, asked)) = std::mem::replace(&mut previous, current) else { continue };
            // The step's values.
            {
                mine.for_each_located(game, tier, |index, scan| {
                    let value = match scan {
                        Scan::Over(outcome) => outcome.value(),
                        Scan::Known(value) => value,
                        Scan::Moves(moves) => {
                            let mut best: Option<Value> = None;
                            for child in moves {
                                let code = match *child {
                                    ChildAt::Over(outcome) => PackedValue::pack(outcome.value()),
                                    ChildAt::In(t, i) => match slot_of(tier, t, &held) {
                                        Some(slot) => {
                                            let owner = partition_of(slot).owner(i);
                                            if owner != me {
                                                let at = asked[slot][owner].binary_search(&i).expect("asked for");
                                                PackedValue(answered[slot][owner][at])
                                            } else {
                                                PackedValue(own_code(slot, i, &codes, &partition, &held))
                                            }
                                        }
                                        None => PackedValue::NONE,
                                    },
                                    ChildAt::Nowhere => PackedValue::NONE,
                                };
                                match code.unpack() {
                                    // Every tier is swept, so acyclic: no child is a
                                    // draw, and code 0 (a draw) is a child not solved
                                    // yet, which only a game that breaks its layers or
                                    // its progress measure gives.
                                    Some(v) if code.0 != 0 => best = best.max(Some(v.parent_view())),
                                    _ => {
                                        broken.get_or_insert(index);
                                    }
                                }
                            }
                            best.unwrap_or(Value::Loss(0))
                        }
                    };
                    let code = PackedValue::pack(value).0;
                    if width < 4 && code >> (8 * width as u32) != 0 {
                        overflow = true;
                    }
                    codes.set(partition.local(index), code);
                });
            }
        }
        // Holes keep "no position".
        let mut max_code = 0u32;
        for range in partition.ranges(me) {
            let mut present = vec![false; (range.end - range.start) as usize];
            game.for_each_position_in_tier(tier, range.clone(), |i, _| present[(i - range.start) as usize] = true);
            for (offset, here) in present.into_iter().enumerate() {
                let local = partition.local(range.start + offset as u64);
                if here {
                    max_code = max_code.max(codes.get(local));
                } else {
                    codes.set(local, PackedValue::NONE.0);
                    max_code = max_code.max(PackedValue::NONE.0);
                }
            }
        }
        let summary = [overflow as u64, max_code as u64, broken.is_some() as u64];
        let summaries = rounds.finish(worker, &summary, &mut |_| unreachable!("no updates"))?;
        if summaries.iter().any(|s| s[2] != 0) {
            return Ok(Err(format!(
                "tier {}: a child is not solved before its parent: the game breaks the Tiered invariants",
                game.tier_name(tier)
            )));
        }
        if summaries.iter().any(|s| s[0] != 0) {
            continue 'widths;
        }
        let max_code = summaries.iter().map(|s| s[1]).max().unwrap_or(0) as u32;
        return Ok(Ok((codes, width, max_code)));
    }
    unreachable!("4-byte codes hold every value")
}

/// Step 3: the tier's file, written in parts. `Ok(Err(..))`: it could not be
/// written (every worker returns the same).
#[allow(clippy::too_many_arguments)]
fn save<G: Tiered>(
    worker: &mut Worker,
    rounds: &mut Rounds,
    game: &G,
    tier: G::Tier,
    codes: &Codes,
    width: u8,
    max_code: u32,
    work: Option<&mut WorkDir>,
    work_dir: &Path,
) -> Result<Result<(), String>, Lost> {
    let name = game.tier_name(tier);
    let size = game.tier_size(tier);
    let partition = Partition::new(size, worker.peers(), Partition::DEFAULT_CHUNK_SHIFT);
    let me = worker.index();
    let none = &mut |_: crate::rounds::Received<'_>| unreachable!("no updates");
    // The lead creates the file.
    let mut error = None;
    if let Some(work) = &work {
        if let Err(e) = work.begin_parts(&name, width, size) {
            error = Some(e.to_string());
        }
    }
    if rounds.finish(worker, &[error.is_some() as u64], none)?.iter().any(|s| s[0] != 0) {
        return Ok(Err(error.unwrap_or_else(|| "process 0 could not create the tier file".into())));
    }
    // Everyone writes its chunks.
    let (_, temporary) = tier_paths(work_dir, &name);
    let mut local = 0usize;
    for range in partition.ranges(me) {
        let length = (range.end - range.start) as usize;
        let bytes = &codes.bytes[local * width as usize..(local + length) * width as usize];
        if let Err(e) = tiers::write_part(&temporary, range.start * width as u64, bytes) {
            error.get_or_insert(format!("worker {me}: {e}"));
            break;
        }
        local += length;
    }
    if rounds.finish(worker, &[error.is_some() as u64], none)?.iter().any(|s| s[0] != 0) {
        return Ok(Err(error.unwrap_or_else(|| "another process could not write its part".into())));
    }
    // The lead checks and lists it; then everyone may map it.
    if let Some(work) = work {
        if let Err(e) = work.finish_parts(&name, width, size, max_code) {
            error = Some(e.to_string());
        }
    }
    if rounds.finish(worker, &[error.is_some() as u64], none)?.iter().any(|s| s[0] != 0) {
        return Ok(Err(error.unwrap_or_else(|| "process 0 could not finish the tier file".into())));
    }
    Ok(Ok(()))
}
