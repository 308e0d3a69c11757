//! Helpers shared by the CLI test files: run the built `gsolve` and read bundled files.
#![allow(dead_code)] // each test file uses a different subset

pub mod http;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The built `gsolve`, to be given arguments.
pub fn gsolve() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gsolve"))
}

pub fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name)
}

pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

pub fn read(path: &PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// What one run of gsolve did.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs gsolve with these arguments and standard input.
pub fn run(args: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
    let mut child = gsolve()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gsolve runs");
    let input = stdin.into();
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // Written from a thread: gsolve may answer (or fail) before reading it all.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().expect("gsolve runs");
    let _ = writer.join();
    let run = Run {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    };
    assert!(!run.stderr.contains("panicked"), "gsolve {args:?} panicked:\n{}", run.stderr);
    run
}

/// Runs gsolve and expects a usage or input error: exit status 2, nothing on
/// standard output, a message. Returns the message.
pub fn fails(args: &[&str], stdin: impl Into<Vec<u8>>) -> String {
    let r = run(args, stdin);
    assert_eq!(
        r.code,
        Some(2),
        "gsolve {args:?} should fail with status 2\nstdout: {}\nstderr: {}",
        r.stdout,
        r.stderr
    );
    assert!(r.stdout.is_empty(), "gsolve {args:?} printed:\n{}", r.stdout);
    assert!(!r.stderr.trim().is_empty(), "gsolve {args:?}: no message");
    r.stderr
}

/// Runs gsolve, expects success and returns standard output.
pub fn ok(args: &[&str], stdin: impl Into<Vec<u8>>) -> String {
    let r = run(args, stdin);
    assert_eq!(r.code, Some(0), "gsolve {args:?} failed:\n{}", r.stderr);
    r.stdout
}

/// Raises this process's soft limit of open files to the hard limit, where the
/// system allows (load tests hold thousands of sockets); returns the limit then in
/// force (`None`: unlimited or unknown).
#[cfg(unix)]
pub fn raise_descriptor_limit() -> Option<u64> {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let limit = getrlimit(Resource::Nofile);
    if let (Some(current), Some(maximum)) = (limit.current, limit.maximum) {
        if current < maximum
            && setrlimit(Resource::Nofile, Rlimit { current: Some(maximum), maximum: Some(maximum) }).is_ok()
        {
            return Some(maximum);
        }
    }
    limit.current
}

#[cfg(not(unix))]
pub fn raise_descriptor_limit() -> Option<u64> {
    None
}

/// A child process, killed and reaped when dropped.
pub struct Process(pub std::process::Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `gsolve serve --port 0` with `options`; returns the process and the URL it
/// prints (`http://127.0.0.1:PORT/`). Its standard error goes on being read and
/// shown with a `[server]` prefix.
pub fn serve(options: &[&str]) -> (Process, String) {
    use std::io::{BufRead, BufReader};
    let mut child = gsolve()
        .args(["serve", "--port", "0"])
        .args(options)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gsolve serve starts");
    let stderr = child.stderr.take().expect("stderr is piped");
    let mut process = Process(child);
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            match line.strip_prefix("gsolve: serving ") {
                Some(url) => {
                    let _ = sender.send(url.to_string());
                }
                None => eprintln!("[server] {line}"),
            }
        }
    });
    match receiver.recv_timeout(std::time::Duration::from_secs(30)) {
        Ok(url) => (process, url),
        Err(_) => panic!("gsolve serve did not print its URL: {:?}", process.0.try_wait()),
    }
}

/// A fresh directory for one test's files, removed when dropped. Each test binary
/// is its own process, so the process id and the test's name keep runs apart.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(test: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("gsolve-test-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The names of the files in it, sorted.
    pub fn files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
