//! Printing a solved case: the contest line, an explanation, or JSON.

use crate::Failure;
use gsolve_engine::line::{principal_line, LineEnd};
use gsolve_engine::{Value, ValueLookup};
use gsolve_games::notation::{Explain, PieceMove};
use serde_json::json;
use std::io::Write;

/// What the user asked to see.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// The contest's output line only.
    Contest,
    /// The contest line, value, remoteness and optimal line.
    Explain,
    /// One JSON object per case.
    Json,
}

impl Style {
    pub fn new(explain: bool, json: bool) -> Self {
        match (explain, json) {
            (_, true) => Style::Json,
            (true, false) => Style::Explain,
            _ => Style::Contest,
        }
    }
}

/// One solved case, ready to print.
pub struct CaseReport {
    pub case: usize,
    /// The contest's output line.
    pub answer: String,
    /// The side to move at the start.
    pub to_move: &'static str,
    pub value: Value,
    /// The optimal line of play from the start.
    pub line: Vec<PieceMove>,
    /// How the line ends, in words.
    pub end: String,
    /// For a drawn line: the ply after which the repeated position first occurred.
    pub repeats_after: Option<usize>,
}

/// Longest line followed (draws stop at the first repetition long before).
const MAX_PLIES: usize = 1 << 20;

impl CaseReport {
    /// Solves nothing: reads the value, and for the styles that show it the line of
    /// optimal play, from solved values (a line can cost a search per move).
    pub fn new<G: Explain, L: ValueLookup<G>>(
        case: usize,
        answer: impl Fn(Value) -> String,
        game: &G,
        values: &L,
        start: &G::Position,
        style: Style,
    ) -> Self {
        let value = values.lookup(game, start).expect("the start is solved");
        let max_plies = if style == Style::Contest { 0 } else { MAX_PLIES };
        let line = principal_line(game, values, start, max_plies);
        let moves = line.plies.iter().map(|p| game.describe_move(&p.before, &p.mv)).collect();
        let (end, repeats_after) = match line.end {
            LineEnd::Repeats { ply } => (
                format!(
                    "the position after ply {} repeats the one after ply {ply}: play goes on forever",
                    line.plies.len()
                ),
                Some(ply),
            ),
            LineEnd::GameOver => {
                (game.describe_end(&line.end_position).unwrap_or_else(|| "the side to move cannot move".into()), None)
            }
            LineEnd::Truncated => (format!("line cut after {MAX_PLIES} plies"), None),
            LineEnd::Unknown => ("no value known for the next position".into(), None),
        };
        CaseReport {
            case,
            answer: answer(value),
            to_move: game.side_to_move(start),
            value,
            line: moves,
            end,
            repeats_after,
        }
    }

    pub fn print(&self, style: Style, out: &mut impl Write) -> std::io::Result<()> {
        match style {
            Style::Contest => writeln!(out, "{}", self.answer),
            Style::Explain => {
                writeln!(out, "case {}: {}", self.case, self.answer)?;
                let value = match self.value {
                    Value::Draw => format!("  {} to move: draw (neither side can force an end)", self.to_move),
                    v => format!(
                        "  {} to move: {v} {}",
                        self.to_move,
                        if v.remoteness() == Some(1) { "ply" } else { "plies" }
                    ),
                };
                writeln!(out, "{value}")?;
                for (i, m) in self.line.iter().enumerate() {
                    writeln!(out, "  {:>3}. {m}", i + 1)?;
                }
                writeln!(out, "  end: {}", self.end)
            }
            Style::Json => {
                let line: Vec<_> = self
                    .line
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        match m.drop {
                            Some(letter) => json!({"ply": i + 1, "side": m.side, "drop": letter.to_string(), "to": [m.to.row, m.to.col]}),
                            None => json!({"ply": i + 1, "side": m.side, "from": [m.from.row, m.from.col], "to": [m.to.row, m.to.col]}),
                        }
                    })
                    .collect();
                let object = json!({
                    "case": self.case,
                    "answer": self.answer,
                    "to_move": self.to_move,
                    "value": self.value.kind_name(),
                    "remoteness": self.value.remoteness(),
                    "line": line,
                    "end": self.end,
                    "repeats_after_ply": self.repeats_after,
                });
                writeln!(out, "{object}")
            }
        }
    }
}

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
