//! Line games on bit sets: rules whose every move drops a piece and whose games end
//! on lines, solved by a search of their own (module `solver`) as fast as the
//! dedicated solvers of Connect 4, for every rules file of that shape.
//!
//! # The shape
//! Found from the rules and the board, never from a game's name:
//! - two sides with one piece kind each, dropped from a supply that never runs
//!   out (no hands), with or without gravity, onto any cell; no piece ever moves,
//!   so none is captured, promoted or leaves a trail;
//! - a rectangle of `rows × cols` cells, every one playable, no map, and
//!   `cols · (rows + 1) ≤ 64` (see `layout`; without gravity also at most 32
//!   cells, for the table's keys);
//! - the game ends when a side completes a line of its own pieces (every `line`
//!   ending: both sides, result `win`, at most [`layout::MAX_LENGTH`] long), or when
//!   the board is full (the `full` ending's result, else being stuck's); no other
//!   ending.
//!
//! Tic-tac-toe and the other m,n,k games, Connect 4 of any size that fits, and
//! their variants (lines of 3 or 5, orthogonal only) are of this shape. Every
//! other rules file is searched by the engine's alpha-beta as before.

pub(crate) mod book;
mod layout;

pub(crate) mod solver;
mod table;

use crate::compiled::board::Board;
use crate::compiled::position::RulesPosition;
use crate::language::spec::{Ending, Rules};
use book::{BookError, OpeningBook};
use gsolve_engine::{Observer, Outcome, Value};
use layout::Layout;
use solver::{Bits, Solver, Tables};
use std::sync::{Arc, OnceLock};

/// A line game: the layout of its board, and its search (made on first use: its
/// table is large).
#[derive(Clone)]
pub(crate) struct LineGame {
    layout: Layout,
    full: Outcome,
    mirror: bool,
    /// The playable cell's bit in the layout, by cell.
    bits: Vec<u32>,
    solver: Arc<OnceLock<Solver>>,
    /// Positions solved before, looked up before any search.
    book: Option<Arc<OpeningBook>>,
}

impl std::fmt::Debug for LineGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineGame").field("layout", &self.layout).field("full", &self.full).finish_non_exhaustive()
    }
}

impl LineGame {
    /// The line game of `rules` on `board`, if they have the shape; `mirror`: the
    /// game looks the same in a mirror (found from the rules by `crate::mirror`).
    pub(crate) fn of(rules: &Rules, board: &Board, mirror: bool) -> Option<LineGame> {
        // Two sides, one dropped kind each, nothing else.
        if board.groups.len() != 2 || board.groups[0].side != 0 || board.groups[1].side != 1 {
            return None;
        }
        let gravity = rules.kinds.first()?.drop.as_ref()?.gravity;
        let dropped_only = rules.kinds.iter().all(|k| {
            k.moves.is_empty()
                && !k.stay
                && !k.trail
                && k.promote.is_none()
                && k.drop.as_ref().is_some_and(|d| !d.from_hand && d.zone.is_none() && d.gravity == gravity)
        });
        if !dropped_only || board.map.is_some() || board.cells() != (board.rows * board.cols) as usize {
            return None;
        }
        let kinds = [board.groups[0].kind, board.groups[1].kind];
        let mut lines = Vec::new();
        let mut full = None;
        for ending in &rules.endings {
            match ending {
                Ending::Line { length, orthogonal, diagonal, kinds: counted, sides, result } => {
                    let counts_both = counted.as_ref().is_none_or(|k| kinds.iter().all(|kind| k.contains(kind)));
                    if *result != Outcome::Win || *sides != [true, true] || !counts_both {
                        return None;
                    }
                    lines.push((*length, *orthogonal, *diagonal));
                }
                Ending::Full { result } => {
                    full.get_or_insert(*result);
                }
                Ending::Stuck { .. } => {}
                _ => return None,
            }
        }
        if lines.is_empty() {
            return None;
        }
        let layout = Layout::new(board.rows, board.cols, gravity, &lines)?;
        if !gravity && board.cells() > 32 {
            return None;
        }
        let bits = board.coords.iter().map(|&(r, c)| layout.bit(r, c)).collect();
        Some(LineGame {
            layout,
            full: full.unwrap_or_else(|| rules.stuck_result()),
            mirror,
            bits,
            solver: Arc::new(OnceLock::new()),
            book: None,
        })
    }

    /// A position as bit sets, if the fast path takes it: no walls, not marked as
    /// ended, no line on the board, and with gravity every piece resting on the
    /// one below.
    fn bits_of<const N: usize>(&self, p: &RulesPosition<N>) -> Option<Bits> {
        if p.walls() != 0 || p.ended() != 0 {
            return None;
        }
        let mut sides = [0u64; 2];
        for piece in p.pieces() {
            // The shape has one group a side, side 0's first: a group is its side.
            sides[piece.group] |= 1 << self.bits[piece.cell as usize];
        }
        let all = sides[0] | sides[1];
        if self.layout.gravity && !self.layout.settled(all) {
            return None;
        }
        if sides.iter().any(|&s| self.layout.has_line(s)) {
            return None;
        }
        Some(Bits { mine: sides[p.to_move()], all })
    }

    /// The exact value of `p`, if the fast path takes it (else `None`: the engine's
    /// search answers); `Some(None)` when the search visited more than `budget`
    /// positions before it knew.
    pub(crate) fn value<const N: usize>(
        &self,
        p: &RulesPosition<N>,
        budget: Option<u64>,
        observer: Option<Observer<'_>>,
    ) -> Option<Option<Value>> {
        let bits = self.bits_of(p)?;
        if let Some(value) = self.booked(bits) {
            return Some(Some(value));
        }
        Some(self.solver().value(bits, rayon::current_num_threads(), budget, observer))
    }

    /// The book's value of `bits`, if it holds it; the search remembers it.
    fn booked(&self, bits: Bits) -> Option<Value> {
        let solver = self.solver();
        let value = self.book.as_ref()?.get(solver.folded_key(bits))?;
        solver.remember_value(bits, value);
        Some(value)
    }

    /// [`LineGame::value`] on one thread, using the small table of `slot` (below
    /// `solver::MAX_THREADS`): several values found at once, each on its own thread.
    pub(crate) fn value_on_slot<const N: usize>(&self, p: &RulesPosition<N>, slot: usize) -> Option<Value> {
        let bits = self.bits_of(p)?;
        if let Some(value) = self.booked(bits) {
            return Some(value);
        }
        Some(self.solver().value_from_slot(bits, 1, slot, None, None).expect("a search without a budget ends"))
    }

    /// The search, made on first use.
    fn solver(&self) -> &Solver {
        self.solver.get_or_init(|| {
            Solver::new(self.layout.clone(), self.full, self.mirror, tables(self.layout.board.count_ones()))
        })
    }

    /// The key of `p` in an opening book (module `book`), if the fast path takes it.
    pub(crate) fn book_key<const N: usize>(&self, p: &RulesPosition<N>) -> Option<u64> {
        Some(self.solver().folded_key(self.bits_of(p)?))
    }

    /// The entries of an opening book of `plies` plies from `start`.
    pub(crate) fn book_entries<const N: usize>(
        &self,
        start: &RulesPosition<N>,
        plies: u32,
        observer: Option<Observer<'_>>,
    ) -> Result<Vec<(u64, Value)>, BookError> {
        if plies > book::MAX_BOOK_PLIES {
            return Err(BookError::TooManyPlies(plies));
        }
        let start = self.bits_of(start).filter(|b| b.all != self.layout.board).ok_or(BookError::BadStart)?;
        Ok(book::build(self.solver(), start, plies, observer))
    }

    /// The same game looking positions up in `book` before searching.
    pub(crate) fn with_book(&self, book: Option<Arc<OpeningBook>>) -> LineGame {
        LineGame { book, ..self.clone() }
    }
}

impl LineGame {
    /// Positions the search has visited and its table's bytes;
    /// `None` before its first search.
    pub(crate) fn stats(&self) -> Option<(u64, usize)> {
        self.solver.get().map(Solver::stats)
    }
}

/// The tables of a board of `cells` cells (8 bytes an entry). A table is read at
/// almost every position, and one that stays in the caches (2^18 entries) costs
/// far less a position than one that does not, more than what a large table saves
/// in positions; the large table pays only near the root, from about half the
/// board empty (docs/rules-solving.md, "Line games").
fn tables(cells: u32) -> Tables {
    Tables { deep: 1 << 18, near: if cells >= 30 { 1 << 24 } else { 1 << 20 }, near_from: (cells / 2 + 2).max(8) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gsolve_games::rng::SplitMix64;

    /// Connect 4 on a board of `rows` × `cols`.
    fn connect4(rows: u32, cols: u32, entries: usize) -> (Layout, Solver) {
        let layout = Layout::new(rows, cols, true, &[(4, true, true)]).unwrap();
        let solver =
            Solver::new(layout.clone(), Outcome::Tie, true, Tables { deep: entries, near: entries, near_from: 16 });
        (layout, solver)
    }

    /// A random game of `plies` drops from the empty board, stopped before a line.
    fn random_position(layout: &Layout, plies: u32, rng: &mut SplitMix64) -> Bits {
        let mut sides = [0u64; 2];
        for ply in 0..plies {
            let all = sides[0] | sides[1];
            let playable = layout.playable(all);
            let choices: Vec<u64> = (0..64).map(|b| 1u64 << b).filter(|&c| playable & c != 0).collect();
            let cell = choices[rng.below(choices.len() as u64) as usize];
            let side = (ply % 2) as usize;
            if layout.has_line(sides[side] | cell) {
                break;
            }
            sides[side] |= cell;
        }
        let all = sides[0] | sides[1];
        let to_move = (all.count_ones() % 2) as usize;
        Bits { mine: sides[to_move], all }
    }

    /// The children of `p` that the game goes on from.
    fn children(layout: &Layout, p: Bits) -> Vec<Bits> {
        let mut out = Vec::new();
        solver::for_each_going_on(layout, p, |_, child| out.push(child));
        out
    }

    /// What exact values teach about other positions (a parent's score bounds its
    /// children's, its proving move gives one child's score) never changes a
    /// value: a position valued and then each of its children and grandchildren,
    /// as analysis and play ask, on one solver, get the values of a solver that
    /// knows nothing (a fresh one for each position).
    #[test]
    fn values_bounded_by_their_parents_are_exact() {
        let mut rng = SplitMix64::new(7);
        for (rows, cols) in [(4, 4), (4, 5), (5, 4)] {
            let (layout, remembering) = connect4(rows, cols, 1 << 16);
            for _ in 0..6 {
                let plies = rng.below(6) as u32;
                let p = random_position(&layout, plies, &mut rng);
                if layout.has_line(p.all ^ p.mine) || p.all == layout.board {
                    continue;
                }
                let mut asked = vec![p];
                for child in children(&layout, p) {
                    asked.push(child);
                    asked.extend(children(&layout, child));
                }
                for q in asked {
                    let fresh = connect4(rows, cols, 1 << 16).1.value(q, 1, None, None);
                    assert_eq!(remembering.value(q, 1, None, None), fresh, "{rows}x{cols} {q:?}");
                }
            }
        }
    }

    /// Threads sharing a table find the values one thread finds, on positions
    /// with enough empty cells to be searched in parallel; and a fresh table
    /// finds them too (what earlier searches stored never misleads a later one).
    #[test]
    fn threads_sharing_the_table_find_the_same_values() {
        let mut rng = SplitMix64::new(42);
        for (rows, cols) in [(5, 5), (4, 6), (6, 4)] {
            let (layout, shared) = connect4(rows, cols, 1 << 18);
            for _ in 0..12 {
                let plies = rng.below(5) as u32;
                let p = random_position(&layout, plies, &mut rng);
                let tables = Tables { deep: 1 << 17, near: 1 << 18, near_from: 20 };
                let alone = Solver::new(layout.clone(), Outcome::Tie, true, tables).value(p, 1, None, None);
                assert!(alone.is_some());
                assert_eq!(shared.value(p, 2, None, None), alone, "{rows}x{cols} {p:?}");
                assert_eq!(shared.value(p, 3, None, None), alone, "{rows}x{cols} {p:?}");
            }
        }
    }
}
