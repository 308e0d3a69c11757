//! Opening book files: the values of chosen positions by a 64-bit key the game
//! defines (a line game's key: docs/rules-solving.md, "Opening books"), for positions no
//! dense index reaches. Small (a Connect 4 book of a few plies is kilobytes to
//! megabytes), so it is read whole, in one pass, and kept in memory.
//!
//! ```text
//! offset        size    field
//! 0             8       magic "GSOLVEBK"
//! 8             2       format version (1)
//! 10            1       value width W: 1, 2 or 4 bytes an entry
//! 11            1       reserved, 0
//! 12            4       plies from the start the book covers
//! 16            4       the game's key scheme version
//! 20            4       parameter text length P (at most 2^24)
//! 24            8       entries N (at most 2^30)
//! 32            P       parameter text, as a tablebase's: lines "key=value\n", the first "game=NAME"
//! 32+P          8·N     keys, u64, strictly increasing
//! 32+P+8N       W·N     values: each entry's PackedValue code cut to W bytes (as a tablebase's)
//! 32+P+(8+W)N   8       XXH3-64 (seed 0) of every byte before it
//! +8            8       end magic "GSBKEND\0"; the file ends here
//! ```

use crate::error::{Error, Result};
use crate::format::{self, MAX_PARAMETER_TEXT};
use gsolve_engine::{PackedValue, Value};
use std::io::Write;
use std::path::Path;
use xxhash_rust::xxh3::xxh3_64;

/// The first 8 bytes of every book.
pub const BOOK_MAGIC: [u8; 8] = *b"GSOLVEBK";
/// The last 8 bytes of every book.
pub const BOOK_END_MAGIC: [u8; 8] = *b"GSBKEND\0";
/// The book format version this build reads and writes.
pub const BOOK_VERSION: u16 = 1;
/// The most entries a book may hold (12 GiB of keys and 4-byte values).
pub const MAX_BOOK_ENTRIES: u64 = 1 << 30;
const FIXED: usize = 32;
const TRAILER: usize = 16;

/// A book's contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookFile {
    /// The game's name (`rules` for a rules game).
    pub game: String,
    /// The game's parameters (for a rules game: the rules' text and the board).
    pub parameters: Vec<(String, String)>,
    /// How many plies from the start the book covers.
    pub plies: u32,
    /// The version of the game's key scheme.
    pub key_version: u32,
    /// The entries, by strictly increasing key.
    pub entries: Vec<(u64, Value)>,
}

/// Writes `book` to `path`: under a temporary name in the same directory, synced,
/// then renamed into place. An existing file is replaced only with `force`.
/// Returns the file's size.
pub fn write_book(path: &Path, book: &BookFile, force: bool) -> Result<u64> {
    crate::write::check_output(path, force)?;
    let bytes = encode(book)?;
    let temporary = crate::write::temporary_path(path);
    let written = (|| -> Result<()> {
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&temporary)?;
        file.write_all(&bytes)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)?;
        Ok(())
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(e);
    }
    Ok(bytes.len() as u64)
}

/// The bytes of a book file.
pub fn encode(book: &BookFile) -> Result<Vec<u8>> {
    if !format::valid_key(&book.game) {
        return Err(Error::Unwritable(format!("game name {:?}", book.game)));
    }
    let mut text = format!("game={}\n", book.game);
    for (key, value) in &book.parameters {
        if !format::valid_key(key) || key == "game" || value.contains(['\n', '\r']) {
            return Err(Error::Unwritable(format!(
                "parameter {key:?}: a name of lowercase letters, digits, - and _, a value on one line"
            )));
        }
        text.push_str(&format!("{key}={value}\n"));
    }
    if text.len() > MAX_PARAMETER_TEXT as usize {
        return Err(Error::Unwritable(format!(
            "the parameters take {} bytes, more than {MAX_PARAMETER_TEXT}",
            text.len()
        )));
    }
    let count = book.entries.len() as u64;
    if count > MAX_BOOK_ENTRIES {
        return Err(Error::Unwritable(format!("{count} entries, more than a book holds ({MAX_BOOK_ENTRIES})")));
    }
    if let Some(i) = book.entries.windows(2).position(|w| w[0].0 >= w[1].0) {
        return Err(Error::Unwritable(format!("entry {} is out of order: keys must increase strictly", i + 1)));
    }
    let codes: Vec<PackedValue> = book.entries.iter().map(|&(_, v)| PackedValue::pack(v)).collect();
    let width = format::width_for(codes.iter().map(|c| c.0).max().unwrap_or(0));
    let mut out = Vec::with_capacity(FIXED + text.len() + book.entries.len() * (8 + width as usize) + TRAILER);
    out.extend_from_slice(&BOOK_MAGIC);
    out.extend_from_slice(&BOOK_VERSION.to_le_bytes());
    out.push(width);
    out.push(0);
    out.extend_from_slice(&book.plies.to_le_bytes());
    out.extend_from_slice(&book.key_version.to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(text.as_bytes());
    for &(key, _) in &book.entries {
        out.extend_from_slice(&key.to_le_bytes());
    }
    format::write_codes(&codes, width, &mut out);
    let checksum = xxh3_64(&out);
    out.extend_from_slice(&checksum.to_le_bytes());
    out.extend_from_slice(&BOOK_END_MAGIC);
    Ok(out)
}

/// Reads a book file whole: its size is checked against the header before the
/// file is read, and every part (checksum, order of the keys, each value) before
/// it is returned.
pub fn read_book(path: &Path) -> Result<BookFile> {
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        return Err(Error::NotRegular(path.to_path_buf()));
    }
    let mut file = std::fs::File::open(path)?;
    let mut fixed = [0u8; FIXED];
    std::io::Read::read_exact(&mut file, &mut fixed)
        .map_err(|_| Error::Truncated(format!("{} bytes, shorter than a book's header", metadata.len())))?;
    let expected = expected_length(&fixed)?;
    if metadata.len() != expected {
        return Err(if metadata.len() < expected {
            Error::Truncated(format!("{} bytes, the header promises {expected}", metadata.len()))
        } else {
            Error::BadBook(format!("{} bytes, the header promises {expected}", metadata.len()))
        });
    }
    let mut bytes = fixed.to_vec();
    bytes.reserve_exact(expected as usize - FIXED);
    std::io::Read::read_to_end(&mut file, &mut bytes)?;
    decode(&bytes)
}

/// The length the fixed header promises, after checking its fields.
fn expected_length(fixed: &[u8]) -> Result<u64> {
    if fixed[..8] != BOOK_MAGIC {
        return Err(Error::BadBook("not a gsolve opening book: the file does not start with \"GSOLVEBK\"".into()));
    }
    let version = u16::from_le_bytes([fixed[8], fixed[9]]);
    if version > BOOK_VERSION {
        return Err(Error::NewerVersion { found: version, supported: BOOK_VERSION });
    }
    if version < BOOK_VERSION {
        return Err(Error::BadBook(format!("book format version {version} is not one gsolve wrote")));
    }
    let width = fixed[10];
    if ![1, 2, 4].contains(&width) || fixed[11] != 0 {
        return Err(Error::BadBook(format!("value width {width} (1, 2 or 4) or reserved byte {} (0)", fixed[11])));
    }
    let text = u32::from_le_bytes(fixed[20..24].try_into().expect("4 bytes"));
    let count = u64::from_le_bytes(fixed[24..32].try_into().expect("8 bytes"));
    if text > MAX_PARAMETER_TEXT || count > MAX_BOOK_ENTRIES {
        return Err(Error::BadBook(format!("{text} bytes of parameters or {count} entries: more than a book holds")));
    }
    Ok(FIXED as u64 + text as u64 + count * (8 + width as u64) + TRAILER as u64)
}

/// A book from its bytes, every part checked.
pub fn decode(bytes: &[u8]) -> Result<BookFile> {
    if bytes.len() < FIXED {
        return Err(Error::Truncated(format!("{} bytes, shorter than a book's header", bytes.len())));
    }
    let expected = expected_length(&bytes[..FIXED])?;
    if bytes.len() as u64 != expected {
        return Err(Error::Truncated(format!("{} bytes, the header promises {expected}", bytes.len())));
    }
    let body = bytes.len() - TRAILER;
    if bytes[body + 8..] != BOOK_END_MAGIC {
        return Err(Error::BadBook("the file does not end with \"GSBKEND\\0\"".into()));
    }
    let stored = u64::from_le_bytes(bytes[body..body + 8].try_into().expect("8 bytes"));
    if stored != xxh3_64(&bytes[..body]) {
        return Err(Error::BadBook("the checksum does not match: the file is damaged".into()));
    }
    let width = bytes[10];
    let plies = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
    let key_version = u32::from_le_bytes(bytes[16..20].try_into().expect("4 bytes"));
    let text_len = u32::from_le_bytes(bytes[20..24].try_into().expect("4 bytes")) as usize;
    let count = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes")) as usize;
    let (game, parameters) = format::parse_parameters(&bytes[FIXED..FIXED + text_len])?;
    let keys = &bytes[FIXED + text_len..FIXED + text_len + 8 * count];
    let codes = &bytes[FIXED + text_len + 8 * count..body];
    let mut entries = Vec::with_capacity(count);
    let mut previous = None;
    for i in 0..count {
        let key = u64::from_le_bytes(keys[8 * i..8 * i + 8].try_into().expect("8 bytes"));
        if previous.is_some_and(|p| p >= key) {
            return Err(Error::BadBook(format!("entry {i}: the keys do not increase")));
        }
        previous = Some(key);
        let code = format::read_code(codes, width, i);
        let value = code.unpack().ok_or(Error::BadValue { index: i as u64, code: code.0 })?;
        entries.push((key, value));
    }
    Ok(BookFile { game, parameters, plies, key_version, entries })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> BookFile {
        BookFile {
            game: "rules".into(),
            parameters: vec![("rows".into(), "6".into()), ("cols".into(), "7".into())],
            plies: 2,
            key_version: 1,
            entries: vec![(3, Value::Win(41)), (9, Value::Loss(2)), (1 << 40, Value::Tie(30)), (u64::MAX, Value::Draw)],
        }
    }

    #[test]
    fn a_book_reads_back_as_written() {
        let book = sample();
        assert_eq!(decode(&encode(&book).unwrap()).unwrap(), book);
        let empty = BookFile { entries: Vec::new(), ..sample() };
        assert_eq!(decode(&encode(&empty).unwrap()).unwrap(), empty);
        let wide = BookFile { entries: vec![(1, Value::Win(70_000))], ..sample() };
        let bytes = encode(&wide).unwrap();
        assert_eq!(bytes[10], 4);
        assert_eq!(decode(&bytes).unwrap(), wide);
    }

    #[test]
    fn every_flipped_bit_and_every_cut_is_refused() {
        let bytes = encode(&sample()).unwrap();
        for at in 0..bytes.len() {
            for bit in [0, 3, 7] {
                let mut bad = bytes.clone();
                bad[at] ^= 1 << bit;
                assert!(decode(&bad).is_err(), "a flipped bit {bit} of byte {at} went through");
            }
        }
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len]).is_err(), "cut at {len} went through");
        }
    }

    #[test]
    fn unsorted_entries_are_not_written() {
        let book = BookFile { entries: vec![(5, Value::Win(1)), (5, Value::Win(1))], ..sample() };
        assert!(matches!(encode(&book), Err(Error::Unwritable(_))));
    }
}
