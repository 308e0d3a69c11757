//! The bit-set core of step games (module `bits`, docs/rules-solving.md, "Step
//! games on bit sets") against the general path, value for value, remoteness
//! included: the engine's retrograde solve of the whole index (every position of
//! small games) and the engine's alpha-beta
//! (`RulesGame::without(&[FastPath::BitCore])`), on the bundled Breakthrough and
//! pawn chess boards and on hundreds of random rules files of
//! the shape (forward steps, leaps, ranges and slides, captures onto enemy or
//! any cell, promotions forced or not, goal and exit zones reached after the
//! move or the reply, `no-pieces`, `captured` and `stuck` endings with every
//! result but a tie, maps with walls, sides facing any way), at the start and
//! at positions reachable from it.
mod common;

use common::{load, rules_value};
use gsolve_engine::search::Searcher;
use gsolve_engine::{retrograde, Game};
use gsolve_games::rng::SplitMix64;
use gsolve_rules::{setup, FastPath, Rules, RulesGame, RulesPosition};
use std::collections::HashSet;
use std::sync::Arc;

/// Positions reachable from `start`, at most `limit`, in the order found; those
/// over left out but the start (their value is the rules', not a search's).
fn reachable(game: &RulesGame, start: RulesPosition, limit: usize) -> Vec<RulesPosition> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut stack = vec![start];
    while let Some(p) = stack.pop() {
        if order.len() == limit || !seen.insert(p) {
            continue;
        }
        order.push(p);
        if game.terminal(&p).is_none() {
            game.for_each_child(&p, |c| stack.push(c));
        }
    }
    order.retain(|p| *p == start || game.terminal(p).is_none());
    order
}

fn show(game: &RulesGame, p: &RulesPosition) -> String {
    gsolve_rules::notation::format_position(game, p)
}

/// What one comparison did.
#[derive(Default, Debug)]
struct Compared {
    positions: usize,
    /// Positions the core answered (the others were over: the engine's).
    by_core: usize,
}

/// The core's value of every `step`-th position reachable from `start` (at
/// most `limit`) against the engine's retrograde solve of the whole index.
fn against_retrograde(game: &RulesGame, start: RulesPosition, limit: usize, step: usize, what: &str) -> Compared {
    let solution = retrograde::solve_with(game, &retrograde::Options::default());
    let searcher = Searcher::with_table_entries(game, 1 << 10);
    let mut compared = Compared::default();
    for p in reachable(game, start, limit).into_iter().step_by(step) {
        let before = game.bit_search_stats().map_or(0, |s| s.0);
        let value = searcher.value(&p).unwrap_or_else(|e| panic!("{what}: {}: {e}", show(game, &p)));
        assert_eq!(value, rules_value(game, &solution, &p), "{what}: {}", show(game, &p));
        compared.positions += 1;
        compared.by_core += (game.bit_search_stats().map_or(0, |s| s.0) > before) as usize;
    }
    compared
}

/// The core's value of about `samples` positions spread over those reachable
/// from `start` (at most `limit`) against the engine's alpha-beta on the
/// general positions.
fn against_search(game: &RulesGame, start: RulesPosition, limit: usize, samples: usize, what: &str) -> Compared {
    let general = game.without(&[FastPath::BitCore]);
    let (fast, slow) = (Searcher::with_table_entries(game, 1 << 10), Searcher::with_table_entries(&general, 1 << 16));
    let mut compared = Compared::default();
    let positions = reachable(game, start, limit);
    let step = (positions.len() / samples).max(1);
    for p in positions.into_iter().step_by(step) {
        let before = game.bit_search_stats().map_or(0, |s| s.0);
        assert_eq!(fast.value(&p), slow.value(&p), "{what}: {}", show(game, &p));
        compared.positions += 1;
        compared.by_core += (game.bit_search_stats().map_or(0, |s| s.0) > before) as usize;
    }
    compared
}

#[test]
fn bundled_step_games_have_the_core_and_the_general_values() {
    for (name, size) in [("breakthrough", (4, 3)), ("breakthrough", (4, 2)), ("pawns", (4, 4)), ("pawns", (3, 5))] {
        let s = setup(load(name), Some(size), None, None).unwrap();
        assert!(s.game.has_bit_core(), "{name} {size:?}");
        let what = format!("{name} {size:?}");
        let compared = against_retrograde(&s.game, s.position, 400_000, 3, &what);
        eprintln!("{what}: {compared:?}");
        assert!(compared.by_core > 100, "{what}: {compared:?}");
    }
    // Too big for the whole index here: against the engine's search, on the
    // start and a spread of positions.
    for (name, size, limit) in [
        ("breakthrough", (4, 4), 30_000),
        ("breakthrough", (5, 3), 30_000),
        ("breakthrough", (4, 5), 5_000),
        ("pawns", (5, 5), 20_000),
    ] {
        let s = setup(load(name), Some(size), None, None).unwrap();
        let what = format!("{name} {size:?}");
        let compared = against_search(&s.game, s.position, limit, 200, &what);
        eprintln!("{what}: {compared:?}");
        assert!(compared.by_core > 100, "{what}: {compared:?}");
    }
}

/// Breakthrough 4 × 4 and 5 × 4 from the start: the published values (the second
/// player wins in 14 and 22 plies).
#[test]
fn breakthrough_starts_have_their_known_values() {
    for (size, want) in [((4, 4), gsolve_engine::Value::Loss(14)), ((5, 4), gsolve_engine::Value::Loss(22))] {
        let s = setup(load("breakthrough"), Some(size), None, None).unwrap();
        let searcher = Searcher::with_table_entries(&s.game, 1 << 10);
        assert_eq!(searcher.value(&s.position), Ok(want), "{size:?}");
        assert!(s.game.bit_search_stats().is_some(), "{size:?}: searched by the core");
    }
}

/// A random rules file of the core's shape (or, a few, just outside it: a
/// backward step, a stay, a tie), on a map.
fn random_rules(rng: &mut SplitMix64) -> String {
    let steps = [
        "\"forward\"",
        "\"forward-diagonal\"",
        "[\"forward\", \"forward-diagonal\"]",
        "[[1, 0], [2, 1]]",
        "[[1, -1], [1, 2]]",
        "[[2, 0]]",
        "[[1, 1]]",
    ];
    let pick = |rng: &mut SplitMix64, items: &[&'static str]| items[rng.below(items.len() as u64) as usize];
    let mut text = String::from("[game]\nname = \"random\"\nsides = [\"a\", \"b\"]\n\n[board]\nmap = true\n\n");
    for side in ["a", "b"] {
        if rng.below(4) == 0 {
            text += &format!(
                "[side.{side}]\nforward = {}\n\n",
                pick(rng, &["\"up\"", "\"down\"", "\"left\"", "\"right\""])
            );
        }
    }
    let promote = rng.below(4) == 0;
    let kinds: &[(&str, &str, char)] = &[("x", "a", 'X'), ("y", "b", 'Y'), ("z", "a", 'Z'), ("w", "b", 'W')];
    let count = if promote || rng.below(3) == 0 { 4 } else { 2 };
    for (i, &(name, side, letter)) in kinds[..count].iter().enumerate() {
        text += &format!("[piece.{name}]\nside = \"{side}\"\nletter = \"{letter}\"\nmoves = [");
        for m in 0..1 + rng.below(2) {
            if m > 0 {
                text += ", ";
            }
            let step = if rng.below(40) == 0 { "\"orthogonal\"" } else { pick(rng, &steps) };
            let range = pick(rng, &["1", "1", "1", "2", "\"slide\""]);
            let onto = pick(rng, &["empty", "enemy", "any", "any"]);
            let leap = rng.below(4) == 0;
            text += &format!("{{ steps = {step}, range = {range}, leap = {leap}, onto = \"{onto}\" }}");
        }
        text += "]\n";
        if rng.below(40) == 0 {
            text += "stay = true\n";
        }
        if promote && (i == 0 || i == 1) {
            let forced = rng.below(2) == 0;
            let to = if i == 0 { "z" } else { "w" };
            text += &format!("promote = {{ to = \"{to}\", zone = \"goal\", forced = {forced} }}\n");
        }
        text += "\n";
    }
    let zones: &[&str] = if rng.below(2) == 0 { &["goal", "exit"] } else { &["goal"] };
    for &zone in zones {
        text += &format!("[zone.{zone}]\n");
        text += match (zone, rng.below(3)) {
            ("exit", 0) => "mark = \"E\"\n\n",
            ("exit", _) => "rows = [2]\n\n",
            (_, 0) => "mark = \"G\"\n\n",
            _ => "far-row = true\n\n",
        };
    }
    let result = |rng: &mut SplitMix64| if rng.below(40) == 0 { "tie" } else { pick(rng, &["win", "win", "loss"]) };
    for &zone in zones {
        if rng.below(5) == 0 {
            continue;
        }
        let side = pick(rng, &["side = \"a\"\n", "side = \"b\"\n", ""]);
        let check = pick(rng, &["after-move", "after-move", "after-reply"]);
        let pieces = if count > 2 && rng.below(3) == 0 { "pieces = [\"z\", \"w\"]\n" } else { "" };
        let result = result(rng);
        text += &format!(
            "[[end]]\nwhen = \"reach\"\nzone = \"{zone}\"\n{side}{pieces}check = \"{check}\"\nresult = \"{result}\"\n\n"
        );
    }
    if rng.below(2) == 0 {
        let side = pick(rng, &["side = \"a\"\n", "side = \"b\"\n", ""]);
        let result = pick(rng, &["loss", "loss", "win"]);
        text += &format!("[[end]]\nwhen = \"no-pieces\"\n{side}result = \"{result}\"\n\n");
    }
    if rng.below(4) == 0 {
        let result = pick(rng, &["loss", "loss", "win"]);
        text += &format!("[[end]]\nwhen = \"captured\"\npieces = [\"x\", \"y\"]\nresult = \"{result}\"\n\n");
    }
    if rng.below(4) == 0 {
        let result = pick(rng, &["win", "loss", "loss"]);
        text += &format!("[[end]]\nwhen = \"stuck\"\nresult = \"{result}\"\n\n");
    }
    text
}

/// A random map of 3 to 6 rows and 2 to 5 columns with a few walls and goal and
/// exit marks, and one to four pieces of each of `letters`.
fn random_position(rng: &mut SplitMix64, letters: &[char]) -> String {
    let (rows, cols) = (3 + rng.below(4) as usize, 2 + rng.below(4) as usize);
    let mut grid = vec![vec!['.'; cols]; rows];
    for row in grid.iter_mut() {
        for cell in row.iter_mut() {
            *cell = match rng.below(16) {
                0 => '#',
                1 => 'G',
                2 => 'E',
                _ => '.',
            };
        }
    }
    for &letter in letters {
        for _ in 0..rng.below(4) + u64::from(letter == 'X' || letter == 'Y') {
            let (r, c) = (rng.below(rows as u64) as usize, rng.below(cols as u64) as usize);
            grid[r][c] = letter;
        }
    }
    // A third of the maps symmetric left to right (pieces too), so that games
    // whose steps are too look the same in a mirror and fold their images.
    if rng.below(3) == 0 {
        for row in grid.iter_mut() {
            for c in 0..cols / 2 {
                row[cols - 1 - c] = row[c];
            }
        }
    }
    let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    format!("{} {}", rows.join("/"), ["a", "b"][rng.below(2) as usize])
}

#[test]
fn random_step_games_have_the_general_values() {
    let mut rng = SplitMix64::new(0xb175_c0de);
    let (mut games, mut cored, mut positions, mut by_core) = (0, 0, 0, 0);
    for case in 0..3000 {
        let text = random_rules(&mut rng);
        let Ok(rules) = Rules::parse(&text) else { continue };
        let letters: Vec<char> =
            ['X', 'Y', 'Z', 'W'].into_iter().filter(|l| text.contains(&format!("\"{l}\""))).collect();
        let position = random_position(&mut rng, &letters);
        let Ok(s) = setup(Arc::new(rules), None, None, Some(&position)) else { continue };
        games += 1;
        if !s.game.has_bit_core() {
            continue;
        }
        cored += 1;
        let what = format!("case {case}: {position}\n{text}");
        // The whole index where it is small, else the engine's search.
        let compared = match s.game.placement_index() {
            Ok(index) if index.size() <= 200_000 => against_retrograde(&s.game, s.position, 3_000, 1, &what),
            _ => against_search(&s.game, s.position, 3_000, 3_000, &what),
        };
        positions += compared.positions;
        by_core += compared.by_core;
    }
    eprintln!("{games} games, {cored} with the core: {positions} positions, {by_core} answered by it");
    assert!(games > 700 && cored > 550 && by_core > 25_000, "{games} {cored} {by_core}");
}

/// The core's search on two threads sharing its table (a rayon pool of two:
/// probes past a few tens of thousands of positions take a helper) gives the
/// values of one thread: Breakthrough 5 × 4 from the start (a loss in 22) and
/// a spread of positions reachable from it, each game searched fresh.
#[test]
fn two_threads_find_the_values_of_one() {
    let values = |threads: usize| {
        let s = setup(load("breakthrough"), Some((5, 4)), None, None).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let positions = reachable(&s.game, s.position, 4_000);
        let values: Vec<_> = pool.install(|| {
            let searcher = Searcher::with_table_entries(&s.game, 1 << 10);
            positions.iter().step_by(100).map(|p| (show(&s.game, p), searcher.value(p).unwrap())).collect()
        });
        let (nodes, _) = s.game.bit_search_stats().expect("searched by the core");
        (values, nodes, s.game.bit_search_helped_probes().expect("searched by the core"))
    };
    let ((one, one_nodes, one_helped), (two, two_nodes, two_helped)) = (values(1), values(2));
    assert_eq!(one[0].1, gsolve_engine::Value::Loss(22));
    assert_eq!(one, two);
    assert_eq!(one_helped, 0, "one thread has no helper");
    assert!(two_helped > 0, "some probes took a helper");
    eprintln!("positions visited: {one_nodes} on one thread, {two_nodes} on two ({two_helped} probes helped)");
}
