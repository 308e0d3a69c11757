//! Counts of a tablebase's values: wins, losses, ties and draws per side to move,
//! by remoteness, and the longest win.
//!
//! The file is read one block at a time (in parallel), never loaded whole, and the
//! counts are kept by remoteness only for the remoteness values that occur: the
//! memory a summary takes grows with what the file holds (a block, and one counter
//! per distinct value), not with what its header claims.

use crate::error::Result;
use crate::format;
use crate::read::Tablebase;
use gsolve_engine::{Indexed, Observer, Progress, Value};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts for one side to move; `wins[&r]` positions are won in exactly r plies.
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

    /// The largest remoteness of any win, loss or tie.
    pub fn max_remoteness(&self) -> Option<u32> {
        [&self.wins, &self.losses, &self.ties].iter().filter_map(|h| h.keys().next_back().copied()).max()
    }

    fn add(&mut self, value: Value) {
        match value {
            Value::Win(r) => *self.wins.entry(r).or_default() += 1,
            Value::Loss(r) => *self.losses.entry(r).or_default() += 1,
            Value::Tie(r) => *self.ties.entry(r).or_default() += 1,
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
    let parts: Vec<Summary> = (0..blocks)
        .into_par_iter()
        .map_init(Vec::new, |buffer, block| {
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
            if let Some(observe) = observer {
                observe(Progress::new("count", done, size));
            }
            Ok(part)
        })
        .collect::<Result<_>>()?;
    let mut total = Summary { sides: vec![SideCounts::default(); sides], ..Summary::default() };
    for part in parts {
        total.holes += part.holes;
        total.sides.iter_mut().zip(&part.sides).for_each(|(t, p)| t.merge(p));
        // Parts come in index order: a strictly longer win replaces, an equal one not.
        if let Some((r, index)) = part.longest_win {
            if total.longest_win.is_none_or(|(best, _)| r > best) {
                total.longest_win = Some((r, index));
            }
        }
    }
    Ok(total)
}
