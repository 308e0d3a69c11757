//! Distributed builds end to end: two processes over 127.0.0.1 write the same file,
//! byte for byte, as the single-process build; a killed peer, a bad hostfile, a
//! port in use, an unreachable peer and a peer started for another job each end
//! every process with a clear error, never a hang. Every run has a time limit.

mod common;

use common::{example, gsolve, Scratch};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

/// Starts gsolve with `args`, output captured.
fn start(args: &[&str]) -> Child {
    gsolve().args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("gsolve runs")
}

/// Waits for a child at most `limit`; a child still running then is killed and
/// the test fails: a hang is a bug.
fn finish(mut child: Child, limit: Duration, what: &str) -> Output {
    let deadline = Instant::now() + limit;
    while child.try_wait().expect("wait works").is_none() {
        if Instant::now() >= deadline {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!("{what} still runs after {limit:?}\nstderr: {}", String::from_utf8_lossy(&output.stderr));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{what} panicked:\n{stderr}");
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `host:port` lines for `n` free ports on 127.0.0.1, written to `path`.
fn hostfile(path: &Path, n: usize) {
    let listeners: Vec<_> = (0..n).map(|_| TcpListener::bind("127.0.0.1:0").unwrap()).collect();
    let lines: String = listeners.iter().map(|l| format!("{}\n", l.local_addr().unwrap())).collect();
    std::fs::write(path, lines).unwrap();
}

/// Builds with one process, then with `--local-processes 2`; the files must
/// match. The two-process build's report.
fn same_file_from_two_processes(scratch: &Scratch, build: &[&str]) -> String {
    let one = scratch.path("one.gtb");
    let two = scratch.path("two.gtb");
    let mut args = build.to_vec();
    args.extend(["-o", one.to_str().unwrap()]);
    let single = finish(start(&args), Duration::from_secs(120), "the single-process build");
    assert!(single.status.success(), "{}", text(&single.stderr));
    let mut args = build.to_vec();
    args.extend(["-o", two.to_str().unwrap(), "--local-processes", "2"]);
    let double = finish(start(&args), Duration::from_secs(120), "the two-process build");
    assert!(double.status.success(), "{}", text(&double.stderr));
    let report = text(&double.stdout);
    assert!(report.contains("2 processes of 1 worker"), "{report}");
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap(), "{build:?}: the files differ");
    // The report says the same of the file: the game, its indices and
    // positions, its values and blocks (up to the first `;`).
    let what = |out: &str| out.split_once(": ").map(|(_, rest)| rest.split(';').next().unwrap_or("").to_string());
    assert_eq!(what(&text(&single.stdout)), what(&report), "{build:?}: the reports differ");
    report
}

#[test]
fn two_processes_write_the_single_process_file_for_chase() {
    let scratch = Scratch::new("chase");
    same_file_from_two_processes(&scratch, &["build", "chase", "--size", "10"]);
    // Wide enough that both processes own many chunks.
    same_file_from_two_processes(&scratch, &["build", "chase", "--size", "24", "--force"]);
}

#[test]
fn two_processes_write_the_single_process_file_for_a_queens_case_map() {
    let scratch = Scratch::new("queens-case");
    let map = scratch.path("map.txt");
    let rows = [
        "....................",
        "..##......#.....E...",
        "..#.......#.........",
        "......###...........",
        "...Q.........#......",
        ".........#...#......",
        "....#....#.......A..",
        "....#...............",
        "..........##........",
        "E.........#.........",
    ];
    std::fs::write(&map, format!("20 10\n{}\n", rows.join("\n"))).unwrap();
    same_file_from_two_processes(&scratch, &["build", "queens-case", map.to_str().unwrap()]);
}

#[test]
fn two_processes_write_the_single_process_file_for_pawns_tier_by_tier() {
    let scratch = Scratch::new("pawns");
    same_file_from_two_processes(&scratch, &["build", "pawns", "--rows", "4", "--cols", "4"]);
    same_file_from_two_processes(&scratch, &["build", "pawns", "--rows", "3", "--cols", "5", "--force"]);
    // The work directories are gone once the files are written.
    assert_eq!(scratch.files(), ["one.gtb", "two.gtb"]);
}

/// Rules games of every shape the single process builds in its own way (tiers
/// on disk, progress sweeps, retrograde within tiers, whole by retrograde with
/// a folded index and wins in 1 left out, a pursuit on a map), built across
/// two processes: tier by tier where the single process builds tiers
/// (tic-tac-toe, pawns, Breakthrough, kings that capture), else by retrograde
/// analysis over the whole index (Dobutsu, Fox and Hounds' one tier, cops and
/// robbers): the same file. Each game has
/// more than one chunk of 16,384 positions, so both processes own some.
#[test]
fn two_processes_write_the_single_process_file_for_rules_games() {
    let scratch = Scratch::new("rules");
    let file = |name: &str| example(&format!("rules/{name}.toml")).to_str().unwrap().to_string();
    // Kings that step any way and take: 25 tiers, with cycles in each.
    let kings = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kings.toml").to_str().unwrap().to_string();
    // (tier by tier?, the game)
    let builds: [(bool, Vec<String>); 9] = [
        (true, vec![file("tic-tac-toe")]),
        (true, vec![file("pawns")]),
        (true, vec![file("breakthrough"), "--rows".into(), "5".into(), "--cols".into(), "3".into()]),
        // Tiers with cycles, dealt whole to one worker (small), and split over
        // the workers, solved by retrograde within each tier.
        (true, vec![kings.clone()]),
        (true, vec![kings.clone(), "--split-above".into(), "0".into()]),
        // One tier with cycles: whole.
        (false, vec![file("fox-and-hounds"), ".H.H.H/....../....../....../....../F..... f".into()]),
        // A Dobutsu endgame with hands to drop from.
        (false, vec![file("dobutsu"), "l../.c./.C./..L s -".into()]),
        (false, vec![file("dobutsu"), "l../.../.../..L s Cc".into()]),
        (false, vec![file("cops-and-robbers"), "C.....C/......./.#.#.#./......./...R... c".into()]),
    ];
    let hosts = scratch.path("hosts");
    hostfile(&hosts, 1);
    for (number, (by_tiers, build)) in builds.iter().enumerate() {
        let mut args = vec!["build", "rules", "--force"];
        args.extend(build.iter().map(String::as_str));
        let report = same_file_from_two_processes(&scratch, &args);
        // Tier by tier, the traffic is child values; whole, updates.
        let tiered = report.contains("bytes of child values and");
        assert_eq!(tiered, *by_tiers, "{build:?}: {report}");
        // Split tiers with cycles are solved by retrograde: updates travel.
        if build.iter().any(|a| a == "--split-above") {
            assert!(!report.contains(" 0 updates between"), "{build:?}: {report}");
        }
        // One process of two timely workers (never more workers than this
        // machine's two cores), for one game of each way: the file of `one.gtb`.
        if number == 2 || number == 4 || number == 8 {
            let workers = scratch.path("workers.gtb");
            args.extend(["-o", workers.to_str().unwrap(), "-j", "2"]);
            args.extend(["--processes", "1", "--process", "0", "--hostfile", hosts.to_str().unwrap()]);
            let run = finish(start(&args), Duration::from_secs(120), "the build of two workers");
            assert!(run.status.success(), "{}", text(&run.stderr));
            assert!(text(&run.stdout).contains("1 process of 2 workers"), "{}", text(&run.stdout));
            let one = std::fs::read(scratch.path("one.gtb")).unwrap();
            assert_eq!(std::fs::read(&workers).unwrap(), one, "{build:?}, two workers: the files differ");
        }
    }
}

/// Breakthrough 4 × 4 (28.8 million indices), whose single-process build
/// sweeps its tiers by progress.
#[test]
#[ignore = "long in a debug build: cargo test --release -p gsolve-cli --test distributed_cli -- --ignored (docs/performance.md)"]
fn two_processes_write_the_single_process_file_for_breakthrough() {
    let scratch = Scratch::new("breakthrough");
    let rules = example("rules/breakthrough.toml");
    same_file_from_two_processes(&scratch, &["build", "rules", rules.to_str().unwrap(), "--rows", "4", "--cols", "4"]);
}

#[test]
fn two_processes_resume_a_single_process_build_from_its_finished_tiers() {
    let scratch = Scratch::new("resume");
    let clean = scratch.path("clean.gtb");
    let built = finish(
        start(&["build", "pawns", "--rows", "4", "--cols", "5", "-o", clean.to_str().unwrap()]),
        Duration::from_secs(120),
        "the clean build",
    );
    assert!(built.status.success(), "{}", text(&built.stderr));
    // A single-process build stopped after a few tiers...
    let file = scratch.path("resumed.gtb");
    let work = scratch.path("work");
    let args = ["build", "pawns", "--rows", "4", "--cols", "5", "-o", file.to_str().unwrap(), "--work-dir"];
    let mut args: Vec<&str> = args.to_vec();
    args.push(work.to_str().unwrap());
    let mut child = gsolve().args(&args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let finished = work.join("finished.txt");
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(&finished).map(|t| t.lines().count()).unwrap_or(0) < 6 {
        assert!(child.try_wait().unwrap().is_none(), "the build finished before it could be stopped");
        assert!(Instant::now() < deadline, "no tier finished in time");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = std::fs::read_to_string(&finished).unwrap().lines().count();
    assert!(before < 36, "stopped part-way: {before} tiers");
    // ...goes on over two processes, each reading its part of those tiers.
    args.extend(["--local-processes", "2"]);
    let resumed = finish(start(&args), Duration::from_secs(120), "the resumed two-process build");
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert_eq!(std::fs::read(&file).unwrap(), std::fs::read(&clean).unwrap(), "the same bytes");
    assert!(!work.exists(), "the work directory is removed");
}

/// Two processes, each with its own work directory (no file system shared):
/// one is killed part-way, the other ends with exit 1 naming it, and the run
/// started again goes on from the tiers both had finished, to the single
/// process's file, in fewer rounds than a run from the start.
#[test]
fn processes_with_their_own_work_directories_go_on_after_one_is_killed() {
    let scratch = Scratch::new("own-dirs");
    let clean = scratch.path("clean.gtb");
    let built = finish(
        start(&["build", "pawns", "--rows", "4", "--cols", "5", "-o", clean.to_str().unwrap()]),
        Duration::from_secs(120),
        "the single-process build",
    );
    assert!(built.status.success(), "{}", text(&built.stderr));
    let hosts = scratch.path("hosts");
    let args = |output: &Path, process: usize| {
        let work = scratch.path(&format!("work{process}"));
        let mut args: Vec<String> =
            ["build", "pawns", "--rows", "4", "--cols", "5", "--processes", "2"].map(String::from).into();
        args.extend(["-o".into(), output.to_str().unwrap().into(), "--process".into(), process.to_string()]);
        args.extend([
            "--hostfile".into(),
            hosts.to_str().unwrap().into(),
            "--work-dir".into(),
            work.to_str().unwrap().into(),
        ]);
        args
    };
    let run = |output: &Path| {
        hostfile(&hosts, 2);
        let zero = gsolve().args(args(output, 0)).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let one = gsolve().args(args(output, 1)).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        (zero, one)
    };
    let rounds = |report: &str| -> u64 {
        let (before, _) = report.split_once(" rounds").expect("rounds reported");
        before.rsplit(' ').next().unwrap().parse().unwrap()
    };
    // A run from the start, for its rounds.
    let fresh = scratch.path("fresh.gtb");
    let (zero, one) = run(&fresh);
    let (zero, one) =
        (finish(zero, Duration::from_secs(120), "process 0"), finish(one, Duration::from_secs(120), "process 1"));
    assert!(zero.status.success() && one.status.success(), "{}{}", text(&zero.stderr), text(&one.stderr));
    let fresh_rounds = rounds(&text(&zero.stdout));
    // Killed part-way: process 1 once its worker has kept its part of a few tiers.
    let output = scratch.path("out.gtb");
    let (zero, mut one) = run(&output);
    let finished = scratch.path("work1").join("w1of2").join("finished.txt");
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(&finished).map(|t| t.lines().count()).unwrap_or(0) < 6 {
        assert!(one.try_wait().unwrap().is_none(), "the build finished before it could be stopped");
        assert!(Instant::now() < deadline, "no tier finished in time");
        std::thread::sleep(Duration::from_millis(2));
    }
    one.kill().unwrap();
    one.wait().unwrap();
    let zero = finish(zero, Duration::from_secs(60), "process 0 after its peer was killed");
    let stderr = text(&zero.stderr);
    assert_eq!(zero.status.code(), Some(1), "stderr: {stderr}");
    assert!(stderr.contains("process 1") && stderr.contains("is gone"), "{stderr}");
    assert!(!output.exists());
    // Started again: on from the tiers both kept.
    let (zero, one) = run(&output);
    let (zero, one) =
        (finish(zero, Duration::from_secs(120), "process 0"), finish(one, Duration::from_secs(120), "process 1"));
    assert!(zero.status.success() && one.status.success(), "{}{}", text(&zero.stderr), text(&one.stderr));
    let resumed_rounds = rounds(&text(&zero.stdout));
    assert!(resumed_rounds < fresh_rounds, "{resumed_rounds} rounds resumed, {fresh_rounds} from the start");
    let clean = std::fs::read(&clean).unwrap();
    assert!(std::fs::read(&fresh).unwrap() == clean, "from the start: the files differ");
    assert!(std::fs::read(&output).unwrap() == clean, "resumed: the files differ");
    // Each process removed its own work directory.
    assert_eq!(scratch.files(), ["clean.gtb", "fresh.gtb", "hosts", "out.gtb"]);
}

#[test]
fn a_killed_peer_ends_the_other_process_with_an_error_and_no_file() {
    let scratch = Scratch::new("killed");
    let hosts = scratch.path("hosts");
    hostfile(&hosts, 2);
    let output = scratch.path("out.gtb");
    // Long enough (several seconds even in a release build) to be killed mid-solve.
    let args = |process: &'static str| {
        vec![
            "build".to_string(),
            "chase".into(),
            "--size".into(),
            "70".into(),
            "-o".into(),
            output.to_str().unwrap().into(),
            "--processes".into(),
            "2".into(),
            "--process".into(),
            process.into(),
            "--hostfile".into(),
            hosts.to_str().unwrap().into(),
        ]
    };
    let zero = gsolve().args(args("0")).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut one = gsolve().args(args("1")).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    // Both connected and solving by then, even on a loaded machine (started,
    // connecting takes well under a second; the solve takes over ten).
    std::thread::sleep(Duration::from_millis(3000));
    one.kill().unwrap();
    one.wait().unwrap();
    let killed_at = Instant::now();
    let result = finish(zero, Duration::from_secs(60), "process 0 after its peer was killed");
    let stderr = text(&result.stderr);
    assert_eq!(result.status.code(), Some(1), "stderr: {stderr}");
    assert!(stderr.contains("process 1") && stderr.contains("is gone"), "{stderr}");
    assert!(killed_at.elapsed() < Duration::from_secs(10), "took {:?}", killed_at.elapsed());
    assert_eq!(scratch.files(), ["hosts"], "nothing written");
}

#[test]
fn setup_mistakes_are_usage_errors() {
    let scratch = Scratch::new("setup");
    let hosts = scratch.path("hosts");
    let output = scratch.path("out.gtb");
    let out = output.to_str().unwrap();
    let build = ["build", "chase", "--size", "5", "-o", out];
    let run = |extra: &[&str]| {
        let mut args = build.to_vec();
        args.extend(extra);
        finish(start(&args), Duration::from_secs(30), "a build with a setup mistake")
    };
    // A hostfile with three processes for --processes 2.
    hostfile(&hosts, 3);
    let r = run(&["--processes", "2", "--process", "0", "--hostfile", hosts.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    assert!(text(&r.stderr).contains("lists 3 processes but --processes is 2"), "{}", text(&r.stderr));
    // A line that is not host:port, with its line number.
    std::fs::write(&hosts, "127.0.0.1:4000\nnot an address\n").unwrap();
    let r = run(&["--processes", "2", "--process", "0", "--hostfile", hosts.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    assert!(text(&r.stderr).contains("line 2"), "{}", text(&r.stderr));
    // A process number out of range.
    hostfile(&hosts, 2);
    let r = run(&["--processes", "2", "--process", "2", "--hostfile", hosts.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    // A port in use.
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    std::fs::write(&hosts, format!("{}\n127.0.0.1:1\n", taken.local_addr().unwrap())).unwrap();
    let r = run(&["--processes", "2", "--process", "0", "--hostfile", hosts.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    assert!(text(&r.stderr).contains("cannot listen on"), "{}", text(&r.stderr));
    drop(taken);
    // A rules file whose start does not fit the board asked for, refused
    // before any process starts (with --local-processes) or connects (with
    // --process).
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/rules/breakthrough.toml");
    let rules_build = ["build", "rules", rules, "--rows", "3", "--cols", "4", "-o", out];
    for extra in [
        &["--local-processes", "2"][..],
        &["--processes", "2", "--process", "1", "--hostfile", hosts.to_str().unwrap()],
    ] {
        let mut args = rules_build.to_vec();
        args.extend(extra);
        let r = finish(start(&args), Duration::from_secs(30), "a build of a start that does not fit");
        assert_eq!(r.status.code(), Some(2), "{extra:?}");
        assert!(text(&r.stderr).contains("the start puts two pieces on row 2"), "{}", text(&r.stderr));
        assert_eq!(text(&r.stderr).lines().count(), 1, "{}", text(&r.stderr));
    }
    assert_eq!(scratch.files(), ["hosts"]);
}

#[test]
fn an_unreachable_peer_is_named_after_the_connect_timeout() {
    let scratch = Scratch::new("unreachable");
    let hosts = scratch.path("hosts");
    hostfile(&hosts, 2);
    let output = scratch.path("out.gtb");
    // Process 1 waits for process 0, which never starts.
    let args = ["build", "chase", "--size", "5", "-o", output.to_str().unwrap(), "--processes", "2"];
    let mut one = args.to_vec();
    one.extend(["--process", "1", "--hostfile", hosts.to_str().unwrap(), "--connect-timeout", "1"]);
    let r = finish(start(&one), Duration::from_secs(30), "a process whose peer never comes");
    assert_eq!(r.status.code(), Some(1));
    assert!(
        text(&r.stderr).contains("process 0") && text(&r.stderr).contains("could not be reached within 1 s"),
        "{}",
        text(&r.stderr)
    );
}

#[test]
fn a_peer_started_for_another_game_is_refused() {
    let scratch = Scratch::new("another-job");
    let hosts = scratch.path("hosts");
    hostfile(&hosts, 2);
    let output = scratch.path("out.gtb");
    let start_as = |size: &str, process: &str| {
        start(&[
            "build",
            "chase",
            "--size",
            size,
            "-o",
            output.to_str().unwrap(),
            "--processes",
            "2",
            "--process",
            process,
            "--hostfile",
            hosts.to_str().unwrap(),
            "--connect-timeout",
            "20",
        ])
    };
    let zero = start_as("5", "0");
    let one = start_as("6", "1");
    let zero = finish(zero, Duration::from_secs(60), "process 0 of a mismatched run");
    let one = finish(one, Duration::from_secs(60), "process 1 of a mismatched run");
    let messages = format!("{}{}", text(&zero.stderr), text(&one.stderr));
    assert!(messages.contains("was started for `build chase size="), "{messages}");
    // Each side says why: both exit 2.
    assert_eq!((zero.status.code(), one.status.code()), (Some(2), Some(2)), "{messages}");
    assert!(messages.contains("size=5") && messages.contains("size=6"), "{messages}");
    assert_eq!(scratch.files(), ["hosts"]);
}
