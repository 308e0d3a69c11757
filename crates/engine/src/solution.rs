//! The result of a whole-game solve: every position's value, by index.

use crate::game::{Indexed, ValueLookup};
use crate::value::{PackedValue, Value};
use std::borrow::Cow;

/// Every position's value, by index. Produced by [`crate::retrograde`] and
/// [`crate::layered`].
///
/// Memory: 2 bytes per index when every remoteness is below
/// [`Solution::NARROW_MAX_REMOTENESS`] and the solver kept values narrow, else 4.
/// Both hold [`PackedValue`] codes; narrow and wide solutions of the same values
/// are equal.
#[derive(Clone, Debug)]
pub struct Solution {
    values: Storage,
}

/// [`PackedValue`] codes, in 16 bits where they fit.
#[derive(Clone, Debug)]
enum Storage {
    Narrow(Vec<u16>),
    Wide(Vec<PackedValue>),
}

/// A solution's [`PackedValue`] codes as it stored them ([`Solution::into_codes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredCodes {
    /// 16-bit codes (every remoteness at most [`Solution::NARROW_MAX_REMOTENESS`]).
    Narrow(Vec<u16>),
    /// 32-bit codes.
    Wide(Vec<PackedValue>),
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
    /// The largest remoteness a narrow (2-byte) value holds: a [`PackedValue`] code
    /// is `remoteness << 2 | tag`.
    pub const NARROW_MAX_REMOTENESS: u32 = (1 << 14) - 1;

    /// Wraps packed values (index `i` holds the value of position `i`).
    pub fn from_packed(values: Vec<PackedValue>) -> Self {
        Solution { values: Storage::Wide(values) }
    }

    /// Wraps [`PackedValue`] codes cut to 16 bits (each below 2^16: remoteness at
    /// most [`Self::NARROW_MAX_REMOTENESS`]).
    pub fn from_narrow(codes: Vec<u16>) -> Self {
        Solution { values: Storage::Narrow(codes) }
    }

    /// The packed value at `index`; `None` for an index out of range.
    #[inline]
    pub fn packed_at(&self, index: u64) -> Option<PackedValue> {
        let i = usize::try_from(index).ok()?;
        match &self.values {
            Storage::Narrow(codes) => codes.get(i).map(|&c| PackedValue(c as u32)),
            Storage::Wide(values) => values.get(i).copied(),
        }
    }

    /// The value at `index`; `None` for a hole or an index out of range.
    #[inline]
    pub fn value(&self, index: u64) -> Option<Value> {
        self.packed_at(index)?.unpack()
    }

    /// The value of a position (a terminal one by the rules).
    pub fn value_of<G: Indexed>(&self, game: &G, position: &G::Position) -> Option<Value> {
        self.lookup(game, position)
    }

    /// The packed values, by index: borrowed when wide, made (4 bytes an index)
    /// when narrow.
    pub fn packed(&self) -> Cow<'_, [PackedValue]> {
        match &self.values {
            Storage::Narrow(codes) => Cow::Owned(codes.iter().map(|&c| PackedValue(c as u32)).collect()),
            Storage::Wide(values) => Cow::Borrowed(values),
        }
    }

    /// The codes as stored: 16-bit ones when narrow.
    pub fn narrow_codes(&self) -> Option<&[u16]> {
        match &self.values {
            Storage::Narrow(codes) => Some(codes),
            Storage::Wide(_) => None,
        }
    }

    /// Gives up the codes as stored, without copying them (a front end hands them
    /// to another owner, e.g. a NumPy array).
    pub fn into_codes(self) -> StoredCodes {
        match self.values {
            Storage::Narrow(codes) => StoredCodes::Narrow(codes),
            Storage::Wide(values) => StoredCodes::Wide(values),
        }
    }

    /// Bytes per index: 2 or 4.
    pub fn bytes_per_index(&self) -> usize {
        match &self.values {
            Storage::Narrow(_) => 2,
            Storage::Wide(_) => 4,
        }
    }

    /// Number of indices.
    pub fn len(&self) -> u64 {
        match &self.values {
            Storage::Narrow(codes) => codes.len() as u64,
            Storage::Wide(values) => values.len() as u64,
        }
    }

    /// True when the index is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every packed value, by index.
    pub fn iter(&self) -> impl Iterator<Item = PackedValue> + '_ {
        (0..self.len()).map(|i| self.packed_at(i).expect("within the length"))
    }

    /// Counts of each kind of value.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for v in self.iter() {
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

/// Equal when every index holds the same value, however stored.
impl PartialEq for Solution {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Solution {}

/// Positions the rules value ([`Indexed::value_by_rules`]: terminal ones, and
/// others the index may leave out) are valued by the rules.
impl<G: Indexed + ?Sized> ValueLookup<G> for Solution {
    fn lookup(&self, game: &G, position: &G::Position) -> Option<Value> {
        match game.value_by_rules(position) {
            Some(value) => Some(value),
            None => self.value(game.index(position)),
        }
    }
}
