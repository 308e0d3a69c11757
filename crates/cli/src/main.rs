//! The `gsolve` binary: everything is in the library (`gsolve_cli`).
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    gsolve_cli::main()
}
