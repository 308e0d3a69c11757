//! Trail races: rules games that are the two snakes on another graph, and what the
//! search learns from that.
//!
//! A game is a race when every piece leaves a trail, every move is one step onto an
//! empty cell (no captures, no staying, one piece a turn), both sides step alike,
//! the only ending is being stuck (a loss), and the steps make an undirected graph
//! of degree at most 4 that two colours colour (an orthogonal grid, or diagonal
//! steps): then a position with one piece a side is the two snakes on that graph,
//! and the snakes' search knowledge applies unchanged
//! ([`gsolve_games::graph::Graph`]):
//! - once the two pieces can no longer reach each other, the value follows from
//!   each one's longest path in its own region (exact, no search);
//! - moves are tried in order of the territory they leave the mover;
//! - the table key turns the free cells neither piece can reach into walls.
//!
//! Cells are the board's playable cells (at most 128 in a game with trails): bit
//! `c` of a mask is cell `c`.

use crate::compiled::position::{cell_of, group_of, RulesPosition};
use crate::compiled::tables::Tables;
use crate::language::spec::{Ending, Turn};
use gsolve_engine::{Outcome, Value};
use gsolve_games::graph::{Graph, LongestPaths, Node};
use std::sync::Mutex;

/// The step graph of a race, and the longest paths found in it.
#[derive(Debug)]
pub(crate) struct Race {
    graph: Graph,
    /// Every playable cell.
    cells: u128,
    /// Paths measured by this game's searches (regions recur).
    longest: Mutex<LongestPaths>,
}

impl Race {
    /// The race a game is, if it is one (module documentation).
    pub(crate) fn of(tables: &Tables) -> Option<Race> {
        let rules = tables.rules();
        let board = tables.board();
        let cells = board.cells();
        let plain_kinds = rules.kinds.iter().all(|k| k.trail && !k.stay);
        let one_piece = rules.sides.iter().all(|s| s.turn == Turn::OnePiece);
        let stuck_loses = rules.endings.iter().all(|e| matches!(e, Ending::Stuck { result: Outcome::Loss }));
        if !plain_kinds || !one_piece || !stuck_loses || cells > 128 || board.groups.is_empty() {
            return None;
        }
        // Each group's steps from each cell; every group must step alike.
        let steps = |g: usize| -> Option<Vec<u128>> {
            (0..cells as u32)
                .map(|c| {
                    let mut mask = 0u128;
                    for ray in board.rays(g, c) {
                        let targets = board.ray_cells(ray);
                        if ray.onto.enemy() || targets.len() > 1 {
                            return None;
                        }
                        mask |= targets.iter().fold(0u128, |m, &t| m | 1u128 << t);
                    }
                    Some(mask)
                })
                .collect()
        };
        let neighbours = steps(0)?;
        for g in 1..board.groups.len() {
            if steps(g)? != neighbours {
                return None;
            }
        }
        let dark = two_colouring(&neighbours)?;
        let graph = Graph::checked(neighbours, dark)?;
        let all = if cells == 128 { u128::MAX } else { (1u128 << cells) - 1 };
        Some(Race { graph, cells: all, longest: Mutex::new(LongestPaths::default()) })
    }

    /// The heads (mover's first) and the free cells, when the position is a race
    /// position: play goes on, one piece a side.
    fn heads(&self, tables: &Tables, p: &RulesPosition) -> Option<(Node, Node, u128)> {
        let pieces = p.packed();
        if p.ended() != 0 || pieces.len() != 2 {
            return None;
        }
        let (a, b) = (pieces[0], pieces[1]);
        let (side_a, side_b) = (tables.side_of(group_of(a)), tables.side_of(group_of(b)));
        if side_a == side_b {
            return None;
        }
        let (mover, other) = if side_a == p.to_move() { (a, b) } else { (b, a) };
        let (mover, other) = (cell_of(mover) as Node, cell_of(other) as Node);
        let free = self.cells & !p.walls() & !(1u128 << mover) & !(1u128 << other);
        Some((mover, other, free))
    }

    /// The value when the pieces can no longer meet.
    pub(crate) fn exact_value(&self, tables: &Tables, p: &RulesPosition) -> Option<Value> {
        let (mover, other, free) = self.heads(tables, p)?;
        let g = &self.graph;
        let mine = g.region(mover, free);
        // A region is closed under free neighbours: apart exactly when none of the
        // other piece's free neighbours is in the mover's region.
        if mine & g.neighbours[other as usize] & free != 0 {
            return None;
        }
        let theirs = g.region(other, free);
        let mut longest = self.longest.lock().unwrap_or_else(|e| e.into_inner());
        Some(longest.apart(g, mover, other, mine, theirs))
    }

    /// The position with every free cell neither piece can reach made a wall: such
    /// cells play no part, and the moves (onto reachable cells) keep their order.
    pub(crate) fn table_key(&self, tables: &Tables, p: &RulesPosition) -> Option<RulesPosition> {
        let (mover, other, free) = self.heads(tables, p)?;
        let g = &self.graph;
        let live = g.flood((g.neighbours[mover as usize] | g.neighbours[other as usize]) & free, free);
        let mut key = *p;
        key.add_walls(free & !live);
        Some(key)
    }

    /// The territory the move to `child` leaves the side that made it: the cells it
    /// reaches strictly before the other piece, minus the other's.
    pub(crate) fn order_key(&self, tables: &Tables, child: &RulesPosition) -> i32 {
        let Some((to_move, moved, free)) = self.heads(tables, child) else { return 0 };
        let split = self.graph.voronoi(moved, to_move, free);
        split.a.count_ones() as i32 - split.b.count_ones() as i32
    }
}

impl Clone for Race {
    /// The same graph with an empty store of paths.
    fn clone(&self) -> Self {
        Race { graph: self.graph.clone(), cells: self.cells, longest: Mutex::new(LongestPaths::default()) }
    }
}

/// A colouring of the graph with two colours (bit set: dark) such that every step
/// changes colour, if there is one.
fn two_colouring(neighbours: &[u128]) -> Option<u128> {
    let n = neighbours.len();
    let mut colour: Vec<Option<bool>> = vec![None; n];
    for start in 0..n {
        if colour[start].is_some() {
            continue;
        }
        colour[start] = Some(false);
        let mut stack = vec![start];
        while let Some(a) = stack.pop() {
            let here = colour[a]?;
            let mut mask = neighbours[a];
            while mask != 0 {
                let b = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                match colour.get(b).copied()? {
                    None => {
                        colour[b] = Some(!here);
                        stack.push(b);
                    }
                    Some(c) if c == here => return None,
                    Some(_) => {}
                }
            }
        }
    }
    Some(colour.iter().enumerate().fold(0u128, |m, (i, c)| if *c == Some(true) { m | 1u128 << i } else { m }))
}
