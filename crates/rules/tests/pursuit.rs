//! Pursuits (one piece a side) are solved whole by bit rows (`solve_by_bit_rows`); the
//! engine's retrograde solve of the same game must give the same solution, index
//! for index: on the bundled chase and Queen's Case files and on hundreds of
//! random rules files with random moves, maps, zones and endings. Random files
//! that are not pursuits (moves only onto empty cells, blocked slides) check that
//! the engine still solves them.
mod common;

use common::load;
use gsolve_engine::{retrograde, Solution};
use gsolve_games::rng::SplitMix64;
use gsolve_rules::{compact, setup, solve_by_bit_rows, solve_retrograde, CompactTask, Rules, RulesGame};
use std::sync::Arc;

/// The engine's whole-game solve, never the bit rows.
struct Engine;

impl CompactTask for Engine {
    type Output = Solution;
    fn run<const N: usize>(self, game: &RulesGame<N>) -> Solution {
        retrograde::solve(game)
    }
}

/// The bit rows' solve of `game`, when they take it, and `solve_retrograde` (with
/// positions of the smallest room) must equal
/// the engine's; true when the bit rows solved it (they must whenever the game
/// says it is a pursuit, these games being short).
fn compare(game: &RulesGame, name: &str) -> bool {
    let engine = compact(game, Engine);
    let options = retrograde::Options::default();
    let first_difference = |solution: &Solution| {
        let first = (0..engine.len()).find(|&i| solution.packed_at(i) != engine.packed_at(i)).unwrap();
        format!("index {first} of {}: {:?}, engine {:?}", engine.len(), solution.value(first), engine.value(first))
    };
    let by_bit_rows = solve_by_bit_rows(game, &options);
    if let Some(solution) = &by_bit_rows {
        assert!(*solution == engine, "{name}: bit rows: {}", first_difference(solution));
    }
    assert_eq!(by_bit_rows.is_some(), game.is_pursuit(), "{name}: is_pursuit says otherwise");
    let whole = solve_retrograde(game, &options);
    assert!(whole == engine, "{name}: solve_retrograde: {}", first_difference(&whole));
    by_bit_rows.is_some()
}

fn grid_text(rows: &[Vec<char>], side: char) -> String {
    let rows: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    format!("{} {side}", rows.join("/"))
}

#[test]
fn chase_from_its_rules_file_equals_the_engine() {
    // n ≥ 9: rows of two words and more.
    for n in 2..=12 {
        let mut rows = vec![vec!['.'; n]; n];
        rows[0][0] = 'W';
        rows[n - 1][n - 1] = 'B';
        let game = setup(load("chase"), None, None, Some(&grid_text(&rows, 'w'))).unwrap().game;
        assert!(compare(&game, &format!("chase n = {n}")), "chase n = {n} is a pursuit");
    }
}

#[test]
fn queens_case_from_its_rules_file_equals_the_engine() {
    let mut rng = SplitMix64::new(0x009c_5e11);
    let mut pursuits = 0;
    for case in 0..120 {
        // One map in eight is larger: rows of several words.
        let (rows, cols) = if case % 8 == 0 {
            (8 + rng.below(7) as usize, 9 + rng.below(8) as usize)
        } else {
            (1 + rng.below(7) as usize, 3 + rng.below(6) as usize)
        };
        let mut grid = vec![vec!['.'; cols]; rows];
        for row in grid.iter_mut() {
            for cell in row.iter_mut() {
                *cell = match rng.below(10) {
                    0 | 1 => '#',
                    2 => 'E',
                    _ => '.',
                };
            }
        }
        // At least one exit, on neither piece's cell.
        let exit = 1 + rng.below((rows * cols - 2) as u64) as usize;
        grid[exit / cols][exit % cols] = 'E';
        grid[0][0] = 'Q';
        grid[rows - 1][cols - 1] = 'A';
        let text = grid_text(&grid, 'q');
        let game = setup(load("queens-case"), None, None, Some(&text)).unwrap().game;
        pursuits += compare(&game, &format!("Queen's Case case {case}: {text}")) as usize;
    }
    // Maps over a quarter wall go to the engine.
    eprintln!("{pursuits} of 120 maps solved by bit rows");
    assert!(pursuits > 60, "{pursuits} of 120 maps solved by bit rows");
}

/// A random rules file of two pieces, `X` (side `a`) and `Y` (side `b`), on a map
/// with walls and `G` cells; a pursuit unless `strict` moves were drawn.
fn random_rules(rng: &mut SplitMix64) -> String {
    let steps = ["\"orthogonal\"", "\"diagonal\"", "\"king\"", "\"knight\"", "[[1, 0], [0, 1]]", "[[2, 1], [-1, 0]]"];
    let mut text = String::from("[game]\nname = \"random\"\nsides = [\"a\", \"b\"]\n\n[board]\nmap = true\n\n");
    let meet = rng.below(2) == 0;
    for (name, side, letter) in [("x", "a", 'X'), ("y", "b", 'Y')] {
        text += &format!("[piece.{name}]\nside = \"{side}\"\nletter = \"{letter}\"\nmoves = [");
        for m in 0..1 + rng.below(2) {
            if m > 0 {
                text += ", ";
            }
            let step = steps[rng.below(steps.len() as u64) as usize];
            let range = 1 + rng.below(3);
            // One move in twelve lands only on empty cells, one in eight slides
            // without leaping: not pursuits.
            let onto = if rng.below(12) == 0 { "empty" } else { "any" };
            let leap = range == 1 || rng.below(8) != 0;
            text += &format!("{{ steps = {step}, range = {range}, leap = {leap}, onto = \"{onto}\" }}");
        }
        text += &format!("]\nstay = {}\n\n", rng.below(3) == 0);
    }
    if meet && rng.below(3) == 0 {
        text += "[side.b]\nturn = \"all\"\n\n";
    }
    text += "[zone.goal]\nmark = \"G\"\n\n";
    if meet {
        let winner = ["a", "b"][rng.below(2) as usize];
        text += &format!("[[end]]\nwhen = \"meet\"\npieces = [\"x\", \"y\"]\nwinner = \"{winner}\"\n\n");
    } else {
        text += "[[end]]\nwhen = \"no-pieces\"\nresult = \"loss\"\n\n";
    }
    if rng.below(3) != 0 {
        let side = ["a", "b"][rng.below(2) as usize];
        let check = ["after-move", "after-reply"][rng.below(2) as usize];
        let result = ["win", "loss"][rng.below(2) as usize];
        text += &format!(
            "[[end]]\nwhen = \"reach\"\nzone = \"goal\"\nside = \"{side}\"\ncheck = \"{check}\"\nresult = \"{result}\"\n\n"
        );
    }
    if rng.below(3) == 0 {
        let result = ["win", "loss"][rng.below(2) as usize];
        text += &format!("[[end]]\nwhen = \"stuck\"\nresult = \"{result}\"\n\n");
    }
    text
}

/// A random map with `X` and `Y` on two floor cells, `a` to move.
fn random_position(rng: &mut SplitMix64) -> String {
    let (rows, cols) = (1 + rng.below(6) as usize, 2 + rng.below(6) as usize);
    let walls = rng.below(4);
    let mut grid = vec![vec!['.'; cols]; rows];
    for row in grid.iter_mut() {
        for cell in row.iter_mut() {
            let roll = rng.below(12);
            *cell = if roll < walls {
                '#'
            } else if roll == 11 {
                'G'
            } else {
                '.'
            };
        }
    }
    grid[0][0] = 'X';
    grid[rows - 1][cols - 1] = 'Y';
    grid_text(&grid, 'a')
}

#[test]
fn random_pursuit_rules_equal_the_engine() {
    let mut rng = SplitMix64::new(0x5eed_b175);
    let (mut games, mut pursuits) = (0, 0);
    for case in 0..1500 {
        let text = random_rules(&mut rng);
        let rules = Arc::new(Rules::parse(&text).unwrap_or_else(|e| panic!("case {case}: {e}\n{text}")));
        let position = random_position(&mut rng);
        // A map without a `G` lacks the zone's mark: drawn again.
        let Ok(set) = setup(rules, None, None, Some(&position)) else { continue };
        games += 1;
        pursuits += compare(&set.game, &format!("case {case}: {position}\n{text}")) as usize;
    }
    eprintln!("{pursuits} of {games} random games solved by bit rows");
    assert!(games > 200, "{games} games set up");
    assert!(pursuits > games / 3, "{pursuits} of {games} games solved by bit rows");
}

#[test]
fn one_cop_and_a_robber_equal_the_engine() {
    // The cops move every piece at once: with one cop and a meeting, a pursuit.
    let mut rng = SplitMix64::new(0xc0b5);
    let mut pursuits = 0;
    for case in 0..60 {
        let (rows, cols) = (2 + rng.below(5) as usize, 2 + rng.below(5) as usize);
        let mut grid = vec![vec!['.'; cols]; rows];
        for row in grid.iter_mut() {
            for cell in row.iter_mut() {
                if rng.below(8) == 0 {
                    *cell = '#';
                }
            }
        }
        grid[0][0] = 'C';
        grid[rows - 1][cols - 1] = 'R';
        let text = grid_text(&grid, ['c', 'r'][case % 2]);
        let game = setup(load("cops-and-robbers"), None, None, Some(&text)).unwrap().game;
        pursuits += compare(&game, &format!("cops and robbers case {case}: {text}")) as usize;
    }
    eprintln!("{pursuits} of 60 maps solved by bit rows");
    assert!(pursuits > 40, "{pursuits} of 60 maps solved by bit rows");
}

#[test]
fn a_capture_that_does_not_end_the_game_is_left_to_the_engine() {
    // Captures without a `no-pieces` ending: the lone piece plays on, which bit
    // rows cannot hold; `is_pursuit` (and so `--check`) must say no.
    let text = "[game]\nname = \"capture\"\nsides = [\"a\", \"b\"]\n[board]\nrows = 2\ncols = 2\n\
                [piece.x]\nside = \"a\"\nletter = \"X\"\nmoves = [{ steps = \"king\" }]\n\
                [piece.y]\nside = \"b\"\nletter = \"Y\"\nmoves = [{ steps = \"king\" }]\n\
                [[end]]\nwhen = \"stuck\"\n";
    let rules = Arc::new(Rules::parse(text).unwrap());
    let game = setup(rules, None, None, Some("X./.Y a")).unwrap().game;
    assert!(!compare(&game, "captures that play on"), "not a pursuit");
}
