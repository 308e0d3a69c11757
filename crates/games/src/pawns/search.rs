//! What the pawns' alpha-beta search knows without searching: bounds from races,
//! and the order to try moves in.
//!
//! # Bounds from runners
//!
//! Every move advances one pawn one row, so a pawn `d` rows from its goal rank
//! promotes at its side's `d`-th move at the soonest: the side to move (plies 1, 3,
//! 5, …) on ply `2d - 1`, the other side (plies 2, 4, …) on ply `2d`. The other way
//! to win, leaving the opponent without a move, is ruled out by a *free runner*:
//! a pawn whose file ahead is empty to its goal rank and that no enemy pawn can
//! reach (capture, or block by capturing into its file) while it walks there.
//!
//! A runner of side X keeps X from ever being stuck if X pushes it every turn, and
//! (with the soonest promotions) gives the bounds, for the side to move M against
//! the opponent O (`d_M`, `d_O`: each side's nearest pawn to its goal rank):
//!
//! | M has a runner at distance `r` | value of M ≥                                 |
//! |--------------------------------|----------------------------------------------|
//! | `r ≤ d_O`                      | `Win(2r - 1)`: it promotes before O can      |
//! | `r > d_O`                      | `Loss(2 d_O)`: O promotes on ply `2 d_O` at best |
//!
//! | O has a runner at distance `r` | value of M ≤                                 |
//! |--------------------------------|----------------------------------------------|
//! | `r < d_M`                      | `Loss(2r)`: it promotes before M can         |
//! | `r ≥ d_M`                      | `Win(2 d_M - 1)`: M promotes on ply `2 d_M - 1` at best |
//!
//! # Who can reach a runner
//! White pawn at (row `r`, column `c`), going up. A black pawn at `(r_q, c_q)` goes
//! down one row a move and sideways only by capturing, one column a capture. At or
//! below the runner's row it can never meet it again. Above, to capture the runner
//! it must stand diagonally above it, and to block it, in its file above it. Say
//! it gets there after `k` moves of its own (`k` rows, at most `k` columns), while
//! the runner made `m ≥ k - 1` (`m ≥ k` to capture: black is to move then). A
//! capture needs `r_q + k + 1 = r - m` and `|c_q - c| ≤ k + 1`, so `2k ≤ r - r_q - 1`;
//! a block needs `r_q + k < r - m` and `|c_q - c| ≤ k`, so `2k ≤ r - r_q`. Either
//! way `|c_q - c| ≤ ⌊(r - r_q + 1) / 2⌋`. The *cone* of a white pawn is that set of
//! cells, `r_q < r` and `|c_q - c| ≤ ⌊(r - r_q + 1) / 2⌋` (black's is the mirror
//! image); a runner has no enemy pawn in its cone (nor any pawn in its file ahead).
//! Every position of the small boards checks these bounds against the exact
//! values (`tests/pawns.rs`).
//!
//! ```text
//!   a white pawn W on row 5 and its cone (x), where no black pawn may stand
//!   (nor any pawn on its file ahead, to the goal cell on row 0):
//!   row 0   x x x x x x x
//!   row 1   . x x x x x .
//!   row 2   . x x x x x .
//!   row 3   . . x x x . .
//!   row 4   . . x x x . .
//!   row 5   . . . W . . .
//! ```
//!
//! # Move order
//! Alpha-beta is only as fast as its first moves are good. Children are tried:
//! captures first, then quiet moves; within each, moves onto a cell an enemy pawn
//! attacks come last (later still if no pawn of ours could take back); and among
//! equals, pawns farther from their goal first (waiting moves: pawn chess is a
//! game of tempo, and pushing the front pawn too early is the usual mistake).
//! Together they spare the search most of its positions (`pawns_timing`,
//! `examples/`).

use super::{Pawns, PawnsPosition};
use gsolve_engine::search::{SearchHooks, ValueBound};
use gsolve_engine::{Game, Value};

/// Per cell, the masks that find runners (bits as in [`PawnsPosition`]).
#[derive(Clone, Debug)]
pub(super) struct RunnerMasks {
    /// For a white pawn on the cell: the cells above it in its file, to row 0.
    white_ahead: Vec<u64>,
    /// For a white pawn: its cone, where a black pawn might reach it.
    white_cone: Vec<u64>,
    /// For a black pawn: the cells below it in its file, to row R-1.
    black_ahead: Vec<u64>,
    /// For a black pawn: its cone.
    black_cone: Vec<u64>,
}

impl RunnerMasks {
    pub(super) fn new(rows: u32, cols: u32) -> Self {
        let cell = |r: u32, c: u32| 1u64 << (r * cols + c);
        // Cells on rows `rows_ahead`, `gap` rows from the pawn's, and their reach.
        let masks_of = |c: u32, rows_ahead: &mut dyn Iterator<Item = (u32, u32)>| {
            let (mut ahead, mut cone) = (0, 0);
            for (r_q, gap) in rows_ahead {
                ahead |= cell(r_q, c);
                for c_q in 0..cols {
                    if c.abs_diff(c_q) <= gap.div_ceil(2) {
                        cone |= cell(r_q, c_q);
                    }
                }
            }
            (ahead, cone)
        };
        let mut masks = RunnerMasks {
            white_ahead: Vec::new(),
            white_cone: Vec::new(),
            black_ahead: Vec::new(),
            black_cone: Vec::new(),
        };
        for r in 0..rows {
            for c in 0..cols {
                let (ahead, cone) = masks_of(c, &mut (0..r).map(|r_q| (r_q, r - r_q)));
                masks.white_ahead.push(ahead);
                masks.white_cone.push(cone);
                let (ahead, cone) = masks_of(c, &mut (r + 1..rows).map(|r_q| (r_q, r_q - r)));
                masks.black_ahead.push(ahead);
                masks.black_cone.push(cone);
            }
        }
        masks
    }
}

/// One side's race: its nearest pawn to its goal rank, and its nearest runner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Race {
    /// Rows from the nearest pawn to the goal rank; `u32::MAX` with no pawn.
    nearest: u32,
    /// Rows from the nearest runner to the goal rank, if the side has one.
    runner: Option<u32>,
}

/// Move order keys (module docs): a capture's weight beats any quiet move's, an
/// attacked cell's penalty beats any distance's (10 a row, 70 at most).
const CAPTURE: i32 = 1000;
const ATTACKED: i32 = 500;
const ATTACKED_DEFENDED: i32 = 200;
const PER_ROW_TO_GO: i32 = 10;

impl Pawns {
    /// White's race (`white` is true) or black's.
    fn race(&self, p: &PawnsPosition, white: bool) -> Race {
        let masks = &self.runners;
        let occupied = p.white | p.black;
        let (mine, theirs, ahead, cone) = if white {
            (p.white, p.black, &masks.white_ahead, &masks.white_cone)
        } else {
            (p.black, p.white, &masks.black_ahead, &masks.black_cone)
        };
        let mut race = Race { nearest: u32::MAX, runner: None };
        let mut pawns = mine;
        while pawns != 0 {
            let cell = pawns.trailing_zeros();
            pawns &= pawns - 1;
            let d = self.rows_to_go(cell, white);
            race.nearest = race.nearest.min(d);
            let runs = ahead[cell as usize] & occupied == 0 && cone[cell as usize] & theirs == 0;
            if runs && race.runner.is_none_or(|r| d < r) {
                race.runner = Some(d);
            }
        }
        race
    }

    /// Rows from a white (`white` true) or black pawn's cell to its goal rank.
    #[inline]
    fn rows_to_go(&self, cell: u32, white: bool) -> u32 {
        let row = cell / self.cols;
        if white {
            row
        } else {
            self.rows - 1 - row
        }
    }

    /// Bounds `(low, high)` on the value of a position for the side to move, from
    /// the runners (the tables of `pawns/search.rs`): `low ≤ value ≤ high`, and the
    /// value itself when the two are equal (as for a position that is over).
    pub fn race_bounds(&self, p: &PawnsPosition) -> (Value, Value) {
        if let Some(outcome) = self.terminal(p) {
            return (outcome.value(), outcome.value());
        }
        // Not over: no pawn stands on its goal rank, so every distance is at least 1.
        let mover = self.race(p, p.white_to_move);
        let other = self.race(p, !p.white_to_move);
        let low = match mover.runner {
            Some(r) if r <= other.nearest => Value::Win(2 * r - 1),
            Some(_) => Value::Loss(2 * other.nearest),
            None => Value::Loss(0),
        };
        let high = match other.runner {
            Some(r) if r < mover.nearest => Value::Loss(2 * r),
            Some(_) => Value::Win(2 * mover.nearest - 1),
            None => Value::Win(1),
        };
        (low, high)
    }

    /// The search's order key of the move from `parent` to `child` (module docs).
    fn move_order_key(&self, parent: &PawnsPosition, child: &PawnsPosition) -> i32 {
        let white = parent.white_to_move;
        let (mine, theirs_before, theirs) = if white {
            (child.white & !parent.white, parent.black, child.black)
        } else {
            (child.black & !parent.black, parent.white, child.white)
        };
        let to = mine.trailing_zeros();
        let (row, col) = (to / self.cols, to % self.cols);
        // The cells of a row diagonally next to the column of `to`.
        let beside = |row: Option<u32>| {
            row.filter(|&r| r < self.rows).map_or(0, |r| {
                let centre = 1u64 << (r * self.cols + col);
                let left = if col > 0 { centre >> 1 } else { 0 };
                let right = if col + 1 < self.cols { centre << 1 } else { 0 };
                left | right
            })
        };
        // White pawns take upwards, so black ones attack `to` from the row above.
        let (above, below) = (row.checked_sub(1), Some(row + 1));
        let (enemy_posts, friend_posts) =
            if white { (beside(above), beside(below)) } else { (beside(below), beside(above)) };
        let ours = if white { child.white } else { child.black };
        let mut key = PER_ROW_TO_GO * self.rows_to_go(to, white) as i32;
        if theirs != theirs_before {
            key += CAPTURE;
        }
        if enemy_posts & theirs != 0 {
            key -= if friend_posts & ours != 0 { ATTACKED_DEFENDED } else { ATTACKED };
        }
        key
    }
}

/// The board's left-right mirror has the same value: the search keeps one of each
/// pair. Runners bound the value, and moves are ordered (module docs).
impl SearchHooks for Pawns {
    fn canonical(&self, p: &PawnsPosition) -> PawnsPosition {
        let mirrored = PawnsPosition { white: self.mirror(p.white), black: self.mirror(p.black), ..*p };
        if (mirrored.white, mirrored.black) < (p.white, p.black) {
            mirrored
        } else {
            *p
        }
    }

    fn order_key(&self, parent: &PawnsPosition, child: &PawnsPosition) -> i32 {
        self.move_order_key(parent, child)
    }

    fn exact_value(&self, p: &PawnsPosition) -> Option<Value> {
        let (low, high) = self.race_bounds(p);
        (low == high).then_some(low)
    }

    fn value_bound(&self, p: &PawnsPosition, threshold: Value) -> Option<ValueBound> {
        let (low, high) = self.race_bounds(p);
        if low == high {
            Some(ValueBound::Exact(low))
        } else if low >= threshold {
            Some(ValueBound::AtLeast(low))
        } else if high < threshold {
            Some(ValueBound::AtMost(high))
        } else {
            None
        }
    }
}
