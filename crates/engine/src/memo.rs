//! Exact forward search with a memo table, for acyclic games too large to index.
//!
//! Plain negamax over every position reachable from the start: each position's value
//! is the best of its children's (seen from its side), computed once and kept. No
//! pruning, so every reachable position is visited and the table holds the exact
//! value of each; the line of optimal play can be read from it.
//!
//! A game with a cycle reachable from the start is reported as [`CycleError`].

use crate::game::{Game, ValueLookup};
use crate::value::Value;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The positions reachable from a start, with their exact values.
pub struct MemoSolution<G: Game> {
    table: HashMap<G::Position, Option<Value>, BuildHasherDefault<FxHasher>>,
}

/// The search met a position while still searching it: the game has a cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CycleError {
    /// The repeated position, formatted with `Debug`.
    pub position: String,
}

impl std::fmt::Display for CycleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "position {} repeats: forward search needs an acyclic game", self.position)
    }
}

impl std::error::Error for CycleError {}

impl<G: Game> Default for MemoSolution<G> {
    fn default() -> Self {
        MemoSolution { table: HashMap::default() }
    }
}

impl<G: Game> MemoSolution<G> {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// The value of `position`, searching what the table does not hold yet. One table
    /// serves many start positions of the same game.
    pub fn search(&mut self, game: &G, position: &G::Position) -> Result<Value, CycleError> {
        search(game, position, &mut self.table)
    }

    /// Number of positions searched.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// True when nothing was searched.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The value of a searched position.
    pub fn value(&self, position: &G::Position) -> Option<Value> {
        self.table.get(position).copied().flatten()
    }
}

impl<G: Game> ValueLookup<G> for MemoSolution<G> {
    fn lookup(&self, _game: &G, position: &G::Position) -> Option<Value> {
        self.value(position)
    }
}

/// Searches every position reachable from `start`.
pub fn solve<G: Game>(game: &G, start: &G::Position) -> Result<MemoSolution<G>, CycleError> {
    let mut solution = MemoSolution::new();
    solution.search(game, start)?;
    Ok(solution)
}

/// `None` in the table marks a position being searched (an ancestor on the stack).
fn search<G: Game>(
    game: &G,
    position: &G::Position,
    table: &mut HashMap<G::Position, Option<Value>, BuildHasherDefault<FxHasher>>,
) -> Result<Value, CycleError> {
    match table.get(position) {
        Some(Some(v)) => return Ok(*v),
        Some(None) => return Err(CycleError { position: format!("{position:?}") }),
        None => {}
    }
    let value = if let Some(outcome) = game.terminal(position) {
        outcome.value()
    } else {
        table.insert(position.clone(), None);
        let mut children = Vec::new();
        game.for_each_child(position, |c| children.push(c));
        let mut best: Option<Value> = None;
        for child in &children {
            match search(game, child, table) {
                Ok(v) => best = best.max(Some(v.parent_view())),
                Err(e) => {
                    // Unmark on the way out: a later search must not take this
                    // position for one on its own stack.
                    table.remove(position);
                    return Err(e);
                }
            }
        }
        best.unwrap_or(Value::Loss(0))
    };
    table.insert(position.clone(), Some(value));
    Ok(value)
}

/// A fast non-cryptographic hasher (the rustc "Fx" multiply-rotate scheme): game
/// positions are small integers, and the standard SipHash costs more than the search.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.hash = (self.hash.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64)
    }
    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64)
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64)
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}
