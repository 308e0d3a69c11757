//! The engine path's fast paths for games whose pieces only step (no drops,
//! promotions, hands or trails) against the general path, on hundreds of random
//! rules files of that shape (random kinds, moves, stays, maps, zones and
//! endings; some outside the shape: a winning `stuck` ending, a line, a side
//! that moves every piece) and on the bundled examples:
//! - the parents' indices ranked from the child's pieces
//!   (`Unmoves::for_each_parent_index`) against each parent built and indexed,
//!   and the parents against the moves (`check::unmoves_match_moves` does both);
//! - the children and move counts stepped from the list against the moves
//!   played;
//! - the endings' table against the endings checked one by one;
//! - the retrograde solve against the solve over the reverse graph built from
//!   the moves, value and remoteness, index for index;
//! - the first step's look at each position read from the piece list
//!   (`Indexed::for_each_first_look_in`) against each position decoded, its
//!   moves counted or its children played (`check::unmoves_match_moves` runs
//!   `check::first_looks_match`).
//!
//! Where the board has at most 64 cells and every move is short, the parents
//! and the first look are read from cell sets first (`crate::set_unmoves`):
//! such games are checked on those and again on the lists
//! (`RulesGame::without(&[FastPath::CellSets])`).
//!
//! Games of one piece a kind (`PlacementIndex::singles`) rank their parents from
//! the child's ranks, with the rays' spans laid out once: the random games
//! have one or two pieces of each kind, and chase on boards whose spans pass
//! 128 cells, or hold a piece beside the rays, is among the examples.
mod common;

use gsolve_engine::{check, retrograde, Game, Indexed};
use gsolve_games::rng::SplitMix64;
use gsolve_rules::{compact, setup, CompactTask, FastPath, Rules, RulesGame};
use std::sync::Arc;

/// Every check of the module docs on every index of a game; the number of
/// positions checked.
struct Compare<'a>(&'a str);

impl CompactTask for Compare<'_> {
    type Output = usize;
    fn run<const N: usize>(self, game: &RulesGame<N>) -> usize {
        let name = self.0;
        let mut positions = 0;
        for i in 0..game.index_size() {
            let Some(p) = game.position(i) else { continue };
            positions += 1;
            assert_eq!(game.terminal(&p), game.terminal_by_checks(&p), "{name}: index {i}: {p:?}");
            if game.terminal(&p).is_some() {
                continue;
            }
            let mut moves = Vec::new();
            game.moves(&p, &mut moves);
            let played: Vec<_> = moves.iter().map(|m| game.play(&p, m)).collect();
            let mut stepped = Vec::new();
            game.for_each_child(&p, |c| stepped.push(c));
            assert_eq!(stepped, played, "{name}: index {i}: {p:?}");
            assert_eq!(game.move_count(&p), moves.len(), "{name}: index {i}: {p:?}");
            for c in &played {
                assert_eq!(game.terminal(c), game.terminal_by_checks(c), "{name}: child of {i}: {c:?}");
            }
        }
        check::unmoves_match_moves(game).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let (by_parents, by_moves) = (retrograde::solve(game), retrograde::solve_forward_only(game));
        if by_parents != by_moves {
            let first = (0..by_moves.len()).find(|&i| by_parents.packed_at(i) != by_moves.packed_at(i)).unwrap();
            panic!(
                "{name}: index {first}: by parents {:?}, by moves {:?}",
                by_parents.value(first),
                by_moves.value(first)
            );
        }
        positions
    }
}

/// [`Compare`] on `game`, and where its parents and first look are read from
/// cell sets before the step games' lists would be, on the lists as well
/// (`RulesGame::without(&[FastPath::CellSets])`): the positions checked.
fn compare(game: &RulesGame, name: &str) -> usize {
    let positions = compact(game, Compare(name));
    if game.ranks_parents() && game.first_look_from_bit_sets() {
        assert_eq!(compact(&game.without(&[FastPath::CellSets]), Compare(name)), positions, "{name}");
    }
    positions
}

/// A random rules file of pieces that only step: two or three kinds (a second
/// one for side `a` sometimes), random steps, ranges, leaps, landings and
/// stays; a meeting or captures; `reach` zones checked after the move or the
/// reply, `no-pieces` and `captured` endings with any result; now and then
/// something outside the fast paths' shape (a winning `stuck` ending, a line, a
/// side moving every piece).
fn random_rules(rng: &mut SplitMix64) -> String {
    let steps = [
        "\"orthogonal\"",
        "\"diagonal\"",
        "\"king\"",
        "\"knight\"",
        "\"forward\"",
        "[[1, 0], [0, 1]]",
        "[[2, 1], [-1, 0]]",
    ];
    let mut text = String::from("[game]\nname = \"random\"\nsides = [\"a\", \"b\"]\n\n[board]\nmap = true\n\n");
    let third = rng.below(3) == 0;
    let kinds: &[(&str, &str, char)] =
        if third { &[("x", "a", 'X'), ("y", "b", 'Y'), ("z", "a", 'Z')] } else { &[("x", "a", 'X'), ("y", "b", 'Y')] };
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
            let onto = ["empty", "enemy", "any", "any"][rng.below(4) as usize];
            let leap = rng.below(3) == 0;
            text += &format!("{{ steps = {step}, range = {range}, leap = {leap}, onto = \"{onto}\" }}");
        }
        text += &format!("]\nstay = {}\n\n", rng.below(3) == 0);
    }
    if rng.below(12) == 0 {
        text += "[side.b]\nturn = \"all\"\n\n";
    }
    text += "[zone.goal]\nmark = \"G\"\n\n[zone.exit]\nmark = \"E\"\n\n";
    if rng.below(2) == 0 {
        let winner = ["winner = \"a\"\n", "winner = \"b\"\n", ""][rng.below(3) as usize];
        text += &format!("[[end]]\nwhen = \"meet\"\npieces = [\"x\", \"y\"]\n{winner}\n");
    }
    if rng.below(2) == 0 {
        let side = ["side = \"a\"\n", "side = \"b\"\n", ""][rng.below(3) as usize];
        let result = ["loss", "win", "tie"][rng.below(3) as usize];
        text += &format!("[[end]]\nwhen = \"no-pieces\"\n{side}result = \"{result}\"\n\n");
    }
    if rng.below(4) == 0 {
        let result = ["loss", "win", "tie"][rng.below(3) as usize];
        text += &format!("[[end]]\nwhen = \"captured\"\npieces = [\"x\"]\nresult = \"{result}\"\n\n");
    }
    // Each zone's ending at most once (two with different results contradict).
    for zone in ["goal", "exit"] {
        if rng.below(3) == 0 {
            continue;
        }
        let side = ["side = \"a\"\n", "side = \"b\"\n", ""][rng.below(3) as usize];
        let check = ["after-move", "after-reply"][rng.below(2) as usize];
        let result = ["win", "loss", "tie"][rng.below(3) as usize];
        text += &format!(
            "[[end]]\nwhen = \"reach\"\nzone = \"{zone}\"\n{side}check = \"{check}\"\nresult = \"{result}\"\n\n"
        );
    }
    if rng.below(10) == 0 {
        text += "[[end]]\nwhen = \"stuck\"\nresult = \"win\"\n\n";
    }
    if rng.below(16) == 0 {
        text += "[[end]]\nwhen = \"line\"\nlength = 2\nresult = \"win\"\n\n";
    }
    text
}

/// A random map of 1 to 4 rows and 2 to 5 columns with walls, goal and exit marks,
/// one or two pieces of each kind, either side to move.
fn random_position(rng: &mut SplitMix64, third: bool) -> String {
    let (rows, cols) = (1 + rng.below(4) as usize, 2 + rng.below(4) as usize);
    let mut grid = vec![vec!['.'; cols]; rows];
    for row in grid.iter_mut() {
        for cell in row.iter_mut() {
            *cell = match rng.below(12) {
                0 => '#',
                1 => 'G',
                2 => 'E',
                _ => '.',
            };
        }
    }
    let letters: &[char] = if third { &['X', 'Y', 'Z'] } else { &['X', 'Y'] };
    for &letter in letters {
        for _ in 0..1 + rng.below(2) {
            let (r, c) = (rng.below(rows as u64) as usize, rng.below(cols as u64) as usize);
            grid[r][c] = letter;
        }
    }
    let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    format!("{} {}", rows.join("/"), ["a", "b"][rng.below(2) as usize])
}

#[test]
fn random_step_games_rank_parents_children_and_endings_as_the_general_path() {
    let mut rng = SplitMix64::new(0x57e9_5a1e);
    let (mut games, mut ranked, mut singles, mut on_sets, mut positions) = (0, 0, 0, 0, 0);
    for case in 0..2400 {
        let text = random_rules(&mut rng);
        // Endings that contradict (a meeting's winner against a zone's result...):
        // drawn again.
        let Ok(rules) = Rules::parse(&text) else { continue };
        let rules = Arc::new(rules);
        let position = random_position(&mut rng, text.contains("piece.z"));
        // A map without a `G` or an `E` lacks a zone's mark, too many pieces for a side
        // that moves every piece...: drawn again.
        let Ok(set) = setup(rules, None, None, Some(&position)) else { continue };
        if set.game.placement_index().map_or(true, |index| index.size() > 100_000) {
            continue;
        }
        games += 1;
        ranked += set.game.ranks_parents() as usize;
        singles += (set.game.ranks_parents() && set.game.placement_index().is_ok_and(|index| index.singles())) as usize;
        on_sets += (set.game.ranks_parents() && set.game.first_look_from_bit_sets()) as usize;
        positions += compare(&set.game, &format!("case {case}: {position}\n{text}"));
    }
    eprintln!(
        "{ranked} of {games} random games ranked their parents ({singles} of one piece a kind, {on_sets} read from cell sets first); {positions} positions"
    );
    assert!(on_sets > games / 10, "{on_sets} of {games} games read from cell sets first");
    assert!(on_sets < ranked, "every game that ranks its parents read them from cell sets first");
    assert!(singles > games / 10, "{singles} of {games} games ranked parents of one piece a kind");
    assert!(games > 200, "{games} games set up");
    assert!(ranked > games / 2, "{ranked} of {games} games ranked their parents");
    assert!(ranked < games, "every game ranked its parents: none outside the shape was drawn");
}

#[test]
fn bundled_examples_rank_parents_children_and_endings_as_the_general_path() {
    // (example, board size, position)
    type Case<'a> = (&'a str, Option<(u32, u32)>, Option<&'a str>);
    let cases: &[Case] = &[
        ("chase", Some((4, 4)), None),
        // Spans of black's two-cell steps of 19 cells, and of 141 (past a
        // 128-bit set of the span's cells).
        ("chase", Some((9, 9)), None),
        ("chase", Some((3, 70)), None),
        ("queens-case", None, Some("Q..#/.#E./...A/E... q")),
        ("cops-and-robbers", None, Some("C..#/.#../...R r")),
        ("pawns", Some((3, 4)), None),
        ("breakthrough", Some((4, 3)), None),
        ("dobutsu", None, Some("l../.../.../..L s Cc")),
        ("tic-tac-toe", None, None),
    ];
    let mut ranked = 0;
    for &(name, size, position) in cases {
        let set = setup(common::load(name), size, None, position).unwrap_or_else(|e| panic!("{name}: {e}"));
        if set.game.placement_index().map_or(true, |index| index.size() > 2_000_000) {
            panic!("{name}: no index small enough to check");
        }
        ranked += set.game.ranks_parents() as usize;
        compare(&set.game, name);
    }
    assert!(ranked >= 3, "{ranked} bundled games ranked their parents");
}

/// Four kinds of one piece each: tiers of four, three, two and one single
/// pieces, so that the parents' walk and the first look run the walks made for
/// one to three pieces (the parents' of two: the pair's) and the general one
/// (room for more).
#[test]
fn four_single_pieces_rank_parents_children_and_endings_as_the_general_path() {
    let text = r#"
[game]
name = "four"
sides = ["a", "b"]

[board]
map = true

[piece.w]
side = "a"
letter = "W"
moves = [{ steps = "orthogonal", onto = "any" }]
stay = true

[piece.x]
side = "a"
letter = "X"
moves = [{ steps = "diagonal", range = 2, onto = "any" }]

[piece.y]
side = "b"
letter = "Y"
moves = [{ steps = "king", onto = "any" }]

[piece.z]
side = "b"
letter = "Z"
moves = [{ steps = "knight", onto = "empty" }, { steps = "orthogonal", range = "slide", onto = "enemy" }]

[zone.goal]
mark = "G"

[[end]]
when = "no-pieces"
result = "loss"

[[end]]
when = "reach"
zone = "goal"
side = "b"
check = "after-reply"
result = "win"
"#;
    let rules = Arc::new(Rules::parse(text).expect("the rules"));
    for position in ["WX.G/.#../YZ.. a", "W.Y/#G./X.Z b"] {
        let set = setup(rules.clone(), None, None, Some(position)).unwrap_or_else(|e| panic!("{position}: {e}"));
        let index = set.game.placement_index().expect("an index");
        assert!(set.game.ranks_parents() && index.singles(), "{position}: parents ranked from single pieces");
        let most = (0..index.tiers().len()).map(|tier| index.tiers()[tier].counts.iter().filter(|&&c| c > 0).count());
        assert_eq!(most.max(), Some(4), "{position}: a tier of four pieces");
        assert!(compare(&set.game, position) > 1000, "{position}: positions checked");
    }
}
