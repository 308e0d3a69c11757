//! The rules compiled for one board: what move generation, the endings, the index
//! and the fast paths read, laid out as arrays by group (and cell), built once when
//! a game is made.
//!
//! Why a type of its own: the move generator ([`crate::compiled::moves`]), the parents
//! ([`crate::retrograde::unmoves`]), the index and the fast paths all read the same compiled
//! rules and nothing else of the game; holding them here lets each of those depend
//! on the tables alone, below the game that composes them. Nothing here depends on
//! a position or on the piece limits.

use crate::compiled::board::{Board, NO_CELL};
use crate::compiled::endings::Endings;
use crate::compiled::flips::FlipTables;
use crate::compiled::position::{cell_of, group_of, RulesPosition, MAX_PIECES, MAX_TRAIL_CELLS};
use crate::compiled::score::PlayEnd;
use crate::language::error::RulesError;
use crate::language::spec::{Facing, Onto, Rules, Turn};
use std::sync::Arc;

/// The most pieces a side that moves every piece at once may have (its moves are
/// the product of its pieces' moves).
pub const MAX_ALL_PIECES: usize = 4;

/// No hand slot.
pub(crate) const NO_SLOT: u8 = u8::MAX;
/// The most hand slots (groups dropped from a hand): 4 bits each in a `u64`.
pub const MAX_HAND_SLOTS: usize = 16;

/// A group's promotion, compiled for a board. Plain data, read as it stands where
/// moves are made and run backwards.
#[derive(Clone, Debug)]
pub(crate) struct PromotionTo {
    /// The group it becomes (same side).
    pub(crate) group: usize,
    /// `zone[c]`: a move ending on cell c promotes.
    pub(crate) zone: Vec<bool>,
    /// A move ending in the zone must promote.
    pub(crate) forced: bool,
}

/// Where a group's pieces may be dropped, compiled for a board. Plain data, read
/// as it stands where moves are made and run backwards.
#[derive(Clone, Debug)]
pub(crate) struct DropTargets {
    /// Dropped into a column, the piece falls ([`crate::language::spec::DropRule::gravity`]).
    pub(crate) gravity: bool,
    /// From the side's hand (else an endless supply).
    pub(crate) from_hand: bool,
    /// The cells the piece may land on (its zone, or every cell), bit c for
    /// cell c: a board with drops has at most [`MAX_PIECES`] cells.
    pub(crate) allowed_set: u128,
}

impl DropTargets {
    /// May the piece land on `cell`?
    #[inline]
    pub(crate) fn allows(&self, cell: u32) -> bool {
        cell < 128 && self.allowed_set >> cell & 1 == 1
    }
}

/// The rules compiled for one board (module docs).
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    rules: Arc<Rules>,
    board: Board,
    /// The side of each group.
    group_side: Vec<usize>,
    group_trail: Vec<bool>,
    group_stay: Vec<bool>,
    /// `meet[a * groups + b]`: the `ended` code when a piece of group a meets one of
    /// group b (0: no meeting, a capture).
    meet: Vec<u8>,
    /// Drops of each group (`None`: never dropped).
    drops: Vec<Option<DropTargets>>,
    /// `hand_slot[g]`: the hand slot of group g ([`NO_SLOT`]: never in a hand).
    hand_slot: Vec<u8>,
    /// The groups of the hand slots, in slot order.
    slot_group: Vec<usize>,
    /// `to_hand[g]`: the slot a captured piece of group g goes to (the captor's
    /// group of its hand kind), or [`NO_SLOT`]: it leaves the game.
    to_hand: Vec<u8>,
    /// Each group's promotion, if it has one.
    promotion: Vec<Option<PromotionTo>>,
    /// `below[c]` / `above[c]`: the playable cell under / over cell c, or
    /// [`NO_CELL`] (the edge, or a cell that is not part of the board).
    below: Vec<u32>,
    above: Vec<u32>,
    /// The playable cells of the top row: where a falling piece enters a column.
    tops: Vec<u32>,
    /// `advance[g * cells + c]`: how far a piece of group g on cell c stands from
    /// its side's back edge, in its forward direction. Empty when some move that
    /// stays in a tier (onto an empty cell) does not go forward, or a piece may
    /// stay: then no progress measure holds (see [`Tables::progress_of`]).
    advance: Vec<u16>,
    endings: Endings,
    /// [`Tables::steps_only`].
    steps_only: bool,
    /// [`Tables::short_targets`]: empty where some ray is longer than a cell
    /// and does not leap, or the board has more than 128 cells.
    short_targets: Vec<[u128; 2]>,
    /// [`Tables::short_sources`]: `short_targets` transposed (empty with it).
    short_sources: Vec<[u128; 2]>,
    /// Flips by bracketing, where some drop flips.
    flips: Option<Arc<FlipTables>>,
    /// Passes and the score, where the game passes or scores.
    play_end: Option<Arc<PlayEnd>>,
}

impl Tables {
    /// The tables of `rules` on `board`; an error for a board the rules cannot use
    /// (too many hand kinds, a line that never fits, too many cells for drops or
    /// trails).
    pub(crate) fn new(rules: Arc<Rules>, board: Board) -> Result<Tables, RulesError> {
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
        let endings = Endings::new(&rules, &board)?;
        let drops = groups
            .iter()
            .map(|g| {
                rules.kinds[g.kind].drop.as_ref().map(|d| {
                    // Boards of more than MAX_PIECES cells are refused below.
                    let allowed_set = (0..board.cells().min(128) as u32)
                        .filter(|&c| d.zone.is_none_or(|z| board.in_zone(z, g.side, c)))
                        .fold(0u128, |set, c| set | 1 << c);
                    DropTargets { gravity: d.gravity, from_hand: d.from_hand, allowed_set }
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
        let advance = advances(&rules, &board, &group_side);
        let steps_only = !rules.has_drops() && !rules.has_promotions() && !rules.has_trails() && slot_group.is_empty();
        let short_targets = short_targets(&board);
        let short_sources = transpose_targets(&short_targets, n, board.cells());
        let flips = FlipTables::new(&rules, &board).map(Arc::new);
        let play_end = PlayEnd::new(&rules, board.cells()).map(Arc::new);
        Ok(Tables {
            rules,
            board,
            group_side,
            group_trail,
            group_stay,
            meet,
            drops,
            hand_slot,
            slot_group,
            to_hand,
            promotion,
            below,
            above,
            tops,
            advance,
            endings,
            steps_only,
            short_targets,
            short_sources,
            flips,
            play_end,
        })
    }

    /// Flips by bracketing, where some drop flips.
    #[inline]
    pub(crate) fn flips(&self) -> Option<&FlipTables> {
        self.flips.as_deref()
    }

    /// Passes and the score, where the game passes or scores.
    #[inline]
    pub(crate) fn play_end(&self) -> Option<&PlayEnd> {
        self.play_end.as_deref()
    }

    /// The final margin of a finished position of a game with a score, for
    /// its side to move (0 for a game without one).
    pub(crate) fn margin<const N: usize>(&self, p: &RulesPosition<N>) -> i32 {
        self.play_end.as_ref().map_or(0, |end| end.margin(&self.group_side, p))
    }

    /// Where every ray of every group is one cell long or leaps (steppers,
    /// knights; not a slider) on a board of at most 128 cells, the targets of a
    /// piece of group g on cell c as two bit sets, `[onto an empty cell, onto
    /// an enemy]`: with no trail, its moves are those sets against the empty
    /// and the enemy cells, each target once however many rays reach it, as
    /// [`crate::compiled::moves`] yields them. `None` for any other game.
    #[inline]
    pub(crate) fn short_targets(&self, g: usize, c: u32) -> Option<[u128; 2]> {
        self.short_targets.get(g * self.board.cells() + c as usize).copied()
    }

    /// Where [`Tables::short_targets`] are known, the cells a piece of group g
    /// on cell c may have come from by a move, as two bit sets, `[by a move onto
    /// an empty cell, by a capture]`: the cells whose targets hold c. Such a
    /// move is never blocked on its way, so a cell of these is an origin
    /// exactly when it is empty in the child (the moved piece stood there in
    /// the parent). `None` for any other game.
    ///
    /// Why: the parents' walk took each backward ray's cells one by one and
    /// looked each up among the pieces; with these it reads the origins off
    /// the child's occupied cells at once, each once.
    #[inline]
    pub(crate) fn short_sources(&self, g: usize, c: u32) -> Option<[u128; 2]> {
        self.short_sources.get(g * self.board.cells() + c as usize).copied()
    }

    /// Every group's and cell's [`Tables::short_targets`], laid out `g * cells
    /// + c`; empty for a game without them.
    #[inline]
    pub(crate) fn short_target_sets(&self) -> &[[u128; 2]] {
        &self.short_targets
    }

    /// The rules the tables were compiled from.
    #[inline]
    pub(crate) fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The board.
    #[inline]
    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    /// The endings.
    #[inline]
    pub(crate) fn endings(&self) -> &Endings {
        &self.endings
    }

    /// The number of groups.
    #[inline]
    pub(crate) fn groups(&self) -> usize {
        self.group_side.len()
    }

    /// The side that owns group `g`.
    #[inline]
    pub(crate) fn side_of(&self, g: usize) -> usize {
        self.group_side[g]
    }

    /// The side of each group, in group order.
    #[inline]
    pub(crate) fn group_sides(&self) -> &[usize] {
        &self.group_side
    }

    /// Whether one piece or every piece of `side` moves in a turn.
    #[inline]
    pub(crate) fn turn_of(&self, side: usize) -> Turn {
        self.rules.sides[side].turn
    }

    /// May a piece of group `g` stay where it is (its side then passes)?
    #[inline]
    pub(crate) fn stays(&self, g: usize) -> bool {
        self.group_stay[g]
    }

    /// Do pieces only step: no drops, promotions, hands or trails? Then a move
    /// takes one piece from a cell to another (or passes), capturing or meeting
    /// whatever stands there, and nothing else changes: the parents need no count
    /// vector ([`crate::retrograde::unmoves`]).
    #[inline]
    pub(crate) fn steps_only(&self) -> bool {
        self.steps_only
    }

    /// May some piece stay where it is?
    pub(crate) fn any_stays(&self) -> bool {
        self.group_stay.contains(&true)
    }

    /// Does a piece of group `g` leave a wall on the cell it leaves?
    #[inline]
    pub(crate) fn leaves_trail(&self, g: usize) -> bool {
        self.group_trail[g]
    }

    /// The `ended` code of a piece of group `a` landing on one of group `b` (0: a
    /// capture, no meeting).
    #[inline]
    pub(crate) fn meet_code(&self, a: usize, b: usize) -> u8 {
        self.meet[a * self.group_side.len() + b]
    }

    /// Can two pieces meet (end the game on one cell)?
    pub(crate) fn has_meetings(&self) -> bool {
        self.meet.iter().any(|&m| m != 0)
    }

    /// Can a meeting end the game in a tie?
    pub(crate) fn meetings_tie(&self) -> bool {
        self.meet.contains(&3)
    }

    /// Where a piece of group `g` may be dropped (`None`: it never is).
    #[inline]
    pub(crate) fn drop_targets(&self, g: usize) -> Option<&DropTargets> {
        self.drops[g].as_ref()
    }

    /// Each group's drops, in group order (the groups that are never dropped
    /// `None`): empty only without groups.
    #[inline]
    pub(crate) fn drops_by_group(&self) -> &[Option<DropTargets>] {
        &self.drops
    }

    /// The hand slot of group `g`, or [`NO_SLOT`]: its pieces never wait in a hand.
    #[inline]
    pub(crate) fn hand_slot_of(&self, g: usize) -> u8 {
        self.hand_slot[g]
    }

    /// The hand slot a captured piece of group `g` goes to (the captor's), or
    /// [`NO_SLOT`]: it leaves the game.
    #[inline]
    pub(crate) fn captured_to_hand(&self, g: usize) -> u8 {
        self.to_hand[g]
    }

    /// The groups of the hand slots, in slot order.
    #[inline]
    pub(crate) fn hand_groups(&self) -> &[usize] {
        &self.slot_group
    }

    /// Group `g`'s promotion, if it has one.
    #[inline]
    pub(crate) fn promotion(&self, g: usize) -> Option<&PromotionTo> {
        self.promotion[g].as_ref()
    }

    /// The playable cells of the top row: where a dropped piece that falls enters
    /// its column.
    #[inline]
    pub(crate) fn column_tops(&self) -> &[u32] {
        &self.tops
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

    /// Each piece's advance by group and cell (`[g * cells + c]`), empty when the
    /// game has no progress measure ([`Tables::progress_of`]).
    pub(crate) fn advances(&self) -> &[u16] {
        &self.advance
    }

    /// The sum of the pieces' advances, when the game has a progress measure: every
    /// move that stays in a tier makes it grow.
    pub(crate) fn progress_of<const N: usize>(&self, p: &RulesPosition<N>) -> Option<u32> {
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
    pub(crate) fn counts<const N: usize>(&self, p: &RulesPosition<N>) -> Vec<u8> {
        let mut counts = vec![0u8; self.group_side.len()];
        for &q in p.packed() {
            counts[group_of(q)] += 1;
        }
        counts.extend((0..self.slot_group.len()).map(|slot| p.in_hand(slot)));
        counts
    }
}

/// The `advance` table, if every move that keeps the pieces on the board (onto
/// an empty cell) goes forward and no piece may stay: then each such move adds
/// at least 1 to the sum of the pieces' advances (ranges and slides go several
/// steps of a forward vector), so that sum orders a tier (captures and
/// meetings leave it).
fn advances(rules: &Rules, board: &Board, group_side: &[usize]) -> Vec<u16> {
    let forward_only = rules.kinds.iter().all(|k| {
        !k.stay && k.moves.iter().filter(|m| m.onto != Onto::Enemy).all(|m| m.vectors.iter().all(|&(f, _)| f > 0))
    });
    if !forward_only {
        return Vec::new();
    }
    let (rows, cols) = (board.rows, board.cols);
    let mut advance = Vec::with_capacity(group_side.len() * board.cells());
    for &side in group_side {
        for &(r, c) in &board.coords {
            advance.push(match rules.sides[side].forward {
                Facing::Up => rows - 1 - r,
                Facing::Down => r,
                Facing::Left => cols - 1 - c,
                Facing::Right => c,
            } as u16);
        }
    }
    advance
}

/// [`Tables::short_targets`] of every group and cell, laid out `g * cells +
/// c`; empty where a ray is longer than a cell and does not leap, or the board
/// has more than 128 cells.
fn short_targets(board: &Board) -> Vec<[u128; 2]> {
    let (groups, cells) = (board.groups.len(), board.cells());
    let short = cells <= 128
        && (0..groups).all(|g| (0..cells as u32).all(|c| board.rays(g, c).iter().all(|ray| ray.leap || ray.len <= 1)));
    if !short {
        return Vec::new();
    }
    let mut targets = vec![[0u128; 2]; groups * cells];
    for g in 0..groups {
        for c in 0..cells as u32 {
            let at = &mut targets[g * cells + c as usize];
            for ray in board.rays(g, c) {
                for &to in board.ray_cells(ray) {
                    if ray.onto.empty() {
                        at[0] |= 1u128 << to;
                    }
                    if ray.onto.enemy() {
                        at[1] |= 1u128 << to;
                    }
                }
            }
        }
    }
    targets
}

/// [`Tables::short_sources`] from [`Tables::short_targets`] (`targets`, laid out
/// `g * cells + c` for `groups` groups): bit f of the sources of (g, c) is set
/// exactly where bit c of the targets of (g, f) is, for each of the two sets.
fn transpose_targets(targets: &[[u128; 2]], groups: usize, cells: usize) -> Vec<[u128; 2]> {
    if targets.is_empty() {
        return Vec::new();
    }
    let mut sources = vec![[0u128; 2]; groups * cells];
    for g in 0..groups {
        for from in 0..cells {
            for (set, &reach) in targets[g * cells + from].iter().enumerate() {
                let mut reach = reach;
                while reach != 0 {
                    let to = reach.trailing_zeros() as usize;
                    reach &= reach - 1;
                    sources[g * cells + to][set] |= 1u128 << from;
                }
            }
        }
    }
    sources
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
