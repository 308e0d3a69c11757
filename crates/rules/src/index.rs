//! The dense index of a rules game without trails: positions ranked by where the
//! pieces of each group stand, in tiers by how many pieces of each group are left.
//!
//! A tier is a count vector `counts[g]` (pieces of group g on the board). Within a
//! tier, group g's cells are ranked as a combination of the cells the earlier groups
//! left free, so no two pieces ever share a cell and every index is a position:
//!
//! ```text
//!   free_g   = cells − (counts[0] + … + counts[g−1])
//!   rank_g   = Σ_i C(r_i, i + 1)     r_0 < r_1 < …: the group's cells, each counted
//!                                     among the cells earlier groups left free (colex)
//!   in tier  = (rank_0 + C_0·(rank_1 + C_1·(rank_2 + …))) · 2 + side to move
//!              where C_g = C(free_g, counts[g])
//!   index    = offset[tier] + in tier            (whole-game index, tiers in order)
//! ```
//! Tiers come in order of total pieces, fewest first: a capture leaves a tier for
//! one with a piece fewer, which is therefore solved earlier.

use crate::game::RulesGame;
use crate::position::{cell_of, group_of, pack, RulesPosition};

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
    /// Its first whole-game index.
    pub offset: u64,
    /// Its number of positions.
    pub size: u64,
    /// `C_g` of each group (see the module docs).
    radices: Vec<u64>,
}

/// The index.
#[derive(Clone, Debug)]
pub struct PlacementIndex {
    cells: u32,
    limits: Vec<u8>,
    tiers: Vec<TierInfo>,
    /// Tier number by the mixed-radix code of its counts (`u32::MAX`: not a tier).
    tier_of_code: Vec<u32>,
    /// `binomial[k * (cells + 1) + n]` = C(n, k), saturating, for k ≤ the largest
    /// limit: one flat table, one load a lookup.
    binomial: Vec<u64>,
    size: u64,
}

impl PlacementIndex {
    /// The index of `game` for up to `limits[g]` pieces of group g; an error says why
    /// the game is too big.
    pub(crate) fn new(game: &RulesGame, limits: &[u8]) -> Result<PlacementIndex, String> {
        let cells = game.board.cells() as u32;
        let groups = limits.len();
        let max_k = limits.iter().copied().max().unwrap_or(0) as usize;
        let binomial: Vec<u64> =
            (0..=max_k).flat_map(|k| (0..=cells as u64).map(move |n| binomial(n, k as u64))).collect();
        let codes: u128 = limits.iter().map(|&l| l as u128 + 1).product();
        if codes > MAX_TIERS as u128 {
            return Err(format!("{codes} piece counts to tier, more than {MAX_TIERS}"));
        }
        // Count vectors: every one up to the limits where pieces can be captured,
        // else the limits alone (no move changes the counts).
        let captures = game.rules.has_captures();
        let mut vectors: Vec<Vec<u8>> = Vec::new();
        let mut v = vec![0u8; groups];
        loop {
            if captures || v == limits {
                vectors.push(v.clone());
            }
            let mut g = 0;
            loop {
                if g == groups {
                    break;
                }
                v[g] += 1;
                if v[g] <= limits[g] {
                    break;
                }
                v[g] = 0;
                g += 1;
            }
            if g == groups {
                break;
            }
        }
        vectors.retain(|v| v.iter().map(|&c| c as u32).sum::<u32>() <= cells);
        vectors
            .sort_by_key(|v| (v.iter().map(|&c| c as u32).sum::<u32>(), v.iter().rev().copied().collect::<Vec<_>>()));
        let mut tier_of_code = vec![u32::MAX; codes as usize];
        let mut tiers = Vec::new();
        let mut offset: u128 = 0;
        for counts in vectors {
            let mut free = cells as u64;
            let mut size: u128 = 2;
            let mut radices = Vec::with_capacity(groups);
            for &c in &counts {
                let r = binomial_exact(free, c as u64).ok_or("the index overflows 64 bits")?;
                radices.push(r as u64);
                size = size.saturating_mul(r);
                free -= c as u64;
            }
            if offset + size > MAX_INDEX as u128 {
                return Err(format!(
                    "the index would have more than 2^62 positions (tier {counts:?} alone has {size})"
                ));
            }
            tier_of_code[code(limits, &counts)] = tiers.len() as u32;
            tiers.push(TierInfo { counts, offset: offset as u64, size: size as u64, radices });
            offset += size;
        }
        Ok(PlacementIndex { cells, limits: limits.to_vec(), tiers, tier_of_code, binomial, size: offset as u64 })
    }

    /// The piece limits.
    pub fn limits(&self) -> &[u8] {
        &self.limits
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
        if counts.iter().zip(&self.limits).any(|(c, l)| c > l) {
            return None;
        }
        let t = self.tier_of_code[code(&self.limits, counts)];
        (t != u32::MAX).then_some(t as usize)
    }

    #[inline]
    fn choose(&self, n: u32, k: usize) -> u64 {
        self.binomial[k * (self.cells as usize + 1) + n as usize]
    }

    /// (tier, index within the tier) of a position, `None` if no tier holds it.
    pub fn locate<const N: usize>(&self, p: &RulesPosition<N>) -> Option<(usize, u64)> {
        let packed = p.packed();
        let groups = self.limits.len();
        let mut counts = [0u8; 64];
        for &q in packed {
            counts[group_of(q)] += 1;
        }
        let tier = self.tier_of(&counts[..groups])?;
        let info = &self.tiers[tier];
        let mut rank: u64 = 0;
        let mut mult: u64 = 1;
        let mut earlier = Earlier::new(self.cells);
        let mut i = 0;
        for (g, &count) in counts[..groups].iter().enumerate() {
            let k = count as usize;
            let run = &packed[i..i + k];
            let mut group_rank = 0;
            for (j, &q) in run.iter().enumerate() {
                let cell = cell_of(q);
                group_rank += self.choose(cell - earlier.below(cell), j + 1);
            }
            rank += group_rank * mult;
            mult = mult.wrapping_mul(info.radices[g]);
            for &q in run {
                earlier.add(cell_of(q));
            }
            i += k;
        }
        Some((tier, rank * 2 + p.to_move as u64))
    }

    /// The position at an index of a tier.
    ///
    /// Groups are unranked in group order and each group's cells come out in
    /// increasing order, so the pieces are appended already sorted.
    pub fn position_in<const N: usize>(&self, tier: usize, index: u64) -> RulesPosition<N> {
        let info = &self.tiers[tier];
        let mut p = RulesPosition::<N>::empty((index & 1) as usize);
        let mut rest = index >> 1;
        let mut earlier = Earlier::new(self.cells);
        let mut free = self.cells;
        let mut ranks = [0u32; crate::position::MAX_PIECES];
        for (g, &c) in info.counts.iter().enumerate() {
            let k = c as usize;
            if k == 0 {
                continue;
            }
            let radix = info.radices[g];
            let mut group_rank = rest % radix;
            rest /= radix;
            // Colex unranking: the largest r with C(r, i) ≤ what is left, for i = k..1.
            let mut hi = free;
            for i in (1..=k).rev() {
                let r = if i == 1 {
                    // C(r, 1) = r: what is left is the cell's rank itself.
                    group_rank as u32
                } else {
                    // Binary search for the last r in [i − 1, hi) with C(r, i) ≤ what
                    // is left (C(r, i) grows with r; C(i − 1, i) = 0 always fits),
                    // written with arithmetic so that the step has no branch: the
                    // comparisons are unpredictable, and mispredicted branches made
                    // this the slowest part of a tier sweep.
                    let row = &self.binomial[i * (self.cells as usize + 1)..];
                    let mut lo = i as u32 - 1;
                    let mut len = hi - lo;
                    while len > 1 {
                        let half = len / 2;
                        lo += half * (row[(lo + half) as usize] <= group_rank) as u32;
                        len -= half;
                    }
                    lo
                };
                group_rank -= self.choose(r, i);
                ranks[i - 1] = r;
                hi = r;
            }
            // The cells of a group are found among those earlier groups left free,
            // before any is taken: a group's own cells do not shift each other.
            let start = p.len as usize;
            for &rank in &ranks[..k] {
                p.pieces[p.len as usize] = pack(g, earlier.nth_free(rank));
                p.len += 1;
            }
            for j in start..p.len as usize {
                earlier.add(cell_of(p.pieces[j]));
            }
            free -= k as u32;
        }
        p
    }

    /// The whole-game index of a position.
    pub fn index<const N: usize>(&self, p: &RulesPosition<N>) -> Option<u64> {
        self.locate(p).map(|(t, i)| self.tiers[t].offset + i)
    }

    /// The position at a whole-game index.
    pub fn position<const N: usize>(&self, index: u64) -> RulesPosition<N> {
        let tier = self.tiers.partition_point(|t| t.offset <= index) - 1;
        self.position_in(tier, index - self.tiers[tier].offset)
    }
}

/// The mixed-radix code of a count vector.
fn code(limits: &[u8], counts: &[u8]) -> usize {
    let mut code = 0usize;
    for (g, &c) in counts.iter().enumerate().rev() {
        code = code * (limits[g] as usize + 1) + c as usize;
    }
    code
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

/// The cells taken by earlier groups: how many lie below a cell, and the n-th cell
/// they leave free. A bit set on boards of up to 128 cells, a sorted list beyond.
enum Earlier {
    Mask(u128),
    /// Sorted cells and how many.
    List([u32; crate::position::MAX_PIECES], usize),
}

impl Earlier {
    fn new(cells: u32) -> Self {
        if cells <= 128 {
            Earlier::Mask(0)
        } else {
            Earlier::List([0; crate::position::MAX_PIECES], 0)
        }
    }

    #[inline]
    fn below(&self, cell: u32) -> u32 {
        match self {
            Earlier::Mask(m) => (m & ((1u128 << cell) - 1)).count_ones(),
            Earlier::List(l, n) => l[..*n].iter().filter(|&&c| c < cell).count() as u32,
        }
    }

    #[inline]
    fn add(&mut self, cell: u32) {
        match self {
            Earlier::Mask(m) => *m |= 1u128 << cell,
            Earlier::List(l, n) => {
                let at = l[..*n].partition_point(|&c| c < cell);
                l.copy_within(at..*n, at + 1);
                l[at] = cell;
                *n += 1;
            }
        }
    }

    /// The cell that is the `n`-th (0-based) not taken.
    #[inline]
    fn nth_free(&self, n: u32) -> u32 {
        let mut cell = n;
        match self {
            Earlier::Mask(m) => {
                let mut taken = *m;
                while taken != 0 {
                    let t = taken.trailing_zeros();
                    if t > cell {
                        break;
                    }
                    cell += 1;
                    taken &= taken - 1;
                }
            }
            Earlier::List(l, n) => {
                for &t in &l[..*n] {
                    if t <= cell {
                        cell += 1;
                    } else {
                        break;
                    }
                }
            }
        }
        cell
    }
}
