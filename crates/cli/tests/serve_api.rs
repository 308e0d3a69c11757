//! `gsolve serve`: the real binary on a free port, asked over HTTP. The page and its
//! files are served; every game's example is analysed with the best move first; bad
//! requests get a 4xx with a JSON message, and the server goes on answering. Silent
//! and slow connections are closed after 10 s, connections over the cap and
//! analyses beyond one a core are refused at once with a 503, and Ctrl-C stops it.

mod common;

use common::{http, Process};
use serde_json::{json, Value};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

/// A running `gsolve serve --port 0`, killed when dropped.
struct Server {
    process: Process,
    url: String,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    fn start_with(options: &[&str]) -> Server {
        let (process, url) = common::serve(options);
        assert!(url.starts_with("http://127.0.0.1:") && url.ends_with('/'), "{url}");
        Server { process, url }
    }

    /// GET `path`: the status and the body.
    fn get(&self, path: &str) -> (u16, String) {
        let response = http::get(&format!("{}{path}", self.url));
        (response.status, response.body)
    }

    /// GET `path` and read JSON.
    fn get_json(&self, path: &str) -> (u16, Value) {
        let (status, body) = self.get(path);
        (status, parse(&body))
    }

    /// POST a body to `path` and read JSON.
    fn post_json(&self, path: &str, body: &str) -> (u16, Value) {
        let response = http::post_json(&format!("{}{path}", self.url), body);
        (response.status, parse(&response.body))
    }

    /// GET /api/analyze for these query pairs (encoded here).
    fn analyze(&self, pairs: &[(&str, &str)]) -> (u16, Value) {
        let query: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect();
        self.get_json(&format!("api/analyze?{}", query.join("&")))
    }

    /// Asserts the server is still running and answering.
    fn assert_alive(&mut self) {
        assert!(self.process.0.try_wait().expect("the child's status").is_none(), "the server has exited");
        let (status, games) = self.get_json("api/games");
        assert_eq!(status, 200);
        assert_eq!(games["games"].as_array().map(Vec::len), Some(4));
    }
}

fn parse(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

/// Percent-encodes a query value.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Asserts a 4xx answer with a JSON message containing `needle`.
fn assert_error(answer: (u16, Value), status: u16, needle: &str) -> String {
    let (got, body) = answer;
    assert_eq!(got, status, "{body}");
    let message = body["error"].as_str().unwrap_or_else(|| panic!("no error message: {body}"));
    assert!(message.contains(needle), "{message:?} should mention {needle:?}");
    assert!(body["kind"].is_string(), "{body}");
    message.to_string()
}

#[test]
fn serves_the_page_and_its_files() {
    let server = Server::start();
    let (status, page) = server.get("");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"app.js\"") && page.contains("id=\"board\""), "{page}");
    let (status, script) = server.get("app.js");
    assert_eq!(status, 200);
    assert!(script.contains("api/analyze"));
    let (status, style) = server.get("style.css");
    assert_eq!(status, 200);
    assert!(style.contains("--win"));
    let response = http::get(&format!("{}app.js", server.url));
    let content_type = response.header("content-type").unwrap_or_default();
    assert!(content_type.contains("javascript"), "{content_type}");
    let (status, _) = server.get("no-such-page");
    assert_eq!(status, 404);
}

#[test]
fn games_lists_every_game_with_its_example() {
    let server = Server::start();
    let (status, body) = server.get_json("api/games");
    assert_eq!(status, 200);
    let games = body["games"].as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["pawns", "chase", "queens-case", "snakes"]);
    for game in games {
        assert!(game["title"].is_string() && game["notation"].is_string(), "{game}");
        assert_eq!(game["example"]["game"], game["name"]);
        assert!(!game["parameters"].as_array().unwrap().is_empty(), "{game}");
        assert_eq!(game["sides"].as_array().unwrap().len(), 2, "{game}");
    }
    assert_eq!(games[0]["example"]["position"], "pppp/..../..../PPPP w");
    assert!(body["limits"]["max_positions"].as_u64().unwrap() > 0);
    assert_eq!(body["tablebase"], Value::Null);
    assert_eq!(body["default"], "pawns", "the page opens on the first game");
}

/// A game's description in `/api/games`, by name.
fn described<'a>(games: &'a Value, name: &str) -> &'a Value {
    games["games"].as_array().unwrap().iter().find(|g| g["name"] == name).unwrap_or_else(|| panic!("{name} listed"))
}

/// What the page draws and edits by, for each game: nothing of it is the page's own.
#[test]
fn games_describe_how_the_page_draws_and_edits_them() {
    let server = Server::start();
    let (_, games) = server.get_json("api/games");
    let edit = |written: &str, cycle: &[&str], unique: &[&str], both: Value, fixed: &[&str]| json!({"written": written, "cycle": cycle, "unique": unique, "both": both, "fixed": fixed});
    // (game, checkered, editing without its help, a word of the help, glyphs)
    let expected = [
        (
            "pawns",
            true,
            edit("board", &[".", "P", "p"], &[], Value::Null, &[]),
            "white pawn",
            json!({
                "P": {"role": "piece", "side": 0, "look": "pawn", "colour": "white"},
                "p": {"role": "piece", "side": 1, "look": "pawn", "colour": "black"},
            }),
        ),
        (
            "chase",
            true,
            edit("cells", &[".", "W", "B"], &["W", "B"], json!("X"), &[]),
            "placing a piece moves it there",
            json!({
                "W": {"role": "piece", "side": 0, "look": "disc", "colour": "white"},
                "B": {"role": "piece", "side": 1, "look": "disc", "colour": "black"},
            }),
        ),
        (
            "queens-case",
            false,
            edit("cells", &[".", "Q", "A"], &["Q", "A"], json!("X"), &["#"]),
            "The map is a board setting",
            json!({
                "Q": {"role": "piece", "side": 0, "look": "disc", "colour": "purple"},
                "A": {"role": "piece", "side": 1, "look": "disc", "colour": "brown"},
                "E": {"role": "goal", "look": "word", "word": "exit"},
            }),
        ),
        (
            "snakes",
            false,
            edit("board", &[".", "#", "1", "2"], &["1", "2"], Value::Null, &[]),
            "a body (a, b) becomes free",
            json!({
                "1": {"role": "head", "side": 0, "look": "disc", "colour": "blue"},
                "2": {"role": "head", "side": 1, "look": "disc", "colour": "orange"},
                "a": {"role": "trail", "side": 0, "look": "shade", "colour": "blue"},
                "b": {"role": "trail", "side": 1, "look": "shade", "colour": "orange"},
            }),
        ),
    ];
    for (name, checkered, editing, help, glyphs) in expected {
        let game = described(&games, name);
        assert_eq!(game["checkered"], checkered, "{name}");
        let mut got = game["editing"].clone();
        let said = got.as_object_mut().unwrap().remove("help").unwrap();
        assert_eq!(got, editing, "{name}");
        assert!(said.as_str().unwrap().starts_with("Click") && said.as_str().unwrap().contains(help), "{name}: {said}");
        assert_eq!(game["glyphs"], glyphs, "{name}");
        // Every character a click puts or a glyph names is one the board is drawn with.
        let cells = game["cells"].as_object().unwrap();
        for ch in
            game["editing"]["cycle"].as_array().unwrap().iter().chain(game["editing"]["unique"].as_array().unwrap())
        {
            assert!(cells.contains_key(ch.as_str().unwrap()), "{name}: {ch}");
        }
        assert!(glyphs.as_object().unwrap().keys().all(|ch| cells.contains_key(ch)), "{name}");
    }
    let map = &described(&games, "queens-case")["parameters"][0];
    assert_eq!((&map["kind"], &map["cells"]), (&json!("map"), &json!([".", "#", "E", "Q", "A"])));
    let size = &described(&games, "chase")["parameters"][0];
    assert_eq!(size["cells"], Value::Null, "a number parameter has no cells");

    // A rules game: its pieces in the click's cycle, white and black discs; its
    // zones' marks left alone, those a piece wins by reaching drawn as goals.
    let breakthrough = common::example("rules/breakthrough.toml");
    let server = Server::start_with(&["--rules", breakthrough.to_str().unwrap()]);
    let (_, games) = server.get_json("api/games");
    let game = described(&games, "rules");
    assert_eq!(game["checkered"], true);
    let mut editing = game["editing"].clone();
    editing.as_object_mut().unwrap().remove("help");
    assert_eq!(editing, edit("board", &[".", "W", "B"], &[], Value::Null, &["#"]));
    assert_eq!(
        game["glyphs"],
        json!({
            "W": {"role": "piece", "side": 0, "look": "disc", "colour": "white"},
            "B": {"role": "piece", "side": 1, "look": "disc", "colour": "black"},
        })
    );
    let queens = common::example("rules/queens-case.toml");
    let server = Server::start_with(&["--rules", queens.to_str().unwrap(), "--start", "Q...E/.##../..#../E...A q"]);
    let (_, games) = server.get_json("api/games");
    let game = described(&games, "rules");
    assert_eq!(game["editing"]["cycle"], json!([".", "Q", "A"]));
    assert_eq!(game["editing"]["fixed"], json!(["#", "E"]));
    assert_eq!(game["glyphs"]["E"], json!({"role": "goal", "look": "word", "word": "E"}));
    assert_eq!(game["glyphs"]["Q"]["colour"], "white");
    assert_eq!(game["parameters"], json!([]), "the position carries the map");
}

#[test]
fn a_tablebase_answers_its_game_and_refuses_others() {
    let path = std::env::temp_dir().join(format!("gsolve-serve-{}-p33.gtb", std::process::id()));
    let built = Command::new(env!("CARGO_BIN_EXE_gsolve"))
        .args(["build", "pawns", "--rows", "3", "--cols", "3", "--force", "-o"])
        .arg(&path)
        .output()
        .expect("gsolve build runs");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let mut server = Server::start_with(&["--tablebase", path.to_str().unwrap()]);
    let (_, games) = server.get_json("api/games");
    assert_eq!(games["tablebase"]["game"], "pawns");
    assert_eq!(games["tablebase"]["parameters"], json!({"rows": "3", "cols": "3"}));
    let start = &games["tablebase"]["start"];
    assert_eq!(start["position"], "ppp/.../PPP w");
    let (status, hexapawn) = server.post_json("api/analyze", &start.to_string());
    assert_eq!(status, 200, "{hexapawn}");
    assert_eq!(
        (&hexapawn["solver"], &hexapawn["value"], &hexapawn["remoteness"]),
        (&json!("tablebase"), &json!("loss"), &json!(6))
    );
    assert_error(server.analyze(&[("game", "pawns"), ("position", "pppp/..../..../PPPP w")]), 422, "tablebase holds");
    assert_error(
        server.analyze(&[("game", "chase"), ("size", "4"), ("position", "1,1 4,4 w")]),
        422,
        "tablebase holds",
    );
    server.assert_alive();
    drop(server);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_tablebase_gives_its_variant_to_requests_without_one() {
    let path = std::env::temp_dir().join(format!("gsolve-serve-{}-chase5.gtb", std::process::id()));
    let built = Command::new(env!("CARGO_BIN_EXE_gsolve"))
        .args(["build", "chase", "--size", "5", "--force", "-o"])
        .arg(&path)
        .output()
        .expect("gsolve build runs");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let server = Server::start_with(&["--tablebase", path.to_str().unwrap()]);
    let (_, games) = server.get_json("api/games");
    assert_eq!(games["tablebase"]["parameters"], json!({"size": "5"}));
    assert_eq!(games["default"], "chase", "the page opens on the tablebase's game");
    assert_eq!(games["tablebase"]["start"]["position"], "1,1 5,5 w");
    let (status, answer) = server.analyze(&[("game", "chase"), ("position", "1,1 5,5 b")]);
    assert_eq!(status, 200, "{answer}");
    assert_eq!((&answer["solver"], &answer["variant"]["size"]), (&json!("tablebase"), &json!("5")));
    // The start without a board is on the tablebase's board, and it answers.
    let (_, start) = server.get_json("api/start?game=chase");
    assert_eq!(start["position"], "1,1 5,5 w", "{start}");
    assert_eq!(start["variant"]["size"], "5", "{start}");
    let (status, answer) = server.post_json("api/analyze", &start.to_string());
    assert_eq!(status, 200, "{answer}");
    drop(server);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn every_example_is_analysed_best_move_first() {
    let server = Server::start();
    let (_, body) = server.get_json("api/games");
    for game in body["games"].as_array().unwrap() {
        let example = &game["example"];
        // The example as a POST body, as the page sends it.
        let (status, analysis) = server.post_json("api/analyze", &example.to_string());
        assert_eq!(status, 200, "{example}: {analysis}");
        assert_eq!(analysis["game"], example["game"]);
        assert_eq!(analysis["variant"], example["variant"]);
        assert_eq!(analysis["position"], example["position"]);
        let moves = analysis["moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "{analysis}");
        // The position's value is its best move's value.
        assert_eq!(moves[0]["value"], analysis["value"], "{analysis}");
        assert_eq!(moves[0]["remoteness"], analysis["remoteness"], "{analysis}");
        for m in moves {
            for key in ["move", "from", "to", "value", "remoteness", "delta", "position"] {
                assert!(m.get(key).is_some(), "{key} missing in {m}");
            }
        }
        let board = &analysis["board"];
        assert_eq!(board["cells"].as_array().unwrap().len() as u64, board["rows"].as_u64().unwrap());
        // The same through the query string.
        let mut pairs: Vec<(&str, &str)> =
            vec![("game", example["game"].as_str().unwrap()), ("position", example["position"].as_str().unwrap())];
        for (key, value) in example["variant"].as_object().unwrap() {
            pairs.push((key, value.as_str().unwrap()));
        }
        let (status, again) = server.analyze(&pairs);
        assert_eq!(status, 200, "{again}");
        assert_eq!(again, analysis);
    }
}

#[test]
fn known_values() {
    let server = Server::start();
    let (status, octapawn) = server.analyze(&[("game", "pawns"), ("position", "pppp/..../..../PPPP w")]);
    assert_eq!(status, 200);
    assert_eq!(
        (&octapawn["to_move"], &octapawn["value"], &octapawn["remoteness"]),
        (&json!("white"), &json!("win"), &json!(11))
    );
    let best = &octapawn["moves"][0];
    assert_eq!((&best["value"], &best["remoteness"]), (&json!("win"), &json!(11)));
    // Every move is listed best first: the wins in 11, then the losses in 12.
    let values: Vec<(String, u64)> = octapawn["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["value"].as_str().unwrap().to_string(), m["remoteness"].as_u64().unwrap()))
        .collect();
    assert_eq!(values, [("win".into(), 11), ("win".into(), 11), ("loss".into(), 12), ("loss".into(), 12)]);
    // After the best move black is to move and loses in 10.
    let (_, after) = server.analyze(&[("game", "pawns"), ("position", best["position"].as_str().unwrap())]);
    assert_eq!(
        (&after["to_move"], &after["value"], &after["remoteness"]),
        (&json!("black"), &json!("loss"), &json!(10))
    );

    let (_, hexapawn) = server.analyze(&[("game", "pawns"), ("position", "ppp/.../PPP w")]);
    assert_eq!((&hexapawn["value"], &hexapawn["remoteness"]), (&json!("loss"), &json!(6)));
    assert_eq!(hexapawn["moves"].as_array().unwrap().len(), 3);

    // The CQOI sample `2 1 1 2 2` -> BLACK 2.
    let (_, chase) = server.analyze(&[("game", "chase"), ("size", "2"), ("position", "1,1 2,2 w")]);
    assert_eq!((&chase["value"], &chase["remoteness"]), (&json!("loss"), &json!(2)));
    // A game already over: no moves, an end.
    let (_, over) = server.analyze(&[("game", "chase"), ("size", "4"), ("position", "2,2 2,2 b")]);
    assert_eq!((&over["value"], &over["remoteness"]), (&json!("loss"), &json!(0)));
    assert_eq!(over["moves"], json!([]));
    assert!(over["end"].as_str().unwrap().contains("captures"), "{over}");
    // Variant values may be JSON numbers in a POST body.
    let (status, numeric) =
        server.post_json("api/analyze", r#"{"game": "chase", "variant": {"size": 2}, "position": "1,1 2,2 w"}"#);
    assert_eq!(status, 200, "{numeric}");
    assert_eq!(numeric["remoteness"], 2);
}

#[test]
fn start_setups() {
    let mut server = Server::start();
    let (status, setup) = server.get_json("api/start?game=pawns&rows=3&cols=3");
    assert_eq!(status, 200);
    assert_eq!(setup, json!({"game": "pawns", "variant": {}, "position": "ppp/.../PPP w"}));
    let (_, setup) = server.get_json("api/start?game=chase&size=6");
    assert_eq!(setup, json!({"game": "chase", "variant": {"size": "6"}, "position": "1,1 6,6 w"}));
    let (_, setup) = server.get_json("api/start?game=snakes&rows=3&cols=4");
    assert_eq!(setup["position"], "1.../..../...2 1");
    let (_, setup) = server.get_json("api/start?game=queens-case&map=Q..E%2F.%23..%2F...A");
    assert_eq!(setup["position"], "1,1 3,4 q");
    // Without board parameters: the game's example.
    let (_, setup) = server.get_json("api/start?game=chase");
    assert_eq!(setup["position"], "1,1 4,4 w");
    // A start setup analyses.
    let (status, _) = server.post_json("api/analyze", &setup.to_string());
    assert_eq!(status, 200);

    assert_error(server.get_json("api/start?game=pawns&rows=9&cols=3"), 400, "rows");
    assert_error(server.get_json("api/start?game=pawns&rows=3"), 400, "cols");
    assert_error(server.get_json("api/start?game=go&size=9"), 400, "unknown game");
    assert_error(server.get_json("api/start"), 400, "game");
    server.assert_alive();
}

#[test]
fn bad_requests_get_4xx_with_a_message_and_the_server_goes_on() {
    let mut server = Server::start();
    assert_error(server.analyze(&[("game", "go"), ("position", "x")]), 400, "unknown game \"go\"");
    assert_error(server.post_json("api/analyze", r#"{"game": "checkers", "position": "x"}"#), 400, "unknown game");
    // Malformed positions: the message names the column.
    let message = assert_error(server.analyze(&[("game", "pawns"), ("position", "ppp/.x./PPP w")]), 400, "column");
    assert!(message.contains("column 6"), "{message}");
    assert_error(server.analyze(&[("game", "chase"), ("size", "4"), ("position", "1,1 9,9 w")]), 400, "column");
    assert_error(server.analyze(&[("game", "pawns"), ("position", "pppp/..../..../PPPP x")]), 400, "column");
    // Missing parts.
    assert_error(server.analyze(&[("game", "chase"), ("position", "1,1 4,4 w")]), 400, "size");
    assert_error(server.analyze(&[("game", "queens-case"), ("position", "1,1 4,4 q")]), 400, "map");
    assert_error(server.analyze(&[("game", "chase"), ("size", "4")]), 400, "position");
    assert_error(server.analyze(&[("position", "1,1 4,4 w")]), 400, "game");
    assert_error(server.post_json("api/analyze", r#"{"game": "chase", "position": "1,1 4,4 w"}"#), 400, "size");
    // Wrong variants.
    assert_error(server.analyze(&[("game", "chase"), ("size", "1"), ("position", "1,1 1,1 w")]), 400, "size");
    assert_error(server.analyze(&[("game", "pawns"), ("size", "4"), ("position", "ppp/.../PPP w")]), 400, "size");
    // Malformed requests.
    assert_error(server.post_json("api/analyze", "{"), 400, "not JSON");
    assert_error(server.post_json("api/analyze", "[1]"), 400, "object");
    assert_error(server.post_json("api/analyze", r#"{"game": "pawns", "positon": "x"}"#), 400, "positon");
    assert_error(server.post_json("api/analyze", r#"{"game": 3, "position": "x"}"#), 400, "game");
    assert_error(
        server.post_json("api/analyze", r#"{"game": "chase", "variant": {"size": [4]}, "position": "1,1 4,4 w"}"#),
        400,
        "size",
    );
    assert_error(server.get_json("api/analyze?game=pawns&game=chase&position=x"), 400, "twice");
    assert_error(server.get_json("api/no-such-endpoint"), 404, "/api/games");
    assert_error(server.post_json("api/games", "{}"), 405, "GET");
    // Too large to solve within the interactive budget.
    assert_error(
        server.analyze(&[("game", "chase"), ("size", "100"), ("position", "1,1 100,100 w")]),
        422,
        "positions",
    );
    // The message says how to get the answer anyway.
    assert_error(
        server.analyze(&[("game", "chase"), ("size", "100"), ("position", "1,1 100,100 w")]),
        422,
        "run `gsolve analyze chase --size 100 '1,1 100,100 w'`",
    );
    // And how to build a tablebase of the variant (written from the catalog's parameters).
    assert_error(
        server.analyze(&[("game", "chase"), ("size", "100"), ("position", "1,1 100,100 w")]),
        422,
        "`gsolve build chase --size 100 -o chase.gtb`",
    );
    // 6x10 cells, 58 of them free: more than the 50 searched interactively.
    let mut rows = vec![".".repeat(10); 6];
    rows[0].replace_range(0..1, "1");
    rows[5].replace_range(9..10, "2");
    let open = format!("{} 1", rows.join("/"));
    assert_error(server.analyze(&[("game", "snakes"), ("position", &open)]), 422, "free cells");
    assert_error(
        server.analyze(&[("game", "pawns"), ("position", "pppppp/....../....../....../....../PPPPPP w")]),
        422,
        "cells",
    );
    assert_error(
        server.analyze(&[("game", "pawns"), ("position", "pppppp/....../....../....../....../PPPPPP w")]),
        422,
        "`gsolve build pawns --rows 6 --cols 6 -o pawns.gtb`",
    );
    server.assert_alive();
    // And answers right after the errors.
    let (status, hexapawn) = server.analyze(&[("game", "pawns"), ("position", "ppp/.../PPP w")]);
    assert_eq!(status, 200);
    assert_eq!(hexapawn["remoteness"], 6);
}

#[test]
fn concurrent_requests_are_all_answered() {
    let mut server = Server::start();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (2..=9)
            .map(|n| {
                let server = &server;
                scope.spawn(move || {
                    let size = n.to_string();
                    let position = format!("1,1 {n},{n} w");
                    // A busy server (every analysis slot taken) says when to ask again.
                    for _ in 0..30 {
                        let answer = server.analyze(&[("game", "chase"), ("size", &size), ("position", &position)]);
                        if answer.0 != 503 {
                            return answer;
                        }
                        assert_eq!(answer.1["kind"], "busy", "{}", answer.1);
                        std::thread::sleep(Duration::from_secs(1));
                    }
                    panic!("chase {n}: still busy after 30 tries");
                })
            })
            .collect();
        for handle in handles {
            let (status, analysis) = handle.join().unwrap();
            assert_eq!(status, 200, "{analysis}");
            assert_eq!(analysis["value"], "loss", "{analysis}");
        }
    });
    server.assert_alive();
}

/// Reads and drops what the server sends on `stream` until it closes the
/// connection; returns how long after `since` that was, or `None` if it is still
/// open `limit` after `since`. A reset counts as closed.
fn closed_after(mut stream: &TcpStream, since: Instant, limit: Duration) -> Option<Duration> {
    use std::io::{ErrorKind, Read};
    stream.set_read_timeout(Some(Duration::from_millis(200))).expect("a read timeout");
    let mut sink = [0u8; 4096];
    while since.elapsed() < limit {
        match stream.read(&mut sink) {
            Ok(0) => return Some(since.elapsed()),
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted) => {}
            Err(_) => return Some(since.elapsed()),
        }
    }
    None
}

/// Asserts that the server closed the connection about 10 s (its head timeout)
/// after `since`: not at once, and not much later.
fn assert_closed_by_the_timeout(what: &str, stream: &TcpStream, since: Instant) {
    let closed = closed_after(stream, since, Duration::from_secs(15));
    let Some(after) = closed else { panic!("{what}: still open 15 s later") };
    assert!((9.0..12.0).contains(&after.as_secs_f64()), "{what}: closed after {after:?}, expected about 10 s");
}

/// Writes `bytes` on a new connection to the server.
fn connect_and_send(server: &Server, bytes: &[u8]) -> TcpStream {
    use std::io::Write;
    let mut stream = TcpStream::connect(http::host(&server.url)).expect("connects");
    stream.write_all(bytes).expect("sends");
    stream
}

#[test]
fn silent_and_slow_connections_are_closed_within_10_s() {
    use std::io::Write;
    let mut server = Server::start();
    let head = "GET /api/games HTTP/1.1\r\nHost: gsolve\r\n\r\n";
    std::thread::scope(|scope| {
        let server = &server;
        scope.spawn(|| {
            let opened = Instant::now();
            let silent = connect_and_send(server, b"");
            assert_closed_by_the_timeout("a connection that sends nothing", &silent, opened);
        });
        scope.spawn(|| {
            let opened = Instant::now();
            let half = connect_and_send(server, b"GET /api/ga");
            assert_closed_by_the_timeout("half a request line", &half, opened);
        });
        scope.spawn(move || {
            // A header sent a byte a second: the timer runs from the start of the head.
            let opened = Instant::now();
            let mut slow = connect_and_send(server, b"");
            for byte in head.as_bytes().iter().take(14) {
                if slow.write_all(&[*byte]).is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_secs(1));
            }
            let closed = closed_after(&slow, opened, Duration::from_secs(16));
            assert!(closed.is_some_and(|t| t < Duration::from_secs(15)), "a header a byte a second: {closed:?}");
        });
        scope.spawn(move || {
            // Kept alive after an answer, then silent: the same timer, from the answer.
            let kept = connect_and_send(server, head.as_bytes());
            kept.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let answer = http::read_response_from(&kept).expect("an answer");
            assert_eq!(answer.status, 200);
            assert_closed_by_the_timeout("a kept-alive connection, idle", &kept, Instant::now());
        });
        scope.spawn(|| {
            // A body that stops half-way: 408 once the body timeout is over.
            let sent = Instant::now();
            let stalled = connect_and_send(
                server,
                b"POST /api/analyze HTTP/1.1\r\nHost: gsolve\r\nContent-Length: 100\r\n\r\n{\"game\": ",
            );
            stalled.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
            let answer = http::read_response_from(&stalled).expect("an answer");
            let after = sent.elapsed().as_secs_f64();
            assert_eq!(answer.status, 408, "{}", answer.body);
            assert_eq!(parse(&answer.body)["kind"], "timeout");
            assert!((9.0..12.0).contains(&after), "the 408 came after {after} s");
        });
        // Meanwhile the server answers others at once.
        for _ in 0..5 {
            let asked = Instant::now();
            let (status, _) = server.get("api/games");
            assert_eq!(status, 200);
            assert!(asked.elapsed() < Duration::from_secs(2), "{:?}", asked.elapsed());
            std::thread::sleep(Duration::from_secs(1));
        }
    });
    server.assert_alive();
}

#[test]
fn connections_over_the_cap_are_refused_at_once() {
    let mut server = Server::start_with(&["--max-connections", "4"]);
    // Four connections, each known to be accepted by an answer, then kept open.
    let held: Vec<TcpStream> = (0..4)
        .map(|_| {
            let stream = connect_and_send(&server, b"GET /api/games HTTP/1.1\r\nHost: gsolve\r\n\r\n");
            stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            assert_eq!(http::read_response_from(&stream).expect("an answer").status, 200);
            stream
        })
        .collect();
    let asked = Instant::now();
    let refused = http::request("GET", &format!("{}api/games", server.url), None, Duration::from_secs(5));
    assert!(asked.elapsed() < Duration::from_secs(1), "the refusal took {:?}", asked.elapsed());
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert!(refused.body.contains("too many connections"), "{}", refused.body);
    // Once they close, the server answers again.
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let answer = http::request("GET", &format!("{}api/games", server.url), None, Duration::from_secs(5));
        if answer.status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "still refused: {} {}", answer.status, answer.body);
        std::thread::sleep(Duration::from_millis(100));
    }
    server.assert_alive();
}

#[test]
fn analyses_beyond_one_a_core_are_refused_busy_and_cheap_requests_go_on() {
    let mut server = Server::start();
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    // More whole-game solves at once than there are cores, each of another size
    // (no cache), each a few million positions.
    let sizes: Vec<u32> = (0..2 * cores as u32 + 2).map(|i| 36 - i % 16).collect();
    let answers = std::thread::scope(|scope| {
        let handles: Vec<_> = sizes
            .iter()
            .map(|&n| {
                let server = &server;
                scope.spawn(move || {
                    let url = format!("{}api/analyze?game=chase&size={n}&position=1,1+{n},{n}+w", server.url);
                    let asked = Instant::now();
                    (http::request("GET", &url, None, Duration::from_secs(120)), asked.elapsed())
                })
            })
            .collect();
        // Cheap requests never wait for analyses.
        std::thread::sleep(Duration::from_millis(200));
        for path in ["api/games", "api/start?game=pawns&rows=5&cols=5", "", "app.js"] {
            let asked = Instant::now();
            let (status, _) = server.get(path);
            assert_eq!(status, 200, "{path}");
            assert!(asked.elapsed() < Duration::from_secs(2), "{path}: {:?}", asked.elapsed());
        }
        handles.into_iter().map(|h| h.join().unwrap()).collect::<Vec<_>>()
    });
    let busy: Vec<_> = answers.iter().filter(|(a, _)| a.status == 503).collect();
    assert!(
        !busy.is_empty(),
        "no request was refused: {:?}",
        answers.iter().map(|(a, _)| a.status).collect::<Vec<_>>()
    );
    for (answer, took) in &answers {
        match answer.status {
            200 => {}
            503 => {
                assert_eq!(answer.header("retry-after"), Some("1"));
                let body = parse(&answer.body);
                assert_eq!(body["kind"], "busy", "{body}");
                assert!(body["error"].as_str().unwrap().contains("busy"), "{body}");
                assert!(*took < Duration::from_secs(2), "the refusal took {took:?}");
            }
            status => panic!("{status}: {}", answer.body),
        }
    }
    assert!(answers.len() - busy.len() >= 1, "nothing was analysed");
    server.assert_alive();
}

/// Writes a request whose body is sent by `send` on another thread (errors ignored:
/// the server may close before reading it all) and reads the answer.
fn answer_to(server: &Server, head: &str, send: impl FnOnce(&mut TcpStream) + Send) -> http::Response {
    let stream = connect_and_send(server, head.as_bytes());
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let mut writer = stream.try_clone().expect("a second handle");
    std::thread::scope(|scope| {
        scope.spawn(move || send(&mut writer));
        http::read_response_from(&stream).expect("an answer")
    })
}

#[test]
fn bodies_with_duplicate_keys_or_over_2_mib_are_refused() {
    use std::io::Write;
    let mut server = Server::start();
    let message = assert_error(
        server.post_json("api/analyze", r#"{"game": "chase", "game": "pawns", "position": "ppp/.../PPP w"}"#),
        400,
        "the key \"game\" is given twice",
    );
    assert!(message.contains("column"), "{message}");
    assert_error(
        server.post_json(
            "api/analyze",
            r#"{"game": "chase", "variant": {"size": "4", "size": "5"}, "position": "1,1 4,4 w"}"#,
        ),
        400,
        "the key \"size\" is given twice",
    );
    assert_error(
        server.post_json(
            "api/analyze",
            r#"{"game": "chase", "variant": {"size": "4"}, "position": "1,1 4,4 w", "x": {"a": 1, "a": 2}}"#,
        ),
        400,
        "\"a\" is given twice",
    );
    // A length over the limit is refused before the body is read.
    let head = "POST /api/analyze HTTP/1.1\r\nHost: gsolve\r\nContent-Type: application/json\r\nContent-Length: 3145728\r\n\r\n";
    let refused = answer_to(&server, head, |_| {});
    assert_eq!(refused.status, 413, "{}", refused.body);
    let body = parse(&refused.body);
    assert_eq!(body["kind"], "body-too-large");
    assert!(body["error"].as_str().unwrap().contains("2 MiB"), "{body}");
    // Without a length, once 2 MiB have come.
    let head = "POST /api/analyze HTTP/1.1\r\nHost: gsolve\r\nTransfer-Encoding: chunked\r\n\r\n";
    let refused = answer_to(&server, head, |stream| {
        let chunk = format!("10000\r\n{}\r\n", " ".repeat(0x10000));
        for _ in 0..48 {
            if stream.write_all(chunk.as_bytes()).is_err() {
                break;
            }
        }
    });
    assert_eq!(refused.status, 413, "{}", refused.body);
    assert_eq!(parse(&refused.body)["kind"], "body-too-large");
    // Just under the limit: read, and judged on its content.
    let padded =
        format!(r#"{{"game": "chase", "variant": {{"size": "4"}}, "position": "1,1 4,4 w"{}}}"#, " ".repeat(2_000_000));
    let (status, answer) = server.post_json("api/analyze", &padded);
    assert_eq!(status, 200, "{answer}");
    server.assert_alive();
}

/// A request head over 64 KiB (docs/reliability.md) is answered `431` and the
/// connection closed, whether sent at once or line by line; one just under the
/// limit is served. (hyper's `max_buf_size` alone let a 110 KB head through when
/// it came in one read.)
#[test]
fn heads_over_64_kib_are_refused() {
    use std::io::Write;
    let mut server = Server::start();
    let head = |padding: usize| {
        format!(
            "GET /api/games HTTP/1.1\r\nHost: gsolve\r\nX-Padding: {}\r\nConnection: keep-alive\r\n\r\n",
            "a".repeat(padding)
        )
    };
    let under = answer_to(&server, &head(60_000), |_| {});
    assert_eq!(under.status, 200, "{}", under.body);
    for (padding, pieces) in [(110_000, 1), (110_000, 20), (70_000, 1)] {
        let text = head(padding);
        let (first, rest) = text.split_at(64);
        let since = Instant::now();
        let stream = connect_and_send(&server, first.as_bytes());
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut writer = stream.try_clone().expect("a second handle");
        let answer = std::thread::scope(|scope| {
            scope.spawn(move || {
                // The server may close before reading it all.
                for piece in rest.as_bytes().chunks(rest.len().div_ceil(pieces)) {
                    if writer.write_all(piece).is_err() {
                        break;
                    }
                }
            });
            http::read_response_from(&stream).expect("an answer")
        });
        assert_eq!(answer.status, 431, "a {padding}-byte header in {pieces} pieces: {}", answer.body);
        let closed = closed_after(&stream, since, Duration::from_secs(5));
        assert!(closed.is_some(), "a {padding}-byte header: the connection was left open");
    }
    server.assert_alive();
}

#[test]
fn ctrl_c_stops_the_server_with_connections_open() {
    let mut server = Server::start();
    let _idle = connect_and_send(&server, b"");
    let _half = connect_and_send(&server, b"GET /api/ga");
    let kept = connect_and_send(&server, b"GET /api/games HTTP/1.1\r\nHost: gsolve\r\n\r\n");
    kept.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    assert_eq!(http::read_response_from(&kept).expect("an answer").status, 200);
    let pid = server.process.0.id().to_string();
    let signalled = Command::new("kill").args(["-INT", &pid]).status().expect("kill runs");
    assert!(signalled.success());
    let sent = Instant::now();
    let status = loop {
        if let Some(status) = server.process.0.try_wait().expect("the child's status") {
            break status;
        }
        assert!(sent.elapsed() < Duration::from_secs(8), "still running 8 s after Ctrl-C");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    assert!(sent.elapsed() < Duration::from_secs(2), "Ctrl-C took {:?} with no request under way", sent.elapsed());
    let closed = closed_after(&kept, Instant::now(), Duration::from_secs(1));
    assert!(closed.is_some(), "the kept-alive connection is still open");
}

#[test]
fn bodies_over_64_kib_are_read_8_at_a_time() {
    let mut server = Server::start();
    let large_head = |length: usize| {
        format!("POST /api/analyze HTTP/1.1\r\nHost: gsolve\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n")
    };
    // Eight large bodies announced and not sent: the server waits for them.
    let stalled: Vec<TcpStream> = (0..8).map(|_| connect_and_send(&server, large_head(1 << 20).as_bytes())).collect();
    std::thread::sleep(Duration::from_millis(500));
    let padded = |length: usize| {
        let setup = r#"{"game": "chase", "variant": {"size": "4"}, "position": "1,1 4,4 w"}"#;
        format!("{setup}{}", " ".repeat(length - setup.len()))
    };
    let large = padded(100_000);
    let refused = answer_to(&server, &large_head(large.len()), |stream| {
        let _ = std::io::Write::write_all(stream, large.as_bytes());
    });
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert!(parse(&refused.body)["error"].as_str().unwrap().contains("bodies over 64 KiB"), "{}", refused.body);
    // Small bodies are read all the same.
    let (status, answer) = server.post_json("api/analyze", &padded(60_000));
    assert_eq!(status, 200, "{answer}");
    // Once the stalled clients go, a large body is read again.
    drop(stalled);
    std::thread::sleep(Duration::from_millis(500));
    let (status, answer) = server.post_json("api/analyze", &large);
    assert_eq!(status, 200, "{answer}");
    server.assert_alive();
}

#[test]
fn a_connection_cap_over_the_limit_of_open_files_is_refused_at_start() {
    let message = common::fails(&["serve", "--port", "0", "--max-connections", "0"], "");
    assert!(message.contains("--max-connections"), "{message}");
    // Only where the limit is finite; the server raises its soft limit to it.
    let Some(limit) = common::raise_descriptor_limit() else { return };
    if limit >= u64::from(u32::MAX) {
        return;
    }
    let message = common::fails(&["serve", "--port", "0", "--max-connections", &u32::MAX.to_string()], "");
    assert!(message.contains("limit of open files") && message.contains(&limit.to_string()), "{message}");
}
