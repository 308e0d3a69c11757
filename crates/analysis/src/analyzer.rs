//! Choosing a solver for a setup, and caching whole-game solves between requests.

use crate::draw::Draw;
use crate::{Analysis, AnalysisError, Board, GameKind, MoveInfo, Setup};
use gsolve_engine::search::{SearchError, SearchHooks, Searcher};
use gsolve_engine::{layered, line, retrograde, Game, Indexed, Solution, Value, ValueLookup, Variant};
use gsolve_games::chase::Chase;
use gsolve_games::notation::{Explain, PlainNotation};
use gsolve_games::pawns::Pawns;
use gsolve_games::queens_case::QueensCase;
use gsolve_games::snakes::{self, Snakes};
use gsolve_tablebase::{GameTablebase, Tablebase};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// How much work one analysis may take. Requests beyond them are refused with
/// [`AnalysisError::TooLarge`] before any work starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest index a whole-game solve may have (chase: 2n⁴; Queen's Case: twice
    /// the square of the open cells). About 5 bytes a position, 10 to 90 M positions
    /// a second.
    pub max_positions: u64,
    /// The most free cells a snakes board may have (alpha-beta search).
    pub max_snake_cells: u32,
    /// The most cells a pawns board may have beyond 16 (alpha-beta search; 16 cells
    /// or fewer are solved whole).
    pub max_pawn_cells: u32,
    /// Entries of each alpha-beta search's transposition table (about 32 to 64
    /// bytes each).
    pub search_table_entries: usize,
    /// Positions one alpha-beta search (of the position, or of one child) may visit
    /// before giving up with [`AnalysisError::TooLarge`]; `None`: no limit. A time
    /// budget that does not depend on the machine's speed.
    pub max_search_nodes: Option<u64>,
}

impl Default for Limits {
    /// For the command line, where the user waits: chase up to n = 100 (19 s), any
    /// snakes board gsolve reads, pawns up to 6×6 (the start takes about 30 s).
    fn default() -> Self {
        Limits {
            max_positions: 200_000_000,
            max_snake_cells: 128,
            max_pawn_cells: 36,
            search_table_entries: gsolve_engine::search::DEFAULT_TABLE_ENTRIES,
            max_search_nodes: None,
        }
    }
}

impl Limits {
    /// For an interactive page, answering within about a second: chase up to
    /// n = 47, Queen's Case up to about 2,200 open cells, snakes up to 50 free
    /// cells, pawns up to 5×5, and at most a million positions a search (pawns
    /// search about 6 million a second here, snakes about 0.6 million).
    pub fn interactive() -> Self {
        Limits {
            max_positions: 10_000_000,
            max_snake_cells: 50,
            max_pawn_cells: 25,
            search_table_entries: 1 << 20,
            max_search_nodes: Some(1_000_000),
        }
    }
}

/// Whole-game solves kept per game (then the cache starts over).
const CACHED: usize = 8;

/// A tablebase opened for one of the games.
enum Stored {
    Pawns(GameTablebase<Pawns>),
    Chase(GameTablebase<Chase>),
    QueensCase(GameTablebase<QueensCase>),
}

/// Analyses setups of every game; thread-safe, with whole-game solves cached so
/// that playing through a game costs one solve.
pub struct Analyzer {
    limits: Limits,
    tablebase: Option<Stored>,
    chase: Cache<u32, Chase>,
    queens: Cache<String, QueensCase>,
    pawns: Cache<(u32, u32), Pawns>,
}

/// Solved games by variant.
type Cache<K, G> = Mutex<HashMap<K, Arc<(G, Solution)>>>;

/// Looks up or computes a cached solve; the lock is not held while solving.
fn cached<K: std::hash::Hash + Eq + Clone, V>(
    cache: &Mutex<HashMap<K, Arc<V>>>,
    key: &K,
    make: impl FnOnce() -> V,
) -> Arc<V> {
    if let Some(found) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
        return found.clone();
    }
    let made = Arc::new(make());
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= CACHED {
        cache.clear();
    }
    cache.insert(key.clone(), made.clone());
    made
}

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

impl Analyzer {
    /// An analyzer that solves what it is asked, within `limits`.
    pub fn new(limits: Limits) -> Self {
        Analyzer { limits, tablebase: None, chase: Mutex::default(), queens: Mutex::default(), pawns: Mutex::default() }
    }

    /// An analyzer that answers from a tablebase (for its game and variant only).
    pub fn with_tablebase(limits: Limits, path: &Path) -> Result<Self, gsolve_tablebase::Error> {
        let file = Tablebase::open(path)?;
        let stored = match file.game_name() {
            Pawns::NAME => Stored::Pawns(GameTablebase::new(file)?),
            Chase::NAME => Stored::Chase(GameTablebase::new(file)?),
            QueensCase::NAME => Stored::QueensCase(GameTablebase::new(file)?),
            other => {
                return Err(gsolve_tablebase::Error::WrongGame {
                    expected: "pawns, chase or queens-case".into(),
                    found: other.into(),
                })
            }
        };
        Ok(Analyzer { tablebase: Some(stored), ..Analyzer::new(limits) })
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The start of a game on a board: `parameters` are `rows` and `cols` for pawns
    /// and snakes (snakes in opposite corners of an open board), `size` for chase
    /// (white top-left, black bottom-right), `map` for Queen's Case.
    pub fn start(game: GameKind, parameters: &[(String, String)]) -> Result<Setup, AnalysisError> {
        let probe = Setup { game, variant: parameters.to_vec(), position: String::new() };
        let number = |key: &str, range: std::ops::RangeInclusive<u32>| -> Result<u32, AnalysisError> {
            let text = parameter(&probe, key, &["rows", "cols", "size", "map"])?;
            text.parse::<u32>().ok().filter(|n| range.contains(n)).ok_or_else(|| {
                AnalysisError::BadVariant(format!(
                    "{game}: {key} = {text:?} must be a whole number from {} to {}",
                    range.start(),
                    range.end()
                ))
            })
        };
        Ok(match game {
            GameKind::Pawns => {
                let (rows, cols) = (number("rows", 2..=8)?, number("cols", 2..=8)?);
                let game = Pawns::new(rows, cols);
                Setup::new(GameKind::Pawns, game.format_position(&game.start()))
            }
            GameKind::Chase => {
                let n = number("size", 2..=100)?;
                Setup::new(GameKind::Chase, format!("1,1 {n},{n} w")).with("size", n.to_string())
            }
            GameKind::QueensCase => {
                let map = parameter(&probe, "map", &["map"])?;
                let game = queens_game(map)?;
                Setup::new(GameKind::QueensCase, game.format_position(&game.start())).with("map", map)
            }
            GameKind::Snakes => {
                let (rows, cols) = (number("rows", 1..=11)?, number("cols", 2..=11)?);
                let mut cells = vec![vec!['.'; cols as usize]; rows as usize];
                cells[0][0] = '1';
                cells[rows as usize - 1][cols as usize - 1] = '2';
                let rows: Vec<String> = cells.into_iter().map(|r| r.into_iter().collect()).collect();
                Setup::new(GameKind::Snakes, format!("{} 1", rows.join("/")))
            }
        })
    }

    /// The value of the setup's position and of every legal move, best first.
    pub fn analyze(&self, setup: &Setup) -> Result<Analysis, AnalysisError> {
        match setup.game {
            GameKind::Pawns => self.pawns(setup),
            GameKind::Chase => self.chase(setup),
            GameKind::QueensCase => self.queens_case(setup),
            GameKind::Snakes => self.snakes(setup),
        }
    }

    /// Refuses a setup of another game or variant than the tablebase's.
    fn tablebase_mismatch(&self, setup: &Setup, ours: &[(String, String)]) -> AnalysisError {
        let described = |name: &str, parameters: &[(String, String)]| {
            let list: Vec<String> = parameters.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("{name} {}", list.join(" "))
        };
        let (name, theirs) = match &self.tablebase {
            Some(Stored::Pawns(t)) => (Pawns::NAME, t.game().parameters()),
            Some(Stored::Chase(t)) => (Chase::NAME, t.game().parameters()),
            Some(Stored::QueensCase(t)) => (QueensCase::NAME, t.game().parameters()),
            None => unreachable!("only called with a tablebase"),
        };
        AnalysisError::Tablebase(format!(
            "the tablebase holds {}; this position is {}",
            described(name, &theirs),
            described(setup.game.name(), ours)
        ))
    }

    fn pawns(&self, setup: &Setup) -> Result<Analysis, AnalysisError> {
        no_variant(setup, "the position gives the board size")?;
        let text = setup.position.as_str();
        let board = text.split_whitespace().next().unwrap_or("");
        let (rows, cols) =
            (board.split('/').count() as u32, board.split('/').next().map_or(0, |r| r.chars().count()) as u32);
        if !(2..=8).contains(&rows) || !(2..=8).contains(&cols) {
            return Err(bad_position(text, format!("the board is {rows}x{cols}; rows and columns must be 2 to 8")));
        }
        let game = Pawns::new(rows, cols);
        let position = game.parse_position(text).map_err(|e| bad_position(text, e))?;
        match &self.tablebase {
            Some(Stored::Pawns(t)) if t.game().parameters() == game.parameters() => {
                return analysis_of(setup, t.game(), t, &position, "tablebase")
            }
            Some(_) => return Err(self.tablebase_mismatch(setup, &game.parameters())),
            None => {}
        }
        if rows * cols <= 16 {
            let solved = cached(&self.pawns, &(rows, cols), || (game.clone(), layered::solve(&game)));
            return analysis_of(setup, &solved.0, &solved.1, &position, "layered");
        }
        if rows * cols > self.limits.max_pawn_cells {
            return Err(AnalysisError::TooLarge(format!(
                "pawns {rows}x{cols}: boards over {} cells are not searched here",
                self.limits.max_pawn_cells
            )));
        }
        let searcher = self.searcher(&game);
        searched(setup, &game, &searcher, &position)?;
        analysis_of(setup, &game, &searcher, &position, "alpha-beta")
    }

    /// An alpha-beta searcher with the limits' table size and node budget.
    fn searcher<'g, G: SearchHooks>(&self, game: &'g G) -> Searcher<'g, G> {
        let searcher = Searcher::with_table_entries(game, self.limits.search_table_entries);
        searcher.set_node_limit(self.limits.max_search_nodes);
        searcher
    }

    fn chase(&self, setup: &Setup) -> Result<Analysis, AnalysisError> {
        let size = parameter(setup, "size", &["size"])?;
        let game = Chase::from_parameters(&[("size".into(), size.into())])
            .map_err(|e| AnalysisError::BadVariant(format!("chase: {e}")))?;
        let position = game.parse_position(&setup.position).map_err(|e| bad_position(&setup.position, e))?;
        match &self.tablebase {
            Some(Stored::Chase(t)) if t.game().size() == game.size() => {
                return analysis_of(setup, t.game(), t, &position, "tablebase")
            }
            Some(_) => return Err(self.tablebase_mismatch(setup, &game.parameters())),
            None => {}
        }
        self.within(setup, game.index_size())?;
        let solved = cached(&self.chase, &game.size(), || (game.clone(), retrograde::solve(&game)));
        analysis_of(setup, &solved.0, &solved.1, &position, "retrograde")
    }

    fn queens_case(&self, setup: &Setup) -> Result<Analysis, AnalysisError> {
        let map = parameter(setup, "map", &["map", "width", "height"])?;
        let game = queens_game(map)?;
        let position = game.parse_position(&setup.position).map_err(|e| bad_position(&setup.position, e))?;
        match &self.tablebase {
            Some(Stored::QueensCase(t)) if t.game().parameters() == game.parameters() => {
                return analysis_of(setup, t.game(), t, &position, "tablebase")
            }
            Some(_) => return Err(self.tablebase_mismatch(setup, &game.parameters())),
            None => {}
        }
        self.within(setup, game.index_size())?;
        let solved = cached(&self.queens, &map.to_string(), || {
            let solution = retrograde::solve(&game);
            (game, solution)
        });
        analysis_of(setup, &solved.0, &solved.1, &position, "retrograde")
    }

    fn snakes(&self, setup: &Setup) -> Result<Analysis, AnalysisError> {
        no_variant(setup, "the position is the board")?;
        if self.tablebase.is_some() {
            return Err(self.tablebase_mismatch(setup, &[]));
        }
        let (board, to_move) = snakes::parse_plain(&setup.position).map_err(|e| bad_position(&setup.position, e))?;
        let game = Snakes::new(&board);
        if game.empty_cells() > self.limits.max_snake_cells {
            return Err(AnalysisError::TooLarge(format!(
                "snakes: {} free cells; at most {} are searched here",
                game.empty_cells(),
                self.limits.max_snake_cells
            )));
        }
        let mut position = game.start();
        position.to_move = to_move;
        let searcher = self.searcher(&game);
        searched(setup, &game, &searcher, &position)?;
        analysis_of(setup, &game, &searcher, &position, "alpha-beta")
    }

    fn within(&self, setup: &Setup, positions: u64) -> Result<(), AnalysisError> {
        if positions > self.limits.max_positions {
            return Err(AnalysisError::TooLarge(format!(
                "{}: {positions} positions to solve, more than the {} allowed here",
                setup.game, self.limits.max_positions
            )));
        }
        Ok(())
    }
}

/// Searches the position and each child within the node budget, so that the
/// analysis then reads them from the searcher's table; a search that gives up is
/// [`AnalysisError::TooLarge`].
fn searched<G: SearchHooks>(
    setup: &Setup,
    game: &G,
    searcher: &Searcher<'_, G>,
    position: &G::Position,
) -> Result<(), AnalysisError> {
    let search = |p: &G::Position| match searcher.value(p) {
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

/// The Queen's Case game of a map written as rows joined by `/`.
fn queens_game(map: &str) -> Result<QueensCase, AnalysisError> {
    let rows: Vec<&str> = map.split('/').collect();
    let parameters = [
        ("width".to_string(), rows[0].chars().count().to_string()),
        ("height".to_string(), rows.len().to_string()),
        ("map".to_string(), map.to_string()),
    ];
    QueensCase::from_parameters(&parameters).map_err(|e| AnalysisError::BadVariant(format!("queens-case: {e}")))
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
                label: format!("{}->{}", described.from, described.to),
                from: described.from,
                to: described.to,
                value: m.value,
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
        solver,
        moves,
        end,
        board,
    })
}

fn same_kind(a: Value, b: Value) -> bool {
    std::mem::discriminant(&a) == std::mem::discriminant(&b)
}
