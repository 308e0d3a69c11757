//! The two snakes, "snakes" (GAMES.md §4), checked against an independent brute
//! force, across the engine's solvers (alpha-beta search with the longest-path
//! shortcut, plain memo search without it), against the facts GAMES.md states, and
//! the text format's errors.
//!
//! The brute force below shares no code with the game module nor with the engine: it
//! re-implements the rules of GAMES.md §4 on its own grid of cells and finds the exact
//! answer `w k` (the winner as fast as possible, the loser as slow as possible; k the
//! 1-based ply on which the loser is stuck) by plain minimax, without pruning or table.

use gsolve_engine::search::{self, SearchHooks, Searcher};
use gsolve_engine::{memo, Game, Value};
use gsolve_games::rng::SplitMix64;
use gsolve_games::snakes::{self, parse_boards, Cell, Mask, Mask256, Snakes, SnakesPosition};
use gsolve_games::FormatError;

// ---------------------------------------------------------------------------------
// The brute force.
// ---------------------------------------------------------------------------------

/// A board as the contest gives it: rows of integers (0 empty, 1 and 2 the heads,
/// anything else an obstacle).
#[derive(Clone, Debug)]
struct Board {
    rows: usize,
    cols: usize,
    values: Vec<i64>,
}

impl Board {
    /// The contest's text of the board.
    fn text(&self) -> String {
        let mut s = format!("{} {}\n", self.rows, self.cols);
        for r in 0..self.rows {
            let row: Vec<String> = (0..self.cols).map(|c| self.values[r * self.cols + c].to_string()).collect();
            s.push_str(&row.join(" "));
            s.push('\n');
        }
        s
    }

    fn head(&self, snake: i64) -> usize {
        self.values.iter().position(|&v| v == snake).expect("the board has both heads")
    }

    fn empty_cells(&self) -> usize {
        self.values.iter().filter(|&&v| v == 0).count()
    }

    /// The cells orthogonally next to cell `i`.
    fn around(&self, i: usize) -> Vec<usize> {
        let (r, c) = (i / self.cols, i % self.cols);
        let mut out = Vec::with_capacity(4);
        if r > 0 {
            out.push(i - self.cols);
        }
        if r + 1 < self.rows {
            out.push(i + self.cols);
        }
        if c > 0 {
            out.push(i - 1);
        }
        if c + 1 < self.cols {
            out.push(i + 1);
        }
        out
    }
}

/// The brute force's state: which cells are blocked (obstacles and every cell a snake
/// has been on) and where the heads are.
struct Naive<'b> {
    board: &'b Board,
    blocked: Vec<bool>,
    heads: [usize; 2],
    nodes: u64,
}

impl<'b> Naive<'b> {
    fn new(board: &'b Board) -> Self {
        let blocked = board.values.iter().map(|&v| v != 0).collect();
        Naive { board, blocked, heads: [board.head(1), board.head(2)], nodes: 0 }
    }

    /// `(winner, k)` with `mover` (0: snake 1, 1: snake 2) to play ply `ply`.
    fn answer(&mut self, mover: usize, ply: u32) -> (u8, u32) {
        self.nodes += 1;
        let me = mover as u8 + 1;
        let from = self.heads[mover];
        let mut best: Option<(u8, u32)> = None;
        for to in self.board.around(from) {
            if self.blocked[to] {
                continue;
            }
            self.blocked[to] = true;
            self.heads[mover] = to;
            let result = self.answer(1 - mover, ply + 1);
            self.heads[mover] = from;
            self.blocked[to] = false;
            best = Some(match best {
                None => result,
                Some(b) => better(me, b, result),
            });
        }
        // No empty neighbour: the mover is stuck on this ply and the other wins.
        best.unwrap_or((3 - me, ply))
    }
}

/// The better of two results for snake `me`: a win beats a loss, a faster win a
/// slower one, a slower loss a faster one.
fn better(me: u8, a: (u8, u32), b: (u8, u32)) -> (u8, u32) {
    match (a.0 == me, b.0 == me) {
        (true, false) => a,
        (false, true) => b,
        (true, true) => {
            if a.1 <= b.1 {
                a
            } else {
                b
            }
        }
        (false, false) => {
            if a.1 >= b.1 {
                a
            } else {
                b
            }
        }
    }
}

/// The brute force's contest line for the start of a board.
fn naive_answer(board: &Board) -> (String, u64) {
    let mut naive = Naive::new(board);
    let (w, k) = naive.answer(0, 1);
    (format!("{w} {k}"), naive.nodes)
}

/// The empty cells each head can reach through empty cells at the start (flood fill).
fn reach(board: &Board, snake: i64) -> Vec<bool> {
    let mut seen = vec![false; board.values.len()];
    let mut stack = vec![board.head(snake)];
    while let Some(i) = stack.pop() {
        for j in board.around(i) {
            if board.values[j] == 0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen
}

/// What kind of start a board has, by the brute force's own reading of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Snake 1 cannot move at all.
    FirstStuck,
    /// Snake 1 can move, snake 2 cannot move from its start cell.
    SecondStuck,
    /// Both can move, but no empty cell is reachable by both.
    Separated,
    /// The snakes share a region.
    Together,
}

fn kind(board: &Board) -> Kind {
    let can_move = |s: i64| board.around(board.head(s)).into_iter().any(|j| board.values[j] == 0);
    if !can_move(1) {
        return Kind::FirstStuck;
    }
    if !can_move(2) {
        return Kind::SecondStuck;
    }
    let (a, b) = (reach(board, 1), reach(board, 2));
    if a.iter().zip(&b).any(|(&x, &y)| x && y) {
        Kind::Together
    } else {
        Kind::Separated
    }
}

// ---------------------------------------------------------------------------------
// Random boards.
// ---------------------------------------------------------------------------------

const OBSTACLES: [i64; 6] = [3, 9, -1, 7, 100, -42];

fn obstacle(rng: &mut SplitMix64) -> i64 {
    OBSTACLES[rng.below(OBSTACLES.len() as u64) as usize]
}

/// A random board of 1..5 × 1..6 cells with at most `max_empty` empty cells. `shape`
/// steers it: 0 anything, 1 snake 1 walled in, 2 snake 2 walled in, 3 a wall of
/// obstacles between the heads.
fn random_board(rng: &mut SplitMix64, max_empty: usize, shape: u64) -> Board {
    loop {
        // Sizes 1..=5 × 1..=6, leaning to the larger ones.
        let rows = 1 + rng.below(5).max(rng.below(5)) as usize;
        let cols = 1 + rng.below(6).max(rng.below(6)) as usize;
        if rows * cols < 2 {
            continue;
        }
        let density = rng.below(4); // out of 10
        let mut values: Vec<i64> =
            (0..rows * cols).map(|_| if rng.chance(density, 10) { obstacle(rng) } else { 0 }).collect();
        let mut board = Board { rows, cols, values: values.clone() };
        if shape == 3 {
            // A full row or column of obstacles, heads on both sides.
            let (line, across) = if rows >= 3 && (cols < 3 || rng.chance(1, 2)) {
                (1 + rng.below(rows as u64 - 2) as usize, true)
            } else if cols >= 3 {
                (1 + rng.below(cols as u64 - 2) as usize, false)
            } else {
                continue;
            };
            let on_line = |i: usize| if across { i / cols == line } else { i % cols == line };
            for (i, v) in values.iter_mut().enumerate() {
                if on_line(i) {
                    *v = obstacle(rng);
                }
            }
            let side = |i: usize| if across { i / cols < line } else { i % cols < line };
            let before: Vec<usize> = (0..rows * cols).filter(|&i| !on_line(i) && side(i)).collect();
            let after: Vec<usize> = (0..rows * cols).filter(|&i| !on_line(i) && !side(i)).collect();
            let (mut a, mut b) =
                (before[rng.below(before.len() as u64) as usize], after[rng.below(after.len() as u64) as usize]);
            if rng.chance(1, 2) {
                std::mem::swap(&mut a, &mut b);
            }
            values[a] = 1;
            values[b] = 2;
        } else {
            let a = rng.below((rows * cols) as u64) as usize;
            let mut b = rng.below((rows * cols) as u64 - 1) as usize;
            if b >= a {
                b += 1;
            }
            values[a] = 1;
            values[b] = 2;
            if shape == 1 || shape == 2 {
                board.values = values.clone();
                let walled = if shape == 1 { a } else { b };
                for j in board.around(walled) {
                    if values[j] == 0 {
                        values[j] = obstacle(rng);
                    }
                }
            }
        }
        board.values = values;
        // Too many empty cells: fill random ones.
        while board.empty_cells() > max_empty {
            let empties: Vec<usize> = (0..rows * cols).filter(|&i| board.values[i] == 0).collect();
            board.values[empties[rng.below(empties.len() as u64) as usize]] = obstacle(rng);
        }
        return board;
    }
}

/// The game of a board, through the contest's text.
fn game(board: &Board) -> Snakes {
    let text = board.text();
    let boards = parse_boards(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(boards.len(), 1, "{text}");
    Snakes::<u128>::new(&boards[0])
}

fn search_value(game: &Snakes, position: &SnakesPosition) -> Value {
    search::solve(game, position).expect("the snakes game has no ties and short lines").0
}

/// The answer for a board's text, by the engine's search.
fn solve_text(text: &str) -> String {
    let boards = parse_boards(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(boards.len(), 1, "{text}");
    let game = Snakes::<u128>::new(&boards[0]);
    let start = game.start();
    Snakes::verdict(&start, search_value(&game, &start))
}

/// Checks the contest line's form: `w k` with k even exactly when snake 1 wins.
fn check_form(answer: &str) {
    let (w, k) = answer.split_once(' ').unwrap_or_else(|| panic!("answer {answer:?}"));
    let k: u32 = k.parse().unwrap_or_else(|_| panic!("answer {answer:?}"));
    assert!(k >= 1, "answer {answer:?}");
    match w {
        "1" => assert!(k.is_multiple_of(2), "snake 1 wins on an even ply: {answer:?}"),
        "2" => assert!(k % 2 == 1, "snake 2 wins on an odd ply: {answer:?}"),
        _ => panic!("answer {answer:?}"),
    }
}

// ---------------------------------------------------------------------------------
// The engine against the brute force.
// ---------------------------------------------------------------------------------

/// Random boards up to 14 empty cells: the search's answer (with the longest-path
/// shortcut) is the brute force's, and so is the plain memo search's value; the same
/// holds after each first move of snake 1 (snake 2 to move). On a disagreement the
/// smallest failing board is reported.
#[test]
fn random_boards_match_the_brute_force() {
    let mut rng = SplitMix64::new(0x5a4e_4b45_5301);
    let mut counts = [0usize; 4];
    let mut answers = std::collections::BTreeMap::new();
    let mut failures: Vec<(usize, String, String, String)> = Vec::new();
    let (mut nodes, mut large) = (0, 0);
    let boards = 1200;
    for i in 0..boards {
        // Mostly anything; one in twelve walls snake 1 in, one snake 2, one in six
        // splits the board.
        let shape = match i % 12 {
            0 => 1,
            1 => 2,
            2 | 3 => 3,
            _ => 0,
        };
        let mut board = random_board(&mut rng, 14, shape);
        // Small random boards often leave snake 1 stuck by chance: mostly try again.
        for _ in 0..3 {
            if shape != 0 || kind(&board) != Kind::FirstStuck {
                break;
            }
            board = random_board(&mut rng, 14, shape);
        }
        let text = board.text();
        let kind = kind(&board);
        counts[kind as usize] += 1;
        large += usize::from(board.empty_cells() >= 10);
        let (expected, n) = naive_answer(&board);
        nodes += n;
        check_form(&expected);
        match kind {
            Kind::FirstStuck => assert_eq!(expected, "2 1", "{text}"),
            Kind::SecondStuck => assert_eq!(expected, "1 2", "{text}"),
            _ => {}
        }
        *answers.entry(expected.clone()).or_insert(0usize) += 1;

        let game = game(&board);
        assert_eq!(game.empty_cells() as usize, board.empty_cells(), "{text}");
        let start = game.start();
        let value = search_value(&game, &start);
        let got = Snakes::verdict(&start, value);
        let plain = memo::solve(&game, &start).expect("the snakes game is acyclic");
        let memo_value = plain.value(&start).expect("the start is solved");
        let memo_got = Snakes::verdict(&start, memo_value);
        if got != expected || memo_got != expected {
            failures.push((
                board.empty_cells(),
                text.clone(),
                expected.clone(),
                format!("search {got}, memo {memo_got}"),
            ));
            continue;
        }
        assert_eq!(value, memo_value, "{text}");

        // After each first move of snake 1: snake 2 to move, counted from there.
        let mut children = Vec::new();
        game.moves(&start, &mut children);
        for mv in children {
            let child = game.play(&start, &mv);
            let to = game.coord(mv);
            let mut after = board.clone();
            let from = after.head(1);
            after.values[from] = 5;
            after.values[(to.row as usize - 1) * board.cols + to.col as usize - 1] = 1;
            let (w, k) = Naive::new(&after).answer(1, 1);
            let expected = format!("{w} {k}");
            let got = Snakes::verdict(&child, search_value(&game, &child));
            let memo_got = Snakes::verdict(&child, plain.value(&child).expect("the child is solved"));
            if got != expected || memo_got != expected {
                failures.push((
                    board.empty_cells(),
                    format!("{text}after snake 1 to {to}, snake 2 to move (k counted from there)\n"),
                    expected,
                    format!("search {got}, memo {memo_got}"),
                ));
            }
        }
    }
    if let Some((_, text, expected, got)) = failures.iter().min_by_key(|f| (f.0, f.1.len())) {
        panic!(
            "{} checks on {boards} boards disagree with the brute force; the smallest:\n{text}brute force {expected}, {got}",
            failures.len()
        );
    }
    eprintln!(
        "kinds (first stuck, second stuck, separated, together): {counts:?}; \
         {large} boards with 10 to 14 empty cells; brute-force nodes {nodes}"
    );
    assert!(large >= 300, "{large} boards with 10 or more empty cells");
    eprintln!("answers: {answers:?}");
    assert!(counts[Kind::FirstStuck as usize] >= 50, "{counts:?}");
    assert!(counts[Kind::SecondStuck as usize] >= 50, "{counts:?}");
    assert!(counts[Kind::Separated as usize] >= 150, "{counts:?}");
    assert!(counts[Kind::Together as usize] >= 500, "{counts:?}");
    assert!(answers.keys().any(|a| a.starts_with("1 ") && a != "1 2"), "{answers:?}");
    assert!(answers.keys().any(|a| a.starts_with("2 ") && a != "2 1"), "{answers:?}");
    assert!(answers.len() >= 8, "a variety of answers: {answers:?}");
}

/// The longest-path shortcut (`exact_value`) agrees with the plain memo search on
/// every reachable position of random boards where it applies.
#[test]
fn the_shortcut_matches_the_memo_search_on_every_reachable_position() {
    let mut rng = SplitMix64::new(0x10_4e57);
    let (mut applied, mut positions) = (0usize, 0usize);
    for i in 0..200 {
        let board = random_board(&mut rng, 14, if i % 3 == 0 { 3 } else { 0 });
        let game = game(&board);
        let plain = memo::solve(&game, &game.start()).expect("acyclic");
        let (p, a) = shortcut_agrees_everywhere(&game, &plain, &board.text());
        positions += p;
        applied += a;
    }
    eprintln!("shortcut applied at {applied} of {positions} positions");
    assert!(applied > 10_000 && applied < positions, "{applied} of {positions}");
}

/// Larger random boards (up to 22 empty cells), beyond the brute force: the search
/// (with its table, pruning and shortcut) agrees with the plain memo search.
#[test]
fn larger_boards_search_matches_memo_search() {
    let mut rng = SplitMix64::new(0x22_5eed);
    let mut positions = 0;
    for i in 0..120 {
        let board = random_board(&mut rng, 22, if i % 4 == 0 { 3 } else { 0 });
        let game = game(&board);
        let start = game.start();
        let plain = memo::solve(&game, &start).expect("acyclic");
        positions += plain.len();
        let value = search_value(&game, &start);
        assert_eq!(Some(value), plain.value(&start), "{}", board.text());
    }
    eprintln!("memo search: {positions} positions");
}

/// The search on two threads sharing a table ([`Searcher::value_in_parallel`]) gives
/// the memo search's value on random boards of up to 22 empty cells, and the known
/// values of the open 6×6 to 8×8 boards from the corners (thousands of nodes: the
/// threads meet each other's positions and one halts the other).
#[test]
fn parallel_search_matches_memo_search() {
    let mut rng = SplitMix64::new(0x2_7ead);
    for i in 0..60 {
        let board = random_board(&mut rng, 22, if i % 4 == 0 { 3 } else { 0 });
        let game = game(&board);
        let start = game.start();
        let plain = memo::solve(&game, &start).expect("acyclic");
        let searcher = Searcher::with_table_entries(&game, 1 << 12);
        let value = searcher.value_in_parallel(&start, vec![self::game(&board)], None).expect("no ties");
        assert_eq!(Some(value), plain.value(&start), "{}", board.text());
    }
    for (n, answer) in [(6, "2 35"), (7, "1 46"), (8, "2 63")] {
        let boards = parse_boards(&corners(n, n)).unwrap();
        let game = Snakes::<u128>::new(&boards[0]);
        let start = game.start();
        let searcher = Searcher::with_table_entries(&game, snakes::SEARCH_TABLE_ENTRIES);
        let value = searcher.value_in_parallel(&start, vec![Snakes::new(&boards[0])], None).expect("no ties");
        assert_eq!(Snakes::verdict(&start, value), answer, "{n}x{n}");
    }
}

/// The brute force's longest simple path from cell `from` through the `free` cells
/// (not counting `from`).
fn naive_longest(board: &Board, free: &mut [bool], from: usize) -> u32 {
    let mut best = 0;
    for j in board.around(from) {
        if free[j] {
            free[j] = false;
            best = best.max(1 + naive_longest(board, free, j));
            free[j] = true;
        }
    }
    best
}

/// `Snakes::longest_path` against a brute-force longest simple path, from a head or
/// from a used cell, through random subsets of the empty cells; many regions per
/// board, so the memo kept across calls is exercised too.
#[test]
fn longest_path_matches_a_brute_force() {
    let mut rng = SplitMix64::new(0x1_0a6e);
    let mut lengths = std::collections::BTreeMap::new();
    for _ in 0..150 {
        let board = random_board(&mut rng, 20, 0);
        let game = game(&board);
        let empty = game.empty_cells() as usize;
        // The game's node numbers of the empty cells, checked against the grid.
        let cell_of = |node: usize| {
            let c = game.coord(node as u16);
            (c.row as usize - 1) * board.cols + c.col as usize - 1
        };
        for node in 0..empty {
            assert_eq!(board.values[cell_of(node)], 0, "{}node {node}", board.text());
        }
        assert_eq!(cell_of(empty), board.head(1), "{}", board.text());
        assert_eq!(cell_of(empty + 1), board.head(2), "{}", board.text());
        for _ in 0..25 {
            let keep = 3 + rng.below(8); // out of 10
            let free_mask = (0..empty).filter(|_| rng.chance(keep, 10)).fold(0u128, |m, i| m | 1 << i);
            let used: Vec<usize> = (0..empty).filter(|&i| free_mask >> i & 1 == 0).collect();
            let mut starts = vec![empty, empty + 1];
            if !used.is_empty() {
                starts.push(used[rng.below(used.len() as u64) as usize]);
            }
            for node in starts {
                let mut free = vec![false; board.values.len()];
                for i in (0..empty).filter(|&i| free_mask >> i & 1 == 1) {
                    free[cell_of(i)] = true;
                }
                let expected = naive_longest(&board, &mut free, cell_of(node));
                let got = game.longest_path(node as u16, free_mask);
                assert_eq!(got, expected, "{}free {free_mask:#b}, from node {node}", board.text());
                *lengths.entry(expected).or_insert(0usize) += 1;
            }
        }
    }
    eprintln!("longest paths: {lengths:?}");
    assert!(lengths.keys().any(|&l| l >= 12), "some long paths: {lengths:?}");
}

/// `separated_value`: the mover with `a` moves left against `b` wins iff a > b; the
/// loser is stuck on ply 2a + 1 (mover) or 2b + 2 (other).
#[test]
fn separated_value_counts_plies() {
    for a in 0..10u32 {
        for b in 0..10u32 {
            let p = SnakesPosition { free: 0, heads: [0, 1], to_move: 0 };
            let expected = if a > b { format!("1 {}", 2 * b + 2) } else { format!("2 {}", 2 * a + 1) };
            assert_eq!(Snakes::verdict(&p, snakes::separated_value(a, b)), expected, "a = {a}, b = {b}");
        }
    }
}

// ---------------------------------------------------------------------------------
// Facts from GAMES.md §4.
// ---------------------------------------------------------------------------------

/// The empty n×m board with snake 1 top-left and snake 2 bottom-right.
fn corners(n: usize, m: usize) -> String {
    let mut values = vec![0i64; n * m];
    values[0] = 1;
    values[n * m - 1] = 2;
    Board { rows: n, cols: m, values }.text()
}

#[test]
fn the_example() {
    assert_eq!(solve_text("1 3\n1 0 2\n"), "1 2");
    let (answer, _) = naive_answer(&Board { rows: 1, cols: 3, values: vec![1, 0, 2] });
    assert_eq!(answer, "1 2");
}

#[test]
fn known_values_of_empty_square_boards() {
    for (n, answer) in [(2, "2 3"), (3, "1 6"), (4, "2 15"), (5, "1 22"), (6, "2 35")] {
        let started = std::time::Instant::now();
        assert_eq!(solve_text(&corners(n, n)), answer, "{n}x{n}");
        eprintln!("{n}x{n}: {answer} in {:?}", started.elapsed());
    }
    // The brute force agrees where it is quick.
    for (n, answer) in [(2, "2 3"), (3, "1 6")] {
        let values = {
            let mut v = vec![0i64; n * n];
            v[0] = 1;
            v[n * n - 1] = 2;
            v
        };
        assert_eq!(naive_answer(&Board { rows: n, cols: n, values }).0, answer, "{n}x{n}");
    }
}

#[test]
fn stuck_at_once() {
    // Snake 1 has no empty neighbour: stuck on ply 1.
    assert_eq!(solve_text("1 2\n1 2\n"), "2 1");
    assert_eq!(solve_text("2 3\n1 3 0\n9 0 2\n"), "2 1");
    // Snake 1 moves, snake 2 is walled in: stuck on ply 2.
    assert_eq!(solve_text("2 3\n1 0 3\n-1 3 2\n"), "1 2");
    assert_eq!(solve_text("1 5\n0 1 0 2 7\n"), "1 2");
    // Snake 2 can move but loses the race: stuck on ply 4.
    assert_eq!(solve_text("1 6\n1 0 0 9 2 0\n"), "1 4");
}

#[test]
fn verdict_counts_from_the_side_to_move() {
    let p1 = SnakesPosition { free: 0, heads: [0, 1], to_move: 0 };
    let p2 = SnakesPosition { to_move: 1, ..p1 };
    assert_eq!(Snakes::verdict(&p1, Value::Loss(0)), "2 1");
    assert_eq!(Snakes::verdict(&p1, Value::Win(1)), "1 2");
    assert_eq!(Snakes::verdict(&p2, Value::Loss(0)), "1 1");
    assert_eq!(Snakes::verdict(&p2, Value::Win(3)), "2 4");
}

// ---------------------------------------------------------------------------------
// The text format.
// ---------------------------------------------------------------------------------

fn parse_error(text: &str) -> FormatError {
    match parse_boards(text) {
        Ok(boards) => panic!("{text:?} parsed as {boards:?}"),
        Err(e) => e,
    }
}

/// Checks an error's place (case, line, column) and that its message has every word.
fn check_error(text: &str, case: usize, line: usize, column: usize, words: &[&str]) {
    let e = parse_error(text);
    assert_eq!((e.case, e.line, e.column), (Some(case), Some(line), Some(column)), "{text:?}: {e}");
    for word in words {
        assert!(e.message.contains(word), "{text:?}: expected {word:?} in {e}");
    }
    let shown = e.to_string();
    assert!(shown.starts_with(&format!("case {case}, line {line}, column {column}: ")), "{shown}");
}

/// A good case of two lines, for errors in a second case.
const GOOD: &str = "1 3\n1 0 2\n";

#[test]
fn parses_several_cases_and_any_layout() {
    let text = format!("{GOOD}\n2 2\n1 0\n0 2\n  3 1 2 9\n1\n");
    let boards = parse_boards(&text).unwrap();
    assert_eq!(boards.len(), 3);
    assert_eq!((boards[0].rows, boards[0].cols), (1, 3));
    assert_eq!(boards[0].cells, vec![Cell::Snake1, Cell::Empty, Cell::Snake2]);
    assert_eq!((boards[2].rows, boards[2].cols), (3, 1));
    assert_eq!(boards[2].cells, vec![Cell::Snake2, Cell::Obstacle, Cell::Snake1]);
    assert_eq!(boards[1].cell(1, 1), Cell::Snake2);
    assert_eq!(parse_boards("").unwrap(), vec![]);
    assert_eq!(parse_boards(&text.replace('\n', "\r\n")).unwrap(), boards);
    // Any other value is an obstacle.
    let odd = parse_boards("1 5\n1 -1 3 2 1000000\n").unwrap();
    assert_eq!(odd[0].cells[1..3], [Cell::Obstacle, Cell::Obstacle]);
    assert_eq!(odd[0].cells[4], Cell::Obstacle);
    // Even one too large for 64 bits; and a sign is fine.
    let huge = parse_boards("1 5\n1 99999999999999999999 -99999999999999999999 2 +0\n").unwrap();
    assert_eq!(huge[0].cells, [Cell::Snake1, Cell::Obstacle, Cell::Obstacle, Cell::Snake2, Cell::Empty]);
}

#[test]
fn missing_snakes() {
    check_error("1 3\n1 0 0\n", 1, 1, 1, &["no snake 2"]);
    check_error("2 2\n0 0\n2 9\n", 1, 1, 1, &["no snake 1"]);
    check_error(&format!("{GOOD}1 3\n0 0 0\n"), 2, 3, 1, &["no snake 1"]);
}

#[test]
fn two_heads_of_one_snake() {
    let text = "2 3\n1 0 2\n0 1 0\n";
    check_error(text, 1, 3, 3, &["second head of snake 1", "line 2, column 1"]);
    check_error("1 4\n1 2 0 2\n", 1, 2, 7, &["second head of snake 2", "line 2, column 3"]);
    check_error(&format!("{GOOD}{text}"), 2, 5, 3, &["second head of snake 1", "line 4, column 1"]);
}

#[test]
fn not_an_integer() {
    check_error("1 3\n1 x 2\n", 1, 2, 3, &["\"x\"", "not an integer"]);
    check_error("1 3\n1 0.0 2\n", 1, 2, 3, &["\"0.0\"", "not an integer"]);
    check_error("a 3\n1 0 2\n", 1, 1, 1, &["\"a\"", "not an integer"]);
    check_error("1 b\n1 0 2\n", 1, 1, 3, &["\"b\"", "not an integer"]);
    check_error(&format!("{GOOD}1 3\n1  ? 2\n"), 2, 4, 4, &["\"?\"", "not an integer"]);
}

#[test]
fn too_few_cells() {
    check_error("2 2\n1 0\n2\n", 1, 3, 1, &["truncated", "needs 4 cells", "has 3"]);
    check_error("1 3\n", 1, 1, 3, &["truncated", "needs 3 cells", "has 0"]);
    check_error(&format!("{GOOD}3 3\n1 0 0\n0 0 2\n"), 2, 5, 5, &["truncated", "needs 9", "has 6"]);
    check_error(&format!("{GOOD}7\n"), 2, 3, 1, &["truncated", "size"]);
}

#[test]
fn too_many_cells_show_up_in_the_next_case() {
    // One number too many: not even a size left.
    check_error("1 3\n1 0 2 0\n", 2, 2, 7, &["truncated", "case 1 has more than n·m cells"]);
    // Two or three: a size out of range.
    check_error("1 3\n1 0 2 0 0\n", 2, 2, 7, &["n (rows) = 0", "case 1 has more than n·m cells"]);
    check_error("1 3\n1 0 2 3 -1 0\n", 2, 2, 9, &["m (columns) = -1", "case 1 has more than n·m cells"]);
    // More: a size too large for what is left.
    check_error("1 3\n1 0 2 9 9 0 0\n", 2, 2, 13, &["truncated", "case 1 has more than n·m cells"]);
    // In a later case, the case before is named.
    check_error(&format!("{GOOD}{GOOD}1 3\n1 0 2 0\n"), 4, 6, 7, &["case 3 has more than n·m cells"]);
}

#[test]
fn sizes_out_of_range() {
    check_error("0 3\n", 1, 1, 1, &["n (rows) = 0", "1..=64"]);
    check_error("3 0\n", 1, 1, 3, &["m (columns) = 0", "1..=64"]);
    check_error("65 1\n", 1, 1, 1, &["n (rows) = 65", "1..=64"]);
    check_error("1 65\n", 1, 1, 3, &["m (columns) = 65", "1..=64"]);
    check_error("-2 3\n", 1, 1, 1, &["n (rows) = -2"]);
    check_error("3 99999999999999999999\n", 1, 1, 3, &["m (columns) = 99999999999999999999 is out of range"]);
    check_error(&format!("{GOOD}2 65\n"), 2, 3, 3, &["m (columns) = 65"]);
    // The first case gets no hint about a case before it.
    assert!(!parse_error("0 3\n").message.contains("case 0"));
    // 64 is fine.
    let mut big = vec![9i64; 64];
    big[0] = 1;
    big[63] = 2;
    assert_eq!(parse_boards(&Board { rows: 1, cols: 64, values: big }.text()).unwrap().len(), 1);
}

#[test]
fn too_many_empty_cells() {
    // 17×17 all empty but the two heads: 287 empty cells.
    check_error(&corners(17, 17), 1, 1, 1, &["287 empty cells", "at most 256"]);
    check_error(&format!("{GOOD}{}", corners(17, 17)), 2, 3, 1, &["287 empty cells"]);
    // 5×52 with the heads and two obstacles: 256 empty cells, the most; one more is
    // too many.
    let mut values = vec![0i64; 5 * 52];
    values[0] = 1;
    values[5 * 52 - 1] = 2;
    values[1] = 7;
    values[2] = 7;
    let boards = parse_boards(&Board { rows: 5, cols: 52, values: values.clone() }.text()).unwrap();
    assert_eq!(boards[0].empty_cells(), 256);
    assert_eq!(Snakes::<Mask256>::new(&boards[0]).empty_cells(), 256);
    values[2] = 0;
    check_error(&Board { rows: 5, cols: 52, values }.text(), 1, 1, 1, &["257 empty cells", "at most 256"]);
    // 10×13 with the heads = 128 empty cells: the narrow masks' most.
    let boards = parse_boards(&corners(10, 13)).unwrap();
    assert_eq!(Snakes::<u128>::new(&boards[0]).empty_cells(), 128);
}

// ---------------------------------------------------------------------------------
// Boards of more than 128 empty cells (256-cell masks).
// ---------------------------------------------------------------------------------

/// `small` below an open area of `pad` empty cells (20 columns wide, obstacles after
/// the last), a row of obstacles between: the snakes cannot leave `small`, whose
/// cells come after the area's in the game's numbering (bits `pad..`).
fn below_open_area(small: &Board, pad: usize) -> Board {
    let cols = small.cols.max(20);
    let pad_rows = pad.div_ceil(cols);
    let mut values = vec![9i64; (pad_rows + 1 + small.rows) * cols];
    values[..pad].fill(0);
    for r in 0..small.rows {
        for c in 0..small.cols {
            values[(pad_rows + 1 + r) * cols + c] = small.values[r * small.cols + c];
        }
    }
    Board { rows: pad_rows + 1 + small.rows, cols, values }
}

/// Every position reachable from the start of `game`: the shortcut agrees with the
/// plain memo search wherever it applies, and so do the search's value and the
/// answer `expected` at the start. Returns the positions and where the shortcut
/// applied.
fn check_every_position<M: Mask>(game: &Snakes<M>, text: &str, expected: &str) -> (usize, usize) {
    let start = game.start();
    let plain = memo::solve(game, &start).expect("acyclic");
    let value = search::solve(game, &start).expect("no ties").0;
    assert_eq!(Some(value), plain.value(&start), "{text}");
    assert_eq!(Snakes::verdict(&start, value), expected, "{text}");
    shortcut_agrees_everywhere(game, &plain, text)
}

/// Every position reachable from the start of `game`: the shortcut agrees with the
/// plain memo search `plain` wherever it applies. Returns the positions and where
/// the shortcut applied.
fn shortcut_agrees_everywhere<M: Mask>(
    game: &Snakes<M>,
    plain: &memo::MemoSolution<Snakes<M>>,
    text: &str,
) -> (usize, usize) {
    let (mut positions, mut applied) = (0, 0);
    let mut stack = vec![game.start()];
    let mut seen = std::collections::HashSet::new();
    while let Some(p) = stack.pop() {
        if !seen.insert(p) {
            continue;
        }
        positions += 1;
        if let Some(v) = game.exact_value(&p) {
            applied += 1;
            assert_eq!(Some(v), plain.value(&p), "{text}{p:?}");
        }
        game.for_each_child(&p, |c| stack.push(c));
    }
    (positions, applied)
}

/// Random small boards below open areas that make them 129 to 254 empty cells, the
/// small board's cells across the masks' words (the area ends before bit 128, or
/// past it, or past 192): the wide game's answer is the brute force's on the small
/// board, the shortcut agrees with the plain memo search on every reachable
/// position, and the same small board in narrow and wide masks gives the same
/// moves, values and shortcut values.
#[test]
fn wide_boards_match_the_brute_force() {
    let mut rng = SplitMix64::new(0x256_ce11);
    let (mut positions, mut applied) = (0, 0);
    for i in 0..150 {
        let small = random_board(&mut rng, 12, if i % 4 == 0 { 3 } else { 0 });
        let (expected, _) = naive_answer(&small);
        let pad = match i % 3 {
            // The small board's cells straddle bit 128.
            0 => 129 - small.empty_cells().min(6),
            1 => 150 + rng.below(40) as usize,
            _ => 192 + rng.below(240 - 192 - small.empty_cells() as u64) as usize,
        };
        let board = below_open_area(&small, pad);
        let text = board.text();
        let parsed = parse_boards(&text).unwrap().remove(0);
        assert!(parsed.empty_cells() > 128, "{text}");
        let wide = Snakes::<Mask256>::new(&parsed);
        let (p, a) = check_every_position(&wide, &text, &expected);
        positions += p;
        applied += a;
        // The small board alone, both widths: the same game position by position.
        let alone = parse_boards(&small.text()).unwrap().remove(0);
        let (narrow, wide) = (Snakes::<u128>::new(&alone), Snakes::<Mask256>::new(&alone));
        let (mut stack, mut moves) = (vec![(narrow.start(), wide.start())], (Vec::new(), Vec::new()));
        while let Some((n, w)) = stack.pop() {
            assert_eq!(n.heads, w.heads);
            assert_eq!(format!("{:?}", narrow.exact_value(&n)), format!("{:?}", wide.exact_value(&w)));
            moves.0.clear();
            moves.1.clear();
            narrow.moves(&n, &mut moves.0);
            wide.moves(&w, &mut moves.1);
            assert_eq!(moves.0, moves.1, "{}", small.text());
            for m in &moves.0 {
                stack.push((narrow.play(&n, m), wide.play(&w, m)));
            }
        }
    }
    eprintln!("wide boards: shortcut at {applied} of {positions} positions");
    assert!(applied > 1000 && applied < positions, "{applied} of {positions}");
}

/// A symmetric board of 151 empty cells: a 13×13 open board with, at its centre, a
/// ring of obstacles around a 3×3 room holding the heads at opposite corners. The
/// board's eight symmetries fold the wide game's table keys (each of them maps the
/// room onto itself); the answer is the 3×3 corners answer, `1 6`.
#[test]
fn a_symmetric_wide_board_folds_its_symmetries() {
    let n = 13;
    let mut values = vec![0i64; n * n];
    for r in 4..=8 {
        for c in 4..=8 {
            values[r * n + c] = if (5..=7).contains(&r) && (5..=7).contains(&c) { 0 } else { 9 };
        }
    }
    values[5 * n + 5] = 1;
    values[7 * n + 7] = 2;
    let board = Board { rows: n, cols: n, values };
    let text = board.text();
    let parsed = parse_boards(&text).unwrap().remove(0);
    assert_eq!(parsed.empty_cells(), 151);
    let game = Snakes::<Mask256>::new(&parsed);
    check_every_position(&game, &text, "1 6");
    // Positions that are images of each other share a key: snake 1's first moves
    // right or down (mirror images across the main diagonal) give one key.
    let start = game.start();
    let mut children = Vec::new();
    game.moves(&start, &mut children);
    assert_eq!(children.len(), 2);
    let keys: Vec<_> = children.iter().map(|m| game.table_key(&game.play(&start, m)).0).collect();
    assert_eq!(keys[0], keys[1]);
}
