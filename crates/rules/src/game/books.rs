//! Opening books of line games, as a game builds, opens and checks them
//! ([`crate::book`]).

use super::fast_paths::OutrightPath;
use super::lines_of_play;
use super::rules_game::RulesGame;
use super::text::{escape_text, unescape_text};
use crate::compiled::position::RulesPosition;
use crate::language::spec::Rules;
use crate::search::lines::book::{BookError, LinesOfPlay, OpeningBook};
use std::sync::Arc;

impl<const N: usize> RulesGame<N> {
    /// For a line game, the key of `p` in an opening book ([`crate::book`]); `None`
    /// for other games and for positions the line search does not take (a line
    /// on the board).
    pub fn book_key(&self, p: &RulesPosition<N>) -> Option<u64> {
        self.lines()?.book_key(p)
    }

    /// For a line game, an opening book: the value of every position at most
    /// `plies` moves from `start` ([`crate::book`]), and, when `play.plies` is
    /// greater, of every position that a game against `play.opponent` analyses
    /// before that ply and of each of its moves (module `lines::play`: gsolve's
    /// moves as `play` makes them; its opponent's every move, or every best
    /// move). Searches each position of the last ply of the first part, several
    /// at once: the last ply's searches are most of the time, and each ply more
    /// multiplies them (docs/rules-solving.md, "Opening books"; the times in
    /// docs/performance.md).
    pub fn build_book(
        &self,
        start: &RulesPosition<N>,
        plies: u32,
        play: LinesOfPlay,
        observer: Option<gsolve_engine::Observer<'_>>,
    ) -> Result<OpeningBook, BookError> {
        let lines = self.lines().ok_or_else(|| BookError::NotALineGame(self.not_a_line_game()))?;
        if play.plies > crate::search::lines::book::MAX_PLAY_PLIES {
            return Err(BookError::TooManyPlayPlies(play.plies));
        }
        let entries = lines.book_entries(start, plies, observer)?;
        if play.plies <= plies {
            return OpeningBook::from_parts(self.book_board(), plies, entries);
        }
        let every = Arc::new(OpeningBook::from_parts(self.book_board(), plies, entries.clone())?);
        let mut all: std::collections::HashMap<u64, gsolve_engine::Value> = entries.into_iter().collect();
        let on_lines = lines_of_play::entries(self, &lines.with_book(Some(every)), start, play, observer);
        for (key, value) in on_lines {
            let kept = *all.entry(key).or_insert(value);
            debug_assert_eq!(kept, value, "two values for one key");
        }
        let mut entries: Vec<_> = all.into_iter().collect();
        entries.sort_unstable_by_key(|&(key, _)| key);
        OpeningBook::from_parts(self.book_board(), plies, entries)
    }

    /// The same game answering the positions of `book` from it, without a search;
    /// refused unless the book was built for these rules on this board.
    pub fn with_book(mut self, book: Arc<OpeningBook>) -> Result<RulesGame<N>, BookError> {
        self.book_fits(&book)?;
        let lines = self.lines().expect("a line game: the book fits");
        self.paths.outright = OutrightPath::Lines(lines.with_book(Some(book)));
        Ok(self)
    }

    /// Whether `book` was built for this game: a line game, these rules on this
    /// board; else why not.
    pub fn book_fits(&self, book: &OpeningBook) -> Result<(), BookError> {
        if self.lines().is_none() {
            return Err(BookError::NotALineGame(self.not_a_line_game()));
        }
        if book.board() != self.book_board() {
            let short = |board: &[(String, String)]| {
                let get = |key: &str| board.iter().find(|(k, _)| k == key).map_or("?", |(_, v)| v.as_str());
                let rules = board.iter().find(|(k, _)| k == "rules").map_or(String::new(), |(_, text)| {
                    let name = unescape_text(text)
                        .ok()
                        .and_then(|t| Rules::parse(&t).ok())
                        .map_or_else(|| "unreadable rules".to_string(), |r| r.name.clone());
                    format!("{name}, ")
                });
                format!("{rules}{} rows × {} cols", get("rows"), get("cols"))
            };
            let (book, game) = (short(book.board()), short(&self.book_board()));
            // Same rules name and board, different text: say so rather than print two equal lines.
            let game = if book == game { format!("{game}, from another rules file") } else { game };
            return Err(BookError::OtherGame { book, game });
        }
        Ok(())
    }

    /// The rules' text and the board: what a book is built for.
    fn book_board(&self) -> Vec<(String, String)> {
        let mut board = vec![
            ("rules".to_string(), escape_text(&self.rules().text)),
            ("rows".to_string(), self.board().rows.to_string()),
            ("cols".to_string(), self.board().cols.to_string()),
        ];
        if let Some(map) = &self.board().map {
            board.push(("map".to_string(), map.text()));
        }
        board
    }

    /// Why the game is not a line game, in words.
    fn not_a_line_game(&self) -> String {
        format!("{} is not one", self.rules().name)
    }
}
