//! A large tier that may have cycles, split over every worker and solved by
//! retrograde analysis within it: the engine's single-process
//! `retrograde_in_tier` (see [`gsolve_engine::tiered::solve_tier`]), with each
//! worker owning the indices of the tier that [`Partition`] deals it, and its
//! counters, values and parent lists, never a copy of the whole.
//!
//! # The steps
//! 1. **graph**, in rounds of at most [`GRAPH_PIECE`] positions a worker: each
//!    worker walks the children of its positions ([`Tiered::for_each_located`]).
//!    - A child in the tier is an *edge*, sent to the child's owner (16 bytes),
//!      which keeps the parents of its own positions.
//!    - A child elsewhere has its final value: terminal (by the rules), or in a
//!      child tier, asked of the owner of its code (8 bytes) and answered in the
//!      next round (4 bytes), as a split sweep asks. It is an *event* for the
//!      parent at the level of its remoteness; a drawn child is never decided.
//!    - A position's counter is its number of moves (a child reached by two
//!      moves counts twice, and is an edge twice).
//! 2. **propagate**, one round a level `r`: each worker sends, for its
//!    positions decided at `r`, an update to the owner of each of their parents
//!    (`parent << 2 | tag`; a tie with its remoteness), and applies its events
//!    of level `r`. A lost child decides a win in `r + 1`; the last won child a
//!    loss in `r + 1`; the last child of a position with a tied child a tie one
//!    ply longer than its fastest tied child, which the position's value cell
//!    keeps while it waits (every tie update carries its remoteness, so the
//!    order updates arrive in does not matter). When no worker decided anything,
//!    the next level is the least level of an event anywhere.
//! 3. **ties**: an undecided position with a tied child ties one ply after its
//!    fastest tied child, breadth first, one round a remoteness.
//! 4. what is still undecided is a draw; the codes take the fewest bytes that
//!    hold the largest code of the tier on any worker.
//!
//! The values are the single process's, index for index: the tests build
//! random tiered games with cycles, ties and draws both ways, file for file.
//!
//! # Memory
//! A worker holds, for each position it owns, 16 bytes (a counter, a value,
//! and where its parents start); for each move into one of its positions from
//! within the tier, 8 bytes (the parent's index; 24 more while the lists are
//! built from the edges received); for each move out of the tier from one of
//! its positions, 24 bytes (an event) until the levels are done; 16 bytes for
//! each position of a level's frontier, each tie and each position valued by
//! itself; and its part of each child tier (read while the graph is built).
//! So a process's memory falls with the number of processes
//! (docs/distributed.md).

use super::split::{
    answers, ask, hold_children, key, own_code, slot_of, sort_received, words, Asked, Codes, Held, Question,
};
use super::store::{tier_partition, Store};
use crate::cluster::Lost;
use crate::partition::Partition;
use crate::rounds::{Received, Rounds, Tie, BATCH};
use gsolve_engine::retrograde::{tag_of, TAG_LOSS, TAG_TIE};
use gsolve_engine::{ChildAt, PackedValue, Scan, Tiered, Value};
use std::ops::Range;
use timely::worker::Worker;

/// The most positions of the tier one worker walks in one round of the graph
/// step: what one round's edges, questions and answers hold.
const GRAPH_PIECE: u64 = 1 << 16;

/// The value cell of an undecided position that has no tied child yet.
const NO_TIE: u32 = u32::MAX;

/// The value cell of a position that is undecided: it holds the fastest
/// remoteness of its tied children so far ([`NO_TIE`] for none).
fn fastest_tie(cell: u32, remoteness: u32) -> u32 {
    cell.min(remoteness)
}

/// A worker's positions of the tier while it is being solved.
///
/// Invariant: `counters[l] != 0` exactly while position `l` is undecided (it
/// is its number of children not yet decided, with [`TIED`] set once one of
/// them tied), and then `values[l]` is the fastest remoteness of its tied
/// children so far; once decided, `values[l]` is its code, and the position is
/// in `next` (the next level's frontier) from the update that decided it.
struct Positions {
    counters: Vec<u32>,
    values: Vec<u32>,
    /// Decided at the level being applied: (local index, tag).
    next: Vec<(u64, u64)>,
}

/// A counter's flag: some child tied.
const TIED: u32 = 1 << 31;

impl Positions {
    /// A child of `local` decided at `level` with `tag` (a tie with its
    /// `remoteness`).
    fn apply(&mut self, local: usize, tag: u64, remoteness: u32, level: u32) {
        let current = self.counters[local];
        if current == 0 {
            return;
        }
        if tag == TAG_LOSS {
            self.decide(local, Value::Win(level + 1));
            return;
        }
        let mut flags = current & TIED;
        if tag == TAG_TIE {
            flags = TIED;
            self.values[local] = fastest_tie(self.values[local], remoteness);
        }
        let remaining = (current & !TIED) - 1;
        if remaining > 0 {
            self.counters[local] = flags | remaining;
        } else if flags != 0 {
            // Every child decided, some tied, none lost: the fastest tie.
            self.decide(local, Value::Tie(self.values[local] + 1));
        } else {
            self.decide(local, Value::Loss(level + 1));
        }
    }

    fn decide(&mut self, local: usize, value: Value) {
        self.counters[local] = 0;
        self.values[local] = PackedValue::pack(value).0;
        self.next.push((local as u64, tag_of(value)));
    }

    /// What arrived in a round of level `level`, for positions dealt by `partition`.
    fn receive(&mut self, received: Received<'_>, partition: &Partition, level: u32) {
        match received {
            Received::Updates(updates) => {
                for &update in updates {
                    self.apply(partition.local(update >> 2), update & 3, 0, level);
                }
            }
            Received::Ties(ties) => {
                for &(update, remoteness) in ties {
                    self.apply(partition.local(update >> 2), TAG_TIE, remoteness, level);
                }
            }
        }
    }

    /// The remoteness of a decided position's value.
    fn remoteness(&self, local: usize) -> u32 {
        PackedValue(self.values[local]).unpack().and_then(Value::remoteness).expect("a decided value")
    }
}

/// The parents within the tier of each position a worker owns, in compressed
/// rows: those of local index `l` are `parents[offsets[l]..offsets[l + 1]]`.
struct Parents {
    offsets: Vec<usize>,
    parents: Vec<u64>,
}

impl Parents {
    /// From (child's local index, parent's index in the tier) pairs, in any order.
    fn from_edges(owned: usize, edges: Vec<(u64, u64)>) -> Parents {
        let mut offsets = vec![0usize; owned + 1];
        for &(child, _) in &edges {
            offsets[child as usize + 1] += 1;
        }
        for l in 0..owned {
            offsets[l + 1] += offsets[l];
        }
        let mut fill = offsets.clone();
        let mut parents = vec![0u64; edges.len()];
        for (child, parent) in edges {
            parents[fill[child as usize]] = parent;
            fill[child as usize] += 1;
        }
        Parents { offsets, parents }
    }

    fn of(&self, local: usize) -> &[u64] {
        &self.parents[self.offsets[local]..self.offsets[local + 1]]
    }
}

/// A child outside the tier whose code is asked of another worker: the parent
/// (local index), the slot and owner of the child's code, and its index.
struct Waiting {
    parent: u64,
    slot: usize,
    owner: usize,
    index: u64,
}

/// What the graph step leaves: events (level, local index of the parent, tag),
/// sorted; positions decided by themselves (terminal, without moves, or valued
/// by the rules), as (level, local index), sorted; the parent lists.
struct Graph {
    events: Vec<(u32, u64, u64)>,
    decided: Vec<(u32, u64)>,
    parents: Parents,
}

/// This worker's share of the tier in pieces of at most [`GRAPH_PIECE`]
/// positions (runs of its chunks), and the number of graph rounds every
/// worker takes (the most pieces any worker has).
fn graph_pieces(partition: &Partition, me: usize) -> (Vec<Vec<Range<u64>>>, usize) {
    let pieces_of = |w: usize| -> Vec<Vec<Range<u64>>> {
        let mut pieces: Vec<Vec<Range<u64>>> = Vec::new();
        let mut filled = GRAPH_PIECE;
        for range in partition.ranges(w) {
            let mut start = range.start;
            while start < range.end {
                if filled == GRAPH_PIECE {
                    pieces.push(Vec::new());
                    filled = 0;
                }
                let end = range.end.min(start + (GRAPH_PIECE - filled));
                pieces.last_mut().expect("pushed").push(start..end);
                filled += end - start;
                start = end;
            }
        }
        pieces
    };
    let most = (0..partition.workers).map(|w| pieces_of(w).len()).max().unwrap_or(0);
    (pieces_of(me), most)
}

/// Step 1. `Ok(Err(..))`: the game broke the [`Tiered`] invariants (a child
/// in no solved tier), everywhere at once.
#[allow(clippy::too_many_arguments)]
fn graph<G: Tiered>(
    worker: &mut Worker,
    rounds: &mut Rounds,
    game: &G,
    tier: G::Tier,
    partition: &Partition,
    held: &[Held<G::Tier>],
    positions: &mut Positions,
) -> Result<Result<Graph, String>, Lost> {
    let me = worker.index();
    let peers = worker.peers();
    let no_codes = Codes { width: 1, bytes: Vec::new() };
    let (pieces, rounds_needed) = graph_pieces(partition, me);
    let mut edges: Vec<(u64, u64)> = Vec::new();
    let mut events: Vec<(u32, u64, u64)> = Vec::new();
    let mut decided: Vec<(u32, u64)> = Vec::new();
    let mut broken = false;
    // A child's code, decided or not: an event for `parent`, or a fault.
    let event_of = |events: &mut Vec<(u32, u64, u64)>, parent: u64, code: PackedValue| match code.unpack() {
        // A draw is never decided: the parent's counter never comes down for it.
        Some(Value::Draw) => true,
        Some(v) => {
            events.push((v.remoteness().expect("not a draw"), parent, tag_of(v)));
            true
        }
        None => false,
    };
    let mut questions: Vec<Question> = Vec::new();
    // For the piece walked last round: the codes asked, by slot and owner
    // (sorted), and the children waiting for them.
    let mut previous: Option<(Asked, Vec<Waiting>)> = None;
    for k in 0..=rounds_needed {
        let mut parcels =
            answers(std::mem::take(&mut questions), me, |slot, i| own_code(slot, i, &no_codes, partition, held));
        let mut asked: Asked = vec![vec![Vec::new(); peers]; held.len() + 1];
        let mut waiting: Vec<Waiting> = Vec::new();
        let mut edges_out: Vec<Vec<u8>> = vec![Vec::new(); peers];
        for range in pieces.get(k).into_iter().flatten() {
            game.for_each_located(tier, range.clone(), |index, scan| {
                let local = partition.local(index);
                let value = match scan {
                    Scan::Over(outcome) => outcome.value(),
                    Scan::Known(value) => value,
                    Scan::Moves([]) => Value::Loss(0),
                    Scan::Moves(moves) => {
                        positions.counters[local] = moves.len() as u32;
                        positions.values[local] = NO_TIE;
                        for child in moves {
                            match *child {
                                ChildAt::Over(outcome) => {
                                    event_of(&mut events, local as u64, PackedValue::pack(outcome.value()));
                                }
                                ChildAt::In(t, i) if t == tier => {
                                    let owner = partition.owner(i);
                                    if owner == me {
                                        edges.push((partition.local(i) as u64, index));
                                    } else {
                                        edges_out[owner].extend(i.to_le_bytes());
                                        edges_out[owner].extend(index.to_le_bytes());
                                    }
                                }
                                ChildAt::In(t, i) => match slot_of(tier, t, held) {
                                    Some(slot) => {
                                        let owner = held[slot - 1].partition.owner(i);
                                        if owner == me {
                                            let code = PackedValue(own_code(slot, i, &no_codes, partition, held));
                                            broken |= !event_of(&mut events, local as u64, code);
                                        } else {
                                            asked[slot][owner].push(i);
                                            waiting.push(Waiting { parent: local as u64, slot, owner, index: i });
                                        }
                                    }
                                    None => broken = true,
                                },
                                ChildAt::Nowhere => broken = true,
                            }
                        }
                        return;
                    }
                };
                positions.values[local] = PackedValue::pack(value).0;
                decided.push((value.remoteness().expect("not a draw"), local as u64));
            });
        }
        ask(&mut asked, me, &mut parcels);
        // Edges travel as questions of slot 0, which no one asks codes of.
        for (to, bytes) in edges_out.into_iter().enumerate().filter(|(_, b)| !b.is_empty()) {
            parcels.push((to, key(0, me, false), bytes));
        }
        let (answered, received) = sort_received(rounds.gather(worker, parcels)?, peers, held.len() + 1);
        for (slot, from, bytes) in received {
            if slot == 0 {
                let mut words = words(&bytes);
                while let (Some(child), Some(parent)) = (words.next(), words.next()) {
                    edges.push((partition.local(child) as u64, parent));
                }
            } else {
                questions.push((slot, from, bytes));
            }
        }
        if let Some((asked, waiting)) = previous.replace((asked, waiting)) {
            for w in waiting {
                let at = asked[w.slot][w.owner].binary_search(&w.index).expect("asked for");
                broken |= !event_of(&mut events, w.parent, PackedValue(answered[w.slot][w.owner][at]));
            }
        }
    }
    let summaries = rounds.finish(worker, &[broken as u64], &mut |_| unreachable!("no updates"))?;
    if summaries.iter().any(|s| s[0] != 0) {
        return Ok(Err(format!(
            "tier {}: a child lies in no solved tier: the game breaks the Tiered invariants",
            game.tier_name(tier)
        )));
    }
    events.sort_unstable();
    decided.sort_unstable();
    let parents = Parents::from_edges(positions.counters.len(), edges);
    Ok(Ok(Graph { events, decided, parents }))
}

/// The next level after a round whose summaries are `[busy, least level left]`
/// by worker: `following` if any worker was busy, else the least level left
/// anywhere (`u64::MAX`: none).
fn next_level(summaries: &[Vec<u64>], following: u64) -> u64 {
    if summaries.iter().any(|s| s[0] != 0) {
        following
    } else {
        summaries.iter().map(|s| s[1]).min().unwrap_or(u64::MAX)
    }
}

/// The least level in `list` (sorted by level, `level_of` each entry's) from
/// `at` on, or `u64::MAX`.
fn level_at<T>(list: &[T], at: usize, level_of: impl Fn(&T) -> u32) -> u64 {
    list.get(at).map_or(u64::MAX, |e| level_of(e) as u64)
}

/// Sends each update of `frontier` (positions decided at `level`) to the owner
/// of each parent, applying what arrives meanwhile.
#[allow(clippy::too_many_arguments)]
fn send_frontier(
    worker: &mut Worker,
    rounds: &mut Rounds,
    partition: &Partition,
    parents: &Parents,
    frontier: &[(u64, u64)],
    positions: &mut Positions,
    level: u32,
) -> Result<(), Lost> {
    let mut updates: Vec<u64> = Vec::with_capacity(BATCH);
    let mut ties: Vec<Tie> = Vec::with_capacity(BATCH);
    for &(local, tag) in frontier {
        let remoteness = if tag == TAG_TIE { positions.remoteness(local as usize) } else { 0 };
        for &parent in parents.of(local as usize) {
            if tag == TAG_TIE {
                ties.push((parent << 2 | TAG_TIE, remoteness));
                if ties.len() >= BATCH {
                    rounds.send_ties(worker, &mut ties, &mut |r| positions.receive(r, partition, level))?;
                }
            } else {
                updates.push(parent << 2 | tag);
                if updates.len() >= BATCH {
                    rounds.send(worker, &mut updates, &mut |r| positions.receive(r, partition, level))?;
                }
            }
        }
    }
    rounds.send(worker, &mut updates, &mut |r| positions.receive(r, partition, level))?;
    rounds.send_ties(worker, &mut ties, &mut |r| positions.receive(r, partition, level))
}

/// Solves `tier`, split over every worker, by retrograde analysis within it:
/// see the module documentation. This worker's codes, their width, and the
/// run's largest code, as [`super::split::solve_tier`] gives them.
#[allow(clippy::type_complexity)]
pub(super) fn solve_tier<G: Tiered + Sync>(
    worker: &mut Worker,
    rounds: &mut Rounds,
    game: &G,
    tier: G::Tier,
    tiers: &[G::Tier],
    store: &Store,
) -> Result<Result<(Codes, u8, u32), String>, Lost> {
    let me = worker.index();
    let partition = tier_partition(game.tier_size(tier), worker.peers());
    // Updates go to their owner by the rounds' partition: the tiers' chunks.
    let routing = rounds.partition();
    assert_eq!((routing.workers, routing.chunk_shift), (partition.workers, partition.chunk_shift));
    let held = match hold_children(worker, rounds, game, tier, tiers, store)? {
        Ok(held) => held,
        Err(message) => return Ok(Err(message)),
    };
    let owned = partition.owned(me);
    let mut positions =
        Positions { counters: vec![0; owned], values: vec![PackedValue::NONE.0; owned], next: Vec::new() };
    // Step 1: the graph.
    let Graph { events, decided, parents } = match graph(worker, rounds, game, tier, &partition, &held, &mut positions)?
    {
        Ok(graph) => graph,
        Err(message) => return Ok(Err(message)),
    };
    drop(held);

    // Step 2: level by level, from the least level anywhere. A round's summary
    // says whether the worker sent or applied anything (if no worker did, the
    // next level's frontier is empty everywhere, and the next level is the
    // least level of an event or a decided position left anywhere) and that
    // least level of its own.
    let later = |next_decided: usize, next_event: usize| {
        level_at(&decided, next_decided, |d| d.0).min(level_at(&events, next_event, |e| e.0))
    };
    let summaries = rounds.finish(worker, &[0, later(0, 0)], &mut |_| unreachable!("no updates"))?;
    let mut level = next_level(&summaries, u64::MAX);
    let (mut next_event, mut next_decided) = (0, 0);
    // Tied positions and tied events, for step 3: (remoteness, local index, an event).
    let mut ties: Vec<(u32, u64, bool)> = Vec::new();
    while level != u64::MAX {
        let level32 = level as u32;
        let mut frontier = std::mem::take(&mut positions.next);
        while next_decided < decided.len() && decided[next_decided].0 == level32 {
            let local = decided[next_decided].1;
            let value = PackedValue(positions.values[local as usize]).unpack().expect("decided");
            frontier.push((local, tag_of(value)));
            next_decided += 1;
        }
        for &(local, tag) in &frontier {
            if tag == TAG_TIE {
                ties.push((positions.remoteness(local as usize), local, false));
            }
        }
        send_frontier(worker, rounds, &partition, &parents, &frontier, &mut positions, level32)?;
        let mut busy = !frontier.is_empty();
        while next_event < events.len() && events[next_event].0 == level32 {
            let (_, parent, tag) = events[next_event];
            if tag == TAG_TIE {
                ties.push((level32, parent, true));
            }
            positions.apply(parent as usize, tag, level32, level32);
            next_event += 1;
            busy = true;
        }
        let summary = [busy as u64, later(next_decided, next_event)];
        let summaries = rounds.finish(worker, &summary, &mut |r| positions.receive(r, &partition, level32))?;
        level = next_level(&summaries, level + 1);
    }

    drop((events, decided));

    // Step 3: ties spread to undecided parents, breadth first, fastest first:
    // the positions tied at r (seeds, and those found in the round of r − 1)
    // tie their undecided parents at r + 1. The summaries as in step 2.
    ties.sort_unstable();
    let mut found: Vec<u64> = Vec::new();
    let mut at = 0;
    let seed_at = |at: usize| ties.get(at).map_or(u64::MAX, |t| t.0 as u64);
    let summaries = rounds.finish(worker, &[0, seed_at(0)], &mut |_| unreachable!("no updates"))?;
    let mut remoteness = next_level(&summaries, u64::MAX);
    while remoteness != u64::MAX {
        let r = remoteness as u32;
        let mut tied = std::mem::take(&mut found);
        let mut busy = !tied.is_empty();
        while at < ties.len() && ties[at].0 == r {
            let (_, who, event) = ties[at];
            if event {
                // An outside tied child at r: its parent, here.
                spread_tie(&mut positions, &mut found, who as usize, r);
            } else {
                tied.push(who);
            }
            at += 1;
            busy = true;
        }
        let mut updates: Vec<Tie> = Vec::with_capacity(BATCH);
        let mut receive = |received: Received<'_>| tie_received(&mut positions, &mut found, received, &partition);
        for &local in &tied {
            for &parent in parents.of(local as usize) {
                updates.push((parent << 2 | TAG_TIE, r));
                if updates.len() >= BATCH {
                    rounds.send_ties(worker, &mut updates, &mut receive)?;
                }
            }
        }
        rounds.send_ties(worker, &mut updates, &mut receive)?;
        let summaries = rounds.finish(worker, &[busy as u64, seed_at(at)], &mut receive)?;
        remoteness = next_level(&summaries, remoteness + 1);
    }

    drop((parents, ties));

    // Step 4: the rest are draws; holes keep "no position".
    let mut max_code = 0u32;
    for (local, &counter) in positions.counters.iter().enumerate() {
        if counter != 0 {
            positions.values[local] = PackedValue::DRAW.0;
        }
        max_code = max_code.max(positions.values[local]);
    }
    let summaries = rounds.finish(worker, &[max_code as u64], &mut |_| unreachable!("no updates"))?;
    let max_code = summaries.iter().map(|s| s[0]).max().unwrap_or(0) as u32;
    let width = if max_code < 1 << 8 {
        1
    } else if max_code < 1 << 16 {
        2
    } else {
        4
    };
    let mut codes = Codes { width, bytes: vec![0; owned * width as usize] };
    for (local, &code) in positions.values.iter().enumerate() {
        codes.set(local, code);
    }
    Ok(Ok((codes, width, max_code)))
}

/// Step 3's update: an undecided position with a child tied at `r` ties at
/// `r + 1`.
fn spread_tie(positions: &mut Positions, found: &mut Vec<u64>, local: usize, r: u32) {
    if positions.counters[local] != 0 {
        positions.counters[local] = 0;
        positions.values[local] = PackedValue::pack(Value::Tie(r + 1)).0;
        found.push(local as u64);
    }
}

fn tie_received(positions: &mut Positions, found: &mut Vec<u64>, received: Received<'_>, partition: &Partition) {
    match received {
        Received::Ties(ties) => {
            for &(update, r) in ties {
                spread_tie(positions, found, partition.local(update >> 2), r);
            }
        }
        Received::Updates(_) => unreachable!("step 3 sends ties only"),
    }
}
