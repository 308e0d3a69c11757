//! The arguments of the tablebase commands: `build` (with how it is spread over
//! processes), `book`, `probe`, `verify` and `info`; and the `build GAME` commands
//! the catalog adds.
//!
//! Uses nothing of the crate: only clap, the catalog and the builders' defaults.

use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Args)]
pub struct BuildArgs {
    #[command(subcommand)]
    pub(crate) game: BuildGame,
}

/// Where and how `build` writes.
#[derive(Args)]
pub struct OutputArgs {
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
pub enum BuildGame {
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

/// How a build is spread over processes (timely's conventions).
#[derive(Args, Clone, Debug)]
pub struct DistributedArgs {
    /// Run as one of N processes of a distributed build (with --process; every
    /// process runs the same command). The solve is spread over them, process 0
    /// writes the file. --threads sets the workers of each process (default 1).
    #[arg(long, value_name = "N", requires = "process", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) processes: Option<u32>,
    /// This process's number, 0 to N-1.
    #[arg(long, value_name = "I", requires = "processes")]
    pub(crate) process: Option<u32>,
    /// One host:port a line, process 0 first (default: 127.0.0.1, ports from 2101).
    #[arg(long, value_name = "FILE", requires = "processes")]
    pub(crate) hostfile: Option<PathBuf>,
    /// Start N processes of this build on this machine, wait for them and report.
    #[arg(long, value_name = "N", conflicts_with_all = ["processes", "process", "hostfile"],
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub(crate) local_processes: Option<u32>,
    /// Seconds to wait for every process to connect.
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub(crate) connect_timeout: u64,
}

/// How a tiered build uses memory and disk.
#[derive(Args, Clone, Default)]
pub struct TierArgs {
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
pub struct ProbeArgs {
    /// The tablebase file.
    pub(crate) file: PathBuf,
    /// Positions in the game's plain notation (quote them: they contain spaces).
    #[arg(required = true, value_name = "POSITION")]
    pub(crate) positions: Vec<String>,
    /// One JSON object a position.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// The tablebase file.
    pub(crate) file: PathBuf,
}

#[derive(Args)]
pub struct InfoArgs {
    /// The tablebase file.
    pub(crate) file: PathBuf,
    /// One JSON object.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Args)]
pub struct BookArgs {
    /// The rules file (TOML; docs/rules.md) of a line game.
    pub(crate) file: PathBuf,
    /// The position the book starts from, in the rules' notation; the rules' start
    /// when absent.
    pub(crate) position: Option<String>,
    /// Rows of the board for the start (with --cols).
    #[arg(long, value_name = "R")]
    pub(crate) rows: Option<u32>,
    /// Columns of the board for the start (with --rows).
    #[arg(long, value_name = "C")]
    pub(crate) cols: Option<u32>,
    /// How many plies from the start the book covers.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=gsolve_rules::book::MAX_BOOK_PLIES as i64))]
    pub(crate) plies: u32,
    /// Also the positions that games against perfect play analyse before ply K
    /// (the computer's moves as `gsolve play` makes them, playing either side;
    /// every move of its opponent, or its best moves: --opponent), and every
    /// move from them: play answers at once along those lines.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=gsolve_rules::book::MAX_PLAY_PLIES as i64))]
    pub(crate) play: Option<u32>,
    /// Whose moves the lines of play (--play) follow at the opponent's turns:
    /// every move (any, the default), or only its best moves (perfect: games
    /// against perfect play stay on the lines, which reach deeper in the same
    /// time).
    #[arg(long, value_enum, value_name = "WHO", requires = "play")]
    pub(crate) opponent: Option<OpponentArg>,
    /// The book file to write.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub(crate) output: PathBuf,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub(crate) force: bool,
}

/// `gsolve book --opponent`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum OpponentArg {
    /// Every move.
    Any,
    /// Every move of the best value.
    Perfect,
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

/// `build GAME` for a game built from its variant parameters: a flag for each
/// number (in the game's range), the file of a map, then how to write and spread
/// the build.
pub(super) fn build_command(
    entry: &gsolve_analysis::catalog::Entry,
    help: gsolve_analysis::catalog::BuildHelp,
) -> clap::Command {
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
