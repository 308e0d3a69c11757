//! Negamax alpha-beta on bit sets with a transposition table, exact in value and
//! remoteness, with the knowledge the engine's search has (docs/rules-solving.md,
//! "Immediate wins in the search") read from masks.
//!
//! # Scores
//! As the engine's: `Win(r)` is `M − r`, `Loss(r)` is `−(M − r)` (here M =
//! [`M`], small enough for the table's 16 bits); a child's score `s` is
//! `−s + sign(s)` for its parent. No score is 0: the shape has no ties.
//!
//! # The rules of pruning, at a position p not over, S to move, O the other
//! 1. **A win at once.** A move of S whose child is over and lost for O makes p
//!    a win in 1, the best value a position not over has. Only moves that
//!    arrive in `ends` (a `reach` zone), promote, or capture where a capture can
//!    end the game (royal kinds, O's last piece) change the endings' word, and
//!    with the word unchanged the child is over only if O already stands in a
//!    zone of O checked after the reply (`waits`): the child's ending is read
//!    for those moves alone, or for every move when O waits (then "no win at
//!    once" is not known before the moves are generated).
//! 2. **No win at once.** Without such a move, and with O keeping a move at
//!    every child (`Layout::keeps_a_move`, or being stuck does not lose), p is
//!    at most a win in 2: a window asking for more is answered `M − 2`.
//! 3. **A move.** With a move p is at least a loss in 1; with none it is
//!    stuck, valued by the rules' `stuck` result in 0 plies.
//! 4. **Windows out of range**: p not over is at most a win in 1.
//! 5. **The table** holds proven bounds (fail-soft results of complete
//!    searches), merged by intersection; a bound narrows the window.
//!
//! The exact score is found as the engine finds it: a null window at 0 (who
//! wins), then null windows just past the bound that moved, until the range
//! holds one score.
//!
//! Moves are tried in this order: the table's best move, then captures, then
//! moves after which the moved piece threatens to reach a goal (the order of
//! the engine's `order_key`), each group in generation order.

use super::layout::{Layout, Move, Pos, NONE};
use super::set::CellSet;
use super::table::{Table, NO_LOWER, NO_MOVE, NO_UPPER};
use gsolve_engine::{Observer, Outcome, Progress, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Scores of wins: `M − remoteness` (fits 16 bits with room for the windows).
pub(crate) const M: i32 = 30_000;
const INFINITY: i32 = M + 2;

/// Positions visited between two progress reports.
const REPORT_EVERY: u64 = 1 << 16;

/// Positions a probe visits on the calling thread before helpers join it: most
/// probes of small boards end sooner than threads would start, and a larger
/// threshold keeps the helpers out of searches they would speed up.
const SOLO_NODES: u64 = 1 << 16;

/// A helper tries the moves in its own order this many plies below the root.
const DIVERSE_PLIES: usize = 2;

/// A move with what is known of its child before it is searched.
#[derive(Clone, Copy)]
struct Ranked {
    m: Move,
    /// The child's score seen from the parent when the child is over, else
    /// [`OPEN`].
    leaf: i32,
    /// The order key: 2 a capture, 1 a threat.
    key: i8,
}

/// A move as the table stores it: `from | to << 7 | promotes << 14`.
#[inline]
fn code(m: Move) -> u16 {
    m.from as u16 | (m.to as u16) << 7 | ((m.becomes != m.group) as u16) << 14
}

/// A move's code reflected left to right (for a position stored as its mirror
/// image).
#[inline]
fn reflect_code<B: CellSet>(l: &Layout<B>, code: u16) -> u16 {
    if code == NO_MOVE {
        return code;
    }
    let (from, to) = (l.reflected_cell((code & 127) as u8), l.reflected_cell((code >> 7 & 127) as u8));
    from as u16 | (to as u16) << 7 | (code & 1 << 14)
}

/// A child not over: it must be searched.
const OPEN: i32 = i32::MIN;

/// Why a search stopped short.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stopped {
    /// More positions than the budget.
    OutOfBudget,
    /// Another thread answered the probe first.
    Halted,
}

/// A child's score seen from the parent: one ply further, the other side.
#[inline]
fn parent_score(child: i32) -> i32 {
    -child + child.signum()
}

/// The window to ask a child for a parent window (α, β), as the engine's
/// `child_window`: exactly the child scores that decide the parent's question.
#[inline]
fn child_window(alpha: i32, beta: i32) -> (i32, i32) {
    let low = if beta > 0 { -beta - 1 } else { 1 - beta };
    let high = if alpha >= 0 { -alpha - 1 } else { 1 - alpha };
    (low, high)
}

/// The value of a score.
pub(crate) fn value_of_score(score: i32) -> Value {
    if score > 0 {
        Value::Win((M - score) as u32)
    } else {
        Value::Loss((M + score) as u32)
    }
}

/// The score of an ending for the side to move of the position it ends.
#[inline]
fn score_of(outcome: Outcome) -> i32 {
    match outcome {
        Outcome::Win => M,
        Outcome::Loss => -M,
        Outcome::Tie => unreachable!("the shape has no ties"),
    }
}

/// The search of one game: its layout and table, kept between positions.
pub(crate) struct Solver<B> {
    layout: Arc<Layout<B>>,
    /// Proven bounds by position, shared by the threads of a search. (A second,
    /// cache-sized table for positions far below the root helps small boards but
    /// thrashed on 5 × 5: left out.)
    table: Table,
    /// Positions visited by every thread of every search.
    pub(crate) nodes: u64,
    /// Probes that outlasted the solo walk and were searched by helpers too.
    pub(crate) helped_probes: u64,
}

/// One thread's walk of one null-window probe: its moves by depth, its counts,
/// and why it stopped.
struct Search<'a, B> {
    layout: &'a Layout<B>,
    table: &'a Table,
    /// The moves of each depth, reused.
    frames: Vec<Vec<Ranked>>,
    depth: usize,
    nodes: u64,
    /// `nodes` beyond which the walk gives up.
    stop_at: u64,
    stopped: Option<Stopped>,
    /// 0 for the calling thread, else a helper that tries the moves near the
    /// root in its own order.
    variant: usize,
    /// Set when some thread has answered the probe: the others stop.
    halt: &'a AtomicBool,
    observer: Option<Observer<'a>>,
    /// The exact driver's range, for progress reports.
    range: (i32, i32),
}

impl<B: CellSet> Solver<B> {
    pub(crate) fn new(layout: Arc<Layout<B>>, entries: usize) -> Solver<B> {
        Solver { layout, table: Table::new(entries), nodes: 0, helped_probes: 0 }
    }

    /// Bytes of the table.
    pub(crate) fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The exact score of `p` (not over) searched on up to `threads` threads,
    /// or why the search stopped: the calling thread visited more than
    /// `budget` positions.
    pub(crate) fn score(
        &mut self,
        p: &Pos<B>,
        threads: usize,
        budget: Option<u64>,
        observer: Option<Observer<'_>>,
    ) -> Result<i32, Stopped> {
        let mut left = budget.unwrap_or(u64::MAX);
        let (mut low, mut high) = (-M, M);
        let mut t = 0;
        loop {
            let s = self.probe(p, t, (low, high), threads, &mut left, observer)?;
            if s >= t {
                low = s;
            } else {
                high = s;
            }
            if low >= high {
                return Ok(low);
            }
            // Next to the bound that moved, where pruning is strongest.
            t = if s >= t { low + 1 } else { high };
        }
    }

    /// Is the score of `p` at least `t`? The fail-soft result of the null window
    /// (t − 1, t). A probe runs on the calling thread; one that has not ended
    /// after [`SOLO_NODES`] positions goes on with `threads − 1` helpers
    /// sharing the table, each trying the moves near the root in its own order
    /// so that they prove other subtrees first and store them for the others.
    /// The first thread to finish answers (any thread's answer is exact: the
    /// table holds only bounds complete searches proved) and halts the others,
    /// which store no bound of a search they cut short. `left`: the calling
    /// thread's budget (helpers count against none; the solo walk's positions
    /// count, though the threads search them again).
    fn probe(
        &mut self,
        p: &Pos<B>,
        t: i32,
        range: (i32, i32),
        threads: usize,
        left: &mut u64,
        observer: Option<Observer<'_>>,
    ) -> Result<i32, Stopped> {
        let halt = AtomicBool::new(false);
        let (layout, table) = (&*self.layout, &self.table);
        let search = |variant: usize, limit: u64, observer: Option<Observer<'_>>| {
            // A thread that panics halts the others (which have no budget), so
            // that the panic surfaces at once and not after their whole probe.
            let _halt_on_panic = HaltOnPanic(&halt);
            let mut search = Search {
                layout,
                table,
                frames: Vec::new(),
                depth: 0,
                nodes: 0,
                stop_at: limit,
                stopped: None,
                variant,
                halt: &halt,
                observer,
                range,
            };
            let s = search.negamax(p, t - 1, t);
            if search.stopped.is_none() || variant == 0 {
                // The calling thread ends its probe with the answer or out of
                // its budget; a helper only with the answer.
                halt.store(true, Ordering::Relaxed);
            }
            (search.stopped.is_none().then_some(s), search.nodes)
        };
        let solo = if threads > 1 { SOLO_NODES.min(*left) } else { *left };
        let (answer, nodes) = search(0, solo, observer);
        self.nodes += nodes;
        *left -= nodes.min(*left);
        if let Some(s) = answer {
            return Ok(s);
        }
        // Nothing halts the solo walk: it stopped on its budget.
        if *left == 0 || threads <= 1 {
            return Err(Stopped::OutOfBudget);
        }
        // What the solo walk proved is in the table: the threads start there.
        halt.store(false, Ordering::Relaxed);
        self.helped_probes += 1;
        let limit = *left;
        let (answer, nodes) = std::thread::scope(|scope| {
            let helpers: Vec<_> =
                (1..threads).map(|variant| scope.spawn(move || search(variant, u64::MAX, None))).collect();
            let (own, own_nodes) = search(0, limit, observer);
            let mut nodes = [own_nodes, 0];
            let mut answer = own;
            for helper in helpers {
                let (theirs, their_nodes) = helper.join().expect("a helper search panicked");
                answer = answer.or(theirs);
                nodes[1] += their_nodes;
            }
            (answer, nodes)
        });
        self.nodes += nodes[0] + nodes[1];
        *left -= nodes[0].min(*left);
        answer.ok_or(Stopped::OutOfBudget)
    }
}

/// Raises its flag if dropped while its thread panics.
struct HaltOnPanic<'a>(&'a AtomicBool);

impl Drop for HaltOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

impl<B: CellSet> Search<'_, B> {
    /// Does the side to move of `p` (not over) win at once? `None` when O
    /// stands in a zone checked after the reply: every move would have to be
    /// read (rule 1).
    #[inline]
    fn wins_at_once(l: &Layout<B>, p: &Pos<B>) -> Option<bool> {
        let (s, o) = (p.to_move, 1 - p.to_move);
        if l.side_groups[o].iter().any(|&g| !(p.sets[g] & l.waits[g]).is_empty()) {
            return None;
        }
        let captures_end = l.royal || (l.no_pieces[o] && p.sides[o].count() == 1);
        let (mine, enemy) = (p.sides[s], p.sides[o]);
        let empty = !(mine | enemy);
        for &g in &l.side_groups[s] {
            let movers = if captures_end { p.sets[g] } else { p.sets[g] & l.near_goal[g] };
            for from in super::set::cells(movers) {
                let targets =
                    l.targets(g, from, empty, enemy) & if captures_end { l.goals[g] | enemy } else { l.goals[g] };
                if targets.is_empty() {
                    continue;
                }
                let mut won = false;
                l.for_each_move_to(p, g, from, targets, |m| {
                    won |= l.ending(&l.play(p, m)) == Some(Outcome::Loss);
                });
                if won {
                    return Some(true);
                }
            }
        }
        Some(false)
    }

    /// Fail-soft alpha-beta: the score if strictly inside (alpha, beta), else a
    /// bound on the side it fell. `p` is not over (its endings; it may be stuck).
    fn negamax(&mut self, p: &Pos<B>, mut alpha: i32, mut beta: i32) -> i32 {
        let l = self.layout;
        self.nodes += 1;
        if self.nodes.is_multiple_of(REPORT_EVERY) {
            if let Some(observe) = self.observer {
                let range = self.range;
                let bounds = (range.0 > -M || range.1 < M).then(|| (value_of_score(range.0), value_of_score(range.1)));
                observe(Progress { bounds, ..Progress::new("search", self.nodes, 0) });
            }
        }
        if self.nodes > self.stop_at {
            self.stopped = Some(Stopped::OutOfBudget);
        } else if self.halt.load(Ordering::Relaxed) {
            self.stopped = Some(Stopped::Halted);
        }
        if self.stopped.is_some() {
            return 0;
        }
        // Where being stuck does not lose, it ends the game like an ending (the
        // engine's `terminal` says it): before any bound that assumes a move.
        if l.stuck != Outcome::Loss && !l.has_move(p) {
            return score_of(l.stuck);
        }
        // Rule 4.
        if alpha >= M - 1 {
            return M - 1;
        }
        if beta <= -M {
            return -M;
        }
        // Rules 1 and 2.
        let wins = Self::wins_at_once(l, p);
        if wins == Some(true) {
            return M - 1;
        }
        if wins == Some(false) && alpha >= M - 2 && (l.stuck != Outcome::Loss || l.keeps_a_move(p, 1 - p.to_move)) {
            return M - 2;
        }
        // Rule 5. A position and its mirror image share an entry where the game
        // looks the same in a mirror: the lesser key, its best move reflected.
        let mut key = Table::key(p, l.groups, l.cells);
        let mut mirrored = false;
        if let Some(image) = l.reflected(p) {
            let image_key = Table::key(&image, l.groups, l.cells);
            if image_key < key {
                (key, mirrored) = (image_key, true);
            }
        }
        let mut best_move = NO_MOVE;
        if let Some(known) = self.table.get(key) {
            if known.lower >= beta {
                return known.lower;
            }
            if known.upper <= alpha {
                return known.upper;
            }
            alpha = alpha.max(known.lower);
            beta = beta.min(known.upper);
            best_move = if mirrored { reflect_code(l, known.best) } else { known.best };
        }
        if self.frames.len() <= self.depth {
            self.frames.push(Vec::new());
        }
        let mut frame = std::mem::take(&mut self.frames[self.depth]);
        frame.clear();
        let o = 1 - p.to_move;
        let o_waits = wins.is_none();
        let captures_end = l.royal || (l.no_pieces[o] && p.sides[o].count() == 1);
        let mut won = None;
        l.for_each_move(p, |m| {
            let capture = m.taken != NONE;
            let may_end = o_waits
                || l.ends[m.becomes as usize].has(m.to as u32)
                || m.becomes != m.group
                || (capture && captures_end);
            let mut leaf = OPEN;
            if may_end {
                if let Some(outcome) = l.ending(&l.play(p, m)) {
                    leaf = parent_score(score_of(outcome));
                    if outcome == Outcome::Loss && won.is_none() {
                        won = Some(frame.len());
                    }
                }
            }
            frame.push(Ranked { m, leaf, key: 2 * capture as i8 });
        });
        let best = self.search_moves(p, &mut frame, won, (key, mirrored), (alpha, beta), best_move);
        self.frames[self.depth] = frame;
        best
    }

    /// The rest of [`Self::negamax`], over the moves in `frame`: `won`, a move
    /// whose child is lost at once for the opponent.
    fn search_moves(
        &mut self,
        p: &Pos<B>,
        frame: &mut [Ranked],
        won: Option<usize>,
        (key, mirrored): (u128, bool),
        (mut alpha, beta): (i32, i32),
        best_move: u16,
    ) -> i32 {
        let l = self.layout;
        // Rule 3.
        if frame.is_empty() {
            return score_of(l.stuck);
        }
        let stored = |code: u16| if mirrored { reflect_code(l, code) } else { code };
        if let Some(i) = won {
            self.table.put(key, M - 1, M - 1, stored(code(frame[i].m)), 1);
            return M - 1;
        }
        if beta <= -(M - 1) {
            return -(M - 1);
        }
        let nodes_before = self.nodes;
        let alpha_in = alpha;
        let (mut best, mut best_code) = (-INFINITY, NO_MOVE);
        // Searches move i; true on a cut-off (or a stop).
        let visit = |this: &mut Self, r: Ranked, alpha: &mut i32, best: &mut i32, best_code: &mut u16| {
            let s = if r.leaf != OPEN {
                r.leaf
            } else {
                let child = l.play(p, r.m);
                let (low, high) = child_window(*alpha, beta);
                this.depth += 1;
                let s = parent_score(this.negamax(&child, low, high));
                this.depth -= 1;
                s
            };
            if s > *best {
                *best = s;
                *best_code = code(r.m);
            }
            *alpha = (*alpha).max(s);
            *alpha >= beta || this.stopped.is_some()
        };
        // A helper near the root starts elsewhere and does not take the table's
        // move first: so that the threads prove different subtrees. (With fewer
        // moves than helpers some rotate alike: two threads never do.)
        let diverse = self.variant != 0 && self.depth < DIVERSE_PLIES && frame.len() > 1;
        if diverse {
            frame.rotate_left(self.variant % frame.len());
        }
        let first = frame.iter().position(|r| !diverse && best_move != NO_MOVE && code(r.m) == best_move);
        let cut = first.is_some_and(|i| visit(self, frame[i], &mut alpha, &mut best, &mut best_code));
        if !cut {
            // Threats are read only where the order matters.
            if frame.len() > 2 {
                for r in frame.iter_mut() {
                    if r.leaf == OPEN
                        && l.near_goal[r.m.becomes as usize].has(r.m.to as u32)
                        && l.threatens(&l.play(p, r.m), r.m)
                    {
                        r.key += 1;
                    }
                }
            }
            // By key, highest first, each key in generation order: a pass a key
            // (keys are 0 to 3), with nothing to allocate.
            'keys: for rank in (0..4).rev() {
                for (i, &r) in frame.iter().enumerate() {
                    if r.key == rank && Some(i) != first && visit(self, r, &mut alpha, &mut best, &mut best_code) {
                        break 'keys;
                    }
                }
            }
        }
        if self.stopped.is_some() {
            return 0;
        }
        let (lower, upper) = if best <= alpha_in {
            (NO_LOWER as i32, best)
        } else if best >= beta {
            (best, NO_UPPER as i32)
        } else {
            (best, best)
        };
        let work = self.nodes - nodes_before;
        self.table.put(key, lower, upper, stored(best_code), work);
        best
    }
}
