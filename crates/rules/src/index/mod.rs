//! The dense index of a rules game without trails: positions ranked by where the
//! pieces of each group stand, in tiers by how many pieces of each group are left.
//!
//! Each group g has its *places*: the cells its pieces can stand on in a position
//! where play goes on. That is every cell but those of a zone where a piece of the
//! group ends the game the moment it stands there (a pawn on its goal row): such a
//! position is terminal, and terminal positions need no index. A tier is a count
//! vector `counts[g]` (pieces of group g on the board). Within a tier, group g's
//! cells are ranked as a combination of its places, less those of earlier groups
//! *within* it (groups h < g whose places all lie among g's: their pieces always
//! take some of g's places, so many that the count is known):
//!
//! ```text
//!   free_g   = |places_g| − Σ counts[h]       h < g, places_h ⊆ places_g
//!   rank_g   = Σ_i C(r_i, i + 1)     r_0 < r_1 < …: the group's cells, each counted
//!                                     among those free places (colex)
//!   in tier  = (rank_0 + C_0·(rank_1 + C_1·(rank_2 + …))) · 2 + side to move
//!              where C_g = C(free_g, counts[g])
//!   index    = offset[tier] + in tier            (whole-game index, tiers in order)
//! ```
//! When every group's places are the whole board (chase, Queen's Case) every index
//! is a position. Otherwise an index whose group lands on a cell an earlier group
//! not within it holds is a *hole*, no position: pawn chess's 4×4 index has 1.26
//! million entries with its holes, against 4.53 million when pawns could stand on
//! their goal row.
//!
//! A tier where a side has none of its royal pieces left (a `captured` ending:
//! Dobutsu's lion) holds only ended positions: it is left out like a goal row's
//! cells, and retrograde values such positions from the moves (Dobutsu: 1.18 of
//! 4.32 billion entries).
//!
//! # Folded by symmetry
//! A game whose tiers lead back to each other (pieces both dropped and captured,
//! or promoted: solved whole, as Dobutsu is) keeps one position of each orbit of
//! the symmetries its rules have ([`crate::compiled::symmetry`]), where they hold of its
//! tiers:
//! - **side swap**: only the first side to move. A position with the second side
//!   to move is its image under the swap (in the tier of the swapped counts): the
//!   tiers hold one side each, and an index is `rank`, not `rank · 2 + side`.
//! - **mirror**: the *anchor*, the first group with pieces where it has one piece
//!   in every tier (a royal piece, a fox), has as places only the cells of the left half and the
//!   middle column (`2·column ≤ W − 1`); a position whose anchor stands right of
//!   the middle is its mirror image. Positions with the anchor on the middle
//!   column are kept with their images (the orbit twice: its two entries have
//!   one value).
//!
//! Where the side swap folds, the side to move is always the first: a piece of
//! that side where it would have won (or lost) by standing when its side is to
//! move (Dobutsu's lion on the far row) ends the game, and such cells are not
//! among the first side's places.
//!
//! # Royal pieces placed as a pair
//! Where, besides, each side has one royal piece (a `captured` ending of one
//! kind, a loss) in every tier, the first side's royal group is the anchor, and
//! taking the other side's royal piece ends the game whatever else stands on the
//! board ([`crate::compiled::endings::Endings::royal_capture_ends`]), the two royal pieces
//! are ranked together, as one digit, in place of the anchor's: every pair of
//! their cells *but* those where the side to move could take the other's royal
//! piece at once (one of its royal piece's moves lands on it: the first cell of
//! a ray, any cell of a leap). Such a position is a win in 1 by the rules
//! ([`gsolve_engine::Indexed::value_by_rules`]), like an ended one: nothing is
//! stored for it. Where another piece of the side to move takes the royal
//! piece for sure ([`RoyalPair::sure_takes`]) the position keeps its entry
//! but is valued by the rules too ([`gsolve_engine::FirstLook::ByRules`]).
//! The other royal group's digit is then 1 (its cell is known),
//! and the groups between the two count its cell as taken where its places lie
//! among theirs, as later groups count earlier ones'.
//!
//! Dobutsu: 3,135,851,928 entries unfolded; folded, 1,567,925,964 by the side
//! swap; with the lion of the side to move on 6 of 12 cells (the left half and the
//! middle column, not the far row) and the lions as a pair (32 pairs of cells,
//! against 6 · 11), 379,912,088.
//!
//! Tiers come in order of total pieces, fewest first: a capture leaves a tier for
//! one with a piece fewer, which is therefore solved earlier. In games where
//! pieces are dropped, a drop leaves a tier for one with a piece more: the tiers
//! are those reachable from the position's counts (the *floor*), most pieces first.

use crate::compiled::position::{cell_of, group_of, pack, RulesPosition};
use crate::compiled::symmetry::Symmetry;
use crate::compiled::tables::{Tables, MAX_HAND_SLOTS, NO_SLOT};

/// What an index may fold and leave out (module docs, "Folded by symmetry"):
/// each where the rules allow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Folds {
    /// Keep the first side to move only.
    pub side_swap: bool,
    /// Keep the anchor on the left half and the middle column.
    pub mirror: bool,
    /// Rank the royal pieces as a pair, leaving out the positions where the side
    /// to move can take the other's (only with the side swap).
    pub royal_pair: bool,
}

impl Folds {
    /// Everything the rules allow: what gsolve builds.
    pub const ALL: Folds = Folds { side_swap: true, mirror: true, royal_pair: true };
    /// Nothing: every position, either side to move.
    pub const NONE: Folds = Folds { side_swap: false, mirror: false, royal_pair: false };
}

/// The symmetries an index folds (module docs, "Folded by symmetry").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Folding {
    /// Only the first side to move: the second side's positions are their
    /// images under the side swap.
    pub side_swap: bool,
    /// The anchor group (the first with one piece in every tier) stands on the
    /// left half or the middle column only: its places are those.
    pub mirror_anchor: Option<usize>,
    /// The two sides' royal groups, ranked together as a pair that leaves out
    /// the positions where the side to move can take the other's royal piece
    /// (module docs, "Royal pieces placed as a pair").
    pub royal_pair: Option<[usize; 2]>,
}

impl Folding {
    /// Does the index fold anything?
    pub fn folds(&self) -> bool {
        self.side_swap || self.mirror_anchor.is_some()
    }
}

/// The most positions an index may have (about 4.6·10¹⁸ leaves headroom for
/// arithmetic; solvers refuse far smaller games for lack of memory).
pub const MAX_INDEX: u64 = 1 << 62;
/// The most tiers (count vectors) a game may have.
pub const MAX_TIERS: usize = 1 << 20;

/// One tier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierInfo {
    /// Pieces of each group.
    pub counts: Vec<u8>,
    /// The sides to move its positions have (bit s: side s); the other side's
    /// entries are holes. Both, except in games with drops, where the counts can
    /// tell who is to move.
    pub sides: u8,
    /// Its first whole-game index.
    pub offset: u64,
    /// Its number of positions.
    pub size: u64,
    /// `C_g` of each group (see the module docs).
    radices: Vec<u64>,
    /// `free_g` of each group (see the module docs).
    free: Vec<u32>,
    /// For each group, its table in [`PlacementIndex::combinations`], if it has one.
    tables: Vec<Option<u32>>,
    /// For each group, its table in [`PlacementIndex::cell_sets`], if it has one.
    cell_tables: Vec<Option<u32>>,
}

impl TierInfo {
    /// `C_g` of group `g`: how many placements its pieces have in the tier.
    #[inline]
    pub(crate) fn radix(&self, g: usize) -> u64 {
        self.radices[g]
    }

    /// Group `g`'s table of cell sets ([`PlacementIndex::cell_set`]), if the group
    /// has one in the tier.
    #[inline]
    pub(crate) fn cell_table(&self, g: usize) -> Option<u32> {
        self.cell_tables[g]
    }
}

/// Where a group's pieces may stand, and how it relates to earlier groups.
#[derive(Clone, Debug)]
pub(crate) struct Places {
    /// The cells, ascending.
    cells: Vec<u32>,
    /// `slot[cell]`: the cell's place in `cells`, `u32::MAX` if it is not one.
    slot: Vec<u32>,
    /// `cells` as a bit set, on boards of at most 128 cells.
    mask: u128,
    /// `within[h]` for each earlier group h: all of h's places are among these.
    within: Vec<bool>,
    /// `within` as a bit set of groups (bit h), for the first 64 groups.
    within_mask: u64,
    /// Every earlier group is within: no index of this group is a hole.
    all_within: bool,
    /// For a group between the two of a royal pair ([`RoyalPair`]): the second's
    /// places are among these, so its piece, placed with the first, takes one.
    pair_within: Option<usize>,
}

impl Places {
    /// The places of the cells `list` (ascending) on a board of `cells` cells,
    /// related to the earlier groups' `earlier`.
    fn of(list: Vec<u32>, cells: usize, earlier: &[Places]) -> Places {
        let mut slot = vec![u32::MAX; cells];
        for (i, &c) in list.iter().enumerate() {
            slot[c as usize] = i as u32;
        }
        let mask = if cells <= 128 { list.iter().fold(0u128, |m, &c| m | 1u128 << c) } else { 0 };
        let within: Vec<bool> =
            earlier.iter().map(|earlier| earlier.cells.iter().all(|&c| slot[c as usize] != u32::MAX)).collect();
        let all_within = within.iter().all(|&w| w);
        let within_mask = within.iter().take(64).enumerate().fold(0u64, |m, (h, &w)| m | (w as u64) << h);
        Places { cells: list, slot, mask, within, within_mask, all_within, pair_within: None }
    }

    /// The cells, ascending.
    pub(crate) fn cells(&self) -> &[u32] {
        &self.cells
    }

    /// `[cell]`: the cell's place among [`Self::cells`], `u32::MAX` if it is not one.
    pub(crate) fn slots(&self) -> &[u32] {
        &self.slot
    }

    /// The cells taken among these places on a board of at most 64 cells, from
    /// the cells of each earlier group `masks` (the royal pair's both set with
    /// its first) and of all of them, `all`: all of them where every earlier
    /// group is within, else those of the groups within.
    #[inline]
    fn taken_small(&self, masks: &[u64; MASK_GROUPS], all: u64) -> u64 {
        if self.all_within {
            return all;
        }
        let mut taken = self.pair_within.map_or(0, |h| masks[h]);
        let mut within = self.within_mask;
        while within != 0 {
            taken |= masks[within.trailing_zeros() as usize];
            within &= within - 1;
        }
        taken
    }

    /// Are all of some earlier group's places among these (its pieces then always
    /// take some of this group's places)?
    pub(crate) fn holds_an_earlier_group(&self) -> bool {
        self.within.contains(&true)
    }
}

/// A placement ranked group by group ([`PlacementIndex::group_ranks`]), on a
/// board of at most 64 cells with at most [`MASK_GROUPS`] groups: what
/// [`PlacementIndex::moved_index`] needs to rank it again with one piece moved.
#[derive(Clone, Debug, Default)]
pub(crate) struct GroupRanks {
    /// The tier of its counts and hands, `None` if no tier holds them.
    tier: Option<u32>,
    /// That tier's first index and sides to move.
    offset: u64,
    sides: u8,
    /// Σ `digits[g] · mults[g]` over the groups with a digit.
    rank: u64,
    /// Each group's digit (the royal pair's at its first group, 0 at its second).
    digits: [u64; MASK_GROUPS],
    /// Each group's multiplier in the tier: the product of earlier radices.
    mults: [u64; MASK_GROUPS],
    /// Each group's cells.
    masks: [u64; MASK_GROUPS],
    /// The cells counted as taken below each group's pieces
    /// ([`Places::taken_small`]).
    taken: [u64; MASK_GROUPS],
    /// Groups with pieces (bit g).
    present: u32,
    /// Groups without a digit (a piece off its places, a pair without a rank).
    unranked: u32,
}

impl GroupRanks {
    /// Does a tier hold the counts and hands?
    #[inline]
    pub(crate) fn has_tier(&self) -> bool {
        self.tier.is_some()
    }
}

/// The two pieces of a placement in a tier of two single pieces
/// ([`PlacementIndex::unrank_pair`]); index 0 is the earlier group's.
///
/// | field | meaning |
/// |---|---|
/// | `groups[k]`, `cells[k]` | the k-th piece's group and cell |
/// | `ranks[k]` | its group's rank: the placement's rank in the tier is `ranks[0] + ranks[1] × radix` |
/// | `radix` | the first group's radix in the tier (the second group's multiplier) |
/// | `within` | the first group is within the second's places: the second's rank counts the first piece when it stands below |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SinglePair {
    pub(crate) groups: [usize; 2],
    pub(crate) cells: [u32; 2],
    pub(crate) ranks: [u64; 2],
    pub(crate) radix: u64,
    pub(crate) within: bool,
}

/// The last count vector's code and tier met by [`PlacementIndex::locate_hinted`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TierHint(Option<(u64, usize)>);

/// The royal pieces of the two sides ranked as one digit (module docs, "Royal
/// pieces placed as a pair"), on boards of at most 128 cells.
#[derive(Clone, Debug)]
pub(crate) struct RoyalPair {
    /// The first side's royal group (the anchor: the first group with pieces)
    /// and the second side's.
    first: usize,
    second: usize,
    cells: u32,
    /// `rank_of[x · cells + y]`: the pair's rank with the first royal piece on
    /// `x` and the second on `y`, `u32::MAX` where no index holds it.
    rank_of: Vec<u32>,
    /// `cells_of[rank]`: `(x, y)`.
    cells_of: Vec<(u32, u32)>,
    /// `takes_by[g · cells + x]`: the cells a piece of group `g` (of either
    /// side) standing on `x` can take an enemy piece on whatever else stands
    /// on the board.
    takes_by: Vec<u128>,
}

impl RoyalPair {
    /// Both royal pieces as one digit of a position's rank (one piece each in
    /// every tier): the pair's rank and the two cells, read from the sorted
    /// pieces `packed` with `counts[g]` pieces of each group g; `None` where no
    /// index holds the pair.
    #[inline]
    fn digit(&self, packed: &[u32], counts: &[u8]) -> Option<(u64, u32, u32)> {
        let at = |g: usize| counts[..g].iter().map(|&c| c as usize).sum::<usize>();
        let (x, y) = (cell_of(packed[at(self.first)]), cell_of(packed[at(self.second)]));
        self.rank_at(x, y).map(|rank| (rank, x, y))
    }

    /// The pair's rank with the first royal piece on `x` and the second on
    /// `y`, `None` where no index holds it.
    #[inline]
    fn rank_at(&self, x: u32, y: u32) -> Option<u64> {
        let rank = self.rank_of[(x * self.cells + y) as usize];
        (rank != u32::MAX).then_some(rank as u64)
    }

    /// The pair of `royal` (the two sides' royal groups, from
    /// [`crate::compiled::endings::Endings::royal_capture_ends`]) over `places`, if the
    /// rules let it be: the first royal group is `anchor`, it does not promote,
    /// leave a trail or meet, and the first side moves one piece a turn.
    fn of(tables: &Tables, places: &[Places], anchor: usize, royal: [usize; 2]) -> Option<RoyalPair> {
        let board = tables.board();
        let cells = board.cells() as u32;
        let [first, second] = royal;
        let shaped = first == anchor
            && second > first
            && cells <= 128
            && tables.groups() <= MASK_GROUPS
            && tables.promotion(first).is_none()
            && !tables.leaves_trail(first)
            && !tables.has_meetings()
            && tables.turn_of(0) == crate::language::spec::Turn::OnePiece
            && tables.turn_of(1) == crate::language::spec::Turn::OnePiece;
        if !shaped {
            return None;
        }
        // The cells a piece takes on for sure: a ray's first cell, or any
        // cell of a leap, where the move may land on an enemy. A piece moves
        // one at a time, and no ending but taking the royal piece can come
        // first (`royal_capture_ends`), so taking it is a move that wins.
        let sure_takes = |g: usize, x: u32| {
            let mut set = 0u128;
            for ray in board.rays(g, x).iter().filter(|ray| ray.onto.enemy()) {
                let targets = board.ray_cells(ray);
                let reach = if ray.leap { targets.len() } else { targets.len().min(1) };
                for &y in &targets[..reach] {
                    set |= 1u128 << y;
                }
            }
            set
        };
        let takes_by = (0..tables.groups()).flat_map(|g| (0..cells).map(move |x| sure_takes(g, x))).collect();
        let mut rank_of = vec![u32::MAX; (cells * cells) as usize];
        let mut cells_of = Vec::new();
        for &x in &places[first].cells {
            for &y in &places[second].cells {
                if x != y && sure_takes(first, x) >> y & 1 == 0 {
                    rank_of[(x * cells + y) as usize] = cells_of.len() as u32;
                    cells_of.push((x, y));
                }
            }
        }
        Some(RoyalPair { first, second, cells, rank_of, cells_of, takes_by })
    }

    /// The cells a piece of group `g` on `x` takes on for sure, an enemy
    /// piece standing there.
    #[inline]
    pub(crate) fn sure_takes(&self, g: usize, x: u32) -> u128 {
        self.takes_by[g * self.cells as usize + x as usize]
    }

    /// Can the side to move take the other side's royal piece at once with
    /// any of its pieces, as [`RoyalPair::sure_takes`] says: a win in 1 by
    /// the rules ([`gsolve_engine::Indexed::value_by_rules`]). `pieces` are a
    /// position's packed pieces; `false` where the other royal piece is gone.
    #[inline]
    pub(crate) fn side_takes_royal(&self, tables: &Tables, to_move: usize, pieces: &[u32]) -> bool {
        let royal = if to_move == 0 { self.second } else { self.first };
        let Some(&target) = pieces.iter().find(|&&q| group_of(q) == royal) else { return false };
        let target = cell_of(target);
        pieces.iter().any(|&q| {
            let g = group_of(q);
            tables.side_of(g) == to_move && self.sure_takes(g, cell_of(q)) >> target & 1 == 1
        })
    }

    /// The two royal groups.
    pub(crate) fn groups(&self) -> [usize; 2] {
        [self.first, self.second]
    }

    /// The number of pairs: the digit's radix.
    fn len(&self) -> u64 {
        self.cells_of.len() as u64
    }
}

/// The index.
#[derive(Clone, Debug)]
pub struct PlacementIndex {
    cells: u32,
    /// Groups (the first entries of a count vector).
    groups: usize,
    /// Hand slots (the last entries of a count vector: pieces in hand).
    slots: usize,
    /// Each group's places (see the module docs).
    places: Vec<Places>,
    limits: Vec<u8>,
    /// The counts the index was made for: the limits, or in games with drops the
    /// floor (the counts of the position whose game it is).
    given: Vec<u8>,
    /// Tiers can be solved in order (no move leads back to an earlier tier): false
    /// where pieces are both dropped and captured.
    ordered: bool,
    /// Count vectors where a side has lost its royal pieces were left out.
    royal_tiers_left_out: bool,
    /// The symmetries folded (module docs).
    folding: Folding,
    /// The royal pieces ranked as a pair (module docs).
    royal_pair: Option<RoyalPair>,
    /// 1 where the side to move is the low bit of an index within a tier (`rank ·
    /// 2 + side`), 0 where the tiers hold the first side only (`rank`).
    side_shift: u32,
    tiers: Vec<TierInfo>,
    /// Tier number by the mixed-radix code of its counts.
    tier_of_code: TierLookup,
    /// `strides[g]`: what one piece of group g adds to the code of a count vector.
    strides: Vec<u64>,
    /// `slot_of[g * cells + c]`: each group's [`Places::slots`] one after another
    /// (one load a piece, where a group's own table is a pointer away).
    slot_of: Vec<u32>,
    /// `within_of[g]`: the earlier groups within group g's places, as a bit set
    /// (the first 64 groups).
    within_of: Vec<u64>,
    /// `taken_by[g]`: the groups whose taken cells [`PlacementIndex::rank_small`]
    /// counts g's among (none for the royal pair's groups, whose digit is one
    /// table's): moving one of g's pieces may change their digits.
    taken_by: Vec<u64>,
    /// `tier_radices[t * groups + g]`: each tier's `C_g`, one after another.
    tier_radices: Vec<u64>,
    /// Each tier's first whole-game index, in tier order (a search through them
    /// reads one cache line, not one a tier).
    offsets: Vec<u64>,
    /// `place_cells[g * cells + s]`: group g's place of slot `s` (each group's
    /// [`Places::cells`] one after another, padded to `cells`).
    place_cells: Vec<u32>,
    /// Each tier's groups with a piece, as a bit set (the first 64 groups).
    tier_present: Vec<u64>,
    /// `tier_magic[t * groups + g]`: the multiplier of a division by `C_g` in
    /// tier t ([`div_rem`]), 0 where `C_g` is below 2 or from 2^32 up.
    tier_magic: Vec<u64>,
    /// No group has more than one piece, and [`Self::locates_pieces`] holds for
    /// every tier: [`Self::unrank_singles`] unranks.
    singles: bool,
    /// `binomial[k * (cells + 1) + n]` = C(n, k), saturating, for k ≤ the largest
    /// limit: one flat table, one load a lookup.
    binomial: Vec<u64>,
    /// Unranking tables: `combinations[t][rank]` is the combination of colex rank
    /// `rank` as a bit set of the ranks among the free cells, for each (free cells,
    /// pieces) with 2 to [`TABLE_PIECES`] pieces among at most 64 cells and at most
    /// [`TABLE_ENTRIES`] combinations. One load instead of a binary search a piece,
    /// whose dependent loads made unranking most of a small game's tier sweep.
    combinations: Vec<Vec<u64>>,
    /// Unranking straight to cells: `cell_sets[t][rank]` is the cells of the
    /// combination of colex rank `rank` as a bit set, for a group with an
    /// unranking table whose free places are all its places (no earlier group
    /// within it has a piece in the tier), on boards of at most 128 cells. One
    /// load gives the group's cells, where the walk over the free places for each
    /// rank was a fifth of the pawns' tier sweeps.
    cell_sets: Vec<Vec<u128>>,
    size: u64,
}

/// Where the positions of one piece of each of two groups lie in the index
/// ([`PlacementIndex::pair_layout`]): with the first group's piece on cell `a`
/// and the second's on `b ≠ a`, side `s` to move,
///
/// ```text
///   index = offset + (slot₀[a] + radix₀ · (slot₁[b] − [a < b])) · 2 + s
/// ```
/// (the module docs' formula for two groups of one piece: the second group's
/// free places are its places less the first piece's cell, which lies among
/// them); a cell without a slot (`u32::MAX`) is not a place of the group.
#[derive(Clone, Debug)]
pub(crate) struct PairLayout {
    /// The tier's number.
    tier: usize,
    offset: u64,
    first_radix: u64,
    first_slot: Vec<u32>,
    second_slot: Vec<u32>,
}

impl PairLayout {
    /// The tier of the positions with both pieces.
    pub fn tier(&self) -> usize {
        self.tier
    }

    /// The index of the position, `None` when a piece is off its group's places
    /// or both stand on one cell.
    #[inline]
    pub fn index(&self, first: u32, second: u32, to_move: usize) -> Option<u64> {
        let (a, b) = (self.first_slot[first as usize], self.second_slot[second as usize]);
        if a == u32::MAX || b == u32::MAX || first == second {
            return None;
        }
        let b = b - (first < second) as u32;
        Some(self.offset + ((a as u64 + self.first_radix * b as u64) << 1) + to_move as u64)
    }
}

/// Tiers by the mixed-radix code of their counts: a table where the codes are few,
/// else a hash table (games with hands have many codes and few tiers).
#[derive(Clone, Debug)]
enum TierLookup {
    /// `u32::MAX`: not a tier.
    Dense(Vec<u32>),
    Sparse(SparseTiers),
}

impl TierLookup {
    #[inline]
    fn get(&self, code: u64) -> Option<usize> {
        match self {
            TierLookup::Dense(table) => {
                table.get(code as usize).copied().filter(|&t| t != u32::MAX).map(|t| t as usize)
            }
            TierLookup::Sparse(table) => table.get(code),
        }
    }
}

/// An open-addressing table from codes to tiers: a power-of-two number of slots,
/// at least twice the tiers, probed linearly from a multiplicative hash.
///
/// Why not `HashMap`: every parent of a retrograde solve looks its tier up, and
/// SipHash made a fifth of Dobutsu's solve.
#[derive(Clone, Debug)]
struct SparseTiers {
    /// `(code, tier)`; code `u64::MAX` (never a code: codes are below the product
    /// of the radices, which fits in 64 bits) marks an empty slot.
    slots: Vec<(u64, u32)>,
    shift: u32,
}

impl SparseTiers {
    fn new(tiers: usize) -> Self {
        let bits = (2 * tiers.max(1)).next_power_of_two().trailing_zeros().max(1);
        SparseTiers { slots: vec![(u64::MAX, 0); 1 << bits], shift: 64 - bits }
    }

    #[inline]
    fn home(&self, code: u64) -> usize {
        (code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    fn insert(&mut self, code: u64, tier: u32) {
        let mask = self.slots.len() - 1;
        let mut at = self.home(code);
        while self.slots[at].0 != u64::MAX && self.slots[at].0 != code {
            at = (at + 1) & mask;
        }
        self.slots[at] = (code, tier);
    }

    #[inline]
    fn get(&self, code: u64) -> Option<usize> {
        let mask = self.slots.len() - 1;
        let mut at = self.home(code);
        loop {
            let (key, tier) = self.slots[at];
            if key == code {
                return Some(tier as usize);
            }
            if key == u64::MAX {
                return None;
            }
            at = (at + 1) & mask;
        }
    }
}

/// The largest unranking table: 2^16 combinations (512 KiB).
const TABLE_ENTRIES: u64 = 1 << 16;
/// Tables for groups of up to this many pieces.
const TABLE_PIECES: usize = 16;

/// Every `k`-subset of `0..n` as a bit set, in colex order: increasing numbers
/// with `k` bits set (Gosper's next-combination step), which is colex order.
fn colex_table(n: u32, k: u32) -> Vec<u64> {
    let mut out = Vec::new();
    let mut set: u64 = (1u64 << k) - 1;
    let limit = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    while set <= limit {
        out.push(set);
        let low = set & set.wrapping_neg();
        let ripple = set.wrapping_add(low);
        if ripple == 0 {
            break; // the last subset of 64 cells
        }
        set = (((ripple ^ set) >> 2) / low) | ripple;
    }
    out
}

impl PlacementIndex {
    /// The index of the game of `tables` for up to `limits[g]` pieces of group g; an error says why
    /// the game is too big.
    ///
    /// `fold`: the symmetries it may fold (`swap`: the side swap, `mirror`), used
    /// only where the tiers lead back to each other (module docs).
    pub(crate) fn new(
        tables: &Tables,
        given: &[u8],
        swap: Option<&Symmetry>,
        mirror: Option<&Symmetry>,
        pair: bool,
    ) -> Result<PlacementIndex, String> {
        let rules = tables.rules();
        let cells = tables.board().cells() as u32;
        let groups = tables.groups();
        let slots = tables.hand_groups().len();
        if given.len() != groups + slots {
            return Err(format!("{} piece counts for {groups} kinds of piece and {slots} in hands", given.len()));
        }
        let drops = rules.has_drops();
        let captures = rules.has_captures();
        let promotions = rules.has_promotions();
        // Count vectors: with drops, those reachable from the floor; else every one
        // up to the limits where pieces can be captured, else the limits alone (no
        // move changes the counts).
        let mut vectors =
            if drops || promotions { reachable_counts(tables, given, cells) } else { count_vectors(given, captures) };
        let mut limits = given.to_vec();
        for (v, _) in &vectors {
            for (l, &c) in limits.iter_mut().zip(v) {
                *l = (*l).max(c);
            }
        }
        let limits = &limits[..];
        let max_k = limits[..groups].iter().copied().max().unwrap_or(0) as usize;
        let binomial: Vec<u64> =
            (0..=max_k).flat_map(|k| (0..=cells as u64).map(move |n| binomial(n, k as u64))).collect();
        if vectors.len() > MAX_TIERS {
            return Err(format!("{} piece counts to tier, more than {MAX_TIERS}", vectors.len()));
        }
        let codes: u128 = limits.iter().map(|&l| l as u128 + 1).product();
        if codes > u64::MAX as u128 {
            return Err("too many kinds of piece to tier".into());
        }
        vectors.retain(|(v, _)| v[..groups].iter().map(|&c| c as u32).sum::<u32>() <= cells);
        let before = vectors.len();
        vectors.retain(|(v, _)| !tables.endings().royal_lost(&v[..groups]));
        let royal_tiers_left_out = vectors.len() < before;
        vectors.sort_by_key(|(v, _)| {
            (v[..groups].iter().map(|&c| c as u32).sum::<u32>(), v.iter().rev().copied().collect::<Vec<_>>())
        });
        if drops {
            vectors.reverse();
        }
        let ordered = !(promotions || drops && captures);
        let side_swap = !ordered && swap.is_some_and(|swap| swap_closed(swap, groups, &vectors));
        if side_swap {
            for (_, sides) in &mut vectors {
                *sides &= 1;
            }
            vectors.retain(|(_, sides)| *sides != 0);
        }
        // The anchor is the first group with pieces, so that no earlier group's
        // pieces stand among its places: restricted, they still rank without holes.
        let first_with_pieces = (0..groups).find(|&g| vectors.iter().any(|(v, _)| v[g] > 0));
        let mirror_anchor =
            first_with_pieces.filter(|&g| !ordered && mirror.is_some() && vectors.iter().all(|(v, _)| v[g] == 1));
        let side_shift = if side_swap { 0 } else { 1 };
        let board = tables.board();
        let endings = tables.endings();
        let mut places = group_places(tables, groups, |g, c| {
            // The first side is always to move where the side swap folds.
            let ends = side_swap && tables.side_of(g) == 0 && endings.ends_with_own_side_to_move(g, c);
            let mirrored = mirror_anchor == Some(g) && 2 * board.coords[c as usize].1 >= board.cols;
            !ends && !mirrored
        });
        let royal_pair = match (side_swap, first_with_pieces, endings.royal_capture_ends()) {
            (true, Some(anchor), Some(royal))
                if pair && vectors.iter().all(|(v, _)| v[royal[0]] == 1 && v[royal[1]] == 1) =>
            {
                RoyalPair::of(tables, &places, anchor, royal)
            }
            _ => None,
        };
        if let Some(pair) = &royal_pair {
            let second = places[pair.second].clone();
            for between in &mut places[pair.first + 1..pair.second] {
                let holds = second.cells.iter().all(|&c| between.slot[c as usize] != u32::MAX);
                between.pair_within = holds.then_some(pair.second);
                between.all_within &= holds;
            }
        }
        let folding = Folding { side_swap, mirror_anchor, royal_pair: royal_pair.as_ref().map(RoyalPair::groups) };
        let mut tier_of_code = if codes <= MAX_TIERS as u128 {
            TierLookup::Dense(vec![u32::MAX; codes as usize])
        } else {
            TierLookup::Sparse(SparseTiers::new(vectors.len()))
        };
        let mut tiers = Vec::new();
        let mut offset: u128 = 0;
        let mut combinations: Vec<Vec<u64>> = Vec::new();
        let mut table_of: std::collections::HashMap<(u64, u8), u32> = std::collections::HashMap::new();
        let mut cell_sets: Vec<Vec<u128>> = Vec::new();
        let mut cell_table_of: std::collections::HashMap<(usize, u8), u32> = std::collections::HashMap::new();
        for (counts, sides) in vectors {
            let mut size: u128 = 1 << side_shift;
            let mut radices = Vec::with_capacity(groups);
            let mut frees = Vec::with_capacity(groups);
            let mut tables = Vec::with_capacity(groups);
            let mut cell_tables = Vec::with_capacity(groups);
            for (g, &c) in counts[..groups].iter().enumerate() {
                let taken: u64 = (0..g).filter(|&h| places[g].within[h]).map(|h| counts[h] as u64).sum::<u64>()
                    + places[g].pair_within.map_or(0, |h| counts[h] as u64);
                let free = (places[g].cells.len() as u64).saturating_sub(taken);
                let r = match &royal_pair {
                    Some(pair) if g == pair.first => pair.len() as u128,
                    Some(pair) if g == pair.second => 1,
                    _ => binomial_exact(free, c as u64).ok_or("the index overflows 64 bits")?,
                };
                let paired = royal_pair.as_ref().is_some_and(|pair| g == pair.first || g == pair.second);
                radices.push(r as u64);
                frees.push(free as u32);
                let wanted =
                    !paired && (2..=TABLE_PIECES).contains(&(c as usize)) && free <= 64 && r <= TABLE_ENTRIES as u128;
                let table = wanted.then(|| {
                    *table_of.entry((free, c)).or_insert_with(|| {
                        combinations.push(colex_table(free as u32, c as u32));
                        combinations.len() as u32 - 1
                    })
                });
                tables.push(table);
                let own_places = taken == 0 && cells <= 128 && groups <= MASK_GROUPS;
                cell_tables.push(table.filter(|_| own_places).map(|t| {
                    *cell_table_of.entry((g, c)).or_insert_with(|| {
                        let cells_of = |set: &u64| {
                            let mut set = *set;
                            let mut mask = 0u128;
                            while set != 0 {
                                mask |= 1u128 << places[g].cells[set.trailing_zeros() as usize];
                                set &= set - 1;
                            }
                            mask
                        };
                        cell_sets.push(combinations[t as usize].iter().map(cells_of).collect());
                        cell_sets.len() as u32 - 1
                    })
                }));
                size = size.saturating_mul(r);
            }
            if offset + size > MAX_INDEX as u128 {
                return Err(format!(
                    "the index would have more than 2^62 positions (tier {counts:?} alone has {size})"
                ));
            }
            let tier_code = code(limits, &counts);
            match &mut tier_of_code {
                TierLookup::Dense(table) => table[tier_code as usize] = tiers.len() as u32,
                TierLookup::Sparse(table) => table.insert(tier_code, tiers.len() as u32),
            }
            tiers.push(TierInfo {
                counts,
                sides,
                offset: offset as u64,
                size: size as u64,
                radices,
                free: frees,
                tables,
                cell_tables,
            });
            offset += size;
        }
        let slot_of = places.iter().flat_map(|p| p.slot.iter().copied()).collect();
        let within_of = places.iter().map(|p| p.within_mask).collect();
        // The groups whose cells each group counts as taken (the first 64).
        let taken_from: Vec<u64> = (0..groups)
            .map(|g| {
                let p = &places[g];
                match &royal_pair {
                    Some(pair) if g == pair.first || g == pair.second => 0,
                    _ if g >= 64 => 0,
                    _ if p.all_within => {
                        // Every group ranked before g: the earlier groups, and the
                        // pair's second with its first.
                        let earlier = (1u64 << g) - 1;
                        let second =
                            royal_pair.as_ref().filter(|pair| pair.first < g).map_or(0, |pair| 1 << pair.second);
                        earlier | second
                    }
                    _ => p.within_mask | p.pair_within.map_or(0, |h| 1 << h),
                }
            })
            .collect();
        let taken_by = (0..groups)
            .map(|g| (0..groups.min(64)).filter(|&h| taken_from[h] >> g & 1 == 1).fold(0, |m, h| m | 1 << h))
            .collect();
        let tier_radices = tiers.iter().flat_map(|t: &TierInfo| t.radices.iter().copied()).collect();
        let offsets = tiers.iter().map(|t| t.offset).collect();
        let mut place_cells = vec![u32::MAX; groups * cells as usize];
        for (g, p) in places.iter().enumerate() {
            place_cells[g * cells as usize..][..p.cells.len()].copy_from_slice(&p.cells);
        }
        let tier_present = tiers
            .iter()
            .map(|t: &TierInfo| {
                t.counts[..groups].iter().take(64).enumerate().fold(0u64, |m, (g, &c)| m | ((c > 0) as u64) << g)
            })
            .collect();
        let tier_magic = tiers.iter().flat_map(|t: &TierInfo| t.radices.iter().map(|&d| magic(d))).collect();
        let total: usize = limits[..groups].iter().map(|&l| l as usize).sum();
        let singles =
            slots == 0 && groups <= 64 && total <= FEW_PIECES && limits.iter().all(|&l| l <= 1) && royal_pair.is_none();
        Ok(PlacementIndex {
            cells,
            groups,
            slots,
            places,
            limits: limits.to_vec(),
            given: given.to_vec(),
            ordered,
            royal_tiers_left_out,
            folding,
            royal_pair,
            side_shift,
            tiers,
            tier_of_code,
            slot_of,
            within_of,
            taken_by,
            tier_radices,
            offsets,
            place_cells,
            tier_present,
            tier_magic,
            singles,
            strides: limits
                .iter()
                .scan(1u64, |product, &l| {
                    let stride = *product;
                    *product = product.wrapping_mul(l as u64 + 1);
                    Some(stride)
                })
                .collect(),
            binomial,
            combinations,
            cell_sets,
            size: offset as u64,
        })
    }

    /// Can every group stand on every cell (then no index is a hole, and the
    /// index holds every position, terminal ones too)?
    pub fn places_everywhere(&self) -> bool {
        self.places.iter().all(|p| p.cells.len() == self.cells as usize)
    }

    /// Does the index hold every ended position: every group stands everywhere
    /// ([`Self::places_everywhere`]) and no tier of a side without its royal
    /// pieces was left out?
    pub fn holds_every_ending(&self) -> bool {
        self.places_everywhere() && !self.royal_tiers_left_out && self.royal_pair.is_none()
    }

    /// The royal pieces ranked as a pair, if they are (module docs).
    pub(crate) fn royal_pair(&self) -> Option<&RoyalPair> {
        self.royal_pair.as_ref()
    }

    /// Can an entry name no position (two groups whose places differ, neither
    /// within the other, or a side to move a tier does not have)?
    pub fn has_holes(&self) -> bool {
        // A tier folded by the side swap holds one side, and has entries for it alone.
        let every_side = if self.side_shift == 1 { 3 } else { 1 };
        self.places.iter().any(|p| !p.all_within) || self.tiers.iter().any(|t| t.sides != every_side)
    }

    /// The most pieces of each group a position of the index has.
    pub fn limits(&self) -> &[u8] {
        &self.limits
    }

    /// The counts the index was made for: [`Self::limits`], or in games with drops
    /// the counts of the position the game was set up from (the floor), from which
    /// the tiers are those drops can reach. Variants store these.
    pub fn given(&self) -> &[u8] {
        &self.given
    }

    /// The most pieces a position of the index has.
    pub fn max_pieces(&self) -> usize {
        self.tiers.iter().map(|t| t.counts[..self.groups].iter().map(|&c| c as usize).sum::<usize>()).max().unwrap_or(0)
    }

    /// The hand slots: count vectors are the groups' counts on the board, then the
    /// pieces in each hand slot.
    pub fn hand_slots(&self) -> usize {
        self.slots
    }

    /// Can the tiers be solved one after another, each move staying in its tier or
    /// going to one listed earlier? Not where pieces are both dropped and captured
    /// (a drop and a capture lead back to the same counts): such games are solved
    /// whole.
    pub fn tiers_ordered(&self) -> bool {
        self.ordered
    }

    /// Positions in all tiers.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The tiers in solving order.
    pub fn tiers(&self) -> &[TierInfo] {
        &self.tiers
    }

    /// The tier holding a count vector, if it is one.
    pub fn tier_of(&self, counts: &[u8]) -> Option<usize> {
        if counts.len() != self.limits.len() || counts.iter().zip(&self.limits).any(|(c, l)| c > l) {
            return None;
        }
        self.tier_of_code.get(code(&self.limits, counts))
    }

    /// The layout of the tier of one piece of each of two groups, in a game of
    /// exactly two groups and no hands where the second group's places hold the
    /// first's (no index of the tier is a hole): what the bit-parallel solve of a
    /// pursuit needs to rank its positions without a position in hand.
    pub(crate) fn pair_layout(&self) -> Option<PairLayout> {
        if self.groups != 2
            || self.slots != 0
            || self.limits != [1, 1]
            || !self.places[1].within[0]
            || self.royal_pair.is_some()
        {
            return None;
        }
        let tier = self.tier_of(&[1, 1])?;
        let info = &self.tiers[tier];
        (info.sides == 3).then(|| PairLayout {
            tier,
            offset: info.offset,
            first_radix: info.radices[0],
            first_slot: self.places[0].slot.clone(),
            second_slot: self.places[1].slot.clone(),
        })
    }

    /// C(n, k), for k up to the largest limit (one load from a flat table).
    #[inline]
    pub(crate) fn choose(&self, n: u32, k: usize) -> u64 {
        self.binomial[k * (self.cells as usize + 1) + n as usize]
    }

    /// Each group's places, in group order.
    pub(crate) fn places(&self) -> &[Places] {
        &self.places
    }

    /// The cells of the combination of colex rank `rank` in cell table `table`
    /// ([`TierInfo::cell_table`]), as a bit set.
    #[inline]
    pub(crate) fn cell_set(&self, table: u32, rank: u64) -> u128 {
        self.cell_sets[table as usize][rank as usize]
    }

    /// (tier, index within the tier) of a position, `None` if no tier holds it (a
    /// piece off its group's places: the game is over there).
    pub fn locate<const N: usize>(&self, p: &RulesPosition<N>) -> Option<(usize, u64)> {
        self.locate_hinted(p, &mut TierHint::default())
    }

    /// [`Self::locate`], the tier's lookup skipped where the count vector is
    /// `hint`'s, which then holds this position's.
    ///
    /// Why: a retrograde solve locates every parent of a position, and most
    /// parents have the counts of the one before (a quiet move); the lookup in
    /// the table of tiers was a tenth of Dobutsu's solve.
    #[inline]
    pub(crate) fn locate_hinted<const N: usize>(
        &self,
        p: &RulesPosition<N>,
        hint: &mut TierHint,
    ) -> Option<(usize, u64)> {
        if self.uses_few(p) {
            return self.locate_few(p);
        }
        let packed = p.packed();
        let groups = self.groups;
        let entries = groups + self.slots;
        // The counts, and the code of the count vector on the way.
        let mut counts = [0u8; 64 + MAX_HAND_SLOTS];
        let mut code = 0u64;
        for &q in packed {
            let g = group_of(q);
            counts[g] += 1;
            code = code.wrapping_add(self.strides[g]);
        }
        for slot in 0..self.slots {
            let c = p.in_hand(slot);
            counts[groups + slot] = c;
            code = code.wrapping_add(c as u64 * self.strides[groups + slot]);
        }
        // A count past its limit would alias another vector's code.
        if counts[..entries].iter().zip(&self.limits).any(|(c, l)| c > l) {
            return None;
        }
        let tier = self.tier_of_code_hinted(code, hint)?;
        let info = &self.tiers[tier];
        if self.cells <= 64 && groups <= MASK_GROUPS {
            let rank = self.rank_small(packed, &counts[..groups], info)?;
            let to_move = p.to_move();
            if info.sides >> to_move & 1 == 0 {
                return None;
            }
            return Some((tier, (rank << self.side_shift) + to_move as u64));
        }
        let mut rank: u64 = 0;
        let mut mult: u64 = 1;
        let mut taken = Taken::<N>::new(self.cells, groups);
        let mut i = 0;
        for (g, &count) in counts[..groups].iter().enumerate() {
            let k = count as usize;
            let run = &packed[i..i + k];
            if let Some(pair) = &self.royal_pair {
                if g == pair.first {
                    let (pair_rank, x, y) = pair.digit(packed, &counts[..groups])?;
                    rank += pair_rank * mult;
                    mult = mult.wrapping_mul(info.radices[g]);
                    taken.add(g, x);
                    taken.add(pair.second, y);
                    i += k;
                    continue;
                }
                if g == pair.second {
                    i += k;
                    continue;
                }
            }
            let places = &self.places[g];
            let mut group_rank = 0;
            for (j, &q) in run.iter().enumerate() {
                let cell = cell_of(q);
                let slot = places.slot[cell as usize];
                if slot == u32::MAX {
                    return None;
                }
                group_rank += self.choose(slot - taken.within_below(places, cell), j + 1);
            }
            rank += group_rank * mult;
            mult = mult.wrapping_mul(info.radices[g]);
            taken.add_group(g, run.iter().map(|&q| cell_of(q)), false);
            i += k;
        }
        let to_move = p.to_move();
        if info.sides >> to_move & 1 == 0 {
            return None;
        }
        Some((tier, (rank << self.side_shift) + to_move as u64))
    }

    /// The tier of the count vector with code `code`, `hint`'s if it met that
    /// code last.
    #[inline]
    fn tier_of_code_hinted(&self, code: u64, hint: &mut TierHint) -> Option<usize> {
        match *hint {
            TierHint(Some((known, tier))) if known == code => Some(tier),
            _ => {
                let tier = self.tier_of_code.get(code)?;
                *hint = TierHint(Some((code, tier)));
                Some(tier)
            }
        }
    }

    /// The rank within tier `info` of the pieces `packed` (sorted), `counts` of
    /// each group, on a board of at most 64 cells with at most [`MASK_GROUPS`]
    /// groups: [`Self::locate_hinted`]'s ranks, with the cells taken so far as
    /// 64-bit sets (all of them in a register, each group's in a small array
    /// read only for a group that not every earlier group is within), no
    /// [`Taken`] to set up. `None` where a piece stands off its group's places
    /// or the royal pair has no rank.
    ///
    /// Why: every parent of a retrograde solve is located, and [`Taken`]'s
    /// 128-bit sets and list, set up and stored to for each, were most of the
    /// locating of Dobutsu's parents.
    #[inline]
    fn rank_small(&self, packed: &[u32], counts: &[u8], info: &TierInfo) -> Option<u64> {
        debug_assert!(self.cells <= 64 && counts.len() <= MASK_GROUPS);
        let cells = self.cells as usize;
        let mut masks = [0u64; MASK_GROUPS];
        let mut all = 0u64;
        let (mut rank, mut mult) = (0u64, 1u64);
        let mut i = 0;
        for (g, &count) in counts.iter().enumerate() {
            let run = &packed[i..i + count as usize];
            i += count as usize;
            if let Some(pair) = &self.royal_pair {
                if g == pair.first {
                    let (pair_rank, x, y) = pair.digit(packed, counts)?;
                    rank += pair_rank * mult;
                    mult = mult.wrapping_mul(info.radices[g]);
                    masks[g] = 1 << x;
                    masks[pair.second] = 1 << y;
                    all |= 1 << x | 1 << y;
                    continue;
                }
                if g == pair.second {
                    continue;
                }
            }
            let places = &self.places[g];
            let taken = places.taken_small(&masks, all);
            let slots = &self.slot_of[g * cells..(g + 1) * cells];
            let (mut group_rank, mut mask) = (0u64, 0u64);
            for (j, &q) in run.iter().enumerate() {
                let cell = cell_of(q);
                let slot = slots[cell as usize];
                if slot == u32::MAX {
                    return None;
                }
                let below = (taken & ((1u64 << cell) - 1)).count_ones();
                group_rank += self.choose(slot - below, j + 1);
                mask |= 1 << cell;
            }
            rank += group_rank * mult;
            mult = mult.wrapping_mul(info.radices[g]);
            masks[g] = mask;
            all |= mask;
        }
        Some(rank)
    }

    /// A position's placement ranked group by group, for [`Self::moved_index`]:
    /// `None` where [`Self::locate_hinted`] would not rank it by
    /// [`Self::rank_small`] (more than 64 cells or [`MASK_GROUPS`] groups, or a
    /// few pieces without hands, which [`Self::locate_few`] ranks).
    #[inline]
    pub(crate) fn group_ranks<const N: usize>(&self, p: &RulesPosition<N>, hint: &mut TierHint) -> Option<GroupRanks> {
        if self.cells > 64 || self.groups > MASK_GROUPS || self.uses_few(p) {
            return None;
        }
        let mut masks = [0u64; MASK_GROUPS];
        for &q in p.packed() {
            masks[group_of(q)] |= 1 << cell_of(q);
        }
        let mut hands = [0u8; MAX_HAND_SLOTS];
        for (slot, hand) in hands[..self.slots].iter_mut().enumerate() {
            *hand = p.in_hand(slot);
        }
        Some(self.group_ranks_of_sets(&masks, &hands[..self.slots], hint))
    }

    /// The tier of the counts of the groups on `masks` and of the hands
    /// `hands`, `None` where a count passes its limit (its code would alias
    /// another vector's) or no tier holds them.
    #[inline]
    fn tier_of_sets(&self, masks: &[u64; MASK_GROUPS], hands: &[u8], hint: &mut TierHint) -> Option<usize> {
        let groups = self.groups;
        let mut code = 0u64;
        for (g, mask) in masks[..groups].iter().enumerate() {
            let count = mask.count_ones() as u8;
            if count > self.limits[g] {
                return None;
            }
            code = code.wrapping_add(count as u64 * self.strides[g]);
        }
        for (slot, &hand) in hands.iter().enumerate() {
            if hand > self.limits[groups + slot] {
                return None;
            }
            code = code.wrapping_add(hand as u64 * self.strides[groups + slot]);
        }
        self.tier_of_code_hinted(code, hint)
    }

    /// [`Self::group_ranks`] of the placement whose groups stand on `masks`
    /// (`masks[g]`: group g's cells) with the hand counts `hands` (by slot),
    /// on a board of at most 64 cells with at most [`MASK_GROUPS`] groups
    /// ([`Self::unranks_to_sets`]).
    #[inline]
    pub(crate) fn group_ranks_of_sets(
        &self,
        masks: &[u64; MASK_GROUPS],
        hands: &[u8],
        hint: &mut TierHint,
    ) -> GroupRanks {
        debug_assert!(self.cells <= 64 && self.groups <= MASK_GROUPS && hands.len() == self.slots);
        let groups = self.groups;
        let cells = self.cells as usize;
        let mut ranks = GroupRanks { masks: *masks, ..GroupRanks::default() };
        let Some(tier) = self.tier_of_sets(masks, hands, hint) else {
            // No tier holds the counts, which a quiet move keeps: no such parent
            // has an index.
            return ranks;
        };
        let info = &self.tiers[tier];
        ranks.tier = Some(tier as u32);
        ranks.offset = info.offset;
        ranks.sides = info.sides;
        let mut mult = 1u64;
        for (g, &radix) in info.radices[..groups].iter().enumerate() {
            ranks.mults[g] = mult;
            mult = mult.wrapping_mul(radix);
            if masks[g] != 0 {
                ranks.present |= 1 << g;
            }
        }
        // The cells of the groups ranked so far (the pair's second with its
        // first): what a group all earlier groups lie within counts as taken.
        let mut all = 0u64;
        for g in 0..groups {
            ranks.taken[g] = self.places[g].taken_small(&ranks.masks, all);
            match &self.royal_pair {
                Some(pair) if g == pair.first => all |= ranks.masks[g] | ranks.masks[pair.second],
                Some(pair) if g == pair.second => {}
                _ => all |= ranks.masks[g],
            }
            let digit = match &self.royal_pair {
                Some(pair) if g == pair.first => {
                    pair.rank_at(ranks.masks[g].trailing_zeros(), ranks.masks[pair.second].trailing_zeros())
                }
                Some(pair) if g == pair.second => Some(0),
                _ => self.digit_of(g, ranks.masks[g], ranks.taken[g], cells),
            };
            match digit {
                Some(digit) => {
                    ranks.digits[g] = digit;
                    ranks.rank = ranks.rank.wrapping_add(digit.wrapping_mul(ranks.mults[g]));
                }
                None => ranks.unranked |= 1 << g,
            }
        }
        ranks
    }

    /// The whole-game index of the placement whose groups stand on `masks`
    /// with the hand counts `hands`, `to_move` to move, where
    /// [`Self::unranks_to_sets`]: [`Self::locate_hinted`]'s, `None` where it has
    /// none. [`Self::group_ranks_of_sets`] without keeping the ranks.
    ///
    /// Why: every parent that changes the counts (a capture, a drop, a
    /// promotion undone) is ranked once, and keeping each group's digit,
    /// multiplier and taken cells cost more than the ranking.
    #[inline]
    pub(crate) fn index_of_sets(
        &self,
        masks: &[u64; MASK_GROUPS],
        hands: &[u8],
        to_move: usize,
        hint: &mut TierHint,
    ) -> Option<u64> {
        debug_assert!(self.cells <= 64 && self.groups <= MASK_GROUPS && hands.len() == self.slots);
        let groups = self.groups;
        let tier = self.tier_of_sets(masks, hands, hint)?;
        let info = &self.tiers[tier];
        if info.sides >> to_move & 1 == 0 {
            return None;
        }
        // As `group_ranks_of_sets`: a group's taken cells are those of the
        // groups ranked before it (the pair's second with its first).
        let (mut rank, mut mult, mut all) = (0u64, 1u64, 0u64);
        for (g, &mask) in masks[..groups].iter().enumerate() {
            let digit = match &self.royal_pair {
                Some(pair) if g == pair.first => {
                    let second = masks[pair.second];
                    all |= mask | second;
                    pair.rank_at(mask.trailing_zeros(), second.trailing_zeros())?
                }
                Some(pair) if g == pair.second => 0,
                _ if mask == 0 => 0,
                _ => {
                    let taken = self.places[g].taken_small(masks, all);
                    all |= mask;
                    self.digit_of(g, mask, taken, self.cells as usize)?
                }
            };
            rank = rank.wrapping_add(digit.wrapping_mul(mult));
            mult = mult.wrapping_mul(info.radices[g]);
        }
        Some(info.offset + (rank << self.side_shift) + to_move as u64)
    }

    /// The whole-game index of the position `ranks` ranks with `to_move` to
    /// move: what [`Self::locate_hinted`] gives it, `None` where no tier holds
    /// it, a group has no digit or the tier lacks that side to move.
    #[inline]
    pub(crate) fn ranked_index(&self, ranks: &GroupRanks, to_move: usize) -> Option<u64> {
        ranks.tier?;
        (ranks.unranked == 0 && ranks.sides >> to_move & 1 == 1)
            .then(|| ranks.offset + (ranks.rank << self.side_shift) + to_move as u64)
    }

    /// The index of the position `ranks` ranks ([`Self::group_ranks`]) with the
    /// piece of group `g` on `to` moved to `from` (a quiet move run backwards:
    /// the counts and the hands stay) and `to_move` to move: what
    /// [`Self::locate_hinted`] gives that position, `None` where no tier holds
    /// it. Only group `g`'s digit changes, and the digits of the later groups
    /// that count its cells as taken ([`Self::taken_by`]).
    ///
    /// Why: a retrograde solve locates every parent of a position, and most of a
    /// game with hands' parents are quiet: ranking each from scratch was a
    /// quarter of Dobutsu's solve.
    #[inline]
    pub(crate) fn moved_index(&self, ranks: &GroupRanks, g: usize, from: u32, to: u32, to_move: usize) -> Option<u64> {
        ranks.tier?;
        if ranks.sides >> to_move & 1 == 0 {
            return None;
        }
        let cells = self.cells as usize;
        let moved = 1u64 << from | 1u64 << to;
        let mut unranked = ranks.unranked;
        let mut rank = ranks.rank;
        let mut change = |h: usize, digit: Option<u64>, unranked: &mut u32| {
            if ranks.unranked >> h & 1 == 0 {
                rank = rank.wrapping_sub(ranks.digits[h].wrapping_mul(ranks.mults[h]));
            }
            match digit {
                Some(digit) => {
                    *unranked &= !(1 << h);
                    rank = rank.wrapping_add(digit.wrapping_mul(ranks.mults[h]));
                }
                None => *unranked |= 1 << h,
            }
        };
        match &self.royal_pair {
            Some(pair) if g == pair.first || g == pair.second => {
                let cell = |h: usize| {
                    if h == g {
                        from
                    } else {
                        ranks.masks[h].trailing_zeros()
                    }
                };
                change(pair.first, pair.rank_at(cell(pair.first), cell(pair.second)), &mut unranked);
            }
            _ => change(g, self.digit_of(g, ranks.masks[g] ^ moved, ranks.taken[g], cells), &mut unranked),
        }
        // A later group's piece counts one taken cell more or fewer below it
        // only if it stands between the two cells (neither of which it holds).
        let (low, high) = (from.min(to), from.max(to));
        let between = ((1u64 << high) - 1) & !((2u64 << low) - 1);
        let mut later = self.taken_by[g] & ranks.present as u64;
        while later != 0 {
            let h = later.trailing_zeros() as usize;
            later &= later - 1;
            if ranks.masks[h] & between != 0 {
                change(h, self.digit_of(h, ranks.masks[h], ranks.taken[h] ^ moved, cells), &mut unranked);
            }
        }
        (unranked == 0).then(|| ranks.offset + (rank << self.side_shift) + to_move as u64)
    }

    /// Group `g`'s digit with its pieces on the cells `mask`, those of `taken`
    /// not free: [`Self::rank_small`]'s, `None` where a piece stands off the
    /// group's places.
    #[inline]
    fn digit_of(&self, g: usize, mut mask: u64, taken: u64, cells: usize) -> Option<u64> {
        let slots = &self.slot_of[g * cells..(g + 1) * cells];
        let mut digit = 0u64;
        let mut j = 0;
        while mask != 0 {
            let cell = mask.trailing_zeros();
            mask &= mask - 1;
            let slot = slots[cell as usize];
            if slot == u32::MAX {
                return None;
            }
            // More taken cells below than places: an earlier group's piece
            // stands off its places, and that group has no digit either.
            let below = (taken & ((1u64 << cell) - 1)).count_ones();
            j += 1;
            digit += self.choose(slot.checked_sub(below)?, j);
        }
        Some(digit)
    }

    /// Does [`Self::locate_hinted`] rank `p` by [`Self::locate_few`]?
    #[inline]
    fn uses_few<const N: usize>(&self, p: &RulesPosition<N>) -> bool {
        self.slots == 0 && self.groups <= 64 && p.piece_count() <= FEW_PIECES && self.royal_pair.is_none()
    }

    /// [`Self::locate`] of a position of at most [`FEW_PIECES`] pieces in a game
    /// without hands (of at most 64 groups): the same ranks, in one pass over the
    /// pieces with nothing to set up. Each piece's rank among its group's free
    /// places is its slot less the pieces of earlier groups within the group's
    /// places on cells below it, counted on the list itself (a few pieces: no
    /// [`Taken`] to build); the count vector's code is summed on the way.
    ///
    /// Why: every parent of a retrograde solve is located, and with two pieces
    /// the setting up of the general walk (the count vector, [`Taken`]) was most of
    /// it.
    #[inline]
    fn locate_few<const N: usize>(&self, p: &RulesPosition<N>) -> Option<(usize, u64)> {
        self.locate_pieces(p.packed(), p.to_move())
    }

    /// (tier, index within the tier) of the position of the packed pieces
    /// `packed` (sorted, as a position keeps them; at most [`FEW_PIECES`]) with
    /// `to_move` to move, in a game without hands: [`Self::locate_few`] of a
    /// list that need not be in a position.
    #[inline]
    pub(crate) fn locate_pieces(&self, packed: &[u32], to_move: usize) -> Option<(usize, u64)> {
        debug_assert!(self.slots == 0 && packed.len() <= FEW_PIECES);
        // First the tier: the code of the count vector, each group's run of pieces
        // checked against its limit (a larger count would alias another code).
        let mut code = 0u64;
        let mut run = 0u8;
        let mut last = usize::MAX;
        for &q in packed {
            let g = group_of(q);
            run = if g == last { run + 1 } else { 1 };
            last = g;
            if run > self.limits[g] {
                return None;
            }
            code += self.strides[g];
        }
        let tier = self.tier_of_code.get(code)?;
        if self.tiers[tier].sides >> to_move & 1 == 0 {
            return None;
        }
        // Then the ranks, each group's combined with the radices of the groups
        // before it (a group without pieces has radix C(free, 0) = 1).
        let (mut rank, mut mult) = (0u64, 1u64);
        let mut start = 0;
        while start < packed.len() {
            let g = group_of(packed[start]);
            let end = start + packed[start..].iter().take_while(|&&q| group_of(q) == g).count();
            rank += self.group_rank(packed, start..end)? * mult;
            mult = mult.wrapping_mul(self.radix(tier, g));
            start = end;
        }
        Some((tier, (rank << self.side_shift) + to_move as u64))
    }

    /// The colex rank among its group's free places of a group's run of pieces
    /// `packed[run]` (sorted), the pieces of earlier groups being `packed[..run.start]`
    /// (module docs: each piece's slot less the pieces of earlier groups within
    /// the group's places on cells below it); `None` when a piece stands off the
    /// group's places. Games without hands, of at most 64 groups.
    // Always inlined: it runs for every parent of a step game's retrograde solve,
    // where the call cost as much as the ranking of a group of one piece.
    #[inline(always)]
    pub(crate) fn group_rank(&self, packed: &[u32], run: std::ops::Range<usize>) -> Option<u64> {
        let g = group_of(packed[run.start]);
        let within = self.within_of[g];
        let slots = &self.slot_of[g * self.cells as usize..];
        let mut rank = 0;
        for (j, &q) in packed[run.clone()].iter().enumerate() {
            let cell = cell_of(q);
            let slot = slots[cell as usize];
            if slot == u32::MAX {
                return None;
            }
            let below = if within == 0 {
                0
            } else {
                packed[..run.start].iter().filter(|&&e| within >> group_of(e) & 1 == 1 && cell_of(e) < cell).count()
                    as u32
            };
            // C(n, 1) = n: the first piece needs no table.
            rank += if j == 0 { (slot - below) as u64 } else { self.choose(slot - below, j + 1) };
        }
        Some(rank)
    }

    /// Has no group more than one piece (and the index no hands, at most 64
    /// groups and [`FEW_PIECES`] pieces)? Then [`Self::unrank_singles`] unranks,
    /// and a step game's parents are ranked from their child's ranks.
    #[inline]
    pub fn singles(&self) -> bool {
        self.singles
    }

    /// The number of pieces of each placement of tier `tier` in an index of
    /// [`Self::singles`] (one a group present).
    #[inline]
    pub(crate) fn single_count(&self, tier: usize) -> usize {
        self.tier_present[tier].count_ones() as usize
    }

    /// The groups with pieces in tier `tier`, as a bit set of groups.
    #[inline]
    pub(crate) fn tier_groups(&self, tier: usize) -> u64 {
        self.tier_present[tier]
    }

    /// The group ranks of `index` of tier `tier` in an index of [`Self::singles`],
    /// one a group with a piece, in group order, written to `digits` (room for
    /// the tier's pieces).
    #[inline(always)]
    pub(crate) fn single_ranks<const N: usize>(&self, tier: usize, index: u64, digits: &mut [u64; N]) {
        let base = tier * self.groups;
        let mut rest = index >> self.side_shift;
        let mut present = self.tier_present[tier];
        // Bounded by the room, so that a small room's loop is unrolled.
        for digit in digits.iter_mut() {
            if present == 0 {
                break;
            }
            let g = present.trailing_zeros() as usize;
            present &= present - 1;
            // The last group's rank is what is left: no division.
            *digit = if present == 0 {
                rest
            } else {
                let (quotient, rank) = div_rem(rest, self.tier_radices[base + g], self.tier_magic[base + g]);
                rest = quotient;
                rank
            };
        }
    }

    /// The group ranks after `digits` ([`Self::single_ranks`]) in tier `tier`: the
    /// next placement, the first group counting fastest; false past the last.
    #[inline]
    pub(crate) fn next_single_ranks<const N: usize>(&self, tier: usize, digits: &mut [u64; N]) -> bool {
        let mut present = self.tier_present[tier];
        let mut k = 0;
        while present != 0 {
            let g = present.trailing_zeros() as usize;
            present &= present - 1;
            digits[k] += 1;
            if digits[k] < self.radix(tier, g) {
                return true;
            }
            digits[k] = 0;
            k += 1;
        }
        false
    }

    /// [`Self::unrank_pieces`] in an index of [`Self::singles`], from the group
    /// ranks `digits` of tier `tier` ([`Self::single_ranks`]): the packed pieces
    /// written to the start of `list` (sorted: one piece a group, in group order),
    /// with each piece's group rank and the multiplier of its group written to
    /// `ranks` (the rank within the tier is `Σ rank × multiplier`, module docs);
    /// how many, `None` for a hole.
    ///
    /// A group of one piece ranks the cell's slot among its places less the
    /// pieces of earlier groups within it on slots below (module docs), so the
    /// piece's slot `s` is the least with `s = rank + #{such pieces on slots ≤
    /// s}`: iterated from `s = rank`, it grows to that fixed point, which no
    /// such piece takes (were `s` taken, `s − 1` would be a smaller one). Why not
    /// [`Self::unrank_pieces`]: its bookkeeping for groups of many pieces
    /// ([`Taken`], the combination tables) cost more than the unranking of two
    /// pieces, which every position of a pursuit's retrograde solve needs, and
    /// it does not give the ranks its caller then needs.
    #[inline(always)]
    pub(crate) fn singles_at<const N: usize>(
        &self,
        tier: usize,
        digits: &[u64; N],
        list: &mut [u32; N],
        ranks: &mut [(u64, u64); N],
    ) -> Option<usize> {
        debug_assert!(self.singles);
        let cells = self.cells as usize;
        let mut mult = 1u64;
        let mut present = self.tier_present[tier];
        // Bounded by the room, so that a small room's loop is unrolled.
        for n in 0..N {
            if present == 0 {
                return Some(n);
            }
            let g = present.trailing_zeros() as usize;
            present &= present - 1;
            let rank = digits[n];
            let within = self.within_of[g];
            let mut slot = rank as u32;
            if within != 0 {
                let slots = &self.slot_of[g * cells..];
                let below = |slot: u32| {
                    list[..n]
                        .iter()
                        .filter(|&&q| within >> group_of(q) & 1 == 1 && slots[cell_of(q) as usize] <= slot)
                        .count() as u32
                };
                if N <= 4 {
                    // The iteration grows `s` by at least one each time it does
                    // not stop, and the count below is at most n: n steps reach
                    // the fixed point. Taken without a test, they leave no
                    // branch to mispredict (which piece stands first is a coin
                    // toss from one index to the next).
                    for _ in 0..n {
                        slot = rank as u32 + below(slot);
                    }
                } else {
                    loop {
                        let next = rank as u32 + below(slot);
                        if next == slot {
                            break;
                        }
                        slot = next;
                    }
                }
            }
            let cell = self.place_cells[g * cells + slot as usize];
            // An earlier group not within this one stands there: a hole.
            if list[..n].iter().any(|&q| cell_of(q) == cell) {
                return None;
            }
            list[n] = pack(g, cell);
            ranks[n] = (rank, mult);
            mult = mult.wrapping_mul(self.radix(tier, g));
        }
        debug_assert_eq!(present, 0, "room for every piece of the tier");
        Some(N)
    }

    /// [`Self::singles_at`] of `index` in tier `tier`.
    #[inline(always)]
    pub(crate) fn unrank_singles<const N: usize>(
        &self,
        tier: usize,
        index: u64,
        list: &mut [u32; N],
        ranks: &mut [(u64, u64); N],
    ) -> Option<usize> {
        let mut digits = [0u64; N];
        self.single_ranks(tier, index, &mut digits);
        self.singles_at(tier, &digits, list, ranks)
    }

    /// [`Self::unrank_singles`] of `index` in tier `tier`, which holds exactly
    /// two pieces (one of each of two groups): `None` for a hole.
    ///
    /// The rank within the tier is `r0 + r1 × radix0` (module docs): the first
    /// group's rank is its piece's slot (no group comes before it), the
    /// second's its slot less one where the first piece stands within its
    /// places on a lower slot, so its slot is `r1 + [slot of the first piece ≤
    /// r1]` (the fixed point of [`Self::singles_at`] after its one step). Why
    /// apart: the general unranking's loops over the room and the digits were
    /// a sixth of a pursuit's parent walk.
    #[inline(always)]
    pub(crate) fn unrank_pair(&self, tier: usize, index: u64) -> Option<SinglePair> {
        debug_assert!(self.singles && self.single_count(tier) == 2);
        let cells = self.cells as usize;
        let present = self.tier_present[tier];
        let first = present.trailing_zeros() as usize;
        let second = (present & (present - 1)).trailing_zeros() as usize;
        let at = tier * self.groups + first;
        let radix = self.tier_radices[at];
        let (second_rank, first_rank) = div_rem(index >> self.side_shift, radix, self.tier_magic[at]);
        let first_cell = self.place_cells[first * cells + first_rank as usize];
        let within = self.within_of[second] >> first & 1 == 1;
        let mut slot = second_rank as u32;
        // A cell off the second group's places has slot u32::MAX: never below.
        slot += (within && self.slot_of[second * cells + first_cell as usize] <= slot) as u32;
        let second_cell = self.place_cells[second * cells + slot as usize];
        let pair = (second_cell != first_cell).then_some(SinglePair {
            groups: [first, second],
            cells: [first_cell, second_cell],
            ranks: [first_rank, second_rank],
            radix,
            within,
        });
        // The general unranking, as a check in the tests' builds.
        #[cfg(debug_assertions)]
        {
            let (mut list, mut ranks) = ([0u32; 2], [(0u64, 0u64); 2]);
            let expected = self.unrank_singles(tier, index, &mut list, &mut ranks).map(|_| (list, ranks));
            let got =
                pair.map(|p| ([0, 1].map(|k| pack(p.groups[k], p.cells[k])), [(p.ranks[0], 1), (p.ranks[1], p.radix)]));
            debug_assert_eq!(got, expected, "tier {tier}, index {index}");
        }
        pair
    }

    /// The slot of `cell` among group `g`'s places, `u32::MAX` if it is not one.
    #[inline]
    pub(crate) fn slot(&self, g: usize, cell: u32) -> u32 {
        self.slot_of[g * self.cells as usize + cell as usize]
    }

    /// `C_g` of group `g` in tier `tier` (module docs).
    #[inline]
    pub(crate) fn radix(&self, tier: usize, g: usize) -> u64 {
        self.tier_radices[tier * self.groups + g]
    }

    /// The earlier groups within group `g`'s places, as a bit set of groups
    /// (games of at most 64 groups): moving one of their pieces changes group
    /// `g`'s rank.
    #[inline]
    pub(crate) fn groups_within(&self, g: usize) -> u64 {
        self.within_of[g]
    }

    /// The position at an index of a tier, `None` for a hole.
    pub fn position_in<const N: usize>(&self, tier: usize, index: u64) -> Option<RulesPosition<N>> {
        if self.tiers[tier].sides >> self.side_at(index) & 1 == 0 {
            return None;
        }
        self.pieces_in(tier, index)
    }

    /// The side to move at an index within a tier.
    #[inline]
    pub(crate) fn side_at(&self, index: u64) -> usize {
        (index & self.side_shift as u64) as usize
    }

    /// 1 where an index within a tier is `rank · 2 + side`, 0 where it is
    /// `rank` (the tiers hold one side to move: folded by the side swap).
    #[inline]
    pub(crate) fn side_shift(&self) -> u32 {
        self.side_shift
    }

    /// The symmetries folded (module docs, "Folded by symmetry").
    pub fn folding(&self) -> Folding {
        self.folding
    }

    /// The sides to move a tier's positions have (bit s: side s).
    #[inline]
    pub fn tier_sides(&self, tier: usize) -> u8 {
        self.tiers[tier].sides
    }

    /// The pieces at an index of a tier (with the side to move of the index, even
    /// where the tier has no position with that side to move), `None` where the
    /// pieces are a hole.
    ///
    /// Groups are unranked in group order and each group's cells come out in
    /// increasing order, so the pieces are appended already sorted.
    pub(crate) fn pieces_in<const N: usize>(&self, tier: usize, index: u64) -> Option<RulesPosition<N>> {
        let mut list = [0u32; N];
        let len = self.unrank_pieces(tier, index, &mut list)?;
        let mut hand = 0u64;
        for (slot, &c) in self.tiers[tier].counts[self.groups..].iter().enumerate() {
            hand |= (c as u64) << (4 * slot);
        }
        Some(RulesPosition::from_list(self.side_at(index), hand, list, len))
    }

    /// The packed pieces at an index of a tier written sorted to the start of
    /// `list`, and how many; `None` where the pieces are a hole. [`Self::pieces_in`]
    /// without the position: the list is whole before a position holds it (a
    /// position written piece by piece, then copied, stalled on its last writes).
    pub(crate) fn unrank_pieces<const N: usize>(&self, tier: usize, index: u64, list: &mut [u32; N]) -> Option<usize> {
        if self.cells <= 64 && self.groups <= MASK_GROUPS {
            let len = self.unrank_small(tier, index, list);
            #[cfg(debug_assertions)]
            {
                let mut general = [0u32; N];
                let expected = self.unrank_general(tier, index, &mut general);
                debug_assert_eq!(len, expected, "the 64-bit unranking finds the same holes");
                debug_assert_eq!(list[..len.unwrap_or(0)], general[..len.unwrap_or(0)], "and the same pieces");
            }
            return len;
        }
        self.unrank_general(tier, index, list)
    }

    /// [`Self::unrank_pieces`] on any board, [`Taken`] keeping the cells taken.
    fn unrank_general<const N: usize>(&self, tier: usize, index: u64, list: &mut [u32; N]) -> Option<usize> {
        let info = &self.tiers[tier];
        let mut len = 0;
        let mut rest = index >> self.side_shift;
        let mut taken = Taken::<N>::new(self.cells, self.groups);
        let mut ranks = [0u32; N];
        for (g, &c) in info.counts[..self.groups].iter().enumerate() {
            let k = c as usize;
            if k == 0 {
                continue;
            }
            let places = &self.places[g];
            let radix = info.radices[g];
            let group_rank = rest % radix;
            rest /= radix;
            if let Some(pair) = &self.royal_pair {
                if g == pair.first {
                    let (x, y) = pair.cells_of[group_rank as usize];
                    list[len] = pack(g, x);
                    len += 1;
                    taken.add(g, x);
                    taken.add(pair.second, y);
                    continue;
                }
                if g == pair.second {
                    // Placed with the first: it comes here in the sorted list.
                    let y = (taken.masks[g]).trailing_zeros();
                    list[len] = pack(g, y);
                    len += 1;
                    continue;
                }
            }
            if let Some(table) = info.cell_tables[g] {
                let mask = self.cell_sets[table as usize][group_rank as usize];
                if !taken.add_mask(g, mask, !places.all_within) {
                    return None; // an earlier group not within stands there: a hole
                }
                let mut bits = mask;
                while bits != 0 {
                    list[len] = pack(g, bits.trailing_zeros());
                    len += 1;
                    bits &= bits - 1;
                }
                continue;
            }
            // The ranks among the free places, increasing.
            self.combination(info, g, group_rank, &mut ranks[..k]);
            // The cells of a group are found among the places left free before any
            // is taken: a group's own cells do not shift each other.
            let start = len;
            taken.free_places(places, &ranks[..k], |cell| {
                list[len] = pack(g, cell);
                len += 1;
            });
            let cells = list[start..len].iter().map(|&q| cell_of(q));
            if !taken.add_group(g, cells, !places.all_within) {
                return None; // an earlier group not within stands there: a hole
            }
        }
        Some(len)
    }

    /// The ranks among its free places of group `g`'s pieces in the tier `info`,
    /// increasing, from the group's digit `group_rank` (colex): one table load
    /// where the group has a table in the tier, else a search a piece.
    #[inline]
    fn combination(&self, info: &TierInfo, g: usize, mut group_rank: u64, ranks: &mut [u32]) {
        let k = ranks.len();
        if let Some(table) = info.tables[g] {
            let mut set = self.combinations[table as usize][group_rank as usize];
            for rank in ranks {
                *rank = set.trailing_zeros();
                set &= set - 1;
            }
            return;
        }
        // Colex unranking: the largest r with C(r, i) ≤ what is left, for i = k..1.
        let mut hi = info.free[g];
        for i in (1..=k).rev() {
            let r = if i == 1 {
                // C(r, 1) = r: what is left is the rank itself.
                group_rank as u32
            } else {
                // Binary search for the last r in [i − 1, hi) with C(r, i) ≤ what
                // is left (C(r, i) grows with r; C(i − 1, i) = 0 always fits),
                // its step a select the compiler keeps free of branches: the
                // comparisons are unpredictable.
                let row = &self.binomial[i * (self.cells as usize + 1)..];
                let mut lo = i as u32 - 1;
                let mut len = hi - lo;
                while len > 1 {
                    let half = len / 2;
                    let fits = row[(lo + half) as usize] <= group_rank;
                    lo = std::hint::select_unpredictable(fits, lo + half, lo);
                    len -= half;
                }
                lo
            };
            group_rank -= self.choose(r, i);
            ranks[i - 1] = r;
            hi = r;
        }
    }

    /// [`Self::unrank_pieces`] on a board of at most 64 cells with at most
    /// [`MASK_GROUPS`] groups: the same list, with the cells taken so far as
    /// 64-bit sets in registers (no [`Taken`] to set up) and the tier's radices
    /// divided by multiplications ([`div_rem`]) where the rank fits in 32 bits.
    ///
    /// Why: every position retrograde propagates from is unranked, and the
    /// general walk's set-up and divisions were a tenth of Dobutsu's solve.
    #[inline]
    fn unrank_small<const N: usize>(&self, tier: usize, index: u64, list: &mut [u32; N]) -> Option<usize> {
        let mut len = 0;
        let placed = self.unrank_small_groups::<N>(tier, index, |g, mut bits| {
            while bits != 0 {
                list[len] = pack(g, bits.trailing_zeros());
                len += 1;
                bits &= bits - 1;
            }
        });
        placed.then_some(len)
    }

    /// The cells of each group at an index of a tier as 64-bit sets
    /// (`masks[g]`, bit c for cell c; every other entry 0), on a board of at
    /// most 64 cells with at most [`MASK_GROUPS`] groups ([`Self::unranks_to_sets`]):
    /// [`Self::unrank_pieces`] without the list. False where the index is a hole.
    #[inline]
    pub(crate) fn unrank_sets<const N: usize>(&self, tier: usize, index: u64, masks: &mut [u64; MASK_GROUPS]) -> bool {
        *masks = [0; MASK_GROUPS];
        let placed = self.unrank_small_groups::<N>(tier, index, |g, cells| masks[g] = cells);
        #[cfg(debug_assertions)]
        {
            let mut general = [0u32; N];
            let len = self.unrank_general(tier, index, &mut general);
            debug_assert_eq!(placed, len.is_some(), "the sets find the same holes");
            if let Some(len) = len {
                let mut sets = [0u64; MASK_GROUPS];
                general[..len].iter().for_each(|&q| sets[group_of(q)] |= 1 << cell_of(q));
                debug_assert_eq!(*masks, sets, "and the same cells");
            }
        }
        placed
    }

    /// Does [`Self::unrank_sets`] unrank this index, and
    /// [`Self::group_ranks_of_sets`] and [`Self::index_of_sets`] rank every
    /// placement of it (at most 64 cells and [`MASK_GROUPS`] groups)? The
    /// placements [`Self::locate_few`] ranks get the same ranks from the sets:
    /// it is a shortcut to the general walk's numbers, not another numbering.
    pub(crate) fn unranks_to_sets(&self) -> bool {
        self.cells <= 64 && self.groups <= MASK_GROUPS
    }

    /// The walk of [`Self::unrank_small`] and [`Self::unrank_sets`]: calls
    /// `placed(g, cells)` with the cells of each group that has pieces in the
    /// tier, in group order (the royal pair's second group in its own turn);
    /// false where the index is a hole (some groups may have been placed).
    /// No group has more than `N` pieces.
    #[inline(always)]
    fn unrank_small_groups<const N: usize>(&self, tier: usize, index: u64, mut placed: impl FnMut(usize, u64)) -> bool {
        debug_assert!(self.cells <= 64 && self.groups <= MASK_GROUPS);
        let info = &self.tiers[tier];
        let groups = self.groups;
        let magics = &self.tier_magic[tier * groups..][..groups];
        let mut masks = [0u64; MASK_GROUPS];
        let mut all = 0u64;
        let mut rest = index >> self.side_shift;
        let mut ranks = [0u32; N];
        for (g, &count) in info.counts[..groups].iter().enumerate() {
            let k = count as usize;
            if k == 0 {
                continue;
            }
            let (quotient, group_rank) = div_rem(rest, info.radices[g], magics[g]);
            rest = quotient;
            if let Some(pair) = &self.royal_pair {
                if g == pair.first {
                    let (x, y) = pair.cells_of[group_rank as usize];
                    placed(g, 1 << x);
                    masks[g] = 1 << x;
                    masks[pair.second] = 1 << y;
                    all |= 1 << x | 1 << y;
                    continue;
                }
                if g == pair.second {
                    // Placed with the first: it comes here in group order.
                    placed(g, masks[g]);
                    continue;
                }
            }
            let places = &self.places[g];
            let mask = match info.cell_tables[g] {
                Some(table) => self.cell_sets[table as usize][group_rank as usize] as u64,
                None => {
                    let taken = places.taken_small(&masks, all);
                    self.combination(info, g, group_rank, &mut ranks[..k]);
                    // The ranked places among the free ones, picked in one walk.
                    let mut free = places.mask as u64 & !taken;
                    let (mut at, mut mask) = (0u32, 0u64);
                    for &rank in &ranks[..k] {
                        while at < rank {
                            free &= free - 1;
                            at += 1;
                        }
                        mask |= free & free.wrapping_neg();
                    }
                    mask
                }
            };
            if mask & all != 0 {
                return false; // an earlier group not within stands there: a hole
            }
            placed(g, mask);
            masks[g] = mask;
            all |= mask;
        }
        true
    }

    /// The whole-game index of a position.
    pub fn index<const N: usize>(&self, p: &RulesPosition<N>) -> Option<u64> {
        self.locate(p).map(|(t, i)| self.tiers[t].offset + i)
    }

    /// The position at a whole-game index, `None` for a hole.
    pub fn position<const N: usize>(&self, index: u64) -> Option<RulesPosition<N>> {
        let tier = self.tier_at(index);
        self.position_in(tier, index - self.tiers[tier].offset)
    }

    /// Can [`Self::locate_pieces`] rank this index's positions of up to `pieces`
    /// pieces (no hands, at most 64 groups)?
    pub(crate) fn locates_pieces(&self, pieces: usize) -> bool {
        self.slots == 0 && self.groups <= 64 && pieces <= FEW_PIECES
    }

    /// The tier holding a whole-game index.
    #[inline]
    pub(crate) fn tier_at(&self, index: u64) -> usize {
        // A few tiers (the pursuits have one to four) are counted without a
        // branch: a binary search's branches follow the index, which a
        // retrograde solve takes at random.
        if self.offsets.len() <= 8 {
            return self.offsets.iter().map(|&offset| (offset <= index) as usize).sum::<usize>() - 1;
        }
        self.offsets.partition_point(|&offset| offset <= index) - 1
    }
}

/// The count vectors (board counts, then hand counts) a game with drops reaches
/// from `floor` with at most `cells` pieces on the board, each with the sides to
/// move it is reached with (bit s: side s): explored by (counts, side to move)
/// from either side to move. A side's turn keeps the counts (a piece moves, or the
/// side passes) where it has a piece that moves or stays; a move may promote the
/// piece (a piece from its group to the promoted one) and capture (a piece less of
/// an enemy group, and one more in the captor's hand where captured pieces go
/// there); or it drops a piece (one more of a droppable group, one less in hand
/// where it comes from a hand). Where every turn is a drop the two
/// sides' counts stay within one of each other, and which side is to move follows
/// from the counts: tic-tac-toe's 3×3 board has 15 tiers, not 55, and half their
/// entries are holes (the other side to move).
fn reachable_counts(tables: &Tables, floor: &[u8], cells: u32) -> Vec<(Vec<u8>, u8)> {
    let mut seen: std::collections::HashSet<(Vec<u8>, usize)> = std::collections::HashSet::new();
    let mut stack = vec![(floor.to_vec(), 0usize), (floor.to_vec(), 1usize)];
    while let Some((v, side)) = stack.pop() {
        if seen.contains(&(v.clone(), side)) {
            continue;
        }
        for w in count_successors(tables, &v, side, cells) {
            stack.push((w, 1 - side));
        }
        seen.insert((v, side));
    }
    let mut sides: std::collections::BTreeMap<Vec<u8>, u8> = std::collections::BTreeMap::new();
    for (v, side) in seen {
        *sides.entry(v).or_default() |= 1 << side;
    }
    sides.into_iter().collect()
}

/// The count vectors one turn of `side` can lead to from `v` (see
/// [`reachable_counts`]), `v` itself where a move keeps the counts.
pub(crate) fn count_successors(tables: &Tables, v: &[u8], side: usize, cells: u32) -> Vec<Vec<u8>> {
    let groups = tables.groups();
    let board = tables.board();
    let rules = tables.rules();
    let mut out = Vec::new();
    let quiet = board.groups.iter().any(|g| {
        let kind = &rules.kinds[g.kind];
        g.side == side && (kind.stay || !kind.moves.is_empty())
    });
    let captures = rules.has_captures();
    let total: u32 = v[..groups].iter().map(|&c| c as u32).sum();
    if quiet {
        // The mover: unchanged, or a piece of a group that promotes.
        let promoting = (0..groups)
            .filter(|&g| board.groups[g].side == side && v[g] > 0 && tables.promotion(g).is_some())
            .map(Some);
        let movers: Vec<Option<usize>> = std::iter::once(None).chain(promoting).collect();
        for mover in movers {
            let mut w = v.to_vec();
            if let Some(g) = mover {
                let to = tables.promotion(g).map_or(g, |p| p.group);
                w[g] -= 1;
                if w[to] == u8::MAX {
                    continue;
                }
                w[to] += 1;
            }
            out.push(w.clone());
            if !captures {
                continue;
            }
            for h in 0..groups {
                if board.groups[h].side == side || w[h] == 0 {
                    continue;
                }
                let mut x = w.clone();
                x[h] -= 1;
                let slot = tables.captured_to_hand(h);
                if slot != NO_SLOT {
                    if x[groups + slot as usize] == 15 {
                        continue;
                    }
                    x[groups + slot as usize] += 1;
                }
                out.push(x);
            }
        }
    }
    for g in 0..groups {
        let Some(drop) = tables.drop_targets(g) else { continue };
        if board.groups[g].side != side || total >= cells || v[g] == u8::MAX {
            continue;
        }
        let mut w = v.to_vec();
        if drop.from_hand {
            let slot = groups + tables.hand_slot_of(g) as usize;
            if w[slot] == 0 {
                continue;
            }
            w[slot] -= 1;
        }
        w[g] += 1;
        out.push(w);
    }
    out
}

/// The count vectors of a game without drops: every one up to the limits where
/// pieces can be captured, else the limits alone (no move changes the counts);
/// both sides to move each.
fn count_vectors(limits: &[u8], captures: bool) -> Vec<(Vec<u8>, u8)> {
    if !captures {
        return vec![(limits.to_vec(), 3)];
    }
    let mut out = Vec::new();
    let mut v = vec![0u8; limits.len()];
    loop {
        out.push((v.clone(), 3));
        // The next vector, the first group counting fastest.
        let mut g = 0;
        while g < v.len() && v[g] == limits[g] {
            v[g] = 0;
            g += 1;
        }
        if g == v.len() {
            return out;
        }
        v[g] += 1;
    }
}

/// Does every count vector with the second side to move have its image under
/// the side swap among the vectors, with the first side to move? Then the
/// second side's positions can be kept as their images.
fn swap_closed(swap: &Symmetry, groups: usize, vectors: &[(Vec<u8>, u8)]) -> bool {
    let first: std::collections::HashSet<&[u8]> =
        vectors.iter().filter(|(_, sides)| sides & 1 == 1).map(|(v, _)| &v[..]).collect();
    vectors.iter().filter(|(_, sides)| sides & 2 == 2).all(|(v, _)| first.contains(&swap.counts_image(v, groups)[..]))
}

/// The mixed-radix code of a count vector.
fn code(limits: &[u8], counts: &[u8]) -> u64 {
    let mut code = 0u64;
    for (g, &c) in counts.iter().enumerate().rev() {
        code = code * (limits[g] as u64 + 1) + c as u64;
    }
    code
}

/// The multiplier of [`div_rem`] for a divisor `d`: ⌈2^64 / d⌉ for `d` from 2
/// to 2^32 − 1, else 0 (divide).
fn magic(d: u64) -> u64 {
    if (2..1 << 32).contains(&d) {
        u64::MAX / d + 1
    } else {
        0
    }
}

/// `(x / d, x % d)`, with `magic` = [`magic`]`(d)`: by multiplications where `x`
/// and `d` fit in 32 bits (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019: with 64 fractional bits, exact for every 32-bit `x` and
/// `d`), else by division. Why: a pursuit's retrograde solve unranks every
/// position it decides, and the division was the slowest step of it.
#[inline(always)]
fn div_rem(x: u64, d: u64, magic: u64) -> (u64, u64) {
    if magic != 0 && x < 1 << 32 {
        let quotient = ((magic as u128 * x as u128) >> 64) as u64;
        let remainder = ((magic.wrapping_mul(x) as u128 * d as u128) >> 64) as u64;
        (quotient, remainder)
    } else {
        (x / d, x % d)
    }
}

/// C(n, k), saturating at `u64::MAX`.
fn binomial(n: u64, k: u64) -> u64 {
    binomial_exact(n, k).map_or(u64::MAX, |b| b.min(u64::MAX as u128) as u64)
}

/// C(n, k) exactly, `None` past 2^127.
fn binomial_exact(n: u64, k: u64) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = r.checked_mul((n - i) as u128)? / (i as u128 + 1);
    }
    Some(r)
}

/// Each group's places: every cell but those where one of its pieces ends the
/// game the moment it stands there; then which earlier groups lie within.
fn group_places(tables: &Tables, groups: usize, keep: impl Fn(usize, u32) -> bool) -> Vec<Places> {
    let cells = tables.board().cells() as u32;
    let mut out: Vec<Places> = Vec::with_capacity(groups);
    for g in 0..groups {
        let list: Vec<u32> = (0..cells).filter(|&c| !tables.endings().ends_on_arrival(g, c) && keep(g, c)).collect();
        let places = Places::of(list, cells as usize, &out);
        out.push(places);
    }
    out
}

/// The most pieces of a position [`PlacementIndex::locate_few`] ranks.
pub(crate) const FEW_PIECES: usize = 16;

/// The most groups whose cells [`Taken`] keeps as bit sets.
pub(crate) const MASK_GROUPS: usize = 16;

/// The cells earlier groups took, by group: how many of those within a group lie
/// below a cell, which free place has a given rank, whether a cell is taken. Bit
/// sets on boards of up to 128 cells (and up to [`MASK_GROUPS`] groups), a short
/// sorted list of room `N` beyond. Built for every index ranked or unranked: small
/// enough to be cheap to start.
struct Taken<const N: usize> {
    small: bool,
    /// Small boards: each group's cells, and all of them.
    masks: [u128; MASK_GROUPS],
    all: u128,
    /// Large boards: (cell, group), sorted by cell.
    list: [(u32, u8); N],
    len: usize,
}

impl<const N: usize> Taken<N> {
    fn new(cells: u32, groups: usize) -> Self {
        let small = cells <= 128 && groups <= MASK_GROUPS;
        Taken { small, masks: [0; MASK_GROUPS], all: 0, list: [(0, 0); N], len: 0 }
    }

    /// The cells taken by groups within `places`, as a bit set (small boards).
    #[inline]
    fn within_mask(&self, places: &Places) -> u128 {
        // Every group taken so far is within (the usual case): all of them.
        if places.all_within {
            return self.all;
        }
        let mut m = places.pair_within.map_or(0, |h| self.masks[h]);
        for (h, &w) in places.within.iter().enumerate() {
            if w {
                m |= self.masks[h];
            }
        }
        m
    }

    /// How many cells below `cell` groups within `places` took.
    #[inline]
    fn within_below(&self, places: &Places, cell: u32) -> u32 {
        if self.small {
            (self.within_mask(places) & ((1u128 << cell) - 1)).count_ones()
        } else {
            let below = self.list[..self.len].partition_point(|&(c, _)| c < cell);
            if places.all_within {
                below as u32
            } else {
                self.list[..below].iter().filter(|&&(_, h)| places.within[h as usize]).count() as u32
            }
        }
    }

    /// Adds a group's cells; with `exclusive`, first checks that no earlier
    /// group holds one of them, and adds nothing (false) if one does.
    ///
    /// On small boards the group's cells are gathered in a register and stored
    /// whole: setting the 128-bit masks one bit at a time in memory wrote parts of
    /// them that the next read had to wait for (a store-forwarding stall that was a
    /// third of unranking in the pawns' sweeps).
    #[inline]
    fn add_group(&mut self, group: usize, cells: impl Iterator<Item = u32> + Clone, exclusive: bool) -> bool {
        if self.small {
            let mask = cells.fold(0u128, |m, cell| m | 1u128 << cell);
            if exclusive && mask & self.all != 0 {
                return false;
            }
            self.masks[group] |= mask;
            self.all |= mask;
        } else {
            if exclusive && cells.clone().any(|cell| self.holds(cell)) {
                return false;
            }
            cells.for_each(|cell| self.add(group, cell));
        }
        true
    }

    /// [`Self::add_group`] for a bit set of cells (small boards only).
    #[inline]
    fn add_mask(&mut self, group: usize, mask: u128, exclusive: bool) -> bool {
        debug_assert!(self.small);
        if exclusive && mask & self.all != 0 {
            return false;
        }
        self.masks[group] |= mask;
        self.all |= mask;
        true
    }

    /// Adds one cell (large boards: the sorted list).
    #[inline]
    fn add(&mut self, group: usize, cell: u32) {
        if self.small {
            self.masks[group] |= 1u128 << cell;
            self.all |= 1u128 << cell;
        } else {
            // Insertion by hand: a few entries, where `copy_within` calls `memmove`.
            let mut at = self.len;
            while at > 0 && self.list[at - 1].0 > cell {
                self.list[at] = self.list[at - 1];
                at -= 1;
            }
            self.list[at] = (cell, group as u8);
            self.len += 1;
        }
    }

    /// Is `cell` taken by any earlier group?
    #[inline]
    fn holds(&self, cell: u32) -> bool {
        if self.small {
            self.all >> cell & 1 == 1
        } else {
            self.list[..self.len].iter().any(|&(c, _)| c == cell)
        }
    }

    /// Calls `f` with the cell of each of `ranks` (increasing) among the places
    /// that groups within `places` left free.
    #[inline]
    fn free_places(&self, places: &Places, ranks: &[u32], mut f: impl FnMut(u32)) {
        if self.small {
            let mut free = places.mask & !self.within_mask(places);
            // Walk the free places once, in order, picking the ranked ones.
            let mut at = 0u32;
            for &rank in ranks {
                while at < rank {
                    free &= free - 1;
                    at += 1;
                }
                f(free.trailing_zeros());
            }
        } else {
            for &rank in ranks {
                let mut slot = rank;
                for &(c, h) in &self.list[..self.len] {
                    if places.all_within || places.within[h as usize] {
                        if places.slot[c as usize] <= slot {
                            slot += 1;
                        } else {
                            break;
                        }
                    }
                }
                f(places.cells[slot as usize]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sparse tier table finds what was put in and nothing else, with codes
    /// that collide in their home slot (multiples of a power of two) and spread ones.
    #[test]
    fn sparse_tier_table_finds_exactly_its_codes() {
        for tiers in [1usize, 2, 3, 100, 2100, 8400] {
            let mut table = SparseTiers::new(tiers);
            let mut wanted = std::collections::HashMap::new();
            let mut state = 0x2545_f491_4f6c_dd1du64 ^ tiers as u64;
            for t in 0..tiers {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let code = if t % 2 == 0 { (t as u64) << 40 } else { state % (u64::MAX - 1) };
                table.insert(code, t as u32);
                wanted.insert(code, t);
            }
            for (&code, &t) in &wanted {
                assert_eq!(table.get(code), Some(t), "{tiers} tiers: code {code}");
            }
            for probe in 0..10_000u64 {
                let code = probe.wrapping_mul(0x1234_5678_9abc_def1) >> 3;
                assert_eq!(table.get(code), wanted.get(&code).copied(), "{tiers} tiers: code {code}");
            }
        }
    }

    /// Division by multiplication gives what `/` and `%` give, for divisors and
    /// dividends at the edges of 32 bits and at random.
    #[test]
    fn division_by_multiplication_is_exact() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let edges = [0u64, 1, 2, 3, 7, 399, 65_535, 65_536, (1 << 31) - 1, 1 << 31, (1 << 32) - 2, (1 << 32) - 1];
        let mut divisors: Vec<u64> = edges.iter().copied().filter(|&d| d > 0).collect();
        divisors.extend([1 << 32, (1 << 32) + 1, u64::MAX]);
        divisors.extend((0..200).map(|_| 1 + next() % ((1 << 32) - 1)));
        divisors.extend((0..200).map(|_| 1 + next() % 1000));
        for &d in &divisors {
            let mut xs: Vec<u64> = edges.to_vec();
            xs.extend([d - 1, d, d.wrapping_add(1), 1 << 32, u64::MAX]);
            xs.extend((0..200).map(|_| next() % (1 << 32)));
            for x in xs {
                assert_eq!(div_rem(x, d, magic(d)), (x / d, x % d), "{x} / {d}");
            }
        }
    }

    /// The tables hold every combination once, in colex order: the rank of the
    /// entry at `i` (Σ C(r_j, j + 1)) is `i`.
    #[test]
    fn colex_tables_list_every_combination_in_rank_order() {
        for n in 2..=14u32 {
            for k in 2..=n.min(6) {
                let table = colex_table(n, k);
                assert_eq!(table.len() as u128, binomial_exact(n as u64, k as u64).unwrap(), "C({n}, {k})");
                for (i, &set) in table.iter().enumerate() {
                    assert_eq!(set.count_ones(), k);
                    assert!(set >> n == 0);
                    let mut rank = 0u64;
                    let mut bits = set;
                    let mut j = 0;
                    while bits != 0 {
                        rank += binomial(bits.trailing_zeros() as u64, j + 1);
                        bits &= bits - 1;
                        j += 1;
                    }
                    assert_eq!(rank, i as u64, "C({n}, {k}) entry {i}");
                }
            }
        }
        // All 64 cells: the last combination ends the walk.
        assert_eq!(colex_table(64, 63).len(), 64);
    }
}
