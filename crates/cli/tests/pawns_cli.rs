//! End-to-end tests of `gsolve pawns` (GAMES.md §3): the UVa 10838 format, boards of
//! other sizes, `--black-to-move`, `--explain`, `--json`, `--summary` and bad input.
//!
//! [`Oracle`] below is an independent solver written from the rules of GAMES.md §3
//! (plain recursion with a memo, sharing no code with gsolve): it checks the answers,
//! that every line of play is legal and optimal, and the summary counts.

mod common;

use common::{data, example, fails, ok, read, run};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

const SAMPLE_OUTPUT: &str = "white (7)\nblack (2)\n";

fn sample() -> String {
    read(&example("pawns.txt"))
}

// ---------------------------------------------------------------------------------
// Boards

/// One board of the input, rows top to bottom (the first is white's goal rank).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Board {
    rows: Vec<String>,
}

impl Board {
    /// From plain notation's board part: rows joined by `/`.
    fn new(rows: &str) -> Board {
        Board { rows: rows.split('/').map(String::from).collect() }
    }

    /// From plain notation: `rows/joined w` or `... b`; true when white is to move.
    fn from_notation(text: &str) -> (Board, bool) {
        let (rows, side) = text.rsplit_once(' ').unwrap_or_else(|| panic!("not plain notation: {text:?}"));
        let white = match side {
            "w" => true,
            "b" => false,
            other => panic!("side {other:?} in {text:?}"),
        };
        (Board::new(rows), white)
    }

    fn height(&self) -> u32 {
        self.rows.len() as u32
    }

    fn width(&self) -> u32 {
        self.rows[0].chars().count() as u32
    }

    /// Upside down with the colours swapped: the same game for the other side.
    fn mirrored(&self) -> Board {
        let swap = |c: char| match c {
            'P' => 'p',
            'p' => 'P',
            c => c,
        };
        Board { rows: self.rows.iter().rev().map(|r| r.chars().map(swap).collect()).collect() }
    }

    /// The pawns as bitboards (white, black), bit `row * cols + col`, row 0 on top.
    fn bits(&self) -> (u64, u64) {
        let (mut w, mut b) = (0, 0);
        for (r, row) in self.rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let bit = 1u64 << (r as u32 * self.width() + c as u32);
                match ch {
                    'P' => w |= bit,
                    'p' => b |= bit,
                    '.' => {}
                    other => panic!("{other:?} in {self:?}"),
                }
            }
        }
        (w, b)
    }
}

/// The UVa input for these boards: the count, then a blank line and the rows of each.
fn uva(boards: &[Board]) -> String {
    let mut text = format!("{}\n", boards.len());
    for board in boards {
        text.push('\n');
        for row in &board.rows {
            text.push_str(row);
            text.push('\n');
        }
    }
    text
}

/// `white (x)` ↔ `black (x)`.
fn swap_colours(answer: &str) -> String {
    if let Some(rest) = answer.strip_prefix("white ") {
        format!("black {rest}")
    } else if let Some(rest) = answer.strip_prefix("black ") {
        format!("white {rest}")
    } else {
        panic!("not an answer: {answer:?}")
    }
}

/// `white (7)` → ("white", 7).
fn parse_answer(answer: &str) -> (&str, u32) {
    let (side, x) = answer.split_once(' ').unwrap_or_else(|| panic!("not an answer: {answer:?}"));
    assert!(side == "white" || side == "black", "{answer:?}");
    let x = x.strip_prefix('(').and_then(|x| x.strip_suffix(')')).unwrap_or_else(|| panic!("{answer:?}"));
    (side, x.parse().unwrap_or_else(|_| panic!("{answer:?}")))
}

/// Boards of several sizes and their answers with white to move, as in
/// `tests/data/pawns-sizes.txt`. All agree with [`Oracle`]. The sample's, Hexapawn's
/// and Octapawn's are the known ones (GAMES.md §3); the 2-row ones and the 8×8 race
/// can be seen by hand (white's seventh step is ply 13); white without a move, or
/// without pawns, has lost at once: `black (0)`. The 4×5 and 5×3 home-rank starts and
/// the 4×4 board with six pawns a side rest on the oracle alone.
const SIZES: [(&str, &str); 14] = [
    (".ppp/..../.PPP/....", "white (7)"),
    ("...p/...p/pP.P/...P", "black (2)"),
    ("ppp/.../PPP", "black (6)"),
    ("pppp/..../..../PPPP", "white (11)"),
    ("p./.P", "white (1)"),
    ("pp/PP", "white (1)"),
    ("pppppppp/PPPPPPPP", "white (1)"),
    ("p......./......../......../......../......../......../......../.......P", "white (13)"),
    ("p./../../../../../../.P", "white (7)"),
    ("p./P./..", "black (0)"),
    ("pp./.../...", "black (0)"),
    ("ppppp/...../...../PPPPP", "black (14)"),
    ("ppp/.../.../.../PPP", "white (11)"),
    (".pp./pppp/PPPP/PPPP", "white (5)"),
];

fn sizes_boards() -> Vec<Board> {
    SIZES.iter().map(|(b, _)| Board::new(b)).collect()
}

fn sizes_output() -> String {
    SIZES.iter().map(|(_, a)| format!("{a}\n")).collect()
}

// ---------------------------------------------------------------------------------
// An independent solver

/// A value for the side to move: win or loss in so many plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Win(u32),
    Loss(u32),
}

/// Pawn chess on an R×C board solved from the rules alone: a side wins when one of
/// its pawns reaches the far rank or the opponent cannot move on its turn (not a ply).
/// Positions play never reaches, where the side to move already stands on its goal
/// rank, count as won at once (unless the other side stands on its own: lost).
struct Oracle {
    rows: u32,
    cols: u32,
    memo: HashMap<(u64, u64, bool), Val>,
}

impl Oracle {
    fn new(rows: u32, cols: u32) -> Oracle {
        Oracle { rows, cols, memo: HashMap::new() }
    }

    /// Row 0: white's goal.
    fn white_goal(&self) -> u64 {
        (1u64 << self.cols) - 1
    }

    /// Row R-1: black's goal.
    fn black_goal(&self) -> u64 {
        self.white_goal() << ((self.rows - 1) * self.cols)
    }

    /// The legal moves (from cell, to cell) of the side to move.
    fn moves(&self, w: u64, b: u64, white: bool) -> Vec<(u32, u32)> {
        let (mine, theirs) = if white { (w, b) } else { (b, w) };
        let mut moves = Vec::new();
        for from in 0..self.rows * self.cols {
            if mine >> from & 1 == 0 {
                continue;
            }
            let (r, c) = (from / self.cols, from % self.cols);
            let r2 = match (white, r) {
                (true, 0) => continue,
                (true, r) => r - 1,
                (false, r) if r + 1 == self.rows => continue,
                (false, r) => r + 1,
            };
            let ahead = r2 * self.cols + c;
            if (w | b) >> ahead & 1 == 0 {
                moves.push((from, ahead));
            }
            for c2 in [c.wrapping_sub(1), c + 1] {
                if c2 < self.cols && theirs >> (r2 * self.cols + c2) & 1 == 1 {
                    moves.push((from, r2 * self.cols + c2));
                }
            }
        }
        moves
    }

    fn play(w: u64, b: u64, white: bool, (from, to): (u32, u32)) -> (u64, u64) {
        let (from, to) = (1u64 << from, 1u64 << to);
        if white {
            (w & !from | to, b & !to)
        } else {
            (w & !to, b & !from | to)
        }
    }

    fn value(&mut self, w: u64, b: u64, white: bool) -> Val {
        if let Some(&v) = self.memo.get(&(w, b, white)) {
            return v;
        }
        let (mine, theirs, my_goal, their_goal) = if white {
            (w, b, self.white_goal(), self.black_goal())
        } else {
            (b, w, self.black_goal(), self.white_goal())
        };
        let v = if theirs & their_goal != 0 {
            Val::Loss(0)
        } else if mine & my_goal != 0 {
            Val::Win(0)
        } else {
            let (mut win, mut loss) = (None::<u32>, 0);
            for m in self.moves(w, b, white) {
                let (w2, b2) = Oracle::play(w, b, white, m);
                match self.value(w2, b2, !white) {
                    Val::Loss(r) => win = Some(win.map_or(r + 1, |x| x.min(r + 1))),
                    Val::Win(r) => loss = loss.max(r + 1),
                }
            }
            win.map_or(Val::Loss(loss), Val::Win)
        };
        self.memo.insert((w, b, white), v);
        v
    }

    /// The contest's answer for a board with this side to move.
    fn answer(&mut self, board: &Board, white: bool) -> String {
        let (w, b) = board.bits();
        let (winner, x) = match self.value(w, b, white) {
            Val::Win(x) => (white, x),
            Val::Loss(x) => (!white, x),
        };
        format!("{} ({x})", if winner { "white" } else { "black" })
    }
}

/// The oracle's answers, one a line, for boards of any sizes.
fn oracle_output(boards: &[Board], white: bool) -> String {
    let mut oracles: HashMap<(u32, u32), Oracle> = HashMap::new();
    boards
        .iter()
        .map(|b| {
            let oracle = oracles.entry((b.height(), b.width())).or_insert_with(|| Oracle::new(b.height(), b.width()));
            format!("{}\n", oracle.answer(b, white))
        })
        .collect()
}

/// A small deterministic random generator (xorshift64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % u64::from(n)) as u32
    }
}

/// Random legal inputs: sizes 2..=6 by 2..=6, up to 4 pawns a side (up to 6 on the
/// smaller boards), no pawn on its goal rank.
fn random_boards(seed: u64, n: usize) -> Vec<Board> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            let (rows, cols) = (2 + rng.below(5), 2 + rng.below(5));
            let max = if rows * cols <= 16 { 6 } else { 4 };
            let mut cells = vec![vec!['.'; cols as usize]; rows as usize];
            for (pawn, count) in [('P', rng.below(max + 1)), ('p', rng.below(max + 1))] {
                for _ in 0..count {
                    // White pawns on rows 1.., black on rows ..R-1; give up on a full board.
                    let r = if pawn == 'P' { 1 + rng.below(rows - 1) } else { rng.below(rows - 1) };
                    let c = rng.below(cols);
                    if cells[r as usize][c as usize] == '.' {
                        cells[r as usize][c as usize] = pawn;
                    }
                }
            }
            Board { rows: cells.into_iter().map(|r| r.into_iter().collect()).collect() }
        })
        .collect()
}

// ---------------------------------------------------------------------------------
// The contest format

#[test]
fn sample_file_prints_the_expected_answers() {
    let path = example("pawns.txt");
    assert_eq!(ok(&["pawns", path.to_str().unwrap()], ""), SAMPLE_OUTPUT);
}

#[test]
fn reads_standard_input_without_a_file_and_with_dash() {
    assert_eq!(ok(&["pawns"], sample()), SAMPLE_OUTPUT);
    assert_eq!(ok(&["pawns", "-"], sample()), SAMPLE_OUTPUT);
}

#[test]
fn crlf_blank_lines_and_spaces() {
    let sample = sample();
    assert_eq!(ok(&["pawns"], sample.replace('\n', "\r\n")), SAMPLE_OUTPUT);
    // No final line break.
    assert_eq!(ok(&["pawns"], sample.trim_end()), SAMPLE_OUTPUT);
    assert_eq!(ok(&["pawns"], sample.trim_end().replace('\n', "\r\n")), SAMPLE_OUTPUT);
    // Blank lines (some with spaces, tabs or CR) before the count, between and after
    // the boards; spaces after every line and before the count.
    let mut spaced = String::from("\n \n\t\r\n");
    for line in sample.lines() {
        if line.is_empty() {
            spaced.push_str("  \n\r\n\n");
        } else {
            spaced.push_str(line);
            spaced.push_str("   \t\r\n");
        }
    }
    spaced.push_str("\n\n  \n");
    assert_eq!(ok(&["pawns"], format!("  {spaced}")), SAMPLE_OUTPUT);
    // No blank line between the count and the first board.
    assert_eq!(ok(&["pawns"], sample.replacen("2\n\n", "2\n", 1)), SAMPLE_OUTPUT);
    // Spaces before the rows.
    let indented: String = sample.lines().map(|l| format!("  {l}\n")).collect();
    assert_eq!(ok(&["pawns"], indented), SAMPLE_OUTPUT);
}

#[test]
fn zero_cases_print_nothing() {
    assert_eq!(ok(&["pawns"], "0\n"), "");
    assert_eq!(ok(&["pawns"], "\n0\n\n"), "");
}

#[test]
fn boards_of_several_sizes_in_one_input() {
    let input = uva(&sizes_boards());
    assert_eq!(read(&data("pawns-sizes.txt")), input, "the data file matches SIZES");
    let path = data("pawns-sizes.txt");
    assert_eq!(ok(&["pawns", path.to_str().unwrap()], ""), sizes_output());
    assert_eq!(ok(&["pawns"], input.replace('\n', "\r\n")), sizes_output());
    assert_eq!(oracle_output(&sizes_boards(), true), sizes_output(), "the oracle agrees with SIZES");
}

#[test]
fn hexapawn_and_octapawn_on_their_own() {
    // Gardner 1962: Hexapawn is a second-player win in 6 plies; Octapawn a
    // first-player win in 11.
    assert_eq!(ok(&["pawns"], "1\n\nppp\n...\nPPP\n"), "black (6)\n");
    assert_eq!(ok(&["pawns"], "1\n\npppp\n....\n....\nPPPP\n"), "white (11)\n");
}

#[test]
fn random_boards_agree_with_the_oracle() {
    let boards = random_boards(0x9e37_79b9_7f4a_7c15, 150);
    let input = uva(&boards);
    assert_eq!(ok(&["pawns"], input.clone()), oracle_output(&boards, true), "white to move");
    assert_eq!(ok(&["pawns", "--black-to-move"], input), oracle_output(&boards, false), "black to move");
}

#[test]
fn more_pawns_than_columns_are_fine_in_cases() {
    // Only --summary limits the pawns (to C a side); a case may have more.
    let boards: Vec<Board> = ["..../pppp/PPPP/PPPP", "ppp./pppp/PPPP/PP.P", "pp/pp/PP/PP", "ppp/ppp/PPP/PPP"]
        .iter()
        .map(|b| Board::new(b))
        .collect();
    let input = uva(&boards);
    assert_eq!(ok(&["pawns"], input.clone()), oracle_output(&boards, true));
    assert_eq!(ok(&["pawns", "--black-to-move"], input), oracle_output(&boards, false));
}

// ---------------------------------------------------------------------------------
// --black-to-move

/// Black to move on a board is white to move on the mirrored board with the colours
/// swapped: the same count, the other winner.
fn check_mirror(boards: &[Board]) {
    let black = ok(&["pawns", "--black-to-move"], uva(boards));
    let mirrored: Vec<Board> = boards.iter().map(Board::mirrored).collect();
    let white = ok(&["pawns"], uva(&mirrored));
    let (black, white): (Vec<&str>, Vec<&str>) = (black.lines().collect(), white.lines().collect());
    assert_eq!(black.len(), boards.len());
    assert_eq!(white.len(), boards.len());
    for ((board, b), w) in boards.iter().zip(&black).zip(&white) {
        assert_eq!(swap_colours(b), *w, "{board:?} with black to move, and mirrored with white to move");
        // Black to move: the count is odd exactly when black wins.
        let (side, x) = parse_answer(b);
        assert_eq!(side == "black", x % 2 == 1, "{board:?}: {b}");
    }
}

#[test]
fn black_to_move_is_the_mirror_of_white_to_move() {
    check_mirror(&sizes_boards());
    check_mirror(&random_boards(7, 40));
}

#[test]
fn black_to_move_known_answers() {
    // The sample with black to move; Hexapawn and Octapawn with black first are the
    // mirror images of white first.
    let boards: Vec<Board> = [
        "ppp/.../PPP",
        "pppp/..../..../PPPP",
        "p./.P",
        "p......./......../......../......../......../......../......../.......P",
    ]
    .iter()
    .map(|b| Board::new(b))
    .collect();
    assert_eq!(ok(&["pawns", "--black-to-move"], uva(&boards)), "white (6)\nblack (11)\nblack (1)\nblack (13)\n");
    let sample_black = ok(&["pawns", "--black-to-move"], sample());
    let sample_boards = &sizes_boards()[..2];
    assert_eq!(sample_black, oracle_output(sample_boards, false));
}

// ---------------------------------------------------------------------------------
// --explain and --json

/// One `--explain` block: the lines from `case N: ...` up to the next.
fn explain_blocks(text: &str) -> Vec<Vec<&str>> {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    for line in text.lines() {
        if line.starts_with("case ") {
            blocks.push(Vec::new());
        }
        blocks.last_mut().expect("output starts with a case line").push(line);
    }
    blocks
}

/// Checks `--explain` output: per case the contest line, the side to move and its
/// value, numbered plies 1..=x for the answer x, and an end line. Returns the plies
/// of each case as shown (`white (3,3) -> (2,3)`).
fn check_explain(text: &str, answers: &[String], to_move: &str) -> Vec<Vec<String>> {
    let blocks = explain_blocks(text);
    assert_eq!(blocks.len(), answers.len(), "one block per case:\n{text}");
    let mut all = Vec::new();
    for (i, (block, answer)) in blocks.iter().zip(answers).enumerate() {
        let case = i + 1;
        assert_eq!(block[0], format!("case {case}: {answer}"), "contest line of case {case}");
        let (winner, x) = parse_answer(answer);
        let kind = if winner == to_move { "win" } else { "loss" };
        let value = block[1].trim();
        assert!(
            value == format!("{to_move} to move: {kind} in {x} plies")
                || value == format!("{to_move} to move: {kind} in {x} ply"),
            "case {case}: {value:?} for {answer:?}"
        );
        let plies = &block[2..block.len() - 1];
        assert_eq!(plies.len(), x as usize, "case {case}: {answer:?} but {} plies:\n{block:#?}", plies.len());
        let mut shown = Vec::new();
        for (k, ply) in plies.iter().enumerate() {
            let rest = ply.trim().strip_prefix(&format!("{}. ", k + 1));
            let rest = rest.unwrap_or_else(|| panic!("case {case}: ply {} is {ply:?}", k + 1));
            let side = if (k % 2 == 0) == (to_move == "white") { "white" } else { "black" };
            assert!(rest.starts_with(&format!("{side} (")), "case {case}: ply {} is {ply:?}", k + 1);
            shown.push(rest.to_string());
        }
        let end = block[block.len() - 1].trim();
        assert!(end.starts_with("end: "), "case {case}: {block:#?}");
        all.push(shown);
    }
    all
}

/// Parses `--json` output: one object a line.
fn json_lines(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON object: {e}\n{l}"))).collect()
}

/// A cell of the JSON line, `[row, col]` from 1, as a bit.
fn cell(v: &Value, cols: u32) -> u32 {
    let rc: Vec<u32> = v.as_array().expect("[row, col]").iter().map(|n| n.as_u64().expect("a number") as u32).collect();
    assert_eq!(rc.len(), 2, "{v}");
    assert!(rc[0] >= 1 && rc[1] >= 1 && rc[1] <= cols, "{v}");
    (rc[0] - 1) * cols + rc[1] - 1
}

/// Checks one JSON case against the board and the oracle: the fields, and the line
/// of play, replayed: every ply is a legal move of the side whose turn it is, from
/// the cell where that pawn stands, keeping the value optimal (the remoteness falls
/// by one a ply), and the line ends as `end` says.
fn check_json_case(object: &Value, case: usize, board: &Board, white: bool, oracle: &mut Oracle) {
    let to_move = if white { "white" } else { "black" };
    assert!(object.is_object(), "{object}");
    assert_eq!(object["case"], case, "{object}");
    assert_eq!(object["to_move"], to_move, "{object}");
    let answer = object["answer"].as_str().expect("answer is a string");
    assert_eq!(answer, oracle.answer(board, white), "{object}");
    let (winner, x) = parse_answer(answer);
    assert_eq!(object["value"], if winner == to_move { "win" } else { "loss" }, "{object}");
    assert_eq!(object["remoteness"], x, "{object}");
    assert!(object["repeats_after_ply"].is_null(), "{object}");
    let line = object["line"].as_array().expect("line is an array");
    assert_eq!(line.len(), x as usize, "remoteness = plies shown: {object}");

    let cols = board.width();
    let (mut w, mut b) = board.bits();
    let mut side = white;
    let mut last_to = None;
    for (k, ply) in line.iter().enumerate() {
        assert_eq!(ply["ply"], k + 1, "{object}");
        assert_eq!(ply["side"], if side { "white" } else { "black" }, "ply {} of {object}", k + 1);
        let (from, to) = (cell(&ply["from"], cols), cell(&ply["to"], cols));
        let mine = if side { w } else { b };
        assert!(mine >> from & 1 == 1, "ply {}: no {} pawn stands at {}: {object}", k + 1, ply["side"], ply["from"]);
        assert!(oracle.moves(w, b, side).contains(&(from, to)), "ply {} is not a legal move: {object}", k + 1);
        (w, b) = Oracle::play(w, b, side, (from, to));
        side = !side;
        // Optimal: the side to move now has the rest of the line to go.
        let left = x - k as u32 - 1;
        let expected = if (side == white) == (winner == to_move) { Val::Win(left) } else { Val::Loss(left) };
        assert_eq!(oracle.value(w, b, side), expected, "after ply {}: {object}", k + 1);
        last_to = Some(ply["to"].clone());
    }
    // The game is over: the last mover reached its far rank, or the side to move has
    // no move.
    let end = object["end"].as_str().expect("end is a string");
    let last_mover_goal = if side { b & oracle.black_goal() } else { w & oracle.white_goal() };
    if last_mover_goal != 0 {
        let to = last_to.expect("a line");
        let mover = if side { "black" } else { "white" };
        let to = format!("({},{})", to[0], to[1]);
        assert_eq!(end, format!("{mover} reaches the far rank at {to}"), "{object}");
    } else {
        assert!(oracle.moves(w, b, side).is_empty(), "the line stops before the end: {object}");
        assert_eq!(end, format!("{} cannot move and loses", if side { "white" } else { "black" }), "{object}");
    }
}

/// The explain ply text for a JSON ply: `white (3,3) -> (2,3)`.
fn ply_text(ply: &Value) -> String {
    let rc = |v: &Value| format!("({},{})", v[0], v[1]);
    format!("{} {} -> {}", ply["side"].as_str().unwrap(), rc(&ply["from"]), rc(&ply["to"]))
}

/// Runs --explain and --json on the boards with this side to move and checks both.
fn check_explain_and_json(boards: &[Board], white: bool) {
    let input = uva(boards);
    let side_flag: &[&str] = if white { &[] } else { &["--black-to-move"] };
    let args = |extra: &'static str| [&["pawns", extra][..], side_flag].concat();
    let answers: Vec<String> = ok(&args("-"), input.clone()).lines().map(String::from).collect();
    let to_move = if white { "white" } else { "black" };
    let explained = check_explain(&ok(&args("--explain"), input.clone()), &answers, to_move);
    let objects = json_lines(&ok(&args("--json"), input));
    assert_eq!(objects.len(), boards.len());
    let mut oracles: HashMap<(u32, u32), Oracle> = HashMap::new();
    for (i, (object, board)) in objects.iter().zip(boards).enumerate() {
        let oracle = oracles
            .entry((board.height(), board.width()))
            .or_insert_with(|| Oracle::new(board.height(), board.width()));
        check_json_case(object, i + 1, board, white, oracle);
        assert_eq!(object["answer"], answers[i], "{object}");
        let plies: Vec<String> = object["line"].as_array().unwrap().iter().map(ply_text).collect();
        assert_eq!(plies, explained[i], "--explain and --json show the same line for case {}", i + 1);
    }
}

#[test]
fn explain_shows_the_sample_lines() {
    let text = ok(&["pawns", "--explain"], sample());
    let blocks = explain_blocks(&text);
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0][0], "case 1: white (7)");
    assert_eq!(blocks[0][1].trim(), "white to move: win in 7 plies");
    assert_eq!(blocks[0].len(), 2 + 7 + 1);
    assert!(blocks[0][9].trim().starts_with("end: white reaches the far rank at (1,"), "{:?}", blocks[0]);
    assert_eq!(blocks[1][0], "case 2: black (2)");
    assert_eq!(blocks[1][1].trim(), "white to move: loss in 2 plies");
    assert_eq!(blocks[1].len(), 2 + 2 + 1);
    assert!(blocks[1][4].trim().starts_with("end: black reaches the far rank at (4,"), "{:?}", blocks[1]);
}

#[test]
fn explain_and_json_lines_are_legal_and_optimal() {
    check_explain_and_json(&sizes_boards(), true);
    check_explain_and_json(&sizes_boards(), false);
}

#[test]
fn explain_and_json_lines_of_random_boards() {
    let boards = random_boards(0x1234_5678, 60);
    check_explain_and_json(&boards, true);
    check_explain_and_json(&boards, false);
}

#[test]
fn json_with_no_move_at_the_start() {
    let objects = json_lines(&ok(&["pawns", "--json"], "1\n\npp.\n...\n...\n"));
    assert_eq!(objects.len(), 1);
    let o = &objects[0];
    assert_eq!(o["answer"], "black (0)", "{o}");
    assert_eq!(o["value"], "loss", "{o}");
    assert_eq!(o["remoteness"], 0, "{o}");
    assert_eq!(o["line"], serde_json::json!([]), "{o}");
    assert_eq!(o["end"], "white cannot move and loses", "{o}");
}

#[test]
fn explain_and_json_together_is_a_usage_error() {
    let m = fails(&["pawns", "--explain", "--json"], sample());
    assert!(m.contains("--json") && m.contains("--explain"), "{m}");
}

// ---------------------------------------------------------------------------------
// --summary

/// A text summary, read back.
#[derive(Debug)]
struct Summary {
    positions: u64,
    /// Remoteness → [white to move wins, losses, black to move wins, losses].
    table: BTreeMap<u32, [u64; 4]>,
    total: [u64; 4],
    /// The longest win and a position with it, in plain notation.
    longest: (u32, String),
}

fn parse_summary(text: &str, rows: u32, cols: u32) -> Summary {
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 6, "{text}");
    let rest = lines[0].strip_prefix(&format!("pawns {rows}x{cols}: ")).unwrap_or_else(|| panic!("header: {text}"));
    let (positions, rest) = rest.split_once(' ').unwrap();
    assert!(rest.starts_with("positions"), "{text}");
    let positions: u64 = positions.parse().unwrap_or_else(|_| panic!("position count: {text}"));
    assert!(lines[1].contains("white to move") && lines[1].contains("black to move"), "{text}");
    assert_eq!(lines[2].split_whitespace().collect::<Vec<_>>(), ["remoteness", "wins", "losses", "wins", "losses"]);
    let numbers = |tokens: &[&str]| -> [u64; 4] {
        let n: Vec<u64> = tokens.iter().map(|t| t.parse().unwrap_or_else(|_| panic!("{t:?} in {text}"))).collect();
        n.try_into().unwrap_or_else(|_| panic!("four counts a row: {text}"))
    };
    let mut table = BTreeMap::new();
    let mut i = 3;
    while let Some(tokens) = lines.get(i).map(|l| l.split_whitespace().collect::<Vec<_>>()) {
        if tokens[0] == "total" {
            break;
        }
        assert_eq!(tokens.len(), 5, "{:?} in {text}", lines[i]);
        let r: u32 = tokens[0].parse().unwrap_or_else(|_| panic!("remoteness {:?} in {text}", tokens[0]));
        assert!(table.last_key_value().is_none_or(|(&last, _)| r > last), "remoteness ascending: {text}");
        let row = numbers(&tokens[1..]);
        assert!(row.iter().any(|&n| n > 0), "an empty row {r}: {text}");
        table.insert(r, row);
        i += 1;
    }
    let tokens: Vec<&str> = lines.get(i).unwrap_or_else(|| panic!("no total row: {text}")).split_whitespace().collect();
    assert_eq!(tokens.len(), 5, "{text}");
    let total = numbers(&tokens[1..]);
    let longest = lines.get(i + 1).and_then(|l| l.strip_prefix("longest win: ")).unwrap_or_else(|| panic!("{text}"));
    let (n, example) = longest.split_once(" plies, e.g. ").unwrap_or_else(|| panic!("{longest:?}"));
    assert_eq!(lines.len(), i + 2, "nothing after the longest win: {text}");
    Summary { positions, table, total, longest: (n.parse().unwrap(), example.to_string()) }
}

/// `[[r, n], ...]` as a map.
fn by_remoteness(v: &Value) -> BTreeMap<u32, u64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|p| (p[0].as_u64().unwrap() as u32, p[1].as_u64().unwrap()))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// Runs `--summary` in text and JSON and checks them: one header with the position
/// count, remoteness ascending, the total row, both sides alike (colour symmetry),
/// wins and losses adding up to the position count, the JSON the same as the text,
/// and the longest win's example re-solved through the contest format.
fn check_summary(rows: u32, cols: u32, positions: u64) -> Summary {
    let (r, c) = (rows.to_string(), cols.to_string());
    let args = ["pawns", "--rows", &r, "--cols", &c, "--summary"];
    let out = run(&args, "");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stderr.is_empty(), "no progress bar when standard error is not a terminal: {}", out.stderr);
    let s = parse_summary(&out.stdout, rows, cols);
    assert_eq!(s.positions, positions, "{}", out.stdout);
    for k in 0..4 {
        assert_eq!(s.table.values().map(|row| row[k]).sum::<u64>(), s.total[k], "column {k} adds up: {}", out.stdout);
    }
    assert_eq!(s.total.iter().sum::<u64>(), positions, "every position is won or lost: {}", out.stdout);
    for (r, row) in &s.table {
        assert_eq!(row[0..2], row[2..4], "colour symmetry at remoteness {r}: {}", out.stdout);
        // Wins take an odd number of plies (or none: the mover already stands on the
        // far rank), losses an even number.
        if r % 2 == 0 && *r > 0 {
            assert_eq!((row[0], row[2]), (0, 0), "win in {r}: {}", out.stdout);
        }
        if r % 2 == 1 {
            assert_eq!((row[1], row[3]), (0, 0), "loss in {r}: {}", out.stdout);
        }
    }
    let max_win = s.table.iter().filter(|(_, row)| row[0] + row[2] > 0).map(|(&r, _)| r).max().unwrap();
    assert_eq!(s.longest.0, max_win, "{}", out.stdout);

    // JSON: the same counts.
    let json = ok(&[&args[..], &["--json"]].concat(), "");
    let objects = json_lines(&json);
    assert_eq!(objects.len(), 1, "{json}");
    let o = &objects[0];
    assert_eq!(o["rows"], rows, "{o}");
    assert_eq!(o["cols"], cols, "{o}");
    assert_eq!(o["max_pawns_per_side"], cols, "{o}");
    assert_eq!(o["positions"], positions, "{o}");
    let mut sum = 0;
    for (k, side) in ["white_to_move", "black_to_move"].iter().enumerate() {
        let wins = by_remoteness(&o[side]["wins_by_remoteness"]);
        let losses = by_remoteness(&o[side]["losses_by_remoteness"]);
        let text_wins: BTreeMap<u32, u64> =
            s.table.iter().filter(|(_, row)| row[2 * k] > 0).map(|(&r, row)| (r, row[2 * k])).collect();
        let text_losses: BTreeMap<u32, u64> =
            s.table.iter().filter(|(_, row)| row[2 * k + 1] > 0).map(|(&r, row)| (r, row[2 * k + 1])).collect();
        assert_eq!(wins, text_wins, "{side}: {o}");
        assert_eq!(losses, text_losses, "{side}: {o}");
        assert_eq!(o[side]["wins"], s.total[2 * k], "{o}");
        assert_eq!(o[side]["losses"], s.total[2 * k + 1], "{o}");
        sum += o[side]["wins"].as_u64().unwrap() + o[side]["losses"].as_u64().unwrap();
    }
    assert_eq!(sum, positions, "{o}");
    assert_eq!(o["white_to_move"], o["black_to_move"], "colour symmetry: {o}");
    assert_eq!(o["longest_win"]["remoteness"], s.longest.0, "{o}");
    assert_eq!(o["longest_win"]["position"], s.longest.1, "{o}");

    // The example, solved again as a contest case: the side to move wins in N plies.
    let (n, notation) = &s.longest;
    let (board, white) = Board::from_notation(notation);
    assert_eq!((board.height(), board.width()), (rows, cols), "{notation}");
    let side_flag: &[&str] = if white { &[] } else { &["--black-to-move"] };
    let answer = ok(&[&["pawns"][..], side_flag].concat(), uva(std::slice::from_ref(&board)));
    let mover = if white { "white" } else { "black" };
    assert_eq!(answer, format!("{mover} ({n})\n"), "the longest win's example {notation}");
    assert_eq!(Oracle::new(rows, cols).answer(&board, white), format!("{mover} ({n})"), "{notation}");
    s
}

/// The oracle's summary: every position of the tight index (at most C pawns a side,
/// no white pawn on row 0, no black pawn on the last row), either side to move,
/// counted as in the summary's table.
fn oracle_summary(rows: u32, cols: u32) -> (u64, BTreeMap<u32, [u64; 4]>) {
    let mut oracle = Oracle::new(rows, cols);
    let full = (1u64 << (rows * cols)) - 1;
    let first_row = (1u64 << cols) - 1;
    let last_row = first_row << ((rows - 1) * cols);
    let mut table: BTreeMap<u32, [u64; 4]> = BTreeMap::new();
    let mut positions = 0;
    for w in 0..=full {
        if w.count_ones() > cols || w & first_row != 0 {
            continue;
        }
        let free = full & !w & !last_row;
        let mut b = free;
        loop {
            if b.count_ones() <= cols {
                for (k, white) in [(0, true), (2, false)] {
                    positions += 1;
                    match oracle.value(w, b, white) {
                        Val::Win(r) => table.entry(r).or_default()[k] += 1,
                        Val::Loss(r) => table.entry(r).or_default()[k + 1] += 1,
                    }
                }
            }
            if b == 0 {
                break;
            }
            b = (b - 1) & free;
        }
    }
    (positions, table)
}

#[test]
fn summary_3x3() {
    let s = check_summary(3, 3, 2140);
    let (positions, table) = oracle_summary(3, 3);
    assert_eq!(positions, 2140);
    assert_eq!(s.table, table, "the oracle's counts");
    // Hexapawn's 6-ply loss is the longest game; the longest win is shorter.
    assert_eq!(s.table.keys().max(), Some(&6));
    assert_eq!(s.longest.0, 5);
}

#[test]
fn summary_3x4() {
    let s = check_summary(3, 4, 25_892);
    let (positions, table) = oracle_summary(3, 4);
    assert_eq!(positions, 25_892);
    assert_eq!(s.table, table, "the oracle's counts");
}

#[test]
fn summary_4x3_and_2x2() {
    // Positions: the tight index's (no pawn on its own goal rank).
    let s = check_summary(4, 3, 19_252);
    assert_eq!(s.table, oracle_summary(4, 3).1, "the oracle's counts");
    let s = check_summary(2, 2, oracle_summary(2, 2).0);
    assert_eq!(s.table, oracle_summary(2, 2).1, "the oracle's counts");
}

#[test]
fn summary_4x4() {
    let start = Instant::now();
    let s = check_summary(4, 4, 564_244);
    // Octapawn's 11 plies are not the longest: some positions last 13.
    assert_eq!(s.longest.0, 13);
    eprintln!("4x4 summary checks: {:?}", start.elapsed());
}

/// The 5×5 start gives the value of the strong solution (docs/performance.md,
/// "Results") whatever the thread count. (Its search, 23 k positions, stays on
/// one thread: a pawns case waits 2^22 positions for the others. The parallel
/// search of pawns is checked against the layered solve in the games crate's
/// tests.)
#[test]
fn the_answer_does_not_depend_on_the_thread_count() {
    let start = "1\n\nppppp\n.....\n.....\n.....\nPPPPP\n";
    for threads in ["1", "2"] {
        assert_eq!(ok(&["--threads", threads, "pawns"], start), "white (19)\n", "{threads}");
    }
}

#[test]
fn summary_is_the_same_with_one_thread() {
    let args = ["pawns", "--rows", "3", "--cols", "4", "--summary"];
    let one = ok(&[&["-j", "1"][..], &args].concat(), "");
    let two = ok(&[&["--threads", "2"][..], &args].concat(), "");
    assert_eq!(one, two);
    assert_eq!(one, ok(&args, ""));
}

// ---------------------------------------------------------------------------------
// Bad input

/// Runs `gsolve pawns` on bad input from standard input and checks the failure:
/// exit status 2, no panic, no output, a one-line message with this place
/// (`case C, line L[, column K]: `, or `line L: `) and every word. Returns it.
fn bad(input: impl Into<Vec<u8>>, place: &str, words: &[&str]) -> String {
    let input = input.into();
    let shown = String::from_utf8_lossy(&input).into_owned();
    let m = fails(&["pawns"], input);
    let place = format!("gsolve: standard input: {place}: ");
    assert!(m.starts_with(&place), "for {shown:?} expected {place:?} in the message:\n{m}");
    for word in words {
        assert!(m.contains(word), "for {shown:?} expected {word:?} in the message:\n{m}");
    }
    assert_eq!(m.lines().count(), 1, "a one-line message:\n{m}");
    m
}

/// A valid 4×4 board, its rows and the blank line after it: 5 lines.
const GOOD_BOARD: &str = ".ppp\n....\n.PPP\n....\n\n";

/// Checks a bad board three ways: as the only case (`1`, a blank line, the rows: the
/// rows start on line 3), as the second case after a good board (5 lines later), and
/// with CRLF line ends. `line` counts from the board's first row (1).
fn bad_board(rows: &str, line: usize, column: Option<usize>, words: &[&str]) {
    let place = |case: usize, line: usize| match column {
        Some(col) => format!("case {case}, line {line}, column {col}"),
        None => format!("case {case}, line {line}"),
    };
    bad(format!("1\n\n{rows}"), &place(1, line + 2), words);
    bad(format!("2\n\n{GOOD_BOARD}{rows}"), &place(2, line + 7), words);
    bad(format!("1\n\n{rows}").replace('\n', "\r\n"), &place(1, line + 2), words);
}

#[test]
fn count_larger_than_the_boards() {
    let sample = sample();
    bad(sample.replacen('2', "3", 1), "case 3, line 11", &["announces 3 boards but has 2", "truncated"]);
    bad(sample.replacen('2', "50", 1), "case 3, line 11", &["announces 50 boards but has 2"]);
    bad("1\n", "case 1, line 1", &["announces 1 board but has 0"]);
    // Trailing blank lines: the last line.
    bad(format!("3\n\n{GOOD_BOARD}\n\n"), "case 2, line 9", &["announces 3 boards but has 1"]);
}

#[test]
fn count_smaller_than_the_boards() {
    let sample = sample();
    bad(sample.replacen('2', "1", 1), "case 2, line 8", &["announces 1 board (line 1) but has more"]);
    bad(sample.replacen('2', "0", 1), "case 1, line 3", &["announces 0 boards (line 1) but has more"]);
    // A blank line inside a board splits it in two.
    bad("1\n\n.ppp\n....\n\n.PPP\n....\n", "case 2, line 6", &["announces 1 board", "but has more"]);
}

#[test]
fn count_not_a_number() {
    for count in ["x", "two", "-1", "2.0", "1 1", "99999999999999999999"] {
        let m =
            bad(format!("{count}\n\n{GOOD_BOARD}"), "line 1", &["expected the number of cases", &format!("{count:?}")]);
        assert!(!m.contains("case 1"), "{m}");
    }
    // A board where the count belongs.
    bad(GOOD_BOARD, "line 1", &["expected the number of cases", "\".ppp\""]);
    // The count after blank lines: its own line.
    bad("\n\nx\n", "line 3", &["expected the number of cases"]);
    let m = fails(&["pawns"], "");
    assert!(m.contains("empty input") && m.contains("number of cases"), "{m}");
    let m = fails(&["pawns"], "\n  \n\r\n");
    assert!(m.contains("empty input"), "{m}");
}

#[test]
fn unequal_row_widths() {
    bad_board(".ppp\n...\n.PPP\n....\n", 2, None, &["row 2 has 3 cells", "first row has 4"]);
    bad_board(".ppp\n....\n.PPP\n.....\n", 4, None, &["row 4 has 5 cells", "first row has 4"]);
    bad_board("ppp\n....\nPPP\n", 2, None, &["row 2 has 4 cells", "first row has 3"]);
}

#[test]
fn unknown_character() {
    bad_board(".ppp\n..x.\n.PPP\n....\n", 2, Some(3), &["unknown character 'x'", "P, p or ."]);
    // A knight, a zero, a space inside a row, a non-ASCII letter (columns count
    // characters).
    bad_board(".ppp\n....\n.PNP\n....\n", 3, Some(3), &["unknown character 'N'"]);
    bad_board("0ppp\n....\n.PPP\n....\n", 1, Some(1), &["unknown character '0'"]);
    bad_board(".ppp\n. ..\n.PPP\n....\n", 2, Some(2), &["unknown character ' '"]);
    bad_board(".ppp\n....\né.PP\n....\n", 3, Some(1), &["unknown character 'é'"]);
    // U+00A0 is whitespace two bytes long: columns count characters.
    bad_board(".ppp\n....\n\u{a0}..x.\n....\n", 3, Some(4), &["unknown character 'x'"]);
    // Spaces before a row shift the column.
    bad_board(".ppp\n  ..x.\n.PPP\n....\n", 2, Some(5), &["unknown character 'x'"]);
}

#[test]
fn white_pawn_on_the_first_row() {
    bad_board("Pppp\n....\n.PPP\n....\n", 1, Some(1), &["white pawn", "goal rank", "first row"]);
    bad_board("ppP\n...\nPP.\n", 1, Some(3), &["white pawn", "first row"]);
}

#[test]
fn black_pawn_on_the_last_row() {
    bad_board(".ppp\n....\n.PPP\n..p.\n", 4, Some(3), &["black pawn", "goal rank", "last row"]);
    bad_board("p.\n.p\n", 2, Some(2), &["black pawn", "last row"]);
}

#[test]
fn board_too_large_or_too_small() {
    let nine: String = (0..9)
        .map(|r| {
            if r == 0 {
                "pppp\n"
            } else if r == 8 {
                "PPPP\n"
            } else {
                "....\n"
            }
        })
        .collect();
    bad_board(&nine, 1, None, &["9x4", "2 to 8"]);
    bad_board("pppppppp.\n.........\nPPPPPPPP.\n", 1, None, &["3x9", "2 to 8"]);
    bad_board("p\n.\n.\nP\n", 1, None, &["4x1", "2 to 8"]);
    bad_board("pppp\n", 1, None, &["1x4", "2 to 8"]);
    bad_board("P\n", 1, None, &["1x1"]);
}

#[test]
fn largest_and_smallest_boards_are_accepted() {
    let boards: Vec<Board> = [
        SIZES[7].0,
        "p......./.......P",
        "p./.P",
        "..p...p./......../..P...../......../......../.p....../....P.../P.......",
        "p.p...../......../......../......../......../......../......../........",
    ]
    .iter()
    .map(|b| Board::new(b))
    .collect();
    let input = uva(&boards);
    let out = ok(&["pawns"], input.clone());
    assert_eq!(out, oracle_output(&boards, true));
    assert!(out.starts_with(&format!("{}\nwhite (1)\nwhite (1)\n", SIZES[7].1)), "{out}");
    assert!(out.ends_with("black (0)\n"), "{out}");
    assert_eq!(ok(&["pawns", "--black-to-move"], input), oracle_output(&boards, false));
}

#[test]
fn error_in_a_file_names_the_file_case_line_and_column() {
    let path = data("pawns-bad-char.txt");
    let r = run(&["pawns", path.to_str().unwrap()], "");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(r.stderr.contains("pawns-bad-char.txt: case 2, line 10, column 3: unknown character 'x'"), "{}", r.stderr);
}

#[test]
fn missing_file_and_non_utf8_input() {
    let path = data("no-such-file.txt");
    let m = fails(&["pawns", path.to_str().unwrap()], "");
    assert!(m.contains("no-such-file.txt"), "{m}");
    let m = fails(&["pawns"], b"1\n\n.pp\xff\n....\n".to_vec());
    assert!(m.contains("line 3, column 4") && m.contains("UTF-8"), "{m}");
}

// ---------------------------------------------------------------------------------
// Usage errors

#[test]
fn summary_usage_errors() {
    let cases: [&[&str]; 14] = [
        &["pawns", "--summary"],
        &["pawns", "--summary", "--rows", "3"],
        &["pawns", "--summary", "--cols", "3"],
        &["pawns", "--summary", "--rows", "9", "--cols", "3"],
        &["pawns", "--summary", "--rows", "3", "--cols", "9"],
        &["pawns", "--summary", "--rows", "1", "--cols", "3"],
        &["pawns", "--summary", "--rows", "3", "--cols", "0"],
        &["pawns", "--summary", "--rows", "-3", "--cols", "3"],
        &["pawns", "--summary", "--rows", "x", "--cols", "3"],
        &["pawns", "--rows", "3", "--cols", "3"],
        &["pawns", "--rows", "3"],
        &["pawns", "--summary", "--rows", "3", "--cols", "3", "examples/pawns.txt"],
        &["pawns", "--summary", "--rows", "3", "--cols", "3", "--explain"],
        &["pawns", "--summary", "--rows", "3", "--cols", "3", "--black-to-move"],
    ];
    for args in cases {
        fails(args, sample());
    }
    let m = fails(&["pawns", "--summary"], "");
    assert!(m.contains("--rows") && m.contains("--cols"), "{m}");
    let m = fails(&["pawns", "--rows", "3", "--cols", "3"], sample());
    assert!(m.contains("--summary"), "{m}");
    let m = fails(&["pawns", "--summary", "--rows", "9", "--cols", "3"], "");
    assert!(m.contains("9") && m.contains("2..=8"), "{m}");
    let m = fails(&["pawns", "--summary", "--rows", "3", "--cols", "3", "-"], "");
    assert!(m.contains("--summary"), "{m}");
}

#[test]
fn summary_of_a_board_too_large_is_refused_at_once() {
    // Over the 8·10⁹ positions a summary keeps in memory (5×6 has 2.2·10¹⁰).
    for (rows, cols) in [("6", "6"), ("5", "6"), ("8", "8"), ("5", "8"), ("7", "6")] {
        let start = Instant::now();
        let m = fails(&["pawns", "--rows", rows, "--cols", cols, "--summary"], "");
        assert!(start.elapsed() < Duration::from_secs(10), "{rows}x{cols} took {:?}", start.elapsed());
        assert!(m.contains(&format!("{rows}x{cols}")) && m.contains("strong solve"), "{m}");
        assert_eq!(m.lines().count(), 1, "{m}");
        let m = fails(&["pawns", "--rows", rows, "--cols", cols, "--summary", "--json"], "");
        assert!(m.contains(&format!("{rows}x{cols}")), "{m}");
    }
}

#[test]
fn help_mentions_the_options() {
    let help = ok(&["pawns", "--help"], "");
    for option in ["--black-to-move", "--explain", "--json", "--summary", "--rows", "--cols"] {
        assert!(help.contains(option), "{option} in:\n{help}");
    }
    assert!(ok(&["--help"], "").contains("pawns"));
}
