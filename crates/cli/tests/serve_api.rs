//! `gsolve serve`: the real binary on a free port, asked over HTTP. The page and its
//! files are served; every game's example is analysed with the best move first; bad
//! requests get a 4xx with a JSON message, and the server goes on answering.

mod common;

use common::{http, Process};
use serde_json::{json, Value};
use std::process::Command;

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
    assert_eq!(games["tablebase"]["start"]["position"], "1,1 5,5 w");
    let (status, answer) = server.analyze(&[("game", "chase"), ("position", "1,1 5,5 b")]);
    assert_eq!(status, 200, "{answer}");
    assert_eq!((&answer["solver"], &answer["variant"]["size"]), (&json!("tablebase"), &json!("5")));
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
                    server.analyze(&[("game", "chase"), ("size", &size), ("position", &position)])
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
