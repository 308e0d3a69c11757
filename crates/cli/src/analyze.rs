//! `gsolve analyze`: a position's value and every move's value, best first.

use crate::report::write_error;
use crate::{input, AnalyzeArgs, Failure, SetupArgs};
use gsolve_analysis::{Analysis, AnalysisError, Analyzer, GameKind, Limits, Setup};
use gsolve_engine::Variant;
use gsolve_games::queens_case::{Map, QueensCase};
use std::io::{BufWriter, Write};

/// Errors the user can fix exit with status 2; a solver failure with 1.
pub fn failure(e: AnalysisError) -> Failure {
    match e {
        AnalysisError::Internal(_) => Failure::Other(anyhow::Error::new(e)),
        e => Failure::Input(e.to_string()),
    }
}

/// The setup the arguments describe.
pub fn setup(args: &SetupArgs) -> Result<Setup, Failure> {
    let game = GameKind::from_name(&args.game).map_err(failure)?;
    let mut parameters: Vec<(String, String)> = Vec::new();
    let wrong =
        |option: &str| Failure::Input(format!("{option} does not apply to {game} (see `gsolve analyze --help`)"));
    if let Some(size) = args.size {
        if game != GameKind::Chase {
            return Err(wrong("--size"));
        }
        parameters.push(("size".into(), size.to_string()));
    }
    if let Some(path) = &args.map {
        if game != GameKind::QueensCase {
            return Err(wrong("--map"));
        }
        let (text, name) = input::read(Some(path))?;
        let map = Map::parse(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
        let map_parameter = QueensCase::new(&map).parameters().into_iter().find(|(k, _)| k == "map");
        parameters.extend(map_parameter);
    }
    let board_size = [("rows", args.rows), ("cols", args.cols)];
    for (key, value) in board_size {
        if let Some(value) = value {
            if !matches!(game, GameKind::Pawns | GameKind::Snakes) {
                return Err(wrong(&format!("--{key}")));
            }
            if args.position.is_some() {
                return Err(Failure::Input(format!("--{key} sets the start's board: give it without a position")));
            }
            parameters.push((key.into(), value.to_string()));
        }
    }
    match &args.position {
        Some(position) => {
            // Only the variant parameters travel with a position (pawns and snakes
            // positions carry their board).
            Ok(Setup { game, variant: parameters, position: position.clone() })
        }
        None if parameters.is_empty() => Ok(game.example()),
        None => Analyzer::start(game, &parameters).map_err(failure),
    }
}

/// The analyzer the arguments ask for: with the tablebase if one is given.
pub fn analyzer(tablebase: Option<&std::path::PathBuf>, limits: Limits) -> Result<Analyzer, Failure> {
    match tablebase {
        Some(path) => {
            Analyzer::with_tablebase(limits, path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
        }
        None => Ok(Analyzer::new(limits)),
    }
}

pub fn run(args: &AnalyzeArgs) -> Result<(), Failure> {
    let setup = setup(&args.setup)?;
    let analyzer = analyzer(args.setup.tablebase.as_ref(), Limits::default())?;
    let analysis = analyzer.analyze(&setup).map_err(failure)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    if args.json {
        writeln!(out, "{}", analysis.to_json()).map_err(write_error)?;
    } else {
        print(&analysis, &mut out).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}

/// The human-readable analysis: value, board, moves.
pub fn print(analysis: &Analysis, out: &mut impl Write) -> std::io::Result<()> {
    let setup = &analysis.setup;
    writeln!(out, "{} {}", setup.game, setup.position)?;
    for (key, value) in &setup.variant {
        writeln!(out, "  {key}: {value}")?;
    }
    writeln!(out, "{} to move: {} (solver: {})", analysis.to_move, analysis.value, analysis.solver)?;
    writeln!(out)?;
    for row in &analysis.board.cells {
        let spaced: Vec<String> = row.chars().map(String::from).collect();
        writeln!(out, "  {}", spaced.join(" "))?;
    }
    writeln!(out)?;
    if analysis.moves.is_empty() {
        writeln!(out, "no moves: {}", analysis.end.as_deref().unwrap_or("the game is over"))?;
        return Ok(());
    }
    writeln!(out, "{:<16} {:<14} {:>8}  position after", "move", "value", "vs best")?;
    for m in &analysis.moves {
        let delta = m.delta.map_or_else(|| "-".to_string(), |d| if d > 0 { format!("+{d}") } else { d.to_string() });
        writeln!(out, "{:<16} {:<14} {:>8}  {}", m.label, m.value.to_string(), delta, m.position)?;
    }
    Ok(())
}
