//! The two snakes (alternating "Tron"): "snakes".
//!
//! Rules (GAMES.md §4): two snakes on a grid with obstacles move alternately, snake 1
//! first; each turn the snake must move its head to an orthogonally adjacent empty
//! cell, and every cell a snake has been on stays blocked. A snake with no empty
//! neighbour on its turn is stuck and loses. There are no draws.
//!
//! As an engine game: the board's empty cells are numbered 0..E (E ≤ 128); a
//! position is the set of cells still free (a 128-bit mask), both heads and the side
//! to move. The heads' start cells get the numbers E and E + 1 (never free). A stuck
//! snake has no move: a loss at remoteness 0 (the engine's rule), so the contest's
//! count, the ply on which the loser is stuck, is remoteness + 1.
//!
//! Every move uses up a free cell, so the game is acyclic and the engine's alpha-beta
//! search solves it. Once the snakes can no longer reach each other the game is two
//! solitaires: [`SearchHooks::exact_value`] then gives the value from each snake's
//! longest path in its own region ([`longest_path`]).

mod format;
mod longest_path;

pub use format::{parse_boards, Cell, SnakesBoard, MAX_EMPTY, MAX_SIDE};
pub use longest_path::LongestPaths;

use crate::notation::{Coord, Explain, PieceMove};
use gsolve_engine::search::SearchHooks;
use gsolve_engine::{Game, Outcome, Value};
use std::cell::RefCell;

/// The game on one board.
#[derive(Debug)]
pub struct Snakes {
    /// Grid coordinates of each node: empty cells 0..E, then the two start cells.
    coords: Vec<Coord>,
    /// Empty-cell neighbours of each node, as a mask.
    neighbours: Vec<u128>,
    /// Colour of each empty cell on the chessboard pattern (for path-length bounds).
    dark: u128,
    start: SnakesPosition,
    longest: RefCell<LongestPaths>,
}

/// A position: the free cells, both heads (node numbers) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SnakesPosition {
    /// Bit i: empty cell i is still free.
    pub free: u128,
    /// Heads of snake 1 and snake 2.
    pub heads: [u8; 2],
    /// 0 when snake 1 is to move, 1 for snake 2.
    pub to_move: u8,
}

impl Snakes {
    /// The game on a board (checked by [`parse_boards`]: two heads, ≤ 128 empty cells).
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
        assert!(empty <= MAX_EMPTY, "at most {MAX_EMPTY} empty cells");
        let neighbours = coords
            .iter()
            .map(|c| {
                let (r, col) = (c.row - 1, c.col - 1);
                let around = [(r.wrapping_sub(1), col), (r + 1, col), (r, col.wrapping_sub(1)), (r, col + 1)];
                around
                    .into_iter()
                    .filter(|&(r, c)| r < rows && c < cols)
                    .map(|(r, c)| node[(r * cols + c) as usize])
                    .filter(|&n| (n as usize) < empty)
                    .fold(0u128, |m, n| m | 1 << n)
            })
            .collect();
        let dark = (0..empty).filter(|&i| (coords[i].row + coords[i].col) % 2 == 0).fold(0u128, |m, i| m | 1 << i);
        let all = if empty == 128 { u128::MAX } else { (1u128 << empty) - 1 };
        let start = SnakesPosition { free: all, heads: [empty as u8, empty as u8 + 1], to_move: 0 };
        Snakes { coords, neighbours, dark, start, longest: RefCell::new(LongestPaths::default()) }
    }

    /// The board's start: snake 1 to move.
    pub fn start(&self) -> SnakesPosition {
        self.start
    }

    /// Number of empty cells at the start.
    pub fn empty_cells(&self) -> u32 {
        self.coords.len() as u32 - 2
    }

    /// Where a node is.
    pub fn coord(&self, node: u8) -> Coord {
        self.coords[node as usize]
    }

    /// The contest's answer for a value of a position with `to_move` to move:
    /// `w k`, the winner and the ply on which the loser is stuck.
    pub fn verdict(position: &SnakesPosition, value: Value) -> String {
        let mover = position.to_move + 1;
        let other = 3 - mover;
        match value {
            Value::Win(r) => format!("{mover} {}", r + 1),
            Value::Loss(r) => format!("{other} {}", r + 1),
            Value::Tie(_) | Value::Draw => unreachable!("the snakes game always ends"),
        }
    }

    /// Free cells reachable from `node` through free cells (not counting `node`).
    pub fn region(&self, node: u8, free: u128) -> u128 {
        longest_path::region(&self.neighbours, node, free)
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

    /// The longest path from `node` through the free cells of its region.
    pub fn longest_path(&self, node: u8, free: u128) -> u32 {
        let region = self.region(node, free);
        self.longest.borrow_mut().longest(&self.neighbours, self.dark, node, region)
    }
}

impl Game for Snakes {
    type Position = SnakesPosition;
    /// The empty cell the mover's head goes to.
    type Move = u8;

    fn terminal(&self, _: &SnakesPosition) -> Option<Outcome> {
        None
    }

    fn moves(&self, p: &SnakesPosition, moves: &mut Vec<u8>) {
        let mut options = self.neighbours[p.heads[p.to_move as usize] as usize] & p.free;
        while options != 0 {
            moves.push(options.trailing_zeros() as u8);
            options &= options - 1;
        }
    }

    #[inline]
    fn play(&self, p: &SnakesPosition, &to: &u8) -> SnakesPosition {
        let mut heads = p.heads;
        heads[p.to_move as usize] = to;
        SnakesPosition { free: p.free & !(1u128 << to), heads, to_move: 1 - p.to_move }
    }

    #[inline]
    fn for_each_child(&self, p: &SnakesPosition, mut f: impl FnMut(SnakesPosition)) {
        let mut options = self.neighbours[p.heads[p.to_move as usize] as usize] & p.free;
        while options != 0 {
            let to = options.trailing_zeros() as u8;
            options &= options - 1;
            f(self.play(p, &to));
        }
    }

    fn move_count(&self, p: &SnakesPosition) -> usize {
        (self.neighbours[p.heads[p.to_move as usize] as usize] & p.free).count_ones() as usize
    }
}

impl SearchHooks for Snakes {
    /// Apart, the snakes play two solitaires: the value follows from their longest paths.
    fn exact_value(&self, p: &SnakesPosition) -> Option<Value> {
        let mover = p.heads[p.to_move as usize];
        let other = p.heads[1 - p.to_move as usize];
        // A region is closed under free neighbours: the snakes are apart exactly when
        // none of the other head's free neighbours is in the mover's region.
        let mine = self.region(mover, p.free);
        if mine & self.neighbours[other as usize] != 0 {
            return None;
        }
        Some(Self::separated_value(self.longest_path(mover, p.free), self.longest_path(other, p.free)))
    }
}

impl Explain for Snakes {
    fn side_to_move(&self, p: &SnakesPosition) -> &'static str {
        if p.to_move == 0 {
            "snake 1"
        } else {
            "snake 2"
        }
    }

    fn describe_move(&self, p: &SnakesPosition, &to: &u8) -> PieceMove {
        PieceMove { side: self.side_to_move(p), from: self.coord(p.heads[p.to_move as usize]), to: self.coord(to) }
    }

    fn describe_end(&self, p: &SnakesPosition) -> Option<String> {
        Some(format!("{} is stuck at {}", self.side_to_move(p), self.coord(p.heads[p.to_move as usize])))
    }
}
