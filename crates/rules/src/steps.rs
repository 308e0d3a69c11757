//! Parents ranked from their child's pieces, for games whose pieces only step:
//! retrograde analysis asks every position it decides for its parents' indices
//! ([`gsolve_engine::Unmoves::for_each_parent_index`]), and here no parent is
//! built as a position.
//!
//! # Which games
//! Those [`ranks_parents`] accepts:
//! - pieces only step ([`Tables::steps_only`]: no drops, promotions, hands or
//!   trails) and each side moves one piece a turn;
//! - the endings are one table ([`crate::endings::EndingTable`]: no `line` or
//!   `full` ending) and being stuck is a loss (so whether a position is over
//!   depends on its pieces alone, not on its moves);
//! - the index ranks a list of pieces ([`PlacementIndex::locates_pieces`]: no
//!   hands, at most [`FEW_PIECES`] pieces in all).
//!
//! Chase, Queen's Case, cops and robbers, fox and hounds: the pursuits and the
//! pieces-on-a-board games without promotions.
//!
//! # How
//! A parent is its child with one piece of the side that moved back on a cell
//! of one of its backward rays (and, for a capture, an enemy where it landed),
//! or, where a piece may stay, the child with the other side to move: the same
//! parents as [`crate::unmoves`] finds, found the same way. Each is a short
//! sorted list on the stack: whether it is over is the OR of its pieces' ending
//! words looked up once, and its index is ranked from the list
//! ([`PlacementIndex::locate_pieces`]). Why: building each parent as a
//! [`RulesPosition`] (a copy of the child, changed, copied again to be ranked)
//! stalled on every copy of a just-changed position, and was with the ending
//! checks most of a pursuit's retrograde solve.

use crate::index::{PlacementIndex, FEW_PIECES};
use crate::moves::Seen;
use crate::position::{cell_of, group_of, pack, RulesPosition};
use crate::spec::Turn;
use crate::tables::Tables;
use gsolve_engine::Outcome;

/// Are the parents of the game of `tables` with index `index` ranked here
/// (module docs, "Which games")?
pub(crate) fn ranks_parents(tables: &Tables, index: &PlacementIndex) -> bool {
    let pieces: usize = index.limits().iter().map(|&l| l as usize).sum();
    tables.steps_only()
        && (0..2).all(|side| tables.turn_of(side) == Turn::OnePiece)
        && tables.endings().table().is_some()
        && tables.endings().stuck() == Outcome::Loss
        && index.locates_pieces(pieces)
}

/// Calls `f` with the index of each parent of the position at `child` (which
/// names a position), as [`crate::unmoves::parents`] yields the parents, in a
/// game [`ranks_parents`] accepts; `N` is the room of the game's positions
/// (a capture's parent has a piece more, and must fit).
pub(crate) fn for_each_parent_index<const N: usize>(
    t: &Tables,
    index: &PlacementIndex,
    child: u64,
    f: &mut impl FnMut(u64),
) {
    let tier = index.tier_at(child);
    let c: RulesPosition<N> =
        index.position_in(tier, child - index.tiers()[tier].offset).expect("a parent's index names a position");
    let endings = t.endings().table().expect("the game's endings are a table");
    let board = t.board();
    let cells = board.cells();
    let pieces = c.packed();
    let n = pieces.len();
    // The side that moved into the child is to move in its parents.
    let side = 1 - c.to_move();
    let word_of = |q: u32| endings.word_at(group_of(q) * cells + cell_of(q) as usize);
    // A parent over (the game ended there) has no moves, so it is no parent; the
    // index of one no tier holds is past every index, as `Indexed::index` gives it.
    let mut emit = |list: &[u32], word: usize| {
        if endings.outcome(word, side).is_none() {
            f(index.locate_pieces(list, side).map_or(u64::MAX, |(t, i)| index.tiers()[t].offset + i));
        }
    };
    let mut list = [0u32; FEW_PIECES];
    let mut can_pass = false;
    let mut seen = Seen::default();
    for (i, &packed) in pieces.iter().enumerate() {
        let g = group_of(packed);
        if t.side_of(g) != side {
            continue;
        }
        can_pass |= t.stays(g);
        let to = cell_of(packed);
        let others = pieces.iter().enumerate().filter(|&(j, _)| j != i).fold(0, |word, (_, &q)| word | word_of(q));
        // An origin on two backward rays would be yielded twice: checked only
        // where rays share cells.
        let dedupe = board.back_rays_overlap(g, to);
        seen.clear();
        for ray in board.back_rays(g, to) {
            for &from in board.ray_cells(ray) {
                let occupied = pieces.iter().any(|&q| cell_of(q) == from);
                if !occupied {
                    let moved = pack(g, from);
                    let word = others | word_of(moved);
                    if ray.onto.empty() && (!dedupe || seen.insert((from, false))) {
                        moved_back(pieces, i, moved, &mut list);
                        emit(&list[..n], word);
                    }
                    if ray.onto.enemy() && n < N && (!dedupe || seen.insert((from, true))) {
                        // A capture: an enemy of each group the piece does not meet
                        // (a meeting ends the game) stood on `to`, where the index
                        // has room for one more of its group.
                        for h in 0..t.groups() {
                            if t.side_of(h) == side || t.meet_code(g, h) != 0 {
                                continue;
                            }
                            let count = pieces.iter().filter(|&&q| group_of(q) == h).count();
                            if count >= index.limits()[h] as usize {
                                continue;
                            }
                            let captured = pack(h, to);
                            moved_back(pieces, i, moved, &mut list);
                            insert_sorted(&mut list, n, captured);
                            emit(&list[..n + 1], word | word_of(captured));
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
        let word = pieces.iter().fold(0, |word, &q| word | word_of(q));
        emit(pieces, word);
    }
}

/// Writes `pieces` with the one at place `i` replaced by `moved` into `list`,
/// sorted (the piece slides to its place among its group's).
#[inline]
fn moved_back(pieces: &[u32], i: usize, moved: u32, list: &mut [u32]) {
    let n = pieces.len();
    list[..n].copy_from_slice(pieces);
    let mut at = i;
    while at > 0 && list[at - 1] > moved {
        list[at] = list[at - 1];
        at -= 1;
    }
    while at + 1 < n && list[at + 1] < moved {
        list[at] = list[at + 1];
        at += 1;
    }
    list[at] = moved;
}

/// Inserts `packed` into the sorted first `n` entries of `list` (which has room).
#[inline]
fn insert_sorted(list: &mut [u32], n: usize, packed: u32) {
    let mut at = n;
    while at > 0 && list[at - 1] > packed {
        list[at] = list[at - 1];
        at -= 1;
    }
    list[at] = packed;
}
