//! `gsolve rules FILE [POSITION]...`, and the contest commands with `--rules FILE`:
//! games described in a rules file (docs/rules.md), solved like the built-in ones.

use crate::args::RulesArgs;
use crate::failure::Failure;
use crate::input;
use crate::progress::Bar;
use crate::report::write_error;
use gsolve_analysis::print::{CaseReport, Style};
use gsolve_analysis::{CatalogGame, GameKind};
use gsolve_engine::search::{SearchError, Searcher};
use gsolve_engine::{Solution, Value, Variant};
use gsolve_games::notation::{Explain, PlainNotation};
use gsolve_games::text::excerpt;
use gsolve_rules::{setup, Rules, RulesError, RulesGame, RulesPosition, SetupError, SolverChoice};
use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

/// The most positions a whole-game solve of a rules game may have here: about 3
/// bytes a position while solving (the same bound as chase n = 100).
pub const MAX_POSITIONS: u64 = 200_000_000;

/// Reads and checks a rules file; errors name the file, line and column.
pub fn load(path: &Path) -> Result<Arc<Rules>, Failure> {
    let (text, name) = input::read_rules(path)?;
    Rules::parse(&text).map(Arc::new).map_err(|e| Failure::Input(format!("{name}: {e}")))
}

/// Entries of a rules game's search table. A rules position is far larger than a
/// built-in game's (up to 48 pieces and the walls), so the table has fewer entries
/// than the built-in games' default for about the same memory.
const SEARCH_TABLE_ENTRIES: usize = 1 << 20;

/// The solver for a game: alpha-beta search when the game cannot repeat a position
/// (exact, ties included, and it needs no index), else retrograde analysis of the
/// whole index (draws exact) within [`MAX_POSITIONS`].
fn choose(game: &RulesGame) -> Result<SolverChoice, Failure> {
    gsolve_analysis::catalog::rules_solver(game, MAX_POSITIONS).map_err(Failure::Input)
}

/// A game's values, as its solver gives them: every position of the index, or a
/// search that answers each position asked about (and keeps what it learnt).
enum Values {
    Whole(Solution),
    Searched(Box<Searcher<'static, RulesGame, RulesGame>>),
}

/// A rules game and its values.
struct Solved {
    game: RulesGame,
    values: Values,
}

impl Solved {
    /// Solves `game` for `position` with the solver [`choose`] picked: whole by
    /// retrograde analysis, or by alpha-beta search from the position.
    fn new(game: RulesGame, choice: SolverChoice, position: &RulesPosition) -> Result<Solved, Failure> {
        let values = match choice {
            SolverChoice::Retrograde => {
                let bar = Bar::new();
                Values::Whole(game.solve_whole(Some(&|p| bar.observe(p))).0)
            }
            SolverChoice::Search => {
                let searcher = Box::new(Searcher::owning(game.clone(), SEARCH_TABLE_ENTRIES));
                let mut solved = Solved { game, values: Values::Searched(searcher) };
                solved.search(position)?;
                return Ok(solved);
            }
        };
        Ok(Solved { game, values })
    }

    /// Makes sure the position's value is known (a search runs for it).
    fn search(&mut self, position: &RulesPosition) -> Result<(), Failure> {
        if let Values::Searched(searcher) = &self.values {
            let bar = Bar::new();
            searcher.value_with_progress(position, Some(&|p| bar.observe(p))).map_err(|e| match e {
                SearchError::Draw => Failure::Input(format!(
                    "{}: the search met a draw, which it cannot value; these rules need a whole-game solve",
                    self.game.rules().name
                )),
                e => Failure::Other(anyhow::anyhow!("{e}")),
            })?;
        }
        Ok(())
    }

    fn report(
        &self,
        case: usize,
        answer: impl Fn(Value) -> String,
        position: &RulesPosition,
        style: Style,
    ) -> CaseReport {
        match &self.values {
            Values::Whole(solution) => CaseReport::new(case, answer, &self.game, solution, position, style),
            Values::Searched(searcher) => CaseReport::new(case, answer, &self.game, &**searcher, position, style),
        }
    }
}

/// Solved games by variant (rules, board, map, piece limits): the cases of one
/// board share one solve, or one search table.
#[derive(Default)]
struct Cache {
    solved: HashMap<Vec<(String, String)>, Solved>,
}

impl Cache {
    /// The value of `position` in `game`, solving what is needed.
    fn solve(&mut self, game: RulesGame, position: &RulesPosition) -> Result<&Solved, Failure> {
        // A search needs no index: one searcher (and its table) serves every
        // position of the board, whatever its pieces.
        let choice = choose(&game)?;
        let mut key = game.parameters();
        if choice == SolverChoice::Search {
            key.retain(|(k, _)| k != "pieces");
        }
        if !self.solved.contains_key(&key) {
            let solved = Solved::new(game, choice, position)?;
            self.solved.insert(key.clone(), solved);
        } else if let Some(solved) = self.solved.get_mut(&key) {
            solved.search(position)?;
        }
        Ok(&self.solved[&key])
    }
}

/// A setup's error as the command line reports it: a map the rules need is
/// given by `--map FILE`.
pub fn setup_error(what: &str, e: SetupError) -> Failure {
    match e {
        SetupError::Rules(RulesError::NeedsMap { .. }) => Failure::Input(format!("{what}: {e} (--map FILE)")),
        e => Failure::Input(format!("{what}: {e}")),
    }
}

/// A board size (rows, columns) and a map, each if asked for.
pub type BoardOptions = (Option<(u32, u32)>, Option<gsolve_rules::board::Map>);

/// The board that `--rows R --cols C` and `--map FILE` ask for, each optional; the
/// map read in the rules' own notation.
pub fn board_options(
    rules: &Rules,
    rows: Option<u32>,
    cols: Option<u32>,
    map: Option<&Path>,
) -> Result<BoardOptions, Failure> {
    let size = match (rows, cols) {
        (Some(r), Some(c)) => Some((r, c)),
        (None, None) => None,
        _ => return Err(Failure::Input("--rows R and --cols C go together".into())),
    };
    let map = match map {
        Some(path) => {
            let (text, name) = input::read(Some(&path.to_path_buf()))?;
            Some(gsolve_rules::notation::parse_map(rules, &text).map_err(|e| Failure::Input(format!("{name}: {e}")))?)
        }
        None => None,
    };
    Ok((size, map))
}

/// `gsolve rules FILE [POSITION]...`.
pub fn run(args: &RulesArgs) -> Result<(), Failure> {
    let rules = load(&args.file)?;
    let name = args.file.display().to_string();
    let (size, map) = board_options(&rules, args.rows, args.cols, args.map.as_deref())?;
    let positions: Vec<Option<&str>> =
        if args.positions.is_empty() { vec![None] } else { args.positions.iter().map(|p| Some(p.as_str())).collect() };
    let style = Style::new(args.explain, args.json);
    let mut out = BufWriter::new(std::io::stdout().lock());
    if args.check && args.positions.is_empty() && rules.start.is_none() {
        // No position to size the index with: the rules alone, on the board asked for.
        let board = match (size, &map) {
            (None, None) => None,
            _ => Some(
                gsolve_rules::board::Board::new(&rules, size, map.clone())
                    .map_err(|e| Failure::Input(format!("{name}: {e}")))?,
            ),
        };
        write!(out, "{}", gsolve_rules::describe_without_position(&rules, board.as_ref())).map_err(write_error)?;
        return out.flush().map_err(write_error);
    }
    let mut cache = Cache::default();
    for (i, text) in positions.iter().enumerate() {
        let what = match text {
            Some(t) => format!("{name}: position {} {}", i + 1, excerpt(t)),
            None => format!("{name}: the start"),
        };
        let s = setup(rules.clone(), size, map.clone(), *text).map_err(|e| setup_error(&what, e))?;
        if args.check {
            write!(out, "{}", s.game.describe()).map_err(write_error)?;
            writeln!(out, "position: {}", s.game.format_position(&s.position)).map_err(write_error)?;
            continue;
        }
        let notation = s.game.format_position(&s.position);
        let side = s.game.side_to_move(&s.position);
        let position = s.position;
        let solved = cache.solve(s.game, &position)?;
        let answer = |value: Value| gsolve_analysis::print::value_line(&notation, value, side);
        let report = solved.report(i + 1, answer, &position, style);
        report.print(style, &mut out).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}

/// The contest cases as positions of the rules' notation, each with whether the
/// contest's first side is to move.
pub type Cases = Vec<(String, bool)>;

/// Solves contest cases with the rules of `rules_file` instead of the built-in game:
/// each case, written as a position of the rules (the letters of the contest's own
/// rules file in examples/rules/), answered in the contest's format.
pub fn contest(game: GameKind, rules_file: &Path, cases: Cases, explain: bool, json: bool) -> Result<(), Failure> {
    let Some(contest_line) = game.entry().contest_line else {
        return Err(Failure::Other(anyhow::anyhow!("{game} has no contest format")));
    };
    let rules = load(rules_file)?;
    let name = rules_file.display();
    let style = Style::new(explain, json);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut cache = Cache::default();
    for (i, (text, first_to_move)) in cases.iter().enumerate() {
        let what = format!("case {} as a position of {name} ({})", i + 1, excerpt(text));
        let s = setup(rules.clone(), None, None, Some(text)).map_err(|e| setup_error(&what, e))?;
        let position = s.position;
        let solved = cache.solve(s.game, &position)?;
        let report = solved.report(i + 1, |v| contest_line(*first_to_move, v), &position, style);
        report.print(style, &mut out).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}
