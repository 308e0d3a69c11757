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

use super::mask::Mask;
use gsolve_engine::memo::FxHasher;
use gsolve_engine::search::ValueBound;
use gsolve_engine::Value;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// A node of the graph: an empty cell's number (its bit in the masks), or one of
/// the nodes after them.
pub type Node = u16;

/// The cells of a board as nodes: empty cells `0..E` (bits of the masks), then any
/// other nodes (the heads' start cells), which are never free.
///
/// What the longest paths assume of it: the graph is undirected (`b` is in `a`'s
/// mask exactly when `a` is in `b`'s), `dark` is a proper two-colouring of it (every
/// edge joins a dark cell and a light one), every node has at most 4 neighbours,
/// and there are at most `M::CELLS + 2` nodes. An orthogonal grid is such a graph;
/// the rules files' trail races build others ([`Graph::checked`]).
#[derive(Clone, Debug)]
pub struct Graph<M = u128> {
    /// Empty-cell neighbours of each node, as a mask.
    pub neighbours: Vec<M>,
    /// Colour of each empty cell on the chessboard pattern.
    pub dark: M,
}

impl<M: Mask> Graph<M> {
    /// The graph with these neighbour masks (empty cells first) and colours; the
    /// caller keeps to what the type's documentation says.
    pub fn new(neighbours: Vec<M>, dark: M) -> Self {
        Graph { neighbours, dark }
    }

    /// The graph of `neighbours` if it is one the longest paths can use, with cells
    /// `0..neighbours.len()` (at most `M::CELLS`): undirected, degree at most 4, and
    /// two-coloured by `dark`; `None` otherwise.
    pub fn checked(neighbours: Vec<M>, dark: M) -> Option<Self> {
        let n = neighbours.len();
        let fits = n <= M::CELLS
            && neighbours.iter().enumerate().all(|(a, &mask)| {
                let colour = dark.contains(a);
                mask.len() <= 4
                    && mask.ones().all(|b| b < n && b != a && neighbours[b].contains(a) && dark.contains(b) != colour)
            });
        fits.then_some(Graph { neighbours, dark })
    }

    /// The empty cells next to some cell of `set` (a set of empty cells).
    #[inline]
    pub fn spread(&self, set: M) -> M {
        // Cell by cell: sets spread here are small (search frontiers).
        set.ones().fold(M::EMPTY, |out, c| out | self.neighbours[c])
    }

    /// Cells reachable from `node` through `free` (not counting `node` itself).
    #[inline]
    pub fn region(&self, node: Node, free: M) -> M {
        self.flood(self.neighbours[node as usize] & free, free)
    }

    /// The cells of `region` with at most one neighbour in `region` ∪ {`node`}.
    #[inline]
    pub fn dead_ends(&self, node: Node, region: M) -> M {
        // Cells with a neighbour in the region, and those with two or more.
        let (mut once, mut twice) = (self.neighbours[node as usize], M::EMPTY);
        for c in region.ones() {
            let around = self.neighbours[c];
            twice |= once & around;
            once |= around;
        }
        region & !twice
    }

    /// The free cells split between heads `a` and `b` by a simultaneous
    /// breadth-first search, `b` moving first: each cell goes to the head that gets
    /// there first, `b` on a tie.
    pub fn voronoi(&self, a: Node, b: Node, free: M) -> Voronoi<M> {
        let (mut fa, mut fb) = (self.neighbours[a as usize] & free, self.neighbours[b as usize] & free);
        let (mut owned_a, mut owned_b) = (M::EMPTY, M::EMPTY);
        let mut together = false;
        while !(fa | fb).is_empty() {
            together |= !(fb & owned_a).is_empty();
            fb &= !(owned_a | owned_b);
            owned_b |= fb;
            together |= !(fa & owned_b).is_empty();
            fa &= !(owned_a | owned_b);
            owned_a |= fa;
            fa = self.spread(fa) & free & !owned_a;
            fb = self.spread(fb) & free & !owned_b;
        }
        Voronoi { a: owned_a, b: owned_b, together }
    }

    /// `seeds` (⊆ `free`) and every cell of `free` connected to them.
    #[inline]
    pub fn flood(&self, seeds: M, free: M) -> M {
        let (mut reached, mut frontier) = (seeds, seeds);
        while !frontier.is_empty() {
            frontier = self.spread(frontier) & free & !reached;
            reached |= frontier;
        }
        reached
    }
}

/// The free cells split between two heads ([`Graph::voronoi`]).
#[derive(Clone, Copy, Debug)]
pub struct Voronoi<M = u128> {
    /// The cells the first head reaches strictly first.
    pub a: M,
    /// The cells the second head reaches first or at the same time.
    pub b: M,
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
pub(crate) fn upper_bound<M: Mask>(graph: &Graph<M>, node: Node, region: M) -> u32 {
    let steps = graph.neighbours[node as usize] & region;
    if steps.is_empty() {
        return 0;
    }
    let near_colour = if !(steps & graph.dark).is_empty() { graph.dark } else { !graph.dark };
    let dead = graph.dead_ends(node, region);
    let near = (region & near_colour & !dead).len();
    let far = (region & !near_colour & !dead).len();
    let cap = |n: u32, f: u32| (2 * n).min(2 * f + 1);
    let mut bound = cap(near, far);
    if !(dead & near_colour).is_empty() {
        bound = bound.max(cap(near + 1, far));
    }
    if !(dead & !near_colour).is_empty() {
        bound = bound.max(cap(near, far + 1));
    }
    bound
}

/// The working space of [`block_bound`], kept from call to call: its arrays are
/// indexed by node, and only entries of nodes a call discovers are read by it
/// (each written at discovery), so nothing needs clearing in between.
#[derive(Debug)]
pub(crate) struct BlockScratch<M> {
    /// Discovery time of each node (1 for the root).
    disc: Vec<u16>,
    /// Low point of each node.
    low: Vec<u16>,
    /// The best chain of blocks hanging below each node.
    best: Vec<u16>,
    /// The search path: a node and its neighbours still to try.
    path: Vec<(usize, M)>,
    /// Discovered nodes not yet in a closed block, in discovery order (Tarjan's
    /// stack): a block that closes is the top of it, down to its first node.
    open: Vec<Node>,
}

impl<M> BlockScratch<M> {
    pub(crate) fn new() -> Self {
        BlockScratch { disc: Vec::new(), low: Vec::new(), best: Vec::new(), path: Vec::new(), open: Vec::new() }
    }
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
pub(crate) fn block_bound<M: Mask>(graph: &Graph<M>, node: Node, region: M, scratch: &mut BlockScratch<M>) -> u32 {
    let nb = &graph.neighbours;
    let root = node as usize;
    let BlockScratch { disc, low, best, path, open } = scratch;
    if disc.len() < nb.len() {
        for v in [&mut *disc, &mut *low, &mut *best] {
            v.resize(nb.len(), 0);
        }
    }
    path.clear();
    open.clear();
    // Discovered nodes other than the root.
    let mut seen = M::EMPTY;
    disc[root] = 1;
    low[root] = 1;
    best[root] = 0;
    path.push((root, nb[root] & region));
    let mut time = 1u16;
    // The colour of a vertex (the root, maybe a start cell, has the other colour
    // than its neighbours).
    let is_dark =
        |v: usize| if v == root { (nb[root] & region & graph.dark).is_empty() } else { graph.dark.contains(v) };
    while let Some(&mut (v, ref mut rest)) = path.last_mut() {
        if !rest.is_empty() {
            let w = rest.lowest();
            *rest = rest.without_lowest();
            if !seen.contains(w) && w != root {
                seen |= M::cell(w);
                time += 1;
                disc[w] = time;
                // A cell next to `node` has an edge back to the root.
                low[w] = if nb[root].contains(w) { 1 } else { time };
                best[w] = 0;
                open.push(w as Node);
                path.push((w, nb[w] & region));
            } else {
                low[v] = low[v].min(disc[w]);
            }
            continue;
        }
        path.pop();
        let Some(&(p, _)) = path.last() else { break };
        low[p] = low[p].min(low[v]);
        if low[v] < disc[p] {
            continue;
        }
        // `p` closes a block: `v` and the open vertices discovered after it.
        let mut cells = M::EMPTY;
        while let Some(u) = open.pop() {
            cells |= M::cell(u as usize);
            if u as usize == v {
                break;
            }
        }
        // Colours relative to the entry `p`: `near` cells have the other colour.
        let near_mask = if is_dark(p) { !graph.dark } else { graph.dark };
        let n = cells.len();
        let near = (cells & near_mask).len();
        let far = n - near;
        let mut value = n.min(2 * near).min(2 * far + 1);
        for u in cells.ones() {
            if best[u] == 0 {
                continue;
            }
            let segment = if near_mask.contains(u) {
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
        best[p] = best[p].max(value as u16);
    }
    best[root] as u32
}

/// Entries the memo may hold before it starts over (32 bytes each for 128-cell
/// masks, plus the hash table's slack): a larger memo misses the cache more often
/// and does not search faster for what it keeps.
const MEMO_LIMIT: usize = 1 << 18;

/// Entries past which the memo, when full, grows to [`MEMO_LIMIT`] at once.
const MEMO_GROWN: usize = 1 << 16;

/// A memo key: a region and the node the path starts from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct MemoKey<W> {
    /// The region, as words (8-byte alignment keeps 128-cell entries at 32 bytes).
    region: W,
    node: Node,
}

impl<W> MemoKey<W> {
    fn new<M: Mask<Words = W>>(node: Node, region: M) -> Self {
        MemoKey { region: region.words(), node }
    }
}

/// What is known of the longest path from a node into a region: `lo ≤ l ≤ hi`.
#[derive(Clone, Copy, Debug)]
struct Known {
    lo: u16,
    hi: u16,
}

/// Memoized bounds on longest-path lengths; kept across searches of one board.
///
/// Two questions share the memo: the exact length (`longest`) and "is there a path
/// of at least k moves?" (`at_least`), much cheaper when k is well below
/// the length (a first greedy path answers it). Each answer narrows the stored
/// bounds.
#[derive(Debug)]
pub struct LongestPaths<M: Mask = u128> {
    memo: HashMap<MemoKey<M::Words>, Known, BuildHasherDefault<FxHasher>>,
    scratch: BlockScratch<M>,
}

impl<M: Mask> Default for LongestPaths<M> {
    fn default() -> Self {
        LongestPaths { memo: HashMap::default(), scratch: BlockScratch::new() }
    }
}

/// The length of one path from `node` into `region`, up to `limit`: each step to
/// the cell with the fewest onward exits (Warnsdorff's rule), the lowest first on
/// ties.
fn greedy<M: Mask>(graph: &Graph<M>, node: Node, region: M, limit: u16) -> u16 {
    let (mut at, mut left, mut length) = (node as usize, region, 0);
    loop {
        let steps = graph.neighbours[at] & left;
        if steps.is_empty() || length >= limit {
            return length;
        }
        let mut best = (u32::MAX, 0);
        for e in steps.ones() {
            let exits = (graph.neighbours[e] & left).len();
            if exits < best.0 {
                best = (exits, e);
            }
        }
        at = best.1;
        left = left.without(at);
        length += 1;
    }
}

/// The steps from `node` into `region`, fewest onward exits first (Warnsdorff's
/// rule: such steps tend to give long paths early, so searches end sooner).
fn steps_in_order<M: Mask>(graph: &Graph<M>, node: Node, region: M) -> ([Node; 4], usize) {
    let mut order = [(0u32, 0 as Node); 4];
    let mut n = 0;
    for e in (graph.neighbours[node as usize] & region).ones() {
        order[n] = ((graph.neighbours[e] & region).len(), e as Node);
        n += 1;
    }
    order[..n].sort_unstable();
    (order.map(|(_, e)| e), n)
}

impl<M: Mask> LongestPaths<M> {
    /// Entries in the memo.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    /// True when nothing is memoized.
    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }

    /// The stored bounds for (`node`, `region`), or the static ones.
    fn known(&self, graph: &Graph<M>, node: Node, region: M) -> Known {
        match self.memo.get(&MemoKey::new(node, region)) {
            Some(&k) => k,
            None => Known { lo: 0, hi: upper_bound(graph, node, region) as u16 },
        }
    }

    fn remember(&mut self, node: Node, region: M, known: Known) {
        if self.memo.len() >= MEMO_LIMIT {
            self.memo.clear();
        } else if self.memo.len() == self.memo.capacity() && self.memo.len() >= MEMO_GROWN {
            // A memo this big is likely to fill: one move to the full size instead
            // of a rehash at each doubling on the way, which costs a search much.
            self.memo.reserve(MEMO_LIMIT - self.memo.len());
        }
        self.memo.insert(MemoKey::new(node, region), known);
    }

    /// The longest path from `node` into `region` (cells reachable from it).
    pub fn longest(&mut self, graph: &Graph<M>, node: Node, region: M) -> u32 {
        if (graph.neighbours[node as usize] & region).is_empty() {
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
    fn search(&mut self, graph: &Graph<M>, node: Node, region: M, known: Known) -> u32 {
        // A path of `lo` moves is known to exist: only longer ones are of interest.
        let (mut best, mut bound) = (known.lo as u32, known.hi as u32);
        if best < bound {
            let (order, n) = steps_in_order(graph, node, region);
            for (i, &e) in order[..n].iter().enumerate() {
                if i == 1 {
                    // The first step did not reach the bound: before trying the others,
                    // a finer bound, which the best path so far may already reach.
                    bound = bound.min(block_bound(graph, node, region, &mut self.scratch));
                    if best >= bound {
                        break;
                    }
                }
                let rest = graph.region(e, region.without(e as usize));
                if (graph.neighbours[e as usize] & rest).is_empty() {
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
        self.remember(node, region, Known { lo: best as u16, hi: best as u16 });
        best
    }

    /// The value for the side to move at `mover` against `other` when their regions
    /// `mine` and `theirs` are apart: each can only make its longest path, and the
    /// mover, with `a` moves left against `b`, wins iff a > b (it is stuck on ply
    /// 2a + 1, the other on ply 2b + 2). Computes only what it needs: the loser's
    /// exact longest path, and whether the winner's is longer.
    pub fn apart(&mut self, graph: &Graph<M>, mover: Node, other: Node, mine: M, theirs: M) -> Value {
        // The snake with the smaller region is the likely loser: its length first.
        if mine.len() <= theirs.len() {
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

    /// [`Self::apart`] as far as "is the value at least `threshold`?" needs
    /// ([`ValueBound`]): from the bounds on both longest paths known without a
    /// search (the memo's or the colours', and a greedy walk) if they answer, else
    /// the value. The value, `Win(2b + 1)` if a > b else `Loss(2a)` (`a`, `b` the
    /// mover's and the other's longest paths), rises with `a` and falls with `b`:
    /// over the bounds it is least at (a_lo, b_hi) and greatest at (a_hi, b_lo).
    pub fn apart_against(
        &mut self,
        graph: &Graph<M>,
        mover: Node,
        other: Node,
        mine: M,
        theirs: M,
        threshold: Value,
    ) -> ValueBound {
        let value = |a: u32, b: u32| if a > b { Value::Win(2 * b + 1) } else { Value::Loss(2 * a) };
        let (a, b) = (self.bounds(graph, mover, mine), self.bounds(graph, other, theirs));
        let least = value(a.lo as u32, b.hi as u32);
        if least >= threshold {
            return if a.lo == a.hi && b.lo == b.hi { ValueBound::Exact(least) } else { ValueBound::AtLeast(least) };
        }
        let most = value(a.hi as u32, b.lo as u32);
        if most < threshold {
            return ValueBound::AtMost(most);
        }
        ValueBound::Exact(self.apart(graph, mover, other, mine, theirs))
    }

    /// The bounds on the longest path from `node` into `region` known without a
    /// search: the memo's or the colours', the lower one raised by a greedy walk.
    fn bounds(&mut self, graph: &Graph<M>, node: Node, region: M) -> Known {
        if (graph.neighbours[node as usize] & region).is_empty() {
            return Known { lo: 0, hi: 0 };
        }
        let mut known = self.known(graph, node, region);
        if known.lo < known.hi {
            known.lo = known.lo.max(greedy(graph, node, region, known.hi));
        }
        known
    }

    /// Whether a path of at least `k` moves leads from `node` into `region` (cells
    /// reachable from it).
    pub fn at_least(&mut self, graph: &Graph<M>, node: Node, region: M, k: u32) -> bool {
        if k == 0 {
            return true;
        }
        if (graph.neighbours[node as usize] & region).is_empty() {
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
        let walk = greedy(graph, node, region, k as u16);
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
                // The first step did not make it: the finer bound may say no to all,
                // and is kept for later questions either way.
                let bound = block_bound(graph, node, region, &mut self.scratch);
                known.hi = known.hi.min(bound as u16);
                if bound < k {
                    break;
                }
            }
            let rest = graph.region(e, region.without(e as usize));
            if self.at_least(graph, e, rest, k - 1) {
                found = true;
                break;
            }
        }
        if found {
            known.lo = k as u16;
        } else {
            known.hi = known.hi.min(k as u16 - 1);
        }
        self.remember(node, region, known);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::super::mask::Mask256;
    use super::*;
    use crate::rng::SplitMix64;

    /// A rows×cols grid with every cell a node, cell i (row-major) being node
    /// `offset + i`; nodes below `offset` have no neighbours.
    fn grid<M: Mask>(rows: usize, cols: usize, offset: usize) -> Graph<M> {
        let bit = |i: usize| M::cell(offset + i);
        let mut neighbours = vec![M::EMPTY; offset];
        neighbours.extend((0..rows * cols).map(|i| {
            let (r, c) = (i / cols, i % cols);
            let mut m = M::EMPTY;
            if r > 0 {
                m |= bit(i - cols);
            }
            if r + 1 < rows {
                m |= bit(i + cols);
            }
            if c > 0 {
                m |= bit(i - 1);
            }
            if c + 1 < cols {
                m |= bit(i + 1);
            }
            m
        }));
        let dark = (0..rows * cols)
            .filter(|i| (offset + i / cols + i % cols).is_multiple_of(2))
            .fold(M::EMPTY, |m, i| m | bit(i));
        Graph::new(neighbours, dark)
    }

    /// The longest simple path from `node` through `free`, by trying every one.
    fn brute<M: Mask>(g: &Graph<M>, node: usize, free: M) -> u32 {
        (g.neighbours[node] & free).ones().map(|e| 1 + brute(g, e, free.without(e))).max().unwrap_or(0)
    }

    /// Both bounds hold and the memoized search is exact, on random regions of small
    /// grids (one memo for all the regions of a grid, so stored bounds are reused);
    /// the grid's cells start at bit `offset`.
    fn bounds_and_searches<M: Mask>(seed: u64, max_offset: u64) {
        let mut rng = SplitMix64::new(seed);
        let mut tight = 0;
        for _ in 0..300 {
            let (rows, cols) = (2 + rng.below(5) as usize, 2 + rng.below(5) as usize);
            let offset = rng.below(max_offset + 1) as usize;
            let g = grid::<M>(rows, cols, offset);
            let mut memo = LongestPaths::default();
            let mut scratch = BlockScratch::new();
            for _ in 0..20 {
                let keep = 4 + rng.below(6);
                let free =
                    (0..rows * cols).filter(|_| rng.chance(keep, 10)).fold(M::EMPTY, |m, i| m | M::cell(offset + i));
                let node = (offset + rng.below((rows * cols) as u64) as usize) as Node;
                let free = free.without(node as usize);
                let region = g.region(node, free);
                let truth = brute(&g, node as usize, region);
                let (cheap, fine) = (upper_bound(&g, node, region), block_bound(&g, node, region, &mut scratch));
                assert!(
                    cheap >= truth && fine >= truth,
                    "{rows}x{cols}+{offset} free {free:?} node {node}: {truth} > {cheap} or {fine}"
                );
                tight += usize::from(fine == truth);
                let k = rng.below(u64::from(truth) + 3) as u32;
                assert_eq!(
                    memo.at_least(&g, node, region, k),
                    truth >= k,
                    "{rows}x{cols}+{offset} free {free:?} node {node}, k {k}"
                );
                assert_eq!(memo.longest(&g, node, region), truth, "{rows}x{cols}+{offset} free {free:?} node {node}");
            }
        }
        assert!(tight > 5000, "the block bound is mostly exact on such regions: {tight} of 6000");
    }

    #[test]
    fn bounds_hold_and_searches_are_exact() {
        bounds_and_searches::<u128>(0xb10c, 128 - 36);
    }

    /// The same on 256-cell masks, the grids placed anywhere in them (across the
    /// words' boundaries too).
    #[test]
    fn bounds_hold_and_searches_are_exact_on_wide_masks() {
        bounds_and_searches::<Mask256>(0xb10d, 256 - 36);
    }

    /// A path through every cell of a 16×16 region, 256 cells (the widest mask
    /// full): found by the greedy walk and the bounds; a path of 255 moves from a
    /// corner of the full grid, whose start cell is not free.
    #[test]
    fn a_full_wide_grid_has_a_path_through_every_cell() {
        let g = grid::<Mask256>(16, 16, 0);
        let mut memo = LongestPaths::default();
        let free = Mask256::first(256).without(0);
        let region = g.region(0, free);
        assert_eq!(region, free);
        assert_eq!(memo.longest(&g, 0, region), 255);
        assert!(memo.at_least(&g, 0, region, 255));
        assert!(!memo.at_least(&g, 0, region, 256));
        assert_eq!(Graph::checked(g.neighbours.clone(), g.dark).map(|c| c.neighbours.len()), Some(256));
    }
}
