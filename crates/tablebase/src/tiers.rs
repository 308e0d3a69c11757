//! A tiered game's tablebase, built tier by tier on disk and resumable.
//!
//! # The work directory
//! ```text
//! build.txt         what is being built: game, parameters, index version, format;
//!                   a directory of another build is refused, never mixed in
//! finished.txt      one line per finished tier: name width size checksum max-code
//! NAME.tier         a finished tier's codes, `width` bytes each, memory-mapped when
//!                   a later tier reads it
//! NAME.tier.tmp     a tier being written: an interrupted write, removed on resume
//! ```
//! A tier's file is written under its temporary name, flushed to disk and renamed,
//! and only then listed in `finished.txt` (itself rewritten the same way): a build
//! killed at any moment (Ctrl-C, `kill -9`, power off) leaves finished tiers that are
//! whole and listed, and at most one unlisted temporary file. Started again with the
//! same command, it checks each listed tier (size, checksum), goes on from the first
//! tier not finished, and, the values being the same, writes the same file.
//!
//! # The steps of [`build`]
//! 1. **plan**: every tier, its size and the memory its solve takes (the tier in
//!    memory plus its child tiers mapped); a tier over the memory cap is refused
//!    before any work starts, by name.
//! 2. **solve** each unfinished tier in order with its child tiers mapped
//!    ([`gsolve_engine::tiered::solve_tier`]) and save it.
//! 3. **assemble** the tablebase from the tier files, block by block (never the whole
//!    table in memory), written under a temporary name and renamed; then the work
//!    directory is removed.

use crate::error::{Error, Result};
use crate::write::{self, Identity, Values, WriteOptions, Written};
use gsolve_engine::tiered::{solve_tier, Codes, SolvedTiers, TierValues};
use gsolve_engine::{Indexed, Observer, PackedValue, Progress, Tiered, Variant};
use std::collections::HashMap;
use std::fs::{self, File};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::Xxh3;

/// A finished tier as `finished.txt` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Finished {
    width: u8,
    size: u64,
    checksum: u64,
    max_code: u32,
}

/// A work directory of one build.
pub struct WorkDir {
    path: PathBuf,
    finished: HashMap<String, Finished>,
}

/// The build's description, as `build.txt` holds it.
fn description(identity: &Identity<'_>) -> String {
    let mut text = format!("gsolve tiered build\nformat={}\ngame={}\n", crate::format::VERSION, identity.game);
    for (key, value) in identity.parameters {
        text.push_str(&format!("{key}={value}\n"));
    }
    text.push_str(&format!("index-version={}\n", identity.index_version));
    text
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::Io(std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// Writes `bytes` to `path` whole or not at all: a temporary name, flushed, renamed.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let temporary = path.with_extension(format!(
        "{}.tmp",
        path.extension().map(|e| e.to_string_lossy().to_string()).unwrap_or_default()
    ));
    let result = (|| {
        let mut file = File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&temporary);
        io_error(path, e)
    })
}

/// XXH3 of a tier's codes.
fn checksum(bytes: &[u8]) -> u64 {
    let mut hasher = Xxh3::new();
    hasher.update(bytes);
    hasher.digest()
}

/// The length and XXH3 of a file, read in pieces (a tier can be larger than memory).
fn checksum_file(path: &Path) -> std::io::Result<(u64, u64)> {
    use std::io::Read;
    let mut file = File::open(path)?;
    let mut hasher = Xxh3::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut length = 0u64;
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok((length, hasher.digest()));
        }
        hasher.update(&buffer[..n]);
        length += n as u64;
    }
}

impl WorkDir {
    /// Opens (creating it if needed) the work directory of a build; a directory that
    /// holds another build is an error. Tiers listed as finished are checked (size
    /// and checksum); a leftover temporary file is removed.
    pub fn open(path: &Path, identity: &Identity<'_>) -> Result<WorkDir> {
        fs::create_dir_all(path).map_err(|e| io_error(path, e))?;
        let wanted = description(identity);
        let build = path.join("build.txt");
        match fs::read_to_string(&build) {
            Ok(found) if found == wanted => {}
            Ok(_) => return Err(Error::WorkDirTaken(path.to_path_buf())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if fs::read_dir(path).map_err(|e| io_error(path, e))?.next().is_some() {
                    return Err(Error::Unwritable(format!(
                        "the work directory {} is not empty and holds no build: choose an empty one",
                        path.display()
                    )));
                }
                write_atomically(&build, wanted.as_bytes())?;
            }
            Err(e) => return Err(io_error(&build, e)),
        }
        let mut work = WorkDir { path: path.to_path_buf(), finished: HashMap::new() };
        let list = work.path.join("finished.txt");
        let text = match fs::read_to_string(&list) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io_error(&list, e)),
        };
        for line in text.lines() {
            let fields: Vec<&str> = line.split(' ').collect();
            let parsed = match fields[..] {
                [name, width, size, sum, max] => (|| {
                    Some((
                        name.to_string(),
                        Finished {
                            width: width.parse().ok().filter(|w| [1, 2, 4].contains(w))?,
                            size: size.parse().ok()?,
                            checksum: u64::from_str_radix(sum, 16).ok()?,
                            max_code: max.parse().ok()?,
                        },
                    ))
                })(),
                _ => None,
            };
            let Some((name, finished)) = parsed else {
                return Err(Error::Unwritable(format!(
                    "{}: the line {line:?} is not `name width size checksum max-code`: remove the work directory to start over",
                    list.display()
                )));
            };
            work.finished.insert(name, finished);
        }
        // Whole and listed, or not at all: temporary files are interrupted writes.
        for entry in fs::read_dir(path).map_err(|e| io_error(path, e))? {
            let entry = entry.map_err(|e| io_error(path, e))?;
            if entry.file_name().to_string_lossy().ends_with(".tmp") {
                let _ = fs::remove_file(entry.path());
            }
        }
        for (name, finished) in &work.finished {
            let file = work.tier_path(name);
            let (length, sum) = checksum_file(&file).map_err(|e| io_error(&file, e))?;
            if length != finished.size * finished.width as u64 || sum != finished.checksum {
                return Err(Error::Unwritable(format!(
                    "{}: the finished tier does not match finished.txt (damaged?): remove the work directory to start over",
                    file.display()
                )));
            }
        }
        Ok(work)
    }

    fn tier_path(&self, name: &str) -> PathBuf {
        self.path.join(format!("{name}.tier"))
    }

    /// Whether a tier is finished.
    pub fn is_finished(&self, name: &str) -> bool {
        self.finished.contains_key(name)
    }

    /// The finished tiers' names.
    pub fn finished(&self) -> impl Iterator<Item = &str> {
        self.finished.keys().map(String::as_str)
    }

    /// Saves a solved tier: its file, then its line in `finished.txt`.
    pub fn save(&mut self, name: &str, values: &TierValues) -> Result<()> {
        write_atomically(&self.tier_path(name), values.bytes())?;
        let finished = Finished {
            width: values.width(),
            size: values.len(),
            checksum: checksum(values.bytes()),
            max_code: values.max_code(),
        };
        self.list(name, finished)
    }

    /// Where a tier's file is and what it holds (width, size), if finished.
    pub fn tier_file(&self, name: &str) -> Option<(PathBuf, u8, u64)> {
        self.finished.get(name).map(|f| (self.tier_path(name), f.width, f.size))
    }

    /// The largest code of a finished tier, as listed when it was saved.
    pub fn max_code(&self, name: &str) -> Option<u32> {
        self.finished.get(name).map(|f| f.max_code)
    }

    fn list(&mut self, name: &str, finished: Finished) -> Result<()> {
        self.finished.insert(name.to_string(), finished);
        let mut lines: Vec<String> = self
            .finished
            .iter()
            .map(|(n, f)| format!("{n} {} {} {:016x} {}", f.width, f.size, f.checksum, f.max_code))
            .collect();
        lines.sort();
        write_atomically(&self.path.join("finished.txt"), (lines.join("\n") + "\n").as_bytes())
    }

    /// A finished tier, memory-mapped.
    pub fn map(&self, name: &str) -> Result<MappedTier> {
        let finished =
            self.finished.get(name).ok_or_else(|| Error::Unwritable(format!("tier {name} is not finished")))?;
        map_file(&self.tier_path(name), finished.width, finished.size)
    }

    /// Removes the work directory (after the tablebase is written).
    pub fn remove(self) -> Result<()> {
        fs::remove_dir_all(&self.path).map_err(|e| io_error(&self.path, e))
    }
}

/// The work directory a build of `output` keeps its finished tiers in when none is
/// chosen: `FILE.work`, beside the output.
pub fn default_work_dir(output: &Path) -> PathBuf {
    let mut name = output.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".work");
    output.with_file_name(name)
}

/// Reads the codes of `ranges` (ascending index ranges) of a finished tier's file
/// (`width` bytes a code, `size` codes), one after the other: how each worker of
/// a distributed build loads its own part of a tier, from its own part's file or
/// from a single-process build's whole tier, so that no process holds a whole
/// tier.
pub fn read_parts(
    path: &Path,
    width: u8,
    size: u64,
    ranges: impl Iterator<Item = std::ops::Range<u64>> + Clone,
) -> Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    let actual = file.metadata().map_err(|e| io_error(path, e))?.len();
    if actual != size * width as u64 {
        return Err(Error::Unwritable(format!("{}: changed since it was finished", path.display())));
    }
    if let Some(range) = ranges.clone().find(|r| r.start > r.end || r.end > size) {
        return Err(Error::Unwritable(format!("{}: no codes {range:?}", path.display())));
    }
    let total: u64 = ranges.clone().map(|r| r.end - r.start).sum();
    let mut bytes = vec![0; (total * width as u64) as usize];
    let mut at = 0usize;
    for range in ranges {
        let length = ((range.end - range.start) * width as u64) as usize;
        file.read_exact_at(&mut bytes[at..at + length], range.start * width as u64).map_err(|e| io_error(path, e))?;
        at += length;
    }
    Ok(bytes)
}

/// A finished tier's file (`width` bytes a code, `size` codes), memory-mapped.
fn map_file(path: &Path, width: u8, size: u64) -> Result<MappedTier> {
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    if size == 0 {
        return Ok(MappedTier { map: None, width, size: 0 });
    }
    // SAFETY: `Mmap::map` is unsafe because another process could change or
    // truncate the file while it is mapped. Tier files are written whole under a
    // temporary name and renamed (never changed in place), their size and checksum
    // were checked when the work directory was opened, and the build that maps
    // them owns the directory (a second
    // build of it would have to be started by hand, against the documentation).
    // No reference into the map outlives it.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| io_error(path, e))?;
    if map.len() as u64 != size * width as u64 {
        return Err(Error::Unwritable(format!("{}: changed since it was finished", path.display())));
    }
    Ok(MappedTier { map: Some(map), width, size })
}

/// A finished tier on disk, memory-mapped.
pub struct MappedTier {
    map: Option<memmap2::Mmap>,
    width: u8,
    size: u64,
}

impl MappedTier {
    /// The code at `index` (below the tier's size).
    #[inline]
    pub fn code(&self, index: u64) -> PackedValue {
        match &self.map {
            Some(map) => crate::format::read_code(map, self.width, index as usize),
            None => PackedValue::NONE,
        }
    }

    /// Number of positions.
    pub fn len(&self) -> u64 {
        self.size
    }

    /// Bytes per code.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// The codes as stored.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// True when the tier is empty.
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }
}

/// The finished tiers a tier reads, mapped.
struct Mapped<T> {
    tiers: HashMap<T, MappedTier>,
}

impl<T: Copy + Eq + std::hash::Hash + Send + Sync> SolvedTiers<T> for Mapped<T> {
    fn codes(&self, tier: T) -> Option<Codes<'_>> {
        self.tiers.get(&tier).map(|mapped| Codes { width: mapped.width, bytes: mapped.bytes() })
    }
}

/// How a tiered build runs.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The most memory a tier's solve may take (its values, and its child tiers
    /// mapped), in bytes; `None` for no limit.
    pub memory: Option<u64>,
    /// How the final file is written.
    pub write: WriteOptions,
}

/// Memory a tier's solve takes: the tier's codes (1 byte each when the game gives
/// layers; the retrograde's values, counters and edges otherwise) and its child
/// tiers mapped, plus room for the rest of the process.
pub fn memory_needed<G: Tiered>(game: &G, tier: G::Tier) -> u64 {
    const OVERHEAD: u64 = 64 << 20;
    let size = game.tier_size(tier);
    let own = if game.for_each_layer_in_tier(tier, |_| {}) { size } else { size.saturating_mul(48) };
    let children: u64 = game.child_tiers(tier).into_iter().map(|t| game.tier_size(t)).sum();
    own.saturating_add(children).saturating_add(OVERHEAD)
}

/// Step 1: refuses a build with a tier over the memory cap, before any work.
pub fn check_memory<G: Tiered>(game: &G, cap: Option<u64>) -> Result<()> {
    let Some(cap) = cap else { return Ok(()) };
    for tier in game.tiers() {
        let needed = memory_needed(game, tier);
        if needed > cap {
            return Err(Error::TierOverMemory {
                tier: game.tier_name(tier),
                positions: game.tier_size(tier),
                needed,
                cap,
            });
        }
    }
    Ok(())
}

/// The finished tiers one after another, in solving order: the whole game's values
/// for the writer, read from the mapped files block by block.
struct Assembled {
    /// (start in the whole index, the tier's file, its width, its size).
    tiers: Vec<(u64, File, u8, u64)>,
    size: u64,
    max_code: u32,
}

/// Read rather than mapped: the file is written block by block, and mapped pages
/// would stay counted in the process's memory until the end (a whole table).
impl Values for Assembled {
    fn len(&self) -> u64 {
        self.size
    }
    fn max_code(&self) -> u32 {
        self.max_code
    }
    fn fill(&self, range: std::ops::Range<u64>, width: u8, out: &mut Vec<u8>) -> std::io::Result<()> {
        use std::os::unix::fs::FileExt;
        let first = self.tiers.partition_point(|(start, ..)| *start <= range.start).saturating_sub(1);
        for (start, file, tier_width, len) in &self.tiers[first..] {
            if *start >= range.end {
                break;
            }
            let from = range.start.max(*start);
            let to = range.end.min(start + len);
            if from >= to {
                continue;
            }
            let w = *tier_width as usize;
            let mut bytes = vec![0u8; (to - from) as usize * w];
            file.read_exact_at(&mut bytes, (from - start) * w as u64)?;
            if *tier_width == width {
                out.extend_from_slice(&bytes);
            } else {
                for code in bytes.chunks_exact(w) {
                    let code = crate::format::read_code(code, *tier_width, 0).0;
                    out.extend_from_slice(&code.to_le_bytes()[..width as usize]);
                }
            }
        }
        Ok(())
    }
}

/// Builds the tablebase of a tiered game: every tier solved in order and saved in
/// `work_dir` (resuming a build stopped before), then the file assembled at
/// `output`. The game's whole index must be its tiers one after another in
/// solving order. Reports progress (step `"tiers"`, positions solved) and returns what
/// was written, with the number of tiers solved now (the rest were finished before).
pub fn build<G: Tiered + Indexed + Variant + Sync>(
    game: &G,
    output: &Path,
    work_dir: &Path,
    options: &BuildOptions,
    observer: Option<Observer<'_>>,
) -> Result<(Written, usize)> {
    build_solving_with(game, game, output, work_dir, options, observer)
}

/// [`build`], the tiers solved on `solver`: the same game with the same tiers and
/// indices in another form (a rules game with positions of smaller room), which
/// the file is written for as `game`.
pub fn build_solving_with<G, S>(
    game: &G,
    solver: &S,
    output: &Path,
    work_dir: &Path,
    options: &BuildOptions,
    observer: Option<Observer<'_>>,
) -> Result<(Written, usize)>
where
    G: Tiered + Indexed + Variant + Sync,
    S: Tiered<Tier = G::Tier> + Sync,
{
    write::check_output(output, options.write.force)?;
    let tiers = game.tiers();
    let total: u64 = tiers.iter().map(|&t| game.tier_size(t)).sum();
    if total != game.index_size() {
        return Err(Error::Unwritable(format!(
            "the game's tiers hold {total} positions but its index {}: it breaks the tiered build's rule",
            game.index_size()
        )));
    }
    check_memory(game, options.memory)?;
    let parameters = game.parameters();
    let identity = Identity { game: G::NAME, parameters: &parameters, index_version: G::INDEX_VERSION };
    let mut work = WorkDir::open(work_dir, &identity)?;

    // Step 2: every tier not finished yet.
    let mut done = 0u64;
    let mut solved_now = 0;
    for &tier in &tiers {
        let name = game.tier_name(tier);
        let size = game.tier_size(tier);
        if !work.is_finished(&name) {
            let mut children = Mapped { tiers: HashMap::new() };
            for child in game.child_tiers(tier) {
                children.tiers.insert(child, work.map(&game.tier_name(child))?);
            }
            let before = done;
            let report = |p: Progress| {
                if let Some(observe) = observer {
                    observe(Progress::new("tiers", before + p.done.min(size), total));
                }
            };
            let values = solve_tier(solver, tier, &children, Some(&report));
            drop(children);
            work.save(&name, &values)?;
            solved_now += 1;
        }
        done += size;
        if let Some(observe) = observer {
            observe(Progress::new("tiers", done, total));
        }
    }

    // Step 3: the file, from the tier files.
    let written = assemble(game, &identity, output, work, &options.write, observer)?;
    Ok((written, solved_now))
}

/// Step 3 of [`build`]: the file assembled from the finished tiers of `work`
/// (every tier of the game), written as the game `identity` names (the game
/// itself, or the game a faster form of it stands for), then the work directory
/// removed.
pub fn assemble<G: Tiered + Indexed + Sync>(
    game: &G,
    identity: &Identity<'_>,
    output: &Path,
    work: WorkDir,
    options: &WriteOptions,
    observer: Option<Observer<'_>>,
) -> Result<Written> {
    let mut assembled = Assembled { tiers: Vec::new(), size: game.index_size(), max_code: 0 };
    let mut start = 0;
    for tier in game.tiers() {
        let name = game.tier_name(tier);
        assembled.max_code = assembled.max_code.max(work.finished.get(&name).map_or(0, |f| f.max_code));
        let (path, width, len) =
            work.tier_file(&name).ok_or_else(|| Error::Unwritable(format!("tier {name} is not finished")))?;
        let file = File::open(&path).map_err(|e| io_error(&path, e))?;
        assembled.tiers.push((start, file, width, len));
        start += len;
    }
    let written = write::write_values(output, identity, &assembled, options, observer)?;
    drop(assembled);
    work.remove()?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_parts_gives_the_codes_of_its_ranges_and_refuses_what_is_not_there() {
        let path = std::env::temp_dir().join(format!("gsolve-read-parts-{}.tier", std::process::id()));
        // 10 codes of 2 bytes: code i is 100 + i.
        let bytes: Vec<u8> = (0..10u16).flat_map(|i| (100 + i).to_le_bytes()).collect();
        fs::write(&path, &bytes).unwrap();
        let read = read_parts(&path, 2, 10, [0..2, 5..6, 8..10].into_iter()).unwrap();
        let codes: Vec<u16> = read.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
        assert_eq!(codes, [100, 101, 105, 108, 109]);
        assert!(read_parts(&path, 2, 10, std::iter::empty()).unwrap().is_empty());
        // A range past the tier, and a file of another length, are refused.
        let past = read_parts(&path, 2, 10, std::iter::once(8..11)).unwrap_err().to_string();
        assert!(past.contains("no codes 8..11"), "{past}");
        let changed = read_parts(&path, 2, 11, std::iter::once(0..1)).unwrap_err().to_string();
        assert!(changed.contains("changed since it was finished"), "{changed}");
        fs::remove_file(&path).unwrap();
    }
}
