//! Rules games: the game a rules file (docs/rules.md) describes, analysed like the
//! built-in ones. The analyzer holds the rules; a position carries its board (and,
//! for map games, the map), so a rules setup has no variant parameters.
//!
//! The solver is the catalog's [`crate::catalog::policy::rules_policy`]:
//!
//! | the rules allow                         | solver                                   |
//! |-----------------------------------------|------------------------------------------|
//! | a `[score]`                             | every position's exact margin, by a memo kept per board |
//! | no position can come back               | alpha-beta, one searcher kept per board  |
//! | anything else                           | a whole solve of the index of the position's pieces (bit rows for a pursuit, else retrograde), kept and reused for positions with no more pieces |
//! | a tablebase of the rules is served      | the tablebase, for the pieces it covers  |
//! | an opening book is given (line games)   | the search, looking the book up first; a position in the book says `opening book` |

use super::score::{analysis_of_scores, scored_line, ScoredLine};
use super::{
    analysis_of, bad_position, listed, listing_of, no_variant, solve_or_check, Analyzer, Mode, Shared, CACHED,
};
use crate::catalog::{key, CatalogGame, Solver, WholeSolver};
use crate::{Analysis, AnalysisError, GameKind, Setup};
use gsolve_engine::score::ScoreMemo;
use gsolve_engine::search::SearchError;
use gsolve_engine::ScoreValue;
use gsolve_engine::{Game, MemoError, Observer, Solution, ValueLookup, Variant};
use gsolve_games::notation::PlainNotation;
use gsolve_rules::book::OpeningBook;
use gsolve_rules::flips::{FlipSearch, Limits as FlipLimits};
use gsolve_rules::{Rules, RulesGame, RulesPosition};
use std::sync::{Arc, Mutex};

/// What the analyzer keeps of rules games between analyses.
#[derive(Default)]
pub(super) struct RulesState {
    /// The rules given, or those of the served tablebase.
    pub(super) rules: Option<Arc<Rules>>,
    /// The position a rules game starts from when no board is asked for, if not the
    /// rules' own start ([`Analyzer::with_rules_start`]).
    start: Option<String>,
    /// The opening book searches look positions up in first (line games on its
    /// board).
    book: Option<Arc<OpeningBook>>,
    /// Whole-game solves with the solver that answered, most recent last.
    whole: Mutex<Vec<Arc<WholeRules>>>,
    /// The memo of exact margins of a game with a score, for the last board.
    scores: Mutex<Option<(BoardKey, Arc<Mutex<Margins>>)>>,
    /// The margin search of a flip game, for the last board.
    flips: Mutex<Option<(BoardKey, Arc<FlipSearch>)>>,
}

/// A game with a score and the exact values of the positions searched so far.
struct Margins {
    game: RulesGame,
    memo: ScoreMemo<RulesGame>,
}

/// A rules game solved whole, and the solver that answered.
type WholeRules = (RulesGame, Solution, WholeSolver);

/// A rules game's parameters without its piece limits: the rules and the board.
type BoardKey = Vec<(String, String)>;

fn board_key(game: &RulesGame) -> BoardKey {
    let mut board = game.parameters();
    board.retain(|(k, _)| k != key::PIECES);
    board
}

/// True when `game`'s index holds `position` (or the rules value it: a position
/// where the game is over needs no index).
fn covers(game: &RulesGame, position: &RulesPosition) -> bool {
    game.terminal(position).is_some()
        || game.placement_index().is_ok_and(|index| index.tier_of(&game.counts(position)).is_some())
}

impl Analyzer {
    /// An analyzer for the game of a rules file (setups of [`GameKind::Rules`]), and
    /// for the built-in games as [`Analyzer::new`].
    pub fn with_rules(limits: super::Limits, rules: Arc<Rules>) -> Self {
        let mut analyzer = Analyzer::new(limits);
        analyzer.rules.rules = Some(rules);
        analyzer
    }

    /// The same analyzer with `position` as the rules game's start (for rules that
    /// give none, such as those whose board is a map), checked as a setup.
    pub fn with_rules_start(mut self, position: &str) -> Result<Self, AnalysisError> {
        let setup = self.check(&Setup::new(GameKind::Rules, position))?;
        self.rules.start = Some(setup.position);
        Ok(self)
    }

    /// The same analyzer answering positions of `book` (an opening book of its
    /// rules: [`crate::book`]) from the book: on the book's board, a search looks a
    /// position up before searching. Refused when the book was built for other
    /// rules.
    pub fn with_book(mut self, book: Arc<OpeningBook>) -> Result<Self, AnalysisError> {
        let rules = self.rules_needed()?;
        let built_for = book.board().iter().find(|(k, _)| k == "rules").map(|(_, text)| text.as_str());
        if built_for != Some(gsolve_rules::escape_text(&rules.text).as_str()) {
            return Err(AnalysisError::Book(format!(
                "the book was built for other rules than those of {} (a book stores its rules: give it alone, without the rules file)",
                rules.name
            )));
        }
        self.rules.book = Some(book);
        Ok(self)
    }

    /// The opening book, if one was given ([`Analyzer::with_book`]).
    pub fn book(&self) -> Option<&Arc<OpeningBook>> {
        self.rules.book.as_ref()
    }

    /// The rules of [`GameKind::Rules`] setups, if the analyzer has any (given, or
    /// those of its tablebase).
    pub fn rules(&self) -> Option<&Arc<Rules>> {
        self.rules.rules.as_ref()
    }

    fn rules_needed(&self) -> Result<&Arc<Rules>, AnalysisError> {
        self.rules().ok_or(AnalysisError::NoRules)
    }

    /// The start of the rules on a board: `rows` and `cols`, or `map` (rows joined
    /// by `/`) for rules whose board is a map, or the rules' own start board when
    /// none is given.
    pub(super) fn rules_start(&self, parameters: &[(String, String)]) -> Result<Setup, AnalysisError> {
        let rules = self.rules_needed()?;
        if let (Some(start), true) = (&self.rules.start, parameters.is_empty()) {
            return Ok(Setup::new(GameKind::Rules, start.clone()));
        }
        // With a book and no board asked for: the book's board.
        let book_board: Vec<(String, String)>;
        let parameters = match &self.rules.book {
            Some(book) if parameters.is_empty() => {
                book_board = book.board().iter().filter(|(k, _)| k != "rules").cloned().collect();
                &book_board[..]
            }
            _ => parameters,
        };
        let get = |key: &str| parameters.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        if let Some((unknown, _)) = parameters.iter().find(|(k, _)| GameKind::Rules.entry().parameter(k).is_none()) {
            return Err(AnalysisError::BadVariant(format!(
                "rules: unknown board parameter {unknown:?} (expected rows and cols, or map)"
            )));
        }
        let number = |key: &str| -> Result<Option<u32>, AnalysisError> {
            get(key)
                .map(|text| {
                    text.parse::<u32>().ok().filter(|n| n.to_string() == text).ok_or_else(|| {
                        AnalysisError::BadVariant(format!(
                            "rules: {key} = {} must be a whole number",
                            gsolve_games::text::excerpt(text)
                        ))
                    })
                })
                .transpose()
        };
        let size = match (number(key::ROWS)?, number(key::COLS)?) {
            (Some(r), Some(c)) => Some((r, c)),
            (None, None) => None,
            _ => return Err(AnalysisError::BadVariant("rules: rows and cols go together".into())),
        };
        let map = match get(key::MAP) {
            Some(line) => Some(
                gsolve_rules::map_from_line(rules, line)
                    .map_err(|e| AnalysisError::BadVariant(format!("rules: the map: {e}")))?,
            ),
            None => None,
        };
        let start = gsolve_rules::setup(rules.clone(), size, map, None)
            .map_err(|e| AnalysisError::BadVariant(format!("{}: {e}", rules.name)))?;
        Ok(Setup::new(GameKind::Rules, start.game.format_position(&start.position)))
    }

    /// The games this analyzer offers: the built-in ones, and the rules game when
    /// it has rules.
    pub fn games(&self) -> Vec<GameKind> {
        let rules = self.rules().is_some().then_some(GameKind::Rules);
        GameKind::ALL.into_iter().chain(rules).collect()
    }

    /// A setup to start from: [`GameKind::example`] for a built-in game, the rules'
    /// start for a rules game (on the served tablebase's board, if any).
    pub fn example(&self, game: GameKind) -> Result<Setup, AnalysisError> {
        match (game, self.tablebase_board()) {
            (GameKind::Rules, Some((GameKind::Rules, board))) => self.rules_start(&board),
            (GameKind::Rules, _) => self.rules_start(&[]),
            _ => Ok(game.example()),
        }
    }

    /// A title for menus: the rules' name for a rules game.
    pub fn title(&self, game: GameKind) -> String {
        match (game, self.rules()) {
            (GameKind::Rules, Some(rules)) => rules.title.clone(),
            _ => game.title().to_string(),
        }
    }

    /// The names of the sides: `["white", "black"]` for pawns; for a rules game the
    /// rules' names, in the order the file gives its sides.
    pub fn sides(&self, game: GameKind) -> [&'static str; 2] {
        match (game, self.rules()) {
            (GameKind::Rules, Some(rules)) => rules.sides.each_ref().map(|side| gsolve_rules::intern(&side.name)),
            _ => game.entry().side_names(),
        }
    }

    /// Which side (0 or 1, in the order of [`Analyzer::sides`]) a piece drawn as
    /// `letter` belongs to, for a rules game; `None` for any other character.
    pub fn piece_side(&self, game: GameKind, letter: char) -> Option<usize> {
        if game != GameKind::Rules {
            return None;
        }
        self.rules()?.kinds.iter().find_map(|kind| kind.letters.iter().position(|&l| l == Some(letter)))
    }

    /// Every piece letter of the rules with its side (0 or 1, as
    /// [`Analyzer::sides`]) and a description: `('W', 0, "white man")`.
    pub fn rules_pieces(&self) -> Vec<(char, usize, String)> {
        let Some(rules) = self.rules() else { return Vec::new() };
        let mut out = Vec::new();
        for kind in &rules.kinds {
            for (side, letter) in kind.letters.iter().enumerate() {
                if let Some(letter) = letter {
                    let side_name = &rules.sides[side].name;
                    // "queen", not "queen queen", where the kind is named after its side.
                    let described =
                        if *side_name == kind.name { side_name.clone() } else { format!("{side_name} {}", kind.name) };
                    out.push((*letter, side, described));
                }
            }
        }
        out
    }

    /// Checks and analyses a rules setup.
    pub(super) fn rules_game(&self, setup: &Setup, mode: Mode<'_>) -> Result<Option<Analysis>, AnalysisError> {
        no_variant(setup, "the position gives the board")?;
        let text = setup.position.as_str();
        match self.stored::<RulesGame>() {
            Some(t) => {
                let game = t.game();
                let position = game.parse_position(text).map_err(|e| bad_position(text, e))?;
                if let Mode::List(out) = mode {
                    return listed(out, setup, game, &position);
                }
                if !covers(game, &position) {
                    let limits = game.limits().unwrap_or_default();
                    return Err(AnalysisError::Tablebase(format!(
                        "the tablebase holds positions of up to {} pieces of each kind ({}); this position has {}",
                        limits.iter().map(u8::to_string).collect::<Vec<_>>().join(", "),
                        game.groups().iter().map(|g| g.letter.to_string()).collect::<Vec<_>>().join(", "),
                        game.counts(&position).iter().map(u8::to_string).collect::<Vec<_>>().join(", "),
                    )));
                }
                return solve_or_check(mode, |_| analysis_of(setup, game, t, &position, "tablebase"));
            }
            None if self.tablebase_board().is_some() => return Err(self.tablebase_mismatch(setup, &[])),
            None => {}
        }
        let rules = self.rules_needed()?;
        let set = gsolve_rules::setup(rules.clone(), None, None, Some(text)).map_err(|e| bad_position(text, e))?;
        let (game, position) = (set.game, set.position);
        if let Mode::List(out) = mode {
            let mut listing = listing_of(setup, &game, &position);
            if game.is_scored() && listing.over.is_some() {
                listing.score = Some(gsolve_engine::Scored::final_margin(&game, &position));
            }
            let _ = out.set(listing);
            return Ok(None);
        }
        match game.policy(&self.limits)?.position {
            Solver::Search => solve_or_check(mode, |observer| {
                let booked = self.rules.book.as_ref().is_some_and(|book| {
                    game.book_fits(book).is_ok() && game.book_key(&position).is_some_and(|key| book.get(key).is_some())
                });
                let searcher = self.rules_searcher(game);
                let analysis = self.analysis_by_search(setup, &searcher, &position, observer)?;
                Ok(if booked { Analysis { solver: "opening book", ..analysis } } else { analysis })
            }),
            Solver::Whole(_) => solve_or_check(mode, |observer| {
                let solved = self.rules_solved(game, &position, observer);
                analysis_of(setup, &solved.0, &solved.1, &position, Solver::Whole(solved.2).analysis_name())
            }),
            Solver::MarginSearch => solve_or_check(mode, |observer| {
                let search = self.flip_search(&game);
                let mut value_of = |p: &RulesPosition| self.flip_value(&game, &search, p, observer);
                analysis_of_scores(setup, &game, &position, Solver::MarginSearch.analysis_name(), &mut value_of)
            }),
            Solver::Margins => solve_or_check(mode, |_| {
                let margins = self.rules_margins(game);
                let mut margins = margins.lock().unwrap_or_else(|e| e.into_inner());
                let Margins { game, memo } = &mut *margins;
                let mut value_of =
                    |p: &RulesPosition| memo.search(game, p).map_err(|e| memo_error(&game.rules().name, e));
                analysis_of_scores(setup, game, &position, Solver::Margins.analysis_name(), &mut value_of)
            }),
        }
    }

    /// The value of a rules setup of a game with a score and its line of best
    /// play; `None` for a game without a score (its values are
    /// [`Analyzer::with_rules_values`]').
    pub fn rules_scored_line(
        &self,
        setup: &Setup,
        observer: Option<Observer<'_>>,
    ) -> Result<Option<ScoredLine>, AnalysisError> {
        self.check(setup)?;
        let text = setup.position.as_str();
        let rules = self.rules_needed()?;
        let set = gsolve_rules::setup(rules.clone(), None, None, Some(text)).map_err(|e| bad_position(text, e))?;
        let (mut line, end, game) = match game_policy(&set.game, &self.limits)? {
            Solver::MarginSearch => {
                let search = self.flip_search(&set.game);
                let game = &set.game;
                let mut value_of = |p: &RulesPosition| self.flip_value(game, &search, p, observer);
                let (line, end) = scored_line(game, &set.position, &mut value_of)?;
                (line, end, set.game)
            }
            Solver::Margins => {
                let margins = self.rules_margins(set.game);
                let mut margins = margins.lock().unwrap_or_else(|e| e.into_inner());
                let Margins { game, memo } = &mut *margins;
                let mut value_of =
                    |p: &RulesPosition| memo.search(game, p).map_err(|e| memo_error(&game.rules().name, e));
                let (line, end) = scored_line(game, &set.position, &mut value_of)?;
                (line, end, game.clone())
            }
            _ => return Ok(None),
        };
        let mut pieces = [0u32; 2];
        for (group, count) in game.groups().iter().zip(game.counts(&end)) {
            pieces[group.side] += count as u32;
        }
        line.pieces = Some(pieces);
        Ok(Some(line))
    }

    /// The flip search kept for `game`'s board, or a new one (a table of
    /// [`super::Limits::search_table_entries`] entries of 32 bytes).
    fn flip_search(&self, game: &RulesGame) -> Arc<FlipSearch> {
        let key = board_key(game);
        let mut kept = self.rules.flips.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, search)) = kept.as_ref() {
            if *k == key {
                return search.clone();
            }
        }
        let shape = game.flip_shape().expect("the policy chose the flip search for a flip game");
        let search = Arc::new(FlipSearch::new(shape, self.limits.search_table_entries.saturating_mul(32)));
        *kept = Some((key, search.clone()));
        search
    }

    /// The exact value of a position of a flip game: its final margin where
    /// play is over, else the search's, on every core within the node budget.
    fn flip_value(
        &self,
        game: &RulesGame,
        search: &FlipSearch,
        position: &RulesPosition,
        observer: Option<Observer<'_>>,
    ) -> Result<ScoreValue, AnalysisError> {
        if game.terminal(position).is_some() {
            return Ok(ScoreValue::over(gsolve_engine::Scored::final_margin(game, position)));
        }
        let (mine, theirs) = game.flip_sets(position);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let report = |p: gsolve_rules::flips::Progress| {
            if let Some(observer) = observer {
                observer(gsolve_engine::Progress::new("margin search", p.nodes, 0));
            }
        };
        let report: &(dyn Fn(gsolve_rules::flips::Progress) + Sync) = &report;
        let limits = FlipLimits { threads, budget: self.limits.max_search_nodes, observer: observer.map(|_| report) };
        search.value(mine, theirs, limits).map(|(value, _)| value).map_err(|e| {
            AnalysisError::TooLarge(format!(
                "{}: the margin search gave up after {} positions; this position is too hard to answer here",
                game.rules().name,
                e.nodes
            ))
        })
    }

    /// The memo kept for `game`'s board, or a new one.
    fn rules_margins(&self, game: RulesGame) -> Arc<Mutex<Margins>> {
        let key = board_key(&game);
        let mut kept = self.rules.scores.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, margins)) = kept.as_ref() {
            if *k == key {
                return margins.clone();
            }
        }
        let memo = ScoreMemo::with_limit(self.limits.memo_positions());
        let margins = Arc::new(Mutex::new(Margins { game, memo }));
        *kept = Some((key, margins.clone()));
        margins
    }

    /// The values that answer a rules setup, as [`Analyzer::analyze`] finds them by
    /// the catalog's policy (a whole solve kept for later positions, or the kept
    /// searcher with the position searched), handed to `read` with the game they
    /// belong to and the position: for reports that follow a line of play (`gsolve
    /// rules`, the contest commands' `--rules`). The analyzer's caches serve them.
    pub fn with_rules_values<T>(
        &self,
        setup: &Setup,
        observer: Option<Observer<'_>>,
        read: impl FnOnce(&RulesGame, &dyn ValueLookup<RulesGame>, &RulesPosition) -> T,
    ) -> Result<T, AnalysisError> {
        self.check(setup)?;
        let text = setup.position.as_str();
        let rules = self.rules_needed()?;
        let set = gsolve_rules::setup(rules.clone(), None, None, Some(text)).map_err(|e| bad_position(text, e))?;
        let (game, position) = (set.game, set.position);
        match game.policy(&self.limits)?.position {
            Solver::Margins | Solver::MarginSearch => Err(AnalysisError::Internal(format!(
                "{}: a game with a score has margins, not values alone (rules_scored_line)",
                rules.name
            ))),
            Solver::Search => {
                let searcher = self.rules_searcher(game);
                let searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
                searcher.set_node_limit(self.limits.max_search_nodes);
                searcher.value_with_progress(&position, observer).map_err(|e| match e {
                    SearchError::OutOfBudget { limit } => AnalysisError::TooLarge(format!(
                        "{}: the search gave up after {limit} positions; this position is too hard to answer here",
                        setup.game
                    )),
                    SearchError::Draw => AnalysisError::Internal(format!(
                        "{}: the search met a draw, which it cannot value",
                        searcher.game().rules().name
                    )),
                    e => AnalysisError::Internal(e.to_string()),
                })?;
                Ok(read(searcher.game(), &*searcher, &position))
            }
            Solver::Whole(_) => {
                let solved = self.rules_solved(game, &position, observer);
                Ok(read(&solved.0, &solved.1, &position))
            }
        }
    }

    /// The searcher kept for `game`'s board, or a new one: a search needs no index,
    /// so one searcher serves the whole board. With an opening book of this board,
    /// the search looks positions up in it first.
    fn rules_searcher(&self, game: RulesGame) -> Shared<RulesGame> {
        self.kept_searcher(board_key(&game), || match &self.rules.book {
            // A book of another board is not this game's: searched without it.
            Some(book) if game.book_fits(book).is_ok() => game.with_book(book.clone()).expect("a book that fits"),
            _ => game,
        })
    }

    /// A whole-game solve whose index holds `position`: one kept from an earlier
    /// analysis on the same board (a game played on keeps to the pieces it started
    /// with, or fewer), else `game` solved now.
    fn rules_solved(
        &self,
        game: RulesGame,
        position: &RulesPosition,
        observer: Option<Observer<'_>>,
    ) -> Arc<WholeRules> {
        let key = board_key(&game);
        {
            let kept = self.rules.whole.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(found) = kept.iter().rev().find(|s| board_key(&s.0) == key && covers(&s.0, position)) {
                return found.clone();
            }
        }
        // Solved without the lock held: another analysis may go on meanwhile.
        let (solution, solver) = game.solve_whole(observer);
        let made = Arc::new((game, solution, solver));
        let mut kept = self.rules.whole.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() >= CACHED {
            kept.remove(0);
        }
        kept.push(made.clone());
        made
    }
}

/// The solver the catalog's policy picks for a rules game.
fn game_policy(game: &RulesGame, limits: &super::Limits) -> Result<Solver, AnalysisError> {
    Ok(game.policy(limits)?.position)
}

/// A memo's failure as an analysis error: out of room is the user's (too large
/// here), a cycle or a position without a move the rules' (their game does not
/// end as a game with a score must).
fn memo_error(name: &str, e: MemoError) -> AnalysisError {
    match e {
        MemoError::OutOfRoom { limit } => AnalysisError::TooLarge(format!(
            "{name}: more than {limit} positions to value exactly here; a larger board needs the margin search"
        )),
        e => AnalysisError::BadPosition { position: name.to_string(), message: format!("the rules do not end: {e}") },
    }
}
