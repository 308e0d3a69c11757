//! Negamax with alpha-beta pruning and a transposition table, exact in value and
//! remoteness, for acyclic games (every line ends: in a win, a loss or a tie).
//!
//! # Scores
//! A value is a score in which a sooner win is higher and a later loss is higher:
//!
//! | value     | score          |
//! |-----------|----------------|
//! | `Win(r)`  | `MATE - r`     |
//! | `Tie(r)`  | `0`            |
//! | `Loss(r)` | `-(MATE - r)`  |
//!
//! One ply up, a child's score `s` becomes `-s + sign(s)` for the parent (the
//! opponent's win in r is our loss in r + 1; a tie stays 0). That map is
//! decreasing, so alpha-beta applies, each parent window (α, β) mapped to the
//! child's exactly (`child_window`: a null window stays one all the way down).
//!
//! A tie's remoteness is not in its score: both sides prefer a faster tie
//! ([`Value`]'s order), which no decreasing map can express. Once the score says
//! tie, step 3 finds it: the shortest line through tied positions to a tied end
//! (each tied position's remoteness is one more than its fastest tied child's),
//! or the game tells it ([`SearchHooks::tie_remoteness`]).
//!
//! # The search
//! 1. a null-window search around 0 finds who wins (cheap: pruning is strongest
//!    there, and it fills the table with good moves);
//! 2. null-window probes "is the score at least t?" step from the bound just found
//!    until the range holds one score: the exact value (MTD(f) stepping). Each
//!    fail-soft probe returns a bound that usually jumps several plies, every probe
//!    reuses the table, and probes next to the true score are the cheapest (a
//!    bisection's probes far from it must refute many fast lines);
//! 3. a tie's remoteness, as above.
//!
//! # The transposition table
//! Module `table`: two-entry buckets holding the positions themselves (a hash
//! collision never gives a wrong value), the most expensive result kept first.
//!
//! # Both cores
//! [`Searcher::value_in_parallel`] runs the same search on several threads, each
//! with a copy of the game, sharing one table: a thread finishes sooner with what
//! the others stored. A thread that meets a child another is searching leaves it
//! for last (ABDADA); the first thread to finish gives the value, exact as any
//! thread's: every entry in the table is a bound some complete search proved.
//!
//! # Hooks
//! A game may end the search early at a position ([`SearchHooks::exact_value`], or
//! in a null window with a bound that answers its question,
//! [`SearchHooks::value_bound`]), say whether the side to move wins at once
//! ([`SearchHooks::wins_at_once`]: a win in 1, or at most a win in 2) and fold
//! positions of the same value together ([`SearchHooks::canonical`],
//! [`SearchHooks::table_key`]).
//!
//! # Bounds every position has
//! A position not over with a move is at least a loss in 1 and at most a win in
//! 1, or a win in 2 once no move wins at once: windows beyond those are answered
//! without a search (docs/rules-solving.md, "Immediate wins in the search", rules 1–3).

mod table;

use crate::game::{Game, ValueLookup};
use crate::memo::FxHasher;
use crate::progress::{Observer, Progress};
use crate::value::Value;
use std::borrow::Borrow;
use std::cell::RefCell;
use std::hash::BuildHasherDefault;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use table::{Bound, Busy, Entry, Shared, Table, Transpositions};

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

    /// The exact value of `position` from a solver of the game's own, asked before
    /// any search of it (a game of a shape with a faster exact solver than this
    /// search: the rules crate's line games): `Some(Ok(value))`, or
    /// `Some(Err(SearchError::OutOfBudget { .. }))` once that solver has visited
    /// more than `budget` positions (the searcher's [`Searcher::set_node_limit`];
    /// a solver on several threads counts its calling thread's, as
    /// [`Searcher::value_in_parallel`] does).
    /// `observer` takes its progress. Default: `None`, the search runs.
    fn solve_outright(
        &self,
        _position: &Self::Position,
        _budget: Option<u64>,
        _observer: Option<Observer<'_>>,
    ) -> Option<Result<Value, SearchError>> {
        None
    }

    /// A representative of the position's symmetry class: positions with the same
    /// representative must have the same value. Default: the position itself.
    fn canonical(&self, position: &Self::Position) -> Self::Position {
        position.clone()
    }

    /// The transposition table's key for a position, and whether the position's
    /// moves come in the same order as the key's (only then does the table's best
    /// move, an index into the move order, apply to it). Positions with the same key
    /// must have the same value. Games override this to fold more than symmetries
    /// together (e.g. parts of the board no piece can reach any more). Default:
    /// [`Self::canonical`], in the same order exactly when the key is the position.
    fn table_key(&self, position: &Self::Position) -> (Self::Position, bool) {
        let key = self.canonical(position);
        let same_order = &key == position;
        (key, same_order)
    }

    /// How promising `child` looks for the side to move at `parent`: children are
    /// tried in descending key (after the table's best move, ties in the game's
    /// order). Only the order of the search changes, never a value. Default: 0.
    fn order_key(&self, _parent: &Self::Position, _child: &Self::Position) -> i32 {
        0
    }

    /// Whether the side to move at a non-terminal `position` has a move that wins
    /// at once: a child whose value is `Loss(0)` (over, lost by the side then to
    /// move, or where that side has no move, which loses: the engine's rule), if the
    /// game can tell more cheaply than by playing every move. `Some(true)` makes the
    /// position a win in 1 (the best value a position not over can have) with no
    /// move generated; `Some(false)` bounds it by a win in 2, which answers a
    /// search asking for a win in 1. Must be exact when `Some`. Default: `None`:
    /// the search looks at the children.
    fn wins_at_once(&self, _position: &Self::Position) -> Option<bool> {
        None
    }

    /// The remoteness of a position whose value is a tie, if the game knows it
    /// without searching: in a game where every move fills a cell and only a full
    /// board ties, the number of empty cells. Asked only of tied positions.
    /// Default: `None`: the search finds it (the shortest line of tied positions to
    /// a tied end).
    fn tie_remoteness(&self, _position: &Self::Position) -> Option<u32> {
        None
    }

    /// What the game knows of a non-terminal position's value without searching, as
    /// far as the search's question "is the value at least `threshold`?" needs: the
    /// exact value, or a bound on one side of the threshold ([`ValueBound`]), whose
    /// remoteness, like a value's, is below `MATE / 2`. "At least a tie, of any
    /// length" is asked as `Tie(u32::MAX)`, the worst tie. For
    /// games with values known without searching but costly, whose cheap bounds
    /// often answer (the snakes apart: bounds on each one's longest path). Asked in
    /// null windows only, where [`Self::exact_value`] would be asked. Default:
    /// [`Self::exact_value`].
    fn value_bound(&self, position: &Self::Position, _threshold: Value) -> Option<ValueBound> {
        self.exact_value(position).map(ValueBound::Exact)
    }
}

/// The answer of [`SearchHooks::value_bound`] to "is the value at least a threshold?".
///
/// | answer        | means                          | must hold         |
/// |---------------|--------------------------------|-------------------|
/// | `Exact(v)`    | the value is `v`               |                   |
/// | `AtLeast(v)`  | the value is `v` or better     | `v ≥ threshold`   |
/// | `AtMost(v)`   | the value is `v` or worse      | `v < threshold`   |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueBound {
    /// The value.
    Exact(Value),
    /// A lower bound on the value, at least the threshold.
    AtLeast(Value),
    /// An upper bound on the value, below the threshold.
    AtMost(Value),
}

/// Why a search could not give an exact answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchError {
    /// A position was valued a draw (play that goes on forever), which a search of
    /// an acyclic game cannot give: a hook's value.
    Draw,
    /// A remoteness reached half of [`MATE`]: the game is too long for the score range.
    TooDeep,
    /// The search visited more positions than its budget ([`Searcher::set_node_limit`]).
    OutOfBudget {
        /// The budget, in positions visited by one call.
        limit: u64,
    },
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Draw => {
                f.write_str("a position was valued a draw (endless play), which alpha-beta search cannot value")
            }
            SearchError::TooDeep => write!(f, "a line is longer than {} plies", MATE / 2),
            SearchError::OutOfBudget { limit } => write!(f, "gave up after visiting {limit} positions (the budget)"),
        }
    }
}

impl std::error::Error for SearchError {}

/// The score of a value: ties score 0 (their remoteness is found apart).
/// Remoteness must stay below half of [`MATE`]: win and loss scores then stay far
/// from 0 after any number of plies of adjustment.
pub fn score(value: Value) -> Result<i32, SearchError> {
    const LIMIT: u32 = MATE as u32 / 2;
    match value {
        Value::Win(r) if r < LIMIT => Ok(MATE - r as i32),
        Value::Loss(r) if r < LIMIT => Ok(-(MATE - r as i32)),
        Value::Win(_) | Value::Loss(_) => Err(SearchError::TooDeep),
        Value::Tie(_) => Ok(0),
        Value::Draw => Err(SearchError::Draw),
    }
}

/// The value of a score; a tie (0) with remoteness 0, which the caller finds.
pub fn value_of_score(score: i32) -> Value {
    match score.signum() {
        1 => Value::Win((MATE - score) as u32),
        0 => Value::Tie(0),
        _ => Value::Loss((MATE + score) as u32),
    }
}

/// The worst value whose score is at least `score` (|score| < MATE): "score ≥ 0"
/// is "at least a tie", of any length.
fn threshold_of(score: i32) -> Value {
    match score.signum() {
        1 => Value::Win((MATE - score) as u32),
        0 => Value::Tie(u32::MAX),
        _ => Value::Loss((MATE + score) as u32),
    }
}

/// A child's score seen from the parent: one ply further, other side.
#[inline]
fn parent_score(child: i32) -> i32 {
    -child + child.signum()
}

/// The window to ask a child about for a parent window (α, β): exactly the child
/// scores c ≤ the first end give the parent `parent_score(c) ≥ β`, and exactly those
/// ≥ the second give `parent_score(c) ≤ α` (no score is ±1: wins and losses are far
/// from 0, ties are 0). A null window stays a null window, at every depth.
#[inline]
fn child_window(alpha: i32, beta: i32) -> (i32, i32) {
    // parent_score(c) ≥ β: for β > 0 the child must lose, -c - 1 ≥ β; for β ≤ 0 any
    // child loss or tie does, and a child win with 1 - c ≥ β (for β = 0: c ≤ 1, no
    // win). Mirrored for α.
    let low = if beta > 0 { -beta - 1 } else { 1 - beta };
    let high = if alpha >= 0 { -alpha - 1 } else { 1 - alpha };
    (low, high)
}

/// Default largest table: 2^24 entries (about 0.5 to 1 GB, by position size).
pub const DEFAULT_TABLE_ENTRIES: usize = 1 << 24;

/// One node's children and their search order, kept per depth for reuse.
struct Frame<P> {
    children: Vec<P>,
    /// (reversed order key, child index): sorted, the order to try the children in.
    order: Vec<(std::cmp::Reverse<i32>, u32)>,
    /// Children left for last because another thread was searching them.
    deferred: Vec<u32>,
}

impl<P> Default for Frame<P> {
    fn default() -> Self {
        Frame { children: Vec::new(), order: Vec::new(), deferred: Vec::new() }
    }
}

/// Why a search stopped short.
enum Stop {
    Failed(SearchError),
    /// Another thread of a parallel search finished first.
    Halted,
}

impl Stop {
    /// The error of a search of one thread, which nothing halts.
    fn alone(self) -> SearchError {
        match self {
            Stop::Failed(e) => e,
            Stop::Halted => unreachable!("only a parallel search is halted"),
        }
    }
}

/// What a searcher keeps between searches.
struct State<P> {
    table: Table<P>,
    /// The table's largest size, in entries.
    max_entries: usize,
    walk: Walk<P>,
}

/// One thread's search, but its table.
struct Walk<P> {
    nodes: u64,
    stop: Option<Stop>,
    /// Child lists by depth, reused: no allocation per node.
    frames: Vec<Frame<P>>,
    depth: usize,
    /// Positions one call of [`Searcher::value`] may visit, if limited.
    node_limit: Option<u64>,
    /// `nodes` beyond which the current call gives up.
    stop_at: u64,
    /// The current call's score range `[low, high]`, for reports.
    window: (i32, i32),
    /// Remoteness of tied positions found so far (step 3).
    tie_remoteness: std::collections::HashMap<P, u32, BuildHasherDefault<FxHasher>>,
}

impl<P> Walk<P> {
    fn new() -> Self {
        Walk {
            nodes: 0,
            stop: None,
            frames: Vec::new(),
            depth: 0,
            node_limit: None,
            stop_at: u64::MAX,
            window: (-MATE, MATE),
            tie_remoteness: Default::default(),
        }
    }
}

/// One search: the game, the thread's walk and table, borrowed for the call, and
/// in a parallel search the flag that halts it.
struct Inner<'a, G: Game, T> {
    game: &'a G,
    s: &'a mut Walk<G::Position>,
    table: &'a mut T,
    halt: Option<&'a AtomicBool>,
}

/// Positions visited between two progress reports (a power of two).
const REPORT_EVERY: u64 = 1 << 16;

/// A searcher over one game, keeping its transposition table between searches.
///
/// Implements [`ValueLookup`]: the exact value of any position, searched on demand
/// (cheap for positions near those already searched), so the engine's line and move
/// analysis work on it.
///
/// `H` holds the game: a borrow by default, or the game itself
/// ([`Searcher::owning`]) so that a searcher, with what its table knows, can be kept
/// beyond the scope that made the game.
pub struct Searcher<'g, G: Game, H: Borrow<G> = &'g G> {
    game: H,
    state: RefCell<State<G::Position>>,
    borrows: PhantomData<&'g ()>,
}

impl<'g, G: SearchHooks> Searcher<'g, G> {
    /// A searcher with an empty table of [`DEFAULT_TABLE_ENTRIES`] entries.
    pub fn new(game: &'g G) -> Self {
        Self::with_table_entries(game, DEFAULT_TABLE_ENTRIES)
    }

    /// A searcher whose table grows to hold about `entries` results (rounded to a
    /// power of two), then replaces.
    pub fn with_table_entries(game: &'g G, entries: usize) -> Self {
        Self::with_game(game, entries)
    }
}

impl<G: SearchHooks> Searcher<'static, G, G> {
    /// A searcher that owns its game: it can be kept, with its table, as long as
    /// wanted, e.g. between the moves of a game being played.
    pub fn owning(game: G, entries: usize) -> Self {
        Self::with_game(game, entries)
    }
}

impl<'g, G: SearchHooks, H: Borrow<G>> Searcher<'g, G, H> {
    fn with_game(game: H, entries: usize) -> Self {
        let state = State { table: Table::new(entries), max_entries: entries, walk: Walk::new() };
        Searcher { game, state: RefCell::new(state), borrows: PhantomData }
    }

    /// The exact value of `position`.
    pub fn value(&self, position: &G::Position) -> Result<Value, SearchError> {
        self.search(position, None)
    }

    /// [`Searcher::value`], reporting progress to `observer` every 65,536 positions
    /// visited (step `"search"`: positions visited so far over all searches, no total,
    /// and the bounds known on the value of `position`).
    pub fn value_with_progress(
        &self,
        position: &G::Position,
        observer: Option<Observer<'_>>,
    ) -> Result<Value, SearchError> {
        self.search(position, observer)
    }

    /// The game searched.
    pub fn game(&self) -> &G {
        self.game.borrow()
    }

    fn search(&self, position: &G::Position, observer: Option<Observer<'_>>) -> Result<Value, SearchError> {
        let budget = self.state.borrow().walk.node_limit;
        if let Some(answer) = self.game.borrow().solve_outright(position, budget, observer) {
            return answer;
        }
        let state = &mut *self.state.borrow_mut();
        let mut inner = Inner { game: self.game.borrow(), s: &mut state.walk, table: &mut state.table, halt: None };
        inner.exact(position, observer).map_err(Stop::alone)
    }

    /// [`Searcher::value_with_progress`] on `1 + helpers.len()` threads: each helper, a
    /// game equal to the searcher's, runs the same search on a thread of its own,
    /// all sharing the table; the first to finish gives the value (exact: the table
    /// holds only bounds that complete searches proved) and halts the others. The
    /// table is used at its largest size from the start. The node limit, if any,
    /// holds for the calling thread's search; [`Searcher::nodes`] counts every
    /// thread's. Progress is the calling thread's.
    pub fn value_in_parallel(
        &self,
        position: &G::Position,
        helpers: Vec<G>,
        observer: Option<Observer<'_>>,
    ) -> Result<Value, SearchError>
    where
        G: Send,
        G::Position: Send + Sync,
    {
        if helpers.is_empty() {
            return self.search(position, observer);
        }
        let budget = self.state.borrow().walk.node_limit;
        if let Some(answer) = self.game.borrow().solve_outright(position, budget, observer) {
            return answer;
        }
        let state = &mut *self.state.borrow_mut();
        let shared = std::mem::replace(&mut state.table, Table::new(1)).into_shared();
        let busy = Busy::new();
        let halt = AtomicBool::new(false);
        // Each thread's result, or `None` if it was halted.
        let finish = |result: Result<Value, Stop>| {
            halt.store(true, Ordering::Relaxed);
            match result {
                Ok(value) => Some(Ok(value)),
                Err(Stop::Failed(e)) => Some(Err(e)),
                Err(Stop::Halted) => None,
            }
        };
        let (mine, theirs) = std::thread::scope(|scope| {
            let threads: Vec<_> = helpers
                .into_iter()
                .map(|game| {
                    let (shared, busy, halt, finish) = (&shared, &busy, &halt, &finish);
                    scope.spawn(move || {
                        let mut walk = Walk::new();
                        let mut table = Shared { table: shared, busy };
                        let mut inner = Inner { game: &game, s: &mut walk, table: &mut table, halt: Some(halt) };
                        let result = inner.exact(position, None);
                        (finish(result), walk.nodes)
                    })
                })
                .collect();
            let mut table = Shared { table: &shared, busy: &busy };
            let game = self.game.borrow();
            let mut inner = Inner { game, s: &mut state.walk, table: &mut table, halt: Some(&halt) };
            let mine = finish(inner.exact(position, observer));
            // A helper that panicked (a bug in a game's hooks) stands for no result.
            let theirs: Vec<_> = threads.into_iter().map(|t| t.join().unwrap_or((None, 0))).collect();
            (mine, theirs)
        });
        state.table = Table::from_shared(shared, state.max_entries);
        state.walk.nodes += theirs.iter().map(|t| t.1).sum::<u64>();
        // The calling thread's result if it finished, else the helper's that did.
        let first = mine.or_else(|| theirs.into_iter().find_map(|t| t.0));
        first.unwrap_or_else(|| unreachable!("a search that was not halted finished first"))
    }

    /// Limits each later call of [`Searcher::value`] (and each lookup) to visiting
    /// `limit` positions; beyond that it fails with [`SearchError::OutOfBudget`],
    /// storing nothing from the failed search (the table keeps what earlier calls
    /// found). `None` removes the limit. Front ends use it as a time budget.
    pub fn set_node_limit(&self, limit: Option<u64>) {
        self.state.borrow_mut().walk.node_limit = limit;
    }

    /// Positions visited so far (table probes included), over all searches.
    pub fn nodes(&self) -> u64 {
        self.state.borrow().walk.nodes
    }

    /// Entries in the transposition table.
    pub fn table_len(&self) -> usize {
        self.state.borrow().table.len
    }
}

impl<G: SearchHooks, H: Borrow<G>> ValueLookup<G> for Searcher<'_, G, H> {
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

impl<G: SearchHooks, T: Transpositions<G::Position>> Inner<'_, G, T> {
    /// Step 1, who wins (null window at 0); step 2, how fast (null windows stepping
    /// from the bound that moved); step 3, for a tie, how fast.
    fn exact(&mut self, position: &G::Position, progress: Option<Observer<'_>>) -> Result<Value, Stop> {
        self.s.stop_at = self.s.node_limit.map_or(u64::MAX, |limit| self.s.nodes.saturating_add(limit));
        let score = self.exact_score(position, progress)?;
        if score != 0 {
            return Ok(value_of_score(score));
        }
        let remoteness = self.tie_remoteness(position, progress)?;
        Ok(Value::Tie(remoteness))
    }

    /// A position's exact score (steps 1 and 2).
    fn exact_score(&mut self, position: &G::Position, progress: Option<Observer<'_>>) -> Result<i32, Stop> {
        // The score lies in [low, high]; each probe "score ≥ t?" moves one end.
        let (mut low, mut high) = (-MATE, MATE);
        let mut t = 0;
        loop {
            self.s.window = (low, high);
            let s = self.negamax(position, t - 1, t, progress);
            if let Some(stop) = self.s.stop.take() {
                return Err(stop);
            }
            if s != 0 && s.abs() <= MATE / 2 {
                return Err(Stop::Failed(SearchError::TooDeep));
            }
            if s >= t {
                low = s;
            } else {
                high = s;
            }
            if low >= high {
                return Ok(low);
            }
            // Probe just past the bound that moved: next to the truth, where
            // pruning is strongest (probes far away must refute many fast lines).
            t = if s >= t { low + 1 } else { high };
        }
    }

    /// Step 3: the remoteness of a tied position: 0 at a tied end, else one more
    /// than its fastest tied child's (a tied position has no winning child, and a
    /// losing one is worse than any tie), each child's score found by steps 1–2
    /// and each tied position's remoteness kept.
    fn tie_remoteness(&mut self, position: &G::Position, progress: Option<Observer<'_>>) -> Result<u32, Stop> {
        if let Some(r) = self.game.tie_remoteness(position) {
            return Ok(r);
        }
        match self.game.terminal(position) {
            Some(_) => return Ok(0),
            None => {
                if let Some(Value::Tie(r)) = self.game.exact_value(position) {
                    return Ok(r);
                }
            }
        }
        if let Some(&r) = self.s.tie_remoteness.get(position) {
            return Ok(r);
        }
        let mut children = Vec::new();
        self.game.for_each_child(position, |c| children.push(c));
        let mut best: Option<u32> = None;
        for child in &children {
            if self.exact_score(child, progress)? == 0 {
                let r = self.tie_remoteness(child, progress)?;
                best = Some(best.map_or(r, |b| b.min(r)));
            }
        }
        // A tied position that is not over has a tied child: its value is one.
        let r = best.map_or(0, |b| b + 1);
        self.s.tie_remoteness.insert(position.clone(), r);
        Ok(r)
    }

    /// Fail-soft alpha-beta: the result is exact if strictly inside (alpha, beta),
    /// an upper bound if ≤ alpha, a lower bound if ≥ beta.
    fn negamax(&mut self, position: &G::Position, alpha: i32, beta: i32, progress: Option<Observer<'_>>) -> i32 {
        self.s.nodes += 1;
        if self.s.nodes.is_multiple_of(REPORT_EVERY) {
            self.report(progress);
        }
        if self.s.stop.is_none() {
            if self.s.nodes > self.s.stop_at {
                self.s.stop = Some(Stop::Failed(SearchError::OutOfBudget { limit: self.s.node_limit.unwrap_or(0) }));
            } else if self.halt.is_some_and(|halt| halt.load(Ordering::Relaxed)) {
                self.s.stop = Some(Stop::Halted);
            }
        }
        if self.s.stop.is_some() {
            return 0;
        }
        let known = match self.game.terminal(position) {
            Some(outcome) => Some(outcome.value()),
            // A null window asks "is the score at least beta?": a bound that answers
            // it is as good as the value (fail-soft, it is returned as is).
            None if beta == alpha + 1 && beta.abs() < MATE => {
                let threshold = threshold_of(beta);
                self.game.value_bound(position, threshold).map(|bound| match bound {
                    ValueBound::Exact(v) => v,
                    ValueBound::AtLeast(v) => {
                        debug_assert!(v >= threshold, "a lower bound {v:?} below the threshold {threshold:?}");
                        v
                    }
                    ValueBound::AtMost(v) => {
                        debug_assert!(v < threshold, "an upper bound {v:?} not below the threshold {threshold:?}");
                        v
                    }
                })
            }
            None => self.game.exact_value(position),
        };
        if let Some(v) = known {
            return score(v).unwrap_or_else(|e| {
                self.s.stop = Some(Stop::Failed(e));
                0
            });
        }
        // A game that is not over yet needs at least one more ply to end: no window
        // beyond that needs a search (deep in a probe, windows drift out of range).
        if alpha >= MATE - 1 {
            return MATE - 1;
        }
        if beta <= -MATE {
            return -MATE;
        }
        // Immediate wins (docs/rules-solving.md, "Immediate wins in the search", rules 1
        // and 2): a win in 1 is the best value a position not over can have; without
        // one, the value is at most a win in 2, which answers a window that asks for
        // more (the probes' deepest positions are asked whether they win at once).
        let no_win_at_once = match self.game.wins_at_once(position) {
            Some(true) => return MATE - 1,
            Some(false) if alpha >= MATE - 2 => return MATE - 2,
            Some(false) => true,
            None => false,
        };
        // The stored best move is in the move order of the stored orientation.
        let (key, same_orientation) = self.game.table_key(position);
        let mut tt_best = u16::MAX;
        if let Some(e) = self.table.get(&key) {
            match e.bound {
                Bound::Exact => return e.score,
                Bound::Lower if e.score >= beta => return e.score,
                Bound::Upper if e.score <= alpha => return e.score,
                _ => {}
            }
            if same_orientation {
                tt_best = e.best;
            }
        }
        if self.s.frames.len() <= self.s.depth {
            self.s.frames.push(Frame::default());
        }
        let mut frame = std::mem::take(&mut self.s.frames[self.s.depth]);
        frame.children.clear();
        self.game.for_each_child(position, |c| frame.children.push(c));
        self.s.depth += 1;
        // In a parallel search, the others see this position busy until it is done.
        let mark = self.table.busy().map(|busy| {
            let mark = Busy::mark_of(position);
            busy.enter(mark);
            mark
        });
        let best = self.search_children(
            position,
            key,
            (same_orientation, no_win_at_once),
            tt_best,
            &mut frame,
            (alpha, beta),
            progress,
        );
        if let (Some(busy), Some(mark)) = (self.table.busy(), mark) {
            busy.leave(mark);
        }
        self.s.depth -= 1;
        self.s.frames[self.s.depth] = frame;
        best
    }

    /// The rest of [`Self::negamax`], over the position's children (in `frame`);
    /// `key` is the position's table key; `no_win_at_once` when the game said no
    /// move wins at once ([`SearchHooks::wins_at_once`]).
    #[allow(clippy::too_many_arguments)]
    fn search_children(
        &mut self,
        position: &G::Position,
        key: G::Position,
        (same_orientation, no_win_at_once): (bool, bool),
        tt_best: u16,
        frame: &mut Frame<G::Position>,
        (mut alpha, beta): (i32, i32),
        progress: Option<Observer<'_>>,
    ) -> i32 {
        let Frame { children, order, deferred } = frame;
        let children = &*children;
        if children.is_empty() {
            return -MATE; // no move: lost now (the engine's rule)
        }
        // With a move, the value is at least a loss in 1 (every child's is at most
        // a win in 0): a window that asks no more is answered (docs/rules-solving.md,
        // "Immediate wins in the search", rule 3).
        if beta <= -(MATE - 1) {
            return -(MATE - 1);
        }
        // A move that ends the game in our favour is the fastest possible win.
        if !no_win_at_once {
            if let Some(i) = children.iter().position(|c| self.game.terminal(c) == Some(crate::Outcome::Loss)) {
                let win = MATE - 1;
                self.store(key, win, Bound::Exact, i, 1);
                return win;
            }
        }
        let nodes_before = self.s.nodes;
        let alpha0 = alpha;
        let (mut best, mut best_index) = (-INFINITY, 0);
        // The table's move first; the others are only ordered if it does not cut off.
        let tt_best = usize::from(tt_best);
        let first = (tt_best < children.len()).then_some(tt_best);
        // Searches child i; true on a cut-off.
        let visit = |this: &mut Self, i: usize, alpha: &mut i32, best: &mut i32, best_index: &mut usize| {
            let s = this.child_score(&children[i], *alpha, beta, progress);
            if s > *best {
                *best = s;
                *best_index = i;
            }
            *alpha = (*alpha).max(*best);
            *alpha >= beta
        };
        if let Some(i) = first {
            visit(self, i, &mut alpha, &mut best, &mut best_index);
        }
        if alpha < beta {
            order.clear();
            order.extend((0..children.len()).filter(|&i| i != tt_best).map(|i| (std::cmp::Reverse(0), i as u32)));
            // Keys only matter between two or more children.
            if order.len() > 1 {
                for entry in order.iter_mut() {
                    entry.0 = std::cmp::Reverse(self.game.order_key(position, &children[entry.1 as usize]));
                }
                order.sort_unstable();
            }
            // In a parallel search, children another thread is searching go last
            // (but the first one searched: a cut-off there spares the others).
            deferred.clear();
            let parallel = self.table.busy().is_some();
            let mut cut = false;
            for (n, &(_, i)) in order.iter().enumerate() {
                if parallel && (first.is_some() || n > 0) && self.is_busy(&children[i as usize]) {
                    deferred.push(i);
                    continue;
                }
                if visit(self, i as usize, &mut alpha, &mut best, &mut best_index) {
                    cut = true;
                    break;
                }
            }
            if !cut {
                for &i in deferred.iter() {
                    if visit(self, i as usize, &mut alpha, &mut best, &mut best_index) {
                        break;
                    }
                }
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let work = self.s.nodes - nodes_before;
        self.store(key, best, bound, if same_orientation { best_index } else { usize::from(u16::MAX) }, work);
        best
    }

    /// Whether another thread of a parallel search is searching `position`.
    #[inline]
    fn is_busy(&self, position: &G::Position) -> bool {
        self.table.busy().is_some_and(|busy| busy.is_busy(Busy::mark_of(position)))
    }

    /// A child's score (or bound) for a parent searched with window (α, β), seen from
    /// the parent.
    fn child_score(&mut self, child: &G::Position, alpha: i32, beta: i32, progress: Option<Observer<'_>>) -> i32 {
        let (low, high) = child_window(alpha, beta);
        parent_score(self.negamax(child, low, high, progress))
    }

    /// Tells the observer how far the search is.
    fn report(&self, progress: Option<Observer<'_>>) {
        if let Some(observe) = progress {
            let (low, high) = self.s.window;
            let bounds = (low > -MATE || high < MATE).then(|| (value_of_score(low), value_of_score(high)));
            observe(Progress { bounds, ..Progress::new("search", self.s.nodes, 0) });
        }
    }

    /// Records a result, unless the search has failed: a failed search returns
    /// placeholder scores that must never reach the table.
    fn store(&mut self, position: G::Position, score: i32, bound: Bound, best: usize, work: u64) {
        if self.s.stop.is_some() {
            return;
        }
        let best = u16::try_from(best).unwrap_or(u16::MAX);
        let work = u32::try_from(work).unwrap_or(u32::MAX);
        self.table.insert(Entry { position, score, bound, best, work });
    }
}
