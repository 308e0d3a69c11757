//! Reading an input file or standard input.

use crate::Failure;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Reads the whole input: the file, or standard input for `None` and `-`.
/// Returns the text and a name for messages.
pub fn read(file: Option<&PathBuf>) -> Result<(String, String), Failure> {
    match file.filter(|p| p.as_path() != Path::new("-")) {
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| Failure::Input(format!("cannot read {}: {e}", path.display())))?;
            let name = path.display().to_string();
            let text = String::from_utf8(bytes).map_err(|e| {
                Failure::Input(format!("{name}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
            })?;
            Ok((text, name))
        }
        None => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::Input(format!("cannot read standard input: {e}")))?;
            let text = String::from_utf8(bytes).map_err(|e| {
                Failure::Input(format!("standard input: not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
            })?;
            Ok((text, "standard input".to_string()))
        }
    }
}
