//! A large tier split over every worker, solved in steps (layers, or classes
//! of progress), one round a step: see the module documentation of
//! [`crate::tiered`], step 2.

use super::read_by;
use super::store::{self, tier_partition, Store};
use crate::cluster::Lost;
use crate::partition::Partition;
use crate::rounds::Rounds;
use gsolve_engine::tiered::{sweep_of, Sweep};
use gsolve_engine::{ChildAt, PackedValue, Scan, Tiered, Value};
use std::ops::Range;
use timely::worker::Worker;

/// A code not computed yet: not a value, not a hole (as the engine's sweeps
/// mark it), so that a child read before it is solved is found, and a drawn
/// child is not taken for one.
const UNSOLVED: u32 = 2 << 2;

/// The words of a byte string of u64s.
pub(super) fn words(bytes: &[u8]) -> impl Iterator<Item = u64> + '_ {
    bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
}

/// This worker's codes of a tier, `width` bytes each, in partition order.
pub(super) struct Codes {
    pub(super) width: u8,
    pub(super) bytes: Vec<u8>,
}

impl Codes {
    pub(super) fn get(&self, local: usize) -> u32 {
        let w = self.width as usize;
        let mut word = [0u8; 4];
        word[..w].copy_from_slice(&self.bytes[local * w..local * w + w]);
        u32::from_le_bytes(word)
    }
    pub(super) fn set(&mut self, local: usize, code: u32) {
        let w = self.width as usize;
        self.bytes[local * w..local * w + w].copy_from_slice(&code.to_le_bytes()[..w]);
    }
}

/// About the most positions of the tier one worker values in one round: a
/// layer goes in pieces of this many a worker (chunks being dealt round-robin,
/// each worker owns about that many of a piece, at most two chunks' worth), a
/// class of progress in shares of this many. Why per worker: pieces of one
/// chunk in all kept all workers but one or two idle in each round.
const PIECE: u64 = 1 << 14;

/// This worker's part of a finished child tier, read from its file.
pub(super) struct Held<T> {
    pub(super) tier: T,
    pub(super) partition: Partition,
    pub(super) codes: Codes,
}

/// Where a child's code is: `slot` 0 is the tier being solved, slot `s` the
/// child tier `held[s − 1]`.
pub(super) fn slot_of<T: PartialEq>(tier: T, child: T, held: &[Held<T>]) -> Option<usize> {
    if child == tier {
        return Some(0);
    }
    held.iter().position(|h| h.tier == child).map(|at| at + 1)
}

/// The code of index `i` of `slot`, held by this worker: in `codes` (the tier
/// being solved, dealt by `partition`) or in a child tier's part.
pub(super) fn own_code<T>(slot: usize, i: u64, codes: &Codes, partition: &Partition, held: &[Held<T>]) -> u32 {
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
pub(super) fn key(slot: usize, from: usize, answer: bool) -> u64 {
    (slot as u64) << 33 | (from as u64) << 1 | answer as u64
}

/// A parcel: the worker it goes to, its [`key`], its bytes.
pub(super) type Parcel = (usize, u64, Vec<u8>);

/// A question received: the slot asked of, the worker that asked, the
/// indices (8 bytes each).
pub(super) type Question = (usize, usize, Vec<u8>);

/// Indices of codes asked of other workers: by slot, then owner.
pub(super) type Asked = Vec<Vec<Vec<u64>>>;

/// The answers to `questions`, in the order asked: each index's code
/// (`code(slot, index)`, 4 bytes) to the worker that asked.
pub(super) fn answers(questions: Vec<Question>, me: usize, code: impl Fn(usize, u64) -> u32) -> Vec<Parcel> {
    questions
        .into_iter()
        .map(|(slot, from, bytes)| {
            let answer = words(&bytes).flat_map(|i| code(slot, i).to_le_bytes()).collect();
            (from, key(slot, me, true), answer)
        })
        .collect()
}

/// Sorts and deduplicates each list of `asked` (the answers come in that
/// order) and adds a question to each owner asked something to `parcels`.
pub(super) fn ask(asked: &mut Asked, me: usize, parcels: &mut Vec<Parcel>) {
    for list in asked.iter_mut().flatten() {
        list.sort_unstable();
        list.dedup();
    }
    for (slot, lists) in asked.iter().enumerate() {
        for (to, list) in lists.iter().enumerate().filter(|(_, l)| !l.is_empty()) {
            parcels.push((to, key(slot, me, false), list.iter().flat_map(|i| i.to_le_bytes()).collect()));
        }
    }
}

/// What a round brought: the answers, by slot and the worker that answered,
/// and the questions, for the next round.
pub(super) fn sort_received(
    received: Vec<(u64, Vec<u8>)>,
    peers: usize,
    slots: usize,
) -> (Vec<Vec<Vec<u32>>>, Vec<Question>) {
    let mut answered = vec![vec![Vec::new(); peers]; slots];
    let mut questions = Vec::new();
    for (key, bytes) in received {
        let (slot, from) = ((key >> 33) as usize, (key >> 1 & 0xffff_ffff) as usize);
        if key & 1 == 0 {
            questions.push((slot, from, bytes));
        } else {
            answered[slot][from] =
                bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        }
    }
    (answered, questions)
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
    /// The game's layers, cut into pieces of at most [`PIECE`] indices a worker.
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
            let piece = PIECE * worker.peers() as u64;
            game.for_each_layer_in_tier(tier, |layer| {
                let mut start = layer.start;
                while start < layer.end {
                    let end = layer.end.min(start + piece);
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
    let piece = PIECE as usize;
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

/// This worker's part of each child tier `tier` reads, from its work
/// directory. What fails to be read fails everywhere (`Ok(Err(..))`).
#[allow(clippy::type_complexity)]
pub(super) fn hold_children<G: Tiered>(
    worker: &mut Worker,
    rounds: &mut Rounds,
    game: &G,
    tier: G::Tier,
    tiers: &[G::Tier],
    store: &Store,
) -> Result<Result<Vec<Held<G::Tier>>, String>, Lost> {
    let peers = worker.peers();
    let mut held = Vec::new();
    let mut problem = None;
    for at in read_by(game, tiers, tier) {
        let (child, child_size) = (tiers[at], game.tier_size(tiers[at]));
        match store.own_codes(&game.tier_name(child), at, child_size) {
            Ok((width, bytes)) => held.push(Held {
                tier: child,
                partition: tier_partition(child_size, peers),
                codes: Codes { width, bytes },
            }),
            Err(message) => {
                problem = Some(message);
                break;
            }
        }
    }
    Ok(store::agree(worker, rounds, problem)?.map(|()| held))
}

/// Steps 1 and 2 for one tier: this worker's codes, their width, and the run's
/// largest code. Starts over wider when a code does not fit (everywhere at once).
///
/// Memory: a worker holds its own part of the tier being solved and of each
/// child tier (both dealt by [`Partition`]), and the codes asked for one layer;
/// any code owned elsewhere, in this tier or a child tier, is asked of its owner.
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
    let peers = worker.peers();
    let size = game.tier_size(tier);
    let partition = tier_partition(size, peers);
    // Step 1: this worker's part of each child tier.
    let held = match hold_children(worker, rounds, game, tier, tiers, store)? {
        Ok(held) => held,
        Err(message) => return Ok(Err(message)),
    };
    let slots = held.len() + 1;
    let partition_of = |slot: usize| if slot == 0 { &partition } else { &held[slot - 1].partition };
    let steps = match steps(worker, rounds, game, tier, &partition)? {
        Ok(steps) => steps,
        Err(message) => return Ok(Err(format!("tier {}: {message}", game.tier_name(tier)))),
    };
    'widths: for width in [1u8, 2, 4] {
        let mut codes = Codes { width, bytes: vec![0; partition.owned(me) * width as usize] };
        for local in 0..partition.owned(me) {
            codes.set(local, UNSOLVED);
        }
        let mut overflow = false;
        let mut broken = None;
        // Step k's requests travel in round k with the answers to step k − 1's
        // (which ask only for child tiers and steps before k − 1, solved by
        // then: a part's pieces do not read each other); step k − 1 is valued
        // when they arrive: one round a step, and one more at the end.
        let mut questions: Vec<Question> = Vec::new();
        // asked[slot][owner]: the indices asked of `owner`, sorted.
        let mut previous: Option<(Mine, Asked)> = None;
        for k in 0..=steps.len() {
            let mut parcels =
                answers(std::mem::take(&mut questions), me, |slot, i| own_code(slot, i, &codes, &partition, &held));
            let current = (k < steps.len()).then(|| {
                // This worker's positions of the step.
                let mine = steps.mine(k, &partition, me);
                // The children held by other workers.
                let mut asked: Asked = vec![vec![Vec::new(); peers]; slots];
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
                ask(&mut asked, me, &mut parcels);
                (mine, asked)
            });
            let (answered, asked_now) = sort_received(rounds.gather(worker, parcels)?, peers, slots);
            questions = asked_now;
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
                                    // A child of the tier not solved yet reads
                                    // `UNSOLVED`, which only a game that breaks its
                                    // layers or its progress measure gives. (A
                                    // child may be a draw: a child of it in a tier
                                    // solved by retrograde may be.)
                                    Some(v) => best = best.max(Some(v.parent_view())),
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
