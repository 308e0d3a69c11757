//! A rules file on a board, as an engine [`Game`]: the rules compiled for the board
//! ([`Tables`]), the index over piece placements, and what the fast paths found in
//! the rules (a trail race, a mirror symmetry, children ranked without playing
//! moves), put together once.
//!
//! Why a thin composition: each part is built from the parts below it and reads
//! nothing of the game, so the module graph has no circle; the game answers the
//! engine's traits by handing a position to the part that knows (the moves to
//! [`crate::moves`], parents to [`crate::unmoves`], indices to
//! [`crate::index`]). The trait impls beyond [`Game`] are in `impls`, `search`
//! and `explain`.

use crate::bits::BitCore;
use crate::board::{Board, Group};
use crate::error::RulesError;
use crate::first_look::SetLook;
use crate::index::{Folds, PlacementIndex};
use crate::knowledge::Knowledge;
use crate::lines::book::{BookError, OpeningBook};
use crate::lines::LineGame;
use crate::moves;
use crate::position::{RulesPosition, MAX_PIECES};
use crate::race::Race;
use crate::scan::PlacementScan;
use crate::set_unmoves::SetUnmoves;
use crate::spec::Rules;
use crate::steps::Steps;
use crate::symmetry::{Fold, Symmetry};
use crate::tables::{check_counts, Tables};
use gsolve_engine::{Game, Outcome};
use std::sync::Arc;

pub use crate::moves::{RulesMove, DROP};
pub use crate::tables::{MAX_ALL_PIECES, MAX_HAND_SLOTS};

/// A game described by rules, on one board; its positions have room for `N`
/// pieces ([`RulesPosition`]).
#[derive(Clone, Debug)]
pub struct RulesGame<const N: usize = MAX_PIECES> {
    /// The rules compiled for the board: what moves and endings read.
    tables: Tables,
    /// The dense index over piece placements, for games without trails; else why
    /// there is none.
    index: Result<PlacementIndex, String>,
    /// The step graph when the game is a trail race (the snakes on a graph), for
    /// the search.
    race: Option<Arc<Race>>,
    /// The left-right reflection, when the rules and the board look the same in a
    /// mirror (the search keeps one of a position and its image).
    mirror: Option<Symmetry>,
    /// The side swap, when the two sides' rules are each other's image
    /// ([`crate::symmetry`]).
    side_swap: Option<Symmetry>,
    /// How positions fold into the index, where it keeps one of each orbit
    /// ([`crate::index`], "Folded by symmetry").
    fold: Option<Arc<Fold>>,
    /// The bit-set search, for games of the shape [`crate::lines`] takes.
    lines: Option<LineGame>,
    /// The bit-set search of step games, for games of the shape [`crate::bits`]
    /// takes.
    bits: Option<BitCore>,
    /// Children located without playing moves, for games of the shape
    /// [`crate::scan`] takes (built with the index).
    scan: Option<Arc<PlacementScan>>,
    /// Immediate wins read from the rules, for games of the shape
    /// [`crate::knowledge`] takes.
    knowledge: Option<Arc<Knowledge>>,
    /// The rays laid out for games whose parents are ranked from their child's
    /// pieces ([`crate::steps`]); `None` for other games.
    steps: Option<Arc<Steps>>,
    /// Retrograde's first look read from the groups' cell sets, for games of
    /// the shape [`crate::first_look::SetLook`] takes.
    set_look: Option<Arc<SetLook>>,
    /// Retrograde's parents walked on cell sets, for games of the shape
    /// [`SetUnmoves`] takes.
    set_unmoves: Option<Arc<SetUnmoves>>,
}

impl RulesGame {
    /// The game of `rules` on `board`, its index covering up to `limits[g]` pieces of
    /// each group (the counts of the position to solve, or of the start); without
    /// limits, the game has no index (search, or reading a position to learn them).
    pub fn new(rules: Arc<Rules>, board: Board, limits: Option<&[u8]>) -> Result<RulesGame, RulesError> {
        RulesGame::build(rules, board, limits, Folds::ALL)
    }

    /// [`RulesGame::new`], its index folded by those of the symmetries of the
    /// rules `folds` allows, where it can be ([`crate::index`], "Folded by
    /// symmetry"); a tablebase written before indexes were folded is read with
    /// [`Folds::NONE`].
    pub fn build(
        rules: Arc<Rules>,
        board: Board,
        limits: Option<&[u8]>,
        folds: Folds,
    ) -> Result<RulesGame, RulesError> {
        let tables = Tables::new(rules, board)?;
        if let Some(limits) = limits {
            check_counts(tables.rules(), tables.board(), limits)?;
        }
        let rules = tables.rules();
        let mirror = Symmetry::mirror(&tables);
        let side_swap = Symmetry::side_swap(&tables);
        let race = if rules.has_trails() { Race::of(&tables).map(Arc::new) } else { None };
        let index = match limits {
            _ if rules.has_trails() => {
                Err("a piece leaves a trail: positions include walls, which no index covers".to_string())
            }
            None => Err("no piece limits were given".to_string()),
            Some(limits) => PlacementIndex::new(
                &tables,
                limits,
                side_swap.as_ref().filter(|_| folds.side_swap),
                mirror.as_ref().filter(|_| folds.mirror),
                folds.royal_pair,
            ),
        };
        let fold = index
            .as_ref()
            .ok()
            .and_then(|index| Fold::of(index.folding(), side_swap.as_ref(), mirror.as_ref(), tables.board()))
            .map(Arc::new);
        // The fast paths rank children and parents themselves, unfolded.
        let scan = index
            .as_ref()
            .ok()
            .filter(|_| fold.is_none())
            .and_then(|index| PlacementScan::new(&tables, index))
            .map(Arc::new);
        let lines = LineGame::of(rules, tables.board(), mirror.is_some());
        let knowledge = Knowledge::of(&tables).map(Arc::new);
        let bits = BitCore::of(&tables, mirror.as_ref());
        let steps = index
            .as_ref()
            .ok()
            .filter(|index| fold.is_none() && crate::steps::ranks_parents(&tables, index))
            .map(|index| Arc::new(Steps::new(&tables, index)));
        let set_look = index
            .as_ref()
            .ok()
            .and_then(|index| {
                // As `Indexed::terminals_indexed` says, from the parts.
                let terminals_indexed = !tables.has_meetings() && index.holds_every_ending();
                SetLook::of(&tables, index, terminals_indexed)
            })
            .map(Arc::new);
        let set_unmoves = index
            .as_ref()
            .ok()
            .and_then(|index| SetUnmoves::of(&tables, index, fold.as_deref(), set_look.is_some()))
            .map(Arc::new);
        Ok(RulesGame {
            tables,
            index,
            race,
            mirror,
            side_swap,
            fold,
            lines,
            bits,
            scan,
            knowledge,
            steps,
            set_look,
            set_unmoves,
        })
    }

    /// The same game with an index for up to `limits[g]` pieces of each group.
    pub fn with_limits(&self, limits: &[u8]) -> Result<RulesGame, RulesError> {
        RulesGame::new(self.rules().clone(), self.board().clone(), Some(limits))
    }

    /// The same game with positions of room for `M` pieces, if its index holds no
    /// more (`None` without an index, or with more pieces). Its indices are this
    /// game's: a solution of one is a solution of the other. Solvers take the
    /// smallest room that fits ([`crate::compact`]).
    pub fn compact<const M: usize>(&self) -> Option<RulesGame<M>> {
        if self.index.as_ref().ok()?.max_pieces() > M {
            return None;
        }
        Some(RulesGame {
            tables: self.tables.clone(),
            index: self.index.clone(),
            race: self.race.clone(),
            mirror: self.mirror.clone(),
            side_swap: self.side_swap.clone(),
            fold: self.fold.clone(),
            lines: self.lines.clone(),
            bits: self.bits.clone(),
            scan: self.scan.clone(),
            knowledge: self.knowledge.clone(),
            steps: self.steps.clone(),
            set_look: self.set_look.clone(),
            set_unmoves: self.set_unmoves.clone(),
        })
    }
}

impl<const N: usize> RulesGame<N> {
    /// The pieces of each group on the board, then (in games with hands) the
    /// pieces in each hand slot: the count vector of the position's tier.
    pub fn counts(&self, p: &RulesPosition<N>) -> Vec<u8> {
        self.tables.counts(p)
    }

    /// The groups of the hand slots, in slot order.
    pub fn hand_groups(&self) -> &[usize] {
        self.tables.hand_groups()
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        self.tables.rules()
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.tables.board()
    }

    /// The groups (side, kind, letter) in index order.
    pub fn groups(&self) -> &[Group] {
        &self.board().groups
    }

    /// The piece limits the index covers.
    pub fn limits(&self) -> Option<&[u8]> {
        self.index.as_ref().ok().map(|i| i.limits())
    }

    /// Are the tier sweeps' children ranked move by move, without playing moves
    /// (the shape [`crate::scan`] describes: pawn chess, Breakthrough)?
    pub fn scans_children(&self) -> bool {
        self.scan.is_some()
    }

    /// Does retrograde's first look at a position ([`crate::first_look`]) read
    /// each piece's moves from two bit sets, its targets onto empty cells and
    /// onto enemies ([`Tables::short_targets`]: every ray one cell long or a
    /// leap, boards of at most 128 cells), rather than walk its rays? Dobutsu
    /// shogi, Fox and Hounds, steppers with drops. (Where the pieces only step
    /// on a board of more than 64 cells, the step games' lists are read
    /// instead: [`crate::steps`].)
    pub fn first_look_from_bit_sets(&self) -> bool {
        use gsolve_engine::Indexed;
        self.set_look.is_some()
            || (self.index.is_ok()
                && self.steps().is_none()
                && crate::first_look::applies(&self.tables, self.terminals_indexed())
                && !self.tables.short_target_sets().is_empty())
    }

    /// The dense index, if the game has one (no trails, and it fits in 64 bits).
    pub fn placement_index(&self) -> Result<&PlacementIndex, &str> {
        self.index.as_ref().map_err(|why| why.as_str())
    }

    /// Calls `f` with each legal move of a position where play goes on, each
    /// distinct move once.
    pub fn for_each_move(&self, p: &RulesPosition<N>, f: impl FnMut(RulesMove)) {
        moves::for_each(&self.tables, p, f)
    }

    /// Do pieces only step ([`Tables::steps_only`]) and does the side to move of
    /// `p` move one piece a turn?
    #[inline]
    fn steps_one_piece(&self, p: &RulesPosition<N>) -> bool {
        self.tables.steps_only() && self.tables.turn_of(p.to_move()) == crate::spec::Turn::OnePiece
    }

    /// The rules compiled for the board.
    #[inline]
    pub(crate) fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The index, if the game has one.
    #[inline]
    pub(crate) fn index(&self) -> Option<&PlacementIndex> {
        self.index.as_ref().ok()
    }

    /// The trail race the game is, if it is one.
    pub(crate) fn race(&self) -> Option<&Race> {
        self.race.as_deref()
    }

    /// The left-right reflection, if the game looks the same in a mirror.
    pub(crate) fn mirror(&self) -> Option<&Symmetry> {
        self.mirror.as_ref()
    }

    /// The side swap, if the sides' rules are each other's image.
    pub(crate) fn side_swap(&self) -> Option<&Symmetry> {
        self.side_swap.as_ref()
    }

    /// How positions fold into the index, if it keeps one of each orbit.
    pub(crate) fn fold(&self) -> Option<&Fold> {
        self.fold.as_deref()
    }

    /// The symmetries found from the rules ([`crate::symmetry`]): the mirror,
    /// then the side swap, those that hold.
    pub fn symmetries(&self) -> impl Iterator<Item = &Symmetry> {
        self.mirror.iter().chain(self.side_swap.iter())
    }

    /// The bit-set search, if the game is a line game ([`crate::lines`]).
    pub(crate) fn lines(&self) -> Option<&LineGame> {
        self.lines.as_ref()
    }

    /// For a line game (drops, lines, a full board: docs/rules.md), the positions
    /// its bit-set search has visited and the bytes of its table; `None` for other
    /// games, or before a search.
    pub fn line_search_stats(&self) -> Option<(u64, usize)> {
        self.lines.as_ref()?.stats()
    }

    /// For a line game, the key of `p` in an opening book ([`crate::book`]); `None`
    /// for other games and for positions the line search does not take (a line
    /// on the board).
    pub fn book_key(&self, p: &RulesPosition<N>) -> Option<u64> {
        self.lines.as_ref()?.book_key(p)
    }

    /// For a line game, an opening book: the value of every position at most
    /// `plies` moves from `start` ([`crate::book`]), and, when `play.plies` is
    /// greater, of every position that a game against `play.opponent` analyses
    /// before that ply and of each of its moves (module `lines::play`: gsolve's
    /// moves as `play` makes them; its opponent's every move, or every best
    /// move). Searches each position of the last ply of the first part, several
    /// at once: from Connect 4's empty 7 × 6 board, a quarter of an hour for 2
    /// plies, about five times that a ply more (docs/rules.md, "Opening books").
    pub fn build_book(
        &self,
        start: &RulesPosition<N>,
        plies: u32,
        play: crate::book::LinesOfPlay,
        observer: Option<gsolve_engine::Observer<'_>>,
    ) -> Result<OpeningBook, BookError> {
        let lines = self.lines.as_ref().ok_or_else(|| BookError::NotALineGame(self.not_a_line_game()))?;
        if play.plies > crate::lines::book::MAX_PLAY_PLIES {
            return Err(BookError::TooManyPlayPlies(play.plies));
        }
        let entries = lines.book_entries(start, plies, observer)?;
        if play.plies <= plies {
            return OpeningBook::from_parts(self.book_board(), plies, entries);
        }
        let every = Arc::new(OpeningBook::from_parts(self.book_board(), plies, entries.clone())?);
        let mut all: std::collections::HashMap<u64, gsolve_engine::Value> = entries.into_iter().collect();
        let on_lines = crate::lines::play::entries(self, &lines.with_book(Some(every)), start, play, observer);
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
        let lines = self.lines.as_ref().expect("a line game: the book fits");
        self.lines = Some(lines.with_book(Some(book)));
        Ok(self)
    }

    /// Whether `book` was built for this game: a line game, these rules on this
    /// board; else why not.
    pub fn book_fits(&self, book: &OpeningBook) -> Result<(), BookError> {
        if self.lines.is_none() {
            return Err(BookError::NotALineGame(self.not_a_line_game()));
        }
        if book.board() != self.book_board() {
            let short = |board: &[(String, String)]| {
                let get = |key: &str| board.iter().find(|(k, _)| k == key).map_or("?", |(_, v)| v.as_str());
                let rules = board.iter().find(|(k, _)| k == "rules").map_or(String::new(), |(_, text)| {
                    let name = crate::unescape_text(text)
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
            ("rules".to_string(), crate::escape_text(&self.rules().text)),
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

    /// The same game, its search told nothing the rules say of immediate wins
    /// (module `knowledge`: no [`gsolve_engine::search::SearchHooks::wins_at_once`],
    /// no threats in the move order) and searched by the engine, not by the
    /// bit-set core of step games: the plain search the tests and the
    /// measurements compare with.
    pub fn without_search_knowledge(&self) -> RulesGame<N> {
        RulesGame { knowledge: None, bits: None, ..self.clone() }
    }

    /// The same game searched by the engine's alpha-beta (with the rules'
    /// immediate wins), not by the bit-set core of step games ([`crate::bits`]):
    /// the general path the core is tested and measured against.
    pub fn without_bit_core(&self) -> RulesGame<N> {
        RulesGame { bits: None, ..self.clone() }
    }

    /// The same game solved by retrograde without reading cell sets: its
    /// first look and its parents' walk from piece lists ([`crate::steps`]
    /// where the pieces only step), not from sets ([`crate::set_unmoves`]):
    /// the paths the tests compare with where both apply.
    pub fn without_cell_sets(&self) -> RulesGame<N> {
        RulesGame { set_look: None, set_unmoves: None, ..self.clone() }
    }

    /// Is the game searched by the bit-set core of step games (docs/rules.md,
    /// "Speed": Breakthrough, pawn chess)?
    pub fn has_bit_core(&self) -> bool {
        self.bits.is_some()
    }

    /// For a game searched by the bit-set core of step games, the positions it
    /// has visited and the bytes of its table; `None` for other games, or
    /// before a search.
    pub fn bit_search_stats(&self) -> Option<(u64, usize)> {
        self.bits.as_ref()?.stats()
    }

    /// For a game searched by the bit-set core of step games, how many of its
    /// null-window probes were searched by several threads (`-j`, rayon's
    /// pool); `None` for other games, or before a search.
    pub fn bit_search_helped_probes(&self) -> Option<u64> {
        self.bits.as_ref()?.helped_probes()
    }

    /// The bit-set core of step games, if the game has its shape.
    pub(crate) fn bits(&self) -> Option<&BitCore> {
        self.bits.as_ref()
    }

    /// Immediate wins read from the rules, where the game has that shape.
    pub(crate) fn knowledge(&self) -> Option<&Knowledge> {
        self.knowledge.as_deref()
    }

    /// Are parents ranked from their child's pieces, without building them (the
    /// games whose pieces only step: [`crate::steps`])?
    pub fn ranks_parents(&self) -> bool {
        self.steps.is_some()
    }

    /// The rays laid out for [`crate::steps`], where the game ranks its parents.
    #[inline]
    pub(crate) fn steps(&self) -> Option<&Steps> {
        self.steps.as_deref()
    }

    /// The layout of the first look from cell sets, where the game has its
    /// shape ([`SetLook::of`]).
    pub(crate) fn set_look(&self) -> Option<&SetLook> {
        self.set_look.as_deref()
    }

    /// The layout of the parents' walk on cell sets, where the game has its
    /// shape ([`SetUnmoves::of`]).
    pub(crate) fn set_unmoves(&self) -> Option<&SetUnmoves> {
        self.set_unmoves.as_deref()
    }

    /// The number of moves as the general move generator gives them (not the
    /// step games' count): for tests comparing the two.
    fn moves_by_generator(&self, p: &RulesPosition<N>) -> usize {
        let mut n = 0;
        self.for_each_move(p, |_| n += 1);
        n
    }

    /// [`Game::terminal`] with every ending checked in turn, never from the
    /// endings' table: for tests comparing the two.
    #[doc(hidden)]
    pub fn terminal_by_checks(&self, p: &RulesPosition<N>) -> Option<Outcome> {
        let endings = self.tables.endings();
        match endings.ending_by_checks(p) {
            Some(result) => Some(result),
            None if endings.stuck() != Outcome::Loss && self.moves_by_generator(p) == 0 => Some(endings.stuck()),
            None => None,
        }
    }

    /// The children ranked without playing moves, where the game has that shape.
    pub(crate) fn scan(&self) -> Option<&PlacementScan> {
        self.scan.as_deref()
    }
}

impl<const N: usize> Game for RulesGame<N> {
    type Position = RulesPosition<N>;
    type Move = RulesMove;

    /// The endings, the side that just moved first: a meeting, then each side's
    /// `reach`, `line` and `no-pieces` endings, then a full board, then (when the
    /// rules make being stuck anything but a loss) the side to move having no move.
    fn terminal(&self, p: &RulesPosition<N>) -> Option<Outcome> {
        moves::terminal(&self.tables, p)
    }

    fn moves(&self, p: &RulesPosition<N>, moves: &mut Vec<RulesMove>) {
        self.for_each_move(p, |m| moves.push(m));
    }

    #[inline]
    fn play(&self, p: &RulesPosition<N>, m: &RulesMove) -> RulesPosition<N> {
        moves::play(&self.tables, p, m)
    }

    /// Where pieces only step and a side moves one piece, played from the list
    /// without building the moves ([`moves::for_each_step_child`]).
    #[inline]
    fn for_each_child(&self, p: &RulesPosition<N>, mut f: impl FnMut(RulesPosition<N>)) {
        if self.steps_one_piece(p) {
            return moves::for_each_step_child(&self.tables, p, f);
        }
        moves::for_each(&self.tables, p, |m| f(moves::play(&self.tables, p, &m)));
    }

    /// Counted without playing them.
    #[inline]
    fn move_count(&self, p: &RulesPosition<N>) -> usize {
        if self.steps_one_piece(p) {
            return moves::step_move_count(&self.tables, p);
        }
        let mut n = 0;
        self.for_each_move(p, |_| n += 1);
        n
    }
}
