//! The file layout, byte by byte (docs/tablebase-format.md is the full description).
//!
//! All integers are little-endian. Checksums are XXH3-64.
//!
//! ```text
//! offset        size    field
//! 0             8       magic "GSOLVETB"
//! 8             2       format version (3; 2 is still read)
//! 10            1       value width W: 1, 2 or 4 bytes per position
//! 11            1       compression: 1 = zstd
//! 12            4       positions per block B (every block but the last holds B)
//! 16            8       index size N (positions, holes included)
//! 24            8       block count = ceil(N / B)
//! 32            8       block index offset X
//! 40            4       parameter text length P
//! 44            4       the game's index version (version 3; in version 2 reserved, 0,
//!                       read as index version 1)
//! 48            8       header checksum: XXH3 (seed 0) of bytes 0..48, then of the parameter text
//! 56            8       reserved, 0
//! 64            P       parameter text: UTF-8 lines "key=value\n", the first "game=NAME"
//! 64+P          ...     blocks: zstd frames back to back, in index order
//! X             24·K    block index, per block: offset u64, compressed length u32,
//!                       reserved u32 (0), block checksum u64
//! X+24·K        8       XXH3 (seed 0) of the block index
//! X+24·K+8      8       end magic "GSTBEND\0"; the file ends here
//! ```
//!
//! A block's checksum binds it to its place and its file: XXH3-64 seeded with the
//! file's *identity* (XXH3 of header bytes 8..32, in version 3 then bytes 44..48, then
//! the parameter text: the format, the sizes, the game's index version, the game and
//! its variant), over the block's number (u64) and then its compressed bytes. A block
//! moved to another place, or into another file, fails it.
//!
//! A block decompresses to `W` bytes per position of its range; each is the
//! position's [`PackedValue`] (`remoteness << 2 | tag`) truncated to `W` bytes, the
//! narrowest width that holds every value of the file.

use crate::error::{Error, Result};
use gsolve_engine::PackedValue;
use xxhash_rust::xxh3::{xxh3_64, Xxh3};

/// The first 8 bytes of every tablebase.
pub const MAGIC: [u8; 8] = *b"GSOLVETB";
/// The last 8 bytes of every tablebase.
pub const END_MAGIC: [u8; 8] = *b"GSTBEND\0";
/// The format version this build writes: 3 records the game's index version.
pub const VERSION: u16 = 3;
/// The oldest version this build reads: version 1 files (whose block checksums did
/// not bind the block's place) must be rebuilt.
pub const OLDEST_READ: u16 = 2;
/// Bytes of the fixed part of the header.
pub const FIXED_HEADER: usize = 64;
/// Bytes of one block index entry.
pub const INDEX_ENTRY: usize = 24;
/// Bytes after the block index: its checksum and the end magic.
pub const TRAILER: usize = 16;
/// Compression code for zstd, the only one so far.
pub const ZSTD: u8 = 1;
/// The longest parameter text accepted (a Queen's Case map of 20,000 open cells
/// fits many times over).
pub const MAX_PARAMETER_TEXT: u32 = 1 << 24;
/// The largest block accepted, in positions: a probe decompresses one block.
pub const MAX_BLOCK_POSITIONS: u32 = 1 << 24;

/// Everything the header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub version: u16,
    /// Bytes per stored value: 1, 2 or 4.
    pub value_width: u8,
    /// Positions per block.
    pub block_positions: u32,
    /// Number of indices, holes included.
    pub index_size: u64,
    /// Number of blocks.
    pub block_count: u64,
    /// Where the block index starts.
    pub block_index_offset: u64,
    /// The version of the game's index the values are stored by
    /// ([`gsolve_engine::Variant::INDEX_VERSION`]); 1 for version 2 files.
    pub index_version: u32,
    /// The game's name (the `game` parameter).
    pub game: String,
    /// The other parameters, in file order.
    pub parameters: Vec<(String, String)>,
}

impl Header {
    /// Where the blocks start.
    pub fn data_offset(&self) -> u64 {
        FIXED_HEADER as u64 + self.parameter_text().len() as u64
    }

    /// The parameter text as stored.
    pub fn parameter_text(&self) -> String {
        let mut text = format!("game={}\n", self.game);
        for (key, value) in &self.parameters {
            text.push_str(&format!("{key}={value}\n"));
        }
        text
    }

    /// The index range of a block.
    pub fn block_range(&self, block: u64) -> std::ops::Range<u64> {
        let first = block.saturating_mul(self.block_positions as u64);
        first..first.saturating_add(self.block_positions as u64).min(self.index_size)
    }

    /// The file's identity: XXH3 of the encoded header's bytes 8..32 (version, value
    /// width, compression, block size, index size, block count), then of the
    /// parameter text. It seeds every block's checksum.
    pub fn identity(&self) -> u64 {
        let encoded = self.encode();
        let mut hasher = Xxh3::new();
        hasher.update(&encoded[8..32]);
        if self.version >= 3 {
            hasher.update(&encoded[44..48]);
        }
        hasher.update(self.parameter_text().as_bytes());
        hasher.digest()
    }

    /// The fixed header bytes followed by the parameter text.
    pub fn encode(&self) -> Vec<u8> {
        let text = self.parameter_text();
        let mut bytes = Vec::with_capacity(FIXED_HEADER + text.len());
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&self.version.to_le_bytes());
        bytes.push(self.value_width);
        bytes.push(ZSTD);
        bytes.extend_from_slice(&self.block_positions.to_le_bytes());
        bytes.extend_from_slice(&self.index_size.to_le_bytes());
        bytes.extend_from_slice(&self.block_count.to_le_bytes());
        bytes.extend_from_slice(&self.block_index_offset.to_le_bytes());
        bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
        let index_field = if self.version >= 3 { self.index_version } else { 0 };
        bytes.extend_from_slice(&index_field.to_le_bytes());
        let checksum = header_checksum(&bytes[..48], text.as_bytes());
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes.extend_from_slice(&0u64.to_le_bytes());
        bytes.extend_from_slice(text.as_bytes());
        bytes
    }

    /// Reads and checks the header at the start of `file` (the whole file, so that
    /// offsets can be checked against its length).
    pub fn decode(file: &[u8]) -> Result<Header> {
        if file.len() < MAGIC.len() || file[..MAGIC.len()] != MAGIC {
            return Err(if file.len() < MAGIC.len() && MAGIC.starts_with(file) {
                Error::Truncated(format!("the file has {} bytes, a tablebase header {FIXED_HEADER}", file.len()))
            } else {
                Error::BadMagic
            });
        }
        if file.len() < FIXED_HEADER {
            return Err(Error::Truncated(format!(
                "the file has {} bytes, a tablebase header {FIXED_HEADER}",
                file.len()
            )));
        }
        let version = u16_at(file, 8);
        if version > VERSION {
            return Err(Error::NewerVersion { found: version, supported: VERSION });
        }
        if version == 0 {
            return Err(Error::BadHeader("format version 0 does not exist".into()));
        }
        if version < OLDEST_READ {
            return Err(Error::OlderVersion { found: version, supported: OLDEST_READ });
        }
        let text_len = u32_at(file, 40);
        if text_len > MAX_PARAMETER_TEXT {
            return Err(Error::BadHeader(format!("parameter text of {text_len} bytes (at most {MAX_PARAMETER_TEXT})")));
        }
        let text_end = FIXED_HEADER + text_len as usize;
        if file.len() < text_end {
            return Err(Error::Truncated(format!(
                "the header's parameter text ends at byte {text_end}, the file at {}",
                file.len()
            )));
        }
        let text = &file[FIXED_HEADER..text_end];
        if header_checksum(&file[..48], text) != u64_at(file, 48) {
            return Err(Error::BadHeader("header checksum mismatch (the header is damaged)".into()));
        }
        let index_version = match (version, u32_at(file, 44)) {
            (2, 0) => 1,
            (2, _) => return Err(Error::BadHeader("reserved header bytes 44..48 are not 0".into())),
            (_, 0) => return Err(Error::BadHeader("index version 0 does not exist".into())),
            (_, v) => v,
        };
        if u64_at(file, 56) != 0 {
            return Err(Error::BadHeader("reserved header bytes 56..64 are not 0".into()));
        }
        let value_width = file[10];
        if ![1, 2, 4].contains(&value_width) {
            return Err(Error::BadHeader(format!("value width {value_width} (expected 1, 2 or 4)")));
        }
        if file[11] != ZSTD {
            return Err(Error::BadHeader(format!("compression code {} (expected 1, zstd)", file[11])));
        }
        let block_positions = u32_at(file, 12);
        if !(1..=MAX_BLOCK_POSITIONS).contains(&block_positions) {
            return Err(Error::BadHeader(format!(
                "{block_positions} positions per block (expected 1 to {MAX_BLOCK_POSITIONS})"
            )));
        }
        let index_size = u64_at(file, 16);
        let block_count = u64_at(file, 24);
        if block_count != index_size.div_ceil(block_positions as u64) {
            return Err(Error::BadHeader(format!(
                "{block_count} blocks for {index_size} positions of {block_positions} per block"
            )));
        }
        let block_index_offset = u64_at(file, 32);
        let expected_len = block_count
            .checked_mul(INDEX_ENTRY as u64)
            .and_then(|n| n.checked_add(block_index_offset))
            .and_then(|n| n.checked_add(TRAILER as u64))
            .ok_or_else(|| Error::BadHeader("block index beyond any file size".into()))?;
        if block_index_offset < text_end as u64 {
            return Err(Error::BadHeader(format!("block index at byte {block_index_offset}, inside the header")));
        }
        if expected_len != file.len() as u64 {
            let problem = format!("the header promises {expected_len} bytes, the file has {}", file.len());
            return Err(if expected_len > file.len() as u64 {
                Error::Truncated(problem)
            } else {
                Error::BadHeader(problem)
            });
        }
        let (game, parameters) = parse_parameters(text)?;
        Ok(Header {
            version,
            value_width,
            block_positions,
            index_size,
            block_count,
            block_index_offset,
            index_version,
            game,
            parameters,
        })
    }
}

/// One block's entry in the block index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockEntry {
    /// Where its compressed bytes start.
    pub offset: u64,
    /// How many compressed bytes.
    pub length: u32,
    /// XXH3-64 of the compressed bytes.
    pub checksum: u64,
}

impl BlockEntry {
    /// The 24 stored bytes.
    pub fn encode(&self) -> [u8; INDEX_ENTRY] {
        let mut bytes = [0; INDEX_ENTRY];
        bytes[..8].copy_from_slice(&self.offset.to_le_bytes());
        bytes[8..12].copy_from_slice(&self.length.to_le_bytes());
        bytes[16..].copy_from_slice(&self.checksum.to_le_bytes());
        bytes
    }

    /// Reads an entry from its 24 bytes; `None` if its reserved field is not 0.
    pub fn decode(bytes: &[u8]) -> Option<BlockEntry> {
        (u32_at(bytes, 12) == 0).then(|| BlockEntry {
            offset: u64_at(bytes, 0),
            length: u32_at(bytes, 8),
            checksum: u64_at(bytes, 16),
        })
    }
}

/// Checksum of the block index entries.
pub fn index_checksum(entries: &[u8]) -> u64 {
    xxh3_64(entries)
}

/// Checksum of block number `block` of the file with this identity
/// ([`Header::identity`]), over its compressed bytes.
pub fn block_checksum(identity: u64, block: u64, compressed: &[u8]) -> u64 {
    let mut hasher = Xxh3::with_seed(identity);
    hasher.update(&block.to_le_bytes());
    hasher.update(compressed);
    hasher.digest()
}

fn header_checksum(fixed: &[u8], text: &[u8]) -> u64 {
    let mut hasher = Xxh3::new();
    hasher.update(fixed);
    hasher.update(text);
    hasher.digest()
}

/// The narrowest width (1, 2 or 4 bytes) that holds `max_code`.
pub fn width_for(max_code: u32) -> u8 {
    match max_code {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        _ => 4,
    }
}

/// The stored value at position `i` of a decompressed block.
#[inline]
pub fn read_code(block: &[u8], width: u8, i: usize) -> PackedValue {
    PackedValue(match width {
        1 => block[i] as u32,
        2 => u16::from_le_bytes([block[2 * i], block[2 * i + 1]]) as u32,
        _ => u32::from_le_bytes([block[4 * i], block[4 * i + 1], block[4 * i + 2], block[4 * i + 3]]),
    })
}

/// Appends values as `width`-byte codes.
pub fn write_codes(values: &[PackedValue], width: u8, out: &mut Vec<u8>) {
    match width {
        1 => out.extend(values.iter().map(|v| v.0 as u8)),
        2 => values.iter().for_each(|v| out.extend_from_slice(&(v.0 as u16).to_le_bytes())),
        _ => values.iter().for_each(|v| out.extend_from_slice(&v.0.to_le_bytes())),
    }
}

/// Checks a name or key: lowercase ASCII letters, digits, `-` and `_`, not empty.
pub fn valid_key(key: &str) -> bool {
    !key.is_empty() && key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

pub(crate) fn parse_parameters(text: &[u8]) -> Result<(String, Vec<(String, String)>)> {
    let text = std::str::from_utf8(text).map_err(|e| Error::BadHeader(format!("parameter text is not UTF-8: {e}")))?;
    let mut game = None;
    let mut parameters = Vec::new();
    if !text.ends_with('\n') {
        return Err(Error::BadHeader("parameter text does not end with a line break".into()));
    }
    // Lines end with \n alone: `lines()` would also take \r\n, and the text must
    // re-encode to exactly the stored bytes (the blocks start right after it).
    if text.contains('\r') {
        return Err(Error::BadHeader("parameter text contains a carriage return".into()));
    }
    for (n, line) in text.lines().enumerate() {
        let (key, value) = line
            .split_once('=')
            .filter(|(key, _)| valid_key(key))
            .ok_or_else(|| Error::BadHeader(format!("parameter line {}: {line:?} is not key=value", n + 1)))?;
        if n == 0 {
            if key != "game" || !valid_key(value) {
                return Err(Error::BadHeader(format!("parameter line 1: {line:?}, expected game=NAME")));
            }
            game = Some(value.to_string());
        } else {
            parameters.push((key.to_string(), value.to_string()));
        }
    }
    let game = game.ok_or_else(|| Error::BadHeader("no game named in the parameter text".into()))?;
    Ok((game, parameters))
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}
