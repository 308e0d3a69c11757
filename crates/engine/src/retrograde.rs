//! Retrograde analysis: the exact value of every position of an [`Indexed`] game.
//!
//! Works for games with cycles: a position that is never decided is a [`Value::Draw`].
//!
//! # The algorithm, in named steps
//! 1. **initialize**: every index is a hole, a terminal position (decided, remoteness
//!    0), a position without moves (a loss at remoteness 0), or undecided with a
//!    counter holding its number of moves. A game whose terminal positions are not
//!    all indexed ([`Indexed::terminals_indexed`] false) has the children the
//!    rules value ([`Indexed::value_by_rules`]: terminal ones, and wins in 1 an
//!    index may leave out) valued here instead: a lost one makes the position a
//!    win in 1, and only the other children are counted (details in
//!    `Solver::initialize`). An indexed position the rules value so
//!    ([`FirstLook::ByRules`]) is decided here and never propagated from: its
//!    parents did not count it.
//! 2. **propagate**: positions are processed level by level, level `r` holding the
//!    positions decided with remoteness `r`. For each parent of a processed position:
//!    - child lost → parent (if undecided) wins in `r + 1`: the first lost child met
//!      is the fastest, because levels are processed in increasing order;
//!    - child won or tied → the parent's counter goes down by one; when it reaches
//!      zero every child is decided and none is lost, so the parent loses in `r + 1`
//!      (this child was its slowest win) or, if some child tied, ties: its value is
//!      then computed from all its children.
//! 3. **ties**: (only if some position tied) an undecided position with a tied child
//!    has no lost child (it would be decided) and prefers a tie to a draw, so it ties
//!    in one more ply than its fastest tied child: a breadth-first pass from all tied
//!    positions in order of remoteness.
//! 4. what is still undecided is a draw; the wins by the rules are written.
//!
//! # Parallelism without atomics
//! The index is cut into blocks dealt round-robin to the worker threads, each thread
//! owning its blocks through disjoint `&mut` slices. In a level of propagate the
//! threads first list the parents of their part of the frontier by owner, then
//! each applies the updates listed for its own blocks. No counter is shared
//! between threads, so no locked instructions are needed (each update would
//! otherwise wait on one), and the result does not depend on scheduling.
//! Small levels run on the calling thread.
//!
//! # Memory traffic
//! In a game larger than the cache ([`Options::sort_from`]) each update is a trip
//! to memory: large frontiers are sorted by region first (`sort_by_region`), and
//! a batch's updates can be listed, then applied while the cells are fetched
//! ahead (`PREFETCH_DISTANCE`), so that many trips are under way at once. That
//! pays in some games and costs in others, as threads do on some machines: each
//! large level runs the way that measured fastest so far (`PathChoice`).
//!
//! # Memory
//! 2 bytes per index: one cell holding the counter of an undecided position and
//! the value of a decided one (`Cell`: an update touches one place in memory, not
//! two), plus the current and next levels' frontier lists, each at most
//! [`Options::frontier_limit`] entries (by
//! default an eighth of a byte per index). A level with more decided positions is not
//! listed: it is every position whose value is a win or a loss at that level's
//! remoteness (no other level writes those), found by scanning the values, plus
//! its ties, which stay listed (a tie decided late can have a smaller
//! remoteness). In Dobutsu shogi every position where the lion can be taken wins
//! in 1: listed, that level alone would take 8 bytes for each of them.
//!
//! The rule that picks the width ([`solve_with`]): a game with a position of more
//! than 8,190 moves or a remoteness past 16,383 plies gets 4-byte cells, found
//! during the solve, which then starts over. The [`Solution`] keeps the values'
//! width.

use crate::game::{FirstLook, Indexed, Unmoves};

use crate::progress::{report, Observer};
use crate::reverse_graph::ReverseGraph;
use crate::solution::Solution;
use crate::value::{PackedValue, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Options of a retrograde solve.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// Receives progress reports (steps `"reverse graph"`, `"initialize"`, `"propagate"`).
    pub progress: Option<Observer<'a>>,
    /// Levels with fewer positions than this run on the calling thread, larger ones
    /// on rayon's pool (when it has more than one thread), or, in a game of at
    /// least [`Self::sort_from`] positions, on whichever way of running a level
    /// measured fastest so far (the values are the same). Below about 10⁵ the
    /// threads' handshake costs more than it saves. A level found by scanning
    /// (see [`Self::frontier_limit`]) is walked in batches of this many entries,
    /// at most the frontier limit.
    pub parallel_from: usize,
    /// Games with at least this many positions sort each large frontier before
    /// its level (see `SORT_FROM`) and fetch the cells of a level's parents ahead
    /// (`PREFETCH_DISTANCE`); in smaller ones the cells stay in the cache and
    /// both only cost. Default 2²⁴ positions: 32 MiB of cells, about the
    /// last-level cache of this project's machine.
    pub sort_from: usize,
    /// The most entries a level's frontier list may hold (8 bytes each); a level
    /// with more is not listed but found by scanning the values for its
    /// remoteness (see "Memory" in the module docs). `None`: one entry per 64
    /// positions, at least 2²⁰: a tighter cap scans more levels (each scan
    /// reads every value) for little memory saved, a looser one holds lists
    /// that cost memory and save no time.
    pub frontier_limit: Option<usize>,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options { progress: None, parallel_from: 1 << 17, sort_from: 1 << 24, frontier_limit: None }
    }
}

/// Solves every position of a game that knows its parents.
pub fn solve<G: Unmoves + Sync>(game: &G) -> Solution {
    solve_with(game, &Options::default())
}

/// [`solve`] with options.
///
/// # Widths
/// The solve starts narrow: one 2-byte cell an index, holding the position's
/// counter of undecided children until it is decided, then its value. It starts
/// over with 4-byte cells when some position has more than 8,190 moves (found in
/// the first step) or a remoteness passes
/// [`Solution::NARROW_MAX_REMOTENESS`] (16,383 plies; found when a level
/// reaches it). The values are the same either way.
pub fn solve_with<G: Unmoves + Sync>(game: &G, options: &Options<'_>) -> Solution {
    match Solver::<G, u16>::run(game, options) {
        Ok(solution) => solution,
        Err(_) => match Solver::<G, u32>::run(game, options) {
            Ok(solution) => solution,
            Err(why) => panic!("a retrograde solve cannot go wider: {why:?}"),
        },
    }
}

/// Solves a game that has no [`Unmoves`]: builds the reverse graph in memory first
/// (16 bytes per move plus 8 per index), then solves as [`solve`].
pub fn solve_forward_only<G: Indexed + Sync>(game: &G) -> Solution {
    solve_forward_only_with(game, &Options::default())
}

/// [`solve_forward_only`] with options.
pub fn solve_forward_only_with<G: Indexed + Sync>(game: &G, options: &Options<'_>) -> Solution {
    let graph = ReverseGraph::build(game, options.progress);
    solve_with(&graph, options)
}

/// Why a solve starts over wider.
#[derive(Debug)]
enum Restart {
    /// A position has more moves than the counter holds.
    TooManyMoves,
    /// A remoteness passes what the value holds.
    TooLong,
}

/// A position's one cell while solving: the count of its undecided children
/// until it is decided, then its value.
///
/// A cell holds a [`PackedValue`] code, `remoteness << 2 | tag`. Codes of tag 0
/// other than [`PackedValue::DRAW`] and [`PackedValue::NONE`] name no value, so an
/// undecided position uses them (its value would be a draw, the code 0, until
/// decided; keeping both in one cell halves the memory a parent update touches):
///
/// | code | meaning |
/// |---|---|
/// | `r << 2 \| 1`, `2`, `3` | decided: a loss, tie, win in `r` plies |
/// | `0` | a draw: never decided (written by the last step), or a tie waiting for a look at its children (`Update::TiePending`) |
/// | `4` | a hole: the index names no position |
/// | `(TIED \| 1) << 2` ([`Cell::BY_RULES`]) | a win in 1 by the rules ([`FirstLook::ByRules`]): decided, never propagated from; a win in 1 after the last step |
/// | `(TIED? \| count + 1) << 2`, `count ≥ 1` | undecided: `count` children not yet processed; the `TIED` bit of the payload once one of the processed children tied |
///
/// | cell | `TIED` (payload bit) | most moves | largest remoteness |
/// |---|---|---|---|
/// | `u16` | 1 << 13 | 8,190 | 16,383 ([`Solution::NARROW_MAX_REMOTENESS`]) |
/// | `u32` | 1 << 29 | 536,870,910 | [`PackedValue::MAX_REMOTENESS`] |
trait Cell: Slot {
    /// The "some child tied" bit of an undecided cell's payload (`code >> 2`).
    const TIED: u32;
    /// The most children an undecided cell counts: `count + 1` stays below `TIED`.
    const MAX_COUNT: u32 = Self::TIED - 2;
    /// The code of a win in 1 by the rules ([`FirstLook::ByRules`]) until the
    /// last step: "tied, no child left", which no undecided cell holds (its
    /// count would be 0), and not a win in 1's code, which the scan of level 1
    /// would find and propagate from.
    const BY_RULES: u32 = (Self::TIED | 1) << 2;

    /// The cell of a code (cut to its width, as [`Slot::of`]).
    #[inline]
    fn of_code(code: u32) -> Self {
        Self::of(PackedValue(code))
    }

    /// Its code.
    #[inline]
    fn code(self) -> u32 {
        self.packed().0
    }

    /// The cell of a value.
    #[inline]
    fn of_value(value: Value) -> Self {
        Self::of(PackedValue::pack(value))
    }

    /// An undecided position with `count` (1 to [`Self::MAX_COUNT`]) children to
    /// process, `tied` if a child tied already.
    #[inline]
    fn undecided(count: u32, tied: bool) -> Self {
        debug_assert!((1..=Self::MAX_COUNT).contains(&count));
        Self::of_code(((count + 1) | if tied { Self::TIED } else { 0 }) << 2)
    }

    /// True for an undecided position (not for a decided one, a pending tie, a
    /// win by the rules or a hole).
    #[inline]
    fn is_undecided(self) -> bool {
        let code = self.code();
        code & 3 == 0 && code > PackedValue::NONE.0 && code != Self::BY_RULES
    }
}

impl Cell for u16 {
    const TIED: u32 = 1 << 13;
}

impl Cell for u32 {
    const TIED: u32 = 1 << 29;
}

/// Applies "a child with `tag` was decided at `level`" to a parent's cell: the
/// step of this solver ([`apply`] is the same step for a counter and a value kept
/// apart).
///
/// Invariant kept: the cell is undecided exactly while some child has not been
/// processed and none was lost; its count is the number not yet processed.
#[inline]
fn step<K: Cell>(cell: &mut K, tag: u64, level: u32) -> Update {
    if !cell.is_undecided() {
        return Update::None;
    }
    if tag == TAG_LOSS {
        // The first lost child met is the fastest: levels come in increasing order.
        *cell = K::of_value(Value::Win(level + 1));
        return Update::Decided(TAG_WIN);
    }
    let payload = cell.code() >> 2;
    let tied = (payload & K::TIED) | if tag == TAG_TIE { K::TIED } else { 0 };
    let left = payload & !K::TIED; // count + 1
    if left > 2 {
        *cell = K::of_code(((left - 1) | tied) << 2);
        return Update::None;
    }
    if tied != 0 {
        *cell = K::of(PackedValue::DRAW);
        return Update::TiePending;
    }
    // Every child won, this one last: the slowest.
    *cell = K::of_value(Value::Loss(level + 1));
    Update::Decided(TAG_LOSS)
}

/// A value cell: a [`PackedValue`] code in 16 or 32 bits.
///
/// This solver's cells are slots that also hold a counter while undecided.
/// Public, with [`Counter`] and [`apply`], for solvers that keep a position's
/// counter and value apart (the distributed crate keeps the fastest tied child in
/// the value of an undecided position): the same step as this solver's, the same
/// invariants.
pub trait Slot: Copy + Send + Sync {
    /// The largest remoteness it holds.
    const MAX_REMOTENESS: u32;
    /// The cell of a packed value whose remoteness it holds.
    fn of(value: PackedValue) -> Self;
    /// The packed value.
    fn packed(self) -> PackedValue;
    /// The solution of these cells.
    fn solution(cells: Vec<Self>) -> Solution;
}

impl Slot for u16 {
    const MAX_REMOTENESS: u32 = Solution::NARROW_MAX_REMOTENESS;
    /// Cut to 16 bits: a remoteness past [`Self::MAX_REMOTENESS`] is caught by the
    /// solver after the level that wrote it, and the solve starts over wide.
    #[inline]
    fn of(value: PackedValue) -> Self {
        value.0 as u16
    }
    #[inline]
    fn packed(self) -> PackedValue {
        PackedValue(self as u32)
    }
    fn solution(cells: Vec<Self>) -> Solution {
        Solution::from_narrow(cells)
    }
}

impl Slot for u32 {
    const MAX_REMOTENESS: u32 = PackedValue::MAX_REMOTENESS;
    #[inline]
    fn of(value: PackedValue) -> Self {
        value.0
    }
    #[inline]
    fn packed(self) -> PackedValue {
        PackedValue(self)
    }
    fn solution(cells: Vec<Self>) -> Solution {
        // In-place collect: reuses the cells' allocation.
        Solution::from_packed(cells.into_iter().map(PackedValue).collect())
    }
}

/// A counter of undecided children with a "some child tied" flag in its top bit.
/// The whole word is 0 exactly when the position is decided (or is a hole).
pub trait Counter: Copy + Default + Send + Sync {
    /// The "some child tied" flag.
    const TIED: u32;
    /// The counter holding `v` (cut to its width).
    fn from_u32(v: u32) -> Self;
    /// Its word.
    fn to_u32(self) -> u32;
}

macro_rules! counter_impl {
    ($int:ty) => {
        impl Counter for $int {
            const TIED: u32 = 1 << (<$int>::BITS - 1);
            #[inline]
            fn from_u32(v: u32) -> Self {
                v as $int
            }
            #[inline]
            fn to_u32(self) -> u32 {
                self as u32
            }
        }
    };
}
counter_impl!(u8);
counter_impl!(u32);

// A frontier entry or parent update: `index << 2 | tag`, tag as in `PackedValue`
// (1 loss, 2 tie, 3 win): the value kind of the decided child.
/// Tag of a lost child in a frontier entry `index << 2 | tag`.
pub const TAG_LOSS: u64 = 1;
/// Tag of a tied child.
pub const TAG_TIE: u64 = 2;
/// Tag of a won child.
pub const TAG_WIN: u64 = 3;

/// The frontier tag of a decided value (never a draw).
pub fn tag_of(value: Value) -> u64 {
    match value {
        Value::Loss(_) => TAG_LOSS,
        Value::Tie(_) => TAG_TIE,
        Value::Win(_) => TAG_WIN,
        Value::Draw => unreachable!("draws are never in a frontier"),
    }
}

/// Parts of a parallel level's batch a thread ([`Solver::level_parallel`]).
const PARTS_PER_THREAD: usize = 4;

/// Indices handled by one rayon task in the first step.
const CHUNK: usize = 1 << 13;
/// Frontiers at least this long are sorted by region ([`sort_by_region`]) before
/// their level, in games of at least [`Options::sort_from`] positions: parents of
/// positions with nearby indices have nearby indices in most games, so a sorted
/// frontier updates the cells in a few runs through memory rather than at random.
const SORT_FROM: usize = 1 << 12;
/// Frontier entries a parallel level lists and applies at a time (the test
/// `disjoint_union_of_random_graphs_matches_the_naive_solver` has a first level of
/// two batches).
const PARALLEL_BATCH: usize = 1 << 15;
/// Regions of `1 << REGION_SHIFT` indices: a frontier is sorted by region only.
const REGION_SHIFT: u32 = 16;

/// Orders frontier entries by the region of `1 << REGION_SHIFT` indices they fall
/// in, keeping their order within a region: a counting sort, two passes over the
/// entries. A full sort (`par_sort_unstable`) cost a large share of a solve and
/// bought no more locality: parents of one region's positions fall in a few
/// regions of cells in most games, and the updates are fetched ahead anyway
/// ([`PREFETCH_DISTANCE`]). The result does not depend on threads.
fn sort_by_region(entries: Vec<u64>, size: usize) -> Vec<u64> {
    let region = |entry: u64| (entry >> (2 + REGION_SHIFT)) as usize;
    let mut starts = vec![0usize; (size >> REGION_SHIFT) + 2];
    for &entry in &entries {
        starts[region(entry) + 1] += 1;
    }
    for r in 1..starts.len() {
        starts[r] += starts[r - 1];
    }
    let mut sorted = vec![0u64; entries.len()];
    for &entry in &entries {
        let at = &mut starts[region(entry)];
        sorted[*at] = entry;
        *at += 1;
    }
    sorted
}

/// Frontier entries whose parents are listed, then updated, at a time on one
/// thread (so that their updates stay in the cache between the two).
const SEQUENTIAL_BATCH: usize = 1 << 12;
/// How many updates ahead a parent's cell is fetched into the cache. The cells
/// of a large game are read at random, each a trip to memory; fetching them
/// ahead keeps many trips under way instead of one; fewer ahead leaves trips
/// waiting, many more no longer helps.
const PREFETCH_DISTANCE: usize = 64;

/// Asks the processor to bring `item`'s cache line in; a hint, no effect on values.
#[inline(always)]
#[allow(unsafe_code)]
fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` is `unsafe` only for its `#[target_feature(enable =
    // "sse")]`, and SSE is part of every x86_64 target. A prefetch reads nothing
    // into the program and never faults; the pointer comes from a live reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(item as *const T as *const i8)
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// Blocks of `1 << BLOCK_SHIFT` indices are dealt to threads in parallel levels.
const BLOCK_SHIFT: u32 = 12;

/// What one update did to a parent.
pub enum Update {
    /// Nothing decided.
    None,
    /// The parent is decided; its frontier tag.
    Decided(u64),
    /// Every child is decided and some tied: its value needs a look at its children.
    TiePending,
}

/// Applies "a child with `tag` was decided at `level`" to a parent's counter and value.
///
/// Invariant kept: `counter == 0` exactly when the parent is decided (or pending),
/// otherwise it holds the number of children not yet processed, plus the tie flag.
#[inline]
pub fn apply<C: Counter, V: Slot>(counter: &mut C, value: &mut V, tag: u64, level: u32) -> Update {
    let current = counter.to_u32();
    if current == 0 {
        return Update::None;
    }
    if tag == TAG_LOSS {
        // The first lost child met is the fastest: levels come in increasing order.
        *counter = C::from_u32(0);
        *value = V::of(PackedValue::pack(Value::Win(level + 1)));
        return Update::Decided(TAG_WIN);
    }
    let flags = (current & C::TIED) | if tag == TAG_TIE { C::TIED } else { 0 };
    let remaining = (current & !C::TIED) - 1;
    if remaining > 0 {
        *counter = C::from_u32(flags | remaining);
        return Update::None;
    }
    *counter = C::from_u32(0);
    if flags != 0 {
        return Update::TiePending;
    }
    // Every child won, this one last: the slowest.
    *value = V::of(PackedValue::pack(Value::Loss(level + 1)));
    Update::Decided(TAG_LOSS)
}

struct Solver<'g, 'o, G, K> {
    game: &'g G,
    /// One [`Cell`] an index.
    cells: Vec<K>,
    progress: Option<Observer<'o>>,
    parallel_from: usize,
    sort_from: usize,
    /// The most entries a frontier list holds ([`Options::frontier_limit`]).
    frontier_limit: usize,
    /// How large sequential levels run, from their measured times.
    paths: PathChoice,
}

/// The ways a level of a large game can run. All make the same updates (so the
/// same values; the threads' order of the next frontier may differ, as always
/// with threads); only the time differs, and which is fastest depends on the
/// game and the machine: fetching ahead pays where updates miss the cache and
/// only costs where most of them find their cell there already (the 100×100
/// Queen's Case map), and threads can lose to one where two vCPUs share one
/// core's throughput.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Path {
    /// On the calling thread, each parent updated as it is generated.
    Direct = 0,
    /// On the calling thread, a batch's parents listed, then updated, their
    /// cells fetched ahead.
    FetchAhead = 1,
    /// On rayon's pool (`level_parallel`).
    Parallel = 2,
}

/// Picks the fastest [`Path`] level by level: each is timed on large levels, its
/// cost a frontier entry kept as a running mean over its latest run of levels;
/// the cheapest runs, and every
/// `RECHECK`th timed level the one measured longest ago runs again, as the
/// game's levels change.
#[derive(Default)]
struct PathChoice {
    /// Nanoseconds a frontier entry, by path; `None` until timed.
    cost: [Option<f64>; 3],
    /// Timed levels so far.
    timed: u32,
    /// The value of `timed` when each path was last timed.
    last_timed: [u32; 3],
}

impl PathChoice {
    /// Levels with fewer entries are not timed (too short to measure well).
    const TIMED_FROM: usize = 1 << 12;
    const RECHECK: u32 = 16;

    /// The path for a timed level; `Parallel` only if `parallel` allows it.
    fn pick(&self, parallel: bool) -> Path {
        // Untimed paths are tried in this order: threads first where allowed, as
        // before any measurement (the tests' first large levels run on them).
        let candidates: &[Path] = if parallel {
            &[Path::Parallel, Path::FetchAhead, Path::Direct]
        } else {
            &[Path::FetchAhead, Path::Direct]
        };
        if let Some(&untimed) = candidates.iter().find(|&&path| self.cost[path as usize].is_none()) {
            return untimed;
        }
        if self.timed % Self::RECHECK == Self::RECHECK - 1 {
            return *candidates.iter().min_by_key(|&&path| self.last_timed[path as usize]).expect("two at least");
        }
        let cost = |path: Path| self.cost[path as usize].expect("every candidate timed");
        *candidates.iter().min_by(|&&a, &&b| cost(a).total_cmp(&cost(b))).expect("two at least")
    }

    fn record(&mut self, path: Path, entries: usize, elapsed: std::time::Duration) {
        let per_entry = elapsed.as_nanos() as f64 / entries as f64;
        // A mean over the path's latest run of levels: a cost measured many levels
        // ago (the first level's, say, with cold caches) says little of this one.
        let consecutive = self.last_timed[path as usize] == self.timed;
        let cost = &mut self.cost[path as usize];
        *cost = Some(match *cost {
            Some(old) if consecutive => (old + per_entry) / 2.0,
            _ => per_entry,
        });
        self.timed += 1;
        self.last_timed[path as usize] = self.timed;
    }
}

/// A level's positions to propagate from.
enum Frontier {
    /// Entries `index << 2 | tag`.
    Listed(Vec<u64>),
    /// Too many to list: every position whose value is a win or a loss at the
    /// level's remoteness, and these tie entries; `count` positions in all.
    Scanned { ties: Vec<u64>, count: u64 },
}

impl Frontier {
    fn is_empty(&self) -> bool {
        // A scanned level has more positions than the limit, so at least one.
        matches!(self, Frontier::Listed(list) if list.is_empty())
    }
}

/// The next level's frontier as it is found: listed until it passes the limit,
/// then only its ties are kept (see [`Frontier::Scanned`]).
struct NextLevel {
    listed: Vec<u64>,
    ties: Vec<u64>,
    scanned: bool,
    limit: usize,
    /// Entries pushed, listed or not.
    count: u64,
}

impl NextLevel {
    fn new(limit: usize) -> Self {
        NextLevel { listed: Vec::new(), ties: Vec::new(), scanned: false, limit, count: 0 }
    }

    fn push(&mut self, entry: u64) {
        self.count += 1;
        if self.scanned {
            if entry & 3 == TAG_TIE {
                self.ties.push(entry);
            }
            return;
        }
        self.listed.push(entry);
        if self.listed.len() > self.limit {
            self.stop_listing();
        }
    }

    fn extend(&mut self, entries: impl IntoIterator<Item = u64>) {
        entries.into_iter().for_each(|e| self.push(e));
    }

    fn stop_listing(&mut self) {
        let listed = std::mem::take(&mut self.listed);
        self.ties.extend(listed.into_iter().filter(|e| e & 3 == TAG_TIE));
        self.scanned = true;
    }

    /// Adds a frontier of the same level (positions decided at remoteness 1 by
    /// the first step join those of level 0's propagation).
    fn join(&mut self, other: Frontier) {
        match other {
            Frontier::Listed(list) => self.extend(list),
            Frontier::Scanned { ties, count } => {
                if !self.scanned {
                    self.stop_listing();
                }
                self.count += count;
                self.ties.extend(ties);
            }
        }
    }

    fn finish(self) -> Frontier {
        if self.scanned {
            Frontier::Scanned { ties: self.ties, count: self.count }
        } else {
            Frontier::Listed(self.listed)
        }
    }
}

/// Indices scanned at a time for a level that is not listed.
const SCAN_PIECE: usize = 1 << 22;

impl<'g, 'o, G: Unmoves + Sync, K: Cell> Solver<'g, 'o, G, K> {
    fn run(game: &'g G, options: &Options<'o>) -> Result<Solution, Restart> {
        let size = usize::try_from(game.index_size()).expect("index fits in memory");
        let mut solver = Solver {
            game,
            cells: vec![K::of(PackedValue::DRAW); size],
            progress: options.progress,
            parallel_from: options.parallel_from,
            sort_from: options.sort_from,
            frontier_limit: options.frontier_limit.unwrap_or((size / 64).max(1 << 20)),
            paths: PathChoice::default(),
        };
        let (level0, level1, level2, tie_candidates) = solver.initialize()?;
        let mut ties = solver.propagate(level0, [level1, level2])?;
        ties.extend(solver.settle_tie_candidates(tie_candidates));
        if !ties.is_empty() {
            solver.spread_ties(ties)?;
        }
        // Step 4, and the wins by the rules get their value.
        let win_in_1 = K::of_value(Value::Win(1));
        solver.cells.par_iter_mut().for_each(|cell| {
            if cell.code() == K::BY_RULES {
                *cell = win_in_1;
            } else if cell.is_undecided() {
                *cell = K::of(PackedValue::DRAW);
            }
        });
        Ok(K::solution(solver.cells))
    }

    /// Step 1. Returns the positions decided at remoteness 0, those decided at
    /// remoteness 1 and 2 by children the rules value, and the undecided
    /// positions with a tied terminal child (the last three only for games whose
    /// terminal positions are not all indexed).
    ///
    /// When [`Indexed::terminals_indexed`] is false, a position's children that
    /// the rules value ([`Indexed::value_by_rules`]: terminal ones, and wins in 1
    /// the index leaves out) are valued here rather than propagated from: a lost
    /// one decides the position as a win in 1 (the fastest there is); when every
    /// child is valued so the position takes the best of them at once (a loss or
    /// tie in 1, or a loss in 2 where the best is a win in 1 for the opponent);
    /// otherwise the counter holds the other children, with the tie flag set if
    /// a terminal child tied. Indexed terminal positions are then valued but never
    /// propagated from, so that no child is counted twice.
    ///
    /// Why a loss in 2 left behind among the counted children comes out right:
    /// level 0 then holds only positions without moves, losses, so no counter
    /// reaches zero before level 1, and a loss found at level `r ≥ 1` is a loss in
    /// `r + 1 ≥ 2`.
    ///
    /// Positions decided at remoteness 1 or 2 are listed until they pass the
    /// frontier limit, then only their ties (the others are found by a scan).
    #[allow(clippy::type_complexity)]
    fn initialize(&mut self) -> Result<(Vec<u64>, Frontier, Frontier, Vec<u64>), Restart> {
        let game = self.game;
        let progress = self.progress;
        let total = self.cells.len() as u64;
        let done = AtomicU64::new(0);
        let limit = self.frontier_limit as u64;
        let level1_found = AtomicU64::new(0);
        let level1_scanned = std::sync::atomic::AtomicBool::new(false);
        let level2_found = AtomicU64::new(0);
        let level2_scanned = std::sync::atomic::AtomicBool::new(false);
        let keep_ties = |level1: &mut Vec<u64>| level1.retain(|e| e & 3 == TAG_TIE);
        let seeds_are_terminal = game.terminals_indexed();
        self.cells
            .par_chunks_mut(CHUNK)
            .enumerate()
            .map(|(chunk_no, cells)| {
                let first = (chunk_no * CHUNK) as u64;
                let (mut level0, mut level1, mut level2, mut tie_candidates) =
                    (Vec::new(), Vec::new(), Vec::new(), Vec::new());
                // Holes stay "no position"; the game steps through the chunk
                // (`for_each_first_look_in`: by default each position decoded
                // from its neighbour, cheaper than decoding each index).
                cells.iter_mut().for_each(|cell| *cell = K::of(PackedValue::NONE));
                let mut too_many_moves = false;
                let chunk = first..first + cells.len() as u64;
                game.for_each_first_look_in(chunk, |index, look| {
                    let cell = &mut cells[(index - first) as usize];
                    let (count, best_terminal) = match look {
                        FirstLook::Over(outcome) => {
                            *cell = K::of_value(outcome.value());
                            if seeds_are_terminal {
                                level0.push(index << 2 | tag_of(outcome.value()));
                            }
                            return;
                        }
                        FirstLook::ByRules => {
                            *cell = K::of_code(K::BY_RULES);
                            return;
                        }
                        FirstLook::Moves { count, best_over } => (count, best_over),
                    };
                    let settled = match (count, best_terminal) {
                        (0, None) => Value::Loss(0),
                        (_, Some(win @ Value::Win(_))) => win,
                        (0, Some(best)) => best,
                        (n, _) if n as u64 > K::MAX_COUNT as u64 => {
                            too_many_moves = true;
                            return;
                        }
                        (n, best) => {
                            let tied = matches!(best, Some(Value::Tie(_)));
                            *cell = K::undecided(n as u32, tied);
                            if tied {
                                tie_candidates.push(index);
                            }
                            return;
                        }
                    };
                    *cell = K::of_value(settled);
                    let entry = index << 2 | tag_of(settled);
                    match settled.remoteness() {
                        Some(0) => level0.push(entry),
                        Some(1) => level1.push(entry),
                        _ => level2.push(entry),
                    }
                });
                if too_many_moves {
                    return Err(Restart::TooManyMoves);
                }
                for (list, found, scanned) in
                    [(&mut level1, &level1_found, &level1_scanned), (&mut level2, &level2_found, &level2_scanned)]
                {
                    if found.fetch_add(list.len() as u64, Relaxed) + list.len() as u64 > limit {
                        scanned.store(true, Relaxed);
                    }
                    if scanned.load(Relaxed) {
                        keep_ties(list);
                    }
                }
                let d = done.fetch_add(cells.len() as u64, Relaxed) + cells.len() as u64;
                report(progress, "initialize", d, total);
                Ok((level0, level1, level2, tie_candidates))
            })
            .try_reduce(
                || (Vec::new(), Vec::new(), Vec::new(), Vec::new()),
                |mut a, mut b| {
                    a.0.append(&mut b.0);
                    a.1.append(&mut b.1);
                    a.2.append(&mut b.2);
                    a.3.append(&mut b.3);
                    if level1_scanned.load(Relaxed) {
                        keep_ties(&mut a.1);
                    }
                    if level2_scanned.load(Relaxed) {
                        keep_ties(&mut a.2);
                    }
                    Ok(a)
                },
            )
            .map(|(level0, level1, level2, tie_candidates)| {
                let frontier = |mut list: Vec<u64>, found: &AtomicU64, scanned: &std::sync::atomic::AtomicBool| {
                    if scanned.load(Relaxed) {
                        keep_ties(&mut list);
                        Frontier::Scanned { ties: list, count: found.load(Relaxed) }
                    } else {
                        Frontier::Listed(list)
                    }
                };
                (
                    level0,
                    frontier(level1, &level1_found, &level1_scanned),
                    frontier(level2, &level2_found, &level2_scanned),
                    tie_candidates,
                )
            })
    }

    /// After propagation: a position with a tied terminal child that is still
    /// undecided has no lost child and prefers that tie to a draw: a tie in 1.
    /// Returns them, as seeds of step 3.
    fn settle_tie_candidates(&mut self, candidates: Vec<u64>) -> Vec<u64> {
        let mut out = Vec::new();
        for index in candidates {
            let cell = &mut self.cells[index as usize];
            if cell.is_undecided() {
                *cell = K::of_value(Value::Tie(1));
                out.push(index);
            }
        }
        out
    }

    /// Step 2. Returns every position decided as a tie (for step 3). `seeds[l]`
    /// holds positions decided at remoteness `l + 1` before any propagation; they
    /// join the frontier of their level.
    fn propagate(&mut self, level0: Vec<u64>, seeds: [Frontier; 2]) -> Result<Vec<u64>, Restart> {
        let total = self.cells.len() as u64;
        let mut ties = Vec::new();
        let mut level = 0u32;
        let size = |frontier: &Frontier| match frontier {
            Frontier::Listed(list) => list.len() as u64,
            Frontier::Scanned { count, .. } => *count,
        };
        let mut decided = level0.len() as u64 + seeds.iter().map(size).sum::<u64>();
        let mut frontier = Frontier::Listed(level0);
        let mut seeds = seeds.map(Some);
        let seeds_after = |seeds: &[Option<Frontier>; 2], level: u32| {
            seeds.iter().skip(level as usize).flatten().any(|seed| !seed.is_empty())
        };
        while !frontier.is_empty() || seeds_after(&seeds, level) {
            let mut next = NextLevel::new(self.frontier_limit);
            let mut pending = Vec::new();
            match frontier {
                Frontier::Listed(mut list) => {
                    ties.extend(list.iter().filter(|e| *e & 3 == TAG_TIE).map(|e| e >> 2));
                    if list.len() >= SORT_FROM && self.cells.len() >= self.sort_from {
                        list = sort_by_region(list, self.cells.len());
                    }
                    self.level(&list, level, &mut next, &mut pending);
                }
                Frontier::Scanned { ties: listed_ties, .. } => {
                    ties.extend(listed_ties.iter().map(|e| e >> 2));
                    self.level(&listed_ties, level, &mut next, &mut pending);
                    // Pieces are gathered until they are worth both cores: a
                    // level just over the limit holds fewer entries a piece than
                    // `parallel_from`, and piece by piece ran on one thread.
                    // At most the frontier limit is gathered (past one piece).
                    let batch = self.parallel_from.min(self.frontier_limit);
                    let mut gathered = Vec::new();
                    for start in (0..self.cells.len()).step_by(SCAN_PIECE) {
                        self.scan(start, level, &mut gathered);
                        if gathered.len() >= batch {
                            self.level(&gathered, level, &mut next, &mut pending);
                            gathered.clear();
                        }
                    }
                    if !gathered.is_empty() {
                        self.level(&gathered, level, &mut next, &mut pending);
                    }
                }
            }
            self.resolve_ties(pending, &mut next);
            // This level decided parents at remoteness level + 1: if the values cannot
            // hold it, what they hold now is cut, and the solve starts over wide.
            if level >= K::MAX_REMOTENESS && next.count > 0 {
                return Err(Restart::TooLong);
            }
            decided += next.count;
            if let Some(seed) = seeds.get_mut(level as usize).and_then(Option::take) {
                next.join(seed);
            }
            report(self.progress, "propagate", decided, total);
            frontier = next.finish();
            level += 1;
        }
        Ok(ties)
    }

    /// Appends to `out` the entries of a level that is not listed among
    /// `SCAN_PIECE` indices from `start`: positions won or lost at remoteness
    /// `level` (its ties are listed).
    fn scan(&self, start: usize, level: u32, out: &mut Vec<u64>) {
        let win = PackedValue::pack(Value::Win(level)).0;
        let loss = PackedValue::pack(Value::Loss(level)).0;
        let end = (start + SCAN_PIECE).min(self.cells.len());
        let parts: Vec<Vec<u64>> = self.cells[start..end]
            .par_chunks(1 << 16)
            .enumerate()
            .map(|(part, cells)| {
                let first = (start + (part << 16)) as u64;
                let mut out = Vec::new();
                for (i, cell) in cells.iter().enumerate() {
                    let code = cell.code();
                    if code == win || code == loss {
                        let tag = if code == win { TAG_WIN } else { TAG_LOSS };
                        out.push((first + i as u64) << 2 | tag);
                    }
                }
                out
            })
            .collect();
        parts.iter().for_each(|part| out.extend_from_slice(part));
    }

    /// Propagates from `frontier` (all or part of a level): decided parents go to
    /// `next`, parents whose value waits on a tie to `pending`.
    fn level(&mut self, frontier: &[u64], level: u32, next: &mut NextLevel, pending: &mut Vec<u64>) {
        let parallel = frontier.len() >= self.parallel_from && rayon::current_num_threads() > 1;
        if self.cells.len() < self.sort_from || frontier.len() < PathChoice::TIMED_FROM {
            // The cells stay in the cache, or the level is short: nothing to fetch
            // ahead or to time.
            let path = if parallel { Path::Parallel } else { Path::Direct };
            return self.level_by(path, frontier, level, next, pending);
        }
        let path = self.paths.pick(parallel);
        let started = std::time::Instant::now();
        self.level_by(path, frontier, level, next, pending);
        self.paths.record(path, frontier.len(), started.elapsed());
    }

    fn level_by(&mut self, path: Path, frontier: &[u64], level: u32, next: &mut NextLevel, pending: &mut Vec<u64>) {
        match path {
            Path::Parallel => self.level_parallel(frontier, level, next, pending),
            sequential => self.level_sequential(sequential, frontier, level, next, pending),
        }
    }

    /// One level on the calling thread, by [`Path::Direct`] or [`Path::FetchAhead`].
    fn level_sequential(
        &mut self,
        path: Path,
        frontier: &[u64],
        level: u32,
        next: &mut NextLevel,
        pending: &mut Vec<u64>,
    ) {
        let (game, cells) = (self.game, &mut self.cells);
        let mut update = |cells: &mut [K], p: u64, tag: u64| match step(&mut cells[p as usize], tag, level) {
            Update::None => {}
            Update::Decided(t) => next.push(p << 2 | t),
            Update::TiePending => pending.push(p),
        };
        if path == Path::Direct {
            for &entry in frontier {
                game.for_each_parent_index(entry >> 2, |parent| update(cells, parent, entry & 3));
            }
            return;
        }
        let mut updates = Vec::new();
        for batch in frontier.chunks(SEQUENTIAL_BATCH) {
            updates.clear();
            for &entry in batch {
                game.for_each_parent_index(entry >> 2, |parent| updates.push(parent << 2 | entry & 3));
            }
            for (i, &listed) in updates.iter().enumerate() {
                if let Some(&ahead) = updates.get(i + PREFETCH_DISTANCE) {
                    prefetch(&cells[(ahead >> 2) as usize]);
                }
                update(cells, listed >> 2, listed & 3);
            }
        }
    }

    /// One level in parallel, a batch of the frontier at a time, in two phases:
    /// 1. **list**: the batch is cut into parts, [`PARTS_PER_THREAD`] a thread; each part's parents
    ///    become updates (`index << 2 | tag`) in one list per owner;
    /// 2. **apply**: the index is cut into blocks of `1 << BLOCK_SHIFT` indices
    ///    dealt round-robin to the threads (interleaving evens out the load); each
    ///    thread applies the updates listed for its blocks, through its own `&mut`
    ///    slices.
    ///
    /// Each parent is generated once: walking the whole frontier in every thread,
    /// as this solver once did, repeats every parent's generation in each thread
    /// and lost to one thread. The lists of a batch stay small.
    fn level_parallel(&mut self, frontier: &[u64], level: u32, next: &mut NextLevel, pending: &mut Vec<u64>) {
        let game = self.game;
        // A power of two, so that the owner of a block is a mask away.
        let owners = 1usize << rayon::current_num_threads().ilog2();
        let mut owned: Vec<Vec<&mut [K]>> = (0..owners).map(|_| Vec::new()).collect();
        for (i, block) in self.cells.chunks_mut(1 << BLOCK_SHIFT).enumerate() {
            owned[i & (owners - 1)].push(block);
        }
        // The updates of each part of a batch by owner, kept from batch to batch:
        // lists allocated anew for each batch cost page faults and zeroed pages.
        // Several parts a thread, so that a thread whose parts took longer is
        // helped: with one part a thread, the other waited for the slower. The parts are applied in the
        // frontier's order whatever their number.
        let parts = owners * PARTS_PER_THREAD;
        let mut listed: Vec<Vec<Vec<u64>>> = (0..parts).map(|_| vec![Vec::new(); owners]).collect();
        for batch in frontier.chunks(PARALLEL_BATCH) {
            // Phase 1: the updates of each part of the batch, by owner.
            listed.iter_mut().flatten().for_each(Vec::clear);
            listed.par_iter_mut().zip(batch.par_chunks(batch.len().div_ceil(parts))).for_each(|(by_owner, part)| {
                for &entry in part {
                    let tag = entry & 3;
                    game.for_each_parent_index(entry >> 2, |p| {
                        by_owner[(p >> BLOCK_SHIFT) as usize & (owners - 1)].push(p << 2 | tag);
                    });
                }
            });
            // Phase 2: each owner applies its updates, part by part (so in the
            // frontier's order).
            let results: Vec<(Vec<u64>, Vec<u64>)> = owned
                .par_iter_mut()
                .enumerate()
                .map(|(owner, blocks)| {
                    let (mut next, mut pending) = (Vec::new(), Vec::new());
                    let cell_of =
                        |p: u64| ((p >> BLOCK_SHIFT) as usize / owners, (p & ((1 << BLOCK_SHIFT) - 1)) as usize);
                    for updates in listed.iter().map(|by_owner| &by_owner[owner]) {
                        for (i, &update) in updates.iter().enumerate() {
                            if let Some(&ahead) = updates.get(i + PREFETCH_DISTANCE) {
                                let (block, offset) = cell_of(ahead >> 2);
                                prefetch(&blocks[block][offset]);
                            }
                            let (p, tag) = (update >> 2, update & 3);
                            let (block, offset) = cell_of(p);
                            match step(&mut blocks[block][offset], tag, level) {
                                Update::None => {}
                                Update::Decided(t) => next.push(p << 2 | t),
                                Update::TiePending => pending.push(p),
                            }
                        }
                    }
                    (next, pending)
                })
                .collect();
            for (n, p) in results {
                next.extend(n);
                pending.extend(p);
            }
        }
    }

    /// Gives positions whose children are all decided, some tied, their value: the
    /// best of their children's, read after all of this level's updates.
    fn resolve_ties(&mut self, pending: Vec<u64>, next: &mut NextLevel) {
        let this = &*self;
        let resolved: Vec<(u64, Value)> = pending.into_par_iter().map(|p| (p, this.best_child_value(p))).collect();
        for (p, value) in resolved {
            self.cells[p as usize] = K::of_value(value);
            next.push(p << 2 | tag_of(value));
        }
    }

    /// The value of a position whose children are all decided.
    fn best_child_value(&self, index: u64) -> Value {
        let position = self.game.position(index).expect("pending positions exist");
        let mut best = None;
        self.game.for_each_child(&position, |child| {
            let value = match self.game.value_by_rules(&child) {
                Some(value) => value,
                None => self.cells[self.game.index(&child) as usize].packed().unpack().expect("children exist"),
            };
            best = best.max(Some(value.parent_view()));
        });
        best.expect("a position with a counter has children")
    }

    /// Step 3: breadth-first from tied positions, fastest first.
    fn spread_ties(&mut self, mut seeds: Vec<u64>) -> Result<(), Restart> {
        let remoteness = |cells: &[K], i: u64| {
            cells[i as usize].packed().unpack().and_then(Value::remoteness).expect("ties have a remoteness")
        };
        seeds.sort_by_key(|&i| remoteness(&self.cells, i));
        let mut seeds = seeds.into_iter().peekable();
        let mut found = std::collections::VecDeque::new();
        let game = self.game;
        loop {
            // The next tie in order of remoteness from the two sorted sources.
            let next = match (seeds.peek(), found.front()) {
                (Some(&s), Some(&f)) if remoteness(&self.cells, f) < remoteness(&self.cells, s) => found.pop_front(),
                (Some(_), _) => seeds.next(),
                (None, _) => found.pop_front(),
            };
            let Some(index) = next else { return Ok(()) };
            let r = remoteness(&self.cells, index);
            let cells = &mut self.cells;
            let mut too_long = false;
            game.for_each_parent_index(index, |p| {
                let cell = &mut cells[p as usize];
                if cell.is_undecided() {
                    *cell = K::of_value(Value::Tie(r + 1));
                    found.push_back(p);
                    too_long |= r >= K::MAX_REMOTENESS;
                }
            });
            if too_long {
                // A tie past what the values hold: start over wide.
                return Err(Restart::TooLong);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Path, PathChoice};
    use std::time::Duration;

    #[test]
    fn the_path_choice_tries_each_then_runs_the_cheapest_and_rechecks_the_stalest() {
        let mut choice = PathChoice::default();
        let entries = PathChoice::TIMED_FROM;
        let nanos = |per_entry: u64| Duration::from_nanos(per_entry * entries as u64);
        // Untimed paths first, threads first.
        assert_eq!(choice.pick(true), Path::Parallel);
        choice.record(Path::Parallel, entries, nanos(30));
        assert_eq!(choice.pick(true), Path::FetchAhead);
        choice.record(Path::FetchAhead, entries, nanos(10));
        assert_eq!(choice.pick(true), Path::Direct);
        choice.record(Path::Direct, entries, nanos(20));
        // Then the cheapest allowed.
        assert_eq!(choice.pick(true), Path::FetchAhead);
        assert_eq!(choice.pick(false), Path::FetchAhead);
        for _ in 3..PathChoice::RECHECK - 1 {
            choice.record(Path::FetchAhead, entries, nanos(10));
        }
        // Every RECHECK-th timed level, the path timed longest ago.
        assert_eq!(choice.pick(true), Path::Parallel);
        // A new measurement replaces a stale one: Parallel is now the cheapest.
        choice.record(Path::Parallel, entries, nanos(5));
        assert_eq!(choice.pick(true), Path::Parallel);
        // Runs of the same path average.
        choice.record(Path::Parallel, entries, nanos(25));
        assert_eq!(choice.pick(true), Path::FetchAhead, "parallel now costs (5 + 25) / 2 = 15");
    }
}
