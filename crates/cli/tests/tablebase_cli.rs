//! End-to-end tests of `gsolve build`, `probe`, `verify` and `info`: answers agree
//! with the contest commands, a damaged file fails verification naming the position
//! or block, and bad files give clear errors with exit status 2.

mod common;

use common::{ok, run, Scratch};
use gsolve_engine::{Indexed, PackedValue, Value};
use gsolve_games::chase::Chase;
use gsolve_games::notation::PlainNotation;
use gsolve_tablebase::{write, Tablebase, WriteOptions};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Expects exit status 2, nothing on standard output and a message; returns it.
fn fails(args: &[&str]) -> String {
    let message = common::fails(args, "");
    assert!(message.starts_with("gsolve: "), "gsolve {args:?}: no message: {message}");
    message
}

fn build_pawns(dir: &Scratch, rows: u32, cols: u32) -> PathBuf {
    let path = dir.path(&format!("pawns-{rows}x{cols}.gtb"));
    let out = ok(&["build", "pawns", "--rows", &rows.to_string(), "--cols", &cols.to_string(), "-o", s(&path)], "");
    assert!(out.contains("pawns rows=") && out.contains(" positions"), "{out}");
    path
}

fn probe_json(file: &Path, position: &str) -> Json {
    let out = ok(&["probe", s(file), position, "--json"], "");
    serde_json::from_str(out.trim()).unwrap()
}

/// The value a JSON object describes.
fn value_of(object: &Json) -> Option<Value> {
    let r = object["remoteness"].as_u64().map(|r| r as u32);
    match object["value"].as_str()? {
        "win" => Some(Value::Win(r?)),
        "loss" => Some(Value::Loss(r?)),
        "tie" => Some(Value::Tie(r?)),
        "draw" => Some(Value::Draw),
        other => panic!("unknown value {other}"),
    }
}

// ---------------------------------------------------------------------------------
// build and probe

#[test]
fn build_writes_one_file_and_refuses_to_overwrite() {
    let dir = Scratch::new("overwrite");
    let path = build_pawns(&dir, 3, 3);
    assert_eq!(dir.files(), ["pawns-3x3.gtb"], "no temporary file left behind");
    let before = std::fs::read(&path).unwrap();
    let message = fails(&["build", "pawns", "--rows", "3", "--cols", "4", "-o", s(&path)]);
    assert!(message.contains("exists") && message.contains("--force"), "{message}");
    assert_eq!(std::fs::read(&path).unwrap(), before, "the file is untouched");
    ok(&["build", "pawns", "--rows", "3", "--cols", "4", "-o", s(&path), "--force"], "");
    assert_eq!(Tablebase::open(&path).unwrap().header().parameters[0], ("rows".into(), "3".into()));
    assert_eq!(Tablebase::open(&path).unwrap().header().parameters[1], ("cols".into(), "4".into()));
    assert_eq!(dir.files(), ["pawns-3x3.gtb"]);
}

#[test]
fn probe_pawns_known_starts_and_every_move() {
    let dir = Scratch::new("probe-pawns");
    let p33 = build_pawns(&dir, 3, 3);
    let p44 = build_pawns(&dir, 4, 4);
    // Hexapawn: black wins in 6; Octapawn: white wins in 11 (GAMES.md §3).
    let hexapawn = probe_json(&p33, "ppp/.../PPP w");
    assert_eq!(value_of(&hexapawn), Some(Value::Loss(6)));
    let octapawn = probe_json(&p44, "pppp/..../..../PPPP w");
    assert_eq!(value_of(&octapawn), Some(Value::Win(11)));
    assert_eq!(octapawn["to_move"], "white");
    // Every move is listed, best first, and its value is its child's, seen by the mover.
    for object in [&hexapawn, &octapawn] {
        let moves = object["moves"].as_array().unwrap();
        assert!(!moves.is_empty());
        let file = if object == &hexapawn { &p33 } else { &p44 };
        let values: Vec<Value> = moves.iter().map(|m| value_of(m).unwrap()).collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "best first: {values:?}");
        assert_eq!(values[0], value_of(object).unwrap(), "the best move has the position's value");
        for m in moves {
            let child = probe_json(file, m["position"].as_str().unwrap());
            assert_eq!(value_of(&child).unwrap().parent_view(), value_of(m).unwrap());
        }
    }
    let text = ok(&["probe", s(&p44), "pppp/..../..../PPPP w"], "");
    assert!(text.starts_with("pppp/..../..../PPPP w: win in 11, white to move\n"), "{text}");
    assert_eq!(text.lines().count(), 5, "the position and its 4 moves:\n{text}");
    assert!(text.contains("(4,1)->(3,1)") && text.contains("-> pppp/..../P.../.PPP b"), "{text}");
}

/// The tablebase agrees with `gsolve pawns` (alpha-beta search) on every 3×4 board
/// position with white to move that has a pawn a side and no pawn on a goal rank.
#[test]
fn probe_agrees_with_the_contest_command() {
    let dir = Scratch::new("agree");
    let file = build_pawns(&dir, 3, 4);
    let mut boards = Vec::new();
    let mut positions = Vec::new();
    // Middle row cells: white on row 2 or 3 (rows 1..3), black on row 1 or 2.
    for white in 1u32..(1 << 8) {
        for black in [0b0001u32, 0b0010, 0b1001, 0b0110 << 4] {
            let (w_rows, b_rows) = (white << 4, black);
            if w_rows & b_rows != 0 || positions.len() >= 40 {
                continue;
            }
            let cell = |i: u32| {
                if w_rows >> i & 1 == 1 {
                    'P'
                } else if b_rows >> i & 1 == 1 {
                    'p'
                } else {
                    '.'
                }
            };
            let rows: Vec<String> = (0..3).map(|r| (0..4).map(|c| cell(r * 4 + c)).collect()).collect();
            if rows[0].contains('P') || rows[2].contains('p') {
                continue;
            }
            boards.push(rows.join("\n"));
            positions.push(format!("{} w", rows.join("/")));
        }
    }
    let input = format!("{}\n\n{}\n", boards.len(), boards.join("\n\n"));
    let answers = ok(&["pawns"], input);
    let mut args = vec!["probe", s(&file), "--json"];
    args.extend(positions.iter().map(String::as_str));
    let probes = ok(&args, "");
    for ((answer, probe), position) in answers.lines().zip(probes.lines()).zip(&positions) {
        let value = value_of(&serde_json::from_str(probe).unwrap()).unwrap();
        let expected = match value {
            Value::Win(r) => format!("white ({r})"),
            Value::Loss(r) => format!("black ({r})"),
            other => panic!("{position}: {other}"),
        };
        assert_eq!(answer, expected, "{position}");
    }
    assert_eq!(answers.lines().count(), positions.len());
}

#[test]
fn chase_and_queens_case_tablebases_agree_with_their_commands() {
    let dir = Scratch::new("pursuit");
    let chase = dir.path("chase-4.gtb");
    ok(&["build", "chase", "--size", "4", "-o", s(&chase)], "");
    for (r1, c1, r2, c2) in [(1, 1, 4, 4), (2, 2, 2, 3), (1, 4, 3, 1), (4, 4, 4, 2)] {
        let answer = ok(&["chase"], format!("4 {r1} {c1} {r2} {c2}\n"));
        let probe = probe_json(&chase, &format!("{r1},{c1} {r2},{c2} w"));
        let expected = match value_of(&probe).unwrap() {
            Value::Win(r) => format!("WHITE {r}\n"),
            Value::Loss(r) => format!("BLACK {r}\n"),
            _ => "DRAW\n".to_string(),
        };
        assert_eq!(answer, expected);
    }

    let map = dir.path("map.txt");
    std::fs::write(&map, "5 4\nQ...E\n.##..\n..#..\nE...A\n").unwrap();
    let queens = dir.path("queens.gtb");
    ok(&["build", "queens-case", s(&map), "-o", s(&queens)], "");
    let answer = ok(&["queens-case", s(&map)], "");
    let probe = probe_json(&queens, "1,1 4,5 q");
    let expected = match value_of(&probe).unwrap() {
        Value::Win(_) => "Queen can escape.\n",
        Value::Loss(_) => "Army can catch Queen.\n",
        _ => "Queen can not escape and Army can not catch Queen.\n",
    };
    assert_eq!(answer, expected);
    // The map travels in the file: probing needs nothing else.
    let info = ok(&["info", s(&queens), "--json"], "");
    let info: Json = serde_json::from_str(info.trim()).unwrap();
    assert_eq!(info["parameters"]["map"], "Q...E/.##../..#../E...A");
    let message = fails(&["probe", s(&queens), "2,2 4,5 q"]);
    assert!(message.contains("wall"), "{message}");
}

#[test]
fn probe_reports_bad_positions_with_their_column() {
    let dir = Scratch::new("bad-position");
    let file = build_pawns(&dir, 3, 3);
    let message = fails(&["probe", s(&file), "ppp/.../PPP w", "ppp/.../PPP x"]);
    assert!(message.contains("position 2") && message.contains("column 13"), "{message}");
    let message = fails(&["probe", s(&file), "pppp/..../PPPP w"]);
    assert!(message.contains("3x3"), "{message}");
    // A position of another game.
    let message = fails(&["probe", s(&file), "1,1 2,2 w"]);
    assert!(message.contains("pawns rows=3 cols=3"), "{message}");
}

// ---------------------------------------------------------------------------------
// verify

#[test]
fn verify_accepts_good_files() {
    let dir = Scratch::new("verify-ok");
    for file in [build_pawns(&dir, 3, 4), {
        let chase = dir.path("chase-5.gtb");
        ok(&["build", "chase", "--size", "5", "-o", s(&chase)], "");
        chase
    }] {
        let out = ok(&["verify", s(&file)], "");
        assert!(out.contains("every checksum matches"), "{out}");
        assert!(out.contains("every value follows from the rules"), "{out}");
    }
}

/// Rewrites a tablebase with one value replaced.
fn rewrite_with(source: &Path, target: &Path, index: u64, value: PackedValue) {
    let tablebase = Tablebase::open(source).unwrap();
    let table = tablebase.load(None).unwrap();
    let mut values: Vec<PackedValue> = (0..table.len()).map(|i| table.packed(i)).collect();
    values[index as usize] = value;
    let header = tablebase.header();
    let options = WriteOptions { force: true, ..WriteOptions::default() };
    let identity =
        write::Identity { game: &header.game, parameters: &header.parameters, index_version: header.index_version };
    write::write_values(target, &identity, values.as_slice(), &options, None).unwrap();
}

#[test]
fn verify_names_a_changed_value() {
    let dir = Scratch::new("verify-value");
    let good = build_pawns(&dir, 3, 3);
    let table = Tablebase::open(&good).unwrap().load(None).unwrap();
    // Change a few wins and losses to a remoteness 2 plies off, one at a time.
    let changed: Vec<u64> = (0..table.len())
        .filter(|&i| matches!(table.value(i).unwrap(), Some(Value::Win(r) | Value::Loss(r)) if r >= 3))
        .step_by(37)
        .take(4)
        .collect();
    assert_eq!(changed.len(), 4);
    for index in changed {
        let wrong = match table.value(index).unwrap().unwrap() {
            Value::Win(r) => Value::Win(r + 2),
            Value::Loss(r) => Value::Loss(r - 2),
            _ => unreachable!(),
        };
        let bad = dir.path("bad.gtb");
        rewrite_with(&good, &bad, index, PackedValue::pack(wrong));
        let r = run(&["verify", s(&bad)], "");
        assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
        let line = r.stdout.lines().find(|l| l.starts_with(&format!("FAIL position {index} ("))).unwrap_or_else(|| {
            panic!("position {index} not named:\n{}", r.stdout);
        });
        assert!(line.contains(&format!("stores {wrong}, but its children give")), "{line}");
        assert!(r.stderr.contains("verification failed"), "{}", r.stderr);
    }
}

#[test]
fn verify_names_a_damaged_block() {
    let dir = Scratch::new("verify-block");
    let file = dir.path("chase-20.gtb");
    ok(&["build", "chase", "--size", "20", "-o", s(&file)], "");
    let tablebase = Tablebase::open(&file).unwrap();
    assert!(tablebase.block_count() > 5);
    let block = 3;
    let entry = tablebase.block_entry(block).unwrap();
    let range = tablebase.header().block_range(block);
    drop(tablebase);
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[(entry.offset + entry.length as u64 / 2) as usize] ^= 0x10;
    std::fs::write(&file, bytes).unwrap();
    let r = run(&["verify", s(&file)], "");
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    let failed: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(
        failed,
        [format!(
            "FAIL block {block} (positions {}..{}): checksum mismatch (the block is damaged, or belongs to another place or file)",
            range.start, range.end
        )]
    );
    // Probing a position in that block is a clear error; other blocks still answer.
    let game = Chase::new(20);
    let damaged = game.format_position(&game.position(range.start + 5).unwrap());
    let message = fails(&["probe", s(&file), &damaged]);
    assert!(message.contains(&format!("block {block} (positions")) && message.contains("checksum"), "{message}");
    let clear_of_block = |i: &u64| {
        let position = game.position(*i).unwrap();
        let mut inside = range.contains(i);
        gsolve_engine::Game::for_each_child(&game, &position, |child| inside |= range.contains(&game.index(&child)));
        !inside
    };
    let fine = (0..game.index_size()).find(clear_of_block).unwrap();
    let fine = game.format_position(&game.position(fine).unwrap());
    assert!(ok(&["probe", s(&file), &fine], "").starts_with(&fine));
}

// ---------------------------------------------------------------------------------
// info

#[test]
fn info_counts_match_the_pawns_summary() {
    let dir = Scratch::new("info");
    let file = build_pawns(&dir, 3, 4);
    let info: Json = serde_json::from_str(ok(&["info", s(&file), "--json"], "").trim()).unwrap();
    let summary: Json =
        serde_json::from_str(ok(&["pawns", "--summary", "--rows", "3", "--cols", "4", "--json"], "").trim()).unwrap();
    for side in ["white_to_move", "black_to_move"] {
        for key in ["wins", "losses", "wins_by_remoteness", "losses_by_remoteness"] {
            assert_eq!(info["sides"][side][key], summary[side][key], "{side} {key}");
        }
        assert_eq!(info["sides"][side]["draws"], 0);
        assert_eq!(info["sides"][side]["ties"], 0);
    }
    assert_eq!(info["positions"], summary["positions"]);
    assert_eq!(info["longest_win"]["remoteness"], summary["longest_win"]["remoteness"]);
    assert_eq!(info["game"], "pawns");
    assert_eq!(info["format_version"], 3);
    let text = ok(&["info", s(&file)], "");
    assert!(text.contains("game        pawns"), "{text}");
    assert!(text.contains("longest win: "), "{text}");
}

/// `info` of a forged file whose positions each have their own remoteness (chase
/// 16: 131,072 positions, wins in 0 to 131,070 plies, losses near 2^30): the
/// remoteness below 16,384 one by one, above by ranges, so that the output stays
/// small (it was one row or entry a position, so the output and the memory grew
/// with the longest remoteness); every position counted; the file's digest printed.
#[test]
fn info_of_a_forged_file_stays_bounded_and_gives_the_digest() {
    let dir = Scratch::new("info-forged");
    let file = dir.path("forged.gtb");
    let game = Chase::new(16);
    let values: Vec<PackedValue> = (0..game.index_size() as u32)
        .map(|i| PackedValue::pack(if i % 2 == 0 { Value::Win(i) } else { Value::Loss((1 << 30) - 1 - i) }))
        .collect();
    let identity = write::Identity { game: "chase", parameters: &[("size".into(), "16".into())], index_version: 1 };
    write::write_values(&file, &identity, values.as_slice(), &WriteOptions::default(), None).unwrap();
    let digest = format!("{:032x}", Tablebase::open(&file).unwrap().file_digest());

    let json = ok(&["info", s(&file), "--json"], "");
    assert!(json.len() < 500_000, "{} bytes of JSON", json.len());
    let info: Json = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(info["file_digest"], digest.as_str());
    let sides = &info["sides"];
    let total: u64 = ["white_to_move", "black_to_move"]
        .iter()
        .map(|side| sides[side]["wins"].as_u64().unwrap() + sides[side]["losses"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 131_072);
    let list = |side: &str, key: &str| sides[side][key].as_array().unwrap().clone();
    let both = |key: &str| [list("white_to_move", key), list("black_to_move", key)].concat();
    let exact = both("wins_by_remoteness");
    assert!(exact.iter().all(|e| e[0].as_u64().unwrap() < 16_384), "remoteness past 16,383 listed one by one");
    assert_eq!(exact.len(), 8_192);
    // [first, last, count]: 16,384 to 32,767, 32,768 to 65,535, 65,536 to 131,071.
    let mut ranges: Vec<(u64, u64)> =
        both("wins_by_remoteness_range").iter().map(|r| (r[0].as_u64().unwrap(), r[1].as_u64().unwrap())).collect();
    ranges.sort_unstable();
    ranges.dedup();
    assert_eq!(ranges, [(16_384, 32_767), (32_768, 65_535), (65_536, 131_071)]);
    let losses = both("losses_by_remoteness_range");
    assert!(losses.iter().all(|r| r[0] == json!(1 << 29) && r[1] == json!((1 << 30) - 1)), "{losses:?}");
    assert_eq!(info["longest_win"]["remoteness"], 131_070);

    let text = ok(&["info", s(&file)], "");
    assert!(text.lines().count() < 9_000, "{} lines", text.lines().count());
    assert!(text.contains(&format!("digest      {digest}")), "{}", &text[..600]);
    assert!(text.contains("16384-32767") && text.contains("536870912-1073741823"), "ranges missing");
}

#[test]
fn info_counts_draws_of_chase() {
    let dir = Scratch::new("info-chase");
    let file = dir.path("chase-2.gtb");
    ok(&["build", "chase", "--size", "2", "-o", s(&file)], "");
    let info: Json = serde_json::from_str(ok(&["info", s(&file), "--json"], "").trim()).unwrap();
    assert_eq!(info["positions"], 2 * 4 * 4);
    let total: u64 = ["white_to_move", "black_to_move"]
        .iter()
        .map(|side| {
            ["wins", "losses", "ties", "draws"].iter().map(|k| info["sides"][side][k].as_u64().unwrap()).sum::<u64>()
        })
        .sum();
    assert_eq!(total, 32, "every position counted once");
}

// ---------------------------------------------------------------------------------
// bad files

#[test]
fn bad_files_are_clear_errors_with_status_2() {
    let dir = Scratch::new("bad-files");
    let good = build_pawns(&dir, 3, 3);
    let bytes = std::fs::read(&good).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let cases: Vec<(PathBuf, &str)> = vec![
        (dir.path("missing.gtb"), "No such file"),
        (write("empty.gtb", b""), "truncated"),
        (write("text.gtb", b"2 2\nQE\nEA\n0 0\n"), "not a gsolve tablebase"),
        (write("short.gtb", &bytes[..bytes.len() - 30]), "truncated"),
        (write("header-only.gtb", &bytes[..70]), "truncated"),
        (
            write("newer.gtb", &{
                let mut b = bytes.clone();
                b[8] = 4;
                b
            }),
            "format version 4 is newer",
        ),
        (
            write("older.gtb", &{
                let mut b = bytes.clone();
                b[8] = 1;
                b
            }),
            "rebuild the tablebase",
        ),
        (
            write("damaged-header.gtb", &{
                let mut b = bytes.clone();
                b[20] ^= 1;
                b
            }),
            "header checksum",
        ),
    ];
    for (path, expected) in &cases {
        for command in [vec!["info", s(path)], vec!["verify", s(path)], vec!["probe", s(path), "ppp/.../PPP w"]] {
            let message = fails(&command);
            assert!(message.contains(expected), "{command:?}: expected {expected:?} in {message}");
            assert!(message.contains(path.file_name().unwrap().to_str().unwrap()), "names the file: {message}");
        }
    }
}

#[test]
fn files_of_unknown_games_or_bad_parameters_are_refused() {
    let dir = Scratch::new("foreign");
    let options = WriteOptions::default();
    let values = vec![PackedValue::pack(Value::Loss(0)); 10];
    let othello = dir.path("othello.gtb");
    write::write(&othello, "othello", &[("size".into(), "8".into())], &values, &options, None).unwrap();
    let message = fails(&["info", s(&othello)]);
    assert!(message.contains("\"othello\"") && message.contains("does not know"), "{message}");

    let pawns = |path: &Path, rows: &str| {
        let parameters = [("rows".to_string(), rows.to_string()), ("cols".to_string(), "3".to_string())];
        let identity = write::Identity { game: "pawns", parameters: &parameters, index_version: 2 };
        write::write_values(path, &identity, values.as_slice(), &options, None).unwrap();
    };
    let huge = dir.path("huge.gtb");
    pawns(&huge, "99");
    let message = fails(&["verify", s(&huge)]);
    assert!(message.contains("parameters") && message.contains("rows"), "{message}");

    // Right parameters, wrong number of positions.
    let short = dir.path("short.gtb");
    pawns(&short, "3");
    let message = fails(&["probe", s(&short), "ppp/.../PPP w"]);
    assert!(message.contains("indices"), "{message}");

    // Stored by the old index (version 1, every placement): rebuild.
    let old = dir.path("old.gtb");
    write::write(&old, "pawns", &[("rows".into(), "3".into()), ("cols".into(), "3".into())], &values, &options, None)
        .unwrap();
    let message = fails(&["info", s(&old)]);
    assert!(message.contains("index version 1") && message.contains("rebuild"), "{message}");
}

/// `gsolve build` solves a game whole with the solver the catalog picks for it, the
/// same as a Python `Game.solve()` (python/tests/test_gsolve.py checks the same
/// games): bit rows for pursuits within their budget, the engine's retrograde
/// analysis past it (a map of more than a quarter wall) and for other games.
#[test]
fn build_takes_the_catalogs_whole_solver() {
    let dir = Scratch::new("whole-solver");
    let rules = |name: &str| format!("{}/../../examples/rules/{name}", env!("CARGO_MANIFEST_DIR"));
    let open_map = dir.path("open.txt");
    std::fs::write(&open_map, "5 4\nQ...E\n.##..\n..#..\nE...A\n").unwrap();
    let maze = dir.path("maze.txt");
    std::fs::write(&maze, "5 4\nQ#.#E\n.#.#.\n...#.\n##..A\n").unwrap();
    let cases: [(Vec<String>, &str); 5] = [
        (vec!["chase".into(), "--size".into(), "20".into()], "bit rows"),
        (vec!["queens-case".into(), s(&open_map).into()], "bit rows"),
        (vec!["queens-case".into(), s(&maze).into()], "retrograde"),
        (
            vec!["rules".into(), rules("chase.toml"), "--rows".into(), "5".into(), "--cols".into(), "5".into()],
            "bit rows",
        ),
        // Drops and captures: tiers that lead back to each other, solved whole.
        (vec!["rules".into(), rules("dobutsu.toml"), "l../.c./.C./..L s -".into()], "retrograde"),
    ];
    for (i, (game, solver)) in cases.iter().enumerate() {
        let output = dir.path(&format!("{i}.gtb"));
        let mut args = vec!["build"];
        args.extend(game.iter().map(String::as_str));
        args.extend(["-o", s(&output)]);
        let built = ok(&args, "");
        assert!(built.contains(&format!(" by {solver}, written in")), "{args:?}: {built}");
    }
}

/// `probe --json` prints the analysis object (one printer for every front end):
/// today's keys and the analysis keys, the same object `analyze --tablebase`
/// gives for the position.
#[test]
fn probe_json_is_the_analysis_object() {
    let dir = Scratch::new("probe-json");
    let file = dir.path("chase-4.gtb");
    ok(&["build", "chase", "--size", "4", "-o", s(&file)], "");
    for position in ["1,1 4,4 w", "2,2 2,3 b"] {
        let probed: Json = serde_json::from_str(ok(&["probe", s(&file), position, "--json"], "").trim()).unwrap();
        for key in ["position", "to_move", "value", "remoteness", "end", "moves", "game", "variant", "solver", "board"]
        {
            assert!(probed.get(key).is_some(), "{key} missing from {probed}");
        }
        assert_eq!(probed["solver"], "tablebase");
        for m in probed["moves"].as_array().unwrap() {
            for key in ["move", "from", "to", "value", "remoteness", "position", "delta"] {
                assert!(m.get(key).is_some(), "{key} missing from the move {m}");
            }
        }
        let analyzed: Json =
            serde_json::from_str(ok(&["analyze", "--tablebase", s(&file), "chase", position, "--json"], "").trim())
                .unwrap();
        assert_eq!(probed, analyzed, "{position}");
    }
}
