//! The left-right symmetry of a game whose rules and board look the same in a
//! mirror: every position then has its mirror image's value, so the search keeps
//! one of the two in its table (Connect 4 from the start: a third fewer positions
//! searched).

use crate::board::{Board, NO_CELL};
use crate::position::RulesPosition;
use crate::spec::{Facing, Rules};

/// The reflection of the board's cells, left to right.
#[derive(Clone, Debug)]
pub(crate) struct Mirror {
    /// `cells[c]`: cell c reflected.
    cells: Vec<u32>,
}

impl Mirror {
    /// The reflection, if the game looks the same in a mirror: both sides face up
    /// or down, every move's steps come in mirror pairs, and the board's cells and
    /// every zone are symmetric. Games with trails are left out (their walls would
    /// need reflecting too).
    pub(crate) fn of(rules: &Rules, board: &Board) -> Option<Mirror> {
        if rules.has_trails() || rules.sides.iter().any(|s| !matches!(s.forward, Facing::Up | Facing::Down)) {
            return None;
        }
        let symmetric_steps = rules
            .kinds
            .iter()
            .all(|k| k.moves.iter().all(|m| m.vectors.iter().all(|&(f, r)| m.vectors.contains(&(f, -r)))));
        if !symmetric_steps {
            return None;
        }
        let cells: Vec<u32> =
            board.coords.iter().map(|&(r, c)| board.cell(r, board.cols - 1 - c).unwrap_or(NO_CELL)).collect();
        if cells.contains(&NO_CELL) {
            return None; // the playable cells are not symmetric
        }
        for z in 0..rules.zones.len() {
            for side in 0..2 {
                if (0..board.cells() as u32)
                    .any(|c| board.in_zone(z, side, c) != board.in_zone(z, side, cells[c as usize]))
                {
                    return None;
                }
            }
        }
        Some(Mirror { cells })
    }

    /// `cells()[c]`: cell c reflected.
    pub(crate) fn cells(&self) -> &[u32] {
        &self.cells
    }

    /// The position reflected left to right.
    pub(crate) fn reflect<const N: usize>(&self, p: &RulesPosition<N>) -> RulesPosition<N> {
        p.with_cells(|cell| self.cells[cell as usize])
    }
}
