//! `gsolve serve` under load, on loopback only, with fixed counts and a fixed
//! duration: idle connections held open (reopened when the server closes them),
//! slow clients (a head sent a byte a second, a body trickled), heavy analyses
//! (whole-game chase solves, pawns searches) beside normal traffic (`/api/games`,
//! small analyses). Every socket has timeouts and every loop a deadline, so the
//! test stops by itself.
//!
//! The small version runs with the normal suite. The full version (2,000 idle
//! connections, 30 s; docs/reliability.md, "The server") is ignored there and by
//! `.ci/run`; run it with
//!
//! ```sh
//! cargo test --release -p gsolve-cli --test serve_load -- --ignored --nocapture
//! ```

mod common;

use common::http;
use std::collections::BTreeMap;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What one run sends.
struct Plan {
    /// The server's `--max-connections`.
    max_connections: usize,
    /// Connections that send nothing, held open for the whole run.
    idle: usize,
    /// Clients sending a request head a byte a second.
    slow_heads: usize,
    /// Clients sending a whole head, then the body a byte a second.
    slow_bodies: usize,
    /// Threads asking for heavy analyses, one after the other.
    heavy_threads: usize,
    /// The heavy analyses, asked in turn (GET paths under /api/).
    heavy: Vec<String>,
    /// Threads of normal traffic.
    normal_threads: usize,
    /// How long the traffic goes on.
    duration: Duration,
}

/// What came back, by the kind of client.
#[derive(Default)]
struct Tally {
    /// Answers and errors by kind, e.g. `200`, `503 busy`, `io: timed out`.
    outcomes: BTreeMap<String, usize>,
    /// Seconds from the request to the whole answer.
    latencies: Vec<f64>,
}

impl Tally {
    fn count(&mut self, outcome: impl Into<String>) {
        *self.outcomes.entry(outcome.into()).or_default() += 1;
    }

    fn answered(&self) -> usize {
        self.outcomes.iter().filter(|(k, _)| !k.starts_with("io")).map(|(_, n)| n).sum()
    }

    fn percentile(&self, p: f64) -> f64 {
        let mut sorted = self.latencies.clone();
        sorted.sort_by(f64::total_cmp);
        match sorted.len() {
            0 => f64::NAN,
            n => sorted[((n - 1) as f64 * p).round() as usize],
        }
    }
}

/// Every tally of a run, and the server's peak memory.
#[derive(Default)]
struct Report {
    normal: Tally,
    games: Tally,
    heavy: Tally,
    idle: Tally,
    slow_heads: Tally,
    slow_bodies: Tally,
    peak_memory_kib: u64,
    seconds: f64,
}

impl Report {
    fn print(&self, plan: &Plan) {
        println!(
            "load: {:.1} s, cap {} connections, {} idle held, {} slow heads, {} slow bodies, \
             {} heavy threads, {} normal threads",
            self.seconds,
            plan.max_connections,
            plan.idle,
            plan.slow_heads,
            plan.slow_bodies,
            plan.heavy_threads,
            plan.normal_threads
        );
        let rows = [
            ("normal", &self.normal),
            ("  of which /api/games", &self.games),
            ("heavy", &self.heavy),
            ("idle closed by the server", &self.idle),
            ("slow heads", &self.slow_heads),
            ("slow bodies", &self.slow_bodies),
        ];
        for (name, tally) in rows {
            let latency = if tally.latencies.is_empty() {
                String::new()
            } else {
                format!(
                    ", p50 {:.3} s, p99 {:.3} s, max {:.3} s",
                    tally.percentile(0.5),
                    tally.percentile(0.99),
                    tally.percentile(1.0)
                )
            };
            println!("  {name}: {} answered {:?}{latency}", tally.answered(), tally.outcomes);
        }
        println!("  server peak memory (VmHWM): {} MiB", self.peak_memory_kib / 1024);
    }
}

/// The client side of the run holds many sockets.
fn raise_descriptor_limit(plan: &Plan) {
    let needed =
        (plan.idle + plan.slow_heads + plan.slow_bodies + plan.heavy_threads + plan.normal_threads) as u64 + 64;
    let limit = common::raise_descriptor_limit();
    assert!(limit.is_none_or(|limit| limit >= needed), "this test needs {needed} open files; the limit is {limit:?}");
}

/// A request's outcome: its status (and the `kind` of a JSON error), or the error
/// that came instead of an answer.
fn outcome(answer: &Result<http::Response, String>) -> String {
    match answer {
        Ok(response) => {
            let kind = serde_json::from_str::<serde_json::Value>(&response.body)
                .ok()
                .and_then(|body| body["kind"].as_str().map(str::to_string));
            match (response.status, kind) {
                (200, _) => "200".to_string(),
                (status, Some(kind)) => format!("{status} {kind}"),
                (status, None) => status.to_string(),
            }
        }
        Err(e) => format!("io: {}", e.rsplit(": ").next().unwrap_or(e)),
    }
}

/// GET `path` and times it.
fn timed_get(url: &str, path: &str) -> (Result<http::Response, String>, f64) {
    let asked = Instant::now();
    let answer = http::try_request("GET", &format!("{url}{path}"), None, Duration::from_secs(30));
    (answer, asked.elapsed().as_secs_f64())
}

/// Normal traffic: the list of games, small analyses, a start setup, in turn.
fn normal_traffic(url: &str, until: Instant, tally: &Mutex<Tally>, games: &Mutex<Tally>) {
    let paths = [
        "api/games",
        "api/analyze?game=pawns&position=ppp/.../PPP%20w",
        "api/analyze?game=chase&size=4&position=1,1+4,4+w",
        "api/games",
        "api/start?game=pawns&rows=5&cols=5",
    ];
    for path in paths.iter().cycle() {
        if Instant::now() >= until {
            break;
        }
        let (answer, seconds) = timed_get(url, path);
        let outcome = outcome(&answer);
        if *path == "api/games" {
            let mut games = games.lock().unwrap();
            games.count(outcome.clone());
            games.latencies.push(seconds);
        }
        let mut tally = tally.lock().unwrap();
        tally.count(outcome);
        tally.latencies.push(seconds);
        drop(tally);
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Heavy analyses one after the other; a refused one is asked again a moment later.
fn heavy_traffic(url: &str, paths: &[String], first: usize, until: Instant, tally: &Mutex<Tally>) {
    for path in paths.iter().cycle().skip(first) {
        if Instant::now() >= until {
            break;
        }
        let (answer, seconds) = timed_get(url, path);
        let outcome = outcome(&answer);
        let busy = outcome == "503 busy";
        let mut tally = tally.lock().unwrap();
        tally.count(outcome);
        if !busy {
            tally.latencies.push(seconds);
        }
        drop(tally);
        if busy {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Opens a connection, with a timeout.
fn connect(host: &str) -> std::io::Result<TcpStream> {
    let address = host.parse().expect("an IP address and port");
    TcpStream::connect_timeout(&address, Duration::from_secs(5))
}

/// Whether the server has closed `stream` (EOF or reset) or written to it (a
/// refusal), without waiting; `None` while it is open and silent.
fn server_spoke(stream: &mut TcpStream) -> Option<&'static str> {
    let mut buffer = [0u8; 512];
    match stream.read(&mut buffer) {
        Ok(0) => Some("closed"),
        Ok(_) => Some("answered"),
        Err(e) if e.kind() == ErrorKind::WouldBlock => None,
        Err(_) => Some("reset"),
    }
}

/// Holds `count` silent connections open until `until`, reopening each one the
/// server closes; records how long each lasted.
fn hold_idle(host: &str, count: usize, until: Instant, tally: &Mutex<Tally>) {
    let open = |opened: &mut Vec<(TcpStream, Instant)>| match connect(host) {
        Ok(stream) => {
            stream.set_nonblocking(true).expect("non-blocking");
            opened.push((stream, Instant::now()));
        }
        Err(e) => tally.lock().unwrap().count(format!("io: connect: {e}")),
    };
    let mut held = Vec::with_capacity(count);
    for _ in 0..count {
        open(&mut held);
    }
    while Instant::now() < until {
        std::thread::sleep(Duration::from_millis(250));
        let mut kept = Vec::with_capacity(count);
        for (mut stream, opened) in held {
            match server_spoke(&mut stream) {
                None => kept.push((stream, opened)),
                Some(how) => {
                    let mut tally = tally.lock().unwrap();
                    tally.count(how);
                    tally.latencies.push(opened.elapsed().as_secs_f64());
                }
            }
        }
        held = kept;
        while held.len() < count && Instant::now() < until {
            open(&mut held);
        }
    }
}

/// One slow client after the other until `until`: each sends `head` and then
/// `trickle` a byte a second, and notes when and how the server ended it.
fn slow_client(host: &str, head: &str, trickle: &str, until: Instant, tally: &Mutex<Tally>) {
    while Instant::now() < until {
        let Ok(mut stream) = connect(host) else {
            tally.lock().unwrap().count("io: connect");
            std::thread::sleep(Duration::from_millis(500));
            continue;
        };
        let started = Instant::now();
        stream.set_write_timeout(Some(Duration::from_secs(5))).expect("a write timeout");
        stream.set_nonblocking(false).expect("blocking");
        let _ = stream.write_all(head.as_bytes());
        stream.set_nonblocking(true).expect("non-blocking");
        let mut ended = None;
        for byte in trickle.bytes().cycle() {
            if let Some(how) = server_spoke(&mut stream) {
                ended = Some(how);
                break;
            }
            if Instant::now() >= until {
                break;
            }
            let _ = stream.write(&[byte]);
            std::thread::sleep(Duration::from_secs(1));
        }
        if let Some(how) = ended {
            let mut tally = tally.lock().unwrap();
            tally.count(how);
            tally.latencies.push(started.elapsed().as_secs_f64());
        }
    }
}

/// The server's peak resident memory in KiB (VmHWM), 0 where /proc has none.
fn peak_memory_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap_or("");
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).unwrap_or(0)
}

/// Runs `plan` against a new server and reports; the whole run is bounded by the
/// plan's duration plus the sockets' timeouts.
fn run(plan: &Plan) -> Report {
    raise_descriptor_limit(plan);
    let (mut server, url) = common::serve(&["--max-connections", &plan.max_connections.to_string()]);
    let host = http::host(&url).to_string();
    let tallies: [Mutex<Tally>; 6] = Default::default();
    let [normal, games, heavy, idle, slow_heads, slow_bodies] = &tallies;
    let started = Instant::now();
    let until = started + plan.duration;
    let (host, address) = (host.as_str(), url.as_str());
    std::thread::scope(|scope| {
        scope.spawn(move || hold_idle(host, plan.idle, until, idle));
        for _ in 0..plan.slow_heads {
            let head = "GET /api/games HTTP/1.1\r\nHost: gsolve\r\nUser-Agent: a-slow-client\r\n\r\n";
            scope.spawn(move || slow_client(host, "", head, until, slow_heads));
        }
        for _ in 0..plan.slow_bodies {
            let head = "POST /api/analyze HTTP/1.1\r\nHost: gsolve\r\nContent-Length: 1000\r\n\r\n";
            let body = r#"{"game": "pawns", "variant": {}, "position": "ppp/.../PPP w"}"#;
            scope.spawn(move || slow_client(host, head, body, until, slow_bodies));
        }
        for thread in 0..plan.heavy_threads {
            let paths = &plan.heavy;
            scope.spawn(move || heavy_traffic(address, paths, thread * 3, until, heavy));
        }
        for _ in 0..plan.normal_threads {
            scope.spawn(move || normal_traffic(address, until, normal, games));
        }
        // The server is watched while the traffic runs.
        while Instant::now() < until {
            assert!(server.0.try_wait().expect("the server's status").is_none(), "the server has exited");
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    let after = http::try_request("GET", &format!("{url}api/games"), None, Duration::from_secs(10));
    assert_eq!(after.map(|r| r.status), Ok(200), "the server does not answer after the load");
    let peak_memory_kib = peak_memory_kib(server.0.id());
    let seconds = started.elapsed().as_secs_f64();
    let [normal, games, heavy, idle, slow_heads, slow_bodies] = tallies.map(|t| t.into_inner().unwrap());
    Report { normal, games, heavy, idle, slow_heads, slow_bodies, peak_memory_kib, seconds }
}

/// The heavy analyses: whole-game solves of 9 chase sizes and 9 open Queen's Case
/// maps of `side`² cells (one more of each than the server caches, so that each
/// is solved anew), and pawns searches on three board sizes (the server keeps one
/// searcher, so that each starts afresh).
fn heavy(chase_sizes: std::ops::RangeInclusive<u32>, side: usize) -> Vec<String> {
    let pawns = ["ppppp/...../...../...../PPPPP%20w", "pppp/..../..../..../PPPP%20w", "ppppp/...../...../PPPPP%20w"];
    let chase = chase_sizes.map(|n| format!("api/analyze?game=chase&size={n}&position=1,1+{n},{n}+w"));
    let queens = (0..9).map(|exit| {
        // The queen top left, the army bottom right, the exit on another row each time.
        let mut rows = vec![".".repeat(side); side];
        rows[0].replace_range(0..1, "Q");
        rows[side - 1].replace_range(side - 1..side, "A");
        rows[1 + exit].replace_range(side / 2..side / 2 + 1, "E");
        format!("api/analyze?game=queens-case&map={}&position=1,1+{side},{side}+q", rows.join("%2F"))
    });
    let mut paths = Vec::new();
    for (i, (chase, queens)) in chase.zip(queens).enumerate() {
        paths.extend([chase, queens]);
        if i % 3 == 0 {
            paths.push(format!("api/analyze?game=pawns&position={}", pawns[i / 3]));
        }
    }
    paths
}

/// Checks what every run must show: normal traffic answered throughout, slow and
/// idle clients ended by the server's timeouts, heavy work refused or done.
fn assert_healthy(report: &Report, plan: &Plan, max_games_p99: f64) {
    let io_errors: usize = report.normal.outcomes.iter().filter(|(k, _)| k.starts_with("io")).map(|(_, n)| n).sum();
    assert_eq!(io_errors, 0, "normal requests without an answer: {:?}", report.normal.outcomes);
    assert!(report.games.answered() > 0, "no /api/games answered");
    assert_eq!(report.games.outcomes.get("200"), Some(&report.games.answered()), "{:?}", report.games.outcomes);
    assert!(report.games.percentile(0.99) < max_games_p99, "/api/games p99 {:.3} s", report.games.percentile(0.99));
    for (kind, n) in &report.normal.outcomes {
        assert!(kind == "200" || kind == "503 busy", "normal traffic got {n} × {kind}");
    }
    for (kind, n) in &report.heavy.outcomes {
        assert!(["200", "503 busy", "422 too-large"].contains(&kind.as_str()), "heavy traffic got {n} × {kind}");
    }
    // Held connections are closed by the timeout, not refused; none before 9 s.
    assert!(!report.idle.outcomes.contains_key("answered"), "idle connections refused: {:?}", report.idle.outcomes);
    if let Some(&earliest) = report.idle.latencies.iter().min_by(|a, b| a.total_cmp(b)) {
        assert!(earliest > 9.0, "an idle connection was closed after {earliest:.1} s");
    }
    for tally in [&report.slow_heads, &report.slow_bodies, &report.idle] {
        if let Some(&latest) = tally.latencies.iter().max_by(|a, b| a.total_cmp(b)) {
            assert!(latest < 12.5, "a slow or idle client lasted {latest:.1} s");
        }
    }
    if plan.duration > Duration::from_secs(12) {
        assert!(
            report.slow_heads.answered() >= plan.slow_heads,
            "slow heads not ended: {:?}",
            report.slow_heads.outcomes
        );
        assert!(
            report.slow_bodies.outcomes.get("answered") >= Some(&plan.slow_bodies),
            "{:?}",
            report.slow_bodies.outcomes
        );
    }
}

#[test]
fn a_small_load_leaves_normal_traffic_answered() {
    let plan = Plan {
        max_connections: 400,
        idle: 200,
        slow_heads: 3,
        slow_bodies: 2,
        heavy_threads: 2,
        heavy: heavy(28..=36, 20),
        normal_threads: 2,
        duration: Duration::from_secs(4),
    };
    let report = run(&plan);
    report.print(&plan);
    assert_healthy(&report, &plan, 2.0);
    assert!(report.heavy.answered() > 0, "{:?}", report.heavy.outcomes);
}

#[test]
#[ignore = "the full load test, long: run with --release -- --ignored --nocapture (docs/reliability.md, docs/performance.md)"]
fn the_full_load_leaves_normal_traffic_answered() {
    let plan = Plan {
        max_connections: 3000,
        idle: 2000,
        slow_heads: 8,
        slow_bodies: 8,
        heavy_threads: 3,
        heavy: heavy(39..=47, 47),
        normal_threads: 3,
        duration: Duration::from_secs(30),
    };
    let report = run(&plan);
    report.print(&plan);
    assert_healthy(&report, &plan, 1.0);
}
