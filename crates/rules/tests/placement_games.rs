//! Games where pieces are dropped onto the board (tic-tac-toe, Connect 4 and their
//! k-in-a-row cousins), each against an independent brute force written here from
//! the games' rules (its own grid, drops, gravity and lines, and a plain memoized
//! minimax with ties), and against the published results.

mod common;

use common::{load, rules_value};
use gsolve_engine::search::Searcher;
use gsolve_engine::{check, reachable, retrograde, tiered, Game, Tiered, Value};
use gsolve_games::notation::PlainNotation;
use gsolve_games::rng::SplitMix64;
use gsolve_rules::{setup, Rules};
use std::collections::HashMap;
use std::sync::Arc;

// --- an independent brute force ---------------------------------------------------

/// k in a row on a rows × cols grid, with or without gravity: `X` (first side, `x`
/// to move) and `O`; `.` empty. Rows from the top, as the notation writes them.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct KInARow {
    rows: usize,
    cols: usize,
    k: usize,
    gravity: bool,
    cells: Vec<u8>, // 0 empty, 1 first side, 2 second side
    to_move: usize,
    /// The notation's letters: empty, the two sides' pieces, the two sides to move.
    letters: [char; 5],
    /// A line loses instead of winning.
    misere: bool,
}

impl KInARow {
    fn empty(rows: usize, cols: usize, k: usize, gravity: bool) -> Self {
        let letters = if gravity { ['.', 'R', 'Y', 'r', 'y'] } else { ['.', 'X', 'O', 'x', 'o'] };
        KInARow { rows, cols, k, gravity, cells: vec![0; rows * cols], to_move: 0, letters, misere: false }
    }

    /// Does `side` have k in a row, along a row, a column or a diagonal?
    fn line(&self, side: usize) -> bool {
        let who = side as u8 + 1;
        let (rows, cols, k) = (self.rows as i64, self.cols as i64, self.k as i64);
        for r in 0..rows {
            for c in 0..cols {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let all = (0..k).all(|i| {
                        let (rr, cc) = (r + dr * i, c + dc * i);
                        (0..rows).contains(&rr)
                            && (0..cols).contains(&cc)
                            && self.cells[(rr * cols + cc) as usize] == who
                    });
                    if all {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The value of a finished position for the side to move: the side that just
    /// moved first (a line wins), then the side to move, then a full board ties.
    fn over(&self) -> Option<Value> {
        let (lost, won) = if self.misere { (Value::Win(0), Value::Loss(0)) } else { (Value::Loss(0), Value::Win(0)) };
        if self.line(1 - self.to_move) {
            return Some(lost);
        }
        if self.line(self.to_move) {
            return Some(won);
        }
        if self.cells.iter().all(|&c| c != 0) {
            return Some(Value::Tie(0));
        }
        None
    }

    fn children(&self) -> Vec<KInARow> {
        let mut out = Vec::new();
        let mut put = |i: usize| {
            let mut c = self.clone();
            c.cells[i] = self.to_move as u8 + 1;
            c.to_move = 1 - self.to_move;
            out.push(c);
        };
        if self.gravity {
            for col in 0..self.cols {
                // The lowest empty cell of the column, if any.
                if let Some(row) = (0..self.rows).rev().find(|&r| self.cells[r * self.cols + col] == 0) {
                    put(row * self.cols + col);
                }
            }
        } else {
            for i in 0..self.cells.len() {
                if self.cells[i] == 0 {
                    put(i);
                }
            }
        }
        out
    }

    fn text(&self) -> String {
        let rows: Vec<String> = (0..self.rows)
            .map(|r| self.cells[r * self.cols..(r + 1) * self.cols].iter().map(|&c| self.letters[c as usize]).collect())
            .collect();
        format!("{} {}", rows.join("/"), self.letters[3 + self.to_move])
    }
}

/// Every position reachable from `start` (finished ones included, not expanded),
/// valued by plain minimax: the best of the children's values one ply up.
fn naive_values(start: &KInARow) -> HashMap<KInARow, Value> {
    fn value(s: &KInARow, memo: &mut HashMap<KInARow, Value>) -> Value {
        if let Some(&v) = memo.get(s) {
            return v;
        }
        let v = match s.over() {
            Some(v) => v,
            None => s.children().iter().map(|c| value(c, memo).parent_view()).max().unwrap_or(Value::Loss(0)),
        };
        memo.insert(s.clone(), v);
        v
    }
    let mut memo = HashMap::new();
    value(start, &mut memo);
    memo
}

/// A rules file with its line length changed (`length = 4` → `length = k`).
fn with_length(rules: &Rules, k: usize) -> Arc<Rules> {
    let text =
        rules.text.replace("length = 3", &format!("length = {k}")).replace("length = 4", &format!("length = {k}"));
    Arc::new(Rules::parse(&text).unwrap())
}

/// The rules `file` (tic-tac-toe, misère tic-tac-toe or connect-4) with lines of
/// `k` on a rows × cols board: every position the brute force reaches from the
/// empty board, valued by whole-game retrograde, by tiers and by alpha-beta search
/// (one searcher, so what earlier searches stored must never mislead later ones);
/// returns how many.
fn compare(file: &str, rows: usize, cols: usize, k: usize) -> usize {
    let rules = with_length(&load(file), k);
    let gravity = file == "connect-4";
    let mut start = KInARow::empty(rows, cols, k, gravity);
    start.misere = file.starts_with("misere");
    let s = setup(rules, None, None, Some(&start.text())).unwrap();
    let game = &s.game;
    let solution = retrograde::solve(game);
    let tiers = tiered::solve_all(game);
    let searcher = Searcher::new(game);
    let values = naive_values(&start);
    for (state, want) in &values {
        let t = state.text();
        let p = game.parse_position(&t).unwrap();
        assert_eq!(game.format_position(&p), t);
        assert_eq!(rules_value(game, &solution, &p), *want, "{file} {rows}×{cols} k={k} retrograde: {t}");
        let by_tiers = match game.terminal(&p) {
            Some(o) => o.value(),
            None => {
                let (tier, index) = Tiered::locate(game, &p).unwrap();
                tiers.get(tier).unwrap().value(index).unwrap()
            }
        };
        assert_eq!(by_tiers, *want, "{file} {rows}×{cols} k={k} tiers: {t}");
        assert_eq!(searcher.value(&p), Ok(*want), "{file} {rows}×{cols} k={k} search: {t}");
    }
    values.len()
}

// --- tic-tac-toe and its cousins ------------------------------------------------------

/// Tic-tac-toe: 5,478 legal positions reachable from the empty board (the empty
/// board and the finished ones included), and the start a tie when the board fills.
#[test]
fn tic_tac_toe_has_5478_positions_and_ties_in_9() {
    let rules = load("tic-tac-toe");
    let s = setup(rules, None, None, None).unwrap();
    assert_eq!(s.game.format_position(&s.position), ".../.../... x");
    assert_eq!(reachable::count_reachable(&s.game, &s.position), 5478);
    let solution = retrograde::solve(&s.game);
    assert_eq!(rules_value(&s.game, &solution, &s.position), Value::Tie(9));
    assert_eq!(gsolve_engine::search::solve(&s.game, &s.position).unwrap().0, Value::Tie(9));
    // Every tier order holds: each move of a tier's positions leads to a tier
    // solved earlier (drops add a piece, so the tiers run from full to empty).
    let tiers = s.game.tiers();
    let order: HashMap<u32, usize> = tiers.iter().enumerate().map(|(i, &t)| (t, i)).collect();
    for &t in &tiers {
        for c in s.game.child_tiers(t) {
            assert!(
                order[&c] < order[&t],
                "tier {} before its child tier {}",
                s.game.tier_name(t),
                s.game.tier_name(c)
            );
        }
    }
    assert_eq!(tiers.len(), 15, "tiers with the two sides' counts within one of each other");
}

#[test]
fn tic_tac_toe_equals_a_brute_force_on_every_position() {
    assert_eq!(compare("tic-tac-toe", 3, 3, 3), 5478);
}

/// The m,n,k-games: 3 in a row on 3×4 and on 4×3 is a first-player win (every
/// board of at least 4 × 3 is), and every position agrees with the brute force.
#[test]
fn three_in_a_row_on_bigger_boards_equals_a_brute_force_and_is_a_first_player_win() {
    for (rows, cols) in [(3, 4), (4, 3), (2, 5)] {
        assert!(compare("tic-tac-toe", rows, cols, 3) > 1000);
    }
    let rules = load("tic-tac-toe");
    for (rows, cols, want) in [(3, 4, true), (4, 3, true), (2, 5, false)] {
        let s = setup(rules.clone(), Some((rows, cols)), None, None).unwrap();
        let value = gsolve_engine::search::solve(&s.game, &s.position).unwrap().0;
        assert_eq!(matches!(value, Value::Win(_)), want, "{rows}×{cols}: {value}");
    }
}

/// Misère tic-tac-toe (three in a row loses): a tie, as published; every position
/// agrees with the brute force, on 3×3 and on boards of 3 × 4 and 4 × 3.
#[test]
fn misere_tic_tac_toe_ties_and_equals_a_brute_force() {
    assert_eq!(compare("misere-tic-tac-toe", 3, 3, 3), 5478);
    assert!(compare("misere-tic-tac-toe", 3, 4, 3) > 10_000);
    let s = setup(load("misere-tic-tac-toe"), None, None, None).unwrap();
    assert_eq!(gsolve_engine::search::solve(&s.game, &s.position).unwrap().0, Value::Tie(9));
}

// --- Connect 4 ------------------------------------------------------------------------

#[test]
fn connect_4_and_3_equal_a_brute_force_on_small_boards() {
    for (rows, cols, k) in [(3, 5, 4), (4, 3, 4), (3, 4, 3), (4, 3, 3), (3, 3, 3)] {
        assert!(compare("connect-4", rows, cols, k) > 100);
    }
}

/// Random positions of bigger boards (a random game of a random length from the
/// empty board), searched and compared with the brute force from there.
#[test]
fn connect_4_search_equals_the_brute_force_on_random_positions() {
    let rules = load("connect-4");
    let mut rng = SplitMix64::new(0xc4);
    let mut checked = 0;
    for case in 0..60 {
        let (rows, cols) = [(5, 5), (4, 6), (6, 4), (5, 6)][case % 4];
        let mut state = KInARow::empty(rows, cols, 4, true);
        let plies = rows * cols - 10 - rng.below(4) as usize;
        for _ in 0..plies {
            let children = state.children();
            if state.over().is_some() || children.is_empty() {
                break;
            }
            state = children[rng.below(children.len() as u64) as usize].clone();
        }
        let want = naive_values(&state)[&state];
        let s = setup(rules.clone(), None, None, Some(&state.text())).unwrap();
        let got = Searcher::new(&s.game).value(&s.position);
        assert_eq!(got, Ok(want), "case {case}: {}", state.text());
        checked += 1;
    }
    assert_eq!(checked, 60);
}

/// The published table of Connect 4 starts (John Tromp), every cell of width +
/// height ≤ 11: who wins and on which move the game ends (both sides' moves
/// counted, the first is move 1): the remoteness of the start.
#[test]
fn connect_4_starts_match_the_published_table() {
    let rules = load("connect-4");
    // (height, width, value for the first side to move)
    let table = [
        (4, 4, Value::Tie(16)),
        (4, 5, Value::Tie(20)),
        (4, 6, Value::Loss(24)),
        (4, 7, Value::Tie(28)),
        (5, 4, Value::Tie(20)),
        (5, 5, Value::Tie(25)),
        (5, 6, Value::Tie(30)),
        (6, 4, Value::Tie(24)),
        (6, 5, Value::Tie(30)),
        (7, 4, Value::Tie(28)),
    ];
    for (rows, cols, want) in table {
        let s = setup(rules.clone(), Some((rows, cols)), None, None).unwrap();
        let value = Searcher::with_table_entries(&s.game, 1 << 20).value(&s.position);
        assert_eq!(value, Ok(want), "Connect 4, {cols} wide and {rows} high");
    }
}

// --- parents --------------------------------------------------------------------------

/// Parents (drops run backwards: a piece lifted where it may have been dropped,
/// and under gravity only from the top of its column) against the moves, over the
/// whole index.
#[test]
fn drops_run_backwards_match_the_moves() {
    for (file, rows, cols) in [("tic-tac-toe", 3, 3), ("tic-tac-toe", 2, 4), ("connect-4", 3, 4), ("connect-4", 4, 3)] {
        let s = setup(load(file), Some((rows, cols)), None, None).unwrap();
        check::unmoves_match_moves(&s.game).unwrap_or_else(|e| panic!("{file} {rows}×{cols}: {e:?}"));
    }
}

/// A position with pieces already on the board: the index covers the counts
/// drops reach from there, and its value matches the brute force.
#[test]
fn a_position_with_pieces_has_the_index_of_what_follows() {
    let rules = load("tic-tac-toe");
    let s = setup(rules, None, None, Some("XO./.X./... o")).unwrap();
    let described = s.game.describe();
    assert!(described.contains("in 10 tiers"), "{described}");
    let solution = retrograde::solve(&s.game);
    let mut naive = KInARow::empty(3, 3, 3, false);
    naive.cells = vec![1, 2, 0, 0, 1, 0, 0, 0, 0];
    naive.to_move = 1;
    let want = naive_values(&naive)[&naive];
    assert_eq!(rules_value(&s.game, &solution, &s.position), want);
    assert_eq!(want, Value::Loss(4), "o blocks, x forks, o blocks one line, x wins");
}

// --- a counted supply ---------------------------------------------------------------

/// Three men's morris as a counted supply: each side starts with three pieces in
/// hand (`[start] hand`), drops them, then moves them; three in a row wins. The
/// hands count down, drops stop when they are empty, and parents (drops back into
/// the hand, steps back) match the moves over the whole index.
#[test]
fn a_counted_supply_is_a_hand_that_starts_full() {
    let text = r#"
[game]
name = "three-mens-morris"
sides = ["x", "o"]
[board]
rows = 3
cols = 3
[piece.man]
letter = { x = "X", o = "O" }
moves = [{ steps = "orthogonal", onto = "empty" }]
drop = { supply = "hand" }
[[end]]
when = "line"
length = 3
directions = "orthogonal"
[start]
to-move = "x"
hand = "XXXOOO"
"#;
    let rules = Arc::new(Rules::parse(text).unwrap());
    let s = setup(rules.clone(), None, None, None).unwrap();
    let game = &s.game;
    assert_eq!(game.format_position(&s.position), ".../.../... x XXXOOO");
    let mut moves = Vec::new();
    game.moves(&s.position, &mut moves);
    assert_eq!(moves.len(), 9, "nine drops, no piece on the board to move");
    let after = game.play(&s.position, &moves[0]);
    assert_eq!(game.format_position(&after), "X../.../... o XXOOO");
    // With every piece placed, only steps: no drop from an empty hand.
    let placed = setup(rules.clone(), None, None, Some("XOX/O.O/X.. x -")).unwrap();
    let mut moves = Vec::new();
    placed.game.moves(&placed.position, &mut moves);
    assert!(moves.iter().all(|m| m.dropped().is_none()) && !moves.is_empty());
    check::unmoves_match_moves(game).unwrap();
    // Two solvers agree on every position: whole-game retrograde, and tiers (drops
    // lead to tiers with a piece more on the board and one fewer in hand).
    let solution = retrograde::solve(game);
    let tiers = tiered::solve_all(game);
    let mut compared = 0;
    for index in 0..gsolve_engine::Indexed::index_size(game) {
        let Some(p) = gsolve_engine::Indexed::position(game, index) else { continue };
        if game.terminal(&p).is_some() {
            continue;
        }
        let (tier, i) = Tiered::locate(game, &p).unwrap();
        assert_eq!(tiers.get(tier).unwrap().value(i), solution.value(index), "{}", game.format_position(&p));
        compared += 1;
    }
    assert!(compared > 10_000, "{compared}");
    // A hand in [start] where nothing is dropped from a hand is refused.
    let bad = text.replace("drop = { supply = \"hand\" }", "drop = true");
    let e = Rules::parse(&bad).unwrap_err().to_string();
    assert!(e.contains("a hand in [start]"), "{e}");
}
