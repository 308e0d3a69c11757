//! `gsolve`: the command-line front end. It parses arguments, picks a game and a
//! solver, and prints; everything else lives in the engine, games, tablebase and
//! analysis crates. The binary (`src/main.rs`) only calls [`main`]; the library
//! form lets the fuzz targets call the same entry points in-process.
//!
//! The modules form layers, each using only those below it:
//!
//! - at the bottom, [`args`] (every command's arguments and the command line the
//!   catalog completes) and [`failure`] (how a command fails, and the exit status
//!   it ends with), which use no other module of the crate;
//! - the helpers the commands share: `input` (reading cases), `report` (what a
//!   build wrote, write errors), `progress` (progress bars), `interrupt`
//!   (cleaning up on Ctrl-C) and `search` (parallel alpha-beta);
//! - the commands: `rules` (which the contests, `analyze`, `build` and `book`
//!   also use to load rules files), `distributed` (spreading a build), then
//!   `pawns`, `snakes`, `contest`, `analyze`, `tablebase`, and above them `play`,
//!   [`serve`] (both on `analyze`) and `book` (on `tablebase`'s wording);
//! - on top, this file: it declares the modules, parses the command line and
//!   runs the command it names. No module imports anything from it.
#![forbid(unsafe_code)]

mod analyze;
mod args;
mod book;
mod contest;
mod distributed;
mod failure;
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

pub use args::{AnalyzeArgs, BookArgs, PlayArgs, RulesArgs, ServeArgs, SetupArgs};
pub use failure::Failure;

use args::{Command, Invocation};
use std::process::ExitCode;

/// The notices of the crates linked in, generated from Cargo.lock (tests/supply_chain.rs).
const THIRD_PARTY: &str = include_str!("../../../THIRD-PARTY");

/// Runs a declared command.
fn run(command: &Command, threads: Option<u16>) -> Result<(), Failure> {
    match command {
        Command::Pawns(args) => pawns::run(args),
        Command::Snakes(args) => snakes::run(args),
        Command::Rules(args) => rules::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Play(args) => play::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Build(args) => tablebase::build(args, threads),
        Command::Book(args) => book::run(args),
        Command::Probe(args) => tablebase::probe(args),
        Command::Verify(args) => tablebase::verify(args),
        Command::Info(args) => tablebase::info(args),
        Command::Licenses => {
            use std::io::Write;
            std::io::stdout().write_all(THIRD_PARTY.as_bytes()).map_err(report::write_error)
        }
    }
}

/// Runs the command line: parses the arguments, runs the command, and returns the
/// exit status (2 for bad input, 1 for other failures).
pub fn main() -> ExitCode {
    let matches = args::command().get_matches();
    let threads = matches.get_one::<u16>("threads").copied();
    if let Some(n) = threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(n as usize).build_global() {
            eprintln!("gsolve: cannot start {n} threads: {e}");
            return ExitCode::from(1);
        }
    }
    let result = match args::invocation(&matches) {
        Invocation::Contest(entry, args) => contest::run(entry, &args),
        Invocation::BuildVariant(entry, game_matches) => tablebase::build_variant(entry, game_matches, threads),
        Invocation::Declared(command) => run(&command, threads),
    };
    failure::exit_status(result)
}
