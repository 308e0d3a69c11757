//! The games of examples/rules/ that gsolve has no built-in code for (Breakthrough,
//! Fox and Hounds, cops and robbers), each against an independent brute force
//! written here from the games' rules (its own grid, moves and endings, and a plain
//! round-by-round solver over the explicit graph), and against the published results.

mod common;

use common::{load, naive_values, rules_value, Naive};
use gsolve_engine::{retrograde, search, tiered, Game, Indexed, Tiered, Value};
use gsolve_games::notation::PlainNotation;
use gsolve_games::rng::SplitMix64;
use gsolve_rules::{setup, Rules};
use std::hash::Hash;
use std::sync::Arc;

// --- an independent solver ----------------------------------------------------------

/// A grid of characters, row 1 first, and the side to move.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Grid {
    rows: usize,
    cols: usize,
    cells: Vec<char>,
    to_move: usize,
}

impl Grid {
    fn parse(text: &str, sides: [char; 2]) -> Grid {
        let (board, side) = text.split_once(' ').unwrap();
        let rows: Vec<&str> = board.split('/').collect();
        Grid {
            rows: rows.len(),
            cols: rows[0].len(),
            cells: rows.iter().flat_map(|r| r.chars()).collect(),
            to_move: sides.iter().position(|&s| s.to_string() == side).unwrap(),
        }
    }

    fn text(&self, sides: [char; 2]) -> String {
        let rows: Vec<String> = self.cells.chunks(self.cols).map(|r| r.iter().collect()).collect();
        format!("{} {}", rows.join("/"), sides[self.to_move])
    }

    fn at(&self, r: i64, c: i64) -> Option<char> {
        (r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols)
            .then(|| self.cells[r as usize * self.cols + c as usize])
    }

    fn moved(&self, from: usize, to: usize) -> Grid {
        let mut g = self.clone();
        g.cells[to] = g.cells[from];
        g.cells[from] = '.';
        g.to_move ^= 1;
        g
    }
}

/// Every position of the naive game reachable from `start`, compared with the
/// rules game's whole-game retrograde solve of the same start, and with its tiered
/// solve (swept by progress where the game has a measure); returns how many.
fn compare<S: Naive>(rules: &Arc<Rules>, start: &str, naive: impl Fn(&str) -> S, text: impl Fn(&S) -> String) -> usize {
    let s = setup(rules.clone(), None, None, Some(start)).unwrap();
    let solution = retrograde::solve(&s.game);
    let tiers = tiered::solve_all(&s.game);
    let values = naive_values(&[naive(start)]);
    for (state, want) in &values {
        let t = text(state);
        let p = s.game.parse_position(&t).unwrap();
        assert_eq!(rules_value(&s.game, &solution, &p), *want, "{} {t}", rules.name);
        let by_tiers = match s.game.terminal(&p) {
            Some(o) => o.value(),
            None => {
                let (tier, index) = Tiered::locate(&s.game, &p).unwrap();
                tiers.get(tier).unwrap().value(index).unwrap()
            }
        };
        assert_eq!(by_tiers, *want, "{} by tiers: {t}", rules.name);
    }
    values.len()
}

// --- Breakthrough -------------------------------------------------------------------

/// White `W` moves up, black `B` down: straight or diagonally forward onto an empty
/// cell, diagonally forward onto an enemy (captured). The side that has just moved
/// wins if it stands on its far row, loses if it has no men; then the same for the
/// side to move; a side with no move loses.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Breakthrough(Grid);

const BT: [char; 2] = ['w', 'b'];

impl Breakthrough {
    fn man(side: usize) -> char {
        ['W', 'B'][side]
    }

    fn side_over(&self, side: usize) -> Option<bool> {
        let g = &self.0;
        let goal = if side == 0 { 0 } else { g.rows - 1 };
        if (0..g.cols).any(|c| g.cells[goal * g.cols + c] == Self::man(side)) {
            return Some(true);
        }
        if !g.cells.contains(&Self::man(side)) {
            return Some(false);
        }
        None
    }
}

impl Naive for Breakthrough {
    fn over(&self) -> Option<bool> {
        let to_move = self.0.to_move;
        if let Some(won) = self.side_over(1 - to_move) {
            return Some(!won);
        }
        self.side_over(to_move)
    }

    fn children(&self) -> Vec<Self> {
        let g = &self.0;
        let side = g.to_move;
        let (me, enemy) = (Self::man(side), Self::man(1 - side));
        let dr: i64 = if side == 0 { -1 } else { 1 };
        let mut out = Vec::new();
        for i in 0..g.cells.len() {
            if g.cells[i] != me {
                continue;
            }
            let (r, c) = ((i / g.cols) as i64, (i % g.cols) as i64);
            for dc in [-1, 0, 1] {
                let to = match g.at(r + dr, c + dc) {
                    Some('.') => true,
                    Some(x) if x == enemy && dc != 0 => true,
                    _ => false,
                };
                if to {
                    out.push(Breakthrough(g.moved(i, ((r + dr) as usize) * g.cols + (c + dc) as usize)));
                }
            }
        }
        out
    }
}

/// The start of Breakthrough on `rows` × `cols`: two full home rows a side.
fn breakthrough_start(rows: usize, cols: usize) -> String {
    let mut lines = Vec::new();
    for r in 0..rows {
        let ch = if r < 2 {
            'B'
        } else if r >= rows - 2 {
            'W'
        } else {
            '.'
        };
        lines.push(std::iter::repeat_n(ch, cols).collect::<String>());
    }
    format!("{} w", lines.join("/"))
}

#[test]
fn breakthrough_equals_a_brute_force_on_small_boards() {
    let rules = load("breakthrough");
    let mut compared = 0;
    for (rows, cols) in [(4, 2), (4, 3), (5, 2), (6, 2)] {
        let start = breakthrough_start(rows, cols);
        let game = setup(rules.clone(), None, None, Some(&start)).unwrap().game;
        assert!(Tiered::tiers(&game).iter().all(|&t| game.progress_bound(t).is_some()), "men only go forward");
        compared += compare(&rules, &start, |t| Breakthrough(Grid::parse(t, BT)), |s| s.0.text(BT));
    }
    eprintln!("{compared} Breakthrough positions compared");
    assert!(compared > 10_000, "{compared}");
}

#[test]
fn breakthrough_search_equals_the_brute_force_on_random_positions() {
    // Alpha-beta (what bigger Breakthrough boards are solved with) from random
    // positions of 5×4 and 4×5: men scattered, either side to move.
    let rules = load("breakthrough");
    let mut rng = SplitMix64::new(11);
    for i in 0..150 {
        let (rows, cols) = if i % 2 == 0 { (5, 4) } else { (4, 5) };
        let mut cells = vec!['.'; rows * cols];
        for cell in cells.iter_mut() {
            *cell = match rng.below(6) {
                0 => 'W',
                1 => 'B',
                _ => '.',
            };
        }
        let grid = Grid { rows, cols, cells, to_move: rng.below(2) as usize };
        let text = grid.text(BT);
        let naive = naive_values(&[Breakthrough(grid.clone())]);
        let want = naive[&Breakthrough(grid)];
        let s = setup(rules.clone(), None, None, Some(&text)).unwrap();
        let got = match s.game.terminal(&s.position) {
            Some(o) => o.value(),
            None => search::solve(&s.game, &s.position).unwrap().0,
        };
        assert_eq!(got, want, "{text}");
    }
}

/// Published (J. de Koning, 2006): from two full home rows each, the second player
/// wins in 26 plies. Reached: Loss(26) for the first player, found by the search
/// with captures first and the immediate wins the rules allow (docs/rules-solving.md,
/// "Immediate wins in the search"; the times in docs/performance.md). Too long for
/// every `cargo test`:
/// `cargo test --release -p gsolve-rules --test known_games -- --ignored`.
#[test]
#[ignore = "long: run with --release -- --ignored (docs/performance.md)"]
fn breakthrough_on_five_by_five_is_a_second_player_win_in_26() {
    let s = setup(load("breakthrough"), None, None, None).unwrap();
    assert_eq!(s.game.format_position(&s.position), "BBBBB/BBBBB/...../WWWWW/WWWWW w");
    let searcher = search::Searcher::with_table_entries(&s.game, 1 << 23);
    assert_eq!(searcher.value(&s.position), Ok(Value::Loss(26)));
}

// --- Fox and Hounds -----------------------------------------------------------------

/// On the dark cells, the fox `F` steps diagonally either way onto an empty cell,
/// a hound `H` diagonally down; the fox wins on row 1, a side with no move loses.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct FoxAndHounds(Grid);

const FH: [char; 2] = ['f', 'h'];

impl Naive for FoxAndHounds {
    fn over(&self) -> Option<bool> {
        let g = &self.0;
        let fox_home = (0..g.cols).any(|c| g.cells[c] == 'F');
        // Only the fox has an ending of its own: on row 1, after either side's move.
        fox_home.then_some(g.to_move == 0)
    }

    fn children(&self) -> Vec<Self> {
        let g = &self.0;
        let (piece, steps): (char, &[(i64, i64)]) =
            if g.to_move == 0 { ('F', &[(-1, -1), (-1, 1), (1, -1), (1, 1)]) } else { ('H', &[(1, -1), (1, 1)]) };
        let mut out = Vec::new();
        for i in 0..g.cells.len() {
            if g.cells[i] != piece {
                continue;
            }
            let (r, c) = ((i / g.cols) as i64, (i % g.cols) as i64);
            for &(dr, dc) in steps {
                if g.at(r + dr, c + dc) == Some('.') {
                    out.push(FoxAndHounds(g.moved(i, ((r + dr) as usize) * g.cols + (c + dc) as usize)));
                }
            }
        }
        out
    }
}

#[test]
fn fox_and_hounds_equals_a_brute_force_on_small_boards() {
    let rules = load("fox-and-hounds");
    let mut compared = 0;
    for start in [
        ".H.H/..../..../F... f",
        ".H.H/..../..../F... h",
        ".H.H.H/....../....../....../....../F..... f",
        ".H.H.H/....../....../....../....../..F... h",
        ".H.H.H/....../....../....../....../....F. f",
    ] {
        compared += compare(&rules, start, |t| FoxAndHounds(Grid::parse(t, FH)), |s| s.0.text(FH));
    }
    assert!(compared > 5_000, "{compared}");
}

#[test]
fn fox_and_hounds_is_a_hounds_win() {
    // Winning Ways: with correct play the hounds (geese) win. The whole 8×8 game is
    // solved (every placement of the fox and four hounds), so the same holds from
    // every start cell of the fox on its home row, whoever moves first.
    let s = setup(load("fox-and-hounds"), None, None, None).unwrap();
    assert_eq!(
        s.game.format_position(&s.position),
        ".H.H.H.H/......../......../......../......../......../......../F....... f"
    );
    let solution = retrograde::solve(&s.game);
    for fox in [0, 2, 4, 6] {
        for to_move in ["f", "h"] {
            let mut row8 = ['.'; 8];
            row8[fox] = 'F';
            let text = format!(
                ".H.H.H.H/......../......../......../......../......../......../{} {to_move}",
                row8.iter().collect::<String>()
            );
            let p = s.game.parse_position(&text).unwrap();
            let value = rules_value(&s.game, &solution, &p);
            let hounds_win =
                if to_move == "f" { matches!(value, Value::Loss(_)) } else { matches!(value, Value::Win(_)) };
            assert!(hounds_win, "{text}: {value}");
        }
    }
}

// --- cops and robbers ---------------------------------------------------------------

/// Cops `C` (every cop moves or stays, to different cells, all at once) and the
/// robber `R` (moves or stays) on a map; a cop on the robber's cell catches him.
/// A caught position is kept as the robber's cell marked `X`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Cops(Grid);

const CR: [char; 2] = ['c', 'r'];

impl Cops {
    fn neighbours(&self, i: usize) -> Vec<usize> {
        let g = &self.0;
        let (r, c) = ((i / g.cols) as i64, (i % g.cols) as i64);
        let mut out = vec![i];
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            if matches!(g.at(r + dr, c + dc), Some(ch) if ch != '#') {
                out.push(((r + dr) as usize) * g.cols + (c + dc) as usize);
            }
        }
        out
    }
}

impl Naive for Cops {
    fn over(&self) -> Option<bool> {
        // Caught: the cops have won; the robber is to move (after the cops' move) or
        // the cops (after the robber walked in).
        self.0.cells.contains(&'X').then_some(self.0.to_move == 0)
    }

    fn children(&self) -> Vec<Self> {
        let g = &self.0;
        let mut out = Vec::new();
        let cell_of = |ch: char| -> Vec<usize> { (0..g.cells.len()).filter(|&i| g.cells[i] == ch).collect() };
        let robber = cell_of('R')[0];
        if g.to_move == 1 {
            for to in self.neighbours(robber) {
                let mut next = g.clone();
                next.cells[robber] = '.';
                next.cells[to] = if g.cells[to] == 'C' { 'X' } else { 'R' };
                next.to_move = 0;
                out.push(Cops(next));
            }
            return out;
        }
        let cops = cell_of('C');
        let options: Vec<Vec<usize>> = cops.iter().map(|&c| self.neighbours(c)).collect();
        let mut choice = vec![0; cops.len()];
        loop {
            let dests: Vec<usize> = choice.iter().enumerate().map(|(i, &k)| options[i][k]).collect();
            if (0..dests.len()).all(|i| !dests[..i].contains(&dests[i])) {
                let mut next = g.clone();
                for &c in &cops {
                    next.cells[c] = '.';
                }
                next.cells[robber] = 'R';
                for &d in &dests {
                    next.cells[d] = if d == robber { 'X' } else { 'C' };
                }
                next.to_move = 1;
                if !out.contains(&Cops(next.clone())) {
                    out.push(Cops(next));
                }
            }
            let mut i = 0;
            loop {
                if i == choice.len() {
                    return out;
                }
                choice[i] += 1;
                if choice[i] < options[i].len() {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
        }
    }
}

/// A random map of `rows` × `cols` with about `wall_pct` % walls, `cops` cops and a
/// robber on open cells, the cops to move.
fn random_cops_map(rng: &mut SplitMix64, rows: usize, cols: usize, wall_pct: u64, cops: usize) -> Option<String> {
    let mut cells: Vec<char> = (0..rows * cols).map(|_| if rng.chance(wall_pct, 100) { '#' } else { '.' }).collect();
    let open: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == '.').collect();
    if open.len() < cops + 1 {
        return None;
    }
    let mut picked: Vec<usize> = Vec::new();
    while picked.len() < cops + 1 {
        let i = open[rng.below(open.len() as u64) as usize];
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    for (k, &i) in picked.iter().enumerate() {
        cells[i] = if k < cops { 'C' } else { 'R' };
    }
    Some(Grid { rows, cols, cells, to_move: 0 }.text(CR))
}

/// Every position the naive game reaches from `start`, compared: a caught position
/// (`X`) has no notation, and is compared through its parents' values.
fn compare_cops(rules: &Arc<Rules>, start: &str) -> usize {
    let s = setup(rules.clone(), None, None, Some(start)).unwrap();
    let solution = retrograde::solve(&s.game);
    let values = naive_values(&[Cops(Grid::parse(start, CR))]);
    let mut compared = 0;
    for (state, want) in &values {
        if state.0.cells.contains(&'X') {
            continue;
        }
        let text = state.0.text(CR);
        let p = s.game.parse_position(&text).unwrap();
        assert_eq!(rules_value(&s.game, &solution, &p), *want, "{text}");
        compared += 1;
    }
    compared
}

#[test]
fn cops_and_robbers_equal_a_brute_force_on_random_maps() {
    let rules = load("cops-and-robbers");
    let mut rng = SplitMix64::new(5);
    let mut compared = 0;
    for i in 0..60 {
        let (rows, cols, cops) = (2 + i % 3, 2 + i / 3 % 3, 1 + i % 2);
        if let Some(start) = random_cops_map(&mut rng, rows, cols, 20, cops) {
            compared += compare_cops(&rules, &start);
        }
    }
    assert!(compared > 2_000, "{compared}");
}

/// The open cells of a map, and their graph.
fn open_cells(grid: &Grid) -> Vec<usize> {
    (0..grid.cells.len()).filter(|&i| grid.cells[i] != '#').collect()
}

#[test]
fn one_cop_catches_the_robber_on_every_tree() {
    // Maps whose open cells form a tree (a random spanning tree of a grid, the
    // other cells walls): no position is a draw.
    let rules = load("cops-and-robbers");
    let mut rng = SplitMix64::new(9);
    for _ in 0..40 {
        let (rows, cols) = (3 + rng.below(3) as usize, 3 + rng.below(3) as usize);
        // Cells at even (row, col) are nodes; a random spanning tree opens the cells
        // between them.
        let (nr, nc) = (rows.div_ceil(2), cols.div_ceil(2));
        let mut cells = vec!['#'; rows * cols];
        let mut seen = vec![false; nr * nc];
        let mut stack = vec![0usize];
        seen[0] = true;
        cells[0] = '.';
        while let Some(&node) = stack.last() {
            let (r, c) = (node / nc, node % nc);
            let mut next: Vec<usize> = Vec::new();
            if r > 0 && !seen[node - nc] {
                next.push(node - nc);
            }
            if r + 1 < nr && !seen[node + nc] {
                next.push(node + nc);
            }
            if c > 0 && !seen[node - 1] {
                next.push(node - 1);
            }
            if c + 1 < nc && !seen[node + 1] {
                next.push(node + 1);
            }
            if next.is_empty() {
                stack.pop();
                continue;
            }
            let n = next[rng.below(next.len() as u64) as usize];
            seen[n] = true;
            let (r2, c2) = (n / nc, n % nc);
            cells[(2 * r2) * cols + 2 * c2] = '.';
            cells[(r + r2) * cols + (c + c2)] = '.';
            stack.push(n);
        }
        let grid = Grid { rows, cols, cells, to_move: 0 };
        let open = open_cells(&grid);
        let mut start = grid.clone();
        start.cells[open[0]] = 'C';
        start.cells[open[open.len() - 1]] = 'R';
        let s = setup(rules.clone(), None, None, Some(&start.text(CR))).unwrap();
        let solution = retrograde::solve(&s.game);
        let draws = (0..s.game.index_size()).filter(|&i| solution.value(i) == Some(Value::Draw)).count();
        assert_eq!(draws, 0, "{}", start.text(CR));
    }
}

#[test]
fn one_cop_never_catches_the_robber_on_a_cycle_of_four_or_more() {
    // A ring of cells around a block of walls: with the cop to move, the robber is
    // caught only if the cop stands next to him; with the robber to move, never.
    let rules = load("cops-and-robbers");
    for (rows, cols) in [(2, 2), (3, 3), (3, 4), (4, 5)] {
        let mut cells = vec!['.'; rows * cols];
        for r in 1..rows.saturating_sub(1) {
            for c in 1..cols - 1 {
                cells[r * cols + c] = '#';
            }
        }
        let ring: Vec<usize> = {
            // The ring in order: along the top, down the right, back along the bottom,
            // up the left.
            let mut order = Vec::new();
            order.extend(0..cols);
            order.extend((1..rows).map(|r| r * cols + cols - 1));
            order.extend((0..cols - 1).rev().map(|c| (rows - 1) * cols + c));
            order.extend((1..rows - 1).rev().map(|r| r * cols));
            order
        };
        let n = ring.len();
        let grid = Grid { rows, cols, cells, to_move: 0 };
        let mut first = grid.clone();
        first.cells[ring[0]] = 'C';
        first.cells[ring[n / 2]] = 'R';
        let s = setup(rules.clone(), None, None, Some(&first.text(CR))).unwrap();
        let solution = retrograde::solve(&s.game);
        for a in 0..n {
            for b in 0..n {
                if a == b {
                    continue;
                }
                for to_move in 0..2 {
                    let mut g = grid.clone();
                    g.cells[ring[a]] = 'C';
                    g.cells[ring[b]] = 'R';
                    g.to_move = to_move;
                    let distance = (a as i64 - b as i64).unsigned_abs() as usize;
                    let distance = distance.min(n - distance);
                    let p = s.game.parse_position(&g.text(CR)).unwrap();
                    let value = rules_value(&s.game, &solution, &p);
                    let caught = to_move == 0 && distance == 1;
                    assert_eq!(value, if caught { Value::Win(1) } else { Value::Draw }, "{}", g.text(CR));
                }
            }
        }
    }
}

#[test]
fn two_cops_catch_the_robber_on_open_grids() {
    // The cop number of a grid is 2: on open grids up to 4×4, two cops catch the
    // robber from every position (the robber's turn too), never a draw.
    let rules = load("cops-and-robbers");
    for (rows, cols) in [(2, 3), (3, 3), (3, 4), (4, 4)] {
        let mut cells = vec!['.'; rows * cols];
        cells[0] = 'C';
        cells[1] = 'C';
        cells[rows * cols - 1] = 'R';
        let start = Grid { rows, cols, cells, to_move: 0 }.text(CR);
        let s = setup(rules.clone(), None, None, Some(&start)).unwrap();
        let solution = retrograde::solve(&s.game);
        for i in 0..s.game.index_size() {
            let value = solution.value(i).unwrap();
            assert!(!matches!(value, Value::Draw), "{}x{}: {} is a draw", rows, cols, {
                let p = s.game.position(i).unwrap();
                s.game.format_position(&p)
            });
        }
    }
}

#[test]
fn three_cops_moving_at_once_stay_cheap() {
    // Found by fuzzing (fuzz/corpus/rules_file/regression-three-cops-all-moving.toml):
    // three cops make 125 combinations a turn; their moves and parents were
    // deduplicated pairwise, quadratic in the combinations, and the solve with its
    // un-moves check was far too slow. Sorted now, and every reachable position
    // equal to the brute force.
    let start = "C...C/.#..C/.#.#./..R.. c";
    let rules = load("cops-and-robbers");
    let started = std::time::Instant::now();
    let s = setup(rules.clone(), None, None, Some(start)).unwrap();
    gsolve_engine::check::unmoves_match_moves(&s.game).unwrap();
    let solution = retrograde::solve(&s.game);
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    assert!(matches!(rules_value(&s.game, &solution, &s.position), Value::Win(_)));
    assert!(compare_cops(&rules, start) > 1_000);
}

/// A libFuzzer find (`fuzz/corpus/tablebase/regression-rules-game-without-index`):
/// a tablebase whose parameters lost `pieces` named a rules game without an index,
/// and reading it panicked. Parameters now build only games with an index; each
/// game's parameters build the same game again.
#[test]
fn parameters_without_piece_limits_are_refused() {
    use gsolve_engine::Variant;
    use gsolve_rules::RulesGame;
    let game = setup(load("breakthrough"), Some((3, 3)), None, Some("B../.../W.. w")).unwrap().game;
    let parameters = game.parameters();
    let again = RulesGame::from_parameters(&parameters).unwrap();
    assert_eq!((again.parameters(), again.index_size()), (parameters.clone(), game.index_size()));
    let without: Vec<(String, String)> = parameters.into_iter().filter(|(k, _)| k != "pieces").collect();
    let e = RulesGame::from_parameters(&without).unwrap_err();
    assert!(e.contains("\"pieces\""), "{e}");
    // A game with trails has no index: its size is 0 and it has no positions.
    let snakes = setup(load("snakes"), None, None, None).unwrap().game;
    assert_eq!((snakes.index_size(), snakes.position(0)), (0, None));
    assert!(RulesGame::from_parameters(&snakes.parameters()).is_err());
}

/// The value by plain negamax over the rules (no table, no search knowledge):
/// obviously right, for small boards of acyclic games.
fn negamax(game: &gsolve_rules::RulesGame, p: &gsolve_rules::RulesPosition) -> Value {
    if let Some(outcome) = game.terminal(p) {
        return outcome.value();
    }
    let mut best: Option<Value> = None;
    game.for_each_child(p, |child| {
        let v = negamax(game, &child).parent_view();
        best = best.max(Some(v));
    });
    best.unwrap_or(Value::Loss(0))
}

/// Trail races on other graphs than the orthogonal grid: diagonal steps (a race:
/// the snakes' search knowledge applies) and king steps (not a race: two colours
/// do not colour it). On random boards with walls, the search gives the value plain
/// negamax gives.
#[test]
fn trail_races_on_other_graphs_are_searched_exactly() {
    assert!(setup(load("snakes"), None, None, None).unwrap().game.is_race(), "the snakes are the first race");
    for steps in ["diagonal", "king"] {
        let text = format!(
            r#"
[game]
name = "{steps}-snakes"
sides = ["1", "2"]
[board]
rows = 3
cols = 3
[piece.head]
letter = {{ 1 = "1", 2 = "2" }}
moves = [{{ steps = "{steps}", onto = "empty" }}]
trail = true
[[end]]
when = "stuck"
result = "loss"
"#
        );
        let rules = Arc::new(Rules::parse(&text).unwrap());
        let probe = setup(rules.clone(), None, None, Some("1../.../..2 1")).unwrap();
        assert_eq!(probe.game.is_race(), steps == "diagonal", "{steps}");
        let mut rng = SplitMix64::new(if steps == "king" { 5 } else { 6 });
        let mut compared = 0;
        for _ in 0..40 {
            let (rows, cols) = (3 + rng.below(2) as usize, 3 + rng.below(3) as usize);
            let mut grid = vec![vec!['.'; cols]; rows];
            for row in grid.iter_mut() {
                for cell in row.iter_mut() {
                    if rng.chance(1, 6) {
                        *cell = '#';
                    }
                }
            }
            let mut place = |letter: char, rng: &mut SplitMix64| loop {
                let (r, c) = (rng.below(rows as u64) as usize, rng.below(cols as u64) as usize);
                if grid[r][c] == '.' {
                    grid[r][c] = letter;
                    break;
                }
            };
            place('1', &mut rng);
            place('2', &mut rng);
            let position: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
            let position = format!("{} {}", position.join("/"), if rng.chance(1, 2) { '1' } else { '2' });
            let s = setup(rules.clone(), None, None, Some(&position)).unwrap();
            let searched = search::Searcher::with_table_entries(&s.game, 1 << 12).value(&s.position).unwrap();
            assert_eq!(searched, negamax(&s.game, &s.position), "{steps}: {position}");
            compared += 1;
        }
        assert_eq!(compared, 40);
    }
}
