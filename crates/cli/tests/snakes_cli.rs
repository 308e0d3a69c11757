//! End-to-end tests of `gsolve snakes` (GAMES.md §4): the contest format, several
//! cases, standard input, `--explain` and `--json`, and the handling of bad input.
//!
//! [`Grid`] below re-implements the rules of GAMES.md §4 (sharing no code with
//! gsolve) to check that every line of play printed is legal, ends with the loser
//! stuck, and, on small boards, is optimal by a plain minimax.

mod common;

use common::{data, example, ok, read, run};
use serde_json::Value;

/// The answers to `tests/data/snakes-sizes.txt`: the empty square boards of GAMES.md
/// §4 (snake 1 top-left, snake 2 bottom-right), the example, snake 1 stuck at once,
/// snake 2 stuck at once, two snakes apart from the start, and a board with obstacles
/// laid out across lines. The last five were checked with [`Grid::answer`] below.
const SIZES_ANSWERS: [&str; 10] = ["2 3", "1 6", "2 15", "1 22", "2 35", "1 2", "2 1", "1 2", "2 11", "1 8"];

/// Runs `gsolve snakes` on bad input from standard input and checks the failure:
/// exit status 2, no panic, no output, and a one-line message with exactly this place
/// (`case C, line L, column K:`) and every word. Returns the message.
fn bad(input: &str, case: usize, line: usize, column: usize, words: &[&str]) -> String {
    let r = run(&["snakes"], input);
    assert_eq!(r.code, Some(2), "gsolve snakes should reject {input:?}\nstdout: {}\nstderr: {}", r.stdout, r.stderr);
    assert!(r.stdout.is_empty(), "output for the bad input {input:?}:\n{}", r.stdout);
    let place = format!("gsolve: standard input: case {case}, line {line}, column {column}: ");
    assert!(r.stderr.starts_with(&place), "for {input:?} expected {place:?} in the message:\n{}", r.stderr);
    for word in words {
        assert!(r.stderr.contains(word), "for {input:?} expected {word:?} in the message:\n{}", r.stderr);
    }
    assert_eq!(r.stderr.lines().count(), 1, "a one-line message:\n{}", r.stderr);
    r.stderr
}

/// A good case of two lines.
const GOOD: &str = "1 3\n1 0 2\n";

/// Checks bad input three ways: as the first case, as the second after a good one
/// (case and line shift), and with CRLF line ends.
fn bad_case(input: &str, line: usize, column: usize, words: &[&str]) {
    bad(input, 1, line, column, words);
    bad(&format!("{GOOD}{input}"), 2, line + 2, column, words);
    bad(&input.replace('\n', "\r\n"), 1, line, column, words);
}

// ---------------------------------------------------------------------------------
// The rules, independently: a grid to replay lines on and a plain minimax.
// ---------------------------------------------------------------------------------

/// A board during play: which cells are blocked (obstacles and every cell a snake has
/// been on) and the heads, 0-based (row, col).
#[derive(Clone, Debug)]
struct Grid {
    rows: usize,
    cols: usize,
    blocked: Vec<Vec<bool>>,
    heads: [(usize, usize); 2],
}

impl Grid {
    /// All boards of an input, in order.
    fn parse_all(text: &str) -> Vec<Grid> {
        let numbers: Vec<i64> = text.split_whitespace().map(|t| t.parse().expect("a good input")).collect();
        let mut grids = Vec::new();
        let mut at = 0;
        while at < numbers.len() {
            let (rows, cols) = (numbers[at] as usize, numbers[at + 1] as usize);
            let cells = &numbers[at + 2..at + 2 + rows * cols];
            let mut heads = [(0, 0); 2];
            for (i, &v) in cells.iter().enumerate() {
                if v == 1 || v == 2 {
                    heads[v as usize - 1] = (i / cols, i % cols);
                }
            }
            let blocked = (0..rows).map(|r| (0..cols).map(|c| cells[r * cols + c] != 0).collect()).collect();
            grids.push(Grid { rows, cols, blocked, heads });
            at += 2 + rows * cols;
        }
        grids
    }

    fn empty_cells(&self) -> usize {
        self.blocked.iter().flatten().filter(|&&b| !b).count()
    }

    /// The free cells next to snake `s`'s head.
    fn options(&self, s: usize) -> Vec<(usize, usize)> {
        let (r, c) = self.heads[s];
        let mut out = Vec::new();
        if r > 0 {
            out.push((r - 1, c));
        }
        if r + 1 < self.rows {
            out.push((r + 1, c));
        }
        if c > 0 {
            out.push((r, c - 1));
        }
        if c + 1 < self.cols {
            out.push((r, c + 1));
        }
        out.retain(|&(r, c)| !self.blocked[r][c]);
        out
    }

    fn step(&mut self, s: usize, to: (usize, usize)) {
        self.blocked[to.0][to.1] = true;
        self.heads[s] = to;
    }

    /// `(winner, k)` with snake `s` (0 or 1) to move, k counted from this ply as 1:
    /// the winner as fast as possible, the loser as slow as possible.
    fn answer(&mut self, s: usize) -> (usize, u32) {
        let mut best: Option<(usize, u32)> = None;
        for to in self.options(s) {
            let from = self.heads[s];
            self.step(s, to);
            let (w, k) = self.answer(1 - s);
            self.blocked[to.0][to.1] = false;
            self.heads[s] = from;
            let r = (w, k + 1);
            best = Some(match best {
                None => r,
                Some(b) => {
                    let key = |(w, k): (usize, u32)| if w == s + 1 { (1, -(k as i64)) } else { (0, k as i64) };
                    if key(r) > key(b) {
                        r
                    } else {
                        b
                    }
                }
            });
        }
        best.unwrap_or((2 - s, 1))
    }
}

fn sizes() -> String {
    read(&data("snakes-sizes.txt"))
}

fn sizes_output() -> String {
    SIZES_ANSWERS.iter().map(|a| format!("{a}\n")).collect()
}

/// `(w, k)` of a contest line.
fn parse_answer(answer: &str) -> (usize, u32) {
    let (w, k) = answer.split_once(' ').unwrap_or_else(|| panic!("answer {answer:?}"));
    (w.parse().unwrap_or_else(|_| panic!("answer {answer:?}")), k.parse().unwrap_or_else(|_| panic!("{answer:?}")))
}

// ---------------------------------------------------------------------------------
// Formats
// ---------------------------------------------------------------------------------

#[test]
fn the_example_file_prints_1_2() {
    let path = example("snakes.txt");
    assert_eq!(ok(&["snakes", path.to_str().unwrap()], ""), "1 2\n");
}

#[test]
fn reads_standard_input_without_a_file_and_with_dash() {
    let sample = read(&example("snakes.txt"));
    assert_eq!(ok(&["snakes"], sample.clone()), "1 2\n");
    assert_eq!(ok(&["snakes", "-"], sample), "1 2\n");
    assert_eq!(ok(&["snakes"], "1 3 1 0 2"), "1 2\n");
    assert_eq!(ok(&["snakes"], "1 3\r\n1 0 2\r\n"), "1 2\n");
}

#[test]
fn several_cases_one_line_each() {
    let path = data("snakes-sizes.txt");
    assert_eq!(ok(&["snakes", path.to_str().unwrap()], ""), sizes_output());
    assert_eq!(ok(&["snakes"], sizes()), sizes_output());
}

#[test]
fn the_small_answers_match_a_plain_minimax() {
    for (grid, answer) in Grid::parse_all(&sizes()).iter_mut().zip(SIZES_ANSWERS) {
        if grid.empty_cells() <= 14 {
            let (w, k) = grid.answer(0);
            assert_eq!(format!("{w} {k}"), answer, "{grid:?}");
        }
    }
}

#[test]
fn explain_shows_the_value_the_line_and_who_is_stuck() {
    let out = ok(&["snakes", "--explain"], sizes());
    let lines: Vec<&str> = out.lines().collect();
    let mut at = 0;
    for (case, answer) in SIZES_ANSWERS.iter().enumerate() {
        let case = case + 1;
        let (w, k) = parse_answer(answer);
        assert_eq!(lines[at], format!("case {case}: {answer}"), "{out}");
        let (kind, plies) = (if w == 1 { "win" } else { "loss" }, k - 1);
        let unit = if plies == 1 { "ply" } else { "plies" };
        assert_eq!(lines[at + 1], format!("  snake 1 to move: {kind} in {plies} {unit}"), "{out}");
        for ply in 1..=plies as usize {
            let line = lines[at + 1 + ply];
            let side = if ply % 2 == 1 { "snake 1" } else { "snake 2" };
            assert!(line.starts_with(&format!("  {ply:>3}. {side} (")), "case {case}, ply {ply}: {line:?}");
            assert!(line.contains(") -> ("), "case {case}, ply {ply}: {line:?}");
        }
        at += 2 + plies as usize;
        let loser = 3 - w;
        assert!(lines[at].starts_with(&format!("  end: snake {loser} is stuck at (")), "case {case}: {:?}", lines[at]);
        at += 1;
    }
    assert_eq!(at, lines.len(), "{out}");
}

/// `--json`: one object per case; remoteness = number of plies in the line = k - 1;
/// the plies alternate snakes from snake 1; every move goes from the snake's head to
/// an adjacent cell never used before; at the end the loser has no free neighbour;
/// on small boards every ply keeps the value (checked by the plain minimax).
#[test]
fn json_lines_are_legal_and_end_with_the_loser_stuck() {
    let out = ok(&["snakes", "--json"], sizes());
    let objects: Vec<Value> =
        out.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
    let grids = Grid::parse_all(&sizes());
    assert_eq!(objects.len(), SIZES_ANSWERS.len(), "{out}");
    for (i, ((o, answer), grid)) in objects.iter().zip(SIZES_ANSWERS).zip(grids).enumerate() {
        let (w, k) = parse_answer(answer);
        assert_eq!(o["case"], i + 1, "{o}");
        assert_eq!(o["answer"], answer, "{o}");
        assert_eq!(o["to_move"], "snake 1", "{o}");
        assert_eq!(o["value"], if w == 1 { "win" } else { "loss" }, "{o}");
        assert_eq!(o["remoteness"], k - 1, "{o}");
        let line = o["line"].as_array().expect("a line");
        assert_eq!(line.len() as u32, k - 1, "{o}");
        let small = grid.empty_cells() <= 14;
        let mut grid = grid;
        for (j, ply) in line.iter().enumerate() {
            let s = j % 2;
            assert_eq!(ply["ply"], j + 1, "{ply}");
            assert_eq!(ply["side"], format!("snake {}", s + 1), "{ply}");
            let cell = |key: &str| {
                let a = ply[key].as_array().unwrap_or_else(|| panic!("{ply}"));
                (a[0].as_u64().unwrap() as usize - 1, a[1].as_u64().unwrap() as usize - 1)
            };
            let (from, to) = (cell("from"), cell("to"));
            assert_eq!(from, grid.heads[s], "case {}, ply {}: not from the head", i + 1, j + 1);
            assert!(grid.options(s).contains(&to), "case {}, ply {}: {to:?} is not a free neighbour", i + 1, j + 1);
            grid.step(s, to);
            if small {
                let (w2, k2) = grid.answer(1 - s);
                assert_eq!((w2, k2 + j as u32 + 1), (w, k), "case {}: ply {} is not optimal", i + 1, j + 1);
            }
        }
        let stuck = line.len() % 2;
        assert_eq!(stuck, 2 - w, "case {}: the loser is to move at the end", i + 1);
        assert!(grid.options(stuck).is_empty(), "case {}: snake {} is not stuck", i + 1, stuck + 1);
        let (r, c) = grid.heads[stuck];
        assert_eq!(o["end"], format!("snake {} is stuck at ({},{})", stuck + 1, r + 1, c + 1), "{o}");
    }
}

// ---------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------

#[test]
fn a_missing_snake() {
    bad_case("1 3\n1 0 0\n", 1, 1, &["no snake 2"]);
    bad_case("2 2\n0 0\n2 9\n", 1, 1, &["no snake 1"]);
}

#[test]
fn two_heads_of_one_snake() {
    let message = bad("2 3\n1 0 2\n0 1 0\n", 1, 3, 3, &["second head of snake 1", "line 2, column 1"]);
    assert!(message.contains("line 2, column 1"), "{message}");
    bad(&format!("{GOOD}1 4\n1 2 0 2\n"), 2, 4, 7, &["second head of snake 2", "line 4, column 3"]);
}

#[test]
fn not_an_integer() {
    bad_case("1 3\n1 x 2\n", 2, 3, &["\"x\"", "not an integer"]);
    bad_case("1 3\n1 0.5 2\n", 2, 3, &["\"0.5\"", "not an integer"]);
    bad_case("one 3\n1 0 2\n", 1, 1, &["\"one\"", "not an integer"]);
}

#[test]
fn truncated_input() {
    bad_case("2 2\n1 0\n2\n", 3, 1, &["truncated", "needs 4 cells", "has 3"]);
    bad_case("3\n", 1, 1, &["truncated", "size"]);
}

#[test]
fn too_many_cells_name_the_case_before() {
    bad("1 3\n1 0 2 0\n", 2, 2, 7, &["truncated", "case 1 has more than n·m cells"]);
    bad("1 3\n1 0 2 0 0\n", 2, 2, 7, &["out of range", "case 1 has more than n·m cells"]);
    bad(&format!("{GOOD}1 3\n1 0 2 9 9 0\n"), 3, 4, 11, &["truncated", "case 2 has more than n·m cells"]);
}

#[test]
fn sizes_out_of_range() {
    bad_case("0 3\n", 1, 1, &["n (rows) = 0", "out of range"]);
    bad_case("3 65\n", 1, 3, &["m (columns) = 65", "out of range"]);
}

/// The empty n×n board with the heads in opposite corners, in the contest format.
fn open_corners(n: usize) -> String {
    let mut board = format!("{n} {n}\n");
    for r in 0..n {
        let row: Vec<&str> = (0..n)
            .map(|c| match (r, c) {
                (0, 0) => "1",
                (r, c) if r == n - 1 && c == n - 1 => "2",
                _ => "0",
            })
            .collect();
        board.push_str(&row.join(" "));
        board.push('\n');
    }
    board
}

#[test]
fn too_many_empty_cells() {
    // 17×17: 287 empty cells; 256 is the most.
    bad_case(&open_corners(17), 1, 1, &["287 empty cells", "at most 256"]);
}

/// Boards of more than 128 empty cells are solved (256-cell masks): a 13×13 open
/// board around a walled 3×3 room with the heads in its corners (151 empty cells,
/// the 3×3 corners answer `1 6`), and the same room with snake 2 outside it, in the
/// open part (apart at once: snake 1 has 7 moves in the room, snake 2 far more).
#[test]
fn boards_past_128_empty_cells_are_solved() {
    let room = |outside: bool| {
        let n = 13;
        let mut values = vec!["0"; n * n];
        for r in 4..=8 {
            for c in 4..=8 {
                if !((5..=7).contains(&r) && (5..=7).contains(&c)) {
                    values[r * n + c] = "9";
                }
            }
        }
        values[5 * n + 5] = "1";
        values[if outside { 0 } else { 7 * n + 7 }] = "2";
        let rows: Vec<String> = values.chunks(n).map(|row| row.join(" ")).collect();
        format!("{n} {n}\n{}\n", rows.join("\n"))
    };
    // Snake 1 makes its 8 moves, through all 8 free cells of the room, and is
    // stuck on ply 17; snake 2 outlasts it.
    assert_eq!(ok(&["snakes"], format!("{}{}", room(false), room(true))), "1 6\n2 17\n");
}

/// Several boards are solved a board per thread; the answers come in the file's
/// order, the same on one thread and on two.
#[test]
fn several_boards_on_one_or_two_threads_answer_in_order() {
    let path = data("snakes-sizes.txt");
    for threads in ["1", "2"] {
        assert_eq!(ok(&["--threads", threads, "snakes", path.to_str().unwrap()], ""), sizes_output(), "{threads}");
    }
}

/// One board whose search goes past the part done alone (the 9×9 board from the
/// corners: 94 thousand positions) is searched on both threads: the same answer as
/// on one, and its explanation follows a line of the value's length.
#[test]
fn one_long_board_on_two_threads_gives_the_answer_of_one() {
    let mut values = vec!["0"; 81];
    values[0] = "1";
    values[80] = "2";
    let rows: Vec<String> = values.chunks(9).map(|row| row.join(" ")).collect();
    let board = format!("9 9\n{}\n", rows.join("\n"));
    for threads in ["1", "2"] {
        assert_eq!(ok(&["--threads", threads, "snakes"], board.clone()), "1 78\n", "{threads}");
    }
    let explained = ok(&["--threads", "2", "snakes", "--explain"], board);
    assert!(explained.starts_with("case 1: 1 78\n") && explained.contains("win in 77 plies"), "{explained}");
    assert!(explained.contains("77. snake 1"), "{explained}");
}

#[test]
fn a_bad_file_names_the_file_and_a_missing_file_fails() {
    let dir = std::env::temp_dir().join(format!("gsolve-snakes-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.txt");
    std::fs::write(&path, format!("{GOOD}1 3\n1 ? 2\n")).unwrap();
    let r = run(&["snakes", path.to_str().unwrap()], "");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(r.stderr.contains("bad.txt: case 2, line 4, column 3:"), "{}", r.stderr);
    let missing = data("snakes-no-such-file.txt");
    let r = run(&["snakes", missing.to_str().unwrap()], "");
    assert_ne!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stderr.contains("snakes-no-such-file.txt"), "{}", r.stderr);
}
