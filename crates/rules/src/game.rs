//! A rules file on a board, as an engine [`Game`]: move generation, playing a move,
//! and the endings.

use crate::board::{Board, Group, NO_CELL};
use crate::error::RulesError;
use crate::index::PlacementIndex;
use crate::position::{cell_of, group_of, pack, RulesPosition, MAX_PIECES, MAX_TRAIL_CELLS};
use crate::spec::{Check, Ending, Facing, Onto, Rules, Turn};
use gsolve_engine::{Game, Outcome};
use std::sync::Arc;

/// The most pieces a side that moves every piece at once may have (its moves are
/// the product of its pieces' moves).
pub const MAX_ALL_PIECES: usize = 4;

/// A move: each moving piece's (from, to) cells; a piece that stays has from = to;
/// no steps at all is a pass; a drop is one step whose `from` is
/// [`DROP`]` + group` (no cell has such a number: [`crate::board::MAX_CELLS`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RulesMove {
    pub(crate) len: u8,
    /// The moving piece becomes its promoted kind (one piece's move only).
    pub(crate) promote: bool,
    pub(crate) steps: [(u16, u16); MAX_ALL_PIECES],
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

/// A group's promotion, compiled for a board.
#[derive(Clone, Debug)]
pub(crate) struct PromotionTo {
    /// The group it becomes (same side).
    pub(crate) group: usize,
    /// `zone[c]`: a move ending on cell c promotes.
    pub(crate) zone: Vec<bool>,
    pub(crate) forced: bool,
}

/// No hand slot.
pub(crate) const NO_SLOT: u8 = u8::MAX;
/// The most hand slots (groups dropped from a hand): 4 bits each in a `u64`.
pub const MAX_HAND_SLOTS: usize = 16;

/// Where a group's pieces may be dropped, compiled for a board.
#[derive(Clone, Debug)]
pub(crate) struct DropTargets {
    /// `allowed[c]`: the piece may land on cell c (its zone, or every cell).
    pub(crate) allowed: Vec<bool>,
    /// Dropped into a column, the piece falls ([`crate::spec::DropRule::gravity`]).
    pub(crate) gravity: bool,
    /// From the side's hand (else an endless supply).
    pub(crate) from_hand: bool,
}

/// A `line` ending compiled for a board.
///
/// Where the grid with one spare column fits in 128 bits, a side's pieces are one
/// such bit set and a line is found by shifts, four or fewer directions of
/// `length − 1` shifts each (the spare column stops rows and diagonals from
/// running on into the next row):
/// ```text
///   bit(r, c) = r · (cols + 1) + c          directions: 1 (→), cols + 1 (↓),
///   x = b; x &= b >> d; x &= b >> 2d; …      cols + 2 (↘), cols (↙)
/// ```
/// Otherwise each line is checked cell by cell.
#[derive(Clone, Debug)]
pub(crate) struct LineCheck {
    /// The cells of each line, `length` a line, one after another.
    cells: Vec<u32>,
    length: usize,
    /// The shifts of the directions, where the padded grid fits (else empty).
    shifts: Vec<u32>,
    /// `counts[g]`: pieces of group g make lines.
    counts: Vec<bool>,
    result: Outcome,
}

/// The reach checks' hits numbered together ([`RulesGame::reach_bits`]): side 0's
/// checks, then side 1's; empty when there are none or more than 64 (`entries`:
/// groups × cells).
fn reach_bits(reach: &[Vec<ReachCheck>; 2], entries: usize) -> Vec<u64> {
    let checks: Vec<&ReachCheck> = reach.iter().flatten().collect();
    if checks.is_empty() || checks.len() > 64 {
        return Vec::new();
    }
    (0..entries).map(|at| checks.iter().enumerate().fold(0, |bits, (j, c)| bits | (c.hits[at] as u64) << j)).collect()
}

/// A `reach` ending compiled for a board.
#[derive(Clone, Debug)]
pub(crate) struct ReachCheck {
    /// `hits[g * cells + c]`: a piece of group g on cell c stands in the zone and
    /// counts for the ending (one load a piece: endings are checked for every
    /// position and child of a solve).
    hits: Vec<bool>,
    pub(crate) check: Check,
    pub(crate) result: Outcome,
}

/// A game described by rules, on one board; its positions have room for `N`
/// pieces ([`RulesPosition`]).
#[derive(Clone, Debug)]
pub struct RulesGame<const N: usize = MAX_PIECES> {
    pub(crate) rules: Arc<Rules>,
    pub(crate) board: Board,
    /// The side of each group.
    pub(crate) group_side: Vec<usize>,
    group_trail: Vec<bool>,
    pub(crate) group_stay: Vec<bool>,
    /// `meet[a * groups + b]`: the `ended` code when a piece of group a meets one of
    /// group b (0: no meeting, a capture).
    pub(crate) meet: Vec<u8>,
    /// `reach[side]`: the reach endings that apply to that side.
    pub(crate) reach: [Vec<ReachCheck>; 2],
    /// `reach_bits[g * cells + c]`: bit `j` set when a piece of group g on cell c
    /// counts for side 0's j-th reach check, bit `len0 + j` for side 1's (len0:
    /// side 0's number of checks); empty when there are more than 64 checks. One
    /// load a piece answers every check ([`RulesGame::reach_hits`]).
    pub(crate) reach_bits: Vec<u64>,
    /// `royal[side]`: for each `captured` ending, the side's groups of its kinds
    /// (`mask[g]`) and the result for the side when it has none of them left.
    pub(crate) royal: [Vec<(Vec<bool>, Outcome)>; 2],
    pub(crate) no_pieces: [Option<Outcome>; 2],
    pub(crate) stuck: Outcome,
    /// The dense index over piece placements, for games without trails.
    pub(crate) index: Option<PlacementIndex>,
    /// Why there is no index.
    pub(crate) no_index: Option<String>,
    /// The step graph when the game is a trail race (the snakes on a graph), for
    /// the search.
    pub(crate) race: Option<Arc<crate::race::Race>>,
    /// `mirror[c]`: cell c reflected left to right, when the rules and the board
    /// look the same in a mirror (every position then has its mirror image's
    /// value: the search keeps one of the two).
    pub(crate) mirror: Option<Vec<u32>>,
    /// Drops of each group (`None`: never dropped).
    pub(crate) drops: Vec<Option<DropTargets>>,
    /// `hand_slot[g]`: the hand slot of group g ([`NO_SLOT`]: never in a hand).
    pub(crate) hand_slot: Vec<u8>,
    /// The groups of the hand slots, in slot order.
    pub(crate) slot_group: Vec<usize>,
    /// `to_hand[g]`: the slot a captured piece of group g goes to (the captor's
    /// group of its hand kind), or [`NO_SLOT`]: it leaves the game.
    pub(crate) to_hand: Vec<u8>,
    /// Each group's promotion, if it has one.
    pub(crate) promotion: Vec<Option<PromotionTo>>,
    /// `lines[side]`: the line endings that apply to that side.
    pub(crate) lines: [Vec<LineCheck>; 2],
    /// The result for the side to move of a full board, if that ends the game.
    pub(crate) full: Option<Outcome>,
    /// `below[c]` / `above[c]`: the playable cell under / over cell c, or
    /// [`NO_CELL`] (the edge, or a cell that is not part of the board).
    below: Vec<u32>,
    above: Vec<u32>,
    /// The playable cells of the top row: where a falling piece enters a column.
    tops: Vec<u32>,
    /// `line_weight[c]`: the lines of the line endings through cell c (move order).
    line_weight: Vec<u16>,
    /// `grid_bit[c]`: cell c's bit in a line check's padded grid ([`LineCheck`]).
    grid_bit: Vec<u8>,
    /// Bits of the padded grid: rows × (cols + 1).
    grid_bits: u32,
    /// `advance[g * cells + c]`: how far a piece of group g on cell c stands from
    /// its side's back edge, in its forward direction. Empty when some move that
    /// stays in a tier (onto an empty cell) does not go forward, or a piece may
    /// stay: then no progress measure holds (see [`RulesGame::progress_of`]).
    pub(crate) advance: Vec<u16>,
    /// Children located without playing moves, for games of the shape
    /// [`crate::scan`] takes (built with the index).
    pub(crate) scan: Option<Arc<crate::scan::PlacementScan>>,
}

impl RulesGame {
    /// The game of `rules` on `board`, its index covering up to `limits[g]` pieces of
    /// each group (the counts of the position to solve, or of the start); without
    /// limits, the game has no index (search, or reading a position to learn them).
    pub fn new(rules: Arc<Rules>, board: Board, limits: Option<&[u8]>) -> Result<RulesGame, RulesError> {
        let groups = &board.groups;
        let n = groups.len();
        let group_side: Vec<usize> = groups.iter().map(|g| g.side).collect();
        let group_trail = groups.iter().map(|g| rules.kinds[g.kind].trail).collect();
        let group_stay = groups.iter().map(|g| rules.kinds[g.kind].stay).collect();
        let mut meet = vec![0u8; n * n];
        for (a, ga) in groups.iter().enumerate() {
            for (b, gb) in groups.iter().enumerate() {
                if ga.side != gb.side {
                    if let Some(winner) = rules.meeting(ga.kind, gb.kind) {
                        meet[a * n + b] = winner.map_or(3, |w| 1 + w as u8);
                    }
                }
            }
        }
        // A side without a piece of a royal kind has lost it (it was captured).
        let mut royal: [Vec<(Vec<bool>, Outcome)>; 2] = [Vec::new(), Vec::new()];
        for e in &rules.endings {
            let Ending::Captured { kinds, result } = e else { continue };
            for (side, checks) in royal.iter_mut().enumerate() {
                let mask: Vec<bool> = groups.iter().map(|g| g.side == side && kinds.contains(&g.kind)).collect();
                if mask.contains(&true) {
                    checks.push((mask, *result));
                }
            }
        }
        let group_of_kind = |side: usize, kind: usize| groups.iter().position(|g| g.side == side && g.kind == kind);
        let mut hand_slot = vec![NO_SLOT; n];
        let mut slot_group = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            if rules.kinds[group.kind].drop.as_ref().is_some_and(|d| d.from_hand) {
                if slot_group.len() == MAX_HAND_SLOTS {
                    return Err(RulesError::Board(format!(
                        "more than {MAX_HAND_SLOTS} kinds of piece in hands (each side's kinds dropped from a hand count)"
                    )));
                }
                hand_slot[g] = slot_group.len() as u8;
                slot_group.push(g);
            }
        }
        let to_hand: Vec<u8> = groups
            .iter()
            .map(|group| {
                let Some(kind) = rules.kinds[group.kind].to_hand else { return NO_SLOT };
                group_of_kind(1 - group.side, kind).map_or(NO_SLOT, |h| hand_slot[h])
            })
            .collect();
        let promotion: Vec<Option<PromotionTo>> = groups
            .iter()
            .map(|group| {
                let promote = rules.kinds[group.kind].promote.as_ref()?;
                Some(PromotionTo {
                    group: group_of_kind(group.side, promote.to)?,
                    zone: (0..board.cells() as u32).map(|c| board.in_zone(promote.zone, group.side, c)).collect(),
                    forced: promote.forced,
                })
            })
            .collect();
        let mut reach = [Vec::new(), Vec::new()];
        let mut no_pieces = [None, None];
        for ending in &rules.endings {
            match ending {
                Ending::Reach { zone, kinds, sides, check, result } => {
                    for side in 0..2 {
                        if sides[side] {
                            let counts =
                                |g: &Group| g.side == side && kinds.as_ref().is_none_or(|k| k.contains(&g.kind));
                            let hits = groups
                                .iter()
                                .flat_map(|g| {
                                    let board = &board;
                                    (0..board.cells() as u32).map(move |c| counts(g) && board.in_zone(*zone, side, c))
                                })
                                .collect();
                            reach[side].push(ReachCheck { hits, check: *check, result: *result });
                        }
                    }
                }
                Ending::NoPieces { sides, result } => {
                    for side in 0..2 {
                        if sides[side] && no_pieces[side].is_none() {
                            no_pieces[side] = Some(*result);
                        }
                    }
                }
                Ending::Line { .. }
                | Ending::Full { .. }
                | Ending::Captured { .. }
                | Ending::Meet { .. }
                | Ending::Stuck { .. } => {}
            }
        }
        let lines = lines_of(&rules, &board)?;
        let full = rules.endings.iter().find_map(|e| match e {
            Ending::Full { result } => Some(*result),
            _ => None,
        });
        let drops = groups
            .iter()
            .map(|g| {
                rules.kinds[g.kind].drop.as_ref().map(|d| DropTargets {
                    allowed: (0..board.cells() as u32)
                        .map(|c| d.zone.is_none_or(|z| board.in_zone(z, g.side, c)))
                        .collect(),
                    gravity: d.gravity,
                    from_hand: d.from_hand,
                })
            })
            .collect();
        let neighbour = |dr: i64| -> Vec<u32> {
            board
                .coords
                .iter()
                .map(|&(r, c)| {
                    let r = r as i64 + dr;
                    if r < 0 {
                        return NO_CELL;
                    }
                    board.cell(r as u32, c).unwrap_or(NO_CELL)
                })
                .collect()
        };
        let (below, above) = (neighbour(1), neighbour(-1));
        let tops = (0..board.cols).filter_map(|c| board.cell(0, c)).collect();
        let grid_bits = board.rows.saturating_mul(board.cols + 1);
        let grid_bit = board.coords.iter().map(|&(r, c)| (r * (board.cols + 1) + c).min(127) as u8).collect();
        let mut line_weight = vec![0u16; board.cells()];
        for check in lines.iter().flatten() {
            for &c in &check.cells {
                line_weight[c as usize] = line_weight[c as usize].saturating_add(1);
            }
        }
        if rules.has_drops() && board.cells() > MAX_PIECES {
            return Err(RulesError::Board(format!(
                "a game where pieces are dropped may have at most {MAX_PIECES} playable cells (a position holds at most {MAX_PIECES} pieces); this board has {}",
                board.cells()
            )));
        }
        if rules.has_trails() && board.cells() > MAX_TRAIL_CELLS {
            return Err(RulesError::Board(format!(
                "a game with trails may have at most {MAX_TRAIL_CELLS} playable cells; this board has {}",
                board.cells()
            )));
        }
        if let Some(limits) = limits {
            check_counts(&rules, &board, limits)?;
        }
        let stuck = rules.stuck_result();
        let reach_bits = reach_bits(&reach, groups.len() * board.cells());
        let mut game = RulesGame {
            rules,
            board,
            group_side,
            group_trail,
            group_stay,
            meet,
            reach,
            reach_bits,
            royal,
            no_pieces,
            stuck,
            index: None,
            no_index: None,
            race: None,
            drops,
            hand_slot,
            slot_group,
            to_hand,
            promotion,
            lines,
            full,
            below,
            above,
            tops,
            line_weight,
            grid_bit,
            grid_bits,
            mirror: None,
            advance: Vec::new(),
            scan: None,
        };
        game.advance = game.advances();
        game.mirror = game.mirror_cells();
        if game.rules.has_trails() {
            game.race = crate::race::Race::of(&game).map(Arc::new);
        }
        match limits {
            _ if game.rules.has_trails() => {
                game.no_index = Some("a piece leaves a trail: positions include walls, which no index covers".into())
            }
            None => game.no_index = Some("no piece limits were given".into()),
            Some(limits) => match PlacementIndex::new(&game, limits) {
                Ok(index) => game.index = Some(index),
                Err(why) => game.no_index = Some(why),
            },
        }
        game.scan = crate::scan::PlacementScan::new(&game).map(Arc::new);
        Ok(game)
    }

    /// The same game with an index for up to `limits[g]` pieces of each group.
    pub fn with_limits(&self, limits: &[u8]) -> Result<RulesGame, RulesError> {
        RulesGame::new(self.rules.clone(), self.board.clone(), Some(limits))
    }

    /// The same game with positions of room for `M` pieces, if its index holds no
    /// more (`None` without an index, or with more pieces). Its indices are this
    /// game's: a solution of one is a solution of the other. Solvers take the
    /// smallest room that fits ([`crate::compact`]).
    pub fn compact<const M: usize>(&self) -> Option<RulesGame<M>> {
        if self.index.as_ref()?.max_pieces() > M {
            return None;
        }
        Some(RulesGame {
            rules: self.rules.clone(),
            board: self.board.clone(),
            group_side: self.group_side.clone(),
            group_trail: self.group_trail.clone(),
            group_stay: self.group_stay.clone(),
            meet: self.meet.clone(),
            reach: self.reach.clone(),
            reach_bits: self.reach_bits.clone(),
            royal: self.royal.clone(),
            no_pieces: self.no_pieces,
            stuck: self.stuck,
            index: self.index.clone(),
            no_index: self.no_index.clone(),
            race: self.race.clone(),
            drops: self.drops.clone(),
            hand_slot: self.hand_slot.clone(),
            slot_group: self.slot_group.clone(),
            to_hand: self.to_hand.clone(),
            promotion: self.promotion.clone(),
            lines: self.lines.clone(),
            full: self.full,
            below: self.below.clone(),
            above: self.above.clone(),
            tops: self.tops.clone(),
            line_weight: self.line_weight.clone(),
            grid_bit: self.grid_bit.clone(),
            grid_bits: self.grid_bits,
            mirror: self.mirror.clone(),
            advance: self.advance.clone(),
            scan: self.scan.clone(),
        })
    }
}

impl<const N: usize> RulesGame<N> {
    /// The `advance` table, if every move that keeps the pieces on the board (onto
    /// an empty cell) goes forward and no piece may stay: then each such move adds
    /// at least 1 to the sum of the pieces' advances (ranges and slides go several
    /// steps of a forward vector), so that sum orders a tier (captures and
    /// meetings leave it).
    fn advances(&self) -> Vec<u16> {
        let forward_only = self.rules.kinds.iter().all(|k| {
            !k.stay && k.moves.iter().filter(|m| m.onto != Onto::Enemy).all(|m| m.vectors.iter().all(|&(f, _)| f > 0))
        });
        if !forward_only {
            return Vec::new();
        }
        let board = &self.board;
        let (rows, cols) = (board.rows, board.cols);
        let mut advance = Vec::with_capacity(self.group_side.len() * board.cells());
        for &side in &self.group_side {
            for &(r, c) in &board.coords {
                advance.push(match self.rules.sides[side].forward {
                    Facing::Up => rows - 1 - r,
                    Facing::Down => r,
                    Facing::Left => cols - 1 - c,
                    Facing::Right => c,
                } as u16);
            }
        }
        advance
    }

    /// The left-right reflection of the board's cells, if the game looks the same
    /// in a mirror: both sides face up or down, every move's steps come in mirror
    /// pairs, and the board's cells and every zone are symmetric. Games with
    /// trails are left out (their walls would need reflecting too).
    fn mirror_cells(&self) -> Option<Vec<u32>> {
        let rules = &self.rules;
        let board = &self.board;
        if rules.has_trails() || rules.sides.iter().any(|s| !matches!(s.forward, Facing::Up | Facing::Down)) {
            return None;
        }
        let symmetric_steps = rules
            .kinds
            .iter()
            .all(|k| k.moves.iter().all(|m| m.vectors.iter().all(|&(f, r)| m.vectors.contains(&(f, -r)))));
        if !symmetric_steps {
            return None;
        }
        let mirror: Vec<u32> =
            board.coords.iter().map(|&(r, c)| board.cell(r, board.cols - 1 - c).unwrap_or(NO_CELL)).collect();
        if mirror.contains(&NO_CELL) {
            return None; // the playable cells are not symmetric
        }
        for z in 0..rules.zones.len() {
            for side in 0..2 {
                if (0..board.cells() as u32)
                    .any(|c| board.in_zone(z, side, c) != board.in_zone(z, side, mirror[c as usize]))
                {
                    return None;
                }
            }
        }
        Some(mirror)
    }

    /// The position reflected left to right ([`RulesGame::mirror_cells`]).
    pub(crate) fn mirrored(&self, p: &RulesPosition<N>, mirror: &[u32]) -> RulesPosition<N> {
        let mut m = *p;
        let len = p.len as usize;
        for q in &mut m.pieces[..len] {
            *q = pack(group_of(*q), mirror[cell_of(*q) as usize]);
        }
        m.pieces[..len].sort_unstable();
        m
    }

    /// The sum of the pieces' advances, when the game has a progress measure: every
    /// move that stays in a tier makes it grow.
    pub(crate) fn progress_of(&self, p: &RulesPosition<N>) -> Option<u32> {
        if self.advance.is_empty() {
            return None;
        }
        let cells = self.board.cells();
        Some(p.packed().iter().map(|&q| self.advance[group_of(q) * cells + cell_of(q) as usize] as u32).sum())
    }

    /// The greatest progress of a tier's positions (pieces × the longest advance).
    pub(crate) fn tier_progress_bound(&self, counts: &[u8]) -> Option<u32> {
        if self.advance.is_empty() {
            return None;
        }
        let longest = self.board.rows.max(self.board.cols) - 1;
        Some(counts.iter().map(|&c| c as u32).sum::<u32>() * longest)
    }

    /// The pieces of each group on the board, then (in games with hands) the
    /// pieces in each hand slot: the count vector of the position's tier.
    pub fn counts(&self, p: &RulesPosition<N>) -> Vec<u8> {
        let mut counts = vec![0u8; self.group_side.len()];
        for &q in p.packed() {
            counts[group_of(q)] += 1;
        }
        counts.extend((0..self.slot_group.len()).map(|slot| p.in_hand(slot)));
        counts
    }

    /// The groups of the hand slots, in slot order.
    pub fn hand_groups(&self) -> &[usize] {
        &self.slot_group
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The groups (side, kind, letter) in index order.
    pub fn groups(&self) -> &[Group] {
        &self.board.groups
    }

    /// The piece limits the index covers.
    pub fn limits(&self) -> Option<&[u8]> {
        self.index.as_ref().map(|i| i.limits())
    }

    /// Are the tier sweeps' children ranked move by move, without playing moves
    /// (the shape [`crate::scan`] describes: pawn chess, Breakthrough)?
    pub fn scans_children(&self) -> bool {
        self.scan.is_some()
    }

    /// The dense index, if the game has one (no trails, and it fits in 64 bits).
    pub fn placement_index(&self) -> Result<&PlacementIndex, &str> {
        self.index.as_ref().ok_or_else(|| self.no_index.as_deref().unwrap_or("no index"))
    }

    /// Calls `f` with each legal move of a position where play goes on, each
    /// distinct move once.
    pub fn for_each_move(&self, p: &RulesPosition<N>, mut f: impl FnMut(RulesMove)) {
        let side = p.to_move();
        match self.rules.sides[side].turn {
            Turn::OnePiece => self.one_piece_moves(p, side, &mut f),
            Turn::AllPieces => self.all_piece_moves(p, side, &mut f),
        }
    }

    /// What stands on `cell`: `Some(packed)` for a piece, `None` for empty; walls are
    /// reported by [`RulesPosition::is_wall`].
    #[inline]
    fn one_piece_moves(&self, p: &RulesPosition<N>, side: usize, f: &mut impl FnMut(RulesMove)) {
        let board = &self.board;
        let mut can_pass = false;
        let mut seen = crate::unmoves::Seen::<u32>::default();
        for &packed in p.packed() {
            let g = group_of(packed);
            if self.group_side[g] != side {
                continue;
            }
            can_pass |= self.group_stay[g];
            let from = cell_of(packed);
            let rays = board.rays(g, from);
            // A target reached by two rules (or two rays) is one move.
            let dedupe = board.rays_overlap(g, from);
            seen.clear();
            for ray in rays {
                for &to in board.ray_cells(ray) {
                    if p.is_wall(to) {
                        if ray.leap {
                            continue;
                        }
                        break;
                    }
                    let legal = match p.at(to) {
                        None => ray.onto.empty(),
                        Some(other) if self.group_side[group_of(other)] == side => false,
                        Some(_) => ray.onto.enemy(),
                    };
                    if legal && (!dedupe || seen.insert(to)) {
                        self.step_moves(g, from, to, f);
                    }
                    if !ray.leap && p.at(to).is_some() {
                        break;
                    }
                }
            }
        }
        self.drop_moves(p, side, f);
        if can_pass {
            f(RulesMove::PASS);
        }
    }

    /// The moves of a piece of group `g` from `from` to `to`: promoting where it
    /// must, both ways where it may.
    #[inline]
    fn step_moves(&self, g: usize, from: u32, to: u32, f: &mut impl FnMut(RulesMove)) {
        match &self.promotion[g] {
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

    /// The playable cells holding a piece, as a bit set (boards of at most 128
    /// cells, as every game with drops has: see [`RulesGame::new`]).
    #[inline]
    pub(crate) fn occupied(&self, p: &RulesPosition<N>) -> u128 {
        p.packed().iter().fold(0u128, |set, &q| set | 1u128 << (cell_of(q) & 127))
    }

    /// Where a piece dropped into the column whose top cell is `top` comes to
    /// rest: it falls while the cell below is playable and empty; `None` when the
    /// top cell is taken (the column is full).
    #[inline]
    pub(crate) fn fall(&self, top: u32, occupied: u128) -> Option<u32> {
        if occupied >> top & 1 == 1 {
            return None;
        }
        let mut cell = top;
        loop {
            let next = self.below[cell as usize];
            if next == NO_CELL || occupied >> next & 1 == 1 {
                return Some(cell);
            }
            cell = next;
        }
    }

    /// Could a piece dropped into its column have come to rest on `cell` with the
    /// cells of `occupied` taken: nothing over it up to the top row, something (or
    /// the edge) under it?
    pub(crate) fn rests_on(&self, cell: u32, occupied: u128) -> bool {
        let next = self.below[cell as usize];
        if next != NO_CELL && occupied >> next & 1 == 0 {
            return false;
        }
        let mut up = cell;
        loop {
            let (r, _) = self.board.coords[up as usize];
            let over = self.above[up as usize];
            if over == NO_CELL {
                return r == 0;
            }
            if occupied >> over & 1 == 1 {
                return false;
            }
            up = over;
        }
    }

    /// The drops of the side: each of its droppable groups onto each cell it may
    /// land on.
    #[inline]
    fn drop_moves(&self, p: &RulesPosition<N>, side: usize, f: &mut impl FnMut(RulesMove)) {
        if self.drops.is_empty() || (p.len as usize) >= N {
            return;
        }
        let mut occupied = None;
        for (g, drop) in self.drops.iter().enumerate() {
            let Some(drop) = drop else { continue };
            if self.group_side[g] != side || (drop.from_hand && p.in_hand(self.hand_slot[g] as usize) == 0) {
                continue;
            }
            let occupied = *occupied.get_or_insert_with(|| self.occupied(p));
            if drop.gravity {
                for &top in &self.tops {
                    if let Some(cell) = self.fall(top, occupied) {
                        if drop.allowed[cell as usize] {
                            f(RulesMove::drop(g, cell));
                        }
                    }
                }
            } else {
                for cell in 0..self.board.cells() as u32 {
                    if occupied >> cell & 1 == 0 && drop.allowed[cell as usize] {
                        f(RulesMove::drop(g, cell));
                    }
                }
            }
        }
    }

    /// Every piece of the side moves at once: the product of each piece's targets
    /// (and staying, where it may), destinations all different. Paths and targets
    /// are read with the side's own pieces lifted off the board; a target holding
    /// an enemy is allowed only where the two pieces meet (which ends the game).
    fn all_piece_moves(&self, p: &RulesPosition<N>, side: usize, f: &mut impl FnMut(RulesMove)) {
        let board = &self.board;
        let n = self.group_side.len();
        let mine: Vec<u32> = p.packed().iter().copied().filter(|&q| self.group_side[group_of(q)] == side).collect();
        if mine.is_empty() {
            return;
        }
        let mut options: Vec<Vec<u32>> = Vec::with_capacity(mine.len());
        for &packed in &mine {
            let (g, from) = (group_of(packed), cell_of(packed));
            let mut targets = Vec::new();
            if self.group_stay[g] {
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
                    let occupant = p.at(to).filter(|&o| self.group_side[group_of(o)] != side);
                    let legal = match occupant {
                        None => ray.onto.empty(),
                        Some(enemy) => ray.onto.enemy() && self.meet[g * n + group_of(enemy)] != 0,
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
                let mut m = RulesMove::PASS;
                for (i, &packed) in mine.iter().enumerate() {
                    m.steps[i] = (cell_of(packed) as u16, dests[i] as u16);
                }
                m.len = mine.len() as u8;
                children.push((self.play_move(p, &m), m));
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
    pub(crate) fn play_move(&self, p: &RulesPosition<N>, m: &RulesMove) -> RulesPosition<N> {
        if m.len == 1 {
            return self.play_step(p, m.steps[0], m.promote);
        }
        let n = self.group_side.len();
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
                debug_assert_ne!(self.group_side[group_of(other)], side);
                let ended = self.meet[g * n + group_of(other)];
                if ended != 0 {
                    c.ended = ended;
                }
                c.remove(other);
            }
            c.insert(pack(g, to as u32));
            if from != to && self.group_trail[g] {
                c.walls |= 1u128 << from;
            }
        }
        c.to_move ^= 1;
        c
    }

    /// The position after one piece's move `from` → `to` (legal in `p`): the piece
    /// is rewritten where it stands in the list and slid into order, an enemy on
    /// `to` taken off; no list is rebuilt.
    #[inline]
    fn play_step(&self, p: &RulesPosition<N>, (from, to): (u16, u16), promote: bool) -> RulesPosition<N> {
        let mut c = *p;
        c.to_move ^= 1;
        if from >= DROP {
            debug_assert!((c.len as usize) < N);
            let g = (from - DROP) as usize;
            // Only groups dropped from a hand have a slot.
            if self.hand_slot[g] != NO_SLOT {
                c.take_from_hand(self.hand_slot[g] as usize);
            }
            c.insert(pack(g, to as u32));
            return c;
        }
        if from == to {
            return c;
        }
        let (from, to) = (from as u32, to as u32);
        let len = c.len as usize;
        let mut i = c.pieces[..len].iter().position(|&q| cell_of(q) == from).expect("a move starts from a piece");
        let g = group_of(c.pieces[i]);
        if let Some(j) = c.pieces[..len].iter().position(|&q| cell_of(q) == to) {
            let n = self.group_side.len();
            let taken = group_of(c.pieces[j]);
            let ended = self.meet[g * n + taken];
            if ended != 0 {
                c.ended = ended;
            } else if self.to_hand[taken] != NO_SLOT {
                c.put_in_hand(self.to_hand[taken] as usize);
            }
            c.pieces.copy_within(j + 1..len, j);
            c.len -= 1;
            if j < i {
                i -= 1;
            }
        }
        let moved = if promote { pack(self.promotion[g].as_ref().map_or(g, |pr| pr.group), to) } else { pack(g, to) };
        let len = c.len as usize;
        // Slide the piece to its place: the list stays sorted.
        while i > 0 && c.pieces[i - 1] > moved {
            c.pieces[i] = c.pieces[i - 1];
            i -= 1;
        }
        while i + 1 < len && c.pieces[i + 1] < moved {
            c.pieces[i] = c.pieces[i + 1];
            i += 1;
        }
        c.pieces[i] = moved;
        if self.group_trail[g] {
            c.walls |= 1u128 << from;
        }
        c
    }

    /// Does a piece of group `g` on `cell` end the game whoever is to move (a
    /// `reach` ending checked after the move)? Such cells are not among the
    /// group's places in the index.
    pub(crate) fn ends_on_arrival(&self, g: usize, cell: u32) -> bool {
        let cells = self.board.cells();
        self.reach[self.group_side[g]]
            .iter()
            .any(|check| check.check == Check::AfterMove && check.hits[g * cells + cell as usize])
    }

    /// Is the game a *pursuit* the bit-parallel solve takes (`crate::pursuit`):
    /// two groups, one a side, at most one piece each, which moves on its turn
    /// (a side moving every piece at once only where the two pieces meet); no
    /// trails, drops, hands or promotions; every ray lands on empty and enemy
    /// cells alike and no piece blocks it (one cell long, or leaping); no line or
    /// full-board ending, and no ending or being stuck is a tie. Then a position
    /// with both pieces is two cells and a side to move, each piece's moves
    /// depend on its cell alone, and [`Self::pair_ending`] tells the endings.
    pub(crate) fn is_pursuit_shape(&self) -> bool {
        let board = &self.board;
        let groups_ok = board.groups.len() == 2 && self.group_side == [0, 1];
        // A side that moves every piece at once moves its one piece, but only onto
        // an enemy it meets: with a meeting, that is every ray cell too.
        let sides_ok = groups_ok
            && (0..2).all(|side| self.rules.turn_of(side) == Turn::OnePiece || self.meet[1] != 0 && self.meet[2] != 0);
        let no_extras = !self.group_trail.contains(&true)
            && self.drops.iter().all(Option::is_none)
            && self.slot_group.is_empty()
            && self.promotion.iter().all(Option::is_none)
            && self.lines.iter().all(Vec::is_empty)
            && self.full.is_none();
        let not_tie = |o: Outcome| o != Outcome::Tie;
        let outcomes_ok = not_tie(self.stuck)
            && self.meet.iter().all(|&m| m != 3)
            && self.reach.iter().flatten().all(|c| not_tie(c.result))
            && self.royal.iter().flatten().all(|(_, o)| not_tie(*o))
            && self.no_pieces.iter().flatten().all(|&o| not_tie(o));
        let rays_ok = || {
            (0..2).all(|g| {
                (0..board.cells() as u32)
                    .all(|c| board.rays(g, c).iter().all(|ray| ray.onto == Onto::Any && (ray.leap || ray.len <= 1)))
            })
        };
        sides_ok && groups_ok && no_extras && outcomes_ok && rays_ok()
    }

    /// The cells a piece of group `g` on `cell` moves to in a pursuit
    /// ([`Self::is_pursuit_shape`]), whatever the other piece's cell: every cell of
    /// its rays, and its own cell when it may stay. Ascending, without repeats.
    pub(crate) fn pursuit_targets(&self, g: usize, cell: u32) -> Vec<u32> {
        let mut out: Vec<u32> =
            self.board.rays(g, cell).iter().flat_map(|ray| self.board.ray_cells(ray)).copied().collect();
        if self.group_stay[g] {
            out.push(cell);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Does any ending of a pursuit look at a piece of group `g` on `cell` (it
    /// stands in a `reach` zone that counts, or it has no move)? Elsewhere
    /// [`Self::pair_ending`] depends on the other piece alone.
    pub(crate) fn pair_ending_looks_at(&self, g: usize, cell: u32) -> bool {
        let at = g * self.board.cells() + cell as usize;
        self.reach.iter().flatten().any(|check| check.hits[at]) || !self.pursuit_moves(g, cell)
    }

    /// The ending, for the side to move, of the pursuit position with group 0's
    /// piece on `first` and group 1's on `second ≠ first` (both on the board,
    /// `ended` clear), as [`Game::terminal`] and the engine's "no move: lost in 0"
    /// give it: the endings of the side that just moved, then of the side to
    /// move, then being stuck ([`Self::is_pursuit_shape`] leaves only `reach`,
    /// royal and `no-pieces` endings, and neither of the last two applies with
    /// both pieces on the board: each side's royal kinds are its one group).
    pub(crate) fn pair_ending(&self, first: u32, second: u32, to_move: usize) -> Option<Outcome> {
        let cells = self.board.cells();
        let (first, second) = (first as usize, cells + second as usize);
        for (side, mover) in [(1 - to_move, true), (to_move, false)] {
            for check in &self.reach[side] {
                let applies = !mover || check.check == Check::AfterMove;
                if applies && (check.hits[first] || check.hits[second]) {
                    return Some(if mover { flip(check.result) } else { check.result });
                }
            }
        }
        let own = [first, second - cells][to_move] as u32;
        (!self.pursuit_moves(to_move, own)).then_some(self.stuck)
    }

    /// Has a piece of group `g` on `cell` a move in a pursuit (a ray holds at least
    /// one cell)?
    #[inline]
    fn pursuit_moves(&self, g: usize, cell: u32) -> bool {
        self.group_stay[g] || !self.board.rays(g, cell).is_empty()
    }

    /// Can two pieces meet (end the game on one cell)?
    pub(crate) fn has_meetings(&self) -> bool {
        self.meet.iter().any(|&m| m != 0)
    }

    /// The `ended` code of a piece of group `a` landing on one of group `b` (0: a
    /// capture, no meeting); `n` is the number of groups.
    #[inline]
    pub(crate) fn meet_code(&self, a: usize, b: usize, n: usize) -> u8 {
        self.meet[a * n + b]
    }

    /// Which reach checks some piece of `p` counts for, as [`Self::reach_bits`]
    /// numbers them; `None` when they are not numbered (no checks, or over 64).
    #[inline]
    fn reach_hits(&self, p: &RulesPosition<N>) -> Option<u64> {
        if self.reach_bits.is_empty() {
            return None;
        }
        let cells = self.board.cells();
        Some(p.packed().iter().fold(0, |bits, &q| bits | self.reach_bits[group_of(q) * cells + cell_of(q) as usize]))
    }

    /// Does a side have a piece in a reach ending's zone?
    #[inline]
    fn reaches(&self, p: &RulesPosition<N>, check: &ReachCheck) -> bool {
        let cells = self.board.cells();
        p.packed().iter().any(|&q| check.hits[group_of(q) * cells + cell_of(q) as usize])
    }

    /// Bit `s` set when side `s` has a piece on the board; both bits set without
    /// looking when no `no-pieces` ending needs to know.
    #[inline]
    fn sides_present(&self, p: &RulesPosition<N>) -> u8 {
        if self.no_pieces == [None, None] {
            return 3;
        }
        let mut present = 0u8;
        for &q in p.packed() {
            present |= 1 << self.group_side[group_of(q)];
            if present == 3 {
                break;
            }
        }
        present
    }

    /// Has a side none of its royal pieces left with these pieces of each group on
    /// the board (a `captured` ending applies, whatever else)?
    pub(crate) fn royal_lost(&self, counts: &[u8]) -> bool {
        self.royal
            .iter()
            .flatten()
            .any(|(mask, _)| mask.iter().zip(counts).all(|(&royal, &count)| !royal || count == 0))
    }

    /// The outcome for `side` of the endings that apply to it at `p`, if any;
    /// `present` as [`RulesGame::sides_present`] gives it, `hits` as
    /// [`RulesGame::reach_hits`].
    #[inline]
    fn side_ending(&self, p: &RulesPosition<N>, side: usize, present: u8, hits: Option<u64>) -> Option<Outcome> {
        let first_bit = if side == 0 { 0 } else { self.reach[0].len() };
        for (j, check) in self.reach[side].iter().enumerate() {
            let applies = match check.check {
                Check::AfterMove => true,
                Check::AfterReply => side == p.to_move(),
            };
            let hit = match hits {
                Some(bits) => bits >> (first_bit + j) & 1 == 1,
                None => self.reaches(p, check),
            };
            if applies && hit {
                return Some(check.result);
            }
        }
        for (mask, result) in &self.royal[side] {
            if !p.packed().iter().any(|&q| mask[group_of(q)]) {
                return Some(*result);
            }
        }
        for check in &self.lines[side] {
            if self.has_line(p, check) {
                return Some(check.result);
            }
        }
        if let Some(result) = self.no_pieces[side] {
            if present >> side & 1 == 0 {
                return Some(result);
            }
        }
        None
    }

    /// Do the pieces that count for a line ending make one?
    #[inline]
    fn has_line(&self, p: &RulesPosition<N>, check: &LineCheck) -> bool {
        if !check.shifts.is_empty() {
            let mut mine = 0u128;
            for &q in p.packed() {
                // Branch-free: a piece that does not count adds nothing.
                let counts = check.counts[group_of(q)] as u128;
                mine |= counts << self.grid_bit[cell_of(q) as usize];
            }
            if (mine.count_ones() as usize) < check.length {
                return false;
            }
            // Most grids fit in 64 bits, where shifts are one instruction.
            if self.grid_bits <= 64 {
                let mine = mine as u64;
                return check.shifts.iter().any(|&d| {
                    let mut run = mine;
                    for i in 1..check.length as u32 {
                        run &= mine >> (i * d);
                    }
                    run != 0
                });
            }
            return check.shifts.iter().any(|&d| {
                let mut run = mine;
                for i in 1..check.length as u32 {
                    run &= mine >> (i * d);
                }
                run != 0
            });
        }
        let cells = self.board.cells();
        let mut mine = vec![false; cells];
        for &q in p.packed() {
            if check.counts[group_of(q)] {
                mine[cell_of(q) as usize] = true;
            }
        }
        check.cells.chunks(check.length).any(|line| line.iter().all(|&c| mine[c as usize]))
    }

    /// How many lines of the line endings pass through the cell a drop took:
    /// central cells first, which is how people play tic-tac-toe and Connect 4.
    /// (Weighing each line by the mover's pieces in it, threats and blocks first,
    /// searched no fewer positions on the Connect 4 boards of the tests and cost
    /// time: measured, and left out.)
    pub(crate) fn drop_weight(&self, parent: &RulesPosition<N>, child: &RulesPosition<N>) -> i32 {
        let (a, b) = (parent.packed(), child.packed());
        let added = b.iter().zip(a.iter().chain(std::iter::once(&u32::MAX))).find(|(x, y)| x != y).map(|(x, _)| *x);
        let Some(added) = added else { return 0 };
        let cell = cell_of(added) as usize;
        self.line_weight.get(cell).copied().unwrap_or(0) as i32
    }

    /// Is every playable cell taken?
    #[inline]
    fn is_full(&self, p: &RulesPosition<N>) -> bool {
        p.len as usize + p.walls.count_ones() as usize >= self.board.cells()
    }

    /// Does every line that ends in a tie end on a full board, and no other ending
    /// tie? Then, when every move drops one piece, a tie comes exactly when the
    /// board fills: its remoteness is the number of empty cells.
    pub(crate) fn ties_only_when_full(&self) -> bool {
        let tie = |o: &Outcome| *o == Outcome::Tie;
        self.rules.endings.iter().all(|e| match e {
            Ending::Reach { result, .. }
            | Ending::NoPieces { result, .. }
            | Ending::Line { result, .. }
            | Ending::Captured { result, .. }
            | Ending::Stuck { result } => !tie(result),
            Ending::Meet { winner, .. } => winner.is_some(),
            Ending::Full { .. } => true,
        })
    }

    /// The number of empty playable cells.
    pub(crate) fn empty_cells(&self, p: &RulesPosition<N>) -> usize {
        self.board.cells().saturating_sub(p.len as usize + p.walls.count_ones() as usize)
    }
}

/// The line endings of the rules on a board, for each side: every run of `length`
/// playable cells along a row, a column or a diagonal, as the ending asks. A
/// length no run on this board has is an error (the ending could never happen).
fn lines_of(rules: &Rules, board: &Board) -> Result<[Vec<LineCheck>; 2], RulesError> {
    let mut out = [Vec::new(), Vec::new()];
    for e in &rules.endings {
        let Ending::Line { length, orthogonal, diagonal, kinds, sides, result } = e else { continue };
        let mut directions = Vec::new();
        if *orthogonal {
            directions.extend([(0i64, 1i64), (1, 0)]);
        }
        if *diagonal {
            directions.extend([(1, 1), (1, -1)]);
        }
        let length = *length as usize;
        let mut cells = Vec::new();
        for &(r, c) in &board.coords {
            for &(dr, dc) in &directions {
                let run: Vec<u32> = (0..length as i64)
                    .map_while(|i| {
                        let (rr, cc) = (r as i64 + dr * i, c as i64 + dc * i);
                        if rr < 0 || cc < 0 {
                            return None;
                        }
                        board.cell(rr as u32, cc as u32)
                    })
                    .collect();
                if run.len() == length {
                    cells.extend(run);
                }
            }
        }
        if cells.is_empty() {
            return Err(RulesError::Board(format!(
                "a line of {length} never fits on this board ({} rows × {} columns)",
                board.rows, board.cols
            )));
        }
        let cols = board.cols;
        let shifts: Vec<u32> = if board.rows * (cols + 1) <= 128 {
            let mut shifts = Vec::new();
            if *orthogonal {
                shifts.extend([1, cols + 1]);
            }
            if *diagonal {
                shifts.extend([cols + 2, cols]);
            }
            shifts
        } else {
            Vec::new()
        };
        for side in 0..2 {
            if sides[side] {
                let counts = board
                    .groups
                    .iter()
                    .map(|g| g.side == side && kinds.as_ref().is_none_or(|k| k.contains(&g.kind)))
                    .collect();
                out[side].push(LineCheck {
                    cells: cells.clone(),
                    length,
                    shifts: shifts.clone(),
                    counts,
                    result: *result,
                });
            }
        }
    }
    Ok(out)
}

/// Piece counts the game can hold: at most [`MAX_PIECES`] on the board, and few
/// enough for a side that moves every piece at once.
pub(crate) fn check_counts(rules: &Rules, board: &Board, counts: &[u8]) -> Result<(), RulesError> {
    let n = board.groups.len();
    let slots = board.groups.iter().filter(|g| rules.kinds[g.kind].drop.as_ref().is_some_and(|d| d.from_hand)).count();
    if counts.len() != n + slots {
        return Err(RulesError::Board(format!(
            "{} piece counts for {n} kinds of piece on the board and {slots} in hands",
            counts.len()
        )));
    }
    if let Some(&many) = counts[n..].iter().find(|&&c| c > 15) {
        return Err(RulesError::Board(format!("{many} pieces of one kind in a hand (at most 15)")));
    }
    let counts = &counts[..n];
    let total: usize = counts.iter().map(|&l| l as usize).sum();
    if total > MAX_PIECES.min(board.cells()) {
        return Err(RulesError::Board(format!(
            "{total} pieces on a board of {} cells (at most {} pieces)",
            board.cells(),
            MAX_PIECES.min(board.cells())
        )));
    }
    for side in 0..2 {
        if rules.sides[side].turn == Turn::AllPieces {
            let count: usize = (0..n).filter(|&g| board.groups[g].side == side).map(|g| counts[g] as usize).sum();
            if count > MAX_ALL_PIECES {
                return Err(RulesError::Board(format!(
                    "the {} move every piece at once, and may have at most {MAX_ALL_PIECES} pieces, not {count}",
                    rules.sides[side].name
                )));
            }
        }
    }
    Ok(())
}

/// An outcome for one side, seen by the other.
pub(crate) fn flip(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Win => Outcome::Loss,
        Outcome::Loss => Outcome::Win,
        Outcome::Tie => Outcome::Tie,
    }
}

impl<const N: usize> Game for RulesGame<N> {
    type Position = RulesPosition<N>;
    type Move = RulesMove;

    /// The endings, the side that just moved first: a meeting, then each side's
    /// `reach`, `line` and `no-pieces` endings, then a full board, then (when the
    /// rules make being stuck anything but a loss) the side to move having no move.
    fn terminal(&self, p: &RulesPosition<N>) -> Option<Outcome> {
        let to_move = p.to_move();
        match p.ended {
            0 => {}
            3 => return Some(Outcome::Tie),
            code => return Some(if code - 1 == to_move as u8 { Outcome::Win } else { Outcome::Loss }),
        }
        let present = self.sides_present(p);
        let hits = self.reach_hits(p);
        if let Some(result) = self.side_ending(p, 1 - to_move, present, hits) {
            return Some(flip(result));
        }
        if let Some(result) = self.side_ending(p, to_move, present, hits) {
            return Some(result);
        }
        if let Some(result) = self.full {
            if self.is_full(p) {
                return Some(result);
            }
        }
        if self.stuck != Outcome::Loss {
            let mut any = false;
            self.for_each_move(p, |_| any = true);
            if !any {
                return Some(self.stuck);
            }
        }
        None
    }

    fn moves(&self, p: &RulesPosition<N>, moves: &mut Vec<RulesMove>) {
        self.for_each_move(p, |m| moves.push(m));
    }

    #[inline]
    fn play(&self, p: &RulesPosition<N>, m: &RulesMove) -> RulesPosition<N> {
        self.play_move(p, m)
    }

    #[inline]
    fn for_each_child(&self, p: &RulesPosition<N>, mut f: impl FnMut(RulesPosition<N>)) {
        self.for_each_move(p, |m| f(self.play_move(p, &m)));
    }

    /// Counted without playing them.
    #[inline]
    fn move_count(&self, p: &RulesPosition<N>) -> usize {
        let mut n = 0;
        self.for_each_move(p, |_| n += 1);
        n
    }
}
