//! The result of a whole-game solve: every position's value, by index.

use crate::game::{Indexed, ValueLookup};
use crate::value::{PackedValue, Value};

/// Every position's value, by index. Produced by [`crate::retrograde`].
///
/// Memory: 4 bytes per index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    values: Vec<PackedValue>,
}

/// How many positions have each kind of value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Positions that end level.
    pub ties: u64,
    /// Positions that never end.
    pub draws: u64,
    /// Indices that name no position.
    pub holes: u64,
    /// The largest remoteness of any win, loss or tie.
    pub max_remoteness: u32,
}

impl Solution {
    /// Wraps packed values (index `i` holds the value of position `i`).
    pub fn from_packed(values: Vec<PackedValue>) -> Self {
        Solution { values }
    }

    /// The value at `index`; `None` for a hole or an index out of range.
    #[inline]
    pub fn value(&self, index: u64) -> Option<Value> {
        self.values.get(usize::try_from(index).ok()?)?.unpack()
    }

    /// The value of a position (a terminal one by the rules).
    pub fn value_of<G: Indexed>(&self, game: &G, position: &G::Position) -> Option<Value> {
        self.lookup(game, position)
    }

    /// The packed values, by index.
    pub fn packed(&self) -> &[PackedValue] {
        &self.values
    }

    /// Number of indices.
    pub fn len(&self) -> u64 {
        self.values.len() as u64
    }

    /// True when the index is empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Counts of each kind of value.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for v in &self.values {
            match v.unpack() {
                None => c.holes += 1,
                Some(Value::Draw) => c.draws += 1,
                Some(v) => {
                    match v {
                        Value::Win(_) => c.wins += 1,
                        Value::Loss(_) => c.losses += 1,
                        _ => c.ties += 1,
                    }
                    c.max_remoteness = c.max_remoteness.max(v.remoteness().unwrap_or(0));
                }
            }
        }
        c
    }
}

/// Terminal positions are valued by the rules (they may have no index).
impl<G: Indexed + ?Sized> ValueLookup<G> for Solution {
    fn lookup(&self, game: &G, position: &G::Position) -> Option<Value> {
        match game.terminal(position) {
            Some(outcome) => Some(outcome.value()),
            None => self.value(game.index(position)),
        }
    }
}
