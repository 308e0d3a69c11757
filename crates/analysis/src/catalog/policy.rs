//! The solver policy: which solver answers a position, and which one solves a game
//! whole, decided in one function per game kind and asked by every front end (the
//! analyzer, and through it the command line, the server and Python; `gsolve
//! build`, Python's `Game.solve` and the fuzz targets).
//!
//! | game          | a position                                                        | the whole game                 |
//! |---------------|-------------------------------------------------------------------|--------------------------------|
//! | `pawns`       | whole (layered) up to 16 cells within the size limit, else search up to the entry's [`SearchBound`] | layered |
//! | `chase`       | whole within the size limit                                       | bit rows (retrograde past their budget) |
//! | `queens-case` | whole within the size limit                                       | bit rows on open maps, else retrograde |
//! | `snakes`      | search up to the entry's [`SearchBound`]                          | none (no index)                |
//! | `rules`       | a game with a score: its margins by the flip games' search where the rules are one, else by the memo; else search when no position can come back, else whole within the size limit | bit rows for pursuits, else retrograde; within the size limit |
//!
//! A whole solve reports what answered ([`super::CatalogGame::solve_whole`]): bit
//! rows that give up leave the game to the engine's retrograde analysis, and the
//! report says so.

use super::{CatalogGame, GameKind};
use crate::{AnalysisError, Limits};
use gsolve_games::pawns::Pawns;
use gsolve_games::snakes::SnakesBoard;
use gsolve_rules::RulesGame;

/// Which solver solves a game whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WholeSolver {
    /// The layered sweep of a game whose moves only go forward (pawns).
    Layered,
    /// The bit-parallel retrograde solve of a pursuit on a grid (the engine's
    /// solution, index for index).
    BitRows,
    /// The engine's retrograde analysis.
    Retrograde,
}

impl WholeSolver {
    /// `"layered"`, `"bit rows"` or `"retrograde"`: as a build and Python's
    /// `Solution.solver` name it.
    pub fn name(self) -> &'static str {
        match self {
            WholeSolver::Layered => "layered",
            WholeSolver::BitRows => "bit rows",
            WholeSolver::Retrograde => "retrograde",
        }
    }
}

/// Which solver answers a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// Alpha-beta search from the position, within the node budget.
    Search,
    /// A game that ends in a score: every position reachable from the one
    /// asked valued with its exact margin and kept (the engine's memo), within
    /// [`Limits::memo_positions`].
    Margins,
    /// A flip game (Othello-like rules): its margins by the search on bit sets
    /// (`gsolve_rules::flips`), within the node budget.
    MarginSearch,
    /// The whole game solved (kept for the next positions), by this solver.
    Whole(WholeSolver),
}

impl Solver {
    /// The name an analysis gives it (`Analysis::solver`, the web API's `solver`):
    /// `"alpha-beta"`, `"layered"` or `"retrograde"`. Bit rows are retrograde
    /// analysis done 64 positions a word, with the engine's values, so an analysis
    /// names both `"retrograde"`; a whole solve's own report
    /// ([`WholeSolver::name`]) tells them apart.
    /// (A game with a score says `"memo"`: margins by forward search with a
    /// memo of every position.)
    pub fn analysis_name(self) -> &'static str {
        match self {
            Solver::Search => "alpha-beta",
            Solver::Margins => "memo",
            Solver::MarginSearch => "alpha-beta",
            Solver::Whole(WholeSolver::Layered) => "layered",
            Solver::Whole(WholeSolver::BitRows | WholeSolver::Retrograde) => "retrograde",
        }
    }
}

/// The policy for one game (a variant, or a rules game on its board): the solver
/// of a position, and the whole solve if the game may be solved whole within the
/// limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Which solver answers a position.
    pub position: Solver,
    /// The whole solve, when the index is within [`Limits::max_positions`]; `None`
    /// when it is not, or there is no index.
    pub whole: Option<WholeSolver>,
}

/// The largest boards a game's alpha-beta search takes on, in cells (pawns: every
/// cell; snakes: the free ones), stated by its catalog entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchBound {
    /// Without a node budget (the command line, Python: the user waits).
    pub cells: u32,
    /// With a node budget ([`Limits::max_search_nodes`]: the server): larger
    /// boards are refused at once rather than searched until the budget runs out.
    pub budgeted_cells: u32,
}

impl SearchBound {
    /// The most cells searched within `limits`.
    pub fn within(&self, limits: &Limits) -> u32 {
        if limits.max_search_nodes.is_some() {
            self.budgeted_cells
        } else {
            self.cells
        }
    }
}

/// The most cells `game`'s search takes on within `limits` (its entry's
/// [`SearchBound`]; no bound for a game that states none).
pub fn search_cells(game: GameKind, limits: &Limits) -> Option<u32> {
    game.entry().search.map(|bound| bound.within(limits))
}

/// A whole solve of `game` when its index is within the limits.
fn whole_within<G: CatalogGame>(game: &G, limits: &Limits) -> Option<WholeSolver> {
    (game.index_size() <= limits.max_positions).then(|| game.whole_solver())
}

/// The error of an index over the limits.
fn too_many(name: &str, positions: u64, limits: &Limits) -> AnalysisError {
    AnalysisError::TooLarge(format!(
        "{name}: {positions} positions to solve, more than the {} allowed here",
        limits.max_positions
    ))
}

/// Chase and Queen's Case: every position from the whole solve, within the limits.
pub fn whole_game_policy<G: CatalogGame>(game: &G, limits: &Limits) -> Result<Policy, AnalysisError> {
    match whole_within(game, limits) {
        Some(whole) => Ok(Policy { position: Solver::Whole(whole), whole: Some(whole) }),
        None => Err(too_many(G::KIND.name(), game.index_size(), limits)),
    }
}

/// Pawns: boards of up to 16 cells solved whole (layered) when the index is within
/// the limits (a 2×8 board's is not), others searched up to the entry's
/// [`SearchBound`].
pub fn pawns_policy(game: &Pawns, limits: &Limits) -> Result<Policy, AnalysisError> {
    let (rows, cols) = (game.rows(), game.cols());
    let whole = whole_within(game, limits);
    if rows * cols <= 16 {
        if let Some(whole) = whole {
            return Ok(Policy { position: Solver::Whole(whole), whole: Some(whole) });
        }
    }
    let bound = search_cells(GameKind::Pawns, limits).unwrap_or(0);
    if rows * cols > bound.max(16) {
        return Err(AnalysisError::TooLarge(format!(
            "pawns {rows}x{cols}: boards over {bound} cells are not searched here"
        )));
    }
    Ok(Policy { position: Solver::Search, whole })
}

/// Snakes: searched up to the entry's [`SearchBound`] of free cells; no index.
pub fn snakes_policy(board: &SnakesBoard, limits: &Limits) -> Result<Policy, AnalysisError> {
    let empty = board.empty_cells() as u32;
    let bound = search_cells(GameKind::Snakes, limits).unwrap_or(0);
    if empty > bound {
        return Err(AnalysisError::TooLarge(format!("snakes: {empty} free cells; at most {bound} are searched here")));
    }
    Ok(Policy { position: Solver::Search, whole: None })
}

/// A rules game: alpha-beta search when no position can come back (exact, ties
/// included, and it needs no index), else the whole index within the limits (bit
/// rows for a pursuit, else retrograde: draws exact); the error says why neither
/// applies. The whole solve, for builds and checks, whenever the index is within
/// the limits.
pub fn rules_policy(game: &RulesGame, limits: &Limits) -> Result<Policy, AnalysisError> {
    let name = &game.rules().name;
    if game.is_scored() {
        let position = if game.flip_shape().is_some() { Solver::MarginSearch } else { Solver::Margins };
        return Ok(Policy { position, whole: None });
    }
    let whole = match game.placement_index() {
        Ok(index) if index.size() <= limits.max_positions => Ok(game.whole_solver()),
        Ok(index) => Err(format!(
            "{name}: {} positions to solve, more than the {} allowed here, and the game can go on forever (no search)",
            index.size(),
            limits.max_positions
        )),
        Err(why) => Err(format!("{name}: no index ({why}), and the search cannot solve this game")),
    };
    match (game.acyclic(), whole) {
        (true, whole) => Ok(Policy { position: Solver::Search, whole: whole.ok() }),
        (false, Ok(whole)) => Ok(Policy { position: Solver::Whole(whole), whole: Some(whole) }),
        (false, Err(why)) => Err(AnalysisError::TooLarge(why)),
    }
}
