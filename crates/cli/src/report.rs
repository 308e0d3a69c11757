//! What the command line prints of its own: the `build` line, and how a failed
//! write ends a run. Cases and positions are printed by `gsolve_analysis::print`.

use crate::failure::Failure;
use std::io::Write;

/// A failed write to standard output as a [`Failure`].
pub fn write_error(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        // The reader has gone (`gsolve ... | head`): stop quietly, like other filters.
        return Failure::Quiet;
    }
    Failure::Other(anyhow::Error::new(e).context("cannot write the output"))
}

/// The line `build` prints: what was written, its size and the time taken
/// (`solved`: the solver and the part of it spent solving, when known).
pub(crate) fn report_written(
    game: &str,
    output: &std::path::Path,
    written: &gsolve_tablebase::write::Written,
    total: std::time::Duration,
    solved: Option<(&str, std::time::Duration)>,
    note: &str,
) -> Result<(), Failure> {
    let header = &written.header;
    let mut out = std::io::stdout().lock();
    let ratio = written.raw_bytes as f64 / written.file_bytes.max(1) as f64;
    let timing = match solved {
        Some((solver, solved)) => format!(
            "solved in {:.2} s by {solver}, written in {:.2} s",
            solved.as_secs_f64(),
            (total - solved).as_secs_f64()
        ),
        None => format!("solved and written in {:.2} s", total.as_secs_f64()),
    };
    // As `verify` says it: indices, of which some may name no position (holes).
    let size = header.index_size;
    let positions = match written.holes {
        Some(0) => format!("{size} positions"),
        Some(holes) => format!("{size} indices ({} positions, {holes} name no position)", size - holes),
        None => format!("{size} indices"),
    };
    writeln!(
        out,
        "{}: {game} {}, {positions}, {}-byte values in {} block{}; {} bytes ({ratio:.1}x compression of the raw {} bytes); {timing}{note}",
        output.display(),
        parameters_text(&header.parameters),
        header.value_width,
        header.block_count,
        if header.block_count == 1 { "" } else { "s" },
        written.file_bytes,
        written.raw_bytes,
    )
    .map_err(write_error)
}

/// Parameters as `key=value`, a long value by its length.
pub(crate) fn parameters_text(parameters: &[(String, String)]) -> String {
    parameters
        .iter()
        .map(|(k, v)| if v.len() > 40 { format!("{k}=({} chars)", v.chars().count()) } else { format!("{k}={v}") })
        .collect::<Vec<_>>()
        .join(" ")
}
