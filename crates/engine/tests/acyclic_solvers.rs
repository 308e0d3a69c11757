//! The three solvers for acyclic games against a naive reference solver, on random DAGs.
//!
//! A *DAG game* is an explicit move graph whose node ids are a topological order:
//! every move of node `i` leads to a node with a smaller id (duplicate moves allowed).
//! Random DAGs are solved by
//! - [`memo`]: forward search with a memo table, from every node (a fresh table per
//!   start, and one table shared by all starts),
//! - [`search`]: alpha-beta with a transposition table, from every node (a fresh
//!   [`Searcher`] per start, and one searcher shared by all starts), with the default
//!   [`SearchHooks`] and with hooks that reveal the exact value of some positions,
//! - [`layered`]: the one-sweep solver, with layers that are runs of ids,
//!
//! and every node's value must equal [`naive_values`]: a deliberately simple
//! round-by-round solver written here, sharing nothing with the engine but [`Value`]'s
//! order and `parent_view`. [`line::principal_line`] is checked on each solver's
//! answers (the searcher, the memo table and the layered solution all implement
//! [`ValueLookup`]).
//!
//! Also: graphs with cycles (memo must report [`memo::CycleError`] exactly for the
//! starts that reach a cycle), graphs with ties (`search` does not support them),
//! search with a tiny table (replacement) and with symmetry folding
//! ([`SearchHooks::canonical`]), games that break the [`Layered`] invariant (the
//! layered solver must panic), a big DAG with layers wider than the layered solver's
//! parallel chunk, and deep chains for the recursion depth of memo and search.
//!
//! Tests labelled "Regression" reproduce engine bugs found here, since fixed.

use gsolve_engine::line::{self, LineEnd};
use gsolve_engine::memo::{self, MemoSolution};
use gsolve_engine::search::{self, SearchError, SearchHooks, Searcher, ValueBound, MATE};
use gsolve_engine::{layered, Game, Indexed, Layered, Outcome, Solution, Value, ValueLookup};
use proptest::prelude::*;
use std::cell::Cell;
use std::fmt::Write as _;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, Ordering};

// ---------------------------------------------------------------------------------
// The DAG game
// ---------------------------------------------------------------------------------

/// One slot of a DAG game.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    /// An index that names no position (no move leads there).
    Hole,
    /// The game is over here, seen by the side to move.
    Terminal(Outcome),
    /// Move `m` leads to node `edges[m]`; no edges: the side to move is stuck (lost).
    Inner(Vec<u64>),
}

/// An explicit move graph as a game. Position = node id = index.
#[derive(Clone)]
struct Dag {
    nodes: Vec<Node>,
    /// The layers for [`Layered`], in solving order.
    layers: Vec<Range<u64>>,
}

impl Dag {
    /// A game with one layer per node (always valid when children have smaller ids).
    fn new(nodes: Vec<Node>) -> Self {
        let layers = (0..nodes.len() as u64).map(|i| i..i + 1).collect();
        Dag { nodes, layers }
    }

    fn node(&self, p: u64) -> &Node {
        match &self.nodes[p as usize] {
            Node::Hole => panic!("position {p} is a hole"),
            node => node,
        }
    }

    /// The children of a position, in move order (none for a terminal).
    fn children(&self, p: u64) -> &[u64] {
        match self.node(p) {
            Node::Inner(edges) => edges,
            _ => &[],
        }
    }

    /// The ids that name positions.
    fn positions(&self) -> impl DoubleEndedIterator<Item = u64> + '_ {
        (0..self.nodes.len() as u64).filter(|&i| self.nodes[i as usize] != Node::Hole)
    }

    fn has_ties(&self) -> bool {
        self.nodes.contains(&Node::Terminal(Outcome::Tie))
    }

    /// A compact listing for failure messages.
    fn describe(&self) -> String {
        let mut s = format!("DAG of {} nodes, layers {:?}:\n", self.nodes.len(), self.layers);
        for (i, node) in self.nodes.iter().enumerate() {
            match node {
                Node::Hole => writeln!(s, "  {i}: hole"),
                Node::Terminal(o) => writeln!(s, "  {i}: {o:?}"),
                Node::Inner(edges) => writeln!(s, "  {i}: -> {edges:?}"),
            }
            .unwrap();
        }
        s
    }
}

impl std::fmt::Debug for Dag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Game for Dag {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        match self.node(*p) {
            Node::Terminal(o) => Some(*o),
            _ => None,
        }
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        moves.extend(0..self.children(*p).len());
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.children(*p)[*mv]
    }
}

impl Indexed for Dag {
    fn index_size(&self) -> u64 {
        self.nodes.len() as u64
    }

    fn index(&self, p: &u64) -> u64 {
        *p
    }

    fn position(&self, index: u64) -> Option<u64> {
        match self.nodes.get(index as usize)? {
            Node::Hole => None,
            _ => Some(index),
        }
    }
}

impl Layered for Dag {
    fn for_each_layer(&self, mut f: impl FnMut(Range<u64>)) {
        for layer in &self.layers {
            f(layer.clone());
        }
    }
}

/// The default hooks: no early exit.
impl SearchHooks for Dag {}

/// The same game with hooks that know the exact value of some non-terminal positions.
struct Oracle<'a> {
    dag: &'a Dag,
    known: Vec<Option<Value>>,
    /// Times the search took a value from the hook.
    hits: Cell<u64>,
    /// Times a position with a known value was expanded anyway (should not happen: the
    /// hook is there to end the search early).
    expanded_known: Cell<u64>,
    /// Times the hook was asked about a terminal position (the contract says
    /// non-terminal positions only).
    asked_terminal: Cell<u64>,
}

impl<'a> Oracle<'a> {
    fn new(dag: &'a Dag, known: Vec<Option<Value>>) -> Self {
        Oracle { dag, known, hits: Cell::new(0), expanded_known: Cell::new(0), asked_terminal: Cell::new(0) }
    }
}

impl Game for Oracle<'_> {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.dag.terminal(p)
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        if self.known[*p as usize].is_some() {
            self.expanded_known.set(self.expanded_known.get() + 1);
        }
        self.dag.moves(p, moves)
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.dag.play(p, mv)
    }
}

impl SearchHooks for Oracle<'_> {
    fn exact_value(&self, p: &u64) -> Option<Value> {
        if self.dag.terminal(p).is_some() {
            self.asked_terminal.set(self.asked_terminal.get() + 1);
        }
        let v = self.known[*p as usize];
        if v.is_some() {
            self.hits.set(self.hits.get() + 1);
        }
        v
    }
}

// ---------------------------------------------------------------------------------
// The naive solver
// ---------------------------------------------------------------------------------

/// The value of a finished game, written out here rather than taken from the engine.
fn outcome_value(o: Outcome) -> Value {
    match o {
        Outcome::Win => Value::Win(0),
        Outcome::Loss => Value::Loss(0),
        Outcome::Tie => Value::Tie(0),
    }
}

/// Every position's value, round by round: a position gets its value once all its
/// children have one (the best of `child.parent_view()` by `Value`'s order; `Loss(0)`
/// without moves). Works on any graph: positions left without a value are exactly
/// those that can reach a cycle (and holes).
fn naive_values(nodes: &[Node]) -> Vec<Option<Value>> {
    let mut values: Vec<Option<Value>> = vec![None; nodes.len()];
    loop {
        let mut changed = false;
        for i in 0..nodes.len() {
            if values[i].is_some() {
                continue;
            }
            let value = match &nodes[i] {
                Node::Hole => None,
                Node::Terminal(o) => Some(outcome_value(*o)),
                Node::Inner(edges) => {
                    let mut best = Value::Loss(0);
                    let mut all_known = true;
                    for (k, &c) in edges.iter().enumerate() {
                        match values[c as usize] {
                            Some(v) if k == 0 || v.parent_view() > best => best = v.parent_view(),
                            Some(_) => {}
                            None => all_known = false,
                        }
                    }
                    all_known.then_some(best)
                }
            };
            if value.is_some() {
                values[i] = value;
                changed = true;
            }
        }
        if !changed {
            return values;
        }
    }
}

/// Which nodes `start` reaches (itself included), following moves of non-terminals.
fn reachable(dag: &Dag, start: u64) -> Vec<bool> {
    let mut seen = vec![false; dag.nodes.len()];
    let mut stack = vec![start];
    seen[start as usize] = true;
    while let Some(p) = stack.pop() {
        for &c in dag.children(p) {
            if !seen[c as usize] {
                seen[c as usize] = true;
                stack.push(c);
            }
        }
    }
    seen
}

/// Whether `p` lies on a cycle (reaches itself in one move or more).
fn on_cycle(dag: &Dag, p: u64) -> bool {
    dag.children(p).iter().any(|&c| reachable(dag, c)[p as usize])
}

/// Whether some terminal tie is reachable from `start`.
fn reaches_tie(dag: &Dag, start: u64) -> bool {
    reachable(dag, start).iter().enumerate().any(|(i, &r)| r && dag.nodes[i] == Node::Terminal(Outcome::Tie))
}

// ---------------------------------------------------------------------------------
// Random DAGs
// ---------------------------------------------------------------------------------

/// SplitMix64: a tiny deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }
}

/// A random node list: 1..=60 nodes, each terminal (Win/Loss, Tie with `ties`) or
/// non-terminal with 0..=5 moves to smaller ids (duplicates allowed).
fn random_nodes(rng: &mut Rng, ties: bool) -> Vec<Node> {
    let n = 1 + rng.below(60) as usize;
    let mut terminal_pct = match rng.below(3) {
        0 => rng.below(8),
        1 => rng.below(40),
        _ => rng.below(80),
    };
    let mut max_edges = 1 + rng.below(5);
    // Moves to the node just below (or two below): long chains, deep values.
    let mut near_pct = if rng.percent(40) { 0 } else { rng.below(101) };
    let mut min_edges = 0;
    if rng.percent(25) {
        // Long chains: few terminals, one or two moves, nearly all to the next nodes
        // down, rarely stuck.
        terminal_pct = rng.below(3);
        min_edges = u64::from(rng.percent(90));
        max_edges = 1 + rng.below(2);
        near_pct = 85 + rng.below(16);
    }
    let outcomes: &[Outcome] =
        if ties { &[Outcome::Win, Outcome::Loss, Outcome::Tie] } else { &[Outcome::Win, Outcome::Loss] };
    (0..n)
        .map(|i| {
            if rng.percent(terminal_pct) {
                return Node::Terminal(outcomes[rng.below(outcomes.len() as u64) as usize]);
            }
            let count = if i == 0 { 0 } else { min_edges + rng.below(max_edges + 1 - min_edges) };
            let mut edges: Vec<u64> = (0..count)
                .map(|_| {
                    if rng.percent(near_pct) {
                        i as u64 - 1 - rng.below(i.min(2) as u64)
                    } else {
                        rng.below(i as u64)
                    }
                })
                .collect();
            if !edges.is_empty() && rng.percent(10) {
                edges.push(edges[rng.below(edges.len() as u64) as usize]); // a duplicate move
            }
            Node::Inner(edges)
        })
        .collect()
}

/// Turns some nodes that no move leads to into holes.
fn punch_holes(rng: &mut Rng, nodes: &mut [Node], pct: u64) {
    let mut has_parent = vec![false; nodes.len()];
    for node in nodes.iter() {
        if let Node::Inner(edges) = node {
            for &c in edges {
                has_parent[c as usize] = true;
            }
        }
    }
    for (node, parent) in nodes.iter_mut().zip(has_parent) {
        if !parent && rng.percent(pct) {
            *node = Node::Hole;
        }
    }
}

/// The length of the longest line from each node (holes and terminals: 0).
fn levels(nodes: &[Node]) -> Vec<u64> {
    let mut level = vec![0u64; nodes.len()];
    for i in 0..nodes.len() {
        if let Node::Inner(edges) = &nodes[i] {
            level[i] = edges.iter().map(|&c| level[c as usize] + 1).max().unwrap_or(0);
        }
    }
    level
}

/// Renumbers the nodes by level (ties by id): children still have smaller ids, and
/// each level is a contiguous run. Returns the new nodes and the levels' ranges.
fn sort_by_level(nodes: Vec<Node>) -> (Vec<Node>, Vec<Range<u64>>) {
    let level = levels(&nodes);
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by_key(|&i| (level[i], i));
    let mut new_id = vec![0u64; nodes.len()];
    for (new, &old) in order.iter().enumerate() {
        new_id[old] = new as u64;
    }
    let sorted: Vec<Node> = order
        .iter()
        .map(|&old| match &nodes[old] {
            Node::Inner(edges) => Node::Inner(edges.iter().map(|&c| new_id[c as usize]).collect()),
            other => other.clone(),
        })
        .collect();
    let mut layers: Vec<Range<u64>> = Vec::new();
    for (new, &old) in order.iter().enumerate() {
        let new = new as u64;
        match layers.last_mut() {
            Some(last) if level[order[last.start as usize]] == level[old] => last.end = new + 1,
            _ => layers.push(new..new + 1),
        }
    }
    (sorted, layers)
}

/// Runs of ids as layers: a new layer starts where a node has a child in the current
/// run (forced), or at random (`split_pct`); with `empty_pct`, empty layers are mixed in.
fn runs_as_layers(rng: &mut Rng, nodes: &[Node], split_pct: u64, empty_pct: u64) -> Vec<Range<u64>> {
    let mut layers = Vec::new();
    let mut start = 0u64;
    for i in 0..nodes.len() as u64 {
        let forced = match &nodes[i as usize] {
            Node::Inner(edges) => edges.iter().any(|&c| c >= start),
            _ => false,
        };
        if i > start && (forced || rng.percent(split_pct)) {
            layers.push(start..i);
            start = i;
        }
        if rng.percent(empty_pct) {
            layers.push(start..start);
        }
    }
    layers.push(start..nodes.len() as u64);
    layers
}

/// A random DAG with its layers, from a seed.
fn random_dag(seed: u64, ties: bool) -> Dag {
    let mut rng = Rng(seed);
    let mut nodes = random_nodes(&mut rng, ties);
    if rng.percent(30) {
        let pct = rng.below(60);
        punch_holes(&mut rng, &mut nodes, pct);
    }
    if rng.percent(40) {
        let (nodes, layers) = sort_by_level(nodes);
        return Dag { nodes, layers };
    }
    let split_pct = if rng.percent(50) { 0 } else { rng.below(101) };
    let empty_pct = if rng.percent(80) { 0 } else { rng.below(20) };
    let layers = runs_as_layers(&mut rng, &nodes, split_pct, empty_pct);
    Dag { nodes, layers }
}

// ---------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------

/// Compares one solver's answer with the naive value of `p`.
fn expect(who: &str, p: u64, got: Option<Value>, want: Option<Value>) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{who}: position {p} got {got:?}, naive solver says {want:?}"))
    }
}

/// Memo search from every position: a fresh table per start (whose entries must be
/// exactly the positions reached, with their values), and one table for all starts.
fn check_memo(dag: &Dag, naive: &[Option<Value>], rng: &mut Rng) -> Result<(), String> {
    for s in dag.positions() {
        let solution = memo::solve(dag, &s).map_err(|e| format!("memo::solve from {s}: {e}"))?;
        let reach = reachable(dag, s);
        let count = reach.iter().filter(|&&r| r).count();
        if solution.len() != count {
            return Err(format!(
                "memo::solve from {s}: table has {} entries, {count} positions reachable",
                solution.len()
            ));
        }
        for p in dag.positions() {
            let want = if reach[p as usize] { naive[p as usize] } else { None };
            expect(&format!("memo::solve from {s}, table"), p, solution.value(&p), want)?;
            expect(&format!("memo::solve from {s}, lookup"), p, solution.lookup(dag, &p), want)?;
        }
        let mut again = MemoSolution::new();
        expect("MemoSolution::search (fresh)", s, again.search(dag, &s).ok(), naive[s as usize])?;
    }
    let mut shared = MemoSolution::new();
    for s in shuffled(dag.positions().collect(), rng) {
        expect("MemoSolution::search (shared)", s, shared.search(dag, &s).ok(), naive[s as usize])?;
    }
    for s in dag.positions() {
        expect("shared memo table", s, shared.value(&s), naive[s as usize])?;
    }
    check_lines(dag, naive, &shared, "memo table")
}

fn shuffled<T>(mut items: Vec<T>, rng: &mut Rng) -> Vec<T> {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i as u64 + 1) as usize);
    }
    items
}

/// Alpha-beta search of every position of a tie-free DAG: fresh searchers, one shared
/// searcher (two passes in random order), and the same with hooks that know some values.
fn check_search(dag: &Dag, naive: &[Option<Value>], rng: &mut Rng) -> Result<(), String> {
    for s in dag.positions() {
        let (v, searcher) = search::solve(dag, &s).map_err(|e| format!("search::solve from {s}: {e}"))?;
        expect("search::solve", s, Some(v), naive[s as usize])?;
        expect("search::solve, asked again", s, searcher.value(&s).ok(), naive[s as usize])?;
        if searcher.nodes() == 0 {
            return Err(format!("search::solve from {s}: no nodes counted"));
        }
        let fresh = Searcher::new(dag);
        expect("Searcher::value (fresh)", s, fresh.value(&s).ok(), naive[s as usize])?;
    }
    let shared = Searcher::new(dag);
    for pass in 0..2 {
        for s in shuffled(dag.positions().collect(), rng) {
            expect(&format!("Searcher::value (shared, pass {pass})"), s, shared.value(&s).ok(), naive[s as usize])?;
        }
    }
    let inner = dag.positions().filter(|&p| dag.terminal(&p).is_none()).count();
    if shared.table_len() > inner {
        return Err(format!(
            "shared searcher: {} table entries, only {inner} non-terminal positions",
            shared.table_len()
        ));
    }
    check_lines(dag, naive, &shared, "searcher (shared)")?;

    // A table far too small: results are forgotten and replaced, never wrong.
    let entries = [1usize, 2, 8, 64][rng.below(4) as usize];
    let tiny = Searcher::with_table_entries(dag, entries);
    for s in shuffled(dag.positions().collect(), rng) {
        expect(&format!("Searcher::value ({entries}-entry table)"), s, tiny.value(&s).ok(), naive[s as usize])?;
    }
    if tiny.table_len() > entries.max(2) {
        return Err(format!("a table of {entries} entries holds {}", tiny.table_len()));
    }
    check_lines(dag, naive, &tiny, "searcher (tiny table)")?;

    // Hooks that know the value of some non-terminal positions.
    let pct = [10, 30, 60, 100][rng.below(4) as usize];
    let known: Vec<Option<Value>> = (0..dag.nodes.len() as u64)
        .map(|p| {
            let inner = dag.nodes[p as usize] != Node::Hole && dag.terminal(&p).is_none();
            if inner && rng.percent(pct) {
                naive[p as usize]
            } else {
                None
            }
        })
        .collect();
    let oracle = Oracle::new(dag, known);
    for s in dag.positions() {
        let (v, _) = search::solve(&oracle, &s).map_err(|e| format!("search::solve (hooks) from {s}: {e}"))?;
        expect("search::solve (hooks)", s, Some(v), naive[s as usize])?;
    }
    let shared = Searcher::new(&oracle);
    for s in shuffled(dag.positions().collect(), rng) {
        expect("Searcher::value (hooks, shared)", s, shared.value(&s).ok(), naive[s as usize])?;
    }
    if oracle.expanded_known.get() > 0 {
        return Err(format!(
            "hooks: {} expansions of positions whose value the hook gives",
            oracle.expanded_known.get()
        ));
    }
    if oracle.asked_terminal.get() > 0 {
        return Err(format!("hooks: asked about a terminal position {} times", oracle.asked_terminal.get()));
    }
    Ok(())
}

/// The principal line from every position: `r` plies for a value with remoteness `r`,
/// each ply played from a position with its value by a move that keeps it.
fn check_lines<L: ValueLookup<Dag>>(dag: &Dag, naive: &[Option<Value>], values: &L, who: &str) -> Result<(), String> {
    for s in dag.positions() {
        let want = naive[s as usize].expect("acyclic");
        let line = line::principal_line(dag, values, &s, dag.nodes.len() + 1);
        let r = want.remoteness().expect("no draws in a DAG") as usize;
        if line.end != LineEnd::GameOver || line.plies.len() != r {
            return Err(format!(
                "{who}: line from {s} ({want:?}) has {} plies and ends {:?}",
                line.plies.len(),
                line.end
            ));
        }
        let mut p = s;
        for (k, ply) in line.plies.iter().enumerate() {
            let value = naive[p as usize].unwrap();
            let child = dag.play(&p, &ply.mv);
            let move_value = naive[child as usize].unwrap().parent_view();
            if ply.before != p || ply.value != value || move_value != value {
                return Err(format!(
                    "{who}: line from {s}, ply {k}: {ply:?} at position {p} ({value:?}), move worth {move_value:?}"
                ));
            }
            p = child;
        }
        if line.end_position != p || naive[p as usize].unwrap().remoteness() != Some(0) {
            return Err(format!(
                "{who}: line from {s} ends at {:?}, expected {p} with remoteness 0",
                line.end_position
            ));
        }
    }
    Ok(())
}

/// The layered solver: every index, holes included; then the lines on its solution.
fn check_layered(dag: &Dag, naive: &[Option<Value>]) -> Result<Solution, String> {
    let solution = layered::solve(dag);
    if solution.len() != dag.nodes.len() as u64 {
        return Err(format!("layered: solution of {} indices for {} nodes", solution.len(), dag.nodes.len()));
    }
    for p in 0..dag.nodes.len() as u64 {
        expect("layered", p, solution.value(p), naive[p as usize])?;
    }
    check_lines(dag, naive, &solution, "layered solution")?;
    Ok(solution)
}

/// `search` on a DAG with ties, from every start (fresh searchers): the exact
/// value, ties and their remoteness included. Counts in `stats` the starts whose
/// value is a tie, and those that are a win or loss with a tie reachable (where
/// the tie must be searched past) or without.
fn check_search_with_ties(dag: &Dag, naive: &[Option<Value>], stats: &mut TieStats) -> Result<(), String> {
    for s in dag.positions() {
        let want = naive[s as usize].unwrap();
        let got = search::solve(dag, &s).map(|(v, _)| v);
        if got != Ok(want) {
            return Err(format!("search::solve from {s}: got {got:?}, naive {want:?}"));
        }
        match want {
            Value::Tie(_) => stats.tie_value += 1,
            _ if reaches_tie(dag, s) => stats.tie_reachable += 1,
            _ => stats.tie_free += 1,
        }
    }
    Ok(())
}

/// One searcher for every start of a DAG with ties, in random order: each answer is
/// the exact value (what earlier searches left in the table never misleads).
fn check_shared_search_with_ties(dag: &Dag, naive: &[Option<Value>], rng: &mut Rng) -> Result<(), String> {
    let shared = Searcher::new(dag);
    let mut asked = Vec::new();
    for s in shuffled(dag.positions().chain(dag.positions()).collect(), rng) {
        let want = naive[s as usize].unwrap();
        let got = shared.value(&s);
        asked.push((s, got.clone()));
        if got != Ok(want) {
            return Err(format!("shared searcher from {s}: got {got:?}, naive {want:?}; asked before: {asked:?}"));
        }
    }
    Ok(())
}

/// The search on two or three threads sharing a table ([`Searcher::value_in_parallel`])
/// from random starts, ties included: one searcher kept across the calls (its table
/// goes to the threads and back each time) with a table of a random size; then the
/// same with a node limit, which gives the exact value or `OutOfBudget`, never a
/// wrong one, and leaves the searcher usable.
fn check_parallel_search(dag: &Dag, naive: &[Option<Value>], rng: &mut Rng) -> Result<(), String> {
    let entries = [2usize, 64, 1 << 12][rng.below(3) as usize];
    let searcher = Searcher::with_table_entries(dag, entries);
    let helpers = 1 + rng.below(2) as usize;
    let starts = shuffled(dag.positions().collect(), rng);
    for &s in starts.iter().take(6) {
        let got = searcher.value_in_parallel(&s, vec![dag.clone(); helpers], None);
        let want = naive[s as usize].unwrap();
        if got != Ok(want) {
            return Err(format!(
                "value_in_parallel ({helpers} helpers, {entries} entries) from {s}: got {got:?}, naive {want:?}"
            ));
        }
    }
    if searcher.nodes() == 0 {
        return Err("value_in_parallel: no nodes counted".into());
    }
    let limited = Searcher::with_table_entries(dag, entries);
    limited.set_node_limit(Some(1 + rng.below(20)));
    for &s in starts.iter().take(6) {
        let want = naive[s as usize].unwrap();
        match limited.value_in_parallel(&s, vec![dag.clone(); helpers], None) {
            Ok(v) if v == want => {}
            Err(SearchError::OutOfBudget { .. }) => {}
            got => return Err(format!("value_in_parallel with a node limit from {s}: got {got:?}, naive {want:?}")),
        }
    }
    limited.set_node_limit(None);
    for &s in starts.iter().take(3) {
        let got = limited.value(&s);
        let want = naive[s as usize].unwrap();
        if got != Ok(want) {
            return Err(format!("after a limited parallel search, value from {s}: got {got:?}, naive {want:?}"));
        }
    }
    Ok(())
}

#[derive(Default, Debug)]
struct TieStats {
    tie_free: u64,
    tie_value: u64,
    tie_reachable: u64,
}

/// All checks on one DAG.
fn check_dag(dag: &Dag, rng: &mut Rng, stats: &mut TieStats) -> Result<(), String> {
    let naive = naive_values(&dag.nodes);
    for p in dag.positions() {
        if naive[p as usize].is_none() {
            return Err(format!("naive solver left position {p} without a value: not a DAG"));
        }
    }
    check_memo(dag, &naive, rng)?;
    check_layered(dag, &naive)?;
    if rng.percent(25) {
        check_parallel_search(dag, &naive, rng)?;
    }
    if dag.has_ties() {
        check_search_with_ties(dag, &naive, stats)
    } else {
        check_search(dag, &naive, rng)
    }
}

// ---------------------------------------------------------------------------------
// Random DAG tests
// ---------------------------------------------------------------------------------

const SEEDED_CASES: u64 = 3000;

#[test]
fn seeded_random_dags_match_the_naive_solver() {
    let mut stats = TieStats::default();
    let (mut tie_free_dags, mut positions, mut max_remoteness) = (0u64, 0u64, 0u32);
    for seed in 0..SEEDED_CASES {
        // Every third DAG may end in ties (search: `Err(Tie)` or the exact value).
        let dag = random_dag(seed, seed % 3 == 2);
        let mut rng = Rng(seed ^ 0xDEAD_BEEF);
        if let Err(message) = check_dag(&dag, &mut rng, &mut stats) {
            panic!("seed {seed}: {message}\n{}", dag.describe());
        }
        tie_free_dags += u64::from(!dag.has_ties());
        positions += dag.positions().count() as u64;
        let naive = naive_values(&dag.nodes);
        max_remoteness = max_remoteness.max(naive.iter().flatten().filter_map(|v| v.remoteness()).max().unwrap_or(0));
    }
    println!(
        "{SEEDED_CASES} DAGs ({tie_free_dags} without ties), {positions} positions, max remoteness {max_remoteness}"
    );
    println!("search on DAGs with ties: {stats:?}");
    assert!(tie_free_dags >= 1000, "too few tie-free DAGs: {tie_free_dags}");
    assert!(max_remoteness >= 30, "values not deep enough: {max_remoteness}");
    assert!(
        stats.tie_value > 100 && stats.tie_free > 100 && stats.tie_reachable > 100,
        "tie cases too rare: {stats:?}"
    );
}

/// A DAG game that takes its time over each position's moves, so that the threads
/// of a parallel search overlap, meet each other's busy positions and halt one
/// another mid-search.
#[derive(Clone, Copy)]
struct Slow<'a>(&'a Dag);

impl Game for Slow<'_> {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.0.terminal(p)
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        for _ in 0..200 {
            std::hint::spin_loop();
        }
        self.0.moves(p, moves)
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.0.play(p, mv)
    }
}

impl SearchHooks for Slow<'_> {}

/// DAGs of 3,000 nodes, each move to one of the 40 nodes below (deep values, many
/// transpositions), searched from their top nodes on two and three threads: the
/// exact value every time, ties included, with tables small and large.
#[test]
fn parallel_search_of_big_dags_matches_the_naive_solver() {
    let (mut counted, mut deep) = (0, 0);
    for seed in 0..24u64 {
        let mut rng = Rng(seed ^ 0xa11e);
        let ties = seed % 3 == 2;
        let outcomes: &[Outcome] =
            if ties { &[Outcome::Win, Outcome::Loss, Outcome::Tie] } else { &[Outcome::Win, Outcome::Loss] };
        let nodes: Vec<Node> = (0..3000u64)
            .map(|i| {
                if i == 0 || rng.percent(4) {
                    return Node::Terminal(outcomes[rng.below(outcomes.len() as u64) as usize]);
                }
                let count = 1 + rng.below(3);
                Node::Inner((0..count).map(|_| i - 1 - rng.below(i.min(40))).collect())
            })
            .collect();
        let dag = Dag::new(nodes);
        let naive = naive_values(&dag.nodes);
        let entries = [1usize << 12, 1 << 16][seed as usize % 2];
        let game = Slow(&dag);
        let searcher = Searcher::with_table_entries(&game, entries);
        for s in [2999, 2998, 1500 + rng.below(1000)] {
            let helpers = 1 + seed as usize % 2;
            let got = searcher.value_in_parallel(&s, vec![Slow(&dag); helpers], None);
            let want = naive[s as usize].unwrap();
            assert_eq!(got, Ok(want), "seed {seed}, from {s}, {helpers} helpers, {entries} entries");
            deep += usize::from(want.remoteness().is_some_and(|r| r >= 20));
        }
        counted += usize::from(searcher.nodes() > 0);
    }
    assert_eq!(counted, 24, "every search counts its nodes");
    assert!(deep >= 20, "values not deep enough: {deep} of 72");
}

/// A DAG from proptest (shrinks a failure to a small DAG): per node a terminal roll,
/// an outcome and move targets (taken modulo the node's id).
fn dag_strategy(ties: bool) -> impl Strategy<Value = Dag> {
    let node = (0u32..100, 0u32..3, prop::collection::vec(0u64..1000, 0..=5));
    (0u32..=80, 1usize..=60, any::<bool>(), any::<u64>())
        .prop_flat_map(move |(terminal_pct, n, by_level, layer_seed)| {
            (Just((terminal_pct, by_level, layer_seed)), prop::collection::vec(node.clone(), n))
        })
        .prop_map(move |((terminal_pct, by_level, layer_seed), raw)| {
            let outcomes: &[Outcome] =
                if ties { &[Outcome::Win, Outcome::Loss, Outcome::Tie] } else { &[Outcome::Win, Outcome::Loss] };
            let nodes: Vec<Node> = raw
                .into_iter()
                .enumerate()
                .map(|(i, (roll, outcome, targets))| {
                    if roll < terminal_pct {
                        Node::Terminal(outcomes[outcome as usize % outcomes.len()])
                    } else if i == 0 {
                        Node::Inner(Vec::new())
                    } else {
                        Node::Inner(targets.into_iter().map(|t| t % i as u64).collect())
                    }
                })
                .collect();
            if by_level {
                let (nodes, layers) = sort_by_level(nodes);
                Dag { nodes, layers }
            } else {
                let mut rng = Rng(layer_seed);
                let layers = runs_as_layers(&mut rng, &nodes, 30, 5);
                Dag { nodes, layers }
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        // Do not write regression files into the source tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn proptest_dags_match_the_naive_solver(dag in dag_strategy(false)) {
        let mut stats = TieStats::default();
        if let Err(message) = check_dag(&dag, &mut Rng(7), &mut stats) {
            prop_assert!(false, "{}", message);
        }
    }

    #[test]
    fn proptest_dags_with_ties_match_the_naive_solver(dag in dag_strategy(true)) {
        let mut stats = TieStats::default();
        if let Err(message) = check_dag(&dag, &mut Rng(7), &mut stats) {
            prop_assert!(false, "{}", message);
        }
    }
}

// ---------------------------------------------------------------------------------
// Cycles: memo must report them
// ---------------------------------------------------------------------------------

/// Random DAGs with a few moves added towards higher ids (self-moves included): memo
/// search must fail with `CycleError` exactly from the starts that reach a cycle and
/// give the exact value from the others, with a fresh table per start and with one
/// table shared by all starts (in random order, so that failed searches leave their
/// marks in the table first). A fresh search names a position on a cycle; a shared
/// table may name a position left marked by an earlier failed search, which reaches
/// a cycle but may lie on none (see `memo_names_a_position_on_a_cycle_after_an_earlier_cycle_error`).
#[test]
fn memo_reports_cycles_exactly_where_they_are_reachable() {
    let (mut cyclic_starts, mut acyclic_starts) = (0u64, 0u64);
    for seed in 0..1000u64 {
        let mut rng = Rng(0xC1C1E ^ seed);
        let ties = rng.percent(30);
        let mut nodes = random_nodes(&mut rng, ties);
        let inner: Vec<usize> = (0..nodes.len()).filter(|&i| matches!(nodes[i], Node::Inner(_))).collect();
        if inner.is_empty() {
            continue;
        }
        for _ in 0..1 + rng.below(3) {
            let from = inner[rng.below(inner.len() as u64) as usize];
            let to = from as u64 + rng.below((nodes.len() - from) as u64);
            if let Node::Inner(edges) = &mut nodes[from] {
                let at = rng.below(edges.len() as u64 + 1) as usize;
                edges.insert(at, to);
            }
        }
        let dag = Dag::new(nodes);
        let naive = naive_values(&dag.nodes);
        let mut shared = MemoSolution::new();
        let starts = shuffled(dag.positions().collect(), &mut rng);
        for &s in &starts {
            let want = naive[s as usize];
            let fresh = memo::solve(&dag, &s);
            if let Ok(solution) = &fresh {
                for p in dag.positions() {
                    let want = if reachable(&dag, s)[p as usize] { naive[p as usize] } else { None };
                    assert_eq!(solution.value(&p), want, "seed {seed}: memo::solve from {s}, table at {p}");
                }
            }
            let in_shared = shared.search(&dag, &s);
            for (strict, got) in [(true, fresh.map(|m| m.value(&s).unwrap())), (false, in_shared)] {
                let who = if strict { "memo::solve" } else { "shared MemoSolution" };
                match (got, want) {
                    (Ok(v), Some(w)) if v == w => {}
                    (Err(e), None) => {
                        let p: u64 = e.position.parse().unwrap_or_else(|_| panic!("seed {seed}: bad position {e:?}"));
                        let fits = if strict { on_cycle(&dag, p) } else { naive[p as usize].is_none() };
                        assert!(
                            fits && reachable(&dag, s)[p as usize],
                            "seed {seed}, {who} from {s}: {e}: the position is not where it should be\n{}",
                            dag.describe()
                        );
                    }
                    (got, _) => panic!("seed {seed}, {who} from {s}: got {got:?}, naive {want:?}\n{}", dag.describe()),
                }
            }
            if want.is_some() {
                acyclic_starts += 1;
            } else {
                cyclic_starts += 1;
            }
        }
        // The shared table holds exact values, and none for positions reaching a cycle.
        for p in dag.positions() {
            assert_eq!(shared.value(&p), naive[p as usize], "seed {seed}: shared memo table at {p}");
        }
    }
    println!("memo on cyclic graphs: {cyclic_starts} starts reach a cycle, {acyclic_starts} do not");
    assert!(cyclic_starts > 1000 && acyclic_starts > 1000);
}

/// Regression (engine `memo.rs`, fixed): a failed search once left its stack's
/// positions marked "being searched" in the table, so a later search of the same
/// `MemoSolution` named a position on no cycle.
///
/// Minimal: 0 -> 0, 1 -> 0. `search(1)` names 0 (right); `search(1)` again names 1,
/// which is on no cycle.
#[test]
fn memo_names_a_position_on_a_cycle_after_an_earlier_cycle_error() {
    let dag = Dag::new(vec![Node::Inner(vec![0]), Node::Inner(vec![0])]);
    let mut table = MemoSolution::new();
    assert_eq!(table.search(&dag, &1).unwrap_err().position, "0");
    assert_eq!(table.search(&dag, &1).unwrap_err().position, "0", "second search of 1, same table");
}

#[test]
fn memo_reports_a_self_move_and_a_two_cycle() {
    let self_move = Dag::new(vec![Node::Inner(vec![0])]);
    let e = memo::solve(&self_move, &0).err().expect("a cycle");
    assert_eq!(e.position, "0");
    let two = Dag::new(vec![Node::Terminal(Outcome::Win), Node::Inner(vec![0, 2]), Node::Inner(vec![1])]);
    assert!(memo::solve(&two, &2).is_err());
    assert!(memo::solve(&two, &1).is_err());
    assert_eq!(memo::solve(&two, &0).unwrap().value(&0), Some(Value::Win(0)));
}

// ---------------------------------------------------------------------------------
// Hand-built DAGs with known values
// ---------------------------------------------------------------------------------

/// All solvers on one small DAG, against values worked out by hand.
fn assert_all_solvers(nodes: Vec<Node>, want: &[Value]) {
    let dag = Dag::new(nodes);
    assert_eq!(naive_values(&dag.nodes), want.iter().map(|&v| Some(v)).collect::<Vec<_>>(), "naive solver");
    let solution = layered::solve(&dag);
    for (p, &w) in want.iter().enumerate() {
        let p = p as u64;
        assert_eq!(memo::solve(&dag, &p).unwrap().value(&p), Some(w), "memo at {p}");
        assert_eq!(solution.value(p), Some(w), "layered at {p}");
        let searched = search::solve(&dag, &p).map(|(v, _)| v);
        assert_eq!(searched, Ok(w), "search at {p}");
    }
}

#[test]
fn chain_alternates_and_stuck_is_lost() {
    use Value::*;
    let nodes = vec![Node::Inner(vec![]), Node::Inner(vec![0]), Node::Inner(vec![1]), Node::Inner(vec![2])];
    assert_all_solvers(nodes, &[Loss(0), Win(1), Loss(2), Win(3)]);
}

#[test]
fn fastest_win_and_slowest_loss() {
    use Outcome as O;
    use Value::*;
    let nodes = vec![
        Node::Terminal(O::Loss),    // 0: Loss(0)
        Node::Inner(vec![0]),       // 1: Win(1)
        Node::Inner(vec![1]),       // 2: Loss(2)
        Node::Inner(vec![2, 0]),    // 3: Win(1), not Win(3): the fastest win
        Node::Inner(vec![2]),       // 4: Win(3)
        Node::Inner(vec![4, 1]),    // 5: Loss(4), not Loss(2): the slowest loss
        Node::Inner(vec![5, 5, 1]), // 6: Win(5) (a duplicate move)
        Node::Terminal(O::Win),     // 7: Win(0)
        Node::Inner(vec![7, 6]),    // 8: Loss(6), not Loss(1)
        Node::Inner(vec![7, 8]),    // 9: Win(7): the only winning move
    ];
    assert_all_solvers(nodes, &[Loss(0), Win(1), Loss(2), Win(1), Win(3), Loss(4), Win(5), Win(0), Loss(6), Win(7)]);
}

#[test]
fn ties_rank_between_wins_and_losses() {
    use Outcome as O;
    use Value::*;
    let nodes = vec![
        Node::Terminal(O::Tie),  // 0: Tie(0)
        Node::Terminal(O::Win),  // 1: Win(0)
        Node::Inner(vec![1, 0]), // 2: Tie(1) beats Loss(1)
        Node::Inner(vec![2]),    // 3: Tie(2)
        Node::Inner(vec![0, 3]), // 4: Tie(1): the faster tie
        Node::Terminal(O::Loss), // 5: Loss(0)
        Node::Inner(vec![4, 5]), // 6: Win(1) beats a tie
    ];
    assert_all_solvers(nodes, &[Tie(0), Win(0), Tie(1), Tie(2), Tie(1), Loss(0), Win(1)]);
}

// ---------------------------------------------------------------------------------
// Search: ties, hooks, errors
// ---------------------------------------------------------------------------------

#[test]
fn search_values_ties_with_their_remoteness() {
    let dag = Dag::new(vec![Node::Terminal(Outcome::Tie), Node::Inner(vec![0])]);
    assert_eq!(search::solve(&dag, &0).map(|(v, _)| v), Ok(Value::Tie(0)));
    assert_eq!(search::solve(&dag, &1).map(|(v, _)| v), Ok(Value::Tie(1)));
    let searcher = Searcher::new(&dag);
    assert_eq!(searcher.lookup(&dag, &1), Some(Value::Tie(1)));
}

/// A tie's remoteness is its fastest tied line: here 4 can tie at once (0) or by
/// way of 3 and 2, and a win beats both.
#[test]
fn search_takes_the_fastest_tie_and_prefers_a_win() {
    use Value::*;
    let dag = Dag::new(vec![
        Node::Terminal(Outcome::Tie),  // 0: Tie(0)
        Node::Terminal(Outcome::Loss), // 1: Loss(0)
        Node::Inner(vec![0]),          // 2: Tie(1)
        Node::Inner(vec![2]),          // 3: Tie(2)
        Node::Inner(vec![3, 0]),       // 4: Tie(1)
        Node::Inner(vec![4, 1]),       // 5: Win(1)
        Node::Inner(vec![3, 5]),       // 6: Tie(3): the other move loses
    ]);
    for (p, want) in [Tie(0), Loss(0), Tie(1), Tie(2), Tie(1), Win(1), Tie(3)].into_iter().enumerate() {
        assert_eq!(search::solve(&dag, &(p as u64)).map(|(v, _)| v), Ok(want), "position {p}");
    }
}

/// A tie the search prunes away does not change the value. Here the move to the
/// lost terminal 0 wins at once.
#[test]
fn search_may_prune_a_reachable_tie() {
    let dag = Dag::new(vec![Node::Terminal(Outcome::Loss), Node::Terminal(Outcome::Tie), Node::Inner(vec![0, 1])]);
    assert_eq!(search::solve(&dag, &2).map(|(v, _)| v), Ok(Value::Win(1)));
}

/// The DAG game with hooks that know the value of some non-terminal positions
/// and, asked "is it at least t?", answer with a bound on the right side of t as
/// often as with the value: every kind of [`ValueBound`], bounds loose and tight.
struct Bounder<'a> {
    dag: &'a Dag,
    /// The true values of the positions the hooks know.
    known: Vec<Option<Value>>,
    /// Answers given: exact, at least, at most.
    answers: Cell<[u64; 3]>,
}

impl Game for Bounder<'_> {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.dag.terminal(p)
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        self.dag.moves(p, moves)
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.dag.play(p, mv)
    }
}

impl SearchHooks for Bounder<'_> {
    fn exact_value(&self, p: &u64) -> Option<Value> {
        self.known[*p as usize]
    }

    fn value_bound(&self, p: &u64, threshold: Value) -> Option<ValueBound> {
        let v = self.known[*p as usize]?;
        // A choice that depends on the question, the same each time it is asked.
        let mut rng = Rng(*p ^ format!("{threshold:?}").len() as u64 ^ threshold.remoteness().unwrap_or(0) as u64);
        let mut answers = self.answers.get();
        let answer = if rng.percent(30) {
            answers[0] += 1;
            ValueBound::Exact(v)
        } else if v >= threshold {
            answers[1] += 1;
            // The value itself, or the threshold (the loosest lower bound) where its
            // remoteness is one a value can have (the score range's).
            let loose = threshold.remoteness().is_some_and(|r| r < 1000);
            ValueBound::AtLeast(if loose && rng.percent(50) { threshold } else { v })
        } else {
            answers[2] += 1;
            // The value itself, or the best value below the threshold if it is one.
            let below = match threshold {
                Value::Win(r) => Value::Win(r + 1),
                Value::Loss(r) if r > 0 => Value::Loss(r - 1),
                _ => v,
            };
            let loose = below >= v && below.remoteness().is_some_and(|r| r < 1000);
            ValueBound::AtMost(if loose && rng.percent(50) { below } else { v })
        };
        self.answers.set(answers);
        Some(answer)
    }
}

/// Hooks that answer "is the value at least t?" with bounds (`value_bound`) leave
/// every value exact, remoteness included, on random DAGs with and without ties,
/// with a fresh searcher per start and with one shared by all starts.
#[test]
fn search_with_bounds_from_the_game_matches_the_naive_solver() {
    let mut totals = [0u64; 3];
    for seed in 0..600 {
        let dag = random_dag(seed, seed % 3 == 2);
        let naive = naive_values(&dag.nodes);
        let mut rng = Rng(seed ^ 0xB0_0D);
        let known: Vec<Option<Value>> = (0..dag.nodes.len())
            .map(|p| {
                let inner = matches!(dag.nodes[p], Node::Inner(_));
                if inner && rng.percent(40) {
                    naive[p]
                } else {
                    None
                }
            })
            .collect();
        let bounder = Bounder { dag: &dag, known, answers: Cell::new([0; 3]) };
        let shared = Searcher::new(&bounder);
        for p in dag.positions() {
            let expected = naive[p as usize].unwrap();
            let fresh = search::solve(&bounder, &p).map(|(v, _)| v);
            assert_eq!(fresh, Ok(expected), "seed {seed}, position {p}\n{}", dag.describe());
            assert_eq!(shared.value(&p), Ok(expected), "seed {seed}, shared, position {p}\n{}", dag.describe());
        }
        for (total, n) in totals.iter_mut().zip(bounder.answers.get()) {
            *total += n;
        }
    }
    println!("answers (exact, at least, at most): {totals:?}");
    assert!(totals.iter().all(|&n| n > 1000), "every kind of answer often: {totals:?}");
}

#[test]
fn search_hook_ends_the_search_early() {
    // 0: Loss; 1 -> 0: Win(1); 2 -> 1: Loss(2); 3 -> 2: Win(3).
    let dag =
        Dag::new(vec![Node::Terminal(Outcome::Loss), Node::Inner(vec![0]), Node::Inner(vec![1]), Node::Inner(vec![2])]);
    // A hook that gives the true value of 2: the search never expands 2.
    let oracle = Oracle::new(&dag, vec![None, None, Some(Value::Loss(2)), None]);
    assert_eq!(search::solve(&oracle, &3).unwrap().0, Value::Win(3));
    assert!(oracle.hits.get() > 0);
    assert_eq!(oracle.expanded_known.get(), 0);
    // A hook value is taken on trust: a (false) value changes the answer accordingly.
    let liar = Oracle::new(&dag, vec![None, None, Some(Value::Win(6)), None]);
    assert_eq!(search::solve(&liar, &3).unwrap().0, Value::Loss(7));
    // A hook tie is taken with its remoteness; a hook draw is refused.
    let tie = Oracle::new(&dag, vec![None, None, Some(Value::Tie(4)), None]);
    assert_eq!(search::solve(&tie, &3).unwrap().0, Value::Tie(5));
    let draw = Oracle::new(&dag, vec![None, None, Some(Value::Draw), None]);
    assert_eq!(search::solve(&draw, &3).err(), Some(SearchError::Draw));
    // A hook value at the edge of the score range is refused.
    let deep = Oracle::new(&dag, vec![None, None, Some(Value::Win(MATE as u32)), None]);
    assert_eq!(search::solve(&deep, &3).err(), Some(SearchError::TooDeep));
}

/// Regression (engine `search.rs`, fixed: a failed search stores nothing): when
/// the search could not value ties, a search that failed on one left entries scored
/// with the placeholder 0 in the table, and asking the same searcher again gave
/// `Ok(Loss(16777216))`. Now ties are values: asked again and again, the same
/// searcher gives the same exact values. (A search that fails, over its node
/// budget, is checked by `searcher_with_a_node_budget_gives_up_or_answers_exactly`.)
#[test]
fn a_searcher_asked_again_gives_the_same_tie_values() {
    let dag = Dag::new(vec![Node::Terminal(Outcome::Tie), Node::Inner(vec![0]), Node::Inner(vec![1])]);
    let searcher = Searcher::new(&dag);
    assert_eq!(searcher.value(&2), Ok(Value::Tie(2)));
    assert_eq!(searcher.value(&2), Ok(Value::Tie(2)), "position 2 again, same searcher");
    assert_eq!(searcher.value(&1), Ok(Value::Tie(1)), "position 1, same searcher");
    assert_eq!(searcher.lookup(&dag, &1), Some(Value::Tie(1)));
}

/// The same bug on random DAGs with ties: one searcher for all starts (each twice, in
/// random order) must answer the exact value.
#[test]
fn shared_searcher_on_dags_with_ties_never_gives_a_wrong_value() {
    for seed in 0..SEEDED_CASES / 2 {
        let dag = random_dag(0x7135 ^ seed, true);
        let naive = naive_values(&dag.nodes);
        if let Err(message) = check_shared_search_with_ties(&dag, &naive, &mut Rng(seed)) {
            panic!("seed {seed}: {message}\n{}", dag.describe());
        }
    }
}

/// Regression (engine `search.rs`, fixed: remoteness is limited to MATE / 2): a
/// remoteness that reached `MATE` one ply above a hook value was not reported as
/// `TooDeep`: `Loss(MATE - 1)` has score -1, which
/// `parent_score` maps to 0, read back as `Loss(MATE)` although the parent wins.
#[test]
fn search_reports_too_deep_one_ply_above_a_hook_value() {
    // 0: Loss; 1 -> 0 (the hook says Loss(MATE - 1)); 2 -> 1: truly Win(MATE).
    let dag = Dag::new(vec![Node::Terminal(Outcome::Loss), Node::Inner(vec![0]), Node::Inner(vec![1])]);
    let oracle = Oracle::new(&dag, vec![None, Some(Value::Loss(MATE as u32 - 1)), None]);
    assert_eq!(search::solve(&oracle, &2).map(|(v, _)| v), Err(SearchError::TooDeep));
}

/// A DAG doubled: position `p < n` is node `p` of the original, `n + p` its twin, with
/// the same outcome and `p`'s moves in reverse order, each to the child or to the
/// child's twin (at random). A twin has its original's value, so `canonical` may fold
/// it onto the original: the searcher's table then keys both by the original, and the
/// best move it stores is in the original's move order.
struct Folded<'a> {
    dag: &'a Dag,
    n: u64,
}

impl Game for Folded<'_> {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.dag.terminal(p)
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        self.dag.moves(p, moves)
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.dag.play(p, mv)
    }
}

impl SearchHooks for Folded<'_> {
    fn canonical(&self, p: &u64) -> u64 {
        p % self.n
    }
}

fn doubled(rng: &mut Rng, original: &[Node]) -> Dag {
    let n = original.len() as u64;
    let twins: Vec<Node> = original
        .iter()
        .map(|node| match node {
            Node::Inner(edges) => {
                Node::Inner(edges.iter().rev().map(|&c| if rng.percent(50) { c + n } else { c }).collect())
            }
            other => other.clone(),
        })
        .collect();
    Dag::new(original.iter().cloned().chain(twins).collect())
}

#[test]
fn search_with_symmetry_folding_matches_the_naive_solver() {
    let mut folded_dags = 0;
    for seed in 0..400u64 {
        let original = random_dag(0xF01D ^ seed, false).nodes;
        if original.contains(&Node::Hole) {
            continue;
        }
        let mut rng = Rng(seed);
        let dag = doubled(&mut rng, &original);
        let n = original.len() as u64;
        let naive = naive_values(&dag.nodes);
        for p in 0..n {
            assert_eq!(naive[p as usize], naive[(p + n) as usize], "seed {seed}: twins {p} and {} differ", p + n);
        }
        let game = Folded { dag: &dag, n };
        let shared = Searcher::new(&game);
        for s in shuffled((0..2 * n).chain(0..2 * n).collect(), &mut rng) {
            assert_eq!(shared.value(&s).ok(), naive[s as usize], "seed {seed}: shared searcher at {s}\n{dag:?}");
        }
        assert!(shared.table_len() <= n as usize, "seed {seed}: twins not folded in the table");
        for s in 0..2 * n {
            assert_eq!(search::solve(&game, &s).ok().map(|(v, _)| v), naive[s as usize], "seed {seed}: fresh at {s}");
            let line = line::principal_line(&game, &shared, &s, 2 * n as usize + 1);
            let r = naive[s as usize].unwrap().remoteness().unwrap() as usize;
            assert_eq!((line.plies.len(), &line.end), (r, &LineEnd::GameOver), "seed {seed}: line from {s}");
        }
        folded_dags += 1;
    }
    assert!(folded_dags > 200, "{folded_dags}");
}

// ---------------------------------------------------------------------------------
// Layered: invariant breaks, wide layers
// ---------------------------------------------------------------------------------

/// Layers from `(start, end)` pairs.
fn layers(ranges: &[(u64, u64)]) -> Vec<Range<u64>> {
    ranges.iter().map(|&(start, end)| start..end).collect()
}

/// A position without moves (lost, but not terminal: it has an index the solver
/// must read) and its parent. Terminal children are valued by the rules and may lie
/// anywhere.
fn loss_and_parent() -> Vec<Node> {
    vec![Node::Inner(vec![]), Node::Inner(vec![0])]
}

#[test]
#[should_panic(expected = "breaks the Layered invariant")]
fn layered_panics_on_a_child_in_the_same_layer() {
    layered::solve(&Dag { nodes: loss_and_parent(), layers: layers(&[(0, 2)]) });
}

#[test]
#[should_panic(expected = "breaks the Layered invariant")]
fn layered_panics_on_a_child_in_a_later_layer() {
    layered::solve(&Dag { nodes: loss_and_parent(), layers: layers(&[(1, 2), (0, 1)]) });
}

#[test]
#[should_panic(expected = "is in no layer")]
fn layered_panics_on_an_index_in_no_layer() {
    layered::solve(&Dag {
        nodes: vec![Node::Terminal(Outcome::Loss), Node::Terminal(Outcome::Win)],
        layers: layers(&[(0, 1)]),
    });
}

/// A layer wider than the solver's parallel chunk (2048) with a move inside it: the
/// panic comes from a rayon worker and must still reach the caller.
#[test]
#[should_panic(expected = "breaks the Layered invariant")]
fn layered_panics_on_a_child_in_the_same_wide_layer() {
    let mut nodes = vec![Node::Terminal(Outcome::Loss); 10_000];
    nodes[3] = Node::Inner(vec![]);
    nodes[9_000] = Node::Inner(vec![3]);
    layered::solve(&Dag { nodes, layers: layers(&[(0, 10_000)]) });
}

/// Random DAGs with one move put inside its layer (two adjacent layers merged) or the
/// layer order reversed: the solver must panic every time.
#[test]
fn layered_panics_on_random_invariant_breaks() {
    let mut broken = 0;
    for seed in 0..300u64 {
        let mut dag = random_dag(0xB0B ^ seed, seed % 2 == 0);
        // A layer whose node has a child in the layer just before it.
        let Some(k) = (1..dag.layers.len()).find(|&k| {
            dag.layers[k].clone().any(|p| {
                let below = &dag.layers[k - 1];
                dag.nodes[p as usize] != Node::Hole
                    && dag
                        .children(p)
                        .iter()
                        .any(|c| below.contains(c) && matches!(dag.nodes[*c as usize], Node::Inner(_)))
            })
        }) else {
            continue;
        };
        let mut merged = dag.clone();
        let end = merged.layers.remove(k).end;
        merged.layers[k - 1].end = end;
        dag.layers.reverse();
        for (how, bad) in [("merged", merged), ("reversed", dag)] {
            let result = catch_unwind(AssertUnwindSafe(|| layered::solve(&bad)));
            assert!(result.is_err(), "seed {seed}: layered solved a {how} layering\n{}", bad.describe());
            broken += 1;
        }
    }
    assert!(broken > 200, "too few broken layerings: {broken}");
}

/// The DAG game, counting which indices the solver asks to enumerate and checking
/// that each range lies in one layer.
struct Enumerated<'a> {
    dag: &'a Dag,
    visits: Vec<AtomicU32>,
}

impl Game for Enumerated<'_> {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.dag.terminal(p)
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        self.dag.moves(p, moves)
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.dag.play(p, mv)
    }
}

impl Indexed for Enumerated<'_> {
    fn index_size(&self) -> u64 {
        self.dag.index_size()
    }

    fn index(&self, p: &u64) -> u64 {
        *p
    }

    fn position(&self, index: u64) -> Option<u64> {
        self.dag.position(index)
    }

    fn for_each_position_in(&self, range: Range<u64>, mut f: impl FnMut(u64, u64)) {
        assert!(
            range.is_empty() || self.dag.layers.iter().any(|l| l.start <= range.start && range.end <= l.end),
            "range {range:?} is not part of one layer"
        );
        for i in range {
            self.visits[i as usize].fetch_add(1, Ordering::Relaxed);
            if let Some(p) = self.dag.position(i) {
                f(i, p);
            }
        }
    }
}

impl Layered for Enumerated<'_> {
    fn for_each_layer(&self, f: impl FnMut(Range<u64>)) {
        self.dag.for_each_layer(f)
    }
}

/// A DAG built level by level, some levels far wider than the solver's parallel chunk
/// (2048 positions) and not multiples of it, with holes and terminals sprinkled in.
fn wide_dag(seed: u64) -> Dag {
    let mut rng = Rng(seed);
    let widths = [1usize, 3000, 2048, 700, 5000, 2049, 1, 4097, 100, 2500];
    let mut nodes: Vec<Node> = Vec::new();
    let mut layers: Vec<Range<u64>> = Vec::new();
    for &width in &widths {
        let start = nodes.len() as u64;
        for _ in 0..width {
            let node = if start == 0 || rng.percent(5) {
                Node::Terminal(if rng.percent(50) { Outcome::Win } else { Outcome::Loss })
            } else if rng.percent(3) {
                Node::Hole
            } else {
                let prev = layers.last().unwrap().clone();
                let count = rng.below(6);
                let edges =
                    (0..count)
                        .map(|_| {
                            if rng.percent(70) {
                                prev.start + rng.below(prev.end - prev.start)
                            } else {
                                rng.below(start)
                            }
                        })
                        .filter(|&c| nodes[c as usize] != Node::Hole)
                        .collect();
                Node::Inner(edges)
            };
            nodes.push(node);
        }
        layers.push(start..nodes.len() as u64);
    }
    Dag { nodes, layers }
}

#[test]
fn wide_layers_match_the_naive_solver() {
    let dag = wide_dag(42);
    let naive = naive_values(&dag.nodes);
    let game = Enumerated { dag: &dag, visits: (0..dag.nodes.len()).map(|_| AtomicU32::new(0)).collect() };
    let solution = layered::solve(&game);
    for (i, visits) in game.visits.iter().enumerate() {
        assert_eq!(visits.load(Ordering::Relaxed), 1, "index {i} enumerated {visits:?} times");
    }
    for p in 0..dag.nodes.len() as u64 {
        assert_eq!(solution.value(p), naive[p as usize], "layered at {p}");
    }
    let counts = solution.counts();
    assert!(counts.holes > 100 && counts.wins > 1000 && counts.losses > 1000, "{counts:?}");
    // The other solvers on the same DAG, every position, one shared table each.
    let mut memo_table = MemoSolution::new();
    let searcher = Searcher::new(&dag);
    for p in dag.positions().rev() {
        assert_eq!(memo_table.search(&dag, &p).ok(), naive[p as usize], "memo at {p}");
        assert_eq!(searcher.value(&p).ok(), naive[p as usize], "search at {p}");
    }
}

// ---------------------------------------------------------------------------------
// Deep chains: recursion depth
// ---------------------------------------------------------------------------------

/// Deep enough to show the recursion holds on an ordinary stack, with room to spare:
/// well within what a default 2 MiB test thread holds in a test build without
/// incremental compilation (as CI builds).
const CHAIN: u64 = 3_000;

/// Node 0 is stuck (Loss(0)); node i moves to i - 1, and even nodes from 4 on also
/// to i - 3 (a faster loss: the slowest loss is through i - 1). Moves go to smaller ids.
fn chain(len: u64) -> Dag {
    Dag::new(
        (0..len)
            .map(|i| match i {
                0 => Node::Inner(vec![]),
                i if i % 2 == 0 && i >= 4 => Node::Inner(vec![i - 3, i - 1]),
                i => Node::Inner(vec![i - 1]),
            })
            .collect(),
    )
}

/// The value of chain node i: odd nodes win in i, even nodes lose in i.
fn chain_value(i: u64) -> Value {
    if i % 2 == 1 {
        Value::Win(i as u32)
    } else {
        Value::Loss(i as u32)
    }
}

/// Memo and search recurse once per ply: a 3,000-ply chain, searched from its top in
/// the test's own thread (default test-thread stack).
#[test]
fn deep_chain_in_the_test_thread() {
    let dag = chain(CHAIN);
    let naive = naive_values(&dag.nodes);
    for i in [0, 1, 2, 3, CHAIN - 2, CHAIN - 1] {
        assert_eq!(naive[i as usize], Some(chain_value(i)));
    }
    let top = CHAIN - 1;
    let memo_table = memo::solve(&dag, &top).expect("acyclic");
    assert_eq!(memo_table.len() as u64, CHAIN);
    for p in 0..CHAIN {
        assert_eq!(memo_table.value(&p), Some(chain_value(p)), "memo at {p}");
    }
    let (value, searcher) = search::solve(&dag, &top).expect("no ties");
    assert_eq!(value, chain_value(top));
    for p in (0..CHAIN).step_by(97) {
        assert_eq!(searcher.value(&p), Ok(chain_value(p)), "search at {p}");
    }
    let line = line::principal_line(&dag, &searcher, &top, CHAIN as usize + 1);
    assert_eq!((line.plies.len() as u64, line.end), (top, LineEnd::GameOver));
    let solution = layered::solve(&dag);
    assert_eq!(solution.value(top), Some(chain_value(top)));
}

/// A 100,000-ply chain: deeper than memo and search can recurse on a default
/// 2 MiB test thread in the test profile, so it runs
/// on a thread with a 256 MiB stack. Checks the values are right that deep.
#[test]
fn very_deep_chain_on_a_big_stack() {
    const LONG: u64 = 100_000;
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let dag = chain(LONG);
            let top = LONG - 1;
            let memo_table = memo::solve(&dag, &top).expect("acyclic");
            assert_eq!(memo_table.len() as u64, LONG);
            for p in (0..LONG).step_by(997).chain([top]) {
                assert_eq!(memo_table.value(&p), Some(chain_value(p)), "memo at {p}");
            }
            let (value, searcher) = search::solve(&dag, &top).expect("no ties");
            assert_eq!(value, chain_value(top));
            assert_eq!(searcher.value(&(top - 1)), Ok(chain_value(top - 1)));
        })
        .unwrap()
        .join()
        .unwrap();
}

/// A node budget: on random DAGs, every answer of a searcher with a small budget is
/// the exact value or `OutOfBudget` (nothing wrong is stored by a search that gave
/// up), and the same searcher without the limit then finds every exact value.
#[test]
fn searcher_with_a_node_budget_gives_up_or_answers_exactly() {
    let mut gave_up = 0;
    for seed in 0..SEEDED_CASES / 4 {
        let dag = random_dag(0xB0D6 ^ seed, false);
        let naive = naive_values(&dag.nodes);
        let searcher = Searcher::new(&dag);
        searcher.set_node_limit(Some(1 + seed % 7));
        for p in 0..dag.nodes.len() as u64 {
            let Some(want) = naive[p as usize] else { continue };
            match searcher.value(&p) {
                Ok(v) => assert_eq!(v, want, "seed {seed}, position {p}"),
                Err(SearchError::OutOfBudget { limit }) => {
                    assert_eq!(limit, 1 + seed % 7);
                    gave_up += 1;
                }
                Err(e) => panic!("seed {seed}, position {p}: {e}"),
            }
        }
        searcher.set_node_limit(None);
        for p in 0..dag.nodes.len() as u64 {
            if let Some(want) = naive[p as usize] {
                assert_eq!(searcher.value(&p), Ok(want), "seed {seed}, position {p}, no limit");
            }
        }
    }
    assert!(gave_up > 100, "the budget was reached {gave_up} times");
}

// ---------------------------------------------------------------------------------
// Immediate wins told by the game (docs/rules-solving.md, "Immediate wins in the search")
// ---------------------------------------------------------------------------------

/// A DAG whose hooks say whether the side to move wins at once (a child lost in 0,
/// by the naive solver's values), at two positions in three; the third is left to
/// the search.
struct Knowing<'a> {
    dag: &'a Dag,
    naive: &'a [Option<Value>],
    /// Positions expanded that the hook said win at once (must stay 0: rule 1 needs
    /// no move of them).
    expanded_wins: Cell<u64>,
}

impl Knowing<'_> {
    fn answer(&self, p: u64) -> Option<bool> {
        (!p.is_multiple_of(3))
            .then(|| self.dag.children(p).iter().any(|&c| self.naive[c as usize] == Some(Value::Loss(0))))
    }
}

impl Game for Knowing<'_> {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.dag.terminal(p)
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        if self.answer(*p) == Some(true) {
            self.expanded_wins.set(self.expanded_wins.get() + 1);
        }
        self.dag.moves(p, moves)
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.dag.play(p, mv)
    }
}

impl SearchHooks for Knowing<'_> {
    fn wins_at_once(&self, p: &u64) -> Option<bool> {
        self.answer(*p)
    }
}

/// With the game saying which positions win at once (rules 1 and 2 of
/// docs/rules-solving.md's "Immediate wins in the search"; rule 3 holds in every search),
/// the search's value of every position of 1,000 random DAGs, a third with ties,
/// is the naive solver's, from a fresh table and from one shared by every start;
/// no position said to win at once is expanded.
#[test]
fn searches_told_immediate_wins_match_the_naive_solver() {
    let mut told = 0u64;
    for seed in 0..1000 {
        let dag = random_dag(seed ^ 0x1a57, seed % 3 == 2);
        let naive = naive_values(&dag.nodes);
        let game = Knowing { dag: &dag, naive: &naive, expanded_wins: Cell::new(0) };
        let shared = Searcher::new(&game);
        for s in dag.positions() {
            let want = naive[s as usize];
            assert_eq!(Searcher::new(&game).value(&s).ok(), want, "seed {seed}, position {s}\n{}", dag.describe());
            assert_eq!(shared.value(&s).ok(), want, "seed {seed}, position {s} (shared)\n{}", dag.describe());
            told += u64::from(dag.terminal(&s).is_none() && game.answer(s) == Some(true));
        }
        assert_eq!(game.expanded_wins.get(), 0, "seed {seed}: a position that wins at once was expanded");
    }
    assert!(told > 1000, "{told} positions told a win at once");
}
