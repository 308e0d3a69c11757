//! Input a careless user or an attacker gives: every command answers with exit
//! status 2 and one short line naming the input and the place, never a panic, a hang
//! or memory running out; `build` writes only where it should.

mod common;

use common::{gsolve, ok, run, Scratch};
use gsolve_engine::{PackedValue, Value};
use gsolve_tablebase::{write, WriteOptions};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Fails with status 2 and one short line mentioning `needle`.
fn refused(args: &[&str], stdin: &str, needle: &str) -> String {
    let message = common::fails(args, stdin);
    assert!(message.contains(needle), "{args:?}: expected {needle:?} in {message}");
    assert!(message.trim().lines().count() == 1, "{args:?}: one line, got {message}");
    assert!(message.len() < 400, "{args:?}: a short message, got {} bytes", message.len());
    message
}

#[test]
fn more_pawns_than_columns_is_an_error_not_a_panic() {
    // Each front end that reads a pawns position (the analyzer, the tablebase probe).
    refused(&["analyze", "pawns", "PP/P. w"], "", "white has 3 pawns");
    refused(&["analyze", "pawns", "PP/P. w", "--json"], "", "at most 2 a side");
    refused(&["play", "pawns", "PP/P. w"], "", "white has 3 pawns");
    let dir = Scratch::new("pawns-count");
    let file = dir.path("p22.gtb");
    ok(&["build", "pawns", "--rows", "2", "--cols", "2", "-o", s(&file)], "");
    refused(&["probe", s(&file), "PP/P. w"], "", "white has 3 pawns");
    refused(&["analyze", "pawns", "PP/P. w", "--tablebase", s(&file)], "", "white has 3 pawns");
}

#[test]
fn small_pawns_boards_beyond_the_limits_are_searched() {
    // 2x8: its whole index is far larger than a board of 16 cells suggests; the
    // analysis searches it instead of solving it whole.
    let out = ok(&["analyze", "pawns", "pppppppp/PPPPPPPP w"], "");
    assert!(out.contains("win in 1"), "{out}");
}

#[test]
fn long_lines_are_read_in_linear_time_and_quoted_short() {
    // A 1.6 MB one-line snakes file: 4 × 20 cells a case, 20,000 cases on one line.
    let case = "4 5 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2 ";
    let text = case.repeat(1_600_000 / case.len());
    let started = Instant::now();
    let run = run(&["snakes"], text.as_bytes());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
    assert_eq!(run.stdout.lines().count(), 1_600_000 / case.len());
    // A bad 160 KB line is quoted in a few dozen characters.
    let bad = format!("1\n\n{}\n", "p".repeat(160_000));
    refused(&["pawns"], &bad, "rows and columns must be 2 to 8");
    let bad_count = format!("{}\n", "x".repeat(160_000));
    let message = refused(&["pawns"], &bad_count, "expected the number of cases");
    assert!(message.contains("(160000 characters)"), "{message}");
}

#[test]
fn inputs_that_are_not_text_files_get_a_clear_answer() {
    let dir = Scratch::new("inputs");
    refused(&["chase", s(&dir.0)], "", "is a directory");
    let started = Instant::now();
    refused(&["chase", "/dev/zero"], "", "larger than 64 MiB");
    assert!(started.elapsed() < Duration::from_secs(20));
    refused(&["queens-case", "/nonexistent/maps.txt"], "", "cannot read /nonexistent/maps.txt");
}

/// A rules file is read up to its cap of 64 KiB, not to the 64 MiB of other
/// inputs: a 1 MiB file, `/dev/zero` and a 1 MiB stream are refused at once with
/// the cap named, and the stream is not read much past it.
#[test]
fn rules_files_are_read_only_up_to_64_kib() {
    let dir = Scratch::new("rules-cap");
    let big = dir.path("big.toml");
    std::fs::write(&big, format!("# {}\n", "x".repeat(1 << 20))).unwrap();
    let started = Instant::now();
    refused(&["rules", s(&big)], "", "larger than 64 KiB, more than a rules file may have");
    refused(&["rules", "/dev/zero", "--check"], "", "larger than 64 KiB");
    refused(&["analyze", "--rules", s(&big)], "", "larger than 64 KiB");
    assert!(started.elapsed() < Duration::from_secs(10));
    // Standard input: what gsolve took before it stopped reading (the rest is
    // refused by the closed pipe); at most the cap and a pipe's buffer.
    let mut child = gsolve()
        .args(["rules", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let chunk = vec![b'#'; 4096];
        let mut written = 0usize;
        while written < 1 << 20 && pipe.write_all(&chunk).is_ok() {
            written += chunk.len();
        }
        written
    });
    let output = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    let message = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{message}");
    assert!(message.contains("larger than 64 KiB"), "{message}");
    assert!(written < 512 << 10, "gsolve read {written} bytes of a rules file capped at 64 KiB");
}

#[cfg(unix)]
#[test]
fn a_fifo_without_a_writer_is_given_up_on() {
    let dir = Scratch::new("fifo");
    let fifo = dir.path("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let started = Instant::now();
    refused(&["chase", s(&fifo)], "", "no program has opened for writing");
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    // With a writer, a FIFO is read like any file.
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, "2 1 1 2 2\n").unwrap())
    };
    assert_eq!(ok(&["chase", s(&fifo)], ""), "BLACK 2\n");
    writer.join().unwrap();
}

#[test]
fn thread_counts_have_a_ceiling() {
    let message = common::fails(&["-j", "100000", "chase"], "2 1 1 2 2\n");
    assert!(message.contains("100000") && message.contains("256"), "{message}");
    assert_eq!(ok(&["-j", "2", "chase"], "2 1 1 2 2\n"), "BLACK 2\n");
}

#[cfg(unix)]
#[test]
fn build_never_replaces_what_is_not_a_regular_file() {
    let dir = Scratch::new("outputs");
    let fifo = dir.path("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let folder = dir.path("folder");
    std::fs::create_dir(&folder).unwrap();
    let null = dir.path("null");
    std::os::unix::fs::symlink("/dev/null", &null).unwrap();
    for target in [&fifo, &folder, &null] {
        for force in [false, true] {
            let mut args = vec!["build", "chase", "--size", "3", "-o", s(target)];
            if force {
                args.push("--force");
            }
            refused(&args, "", "is not a regular file");
        }
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(std::fs::metadata(&folder).unwrap().is_dir());
    assert_eq!(dir.files(), vec!["fifo", "folder", "null"]);
}

#[cfg(unix)]
#[test]
fn an_interrupted_build_leaves_nothing_behind() {
    let dir = Scratch::new("interrupted");
    let output = dir.path("chase.gtb");
    // Compressing at level 22 is slow enough to be caught while writing.
    let mut child = gsolve()
        .args(["build", "chase", "--size", "40", "--level", "22", "-o", s(&output)])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let temporary = dir.path(&format!("chase.gtb.tmp-{}", child.id()));
    let deadline = Instant::now() + Duration::from_secs(60);
    while !temporary.exists() {
        assert!(Instant::now() < deadline, "the build never started writing");
        assert!(child.try_wait().unwrap().is_none(), "the build ended before it could be interrupted");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success());
    let output_of = child.wait_with_output().unwrap();
    assert_eq!(output_of.status.code(), Some(143), "{}", String::from_utf8_lossy(&output_of.stderr));
    let stderr = String::from_utf8_lossy(&output_of.stderr);
    assert!(stderr.contains("removed the unfinished"), "{stderr}");
    assert_eq!(dir.files(), Vec::<String>::new(), "nothing is left behind");
}

#[test]
fn info_on_a_file_claiming_an_enormous_remoteness_stays_small() {
    // A pawns 3x3 file whose every value says "win in 2^30 - 1" (checksums right: the
    // writer stores what it is given). info counts them without a table a billion
    // entries long.
    let dir = Scratch::new("forged");
    let file = dir.path("forged.gtb");
    let game = gsolve_games::pawns::Pawns::new(3, 3);
    let size = gsolve_engine::Indexed::index_size(&game);
    let values = vec![PackedValue::pack(Value::Win(PackedValue::MAX_REMOTENESS)); size as usize];
    let parameters = gsolve_engine::Variant::parameters(&game);
    let identity = write::Identity { game: "pawns", parameters: &parameters, index_version: 2 };
    write::write_values(&file, &identity, values.as_slice(), &WriteOptions::default(), None).unwrap();
    let run = run(&["info", s(&file)], "");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("1073741823"), "{}", run.stdout);
    // And verify says what is wrong with it.
    let run = common::run(&["verify", s(&file)], "");
    assert_eq!(run.code, Some(1), "{}", run.stderr);
}

#[test]
fn parameters_have_one_spelling() {
    let dir = Scratch::new("spelling");
    let file = dir.path("p33.gtb");
    let parameters = vec![("rows".to_string(), "03".to_string()), ("cols".to_string(), "3".to_string())];
    let game = gsolve_games::pawns::Pawns::new(3, 3);
    let values = vec![PackedValue::NONE; gsolve_engine::Indexed::index_size(&game) as usize];
    let identity = write::Identity { game: "pawns", parameters: &parameters, index_version: 2 };
    write::write_values(&file, &identity, values.as_slice(), &WriteOptions::default(), None).unwrap();
    refused(&["info", s(&file)], "", "write it 3");
    refused(&["probe", s(&file), "ppp/.../PPP w"], "", "without leading zeros");
}

#[cfg(unix)]
#[test]
fn a_tablebase_that_is_not_a_regular_file_is_refused_at_once() {
    // /dev/zero would be read until memory runs out, a FIFO would wait for a writer
    // for ever, a directory cannot be mapped: each is refused before it is opened.
    let dir = Scratch::new("tablebase-paths");
    let fifo = dir.path("fifo.gtb");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for path in ["/dev/zero", s(&fifo), s(&dir.0)] {
        let started = Instant::now();
        refused(&["info", path], "", "is not a regular file");
        refused(&["verify", path], "", "is not a regular file");
        refused(&["probe", path, "1,1 2,2 w"], "", "is not a regular file");
        refused(&["analyze", "chase", "--tablebase", path], "", "is not a regular file");
        assert!(started.elapsed() < Duration::from_secs(20), "{path}: {:?}", started.elapsed());
    }
}

#[test]
fn long_positions_are_quoted_short() {
    // A 100 KB position: the message quotes a few dozen characters of it.
    let position = format!("{} w", "p".repeat(100_000));
    let message = refused(&["analyze", "pawns", &position], "", "characters)");
    assert!(message.len() < 400, "{message}");
}
