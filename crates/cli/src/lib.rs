//! `gsolve`: the command-line front end. It parses arguments, picks a game and a
//! solver, and prints; everything else lives in the engine, games, tablebase and
//! analysis crates. The binary (`src/main.rs`) only calls [`main`]; the library
//! form lets the fuzz targets call the same entry points in-process.
#![forbid(unsafe_code)]

mod analyze;
mod distributed;
mod input;
mod interrupt;
mod pawns;
mod play;
mod progress;
mod pursuit;
mod report;
mod rules;
mod search;
pub mod serve;
mod snakes;
mod tablebase;

use clap::{Args, Parser, Subcommand};
use distributed::DistributedArgs;

/// The sides of a pawns board and of a chase board the flags take: the games' own limits.
const PAWNS_SIDES: std::ops::RangeInclusive<i64> =
    gsolve_games::pawns::MIN_SIDE as i64..=gsolve_games::pawns::MAX_SIDE as i64;
const CHASE_SIZES: std::ops::RangeInclusive<i64> =
    gsolve_games::chase::MIN_SIZE as i64..=gsolve_games::chase::MAX_SIZE as i64;

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
    /// Queen's Case (HDU 3514): can the queen escape the army?
    ///
    /// Input: maps `W H` + H rows of `. # E Q A`, until end of input or `0 0`.
    /// Output per map: `Queen can escape.`, `Army can catch Queen.` or
    /// `Queen can not escape and Army can not catch Queen.`
    /// Maps up to 1000x1000 with at most 20,000 open cells.
    #[command(name = "queens-case")]
    QueensCase(PursuitArgs),
    /// CQOI 2013 board game: white (1 step) against black (1 or 2 steps).
    ///
    /// Input per case: `n r1 c1 r2 c2`. Output: `WHITE x`, `BLACK x` or `DRAW`,
    /// x = plies including the capture. Boards 2 ≤ n ≤ 100.
    Chase(PursuitArgs),
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
    /// Positions in the game's plain notation, e.g. `pppp/..../..../PPPP w` for pawns,
    /// `1,1 4,4 w` for chase (white's cell, black's cell, side to move), `2,3 4,5 q`
    /// for queens-case (queen's cell, army's cell, side to move).
    Probe(ProbeArgs),
    /// Prove a tablebase right: every block's checksum, and every position's value
    /// re-derived from the rules and its children's stored values. Exit 1 on failure.
    Verify(VerifyArgs),
    /// A tablebase's header, counts by side to move and remoteness, longest win.
    Info(InfoArgs),
    /// Value of a position and of every legal move, best first.
    ///
    /// Positions in the game's plain notation (docs/games.md): pawns
    /// `pppp/..../..../PPPP w`; chase `1,1 4,4 w` with --size; queens-case
    /// `1,1 4,5 q` with --map; snakes `1..../...../...../...../....2 1`; a rules
    /// game (--rules FILE, no game name needed) in the rules' notation,
    /// `BBB/.../WWW w`. Without a position: the game's start (--rows/--cols for
    /// pawns, snakes and rules). The solver is picked for the game: a whole-game
    /// solve for chase, Queen's Case, pawns boards of up to 16 cells and rules games
    /// that can repeat a position, alpha-beta for snakes, larger pawns boards and
    /// rules games that cannot, the tablebase with --tablebase.
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
    /// The licences of the third-party code in this binary (the THIRD-PARTY file).
    Licenses,
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
    /// pawns, chase, queens-case or snakes; rules (or nothing) with --rules.
    #[arg(required_unless_present_any = ["rules", "tablebase"])]
    game: Option<String>,
    /// The position in the game's plain notation (quote it); the start when absent.
    position: Option<String>,
    /// The game of this rules file (docs/rules.md); positions in its notation.
    #[arg(long, value_name = "FILE", conflicts_with = "tablebase")]
    rules: Option<PathBuf>,
    /// chase: the board size n.
    #[arg(long, value_name = "N")]
    size: Option<u32>,
    /// queens-case: a file with one map (the contest format); rules whose board is a
    /// map: a file with the map (rows of `.`, `#` and the zones' marks).
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// pawns, snakes, rules: rows of the start board (without a position).
    #[arg(long, value_name = "R")]
    rows: Option<u32>,
    /// pawns, snakes, rules: columns of the start board (without a position).
    #[arg(long, value_name = "C")]
    cols: Option<u32>,
    /// Answer from this tablebase (its game and variant only).
    #[arg(long, value_name = "FILE")]
    tablebase: Option<PathBuf>,
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
    #[arg(long, value_name = "POSITION", requires = "rules")]
    start: Option<String>,
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
struct OutputArgs {
    /// The tablebase file to write.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: PathBuf,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    force: bool,
    /// zstd compression level, 1 (fastest) to 22 (smallest).
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(i32).range(1..=22))]
    level: i32,
}

#[derive(Subcommand)]
enum BuildGame {
    /// Pawn chess on an R×C board: every position of the tight index (at most C
    /// pawns a side, none on its goal rank), solved tier by tier on disk.
    ///
    /// Tiers by (white pawns, black pawns) are solved in order and saved under the
    /// work directory; a build stopped at any point (Ctrl-C, kill, power off) and
    /// started again with the same command goes on from the last finished tier and
    /// writes the same file. The work directory is removed when the file is written.
    Pawns {
        /// Rows.
        #[arg(long, value_name = "R", value_parser = clap::value_parser!(u32).range(PAWNS_SIDES))]
        rows: u32,
        /// Columns.
        #[arg(long, value_name = "C", value_parser = clap::value_parser!(u32).range(PAWNS_SIDES))]
        cols: u32,
        #[command(flatten)]
        tiers: TierArgs,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        distributed: DistributedArgs,
    },
    /// The CQOI 2013 board game on an n×n board: every pair of cells, either side to move.
    Chase {
        /// Board size n.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(CHASE_SIZES))]
        size: u32,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        distributed: DistributedArgs,
    },
    /// Queen's Case on one map: every pair of open cells, either side to move.
    #[command(name = "queens-case")]
    QueensCase {
        /// A file with one map in the contest format (`W H` and H rows).
        map: PathBuf,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        distributed: DistributedArgs,
    },
    /// The game of a rules file (docs/rules.md): every position with at most as
    /// many pieces of each kind as the position given (or the rules' start), on its
    /// board, either side to move; solved tier by tier on disk like pawns (draws
    /// found exactly), or, for a pursuit (one piece a side: `gsolve rules FILE
    /// --check` says so), whole in memory by bit rows unless --memory or --work-dir
    /// ask for tiers (the same file). The file stores the rules: probe, verify and
    /// info need only it.
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
#[derive(Args)]
pub(crate) struct TierArgs {
    /// The most memory a tier's solve may take (e.g. 1500M, 8G); a tier that needs
    /// more is refused before any work starts.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub(crate) memory: Option<u64>,
    /// Where finished tiers are kept until the file is written (default: FILE.work).
    #[arg(long, value_name = "DIR")]
    pub(crate) work_dir: Option<PathBuf>,
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

/// Runs the command line: parses the arguments, runs the command, and returns the
/// exit status (2 for bad input, 1 for other failures).
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(n) = cli.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(n as usize).build_global() {
            eprintln!("gsolve: cannot start {n} threads: {e}");
            return ExitCode::from(1);
        }
    }
    let result = match &cli.command {
        Command::QueensCase(args) => pursuit::queens_case(args),
        Command::Chase(args) => pursuit::chase(args),
        Command::Pawns(args) => pawns::run(args),
        Command::Snakes(args) => snakes::run(args),
        Command::Build(args) => tablebase::build(args, cli.threads),
        Command::Probe(args) => tablebase::probe(args),
        Command::Verify(args) => tablebase::verify(args),
        Command::Info(args) => tablebase::info(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Play(args) => play::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Rules(args) => rules::run(args),
        Command::Licenses => {
            use std::io::Write;
            std::io::stdout().write_all(THIRD_PARTY.as_bytes()).map_err(report::write_error)
        }
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
