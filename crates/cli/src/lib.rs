//! `gsolve`: the command-line front end. It parses arguments, picks a game and a
//! solver, and prints; everything else lives in the engine, games, tablebase and
//! analysis crates. The binary (`src/main.rs`) only calls [`main`]; the library
//! form lets the fuzz targets call the same entry points in-process.
#![forbid(unsafe_code)]

mod analyze;
mod book;
mod contest;
mod distributed;
mod input;
mod interrupt;
mod pawns;
mod play;
mod progress;
mod report;
mod rules;
mod search;
pub mod serve;
mod snakes;
mod tablebase;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use distributed::DistributedArgs;

/// The sides of a pawns board the flags take: the game's own limits.
const PAWNS_SIDES: std::ops::RangeInclusive<i64> =
    gsolve_games::pawns::MIN_SIDE as i64..=gsolve_games::pawns::MAX_SIDE as i64;

/// The notices of the crates linked in, generated from Cargo.lock (tests/supply_chain.rs).
const THIRD_PARTY: &str = include_str!("../../../THIRD-PARTY");
use std::path::PathBuf;
use std::process::ExitCode;

/// Exact solver for two-player games of perfect information.
///
/// Reads each contest's own input format and prints its output exactly; `--explain`
/// and `--json` show the value, remoteness and optimal line of each case.
#[derive(Parser)]
#[command(name = "gsolve", version, about, long_about = None, propagate_version = true)]
struct Cli {
    /// Worker threads for parallel solves, 1 to 256 (default: all cores).
    #[arg(long, short = 'j', global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
    /// Solve every position of a game and write a tablebase file.
    ///
    /// The file stores each position's value and remoteness, compressed in blocks
    /// with checksums (docs/tablebase-format.md); probe, verify and info read it.
    Build(BuildArgs),
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
    /// A game described in a rules file (docs/rules.md): each position's value and
    /// remoteness, or what the file means (--check).
    ///
    /// Positions in the rules' notation: the board's rows from the top joined by `/`,
    /// then the letter of the side to move (`BBBB/..../..../WWWW w`). Without a
    /// position: the rules' start on the default board, or on --rows R --cols C.
    /// Games that cannot repeat a position are searched (alpha-beta); the others are
    /// solved whole by retrograde analysis, draws found exactly.
    Rules(RulesArgs),
    /// An opening book of a line game (docs/rules.md, "Opening books"): every
    /// position at most --plies moves from the start solved once, so that
    /// analyze, play and serve (--book FILE) answer them at once.
    ///
    /// Each position of the last ply is searched, the earlier ones follow from
    /// their children. Connect 4 on 7 × 6: see docs/rules.md for the time each ply
    /// takes.
    Book(BookArgs),
    /// The licences of the third-party code in this binary (the THIRD-PARTY file).
    Licenses,
}

#[derive(Args)]
pub struct BookArgs {
    /// The rules file (TOML; docs/rules.md) of a line game.
    file: PathBuf,
    /// The position the book starts from, in the rules' notation; the rules' start
    /// when absent.
    position: Option<String>,
    /// Rows of the board for the start (with --cols).
    #[arg(long, value_name = "R")]
    rows: Option<u32>,
    /// Columns of the board for the start (with --rows).
    #[arg(long, value_name = "C")]
    cols: Option<u32>,
    /// How many plies from the start the book covers.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=gsolve_rules::book::MAX_BOOK_PLIES as i64))]
    plies: u32,
    /// Also the positions that games against perfect play analyse before ply K
    /// (the computer's moves as `gsolve play` makes them, playing either side;
    /// every move of its opponent, or its best moves: --opponent), and every
    /// move from them: play answers at once along those lines.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=gsolve_rules::book::MAX_PLAY_PLIES as i64))]
    play: Option<u32>,
    /// Whose moves the lines of play (--play) follow at the opponent's turns:
    /// every move (any, the default), or only its best moves (perfect: games
    /// against perfect play stay on the lines, which reach deeper in the same
    /// time).
    #[arg(long, value_enum, value_name = "WHO", requires = "play")]
    opponent: Option<OpponentArg>,
    /// The book file to write.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: PathBuf,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    force: bool,
}

/// `gsolve book --opponent`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum OpponentArg {
    /// Every move.
    Any,
    /// Every move of the best value.
    Perfect,
}

#[derive(Args)]
pub struct RulesArgs {
    /// The rules file (TOML; docs/rules.md).
    file: PathBuf,
    /// Positions in the rules' notation (quote them); the start when absent.
    #[arg(value_name = "POSITION")]
    positions: Vec<String>,
    /// Rows of the board for the start (with --cols).
    #[arg(long, value_name = "R")]
    rows: Option<u32>,
    /// Columns of the board for the start (with --rows).
    #[arg(long, value_name = "C")]
    cols: Option<u32>,
    /// For rules whose board is a map: a file with the map (rows of `.`, `#` and the
    /// zones' marks); positions then need not repeat it.
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// Print what the file means (sides, pieces, moves, endings, index size) and
    /// solve nothing.
    #[arg(long, conflicts_with_all = ["explain", "json"])]
    check: bool,
    /// Per position: the value, remoteness and the optimal line of play, one ply a line.
    #[arg(long, conflicts_with = "json")]
    explain: bool,
    /// One JSON object a position.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// One JSON object (the same as the web API's /api/analyze).
    #[arg(long)]
    json: bool,
}

/// A game, its board and a position, as `analyze` and `play` take them.
#[derive(Args)]
pub struct SetupArgs {
    /// The game (the catalog's names are listed by `setup_help`).
    #[arg(required_unless_present_any = ["rules", "tablebase", "book"])]
    game: Option<String>,
    /// The position in the game's plain notation (quote it); the start when absent.
    position: Option<String>,
    /// The game of this rules file (docs/rules.md); positions in its notation.
    #[arg(long, value_name = "FILE", conflicts_with = "tablebase")]
    rules: Option<PathBuf>,
    /// The board size (the games taking it are listed by `setup_help`).
    #[arg(long, value_name = "N")]
    size: Option<u32>,
    /// A file with the map (the games taking it are listed by `setup_help`).
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// Rows of the start board (the games taking it are listed by `setup_help`).
    #[arg(long, value_name = "R")]
    rows: Option<u32>,
    /// Columns of the start board (the games taking it are listed by `setup_help`).
    #[arg(long, value_name = "C")]
    cols: Option<u32>,
    /// Answer from this tablebase (its game and variant only).
    #[arg(long, value_name = "FILE")]
    tablebase: Option<PathBuf>,
    /// Answer positions near the start from this opening book (`gsolve book`);
    /// it stores its rules, so --rules may be left out.
    #[arg(long, value_name = "FILE", conflicts_with = "tablebase")]
    book: Option<PathBuf>,
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    setup: SetupArgs,
    /// Let the computer move first (the human takes the other side).
    #[arg(long)]
    second: bool,
}

#[derive(Args)]
pub struct ServeArgs {
    /// TCP port (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. The default serves this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
    /// Answer from this tablebase when the page asks for its game and variant.
    #[arg(long, value_name = "FILE")]
    tablebase: Option<PathBuf>,
    /// Offer the game of this rules file (docs/rules.md) beside the built-in ones.
    #[arg(long, value_name = "FILE", conflicts_with = "tablebase")]
    rules: Option<PathBuf>,
    /// With --rules: the position the page opens the rules game on (needed when the
    /// rules give no start, e.g. games on a map: the position carries the map).
    #[arg(long, value_name = "POSITION")]
    start: Option<String>,
    /// Answer positions near the start of the rules game from this opening book
    /// (`gsolve book`); it stores its rules, so --rules may be left out.
    #[arg(long, value_name = "FILE", conflicts_with = "tablebase")]
    book: Option<PathBuf>,
    /// Most connections open at once; one more is answered 503 and closed
    /// (default 1000, fewer if the limit of open files is lower).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_connections: Option<u32>,
}

#[derive(Args)]
struct BuildArgs {
    #[command(subcommand)]
    game: BuildGame,
}

/// Where and how `build` writes.
#[derive(Args)]
pub(crate) struct OutputArgs {
    /// The tablebase file to write.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub(crate) output: PathBuf,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub(crate) force: bool,
    /// zstd compression level, 1 (fastest) to 22 (smallest).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(i32).range(1..=22))]
    pub(crate) level: i32,
}

#[derive(Subcommand)]
enum BuildGame {
    /// The game of a rules file (docs/rules.md): every position with at most as
    /// many pieces of each kind as the position given (or the rules' start), on its
    /// board, either side to move; solved tier by tier on disk like pawns (draws
    /// found exactly), or, for a pursuit (one piece a side: `gsolve rules FILE
    /// --check` says so) and a game of one tier that may have cycles, whole in
    /// memory unless --memory or --work-dir ask for tiers (the same file). The
    /// file stores the rules: probe, verify and info need only it.
    Rules {
        /// The rules file.
        file: PathBuf,
        /// A position in the rules' notation: its board and its pieces set what is
        /// stored (the rules' start when absent).
        position: Option<String>,
        /// Rows of the start's board (without a position; with --cols).
        #[arg(long, value_name = "R", conflicts_with = "position")]
        rows: Option<u32>,
        /// Columns of the start's board (without a position; with --rows).
        #[arg(long, value_name = "C", conflicts_with = "position")]
        cols: Option<u32>,
        /// For rules whose board is a map: a file with the map.
        #[arg(long, value_name = "FILE", conflicts_with = "position")]
        map: Option<PathBuf>,
        #[command(flatten)]
        tiers: TierArgs,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        distributed: DistributedArgs,
    },
}

/// How a tiered build uses memory and disk.
#[derive(Args, Clone, Default)]
pub(crate) struct TierArgs {
    /// The most memory a tier's solve may take (e.g. 1500M, 8G); a tier that needs
    /// more is refused before any work starts.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub(crate) memory: Option<u64>,
    /// Where finished tiers are kept until the file is written (default:
    /// FILE.work). In a distributed build each process keeps its own parts
    /// there: a directory on each machine's own disk will do.
    #[arg(long, value_name = "DIR")]
    pub(crate) work_dir: Option<PathBuf>,
    /// In a distributed build: a tier of more positions than this, counting
    /// those of the tiers it reads, is split over every worker; a smaller one
    /// is solved whole by one worker, beside others (0: split every tier).
    #[arg(long, value_name = "POSITIONS", default_value_t = gsolve_distributed::tiered::Options::default().small)]
    pub(crate) split_above: u64,
}

#[derive(Args)]
struct ProbeArgs {
    /// The tablebase file.
    file: PathBuf,
    /// Positions in the game's plain notation (quote them: they contain spaces).
    #[arg(required = true, value_name = "POSITION")]
    positions: Vec<String>,
    /// One JSON object a position.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct VerifyArgs {
    /// The tablebase file.
    file: PathBuf,
}

#[derive(Args)]
struct InfoArgs {
    /// The tablebase file.
    file: PathBuf,
    /// One JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct PawnsArgs {
    /// Input file; standard input when absent or `-`.
    #[arg(conflicts_with = "summary")]
    file: Option<PathBuf>,
    /// Solve the same boards with black to move.
    #[arg(long, conflicts_with = "summary")]
    black_to_move: bool,
    /// Solve with the rules of this file instead of the built-in game (`P`, `p`, sides
    /// `w` and `b`, as examples/rules/pawns.toml); the output is the same.
    #[arg(long, value_name = "FILE", conflicts_with = "summary")]
    rules: Option<PathBuf>,
    /// Per case: the value, remoteness and the optimal line of play, one ply a line.
    #[arg(long, conflicts_with_all = ["json", "summary"])]
    explain: bool,
    /// One JSON object per case (or for the summary).
    #[arg(long)]
    json: bool,
    /// Solve every position of an R×C board (at most C pawns a side) and print
    /// counts of wins and losses by remoteness, and the longest win.
    #[arg(long)]
    summary: bool,
    /// Rows of the board for --summary.
    #[arg(long, value_name = "R", value_parser = clap::value_parser!(u32).range(PAWNS_SIDES))]
    rows: Option<u32>,
    /// Columns of the board for --summary.
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u32).range(PAWNS_SIDES))]
    cols: Option<u32>,
}

/// The arguments of the two pursuit games' commands.
#[derive(Args)]
struct PursuitArgs {
    #[command(flatten)]
    case: CaseArgs,
    /// Solve every position with the engine's retrograde analysis (as `build` and
    /// `analyze` do) instead of the fastest exact way for each case (walking
    /// distances, or the bit-parallel solve of the grid). The output is the same.
    #[arg(long)]
    retrograde: bool,
}

#[derive(Args)]
struct CaseArgs {
    /// Input file; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Solve with the rules of this file instead of the built-in game (its letters
    /// those of the game's file in examples/rules/); the output is the same.
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// Per case: the value, remoteness and the optimal line of play, one ply a line.
    #[arg(long, conflicts_with = "json")]
    explain: bool,
    /// Per case: one JSON object a line with the value, remoteness and optimal line.
    #[arg(long)]
    json: bool,
}

/// A size in bytes: a number with an optional unit, K, M, G or T (powers of 1024; a
/// trailing `B` or `iB` is allowed): `1500M`, `8G`, `8GiB`, `1073741824`.
fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let upper = trimmed.to_ascii_uppercase();
    let number_end = upper.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(upper.len());
    let (number, unit) = upper.split_at(number_end);
    let shift = match unit.trim_end_matches("IB").trim_end_matches('B') {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(format!("{}: expected a size like 1500M or 8G", gsolve_games::text::excerpt(text))),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{}: expected a size like 1500M or 8G", gsolve_games::text::excerpt(text)))?;
    let bytes = value * (1u64 << shift) as f64;
    if !(1.0..=1e18).contains(&bytes) {
        return Err(format!("{}: out of range", gsolve_games::text::excerpt(text)));
    }
    Ok(bytes as u64)
}

/// How a failed run ends: bad input exits with status 2, anything else with 1.
#[derive(Debug)]
pub enum Failure {
    /// The input is malformed or cannot be read.
    Input(String),
    /// Something else went wrong.
    Other(anyhow::Error),
    /// A verification found the file wrong (exit status 1).
    Verification(String),
    /// Stop without a message, successfully (the output's reader has gone).
    Quiet,
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Other(e)
    }
}

/// The catalog game whose contest command is `name`.
fn contest_entry(name: &str) -> Option<&'static gsolve_analysis::catalog::Entry> {
    gsolve_analysis::CATALOG.iter().find(|entry| entry.contest.is_some() && entry.name == name)
}

/// The catalog game whose `build` command is `name`.
fn built_entry(name: &str) -> Option<&'static gsolve_analysis::catalog::Entry> {
    gsolve_analysis::CATALOG.iter().find(|entry| entry.build.is_some() && entry.name == name)
}

/// The command line: the commands declared here, and before them a command for each
/// contest the catalog judges (named after its game, with its help).
fn command() -> clap::Command {
    let catalog = &gsolve_analysis::CATALOG;
    let mut command = Cli::command();
    for entry in catalog.iter() {
        if let Some(contest) = entry.contest {
            let args = PursuitArgs::augment_args(clap::Command::new(entry.name));
            command = command.subcommand(args.about(contest.about).long_about(contest.long_about));
        }
    }
    command = command.mut_subcommand("build", |build| {
        let build = catalog.iter().fold(build, |build, entry| match entry.build {
            Some(help) => build.subcommand(build_command(entry, help)),
            None => build,
        });
        in_catalog_order(build)
    });
    let command = command
        .mut_subcommand("analyze", |analyze| setup_help(analyze, ANALYZE_ABOUT))
        .mut_subcommand("play", |play| setup_help(play, ""))
        .mut_subcommand("probe", |probe| {
            probe.long_about(format!(
                "Value of positions in a tablebase, and every move's value, best first.\n\nPositions in the game's plain notation: {}.",
                positions_help(|entry| entry.stored)
            ))
        });
    in_catalog_order(command)
}

/// What `analyze` says after its examples of positions.
const ANALYZE_ABOUT: &str = "Without a position: the game's start (--rows/--cols for the games that take them). \
    The solver is picked for the game (docs/games.md): a whole-game solve where the game's index is small \
    enough and for rules games that can repeat a position, alpha-beta for the others, the tablebase with \
    --tablebase.";

/// Examples of positions for the catalog games `shown`: `pawns \`pppp/..../..../PPPP w\``,
/// `chase \`1,1 4,4 w\` with --size`.
fn positions_help(shown: impl Fn(&gsolve_analysis::catalog::Entry) -> bool) -> String {
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
fn setup_help(command: clap::Command, about: &str) -> clap::Command {
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

/// `build GAME` for a game built from its variant parameters: a flag for each
/// number (in the game's range), the file of a map, then how to write and spread
/// the build.
fn build_command(entry: &gsolve_analysis::catalog::Entry, help: gsolve_analysis::catalog::BuildHelp) -> clap::Command {
    use gsolve_analysis::catalog::ParameterKind;
    let mut command = clap::Command::new(entry.name);
    for parameter in entry.parameters {
        let mut described = parameter.help.chars();
        let first = described.next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
        let arg = clap::Arg::new(parameter.key).required(true);
        command = command.arg(match parameter.kind {
            ParameterKind::Number { min, max, .. } => arg
                .long(parameter.key)
                .value_name(parameter.value_name())
                .help(format!("{first}{}", described.as_str()))
                .value_parser(clap::value_parser!(u32).range(i64::from(min)..=i64::from(max))),
            ParameterKind::Map { .. } => arg
                .value_name(parameter.value_name())
                .help(format!("A file with {}, in the game's own format", parameter.help))
                .value_parser(clap::value_parser!(PathBuf)),
        });
    }
    if help.tiers {
        command = TierArgs::augment_args(command);
    }
    // The help last: each group of arguments brings its own.
    let command = DistributedArgs::augment_args(OutputArgs::augment_args(command)).about(help.about);
    match help.more {
        "" => command,
        more => command.long_about(format!("{}.\n\n{more}", help.about)),
    }
}

/// `command`'s subcommands listed in the help as the catalog lists the games, then
/// the other commands.
fn in_catalog_order(mut command: clap::Command) -> clap::Command {
    let catalog = &gsolve_analysis::CATALOG;
    let names: Vec<String> = command.get_subcommands().map(|sub| sub.get_name().to_string()).collect();
    for (place, name) in names.iter().enumerate() {
        let game = catalog.iter().position(|entry| entry.name == name);
        command = command.mut_subcommand(name, |sub| sub.display_order(game.unwrap_or(catalog.len() + place)));
    }
    command
}

/// Runs a declared command.
fn run(command: &Command, threads: Option<u16>) -> Result<(), Failure> {
    match command {
        Command::Pawns(args) => pawns::run(args),
        Command::Snakes(args) => snakes::run(args),
        Command::Build(args) => tablebase::build(args, threads),
        Command::Probe(args) => tablebase::probe(args),
        Command::Verify(args) => tablebase::verify(args),
        Command::Info(args) => tablebase::info(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Play(args) => play::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Rules(args) => rules::run(args),
        Command::Book(args) => book::run(args),
        Command::Licenses => {
            use std::io::Write;
            std::io::stdout().write_all(THIRD_PARTY.as_bytes()).map_err(report::write_error)
        }
    }
}

/// Runs the command line: parses the arguments, runs the command, and returns the
/// exit status (2 for bad input, 1 for other failures).
pub fn main() -> ExitCode {
    let matches = command().get_matches();
    let threads = matches.get_one::<u16>("threads").copied();
    if let Some(n) = threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(n as usize).build_global() {
            eprintln!("gsolve: cannot start {n} threads: {e}");
            return ExitCode::from(1);
        }
    }
    // A command the catalog made is run from its matches; the others are parsed
    // into the declared `Cli`.
    let contest = matches.subcommand().and_then(|(name, sub)| Some((contest_entry(name)?, sub)));
    let built = match matches.subcommand() {
        Some(("build", build)) => build.subcommand().and_then(|(name, sub)| Some((built_entry(name)?, sub))),
        _ => None,
    };
    let result = match (contest, built) {
        (Some((entry, contest_matches)), _) => match PursuitArgs::from_arg_matches(contest_matches) {
            Ok(args) => contest::run(entry, &args),
            Err(e) => e.exit(),
        },
        (_, Some((entry, game_matches))) => tablebase::build_variant(entry, game_matches, threads),
        _ => match Cli::from_arg_matches(&matches) {
            Ok(cli) => run(&cli.command, threads),
            Err(e) => e.exit(),
        },
    };
    match result {
        Ok(()) | Err(Failure::Quiet) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            eprintln!("gsolve: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Verification(message)) => {
            eprintln!("gsolve: verification failed: {message}");
            ExitCode::from(1)
        }
        Err(Failure::Other(e)) => {
            eprintln!("gsolve: {e:#}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gsolve_analysis::catalog::ParameterKind;

    #[test]
    fn the_command_line_is_well_formed() {
        command().debug_assert();
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
