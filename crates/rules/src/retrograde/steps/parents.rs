//! Retrograde's parents ranked from the child's pieces along the rays, no parent built.

use super::layout::*;
use crate::compiled::endings::EndingTable;
use crate::compiled::moves::Seen;
use crate::compiled::position::{cell_of, group_of, pack};
use crate::compiled::tables::Tables;
use crate::index::PlacementIndex;

/// Calls `f` with the index of each parent of the position at `child` (which
/// names a position), as [`crate::retrograde::unmoves::parents`] yields the parents, in a
/// game [`ranks_parents`] accepts; `N` is the room of the game's positions
/// (a capture's parent has a piece more, and must fit).
pub(crate) fn for_each_parent_index<const N: usize>(
    t: &Tables,
    index: &PlacementIndex,
    steps: &Steps,
    child: u64,
    f: &mut impl FnMut(u64),
) {
    if index.singles() {
        // The tier fixes how many pieces there are: one or three get their own
        // copy of the walk, whose loops over the pieces the compiler unrolls,
        // and two (a pursuit of one piece a side) a walk of their own.
        let tier = index.tier_at(child);
        return match index.single_count(tier) {
            1 => single_parent_indices::<N, 1, true>(t, index, steps, tier, child, f),
            2 => pair_parent_indices::<N>(t, index, steps, tier, child, f),
            3 => single_parent_indices::<N, 3, true>(t, index, steps, tier, child, f),
            _ => single_parent_indices::<N, N, false>(t, index, steps, tier, child, f),
        };
    }
    many_parent_indices::<N>(t, index, child, f)
}

/// [`for_each_parent_index`] where a group may have more than one piece.
pub(super) fn many_parent_indices<const N: usize>(
    t: &Tables,
    index: &PlacementIndex,
    child: u64,
    f: &mut impl FnMut(u64),
) {
    let tier = index.tier_at(child);
    let offset = index.tiers()[tier].offset;
    let mut child_pieces = [0u32; N];
    let n = index.unrank_pieces(tier, child - offset, &mut child_pieces).expect("a parent's index names a position");
    let pieces = &child_pieces[..n];
    let endings = t.endings().table().expect("the game's endings are a table");
    let board = t.board();
    let cells = board.cells();
    // The side that moved into the child (the index's last bit is the side to
    // move) is to move in its parents.
    let side = 1 - (child & 1) as usize;
    let word_of = |q: u32| endings.word_at(group_of(q) * cells + cell_of(q) as usize);
    // The child's groups as runs of its list: (start, end, group rank,
    // multiplier), the
    // rank within the tier being the sum of rank × multiplier (module docs of
    // `crate::index`).
    let mut runs = [(0usize, 0usize, 0u64, 0u64); N];
    let mut run_count = 0;
    let mut mult = 1u64;
    let mut start = 0;
    while start < n {
        let g = group_of(pieces[start]);
        let end = start + pieces[start..].iter().take_while(|&&q| group_of(q) == g).count();
        let rank = index.group_rank(pieces, start..end).expect("a position's pieces stand on their places");
        runs[run_count] = (start, end, rank, mult);
        run_count += 1;
        mult = mult.wrapping_mul(index.radix(tier, g));
        start = end;
    }
    let runs = &runs[..run_count];
    let child_rank = (child - offset) >> 1;
    // A parent over (the game ended there) has no moves, so it is no parent; the
    // index of one no tier holds is past every index, as `Indexed::index` gives it.
    let over = |word: usize| endings.outcome(word, side).is_some();
    let mut list = [0u32; N];
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
        // A quiet move back keeps the tier and every group's run: only the ranks
        // of the piece's group and of the later groups whose places hold it
        // change (a piece of theirs may now have one more or one fewer below it).
        let changed = |&(start, end, _, _): &(usize, usize, u64, u64)| {
            (start..end).contains(&i) || (start > i && index.groups_within(group_of(pieces[start])) >> g & 1 == 1)
        };
        let unchanged_rank = runs
            .iter()
            .filter(|run| changed(run))
            .fold(child_rank, |rank, &(_, _, r, m)| rank.wrapping_sub(r.wrapping_mul(m)));
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
                    if ray.onto.empty() && (!dedupe || seen.insert((from, false))) && !over(word) {
                        moved_back(pieces, i, moved, &mut list);
                        let rank = runs.iter().filter(|run| changed(run)).try_fold(
                            unchanged_rank,
                            |rank, &(start, end, _, m)| {
                                index.group_rank(&list[..n], start..end).map(|r| rank.wrapping_add(r.wrapping_mul(m)))
                            },
                        );
                        f(rank.map_or(u64::MAX, |rank| offset + rank * 2 + side as u64));
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
                            if !over(word | word_of(captured)) {
                                moved_back(pieces, i, moved, &mut list);
                                insert_sorted(&mut list, n, captured);
                                let located = index.locate_pieces(&list[..n + 1], side);
                                f(located.map_or(u64::MAX, |(t, i)| index.tiers()[t].offset + i));
                            }
                        }
                    }
                }
                if occupied && !ray.leap {
                    break;
                }
            }
        }
    }
    // A pass: the same pieces with the other side to move, the neighbouring
    // index (every tier of a game without drops has both sides to move).
    if can_pass && !over(pieces.iter().fold(0, |word, &q| word | word_of(q))) {
        f(child ^ 1);
    }
}

/// [`for_each_parent_index`] where no group has more than one piece
/// ([`PlacementIndex::singles`]: chase, Queen's Case): the same parents, in the
/// same order, with a quiet parent's index computed from the child's ranks.
///
/// The piece of group g moved back from `to` to `from` changes two kinds of
/// rank (module docs of `crate::index`): its own group's, now its slot at `from`
/// less the pieces of earlier groups within g below `from`; and that of each
/// later group h whose places hold g's, which counts g's piece when it stands
/// below h's: by `[to < cell_h] − [from < cell_h]`. Every other rank stays.
/// Why: recomputing each changed group's rank from a list rebuilt for every
/// parent was most of the walk, where a few comparisons do.
///
/// `K` is room for the child's pieces; where `EXACT`, its tier `tier` has
/// exactly `K`. The steps: the child unranked once ([`SingleChild`]), each
/// piece of the side that moved ([`SingleChild::piece_parents`]), the pass.
pub(super) fn single_parent_indices<const N: usize, const K: usize, const EXACT: bool>(
    t: &Tables,
    index: &PlacementIndex,
    steps: &Steps,
    tier: usize,
    child: u64,
    f: &mut impl FnMut(u64),
) {
    let offset = index.tiers()[tier].offset;
    let mut child_pieces = [0u32; K];
    let mut ranks = [(0u64, 0u64); K];
    let n = index
        .unrank_singles(tier, child - offset, &mut child_pieces, &mut ranks)
        .expect("a parent's index names a position");
    let n = if EXACT { K } else { n };
    let endings = t.endings().table().expect("the game's endings are a table");
    let cells = t.board().cells();
    let mut words = [0usize; K];
    for (w, &q) in words.iter_mut().zip(&child_pieces[..n]) {
        *w = endings.word_at(group_of(q) * cells + cell_of(q) as usize);
    }
    let walk = SingleChild {
        t,
        index,
        steps,
        endings,
        cells,
        tier,
        offset,
        side: 1 - (child & 1) as usize,
        child_rank: (child - offset) >> 1,
        pieces: &child_pieces[..n],
        ranks: &ranks[..n],
        words: &words[..n],
    };
    let mut can_pass = false;
    for (i, &packed) in walk.pieces.iter().enumerate() {
        let g = group_of(packed);
        if t.side_of(g) != walk.side {
            continue;
        }
        can_pass |= t.stays(g);
        walk.piece_parents::<N>(i, f);
    }
    if can_pass && !walk.over(walk.words.iter().fold(0, |word, &w| word | w)) {
        f(child ^ 1);
    }
}

/// A child of [`single_parent_indices`], unranked once: its pieces (no group
/// has more than one), each piece's group rank and multiplier, and ending
/// word; `side` moved into it (it is to move in the parents); `child_rank` its
/// rank within its tier `tier` (which starts at `offset`). The slices have the
/// child's length (`K` where the tier fixes it), so its loops keep their
/// bounds.
struct SingleChild<'a> {
    t: &'a Tables,
    index: &'a PlacementIndex,
    steps: &'a Steps,
    endings: &'a EndingTable,
    cells: usize,
    tier: usize,
    offset: u64,
    side: usize,
    child_rank: u64,
    pieces: &'a [u32],
    ranks: &'a [(u64, u64)],
    words: &'a [usize],
}

/// The piece moved back in a walk of [`SingleChild`]: at place `i`, of group
/// `g` (whose multiplier is `mult` and whose places hold the groups of
/// `within`) on `to`; `base` the child's rank without its group's part,
/// `others` the OR of the other pieces' words.
#[derive(Clone, Copy)]
struct Mover {
    i: usize,
    g: usize,
    to: u32,
    mult: u64,
    within: u64,
    base: u64,
    others: usize,
}

impl SingleChild<'_> {
    /// Is a parent with ending word `word` over? Then it has no moves, so it
    /// is no parent.
    #[inline]
    fn over(&self, word: usize) -> bool {
        self.endings.outcome(word, self.side).is_some()
    }

    /// The parents of the piece at place `i`, of the side that moved: from
    /// the layout's origins where no other piece stands on a ray of its
    /// backward span ([`Self::free_parents`]), else each ray walked
    /// ([`blocked_single_parents`]). Always inline, as is
    /// [`Self::free_parents`]: the walk of a piece nothing is near is most of
    /// the parents, and out of line (as the compiler left them) each piece
    /// paid two calls.
    #[inline(always)]
    fn piece_parents<const N: usize>(&self, i: usize, f: &mut impl FnMut(u64)) {
        let (g, to) = (group_of(self.pieces[i]), cell_of(self.pieces[i]));
        let others = self.words.iter().enumerate().filter(|&(j, _)| j != i).fold(0, |word, (_, &w)| word | w);
        let (rank, mult) = self.ranks[i];
        let within = self.index.groups_within(g);
        let base = self.child_rank.wrapping_sub(rank.wrapping_mul(mult));
        let mover = Mover { i, g, to, mult, within, base, others };
        let (span, origins) = self.steps.backward(self.cells, g, to);
        // The other pieces on the span, and the cell of the last.
        let (mut spread, mut split) = (0u32, u32::MAX);
        for (j, &q) in self.pieces.iter().enumerate() {
            if j != i && span.spans(cell_of(q)) {
                (spread, split) = (spread + 1, cell_of(q));
            }
        }
        if spread == 0 || !on_rays(self.pieces, i, &span, self.steps.backward_rays[g * self.cells + to as usize]) {
            self.free_parents::<N>(&mover, &span, origins, (spread, split), f);
            return;
        }
        // Another piece near: each ray walked, as for a position.
        blocked_single_parents::<N>(
            self.t,
            self.index,
            self.steps,
            self.pieces,
            self.ranks,
            i,
            others,
            base,
            self.side,
            self.offset,
            f,
        );
    }

    /// The parents of `m` where no other piece stands on a ray of its backward
    /// span `span`: every origin of `origins` is free. `spread` other pieces
    /// stand on the span, the last on `split`.
    ///
    /// The parents' ranks differ in this group's slot, and in the count of
    /// earlier pieces within it below the origin and the change of later
    /// groups holding it, which only a piece between two origins makes differ.
    /// Where none stands on the span, every other piece stands below all
    /// origins or above all of them: one change for all. Where one does (on
    /// `split`, on no ray), the origins below it share the change of the
    /// span's least cell, those above it that of its greatest. Else the change
    /// is counted for each origin ([`Self::rank_change`]).
    #[inline(always)]
    fn free_parents<const N: usize>(
        &self,
        m: &Mover,
        span: &Span,
        origins: &[Origin],
        (spread, split): (u32, u32),
        f: &mut impl FnMut(u64),
    ) {
        // A parent's index is `at + slot × step` (the side to move is the
        // index's last bit), `at` the one below `split` or above it.
        let at = |change: u64| {
            self.offset.wrapping_add(m.base.wrapping_add(change).wrapping_mul(2)).wrapping_add(self.side as u64)
        };
        let step = m.mult.wrapping_mul(2);
        let (below, above) = match spread {
            0 => {
                let at = at(self.rank_change(m, span.lo));
                (at, at)
            }
            1 => (at(self.rank_change(m, span.lo)), at(self.rank_change(m, span.hi))),
            _ => (0, 0),
        };
        // Can a parent have had an enemy on `to` (of a group the tier has
        // none of, where the index has room for one, that the piece does
        // not meet)?
        let captures = self.pieces.len() < N && self.steps.captives[m.g] & !self.index.tier_groups(self.tier) != 0;
        for origin in origins {
            let word = m.others | origin.word as usize;
            if origin.kinds & QUIET != 0 && !self.over(word) {
                f(if origin.slot == u32::MAX {
                    u64::MAX // off the group's places: no tier holds the parent
                } else {
                    let at = match spread {
                        0 | 1 => {
                            if origin.cell < split {
                                below
                            } else {
                                above
                            }
                        }
                        _ => at(self.rank_change(m, origin.cell)),
                    };
                    at.wrapping_add((origin.slot as u64).wrapping_mul(step))
                });
            }
            if captures && origin.kinds & CAPTURE != 0 {
                single_capture_parents::<N>(
                    self.t,
                    self.index,
                    self.steps,
                    self.pieces,
                    m.i,
                    origin.cell,
                    word,
                    self.side,
                    f,
                );
            }
        }
    }

    /// The change of the child's rank (less `m`'s group's part) the other
    /// pieces make when `m` moves back to `from`: the earlier pieces within
    /// its group below `from` lower its slot's rank, and each later group
    /// holding it counts it below its piece by `[to < cell] − [from < cell]`
    /// (wrapping: a transient may be negative).
    #[inline]
    fn rank_change(&self, m: &Mover, from: u32) -> u64 {
        let (mut change, mut below) = (0u64, 0u32);
        for (j, &q) in self.pieces.iter().enumerate() {
            let (h, cell) = (group_of(q), cell_of(q));
            if j < m.i {
                below += (m.within >> h & 1 == 1 && cell < from) as u32;
            } else if j > m.i && self.index.groups_within(h) >> m.g & 1 == 1 {
                let delta = (m.to < cell) as u64 as i64 - (from < cell) as u64 as i64;
                change = change.wrapping_add((delta as u64).wrapping_mul(self.ranks[j].1));
            }
        }
        change.wrapping_sub((below as u64).wrapping_mul(m.mult))
    }
}

/// [`single_parent_indices`] in a tier of exactly two pieces (chase, Queen's
/// Case: every position of a pursuit with one piece a side): the same parents
/// in the same order, from [`PlacementIndex::unrank_pair`].
///
/// With one other piece, on cell `other`, moving a piece back changes the
/// ranks by one of two amounts, whether the origin lies below `other` or
/// above it (it never lies on it: a piece on a ray blocks it, and that walk
/// is [`blocked_single_parents`]):
///
/// ```text
///   moved  rank of the parent (r0 + r1 × radix, w = [first within second])
///   first  slot0(from) + (r1 + w·([to < other] − [from < other])) × radix
///   second r0 + (slot1(from) − w·[other < from]) × radix
/// ```
///
/// so a parent's index is `below` or `above` plus its origin's slot times the
/// moved group's step. Why apart from the copy for any count: its loops over
/// the pieces, the span's spread and the change counted in a closure were a
/// large part of a pursuit's walk, where two pieces need none of them.
#[inline(always)]
pub(super) fn pair_parent_indices<const N: usize>(
    t: &Tables,
    index: &PlacementIndex,
    steps: &Steps,
    tier: usize,
    child: u64,
    f: &mut impl FnMut(u64),
) {
    let offset = index.tiers()[tier].offset;
    let pair = index.unrank_pair(tier, child - offset).expect("a parent's index names a position");
    let endings = t.endings().table().expect("the game's endings are a table");
    let cells = t.board().cells();
    let side = 1 - (child & 1) as usize;
    let over = |word: usize| endings.outcome(word, side).is_some();
    let words = [0, 1].map(|k| endings.word_at(pair.groups[k] * cells + pair.cells[k] as usize));
    let child_rank = (child - offset) >> 1;
    let mults = [1, pair.radix];
    let within = pair.within as u64;
    let mut can_pass = false;
    // The pieces of the side that moved, as bits (usually one of the two).
    let mut movers = (t.side_of(pair.groups[0]) == side) as u32 | ((t.side_of(pair.groups[1]) == side) as u32) << 1;
    while movers != 0 {
        let i = movers.trailing_zeros() as usize;
        movers &= movers - 1;
        let (g, to) = (pair.groups[i], pair.cells[i]);
        can_pass |= t.stays(g);
        let (other, others) = (pair.cells[1 - i], words[1 - i]);
        // The child's rank without the moved group's part.
        let base = child_rank.wrapping_sub(pair.ranks[i].wrapping_mul(mults[i]));
        let (span, origins) = steps.backward(cells, g, to);
        if span.on_ray(steps.backward_rays[g * cells + to as usize], other) {
            let pieces = [0, 1].map(|k| pack(pair.groups[k], pair.cells[k]));
            let ranks = [(pair.ranks[0], 1), (pair.ranks[1], pair.radix)];
            blocked_single_parents::<N>(t, index, steps, &pieces, &ranks, i, others, base, side, offset, f);
            continue;
        }
        // The ranks without the slot's part, for origins below `other` and
        // above it (the table above; wrapping: a transient may be negative).
        let (below, above) = if i == 0 {
            let was = (to < other) as u64;
            let change = |now: u64| within.wrapping_mul(was.wrapping_sub(now)).wrapping_mul(pair.radix);
            (base.wrapping_add(change(1)), base.wrapping_add(change(0)))
        } else {
            (base, base.wrapping_sub(within.wrapping_mul(pair.radix)))
        };
        let at = |rank: u64| offset.wrapping_add(rank.wrapping_mul(2)).wrapping_add(side as u64);
        let (below, above) = (at(below), at(above));
        let step = mults[i].wrapping_mul(2);
        // Can a parent have had an enemy on `to` ([`single_parent_indices`])?
        let captures = 2 < N && steps.captives[g] & !index.tier_groups(tier) != 0;
        for origin in origins {
            let word = others | origin.word as usize;
            if origin.kinds & QUIET != 0 && !over(word) {
                f(if origin.slot == u32::MAX {
                    u64::MAX // off the group's places: no tier holds the parent
                } else {
                    let at = if origin.cell < other { below } else { above };
                    at.wrapping_add((origin.slot as u64).wrapping_mul(step))
                });
            }
            if captures && origin.kinds & CAPTURE != 0 {
                let pieces = [0, 1].map(|k| pack(pair.groups[k], pair.cells[k]));
                single_capture_parents::<N>(t, index, steps, &pieces, i, origin.cell, word, side, f);
            }
        }
    }
    if can_pass && !over(words[0] | words[1]) {
        f(child ^ 1);
    }
}

/// The parents of the piece at place `i` of `pieces` (no group has more than
/// one) where another piece stands on its span ([`single_parent_indices`]):
/// each backward ray walked, blocked by the pieces on it, the changed ranks
/// counted for each origin. `others` is the ending word of the other pieces,
/// `base` the child's rank less the piece's group's part, `ranks` each piece's
/// group rank and multiplier. Apart from the walk of a piece nothing is near,
/// which is most of them: kept out of it, it leaves that walk small enough for
/// the caller's update to be put inline.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn blocked_single_parents<const N: usize>(
    t: &Tables,
    index: &PlacementIndex,
    steps: &Steps,
    pieces: &[u32],
    ranks: &[(u64, u64)],
    i: usize,
    others: usize,
    base: u64,
    side: usize,
    offset: u64,
    f: &mut impl FnMut(u64),
) {
    let endings = t.endings().table().expect("the game's endings are a table");
    let board = t.board();
    let cells = board.cells();
    let n = pieces.len();
    let word_of = |q: u32| endings.word_at(group_of(q) * cells + cell_of(q) as usize);
    let over = |word: usize| endings.outcome(word, side).is_some();
    let (g, to) = (group_of(pieces[i]), cell_of(pieces[i]));
    let mult = ranks[i].1;
    let within = index.groups_within(g);
    let mut seen: Option<Seen<(u32, bool)>> = None;
    let dedupe = board.back_rays_overlap(g, to);
    for ray in board.back_rays(g, to) {
        for &from in board.ray_cells(ray) {
            let occupied = pieces.iter().any(|&q| cell_of(q) == from);
            if !occupied {
                let moved = pack(g, from);
                let word = others | word_of(moved);
                if ray.onto.empty()
                    && (!dedupe || seen.get_or_insert_with(Seen::default).insert((from, false)))
                    && !over(word)
                {
                    let slot = index.slot(g, from);
                    if slot == u32::MAX {
                        // Off the group's places: no tier holds the parent.
                        f(u64::MAX);
                    } else {
                        let mut parent = base;
                        let mut below = 0;
                        for (j, &q) in pieces.iter().enumerate() {
                            let (h, cell) = (group_of(q), cell_of(q));
                            if j < i {
                                below += (within >> h & 1 == 1 && cell < from) as u32;
                            } else if j > i && index.groups_within(h) >> g & 1 == 1 {
                                let (_, m) = ranks[j];
                                let delta = (to < cell) as u64 as i64 - (from < cell) as u64 as i64;
                                parent = parent.wrapping_add((delta as u64).wrapping_mul(m));
                            }
                        }
                        parent = parent.wrapping_add(((slot - below) as u64).wrapping_mul(mult));
                        f(offset + parent * 2 + side as u64);
                    }
                }
                if ray.onto.enemy() && n < N && (!dedupe || seen.get_or_insert_with(Seen::default).insert((from, true)))
                {
                    single_capture_parents::<N>(t, index, steps, pieces, i, from, word, side, f);
                }
            }
            if occupied && !ray.leap {
                break;
            }
        }
    }
}

/// The parents where the piece at place `i` of `pieces` (no group has more than
/// one) came from `from` capturing an enemy on its cell, `word` the ending
/// word of the parent without the enemy: one for each enemy group the piece
/// does not meet (a meeting ends the game) that the tier has none of (each
/// group has room for one), ranked from a list ([`PlacementIndex::locate_pieces`]:
/// the parent lies in another tier).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn single_capture_parents<const N: usize>(
    t: &Tables,
    index: &PlacementIndex,
    steps: &Steps,
    pieces: &[u32],
    i: usize,
    from: u32,
    word: usize,
    side: usize,
    f: &mut impl FnMut(u64),
) {
    let endings = t.endings().table().expect("the game's endings are a table");
    let cells = t.board().cells();
    let (g, to, n) = (group_of(pieces[i]), cell_of(pieces[i]), pieces.len());
    let present = pieces.iter().fold(0u64, |set, &q| set | 1 << group_of(q));
    let mut captives = steps.captives[g] & !present;
    let mut list = [0u32; N];
    while captives != 0 {
        let h = captives.trailing_zeros() as usize;
        captives &= captives - 1;
        if endings.outcome(word | endings.word_at(h * cells + to as usize), side).is_none() {
            moved_back(pieces, i, pack(g, from), &mut list);
            insert_sorted(&mut list, n, pack(h, to));
            let located = index.locate_pieces(&list[..n + 1], side);
            f(located.map_or(u64::MAX, |(t, i)| index.tiers()[t].offset + i));
        }
    }
}
