//! The board game of CQOI 2013 ("chase"): a white and a black piece on an n×n board.
//!
//! Rules (GAMES.md §2): white moves first, exactly one cell up, down, left or right;
//! black moves one or two cells in a straight line in one of those directions (a
//! two-cell move may pass over white's cell: pieces do not block, and a black piece
//! next to white captures rather than jumps anyway). Both must move. Moving onto the
//! other piece captures it and wins.
//!
//! As an engine game: a position is (white cell, black cell, side to move) over the
//! n² cells (`row * n + col`), indexed by [`PairIndex`] (white first). The only
//! terminal positions are those with both pieces on one cell: the side to move has
//! just been captured (`Loss`). Remoteness is the contest's count of plies.

mod bitwise;
mod format;

pub use format::{parse_cases, ChaseCase, MAX_SIZE, MIN_SIZE};

use crate::error::FormatError;
use crate::notation::{Coord, DrawnBoard, Explain, PieceMove, PlainNotation};
use crate::plain::{format_two_cells, parse_two_cells, Parameters};
use crate::pursuit::{Adjacency, Pair, PairIndex};
use gsolve_engine::{Game, Indexed, Outcome, Unmoves, Value, Variant};

/// The game on an n×n board.
#[derive(Clone, Debug)]
pub struct Chase {
    size: u32,
    white_steps: Adjacency,
    black_steps: Adjacency,
    index: PairIndex,
}

/// A position: both cells (`row * n + col`, 0-based) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChasePosition {
    /// White's cell.
    pub white: u32,
    /// Black's cell.
    pub black: u32,
    /// True when white is to move.
    pub white_to_move: bool,
}

impl Chase {
    /// The game on an n×n board, [`MIN_SIZE`] ≤ n ≤ [`MAX_SIZE`].
    pub fn new(size: u32) -> Self {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size}");
        let n = size as i64;
        let steps = |reach: i64| {
            Adjacency::from_lists((0..n * n).map(move |cell| {
                let (row, col) = (cell / n, cell % n);
                let mut targets = Vec::new();
                for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    for k in 1..=reach {
                        let (r, c) = (row + dr * k, col + dc * k);
                        if (0..n).contains(&r) && (0..n).contains(&c) {
                            targets.push((r * n + c) as u32);
                        }
                    }
                }
                targets
            }))
        };
        Chase { size, white_steps: steps(1), black_steps: steps(2), index: PairIndex::new(size * size) }
    }

    /// Board size n.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The cell at 1-based (row, col).
    pub fn cell(&self, coord: Coord) -> u32 {
        (coord.row - 1) * self.size + (coord.col - 1)
    }

    /// The 1-based coordinates of a cell.
    pub fn coord(&self, cell: u32) -> Coord {
        Coord { row: cell / self.size + 1, col: cell % self.size + 1 }
    }

    /// The start of a case: white to move.
    pub fn start(&self, case: &ChaseCase) -> ChasePosition {
        ChasePosition { white: self.cell(case.white), black: self.cell(case.black), white_to_move: true }
    }

    /// The contest's answer for the value of a white-to-move position:
    /// `WHITE x`, `BLACK x` or `DRAW`, x counting every ply including the capture.
    pub fn verdict(value: Value) -> String {
        match value {
            Value::Win(r) => format!("WHITE {r}"),
            Value::Loss(r) => format!("BLACK {r}"),
            Value::Tie(_) | Value::Draw => "DRAW".to_string(),
        }
    }

    #[inline]
    fn steps(&self, white: bool) -> &Adjacency {
        if white {
            &self.white_steps
        } else {
            &self.black_steps
        }
    }
}

impl Game for Chase {
    type Position = ChasePosition;
    /// The cell the mover's piece goes to.
    type Move = u32;

    #[inline]
    fn terminal(&self, p: &ChasePosition) -> Option<Outcome> {
        (p.white == p.black).then_some(Outcome::Loss)
    }

    fn moves(&self, p: &ChasePosition, moves: &mut Vec<u32>) {
        let from = if p.white_to_move { p.white } else { p.black };
        moves.extend_from_slice(self.steps(p.white_to_move).of(from));
    }

    #[inline]
    fn play(&self, p: &ChasePosition, &to: &u32) -> ChasePosition {
        if p.white_to_move {
            ChasePosition { white: to, black: p.black, white_to_move: false }
        } else {
            ChasePosition { white: p.white, black: to, white_to_move: true }
        }
    }

    #[inline]
    fn for_each_child(&self, p: &ChasePosition, mut f: impl FnMut(ChasePosition)) {
        let from = if p.white_to_move { p.white } else { p.black };
        for to in self.steps(p.white_to_move).of(from) {
            f(self.play(p, to));
        }
    }

    #[inline]
    fn move_count(&self, p: &ChasePosition) -> usize {
        let from = if p.white_to_move { p.white } else { p.black };
        self.steps(p.white_to_move).of(from).len()
    }
}

impl Indexed for Chase {
    fn index_size(&self) -> u64 {
        self.index.size()
    }

    #[inline]
    fn index(&self, p: &ChasePosition) -> u64 {
        self.index.index(Pair { first: p.white, second: p.black, second_to_move: !p.white_to_move })
    }

    #[inline]
    fn position(&self, index: u64) -> Option<ChasePosition> {
        let pair = self.index.pair(index);
        Some(ChasePosition { white: pair.first, black: pair.second, white_to_move: !pair.second_to_move })
    }
}

impl Unmoves for Chase {
    /// The side not to move here moved last, from a cell its own move set reaches
    /// (both move sets are symmetric). Parents with both pieces on one cell are
    /// terminal and left out.
    #[inline]
    fn for_each_parent(&self, p: &ChasePosition, mut f: impl FnMut(ChasePosition)) {
        let white_moved = !p.white_to_move;
        let moved = if white_moved { p.white } else { p.black };
        for &from in self.steps(white_moved).of(moved) {
            let parent = if white_moved {
                ChasePosition { white: from, black: p.black, white_to_move: true }
            } else {
                ChasePosition { white: p.white, black: from, white_to_move: false }
            };
            if parent.white != parent.black {
                f(parent);
            }
        }
    }
}

impl Explain for Chase {
    fn side_to_move(&self, position: &ChasePosition) -> &'static str {
        if position.white_to_move {
            "white"
        } else {
            "black"
        }
    }

    fn describe_move(&self, position: &ChasePosition, &target: &u32) -> PieceMove {
        let from = if position.white_to_move { position.white } else { position.black };
        PieceMove::new(self.side_to_move(position), self.coord(from), self.coord(target))
    }

    fn describe_end(&self, position: &ChasePosition) -> Option<String> {
        self.terminal(position)?;
        let winner = if position.white_to_move { "black" } else { "white" };
        Some(format!("{winner} captures at {}", self.coord(position.white)))
    }
}

/// `size`: the board side n, [`MIN_SIZE`] to [`MAX_SIZE`].
impl Variant for Chase {
    const NAME: &'static str = "chase";

    fn parameters(&self) -> Vec<(String, String)> {
        vec![("size".to_string(), self.size.to_string())]
    }

    fn from_parameters(parameters: &[(String, String)]) -> Result<Self, String> {
        let parameters = Parameters::new(parameters, &["size"])?;
        Ok(Chase::new(parameters.number("size", MIN_SIZE..=MAX_SIZE)?))
    }
}

/// `R,C R,C S`: white's cell, black's cell (1-based, as in the contest input), then
/// `w` or `b`: `1,1 4,4 w`. Both pieces on one cell (a capture) is a position too.
impl PlainNotation for Chase {
    fn parse_position(&self, text: &str) -> Result<ChasePosition, FormatError> {
        let n = self.size;
        let cell = |c: Coord| {
            if (1..=n).contains(&c.row) && (1..=n).contains(&c.col) {
                Ok(self.cell(c))
            } else {
                Err(format!("is off the {n}x{n} board (rows and columns 1..={n})"))
            }
        };
        let (white, black, white_to_move) = parse_two_cells(text, ["white", "black"], ["w", "b"], cell)?;
        Ok(ChasePosition { white, black, white_to_move })
    }

    fn format_position(&self, p: &ChasePosition) -> String {
        format_two_cells(self.coord(p.white), self.coord(p.black), if p.white_to_move { "w" } else { "b" })
    }
}

/// `W` white, `B` black, `X` both (a capture), `.` empty.
impl DrawnBoard for Chase {
    fn drawn_rows(&self, p: &ChasePosition) -> Vec<String> {
        let n = self.size();
        let rows: Vec<String> = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| match (r * n + c == p.white, r * n + c == p.black) {
                        (true, true) => 'X',
                        (true, false) => 'W',
                        (false, true) => 'B',
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        rows
    }
}
