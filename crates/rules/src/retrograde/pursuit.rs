//! Whole-game solves of *pursuit* rules games by bit rows: the built-in pursuit
//! games' bit-parallel retrograde solve ([`gsolve_games::pursuit::bit_rows`]) run
//! on a rules file of the same shape (the two built-in pursuits' files in
//! examples/rules/, cops and robbers with one cop).
//!
//! # Which games
//! Those [`is_pursuit_shape`] accepts: one piece a side at most, whose
//! moves depend on its own cell alone (every ray lands on empty and enemy cells
//! alike, and no piece blocks it), and endings that depend on the two cells and
//! the side to move (`reach` zones, being stuck) or happen when one piece lands
//! on the other (a meeting, or a capture that leaves a side without pieces);
//! none of them a tie. Then:
//!
//! | rules game | bit rows |
//! |---|---|
//! | the first side's piece (group 0) on cell `a` | row `a` (its moves: [`Adjacency`]) |
//! | the second side's piece (group 1) on cell `b` | bit `b` of the grid (its moves: shifts by vectors) |
//! | `reach` endings, stuck pieces | level-0 bits, from [`pair_ending`] |
//! | a piece landing on the other on cell `c` | level-0 bit `c` of row `c`, the value of the real child (the rules game plays the move) |
//! | positions with fewer pieces (after a capture) | valued one by one by the rules game: each must be terminal |
//!
//! Every other position is valued by the bit-parallel levels, which give the
//! engine's values exactly (remoteness included): the solution is the one
//! [`gsolve_engine::retrograde`] gives, index for index (tests:
//! `crates/rules/tests/pursuit.rs`).
//!
//! # When
//! As the built-in Queen's Case: on boards whose grid is at most a quarter wall
//! (rows are as long as the grid), within six row words of work a position; a
//! solve past that, or past a remoteness of
//! [`MAX_LEVEL`](gsolve_games::pursuit::bit_rows::MAX_LEVEL), gives up and the engine
//! solves (a row word holds 64 positions, so the bit rows pay until a solve needs
//! a few of them a position; a maze's long chases take many levels).

use crate::compiled::moves;
use crate::compiled::position::{pack, RulesPosition};
use crate::compiled::tables::Tables;
use crate::index::{PairLayout, PlacementIndex};
use crate::language::spec::{Onto, Turn};
use gsolve_engine::progress::Observer;
use gsolve_engine::{Outcome, PackedValue, Solution, Value};
use gsolve_games::pursuit::bit_rows::{set_bit, BitRows, BitwiseOptions, Terminals, ToMove};
use gsolve_games::pursuit::Adjacency;
use std::collections::HashMap;

/// Row words of work a position before the solve gives up (see the module docs).
const BUDGET_PER_POSITION: u64 = 6;

/// Solves every position of the game of `tables` and `index` by bit rows, to
/// the solution the engine's retrograde solve gives; `None` when the solve
/// gives up (then nothing was decided that the caller needs).
pub(crate) fn solve(
    pursuit: &Pursuit,
    tables: &Tables,
    index: &PlacementIndex,
    progress: Option<Observer<'_>>,
) -> Option<Solution> {
    let mut codes = vec![PackedValue::DRAW.0 as u16; usize::try_from(index.size()).ok()?];
    for &(i, code) in &pursuit.fewer_pieces {
        codes[i as usize] = code;
    }
    let budget = BUDGET_PER_POSITION.saturating_mul(index.size());
    let options = BitwiseOptions { budget, progress: progress.map(|p| p as &dyn Fn(_)) };
    let record = |first: usize, to_move: ToMove, bit: usize, value: Value| {
        let second = pursuit.cell_of_bit[bit];
        if let Some(i) = pursuit.layout.index(first as u32, second, side(to_move)) {
            codes[i as usize] = PackedValue::pack(value).0 as u16;
        }
    };
    let solved = pursuit.rows.solve_all(
        &pursuit.first_moves,
        tables.board().cells(),
        pursuit.terminals(tables),
        &options,
        record,
    );
    solved.then(|| Solution::from_narrow(codes))
}

/// The outcome of a position the rules end, `None` when play goes on.
fn ended_value<const N: usize>(tables: &Tables, p: &RulesPosition<N>) -> Option<Outcome> {
    let mut moves = 0;
    moves::terminal(tables, p).or_else(|| {
        moves::for_each(tables, p, |_| moves += 1);
        (moves == 0).then_some(Outcome::Loss)
    })
}

/// The rules side of a bit-rows side: group 0 is side 0's.
fn side(to_move: ToMove) -> usize {
    match to_move {
        ToMove::First => 0,
        ToMove::Second => 1,
    }
}

/// A pursuit rules game set out as bit rows (module docs).
pub(crate) struct Pursuit {
    rows: BitRows,
    /// Group 0's moves, by cell.
    first_moves: Adjacency,
    /// The board cell of each grid bit (`u32::MAX` off the board).
    cell_of_bit: Vec<u32>,
    /// The grid bit of each board cell.
    bit_of_cell: Vec<usize>,
    layout: PairLayout,
    /// Cells where an ending looks at group 0's piece; the cells where one looks
    /// at group 1's.
    first_looked_at: Vec<bool>,
    second_looked_at: Vec<u32>,
    /// `landing[c][s]`: the value, for side `s` to move, of the position after
    /// the other side's piece landed on `s`'s piece on cell `c`; `None` where no
    /// move lands there.
    landing: Vec<[Option<Outcome>; 2]>,
    /// The codes of the tiers with fewer pieces (after a capture): (index, code),
    /// every position over, or a hole.
    fewer_pieces: Vec<(u64, u16)>,
}

impl std::fmt::Debug for Pursuit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pursuit").field("cells", &self.bit_of_cell.len()).finish_non_exhaustive()
    }
}

impl Pursuit {
    /// The bit rows of `game`, `None` unless it is a pursuit
    /// ([`is_pursuit_shape`]) with both pieces' positions laid out
    /// together in the index, on a grid at most a quarter wall, whose landings all
    /// end the game with a winner and whose positions with fewer pieces are all
    /// over.
    pub(crate) fn new(tables: &Tables, index: &PlacementIndex) -> Option<Pursuit> {
        if !is_pursuit_shape(tables) {
            return None;
        }
        let layout = index.pair_layout()?;
        let board = tables.board();
        let (width, height, cells) = (board.cols as usize, board.rows as usize, board.cells());
        if 3 * width * height > 4 * cells {
            return None;
        }
        let mut fewer_pieces = Vec::new();
        for (tier, info) in index.tiers().iter().enumerate() {
            if tier != layout.tier() {
                for i in info.offset..info.offset + info.size {
                    let code = match index.position::<{ crate::compiled::position::MAX_PIECES }>(i) {
                        None => PackedValue::NONE.0,
                        Some(p) => PackedValue::pack(ended_value(tables, &p)?.value()).0,
                    };
                    fewer_pieces.push((i, code as u16));
                }
            }
        }
        let bit_of_cell: Vec<usize> = board.coords.iter().map(|&(r, c)| r as usize * width + c as usize).collect();
        let mut cell_of_bit = vec![u32::MAX; width * height];
        for (cell, &bit) in bit_of_cell.iter().enumerate() {
            cell_of_bit[bit] = cell as u32;
        }
        let first_moves = Adjacency::from_lists((0..cells as u32).map(|c| pursuit_targets(tables, 0, c)));
        // Group 1's moves as vectors, each legal from the cells where it lands on a
        // target.
        // (A leaping slider has hundreds of vectors: each found by a hash, not a
        // search, since `BitRows::new` asks about every cell and vector.)
        let mut vectors: Vec<(isize, isize)> = Vec::new();
        let mut number: HashMap<(isize, isize), usize> = HashMap::new();
        // `legal[v][cell]`: vector v moves from the cell.
        let mut legal: Vec<Vec<bool>> = Vec::new();
        for from in 0..cells as u32 {
            let (r, c) = board.coords[from as usize];
            for to in pursuit_targets(tables, 1, from) {
                let (tr, tc) = board.coords[to as usize];
                let vector = (tr as isize - r as isize, tc as isize - c as isize);
                let v = *number.entry(vector).or_insert_with(|| {
                    vectors.push(vector);
                    legal.push(vec![false; cells]);
                    vectors.len() - 1
                });
                legal[v][from as usize] = true;
            }
        }
        let open = |r: usize, c: usize| cell_of_bit[r * width + c] != u32::MAX;
        let legal = |r: usize, c: usize, vector| legal[number[&vector]][cell_of_bit[r * width + c] as usize];
        let rows = BitRows::new(width, height, open, &vectors, legal);
        let first_looked_at = (0..cells as u32).map(|c| pair_ending_looks_at(tables, 0, c)).collect();
        let second_looked_at = (0..cells as u32).filter(|&c| pair_ending_looks_at(tables, 1, c)).collect();
        let landing = landings(tables)?;
        Some(Pursuit {
            rows,
            first_moves,
            cell_of_bit,
            bit_of_cell,
            layout,
            first_looked_at,
            second_looked_at,
            landing,
            fewer_pieces,
        })
    }

    /// Writes each row's level-0 bits: the endings of two pieces on two cells,
    /// and the landings on the row's cell.
    fn terminals<'a>(&'a self, tables: &'a Tables) -> impl FnMut(usize, Terminals<'_>) + 'a {
        let cells = tables.board().cells() as u32;
        move |first: usize, rows: Terminals<'_>| {
            let Terminals { first_wins, first_loses, second_wins, second_loses } = rows;
            let mut put = |second: u32, to_move: usize, outcome: Option<Outcome>| {
                let bit = self.bit_of_cell[second as usize];
                match (to_move, outcome) {
                    (0, Some(Outcome::Win)) => set_bit(first_wins, bit),
                    (0, Some(Outcome::Loss)) => set_bit(first_loses, bit),
                    (1, Some(Outcome::Win)) => set_bit(second_wins, bit),
                    (1, Some(Outcome::Loss)) => set_bit(second_loses, bit),
                    // `is_pursuit_shape` leaves no tie; a landing no move makes
                    // stays open (no position leads there).
                    _ => {}
                }
            };
            let a = first as u32;
            let mut two_cells = |b: u32| {
                if b != a {
                    for to_move in 0..2 {
                        put(b, to_move, pair_ending(tables, a, b, to_move));
                    }
                }
            };
            if self.first_looked_at[first] {
                (0..cells).for_each(&mut two_cells);
            } else {
                self.second_looked_at.iter().copied().for_each(&mut two_cells);
            }
            for (to_move, outcome) in self.landing[first].iter().enumerate() {
                put(a, to_move, *outcome);
            }
        }
    }
}

/// For each cell `c` and side `s`: the value, for `s` to move, of the position
/// after the other side's piece moved onto `s`'s piece on `c` (a meeting, or a
/// capture), found by playing such a move in the rules game; `None` in the list
/// where no move lands on `c`, and `None` overall when some landing does not end
/// the game with a winner (the bit rows need it ended).
fn landings(tables: &Tables) -> Option<Vec<[Option<Outcome>; 2]>> {
    let cells = tables.board().cells() as u32;
    let mut landing = vec![[None, None]; cells as usize];
    for mover in 0..2usize {
        let victim = 1 - mover;
        for from in 0..cells {
            for to in pursuit_targets(tables, mover, from) {
                if to == from || landing[to as usize][victim].is_some() {
                    continue;
                }
                let mut p: RulesPosition = RulesPosition::empty(mover);
                p.insert(pack(mover, from));
                p.insert(pack(victim, to));
                let mut child = None;
                moves::for_each(tables, &p, |m| {
                    if m.steps() == [(from as u16, to as u16)] {
                        child = Some(moves::play(tables, &p, &m));
                    }
                });
                let outcome = ended_value(tables, &child?).filter(|&o| o != Outcome::Tie)?;
                landing[to as usize][victim] = Some(outcome);
            }
        }
    }
    Some(landing)
}

/// Is the game of `tables` a *pursuit* the bit-parallel solve takes: two groups,
/// one a side, at most one piece each, which moves on its turn (a side moving every
/// piece at once only where the two pieces meet); no trails, drops, hands or
/// promotions; every ray lands on empty and enemy cells alike and no piece blocks
/// it (one cell long, or leaping); no line or full-board ending, and no ending or
/// being stuck is a tie. Then a position with both pieces is two cells and a side
/// to move, each piece's moves depend on its cell alone, and [`pair_ending`] tells
/// the endings.
fn is_pursuit_shape(tables: &Tables) -> bool {
    let board = tables.board();
    let rules = tables.rules();
    let endings = tables.endings();
    let groups_ok = tables.group_sides() == [0, 1];
    // A side that moves every piece at once moves its one piece, but only onto
    // an enemy it meets: with a meeting, that is every ray cell too.
    let sides_ok = groups_ok
        && (0..2).all(|side| {
            rules.turn_of(side) == Turn::OnePiece || tables.meet_code(0, 1) != 0 && tables.meet_code(1, 0) != 0
        });
    let no_extras = !(0..2).any(|g| tables.leaves_trail(g))
        && tables.drops_by_group().iter().all(Option::is_none)
        && tables.hand_groups().is_empty()
        && (0..2).all(|g| tables.promotion(g).is_none())
        && !endings.has_lines()
        && !endings.has_full();
    let outcomes_ok = !endings.can_tie() && !tables.meetings_tie();
    let rays_ok = || {
        (0..2).all(|g| {
            (0..board.cells() as u32)
                .all(|c| board.rays(g, c).iter().all(|ray| ray.onto == Onto::Any && (ray.leap || ray.len <= 1)))
        })
    };
    sides_ok && groups_ok && no_extras && outcomes_ok && rays_ok()
}

/// Has a piece of group `g` on `cell` a move in a pursuit (a ray holds at least
/// one cell)?
#[inline]
fn pursuit_moves(tables: &Tables, g: usize, cell: u32) -> bool {
    tables.stays(g) || !tables.board().rays(g, cell).is_empty()
}

/// The cells a piece of group `g` on `cell` moves to in a pursuit
/// ([`is_pursuit_shape`]), whatever the other piece's cell: every cell of its
/// rays, and its own cell when it may stay. Ascending, without repeats.
fn pursuit_targets(tables: &Tables, g: usize, cell: u32) -> Vec<u32> {
    let board = tables.board();
    let mut out: Vec<u32> = board.rays(g, cell).iter().flat_map(|ray| board.ray_cells(ray)).copied().collect();
    if tables.stays(g) {
        out.push(cell);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Does any ending of a pursuit look at a piece of group `g` on `cell` (it
/// stands in a `reach` zone that counts, or it has no move)? Elsewhere
/// [`pair_ending`] depends on the other piece alone.
fn pair_ending_looks_at(tables: &Tables, g: usize, cell: u32) -> bool {
    let at = g * tables.board().cells() + cell as usize;
    tables.endings().reach_looks_at(at) || !pursuit_moves(tables, g, cell)
}

/// The ending, for the side to move, of the pursuit position with group 0's
/// piece on `first` and group 1's on `second ≠ first` (both on the board,
/// `ended` clear), as [`Game::terminal`] and the engine's "no move: lost in 0"
/// give it: the endings of the side that just moved, then of the side to
/// move, then being stuck ([`is_pursuit_shape`] leaves only `reach`,
/// royal and `no-pieces` endings, and neither of the last two applies with
/// both pieces on the board: each side's royal kinds are its one group).
fn pair_ending(tables: &Tables, first: u32, second: u32, to_move: usize) -> Option<Outcome> {
    let cells = tables.board().cells();
    if let Some(outcome) = tables.endings().pair_reach(first as usize, cells + second as usize, to_move) {
        return Some(outcome);
    }
    let own = [first, second][to_move];
    (!pursuit_moves(tables, to_move, own)).then_some(tables.endings().stuck())
}
