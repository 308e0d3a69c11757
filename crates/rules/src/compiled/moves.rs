//! The move generator: a position's moves, the position after one, and whether
//! play is over, all read from the [`Tables`] alone.
//!
//! Why functions of the tables and not of the game: the parents ([`crate::retrograde::unmoves`])
//! play moves to check them and ask whether a parent is over, and they must not
//! depend on the game that composes them. Every solve runs these for every
//! position: they are generic over the position's room `N`, and walk the board's
//! rays and the tables' arrays without building anything on the heap (a side that
//! moves every piece at once aside).

use crate::compiled::flips::owners;
use crate::compiled::position::{cell_of, group_of, pack, RulesPosition};
use crate::compiled::score::{EndResult, PlayEnd};
use crate::compiled::tables::{DropTargets, Tables, MAX_ALL_PIECES, NO_SLOT};
use crate::language::spec::Turn;
use gsolve_engine::Outcome;

/// A move: each moving piece's (from, to) cells; a piece that stays has from = to;
/// no steps at all is a pass; a drop is one step whose `from` is
/// [`DROP`]` + group` (no cell has such a number: [`crate::compiled::board::MAX_CELLS`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RulesMove {
    len: u8,
    /// The moving piece becomes its promoted kind (one piece's move only).
    promote: bool,
    steps: [(u16, u16); MAX_ALL_PIECES],
}

impl RulesMove {
    /// A pass: the side to move stays put.
    pub const PASS: RulesMove = RulesMove { len: 0, promote: false, steps: [(0, 0); MAX_ALL_PIECES] };

    /// Does the moving piece promote?
    pub fn promotes(&self) -> bool {
        self.promote
    }

    /// A piece of group `group` dropped onto `to`.
    pub(crate) fn drop(group: usize, to: u32) -> Self {
        RulesMove::one(DROP as u32 + group as u32, to)
    }

    /// The group dropped and the cell, if this move is a drop.
    pub fn dropped(&self) -> Option<(usize, u32)> {
        (self.len == 1 && self.steps[0].0 >= DROP).then(|| ((self.steps[0].0 - DROP) as usize, self.steps[0].1 as u32))
    }

    fn one(from: u32, to: u32) -> Self {
        let mut m = RulesMove::PASS;
        m.steps[0] = (from as u16, to as u16);
        m.len = 1;
        m
    }

    /// Every piece of a side moving at once, the i-th from `from[i]` to `to[i]`
    /// (at most [`MAX_ALL_PIECES`]).
    pub(crate) fn all(steps: impl Iterator<Item = (u32, u32)>) -> Self {
        let mut m = RulesMove::PASS;
        for (i, (from, to)) in steps.enumerate() {
            m.steps[i] = (from as u16, to as u16);
            m.len = i as u8 + 1;
        }
        m
    }

    /// The (from, to) cell of each moving piece.
    pub fn steps(&self) -> &[(u16, u16)] {
        &self.steps[..self.len as usize]
    }
}

impl std::fmt::Debug for RulesMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.steps()).finish()
    }
}

/// The `from` of a drop's step: `DROP + group` (see [`RulesMove`]).
pub const DROP: u16 = 0xff00;

/// The ending of `p` for the side to move, if play is over: the endings
/// ([`crate::compiled::endings::Endings::ending`]), then (when the rules make being stuck
/// anything but a loss) the side to move having no move.
#[inline]
pub(crate) fn terminal<const N: usize>(t: &Tables, p: &RulesPosition<N>) -> Option<Outcome> {
    let endings = t.endings();
    if let Some(result) = endings.ending(p) {
        return Some(result);
    }
    if endings.stuck() != Outcome::Loss {
        return stuck(t, p);
    }
    if let Some(end) = t.play_end() {
        return play_ended(t, end, p);
    }
    None
}

/// The end of play of a game that passes or scores: a full board the score
/// decides, or neither side with a move. Apart from [`terminal`] for the
/// reason [`stuck`] is.
#[inline(never)]
fn play_ended<const N: usize>(t: &Tables, end: &PlayEnd, p: &RulesPosition<N>) -> Option<Outcome> {
    if end.full_scored() && p.piece_count() == t.board().cells() {
        return Some(end.outcome(EndResult::Score, t.group_sides(), p));
    }
    if end.stuck_scored() {
        return (!has_move(t, p)).then(|| end.outcome(EndResult::Score, t.group_sides(), p));
    }
    let result = end.no_moves()?;
    let mut passed = *p;
    passed.pass_turn();
    (!has_move(t, p) && !has_move(t, &passed)).then(|| end.outcome(result, t.group_sides(), p))
}

/// Does the side to move of `p` have a move other than a pass?
fn has_move<const N: usize>(t: &Tables, p: &RulesPosition<N>) -> bool {
    let mut any = false;
    for_each_made(t, p, |_| any = true);
    any
}

/// The result of being stuck, if the side to move of `p` has no move. Apart
/// from [`terminal`] (which every position and child of a solve runs): the move
/// generator it calls would make `terminal`'s frame large for every caller.
#[inline(never)]
fn stuck<const N: usize>(t: &Tables, p: &RulesPosition<N>) -> Option<Outcome> {
    let mut any = false;
    for_each(t, p, |_| any = true);
    (!any).then(|| t.endings().stuck())
}

/// Calls `f(i, occupant, to)` for each move of a side that moves one piece in a
/// game whose pieces only step ([`Tables::steps_only`]), in the order
/// [`for_each`] yields them: the piece at place `i` of the list goes to `to`,
/// where the enemy at place `occupant` stands, if any. Then `f(usize::MAX, None,
/// 0)` for a pass, where a piece may stay. [`for_each_step_child`] and
/// [`step_move_count`] read the moves from it without building a [`RulesMove`].
#[inline]
fn for_each_step<const N: usize>(t: &Tables, p: &RulesPosition<N>, mut f: impl FnMut(usize, Option<usize>, u32)) {
    debug_assert!(t.steps_only() && t.turn_of(p.to_move()) == Turn::OnePiece);
    let board = t.board();
    let side = p.to_move();
    let pieces = p.packed();
    let mut can_pass = false;
    let mut seen = Seen::<u32>::default();
    for (i, &packed) in pieces.iter().enumerate() {
        let g = group_of(packed);
        if t.side_of(g) != side {
            continue;
        }
        can_pass |= t.stays(g);
        let from = cell_of(packed);
        // A target reached by two rules (or two rays) is one move.
        let dedupe = board.rays_overlap(g, from);
        seen.clear();
        for ray in board.rays(g, from) {
            for &to in board.ray_cells(ray) {
                // No trails: no walls.
                let occupant = pieces.iter().position(|&q| cell_of(q) == to);
                let legal = match occupant {
                    None => ray.onto.empty(),
                    Some(j) => ray.onto.enemy() && t.side_of(group_of(pieces[j])) != side,
                };
                if legal && (!dedupe || seen.insert(to)) {
                    f(i, occupant, to);
                }
                if !ray.leap && occupant.is_some() {
                    break;
                }
            }
        }
    }
    if can_pass {
        f(usize::MAX, None, 0);
    }
}

/// [`crate::RulesGame`]'s children where pieces only step and the side to move
/// moves one piece: each [`for_each_step`] move played as [`play_step`] plays
/// it (a capture takes the enemy off, a meeting ends the game), in the order of
/// the moves.
#[inline]
pub(crate) fn for_each_step_child<const N: usize>(
    t: &Tables,
    p: &RulesPosition<N>,
    mut f: impl FnMut(RulesPosition<N>),
) {
    let pieces = p.packed();
    for_each_step(t, p, |i, occupant, to| {
        let mut c = *p;
        c.pass_turn();
        if i == usize::MAX {
            return f(c);
        }
        let g = group_of(pieces[i]);
        let mut i = i;
        if let Some(j) = occupant {
            let ended = t.meet_code(g, group_of(pieces[j]));
            if ended != 0 {
                c.set_ended(ended);
            }
            c.remove_at(j);
            if j < i {
                i -= 1;
            }
        }
        c.replace_at(i, pack(g, to));
        f(c)
    })
}

/// The number of moves where pieces only step and the side to move moves one
/// piece: [`for_each_step`]'s, counted.
#[inline]
pub(crate) fn step_move_count<const N: usize>(t: &Tables, p: &RulesPosition<N>) -> usize {
    let mut n = 0;
    for_each_step(t, p, |_, _, _| n += 1);
    n
}

/// Calls `f` with each legal move of a position where play goes on, each
/// distinct move once.
pub(crate) fn for_each<const N: usize>(t: &Tables, p: &RulesPosition<N>, mut f: impl FnMut(RulesMove)) {
    if t.play_end().is_some_and(|end| end.pass) {
        // A side with no move passes (play is over when neither has one).
        let mut any = false;
        for_each_made(t, p, |m| {
            any = true;
            f(m)
        });
        if !any {
            f(RulesMove::PASS);
        }
        return;
    }
    for_each_made(t, p, f)
}

/// The moves a side makes on the board (all of [`for_each`]'s but a pass for
/// want of a move).
#[inline]
fn for_each_made<const N: usize>(t: &Tables, p: &RulesPosition<N>, mut f: impl FnMut(RulesMove)) {
    let side = p.to_move();
    match t.turn_of(side) {
        Turn::OnePiece => one_piece_moves(t, p, side, &mut f),
        Turn::AllPieces => all_piece_moves(t, p, side, &mut f),
    }
}

/// The moves of a side that moves one piece a turn: each piece along its rays,
/// then the drops, then a pass where a piece may stay.
#[inline]
fn one_piece_moves<const N: usize>(t: &Tables, p: &RulesPosition<N>, side: usize, f: &mut impl FnMut(RulesMove)) {
    let board = t.board();
    let mut can_pass = false;
    let mut seen = Seen::<u32>::default();
    for &packed in p.packed() {
        let g = group_of(packed);
        if t.side_of(g) != side {
            continue;
        }
        can_pass |= t.stays(g);
        let from = cell_of(packed);
        // A target reached by two rules (or two rays) is one move.
        let dedupe = board.rays_overlap(g, from);
        seen.clear();
        for_each_target(t, p, side, g, from, |to, _| {
            if !dedupe || seen.insert(to) {
                step_moves(t, g, from, to, f);
            }
        });
    }
    drop_moves(t, p, side, f);
    if can_pass {
        f(RulesMove::PASS);
    }
}

/// Calls `f(to, taken)` with each cell a piece of group `g` (of `side`, to move
/// one piece) on `from` may move to along its rays, with the enemy piece there if
/// any; a target two rays reach comes once a ray ([`Board::rays_overlap`]).
///
/// [`Board::rays_overlap`]: crate::compiled::board::Board::rays_overlap
#[inline]
pub(crate) fn for_each_target<const N: usize>(
    t: &Tables,
    p: &RulesPosition<N>,
    side: usize,
    g: usize,
    from: u32,
    mut f: impl FnMut(u32, Option<u32>),
) {
    let board = t.board();
    for ray in board.rays(g, from) {
        for &to in board.ray_cells(ray) {
            if p.is_wall(to) {
                if ray.leap {
                    continue;
                }
                break;
            }
            let occupant = p.at(to);
            match occupant {
                None if ray.onto.empty() => f(to, None),
                Some(other) if t.side_of(group_of(other)) != side && ray.onto.enemy() => f(to, Some(other)),
                _ => {}
            }
            if !ray.leap && occupant.is_some() {
                break;
            }
        }
    }
}

/// The moves of a piece of group `g` from `from` to `to`: promoting where it
/// must, both ways where it may.
#[inline]
pub(crate) fn step_moves(t: &Tables, g: usize, from: u32, to: u32, f: &mut impl FnMut(RulesMove)) {
    match t.promotion(g) {
        Some(promotion) if promotion.zone[to as usize] => {
            let mut m = RulesMove::one(from, to);
            m.promote = true;
            f(m);
            if !promotion.forced {
                f(RulesMove::one(from, to));
            }
        }
        _ => f(RulesMove::one(from, to)),
    }
}

/// The drops of the side: each of its droppable groups onto each cell it may
/// land on.
#[inline]
pub(crate) fn drop_moves<const N: usize>(t: &Tables, p: &RulesPosition<N>, side: usize, f: &mut impl FnMut(RulesMove)) {
    let drops = t.drops_by_group();
    if drops.is_empty() || p.piece_count() >= N {
        return;
    }
    let mut occupied = None;
    for (g, drop) in drops.iter().enumerate() {
        let Some(drop) = drop else { continue };
        if t.side_of(g) != side || (drop.from_hand && p.in_hand(t.hand_slot_of(g) as usize) == 0) {
            continue;
        }
        let occupied = *occupied.get_or_insert_with(|| p.occupied());
        let must_flip = t.flips().filter(|flips| flips.must_flip(g));
        if let Some(flips) = must_flip {
            let owner = owners(p, t.board().cells());
            let mut f = |cell| {
                if flips.flipped(g, side, cell, &owner, t.group_sides()) != 0 {
                    f(RulesMove::drop(g, cell))
                }
            };
            drop_cells(t, drop, occupied, &mut f);
        } else {
            drop_cells(t, drop, occupied, &mut |cell| f(RulesMove::drop(g, cell)));
        }
    }
}

/// Each cell a piece of the drop rule `drop` may land on.
#[inline]
fn drop_cells(t: &Tables, drop: &DropTargets, occupied: u128, f: &mut impl FnMut(u32)) {
    if drop.gravity {
        for &top in t.column_tops() {
            if let Some(cell) = t.fall(top, occupied) {
                if drop.allows(cell) {
                    f(cell);
                }
            }
        }
    } else {
        for cell in 0..t.board().cells() as u32 {
            if occupied >> cell & 1 == 0 && drop.allows(cell) {
                f(cell);
            }
        }
    }
}

/// Every piece of the side moves at once: the product of each piece's targets
/// (and staying, where it may), destinations all different. Paths and targets
/// are read with the side's own pieces lifted off the board; a target holding
/// an enemy is allowed only where the two pieces meet (which ends the game).
fn all_piece_moves<const N: usize>(t: &Tables, p: &RulesPosition<N>, side: usize, f: &mut impl FnMut(RulesMove)) {
    let board = t.board();
    let mine: Vec<u32> = p.packed().iter().copied().filter(|&q| t.side_of(group_of(q)) == side).collect();
    if mine.is_empty() {
        return;
    }
    let mut options: Vec<Vec<u32>> = Vec::with_capacity(mine.len());
    for &packed in &mine {
        let (g, from) = (group_of(packed), cell_of(packed));
        let mut targets = Vec::new();
        if t.stays(g) {
            targets.push(from);
        }
        for ray in board.rays(g, from) {
            for &to in board.ray_cells(ray) {
                if p.is_wall(to) {
                    if ray.leap {
                        continue;
                    }
                    break;
                }
                let occupant = p.at(to).filter(|&o| t.side_of(group_of(o)) != side);
                let legal = match occupant {
                    None => ray.onto.empty(),
                    Some(enemy) => ray.onto.enemy() && t.meet_code(g, group_of(enemy)) != 0,
                };
                if legal && !targets.contains(&to) {
                    targets.push(to);
                }
                if !ray.leap && occupant.is_some() {
                    break;
                }
            }
        }
        if targets.is_empty() {
            return; // this piece cannot move: the side has no legal turn
        }
        options.push(targets);
    }
    let mut children: Vec<(RulesPosition<N>, RulesMove)> = Vec::new();
    let mut choice = vec![0usize; mine.len()];
    loop {
        let dests: Vec<u32> = choice.iter().enumerate().map(|(i, &c)| options[i][c]).collect();
        let distinct = (0..dests.len()).all(|i| !dests[..i].contains(&dests[i]));
        if distinct {
            let m = RulesMove::all(mine.iter().zip(&dests).map(|(&packed, &to)| (cell_of(packed), to)));
            children.push((play(t, p, &m), m));
        }
        // Next combination (odometer).
        let mut i = 0;
        loop {
            if i == choice.len() {
                // Moves that lead to the same position (two pieces of a kind
                // trading cells) are one move: sorted, not compared pairwise, so
                // that four pieces' 625 combinations stay cheap.
                children.sort_by_key(|(child, _)| *child);
                children.dedup_by(|a, b| a.0 == b.0);
                children.iter().for_each(|(_, m)| f(*m));
                return;
            }
            choice[i] += 1;
            if choice[i] < options[i].len() {
                break;
            }
            choice[i] = 0;
            i += 1;
        }
    }
}

/// The position after a move (which must be legal in `p`).
pub(crate) fn play<const N: usize>(t: &Tables, p: &RulesPosition<N>, m: &RulesMove) -> RulesPosition<N> {
    if m.len == 1 {
        return play_step(t, p, m.steps[0], m.promote);
    }
    let mut c = *p;
    let side = p.to_move();
    let mut movers = [0u32; MAX_ALL_PIECES];
    for (i, &(from, _)) in m.steps().iter().enumerate() {
        let packed = p.at(from as u32).expect("a move starts from a piece");
        movers[i] = packed;
        c.remove(packed);
    }
    for (i, &(from, to)) in m.steps().iter().enumerate() {
        let g = group_of(movers[i]);
        if let Some(other) = c.at(to as u32) {
            debug_assert_ne!(t.side_of(group_of(other)), side);
            let ended = t.meet_code(g, group_of(other));
            if ended != 0 {
                c.set_ended(ended);
            }
            c.remove(other);
        }
        c.insert(pack(g, to as u32));
        if from != to && t.leaves_trail(g) {
            c.add_walls(1u128 << from);
        }
    }
    c.pass_turn();
    c
}

/// The position after one piece's move `from` → `to` (legal in `p`): the piece
/// is rewritten where it stands in the list and slid into order, an enemy on
/// `to` taken off; no list is rebuilt.
#[inline]
fn play_step<const N: usize>(
    t: &Tables,
    p: &RulesPosition<N>,
    (from, to): (u16, u16),
    promote: bool,
) -> RulesPosition<N> {
    let mut c = *p;
    c.pass_turn();
    if from >= DROP {
        debug_assert!(c.piece_count() < N);
        let g = (from - DROP) as usize;
        // Only groups dropped from a hand have a slot.
        let slot = t.hand_slot_of(g);
        if slot != NO_SLOT {
            c.take_from_hand(slot as usize);
        }
        if let Some(flips) = t.flips().filter(|flips| flips.flips(g)) {
            let owner = owners(p, t.board().cells());
            flips.turn(&mut c, flips.flipped(g, p.to_move(), to as u32, &owner, t.group_sides()));
        }
        c.insert(pack(g, to as u32));
        return c;
    }
    if from == to {
        return c;
    }
    let (from, to) = (from as u32, to as u32);
    let mut i = c.place_of(from).expect("a move starts from a piece");
    let g = group_of(c.packed()[i]);
    if let Some(j) = c.place_of(to) {
        let taken = group_of(c.packed()[j]);
        let ended = t.meet_code(g, taken);
        if ended != 0 {
            c.set_ended(ended);
        } else {
            let slot = t.captured_to_hand(taken);
            if slot != NO_SLOT {
                c.put_in_hand(slot as usize);
            }
        }
        c.remove_at(j);
        if j < i {
            i -= 1;
        }
    }
    let moved = if promote { pack(t.promotion(g).map_or(g, |pr| pr.group), to) } else { pack(g, to) };
    // Slide the piece to its place: the list stays sorted.
    c.replace_at(i, moved);
    if t.leaves_trail(g) {
        c.add_walls(1u128 << from);
    }
    c
}

/// The targets (or origins) already yielded for one piece: a few on the stack,
/// more in a `Vec` (a piece that slides across a big board), so that the common
/// case allocates nothing: move generation runs for every position of a solve.
pub(crate) struct Seen<T> {
    inline: [T; 16],
    len: usize,
    spill: Vec<T>,
}

impl<T: Copy + Default + PartialEq> Default for Seen<T> {
    fn default() -> Self {
        Seen { inline: [T::default(); 16], len: 0, spill: Vec::new() }
    }
}

impl<T: Copy + PartialEq> Seen<T> {
    /// Adds `item`; false if it was there already.
    #[inline]
    pub(crate) fn insert(&mut self, item: T) -> bool {
        if self.inline[..self.len].contains(&item) || self.spill.contains(&item) {
            return false;
        }
        if self.len < self.inline.len() {
            self.inline[self.len] = item;
            self.len += 1;
        } else {
            self.spill.push(item);
        }
        true
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }
}
