//! Children located without playing a move, for games whose groups are each ranked
//! on their own places (pawn chess, Breakthrough): the inner loop of the tier
//! sweeps ([`gsolve_engine::Tiered::for_each_located_at`]).
//!
//! Where no group's places hold an earlier group's, a group's rank names its cells
//! by itself (one load from the index's `cell_sets` gives them as a bit set), and a
//! move changes only the moving group's rank, or with a capture also the captured
//! group's rank and the tier:
//!
//! ```text
//!   index in tier = (Σ_g rank_g · mult_g) · 2 + side,   mult_g = Π_{h<g} radix_h
//!   rank_g        = Σ_i C(slot_g(c_i), i + 1)            c_0 < c_1 < …: g's cells
//!   a move of g from a to b:   cells_g ← cells_g − a + b  (rank_g recomputed)
//!   a capture on b of group h: cells_h ← cells_h − b      (and the tier with one
//!                                                           piece of h fewer)
//! ```
//!
//! Cell sets are 64-bit words on boards of at most 64 cells, 128-bit ones up to
//! 128 cells; a group whose places are at most 12 consecutive cells (the pawns:
//! every row but the goal row) is ranked by one load from a table of every subset.
//!
//! So a child is ranked from one or two bit sets, its endings read from the reach
//! bits of the groups that changed, and no position is built, sorted or ranked
//! whole: the default (play the move, ask `terminal`, rank every group) spent
//! three quarters of the pawns' tier sweeps there.
//!
//! The shape it takes ([`PlacementScan::new`]): one piece moves a turn on both
//! sides, onto an empty cell or capturing; no stays, trails, drops, hands,
//! promotions, meetings, lines, full-board or royal endings; being stuck loses;
//! at most 64 reach checks; boards of at most 128 cells; and no group's places
//! hold an earlier group's, each group with an unranking table to cells in every
//! tier where it has two pieces or more. Other games keep the engine's default.

use crate::compiled::board::Board;
use crate::compiled::endings::flip;
use crate::compiled::tables::Tables;
use crate::index::{PlacementIndex, TierInfo};
use crate::language::spec::{Check, Turn};
use gsolve_engine::{ChildAt, Outcome, Scan, Value};

/// The most groups a scanned game has (the index's cell tables need no more).
const MAX_GROUPS: usize = 8;
/// The most places of a group whose ranks are tabled ([`PlacementScan::ranked`]:
/// 2^12 entries, 16 KiB).
const RANKED_PLACES: usize = 12;
/// `table` of a group with one piece: its rank is its cell's slot.
const ONE: u32 = u32::MAX - 1;
/// `table` of a group with no piece.
const NONE: u32 = u32::MAX;

/// A set of cells as bits: `u64` on boards of at most 64 cells (each operation
/// one instruction), else `u128` (two, and a branch to find a set bit).
trait Cells:
    Copy
    + Eq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::BitOrAssign
{
    const EMPTY: Self;
    /// The set of a `u128` (the tables' width) whose cells all fit.
    fn of(set: u128) -> Self;
    /// The set of one cell.
    fn cell(c: u32) -> Self;
    /// The lowest cell (the set is not empty).
    fn first(self) -> u32;
    /// The set without its lowest cell.
    fn rest(self) -> Self;
    /// The bits from cell `first` up, as a number (for tables of subsets).
    fn bits_from(self, first: u32) -> usize;
}

/// `Cells` for an unsigned integer type (the tables' `u128` sets are cut to it).
macro_rules! cells_of_bits {
    ($bits:ty) => {
        impl Cells for $bits {
            const EMPTY: Self = 0;
            #[inline]
            fn of(set: u128) -> Self {
                set as $bits
            }
            #[inline]
            fn cell(c: u32) -> Self {
                1 << c
            }
            #[inline]
            fn first(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn rest(self) -> Self {
                self & (self - 1)
            }
            #[inline]
            fn bits_from(self, first: u32) -> usize {
                (self >> first) as usize
            }
        }
    };
}

cells_of_bits!(u64);
cells_of_bits!(u128);

/// An ending as `terminal` checks it, for one side to move, in its order.
#[derive(Clone, Copy, Debug)]
enum End {
    /// Some piece counts for the reach check of this bit.
    Reach(u64, Outcome),
    /// This side has no piece on the board.
    NoPieces(usize, Outcome),
}

/// One tier's arithmetic.
#[derive(Clone, Debug)]
struct ScanTier {
    /// `mult[g]`: the product of the earlier groups' radices.
    mult: [u64; MAX_GROUPS],
    radix: [u64; MAX_GROUPS],
    /// Each group's table in the index's `cell_sets`, or [`ONE`], [`NONE`].
    table: [u32; MAX_GROUPS],
    /// `captured[g]`: the tier with one piece of group g fewer (`u32::MAX`: none).
    captured: [u32; MAX_GROUPS],
    /// Bit s: side s has a piece on the board.
    present: u8,
    /// `present_captured[g]`: the same with one piece of group g fewer.
    present_captured: [u8; MAX_GROUPS],
}

/// The tables of a game the scan takes (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct PlacementScan {
    cells: usize,
    groups: usize,
    side: [usize; MAX_GROUPS],
    /// `slot[g * cells + c]`: cell c's place number among group g's places, or
    /// `u32::MAX`: not a place (a piece there has ended the game).
    slot: Vec<u32>,
    /// `place_cell[g][slot]`: the cell of each of group g's places.
    place_cell: Vec<Vec<u32>>,
    /// `colex[(g * cells + c) * pieces + i]` = C(slot_g(c), i + 1): what a piece
    /// of group g on cell c adds to the group's rank as its i-th cell (0 off the
    /// group's places); `pieces` is the most pieces of a group.
    colex: Vec<u64>,
    pieces: usize,
    /// Where group g's places are the cells `first..first + n` with n ≤
    /// [`RANKED_PLACES`] (pawns: every row but the goal row), `ranked[g]` =
    /// (first, the rank of every subset of them by its bit set): one load ranks
    /// the group.
    ranked: Vec<Option<(u32, Vec<u32>)>>,
    /// Where every ray is one cell long or leaps (pawns, Breakthrough, knights):
    /// [`Tables::short_target_sets`]; empty otherwise (the rays are walked).
    targets: Vec<[u128; 2]>,
    /// `quiet[g]`: no reach check counts a piece of group g on its places (pawns:
    /// the goal row is no place), so the group's hits come from a piece that
    /// just arrived off its places alone.
    quiet: [bool; MAX_GROUPS],
    /// The game's reach bits (`reach_bits[g * cells + c]`), or all zero.
    reach_bits: Vec<u64>,
    /// `advance[g * cells + c]`: the game's progress of a piece (empty without a
    /// progress measure).
    advance: Vec<u16>,
    /// `ends[s]`: the endings `terminal` checks with side s to move, in order.
    ends: [Vec<End>; 2],
    /// `reach_any[s]`: every reach bit of `ends[s]`.
    reach_any: [u64; 2],
    /// `needs_present[s]`: the sides whose absence ends the game with s to move.
    needs_present: [u8; 2],
    tiers: Vec<ScanTier>,
}

impl PlacementScan {
    /// The scan of a game of the shape in the module docs, `None` for any other.
    pub(crate) fn new(tables: &Tables, index: &PlacementIndex) -> Option<PlacementScan> {
        if !takes_shape(tables, index) {
            return None;
        }
        let endings = tables.endings();
        let groups = tables.groups();
        let cells = tables.board().cells();
        let mut tiers = Vec::with_capacity(index.tiers().len());
        for info in index.tiers() {
            tiers.push(ScanTier::new(info, tables, index)?);
        }
        let pieces = index.limits()[..groups].iter().map(|&l| l as usize).max().unwrap_or(0);
        let reach_bits =
            if endings.reach_bits().is_empty() { vec![0; groups * cells] } else { endings.reach_bits().to_vec() };
        let mut quiet = [true; MAX_GROUPS];
        for (g, places) in index.places().iter().enumerate() {
            quiet[g] = places.cells().iter().all(|&c| reach_bits[g * cells + c as usize] == 0);
        }
        let mut side = [0; MAX_GROUPS];
        side[..groups].copy_from_slice(tables.group_sides());
        let (ends, reach_any, needs_present) = ends_in_order(tables);
        Some(PlacementScan {
            cells,
            groups,
            side,
            slot: index.places().iter().flat_map(|p| p.slots().iter().copied()).collect(),
            place_cell: index.places().iter().map(|p| p.cells().to_vec()).collect(),
            colex: colex_table(index, groups, cells, pieces),
            pieces,
            ranked: ranked_tables(index, pieces),
            targets: tables.short_target_sets().to_vec(),
            quiet,
            advance: tables.advances().to_vec(),
            reach_bits,
            ends,
            reach_any,
            needs_present,
            tiers,
        })
    }

    /// The ending for side `to_move` of a position whose pieces count for the
    /// reach bits `hits`, with the sides of `present` on the board: `terminal`'s
    /// answer in the shape the scan takes.
    #[inline]
    fn ending(&self, hits: u64, present: u8, to_move: usize) -> Option<Outcome> {
        let needs = self.needs_present[to_move];
        if hits & self.reach_any[to_move] == 0 && present & needs == needs {
            return None;
        }
        self.ends[to_move].iter().find_map(|&end| match end {
            End::Reach(bit, outcome) => (hits & bit != 0).then_some(outcome),
            End::NoPieces(side, outcome) => (present >> side & 1 == 0).then_some(outcome),
        })
    }

    /// The reach bits group `g`'s pieces on the cells of `mask` count for.
    #[inline]
    fn hits_of<B: Cells>(&self, g: usize, mut mask: B) -> u64 {
        let row = &self.reach_bits[g * self.cells..(g + 1) * self.cells];
        let mut hits = 0;
        while mask != B::EMPTY {
            hits |= row[mask.first() as usize];
            mask = mask.rest();
        }
        hits
    }

    /// The rank of group `g` on the cells of `mask` (all places of g).
    #[inline]
    fn rank_of<B: Cells>(&self, g: usize, mut mask: B) -> u64 {
        if let Some((first, table)) = &self.ranked[g] {
            return table[mask.bits_from(*first)] as u64;
        }
        let row = &self.colex[g * self.cells * self.pieces..(g + 1) * self.cells * self.pieces];
        let mut rank = 0;
        let mut i = 0;
        while mask != B::EMPTY {
            rank += row[mask.first() as usize * self.pieces + i];
            i += 1;
            mask = mask.rest();
        }
        rank
    }

    /// The cells of group `g` at rank `rank` in a tier.
    #[inline]
    fn cells_of<B: Cells>(&self, index: &PlacementIndex, table: u32, g: usize, rank: u64) -> B {
        match table {
            NONE => B::EMPTY,
            ONE => B::cell(self.place_cell[g][rank as usize]),
            t => B::of(index.cell_set(t, rank)),
        }
    }

    /// The cells of each group at the pair of indices `pair · 2 + (0, 1)` of tier
    /// `t` (with their ranks in `ranks`); `None` for a hole (two groups on a cell).
    #[inline]
    fn decode<B: Cells>(
        &self,
        index: &PlacementIndex,
        t: &ScanTier,
        pair: u64,
        ranks: &mut [u64; MAX_GROUPS],
        masks: &mut [B; MAX_GROUPS],
    ) -> Option<()> {
        let mut rest = pair;
        let mut taken = B::EMPTY;
        for g in 0..self.groups {
            ranks[g] = rest % t.radix[g];
            rest /= t.radix[g];
            masks[g] = self.cells_of(index, t.table[g], g, ranks[g]);
            if taken & masks[g] != B::EMPTY {
                return None;
            }
            taken |= masks[g];
        }
        Some(())
    }

    /// Calls `f(index, progress)` for each position of `range` in `tier`, holes
    /// skipped: [`gsolve_engine::Tiered::for_each_progress_in_tier`] for the game.
    pub(crate) fn for_each_progress_in_tier(
        &self,
        index: &PlacementIndex,
        tier: usize,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, u32),
    ) {
        let t = &self.tiers[tier];
        let (mut ranks, mut masks) = ([0u64; MAX_GROUPS], [0u128; MAX_GROUPS]);
        let mut pair = u64::MAX;
        let mut progress = None;
        for at in range {
            if at >> 1 != pair {
                pair = at >> 1;
                progress = self.decode(index, t, pair, &mut ranks, &mut masks).map(|()| {
                    (0..self.groups).fold(0u32, |sum, g| {
                        let row = &self.advance[g * self.cells..(g + 1) * self.cells];
                        let mut mask = masks[g];
                        let mut sum = sum;
                        while mask != 0 {
                            sum += row[mask.trailing_zeros() as usize] as u32;
                            mask &= mask - 1;
                        }
                        sum
                    })
                });
            }
            if let Some(p) = progress {
                f(at, p);
            }
        }
    }

    /// Calls `f(index, scan)` for each of `indices` (ascending) of `tier`, holes
    /// skipped: [`gsolve_engine::Tiered::for_each_located_at`] for the game.
    pub(crate) fn for_each_located_at(
        &self,
        board: &Board,
        index: &PlacementIndex,
        tier: usize,
        indices: impl Iterator<Item = u64>,
        f: impl FnMut(u64, Scan<'_, u32>),
    ) {
        if self.cells <= 64 {
            self.located::<u64>(board, index, tier, indices, f)
        } else {
            self.located::<u128>(board, index, tier, indices, f)
        }
    }

    /// [`Self::for_each_located_at`] with cell sets of type `B`.
    fn located<B: Cells>(
        &self,
        board: &Board,
        index: &PlacementIndex,
        tier: usize,
        indices: impl Iterator<Item = u64>,
        mut f: impl FnMut(u64, Scan<'_, u32>),
    ) {
        let t = &self.tiers[tier];
        let groups = self.groups;
        let mut children: Vec<ChildAt<u32>> = Vec::new();
        // The pieces of the last pair of indices decoded (2i, 2i + 1 share them).
        let mut pair = u64::MAX;
        let mut hole = true;
        let mut ranks = [0u64; MAX_GROUPS];
        let mut masks = [B::EMPTY; MAX_GROUPS];
        let mut hits = [0u64; MAX_GROUPS];
        let mut by_side = [B::EMPTY; 2];
        for at in indices {
            if at >> 1 != pair {
                pair = at >> 1;
                hole = self.decode(index, t, pair, &mut ranks, &mut masks).is_none();
                by_side = [B::EMPTY; 2];
                for g in 0..groups {
                    by_side[self.side[g]] |= masks[g];
                    hits[g] = if self.quiet[g] { 0 } else { self.hits_of(g, masks[g]) };
                }
            }
            if hole {
                continue;
            }
            let to_move = (at & 1) as usize;
            let all_hits = hits[..groups].iter().fold(0, |a, &h| a | h);
            if let Some(outcome) = self.ending(all_hits, t.present, to_move) {
                f(at, Scan::Over(outcome));
                continue;
            }
            children.clear();
            let (own, enemy) = (by_side[to_move], by_side[1 - to_move]);
            let mut wins_now = false;
            'moves: for g in (0..groups).filter(|&g| self.side[g] == to_move) {
                let mut pieces = masks[g];
                while pieces != B::EMPTY {
                    let from = pieces.first();
                    pieces = pieces.rest();
                    if !self.targets.is_empty() {
                        // Short rays: the targets are two bit sets.
                        let [onto_empty, onto_enemy] = self.targets[g * self.cells + from as usize];
                        let empty = !(own | enemy);
                        let mut to_empty = B::of(onto_empty) & empty;
                        let mut to_enemy = B::of(onto_enemy) & enemy;
                        while to_empty | to_enemy != B::EMPTY {
                            let capture = to_empty == B::EMPTY;
                            let bits = if capture { &mut to_enemy } else { &mut to_empty };
                            let to = bits.first();
                            *bits = bits.rest();
                            let child =
                                self.child(tier as u32, t, &ranks, &masks, &hits, to_move, g, from, to, capture);
                            if child == ChildAt::Over(Outcome::Loss) {
                                wins_now = true;
                                break 'moves;
                            }
                            children.push(child);
                        }
                        continue;
                    }
                    let dedupe = board.rays_overlap(g, from);
                    let mut seen = B::EMPTY;
                    for ray in board.rays(g, from) {
                        for &to in board.ray_cells(ray) {
                            let bit = B::cell(to);
                            if own & bit != B::EMPTY {
                                if ray.leap {
                                    continue;
                                }
                                break;
                            }
                            let capture = enemy & bit != B::EMPTY;
                            let legal = if capture { ray.onto.enemy() } else { ray.onto.empty() };
                            if legal && (!dedupe || seen & bit == B::EMPTY) {
                                seen |= bit;
                                let child =
                                    self.child(tier as u32, t, &ranks, &masks, &hits, to_move, g, from, to, capture);
                                if child == ChildAt::Over(Outcome::Loss) {
                                    wins_now = true;
                                    break 'moves;
                                }
                                children.push(child);
                            }
                            if capture && !ray.leap {
                                break;
                            }
                        }
                    }
                }
            }
            if wins_now {
                // A move that wins at once: the fastest win there is.
                f(at, Scan::Known(Value::Win(1)));
            } else {
                f(at, Scan::Moves(&children));
            }
        }
    }

    /// Where the child lies after group `g`'s piece moves `from` → `to` (taking
    /// the enemy there if `capture`), side `to_move` moving from tier `tier` (`t`).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child<B: Cells>(
        &self,
        tier: u32,
        t: &ScanTier,
        ranks: &[u64; MAX_GROUPS],
        masks: &[B; MAX_GROUPS],
        hits: &[u64; MAX_GROUPS],
        to_move: usize,
        g: usize,
        from: u32,
        to: u32,
        capture: bool,
    ) -> ChildAt<u32> {
        let groups = self.groups;
        let bit = B::cell(to);
        let moved = masks[g] ^ B::cell(from) ^ bit;
        // The captured group (none: `groups`) and its cells left.
        let taken = if capture { (0..groups).find(|&h| masks[h] & bit != B::EMPTY).unwrap_or(groups) } else { groups };
        let left = if taken < groups { masks[taken] ^ bit } else { B::EMPTY };
        // A quiet group's pieces on its places count for nothing: only a piece
        // that arrived off them can.
        let mut child_hits =
            if self.quiet[g] { self.reach_bits[g * self.cells + to as usize] } else { self.hits_of(g, moved) };
        for (h, &group_hits) in hits[..groups].iter().enumerate() {
            if h == taken {
                if !self.quiet[h] {
                    child_hits |= self.hits_of(h, left);
                }
            } else if h != g {
                child_hits |= group_hits;
            }
        }
        let (child_tier, present) =
            if taken < groups { (t.captured[taken], t.present_captured[taken]) } else { (tier, t.present) };
        if let Some(outcome) = self.ending(child_hits, present, 1 - to_move) {
            return ChildAt::Over(outcome);
        }
        // A piece off its places, or counts no tier holds: `locate` finds no tier.
        let Some(ct) = self.tiers.get(child_tier as usize) else { return ChildAt::Nowhere };
        if self.slot[g * self.cells + to as usize] == u32::MAX {
            return ChildAt::Nowhere;
        }
        let mut rank = 0u64;
        for (h, (&parent_rank, &mult)) in ranks[..groups].iter().zip(&ct.mult).enumerate() {
            let r = if h == g {
                self.rank_of(g, moved)
            } else if h == taken {
                self.rank_of(h, left)
            } else {
                parent_rank
            };
            rank += r * mult;
        }
        ChildAt::In(child_tier, rank * 2 + (1 - to_move) as u64)
    }
}

/// Whether the game has the shape the scan takes (the module docs), apart from
/// what each tier checks ([`ScanTier::new`]).
fn takes_shape(tables: &Tables, index: &PlacementIndex) -> bool {
    let rules = tables.rules();
    let endings = tables.endings();
    tables.groups() <= MAX_GROUPS
        && tables.board().cells() <= 128
        && index.hand_slots() == 0
        && !rules.has_drops()
        && !rules.has_promotions()
        && !rules.has_trails()
        && rules.sides.iter().all(|s| s.turn == Turn::OnePiece)
        && !tables.any_stays()
        && !tables.has_meetings()
        && !endings.has_lines()
        && !endings.has_full()
        && !endings.has_royal()
        && endings.stuck() == Outcome::Loss
        && ((0..2).all(|side| endings.reach_checks(side).is_empty()) || !endings.reach_bits().is_empty())
        && index.places().iter().all(|p| !p.holds_an_earlier_group())
}

impl ScanTier {
    /// The arithmetic of the tier `info` of `index`: `None` when a side may be
    /// absent from it or a group of two pieces or more has no table to cells.
    fn new(info: &TierInfo, tables: &Tables, index: &PlacementIndex) -> Option<ScanTier> {
        if info.sides != 3 {
            return None;
        }
        let groups = tables.groups();
        let mut tier = ScanTier {
            mult: [0; MAX_GROUPS],
            radix: [1; MAX_GROUPS],
            table: [NONE; MAX_GROUPS],
            captured: [u32::MAX; MAX_GROUPS],
            present: 0,
            present_captured: [0; MAX_GROUPS],
        };
        let mut mult = 1u64;
        for g in 0..groups {
            tier.mult[g] = mult;
            tier.radix[g] = info.radix(g);
            mult = mult.wrapping_mul(info.radix(g));
            tier.table[g] = match info.counts[g] {
                0 => NONE,
                1 => ONE,
                _ => info.cell_table(g)?,
            };
            if info.counts[g] > 0 {
                let mut fewer = info.counts.clone();
                fewer[g] -= 1;
                tier.captured[g] = index.tier_of(&fewer).map_or(u32::MAX, |t| t as u32);
            }
        }
        let present =
            |counts: &[u8]| (0..groups).filter(|&g| counts[g] > 0).fold(0u8, |p, g| p | 1 << tables.side_of(g));
        tier.present = present(&info.counts);
        for g in (0..groups).filter(|&g| info.counts[g] > 0) {
            let mut fewer = info.counts.clone();
            fewer[g] -= 1;
            tier.present_captured[g] = present(&fewer);
        }
        Some(tier)
    }
}

/// [`PlacementScan::colex`]: what a piece of each group on each cell adds to the
/// group's rank as its i-th cell, for i below `pieces`.
fn colex_table(index: &PlacementIndex, groups: usize, cells: usize, pieces: usize) -> Vec<u64> {
    let mut colex = vec![0u64; groups * cells * pieces];
    for (g, places) in index.places().iter().enumerate() {
        for c in 0..cells {
            let slot = places.slots()[c];
            if slot != u32::MAX {
                for i in 0..pieces {
                    colex[(g * cells + c) * pieces + i] = index.choose(slot, i + 1);
                }
            }
        }
    }
    colex
}

/// [`PlacementScan::ranked`]: for each group whose places are at most
/// [`RANKED_PLACES`] consecutive cells, the rank of every subset of them.
fn ranked_tables(index: &PlacementIndex, pieces: usize) -> Vec<Option<(u32, Vec<u32>)>> {
    index
        .places()
        .iter()
        .map(|places| {
            let (n, first) = (places.cells().len(), *places.cells().first()?);
            let contiguous = places.cells().iter().enumerate().all(|(i, &c)| c == first + i as u32);
            (contiguous && n <= RANKED_PLACES).then(|| {
                let table = (0u32..1 << n)
                    .map(|set| {
                        let mut rank = 0u64;
                        let mut bits = set;
                        let mut i = 1;
                        while bits != 0 {
                            rank += index.choose(bits.trailing_zeros(), i.min(pieces));
                            i += 1;
                            bits &= bits - 1;
                        }
                        rank as u32
                    })
                    .collect();
                (first, table)
            })
        })
        .collect()
}

/// The endings in `terminal`'s order for each side to move: the side that just
/// moved, then the side to move; each side's reach checks (those checked after
/// the reply only for the side to move), then its having no pieces.
fn ends_in_order(tables: &Tables) -> ([Vec<End>; 2], [u64; 2], [u8; 2]) {
    let endings = tables.endings();
    let mut ends = [Vec::new(), Vec::new()];
    let mut reach_any = [0u64; 2];
    let mut needs_present = [0u8; 2];
    for to_move in 0..2 {
        for side in [1 - to_move, to_move] {
            let mover = side != to_move;
            let first_bit = if side == 0 { 0 } else { endings.reach_checks(0).len() };
            for (j, check) in endings.reach_checks(side).iter().enumerate() {
                if mover && check.when() == Check::AfterReply {
                    continue;
                }
                let bit = 1u64 << (first_bit + j);
                reach_any[to_move] |= bit;
                ends[to_move].push(End::Reach(bit, if mover { flip(check.result()) } else { check.result() }));
            }
            if let Some(result) = endings.no_pieces(side) {
                needs_present[to_move] |= 1 << side;
                ends[to_move].push(End::NoPieces(side, if mover { flip(result) } else { result }));
            }
        }
    }
    (ends, reach_any, needs_present)
}
