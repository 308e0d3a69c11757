//! Pawn chess (UVa 10838), on any R×C board: "pawns".
//!
//! Rules (GAMES.md §3): white pawns move up (towards row 0), black pawns down. A pawn
//! steps one cell straight forward into an empty cell, or one cell diagonally forward
//! onto an enemy pawn, capturing it. No double steps, no en passant. A side wins when
//! one of its pawns reaches the far rank, or when the opponent has no legal move on
//! its turn (no pawns included).
//!
//! As an engine game: a position is two bitboards and the side to move; bit
//! `row * cols + col`, row 0 at the top:
//!
//! ```text
//!   4×4:  bit  0  1  2  3    ← white's goal rank (row 0)
//!              4  5  6  7
//!              8  9 10 11
//!             12 13 14 15    ← black's goal rank (row R-1)
//! ```
//! Terminal: the side that just moved has a pawn on its goal rank (the side to move
//! has lost), or, in positions play never reaches, the side to move has one (won).
//! A side with no move loses at remoteness 0 (the engine's rule), which is exactly the
//! contest's count: the stuck side's missing move is not a ply.
//!
//! Every move advances a pawn, and a capture removes one: the game is acyclic.
//! [`PawnIndex`], the tight index, numbers every position with no pawn on its own goal
//! rank in tiers by (white pawns, black pawns), each in layers for a one-sweep solve
//! ([`Tiered`], [`Layered`]); positions with a pawn on its goal rank are terminal and
//! have no index.
//!
//! The alpha-beta search ([`gsolve_engine::search`]) gets bounds from pawns that
//! nothing can stop and a move order from this module's `search.rs`.

mod format;
mod index;
mod search;

pub use format::{parse_boards, parse_position, PawnsCase, MAX_SIDE, MIN_SIDE};
pub use index::{PawnIndex, PawnTier};

use crate::error::FormatError;
use crate::notation::{Coord, Explain, PieceMove, PlainNotation};
use crate::plain::Parameters;
use gsolve_engine::{Game, Indexed, Layered, Outcome, Tiered, Value, Variant};
use index::bits;
use std::fmt;

/// Pawn chess on an R×C board.
#[derive(Clone, Debug)]
pub struct Pawns {
    rows: u32,
    cols: u32,
    /// Row 0: where white pawns win.
    white_goal: u64,
    /// Row R-1: where black pawns win.
    black_goal: u64,
    index: Option<PawnIndex>,
    /// Masks that find the runners of the search's bounds.
    runners: search::RunnerMasks,
}

/// A position: the pawns of each side as bitboards, and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PawnsPosition {
    /// White pawns.
    pub white: u64,
    /// Black pawns.
    pub black: u64,
    /// True when white is to move.
    pub white_to_move: bool,
}

/// A pawn's step: from one cell to another (bits as in [`PawnsPosition`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PawnMove {
    /// The cell the pawn leaves.
    pub from: u8,
    /// The cell it goes to (capturing an enemy pawn there, if any).
    pub to: u8,
}

impl Pawns {
    /// The game on an R×C board, [`MIN_SIDE`] ≤ R, C ≤ [`MAX_SIDE`]. The tight index
    /// exists when its size fits in 64 bits.
    pub fn new(rows: u32, cols: u32) -> Self {
        assert!((MIN_SIDE..=MAX_SIDE).contains(&rows) && (MIN_SIDE..=MAX_SIDE).contains(&cols));
        let row_mask = (1u64 << cols) - 1;
        Pawns {
            rows,
            cols,
            white_goal: row_mask,
            black_goal: row_mask << ((rows - 1) * cols),
            index: PawnIndex::new(rows, cols),
            runners: search::RunnerMasks::new(rows, cols),
        }
    }

    /// Rows.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The tight index, if its size fits in 64 bits.
    pub fn pawn_index(&self) -> Option<&PawnIndex> {
        self.index.as_ref()
    }

    /// True if the tight index holds this position: at most C pawns a side and no
    /// pawn on its own goal rank.
    pub fn is_indexed(&self, p: &PawnsPosition) -> bool {
        self.index.as_ref().is_some_and(|ix| ix.holds(p))
    }

    /// The start: home ranks full (black on row 0, white on row R-1), white to move.
    pub fn start(&self) -> PawnsPosition {
        PawnsPosition { white: self.black_goal, black: self.white_goal, white_to_move: true }
    }

    /// The 1-based coordinates of a cell.
    pub fn coord(&self, cell: u32) -> Coord {
        Coord { row: cell / self.cols + 1, col: cell % self.cols + 1 }
    }

    /// The contest's answer for a value of `position`: `white (x)` or `black (x)`.
    pub fn verdict(position: &PawnsPosition, value: Value) -> String {
        let white_wins = matches!(value, Value::Win(_)) == position.white_to_move;
        match value {
            Value::Win(r) | Value::Loss(r) => format!("{} ({r})", if white_wins { "white" } else { "black" }),
            // Pawn chess always ends: a solver bug, never a position.
            Value::Tie(_) | Value::Draw => unreachable!("pawn chess has no ties or draws"),
        }
    }

    /// The position in plain notation: rows top to bottom joined by `/`, then `w` or
    /// `b` for the side to move (`pppp/..../..../PPPP w`).
    pub fn notation(&self, p: &PawnsPosition) -> String {
        let rows: Vec<String> = (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        let bit = 1u64 << (r * self.cols + c);
                        if p.white & bit != 0 {
                            'P'
                        } else if p.black & bit != 0 {
                            'p'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        format!("{} {}", rows.join("/"), if p.white_to_move { 'w' } else { 'b' })
    }

    /// A bitboard reflected left to right.
    fn mirror(&self, mask: u64) -> u64 {
        let row_mask = (1u64 << self.cols) - 1;
        (0..self.rows).fold(0, |m, r| {
            let row = (mask >> (r * self.cols)) & row_mask;
            let reflected = row.reverse_bits() >> (64 - self.cols);
            m | reflected << (r * self.cols)
        })
    }

    /// Calls `f` with each legal move (non-terminal position assumed): straight
    /// ahead into an empty cell, diagonally ahead onto an enemy pawn.
    #[inline]
    fn for_each_move(&self, p: &PawnsPosition, mut f: impl FnMut(PawnMove)) {
        let c = self.cols;
        let empty = !(p.white | p.black);
        // A pawn on its goal rank means a terminal position: it never moves.
        let (movers, enemies) =
            if p.white_to_move { (p.white & !self.white_goal, p.black) } else { (p.black & !self.black_goal, p.white) };
        for from in bits(movers) {
            let ahead = if p.white_to_move { from - c } else { from + c };
            let col = from % c;
            let mut step = |to: u32, allowed: u64| {
                if allowed >> to & 1 == 1 {
                    f(PawnMove { from: from as u8, to: to as u8 });
                }
            };
            step(ahead, empty);
            if col > 0 {
                step(ahead - 1, enemies);
            }
            if col + 1 < c {
                step(ahead + 1, enemies);
            }
        }
    }
}

impl Game for Pawns {
    type Position = PawnsPosition;
    type Move = PawnMove;

    #[inline]
    fn terminal(&self, p: &PawnsPosition) -> Option<Outcome> {
        let (mover_home_goal, last_mover_goal) = if p.white_to_move {
            (p.white & self.white_goal, p.black & self.black_goal)
        } else {
            (p.black & self.black_goal, p.white & self.white_goal)
        };
        if last_mover_goal != 0 {
            Some(Outcome::Loss)
        } else if mover_home_goal != 0 {
            Some(Outcome::Win)
        } else {
            None
        }
    }

    fn moves(&self, p: &PawnsPosition, moves: &mut Vec<PawnMove>) {
        self.for_each_move(p, |m| moves.push(m));
    }

    #[inline]
    fn play(&self, p: &PawnsPosition, m: &PawnMove) -> PawnsPosition {
        let (from, to) = (1u64 << m.from, 1u64 << m.to);
        if p.white_to_move {
            PawnsPosition { white: p.white & !from | to, black: p.black & !to, white_to_move: false }
        } else {
            PawnsPosition { white: p.white & !to, black: p.black & !from | to, white_to_move: true }
        }
    }

    #[inline]
    fn for_each_child(&self, p: &PawnsPosition, mut f: impl FnMut(PawnsPosition)) {
        self.for_each_move(p, |m| f(self.play(p, &m)));
    }

    #[inline]
    fn move_count(&self, p: &PawnsPosition) -> usize {
        let mut n = 0;
        self.for_each_move(p, |_| n += 1);
        n
    }
}

/// The tight index ([`PawnIndex`]): positions with a pawn on its own goal rank are
/// terminal and have no index (asking gives [`Indexed::index_size`], out of range).
impl Indexed for Pawns {
    /// 0 when the board's index does not fit in 64 bits.
    fn index_size(&self) -> u64 {
        self.index.as_ref().map_or(0, PawnIndex::size)
    }

    fn index(&self, p: &PawnsPosition) -> u64 {
        self.index.as_ref().and_then(|ix| ix.index(p)).unwrap_or_else(|| self.index_size())
    }

    fn position(&self, index: u64) -> Option<PawnsPosition> {
        let ix = self.index.as_ref()?;
        (index < ix.size()).then(|| ix.position(index))
    }

    /// Steps black's cells from one combination to the next instead of decoding.
    fn for_each_position_in(&self, range: std::ops::Range<u64>, f: impl FnMut(u64, PawnsPosition)) {
        if let Some(ix) = &self.index {
            ix.for_each_position_in(range.start..range.end.min(ix.size()), f)
        }
    }
}

impl Layered for Pawns {
    fn for_each_layer(&self, f: impl FnMut(std::ops::Range<u64>)) {
        if let Some(ix) = &self.index {
            ix.for_each_layer(f)
        }
    }
}

/// Tiers by (white pawns, black pawns): a capture leaves the tier for one with a pawn
/// fewer, every other move stays in it; each tier's rows are its layers.
impl Tiered for Pawns {
    type Tier = PawnTier;

    fn tiers(&self) -> Vec<PawnTier> {
        self.index.as_ref().map_or_else(Vec::new, |ix| ix.tiers().collect())
    }

    fn child_tiers(&self, (white, black): PawnTier) -> Vec<PawnTier> {
        let mut children = Vec::new();
        if white > 0 {
            children.push((white - 1, black));
        }
        if black > 0 {
            children.push((white, black - 1));
        }
        children
    }

    fn tier_size(&self, tier: PawnTier) -> u64 {
        self.index.as_ref().map_or(0, |ix| ix.tier_size(tier))
    }

    fn tier_name(&self, (white, black): PawnTier) -> String {
        format!("w{white}b{black}")
    }

    fn locate(&self, p: &PawnsPosition) -> Option<(PawnTier, u64)> {
        self.index.as_ref()?.locate(p)
    }

    fn position_in(&self, tier: PawnTier, index: u64) -> Option<PawnsPosition> {
        let ix = self.index.as_ref()?;
        (index < ix.tier_size(tier)).then(|| ix.position_in(tier, index))
    }

    fn for_each_position_in_tier(
        &self,
        tier: PawnTier,
        range: std::ops::Range<u64>,
        f: impl FnMut(u64, PawnsPosition),
    ) {
        if let Some(ix) = &self.index {
            ix.for_each_position_in_tier(tier, range.start..range.end.min(ix.tier_size(tier)), f)
        }
    }

    fn for_each_located(
        &self,
        tier: PawnTier,
        range: std::ops::Range<u64>,
        f: impl FnMut(u64, gsolve_engine::Scan<'_, PawnTier>),
    ) {
        if let Some(ix) = &self.index {
            ix.for_each_located_in_tier(tier, range.start..range.end.min(ix.tier_size(tier)), f)
        }
    }

    fn for_each_layer_in_tier(&self, tier: PawnTier, f: impl FnMut(std::ops::Range<u64>)) -> bool {
        match &self.index {
            Some(ix) => {
                ix.for_each_layer_in_tier(tier, f);
                true
            }
            None => false,
        }
    }
}

impl Explain for Pawns {
    fn side_to_move(&self, p: &PawnsPosition) -> &'static str {
        if p.white_to_move {
            "white"
        } else {
            "black"
        }
    }

    fn describe_move(&self, p: &PawnsPosition, m: &PawnMove) -> PieceMove {
        PieceMove::new(self.side_to_move(p), self.coord(m.from as u32), self.coord(m.to as u32))
    }

    fn describe_end(&self, p: &PawnsPosition) -> Option<String> {
        match self.terminal(p) {
            Some(_) => {
                let winner_white = !p.white_to_move;
                let (side, goal) = if winner_white {
                    ("white", p.white & self.white_goal)
                } else {
                    ("black", p.black & self.black_goal)
                };
                let cell = bits(goal).next().unwrap_or(0);
                Some(format!("{side} reaches the far rank at {}", self.coord(cell)))
            }
            None => Some(format!("{} cannot move and loses", self.side_to_move(p))),
        }
    }
}

/// `rows` and `cols`, each [`MIN_SIDE`] to [`MAX_SIDE`].
impl Variant for Pawns {
    const NAME: &'static str = "pawns";
    /// 2: the tight index (1 indexed every placement of at most C pawns a side).
    const INDEX_VERSION: u32 = 2;

    fn parameters(&self) -> Vec<(String, String)> {
        vec![("rows".to_string(), self.rows.to_string()), ("cols".to_string(), self.cols.to_string())]
    }

    fn from_parameters(parameters: &[(String, String)]) -> Result<Self, String> {
        let parameters = Parameters::new(parameters, &["rows", "cols"])?;
        let rows = parameters.number("rows", MIN_SIDE..=MAX_SIDE)?;
        let cols = parameters.number("cols", MIN_SIDE..=MAX_SIDE)?;
        Ok(Pawns::new(rows, cols))
    }
}

/// [`Pawns::notation`]; the board must be this game's size, with at most C pawns a
/// side. Unlike a contest input ([`parse_position`]), pawns on their goal rank are
/// accepted: such a position is over (terminal), and valued by the rules.
impl PlainNotation for Pawns {
    fn parse_position(&self, text: &str) -> Result<PawnsPosition, FormatError> {
        Ok(format::parse_plain(text, Some((self.rows, self.cols)), true)?.position)
    }

    fn format_position(&self, p: &PawnsPosition) -> String {
        self.notation(p)
    }
}

impl fmt::Display for PawnsPosition {
    /// The bitboards in hex (a board needs its size to be drawn: see [`Pawns::notation`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "white {:#x} black {:#x} {}", self.white, self.black, if self.white_to_move { "w" } else { "b" })
    }
}

/// The plain notation is the board.
impl crate::notation::DrawnBoard for Pawns {}
