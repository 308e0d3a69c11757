//! Flip games on bit sets: Othello and its relatives on any board of at most 64
//! cells, solved for the exact final margin (and, on request, its remoteness).
//!
//! # The rules (conventions of the whole module)
//! - A board of `rows × cols` cells ([`FlipShape`]), every cell playable; cell
//!   `row · cols + col` is that bit of a `u64`, row 0 at the top.
//! - Two sides; a position is `(mine, theirs)`, the disjoint discs of the side
//!   to move and of the other side.
//! - A move drops a disc of the side to move on an empty cell and **flips**
//!   every run it brackets: along each direction of the shape's set
//!   ([`Directions`]: orthogonal, diagonal or both), a run of one or more enemy
//!   discs starting next to the dropped disc and ended by a disc of the mover.
//! - With `must_flip` (Othello) a drop must flip at least one disc; without, any
//!   empty cell may be taken, flipping what it brackets, maybe nothing.
//! - A side with no legal move **passes**: the pass is a move and a ply (it
//!   counts in the remoteness). When neither side has a move (a full board
//!   among others) the game is over.
//! - The **final margin** for the side to move at the end is its discs minus
//!   the other's; with `empties_to_winner` the empty cells are added to the
//!   winner's count (margin + sign(margin) · empties; a level game stays 0),
//!   the World Othello Federation's rule, which Edax's scores use.
//! - The **value** is a [`ScoreValue`]: the final margin under perfect play
//!   (each side maximises its own margin), and the remoteness: among lines of
//!   the best margin the winner ends the game as fast as possible, the loser as
//!   late as possible, a level game ends as fast as possible.
//!
//! # The search
//! [`FlipSearch`] keeps one transposition table (module `table`, bounds by
//! position, the position stored whole) across the positions it is asked:
//! 1. the margin by null-window probes, MTD(f) (module `search`: each probe
//!    asks whether the margin is above a threshold and returns a bound beyond
//!    it; the next probe starts from that bound, so a probe near the true margin
//!    comes soon and both sides' bounds meet there; steps grow while probes
//!    fail the same way, `FlipSearch::exact`), each probe on all threads
//!    sharing the table (a thread leaves a child another is searching for
//!    last, ABDADA; the first thread to finish answers);
//! 2. each move's margin ([`FlipSearch::move_margins`]) by the same search on
//!    each child, the table carrying what the others proved;
//! 3. the remoteness (module `remoteness`): a search over the lines that keep
//!    the margin found, each child's margin checked by one probe.
//!
//! The board is folded by its symmetries (module `symmetry`) in the table's key;
//! the bit-set moves and flips are module `bits`.
//!
//! # Limits
//! A search stops once all its threads together have visited more than the
//! budget's nodes ([`OutOfBudget`]); an observer is told the nodes and the
//! root's bounds from time to time.
//!
//! The game layer chooses it for the rules of its shape (`of_rules`), and the
//! crate exports it as `gsolve_rules::flips`.

mod bits;
mod busy;
mod of_rules;
mod remoteness;
mod search;
mod shape;
mod symmetry;
mod table;

pub use gsolve_engine::ScoreValue;
pub(crate) use of_rules::shape_of;
pub use shape::{Directions, FlipShape, ShapeError};

use bits::Geometry;
use busy::Busy;
use search::{Shared, Worker};
use std::sync::atomic::{AtomicU8, Ordering};
use symmetry::Symmetries;
use table::Table;
use thiserror::Error;

/// Positions with fewer empty cells are probed on one thread: their probes are
/// over before a thread would start.
const PARALLEL_FROM: i32 = 14;

/// The search went past its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("the search was stopped after {nodes} nodes, past its budget")]
pub struct OutOfBudget {
    /// Nodes visited when it stopped.
    pub nodes: u64,
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited, by all threads.
    pub nodes: u64,
    /// Null-window probes run.
    pub probes: u32,
}

/// A report to an observer, from time to time during a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Nodes visited so far.
    pub nodes: u64,
    /// The margin of the position being searched is at least this (as the
    /// current probe started)...
    pub lower: i32,
    /// ...and at most this.
    pub upper: i32,
}

/// How a search may run.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    /// Threads (1 or more).
    pub threads: usize,
    /// The most nodes the whole call may visit.
    pub budget: Option<u64>,
    /// Told [`Progress`] from time to time (from one thread).
    pub observer: Option<&'a (dyn Fn(Progress) + Sync)>,
}

impl Limits<'_> {
    /// `threads` threads, at most `budget` nodes, no observer.
    pub fn new(threads: usize, budget: Option<u64>) -> Limits<'static> {
        Limits { threads, budget, observer: None }
    }
}

/// A move of a flip game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FlipMove {
    /// A disc dropped on this cell.
    Cell(u8),
    /// No legal move: the turn passes.
    Pass,
}

/// The searcher of one flip game: its shape's tables and one transposition
/// table, kept between calls (every bound in it is proven, whatever position
/// it was found for).
pub struct FlipSearch {
    geo: Geometry,
    sym: Symmetries,
    table: Table,
    /// Positions some thread is searching (module `busy`).
    busy: Busy,
    /// Entries of earlier calls are replaced first.
    generation: AtomicU8,
}

/// One call's account: nodes so far against the budget.
struct Run<'a> {
    limits: Limits<'a>,
    stats: Stats,
}

impl<'a> Run<'a> {
    fn new(limits: Limits<'a>) -> Self {
        Run { limits, stats: Stats::default() }
    }
}

impl FlipSearch {
    /// The searcher of `shape` with a table of about `table_bytes` bytes (at
    /// least 64 KiB).
    pub fn new(shape: FlipShape, table_bytes: usize) -> FlipSearch {
        FlipSearch {
            geo: Geometry::new(shape),
            sym: Symmetries::new(&shape),
            table: Table::new(table_bytes),
            busy: Busy::new(),
            generation: AtomicU8::new(0),
        }
    }

    /// The game searched.
    pub fn shape(&self) -> FlipShape {
        self.geo.shape
    }

    /// Bytes the table takes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Forgets every position searched.
    pub fn clear(&self) {
        self.table.clear();
    }

    /// The legal drops of the side owning `mine` (a bit set of cells).
    pub fn moves(&self, mine: u64, theirs: u64) -> u64 {
        self.geo.moves(mine, theirs)
    }

    /// The position after the side to move drops on `cell` (a legal move), from
    /// the other side's view: `(its discs, the mover's discs)`.
    pub fn play(&self, mine: u64, theirs: u64, cell: u8) -> (u64, u64) {
        let flipped = self.geo.flips(cell.into(), mine, theirs);
        (theirs & !flipped, mine | flipped | 1 << cell)
    }

    /// The discs a drop on the empty `cell` flips.
    pub fn flips(&self, mine: u64, theirs: u64, cell: u8) -> u64 {
        self.geo.flips(cell.into(), mine, theirs)
    }

    /// The position's moves, a pass when it has none but the game goes on;
    /// empty when the game is over.
    pub fn legal(&self, mine: u64, theirs: u64) -> Vec<FlipMove> {
        let moves = self.geo.moves(mine, theirs);
        if moves == 0 {
            return if self.geo.moves(theirs, mine) == 0 { Vec::new() } else { vec![FlipMove::Pass] };
        }
        cells(moves).map(FlipMove::Cell).collect()
    }

    /// The final margin for the side to move of a game that is over.
    pub fn final_margin(&self, mine: u64, theirs: u64) -> i32 {
        self.geo.final_margin(mine, theirs)
    }

    /// The exact margin of a position for the side to move.
    ///
    /// # Panics
    /// If the discs overlap or lie off the board.
    pub fn margin(&self, mine: u64, theirs: u64, limits: Limits<'_>) -> Result<(i32, Stats), OutOfBudget> {
        let mut run = self.start(mine, theirs, limits);
        let margin = self.exact(&mut run, mine, theirs, 0)?;
        Ok((margin, run.stats))
    }

    /// The exact value of a position: its margin, then the remoteness of that
    /// margin (module `remoteness`).
    ///
    /// # Panics
    /// As [`FlipSearch::margin`].
    pub fn value(&self, mine: u64, theirs: u64, limits: Limits<'_>) -> Result<(ScoreValue, Stats), OutOfBudget> {
        let mut run = self.start(mine, theirs, limits);
        let margin = self.exact(&mut run, mine, theirs, 0)?;
        let remoteness = self.remoteness(&mut run, mine, theirs, margin)?;
        Ok((ScoreValue { margin, remoteness }, run.stats))
    }

    /// Each legal move (or the pass) with its exact margin for the side to
    /// move, best first (moves of one margin by cell); empty when the game is
    /// over.
    ///
    /// # Panics
    /// As [`FlipSearch::margin`].
    pub fn move_margins(
        &self,
        mine: u64,
        theirs: u64,
        limits: Limits<'_>,
    ) -> Result<(Vec<(FlipMove, i32)>, Stats), OutOfBudget> {
        let mut run = self.start(mine, theirs, limits);
        let mut out = Vec::new();
        // The best margin first: it fills the table with what the best moves need,
        // and it is the first guess of each move's margin.
        let best = self.exact(&mut run, mine, theirs, 0)?;
        for mv in self.legal(mine, theirs) {
            let (cm, ct) = match mv {
                FlipMove::Cell(cell) => self.play(mine, theirs, cell),
                FlipMove::Pass => (theirs, mine),
            };
            let margin = -self.exact(&mut run, cm, ct, -best)?;
            out.push((mv, margin));
        }
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Ok((out, run.stats))
    }

    /// Checks the position and opens a call's account (a new generation of
    /// table entries).
    fn start<'a>(&self, mine: u64, theirs: u64, limits: Limits<'a>) -> Run<'a> {
        assert!(mine & theirs == 0, "the two sides' discs overlap: {mine:#x} and {theirs:#x}");
        assert!(
            (mine | theirs) & !self.geo.board == 0,
            "discs off the board: {:#x}",
            (mine | theirs) & !self.geo.board
        );
        self.generation.fetch_add(1, Ordering::Relaxed);
        Run::new(limits)
    }

    /// The exact margin by null-window probes from `guess`: each probe asks
    /// "is the margin at least t?" and its fail-soft answer moves one bound.
    /// Probes step away from the bound just found (MTD(f)), twice as far each
    /// time they keep failing the same way (a margin of 64 is found in a few
    /// probes, not 32); once they turn, a wide bracket is halved.
    fn exact(&self, run: &mut Run<'_>, mine: u64, theirs: u64, guess: i32) -> Result<i32, OutOfBudget> {
        let cells = self.geo.cells;
        let (mut lower, mut upper) = (-cells, cells);
        let mut threshold = guess.clamp(lower + 1, upper);
        let (mut step, mut rising) = (1, None);
        loop {
            let value = self.probe(run, mine, theirs, threshold - 1, (lower, upper))?;
            let high = value >= threshold;
            if high {
                lower = value;
            } else {
                upper = value;
            }
            if lower >= upper {
                return Ok(lower);
            }
            let turned = rising.is_some_and(|r| r != high);
            step = if rising == Some(high) { step * 2 } else { 1 };
            rising = Some(high);
            threshold = if turned && upper - lower > 8 {
                lower + (upper - lower + 1) / 2
            } else if high {
                lower + step
            } else {
                upper - step + 1
            };
            threshold = threshold.clamp(lower + 1, upper);
        }
    }

    /// One null-window probe: is the margin above `alpha`? (module `search`),
    /// on the threads the limits allow.
    fn probe_once(&self, run: &mut Run<'_>, mine: u64, theirs: u64, alpha: i32) -> Result<i32, OutOfBudget> {
        self.probe(run, mine, theirs, alpha, (-self.geo.cells, self.geo.cells))
    }

    fn probe(
        &self,
        run: &mut Run<'_>,
        mine: u64,
        theirs: u64,
        alpha: i32,
        bounds: (i32, i32),
    ) -> Result<i32, OutOfBudget> {
        let limit = run.limits.budget.map_or(u64::MAX, |b| b.saturating_sub(run.stats.nodes));
        let shared = Shared::new(limit, run.stats.nodes, bounds, run.limits.observer);
        let empties = self.geo.cells - (mine | theirs).count_ones() as i32;
        let threads = if empties >= PARALLEL_FROM { run.limits.threads.max(1) } else { 1 };
        let search = |helper: bool| {
            let mut worker = Worker::new(self, &shared, threads, helper);
            let value = worker.search(mine, theirs, alpha);
            if worker.stopped {
                None
            } else {
                shared.stop.store(true, Ordering::Relaxed);
                Some(value)
            }
        };
        let answer = if threads == 1 {
            search(false)
        } else {
            std::thread::scope(|scope| {
                let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(|| search(true))).collect();
                let own = search(false);
                let helped = helpers.into_iter().filter_map(|h| h.join().expect("a helper search panicked"));
                own.into_iter().chain(helped).next()
            })
        };
        run.stats.nodes += shared.nodes.load(Ordering::Relaxed);
        run.stats.probes += 1;
        match answer {
            Some(value) if !shared.spent.load(Ordering::Relaxed) => Ok(value),
            _ => Err(OutOfBudget { nodes: run.stats.nodes }),
        }
    }
}

/// The cells of a set, lowest first.
fn cells(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let cell = set.trailing_zeros() as u8;
            set &= set - 1;
            cell
        })
    })
}
