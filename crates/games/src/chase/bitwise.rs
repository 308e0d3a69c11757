//! The bit-parallel solve of chase, of one position or of all
//! ([`crate::pursuit::bit_rows`]):
//! white is the first token (a row per cell, its four steps as its moves), black
//! the second (a bit per cell, moving one or two cells along a row or column,
//! passing over anything). The terminal positions are both pieces on one cell,
//! lost for the side to move (`first_loses` and `second_loses` of each row).
//!
//! Memory: four bits a pair of cells, two a position (the engine's solve: 16).

use super::{Chase, ChasePosition};
use crate::pursuit::bit_rows::{set_bit, BitRows, BitwiseOptions, Terminals, ToMove};
use gsolve_engine::{Indexed, PackedValue, Solution, Value};

impl Chase {
    /// The budget the contest command gives [`Self::value_bitwise`] before it
    /// solves the whole board instead: six row words a position, about where the
    /// bit-parallel solve (a row word holds 64 positions) stops paying against the
    /// engine's solve of every position.
    pub fn bitwise_budget(&self) -> u64 {
        6 * self.index_size()
    }

    /// The exact value of `position` (remoteness included), by the bit-parallel
    /// solve, which stops as soon as the position is decided; `None` when that
    /// needs more than `options.budget` row words of work.
    pub fn value_bitwise(&self, position: &ChasePosition, options: &BitwiseOptions<'_>) -> Option<Value> {
        let to_move = if position.white_to_move { ToMove::First } else { ToMove::Second };
        let asked = (position.white as usize, position.black as usize, to_move);
        let cells = (self.size * self.size) as usize;
        self.bit_rows().value_of(&self.white_steps, cells, terminals, asked, options)
    }

    /// Solves every position by the bit-parallel solve, to the engine's solution
    /// (the same values, index for index); `None` when that needs more than
    /// `options.budget` row words of work. Memory: that of the solve, and the solution's
    /// 2 bytes a position.
    pub fn solve_bitwise(&self, options: &BitwiseOptions<'_>) -> Option<Solution> {
        let mut codes = vec![PackedValue::DRAW.0 as u16; self.index_size() as usize];
        let record = |white: usize, to_move: ToMove, black: usize, value: Value| {
            let position =
                ChasePosition { white: white as u32, black: black as u32, white_to_move: to_move == ToMove::First };
            codes[self.index(&position) as usize] = PackedValue::pack(value).0 as u16;
        };
        let cells = (self.size * self.size) as usize;
        let solved = self.bit_rows().solve_all(&self.white_steps, cells, terminals, options, record);
        solved.then(|| Solution::from_narrow(codes))
    }

    /// The grid of the bit-parallel solve (cells are `row * n + col`, the grid's
    /// bits too) with black's moves.
    fn bit_rows(&self) -> BitRows {
        let n = self.size as usize;
        let vectors = [(0, 1), (0, 2), (0, -1), (0, -2), (1, 0), (2, 0), (-1, 0), (-2, 0)];
        let legal = |r: usize, c: usize, (dr, dc): (isize, isize)| {
            r.checked_add_signed(dr).is_some_and(|r| r < n) && c.checked_add_signed(dc).is_some_and(|c| c < n)
        };
        BitRows::new(n, n, |_, _| true, &vectors, legal)
    }
}

/// Writes a row's terminal positions: both pieces on white's cell, lost for the
/// side to move.
fn terminals(white: usize, rows: Terminals<'_>) {
    set_bit(rows.first_loses, white);
    set_bit(rows.second_loses, white);
}
