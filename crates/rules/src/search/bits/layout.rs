//! The rules of a step game compiled into cell sets: what a piece of each group
//! may reach from each cell, the endings as masks, and the position as one set
//! per group.
//!
//! ```text
//!   a position (B = u64 or u128, cell c = bit c):
//!     sets[g]   the cells of group g's pieces        (g < groups ≤ 8)
//!     sides[s]  the OR of side s's groups' sets      (kept with them)
//!     to_move   0 or 1
//!
//!   moves of a piece of group g on cell c (at = g · cells + c):
//!     step_empty[at]   targets one step or one leap away, onto an empty cell
//!     step_enemy[at]   the same, onto an enemy piece (a capture)
//!     slides[at]       rays of more than one cell that stop at the first piece:
//!                      walked cell by cell (few games have them)
//!     targets = step_empty & empty | step_enemy & enemy | the slides' cells
//!
//!   endings: the `EndingTable` word of a position, one bit a term:
//!     bit j set  ⇔  some sets[g] & term_mask(j, g) ≠ ∅
//!     outcome = EndingTable::outcome(word, to_move)
//! ```
//! The word is the one `crate::compiled::endings` builds from the piece list (the reach
//! checks a piece counts for, each side's presence, each royal check's kinds):
//! here each of its bits is the test of a few sets against masks, so the endings
//! are exactly the general path's, read from the same table.

use super::set::{cells, CellSet};
use crate::compiled::endings::EndingTable;
use crate::compiled::symmetry::Symmetry as Mirror;
use crate::compiled::tables::Tables;
use crate::language::spec::{Check, Onto};
use gsolve_engine::Outcome;

/// The most groups (kinds of one side) a position holds.
pub(crate) const MAX_GROUPS: usize = 8;

/// A ray of more than one cell that stops at the first piece on it.
#[derive(Clone, Debug)]
pub(crate) struct Slide {
    /// Its cells in `Layout::slide_cells`, nearest first.
    start: u32,
    len: u32,
    onto: Onto,
}

/// A group's promotion: on a move ending in `zone`, the piece becomes `group`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Promotion<B> {
    pub(crate) group: usize,
    pub(crate) zone: B,
    /// Must promote there (else both moves are listed).
    pub(crate) forced: bool,
}

/// A position of the bit-set core (module docs).
///
/// Invariant: `sides[s]` is the OR of `sets[g]` over the groups of side `s`,
/// and no two sets share a cell; `play` keeps both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pos<B> {
    pub(crate) sets: [B; MAX_GROUPS],
    pub(crate) sides: [B; 2],
    pub(crate) to_move: usize,
}

/// A move: the piece of `group` on `from` goes to `to` as `becomes` (itself,
/// or its promoted group), taking the piece of group `taken` there if any.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) group: u8,
    pub(crate) becomes: u8,
    pub(crate) taken: u8,
}

/// No piece taken.
pub(crate) const NONE: u8 = u8::MAX;

/// The rules compiled into cell sets (module docs).
#[derive(Clone, Debug)]
pub(crate) struct Layout<B> {
    pub(crate) groups: usize,
    pub(crate) cells: usize,
    pub(crate) side_of: [usize; MAX_GROUPS],
    /// The groups of each side, in group order.
    pub(crate) side_groups: [Vec<usize>; 2],
    step_empty: Vec<B>,
    step_enemy: Vec<B>,
    /// `slide_index[at]`: the range of `slides` of the piece at `at`.
    slide_index: Vec<(u32, u32)>,
    slides: Vec<Slide>,
    slide_cells: Vec<u32>,
    pub(crate) promotion: [Option<Promotion<B>>; MAX_GROUPS],
    /// (bit, group, mask): the terms of the endings' word (module docs); only
    /// masks that are not empty.
    terms: Vec<(u32, usize, B)>,
    endings: EndingTable,
    /// `ends[g]`: cells where a piece of g counts for a `reach` check: the only
    /// arrivals that can end the game (the tests of `solver` rest on it).
    pub(crate) ends: [B; MAX_GROUPS],
    /// `goals[g]`: `ends[g]` and the cells where g promotes: where a move that
    /// may end the game, or threaten to, arrives.
    pub(crate) goals: [B; MAX_GROUPS],
    /// `near_goal[g]`: cells from which a piece of g has a ray through `goals[g]`.
    pub(crate) near_goal: [B; MAX_GROUPS],
    /// `waits[g]`: cells where a piece of g counts for a `reach` check of its
    /// side made after the reply.
    pub(crate) waits: [B; MAX_GROUPS],
    /// A `captured` ending (royal kinds): a capture may end the game.
    pub(crate) royal: bool,
    /// `no_pieces[s]`: having no piece ends the game for side s.
    pub(crate) no_pieces: [bool; 2],
    /// The result for the side to move of having no move.
    pub(crate) stuck: Outcome,
    /// `extent[s]`: the cells of the board along side s's forward direction.
    pub(crate) extent: [u32; 2],
    /// Where the game looks the same in a mirror: the reflection of a set, a
    /// table a byte of the set (`reflect[k][b]`: the cells of byte k's value b
    /// reflected), so any board's reflection is 8 or 16 loads.
    reflect: Option<Vec<[B; 256]>>,
    /// `reflected_cell[c]`: cell c reflected (the identity without a mirror).
    reflected_cell: Vec<u8>,
}

impl<B: CellSet> Layout<B> {
    /// The layout of the rules compiled in `t`; the caller has checked the shape
    /// (`super::accepts`).
    pub(crate) fn new(t: &Tables, mirror: Option<&Mirror>) -> Layout<B> {
        let board = t.board();
        let cells = board.cells();
        let groups = t.groups();
        let endings = t.endings();
        let table = endings.table().expect("the shape has an ending table").clone();
        let mut side_of = [0; MAX_GROUPS];
        let mut side_groups = [Vec::new(), Vec::new()];
        for g in 0..groups {
            side_of[g] = t.side_of(g);
            side_groups[t.side_of(g)].push(g);
        }
        let MoveSets { step_empty, step_enemy, slide_index, slides, slide_cells } = MoveSets::new(t);
        let mut promotion = [None; MAX_GROUPS];
        for (g, slot) in promotion.iter_mut().enumerate().take(groups) {
            *slot = t.promotion(g).map(|pr| Promotion {
                group: pr.group,
                zone: set_of(cells, &|c| pr.zone[c as usize]),
                forced: pr.forced,
            });
        }
        let terms = ending_terms(&table, groups, cells);
        let Arrivals { ends, goals, near_goal, waits } = Arrivals::new(t, &promotion);
        let rules = t.rules();
        let extent = [0, 1].map(|side| match rules.sides[side].forward {
            crate::language::spec::Facing::Up | crate::language::spec::Facing::Down => board.rows,
            crate::language::spec::Facing::Left | crate::language::spec::Facing::Right => board.cols,
        });
        let reflected_cell: Vec<u8> =
            (0..cells as u32).map(|c| mirror.map_or(c, |m| m.cells()[c as usize]) as u8).collect();
        let reflect = mirror.map(|_| reflection_bytes(&reflected_cell));
        Layout {
            groups,
            cells,
            side_of,
            side_groups,
            step_empty,
            step_enemy,
            slide_index,
            slides,
            slide_cells,
            promotion,
            terms,
            endings: table,
            ends,
            goals,
            near_goal,
            waits,
            royal: endings.has_royal(),
            no_pieces: [endings.no_pieces(0).is_some(), endings.no_pieces(1).is_some()],
            stuck: endings.stuck(),
            extent,
            reflect,
            reflected_cell,
        }
    }

    /// The cells a piece of group `g` (of the side to move) on `from` may move to,
    /// with `empty` the empty cells and `enemy` the opponent's.
    #[inline]
    pub(crate) fn targets(&self, g: usize, from: u32, empty: B, enemy: B) -> B {
        let at = g * self.cells + from as usize;
        let mut targets = self.step_empty[at] & empty | self.step_enemy[at] & enemy;
        let (a, b) = self.slide_index[at];
        for slide in &self.slides[a as usize..b as usize] {
            for &to in &self.slide_cells[slide.start as usize..(slide.start + slide.len) as usize] {
                if empty.has(to) {
                    if slide.onto.empty() {
                        targets |= B::cell(to);
                    }
                } else {
                    if enemy.has(to) && slide.onto.enemy() {
                        targets |= B::cell(to);
                    }
                    break;
                }
            }
        }
        targets
    }

    /// The empty cells a piece of group `g` on `from` may move to with nothing
    /// but its own cell and the target in the move's footprint: one step, a
    /// leap, or a slide's first cell (module `solver`, "Not stuck").
    #[inline]
    fn short_targets(&self, g: usize, from: u32, empty: B) -> B {
        let at = g * self.cells + from as usize;
        let mut targets = self.step_empty[at] & empty;
        let (a, b) = self.slide_index[at];
        for slide in &self.slides[a as usize..b as usize] {
            let to = self.slide_cells[slide.start as usize];
            if slide.onto.empty() && empty.has(to) {
                targets |= B::cell(to);
            }
        }
        targets
    }

    /// Has `side` two moves onto empty cells whose footprints (the piece's cell
    /// and the target) are disjoint? Then it has a move after any one move of
    /// the other side: that move lands on one cell, which lies in at most one of
    /// the two footprints (docs/rules-solving.md, "Immediate wins in the search": the
    /// proof of "O not stuck"). Two such moves of one piece share its cell, so
    /// they must be of two pieces, onto two different cells.
    pub(crate) fn keeps_a_move(&self, p: &Pos<B>, side: usize) -> bool {
        let empty = !(p.sides[0] | p.sides[1]);
        let mut seen = B::default();
        let mut pieces = 0;
        for &g in &self.side_groups[side] {
            for from in cells(p.sets[g]) {
                let targets = self.short_targets(g, from, empty);
                if targets.is_empty() {
                    continue;
                }
                if pieces > 0 && (seen | targets).count() >= 2 {
                    return true;
                }
                seen |= targets;
                pieces += 1;
            }
        }
        false
    }

    /// `p` reflected left to right, where the game looks the same in a mirror.
    #[inline]
    pub(crate) fn reflected(&self, p: &Pos<B>) -> Option<Pos<B>> {
        let reflect = self.reflect.as_ref()?;
        let set = |s: B| {
            let wide = s.wide();
            reflect.iter().enumerate().fold(B::default(), |r, (k, bytes)| r | bytes[(wide >> (8 * k)) as usize & 255])
        };
        let mut r = *p;
        for g in 0..self.groups {
            r.sets[g] = set(p.sets[g]);
        }
        r.sides = [set(p.sides[0]), set(p.sides[1])];
        Some(r)
    }

    /// The cell `c` reflected left to right (itself without a mirror).
    #[inline]
    pub(crate) fn reflected_cell(&self, c: u8) -> u8 {
        self.reflected_cell[c as usize]
    }

    /// The endings' word of `p` (module docs).
    #[inline]
    pub(crate) fn word(&self, p: &Pos<B>) -> usize {
        self.terms.iter().fold(0, |word, &(j, g, mask)| word | ((!(p.sets[g] & mask).is_empty()) as usize) << j)
    }

    /// The ending of `p` for its side to move, being stuck aside.
    #[inline]
    pub(crate) fn ending(&self, p: &Pos<B>) -> Option<Outcome> {
        self.endings.outcome(self.word(p), p.to_move)
    }

    /// Calls `f` with each move of the side to move of `p`, in the order that
    /// names a move by its place (the table's best move): pieces by group and
    /// cell, targets by cell, a promotion before the move that declines it.
    #[inline]
    pub(crate) fn for_each_move(&self, p: &Pos<B>, mut f: impl FnMut(Move)) {
        let side = p.to_move;
        let (mine, enemy) = (p.sides[side], p.sides[1 - side]);
        let empty = !(mine | enemy);
        for &g in &self.side_groups[side] {
            for from in cells(p.sets[g]) {
                self.for_each_move_to(p, g, from, self.targets(g, from, empty, enemy), &mut f);
            }
        }
    }

    /// Has the side to move of `p` a move?
    pub(crate) fn has_move(&self, p: &Pos<B>) -> bool {
        let side = p.to_move;
        let (mine, enemy) = (p.sides[side], p.sides[1 - side]);
        let empty = !(mine | enemy);
        self.side_groups[side]
            .iter()
            .any(|&g| cells(p.sets[g]).any(|from| !self.targets(g, from, empty, enemy).is_empty()))
    }

    /// Calls `f` with the moves of the piece of group `g` (of the side to move)
    /// on `from` to the cells of `targets` (legal targets of it), in
    /// [`Self::for_each_move`]'s order.
    #[inline]
    pub(crate) fn for_each_move_to(&self, p: &Pos<B>, g: usize, from: u32, targets: B, mut f: impl FnMut(Move)) {
        let enemy = p.sides[1 - p.to_move];
        for to in cells(targets) {
            let taken = if enemy.has(to) { self.group_at(p, 1 - p.to_move, to) } else { NONE };
            let m = Move { from: from as u8, to: to as u8, group: g as u8, becomes: g as u8, taken };
            match self.promotion[g] {
                Some(pr) if pr.zone.has(to) => {
                    f(Move { becomes: pr.group as u8, ..m });
                    if !pr.forced {
                        f(m);
                    }
                }
                _ => f(m),
            }
        }
    }

    /// The group of `side` with a piece on `cell`, which holds one.
    #[inline]
    fn group_at(&self, p: &Pos<B>, side: usize, cell: u32) -> u8 {
        let groups = &self.side_groups[side];
        groups.iter().find(|&&g| p.sets[g].has(cell)).map_or(groups[0], |&g| g) as u8
    }

    /// The position after `m`.
    #[inline]
    pub(crate) fn play(&self, p: &Pos<B>, m: Move) -> Pos<B> {
        let mut c = *p;
        let (from, to) = (B::cell(m.from as u32), B::cell(m.to as u32));
        let side = p.to_move;
        if m.taken != NONE {
            c.sets[m.taken as usize] ^= to;
            c.sides[1 - side] ^= to;
        }
        c.sets[m.group as usize] ^= from;
        c.sets[m.becomes as usize] |= to;
        c.sides[side] ^= from | to;
        c.to_move = 1 - side;
        c
    }

    /// Has the side that just moved to `c` by `m` a threat there: the moved
    /// piece with a move into its goals (an ending on arrival, or a
    /// promotion), were it its turn? For the move order only.
    #[inline]
    pub(crate) fn threatens(&self, c: &Pos<B>, m: Move) -> bool {
        let g = m.becomes as usize;
        let to = m.to as u32;
        if !self.near_goal[g].has(to) {
            return false;
        }
        let mover = 1 - c.to_move;
        let (mine, enemy) = (c.sides[mover], c.sides[c.to_move]);
        !(self.targets(g, to, !(mine | enemy), enemy) & self.goals[g]).is_empty()
    }
}

/// The cells of a board of `cells` cells for which `f` holds, as a set.
fn set_of<B: CellSet>(cells: usize, f: &dyn Fn(u32) -> bool) -> B {
    (0..cells as u32).filter(|&c| f(c)).fold(B::default(), |s, c| s | B::cell(c))
}

/// The moves of [`Layout`]: for each group and cell, its steps and leaps as two
/// sets (onto empty cells, onto enemy pieces) and its longer rays as slides.
struct MoveSets<B> {
    step_empty: Vec<B>,
    step_enemy: Vec<B>,
    slide_index: Vec<(u32, u32)>,
    slides: Vec<Slide>,
    slide_cells: Vec<u32>,
}

impl<B: CellSet> MoveSets<B> {
    /// Each ray of each group's piece on each cell: a leap or a one-cell ray into
    /// the step sets, any other ray a slide with its cells.
    fn new(t: &Tables) -> MoveSets<B> {
        let board = t.board();
        let cells = board.cells();
        let groups = t.groups();
        let (mut step_empty, mut step_enemy) = (vec![B::default(); groups * cells], vec![B::default(); groups * cells]);
        let (mut slide_index, mut slides, mut slide_cells) = (Vec::new(), Vec::new(), Vec::new());
        for g in 0..groups {
            for c in 0..cells as u32 {
                let at = g * cells + c as usize;
                let first = slides.len() as u32;
                for ray in board.rays(g, c) {
                    let ray_cells = board.ray_cells(ray);
                    if ray.leap || ray_cells.len() == 1 {
                        for &to in ray_cells {
                            if ray.onto.empty() {
                                step_empty[at] |= B::cell(to);
                            }
                            if ray.onto.enemy() {
                                step_enemy[at] |= B::cell(to);
                            }
                        }
                    } else {
                        slides.push(Slide {
                            start: slide_cells.len() as u32,
                            len: ray_cells.len() as u32,
                            onto: ray.onto,
                        });
                        slide_cells.extend_from_slice(ray_cells);
                    }
                }
                slide_index.push((first, slides.len() as u32));
            }
        }
        MoveSets { step_empty, step_enemy, slide_index, slides, slide_cells }
    }
}

/// The terms of the endings' word (module docs): for each bit of `table`'s word
/// and each group, the cells where a piece of the group sets it, when there are any.
fn ending_terms<B: CellSet>(table: &EndingTable, groups: usize, cells: usize) -> Vec<(u32, usize, B)> {
    let width = table.words().trailing_zeros();
    let mut terms = Vec::new();
    for j in 0..width {
        for g in 0..groups {
            let mask: B = set_of(cells, &|c| table.word_at(g * cells + c as usize) >> j & 1 == 1);
            if !mask.is_empty() {
                terms.push((j, g, mask));
            }
        }
    }
    terms
}

/// The arrivals of [`Layout`] that matter to the search, by group: `ends`,
/// `goals`, `near_goal` and `waits` (their fields' docs there).
struct Arrivals<B> {
    ends: [B; MAX_GROUPS],
    goals: [B; MAX_GROUPS],
    near_goal: [B; MAX_GROUPS],
    waits: [B; MAX_GROUPS],
}

impl<B: CellSet> Arrivals<B> {
    /// Each group's reach cells from the endings, with its promotion zone from
    /// `promotion` among its goals, and the cells with a ray through a goal.
    fn new(t: &Tables, promotion: &[Option<Promotion<B>>; MAX_GROUPS]) -> Arrivals<B> {
        let board = t.board();
        let cells = board.cells();
        let endings = t.endings();
        let reach_bits = endings.reach_bits();
        let mut ends = [B::default(); MAX_GROUPS];
        let mut goals = [B::default(); MAX_GROUPS];
        let mut near_goal = [B::default(); MAX_GROUPS];
        let mut waits = [B::default(); MAX_GROUPS];
        for g in 0..t.groups() {
            let side = t.side_of(g);
            ends[g] = set_of(cells, &|c| !reach_bits.is_empty() && reach_bits[g * cells + c as usize] != 0);
            goals[g] = ends[g] | promotion[g].map_or(B::default(), |pr| pr.zone);
            waits[g] = set_of(cells, &|c| {
                let at = g * cells + c as usize;
                endings.reach_checks(side).iter().any(|check| check.when() == Check::AfterReply && check.hit(at))
            });
            near_goal[g] = set_of(cells, &|c| {
                board.rays(g, c).iter().any(|ray| board.ray_cells(ray).iter().any(|&to| goals[g].has(to)))
            });
        }
        Arrivals { ends, goals, near_goal, waits }
    }
}

/// The reflection of a set by bytes (`Layout::reflect`): for each byte k of a set
/// and each value b, the cells of its set bits reflected by `reflected_cell`.
fn reflection_bytes<B: CellSet>(reflected_cell: &[u8]) -> Vec<[B; 256]> {
    let cells = reflected_cell.len();
    (0..cells.div_ceil(8))
        .map(|k| {
            let mut bytes = [B::default(); 256];
            for (b, set) in bytes.iter_mut().enumerate() {
                for bit in 0..8 {
                    let c = 8 * k + bit;
                    if b >> bit & 1 == 1 && c < cells {
                        *set |= B::cell(reflected_cell[c] as u32);
                    }
                }
            }
            bytes
        })
        .collect()
}
