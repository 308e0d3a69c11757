//! Immediate wins in the search (docs/rules-solving.md, "Immediate wins in the search"):
//! the rules game's answer to "does the side to move win at once?" against every
//! child played and looked at, on every position reachable from the start of the
//! bundled games and of a thousand random rules files (steps, slides, leaps,
//! captures, stays, promotions, drops with and without gravity, goal and exit
//! zones reached after the move or the reply, meetings, royal kinds, `no-pieces`,
//! `full` and `stuck` endings with every result, a few lines); and, where the
//! game cannot repeat a position, the search's values (which use the answer and
//! the bounds that follow from it) against an independent brute force.
mod common;

use common::load;
use gsolve_engine::search::{SearchHooks, Searcher};
use gsolve_engine::{Game, Outcome, Value};
use gsolve_games::rng::SplitMix64;
use gsolve_rules::{setup, FastPath, Rules, RulesGame, RulesPosition};
use std::collections::HashMap;
use std::sync::Arc;

/// Does some move of `p` win at once, by playing every move: a child over and
/// lost for the side then to move, or with no move (which loses, the engine's
/// rule, when `terminal` does not say otherwise).
fn wins_at_once_by_play(game: &RulesGame, p: &RulesPosition) -> bool {
    let mut children = Vec::new();
    game.for_each_child(p, |c| children.push(c));
    children.iter().any(|c| match game.terminal(c) {
        Some(outcome) => outcome == Outcome::Loss,
        None => game.move_count(c) == 0,
    })
}

/// Positions reachable from `start`, at most `limit`, with each one's children
/// (terminal positions have none), and whether that is all of them.
fn reachable(
    game: &RulesGame,
    start: RulesPosition,
    limit: usize,
) -> (HashMap<RulesPosition, Vec<RulesPosition>>, bool) {
    let mut graph = HashMap::new();
    let mut stack = vec![start];
    while let Some(p) = stack.pop() {
        if graph.contains_key(&p) {
            continue;
        }
        if graph.len() == limit {
            return (graph, false);
        }
        let mut children = Vec::new();
        if game.terminal(&p).is_none() {
            game.for_each_child(&p, |c| children.push(c));
        }
        stack.extend(children.iter().copied());
        graph.insert(p, children);
    }
    (graph, true)
}

/// Can play come back to a position (a cycle in the graph)?
fn has_cycle(graph: &HashMap<RulesPosition, Vec<RulesPosition>>) -> bool {
    // 1: on the path being walked, 2: done.
    let mut state: HashMap<RulesPosition, u8> = HashMap::new();
    for &root in graph.keys() {
        if state.contains_key(&root) {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        state.insert(root, 1);
        while let Some(&mut (p, ref mut next)) = stack.last_mut() {
            let children = &graph[&p];
            if *next < children.len() {
                let c = children[*next];
                *next += 1;
                match state.get(&c) {
                    Some(1) => return true,
                    Some(_) => {}
                    None => {
                        state.insert(c, 1);
                        stack.push((c, 0));
                    }
                }
            } else {
                state.insert(p, 2);
                stack.pop();
            }
        }
    }
    false
}

/// Every position's value by plain minimax over an acyclic graph, in value
/// order (a faster win, a slower loss, a faster tie is better): over, the
/// outcome's; no move, a loss in 0 (the engine's rule); else the best of the
/// children's seen from the parent. Children first, by a depth-first walk.
fn minimax(game: &RulesGame, graph: &HashMap<RulesPosition, Vec<RulesPosition>>) -> HashMap<RulesPosition, Value> {
    let mut value: HashMap<RulesPosition, Value> = HashMap::new();
    for &root in graph.keys() {
        let mut stack = vec![(root, false)];
        while let Some((p, expanded)) = stack.pop() {
            if value.contains_key(&p) {
                continue;
            }
            if !expanded {
                stack.push((p, true));
                stack.extend(graph[&p].iter().filter(|c| !value.contains_key(c)).map(|&c| (c, false)));
                continue;
            }
            let v = match game.terminal(&p) {
                Some(outcome) => outcome.value(),
                None => graph[&p].iter().map(|c| value[c].parent_view()).max().unwrap_or(Value::Loss(0)),
            };
            value.insert(p, v);
        }
    }
    value
}

/// What checking one game found: positions whose answer the rules gave, and
/// whether the search was compared with the brute force.
#[derive(Default, Debug)]
struct Checked {
    answered: usize,
    wins: usize,
    searched: bool,
}

/// Checks the rules' answer on every position reachable from `start` (at most
/// `limit`), and, where those are all and the game is acyclic, the search's value of the start and
/// of every 7th position with plain minimax's.
fn check(game: &RulesGame, start: RulesPosition, limit: usize, what: &str) -> Checked {
    let mut checked = Checked::default();
    let (graph, whole) = reachable(game, start, limit);
    for p in graph.keys() {
        if game.terminal(p).is_some() {
            continue;
        }
        if let Some(answer) = game.wins_at_once(p) {
            checked.answered += 1;
            checked.wins += answer as usize;
            assert_eq!(answer, wins_at_once_by_play(game, p), "{what}: {}", game.show(p));
        }
    }
    if !whole || has_cycle(&graph) {
        return checked;
    }
    let want = minimax(game, &graph);
    let searcher = Searcher::with_table_entries(game, 1 << 10);
    let mut positions: Vec<&RulesPosition> = graph.keys().collect();
    positions.sort();
    for p in std::iter::once(&start).chain(positions.into_iter().step_by(7)) {
        assert_eq!(searcher.value(p), Ok(want[p]), "{what}: {}", game.show(p));
    }
    checked.searched = true;
    checked
}

trait Show {
    fn show(&self, p: &RulesPosition) -> String;
}

impl Show for RulesGame {
    fn show(&self, p: &RulesPosition) -> String {
        gsolve_rules::notation::format_position(self, p)
    }
}

#[test]
fn bundled_games_win_at_once_as_their_moves_say() {
    // (file, board size, most positions looked at)
    type Case = (&'static str, Option<(u32, u32)>, usize);
    let cases: &[Case] = &[
        ("breakthrough", Some((4, 3)), 200_000),
        ("breakthrough", Some((4, 4)), 60_000),
        ("pawns", Some((4, 4)), 60_000),
        ("chase", None, 60_000),
        ("dobutsu", None, 30_000),
        ("misere-tic-tac-toe", None, 10_000),
    ];
    for &(name, size, limit) in cases {
        let s = setup(load(name), size, None, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        let checked = check(&s.game, s.position, limit, name);
        eprintln!("{name} {size:?}: {checked:?}");
        if name == "breakthrough" {
            assert!(checked.answered > 1000 && checked.wins > 100, "{name}: {checked:?}");
        }
    }
}

/// Breakthrough on boards too big for plain minimax here: the search with the
/// rules' knowledge against the search without it
/// (`RulesGame::without(&[FastPath::ImmediateWins, FastPath::BitCore])`), on the start and on a spread of the
/// positions reachable from it.
#[test]
fn breakthrough_searches_as_without_the_knowledge() {
    for (size, limit) in [((4, 4), 30_000), ((5, 3), 30_000), ((4, 5), 5_000)] {
        let s = setup(load("breakthrough"), Some(size), None, None).unwrap();
        let plain_game = s.game.without(&[FastPath::ImmediateWins, FastPath::BitCore]);
        let (with, without) = (Searcher::with_table_entries(&s.game, 1 << 16), Searcher::new(&plain_game));
        let (graph, _) = reachable(&s.game, s.position, limit);
        let mut positions: Vec<&RulesPosition> = graph.keys().collect();
        positions.sort();
        for p in std::iter::once(&s.position).chain(positions.into_iter().step_by(limit / 300)) {
            assert_eq!(with.value(p), without.value(p), "{size:?}: {}", s.game.show(p));
        }
    }
}

/// A random rules file on a map: two to four kinds, random moves, and random
/// endings of every sort (module docs).
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
    let pick = |rng: &mut SplitMix64, items: &[&'static str]| items[rng.below(items.len() as u64) as usize];
    let mut text = String::from("[game]\nname = \"random\"\nsides = [\"a\", \"b\"]\n\n[board]\nmap = true\n\n");
    for side in ["a", "b"] {
        if rng.below(4) == 0 {
            text += &format!("[side.{side}]\nforward = {}\n\n", pick(rng, &["\"up\"", "\"down\"", "\"left\""]));
        }
    }
    let promote = rng.below(5) == 0;
    let drops = rng.below(5) == 0;
    let kinds: &[(&str, &str, char)] = &[("x", "a", 'X'), ("y", "b", 'Y'), ("z", "a", 'Z'), ("w", "b", 'W')];
    let count = if promote || rng.below(3) == 0 { 4 } else { 2 };
    for (i, &(name, side, letter)) in kinds[..count].iter().enumerate() {
        text += &format!("[piece.{name}]\nside = \"{side}\"\nletter = \"{letter}\"\nmoves = [");
        for m in 0..1 + rng.below(2) {
            if m > 0 {
                text += ", ";
            }
            let step = steps[rng.below(steps.len() as u64) as usize];
            let range = pick(rng, &["1", "1", "1", "2", "\"slide\""]);
            let onto = pick(rng, &["empty", "enemy", "any", "any"]);
            let leap = rng.below(4) == 0;
            text += &format!("{{ steps = {step}, range = {range}, leap = {leap}, onto = \"{onto}\" }}");
        }
        text += "]\n";
        if rng.below(6) == 0 {
            text += "stay = true\n";
        }
        if promote && i == 0 {
            let forced = rng.below(2) == 0;
            text += &format!("promote = {{ to = \"z\", zone = \"goal\", forced = {forced} }}\n");
        }
        if drops && i < 2 && rng.below(2) == 0 {
            text += pick(rng, &["drop = true\n", "drop = { gravity = true }\n"]);
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
            (_, 1) => "home-row = true\n\n",
            _ => "far-row = true\n\n",
        };
    }
    let result = |rng: &mut SplitMix64| pick(rng, &["win", "win", "loss", "tie"]);
    for &zone in zones {
        if rng.below(5) == 0 {
            continue;
        }
        let side = pick(rng, &["side = \"a\"\n", "side = \"b\"\n", ""]);
        let check = pick(rng, &["after-move", "after-move", "after-reply"]);
        let pieces = if count > 2 && rng.below(3) == 0 { "pieces = [\"z\"]\n" } else { "" };
        let result = result(rng);
        text += &format!(
            "[[end]]\nwhen = \"reach\"\nzone = \"{zone}\"\n{side}{pieces}check = \"{check}\"\nresult = \"{result}\"\n\n"
        );
    }
    if rng.below(2) == 0 {
        let side = pick(rng, &["side = \"a\"\n", "side = \"b\"\n", ""]);
        let result = pick(rng, &["loss", "loss", "win", "tie"]);
        text += &format!("[[end]]\nwhen = \"no-pieces\"\n{side}result = \"{result}\"\n\n");
    }
    if rng.below(4) == 0 {
        let result = pick(rng, &["loss", "loss", "win"]);
        text += &format!("[[end]]\nwhen = \"captured\"\npieces = [\"x\", \"y\"]\nresult = \"{result}\"\n\n");
    }
    if rng.below(5) == 0 {
        let outcome = pick(rng, &["winner = \"a\"", "winner = \"b\"", "result = \"tie\""]);
        text += &format!("[[end]]\nwhen = \"meet\"\npieces = [\"x\", \"y\"]\n{outcome}\n\n");
    }
    if drops && rng.below(2) == 0 {
        let result = pick(rng, &["tie", "win", "loss"]);
        text += &format!("[[end]]\nwhen = \"full\"\nresult = \"{result}\"\n\n");
    }
    if rng.below(12) == 0 {
        text += "[[end]]\nwhen = \"line\"\nlength = 2\n\n";
    }
    if rng.below(4) == 0 {
        let result = pick(rng, &["win", "tie", "loss"]);
        text += &format!("[[end]]\nwhen = \"stuck\"\nresult = \"{result}\"\n\n");
    }
    text
}

/// A random map of 2 to 4 rows and 2 to 4 columns with a few walls and goal and
/// exit marks, and one to three pieces of each of `letters`.
fn random_position(rng: &mut SplitMix64, letters: &[char]) -> String {
    let (rows, cols) = (2 + rng.below(3) as usize, 2 + rng.below(3) as usize);
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
        for _ in 0..rng.below(3) + u64::from(letter == 'X' || letter == 'Y') {
            let (r, c) = (rng.below(rows as u64) as usize, rng.below(cols as u64) as usize);
            grid[r][c] = letter;
        }
    }
    let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    format!("{} {}", rows.join("/"), ["a", "b"][rng.below(2) as usize])
}

#[test]
fn random_rules_win_at_once_as_their_moves_say_and_search_as_the_brute_force() {
    let mut rng = SplitMix64::new(0x001a_570f_f1e5);
    let (mut games, mut answered, mut wins, mut searched) = (0, 0, 0, 0);
    for case in 0..1200 {
        let text = random_rules(&mut rng);
        let Ok(rules) = Rules::parse(&text) else { continue };
        let letters: Vec<char> =
            ['X', 'Y', 'Z', 'W'].into_iter().filter(|l| text.contains(&format!("\"{l}\""))).collect();
        let position = random_position(&mut rng, &letters);
        let Ok(s) = setup(Arc::new(rules), None, None, Some(&position)) else { continue };
        games += 1;
        let checked = check(&s.game, s.position, 20_000, &format!("case {case}: {position}\n{text}"));
        answered += checked.answered;
        wins += checked.wins;
        searched += checked.searched as usize;
    }
    eprintln!("{games} games: {answered} positions answered ({wins} wins at once), {searched} searched");
    assert!(games > 400 && searched > 150 && answered > 20_000 && wins > 2_000);
}
