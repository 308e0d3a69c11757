//! End-to-end tests of `gsolve queens-case` and `gsolve chase`: the contest formats,
//! `--explain` and `--json`, and the handling of bad input (GAMES.md §1–2).

mod common;

use common::{data, example, ok, read, run};
use serde_json::Value;

/// The answers to `examples/queens-case.txt` (GAMES.md §1).
const QUEENS_SAMPLE_ANSWERS: [&str; 6] = [
    "Queen can not escape and Army can not catch Queen.",
    "Army can catch Queen.",
    "Queen can escape.",
    "Queen can not escape and Army can not catch Queen.",
    "Army can catch Queen.",
    "Army can catch Queen.",
];

/// `tests/data/chase-sizes.txt`, one case a line, and its answers. The small ones
/// were checked against an independent brute-force solver; `20 1 2 1 20` is one of
/// the n = 20 cases with the largest answer, 58 (GAMES.md §2).
const CHASE_SIZES: [(&str, &str); 8] = [
    ("2 1 1 2 2", "BLACK 2"),
    ("3 1 1 1 2", "WHITE 1"),
    ("3 1 1 3 3", "BLACK 6"),
    ("4 2 2 3 3", "BLACK 6"),
    ("5 1 1 5 5", "BLACK 10"),
    ("6 3 4 3 5", "WHITE 1"),
    ("20 1 1 20 20", "BLACK 56"),
    ("20 1 2 1 20", "BLACK 58"),
];

fn queens_sample() -> String {
    read(&example("queens-case.txt"))
}

fn queens_sample_output() -> String {
    QUEENS_SAMPLE_ANSWERS.iter().map(|a| format!("{a}\n")).collect()
}

/// Runs `gsolve <game>` on bad input from standard input and checks the failure:
/// exit status 2, no panic, no output for the bad case, and a message that starts
/// with exactly this place (`case C, line L[, column K]:`) and contains every word.
/// Returns the message.
fn bad(
    game: &str,
    input: impl Into<Vec<u8>>,
    case: usize,
    line: usize,
    column: Option<usize>,
    words: &[&str],
) -> String {
    let input = input.into();
    let shown = String::from_utf8_lossy(&input).into_owned();
    let r = run(&[game], input);
    assert_eq!(r.code, Some(2), "gsolve {game} should reject {shown:?}\nstdout: {}\nstderr: {}", r.stdout, r.stderr);
    assert!(r.stdout.lines().count() < case, "output for the bad case {case} of {shown:?}:\n{}", r.stdout);
    let place = match column {
        Some(col) => format!("case {case}, line {line}, column {col}: "),
        None => format!("case {case}, line {line}: "),
    };
    assert!(r.stderr.contains(&place), "for {shown:?} expected {place:?} in the message:\n{}", r.stderr);
    for word in words {
        assert!(r.stderr.contains(word), "for {shown:?} expected {word:?} in the message:\n{}", r.stderr);
    }
    assert_eq!(r.stderr.lines().count(), 1, "a one-line message:\n{}", r.stderr);
    r.stderr
}

/// A valid map taking 4 lines with the blank line after it.
const GOOD_MAP: &str = "2 2\nQE\nEA\n\n";
/// A valid chase case taking 2 lines with the blank line after it.
const GOOD_CASE: &str = "2 1 1 2 2\n\n";

/// Checks a bad Queen's Case input three ways: as the first map, as the second map
/// after a good one (case and line shift), and with CRLF line ends.
fn bad_map(input: &str, line: usize, column: Option<usize>, words: &[&str]) {
    bad("queens-case", input, 1, line, column, words);
    bad("queens-case", format!("{GOOD_MAP}{input}"), 2, line + 4, column, words);
    bad("queens-case", input.replace('\n', "\r\n"), 1, line, column, words);
}

/// The same for chase: first case, second case after a good one, CRLF.
fn bad_case(input: &str, line: usize, column: Option<usize>, words: &[&str]) {
    bad("chase", input, 1, line, column, words);
    bad("chase", format!("{GOOD_CASE}{input}"), 2, line + 2, column, words);
    bad("chase", input.replace('\n', "\r\n"), 1, line, column, words);
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

// ---------------------------------------------------------------------------------
// Queen's Case: formats

#[test]
fn queens_sample_file_prints_the_expected_answers() {
    let path = example("queens-case.txt");
    assert_eq!(ok(&["queens-case", path.to_str().unwrap()], ""), queens_sample_output());
}

/// The contest line answers an escape that walking distances prove without solving
/// (`QueensCase::escape_by_distance`); `--explain` always solves. Both must agree.
#[test]
fn queens_answers_without_a_solve_agree_with_the_solve() {
    let bench_maps = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../benches/data/queens-case-30x30-five-maps-2-exits.txt");
    for path in [example("queens-case.txt"), bench_maps] {
        let path = path.to_str().unwrap();
        let contest = ok(&["queens-case", path], "");
        let explained = ok(&["queens-case", "--explain", path], "");
        let answers: Vec<String> = explained
            .lines()
            .filter_map(|l| l.strip_prefix("case ").and_then(|l| l.split_once(": ")).map(|(_, a)| a.to_string()))
            .collect();
        assert_eq!(lines(&contest), answers, "{path}");
        assert!(answers.len() >= 5, "{path}: {answers:?}");
    }
}

/// Chase's contest line comes from the bit-parallel solve of the start, `--explain`
/// from the whole board's solve: both must agree.
#[test]
fn chase_answers_of_the_bitwise_solve_agree_with_the_whole_solve() {
    let path = data("chase-sizes.txt");
    let path = path.to_str().unwrap();
    let contest = ok(&["chase", path], "");
    let explained = ok(&["chase", "--explain", path], "");
    let answers: Vec<&str> = explained
        .lines()
        .filter_map(|l| l.strip_prefix("case ").and_then(|l| l.split_once(": ")).map(|(_, a)| a))
        .collect();
    assert_eq!(lines(&contest), answers);
    assert_eq!(answers, CHASE_SIZES.map(|(_, answer)| answer));
}

/// `--retrograde` (every position by the engine) prints what the default ways
/// print, in every style, for both pursuit games.
#[test]
fn retrograde_solves_print_the_same_as_the_default_ways() {
    let one_exit = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../benches/data/queens-case-30x30-five-maps-1-exit.txt");
    let files =
        [("queens-case", example("queens-case.txt")), ("queens-case", one_exit), ("chase", data("chase-sizes.txt"))];
    for (game, path) in &files {
        let path = path.to_str().unwrap();
        for style in [None, Some("--explain"), Some("--json")] {
            let args = |retrograde: bool| {
                let mut args = vec![*game];
                args.extend(style);
                args.extend(retrograde.then_some("--retrograde"));
                args.push(path);
                args
            };
            assert_eq!(ok(&args(false), ""), ok(&args(true), ""), "{game} {style:?} {path}");
        }
    }
}

#[test]
fn queens_reads_standard_input_without_a_file_and_with_dash() {
    assert_eq!(ok(&["queens-case"], queens_sample()), queens_sample_output());
    assert_eq!(ok(&["queens-case", "-"], queens_sample()), queens_sample_output());
}

#[test]
fn queens_input_without_the_final_zero_line() {
    let sample = queens_sample();
    let without = sample.trim_end().strip_suffix("0 0").expect("the sample ends with `0 0`");
    assert_eq!(ok(&["queens-case"], without), queens_sample_output());
    // Nor a final line break.
    assert_eq!(ok(&["queens-case"], without.trim_end()), queens_sample_output());
}

#[test]
fn queens_ignores_what_follows_the_zero_line() {
    let input = format!("{}\nthis is not a map\n", queens_sample());
    assert_eq!(ok(&["queens-case"], input), queens_sample_output());
}

#[test]
fn queens_crlf_line_ends() {
    let crlf = queens_sample().replace('\n', "\r\n");
    assert_eq!(ok(&["queens-case"], crlf), queens_sample_output());
}

#[test]
fn queens_blank_lines_and_trailing_spaces_between_maps() {
    let mut spaced = String::from("\n\n");
    for line in queens_sample().lines() {
        // A blank line (one with spaces) before every size line.
        if line.contains(' ') {
            spaced.push_str("   \n\n");
        }
        spaced.push_str(line);
        spaced.push_str("  \n");
    }
    spaced.push_str("\n\n");
    assert_eq!(ok(&["queens-case"], spaced), queens_sample_output());
}

#[test]
fn queens_empty_input_prints_nothing() {
    assert_eq!(ok(&["queens-case"], ""), "");
    assert_eq!(ok(&["queens-case"], "0 0\n"), "");
}

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

/// Checks `--explain` output against the contest answers: per case the contest line,
/// who is to move, numbered plies 1..=k and an end line; k is the remoteness for a
/// win or a loss. Returns each case's value line.
fn check_explain(text: &str, answers: &[&str], to_move: &str) -> Vec<String> {
    let blocks = explain_blocks(text);
    assert_eq!(blocks.len(), answers.len(), "one block per case:\n{text}");
    let mut values = Vec::new();
    for (i, (block, answer)) in blocks.iter().zip(answers).enumerate() {
        assert_eq!(block[0], format!("case {}: {answer}", i + 1), "contest line of case {}", i + 1);
        let value = block[1].trim();
        assert!(value.starts_with(&format!("{to_move} to move: ")), "case {}: {value:?}", i + 1);
        let plies: Vec<&str> = block[2..block.len() - 1].iter().map(|l| l.trim()).collect();
        for (k, ply) in plies.iter().enumerate() {
            assert!(ply.starts_with(&format!("{}. ", k + 1)), "case {}: ply {} is {ply:?}", i + 1, k + 1);
        }
        assert!(block[block.len() - 1].trim().starts_with("end: "), "case {}: {block:?}", i + 1);
        // `win in 8 plies` / `loss in 8 plies`: count the plies shown.
        if let Some(rest) = value.split(" in ").nth(1) {
            let r: usize = rest.trim_end_matches(" plies").trim_end_matches(" ply").parse().expect("a remoteness");
            assert_eq!(plies.len(), r, "case {}: {value:?} but {} plies shown", i + 1, plies.len());
        } else {
            assert!(value.contains("draw"), "case {}: {value:?}", i + 1);
            assert!(!plies.is_empty(), "case {}: a draw shows the plies up to a repetition", i + 1);
        }
        values.push(value.to_string());
    }
    values
}

#[test]
fn queens_explain_shows_the_answer_side_and_one_line_per_ply() {
    let text = ok(&["queens-case", "--explain"], queens_sample());
    let values = check_explain(&text, &QUEENS_SAMPLE_ANSWERS, "queen");
    for (value, answer) in values.iter().zip(QUEENS_SAMPLE_ANSWERS) {
        let kind = match answer {
            "Queen can escape." => "win",
            "Army can catch Queen." => "loss",
            _ => "draw",
        };
        assert!(value.contains(kind), "{value:?} for {answer:?}");
    }
    // Map 5 (`A.E.Q`): the queen cannot move without meeting the army; it walks 4 cells.
    let map5 = &explain_blocks(&text)[4];
    assert!(map5[1].contains("loss in 8"), "{map5:?}");
}

/// Parses `--json` output: one object a line.
fn json_lines(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON object: {e}\n{l}"))).collect()
}

/// Checks the fields every JSON case has, and the line of play: plies numbered from
/// 1, sides alternating from the side to move, and each piece moving from where it
/// last stood. Returns the number of plies.
fn check_json_case(object: &Value, case: usize, answer: &str, to_move: &str, sides: [&str; 2]) -> usize {
    assert!(object.is_object(), "{object}");
    assert_eq!(object["case"], case, "{object}");
    assert_eq!(object["answer"], answer, "{object}");
    assert_eq!(object["to_move"], to_move, "{object}");
    assert!(object["end"].is_string(), "{object}");
    let line = object["line"].as_array().expect("line is an array");
    let mut at: [Option<&Value>; 2] = [None, None];
    for (k, ply) in line.iter().enumerate() {
        assert_eq!(ply["ply"], k + 1, "{object}");
        let side = if k % 2 == 0 {
            to_move
        } else if to_move == sides[0] {
            sides[1]
        } else {
            sides[0]
        };
        assert_eq!(ply["side"], side, "ply {} of {object}", k + 1);
        let who = usize::from(side == sides[1]);
        if let Some(prev) = at[who] {
            assert_eq!(&ply["from"], prev, "ply {} starts where the piece stood: {object}", k + 1);
        }
        at[who] = Some(&ply["to"]);
    }
    match object["value"].as_str().expect("value is a string") {
        "win" | "loss" => {
            assert_eq!(object["remoteness"].as_u64(), Some(line.len() as u64), "remoteness = plies shown: {object}");
            assert!(object["repeats_after_ply"].is_null(), "{object}");
        }
        "draw" => {
            assert!(object["remoteness"].is_null(), "{object}");
            assert!(object["repeats_after_ply"].is_u64(), "{object}");
        }
        other => panic!("unexpected value {other:?}: {object}"),
    }
    line.len()
}

#[test]
fn queens_json_one_object_per_line() {
    let text = ok(&["queens-case", "--json"], queens_sample());
    let objects = json_lines(&text);
    assert_eq!(objects.len(), 6);
    for (i, (object, answer)) in objects.iter().zip(QUEENS_SAMPLE_ANSWERS).enumerate() {
        check_json_case(object, i + 1, answer, "queen", ["queen", "army"]);
        let expected = match answer {
            "Queen can escape." => "win",
            "Army can catch Queen." => "loss",
            _ => "draw",
        };
        assert_eq!(object["value"], expected, "{object}");
    }
    // The draw sample maps: 1 and 4.
    for i in [0, 3] {
        assert_eq!(objects[i]["value"], "draw");
        assert!(objects[i]["remoteness"].is_null());
    }
    assert_eq!(objects[4]["remoteness"], 8);
}

#[test]
fn explain_and_json_together_is_a_usage_error() {
    for game in ["queens-case", "chase"] {
        let r = run(&[game, "--explain", "--json"], "");
        assert_eq!(r.code, Some(2), "{}", r.stderr);
        assert!(r.stdout.is_empty());
        assert!(r.stderr.contains("--json") && r.stderr.contains("--explain"), "{}", r.stderr);
    }
}

// ---------------------------------------------------------------------------------
// Queen's Case: bad input

#[test]
fn queens_missing_queen() {
    bad_map("2 2\n.E\nEA\n", 1, None, &["no queen 'Q'"]);
}

#[test]
fn queens_missing_army() {
    bad_map("2 2\nQE\nE.\n", 1, None, &["no army 'A'"]);
}

#[test]
fn queens_no_exit() {
    bad_map("3 2\nQ..\n#.A\n", 1, None, &["no exit 'E'"]);
}

#[test]
fn queens_doubled_queen_names_both() {
    let m = bad("queens-case", "3 2\n.QE\nEQA\n", 1, 3, Some(2), &["second queen", "line 2, column 2"]);
    assert!(m.contains("'Q'"), "{m}");
    bad("queens-case", format!("{GOOD_MAP}3 2\n.QE\nEQA\n"), 2, 7, Some(2), &["second queen", "line 6, column 2"]);
    // On the same row.
    bad("queens-case", "4 1\nQAQE\n", 1, 2, Some(3), &["second queen", "line 2, column 1"]);
}

#[test]
fn queens_doubled_army_names_both() {
    bad("queens-case", "3 2\nAQE\n.EA\n", 1, 3, Some(3), &["second army", "line 2, column 1"]);
    bad("queens-case", format!("{GOOD_MAP}3 2\nAQE\n.EA\n"), 2, 7, Some(3), &["second army", "line 6, column 1"]);
}

#[test]
fn queens_unknown_character_gives_the_column() {
    bad_map("3 2\nQAE\n.x.\n", 3, Some(2), &["unknown character 'x'"]);
    // Lower case letters are not pieces.
    bad_map("3 1\nqAE\n", 2, Some(1), &["unknown character 'q'"]);
    bad_map("3 1\nQAé\n", 2, Some(3), &["unknown character 'é'"]);
    // Columns count characters, not bytes (U+00A0 is whitespace, two bytes long).
    bad_map("3\u{a0}x\n", 1, Some(3), &["\"x\"", "not a whole number"]);
    // A tab inside a row.
    bad_map("3 1\nQ\tE\n", 2, Some(2), &["unknown character"]);
}

#[test]
fn queens_row_too_long() {
    bad_map("3 2\nQAE\n....\n", 3, Some(4), &["row 2 has 4 characters, expected 3"]);
}

#[test]
fn queens_row_too_short() {
    bad_map("3 2\nQAE\n..\n", 3, Some(3), &["row 2 has 2 characters, expected 3"]);
    bad_map("3 2\nQA\n...\n", 2, Some(3), &["row 1 has 2 characters, expected 3"]);
}

#[test]
fn queens_blank_line_inside_a_map() {
    bad_map("3 2\nQAE\n\n...\n", 3, None, &["row 2 of 2 is blank"]);
}

#[test]
fn queens_truncated_file_mid_map() {
    bad_map("3 3\nQAE\n...\n", 3, None, &["truncated", "2 of 3 rows"]);
    bad_map("3 3\n", 1, None, &["truncated", "0 of 3 rows"]);
    // And without the final line break.
    bad_map("3 3\nQAE\n...", 3, None, &["truncated"]);
}

#[test]
fn queens_next_size_line_where_a_row_is_expected() {
    // The second map says 2 rows but has 1: its next line is the third map's size.
    bad_map("3 2\nQAE\n4 1\nQAE.\n", 3, None, &["expected row 2 of 2", "size line", "\"4 1\""]);
    // The size line has exactly the width of a row.
    bad_map("3 2\nQAE\n3 1\nQAE\n", 3, None, &["expected row 2 of 2", "size line", "\"3 1\""]);
    // The final `0 0` too early.
    bad_map("3 2\nQAE\n0 0\n", 3, None, &["expected row 2 of 2", "\"0 0\""]);
}

#[test]
fn queens_size_not_two_numbers() {
    bad_map("a 3\n", 1, Some(1), &["\"a\"", "not a whole number"]);
    bad_map("3 b\n", 1, Some(3), &["\"b\"", "not a whole number"]);
    bad_map("-1 2\n", 1, Some(1), &["\"-1\"", "not a whole number"]);
    bad_map("2.5 2\n", 1, Some(1), &["\"2.5\"", "not a whole number"]);
    bad_map("3\n", 1, None, &["expected the map size `W H`", "\"3\""]);
    bad_map("3 4 5\n", 1, None, &["expected the map size `W H`", "\"3 4 5\""]);
    // A map row where a size line belongs.
    bad_map("QAE\n", 1, None, &["expected the map size `W H`"]);
}

#[test]
fn queens_size_out_of_range() {
    bad_map("0 5\n", 1, None, &["0x5", "out of range", "1 to 1000"]);
    bad_map("5 0\n", 1, None, &["5x0", "out of range"]);
    bad_map("1001 1\n", 1, None, &["1001x1", "out of range", "1 to 1000"]);
    bad_map("1 1001\n", 1, None, &["1x1001", "out of range"]);
    // Too large even for a machine word.
    bad_map("99999999999999999999 1\n", 1, Some(1), &["out of range"]);
}

#[test]
fn queens_too_many_open_cells() {
    let mut map = String::from("200 200\nQAE");
    map.push_str(&".".repeat(197));
    map.push('\n');
    for _ in 1..200 {
        map.push_str(&".".repeat(200));
        map.push('\n');
    }
    bad_map(&map, 1, None, &["40000 open cells", "at most 20000"]);
}

#[test]
fn queens_largest_side_is_accepted() {
    // 1000 x 1 and 1 x 1000, mostly walls: the queen is cornered.
    let row = format!("QA{}E", "#".repeat(997));
    assert_eq!(ok(&["queens-case"], format!("1000 1\n{row}\n")), "Army can catch Queen.\n");
    let column: String = row.chars().map(|c| format!("{c}\n")).collect();
    assert_eq!(ok(&["queens-case"], format!("1 1000\n{column}")), "Army can catch Queen.\n");
}

#[test]
fn queens_nonexistent_file() {
    let path = data("no-such-file.txt");
    let r = run(&["queens-case", path.to_str().unwrap()], "");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("no-such-file.txt"), "{}", r.stderr);
    let r = run(&["chase", path.to_str().unwrap()], "");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("no-such-file.txt"), "{}", r.stderr);
}

#[test]
fn queens_error_in_a_file_names_the_file_case_line_and_column() {
    let path = data("queens-case-bad-char.txt");
    let r = run(&["queens-case", path.to_str().unwrap()], "");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stdout.lines().count() < 2, "{}", r.stdout);
    assert!(r.stderr.contains("queens-case-bad-char.txt"), "{}", r.stderr);
    assert!(r.stderr.contains("case 2, line 7, column 3: unknown character 'x'"), "{}", r.stderr);
}

#[test]
fn queens_non_utf8_input() {
    let path = data("queens-case-latin1.txt");
    let r = run(&["queens-case", path.to_str().unwrap()], "");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("queens-case-latin1.txt") && r.stderr.contains("UTF-8"), "{}", r.stderr);
    let r = run(&["queens-case"], std::fs::read(&path).unwrap());
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("standard input") && r.stderr.contains("UTF-8"), "{}", r.stderr);
    let r = run(&["chase"], b"2 1 1 2 \xff\n".to_vec());
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("UTF-8"), "{}", r.stderr);
}

// ---------------------------------------------------------------------------------
// Chase: formats

fn chase_sizes_output() -> String {
    CHASE_SIZES.iter().map(|(_, a)| format!("{a}\n")).collect()
}

#[test]
fn chase_sample_file_prints_black_2() {
    let path = example("chase.txt");
    assert_eq!(ok(&["chase", path.to_str().unwrap()], ""), "BLACK 2\n");
    assert_eq!(ok(&["chase"], read(&path)), "BLACK 2\n");
    assert_eq!(ok(&["chase", "-"], read(&path)), "BLACK 2\n");
}

#[test]
fn chase_several_cases_of_different_sizes() {
    let input: String = CHASE_SIZES.iter().map(|(c, _)| format!("{c}\n")).collect();
    assert_eq!(read(&data("chase-sizes.txt")), input, "the data file matches CHASE_SIZES");
    let path = data("chase-sizes.txt");
    assert_eq!(ok(&["chase", path.to_str().unwrap()], ""), chase_sizes_output());
    assert_eq!(ok(&["chase"], input.clone()), chase_sizes_output());
    // CRLF, blank lines, no final line break.
    let crlf = format!("\r\n{}\r\n", input.trim_end().replace('\n', "\r\n\r\n"));
    assert_eq!(ok(&["chase"], crlf.trim_end()), chase_sizes_output());
    // Extra spaces and tabs.
    let spaced = input.replace(' ', " \t ");
    assert_eq!(ok(&["chase"], spaced), chase_sizes_output());
}

#[test]
fn chase_a_case_may_span_lines() {
    assert_eq!(ok(&["chase"], "2\n1 1\n2 2\n3 1 1 1 2\n"), "BLACK 2\nWHITE 1\n");
    assert_eq!(ok(&["chase"], "2 1 1 2 2 3 1 1 1 2\n"), "BLACK 2\nWHITE 1\n");
}

#[test]
fn chase_n20_facts() {
    // White on (1,2) against every black cell: WHITE 1 exactly when adjacent,
    // otherwise black wins in an even number of plies, at most 58.
    let mut input = String::new();
    let mut cells = Vec::new();
    for r in 1..=20 {
        for c in 1..=20 {
            if (r, c) != (1, 2) {
                input.push_str(&format!("20 1 2 {r} {c}\n"));
                cells.push((r, c));
            }
        }
    }
    let out = ok(&["chase"], input);
    let answers = lines(&out);
    assert_eq!(answers.len(), cells.len());
    let mut longest = 0;
    for (&(r, c), answer) in cells.iter().zip(&answers) {
        let adjacent = (r - 1i32).abs() + (c - 2i32).abs() == 1;
        if adjacent {
            assert_eq!(*answer, "WHITE 1", "black at ({r},{c})");
        } else {
            let x: u32 =
                answer.strip_prefix("BLACK ").unwrap_or_else(|| panic!("({r},{c}): {answer}")).parse().unwrap();
            assert!(x.is_multiple_of(2), "black captures on its own ply: ({r},{c}): {answer}");
            longest = longest.max(x);
        }
    }
    assert_eq!(longest, 58);
}

#[test]
fn chase_explain_counts_the_plies() {
    let input: String = CHASE_SIZES.iter().map(|(c, _)| format!("{c}\n")).collect();
    let text = ok(&["chase", "--explain"], input);
    let answers: Vec<&str> = CHASE_SIZES.iter().map(|(_, a)| *a).collect();
    let values = check_explain(&text, &answers, "white");
    for (value, answer) in values.iter().zip(&answers) {
        // `BLACK x` is a loss for white in x plies, `WHITE x` a win.
        let (side, x) = answer.split_once(' ').unwrap();
        let kind = if side == "WHITE" { "win" } else { "loss" };
        assert!(
            value.ends_with(&format!("{kind} in {x} plies")) || value.ends_with(&format!("{kind} in {x} ply")),
            "{value:?} for {answer:?}"
        );
    }
}

#[test]
fn chase_json_one_object_per_line() {
    let input: String = CHASE_SIZES.iter().map(|(c, _)| format!("{c}\n")).collect();
    let text = ok(&["chase", "--json"], input);
    let objects = json_lines(&text);
    assert_eq!(objects.len(), CHASE_SIZES.len());
    for (i, (object, (case, answer))) in objects.iter().zip(CHASE_SIZES).enumerate() {
        let plies = check_json_case(object, i + 1, answer, "white", ["white", "black"]);
        let (side, x) = answer.split_once(' ').unwrap();
        assert_eq!(object["value"], if side == "WHITE" { "win" } else { "loss" }, "{object}");
        assert_eq!(plies.to_string(), x, "{object}");
        // The line starts from the input's cells and ends with a capture.
        let n: Vec<u64> = case.split(' ').map(|t| t.parse().unwrap()).collect();
        let line = object["line"].as_array().unwrap();
        assert_eq!(line[0]["from"], serde_json::json!([n[1], n[2]]), "{object}");
        if line.len() > 1 {
            assert_eq!(line[1]["from"], serde_json::json!([n[3], n[4]]), "{object}");
        }
        let last = &line[line.len() - 1];
        let other = if line.len() >= 2 { line[line.len() - 2]["to"].clone() } else { serde_json::json!([n[3], n[4]]) };
        assert_eq!(last["to"], other, "the last ply captures: {object}");
    }
}

// ---------------------------------------------------------------------------------
// Chase: bad input

#[test]
fn chase_board_size_out_of_range() {
    bad_case("1 1 1 1 1\n", 1, Some(1), &["n = 1", "out of range 2..=100"]);
    bad_case("101 1 1 2 2\n", 1, Some(1), &["n = 101", "out of range"]);
    bad_case("0 1 1 2 2\n", 1, Some(1), &["n = 0", "out of range"]);
    bad_case("  7000000000 1 1 2 2\n", 1, Some(3), &["7000000000 is out of range"]);
}

#[test]
fn chase_coordinates_off_the_board() {
    bad_case("5 0 1 2 2\n", 1, Some(3), &["r1 = 0", "off the 5x5 board"]);
    bad_case("5 1 0 2 2\n", 1, Some(5), &["c1 = 0"]);
    bad_case("5 1 1 0 2\n", 1, Some(7), &["r2 = 0"]);
    bad_case("5 1 1 2 0\n", 1, Some(9), &["c2 = 0"]);
    bad_case("5 6 1 2 2\n", 1, Some(3), &["r1 = 6", "off the 5x5 board"]);
    bad_case("5 1 6 2 2\n", 1, Some(5), &["c1 = 6"]);
    bad_case("5 1 1 6 2\n", 1, Some(7), &["r2 = 6"]);
    bad_case("5 1 1 2 6\n", 1, Some(9), &["c2 = 6"]);
    bad_case("20 1 1 21 2\n", 1, Some(8), &["r2 = 21", "off the 20x20 board"]);
}

#[test]
fn chase_both_pieces_on_one_cell() {
    bad_case("5 2 3 2 3\n", 1, Some(7), &["both pieces", "(2,3)"]);
}

#[test]
fn chase_not_a_number() {
    bad_case("5 1 x 2 2\n", 1, Some(5), &["\"x\"", "not a whole number"]);
    bad_case("5 1 1 -2 2\n", 1, Some(7), &["\"-2\"", "not a whole number"]);
    bad_case("5 1 1 2 2.0\n", 1, Some(9), &["\"2.0\"", "not a whole number"]);
    bad_case("five 1 1 2 2\n", 1, Some(1), &["\"five\""]);
    // Columns count characters, not bytes (U+00A0 is whitespace, two bytes long).
    bad_case("5\u{a0}1 1 2 x\n", 1, Some(9), &["\"x\""]);
}

#[test]
fn chase_truncated_case() {
    bad_case("5 1 1 2\n", 1, None, &["truncated", "found 4"]);
    bad_case("5\n", 1, None, &["truncated", "found 1"]);
    bad_case("5 1\n1\n", 2, None, &["truncated", "found 3"]);
}

#[test]
fn chase_short_case_followed_by_another_is_blamed_correctly() {
    // Case 1 lacks a number: reading on would take case 2's `5` as its c2 (valid on
    // 5x5) and then report case 2 as truncated. The short line is case 1's.
    bad("chase", "5 1 1 2\n5 1 1 3 3\n", 1, 1, None, &["has 4 on this line", "line 2"]);
    bad("chase", "2 1 1 2 2\n\n5 1 1 2\n5 1 1 3 3\n2 1 1 2 2\n", 2, 3, None, &["has 4"]);
    // The misread case 1 would even be off the board: still blamed on line 1.
    bad("chase", "3 1 1 2\n5 1 1 3 3\n", 1, 1, None, &["has 4"]);
}

#[test]
fn chase_long_case_followed_by_another_is_blamed_correctly() {
    // Case 1 has a number too many: the sixth would start case 2 and take its rest
    // from line 2.
    bad("chase", "5 1 1 2 2 3\n4 1 1 2\n", 2, 1, Some(11), &["a number too many", "line 2"]);
    bad("chase", "5 1 1 2 2 3\n4 1 1 2 2\n", 2, 1, Some(11), &["a number too many"]);
}

#[test]
fn chase_error_in_the_second_case_names_it_and_its_line() {
    bad("chase", "2 1 1 2 2\n5 1 1 6 2\n", 2, 2, Some(7), &["r2 = 6"]);
    bad("chase", "2 1 1 2 2\r\n\r\n\r\n5 1 1 2 x\r\n", 2, 4, Some(9), &["\"x\""]);
    // Two cases on one line.
    bad("chase", "2 1 1 2 2 3 1 1 1 1\n", 2, 1, Some(17), &["both pieces"]);
}

// ---------------------------------------------------------------------------------
// Help and version

#[test]
fn help_and_version() {
    for args in [&["--help"][..], &["queens-case", "--help"], &["chase", "--help"], &["--version"], &["help"]] {
        let out = ok(args, "");
        assert!(!out.is_empty(), "gsolve {args:?} printed nothing");
    }
    assert!(ok(&["--version"], "").starts_with("gsolve "));
    assert!(ok(&["--help"], "").contains("queens-case"));
    assert!(ok(&["queens-case", "--help"], "").contains("--explain"));
}

#[test]
fn usage_errors_exit_2() {
    for args in [&[][..], &["no-such-game"], &["queens-case", "--no-such-flag"], &["queens-case", "a", "b"]] {
        let r = run(args, "");
        assert_eq!(r.code, Some(2), "gsolve {args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    }
}
