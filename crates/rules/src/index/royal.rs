//! The two sides' royal pieces ranked as one digit (module docs of [`crate::index`], "Royal pieces placed as a pair").

use super::places::*;
use crate::compiled::position::{cell_of, group_of};
use crate::compiled::tables::Tables;

/// The royal pieces of the two sides ranked as one digit (module docs, "Royal
/// pieces placed as a pair"), on boards of at most 128 cells.
#[derive(Clone, Debug)]
pub(crate) struct RoyalPair {
    /// The first side's royal group (the anchor: the first group with pieces)
    /// and the second side's.
    pub(super) first: usize,
    pub(super) second: usize,
    pub(super) cells: u32,
    /// `rank_of[x · cells + y]`: the pair's rank with the first royal piece on
    /// `x` and the second on `y`, `u32::MAX` where no index holds it.
    pub(super) rank_of: Vec<u32>,
    /// `cells_of[rank]`: `(x, y)`.
    pub(super) cells_of: Vec<(u32, u32)>,
    /// `takes_by[g · cells + x]`: the cells a piece of group `g` (of either
    /// side) standing on `x` can take an enemy piece on whatever else stands
    /// on the board.
    pub(super) takes_by: Vec<u128>,
}

impl RoyalPair {
    /// Both royal pieces as one digit of a position's rank (one piece each in
    /// every tier): the pair's rank and the two cells, read from the sorted
    /// pieces `packed` with `counts[g]` pieces of each group g; `None` where no
    /// index holds the pair.
    #[inline]
    pub(super) fn digit(&self, packed: &[u32], counts: &[u8]) -> Option<(u64, u32, u32)> {
        let at = |g: usize| counts[..g].iter().map(|&c| c as usize).sum::<usize>();
        let (x, y) = (cell_of(packed[at(self.first)]), cell_of(packed[at(self.second)]));
        self.rank_at(x, y).map(|rank| (rank, x, y))
    }

    /// The pair's rank with the first royal piece on `x` and the second on
    /// `y`, `None` where no index holds it.
    #[inline]
    pub(super) fn rank_at(&self, x: u32, y: u32) -> Option<u64> {
        let rank = self.rank_of[(x * self.cells + y) as usize];
        (rank != u32::MAX).then_some(rank as u64)
    }

    /// The pair of `royal` (the two sides' royal groups, from
    /// [`crate::compiled::endings::Endings::royal_capture_ends`]) over `places`, if the
    /// rules let it be: the first royal group is `anchor`, it does not promote,
    /// leave a trail or meet, and the first side moves one piece a turn.
    pub(super) fn of(tables: &Tables, places: &[Places], anchor: usize, royal: [usize; 2]) -> Option<RoyalPair> {
        let board = tables.board();
        let cells = board.cells() as u32;
        let [first, second] = royal;
        let shaped = first == anchor
            && second > first
            && cells <= 128
            && tables.groups() <= MASK_GROUPS
            && tables.promotion(first).is_none()
            && !tables.leaves_trail(first)
            && !tables.has_meetings()
            && tables.turn_of(0) == crate::language::spec::Turn::OnePiece
            && tables.turn_of(1) == crate::language::spec::Turn::OnePiece;
        if !shaped {
            return None;
        }
        // The cells a piece takes on for sure: a ray's first cell, or any
        // cell of a leap, where the move may land on an enemy. A piece moves
        // one at a time, and no ending but taking the royal piece can come
        // first (`royal_capture_ends`), so taking it is a move that wins.
        let sure_takes = |g: usize, x: u32| {
            let mut set = 0u128;
            for ray in board.rays(g, x).iter().filter(|ray| ray.onto.enemy()) {
                let targets = board.ray_cells(ray);
                let reach = if ray.leap { targets.len() } else { targets.len().min(1) };
                for &y in &targets[..reach] {
                    set |= 1u128 << y;
                }
            }
            set
        };
        let takes_by = (0..tables.groups()).flat_map(|g| (0..cells).map(move |x| sure_takes(g, x))).collect();
        let mut rank_of = vec![u32::MAX; (cells * cells) as usize];
        let mut cells_of = Vec::new();
        for &x in &places[first].cells {
            for &y in &places[second].cells {
                if x != y && sure_takes(first, x) >> y & 1 == 0 {
                    rank_of[(x * cells + y) as usize] = cells_of.len() as u32;
                    cells_of.push((x, y));
                }
            }
        }
        Some(RoyalPair { first, second, cells, rank_of, cells_of, takes_by })
    }

    /// The cells a piece of group `g` on `x` takes on for sure, an enemy
    /// piece standing there.
    #[inline]
    pub(crate) fn sure_takes(&self, g: usize, x: u32) -> u128 {
        self.takes_by[g * self.cells as usize + x as usize]
    }

    /// Can the side to move take the other side's royal piece at once with
    /// any of its pieces, as [`RoyalPair::sure_takes`] says: a win in 1 by
    /// the rules ([`gsolve_engine::Indexed::value_by_rules`]). `pieces` are a
    /// position's packed pieces; `false` where the other royal piece is gone.
    #[inline]
    pub(crate) fn side_takes_royal(&self, tables: &Tables, to_move: usize, pieces: &[u32]) -> bool {
        let royal = if to_move == 0 { self.second } else { self.first };
        let Some(&target) = pieces.iter().find(|&&q| group_of(q) == royal) else { return false };
        let target = cell_of(target);
        pieces.iter().any(|&q| {
            let g = group_of(q);
            tables.side_of(g) == to_move && self.sure_takes(g, cell_of(q)) >> target & 1 == 1
        })
    }

    /// The two royal groups.
    pub(crate) fn groups(&self) -> [usize; 2] {
        [self.first, self.second]
    }

    /// The number of pairs: the digit's radix.
    pub(super) fn len(&self) -> u64 {
        self.cells_of.len() as u64
    }
}
