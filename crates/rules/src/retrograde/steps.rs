//! Parents ranked from their child's pieces, for games whose pieces only step:
//! retrograde analysis asks every position it decides for its parents' indices
//! ([`gsolve_engine::Unmoves::for_each_parent_index`]), and here no parent is
//! built as a position.
//!
//! # Which games
//! Those [`ranks_parents`] accepts:
//! - pieces only step ([`Tables::steps_only`]: no drops, promotions, hands or
//!   trails) and each side moves one piece a turn;
//! - the endings are one table ([`crate::compiled::endings::EndingTable`]: no `line` or
//!   `full` ending) and being stuck is a loss (so whether a position is over
//!   depends on its pieces alone, not on its moves);
//! - the index ranks a list of pieces ([`PlacementIndex::locates_pieces`]: no
//!   hands, at most [`crate::index::FEW_PIECES`] pieces in all).
//!
//! Chase, Queen's Case, cops and robbers, fox and hounds: the pursuits and the
//! pieces-on-a-board games without promotions. Where the board has at most 64
//! cells and every move is one cell long or a leap, the walk on cell sets
//! ([`crate::retrograde::set_unmoves`]) and the first look from them
//! ([`crate::retrograde::first_look`], "From cell sets") go first: they read sets rather
//! than lists (0.90 of Fox and Hounds' instructions), so this module serves
//! the larger boards and the long rays.
//!
//! # How
//! A parent is its child with one piece of the side that moved back on a cell
//! of one of its backward rays (and, for a capture, an enemy where it landed),
//! or, where a piece may stay, the child with the other side to move: the same
//! parents as [`crate::retrograde::unmoves`] finds, found the same way. Each is a short
//! sorted list on the stack: whether it is over is the OR of its pieces' ending
//! words looked up once, and its index is ranked from the list
//! ([`PlacementIndex::locate_pieces`]). Why: building each parent as a
//! [`RulesPosition`] (a copy of the child, changed, copied again to be ranked)
//! stalled on every copy of a just-changed position, and was with the ending
//! checks most of a pursuit's retrograde solve.

use crate::compiled::moves::Seen;
use crate::compiled::position::{cell_of, group_of, pack};
use crate::compiled::tables::Tables;
use crate::index::PlacementIndex;
use crate::language::spec::Turn;
use gsolve_engine::{FirstLook, Outcome};

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

/// Each piece's rays laid out for the common case where no other piece stands
/// near it: a piece of group g on cell c has a *span*, the least and the
/// greatest cell of its rays (forward for its moves, backward for its
/// parents'); where no other piece stands on a cell of the span, no ray is
/// blocked and no move captures, so the moves are the distinct cells of the
/// rays that may land on empty cells, listed once here, and the parents those
/// of the backward rays.
///
/// ```text
///   forward[g * cells + c]  = span: lo, hi, start, end: lands[start..end]
///   forward_rays[g * cells + c] = bit k set when cell lo + k is on a ray
///   backward[g * cells + c], backward_rays[...] = the same for origins[start..end]
///   lands[k] = (word of a piece of g on a target, how many targets have it)
///   origins[k] = (cell, slot of the cell among g's places, word, QUIET | CAPTURE)
/// ```
/// A piece on the span but on no ray blocks nothing and is not captured: the
/// lists hold, only its place below or above each origin differs. The moves'
/// targets are kept as their distinct ending words, each with its count:
/// targets alike in their word end alike, so whether they end is asked once.
/// The rays' bits lie apart from the spans: asked only where a piece stands
/// on a span, they would crowd the cache lines every position reads.
///
/// Why: walking each ray and asking every cell whether a piece stands there was
/// most of counting a position's moves and of listing its parents, where, with a
/// piece or two on a board of hundreds of cells, they seldom meet.
#[derive(Clone, Debug)]
pub(crate) struct Steps {
    forward: Vec<Span>,
    forward_rays: Vec<u128>,
    lands: Vec<(u32, u32)>,
    backward: Vec<Span>,
    backward_rays: Vec<u128>,
    origins: Vec<Origin>,
    /// For each group g, the enemy groups a piece of g may have captured: those
    /// the index has room for that it does not meet (a meeting ends the game),
    /// as a bit set of groups.
    captives: Vec<u64>,
}

/// The cells of a piece's rays (see [`Steps`]).
#[derive(Clone, Copy, Debug)]
struct Span {
    lo: u32,
    hi: u32,
    start: u32,
    end: u32,
}

impl Span {
    /// The span of the rays' `cells`, and its rays' bits: bit k set when cell
    /// `lo + k` is on a ray; all set where the span is 128 cells or more (cells
    /// past the first 128 are then taken to be on a ray).
    fn of(cells: impl Iterator<Item = u32> + Clone, start: usize, end: usize) -> (Span, u128) {
        let (lo, hi) = (cells.clone().min().unwrap_or(u32::MAX), cells.clone().max().unwrap_or(0));
        let on = if hi >= lo && hi - lo < 128 { cells.fold(0u128, |on, c| on | 1 << (c - lo)) } else { u128::MAX };
        (Span { lo, hi, start: start as u32, end: end as u32 }, on)
    }

    /// Does `cell` lie on the span?
    #[inline(always)]
    fn spans(&self, cell: u32) -> bool {
        (self.lo..=self.hi).contains(&cell)
    }

    /// Does `cell` lie on a ray, `on` the rays' bits ([`Self::of`])?
    #[inline(always)]
    fn on_ray(&self, on: u128, cell: u32) -> bool {
        self.spans(cell) && (cell - self.lo >= 128 || on >> (cell - self.lo) & 1 == 1)
    }
}

/// A cell a piece may have come from (see [`Steps`]).
#[derive(Clone, Copy, Debug)]
struct Origin {
    cell: u32,
    /// Its slot among the group's places, `u32::MAX` if it is not one.
    slot: u32,
    /// The ending word of the piece there.
    word: u32,
    /// Bit 0: on a ray whose moves land on empty cells; bit 1: on one whose
    /// moves capture.
    kinds: u8,
}

const QUIET: u8 = 1;
const CAPTURE: u8 = 2;

impl Steps {
    /// The layout for the game of `t` with index `index` (a game [`ranks_parents`]
    /// accepts).
    pub(crate) fn new(t: &Tables, index: &PlacementIndex) -> Steps {
        let board = t.board();
        let cells = board.cells();
        let endings = t.endings().table().expect("the game's endings are a table");
        let mut steps = Steps {
            forward: Vec::new(),
            forward_rays: Vec::new(),
            lands: Vec::new(),
            backward: Vec::new(),
            backward_rays: Vec::new(),
            origins: Vec::new(),
            captives: (0..t.groups())
                .map(|g| {
                    (0..t.groups())
                        .filter(|&h| t.side_of(h) != t.side_of(g) && t.meet_code(g, h) == 0 && index.limits()[h] > 0)
                        .fold(0, |set, h| set | 1 << h)
                })
                .collect(),
        };
        for g in 0..t.groups() {
            for c in 0..cells as u32 {
                let word = |cell: u32| endings.word_at(g * cells + cell as usize) as u32;
                let all = |rays: &[crate::compiled::board::Ray]| {
                    rays.iter().flat_map(|ray| board.ray_cells(ray).iter().copied()).collect::<Vec<u32>>()
                };
                let rays = board.rays(g, c);
                let mut targets: Vec<u32> = Vec::new();
                for ray in rays.iter().filter(|ray| ray.onto.empty()) {
                    targets.extend(board.ray_cells(ray).iter().filter(|&to| !targets.contains(to)).collect::<Vec<_>>());
                }
                let start = steps.lands.len();
                for landed in targets.into_iter().map(word) {
                    match steps.lands[start..].iter_mut().find(|(word, _)| *word == landed) {
                        Some((_, times)) => *times += 1,
                        None => steps.lands.push((landed, 1)),
                    }
                }
                let (span, on) = Span::of(all(rays).into_iter(), start, steps.lands.len());
                steps.forward.push(span);
                steps.forward_rays.push(on);
                let rays = board.back_rays(g, c);
                let start = steps.origins.len();
                for ray in rays {
                    let kinds = if ray.onto.empty() { QUIET } else { 0 } | if ray.onto.enemy() { CAPTURE } else { 0 };
                    for &from in board.ray_cells(ray) {
                        match steps.origins[start..].iter_mut().find(|o| o.cell == from) {
                            Some(origin) => origin.kinds |= kinds,
                            None => steps.origins.push(Origin {
                                cell: from,
                                slot: index.slot(g, from),
                                word: word(from),
                                kinds,
                            }),
                        }
                    }
                }
                let (span, on) = Span::of(all(rays).into_iter(), start, steps.origins.len());
                steps.backward.push(span);
                steps.backward_rays.push(on);
            }
        }
        steps
    }

    /// The span of a piece of group g on cell c, and the distinct ending words
    /// of such a piece on its targets when no other piece stands on a ray,
    /// each with its number of targets.
    #[inline]
    fn forward(&self, cells: usize, g: usize, c: u32) -> (Span, &[(u32, u32)]) {
        let span = self.forward[g * cells + c as usize];
        (span, &self.lands[span.start as usize..span.end as usize])
    }

    /// The backward span of a piece of group g on cell c, and its origins when
    /// no other piece stands on a ray.
    #[inline]
    fn backward(&self, cells: usize, g: usize, c: u32) -> (Span, &[Origin]) {
        let span = self.backward[g * cells + c as usize];
        (span, &self.origins[span.start as usize..span.end as usize])
    }
}

/// Does a piece of `pieces` other than the one at place `i` stand on one of
/// the rays of `span`, whose rays' bits are `on`?
#[inline(always)]
fn on_rays(pieces: &[u32], i: usize, span: &Span, on: u128) -> bool {
    pieces.iter().enumerate().any(|(j, &q)| j != i && span.on_ray(on, cell_of(q)))
}

/// Does a piece of `pieces` other than the one at place `i` stand on `span`?
#[inline(always)]
fn on_span(pieces: &[u32], i: usize, span: &Span) -> bool {
    pieces.iter().enumerate().any(|(j, &q)| j != i && span.spans(cell_of(q)))
}

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
fn many_parent_indices<const N: usize>(t: &Tables, index: &PlacementIndex, child: u64, f: &mut impl FnMut(u64)) {
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
/// exactly `K`.
fn single_parent_indices<const N: usize, const K: usize, const EXACT: bool>(
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
    let pieces = &child_pieces[..n];
    let endings = t.endings().table().expect("the game's endings are a table");
    let board = t.board();
    let cells = board.cells();
    let side = 1 - (child & 1) as usize;
    let word_of = |q: u32| endings.word_at(group_of(q) * cells + cell_of(q) as usize);
    let over = |word: usize| endings.outcome(word, side).is_some();
    let child_rank = (child - offset) >> 1;
    let mut words = [0usize; K];
    for (w, &q) in words.iter_mut().zip(pieces) {
        *w = word_of(q);
    }
    let words = &words[..n];
    let mut can_pass = false;
    for (i, &packed) in pieces.iter().enumerate() {
        let g = group_of(packed);
        if t.side_of(g) != side {
            continue;
        }
        can_pass |= t.stays(g);
        let to = cell_of(packed);
        let others = words.iter().enumerate().filter(|&(j, _)| j != i).fold(0, |word, (_, &w)| word | w);
        let (rank, mult) = ranks[i];
        let within = index.groups_within(g);
        // The child's rank without the piece's own group's part.
        let base = child_rank.wrapping_sub(rank.wrapping_mul(mult));
        let (span, origins) = steps.backward(cells, g, to);
        // The other pieces on the span, and the cell of the last.
        let (mut spread, mut split) = (0, u32::MAX);
        for (j, &q) in pieces.iter().enumerate() {
            if j != i && span.spans(cell_of(q)) {
                (spread, split) = (spread + 1, cell_of(q));
            }
        }
        if spread == 0 || !on_rays(pieces, i, &span, steps.backward_rays[g * cells + to as usize]) {
            // No other piece on a ray: every origin is free. The parents'
            // ranks differ in this group's slot, and in the count of earlier
            // pieces within it below the origin and the change of later groups
            // holding it, which only a piece between two origins makes differ.
            // Where none stands on the span, every other piece stands below
            // all origins or above all of them: one change for all. Where one
            // does (on `split`, on no ray), the origins below it share the
            // change of the span's least cell, those above it that of its
            // greatest. Else the change is counted for each origin.
            // The ranks' change from the other pieces, for an origin `from`.
            let change = |from: u32| {
                let (mut change, mut below) = (0u64, 0u32);
                for (j, &q) in pieces.iter().enumerate() {
                    let (h, cell) = (group_of(q), cell_of(q));
                    if j < i {
                        below += (within >> h & 1 == 1 && cell < from) as u32;
                    } else if j > i && index.groups_within(h) >> g & 1 == 1 {
                        let delta = (to < cell) as u64 as i64 - (from < cell) as u64 as i64;
                        change = change.wrapping_add((delta as u64).wrapping_mul(ranks[j].1));
                    }
                }
                change.wrapping_sub((below as u64).wrapping_mul(mult))
            };
            // A parent's index is `at + slot × step` (the side to move is the
            // index's last bit), `at` the one below `split` or above it.
            let at =
                |change: u64| offset.wrapping_add(base.wrapping_add(change).wrapping_mul(2)).wrapping_add(side as u64);
            let step = mult.wrapping_mul(2);
            let (below, above) = match spread {
                0 => {
                    let at = at(change(span.lo));
                    (at, at)
                }
                1 => (at(change(span.lo)), at(change(span.hi))),
                _ => (0, 0),
            };
            // Can a parent have had an enemy on `to` (of a group the tier has
            // none of, where the index has room for one, that the piece does
            // not meet)?
            let captures = n < N && steps.captives[g] & !index.tier_groups(tier) != 0;
            for origin in origins {
                let word = others | origin.word as usize;
                if origin.kinds & QUIET != 0 && !over(word) {
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
                            _ => at(change(origin.cell)),
                        };
                        at.wrapping_add((origin.slot as u64).wrapping_mul(step))
                    });
                }
                if captures && origin.kinds & CAPTURE != 0 {
                    single_capture_parents::<N>(t, index, steps, pieces, i, origin.cell, word, side, f);
                }
            }
            continue;
        }
        // Another piece near: each ray walked, as for a position.
        blocked_single_parents::<N>(t, index, steps, pieces, &ranks[..n], i, others, base, side, offset, f);
    }
    if can_pass && !over(words.iter().fold(0, |word, &w| word | w)) {
        f(child ^ 1);
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
/// the pieces, the span's spread and the change counted in a closure were
/// about a quarter of the instructions of a pursuit's walk (callgrind), where
/// two pieces need none of them.
#[inline(always)]
fn pair_parent_indices<const N: usize>(
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
fn blocked_single_parents<const N: usize>(
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
fn single_capture_parents<const N: usize>(
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
/// and asking it whether it is over, copied a position for every child and was
/// a third of a Queen's Case retrograde solve.
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
fn single_looks<const K: usize, const EXACT: bool>(
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
fn look_at_pair<const K: usize>(
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
fn first_look(
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
fn blocked_moves(
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
fn tally(
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
