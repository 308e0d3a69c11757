//! Symmetries found from the rules: maps of the board's cells, the groups and the
//! hand slots under which the board, every piece's moves, drops, promotions,
//! captures into hands, zones and endings are unchanged. A position and its image
//! then have the same value for their side to move.
//!
//! | symmetry | cells | sides | found when |
//! |---|---|---|---|
//! | **mirror** | column c ↦ W − 1 − c | kept | every group's rays, zones, drops and promotions map onto themselves |
//! | **side swap** | identity, half-turn or upside down (the first that holds) | exchanged: each group ↦ the other side's group of its kind | as for the mirror, with each side's part mapped onto the other's, and every ending and turn the same for both sides |
//!
//! Dobutsu shogi has both (its side swap turns the board half round); Connect 4
//! has both (its side swap keeps the cells: pieces fall down for either side);
//! Breakthrough has both; chase has the mirror only (the pursuer and the evader
//! are different kinds).
//!
//! Why the check is made on the compiled board, not on the rules' text: the rays
//! (each move's cells from each cell, walls and board edges included), the zones'
//! cells and the drop targets are what play uses, so a symmetry of them is a
//! symmetry of play, whatever words the rules file used to get there. The parts
//! of the rules that name a side (endings, turns) are checked on the rules.
//! Games with trails are left out: their walls would need mapping too.

use crate::compiled::board::{Board, NO_CELL};
use crate::compiled::position::{cell_of, group_of, pack, RulesPosition};
use crate::compiled::tables::{Tables, NO_SLOT};
use crate::language::spec::{Ending, Facing, Rules};

/// How a symmetry moves the cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellMap {
    /// Every cell stays.
    Identity,
    /// Left to right: column c ↦ W − 1 − c.
    Mirror,
    /// Top to bottom: row r ↦ H − 1 − r.
    UpsideDown,
    /// Half a turn: (r, c) ↦ (H − 1 − r, W − 1 − c).
    HalfTurn,
}

impl CellMap {
    fn image(self, board: &Board, (r, c): (u32, u32)) -> (u32, u32) {
        let (h, w) = (board.rows - 1, board.cols - 1);
        match self {
            CellMap::Identity => (r, c),
            CellMap::Mirror => (r, w - c),
            CellMap::UpsideDown => (h - r, c),
            CellMap::HalfTurn => (h - r, w - c),
        }
    }

    /// Does the map keep every cell in its row (a piece that falls still falls)?
    fn keeps_rows(self) -> bool {
        matches!(self, CellMap::Identity | CellMap::Mirror)
    }

    /// A short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            CellMap::Identity => "the board as it is",
            CellMap::Mirror => "the board in a left-right mirror",
            CellMap::UpsideDown => "the board upside down",
            CellMap::HalfTurn => "the board turned half round",
        }
    }
}

/// A symmetry of a game (module docs).
#[derive(Clone, Debug)]
pub struct Symmetry {
    map: CellMap,
    swaps_sides: bool,
    /// `cells[c]`: cell c's image.
    cells: Vec<u32>,
    /// `groups[g]`: group g's image.
    groups: Vec<usize>,
    /// `slots[s]`: hand slot s's image.
    slots: Vec<usize>,
}

impl Symmetry {
    /// The left-right mirror, if the game looks the same in one.
    pub(crate) fn mirror(tables: &Tables) -> Option<Symmetry> {
        let rules = tables.rules();
        // A mirror keeps the sides; one facing left or right would face the other way.
        if rules.sides.iter().any(|s| !matches!(s.forward, Facing::Up | Facing::Down)) {
            return None;
        }
        // Also asked of the moves as written (not only of their rays), as before
        // the rays were compared: an opening book's keys depend on the answer.
        let symmetric_steps = rules
            .kinds
            .iter()
            .all(|k| k.moves.iter().all(|m| m.vectors.iter().all(|&(f, r)| m.vectors.contains(&(f, -r)))));
        if !symmetric_steps {
            return None;
        }
        Symmetry::holding(tables, CellMap::Mirror, false)
    }

    /// The side swap, if the two sides' rules are each other's image under one
    /// of the cell maps that can exchange them (module docs).
    pub(crate) fn side_swap(tables: &Tables) -> Option<Symmetry> {
        let rules = tables.rules();
        if tables.turn_of(0) != tables.turn_of(1) || !endings_treat_sides_alike(rules) {
            return None;
        }
        [CellMap::Identity, CellMap::HalfTurn, CellMap::UpsideDown]
            .into_iter()
            .find_map(|map| Symmetry::holding(tables, map, true))
    }

    /// The symmetry of `map` (sides exchanged if `swaps_sides`), if it holds.
    fn holding(tables: &Tables, map: CellMap, swaps_sides: bool) -> Option<Symmetry> {
        let rules = tables.rules();
        let board = tables.board();
        if rules.has_trails() {
            return None;
        }
        let mut cells = Vec::with_capacity(board.cells());
        for &coord in &board.coords {
            let (r, c) = map.image(board, coord);
            cells.push(board.cell(r, c).unwrap_or(NO_CELL));
        }
        if cells.contains(&NO_CELL) {
            return None; // the playable cells are not symmetric
        }
        let side = |s: usize| if swaps_sides { 1 - s } else { s };
        let groups: Vec<usize> = board
            .groups
            .iter()
            .map(|g| board.groups.iter().position(|h| h.kind == g.kind && h.side == side(g.side)))
            .collect::<Option<_>>()?;
        let hand = tables.hand_groups();
        let slots: Vec<usize> =
            hand.iter().map(|&g| hand.iter().position(|&h| h == groups[g])).collect::<Option<_>>()?;
        let symmetry = Symmetry { map, swaps_sides, cells, groups, slots };
        symmetry.keeps_play(tables).then_some(symmetry)
    }

    /// Are the rays, zones, drops, promotions, captures into hands and meetings
    /// the same under the symmetry?
    fn keeps_play(&self, tables: &Tables) -> bool {
        let board = tables.board();
        let (cells, groups) = (&self.cells, &self.groups);
        let side = |s: usize| if self.swaps_sides { 1 - s } else { s };
        for g in 0..groups.len() {
            let h = groups[g];
            for c in 0..board.cells() as u32 {
                let image = cells[c as usize];
                let theirs = board.rays(h, image);
                let ours = board.rays(g, c);
                if ours.len() != theirs.len() {
                    return false;
                }
                let maps_onto = ours.iter().all(|ray| {
                    let mapped: Vec<u32> = board.ray_cells(ray).iter().map(|&t| cells[t as usize]).collect();
                    theirs.iter().any(|other| {
                        other.onto == ray.onto && other.leap == ray.leap && board.ray_cells(other) == &mapped[..]
                    })
                });
                if !maps_onto {
                    return false;
                }
            }
            let slot_image = |s: u8| if s == NO_SLOT { NO_SLOT } else { self.slots[s as usize] as u8 };
            if slot_image(tables.captured_to_hand(g)) != tables.captured_to_hand(h)
                || tables.stays(g) != tables.stays(h)
            {
                return false;
            }
            let same_cells = |a: &[bool], b: &[bool]| (0..a.len()).all(|c| a[c] == b[cells[c] as usize]);
            match (tables.drop_targets(g), tables.drop_targets(h)) {
                (None, None) => {}
                (Some(a), Some(b)) => {
                    if a.gravity != b.gravity
                        || a.from_hand != b.from_hand
                        || (a.gravity && !self.map.keeps_rows())
                        || !(0..board.cells() as u32).all(|c| a.allows(c) == b.allows(cells[c as usize]))
                    {
                        return false;
                    }
                }
                _ => return false,
            }
            match (tables.promotion(g), tables.promotion(h)) {
                (None, None) => {}
                (Some(a), Some(b)) => {
                    if groups[a.group] != b.group || a.forced != b.forced || !same_cells(&a.zone, &b.zone) {
                        return false;
                    }
                }
                _ => return false,
            }
            for (other, &other_image) in groups.iter().enumerate() {
                let code = tables.meet_code(g, other);
                let mapped = match code {
                    1 | 2 => 1 + side(code as usize - 1) as u8,
                    code => code,
                };
                if tables.meet_code(h, other_image) != mapped {
                    return false;
                }
            }
        }
        let zones = tables.rules().zones.len();
        (0..zones).all(|z| {
            (0..2).all(|s| {
                (0..board.cells() as u32)
                    .all(|c| board.in_zone(z, s, c) == board.in_zone(z, side(s), cells[c as usize]))
            })
        })
    }

    /// The image of a count vector (the groups' counts, then the hand slots').
    pub(crate) fn counts_image(&self, counts: &[u8], groups: usize) -> Vec<u8> {
        let mut out = counts.to_vec();
        for g in 0..groups {
            out[self.groups[g]] = counts[g];
        }
        for (s, &to) in self.slots.iter().enumerate() {
            out[groups + to] = counts[groups + s];
        }
        out
    }

    /// `cells()[c]`: cell c's image.
    pub(crate) fn cells(&self) -> &[u32] {
        &self.cells
    }

    /// `groups()[g]`: group g's image.
    pub(crate) fn groups(&self) -> &[usize] {
        &self.groups
    }

    /// How the symmetry moves the cells.
    pub fn cell_map(&self) -> CellMap {
        self.map
    }

    /// Does it exchange the sides?
    pub fn swaps_sides(&self) -> bool {
        self.swaps_sides
    }

    /// One line for `--check`.
    pub fn describe(&self) -> String {
        if self.swaps_sides {
            format!(
                "the sides exchanged with {} (a position's value is its image's, the other side to move)",
                self.map.name()
            )
        } else {
            format!("{} (a position's value is its mirror image's)", self.map.name())
        }
    }

    /// The image of a position: its pieces on their cells' images as their
    /// groups' images, the hands' slots mapped, the other side to move if the
    /// sides are exchanged (and a meeting's winner with them).
    pub fn apply<const N: usize>(&self, p: &RulesPosition<N>) -> RulesPosition<N> {
        let mut image =
            p.with_pieces(|packed| pack(self.groups[group_of(packed)], self.cells[cell_of(packed) as usize]));
        if !self.slots.is_empty() {
            image.set_hand(0);
            for (slot, &to) in self.slots.iter().enumerate() {
                for _ in 0..p.in_hand(slot) {
                    image.put_in_hand(to);
                }
            }
        }
        if self.swaps_sides {
            image.pass_turn();
            if let code @ (1 | 2) = p.ended() {
                image.set_ended(3 - code);
            }
        }
        image
    }
}

/// Does every ending and rule that names a side treat the two alike?
fn endings_treat_sides_alike(rules: &Rules) -> bool {
    rules.endings.iter().all(|ending| match ending {
        Ending::Reach { sides, .. } | Ending::NoPieces { sides, .. } | Ending::Line { sides, .. } => {
            sides[0] == sides[1]
        }
        // Meetings are compared group by group (`meet_code`).
        Ending::Meet { .. }
        | Ending::Captured { .. }
        | Ending::Full { .. }
        | Ending::Stuck { .. }
        | Ending::NoMoves { .. }
        | Ending::Scored { .. } => true,
    })
}

/// A symmetry on 64-bit cell sets (boards of at most 64 cells): each byte of
/// a set mapped by a table of 256 images, the groups and hand slots renamed.
///
/// Why: mapping a position's groups cell by cell cost more than mapping its
/// list of pieces and sorting it ("Dobutsu shogi, solved whole" in
/// docs/rules-solving.md); a byte
/// at a time, a group of a 12-cell board is two loads.
#[derive(Clone, Debug)]
pub(crate) struct SetImage {
    /// `bytes[k][b]`: the image of the cells `8k + i` for each bit i of `b`.
    bytes: Vec<[u64; 256]>,
    groups: Vec<usize>,
    slots: Vec<usize>,
    swaps_sides: bool,
}

impl SetImage {
    /// `symmetry` on sets, where the board has at most 64 cells.
    pub(crate) fn of(symmetry: &Symmetry) -> Option<SetImage> {
        let cells = symmetry.cells.len();
        if cells > 64 {
            return None;
        }
        let bytes = (0..cells.div_ceil(8))
            .map(|k| {
                let mut table = [0u64; 256];
                for (b, image) in table.iter_mut().enumerate() {
                    for i in (0..8).filter(|&i| b >> i & 1 == 1 && 8 * k + i < cells) {
                        *image |= 1 << symmetry.cells[8 * k + i];
                    }
                }
                table
            })
            .collect();
        Some(SetImage {
            bytes,
            groups: symmetry.groups.clone(),
            slots: symmetry.slots.clone(),
            swaps_sides: symmetry.swaps_sides,
        })
    }

    /// The image of a set of cells.
    #[inline]
    pub(crate) fn cells(&self, mut set: u64) -> u64 {
        let mut image = 0;
        for table in &self.bytes {
            image |= table[(set & 0xff) as usize];
            set >>= 8;
            if set == 0 {
                break;
            }
        }
        image
    }

    /// The image of a group.
    #[inline]
    pub(crate) fn group(&self, g: usize) -> usize {
        self.groups[g]
    }

    /// The image of a hand slot.
    #[inline]
    pub(crate) fn slot(&self, slot: usize) -> usize {
        self.slots[slot]
    }

    /// Does it swap the sides (and so the side to move)?
    #[inline]
    pub(crate) fn swaps_sides(&self) -> bool {
        self.swaps_sides
    }
}
