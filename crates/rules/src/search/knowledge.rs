//! Immediate wins, read from the rules: does the side to move have a move that
//! ends the game at once in its favour? The search asks at every position
//! ([`gsolve_engine::search::SearchHooks::wins_at_once`]); the answer is exact,
//! and found without playing every move (docs/rules-solving.md, "Immediate wins in
//! the search", where each step below is proved).
//!
//! A move of side S (to move) wins at once when its child, O to move, is over and
//! lost for O, or O has no move there and being stuck loses (the engine's rule).
//! Which endings a move can set off follows from the rules:
//!
//! - a piece arriving on a cell where its side's `reach` check after the move
//!   applies (no piece of S stood on such a cell before: the position would be
//!   over), or a move that promotes;
//! - a capture, where captures can end the game: meetings, royal kinds, or O's
//!   last piece taken where having none ends the game;
//! - a drop arriving in such a zone, or filling the board where a full board ends
//!   the game;
//! - O's piece already standing in a zone of O checked after the reply (checked
//!   at the child, not at the position): the answer is left to the search;
//! - O stuck: excluded when O has two moves onto empty cells whose cells (the
//!   piece's, the cells passed and the target) are disjoint, since one move of S
//!   changes one cell O's moves onto empty cells can depend on (the target; the
//!   cell S leaves was taken, so no such move passed it); otherwise the answer is
//!   left to the search.
//!
//! Every other move leaves the child not over or over for another reason. The
//! moves named are played and their children's endings read.

use crate::compiled::moves::{drop_moves, for_each_target, step_moves, terminal};
use crate::compiled::position::{cell_of, group_of, RulesPosition};
use crate::compiled::tables::Tables;
use crate::language::spec::{Check, Turn};
use gsolve_engine::Outcome;

/// The most cells of a board whose immediate wins are read (the footprints of
/// moves are 128-bit cell sets).
const MAX_CELLS: usize = 128;

/// The footprints of O's moves kept while looking for two disjoint ones.
const FOOTPRINTS: usize = 16;

/// What the rules say about moves that end the game, compiled for a board.
///
/// The shape it takes: no trails; both sides move one piece a turn; no `line`
/// ending (a move anywhere on a line could complete it: every move would be a
/// candidate, no cheaper than the search's own look at the children); at most
/// [`MAX_CELLS`] cells.
#[derive(Clone, Debug)]
pub(crate) struct Knowledge {
    cells: usize,
    /// `arrives[g * cells + c]`: a cell where a piece of group g ends the game on
    /// arrival (a `reach` check after the move) or promotes lies on a ray of a
    /// piece of group g on cell c.
    arrives: Vec<bool>,
    /// `waits[g * cells + c]`: a piece of group g on cell c counts for a `reach`
    /// check of its side made after the reply.
    waits: Vec<bool>,
    /// Some `reach` check is made after the reply (else `waits` is never read).
    any_waits: bool,
    /// `drop_arrives[g]`: a piece of group g dropped may end the game on arrival.
    drop_arrives: Vec<bool>,
    /// Meetings or royal kinds: a capture may end the game whatever is left.
    captures_end: bool,
    /// `no_pieces[side]`: having no piece ends the game for that side.
    no_pieces: [bool; 2],
    /// A full board ends the game.
    full: bool,
    /// Being stuck loses (the engine's rule: `terminal` does not say it).
    stuck_loses: bool,
}

impl Knowledge {
    /// The knowledge of the rules compiled in `t`, if they have the shape
    /// [`Knowledge`] takes.
    pub(crate) fn of(t: &Tables) -> Option<Knowledge> {
        let rules = t.rules();
        let endings = t.endings();
        let board = t.board();
        let cells = board.cells();
        let groups = t.groups();
        if rules.has_trails()
            || endings.has_lines()
            || cells > MAX_CELLS
            || (0..2).any(|side| t.turn_of(side) != Turn::OnePiece)
        {
            return None;
        }
        let ends_or_promotes =
            |g: usize, c: u32| endings.ends_on_arrival(g, c) || t.promotion(g).is_some_and(|pr| pr.zone[c as usize]);
        let mut arrives = vec![false; groups * cells];
        let mut waits = vec![false; groups * cells];
        for g in 0..groups {
            let side = t.side_of(g);
            for c in 0..cells as u32 {
                let at = g * cells + c as usize;
                arrives[at] =
                    board.rays(g, c).iter().any(|ray| board.ray_cells(ray).iter().any(|&to| ends_or_promotes(g, to)));
                waits[at] =
                    endings.reach_checks(side).iter().any(|check| check.when() == Check::AfterReply && check.hit(at));
            }
        }
        // A dropped piece does not promote.
        let drop_arrives = (0..groups)
            .map(|g| t.drop_targets(g).is_some() && (0..cells as u32).any(|c| endings.ends_on_arrival(g, c)))
            .collect();
        Some(Knowledge {
            cells,
            arrives,
            any_waits: waits.contains(&true),
            waits,
            drop_arrives,
            captures_end: t.has_meetings() || endings.has_royal(),
            no_pieces: [endings.no_pieces(0).is_some(), endings.no_pieces(1).is_some()],
            full: endings.has_full(),
            stuck_loses: endings.stuck() == Outcome::Loss,
        })
    }

    /// Does the side to move at `p` (not over) have a move that wins at once?
    /// `None` where the answer is left to the search (module docs).
    pub(crate) fn wins_at_once<const N: usize>(&self, t: &Tables, p: &RulesPosition<N>) -> Option<bool> {
        let (s, o) = (p.to_move(), 1 - p.to_move());
        let cells = self.cells;
        let mut o_pieces = 0;
        for &q in p.packed() {
            let g = group_of(q);
            if t.side_of(g) == o {
                o_pieces += 1;
                if self.any_waits && self.waits[g * cells + cell_of(q) as usize] {
                    return None;
                }
            }
        }
        if self.stuck_loses && !self.moves_survive(t, p, o) {
            return None;
        }
        let captures_end = self.captures_end || (self.no_pieces[o] && o_pieces == 1);
        let wins = |m: crate::compiled::moves::RulesMove| {
            terminal(t, &crate::compiled::moves::play(t, p, &m)) == Some(Outcome::Loss)
        };
        let mut won = false;
        for &q in p.packed() {
            let (g, from) = (group_of(q), cell_of(q));
            if t.side_of(g) != s || !(captures_end || self.arrives[g * cells + from as usize]) {
                continue;
            }
            for_each_target(t, p, s, g, from, |to, taken| {
                let ends = t.endings().ends_on_arrival(g, to)
                    || t.promotion(g).is_some_and(|pr| pr.zone[to as usize])
                    || (taken.is_some() && captures_end);
                if ends && !won {
                    step_moves(t, g, from, to, &mut |m| won |= wins(m));
                }
            });
            if won {
                return Some(true);
            }
        }
        let fills = self.full && p.taken_cells() + 1 >= cells;
        if fills || self.drop_arrives.iter().enumerate().any(|(g, &d)| d && t.side_of(g) == s) {
            drop_moves(t, p, s, &mut |m| {
                if !won {
                    let (g, to) = m.dropped().unwrap_or((0, 0));
                    if fills || t.endings().ends_on_arrival(g, to) {
                        won |= wins(m);
                    }
                }
            });
        }
        Some(won)
    }

    /// Has `side` at `p` a piece with a move that ends the game on arrival (a
    /// `reach` check after the move) or promotes, were it its turn? A threat the
    /// move that led to `p` made, for the move order only: not a proof of a win
    /// (the ending may favour either side, and the opponent moves first).
    pub(crate) fn threatens<const N: usize>(&self, t: &Tables, p: &RulesPosition<N>, side: usize) -> bool {
        p.packed().iter().any(|&q| {
            let (g, from) = (group_of(q), cell_of(q));
            if t.side_of(g) != side || !self.arrives[g * self.cells + from as usize] {
                return false;
            }
            let mut threat = false;
            for_each_target(t, p, side, g, from, |to, _| {
                threat |= t.endings().ends_on_arrival(g, to) || t.promotion(g).is_some_and(|pr| pr.zone[to as usize]);
            });
            threat
        })
    }

    /// Has side `o` (not to move at `p`) a move at every child of `p`? Yes when it
    /// has two moves onto empty cells with disjoint footprints (module docs); a
    /// piece that may stay (a pass) counts, its footprint its own cell, and so do
    /// drops without gravity onto an empty cell, while there is room for two more
    /// pieces.
    fn moves_survive<const N: usize>(&self, t: &Tables, p: &RulesPosition<N>, o: usize) -> bool {
        let board = t.board();
        let mut kept = [0u128; FOOTPRINTS];
        let mut len = 0;
        // True once `print` is disjoint from a footprint kept.
        let mut add = |print: u128| {
            if kept[..len].iter().any(|&k| k & print == 0) {
                return true;
            }
            if len < FOOTPRINTS {
                kept[len] = print;
                len += 1;
            }
            false
        };
        let occupied = p.occupied();
        for &q in p.packed() {
            let (g, from) = (group_of(q), cell_of(q));
            if t.side_of(g) != o {
                continue;
            }
            let home = 1u128 << from;
            if t.stays(g) && add(home) {
                return true;
            }
            for ray in board.rays(g, from) {
                let mut path = home;
                for &to in board.ray_cells(ray) {
                    let empty = occupied >> to & 1 == 0;
                    if empty && ray.onto.empty() {
                        let print = if ray.leap { home | 1u128 << to } else { path | 1u128 << to };
                        if add(print) {
                            return true;
                        }
                    }
                    if !ray.leap {
                        if !empty {
                            break;
                        }
                        path |= 1u128 << to;
                    }
                }
            }
        }
        if p.piece_count() + 2 > N {
            return false;
        }
        for (g, drop) in t.drops_by_group().iter().enumerate() {
            let Some(drop) = drop else { continue };
            let slot = t.hand_slot_of(g);
            if t.side_of(g) != o || drop.gravity || (drop.from_hand && p.in_hand(slot as usize) == 0) {
                continue;
            }
            for cell in 0..board.cells() as u32 {
                if occupied >> cell & 1 == 0 && drop.allows(cell) && add(1u128 << cell) {
                    return true;
                }
            }
        }
        false
    }
}
