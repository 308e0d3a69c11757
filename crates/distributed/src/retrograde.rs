//! The engine's retrograde analysis ([`gsolve_engine::retrograde`]) over many
//! workers, each owning part of the index ([`Partition`]): its counters and
//! values, never a copy of the whole.
//!
//! # The algorithm, in named steps (as in the engine)
//! 1. **initialize**: each worker values its own indices from their first look
//!    ([`gsolve_engine::Indexed::for_each_first_look_in`]): holes, terminal
//!    positions, positions without moves, positions decided at once by children
//!    the rules value (a win in 1, a loss or tie in 1 or 2, where terminal
//!    positions are not all indexed), and counters for the rest. The widths
//!    (1- or 4-byte counters, 2- or 4-byte values, kept apart: see step 3) are chosen by the moves and remoteness met; a
//!    worker that finds a position with too many moves says so in the round's
//!    summary and every worker starts over wider.
//! 2. **propagate**: one round per level `r`. Each worker lists the parents of its
//!    positions decided at `r` and sends `parent << 2 | tag` to the parent's owner,
//!    which applies it with the engine's own step ([`gsolve_engine::retrograde::apply`]): a lost
//!    child decides a win in `r + 1`, the last won child a loss in `r + 1`. The
//!    round's summaries (sizes, flags) tell every worker when the frontier is
//!    empty everywhere.
//! 3. **ties**: a position whose children are all decided and some tied takes a
//!    tie one ply longer than its fastest tied child. The engine reads all the
//!    children again to find it; here their values live elsewhere, so the value
//!    cell of an undecided position keeps it instead: the first tied child to
//!    arrive is the fastest (levels come in increasing order), and a tied
//!    terminal child (games whose terminals are not indexed) is a tie in 1. Then
//!    tied positions spread to their undecided parents one remoteness at a time,
//!    as in the engine's breadth-first pass.
//! 4. what is still undecided is a draw.
//!
//! The values are those of [`gsolve_engine::retrograde::solve`], index for index: the tests
//! check it on random graphs with cycles, ties, draws and holes, and on games.
//!
//! # Memory
//! A worker holds 3 bytes for each position it owns (a 1-byte counter and a
//! 2-byte value; wider where step 1 finds it must be), plus the current and
//! next levels' lists of 8-byte entries, each at most
//! [`Options::frontier_limit`] long (by default half a byte for each position
//! owned): a larger level lists only its ties and is found by scanning the
//! values for its remoteness ([`Level`]), as the engine does.

use crate::cluster::Lost;
use crate::partition::Partition;
use crate::rounds::{Received, Rounds, BATCH};
use gsolve_engine::progress::{report, Observer};
use gsolve_engine::retrograde::{apply, tag_of, Counter, Slot, Update, TAG_TIE};
use gsolve_engine::{FirstLook, PackedValue, Unmoves, Value};
use std::collections::BTreeMap;
use timely::worker::Worker;

/// A worker's part of a solve: the values of the indices it owns, in the order
/// the [`Partition`] keeps them, as [`PackedValue`] codes 2 or 4 bytes wide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// 2-byte codes: every remoteness is at most
    /// [`gsolve_engine::Solution::NARROW_MAX_REMOTENESS`].
    Narrow(Vec<u16>),
    /// 4-byte codes.
    Wide(Vec<u32>),
}

impl Part {
    /// The code kept at `local`.
    pub fn code(&self, local: usize) -> u32 {
        match self {
            Part::Narrow(codes) => codes[local] as u32,
            Part::Wide(codes) => codes[local],
        }
    }

    /// Number of indices held.
    pub fn len(&self) -> usize {
        match self {
            Part::Narrow(codes) => codes.len(),
            Part::Wide(codes) => codes.len(),
        }
    }

    /// True when it holds no index.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The indices held that name no position ([`PackedValue::NONE`]).
    pub fn holes(&self) -> u64 {
        match self {
            Part::Narrow(codes) => codes.iter().filter(|&&c| c as u32 == PackedValue::NONE.0).count() as u64,
            Part::Wide(codes) => codes.iter().filter(|&&c| c == PackedValue::NONE.0).count() as u64,
        }
    }

    /// The largest code held.
    pub fn max_code(&self) -> u32 {
        match self {
            Part::Narrow(codes) => codes.iter().map(|&c| c as u32).max().unwrap_or(0),
            Part::Wide(codes) => codes.iter().copied().max().unwrap_or(0),
        }
    }
}

/// Options of a distributed solve.
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// Receives progress reports (steps `"initialize"`, `"propagate"`),
    /// with counts for the whole run; give it to one worker only.
    pub progress: Option<Observer<'a>>,
    /// The most positions of one level a worker lists (see [`Level`]); `None`:
    /// one for every 16 positions it owns (half a byte each, as the engine's
    /// default).
    pub frontier_limit: Option<usize>,
}

/// Solves `game` with every worker of the run; returns this worker's part.
/// Every worker must call it with the same game, the same `rounds` partition.
pub fn solve<G: Unmoves + Sync>(
    worker: &mut Worker,
    rounds: &mut Rounds,
    game: &G,
    options: &Options<'_>,
) -> Result<Part, Lost> {
    let (mut wide_counter, mut wide_values) = (false, false);
    loop {
        let result = match (wide_counter, wide_values) {
            (false, false) => Solver::<G, u8, u16>::run(worker, rounds, game, options),
            (true, false) => Solver::<G, u32, u16>::run(worker, rounds, game, options),
            (false, true) => Solver::<G, u8, u32>::run(worker, rounds, game, options),
            (true, true) => Solver::<G, u32, u32>::run(worker, rounds, game, options),
        }?;
        match result {
            Ok(part) => return Ok(part),
            Err(Restart::TooManyMoves) if !wide_counter => wide_counter = true,
            Err(Restart::TooLong) if !wide_values => wide_values = true,
            Err(why) => panic!("a retrograde solve cannot go wider: {why:?}"),
        }
    }
}

/// The value of a win in 1 by the rules ([`FirstLook::ByRules`]) until the
/// solve ends: a code that names no value (tag 0, not a draw or a hole), so
/// that no level finds it and propagates from it.
const BY_RULES: PackedValue = PackedValue(2 << 2);

/// Why a solve starts over wider (decided by all workers together).
#[derive(Debug)]
enum Restart {
    TooManyMoves,
    TooLong,
}

/// Turns the engine's cells into a [`Part`].
trait IntoPart: Slot {
    fn part(cells: Vec<Self>) -> Part;
}

impl IntoPart for u16 {
    fn part(cells: Vec<u16>) -> Part {
        Part::Narrow(cells)
    }
}

impl IntoPart for u32 {
    fn part(cells: Vec<u32>) -> Part {
        Part::Wide(cells)
    }
}

/// The positions of one worker decided at one level (remoteness), to propagate
/// from: listed as frontier entries until they pass the limit, then only their
/// ties, the others found by scanning the worker's values for a win or loss of
/// that remoteness when the level is processed (no other level writes those).
///
/// Why: a level can hold a large share of the positions (Dobutsu: the wins in
/// 1 by a piece that takes the lion), and at 8 bytes an entry its list alone
/// took more memory than the values; the engine scans such levels the same way.
/// Level 0 is always listed: terminal positions valued but not propagated from
/// also have remoteness 0.
#[derive(Default)]
struct Level {
    listed: Vec<u64>,
    /// The non-tie entries are not listed: scan for them.
    scanned: bool,
    /// Every entry, listed or not.
    count: u64,
}

impl Level {
    fn push(&mut self, entry: u64, limit: usize) {
        self.count += 1;
        if !self.scanned || entry & 3 == TAG_TIE {
            self.listed.push(entry);
            self.keep_within(limit);
        }
    }

    /// This level and `other` (of the same remoteness) as one.
    fn join(mut self, mut other: Level, limit: usize) -> Level {
        self.listed.append(&mut other.listed);
        self.count += other.count;
        if self.scanned || other.scanned {
            self.scan_instead();
        }
        self.keep_within(limit);
        self
    }

    /// Past `limit` listed, the level is scanned for instead.
    fn keep_within(&mut self, limit: usize) {
        if !self.scanned && self.listed.len() > limit {
            self.scan_instead();
        }
    }

    /// Lists the ties only: the rest is found by scanning.
    fn scan_instead(&mut self) {
        self.scanned = true;
        self.listed.retain(|e| e & 3 == TAG_TIE);
    }
}

/// Positions scanned for at a time in a scanned level.
const SCAN_BLOCK: usize = 1 << 16;

struct Solver<'g, 'o, G, C, V> {
    game: &'g G,
    partition: Partition,
    me: usize,
    counters: Vec<C>,
    values: Vec<V>,
    progress: Option<Observer<'o>>,
    /// [`Options::frontier_limit`], resolved.
    limit: usize,
}

/// Applies "a child tied in `remoteness`" to a parent, keeping in its value cell
/// (unused while it is undecided) a tie one ply longer than its fastest tied
/// child so far (see step 3 of the module documentation). Returns what the
/// engine's step returns, with a pending tie already valued.
#[inline]
fn apply_tie<C: Counter, V: Slot>(counter: &mut C, value: &mut V, remoteness: u32, level: u32) -> Update {
    let before = counter.to_u32();
    if before == 0 {
        return Update::None;
    }
    let update = apply(counter, value, TAG_TIE, level);
    let tie = remoteness + 1;
    let kept = (before & C::TIED != 0).then(|| value.packed().unpack().and_then(Value::remoteness)).flatten();
    if kept.is_none_or(|kept| tie < kept) {
        *value = V::of(PackedValue::pack(Value::Tie(tie)));
    }
    update
}

/// Applies a batch of updates received in a level of propagation to this
/// worker's positions; those decided join `next`, those whose children are now
/// all decided with some tied join `pending`.
#[allow(clippy::too_many_arguments)]
fn receive<C: Counter, V: Slot>(
    received: Received<'_>,
    counters: &mut [C],
    values: &mut [V],
    partition: &Partition,
    level: u32,
    next: &mut Level,
    pending: &mut Vec<u64>,
    limit: usize,
) {
    let mut decide = |parent: u64, update: Update| match update {
        Update::None => {}
        Update::Decided(tag) => next.push(parent << 2 | tag, limit),
        Update::TiePending => pending.push(parent),
    };
    match received {
        Received::Updates(updates) => {
            for &update in updates {
                let local = partition.local(update >> 2);
                decide(update >> 2, apply(&mut counters[local], &mut values[local], update & 3, level));
            }
        }
        Received::Ties(ties) => {
            for &(update, remoteness) in ties {
                let local = partition.local(update >> 2);
                decide(update >> 2, apply_tie(&mut counters[local], &mut values[local], remoteness, level));
            }
        }
    }
}

impl<'g, 'o, G: Unmoves + Sync, C: Counter, V: IntoPart> Solver<'g, 'o, G, C, V> {
    fn run(
        worker: &mut Worker,
        rounds: &mut Rounds,
        game: &'g G,
        options: &Options<'o>,
    ) -> Result<Result<Part, Restart>, Lost> {
        let partition = *rounds.partition();
        let me = worker.index();
        let owned = partition.owned(me);
        let mut solver = Solver {
            game,
            partition,
            me,
            counters: vec![C::default(); owned],
            values: vec![V::of(PackedValue::DRAW); owned],
            progress: options.progress,
            limit: options.frontier_limit.unwrap_or(owned / 16),
        };
        let (seeds, candidates, too_many) = solver.initialize();
        let summary = [too_many as u64, seeds[0].count, seeds[1].count, seeds[2].count];
        let summaries = rounds.finish(worker, &summary, &mut |_| unreachable!("no updates in this round"))?;
        if summaries.iter().any(|s| s[0] != 0) {
            return Ok(Err(Restart::TooManyMoves));
        }
        let sizes: [u64; 3] = std::array::from_fn(|l| summaries.iter().map(|s| s[l + 1]).sum());
        let mut ties = match solver.propagate(worker, rounds, seeds, sizes)? {
            Ok(ties) => ties,
            Err(restart) => return Ok(Err(restart)),
        };
        ties.extend(solver.settle_tie_candidates(candidates));
        if let Err(restart) = solver.spread_ties(worker, rounds, ties)? {
            return Ok(Err(restart));
        }
        let win_in_1 = V::of(PackedValue::pack(Value::Win(1)));
        for value in &mut solver.values {
            if value.packed() == BY_RULES {
                *value = win_in_1;
            }
        }
        Ok(Ok(V::part(solver.values)))
    }

    /// Step 1, over this worker's indices, as the engine's: each position's
    /// first look ([`gsolve_engine::Indexed::for_each_first_look_in`]) gives it a
    /// value or a counter. Where terminal positions are not all indexed, the
    /// children the rules value (terminal ones, and wins in 1 the index leaves
    /// out) are valued here, not propagated from: a position can then be
    /// decided at remoteness 1 or 2 at once. Returns the positions decided at
    /// remoteness 0, 1 and 2 (frontier entries), the tie candidates, and
    /// whether a position has more moves than the counter holds.
    fn initialize(&mut self) -> ([Level; 3], Vec<u64>, bool) {
        let game = self.game;
        let mut seeds: [Level; 3] = Default::default();
        let limits = [usize::MAX, self.limit, self.limit];
        let mut candidates = Vec::new();
        let max_count = C::TIED - 1;
        let seeds_are_terminal = game.terminals_indexed();
        let total = self.counters.len() as u64;
        let mut first_local = 0usize;
        for range in self.partition.ranges(self.me) {
            let length = (range.end - range.start) as usize;
            let (counters, values) =
                (&mut self.counters[first_local..first_local + length], &mut self.values[first_local..]);
            // Holes are never looked at: they stay "no position".
            values[..length].iter_mut().for_each(|value| *value = V::of(PackedValue::NONE));
            let mut too_many = false;
            let first = range.start;
            game.for_each_first_look_in(range, |index, look| {
                let local = (index - first) as usize;
                let (counter, value) = (&mut counters[local], &mut values[local]);
                let (count, best_terminal) = match look {
                    FirstLook::Over(outcome) => {
                        *value = V::of(PackedValue::pack(outcome.value()));
                        if seeds_are_terminal {
                            seeds[0].push(index << 2 | tag_of(outcome.value()), usize::MAX);
                        }
                        return;
                    }
                    // Decided (counter 0), but not a win in 1's value until
                    // the end: a scanned level 1 would propagate from it.
                    FirstLook::ByRules => {
                        *value = V::of(BY_RULES);
                        return;
                    }
                    FirstLook::Moves { count, best_over } => (count, best_over),
                };
                let settled = match (count, best_terminal) {
                    (0, None) => Value::Loss(0),
                    (_, Some(win @ Value::Win(_))) => win,
                    (0, Some(best)) => best,
                    (n, _) if n as u64 > max_count as u64 => {
                        too_many = true;
                        return;
                    }
                    (n, best) => {
                        let tied = matches!(best, Some(Value::Tie(_)));
                        *counter = C::from_u32(n as u32 | if tied { C::TIED } else { 0 });
                        *value = V::of(PackedValue::DRAW);
                        if tied {
                            // A tied terminal child: the fastest tie there is.
                            *value = V::of(PackedValue::pack(Value::Tie(1)));
                            candidates.push(index);
                        }
                        return;
                    }
                };
                *value = V::of(PackedValue::pack(settled));
                let level = (settled.remoteness().expect("a settled value has a remoteness") as usize).min(2);
                seeds[level].push(index << 2 | tag_of(settled), limits[level]);
            });
            if too_many {
                return (seeds, candidates, true);
            }
            first_local += length;
            report(self.progress, "initialize", first_local as u64, total);
        }
        (seeds, candidates, false)
    }

    /// Step 2. `seeds`: this worker's positions decided at remoteness 0, 1 and
    /// 2 by step 1; `sizes`: the whole run's counts of them. Each joins the
    /// frontier at its level. Returns this worker's tied positions.
    fn propagate(
        &mut self,
        worker: &mut Worker,
        rounds: &mut Rounds,
        seeds: [Level; 3],
        sizes: [u64; 3],
    ) -> Result<Result<Vec<u64>, Restart>, Lost> {
        let (game, partition, me, limit) = (self.game, self.partition, self.me, self.limit);
        let total = partition.size;
        let mut decided = sizes.iter().sum::<u64>();
        // Every worker starts at the first level some worker has seeds for (the
        // sizes are the whole run's), so that all take the same rounds.
        let mut level = sizes.iter().position(|&n| n > 0).unwrap_or(0) as u32;
        let mut seeds = seeds.map(Some);
        let mut frontier = seeds[level as usize].take().unwrap_or_default();
        let later_seeds = |level: u32| sizes.iter().skip(level as usize + 1).any(|&n| n > 0);
        let mut ties = Vec::new();
        let mut too_long = false;
        loop {
            ties.extend(frontier.listed.iter().filter(|e| *e & 3 == TAG_TIE).map(|e| e >> 2));
            let (mut next, mut pending) = (Level::default(), Vec::new());
            let tie_remoteness: Vec<u32> =
                frontier.listed.iter().filter(|e| *e & 3 == TAG_TIE).map(|e| self.remoteness(e >> 2)).collect();
            let mut tie_remoteness = tie_remoteness.into_iter();
            // Updates are applied as they arrive, between this worker's sends;
            // a scanned level reads the values between them too (the updates
            // of this level write remoteness level + 1, never level).
            macro_rules! receive {
                () => {
                    &mut |received: Received<'_>| {
                        receive(
                            received,
                            &mut self.counters,
                            &mut self.values,
                            &partition,
                            level,
                            &mut next,
                            &mut pending,
                            limit,
                        )
                    }
                };
            }
            let (mut batch, mut tie_batch) = (Vec::with_capacity(BATCH), Vec::new());
            for &entry in &frontier.listed {
                let (index, tag) = (entry >> 2, entry & 3);
                if tag == TAG_TIE {
                    let remoteness = tie_remoteness.next().expect("one a tie");
                    game.for_each_parent_index(index, |parent| tie_batch.push((parent << 2 | tag, remoteness)));
                    if tie_batch.len() >= BATCH {
                        rounds.send_ties(worker, &mut tie_batch, receive!())?;
                    }
                } else {
                    game.for_each_parent_index(index, |parent| batch.push(parent << 2 | tag));
                    if batch.len() >= BATCH {
                        rounds.send(worker, &mut batch, receive!())?;
                    }
                }
            }
            let mut processed = frontier.listed.len() as u64;
            if frontier.scanned {
                let mut found = Vec::new();
                for start in (0..self.values.len()).step_by(SCAN_BLOCK) {
                    found.clear();
                    let end = (start + SCAN_BLOCK).min(self.values.len());
                    for (local, value) in self.values[start..end].iter().enumerate() {
                        if let Some(value @ (Value::Win(r) | Value::Loss(r))) = value.packed().unpack() {
                            if r == level {
                                found.push(partition.global(me, start + local) << 2 | tag_of(value));
                            }
                        }
                    }
                    processed += found.len() as u64;
                    for &entry in &found {
                        game.for_each_parent_index(entry >> 2, |parent| batch.push(parent << 2 | entry & 3));
                        if batch.len() >= BATCH {
                            rounds.send(worker, &mut batch, receive!())?;
                        }
                    }
                }
            }
            rounds.send(worker, &mut batch, receive!())?;
            rounds.send_ties(worker, &mut tie_batch, receive!())?;
            let summary = [processed, too_long as u64];
            let summaries = rounds.finish(worker, &summary, receive!())?;
            if summaries.iter().any(|s| s[1] != 0) {
                return Ok(Err(Restart::TooLong));
            }
            if summaries.iter().all(|s| s[0] == 0) && !later_seeds(level) {
                return Ok(Ok(ties));
            }
            // Every child of a pending position is decided, some tied, none lost:
            // its value is the tie its cell kept.
            for p in pending {
                next.push(p << 2 | TAG_TIE, limit);
            }
            if let Some(Some(seeded)) = seeds.get_mut(level as usize + 1).map(Option::take) {
                next = next.join(seeded, limit);
            }
            // This level decided parents at remoteness level + 1: values that cannot
            // hold it start the solve over wide, everywhere, after the next round.
            too_long = level >= V::MAX_REMOTENESS && next.count > 0;
            decided += summaries.iter().map(|s| s[0]).sum::<u64>();
            report(self.progress, "propagate", decided.min(total), total);
            frontier = next;
            level += 1;
        }
    }

    /// After propagation: a position with a tied terminal child that is still
    /// undecided is a tie in 1 (its cell says so already). Returns them.
    fn settle_tie_candidates(&mut self, candidates: Vec<u64>) -> Vec<u64> {
        let mut settled = Vec::new();
        for index in candidates {
            let local = self.partition.local(index);
            if self.counters[local].to_u32() != 0 {
                self.counters[local] = C::from_u32(0);
                self.values[local] = V::of(PackedValue::pack(Value::Tie(1)));
                settled.push(index);
            }
        }
        settled
    }

    fn remoteness(&self, index: u64) -> u32 {
        let local = self.partition.local(index);
        self.values[local].packed().unpack().and_then(Value::remoteness).expect("ties have a remoteness")
    }

    /// Step 3: ties spread to undecided parents, one remoteness a round, fastest
    /// first. Every worker knows each round's remoteness: the first is the
    /// smallest of all seeds; then one more while some worker had ties to spread,
    /// or else the smallest seed left.
    fn spread_ties(
        &mut self,
        worker: &mut Worker,
        rounds: &mut Rounds,
        seeds: Vec<u64>,
    ) -> Result<Result<(), Restart>, Lost> {
        let mut by_remoteness: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
        for index in seeds {
            by_remoteness.entry(self.remoteness(index)).or_default().push(index);
        }
        let smallest = |map: &BTreeMap<u32, Vec<u64>>| map.keys().next().map_or(u64::MAX, |&r| r as u64);
        let summaries = rounds.finish(worker, &[smallest(&by_remoteness)], &mut |_| unreachable!("no updates"))?;
        let mut remoteness = summaries.iter().map(|s| s[0]).min().unwrap_or(u64::MAX);
        let (game, partition) = (self.game, self.partition);
        // A tie past what the values hold, decided in the last round: told to every
        // worker in the next round's summary, so that all start over together.
        let mut too_long = false;
        while remoteness != u64::MAX {
            let r = remoteness as u32;
            let spreading = by_remoteness.remove(&r).unwrap_or_default();
            let (counters, values) = (&mut self.counters, &mut self.values);
            let mut found = Vec::new();
            let told = too_long;
            let mut receive = |received: Received<'_>| {
                let Received::Updates(updates) = received else { unreachable!("spreading sends no tie updates") };
                for &update in updates {
                    let local = partition.local(update >> 2);
                    if counters[local].to_u32() != 0 {
                        counters[local] = C::from_u32(0);
                        values[local] = V::of(PackedValue::pack(Value::Tie(r + 1)));
                        found.push(update >> 2);
                        too_long |= r >= V::MAX_REMOTENESS;
                    }
                }
            };
            let mut batch = Vec::with_capacity(BATCH);
            for &index in &spreading {
                game.for_each_parent_index(index, |parent| batch.push(parent << 2 | TAG_TIE));
                if batch.len() >= BATCH {
                    rounds.send(worker, &mut batch, &mut receive)?;
                }
            }
            rounds.send(worker, &mut batch, &mut receive)?;
            // Seeds left beyond r: the next remoteness if no worker spread anything.
            let summary = [spreading.len() as u64, smallest(&by_remoteness), told as u64];
            let summaries = rounds.finish(worker, &summary, &mut receive)?;
            if summaries.iter().any(|s| s[2] != 0) {
                return Ok(Err(Restart::TooLong));
            }
            if !found.is_empty() {
                by_remoteness.entry(r + 1).or_default().extend(found);
            }
            let spread_somewhere = summaries.iter().any(|s| s[0] != 0);
            remoteness = if spread_somewhere {
                remoteness + 1
            } else {
                summaries.iter().map(|s| s[1]).min().unwrap_or(u64::MAX)
            };
        }
        let summaries = rounds.finish(worker, &[too_long as u64], &mut |_| unreachable!("no updates"))?;
        if summaries.iter().any(|s| s[0] != 0) {
            return Ok(Err(Restart::TooLong));
        }
        Ok(Ok(()))
    }
}

/// Gathers every worker's part on worker 0, as the whole table (for games small
/// enough to hold in one process: tests, and front ends that want the values
/// rather than a file). Every worker calls it; worker 0 gets `Some`.
pub fn gather(worker: &mut Worker, rounds: &mut Rounds, part: &Part) -> Result<Option<Vec<PackedValue>>, Lost> {
    let partition = *rounds.partition();
    let me = worker.index();
    let mut parcels = Vec::new();
    let mut local = 0usize;
    for range in partition.ranges(me) {
        let length = (range.end - range.start) as usize;
        let bytes = (local..local + length).flat_map(|l| part.code(l).to_le_bytes()).collect();
        parcels.push((0, range.start, bytes));
        local += length;
    }
    let received = rounds.gather(worker, parcels)?;
    if me != 0 {
        return Ok(None);
    }
    let mut values = Vec::with_capacity(partition.size as usize);
    for (start, bytes) in received {
        debug_assert_eq!(start, values.len() as u64);
        values.extend(bytes.chunks_exact(4).map(|c| PackedValue(u32::from_le_bytes(c.try_into().expect("4 bytes")))));
    }
    Ok(Some(values))
}

/// Solves `game` on the cluster and returns the whole table on process 0
/// (`None` elsewhere): [`solve`] then [`gather`] on every worker. Every process
/// gives the same `job` (it names the game for the handshake) and the same game.
pub fn solve_on<G: Unmoves + Send + Sync + 'static>(
    cluster: &crate::Cluster,
    job: &str,
    game: std::sync::Arc<G>,
    chunk_shift: u32,
) -> Result<Option<gsolve_engine::Solution>, crate::Error> {
    solve_on_with(cluster, job, game, chunk_shift, None)
}

/// [`solve_on`] with a [`Options::frontier_limit`] (a small one makes every
/// level past the first scanned: what tests of scanning ask for).
pub fn solve_on_with<G: Unmoves + Send + Sync + 'static>(
    cluster: &crate::Cluster,
    job: &str,
    game: std::sync::Arc<G>,
    chunk_shift: u32,
    frontier_limit: Option<usize>,
) -> Result<Option<gsolve_engine::Solution>, crate::Error> {
    let threads = cluster.threads;
    let results = crate::cluster::run(cluster, job, move |worker| {
        let partition = Partition::new(game.index_size(), worker.peers(), chunk_shift);
        let mut rounds = Rounds::new(worker, partition, threads);
        let options = Options { progress: None, frontier_limit };
        let part = solve(worker, &mut rounds, &*game, &options)?;
        gather(worker, &mut rounds, &part)
    })?;
    Ok(results.into_iter().flatten().next().map(gsolve_engine::Solution::from_packed))
}
