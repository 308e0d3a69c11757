//! Reading an input file or standard input: in one pass, at most [`MAX_INPUT`]
//! bytes, with a clear error for what is not a readable text file.

use crate::failure::Failure;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The largest input read, in bytes: far more than any contest file (a thousand
/// 30×30 maps is under 1 MB), small enough that a runaway input (`/dev/zero`) ends in
/// an error, not in memory running out.
pub const MAX_INPUT: u64 = 64 << 20;

/// How long opening a FIFO may wait for a writer before giving up.
const FIFO_WAIT: Duration = Duration::from_secs(10);

/// Reads the whole input: the file, or standard input for `None` and `-`.
/// Returns the text and a name for messages.
pub fn read(file: Option<&PathBuf>) -> Result<(String, String), Failure> {
    read_at_most(file, &Limit { bytes: MAX_INPUT, what: "gsolve reads as input" })
}

/// Reads a rules file, refusing it once it passes [`gsolve_rules::MAX_RULES_BYTES`]
/// (reading stops there: `/dev/zero` is refused after 64 KiB, not 64 MiB).
pub fn read_rules(path: &Path) -> Result<(String, String), Failure> {
    let limit = Limit { bytes: gsolve_rules::MAX_RULES_BYTES as u64, what: "a rules file may have" };
    read_at_most(Some(&path.to_path_buf()), &limit)
}

/// The most bytes read, and what the limit is, for the message.
struct Limit {
    bytes: u64,
    what: &'static str,
}

fn read_at_most(file: Option<&PathBuf>, limit: &Limit) -> Result<(String, String), Failure> {
    let (bytes, name) = match file.filter(|p| p.as_path() != Path::new("-")) {
        Some(path) => {
            let name = path.display().to_string();
            (read_file(path, &name, limit)?, name)
        }
        None => {
            let name = "standard input".to_string();
            (read_limited(std::io::stdin().lock(), &name, limit)?, name)
        }
    };
    Ok((utf8(bytes, &name)?, name))
}

/// A file's bytes. A directory or a socket is refused by name; a FIFO that no
/// writer opens within [`FIFO_WAIT`] too (opening one blocks until a writer comes).
fn read_file(path: &Path, name: &str, limit: &Limit) -> Result<Vec<u8>, Failure> {
    let cannot = |e: std::io::Error| Failure::Input(format!("cannot read {name}: {e}"));
    let metadata = std::fs::metadata(path).map_err(cannot)?;
    let kind = metadata.file_type();
    if kind.is_dir() {
        return Err(Failure::Input(format!("{name} is a directory, not an input file")));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_socket() {
            return Err(Failure::Input(format!("{name} is a socket, not an input file")));
        }
        if kind.is_fifo() {
            // Open on a helper thread: the process ends (and the thread with it) if
            // no writer turns up.
            let (sender, receiver) = std::sync::mpsc::channel();
            let owned = path.to_path_buf();
            std::thread::spawn(move || {
                let _ = sender.send(std::fs::File::open(owned));
            });
            let file = receiver.recv_timeout(FIFO_WAIT).map_err(|_| {
                Failure::Input(format!(
                    "{name} is a FIFO that no program has opened for writing in {} s: nothing to read",
                    FIFO_WAIT.as_secs()
                ))
            })?;
            return read_limited(file.map_err(cannot)?, name, limit);
        }
    }
    read_limited(std::fs::File::open(path).map_err(cannot)?, name, limit)
}

/// Reads to the end, refusing more than `limit.bytes` bytes (reading stops one
/// byte past it).
fn read_limited(source: impl Read, name: &str, limit: &Limit) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    source
        .take(limit.bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Input(format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > limit.bytes {
        let size = if limit.bytes >= 1 << 20 {
            format!("{} MiB", limit.bytes >> 20)
        } else {
            format!("{} KiB", limit.bytes >> 10)
        };
        return Err(Failure::Input(format!("{name} is larger than {size}, more than {}", limit.what)));
    }
    Ok(bytes)
}

/// The bytes as text, or an error naming the line and column of the first bad byte.
fn utf8(bytes: Vec<u8>, name: &str) -> Result<String, Failure> {
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&good[line_start..]).chars().count() + 1;
        Failure::Input(format!("{name}: line {line}, column {column}: not UTF-8 text"))
    })
}
