//! How a position's value and moves are written, in one place: JSON (the web API's
//! object, `gsolve analyze --json`, `gsolve probe --json`), the analysis table
//! (`gsolve analyze`) and the brief lines (`gsolve probe`, and the answer line of
//! `gsolve rules`). Front ends print through these and nothing else.
//!
//! | form                    | used by                                  |
//! |-------------------------|------------------------------------------|
//! | [`Analysis::to_json`]   | the server, `analyze --json`, `probe --json`, Python's `Analysis.json` |
//! | [`write_analysis`]      | `analyze`                                 |
//! | [`write_brief`]         | `probe`                                   |
//! | [`value_line`]          | `probe`, `rules` (its answer line)        |

use crate::Analysis;
use gsolve_engine::Value;
use serde_json::json;
use std::io::{self, Write};

/// `"win"`, `"loss"`, `"tie"` or `"draw"` and the remoteness (`null` for a draw).
fn value_json(value: Value) -> (serde_json::Value, serde_json::Value) {
    (json!(value.kind_name()), json!(value.remoteness()))
}

impl Analysis {
    /// As JSON (the web API's response; documented in the README).
    pub fn to_json(&self) -> serde_json::Value {
        let (value, remoteness) = value_json(self.value);
        let moves: Vec<_> = self
            .moves
            .iter()
            .map(|m| {
                let (value, remoteness) = value_json(m.value);
                let mut out = json!({
                    "move": m.label,
                    "from": [m.from.row, m.from.col],
                    "to": [m.to.row, m.to.col],
                    "value": value,
                    "remoteness": remoteness,
                    "delta": m.delta,
                    "position": m.position,
                });
                if let Some(letter) = m.drop {
                    out["drop"] = json!(letter.to_string());
                }
                out
            })
            .collect();
        json!({
            "game": self.setup.game.name(),
            "variant": self.setup.to_json()["variant"],
            "position": self.setup.position,
            "to_move": self.to_move,
            "value": value,
            "remoteness": remoteness,
            "solver": self.solver,
            "end": self.end,
            "board": self.board.to_json(),
            "moves": moves,
        })
    }
}

/// `pppp/..../..../PPPP w: win in 11, white to move`: a position, its value and
/// the side to move, on one line.
pub fn value_line(position: &str, value: impl std::fmt::Display, to_move: &str) -> String {
    format!("{position}: {value}, {to_move} to move")
}

/// The brief form: the [`value_line`], how the game ended if no move is played
/// (`game over: ...` when the rules ended it, `no moves: ...` when the side to
/// move is stuck), then a line a move, best first: its value, its label and the
/// position it leads to.
pub fn write_brief(analysis: &Analysis, out: &mut impl Write) -> io::Result<()> {
    let setup = &analysis.setup;
    writeln!(out, "{}", value_line(&setup.position, analysis.value, analysis.to_move))?;
    if analysis.moves.is_empty() {
        let end = analysis.end.as_deref().unwrap_or("the game is over");
        writeln!(out, "  {}: {end}", if analysis.over { "game over" } else { "no moves" })?;
    }
    for m in &analysis.moves {
        writeln!(out, "  {:<14} {:<22} -> {}", m.value.to_string(), m.label, m.position)?;
    }
    Ok(())
}

/// The analysis table: the game and position, the variant, the value and solver,
/// the board, then every move with its value and its remoteness against the best
/// move of its kind.
pub fn write_analysis(analysis: &Analysis, out: &mut impl Write) -> io::Result<()> {
    let setup = &analysis.setup;
    writeln!(out, "{} {}", setup.game, setup.position)?;
    for (key, value) in &setup.variant {
        writeln!(out, "  {key}: {value}")?;
    }
    writeln!(out, "{} to move: {} (solver: {})", analysis.to_move, analysis.value, analysis.solver)?;
    writeln!(out)?;
    for row in &analysis.board.cells {
        let spaced: Vec<String> = row.chars().map(String::from).collect();
        writeln!(out, "  {}", spaced.join(" "))?;
    }
    writeln!(out)?;
    if analysis.moves.is_empty() {
        writeln!(out, "no moves: {}", analysis.end.as_deref().unwrap_or("the game is over"))?;
        return Ok(());
    }
    // Labels of every piece a side moves at once are longer than one piece's.
    let width = analysis.moves.iter().map(|m| m.label.chars().count()).max().unwrap_or(0).max(16);
    writeln!(out, "{:<width$} {:<14} {:>8}  position after", "move", "value", "vs best")?;
    for m in &analysis.moves {
        let delta = m.delta.map_or_else(|| "-".to_string(), |d| if d > 0 { format!("+{d}") } else { d.to_string() });
        writeln!(out, "{:<width$} {:<14} {:>8}  {}", m.label, m.value.to_string(), delta, m.position)?;
    }
    Ok(())
}
