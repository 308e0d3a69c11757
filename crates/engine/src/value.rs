//! The value of a position for the side to move.

use std::cmp::Ordering;
use std::fmt;

/// The exact game-theoretic value of a position, seen by the side to move.
///
/// `r` is the *remoteness*: the number of plies (single moves) until the game ends
/// when the winner wins as fast as possible and the loser holds out as long as
/// possible.
///
/// | value     | meaning for the side to move                                   |
/// |-----------|----------------------------------------------------------------|
/// | `Win(r)`  | can force a win; the game ends after `r` plies                 |
/// | `Tie(r)`  | can force the game to end level (and no better) after `r` plies |
/// | `Draw`    | neither side can force an end: optimal play goes on forever    |
/// | `Loss(r)` | the opponent can force a win; the game ends after `r` plies    |
///
/// `Win(0)`, `Loss(0)` and `Tie(0)` are positions where the game is already over.
///
/// # Order
/// `Ord` ranks values by how much the side to move likes them (greater is better):
///
/// | rank | values                                                      |
/// |------|-------------------------------------------------------------|
/// | best | `Win(0) > Win(1) > Win(2) > …` (a faster win is better)      |
/// |      | `Tie(0) > Tie(1) > …` (a faster tie is better)               |
/// |      | `Draw` (an endless game ranks below any tie)                 |
/// | worst| `… > Loss(2) > Loss(1) > Loss(0)` (a slower loss is better)  |
///
/// Ties above draws follows GAMESMAN's convention (a game that ends level is preferred
/// to one that never ends). None of gsolve's four seed games can tie or has values
/// where this choice matters; tic-tac-toe ties but never draws.
///
/// A position's value is the best of `child.parent_view()` over its children.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// The side to move wins in `r` plies.
    Win(u32),
    /// The side to move loses in `r` plies.
    Loss(u32),
    /// The game ends level in `r` plies.
    Tie(u32),
    /// The game goes on forever.
    Draw,
}

/// How a finished game ended, seen by the side to move in the final position.
///
/// Returned by [`crate::Game::terminal`]; its value is remoteness 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// The game ended level.
    Tie,
}

impl Outcome {
    /// The value of a position where the game is over with this outcome.
    pub fn value(self) -> Value {
        match self {
            Outcome::Win => Value::Win(0),
            Outcome::Loss => Value::Loss(0),
            Outcome::Tie => Value::Tie(0),
        }
    }
}

impl Value {
    /// The value of this position for the side that moved into it, one ply earlier:
    /// the opponent's win is our loss one ply later, and so on. `Draw` stays `Draw`.
    #[inline]
    pub fn parent_view(self) -> Value {
        match self {
            Value::Win(r) => Value::Loss(r + 1),
            Value::Loss(r) => Value::Win(r + 1),
            Value::Tie(r) => Value::Tie(r + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// Remoteness in plies, or `None` for a draw.
    pub fn remoteness(self) -> Option<u32> {
        match self {
            Value::Win(r) | Value::Loss(r) | Value::Tie(r) => Some(r),
            Value::Draw => None,
        }
    }

    /// `"win"`, `"loss"`, `"tie"` or `"draw"`.
    pub fn kind_name(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Tie(_) => "tie",
            Value::Draw => "draw",
        }
    }

    /// A single number that orders values like `Ord` (greater is better).
    fn rank(self) -> i64 {
        const BAND: i64 = 1 << 33;
        match self {
            Value::Win(r) => 3 * BAND - r as i64,
            Value::Tie(r) => 2 * BAND - r as i64,
            Value::Draw => BAND,
            Value::Loss(r) => r as i64,
        }
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(r) => write!(f, "win in {r}"),
            Value::Loss(r) => write!(f, "loss in {r}"),
            Value::Tie(r) => write!(f, "tie in {r}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

/// A [`Value`] (or "no position here") packed in 32 bits, as solved tables store it.
///
/// ```text
///  31                               2 1 0
/// +----------------------------------+---+
/// |          remoteness (30 bits)    |tag|
/// +----------------------------------+---+
/// tag 0: special (remoteness 0 = Draw, 1 = no position at this index,
///        2 = not solved yet: only inside solvers)
/// tag 1: Loss    tag 2: Tie    tag 3: Win
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PackedValue(pub u32);

impl PackedValue {
    /// The largest remoteness a packed value can hold.
    pub const MAX_REMOTENESS: u32 = (1 << 30) - 1;
    /// Marks an index that names no position (a hole in the index).
    pub const NONE: PackedValue = PackedValue(1 << 2);
    /// `Value::Draw`.
    pub const DRAW: PackedValue = PackedValue(0);

    /// Packs a value. Remoteness beyond [`Self::MAX_REMOTENESS`] is a solver bug.
    #[inline]
    pub fn pack(value: Value) -> PackedValue {
        let (tag, r) = match value {
            Value::Draw => return PackedValue::DRAW,
            Value::Loss(r) => (1, r),
            Value::Tie(r) => (2, r),
            Value::Win(r) => (3, r),
        };
        debug_assert!(r <= Self::MAX_REMOTENESS);
        PackedValue((r << 2) | tag)
    }

    /// Unpacks; `None` for [`Self::NONE`] (and any other special code).
    #[inline]
    pub fn unpack(self) -> Option<Value> {
        let r = self.0 >> 2;
        match self.0 & 3 {
            0 if r == 0 => Some(Value::Draw),
            0 => None,
            1 => Some(Value::Loss(r)),
            2 => Some(Value::Tie(r)),
            _ => Some(Value::Win(r)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_value() -> impl Strategy<Value = Value> {
        prop_oneof![
            (0..1000u32).prop_map(Value::Win),
            (0..1000u32).prop_map(Value::Loss),
            (0..1000u32).prop_map(Value::Tie),
            Just(Value::Draw),
        ]
    }

    #[test]
    fn order_matches_the_table() {
        let ranked = [
            Value::Win(0),
            Value::Win(1),
            Value::Win(7),
            Value::Tie(0),
            Value::Tie(5),
            Value::Draw,
            Value::Loss(9),
            Value::Loss(1),
            Value::Loss(0),
        ];
        for pair in ranked.windows(2) {
            assert!(pair[0] > pair[1], "{:?} should beat {:?}", pair[0], pair[1]);
        }
    }

    proptest! {
        #[test]
        fn packing_round_trips(v in any_value()) {
            prop_assert_eq!(PackedValue::pack(v).unpack(), Some(v));
        }

        #[test]
        fn parent_view_swaps_sides_and_adds_a_ply(v in any_value()) {
            let p = v.parent_view();
            match (v, p) {
                (Value::Win(a), Value::Loss(b)) | (Value::Loss(a), Value::Win(b)) | (Value::Tie(a), Value::Tie(b)) => prop_assert_eq!(b, a + 1),
                (Value::Draw, Value::Draw) => {}
                _ => prop_assert!(false, "{:?} -> {:?}", v, p),
            }
        }
    }

    #[test]
    fn none_is_not_a_value() {
        assert_eq!(PackedValue::NONE.unpack(), None);
    }
}
