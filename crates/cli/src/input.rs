//! Reading an input file or standard input.

use crate::Failure;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Reads the whole input: the file, or standard input for `None` and `-`.
/// Returns the text and a name for messages.
pub fn read(file: Option<&PathBuf>) -> Result<(String, String), Failure> {
    let (bytes, name) = match file.filter(|p| p.as_path() != Path::new("-")) {
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| Failure::Input(format!("cannot read {}: {e}", path.display())))?;
            (bytes, path.display().to_string())
        }
        None => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::Input(format!("cannot read standard input: {e}")))?;
            (bytes, "standard input".to_string())
        }
    };
    Ok((utf8(bytes, &name)?, name))
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
