//! The rays laid out for step games, and which games rank their parents from their child's pieces.

use crate::compiled::position::cell_of;
use crate::compiled::tables::Tables;
use crate::index::PlacementIndex;
use crate::language::spec::Turn;
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
    pub(super) forward: Vec<Span>,
    pub(super) forward_rays: Vec<u128>,
    pub(super) lands: Vec<(u32, u32)>,
    pub(super) backward: Vec<Span>,
    pub(super) backward_rays: Vec<u128>,
    pub(super) origins: Vec<Origin>,
    /// For each group g, the enemy groups a piece of g may have captured: those
    /// the index has room for that it does not meet (a meeting ends the game),
    /// as a bit set of groups.
    pub(super) captives: Vec<u64>,
}

/// The cells of a piece's rays (see [`Steps`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    pub(super) lo: u32,
    pub(super) hi: u32,
    pub(super) start: u32,
    pub(super) end: u32,
}

impl Span {
    /// The span of the rays' `cells`, and its rays' bits: bit k set when cell
    /// `lo + k` is on a ray; all set where the span is 128 cells or more (cells
    /// past the first 128 are then taken to be on a ray).
    pub(super) fn of(cells: impl Iterator<Item = u32> + Clone, start: usize, end: usize) -> (Span, u128) {
        let (lo, hi) = (cells.clone().min().unwrap_or(u32::MAX), cells.clone().max().unwrap_or(0));
        let on = if hi >= lo && hi - lo < 128 { cells.fold(0u128, |on, c| on | 1 << (c - lo)) } else { u128::MAX };
        (Span { lo, hi, start: start as u32, end: end as u32 }, on)
    }

    /// Does `cell` lie on the span?
    #[inline(always)]
    pub(super) fn spans(&self, cell: u32) -> bool {
        (self.lo..=self.hi).contains(&cell)
    }

    /// Does `cell` lie on a ray, `on` the rays' bits ([`Self::of`])?
    #[inline(always)]
    pub(super) fn on_ray(&self, on: u128, cell: u32) -> bool {
        self.spans(cell) && (cell - self.lo >= 128 || on >> (cell - self.lo) & 1 == 1)
    }
}

/// A cell a piece may have come from (see [`Steps`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Origin {
    pub(super) cell: u32,
    /// Its slot among the group's places, `u32::MAX` if it is not one.
    pub(super) slot: u32,
    /// The ending word of the piece there.
    pub(super) word: u32,
    /// Bit 0: on a ray whose moves land on empty cells; bit 1: on one whose
    /// moves capture.
    pub(super) kinds: u8,
}

pub(super) const QUIET: u8 = 1;
pub(super) const CAPTURE: u8 = 2;

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
    pub(super) fn forward(&self, cells: usize, g: usize, c: u32) -> (Span, &[(u32, u32)]) {
        let span = self.forward[g * cells + c as usize];
        (span, &self.lands[span.start as usize..span.end as usize])
    }

    /// The backward span of a piece of group g on cell c, and its origins when
    /// no other piece stands on a ray.
    #[inline]
    pub(super) fn backward(&self, cells: usize, g: usize, c: u32) -> (Span, &[Origin]) {
        let span = self.backward[g * cells + c as usize];
        (span, &self.origins[span.start as usize..span.end as usize])
    }
}

/// Does a piece of `pieces` other than the one at place `i` stand on one of
/// the rays of `span`, whose rays' bits are `on`?
#[inline(always)]
pub(super) fn on_rays(pieces: &[u32], i: usize, span: &Span, on: u128) -> bool {
    pieces.iter().enumerate().any(|(j, &q)| j != i && span.on_ray(on, cell_of(q)))
}

/// Does a piece of `pieces` other than the one at place `i` stand on `span`?
#[inline(always)]
pub(super) fn on_span(pieces: &[u32], i: usize, span: &Span) -> bool {
    pieces.iter().enumerate().any(|(j, &q)| j != i && span.spans(cell_of(q)))
}

/// Writes `pieces` with the one at place `i` replaced by `moved` into `list`,
/// sorted (the piece slides to its place among its group's).
#[inline]
pub(super) fn moved_back(pieces: &[u32], i: usize, moved: u32, list: &mut [u32]) {
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
pub(super) fn insert_sorted(list: &mut [u32], n: usize, packed: u32) {
    let mut at = n;
    while at > 0 && list[at - 1] > packed {
        list[at] = list[at - 1];
        at -= 1;
    }
    list[at] = packed;
}
