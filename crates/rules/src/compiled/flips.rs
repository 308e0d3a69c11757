//! Flipping by bracketing, compiled for a board: a dropped piece turns every
//! run of enemy pieces it brackets, along the directions its rule names, into
//! the mover's pieces of the same kind (Othello).
//!
//! ```text
//!   X O O X        the X dropped on the left brackets the two O's along the
//!   ^ └─┘ mover    row: both become X's. A run must end on the mover's piece:
//!   dropped        an empty cell, the edge or a piece that cannot flip ends it
//!                  with nothing turned.
//! ```
//! This is the general path: the move generator and `play` read it from the
//! piece list; the margin search of flip games works on bit sets of its own.

use crate::compiled::board::{Board, Group};
use crate::compiled::position::{cell_of, group_of, pack, RulesPosition};
use crate::language::spec::Rules;

/// The flips of the rules on one board.
#[derive(Clone, Debug)]
pub(crate) struct FlipTables {
    /// `rays[g][c]`: for a flipping drop of group g on cell c, the cells along
    /// each direction, nearest first (empty for a group whose drop does not flip).
    rays: Vec<Vec<Vec<Vec<u32>>>>,
    /// `must_flip[g]`: a drop of group g must flip at least one piece.
    must_flip: Vec<bool>,
    /// `partner[g]`: the other side's group of the same kind (what a flipped
    /// piece of group g becomes), `usize::MAX` where there is none.
    partner: Vec<usize>,
}

impl FlipTables {
    /// The flips of `rules` on `board`, `None` when no drop flips.
    pub(crate) fn new(rules: &Rules, board: &Board) -> Option<FlipTables> {
        if !rules.has_flips() {
            return None;
        }
        let groups: &[Group] = &board.groups;
        let partner = groups
            .iter()
            .map(|g| groups.iter().position(|h| h.side != g.side && h.kind == g.kind).unwrap_or(usize::MAX))
            .collect();
        let mut must_flip = vec![false; groups.len()];
        let rays = groups
            .iter()
            .enumerate()
            .map(|(gi, g)| {
                let Some(flips) = rules.kinds[g.kind].drop.as_ref().and_then(|d| d.flips) else {
                    return Vec::new();
                };
                must_flip[gi] = flips.must_flip;
                let mut directions = Vec::new();
                if flips.orthogonal {
                    directions.extend([(-1, 0), (1, 0), (0, -1), (0, 1)]);
                }
                if flips.diagonal {
                    directions.extend([(-1, -1), (-1, 1), (1, -1), (1, 1)]);
                }
                board
                    .coords
                    .iter()
                    .map(|&(r, c)| {
                        directions
                            .iter()
                            .map(|&(dr, dc)| {
                                let mut ray = Vec::new();
                                let (mut r, mut c) = (r as i64 + dr, c as i64 + dc);
                                while r >= 0 && c >= 0 {
                                    let Some(cell) = board.cell(r as u32, c as u32) else { break };
                                    ray.push(cell);
                                    r += dr;
                                    c += dc;
                                }
                                ray
                            })
                            .filter(|ray| ray.len() >= 2)
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Some(FlipTables { rays, must_flip, partner })
    }

    /// Does a drop of group `g` flip?
    #[inline]
    pub(crate) fn flips(&self, g: usize) -> bool {
        !self.rays[g].is_empty()
    }

    /// Must a drop of group `g` flip at least one piece?
    #[inline]
    pub(crate) fn must_flip(&self, g: usize) -> bool {
        self.must_flip[g]
    }

    /// The cells whose pieces a drop of group `g` (of side `side`) on the empty
    /// cell `cell` of `p` flips, as a bit set. `owner[c]`: the group on cell c,
    /// `usize::MAX` for an empty cell.
    pub(crate) fn flipped(&self, g: usize, side: usize, cell: u32, owner: &[usize], sides: &[usize]) -> u128 {
        let mut flipped = 0u128;
        for ray in &self.rays[g][cell as usize] {
            let mut run = 0u128;
            for &c in ray {
                let h = owner[c as usize];
                if h == usize::MAX {
                    break;
                }
                if sides[h] == side {
                    flipped |= run;
                    break;
                }
                if self.partner[h] == usize::MAX {
                    break;
                }
                run |= 1 << c;
            }
        }
        flipped
    }

    /// `p` with the pieces on the cells of `flipped` turned to their partners.
    pub(crate) fn turn<const N: usize>(&self, p: &mut RulesPosition<N>, mut flipped: u128) {
        while flipped != 0 {
            let cell = flipped.trailing_zeros();
            flipped &= flipped - 1;
            if let Some(i) = p.place_of(cell) {
                let packed = p.packed()[i];
                debug_assert_eq!(cell_of(packed), cell);
                p.replace_at(i, pack(self.partner[group_of(packed)], cell));
            }
        }
    }
}

/// `owner[c]`: the group on each cell of `p`, `usize::MAX` where it is empty.
pub(crate) fn owners<const N: usize>(p: &RulesPosition<N>, cells: usize) -> Vec<usize> {
    let mut owner = vec![usize::MAX; cells];
    for &q in p.packed() {
        owner[cell_of(q) as usize] = group_of(q);
    }
    owner
}
