//! Parents of a position, derived from the rules: every move run backwards.
//!
//! The side that just moved is the one not to move. For a side that moves one
//! piece, each of its pieces may have come back along a backward ray (the move's
//! vectors reversed, blocked by the same cells), from an empty cell: quietly if the
//! move may land on an empty cell, or capturing a piece of any enemy kind that
//! the index has room for if it may land on an enemy (and the two do not meet,
//! which would have ended the game). A side that may pass may have passed. For a
//! side that moves every piece, each piece came from a cell of its backward rays
//! or stayed, all origins different. A piece of a kind that is dropped may have
//! been dropped where it stands (where it may land, and where it would come to
//! rest if it falls), when the index holds the counts without it.
//!
//! # Invariant
//! Each parent is yielded once per move leading to the child, which is once:
//! forward move generation yields each distinct move once, and distinct moves of
//! one position lead to distinct positions. Parents that are over (the game ended
//! there) are left out: they have no moves. [`gsolve_engine::check::unmoves_match_moves`]
//! checks all of this on every test game.

use crate::game::{RulesGame, RulesMove, MAX_ALL_PIECES};
use crate::position::{cell_of, group_of, pack, RulesPosition};
use crate::spec::Turn;
use gsolve_engine::Game;

impl<const N: usize> RulesGame<N> {
    /// Calls `f` with each parent of a position where play goes on.
    pub(crate) fn parents(&self, c: &RulesPosition<N>, f: &mut impl FnMut(RulesPosition<N>)) {
        if c.ended != 0 {
            return;
        }
        let side = 1 - c.to_move();
        match self.rules.sides[side].turn {
            Turn::OnePiece => self.one_piece_parents(c, side, f),
            Turn::AllPieces => self.all_piece_parents(c, side, f),
        }
    }

    fn emit(&self, parent: RulesPosition<N>, f: &mut impl FnMut(RulesPosition<N>)) {
        if self.terminal(&parent).is_none() {
            f(parent);
        }
    }

    fn one_piece_parents(&self, c: &RulesPosition<N>, side: usize, f: &mut impl FnMut(RulesPosition<N>)) {
        let board = &self.board;
        let n = self.group_side.len();
        let limits = self.limits();
        // The counts of each group, on the stack: this runs for every position.
        let mut counts = [0u8; 64];
        for &q in c.packed() {
            counts[group_of(q)] += 1;
        }
        let mut can_pass = false;
        let mut seen = Seen::default();
        let mut occupied = None;
        for &packed in c.packed() {
            let g = group_of(packed);
            if self.group_side[g] != side {
                continue;
            }
            can_pass |= self.rules.kinds[board.groups[g].kind].stay;
            let to = cell_of(packed);
            if let Some(drop) = &self.drops[g] {
                // Dropped here: the parent lacks the piece, and its counts are a tier.
                let occupied = *occupied.get_or_insert_with(|| self.occupied(c));
                let landed = drop.allowed[to as usize] && (!drop.gravity || self.rests_on(to, occupied));
                counts[g] -= 1;
                let in_index = self.index.as_ref().is_none_or(|index| index.tier_of(&counts[..n]).is_some());
                counts[g] += 1;
                if landed && in_index {
                    let mut parent = *c;
                    parent.remove(packed);
                    parent.to_move ^= 1;
                    self.emit(parent, f);
                }
            }
            seen.clear();
            // An origin on two backward rays would be yielded twice: checked only
            // where rays share cells.
            let dedupe = board.back_rays_overlap(g, to);
            for ray in board.back_rays(g, to) {
                for &from in board.ray_cells(ray) {
                    let occupied = c.at(from).is_some() || c.is_wall(from);
                    if !occupied {
                        // The piece stood on `from`; `to` was empty or held an enemy.
                        let (quiet, capture) = (ray.onto.empty(), ray.onto.enemy());
                        if quiet && (!dedupe || seen.insert((from, false))) {
                            let mut parent = *c;
                            parent.relocate(packed, pack(g, from));
                            parent.to_move ^= 1;
                            self.emit(parent, f);
                        }
                        if capture && (c.len as usize) < N && (!dedupe || seen.insert((from, true))) {
                            for (h, hg) in board.groups.iter().enumerate() {
                                let room = limits.is_none_or(|l| counts[h] < l[h]);
                                if hg.side == side || !room || self.meet_code(g, h, n) != 0 {
                                    continue;
                                }
                                let mut parent = *c;
                                parent.relocate(packed, pack(g, from));
                                parent.insert(pack(h, to));
                                parent.to_move ^= 1;
                                self.emit(parent, f);
                            }
                        }
                    }
                    if occupied && !ray.leap {
                        break;
                    }
                }
            }
        }
        if can_pass {
            let mut parent = *c;
            parent.to_move ^= 1;
            self.emit(parent, f);
        }
    }

    /// Every piece of the side came from a cell of its backward rays (own pieces do
    /// not block: they all moved) or stayed; origins all different.
    fn all_piece_parents(&self, c: &RulesPosition<N>, side: usize, f: &mut impl FnMut(RulesPosition<N>)) {
        let board = &self.board;
        let mine: Vec<u32> = c.packed().iter().copied().filter(|&q| self.group_side[group_of(q)] == side).collect();
        if mine.is_empty() {
            return;
        }
        let mut options: Vec<Vec<u32>> = Vec::with_capacity(mine.len());
        for &packed in &mine {
            let (g, to) = (group_of(packed), cell_of(packed));
            let mut origins = Vec::new();
            if self.rules.kinds[board.groups[g].kind].stay {
                origins.push(to);
            }
            for ray in board.back_rays(g, to) {
                if !ray.onto.empty() {
                    continue; // such a move only meets enemies, which ends the game
                }
                for &from in board.ray_cells(ray) {
                    let enemy = c.at(from).is_some_and(|o| self.group_side[group_of(o)] != side);
                    let blocked = enemy || c.is_wall(from);
                    if !blocked && !origins.contains(&from) {
                        origins.push(from);
                    }
                    if blocked && !ray.leap {
                        break;
                    }
                }
            }
            if origins.is_empty() {
                return;
            }
            options.push(origins);
        }
        let mut parents: Vec<RulesPosition<N>> = Vec::new();
        let mut choice = vec![0usize; mine.len()];
        debug_assert!(mine.len() <= MAX_ALL_PIECES);
        loop {
            let origins: Vec<u32> = choice.iter().enumerate().map(|(i, &k)| options[i][k]).collect();
            if (0..origins.len()).all(|i| !origins[..i].contains(&origins[i])) {
                let mut parent = *c;
                for &packed in &mine {
                    parent.remove(packed);
                }
                for (i, &packed) in mine.iter().enumerate() {
                    parent.insert(pack(group_of(packed), origins[i]));
                }
                parent.to_move ^= 1;
                // The parent's turn must really lead here (each piece's move legal
                // from where the others stood): checked by playing it.
                let mut m = RulesMove::PASS;
                for (i, &packed) in mine.iter().enumerate() {
                    m.steps[i] = (origins[i] as u16, cell_of(packed) as u16);
                }
                m.len = mine.len() as u8;
                if self.play_move(&parent, &m) == *c {
                    parents.push(parent);
                }
            }
            let mut i = 0;
            loop {
                if i == choice.len() {
                    // Each parent once (see the invariant): sorted, then deduplicated.
                    parents.sort_unstable();
                    parents.dedup();
                    parents.into_iter().for_each(|p| self.emit(p, f));
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
