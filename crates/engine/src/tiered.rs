//! Solving a [`Tiered`] game one tier at a time.
//!
//! A tier is solved with the values of the tiers its children lie in as fixed
//! inputs ([`SolvedTiers`], which the storage layer provides from finished tiers on
//! disk); only the tier being solved is held in memory, as narrow codes.
//!
//! # The steps of [`solve_tier`]
//! 1. **pick the method**: a tier whose game gives its layers
//!    ([`Tiered::for_each_layer_in_tier`]) is swept layer by layer, each position
//!    taking the best of its children's values (the layered solver's rule);
//!    a tier with a progress measure ([`Tiered::progress_bound`]) is sorted by
//!    progress and swept the same way, greatest progress first
//!    ([`sweep_by_progress`]); any other tier is solved by retrograde analysis
//!    within the tier, draws included ([`retrograde_in_tier`]).
//! 2. **narrow codes**: values are kept as [`PackedValue`] codes cut to 1 byte
//!    (remoteness up to 63); a value that does not fit makes the tier start over
//!    with 2, then 4 bytes. Pawn chess never needs more than 1.
//!
//! Children that are terminal are valued by the rules ([`crate::Game::terminal`]) and
//! never located: a game need not index them.

use crate::game::{ChildAt, Scan, Tiered};
use crate::progress::{report, Observer};
use crate::value::{PackedValue, Value};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// The values of tiers solved earlier: what a tier solve reads for children outside
/// its own tier, straight from their codes (in memory, or a memory-mapped file).
pub trait SolvedTiers<T>: Sync {
    /// A solved tier's codes; `None` if the tier is not available.
    fn codes(&self, tier: T) -> Option<Codes<'_>>;
}

/// A solved tier's codes: [`PackedValue`] codes, `width` bytes each, little-endian.
#[derive(Clone, Copy, Debug)]
pub struct Codes<'a> {
    /// Bytes per code: 1, 2 or 4.
    pub width: u8,
    /// The codes.
    pub bytes: &'a [u8],
}

impl Codes<'_> {
    /// The value at `index`; `None` for a hole or an index beyond the tier.
    #[inline]
    pub fn value(&self, index: u64) -> Option<Value> {
        let index = usize::try_from(index).ok()?;
        if index.checked_mul(self.width as usize).is_none_or(|at| at >= self.bytes.len()) {
            return None;
        }
        PackedValue(read(self.bytes, self.width, index)).unpack()
    }
}

/// The child tiers of one tier, looked up once before the solve: a short list.
struct ChildCodes<'a, T> {
    tiers: Vec<(T, Codes<'a>)>,
}

impl<T: Copy + Eq> ChildCodes<'_, T> {
    #[inline]
    fn value(&self, tier: T, index: u64) -> Option<Value> {
        self.code(tier, index).and_then(|code| PackedValue(code).unpack())
    }

    /// The raw code, if the tier is there and the index inside it.
    #[inline]
    fn code(&self, tier: T, index: u64) -> Option<u32> {
        let (_, codes) = self.tiers.iter().find(|(t, _)| *t == tier)?;
        let i = usize::try_from(index).ok()?;
        if i.checked_mul(codes.width as usize).is_none_or(|at| at >= codes.bytes.len()) {
            return None;
        }
        Some(read(codes.bytes, codes.width, i))
    }
}

// A parent's view of a child's code as one number that orders like `Value` (greater
// is better for the parent): the sweep takes the best child without unpacking.
const KEY_BAND: u64 = 1 << 32;

/// The key of the parent's view of a child with this code; `None` for a code that
/// is not a value (a hole, or not solved).
#[inline]
fn parent_key(code: u32) -> Option<u64> {
    let r = (code >> 2) as u64;
    match code & 3 {
        1 => Some(3 * KEY_BAND - (r + 1)), // the child lost: a win one ply later
        2 => Some(2 * KEY_BAND - (r + 1)), // a tie one ply later
        3 => Some(r + 1),                  // the child won: a loss one ply later
        _ if r == 0 => Some(KEY_BAND),     // a draw stays a draw
        _ => None,
    }
}

/// The parent's value of its best key.
#[inline]
fn value_of_key(key: u64) -> Value {
    if key > 2 * KEY_BAND {
        Value::Win((3 * KEY_BAND - key) as u32)
    } else if key > KEY_BAND {
        Value::Tie((2 * KEY_BAND - key) as u32)
    } else if key == KEY_BAND {
        Value::Draw
    } else {
        Value::Loss(key as u32)
    }
}

/// A solved tier: the [`PackedValue`] code of each position, `width` bytes each,
/// little-endian (what a tablebase block stores); [`PackedValue::NONE`] for holes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierValues {
    width: u8,
    bytes: Vec<u8>,
}

/// A code not computed yet (tag 0, remoteness field 2: not a value, not a hole).
const UNSOLVED: u32 = 2 << 2;

impl TierValues {
    fn new(width: u8, size: usize) -> Self {
        let mut values = TierValues { width, bytes: vec![0; size * width as usize] };
        for i in 0..size {
            values.set(i, UNSOLVED);
        }
        values
    }

    /// Bytes per code: 1, 2 or 4.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        (self.bytes.len() / self.width as usize) as u64
    }

    /// True when the tier is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The codes, as stored.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Takes stored codes back (`bytes.len()` a multiple of `width`).
    pub fn from_bytes(width: u8, bytes: Vec<u8>) -> Self {
        TierValues { width, bytes }
    }

    /// The code at `index`.
    #[inline]
    pub fn code(&self, index: u64) -> PackedValue {
        PackedValue(read(&self.bytes, self.width, index as usize))
    }

    /// The value at `index`; `None` for a hole.
    pub fn value(&self, index: u64) -> Option<Value> {
        self.code(index).unpack()
    }

    /// The largest code stored (what decides a file's value width).
    pub fn max_code(&self) -> u32 {
        (0..self.len()).map(|i| self.code(i).0).max().unwrap_or(0)
    }

    fn set(&mut self, index: usize, code: u32) {
        write(&mut self.bytes, self.width, index, code);
    }
}

#[inline]
fn read(bytes: &[u8], width: u8, i: usize) -> u32 {
    match width {
        1 => bytes[i] as u32,
        2 => u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]) as u32,
        _ => u32::from_le_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]]),
    }
}

#[inline]
fn write(bytes: &mut [u8], width: u8, i: usize, code: u32) {
    match width {
        1 => bytes[i] = code as u8,
        2 => bytes[2 * i..2 * i + 2].copy_from_slice(&(code as u16).to_le_bytes()),
        _ => bytes[4 * i..4 * i + 4].copy_from_slice(&code.to_le_bytes()),
    }
}

/// The largest code a width holds.
fn fits(width: u8, code: u32) -> bool {
    width == 4 || code >> (8 * width as u32) == 0
}

/// Solves one tier from the values of its child tiers. Reports progress (step
/// `"tier"`, positions of this tier) to `observer`.
pub fn solve_tier<G: Tiered + Sync>(
    game: &G,
    tier: G::Tier,
    solved: &dyn SolvedTiers<G::Tier>,
    observer: Option<Observer<'_>>,
) -> TierValues {
    let children = ChildCodes {
        tiers: game.child_tiers(tier).into_iter().filter_map(|t| solved.codes(t).map(|codes| (t, codes))).collect(),
    };
    let solved = &children;
    for width in [1, 2, 4] {
        // Progress sweeps keep 4-byte indices.
        let attempt = match sweep_of(game, tier) {
            Some(Sweep::Layers) => sweep_layers(game, tier, solved, width, observer),
            Some(Sweep::Progress(bound)) if game.tier_size(tier) <= u32::MAX as u64 => {
                sweep_by_progress(game, tier, bound, solved, width, observer)
            }
            _ => retrograde_in_tier(game, tier, solved, width, observer),
        };
        if let Some(values) = attempt {
            return values;
        }
    }
    unreachable!("4-byte codes hold every value")
}

/// Whether the game gives this tier's layers.
fn tier_is_layered<G: Tiered>(game: &G, tier: G::Tier) -> bool {
    game.for_each_layer_in_tier(tier, |_| {})
}

/// How a tier can be solved without retrograde analysis: in the game's layers, or
/// in classes of equal progress from the greatest down. `None`: the tier may have
/// cycles (it is solved by retrograde analysis within the tier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sweep {
    /// [`Tiered::for_each_layer_in_tier`] gives the tier's layers.
    Layers,
    /// [`Tiered::progress_bound`] gives this bound, below 2^16 − 1.
    Progress(u32),
}

/// The sweep a tier takes (layers first), as [`solve_tier`] chooses it; `None`
/// for a tier solved by retrograde analysis.
pub fn sweep_of<G: Tiered>(game: &G, tier: G::Tier) -> Option<Sweep> {
    if tier_is_layered(game, tier) {
        Some(Sweep::Layers)
    } else {
        // Below u16::MAX: the sweeps keep progress in 16 bits, u16::MAX for holes.
        game.progress_bound(tier).filter(|&b| b < u16::MAX as u32).map(Sweep::Progress)
    }
}

/// A child's value: by the rules if terminal, from this tier's codes (`own`) or a
/// solved tier otherwise. Panics if the game breaks the [`Tiered`] invariants.
#[inline]
fn child_value<G: Tiered>(
    game: &G,
    tier: G::Tier,
    child: &G::Position,
    own: &impl Fn(u64) -> u32,
    solved: &ChildCodes<'_, G::Tier>,
) -> Value {
    if let Some(outcome) = game.terminal(child) {
        return outcome.value();
    }
    let Some((child_tier, index)) = game.locate(child) else {
        panic!("{child:?} is not terminal and lies in no tier: the game breaks the Tiered invariants")
    };
    if child_tier == tier {
        match PackedValue(own(index)).unpack() {
            Some(v) => v,
            None => panic!(
                "{child:?} (index {index} of tier {}) is not solved before its parent: the game breaks the Tiered invariants",
                game.tier_name(tier)
            ),
        }
    } else {
        solved.value(child_tier, index).unwrap_or_else(|| {
            panic!(
                "{child:?} (index {index} of tier {}) has no solved value: the tier is not among the solved child tiers",
                game.tier_name(child_tier)
            )
        })
    }
}

/// Reports a child without a value: the game breaks the [`Tiered`] invariants.
#[cold]
fn panic_unsolved<G: Tiered>(game: &G, tier: G::Tier, child: ChildAt<G::Tier>, solved: &ChildCodes<'_, G::Tier>) -> ! {
    let no_own = |_: u64| UNSOLVED;
    located_value(game, tier, child, &no_own, solved);
    panic!("a child of tier {} has no value: the game breaks the Tiered invariants", game.tier_name(tier))
}

/// A located child's value: by the rules if terminal, from this tier's codes
/// (`own`) or a solved tier otherwise.
#[inline]
fn located_value<G: Tiered>(
    game: &G,
    tier: G::Tier,
    child: ChildAt<G::Tier>,
    own: &impl Fn(u64) -> u32,
    solved: &ChildCodes<'_, G::Tier>,
) -> Value {
    match child {
        ChildAt::Over(outcome) => outcome.value(),
        ChildAt::In(child_tier, index) if child_tier == tier => match PackedValue(own(index)).unpack() {
            Some(v) => v,
            None => panic!(
                "index {index} of tier {} is not solved before its parent: the game breaks the Tiered invariants",
                game.tier_name(tier)
            ),
        },
        ChildAt::In(child_tier, index) => solved.value(child_tier, index).unwrap_or_else(|| {
            panic!(
                "index {index} of tier {} has no solved value: the tier is not among the solved child tiers",
                game.tier_name(child_tier)
            )
        }),
        ChildAt::Nowhere => {
            panic!("a child is not terminal and lies in no tier: the game breaks the Tiered invariants")
        }
    }
}

/// The code of a position from its scan: by the rules, or the best of its
/// children's values (`own`: this tier's codes). Panics if a child has no value
/// (the game breaks the [`Tiered`] invariants).
#[inline]
fn scan_code<G: Tiered>(
    game: &G,
    tier: G::Tier,
    scan: Scan<'_, G::Tier>,
    own: &impl Fn(u64) -> u32,
    solved: &ChildCodes<'_, G::Tier>,
) -> u32 {
    let value = match scan {
        Scan::Over(outcome) => outcome.value(),
        Scan::Known(value) => value,
        Scan::Moves(children) => {
            // No move: a loss now (key 0 is Loss(0)).
            let mut best = 0u64;
            for &child in children {
                let code = match child {
                    ChildAt::In(child_tier, i) if child_tier == tier => own(i),
                    ChildAt::In(child_tier, i) => solved.code(child_tier, i).unwrap_or(UNSOLVED),
                    ChildAt::Over(outcome) => PackedValue::pack(outcome.value()).0,
                    ChildAt::Nowhere => UNSOLVED,
                };
                match parent_key(code) {
                    Some(key) => best = best.max(key),
                    None => panic_unsolved(game, tier, child, solved),
                }
            }
            value_of_key(best)
        }
    };
    PackedValue::pack(value).0
}

/// Positions per rayon task in a sweep.
const CHUNK: usize = 1 << 11;

/// Step 1, acyclic tiers: each layer in one parallel sweep. `None` if a value does
/// not fit in `width` bytes.
fn sweep_layers<G: Tiered + Sync>(
    game: &G,
    tier: G::Tier,
    solved: &ChildCodes<'_, G::Tier>,
    width: u8,
    observer: Option<Observer<'_>>,
) -> Option<TierValues> {
    let size = game.tier_size(tier);
    let mut values = TierValues::new(width, usize::try_from(size).expect("the tier fits in memory"));
    let overflow = AtomicBool::new(false);
    let mut done = 0u64;
    let w = width as usize;
    game.for_each_layer_in_tier(tier, |layer| {
        if overflow.load(Ordering::Relaxed) {
            return;
        }
        let (start, end) = (layer.start as usize, layer.end as usize);
        let (before, rest) = values.bytes.split_at_mut(start * w);
        let (current, after) = rest.split_at_mut((end - start) * w);
        let (before, after) = (&*before, &*after);
        let own = |i: u64| {
            let i = i as usize;
            if i < start {
                read(before, width, i)
            } else if i >= end {
                read(after, width, i - end)
            } else {
                UNSOLVED
            }
        };
        let sweep = |(k, chunk): (usize, &mut [u8])| {
            // Holes stay "no position".
            for i in 0..chunk.len() / w {
                write(chunk, width, i, PackedValue::NONE.0);
            }
            let first = (start + k * CHUNK) as u64;
            game.for_each_located(tier, first..first + (chunk.len() / w) as u64, |index, scan| {
                let code = scan_code(game, tier, scan, &own, solved);
                if !fits(width, code) {
                    overflow.store(true, Ordering::Relaxed);
                }
                write(chunk, width, (index - first) as usize, code);
            });
        };
        if current.len() > CHUNK * w {
            current.par_chunks_mut(CHUNK * w).enumerate().for_each(sweep);
        } else {
            sweep((0, current));
        }
        done += layer.end - layer.start;
        report(observer, "tier", done, size);
    });
    if overflow.load(Ordering::Relaxed) {
        return None;
    }
    if let Some(i) = (0..size).find(|&i| values.code(i).0 == UNSOLVED) {
        panic!("index {i} of tier {} is in no layer: the game breaks the Tiered invariants", game.tier_name(tier));
    }
    Some(values)
}

/// Step 1, acyclic tiers with a progress measure: the tier's indices sorted by
/// progress (a counting sort), then swept from the greatest progress down, each
/// progress in one parallel sweep that reads only codes written before it (a
/// child in the tier has greater progress). `None` if a value does not fit in
/// `width` bytes.
///
/// Memory: the codes, 2 bytes of progress and 4 of order per position.
fn sweep_by_progress<G: Tiered + Sync>(
    game: &G,
    tier: G::Tier,
    bound: u32,
    solved: &ChildCodes<'_, G::Tier>,
    width: u8,
    observer: Option<Observer<'_>>,
) -> Option<TierValues> {
    let size = usize::try_from(game.tier_size(tier)).expect("the tier fits in memory");
    // 1. progress of each index (holes get `HOLE`, after every progress).
    const HOLE: u16 = u16::MAX;
    let mut progress = vec![HOLE; size];
    progress.par_chunks_mut(CHUNK).enumerate().for_each(|(k, chunk)| {
        let first = (k * CHUNK) as u64;
        game.for_each_progress_in_tier(tier, first..first + chunk.len() as u64, |index, p| {
            assert!(p <= bound, "progress {p} above the tier's bound {bound}: the game breaks the Tiered invariants");
            chunk[(index - first) as usize] = p as u16;
        });
    });
    // 2. counting sort, greatest progress first.
    let levels = bound as usize + 1;
    let mut starts = vec![0usize; levels + 1];
    for &p in &progress {
        if p != HOLE {
            starts[bound as usize - p as usize + 1] += 1;
        }
    }
    for l in 0..levels {
        starts[l + 1] += starts[l];
    }
    let mut order = vec![0u32; starts[levels]];
    let mut next = starts.clone();
    let mut values = TierValues::new(width, size);
    for (index, &p) in progress.iter().enumerate() {
        if p == HOLE {
            values.set(index, PackedValue::NONE.0);
        } else {
            let slot = &mut next[bound as usize - p as usize];
            order[*slot] = index as u32;
            *slot += 1;
        }
    }
    drop(progress);
    // 3. sweeps: a child of the tier not swept yet reads `UNSOLVED`, which
    // `scan_code` reports as a broken measure.
    let mut codes: Vec<u32> = Vec::new();
    let mut done = 0u64;
    for l in 0..levels {
        let level = &order[starts[l]..starts[l + 1]];
        if level.is_empty() {
            continue;
        }
        codes.clear();
        codes.resize(level.len(), 0);
        let current = &values;
        let own = |i: u64| current.code(i).0;
        let sweep = |(indices, out): (&[u32], &mut [u32])| {
            // Every index of the order names a position (holes have no progress).
            let mut codes = out.iter_mut();
            game.for_each_located_at(tier, indices.iter().map(|&i| i as u64), |_, scan| {
                *codes.next().expect("one position an index") = scan_code(game, tier, scan, &own, solved);
            });
            assert!(
                codes.next().is_none(),
                "an index of the order named no position: the game breaks the Tiered invariants"
            );
        };
        if level.len() > CHUNK {
            level.par_chunks(CHUNK).zip(codes.par_chunks_mut(CHUNK)).for_each(sweep);
        } else {
            sweep((level, &mut codes[..]));
        }
        for (&index, &code) in level.iter().zip(&codes) {
            if !fits(width, code) {
                return None;
            }
            values.set(index as usize, code);
        }
        done += level.len() as u64;
        report(observer, "tier", done, size as u64);
    }
    Some(values)
}

// A decided child's kind, as in `PackedValue` tags.
const TAG_LOSS: u8 = 1;
const TAG_TIE: u8 = 2;
const TAG_WIN: u8 = 3;
/// A counter's flag: some child tied.
const TIED: u32 = 1 << 31;

fn tag_of(value: Value) -> u8 {
    match value {
        Value::Loss(_) => TAG_LOSS,
        Value::Tie(_) => TAG_TIE,
        Value::Win(_) => TAG_WIN,
        Value::Draw => unreachable!("draws are never decided"),
    }
}

/// Step 1, tiers that may have cycles: retrograde analysis within the tier.
///
/// 1. **graph**: every position's children are enumerated once. Children in the
///    tier become reverse edges (parents by child, compressed rows); children
///    elsewhere (terminal, or in a solved tier) have final values: each becomes an
///    *event* for its parent at the level of its remoteness. A draw outside the
///    tier is a child that is never decided.
/// 2. **propagate** level by level, as whole-game retrograde does: level r applies
///    the positions of the tier decided at r (to their parents) and the events at r.
///    A parent with a lost child wins in r + 1; a parent whose children have all won
///    loses in r + 1 (the slowest); one whose children are all decided, some tied,
///    takes the best of its children.
/// 3. **ties**: an undecided position with a tied child ties one ply after its
///    fastest tied child (breadth-first in order of remoteness).
/// 4. what is still undecided is a draw.
///
/// Memory: 8 bytes of value and counter per position, 12 bytes per move within the
/// tier, 16 per move leaving it: for a user's loopy game, not for the largest tiers.
fn retrograde_in_tier<G: Tiered + Sync>(
    game: &G,
    tier: G::Tier,
    solved: &ChildCodes<'_, G::Tier>,
    width: u8,
    observer: Option<Observer<'_>>,
) -> Option<TierValues> {
    let size = usize::try_from(game.tier_size(tier)).expect("the tier fits in memory");
    let mut values = vec![PackedValue::NONE.0; size];
    let mut counters = vec![0u32; size];
    // Step 1: edges within the tier (child, parent), and events from outside.
    let mut edges: Vec<(u64, u64)> = Vec::new();
    let mut events: Vec<(u32, u64, u8)> = Vec::new(); // (level, parent, child's tag)
    let mut decided: Vec<(u32, u64)> = Vec::new(); // (level, position) decided at start
    let no_own = |_: u64| UNSOLVED;
    game.for_each_position_in_tier(tier, 0..size as u64, |index, position| {
        if let Some(outcome) = game.terminal(&position) {
            values[index as usize] = PackedValue::pack(outcome.value()).0;
            decided.push((0, index));
            return;
        }
        values[index as usize] = PackedValue::DRAW.0;
        let mut children = 0u32;
        game.for_each_child(&position, |child| {
            children += 1;
            let inside = game.terminal(&child).is_none() && game.locate(&child).is_some_and(|(t, _)| t == tier);
            if inside {
                let (_, child_index) = game.locate(&child).expect("located above");
                edges.push((child_index, index));
                return;
            }
            match child_value(game, tier, &child, &no_own, solved) {
                // Never decided: the counter never reaches 0 for it.
                Value::Draw => {}
                v => events.push((v.remoteness().expect("not a draw"), index, tag_of(v))),
            }
        });
        if children == 0 {
            values[index as usize] = PackedValue::pack(Value::Loss(0)).0;
            decided.push((0, index));
        } else {
            counters[index as usize] = children;
        }
    });
    report(observer, "tier", 0, size as u64);
    edges.sort_unstable();
    let mut offsets = vec![0usize; size + 1];
    for &(child, _) in &edges {
        offsets[child as usize + 1] += 1;
    }
    for i in 0..size {
        offsets[i + 1] += offsets[i];
    }
    let parents: Vec<u64> = edges.into_iter().map(|(_, parent)| parent).collect();
    events.sort_unstable();

    // Step 2: level by level.
    let mut frontier: Vec<(u64, u8)> =
        decided.iter().map(|&(_, i)| (i, tag_of(PackedValue(values[i as usize]).unpack().expect("decided")))).collect();
    let mut ties: Vec<(u32, u64, bool)> = Vec::new(); // (level, position or parent, is an event)
    let mut next_event = 0;
    let mut level = 0u32;
    let mut count = frontier.len() as u64;
    let best_of_children = |values: &[u32], index: u64| -> Value {
        let position = game.position_in(tier, index).expect("pending positions exist");
        let own = |i: u64| values[i as usize];
        let mut best: Option<Value> = None;
        game.for_each_child(&position, |child| {
            best = best.max(Some(child_value(game, tier, &child, &own, solved).parent_view()));
        });
        best.expect("a position with a counter has children")
    };
    loop {
        if frontier.is_empty() {
            // Nothing decided at this level: go on at the next event's level.
            match events.get(next_event) {
                Some(&(r, _, _)) if r > level => level = r,
                Some(_) => {}
                None => break,
            }
        }
        let mut updates: Vec<(u64, u8)> = Vec::new();
        for &(position, tag) in &frontier {
            if tag == TAG_TIE {
                // Its own remoteness: a tie resolved from its children can be faster
                // than the level that resolved it.
                let r = PackedValue(values[position as usize]).unpack().and_then(Value::remoteness).expect("a tie");
                ties.push((r, position, false));
            }
            for &parent in &parents[offsets[position as usize]..offsets[position as usize + 1]] {
                updates.push((parent, tag));
            }
        }
        while let Some(&(r, parent, tag)) = events.get(next_event) {
            if r != level {
                break;
            }
            if tag == TAG_TIE {
                ties.push((level, parent, true));
            }
            updates.push((parent, tag));
            next_event += 1;
        }
        let mut next = Vec::new();
        let mut pending = Vec::new();
        for (parent, tag) in updates {
            let p = parent as usize;
            let current = counters[p];
            if current == 0 {
                continue;
            }
            if tag == TAG_LOSS {
                counters[p] = 0;
                values[p] = PackedValue::pack(Value::Win(level + 1)).0;
                next.push((parent, TAG_WIN));
                continue;
            }
            let flags = (current & TIED) | if tag == TAG_TIE { TIED } else { 0 };
            let remaining = (current & !TIED) - 1;
            if remaining > 0 {
                counters[p] = flags | remaining;
                continue;
            }
            counters[p] = 0;
            if flags != 0 {
                pending.push(parent);
            } else {
                values[p] = PackedValue::pack(Value::Loss(level + 1)).0;
                next.push((parent, TAG_LOSS));
            }
        }
        // Every child decided, some tied: the best of them, read after the level.
        for parent in pending {
            let value = best_of_children(&values, parent);
            values[parent as usize] = PackedValue::pack(value).0;
            next.push((parent, tag_of(value)));
        }
        count += next.len() as u64;
        report(observer, "tier", count, size as u64);
        frontier = next;
        level += 1;
        if frontier.is_empty() && next_event >= events.len() {
            break;
        }
    }

    // Step 3: ties spread breadth-first, fastest first.
    if !ties.is_empty() {
        ties.sort_unstable();
        let mut found: std::collections::VecDeque<(u32, u64)> = std::collections::VecDeque::new();
        let mut seeds = ties.into_iter().peekable();
        loop {
            let take_found = match (seeds.peek(), found.front()) {
                (Some(&(s, _, _)), Some(&(f, _))) => f < s,
                (None, Some(_)) => true,
                (Some(_), None) => false,
                (None, None) => break,
            };
            // (remoteness of the tied position, the parents to reach)
            let (r, targets): (u32, Vec<u64>) = if take_found {
                let (r, position) = found.pop_front().expect("peeked");
                (r, parents[offsets[position as usize]..offsets[position as usize + 1]].to_vec())
            } else {
                let (r, who, event) = seeds.next().expect("peeked");
                if event {
                    // An outside tied child at r: its parent is the target.
                    (r, vec![who])
                } else {
                    (r, parents[offsets[who as usize]..offsets[who as usize + 1]].to_vec())
                }
            };
            for parent in targets {
                let p = parent as usize;
                if counters[p] != 0 {
                    counters[p] = 0;
                    values[p] = PackedValue::pack(Value::Tie(r + 1)).0;
                    found.push_back((r + 1, parent));
                }
            }
        }
    }

    // Step 4: the rest are draws (their value is already Draw). Narrow the codes.
    let mut out = TierValues::new(width, size);
    for (i, &code) in values.iter().enumerate() {
        if !fits(width, code) {
            return None;
        }
        out.set(i, code);
    }
    Some(out)
}

/// Solved tiers held in memory: for tests, and for games small enough to keep
/// every tier.
#[derive(Debug)]
pub struct TiersInMemory<T> {
    tiers: HashMap<T, TierValues>,
}

impl<T> Default for TiersInMemory<T> {
    fn default() -> Self {
        TiersInMemory { tiers: HashMap::new() }
    }
}

impl<T: Copy + Eq + std::hash::Hash + Send + Sync> TiersInMemory<T> {
    /// Adds a solved tier.
    pub fn insert(&mut self, tier: T, values: TierValues) {
        self.tiers.insert(tier, values);
    }

    /// A solved tier's values.
    pub fn get(&self, tier: T) -> Option<&TierValues> {
        self.tiers.get(&tier)
    }
}

impl<T: Copy + Eq + std::hash::Hash + Send + Sync> SolvedTiers<T> for TiersInMemory<T> {
    fn codes(&self, tier: T) -> Option<Codes<'_>> {
        self.tiers.get(&tier).map(|values| Codes { width: values.width, bytes: &values.bytes })
    }
}

/// Solves every tier in order, keeping all of them in memory.
pub fn solve_all<G: Tiered + Sync>(game: &G) -> TiersInMemory<G::Tier> {
    let mut solved = TiersInMemory::default();
    for tier in game.tiers() {
        let values = solve_tier(game, tier, &solved, None);
        solved.insert(tier, values);
    }
    solved
}
