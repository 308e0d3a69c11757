//! `gsolve build pawns`: tier by tier on disk. The file agrees with the whole-board
//! solve, a build killed part-way and started again gives the same bytes, the memory
//! cap is checked before any work, and damage is found.

mod common;

use common::{gsolve, ok, run, Scratch};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn fails(args: &[&str], needle: &str) -> String {
    let message = common::fails(args, "");
    assert!(message.contains(needle), "{args:?}: expected {needle:?} in {message}");
    message
}

#[test]
fn a_tiered_file_agrees_with_the_whole_board_solve() {
    let dir = Scratch::new("agree");
    for (rows, cols) in [(3, 3), (4, 4), (3, 4)] {
        let file = dir.path(&format!("p{rows}{cols}.gtb"));
        let (r, c) = (rows.to_string(), cols.to_string());
        let out = ok(&["build", "pawns", "--rows", &r, "--cols", &c, "-o", s(&file)], "");
        assert!(out.contains("1-byte values"), "{out}");
        // The work directory is gone once the file is written.
        assert!(!dir.path(&format!("p{rows}{cols}.gtb.work")).exists());
        let verified = ok(&["verify", s(&file)], "");
        assert!(verified.contains("every value follows"), "{verified}");
        let start =
            format!("{}/{}/{} w", "p".repeat(cols), vec![".".repeat(cols); rows - 2].join("/"), "P".repeat(cols));
        let start = start.replace("//", "/");
        let probed = ok(&["analyze", "pawns", &start, "--tablebase", s(&file), "--json"], "");
        let solved = ok(&["analyze", "pawns", &start, "--json"], "");
        let probed: serde_json::Value = serde_json::from_str(&probed).unwrap();
        let solved: serde_json::Value = serde_json::from_str(&solved).unwrap();
        assert_eq!(probed["solver"], "tablebase");
        assert_eq!(probed["moves"], solved["moves"], "{rows}x{cols}");
        assert_eq!(probed["value"], solved["value"]);
    }
}

/// A build killed (SIGKILL, as a power cut) after some tiers, then started again
/// with the same command: it goes on from the tiers finished and writes the same
/// bytes as a build never stopped.
#[cfg(unix)]
#[test]
fn a_killed_build_resumes_and_writes_the_same_file() {
    let dir = Scratch::new("resume");
    let clean = dir.path("clean.gtb");
    ok(&["build", "pawns", "--rows", "4", "--cols", "5", "-o", s(&clean)], "");
    let file = dir.path("resumed.gtb");
    let work = dir.path("work");
    let args = ["build", "pawns", "--rows", "4", "--cols", "5", "-o", s(&file), "--work-dir", s(&work)];
    let mut child =
        gsolve().args(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let finished = work.join("finished.txt");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let lines = std::fs::read_to_string(&finished).map(|t| t.lines().count()).unwrap_or(0);
        if lines >= 6 {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the build finished before it could be stopped");
        assert!(Instant::now() < deadline, "no tier finished in time");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!file.exists(), "no file before the build is finished");
    let before = std::fs::read_to_string(&finished).unwrap().lines().count();
    assert!(before < 36, "stopped part-way: {before} tiers");
    let out = ok(&args, "");
    assert!(out.contains("tiers were finished before"), "{out}");
    assert_eq!(std::fs::read(&file).unwrap(), std::fs::read(&clean).unwrap(), "the same bytes");
    assert!(!work.exists());
}

#[test]
fn a_memory_cap_too_small_is_refused_before_any_work() {
    let dir = Scratch::new("memory");
    let file = dir.path("p.gtb");
    let message =
        fails(&["build", "pawns", "--rows", "4", "--cols", "5", "-o", s(&file), "--memory", "10M"], "--memory");
    assert!(message.contains("tier w") && message.contains("MiB"), "{message}");
    assert!(!file.exists());
    assert!(!dir.path("p.gtb.work").exists(), "nothing started");
    fails(&["build", "pawns", "--rows", "3", "--cols", "3", "-o", s(&file), "--memory", "lots"], "expected a size");
    ok(&["build", "pawns", "--rows", "3", "--cols", "3", "-o", s(&file), "--memory", "1G"], "");
}

#[test]
fn work_directories_are_checked() {
    let dir = Scratch::new("work");
    let work = dir.path("work");
    // Another build's work directory is refused, not mixed in.
    let _ =
        run(&["build", "pawns", "--rows", "3", "--cols", "3", "-o", s(&dir.path("a.gtb")), "--work-dir", s(&work)], "");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("build.txt"), "gsolve tiered build\nsomething else\n").unwrap();
    fails(
        &["build", "pawns", "--rows", "3", "--cols", "3", "-o", s(&dir.path("b.gtb")), "--work-dir", s(&work)],
        "holds another build",
    );
    // A directory that cannot be one: a clear error, status 2, no file.
    let output = dir.path("c.gtb");
    fails(
        &["build", "pawns", "--rows", "3", "--cols", "3", "-o", s(&output), "--work-dir", "/dev/null/work"],
        "cannot build",
    );
    assert!(!output.exists());
}

#[cfg(unix)]
#[test]
fn a_damaged_tier_is_found() {
    let dir = Scratch::new("damage");
    // A finished tier damaged in the work directory: the restarted build says so.
    let work = dir.path("work");
    let file = dir.path("p.gtb");
    let args = ["build", "pawns", "--rows", "4", "--cols", "5", "-o", s(&file), "--work-dir", s(&work)];
    let mut child =
        gsolve().args(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let finished = work.join("finished.txt");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut stopped = false;
    while Instant::now() < deadline {
        if std::fs::read_to_string(&finished).map(|t| t.lines().count()).unwrap_or(0) >= 4 {
            stopped = child.try_wait().unwrap().is_none();
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let _ = child.kill();
    child.wait().unwrap();
    assert!(stopped, "the build was stopped part-way");
    {
        let tier = std::fs::read_dir(&work)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "tier") && std::fs::metadata(p).unwrap().len() > 0)
            .expect("a finished tier");
        let mut bytes = std::fs::read(&tier).unwrap();
        bytes[0] ^= 0x40;
        std::fs::write(&tier, bytes).unwrap();
        fails(&args, "does not match finished.txt");
        std::fs::remove_dir_all(&work).unwrap();
    }
    // A damaged block of the finished file: verify names it, tier by tier.
    ok(&["build", "pawns", "--rows", "4", "--cols", "4", "-o", s(&file)], "");
    let tablebase = gsolve_tablebase::Tablebase::open(&file).unwrap();
    let entry = tablebase.block_entry(3).unwrap();
    drop(tablebase);
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[(entry.offset + entry.length as u64 / 2) as usize] ^= 0x10;
    std::fs::write(&file, bytes).unwrap();
    let run = run(&["verify", s(&file)], "");
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stdout.contains("FAIL block 3"), "{}", run.stdout);
}
