//! The rules of one flip game: the board's size, the directions a move flips
//! along, whether a move must flip, and who gets the empty cells at the end.
//! Checked once here, so that nothing below meets a shape it cannot hold.

use thiserror::Error;

/// The lines along which a dropped disc brackets and flips runs of enemy discs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Directions {
    /// Along rows and columns (4 directions).
    pub orthogonal: bool,
    /// Along both diagonals (4 directions).
    pub diagonal: bool,
}

impl Directions {
    /// All eight directions, as in Othello.
    pub const ALL: Directions = Directions { orthogonal: true, diagonal: true };
}

/// The parameters of a flip game (the module's doc gives the rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FlipShape {
    /// Rows of the board, at least 1.
    pub rows: u32,
    /// Columns of the board, at least 1.
    pub cols: u32,
    /// The directions a move flips along: at least one set.
    pub directions: Directions,
    /// A drop must flip at least one disc (Othello); else any empty cell may be
    /// taken.
    pub must_flip: bool,
    /// At the end the empty cells count for the winner (the World Othello
    /// Federation's rule, Edax's scores); else the margin is discs against discs.
    pub empties_to_winner: bool,
}

/// Why a shape was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ShapeError {
    /// A board needs at least one row and one column.
    #[error("a flip board needs at least one row and one column (got {rows} x {cols})")]
    Empty {
        /// The rows asked for.
        rows: u32,
        /// The columns asked for.
        cols: u32,
    },
    /// Every cell is one bit of a 64-bit word.
    #[error("a flip board has at most 64 cells (got {rows} x {cols} = {cells})")]
    TooLarge {
        /// The rows asked for.
        rows: u32,
        /// The columns asked for.
        cols: u32,
        /// Their product.
        cells: u64,
    },
    /// A move flips along some direction.
    #[error("a flip game needs orthogonal or diagonal directions (or both)")]
    NoDirection,
}

impl FlipShape {
    /// A shape, if the board has 1 to 64 cells and some direction is set.
    pub fn new(
        rows: u32,
        cols: u32,
        directions: Directions,
        must_flip: bool,
        empties_to_winner: bool,
    ) -> Result<FlipShape, ShapeError> {
        if rows == 0 || cols == 0 {
            return Err(ShapeError::Empty { rows, cols });
        }
        let cells = u64::from(rows) * u64::from(cols);
        if cells > 64 {
            return Err(ShapeError::TooLarge { rows, cols, cells });
        }
        if !directions.orthogonal && !directions.diagonal {
            return Err(ShapeError::NoDirection);
        }
        Ok(FlipShape { rows, cols, directions, must_flip, empties_to_winner })
    }

    /// Othello: 8 × 8, all directions, a move must flip, empties to the winner.
    pub fn othello() -> FlipShape {
        FlipShape { rows: 8, cols: 8, directions: Directions::ALL, must_flip: true, empties_to_winner: true }
    }

    /// The number of cells.
    pub fn cells(&self) -> u32 {
        self.rows * self.cols
    }

    /// The bit of a cell.
    pub fn bit(&self, row: u32, col: u32) -> u64 {
        debug_assert!(row < self.rows && col < self.cols);
        1 << (row * self.cols + col)
    }

    /// Every cell of the board.
    pub fn board(&self) -> u64 {
        u64::MAX >> (64 - self.cells())
    }

    /// The usual start: the four middle cells taken crosswise, the side to move's
    /// discs on the anti-diagonal ((r, c + 1) and (r + 1, c) for the top left
    /// middle cell (r, c)), as black's in Othello. `None` on a board without a
    /// middle 2 × 2 (an odd or a single side).
    pub fn start(&self) -> Option<(u64, u64)> {
        if self.rows < 2 || self.cols < 2 || self.rows % 2 == 1 || self.cols % 2 == 1 {
            return None;
        }
        let (r, c) = (self.rows / 2 - 1, self.cols / 2 - 1);
        let mine = self.bit(r, c + 1) | self.bit(r + 1, c);
        let theirs = self.bit(r, c) | self.bit(r + 1, c + 1);
        Some((mine, theirs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_shapes_are_refused_with_their_reason() {
        let all = Directions::ALL;
        assert_eq!(FlipShape::new(0, 4, all, true, true), Err(ShapeError::Empty { rows: 0, cols: 4 }));
        assert_eq!(FlipShape::new(9, 8, all, true, true), Err(ShapeError::TooLarge { rows: 9, cols: 8, cells: 72 }));
        let none = Directions { orthogonal: false, diagonal: false };
        assert_eq!(FlipShape::new(4, 4, none, true, true), Err(ShapeError::NoDirection));
        assert!(FlipShape::new(1, 64, all, false, false).is_ok());
        assert_eq!(FlipShape::new(8, 8, all, true, true), Ok(FlipShape::othello()));
        assert!(ShapeError::TooLarge { rows: 9, cols: 8, cells: 72 }.to_string().contains("64 cells"));
    }

    #[test]
    fn othello_starts_with_black_on_d5_and_e4() {
        let shape = FlipShape::othello();
        let (mine, theirs) = shape.start().unwrap();
        // d5 = (4, 3), e4 = (3, 4); white on d4 = (3, 3) and e5 = (4, 4).
        assert_eq!(mine, shape.bit(4, 3) | shape.bit(3, 4));
        assert_eq!(theirs, shape.bit(3, 3) | shape.bit(4, 4));
        assert_eq!(shape.board(), u64::MAX);
    }
}
