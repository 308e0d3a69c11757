//! Tiers: the count vectors an index holds, in what order, and how a count vector finds its tier.

use crate::compiled::symmetry::Symmetry;
use crate::compiled::tables::{Tables, NO_SLOT};

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
    pub(super) radices: Vec<u64>,
    /// `free_g` of each group (see the module docs).
    pub(super) free: Vec<u32>,
    /// For each group, its table in [`PlacementIndex::combinations`], if it has one.
    pub(super) tables: Vec<Option<u32>>,
    /// For each group, its table in [`PlacementIndex::cell_sets`], if it has one.
    pub(super) cell_tables: Vec<Option<u32>>,
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

/// The last count vector's code and tier met by [`PlacementIndex::locate_hinted`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TierHint(pub(super) Option<(u64, usize)>);

/// Tiers by the mixed-radix code of their counts: a table where the codes are few,
/// else a hash table (games with hands have many codes and few tiers).
#[derive(Clone, Debug)]
pub(super) enum TierLookup {
    /// `u32::MAX`: not a tier.
    Dense(Vec<u32>),
    Sparse(SparseTiers),
}

impl TierLookup {
    #[inline]
    pub(super) fn get(&self, code: u64) -> Option<usize> {
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
/// SipHash was a large part of Dobutsu's solve.
#[derive(Clone, Debug)]
pub(super) struct SparseTiers {
    /// `(code, tier)`; code `u64::MAX` (never a code: codes are below the product
    /// of the radices, which fits in 64 bits) marks an empty slot.
    pub(super) slots: Vec<(u64, u32)>,
    pub(super) shift: u32,
}

impl SparseTiers {
    pub(super) fn new(tiers: usize) -> Self {
        let bits = (2 * tiers.max(1)).next_power_of_two().trailing_zeros().max(1);
        SparseTiers { slots: vec![(u64::MAX, 0); 1 << bits], shift: 64 - bits }
    }

    #[inline]
    pub(super) fn home(&self, code: u64) -> usize {
        (code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    pub(super) fn insert(&mut self, code: u64, tier: u32) {
        let mask = self.slots.len() - 1;
        let mut at = self.home(code);
        while self.slots[at].0 != u64::MAX && self.slots[at].0 != code {
            at = (at + 1) & mask;
        }
        self.slots[at] = (code, tier);
    }

    #[inline]
    pub(super) fn get(&self, code: u64) -> Option<usize> {
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
pub(super) fn reachable_counts(tables: &Tables, floor: &[u8], cells: u32) -> Vec<(Vec<u8>, u8)> {
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
pub(super) fn count_vectors(limits: &[u8], captures: bool) -> Vec<(Vec<u8>, u8)> {
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
pub(super) fn swap_closed(swap: &Symmetry, groups: usize, vectors: &[(Vec<u8>, u8)]) -> bool {
    let first: std::collections::HashSet<&[u8]> =
        vectors.iter().filter(|(_, sides)| sides & 1 == 1).map(|(v, _)| &v[..]).collect();
    vectors.iter().filter(|(_, sides)| sides & 2 == 2).all(|(v, _)| first.contains(&swap.counts_image(v, groups)[..]))
}

/// The mixed-radix code of a count vector.
pub(super) fn code(limits: &[u8], counts: &[u8]) -> u64 {
    let mut code = 0u64;
    for (g, &c) in counts.iter().enumerate().rev() {
        code = code * (limits[g] as u64 + 1) + c as u64;
    }
    code
}
