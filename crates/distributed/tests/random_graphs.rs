//! The distributed retrograde solver against the engine's (itself checked against
//! a naive solver in the engine's tests), index for index, on random move graphs
//! with cycles, ties, draws and holes, terminal positions hidden, wins in 1 left
//! out of the index: two workers in one process, and two
//! processes (threads of this test, each its own timely run) over 127.0.0.1.

mod common;

use common::{local_addresses, Random};
use gsolve_distributed::{retrograde, Cluster};
use gsolve_engine::{Game, Indexed, Outcome, Solution, Unmoves};
use std::sync::Arc;
use std::time::Duration;

/// An explicit move graph; position = node = index. `None` is a hole.
#[derive(Clone, Debug)]
struct Graph {
    nodes: Vec<Option<Node>>,
    parents: Vec<Vec<u64>>,
}

#[derive(Clone, Debug)]
enum Node {
    Terminal(Outcome),
    Inner(Vec<u64>),
}

impl Graph {
    /// `size` nodes: about one in 8 terminal (a third each lost, won, tied), one
    /// in 10 a hole, the rest with 0 to `max_moves` moves to random non-hole nodes.
    fn random(seed: u64, size: usize, max_moves: u64) -> Graph {
        let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let holes: Vec<bool> = (0..size).map(|_| random.below(10) == 0).collect();
        let targets: Vec<u64> = (0..size as u64).filter(|&i| !holes[i as usize]).collect();
        let mut nodes = Vec::with_capacity(size);
        for hole in &holes {
            if *hole {
                nodes.push(None);
            } else if random.below(8) == 0 {
                let outcome = match random.below(3) {
                    0 => Outcome::Loss,
                    1 => Outcome::Win,
                    _ => Outcome::Tie,
                };
                nodes.push(Some(Node::Terminal(outcome)));
            } else {
                let moves = if targets.is_empty() { 0 } else { random.below(max_moves + 1) };
                let edges = (0..moves).map(|_| targets[random.below(targets.len() as u64) as usize]).collect();
                nodes.push(Some(Node::Inner(edges)));
            }
        }
        let mut parents = vec![Vec::new(); size];
        for (p, node) in nodes.iter().enumerate() {
            if let Some(Node::Inner(edges)) = node {
                for &c in edges {
                    parents[c as usize].push(p as u64);
                }
            }
        }
        Graph { nodes, parents }
    }
}

impl Game for Graph {
    type Position = u64;
    type Move = u64;
    fn terminal(&self, p: &u64) -> Option<Outcome> {
        match &self.nodes[*p as usize] {
            Some(Node::Terminal(outcome)) => Some(*outcome),
            _ => None,
        }
    }
    fn moves(&self, p: &u64, moves: &mut Vec<u64>) {
        if let Some(Node::Inner(edges)) = &self.nodes[*p as usize] {
            moves.extend(edges);
        }
    }
    fn play(&self, _: &u64, mv: &u64) -> u64 {
        *mv
    }
}

impl Indexed for Graph {
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

impl Unmoves for Graph {
    fn for_each_parent(&self, p: &u64, mut f: impl FnMut(u64)) {
        self.parents[*p as usize].iter().for_each(|&q| f(q));
    }
}

/// The moves of the wrapped [`Graph`]: a wrapper changes only what the index
/// holds.
macro_rules! graph_moves {
    ($wrapper:ty) => {
        impl Game for $wrapper {
            type Position = u64;
            type Move = u64;
            fn terminal(&self, p: &u64) -> Option<Outcome> {
                self.0.terminal(p)
            }
            fn moves(&self, p: &u64, moves: &mut Vec<u64>) {
                self.0.moves(p, moves)
            }
            fn play(&self, p: &u64, mv: &u64) -> u64 {
                self.0.play(p, mv)
            }
        }
    };
}

/// The same graph, its terminal positions not indexed (they are holes to the
/// index; the solver values them from their parents' moves).
#[derive(Clone, Debug)]
struct HiddenTerminals(Graph);

graph_moves!(HiddenTerminals);

impl Indexed for HiddenTerminals {
    fn terminals_indexed(&self) -> bool {
        false
    }
    fn index_size(&self) -> u64 {
        self.0.index_size()
    }
    fn index(&self, p: &u64) -> u64 {
        *p
    }
    fn position(&self, index: u64) -> Option<u64> {
        self.0.position(index).filter(|p| self.0.terminal(p).is_none())
    }
}

impl Unmoves for HiddenTerminals {
    fn for_each_parent(&self, p: &u64, f: impl FnMut(u64)) {
        self.0.for_each_parent(p, f)
    }
}

/// The same graph with its terminal positions hidden and, as a rules game whose
/// royal pieces are ranked as a pair, its wins in 1 (a move to a terminal
/// loss) left out of the index: the rules value them
/// ([`Indexed::value_by_rules`]), so their parents can be decided at
/// remoteness 1 or 2 before any propagation.
#[derive(Clone, Debug)]
struct LeftOutWins(Graph);

impl LeftOutWins {
    fn wins_in_one(&self, p: u64) -> bool {
        match &self.0.nodes[p as usize] {
            Some(Node::Inner(edges)) => {
                edges.iter().any(|&c| matches!(self.0.nodes[c as usize], Some(Node::Terminal(Outcome::Loss))))
            }
            _ => false,
        }
    }
}

graph_moves!(LeftOutWins);

impl Indexed for LeftOutWins {
    fn terminals_indexed(&self) -> bool {
        false
    }
    fn value_by_rules(&self, p: &u64) -> Option<gsolve_engine::Value> {
        match self.terminal(p) {
            Some(outcome) => Some(outcome.value()),
            None => self.wins_in_one(*p).then_some(gsolve_engine::Value::Win(1)),
        }
    }
    fn index_size(&self) -> u64 {
        self.0.index_size()
    }
    fn index(&self, p: &u64) -> u64 {
        *p
    }
    fn position(&self, index: u64) -> Option<u64> {
        self.0.position(index).filter(|&p| self.0.terminal(&p).is_none() && !self.wins_in_one(p))
    }
}

impl Unmoves for LeftOutWins {
    /// The parents the index holds.
    fn for_each_parent(&self, p: &u64, mut f: impl FnMut(u64)) {
        self.0.for_each_parent(p, |q| {
            if !self.wins_in_one(q) {
                f(q)
            }
        })
    }
}

/// The same graph keeping its wins in 1 in the index, valued by the rules all
/// the same (first look [`gsolve_engine::FirstLook::ByRules`]): no parent
/// counts them and the solvers never propagate from them; the parents' walk
/// leaves them out, as rules games do.
#[derive(Clone, Debug)]
struct KeptWins(LeftOutWins);

graph_moves!(KeptWins);

impl Indexed for KeptWins {
    fn terminals_indexed(&self) -> bool {
        false
    }
    fn value_by_rules(&self, p: &u64) -> Option<gsolve_engine::Value> {
        self.0.value_by_rules(p)
    }
    fn index_size(&self) -> u64 {
        self.0.index_size()
    }
    fn index(&self, p: &u64) -> u64 {
        *p
    }
    fn position(&self, index: u64) -> Option<u64> {
        self.0 .0.position(index).filter(|p| self.0 .0.terminal(p).is_none())
    }
}

impl Unmoves for KeptWins {
    fn for_each_parent(&self, p: &u64, f: impl FnMut(u64)) {
        self.0.for_each_parent(p, f)
    }
}

/// The engine's values of [`HiddenTerminals`] (no wins by the rules), the
/// reference for [`KeptWins`]: equal at every index.
fn kept_wins_expected(graph: &Graph) -> Solution {
    gsolve_engine::retrograde::solve(&HiddenTerminals(graph.clone()))
}

fn same(expected: &Solution, got: &Solution, what: &str) {
    assert_eq!(expected.len(), got.len(), "{what}: sizes");
    for i in 0..expected.len() {
        assert_eq!(expected.value(i), got.value(i), "{what}: index {i}");
    }
}

/// Two worker threads in one process; chunks of 4 indices so that both own many.
fn two_workers<G: Unmoves + Clone + Send + Sync + 'static>(game: &G) -> Solution {
    two_workers_listing(game, None)
}

/// [`two_workers`], each listing at most `limit` positions of a level (the rest
/// found by scanning its values).
fn two_workers_listing<G: Unmoves + Clone + Send + Sync + 'static>(game: &G, limit: Option<usize>) -> Solution {
    retrograde::solve_on_with(&Cluster::single(2), "test", Arc::new(game.clone()), 2, limit)
        .expect("the run works")
        .expect("process 0 gets the values")
}

/// Two processes of one worker each, over 127.0.0.1 (each a thread here, with
/// its own timely run and sockets); the run must end within a minute.
fn two_processes<G: Unmoves + Clone + Send + Sync + 'static>(game: &G, chunk_shift: u32) -> Solution {
    let addresses = local_addresses(2);
    let (done, finished) = std::sync::mpsc::channel();
    for process in 0..2 {
        let cluster = Cluster::new(2, process, addresses.clone(), 1).unwrap();
        let (game, done) = (Arc::new(game.clone()), done.clone());
        std::thread::spawn(move || {
            let result = retrograde::solve_on(&cluster, "test", game, chunk_shift);
            let _ = done.send((process, result));
        });
    }
    let mut solution = None;
    for _ in 0..2 {
        let (process, result) = finished.recv_timeout(Duration::from_secs(60)).expect("a process hangs");
        let result = result.unwrap_or_else(|e| panic!("process {process}: {e}"));
        assert_eq!(result.is_some(), process == 0);
        solution = solution.or(result);
    }
    solution.unwrap()
}

#[test]
fn two_workers_give_the_engines_values_on_random_graphs() {
    for seed in 0..60u64 {
        let size = 1 + (seed as usize * 7) % 90;
        let graph = Graph::random(seed, size, 1 + seed % 4);
        let expected = gsolve_engine::retrograde::solve(&graph);
        same(&expected, &two_workers(&graph), &format!("seed {seed}: {graph:?}"));
        let hidden = HiddenTerminals(graph.clone());
        let expected = gsolve_engine::retrograde::solve(&hidden);
        same(&expected, &two_workers(&hidden), &format!("seed {seed}, terminals hidden: {graph:?}"));
        let left_out = LeftOutWins(graph.clone());
        let expected = gsolve_engine::retrograde::solve(&left_out);
        same(&expected, &two_workers(&left_out), &format!("seed {seed}, wins in 1 left out: {graph:?}"));
        let kept = KeptWins(left_out);
        let what = format!("seed {seed}, wins in 1 kept: {graph:?}");
        same(&kept_wins_expected(&graph), &gsolve_engine::retrograde::solve(&kept), &what);
        same(&kept_wins_expected(&graph), &two_workers(&kept), &what);
    }
}

/// Levels past the first found by scanning the values instead of listed: all
/// of them (a limit of 0), or those past 2 positions a worker.
#[test]
fn scanned_levels_give_the_engines_values_on_random_graphs() {
    for seed in 200..260u64 {
        let size = 1 + (seed as usize * 7) % 90;
        let graph = Graph::random(seed, size, 1 + seed % 4);
        for limit in [0, 2] {
            let what = |kind: &str| format!("seed {seed}, limit {limit}{kind}: {graph:?}");
            let expected = gsolve_engine::retrograde::solve(&graph);
            same(&expected, &two_workers_listing(&graph, Some(limit)), &what(""));
            let hidden = HiddenTerminals(graph.clone());
            let expected = gsolve_engine::retrograde::solve(&hidden);
            same(&expected, &two_workers_listing(&hidden, Some(limit)), &what(", terminals hidden"));
            let left_out = LeftOutWins(graph.clone());
            let expected = gsolve_engine::retrograde::solve(&left_out);
            same(&expected, &two_workers_listing(&left_out, Some(limit)), &what(", wins in 1 left out"));
            let kept = KeptWins(left_out);
            same(&kept_wins_expected(&graph), &two_workers_listing(&kept, Some(limit)), &what(", wins in 1 kept"));
        }
    }
}

#[test]
fn two_processes_over_tcp_give_the_engines_values_on_random_graphs() {
    for seed in 100..110u64 {
        let graph = Graph::random(seed, 300 + seed as usize, 3);
        let expected = gsolve_engine::retrograde::solve(&graph);
        same(&expected, &two_processes(&graph, 3), &format!("seed {seed}"));
        let hidden = HiddenTerminals(graph.clone());
        let expected = gsolve_engine::retrograde::solve(&hidden);
        same(&expected, &two_processes(&hidden, 3), &format!("seed {seed}, terminals hidden"));
        let left_out = LeftOutWins(graph);
        let expected = gsolve_engine::retrograde::solve(&left_out);
        same(&expected, &two_processes(&left_out, 3), &format!("seed {seed}, wins in 1 left out"));
    }
}

#[test]
fn graphs_with_long_ties_and_many_moves_go_wide_as_in_the_engine() {
    // A chain of 20,000 positions that ties at its end: ties past the narrow
    // remoteness are not reached here (that takes 16,384 plies), but a position
    // with 300 moves makes the counters wide.
    let size = 400usize;
    let mut nodes: Vec<Option<Node>> =
        (0..size as u64).map(|i| Some(Node::Inner(vec![(i + 1) % size as u64]))).collect();
    nodes[size - 1] = Some(Node::Terminal(Outcome::Tie));
    nodes[0] = Some(Node::Inner((1..301).collect()));
    let mut parents = vec![Vec::new(); size];
    for (p, node) in nodes.iter().enumerate() {
        if let Some(Node::Inner(edges)) = node {
            edges.iter().for_each(|&c| parents[c as usize].push(p as u64));
        }
    }
    let graph = Graph { nodes, parents };
    let expected = gsolve_engine::retrograde::solve(&graph);
    same(&expected, &two_workers(&graph), "wide counters");
}

/// A solve written by two workers, the blocks gathered to worker 0 a few at a
/// time (rounds of 8 raw bytes, blocks of 4 positions): the file the engine's
/// solve writes in one process, byte for byte.
#[test]
fn a_file_gathered_in_many_batches_is_the_single_process_file() {
    use gsolve_distributed::build::write_parts_in_batches;
    use gsolve_distributed::partition::Partition;
    use gsolve_distributed::rounds::Rounds;
    use gsolve_tablebase::write::{self, Identity, WriteOptions};
    let dir = std::env::temp_dir().join(format!("gsolve-batches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let options = WriteOptions { force: true, level: 3, block_bytes: 4 };
    let parameters = vec![("seed".to_string(), "7".to_string())];
    let identity = Identity { game: "graph", parameters: &parameters, index_version: 1 };
    for seed in 300..304u64 {
        let graph = Graph::random(seed, 200 + seed as usize, 3);
        let single = dir.join(format!("single-{seed}.gtb"));
        write::write_values(&single, &identity, &gsolve_engine::retrograde::solve(&graph), &options, None).unwrap();
        let path = dir.join(format!("two-{seed}.gtb"));
        let (game, target, options, parameters) = (Arc::new(graph), path.clone(), options.clone(), parameters.clone());
        let written = gsolve_distributed::cluster::run(&Cluster::single(2), "test", move |worker| {
            let partition = Partition::new(game.index_size(), worker.peers(), 2);
            let mut rounds = Rounds::new(worker, partition, 2);
            let part = retrograde::solve(worker, &mut rounds, &*game, &retrograde::Options::default())?;
            let identity = Identity { game: "graph", parameters: &parameters, index_version: 1 };
            write_parts_in_batches(worker, &mut rounds, &part, &identity, &target, &options, 8)
        })
        .expect("the run works");
        assert!(written.iter().flatten().all(|w| w.is_ok()), "seed {seed}: the write fails");
        assert_eq!(std::fs::read(&single).unwrap(), std::fs::read(&path).unwrap(), "seed {seed}: the files differ");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
