//! `gsolve analyze`: a position's value and every move's value, best first.

use crate::args::{AnalyzeArgs, SetupArgs};
use crate::failure::Failure;
use crate::input;
use crate::progress::Bar;
use crate::report::write_error;
use gsolve_analysis::catalog::{self, key, Parameter, ParameterKind};
use gsolve_analysis::{Analyzer, GameKind, Limits, Setup};
use std::io::{BufWriter, Write};

/// The setup the arguments describe. With a tablebase (already opened by
/// `analyzer`) the board comes from the file: a position needs no `--size` or
/// `--map`, and no position means the start of the file's board; a flag that
/// contradicts the file is an error naming both.
pub fn setup(args: &SetupArgs, analyzer: &Analyzer) -> Result<Setup, Failure> {
    let stored = analyzer.tablebase_board();
    let (game, position) = game_and_position(args, stored.as_ref().map(|(game, _)| *game))?;
    let file = || args.tablebase.as_ref().map_or_else(String::new, |p| p.display().to_string());
    if let Some((stored_game, board)) = &stored {
        if *stored_game != game {
            return Err(Failure::Input(format!(
                "{} is a tablebase of {stored_game} ({}), not of {game}",
                file(),
                board_text(board)
            )));
        }
    }
    if game == GameKind::Rules {
        return rules_setup(args, analyzer, position);
    }
    let mut parameters: Vec<(String, String)> = Vec::new();
    let wrong =
        |option: &str| Failure::Input(format!("{option} does not apply to {game} (see `gsolve analyze --help`)"));
    // Each flag is a parameter of the game's catalog entry, in its range.
    let entry = game.entry();
    let number = |key: &str, value: u32, (verb, what): (&str, &str)| -> Result<(String, String), Failure> {
        let Some(Parameter { kind: ParameterKind::Number { min, max, .. }, .. }) = entry.parameter(key) else {
            return Err(wrong(&format!("--{key}")));
        };
        if !(*min..=*max).contains(&value) {
            return Err(Failure::Input(format!("--{key} {value}: {game} boards {verb} {min} to {max} {what}")));
        }
        Ok((key.to_string(), value.to_string()))
    };
    if let Some(size) = args.size {
        parameters.push(number(key::SIZE, size, ("are", "cells a side"))?);
    }
    if let Some(path) = &args.map {
        if entry.parameter(key::MAP).is_none_or(|p| !p.variant) {
            return Err(wrong("--map"));
        }
        let Some(read_map) = entry.map_file else { return Err(wrong("--map")) };
        let (text, name) = input::read(Some(path))?;
        let map = read_map(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
        parameters.push((key::MAP.to_string(), map));
    }
    for (key, value, what) in [(key::ROWS, args.rows, "rows"), (key::COLS, args.cols, "columns")] {
        let Some(value) = value else { continue };
        let parameter = number(key, value, ("have", what))?;
        if position.is_some() {
            return Err(Failure::Input(format!("--{key} sets the start's board: give it without a position")));
        }
        parameters.push(parameter);
    }
    match (args.rows, args.cols) {
        (Some(_), None) => return Err(Failure::Input("--rows R needs --cols C as well".into())),
        (None, Some(_)) => return Err(Failure::Input("--cols C needs --rows R as well".into())),
        _ => {}
    }
    if let Some((_, board)) = &stored {
        // Every flag given must say what the file says.
        for (key, value) in &parameters {
            let theirs = board.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
            if theirs != Some(value.as_str()) {
                let flag = if key == "map" { "--map".to_string() } else { format!("--{key} {value}") };
                return Err(Failure::Input(format!(
                    "{flag} contradicts the tablebase {}, which holds {game} {}",
                    file(),
                    board_text(board)
                )));
            }
        }
    }
    match position {
        Some(position) => {
            if stored.is_none() {
                let given = |p: &&Parameter| parameters.iter().any(|(k, _)| k == p.key);
                if let Some(needed) = entry.parameters.iter().filter(|p| p.variant).find(|p| !given(p)) {
                    let flag = match needed.kind {
                        ParameterKind::Number { .. } => format!("--{} N", needed.key),
                        ParameterKind::Map { .. } => format!("--{} FILE (one map)", needed.key),
                    };
                    return Err(Failure::Input(format!(
                        "a {game} position needs {}: give {flag}, or a tablebase of {game} with --tablebase FILE",
                        needed.help
                    )));
                }
            }
            // Only the variant parameters travel with a position (pawns and snakes
            // positions carry their board); the analyzer fills in the tablebase's.
            let variant = entry.variant_of(&parameters);
            Ok(Setup { game, variant, position: position.to_string() })
        }
        None if !parameters.is_empty() => analyzer.start(game, &parameters).map_err(Failure::from),
        None => match &stored {
            Some((_, board)) => analyzer.start(game, board).map_err(Failure::from),
            None => analyzer.example(game).map_err(Failure::from),
        },
    }
}

/// The game and the position the arguments name. The game may be left out where
/// `--rules` or a tablebase says it: the one word given is then the position.
fn game_and_position(args: &SetupArgs, stored: Option<GameKind>) -> Result<(GameKind, Option<&str>), Failure> {
    let implied = if args.rules.is_some() || args.book.is_some() { Some(GameKind::Rules) } else { stored };
    let named = args.game.as_deref().map(GameKind::from_name);
    match (named, implied) {
        (Some(Ok(game)), _) => {
            if (args.rules.is_some() || args.book.is_some()) && game != GameKind::Rules {
                let flag = if args.rules.is_some() { "--rules" } else { "--book" };
                return Err(Failure::Input(format!("{flag} gives the game of a rules file, not {game}")));
            }
            if game == GameKind::Rules && implied != Some(GameKind::Rules) {
                return Err(Failure::Input(
                    "the game rules needs its rules file: give --rules FILE (or a tablebase of the rules)".into(),
                ));
            }
            Ok((game, args.position.as_deref()))
        }
        (Some(Err(_)), Some(game)) if args.position.is_none() => Ok((game, args.game.as_deref())),
        (Some(Err(e)), _) => Err(Failure::from(e)),
        (None, Some(game)) => Ok((game, None)),
        (None, None) => Err(Failure::Input(format!(
            "give a game: {}, or --rules FILE",
            catalog::names(|e| e.kind != GameKind::Rules)
        ))),
    }
}

/// A rules game's setup: the position given, or the rules' start on `--rows`/`--cols`
/// or `--map`, or on the tablebase's board.
fn rules_setup(args: &SetupArgs, analyzer: &Analyzer, position: Option<&str>) -> Result<Setup, Failure> {
    if args.size.is_some() {
        return Err(Failure::Input("--size does not apply to a rules game: give --rows R --cols C".into()));
    }
    let rules = analyzer.rules().ok_or_else(|| Failure::Input("a rules game needs --rules FILE".into()))?;
    let (size, map) = crate::rules::board_options(rules, args.rows, args.cols, args.map.as_deref())?;
    let mut parameters: Vec<(String, String)> = Vec::new();
    if let Some((rows, cols)) = size {
        parameters.push(("rows".into(), rows.to_string()));
        parameters.push(("cols".into(), cols.to_string()));
    }
    if let Some(map) = map {
        parameters.push(("map".into(), map.text()));
    }
    match position {
        Some(position) if parameters.is_empty() => Ok(Setup::new(GameKind::Rules, position)),
        Some(_) => Err(Failure::Input(
            "--rows, --cols and --map set the start's board: give them without a position (a position carries its board)"
                .into(),
        )),
        None => {
            let board = match analyzer.tablebase_board() {
                Some((_, board)) if parameters.is_empty() => board,
                _ => parameters,
            };
            analyzer.start(GameKind::Rules, &board).map_err(Failure::from)
        }
    }
}

/// Board parameters as `size=10`, a map by its size.
fn board_text(board: &[(String, String)]) -> String {
    let shown: Vec<String> = board
        .iter()
        .map(|(k, v)| match k.as_str() {
            "map" => format!("a {}x{} map", v.split('/').next().map_or(0, |r| r.chars().count()), v.split('/').count()),
            _ => format!("{k}={v}"),
        })
        .collect();
    shown.join(" ")
}

/// The analyzer the arguments ask for: with the tablebase if one is given, with the
/// rules of a rules file if one is given (else those an opening book stores), with
/// the opening book if one is given.
pub fn analyzer(
    tablebase: Option<&std::path::PathBuf>,
    rules: Option<&std::path::PathBuf>,
    book: Option<&std::path::PathBuf>,
    limits: Limits,
) -> Result<Analyzer, Failure> {
    let book =
        book.map(|path| gsolve_analysis::book::read(path).map_err(|e| Failure::Input(e.to_string()))).transpose()?;
    let analyzer = match (tablebase, rules, &book) {
        (Some(path), _, _) => {
            Analyzer::with_tablebase(limits, path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?
        }
        (None, Some(path), _) => Analyzer::with_rules(limits, crate::rules::load(path)?),
        (None, None, Some(book)) => Analyzer::with_rules(limits, book.rules.clone()),
        (None, None, None) => Analyzer::new(limits),
    };
    match book {
        Some(book) => analyzer.with_book(book.book).map_err(|e| Failure::Input(e.to_string())),
        None => Ok(analyzer),
    }
}

pub fn run(args: &AnalyzeArgs) -> Result<(), Failure> {
    let analyzer = analyzer(
        args.setup.tablebase.as_ref(),
        args.setup.rules.as_ref(),
        args.setup.book.as_ref(),
        Limits::default(),
    )?;
    let setup = setup(&args.setup, &analyzer)?;
    let bar = Bar::new();
    let analysis = analyzer.analyze_with_progress(&setup, Some(&|p| bar.observe(p))).map_err(Failure::from)?;
    drop(bar);
    let mut out = BufWriter::new(std::io::stdout().lock());
    if args.json {
        writeln!(out, "{}", analysis.to_json()).map_err(write_error)?;
    } else {
        gsolve_analysis::print::write_analysis(&analysis, &mut out).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}
