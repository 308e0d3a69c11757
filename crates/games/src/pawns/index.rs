//! The tight index of pawn positions: tiers by (white pawns, black pawns), no entry
//! for a pawn on its own goal rank, layers for a one-sweep solve of each tier.
//!
//! # Which placements are indexed
//! A position is indexed when each side has at most C pawns (one a column at the
//! start, never more), **no white pawn stands on row 0** (white's goal rank) and **no
//! black pawn on row R−1** (black's). A pawn on its goal rank means the game is over
//! (its side has won): such positions are terminal, valued by the rules, and never
//! looked up. That leaves white pawns on rows 1..R−1 and black pawns on rows
//! 0..R−2: on 5×5, 365,132,764 positions (both sides to move) instead of the
//! 3,204,289,362 of every placement.
//!
//! ```text
//!   row 0      black's home     white's goal: no white pawn
//!   rows 1..R-2  "mid": both sides
//!   row R-1    white's home     black's goal: no black pawn
//! ```
//!
//! # Layout of a tier (w white pawns, b black pawns)
//! White's pawns split into `wm` on the mid rows and `wh = w − wm` on white's home
//! row; black's pawns lie among the black region's cells (rows 0..R−2) that white
//! leaves free, of which there are `NB − wm` (NB = (R−1)·C). The tier is a sequence of
//! groups by `wm` ascending:
//!
//! ```text
//! index in tier = group_offset(wm)
//!               + ((mid_rank · 2 + side) · C(C, wh) + home_rank) · C(NB − wm, b)
//!               + black_rank
//!   mid_rank:   the mid white pawns in the combinatorial number system (colex rank)
//!               of their white numbers: cell (r, c) of rows 1..R−2 is
//!               (R−2−r)·C + (C−1−c), so a step forward adds C;
//!   home_rank:  the columns of the home white pawns, colex;
//!   black_rank: the black pawns among the free cells of the black region, numbered
//!               0.. in board order (a black step forward takes a higher number);
//!   side:       0 white to move, 1 black to move.
//! ```
//!
//! # Why the layers come out in order
//! A *row* is one white placement with one side to move. A white step home → mid
//! raises `wm`, a mid → mid step raises `mid_rank` (one element of the set replaced by
//! a larger one raises the colex rank), a step onto row 0 ends the game; a capture
//! leaves the tier. A black move keeps the white placement. So the layers of a tier
//! are, by `wm` descending and `mid_rank` descending, the white-to-move rows of every
//! `home_rank` (they do not depend on one another: one parallel sweep), then the
//! black-to-move rows of the same placements: every child in the tier is solved
//! before its parent. Tiers are solved by total pawns ascending (captures remove a
//! pawn). The whole game's index is the tiers one after another in that order.

use super::PawnsPosition;
use gsolve_engine::{ChildAt, Outcome, Scan};

/// The binomial coefficients of a board: `C(n, k)` for n ≤ 64, k ≤ 8.
#[derive(Clone, Debug)]
struct Binomials {
    table: Box<[[u64; 9]; 65]>,
}

impl Binomials {
    fn new() -> Self {
        let mut table = Box::new([[0u64; 9]; 65]);
        for n in 0..=64usize {
            table[n][0] = 1;
            for k in 1..=8 {
                table[n][k] = if n == 0 { 0 } else { table[n - 1][k - 1].saturating_add(table[n - 1][k]) };
            }
        }
        Binomials { table }
    }

    #[inline]
    fn c(&self, n: u32, k: u32) -> u64 {
        // n ≤ 64 and k ≤ 8 always hold here (cells of a board, pawns of a side).
        self.table[(n as usize).min(64)][(k as usize).min(8)]
    }
}

/// One tier's shape: its pawn counts, its groups by `wm`, and where it starts in
/// the whole index.
#[derive(Clone, Debug)]
struct Tier {
    white: u32,
    black: u32,
    /// Start of the tier in the whole index.
    offset: u64,
    /// `group[wm]` = start of the group of `wm` mid white pawns in the tier; the last
    /// entry is the tier's size.
    group: Vec<u64>,
}

/// The tight index of a board's pawn positions (see the module comment).
#[derive(Clone, Debug)]
pub struct PawnIndex {
    rows: u32,
    cols: u32,
    binom: Binomials,
    /// Tiers in solving order (total pawns ascending).
    tiers: Vec<Tier>,
    /// `tier_of[w * (C + 1) + b]`: position in `tiers`.
    tier_of: Vec<usize>,
    size: u64,
    /// Cells of the mid rows, rows 1..R−2 (board bits).
    mid_mask: u64,
    /// Cells of the black region, rows 0..R−2.
    black_region: u64,
    /// Row 0 and row R−1.
    white_goal: u64,
    black_goal: u64,
    /// `mid_binom[cell][k]` = C(white number of the mid cell, k): a mid pawn's part
    /// of the mid rank, by its place from the top.
    mid_binom: Box<[[u64; 9]; 64]>,
    /// The board cell of each mid white number.
    mid_cell: Vec<u32>,
    /// Colex rank of each set of home columns (a C-bit mask).
    home_rank: Vec<u64>,
    /// The cells a white (black) pawn on each cell captures onto: diagonally ahead.
    white_takes: Box<[u64; 64]>,
    black_takes: Box<[u64; 64]>,
    /// The first and the last column.
    left_edge: u64,
    right_edge: u64,
}

/// A pawn tier: the numbers of white and black pawns.
pub type PawnTier = (u32, u32);

impl PawnIndex {
    /// The index of an R×C board, or `None` if its size does not fit in 64 bits.
    pub fn new(rows: u32, cols: u32) -> Option<Self> {
        let binom = Binomials::new();
        let row = (1u64 << cols) - 1;
        let cells = rows * cols;
        let full = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
        let white_goal = row;
        let black_goal = row << ((rows - 1) * cols);
        let black_region = full & !black_goal;
        let mid_mask = black_region & !white_goal;
        let mid_cells = (rows - 2) * cols;
        let mut mid_number = vec![u32::MAX; cells as usize];
        let mut mid_cell = vec![0u32; mid_cells as usize];
        for r in 1..rows.saturating_sub(1) {
            for c in 0..cols {
                let number = (rows - 2 - r) * cols + (cols - 1 - c);
                mid_number[(r * cols + c) as usize] = number;
                mid_cell[number as usize] = r * cols + c;
            }
        }
        let mut mid_binom = Box::new([[0u64; 9]; 64]);
        for (cell, &number) in mid_number.iter().enumerate() {
            if number != u32::MAX {
                for k in 0..=8 {
                    mid_binom[cell][k as usize] = binom.c(number, k);
                }
            }
        }
        let home_rank = (0..1u64 << cols)
            .map(|mask| bits(mask).enumerate().map(|(i, col)| binom.c(col, i as u32 + 1)).sum())
            .collect();
        let (mut white_takes, mut black_takes) = (Box::new([0u64; 64]), Box::new([0u64; 64]));
        for cell in 0..cells {
            let (r, c) = (cell / cols, cell % cols);
            for (takes, ahead) in [(&mut *white_takes, r.checked_sub(1)), (&mut *black_takes, Some(r + 1))] {
                let Some(ahead) = ahead.filter(|&a| a < rows) else { continue };
                for side in [c.wrapping_sub(1), c + 1] {
                    if side < cols {
                        takes[cell as usize] |= 1u64 << (ahead * cols + side);
                    }
                }
            }
        }
        let black_cells = (rows - 1) * cols;
        let mut tiers = Vec::new();
        let mut size = 0u64;
        for total in 0..=2 * cols {
            for white in total.saturating_sub(cols)..=total.min(cols) {
                let black = total - white;
                let mut group = vec![0u64];
                for wm in 0..=white {
                    let wh = white - wm;
                    let rows_of_group = binom.c(mid_cells, wm).checked_mul(binom.c(cols, wh))?;
                    let row_len = binom.c(black_cells - wm.min(black_cells), black);
                    let length = rows_of_group.checked_mul(2)?.checked_mul(row_len)?;
                    group.push(group.last().expect("one entry").checked_add(length)?);
                }
                let tier_size = *group.last().expect("one entry");
                tiers.push(Tier { white, black, offset: size, group });
                size = size.checked_add(tier_size)?;
            }
        }
        let mut tier_of = vec![0; ((cols + 1) * (cols + 1)) as usize];
        for (t, tier) in tiers.iter().enumerate() {
            tier_of[(tier.white * (cols + 1) + tier.black) as usize] = t;
        }
        Some(PawnIndex {
            rows,
            cols,
            binom,
            tiers,
            tier_of,
            size,
            mid_mask,
            black_region,
            white_goal,
            black_goal,
            mid_binom,
            mid_cell,
            home_rank,
            white_takes,
            black_takes,
            left_edge: (0..rows).fold(0u64, |m, r| m | 1u64 << (r * cols)),
            right_edge: (0..rows).fold(0u64, |m, r| m | 1u64 << (r * cols + cols - 1)),
        })
    }

    /// Number of indices, every tier together.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The most pawns a side may have in an indexed position: one a column.
    pub fn max_pawns(&self) -> u32 {
        self.cols
    }

    /// Every tier, in solving order.
    pub fn tiers(&self) -> impl Iterator<Item = PawnTier> + '_ {
        self.tiers.iter().map(|t| (t.white, t.black))
    }

    fn tier(&self, tier: PawnTier) -> &Tier {
        &self.tiers[self.tier_of[(tier.0 * (self.cols + 1) + tier.1) as usize]]
    }

    /// The number of positions of a tier.
    pub fn tier_size(&self, tier: PawnTier) -> u64 {
        *self.tier(tier).group.last().expect("one entry")
    }

    /// Where a tier starts in the whole index.
    pub fn tier_offset(&self, tier: PawnTier) -> u64 {
        self.tier(tier).offset
    }

    /// Whether the tight index holds the position (see the module comment).
    #[inline]
    pub fn holds(&self, p: &PawnsPosition) -> bool {
        p.white & self.white_goal == 0
            && p.black & self.black_goal == 0
            && p.white.count_ones() <= self.cols
            && p.black.count_ones() <= self.cols
    }

    #[inline]
    fn row_len(&self, wm: u32, black: u32) -> u64 {
        self.binom.c((self.rows - 1) * self.cols - wm, black)
    }

    /// The tier and the index within it, if the index holds the position.
    #[inline]
    pub fn locate(&self, p: &PawnsPosition) -> Option<(PawnTier, u64)> {
        if !self.holds(p) {
            return None;
        }
        let (w, b) = (p.white.count_ones(), p.black.count_ones());
        let tier = self.tier((w, b));
        let mid = p.white & self.mid_mask;
        let wm = mid.count_ones();
        let wh = w - wm;
        // Mid white numbers descend as board bits ascend: rank from the top.
        let (mut mid_rank, mut rest, mut k) = (0, mid, wm as usize);
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            mid_rank += self.mid_binom[cell & 63][k.min(8)];
            rest &= rest - 1;
            k = k.saturating_sub(1);
        }
        let home = (p.white >> ((self.rows - 1) * self.cols)) as usize;
        let home_rank = self.home_rank[home];
        let free = self.black_region & !p.white;
        let (mut black_rank, mut rest, mut j) = (0, p.black, 1u32);
        while rest != 0 {
            let low = rest & rest.wrapping_neg();
            let number = (free & (low - 1)).count_ones();
            black_rank += self.binom.c(number, j);
            rest &= rest - 1;
            j += 1;
        }
        let side = u64::from(!p.white_to_move);
        let row = (mid_rank * 2 + side) * self.binom.c(self.cols, wh) + home_rank;
        let index = tier.group[wm as usize] + row * self.row_len(wm, b) + black_rank;
        Some(((w, b), index))
    }

    /// The index in the whole game of a position the index holds.
    #[inline]
    pub fn index(&self, p: &PawnsPosition) -> Option<u64> {
        self.locate(p).map(|(tier, i)| self.tier(tier).offset + i)
    }

    /// The tier of a whole-game index (below [`PawnIndex::size`]) and the index in it.
    pub fn split(&self, index: u64) -> (PawnTier, u64) {
        let t = self.tiers.partition_point(|tier| tier.offset <= index) - 1;
        let tier = &self.tiers[t];
        ((tier.white, tier.black), index - tier.offset)
    }

    /// The k numbers of colex rank `rank`, ascending, into `out`; `n` bounds them.
    fn unrank(&self, mut rank: u64, k: u32, n: u32, out: &mut [u32]) {
        let mut a = n;
        for i in (1..=k).rev() {
            a -= 1;
            while self.binom.c(a, i) > rank {
                a -= 1;
            }
            out[i as usize - 1] = a;
            rank -= self.binom.c(a, i);
        }
    }

    /// A white placement's pawns and its rows' length.
    fn row_white(&self, tier: &Tier, wm: u32, mid_rank: u64, home_rank: u64) -> (u64, u64) {
        let wh = tier.white - wm;
        let mut numbers = [0u32; 8];
        self.unrank(mid_rank, wm, (self.rows - 2) * self.cols, &mut numbers);
        let mut white = numbers[..wm as usize].iter().fold(0u64, |m, &n| m | 1 << self.mid_cell[n as usize]);
        self.unrank(home_rank, wh, self.cols, &mut numbers);
        let home_shift = (self.rows - 1) * self.cols;
        white |= numbers[..wh as usize].iter().fold(0u64, |m, &c| m | 1 << (home_shift + c));
        (white, self.row_len(wm, tier.black))
    }

    /// The position at an index of a tier (below its size).
    pub fn position_in(&self, tier: PawnTier, index: u64) -> PawnsPosition {
        let tier = self.tier(tier);
        let wm = (tier.group.partition_point(|&start| start <= index) - 1) as u32;
        let within = index - tier.group[wm as usize];
        let row_len = self.row_len(wm, tier.black);
        let (row, black_rank) = (within / row_len, within % row_len);
        let homes = self.binom.c(self.cols, tier.white - wm);
        let (mid_and_side, home_rank) = (row / homes, row % homes);
        let (mid_rank, side) = (mid_and_side / 2, mid_and_side % 2);
        let (white, _) = self.row_white(tier, wm, mid_rank, home_rank);
        let black = self.black_of_rank(white, tier.black, black_rank);
        PawnsPosition { white, black, white_to_move: side == 0 }
    }

    /// The black pawns of a rank among the free cells of the black region.
    fn black_of_rank(&self, white: u64, black: u32, rank: u64) -> u64 {
        let mut numbers = [0u32; 8];
        let free = self.black_region & !white;
        self.unrank(rank, black, free.count_ones(), &mut numbers);
        // The k-th free cell for each ascending k, in one walk over the free cells.
        let (mut rest, mut skipped, mut out) = (free, 0, 0u64);
        for &k in &numbers[..black as usize] {
            while skipped < k {
                rest &= rest - 1;
                skipped += 1;
            }
            out |= rest & rest.wrapping_neg();
        }
        out
    }

    /// The position at an index of the whole game (below [`PawnIndex::size`]).
    pub fn position(&self, index: u64) -> PawnsPosition {
        let (tier, i) = self.split(index);
        self.position_in(tier, i)
    }

    /// Calls `f(index, position)` for each index of `range` in `tier`, stepping the
    /// black pawns from one combination to the next (colex) along each row instead of
    /// decoding every index.
    pub fn for_each_position_in_tier(
        &self,
        tier: PawnTier,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, PawnsPosition),
    ) {
        let shape = self.tier(tier);
        let mut index = range.start;
        while index < range.end {
            let first = self.position_in(tier, index);
            let wm = (first.white & self.mid_mask).count_ones();
            let row_len = self.row_len(wm, shape.black);
            let black_rank = (index - shape.group[wm as usize]) % row_len;
            let free = self.black_region & !first.white;
            let mut cells = [0u32; 64];
            let mut n_free = 0;
            for cell in bits(free) {
                cells[n_free] = cell;
                n_free += 1;
            }
            let k = shape.black as usize;
            let mut numbers = [0u32; 9];
            self.unrank(black_rank, shape.black, n_free as u32, &mut numbers);
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
                let black = numbers[..k].iter().fold(0u64, |m, &a| m | 1 << cells[a as usize]);
                f(index, PawnsPosition { white: first.white, black, white_to_move: first.white_to_move });
                index += 1;
            }
        }
    }

    /// The first index of the row of a white placement of `tier` with a side to
    /// move, and the row's length.
    fn row_start(&self, tier: &Tier, white: u64, white_to_move: bool) -> (u64, u64) {
        let wm = (white & self.mid_mask).count_ones();
        let wh = tier.white - wm;
        let mid = white & self.mid_mask;
        let (mut mid_rank, mut rest, mut k) = (0, mid, wm as usize);
        while rest != 0 {
            mid_rank += self.mid_binom[rest.trailing_zeros() as usize & 63][k.min(8)];
            rest &= rest - 1;
            k = k.saturating_sub(1);
        }
        let home_rank = self.home_rank[(white >> ((self.rows - 1) * self.cols)) as usize];
        let side = u64::from(!white_to_move);
        let row_len = self.row_len(wm, tier.black);
        let row = (mid_rank * 2 + side) * self.binom.c(self.cols, wh) + home_rank;
        (tier.group[wm as usize] + row * row_len, row_len)
    }

    /// Whether the side to move can reach its goal rank now: straight into an empty
    /// cell, or capturing diagonally (a win in 1, whatever the other moves).
    #[inline]
    fn wins_at_once(&self, white: u64, black: u64, white_to_move: bool) -> bool {
        let (c, left_edge, right_edge) = (self.cols, self.left_edge, self.right_edge);
        let empty = !(white | black);
        if white_to_move {
            let near = white & (self.white_goal << c);
            let ahead = near >> c;
            ahead & empty != 0
                || ((ahead & !left_edge) >> 1 | (ahead & !right_edge) << 1) & black & self.white_goal != 0
        } else {
            let near = black & (self.black_goal >> c);
            let ahead = near << c;
            ahead & empty != 0
                || ((ahead & !left_edge) >> 1 | (ahead & !right_edge) << 1) & white & self.black_goal != 0
        }
    }

    /// The colex rank of black pawns among the free cells `free` of the black region.
    #[inline]
    fn black_rank_in(&self, black: u64, free: u64) -> u64 {
        let (mut rank, mut rest, mut j) = (0, black, 1u32);
        while rest != 0 {
            let low = rest & rest.wrapping_neg();
            rank += self.binom.c((free & (low - 1)).count_ones(), j);
            rest &= rest - 1;
            j += 1;
        }
        rank
    }

    /// Colex rank of the sorted numbers `nums` with `nums[j]` replaced by `new`
    /// (larger than it): the others keep their order, `new` takes its place.
    #[inline]
    fn rank_replacing(&self, nums: &[u32], j: usize, new: u32) -> u64 {
        let (mut rank, mut place, mut inserted) = (0, 1, false);
        for (i, &n) in nums.iter().enumerate() {
            if i == j {
                continue;
            }
            if !inserted && new < n {
                rank += self.binom.c(new, place);
                place += 1;
                inserted = true;
            }
            rank += self.binom.c(n, place);
            place += 1;
        }
        if !inserted {
            rank += self.binom.c(new, place);
        }
        rank
    }

    /// [`gsolve_engine::Tiered::for_each_located`] for pawn chess: along each row the
    /// white placement is fixed and the black pawns step through their combinations,
    /// so most children's indices follow from the position's own rank:
    /// - white to move, a straight step x → y = x − C: the child lies in the
    ///   black-to-move row of the new placement, whose start is found once a row; in
    ///   its numbering only black pawns between y and x have one free cell fewer
    ///   below them, so its rank is this one's minus C(num − 1, j) for each of them;
    /// - black to move, a straight step: the child lies in the white-to-move row of
    ///   the same placement, ranked with one number replaced;
    /// - a step onto the goal rank is a terminal child; a capture leaves the tier and
    ///   is located in full.
    pub fn for_each_located_in_tier(
        &self,
        tier: PawnTier,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, Scan<'_, PawnTier>),
    ) {
        let shape = self.tier(tier);
        let (c, last_row) = (self.cols, (self.rows - 1) * self.cols);
        let mut children: Vec<ChildAt<PawnTier>> = Vec::with_capacity(24);
        let mut index = range.start;
        while index < range.end {
            let first = self.position_in(tier, index);
            let white = first.white;
            let wm = (white & self.mid_mask).count_ones();
            let row_len = self.row_len(wm, shape.black);
            let black_rank = (index - shape.group[wm as usize]) % row_len;
            let free = self.black_region & !white;
            let mut cells = [0u32; 64];
            let mut n_free = 0;
            for cell in bits(free) {
                cells[n_free] = cell;
                n_free += 1;
            }
            let k = shape.black as usize;
            let mut numbers = [0u32; 9];
            self.unrank(black_rank, shape.black, n_free as u32, &mut numbers);
            numbers[k] = n_free as u32; // sentinel
            let steps = (row_len - black_rank).min(range.end - index);
            // Per row: where the row of each white pawn's straight step starts (in the
            // order `bits(white)` gives the pawns), and the cells it passes over.
            let mut step_row = [0u64; 8];
            let mut step_span = [0u64; 8];
            let own_white_row = self.row_start(shape, white, true).0;
            // Captures leave the tier: white's land in (w, b − 1) with the capturing
            // pawn moved, black's in (w − 1, b) with the captured pawn gone. Where
            // those rows start, and the free cells there, depend on the white pawns
            // alone: found once a row (by the capturing or captured pawn's cell).
            let mut capture_row = [0u64; 64];
            let mut capture_free = [0u64; 64];
            if first.white_to_move && shape.black > 0 {
                let lower = self.tier((shape.white, shape.black - 1));
                for x in bits(white) {
                    for t in bits(self.white_takes[x as usize] & self.black_region & !self.white_goal) {
                        let moved = white & !(1u64 << x) | 1u64 << t;
                        capture_row[(x * 2 + (t > x - c) as u32) as usize & 63] = self.row_start(lower, moved, false).0;
                        capture_free[(x * 2 + (t > x - c) as u32) as usize & 63] = self.black_region & !moved;
                    }
                }
            } else if !first.white_to_move && shape.white > 0 {
                let lower = self.tier((shape.white - 1, shape.black));
                for t in bits(white) {
                    let taken = white & !(1u64 << t);
                    capture_row[t as usize] = self.row_start(lower, taken, true).0;
                    capture_free[t as usize] = self.black_region & !taken;
                }
            }
            if first.white_to_move {
                for (i, x) in bits(white).enumerate() {
                    let y = x - c;
                    if y >= c && white >> y & 1 == 0 {
                        let moved = white & !(1u64 << x) | 1u64 << y;
                        step_row[i] = self.row_start(shape, moved, false).0;
                        step_span[i] = ((1u64 << x) - 1) & !((2u64 << y) - 1);
                    }
                }
            }
            for step in 0..steps {
                if step > 0 {
                    let j = (0..k).find(|&j| numbers[j] + 1 < numbers[j + 1]).expect("not the last combination");
                    numbers[j] += 1;
                    for (i, slot) in numbers[..j].iter_mut().enumerate() {
                        *slot = i as u32;
                    }
                }
                let rank = black_rank + step;
                let black = numbers[..k].iter().fold(0u64, |m, &a| m | 1 << cells[a as usize]);
                if self.wins_at_once(white, black, first.white_to_move) {
                    f(index, Scan::Known(gsolve_engine::Value::Win(1)));
                    index += 1;
                    continue;
                }
                children.clear();
                if first.white_to_move {
                    let occupied = white | black;
                    for (i, x) in bits(white).enumerate() {
                        let y = x - c;
                        if y < c {
                            // Onto row 0: the game is over, white has won.
                            if occupied >> y & 1 == 0 {
                                children.push(ChildAt::Over(Outcome::Loss));
                            }
                        } else if occupied >> y & 1 == 0 {
                            // Black pawns strictly between y and x lose a free cell below.
                            let mut shift = 0;
                            for cell in bits(black & step_span[i]) {
                                let below = (1u64 << cell) - 1;
                                let (j, num) = ((black & below).count_ones(), (free & below).count_ones());
                                shift += self.binom.c(num - 1, j);
                            }
                            children.push(ChildAt::In(tier, step_row[i] + rank - shift));
                        }
                        for target in bits(self.white_takes[x as usize] & black) {
                            {
                                if target < c {
                                    children.push(ChildAt::Over(Outcome::Loss));
                                } else {
                                    let slot = (x * 2 + (target > y) as u32) as usize & 63;
                                    let rank = self.black_rank_in(black & !(1u64 << target), capture_free[slot]);
                                    children
                                        .push(ChildAt::In((shape.white, shape.black - 1), capture_row[slot] + rank));
                                }
                            }
                        }
                    }
                } else {
                    for (j, &num) in numbers[..k].iter().enumerate() {
                        let from = cells[num as usize];
                        let d = from + c;
                        let occupied = white | black;
                        if d >= last_row {
                            if occupied >> d & 1 == 0 {
                                children.push(ChildAt::Over(Outcome::Loss));
                            }
                        } else if occupied >> d & 1 == 0 {
                            let new = (free & ((1u64 << d) - 1)).count_ones();
                            // Usually no black pawn lies between (the sentinel after the
                            // last): the pawn keeps its place, and only its term changes.
                            let child_rank = if numbers[j + 1] > new {
                                let place = j as u32 + 1;
                                rank - self.binom.c(num, place) + self.binom.c(new, place)
                            } else {
                                self.rank_replacing(&numbers[..k], j, new)
                            };
                            children.push(ChildAt::In(tier, own_white_row + child_rank));
                        }
                        for target in bits(self.black_takes[from as usize] & white) {
                            {
                                if target >= last_row {
                                    children.push(ChildAt::Over(Outcome::Loss));
                                } else {
                                    let moved = black & !(1u64 << from) | 1u64 << target;
                                    let rank = self.black_rank_in(moved, capture_free[target as usize]);
                                    children.push(ChildAt::In(
                                        (shape.white - 1, shape.black),
                                        capture_row[target as usize] + rank,
                                    ));
                                }
                            }
                        }
                    }
                }
                f(index, Scan::Moves(&children));
                index += 1;
            }
        }
    }

    /// Calls `f(index, position)` for each index of `range` of the whole game.
    pub fn for_each_position_in(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64, PawnsPosition)) {
        let mut start = range.start;
        while start < range.end {
            let (tier, i) = self.split(start);
            let offset = self.tier(tier).offset;
            let end = (offset + self.tier_size(tier)).min(range.end);
            self.for_each_position_in_tier(tier, i..end - offset, |j, p| f(offset + j, p));
            start = end;
        }
    }

    /// Calls `f` with the rows of a tier in solving order (ranges within the tier).
    pub fn for_each_layer_in_tier(&self, tier: PawnTier, mut f: impl FnMut(std::ops::Range<u64>)) {
        let shape = self.tier(tier);
        let mid_cells = (self.rows - 2) * self.cols;
        for wm in (0..=shape.white).rev() {
            let row_len = self.row_len(wm, shape.black);
            let wh = shape.white - wm;
            let homes = self.binom.c(self.cols, wh);
            let mids = self.binom.c(mid_cells, wm);
            if row_len == 0 || homes == 0 || mids == 0 {
                continue;
            }
            // Every home placement of one mid placement, white to move, then black.
            let layer = homes * row_len;
            for mid_rank in (0..mids).rev() {
                let start = shape.group[wm as usize] + mid_rank * 2 * layer;
                f(start..start + layer);
                f(start + layer..start + 2 * layer);
            }
        }
    }

    /// Calls `f` with every layer of the whole game in solving order.
    pub fn for_each_layer(&self, mut f: impl FnMut(std::ops::Range<u64>)) {
        for shape in &self.tiers {
            let offset = shape.offset;
            self.for_each_layer_in_tier((shape.white, shape.black), |r| f(offset + r.start..offset + r.end));
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
