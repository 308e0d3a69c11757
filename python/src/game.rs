//! `gsolve.game`, `gsolve.rules`, `Game`, `Analysis`, `Move` and `Tablebase`: the
//! analysis crate's `Analyzer` seen from Python.

use crate::export::{Boxed, IndexedGame, Solution};
use crate::interrupt::{self, Outcome};
use crate::value::Value;
use crate::{InputError, TablebaseError, TooLargeError};
use gsolve_analysis::catalog::{self, BuildPlan};
use gsolve_analysis::{AnalysisError, Analyzer, GameKind, Limits, Setup};
use gsolve_rules::book::{LinesOfPlay, OpeningBook, Opponent};
use gsolve_rules::Rules;
use gsolve_tablebase::{write, WriteOptions};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

/// An analysis error as the Python exception the command line's message maps to.
pub(crate) fn analysis_error(error: AnalysisError) -> PyErr {
    let message = error.to_string();
    match error {
        AnalysisError::NoRules => {
            InputError::new_err(format!("rules: {message}: open the game with gsolve.rules(...)"))
        }
        AnalysisError::TooLarge(_) => TooLargeError::new_err(message),
        AnalysisError::Tablebase(_) => TablebaseError::new_err(message),
        AnalysisError::Internal(_) => PyRuntimeError::new_err(message),
        _ => InputError::new_err(message),
    }
}

/// A tablebase error: the user's to fix (a missing file, one that exists) or a
/// damaged or foreign file; all are `TablebaseError`.
pub(crate) fn tablebase_error(path: &Path, error: gsolve_tablebase::Error) -> PyErr {
    TablebaseError::new_err(format!("{}: {}", path.display(), worded(&error)))
}

/// A tablebase error in Python's words: the library's, with the argument that
/// changes what it refuses.
fn worded(error: &gsolve_tablebase::Error) -> String {
    use gsolve_tablebase::Error;
    match error {
        Error::Exists(_) => format!("{error} (pass force=True to overwrite it)"),
        Error::WorkDirTaken(_) => format!("{error} (work_dir=...)"),
        error => error.to_string(),
    }
}

/// Where a game's analyzer comes from, to make a fresh one after Ctrl-C stopped a
/// solve (an unwound search may leave its kept table half written).
#[derive(Clone)]
enum Source {
    /// The built-in games.
    BuiltIn,
    /// A rules file's game, with an opening book if one was given.
    Rules(Arc<Rules>, Option<Arc<OpeningBook>>),
    /// A tablebase file.
    Tablebase(PathBuf),
}

impl Source {
    fn analyzer(&self) -> PyResult<Analyzer> {
        let limits = Limits::default();
        Ok(match self {
            Source::BuiltIn => Analyzer::new(limits),
            Source::Rules(rules, None) => Analyzer::with_rules(limits, rules.clone()),
            Source::Rules(rules, Some(book)) => Analyzer::with_rules(limits, rules.clone())
                .with_book(book.clone())
                .map_err(|e| InputError::new_err(e.to_string()))?,
            Source::Tablebase(path) => Analyzer::with_tablebase(limits, path).map_err(|e| tablebase_error(path, e))?,
        })
    }
}

/// The analyzer of a game, with what it keeps (whole-game solves, search tables).
struct Shared {
    source: Source,
    analyzer: RwLock<Arc<Analyzer>>,
}

impl Shared {
    fn new(source: Source) -> PyResult<Arc<Shared>> {
        let analyzer = RwLock::new(Arc::new(source.analyzer()?));
        Ok(Arc::new(Shared { source, analyzer }))
    }

    fn current(&self) -> Arc<Analyzer> {
        self.analyzer.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Runs `work` with the analyzer, stoppable by Ctrl-C; after an interrupt
    /// the analyzer is replaced by a fresh one.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&Analyzer, Option<gsolve_engine::Observer<'_>>) -> T + Send,
    ) -> PyResult<T> {
        let analyzer = self.current();
        match interrupt::run(py, |observer| work(&analyzer, observer))? {
            Outcome::Done(value) => Ok(value),
            Outcome::Interrupted(error) => {
                if let Ok(fresh) = self.source.analyzer() {
                    *self.analyzer.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(fresh);
                }
                Err(error)
            }
        }
    }
}

/// One legal move: its label, the moving piece's cells, its value for the side
/// making it and the position it leads to.
#[pyclass(frozen, module = "gsolve", get_all)]
pub struct Move {
    /// As the command line writes it: `(3,1)->(2,1)`, `stay at (1,1)`.
    pub label: String,
    /// The moving piece's cell, (row, column) from 1.
    pub from_cell: (u32, u32),
    /// Where it goes.
    pub to_cell: (u32, u32),
    /// The move's value for the side making it.
    pub value: Value,
    /// Remoteness minus that of the best move of the same kind (`None` for a draw).
    pub delta: Option<i64>,
    /// The position after the move, in plain notation.
    pub position: String,
}

#[pymethods]
impl Move {
    fn __repr__(&self) -> String {
        format!("Move({:?}, {}, {:?})", self.label, self.value.__repr_text(), self.position)
    }
}

impl Value {
    fn __repr_text(&self) -> String {
        let margin = self.margin.map(|m| format!(", margin={m}")).unwrap_or_default();
        match self.inner.remoteness() {
            Some(r) => format!("Value({:?}, {r}{margin})", self.inner.kind_name()),
            None => "Value(\"draw\")".to_string(),
        }
    }
}

/// A legal move and the position it leads to (`Game.moves`: no value).
#[pyclass(frozen, module = "gsolve", get_all)]
pub struct LegalMove {
    /// As the command line writes it: `(3,1)->(2,1)`.
    pub label: String,
    /// The moving piece's cell, (row, column) from 1.
    pub from_cell: (u32, u32),
    /// Where it goes.
    pub to_cell: (u32, u32),
    /// The position after the move, in plain notation.
    pub position: String,
}

#[pymethods]
impl LegalMove {
    fn __repr__(&self) -> String {
        format!("LegalMove({:?}, {:?})", self.label, self.position)
    }
}

/// A position's legal moves in the game's order, found without solving anything.
#[pyclass(frozen, module = "gsolve", get_all)]
pub struct Moves {
    /// The position, in canonical plain notation.
    pub position: String,
    /// The side to move, e.g. `"white"`.
    pub to_move: String,
    /// When the game is over here: its value for the side to move (remoteness 0).
    pub over: Option<Value>,
    /// How the game ended, when it is over here.
    pub end: Option<String>,
    /// Every legal move.
    pub moves: Vec<Py<LegalMove>>,
    /// The board's rows and columns (cells as the moves' `from_cell` and
    /// `to_cell` number them).
    pub board_size: (u32, u32),
}

#[pymethods]
impl Moves {
    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __repr__(&self) -> String {
        format!("Moves({:?}, {} moves)", self.position, self.moves.len())
    }
}

/// A position's value and every legal move's value, best first.
#[pyclass(frozen, module = "gsolve", get_all)]
pub struct Analysis {
    /// The game's name.
    pub game: String,
    /// The position, in canonical plain notation.
    pub position: String,
    /// The side to move, e.g. `"white"`.
    pub to_move: String,
    /// The value for the side to move.
    pub value: Value,
    /// Which solver answered: `"retrograde"`, `"layered"`, `"alpha-beta"` or `"tablebase"`.
    pub solver: String,
    /// Every legal move, best first.
    pub moves: Vec<Py<Move>>,
    /// How the game ended, when it is over here.
    pub end: Option<String>,
    json: String,
}

#[pymethods]
impl Analysis {
    /// The best move (fastest win, slowest loss), or `None` when the game is over.
    #[getter]
    fn best_move(&self, py: Python<'_>) -> Option<Py<Move>> {
        self.moves.first().map(|m| m.clone_ref(py))
    }

    /// True when the game is over here (no move).
    #[getter]
    fn over(&self) -> bool {
        self.moves.is_empty()
    }

    /// The analysis as the JSON text of `gsolve analyze --json` (the web API's).
    fn to_json(&self) -> String {
        self.json.clone()
    }

    fn __repr__(&self) -> String {
        format!("Analysis({:?}, {}, {} moves)", self.position, self.value.__repr_text(), self.moves.len())
    }
}

fn analysis_to_python(py: Python<'_>, analysis: gsolve_analysis::Analysis) -> PyResult<Analysis> {
    let json = analysis.to_json().to_string();
    let moves = analysis
        .moves
        .into_iter()
        .map(|m| {
            Py::new(
                py,
                Move {
                    label: m.label,
                    from_cell: (m.from.row, m.from.col),
                    to_cell: (m.to.row, m.to.col),
                    value: Value::scored(m.value, m.score),
                    delta: m.delta,
                    position: m.position,
                },
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Analysis {
        game: analysis.setup.game.name().to_string(),
        position: analysis.setup.position,
        to_move: analysis.to_move.to_string(),
        value: Value::scored(analysis.value, analysis.score),
        solver: analysis.solver.to_string(),
        moves,
        end: analysis.end,
        json,
    })
}

/// A game on a board: built-in (`gsolve.game`), from a rules file (`gsolve.rules`)
/// or stored in a tablebase (`Tablebase.game`). Positions are given in the game's
/// plain notation (`notation` tells it); whole-game solves are kept between calls.
#[pyclass(frozen, module = "gsolve")]
pub struct Game {
    shared: Arc<Shared>,
    kind: GameKind,
    /// The board's parameters as given (`rows`, `cols`, `size`, `map`).
    board: Vec<(String, String)>,
    /// The start, with the variant every position of this game is analysed with.
    start: Setup,
}

impl Game {
    fn new(shared: Arc<Shared>, kind: GameKind, board: Vec<(String, String)>) -> PyResult<Game> {
        let start = shared.current().start(kind, &board).map_err(analysis_error)?;
        Ok(Game { shared, kind, board, start })
    }

    fn setup(&self, position: Option<&str>) -> Setup {
        match position {
            Some(p) => self.start.at(p),
            None => self.start.clone(),
        }
    }

    /// The analysis of a position (the start when `None`).
    pub(crate) fn analyze_setup(&self, py: Python<'_>, position: Option<&str>) -> PyResult<Analysis> {
        let setup = self.setup(position);
        let analysis = self.shared.run(py, |analyzer, observer| analyzer.analyze_with_progress(&setup, observer))?;
        analysis_to_python(py, analysis.map_err(analysis_error)?)
    }

    /// The game with its index, for a whole-game solve or a tablebase.
    fn indexed(&self) -> PyResult<Box<dyn IndexedGame>> {
        let analyzer = self.shared.current();
        catalog::with_setup_game(&self.start, analyzer.rules(), Boxed).map_err(analysis_error)
    }
}

/// Board keyword arguments as the analyzer's parameters (`rows=4` -> `("rows", "4")`).
fn board_parameters(board: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let mut parameters = Vec::new();
    if let Some(board) = board {
        for (key, value) in board.iter() {
            parameters.push((key.extract::<String>()?, value.str()?.extract::<String>()?));
        }
    }
    Ok(parameters)
}

#[pymethods]
impl Game {
    /// The game's name: one of `gsolve.games()`, or `rules`.
    #[getter]
    fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// Whether the game ends in a score (a rules file's `[score]`): its values
    /// then carry margins (`Value.margin`).
    #[getter]
    fn has_score(&self) -> bool {
        self.kind == GameKind::Rules && self.shared.current().rules().is_some_and(|rules| rules.score.is_some())
    }

    /// A title for menus (a rules game's own name).
    #[getter]
    fn title(&self) -> String {
        self.shared.current().title(self.kind)
    }

    /// The board's parameters as given (`{"rows": "4", "cols": "4"}`).
    #[getter]
    fn parameters(&self) -> Vec<(String, String)> {
        self.board.clone()
    }

    /// The start position, in plain notation.
    #[getter]
    fn start(&self) -> String {
        self.start.position.clone()
    }

    /// How positions are written, in one line.
    #[getter]
    fn notation(&self) -> &'static str {
        self.kind.notation_help()
    }

    /// The sides' names, the side to move at the start first.
    #[getter]
    fn sides(&self) -> (String, String) {
        let [a, b] = self.shared.current().sides(self.kind);
        (a.to_string(), b.to_string())
    }

    /// The value of `position` (the start when omitted) and of every legal move,
    /// best first, as `gsolve analyze` gives them. The GIL is released while the
    /// solver works; Ctrl-C stops it (`KeyboardInterrupt`).
    #[pyo3(signature = (position = None))]
    fn analyze(&self, py: Python<'_>, position: Option<&str>) -> PyResult<Analysis> {
        self.analyze_setup(py, position)
    }

    /// The legal moves of `position` (the start when omitted) and the positions
    /// they lead to, or how the game ended there, without solving anything (any
    /// board the game reads, however big).
    #[pyo3(signature = (position = None))]
    fn moves(&self, py: Python<'_>, position: Option<&str>) -> PyResult<Moves> {
        let setup = self.setup(position);
        let listing = self.shared.current().list(&setup).map_err(analysis_error)?;
        let moves = listing
            .moves
            .into_iter()
            .map(|m| {
                Py::new(
                    py,
                    LegalMove {
                        label: m.label,
                        from_cell: (m.from.row, m.from.col),
                        to_cell: (m.to.row, m.to.col),
                        position: m.position,
                    },
                )
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(Moves {
            position: listing.setup.position,
            to_move: listing.to_move.to_string(),
            over: listing.over.map(|over| Value::scored(over, listing.score)),
            end: listing.end,
            moves,
            board_size: (listing.board.rows, listing.board.cols),
        })
    }

    /// The value of `position` (the start when omitted) for its side to move.
    #[pyo3(signature = (position = None))]
    fn value(&self, py: Python<'_>, position: Option<&str>) -> PyResult<Value> {
        Ok(self.analyze_setup(py, position)?.value)
    }

    /// Every position of the game's index solved (pawns: every position of the
    /// board; chase: of the size; Queen's Case: of the map; rules: every placement
    /// of at most the start's pieces). Values by index in `Solution.values`, a
    /// NumPy array that owns the solver's own buffer (no copy).
    fn solve(&self, py: Python<'_>) -> PyResult<Solution> {
        let game = self.indexed()?;
        let (codes, solver) = match interrupt::run(py, |observer| game.solve(observer))? {
            Outcome::Done(solved) => solved,
            Outcome::Interrupted(error) => return Err(error),
        };
        Solution::new(py, game, codes, solver)
    }

    /// Builds a tablebase of the game at `path` (as `gsolve build`: pawns and
    /// rules tier by tier in `work_dir`, default `PATH.work`; chase and Queen's
    /// Case solved whole) and opens it. An existing file is refused unless `force`.
    #[pyo3(signature = (path, force = false, work_dir = None))]
    fn build_tablebase(
        &self,
        py: Python<'_>,
        path: PathBuf,
        force: bool,
        work_dir: Option<PathBuf>,
    ) -> PyResult<Tablebase> {
        let game = self.indexed()?;
        write::check_output(&path, force).map_err(|e| TablebaseError::new_err(worded(&e)))?;
        let plan = BuildPlan { work_dir, memory: None, write: WriteOptions { force, ..WriteOptions::default() } };
        let built = interrupt::run(py, |observer| game.build(&path, &plan, observer))?;
        match built {
            Outcome::Done(result) => {
                result
                    .map_err(|e| TablebaseError::new_err(format!("cannot build {}: {}", path.display(), worded(&e))))?;
            }
            Outcome::Interrupted(error) => {
                let _ = std::fs::remove_file(write::temporary_path(&path));
                return Err(error);
            }
        }
        Tablebase::open(&path)
    }

    /// Builds an opening book of a line game at `path` (as `gsolve book`): every
    /// position within `plies` moves of the start solved, and with `play` greater,
    /// every position a game against perfect play analyses before ply `play` (the
    /// computer's moves as `play` makes them; every move of its opponent, or with
    /// `opponent="perfect"` its best moves only) and each of its moves; open the
    /// game with `gsolve.rules(..., book=path)` to answer them from it. Returns
    /// the number of positions. An existing file is refused unless `force`.
    #[pyo3(signature = (path, plies, force = false, play = 0, opponent = "any"))]
    fn build_book(
        &self,
        py: Python<'_>,
        path: PathBuf,
        plies: u32,
        force: bool,
        play: u32,
        opponent: &str,
    ) -> PyResult<usize> {
        let opponent = match opponent {
            "any" => Opponent::Any,
            "perfect" => Opponent::Perfect,
            other => {
                return Err(InputError::new_err(format!(
                    "opponent must be \"any\" or \"perfect\", not {:?}",
                    gsolve_games::text::excerpt(other)
                )))
            }
        };
        let analyzer = self.shared.current();
        let Some(rules) = analyzer.rules() else {
            return Err(InputError::new_err("an opening book is of a rules game: open it with gsolve.rules(...)"));
        };
        let set = gsolve_rules::setup(rules.clone(), None, None, Some(&self.start.position))
            .map_err(|e| InputError::new_err(e.to_string()))?;
        write::check_output(&path, force).map_err(|e| TablebaseError::new_err(worded(&e)))?;
        let built = match interrupt::run(py, |observer| {
            set.game.build_book(&set.position, plies, LinesOfPlay::new(play, opponent), observer)
        })? {
            Outcome::Done(built) => built.map_err(|e| InputError::new_err(e.to_string()))?,
            Outcome::Interrupted(error) => return Err(error),
        };
        gsolve_analysis::book::write(&path, &built, force)
            .map_err(|e| TablebaseError::new_err(format!("cannot write {}: {}", path.display(), worded(&e))))?;
        Ok(built.len())
    }

    fn __repr__(&self) -> String {
        let board: Vec<String> = self
            .board
            .iter()
            .map(|(k, v)| match v.parse::<u32>() {
                Ok(n) => format!(", {k}={n}"),
                Err(_) => format!(", {k}={v:?}"),
            })
            .collect();
        format!("gsolve.game({:?}{})", self.kind.name(), board.join(""))
    }
}

/// Opens a built-in game on a board: `game("pawns", rows=4, cols=4)`,
/// `game("chase", size=4)`; `gsolve.games()` lists the names, and each game's
/// board parameters are those of `gsolve analyze` (docs/python.md).
#[pyfunction]
#[pyo3(signature = (name, **board))]
pub fn game(name: &str, board: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
    let kind = GameKind::from_name(name).map_err(analysis_error)?;
    if kind == GameKind::Rules {
        return Err(InputError::new_err("rules games are opened with gsolve.rules(path_or_text)"));
    }
    Game::new(Shared::new(Source::BuiltIn)?, kind, board_parameters(board)?)
}

/// Opens the game of a rules file (docs/rules.md): `rules_text` is a path to the
/// TOML file or the TOML text itself. The board is the rules' own unless
/// `rows`/`cols` or `map` are given. `book`: the path of an opening book of these
/// rules (`gsolve book`), whose positions are then answered from it.
#[pyfunction]
#[pyo3(signature = (path_or_text, book = None, **board))]
pub fn rules(path_or_text: &str, book: Option<PathBuf>, board: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
    let looks_like_path = !path_or_text.contains('\n') && Path::new(path_or_text).is_file();
    let (text, name) = if looks_like_path {
        let text = std::fs::read_to_string(path_or_text)
            .map_err(|e| InputError::new_err(format!("cannot read {path_or_text}: {e}")))?;
        (text, path_or_text.to_string())
    } else {
        (path_or_text.to_string(), "rules".to_string())
    };
    let parsed = Rules::parse(&text).map_err(|e| InputError::new_err(format!("{name}: {e}")))?;
    let book = match book {
        Some(path) => Some(gsolve_analysis::book::read(&path).map_err(|e| InputError::new_err(e.to_string()))?.book),
        None => None,
    };
    Game::new(Shared::new(Source::Rules(Arc::new(parsed), book))?, GameKind::Rules, board_parameters(board)?)
}

/// The built-in games' names.
#[pyfunction]
pub fn games() -> Vec<&'static str> {
    GameKind::ALL.iter().map(|g| g.name()).collect()
}

/// A tablebase file (`gsolve build`), answering for its game and board.
#[pyclass(frozen, module = "gsolve")]
pub struct Tablebase {
    path: PathBuf,
    game: Py<Game>,
    index_size: u64,
}

impl Tablebase {
    fn open(path: &Path) -> PyResult<Tablebase> {
        let shared = Shared::new(Source::Tablebase(path.to_path_buf()))?;
        let analyzer = shared.current();
        let (kind, board) =
            analyzer.tablebase_board().ok_or_else(|| TablebaseError::new_err("the tablebase names no game"))?;
        let index_size = gsolve_tablebase::Tablebase::open(path).map_err(|e| tablebase_error(path, e))?.index_size();
        let game = Python::attach(|py| Py::new(py, Game::new(shared, kind, board)?))?;
        Ok(Tablebase { path: path.to_path_buf(), game, index_size })
    }
}

#[pymethods]
impl Tablebase {
    /// Opens a tablebase file.
    #[new]
    fn py_new(path: PathBuf) -> PyResult<Tablebase> {
        Tablebase::open(&path)
    }

    /// The file.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// The game and board the file holds (its analyses answer from the file).
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }

    /// The number of indices the file holds.
    #[getter]
    fn index_size(&self) -> u64 {
        self.index_size
    }

    /// The stored value of `position` (plain notation; the start when omitted).
    #[pyo3(signature = (position = None))]
    fn probe(&self, py: Python<'_>, position: Option<&str>) -> PyResult<Value> {
        Ok(self.game.get().analyze_setup(py, position)?.value)
    }

    /// The stored values of `position` and of every move, best first (as
    /// `gsolve probe`).
    #[pyo3(signature = (position = None))]
    fn analyze(&self, py: Python<'_>, position: Option<&str>) -> PyResult<Analysis> {
        self.game.get().analyze_setup(py, position)
    }

    fn __repr__(&self) -> String {
        format!("gsolve.Tablebase({:?})", self.path.display().to_string())
    }
}
