//! A bit-parallel retrograde solve of a pursuit game on a grid, of one position
//! or of all: 64 of the second token's cells a machine word.
//!
//! The engine's retrograde solve keeps 2 bytes a position and visits positions one
//! at a time. On a grid, the second token's moves are shifts: the cells from which
//! a move by the vector `v` reaches a set `S` are `S` shifted by `v`. So for each
//! cell `f` of the first token the positions are kept as bit rows over the second
//! token's cell (`row * width + col` of the grid; walls never set), and a whole
//! row of positions is decided with a few word operations a 64 of them.
//!
//! # The sets
//! For each first-token cell `f`, four bit rows over the second token's cell `s`,
//! each the positions decided so far (by level `k − 1` while level `k` is
//! computed):
//!
//! | set | side to move | value for it |
//! |---|---|---|
//! | `first_wins[f]` | first | win |
//! | `first_loses[f]` | first | loss |
//! | `second_wins[f]` | second | win |
//! | `second_loses[f]` | second | loss |
//!
//! Level 0 is the terminal positions, which the game writes
//! (the `terminals` of [`BitRows::value_of`] and [`BitRows::solve_all`]). A position not yet decided is decided at
//! level `k` (its remoteness) when
//! - some child is lost, decided by level `k − 1`: it wins in `k`;
//! - every child is won, decided by level `k − 1`: it loses in `k`.
//!
//! (A lost child decided before `k − 1`, or every child won before it, would have
//! decided the position earlier: the first level where a rule holds is the
//! fastest win, or the slowest loss, as the engine's levels are.) The first side's
//! children are other rows (its cell's targets `f'`): a win is an OR of
//! second-to-move rows, a loss an AND. The second side's children are the same
//! row with its token moved: a win is "some move reaches `first_loses[f]`", the
//! union over the vectors of the row shifted and masked by the cells the vector
//! may move from; a loss is "every move reaches `first_wins[f]`", the intersection
//! over the vectors of the shifted row or the cells that cannot move that way.
//!
//! A first-side row is recomputed only when one of its targets' second-side rows
//! changed in the last level, a second-side row only when its first-side row did.
//! A solve of one position stops when it is decided; a solve of all when a level
//! decides nothing (what is left is drawn); either when its work passes the
//! budget.
//!
//! # Row layout
//! ```text
//!   | pad words (zero) | words of the grid's cells, 64 a word | pad words (zero) |
//! ```
//! The zero words on both sides let a shift by up to `pad · 64 − 1` cells read
//! past either end without a bounds test; only the middle is ever written.
//!
//! Precondition (the games here keep it): a position that is not terminal has a
//! move (a loss needs a won child to exist).

use super::Adjacency;
use gsolve_engine::{Progress, Value};

/// A move of the second token: by `vector` (rows, columns), from the cells of
/// `from` (the game says where it is legal: inside the grid, onto an open cell,
/// over what it passes).
struct Shift {
    /// Bits from a cell to its target: `rows · width + cols`.
    offset: isize,
    /// Cells the move is legal from, one bit each, as a row's middle words.
    from: Vec<u64>,
}

/// A grid with the second token's moves: everything a solve needs
/// besides the first token's moves and the terminal positions. Used by the
/// built-in pursuit games and by rules games of the same shape (gsolve-rules).
pub struct BitRows {
    width: usize,
    /// Words of a row's middle.
    words: usize,
    /// Zero words on each side of a row.
    pad: usize,
    /// The grid's open cells.
    open: Vec<u64>,
    shifts: Vec<Shift>,
}

/// How far a bit-parallel solve may go, and who watches it.
#[derive(Clone, Copy)]
pub struct BitwiseOptions<'a> {
    /// Row words computed (a row's new decisions, 64 positions a word) after which
    /// the solve gives up.
    pub budget: u64,
    /// Called after each level with the positions decided so far, of all.
    pub progress: Option<&'a dyn Fn(Progress)>,
}

impl BitwiseOptions<'_> {
    /// No limit on the work, no progress reports.
    pub fn unlimited() -> Self {
        BitwiseOptions { budget: u64::MAX, progress: None }
    }

    /// At most `budget` row words computed, no progress reports.
    pub fn within(budget: u64) -> Self {
        BitwiseOptions { budget, progress: None }
    }
}

/// The progress step of a bit-parallel solve.
pub const STEP: &str = "bit-parallel levels";

/// Which side is to move in the position asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToMove {
    /// The first token's side (the token with a row per cell).
    First,
    /// The second token's side (the token with a bit per cell).
    Second,
}

/// The level-0 rows of one first-token cell, for the game to fill (middle words
/// only, one bit a cell of the second token: [`BitRows::bit`]).
pub struct Terminals<'a> {
    /// Ended positions won by the first side, it to move.
    pub first_wins: &'a mut [u64],
    /// Ended positions lost by the first side, it to move.
    pub first_loses: &'a mut [u64],
    /// Ended positions won by the second side, it to move.
    pub second_wins: &'a mut [u64],
    /// Ended positions lost by the second side, it to move.
    pub second_loses: &'a mut [u64],
}

/// Sets a cell's bit in a row's middle words.
pub fn set_bit(row: &mut [u64], bit: usize) {
    row[bit / 64] |= 1 << (bit % 64);
}

impl BitRows {
    /// A `width` × `height` grid of cells `open(row, col)`; the second token moves
    /// by each of `vectors` (staying is the vector (0, 0)) from the cells where
    /// `legal(row, col, vector)`, which must only hold where the target is an open
    /// cell of the grid.
    pub fn new(
        width: usize,
        height: usize,
        open: impl Fn(usize, usize) -> bool,
        vectors: &[(isize, isize)],
        legal: impl Fn(usize, usize, (isize, isize)) -> bool,
    ) -> BitRows {
        let words = (width * height).div_ceil(64);
        let longest = vectors.iter().map(|&(r, c)| (r * width as isize + c).unsigned_abs()).max().unwrap_or(0);
        let pad = longest / 64 + 1;
        let cells = || (0..height).flat_map(|r| (0..width).map(move |c| (r, c)));
        let mut open_bits = vec![0; words];
        for (r, c) in cells().filter(|&(r, c)| open(r, c)) {
            set_bit(&mut open_bits, r * width + c);
        }
        let shifts = vectors
            .iter()
            .map(|&vector| {
                let mut from = vec![0; words];
                for (r, c) in cells().filter(|&(r, c)| open(r, c) && legal(r, c, vector)) {
                    set_bit(&mut from, r * width + c);
                }
                Shift { offset: vector.0 * width as isize + vector.1, from }
            })
            .collect();
        BitRows { width, words, pad, open: open_bits, shifts }
    }

    /// The bit of a cell in a row.
    pub fn bit(&self, row: usize, col: usize) -> usize {
        row * self.width + col
    }

    /// The grid's open cells, as a row's middle words.
    pub fn open_cells(&self) -> &[u64] {
        &self.open
    }

    /// The value of the position (first token on `first`, second on the cell of
    /// bit `second`, `to_move`) for its side to move, remoteness included; `None`
    /// when deciding it computes more than `options.budget` row words, or passes a
    /// remoteness of [`MAX_LEVEL`].
    ///
    /// `steps` lists the first token's targets from each of its cells (its rows,
    /// `0..first_cells`); `terminals` writes each row's terminal positions.
    pub fn value_of(
        &self,
        steps: &Adjacency,
        first_cells: usize,
        terminals: impl FnMut(usize, Terminals<'_>),
        asked: (usize, usize, ToMove),
        options: &BitwiseOptions<'_>,
    ) -> Option<Value> {
        match self.run(steps, first_cells, terminals, Some(asked), options, None::<fn(usize, ToMove, usize, Value)>) {
            Ended::Decided(value) => Some(value),
            Ended::Fixpoint => Some(Value::Draw),
            Ended::GaveUp => None,
        }
    }

    /// Solves every position, calling `record(row, side to move, bit, value)` once
    /// for each position that is not drawn (the others are); false (and some
    /// positions recorded) when that computes more than `options.budget` row words, or
    /// passes a remoteness of [`MAX_LEVEL`].
    pub fn solve_all(
        &self,
        steps: &Adjacency,
        first_cells: usize,
        terminals: impl FnMut(usize, Terminals<'_>),
        options: &BitwiseOptions<'_>,
        record: impl FnMut(usize, ToMove, usize, Value),
    ) -> bool {
        matches!(self.run(steps, first_cells, terminals, None, options, Some(record)), Ended::Fixpoint)
    }

    fn run(
        &self,
        steps: &Adjacency,
        first_cells: usize,
        mut terminals: impl FnMut(usize, Terminals<'_>),
        asked: Option<(usize, usize, ToMove)>,
        options: &BitwiseOptions<'_>,
        mut record: Option<impl FnMut(usize, ToMove, usize, Value)>,
    ) -> Ended {
        let (words, pad) = (self.words, self.pad);
        let stride = words + 2 * pad;
        let middle = |f: usize| f * stride + pad..f * stride + pad + words;
        let mut first_wins = vec![0u64; first_cells * stride];
        let mut first_loses = vec![0u64; first_cells * stride];
        let mut second_wins = vec![0u64; first_cells * stride];
        let mut second_loses = vec![0u64; first_cells * stride];
        for f in 0..first_cells {
            terminals(
                f,
                Terminals {
                    first_wins: &mut first_wins[middle(f)],
                    first_loses: &mut first_loses[middle(f)],
                    second_wins: &mut second_wins[middle(f)],
                    second_loses: &mut second_loses[middle(f)],
                },
            );
            if let Some(record) = record.as_mut() {
                let sets = [
                    (&first_wins, ToMove::First, Value::Win(0)),
                    (&first_loses, ToMove::First, Value::Loss(0)),
                    (&second_wins, ToMove::Second, Value::Win(0)),
                    (&second_loses, ToMove::Second, Value::Loss(0)),
                ];
                for (set, side, value) in sets {
                    each_bit(&set[middle(f)], |bit| record(f, side, bit, value));
                }
            }
        }
        let (first, second, to_move) = asked.unwrap_or((0, 0, ToMove::First));
        let at = first * stride + pad + second / 64;
        let decided = |wins: &[u64], loses: &[u64], level: u32| {
            let has = |set: &[u64]| set[at] >> (second % 64) & 1 == 1;
            if has(wins) {
                Some(Value::Win(level))
            } else if has(loses) {
                Some(Value::Loss(level))
            } else {
                None
            }
        };
        let settled = |fw: &[u64], fl: &[u64], sw: &[u64], sl: &[u64], level: u32| match (asked, to_move) {
            (None, _) => None,
            (Some(_), ToMove::First) => decided(fw, fl, level),
            (Some(_), ToMove::Second) => decided(sw, sl, level),
        };
        if let Some(value) = settled(&first_wins, &first_loses, &second_wins, &second_loses, 0) {
            return Ended::Decided(value);
        }
        // Rows changed at the last level: every row at level 0.
        let mut first_changed = vec![true; first_cells];
        let mut second_changed = vec![true; first_cells];
        let mut next_first_changed = vec![false; first_cells];
        let mut next_second_changed = vec![false; first_cells];
        // A level's new first-side decisions, `(row, wins, losses)`, kept apart
        // until its second-side rows are computed (those read the level before).
        let mut new_first: Vec<(usize, Vec<u64>, Vec<u64>)> = Vec::new();
        let mut spare: Vec<(Vec<u64>, Vec<u64>)> = Vec::new();
        let (mut win, mut loss) = (vec![0u64; words], vec![0u64; words]);
        let mut work = 0u64;
        // Positions decided so far, counted only for progress reports: the total is
        // every position, so a solve that stops early or leaves draws ends short
        // of it.
        let total = 2 * first_cells as u64 * self.open.iter().map(|w| w.count_ones() as u64).sum::<u64>();
        let mut decided_count = 0u64;
        let counting = options.progress.is_some();
        for level in 1.. {
            let mut any = false;
            // First side to move: its moves go to other rows.
            for f in 0..first_cells {
                let targets = steps.of(f as u32);
                if !targets.iter().any(|&t| second_changed[t as usize]) {
                    continue;
                }
                work += words as u64;
                win.fill(0);
                loss.copy_from_slice(&self.open);
                for &t in targets {
                    let (lost, won) = (&second_loses[middle(t as usize)], &second_wins[middle(t as usize)]);
                    for (((w, l), lost), won) in win.iter_mut().zip(loss.iter_mut()).zip(lost).zip(won) {
                        *w |= lost;
                        *l &= won;
                    }
                }
                let (done_w, done_l) = (&first_wins[middle(f)], &first_loses[middle(f)]);
                let mut changed = 0;
                for i in 0..words {
                    let undecided = self.open[i] & !(done_w[i] | done_l[i]);
                    win[i] &= undecided;
                    loss[i] &= undecided;
                    changed |= win[i] | loss[i];
                }
                if changed != 0 {
                    let (mut w, mut l) = spare.pop().unwrap_or_else(|| (vec![0; words], vec![0; words]));
                    w.copy_from_slice(&win);
                    l.copy_from_slice(&loss);
                    new_first.push((f, w, l));
                }
            }
            // Second side to move: its moves shift the row.
            for f in 0..first_cells {
                if !first_changed[f] {
                    continue;
                }
                work += words as u64;
                let (lost, won) =
                    (&first_loses[f * stride..(f + 1) * stride], &first_wins[f * stride..(f + 1) * stride]);
                win.fill(0);
                loss.copy_from_slice(&self.open);
                for shift in &self.shifts {
                    shifted_into(lost, won, pad, shift, &mut win, &mut loss);
                }
                let done_w = &mut second_wins[middle(f)];
                let done_l = &mut second_loses[middle(f)];
                let mut changed = 0;
                for i in 0..words {
                    let undecided = self.open[i] & !(done_w[i] | done_l[i]);
                    let (w, l) = (win[i] & undecided, loss[i] & undecided);
                    done_w[i] |= w;
                    done_l[i] |= l;
                    changed |= w | l;
                    if counting {
                        decided_count += (w | l).count_ones() as u64;
                    }
                    if let Some(record) = record.as_mut() {
                        each_bit(&[w], |bit| record(f, ToMove::Second, i * 64 + bit, Value::Win(level)));
                        each_bit(&[l], |bit| record(f, ToMove::Second, i * 64 + bit, Value::Loss(level)));
                    }
                }
                next_second_changed[f] = changed != 0;
                any |= changed != 0;
            }
            for (f, w, l) in new_first.drain(..) {
                for ((dw, dl), (w, l)) in
                    first_wins[middle(f)].iter_mut().zip(first_loses[middle(f)].iter_mut()).zip(w.iter().zip(&l))
                {
                    *dw |= w;
                    *dl |= l;
                }
                if counting {
                    decided_count += w.iter().chain(&l).map(|x| x.count_ones() as u64).sum::<u64>();
                }
                if let Some(record) = record.as_mut() {
                    each_bit(&w, |bit| record(f, ToMove::First, bit, Value::Win(level)));
                    each_bit(&l, |bit| record(f, ToMove::First, bit, Value::Loss(level)));
                }
                next_first_changed[f] = true;
                any = true;
                spare.push((w, l));
            }
            if let Some(value) = settled(&first_wins, &first_loses, &second_wins, &second_loses, level) {
                return Ended::Decided(value);
            }
            if !any {
                return Ended::Fixpoint;
            }
            if let Some(progress) = options.progress {
                progress(Progress::new(STEP, decided_count, total));
            }
            if work > options.budget || level >= MAX_LEVEL {
                return Ended::GaveUp;
            }
            std::mem::swap(&mut first_changed, &mut next_first_changed);
            std::mem::swap(&mut second_changed, &mut next_second_changed);
            next_first_changed.fill(false);
            next_second_changed.fill(false);
        }
        unreachable!("levels run until the position is decided or nothing changes")
    }
}

/// How a run ended.
enum Ended {
    /// The position asked about has this value.
    Decided(Value),
    /// A level decided nothing: every position left is drawn.
    Fixpoint,
    /// Over the budget, or past [`MAX_LEVEL`]: the caller solves another way.
    GaveUp,
}

/// The largest remoteness a solve goes to (the engine's narrow values hold it).
pub const MAX_LEVEL: u32 = gsolve_engine::Solution::NARROW_MAX_REMOTENESS;

/// Calls `f` with the number of each set bit of the words, lowest first.
fn each_bit(words: &[u64], mut f: impl FnMut(usize)) {
    for (i, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            f(i * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// For one move of the second token: adds to `win` the cells whose move lands on a
/// cell of `first_loses` (a child lost for the first side to move), and keeps in
/// `loss` only the cells whose move, if legal, lands on a cell of `first_wins`. Both rows are whole (padding included); `win`
/// and `loss` are middles.
fn shifted_into(first_loses: &[u64], first_wins: &[u64], pad: usize, shift: &Shift, win: &mut [u64], loss: &mut [u64]) {
    // Bit `i` of the result is bit `i + offset` of the row: word `i / 64` is read
    // from words `start + i/64` and the next, `start` counted in the whole row.
    let bits = pad as isize * 64 + shift.offset;
    let (start, low) = ((bits / 64) as usize, (bits % 64) as u32);
    let words = win.len();
    let (lost, won) = (&first_loses[start..start + words + 1], &first_wins[start..start + words + 1]);
    let funnel = |row: &[u64], i: usize| {
        if low == 0 {
            row[i]
        } else {
            (row[i] >> low) | (row[i + 1] << (64 - low))
        }
    };
    for i in 0..words {
        let from = shift.from[i];
        win[i] |= funnel(lost, i) & from;
        loss[i] &= funnel(won, i) | !from;
    }
}
