//! The distributed tiered build against the single-process one
//! ([`gsolve_tablebase::tiers::build`]), file for file, on random tiered games:
//! tiers swept by progress (classes of many sizes, some empty, some cut into
//! pieces) or in layers, moves into earlier tiers, into the same tier at greater
//! progress, and onto terminal positions, holes in every tier. Two workers in
//! one process, and two processes (threads of this test, each its own timely
//! run) over 127.0.0.1, sharing a work directory or each with its own. A game that breaks its progress measure ends the build
//! with an error on every worker, never a hang or a file.

mod common;

use common::{local_addresses, Random};
use gsolve_distributed::build::{BuildError, Target};
use gsolve_distributed::tiered::{build_tiered, Options};
use gsolve_distributed::Cluster;
use gsolve_engine::{Game, Indexed, Outcome, Tiered, Variant};
use gsolve_tablebase::tiers::{self, BuildOptions};
use gsolve_tablebase::write::{StoredIdentity, WriteOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone, Debug)]
enum Node {
    Hole,
    Terminal(Outcome),
    Inner(Vec<u64>),
}

/// Tier `t` holds indices `offsets[t]..offsets[t + 1]` of the whole index; a
/// position is its index.
#[derive(Clone, Debug)]
struct RandomTiers {
    seed: u64,
    offsets: Vec<u64>,
    /// Per tier: the game gives its layers (runs of equal progress, greatest
    /// first, one after another in index order), else a progress bound.
    layered: Vec<bool>,
    /// Per tier: neither layered nor measured by progress, its moves go
    /// anywhere in it (cycles, draws): solved by retrograde within the tier.
    cyclic: Vec<bool>,
    /// Scans give a position with a move onto a lost terminal position as
    /// `Scan::Known(Win(1))`, as rules games value wins in 1.
    known_wins: bool,
    /// Per tier: the earlier tiers its moves go to.
    reads: Vec<Vec<usize>>,
    bounds: Vec<u32>,
    /// Per index.
    progress: Vec<u32>,
    nodes: Vec<Node>,
}

impl RandomTiers {
    fn random(seed: u64, sizes: &[u64]) -> RandomTiers {
        RandomTiers::random_with(seed, sizes, false)
    }

    /// As [`RandomTiers::random`]; with `cycles`, about a third of the tiers
    /// are cyclic (drawn from their own stream, so the rest is as without).
    fn random_with(seed: u64, sizes: &[u64], cycles: bool) -> RandomTiers {
        let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut coin = Random(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1);
        let cyclic: Vec<bool> = sizes.iter().map(|_| cycles && coin.below(3) == 0).collect();
        let mut offsets = vec![0];
        let (mut layered, mut bounds, mut progress) = (Vec::new(), Vec::new(), Vec::new());
        let mut reads = Vec::new();
        for (t, &size) in sizes.iter().enumerate() {
            reads.push((0..t).filter(|_| random.below(2) == 0).collect::<Vec<usize>>());
            offsets.push(offsets.last().unwrap() + size);
            let layers = random.below(3) == 0;
            let bound = if layers { random.below(6) as u32 } else { [0, 1, 3, 40][random.below(4) as usize] };
            for i in 0..size {
                progress.push(if layers {
                    bound - (i * (bound as u64 + 1) / size) as u32
                } else {
                    random.below(bound as u64 + 1) as u32
                });
            }
            layered.push(layers);
            bounds.push(bound);
        }
        let total = *offsets.last().unwrap() as usize;
        // Holes and terminal positions first, so that moves can avoid holes.
        let mut nodes: Vec<Node> = (0..total)
            .map(|_| match random.below(80) {
                0..8 => Node::Hole,
                8..11 => Node::Terminal(Outcome::Loss),
                11..14 => Node::Terminal(Outcome::Win),
                14..16 => Node::Terminal(Outcome::Tie),
                _ => Node::Inner(Vec::new()),
            })
            .collect();
        for t in 0..sizes.len() {
            let (start, end) = (offsets[t], offsets[t + 1]);
            for i in start..end {
                if !matches!(nodes[i as usize], Node::Inner(_)) {
                    continue;
                }
                let mut moves = Vec::new();
                for _ in 0..random.below(5) {
                    // Into an earlier tier, or into this one at greater progress
                    // (or onto a terminal position); a few tries each.
                    for _ in 0..8 {
                        let into_earlier = !reads[t].is_empty() && random.below(2) == 0;
                        let j = if into_earlier {
                            let read = reads[t][random.below(reads[t].len() as u64) as usize];
                            offsets[read] + random.below(offsets[read + 1] - offsets[read])
                        } else {
                            start + random.below(end - start)
                        };
                        let fits = match nodes[j as usize] {
                            Node::Hole => false,
                            Node::Terminal(_) => true,
                            Node::Inner(_) => into_earlier || cyclic[t] || progress[j as usize] > progress[i as usize],
                        };
                        if fits {
                            moves.push(j);
                            break;
                        }
                    }
                }
                nodes[i as usize] = Node::Inner(moves);
            }
        }
        for (t, &c) in cyclic.iter().enumerate() {
            layered[t] &= !c;
        }
        RandomTiers { seed, offsets, layered, cyclic, known_wins: false, reads, bounds, progress, nodes }
    }

    fn tier_of(&self, index: u64) -> usize {
        self.offsets.partition_point(|&o| o <= index) - 1
    }
}

impl Game for RandomTiers {
    type Position = u64;
    type Move = u64;
    fn terminal(&self, p: &u64) -> Option<Outcome> {
        match self.nodes[*p as usize] {
            Node::Terminal(outcome) => Some(outcome),
            _ => None,
        }
    }
    fn moves(&self, p: &u64, moves: &mut Vec<u64>) {
        if let Node::Inner(edges) = &self.nodes[*p as usize] {
            moves.extend(edges);
        }
    }
    fn play(&self, _: &u64, mv: &u64) -> u64 {
        *mv
    }
}

impl Indexed for RandomTiers {
    fn index_size(&self) -> u64 {
        *self.offsets.last().unwrap()
    }
    fn index(&self, p: &u64) -> u64 {
        *p
    }
    fn position(&self, index: u64) -> Option<u64> {
        (!matches!(self.nodes.get(index as usize)?, Node::Hole)).then_some(index)
    }
}

impl Tiered for RandomTiers {
    type Tier = usize;
    fn tiers(&self) -> Vec<usize> {
        (0..self.layered.len()).collect()
    }
    fn child_tiers(&self, tier: usize) -> Vec<usize> {
        self.reads[tier].clone()
    }
    fn tier_size(&self, tier: usize) -> u64 {
        self.offsets[tier + 1] - self.offsets[tier]
    }
    fn tier_name(&self, tier: usize) -> String {
        format!("t{tier}")
    }
    fn locate(&self, p: &u64) -> Option<(usize, u64)> {
        let tier = self.tier_of(*p);
        Some((tier, p - self.offsets[tier]))
    }
    fn position_in(&self, tier: usize, index: u64) -> Option<u64> {
        self.position(self.offsets[tier] + index)
    }
    fn for_each_layer_in_tier(&self, tier: usize, mut f: impl FnMut(std::ops::Range<u64>)) -> bool {
        if !self.layered[tier] {
            return false;
        }
        let (start, size) = (self.offsets[tier], self.tier_size(tier));
        let mut from = 0;
        for i in 1..=size {
            if i == size || self.progress[(start + i) as usize] != self.progress[(start + from) as usize] {
                f(from..i);
                from = i;
            }
        }
        true
    }
    fn for_each_located(
        &self,
        tier: usize,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, gsolve_engine::Scan<'_, usize>),
    ) {
        use gsolve_engine::{ChildAt, Scan};
        for index in range {
            let p = self.offsets[tier] + index;
            match &self.nodes[p as usize] {
                Node::Hole => {}
                Node::Terminal(outcome) => f(index, Scan::Over(*outcome)),
                Node::Inner(moves) => {
                    let at = |&j: &u64| match self.nodes[j as usize] {
                        Node::Terminal(outcome) => ChildAt::Over(outcome),
                        _ => ChildAt::In(self.tier_of(j), j - self.offsets[self.tier_of(j)]),
                    };
                    let children: Vec<ChildAt<usize>> = moves.iter().map(at).collect();
                    if self.known_wins && children.contains(&ChildAt::Over(Outcome::Loss)) {
                        f(index, Scan::Known(gsolve_engine::Value::Win(1)));
                    } else {
                        f(index, Scan::Moves(&children));
                    }
                }
            }
        }
    }
    fn progress_bound(&self, tier: usize) -> Option<u32> {
        (!self.cyclic[tier]).then_some(self.bounds[tier])
    }
    fn progress(&self, _tier: usize, p: &u64) -> u32 {
        self.progress[*p as usize]
    }
}

impl Variant for RandomTiers {
    const NAME: &'static str = "random-tiers";
    fn parameters(&self) -> Vec<(String, String)> {
        vec![("seed".into(), self.seed.to_string())]
    }
    fn from_parameters(_: &[(String, String)]) -> Result<Self, String> {
        Err("a test game is not read back".into())
    }
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gsolve-random-tiers-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The single-process build's file.
fn single(game: &RandomTiers, dir: &Path) -> Vec<u8> {
    let path = dir.join("single.gtb");
    tiers::build(
        game,
        &path,
        &dir.join("single-work"),
        &BuildOptions { memory: None, write: WriteOptions::default() },
        None,
    )
    .unwrap();
    std::fs::read(path).unwrap()
}

fn target(path: &Path) -> Target {
    Target {
        path: path.to_path_buf(),
        options: WriteOptions { force: true, ..WriteOptions::default() },
        progress: None,
    }
}

/// Every tier split over the workers; every tier dealt whole, in waves; and a
/// mix (tiers of up to 25,000 positions with the tiers they read dealt whole,
/// in waves of up to 30,000).
const DEALS: [Options; 3] =
    [Options { small: 0, wave: 0 }, Options { small: 1 << 22, wave: 1 << 26 }, Options { small: 25_000, wave: 30_000 }];

/// Two worker threads in one process: the file, and the rounds the build took.
fn two_workers(game: &RandomTiers, dir: &Path, options: Options) -> Result<(Vec<u8>, u64), BuildError> {
    let path = dir.join("two-workers.gtb");
    let stored = StoredIdentity::of(game);
    let game = Arc::new(game.clone());
    let report = build_tiered(&Cluster::single(2), "test", game, stored, dir.join("work"), target(&path), options)?;
    Ok((std::fs::read(path).unwrap(), report.rounds))
}

/// Two processes of one worker each, over 127.0.0.1, sharing the work
/// directory or each with its own (`own`); each must end within a minute.
/// Every process's result.
fn two_processes(game: &RandomTiers, dir: &Path, options: Options, own: bool) -> Vec<Result<(), String>> {
    let addresses = local_addresses(2);
    let (done, finished) = std::sync::mpsc::channel();
    let path = dir.join("two-processes.gtb");
    for process in 0..2 {
        let cluster = Cluster::new(2, process, addresses.clone(), 1).unwrap();
        let work = dir.join(if own { format!("work{process}") } else { "work".into() });
        let (game, done, target) = (Arc::new(game.clone()), done.clone(), target(&path));
        std::thread::spawn(move || {
            let stored = StoredIdentity::of(&*game);
            let result = build_tiered(&cluster, "test", game, stored, work, target, options);
            let _ = done.send((process, result.map(|_| ()).map_err(|e| e.to_string())));
        });
    }
    let mut results = vec![Ok(()), Ok(())];
    for _ in 0..2 {
        let (process, result) = finished.recv_timeout(Duration::from_secs(60)).expect("a process hangs");
        results[process] = result;
    }
    results
}

/// Sizes around the partition's chunk of 16,384 indices, so that both workers
/// own parts of the larger tiers and the smaller ones sit with one.
const SIZES: [u64; 8] = [5, 20_000, 3_000, 40_000, 17_000, 100, 2_500, 9_000];

#[test]
fn two_workers_write_the_single_process_file_on_random_tiers() {
    let mut swept = [0usize; 2];
    for seed in 0..6u64 {
        let game = RandomTiers::random(seed, &SIZES);
        for &layers in &game.layered {
            swept[layers as usize] += 1;
        }
        let dir = scratch(&format!("workers-{seed}"));
        let expected = single(&game, &dir);
        let mut rounds = Vec::new();
        for options in DEALS {
            let (got, taken) =
                two_workers(&game, &dir, options).unwrap_or_else(|e| panic!("seed {seed}, {options:?}: {e}"));
            assert!(got == expected, "seed {seed}, {options:?}: the files differ");
            rounds.push(taken);
        }
        // Dealt whole, the 8 tiers take at most 3 rounds each (a wave of one),
        // besides the 7 rounds every build takes (opening the work
        // directories, the tiers finished before, the write, the totals).
        assert!(rounds[1] < rounds[0] && rounds[1] <= 3 * 8 + 7, "seed {seed}: rounds {rounds:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(swept[0] >= 10 && swept[1] >= 5, "tiers by progress and in layers: {swept:?}");
}

#[test]
fn two_processes_over_tcp_write_the_single_process_file_on_random_tiers() {
    for seed in 10..13u64 {
        let game = RandomTiers::random(seed, &SIZES);
        let dir = scratch(&format!("processes-{seed}"));
        let expected = single(&game, &dir);
        for (options, own) in DEALS.into_iter().flat_map(|o| [(o, false), (o, true)]) {
            let results = two_processes(&game, &dir, options, own);
            assert!(results.iter().all(Result::is_ok), "seed {seed}, {options:?}, own {own}: {results:?}");
            let got = std::fs::read(dir.join("two-processes.gtb")).unwrap();
            assert!(got == expected, "seed {seed}, {options:?}, own {own}: the files differ");
            // Every work directory is gone once the file is written.
            let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
            assert!(left.iter().all(|name| name.to_string_lossy().ends_with(".gtb")), "{left:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A move into the same tier at the same progress, and a progress above the
/// bound, in a tier split over the workers and in one dealt whole: each
/// process ends with an error that says so, and no file is written.
#[test]
fn a_broken_progress_measure_ends_every_process_with_an_error() {
    // One tier of 20,000 positions, all of progress 0; position 0 moves to
    // position 19,999, in the same class and owned by the other worker.
    let mut game = RandomTiers::random(20, &[20_000]);
    game.layered[0] = false;
    game.bounds[0] = 0;
    game.progress.iter_mut().for_each(|p| *p = 0);
    game.nodes[0] = Node::Inner(vec![19_999]);
    game.nodes[19_999] = Node::Inner(Vec::new());
    let [split, whole, _] = DEALS;
    let expect = |game: &RandomTiers, options: Options, what: &str| {
        let dir = scratch("broken");
        for result in two_processes(game, &dir, options, true) {
            let error = result.unwrap_err();
            assert!(error.contains(what), "{options:?}: {error}");
        }
        assert!(!dir.join("two-processes.gtb").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    };
    expect(&game, split, "tier t0: a child is not solved before its parent");
    expect(&game, whole, "is not solved before its parent: the game breaks the Tiered invariants");
    // A progress past the tier's bound.
    game.progress[7] = 1;
    expect(&game, split, "tier t0: a position's progress is above the bound 0");
    expect(&game, whole, "progress 1 above the tier's bound 0: the game breaks the Tiered invariants");
}

/// A run that fails at its last tier keeps every worker's parts; a tier whose
/// part one worker lost (its line gone from that worker's list) is solved
/// again by the next run, which goes on from the tiers every worker kept.
#[test]
fn a_tier_one_worker_lost_is_solved_again() {
    let mut game = RandomTiers::random(30, &SIZES);
    let last = SIZES.len() - 1;
    game.layered[last] = false;
    let dir = scratch("lost");
    let expected = single(&game, &dir);
    let [split, ..] = DEALS;
    let broken_at = game.offsets[last] as usize + 3;
    let kept = game.progress[broken_at];
    game.progress[broken_at] = game.bounds[last] + 1;
    for result in two_processes(&game, &dir, split, true) {
        assert!(result.unwrap_err().contains("above the bound"));
    }
    game.progress[broken_at] = kept;
    // Worker 1 loses its part of tier t3.
    let list = dir.join("work1").join("w1of2").join("finished.txt");
    let text = std::fs::read_to_string(&list).unwrap();
    assert_eq!(text.lines().count(), last, "every tier but the last kept: {text}");
    let without: String = text.lines().filter(|l| !l.starts_with("t3 ")).map(|l| format!("{l}\n")).collect();
    assert_eq!(without.lines().count(), last - 1);
    std::fs::write(&list, without).unwrap();
    std::fs::remove_file(dir.join("work1").join("w1of2").join("t3.tier")).unwrap();
    let results = two_processes(&game, &dir, split, true);
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert!(std::fs::read(dir.join("two-processes.gtb")).unwrap() == expected, "the files differ");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Draws and ties in the cyclic tiers of `game`, by the engine's solve: the
/// inputs must exercise both.
fn draws_and_ties_in_cycles(game: &RandomTiers) -> (usize, usize) {
    let solved = gsolve_engine::tiered::solve_all(game);
    let (mut draws, mut ties) = (0, 0);
    for tier in (0..game.cyclic.len()).filter(|&t| game.cyclic[t]) {
        let values = solved.get(tier).unwrap();
        for i in 0..game.tier_size(tier) {
            match values.value(i) {
                Some(gsolve_engine::Value::Draw) => draws += 1,
                Some(gsolve_engine::Value::Tie(_)) => ties += 1,
                _ => {}
            }
        }
    }
    (draws, ties)
}

/// Tiers with cycles (moves anywhere within the tier: draws, ties one ply after
/// the fastest tied child, children that are draws in a tier read), split
/// over the workers and solved by retrograde within the tier, or dealt whole.
#[test]
fn two_workers_solve_tiers_with_cycles_as_the_single_process_does() {
    let (mut cyclic, mut draws, mut ties) = (0, 0, 0);
    for seed in 40..46u64 {
        let game = RandomTiers::random_with(seed, &SIZES, true);
        cyclic += game.cyclic.iter().filter(|&&c| c).count();
        let (d, t) = draws_and_ties_in_cycles(&game);
        (draws, ties) = (draws + d, ties + t);
        let dir = scratch(&format!("cycles-{seed}"));
        let expected = single(&game, &dir);
        for options in DEALS {
            let (got, _) =
                two_workers(&game, &dir, options).unwrap_or_else(|e| panic!("seed {seed}, {options:?}: {e}"));
            assert!(got == expected, "seed {seed}, {options:?}: the files differ");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert!(cyclic >= 10 && draws >= 100 && ties >= 100, "cyclic tiers {cyclic}, draws {draws}, ties {ties}");
}

/// Positions the game values by the rules (`Scan::Known`, a win in 1) are
/// decided at their own level, in tiers split and dealt whole.
#[test]
fn positions_valued_by_the_rules_are_decided_at_their_level() {
    for seed in 40..43u64 {
        let mut game = RandomTiers::random_with(seed, &SIZES, true);
        let dir = scratch(&format!("known-{seed}"));
        let expected = single(&game, &dir);
        game.known_wins = true;
        std::fs::remove_file(dir.join("single.gtb")).unwrap();
        std::fs::remove_dir_all(dir.join("single-work")).ok();
        assert!(single(&game, &dir) == expected, "seed {seed}: the engine's own sweeps disagree");
        for options in [DEALS[0], DEALS[2]] {
            let (got, _) =
                two_workers(&game, &dir, options).unwrap_or_else(|e| panic!("seed {seed}, {options:?}: {e}"));
            assert!(got == expected, "seed {seed}, {options:?}: the files differ");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// One cyclic tier of 1,000,000 positions with a 300-ply chain of losses and
/// one of ties (2-byte codes) and levels of more updates than a batch.
#[test]
fn a_long_cyclic_tier_widens_its_codes_and_sends_in_batches() {
    let mut game = RandomTiers::random_with(60, &[1_000_000], true);
    game.cyclic[0] = true;
    game.layered[0] = false;
    // Many lost terminal positions: their level's updates (about 1.6 a
    // position) pass a batch of 65,536 on each worker.
    for j in (500_000..1_000_000).step_by(4) {
        if matches!(game.nodes[j], Node::Inner(_)) {
            game.nodes[j] = Node::Terminal(Outcome::Loss);
        }
    }
    game.nodes[100_000] = Node::Terminal(Outcome::Loss);
    game.nodes[200_000] = Node::Terminal(Outcome::Tie);
    for k in 1..300u64 {
        game.nodes[(100_000 + k) as usize] = Node::Inner(vec![100_000 + k - 1]);
        // A tie chain: each also moves onto a won terminal position (a loss
        // for the mover to avoid) found near by.
        let won = (300_000..400_000u64).find(|&j| matches!(game.nodes[j as usize], Node::Terminal(Outcome::Win)));
        game.nodes[(200_000 + k) as usize] = Node::Inner(vec![200_000 + k - 1, won.unwrap()]);
    }
    let dir = scratch("long");
    let expected = single(&game, &dir);
    let header = gsolve_tablebase::Tablebase::from_bytes(expected.clone()).unwrap();
    assert_eq!(header.header().value_width, 2, "codes past a byte");
    let (got, _) = two_workers(&game, &dir, DEALS[0]).unwrap();
    assert!(got == expected, "the files differ");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_processes_over_tcp_solve_tiers_with_cycles_as_the_single_process_does() {
    for seed in 50..52u64 {
        let game = RandomTiers::random_with(seed, &SIZES, true);
        assert!(game.cyclic.iter().any(|&c| c), "seed {seed} has a cyclic tier");
        let dir = scratch(&format!("cycles-processes-{seed}"));
        let expected = single(&game, &dir);
        for (options, own) in [(DEALS[0], true), (DEALS[2], false)] {
            let results = two_processes(&game, &dir, options, own);
            assert!(results.iter().all(Result::is_ok), "seed {seed}, {options:?}, own {own}: {results:?}");
            let got = std::fs::read(dir.join("two-processes.gtb")).unwrap();
            assert!(got == expected, "seed {seed}, {options:?}, own {own}: the files differ");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
