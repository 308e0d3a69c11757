//! Exact longest paths in a region of free cells, for snakes that can no longer meet.
//!
//! `longest(node, region)` = the most moves a snake at `node` can make through
//! `region` (the free cells it can reach). Depth-first over the first step, each
//! subproblem being the region still reachable after it, with
//! - a memo on (region, node): regions recur once a snake has sealed itself in;
//! - an upper bound that stops the search once a path reaches it: the path's cells
//!   alternate colours on the chessboard pattern, starting with the colour of the
//!   head's neighbours (`near`), so a path of length l needs ⌈l/2⌉ cells of that
//!   colour and ⌊l/2⌋ of the other: l ≤ min(|region|, 2·near, 2·far + 1).

use gsolve_engine::memo::FxHasher;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Cells reachable from `node` through `free` (not counting `node` itself).
pub(crate) fn region(neighbours: &[u128], node: u8, free: u128) -> u128 {
    let mut reached = neighbours[node as usize] & free;
    let mut frontier = reached;
    while frontier != 0 {
        let mut next = 0u128;
        let mut f = frontier;
        while f != 0 {
            next |= neighbours[f.trailing_zeros() as usize];
            f &= f - 1;
        }
        frontier = next & free & !reached;
        reached |= frontier;
    }
    reached
}

/// Memoized longest-path lengths; kept across searches of one board.
#[derive(Default, Debug)]
pub struct LongestPaths {
    memo: HashMap<(u128, u8), u8, BuildHasherDefault<FxHasher>>,
}

impl LongestPaths {
    /// Entries in the memo.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    /// True when nothing is memoized.
    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }

    /// The longest path from `node` into `region` (cells reachable from it), given
    /// each node's neighbour mask and the mask of dark cells.
    pub fn longest(&mut self, neighbours: &[u128], dark: u128, node: u8, region: u128) -> u32 {
        let steps = neighbours[node as usize] & region;
        if steps == 0 {
            return 0;
        }
        if let Some(&l) = self.memo.get(&(region, node)) {
            return l as u32;
        }
        let near_colour = if steps & dark != 0 { dark } else { !dark };
        let near = (region & near_colour).count_ones();
        let far = region.count_ones() - near;
        let bound = region.count_ones().min(2 * near).min(2 * far + 1);
        // Try first the steps with the fewest onward exits (Warnsdorff's rule): they
        // tend to give long paths early, so the bound stops the search sooner.
        let mut order: Vec<(u32, u8)> = Vec::with_capacity(4);
        let mut s = steps;
        while s != 0 {
            let e = s.trailing_zeros() as u8;
            s &= s - 1;
            order.push(((neighbours[e as usize] & region).count_ones(), e));
        }
        order.sort_unstable();
        let mut best = 0;
        for (_, e) in order {
            let rest = region & !(1u128 << e);
            let length = 1 + self.longest(neighbours, dark, e, self::region(neighbours, e, rest));
            best = best.max(length);
            if best >= bound {
                break;
            }
        }
        self.memo.insert((region, node), best as u8);
        best
    }
}
