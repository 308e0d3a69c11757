//! A line game's board as bit sets: one 64-bit word a side, and the lines found by
//! shifts.
//!
//! ```text
//!   W columns of H cells, each column with one padding bit above its top cell,
//!   h = H + 1 bits a column, the bottom cell first (H = 6, W = 7 drawn):
//!
//!     .  .  .  .  .  .  .     padding (never set)
//!     5 12 19 26 33 40 47     top row          bit = col · h + (H − 1 − row)
//!     4 11 18 25 32 39 46
//!     3 10 17 24 31 38 45
//!     2  9 16 23 30 37 44
//!     1  8 15 22 29 36 43
//!     0  7 14 21 28 35 42     bottom row
//!
//!   a line is a run of set bits `step` apart:
//!     up a column 1,  along a row h,  up-right h + 1,  down-right h − 1
//! ```
//!
//! The padding bits are never set, so every run stops at the board's edge: going up
//! from the top row, or down-right from the bottom row, lands on a padding bit;
//! going along a row past the last column leaves the board's `W · h` bits, which
//! are never set either. This needs `W · h ≤ 64`.
//!
//! With gravity the next empty cell of every column is found at once: the pieces
//! of a column fill it from the bottom, so `all + bottom` sets exactly the bit
//! above each column's pieces (the carry stops at the first empty cell).

/// The bits of a board and its lines.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Rows (H).
    pub(crate) rows: u32,
    /// Columns (W).
    pub(crate) cols: u32,
    /// Bits a column: H + 1.
    height: u32,
    /// Every cell's bit.
    pub(crate) board: u64,
    /// The bottom cell of every column.
    bottom: u64,
    /// Pieces fall to the lowest empty cell of a column.
    pub(crate) gravity: bool,
    /// The lines that win, as (length, step) for each direction they run in.
    lines: Vec<(u32, u32)>,
    /// When every line has one length (the usual case): that length, and the
    /// steps, for the unrolled [`Layout::winning_cells`].
    uniform: Option<(u32, [u32; 4], usize)>,
    /// Cells taken first among moves of equal threats: the number of lines
    /// through the cell, central cells first.
    pub(crate) weight: Vec<u8>,
}

/// The longest winning line the layout takes.
pub(crate) const MAX_LENGTH: u32 = 8;

/// The bits a board of `rows` × `cols` needs, if it fits in a word.
pub(crate) fn fits(rows: u32, cols: u32) -> bool {
    rows >= 1 && cols >= 1 && u64::from(cols) * u64::from(rows + 1) <= 64
}

impl Layout {
    /// The layout of a `rows` × `cols` board whose lines are `(length, orthogonal,
    /// diagonal)`; `None` if it does not fit in a word or a line is longer than
    /// [`MAX_LENGTH`].
    pub(crate) fn new(rows: u32, cols: u32, gravity: bool, lines: &[(u32, bool, bool)]) -> Option<Layout> {
        if !fits(rows, cols) || lines.iter().any(|&(length, _, _)| length == 0 || length > MAX_LENGTH) {
            return None;
        }
        let height = rows + 1;
        let column = (1u64 << rows) - 1;
        let mut board = 0;
        let mut bottom = 0;
        for c in 0..cols {
            board |= column << (c * height);
            bottom |= 1 << (c * height);
        }
        let mut steps = Vec::new();
        for &(length, orthogonal, diagonal) in lines {
            if orthogonal {
                steps.extend([(length, 1), (length, height)]);
            }
            if diagonal {
                steps.extend([(length, height + 1), (length, height - 1)]);
            }
        }
        // A run too long for the word never fits on the board: such a direction
        // has no line, and every shift below stays under 64.
        steps.retain(|&(length, step)| (length - 1) * step < 64);
        steps.sort_unstable();
        steps.dedup();
        let uniform = match steps.first() {
            Some(&(length, _)) if steps.iter().all(|&(l, _)| l == length) => {
                let mut each = [0u32; 4];
                for (slot, &(_, step)) in each.iter_mut().zip(&steps) {
                    *slot = step;
                }
                Some((length, each, steps.len()))
            }
            _ => None,
        };
        let mut layout =
            Layout { rows, cols, height, board, bottom, gravity, lines: steps, uniform, weight: Vec::new() };
        layout.weight = (0..64).map(|bit| layout.lines_through(bit)).collect();
        Some(layout)
    }

    /// The bit of the cell at 0-based `row` (0 at the top) and `col`.
    pub(crate) fn bit(&self, row: u32, col: u32) -> u32 {
        col * self.height + (self.rows - 1 - row)
    }

    /// The cells a move may take: the next empty cell of every column that is not
    /// full, with gravity; else every empty cell.
    #[inline]
    pub(crate) fn playable(&self, all: u64) -> u64 {
        if self.gravity {
            all.wrapping_add(self.bottom) & self.board
        } else {
            !all & self.board
        }
    }

    /// With gravity, one bit a column just above its pieces (the padding bit of a
    /// full column): the columns' heights.
    #[inline]
    pub(crate) fn heights(&self, all: u64) -> u64 {
        all.wrapping_add(self.bottom)
    }

    /// Do the pieces of every column fill it from the bottom up?
    pub(crate) fn settled(&self, all: u64) -> bool {
        let column = u64::MAX >> (64 - self.height);
        (0..self.cols).all(|c| {
            let pieces = all >> (c * self.height) & column;
            pieces & (pieces + 1) == 0
        })
    }

    /// Empty cells where a piece of `mine` would complete a winning line.
    ///
    /// For a step d and length k, a cell e completes a line when, for some j in
    /// 0..k, the j cells after it (e + d, …, e + j·d) and the k − 1 − j cells before
    /// it are all `mine`: `after[j]` holds the cells with j of theirs after them,
    /// `before[j]` likewise, and the line is `after[j] & before[k − 1 − j]`.
    #[inline]
    pub(crate) fn winning_cells(&self, mine: u64, all: u64) -> u64 {
        match self.uniform {
            Some((3, steps, count)) => Self::uniform_wins::<3>(&steps[..count], mine) & self.board & !all,
            Some((4, steps, count)) => Self::uniform_wins::<4>(&steps[..count], mine) & self.board & !all,
            Some((5, steps, count)) => Self::uniform_wins::<5>(&steps[..count], mine) & self.board & !all,
            _ => self.general_wins(mine, all),
        }
    }

    /// [`Layout::winning_cells`] for lines of one length `K`, unrolled (before
    /// masking with the empty cells).
    #[inline(always)]
    fn uniform_wins<const K: usize>(steps: &[u32], mine: u64) -> u64 {
        let mut found = 0;
        for &step in steps {
            let mut after = [!0u64; K];
            let mut before = [!0u64; K];
            for j in 1..K {
                let shift = j as u32 * step;
                after[j] = after[j - 1] & mine >> shift;
                before[j] = before[j - 1] & mine << shift;
            }
            for j in 0..K {
                found |= after[j] & before[K - 1 - j];
            }
        }
        found
    }

    /// [`Layout::winning_cells`] for lines of several lengths.
    fn general_wins(&self, mine: u64, all: u64) -> u64 {
        let mut found = 0;
        for &(length, step) in &self.lines {
            let mut after = [!0u64; MAX_LENGTH as usize];
            let mut before = [!0u64; MAX_LENGTH as usize];
            for j in 1..length as usize {
                let shift = j as u32 * step;
                after[j] = after[j - 1] & mine >> shift;
                before[j] = before[j - 1] & mine << shift;
            }
            for j in 0..length as usize {
                found |= after[j] & before[length as usize - 1 - j];
            }
        }
        found & self.board & !all
    }

    /// Does `mine` hold a winning line?
    pub(crate) fn has_line(&self, mine: u64) -> bool {
        self.lines.iter().any(|&(length, step)| {
            let mut run = mine;
            for i in 1..length {
                run &= mine >> (i * step);
            }
            run != 0
        })
    }

    /// The board seen in a mirror: column c becomes column W − 1 − c.
    #[inline]
    pub(crate) fn mirror(&self, bits: u64) -> u64 {
        let column = u64::MAX >> (64 - self.height);
        let mut out = 0;
        for c in 0..self.cols {
            out |= (bits >> (c * self.height) & column) << ((self.cols - 1 - c) * self.height);
        }
        out
    }

    /// The cells' bits with the padding taken out, column by column: `H · W` bits.
    #[inline]
    pub(crate) fn compact(&self, bits: u64) -> u64 {
        let column = (1u64 << self.rows) - 1;
        let mut out = 0;
        for c in 0..self.cols {
            out |= (bits >> (c * self.height) & column) << (c * self.rows);
        }
        out
    }

    /// Lines of the winning lengths through the cell at `bit` (0 off the board).
    fn lines_through(&self, bit: u32) -> u8 {
        if self.board >> bit & 1 == 0 {
            return 0;
        }
        let cell = 1u64 << bit;
        let mut count = 0u32;
        for &(length, step) in &self.lines {
            // Each run of `length` cells along `step` that holds the cell.
            for first in 0..length {
                let mut run = self.board;
                for i in 0..length {
                    let offset = i as i64 - first as i64;
                    let shifted = if offset >= 0 {
                        self.board.checked_shr(offset as u32 * step)
                    } else {
                        self.board.checked_shl((-offset) as u32 * step)
                    };
                    run &= shifted.unwrap_or(0);
                }
                count += (run & cell != 0) as u32;
            }
        }
        count.min(255) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connect 4's board: 7 × 6, lines of 4 in every direction, gravity.
    fn connect4() -> Layout {
        Layout::new(6, 7, true, &[(4, true, true)]).unwrap()
    }

    /// The bits of cells given as (row, col).
    fn cells(layout: &Layout, at: &[(u32, u32)]) -> u64 {
        at.iter().fold(0, |bits, &(r, c)| bits | 1 << layout.bit(r, c))
    }

    #[test]
    fn gravity_plays_the_lowest_empty_cell_of_each_column() {
        let l = connect4();
        assert_eq!(l.playable(0), cells(&l, &(0..7).map(|c| (5, c)).collect::<Vec<_>>()));
        let all = cells(&l, &[(5, 0), (4, 0), (5, 3)]);
        let expected: Vec<(u32, u32)> = (0..7)
            .map(|c| {
                (
                    if c == 0 {
                        3
                    } else if c == 3 {
                        4
                    } else {
                        5
                    },
                    c,
                )
            })
            .collect();
        assert_eq!(l.playable(all), cells(&l, &expected));
        let full_column = cells(&l, &(0..6).map(|r| (r, 2)).collect::<Vec<_>>());
        assert_eq!(l.playable(full_column) & cells(&l, &(0..6).map(|r| (r, 2)).collect::<Vec<_>>()), 0);
    }

    #[test]
    fn winning_cells_complete_a_line_and_stop_at_the_edges() {
        let l = connect4();
        // Three in the bottom row from the left: the fourth cell wins.
        let mine = cells(&l, &[(5, 0), (5, 1), (5, 2)]);
        assert_eq!(l.winning_cells(mine, mine), cells(&l, &[(5, 3)]));
        // Three in a column up to the top: no cell above it (the padding).
        let mine = cells(&l, &[(0, 0), (1, 0), (2, 0)]);
        assert_eq!(l.winning_cells(mine, mine), cells(&l, &[(3, 0)]));
        // A gap in a row: the gap wins.
        let mine = cells(&l, &[(5, 2), (5, 3), (5, 5)]);
        assert_eq!(l.winning_cells(mine, mine), cells(&l, &[(5, 4)]));
        // Three at the right end of a row and three at the bottom of the next column
        // do not join across the edge.
        let mine = cells(&l, &[(0, 4), (0, 5), (0, 6)]);
        assert_eq!(l.winning_cells(mine, mine), cells(&l, &[(0, 3)]));
        // A diagonal.
        let mine = cells(&l, &[(5, 0), (4, 1), (3, 2)]);
        assert_eq!(l.winning_cells(mine, mine), cells(&l, &[(2, 3)]));
        assert!(!l.has_line(mine));
        assert!(l.has_line(mine | cells(&l, &[(2, 3)])));
    }

    /// Every cell and line checked one by one against the shifts, on small boards
    /// and every length.
    #[test]
    fn winning_cells_agree_with_counting_cell_by_cell() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (rows, cols) in [(3, 3), (4, 5), (6, 7), (5, 4), (1, 6), (7, 8)] {
            for length in 1..=MAX_LENGTH {
                for (orthogonal, diagonal) in [(true, true), (true, false), (false, true)] {
                    let l = Layout::new(rows, cols, false, &[(length, orthogonal, diagonal)]).unwrap();
                    for _ in 0..50 {
                        let all = next() & l.board;
                        let mine = all & next();
                        let mut directions: Vec<(i32, i32)> = Vec::new();
                        if orthogonal {
                            directions.extend([(0, 1), (1, 0)]);
                        }
                        if diagonal {
                            directions.extend([(1, 1), (1, -1)]);
                        }
                        let has = |r: i32, c: i32, with: u64| {
                            r >= 0
                                && c >= 0
                                && r < rows as i32
                                && c < cols as i32
                                && with >> l.bit(r as u32, c as u32) & 1 == 1
                        };
                        let mut expected = 0u64;
                        for r in 0..rows as i32 {
                            for c in 0..cols as i32 {
                                if has(r, c, all) {
                                    continue;
                                }
                                let with = mine | 1 << l.bit(r as u32, c as u32);
                                let wins = directions.iter().any(|&(dr, dc)| {
                                    (0..length as i32).any(|first| {
                                        (0..length as i32)
                                            .all(|i| has(r + (i - first) * dr, c + (i - first) * dc, with))
                                    })
                                });
                                if wins {
                                    expected |= 1 << l.bit(r as u32, c as u32);
                                }
                            }
                        }
                        assert_eq!(l.winning_cells(mine, all), expected, "{rows}x{cols} length {length}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_mirror_reverses_the_columns() {
        let l = connect4();
        assert_eq!(l.mirror(cells(&l, &[(5, 0), (2, 1)])), cells(&l, &[(5, 6), (2, 5)]));
        assert_eq!(l.mirror(l.mirror(0x1234_5678_9abc & l.board)), 0x1234_5678_9abc & l.board);
        assert_eq!(l.compact(l.board), (1 << 42) - 1);
    }

    /// One column as tall as the word allows: 63 cells and the padding bit.
    #[test]
    fn a_column_may_fill_the_word() {
        let l = Layout::new(63, 1, true, &[(4, true, true)]).unwrap();
        assert_eq!(l.board, u64::MAX >> 1);
        assert!(l.settled(0b111));
        assert!(!l.settled(0b101));
        assert_eq!(l.mirror(0b1011), 0b1011);
        assert_eq!(l.playable(0b111), 0b1000);
        assert_eq!(l.winning_cells(0b111, 0b111), 0b1000);
        assert!(Layout::new(64, 1, true, &[(4, true, true)]).is_none());
    }

    #[test]
    fn central_cells_lie_on_more_lines() {
        let l = connect4();
        assert_eq!(l.weight[l.bit(5, 0) as usize], 3);
        assert_eq!(l.weight[l.bit(2, 3) as usize], 13);
        assert_eq!(l.weight[63], 0);
    }
}
