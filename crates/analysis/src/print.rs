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
//! | [`CaseReport::print`]   | the contest commands (`chase`, `pawns`, ...), `rules` |

use crate::Analysis;
use gsolve_engine::line::{principal_line, LineEnd};
use gsolve_engine::{Value, ValueLookup};
use gsolve_games::notation::{Explain, PieceMove};
use serde_json::json;
use std::io::{self, Write};

/// `"win"`, `"loss"`, `"tie"` or `"draw"` and the remoteness (`null` for a draw).
fn value_json(value: Value) -> (serde_json::Value, serde_json::Value) {
    (json!(value.kind_name()), json!(value.remoteness()))
}

impl Analysis {
    /// As JSON (the web API's response; documented in docs/web-api.md).
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
                if let Some(score) = m.score {
                    out["score"] = json!(score);
                }
                if let Some(letter) = m.drop {
                    out["drop"] = json!(letter.to_string());
                }
                out
            })
            .collect();
        let mut object = json!({
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
        });
        if let Some(score) = self.score {
            object["score"] = json!(score);
        }
        object
    }
}

/// A value as words: `win in 11`, or in a game with a score (a margin given)
/// `win by 4 in 32`.
pub fn shown(value: Value, score: Option<i32>) -> String {
    match (score, value.remoteness()) {
        (Some(margin), Some(remoteness)) => gsolve_engine::ScoreValue { margin, remoteness }.to_string(),
        _ => value.to_string(),
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
    writeln!(out, "{}", value_line(&setup.position, shown(analysis.value, analysis.score), analysis.to_move))?;
    if analysis.moves.is_empty() {
        let end = analysis.end.as_deref().unwrap_or("the game is over");
        writeln!(out, "  {}: {end}", if analysis.over { "game over" } else { "no moves" })?;
    }
    for m in &analysis.moves {
        writeln!(out, "  {:<14} {:<22} -> {}", shown(m.value, m.score), m.label, m.position)?;
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
    let value = shown(analysis.value, analysis.score);
    writeln!(out, "{} to move: {value} (solver: {})", analysis.to_move, analysis.solver)?;
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
        writeln!(out, "{:<width$} {:<14} {:>8}  {}", m.label, shown(m.value, m.score), delta, m.position)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// A contest case: its answer line, explained, or as JSON.

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
    /// The style the flags `--explain` and `--json` ask for (JSON wins).
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
    /// The case's number, from 1.
    pub case: usize,
    /// The contest's output line.
    pub answer: String,
    /// The side to move at the start.
    pub to_move: &'static str,
    /// The start's value for the side to move.
    pub value: Value,
    /// The optimal line of play from the start.
    pub line: Vec<PieceMove>,
    /// How the line ends, in words.
    pub end: String,
    /// For a drawn line: the ply after which the repeated position first occurred.
    pub repeats_after: Option<usize>,
    /// In a game with a score: the final margin for the side to move.
    pub score: Option<i32>,
    /// In a game that counts pieces: each side's name and its pieces on the
    /// board where the line ends.
    pub pieces: Option<[(&'static str, u32); 2]>,
}

/// Longest line followed (draws stop at the first repetition long before).
const MAX_PLIES: usize = 1 << 20;

impl CaseReport {
    /// Solves nothing: reads the value, and for the styles that show it the line of
    /// optimal play, from solved values (a line can cost a search per move).
    pub fn new<G: Explain, L: ValueLookup<G> + ?Sized>(
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
            score: None,
            pieces: None,
        }
    }

    /// The report of a game with a score: its value and line of best play
    /// (`line`), the answer line written from the value, `sides` the names of
    /// the game's sides.
    pub fn scored(case: usize, answer: String, line: &crate::ScoredLine, sides: [&'static str; 2]) -> Self {
        CaseReport {
            case,
            answer,
            to_move: line.to_move,
            value: line.value.value(),
            line: line.line.clone(),
            end: line.end.clone(),
            repeats_after: None,
            score: Some(line.value.margin),
            pieces: line.pieces.map(|p| [(sides[0], p[0]), (sides[1], p[1])]),
        }
    }

    /// Writes the case: its answer line, the explanation (indented lines after
    /// `case N:`), or one JSON object a line.
    pub fn print(&self, style: Style, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        match style {
            Style::Contest => writeln!(out, "{}", self.answer),
            Style::Explain => {
                writeln!(out, "case {}: {}", self.case, self.answer)?;
                let plies = |v: Value| if v.remoteness() == Some(1) { "ply" } else { "plies" };
                let value = match (self.value, self.score) {
                    (Value::Draw, _) => format!("  {} to move: draw (neither side can force an end)", self.to_move),
                    (v, Some(margin)) => {
                        let scored = gsolve_engine::ScoreValue { margin, remoteness: v.remoteness().unwrap_or(0) };
                        format!("  {} to move: {scored} {}", self.to_move, plies(v))
                    }
                    (v, None) => format!("  {} to move: {v} {}", self.to_move, plies(v)),
                };
                writeln!(out, "{value}")?;
                if let (Some(margin), Some(pieces)) = (self.score, self.pieces) {
                    // The winner first: "white wins by 4, 20–16 on the board, in 32 plies".
                    let plies = self.value.remoteness().unwrap_or(0);
                    let mover = pieces.iter().position(|(name, _)| *name == self.to_move).unwrap_or(0);
                    let winner = if margin < 0 { 1 - mover } else { mover };
                    let ((w, nw), (_, nl)) = (pieces[winner], pieces[1 - winner]);
                    let result = if margin == 0 {
                        "the game ends level".to_string()
                    } else {
                        format!("{w} wins by {}", margin.abs())
                    };
                    writeln!(out, "  {result}, {nw}–{nl} on the board, in {plies} plies")?;
                }
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
                        if m.pass {
                            return json!({"ply": i + 1, "side": m.side, "pass": true});
                        }
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
                let mut object = object;
                if let Some(score) = self.score {
                    object["score"] = json!(score);
                }
                if let Some(pieces) = self.pieces {
                    object["pieces"] = json!({ pieces[0].0: pieces[0].1, pieces[1].0: pieces[1].1 });
                }
                writeln!(out, "{object}")
            }
        }
    }
}
