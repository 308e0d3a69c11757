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

mod arith;
mod build;
mod folds;
mod pair;
mod placement;
mod places;
mod rank;
mod royal;
mod singles;
mod tiers;
mod unrank;

pub use folds::{Folding, Folds};
pub(crate) use pair::PairLayout;
pub use placement::PlacementIndex;
pub(crate) use places::{GroupRanks, MASK_GROUPS};
pub(crate) use royal::RoyalPair;
pub(crate) use tiers::count_successors;
pub(crate) use tiers::TierHint;
pub use tiers::{TierInfo, MAX_INDEX, MAX_TIERS};

#[cfg(test)]
mod tests {
    use super::arith::{binomial, binomial_exact, colex_table, div_rem, magic};
    use super::tiers::SparseTiers;

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
