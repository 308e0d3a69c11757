//! Helpers shared by the tablebase test suites: temporary directories, a small
//! seeded RNG, proptest configuration and the file layout read independently of the
//! crate's own decoder.
#![allow(dead_code)]

use gsolve_engine::{PackedValue, Value};
use gsolve_tablebase::write::{self, WriteOptions};
use gsolve_tablebase::Written;
use proptest::test_runner::Config as ProptestConfig;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A fresh directory under the system's temporary directory, removed (with all it
/// holds) when dropped. Every test writes into its own, so that "no file is left
/// behind" can be checked by listing it.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "gsolve-tablebase-test-{}-{}-{name}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).expect("create a temporary directory");
        TempDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// The names of the entries of the directory, sorted.
    pub fn entries(&self) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&self.path)
            .expect("list the temporary directory")
            .map(|entry| entry.expect("a directory entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// True when some entry's name contains ".tmp-" (a writer's temporary file).
    pub fn has_temporary(&self) -> bool {
        self.entries().iter().any(|name| name.contains(".tmp-"))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// The seeded generator of the games crate, enough for test data.
pub use gsolve_games::rng::SplitMix64 as Rng;

/// A proptest configuration running `default_cases` cases, unless the environment
/// variable `PROPTEST_CASES` says otherwise. (`ProptestConfig::with_cases` would
/// ignore the variable: proptest reads it only into `ProptestConfig::default()`.)
pub fn config(default_cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = default_cases;
    }
    config
}

/// A random valid value with remoteness below `max_remoteness + 1`, or a draw.
pub fn random_value(rng: &mut Rng, max_remoteness: u32) -> Value {
    let r = rng.below(max_remoteness as u64 + 1) as u32;
    match rng.below(4) {
        0 => Value::Win(r),
        1 => Value::Loss(r),
        2 => Value::Tie(r),
        _ => Value::Draw,
    }
}

/// Writes `values` as a tablebase of the made-up game "test-values" (two
/// parameters) with `block_bytes` per block.
pub fn write_values(path: &Path, values: &[PackedValue], block_bytes: u32) -> Written {
    let options = WriteOptions { block_bytes, level: 3, ..WriteOptions::default() };
    write::write(path, "test-values", &test_parameters(), values, &options, None).expect("write a tablebase")
}

/// The parameters [`write_values`] stores.
pub fn test_parameters() -> Vec<(String, String)> {
    vec![("kind".to_string(), "made up, for tests = ✓".to_string()), ("empty".to_string(), String::new())]
}

/// The bytes of a tablebase of `values`, written to a temporary directory and read
/// back.
pub fn tablebase_bytes(values: &[PackedValue], block_bytes: u32) -> Vec<u8> {
    let dir = TempDir::new("bytes");
    let path = dir.join("values.gtb");
    let written = write_values(&path, values, block_bytes);
    let bytes = fs::read(&path).expect("read the tablebase back");
    assert_eq!(written.file_bytes, bytes.len() as u64);
    bytes
}

/// A small valid tablebase of 300 values of every kind (holes included) in 1-byte
/// codes, 64 positions per block: 5 blocks, the last one short. Also its values.
pub fn small_file() -> &'static (Vec<u8>, Vec<PackedValue>) {
    static FILE: std::sync::OnceLock<(Vec<u8>, Vec<PackedValue>)> = std::sync::OnceLock::new();
    FILE.get_or_init(|| {
        let mut rng = Rng::new(7);
        let values: Vec<PackedValue> = (0..300)
            .map(
                |_| if rng.chance(10, 100) { PackedValue::NONE } else { PackedValue::pack(random_value(&mut rng, 60)) },
            )
            .collect();
        (tablebase_bytes(&values, 64), values)
    })
}

/// The layout of a tablebase, read straight from the bytes at the documented
/// offsets (not through the crate's decoder).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub version: u16,
    pub value_width: u8,
    pub compression: u8,
    pub block_positions: u32,
    pub index_size: u64,
    pub block_count: u64,
    pub block_index_offset: u64,
    pub text_len: u32,
    /// Per block: (offset, compressed length).
    pub blocks: Vec<(u64, u32)>,
}

impl Layout {
    /// Reads a valid file's layout (panics on a file too short for its own fields).
    pub fn of(bytes: &[u8]) -> Layout {
        let block_index_offset = u64_at(bytes, 32);
        let block_count = u64_at(bytes, 24);
        let blocks = (0..block_count as usize)
            .map(|k| {
                let at = block_index_offset as usize + 24 * k;
                (u64_at(bytes, at), u32_at(bytes, at + 8))
            })
            .collect();
        Layout {
            version: u16::from_le_bytes([bytes[8], bytes[9]]),
            value_width: bytes[10],
            compression: bytes[11],
            block_positions: u32_at(bytes, 12),
            index_size: u64_at(bytes, 16),
            block_count,
            block_index_offset,
            text_len: u32_at(bytes, 40),
            blocks,
        }
    }

    /// Where the blocks start: after the fixed header and the parameter text.
    pub fn data_offset(&self) -> u64 {
        64 + self.text_len as u64
    }

    /// The byte range of block `k`'s compressed bytes.
    pub fn block_bytes(&self, k: usize) -> std::ops::Range<usize> {
        let (offset, length) = self.blocks[k];
        offset as usize..offset as usize + length as usize
    }
}

pub fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

pub fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

/// Recomputes, as far as the (possibly damaged) bytes allow, the header checksum,
/// each block's checksum and the block index's checksum, so that damage reaches the
/// checks behind them. Never panics.
pub fn reseal(bytes: &mut [u8]) {
    use xxhash_rust::xxh3::xxh3_64;
    if bytes.len() < 64 {
        return;
    }
    let text_end = 64 + u32_at(bytes, 40) as usize;
    let index_offset = u64_at(bytes, 32);
    let blocks = u64_at(bytes, 24);
    // The file's identity seeds the block checksums (format version 2).
    let identity = if text_end <= bytes.len() { identity(bytes) } else { 0 };
    // Block checksums, then the index checksum, then the header's.
    let index_end = blocks.checked_mul(24).and_then(|n| n.checked_add(index_offset));
    if let Some(index_end) = index_end.filter(|&end| end.saturating_add(8) <= bytes.len() as u64) {
        let (start, end) = (index_offset as usize, index_end as usize);
        for k in 0..blocks as usize {
            let at = start + 24 * k;
            let (offset, length) = (u64_at(bytes, at), u32_at(bytes, at + 8) as u64);
            if let Some(block_end) = offset.checked_add(length).filter(|&e| e <= bytes.len() as u64) {
                let checksum = block_checksum(identity, k as u64, &bytes[offset as usize..block_end as usize]);
                bytes[at + 16..at + 24].copy_from_slice(&checksum.to_le_bytes());
            }
        }
        let checksum = xxh3_64(&bytes[start..end]);
        bytes[end..end + 8].copy_from_slice(&checksum.to_le_bytes());
    }
    if text_end <= bytes.len() {
        let mut hashed = bytes[..48].to_vec();
        hashed.extend_from_slice(&bytes[64..text_end]);
        let checksum = xxh3_64(&hashed);
        bytes[48..56].copy_from_slice(&checksum.to_le_bytes());
    }
}

/// The documented file identity: XXH3-64 of header bytes 8..32, then (version 3)
/// bytes 44..48, then the parameter text (whose end the header's length field gives;
/// it must lie in the file).
pub fn identity(bytes: &[u8]) -> u64 {
    let text_end = 64 + u32_at(bytes, 40) as usize;
    let mut hashed = bytes[8..32].to_vec();
    if u16::from_le_bytes([bytes[8], bytes[9]]) >= 3 {
        hashed.extend_from_slice(&bytes[44..48]);
    }
    hashed.extend_from_slice(&bytes[64..text_end]);
    xxhash_rust::xxh3::xxh3_64(&hashed)
}

/// The documented block checksum: XXH3-64 seeded with the identity, over the block's
/// number (u64, little-endian) and then its compressed bytes.
pub fn block_checksum(identity: u64, block: u64, compressed: &[u8]) -> u64 {
    let mut hashed = block.to_le_bytes().to_vec();
    hashed.extend_from_slice(compressed);
    xxhash_rust::xxh3::xxh3_64_with_seed(&hashed, identity)
}
