//! The positions reachable from a start position, breadth first over the index in
//! bit sets.
//!
//! # Memory
//! Three bit sets of the index's size: the positions seen, the level being
//! expanded and the next one; nothing else grows with the game: three bits an
//! entry, where one byte an entry and a stack of indices would take several times
//! that. A level is expanded on every thread: each
//! position of it is decoded, its children ranked and marked with an atomic OR.
//!
//! Positions the game does not index ([`Indexed::terminals_indexed`] false: a
//! pawn on its goal row, Dobutsu without a lion, or a win in 1 an index leaves
//! out) are not in the set; [`Reached::moves_out_of_index`] counts the moves
//! that reach them, and [`reachable_set_with`] hands each to the caller (they
//! are not walked on from: count them with an index that holds them).
//!
//! Where play stops is the game's, unless the caller says otherwise:
//! [`reachable_set_with`] walks on only from the positions its `expands`
//! accepts, counting the others (a count of positions "until the board
//! decides": Dobutsu's walk stops where the lion can be taken).

use crate::game::Indexed;
use crate::progress::{report, Observer};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// A set of indices, one bit each.
#[derive(Debug)]
pub struct IndexSet {
    words: Vec<AtomicU64>,
    size: u64,
}

impl IndexSet {
    /// An empty set of indices below `size`.
    pub fn new(size: u64) -> Self {
        IndexSet { words: (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(), size }
    }

    /// One more than the largest index it can hold.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Is `index` in the set?
    #[inline]
    pub fn contains(&self, index: u64) -> bool {
        index < self.size && self.words[(index / 64) as usize].load(Ordering::Relaxed) >> (index % 64) & 1 == 1
    }

    /// Adds `index` (below the size); true if it was not there. Safe from any
    /// thread: exactly one of several threads adding one index is told it is new.
    #[inline]
    pub fn insert(&self, index: u64) -> bool {
        let bit = 1u64 << (index % 64);
        self.words[(index / 64) as usize].fetch_or(bit, Ordering::Relaxed) & bit == 0
    }

    /// The number of indices in the set.
    pub fn len(&self) -> u64 {
        self.words.par_iter().map(|w| w.load(Ordering::Relaxed).count_ones() as u64).sum()
    }

    /// Is the set empty?
    pub fn is_empty(&self) -> bool {
        self.words.par_iter().all(|w| w.load(Ordering::Relaxed) == 0)
    }

    /// Calls `f` with each index in the set, ascending.
    pub fn for_each(&self, mut f: impl FnMut(u64)) {
        for (w, word) in self.words.iter().enumerate() {
            let mut bits = word.load(Ordering::Relaxed);
            while bits != 0 {
                f(w as u64 * 64 + bits.trailing_zeros() as u64);
                bits &= bits - 1;
            }
        }
    }

    fn clear(&mut self) {
        self.words.par_iter_mut().for_each(|w| *w.get_mut() = 0);
    }
}

/// What a breadth-first walk from a start reached.
#[derive(Debug)]
pub struct Reached {
    /// The indexed positions reached, the start included.
    pub positions: IndexSet,
    /// The levels: 1 + the most plies any reached position needs from the start.
    pub levels: u32,
    /// Moves from reached positions to terminal positions without an index
    /// (a position reached by two moves is counted twice).
    pub moves_out_of_index: u64,
}

/// Every position reachable from `start`, by index (see the module docs). A start
/// without an index (terminal, or outside the index) reaches nothing indexed.
/// Reports step `"reach"`, with the positions seen so far (total unknown: 0).
pub fn reachable_set<G: Indexed + Sync>(game: &G, start: &G::Position, observer: Option<Observer<'_>>) -> Reached
where
    G::Position: Send,
{
    reachable_set_with(game, start, observer, |_| true, |_| {})
}

/// [`reachable_set`], walking on only from the reached positions `expands`
/// accepts (a position the caller counts as over: reached, counted, its
/// children not visited from it), and calling `on_out_of_index` with each
/// child of a walked position that has no index, each time a move reaches it.
/// Both are called from any thread.
pub fn reachable_set_with<G: Indexed + Sync>(
    game: &G,
    start: &G::Position,
    observer: Option<Observer<'_>>,
    expands: impl Fn(&G::Position) -> bool + Sync,
    on_out_of_index: impl Fn(&G::Position) + Sync,
) -> Reached
where
    G::Position: Send,
{
    let size = game.index_size();
    let positions = IndexSet::new(size);
    let first = game.index(start);
    if first >= size {
        return Reached { positions, levels: 0, moves_out_of_index: 0 };
    }
    positions.insert(first);
    let mut level = IndexSet::new(size);
    let mut next = IndexSet::new(size);
    level.insert(first);
    let (mut levels, mut seen, mut out_of_index) = (1u32, 1u64, 0u64);
    // Each level's words are shared out in chunks of this many (64 indices a
    // word): enough work a chunk to pay for handing it to a thread.
    const CHUNK_WORDS: usize = 1 << 10;
    loop {
        let (found, out): (u64, u64) = level
            .words
            .par_chunks(CHUNK_WORDS)
            .enumerate()
            .map(|(chunk, words)| {
                let (mut found, mut out) = (0u64, 0u64);
                for (w, word) in words.iter().enumerate() {
                    let mut bits = word.load(Ordering::Relaxed);
                    while bits != 0 {
                        let index = ((chunk * CHUNK_WORDS + w) as u64) * 64 + bits.trailing_zeros() as u64;
                        bits &= bits - 1;
                        let Some(p) = game.position(index) else { continue };
                        if game.terminal(&p).is_some() || !expands(&p) {
                            continue;
                        }
                        game.for_each_child(&p, |c| {
                            let i = game.index(&c);
                            if i >= size {
                                out += 1;
                                on_out_of_index(&c);
                            } else if positions.insert(i) {
                                next.insert(i);
                                found += 1;
                            }
                        });
                    }
                }
                (found, out)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        out_of_index += out;
        if found == 0 {
            break;
        }
        seen += found;
        levels += 1;
        report(observer, "reach", seen, 0);
        std::mem::swap(&mut level, &mut next);
        next.clear();
    }
    Reached { positions, levels, moves_out_of_index: out_of_index }
}

/// Marks every position reachable from `start` (start included), by index:
/// `[i]` is true when position i is reached ([`reachable_set`] as a vector).
pub fn reachable<G: Indexed + Sync>(game: &G, start: &G::Position) -> Vec<bool>
where
    G::Position: Send,
{
    let reached = reachable_set(game, start, None);
    (0..reached.positions.size()).map(|i| reached.positions.contains(i)).collect()
}

/// The number of positions reachable from `start`, start included.
pub fn count_reachable<G: Indexed + Sync>(game: &G, start: &G::Position) -> u64
where
    G::Position: Send,
{
    reachable_set(game, start, None).positions.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::value::Outcome;

    /// Subtraction from a pile of `n`: take 1 or 2 (or 3 from piles that are
    /// multiples of 5); the position is the pile, the side to move left out.
    struct Piles(u64);
    impl Game for Piles {
        type Position = u64;
        type Move = u64;
        fn terminal(&self, p: &u64) -> Option<Outcome> {
            (*p == 0).then_some(Outcome::Loss)
        }
        fn moves(&self, p: &u64, moves: &mut Vec<u64>) {
            moves.extend((1..=if p.is_multiple_of(5) { 3 } else { 2 }).filter(|&m| m <= *p));
        }
        fn play(&self, p: &u64, m: &u64) -> u64 {
            p - m
        }
    }
    impl Indexed for Piles {
        fn index_size(&self) -> u64 {
            self.0 + 1
        }
        fn index(&self, p: &u64) -> u64 {
            *p
        }
        fn position(&self, i: u64) -> Option<u64> {
            (i <= self.0).then_some(i)
        }
    }

    /// Against a plain depth-first walk with a hash set, from every start.
    #[test]
    fn breadth_first_bits_equal_a_depth_first_walk() {
        let game = Piles(300);
        for start in [0, 1, 2, 5, 64, 129, 300] {
            let mut seen = std::collections::HashSet::new();
            let mut stack = vec![start];
            while let Some(p) = stack.pop() {
                if seen.insert(p) && game.terminal(&p).is_none() {
                    let mut moves = Vec::new();
                    game.moves(&p, &mut moves);
                    stack.extend(moves.iter().map(|m| game.play(&p, m)));
                }
            }
            let reached = reachable_set(&game, &start, None);
            assert_eq!(reached.positions.len(), seen.len() as u64, "from {start}");
            let mut listed = Vec::new();
            reached.positions.for_each(|i| listed.push(i));
            let mut expected: Vec<u64> = seen.into_iter().collect();
            expected.sort();
            assert_eq!(listed, expected);
            // Pile n needs about n / 2 plies to empty at the fastest (3 from a
            // multiple of 5 only).
            assert!(reached.levels as u64 > start / 3 && reached.levels as u64 <= start / 2 + 2, "{start}");
        }
        assert_eq!(reachable_set(&game, &301, None).positions.len(), 0);
    }

    /// A filtered walk: positions `expands` refuses are reached and counted but
    /// not walked on from, as a depth-first walk that stops there.
    #[test]
    fn refused_positions_are_counted_and_not_walked_from() {
        let game = Piles(200);
        for stop_at in [1u64, 3, 7, 10] {
            let stops = |p: &u64| p.is_multiple_of(stop_at) && *p != 200;
            let mut seen = std::collections::HashSet::new();
            let mut stack = vec![200u64];
            while let Some(p) = stack.pop() {
                if seen.insert(p) && game.terminal(&p).is_none() && !stops(&p) {
                    let mut moves = Vec::new();
                    game.moves(&p, &mut moves);
                    stack.extend(moves.iter().map(|m| game.play(&p, m)));
                }
            }
            let reached = reachable_set_with(&game, &200, None, |p| !stops(p), |_| {});
            let mut listed = Vec::new();
            reached.positions.for_each(|i| listed.push(i));
            let mut expected: Vec<u64> = seen.into_iter().collect();
            expected.sort();
            assert_eq!(listed, expected, "stopping at multiples of {stop_at}");
            if stop_at == 1 {
                assert_eq!(listed, [197, 198, 199, 200], "200 takes 1, 2 or 3; nothing walks on");
            }
        }
    }
}
