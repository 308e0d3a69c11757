//! Retrograde's first look read from the rays laid out, no child built.

use super::layout::*;
use crate::compiled::moves::Seen;
use crate::compiled::position::{cell_of, group_of};
use crate::compiled::tables::Tables;
use crate::index::PlacementIndex;
use gsolve_engine::{FirstLook, Outcome};

/// Calls `f(index, look)` for each index of `range` (ascending, holes skipped)
/// with what retrograde's first step needs of its position
/// ([`gsolve_engine::Indexed::for_each_first_look_in`]), in a game
/// [`ranks_parents`] accepts whose terminal positions are all indexed or not
/// (`terminals_indexed`). The pieces of a placement are unranked once for both
/// sides to move; the position and each child are over or not by their pieces'
/// ending words (a meeting by the meeting's code), and the moves are walked
/// on the list as [`crate::compiled::moves`] walks them for a position (the same moves,
/// each once).
///
/// Why: decoding each position, then counting its moves or playing each child
/// and asking it whether it is over, copied a position for every child, a large
/// part of a Queen's Case retrograde solve.
pub(crate) fn for_each_first_look_in<const N: usize>(
    t: &Tables,
    index: &PlacementIndex,
    steps: &Steps,
    terminals_indexed: bool,
    range: std::ops::Range<u64>,
    f: &mut impl FnMut(u64, FirstLook),
) {
    let end = range.end.min(index.size());
    let mut at = range.start;
    while at < end {
        let tier = index.tier_at(at);
        let info = &index.tiers()[tier];
        let tier_end = end.min(info.offset + info.size);
        if index.singles() {
            // As for the parents: the tier fixes the number of pieces, and one,
            // two or three get their own copy of the loop.
            let looks = (t, index, steps, terminals_indexed, tier);
            at = match index.single_count(tier) {
                1 => single_looks::<1, true>(looks, at..tier_end, f),
                2 => single_looks::<2, true>(looks, at..tier_end, f),
                3 => single_looks::<3, true>(looks, at..tier_end, f),
                _ => single_looks::<N, false>(looks, at..tier_end, f),
            };
            continue;
        }
        let mut list = [0u32; N];
        while at < tier_end {
            if let Some(n) = index.unrank_pieces(tier, (at & !1) - info.offset, &mut list) {
                look_at_pair::<N>(t, steps, terminals_indexed, tier_end, info.sides, at, &list[..n], f);
            }
            at = (at & !1) + 2;
        }
    }
}

/// [`for_each_first_look_in`] over `range`, within tier `tier` of an index of
/// [`PlacementIndex::singles`]: the tier's placements in order, the group ranks
/// stepped, not divided out of each index. `K` is room for a placement's
/// pieces; where `EXACT` the tier has exactly `K`. Returns `range.end`.
#[inline(always)]
pub(super) fn single_looks<const K: usize, const EXACT: bool>(
    (t, index, steps, terminals_indexed, tier): (&Tables, &PlacementIndex, &Steps, bool, usize),
    range: std::ops::Range<u64>,
    f: &mut impl FnMut(u64, FirstLook),
) -> u64 {
    let info = &index.tiers()[tier];
    let mut at = range.start;
    let mut list = [0u32; K];
    let mut digits = [0u64; K];
    let mut ranks = [(0u64, 0u64); K];
    index.single_ranks(tier, (at & !1) - info.offset, &mut digits);
    while at < range.end {
        if let Some(n) = index.singles_at(tier, &digits, &mut list, &mut ranks) {
            let n = if EXACT { K } else { n };
            look_at_pair::<K>(t, steps, terminals_indexed, range.end, info.sides, at, &list[..n], f);
        }
        index.next_single_ranks(tier, &mut digits);
        at = (at & !1) + 2;
    }
    at
}

/// Calls `f` with the first look of each index from `at` to the end of its
/// pair (the placement of `list` with either side to move) before `end`,
/// those of the sides to move `sides` has (bit s: side s); `list` holds at
/// most `K` pieces.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn look_at_pair<const K: usize>(
    t: &Tables,
    steps: &Steps,
    terminals_indexed: bool,
    end: u64,
    sides: u8,
    at: u64,
    list: &[u32],
    f: &mut impl FnMut(u64, FirstLook),
) {
    let endings = t.endings().table().expect("the game's endings are a table");
    let cells = t.board().cells();
    let pair = at & !1;
    let mut words = [0usize; K];
    for (w, &q) in words.iter_mut().zip(list) {
        *w = endings.word_at(group_of(q) * cells + cell_of(q) as usize);
    }
    // The placement's ending with either side to move: the position's own, and
    // a pass's child's, asked once for the pair.
    let all = words.iter().fold(0, |word, &w| word | w);
    let ends = [endings.outcome(all, 0), endings.outcome(all, 1)];
    for i in at..(pair + 2).min(end) {
        let to_move = (i & 1) as usize;
        if sides >> to_move & 1 == 1 {
            f(i, first_look(t, steps, list, &words[..list.len()], ends, to_move, terminals_indexed));
        }
    }
}

/// The [`FirstLook`] of the position of `pieces` (whose ending words are
/// `words`, and `ends` the ending of the placement with each side to move)
/// with `to_move` to move (see [`for_each_first_look_in`]).
#[inline(always)]
pub(super) fn first_look(
    t: &Tables,
    steps: &Steps,
    pieces: &[u32],
    words: &[usize],
    ends: [Option<Outcome>; 2],
    to_move: usize,
    terminals_indexed: bool,
) -> FirstLook {
    let endings = t.endings().table().expect("the game's endings are a table");
    let cells = t.board().cells();
    if let Some(outcome) = ends[to_move] {
        return FirstLook::Over(outcome);
    }
    let next = 1 - to_move;
    let (mut count, mut best_over) = (0usize, None::<gsolve_engine::Value>);
    let mut can_pass = false;
    for (i, &packed) in pieces.iter().enumerate() {
        let g = group_of(packed);
        if t.side_of(g) != to_move {
            continue;
        }
        can_pass |= t.stays(g);
        let from = cell_of(packed);
        let others = words.iter().enumerate().filter(|&(j, _)| j != i).fold(0, |word, (_, &w)| word | w);
        let (span, lands) = steps.forward(cells, g, from);
        if !on_span(pieces, i, &span) || !on_rays(pieces, i, &span, steps.forward_rays[g * cells + from as usize]) {
            // Nothing in the way and nothing to capture: the listed targets.
            if terminals_indexed {
                count += lands.iter().map(|&(_, times)| times as usize).sum::<usize>();
            } else {
                for &(landed, times) in lands {
                    match endings.outcome(others | landed as usize, next) {
                        Some(outcome) => best_over = best_over.max(Some(outcome.value().parent_view())),
                        None => count += times as usize,
                    }
                }
            }
            continue;
        }
        // Another piece near: each ray walked, as for a position.
        let (blocked_count, blocked_best) = blocked_moves(t, pieces, words, i, others, to_move, terminals_indexed);
        count += blocked_count;
        best_over = best_over.max(blocked_best);
    }
    if can_pass {
        tally(&mut count, &mut best_over, terminals_indexed, ends[next]);
    }
    FirstLook::Moves { count, best_over }
}

/// The moves of the piece at place `i` of `pieces` where another piece stands
/// on its span ([`first_look`]): each ray walked as [`crate::compiled::moves`] walks it,
/// `others` the ending word of the other pieces; the moves to count and the
/// best ended child, as [`FirstLook::Moves`] has them. Out of [`first_look`]
/// for the reason [`blocked_single_parents`] is out of its caller.
#[inline(never)]
pub(super) fn blocked_moves(
    t: &Tables,
    pieces: &[u32],
    words: &[usize],
    i: usize,
    others: usize,
    to_move: usize,
    terminals_indexed: bool,
) -> (usize, Option<gsolve_engine::Value>) {
    let endings = t.endings().table().expect("the game's endings are a table");
    let board = t.board();
    let cells = board.cells();
    let next = 1 - to_move;
    let (g, from) = (group_of(pieces[i]), cell_of(pieces[i]));
    let (mut count, mut best_over) = (0usize, None::<gsolve_engine::Value>);

    let mut seen: Option<Seen<u32>> = None;
    // A target reached by two rules (or two rays) is one move.
    let dedupe = board.rays_overlap(g, from);
    for ray in board.rays(g, from) {
        for &to in board.ray_cells(ray) {
            let occupant = pieces.iter().position(|&q| cell_of(q) == to);
            let legal = match occupant {
                None => ray.onto.empty(),
                Some(j) => ray.onto.enemy() && t.side_of(group_of(pieces[j])) != to_move,
            };
            if legal && (!dedupe || seen.get_or_insert_with(Seen::default).insert(to)) {
                if terminals_indexed {
                    // Every move counts: no child need be asked.
                    tally(&mut count, &mut best_over, terminals_indexed, None);
                } else {
                    let landed = endings.word_at(g * cells + to as usize);
                    let outcome = match occupant {
                        None => endings.outcome(others | landed, next),
                        Some(j) => match t.meet_code(g, group_of(pieces[j])) {
                            0 => {
                                let rest = words.iter().enumerate().filter(|&(k, _)| k != i && k != j);
                                endings.outcome(rest.fold(landed, |word, (_, &w)| word | w), next)
                            }
                            // The meeting's code names the winning side, seen by
                            // the side to move in the child.
                            3 => Some(Outcome::Tie),
                            code if (code - 1) as usize == next => Some(Outcome::Win),
                            _ => Some(Outcome::Loss),
                        },
                    };
                    tally(&mut count, &mut best_over, terminals_indexed, outcome);
                }
            }
            if !ray.leap && occupant.is_some() {
                break;
            }
        }
    }
    (count, best_over)
}

/// A child, over (`outcome`) or not, as [`FirstLook::Moves`] has it: a child
/// over is counted where terminal positions are indexed, else valued.
#[inline(always)]
pub(super) fn tally(
    count: &mut usize,
    best_over: &mut Option<gsolve_engine::Value>,
    terminals_indexed: bool,
    outcome: Option<Outcome>,
) {
    match outcome {
        Some(outcome) if !terminals_indexed => *best_over = (*best_over).max(Some(outcome.value().parent_view())),
        _ => *count += 1,
    }
}
