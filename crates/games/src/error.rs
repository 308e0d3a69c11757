//! Errors in game input files.

use std::fmt;

/// A malformed input: what is wrong and where.
///
/// Displayed as `case 2, line 7, column 3: unknown character 'x' ...`; parts that are
/// unknown are left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// 1-based number of the case (map, board, ...) in the input.
    pub case: Option<usize>,
    /// 1-based line number in the input.
    pub line: Option<usize>,
    /// 1-based column (in characters) in that line.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl FormatError {
    /// An error at a line (and optionally column) of a case.
    pub fn at(case: usize, line: usize, column: Option<usize>, message: impl Into<String>) -> Self {
        FormatError { case: Some(case), line: Some(line), column, message: message.into() }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(c) = self.case {
            parts.push(format!("case {c}"));
        }
        if let Some(l) = self.line {
            parts.push(format!("line {l}"));
        }
        if let Some(c) = self.column {
            parts.push(format!("column {c}"));
        }
        if parts.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", parts.join(", "), self.message)
        }
    }
}

impl std::error::Error for FormatError {}
