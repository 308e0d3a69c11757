//! Counts of a tablebase's values: wins, losses, ties and draws per side to move,
//! by remoteness, and the longest win.
//!
//! The file is read one block at a time (in parallel), never loaded whole, and each
//! block's counts are merged into the total as the block is done. Counts are kept
//! by remoteness only for the remoteness values that occur, one by one below
//! [`EXACT_REMOTENESS`] and by ranges of powers of two above it: the memory a
//! summary takes is a block per thread and at most [`EXACT_REMOTENESS`] + 16
//! counters a histogram, whatever the file holds or its header claims (a forged
//! file of a million positions, each with its own remoteness, included).

use crate::error::Result;
use crate::format;
use crate::read::Tablebase;
use gsolve_engine::{Indexed, Observer, PackedValue, Progress, Value};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Remoteness values below this are counted one by one: every remoteness a file of
/// 1- or 2-byte values can hold (codes below 2^16). A remoteness of this or more
/// (only in files of 4-byte values) is counted in the range [2^k, 2^(k+1) − 1] that
/// holds it, keyed by 2^k: at most 16 ranges (remoteness goes up to 2^30 − 1).
pub const EXACT_REMOTENESS: u32 = 1 << 14;

/// The key a remoteness is counted under: itself below [`EXACT_REMOTENESS`], else
/// the power of two that starts its range.
pub fn remoteness_key(r: u32) -> u32 {
    if r < EXACT_REMOTENESS {
        r
    } else {
        1 << (31 - r.leading_zeros())
    }
}

/// The remoteness values counted under `key`: `key` alone below
/// [`EXACT_REMOTENESS`], else its range of powers of two.
pub fn remoteness_range(key: u32) -> RangeInclusive<u32> {
    if key < EXACT_REMOTENESS {
        key..=key
    } else {
        key..=key.saturating_mul(2).saturating_sub(1).min(PackedValue::MAX_REMOTENESS)
    }
}

/// Counts for one side to move; `wins[&k]` positions are won in a remoteness
/// counted under key k ([`remoteness_key`]): exactly k plies below
/// [`EXACT_REMOTENESS`], within [`remoteness_range`]`(k)` above.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideCounts {
    /// Wins by remoteness.
    pub wins: BTreeMap<u32, u64>,
    /// Losses by remoteness.
    pub losses: BTreeMap<u32, u64>,
    /// Ties by remoteness.
    pub ties: BTreeMap<u32, u64>,
    /// Draws.
    pub draws: u64,
}

impl SideCounts {
    /// Total wins.
    pub fn total_wins(&self) -> u64 {
        self.wins.values().sum()
    }
    /// Total losses.
    pub fn total_losses(&self) -> u64 {
        self.losses.values().sum()
    }
    /// Total ties.
    pub fn total_ties(&self) -> u64 {
        self.ties.values().sum()
    }

    /// The largest key of any win, loss or tie: the largest remoteness when it is
    /// below [`EXACT_REMOTENESS`], else the start of its range.
    pub fn max_remoteness(&self) -> Option<u32> {
        [&self.wins, &self.losses, &self.ties].iter().filter_map(|h| h.keys().next_back().copied()).max()
    }

    fn add(&mut self, value: Value) {
        match value {
            Value::Win(r) => *self.wins.entry(remoteness_key(r)).or_default() += 1,
            Value::Loss(r) => *self.losses.entry(remoteness_key(r)).or_default() += 1,
            Value::Tie(r) => *self.ties.entry(remoteness_key(r)).or_default() += 1,
            Value::Draw => self.draws += 1,
        }
    }

    fn merge(&mut self, other: &SideCounts) {
        for (mine, theirs) in
            [(&mut self.wins, &other.wins), (&mut self.losses, &other.losses), (&mut self.ties, &other.ties)]
        {
            for (&r, &n) in theirs {
                *mine.entry(r).or_default() += n;
            }
        }
        self.draws += other.draws;
    }
}

/// What [`summarize`] counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Counts per side to move, in the order the classifier numbers the sides.
    pub sides: Vec<SideCounts>,
    /// Indices that name no position.
    pub holes: u64,
    /// The longest win, (remoteness, smallest index with it).
    pub longest_win: Option<(u32, u64)>,
}

impl Summary {
    /// Adds `part`'s counts; of two wins of the same remoteness, the one at the
    /// smaller index stays the example.
    fn merge(&mut self, part: &Summary) {
        self.holes += part.holes;
        self.sides.iter_mut().zip(&part.sides).for_each(|(t, p)| t.merge(p));
        if let Some((r, index)) = part.longest_win {
            if self.longest_win.is_none_or(|(best, at)| r > best || r == best && index < at) {
                self.longest_win = Some((r, index));
            }
        }
    }
}

/// Counts the value of every position of `game` in `tablebase`, block by block;
/// `side_of` numbers the side to move (below `sides`). Indices that name no position
/// count as holes. Fails on the first damaged block or invalid code.
pub fn summarize<G: Indexed + Sync>(
    game: &G,
    tablebase: &Tablebase,
    sides: usize,
    side_of: impl Fn(&G::Position) -> usize + Sync,
    observer: Option<Observer<'_>>,
) -> Result<Summary> {
    let header = tablebase.header();
    let (blocks, size, width) = (header.block_count, header.index_size, header.value_width);
    let done = AtomicU64::new(0);
    let total = Mutex::new(Summary { sides: vec![SideCounts::default(); sides], ..Summary::default() });
    (0..blocks).into_par_iter().try_for_each_init(Vec::new, |buffer, block| {
        tablebase.read_block(block, buffer)?;
        let range = header.block_range(block);
        let mut part = Summary { sides: vec![SideCounts::default(); sides], ..Summary::default() };
        let mut error = None;
        let mut positions = 0;
        game.for_each_position_in(range.clone(), |index, position| {
            positions += 1;
            let code = format::read_code(buffer, width, (index - range.start) as usize);
            match crate::read::decode_value(index, code) {
                Ok(None) => part.holes += 1,
                Ok(Some(value)) => {
                    part.sides[side_of(&position).min(sides - 1)].add(value);
                    if let Value::Win(r) = value {
                        if part.longest_win.is_none_or(|(best, _)| r > best) {
                            part.longest_win = Some((r, index));
                        }
                    }
                }
                Err(e) => {
                    error.get_or_insert(e);
                }
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        part.holes += (range.end - range.start) - positions;
        let done = done.fetch_add(range.end - range.start, Ordering::Relaxed) + (range.end - range.start);
        // Merged as soon as the block is done: only the blocks being read are
        // held beside the total.
        total.lock().unwrap_or_else(|e| e.into_inner()).merge(&part);
        if let Some(observe) = observer {
            observe(Progress::new("count", done, size));
        }
        Ok(())
    })?;
    Ok(total.into_inner().unwrap_or_else(|e| e.into_inner()))
}
