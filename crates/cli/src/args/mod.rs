//! The command line: every command's arguments (clap's derives), and the commands
//! the catalog adds to them, in the order `gsolve --help` lists them.
//!
//! The bottom layer of the crate, beside [`crate::failure`]: it uses no other module
//! of the crate (only clap, the catalog and the games' limits), and each command's
//! module takes its arguments from here. The arguments are grouped as the help
//! lists the commands: [`games`] (the seed games' contests and `rules`),
//! [`analysis`] (`analyze`, `play`, `serve`) and [`tablebase`] (`build`, `book`,
//! `probe`, `verify`, `info`).

mod analysis;
mod games;
mod tablebase;

pub use analysis::{AnalyzeArgs, PlayArgs, ServeArgs, SetupArgs};
pub use games::{CaseArgs, PawnsArgs, PursuitArgs, RulesArgs};
pub use tablebase::{
    BookArgs, BuildArgs, BuildGame, DistributedArgs, InfoArgs, OpponentArg, OutputArgs, ProbeArgs, TierArgs, VerifyArgs,
};

use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use gsolve_analysis::catalog::Entry;
use gsolve_analysis::GameKind;

/// Exact solver for two-player games of perfect information.
///
/// Reads each contest's own input format and prints its output exactly; `--explain`
/// and `--json` show the value, remoteness and optimal line of each case.
#[derive(Parser)]
#[command(name = "gsolve", version, about, long_about = None, propagate_version = true)]
pub(crate) struct Cli {
    /// Worker threads for parallel solves, 1 to 256 (default: all cores).
    #[arg(long, short = 'j', global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) threads: Option<u16>,
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The commands declared here, in the order the help lists them after the seed
/// games' contests: `rules`, the interactive commands, the tablebase commands, then
/// the licences ([`in_catalog_order`]).
#[derive(Subcommand)]
pub enum Command {
    /// Pawn chess (UVa 10838) on any R×C board, 2 ≤ R, C ≤ 8.
    ///
    /// Input: the number of cases, then each board as a block of lines after a blank
    /// line (first line: white's goal rank; `P` white, `p` black, `.` empty). White is
    /// to move. Output per case: `white (x)` or `black (x)`, x = plies until decided.
    /// With --summary: solve every position of an R×C board and count them.
    Pawns(PawnsArgs),
    /// Two snakes (alternating Tron): who wins, and on which ply the loser is stuck.
    ///
    /// Input: `n m`, then n·m integers row by row (0 empty, 1 and 2 the snakes' heads,
    /// anything else an obstacle); several cases may follow one another. Output per
    /// case: `w k`, the winner and the 1-based ply on which the loser is stuck.
    /// Boards up to 64x64 with at most 256 empty cells.
    Snakes(CaseArgs),
    /// A game described in a rules file (docs/rules.md): each position's value and
    /// remoteness, or what the file means (--check).
    ///
    /// Positions in the rules' notation: the board's rows from the top joined by `/`,
    /// then the letter of the side to move (`BBBB/..../..../WWWW w`). Without a
    /// position: the rules' start on the default board, or on --rows R --cols C.
    /// Games that cannot repeat a position are searched (alpha-beta); the others are
    /// solved whole by retrograde analysis, draws found exactly.
    Rules(RulesArgs),
    /// Value of a position and of every legal move, best first.
    ///
    /// Positions in the game's plain notation (the examples are made from the
    /// catalog in `positions_help`).
    Analyze(AnalyzeArgs),
    /// Play against perfect play in the terminal (ratatui).
    ///
    /// The same game and position arguments as `analyze`. Keys: arrows or j/k choose
    /// a move, Enter (or space) plays it, h toggles hints (each move marked win/draw/loss),
    /// u undoes, s swaps sides, n starts a new game, g switches between Unicode
    /// pieces and ASCII letters, q (or Esc, Ctrl-C) quits. Long solves show their
    /// progress. The window must be at least 40 columns by 14 rows; a board too big
    /// for it shrinks its cells, then scrolls to the selected move.
    Play(PlayArgs),
    /// A local web page to set up positions, see every move's value and play.
    ///
    /// Serves the page and a JSON API under /api/ (docs/web-api.md) from files
    /// embedded in the binary; binds to 127.0.0.1 unless --bind says otherwise.
    Serve(ServeArgs),
    /// Solve every position of a game and write a tablebase file.
    ///
    /// The file stores each position's value and remoteness, compressed in blocks
    /// with checksums (docs/tablebase-format.md); probe, verify and info read it.
    Build(BuildArgs),
    /// An opening book of a line game (docs/rules-solving.md, "Opening books"): every
    /// position at most --plies moves from the start solved once, so that
    /// analyze, play and serve (--book FILE) answer them at once.
    ///
    /// Each position of the last ply is searched, the earlier ones follow from
    /// their children. Connect 4 on 7 × 6: see docs/performance.md for the time
    /// each ply takes.
    Book(BookArgs),
    /// Value of positions in a tablebase, and every move's value, best first.
    ///
    /// Positions in the game's plain notation (the examples are made from the
    /// catalog in `positions_help`).
    Probe(ProbeArgs),
    /// Prove a tablebase right: every block's checksum, and every position's value
    /// re-derived from the rules and its children's stored values. Exit 1 on failure.
    Verify(VerifyArgs),
    /// A tablebase's header, counts by side to move and remoteness, longest win.
    Info(InfoArgs),
    /// The licences of the third-party code in this binary (the THIRD-PARTY file).
    Licenses,
}

/// What the command line asks for.
pub enum Invocation<'a> {
    /// A command declared in [`Command`].
    Declared(Command),
    /// The contest command the catalog made for a game.
    Contest(&'static Entry, PursuitArgs),
    /// `build GAME` for a catalog game built from its variant parameters: the
    /// arguments of the command [`tablebase::build_command`] made for it.
    BuildVariant(&'static Entry, &'a ArgMatches),
}

/// The command `matches` (of [`command`]) names, with its arguments. Exits as clap
/// does if they cannot be taken.
pub fn invocation(matches: &ArgMatches) -> Invocation<'_> {
    // A command the catalog made is run from its matches; the others are parsed
    // into the declared `Cli`.
    let contest = matches.subcommand().and_then(|(name, sub)| Some((contest_entry(name)?, sub)));
    let built = match matches.subcommand() {
        Some(("build", build)) => build.subcommand().and_then(|(name, sub)| Some((built_entry(name)?, sub))),
        _ => None,
    };
    match (contest, built) {
        (Some((entry, contest_matches)), _) => match PursuitArgs::from_arg_matches(contest_matches) {
            Ok(args) => Invocation::Contest(entry, args),
            Err(e) => e.exit(),
        },
        (_, Some((entry, game_matches))) => Invocation::BuildVariant(entry, game_matches),
        _ => match Cli::from_arg_matches(matches) {
            Ok(cli) => Invocation::Declared(cli.command),
            Err(e) => e.exit(),
        },
    }
}

/// The catalog game whose contest command is `name`.
fn contest_entry(name: &str) -> Option<&'static Entry> {
    gsolve_analysis::CATALOG.iter().find(|entry| entry.contest.is_some() && entry.name == name)
}

/// The catalog game whose `build` command is `name`.
fn built_entry(name: &str) -> Option<&'static Entry> {
    gsolve_analysis::CATALOG.iter().find(|entry| entry.build.is_some() && entry.name == name)
}

/// The command line: the commands declared here, and before them a command for each
/// contest the catalog judges (named after its game, with its help).
pub fn command() -> clap::Command {
    let catalog = &gsolve_analysis::CATALOG;
    let mut command = Cli::command();
    for entry in catalog.iter() {
        if let Some(contest) = entry.contest {
            let args = PursuitArgs::augment_args(clap::Command::new(entry.name));
            command = command.subcommand(args.about(contest.about).long_about(contest.long_about));
        }
    }
    // Ordered before any `mut_subcommand`, which moves the command it changes last.
    command = in_catalog_order(command);
    command = command.mut_subcommand("build", |build| {
        let build = catalog.iter().fold(build, |build, entry| match entry.build {
            Some(help) => build.subcommand(tablebase::build_command(entry, help)),
            None => build,
        });
        in_catalog_order(build)
    });
    command
        .mut_subcommand("analyze", |analyze| analysis::setup_help(analyze, analysis::ANALYZE_ABOUT))
        .mut_subcommand("play", |play| analysis::setup_help(play, ""))
        .mut_subcommand("probe", |probe| {
            probe.long_about(format!(
                "Value of positions in a tablebase, and every move's value, best first.\n\nPositions in the game's plain notation: {}.",
                analysis::positions_help(|entry| entry.stored)
            ))
        })
}

/// `command`'s subcommands listed in the help as the catalog lists the seed games,
/// then the other commands (`rules` among them) in the order they are declared.
fn in_catalog_order(mut command: clap::Command) -> clap::Command {
    let catalog = &gsolve_analysis::CATALOG;
    let names: Vec<String> = command.get_subcommands().map(|sub| sub.get_name().to_string()).collect();
    for (place, name) in names.iter().enumerate() {
        let game = catalog.iter().position(|entry| entry.name == name && entry.kind != GameKind::Rules);
        command = command.mut_subcommand(name, |sub| sub.display_order(game.unwrap_or(catalog.len() + place)));
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;
    use gsolve_analysis::catalog::ParameterKind;

    #[test]
    fn the_command_line_is_well_formed() {
        command().debug_assert();
    }

    /// The help lists the seed games' contests, then `rules`, the interactive
    /// commands, the tablebase commands and the licences.
    #[test]
    fn the_help_lists_the_commands_in_a_readers_order() {
        let command = command();
        let mut listed: Vec<_> =
            command.get_subcommands().map(|sub| (sub.get_display_order(), sub.get_name())).collect();
        listed.sort();
        let names: Vec<&str> = listed.iter().map(|(_, name)| *name).collect();
        let games: Vec<&str> = gsolve_analysis::CATALOG
            .iter()
            .filter(|entry| entry.kind != GameKind::Rules)
            .map(|entry| entry.name)
            .collect();
        let rest = ["rules", "analyze", "play", "serve", "build", "book", "probe", "verify", "info", "licenses"];
        assert_eq!(names, [&games[..], &rest[..]].concat());
    }

    /// Each catalog contest is a command, and each game built from its parameters a
    /// `build` command taking each parameter (a number as a flag, a map as a file).
    #[test]
    fn contests_and_builds_come_from_the_catalog() {
        let command = command();
        let build = command.find_subcommand("build").expect("build");
        for entry in gsolve_analysis::CATALOG.iter() {
            if let Some(contest) = entry.contest {
                let sub = command.find_subcommand(entry.name).expect("a contest command");
                assert_eq!(sub.get_about().map(|a| a.to_string()).as_deref(), Some(contest.about));
                assert!(sub.get_arguments().any(|a| a.get_id() == "retrograde"));
            }
            let Some(help) = entry.build else { continue };
            let sub = build.find_subcommand(entry.name).expect("a build command");
            for parameter in entry.parameters {
                let arg = sub.get_arguments().find(|a| a.get_id() == parameter.key).expect("a parameter's argument");
                assert!(arg.is_required_set(), "{} {}", entry.name, parameter.key);
                match parameter.kind {
                    ParameterKind::Number { .. } => assert_eq!(arg.get_long(), Some(parameter.key)),
                    ParameterKind::Map { .. } => assert!(arg.is_positional()),
                }
            }
            assert_eq!(sub.get_arguments().any(|a| a.get_id() == "memory"), help.tiers, "{}", entry.name);
        }
        // The numbers' ranges are the games'.
        let sizes = |argv: &[&str]| command.clone().try_get_matches_from(argv).map(|_| ()).map_err(|e| e.kind());
        assert!(sizes(&["gsolve", "build", "chase", "--size", "100", "-o", "x"]).is_ok());
        assert!(sizes(&["gsolve", "build", "chase", "--size", "101", "-o", "x"]).is_err());
        assert!(sizes(&["gsolve", "build", "pawns", "--rows", "9", "--cols", "4", "-o", "x"]).is_err());
    }
}
