//! The arguments of `analyze`, `play` and `serve`, and the help the catalog adds to
//! them (its games, their examples of positions and board flags).
//!
//! Uses nothing of the crate: only clap and the catalog.

use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub(crate) setup: SetupArgs,
    /// One JSON object (the same as the web API's /api/analyze).
    #[arg(long)]
    pub(crate) json: bool,
}

/// A game, its board and a position, as `analyze` and `play` take them.
#[derive(Args)]
pub struct SetupArgs {
    /// The game (the catalog's names are listed by `setup_help`).
    #[arg(required_unless_present_any = ["rules", "tablebase", "book"])]
    pub(crate) game: Option<String>,
    /// The position in the game's plain notation (quote it); the start when absent.
    pub(crate) position: Option<String>,
    /// The game of this rules file (docs/rules.md); positions in its notation.
    #[arg(long, value_name = "FILE", conflicts_with = "tablebase")]
    pub(crate) rules: Option<PathBuf>,
    /// The board size (the games taking it are listed by `setup_help`).
    #[arg(long, value_name = "N")]
    pub(crate) size: Option<u32>,
    /// A file with the map (the games taking it are listed by `setup_help`).
    #[arg(long, value_name = "FILE")]
    pub(crate) map: Option<PathBuf>,
    /// Rows of the start board (the games taking it are listed by `setup_help`).
    #[arg(long, value_name = "R")]
    pub(crate) rows: Option<u32>,
    /// Columns of the start board (the games taking it are listed by `setup_help`).
    #[arg(long, value_name = "C")]
    pub(crate) cols: Option<u32>,
    /// Answer from this tablebase (its game and variant only).
    #[arg(long, value_name = "FILE")]
    pub(crate) tablebase: Option<PathBuf>,
    /// Answer positions near the start from this opening book (`gsolve book`);
    /// it stores its rules, so --rules may be left out.
    #[arg(long, value_name = "FILE", conflicts_with = "tablebase")]
    pub(crate) book: Option<PathBuf>,
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub(crate) setup: SetupArgs,
    /// Let the computer move first (the human takes the other side).
    #[arg(long)]
    pub(crate) second: bool,
}

#[derive(Args)]
pub struct ServeArgs {
    /// TCP port (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    pub(crate) port: u16,
    /// Address to listen on. The default serves this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    pub(crate) bind: std::net::IpAddr,
    /// Answer from this tablebase when the page asks for its game and variant.
    #[arg(long, value_name = "FILE")]
    pub(crate) tablebase: Option<PathBuf>,
    /// Offer the game of this rules file (docs/rules.md) beside the built-in ones.
    #[arg(long, value_name = "FILE", conflicts_with = "tablebase")]
    pub(crate) rules: Option<PathBuf>,
    /// With --rules: the position the page opens the rules game on (needed when the
    /// rules give no start, e.g. games on a map: the position carries the map).
    #[arg(long, value_name = "POSITION")]
    pub(crate) start: Option<String>,
    /// Answer positions near the start of the rules game from this opening book
    /// (`gsolve book`); it stores its rules, so --rules may be left out.
    #[arg(long, value_name = "FILE", conflicts_with = "tablebase")]
    pub(crate) book: Option<PathBuf>,
    /// Most connections open at once; one more is answered 503 and closed
    /// (default 1000, fewer if the limit of open files is lower).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) max_connections: Option<u32>,
}

/// What `analyze` says after its examples of positions.
pub(super) const ANALYZE_ABOUT: &str =
    "Without a position: the game's start (--rows/--cols for the games that take them). \
    The solver is picked for the game (docs/games.md): a whole-game solve where the game's index is small \
    enough and for rules games that can repeat a position, alpha-beta for the others, the tablebase with \
    --tablebase.";

/// Examples of positions for the catalog games `shown`: `pawns \`pppp/..../..../PPPP w\``,
/// `chase \`1,1 4,4 w\` with --size`.
pub(super) fn positions_help(shown: impl Fn(&gsolve_analysis::catalog::Entry) -> bool) -> String {
    let mut examples: Vec<String> = gsolve_analysis::CATALOG
        .iter()
        .filter(|entry| shown(entry) && !entry.example_position.is_empty())
        .map(|entry| {
            let flags: Vec<String> = entry.example_variant.iter().map(|(key, _)| format!("--{key}")).collect();
            let with = if flags.is_empty() { String::new() } else { format!(" with {}", flags.join(" and ")) };
            format!("{} `{}`{with}", entry.name, entry.example_position)
        })
        .collect();
    examples.push("a rules game's in the rules' notation, `BBB/.../WWW w`".to_string());
    examples.join("; ")
}

/// The help of `analyze` and `play` for the game, its examples of positions and each
/// board flag, from the catalog: which games take the flag, and what it is.
pub(super) fn setup_help(command: clap::Command, about: &str) -> clap::Command {
    use gsolve_analysis::catalog::{key, names, ParameterKind};
    let taking = |key: &str| names(|entry| entry.parameter(key).is_some());
    // The positionals keep their places (a changed argument is added again last).
    let mut command = command
        .mut_arg("game", |arg| {
            arg.index(1).help(format!(
                "{}; rules (or nothing) with --rules",
                names(|entry| entry.kind != gsolve_analysis::GameKind::Rules)
            ))
        })
        .mut_arg("position", |arg| arg.index(2));
    for flag in [key::SIZE, key::MAP, key::ROWS, key::COLS] {
        let described = gsolve_analysis::CATALOG.iter().find_map(|entry| entry.parameter(flag)).map(|parameter| {
            match parameter.kind {
                ParameterKind::Map { .. } => {
                    format!("{}: a file with {} in the game's own format", taking(flag), parameter.help)
                }
                ParameterKind::Number { .. } if parameter.variant => format!("{}: {}", taking(flag), parameter.help),
                ParameterKind::Number { .. } => format!("{}: {} (without a position)", taking(flag), parameter.help),
            }
        });
        if let Some(described) = described {
            command = command.mut_arg(flag, |arg| arg.help(described));
        }
    }
    if about.is_empty() {
        return command;
    }
    let first = command.get_about().map(|a| a.to_string()).unwrap_or_default();
    command.long_about(format!(
        "{first}.\n\nPositions in the game's plain notation (docs/games.md): {}. {about}",
        positions_help(|_| true)
    ))
}
