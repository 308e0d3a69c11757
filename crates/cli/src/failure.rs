//! How a command fails: [`Failure`], and the exit status and message each kind
//! ends the run with.
//!
//! The bottom layer of the crate, beside [`crate::args`]: it uses no other module
//! of the crate, and every command may use it.

use gsolve_analysis::AnalysisError;
use std::process::ExitCode;

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

/// Errors the user can fix exit with status 2; a solver failure with 1.
impl From<AnalysisError> for Failure {
    fn from(e: AnalysisError) -> Self {
        match e {
            AnalysisError::Internal(_) => Failure::Other(anyhow::Error::new(e)),
            AnalysisError::NoRules => Failure::Input(format!("rules: {e}: give --rules FILE")),
            e => Failure::Input(e.to_string()),
        }
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Other(e)
    }
}

/// The exit status of a run that ended with `result`, after its message on standard
/// error: 0 for success (and [`Failure::Quiet`]), 2 for bad input, 1 for the rest.
pub(crate) fn exit_status(result: Result<(), Failure>) -> ExitCode {
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
