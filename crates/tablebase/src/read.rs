//! Reading a tablebase: the file is memory-mapped, the header and block index are
//! checked once at open, and a probe decompresses the one block holding its index.

use crate::error::{Error, Result};
use crate::format::{self, BlockEntry, Header, INDEX_ENTRY};
use gsolve_engine::{Observer, PackedValue, Progress, Value};
use rayon::prelude::*;
use std::cell::RefCell;
use std::fs::File;
use std::path::Path;

/// The file's bytes: memory-mapped, or owned (for tests and fuzzing).
enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
            Bytes::Owned(bytes) => bytes,
        }
    }
}

/// An open tablebase of any game: the header, and values by index.
///
/// Opening checks the header, its checksum, the file's length and the block index's
/// checksum; each block's checksum is checked whenever the block is read.
pub struct Tablebase {
    bytes: Bytes,
    header: Header,
    /// [`Header::identity`], which seeds the block checksums.
    identity: u64,
}

thread_local! {
    /// One zstd context per thread, reused by every probe.
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { RefCell::new(None) };
}

impl Tablebase {
    /// Opens and memory-maps a tablebase file.
    ///
    /// Only a regular file is opened: a directory, a device (`/dev/zero`), a FIFO or
    /// a socket is refused before it is opened (opening a FIFO would wait for a
    /// writer, reading a device might never end).
    pub fn open(path: impl AsRef<Path>) -> Result<Tablebase> {
        let path = path.as_ref();
        if !std::fs::metadata(path)?.is_file() {
            return Err(Error::NotRegular(path.to_path_buf()));
        }
        let file = File::open(path)?;
        let metadata = file.metadata()?;
        if !metadata.is_file() {
            // Replaced between the two looks.
            return Err(Error::NotRegular(path.to_path_buf()));
        }
        let len = metadata.len();
        if len < format::FIXED_HEADER as u64 {
            // Too short to map usefully (and an empty file cannot be mapped at all):
            // read the few bytes the size promises, no more.
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::Read::take(&file, len), &mut bytes)?;
            return Tablebase::from_bytes(bytes);
        }
        // SAFETY: `Mmap::map` is unsafe because another process could change or
        // truncate the file while it is mapped, which Rust's `&[u8]` cannot express.
        // gsolve writes tablebases to a temporary name and renames them into place, so
        // it never modifies a file a reader has mapped (a rename leaves the mapped
        // inode intact); a user who edits the file in place while gsolve reads it
        // gets wrong values (caught by the checksums) or SIGBUS, as with every
        // memory-mapped database. No reference into the map outlives `self`.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(&file)? };
        let header = Header::decode(&map)?;
        let identity = header.identity();
        let tablebase = Tablebase { bytes: Bytes::Mapped(map), header, identity };
        tablebase.check_block_index()?;
        Ok(tablebase)
    }

    /// A tablebase held in memory (the same checks as [`Tablebase::open`]).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Tablebase> {
        let header = Header::decode(&bytes)?;
        let identity = header.identity();
        let tablebase = Tablebase { bytes: Bytes::Owned(bytes), header, identity };
        tablebase.check_block_index()?;
        Ok(tablebase)
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The game's name, e.g. `"pawns"`.
    pub fn game_name(&self) -> &str {
        &self.header.game
    }

    /// Number of indices, holes included.
    pub fn index_size(&self) -> u64 {
        self.header.index_size
    }

    /// Number of blocks.
    pub fn block_count(&self) -> u64 {
        self.header.block_count
    }

    /// Size of the file in bytes.
    pub fn file_size(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// The XXH3-128 of the whole file (`gsolve info` prints it in hex), for a
    /// publisher to list beside the file. The checksums inside catch damage and
    /// mix-ups, but anyone who changes the file can recompute them; a digest read
    /// from elsewhere says the file is the one published. Reads every byte once.
    pub fn file_digest(&self) -> u128 {
        xxhash_rust::xxh3::xxh3_128(&self.bytes)
    }

    /// Bytes of the values before compression.
    pub fn raw_size(&self) -> u64 {
        self.header.index_size * self.header.value_width as u64
    }

    /// A block's index entry (`block` below the block count); `None` if its
    /// reserved field is not 0 (which opening the file has already refused).
    pub fn block_entry(&self, block: u64) -> Option<BlockEntry> {
        let at = self.header.block_index_offset as usize + block as usize * INDEX_ENTRY;
        BlockEntry::decode(&self.bytes[at..at + INDEX_ENTRY])
    }

    fn check_block_index(&self) -> Result<()> {
        let start = self.header.block_index_offset as usize;
        let end = start + self.header.block_count as usize * INDEX_ENTRY;
        let stored = u64::from_le_bytes(self.bytes[end..end + 8].try_into().expect("8 bytes"));
        if format::index_checksum(&self.bytes[start..end]) != stored {
            return Err(Error::BadHeader("block index checksum mismatch (the block index is damaged)".into()));
        }
        if self.bytes[end + 8..end + 16] != format::END_MAGIC {
            return Err(Error::BadHeader("the file does not end with the bytes \"GSTBEND\\0\"".into()));
        }
        if let Some(block) = (0..self.header.block_count).find(|&b| self.block_entry(b).is_none()) {
            return Err(Error::BadHeader(format!("block index entry {block}: its reserved bytes are not 0")));
        }
        Ok(())
    }

    /// Decompresses block `block` into `out` (resized to the block's bytes), after
    /// checking its place in the file, its checksum and its decompressed length.
    pub fn read_block(&self, block: u64, out: &mut Vec<u8>) -> Result<()> {
        let range = self.header.block_range(block);
        let bad = |problem: String| Error::BadBlock { block, first: range.start, end: range.end, problem };
        if block >= self.header.block_count {
            return Err(bad(format!("no such block ({} blocks)", self.header.block_count)));
        }
        let entry = self.block_entry(block).ok_or_else(|| bad("its index entry's reserved bytes are not 0".into()))?;
        let data_start = self.header.data_offset();
        let end = entry.offset.checked_add(entry.length as u64);
        if entry.offset < data_start || end.is_none_or(|end| end > self.header.block_index_offset) {
            return Err(bad(format!(
                "stored at bytes {}..+{}, outside the data area {data_start}..{}",
                entry.offset, entry.length, self.header.block_index_offset
            )));
        }
        let compressed = &self.bytes[entry.offset as usize..(entry.offset + entry.length as u64) as usize];
        if format::block_checksum(self.identity, block, compressed) != entry.checksum {
            return Err(bad("checksum mismatch (the block is damaged, or belongs to another place or file)".into()));
        }
        let expected = (range.end - range.start) as usize * self.header.value_width as usize;
        // The frame says what it decompresses to: check that before allocating.
        match zstd::zstd_safe::get_frame_content_size(compressed) {
            Ok(Some(size)) if size == expected as u64 => {}
            Ok(Some(size)) => return Err(bad(format!("decompresses to {size} bytes, expected {expected}"))),
            Ok(None) => return Err(bad("its zstd frame does not say its size".into())),
            Err(_) => return Err(bad("does not decompress: not a zstd frame".into())),
        }
        out.clear();
        out.resize(expected, 0);
        let written = DECOMPRESSOR.with(|cell| {
            let mut cell = cell.borrow_mut();
            let decompressor = match cell.as_mut() {
                Some(d) => d,
                None => cell.insert(zstd::bulk::Decompressor::new()?),
            };
            decompressor.decompress_to_buffer(compressed, out.as_mut_slice())
        });
        match written {
            Ok(n) if n == expected => Ok(()),
            Ok(n) => Err(bad(format!("decompresses to {n} bytes, expected {expected}"))),
            Err(e) => Err(bad(format!("does not decompress: {e}"))),
        }
    }

    /// The stored code at `index`.
    pub fn packed(&self, index: u64) -> Result<PackedValue> {
        if index >= self.header.index_size {
            return Err(Error::OutOfRange { index, size: self.header.index_size });
        }
        let block = index / self.header.block_positions as u64;
        let offset = (index % self.header.block_positions as u64) as usize;
        BLOCK_BUFFER.with(|buffer| {
            let mut buffer = buffer.borrow_mut();
            self.read_block(block, &mut buffer)?;
            Ok(format::read_code(&buffer, self.header.value_width, offset))
        })
    }

    /// The value at `index`: `None` for an index that names no position.
    pub fn value(&self, index: u64) -> Result<Option<Value>> {
        decode_value(index, self.packed(index)?)
    }

    /// Every block decompressed into memory, in parallel; fails at a damaged block.
    pub fn load(&self, observer: Option<Observer<'_>>) -> Result<Table> {
        let width = self.header.value_width as usize;
        let mut bytes = vec![0u8; self.header.index_size as usize * width];
        let block_bytes = self.header.block_positions as usize * width;
        let done = std::sync::atomic::AtomicU64::new(0);
        let total = self.header.block_count;
        bytes.par_chunks_mut(block_bytes).enumerate().try_for_each_init(Vec::new, |buffer, (block, chunk)| {
            self.read_block(block as u64, buffer)?;
            chunk.copy_from_slice(buffer);
            let done = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if let Some(observe) = observer {
                if done.is_multiple_of(64) || done == total {
                    observe(Progress::new("decompress", done, total));
                }
            }
            Ok::<(), Error>(())
        })?;
        Ok(Table { width: self.header.value_width, start: 0, bytes })
    }

    /// The values of the indices `range` (within the file) decompressed into memory,
    /// block by block in parallel, straight into one buffer (a tier of a tiered
    /// game can be most of the machine's memory). Fails at a damaged block.
    pub fn load_range(&self, range: std::ops::Range<u64>) -> Result<Table> {
        let width = self.header.value_width as usize;
        let range = range.start.min(self.header.index_size)..range.end.min(self.header.index_size);
        let per_block = self.header.block_positions as u64;
        let mut bytes = vec![0u8; (range.end - range.start) as usize * width];
        if !range.is_empty() {
            let first_block = range.start / per_block;
            // Each block's part of the range, cut from the output in order.
            let mut pieces: Vec<(u64, &mut [u8])> = Vec::new();
            let mut rest = bytes.as_mut_slice();
            for block in first_block..range.end.div_ceil(per_block) {
                let block_range = self.header.block_range(block);
                let n = (range.end.min(block_range.end) - range.start.max(block_range.start)) as usize * width;
                let (piece, tail) = rest.split_at_mut(n);
                pieces.push((block, piece));
                rest = tail;
            }
            pieces.into_par_iter().try_for_each_init(Vec::new, |buffer, (block, piece)| {
                self.read_block(block, buffer)?;
                let block_start = self.header.block_range(block).start;
                let from = (range.start.max(block_start) - block_start) as usize * width;
                piece.copy_from_slice(&buffer[from..from + piece.len()]);
                Ok::<(), Error>(())
            })?;
        }
        Ok(Table { width: self.header.value_width, start: range.start, bytes })
    }

    /// Checks every block (place, checksum, length) in parallel; returns the damaged
    /// ones in block order with what is wrong, at most `limit` of them.
    pub fn damaged_blocks(&self, limit: usize, observer: Option<Observer<'_>>) -> Vec<Error> {
        let done = std::sync::atomic::AtomicU64::new(0);
        let total = self.header.block_count;
        let mut damaged: Vec<(u64, Error)> = (0..total)
            .into_par_iter()
            .map_init(Vec::new, |buffer, block| {
                let result = self.read_block(block, buffer);
                let done = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                if let Some(observe) = observer {
                    if done.is_multiple_of(64) || done == total {
                        observe(Progress::new("checksums", done, total));
                    }
                }
                result.err().map(|e| (block, e))
            })
            .flatten()
            .collect();
        damaged.sort_by_key(|(block, _)| *block);
        damaged.into_iter().take(limit).map(|(_, e)| e).collect()
    }
}

thread_local! {
    /// The block a probe decompresses into, reused.
    static BLOCK_BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

pub(crate) fn decode_value(index: u64, code: PackedValue) -> Result<Option<Value>> {
    match code.unpack() {
        Some(value) => Ok(Some(value)),
        None if code == PackedValue::NONE => Ok(None),
        None => Err(Error::BadValue { index, code: code.0 }),
    }
}

/// Every stored value in memory, `width` bytes each (what [`Tablebase::load`] gives).
pub struct Table {
    width: u8,
    /// The first index held (0 for a whole table).
    start: u64,
    bytes: Vec<u8>,
}

impl Table {
    /// Number of indices.
    pub fn len(&self) -> u64 {
        (self.bytes.len() / self.width as usize) as u64
    }

    /// True when there are no indices.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The stored code at `index` (from [`Table::start`], below its end).
    #[inline]
    pub fn packed(&self, index: u64) -> PackedValue {
        format::read_code(&self.bytes, self.width, (index - self.start) as usize)
    }

    /// The first index held.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// The value at `index`: `None` for a hole; an error for an invalid code.
    #[inline]
    pub fn value(&self, index: u64) -> Result<Option<Value>> {
        decode_value(index, self.packed(index))
    }
}
