//! Damaged, truncated, foreign and hostile files: each gives a clear error, never a
//! panic. The fuzz tests run `common::config` cases each (PROPTEST_CASES overrides,
//! e.g. `PROPTEST_CASES=200000 cargo test -p gsolve-tablebase --release --test
//! bad_files`).

mod common;

use common::{Layout, TempDir};
use gsolve_engine::{layered, PackedValue, Value};
use gsolve_games::pawns::Pawns;
use gsolve_tablebase::write::{self, WriteOptions};
use gsolve_tablebase::{Error, GameTablebase, Tablebase};
use proptest::prelude::*;
use std::fs;
use std::ops::Range;

/// The error of opening `bytes` (in memory); panics if it opens.
fn open_error(bytes: &[u8]) -> Error {
    match Tablebase::from_bytes(bytes.to_vec()) {
        Ok(_) => panic!("a bad file of {} bytes opened", bytes.len()),
        Err(e) => {
            assert!(e.is_bad_file(), "{e:?}");
            // Every error says something.
            assert!(!e.to_string().is_empty());
            e
        }
    }
}

/// The error of opening `bytes` written to a file (the memory-mapped path).
fn open_file_error(dir: &TempDir, bytes: &[u8]) -> Error {
    let path = dir.join("bad.gtb");
    fs::write(&path, bytes).unwrap();
    match Tablebase::open(&path) {
        Ok(_) => panic!("a bad file of {} bytes opened", bytes.len()),
        Err(e) => e,
    }
}

fn small() -> &'static [u8] {
    &common::small_file().0
}

#[test]
fn empty_and_tiny_files() {
    let dir = TempDir::new("tiny");
    assert!(matches!(open_error(b""), Error::Truncated(_)));
    assert!(matches!(open_file_error(&dir, b""), Error::Truncated(_)));
    assert!(matches!(open_error(b"GSO"), Error::Truncated(_)));
    assert!(matches!(open_file_error(&dir, b"GSO"), Error::Truncated(_)));
    assert!(matches!(open_error(b"GSOLVETB"), Error::Truncated(_)));
    // Not a prefix of the magic: not a tablebase at all.
    assert!(matches!(open_error(b"GSX"), Error::BadMagic));
    assert!(matches!(open_error(b"\0"), Error::BadMagic));
    assert!(matches!(open_file_error(&dir, b"hello"), Error::BadMagic));
    let text = b"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt";
    assert!(matches!(open_error(text), Error::BadMagic));
    assert!(matches!(open_file_error(&dir, text), Error::BadMagic));
}

#[test]
fn wrong_magic() {
    let dir = TempDir::new("magic");
    for at in 0..8 {
        let mut bytes = small().to_vec();
        bytes[at] ^= 0x20;
        assert!(matches!(open_error(&bytes), Error::BadMagic), "byte {at}");
        assert!(matches!(open_file_error(&dir, &bytes), Error::BadMagic), "byte {at}");
    }
    let message = Error::BadMagic.to_string();
    assert!(message.contains("not a gsolve tablebase"), "{message}");
}

#[test]
fn missing_files_and_directories_are_io_errors() {
    let dir = TempDir::new("io");
    let result = Tablebase::open(dir.join("nothing-here.gtb"));
    assert!(matches!(&result, Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::NotFound));
    assert!(!result.err().unwrap().is_bad_file());
    assert!(Tablebase::open(dir.path()).is_err());
    assert!(GameTablebase::<Pawns>::open(dir.join("nothing-here.gtb")).is_err());
}

/// Every proper prefix of a valid file is `Truncated`: before the magic is complete
/// the prefix still matches it, so it is not `BadMagic`.
#[test]
fn every_truncation_is_truncated() {
    let dir = TempDir::new("truncated");
    let bytes = small();
    for len in 0..bytes.len() {
        let e = open_error(&bytes[..len]);
        assert!(matches!(e, Error::Truncated(_)), "length {len}: {e:?}");
    }
    // The mapped path too, at the boundaries and a sample of lengths.
    let text_end = Layout::of(bytes).data_offset() as usize;
    for len in [0, 3, 8, 63, 64, 65, text_end - 1, text_end, text_end + 1, bytes.len() - 16, bytes.len() - 1] {
        let e = open_file_error(&dir, &bytes[..len]);
        assert!(matches!(e, Error::Truncated(_)), "length {len}: {e:?}");
    }
    assert!(Tablebase::from_bytes(bytes.to_vec()).is_ok());
}

/// The version is checked before the header checksum, so a newer file says "upgrade"
/// rather than "damaged", although changing the version byte breaks the checksum.
#[test]
fn newer_and_impossible_versions() {
    let dir = TempDir::new("version");
    for (byte8, byte9, found) in [(4u8, 0u8, 4u16), (0xff, 0xff, 0xffff), (1, 1, 0x101), (0, 1, 0x100)] {
        let mut bytes = small().to_vec();
        bytes[8] = byte8;
        bytes[9] = byte9;
        for e in [open_error(&bytes), open_file_error(&dir, &bytes)] {
            assert!(matches!(e, Error::NewerVersion { found: f, supported: 3 } if f == found), "{e:?}");
            assert!(e.to_string().contains("upgrade"), "{e}");
        }
        // The same with a correct checksum.
        common::reseal(&mut bytes);
        assert!(matches!(open_error(&bytes), Error::NewerVersion { found: f, .. } if f == found));
    }
    // Version 1 files (block checksums not bound to their place) must be rebuilt.
    let mut bytes = small().to_vec();
    bytes[8] = 1;
    for e in [open_error(&bytes), open_file_error(&dir, &bytes)] {
        assert!(matches!(e, Error::OlderVersion { found: 1, supported: 2 }), "{e:?}");
        assert!(e.to_string().contains("rebuild"), "{e}");
    }
    // Version 0 never existed.
    let mut bytes = small().to_vec();
    bytes[8] = 0;
    for e in [open_error(&bytes), open_file_error(&dir, &bytes)] {
        assert!(matches!(&e, Error::BadHeader(m) if m.contains("version 0")), "{e:?}");
    }
    common::reseal(&mut bytes);
    assert!(matches!(open_error(&bytes), Error::BadHeader(m) if m.contains("version 0")));
}

/// Which error damage at `at` gives, by the field it falls in.
fn expect_header_damage(at: usize, e: &Error) {
    let ok = match at {
        0..=7 => matches!(e, Error::BadMagic),
        // Another version: newer, older, or 2 (read, but the checksum then fails).
        8..=9 => {
            matches!(e, Error::NewerVersion { .. } | Error::OlderVersion { .. })
                || matches!(e, Error::BadHeader(m) if m.contains("version 0") || m.contains("header checksum"))
        }
        // A longer parameter text can end beyond the file: read as a truncation,
        // since the checksum cannot be computed without it.
        40..=43 => matches!(e, Error::BadHeader(_) | Error::Truncated(_)),
        // Outside the checksum, but must be 0.
        56..=63 => matches!(e, Error::BadHeader(m) if m.contains("reserved")),
        _ => matches!(e, Error::BadHeader(m) if m.contains("header checksum")),
    };
    assert!(ok, "byte {at}: {e:?}");
}

/// Every bit of the header (fixed part, checksum, parameter text) is guarded.
#[test]
fn every_damaged_header_bit_is_found() {
    let bytes = small();
    let text_end = Layout::of(bytes).data_offset() as usize;
    for at in 0..text_end {
        for bit in 0..8 {
            let mut damaged = bytes.to_vec();
            damaged[at] ^= 1 << bit;
            expect_header_damage(at, &open_error(&damaged));
        }
    }
    let dir = TempDir::new("header");
    for at in [10, 12, 16, 24, 32, 44, 48, 55, 64, text_end - 1] {
        let mut damaged = bytes.to_vec();
        damaged[at] ^= 0x10;
        expect_header_damage(at, &open_file_error(&dir, &damaged));
    }
}

#[test]
fn damage_to_the_reserved_header_bytes_is_found() {
    for at in 56..64 {
        let mut damaged = small().to_vec();
        damaged[at] ^= 0x01;
        assert!(Tablebase::from_bytes(damaged).is_err(), "byte {at}");
    }
}

/// Every bit of the block index, its checksum and the end magic is guarded.
#[test]
fn every_damaged_index_bit_is_found() {
    let bytes = small();
    let layout = Layout::of(bytes);
    let index_start = layout.block_index_offset as usize;
    let index_end = index_start + 24 * layout.block_count as usize;
    for at in index_start..bytes.len() {
        for bit in 0..8 {
            let mut damaged = bytes.to_vec();
            damaged[at] ^= 1 << bit;
            let e = open_error(&damaged);
            let expected = if at < index_end + 8 { "block index checksum" } else { "GSTBEND" };
            assert!(matches!(&e, Error::BadHeader(m) if m.contains(expected)), "byte {at}: {e:?}");
        }
    }
    let dir = TempDir::new("index");
    for at in [index_start, index_start + 9, index_end, bytes.len() - 1] {
        let mut damaged = bytes.to_vec();
        damaged[at] ^= 0x80;
        assert!(matches!(open_file_error(&dir, &damaged), Error::BadHeader(_)), "byte {at}");
    }
}

#[test]
fn trailing_bytes_are_refused() {
    let dir = TempDir::new("trailing");
    for extra in [&b"\0"[..], b"garbage", &[0u8; 4096]] {
        let mut bytes = small().to_vec();
        bytes.extend_from_slice(extra);
        for e in [open_error(&bytes), open_file_error(&dir, &bytes)] {
            assert!(matches!(&e, Error::BadHeader(m) if m.contains("promises")), "{e:?}");
        }
    }
    // A second copy of a whole tablebase after the first.
    let mut bytes = small().to_vec();
    bytes.extend_from_slice(small());
    assert!(matches!(open_error(&bytes), Error::BadHeader(_)));
}

/// Header fields that pass the checksum but say impossible things.
#[test]
fn impossible_header_fields_with_a_good_checksum() {
    let bytes = small();
    let layout = Layout::of(bytes);
    let edit = |at: usize, new: &[u8]| {
        let mut bytes = bytes.to_vec();
        bytes[at..at + new.len()].copy_from_slice(new);
        common::reseal(&mut bytes);
        open_error(&bytes)
    };
    let bad_header = |e: Error, words: &str| {
        assert!(matches!(&e, Error::BadHeader(m) if m.contains(words)), "expected {words:?}: {e:?}");
    };
    for width in [0u8, 3, 8, 255] {
        bad_header(edit(10, &[width]), "value width");
    }
    for compression in [0u8, 2, 255] {
        bad_header(edit(11, &[compression]), "compression");
    }
    bad_header(edit(12, &0u32.to_le_bytes()), "positions per block");
    bad_header(edit(12, &((1u32 << 24) + 1).to_le_bytes()), "positions per block");
    bad_header(edit(12, &(layout.block_positions * 2).to_le_bytes()), "blocks for");
    bad_header(edit(16, &(layout.index_size + 1000).to_le_bytes()), "blocks for");
    bad_header(edit(16, &u64::MAX.to_le_bytes()), "blocks for");
    bad_header(edit(24, &(layout.block_count + 1).to_le_bytes()), "blocks for");
    bad_header(edit(32, &10u64.to_le_bytes()), "inside the header");
    bad_header(edit(32, &u64::MAX.to_le_bytes()), "beyond");
    bad_header(edit(40, &u32::MAX.to_le_bytes()), "parameter text");
    // Size and count consistent, but more blocks than the file holds.
    let mut bytes = bytes.to_vec();
    bytes[16..24].copy_from_slice(&(layout.index_size + 64 * 1000).to_le_bytes());
    bytes[24..32].copy_from_slice(&(layout.block_count + 1000).to_le_bytes());
    common::reseal(&mut bytes);
    let e = open_error(&bytes);
    assert!(matches!(e, Error::Truncated(_)), "{e:?}");
    // Fewer blocks than the file holds: the file is longer than promised.
    let mut bytes = small().to_vec();
    bytes[16..24].copy_from_slice(&64u64.to_le_bytes());
    bytes[24..32].copy_from_slice(&1u64.to_le_bytes());
    common::reseal(&mut bytes);
    bad_header(open_error(&bytes), "promises");
}

/// A tablebase with no blocks and the given parameter text (checksums right).
fn file_with_text(text: &[u8]) -> Vec<u8> {
    let mut bytes = fixed_header(1, 64, 0, 0, 64 + text.len() as u64, text);
    bytes.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&[]).to_le_bytes());
    bytes.extend_from_slice(b"GSTBEND\0");
    common::reseal(&mut bytes);
    bytes
}

#[test]
fn parameter_text_is_checked() {
    // A well-formed empty tablebase opens.
    let tablebase = Tablebase::from_bytes(file_with_text(b"game=empty\nsize=0\n")).unwrap();
    assert_eq!(tablebase.game_name(), "empty");
    assert_eq!(tablebase.header().parameters, vec![("size".to_string(), "0".to_string())]);
    assert_eq!(tablebase.index_size(), 0);
    assert!(tablebase.load(None).unwrap().is_empty());
    assert!(tablebase.damaged_blocks(10, None).is_empty());
    assert!(matches!(tablebase.value(0), Err(Error::OutOfRange { index: 0, size: 0 })));

    let bad: [&[u8]; 11] = [
        b"",
        b"game=x",
        b"\n",
        b"game=x\n\n",
        b"game=x\nno equals sign\n",
        b"size=1\ngame=x\n",
        b"game=X\n",
        b"game=\n",
        b"game=x\nBad=1\n",
        b"game=x\n=1\n",
        b"game=x\nk=\xff\xfe\n",
    ];
    for text in bad {
        let e = open_error(&file_with_text(text));
        assert!(matches!(e, Error::BadHeader(_)), "{:?}: {e:?}", String::from_utf8_lossy(text));
    }
}

#[test]
fn parameter_text_with_crlf_is_refused_or_kept() {
    let text = b"game=x\r\nsize=1\r\n";
    match Tablebase::from_bytes(file_with_text(text)) {
        Err(e) => assert!(matches!(e, Error::BadHeader(_)), "{e:?}"),
        Ok(tablebase) => assert_eq!(tablebase.header().data_offset(), 64 + text.len() as u64),
    }
}

#[test]
fn blocks_that_lie_are_bad_blocks() {
    let bytes = small();
    let layout = Layout::of(bytes);
    let entry_at = |k: usize| layout.block_index_offset as usize + 24 * k;
    let check_bad = |bytes: &[u8], k: u64, words: &str| {
        let tablebase = Tablebase::from_bytes(bytes.to_vec()).unwrap();
        let damaged = tablebase.damaged_blocks(usize::MAX, None);
        assert_eq!(damaged.len(), 1, "{damaged:?}");
        assert!(
            matches!(&damaged[0], Error::BadBlock { block, problem, .. } if *block == k && problem.contains(words)),
            "expected block {k} {words:?}: {damaged:?}"
        );
        let first = tablebase.header().block_range(k).start;
        assert!(matches!(tablebase.value(first), Err(Error::BadBlock { block, .. }) if block == k));
        assert!(matches!(tablebase.load(None), Err(Error::BadBlock { .. })));
    };
    // An entry pointing into the header, past the data, or with a huge length.
    for (offset, length) in [(0u64, layout.blocks[1].1), (layout.block_index_offset, 1), (layout.blocks[1].0, u32::MAX)]
    {
        let mut bytes = bytes.to_vec();
        bytes[entry_at(1)..entry_at(1) + 8].copy_from_slice(&offset.to_le_bytes());
        bytes[entry_at(1) + 8..entry_at(1) + 12].copy_from_slice(&length.to_le_bytes());
        common::reseal(&mut bytes);
        check_bad(&bytes, 1, "outside the data area");
    }
    let mut bytes = bytes.to_vec();
    let at = entry_at(2);
    bytes[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    common::reseal(&mut bytes);
    check_bad(&bytes, 2, "outside the data area");

    // The last (short) block's frame in place of the first: right checksum, wrong length.
    let last = layout.block_count as usize - 1;
    let mut bytes = small().to_vec();
    let last_entry = bytes[entry_at(last)..entry_at(last) + 24].to_vec();
    bytes[entry_at(0)..entry_at(0) + 24].copy_from_slice(&last_entry);
    common::reseal(&mut bytes);
    check_bad(&bytes, 0, "decompresses to 44 bytes, expected 64");

    // Garbage with the right checksum: does not decompress.
    let mut bytes = small().to_vec();
    bytes[layout.block_bytes(3)].fill(0xA5);
    common::reseal(&mut bytes);
    check_bad(&bytes, 3, "does not decompress");

    // An empty block.
    let mut bytes = small().to_vec();
    bytes[entry_at(2) + 8..entry_at(2) + 12].copy_from_slice(&0u32.to_le_bytes());
    common::reseal(&mut bytes);
    check_bad(&bytes, 2, "decompress");
}

#[test]
fn a_file_of_an_unknown_game_is_the_wrong_game() {
    let dir = TempDir::new("unknown-game");
    let path = dir.join("unknown.gtb");
    let values: Vec<PackedValue> = layered::solve(&Pawns::new(3, 3)).packed().to_vec();
    let parameters = vec![("rows".to_string(), "3".to_string()), ("cols".to_string(), "3".to_string())];
    write::write(&path, "no-such-game", &parameters, &values, &WriteOptions::default(), None).unwrap();
    match GameTablebase::<Pawns>::open(&path) {
        Err(Error::WrongGame { expected, found }) => {
            assert_eq!((expected.as_str(), found.as_str()), ("pawns", "no-such-game"));
        }
        Err(e) => panic!("expected WrongGame, got {e:?}"),
        Ok(_) => panic!("opened as pawns"),
    }
    // The file itself is fine.
    let tablebase = Tablebase::open(&path).unwrap();
    assert_eq!(tablebase.game_name(), "no-such-game");
    assert_eq!(tablebase.value(0).unwrap(), values[0].unpack());
}

// Fuzzing.

/// Everything a reader may do with an opened file; none of it may panic.
fn exercise(tablebase: &Tablebase) {
    let size = tablebase.index_size();
    for i in 0..size.min(1000) {
        let _ = tablebase.packed(i);
        let _ = tablebase.value(i);
    }
    let _ = tablebase.value(size);
    let _ = tablebase.damaged_blocks(usize::MAX, None);
    if tablebase.raw_size() <= 1 << 20 {
        if let Ok(table) = tablebase.load(None) {
            assert_eq!(table.len(), size);
            for i in 0..size {
                let _ = table.value(i);
            }
        }
    }
}

/// Opens `bytes`; errors must be "bad file" errors; an opened file is exercised.
fn open_anything(bytes: Vec<u8>) -> Option<Tablebase> {
    match Tablebase::from_bytes(bytes) {
        Ok(tablebase) => {
            exercise(&tablebase);
            Some(tablebase)
        }
        Err(e) => {
            assert!(e.is_bad_file(), "{e:?}");
            None
        }
    }
}

/// The fixed header and parameter text (the checksum left for `common::reseal`).
fn fixed_header(
    width: u8,
    block_positions: u32,
    index_size: u64,
    block_count: u64,
    index_offset: u64,
    text: &[u8],
) -> Vec<u8> {
    let mut bytes = b"GSOLVETB".to_vec();
    bytes.extend_from_slice(&2u16.to_le_bytes());
    bytes.extend_from_slice(&[width, 1]);
    bytes.extend_from_slice(&block_positions.to_le_bytes());
    bytes.extend_from_slice(&index_size.to_le_bytes());
    bytes.extend_from_slice(&block_count.to_le_bytes());
    bytes.extend_from_slice(&index_offset.to_le_bytes());
    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&[0; 20]);
    bytes.extend_from_slice(text);
    bytes
}

/// A mutation of a file.
#[derive(Clone, Debug)]
enum Mutation {
    /// XOR these bytes (positions modulo the length) with non-zero masks.
    Flip(Vec<(usize, u8)>),
    /// Overwrite from a position (modulo the length) with these bytes.
    Overwrite(usize, Vec<u8>),
    Truncate(usize),
    Extend(Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => prop::collection::vec((any::<usize>(), 1u8..=255), 1..=8).prop_map(Mutation::Flip),
        2 => (any::<usize>(), prop::collection::vec(any::<u8>(), 1..64)).prop_map(|(at, b)| Mutation::Overwrite(at, b)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        1 => prop::collection::vec(any::<u8>(), 1..64).prop_map(Mutation::Extend),
    ]
}

fn apply(bytes: &[u8], mutation: &Mutation) -> Vec<u8> {
    let mut out = bytes.to_vec();
    match mutation {
        Mutation::Flip(flips) => flips.iter().for_each(|&(at, mask)| out[at % bytes.len()] ^= mask),
        Mutation::Overwrite(at, new) => {
            let at = at % bytes.len();
            let end = (at + new.len()).min(bytes.len());
            out[at..end].copy_from_slice(&new[..end - at]);
        }
        Mutation::Truncate(len) => out.truncate(len % bytes.len()),
        Mutation::Extend(extra) => out.extend_from_slice(extra),
    }
    out
}

fn overlaps(range: &Range<usize>, changed: &[usize]) -> bool {
    changed.iter().any(|at| range.contains(at))
}

/// A 3×3 pawns tablebase, to fuzz the typed layer too.
fn pawns_file() -> &'static Vec<u8> {
    static FILE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    FILE.get_or_init(|| {
        let dir = TempDir::new("pawns-fuzz");
        let path = dir.join("pawns.gtb");
        let game = Pawns::new(3, 3);
        let options = WriteOptions { block_bytes: 200, ..WriteOptions::default() };
        write::write_solution(&path, &game, &layered::solve(&game), &options, None).unwrap();
        fs::read(&path).unwrap()
    })
}

proptest! {
    #![proptest_config(common::config(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        open_anything(bytes);
    }

    #[test]
    fn random_bytes_after_the_magic_never_panic(rest in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut bytes = b"GSOLVETB".to_vec();
        bytes.extend_from_slice(&rest);
        open_anything(bytes);
    }

    /// A plausible header (version 2, zstd, some width, some sizes) with a correct
    /// checksum, then random bytes: reaches the checks behind the header checksum.
    #[test]
    fn random_sealed_headers_never_panic(
        width in prop_oneof![Just(1u8), Just(2), Just(4), any::<u8>()],
        block_positions in prop_oneof![1u32..100, any::<u32>()],
        index_size in prop_oneof![0u64..1000, any::<u64>()],
        text in "game=[a-z]{1,5}\n([a-z]{1,3}=[ -~]{0,5}\n){0,3}",
        body in prop::collection::vec(any::<u8>(), 0..300),
        consistent in any::<bool>(),
    ) {
        let block_count = index_size.div_ceil(block_positions.max(1) as u64);
        // The block index where the file's length puts it, or right after the text.
        let index_offset = if consistent {
            (64 + text.len() as u64 + body.len() as u64).wrapping_sub(block_count.wrapping_mul(24).wrapping_add(16))
        } else {
            64 + text.len() as u64
        };
        let mut bytes = fixed_header(width, block_positions, index_size, block_count, index_offset, text.as_bytes());
        bytes.extend_from_slice(&body);
        common::reseal(&mut bytes);
        open_anything(bytes);
    }

    /// Whole files, every checksum right, whose blocks are real zstd frames of random
    /// codes (valid or not), frames of the wrong length, or garbage, and whose index
    /// entries point at them or anywhere: the file opens and every read returns a
    /// value or an error.
    #[test]
    fn sealed_files_of_random_blocks_never_panic(
        width in prop_oneof![Just(1u8), Just(2), Just(4)],
        block_positions in 1u32..40,
        blocks in prop::collection::vec((0u8..4, prop::collection::vec(any::<u8>(), 0..200), any::<u64>(), any::<u32>()), 0..8),
        short_last in any::<u32>(),
    ) {
        let block_count = blocks.len() as u64;
        let index_size = match block_count {
            0 => 0,
            k => (k - 1) * block_positions as u64 + 1 + (short_last % block_positions) as u64,
        };
        let text = "game=fuzz\n";
        let data_start = 64 + text.len() as u64;
        let mut data = Vec::new();
        let mut entries = Vec::new();
        for (k, (kind, raw, offset, length)) in blocks.iter().enumerate() {
            let k = k as u64;
            let positions = (index_size.min((k + 1) * block_positions as u64) - k * block_positions as u64) as usize;
            let mut codes = raw.repeat(1 + positions * width as usize / raw.len().max(1));
            codes.resize(positions * width as usize, 0);
            let stored = match kind {
                0 => zstd::bulk::compress(&codes, 1).unwrap(),
                1 => zstd::bulk::compress(&codes[..codes.len() / 2], 1).unwrap(),
                2 => { codes.push(1); zstd::bulk::compress(&codes, 1).unwrap() }
                _ => raw.clone(),
            };
            let (entry_offset, entry_length) = if *kind < 3 || offset % 4 != 0 {
                (data_start + data.len() as u64, stored.len() as u32)
            } else {
                (*offset, *length)
            };
            entries.push((entry_offset, entry_length));
            data.extend_from_slice(&stored);
        }
        let index_offset = data_start + data.len() as u64;
        let mut bytes = fixed_header(width, block_positions, index_size, block_count, index_offset, text.as_bytes());
        bytes.extend_from_slice(&data);
        for (offset, length) in entries {
            bytes.extend_from_slice(&offset.to_le_bytes());
            bytes.extend_from_slice(&length.to_le_bytes());
            bytes.extend_from_slice(&[0; 12]);
        }
        bytes.extend_from_slice(&[0; 8]);
        bytes.extend_from_slice(b"GSTBEND\0");
        common::reseal(&mut bytes);
        let opened = open_anything(bytes);
        prop_assert!(opened.is_some(), "a well-formed file did not open");
        let tablebase = opened.unwrap();
        for (k, (kind, ..)) in blocks.iter().enumerate() {
            let first = k as u64 * block_positions as u64;
            match kind {
                0 => {
                    // A right frame: every code reads back, valid or BadValue.
                    for i in tablebase.header().block_range(k as u64) {
                        match tablebase.value(i) {
                            Ok(_) => {}
                            Err(Error::BadValue { index, code }) => {
                                prop_assert_eq!(index, i);
                                prop_assert_eq!(PackedValue(code), tablebase.packed(i).unwrap());
                            }
                            Err(e) => return Err(TestCaseError::fail(format!("block {k}: {e:?}"))),
                        }
                    }
                }
                1 | 2 => {
                    let e = tablebase.value(first).err();
                    prop_assert!(matches!(e, Some(Error::BadBlock { block, .. }) if block == k as u64), "{:?}", e);
                }
                _ => {}
            }
        }
    }

    /// Mutations of a valid file. Exactly what must happen: a change of length is
    /// `Truncated` (shorter) or `BadHeader` (longer); a change outside the blocks'
    /// bytes fails to open; a change
    /// only inside blocks' bytes opens, and exactly the changed blocks are damaged,
    /// the others reading back their values.
    #[test]
    fn mutated_files_fail_where_they_are_damaged(mutation in mutation()) {
        let (original, values) = common::small_file();
        let bytes = apply(original, &mutation);
        let layout = Layout::of(original);
        let result = Tablebase::from_bytes(bytes.clone());
        if bytes.len() != original.len() {
            let e = result.err().expect("a file of another length opened");
            if bytes.len() < original.len() {
                prop_assert!(matches!(e, Error::Truncated(_)), "{:?}", e);
            } else {
                prop_assert!(matches!(e, Error::BadHeader(_)), "{:?}", e);
            }
            return Ok(());
        }
        let changed: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] != original[i]).collect();
        let data = layout.data_offset() as usize..layout.block_index_offset as usize;
        let guarded = changed.iter().any(|at| !data.contains(at));
        if guarded {
            let e = result.err().expect("a damaged header or index opened");
            prop_assert!(e.is_bad_file());
            return Ok(());
        }
        let tablebase = match result {
            Ok(tablebase) => tablebase,
            Err(e) => return Err(TestCaseError::fail(format!("damage only inside blocks, yet: {e:?}"))),
        };
        let damaged = tablebase.damaged_blocks(usize::MAX, None);
        let mut expected_damaged = Vec::new();
        for k in 0..layout.block_count {
            let range = tablebase.header().block_range(k);
            if overlaps(&layout.block_bytes(k as usize), &changed) {
                expected_damaged.push(k);
                let e = tablebase.value(range.start).err();
                prop_assert!(matches!(e, Some(Error::BadBlock { block, .. }) if block == k), "{:?}", e);
            } else {
                for i in range {
                    prop_assert_eq!(tablebase.packed(i).unwrap(), values[i as usize]);
                }
            }
        }
        let damaged_blocks: Vec<u64> = damaged
            .iter()
            .map(|e| match e {
                Error::BadBlock { block, .. } => *block,
                e => panic!("{e:?}"),
            })
            .collect();
        prop_assert_eq!(damaged_blocks, expected_damaged);
    }

    /// Mutations with every checksum recomputed afterwards, so that the damage reaches
    /// the decoder, the decompressor, the value codes and the game's parameters:
    /// nothing may panic.
    #[test]
    fn mutated_and_resealed_files_never_panic(mutation in mutation()) {
        let mut bytes = apply(pawns_file(), &mutation);
        common::reseal(&mut bytes);
        if let Some(tablebase) = open_anything(bytes) {
            if let Ok(typed) = GameTablebase::<Pawns>::new(tablebase) {
                let start = typed.game().start();
                let _ = typed.value(&start);
                let _ = typed.move_values(&start);
            }
        }
    }
}

/// The mutations above do reach past the checksums: a resealed flip inside a block
/// opens, and the typed layer sees a changed parameter.
#[test]
fn resealed_mutations_reach_the_blocks_and_the_parameters() {
    let original = pawns_file();
    let layout = Layout::of(original);
    // Damage one block's bytes, reseal: the file opens; that block fails to
    // decompress or decodes to some values, others are intact.
    let mut bytes = original.clone();
    let block = layout.block_bytes(1);
    bytes[block.start + block.len() / 2] ^= 0xff;
    common::reseal(&mut bytes);
    let tablebase = Tablebase::from_bytes(bytes).unwrap();
    let clean = Tablebase::from_bytes(original.clone()).unwrap();
    for i in tablebase.header().block_range(0) {
        assert_eq!(tablebase.value(i).unwrap(), clean.value(i).unwrap());
    }
    // A parameter changed to another valid size: the index size no longer matches.
    let text = String::from_utf8(original[64..layout.data_offset() as usize].to_vec()).unwrap();
    assert_eq!(text, "game=pawns\nrows=3\ncols=3\n");
    let mut bytes = original.clone();
    let at = 64 + text.find("cols=3").unwrap() + 5;
    bytes[at] = b'4';
    common::reseal(&mut bytes);
    let tablebase = Tablebase::from_bytes(bytes.clone()).unwrap();
    assert!(matches!(GameTablebase::<Pawns>::new(tablebase), Err(Error::BadParameters { .. })));
    bytes[at] = b'9';
    common::reseal(&mut bytes);
    let tablebase = Tablebase::from_bytes(bytes).unwrap();
    assert!(matches!(GameTablebase::<Pawns>::new(tablebase), Err(Error::BadParameters { .. })));
}

/// Rewrites the block index's checksum (and nothing else) after the entries changed.
fn reseal_index_only(bytes: &mut [u8]) {
    let layout = Layout::of(bytes);
    let start = layout.block_index_offset as usize;
    let end = start + 24 * layout.block_count as usize;
    let checksum = xxhash_rust::xxh3::xxh3_64(&bytes[start..end]);
    bytes[end..end + 8].copy_from_slice(&checksum.to_le_bytes());
}

/// Two block index entries swapped, the index checksum recomputed: each block's own
/// checksum still matches its bytes, but no longer its number, so reading either
/// block fails (probe, info and verify alike) instead of giving the other's values.
#[test]
fn swapped_blocks_are_found_by_every_reader() {
    let mut bytes = pawns_file().clone();
    let layout = Layout::of(&bytes);
    assert!(layout.block_count >= 3);
    let entry = |k: usize| layout.block_index_offset as usize + 24 * k;
    let (a, b) = (entry(0), entry(2));
    let saved: Vec<u8> = bytes[a..a + 24].to_vec();
    bytes.copy_within(b..b + 24, a);
    bytes[b..b + 24].copy_from_slice(&saved);
    reseal_index_only(&mut bytes);
    let tablebase = Tablebase::from_bytes(bytes).expect("the index itself is consistent");
    let mut buffer = Vec::new();
    for block in [0, 2] {
        let e = tablebase.read_block(block, &mut buffer).unwrap_err();
        assert!(
            matches!(&e, Error::BadBlock { block: b, problem, .. } if *b == block && problem.contains("checksum")),
            "{e:?}"
        );
    }
    assert!(tablebase.read_block(1, &mut buffer).is_ok());
    // A probe in a swapped block, a load (verify) and a summary (info) all fail.
    assert!(tablebase.value(0).is_err());
    assert!(tablebase.load(None).is_err());
    let typed = gsolve_tablebase::GameTablebase::<Pawns>::new(tablebase).unwrap();
    let summary = gsolve_tablebase::summary::summarize(
        typed.game(),
        typed.tablebase(),
        2,
        |p| usize::from(!p.white_to_move),
        None,
    );
    assert!(summary.is_err());
}

/// The checksums catch damage and mix-ups, not forgery: two blocks swapped with
/// every checksum recomputed (anyone can: they are keyless XXH3) make a file that
/// opens, probes and summarizes without an error, with the wrong values; only
/// `verify` (the values against the rules) proves a file. The whole file's digest
/// (`gsolve info`) differs from the published one.
#[test]
fn swapped_blocks_with_checksums_recomputed_pass_every_reader_but_verify() {
    let original = pawns_file().clone();
    let mut bytes = original.clone();
    let layout = Layout::of(&bytes);
    let entry = |k: usize| layout.block_index_offset as usize + 24 * k;
    // Two whole blocks (the last may be shorter).
    assert!(layout.block_count >= 3);
    let (a, b) = (entry(0), entry(1));
    let saved: Vec<u8> = bytes[a..a + 24].to_vec();
    bytes.copy_within(b..b + 24, a);
    bytes[b..b + 24].copy_from_slice(&saved);
    common::reseal(&mut bytes);
    let forged = Tablebase::from_bytes(bytes).expect("every checksum matches");
    let clean = Tablebase::from_bytes(original).unwrap();
    assert_ne!(forged.file_digest(), clean.file_digest());
    let mut buffer = Vec::new();
    for block in 0..layout.block_count {
        forged.read_block(block, &mut buffer).expect("every block reads");
    }
    let range = forged.header().block_range(0);
    assert!(range.clone().any(|i| forged.value(i).unwrap() != clean.value(i).unwrap()), "the values moved");
    let typed = GameTablebase::<Pawns>::new(forged).unwrap();
    let summary = gsolve_tablebase::summary::summarize(
        typed.game(),
        typed.tablebase(),
        2,
        |p| usize::from(!p.white_to_move),
        None,
    );
    assert!(summary.is_ok(), "info reads it");
    let table = typed.tablebase().load(None).unwrap();
    let report = gsolve_tablebase::verify(typed.game(), &table, 10, None);
    assert!(!report.is_ok(), "verify finds the forgery");
}

/// A forged file whose positions each have their own remoteness (chase 12: 41,472
/// positions, wins in 0 to 41,471 plies and losses up to 2^30 − 1): the summary
/// `gsolve info` prints counts every position, remoteness below
/// `EXACT_REMOTENESS` one by one and above it by ranges, so it holds at most
/// `EXACT_REMOTENESS` + 16 counters a histogram, however many values the file has.
#[test]
fn a_summary_of_a_forged_file_stays_bounded() {
    use gsolve_engine::{Indexed, Variant};
    use gsolve_games::chase::Chase;
    use gsolve_tablebase::summary::{remoteness_range, summarize, EXACT_REMOTENESS};
    let game = Chase::new(12);
    let size = game.index_size();
    let values: Vec<PackedValue> = (0..size as u32)
        .map(|i| {
            PackedValue::pack(if i % 2 == 0 { Value::Win(i) } else { Value::Loss(PackedValue::MAX_REMOTENESS - i) })
        })
        .collect();
    let dir = TempDir::new("forged-summary");
    let path = dir.join("chase.gtb");
    let identity =
        write::Identity { game: Chase::NAME, parameters: &game.parameters(), index_version: Chase::INDEX_VERSION };
    write::write_values(&path, &identity, values.as_slice(), &WriteOptions::default(), None).unwrap();
    let file = Tablebase::open(&path).unwrap();
    assert_eq!(file.file_digest(), xxhash_rust::xxh3::xxh3_128(&fs::read(&path).unwrap()));
    let typed = GameTablebase::<Chase>::new(file).unwrap();
    let summary = summarize(typed.game(), typed.tablebase(), 1, |_| 0, None).unwrap();
    let counts = &summary.sides[0];
    for histogram in [&counts.wins, &counts.losses, &counts.ties] {
        assert!(histogram.len() <= EXACT_REMOTENESS as usize + 16, "{} counters", histogram.len());
        assert!(histogram.keys().all(|&k| k < EXACT_REMOTENESS || k.is_power_of_two()));
    }
    assert_eq!(counts.total_wins() + counts.total_losses() + summary.holes, size);
    assert_eq!(counts.wins.range(..EXACT_REMOTENESS).count(), EXACT_REMOTENESS as usize / 2);
    // Wins of 16,384 to 32,767 plies, and 32,768 to 41,471: two ranges.
    let ranges: Vec<_> = counts.wins.range(EXACT_REMOTENESS..).map(|(&k, _)| remoteness_range(k)).collect();
    assert_eq!(ranges, [16_384..=32_767, 32_768..=65_535]);
    assert_eq!(counts.wins[&(1 << 15)], (41_472 - 32_768) / 2);
    assert_eq!(counts.losses.keys().copied().collect::<Vec<_>>(), [1 << 29]);
    assert_eq!(remoteness_range(1 << 29), (1 << 29)..=PackedValue::MAX_REMOTENESS);
    assert_eq!(summary.longest_win, Some((41_470, 41_470)));
}

/// A block taken from another file, with the checksum it has there: two files of
/// the same values but of different games have the same compressed blocks, and
/// each block's checksum is seeded with its own file's identity, so the donor's
/// checksum fails in ours.
#[test]
fn a_block_from_another_file_is_found() {
    let values: Vec<PackedValue> = (0..1000).map(|i| PackedValue::pack(Value::Win(i % 7))).collect();
    let ours = common::tablebase_bytes(&values, 64);
    let dir = TempDir::new("transplant");
    let path = dir.join("other.gtb");
    let options = WriteOptions { block_bytes: 64, ..WriteOptions::default() };
    write::write(&path, "other-game", &[], &values, &options, None).unwrap();
    let donor = fs::read(&path).unwrap();
    let (ours_layout, donor_layout) = (Layout::of(&ours), Layout::of(&donor));
    let block = 3;
    assert_eq!(&ours[ours_layout.block_bytes(block)], &donor[donor_layout.block_bytes(block)]);
    let mut forged = ours.clone();
    let at = ours_layout.block_index_offset as usize + 24 * block + 16;
    let donor_at = donor_layout.block_index_offset as usize + 24 * block + 16;
    assert_ne!(forged[at..at + 8], donor[donor_at..donor_at + 8], "the checksums differ by file");
    forged[at..at + 8].copy_from_slice(&donor[donor_at..donor_at + 8]);
    reseal_index_only(&mut forged);
    let tablebase = Tablebase::from_bytes(forged).unwrap();
    let e = tablebase.read_block(block as u64, &mut Vec::new()).unwrap_err();
    assert!(matches!(&e, Error::BadBlock { problem, .. } if problem.contains("checksum")), "{e:?}");
}

/// The reserved field of a block index entry must be 0.
#[test]
fn a_block_entry_with_reserved_bytes_set_is_refused() {
    let mut bytes = small().to_vec();
    let layout = Layout::of(&bytes);
    let at = layout.block_index_offset as usize + 24 + 12;
    bytes[at] = 1;
    reseal_index_only(&mut bytes);
    let e = open_error(&bytes);
    assert!(matches!(&e, Error::BadHeader(m) if m.contains("entry 1") && m.contains("reserved")), "{e:?}");
}
