//! Opening books on disk: a rules game's book ([`gsolve_rules::book`]) in the book
//! file format ([`gsolve_tablebase::book`], docs/tablebase-format.md). The file
//! stores the rules' text and the board, so it alone opens the game.

use crate::AnalysisError;
use gsolve_rules::book::{OpeningBook, KEY_VERSION};
use gsolve_rules::Rules;
use gsolve_tablebase::book::{read_book, write_book, BookFile};
use std::path::Path;
use std::sync::Arc;

/// The game name a rules game's book records (as a rules tablebase does).
const GAME: &str = "rules";

/// Writes `book` to `path` (atomically; an existing file only with `force`).
/// Returns the file's size.
pub fn write(path: &Path, book: &OpeningBook, force: bool) -> Result<u64, gsolve_tablebase::Error> {
    let file = BookFile {
        game: GAME.to_string(),
        parameters: book.board().to_vec(),
        plies: book.plies(),
        key_version: KEY_VERSION,
        entries: book.entries().collect(),
    };
    write_book(path, &file, force)
}

/// A book file read and checked: the rules it was built for, and the book.
pub struct LoadedBook {
    /// The rules, from the book's own copy of the rules file.
    pub rules: Arc<Rules>,
    /// The book.
    pub book: Arc<OpeningBook>,
}

/// Reads the book at `path`: the file's checks, then its game (a rules game's
/// book, keys of this gsolve's scheme) and its rules.
pub fn read(path: &Path) -> Result<LoadedBook, AnalysisError> {
    let file = read_book(path).map_err(|e| AnalysisError::Book(format!("{}: {e}", path.display())))?;
    loaded(file).map_err(|e| AnalysisError::Book(format!("{}: {e}", path.display())))
}

/// A book file's contents checked: a rules game's book, keys of this gsolve's
/// scheme, rules that parse.
pub fn loaded(file: BookFile) -> Result<LoadedBook, AnalysisError> {
    let bad = AnalysisError::Book;
    if file.game != GAME {
        return Err(bad(format!("a book of the game {:?}; books are of rules games", file.game)));
    }
    if file.key_version != KEY_VERSION {
        return Err(bad(gsolve_rules::book::BookError::KeyVersion(file.key_version).to_string()));
    }
    let text = file
        .parameters
        .iter()
        .find(|(k, _)| k == "rules")
        .ok_or_else(|| bad("the book does not store its rules".into()))?;
    let text = gsolve_rules::unescape_text(&text.1).map_err(|e| bad(format!("its rules: {e}")))?;
    let rules = Rules::parse(&text).map_err(|e| bad(format!("its rules: {e}")))?;
    let book = OpeningBook::from_parts(file.parameters, file.plies, file.entries).map_err(|e| bad(e.to_string()))?;
    Ok(LoadedBook { rules: Arc::new(rules), book: Arc::new(book) })
}
