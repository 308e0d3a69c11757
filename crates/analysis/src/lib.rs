//! # gsolve-analysis
//!
//! What the front ends (`gsolve analyze`, `gsolve play`, `gsolve serve`) share: pick
//! a game by name, read a position in its plain notation, pick a solver, and return
//! the position's value with every legal move's value, best first, and a drawing of
//! the board. It knows no user interface.
//!
//! Every game, its variant parameters, notation and solver are listed once, in the
//! [`catalog`]; the [`Analyzer`] solves a setup the way its entry says (a whole-game
//! solve kept per variant, alpha-beta search, or a rules game's choice of the two).
//!
//! A tablebase ([`Analyzer::with_tablebase`]) answers for its own game and variant.
//!
//! ```
//! use gsolve_analysis::{Analyzer, GameKind, Limits, Setup};
//! use gsolve_engine::Value;
//!
//! let analyzer = Analyzer::new(Limits::default());
//! let setup = Setup::new(GameKind::Pawns, "ppp/.../PPP w");
//! let analysis = analyzer.analyze(&setup)?;
//! assert_eq!(analysis.value, Value::Loss(6)); // Hexapawn: black wins
//! assert_eq!(analysis.moves.len(), 3);
//! let best = &analysis.moves[0]; // the computer's choice: fastest win, slowest loss
//! assert_eq!(best.value, Value::Loss(6));
//! # Ok::<(), gsolve_analysis::AnalysisError>(())
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod analyzer;
pub mod book;
pub mod catalog;
mod draw;
pub mod print;

pub use analyzer::{analysis_of_stored, move_label, piece_move_label, Analyzer, Limits, ScoredLine};
pub use catalog::{CatalogGame, GameKind, CATALOG};
pub use draw::{Board, Draw};

use gsolve_engine::Value;
use gsolve_games::notation::Coord;
use serde_json::json;

/// A game, its variant and a position: all an analysis needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The game.
    pub game: GameKind,
    /// Variant parameters (`size` for chase, `map` for Queen's Case; none otherwise).
    pub variant: Vec<(String, String)>,
    /// The position in the game's plain notation.
    pub position: String,
}

impl Setup {
    /// A setup without variant parameters.
    pub fn new(game: GameKind, position: impl Into<String>) -> Self {
        Setup { game, variant: Vec::new(), position: position.into() }
    }

    /// Adds a variant parameter.
    pub fn with(mut self, key: &str, value: impl Into<String>) -> Self {
        self.variant.push((key.to_string(), value.into()));
        self
    }

    /// The same game and variant at another position.
    pub fn at(&self, position: impl Into<String>) -> Self {
        Setup { game: self.game, variant: self.variant.clone(), position: position.into() }
    }

    /// As JSON: `{"game", "variant": {..}, "position"}`.
    pub fn to_json(&self) -> serde_json::Value {
        let variant: serde_json::Map<_, _> = self.variant.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        json!({"game": self.game.name(), "variant": variant, "position": self.position})
    }
}

/// A legal move and what it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    /// The move as `(row,col)->(row,col)`, or `stay at (row,col)`.
    pub label: String,
    /// The moving piece's cell (1-based).
    pub from: Coord,
    /// Where it goes (the same cell for a Queen's Case move that stays).
    pub to: Coord,
    /// The letter of the piece a drop puts on `to` (`from` is `to`), if the move
    /// is a drop.
    pub drop: Option<char>,
    /// The move's value for the side making it (the value the position has if it
    /// is played).
    pub value: Value,
    /// In a game that ends in a score: the final margin the move leads to for
    /// the side making it, under perfect play (`value` is its sign and
    /// remoteness). `None` in other games.
    pub score: Option<i32>,
    /// Remoteness minus that of the best move of the same kind (a win 2 plies slower
    /// than the fastest win: `Some(2)`; a loss 4 plies sooner than the slowest:
    /// `Some(-4)`); `None` for a draw.
    pub delta: Option<i64>,
    /// The position after the move, in plain notation.
    pub position: String,
}

/// A legal move and the position it leads to ([`Analyzer::list`]: no value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    /// The move as `(row,col)->(row,col)`, or `stay at (row,col)`.
    pub label: String,
    /// The moving piece's cell (1-based).
    pub from: Coord,
    /// Where it goes.
    pub to: Coord,
    /// The letter of the piece a drop puts on `to`, if the move is a drop.
    pub drop: Option<char>,
    /// The position after the move, in plain notation.
    pub position: String,
}

/// A position's legal moves, in the game's order, found without solving
/// ([`Analyzer::list`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The setup (position in canonical notation).
    pub setup: Setup,
    /// The side to move, e.g. `"white"`.
    pub to_move: &'static str,
    /// When the game is over here: its value for the side to move (`Win(0)`,
    /// `Loss(0)` or `Tie(0)`; a side with no move has lost).
    pub over: Option<Value>,
    /// When a game with a score is over here: the final margin for the side to
    /// move.
    pub score: Option<i32>,
    /// How the game ended, when it is over here.
    pub end: Option<String>,
    /// Every legal move.
    pub moves: Vec<LegalMove>,
    /// The board, for drawing (and for its size).
    pub board: Board,
}

/// A position's value and every move's value, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The setup analysed (position in canonical notation).
    pub setup: Setup,
    /// The side to move, e.g. `"white"`.
    pub to_move: &'static str,
    /// The value for the side to move.
    pub value: Value,
    /// In a game that ends in a score: the final margin for the side to move
    /// under perfect play (docs/rules.md, "`[score]`"); `value` is its sign and
    /// remoteness. `None` in other games.
    pub score: Option<i32>,
    /// Which solver answered: `"retrograde"`, `"layered"`, `"alpha-beta"` or `"tablebase"`.
    /// `"retrograde"` is a whole-game solve from the terminal positions back,
    /// the engine's or (chase, open Queen's Case maps) the bit-parallel one: the
    /// same values.
    pub solver: &'static str,
    /// Every legal move, best first (a tie in value keeps the game's move order).
    pub moves: Vec<MoveInfo>,
    /// How the game ended, when it is over here.
    pub end: Option<String>,
    /// True when the game is over by its rules here (moves may exist, none is
    /// played); false when play goes on, or the side to move is stuck.
    pub over: bool,
    /// The board, for drawing.
    pub board: Board,
}

impl Analysis {
    /// The move the computer plays: the best (fastest win, slowest loss, a draw kept).
    pub fn best_move(&self) -> Option<&MoveInfo> {
        self.moves.first()
    }
}

/// Why an analysis cannot be made. Each is the user's to fix (the web API answers
/// 4xx), except [`AnalysisError::Internal`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// No such game.
    #[error("unknown game {0:?}: expected {names}", names = catalog::names(|_| true))]
    UnknownGame(String),
    /// A rules game was asked for, and the analyzer has no rules
    /// ([`Analyzer::with_rules`]).
    #[error("no rules file was given (docs/rules.md)")]
    NoRules,
    /// The variant parameters are missing or wrong.
    #[error("{0}")]
    BadVariant(String),
    /// The position does not parse.
    #[error("position {}: {message}", gsolve_games::text::excerpt(position))]
    BadPosition {
        /// The text given.
        position: String,
        /// What is wrong, with the column when known.
        message: String,
    },
    /// Solving would take longer or more memory than the limits allow.
    #[error("{0}")]
    TooLarge(String),
    /// The tablebase cannot answer this setup.
    #[error("{0}")]
    Tablebase(String),
    /// An opening book that cannot be read or does not fit the game.
    #[error("{0}")]
    Book(String),
    /// A solver failed (a bug).
    #[error("internal error: {0}")]
    Internal(String),
}
