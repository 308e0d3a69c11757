//! The retrograde solver against a naive reference solver, on random move graphs.
//!
//! A *graph game* is an explicit move graph: each node is a terminal position with an
//! [`Outcome`] or a non-terminal position with a list of moves (edges to other nodes;
//! duplicates, self-loops and cycles allowed). Random graphs are solved by
//! - [`retrograde::solve`], using the graph's own [`Unmoves`] (parents from the edge
//!   list), and
//! - [`retrograde::solve_forward_only`], through a wrapper that only implements
//!   [`Game`] + [`Indexed`],
//!
//! and both must agree, index by index, with [`naive_solve`]: a deliberately simple
//! round-by-round solver written here, sharing nothing with `retrograde.rs` but the
//! [`Value`] type. Every solution is also checked for local consistency, the line
//! helpers ([`line::principal_line`], [`line::move_values`]) are checked on it, and
//! [`check::unmoves_match_moves`] is checked to accept the graph's parents and to
//! reject them with one parent edge dropped or added.
//!
//! Random graphs come from proptest (shrinks a failure to a small graph) and from a
//! fixed list of seeds (a cheap, reproducible generator). Hand-built graphs with known
//! values pin the semantics down.

use gsolve_engine::check::{self, UnmoveMismatch};
use gsolve_engine::line::{self, LineEnd};
use gsolve_engine::{retrograde, tiered, Game, Indexed, Outcome, Solution, Tiered, Unmoves, Value};
use proptest::prelude::*;
use std::collections::HashMap;
use std::fmt::Write as _;

// ---------------------------------------------------------------------------------
// The graph game
// ---------------------------------------------------------------------------------

/// One position of a graph game.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Node {
    /// `Some` if the game is over here (seen by the side to move).
    terminal: Option<Outcome>,
    /// Move `m` leads to node `edges[m]`. Ignored for terminal nodes unless the game
    /// has `ghost_moves`.
    edges: Vec<u64>,
}

fn inner(edges: &[u64]) -> Node {
    Node { terminal: None, edges: edges.to_vec() }
}

fn term(outcome: Outcome) -> Node {
    Node { terminal: Some(outcome), edges: Vec::new() }
}

/// An explicit move graph as a game. Position = node id = index.
#[derive(Clone)]
struct GraphGame {
    /// `None` marks a hole: an index that names no position (no edge leads there).
    nodes: Vec<Option<Node>>,
    /// `parents[c]` lists `p` once per edge `p -> c` of a non-terminal `p`.
    parents: Vec<Vec<u64>>,
    /// When set, `moves` also lists the edges of terminal nodes. The game contract only
    /// asks for the moves of non-terminal positions, so the engine must ignore them.
    ghost_moves: bool,
}

/// Which indices are holes when a graph is built with holes: every 5th one.
fn is_hole_index(i: usize) -> bool {
    i % 5 == 4
}

impl GraphGame {
    /// A game without holes or ghost moves.
    fn plain(nodes: Vec<Node>) -> Self {
        GraphGame::new(nodes, false, false)
    }

    /// Builds a game from `nodes`. With `holes`, every 5th index (4, 9, 14, ...) becomes
    /// a hole and every edge into a hole is redirected to the index just below it
    /// (never a hole). Without `ghost_moves`, the edges of terminal nodes are dropped.
    fn new(nodes: Vec<Node>, holes: bool, ghost_moves: bool) -> Self {
        let n = nodes.len();
        for node in &nodes {
            for &c in &node.edges {
                assert!((c as usize) < n, "edge to {c} out of range");
            }
        }
        let hole = |i: usize| holes && is_hole_index(i);
        let nodes: Vec<Option<Node>> = nodes
            .into_iter()
            .enumerate()
            .map(|(i, mut node)| {
                if hole(i) {
                    return None;
                }
                if node.terminal.is_some() && !ghost_moves {
                    node.edges.clear();
                }
                for c in &mut node.edges {
                    if hole(*c as usize) {
                        *c -= 1;
                    }
                }
                Some(node)
            })
            .collect();
        GraphGame::from_slots(nodes, ghost_moves)
    }

    /// A game with these slots (`None` = hole) as they are; computes the parents.
    fn from_slots(nodes: Vec<Option<Node>>, ghost_moves: bool) -> Self {
        let mut parents = vec![Vec::new(); nodes.len()];
        for (p, node) in nodes.iter().enumerate() {
            let Some(node) = node else { continue };
            if node.terminal.is_none() {
                for &c in &node.edges {
                    parents[c as usize].push(p as u64);
                }
            }
        }
        GraphGame { nodes, parents, ghost_moves }
    }

    fn node(&self, p: u64) -> &Node {
        self.nodes[p as usize].as_ref().unwrap_or_else(|| panic!("position {p} is a hole"))
    }

    /// The moves of a position as the game defines them (none for a terminal).
    fn children(&self, p: u64) -> &[u64] {
        let node = self.node(p);
        if node.terminal.is_some() {
            &[]
        } else {
            &node.edges
        }
    }

    /// A compact listing for failure messages.
    fn describe(&self) -> String {
        let mut s = format!("graph of {} nodes (ghost_moves: {}):\n", self.nodes.len(), self.ghost_moves);
        for (i, node) in self.nodes.iter().enumerate() {
            match node {
                None => writeln!(s, "  {i}: hole"),
                Some(Node { terminal: Some(o), edges }) if edges.is_empty() => writeln!(s, "  {i}: {o:?}"),
                Some(Node { terminal: Some(o), edges }) => writeln!(s, "  {i}: {o:?} (ghost -> {edges:?})"),
                Some(Node { terminal: None, edges }) => writeln!(s, "  {i}: -> {edges:?}"),
            }
            .unwrap();
        }
        s
    }
}

/// The compact listing, so that proptest's "minimal failing input" is readable.
impl std::fmt::Debug for GraphGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Game for GraphGame {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.node(*p).terminal
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        let node = self.node(*p);
        if node.terminal.is_none() || self.ghost_moves {
            moves.extend(0..node.edges.len());
        }
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.node(*p).edges[*mv]
    }
}

impl Indexed for GraphGame {
    fn index_size(&self) -> u64 {
        self.nodes.len() as u64
    }

    fn index(&self, p: &u64) -> u64 {
        *p
    }

    fn position(&self, index: u64) -> Option<u64> {
        self.nodes.get(index as usize)?.as_ref().map(|_| index)
    }
}

impl Unmoves for GraphGame {
    fn for_each_parent(&self, p: &u64, mut f: impl FnMut(u64)) {
        for &q in &self.parents[*p as usize] {
            f(q);
        }
    }
}

/// The same game without [`Unmoves`], for [`retrograde::solve_forward_only`].
struct ForwardOnly<'a>(&'a GraphGame);

impl Game for ForwardOnly<'_> {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.0.terminal(p)
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        self.0.moves(p, moves)
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.0.play(p, mv)
    }
}

impl Indexed for ForwardOnly<'_> {
    fn index_size(&self) -> u64 {
        self.0.index_size()
    }

    fn index(&self, p: &u64) -> u64 {
        self.0.index(p)
    }

    fn position(&self, index: u64) -> Option<u64> {
        self.0.position(index)
    }
}

/// The same game claiming that its terminal positions are not all indexed: the
/// retrograde solvers then value terminal children from the moves instead of
/// propagating from them (the path of games that do not store meetings).
struct HiddenTerminals<'a>(&'a GraphGame);

impl Game for HiddenTerminals<'_> {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.0.terminal(p)
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        self.0.moves(p, moves)
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.0.play(p, mv)
    }
}

impl Indexed for HiddenTerminals<'_> {
    fn terminals_indexed(&self) -> bool {
        false
    }

    fn index_size(&self) -> u64 {
        self.0.index_size()
    }

    fn index(&self, p: &u64) -> u64 {
        self.0.index(p)
    }

    fn position(&self, index: u64) -> Option<u64> {
        self.0.position(index)
    }
}

impl Unmoves for HiddenTerminals<'_> {
    fn for_each_parent(&self, p: &u64, f: impl FnMut(u64)) {
        self.0.for_each_parent(p, f)
    }
}

/// The same game leaving out of its index every position the rules make a win
/// in 1 (a move to a terminal position lost for its side to move): such an
/// index entry is a hole, and [`Indexed::value_by_rules`] values the position
/// (the path of rules games whose royal pieces are ranked as a pair).
struct HiddenWins<'a>(&'a GraphGame);

impl HiddenWins<'_> {
    fn hidden(&self, p: u64) -> bool {
        let node = self.0.node(p);
        node.terminal.is_none() && node.edges.iter().any(|&c| self.0.node(c).terminal == Some(Outcome::Loss))
    }
}

impl Game for HiddenWins<'_> {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.0.terminal(p)
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        self.0.moves(p, moves)
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.0.play(p, mv)
    }
}

impl Indexed for HiddenWins<'_> {
    fn terminals_indexed(&self) -> bool {
        false
    }

    fn value_by_rules(&self, p: &u64) -> Option<Value> {
        match self.0.terminal(p) {
            Some(outcome) => Some(outcome.value()),
            None => self.hidden(*p).then_some(Value::Win(1)),
        }
    }

    fn index_size(&self) -> u64 {
        self.0.index_size()
    }

    fn index(&self, p: &u64) -> u64 {
        self.0.index(p)
    }

    fn position(&self, index: u64) -> Option<u64> {
        self.0.position(index).filter(|&p| !self.hidden(p))
    }
}

impl Unmoves for HiddenWins<'_> {
    fn for_each_parent(&self, p: &u64, mut f: impl FnMut(u64)) {
        self.0.for_each_parent(p, |q| {
            if !self.hidden(q) {
                f(q)
            }
        })
    }
}

/// The same game keeping those wins in 1 in its index, valued by the rules all
/// the same: their first look is [`gsolve_engine::FirstLook::ByRules`], no
/// parent counts them, and the solvers store them without propagating from
/// them (the path of rules games where a piece other than the royal one can
/// take the other's royal piece). With `leave_out_parents`, the parents' walk
/// leaves such wins out too, as the contract allows.
struct KeptWins<'a> {
    wins: HiddenWins<'a>,
    leave_out_parents: bool,
}

impl Game for KeptWins<'_> {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.wins.terminal(p)
    }

    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        self.wins.moves(p, moves)
    }

    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.wins.play(p, mv)
    }
}

impl Indexed for KeptWins<'_> {
    fn terminals_indexed(&self) -> bool {
        false
    }

    fn value_by_rules(&self, p: &u64) -> Option<Value> {
        self.wins.value_by_rules(p)
    }

    fn index_size(&self) -> u64 {
        self.wins.0.index_size()
    }

    fn index(&self, p: &u64) -> u64 {
        self.wins.0.index(p)
    }

    fn position(&self, index: u64) -> Option<u64> {
        self.wins.0.position(index)
    }
}

impl Unmoves for KeptWins<'_> {
    fn for_each_parent(&self, p: &u64, mut f: impl FnMut(u64)) {
        self.wins.0.for_each_parent(p, |q| {
            if !(self.leave_out_parents && self.wins.hidden(q)) {
                f(q)
            }
        })
    }
}

// ---------------------------------------------------------------------------------
// The naive reference solver
// ---------------------------------------------------------------------------------

/// Solves a graph the slow, obvious way. Returns each index's value (`None` at holes).
///
/// Values are seen by the side to move. A position's value is the best, by `Value`'s
/// `Ord` (fastest win > slower wins > fastest tie > slower ties > draw > slowest loss >
/// faster losses), of `child.parent_view()` over its children, where `parent_view`
/// maps Win(r) -> Loss(r+1), Loss(r) -> Win(r+1), Tie(r) -> Tie(r+1), Draw -> Draw.
///
/// **Phase 1, rounds.** Round 0 decides terminal positions (their outcome at
/// remoteness 0) and non-terminal positions without moves (Loss(0): the side that
/// cannot move loses). Round t = 1, 2, ... looks only at values decided in earlier
/// rounds (a snapshot taken at the start of the round) and decides an undecided
/// position
/// - as Win(t) if some child is decided Loss(t-1) (a faster win would have been found
///   in an earlier round);
/// - otherwise, if every child is decided (so none is a loss), as the best of its
///   children's parent views: Loss(t) if all children are wins, the fastest tie + 1
///   if some child tied. Such a tie can be decided in a late round with a small
///   remoteness, so the rounds do not stop at some remoteness bound: they run
///   4n + 5 times, far more than needed (every round decides a position or none
///   ever will again).
///
/// **Phase 2, ties through cycles.** A position still undecided has no lost child (it
/// would have won) and at least one undecided child; its undecided children end up
/// tied or drawn, its decided ones are wins or ties. If some child ties it ties (ties
/// rank above draws) one ply after its fastest-tying child. Computed Bellman-Ford
/// style: starting from "no tie known", repeatedly give every undecided position with
/// a tied child (a phase-1 tie or a phase-2 tie found so far) Tie(min r + 1), only
/// ever lowering r, until nothing changes. That is a shortest path to a tied position.
///
/// **Draws.** Everything still undecided is a draw.
fn naive_solve(nodes: &[Option<Node>]) -> Vec<Option<Value>> {
    let n = nodes.len();

    // Phase 1, round 0.
    let mut decided: Vec<Option<Value>> = vec![None; n];
    for (i, node) in nodes.iter().enumerate() {
        let Some(node) = node else { continue };
        decided[i] = match node.terminal {
            Some(outcome) => Some(outcome.value()),
            None if node.edges.is_empty() => Some(Value::Loss(0)),
            None => None,
        };
    }

    // Phase 1, rounds 1, 2, ...
    for t in 1..=(4 * n as u32 + 5) {
        let snapshot = decided.clone();
        for (i, node) in nodes.iter().enumerate() {
            let Some(node) = node else { continue };
            // Terminal positions were decided in round 0, so this also skips them (and
            // any ghost edges they have).
            if snapshot[i].is_some() {
                continue;
            }
            let kids: Vec<Option<Value>> = node
                .edges
                .iter()
                .map(|&c| {
                    assert!(nodes[c as usize].is_some(), "edge {i} -> {c} into a hole");
                    snapshot[c as usize]
                })
                .collect();
            if kids.contains(&Some(Value::Loss(t - 1))) {
                decided[i] = Some(Value::Win(t));
            } else if kids.iter().all(Option::is_some) {
                let best = kids.iter().map(|v| v.unwrap().parent_view()).max().expect("has moves");
                assert!(!matches!(best, Value::Win(_)), "naive solver: a lost child went unnoticed at {i}");
                decided[i] = Some(best);
            }
        }
    }

    // Phase 2: ties through cycles.
    let mut tie: Vec<Option<u32>> = vec![None; n];
    loop {
        let mut changed = false;
        for (i, node) in nodes.iter().enumerate() {
            let Some(node) = node else { continue };
            if decided[i].is_some() {
                continue;
            }
            let fastest = node
                .edges
                .iter()
                .filter_map(|&c| match decided[c as usize] {
                    Some(Value::Tie(r)) => Some(r),
                    Some(_) => None,
                    None => tie[c as usize],
                })
                .min();
            if let Some(r) = fastest {
                if !matches!(tie[i], Some(current) if current <= r + 1) {
                    tie[i] = Some(r + 1);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }

    // Draws: the rest.
    (0..n).map(|i| nodes[i].as_ref().map(|_| decided[i].or(tie[i].map(Value::Tie)).unwrap_or(Value::Draw))).collect()
}

// ---------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------

/// Every position's value is the best of its children's parent views (terminal and
/// moveless positions: their fixed value); holes have no value.
fn check_local_consistency(game: &GraphGame, value: impl Fn(u64) -> Option<Value>, who: &str) -> Result<(), String> {
    for i in 0..game.index_size() {
        let v = value(i);
        let Some(node) = &game.nodes[i as usize] else {
            if v.is_some() {
                return Err(format!("{who}: hole {i} has value {v:?}"));
            }
            continue;
        };
        let want = match node.terminal {
            Some(outcome) => Some(outcome.value()),
            None if node.edges.is_empty() => Some(Value::Loss(0)),
            None => node.edges.iter().map(|&c| value(c).map(Value::parent_view)).max().flatten(),
        };
        if v != want || v.is_none() {
            return Err(format!("{who}: position {i} has value {v:?}, its children say {want:?}"));
        }
    }
    Ok(())
}

/// Both engine solvers equal the naive solver at every index.
fn check_solvers(game: &GraphGame) -> Result<Solution, String> {
    let expected = naive_solve(&game.nodes);
    check_local_consistency(game, |i| expected[i as usize], "naive solver")?;
    let with_unmoves = retrograde::solve(game);
    let forward_only = retrograde::solve_forward_only(&ForwardOnly(game));
    let hidden = retrograde::solve(&HiddenTerminals(game));
    let hidden_forward = retrograde::solve_forward_only(&HiddenTerminals(game));
    // Every level past the first found by scanning the values, none listed.
    let scanned = retrograde::Options { frontier_limit: Some(0), ..Default::default() };
    let with_unmoves_scanned = retrograde::solve_with(game, &scanned);
    let hidden_scanned = retrograde::solve_with(&HiddenTerminals(game), &scanned);
    // Wins in 1 left out: each is a hole of the solution, valued by the rules.
    let wins = HiddenWins(game);
    if let Err(index) = gsolve_engine::check::values_by_rules_hold(&wins) {
        return Err(format!("hidden wins: value_by_rules wrong at a child of {index}"));
    }
    let with_wins = |solution: Solution| -> Vec<Option<Value>> {
        (0..game.index_size())
            .map(|i| match game.position(i) {
                Some(p) if wins.hidden(p) => wins.value_by_rules(&p),
                _ => solution.value(i),
            })
            .collect()
    };
    let hidden_wins = with_wins(retrograde::solve(&wins));
    let hidden_wins_forward = with_wins(retrograde::solve_forward_only(&wins));
    let hidden_wins_scanned = with_wins(retrograde::solve_with(&wins, &scanned));
    // Wins in 1 indexed but valued by the rules: every index has its value.
    let kept = |leave_out_parents| KeptWins { wins: HiddenWins(game), leave_out_parents };
    let all =
        |solution: Solution| -> Vec<Option<Value>> { (0..game.index_size()).map(|i| solution.value(i)).collect() };
    for leave_out_parents in [false, true] {
        if let Err(mismatch) = check::unmoves_match_moves(&kept(leave_out_parents)) {
            return Err(format!("kept wins (parents left out: {leave_out_parents}): {mismatch:?}"));
        }
    }
    let kept_wins = all(retrograde::solve(&kept(false)));
    let kept_wins_left_out = all(retrograde::solve(&kept(true)));
    let kept_wins_forward = all(retrograde::solve_forward_only(&kept(false)));
    let kept_wins_scanned = all(retrograde::solve_with(&kept(true), &scanned));
    for (name, values) in [
        ("solve, wins in 1 not indexed", &hidden_wins),
        ("solve_forward_only, wins in 1 not indexed", &hidden_wins_forward),
        ("solve, wins in 1 not indexed, levels scanned", &hidden_wins_scanned),
        ("solve, wins in 1 indexed, valued by the rules", &kept_wins),
        ("solve, wins in 1 indexed, valued by the rules, not parents", &kept_wins_left_out),
        ("solve_forward_only, wins in 1 indexed, valued by the rules", &kept_wins_forward),
        ("solve, wins in 1 indexed, valued by the rules, not parents, levels scanned", &kept_wins_scanned),
    ] {
        let mismatches: Vec<String> = (0..game.index_size())
            .filter(|&i| values[i as usize] != expected[i as usize])
            .map(|i| format!("  {i}: expected {:?}, got {:?}", expected[i as usize], values[i as usize]))
            .collect();
        if !mismatches.is_empty() {
            return Err(format!("{name} disagrees with the naive solver:\n{}", mismatches.join("\n")));
        }
    }
    for (name, solution) in [
        ("solve", &with_unmoves),
        ("solve_forward_only", &forward_only),
        ("solve, terminals not indexed", &hidden),
        ("solve_forward_only, terminals not indexed", &hidden_forward),
        ("solve, levels scanned", &with_unmoves_scanned),
        ("solve, terminals not indexed, levels scanned", &hidden_scanned),
    ] {
        if solution.len() != game.index_size() {
            return Err(format!("{name}: {} values for {} indices", solution.len(), game.index_size()));
        }
        let mismatches: Vec<String> = (0..game.index_size())
            .filter(|&i| solution.value(i) != expected[i as usize])
            .map(|i| format!("  {i}: expected {:?}, got {:?}", expected[i as usize], solution.value(i)))
            .collect();
        if !mismatches.is_empty() {
            return Err(format!("{name} disagrees with the naive solver:\n{}", mismatches.join("\n")));
        }
        check_local_consistency(game, |i| solution.value(i), name)?;
    }
    Ok(with_unmoves)
}

/// `move_values` and `principal_line` from every position of a solved game.
fn check_lines(game: &GraphGame, solution: &Solution) -> Result<(), String> {
    let value = |p: u64| solution.value(p).expect("positions have values");
    let max_plies = 2 * game.nodes.len() + 2;
    for start in 0..game.index_size() {
        let Some(v) = solution.value(start) else {
            continue;
        };

        // move_values: one entry per move, right child and value, best first, the best
        // equal to the position's value.
        let list = line::move_values(game, solution, &start);
        let children = game.children(start);
        if list.len() != children.len() {
            return Err(format!("move_values({start}): {} entries for {} moves", list.len(), children.len()));
        }
        for m in &list {
            if m.child != children[m.mv] || m.value != value(m.child).parent_view() {
                return Err(format!("move_values({start}): wrong entry {m:?}"));
            }
        }
        if list.windows(2).any(|w| w[0].value < w[1].value) {
            return Err(format!("move_values({start}) not sorted best first: {list:?}"));
        }
        if let Some(first) = list.first() {
            if first.value != v {
                return Err(format!("move_values({start}): best move {:?} but position value {v:?}", first.value));
            }
        }

        // principal_line: consecutive plies, each an optimal move.
        let l = line::principal_line(game, solution, &start, max_plies);
        let mut at = start;
        for (k, ply) in l.plies.iter().enumerate() {
            if ply.before != at || ply.value != value(at) {
                return Err(format!("line from {start}: ply {k} is {ply:?}, expected to be at {at} ({:?})", value(at)));
            }
            let child = game.play(&at, &ply.mv);
            if !game.children(at).contains(&child) || value(child).parent_view() != ply.value {
                return Err(format!("line from {start}: ply {k} ({ply:?}) is not an optimal move"));
            }
            at = child;
        }
        if l.end_position != at {
            return Err(format!("line from {start}: ends at {} after reaching {at}", l.end_position));
        }
        match v {
            Value::Draw => {
                let LineEnd::Repeats { ply } = l.end else {
                    return Err(format!("line from drawn {start} ends with {:?}", l.end));
                };
                if l.plies.iter().any(|p| p.value != Value::Draw) || l.plies.get(ply).map(|p| p.before) != Some(at) {
                    return Err(format!("line from drawn {start} is wrong: {l:?}"));
                }
            }
            Value::Win(r) | Value::Loss(r) | Value::Tie(r) => {
                if l.end != LineEnd::GameOver || l.plies.len() != r as usize {
                    return Err(format!(
                        "line from {start} ({v:?}) ends with {:?} after {} plies",
                        l.end,
                        l.plies.len()
                    ));
                }
                if value(at).remoteness() != Some(0) || !game.children(at).is_empty() {
                    return Err(format!("line from {start} ({v:?}) ends at {at} ({:?}), not over", value(at)));
                }
            }
        }
    }
    Ok(())
}

/// `check::unmoves_match_moves` accepts the graph's parents, and rejects them with
/// one parent edge dropped or one extra parent added, naming that edge.
fn check_unmoves_check(game: &GraphGame) -> Result<(), String> {
    check::unmoves_match_moves(game).map_err(|e| format!("correct parents rejected: {e:?}"))?;
    // How many moves of `p` lead to `c`, as the check counts them.
    let moves_to = |p: u64, c: u64| game.children(p).iter().filter(|&&x| x == c).count();

    // Drop one parent edge (which one depends on the graph's size).
    let slots: Vec<(usize, usize)> =
        game.parents.iter().enumerate().flat_map(|(c, ps)| (0..ps.len()).map(move |k| (c, k))).collect();
    if !slots.is_empty() {
        let (c, k) = slots[(game.nodes.len() * 7) % slots.len()];
        let mut broken = game.clone();
        let p = broken.parents[c].remove(k);
        let by_moves = moves_to(p, c as u64);
        let want = UnmoveMismatch { child: c as u64, parent: p, by_moves, by_unmoves: by_moves - 1 };
        match check::unmoves_match_moves(&broken) {
            Err(e) if e == want => {}
            other => return Err(format!("dropped parent {p} of {c}: expected Err({want:?}), got {other:?}")),
        }
    }

    // Add one parent edge: node 0 (never a hole, maybe terminal) as an extra parent of
    // the last position.
    let c = (0..game.index_size()).rev().find(|&i| game.nodes[i as usize].is_some()).expect("index 0 exists");
    let mut broken = game.clone();
    broken.parents[c as usize].push(0);
    let by_moves = moves_to(0, c);
    let want = UnmoveMismatch { child: c, parent: 0, by_moves, by_unmoves: by_moves + 1 };
    match check::unmoves_match_moves(&broken) {
        Err(e) if e == want => Ok(()),
        other => Err(format!("extra parent 0 of {c}: expected Err({want:?}), got {other:?}")),
    }
}

/// Everything above on one graph.
fn check_graph(game: &GraphGame) -> Result<(), String> {
    let solution = check_solvers(game)?;
    check_lines(game, &solution)?;
    check_unmoves_check(game)
}

// ---------------------------------------------------------------------------------
// Random graphs
// ---------------------------------------------------------------------------------

/// Shape of a random graph.
#[derive(Clone, Debug)]
struct Params {
    /// Percent chance that a node is terminal (if any outcome is allowed).
    terminal_pct: u32,
    /// Allowed terminal outcomes: bit 0 Win, bit 1 Loss, bit 2 Tie.
    outcomes: u8,
    /// Percent chance that an edge goes to a higher index (long chains, deep values).
    forward_pct: u32,
    /// At most this many edges per node (1..=4; few edges give long chains).
    max_edges: usize,
    /// Forward edges go 1 or 2 indices up only (longer chains still).
    short_hops: bool,
    /// The last node is a sink: terminal (an allowed outcome) or, if no outcome is
    /// allowed, without moves. With forward edges this gives deep values.
    sink: bool,
    /// Non-terminal nodes without edges get one (no moveless losses).
    no_dead_ends: bool,
    holes: bool,
    ghost_moves: bool,
}

/// One node before `Params` apply.
#[derive(Clone, Debug)]
struct RawNode {
    kind_roll: u32,
    outcome_sel: u32,
    /// (target, forward roll) per edge.
    edges: Vec<(u64, u32)>,
}

fn build(params: &Params, raw: &[RawNode]) -> GraphGame {
    let n = raw.len();
    let allowed: Vec<Outcome> = [Outcome::Win, Outcome::Loss, Outcome::Tie]
        .into_iter()
        .enumerate()
        .filter(|(bit, _)| params.outcomes & (1 << bit) != 0)
        .map(|(_, o)| o)
        .collect();
    let nodes = raw
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let terminal = (r.kind_roll < params.terminal_pct && !allowed.is_empty())
                .then(|| allowed[r.outcome_sel as usize % allowed.len()]);
            let mut edges: Vec<u64> = r
                .edges
                .iter()
                .take(params.max_edges)
                .map(|&(t, roll)| {
                    let t = t % n as u64;
                    if roll < params.forward_pct && i + 1 < n {
                        let span = if params.short_hops { (n - i - 1).min(2) } else { n - i - 1 };
                        (i + 1) as u64 + t % span as u64
                    } else {
                        t
                    }
                })
                .collect();
            if params.sink && i + 1 == n {
                return Node {
                    terminal: allowed.get(r.outcome_sel as usize % allowed.len().max(1)).copied(),
                    edges: Vec::new(),
                };
            }
            if edges.is_empty() && params.no_dead_ends {
                edges.push(((i + 1) % n) as u64);
            }
            Node { terminal, edges }
        })
        .collect();
    GraphGame::new(nodes, params.holes, params.ghost_moves)
}

fn graph_strategy() -> impl Strategy<Value = GraphGame> {
    let shape = (
        prop_oneof![0u32..=70, 0u32..=5],
        0u8..8,
        prop_oneof![Just(0u32), 0u32..=100],
        prop_oneof![Just(4usize), 1usize..=4],
        any::<bool>(),
    );
    let flags = (prop::bool::weighted(0.3), prop::bool::weighted(0.25), any::<bool>(), prop::bool::weighted(0.2));
    let general = (shape, flags).prop_map(
        |((terminal_pct, outcomes, forward_pct, max_edges, short_hops), (sink, no_dead_ends, holes, ghost_moves))| {
            Params {
                terminal_pct,
                outcomes,
                forward_pct,
                max_edges,
                short_hops,
                sink,
                no_dead_ends,
                holes,
                ghost_moves,
            }
        },
    );
    // Long chains: few terminals and edges, mostly one or two steps forward, ending in
    // a sink. These reach remoteness 20 and more.
    let chain = (
        0u32..4,
        0u8..8,
        85u32..=100,
        1usize..=2,
        (prop::bool::weighted(0.8), any::<bool>(), prop::bool::weighted(0.2)),
    )
        .prop_map(|(terminal_pct, outcomes, forward_pct, max_edges, (no_dead_ends, holes, ghost_moves))| Params {
            terminal_pct,
            outcomes,
            forward_pct,
            max_edges,
            short_hops: true,
            sink: true,
            no_dead_ends,
            holes,
            ghost_moves,
        });
    let params = prop_oneof![3 => general, 1 => chain];
    (1usize..=40, params)
        .prop_flat_map(|(n, params)| {
            let node = (0u32..100, 0u32..3, prop::collection::vec((0..n as u64, 0u32..100), 0..=4))
                .prop_map(|(kind_roll, outcome_sel, edges)| RawNode { kind_roll, outcome_sel, edges });
            (Just(params), prop::collection::vec(node, n))
        })
        .prop_map(|(params, raw)| build(&params, &raw))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1500,
        // Do not write regression files into the source tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_graphs_match_the_naive_solver(game in graph_strategy()) {
        if let Err(message) = check_graph(&game) {
            prop_assert!(false, "{}", message);
        }
    }
}

/// SplitMix64: a tiny deterministic generator for the seeded cases.
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

fn random_graph(seed: u64) -> GraphGame {
    let mut rng = Rng(seed);
    let n = 1 + rng.below(40) as usize;
    let mut params = Params {
        terminal_pct: if rng.percent(50) { rng.below(71) as u32 } else { rng.below(6) as u32 },
        outcomes: rng.below(8) as u8,
        forward_pct: if rng.percent(50) { 0 } else { rng.below(101) as u32 },
        max_edges: if rng.percent(50) { 4 } else { 1 + rng.below(4) as usize },
        short_hops: rng.percent(50),
        sink: rng.percent(30),
        no_dead_ends: rng.percent(25),
        holes: rng.percent(50),
        ghost_moves: rng.percent(20),
    };
    if rng.percent(20) {
        // Long chains, as in `graph_strategy`.
        params.terminal_pct = rng.below(4) as u32;
        params.forward_pct = 85 + rng.below(16) as u32;
        params.max_edges = 1 + rng.below(2) as usize;
        params.short_hops = true;
        params.sink = true;
        params.no_dead_ends = rng.percent(80);
    }
    let raw: Vec<RawNode> = (0..n)
        .map(|_| RawNode {
            kind_roll: rng.below(100) as u32,
            outcome_sel: rng.below(3) as u32,
            edges: (0..rng.below(5)).map(|_| (rng.below(n as u64), rng.below(100) as u32)).collect(),
        })
        .collect();
    build(&params, &raw)
}

const SEEDED_CASES: u64 = 5000;

#[test]
fn seeded_random_graphs_match_the_naive_solver() {
    let mut kinds = [0u64; 4]; // wins, losses, ties, draws seen, to show the mix is rich
    for seed in 0..SEEDED_CASES {
        let game = random_graph(seed);
        if let Err(message) = check_graph(&game) {
            panic!("seed {seed}: {message}\n{}", game.describe());
        }
        for v in naive_solve(&game.nodes).into_iter().flatten() {
            kinds[match v {
                Value::Win(_) => 0,
                Value::Loss(_) => 1,
                Value::Tie(_) => 2,
                Value::Draw => 3,
            }] += 1;
        }
    }
    println!("values seen (wins, losses, ties, draws): {kinds:?}");
    assert!(kinds.iter().all(|&k| k > 1000), "value kinds too rare: {kinds:?}");
}

/// Many random graphs as one big game, node ids shuffled so that moves cross the
/// whole index: enough positions and wide enough levels for the solver's parallel
/// paths (chunks, per-thread ranges), which the small graphs never reach. The naive
/// solver runs on each small graph; its values are mapped through the shuffle.
#[test]
fn disjoint_union_of_random_graphs_matches_the_naive_solver() {
    const COMPONENTS: u64 = 8000;
    let graphs: Vec<GraphGame> = (0..COMPONENTS).map(|k| random_graph(1_000_000 + k)).collect();
    let total: usize = graphs.iter().map(|g| g.nodes.len()).sum();
    // A random permutation of 0..total (Fisher-Yates).
    let mut rng = Rng(42);
    let mut new_id: Vec<u64> = (0..total as u64).collect();
    for i in (1..total).rev() {
        new_id.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut slots: Vec<Option<Node>> = vec![None; total];
    let mut expected: Vec<Option<Value>> = vec![None; total];
    let mut offset = 0;
    for g in &graphs {
        let values = naive_solve(&g.nodes);
        for (i, node) in g.nodes.iter().enumerate() {
            let id = new_id[offset + i] as usize;
            expected[id] = values[i];
            slots[id] = node.as_ref().map(|node| Node {
                terminal: node.terminal,
                edges: node.edges.iter().map(|&c| new_id[offset + c as usize]).collect(),
            });
        }
        offset += g.nodes.len();
    }
    // Non-ghost graphs have no edges on terminals, so one flag serves all.
    let game = GraphGame::from_slots(slots, true);
    // Every level in parallel (`parallel_from: 0`) and every large frontier sorted
    // (`sort_from: 0`), on pools of 1 to 4 threads (the solver rounds to a power
    // of two: 1, 2, 2, 4 owners), and with the defaults.
    let all_parallel = retrograde::Options { parallel_from: 0, sort_from: 0, ..Default::default() };
    let mut runs = vec![("solve (defaults)".to_string(), retrograde::solve(&game))];
    for threads in 1..=4 {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        runs.push((format!("solve, {threads} threads"), pool.install(|| retrograde::solve_with(&game, &all_parallel))));
        runs.push((
            format!("solve_forward_only, {threads} threads"),
            pool.install(|| retrograde::solve_forward_only_with(&ForwardOnly(&game), &all_parallel)),
        ));
        // Levels past the first listed up to 1,000 entries, else scanned.
        let scanned = retrograde::Options { frontier_limit: Some(1000), ..all_parallel };
        runs.push((
            format!("solve, levels scanned, {threads} threads"),
            pool.install(|| retrograde::solve_with(&game, &scanned)),
        ));
        runs.push((
            format!("solve, terminals not indexed, levels scanned, {threads} threads"),
            pool.install(|| retrograde::solve_with(&HiddenTerminals(&game), &scanned)),
        ));
    }
    for (name, solution) in &runs {
        assert_eq!(solution.len(), total as u64, "{name}");
        for (i, want) in expected.iter().enumerate() {
            assert_eq!(solution.value(i as u64), *want, "{name}: position {i} of {total}");
        }
    }
    check_local_consistency(&game, |i| runs[0].1.value(i), "solve").unwrap();
    let level0 = expected.iter().flatten().filter(|v| v.remoteness() == Some(0)).count();
    println!("{total} positions, {level0} decided at remoteness 0");
    // Wide enough to spread over many of the solver's blocks and chunks.
    assert!(level0 > 30_000, "the first level should be wide ({level0})");
}

#[test]
fn random_graphs_reach_deep_values_and_late_ties() {
    // The generator must produce what the semantics care about: deep remoteness, ties
    // decided in phase 2 (through a cycle), and ties whose remoteness is smaller than
    // the round they are decided in (a child won or lost at least as far out).
    let (mut deepest, mut cycle_ties, mut late_ties, mut deep_graphs) = (0, 0, 0, 0);
    for seed in 0..SEEDED_CASES {
        let game = random_graph(seed);
        let values = naive_solve(&game.nodes);
        if values.iter().flatten().any(|v| v.remoteness().unwrap_or(0) >= 10) {
            deep_graphs += 1;
        }
        for (i, v) in values.iter().enumerate() {
            let Some(v) = v else { continue };
            deepest = deepest.max(v.remoteness().unwrap_or(0));
            let Value::Tie(r) = *v else { continue };
            let kids = game.children(i as u64).iter().map(|&c| values[c as usize].unwrap());
            // A tie with a drawn child cannot be decided in phase 1 (not all its
            // children are), so it is a phase-2 tie.
            if kids.clone().any(|k| k == Value::Draw) {
                cycle_ties += 1;
            }
            if kids.into_iter().any(|k| matches!(k, Value::Win(w) | Value::Loss(w) if w >= r)) {
                late_ties += 1;
            }
        }
    }
    println!(
        "deepest remoteness {deepest} ({deep_graphs} graphs reach 10), \
         {cycle_ties} ties next to draws, {late_ties} late ties"
    );
    assert!(deepest >= 20, "deepest remoteness only {deepest}");
    assert!(deep_graphs >= 200, "only {deep_graphs} graphs reach remoteness 10");
    assert!(cycle_ties >= 100, "only {cycle_ties} ties next to draws");
    assert!(late_ties >= 100, "only {late_ties} late ties");
}

// ---------------------------------------------------------------------------------
// Hand-built graphs with known values
// ---------------------------------------------------------------------------------

/// Solves a plain graph, checks it like a random one, and compares with `want`.
fn assert_values(nodes: Vec<Node>, want: &[Value]) {
    let game = GraphGame::plain(nodes);
    if let Err(message) = check_graph(&game) {
        panic!("{message}\n{}", game.describe());
    }
    let naive: Vec<Value> = naive_solve(&game.nodes).into_iter().map(Option::unwrap).collect();
    assert_eq!(naive, want, "naive solver\n{}", game.describe());
    let solution = retrograde::solve(&game);
    let got: Vec<Value> = (0..game.index_size()).map(|i| solution.value(i).unwrap()).collect();
    assert_eq!(got, want, "retrograde::solve\n{}", game.describe());
}

#[test]
fn two_cycle_without_exit_is_drawn() {
    assert_values(vec![inner(&[1]), inner(&[0])], &[Value::Draw, Value::Draw]);
}

#[test]
fn chain_to_a_loss_alternates() {
    // 0 -> 1 -> 2 -> 3 (terminal, lost by the side to move).
    assert_values(
        vec![inner(&[1]), inner(&[2]), inner(&[3]), term(Outcome::Loss)],
        &[Value::Win(3), Value::Loss(2), Value::Win(1), Value::Loss(0)],
    );
}

#[test]
fn tie_beats_draw() {
    // 0 -> {1: tied, 2: drawn in the 2-cycle 2 <-> 3}.
    assert_values(
        vec![inner(&[1, 2]), term(Outcome::Tie), inner(&[3]), inner(&[2])],
        &[Value::Tie(1), Value::Tie(0), Value::Draw, Value::Draw],
    );
}

#[test]
fn loop_beats_losing_move() {
    // 0 -> {1: won by the opponent, 0 itself}: looping forever beats losing.
    assert_values(vec![inner(&[1, 0]), term(Outcome::Win)], &[Value::Draw, Value::Win(0)]);
}

#[test]
fn stuck_position_is_lost() {
    // 1 has no moves: lost at remoteness 0; its parent 0 wins; 2 can only go to 0.
    assert_values(vec![inner(&[1]), inner(&[]), inner(&[0])], &[Value::Win(1), Value::Loss(0), Value::Loss(2)]);
}

#[test]
fn tie_through_a_cycle() {
    // 0 <-> 1; 1 can also tie (2), 0 can also lose (3 is won by the opponent).
    assert_values(
        vec![inner(&[1, 3]), inner(&[0, 2]), term(Outcome::Tie), term(Outcome::Win)],
        &[Value::Tie(2), Value::Tie(1), Value::Tie(0), Value::Win(0)],
    );
}

#[test]
fn late_decided_tie_keeps_its_small_remoteness() {
    // Chain 2 -> 3 -> 4 -> 5 (terminal Loss): 2 is Win(3), decided in round 3.
    // 0 -> {1: Tie, 2}: its children are all decided only after round 3, so it is
    // decided in round 4, as Tie(1).
    // Chain 7 -> 8 -> 9 -> 10 -> 11 -> 12 (terminal Loss): 7 is Win(5), round 5.
    // 6 -> {0, 7}: decided in round 6 as Tie(2). 13 -> 6: Tie(3), round 7.
    // 14 -> {0, 15}, 15 stuck (Loss(0)): Win(1) beats the tie.
    // 16 -> {0, 16}: a self-loop, but the tie through 0 beats the draw: Tie(2).
    let nodes = vec![
        inner(&[1, 2]),
        term(Outcome::Tie),
        inner(&[3]),
        inner(&[4]),
        inner(&[5]),
        term(Outcome::Loss),
        inner(&[0, 7]),
        inner(&[8]),
        inner(&[9]),
        inner(&[10]),
        inner(&[11]),
        inner(&[12]),
        term(Outcome::Loss),
        inner(&[6]),
        inner(&[0, 15]),
        inner(&[]),
        inner(&[0, 16]),
    ];
    let want = [
        Value::Tie(1),
        Value::Tie(0),
        Value::Win(3),
        Value::Loss(2),
        Value::Win(1),
        Value::Loss(0),
        Value::Tie(2),
        Value::Win(5),
        Value::Loss(4),
        Value::Win(3),
        Value::Loss(2),
        Value::Win(1),
        Value::Loss(0),
        Value::Tie(3),
        Value::Win(1),
        Value::Loss(0),
        Value::Tie(2),
    ];
    assert_values(nodes, &want);
}

#[test]
fn duplicate_moves_count_separately() {
    // 0 has two moves to 1 (won by the opponent) and one to 2 (a 2-cycle with 3 that
    // 3 can leave only into a loss for itself). Counting duplicates right matters for
    // the counters: 0 must not be decided before 2 is.
    assert_values(
        vec![inner(&[1, 1, 2]), term(Outcome::Win), inner(&[3]), inner(&[2, 4]), term(Outcome::Win)],
        &[Value::Draw, Value::Win(0), Value::Draw, Value::Draw, Value::Win(0)],
    );
}

#[test]
fn wide_positions_use_the_wide_counters() {
    // More moves than a byte counter holds (127: the distributed solver's counters),
    // then than a 2-byte cell holds (8,190): the solver must widen.
    let mut edges = vec![1u64; 199];
    edges.push(2);
    let nodes = vec![
        inner(&[1; 200]), // 0: every move loses: Loss(1)
        term(Outcome::Win),
        term(Outcome::Tie),
        inner(&edges),    // 3: 199 losing moves and one tie: Tie(1)
        inner(&[1; 128]), // 4: Loss(1)
        inner(&[1; 127]), // 5: Loss(1)
        inner(&[6; 150]), // 6: 150 self-loops: Draw
        inner(&[0; 130]), // 7: every move wins (0 is lost): Win(2)
    ];
    let want = [
        Value::Loss(1),
        Value::Win(0),
        Value::Tie(0),
        Value::Tie(1),
        Value::Loss(1),
        Value::Loss(1),
        Value::Draw,
        Value::Win(2),
    ];
    assert_values(nodes, &want);
    // A 2-byte cell counts up to 8,190 moves: 8,190 and 8,191 on each side of it,
    // lost, won and drawn.
    let nodes = vec![
        term(Outcome::Win),
        inner(&[0; 8190]), // 1: Loss(1)
        inner(&[0; 8191]), // 2: Loss(1)
        inner(&[1; 8191]), // 3: Win(2)
        inner(&[4; 9000]), // 4: Draw
        inner(&[2, 4]),    // 5: Win(2)
    ];
    let want = [Value::Win(0), Value::Loss(1), Value::Loss(1), Value::Win(2), Value::Draw, Value::Win(2)];
    assert_values(nodes, &want);
    // The width follows the rule: narrow up to 8,190 moves, wide past it.
    for (moves, narrow) in [(8190, true), (8191, false)] {
        let game = GraphGame::plain(vec![term(Outcome::Win), inner(&vec![0; moves])]);
        let solution = retrograde::solve(&game);
        assert_eq!(solution.narrow_codes().is_some(), narrow, "{moves} moves");
        assert_eq!(solution.value(1), Some(Value::Loss(1)));
    }
    let game = GraphGame::plain(vec![inner(&[1; 200]), term(Outcome::Win)]);
    let solution = retrograde::solve_forward_only(&ForwardOnly(&game));
    assert_eq!(solution.value(0), Some(Value::Loss(1)));
}

#[test]
fn holes_have_no_value() {
    // 10 positions with holes at 4 and 9; edges into 4 go to 3, into 9 go to 8.
    let nodes = vec![
        inner(&[4]),
        inner(&[9]),
        inner(&[0]),
        term(Outcome::Loss),
        inner(&[0]),
        inner(&[5]),
        inner(&[]),
        inner(&[6, 7]),
        inner(&[9, 7]),
        inner(&[]),
    ];
    let game = GraphGame::new(nodes, true, false);
    if let Err(message) = check_graph(&game) {
        panic!("{message}\n{}", game.describe());
    }
    let solution = retrograde::solve(&game);
    let got: Vec<Option<Value>> = (0..10).map(|i| solution.value(i)).collect();
    // 0 -> 3 (Loss): Win(1). 1 -> 8 -> {8, 7}; 7 -> 6 (stuck): Win(1); 8: Draw (self
    // loop beats a losing move); 1: Draw. 2 -> 0: Loss(2). 5 -> 5: Draw.
    let want = [
        Some(Value::Win(1)),
        Some(Value::Draw),
        Some(Value::Loss(2)),
        Some(Value::Loss(0)),
        None,
        Some(Value::Draw),
        Some(Value::Loss(0)),
        Some(Value::Win(1)),
        Some(Value::Draw),
        None,
    ];
    assert_eq!(got, want, "{}", game.describe());
}

// ---------------------------------------------------------------------------------
// Tiers: the same graphs cut into tiers, solved one tier at a time
// ---------------------------------------------------------------------------------

/// A graph game cut into tiers: the strongly connected parts of the move graph, in
/// an order where every part comes after the parts its moves lead to, grouped at
/// random into consecutive tiers; within a tier the nodes are numbered in a random
/// order. A tier whose parts are single nodes without self-loops may be given
/// layers (its parts, children first), so that both tier solvers run.
struct TieredGraph<'a> {
    game: &'a GraphGame,
    /// Node -> (tier, index in tier); `None` for terminal nodes left out of every
    /// tier (they are valued by the rules).
    place: Vec<Option<(usize, u64)>>,
    /// Tier -> the node at each index (`None`: a hole).
    members: Vec<Vec<Option<u64>>>,
    /// Tier -> its layers, if given.
    layers: Vec<Option<Vec<std::ops::Range<u64>>>>,
    /// Tier -> (bound, each node's progress), if given: an acyclic tier numbered
    /// in random order, its nodes' depth below the tier's entries (a move within
    /// the tier goes one deeper at least), some levels left empty.
    progress: Vec<Option<(u32, HashMap<u64, u32>)>>,
}

/// The strongly connected parts of the graph, children first (Tarjan's algorithm
/// emits a part after every part reachable from it).
fn strong_parts(game: &GraphGame) -> Vec<Vec<u64>> {
    struct Tarjan<'g> {
        game: &'g GraphGame,
        index: Vec<usize>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        parts: Vec<Vec<u64>>,
        counter: usize,
    }
    impl Tarjan<'_> {
        fn edges(&self, v: usize) -> Vec<u64> {
            match &self.game.nodes[v] {
                Some(node) if node.terminal.is_none() => node.edges.clone(),
                _ => Vec::new(),
            }
        }
        fn visit(&mut self, v: usize) {
            self.index[v] = self.counter;
            self.low[v] = self.counter;
            self.counter += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for w in self.edges(v) {
                let w = w as usize;
                if self.index[w] == usize::MAX {
                    self.visit(w);
                    self.low[v] = self.low[v].min(self.low[w]);
                } else if self.on_stack[w] {
                    self.low[v] = self.low[v].min(self.index[w]);
                }
            }
            if self.low[v] == self.index[v] {
                let mut part = Vec::new();
                loop {
                    let w = self.stack.pop().expect("v is on the stack");
                    self.on_stack[w] = false;
                    part.push(w as u64);
                    if w == v {
                        break;
                    }
                }
                self.parts.push(part);
            }
        }
    }
    let n = game.nodes.len();
    let mut tarjan = Tarjan {
        game,
        index: vec![usize::MAX; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        parts: Vec::new(),
        counter: 0,
    };
    for v in 0..n {
        if tarjan.index[v] == usize::MAX {
            tarjan.visit(v);
        }
    }
    tarjan.parts
}

impl<'a> TieredGraph<'a> {
    fn new(game: &'a GraphGame, seed: u64) -> Self {
        let mut rng = Rng(seed ^ 0x7135);
        let leave_out_terminals = rng.percent(50);
        let parts = strong_parts(game);
        let mut groups: Vec<Vec<Vec<u64>>> = vec![Vec::new()];
        for part in parts {
            if !groups.last().expect("one group").is_empty() && rng.percent(35) {
                groups.push(Vec::new());
            }
            groups.last_mut().expect("one group").push(part);
        }
        let mut place = vec![None; game.nodes.len()];
        let mut members = Vec::new();
        let mut layers = Vec::new();
        let mut progress = Vec::new();
        for (tier, group) in groups.iter().enumerate() {
            let acyclic = group.iter().all(|part| {
                part.len() == 1 && game.nodes[part[0] as usize].as_ref().is_none_or(|n| !n.edges.contains(&part[0]))
            });
            let layered = acyclic && rng.percent(60);
            let mut order: Vec<u64> = group.iter().flatten().copied().collect();
            let by_progress = acyclic && !layered && rng.percent(70);
            if by_progress {
                // Children come first in `order`: walked backwards, parents first.
                let stretch = 1 + rng.below(3) as u32;
                let inside: HashMap<u64, ()> = order.iter().map(|&n| (n, ())).collect();
                let mut depth: HashMap<u64, u32> = order.iter().map(|&n| (n, 0)).collect();
                for &node in order.iter().rev() {
                    let d = depth[&node];
                    if let Some(n) = game.nodes[node as usize].as_ref().filter(|n| n.terminal.is_none()) {
                        for child in &n.edges {
                            if inside.contains_key(child) {
                                let c = depth.get_mut(child).expect("inside");
                                *c = (*c).max(d + stretch);
                            }
                        }
                    }
                }
                let bound = depth.values().copied().max().unwrap_or(0) + rng.below(3) as u32;
                progress.push(Some((bound, depth)));
            } else {
                progress.push(None);
            }
            if !layered {
                // Any numbering: shuffle.
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i as u64 + 1) as usize);
                }
            }
            let mut slots = Vec::new();
            let mut tier_layers = Vec::new();
            for &node in &order {
                let terminal = game.nodes[node as usize].as_ref().is_some_and(|n| n.terminal.is_some());
                if terminal && leave_out_terminals {
                    continue;
                }
                let at = slots.len() as u64;
                place[node as usize] = Some((tier, at));
                slots.push(game.nodes[node as usize].as_ref().map(|_| node));
                tier_layers.push(at..at + 1);
            }
            members.push(slots);
            layers.push(layered.then_some(tier_layers));
        }
        TieredGraph { game, place, members, layers, progress }
    }
}

impl Game for TieredGraph<'_> {
    type Position = u64;
    type Move = usize;

    fn terminal(&self, p: &u64) -> Option<Outcome> {
        self.game.terminal(p)
    }
    fn moves(&self, p: &u64, moves: &mut Vec<usize>) {
        self.game.moves(p, moves)
    }
    fn play(&self, p: &u64, mv: &usize) -> u64 {
        self.game.play(p, mv)
    }
}

impl Tiered for TieredGraph<'_> {
    type Tier = usize;

    fn tiers(&self) -> Vec<usize> {
        (0..self.members.len()).collect()
    }
    fn child_tiers(&self, tier: usize) -> Vec<usize> {
        (0..tier).collect()
    }
    fn tier_size(&self, tier: usize) -> u64 {
        self.members[tier].len() as u64
    }
    fn tier_name(&self, tier: usize) -> String {
        format!("t{tier}")
    }
    fn locate(&self, p: &u64) -> Option<(usize, u64)> {
        self.place[*p as usize]
    }
    fn position_in(&self, tier: usize, index: u64) -> Option<u64> {
        self.members[tier][index as usize]
    }
    fn for_each_layer_in_tier(&self, tier: usize, mut f: impl FnMut(std::ops::Range<u64>)) -> bool {
        match &self.layers[tier] {
            Some(layers) => {
                layers.iter().cloned().for_each(&mut f);
                true
            }
            None => false,
        }
    }
    fn progress_bound(&self, tier: usize) -> Option<u32> {
        self.progress[tier].as_ref().map(|(bound, _)| *bound)
    }
    fn progress(&self, tier: usize, p: &u64) -> u32 {
        self.progress[tier].as_ref().expect("asked only with a bound").1[p]
    }
}

/// The tiered solve equals the naive solver at every position.
fn check_tiered(game: &GraphGame, seed: u64) -> Result<(), String> {
    let expected = naive_solve(&game.nodes);
    let tiered = TieredGraph::new(game, seed);
    let solved = tiered::solve_all(&tiered);
    for (node, slot) in game.nodes.iter().enumerate() {
        if slot.is_none() {
            continue;
        }
        let got = match tiered.place[node] {
            Some((tier, index)) => solved.get(tier).expect("every tier solved").value(index),
            None => game.terminal(&(node as u64)).map(Outcome::value),
        };
        if got != expected[node] {
            return Err(format!(
                "node {node} (tier {:?}): tiered {got:?}, naive {:?}",
                tiered.place[node], expected[node]
            ));
        }
    }
    Ok(())
}

#[test]
fn seeded_random_graphs_in_tiers_match_the_naive_solver() {
    let (mut layered_tiers, mut progress_tiers) = (0, 0);
    for seed in 0..SEEDED_CASES {
        let game = random_graph(seed);
        if let Err(message) = check_tiered(&game, seed) {
            panic!("seed {seed}: {message}\n{}", game.describe());
        }
        let tiered = TieredGraph::new(&game, seed);
        layered_tiers += tiered.layers.iter().filter(|l| l.is_some()).count();
        progress_tiers += tiered.progress.iter().filter(|p| p.as_ref().is_some_and(|(_, d)| d.len() > 2)).count();
    }
    assert!(layered_tiers > 1000, "every tier solver runs: {layered_tiers} layered tiers");
    assert!(progress_tiers > 300, "every tier solver runs: {progress_tiers} tiers by progress");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_graphs_in_tiers_match_the_naive_solver(game in graph_strategy(), seed in any::<u64>()) {
        if let Err(message) = check_tiered(&game, seed) {
            prop_assert!(false, "{}", message);
        }
    }
}

/// Chains of `length` moves to a lost terminal and to a tied one, beside a random
/// graph (its ids after the chains'), as one game.
fn chains_beside(length: u64, seed: u64) -> (GraphGame, u64) {
    let mut nodes = Vec::new();
    // 0..=length: i moves to i + 1; `length` is lost.
    for i in 0..length {
        nodes.push(inner(&[i + 1]));
    }
    nodes.push(term(Outcome::Loss));
    // The tied chain, the same way.
    let base = length + 1;
    for i in 0..length {
        nodes.push(inner(&[base + i + 1]));
    }
    nodes.push(term(Outcome::Tie));
    let offset = nodes.len() as u64;
    let random = random_graph(seed);
    for node in &random.nodes {
        // Holes of the random graph become lost terminals: no edge leads there.
        match node {
            Some(n) => nodes.push(Node { terminal: n.terminal, edges: n.edges.iter().map(|&c| c + offset).collect() }),
            None => nodes.push(term(Outcome::Loss)),
        }
    }
    (GraphGame::plain(nodes), offset)
}

/// The narrow path (2-byte values) while every remoteness fits in 14 bits, the wide
/// one (4 bytes) past 16,383 plies, lost chains and tied chains alike (the tie's
/// breadth-first pass too); the values are the same, and the random graph beside
/// the chains is valued as on its own.
#[test]
fn values_go_wide_only_past_the_narrow_remoteness() {
    for (length, width) in [(16_383u64, 2usize), (16_384, 4), (17_000, 4)] {
        for seed in [3u64, 77] {
            let (game, offset) = chains_beside(length, seed);
            let solution = retrograde::solve(&game);
            assert_eq!(solution.bytes_per_index(), width, "chains of {length}");
            for d in [0, 1, 2, length - 1, length] {
                let (lost, tied) = (length - d, 2 * length + 1 - d);
                let want = if d % 2 == 0 { Value::Loss(d as u32) } else { Value::Win(d as u32) };
                assert_eq!(solution.value(lost), Some(want), "{d} plies from the loss");
                assert_eq!(solution.value(tied), Some(Value::Tie(d as u32)), "{d} plies from the tie");
            }
            let random = random_graph(seed);
            let want = naive_solve(&random.nodes);
            for (i, w) in want.iter().enumerate() {
                if let Some(w) = w {
                    assert_eq!(solution.value(offset + i as u64), Some(*w), "seed {seed}, node {i}");
                }
            }
            // Narrow and wide solutions of the same values are equal.
            assert_eq!(Solution::from_packed(solution.packed().into_owned()), solution);
        }
    }
}
