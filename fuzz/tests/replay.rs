//! The fuzz corpora on stable Rust: every file of `corpus/<target>/` through its
//! target, then a fixed number of seeded random mutations of them (bit flips, byte
//! changes, inserts, deletes, repeats and splices), so that `cargo test` catches a
//! regression on what fuzzing found without nightly or libFuzzer. A failing mutant
//! is written to `target/fuzz-replay/<target>-<n>` (the workspace's target folder),
//! ready for `cargo fuzz run <target> --features libfuzzer FILE`.

use gsolve_games::rng::SplitMix64;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Mutants a target runs per test.
const MUTANTS: usize = 2_000;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(target);
    let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("a directory entry").path();
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, bytes)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: an empty corpus", dir.display());
    files
}

/// Bytes a mutation writes: the characters of every input format, and some others.
const INTERESTING: &[u8] = b"0123456789 \n\r\t/.,#=-+EQApPwbqa12[]{}\"\xff\x00";

fn random_byte(rng: &mut SplitMix64) -> u8 {
    if rng.chance(3, 4) {
        INTERESTING[rng.below(INTERESTING.len() as u64) as usize]
    } else {
        rng.next_u64() as u8
    }
}

/// A random range of `len` bytes: (start, length), length 1 to `max`.
fn range(rng: &mut SplitMix64, len: usize, max: usize) -> (usize, usize) {
    let start = rng.below(len as u64) as usize;
    let n = 1 + rng.below(max.min(len - start) as u64) as usize;
    (start, n)
}

/// One to four mutations of a corpus input (splices take from another one).
fn mutant(rng: &mut SplitMix64, inputs: &[(PathBuf, Vec<u8>)], max_len: usize) -> Vec<u8> {
    let mut bytes = inputs[rng.below(inputs.len() as u64) as usize].1.clone();
    for _ in 0..1 + rng.below(4) {
        let other = &inputs[rng.below(inputs.len() as u64) as usize].1;
        let len = bytes.len();
        match rng.below(8) {
            0 if len > 0 => {
                let at = rng.below(len as u64) as usize;
                bytes[at] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let at = rng.below(len as u64) as usize;
                bytes[at] = random_byte(rng);
            }
            2 => {
                let at = rng.below(len as u64 + 1) as usize;
                bytes.insert(at, random_byte(rng));
            }
            3 if len > 0 => {
                let (start, n) = range(rng, len, 16);
                bytes.drain(start..start + n);
            }
            4 if len > 0 => {
                let (start, n) = range(rng, len, 64);
                let copy = bytes[start..start + n].to_vec();
                let at = rng.below(len as u64 + 1) as usize;
                bytes.splice(at..at, copy);
            }
            5 if !other.is_empty() => {
                // This input's start, the other's end.
                let cut = rng.below(len as u64 + 1) as usize;
                let from = rng.below(other.len() as u64) as usize;
                bytes.truncate(cut);
                bytes.extend_from_slice(&other[from..]);
            }
            6 if !other.is_empty() => {
                let (start, n) = range(rng, other.len(), 64);
                let at = rng.below(len as u64 + 1) as usize;
                bytes.splice(at..at, other[start..start + n].iter().copied());
            }
            7 if len >= 8 => {
                // A little-endian number changed: sizes and offsets in binary inputs.
                let at = rng.below(len as u64 - 7) as usize;
                let value = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
                let changed = match rng.below(4) {
                    0 => value.wrapping_add(1),
                    1 => value.wrapping_sub(1),
                    2 => value ^ (1 << rng.below(64)),
                    _ => rng.next_u64(),
                };
                bytes[at..at + 8].copy_from_slice(&changed.to_le_bytes());
            }
            _ => {}
        }
    }
    bytes.truncate(max_len);
    bytes
}

fn failed(target: &str, what: &str, bytes: &[u8]) -> ! {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fuzz-replay");
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join(format!("{target}-{what}"));
    let _ = std::fs::write(&file, bytes);
    let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
    panic!("{target}: {what} fails (written to {}): {shown:?}", file.display());
}

fn replay(target: &str) {
    let (_, run) = gsolve_fuzz::TARGETS.iter().find(|(name, _)| *name == target).expect("a target of that name");
    let inputs = corpus(target);
    for (path, bytes) in &inputs {
        if catch_unwind(AssertUnwindSafe(|| run(bytes))).is_err() {
            failed(target, &path.file_name().unwrap().to_string_lossy(), bytes);
        }
    }
    let max_len = if target == "tablebase" { 65_536 } else { 4_096 };
    // The same mutants on every run and machine: a seed per target.
    let seed = target.bytes().fold(0x6773_6f6c_7665u64, |h, b| h.rotate_left(5) ^ b as u64);
    let mut rng = SplitMix64::new(seed);
    for n in 0..MUTANTS {
        let bytes = mutant(&mut rng, &inputs, max_len);
        if catch_unwind(AssertUnwindSafe(|| run(&bytes))).is_err() {
            failed(target, &format!("mutant-{n}"), &bytes);
        }
    }
}

#[test]
fn every_target_has_a_test_and_a_binary() {
    let this = include_str!("replay.rs");
    for (name, _) in gsolve_fuzz::TARGETS {
        assert!(this.contains(&format!("fn {name}()")), "no replay test for {name}");
        let binary = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz_targets").join(format!("{name}.rs"));
        assert!(binary.is_file(), "{}: missing", binary.display());
    }
}

#[test]
fn contest_queens() {
    replay("contest_queens");
}

#[test]
fn contest_chase() {
    replay("contest_chase");
}

#[test]
fn contest_pawns() {
    replay("contest_pawns");
}

#[test]
fn contest_snakes() {
    replay("contest_snakes");
}

#[test]
fn position_pawns() {
    replay("position_pawns");
}

#[test]
fn position_chase() {
    replay("position_chase");
}

#[test]
fn position_queens() {
    replay("position_queens");
}

#[test]
fn position_snakes() {
    replay("position_snakes");
}

#[test]
fn variant_parameters() {
    replay("variant_parameters");
}

#[test]
fn tablebase() {
    replay("tablebase");
}

#[test]
fn http_router() {
    replay("http_router");
}

#[test]
fn rules_file() {
    replay("rules_file");
}

#[test]
fn book_file() {
    replay("book_file");
}
