//! The index of all pawn positions of a board size, in layers for a one-sweep solve.
//!
//! Cells are numbered two ways, each counting *forward* for one side:
//!
//! ```text
//!  natural (black's order)        white's order
//!  row 0  0  1  2  3              12 13 14 15     row 0: white's goal
//!  row 1  4  5  6  7               8  9 10 11
//!  row 2  8  9 10 11               4  5  6  7
//!  row 3 12 13 14 15               0  1  2  3     row R-1: black's goal
//! ```
//! A position with `w` white and `b` black pawns and a side to move is numbered in the
//! *tier* (w, b):
//!
//! ```text
//! index = tier_offset(w, b) + (white_rank * 2 + side) * C(n - w, b) + black_rank
//!   white_rank: the white cells (white's order) in the combinatorial number system
//!               (colex rank, 0 ≤ rank < C(n, w));
//!   black_rank: the black cells among the n - w cells white leaves free, renumbered
//!               0.. in black's order, ranked the same way;
//!   side: 0 white to move, 1 black to move.
//! ```
//! Why this solves in layers: a pawn moving forward takes a larger number in its
//! side's order, and the colex rank grows when one element of a set is replaced by a
//! larger one. So a white move raises `white_rank` (black's renumbering may change,
//! but `white_rank` is the major key), a black move raises `black_rank` with the same
//! `white_rank`, and a capture lands in a tier with fewer pawns. Layers, in order:
//! tiers by total pawns ascending; within a tier, for `white_rank` descending, the
//! row of white-to-move positions, then the row of black-to-move positions.

use super::PawnsPosition;

/// Index of every position with at most `max_pawns` pawns a side on an R×C board.
#[derive(Clone, Debug)]
pub struct PawnIndex {
    rows: u32,
    cols: u32,
    cells: u32,
    max_pawns: u32,
    /// binom[n][k] = C(n, k) for n ≤ cells, k ≤ max_pawns.
    binom: Vec<Vec<u64>>,
    /// Tiers in index order (total pawns ascending): (white, black, offset).
    tiers: Vec<(u32, u32, u64)>,
    /// tier_of[white * (max_pawns + 1) + black]: position in `tiers`.
    tier_of: Vec<usize>,
    size: u64,
}

impl PawnIndex {
    /// The index, or `None` if its size does not fit in 64 bits.
    pub fn new(rows: u32, cols: u32, max_pawns: u32) -> Option<Self> {
        let cells = rows * cols;
        let binom: Vec<Vec<u64>> = (0..=cells as u64)
            .map(|n| {
                (0..=max_pawns as u64)
                    .map(|k| if k > n { 0 } else { (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1)) })
                    .collect()
            })
            .collect();
        let mut tiers = Vec::new();
        let mut size = 0u64;
        for total in 0..=2 * max_pawns {
            for white in total.saturating_sub(max_pawns)..=total.min(max_pawns) {
                let black = total - white;
                tiers.push((white, black, size));
                let rows_in_tier = binom[cells as usize][white as usize].checked_mul(2)?;
                let free = cells.saturating_sub(white) as usize;
                size = size.checked_add(rows_in_tier.checked_mul(binom[free][black as usize])?)?;
            }
        }
        let mut tier_of = vec![0; ((max_pawns + 1) * (max_pawns + 1)) as usize];
        for (t, &(w, b, _)) in tiers.iter().enumerate() {
            tier_of[(w * (max_pawns + 1) + b) as usize] = t;
        }
        Some(PawnIndex { rows, cols, cells, max_pawns, binom, tiers, tier_of, size })
    }

    /// Number of indices.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The most pawns a side may have in an indexed position.
    pub fn max_pawns(&self) -> u32 {
        self.max_pawns
    }

    fn c(&self, n: u32, k: u32) -> u64 {
        self.binom[n as usize][k as usize]
    }

    #[inline]
    fn tier(&self, white: u32, black: u32) -> usize {
        self.tier_of[(white * (self.max_pawns + 1) + black) as usize]
    }

    /// The white pawns as a mask in white's numbering: the rows flipped.
    #[inline]
    fn in_white_order(&self, white: u64) -> u64 {
        let row_mask = (1u64 << self.cols) - 1;
        (0..self.rows).fold(0, |m, r| m | ((white >> (r * self.cols)) & row_mask) << ((self.rows - 1 - r) * self.cols))
    }

    /// White's number of a cell: forward for white is upward.
    fn white_number(&self, cell: u32) -> u32 {
        (self.rows - 1 - cell / self.cols) * self.cols + cell % self.cols
    }

    /// Colex rank of ascending numbers.
    fn rank(&self, numbers: impl Iterator<Item = u32>) -> u64 {
        numbers.enumerate().map(|(i, a)| self.c(a, i as u32 + 1)).sum()
    }

    /// The k numbers of colex rank `rank`, ascending, into `out`.
    fn unrank(&self, mut rank: u64, k: u32, out: &mut [u32]) {
        let mut a = self.cells;
        for i in (1..=k).rev() {
            a -= 1;
            while self.c(a, i) > rank {
                a -= 1;
            }
            out[i as usize - 1] = a;
            rank -= self.c(a, i);
        }
    }

    /// The index of a position (at most `max_pawns` pawns a side).
    pub fn index(&self, p: &PawnsPosition) -> u64 {
        let (w, b) = (p.white.count_ones(), p.black.count_ones());
        debug_assert!(w <= self.max_pawns && b <= self.max_pawns);
        let white_rank = self.rank(bits(self.in_white_order(p.white)));
        let black_rank = self.rank(bits(p.black).map(|cell| cell - (p.white & ((1u64 << cell) - 1)).count_ones()));
        let (_, _, offset) = self.tiers[self.tier(w, b)];
        let row_len = self.c(self.cells - w, b);
        offset + (white_rank * 2 + !p.white_to_move as u64) * row_len + black_rank
    }

    /// The position at an index (< `size`).
    pub fn position(&self, index: u64) -> PawnsPosition {
        let t = self.tiers.partition_point(|&(_, _, offset)| offset <= index) - 1;
        let (w, b, offset) = self.tiers[t];
        let row_len = self.c(self.cells - w, b);
        let (row, black_rank) = ((index - offset) / row_len, (index - offset) % row_len);
        let (white_rank, side) = (row / 2, row % 2);
        let mut numbers = [0u32; 64];
        self.unrank(white_rank, w, &mut numbers);
        let white = numbers[..w as usize].iter().fold(0u64, |m, &wn| m | 1 << self.white_number(wn));
        self.unrank(black_rank, b, &mut numbers);
        // The k-th free cell for each ascending k, in one walk over the free cells.
        let mut free = !white & (u64::MAX >> (64 - self.cells));
        let (mut skipped, mut black) = (0, 0u64);
        for &k in &numbers[..b as usize] {
            while skipped < k {
                free &= free - 1;
                skipped += 1;
            }
            black |= free & free.wrapping_neg();
        }
        PawnsPosition { white, black, white_to_move: side == 0 }
    }

    /// Calls `f(index, position)` for each index of `range`, stepping black's cells
    /// from one combination to the next in colex order instead of decoding each index.
    pub fn for_each_position_in(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64, PawnsPosition)) {
        let mut index = range.start;
        while index < range.end {
            // Decode `index` in full, then step along its row.
            let first = self.position(index);
            let t = self.tiers.partition_point(|&(_, _, offset)| offset <= index) - 1;
            let (w, b, offset) = self.tiers[t];
            let row_len = self.c(self.cells - w, b);
            let black_rank = (index - offset) % row_len;
            let mut free = [0u32; 64];
            let mut n_free = 0;
            for cell in bits(!first.white & (u64::MAX >> (64 - self.cells))) {
                free[n_free] = cell;
                n_free += 1;
            }
            let mut numbers = [0u32; 65];
            self.unrank(black_rank, b, &mut numbers);
            let k = b as usize;
            numbers[k] = n_free as u32; // sentinel
            let steps = (row_len - black_rank).min(range.end - index);
            for step in 0..steps {
                if step > 0 {
                    // Colex successor: raise the first number that can rise, reset the ones below.
                    let j = (0..k).find(|&j| numbers[j] + 1 < numbers[j + 1]).expect("not the last combination");
                    numbers[j] += 1;
                    for (i, slot) in numbers[..j].iter_mut().enumerate() {
                        *slot = i as u32;
                    }
                }
                let black = numbers[..k].iter().fold(0u64, |m, &a| m | 1 << free[a as usize]);
                f(index, PawnsPosition { white: first.white, black, white_to_move: first.white_to_move });
                index += 1;
            }
        }
    }

    /// Calls `f` with every layer in solving order (see the module comment).
    pub fn for_each_layer(&self, mut f: impl FnMut(std::ops::Range<u64>)) {
        for &(w, b, offset) in &self.tiers {
            let row_len = self.c(self.cells - w, b);
            if row_len == 0 {
                continue;
            }
            for white_rank in (0..self.c(self.cells, w)).rev() {
                for side in 0..2 {
                    let start = offset + (white_rank * 2 + side) * row_len;
                    f(start..start + row_len);
                }
            }
        }
    }
}

/// The set bits of a mask, ascending.
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros();
            mask &= mask - 1;
            b
        })
    })
}
