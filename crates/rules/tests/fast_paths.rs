//! The fast paths against the general ones, value for value: every bundled rules
//! file (on a small board, or from a small position) solved whole with the fast
//! paths its rules choose and again with none of them (`RulesGame::without`),
//! the two solutions equal index for index. Together the cases choose every fast
//! path of the table in `game::fast_paths` at least once, so that none of them
//! goes untested here.

mod common;

use common::load;
use gsolve_engine::retrograde;
use gsolve_rules::{setup, solve_by_bit_rows, solve_retrograde, FastPath, RulesGame};
use std::collections::BTreeSet;

/// A rules file, a board size where the file has none, a position where its
/// start is too big.
type Case = (&'static str, Option<(u32, u32)>, Option<&'static str>);

/// Small enough for a whole solve on the general paths in a debug-asserted test
/// build.
const CASES: &[Case] = &[
    ("breakthrough", Some((4, 3)), None),
    ("pawns", Some((4, 4)), None),
    ("chase", None, Some("W.../..../..../...B w")),
    ("queens-case", None, Some("Q.E./.#../E..A q")),
    ("fox-and-hounds", None, Some(".H.H..../......../......../......../......../......../......../F....... f")),
    ("dobutsu", None, Some("l../.../.../..L s Cc")),
    ("tic-tac-toe", None, None),
    ("misere-tic-tac-toe", None, None),
    ("connect-4", Some((4, 4)), None),
];

fn game_of(name: &str, size: Option<(u32, u32)>, position: Option<&str>) -> RulesGame {
    setup(load(name), size, None, position).unwrap_or_else(|e| panic!("{name}: {e}")).game
}

/// Every line of `--check`'s "fast paths" names the general path once every
/// fast path is left out, and the whole solves agree.
#[test]
fn every_fast_path_solves_as_the_general_paths_do() {
    let mut chosen = BTreeSet::new();
    for &(name, size, position) in CASES {
        let game = game_of(name, size, position);
        let general = game.without(&FastPath::ALL);
        let paths = general.fast_paths();
        for line in &paths[..7] {
            assert!(line.contains("general"), "{name}: {line} (all of them: {paths:?})");
        }
        let options = retrograde::Options::default();
        assert!(solve_by_bit_rows(&general, &options).is_none(), "{name}: bit rows without them");
        let plain = solve_retrograde(&general, &options);
        // The paths chosen first, then those next in order where cell sets are
        // left out (Dobutsu's first look from ending words).
        for fast in [game.clone(), game.without(&[FastPath::CellSets])] {
            chosen.extend(fast.fast_paths().into_iter().filter(|line| !line.contains("general")));
            let solution = solve_by_bit_rows(&fast, &options).unwrap_or_else(|| solve_retrograde(&fast, &options));
            assert!(solution == plain, "{name}: the fast paths' solve differs from the general paths'");
        }
    }
    // The trail race is a search's knowledge (no index, no whole solve).
    chosen.extend(game_of("snakes", None, None).fast_paths());
    let all = chosen.iter().cloned().collect::<Vec<_>>().join("\n");
    for wanted in [
        "first look: from the groups' cell sets",
        "first look: from the step games' lists",
        "first look: from the pieces' ending words",
        "parents: walked on cell sets",
        "parents: ranked from the child's pieces",
        "tier sweeps: ranked move by move",
        "outright search: the line games' search",
        "outright search: the step games' search",
        "search knowledge: a trail race",
        "search knowledge: immediate wins",
        "whole solve: bit rows",
        "children: played from the piece list",
    ] {
        assert!(all.contains(wanted), "no case chose {wanted:?}:\n{all}");
    }
}

/// `without` leaves out what it is told and keeps what it was told before: the
/// cell sets left out, then the step games' lists, leaves neither.
#[test]
fn without_accumulates() {
    let game = game_of(
        "fox-and-hounds",
        None,
        Some(".H.H..../......../......../......../......../......../......../F....... f"),
    );
    assert!(game.fast_paths()[0].contains("cell sets"), "{:?}", game.fast_paths());
    let lists = game.without(&[FastPath::CellSets]);
    assert!(lists.fast_paths()[0].contains("step games' lists"), "{:?}", lists.fast_paths());
    let neither = lists.without(&[FastPath::StepLists]);
    assert!(!neither.fast_paths()[0].contains("cell sets"), "{:?}", neither.fast_paths());
    assert!(!neither.fast_paths()[0].contains("step games"), "{:?}", neither.fast_paths());
    assert!(neither.fast_paths().last().unwrap().contains("CellSets"), "{:?}", neither.fast_paths());
}
