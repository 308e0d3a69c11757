//! A bit-parallel retrograde solve of one Queen's Case position: 64 army cells a
//! machine word.
//!
//! The engine's retrograde solve keeps 2 bytes a position and visits positions one
//! at a time. On a map, the army's moves are shifts of the grid: the army cells
//! from which a step reaches a set `S` of cells are `S` shifted by one column or
//! row. So for each queen cell the positions are kept as bit rows over the army's
//! cell (`row * width + col` of the map, walls never set), and a whole row of
//! positions is decided with a few word operations.
//!
//! # The sets
//! For each queen cell `q`, four bit rows over the army's cell `a`, each the
//! positions decided so far (levels up to `k − 1` while level `k` is computed):
//!
//! | set | side to move | value |
//! |---|---|---|
//! | `queen_wins[q]` | queen | she escapes |
//! | `queen_loses[q]` | queen | she is caught |
//! | `army_wins[q]` | army | it catches her |
//! | `army_loses[q]` | army | she escapes |
//!
//! Level 0 is the terminal positions. A position not yet decided is decided at
//! level `k` (its remoteness) when
//! - some child is lost, decided by level `k − 1`: it wins in `k`;
//! - every child is won, decided by level `k − 1`: it loses in `k`.
//!
//! (A lost child decided before `k − 1`, or every child won before it, would
//! have decided the position earlier: the first level where a rule holds is the
//! fastest win, or the slowest loss, as the engine's levels are.) The queen's
//! children are her closed neighbourhood's rows (`q' ∈ N[q]`): a win is an OR of
//! army rows, a loss an AND. The army's children are the same queen row with the
//! army moved: a win is "a step reaches `queen_loses[q]`", the union of that row
//! shifted each way; a loss is "every step reaches `queen_wins[q]`", the
//! intersection over the directions of the shifted row or the cells without an
//! open neighbour that way (staying is the row itself).
//!
//! A queen row is recomputed only when one of its neighbours' army rows changed in
//! the last level, an army row only when its queen row did. The solve stops when
//! the position asked about is decided, or when a level decides nothing: what is
//! left is drawn.
//!
//! Memory: four bits a position (the engine's solve: 16), so only maps whose grid
//! is mostly open qualify, and the work is bounded by a budget
//! ([`QueensCase::value_bitwise`]).

use super::{QueensCase, QueensPosition};
use gsolve_engine::{Indexed, Value};

/// Bits of one row (one queen cell's positions over the army's grid cell).
type Row = [u64];

/// The grid, its word layout and the masks of the army's steps.
struct Grid {
    width: usize,
    /// Words a row.
    words: usize,
    /// Open cells.
    open: Vec<u64>,
    /// Cells with an open neighbour to the east, west, south and north.
    has_step: [Vec<u64>; 4],
    /// Cells not in the last column (a shift east must not wrap into the next
    /// row), and not in the first.
    not_last_col: Vec<u64>,
    not_first_col: Vec<u64>,
}

impl Grid {
    fn new(game: &QueensCase) -> Grid {
        let (width, height) = (game.map.width() as usize, game.map.height() as usize);
        let words = (width * height).div_ceil(64);
        let mut grid = Grid {
            width,
            words,
            open: vec![0; words],
            has_step: std::array::from_fn(|_| vec![0; words]),
            not_last_col: vec![0; words],
            not_first_col: vec![0; words],
        };
        let open = |r: usize, c: usize| r < height && c < width && game.id[r * width + c] != u32::MAX;
        for r in 0..height {
            for c in 0..width {
                let bit = r * width + c;
                let set = |v: &mut Vec<u64>| v[bit / 64] |= 1 << (bit % 64);
                if open(r, c) {
                    set(&mut grid.open);
                }
                // East, west, south, north: the order of `Grid::shifted`.
                let steps = [(r, c + 1), (r, c.wrapping_sub(1)), (r + 1, c), (r.wrapping_sub(1), c)];
                for (d, (rr, cc)) in steps.into_iter().enumerate() {
                    if open(rr, cc) {
                        set(&mut grid.has_step[d]);
                    }
                }
                if c + 1 < width {
                    set(&mut grid.not_last_col);
                }
                if c > 0 {
                    set(&mut grid.not_first_col);
                }
            }
        }
        grid
    }

    /// `out[a] = row[a + offset(direction)]`: the row as seen from the cell one
    /// step west, east, north or south of each cell (direction 0: a cell's east
    /// neighbour's bit lands on the cell). Bits that would wrap a row are cleared.
    fn shifted(&self, row: &Row, direction: usize, out: &mut Row) {
        match direction {
            0 => {
                shift_down(row, 1, out);
                and_in(out, &self.not_last_col);
            }
            1 => {
                shift_up(row, 1, out);
                and_in(out, &self.not_first_col);
            }
            2 => shift_down(row, self.width, out),
            _ => shift_up(row, self.width, out),
        }
    }
}

/// `out = row >> by` over the multi-word row (bit `i + by` to bit `i`).
fn shift_down(row: &Row, by: usize, out: &mut Row) {
    let (words, bits) = (by / 64, by % 64);
    for (i, o) in out.iter_mut().enumerate() {
        let lo = row.get(i + words).copied().unwrap_or(0);
        let hi = row.get(i + words + 1).copied().unwrap_or(0);
        *o = if bits == 0 { lo } else { (lo >> bits) | (hi << (64 - bits)) };
    }
}

/// `out = row << by` over the multi-word row (bit `i` to bit `i + by`).
fn shift_up(row: &Row, by: usize, out: &mut Row) {
    let (words, bits) = (by / 64, by % 64);
    for (i, o) in out.iter_mut().enumerate() {
        let lo = if i >= words { row[i - words] } else { 0 };
        let below = if i > words { row[i - words - 1] } else { 0 };
        *o = if bits == 0 { lo } else { (lo << bits) | (below >> (64 - bits)) };
    }
}

fn and_in(out: &mut Row, mask: &Row) {
    for (o, m) in out.iter_mut().zip(mask) {
        *o &= m;
    }
}

/// The four sets of decided positions, a row of `words` words per queen cell.
struct Sets {
    queen_wins: Vec<u64>,
    queen_loses: Vec<u64>,
    army_wins: Vec<u64>,
    army_loses: Vec<u64>,
}

impl Sets {
    fn row(set: &[u64], words: usize, q: usize) -> &Row {
        &set[q * words..(q + 1) * words]
    }

    fn row_mut(set: &mut [u64], words: usize, q: usize) -> &mut Row {
        &mut set[q * words..(q + 1) * words]
    }
}

impl QueensCase {
    /// A budget for [`Self::value_bitwise`] that bounds its work to a fraction of
    /// what the engine's solve of the whole map costs: a quarter of a row word a
    /// position (measured here: the engine's solve costs 14–26 ns a position, the
    /// bit-parallel one about 12 ns a row word).
    pub fn bitwise_budget(&self) -> u64 {
        self.index_size() / 4
    }

    /// The exact value of `position` (remoteness included), by the bit-parallel
    /// solve of the module docs, which stops as soon as the position is decided;
    /// `None` when that needs more than `budget` row words of work, or when the
    /// map's grid is more than four times its open cells (rows are as long as the
    /// grid). Open maps decide in few levels; long games (a maze's chase) take
    /// many levels, each touching many rows: there the engine's solve is faster.
    /// Memory: `open cells × grid cells / 2` bytes (four bits a pair of cells).
    pub fn value_bitwise(&self, position: &QueensPosition, budget: u64) -> Option<Value> {
        let grid_cells = self.map.width() as u64 * self.map.height() as u64;
        if grid_cells > 4 * self.open_cells() as u64 {
            return None;
        }
        let grid = Grid::new(self);
        let words = grid.words;
        let cells = self.open_cells() as usize;
        let bit_of: Vec<usize> =
            self.coords.iter().map(|c| (c.row as usize - 1) * grid.width + (c.col as usize - 1)).collect();
        let mut sets = Sets {
            queen_wins: vec![0; cells * words],
            queen_loses: vec![0; cells * words],
            army_wins: vec![0; cells * words],
            army_loses: vec![0; cells * words],
        };
        // Level 0: the terminal positions.
        for (q, &bit) in bit_of.iter().enumerate() {
            Sets::row_mut(&mut sets.queen_loses, words, q)[bit / 64] |= 1 << (bit % 64);
            Sets::row_mut(&mut sets.army_wins, words, q)[bit / 64] |= 1 << (bit % 64);
            if self.exit[q] {
                let row = Sets::row_mut(&mut sets.queen_wins, words, q);
                row.copy_from_slice(&grid.open);
                row[bit / 64] &= !(1 << (bit % 64));
            }
        }
        let (q0, a0) = (position.queen as usize, bit_of[position.army as usize]);
        let decided = |sets: &Sets, level: u32| -> Option<Value> {
            let has = |set: &[u64]| Sets::row(set, words, q0)[a0 / 64] >> (a0 % 64) & 1 == 1;
            if position.queen_to_move {
                if has(&sets.queen_wins) {
                    return Some(Value::Win(level));
                }
                if has(&sets.queen_loses) {
                    return Some(Value::Loss(level));
                }
            } else {
                if has(&sets.army_wins) {
                    return Some(Value::Win(level));
                }
                if has(&sets.army_loses) {
                    return Some(Value::Loss(level));
                }
            }
            None
        };
        if let Some(value) = decided(&sets, 0) {
            return Some(value);
        }
        // Rows changed at the last level: every row at level 0.
        let mut queen_changed = vec![true; cells];
        let mut army_changed = vec![true; cells];
        let mut next_queen_changed = vec![false; cells];
        let mut next_army_changed = vec![false; cells];
        // New queen decisions of a level, kept apart until the army rows of the
        // same level are computed (those read the queen rows of the level before).
        let mut new_queen: Vec<(usize, Vec<u64>, Vec<u64>)> = Vec::new();
        let mut spare: Vec<(Vec<u64>, Vec<u64>)> = Vec::new();
        let (mut win, mut loss, mut shifted) = (vec![0u64; words], vec![0u64; words], vec![0u64; words]);
        // Row words computed so far, against the budget.
        let mut work = 0u64;
        for level in 1.. {
            let mut any = false;
            // Queen to move: her moves change the queen row.
            for q in 0..cells {
                let steps = self.steps.of(q as u32);
                if !steps.iter().any(|&n| army_changed[n as usize]) {
                    continue;
                }
                work += words as u64;
                win.fill(0);
                loss.copy_from_slice(&grid.open);
                for &n in steps {
                    let (lost, won) =
                        (Sets::row(&sets.army_loses, words, n as usize), Sets::row(&sets.army_wins, words, n as usize));
                    for i in 0..words {
                        win[i] |= lost[i];
                        loss[i] &= won[i];
                    }
                }
                let (done_w, done_l) = (Sets::row(&sets.queen_wins, words, q), Sets::row(&sets.queen_loses, words, q));
                let mut changed = false;
                for i in 0..words {
                    let undecided = grid.open[i] & !(done_w[i] | done_l[i]);
                    win[i] &= undecided;
                    loss[i] &= undecided & !win[i];
                    changed |= (win[i] | loss[i]) != 0;
                }
                if changed {
                    let (mut w, mut l) = spare.pop().unwrap_or_else(|| (vec![0; words], vec![0; words]));
                    w.copy_from_slice(&win);
                    l.copy_from_slice(&loss);
                    new_queen.push((q, w, l));
                }
            }
            // Army to move: its moves shift the row.
            for q in 0..cells {
                if !queen_changed[q] {
                    continue;
                }
                work += words as u64;
                let caught = Sets::row(&sets.queen_loses, words, q);
                let escaped = Sets::row(&sets.queen_wins, words, q);
                // Win: staying or a step reaches a row where she is caught.
                win.copy_from_slice(caught);
                // Loss: staying and every step reach a row where she escapes.
                loss.copy_from_slice(escaped);
                for direction in 0..4 {
                    grid.shifted(caught, direction, &mut shifted);
                    for i in 0..words {
                        win[i] |= shifted[i];
                    }
                    grid.shifted(escaped, direction, &mut shifted);
                    let has_step = &grid.has_step[direction];
                    for i in 0..words {
                        loss[i] &= shifted[i] | !has_step[i];
                    }
                }
                let mut changed = false;
                let done_w = &mut sets.army_wins[q * words..(q + 1) * words];
                let done_l = &mut sets.army_loses[q * words..(q + 1) * words];
                for i in 0..words {
                    let undecided = grid.open[i] & !(done_w[i] | done_l[i]);
                    let w = win[i] & undecided;
                    let l = loss[i] & undecided & !w;
                    done_w[i] |= w;
                    done_l[i] |= l;
                    changed |= (w | l) != 0;
                }
                next_army_changed[q] = changed;
                any |= changed;
            }
            for (q, w, l) in new_queen.drain(..) {
                let done_w = &mut sets.queen_wins[q * words..(q + 1) * words];
                let done_l = &mut sets.queen_loses[q * words..(q + 1) * words];
                for i in 0..words {
                    done_w[i] |= w[i];
                    done_l[i] |= l[i];
                }
                next_queen_changed[q] = true;
                any = true;
                spare.push((w, l));
            }
            if let Some(value) = decided(&sets, level) {
                return Some(value);
            }
            if !any {
                return Some(Value::Draw);
            }
            if work > budget {
                return None;
            }
            std::mem::swap(&mut queen_changed, &mut next_queen_changed);
            std::mem::swap(&mut army_changed, &mut next_army_changed);
            next_queen_changed.fill(false);
            next_army_changed.fill(false);
        }
        unreachable!("levels run until the position is decided or nothing changes")
    }
}
