//! A flip board as bit sets: the legal moves of every cell at once by shifts,
//! the discs one move flips by rays, the final margin.
//!
//! ```text
//!   cell = row · cols + col, bit `cell` of a u64 (row 0 at the top):
//!
//!   3 × 4:   0  1  2  3        the eight directions as shifts of the word:
//!            4  5  6  7          east  << 1       west  >> 1
//!            8  9 10 11          south << cols    north >> cols
//!                                south-east << cols + 1, north-west >> cols + 1
//!                                south-west << cols − 1, north-east >> cols − 1
//! ```
//!
//! A shift moves every disc one step at once; a step off the side of the board
//! lands on the next row's other side (or off the word), so each shift is
//! masked by the cells a step in that direction can land on: a step east never
//! lands in the first column, a step west never in the last. The masks depend on
//! the shape only ([`Geometry::new`]); an axis the direction set leaves out (or
//! that the board has no room for: one row, one column) has empty masks, so its
//! shifts give nothing and every function below runs the same code on every
//! shape.

use super::shape::FlipShape;

/// One line through the board (east–west, north–south, or a diagonal): its
/// shift and the cells a step each way can land on.
#[derive(Clone, Copy, Debug, Default)]
struct Axis {
    shift: u32,
    /// Where `x << shift` may land (a step south / east).
    up: u64,
    /// Where `x >> shift` may land (a step north / west).
    down: u64,
    /// Extra steps of a fill: a run of enemy discs holds at most `line − 2`
    /// discs, the first is found before the fill.
    fills: u32,
    /// Cells with no neighbour along the axis toward higher bits (south / east),
    /// and toward lower bits.
    no_high: u64,
    no_low: u64,
}

/// The masks and rays of one shape, computed once.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub(crate) shape: FlipShape,
    /// Every cell.
    pub(crate) board: u64,
    pub(crate) cells: i32,
    axes: [Axis; 4],
    /// For each cell, the cells a ray from it crosses in each direction (the cell
    /// itself left out), in order of the steps: the first four toward higher
    /// bits (south-east, south, south-west, east), the last four toward lower
    /// bits. An empty ray for a direction left out.
    rays: Box<[[u64; 8]; 64]>,
    /// The four quarters of the board (split at the middle row and column; a
    /// single row or column gives empty quarters), for parity: the last moves
    /// are played in quarters with an odd number of empty cells first.
    pub(crate) quarters: [u64; 4],
    /// The four corners.
    pub(crate) corners: u64,
    /// Cells a disc on which is stable whatever surrounds it: ends of every
    /// line of the direction set through them (the corners; with diagonals only,
    /// every edge cell).
    anchors: u64,
}

impl Geometry {
    pub(crate) fn new(shape: FlipShape) -> Geometry {
        let (rows, cols) = (shape.rows, shape.cols);
        let board = shape.board();
        let column = |c: u32| (0..rows).fold(0u64, |m, r| m | shape.bit(r, c));
        let not_first = board & !column(0);
        let not_last = board & !column(cols - 1);
        let ortho = shape.directions.orthogonal;
        let diag = shape.directions.diagonal && rows >= 2 && cols >= 2;
        let line = |len: u32| len.saturating_sub(3);
        let mut axes = [Axis::default(); 4];
        if ortho && cols >= 2 {
            axes[0] = Axis { shift: 1, up: not_first, down: not_last, fills: line(cols), ..Axis::default() };
        }
        if ortho && rows >= 2 {
            axes[1] = Axis { shift: cols, up: board, down: board, fills: line(rows), ..Axis::default() };
        }
        if diag {
            let len = line(rows.min(cols));
            axes[2] = Axis { shift: cols + 1, up: not_first, down: not_last, fills: len, ..Axis::default() };
            axes[3] = Axis { shift: cols - 1, up: not_last, down: not_first, fills: len, ..Axis::default() };
        }
        let mut rays = Box::new([[0u64; 8]; 64]);
        let steps: [(i32, i32, bool); 8] = [
            (1, 1, diag),
            (1, 0, ortho),
            (1, -1, diag),
            (0, 1, ortho),
            (-1, -1, diag),
            (-1, 0, ortho),
            (-1, 1, diag),
            (0, -1, ortho),
        ];
        for r in 0..rows as i32 {
            for c in 0..cols as i32 {
                let cell = (r as u32 * cols + c as u32) as usize;
                for (d, &(dr, dc, on)) in steps.iter().enumerate() {
                    let (mut rr, mut cc) = (r + dr, c + dc);
                    while on && (0..rows as i32).contains(&rr) && (0..cols as i32).contains(&cc) {
                        rays[cell][d] |= shape.bit(rr as u32, cc as u32);
                        rr += dr;
                        cc += dc;
                    }
                }
            }
        }
        let mut quarters = [0u64; 4];
        if rows >= 2 && cols >= 2 {
            for r in 0..rows {
                for c in 0..cols {
                    let q = (2 * r / rows) * 2 + 2 * c / cols;
                    quarters[q as usize] |= shape.bit(r, c);
                }
            }
        }
        // The axes in the rays' order: east–west, north–south, the two diagonals.
        for (axis, (high, low)) in axes.iter_mut().zip([(3, 7), (1, 5), (0, 4), (2, 6)]) {
            for cell in 0..shape.cells() as usize {
                axis.no_high |= u64::from(rays[cell][high] == 0) << cell;
                axis.no_low |= u64::from(rays[cell][low] == 0) << cell;
            }
        }
        let corners = shape.bit(0, 0) | shape.bit(0, cols - 1) | shape.bit(rows - 1, 0) | shape.bit(rows - 1, cols - 1);
        let mut geometry =
            Geometry { shape, board, cells: shape.cells() as i32, axes, rays, quarters, corners, anchors: board };
        geometry.anchors = geometry.grow(board, 0);
        geometry
    }

    /// The empty cells where the side owning `mine` may drop a disc.
    #[inline]
    pub(crate) fn moves(&self, mine: u64, theirs: u64) -> u64 {
        let empty = self.board & !(mine | theirs);
        if !self.shape.must_flip {
            return empty;
        }
        self.bracketing(mine, theirs) & empty
    }

    /// Every cell next to a run of enemy discs that ends on a disc of `mine`
    /// (empty or not): from each disc of `mine` the runs of enemy discs are filled
    /// one step a round, along every axis both ways.
    #[inline]
    fn bracketing(&self, mine: u64, theirs: u64) -> u64 {
        let mut found = 0;
        for axis in &self.axes {
            let s = axis.shift;
            let (east, west) = (theirs & axis.up, theirs & axis.down);
            let mut x = (mine << s) & east;
            let mut y = (mine >> s) & west;
            for _ in 0..axis.fills {
                x |= (x << s) & east;
                y |= (y >> s) & west;
            }
            found |= (x << s) & axis.up | (y >> s) & axis.down;
        }
        found
    }

    /// The discs a disc dropped on the empty `cell` by the side owning `mine`
    /// flips. Along each ray the first cell that is not an enemy disc ends the
    /// run: the enemy discs before it flip if it holds a disc of `mine`.
    #[inline]
    pub(crate) fn flips(&self, cell: u32, mine: u64, theirs: u64) -> u64 {
        let rays = &self.rays[cell as usize & 63];
        let mut flipped = 0;
        for &ray in &rays[..4] {
            // Toward higher bits: the run ends at the lowest non-enemy cell.
            let stop = ray & !theirs;
            let end = stop & stop.wrapping_neg();
            let take = ((end & mine) != 0) as u64;
            flipped |= ray & end.wrapping_sub(1) & take.wrapping_neg();
        }
        for &ray in &rays[4..] {
            // Toward lower bits: the run ends at the highest non-enemy cell.
            let stop = ray & !theirs;
            let end = if stop == 0 { 0 } else { 1u64 << (63 - stop.leading_zeros()) };
            let take = ((end & mine) != 0) as u64;
            flipped |= ray & !(end << 1).wrapping_sub(1) & take.wrapping_neg();
        }
        flipped
    }

    /// The final margin for the side owning `mine` of a game that is over.
    #[inline]
    pub(crate) fn final_margin(&self, mine: u64, theirs: u64) -> i32 {
        let margin = mine.count_ones() as i32 - theirs.count_ones() as i32;
        if self.shape.empties_to_winner {
            let empty = self.cells - (mine | theirs).count_ones() as i32;
            margin + margin.signum() * empty
        } else {
            margin
        }
    }

    /// Discs of `mine` that no move can ever flip: the corners, and, repeated
    /// until nothing changes, every disc that along each axis of the direction
    /// set touches the edge or a stable disc of its own on one side (a run that
    /// flips it would flip that neighbour too). A lower bound on the discs the
    /// side keeps to the end.
    pub(crate) fn stable(&self, mine: u64) -> u64 {
        if mine & self.anchors == 0 {
            return 0;
        }
        let mut stable = 0;
        loop {
            let grown = self.grow(mine, stable);
            if grown == stable {
                return stable;
            }
            stable = grown;
        }
    }

    /// The discs of `mine` that along each axis of the direction set have no
    /// neighbour or a disc of `stable` on one side (and `stable` itself).
    fn grow(&self, mine: u64, stable: u64) -> u64 {
        let mut grown = mine;
        for axis in &self.axes {
            if axis.up == 0 && axis.down == 0 {
                continue;
            }
            let s = axis.shift;
            let low = axis.no_low | (stable << s) & axis.up;
            let high = axis.no_high | (stable >> s) & axis.down;
            grown &= low | high;
        }
        grown | stable
    }
}

#[cfg(test)]
mod tests {
    use super::super::shape::Directions;
    use super::*;

    /// Othello's first moves: black (to move) has four, each flips one disc.
    #[test]
    fn othello_opening_moves_and_flips() {
        let shape = FlipShape::othello();
        let g = Geometry::new(shape);
        let (mine, theirs) = shape.start().unwrap();
        // d3 (2, 3), c4 (3, 2), f5 (4, 5), e6 (5, 4).
        let expected = shape.bit(2, 3) | shape.bit(3, 2) | shape.bit(4, 5) | shape.bit(5, 4);
        assert_eq!(g.moves(mine, theirs), expected);
        assert_eq!(g.flips(2 * 8 + 3, mine, theirs), shape.bit(3, 3));
        assert_eq!(g.flips(5 * 8 + 4, mine, theirs), shape.bit(4, 4));
        assert_eq!(g.flips(0, mine, theirs), 0);
    }

    /// A corner is stable, and so is an edge run anchored on it; a disc with an
    /// empty cell on both sides of some line is not.
    #[test]
    fn stable_discs_grow_from_corners() {
        let shape = FlipShape::new(4, 4, Directions::ALL, true, true).unwrap();
        let g = Geometry::new(shape);
        let top = shape.bit(0, 0) | shape.bit(0, 1) | shape.bit(0, 2);
        // (0, 1) has (0, 0) stable to its west; vertically the edge; diagonally
        // the edge to the north. (1, 1) has empty cells around it.
        assert_eq!(g.stable(top | shape.bit(1, 1)), top);
        assert_eq!(g.stable(shape.bit(1, 1)), 0);
    }
}
