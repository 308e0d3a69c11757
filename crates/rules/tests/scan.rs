//! The tier sweeps' children ranked move by move (`Tiered::for_each_located_at` of
//! a rules game the scan takes: pawn chess, Breakthrough) against the engine's
//! default (every move played, each child located), scan by scan on every index
//! of every tier, and their progress against each position's: on the bundled
//! pawns and Breakthrough and on hundreds of random rules files of the shape
//! (random steps, ranges, leaps, facings, maps, zones and endings), some of them
//! outside it (which must not be scanned).
mod common;

use common::load;
use gsolve_engine::{located_at, tiered, ChildAt, Outcome, Scan, Tiered, Value};
use gsolve_games::rng::SplitMix64;
use gsolve_rules::{compact, setup, CompactTask, Rules, RulesGame};
use std::sync::Arc;

/// A scan in a form two scans can be compared in: a move that wins at once makes
/// the position a win in 1 (the scan stops there), and the children are sorted.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Over(Outcome),
    Known(Value),
    Moves(Vec<(u8, u32, u64)>),
}

fn seen(scan: Scan<'_, u32>) -> Seen {
    match scan {
        Scan::Over(outcome) => Seen::Over(outcome),
        Scan::Known(value) => Seen::Known(value),
        Scan::Moves(children) => {
            if children.contains(&ChildAt::Over(Outcome::Loss)) {
                return Seen::Known(Value::Win(1));
            }
            let mut out: Vec<(u8, u32, u64)> = children
                .iter()
                .map(|c| match *c {
                    ChildAt::Over(o) => (0, o as u32, 0),
                    ChildAt::In(t, i) => (1, t, i),
                    ChildAt::Nowhere => (2, 0, 0),
                })
                .collect();
            out.sort_unstable();
            Seen::Moves(out)
        }
    }
}

/// Every tier's scans (all indices, then every third) and progress, scan against
/// default; the number of positions compared.
struct Compare<'a>(&'a str);

impl CompactTask for Compare<'_> {
    type Output = usize;
    fn run<const N: usize>(self, game: &RulesGame<N>) -> usize {
        let name = self.0;
        let mut positions = 0;
        for tier in game.tiers() {
            let size = game.tier_size(tier);
            for step in [1, 3] {
                let mut fast = Vec::new();
                game.for_each_located_at(tier, (0..size).step_by(step), |i, scan| fast.push((i, seen(scan))));
                let mut slow = Vec::new();
                located_at(game, tier, (0..size).step_by(step), |i, scan| slow.push((i, seen(scan))));
                assert_eq!(fast.len(), slow.len(), "{name}: tier {tier} step {step}: positions scanned");
                for (f, s) in fast.iter().zip(&slow) {
                    assert_eq!(f, s, "{name}: tier {tier}, index {}", s.0);
                }
                positions += fast.len();
            }
            if game.progress_bound(tier).is_some() {
                let mut fast = Vec::new();
                game.for_each_progress_in_tier(tier, 0..size, |i, p| fast.push((i, p)));
                let mut slow = Vec::new();
                game.for_each_position_in_tier(tier, 0..size, |i, p| slow.push((i, game.progress(tier, &p))));
                assert_eq!(fast, slow, "{name}: tier {tier}: progress");
            }
        }
        positions
    }
}

/// Scans `game` against the default; true when the scan takes it.
fn compare(game: &RulesGame, name: &str) -> bool {
    compact(game, Compare(name));
    game.scans_children()
}

#[test]
fn pawns_and_breakthrough_are_scanned_as_the_default_locates() {
    for (file, rows, cols) in [("pawns", 4, 4), ("pawns", 3, 5), ("breakthrough", 4, 3), ("breakthrough", 4, 2)] {
        let set = setup(load(file), Some((rows, cols)), None, None).unwrap();
        assert!(compare(&set.game, &format!("{file} {rows}×{cols}")), "{file} is scanned");
    }
    // Boards past 64 cells: 128-bit cell sets.
    for (file, position) in [
        ("pawns", "......../.p...p../......../......../......../......../......../......../...P.... w"),
        ("breakthrough", "......./...B.../......./......./......./......./......./......./......./..W.... b"),
    ] {
        let set = setup(load(file), None, None, Some(position)).unwrap();
        assert!(set.game.board().cells() > 64);
        assert!(compare(&set.game, position), "{file} past 64 cells is scanned");
    }
    // Positions with no piece of a kind, or none at all.
    for position in ["..../..../..../.... w", "..p./..../..../.... b", "..../..../P.../.... w"] {
        let set = setup(load("pawns"), None, None, Some(position)).unwrap();
        compare(&set.game, position);
    }
    // Fox and Hounds' fox may stand wherever the hounds may: ranked among the
    // places the hounds leave, which the scan does not do.
    let set = setup(load("fox-and-hounds"), None, None, None).unwrap();
    assert!(!set.game.scans_children());
}

/// A random pawn-like rules file: one kind a side (sometimes a second for the
/// first side), random steps, ranges, leaps and landings, facings, a goal zone
/// reached after the move or the reply with any result, and sometimes a
/// `no-pieces` or a winning `stuck` ending (which the scan does not take).
fn random_rules(rng: &mut SplitMix64) -> String {
    let steps = [
        "\"forward\"",
        "\"forward-diagonal\"",
        "[\"forward\", \"forward-diagonal\"]",
        "\"orthogonal\"",
        "\"diagonal\"",
        "\"king\"",
        "\"knight\"",
        "[[1, 0], [2, 1]]",
        "[[1, -1], [0, 1]]",
    ];
    let mut text = String::from("[game]\nname = \"random\"\nsides = [\"a\", \"b\"]\n\n[board]\nmap = true\n\n");
    let facings = ["\"up\"", "\"down\"", "\"left\"", "\"right\""];
    for side in ["a", "b"] {
        if rng.below(4) == 0 {
            text += &format!("[side.{side}]\nforward = {}\n\n", facings[rng.below(4) as usize]);
        }
    }
    let second = rng.below(6) == 0;
    let kinds: &[(&str, &str, char)] =
        if second { &[("x", "a", 'X'), ("y", "b", 'Y'), ("z", "a", 'Z')] } else { &[("x", "a", 'X'), ("y", "b", 'Y')] };
    for &(name, side, letter) in kinds {
        text += &format!("[piece.{name}]\nside = \"{side}\"\nletter = \"{letter}\"\nmoves = [");
        for m in 0..1 + rng.below(2) {
            if m > 0 {
                text += ", ";
            }
            let step = steps[rng.below(steps.len() as u64) as usize];
            let range = match rng.below(6) {
                0 => "2".to_string(),
                1 => "\"slide\"".to_string(),
                _ => "1".to_string(),
            };
            let onto = ["empty", "enemy", "any"][rng.below(3) as usize];
            let leap = rng.below(4) == 0;
            text += &format!("{{ steps = {step}, range = {range}, leap = {leap}, onto = \"{onto}\" }}");
        }
        text += "]\n\n";
    }
    // A second zone (reached after the reply, mostly) stands where pieces may
    // wait: its pieces count for an ending only on their side's turn.
    let zones: &[&str] = if rng.below(2) == 0 { &["goal", "exit"] } else { &["goal"] };
    for &zone in zones {
        text += &format!("[zone.{zone}]\n");
        text += match (zone, rng.below(3)) {
            ("exit", 0) => "mark = \"E\"\n\n",
            ("exit", _) => "rows = [2]\n\n",
            (_, 0) => "mark = \"G\"\n\n",
            (_, 1) => "home-row = true\n\n",
            _ => "far-row = true\n\n",
        };
    }
    for &zone in zones {
        let side = ["a", "b", "both"][rng.below(3) as usize];
        let side = if side == "both" { String::new() } else { format!("side = \"{side}\"\n") };
        let check = match zone {
            "exit" => ["after-move", "after-reply", "after-reply"][rng.below(3) as usize],
            _ => ["after-move", "after-move", "after-reply"][rng.below(3) as usize],
        };
        let result = ["win", "win", "loss", "tie"][rng.below(4) as usize];
        let pieces = if second && rng.below(2) == 0 { "pieces = [\"z\"]\n" } else { "" };
        text += &format!(
            "[[end]]\nwhen = \"reach\"\nzone = \"{zone}\"\n{side}{pieces}check = \"{check}\"\nresult = \"{result}\"\n\n"
        );
    }
    if rng.below(2) == 0 {
        let side = ["a", "b", "both"][rng.below(3) as usize];
        let side = if side == "both" { String::new() } else { format!("side = \"{side}\"\n") };
        let result = ["loss", "win", "tie"][rng.below(3) as usize];
        text += &format!("[[end]]\nwhen = \"no-pieces\"\n{side}result = \"{result}\"\n\n");
    }
    if rng.below(8) == 0 {
        text += "[[end]]\nwhen = \"stuck\"\nresult = \"win\"\n\n";
    }
    text
}

/// A random map of 2 to 5 rows and columns with a few walls and goal and exit
/// marks, one to three pieces of each kind, either side to move; or (one in
/// eight) a map of 9 to 12 rows and 8 columns with one piece of each kind.
fn random_position(rng: &mut SplitMix64, second: bool) -> String {
    // One board in eight has 72 to 96 cells (128-bit cell sets), one piece a kind.
    let big = rng.below(8) == 0;
    let (rows, cols) =
        if big { (9 + rng.below(4) as usize, 8) } else { (2 + rng.below(4) as usize, 2 + rng.below(4) as usize) };
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
    let letters: &[char] = if second { &['X', 'Y', 'Z'] } else { &['X', 'Y'] };
    for &letter in letters {
        for _ in 0..1 + rng.below(if letter == 'Z' || big { 1 } else { 3 }) {
            let (r, c) = (rng.below(rows as u64) as usize, rng.below(cols as u64) as usize);
            grid[r][c] = letter;
        }
    }
    let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    format!("{} {}", rows.join("/"), ["a", "b"][rng.below(2) as usize])
}

#[test]
fn random_pawn_like_rules_are_scanned_as_the_default_locates() {
    let mut rng = SplitMix64::new(0x5ca1_ab1e);
    let (mut games, mut scanned) = (0, 0);
    for case in 0..1600 {
        let text = random_rules(&mut rng);
        let rules = Arc::new(Rules::parse(&text).unwrap_or_else(|e| panic!("case {case}: {e}\n{text}")));
        let position = random_position(&mut rng, text.contains("piece.z"));
        // A map without a `G` lacks the zone's mark, a piece may stand on a
        // wall's cell...: drawn again.
        let Ok(set) = setup(rules, None, None, Some(&position)) else { continue };
        if set.game.placement_index().map_or(true, |index| index.size() > 400_000) {
            continue;
        }
        games += 1;
        scanned += compare(&set.game, &format!("case {case}: {position}\n{text}")) as usize;
    }
    eprintln!("{scanned} of {games} random games scanned");
    assert!(games > 300, "{games} games set up");
    assert!(scanned > games / 4, "{scanned} of {games} games scanned");
}

/// Solved tier by tier with the scan, pawn chess equals the built-in game's
/// strong solve on every position (`seed_games.rs` compares every value; here
/// the scan is known to have run).
#[test]
fn a_scanned_tier_solve_is_the_same_as_the_default_one() {
    let set = setup(load("pawns"), Some((3, 4)), None, None).unwrap();
    assert!(set.game.scans_children());
    struct Solve;
    impl CompactTask for Solve {
        type Output = tiered::TiersInMemory<u32>;
        fn run<const N: usize>(self, game: &RulesGame<N>) -> Self::Output {
            tiered::solve_all(game)
        }
    }
    let tiers = compact(&set.game, Solve);
    let built_in = gsolve_games::pawns::Pawns::new(3, 4);
    let expected = tiered::solve_all(&built_in);
    let (mut compared, mut over) = (0, 0);
    for tier in set.game.tiers() {
        let values = tiers.get(tier).unwrap();
        set.game.for_each_position_in_tier(tier, 0..set.game.tier_size(tier), |i, p| {
            let text = gsolve_games::notation::PlainNotation::format_position(&set.game, &p);
            let Ok(q) = gsolve_games::notation::PlainNotation::parse_position(&built_in, &text) else {
                return;
            };
            let Some((t, j)) = built_in.locate(&q) else {
                over += 1;
                return;
            };
            assert_eq!(values.value(i), expected.get(t).unwrap().value(j), "{text}");
            compared += 1;
        });
    }
    assert!(compared > 1000, "{compared} positions compared ({over} over)");
}
