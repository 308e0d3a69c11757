//! What can go wrong reading, writing or opening a tablebase.

use std::path::PathBuf;

/// A tablebase error. Every variant says what is wrong and where, in words a user can
/// act on; [`Error::is_bad_file`] tells a damaged or foreign file from an I/O failure.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file does not start with [`crate::format::MAGIC`].
    #[error("not a gsolve tablebase: the file does not start with the bytes \"GSOLVETB\"")]
    BadMagic,
    /// The file ends before a part the header promises.
    #[error("truncated: {0}")]
    Truncated(String),
    /// Written by a newer gsolve.
    #[error("format version {found} is newer than this gsolve reads (up to {supported}): upgrade gsolve")]
    NewerVersion {
        /// The file's version.
        found: u16,
        /// The newest version this build reads.
        supported: u16,
    },
    /// Written by an older gsolve in a format this one no longer reads.
    #[error("format version {found} is older than this gsolve reads (from {supported} on): rebuild the tablebase with `gsolve build`")]
    OlderVersion {
        /// The file's version.
        found: u16,
        /// The oldest version this build reads.
        supported: u16,
    },
    /// The values are stored by another version of the game's index.
    #[error("this tablebase of {game} is stored by the game's index version {found}, this gsolve uses version {supported}: rebuild it with `gsolve build`")]
    OldIndex {
        /// The game.
        game: String,
        /// The file's index version.
        found: u32,
        /// The index version of this build's game.
        supported: u32,
    },
    /// An opening book file that is damaged or not a book.
    #[error("bad opening book: {0}")]
    BadBook(String),
    /// The header (or the block index) is inconsistent or fails its checksum.
    #[error("bad header: {0}")]
    BadHeader(String),
    /// A block fails its checksum, does not decompress, or has the wrong length.
    #[error("block {block} (positions {first}..{end}): {problem}")]
    BadBlock {
        /// The block's number, from 0.
        block: u64,
        /// Its first index.
        first: u64,
        /// One past its last index.
        end: u64,
        /// What is wrong.
        problem: String,
    },
    /// A stored value is not a valid [`gsolve_engine::PackedValue`] code.
    #[error("index {index}: stored code {code:#x} is not a value")]
    BadValue {
        /// The position's index.
        index: u64,
        /// The stored code.
        code: u32,
    },
    /// The file holds another game than the one asked for.
    #[error("this tablebase is for the game {found:?}, not {expected:?}")]
    WrongGame {
        /// The game asked for.
        expected: String,
        /// The game in the file.
        found: String,
    },
    /// The game's parameters in the file do not make a valid game, or the game they
    /// make does not match the file.
    #[error("the tablebase's parameters do not describe a valid {game} game: {message}")]
    BadParameters {
        /// The game's name.
        game: String,
        /// What is wrong.
        message: String,
    },
    /// An index beyond the end.
    #[error("index {index} is outside the tablebase ({size} positions)")]
    OutOfRange {
        /// The index asked for.
        index: u64,
        /// The number of indices.
        size: u64,
    },
    /// The output file exists and overwriting was not asked for (each front end
    /// says how to ask for it).
    #[error("{} exists", .0.display())]
    Exists(PathBuf),
    /// The output path exists and is not a regular file (a directory, a device, a
    /// FIFO, a socket): it is never replaced.
    #[error("{} exists and is not a regular file: it is left as it is (choose another output path)", .0.display())]
    NotAFile(PathBuf),
    /// The path to read is not a regular file (a directory, a device, a FIFO, a
    /// socket): no tablebase is read from it, and nothing waits on it.
    #[error("{} is not a regular file (a directory, device, FIFO or socket): a tablebase is a file", .0.display())]
    NotRegular(PathBuf),
    /// A build would take more memory than allowed.
    #[error("{0}")]
    TooLarge(String),
    /// A tier would take more memory to solve than the build's memory cap allows.
    #[error("tier {tier} ({positions} positions) needs about {} MiB to solve (itself and the tiers it reads), more than the {} MiB allowed", .needed >> 20, .cap >> 20)]
    TierOverMemory {
        /// The tier's name.
        tier: String,
        /// Its positions.
        positions: u64,
        /// The bytes its solve needs.
        needed: u64,
        /// The cap, in bytes.
        cap: u64,
    },
    /// The work directory of a tiered build holds another build's tiers.
    #[error("the work directory {} holds another build (see its build.txt): choose another work directory or remove it", .0.display())]
    WorkDirTaken(PathBuf),
    /// The values or parameters given to the writer cannot be stored.
    #[error("cannot write: {0}")]
    Unwritable(String),
}

impl Error {
    /// True when the file itself is at fault (damaged, truncated, foreign, newer,
    /// another game) rather than the system.
    pub fn is_bad_file(&self) -> bool {
        !matches!(
            self,
            Error::Io(_)
                | Error::Exists(_)
                | Error::NotAFile(_)
                | Error::Unwritable(_)
                | Error::TooLarge(_)
                | Error::TierOverMemory { .. }
                | Error::WorkDirTaken(_)
        )
    }
}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
