//! Counts of a tablebase's values: wins, losses, ties and draws per side to move,
//! by remoteness, and the longest win.

use crate::error::Result;
use crate::read::Table;
use gsolve_engine::{Indexed, Observer, Progress, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts for one side to move; `wins[r]` positions are won in exactly r plies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideCounts {
    /// Wins by remoteness.
    pub wins: Vec<u64>,
    /// Losses by remoteness.
    pub losses: Vec<u64>,
    /// Ties by remoteness.
    pub ties: Vec<u64>,
    /// Draws.
    pub draws: u64,
}

impl SideCounts {
    /// Total wins.
    pub fn total_wins(&self) -> u64 {
        self.wins.iter().sum()
    }
    /// Total losses.
    pub fn total_losses(&self) -> u64 {
        self.losses.iter().sum()
    }
    /// Total ties.
    pub fn total_ties(&self) -> u64 {
        self.ties.iter().sum()
    }

    fn add(&mut self, value: Value) {
        let bump = |histogram: &mut Vec<u64>, r: u32| {
            if histogram.len() <= r as usize {
                histogram.resize(r as usize + 1, 0);
            }
            histogram[r as usize] += 1;
        };
        match value {
            Value::Win(r) => bump(&mut self.wins, r),
            Value::Loss(r) => bump(&mut self.losses, r),
            Value::Tie(r) => bump(&mut self.ties, r),
            Value::Draw => self.draws += 1,
        }
    }

    fn merge(&mut self, other: &SideCounts) {
        for (mine, theirs) in
            [(&mut self.wins, &other.wins), (&mut self.losses, &other.losses), (&mut self.ties, &other.ties)]
        {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            mine.iter_mut().zip(theirs).for_each(|(m, t)| *m += t);
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

const CHUNK: u64 = 1 << 16;

/// Counts the value of every position of `game` in `table`; `side_of` numbers the
/// side to move (below `sides`). Indices that name no position count as holes. Fails
/// on the first invalid code.
pub fn summarize<G: Indexed + Sync>(
    game: &G,
    table: &Table,
    sides: usize,
    side_of: impl Fn(&G::Position) -> usize + Sync,
    observer: Option<Observer<'_>>,
) -> Result<Summary> {
    let size = table.len();
    let done = AtomicU64::new(0);
    let parts: Vec<Summary> = (0..size.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            let range = chunk * CHUNK..((chunk + 1) * CHUNK).min(size);
            let mut part = Summary { sides: vec![SideCounts::default(); sides], ..Summary::default() };
            let mut error = None;
            let mut positions = 0;
            game.for_each_position_in(range.clone(), |index, position| {
                positions += 1;
                match table.value(index) {
                    Ok(None) => part.holes += 1,
                    Ok(Some(value)) => {
                        part.sides[side_of(&position)].add(value);
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
