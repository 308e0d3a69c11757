//! `gsolve analyze`: each game, text and JSON, the start of a board, a tablebase,
//! and errors with exit status 2.

mod common;

use common::ok;
use serde_json::Value as Json;

fn json(args: &[&str]) -> Json {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    all.push("--json");
    serde_json::from_str(ok(&all, "").trim()).unwrap()
}

fn fails(args: &[&str], needle: &str) {
    let mut all = vec!["analyze"];
    all.extend_from_slice(args);
    let message = common::fails(&all, "");
    assert!(message.contains(needle), "{all:?}: expected {needle:?} in {message}");
}

#[test]
fn text_output_lists_every_move_best_first() {
    let out = ok(&["analyze", "pawns", "pppp/..../..../PPPP w"], "");
    assert!(out.contains("white to move: win in 11 (solver: layered)"), "{out}");
    assert!(out.contains("  p p p p\n"), "the board is drawn:\n{out}");
    let moves: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("move ")).skip(1).collect();
    assert_eq!(moves.len(), 4, "{out}");
    assert!(moves[0].contains("win in 11") && moves[3].contains("loss in 12"), "{out}");
}

#[test]
fn json_for_each_game() {
    let pawns = json(&["pawns", "ppp/.../PPP w"]);
    assert_eq!((pawns["value"].as_str(), pawns["remoteness"].as_u64()), (Some("loss"), Some(6)));
    let chase = json(&["chase", "1,1 2,2 w", "--size", "2"]);
    assert_eq!((chase["value"].as_str(), chase["remoteness"].as_u64()), (Some("loss"), Some(2)));
    assert_eq!(chase["variant"]["size"], "2");
    let dir = std::env::temp_dir().join(format!("gsolve-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let map = dir.join("map.txt");
    std::fs::write(&map, "5 4\nQ...E\n.##..\n..#..\nE...A\n").unwrap();
    let queens = json(&["queens-case", "1,1 4,5 q", "--map", map.to_str().unwrap()]);
    assert_eq!((queens["value"].as_str(), queens["remoteness"].as_u64()), (Some("win"), Some(6)));
    assert_eq!(queens["moves"][1]["value"], "draw");
    assert_eq!(queens["moves"][1]["delta"], Json::Null);
    // The queen-to-move start of the map, without a position.
    assert_eq!(json(&["queens-case", "--map", map.to_str().unwrap()])["position"], "1,1 4,5 q");
    let snakes = json(&["snakes", "1../.../..2 1"]);
    assert_eq!((snakes["value"].as_str(), snakes["remoteness"].as_u64()), (Some("win"), Some(5)));
    assert_eq!(snakes["board"]["cells"][2], "..2");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn starts_from_board_sizes_and_examples() {
    assert_eq!(json(&["pawns", "--rows", "3", "--cols", "3"])["position"], "ppp/.../PPP w");
    assert_eq!(json(&["chase", "--size", "3"])["position"], "1,1 3,3 w");
    assert_eq!(json(&["snakes", "--rows", "2", "--cols", "2"])["position"], "1./.2 1");
    assert_eq!(json(&["pawns"])["position"], "pppp/..../..../PPPP w");
}

#[test]
fn a_tablebase_answers_for_its_variant() {
    let dir = std::env::temp_dir().join(format!("gsolve-analyze-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p33.gtb");
    ok(&["build", "pawns", "--rows", "3", "--cols", "3", "-o", file.to_str().unwrap()], "");
    let from_file = json(&["pawns", "ppp/.../PPP w", "--tablebase", file.to_str().unwrap()]);
    let solved = json(&["pawns", "ppp/.../PPP w"]);
    assert_eq!(from_file["solver"], "tablebase");
    assert_eq!(from_file["moves"], solved["moves"]);
    assert_eq!(from_file["value"], solved["value"]);
    fails(
        &["pawns", "pppp/..../..../PPPP w", "--tablebase", file.to_str().unwrap()],
        "the tablebase holds pawns rows=3",
    );
    fails(&["pawns", "--tablebase", dir.join("none.gtb").to_str().unwrap()], "none.gtb");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_exit_with_status_2() {
    fails(&["go"], "unknown game \"go\"");
    fails(&["chase", "1,1 4,4 w"], "needs the board size: give --size N");
    fails(&["queens-case", "1,1 4,4 q"], "needs a map: give --map FILE");
    fails(&["pawns", "--rows", "3"], "--rows R needs --cols C");
    fails(&["pawns", "--rows", "9", "--cols", "3"], "--rows 9: pawns boards have 2 to 8 rows");
    fails(&["snakes", "--rows", "3", "--cols", "12"], "--cols 12: snakes boards have 2 to 11 columns");
    fails(&["chase", "--size", "101"], "--size 101: chase boards are 2 to 100");
    fails(&["pawns", "ppp/.x./PPP w"], "column 6");
    fails(&["pawns", "--size", "4"], "--size does not apply to pawns");
    fails(&["chase", "--rows", "3"], "--rows does not apply to chase");
    fails(&["pawns", "ppp/.../PPP w", "--rows", "3"], "without a position");
    fails(&["queens-case", "--map", "/nonexistent/map.txt"], "cannot read");
    fails(&["snakes", "1../..2 3"], "expected 1 or 2");
}

#[test]
fn a_tablebase_gives_its_board_size_or_map() {
    let dir = std::env::temp_dir().join(format!("gsolve-analyze-variant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chase = dir.join("chase5.gtb");
    let chase = chase.to_str().unwrap();
    ok(&["build", "chase", "--size", "5", "-o", chase], "");
    // No --size: the file's board.
    let answer = json(&["chase", "1,1 5,5 b", "--tablebase", chase]);
    assert_eq!((answer["solver"].as_str(), answer["variant"]["size"].as_str()), (Some("tablebase"), Some("5")));
    assert_eq!(
        answer,
        json(&["chase", "1,1 5,5 b", "--size", "5"])
            .as_object()
            .map(|o| {
                let mut o = o.clone();
                o.insert("solver".into(), "tablebase".into());
                Json::Object(o)
            })
            .unwrap()
    );
    // No position: the start of the file's board, not the 4x4 example.
    assert_eq!(json(&["chase", "--tablebase", chase])["position"], "1,1 5,5 w");
    // A flag that says what the file says is fine; one that contradicts it is named.
    assert_eq!(json(&["chase", "1,1 5,5 b", "--size", "5", "--tablebase", chase])["solver"], "tablebase");
    fails(&["chase", "1,1 5,5 b", "--size", "6", "--tablebase", chase], "--size 6 contradicts the tablebase");
    fails(&["chase", "--size", "6", "--tablebase", chase], "holds chase size=5");
    fails(&["pawns", "--tablebase", chase], "is a tablebase of chase (size=5), not of pawns");

    // Queen's Case: the map is in the file.
    let map = dir.join("map.txt");
    std::fs::write(&map, "5 4\nQ...E\n.##..\n..#..\nE...A\n").unwrap();
    let queens = dir.join("queens.gtb");
    let queens = queens.to_str().unwrap();
    ok(&["build", "queens-case", map.to_str().unwrap(), "-o", queens], "");
    let answer = json(&["queens-case", "1,1 4,5 q", "--tablebase", queens]);
    assert_eq!((answer["value"].as_str(), answer["remoteness"].as_u64()), (Some("win"), Some(6)));
    assert_eq!(json(&["queens-case", "--tablebase", queens])["position"], "1,1 4,5 q");
    std::fs::write(dir.join("other.txt"), "3 1\nQAE\n").unwrap();
    fails(
        &["queens-case", "--map", dir.join("other.txt").to_str().unwrap(), "--tablebase", queens],
        "--map contradicts the tablebase",
    );

    // Pawns: no position means the file's board.
    let pawns = dir.join("p33.gtb");
    let pawns = pawns.to_str().unwrap();
    ok(&["build", "pawns", "--rows", "3", "--cols", "3", "-o", pawns], "");
    assert_eq!(json(&["pawns", "--tablebase", pawns])["position"], "ppp/.../PPP w");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn snakes_bodies_are_not_walls() {
    let answer = json(&["snakes", "a1#./..../...2 2"]);
    assert_eq!(answer["board"]["cells"][0], "a1#.");
    // Each move turns the mover's head into its own body.
    let moves = answer["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        let position = m["position"].as_str().unwrap();
        assert!(position.starts_with("a1#.") && position.contains('b') && position.ends_with(" 1"), "{position}");
    }
    let text = ok(&["analyze", "snakes", "a1#./..../...2 2"], "");
    assert!(text.contains("  a 1 # ."), "{text}");
}
