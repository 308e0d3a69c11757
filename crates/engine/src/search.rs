//! Negamax with alpha-beta pruning and a transposition table, exact in value and
//! remoteness, for acyclic games without ties (every line ends in a win or a loss).
//!
//! # Scores
//! A value is a score in which a sooner win is higher and a later loss is higher:
//!
//! | value     | score          |
//! |-----------|----------------|
//! | `Win(r)`  | `MATE - r`     |
//! | `Loss(r)` | `-(MATE - r)`  |
//!
//! One ply up, a child's score `s` becomes `-s + sign(s)` for the parent (the
//! opponent's win in r is our loss in r + 1). That map is strictly decreasing, so
//! alpha-beta applies; a parent window (α, β) asks the child for (-β - 1, -α + 1),
//! which is wide enough that a child failing low or high proves the parent's bound.
//!
//! # The search
//! 1. a null-window search around 0 finds who wins (cheap: pruning is strongest
//!    there, and it fills the table with good moves);
//! 2. a full-window search finds the exact remoteness, ordering moves by the table.
//!
//! Table entries hold a score with its bound (exact, lower, upper) and the best move;
//! a game may end the search early at a position with [`SearchHooks::exact_value`].

use crate::game::{Game, ValueLookup};
use crate::memo::FxHasher;
use crate::value::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Scores of wins: `MATE - remoteness`.
pub const MATE: i32 = 1 << 24;
const INFINITY: i32 = MATE + 2;

/// Optional knowledge a game gives the search.
pub trait SearchHooks: Game {
    /// The exact value of a non-terminal position, if the game can tell it without
    /// searching (e.g. the two snakes can no longer meet). Default: none.
    fn exact_value(&self, _position: &Self::Position) -> Option<Value> {
        None
    }
}

/// Why a search could not give an exact answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchError {
    /// A terminal position ended level: scores here have no room for ties.
    Tie,
    /// A remoteness reached [`MATE`]: the game is too long for the score range.
    TooDeep,
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Tie => f.write_str("the game can end in a tie, which alpha-beta search here does not support"),
            SearchError::TooDeep => write!(f, "a line is longer than {MATE} plies"),
        }
    }
}

impl std::error::Error for SearchError {}

/// The score of a win/loss value.
pub fn score(value: Value) -> Result<i32, SearchError> {
    match value {
        Value::Win(r) if r < MATE as u32 => Ok(MATE - r as i32),
        Value::Loss(r) if r < MATE as u32 => Ok(-(MATE - r as i32)),
        Value::Win(_) | Value::Loss(_) => Err(SearchError::TooDeep),
        Value::Tie(_) | Value::Draw => Err(SearchError::Tie),
    }
}

/// The value of a score.
pub fn value_of_score(score: i32) -> Value {
    if score > 0 {
        Value::Win((MATE - score) as u32)
    } else {
        Value::Loss((MATE + score) as u32)
    }
}

/// A child's score seen from the parent: one ply further, other side.
#[inline]
fn parent_score(child: i32) -> i32 {
    -child + child.signum()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    Exact,
    /// The score is at least this.
    Lower,
    /// The score is at most this.
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    score: i32,
    bound: Bound,
    /// Index of the best child in the game's move order (`u16::MAX`: none).
    best: u16,
}

type Table<P> = HashMap<P, Entry, BuildHasherDefault<FxHasher>>;

struct Inner<'g, G: Game> {
    game: &'g G,
    table: Table<G::Position>,
    nodes: u64,
    error: Option<SearchError>,
}

/// A searcher over one game, keeping its transposition table between searches.
///
/// Implements [`ValueLookup`]: the exact value of any position, searched on demand
/// (cheap for positions near those already searched), so the engine's line and move
/// analysis work on it.
pub struct Searcher<'g, G: Game> {
    inner: RefCell<Inner<'g, G>>,
}

impl<'g, G: SearchHooks> Searcher<'g, G> {
    /// A searcher with an empty table.
    pub fn new(game: &'g G) -> Self {
        Searcher { inner: RefCell::new(Inner { game, table: HashMap::default(), nodes: 0, error: None }) }
    }

    /// The exact value of `position`.
    pub fn value(&self, position: &G::Position) -> Result<Value, SearchError> {
        self.inner.borrow_mut().exact(position)
    }

    /// Positions visited so far (table probes included), over all searches.
    pub fn nodes(&self) -> u64 {
        self.inner.borrow().nodes
    }

    /// Entries in the transposition table.
    pub fn table_len(&self) -> usize {
        self.inner.borrow().table.len()
    }
}

impl<G: SearchHooks> ValueLookup<G> for Searcher<'_, G> {
    fn lookup(&self, _game: &G, position: &G::Position) -> Option<Value> {
        self.value(position).ok()
    }
}

/// The exact value of `start`, with a fresh table. Returns the searcher too, for
/// lines of play and statistics.
pub fn solve<'g, G: SearchHooks>(game: &'g G, start: &G::Position) -> Result<(Value, Searcher<'g, G>), SearchError> {
    let searcher = Searcher::new(game);
    let value = searcher.value(start)?;
    Ok((value, searcher))
}

impl<G: SearchHooks> Inner<'_, G> {
    /// Step 1, who wins (null window); step 2, how fast (full window).
    fn exact(&mut self, position: &G::Position) -> Result<Value, SearchError> {
        self.negamax(position, -1, 1);
        let s = self.negamax(position, -INFINITY, INFINITY);
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(value_of_score(s)),
        }
    }

    /// Fail-soft alpha-beta: the result is exact if strictly inside (alpha, beta),
    /// an upper bound if ≤ alpha, a lower bound if ≥ beta.
    fn negamax(&mut self, position: &G::Position, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.error.is_some() {
            return 0;
        }
        let known = match self.game.terminal(position) {
            Some(outcome) => Some(outcome.value()),
            None => self.game.exact_value(position),
        };
        if let Some(v) = known {
            return score(v).unwrap_or_else(|e| {
                self.error = Some(e);
                0
            });
        }
        let mut tt_best = u16::MAX;
        if let Some(e) = self.table.get(position) {
            match e.bound {
                Bound::Exact => return e.score,
                Bound::Lower if e.score >= beta => return e.score,
                Bound::Upper if e.score <= alpha => return e.score,
                _ => {}
            }
            tt_best = e.best;
        }
        let mut children = Vec::new();
        self.game.for_each_child(position, |c| children.push(c));
        if children.is_empty() {
            return -MATE; // no move: lost now (the engine's rule)
        }
        // The table's best move first, then the game's order.
        let order = (tt_best as usize)
            .lt(&children.len())
            .then_some(tt_best as usize)
            .into_iter()
            .chain((0..children.len()).filter(|&i| i != tt_best as usize));
        let alpha0 = alpha;
        let (mut best, mut best_index) = (-INFINITY, u16::MAX);
        for i in order {
            let s = parent_score(self.negamax(&children[i], -beta - 1, -alpha + 1));
            if s > best {
                best = s;
                best_index = i as u16;
            }
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(position.clone(), Entry { score: best, bound, best: best_index });
        best
    }
}
