//! `gsolve rules` and the contest commands with `--rules`: the seed games' rules
//! files answer every contest case exactly as the built-in games do (the bundled
//! examples and hundreds of random cases), known values of the other rules files,
//! and bad rules files refused with the file, line and column.

mod common;

use common::{example, fails, ok};
use gsolve_games::queens_case::{generate, Cell};
use gsolve_games::rng::SplitMix64;
use std::path::PathBuf;

fn rules(name: &str) -> String {
    example(&format!("rules/{name}.toml")).to_str().unwrap().to_string()
}

/// The command's output with the built-in game and with the rules file, equal, for
/// each output style.
fn same_answers(command: &str, rules_name: &str, input: &str) {
    for style in [None, Some("--explain"), Some("--json")] {
        let mut built_in = vec![command];
        let mut by_rules = vec![command, "--rules"];
        let file = rules(rules_name);
        by_rules.push(&file);
        if let Some(flag) = style {
            built_in.push(flag);
            by_rules.push(flag);
        }
        let want = ok(&built_in, input);
        let got = ok(&by_rules, input);
        if style.is_none() {
            assert_eq!(got, want, "{command} --rules {rules_name} on\n{input}");
        } else {
            // The answer, value and remoteness agree; the optimal line may take another
            // of several best moves, and the sides may have other names.
            let answers = |text: &str| -> Vec<String> {
                text.lines()
                    .filter_map(|l| {
                        if l.starts_with('{') {
                            let v: serde_json::Value = serde_json::from_str(l).unwrap();
                            Some(format!("{} {} {}", v["answer"], v["value"], v["remoteness"]))
                        } else if l.starts_with("case ") {
                            Some(l.to_string())
                        } else {
                            l.split_once(" to move: ").map(|(_, value)| value.to_string())
                        }
                    })
                    .collect()
            };
            assert_eq!(answers(&got), answers(&want), "{command} {style:?} --rules {rules_name} on\n{input}");
        }
    }
}

#[test]
fn contest_commands_with_rules_files_answer_the_bundled_examples() {
    let read = |name: &str| common::read(&example(name));
    same_answers("queens-case", "queens-case", &read("queens-case.txt"));
    same_answers("chase", "chase", &read("chase.txt"));
    same_answers("pawns", "pawns", &read("pawns.txt"));
    same_answers("snakes", "snakes", &read("snakes.txt"));
}

#[test]
fn contest_commands_with_rules_files_answer_random_cases() {
    let mut rng = SplitMix64::new(13);
    // Queen's Case: 40 random maps and mazes up to 8×8 in one input.
    let mut maps = String::new();
    for seed in 0..40u64 {
        // At least exits + 2 open cells: the generators need them.
        let (w, h) = (3 + (seed % 6) as u32, 1 + (seed / 6 % 8) as u32);
        let exits = if w * h >= 6 { 1 + (seed % 2) as u32 } else { 1 };
        let map = if seed % 3 == 0 && w > 2 && h > 2 {
            generate::maze(w, h, exits, seed)
        } else {
            generate::random_map(w, h, 20, exits, seed)
        };
        maps.push_str(&format!("{} {}\n", map.width(), map.height()));
        let game = gsolve_games::queens_case::QueensCase::new(&map);
        let start = game.start();
        let (q, a) = (game.coord(start.queen), game.coord(start.army));
        for r in 0..map.height() {
            for c in 0..map.width() {
                let here = |at: gsolve_games::notation::Coord| at.row == r + 1 && at.col == c + 1;
                maps.push(match map.cell(r, c) {
                    _ if here(q) => 'Q',
                    _ if here(a) => 'A',
                    Cell::Wall => '#',
                    Cell::Exit => 'E',
                    Cell::Floor => '.',
                });
            }
            maps.push('\n');
        }
    }
    maps.push_str("0 0\n");
    same_answers("queens-case", "queens-case", &maps);

    // Chase: 200 cases on boards up to 9×9.
    let mut cases = String::new();
    for _ in 0..200 {
        let n = 2 + rng.below(8) as u32;
        let (w, mut b) = (rng.below((n * n) as u64) as u32, rng.below((n * n) as u64) as u32);
        if b == w {
            b = (w + 1) % (n * n);
        }
        cases.push_str(&format!("{n} {} {} {} {}\n", w / n + 1, w % n + 1, b / n + 1, b % n + 1));
    }
    same_answers("chase", "chase", &cases);

    // Pawns: 50 random 4×4 boards (the contest's limit), white to move and black.
    let mut boards = String::from("50\n");
    for _ in 0..50 {
        boards.push('\n');
        for r in 0..4 {
            for _ in 0..4 {
                let ch = match rng.below(8) {
                    0 if r > 0 => 'P',
                    1 if r < 3 => 'p',
                    _ => '.',
                };
                boards.push(ch);
            }
            boards.push('\n');
        }
    }
    same_answers("pawns", "pawns", &boards);

    // Snakes: 100 random boards up to 4×5 with obstacles.
    let mut snakes = String::new();
    for _ in 0..100 {
        let (n, m) = (1 + rng.below(4) as usize, 2 + rng.below(4) as usize);
        let mut cells: Vec<u32> = (0..n * m).map(|_| if rng.chance(1, 5) { 3 } else { 0 }).collect();
        let h1 = rng.below((n * m) as u64) as usize;
        let mut h2 = rng.below((n * m) as u64) as usize;
        if h2 == h1 {
            h2 = (h1 + 1) % (n * m);
        }
        cells[h1] = 1;
        cells[h2] = 2;
        snakes.push_str(&format!("{n} {m}\n"));
        for row in cells.chunks(m) {
            snakes.push_str(&row.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" "));
            snakes.push('\n');
        }
    }
    same_answers("snakes", "snakes", &snakes);
}

#[test]
fn rules_files_solve_their_starts() {
    let line = |args: &[&str]| ok(args, "").trim().to_string();
    assert_eq!(
        line(&["rules", &rules("pawns"), "--rows", "3", "--cols", "3"]),
        "ppp/.../PPP w: loss in 6, white to move"
    );
    assert_eq!(line(&["rules", &rules("pawns")]), "pppp/..../..../PPPP w: win in 11, white to move");
    assert_eq!(
        line(&["rules", &rules("breakthrough"), "--rows", "4", "--cols", "4"]),
        "BBBB/BBBB/WWWW/WWWW w: loss in 14, white to move"
    );
    assert_eq!(
        line(&["rules", &rules("cops-and-robbers"), "C..../.#.#./..R.. c"]),
        "C..../.#.#./..R.. c: draw, cops to move"
    );
    assert_eq!(
        line(&["rules", &rules("cops-and-robbers"), "C...C/.#.#./..R.. c"]),
        "C...C/.#.#./..R.. c: win in 9, cops to move"
    );
    assert_eq!(line(&["rules", &rules("queens-case"), "QE/EA q"]), "QE/EA q: draw, queen to move");
    // Several positions, one line each.
    let out = ok(&["rules", &rules("chase"), "W./.B w", "W./.B b"], "");
    assert_eq!(out, "W./.B w: loss in 2, white to move\nW./.B b: loss in 2, black to move\n");
}

/// Games where pieces are dropped: tic-tac-toe and Connect 4 from their starts (the
/// published values), a drop in the optimal line and in JSON, and the file's
/// meaning.
#[test]
fn drop_games_solve_their_starts_and_name_their_drops() {
    let line = |args: &[&str]| ok(args, "").trim().to_string();
    assert_eq!(line(&["rules", &rules("tic-tac-toe")]), ".../.../... x: tie in 9, x to move");
    assert_eq!(
        line(&["rules", &rules("connect-4"), "--rows", "4", "--cols", "6"]),
        "....../....../....../...... r: loss in 24, red to move"
    );
    let explained = ok(&["rules", &rules("tic-tac-toe"), "XO./.X./... o", "--explain"], "");
    assert!(
        explained.contains("1. o O*(3,3)") && explained.contains("end: 3 in a line for x, a win for x"),
        "{explained}"
    );
    let json: serde_json::Value =
        serde_json::from_str(ok(&["rules", &rules("tic-tac-toe"), "XO./.X./... o", "--json"], "").trim()).unwrap();
    assert_eq!(json["line"][0]["drop"], "O", "{json}");
    assert_eq!(json["line"][0]["to"], serde_json::json!([3, 3]), "{json}");
    let check = ok(&["rules", &rules("connect-4"), "--check"], "");
    for needle in [
        "is dropped from an endless supply into a column, falls to the lowest empty cell it reaches",
        "red or yellow with 4 pieces in a row, a column or a diagonal: a win for that side",
        "every cell taken: a tie",
        "positions can repeat: no",
    ] {
        assert!(check.contains(needle), "{needle:?} missing:\n{check}");
    }
    // Every move's value, drops named.
    let analysed = ok(&["analyze", "--rules", &rules("tic-tac-toe"), "XO./.X./... o"], "");
    assert!(analysed.contains("O*(3,3)          loss in 4"), "{analysed}");
}

/// The strong solve of tic-tac-toe: a tablebase of every position drops reach
/// from the empty board, which `verify` proves and `probe` reads.
#[test]
fn a_tic_tac_toe_tablebase_is_built_and_verified() {
    let dir = std::env::temp_dir().join(format!("gsolve-rules-ttt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ttt.gtb");
    let path = file.to_str().unwrap();
    let built = ok(&["build", "rules", &rules("tic-tac-toe"), "-o", path], "");
    // As `verify` says it: the index's entries, and the positions among them.
    assert!(built.contains("17906 indices (12092 positions, 5814 name no position)"), "{built}");
    let verified = ok(&["verify", path], "");
    assert!(verified.contains("12092 checked") && verified.contains("every value follows"), "{verified}");
    let probed = ok(&["probe", path, ".../.../... x", "X../.O./..X o"], "");
    assert!(probed.contains(".../.../... x: tie in 9"), "{probed}");
    assert!(probed.contains("X../.O./..X o: tie in 6"), "{probed}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Dobutsu shogi: hands in positions, drops from them, the start's four moves,
/// an endgame solved and written as a tablebase (solved whole: drops and captures
/// lead back and forth between tiers) that `verify` proves; bad hands refused.
#[test]
fn dobutsu_hands_drops_and_a_verified_endgame_tablebase() {
    let dobutsu = rules("dobutsu");
    let out = ok(&["rules", &dobutsu, "l../.../.../..L s Cc", "--explain"], "");
    assert!(out.starts_with("case 1: l../.../.../..L s Cc: win in 8, sente to move"), "{out}");
    let analysed = ok(&["analyze", "--rules", &dobutsu, "l../.c./.C./..L s -", "--threads", "1"], "");
    for mv in ["(3,2)->(2,2)", "(4,3)->(3,3)", "(4,3)->(4,2)", "l../.C./.../..L g C"] {
        assert!(analysed.contains(mv), "{mv} missing:\n{analysed}");
    }
    let dir = std::env::temp_dir().join(format!("gsolve-rules-dobutsu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("lions-chicks.gtb");
    let path = file.to_str().unwrap();
    let built = ok(&["build", "rules", &dobutsu, "l../.c./.C./..L s -", "-o", path], "");
    // 260,910 entries before the tiers without a lion were left out, 211,992
    // before the index was folded by the side swap and the mirror (70,664) and
    // the lions placed as a pair.
    assert!(built.contains("25696 positions") && built.contains("symmetry=sides-swapped+mirror+royal-pair"), "{built}");
    let verified = ok(&["verify", path], "");
    assert!(verified.contains("every value follows from the rules"), "{verified}");
    let probed = ok(&["probe", path, "l../.../.../..L s Cc"], "");
    let solved = ok(&["rules", &dobutsu, "l../.../.../..L s Cc"], "");
    assert_eq!(probed.lines().next(), solved.lines().next());
    std::fs::remove_dir_all(&dir).unwrap();
    for (position, message) in [
        ("l../.c./.C./..L s CC", "4 pieces of the kind chick (on the board, promoted or in hand), but the game has 2"),
        ("l../.../.../..L s L", "never in a hand"),
        ("l../.../.../..L s X", "column 19: unknown piece"),
    ] {
        let e = fails(&["rules", &dobutsu, position], "");
        assert!(e.contains(message), "{position}: {e}");
    }
}

/// `probe` of a Dobutsu position whose lion was just captured (moves exist, none is
/// played: the game is over) says how the game ended; a side without a move says
/// so too.
#[test]
fn probe_says_how_a_dobutsu_game_ended() {
    let dir = std::env::temp_dir().join(format!("gsolve-rules-dobutsu-end-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("lions-chick.gtb");
    let path = file.to_str().unwrap();
    ok(&["build", "rules", &rules("dobutsu"), "l../.../.../..L s C", "-o", path], "");
    let probed = ok(&["probe", path, "l../.../.../... s C", "..L/.../.../l.. s C"], "");
    assert!(probed.contains("  game over: the lion of sente was captured, a win for gote"), "{probed}");
    assert!(probed.contains("  game over: a lion of sente in the zone far, a win for sente"), "{probed}");
    assert!(!probed.contains("no moves"), "{probed}");
    let json = ok(&["probe", path, "l../.../.../... s C", "--json"], "");
    let object: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(object["end"], "the lion of sente was captured, a win for gote", "{object}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_says_what_the_file_means() {
    let out = ok(&["rules", &rules("fox-and-hounds"), "--check"], "");
    for needle in [
        "Fox and Hounds (fox-and-hounds)",
        "32 playable cells, dark cells only",
        "piece hound: `H` for hounds",
        // The fox is placed off its den (a fox there has won): 28 × C(31, 4) × 2.
        "index: 1762040 positions",
        "positions can repeat: yes",
    ] {
        assert!(out.contains(needle), "{needle:?} missing:\n{out}");
    }
    assert!(!out.contains("trail race"), "{out}");
    assert!(!out.contains("a pursuit"), "{out}");
    assert!(!out.contains("pawn-like"), "{out}");
    // Every capability's path is listed, the fast ones by name.
    for needle in [
        "fast paths:\n  first look: from the groups' cell sets",
        "  parents: walked on cell sets",
        "  tier sweeps: general",
        "  outright search: general",
        "  search knowledge: immediate wins",
        "  whole solve: general",
        "  children: played from the piece list",
    ] {
        assert!(out.contains(needle), "{needle:?} missing:\n{out}");
    }
    // Fox and Hounds' pieces step one cell on a board of 32 cells, as
    // Dobutsu's: both first looks read the moves from bit sets.
    for out in [out, ok(&["rules", &rules("dobutsu"), "--check"], "")] {
        assert!(out.contains("short moves: each piece's moves are two bit sets"), "{out}");
    }
    for file in ["pawns", "breakthrough"] {
        // Breakthrough 5×5's ten pawns a side have no table of their cells.
        let out = ok(&["rules", &rules(file), "--rows", "4", "--cols", "4", "--check"], "");
        assert!(out.contains("pawn-like: each group ranked on its own places"), "{file}: {out}");
    }
    let out = ok(&["rules", &rules("snakes"), "--check"], "");
    assert!(out.contains("a trail race: the search values pieces that can no longer meet"), "{out}");
    for file in ["chase", "queens-case"] {
        let position = if file == "chase" { "W.../..../..../...B w" } else { "Q.E./.#../E..A q" };
        let out = ok(&["rules", &rules(file), position, "--check"], "");
        assert!(out.contains("a pursuit: one piece a side, solved whole by bit rows"), "{file}: {out}");
    }
}

/// `--check` on rules without a start (a map game): the rules described, the index
/// said to need a position, exit 0; with a position, its index as before.
#[test]
fn check_describes_rules_without_a_start() {
    for file in ["queens-case", "cops-and-robbers"] {
        let out = ok(&["rules", &rules(file), "--check"], "");
        for needle in
            ["board: from a map", "side ", "piece ", "end: ", "index: its size depends on a map and the pieces"]
        {
            assert!(out.contains(needle), "{file}: {needle:?} missing:\n{out}");
        }
        assert!(!out.contains("index: none") && !out.contains(" positions in "), "{file}: {out}");
    }
    let out = ok(&["rules", &rules("queens-case"), "--check"], "");
    assert!(out.contains("zone exit for queen: its cells depend on the board"), "{out}");
    let out = ok(&["rules", &rules("cops-and-robbers"), "C..../.#.#./..R.. c", "--check"], "");
    assert!(out.contains("index: ") && out.contains(" positions in "), "{out}");
}

/// `--check` words each ending so that it reads right for a side named in the
/// singular (white) or the plural (cops): no side name as the subject of a verb.
#[test]
fn check_words_endings_for_singular_and_plural_sides() {
    let cops = ok(&["rules", &rules("cops-and-robbers"), "C..../.#.#./..R.. c", "--check"], "");
    assert!(cops.contains("end: cop and robber on one cell: a win for cops"), "{cops}");
    let queens = ok(&["rules", &rules("queens-case"), "Q.E./.#../E..A q", "--check"], "");
    assert!(queens.contains("queen with a piece in the zone exit: a win for queen ("), "{queens}");
    let dobutsu = ok(&["rules", &rules("dobutsu"), "--check"], "");
    assert!(dobutsu.contains("hand as an elephant") && dobutsu.contains("becomes a hen"), "{dobutsu}");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/rules");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let file = path.to_str().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let sides: Vec<String> = text
            .lines()
            .find_map(|l| l.strip_prefix("sides = "))
            .map(|l| l.split('"').skip(1).step_by(2).map(String::from).collect())
            .unwrap_or_default();
        let out = ok(&["rules", file, "--check"], "");
        for side in &sides {
            for verb in ["wins", "loses", "ties", "has won", "win", "lose", "tie"] {
                let bad = format!("{side} {verb}\n");
                let bad_mid = format!("{side} {verb} ");
                assert!(!out.contains(&bad) && !out.contains(&bad_mid), "{file}: {bad_mid:?} in\n{out}");
            }
        }
        for bad in [": wins", ": loses", ": ties", " a elephant", " a a", " a e", " a i", " a o", " a u"] {
            assert!(!out.contains(bad), "{file}: {bad:?} in\n{out}");
        }
    }
}

#[test]
fn bad_rules_files_name_the_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("gsolve-rules-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let pawns = std::fs::read_to_string(rules("pawns")).unwrap();
    let misspelt = write("misspelt.toml", &pawns.replace("moves = [", "move = ["));
    let message = fails(&["rules", &misspelt], "");
    assert!(message.contains("misspelt.toml: line "), "{message}");
    assert!(message.contains("unknown key `move`") && message.contains("did you mean `moves`?"), "{message}");
    let no_move = write("no-move.toml", "[game]\nname = \"x\"\nsides = [\"a\", \"b\"]\n[board]\nrows = 3\ncols = 3\n[piece.p]\nletter = { a = \"P\", b = \"p\" }\n[[end]]\nwhen = \"stuck\"\n");
    let message = fails(&["rules", &no_move, "P../.../..p a"], "");
    assert!(message.contains("line 7") && message.contains("has no move"), "{message}");
    let zone = write("zone.toml", &pawns.replace("zone = \"goal\"", "zone = \"goals\""));
    let message = fails(&["rules", &zone], "");
    assert!(message.contains("no zone is named `goals`"), "{message}");
    // Drops and lines: a drop zone not defined, a drop of the wrong type, a line
    // longer than the board (refused when the board is made), a line without length.
    let ttt = std::fs::read_to_string(rules("tic-tac-toe")).unwrap();
    let bad_zone = write("drop-zone.toml", &ttt.replace("drop = true", "drop = { zone = \"home\" }"));
    let message = fails(&["rules", &bad_zone], "");
    assert!(message.contains("no zone is named `home`") && message.contains("line 19"), "{message}");
    let bad_type = write("drop-type.toml", &ttt.replace("drop = true", "drop = 3"));
    let message = fails(&["rules", &bad_type], "");
    assert!(message.contains("`drop` of [piece.mark]") && message.contains("line 19"), "{message}");
    let long = write("long-line.toml", &ttt.replace("length = 3", "length = 5"));
    let message = fails(&["rules", &long], "");
    assert!(message.contains("a line of 5 never fits on this board (3 rows × 3 columns)"), "{message}");
    assert!(ok(&["rules", &long, "--rows", "5", "--cols", "2", "--check"], "").contains("with 5 pieces"));
    let no_length = write("no-length.toml", &ttt.replace("length = 3\n", ""));
    let message = fails(&["rules", &no_length], "");
    assert!(message.contains("`length`"), "{message}");
    let not_toml = write("not-toml.toml", "[game\nname = 1\n");
    let message = fails(&["rules", &not_toml], "");
    assert!(message.contains("line 1") && message.contains("not valid TOML"), "{message}");
    // A position the rules cannot read, and a missing file.
    let message = fails(&["rules", &rules("pawns"), "PPX/.../ppp w"], "");
    assert!(message.contains("position 1") && message.contains("column 3"), "{message}");
    fails(&["rules", "/nonexistent/rules.toml"], "");
    // The contest commands' --rules too.
    let message = fails(&["chase", "--rules", &misspelt], "2 1 1 2 2\n");
    assert!(message.contains("unknown key `move`"), "{message}");
    // A rules file that is not the contest's game: its letters do not fit the cases.
    let message = fails(&["chase", "--rules", &rules("pawns")], "2 1 1 2 2\n");
    assert!(message.contains("case 1"), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------
// The front ends with --rules: analyze, build, probe, verify, info, serve.

/// `analyze --rules`: the rules' start on a board, a position, JSON, and the flags
/// that do not apply refused.
#[test]
fn analyze_takes_a_rules_file() {
    let breakthrough = rules("breakthrough");
    let out = ok(&["analyze", "--rules", &breakthrough, "--rows", "4", "--cols", "4"], "");
    assert!(out.contains("white to move: loss in 14 (solver: alpha-beta)"), "{out}");
    assert!(out.contains("BBBB/BBBB/WWWW/WWWW w"), "{out}");
    // The game named or not, the position given.
    let named = ok(&["analyze", "rules", "B.B/.W./... w", "--rules", &breakthrough], "");
    let unnamed = ok(&["analyze", "B.B/.W./... w", "--rules", &breakthrough], "");
    assert_eq!(named, unnamed);
    let json: serde_json::Value =
        serde_json::from_str(ok(&["analyze", "--rules", &rules("chase"), "--json"], "").trim())
            .expect("one JSON object");
    assert_eq!(json["game"], "rules");
    assert_eq!(json["solver"], "retrograde");
    assert_eq!(json["position"], "W.../..../..../...B w");
    // Equal to `gsolve rules` on the same position.
    let value = format!("{} {}", json["value"].as_str().unwrap(), json["remoteness"]);
    let rules_out = ok(&["rules", &rules("chase"), "--json"], "");
    let rules_json: serde_json::Value = serde_json::from_str(rules_out.trim()).unwrap();
    assert_eq!(value, format!("{} {}", rules_json["value"].as_str().unwrap(), rules_json["remoteness"]));
    for (args, message) in [
        (vec!["analyze", "--rules", &breakthrough, "--size", "4"], "--size does not apply"),
        (vec!["analyze", "pawns", "--rules", &breakthrough], "not pawns"),
        (vec!["analyze", "rules", "BBB/.../WWW w"], "--rules FILE"),
        (vec!["analyze", "--rules", &breakthrough, "--rows", "4"], "--cols"),
        (vec!["analyze", "--rules", &breakthrough, "BB/WW w", "--rows", "4", "--cols", "4"], "without a position"),
        (vec!["analyze", "--rules", &breakthrough, "BBB/.x./WWW w"], "column 6"),
    ] {
        let e = fails(&args, "");
        assert!(e.contains(message), "{args:?}: {e}");
    }
}

/// `build rules`, then `probe`, `info`, `verify` and `analyze --tablebase` of the
/// file without the rules file (the tablebase stores it), answering as `gsolve rules`.
#[test]
fn a_rules_tablebase_is_built_probed_verified_and_analysed() {
    let dir = std::env::temp_dir().join(format!("gsolve-rules-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("chase3.gtb");
    let path = file.to_str().unwrap();
    let chase = rules("chase");
    let built = ok(&["build", "rules", &chase, "W../.../..B w", "-o", path], "");
    assert!(built.contains("182 positions"), "{built}");
    // Positions of the file, each probed and solved by `gsolve rules`.
    for position in ["W../.../..B w", ".W./B../... b", "..B/.W./... w", "B../.../..W b"] {
        let probed = ok(&["probe", path, position], "");
        let solved = ok(&["rules", &chase, position], "");
        assert_eq!(probed.lines().next(), solved.lines().next(), "{position}");
    }
    let info = ok(&["info", path], "");
    assert!(info.contains("game        rules") && info.contains("white to move"), "{info}");
    let verified = ok(&["verify", path], "");
    assert!(verified.contains("every value follows from the rules"), "{verified}");
    let analysed = ok(&["analyze", "--tablebase", path], "");
    assert!(analysed.contains("W../.../..B w") && analysed.contains("(solver: tablebase)"), "{analysed}");
    let e = fails(&["analyze", "--tablebase", path, "WW./.../..B w"], "");
    assert!(e.contains("index covers"), "{e}");
    // A rules game with trails has no index: no tablebase, and nothing written.
    let trails = dir.join("snakes.gtb");
    let e = fails(&["build", "rules", &rules("snakes"), "-o", trails.to_str().unwrap()], "");
    assert!(e.contains("no index"), "{e}");
    assert!(!trails.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `serve --rules`: the page offers the rules game, with its pieces, start and
/// analyses.
#[test]
fn serve_offers_a_rules_game() {
    let (mut process, url) = common::serve(&["--rules", &rules("breakthrough")]);
    let get = |path: &str| {
        let response = common::http::get(&format!("{url}{path}"));
        (response.status, serde_json::from_str::<serde_json::Value>(&response.body).unwrap())
    };
    let (status, games) = get("api/games");
    assert_eq!(status, 200);
    // The page opens on the rules file's game, not on the first built-in one.
    assert_eq!(games["default"], "rules", "{games}");
    let rules_game = games["games"].as_array().unwrap().iter().find(|g| g["name"] == "rules").expect("listed");
    assert_eq!(rules_game["title"], "Breakthrough");
    assert_eq!(rules_game["pieces"], serde_json::json!({"W": 0, "B": 1}));
    assert_eq!(rules_game["example"]["position"], "BBBBB/BBBBB/...../WWWWW/WWWWW w");
    let (status, start) = get("api/start?game=rules&rows=4&cols=3");
    assert_eq!((status, start["position"].as_str()), (200, Some("BBB/BBB/WWW/WWW w")));
    let (status, analysis) = get("api/analyze?game=rules&position=BBB/.../WWW%20w");
    assert_eq!(status, 200, "{analysis}");
    assert_eq!(analysis["to_move"], "white");
    assert!(analysis["moves"].as_array().unwrap().len() == 7, "{analysis}");
    let (status, error) = get("api/analyze?game=rules&position=BBB/.../WWW");
    assert_eq!(status, 400, "{error}");
    let _ = process.0.kill();

    // Rules without a start (a map game) need the position the page opens on.
    let queens = rules("queens-case");
    let e = fails(&["serve", "--port", "0", "--rules", &queens], "");
    assert!(e.contains("--start POSITION"), "{e}");
    let e = fails(&["serve", "--port", "0", "--rules", &queens, "--start", "Q..E/.#A. x"], "");
    assert!(e.contains("--start"), "{e}");
    let (mut process, url) = common::serve(&["--rules", &queens, "--start", "Q...E/.##../..#../E...A q"]);
    let response = common::http::get(&format!("{url}api/games"));
    let games: serde_json::Value = serde_json::from_str(&response.body).unwrap();
    let rules_game = games["games"].as_array().unwrap().iter().find(|g| g["name"] == "rules").expect("listed");
    assert_eq!(rules_game["example"]["position"], "Q...E/.##../..#../E...A q");
    assert_eq!(rules_game["cells"]["E"], "exit (a zone)");
    assert_eq!(rules_game["cells"]["Q"], "queen");
    let _ = process.0.kill();

    // Hands: the position carries them, and a drop names its piece.
    let dobutsu = rules("dobutsu");
    let (mut process, url) = common::serve(&["--rules", &dobutsu, "--start", "l../.c./.C./..L s -"]);
    let response = common::http::get(&format!("{url}api/analyze?game=rules&position=l../.../.../..L%20s%20Cc"));
    assert_eq!(response.status, 200, "{}", response.body);
    let analysis: serde_json::Value = serde_json::from_str(&response.body).unwrap();
    assert_eq!(analysis["position"], "l../.../.../..L s Cc");
    let drop = analysis["moves"].as_array().unwrap().iter().find(|m| m["move"] == "C*(4,1)").expect("a drop");
    assert_eq!((drop["drop"].as_str(), drop["position"].as_str()), (Some("C"), Some("l../.../.../C.L g c")));
    let _ = process.0.kill();
}

/// A side that moves every piece shows each piece's step: in the optimal line of
/// `--explain` and in `analyze`'s move list, where two turns that move the same
/// first piece are told apart.
#[test]
fn a_turn_of_every_piece_shows_each_step() {
    let cops = rules("cops-and-robbers");
    let explained = ok(&["rules", &cops, "C...C/.#.#./..R.. c", "--explain"], "");
    let first = explained.lines().find(|l| l.trim_start().starts_with("1. ")).unwrap();
    assert!(first.contains("cops (") && first.contains(", ("), "{first}");
    assert!(explained.lines().any(|l| l.contains(" stays")), "{explained}");
    let json: serde_json::Value =
        serde_json::from_str(ok(&["analyze", "--rules", &cops, "C...C/.#.#./..R.. c", "--json"], "").trim()).unwrap();
    let labels: Vec<&str> = json["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert!(labels.contains(&"(1,1)->(1,2) (1,5)->(2,5)"), "{labels:?}");
    assert!(labels.contains(&"(1,5)->(2,5) stay at (1,1)"), "{labels:?}");
    let mut distinct = labels.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), labels.len(), "every move has its own label: {labels:?}");
}

/// A pursuit's tablebase is solved whole by bit rows, unless tiers on disk are asked
/// for (`--work-dir`, `--memory`): the two files are the same, byte for byte.
#[test]
fn a_pursuits_tablebase_is_the_same_from_bit_rows_and_from_tiers() {
    let dir = std::env::temp_dir().join(format!("gsolve-rules-pursuit-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, position) in [("chase", "W..../...../...../...../....B w"), ("queens-case", "Q..#E/.#.../...#./E...A q")]
    {
        let whole = dir.join(format!("{file}-whole.gtb"));
        let tiers = dir.join(format!("{file}-tiers.gtb"));
        let work = dir.join(format!("{file}.work"));
        let built = ok(&["build", "rules", &rules(file), position, "-o", whole.to_str().unwrap()], "");
        // Solved whole, then written (tiers say "solved and written").
        assert!(built.contains("; solved in "), "{file}: {built}");
        let by_tiers = [
            "build",
            "rules",
            &rules(file),
            position,
            "-o",
            tiers.to_str().unwrap(),
            "--work-dir",
            work.to_str().unwrap(),
        ];
        let built = ok(&by_tiers, "");
        assert!(built.contains("solved and written in"), "{file}: {built}");
        assert!(std::fs::read(&whole).unwrap() == std::fs::read(&tiers).unwrap(), "{file}: the files differ");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `gsolve book`, then `analyze --book` answering as the search does, with or
/// without the rules file; bad books and wrong games refused with exit status 2.
#[test]
fn an_opening_book_answers_as_the_search_does() {
    let dir = common::Scratch::new("book");
    let book = dir.path("c4-4x5.book");
    let path = book.to_str().unwrap();
    let connect4 = rules("connect-4");
    let board = ["--rows", "4", "--cols", "5"];
    let built = ok(&[&["book", &connect4, "--plies", "3", "-o", path][..], &board].concat(), "");
    assert!(built.contains("positions within 3 plies of ...../...../...../..... r"), "{built}");
    for position in
        [None, Some("...../...../...../..R.. y"), Some("...../...../...../.RY.. r"), Some("...../...../..R../.RY.. y")]
    {
        let mut plain = vec!["analyze", "--rules", &connect4, "--json"];
        match position {
            Some(p) => plain.push(p),
            None => plain.extend(board),
        }
        let searched = ok(&plain, "");
        assert!(searched.contains(r#""solver":"alpha-beta""#), "{searched}");
        let from_book = searched.replace(r#""solver":"alpha-beta""#, r#""solver":"opening book""#);
        let mut booked = plain.clone();
        booked.extend(["--book", path]);
        assert_eq!(ok(&booked, ""), from_book, "{position:?}");
        // The book alone: its rules, and its board for the start.
        let mut alone = vec!["analyze", "--book", path, "--json"];
        alone.extend(position);
        assert_eq!(ok(&alone, ""), from_book, "{position:?}");
    }
    let e = fails(&[&["book", &connect4, "--plies", "3", "-o", path][..], &board].concat(), "");
    assert!(e.contains("--force"), "{e}");
    let e = fails(&["book", &rules("breakthrough"), "--plies", "2", "-o", dir.path("b.book").to_str().unwrap()], "");
    assert!(e.contains("line game"), "{e}");
    assert!(!dir.path("b.book").exists());
    let e = fails(&["analyze", "--book", path, "--rules", &rules("tic-tac-toe")], "");
    assert!(e.contains("other rules"), "{e}");
    let mut bytes = std::fs::read(&book).unwrap();
    let last = bytes.len() - 20;
    bytes[last] ^= 1;
    let damaged = dir.path("damaged.book");
    std::fs::write(&damaged, &bytes).unwrap();
    let e = fails(&["analyze", "--book", damaged.to_str().unwrap()], "");
    assert!(e.contains("damaged"), "{e}");
    let e = fails(&["analyze", "--book", &connect4], "");
    assert!(e.contains("not a gsolve opening book"), "{e}");

    // Lines of play: a position two moves past the plies, on a line where the
    // computer plays red's best move, is answered from the book as searched.
    let lines = dir.path("lines.book");
    let lines = lines.to_str().unwrap();
    let built = ok(&[&["book", &connect4, "--plies", "1", "--play", "5", "-o", lines][..], &board].concat(), "");
    assert!(built.contains("within 1 ply and on the lines of play before ply 5 of"), "{built}");
    // Red's best move (the first listed, as play makes it), then yellow's last, twice.
    let after = |analysis: &str, which: usize| -> String {
        let json: serde_json::Value = serde_json::from_str(analysis.trim()).unwrap();
        let moves = json["moves"].as_array().unwrap();
        moves[which.min(moves.len() - 1)]["position"].as_str().unwrap().to_string()
    };
    let mut position = after(&ok(&[&["analyze", "--rules", &connect4, "--json"][..], &board].concat(), ""), 0);
    for ply in 1..5 {
        let searched = ok(&["analyze", "--rules", &connect4, "--json", &position], "");
        let from_book = searched.replace(r#""solver":"alpha-beta""#, r#""solver":"opening book""#);
        assert_eq!(ok(&["analyze", "--book", lines, "--json", &position], ""), from_book, "ply {ply}: {position}");
        position = after(&searched, if ply % 2 == 1 { usize::MAX } else { 0 });
    }
    let e = fails(&["book", &connect4, "--plies", "1", "--play", "99", "-o", dir.path("x.book").to_str().unwrap()], "");
    assert!(e.contains("99"), "{e}");

    // Against a perfect opponent: yellow's best move (the first listed) stays on
    // the lines; the book is smaller than against any move.
    let perfect = dir.path("perfect.book");
    let perfect = perfect.to_str().unwrap();
    let args = ["book", &connect4, "--plies", "1", "--play", "5", "--opponent", "perfect", "-o", perfect];
    let built_perfect = ok(&[&args[..], &board].concat(), "");
    assert!(built_perfect.contains("before ply 5 against perfect play of"), "{built_perfect}");
    let positions = |built: &str| -> usize {
        let count = built.split(": ").nth(1).and_then(|rest| rest.split(' ').next()).unwrap();
        count.replace(',', "").parse().unwrap()
    };
    assert!(positions(&built_perfect) < positions(&built), "{built_perfect}\n{built}");
    let mut position = after(&ok(&[&["analyze", "--rules", &connect4, "--json"][..], &board].concat(), ""), 0);
    for ply in 1..5 {
        let searched = ok(&["analyze", "--rules", &connect4, "--json", &position], "");
        let from_book = searched.replace(r#""solver":"alpha-beta""#, r#""solver":"opening book""#);
        assert_eq!(ok(&["analyze", "--book", perfect, "--json", &position], ""), from_book, "ply {ply}: {position}");
        position = after(&searched, 0);
    }
    let e = fails(
        &["book", &connect4, "--plies", "1", "--opponent", "perfect", "-o", dir.path("y.book").to_str().unwrap()],
        "",
    );
    assert!(e.contains("--play"), "{e}");
    let e = fails(
        &[
            "book",
            &connect4,
            "--plies",
            "1",
            "--play",
            "3",
            "--opponent",
            "best",
            "-o",
            dir.path("z.book").to_str().unwrap(),
        ],
        "",
    );
    assert!(e.contains("perfect"), "{e}");
}
