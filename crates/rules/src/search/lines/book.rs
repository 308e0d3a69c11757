//! Opening books: the exact value of every position a line game reaches from a
//! start in its first plies, solved once, so that analysis and play near the start
//! answer at once. Near the start a search is slowest (the fewer pieces, the more
//! positions below), and every game passes there.
//!
//! # What a book holds
//! One entry for each position at most `plies` moves from the start that the game
//! has not ended (no line, the board not full), one entry for a position and its
//! mirror image where the game looks the same in a mirror: its **key**, and its
//! exact [`Value`] for the side to move. Keys are sorted; a lookup is a binary
//! search.
//!
//! # The key
//! A position of n pieces on a board laid out as in `layout` (column by column
//! from the bottom, one padding bit above each column: bit `col · (rows + 1) +
//! (rows − 1 − row)`, row 0 at the top), with `mine` the cells of the side to
//! move and `all` the occupied cells:
//!
//! | board | its own number |
//! |---|---|
//! | gravity | `mine \| (all + bottom)`: the pieces of the side to move, below one mark a column just above its pieces |
//! | no gravity | `compact(mine) \| compact(all) << cells`: the cells without the padding, two bits a cell |
//!
//! (`bottom` has the lowest bit of each column; `compact` drops the padding bits.)
//! Where the game looks the same in a mirror, the key is the lesser of the
//! numbers of the position and its mirror image; else its own number. Both are
//! functions of the rules and the board alone, so a book written by one gsolve is
//! read by another; the file records the scheme's version ([`KEY_VERSION`]).
//!
//! # How it is built (named steps)
//! 1. **positions**: the positions of each ply from the start, breadth first, each
//!    orbit once (a move that ends the game adds no position);
//! 2. **solve**: the positions of the last ply by the line search;
//! 3. **back up**: each earlier ply from the next, a position's value being the
//!    best of its children's seen from it (a child that ends the game valued by
//!    the rules: a line is a loss at once for the side then to move, a full board
//!    the full board's result). No search: this is exact by the definition of a
//!    value, as the retrograde solvers use it.

use super::solver::{Bits, Solver, MAX_THREADS};
use gsolve_engine::{Observer, Progress, Value};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};

/// The version of the key scheme above; a book of another version is refused.
pub const KEY_VERSION: u32 = 1;

/// The most plies a book may cover: each further ply multiplies the positions by
/// about the number of moves, and the last ply is searched position by position.
pub const MAX_BOOK_PLIES: u32 = 16;

/// The most plies a book's lines of play may reach (module `play`): each two
/// plies multiply the positions by about the number of moves.
pub const MAX_PLAY_PLIES: u32 = 24;

/// Whose moves an opening book's lines of play follow at the opponent's turns
/// (module `play`); gsolve's own turns follow the move `play` makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Opponent {
    /// Every move: the book answers at once along the lines, whatever is played.
    #[default]
    Any,
    /// Every best move (each move of the best value, remoteness included): a game
    /// against perfect play stays on the lines, and they reach deeper for the
    /// same time.
    Perfect,
}

/// The lines of play an opening book holds beside its plies: the positions that
/// games of gsolve against `opponent` analyse before ply `plies`, and every
/// move's position from them (module `play`). `plies` no greater than the
/// book's own plies (0, the default) adds nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LinesOfPlay {
    /// The ply (from the book's start) before which positions are analysed.
    pub plies: u32,
    /// Whose moves the lines follow at the opponent's turns.
    pub opponent: Opponent,
}

impl LinesOfPlay {
    /// Lines of play before ply `plies` against `opponent`.
    pub fn new(plies: u32, opponent: Opponent) -> LinesOfPlay {
        LinesOfPlay { plies, opponent }
    }
}

/// What can be wrong with a book, or with asking for one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// Books are for line games only (their keys are the line search's).
    #[error("an opening book needs a line game (pieces dropped, lines, a full board: docs/rules.md); {0}")]
    NotALineGame(String),
    /// The start is over, or not a position the line search takes.
    #[error("the start of a book must be a position where play goes on, with no line and every piece resting on the one below")]
    BadStart,
    /// Too many plies asked for.
    #[error("an opening book covers at most {MAX_BOOK_PLIES} plies, not {0}")]
    TooManyPlies(u32),
    /// Lines of play too long asked for.
    #[error("an opening book's lines of play reach at most {MAX_PLAY_PLIES} plies, not {0}")]
    TooManyPlayPlies(u32),
    /// The book was built for other rules or another board.
    #[error("the book was built for {book}, not for this game ({game})")]
    OtherGame {
        /// The book's rules and board, in short.
        book: String,
        /// The game's, in short.
        game: String,
    },
    /// The book's keys are of another scheme.
    #[error("the book's keys are of version {0}; this gsolve reads version {KEY_VERSION}")]
    KeyVersion(u32),
    /// The entries are not in strictly increasing order of key.
    #[error("the book's entry {0} is out of order (keys must increase strictly)")]
    Unsorted(usize),
}

/// A solved opening: the value of every position of a line game within its first
/// plies from a start (see the module's documentation for the key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningBook {
    board: Vec<(String, String)>,
    plies: u32,
    keys: Vec<u64>,
    values: Vec<Value>,
}

impl OpeningBook {
    /// A book from its parts: `board`, the parameters of the game it was built for
    /// (the rules' text and the board, as a tablebase stores them); `plies`, how
    /// far from the start it reaches; entries sorted by key, each key once.
    pub fn from_parts(board: Vec<(String, String)>, plies: u32, entries: Vec<(u64, Value)>) -> Result<Self, BookError> {
        if plies > MAX_BOOK_PLIES {
            return Err(BookError::TooManyPlies(plies));
        }
        if let Some(i) = entries.windows(2).position(|w| w[0].0 >= w[1].0) {
            return Err(BookError::Unsorted(i + 1));
        }
        let (keys, values) = entries.into_iter().unzip();
        Ok(OpeningBook { board, plies, keys, values })
    }

    /// The parameters of the game the book was built for (the rules' text, rows,
    /// cols; no piece limits).
    pub fn board(&self) -> &[(String, String)] {
        &self.board
    }

    /// How many plies from its start the book reaches.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The number of positions it holds.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether it holds no position (a start one ply from a full board).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Its entries, by increasing key.
    pub fn entries(&self) -> impl Iterator<Item = (u64, Value)> + '_ {
        self.keys.iter().copied().zip(self.values.iter().copied())
    }

    /// The value stored under `key`.
    pub fn get(&self, key: u64) -> Option<Value> {
        self.keys.binary_search(&key).ok().map(|i| self.values[i])
    }
}

/// Step 1's positions of one ply: each orbit's key with one of its positions.
type Ply = Vec<(u64, Bits)>;

/// The entries of a book of `plies` plies from `start` (not ended), sorted by key,
/// on rayon's threads.
pub(crate) fn build(solver: &Solver, start: Bits, plies: u32, observer: Option<Observer<'_>>) -> Vec<(u64, Value)> {
    let by_ply = positions(solver, start, plies, observer);
    let mut values: HashMap<u64, Value> = HashMap::new();
    let last = by_ply.last().expect("the start's ply");
    solve(solver, last, &mut values, observer);
    for (ply, positions) in by_ply.iter().enumerate().rev().skip(1) {
        back_up(solver, positions, &mut values);
        gsolve_engine::progress::report(observer, "back up", (by_ply.len() - ply) as u64, by_ply.len() as u64);
    }
    let mut entries: Vec<(u64, Value)> = values.into_iter().collect();
    entries.sort_unstable_by_key(|&(key, _)| key);
    entries
}

/// The child of `p` after the side to move takes `cell`: the other side to move.
#[inline]
fn child(p: Bits, cell: u64) -> Bits {
    Bits { mine: p.all ^ p.mine, all: p.all | cell }
}

/// Calls `f` with each move's cell and, when the move ends the game, the value of
/// the ended position for the side then to move (a line: the mover has won, a loss
/// at once; a full board: the full board's result).
fn for_each_move(solver: &Solver, p: Bits, mut f: impl FnMut(u64, Option<Value>)) {
    let layout = solver.layout();
    let mut playable = layout.playable(p.all);
    while playable != 0 {
        let cell = playable & playable.wrapping_neg();
        playable ^= cell;
        let ended = if layout.has_line(p.mine | cell) {
            Some(Value::Loss(0))
        } else if (p.all | cell) == layout.board {
            Some(solver.full().value())
        } else {
            None
        };
        f(cell, ended);
    }
}

/// Step 1: the positions of plies 0 to `plies`, each orbit once, in the order they
/// are first reached (a parent's children together: the searches of step 2 then
/// find in the table much of what their siblings stored).
fn positions(solver: &Solver, start: Bits, plies: u32, observer: Option<Observer<'_>>) -> Vec<Ply> {
    let mut by_ply: Vec<Ply> = vec![vec![(solver.folded_key(start), start)]];
    for ply in 1..=plies {
        let mut seen = HashSet::new();
        let mut next: Ply = Vec::new();
        for &(_, p) in by_ply.last().expect("a ply") {
            for_each_move(solver, p, |cell, ended| {
                if ended.is_none() {
                    let c = child(p, cell);
                    let key = solver.folded_key(c);
                    if seen.insert(key) {
                        next.push((key, c));
                    }
                }
            });
        }
        by_ply.push(next);
        gsolve_engine::progress::report(observer, "positions", ply as u64, plies as u64);
    }
    by_ply
}

/// Step 2: the last ply's values, by the line search: on one thread each, as
/// many at once as there are threads, each thread with its own small table (two
/// threads on one search gain less than two searches side by side).
fn solve(solver: &Solver, last: &Ply, values: &mut HashMap<u64, Value>, observer: Option<Observer<'_>>) {
    use rayon::prelude::*;
    let done = AtomicU64::new(0);
    let solved: Vec<(u64, Value)> = last
        .par_iter()
        .with_max_len(1)
        .map(|&(key, p)| {
            let slot = rayon::current_thread_index().unwrap_or(0) % MAX_THREADS;
            let value = solver.value_from_slot(p, 1, slot, None, None).expect("a search without a budget ends");
            let done = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(observer) = observer {
                observer(Progress::new("solve", done, last.len() as u64));
            }
            (key, value)
        })
        .collect();
    values.extend(solved);
}

/// Step 3, one ply: each position's value from its children's (all in `values`,
/// or ended by their move).
fn back_up(solver: &Solver, positions: &Ply, values: &mut HashMap<u64, Value>) {
    for &(key, p) in positions {
        let mut best: Option<Value> = None;
        for_each_move(solver, p, |cell, ended| {
            let seen_by_child = ended.unwrap_or_else(|| values[&solver.folded_key(child(p, cell))]);
            let mine = seen_by_child.parent_view();
            best = Some(best.map_or(mine, |b| b.max(mine)));
        });
        // Every position kept has a move: it is not ended, so its board is not full.
        values.insert(key, best.expect("a position that goes on has a move"));
    }
}
