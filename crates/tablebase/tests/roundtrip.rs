//! What is written reads back: every value, the header, the layout; how the writer
//! treats existing files, temporary files and unwritable names; the typed API on a
//! real solved game.

mod common;

use common::{Layout, TempDir};
use gsolve_engine::{layered, Game, Indexed, PackedValue, Value, Variant};
use gsolve_games::chase::Chase;
use gsolve_games::notation::PlainNotation;
use gsolve_games::pawns::Pawns;
use gsolve_tablebase::write::{self, WriteOptions};
use gsolve_tablebase::{Error, GameTablebase, Tablebase};
use proptest::prelude::*;
use std::fs;

/// The narrowest width holding `max_code`, computed here independently.
fn expected_width(values: &[PackedValue]) -> u8 {
    match values.iter().map(|v| v.0).max().unwrap_or(0) {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        _ => 4,
    }
}

/// Values of one width class: 1 (remoteness up to 63, the largest code 63·4+3 =
/// 255), 2 (up to 16383) or 4 (up to the largest remoteness). For classes 2 and 4
/// one value (at `forced`) is a win at the class's largest remoteness, so the file
/// must use exactly that width.
fn values_strategy() -> impl Strategy<Value = (u8, Vec<PackedValue>)> {
    let class = prop_oneof![Just(1u8), Just(2u8), Just(4u8)];
    let kinds = prop::collection::vec((0u8..6, any::<u32>()), 0..5000);
    (class, kinds, any::<usize>()).prop_map(|(class, kinds, forced)| {
        let max_remoteness = match class {
            1 => 63,
            2 => 16383,
            _ => PackedValue::MAX_REMOTENESS,
        };
        let mut values: Vec<PackedValue> = kinds
            .into_iter()
            .map(|(kind, raw)| {
                let r = raw % (max_remoteness + 1);
                match kind {
                    0 => PackedValue::pack(Value::Win(r)),
                    1 => PackedValue::pack(Value::Loss(r)),
                    2 => PackedValue::pack(Value::Tie(r)),
                    3 => PackedValue::DRAW,
                    // Low remoteness and holes, common in real tables.
                    4 => PackedValue::pack(Value::Loss(r % 4)),
                    _ => PackedValue::NONE,
                }
            })
            .collect();
        if class > 1 && !values.is_empty() {
            let at = forced % values.len();
            values[at] = PackedValue::pack(Value::Win(max_remoteness));
        }
        (class, values)
    })
}

/// Checks that `tablebase` holds exactly `values`, with the header `write` gives.
fn check_tablebase(tablebase: &Tablebase, values: &[PackedValue], width: u8, block_bytes: u32) {
    let header = tablebase.header();
    assert_eq!(tablebase.game_name(), "test-values");
    assert_eq!(header.game, "test-values");
    assert_eq!(header.parameters, common::test_parameters());
    assert_eq!(header.version, 3);
    assert_eq!(tablebase.index_size(), values.len() as u64);
    assert_eq!(header.value_width, width);
    let block_positions = (block_bytes / width as u32).max(1);
    assert_eq!(header.block_positions, block_positions);
    assert_eq!(tablebase.block_count(), (values.len() as u64).div_ceil(block_positions as u64));
    assert_eq!(tablebase.raw_size(), values.len() as u64 * width as u64);
    for (i, &stored) in values.iter().enumerate() {
        let i = i as u64;
        assert_eq!(tablebase.packed(i).unwrap(), stored, "packed({i})");
        assert_eq!(tablebase.value(i).unwrap(), stored.unpack(), "value({i})");
    }
    let size = values.len() as u64;
    assert!(matches!(tablebase.packed(size), Err(Error::OutOfRange { index, size: s }) if index == size && s == size));
    assert!(matches!(tablebase.value(u64::MAX), Err(Error::OutOfRange { .. })));
    let table = tablebase.load(None).unwrap();
    assert_eq!(table.len(), size);
    assert_eq!(table.is_empty(), values.is_empty());
    for (i, &stored) in values.iter().enumerate() {
        assert_eq!(table.packed(i as u64), stored, "load: packed({i})");
        assert_eq!(table.value(i as u64).unwrap(), stored.unpack(), "load: value({i})");
    }
    assert!(tablebase.damaged_blocks(usize::MAX, None).is_empty());
}

proptest! {
    #![proptest_config(common::config(100))]

    #[test]
    fn every_value_reads_back((class, values) in values_strategy(), block_bytes in 1u32..=64, level in 1i32..=9) {
        let width = expected_width(&values);
        prop_assert_eq!(width, if values.is_empty() { 1 } else { class });
        let dir = TempDir::new("roundtrip");
        let path = dir.join("values.gtb");
        let options = WriteOptions { block_bytes, level, force: false };
        let written =
            write::write(&path, "test-values", &common::test_parameters(), &values, &options, None).unwrap();
        prop_assert_eq!(dir.entries(), vec!["values.gtb".to_string()]);
        let bytes = fs::read(&path).unwrap();
        prop_assert_eq!(written.file_bytes, bytes.len() as u64);
        prop_assert_eq!(written.raw_bytes, values.len() as u64 * width as u64);

        let opened = Tablebase::open(&path).unwrap();
        prop_assert_eq!(opened.file_size(), bytes.len() as u64);
        prop_assert_eq!(opened.header(), &written.header);
        check_tablebase(&opened, &values, width, block_bytes);

        let in_memory = Tablebase::from_bytes(bytes.clone()).unwrap();
        prop_assert_eq!(in_memory.header(), &written.header);
        check_tablebase(&in_memory, &values, width, block_bytes);

        // The layout at the documented offsets: blocks back to back from the end of
        // the parameter text, in index order, then the index.
        let layout = Layout::of(&bytes);
        prop_assert_eq!(layout.compression, 1);
        prop_assert_eq!(layout.data_offset(), written.header.data_offset());
        let mut next = layout.data_offset();
        for (k, &(offset, length)) in layout.blocks.iter().enumerate() {
            prop_assert_eq!(offset, next);
            prop_assert_eq!(opened.block_entry(k as u64).unwrap().offset, offset);
            prop_assert_eq!(opened.block_entry(k as u64).unwrap().length, length);
            next += length as u64;
        }
        prop_assert_eq!(next, layout.block_index_offset);
        prop_assert_eq!(bytes.len() as u64, layout.block_index_offset + 24 * layout.block_count + 16);
    }
}

/// The header checksum, block checksums and index checksum are the documented
/// XXH3-64s, and the file ends with "GSTBEND\0".
#[test]
fn checksums_are_as_documented() {
    use xxhash_rust::xxh3::xxh3_64;
    let (bytes, _) = common::small_file();
    let layout = Layout::of(bytes);
    let text_end = layout.data_offset() as usize;
    let mut hashed = bytes[..48].to_vec();
    hashed.extend_from_slice(&bytes[64..text_end]);
    assert_eq!(common::u64_at(bytes, 48), xxh3_64(&hashed));
    assert_eq!(&bytes[..8], b"GSOLVETB");
    assert_eq!(&bytes[56..64], &[0; 8]);
    assert_eq!(&bytes[44..48], &1u32.to_le_bytes(), "the index version");
    assert_eq!(&bytes[64..text_end], "game=test-values\nkind=made up, for tests = ✓\nempty=\n".as_bytes());
    let tablebase = Tablebase::from_bytes(bytes.clone()).unwrap();
    let identity = common::identity(bytes);
    for k in 0..layout.block_count as usize {
        let entry = tablebase.block_entry(k as u64).unwrap();
        assert_eq!(entry.checksum, common::block_checksum(identity, k as u64, &bytes[layout.block_bytes(k)]));
        let at = layout.block_index_offset as usize + 24 * k;
        assert_eq!(&bytes[at + 12..at + 16], &[0; 4], "reserved bytes of entry {k}");
    }
    let index_end = layout.block_index_offset as usize + 24 * layout.block_count as usize;
    assert_eq!(common::u64_at(bytes, index_end), xxh3_64(&bytes[layout.block_index_offset as usize..index_end]));
    assert_eq!(&bytes[index_end + 8..], b"GSTBEND\0");
}

#[test]
fn an_existing_file_is_refused_without_force_and_replaced_with_it() {
    let dir = TempDir::new("exists");
    let path = dir.join("table.gtb");
    fs::write(&path, b"precious").unwrap();
    let values = [PackedValue::pack(Value::Win(3)), PackedValue::NONE, PackedValue::DRAW];
    let options = WriteOptions { force: false, ..WriteOptions::default() };
    let result = write::write(&path, "test-values", &[], &values, &options, None);
    assert!(matches!(&result, Err(Error::Exists(p)) if *p == path), "{result:?}");
    assert!(!result.unwrap_err().is_bad_file());
    assert_eq!(fs::read(&path).unwrap(), b"precious");
    assert_eq!(dir.entries(), vec!["table.gtb"]);

    let options = WriteOptions { force: true, ..WriteOptions::default() };
    let written = write::write(&path, "test-values", &[], &values, &options, None).unwrap();
    assert_eq!(dir.entries(), vec!["table.gtb"]);
    let tablebase = Tablebase::open(&path).unwrap();
    assert_eq!(tablebase.header(), &written.header);
    assert_eq!(tablebase.value(0).unwrap(), Some(Value::Win(3)));
    assert_eq!(tablebase.value(1).unwrap(), None);
    assert_eq!(tablebase.value(2).unwrap(), Some(Value::Draw));
    assert!(tablebase.header().parameters.is_empty());

    // And again over the tablebase itself.
    let values = [PackedValue::pack(Value::Loss(300))];
    write::write(&path, "test-values", &[], &values, &options, None).unwrap();
    let tablebase = Tablebase::open(&path).unwrap();
    assert_eq!(tablebase.header().value_width, 2);
    assert_eq!(tablebase.value(0).unwrap(), Some(Value::Loss(300)));
    assert_eq!(dir.entries(), vec!["table.gtb"]);
}

/// Outputs that are not regular files are never replaced, with or without force: a
/// FIFO, a device node's stand-in (a symbolic link to /dev/null), a socket.
#[cfg(unix)]
#[test]
fn only_regular_files_are_replaced() {
    let dir = TempDir::new("not-a-file");
    let values = [PackedValue::pack(Value::Win(1)); 10];
    let fifo = dir.join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let null = dir.join("null");
    std::os::unix::fs::symlink("/dev/null", &null).unwrap();
    let socket = dir.join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    for path in [&fifo, &null, &socket] {
        for force in [false, true] {
            let options = WriteOptions { force, ..WriteOptions::default() };
            let result = write::write(path, "test-values", &[], &values, &options, None);
            assert!(matches!(&result, Err(Error::NotAFile(p)) if p == path), "{path:?}: {result:?}");
        }
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(fs::symlink_metadata(&null).unwrap().file_type().is_symlink());
    assert!(fs::metadata(&socket).unwrap().file_type().is_socket());
    assert!(!dir.has_temporary());
}

#[test]
fn a_failed_write_leaves_no_temporary_file() {
    let dir = TempDir::new("failed-write");
    let values = [PackedValue::pack(Value::Win(1)); 100];
    let force = WriteOptions { force: true, ..WriteOptions::default() };

    // The target is a directory (with something in it): refused before anything is
    // written, even with force.
    let target = dir.join("a-directory");
    fs::create_dir(&target).unwrap();
    fs::write(target.join("inside"), b"x").unwrap();
    let result = write::write(&target, "test-values", &[], &values, &force, None);
    assert!(matches!(result, Err(Error::NotAFile(_))), "{result:?}");
    assert_eq!(dir.entries(), vec!["a-directory"]);
    assert!(!dir.has_temporary());
    assert_eq!(fs::read(target.join("inside")).unwrap(), b"x");

    // The target's directory does not exist: nothing can be created.
    let nowhere = dir.join("missing").join("table.gtb");
    let result = write::write(&nowhere, "test-values", &[], &values, &force, None);
    assert!(matches!(result, Err(Error::Io(_))), "{result:?}");
    assert_eq!(dir.entries(), vec!["a-directory"]);

    // After a success, only the file.
    let path = dir.join("ok.gtb");
    write::write(&path, "test-values", &[], &values, &WriteOptions::default(), None).unwrap();
    assert_eq!(dir.entries(), vec!["a-directory", "ok.gtb"]);
}

#[test]
fn unwritable_names_and_values_are_refused_before_anything_is_written() {
    let dir = TempDir::new("unwritable");
    let path = dir.join("table.gtb");
    let values = [PackedValue::DRAW];
    let options = WriteOptions::default();
    let parameter = |key: &str, value: &str| vec![(key.to_string(), value.to_string())];
    let bad_games = ["", "Pawns", "two words", "a=b", "line\nbreak", "cr\r", "é", "x/y"];
    for game in bad_games {
        let result = write::write(&path, game, &[], &values, &options, None);
        assert!(matches!(result, Err(Error::Unwritable(_))), "game {game:?}: {result:?}");
    }
    let bad_parameters = [
        parameter("", "1"),
        parameter("Rows", "1"),
        parameter("game", "pawns"),
        parameter("a=b", "1"),
        parameter("a b", "1"),
        parameter("line\n", "1"),
        parameter("rows", "3\n"),
        parameter("rows", "3\r"),
        parameter("rows", "3\r\n4"),
        parameter("rows", "\n"),
        vec![("rows".to_string(), "3".to_string()), ("cols".to_string(), "x\ny".to_string())],
    ];
    for parameters in bad_parameters {
        let result = write::write(&path, "test-values", &parameters, &values, &options, None);
        assert!(matches!(&result, Err(Error::Unwritable(_))), "{parameters:?}: {result:?}");
        assert!(!result.unwrap_err().is_bad_file());
    }
    assert!(dir.entries().is_empty(), "{:?}", dir.entries());

    // Names of lowercase letters, digits, '-' and '_', and any value without a line
    // break, are stored as given.
    let good = vec![
        ("a-b_c9".to_string(), "x = y = z, ✓ \t tab".to_string()),
        ("empty".to_string(), String::new()),
        ("a-b_c9".to_string(), "repeated".to_string()),
    ];
    let written = write::write(&path, "g-1_x", &good, &values, &options, None).unwrap();
    let tablebase = Tablebase::open(&path).unwrap();
    assert_eq!(tablebase.game_name(), "g-1_x");
    assert_eq!(tablebase.header().parameters, good);
    assert_eq!(tablebase.header(), &written.header);
}

/// Values that are not valid codes (a solver's "not solved yet", a tag-0 code above
/// the hole) are stored as given by the writer; readers report them as `BadValue`.
#[test]
fn invalid_codes_read_back_as_bad_values() {
    let dir = TempDir::new("invalid-codes");
    let path = dir.join("table.gtb");
    let values = [PackedValue::DRAW, PackedValue(2 << 2), PackedValue(1000 << 2), PackedValue::NONE];
    common::write_values(&path, &values, 16);
    let tablebase = Tablebase::open(&path).unwrap();
    assert_eq!(tablebase.value(0).unwrap(), Some(Value::Draw));
    assert!(matches!(tablebase.value(1), Err(Error::BadValue { index: 1, code: 8 })));
    assert!(matches!(tablebase.value(2), Err(Error::BadValue { index: 2, code: 4000 })));
    assert_eq!(tablebase.value(3).unwrap(), None);
    assert_eq!(tablebase.packed(2).unwrap(), PackedValue(4000));
    let table = tablebase.load(None).unwrap();
    assert!(matches!(table.value(1), Err(Error::BadValue { index: 1, code: 8 })));
    assert!(Error::BadValue { index: 1, code: 8 }.is_bad_file());
}

#[test]
fn observers_see_the_last_block() {
    let dir = TempDir::new("observer");
    let path = dir.join("table.gtb");
    let values: Vec<PackedValue> = (0..1000).map(|i| PackedValue::pack(Value::Win(i % 50))).collect();
    let reports = std::sync::Mutex::new(Vec::new());
    let observe = |p: gsolve_engine::Progress| reports.lock().unwrap().push((p.step, p.done, p.total));
    let options = WriteOptions { block_bytes: 10, ..WriteOptions::default() };
    let written = write::write(&path, "test-values", &[], &values, &options, Some(&observe)).unwrap();
    assert_eq!(written.header.block_count, 100);
    assert!(reports.lock().unwrap().contains(&("compress", 100, 100)));
    let tablebase = Tablebase::open(&path).unwrap();
    tablebase.load(Some(&observe)).unwrap();
    assert!(reports.lock().unwrap().contains(&("decompress", 100, 100)));
    assert!(tablebase.damaged_blocks(10, Some(&observe)).is_empty());
    assert!(reports.lock().unwrap().contains(&("checksums", 100, 100)));
}

fn pawns_3x3(dir: &TempDir) -> (Pawns, gsolve_engine::Solution, std::path::PathBuf) {
    let game = Pawns::new(3, 3);
    let solution = layered::solve(&game);
    let path = dir.join("pawns-3x3.gtb");
    let options = WriteOptions { block_bytes: 512, ..WriteOptions::default() };
    let written = write::write_solution(&path, &game, &solution, &options, None).unwrap();
    assert_eq!(written.header.game, "pawns");
    assert_eq!(written.header.parameters, game.parameters());
    assert!(written.header.block_count > 1, "several blocks: {}", written.header.block_count);
    (game, solution, path)
}

#[test]
fn typed_tablebase_answers_like_the_solution() {
    let dir = TempDir::new("typed");
    let (game, solution, path) = pawns_3x3(&dir);
    let tablebase = GameTablebase::<Pawns>::open(&path).unwrap();
    assert_eq!(tablebase.game().rows(), 3);
    assert_eq!(tablebase.game().cols(), 3);
    assert_eq!(tablebase.game().index_size(), game.index_size());
    assert_eq!(tablebase.tablebase().index_size(), solution.len());

    let mut positions = 0;
    for i in 0..game.index_size() {
        let stored = tablebase.tablebase().value(i).unwrap();
        assert_eq!(stored, solution.value(i), "index {i}");
        let Some(position) = game.position(i) else {
            assert_eq!(solution.packed()[i as usize], PackedValue::NONE);
            continue;
        };
        positions += 1;
        assert_eq!(tablebase.value(&position).unwrap(), solution.value(i), "index {i}");
        assert_eq!(gsolve_engine::ValueLookup::lookup(&tablebase, &game, &position), solution.value(i));
        // Every position's moves: best first, each the child's value seen by the
        // mover, the best equal to the position's own value.
        let moves = tablebase.move_values(&position).unwrap();
        if game.terminal(&position).is_some() {
            assert!(moves.is_empty());
            continue;
        }
        assert_eq!(moves.len(), game.move_count(&position), "index {i}");
        assert!(moves.windows(2).all(|pair| pair[0].value >= pair[1].value), "index {i}");
        for m in &moves {
            assert_eq!(Some(m.value), solution.value_of(&game, &m.child).map(Value::parent_view));
        }
        match moves.first() {
            Some(best) => assert_eq!(Some(best.value), solution.value(i), "index {i}"),
            None => assert_eq!(solution.value(i), Some(Value::Loss(0)), "index {i}"),
        }
    }
    assert!(positions > 100, "{positions} positions");

    // The start: hexapawn, lost by the side to move in 6 plies.
    let start = game.start();
    assert_eq!(game.format_position(&start), "ppp/.../PPP w");
    assert_eq!(tablebase.value(&start).unwrap(), Some(Value::Loss(6)));
    let moves = tablebase.move_values(&start).unwrap();
    assert_eq!(moves.len(), 3);
    assert_eq!(moves[0].value, Value::Loss(6));
    assert!(moves.windows(2).all(|pair| pair[0].value >= pair[1].value));
}

#[test]
fn typed_tablebase_of_another_game_is_refused() {
    let dir = TempDir::new("wrong-game");
    let (_, _, path) = pawns_3x3(&dir);
    let result = GameTablebase::<Chase>::open(&path);
    match result {
        Err(Error::WrongGame { expected, found }) => {
            assert_eq!(expected, "chase");
            assert_eq!(found, "pawns");
        }
        Err(e) => panic!("expected WrongGame, got {e}"),
        Ok(_) => panic!("expected WrongGame, got a tablebase"),
    }
    // The same through `new` on an open tablebase.
    let tablebase = Tablebase::open(&path).unwrap();
    assert!(matches!(GameTablebase::<Chase>::new(tablebase), Err(Error::WrongGame { .. })));
}

#[test]
fn typed_tablebase_with_parameters_of_another_variant_is_refused() {
    let dir = TempDir::new("bad-parameters");
    let solution = layered::solve(&Pawns::new(3, 3));
    let parameter_sets: [&[(&str, &str)]; 5] = [
        &[("rows", "3"), ("cols", "4")],  // a valid game with another index size
        &[("rows", "99"), ("cols", "3")], // out of range
        &[("rows", "3")],                 // missing
        &[("rows", "3"), ("cols", "3"), ("colour", "red")], // unknown
        &[("rows", "three"), ("cols", "3")],
    ];
    for (n, parameters) in parameter_sets.iter().enumerate() {
        let parameters: Vec<(String, String)> =
            parameters.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let path = dir.join(&format!("{n}.gtb"));
        let identity = write::Identity { game: "pawns", parameters: &parameters, index_version: 2 };
        write::write_values(&path, &identity, &*solution.packed(), &WriteOptions::default(), None).unwrap();
        let result = GameTablebase::<Pawns>::open(&path);
        assert!(
            matches!(&result, Err(Error::BadParameters { game, .. }) if game == "pawns"),
            "{parameters:?}: {:?}",
            result.err()
        );
    }
}

/// Version 2 files (before the game's index version was stored) still read: their
/// index version is 1, and every value comes back.
#[test]
fn version_2_files_still_read() {
    let (bytes, values) = common::small_file();
    let mut old = bytes.clone();
    old[8..10].copy_from_slice(&2u16.to_le_bytes());
    old[44..48].copy_from_slice(&[0; 4]);
    common::reseal(&mut old);
    let tablebase = Tablebase::from_bytes(old).unwrap();
    assert_eq!((tablebase.header().version, tablebase.header().index_version), (2, 1));
    for (i, v) in values.iter().enumerate() {
        assert_eq!(tablebase.packed(i as u64).unwrap(), *v);
    }
}
