//! The two snakes (alternating "Tron"): "snakes".
//!
//! Rules (GAMES.md §4): two snakes on a grid with obstacles move alternately, snake 1
//! first; each turn the snake must move its head to an orthogonally adjacent empty
//! cell, and every cell a snake has been on stays blocked. A snake with no empty
//! neighbour on its turn is stuck and loses. There are no draws.
//!
//! As an engine game: the board's empty cells are numbered 0..E (E ≤ 256); a
//! position is the set of cells still free (a bit mask: 128 bits where E ≤ 128, else
//! 256, module `mask`), both heads and the side to move. The heads' start cells get the numbers E and E + 1 (never free). A stuck
//! snake has no move: a loss at remoteness 0 (the engine's rule), so the contest's
//! count, the ply on which the loser is stuck, is remoteness + 1.
//!
//! Every move uses up a free cell, so the game is acyclic and the engine's alpha-beta
//! search solves it, with the game's help ([`SearchHooks`]):
//! - once the snakes can no longer reach each other the game is two solitaires:
//!   [`SearchHooks::exact_value`] gives the value from each snake's longest path in
//!   its own region (module [`crate::graph`]);
//! - moves are tried in order of the territory they leave the mover (the cells it
//!   reaches before the other snake: [`SearchHooks::order_key`]);
//! - the table key drops the free cells neither snake can reach any more, which
//!   play no part, and folds the board's symmetries ([`SearchHooks::table_key`]):
//!   positions that differ only there share one entry.
//!
//! Masks are walked cell by cell through a table of neighbour masks, whatever the
//! board's shape (shifts of a 128-bit mask, tried too, were slower: the node numbers
//! of vertical neighbours differ by as many amounts as rows have obstacles, and the
//! sets spread in a search are small; one shift a direction where the rows hold
//! the same number of empty cells, as on an open board, was no faster either).

mod format;
mod plain;

pub use crate::graph::{Graph, LongestPaths, Mask, Mask256, Node, Ones128, Ones256, Voronoi};
pub use format::{parse_boards, Cell, SnakesBoard, MAX_EMPTY, MAX_SIDE};
pub use plain::parse_plain;

use crate::notation::{Coord, Explain, PieceMove};
use gsolve_engine::search::{SearchHooks, ValueBound};
use gsolve_engine::{Game, Outcome, Value};
use std::cell::RefCell;

/// The game on one board, its free cells kept in masks of type `M` ([`Mask`]: `u128`
/// for boards of at most 128 empty cells, [`Mask256`] for at most 256).
#[derive(Debug)]
pub struct Snakes<M: Mask = u128> {
    /// Grid coordinates of each node: empty cells 0..E, then the two start cells.
    coords: Vec<Coord>,
    /// Neighbours and colours of the cells.
    graph: Graph<M>,
    start: SnakesPosition<M>,
    longest: RefCell<LongestPaths<M>>,
    /// The board's symmetries other than the identity.
    symmetries: Vec<Symmetry<M>>,
    /// Board size.
    rows: u32,
    cols: u32,
    /// The node of each grid cell (row-major), `u32::MAX` for an obstacle.
    node_of: Vec<u32>,
    /// The board as given: which blocked cells are obstacles and which bodies.
    board: Vec<Cell>,
    /// How the cells of recently ordered positions split between the heads.
    splits: RefCell<SplitCache<M>>,
    /// The last position [`SearchHooks::exact_value`] found the snakes together in,
    /// with the free cells either can reach: the search asks for its
    /// [`SearchHooks::table_key`] next.
    live: std::cell::Cell<(SnakesPosition<M>, M)>,
}

/// Entries of a search table for the snakes: 2^18, for boards of at most 128 empty
/// cells. A smaller table forgets more, a larger one misses the cache more often;
/// this size sits between the two, well below the engine's default.
pub const SEARCH_TABLE_ENTRIES: usize = 1 << 18;

/// Slots of the [`SplitCache`] (a power of two).
const SPLIT_SLOTS: usize = 1 << 10;

/// A small direct-mapped cache of [`Snakes::voronoi`] splits by position. The search
/// orders a node's children by their splits shortly before it visits them, and a
/// split tells whether the snakes are together and what each can reach: the child's
/// [`SearchHooks::exact_value`] needs no flood of its own. A slot taken over by
/// another position in between only costs that flood.
#[derive(Debug)]
struct SplitCache<M> {
    slots: Vec<Option<(SnakesPosition<M>, Voronoi<M>)>>,
}

impl<M: Mask> SplitCache<M> {
    fn new() -> Self {
        SplitCache { slots: vec![None; SPLIT_SLOTS] }
    }

    fn slot(p: &SnakesPosition<M>) -> usize {
        let x = p.free.fold() ^ u64::from(p.heads[0]) << 7 ^ u64::from(p.heads[1]) << 19 ^ u64::from(p.to_move) << 31;
        // Fibonacci hashing: the top bits of the product.
        (x.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - SPLIT_SLOTS.trailing_zeros())) as usize
    }

    fn insert(&mut self, p: &SnakesPosition<M>, split: Voronoi<M>) {
        self.slots[Self::slot(p)] = Some((*p, split));
    }

    fn get(&self, p: &SnakesPosition<M>) -> Option<Voronoi<M>> {
        match self.slots[Self::slot(p)] {
            Some((q, split)) if q == *p => Some(split),
            _ => None,
        }
    }
}

/// A map of an n×m grid, (row, col, n, m) -> (row, col).
type GridMap = fn(u32, u32, u32, u32) -> (u32, u32);

/// A symmetry of the board (a reflection or rotation of the grid that maps its empty
/// cells onto themselves, hence the heads' start cells onto themselves), as a
/// permutation of the nodes.
#[derive(Debug)]
struct Symmetry<M> {
    /// The image of each node.
    node: Vec<Node>,
    /// `byte[j][v]`: the image of the mask `v << 8j`, for the bytes that hold empty
    /// cells (free masks map a byte at a time).
    byte: Vec<[M; 256]>,
}

impl<M: Mask> Symmetry<M> {
    /// The symmetries of a board, but the identity; `node` numbers its cells (row-major,
    /// `u32::MAX` for obstacles), the first `empty` numbers being the empty cells.
    fn of_board(board: &SnakesBoard, node: &[u32], empty: usize) -> Vec<Symmetry<M>> {
        let (rows, cols) = (board.rows, board.cols);
        // The seven other maps of the square (r, c) -> (r', c'); those that turn the
        // grid need it square.
        let maps: [(bool, GridMap); 7] = [
            (false, |r, c, n, _| (n - 1 - r, c)),
            (false, |r, c, _, m| (r, m - 1 - c)),
            (false, |r, c, n, m| (n - 1 - r, m - 1 - c)),
            (true, |r, c, _, _| (c, r)),
            (true, |r, c, n, _| (n - 1 - c, n - 1 - r)),
            (true, |r, c, n, _| (c, n - 1 - r)),
            (true, |r, c, n, _| (n - 1 - c, r)),
        ];
        let mut out = Vec::new();
        for (square_only, map) in maps {
            if square_only && rows != cols {
                continue;
            }
            let image = |r: u32, c: u32| {
                let (r2, c2) = map(r, c, rows, cols);
                node[(r2 * cols + c2) as usize]
            };
            // Nodes to nodes, empty cells to empty cells (then the start cells, the
            // only other nodes, go to start cells).
            let mut perm = vec![0 as Node; empty + 2];
            let mut fits = true;
            for r in 0..rows {
                for c in 0..cols {
                    let from = node[(r * cols + c) as usize];
                    if from == u32::MAX {
                        continue;
                    }
                    let to = image(r, c);
                    if to == u32::MAX || (from as usize) < empty && (to as usize) >= empty {
                        fits = false;
                    } else {
                        perm[from as usize] = to as Node;
                    }
                }
            }
            if !fits {
                continue;
            }
            let mut byte = vec![[M::EMPTY; 256]; empty.div_ceil(8)];
            for (j, table) in byte.iter_mut().enumerate() {
                // Each byte's image: that of the byte without its lowest bit, and the
                // lowest bit's.
                for v in 1..256 {
                    let low = 8 * j + (v as u32).trailing_zeros() as usize;
                    table[v] = table[v & (v - 1)] | if low < empty { M::cell(perm[low] as usize) } else { M::EMPTY };
                }
            }
            out.push(Symmetry { node: perm, byte });
        }
        out
    }

    /// The image of a pair of heads.
    #[inline]
    fn heads(&self, heads: [Node; 2]) -> [Node; 2] {
        heads.map(|h| self.node[h as usize])
    }

    /// The image of a position.
    fn apply(&self, p: &SnakesPosition<M>) -> SnakesPosition<M> {
        let mut free = M::EMPTY;
        for (j, table) in self.byte.iter().enumerate() {
            free |= table[p.free.byte(j) as usize];
        }
        SnakesPosition { free, heads: p.heads.map(|h| self.node[h as usize]), to_move: p.to_move }
    }
}

/// The value for the side to move when the snakes' regions are apart: each can
/// only make its longest path. The mover, with `a` moves left against `b`, is
/// stuck on ply 2a + 1, the other on ply 2b + 2: the mover wins iff a > b.
pub fn separated_value(a: u32, b: u32) -> Value {
    if a > b {
        Value::Win(2 * b + 1)
    } else {
        Value::Loss(2 * a)
    }
}

/// Something to do with the game of a board, whatever the width of its masks
/// ([`with_game`]): Rust closures cannot be generic, so the task is a type.
pub trait SnakesTask {
    /// What the task returns.
    type Output;
    /// Does the task with the game.
    fn run<M: Mask>(self, game: Snakes<M>) -> Self::Output;
}

/// Runs `task` on the game of `board` with the narrowest masks that hold its empty
/// cells: `u128` up to 128 (the faster), [`Mask256`] up to 256.
pub fn with_game<T: SnakesTask>(board: &SnakesBoard, task: T) -> T::Output {
    if board.empty_cells() <= u128::CELLS {
        task.run(Snakes::<u128>::new(board))
    } else {
        task.run(Snakes::<Mask256>::new(board))
    }
}

/// A position: the free cells, both heads (node numbers) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SnakesPosition<M = u128> {
    /// Bit i: empty cell i is still free.
    pub free: M,
    /// Heads of snake 1 and snake 2.
    pub heads: [Node; 2],
    /// 0 when snake 1 is to move, 1 for snake 2.
    pub to_move: u8,
}

impl<M: Mask> Snakes<M> {
    /// The game on a board (checked by [`parse_boards`]: two heads) of at most
    /// `M::CELLS` empty cells; [`AnySnakes::new`] picks the width.
    pub fn new(board: &SnakesBoard) -> Self {
        let (rows, cols) = (board.rows, board.cols);
        let mut node = vec![u32::MAX; (rows * cols) as usize];
        let mut coords = Vec::new();
        for pass in [Cell::Empty, Cell::Snake1, Cell::Snake2] {
            for r in 0..rows {
                for c in 0..cols {
                    if board.cell(r, c) == pass {
                        node[(r * cols + c) as usize] = coords.len() as u32;
                        coords.push(Coord { row: r + 1, col: c + 1 });
                    }
                }
            }
        }
        let empty = coords.len() - 2;
        assert!(empty <= M::CELLS, "at most {} empty cells in this mask", M::CELLS);
        let neighbours: Vec<M> = coords
            .iter()
            .map(|c| {
                let (r, col) = (c.row - 1, c.col - 1);
                let around = [(r.wrapping_sub(1), col), (r + 1, col), (r, col.wrapping_sub(1)), (r, col + 1)];
                around
                    .into_iter()
                    .filter(|&(r, c)| r < rows && c < cols)
                    .map(|(r, c)| node[(r * cols + c) as usize])
                    .filter(|&n| (n as usize) < empty)
                    .fold(M::EMPTY, |m, n| m | M::cell(n as usize))
            })
            .collect();
        let dark =
            (0..empty).filter(|&i| (coords[i].row + coords[i].col) % 2 == 0).fold(M::EMPTY, |m, i| m | M::cell(i));
        let start = SnakesPosition { free: M::first(empty), heads: [empty as Node, empty as Node + 1], to_move: 0 };
        let symmetries = Symmetry::of_board(board, &node, empty);
        Snakes {
            coords,
            graph: Graph::new(neighbours, dark),
            start,
            longest: RefCell::new(LongestPaths::default()),
            symmetries,
            rows,
            cols,
            node_of: node,
            board: board.cells.clone(),
            splits: RefCell::new(SplitCache::new()),
            live: std::cell::Cell::new((SnakesPosition { free: M::EMPTY, heads: [0, 0], to_move: 0 }, M::EMPTY)),
        }
    }

    /// The board's start: snake 1 to move.
    pub fn start(&self) -> SnakesPosition<M> {
        self.start
    }

    /// Number of empty cells at the start.
    pub fn empty_cells(&self) -> u32 {
        self.coords.len() as u32 - 2
    }

    /// Where a node is.
    pub fn coord(&self, node: Node) -> Coord {
        self.coords[node as usize]
    }

    /// The contest's answer for a value of a position with `to_move` to move:
    /// `w k`, the winner and the ply on which the loser is stuck.
    pub fn verdict(position: &SnakesPosition<M>, value: Value) -> String {
        let mover = position.to_move + 1;
        let other = 3 - mover;
        match value {
            Value::Win(r) => format!("{mover} {}", r + 1),
            Value::Loss(r) => format!("{other} {}", r + 1),
            Value::Tie(_) | Value::Draw => unreachable!("the snakes game always ends"),
        }
    }

    /// Whose body each node is in `p` (0: snake 1, 1: snake 2), for drawing; only
    /// entries of cells that are blocked and not heads mean anything. A snake's start
    /// cell is its own; a cell visited since the start is given to the snake whose
    /// start reaches it first through blocked cells, both spreading one step at a time
    /// (snake 1 first). That is exact one move after the start, which is all the front
    /// ends show from one game (each position they show is a board of its own), and
    /// close enough for longer lines: values never depend on it.
    pub fn bodies(&self, p: &SnakesPosition<M>) -> Vec<u8> {
        let nodes = self.coords.len();
        let empty = self.empty_cells() as usize;
        let occupied = |n: usize| n >= empty || !p.free.contains(n);
        let mut owner = vec![u8::MAX; nodes];
        let mut frontier: Vec<(usize, u8)> = vec![(empty, 0), (empty + 1, 1)];
        owner[empty] = 0;
        owner[empty + 1] = 1;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &(n, snake) in &frontier {
                let Coord { row, col } = self.coords[n];
                let (r, c) = (row - 1, col - 1);
                for (nr, nc) in [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)] {
                    if nr >= self.rows || nc >= self.cols {
                        continue;
                    }
                    let m = self.node_of[(nr * self.cols + nc) as usize];
                    if m != u32::MAX && occupied(m as usize) && owner[m as usize] == u8::MAX {
                        owner[m as usize] = snake;
                        next.push((m as usize, snake));
                    }
                }
            }
            frontier = next;
        }
        owner.iter().map(|&o| if o == u8::MAX { 0 } else { o }).collect()
    }

    /// Free cells reachable from `node` through free cells (not counting `node`).
    pub fn region(&self, node: Node, free: M) -> M {
        self.graph.region(node, free)
    }

    /// The heads (mover's first) and their regions if the snakes can no longer meet;
    /// `None` if they can (then the cells either can reach are kept for the table
    /// key that comes next).
    fn apart(&self, p: &SnakesPosition<M>) -> Option<(Node, Node, M, M)> {
        let mover = p.heads[p.to_move as usize];
        let other = p.heads[1 - p.to_move as usize];
        // The split made when the parent ordered its moves tells all, if still known
        // (its `b` is the head to move).
        let known = self.splits.borrow().get(p);
        if let Some(split) = known {
            if split.together {
                self.live.set((*p, split.a | split.b));
                return None;
            }
            // Apart, each head's cells are its region.
            return Some((mover, other, split.b, split.a));
        }
        // A region is closed under free neighbours: the snakes are apart exactly when
        // none of the other head's free neighbours is in the mover's region.
        let g = &self.graph;
        let mine = g.region(mover, p.free);
        let theirs = g.neighbours[other as usize] & p.free;
        if (mine & theirs).is_empty() {
            return Some((mover, other, mine, g.region(other, p.free)));
        }
        let live = mine | g.flood(theirs & !mine, p.free);
        self.live.set((*p, live));
        None
    }

    /// The free cells either snake can reach: kept by [`SearchHooks::exact_value`]
    /// for the position it last found the snakes together in, else flooded.
    fn live_cells(&self, p: &SnakesPosition<M>) -> M {
        match self.live.get() {
            (q, live) if q == *p => live,
            _ => {
                let g = &self.graph;
                g.flood((g.neighbours[p.heads[0] as usize] | g.neighbours[p.heads[1] as usize]) & p.free, p.free)
            }
        }
    }

    fn voronoi(&self, a: Node, b: Node, free: M) -> Voronoi<M> {
        self.graph.voronoi(a, b, free)
    }

    /// The longest path from `node` through the free cells of its region.
    pub fn longest_path(&self, node: Node, free: M) -> u32 {
        let region = self.region(node, free);
        self.longest.borrow_mut().longest(&self.graph, node, region)
    }
}

impl<M: Mask> Game for Snakes<M> {
    type Position = SnakesPosition<M>;
    /// The empty cell the mover's head goes to.
    type Move = Node;

    fn terminal(&self, _: &SnakesPosition<M>) -> Option<Outcome> {
        None
    }

    fn moves(&self, p: &SnakesPosition<M>, moves: &mut Vec<Node>) {
        let options = self.graph.neighbours[p.heads[p.to_move as usize] as usize] & p.free;
        moves.extend(options.ones().map(|to| to as Node));
    }

    #[inline]
    fn play(&self, p: &SnakesPosition<M>, &to: &Node) -> SnakesPosition<M> {
        let mut heads = p.heads;
        heads[p.to_move as usize] = to;
        SnakesPosition { free: p.free.without(to as usize), heads, to_move: 1 - p.to_move }
    }

    #[inline]
    fn for_each_child(&self, p: &SnakesPosition<M>, mut f: impl FnMut(SnakesPosition<M>)) {
        let options = self.graph.neighbours[p.heads[p.to_move as usize] as usize] & p.free;
        for to in options.ones() {
            f(self.play(p, &(to as Node)));
        }
    }

    fn move_count(&self, p: &SnakesPosition<M>) -> usize {
        (self.graph.neighbours[p.heads[p.to_move as usize] as usize] & p.free).len() as usize
    }
}

impl<M: Mask> SearchHooks for Snakes<M> {
    /// Apart, the snakes play two solitaires: the value follows from their longest paths.
    fn exact_value(&self, p: &SnakesPosition<M>) -> Option<Value> {
        let (mover, other, mine, theirs) = self.apart(p)?;
        Some(self.longest.borrow_mut().apart(&self.graph, mover, other, mine, theirs))
    }

    /// Apart, the bounds on both longest paths known without a search may answer;
    /// else the value.
    fn value_bound(&self, p: &SnakesPosition<M>, threshold: Value) -> Option<ValueBound> {
        let (mover, other, mine, theirs) = self.apart(p)?;
        Some(self.longest.borrow_mut().apart_against(&self.graph, mover, other, mine, theirs, threshold))
    }

    /// Free cells neither snake can reach play no part: the key keeps only the others
    /// (the moves, onto reachable cells, keep their order); and of a position's
    /// images under the board's symmetries, the key is the smallest by heads, then
    /// by free cells. Heads map by two lookups and seldom tie: only the images whose
    /// heads are the smallest get their cells mapped (a mask maps byte by byte, a
    /// table lookup each; mapping all seven images costs more than the ties it
    /// would settle).
    fn table_key(&self, p: &SnakesPosition<M>) -> (SnakesPosition<M>, bool) {
        let base = SnakesPosition { free: self.live_cells(p), ..*p };
        let least = self.symmetries.iter().map(|s| s.heads(p.heads)).fold(p.heads, |a, b| a.min(b));
        let mut key = base;
        let mut same_order = true;
        for symmetry in self.symmetries.iter().filter(|s| s.heads(p.heads) == least) {
            let image = symmetry.apply(&base);
            if key.heads != least || image.free < key.free {
                key = image;
                same_order = false;
            }
        }
        (key, same_order)
    }

    /// Territory after the move: the cells the mover reaches strictly before the
    /// other snake (to move next), minus the other's. The split also tells whether the
    /// snakes are together and what each can reach: kept for
    /// [`SearchHooks::exact_value`] when the search gets to the child.
    fn order_key(&self, _parent: &SnakesPosition<M>, child: &SnakesPosition<M>) -> i32 {
        let split =
            self.voronoi(child.heads[1 - child.to_move as usize], child.heads[child.to_move as usize], child.free);
        self.splits.borrow_mut().insert(child, split);
        split.a.len() as i32 - split.b.len() as i32
    }
}

impl<M: Mask> Explain for Snakes<M> {
    fn side_to_move(&self, p: &SnakesPosition<M>) -> &'static str {
        if p.to_move == 0 {
            "snake 1"
        } else {
            "snake 2"
        }
    }

    fn describe_move(&self, p: &SnakesPosition<M>, &to: &Node) -> PieceMove {
        PieceMove::new(self.side_to_move(p), self.coord(p.heads[p.to_move as usize]), self.coord(to))
    }

    fn describe_end(&self, p: &SnakesPosition<M>) -> Option<String> {
        Some(format!("{} is stuck at {}", self.side_to_move(p), self.coord(p.heads[p.to_move as usize])))
    }
}
