//! One thread's null-window search on margins: "is the margin of this position
//! above α?", answered fail-soft (a value v > α proves the margin is at least v,
//! a value v ≤ α that it is at most v).
//!
//! # Two kinds of node
//! - **Deep** (more than [`SHALLOW`] empty cells): the table first (a bound that
//!   answers the question returns at once), a bound from stable discs, then the
//!   moves in the order that leaves the opponent fewest replies (its corner
//!   replies counted twice: they are the ones that hurt), the table's best move
//!   before all; the result is stored.
//! - **Shallow** (at most [`SHALLOW`] empty cells): many and cheap; no table,
//!   no move list: the empty cells are tried in place, those in quarters of the
//!   board with an odd number of empty cells first (the side that plays last in
//!   a region gains there), and the last empty cell is valued without playing
//!   it out ([`Worker::last`]).
//!
//! A pass is a ply like any other: a side without a move hands the same question,
//! negated, to the other; when neither has one the game is over.
//!
//! # Stopping
//! A search stops when another thread answered first or the nodes of the whole
//! search pass its budget: every node then returns at once, and nothing found
//! after the stop is stored (a bound is stored only when every child it rests on
//! was searched to its end).

use super::bits::Geometry;
use super::busy::Busy;
use super::symmetry::Symmetries;
use super::table::{Bounds, Table, NO_CELL};
use super::{FlipSearch, Progress};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

/// Positions with this many empty cells or fewer are searched without the
/// table or a move list.
pub(crate) const SHALLOW: i32 = 6;

/// A thread adds its nodes to the shared count (and looks at the stop flag)
/// every this many nodes.
const FLUSH: u64 = 1 << 12;

/// Nodes between two progress reports.
const REPORT_EVERY: u64 = 1 << 22;

/// A helper thread tries the moves in another order this many plies below the
/// root, so that it proves other subtrees first and stores them for the others.
const DIVERSE_PLIES: u32 = 2;

/// On several threads, positions with this many empty cells or more are
/// marked while searched, and a child another thread is searching is left for
/// last (module `busy`).
const DEFER_FROM: i32 = 11;

/// Positions with this many empty cells or more look up their children in the
/// table before searching any ([`Worker::transposition_cutoff`]).
const ETC_FROM: i32 = 12;

/// Above every margin.
const INFINITY: i32 = 1000;

/// What the threads of one probe share.
pub(crate) struct Shared<'a> {
    /// Set when an answer is found or the budget is spent: every thread stops.
    pub(crate) stop: AtomicBool,
    /// Set when the budget is spent.
    pub(crate) spent: AtomicBool,
    /// Nodes all threads searched so far (flushed every [`FLUSH`]).
    pub(crate) nodes: AtomicU64,
    /// The most nodes the probe may search.
    pub(crate) limit: u64,
    /// Nodes before this probe, for reports.
    pub(crate) before: u64,
    /// The root's bounds when the probe started, for reports.
    pub(crate) lower: AtomicI32,
    pub(crate) upper: AtomicI32,
    pub(crate) observer: Option<&'a (dyn Fn(Progress) + Sync)>,
}

impl<'a> Shared<'a> {
    pub(crate) fn new(
        limit: u64,
        before: u64,
        bounds: (i32, i32),
        observer: Option<&'a (dyn Fn(Progress) + Sync)>,
    ) -> Self {
        Shared {
            stop: AtomicBool::new(false),
            spent: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            limit,
            before,
            lower: AtomicI32::new(bounds.0),
            upper: AtomicI32::new(bounds.1),
            observer,
        }
    }
}

/// One thread's search.
pub(crate) struct Worker<'a> {
    geo: &'a Geometry,
    sym: &'a Symmetries,
    table: &'a Table,
    /// Positions being searched, when several threads search.
    busy: Option<&'a Busy>,
    shared: &'a Shared<'a>,
    generation: u8,
    /// A helper (not the first thread): orders moves near the root its own way.
    helper: bool,
    /// Nodes not yet added to the shared count.
    unflushed: u64,
    since_report: u64,
    /// This thread saw the stop flag: its results mean nothing.
    pub(crate) stopped: bool,
}

impl<'a> Worker<'a> {
    /// A thread of `search`'s probe; `threads`: how many search it.
    pub(crate) fn new(search: &'a FlipSearch, shared: &'a Shared<'a>, threads: usize, helper: bool) -> Self {
        Worker {
            geo: &search.geo,
            sym: &search.sym,
            table: &search.table,
            busy: (threads > 1).then_some(&search.busy),
            shared,
            generation: search.generation.load(std::sync::atomic::Ordering::Relaxed),
            helper,
            unflushed: 0,
            since_report: 0,
            stopped: false,
        }
    }

    /// Is the margin of the position above `alpha`? (The module's doc.)
    pub(crate) fn search(&mut self, mine: u64, theirs: u64, alpha: i32) -> i32 {
        let value = if self.empties(mine, theirs) > SHALLOW {
            self.deep(mine, theirs, alpha, 0)
        } else {
            self.shallow(mine, theirs, alpha, false)
        };
        self.flush();
        value
    }

    #[inline]
    fn empties(&self, mine: u64, theirs: u64) -> i32 {
        self.geo.cells - (mine | theirs).count_ones() as i32
    }

    #[inline]
    fn count(&mut self) {
        self.unflushed += 1;
        if self.unflushed == FLUSH {
            self.flush();
        }
    }

    /// Adds this thread's nodes to the shared count; stops past the budget or
    /// when another thread said so; reports progress from the first thread.
    fn flush(&mut self) {
        let shared = self.shared;
        let total = shared.nodes.fetch_add(self.unflushed, Ordering::Relaxed) + self.unflushed;
        self.since_report += self.unflushed;
        self.unflushed = 0;
        if total > shared.limit {
            shared.spent.store(true, Ordering::Relaxed);
            shared.stop.store(true, Ordering::Relaxed);
        }
        if shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if !self.helper && self.since_report >= REPORT_EVERY {
            self.since_report = 0;
            if let Some(observer) = shared.observer {
                observer(Progress {
                    nodes: shared.before + total,
                    lower: shared.lower.load(Ordering::Relaxed),
                    upper: shared.upper.load(Ordering::Relaxed),
                });
            }
        }
    }

    /// A position with more than [`SHALLOW`] empty cells.
    fn deep(&mut self, mine: u64, theirs: u64, alpha: i32, ply: u32) -> i32 {
        self.count();
        if self.stopped {
            return 0;
        }
        let geo = self.geo;
        let moves = geo.moves(mine, theirs);
        if moves == 0 {
            if geo.moves(theirs, mine) == 0 {
                return geo.final_margin(mine, theirs);
            }
            return -self.deep(theirs, mine, -alpha - 1, ply + 1);
        }
        // The opponent keeps its stable discs to the end: the margin is at most
        // cells − 2 · stable (shape's doc: the empty cells go to the winner, who
        // then has every disc the loser has not).
        let upper = geo.cells - 2 * geo.stable(theirs).count_ones() as i32;
        if upper <= alpha {
            return upper;
        }
        let (fm, ft, sym) = self.sym.fold(mine, theirs);
        let mut hint = NO_CELL;
        if let Some(b) = self.table.get(fm, ft) {
            if b.lower > alpha {
                return b.lower;
            }
            if b.upper <= alpha {
                return b.upper;
            }
            if b.best != NO_CELL {
                hint = self.sym.unfold_cell(sym, b.best);
            }
        }
        let empties = self.empties(mine, theirs);
        if empties >= ETC_FROM {
            if let Some(value) = self.transposition_cutoff(mine, theirs, moves, alpha) {
                return value;
            }
        }
        let busy = self.busy.filter(|_| empties >= DEFER_FROM);
        let mark = busy.and_then(|b| b.enter(fm, ft));
        let order = self.order(mine, theirs, moves, hint, ply);
        let (best, best_cell) = self.children((mine, theirs), alpha, ply, &order, busy);
        if let (Some(b), Some(mark)) = (busy, mark) {
            b.leave(mark);
        }
        if self.stopped {
            return 0;
        }
        let bounds = if best > alpha {
            Bounds { lower: best, upper: geo.cells, best: self.sym.fold_cell(sym, best_cell) }
        } else {
            Bounds { lower: -geo.cells, upper: best, best: NO_CELL }
        };
        self.table.put(fm, ft, bounds, empties as u32, self.generation);
        best
    }

    /// The children of a deep node in `order`, until one is above `alpha`: the
    /// best value and its move. With `busy`, a child (but the first) that
    /// another thread is searching waits until the others are done.
    fn children(
        &mut self,
        (mine, theirs): (u64, u64),
        alpha: i32,
        ply: u32,
        order: &Order,
        busy: Option<&Busy>,
    ) -> (i32, u8) {
        let mut best = (-INFINITY, NO_CELL);
        let mut deferred = [0u8; 64];
        let mut waiting = 0;
        for (i, &entry) in order.list[..order.len].iter().enumerate() {
            let cell = entry as u8;
            let (cm, ct) = self.play(mine, theirs, cell);
            if let Some(b) = busy.filter(|_| i > 0) {
                let (fm, ft, _) = self.sym.fold(cm, ct);
                if b.searched(fm, ft) {
                    deferred[waiting] = cell;
                    waiting += 1;
                    continue;
                }
            }
            let value = self.child(cm, ct, alpha, ply);
            if value > best.0 {
                best = (value, cell);
            }
            if self.stopped || value > alpha {
                return best;
            }
        }
        for &cell in &deferred[..waiting] {
            let (cm, ct) = self.play(mine, theirs, cell);
            let value = self.child(cm, ct, alpha, ply);
            if value > best.0 {
                best = (value, cell);
            }
            if self.stopped || value > alpha {
                return best;
            }
        }
        best
    }

    /// The position after a drop on `cell`, from the other side's view.
    #[inline]
    fn play(&self, mine: u64, theirs: u64, cell: u8) -> (u64, u64) {
        let flipped = self.geo.flips(cell.into(), mine, theirs);
        (theirs & !flipped, mine | flipped | 1 << cell)
    }

    /// The value of a child of a deep node, for its parent.
    #[inline]
    fn child(&mut self, cm: u64, ct: u64, alpha: i32, ply: u32) -> i32 {
        if self.empties(cm, ct) > SHALLOW {
            -self.deep(cm, ct, -alpha - 1, ply + 1)
        } else {
            -self.shallow(cm, ct, -alpha - 1, false)
        }
    }

    /// Enhanced transposition cutoff: a child whose stored upper bound u is
    /// below −α proves the margin is at least −u > α without a search.
    fn transposition_cutoff(&self, mine: u64, theirs: u64, moves: u64, alpha: i32) -> Option<i32> {
        let mut left = moves;
        while left != 0 {
            let cell = left.trailing_zeros() as u8;
            left &= left - 1;
            let (cm, ct) = self.play(mine, theirs, cell);
            let (fm, ft, _) = self.sym.fold(cm, ct);
            if let Some(b) = self.table.get(fm, ft) {
                if -b.upper > alpha {
                    return Some(-b.upper);
                }
            }
        }
        None
    }

    /// The moves of a deep node, best guess first: the table's move, then the
    /// fewest replies for the opponent (its corners counted twice), our own
    /// corners before other moves of as many replies.
    fn order(&self, mine: u64, theirs: u64, moves: u64, hint: u8, ply: u32) -> Order {
        let geo = self.geo;
        let mut order = Order { list: [0; 64], len: 0 };
        let mut left = moves;
        while left != 0 {
            let cell = left.trailing_zeros();
            left &= left - 1;
            let key = if cell as u8 == hint {
                0
            } else {
                let flipped = geo.flips(cell, mine, theirs);
                let (cm, ct) = (theirs & !flipped, mine | flipped | 1 << cell);
                let replies = geo.moves(cm, ct);
                let corner = (geo.corners >> cell) & 1;
                1 + 4 * (replies.count_ones() + (replies & geo.corners).count_ones()) + 2 * (1 - corner as u32)
            };
            order.list[order.len] = key << 8 | cell;
            order.len += 1;
        }
        order.list[..order.len].sort_unstable();
        if self.helper && ply < DIVERSE_PLIES && order.len > 1 {
            order.list.swap(0, 1);
        }
        order
    }

    /// A position with at most [`SHALLOW`] empty cells; `passed`: the opponent
    /// just passed (if this side cannot move either, the game is over).
    fn shallow(&mut self, mine: u64, theirs: u64, alpha: i32, passed: bool) -> i32 {
        self.count();
        let geo = self.geo;
        let empty = geo.board & !(mine | theirs);
        match empty.count_ones() {
            0 => return geo.final_margin(mine, theirs),
            1 => return self.last(mine, theirs, empty.trailing_zeros()),
            _ => {}
        }
        let mut odd = 0;
        for quarter in geo.quarters {
            if (empty & quarter).count_ones() & 1 == 1 {
                odd |= quarter;
            }
        }
        let mut best = -INFINITY;
        for part in [empty & odd, empty & !odd] {
            let mut left = part;
            while left != 0 {
                let cell = left.trailing_zeros();
                left &= left - 1;
                let flipped = geo.flips(cell, mine, theirs);
                if flipped == 0 && geo.shape.must_flip {
                    continue;
                }
                let value = -self.shallow(theirs & !flipped, mine | flipped | 1 << cell, -alpha - 1, false);
                if value > best {
                    best = value;
                    if value > alpha {
                        return value;
                    }
                }
            }
        }
        if best == -INFINITY {
            if passed {
                return geo.final_margin(mine, theirs);
            }
            return -self.shallow(theirs, mine, -alpha - 1, true);
        }
        best
    }

    /// The margin of a position with one empty cell: whoever can take it takes
    /// it (the side to move first), and the board is full or nobody can.
    #[inline]
    fn last(&mut self, mine: u64, theirs: u64, cell: u32) -> i32 {
        let geo = self.geo;
        let (m, t) = (mine.count_ones() as i32, theirs.count_ones() as i32);
        let flipped = geo.flips(cell, mine, theirs);
        if flipped != 0 || !geo.shape.must_flip {
            let k = flipped.count_ones() as i32;
            return m + k + 1 - (t - k);
        }
        let flipped = geo.flips(cell, theirs, mine);
        if flipped != 0 {
            let k = flipped.count_ones() as i32;
            return m - k - (t + k + 1);
        }
        geo.final_margin(mine, theirs)
    }
}

/// A deep node's moves, each `key << 8 | cell`, sorted.
struct Order {
    list: [u32; 64],
    len: usize,
}
