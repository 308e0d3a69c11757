//! Writing a tablebase: values are cut into fixed-size blocks, each compressed on its
//! own (in parallel) and checksummed, then the block index; the file is written under
//! a temporary name and renamed into place only when complete.

use crate::error::{Error, Result};
use crate::format::{self, BlockEntry, Header, FIXED_HEADER};
use gsolve_engine::{Observer, PackedValue, Progress, Solution};
use rayon::prelude::*;
use std::fs;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// How to write.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// Replace an existing file.
    pub force: bool,
    /// zstd level (1 fastest .. 22 smallest).
    pub level: i32,
    /// Uncompressed bytes per block: a probe decompresses this much. Rounded to whole
    /// values.
    pub block_bytes: u32,
}

impl Default for WriteOptions {
    /// Level 7 and 16 KiB blocks: a probe decompresses one block, and a 16 KiB
    /// block is small enough for that to be quick. Level 7 makes files nearly as
    /// small as level 9's in much less time (the write is a noticeable part of a
    /// large build), and clearly smaller than level 3's.
    fn default() -> Self {
        WriteOptions { force: false, level: 7, block_bytes: 16 * 1024 }
    }
}

/// What was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The header as written.
    pub header: Header,
    /// Size of the file.
    pub file_bytes: u64,
    /// Size of the values before compression.
    pub raw_bytes: u64,
    /// Indices that name no position, when the writer saw every value
    /// ([`write_values`]); `None` when it was given compressed blocks.
    pub holes: Option<u64>,
}

/// The values to store, by index: the whole table in memory, or read piece by piece
/// (a tiered build's finished tiers on disk). Implementations must be cheap to call
/// from several threads at once.
pub trait Values: Sync {
    /// Number of indices.
    fn len(&self) -> u64;
    /// True when there are no indices.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The largest code of any index (what decides the file's value width).
    fn max_code(&self) -> u32;
    /// Appends the codes of `range` to `out`, `width` bytes each (little-endian,
    /// cut to the width, which holds every code). Fails only when the values are
    /// read from storage that fails.
    fn fill(&self, range: std::ops::Range<u64>, width: u8, out: &mut Vec<u8>) -> std::io::Result<()>;
}

impl Values for [PackedValue] {
    fn len(&self) -> u64 {
        <[PackedValue]>::len(self) as u64
    }
    fn max_code(&self) -> u32 {
        self.par_iter().map(|v| v.0).max().unwrap_or(0)
    }
    fn fill(&self, range: std::ops::Range<u64>, width: u8, out: &mut Vec<u8>) -> std::io::Result<()> {
        format::write_codes(&self[range.start as usize..range.end as usize], width, out);
        Ok(())
    }
}

/// A solve's values as they are kept (2 or 4 bytes an index): never widened to a
/// second copy in memory.
impl Values for Solution {
    fn len(&self) -> u64 {
        Solution::len(self)
    }
    fn max_code(&self) -> u32 {
        match self.narrow_codes() {
            Some(codes) => codes.par_iter().map(|&c| c as u32).max().unwrap_or(0),
            None => self.packed().par_iter().map(|v| v.0).max().unwrap_or(0),
        }
    }
    fn fill(&self, range: std::ops::Range<u64>, width: u8, out: &mut Vec<u8>) -> std::io::Result<()> {
        match self.narrow_codes() {
            Some(codes) => {
                let codes = &codes[range.start as usize..range.end as usize];
                match width {
                    1 => out.extend(codes.iter().map(|&c| c as u8)),
                    2 => codes.iter().for_each(|c| out.extend_from_slice(&c.to_le_bytes())),
                    _ => codes.iter().for_each(|&c| out.extend_from_slice(&(c as u32).to_le_bytes())),
                }
            }
            None => format::write_codes(&self.packed()[range.start as usize..range.end as usize], width, out),
        }
        Ok(())
    }
}

/// What a file says it holds: the game, its parameters, and the version of the
/// game's index ([`gsolve_engine::Variant::INDEX_VERSION`]).
#[derive(Clone, Copy, Debug)]
pub struct Identity<'a> {
    /// The game's name.
    pub game: &'a str,
    /// Its variant parameters.
    pub parameters: &'a [(String, String)],
    /// The version of its index.
    pub index_version: u32,
}

/// An [`Identity`] that owns its parameters: what a build that solves one form
/// of a game (say, with smaller positions) writes as the game it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredIdentity {
    /// The game's name.
    pub game: &'static str,
    /// Its variant parameters.
    pub parameters: Vec<(String, String)>,
    /// The version of its index.
    pub index_version: u32,
}

impl StoredIdentity {
    /// The identity files of `game` carry.
    pub fn of<V: gsolve_engine::Variant>(game: &V) -> StoredIdentity {
        StoredIdentity { game: V::NAME, parameters: game.parameters(), index_version: V::INDEX_VERSION }
    }

    /// As an [`Identity`].
    pub fn identity(&self) -> Identity<'_> {
        Identity { game: self.game, parameters: &self.parameters, index_version: self.index_version }
    }
}

/// Writes `values` (index `i` holds position `i`'s value, [`PackedValue::NONE`] for
/// holes) as the tablebase of game `game` with `parameters`, index version 1.
///
/// Codes are stored as given: a code that is not a value (such as a solver's
/// internal "not solved yet") reads back as [`Error::BadValue`] and fails
/// verification.
///
/// The file appears at `path` complete or not at all: it is written to
/// `path.tmp-PID`, flushed to disk, then renamed. Without `options.force` an
/// existing `path` is an error.
pub fn write(
    path: &Path,
    game: &str,
    parameters: &[(String, String)],
    values: &[PackedValue],
    options: &WriteOptions,
    observer: Option<Observer<'_>>,
) -> Result<Written> {
    write_values(path, &Identity { game, parameters, index_version: 1 }, values, options, observer)
}

/// [`write`] from any [`Values`], with the game's index version: the general form.
pub fn write_values<V: Values + ?Sized>(
    path: &Path,
    identity: &Identity<'_>,
    values: &V,
    options: &WriteOptions,
    observer: Option<Observer<'_>>,
) -> Result<Written> {
    let header = plan(identity, values.len(), values.max_code(), options)?;
    let values = &CountingHoles { values, holes: AtomicU64::new(0) };
    let batches: Vec<u64> = (0..header.block_count).step_by(BATCH_BLOCKS).collect();
    let mut batches = batches.into_iter();
    let next_batch = |header: &Header| match batches.next() {
        None => Ok(None),
        Some(first) => {
            let blocks: Vec<u64> = (first..(first + BATCH_BLOCKS as u64).min(header.block_count)).collect();
            compress_blocks(header, values, &blocks, options.level).map(Some)
        }
    };
    let written = write_blocks(path, header, next_batch, options, observer)?;
    Ok(Written { holes: Some(values.holes.load(Ordering::Relaxed)), ..written })
}

/// Values that count the holes among the codes they give, as blocks are compressed.
struct CountingHoles<'a, V: ?Sized> {
    values: &'a V,
    holes: AtomicU64,
}

impl<V: Values + ?Sized> Values for CountingHoles<'_, V> {
    fn len(&self) -> u64 {
        self.values.len()
    }
    fn max_code(&self) -> u32 {
        self.values.max_code()
    }
    fn fill(&self, range: std::ops::Range<u64>, width: u8, out: &mut Vec<u8>) -> std::io::Result<()> {
        let start = out.len();
        self.values.fill(range, width, out)?;
        let codes = &out[start..];
        let holes = (0..codes.len() / width as usize)
            .filter(|&i| format::read_code(codes, width, i) == PackedValue::NONE)
            .count();
        self.holes.fetch_add(holes as u64, Ordering::Relaxed);
        Ok(())
    }
}

/// The header of a file of `index_size` values whose largest code is `max_code`:
/// its value width and block layout, the same for every writer of these values.
/// The block index offset is filled in by [`write_blocks`].
pub fn plan(identity: &Identity<'_>, index_size: u64, max_code: u32, options: &WriteOptions) -> Result<Header> {
    check_parameters(identity.game, identity.parameters)?;
    if identity.index_version == 0 {
        return Err(Error::Unwritable("index version 0 does not exist".into()));
    }
    let value_width = format::width_for(max_code);
    let block_positions = (options.block_bytes / value_width as u32).clamp(1, format::MAX_BLOCK_POSITIONS);
    Ok(Header {
        version: format::VERSION,
        value_width,
        block_positions,
        index_size,
        block_count: index_size.div_ceil(block_positions as u64),
        block_index_offset: 0,
        index_version: identity.index_version,
        game: identity.game.to_string(),
        parameters: identity.parameters.to_vec(),
    })
}

/// Compresses blocks `blocks` of a file laid out as `header` (from [`plan`]), in
/// parallel: `values` must hold every index of those blocks (a writer that holds
/// only part of the table compresses only its own blocks).
pub fn compress_blocks<V: Values + ?Sized>(
    header: &Header,
    values: &V,
    blocks: &[u64],
    level: i32,
) -> Result<Vec<Vec<u8>>> {
    let compressed = blocks
        .par_iter()
        .map_init(
            || (zstd::bulk::Compressor::new(level), Vec::new()),
            |(compressor, raw), &block| {
                raw.clear();
                values.fill(header.block_range(block), header.value_width, raw)?;
                match compressor {
                    Ok(c) => c.compress(raw),
                    Err(e) => Err(std::io::Error::new(e.kind(), e.to_string())),
                }
            },
        )
        .collect::<std::io::Result<_>>()?;
    Ok(compressed)
}

/// Writes a file laid out as `header` (from [`plan`]) from its compressed blocks
/// (from [`compress_blocks`]), which `next_batch` returns in order, batch after
/// batch, until `None`; every block of the header must come.
///
/// The file appears at `path` complete or not at all, as with [`write`].
pub fn write_blocks(
    path: &Path,
    mut header: Header,
    next_batch: impl FnMut(&Header) -> Result<Option<Vec<Vec<u8>>>>,
    options: &WriteOptions,
    observer: Option<Observer<'_>>,
) -> Result<Written> {
    check_output(path, options.force)?;
    let temporary = temporary_path(path);
    // A regular file of that name is left over from a run killed before it could
    // clean up (with the same process number); anything else is not ours to touch.
    match fs::symlink_metadata(&temporary) {
        Ok(m) if m.is_file() => fs::remove_file(&temporary)?,
        Ok(_) => return Err(Error::NotAFile(temporary)),
        Err(_) => {}
    }
    let result = write_file(&temporary, &mut header, next_batch, observer);
    match result.and_then(|file_bytes| fs::rename(&temporary, path).map(|()| file_bytes).map_err(Error::from)) {
        Ok(file_bytes) => {
            let raw_bytes = header.index_size * header.value_width as u64;
            Ok(Written { header, file_bytes, raw_bytes, holes: None })
        }
        Err(e) => {
            let _ = fs::remove_file(&temporary);
            Err(e)
        }
    }
}

fn check_parameters(game: &str, parameters: &[(String, String)]) -> Result<()> {
    if !format::valid_key(game) {
        return Err(Error::Unwritable(format!("game name {game:?}: use lowercase letters, digits, - and _")));
    }
    for (key, value) in parameters {
        if !format::valid_key(key) || key == "game" {
            return Err(Error::Unwritable(format!("parameter name {key:?}: use lowercase letters, digits, - and _")));
        }
        if value.contains(['\n', '\r']) {
            return Err(Error::Unwritable(format!("parameter {key}: the value contains a line break")));
        }
    }
    Ok(())
}

/// The output may be replaced only if it is a regular file (and `force` is given):
/// renaming over a device, a FIFO, a socket or a directory would destroy it or fail
/// half-way.
pub fn check_output(path: &Path, force: bool) -> Result<()> {
    match fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::Io(e)),
        Ok(m) if !m.is_file() => Err(Error::NotAFile(path.to_path_buf())),
        Ok(_) if !force => Err(Error::Exists(path.to_path_buf())),
        Ok(_) => Ok(()),
    }
}

/// The name the file is written under until it is complete: `FILE.tmp-PID`, in the
/// same directory (so that the rename is atomic). A front end that is interrupted
/// removes it.
pub fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(format!(".tmp-{}", std::process::id()));
    path.with_file_name(name)
}

/// Blocks compressed per parallel batch: bounds the memory held at once.
const BATCH_BLOCKS: usize = 1024;

/// Writes the whole file; returns its size. `header.block_index_offset` is filled in.
fn write_file(
    temporary: &Path,
    header: &mut Header,
    mut next_batch: impl FnMut(&Header) -> Result<Option<Vec<Vec<u8>>>>,
    observer: Option<Observer<'_>>,
) -> Result<u64> {
    // A new file: never write into whatever else has that name.
    let file = fs::OpenOptions::new().write(true).create_new(true).open(temporary)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    // Step 1: a placeholder header, rewritten once the block index's place is known.
    let placeholder = header.encode();
    out.write_all(&placeholder)?;
    let mut offset = placeholder.len() as u64;
    debug_assert_eq!(offset, FIXED_HEADER as u64 + header.parameter_text().len() as u64);

    // Step 2: blocks, compressed in batches, written in order; each checksum binds
    // the block to its number and this file's identity.
    let identity = header.identity();
    let mut index = Vec::with_capacity(header.block_count as usize * format::INDEX_ENTRY);
    let mut block = 0u64;
    while let Some(compressed) = next_batch(header)? {
        for bytes in &compressed {
            if block == header.block_count {
                return Err(Error::Unwritable(format!("more than the {} blocks planned", header.block_count)));
            }
            let length = u32::try_from(bytes.len()).map_err(|_| Error::Unwritable("a block over 4 GiB".into()))?;
            let checksum = format::block_checksum(identity, block, bytes);
            index.extend_from_slice(&BlockEntry { offset, length, checksum }.encode());
            out.write_all(bytes)?;
            offset += bytes.len() as u64;
            block += 1;
        }
        if let Some(observe) = observer {
            observe(Progress::new("compress", block, header.block_count));
        }
    }
    if block != header.block_count {
        return Err(Error::Unwritable(format!("{block} of the {} blocks planned", header.block_count)));
    }

    // Step 3: the block index, its checksum, the end magic.
    header.block_index_offset = offset;
    out.write_all(&index)?;
    out.write_all(&format::index_checksum(&index).to_le_bytes())?;
    out.write_all(&format::END_MAGIC)?;
    let file_bytes = offset + index.len() as u64 + format::TRAILER as u64;

    // Step 4: the real header, then everything to disk before the rename.
    out.seek(SeekFrom::Start(0))?;
    out.write_all(&header.encode())?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    Ok(file_bytes)
}

/// Writes a solved game: [`write_values`] with the game's name, parameters and index
/// version.
pub fn write_solution<G: gsolve_engine::Variant>(
    path: &Path,
    game: &G,
    solution: &gsolve_engine::Solution,
    options: &WriteOptions,
    observer: Option<Observer<'_>>,
) -> Result<Written> {
    let parameters = game.parameters();
    let identity = Identity { game: G::NAME, parameters: &parameters, index_version: G::INDEX_VERSION };
    write_values(path, &identity, solution, options, observer)
}
