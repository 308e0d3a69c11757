//! The board's cell graph as bit masks, and exact longest paths in a region of free
//! cells, for snakes that can no longer meet.
//!
//! `longest(node, region)` = the most moves a snake at `node` can make through
//! `region` (the free cells it can reach). Depth-first over the first step, each
//! subproblem being the region still reachable after it, with
//! - a memo of bounds on (region, node): regions recur once a snake has sealed
//!   itself in;
//! - a first path by a greedy walk, and upper bounds that stop the search once a
//!   path reaches them: a cheap one from the colours of the cells
//!   ([`upper_bound`]), and where the search has to go on, a finer one from the
//!   region's blocks ([`block_bound`]);
//! - steps whose bound cannot beat the best path found are skipped.

use gsolve_engine::memo::FxHasher;
use gsolve_engine::Value;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// The cells of a board as nodes: empty cells `0..E` (bits of the masks), then any
/// other nodes (the heads' start cells), which are never free.
///
/// What the longest paths assume of it: the graph is undirected (`b` is in `a`'s
/// mask exactly when `a` is in `b`'s), `dark` is a proper two-colouring of it (every
/// edge joins a dark cell and a light one), every node has at most 4 neighbours,
/// and there are at most 130 nodes. An orthogonal grid is such a graph; the rules
/// files' trail races build others ([`Graph::checked`]).
#[derive(Clone, Debug)]
pub struct Graph {
    /// Empty-cell neighbours of each node, as a mask.
    pub neighbours: Vec<u128>,
    /// Colour of each empty cell on the chessboard pattern.
    pub dark: u128,
}

impl Graph {
    /// The graph with these neighbour masks (empty cells first) and colours; the
    /// caller keeps to what the type's documentation says.
    pub fn new(neighbours: Vec<u128>, dark: u128) -> Self {
        Graph { neighbours, dark }
    }

    /// The graph of `neighbours` if it is one the longest paths can use, with cells
    /// `0..neighbours.len()` (at most 128): undirected, degree at most 4, and
    /// two-coloured by `dark`; `None` otherwise.
    pub fn checked(neighbours: Vec<u128>, dark: u128) -> Option<Self> {
        let n = neighbours.len();
        let fits = n <= 128
            && neighbours.iter().enumerate().all(|(a, &mask)| {
                let colour = dark >> a & 1;
                mask.count_ones() <= 4
                    && (0..128)
                        .filter(|&b| mask >> b & 1 == 1)
                        .all(|b| b < n && b != a && neighbours[b] >> a & 1 == 1 && dark >> b & 1 != colour)
            });
        fits.then_some(Graph { neighbours, dark })
    }

    /// The empty cells next to some cell of `set` (a set of empty cells).
    #[inline]
    pub fn spread(&self, set: u128) -> u128 {
        // Cell by cell: sets spread here are small (search frontiers).
        let mut out = 0;
        let mut s = set;
        while s != 0 {
            out |= self.neighbours[s.trailing_zeros() as usize];
            s &= s - 1;
        }
        out
    }

    /// Cells reachable from `node` through `free` (not counting `node` itself).
    #[inline]
    pub fn region(&self, node: u8, free: u128) -> u128 {
        self.flood(self.neighbours[node as usize] & free, free)
    }

    /// The cells of `region` with at most one neighbour in `region` ∪ {`node`}.
    #[inline]
    pub fn dead_ends(&self, node: u8, region: u128) -> u128 {
        // Cells with a neighbour in the region, and those with two or more.
        let (mut once, mut twice) = (self.neighbours[node as usize], 0u128);
        let mut s = region;
        while s != 0 {
            let around = self.neighbours[s.trailing_zeros() as usize];
            twice |= once & around;
            once |= around;
            s &= s - 1;
        }
        region & !twice
    }

    /// The free cells split between heads `a` and `b` by a simultaneous
    /// breadth-first search, `b` moving first: each cell goes to the head that gets
    /// there first, `b` on a tie.
    pub fn voronoi(&self, a: u8, b: u8, free: u128) -> Voronoi {
        let (mut fa, mut fb) = (self.neighbours[a as usize] & free, self.neighbours[b as usize] & free);
        let (mut owned_a, mut owned_b) = (0u128, 0u128);
        let mut together = false;
        while fa | fb != 0 {
            together |= fb & owned_a != 0;
            fb &= !(owned_a | owned_b);
            owned_b |= fb;
            together |= fa & owned_b != 0;
            fa &= !(owned_a | owned_b);
            owned_a |= fa;
            fa = self.spread(fa) & free & !owned_a;
            fb = self.spread(fb) & free & !owned_b;
        }
        Voronoi { a: owned_a, b: owned_b, together }
    }

    /// `seeds` (⊆ `free`) and every cell of `free` connected to them.
    #[inline]
    pub fn flood(&self, seeds: u128, free: u128) -> u128 {
        let (mut reached, mut frontier) = (seeds, seeds);
        while frontier != 0 {
            frontier = self.spread(frontier) & free & !reached;
            reached |= frontier;
        }
        reached
    }
}

/// The free cells split between two heads ([`Graph::voronoi`]).
#[derive(Clone, Copy, Debug)]
pub struct Voronoi {
    /// The cells the first head reaches strictly first.
    pub a: u128,
    /// The cells the second head reaches first or at the same time.
    pub b: u128,
    /// Whether the heads are connected through free cells. If not, `a` and `b` are
    /// the heads' regions.
    pub together: bool,
}

/// An upper bound on the longest path from `node` into `region` (the cells
/// reachable from it).
///
/// The path's cells alternate colours on the chessboard pattern, starting with the
/// colour of the head's neighbours (`near`): a path of length l has ⌈l/2⌉ cells of
/// that colour and ⌊l/2⌋ of the other, so l ≤ min(2·near, 2·far + 1). A dead end (a
/// cell of the region with one neighbour in the region or at `node`) can only be the
/// path's last cell: of the dead ends, at most one counts, of either colour.
pub(crate) fn upper_bound(graph: &Graph, node: u8, region: u128) -> u32 {
    let steps = graph.neighbours[node as usize] & region;
    if steps == 0 {
        return 0;
    }
    let near_colour = if steps & graph.dark != 0 { graph.dark } else { !graph.dark };
    let dead = graph.dead_ends(node, region);
    let near = (region & near_colour & !dead).count_ones();
    let far = (region & !near_colour & !dead).count_ones();
    let cap = |n: u32, f: u32| (2 * n).min(2 * f + 1);
    let mut bound = cap(near, far);
    if dead & near_colour != 0 {
        bound = bound.max(cap(near + 1, far));
    }
    if dead & !near_colour != 0 {
        bound = bound.max(cap(near, far + 1));
    }
    bound
}

/// A finer upper bound on the longest path from `node` into `region`, from the
/// blocks (biconnected components) of the region with `node`.
///
/// A path from `node` goes through a chain of blocks, each entered at a cut vertex
/// (or `node`) and left, if at all, at another cut vertex it never comes back
/// through: in each block it visits at most the block's cells but the entry, with
/// colours alternating from the entry's, so that a segment ending on a cell of the
/// entry's colour is even and one ending on the other colour is odd. The bound is
/// the best chain, by dynamic programming over the blocks as a depth-first search
/// from `node` closes them (a block closes after the blocks hanging below it).
pub(crate) fn block_bound(graph: &Graph, node: u8, region: u128) -> u32 {
    const N: usize = 130;
    let nb = &graph.neighbours;
    let root = node as usize;
    // Discovery times (0: not yet) and low points of the depth-first search; `best`:
    // the best chain of blocks hanging below a vertex.
    let (mut disc, mut low, mut best) = ([0u8; N], [0u8; N], [0u8; N]);
    // The search path with the neighbours still to try, and the vertices not yet in
    // a closed block.
    let mut path = [(0usize, 0u128); N];
    let mut open = 0u128;
    disc[root] = 1;
    low[root] = 1;
    path[0] = (root, nb[root] & region);
    let (mut depth, mut time) = (1usize, 1u8);
    // The colour of a vertex (the root, maybe a start cell, has the other colour
    // than its neighbours).
    let is_dark = |v: usize| if v == root { nb[root] & region & graph.dark == 0 } else { graph.dark >> v & 1 == 1 };
    while depth > 0 {
        let (v, rest) = path[depth - 1];
        if rest != 0 {
            let w = rest.trailing_zeros() as usize;
            path[depth - 1].1 = rest & (rest - 1);
            if disc[w] == 0 {
                time += 1;
                disc[w] = time;
                // A cell next to `node` has an edge back to the root.
                low[w] = if nb[root] >> w & 1 == 1 { 1 } else { time };
                open |= 1 << w;
                path[depth] = (w, nb[w] & region);
                depth += 1;
            } else {
                low[v] = low[v].min(disc[w]);
            }
            continue;
        }
        depth -= 1;
        if depth == 0 {
            break;
        }
        let p = path[depth - 1].0;
        low[p] = low[p].min(low[v]);
        if low[v] < disc[p] {
            continue;
        }
        // `p` closes a block: `v` and the open vertices discovered after it.
        let mut cells = 0u128;
        let mut o = open;
        while o != 0 {
            let u = o.trailing_zeros() as usize;
            o &= o - 1;
            if disc[u] >= disc[v] {
                cells |= 1 << u;
            }
        }
        open &= !cells;
        // Colours relative to the entry `p`: `near` cells have the other colour.
        let near_mask = if is_dark(p) { !graph.dark } else { graph.dark };
        let n = cells.count_ones();
        let near = (cells & near_mask).count_ones();
        let far = n - near;
        let mut value = n.min(2 * near).min(2 * far + 1);
        let mut exits = cells;
        while exits != 0 {
            let u = exits.trailing_zeros() as usize;
            exits &= exits - 1;
            if best[u] == 0 {
                continue;
            }
            let segment = if near_mask >> u & 1 == 1 {
                if near == 0 {
                    0
                } else {
                    n.min(2 * (near - 1).min(far) + 1)
                }
            } else {
                n.min(2 * near.min(far))
            };
            value = value.max(segment + best[u] as u32);
        }
        best[p] = best[p].max(value as u8);
    }
    best[root] as u32
}

/// Entries the memo may hold before it starts over (32 bytes each, plus the hash
/// table's slack).
const MEMO_LIMIT: usize = 1 << 21;

/// A memo key: a region and the node the path starts from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct MemoKey {
    /// The region, in two halves (8-byte alignment keeps entries at 32 bytes).
    region: [u64; 2],
    node: u8,
}

impl MemoKey {
    fn new(node: u8, region: u128) -> Self {
        MemoKey { region: [region as u64, (region >> 64) as u64], node }
    }
}

/// What is known of the longest path from a node into a region: `lo ≤ l ≤ hi`.
#[derive(Clone, Copy, Debug)]
struct Known {
    lo: u8,
    hi: u8,
}

/// Memoized bounds on longest-path lengths; kept across searches of one board.
///
/// Two questions share the memo: the exact length (`longest`) and "is there a path
/// of at least k moves?" (`at_least`), much cheaper when k is well below
/// the length (a first greedy path answers it). Each answer narrows the stored
/// bounds.
#[derive(Default, Debug)]
pub struct LongestPaths {
    memo: HashMap<MemoKey, Known, BuildHasherDefault<FxHasher>>,
}

/// The length of one path from `node` into `region`, up to `limit`: each step to
/// the cell with the fewest onward exits (Warnsdorff's rule), the lowest first on
/// ties.
fn greedy(graph: &Graph, node: u8, region: u128, limit: u8) -> u8 {
    let (mut at, mut left, mut length) = (node, region, 0);
    loop {
        let mut steps = graph.neighbours[at as usize] & left;
        if steps == 0 || length >= limit {
            return length;
        }
        let mut best = (u32::MAX, 0);
        while steps != 0 {
            let e = steps.trailing_zeros() as u8;
            steps &= steps - 1;
            let exits = (graph.neighbours[e as usize] & left).count_ones();
            if exits < best.0 {
                best = (exits, e);
            }
        }
        at = best.1;
        left &= !(1u128 << at);
        length += 1;
    }
}

/// The steps from `node` into `region`, fewest onward exits first (Warnsdorff's
/// rule: such steps tend to give long paths early, so searches end sooner).
fn steps_in_order(graph: &Graph, node: u8, region: u128) -> ([u8; 4], usize) {
    let mut order = [(0u32, 0u8); 4];
    let mut n = 0;
    let mut s = graph.neighbours[node as usize] & region;
    while s != 0 {
        let e = s.trailing_zeros() as u8;
        s &= s - 1;
        order[n] = ((graph.neighbours[e as usize] & region).count_ones(), e);
        n += 1;
    }
    order[..n].sort_unstable();
    (order.map(|(_, e)| e), n)
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

    /// The stored bounds for (`node`, `region`), or the static ones.
    fn known(&self, graph: &Graph, node: u8, region: u128) -> Known {
        match self.memo.get(&MemoKey::new(node, region)) {
            Some(&k) => k,
            None => Known { lo: 0, hi: upper_bound(graph, node, region) as u8 },
        }
    }

    fn remember(&mut self, node: u8, region: u128, known: Known) {
        if self.memo.len() >= MEMO_LIMIT {
            self.memo.clear();
        }
        self.memo.insert(MemoKey::new(node, region), known);
    }

    /// The longest path from `node` into `region` (cells reachable from it).
    pub fn longest(&mut self, graph: &Graph, node: u8, region: u128) -> u32 {
        if graph.neighbours[node as usize] & region == 0 {
            return 0;
        }
        let known = self.known(graph, node, region);
        if known.lo == known.hi {
            return known.lo as u32;
        }
        // One greedy walk often reaches the bound.
        let walk = greedy(graph, node, region, known.hi);
        self.search(graph, node, region, Known { lo: known.lo.max(walk), hi: known.hi })
    }

    /// [`Self::longest`] with `known` bounds (`lo < hi`) of a node with steps.
    fn search(&mut self, graph: &Graph, node: u8, region: u128, known: Known) -> u32 {
        // A path of `lo` moves is known to exist: only longer ones are of interest.
        let (mut best, mut bound) = (known.lo as u32, known.hi as u32);
        if best < bound {
            let (order, n) = steps_in_order(graph, node, region);
            for (i, &e) in order[..n].iter().enumerate() {
                if i == 1 {
                    // The first step did not reach the bound: before trying the others,
                    // a finer bound, which the best path so far may already reach.
                    bound = bound.min(block_bound(graph, node, region));
                    if best >= bound {
                        break;
                    }
                }
                let rest = graph.region(e, region & !(1u128 << e));
                if graph.neighbours[e as usize] & rest == 0 {
                    best = best.max(1);
                    continue;
                }
                let child = self.known(graph, e, rest);
                // A step whose bound cannot beat the best path so far need not be searched.
                if (child.hi as u32) < best {
                    continue;
                }
                let length = if child.lo == child.hi { child.lo as u32 } else { self.search(graph, e, rest, child) };
                best = best.max(1 + length);
                if best >= bound {
                    break;
                }
            }
        }
        self.remember(node, region, Known { lo: best as u8, hi: best as u8 });
        best
    }

    /// The value for the side to move at `mover` against `other` when their regions
    /// `mine` and `theirs` are apart: each can only make its longest path, and the
    /// mover, with `a` moves left against `b`, wins iff a > b (it is stuck on ply
    /// 2a + 1, the other on ply 2b + 2). Computes only what it needs: the loser's
    /// exact longest path, and whether the winner's is longer.
    pub fn apart(&mut self, graph: &Graph, mover: u8, other: u8, mine: u128, theirs: u128) -> Value {
        // The snake with the smaller region is the likely loser: its length first.
        if mine.count_ones() <= theirs.count_ones() {
            let a = self.longest(graph, mover, mine);
            if self.at_least(graph, other, theirs, a) {
                Value::Loss(2 * a)
            } else {
                Value::Win(2 * self.longest(graph, other, theirs) + 1)
            }
        } else {
            let b = self.longest(graph, other, theirs);
            if self.at_least(graph, mover, mine, b + 1) {
                Value::Win(2 * b + 1)
            } else {
                Value::Loss(2 * self.longest(graph, mover, mine))
            }
        }
    }

    /// Whether a path of at least `k` moves leads from `node` into `region` (cells
    /// reachable from it).
    pub fn at_least(&mut self, graph: &Graph, node: u8, region: u128, k: u32) -> bool {
        if k == 0 {
            return true;
        }
        if graph.neighbours[node as usize] & region == 0 {
            return false;
        }
        let mut known = self.known(graph, node, region);
        if known.lo as u32 >= k {
            return true;
        }
        if (known.hi as u32) < k {
            return false;
        }
        // One greedy walk often answers at once.
        let walk = greedy(graph, node, region, k as u8);
        if walk > known.lo {
            known.lo = walk;
            if walk as u32 >= k {
                self.remember(node, region, known);
                return true;
            }
        }
        let (order, n) = steps_in_order(graph, node, region);
        let mut found = false;
        for (i, &e) in order[..n].iter().enumerate() {
            if i == 1 {
                // The first step did not make it: the finer bound may say no to all.
                let bound = block_bound(graph, node, region);
                if bound < k {
                    known.hi = bound as u8;
                    break;
                }
            }
            let rest = graph.region(e, region & !(1u128 << e));
            if self.at_least(graph, e, rest, k - 1) {
                found = true;
                break;
            }
        }
        if found {
            known.lo = k as u8;
        } else {
            known.hi = known.hi.min(k as u8 - 1);
        }
        self.remember(node, region, known);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// A rows×cols grid with every cell a node (bit i = cell i, row-major).
    fn grid(rows: usize, cols: usize) -> Graph {
        let neighbours = (0..rows * cols)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                let mut m = 0u128;
                if r > 0 {
                    m |= 1 << (i - cols);
                }
                if r + 1 < rows {
                    m |= 1 << (i + cols);
                }
                if c > 0 {
                    m |= 1 << (i - 1);
                }
                if c + 1 < cols {
                    m |= 1 << (i + 1);
                }
                m
            })
            .collect();
        let dark = (0..rows * cols).filter(|i| (i / cols + i % cols).is_multiple_of(2)).fold(0, |m, i| m | 1 << i);
        Graph::new(neighbours, dark)
    }

    /// The longest simple path from `node` through `free`, by trying every one.
    fn brute(g: &Graph, node: usize, free: u128) -> u32 {
        let mut steps = g.neighbours[node] & free;
        let mut best = 0;
        while steps != 0 {
            let e = steps.trailing_zeros() as usize;
            steps &= steps - 1;
            best = best.max(1 + brute(g, e, free & !(1 << e)));
        }
        best
    }

    /// Both bounds hold and the memoized search is exact, on random regions of small
    /// grids (one memo for all the regions of a grid, so stored bounds are reused).
    #[test]
    fn bounds_hold_and_searches_are_exact() {
        let mut rng = SplitMix64::new(0xb10c);
        let mut tight = 0;
        for _ in 0..300 {
            let (rows, cols) = (2 + rng.below(5) as usize, 2 + rng.below(5) as usize);
            let g = grid(rows, cols);
            let mut memo = LongestPaths::default();
            for _ in 0..20 {
                let keep = 4 + rng.below(6);
                let free = (0..rows * cols).filter(|_| rng.chance(keep, 10)).fold(0u128, |m, i| m | 1 << i);
                let node = rng.below((rows * cols) as u64) as u8;
                let free = free & !(1 << node);
                let region = g.region(node, free);
                let truth = brute(&g, node as usize, region);
                let (cheap, fine) = (upper_bound(&g, node, region), block_bound(&g, node, region));
                assert!(
                    cheap >= truth && fine >= truth,
                    "{rows}x{cols} free {free:#b} node {node}: {truth} > {cheap} or {fine}"
                );
                tight += usize::from(fine == truth);
                let k = rng.below(u64::from(truth) + 3) as u32;
                assert_eq!(
                    memo.at_least(&g, node, region, k),
                    truth >= k,
                    "{rows}x{cols} free {free:#b} node {node}, k {k}"
                );
                assert_eq!(memo.longest(&g, node, region), truth, "{rows}x{cols} free {free:#b} node {node}");
            }
        }
        assert!(tight > 5000, "the block bound is mostly exact on such regions: {tight} of 6000");
    }
}
