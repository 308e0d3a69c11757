//! Verification: an independent proof that a tablebase is right.
//!
//! Each position's value is derived again from the rules and the *stored* values of
//! its children, without any solver:
//!
//! | position                         | its value must be                            |
//! |----------------------------------|----------------------------------------------|
//! | terminal                         | what the rules say ([`gsolve_engine::Game::terminal`])      |
//! | no legal move                    | `Loss(0)`                                    |
//! | some child stored `Loss`         | `Win(r + 1)`, r the fastest such loss        |
//! | else some child `Tie`            | `Tie(r + 1)`, r the fastest such tie         |
//! | else some child `Draw`           | `Draw`                                       |
//! | else (every child `Win`)         | `Loss(r + 1)`, r the slowest win             |
//!
//! and every index that names no position must store "no position". Why this is a
//! proof: if every position agrees with its children, then by induction on r every
//! stored `Win(r)`/`Loss(r)` is the true value (a stored `Loss(0)` is a real end; a
//! stored `Win(r)` has a child stored, hence truly, lost in r − 1, ...) and every true
//! win or loss is stored with its true remoteness; what is left, stored `Draw`, are
//! exactly the positions no side can force to an end. (Ties go the same way.)

use crate::read::Table;
use gsolve_engine::{Indexed, Observer, PackedValue, Progress, Tiered, Value};
use rayon::prelude::*;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

/// A position (or index) whose stored value does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The index.
    pub index: u64,
    /// What does not hold.
    pub problem: Problem,
}

/// What is wrong at an index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The stored code is not a value.
    NotAValue {
        /// The code.
        code: u32,
    },
    /// The index names no position, but a value is stored.
    HoleWithValue {
        /// The stored value.
        stored: Value,
    },
    /// The index names a position, but "no position" is stored.
    MissingValue,
    /// The game's index does not map the position back to this index.
    IndexMismatch {
        /// `index(position(i))`.
        back: u64,
    },
    /// A child's index is outside the table.
    ChildOutside {
        /// The child's index.
        child: u64,
    },
    /// A child has no value stored (or an invalid code).
    ChildWithoutValue {
        /// The child's index.
        child: u64,
    },
    /// The stored value is not the one its children give.
    Wrong {
        /// What is stored.
        stored: Value,
        /// What the rules and the children's values give.
        derived: Value,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NotAValue { code } => write!(f, "stored code {code:#x} is not a value"),
            Problem::HoleWithValue { stored } => write!(f, "names no position but stores {stored}"),
            Problem::MissingValue => f.write_str("is a position but stores no value"),
            Problem::IndexMismatch { back } => write!(f, "its position's index is {back}"),
            Problem::ChildOutside { child } => write!(f, "a child has index {child}, outside the table"),
            Problem::ChildWithoutValue { child } => write!(f, "child {child} has no value stored"),
            Problem::Wrong { stored, derived } => write!(f, "stores {stored}, but its children give {derived}"),
        }
    }
}

/// What [`verify`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verification {
    /// Indices that name a position.
    pub positions: u64,
    /// Indices that name none.
    pub holes: u64,
    /// How many indices fail.
    pub failure_count: u64,
    /// The first failures, in index order (at most the limit given).
    pub failures: Vec<Failure>,
}

impl Verification {
    /// True when every index holds.
    pub fn is_ok(&self) -> bool {
        self.failure_count == 0
    }
}

/// Indices checked per parallel task (and between progress reports).
const CHUNK: u64 = 1 << 16;

/// Checks every index of `table` against `game`'s rules; keeps the first `limit`
/// failures.
pub fn verify<G>(game: &G, table: &Table, limit: usize, observer: Option<Observer<'_>>) -> Verification
where
    G: Indexed + Sync,
{
    let size = table.len();
    let chunks = size.div_ceil(CHUNK);
    let done = AtomicU64::new(0);
    let parts: Vec<Verification> = (0..chunks)
        .into_par_iter()
        .map_init(Vec::new, |children, chunk| {
            let range = chunk * CHUNK..((chunk + 1) * CHUNK).min(size);
            let mut part = Verification::default();
            let record = |part: &mut Verification, index: u64, problem: Option<Problem>| {
                if let Some(problem) = problem {
                    part.failure_count += 1;
                    if part.failures.len() < limit {
                        part.failures.push(Failure { index, problem });
                    }
                }
            };
            // The game steps through its positions; the indices it skips are holes.
            let mut next = range.start;
            game.for_each_position_in(range.clone(), |index, position| {
                for hole in next..index {
                    let problem = check_hole(table, hole, &mut part);
                    record(&mut part, hole, problem);
                }
                let back = game.index(&position);
                let child_value = |child: &G::Position| whole_table_child(table, game.index(child));
                let problem = check_position(game, table, index, back, &position, children, &mut part, &child_value);
                record(&mut part, index, problem);
                next = index + 1;
            });
            for hole in next..range.end {
                let problem = check_hole(table, hole, &mut part);
                record(&mut part, hole, problem);
            }
            let done = done.fetch_add(range.end - range.start, Ordering::Relaxed) + (range.end - range.start);
            if let Some(observe) = observer {
                observe(Progress::new("verify", done, size));
            }
            part
        })
        .collect();
    let mut total = Verification::default();
    for part in parts {
        total.positions += part.positions;
        total.holes += part.holes;
        total.failure_count += part.failure_count;
        let room = limit - total.failures.len();
        total.failures.extend(part.failures.into_iter().take(room));
    }
    total
}

/// The stored code at `index` as a value, `None` for "no position".
fn stored(table: &Table, index: u64) -> Result<Option<Value>, Problem> {
    let code = table.packed(index);
    match code.unpack() {
        Some(value) => Ok(Some(value)),
        None if code == PackedValue::NONE => Ok(None),
        None => Err(Problem::NotAValue { code: code.0 }),
    }
}

/// The problem at an index that names no position, if any.
fn check_hole(table: &Table, index: u64, counts: &mut Verification) -> Option<Problem> {
    counts.holes += 1;
    match stored(table, index) {
        Ok(None) => None,
        Ok(Some(stored)) => Some(Problem::HoleWithValue { stored }),
        Err(problem) => Some(problem),
    }
}

/// The problem at a position's index, if any. `children` is scratch space;
/// `child_value` reads a child's stored value (a non-terminal child's).
#[allow(clippy::too_many_arguments)]
fn check_position<G: Indexed>(
    game: &G,
    table: &Table,
    index: u64,
    back: u64,
    position: &G::Position,
    children: &mut Vec<G::Position>,
    counts: &mut Verification,
    child_value: &impl Fn(&G::Position) -> Result<Value, Problem>,
) -> Option<Problem> {
    counts.positions += 1;
    let stored = match stored(table, index) {
        Ok(Some(value)) => value,
        Ok(None) => return Some(Problem::MissingValue),
        Err(problem) => return Some(problem),
    };
    if back != index {
        return Some(Problem::IndexMismatch { back });
    }
    let derived = match derive(game, position, children, child_value) {
        Ok(value) => value,
        Err(problem) => return Some(problem),
    };
    (derived != stored).then_some(Problem::Wrong { stored, derived })
}

/// The value the rules and the children's stored values give (the table above).
fn derive<G: Indexed>(
    game: &G,
    position: &G::Position,
    children: &mut Vec<G::Position>,
    child_value: &impl Fn(&G::Position) -> Result<Value, Problem>,
) -> Result<Value, Problem> {
    if let Some(outcome) = game.terminal(position) {
        return Ok(outcome.value());
    }
    children.clear();
    game.for_each_child(position, |child| children.push(child));
    if children.is_empty() {
        return Ok(Value::Loss(0));
    }
    // A child the rules value is valued so (it may have no index). One of them
    // lost at once makes the position a win in 1, the best value there is,
    // whatever the other children store: their stored values are not read
    // (each is checked at its own index). Why: in Dobutsu shogi 44% of the
    // positions can take the lion, and locating their children was most of
    // their check.
    let (mut fastest_loss, mut fastest_tie, mut slowest_win, mut draw) = (None::<u32>, None::<u32>, None::<u32>, false);
    let mut tally = |value: Value| match value {
        Value::Loss(r) => fastest_loss = Some(fastest_loss.map_or(r, |f| f.min(r))),
        Value::Tie(r) => fastest_tie = Some(fastest_tie.map_or(r, |f| f.min(r))),
        Value::Draw => draw = true,
        Value::Win(r) => slowest_win = Some(slowest_win.map_or(r, |s| s.max(r))),
    };
    // The children the rules value first; those left are read from the table.
    let mut lost_at_once = false;
    children.retain(|child| match game.value_by_rules(child) {
        Some(value) => {
            lost_at_once |= value == Value::Loss(0);
            tally(value);
            false
        }
        None => true,
    });
    if lost_at_once {
        return Ok(Value::Win(1));
    }
    for child in children.iter() {
        tally(child_value(child)?);
    }
    Ok(match (fastest_loss, fastest_tie, draw, slowest_win) {
        (Some(r), ..) => Value::Win(r + 1),
        (None, Some(r), ..) => Value::Tie(r + 1),
        (None, None, true, _) => Value::Draw,
        (None, None, false, Some(r)) => Value::Loss(r + 1),
        (None, None, false, None) => unreachable!("a position with children has a child value"),
    })
}

/// A stored value of the whole table, for a child at `index`.
fn whole_table_child(table: &Table, child: u64) -> Result<Value, Problem> {
    if child >= table.len() {
        return Err(Problem::ChildOutside { child });
    }
    match table.value(child) {
        Ok(Some(value)) => Ok(value),
        Ok(None) | Err(_) => Err(Problem::ChildWithoutValue { child }),
    }
}

/// Checks a tiered game's tablebase tier by tier: each tier's values and its child
/// tiers' are decompressed into memory, and nothing else, so that a file larger than
/// memory is verified in the memory of its largest tier and the tiers it reads. The
/// whole index must be the tiers one after another in solving order (as the tiered
/// build writes it). Keeps the first `limit` failures.
pub fn verify_tiered<G>(
    game: &G,
    tablebase: &crate::read::Tablebase,
    limit: usize,
    observer: Option<Observer<'_>>,
) -> crate::error::Result<Verification>
where
    G: Tiered + Indexed + Sync,
{
    let tiers = game.tiers();
    let mut offsets = std::collections::HashMap::new();
    let mut start = 0u64;
    for &tier in &tiers {
        offsets.insert(tier, start);
        start += game.tier_size(tier);
    }
    let size = tablebase.index_size();
    let mut total = Verification::default();
    let done = AtomicU64::new(0);
    for &tier in &tiers {
        let offset = offsets[&tier];
        let tier_size = game.tier_size(tier);
        // This tier and the tiers its children lie in: (tier, its first index, values).
        let mut loaded = vec![(tier, offset, tablebase.load_range(offset..offset + tier_size)?)];
        for child in game.child_tiers(tier) {
            let child_offset = offsets[&child];
            loaded.push((
                child,
                child_offset,
                tablebase.load_range(child_offset..child_offset + game.tier_size(child))?,
            ));
        }
        let own = &loaded[0].2;
        let child_value = |child: &G::Position| -> Result<Value, Problem> {
            let Some((child_tier, i)) = game.locate(child) else {
                return Err(Problem::ChildOutside { child: u64::MAX });
            };
            let Some((_, start, table)) = loaded.iter().find(|(t, _, _)| *t == child_tier) else {
                return Err(Problem::ChildOutside { child: i });
            };
            let index = start + i;
            if i >= table.len() {
                return Err(Problem::ChildOutside { child: index });
            }
            match table.value(index) {
                Ok(Some(value)) => Ok(value),
                Ok(None) | Err(_) => Err(Problem::ChildWithoutValue { child: index }),
            }
        };
        // A tier is cut into at least four chunks a thread where it is large
        // enough: most tiers are smaller than two whole chunks, and with chunks
        // of `CHUNK` one thread checked them alone (Dobutsu's 2,100 tiers ran
        // on 1.7 of 2 cores).
        let chunk_size =
            tier_size.div_ceil(4 * rayon::current_num_threads() as u64).next_multiple_of(1 << 10).clamp(1 << 10, CHUNK);
        let chunks = tier_size.div_ceil(chunk_size);
        let parts: Vec<Verification> = (0..chunks)
            .into_par_iter()
            .map_init(Vec::new, |children, chunk| {
                let range = chunk * chunk_size..((chunk + 1) * chunk_size).min(tier_size);
                let mut part = Verification::default();
                let record = |part: &mut Verification, index: u64, problem: Option<Problem>| {
                    if let Some(problem) = problem {
                        part.failure_count += 1;
                        if part.failures.len() < limit {
                            part.failures.push(Failure { index, problem });
                        }
                    }
                };
                let mut next = range.start;
                game.for_each_position_in_tier(tier, range.clone(), |i, position| {
                    for hole in next..i {
                        let problem = check_hole(own, offset + hole, &mut part);
                        record(&mut part, offset + hole, problem);
                    }
                    let back = game.index(&position);
                    let problem =
                        check_position(game, own, offset + i, back, &position, children, &mut part, &child_value);
                    record(&mut part, offset + i, problem);
                    next = i + 1;
                });
                for hole in next..range.end {
                    let problem = check_hole(own, offset + hole, &mut part);
                    record(&mut part, offset + hole, problem);
                }
                let done = done.fetch_add(range.end - range.start, Ordering::Relaxed) + (range.end - range.start);
                if let Some(observe) = observer {
                    observe(Progress::new("verify", done, size));
                }
                part
            })
            .collect();
        for part in parts {
            total.positions += part.positions;
            total.holes += part.holes;
            total.failure_count += part.failure_count;
            let room = limit - total.failures.len();
            total.failures.extend(part.failures.into_iter().take(room));
        }
    }
    Ok(total)
}
