//! Queen's Case (GAMES.md §1) checked against an independent naive solver.
//!
//! The naive solver below shares no code with the engine's retrograde solver nor with
//! the game's rule code: it re-implements the rules of GAMES.md §1 directly on the
//! (row, col) cells of the map text, and finds every state's value by the plainest
//! round-based fixpoint. The engine must agree with it on every state of every map,
//! remoteness included.

use gsolve_engine::{check, retrograde, Indexed, Value};
use gsolve_games::pursuit::BitwiseOptions;
use gsolve_games::queens_case::{
    generate, parse_maps, Map, QueensCase, QueensPosition, ARMY_CATCHES, NEITHER, QUEEN_ESCAPES,
};
use gsolve_games::rng::SplitMix64;
use std::collections::{HashMap, VecDeque};

// ---------------------------------------------------------------------------------
// The naive solver.
// ---------------------------------------------------------------------------------

/// A naive value, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Naive {
    Win(u32),
    Loss(u32),
    Draw,
}

impl Naive {
    fn to_value(self) -> Value {
        match self {
            Naive::Win(r) => Value::Win(r),
            Naive::Loss(r) => Value::Loss(r),
            Naive::Draw => Value::Draw,
        }
    }
}

/// The plainest fixpoint over all states. `terminal[s]` is the value of a terminal
/// state (round 0); `children[s]` lists the states after each move of a non-terminal
/// state. Round t reads only the values decided in rounds < t (a snapshot):
/// a state with a child lost (for the child's mover) wins in t; a state whose children
/// all won (for their movers) loses in t. Whatever is never decided is a draw.
fn fixpoint(terminal: &[Option<Naive>], children: &[Vec<usize>]) -> Vec<Naive> {
    let mut decided: Vec<Option<Naive>> = terminal.to_vec();
    let mut t = 0u32;
    loop {
        t += 1;
        let snapshot = decided.clone();
        let mut changed = 0;
        for s in 0..snapshot.len() {
            if snapshot[s].is_some() {
                continue;
            }
            let kids = &children[s];
            assert!(!kids.is_empty(), "naive: non-terminal state {s} without moves");
            let fastest_loss = kids
                .iter()
                .filter_map(|&c| match snapshot[c] {
                    Some(Naive::Loss(r)) => Some(r),
                    _ => None,
                })
                .min();
            if let Some(r) = fastest_loss {
                assert_eq!(r, t - 1, "naive: state {s} has a lost child of remoteness {r} in round {t}");
                decided[s] = Some(Naive::Win(t));
                changed += 1;
            } else if kids.iter().all(|&c| matches!(snapshot[c], Some(Naive::Win(_)))) {
                let slowest = kids
                    .iter()
                    .map(|&c| match snapshot[c] {
                        Some(Naive::Win(r)) => r,
                        _ => unreachable!(),
                    })
                    .max()
                    .unwrap();
                assert_eq!(slowest + 1, t, "naive: state {s} loses in round {t} with slowest child {slowest}");
                decided[s] = Some(Naive::Loss(t));
                changed += 1;
            }
        }
        if changed == 0 {
            break;
        }
    }
    decided.into_iter().map(|v| v.unwrap_or(Naive::Draw)).collect()
}

/// A map as plain rows of bytes (`. # E Q A`), read from the map text.
#[derive(Clone, Debug)]
struct Grid {
    rows: Vec<Vec<u8>>,
}

impl Grid {
    /// Reads `W H` and the H rows that follow.
    fn from_text(text: &str) -> Grid {
        let mut lines = text.lines().map(|l| l.trim_end());
        let size: Vec<usize> = lines.next().unwrap().split_whitespace().map(|t| t.parse().unwrap()).collect();
        let (w, h) = (size[0], size[1]);
        let rows: Vec<Vec<u8>> = lines.take(h).map(|l| l.as_bytes().to_vec()).collect();
        assert_eq!(rows.len(), h);
        assert!(rows.iter().all(|r| r.len() == w));
        Grid { rows }
    }

    fn height(&self) -> usize {
        self.rows.len()
    }

    fn width(&self) -> usize {
        self.rows[0].len()
    }

    fn open(&self, r: usize, c: usize) -> bool {
        self.rows[r][c] != b'#'
    }

    fn find(&self, ch: u8) -> (usize, usize) {
        (0..self.height())
            .flat_map(|r| (0..self.width()).map(move |c| (r, c)))
            .find(|&(r, c)| self.rows[r][c] == ch)
            .unwrap()
    }

    fn open_cells(&self) -> Vec<(usize, usize)> {
        (0..self.height())
            .flat_map(|r| (0..self.width()).map(move |c| (r, c)))
            .filter(|&(r, c)| self.open(r, c))
            .collect()
    }

    fn exits(&self) -> Vec<(usize, usize)> {
        self.open_cells().into_iter().filter(|&(r, c)| self.rows[r][c] == b'E').collect()
    }

    /// The open orthogonal neighbours of a cell (inside the grid).
    fn neighbours(&self, (r, c): (usize, usize)) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if r > 0 && self.open(r - 1, c) {
            out.push((r - 1, c));
        }
        if r + 1 < self.height() && self.open(r + 1, c) {
            out.push((r + 1, c));
        }
        if c > 0 && self.open(r, c - 1) {
            out.push((r, c - 1));
        }
        if c + 1 < self.width() && self.open(r, c + 1) {
            out.push((r, c + 1));
        }
        out
    }

    /// Walking distances from `from` through open cells (`None`: unreachable).
    fn distances(&self, from: (usize, usize)) -> HashMap<(usize, usize), u32> {
        let mut dist = HashMap::new();
        dist.insert(from, 0);
        let mut queue = VecDeque::from([from]);
        while let Some(cell) = queue.pop_front() {
            let d = dist[&cell];
            for next in self.neighbours(cell) {
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(next) {
                    e.insert(d + 1);
                    queue.push_back(next);
                }
            }
        }
        dist
    }

    /// True when the open cells form a tree: connected, and edges = cells − 1.
    fn is_tree(&self) -> bool {
        let cells = self.open_cells();
        let edges: usize = cells.iter().map(|&cell| self.neighbours(cell).len()).sum::<usize>() / 2;
        self.distances(cells[0]).len() == cells.len() && edges + 1 == cells.len()
    }
}

/// Every state's naive value: (queen cell, army cell, queen to move) over the open
/// cells of the grid.
struct NaiveQueens {
    cells: Vec<(usize, usize)>,
    values: Vec<Naive>,
}

impl NaiveQueens {
    fn state(n: usize, q: usize, a: usize, queen_to_move: bool) -> usize {
        (q * n + a) * 2 + queen_to_move as usize
    }

    fn solve(grid: &Grid) -> NaiveQueens {
        let cells = grid.open_cells();
        let n = cells.len();
        let id: HashMap<(usize, usize), usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        // A side's options: stay, or step to an open orthogonal neighbour.
        let options: Vec<Vec<usize>> = cells
            .iter()
            .map(|&cell| std::iter::once(cell).chain(grid.neighbours(cell)).map(|x| id[&x]).collect())
            .collect();
        let is_exit = |i: usize| grid.rows[cells[i].0][cells[i].1] == b'E';
        let mut terminal = vec![None; 2 * n * n];
        let mut children = vec![Vec::new(); 2 * n * n];
        for q in 0..n {
            for a in 0..n {
                for queen_to_move in [false, true] {
                    let s = Self::state(n, q, a, queen_to_move);
                    terminal[s] = if q == a {
                        // Caught. Queen to move: she has lost. Army to move: it has won.
                        Some(if queen_to_move { Naive::Loss(0) } else { Naive::Win(0) })
                    } else if queen_to_move && is_exit(q) {
                        // On an exit, alone, after the army's turn: escaped.
                        Some(Naive::Win(0))
                    } else {
                        None
                    };
                    if terminal[s].is_none() {
                        children[s] = if queen_to_move {
                            options[q].iter().map(|&q2| Self::state(n, q2, a, false)).collect()
                        } else {
                            options[a].iter().map(|&a2| Self::state(n, q, a2, true)).collect()
                        };
                    }
                }
            }
        }
        NaiveQueens { values: fixpoint(&terminal, &children), cells }
    }

    fn value(&self, q: usize, a: usize, queen_to_move: bool) -> Naive {
        self.values[Self::state(self.cells.len(), q, a, queen_to_move)]
    }
}

// ---------------------------------------------------------------------------------
// Cases: a map's text and the parsed map.
// ---------------------------------------------------------------------------------

struct Case {
    text: String,
    map: Map,
}

impl Case {
    fn from_map(map: Map) -> Case {
        let text = map.to_string();
        let reparsed = parse_maps(&text).expect("a map's text parses");
        assert_eq!(reparsed, vec![map.clone()], "map text round trip:\n{text}");
        Case { text, map }
    }
}

/// The engine's solve of a map, with the engine's cell id of each naive cell.
struct Solved {
    game: QueensCase,
    solution: gsolve_engine::Solution,
    grid: Grid,
    /// `engine_id[i]`: the engine's open-cell id of the grid's i-th open cell.
    engine_id: Vec<u32>,
}

impl Solved {
    fn new(case: &Case) -> Solved {
        let game = QueensCase::new(&case.map);
        let solution = retrograde::solve(&game);
        let grid = Grid::from_text(&case.text);
        let cells = grid.open_cells();
        assert_eq!(game.open_cells() as usize, cells.len(), "open cells of\n{}", case.text);
        let id: HashMap<(usize, usize), usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        let mut engine_id = vec![u32::MAX; cells.len()];
        for e in 0..game.open_cells() {
            let coord = game.coord(e);
            let i = id[&(coord.row as usize - 1, coord.col as usize - 1)];
            assert_eq!(engine_id[i], u32::MAX, "two engine cells at {coord}");
            engine_id[i] = e;
        }
        let (q, a) = (id[&grid.find(b'Q')], id[&grid.find(b'A')]);
        assert_eq!(game.start(), QueensPosition { queen: engine_id[q], army: engine_id[a], queen_to_move: true });
        Solved { game, solution, grid, engine_id }
    }

    fn engine(&self, q: usize, a: usize, queen_to_move: bool) -> Value {
        let p = QueensPosition { queen: self.engine_id[q], army: self.engine_id[a], queen_to_move };
        self.solution.value_of(&self.game, &p).expect("every state has a value")
    }

    fn start(&self) -> Value {
        self.solution.value_of(&self.game, &self.game.start()).unwrap()
    }

    /// Every state's value, as `(queen, army, queen_to_move, value)` over grid cells.
    fn all_states(&self) -> impl Iterator<Item = (usize, usize, bool, Value)> + '_ {
        let n = self.engine_id.len();
        (0..n).flat_map(move |q| {
            (0..n).flat_map(move |a| [false, true].into_iter().map(move |side| (q, a, side, self.engine(q, a, side))))
        })
    }
}

fn describe_state(cells: &[(usize, usize)], q: usize, a: usize, queen_to_move: bool) -> String {
    let (qc, ac) = (cells[q], cells[a]);
    format!(
        "queen at (row {}, col {}), army at (row {}, col {}), {} to move (1-based)",
        qc.0 + 1,
        qc.1 + 1,
        ac.0 + 1,
        ac.1 + 1,
        if queen_to_move { "queen" } else { "army" }
    )
}

/// Compares the engine with the naive solver on every state of the map. Returns the
/// number of states compared; panics with the map and the first differences.
fn compare_all_states(case: &Case) -> usize {
    let solved = Solved::new(case);
    let naive = NaiveQueens::solve(&solved.grid);
    assert_eq!(naive.cells, solved.grid.open_cells());
    let mut bad = Vec::new();
    let mut compared = 0;
    for (q, a, side, engine) in solved.all_states() {
        let expected = naive.value(q, a, side).to_value();
        compared += 1;
        if engine != expected {
            bad.push(format!("{}: engine {engine:?}, naive {expected:?}", describe_state(&naive.cells, q, a, side)));
        }
    }
    assert_eq!(compared as u64, solved.game.index_size(), "every index is a state");
    assert!(
        bad.is_empty(),
        "{} of {compared} states differ on the map\n{}{}",
        bad.len(),
        case.text,
        bad[..bad.len().min(10)].join("\n")
    );
    compared
}

// ---------------------------------------------------------------------------------
// Map sources.
// ---------------------------------------------------------------------------------

/// `count` random maps from `generate::random_map`: width and height 1..=6, walls
/// 0..50 %, 1..=3 exits (sizes too small for the pieces and exits are skipped).
fn random_maps(count: usize, salt: u64) -> Vec<Case> {
    let mut rng = SplitMix64::new(0x5eed_9ee5 ^ salt);
    let mut cases = Vec::new();
    while cases.len() < count {
        let (w, h) = (1 + rng.below(6) as u32, 1 + rng.below(6) as u32);
        let walls = rng.below(50);
        let exits = 1 + rng.below(3) as u32;
        let seed = rng.next_u64();
        if w * h < exits + 2 {
            continue;
        }
        cases.push(Case::from_map(generate::random_map(w, h, walls, exits, seed)));
    }
    cases
}

/// A map whose open cells form a random tree: grown from one cell by opening, again
/// and again, a random wall cell with exactly one open neighbour. `None` when the
/// tree came out too small for the pieces and exits.
fn random_tree_map(w: usize, h: usize, exits: usize, rng: &mut SplitMix64) -> Option<Case> {
    let mut rows = vec![vec![b'#'; w]; h];
    rows[rng.below(h as u64) as usize][rng.below(w as u64) as usize] = b'.';
    let target = 1 + rng.below((w * h) as u64) as usize;
    let mut open = 1;
    while open < target {
        let grid = Grid { rows: rows.clone() };
        let candidates: Vec<(usize, usize)> = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .filter(|&(r, c)| !grid.open(r, c) && grid.neighbours((r, c)).len() == 1)
            .collect();
        if candidates.is_empty() {
            break;
        }
        let (r, c) = candidates[rng.below(candidates.len() as u64) as usize];
        rows[r][c] = b'.';
        open += 1;
    }
    let mut cells = Grid { rows: rows.clone() }.open_cells();
    if cells.len() < exits + 2 {
        return None;
    }
    // Shuffle, then: exits, queen, army.
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.below(i as u64 + 1) as usize);
    }
    for &(r, c) in &cells[..exits] {
        rows[r][c] = b'E';
    }
    rows[cells[exits].0][cells[exits].1] = b'Q';
    rows[cells[exits + 1].0][cells[exits + 1].1] = b'A';
    let text = format!(
        "{w} {h}\n{}\n",
        rows.iter().map(|r| String::from_utf8(r.clone()).unwrap()).collect::<Vec<_>>().join("\n")
    );
    let map = parse_maps(&text).expect("generated tree map parses").remove(0);
    let case = Case { text, map };
    assert_eq!(case.map.to_string(), case.text);
    Some(case)
}

/// Tree-shaped maps: perfect mazes from `generate::maze` and random induced trees.
fn tree_maps() -> Vec<Case> {
    let mut rng = SplitMix64::new(0x7233);
    let mut cases = Vec::new();
    let mut mazes = 0;
    while mazes < 100 {
        let (w, h) = (1 + rng.below(9) as u32, 1 + rng.below(9) as u32);
        let exits = 1 + rng.below(3) as u32;
        let seed = rng.next_u64();
        let open = 2 * w.div_ceil(2) * h.div_ceil(2) - 1;
        if open < exits + 2 {
            continue;
        }
        cases.push(Case::from_map(generate::maze(w, h, exits, seed)));
        mazes += 1;
    }
    while cases.len() < 250 {
        let (w, h) = (1 + rng.below(6) as usize, 1 + rng.below(6) as usize);
        let exits = 1 + rng.below(3) as usize;
        if let Some(case) = random_tree_map(w, h, exits, &mut rng) {
            cases.push(case);
        }
    }
    cases
}

// ---------------------------------------------------------------------------------
// 1. The sample of GAMES.md §1.
// ---------------------------------------------------------------------------------

const SAMPLE_MAPS: [&str; 6] = [
    "2 2\nQE\nEA\n",
    "3 1\nQAE\n",
    "3 1\nAQE\n",
    "5 5\n..E..\n.###.\nA###Q\n.###.\n..E..\n",
    "5 1\nA.E.Q\n",
    "5 5\nA....\n####.\n..E..\n.####\n....Q\n",
];

const SAMPLE_ANSWERS: [&str; 6] = [NEITHER, ARMY_CATCHES, QUEEN_ESCAPES, NEITHER, ARMY_CATCHES, ARMY_CATCHES];

fn check_sample_input(input: &str) {
    let maps = parse_maps(input).unwrap_or_else(|e| panic!("sample input does not parse: {e}\n{input:?}"));
    assert_eq!(maps.len(), 6, "{input:?}");
    for (i, map) in maps.iter().enumerate() {
        let game = QueensCase::new(map);
        let solution = retrograde::solve(&game);
        let value = solution.value_of(&game, &game.start()).unwrap();
        assert_eq!(QueensCase::verdict(value), SAMPLE_ANSWERS[i], "sample map {} ({value:?}) of {input:?}", i + 1);
    }
}

#[test]
fn sample_maps_give_the_sample_answers() {
    let text: String = SAMPLE_MAPS.concat();
    assert_eq!(QUEEN_ESCAPES, "Queen can escape.");
    assert_eq!(ARMY_CATCHES, "Army can catch Queen.");
    assert_eq!(NEITHER, "Queen can not escape and Army can not catch Queen.");
    let with_end = format!("{text}0 0\n");
    check_sample_input(&with_end);
    check_sample_input(&text); // ends at EOF, no `0 0`
    check_sample_input(text.trim_end()); // no final newline either
    check_sample_input(&with_end.replace('\n', "\r\n")); // CRLF
    check_sample_input(&text.replace('\n', "\r\n"));
    // Anything after `0 0` is not read.
    check_sample_input(&format!("{with_end}1 1\nQ\n"));
}

#[test]
fn sample_maps_match_the_naive_solver() {
    for (text, answer) in SAMPLE_MAPS.iter().zip(SAMPLE_ANSWERS) {
        let map = Map::parse(text).unwrap();
        let case = Case { text: text.to_string(), map };
        compare_all_states(&case);
        let grid = Grid::from_text(text);
        let naive = NaiveQueens::solve(&grid);
        let id = |ch| naive.cells.iter().position(|&c| c == grid.find(ch)).unwrap();
        let start = naive.value(id(b'Q'), id(b'A'), true);
        assert_eq!(QueensCase::verdict(start.to_value()), answer, "naive on\n{text}");
    }
    // The first map: stepping onto an exit does not escape (the army answers first).
    let case = Case { text: SAMPLE_MAPS[0].to_string(), map: Map::parse(SAMPLE_MAPS[0]).unwrap() };
    assert_eq!(Solved::new(&case).start(), Value::Draw);
}

// ---------------------------------------------------------------------------------
// 2. Random maps: the engine equals the naive solver on every state.
// ---------------------------------------------------------------------------------

#[test]
fn random_maps_match_the_naive_solver_on_every_state() {
    let cases = random_maps(400, 0);
    let mut states = 0;
    let mut kinds = [0usize; 3]; // start values: win, loss, draw
    for case in &cases {
        states += compare_all_states(case);
        let start = Solved::new(case).start();
        kinds[match start {
            Value::Win(_) => 0,
            Value::Loss(_) => 1,
            _ => 2,
        }] += 1;
    }
    assert_eq!(cases.len(), 400);
    // The sample of maps is not degenerate: every kind of answer occurs often.
    assert!(kinds.iter().all(|&k| k >= 20), "start values (win, loss, draw): {kinds:?}");
    eprintln!("{} random maps, {states} states equal; start values (win, loss, draw): {kinds:?}", cases.len());
    assert!(states > 100_000, "{states} states compared");
}

#[test]
fn unmoves_match_moves_on_random_maps() {
    let cases = random_maps(60, 1);
    for case in cases.iter().chain(tree_maps().iter().step_by(10)) {
        let game = QueensCase::new(&case.map);
        check::unmoves_match_moves(&game).unwrap_or_else(|e| panic!("{e:?} on\n{}", case.text));
    }
    for text in SAMPLE_MAPS {
        let game = QueensCase::new(&Map::parse(text).unwrap());
        check::unmoves_match_moves(&game).unwrap_or_else(|e| panic!("{e:?} on\n{text}"));
    }
}

// ---------------------------------------------------------------------------------
// 3. The facts of GAMES.md §1.
// ---------------------------------------------------------------------------------

/// (a) On a tree-shaped map the answer is never the draw: no state at all is a draw.
#[test]
fn tree_maps_never_draw() {
    let cases = tree_maps();
    let mut shapes = (0, 0); // (maps with a branching cell, maps with a wall)
    for case in &cases {
        let solved = Solved::new(case);
        assert!(solved.grid.is_tree(), "not a tree:\n{}", case.text);
        let cells = solved.grid.open_cells();
        if cells.iter().any(|&c| solved.grid.neighbours(c).len() >= 3) {
            shapes.0 += 1;
        }
        if cells.len() < solved.grid.width() * solved.grid.height() {
            shapes.1 += 1;
        }
        assert_ne!(solved.start(), Value::Draw, "start draws on the tree map\n{}", case.text);
        for (q, a, side, value) in solved.all_states() {
            assert_ne!(
                value,
                Value::Draw,
                "{} draws on the tree map\n{}",
                describe_state(&cells, q, a, side),
                case.text
            );
        }
    }
    assert!(shapes.0 >= 50 && shapes.1 >= 50, "tree shapes too plain: {shapes:?}");
    eprintln!("{} tree maps ({} branching, {} with walls), no draw", cases.len(), shapes.0, shapes.1);
    // The engine agrees with the naive solver there too.
    for case in cases.iter().step_by(5) {
        compare_all_states(case);
    }
}

/// Whether some exit is strictly closer (walking through open cells) to `queen` than
/// to `army`, by at least `margin` + 1 steps (an unreachable exit is infinitely far).
fn exit_closer_to_queen(grid: &Grid, queen: (usize, usize), army: (usize, usize), margin: u32) -> bool {
    let (dq, da) = (grid.distances(queen), grid.distances(army));
    grid.exits().iter().any(|e| match (dq.get(e), da.get(e)) {
        (Some(&q), Some(&a)) => q + margin < a,
        (Some(_), None) => true,
        _ => false,
    })
}

/// (b) If some exit is strictly closer to the queen than to the army, the queen
/// escapes; (c) the converse is false.
#[test]
fn a_closer_exit_lets_the_queen_escape_but_not_conversely() {
    let cases = random_maps(1000, 2);
    let (mut closer_starts, mut closer_states, mut counter_starts) = (0, 0, 0);
    let mut counter_maps = Vec::new();
    for case in &cases {
        let solved = Solved::new(case);
        let grid = &solved.grid;
        let (queen, army) = (grid.find(b'Q'), grid.find(b'A'));
        let start = solved.start();
        if exit_closer_to_queen(grid, queen, army, 0) {
            closer_starts += 1;
            assert!(matches!(start, Value::Win(_)), "an exit is closer to the queen, yet {start:?} on\n{}", case.text);
        } else if matches!(start, Value::Win(_)) {
            counter_starts += 1;
        }
        // Stronger, over every state with the pieces apart: queen to move, an exit
        // strictly closer to her; army to move, closer by two steps (the army moves
        // first, so it is a step nearer when the queen starts to run).
        let cells = grid.open_cells();
        for (q, a, side, value) in solved.all_states() {
            if q == a {
                continue;
            }
            if exit_closer_to_queen(grid, cells[q], cells[a], if side { 0 } else { 1 }) {
                closer_states += 1;
                let queen_wins = if side { matches!(value, Value::Win(_)) } else { matches!(value, Value::Loss(_)) };
                assert!(
                    queen_wins,
                    "{}: {value:?}, though an exit is closer to the queen, on\n{}",
                    describe_state(&cells, q, a, side),
                    case.text
                );
            } else if side
                && matches!(value, Value::Win(_))
                && grid.rows[cells[q].0][cells[q].1] != b'E'
                && grid.rows[cells[a].0][cells[a].1] != b'E'
            {
                // The start of another map (the pieces moved): the queen escapes
                // without a closer exit.
                let mut rows = grid.rows.clone();
                for ch in rows.iter_mut().flatten().filter(|ch| **ch == b'Q' || **ch == b'A') {
                    *ch = b'.';
                }
                rows[cells[q].0][cells[q].1] = b'Q';
                rows[cells[a].0][cells[a].1] = b'A';
                let lines: Vec<String> = rows.into_iter().map(|r| String::from_utf8(r).unwrap()).collect();
                counter_maps.push(format!("{} {}\n{}\n", grid.width(), grid.height(), lines.join("\n")));
            }
        }
    }
    assert!(closer_starts > 50, "only {closer_starts} starts have an exit closer to the queen");
    assert!(closer_states > 10_000, "only {closer_states} states have an exit closer to the queen");
    // Each queen-to-move state with both pieces off the exits is the start of a map.
    assert!(counter_maps.len() >= 10, "only {} maps where the queen escapes without a closer exit", counter_maps.len());
    for text in &counter_maps {
        let case = Case { text: text.clone(), map: Map::parse(text).unwrap() };
        let solved = Solved::new(&case);
        let grid = &solved.grid;
        assert!(!exit_closer_to_queen(grid, grid.find(b'Q'), grid.find(b'A'), 0));
        assert_eq!(QueensCase::verdict(solved.start()), QUEEN_ESCAPES, "\n{text}");
    }
    eprintln!(
        "{} random maps; an exit closer to the queen at {closer_starts} starts and {closer_states} states; \
         the queen escapes without one at {counter_starts} starts and {} states",
        cases.len(),
        counter_maps.len()
    );
    // One the search above finds, kept explicit: the exit at (3,3) is 2 steps
    // from both, the exit at (1,2) 3 steps from both. The queen steps to (3,2) and
    // threatens both at once; the army cannot guard both.
    let text = "4 3\n.E.E\n#.#A\nQ.E.\n";
    let case = Case { text: text.into(), map: Map::parse(text).unwrap() };
    compare_all_states(&case);
    let solved = Solved::new(&case);
    let grid = &solved.grid;
    assert!(!exit_closer_to_queen(grid, grid.find(b'Q'), grid.find(b'A'), 0));
    assert_eq!(QueensCase::verdict(solved.start()), QUEEN_ESCAPES);
    assert!(matches!(solved.start(), Value::Win(_)), "{:?}", solved.start());
}

/// `QueensCase::escape_by_distance` proves an escape exactly where the test's own
/// distances find an exit closer to the queen (by two steps with the army to move),
/// and its bounds hold the solved remoteness on every such state; where they meet,
/// they are the value.
#[test]
fn distance_bounds_hold_the_solved_value_on_every_state() {
    let cases = random_maps(400, 3);
    let (mut bounded, mut exact, mut loose) = (0, 0, 0);
    for case in &cases {
        let solved = Solved::new(case);
        let grid = &solved.grid;
        let cells = grid.open_cells();
        for (q, a, side, value) in solved.all_states() {
            let p = QueensPosition { queen: solved.engine_id[q], army: solved.engine_id[a], queen_to_move: side };
            let bound = solved.game.escape_by_distance(&p);
            let state = || format!("{}, {value:?}, {bound:?}, on\n{}", describe_state(&cells, q, a, side), case.text);
            let closer = q != a && exit_closer_to_queen(grid, cells[q], cells[a], if side { 0 } else { 1 });
            assert_eq!(bound.is_some(), closer, "{}", state());
            let Some(bound) = bound else { continue };
            bounded += 1;
            let plies = match value {
                Value::Win(r) if side => r,
                Value::Loss(r) if !side => r,
                _ => panic!("a proved escape is not the queen's win: {}", state()),
            };
            assert!((bound.at_least..=bound.at_most).contains(&plies), "{}", state());
            match bound.value(side) {
                Some(v) => {
                    assert_eq!(v, value, "{}", state());
                    exact += 1;
                }
                None => loose += 1,
            }
        }
    }
    eprintln!("{} maps: {bounded} states with a proved escape, {exact} of them exact", cases.len());
    assert!(bounded > 20_000 && exact > 10_000 && loose > 100, "{bounded} proved, {exact} exact, {loose} loose");
}

/// The bit-parallel solve (`QueensCase::value_bitwise`) gives the engine's value,
/// remoteness included, for every state of random maps, and the sample's answers.
#[test]
fn the_bitwise_solve_gives_every_state_its_value() {
    let cases = random_maps(300, 4);
    let (mut states, mut draws) = (0, 0);
    for case in &cases {
        let solved = Solved::new(case);
        for (q, a, side, value) in solved.all_states() {
            let p = QueensPosition { queen: solved.engine_id[q], army: solved.engine_id[a], queen_to_move: side };
            let bitwise = solved.game.value_bitwise(&p, &BitwiseOptions::unlimited()).expect("no budget, a dense map");
            assert_eq!(bitwise, value, "{} on\n{}", describe_state(&solved.grid.open_cells(), q, a, side), case.text);
            states += 1;
            draws += usize::from(value == Value::Draw);
        }
    }
    assert!(states > 80_000 && draws > 10_000, "{states} states, {draws} draws");
    let maps = parse_maps(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/queens-case.txt")).unwrap(),
    )
    .unwrap();
    let answers: Vec<&str> = maps
        .iter()
        .map(|m| {
            let g = QueensCase::new(m);
            QueensCase::verdict(g.value_bitwise(&g.start(), &BitwiseOptions::unlimited()).unwrap())
        })
        .collect();
    assert_eq!(answers, [NEITHER, ARMY_CATCHES, QUEEN_ESCAPES, NEITHER, ARMY_CATCHES, ARMY_CATCHES]);
}

/// The bit-parallel solve on maps of several words a row (up to 16×16 cells, rows
/// not a multiple of 64 bits), on random states, against the engine's solve.
#[test]
fn the_bitwise_solve_matches_the_engine_across_words() {
    let mut rng = SplitMix64::new(0xb17_5e7);
    let (mut checked, mut kinds) = (0, [0usize; 3]);
    for _ in 0..40 {
        let (w, h) = (8 + rng.below(9) as u32, 8 + rng.below(9) as u32);
        let map = generate::random_map(w, h, rng.below(35), 1 + rng.below(3) as u32, rng.next_u64());
        let game = QueensCase::new(&map);
        let solution = retrograde::solve(&game);
        let cells = game.open_cells() as u64;
        for _ in 0..60 {
            let p = QueensPosition {
                queen: rng.below(cells) as u32,
                army: rng.below(cells) as u32,
                queen_to_move: rng.below(2) == 0,
            };
            let value = solution.value_of(&game, &p).unwrap();
            assert_eq!(game.value_bitwise(&p, &BitwiseOptions::unlimited()), Some(value), "{p:?} on\n{map}");
            checked += 1;
            kinds[match value {
                Value::Win(_) => 0,
                Value::Loss(_) => 1,
                _ => 2,
            }] += 1;
        }
    }
    assert!(checked == 2_400 && kinds.iter().all(|&k| k > 100), "{checked} states: {kinds:?}");
}

/// With the default budget the bit-parallel solve gives the engine's value or
/// gives up (`None`, long chases in mazes), never another value; a sparse grid is
/// refused at once.
#[test]
fn the_bitwise_solve_within_its_budget_is_exact_or_gives_up() {
    let (mut answered, mut gave_up) = (0, 0);
    for seed in 0..30 {
        let map =
            if seed % 2 == 0 { generate::maze(21, 21, 1, seed) } else { generate::random_map(20, 20, 20, 1, seed) };
        let game = QueensCase::new(&map);
        let solution = retrograde::solve(&game);
        let start = game.start();
        match game.value_bitwise(&start, &BitwiseOptions::within(game.bitwise_budget().unwrap_or(0))) {
            Some(value) => {
                assert_eq!(Some(value), solution.value_of(&game, &start), "\n{map}");
                answered += 1;
            }
            None => gave_up += 1,
        }
        assert_eq!(
            game.value_bitwise(&start, &BitwiseOptions::unlimited()),
            solution.value_of(&game, &start),
            "\n{map}"
        );
    }
    eprintln!("{answered} answered, {gave_up} gave up");
    assert!(answered >= 10 && gave_up >= 5, "{answered} answered, {gave_up} gave up");
    // Ten open cells in a grid of 81: too sparse, refused.
    let text =
        "9 9\nQ.......E\n#########\n#########\n#########\n#########\n#########\n#########\n#########\n########A\n";
    let sparse = QueensCase::new(&Map::parse(text).unwrap());
    assert_eq!(sparse.value_bitwise(&sparse.start(), &BitwiseOptions::unlimited()), None);
}

/// The bit-parallel solve of every position equals the engine's solution, index
/// for index, on random maps (several words a row among them) and mazes; a map
/// too sparse, or a budget too small, gives none.
#[test]
fn the_bitwise_solve_of_every_position_equals_the_engines() {
    let mut maps: Vec<Map> = random_maps(300, 5).into_iter().map(|case| case.map).collect();
    let mut rng = SplitMix64::new(0x0050_11ed);
    for seed in 0..30 {
        let (w, h) = (8 + rng.below(13) as u32, 8 + rng.below(13) as u32);
        maps.push(generate::random_map(w, h, rng.below(30), 1 + rng.below(4) as u32, seed));
        maps.push(generate::maze(w | 1, h | 1, 1 + rng.below(3) as u32, seed));
    }
    let (mut solved, mut draws) = (0, 0);
    for map in &maps {
        let game = QueensCase::new(map);
        let engine = retrograde::solve(&game);
        match game.solve_bitwise(&BitwiseOptions::unlimited()) {
            Some(bitwise) => {
                assert!(bitwise == engine, "\n{map}");
                solved += 1;
                draws += engine.counts().draws;
            }
            None => assert!(map.width() * map.height() > 4 * game.open_cells(), "refused\n{map}"),
        }
    }
    assert!(solved > 300 && draws > 10_000, "{solved} maps solved, {draws} drawn positions");
    let open = QueensCase::new(&generate::random_map(20, 20, 0, 1, 3));
    assert!(open.solve_bitwise(&BitwiseOptions::within(10)).is_none());
}
