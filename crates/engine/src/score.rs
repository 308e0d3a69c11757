//! Games that end in a score: the exact final margin as a value.
//!
//! A game with a score ([`Scored`]) ends with a number for each side (discs on
//! the board, seeds in a store); its value is not only who wins but **by how
//! much**: the final margin under perfect play, where each side plays for the
//! largest margin of its own. Remoteness breaks ties among moves of the best
//! margin, as [`Value`] does: the winner ends as fast as possible, the loser
//! holds out as long as possible, a level game ends as fast as possible.
//!
//! Games without a score never meet this module: their values, files and
//! solvers are those of [`Value`].

use crate::game::Game;
use crate::memo::{CycleError, FxHasher};
use crate::value::Value;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::hash::BuildHasherDefault;

/// The exact value of a position of a game with a score, for the side to move.
///
/// | `margin` | meaning for the side to move                                      |
/// |----------|-------------------------------------------------------------------|
/// | `m > 0`  | wins by `m`: its score ends `m` above the opponent's               |
/// | `0`      | the game ends level                                               |
/// | `m < 0`  | loses by `-m`                                                      |
///
/// `remoteness` is the number of plies (a pass is a ply) until the game ends
/// when both sides play for the best margin and, among lines of that margin, the
/// winner ends the game as fast as possible and the loser as late as possible
/// (a level game: as fast as possible).
///
/// # Order
/// Greater is better for the side to move: a larger margin first; between equal
/// margins, the order of [`Value`] (`Win(r)` faster is better, `Loss(r)` slower
/// is better, `Tie(r)` faster is better).
///
/// There is no draw: a game with a score is acyclic (every line ends), and the
/// solvers report a cycle as an error.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ScoreValue {
    /// The final margin for the side to move.
    pub margin: i32,
    /// Plies until the game ends.
    pub remoteness: u32,
}

impl ScoreValue {
    /// A finished game's value: its margin, remoteness 0.
    pub fn over(margin: i32) -> ScoreValue {
        ScoreValue { margin, remoteness: 0 }
    }

    /// The value of this position for the side that moved into it, one ply
    /// earlier: the margin changes sign, the game is one ply further away.
    #[inline]
    pub fn parent_view(self) -> ScoreValue {
        ScoreValue { margin: -self.margin, remoteness: self.remoteness + 1 }
    }

    /// Who wins, as a [`Value`]: the margin's sign, with the same remoteness.
    pub fn value(self) -> Value {
        match self.margin.cmp(&0) {
            Ordering::Greater => Value::Win(self.remoteness),
            Ordering::Less => Value::Loss(self.remoteness),
            Ordering::Equal => Value::Tie(self.remoteness),
        }
    }

    /// The value as one number, ordered like `Ord` (greater is better), for
    /// searches with windows: `margin · BAND ± (BAND/2 − remoteness)`, the sign
    /// the margin's, a level game 0. One ply up a key `k` becomes `-k +
    /// sign(k)`: decreasing, as alpha-beta needs, except that a level game's
    /// remoteness is not in it (both sides prefer a faster tie): a search finds
    /// that apart.
    pub fn key(self) -> i64 {
        let r = self.remoteness.min(Self::MAX_REMOTENESS) as i64;
        let m = self.margin as i64;
        match m.cmp(&0) {
            Ordering::Greater => m * Self::BAND + (Self::BAND / 2 - r),
            Ordering::Less => m * Self::BAND - (Self::BAND / 2 - r),
            Ordering::Equal => 0,
        }
    }

    /// The value of a [`Self::key`] that is not 0 (a level game's key forgets
    /// its remoteness).
    pub fn from_key(key: i64) -> ScoreValue {
        // |key| = |m| · BAND + (BAND/2 − r), with 0 ≤ r < BAND/2.
        let magnitude = key.abs();
        let m = (magnitude - 1) / Self::BAND;
        let r = (Self::BAND / 2 - (magnitude - m * Self::BAND)) as u32;
        ScoreValue { margin: (m * key.signum()) as i32, remoteness: r }
    }

    /// Keys of margins one apart lie this far apart.
    const BAND: i64 = 1 << 32;
    /// The largest remoteness a key tells apart.
    const MAX_REMOTENESS: u32 = (1 << 30) - 1;
}

impl Ord for ScoreValue {
    fn cmp(&self, other: &Self) -> Ordering {
        self.margin.cmp(&other.margin).then_with(|| self.value().cmp(&other.value()))
    }
}

impl PartialOrd for ScoreValue {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for ScoreValue {
    /// `win by 4 in 32`, `tie in 9`, `loss by 2 in 10`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.remoteness;
        match self.margin.cmp(&0) {
            Ordering::Greater => write!(f, "win by {} in {r}", self.margin),
            Ordering::Less => write!(f, "loss by {} in {r}", -self.margin),
            Ordering::Equal => write!(f, "tie in {r}"),
        }
    }
}

/// A game that ends in a score: the capability that makes its values margins.
///
/// The game's [`Game::terminal`] still says who won (the margin's sign); this
/// says by how much.
pub trait Scored: Game {
    /// The final margin of a finished position (one whose [`Game::terminal`] is
    /// `Some`) for its side to move. Its sign agrees with the outcome: positive
    /// for a win, 0 for a tie, negative for a loss.
    fn final_margin(&self, position: &Self::Position) -> i32;
}

/// Every position reachable from a start, with its exact [`ScoreValue`].
///
/// Plain negamax with a memo: no pruning, so each position's value is exact
/// (margin and remoteness) and the table holds every reachable position. For
/// small games, and as the oracle that faster searches are tested against.
pub struct ScoreMemo<G: Game> {
    table: HashMap<G::Position, Option<ScoreValue>, BuildHasherDefault<FxHasher>>,
    /// The most positions the table may hold.
    limit: usize,
}

/// Why a memo gives no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoError {
    /// A position repeats: the game is not acyclic.
    Cycle(CycleError),
    /// A position that is not over has no move (a game with a score passes
    /// instead): the game is badly defined.
    NoMove {
        /// The position, formatted with `Debug`.
        position: String,
    },
    /// The table would hold more than its limit of positions.
    OutOfRoom {
        /// The limit.
        limit: usize,
    },
}

impl fmt::Display for MemoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoError::Cycle(e) => e.fmt(f),
            MemoError::NoMove { position } => write!(f, "position {position} has no move and is not over"),
            MemoError::OutOfRoom { limit } => write!(f, "more than {limit} positions to keep"),
        }
    }
}

impl std::error::Error for MemoError {}

impl<G: Scored> Default for ScoreMemo<G> {
    fn default() -> Self {
        ScoreMemo { table: HashMap::default(), limit: usize::MAX }
    }
}

impl<G: Scored> ScoreMemo<G> {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty table that refuses to hold more than `limit` positions.
    pub fn with_limit(limit: usize) -> Self {
        ScoreMemo { table: HashMap::default(), limit }
    }

    /// The value of `position`, searching what the table does not hold yet. A
    /// search that runs out of room leaves what it finished in the table.
    pub fn search(&mut self, game: &G, position: &G::Position) -> Result<ScoreValue, MemoError> {
        search(game, position, &mut self.table, self.limit)
    }

    /// The value of a searched position.
    pub fn value(&self, position: &G::Position) -> Option<ScoreValue> {
        self.table.get(position).copied().flatten()
    }

    /// The number of positions searched.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// True when nothing was searched.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Every searched position and its value.
    pub fn iter(&self) -> impl Iterator<Item = (&G::Position, ScoreValue)> {
        self.table.iter().filter_map(|(p, v)| v.map(|v| (p, v)))
    }
}

/// Searches every position reachable from `start`.
pub fn solve<G: Scored>(game: &G, start: &G::Position) -> Result<ScoreMemo<G>, MemoError> {
    let mut memo = ScoreMemo::new();
    memo.search(game, start)?;
    Ok(memo)
}

/// `None` in the table marks a position on the search's stack (a cycle if met).
fn search<G: Scored>(
    game: &G,
    position: &G::Position,
    table: &mut HashMap<G::Position, Option<ScoreValue>, BuildHasherDefault<FxHasher>>,
    limit: usize,
) -> Result<ScoreValue, MemoError> {
    match table.get(position) {
        Some(Some(v)) => return Ok(*v),
        Some(None) => return Err(MemoError::Cycle(CycleError { position: format!("{position:?}") })),
        None => {}
    }
    if table.len() >= limit {
        return Err(MemoError::OutOfRoom { limit });
    }
    let value = if game.terminal(position).is_some() {
        ScoreValue::over(game.final_margin(position))
    } else {
        table.insert(position.clone(), None);
        let mut children = Vec::new();
        game.for_each_child(position, |c| children.push(c));
        let mut best: Option<ScoreValue> = None;
        for child in &children {
            match search(game, child, table, limit) {
                Ok(v) => best = best.max(Some(v.parent_view())),
                Err(e) => {
                    table.remove(position);
                    return Err(e);
                }
            }
        }
        // A game with a score passes rather than sticks; a position with no
        // move that is not over has no score to give.
        match best {
            Some(best) => best,
            None => {
                table.remove(position);
                return Err(MemoError::NoMove { position: format!("{position:?}") });
            }
        }
    };
    table.insert(position.clone(), Some(value));
    Ok(value)
}

/// Each move's value, best first (ties in the game's order), and the line of
/// best play from `position`, read from a memo that holds it.
pub fn moves_by_value<G: Scored>(
    game: &G,
    memo: &mut ScoreMemo<G>,
    position: &G::Position,
) -> Result<Vec<(G::Move, ScoreValue)>, MemoError> {
    let mut moves = Vec::new();
    game.moves(position, &mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        let child = game.play(position, &mv);
        out.push((mv, memo.search(game, &child)?.parent_view()));
    }
    out.sort_by_key(|m| std::cmp::Reverse(m.1));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Outcome;

    #[test]
    fn order_is_margin_then_remoteness_as_values() {
        let v = |margin, remoteness| ScoreValue { margin, remoteness };
        let mut sorted = vec![v(3, 1), v(3, 9), v(1, 0), v(0, 2), v(0, 5), v(-1, 7), v(-1, 2), v(-4, 0)];
        let expected = sorted.clone();
        sorted.reverse();
        sorted.sort_by(|a, b| b.cmp(a));
        assert_eq!(sorted, expected);
    }

    #[test]
    fn keys_order_like_values_and_map_one_ply_up() {
        let mut values = Vec::new();
        for margin in -5..=5 {
            for remoteness in [0, 1, 2, 7, 40, 1000] {
                values.push(ScoreValue { margin, remoteness });
            }
        }
        for &a in &values {
            if a.margin != 0 {
                assert_eq!(ScoreValue::from_key(a.key()), a);
                let k = a.key();
                assert_eq!(a.parent_view().key(), -k + k.signum());
            }
            for &b in &values {
                if a.margin != 0 || b.margin != 0 {
                    assert_eq!(a.cmp(&b), a.key().cmp(&b.key()), "{a:?} {b:?}");
                }
            }
        }
    }

    /// Take 1 or 2 from a pile; who takes the last keeps the pile's original
    /// parity as points: a tiny game whose margins and remoteness are known.
    struct Piles;
    impl Game for Piles {
        type Position = (u32, i32); // (pile, running margin for the side to move)
        type Move = u32;
        fn terminal(&self, p: &(u32, i32)) -> Option<Outcome> {
            (p.0 == 0).then(|| match p.1.cmp(&0) {
                Ordering::Greater => Outcome::Win,
                Ordering::Less => Outcome::Loss,
                Ordering::Equal => Outcome::Tie,
            })
        }
        fn moves(&self, p: &(u32, i32), out: &mut Vec<u32>) {
            out.extend((1..=2).filter(|&t| t <= p.0));
        }
        fn play(&self, p: &(u32, i32), take: &u32) -> (u32, i32) {
            // The mover scores what it takes; the margin turns to the opponent's view.
            (p.0 - take, -(p.1 + *take as i32))
        }
    }
    impl Scored for Piles {
        fn final_margin(&self, p: &(u32, i32)) -> i32 {
            p.1
        }
    }

    /// The brute force: every line to its end, no table.
    fn brute(p: (u32, i32)) -> ScoreValue {
        if p.0 == 0 {
            return ScoreValue::over(p.1);
        }
        (1..=2.min(p.0)).map(|t| brute(Piles.play(&p, &t)).parent_view()).max().unwrap()
    }

    #[test]
    fn memo_agrees_with_the_brute_force() {
        for pile in 0..14 {
            for margin in -3..=3 {
                let memo = solve(&Piles, &(pile, margin)).unwrap();
                assert_eq!(memo.value(&(pile, margin)), Some(brute((pile, margin))), "pile {pile} margin {margin}");
            }
        }
        // Taking 2 each time: a pile of 4 splits 2–2 or better for the first.
        let v = solve(&Piles, &(4, 0)).unwrap().value(&(4, 0)).unwrap();
        assert_eq!(v, brute((4, 0)));
        assert_eq!(
            v.value().kind_name(),
            if v.margin > 0 {
                "win"
            } else if v.margin < 0 {
                "loss"
            } else {
                "tie"
            }
        );
    }
}
