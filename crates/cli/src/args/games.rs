//! The arguments of the seed games' contest commands (pawns, snakes and the two
//! pursuits the catalog adds) and of `rules`.
//!
//! Uses nothing of the crate: only clap and the games' limits.

use clap::Args;
use std::path::PathBuf;

/// The sides of a pawns board the flags take: the game's own limits.
const PAWNS_SIDES: std::ops::RangeInclusive<i64> =
    gsolve_games::pawns::MIN_SIDE as i64..=gsolve_games::pawns::MAX_SIDE as i64;

#[derive(Args)]
pub struct PawnsArgs {
    /// Input file; standard input when absent or `-`.
    #[arg(conflicts_with = "summary")]
    pub(crate) file: Option<PathBuf>,
    /// Solve the same boards with black to move.
    #[arg(long, conflicts_with = "summary")]
    pub(crate) black_to_move: bool,
    /// Solve with the rules of this file instead of the built-in game (`P`, `p`, sides
    /// `w` and `b`, as examples/rules/pawns.toml); the output is the same.
    #[arg(long, value_name = "FILE", conflicts_with = "summary")]
    pub(crate) rules: Option<PathBuf>,
    /// Per case: the value, remoteness and the optimal line of play, one ply a line.
    #[arg(long, conflicts_with_all = ["json", "summary"])]
    pub(crate) explain: bool,
    /// One JSON object per case (or for the summary).
    #[arg(long)]
    pub(crate) json: bool,
    /// Solve every position of an R×C board (at most C pawns a side) and print
    /// counts of wins and losses by remoteness, and the longest win.
    #[arg(long)]
    pub(crate) summary: bool,
    /// Rows of the board for --summary.
    #[arg(long, value_name = "R", value_parser = clap::value_parser!(u32).range(PAWNS_SIDES))]
    pub(crate) rows: Option<u32>,
    /// Columns of the board for --summary.
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u32).range(PAWNS_SIDES))]
    pub(crate) cols: Option<u32>,
}

/// The arguments of the two pursuit games' commands.
#[derive(Args)]
pub struct PursuitArgs {
    #[command(flatten)]
    pub(crate) case: CaseArgs,
    /// Solve every position with the engine's retrograde analysis (as `build` and
    /// `analyze` do) instead of the fastest exact way for each case (walking
    /// distances, or the bit-parallel solve of the grid). The output is the same.
    #[arg(long)]
    pub(crate) retrograde: bool,
}

#[derive(Args)]
pub struct CaseArgs {
    /// Input file; standard input when absent or `-`.
    pub(crate) file: Option<PathBuf>,
    /// Solve with the rules of this file instead of the built-in game (its letters
    /// those of the game's file in examples/rules/); the output is the same.
    #[arg(long, value_name = "FILE")]
    pub(crate) rules: Option<PathBuf>,
    /// Per case: the value, remoteness and the optimal line of play, one ply a line.
    #[arg(long, conflicts_with = "json")]
    pub(crate) explain: bool,
    /// Per case: one JSON object a line with the value, remoteness and optimal line.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Args)]
pub struct RulesArgs {
    /// The rules file (TOML; docs/rules.md).
    pub(crate) file: PathBuf,
    /// Positions in the rules' notation (quote them); the start when absent.
    #[arg(value_name = "POSITION")]
    pub(crate) positions: Vec<String>,
    /// Rows of the board for the start (with --cols).
    #[arg(long, value_name = "R")]
    pub(crate) rows: Option<u32>,
    /// Columns of the board for the start (with --rows).
    #[arg(long, value_name = "C")]
    pub(crate) cols: Option<u32>,
    /// For rules whose board is a map: a file with the map (rows of `.`, `#` and the
    /// zones' marks); positions then need not repeat it.
    #[arg(long, value_name = "FILE")]
    pub(crate) map: Option<PathBuf>,
    /// Print what the file means (sides, pieces, moves, endings, index size) and
    /// solve nothing.
    #[arg(long, conflicts_with_all = ["explain", "json"])]
    pub(crate) check: bool,
    /// Per position: the value, remoteness and the optimal line of play, one ply a line.
    #[arg(long, conflicts_with = "json")]
    pub(crate) explain: bool,
    /// One JSON object a position.
    #[arg(long)]
    pub(crate) json: bool,
}
