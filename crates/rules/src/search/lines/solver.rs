//! Alpha-beta on bit sets for line games, with the knowledge lines give: a win at
//! once is taken, an opponent's win at once is blocked (two of them lose), a move
//! that hands the opponent a win is never searched, moves that make threats come
//! first; the exact score is narrowed by null windows.
//!
//! # Scores
//! Every move adds one piece, so a game that ends with `e` pieces on the board
//! ends e − n plies after a position with n pieces. The score of a position for
//! the side to move is `C − e` for a win ending with e pieces (C = cells + 1, so
//! a score is never 0 for a win), `−(C − e)` for a loss, and 0 for a tie: the
//! winner wants e small, the loser large, which is the remoteness's order. The
//! score depends on e alone, not on n, so a parent's score is the best of its
//! children's, negated (negamax), and the window of a child is the parent's
//! negated. Ties end only on a full board (the shape's endings, [`super`]).
//!
//! # The rules of pruning, and why each is exact
//! At a position with n pieces that no line ends yet:
//! 1. **No move**: the board is full; the full-board ending gives the score.
//! 2. **A win at once**: a move completing a line ends the game with n + 1 pieces,
//!    the earliest any win can: the score is C − (n + 1), no search needed. Asked
//!    at the root only: every other position searched was reached by a move that
//!    rules 3 and 4 let through, which leaves the side to move no such win.
//! 3. **Threats**: a cell where the opponent would complete a line and that is
//!    playable now is a threat. With two, one move blocks at most one, and no
//!    move of ours wins at once (rule 2): the opponent wins with n + 2 pieces, the
//!    earliest any loss can, whatever we play. With one, every other move loses
//!    that way: only the block can do better.
//! 4. **Gifts** (gravity): a move just below a cell where the opponent would
//!    complete a line makes that cell playable; the opponent wins with n + 2
//!    pieces. Such moves are never better than any other move, whose loss comes
//!    no earlier; when every move is a gift or the threat cannot be blocked, the
//!    score is −(C − (n + 2)).
//! 5. **Bounds**: after rules 2–4 the remaining moves neither win at once nor let
//!    the opponent win at once (our piece only takes cells from the opponent's
//!    lines, and no new cell becomes playable under a winning cell of theirs), so
//!    the score lies between a loss with n + 4 pieces and a win with n + 3 (or the
//!    full board, whichever comes first): the window is narrowed to that.
//! 6. **The tables** hold proven bounds by position, and by its mirror image when
//!    the rules look the same in a mirror (the image's score is the same; folded
//!    in the first 16 plies, where images meet). A bound is stored only once every
//!    child it rests on has been searched to the end, so it holds whatever window
//!    later asks. Positions with at least about half the board empty go to a large
//!    table shared by the threads, the others to one small enough to stay in the
//!    processor's caches, one a thread: a position always goes to the same one
//!    (for a given thread), so every bound found there was proven for it.

use super::layout::Layout;
use super::table::Table;
use gsolve_engine::{Observer, Outcome, Progress, Value};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// Nodes between two progress reports.
const REPORT_EVERY: u64 = 1 << 20;

/// Positions with fewer empty cells are searched on one thread: their searches
/// are over before threads would start.
const PARALLEL_FROM_EMPTY: i32 = 20;

/// Positions with this many pieces or more are not folded with their mirror
/// images.
const MIRROR_BEFORE: u32 = 16;

/// The most threads one search runs on, and the number of small tables.
pub(crate) const MAX_THREADS: usize = 4;

/// A helper thread orders moves its own way this many plies below the root.
const DIVERSE_PLIES: i32 = 2;

/// The most positions whose root bounds are remembered ([`Known`]); the memory
/// is emptied when it is full (about 24 bytes an entry).
const KNOWN_CAPACITY: usize = 1 << 20;

/// What earlier exact values proved about a position's score, by its folded
/// key: its exact score, or a lower bound that a parent's exact score gives
/// each of its children.
///
/// | found | what it proves |
/// |---|---|
/// | the exact score `s` of `p` | `s` for `p` (and its mirror image) |
/// | the exact score `s` of `p` | at least `−s` for every child of `p` that the game goes on from |
///
/// The second line is negamax read backwards: `s` is the best of the children's
/// scores negated, so no child's score is below `−s` (scores do not depend on
/// the ply: module docs). An analysis values a position and then each of its
/// moves, and play then analyses one of those moves' positions: with these
/// bounds a child as good as its parent's value says is proven by one
/// null-window search instead of a bisection of about six, and a position an
/// earlier analysis valued costs nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Known {
    low: i32,
    high: i32,
}

/// A line game's position: the pieces of the side to move and all pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bits {
    pub(crate) mine: u64,
    pub(crate) all: u64,
}

/// The sizes of a search's two tables, in entries, and where the second starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tables {
    pub(crate) deep: usize,
    pub(crate) near: usize,
    /// Positions with at least this many empty cells use the `near` table.
    pub(crate) near_from: u32,
}

/// The search of one line game, with its tables (kept between positions).
pub(crate) struct Solver {
    layout: Layout,
    /// The result for the side to move of a full board.
    full: Outcome,
    /// The game looks the same in a mirror: a position and its image share entries.
    mirror: bool,
    /// C: the number of cells plus one.
    top: i32,
    cells: i32,
    /// Bounds of positions with few empty cells: the many small subtrees near the
    /// leaves, in a table small enough to stay in the processor's caches.
    /// One a thread: each thread's positions near the leaves stay in its own core's
    /// caches (a shared one thrashed them: two threads were slower than one).
    deep: Vec<Table>,
    /// Bounds of positions with at least `near_from` empty cells: the few large
    /// subtrees near the root, in a large table.
    near: Table,
    near_from: i32,
    nodes: AtomicU64,
    /// Root bounds from earlier exact values ([`Known`]).
    known: Mutex<HashMap<u64, Known>>,
}

impl Solver {
    pub(crate) fn new(layout: Layout, full: Outcome, mirror: bool, tables: Tables) -> Solver {
        let cells = layout.board.count_ones() as i32;
        Solver {
            layout,
            full,
            mirror,
            top: cells + 1,
            cells,
            deep: (0..MAX_THREADS).map(|_| Table::new(tables.deep)).collect(),
            near: Table::new(tables.near),
            near_from: tables.near_from as i32,
            nodes: AtomicU64::new(0),
            known: Mutex::new(HashMap::new()),
        }
    }

    /// Positions searched so far, and the bytes of its table.
    pub(crate) fn stats(&self) -> (u64, usize) {
        (self.nodes.load(Ordering::Relaxed), self.deep.iter().map(Table::bytes).sum::<usize>() + self.near.bytes())
    }

    /// The exact value of a position no line ends, by null-window searches that
    /// halve the range of possible scores each time, each on `threads` threads
    /// sharing the table (positions with few empty cells on one); `None` once the
    /// main thread has visited more than `budget` positions.
    pub(crate) fn value(
        &self,
        p: Bits,
        threads: usize,
        budget: Option<u64>,
        observer: Option<Observer<'_>>,
    ) -> Option<Value> {
        self.value_from_slot(p, threads, 0, budget, observer)
    }

    /// [`Solver::value`] whose threads use the small tables from `slot` on: several
    /// values found at once, each on its own thread, each keep their own tables
    /// (an opening book's positions).
    pub(crate) fn value_from_slot(
        &self,
        p: Bits,
        threads: usize,
        slot: usize,
        budget: Option<u64>,
        observer: Option<Observer<'_>>,
    ) -> Option<Value> {
        let mut budget = Budget { left: budget.unwrap_or(u64::MAX) };
        let n = p.all.count_ones() as i32;
        let mut min = -(self.top - (n + 2).min(self.cells));
        let mut max = self.top - (n + 1).min(self.cells);
        let key = self.folded_key(p);
        // A lower bound from a parent's value is most often the score itself (the
        // parent's best moves): it is tried first, by one null window, and from a
        // bound a probe returns the next probe steps to that bound (the returned
        // bounds are tight more often than not).
        let mut step_from_bound = false;
        if let Some(known) = self.known(key) {
            step_from_bound = known.low > min;
            min = min.max(known.low);
            max = max.min(known.high);
        }
        // The move that proved the lower bound `min`, when a probe's search found it.
        let mut best_move = None;
        let threads = if self.cells - n >= PARALLEL_FROM_EMPTY { threads.clamp(1, MAX_THREADS) } else { 1 };
        while min < max {
            // Probe near zero first (ties and long games are common), as Pons'
            // solver does: the window is halved toward the middle of the range
            // only once the range is on one side of zero.
            let mut middle = min + (max - min) / 2;
            if step_from_bound {
                middle = min;
            } else if middle <= 0 && min / 2 < middle {
                middle = min / 2;
            } else if middle >= 0 && max / 2 > middle {
                middle = max / 2;
            }
            let (score, found) = self.probe(p, middle, (threads, slot), (min, max), &mut budget, observer)?;
            if score <= middle {
                max = score;
                // Stepping down from a bound would go on one score at a time.
                step_from_bound = false;
            } else {
                min = score;
                best_move = found;
            }
        }
        self.remember(p, key, min, best_move);
        Some(self.value_of(min, n))
    }

    /// The bounds on the score of the position of folded key `key` that earlier
    /// exact values proved ([`Known`]).
    fn known(&self, key: u64) -> Option<Known> {
        self.known.lock().unwrap_or_else(|e| e.into_inner()).get(&key).copied()
    }

    /// Records the exact score of `p` (folded key `key`), and the lower bound it
    /// gives each child that the game goes on from ([`Known`]); the child after
    /// `best_move`, a move whose child's score is at most `−score`, has exactly
    /// that score.
    fn remember(&self, p: Bits, key: u64, score: i32, best_move: Option<u64>) {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if known.len() + 1 + self.layout.playable(p.all).count_ones() as usize > KNOWN_CAPACITY {
            known.clear();
        }
        known.insert(key, Known { low: score, high: score });
        for_each_going_on(&self.layout, p, |cell, child| {
            let entry = known.entry(self.folded_key(child)).or_insert(Known { low: i32::MIN, high: i32::MAX });
            entry.low = entry.low.max(-score);
            if best_move == Some(cell) {
                entry.high = entry.high.min(-score);
            }
        });
    }

    /// Records the exact value of `p`, found elsewhere (an opening book), as
    /// [`Solver::value`] records the values it finds.
    pub(crate) fn remember_value(&self, p: Bits, value: Value) {
        let n = p.all.count_ones() as i32;
        let score = match value {
            Value::Win(r) => self.top - n - r as i32,
            Value::Loss(r) => -(self.top - n - r as i32),
            _ => 0,
        };
        debug_assert_eq!(self.value_of(score, n), value);
        self.remember(p, self.folded_key(p), score, None);
    }

    /// Is the score of `p` above `threshold`? A null-window search: the score if it
    /// lies on the side found, else a bound beyond `threshold` on that side; with
    /// the root's move that reached a bound above `threshold`, when a search of it
    /// did.
    ///
    /// On several threads every thread runs the same search sharing the table, the
    /// helpers with the moves near the root in other orders, so that they prove
    /// other subtrees first and store them for the others; the first to finish
    /// answers, and the others stop at once without storing anything (a bound is
    /// stored only once every child it rests on has been searched to the end).
    /// `None` when the main search ran out of `budget` (the helpers then stop too).
    fn probe(
        &self,
        p: Bits,
        threshold: i32,
        (threads, slot): (usize, usize),
        bounds: (i32, i32),
        budget: &mut Budget,
        observer: Option<Observer<'_>>,
    ) -> Option<(i32, Option<u64>)> {
        let stop = AtomicBool::new(false);
        let root = p.all.count_ones() as i32;
        let left = budget.left;
        let search = |variant: usize, observer: Option<Observer<'_>>| {
            let limit = if variant == 0 { left } else { u64::MAX };
            let mut search = Search {
                solver: self,
                observer,
                since_report: 0,
                visited: 0,
                limit,
                bounds,
                root,
                variant,
                slot: (slot + variant) % MAX_THREADS,
                stop: &stop,
                root_move: None,
            };
            let score = search.negamax(p, threshold, threshold + 1);
            self.nodes.fetch_add(search.since_report, Ordering::Relaxed);
            // The main search always ends its probe, with the answer or out of its
            // budget; a helper ends it only with the answer. Either way the others
            // stop.
            if score.is_some() || variant == 0 {
                stop.store(true, Ordering::Relaxed);
            }
            (score.map(|score| (score, search.root_move)), search.visited)
        };
        let (answer, visited) = if threads <= 1 {
            search(0, observer)
        } else {
            std::thread::scope(|scope| {
                let helpers: Vec<_> = (1..threads).map(|variant| scope.spawn(move || search(variant, None))).collect();
                let (own, visited) = search(0, observer);
                let helped = helpers.into_iter().filter_map(|h| h.join().expect("a helper search panicked").0);
                // A helper that finished first stopped the main search.
                (own.into_iter().chain(helped).next(), visited)
            })
        };
        budget.left = budget.left.saturating_sub(visited);
        answer
    }

    /// A score as a value for the side to move of a position with n pieces.
    fn value_of(&self, score: i32, n: i32) -> Value {
        match score {
            0 => Value::Tie((self.cells - n) as u32),
            s if s > 0 => Value::Win((self.top - s - n) as u32),
            s => Value::Loss((self.top + s - n) as u32),
        }
    }

    /// The score of a full board with n pieces for the side to move.
    fn full_score(&self, n: i32) -> i32 {
        match self.full {
            Outcome::Win => self.top - n,
            Outcome::Loss => -(self.top - n),
            Outcome::Tie => 0,
        }
    }

    /// A number no other position shares, the same for a position and its mirror
    /// image when the game looks the same in a mirror (the lesser of the two).
    #[inline]
    fn key(&self, p: Bits) -> u64 {
        // Mirror images meet mostly in the first plies; deeper, folding them costs
        // more than it saves. Whether a position is folded depends on the position
        // alone, so its key is always the same.
        if !self.mirror || p.all.count_ones() >= MIRROR_BEFORE {
            return self.own_key(p);
        }
        self.folded_key(p)
    }

    /// The position's own number: with gravity, `mine` below one mark a column at
    /// its height (the pieces fill each column from the bottom); without, the
    /// cells of `mine`, then those of `all` (two bits a cell: at most 32 cells).
    #[inline]
    fn own_key(&self, p: Bits) -> u64 {
        if self.layout.gravity {
            p.mine | self.layout.heights(p.all)
        } else {
            self.layout.compact(p.mine) | self.layout.compact(p.all) << (self.cells as u32)
        }
    }

    /// The lesser of the numbers of the position and of its mirror image where the
    /// game looks the same in a mirror, else its own: one number an orbit, at any
    /// ply (an opening book's key).
    #[inline]
    pub(crate) fn folded_key(&self, p: Bits) -> u64 {
        let own = self.own_key(p);
        if !self.mirror {
            return own;
        }
        own.min(self.own_key(Bits { mine: self.layout.mirror(p.mine), all: self.layout.mirror(p.all) }))
    }

    /// The board's layout.
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The result of a full board for its side to move.
    pub(crate) fn full(&self) -> Outcome {
        self.full
    }
}

/// Calls `f` with each move of `p` (its cell) after which the game goes on (no
/// line, the board not full), and the position it leads to.
pub(crate) fn for_each_going_on(layout: &Layout, p: Bits, mut f: impl FnMut(u64, Bits)) {
    let mut playable = layout.playable(p.all);
    while playable != 0 {
        let cell = playable & playable.wrapping_neg();
        playable ^= cell;
        let child = Bits { mine: p.all ^ p.mine, all: p.all | cell };
        if !layout.has_line(p.mine | cell) && child.all != layout.board {
            f(cell, child);
        }
    }
}

/// The positions a value's search may still visit.
struct Budget {
    left: u64,
}

/// One thread's null-window search: progress reports, the bisection's range, and
/// the order this thread tries moves in.
struct Search<'a> {
    solver: &'a Solver,
    observer: Option<Observer<'a>>,
    since_report: u64,
    /// Positions visited, and how many it may visit before it gives up.
    visited: u64,
    limit: u64,
    /// The bisection's range of scores, for progress reports.
    bounds: (i32, i32),
    /// Pieces at the search's root.
    root: i32,
    /// 0 for the main search; helpers rotate the moves of positions near the root
    /// by their number.
    variant: usize,
    /// The small table this thread uses.
    slot: usize,
    /// Set when some thread has answered: the others stop.
    stop: &'a AtomicBool,
    /// The root's move that lifted its score to the bound returned, when the
    /// root failed high by searching a move (not from the table or a rule).
    root_move: Option<u64>,
}

impl<'a> Search<'a> {
    fn report(&mut self) {
        self.since_report = 0;
        let nodes = self.solver.nodes.fetch_add(REPORT_EVERY, Ordering::Relaxed) + REPORT_EVERY;
        if let Some(observer) = self.observer {
            let (min, max) = self.bounds;
            let worst = self.solver.value_of(min, self.root);
            let best = self.solver.value_of(max, self.root);
            observer(Progress { bounds: Some((worst, best)), ..Progress::new("search", nodes, 0) });
        }
    }

    /// The score of `p` if it lies in (alpha, beta); else a bound on it on the side
    /// of the window it fell (fail-soft); `None` once another thread has answered.
    /// `p`: no line on the board.
    ///
    /// The steps, each the module docs' rules: the visit counted
    /// ([`Search::stops`]); rules 1–4 ([`Solver::moves_to_search`]); rule 5
    /// ([`Solver::within_bounds`]); rule 6 ([`within_known`]); the moves ordered
    /// ([`Search::ordered_moves`]); then each move searched here, where a bound is
    /// stored only once every child it rests on has been searched.
    fn negamax(&mut self, p: Bits, alpha: i32, beta: i32) -> Option<i32> {
        /// A step's value where the search goes on, else the score `negamax`
        /// returns at once.
        macro_rules! or_return {
            ($step:expr) => {
                match $step {
                    ControlFlow::Continue(value) => value,
                    ControlFlow::Break(score) => return Some(score),
                }
            };
        }
        if self.stops() {
            return None;
        }
        let solver = self.solver;
        let n = p.all.count_ones() as i32;
        let moves = or_return!(solver.moves_to_search(p, n, n == self.root));
        let (alpha, beta) = or_return!(solver.within_bounds(n, alpha, beta));
        let key = solver.key(p);
        let table = self.table(n);
        let (mut alpha, beta) = or_return!(within_known(table, key, alpha, beta));
        let mut ordered = [0u32; 64];
        let count = self.ordered_moves(p, n, moves, &mut ordered);
        let theirs = p.all ^ p.mine;
        let alpha_in = alpha;
        let mut best = i32::MIN;
        for &weight in &ordered[..count] {
            let cell = 1u64 << (weight & 63);
            let child = Bits { mine: theirs, all: p.all | cell };
            let score = -self.negamax(child, -beta, -alpha)?;
            best = best.max(score);
            if score >= beta {
                table.put(key, score, i8::MAX as i32);
                if n == self.root {
                    self.root_move = Some(cell);
                }
                return Some(score);
            }
            alpha = alpha.max(score);
        }
        if best > alpha_in {
            table.put(key, best, best);
        } else {
            table.put(key, i8::MIN as i32, best);
        }
        Some(best)
    }

    /// Counts a visit and says whether the search stops there: the budget
    /// spent, or another thread has answered (asked at each report, and at
    /// every visit of a helper, which must not outlast the main search). Keeps
    /// a report every [`REPORT_EVERY`] visits.
    #[inline]
    fn stops(&mut self) -> bool {
        self.since_report += 1;
        self.visited += 1;
        if self.visited > self.limit {
            return true;
        }
        if self.since_report == REPORT_EVERY {
            self.report();
            if self.stop.load(Ordering::Relaxed) {
                return true;
            }
        }
        self.variant != 0 && self.stop.load(Ordering::Relaxed)
    }

    /// The table of a position with `n` pieces: the shared one near the root,
    /// this thread's own near the leaves. A position always goes to the same one
    /// (for this thread), so every bound read there was proven for it.
    #[inline]
    fn table(&self, n: i32) -> &'a Table {
        let solver = self.solver;
        if solver.cells - n >= solver.near_from {
            &solver.near
        } else {
            &solver.deep[self.slot]
        }
    }

    /// The moves of `moves` (`p` has `n` pieces) in the order they are searched,
    /// into `ordered` (each move as its weight above its cell's bit); how many.
    ///
    /// Moves that make the most threats first, then cells on the most lines,
    /// sorted by insertion: equal weights keep the order of their cells, so the
    /// main search's order is the same on every run. A helper rotates the moves
    /// of positions near the root by its number, to search other subtrees first.
    #[inline]
    fn ordered_moves(&self, p: Bits, n: i32, moves: u64, ordered: &mut [u32; 64]) -> usize {
        let layout = &self.solver.layout;
        let mut count = 0;
        let mut rest = moves;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            let cell = 1u64 << bit;
            rest ^= cell;
            let threats_made = layout.winning_cells(p.mine | cell, p.all | cell).count_ones();
            let weight = (threats_made << 8 | u32::from(layout.weight[bit as usize])) << 6 | bit;
            let mut at = count;
            while at > 0 && ordered[at - 1] >> 6 < weight >> 6 {
                ordered[at] = ordered[at - 1];
                at -= 1;
            }
            ordered[at] = weight;
            count += 1;
        }
        if self.variant != 0 && n - self.root < DIVERSE_PLIES && count > 1 {
            ordered[..count].rotate_left(self.variant % count);
        }
        count
    }
}

impl Solver {
    /// Rules 1 to 4 (module docs) at `p`, with `n` pieces: the moves left to
    /// search (every playable cell, or the one threat's block, less the gifts),
    /// or the score where the rules give it. Rule 2 is asked only `at_root`:
    /// below it every move searched left the side to move no win at once
    /// (rules 3 and 4 at the parent).
    #[inline]
    fn moves_to_search(&self, p: Bits, n: i32, at_root: bool) -> ControlFlow<i32, u64> {
        let layout = &self.layout;
        let top = self.top;
        // Rule 1.
        let playable = layout.playable(p.all);
        if playable == 0 {
            return ControlFlow::Break(self.full_score(n));
        }
        // Rule 2.
        if at_root && layout.winning_cells(p.mine, p.all) & playable != 0 {
            return ControlFlow::Break(top - (n + 1));
        }
        // Rules 3 and 4.
        let theirs = p.all ^ p.mine;
        let their_wins = layout.winning_cells(theirs, p.all);
        let threats = their_wins & playable;
        let mut moves = playable;
        if threats != 0 {
            if threats & (threats - 1) != 0 {
                return ControlFlow::Break(-(top - (n + 2)));
            }
            moves = threats;
        }
        if layout.gravity {
            moves &= !(their_wins >> 1);
        }
        if moves == 0 {
            return ControlFlow::Break(-(top - (n + 2)));
        }
        ControlFlow::Continue(moves)
    }

    /// Rule 5 (module docs): the window (alpha, beta) of a position with `n`
    /// pieces past rules 1–4, narrowed to the scores it can still have (no
    /// earlier loss than with n + 4 pieces, no earlier win than with n + 3),
    /// or the bound it closes on.
    #[inline]
    fn within_bounds(&self, n: i32, mut alpha: i32, mut beta: i32) -> ControlFlow<i32, (i32, i32)> {
        let top = self.top;
        let lower = -(top - (n + 4).min(self.cells));
        if alpha < lower {
            alpha = lower;
            if alpha >= beta {
                return ControlFlow::Break(alpha);
            }
        }
        let upper = top - (n + 3).min(self.cells);
        if beta > upper {
            beta = upper;
            if alpha >= beta {
                return ControlFlow::Break(beta);
            }
        }
        ControlFlow::Continue((alpha, beta))
    }
}

/// Rule 6 (module docs): the window (alpha, beta) narrowed to the bounds
/// `table` holds for `key`, or the bound that settles the position (a bound
/// stored is proven whatever window asks, so it is taken as it is).
#[inline]
fn within_known(table: &Table, key: u64, mut alpha: i32, mut beta: i32) -> ControlFlow<i32, (i32, i32)> {
    if let Some((low, high)) = table.get(key) {
        if low >= beta {
            return ControlFlow::Break(low);
        }
        if high <= alpha {
            return ControlFlow::Break(high);
        }
        alpha = alpha.max(low);
        beta = beta.min(high);
        if alpha >= beta {
            return ControlFlow::Break(alpha);
        }
    }
    ControlFlow::Continue((alpha, beta))
}
