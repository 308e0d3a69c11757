//! The bit-parallel solve of Queen's Case, of one position or of all
//! ([`crate::pursuit::bit_rows`]):
//! the queen is the first token (a row per open cell, her closed neighbourhood as
//! her moves), the army the second (a bit per cell of the map's grid, moving by
//! the four steps or staying, onto open cells). Terminal positions:
//!
//! | rows | positions | set |
//! |---|---|---|
//! | every queen cell | army on her cell, queen to move | `first_loses` (caught) |
//! | every queen cell | army on her cell, army to move | `second_wins` (she walked in) |
//! | an exit | army elsewhere, queen to move | `first_wins` (escaped) |
//!
//! Memory: four bits a pair of cells (an open cell for the queen, a grid cell for
//! the army), so a map whose grid is more than four times its open cells is
//! refused; the contest command tries it only on maps at most a quarter wall, and
//! within a budget of work ([`QueensCase::bitwise_budget`]).

use super::{QueensCase, QueensPosition};
use crate::pursuit::bit_rows::{set_bit, BitRows, BitwiseOptions, Terminals, ToMove};
use gsolve_engine::{Indexed, PackedValue, Solution, Value};

impl QueensCase {
    /// The budget the contest command gives [`Self::value_bitwise`] before it
    /// solves the whole map instead: six row words a position, on maps where at
    /// most a quarter of the grid is wall; `None` on others (a maze's chases take
    /// thousands of levels and many row words a position, where the engine's
    /// solve is faster).
    pub fn bitwise_budget(&self) -> Option<u64> {
        let grid = self.map.width() as u64 * self.map.height() as u64;
        (3 * grid <= 4 * self.open_cells() as u64).then_some(6 * self.index_size())
    }

    /// The exact value of `position` (remoteness included), by the bit-parallel
    /// solve of the module docs, which stops as soon as the position is decided;
    /// `None` when that needs more than `options.budget` row words of work, or when the
    /// map's grid is more than four times its open cells (rows are as long as the
    /// grid). Open maps decide in few levels; long games (a maze's chase) take
    /// many levels, each touching many rows: there the engine's solve is faster.
    /// Memory: `open cells × grid cells / 2` bytes (four bits a pair of cells).
    pub fn value_bitwise(&self, position: &QueensPosition, options: &BitwiseOptions<'_>) -> Option<Value> {
        let (grid, bit_of, terminals) = self.bit_rows()?;
        let to_move = if position.queen_to_move { ToMove::First } else { ToMove::Second };
        let asked = (position.queen as usize, bit_of[position.army as usize], to_move);
        grid.value_of(&self.steps, self.open_cells() as usize, terminals, asked, options)
    }

    /// Solves every position by the bit-parallel solve, to the engine's solution
    /// (the same values, index for index); `None` under the same conditions as
    /// [`Self::value_bitwise`]. Memory: that of the solve, and the solution's 2
    /// bytes a position.
    pub fn solve_bitwise(&self, options: &BitwiseOptions<'_>) -> Option<Solution> {
        let (grid, bit_of, terminals) = self.bit_rows()?;
        let mut cell_of_bit = vec![u32::MAX; (self.map.width() * self.map.height()) as usize];
        for (cell, &bit) in bit_of.iter().enumerate() {
            cell_of_bit[bit] = cell as u32;
        }
        let mut codes = vec![PackedValue::DRAW.0 as u16; self.index_size() as usize];
        let record = |queen: usize, to_move: ToMove, bit: usize, value: Value| {
            let army = cell_of_bit[bit];
            let position = QueensPosition { queen: queen as u32, army, queen_to_move: to_move == ToMove::First };
            codes[self.index(&position) as usize] = PackedValue::pack(value).0 as u16;
        };
        let solved = grid.solve_all(&self.steps, self.open_cells() as usize, terminals, options, record);
        solved.then(|| Solution::from_narrow(codes))
    }

    /// The grid of the bit-parallel solve, each open cell's bit, and the writer of
    /// each row's terminal positions (module docs); `None` when the map's grid is
    /// more than four times its open cells (rows are as long as the grid).
    #[allow(clippy::type_complexity)]
    fn bit_rows(&self) -> Option<(BitRows, Vec<usize>, impl Fn(usize, Terminals<'_>) + '_)> {
        let (width, height) = (self.map.width() as usize, self.map.height() as usize);
        if width * height > 4 * self.open_cells() as usize {
            return None;
        }
        let open = |r: usize, c: usize| r < height && c < width && self.id[r * width + c] != u32::MAX;
        let vectors = [(0, 0), (0, 1), (0, -1), (1, 0), (-1, 0)];
        let legal =
            |r: usize, c: usize, (dr, dc): (isize, isize)| open(r.wrapping_add_signed(dr), c.wrapping_add_signed(dc));
        let grid = BitRows::new(width, height, open, &vectors, legal);
        let bit_of: Vec<usize> =
            self.coords.iter().map(|at| grid.bit(at.row as usize - 1, at.col as usize - 1)).collect();
        let open_row = grid.open_cells().to_vec();
        let bits = bit_of.clone();
        let terminals = move |queen: usize, rows: Terminals<'_>| {
            let here = bits[queen];
            set_bit(rows.first_loses, here);
            set_bit(rows.second_wins, here);
            if self.exit[queen] {
                rows.first_wins.copy_from_slice(&open_row);
                rows.first_wins[here / 64] &= !(1 << (here % 64));
            }
        };
        Some((grid, bit_of, terminals))
    }
}
