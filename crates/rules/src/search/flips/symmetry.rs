//! The board's symmetries that keep the direction set, and the folded key of a
//! position: the least of its images, so that images share one table entry.
//!
//! Every symmetry of the rectangle maps rows and columns to rows and columns and
//! diagonals to diagonals, so each keeps any direction set: a rectangle has 4
//! (the identity, the two mirrors, the half turn), a square 8 (and the two
//! transpositions, the quarter turns). An image of a position has the same
//! margin and remoteness, and a move's image is the image's move.

use super::shape::FlipShape;

/// Positions with more discs than this are not folded: images of one position
/// meet in a search from the start, rarely once a board is a third full, and a
/// fold costs a pass over each disc for each symmetry.
pub(crate) const FOLD_DISCS: u32 = 24;

/// A map of (row, column) to its image.
type CellMap = Box<dyn Fn(u32, u32) -> (u32, u32)>;

/// The symmetries of one shape as cell permutations.
#[derive(Clone, Debug)]
pub(crate) struct Symmetries {
    /// `map[s][cell]`: the cell's image under symmetry `s`; `map[0]` the identity.
    map: Vec<[u8; 64]>,
    /// `inverse[s][cell]`: the cell whose image under `s` is `cell`.
    inverse: Vec<[u8; 64]>,
}

impl Symmetries {
    pub(crate) fn new(shape: &FlipShape) -> Symmetries {
        let (rows, cols) = (shape.rows, shape.cols);
        let mut maps: Vec<CellMap> = vec![
            Box::new(|r, c| (r, c)),
            Box::new(move |r, c| (rows - 1 - r, c)),
            Box::new(move |r, c| (r, cols - 1 - c)),
            Box::new(move |r, c| (rows - 1 - r, cols - 1 - c)),
        ];
        if rows == cols {
            maps.push(Box::new(|r, c| (c, r)));
            maps.push(Box::new(move |r, c| (cols - 1 - c, rows - 1 - r)));
            maps.push(Box::new(move |r, c| (c, rows - 1 - r)));
            maps.push(Box::new(move |r, c| (cols - 1 - c, r)));
        }
        let mut map = Vec::new();
        let mut inverse = Vec::new();
        for f in &maps {
            let mut forward = [0u8; 64];
            let mut back = [0u8; 64];
            for r in 0..rows {
                for c in 0..cols {
                    let (ir, ic) = f(r, c);
                    let (from, to) = (r * cols + c, ir * cols + ic);
                    forward[from as usize] = to as u8;
                    back[to as usize] = from as u8;
                }
            }
            // A board with one row or one column: some maps are the same.
            if !map.contains(&forward) {
                map.push(forward);
                inverse.push(back);
            }
        }
        Symmetries { map, inverse }
    }

    /// The number of symmetries, the identity included.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// The image of a set of cells under symmetry `s`.
    pub(crate) fn image(&self, s: usize, mut cells: u64) -> u64 {
        let map = &self.map[s];
        let mut out = 0;
        while cells != 0 {
            out |= 1 << map[cells.trailing_zeros() as usize];
            cells &= cells - 1;
        }
        out
    }

    /// The folded position: the least image `(mine, theirs)` (in that order)
    /// and the symmetry that gives it. Positions with more than [`FOLD_DISCS`]
    /// discs are their own folded position: whether a position is folded
    /// depends on the position only, so it always meets the same entry.
    #[inline]
    pub(crate) fn fold(&self, mine: u64, theirs: u64) -> (u64, u64, usize) {
        if (mine | theirs).count_ones() > FOLD_DISCS || self.map.len() == 1 {
            return (mine, theirs, 0);
        }
        let mut best = (mine, theirs, 0);
        for s in 1..self.map.len() {
            let image = (self.image(s, mine), self.image(s, theirs), s);
            if (image.0, image.1) < (best.0, best.1) {
                best = image;
            }
        }
        best
    }

    /// A cell of the folded position (symmetry `s`) back in the position.
    #[inline]
    pub(crate) fn unfold_cell(&self, s: usize, cell: u8) -> u8 {
        self.inverse[s][cell as usize & 63]
    }

    /// A cell of the position in the folded position (symmetry `s`).
    #[inline]
    pub(crate) fn fold_cell(&self, s: usize, cell: u8) -> u8 {
        self.map[s][cell as usize & 63]
    }
}

#[cfg(test)]
mod tests {
    use super::super::shape::Directions;
    use super::*;

    #[test]
    fn a_square_has_eight_a_rectangle_four_a_row_two() {
        let shape = |r, c| FlipShape::new(r, c, Directions::ALL, true, true).unwrap();
        assert_eq!(Symmetries::new(&shape(8, 8)).len(), 8);
        assert_eq!(Symmetries::new(&shape(3, 4)).len(), 4);
        assert_eq!(Symmetries::new(&shape(1, 5)).len(), 2);
        assert_eq!(Symmetries::new(&shape(1, 1)).len(), 1);
    }

    #[test]
    fn images_fold_together_and_cells_map_back() {
        let shape = FlipShape::othello();
        let sym = Symmetries::new(&shape);
        let (mine, theirs) = (shape.bit(0, 1) | shape.bit(2, 3), shape.bit(5, 5));
        let folded = sym.fold(mine, theirs);
        for s in 0..sym.len() {
            let (m, t) = (sym.image(s, mine), sym.image(s, theirs));
            let f = sym.fold(m, t);
            assert_eq!((f.0, f.1), (folded.0, folded.1));
            for cell in 0..64u8 {
                assert_eq!(sym.unfold_cell(s, sym.fold_cell(s, cell)), cell);
            }
        }
    }
}
