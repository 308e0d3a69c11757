//! Verification proves right tables right and finds every single wrong value:
//! random graphs with cycles, holes, terminal wins, losses and ties, and real games;
//! block damage is found and pinned to its block.
//!
//! What a single changed value must do: only the changed index's own check and its
//! parents' checks read that value, so verify must report the changed index itself
//! (its stored value no longer matches its unchanged children, or it is a hole with
//! a value, or a position without one, or not a value), and nothing but the changed
//! index and its parents. The tests assert exactly that: the failures are a subset
//! of {changed index} ∪ parents, containing the changed index, with the problem the
//! change implies; so the first failure is the changed index or one of its parents.

mod common;

use common::{random_value, Rng, TempDir};
use gsolve_engine::{layered, retrograde, Game, Indexed, Outcome, PackedValue, Unmoves, Value, Variant};
use gsolve_games::chase::Chase;
use gsolve_games::pawns::Pawns;
use gsolve_tablebase::verify::{Failure, Problem};
use gsolve_tablebase::write::{self, WriteOptions};
use gsolve_tablebase::{verify, Error, GameTablebase, Tablebase, Verification};
use std::collections::BTreeSet;
use std::path::Path;

/// A node of a random graph.
#[derive(Clone, Debug)]
enum Node {
    /// An index that names no position; no move leads here.
    Hole,
    /// The game is over here.
    Terminal(Outcome),
    /// Moves to these indices (none: the side to move is stuck and loses).
    Inner(Vec<u32>),
}

/// A made-up game: positions are the indices of a random directed graph.
struct RandomGraph {
    seed: u64,
    nodes: Vec<Node>,
    /// Parents of each index, one per move leading to it.
    parents: Vec<Vec<u32>>,
}

impl RandomGraph {
    fn new(seed: u64) -> RandomGraph {
        let mut rng = Rng::new(seed);
        let shape = rng.below(4);
        let n = match shape {
            // Long chains: remoteness above 63 needs 2-byte codes.
            3 => 60 + rng.below(200),
            _ => 1 + rng.below(120),
        } as usize;
        let hole_percent = rng.below(25);
        let terminal_percent = rng.below(30);
        let stuck_percent = rng.below(10);
        let max_degree = 1 + rng.below(4);
        let holes: Vec<bool> = (0..n).map(|_| rng.chance(hole_percent, 100)).collect();
        let targets: Vec<u32> = (0..n as u32).filter(|&i| !holes[i as usize]).collect();
        let nodes = (0..n)
            .map(|i| {
                if holes[i] {
                    return Node::Hole;
                }
                if rng.chance(terminal_percent, 100) && shape != 3 {
                    return Node::Terminal(match rng.below(3) {
                        0 => Outcome::Win,
                        1 => Outcome::Loss,
                        _ => Outcome::Tie,
                    });
                }
                if rng.chance(stuck_percent, 100) || (shape == 3 && i == 0) {
                    return Node::Inner(Vec::new());
                }
                let degree = match shape {
                    3 => 1 + rng.chance(10, 100) as u64,
                    _ => 1 + rng.below(max_degree),
                };
                let moves = (0..degree)
                    .map(|_| {
                        // Mostly to a nearby lower index (chains, long remoteness),
                        // else anywhere (cycles, self-loops, repeated moves).
                        let near = targets.partition_point(|&t| (t as usize) < i);
                        if (shape >= 2 || rng.chance(50, 100)) && near > 0 {
                            targets[near - 1 - rng.below(near.min(2) as u64) as usize]
                        } else {
                            targets[rng.below(targets.len() as u64) as usize]
                        }
                    })
                    .collect();
                Node::Inner(moves)
            })
            .collect::<Vec<_>>();
        let mut parents = vec![Vec::new(); n];
        for (i, node) in nodes.iter().enumerate() {
            if let Node::Inner(moves) = node {
                for &child in moves {
                    parents[child as usize].push(i as u32);
                }
            }
        }
        RandomGraph { seed, nodes, parents }
    }

    fn holes(&self) -> u64 {
        self.nodes.iter().filter(|node| matches!(node, Node::Hole)).count() as u64
    }
}

impl Game for RandomGraph {
    type Position = u32;
    type Move = u32;

    fn terminal(&self, position: &u32) -> Option<Outcome> {
        match self.nodes[*position as usize] {
            Node::Terminal(outcome) => Some(outcome),
            _ => None,
        }
    }

    fn moves(&self, position: &u32, moves: &mut Vec<u32>) {
        if let Node::Inner(targets) = &self.nodes[*position as usize] {
            moves.extend_from_slice(targets);
        }
    }

    fn play(&self, _position: &u32, mv: &u32) -> u32 {
        *mv
    }
}

impl Indexed for RandomGraph {
    fn index_size(&self) -> u64 {
        self.nodes.len() as u64
    }

    fn index(&self, position: &u32) -> u64 {
        *position as u64
    }

    fn position(&self, index: u64) -> Option<u32> {
        match self.nodes.get(index as usize)? {
            Node::Hole => None,
            _ => Some(index as u32),
        }
    }
}

impl Unmoves for RandomGraph {
    fn for_each_parent(&self, position: &u32, mut f: impl FnMut(u32)) {
        self.parents[*position as usize].iter().for_each(|&p| f(p));
    }
}

impl Variant for RandomGraph {
    const NAME: &'static str = "random-graph";

    fn parameters(&self) -> Vec<(String, String)> {
        vec![("seed".to_string(), self.seed.to_string())]
    }

    fn from_parameters(parameters: &[(String, String)]) -> Result<Self, String> {
        match parameters {
            [(key, seed)] if key == "seed" => seed.parse().map(RandomGraph::new).map_err(|e| e.to_string()),
            _ => Err(format!("expected seed=N, got {parameters:?}")),
        }
    }
}

/// Writes `values` for `game`, loads them back, verifies with room for every
/// failure.
fn write_and_verify<G: Indexed + Variant + Sync>(path: &Path, game: &G, values: &[PackedValue]) -> Verification {
    let options = WriteOptions { force: true, level: 1, block_bytes: 256 };
    write::write(path, G::NAME, &game.parameters(), values, &options, None).unwrap();
    let table = Tablebase::open(path).unwrap().load(None).unwrap();
    let verification = verify(game, &table, usize::MAX, None);
    assert_eq!(verification.failure_count, verification.failures.len() as u64);
    assert!(verification.failures.windows(2).all(|pair| pair[0].index < pair[1].index), "in index order");
    verification
}

/// A different valid value, "no position", or an invalid code, for `old`.
fn changed_value(rng: &mut Rng, old: PackedValue, hole: bool) -> PackedValue {
    loop {
        let new = match rng.below(10) {
            _ if hole => PackedValue::pack(random_value(rng, 300)),
            0 => PackedValue::NONE,
            1 => PackedValue((2 + rng.below(1000) as u32) << 2),
            // Near the old value: the likeliest mistakes (off by one, wrong side).
            2..=5 => match old.unpack() {
                Some(Value::Win(r)) | Some(Value::Loss(r)) | Some(Value::Tie(r)) => {
                    let r = (r + rng.below(3) as u32).saturating_sub(1);
                    PackedValue::pack([Value::Win(r), Value::Loss(r), Value::Tie(r)][rng.below(3) as usize])
                }
                _ => PackedValue::pack(random_value(rng, 5)),
            },
            _ => PackedValue::pack(random_value(rng, 300)),
        };
        if new != old {
            return new;
        }
    }
}

/// Asserts what verify must report when only `changed`'s stored value was replaced
/// by `new` (module comment): the changed index with the problem implied, and
/// otherwise only its parents, each with a problem about the changed child or a
/// wrong value.
fn assert_single_change_found(
    verification: &Verification,
    changed: u64,
    original: PackedValue,
    new: PackedValue,
    is_hole: bool,
    parents: &BTreeSet<u64>,
    self_loop: bool,
) {
    let context = format!("index {changed}: {original:?} -> {new:?}; {verification:?}");
    assert!(!verification.is_ok(), "{context}");
    assert!(verification.failure_count >= 1, "{context}");
    let own = verification.failures.iter().find(|f| f.index == changed).unwrap_or_else(|| panic!("{context}"));
    match (&own.problem, new.unpack()) {
        (Problem::HoleWithValue { stored }, Some(value)) => assert!(is_hole && *stored == value, "{context}"),
        (Problem::MissingValue, None) => assert!(!is_hole && new == PackedValue::NONE, "{context}"),
        (Problem::NotAValue { code }, None) => assert!(*code == new.0 && new != PackedValue::NONE, "{context}"),
        (Problem::Wrong { stored, derived }, Some(value)) => {
            assert_eq!(*stored, value, "{context}");
            // The children are unchanged, so they still give the true value (unless
            // the position is its own child).
            if !self_loop {
                assert_eq!(Some(*derived), original.unpack(), "{context}");
            }
        }
        (problem, _) => panic!("unexpected problem {problem:?}: {context}"),
    }
    if is_hole {
        // Nothing points to a hole: its own failure is the only one.
        assert_eq!(verification.failures.len(), 1, "{context}");
    }
    for Failure { index, problem } in &verification.failures {
        if *index == changed {
            continue;
        }
        assert!(parents.contains(index), "failure at {index}, not a parent: {context}");
        match problem {
            Problem::ChildWithoutValue { child } => {
                assert_eq!(*child, changed, "{context}");
                assert!(new.unpack().is_none(), "{context}");
            }
            Problem::Wrong { .. } => assert!(new.unpack().is_some(), "{context}"),
            problem => panic!("unexpected problem {problem:?} at parent {index}: {context}"),
        }
    }
    let first = verification.failures[0].index;
    assert!(first == changed || parents.contains(&first), "{context}");
}

#[test]
fn random_graphs_verify_and_every_single_change_is_found() {
    let dir = TempDir::new("random-graphs");
    let path = dir.join("graph.gtb");
    let (mut graphs, mut widths, mut ties, mut draws, mut holes, mut mutations) = (0, BTreeSet::new(), 0, 0, 0, 0);
    for seed in 0..300u64 {
        let game = RandomGraph::new(seed);
        let solution = retrograde::solve(&game);
        assert_eq!(solution, retrograde::solve_forward_only(&game), "seed {seed}");
        let verification = write_and_verify(&path, &game, &solution.packed());
        assert!(verification.is_ok(), "seed {seed}: {verification:?}");
        assert_eq!(verification.holes, game.holes(), "seed {seed}");
        assert_eq!(verification.positions, game.index_size() - game.holes(), "seed {seed}");
        assert!(verification.failures.is_empty());

        // The typed tablebase rebuilds the same graph from the seed in the file.
        let typed = GameTablebase::<RandomGraph>::open(&path).unwrap();
        widths.insert(typed.tablebase().header().value_width);
        for i in 0..game.index_size() {
            if let Some(p) = game.position(i) {
                assert_eq!(typed.value(&p).unwrap(), solution.value(i), "seed {seed}, index {i}");
            }
        }
        let counts = solution.counts();
        graphs += 1;
        ties += (counts.ties > 0) as u32;
        draws += (counts.draws > 0) as u32;
        holes += (counts.holes > 0) as u32;

        let mut rng = Rng::new(seed ^ 0xABCD);
        for _ in 0..4 {
            let changed = rng.below(game.index_size());
            let original = solution.packed()[changed as usize];
            let is_hole = matches!(game.nodes[changed as usize], Node::Hole);
            let new = changed_value(&mut rng, original, is_hole);
            let mut values = solution.packed().to_vec();
            values[changed as usize] = new;
            let verification = write_and_verify(&path, &game, &values);
            let parents: BTreeSet<u64> = game.parents[changed as usize].iter().map(|&p| p as u64).collect();
            let self_loop = parents.contains(&changed);
            assert_single_change_found(&verification, changed, original, new, is_hole, &parents, self_loop);
            mutations += 1;
        }
    }
    // The graphs cover what they are meant to.
    assert_eq!(graphs, 300);
    assert_eq!(mutations, 1200);
    assert_eq!(widths, BTreeSet::from([1, 2]), "1- and 2-byte codes");
    assert!(ties > 30 && draws > 30 && holes > 30, "ties {ties}, draws {draws}, holes {holes}");
    assert!(!dir.has_temporary());
}

/// A hole given a value, a position given "no position": exact single failures.
#[test]
fn holes_and_missing_values_are_named() {
    let dir = TempDir::new("holes");
    let path = dir.join("graph.gtb");
    let game = (0..).map(RandomGraph::new).find(|g| g.holes() > 0 && g.index_size() > 20).unwrap();
    let solution = retrograde::solve(&game);
    let hole = game.nodes.iter().position(|n| matches!(n, Node::Hole)).unwrap() as u64;
    let mut values = solution.packed().to_vec();
    values[hole as usize] = PackedValue::pack(Value::Win(2));
    let verification = write_and_verify(&path, &game, &values);
    assert_eq!(verification.failure_count, 1);
    assert_eq!(
        verification.failures,
        vec![Failure { index: hole, problem: Problem::HoleWithValue { stored: Value::Win(2) } }]
    );
    assert_eq!(verification.holes, game.holes());

    // With a limit: the count stays exact, the list is cut.
    let mut values = solution.packed().to_vec();
    for v in values.iter_mut() {
        if *v != PackedValue::NONE {
            *v = PackedValue::NONE;
        }
    }
    write::write(
        &path,
        "random-graph",
        &game.parameters(),
        &values,
        &WriteOptions { force: true, ..Default::default() },
        None,
    )
    .unwrap();
    let table = Tablebase::open(&path).unwrap().load(None).unwrap();
    let positions = game.index_size() - game.holes();
    let verification = verify(&game, &table, 3, None);
    assert_eq!(verification.failure_count, positions);
    assert_eq!(verification.failures.len(), 3);
    assert!(verification.failures.iter().all(|f| f.problem == Problem::MissingValue));
    let none = verify(&game, &table, 0, None);
    assert_eq!(none.failure_count, positions);
    assert!(none.failures.is_empty());
}

/// Parents of every index of a real game, by a forward scan.
fn parents_of<G: Indexed>(game: &G) -> Vec<BTreeSet<u64>> {
    let mut parents = vec![BTreeSet::new(); game.index_size() as usize];
    for i in 0..game.index_size() {
        if let Some(p) = game.position(i) {
            if game.terminal(&p).is_none() {
                game.for_each_child(&p, |c| {
                    // Terminal children are valued by the rules: they have no index.
                    if game.terminal(&c).is_none() {
                        parents[game.index(&c) as usize].insert(i);
                    }
                });
            }
        }
    }
    parents
}

/// Verifies a real game's table, then changes single values (at positions with
/// parents, at holes, to "no position") and checks each is found: the changed index
/// is among the failures, every other failure is one of its parents, and so the
/// first failure is the changed index or one of its parents.
fn real_game_single_changes<G: Indexed + Variant + Sync>(game: &G, solution: &gsolve_engine::Solution, name: &str) {
    let dir = TempDir::new(name);
    let path = dir.join("game.gtb");
    let verification = write_and_verify(&path, game, &solution.packed());
    assert!(verification.is_ok(), "{verification:?}");
    let counts = solution.counts();
    assert_eq!(verification.holes, counts.holes);
    assert_eq!(verification.positions, game.index_size() - counts.holes);

    let parents = parents_of(game);
    let mut rng = Rng::new(game.index_size());
    let mut with_parents = 0;
    for round in 0..12 {
        // Half the changes where a parent will notice too.
        let changed = loop {
            let i = rng.below(game.index_size());
            if round % 2 == 1 || !parents[i as usize].is_empty() {
                break i;
            }
        };
        let original = solution.packed()[changed as usize];
        let is_hole = game.position(changed).is_none();
        let new = changed_value(&mut rng, original, is_hole);
        let mut values = solution.packed().to_vec();
        values[changed as usize] = new;
        let verification = write_and_verify(&path, game, &values);
        let parents = &parents[changed as usize];
        let self_loop = parents.contains(&changed);
        assert_single_change_found(&verification, changed, original, new, is_hole, parents, self_loop);
        with_parents += verification.failures.iter().any(|f| f.index != changed) as u32;
    }
    assert!(with_parents > 0, "some change was seen by a parent too");
}

#[test]
fn pawns_3x4_verifies_and_single_changes_are_found() {
    let game = Pawns::new(3, 4);
    let solution = layered::solve(&game);
    real_game_single_changes(&game, &solution, "pawns-3x4");
}

#[test]
fn chase_4_verifies_and_single_changes_are_found() {
    let game = Chase::new(4);
    let solution = retrograde::solve(&game);
    assert!(solution.counts().draws > 0 || solution.counts().wins > 0);
    real_game_single_changes(&game, &solution, "chase-4");
}

/// One byte flipped inside block k's compressed bytes: exactly block k is reported,
/// values in it fail, values elsewhere still read.
#[test]
fn a_damaged_block_is_pinned_to_its_block() {
    let dir = TempDir::new("damaged-block");
    let path = dir.join("pawns.gtb");
    let game = Pawns::new(3, 4);
    let solution = layered::solve(&game);
    let options = WriteOptions { block_bytes: 1024, ..WriteOptions::default() };
    let written = write::write_solution(&path, &game, &solution, &options, None).unwrap();
    let blocks = written.header.block_count;
    assert!(blocks >= 4, "{blocks} blocks");
    let original = std::fs::read(&path).unwrap();
    let positions = written.header.block_positions as u64;
    let clean = Tablebase::from_bytes(original.clone()).unwrap();

    let mut rng = Rng::new(99);
    for k in [0, 1, blocks / 2, blocks - 1] {
        let entry = clean.block_entry(k).unwrap();
        let mut bytes = original.clone();
        let at = entry.offset + rng.below(entry.length as u64);
        bytes[at as usize] ^= 1 << rng.below(8);
        std::fs::write(&path, &bytes).unwrap();
        for tablebase in [Tablebase::from_bytes(bytes.clone()).unwrap(), Tablebase::open(&path).unwrap()] {
            let damaged = tablebase.damaged_blocks(usize::MAX, None);
            assert_eq!(damaged.len(), 1, "block {k}: {damaged:?}");
            let range = tablebase.header().block_range(k);
            assert_eq!(range, k * positions..((k + 1) * positions).min(game.index_size()));
            match &damaged[0] {
                Error::BadBlock { block, first, end, problem } => {
                    assert_eq!((*block, *first, *end), (k, range.start, range.end));
                    assert!(problem.contains("checksum"), "{problem}");
                }
                e => panic!("expected BadBlock, got {e:?}"),
            }
            assert!(damaged[0].is_bad_file());
            for i in [range.start, range.end - 1, (range.start + range.end) / 2] {
                assert!(matches!(tablebase.value(i), Err(Error::BadBlock { block, .. }) if block == k), "index {i}");
            }
            for other in [0, blocks - 1, (k + 1) % blocks] {
                if other == k {
                    continue;
                }
                for i in tablebase.header().block_range(other) {
                    assert_eq!(tablebase.value(i).unwrap(), solution.value(i), "index {i}");
                }
            }
            assert!(matches!(tablebase.load(None), Err(Error::BadBlock { block, .. }) if block == k));
            // A limit of 0 reports nothing.
            assert!(tablebase.damaged_blocks(0, None).is_empty());
        }
    }

    // Two damaged blocks are reported in block order, up to the limit.
    let mut bytes = original.clone();
    for k in [blocks - 1, 1] {
        let entry = clean.block_entry(k).unwrap();
        bytes[entry.offset as usize] ^= 0x40;
    }
    let tablebase = Tablebase::from_bytes(bytes).unwrap();
    let block_of = |e: &Error| match e {
        Error::BadBlock { block, .. } => *block,
        e => panic!("{e:?}"),
    };
    let damaged = tablebase.damaged_blocks(usize::MAX, None);
    assert_eq!(damaged.iter().map(block_of).collect::<Vec<_>>(), vec![1, blocks - 1]);
    let damaged = tablebase.damaged_blocks(1, None);
    assert_eq!(damaged.iter().map(block_of).collect::<Vec<_>>(), vec![1]);
}
