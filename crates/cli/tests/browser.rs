//! End to end in a real headless browser: `gsolve serve --port 0`, Debian's
//! `chromedriver` and `chromium`, driven over the WebDriver HTTP protocol (a small std-only client in `common::http`).
//! The page opens on the served rules game (Breakthrough, too hard to answer at its
//! start: the notice is shown), then on the Octapawn start; the test plays a move by clicking it on the
//! board and checks the value shown against the API's answer, lets the computer
//! reply, undoes, and sets up a position by clicking in edit mode. Then: the chart's
//! axes (points inside, each tick label once), move badges on cells with pieces (in a
//! corner, off the piece, not on each other), a chase game played out (the history
//! list and the chart colour every ply from the same side), a board refused as too
//! large (the page keeps the board it shows, and its settings), and a rules game
//! (the server runs with `--rules examples/rules/breakthrough.toml`): its value, its
//! pieces drawn, a cell edited; a Queen's Case position set up by clicking.
//!
//! The test is marked ignored, so that a plain `cargo test` reports it as not run;
//! `.ci/run` installs both programs and runs it with `--ignored`, and without them it
//! fails. With
//! `GSOLVE_SCREENSHOT=FILE` it also writes a screenshot of a game in progress
//! (docs/screenshot.png is made this way).

mod common;

use common::{http, Process};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `gsolve serve --port 0` and its URL.
/// The server, offering a rules game (Breakthrough) beside the built-in ones.
fn start_server() -> (Process, String) {
    let rules = common::example("rules/breakthrough.toml");
    common::serve(&["--rules", rules.to_str().expect("a UTF-8 path")])
}

/// An executable named `name` on the PATH.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.is_file())
}

/// chromedriver and the browser, or why they cannot be used.
fn tools() -> Result<(PathBuf, PathBuf), String> {
    let driver = on_path("chromedriver").ok_or("chromedriver is not installed (Debian: chromium-driver)")?;
    let browser = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from("/usr/bin/chromium")).filter(|p| p.is_file()))
        .or_else(|| on_path("chromium"))
        .ok_or("chromium is not installed")?;
    Ok((driver, browser))
}

/// Polls `check` until it gives a value, or fails after `seconds`.
fn wait_for<T>(what: &str, seconds: u64, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        if let Some(value) = check() {
            return value;
        }
        assert!(Instant::now() < deadline, "timed out after {seconds} s waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One WebDriver HTTP request; returns the answer's `value`.
fn webdriver(method: &str, url: &str, body: Option<&Value>) -> Result<Value, String> {
    let text = body.map(Value::to_string);
    let response =
        http::try_request(method, url, text.as_deref().map(|t| ("application/json", t)), Duration::from_secs(60))?;
    if response.status >= 400 {
        return Err(format!("{method} {url}: HTTP {}: {}", response.status, response.body));
    }
    let answer: Value =
        serde_json::from_str(&response.body).map_err(|e| format!("{method} {url}: {e}: {}", response.body))?;
    Ok(answer["value"].clone())
}

/// A chromedriver process and one browser session, both ended when dropped.
struct Browser {
    session: String,
    _driver: Process,
}

impl Browser {
    fn start(driver: &Path, browser: &Path) -> Browser {
        let port = {
            let probe = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
            probe.local_addr().unwrap().port()
        };
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let process = Process(child);
        let base = format!("http://127.0.0.1:{port}");
        wait_for("chromedriver to listen", 30, || {
            webdriver("GET", &format!("{base}/status"), None).ok().filter(|s| s["ready"] == true)
        });
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": browser.to_string_lossy(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,900"],
            },
        }}});
        let created =
            webdriver("POST", &format!("{base}/session"), Some(&capabilities)).expect("a headless chromium session");
        let id = created["sessionId"].as_str().expect("a session id");
        Browser { session: format!("{base}/session/{id}"), _driver: process }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        webdriver(method, &format!("{}{path}", self.session), body.as_ref()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn open(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": url})));
    }

    fn script(&self, script: &str) -> Value {
        self.call("POST", "/execute/sync", Some(json!({"script": script, "args": []})))
    }

    fn find(&self, css: &str) -> String {
        let found = self.call("POST", "/element", Some(json!({"using": "css selector", "value": css})));
        // The W3C key is `element-6066-11e4-a52e-4a3a3c1bfce0`; some chromedriver
        // versions answer with another `element-…` key.
        let reference = found.as_object().and_then(|o| o.iter().find(|(k, _)| k.starts_with("element-")));
        reference.and_then(|(_, id)| id.as_str()).unwrap_or_else(|| panic!("no element {css}: {found}")).to_string()
    }

    fn click(&self, css: &str) {
        let element = self.find(css);
        self.call("POST", &format!("/element/{element}/click"), Some(json!({})));
    }

    /// Replaces an input's text, as typing would.
    fn type_text(&self, css: &str, text: &str) {
        let element = self.find(css);
        self.call("POST", &format!("/element/{element}/clear"), Some(json!({})));
        self.call("POST", &format!("/element/{element}/value"), Some(json!({"text": text})));
    }

    fn text(&self, css: &str) -> String {
        let element = self.find(css);
        self.call("GET", &format!("/element/{element}/text"), None).as_str().unwrap_or_default().to_string()
    }

    /// Waits until the page has shown the answer for ply `ply` and is idle.
    fn wait_ready(&self, ply: usize) {
        let script = "return [document.body.dataset.state, document.body.dataset.ply || ''];";
        wait_for(&format!("the page to show ply {ply}"), 30, || {
            let got = self.script(script);
            (got[0] == "ready" && got[1] == ply.to_string().as_str()).then_some(())
        });
    }

    /// Opens a setup through the address (as a pasted link would) and waits until the
    /// page shows `position` (canonical) at ply 0.
    fn load(&self, params: &Value, position: &str) {
        self.script(&format!("location.hash = new URLSearchParams({params}).toString(); return null;"));
        wait_for(&format!("the page to show {position}"), 30, || {
            let got = self.script(
                "return [document.body.dataset.state, document.body.dataset.position, document.body.dataset.ply];",
            );
            (got == json!(["ready", position, "0"])).then_some(())
        });
    }

    fn body_data(&self, key: &str) -> String {
        self.script(&format!("return document.body.dataset.{key};")).as_str().unwrap_or_default().to_string()
    }

    fn screenshot(&self) -> Vec<u8> {
        let encoded = self.call("GET", "/screenshot", None);
        base64_decode(encoded.as_str().expect("a base64 screenshot"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = webdriver("DELETE", &self.session, None);
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let digit = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=' && !c.is_ascii_whitespace()).map(digit).collect();
    let mut bytes = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &d)| n | (d as u32) << (18 - 6 * i));
        bytes.extend(&n.to_be_bytes()[1..chunk.len()]);
    }
    bytes
}

/// The API's analysis of a pawns position.
fn api_pawns(server: &str, position: &str) -> Value {
    api_analyze(server, &json!({"game": "pawns", "position": position}))
}

/// The API's answer to `POST /api/analyze` with this body, an error's too.
fn api_analyze(server: &str, body: &Value) -> Value {
    let url = format!("{server}api/analyze");
    let response = http::post_json(&url, &body.to_string());
    serde_json::from_str(&response.body).unwrap()
}

/// An analysis's value for the game's first side (white): the API's is for the side to move.
fn value_for_white(analysis: &Value) -> &str {
    let value = analysis["value"].as_str().unwrap();
    match (analysis["to_move"].as_str().unwrap(), value) {
        ("white", _) => value,
        (_, "win") => "loss",
        (_, "loss") => "win",
        _ => value,
    }
}

/// The value line the page shows for an analysis, e.g. `black to move: loss in 10`.
fn value_line(analysis: &Value) -> String {
    let value = analysis["value"].as_str().unwrap();
    match analysis["remoteness"].as_u64() {
        Some(r) => format!("{} to move: {value} in {r}", analysis["to_move"].as_str().unwrap()),
        None => format!("{} to move: {value}", analysis["to_move"].as_str().unwrap()),
    }
}

/// CSS for a move's badge on the board.
fn badge(m: &Value) -> String {
    format!("#board .move-badge[data-move=\"{}\"]", m["move"].as_str().unwrap())
}

/// The chart's first point lies inside its axes, and no tick label is drawn twice.
fn check_chart(browser: &Browser) {
    let chart = browser.script(
        "const chart = document.getElementById('chart');
         const first = chart.querySelector('.point[data-ply=\"0\"]');
         const ticks = (axis) => [...chart.querySelectorAll('.tick.' + axis)].map((t) => t.textContent);
         return { axis: Number(chart.querySelector('.region').getAttribute('x')),
                  cx: Number(first.getAttribute('cx')), r: Number(first.getAttribute('r')),
                  x: ticks('x'), y: ticks('y') };",
    );
    let number = |key: &str| chart[key].as_f64().unwrap();
    assert!(number("cx") - number("r") > number("axis"), "the chart's first point is on its y axis: {chart}");
    for axis in ["x", "y"] {
        let labels: Vec<&str> = chart[axis].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
        assert!(labels.len() >= 2, "too few {axis} tick labels: {chart}");
        let mut unique = labels.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), labels.len(), "a {axis} tick label drawn twice: {labels:?}");
    }
}

/// The move badges on the board: a badge on a cell with a piece keeps off the cell's
/// middle third (the piece's glyph), badges on one cell do not overlap, and each
/// badge's label fits in its shape. Returns how many badges sit on a piece.
fn check_badges(browser: &Browser) -> usize {
    let found = browser.script(
        "const problems = [];
         let onPieces = 0;
         const placed = new Map();
         const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
         for (const badge of document.querySelectorAll('#board .move-badge')) {
           const move = badge.dataset.move;
           const [, r, c] = move.match(/\\((\\d+),(\\d+)\\)$/); // the target: the last cell named
           const cell = document.querySelector(`#board .cell[data-row='${r}'][data-col='${c}']`);
           const box = badge.querySelector('circle, rect').getBoundingClientRect();
           if (cell.querySelector('.piece')) {
             onPieces++;
             const sq = cell.querySelector('.square').getBoundingClientRect();
             const middle = { left: sq.left + sq.width / 3, right: sq.right - sq.width / 3,
                              top: sq.top + sq.height / 3, bottom: sq.bottom - sq.height / 3 };
             if (meet(box, middle)) problems.push(`${move}: the badge covers the piece on (${r},${c})`);
           }
           const label = badge.querySelector('text');
           if (label) {
             const t = label.getBoundingClientRect();
             if (t.left < box.left - 0.5 || t.right > box.right + 0.5)
               problems.push(`${move}: the label ${label.textContent} overflows its badge`);
           }
           const key = `${r},${c}`;
           for (const other of placed.get(key) || [])
             if (meet(box, other.box)) problems.push(`${move} and ${other.move}: the badges overlap`);
           placed.set(key, [...(placed.get(key) || []), { move, box }]);
         }
         return { problems, onPieces };",
    );
    assert_eq!(found["problems"], json!([]), "move badges on {}", browser.body_data("position"));
    found["onPieces"].as_u64().unwrap() as usize
}

/// Badges where a move's target cell holds a piece: two pawn captures onto one pawn,
/// and Queen's Case's example, whose queen may stay where she is.
fn check_badges_on_pieces(browser: &Browser) {
    browser.load(&json!({"game": "pawns", "position": "..../.p../P.P./.... w"}), "..../.p../P.P./.... w");
    assert_eq!(check_badges(browser), 2, "two captures onto (2,2)");
    let corners = browser.script(
        "return [...document.querySelectorAll('#board .move-badge.corner')].map((b) => b.dataset.move).sort();",
    );
    assert_eq!(corners, json!(["(3,1)->(2,2)", "(3,3)->(2,2)"]));
    let map = "Q...E/.##../..#../E...A";
    browser.load(&json!({"game": "queens-case", "map": map, "position": "1,1 4,5 q"}), "1,1 4,5 q");
    assert_eq!(check_badges(browser), 1, "the queen's stay");
}

/// A chase game played perfectly from the 4×4 start: black wins throughout, so from
/// white's side (the page's fixed point of view) every ply is a loss, in the history
/// list and in the chart alike.
fn check_chase_history(browser: &Browser, url: &str) {
    browser.load(&json!({"game": "chase", "size": "4", "position": "1,1 4,4 w"}), "1,1 4,4 w");
    let mut analysis = api_analyze(url, &json!({"game": "chase", "variant": {"size": "4"}, "position": "1,1 4,4 w"}));
    let mut expected = vec![value_for_white(&analysis).to_string()];
    let mut captures = 0;
    while let Some(best) = analysis["moves"].get(0) {
        let position = best["position"].as_str().unwrap().to_string();
        browser.click("#best");
        browser.wait_ready(expected.len());
        assert_eq!(browser.body_data("position"), position);
        captures += check_badges(browser);
        analysis = api_analyze(url, &json!({"game": "chase", "variant": {"size": "4"}, "position": position}));
        expected.push(value_for_white(&analysis).to_string());
    }
    assert!(captures > 0, "the game ends in a capture, shown by a badge on a piece");
    assert!(expected.iter().all(|v| v == "loss"), "black wins throughout: {expected:?}");
    let shown = browser.script(
        "const classes = (css) => [...document.querySelectorAll(css)].map((e) => e.getAttribute('class'));
         return { list: classes('#history li'), chart: classes('#chart .point').map((c) => c.replace('point ', '')) };",
    );
    assert_eq!(shown["list"], json!(expected), "the history list's colours");
    assert_eq!(shown["chart"], json!(expected), "the chart's colours");
    let caption = browser.text("#chart-caption");
    assert!(
        caption.contains("For white (the first player)"),
        "the caption names the side the values are for: {caption}"
    );
    let last = browser.text(&format!("#history li[data-ply=\"{}\"]", expected.len() - 1));
    assert!(last.ends_with("black has won"), "{last}");
    check_chart(browser);
}

/// A board refused as too large: the page keeps the board it shows, its settings go
/// back to that board's, and the server's message is shown in full.
fn check_too_large(browser: &Browser, url: &str) {
    let before = browser.body_data("position");
    let ply = browser.body_data("ply");
    let refused = api_analyze(url, &json!({"game": "chase", "variant": {"size": "60"}, "position": "1,1 60,60 w"}));
    assert_eq!(refused["kind"], "too-large", "{refused}");
    browser.type_text("#param-size", "60");
    browser.click("#new-game");
    wait_for("the too-large notice", 30, || {
        let got = browser.script("return [document.body.dataset.state, document.getElementById('error').hidden];");
        (got == json!(["ready", false])).then_some(())
    });
    assert_eq!(browser.script("return document.getElementById('param-size').value;"), json!("4"));
    assert_eq!(browser.body_data("position"), before);
    assert_eq!(browser.body_data("ply"), ply);
    assert_eq!(browser.script("return document.querySelectorAll('#board .cell').length;"), json!(16));
    assert_eq!(browser.script("return document.getElementById('error').dataset.kind;"), json!("too-large"));
    let message = refused["error"].as_str().unwrap().replace('`', "");
    let shown = browser.text("#error");
    assert!(shown.contains(&message), "the notice {shown:?} lacks the server's message {message:?}");
    // A command in backticks (how to get the answer) is shown as code, in full.
    let code = browser.script(
        "showError('chase: too large here; run `gsolve analyze chase --size 60 1,1 60,60 w` instead', 'too-large');
         return [...document.querySelectorAll('#error code')].map((c) => c.textContent);",
    );
    assert_eq!(code, json!(["gsolve analyze chase --size 60 1,1 60,60 w"]));
    browser.script("showError(null); return null;");
}

/// Snakes' bodies are drawn in their snake's colour, walls as walls.
fn check_snake_bodies(browser: &Browser) {
    let position = "a1#./..../...2 2";
    browser.load(&json!({"game": "snakes", "position": position}), position);
    let class = |row: u32, col: u32| {
        browser.script(&format!(
            "return document.querySelector('#board .cell[data-row=\"{row}\"][data-col=\"{col}\"] rect').getAttribute('class');"
        ))
    };
    let body = class(1, 1);
    assert!(body.as_str().unwrap().contains("trail blue"), "{body}");
    let wall = class(1, 3);
    assert!(wall.as_str().unwrap().contains("wall") && !wall.as_str().unwrap().contains("trail"), "{wall}");
    let head = browser.script(
        "return document.querySelector('#board .cell[data-row=\"1\"][data-col=\"2\"] circle').getAttribute('class');",
    );
    assert_eq!(head, json!("piece blue"));
}

/// Setting up a Queen's Case position by clicking: a click takes a cell from floor
/// (or exit) to the queen, the army, and back; placing a piece moves it there;
/// walls are left alone; an exit stays shaded under a piece; the board is written
/// as the pieces' cells.
fn check_queens_editing(browser: &Browser, url: &str) {
    let map = "Q...E/.##../..#../E...A";
    browser.load(&json!({"game": "queens-case", "map": map, "position": "1,1 4,5 q"}), "1,1 4,5 q");
    let cell = |r: u32, c: u32| format!("#board .cell[data-row=\"{r}\"][data-col=\"{c}\"]");
    let position_text = || browser.script("return document.getElementById('position-text').value;");
    assert_eq!(browser.text(&format!("{} text", cell(4, 1))), "exit");
    browser.click("#edit");
    assert!(browser.text("#edit-help").contains("queen \u{2192} army \u{2192} floor"));
    browser.click(&cell(4, 5)); // army -> floor
    assert!(browser.text("#error").contains("place the army on the board"), "{}", browser.text("#error"));
    assert_eq!(position_text(), json!(""));
    browser.click(&cell(1, 5)); // exit -> the queen, who leaves (1,1)
    assert_eq!(
        browser.script(&format!("return document.querySelectorAll('{} circle.piece').length;", cell(1, 1))),
        json!(0)
    );
    browser.click(&cell(1, 5)); // queen -> army
    assert!(browser.text("#error").contains("place the queen on the board"), "{}", browser.text("#error"));
    browser.click(&cell(1, 1)); // floor -> queen
    let classes =
        |css: String| browser.script(&format!("return document.querySelector('{css}').getAttribute('class');"));
    let wall = classes(cell(2, 2));
    assert!(!wall.as_str().unwrap().contains("editable"), "a wall is not editable: {wall}");
    browser.click(&cell(2, 2)); // a wall: nothing
    assert_eq!(position_text(), json!("1,1 1,5 q"));
    let exit = classes(format!("{} rect", cell(1, 5)));
    assert!(exit.as_str().unwrap().contains("exit"), "the exit under the army: {exit}");
    assert_eq!(classes(format!("{} circle", cell(1, 5))), json!("piece brown"));
    let edited = api_analyze(url, &json!({"game": "queens-case", "variant": {"map": map}, "position": "1,1 1,5 q"}));
    wait_for("the edited Queen's Case position's value", 30, || {
        (browser.body_data("state") == "ready" && browser.text("#value") == value_line(&edited)).then_some(())
    });
    browser.click("#edit");
    browser.wait_ready(0);
    assert_eq!(browser.body_data("position"), "1,1 1,5 q");
}

/// A rules game on the page: its value as the API gives it, its pieces drawn as
/// discs, and a click in editing cycling a cell through empty and the pieces.
fn check_rules_game(browser: &Browser, url: &str) {
    let position = "BBB/.../WWW w";
    browser.load(&json!({"game": "rules", "position": position}), position);
    let analysis = api_analyze(url, &json!({"game": "rules", "position": position}));
    assert_eq!(browser.text("#value"), value_line(&analysis));
    assert_eq!(browser.script("return document.querySelectorAll('#board circle.piece').length;"), json!(6));
    browser.click("#edit");
    browser.click("#board .cell[data-row=\"2\"][data-col=\"2\"]"); // empty -> W, the first piece of `pieces`
    let edited = api_analyze(url, &json!({"game": "rules", "position": "BBB/.W./WWW w"}));
    wait_for("the edited rules position's value", 30, || {
        (browser.body_data("state") == "ready" && browser.text("#value") == value_line(&edited)).then_some(())
    });
    browser.click("#edit");
    browser.wait_ready(0);
    assert_eq!(browser.body_data("position"), "BBB/.W./WWW w");
}

/// Drops on the page: Dobutsu's hand pieces as buttons (one chosen, then a click on
/// a cell drops it there), and Connect 4's columns (a click anywhere in a column
/// drops into it). Each game from a server of its own.
fn check_drops(browser: &Browser) {
    let dobutsu = common::example("rules/dobutsu.toml");
    let position = "l../.../.../..L s Cc";
    let (_server, url) = common::serve(&["--rules", dobutsu.to_str().unwrap(), "--start", position]);
    browser.open(&url);
    browser.wait_ready(0);
    browser.load(&json!({"game": "rules", "position": position}), position);
    let hands = browser.text("#hands");
    assert!(hands.contains("In hand:") && hands.contains("sente C") && hands.contains("gote c"), "{hands}");
    browser.click("#hands button[data-drop=\"C\"]");
    assert_eq!(browser.script("return document.querySelectorAll('#hands button.chosen').length;"), json!(1));
    browser.click("#board .cell[data-row=\"4\"][data-col=\"1\"] rect");
    browser.wait_ready(1);
    assert_eq!(browser.body_data("position"), "l../.../.../C.L g c");

    let connect = common::example("rules/connect-4.toml");
    let start = "..../..../..../.... r";
    let (_server, url) = common::serve(&["--rules", connect.to_str().unwrap(), "--start", start]);
    browser.open(&url);
    browser.wait_ready(0);
    browser.load(&json!({"game": "rules", "position": start}), start);
    browser.click("#board .cell[data-row=\"1\"][data-col=\"2\"] rect"); // the top of column 2
    browser.wait_ready(1);
    assert_eq!(browser.body_data("position"), "..../..../..../.R.. y");
}

// Ignored by `cargo test`, which then says so, because it needs Debian's chromium and
// chromedriver; `.ci/run` installs both and runs it with `--ignored`.
#[test]
#[ignore = "needs chromium and chromedriver: cargo test -p gsolve-cli --test browser -- --ignored"]
fn play_a_move_in_headless_chromium() {
    let (driver, chromium) = tools().unwrap_or_else(|why| {
        panic!("{why}: install them (apt-get install chromium chromium-driver) to run the browser test")
    });
    let started = Instant::now();
    let (_server, url) = start_server();
    let browser = Browser::start(&driver, &chromium);
    eprintln!("browser session up in {:.1} s", started.elapsed().as_secs_f64());

    // The page opens on the served rules game (the server's `default`): Breakthrough
    // on 5×5, whose start is too hard to answer here, so the page stays on it with
    // the notice and its board settings instead of opening another game.
    browser.open(&url);
    wait_for("the rules game's notice", 60, || {
        let got = browser.script(
            "return [document.body.dataset.state, document.getElementById('game').value, \
             document.getElementById('error').dataset.kind || ''];",
        );
        (got == json!(["ready", "rules", "too-large"])).then_some(())
    });
    assert_eq!(
        browser.script("return document.getElementById('position-text').value;"),
        json!("BBBBB/BBBBB/...../WWWWW/WWWWW w")
    );

    // The Octapawn start, through the address.
    let octapawn = "pppp/..../..../PPPP w";
    browser.load(&json!({"game": "pawns", "position": octapawn}), octapawn);
    let start = api_pawns(&url, octapawn);
    assert_eq!(browser.text("#value"), value_line(&start));
    assert_eq!(browser.text("#value"), "white to move: win in 11");
    let badges = browser.script("return document.querySelectorAll('#board .move-badge').length;");
    assert_eq!(badges, json!(start["moves"].as_array().unwrap().len()));
    // Each move shows its value as a symbol with the remoteness, not only a colour.
    let best = &start["moves"][0];
    assert_eq!(browser.text(&format!("#moves tr[data-move=\"{}\"] .chip", best["move"].as_str().unwrap())), "+11");

    // Play white's best move by clicking it on the board.
    browser.click(&badge(best));
    browser.wait_ready(1);
    let after = api_pawns(&url, best["position"].as_str().unwrap());
    assert_eq!(browser.body_data("position"), after["position"].as_str().unwrap());
    assert_eq!(browser.text("#value"), value_line(&after));
    assert_eq!(browser.text("#value"), "black to move: loss in 10");
    assert_eq!(browser.script("return document.querySelectorAll('#chart .point').length;"), json!(2));
    check_chart(&browser);

    // The computer takes black: it answers at once with the API's best move.
    browser.click("#computer option[value=\"black\"]");
    browser.wait_ready(2);
    let reply = api_pawns(&url, after["moves"][0]["position"].as_str().unwrap());
    assert_eq!(browser.body_data("position"), reply["position"].as_str().unwrap());
    assert_eq!(browser.text("#value"), value_line(&reply));

    // Undo goes back to the human's last turn: the start.
    browser.click("#undo");
    browser.wait_ready(0);
    assert_eq!(browser.text("#value"), value_line(&start));
    browser.click("#computer option[value=\"\"]");

    // Set up a position by clicking: take away black's pawn on (1,1).
    browser.click("#edit");
    browser.click("#board .cell[data-row=\"1\"][data-col=\"1\"]"); // p -> empty
    let edited = api_pawns(&url, ".ppp/..../..../PPPP w");
    wait_for("the edited position's value", 30, || {
        (browser.body_data("state") == "ready" && browser.text("#value") == value_line(&edited)).then_some(())
    });
    browser.click("#edit"); // done editing: a new game from here
    browser.wait_ready(0);
    assert_eq!(browser.body_data("position"), ".ppp/..../..../PPPP w");
    assert_eq!(browser.text("#value"), value_line(&edited));

    check_badges_on_pieces(&browser);
    check_chase_history(&browser, &url);
    check_too_large(&browser, &url);
    check_snake_bodies(&browser);
    check_queens_editing(&browser, &url);
    check_rules_game(&browser, &url);
    check_drops(&browser);

    if let Some(path) = std::env::var_os("GSOLVE_SCREENSHOT") {
        screenshot(&browser, &url, Path::new(&path));
    }
    eprintln!("browser test done in {:.1} s", started.elapsed().as_secs_f64());
}

/// A game in progress, for docs/screenshot.png: Octapawn with a few moves played,
/// white's first a mistake, so the chart shows the value changing sides, ending on
/// a position with winning and losing moves.
fn screenshot(browser: &Browser, url: &str, path: &Path) {
    // Tall enough for the whole page (the window's height includes the browser's bar).
    browser.call("POST", "/window/rect", Some(json!({"width": 1280, "height": 960})));
    browser.open("about:blank"); // a new page load, not a change of the address's fragment
    browser.open(&format!("{url}#game=pawns&position=pppp%2F....%2F....%2FPPPP%20w"));
    browser.wait_ready(0);
    let mut position = "pppp/..../..../PPPP w".to_string();
    // Indexes into each position's moves (best first).
    for (ply, choice) in [2usize, 0, 0, 0, 2].into_iter().enumerate() {
        let analysis = api_pawns(url, &position);
        let moves = analysis["moves"].as_array().unwrap();
        let m = &moves[choice.min(moves.len() - 1)];
        browser.click(&badge(m));
        browser.wait_ready(ply + 1);
        position = m["position"].as_str().unwrap().to_string();
    }
    std::fs::write(path, browser.screenshot()).expect("the screenshot is written");
    eprintln!("screenshot written to {}", path.display());
}
