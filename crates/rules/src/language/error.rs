//! What can be wrong with a rules file, a board made from it, or a position.

/// A rules file that cannot be read, or a board or position it cannot make.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Something wrong at a place in the file.
    #[error("line {line}, column {column}: {message} (line {line} reads {line_text})")]
    At {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What is wrong.
        message: String,
        /// A short excerpt of the line, quoted.
        line_text: String,
    },
    /// The file is longer than any rules file needs to be.
    #[error("the rules file has {bytes} bytes, more than the {limit} a rules file may have")]
    TooLong {
        /// Its length.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The rules take their board, or its walls and marks, from a map, and neither
    /// a map nor a position (which carries one) was given. Front ends add how their
    /// users give a map.
    #[error(
        "these rules take {} from a map: give a position (the map is read from it) or a map",
        if *.whole_board { "their board" } else { "walls and marks" }
    )]
    NeedsMap {
        /// The rules give no size either: the map is the whole board.
        whole_board: bool,
    },
    /// The rules are fine but the board asked for is not (too big for the index, a
    /// map without a cell the rules name, ...).
    #[error("{0}")]
    Board(String),
}
