//! End to end in a real headless browser: `gsolve serve --port 0`, Debian's
//! `chromedriver` and `chromium`, driven over the WebDriver HTTP protocol with ureq.
//! The page opens on the Octapawn start; the test plays a move by clicking it on the
//! board and checks the value shown against the API's answer, lets the computer
//! reply, undoes, and sets up a position by clicking in edit mode.
//!
//! Without chromedriver or chromium the test fails when the environment variable `CI`
//! is set (`.ci/run` installs both) and is skipped with a note otherwise. With
//! `GSOLVE_SCREENSHOT=FILE` it also writes a screenshot of a game in progress
//! (docs/screenshot.png is made this way).

mod common;

use common::Process;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `gsolve serve --port 0` and its URL.
fn start_server() -> (Process, String) {
    common::serve(&[])
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
    let request = ureq::request(method, url).timeout(Duration::from_secs(60));
    let result = match body {
        Some(body) => request.set("Content-Type", "application/json").send_string(&body.to_string()),
        None => request.call(),
    };
    let text = match result {
        Ok(response) => response.into_string().map_err(|e| e.to_string())?,
        Err(ureq::Error::Status(status, response)) => {
            return Err(format!("{method} {url}: HTTP {status}: {}", response.into_string().unwrap_or_default()))
        }
        Err(e) => return Err(format!("{method} {url}: {e}")),
    };
    let answer: Value = serde_json::from_str(&text).map_err(|e| format!("{method} {url}: {e}: {text}"))?;
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
    let url = format!("{server}api/analyze");
    let body = json!({"game": "pawns", "position": position}).to_string();
    let text = ureq::post(&url).send_string(&body).expect("the API answers").into_string().unwrap();
    serde_json::from_str(&text).unwrap()
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

#[test]
fn play_a_move_in_headless_chromium() {
    let (driver, chromium) = match tools() {
        Ok(found) => found,
        Err(why) if std::env::var_os("CI").is_some() => panic!("{why}: the browser test cannot run in CI"),
        Err(why) => {
            eprintln!("skipping the browser test: {why} (apt-get install chromium chromium-driver)");
            return;
        }
    };
    let started = Instant::now();
    let (_server, url) = start_server();
    let browser = Browser::start(&driver, &chromium);
    eprintln!("browser session up in {:.1} s", started.elapsed().as_secs_f64());

    // The page opens on the first game's example, the Octapawn start.
    browser.open(&url);
    browser.wait_ready(0);
    let start = api_pawns(&url, "pppp/..../..../PPPP w");
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
