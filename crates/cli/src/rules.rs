//! `gsolve rules FILE [POSITION]...`, and the contest commands with `--rules FILE`:
//! games described in a rules file (docs/rules.md), solved like the built-in ones.

use crate::args::RulesArgs;
use crate::failure::Failure;
use crate::input;
use crate::progress::Bar;
use crate::report::write_error;
use gsolve_analysis::print::{CaseReport, Style};
use gsolve_analysis::{Analyzer, GameKind, Limits, Setup};
use gsolve_engine::Value;
use gsolve_games::notation::{Explain, PlainNotation};
use gsolve_games::text::excerpt;
use gsolve_rules::{setup, Rules, RulesError, RulesGame, RulesPosition, SetupError};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

/// Reads and checks a rules file; errors name the file, line and column.
pub fn load(path: &Path) -> Result<Arc<Rules>, Failure> {
    let (text, name) = input::read_rules(path)?;
    Rules::parse(&text).map(Arc::new).map_err(|e| Failure::Input(format!("{name}: {e}")))
}

/// The analyzer that answers a rules file's positions, with the limits every
/// front end where the user waits takes: the catalog's policy picks the solver
/// (alpha-beta search when the game cannot repeat a position, else a whole solve
/// of the index), and its caches keep what was solved, so that the cases of one
/// board share one solve, or one search table.
fn analyzer(rules: Arc<Rules>) -> Analyzer {
    Analyzer::with_rules(Limits::default(), rules)
}

/// The report of `position` (set up from the rules file as `game`), solved by
/// `analyzer`.
fn report(
    analyzer: &Analyzer,
    game: &RulesGame,
    position: &RulesPosition,
    case: usize,
    answer: impl Fn(Value) -> String,
    style: Style,
) -> Result<CaseReport, Failure> {
    let setup = Setup::new(GameKind::Rules, game.format_position(position));
    let bar = Bar::new();
    if let Some(line) = analyzer.rules_scored_line(&setup, Some(&|p| bar.observe(p)))? {
        // A game with a score: the answer says by how much.
        let sides = game.rules().sides.each_ref().map(|side| gsolve_rules::intern(&side.name));
        let notation = game.format_position(position);
        let answer = gsolve_analysis::print::value_line(&notation, line.value, game.side_to_move(position));
        return Ok(CaseReport::scored(case, answer, &line, sides));
    }
    analyzer
        .with_rules_values(&setup, Some(&|p| bar.observe(p)), |game, values, position| {
            CaseReport::new(case, answer, game, values, position, style)
        })
        .map_err(Failure::from)
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
    let analyzer = analyzer(rules.clone());
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
        let answer = |value: Value| gsolve_analysis::print::value_line(&notation, value, side);
        let report = report(&analyzer, &s.game, &s.position, i + 1, answer, style)?;
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
    let analyzer = analyzer(rules.clone());
    for (i, (text, first_to_move)) in cases.iter().enumerate() {
        let what = format!("case {} as a position of {name} ({})", i + 1, excerpt(text));
        let s = setup(rules.clone(), None, None, Some(text)).map_err(|e| setup_error(&what, e))?;
        let report = report(&analyzer, &s.game, &s.position, i + 1, |v| contest_line(*first_to_move, v), style)?;
        report.print(style, &mut out).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}
