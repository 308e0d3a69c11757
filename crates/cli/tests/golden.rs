//! Golden outputs: what users see, byte for byte, on the bundled examples.
//!
//! Each case runs the built `gsolve` from the workspace root with its arguments and
//! compares standard output, byte for byte, with a stored file under
//! `crates/cli/tests/golden/` (one file per command; commands documented to print the
//! same bytes, such as `--retrograde` or `-j 1`, share one file). Covered: the contest
//! commands (`queens-case`, `chase`, `pawns`, `snakes`) on `examples/*.txt` and the
//! small inputs of `tests/data/`, plain, `--explain`, `--json`, and with `--rules`;
//! `pawns --summary`; `analyze --json` for each game and rules file; `gsolve rules`
//! plain, `--explain` and `--json`; and tablebase files (`gsolve build ...`), whose
//! whole bytes are compared by their XXH3-128 digest and size, stored one line a build
//! in `golden/tablebases.txt`. A mismatch fails with the command line and the first
//! line that differs.
//!
//! After a change of output on purpose, rewrite the stored files from the current
//! binary, then review the diff:
//!
//! ```sh
//! GSOLVE_BLESS=1 cargo test -p gsolve-cli --test golden
//! git diff crates/cli/tests/golden/
//! ```
//!
//! Blessing also removes stored files no case names any more. Not covered on
//! purpose: `probe --json`, `info`, `verify` and `rules --check` (their output is
//! expected to change), timings printed by `build`, and anything on standard error.

mod common;

use common::Scratch;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// `GSOLVE_BLESS=1`: rewrite the stored files instead of comparing with them.
fn blessing() -> bool {
    std::env::var_os("GSOLVE_BLESS").is_some_and(|v| v == "1")
}

/// The workspace root: every case runs there, so that its arguments read as typed.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace root")
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// One run of gsolve and the stored file its standard output must equal.
struct Case {
    file: String,
    args: Vec<String>,
}

fn case(file: impl Into<String>, args: &[impl AsRef<str>]) -> Case {
    Case { file: file.into(), args: args.iter().map(|a| a.as_ref().to_string()).collect() }
}

/// The command line, quoted for a shell, to be run from the workspace root.
fn command_line(args: &[String]) -> String {
    let quoted = args.iter().map(|a| {
        if !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=,:+".contains(c)) {
            a.clone()
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        }
    });
    std::iter::once("gsolve".to_string()).chain(quoted).collect::<Vec<_>>().join(" ")
}

/// The longest one run may take before it is killed and fails (a case takes well
/// under a second; a build over two processes talks over 127.0.0.1).
const RUN_LIMIT: Duration = Duration::from_secs(120);

/// Runs gsolve from the workspace root, killed past [`RUN_LIMIT`]; standard output
/// if it succeeds.
fn run(args: &[String]) -> Result<(Vec<u8>, Duration), String> {
    let start = Instant::now();
    let mut child = common::gsolve()
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", command_line(args)));
    // Read the pipes on threads so that a large output cannot block the child.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut bytes).map(|_| bytes)
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut bytes).map(|_| bytes)
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("gsolve runs") {
            break status;
        }
        if start.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{}: killed after {} s", command_line(args), RUN_LIMIT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let output = std::process::Output {
        status,
        stdout: out.join().expect("reader").expect("stdout read"),
        stderr: err.join().expect("reader").expect("stderr read"),
    };
    let took = start.elapsed();
    if output.status.success() {
        Ok((output.stdout, took))
    } else {
        Err(format!(
            "{}: exit status {:?}\nstderr: {}",
            command_line(args),
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// Golden cases are meant to be quick even in the test profile: says so on standard
/// error (shown with `--nocapture` or a failure) when one is not.
fn warn_if_slow(took: Duration, line: &str) {
    if took > Duration::from_secs(2) {
        eprintln!("warning: {line} took {:.2} s; golden cases should take well under 2 s", took.as_secs_f64());
    }
}

/// Where two outputs first differ: the line number and both lines.
fn first_difference(expected: &[u8], got: &[u8]) -> String {
    let show = |line: Option<&[u8]>| match line {
        Some(line) => format!("{:?}", String::from_utf8_lossy(line)),
        None => "(end of output)".to_string(),
    };
    let (mut e, mut g) = (expected.split_inclusive(|&b| b == b'\n'), got.split_inclusive(|&b| b == b'\n'));
    let mut number = 1;
    loop {
        let (a, b) = (e.next(), g.next());
        if a != b {
            return format!("first difference at line {number}:\n  expected: {}\n  got:      {}", show(a), show(b));
        }
        if a.is_none() {
            return "no difference".to_string();
        }
        number += 1;
    }
}

/// Runs every case and compares its output with its stored file (or, blessing,
/// writes the file). Cases sharing a file must print the same bytes, blessed or not.
/// Fails once at the end, naming every case that differs.
fn check(cases: Vec<Case>) {
    let bless = blessing();
    let dir = golden_dir();
    let mut failures = Vec::new();
    let mut written: BTreeMap<String, (Vec<u8>, String)> = BTreeMap::new();
    for case in &cases {
        let line = command_line(&case.args);
        let (got, took) = match run(&case.args) {
            Ok(done) => done,
            Err(message) => {
                failures.push(message);
                continue;
            }
        };
        warn_if_slow(took, &line);
        if got.len() > 200_000 {
            failures.push(format!("{line}: {} bytes of output, too large for a golden file", got.len()));
            continue;
        }
        let path = dir.join(&case.file);
        if bless {
            if let Some((first, first_line)) = written.get(&case.file) {
                if *first != got {
                    failures.push(format!(
                        "{line} and {first_line} share {} but differ:\n{}",
                        case.file,
                        first_difference(first, &got)
                    ));
                }
                continue;
            }
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            if std::fs::read(&path).ok().as_ref() != Some(&got) {
                std::fs::write(&path, &got).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
                eprintln!("blessed {}", case.file);
            }
            written.insert(case.file.clone(), (got, line));
            continue;
        }
        match std::fs::read(&path) {
            Ok(expected) if expected == got => {}
            Ok(expected) => failures.push(format!(
                "{line}\n  (run from the workspace root) differs from tests/golden/{}\n  {}",
                case.file,
                first_difference(&expected, &got).replace('\n', "\n  ")
            )),
            Err(e) => {
                failures.push(format!("{line}: cannot read tests/golden/{} ({e}); GSOLVE_BLESS=1 writes it", case.file))
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden cases failed (GSOLVE_BLESS=1 rewrites the stored files after a change on purpose):\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

// The cases

const EXAMPLES: [(&str, &str, &str); 7] = [
    // (game, input, the stored files' stem)
    ("queens-case", "examples/queens-case.txt", "queens-case"),
    ("chase", "examples/chase.txt", "chase"),
    ("pawns", "examples/pawns.txt", "pawns"),
    ("snakes", "examples/snakes.txt", "snakes"),
    ("chase", "crates/cli/tests/data/chase-sizes.txt", "chase-sizes"),
    ("pawns", "crates/cli/tests/data/pawns-sizes.txt", "pawns-sizes"),
    ("snakes", "crates/cli/tests/data/snakes-sizes.txt", "snakes-sizes"),
];

/// A small Queen's Case map in the contest format (`W H`, then the rows).
const MAP: &str = "crates/cli/tests/data/queens-case-map.txt";

fn contest_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (game, input, stem) in EXAMPLES {
        let rules = format!("examples/rules/{game}.toml");
        for (mode, suffix) in [(None, "txt"), (Some("--explain"), "explain.txt"), (Some("--json"), "json")] {
            let with = |before: &[&str]| -> Vec<String> {
                let mut args: Vec<String> = before.iter().map(|a| a.to_string()).collect();
                args.extend(mode.map(String::from));
                args.push(input.to_string());
                args
            };
            let file = format!("contest/{stem}.{suffix}");
            cases.push(case(&file, &with(&[game])));
            // -j does not change any output.
            cases.push(case(&file, &with(&["-j", "1", game])));
            if game == "queens-case" || game == "chase" {
                // --retrograde: "the output is the same".
                cases.push(case(&file, &with(&[game, "--retrograde"])));
            }
            // --rules: the contest line is the same; --explain and --json say how the
            // rules game ends, in its own words.
            let file = match mode {
                None => file,
                Some(_) => format!("contest/{stem}.rules.{suffix}"),
            };
            cases.push(case(file, &with(&[game, "--rules", &rules])));
            if game == "pawns" {
                let file = format!("contest/{stem}.black-to-move.{suffix}");
                cases.push(case(&file, &with(&[game, "--black-to-move"])));
                let file = match mode {
                    None => file,
                    Some(_) => format!("contest/{stem}.black-to-move.rules.{suffix}"),
                };
                cases.push(case(file, &with(&[game, "--black-to-move", "--rules", &rules])));
            }
        }
    }
    for (rows, cols) in [("3", "3"), ("3", "4"), ("4", "3"), ("4", "4")] {
        let stem = format!("contest/pawns-summary-{rows}x{cols}");
        cases.push(case(format!("{stem}.txt"), &["pawns", "--summary", "--rows", rows, "--cols", cols]));
        cases.push(case(format!("{stem}.json"), &["pawns", "--summary", "--rows", rows, "--cols", cols, "--json"]));
    }
    cases
}

fn analyze_cases() -> Vec<Case> {
    let mut cases = vec![
        case("analyze/pawns-3x3.json", &["analyze", "pawns", "--rows", "3", "--cols", "3", "--json"]),
        case("analyze/pawns-3x3.json", &["analyze", "pawns", "ppp/.../PPP w", "--json"]),
        case("analyze/pawns-3x4.json", &["analyze", "pawns", "--rows", "3", "--cols", "4", "--json"]),
        case("analyze/pawns-4x4.json", &["analyze", "pawns", "--json"]),
        case("analyze/pawns-4x4.json", &["analyze", "pawns", "--rows", "4", "--cols", "4", "--json"]),
        case("analyze/pawns-3x3-position.json", &["analyze", "pawns", "ppp/.P./P.P b", "--json"]),
        case("analyze/chase-4.json", &["analyze", "chase", "--size", "4", "--json"]),
        case("analyze/chase-4.json", &["analyze", "chase", "--json"]),
        case("analyze/chase-5-position.json", &["analyze", "chase", "2,2 3,3 w", "--size", "5", "--json"]),
        case("analyze/queens-case-map.json", &["analyze", "queens-case", "--map", MAP, "--json"]),
        case("analyze/queens-case-map-position.json", &["analyze", "queens-case", "2,1 4,5 a", "--map", MAP, "--json"]),
        case("analyze/snakes-3x3.json", &["analyze", "snakes", "--rows", "3", "--cols", "3", "--json"]),
        case("analyze/snakes-5x5.json", &["analyze", "snakes", "--json"]),
        case("analyze/snakes-position.json", &["analyze", "snakes", "a1./.../..2 2", "--json"]),
    ];
    // The built-in example map (`analyze queens-case` without one) is MAP's.
    cases.push(case("analyze/queens-case-map.json", &["analyze", "queens-case", "--json"]));
    for (name, extra) in rules_positions() {
        let rules = format!("examples/rules/{name}.toml");
        let mut args = vec!["analyze", "--rules", &rules];
        // A board's options, or the first position: `analyze` takes one.
        let board = extra.first().is_some_and(|a| a.starts_with("--"));
        args.extend(if board { &extra[..] } else { &extra[..extra.len().min(1)] });
        args.push("--json");
        cases.push(case(format!("analyze/rules-{}.json", stem_of(name, &extra)), &args));
    }
    cases
}

/// Rules files and the boards or positions that answer quickly (each quick in the
/// test profile); fox and hounds from its start, Breakthrough 5×4, Connect 4 on
/// 6×7 and Dobutsu shogi's start take far longer.
fn rules_positions() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("tic-tac-toe", vec![]),
        ("tic-tac-toe", vec!["XO./.X./... o"]),
        ("misere-tic-tac-toe", vec![]),
        ("misere-tic-tac-toe", vec!["XO./.X./... o"]),
        ("chase", vec![]),
        ("chase", vec!["--rows", "5", "--cols", "5"]),
        ("pawns", vec![]),
        ("pawns", vec!["--rows", "3", "--cols", "3"]),
        ("snakes", vec![]),
        ("snakes", vec!["--rows", "3", "--cols", "3"]),
        ("breakthrough", vec!["--rows", "4", "--cols", "3"]),
        ("breakthrough", vec!["--rows", "4", "--cols", "4"]),
        ("connect-4", vec!["--rows", "4", "--cols", "4"]),
        ("connect-4", vec!["--rows", "4", "--cols", "5"]),
        ("cops-and-robbers", vec!["C...C/.#.#./..R.. c", "C..../.#.#./..R.. c"]),
        ("queens-case", vec!["Q...E/.##../..#../E...A q", "QE/EA q"]),
        ("dobutsu", vec!["l../.../.../..L s Cc", "l../.c./.C./..L s -", "l../.../.../..L s -"]),
        (
            "fox-and-hounds",
            vec![
                "...H.H.H/......../......../......../......../......../......../F....... f",
                ".....H.H/......../......../......../......../......../......../F....... f",
            ],
        ),
    ]
}

/// The stored files' stem of a rules case: the file's name, then the board or
/// `position` when one is given.
fn stem_of(name: &str, extra: &[&str]) -> String {
    match extra {
        [] => name.to_string(),
        ["--rows", rows, "--cols", cols, ..] => format!("{name}-{rows}x{cols}"),
        _ => format!("{name}-position"),
    }
}

fn rules_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (name, extra) in rules_positions() {
        let rules = format!("examples/rules/{name}.toml");
        let stem = stem_of(name, &extra);
        for (mode, suffix) in [(None, "txt"), (Some("--explain"), "explain.txt"), (Some("--json"), "json")] {
            let mut args = vec!["rules", &rules];
            args.extend(&extra);
            args.extend(mode);
            cases.push(case(format!("rules/{stem}.{suffix}"), &args));
        }
    }
    cases
}

#[test]
fn contest_commands() {
    check(contest_cases());
}

#[test]
fn analyze_json() {
    check(analyze_cases());
}

#[test]
fn rules_command() {
    check(rules_cases());
}

/// No stored file is left that no case names (blessing removes them).
#[test]
fn every_stored_file_belongs_to_a_case() {
    let mut named: BTreeSet<String> = BTreeSet::new();
    for case in contest_cases().into_iter().chain(analyze_cases()).chain(rules_cases()) {
        named.insert(case.file);
    }
    named.insert("tablebases.txt".to_string());
    let dir = golden_dir();
    let mut stale = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(at) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else { continue };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.strip_prefix(&dir).unwrap().to_str().unwrap().replace('\\', "/");
            if !named.contains(&name) {
                stale.push(name);
            }
        }
    }
    if blessing() {
        for name in &stale {
            std::fs::remove_file(dir.join(name)).unwrap();
            eprintln!("removed {name}");
        }
        return;
    }
    assert!(stale.is_empty(), "stored files no case names (GSOLVE_BLESS=1 removes them): {stale:?}");
}

// Tablebase files

/// Runs `gsolve COMMAND` (its words split as a shell would) in `dir`, the argument
/// `FILE` standing for the tablebase and `WORK` for a work directory; returns the
/// file's line of `tablebases.txt`: its XXH3-128, its size and the command.
fn build(dir: &Path, number: usize, command: &str) -> Result<String, String> {
    let args = words(command);
    let file = dir.join(format!("{number}.gtb"));
    let work = dir.join(format!("{number}.work"));
    let real: Vec<String> = args
        .iter()
        .map(|a| match a.as_str() {
            "FILE" => file.to_str().unwrap().to_string(),
            "WORK" => work.to_str().unwrap().to_string(),
            _ => a.to_string(),
        })
        .collect();
    let (_, took) = run(&real)?;
    warn_if_slow(took, &command_line(&real));
    let bytes = std::fs::read(&file).map_err(|e| format!("{}: no file written ({e})", command_line(&real)))?;
    let _ = std::fs::remove_file(&file);
    Ok(format!("{:032x} {:>7} {}", xxhash_rust::xxh3::xxh3_128(&bytes), bytes.len(), command_line(&args)))
}

/// The builds, in groups whose files must be the same byte for byte (documented so):
/// other thread counts, two processes, tiers on disk instead of bit rows for a pursuit.
const BUILDS: &[&[&str]] = &[
    &["build chase --size 5 -o FILE", "build chase --size 5 -o FILE --local-processes 2"],
    &[
        "build pawns --rows 3 --cols 4 -o FILE",
        "-j 1 build pawns --rows 3 --cols 4 -o FILE",
        "-j 2 build pawns --rows 3 --cols 4 -o FILE",
    ],
    &["build pawns --rows 3 --cols 3 -o FILE"],
    &[
        "build pawns --rows 4 --cols 4 -o FILE",
        "-j 1 build pawns --rows 4 --cols 4 -o FILE",
        "-j 2 build pawns --rows 4 --cols 4 -o FILE",
    ],
    &["build chase --size 5 -o FILE --level 3"],
    &["build chase --size 20 -o FILE"],
    &["build queens-case crates/cli/tests/data/queens-case-map.txt -o FILE"],
    &["build rules examples/rules/tic-tac-toe.toml -o FILE"],
    &["build rules examples/rules/misere-tic-tac-toe.toml -o FILE"],
    &[
        "build rules examples/rules/chase.toml 'W..../...../...../...../....B w' -o FILE",
        "build rules examples/rules/chase.toml 'W..../...../...../...../....B w' -o FILE --work-dir WORK",
    ],
    &["build rules examples/rules/pawns.toml --rows 3 --cols 3 -o FILE"],
    &["build rules examples/rules/pawns.toml --rows 3 --cols 4 -o FILE"],
    &["build rules examples/rules/dobutsu.toml 'l../.../.../..L s -' -o FILE"],
    &["build rules examples/rules/dobutsu.toml 'l../.c./.C./..L s -' -o FILE"],
    &["build rules examples/rules/queens-case.toml 'Q...E/.##../..#../E...A q' -o FILE"],
    &["build rules examples/rules/cops-and-robbers.toml 'C...C/.#.#./..R.. c' -o FILE"],
    &[
        "build rules examples/rules/breakthrough.toml --rows 4 --cols 3 -o FILE",
        "-j 1 build rules examples/rules/breakthrough.toml --rows 4 --cols 3 -o FILE",
        "-j 2 build rules examples/rules/breakthrough.toml --rows 4 --cols 3 -o FILE",
    ],
    &[concat!(
        "build rules examples/rules/fox-and-hounds.toml ",
        "'.....H.H/......../......../......../......../......../......../F....... f' -o FILE"
    )],
];

/// The words of a command as a shell reads them: split at spaces, except within
/// single quotes.
fn words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    assert!(!quoted, "unbalanced quote in {command}");
    if !word.is_empty() {
        words.push(word);
    }
    words
}

#[test]
fn tablebase_files() {
    let dir = Scratch::new("tablebases");
    let mut failures = Vec::new();
    let mut lines = Vec::new();
    let mut number = 0;
    for group in BUILDS {
        let mut first: Option<String> = None;
        for command in *group {
            number += 1;
            let line = match build(&dir.0, number, command) {
                Ok(line) => line,
                Err(message) => {
                    failures.push(message);
                    continue;
                }
            };
            // The digest and size: the first 40 characters.
            match &first {
                None => first = Some(line.clone()),
                Some(first) if first[..40] != line[..40] => failures
                    .push(format!("not the same file, byte for byte, though documented to be:\n  {first}\n  {line}")),
                Some(_) => {}
            }
            lines.push(line);
        }
    }
    let mut got = String::from(
        "# The whole file of each build: XXH3-128, size in bytes, the command run from the\n\
         # workspace root (FILE: the tablebase, WORK: a work directory). Builds of one\n\
         # group give the same file. Written by GSOLVE_BLESS=1 cargo test -p gsolve-cli --test golden.\n",
    );
    for line in &lines {
        got.push_str(line);
        got.push('\n');
    }
    let path = golden_dir().join("tablebases.txt");
    if blessing() {
        if failures.is_empty() && std::fs::read_to_string(&path).ok().as_deref() != Some(got.as_str()) {
            std::fs::write(&path, &got).unwrap();
            eprintln!("blessed tablebases.txt");
        }
    } else {
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        let expected: BTreeMap<&str, &str> =
            expected.lines().filter(|l| !l.starts_with('#')).map(|l| (&l[41.min(l.len())..], l)).collect();
        for line in &lines {
            // Keyed by the command: digest (32), a space, size (7), a space.
            match expected.get(&line[41..]) {
                Some(stored) if *stored == line.as_str() => {}
                Some(stored) => failures.push(format!(
                    "{}: the file differs from the stored one\n  expected: {stored}\n  got:      {line}",
                    &line[41..]
                )),
                None => failures.push(format!("{}: no stored digest; GSOLVE_BLESS=1 writes it", &line[41..])),
            }
        }
        if failures.is_empty() && expected.len() != lines.len() {
            failures.push(format!("tablebases.txt lists {} builds, the test runs {}", expected.len(), lines.len()));
        }
    }
    assert!(failures.is_empty(), "tablebase files:\n\n{}", failures.join("\n\n"));
}
