//! Choosing a solver for a setup, and caching whole-game solves between requests.

use crate::catalog::{self, key, open_tablebase, policy, CatalogGame, Solver, TablebaseVisitor, WholeSolver};
use crate::draw::Draw;
use crate::{Analysis, AnalysisError, Board, GameKind, LegalMove, Listing, MoveInfo, Setup};
use gsolve_engine::search::{SearchError, SearchHooks, Searcher};
use gsolve_engine::{line, Game, Observer, Solution, Value, ValueLookup};
use gsolve_games::notation::{Coord, Explain, PlainNotation};
use gsolve_games::pawns::Pawns;
use gsolve_games::snakes::{self, Mask, Mask256, Snakes, SnakesBoard, SnakesPosition};
use gsolve_tablebase::{GameTablebase, Tablebase};
use std::any::{Any, TypeId};
use std::cell::OnceCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

mod rules;
mod score;
pub use score::ScoredLine;

/// How much work one analysis may take, the same for every game (each catalog
/// entry states what its own search takes on: [`catalog::SearchBound`]). Requests
/// beyond them are refused with [`AnalysisError::TooLarge`] before any work starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest index a whole-game solve may have (chase: 2n⁴; Queen's Case: twice
    /// the square of the open cells). About 2 bytes a position.
    pub max_positions: u64,
    /// Entries of each alpha-beta search's transposition table (about 32 to 64
    /// bytes each).
    pub search_table_entries: usize,
    /// Positions one alpha-beta search (of the position, or of one child) may visit
    /// before giving up with [`AnalysisError::TooLarge`]; `None`: no limit. A time
    /// budget that does not depend on the machine's speed.
    pub max_search_nodes: Option<u64>,
}

impl Default for Limits {
    /// For the command line and Python, where the user waits: whole solves of up to
    /// 200 million positions, searches without a node budget: the largest games
    /// each answers while the user waits.
    fn default() -> Self {
        Limits {
            max_positions: 200_000_000,
            search_table_entries: gsolve_engine::search::DEFAULT_TABLE_ENTRIES,
            max_search_nodes: None,
        }
    }
}

impl Limits {
    /// For an interactive page, answering within about a second: chase up to
    /// n = 47, Queen's Case up to about 2,200 open cells, and at most a million
    /// positions a search (with a node budget, each entry's search takes on
    /// smaller boards: [`catalog::SearchBound::budgeted_cells`]).
    pub fn interactive() -> Self {
        Limits { max_positions: 10_000_000, search_table_entries: 1 << 20, max_search_nodes: Some(1_000_000) }
    }

    /// The most positions a memo of exact margins keeps (a game with a score,
    /// [`catalog::Solver::Margins`]): the node budget where there is one, else a
    /// twentieth of [`Limits::max_positions`] (each position is kept whole, a
    /// few hundred bytes).
    pub fn memo_positions(&self) -> usize {
        self.max_search_nodes.unwrap_or(self.max_positions / 20) as usize
    }
}

/// Whole-game solves kept per game (then the cache starts over).
const CACHED: usize = 8;

/// A tablebase opened for a catalog game, typed by the game the file names
/// ([`Analyzer::stored`] gives it back typed).
trait StoredTable: Send + Sync {
    /// The game it holds.
    fn kind(&self) -> GameKind;
    /// Its board, as [`Analyzer::start`] takes it.
    fn board_parameters(&self) -> Vec<(String, String)>;
    fn as_any(&self) -> &dyn Any;
}

impl<G: CatalogGame> StoredTable for GameTablebase<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn board_parameters(&self) -> Vec<(String, String)> {
        self.game().board_parameters()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Boxes a tablebase of whatever game it holds.
struct Boxed;

impl TablebaseVisitor for Boxed {
    type Output = Box<dyn StoredTable>;
    fn visit<G: CatalogGame>(self, tablebase: GameTablebase<G>) -> Self::Output {
        Box::new(tablebase)
    }
}

/// Analyses setups of every game; thread-safe, with whole-game solves cached so
/// that playing through a game costs one solve.
pub struct Analyzer {
    limits: Limits,
    tablebase: Option<Box<dyn StoredTable>>,
    /// Whole-game solves by game and variant ([`Solved`] of the game's type).
    whole: Mutex<HashMap<VariantKey, Arc<dyn Any + Send + Sync>>>,
    /// The last alpha-beta searcher of each game type, with its table and the key
    /// of its board ([`Kept`] of the game's type, by its [`TypeId`]): playing on
    /// through a game asks about positions its table has mostly seen.
    searchers: Mutex<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
    /// The rules of [`GameKind::Rules`] setups, and their solves.
    rules: rules::RulesState,
}

/// An alpha-beta searcher that owns its game, kept between analyses.
type Kept<G> = Searcher<'static, G, G>;

/// A kept searcher, shared by the threads that analyse (one at a time).
type Shared<G> = Arc<Mutex<Kept<G>>>;

/// A game and its variant's parameters: what a whole solve is kept by.
type VariantKey = (GameKind, Vec<(String, String)>);

/// A game solved whole, with the solver that did it.
type Solved<G> = (G, Solution, WholeSolver);

fn bad_position(position: &str, error: impl std::fmt::Display) -> AnalysisError {
    AnalysisError::BadPosition { position: position.to_string(), message: error.to_string() }
}

/// The parameter `key` of a variant, or an error naming what the game needs.
fn parameter<'a>(setup: &'a Setup, key: &str, allowed: &[&str]) -> Result<&'a str, AnalysisError> {
    if let Some((unknown, _)) = setup.variant.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        return Err(AnalysisError::BadVariant(format!(
            "{}: unknown variant parameter {unknown:?} (expected {})",
            setup.game,
            allowed.join(", ")
        )));
    }
    setup
        .variant
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .ok_or_else(|| AnalysisError::BadVariant(format!("{}: the variant parameter {key:?} is missing", setup.game)))
}

fn no_variant(setup: &Setup, why: &str) -> Result<(), AnalysisError> {
    match setup.variant.first() {
        Some((key, _)) => {
            Err(AnalysisError::BadVariant(format!("{} takes no variant parameter ({key:?} given): {why}", setup.game)))
        }
        None => Ok(()),
    }
}

/// What an analysis call is asked to do.
#[derive(Clone, Copy)]
enum Mode<'o> {
    /// Check the setup (game, variant, position, limits) and stop before solving.
    Check,
    /// Solve and analyse, reporting progress.
    Solve(Option<Observer<'o>>),
    /// List the position's legal moves, solving nothing, into the cell.
    List(&'o OnceCell<Listing>),
}

impl Analyzer {
    /// An analyzer that solves what it is asked, within `limits`.
    pub fn new(limits: Limits) -> Self {
        Analyzer {
            limits,
            tablebase: None,
            whole: Mutex::default(),
            searchers: Mutex::default(),
            rules: rules::RulesState::default(),
        }
    }

    /// An analyzer that answers from a tablebase (for its game and variant only).
    pub fn with_tablebase(limits: Limits, path: &Path) -> Result<Self, gsolve_tablebase::Error> {
        let stored = open_tablebase(Tablebase::open(path)?, Boxed)?;
        let mut analyzer = Analyzer::new(limits);
        analyzer.tablebase = Some(stored);
        analyzer.rules.rules = analyzer.stored::<gsolve_rules::RulesGame>().map(|t| t.game().rules().clone());
        Ok(analyzer)
    }

    /// The tablebase, if it holds the game `G`.
    fn stored<G: CatalogGame>(&self) -> Option<&GameTablebase<G>> {
        self.tablebase.as_ref()?.as_any().downcast_ref()
    }

    /// With a tablebase: the analysis of `position` from it when it holds `game`'s
    /// variant, else the error that it holds another. `None` without a tablebase.
    fn answer_from_tablebase<G: CatalogGame>(
        &self,
        setup: &Setup,
        mode: Mode<'_>,
        game: &G,
        position: &G::Position,
    ) -> Option<Result<Option<Analysis>, AnalysisError>> {
        self.tablebase.as_ref()?;
        Some(match self.stored::<G>() {
            Some(t) if t.game().parameters() == game.parameters() => {
                solve_or_check(mode, |_| analysis_of(setup, t.game(), t, position, "tablebase"))
            }
            _ => Err(self.tablebase_mismatch(setup, &game.board_parameters())),
        })
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// With a tablebase: its game, and the board parameters [`Analyzer::start`] takes
    /// for it (`rows` and `cols` for pawns, `size` for chase, `map` for Queen's Case).
    pub fn tablebase_board(&self) -> Option<(GameKind, Vec<(String, String)>)> {
        self.tablebase.as_ref().map(|t| (t.kind(), t.board_parameters()))
    }

    /// The setup with the tablebase's variant filled in when it names the
    /// tablebase's game and gives no variant of its own (a chase position without
    /// `size` is on the tablebase's board). Any other setup is returned as it is.
    pub fn complete(&self, setup: &Setup) -> Setup {
        match self.tablebase_board() {
            Some((game, board)) if game == setup.game && setup.variant.is_empty() => {
                // Only the parameters a position needs travel with it (a pawns
                // position carries its board).
                Setup { variant: game.entry().variant_of(&board), ..setup.clone() }
            }
            _ => setup.clone(),
        }
    }

    /// Checks a setup as [`Analyzer::analyze`] would (game, variant, position,
    /// limits, the tablebase's game and variant), without solving anything. Returns
    /// the setup as it would be analysed ([`Analyzer::complete`]).
    pub fn check(&self, setup: &Setup) -> Result<Setup, AnalysisError> {
        let setup = self.complete(setup);
        self.run(&setup, Mode::Check)?;
        Ok(setup)
    }

    /// The start of a game on a board: `parameters` are `rows` and `cols` for pawns
    /// and snakes (snakes in opposite corners of an open board), `size` for chase
    /// (white top-left, black bottom-right), `map` for Queen's Case; for a rules
    /// game, the rules' start on `rows` and `cols`, or `map`, or on the rules' own
    /// board when none is given.
    pub fn start(&self, game: GameKind, parameters: &[(String, String)]) -> Result<Setup, AnalysisError> {
        let probe = Setup { game, variant: parameters.to_vec(), position: String::new() };
        // Every key some game takes, once each, in the catalog's order.
        let mut keys: Vec<&str> = Vec::new();
        for key in catalog::CATALOG.iter().flat_map(|e| e.parameters.iter().map(|p| p.key)) {
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        let number =
            |key: &str| -> Result<u32, AnalysisError> { game.entry().number(key, parameter(&probe, key, &keys)?) };
        Ok(match game {
            GameKind::Snakes => {
                let (rows, cols) = (number(key::ROWS)?, number(key::COLS)?);
                let mut cells = vec![vec!['.'; cols as usize]; rows as usize];
                cells[0][0] = '1';
                cells[rows as usize - 1][cols as usize - 1] = '2';
                let rows: Vec<String> = cells.into_iter().map(|r| r.into_iter().collect()).collect();
                Setup::new(GameKind::Snakes, format!("{} 1", rows.join("/")))
            }
            GameKind::Rules => self.rules_start(parameters)?,
            // A game with an index: the catalog makes it from the parameters, and
            // it knows its start.
            kind => {
                struct Start;
                impl catalog::VariantVisitor for Start {
                    type Output = Option<String>;
                    fn visit<G: CatalogGame>(self, game: G) -> Option<String> {
                        game.start_position().map(|p| game.format_position(&p))
                    }
                }
                let entry = kind.entry();
                if let Some((unknown, _)) = parameters.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
                    return Err(AnalysisError::BadVariant(format!(
                        "{kind}: unknown variant parameter {unknown:?} (expected {})",
                        keys.join(", ")
                    )));
                }
                // Only the parameters of this game are its variant; others given
                // for another game's board are not looked at.
                let own: Vec<(String, String)> =
                    parameters.iter().filter(|(k, _)| entry.parameter(k).is_some()).cloned().collect();
                let start = catalog::with_variant(kind, &own, Start)?
                    .ok_or_else(|| AnalysisError::Internal(format!("{kind}: no start")))?;
                Setup { game: kind, variant: entry.variant_of(&own), position: start }
            }
        })
    }

    /// The value of the setup's position and of every legal move, best first.
    pub fn analyze(&self, setup: &Setup) -> Result<Analysis, AnalysisError> {
        self.analyze_with_progress(setup, None)
    }

    /// [`Analyzer::analyze`], reporting the progress of any solve to `observer`
    /// (the solver's own steps; a search reports positions visited and bounds).
    pub fn analyze_with_progress(
        &self,
        setup: &Setup,
        observer: Option<Observer<'_>>,
    ) -> Result<Analysis, AnalysisError> {
        let setup = self.complete(setup);
        match self.run(&setup, Mode::Solve(observer))? {
            Some(analysis) => Ok(analysis),
            None => Err(AnalysisError::Internal("an analysis ended without a result".into())),
        }
    }

    /// The position's legal moves and the positions they lead to, or how the game
    /// ended there, without solving anything: the setup is checked as
    /// [`Analyzer::analyze`] checks it, except for the size limits (a board too
    /// big to solve still lists its moves).
    pub fn list(&self, setup: &Setup) -> Result<Listing, AnalysisError> {
        let setup = self.complete(setup);
        let out = OnceCell::new();
        self.run(&setup, Mode::List(&out))?;
        out.into_inner().ok_or_else(|| AnalysisError::Internal("a listing ended without a result".into()))
    }

    /// Checks the setup, and in [`Mode::Solve`] analyses it.
    fn run(&self, setup: &Setup, mode: Mode<'_>) -> Result<Option<Analysis>, AnalysisError> {
        match setup.game {
            GameKind::Pawns => self.pawns(setup, mode),
            GameKind::Snakes => self.snakes(setup, mode),
            GameKind::Rules => self.rules_game(setup, mode),
            // Games whose setups carry their variant: the catalog makes the game.
            kind => {
                let visitor = WholeAnalysis { analyzer: self, setup, mode };
                catalog::with_variant(kind, &setup.variant, visitor)?
            }
        }
    }

    /// Refuses a setup of another game or variant than the tablebase's.
    fn tablebase_mismatch(&self, setup: &Setup, ours: &[(String, String)]) -> AnalysisError {
        let described = |name: &str, parameters: &[(String, String)]| {
            let list: Vec<String> = parameters.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("{name} {}", list.join(" "))
        };
        // A rules tablebase is named by its rules.
        let theirs = self.tablebase.as_ref().map(|t| t.board_parameters()).unwrap_or_default();
        let name = match (self.rules(), self.tablebase_board()) {
            (Some(rules), Some((GameKind::Rules, _))) => rules.name.as_str(),
            (_, stored) => stored.map_or("", |(kind, _)| kind.name()),
        };
        AnalysisError::Tablebase(format!(
            "the tablebase holds {}; this position is {}",
            described(name, &theirs),
            described(setup.game.name(), ours)
        ))
    }

    fn pawns(&self, setup: &Setup, mode: Mode<'_>) -> Result<Option<Analysis>, AnalysisError> {
        no_variant(setup, "the position gives the board size")?;
        let text = setup.position.as_str();
        let board = text.split_whitespace().next().unwrap_or("");
        let (rows, cols) =
            (board.split('/').count() as u32, board.split('/').next().map_or(0, |r| r.chars().count()) as u32);
        let sides = gsolve_games::pawns::MIN_SIDE..=gsolve_games::pawns::MAX_SIDE;
        if !sides.contains(&rows) || !sides.contains(&cols) {
            return Err(bad_position(
                text,
                format!("the board is {rows}x{cols}; rows and columns must be {} to {}", sides.start(), sides.end()),
            ));
        }
        let game = Pawns::new(rows, cols);
        let position = game.parse_position(text).map_err(|e| bad_position(text, e))?;
        if let Mode::List(out) = mode {
            return listed(out, setup, &game, &position);
        }
        if let Some(answer) = self.answer_from_tablebase(setup, mode, &game, &position) {
            return answer;
        }
        match game.policy(&self.limits)?.position {
            Solver::Whole(_) => solve_or_check(mode, |observer| {
                let solved = self.solved_whole(game, observer);
                analysis_of(setup, &solved.0, &solved.1, &position, Solver::Whole(solved.2).analysis_name())
            }),
            Solver::Search => solve_or_check(mode, |observer| {
                let searcher = self.kept_searcher((rows, cols), || game);
                self.analysis_by_search(setup, &searcher, &position, observer)
            }),
            Solver::Margins | Solver::MarginSearch => Err(AnalysisError::Internal("pawns have no score".into())),
        }
    }

    /// The searcher kept for games of type `G`, with the key of its board.
    fn kept<K: Send + Sync + 'static, G: SearchHooks + 'static>(&self) -> Option<Arc<(K, Shared<G>)>>
    where
        Kept<G>: Send,
    {
        let kept = self.searchers.lock().unwrap_or_else(|e| e.into_inner()).get(&TypeId::of::<G>()).cloned();
        kept.and_then(|any| any.downcast::<(K, Shared<G>)>().ok())
    }

    /// Keeps `searcher` for games of type `G` under `key`, in place of the last one.
    fn keep<K: Send + Sync + 'static, G: SearchHooks + 'static>(&self, key: K, searcher: Shared<G>)
    where
        Kept<G>: Send,
    {
        let kept: Arc<dyn Any + Send + Sync> = Arc::new((key, searcher));
        self.searchers.lock().unwrap_or_else(|e| e.into_inner()).insert(TypeId::of::<G>(), kept);
    }

    /// The searcher kept for `key`, or a new one for the game `make` gives, kept
    /// in its place.
    fn kept_searcher<K: PartialEq + Send + Sync + 'static, G: SearchHooks + 'static>(
        &self,
        key: K,
        make: impl FnOnce() -> G,
    ) -> Shared<G>
    where
        Kept<G>: Send,
    {
        if let Some(kept) = self.kept::<K, G>().filter(|kept| kept.0 == key) {
            return kept.1.clone();
        }
        let searcher = Arc::new(Mutex::new(Searcher::owning(make(), self.limits.search_table_entries)));
        self.keep(key, searcher.clone());
        searcher
    }

    /// The analysis of `position` by a kept searcher, within the node budget.
    fn analysis_by_search<G>(
        &self,
        setup: &Setup,
        searcher: &Shared<G>,
        position: &G::Position,
        observer: Option<Observer<'_>>,
    ) -> Result<Analysis, AnalysisError>
    where
        G: SearchHooks + PlainNotation + Explain + Draw,
    {
        let searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
        searcher.set_node_limit(self.limits.max_search_nodes);
        let game = searcher.game();
        searched(setup, game, &*searcher, position, observer)?;
        analysis_of(setup, game, &*searcher, position, Solver::Search.analysis_name())
    }

    /// A game whose setups carry their variant, made by the catalog from it: the
    /// position's analysis from a whole solve of the variant (kept for the next
    /// positions), or from the tablebase.
    fn whole_game<G: CatalogGame>(
        &self,
        setup: &Setup,
        mode: Mode<'_>,
        game: G,
    ) -> Result<Option<Analysis>, AnalysisError> {
        let position = game.parse_position(&setup.position).map_err(|e| bad_position(&setup.position, e))?;
        if let Mode::List(out) = mode {
            return listed(out, setup, &game, &position);
        }
        if let Some(answer) = self.answer_from_tablebase(setup, mode, &game, &position) {
            return answer;
        }
        // The games whose setups carry their variant are solved whole.
        game.policy(&self.limits)?;
        solve_or_check(mode, |observer| {
            let solved = self.solved_whole(game, observer);
            analysis_of(setup, &solved.0, &solved.1, &position, Solver::Whole(solved.2).analysis_name())
        })
    }

    /// The whole solve of `game`'s variant: kept from an earlier analysis, or made
    /// now (without the lock held: another analysis may go on meanwhile).
    fn solved_whole<G: CatalogGame>(&self, game: G, observer: Option<Observer<'_>>) -> Arc<Solved<G>> {
        let key = (G::KIND, game.parameters());
        let kept = self.whole.lock().unwrap_or_else(|e| e.into_inner()).get(&key).cloned();
        if let Some(found) = kept.and_then(|any| any.downcast::<Solved<G>>().ok()) {
            return found;
        }
        let (solution, solver) = game.solve_whole(observer);
        let made = Arc::new((game, solution, solver));
        let mut whole = self.whole.lock().unwrap_or_else(|e| e.into_inner());
        if whole.len() >= CACHED {
            whole.clear();
        }
        whole.insert(key, made.clone());
        made
    }

    fn snakes(&self, setup: &Setup, mode: Mode<'_>) -> Result<Option<Analysis>, AnalysisError> {
        no_variant(setup, "the position is the board")?;
        if self.tablebase.is_some() {
            return Err(self.tablebase_mismatch(setup, &[]));
        }
        let (board, to_move) = snakes::parse_plain(&setup.position).map_err(|e| bad_position(&setup.position, e))?;
        policy::snakes_policy(&board, &self.limits)?;
        if board.empty_cells() <= u128::CELLS {
            self.snakes_in::<u128>(setup, mode, &board, to_move)
        } else {
            self.snakes_in::<Mask256>(setup, mode, &board, to_move)
        }
    }

    /// [`Self::snakes`] with the board's game in masks of type `M`.
    fn snakes_in<M: Mask + 'static>(
        &self,
        setup: &Setup,
        mode: Mode<'_>,
        board: &SnakesBoard,
        to_move: u8,
    ) -> Result<Option<Analysis>, AnalysisError> {
        let game = Snakes::<M>::new(board);
        let mut position = game.start();
        position.to_move = to_move;
        if let Mode::List(out) = mode {
            let mut listing = listing_of(setup, &game, &position);
            snakes_listing_bodies(&mut listing, &setup.position);
            let _ = out.set(listing);
            return Ok(None);
        }
        solve_or_check(mode, |observer| {
            // A board that is a position of the kept game is searched there, with
            // what its table knows; any other board becomes the kept game.
            let reuse = self.kept::<(), Snakes<M>>().and_then(|kept| {
                let found = kept.1.lock().unwrap_or_else(|e| e.into_inner()).game().parse_position(&setup.position);
                found.ok().map(|p| (kept.1.clone(), p))
            });
            let searcher = reuse.unwrap_or_else(|| {
                let searcher = Arc::new(Mutex::new(Searcher::owning(game, self.limits.search_table_entries)));
                self.keep((), searcher.clone());
                (searcher, position)
            });
            let (searcher, position): (Shared<Snakes<M>>, SnakesPosition<M>) = searcher;
            let searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
            searcher.set_node_limit(self.limits.max_search_nodes);
            let game = searcher.game();
            searched(setup, game, &*searcher, &position, observer)?;
            let mut analysis = analysis_of(setup, game, &*searcher, &position, Solver::Search.analysis_name())?;
            // The kept game may have been read from an earlier board: the bodies are
            // drawn from the text given, each move adding to the mover's body.
            snakes_bodies(&mut analysis, &setup.position);
            Ok(analysis)
        })
    }
}

/// The analysis of a setup whose game the catalog made from its variant.
struct WholeAnalysis<'a, 'o> {
    analyzer: &'a Analyzer,
    setup: &'a Setup,
    mode: Mode<'o>,
}

impl catalog::VariantVisitor for WholeAnalysis<'_, '_> {
    type Output = Result<Option<Analysis>, AnalysisError>;
    fn visit<G: CatalogGame>(self, game: G) -> Self::Output {
        self.analyzer.whole_game(self.setup, self.mode, game)
    }
}

/// Runs `solve` in [`Mode::Solve`]; in [`Mode::Check`] the checks before it were all.
fn solve_or_check<'o>(
    mode: Mode<'o>,
    solve: impl FnOnce(Option<Observer<'o>>) -> Result<Analysis, AnalysisError>,
) -> Result<Option<Analysis>, AnalysisError> {
    match mode {
        Mode::Check | Mode::List(_) => Ok(None),
        Mode::Solve(observer) => solve(observer).map(Some),
    }
}

/// A snakes board as rows of cells and the side to move's token, from plain notation.
fn snakes_rows(text: &str) -> Option<(Vec<Vec<char>>, &str)> {
    let mut tokens = text.split_whitespace();
    let (Some(board), Some(side)) = (tokens.next(), tokens.next()) else { return None };
    Some((board.split('/').map(|r| r.chars().collect()).collect(), side))
}

/// The snakes position after the side to move goes from `from` to `to`: its head
/// turned into body, its new head placed, the other side to move.
fn snakes_child(rows: &[Vec<char>], side: &str, from: Coord, to: Coord) -> String {
    let mover = if side == "1" { ('1', 'a') } else { ('2', 'b') };
    let next_side = if side == "1" { "2" } else { "1" };
    let mut child = rows.to_vec();
    child[from.row as usize - 1][from.col as usize - 1] = mover.1;
    child[to.row as usize - 1][to.col as usize - 1] = mover.0;
    let joined: Vec<String> = child.iter().map(|r| r.iter().collect()).collect();
    format!("{} {next_side}", joined.join("/"))
}

/// A snakes listing's positions redrawn from the text asked about, as
/// [`snakes_bodies`] redraws an analysis.
fn snakes_listing_bodies(listing: &mut Listing, text: &str) {
    let Some((rows, side)) = snakes_rows(text) else { return };
    let joined: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    listing.setup.position = format!("{} {side}", joined.join("/"));
    for m in &mut listing.moves {
        m.position = snakes_child(&rows, side, m.from, m.to);
    }
}

/// Redraws a snakes analysis from the text it was asked about: the board with its
/// bodies (`a`, `b`) as given, and each move's position as that board with the
/// mover's head turned into body and its new head placed.
fn snakes_bodies(analysis: &mut Analysis, text: &str) {
    let Some((rows, side)) = snakes_rows(text) else { return };
    let joined: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    analysis.setup.position = format!("{} {side}", joined.join("/"));
    analysis.board = Board::from_notation(&analysis.setup.position);
    for m in &mut analysis.moves {
        m.position = snakes_child(&rows, side, m.from, m.to);
    }
}

/// Searches the position and each child within the node budget, so that the
/// analysis then reads them from the searcher's table; a search that gives up is
/// [`AnalysisError::TooLarge`].
fn searched<G: SearchHooks, H: std::borrow::Borrow<G>>(
    setup: &Setup,
    game: &G,
    searcher: &Searcher<'_, G, H>,
    position: &G::Position,
    observer: Option<Observer<'_>>,
) -> Result<(), AnalysisError> {
    let search = |p: &G::Position| match searcher.value_with_progress(p, observer) {
        Ok(_) => Ok(()),
        Err(SearchError::OutOfBudget { limit }) => Err(AnalysisError::TooLarge(format!(
            "{}: the search gave up after {limit} positions; this position is too hard to answer here",
            setup.game
        ))),
        Err(e) => Err(AnalysisError::Internal(e.to_string())),
    };
    search(position)?;
    if game.terminal(position).is_none() {
        let mut children = Vec::new();
        game.for_each_child(position, |c| children.push(c));
        children.iter().try_for_each(search)?;
    }
    Ok(())
}

/// The legal moves of `position` and where they lead, or how the game ended.
pub(crate) fn listing_of<G>(setup: &Setup, game: &G, position: &G::Position) -> Listing
where
    G: Game + PlainNotation + Explain + Draw,
{
    let outcome = game.terminal(position);
    let mut moves = Vec::new();
    if outcome.is_none() {
        game.moves(position, &mut moves);
    }
    let moves: Vec<LegalMove> = moves
        .iter()
        .map(|mv| {
            let described = game.describe_move(position, mv);
            LegalMove {
                label: piece_move_label(&described),
                from: described.from,
                to: described.to,
                drop: described.drop,
                position: game.format_position(&game.play(position, mv)),
            }
        })
        .collect();
    // Not over by the rules and no move: the side to move has lost (the engine's rule).
    let over = match outcome {
        Some(outcome) => Some(outcome.value()),
        None if moves.is_empty() => Some(Value::Loss(0)),
        None => None,
    };
    let end = if over.is_some() { game.describe_end(position) } else { None };
    Listing {
        setup: setup.at(game.format_position(position)),
        to_move: game.side_to_move(position),
        over,
        score: None,
        end,
        moves,
        board: game.board(position),
    }
}

/// Puts the listing of `position` in `out` (for [`Mode::List`]).
fn listed<G>(
    out: &OnceCell<Listing>,
    setup: &Setup,
    game: &G,
    position: &G::Position,
) -> Result<Option<Analysis>, AnalysisError>
where
    G: Game + PlainNotation + Explain + Draw,
{
    let _ = out.set(listing_of(setup, game, position));
    Ok(None)
}

/// The analysis of `position` from solved values.
fn analysis_of<G, L>(
    setup: &Setup,
    game: &G,
    values: &L,
    position: &G::Position,
    solver: &'static str,
) -> Result<Analysis, AnalysisError>
where
    G: Game + PlainNotation + Explain + Draw,
    L: ValueLookup<G> + ?Sized,
{
    let value = values
        .lookup(game, position)
        .ok_or_else(|| AnalysisError::Internal(format!("no value for {}", setup.position)))?;
    let listed = line::move_values(game, values, position);
    let over = game.terminal(position).is_some();
    let legal = if over { 0 } else { game.move_count(position) };
    if listed.len() != legal {
        return Err(AnalysisError::Internal(format!("{} of {legal} moves have a value", listed.len())));
    }
    let mut moves: Vec<MoveInfo> = listed
        .iter()
        .map(|m| {
            let described = game.describe_move(position, &m.mv);
            MoveInfo {
                label: piece_move_label(&described),
                from: described.from,
                to: described.to,
                drop: described.drop,
                value: m.value,
                score: None,
                delta: None,
                position: game.format_position(&m.child),
            }
        })
        .collect();
    // The best move of each kind comes first among its kind (moves are best first).
    for i in 0..moves.len() {
        let best = moves.iter().find(|m| same_kind(m.value, moves[i].value)).map(|m| m.value);
        moves[i].delta = match (moves[i].value.remoteness(), best.and_then(Value::remoteness)) {
            (Some(r), Some(b)) => Some(r as i64 - b as i64),
            _ => None,
        };
    }
    let end = if over || legal == 0 { game.describe_end(position) } else { None };
    let board: Board = game.board(position);
    Ok(Analysis {
        setup: setup.at(game.format_position(position)),
        to_move: game.side_to_move(position),
        value,
        score: None,
        solver,
        moves,
        end,
        over,
        board,
    })
}

/// The analysis of `position` from a tablebase of its game (`"tablebase"` its
/// solver; the setup carries the variant a position needs, as the analyzer's do).
/// Fails when the file stores no value for the position (a damaged or forged file).
pub fn analysis_of_stored<G: CatalogGame>(
    tablebase: &GameTablebase<G>,
    position: &G::Position,
) -> Result<Analysis, AnalysisError> {
    let game = tablebase.game();
    let variant = G::KIND.entry().variant_of(&game.board_parameters());
    let setup = Setup { game: G::KIND, variant, position: game.format_position(position) };
    analysis_of(&setup, game, tablebase, position, "tablebase")
}

/// `(1,1)->(2,1)`, or `stay at (1,1)` for a piece that stays (Queen's Case).
pub fn move_label(from: Coord, to: Coord) -> String {
    if from == to {
        format!("stay at {from}")
    } else {
        format!("{from}->{to}")
    }
}

/// A move's label: [`move_label`] of its piece, or of every piece a side moves at
/// once, joined by spaces (`(1,1)->(1,2) stay at (3,3)`); a drop: `X*(2,2)`.
pub fn piece_move_label(described: &gsolve_games::notation::PieceMove) -> String {
    if described.pass {
        return "pass".to_string();
    }
    if let Some(letter) = described.drop {
        return format!("{letter}*{}", described.to);
    }
    described.steps().map(|(from, to)| move_label(from, to)).collect::<Vec<_>>().join(" ")
}

fn same_kind(a: Value, b: Value) -> bool {
    std::mem::discriminant(&a) == std::mem::discriminant(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The searcher kept for games of type `G`, as a pointer to compare.
    fn kept_ptr<K: Send + Sync + 'static, G: SearchHooks + 'static>(analyzer: &Analyzer) -> Option<*const ()>
    where
        Kept<G>: Send,
    {
        analyzer.kept::<K, G>().map(|kept| Arc::as_ptr(&kept.1) as *const ())
    }

    #[test]
    fn a_searcher_is_kept_per_board_and_game_type() {
        let analyzer = Analyzer::new(Limits::default());
        let analyze = |position: &str| {
            let game = if position.contains(' ') && position.ends_with(['w', 'b']) {
                GameKind::Pawns
            } else {
                GameKind::Snakes
            };
            analyzer.analyze(&Setup::new(game, position)).expect("an analysis")
        };
        // Pawns boards over 16 cells are searched; one board keeps its searcher.
        assert_eq!(analyze("pppp/..../..../..../PPPP w").solver, "alpha-beta");
        let first = kept_ptr::<(u32, u32), Pawns>(&analyzer).expect("a pawns searcher");
        analyze("pppp/..../..../P.../.PPP b");
        assert_eq!(kept_ptr::<(u32, u32), Pawns>(&analyzer), Some(first), "the same board");
        analyze("ppppp/...../...../PPPPP w");
        assert_ne!(kept_ptr::<(u32, u32), Pawns>(&analyzer), Some(first), "another board");

        // Snakes: a board that is a position of the kept game is searched there; the
        // pawns searcher stays beside it.
        let pawns = kept_ptr::<(u32, u32), Pawns>(&analyzer);
        assert_eq!(analyze("1../.../..2 1").solver, "alpha-beta");
        let snakes = kept_ptr::<(), Snakes>(&analyzer).expect("a snakes searcher");
        analyze("a1./.../..2 2");
        assert_eq!(kept_ptr::<(), Snakes>(&analyzer), Some(snakes), "a position of the kept game");
        analyze("1.../..../...2 1");
        assert_ne!(kept_ptr::<(), Snakes>(&analyzer), Some(snakes), "another board");
        assert_eq!(kept_ptr::<(u32, u32), Pawns>(&analyzer), pawns);
    }
}
