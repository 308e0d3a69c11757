//! Building an index: the places, the tiers, the royal pair and the tables that ranking and unranking read.

use super::{arith::*, folds::*, placement::*, places::*, royal::*, tiers::*};
use crate::compiled::symmetry::Symmetry;
use crate::compiled::tables::Tables;

impl PlacementIndex {
    /// The index of the game of `tables` for up to `limits[g]` pieces of group g; an error says why
    /// the game is too big.
    ///
    /// `fold`: the symmetries it may fold (`swap`: the side swap, `mirror`), used
    /// only where the tiers lead back to each other (module docs).
    ///
    /// In named steps: [`count_vectors`] (the tiers' counts, in solving
    /// order), [`folding`] (what the index folds), [`places`] (where each
    /// group stands, and the royal pair), [`TierLayout::of`] (each tier's
    /// radices, offset and unranking tables), then [`FlatTables::of`] (the
    /// tables that ranking reads a load at a time).
    pub(crate) fn new(
        tables: &Tables,
        given: &[u8],
        swap: Option<&Symmetry>,
        mirror: Option<&Symmetry>,
        pair: bool,
    ) -> Result<PlacementIndex, String> {
        let cells = tables.board().cells() as u32;
        let groups = tables.groups();
        let slots = tables.hand_groups().len();
        if given.len() != groups + slots {
            return Err(format!("{} piece counts for {groups} kinds of piece and {slots} in hands", given.len()));
        }
        let CountVectors { mut vectors, limits, ordered, royal_tiers_left_out } = count_vectors(tables, given)?;
        let fold = folding(&mut vectors, groups, ordered, swap, mirror);
        let (places, royal_pair) = places(tables, &vectors, &fold, pair);
        let side_shift = if fold.side_swap { 0 } else { 1 };
        let layout = TierLayout::of(tables, vectors, &limits, &places, royal_pair.as_ref(), side_shift)?;
        let flat = FlatTables::of(cells, &places, &layout.tiers, royal_pair.as_ref());
        let max_k = limits[..groups].iter().copied().max().unwrap_or(0) as usize;
        let binomial: Vec<u64> =
            (0..=max_k).flat_map(|k| (0..=cells as u64).map(move |n| binomial(n, k as u64))).collect();
        let total: usize = limits[..groups].iter().map(|&l| l as usize).sum();
        let singles =
            slots == 0 && groups <= 64 && total <= FEW_PIECES && limits.iter().all(|&l| l <= 1) && royal_pair.is_none();
        let folding = Folding {
            side_swap: fold.side_swap,
            mirror_anchor: fold.mirror_anchor,
            royal_pair: royal_pair.as_ref().map(RoyalPair::groups),
        };
        let strides = limits
            .iter()
            .scan(1u64, |product, &l| {
                let stride = *product;
                *product = product.wrapping_mul(l as u64 + 1);
                Some(stride)
            })
            .collect();
        Ok(PlacementIndex {
            cells,
            groups,
            slots,
            places,
            given: given.to_vec(),
            limits,
            ordered,
            royal_tiers_left_out,
            folding,
            royal_pair,
            side_shift,
            tiers: layout.tiers,
            tier_of_code: layout.tier_of_code,
            slot_of: flat.slot_of,
            within_of: flat.within_of,
            taken_by: flat.taken_by,
            tier_radices: flat.tier_radices,
            offsets: flat.offsets,
            place_cells: flat.place_cells,
            tier_present: flat.tier_present,
            tier_magic: flat.tier_magic,
            singles,
            strides,
            binomial,
            combinations: layout.combinations,
            cell_sets: layout.cell_sets,
            size: layout.size,
        })
    }
}

/// The tiers' count vectors with the sides to move each holds, and what they imply.
struct CountVectors {
    /// In solving order: fewest pieces first, or with drops most first.
    vectors: Vec<(Vec<u8>, u8)>,
    /// The most pieces of each group and hand slot in any tier.
    limits: Vec<u8>,
    /// No move leads back to an earlier tier.
    ordered: bool,
    /// Count vectors where a side has lost its royal pieces were left out.
    royal_tiers_left_out: bool,
}

/// Step 1: the count vectors. With drops (or promotions), those reachable from
/// the floor `given`; else every one up to the limits where pieces can be
/// captured, else the limits alone (no move changes the counts). Vectors of
/// more pieces than cells, and those where a side has lost its royal pieces
/// (only ended positions), are left out.
fn count_vectors(tables: &Tables, given: &[u8]) -> Result<CountVectors, String> {
    let rules = tables.rules();
    let cells = tables.board().cells() as u32;
    let groups = tables.groups();
    let drops = rules.has_drops();
    let captures = rules.has_captures();
    let promotions = rules.has_promotions();
    let mut vectors = if drops || promotions {
        reachable_counts(tables, given, cells)
    } else {
        super::tiers::count_vectors(given, captures)
    };
    let mut limits = given.to_vec();
    for (v, _) in &vectors {
        for (l, &c) in limits.iter_mut().zip(v) {
            *l = (*l).max(c);
        }
    }
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
    Ok(CountVectors { vectors, limits, ordered, royal_tiers_left_out })
}

/// What step 2 decided the index folds.
struct Fold {
    side_swap: bool,
    /// The first group with pieces in some tier.
    first_with_pieces: Option<usize>,
    mirror_anchor: Option<usize>,
}

/// Step 2: what the index folds (module docs, "Folded by symmetry"): only
/// where the tiers lead back to each other. Folding the side swap keeps the
/// first side to move only, in every tier.
fn folding(
    vectors: &mut Vec<(Vec<u8>, u8)>,
    groups: usize,
    ordered: bool,
    swap: Option<&Symmetry>,
    mirror: Option<&Symmetry>,
) -> Fold {
    let side_swap = !ordered && swap.is_some_and(|swap| swap_closed(swap, groups, vectors));
    if side_swap {
        for (_, sides) in vectors.iter_mut() {
            *sides &= 1;
        }
        vectors.retain(|(_, sides)| *sides != 0);
    }
    // The anchor is the first group with pieces, so that no earlier group's
    // pieces stand among its places: restricted, they still rank without holes.
    let first_with_pieces = (0..groups).find(|&g| vectors.iter().any(|(v, _)| v[g] > 0));
    let mirror_anchor =
        first_with_pieces.filter(|&g| !ordered && mirror.is_some() && vectors.iter().all(|(v, _)| v[g] == 1));
    Fold { side_swap, first_with_pieces, mirror_anchor }
}

/// Step 3: each group's places, less the cells the fold leaves out, and the
/// royal pieces ranked as a pair where `pair` allows it and the rules have it
/// (module docs, "Royal pieces placed as a pair"): the groups between the
/// pair's two then count the second's cell as taken where it lies among
/// their places.
fn places(tables: &Tables, vectors: &[(Vec<u8>, u8)], fold: &Fold, pair: bool) -> (Vec<Places>, Option<RoyalPair>) {
    let board = tables.board();
    let endings = tables.endings();
    let mut places = group_places(tables, tables.groups(), |g, c| {
        // The first side is always to move where the side swap folds.
        let ends = fold.side_swap && tables.side_of(g) == 0 && endings.ends_with_own_side_to_move(g, c);
        let mirrored = fold.mirror_anchor == Some(g) && 2 * board.coords[c as usize].1 >= board.cols;
        !ends && !mirrored
    });
    let royal_pair = match (fold.side_swap, fold.first_with_pieces, endings.royal_capture_ends()) {
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
    (places, royal_pair)
}

/// Step 4: the tiers laid out one after another.
struct TierLayout {
    tiers: Vec<TierInfo>,
    tier_of_code: TierLookup,
    combinations: Vec<Vec<u64>>,
    cell_sets: Vec<Vec<u128>>,
    size: u64,
}

/// The unranking tables shared by the tiers: one per (free places, pieces),
/// and one of cell sets per (group, pieces) where the group's free places are
/// all its places.
#[derive(Default)]
struct UnrankTables {
    combinations: Vec<Vec<u64>>,
    table_of: std::collections::HashMap<(u64, u8), u32>,
    cell_sets: Vec<Vec<u128>>,
    cell_table_of: std::collections::HashMap<(usize, u8), u32>,
}

impl UnrankTables {
    /// The table of colex ranks of `pieces` among `free` places, made once.
    fn combinations(&mut self, free: u64, pieces: u8) -> u32 {
        let combinations = &mut self.combinations;
        *self.table_of.entry((free, pieces)).or_insert_with(|| {
            combinations.push(colex_table(free as u32, pieces as u32));
            combinations.len() as u32 - 1
        })
    }

    /// Table `t`'s combinations as group g's cells, made once.
    fn cell_sets(&mut self, g: usize, pieces: u8, t: u32, places: &Places) -> u32 {
        let (combinations, cell_sets) = (&self.combinations, &mut self.cell_sets);
        *self.cell_table_of.entry((g, pieces)).or_insert_with(|| {
            let cells_of = |set: &u64| {
                let mut set = *set;
                let mut mask = 0u128;
                while set != 0 {
                    mask |= 1u128 << places.cells[set.trailing_zeros() as usize];
                    set &= set - 1;
                }
                mask
            };
            cell_sets.push(combinations[t as usize].iter().map(cells_of).collect());
            cell_sets.len() as u32 - 1
        })
    }
}

impl TierLayout {
    /// Each tier's radices (`C_g`, or the royal pair's), offset and
    /// unranking tables, in the order of `vectors`; an error where the index
    /// would pass [`MAX_INDEX`].
    fn of(
        tables: &Tables,
        vectors: Vec<(Vec<u8>, u8)>,
        limits: &[u8],
        places: &[Places],
        royal_pair: Option<&RoyalPair>,
        side_shift: u32,
    ) -> Result<TierLayout, String> {
        let cells = tables.board().cells() as u32;
        let groups = tables.groups();
        let codes: u128 = limits.iter().map(|&l| l as u128 + 1).product();
        let mut tier_of_code = if codes <= MAX_TIERS as u128 {
            TierLookup::Dense(vec![u32::MAX; codes as usize])
        } else {
            TierLookup::Sparse(SparseTiers::new(vectors.len()))
        };
        let mut tiers = Vec::new();
        let mut offset: u128 = 0;
        let mut unrank = UnrankTables::default();
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
                let r = match royal_pair {
                    Some(pair) if g == pair.first => pair.len() as u128,
                    Some(pair) if g == pair.second => 1,
                    _ => binomial_exact(free, c as u64).ok_or("the index overflows 64 bits")?,
                };
                let paired = royal_pair.is_some_and(|pair| g == pair.first || g == pair.second);
                radices.push(r as u64);
                frees.push(free as u32);
                let wanted =
                    !paired && (2..=TABLE_PIECES).contains(&(c as usize)) && free <= 64 && r <= TABLE_ENTRIES as u128;
                let table = wanted.then(|| unrank.combinations(free, c));
                tables.push(table);
                let own_places = taken == 0 && cells <= 128 && groups <= MASK_GROUPS;
                cell_tables.push(table.filter(|_| own_places).map(|t| unrank.cell_sets(g, c, t, &places[g])));
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
        Ok(TierLayout {
            tiers,
            tier_of_code,
            combinations: unrank.combinations,
            cell_sets: unrank.cell_sets,
            size: offset as u64,
        })
    }
}

/// Step 5: the tables ranking reads, each laid flat (one load a lookup).
struct FlatTables {
    slot_of: Vec<u32>,
    within_of: Vec<u64>,
    taken_by: Vec<u64>,
    tier_radices: Vec<u64>,
    offsets: Vec<u64>,
    place_cells: Vec<u32>,
    tier_present: Vec<u64>,
    tier_magic: Vec<u64>,
}

impl FlatTables {
    fn of(cells: u32, places: &[Places], tiers: &[TierInfo], royal_pair: Option<&RoyalPair>) -> FlatTables {
        let groups = places.len();
        let slot_of = places.iter().flat_map(|p| p.slot.iter().copied()).collect();
        let within_of = places.iter().map(|p| p.within_mask).collect();
        // The groups whose cells each group counts as taken (the first 64).
        let taken_from: Vec<u64> = (0..groups)
            .map(|g| {
                let p = &places[g];
                match royal_pair {
                    Some(pair) if g == pair.first || g == pair.second => 0,
                    _ if g >= 64 => 0,
                    _ if p.all_within => {
                        // Every group ranked before g: the earlier groups, and the
                        // pair's second with its first.
                        let earlier = (1u64 << g) - 1;
                        let second = royal_pair.filter(|pair| pair.first < g).map_or(0, |pair| 1 << pair.second);
                        earlier | second
                    }
                    _ => p.within_mask | p.pair_within.map_or(0, |h| 1 << h),
                }
            })
            .collect();
        let taken_by = (0..groups)
            .map(|g| (0..groups.min(64)).filter(|&h| taken_from[h] >> g & 1 == 1).fold(0, |m, h| m | 1 << h))
            .collect();
        let tier_radices = tiers.iter().flat_map(|t| t.radices.iter().copied()).collect();
        let offsets = tiers.iter().map(|t| t.offset).collect();
        let mut place_cells = vec![u32::MAX; groups * cells as usize];
        for (g, p) in places.iter().enumerate() {
            place_cells[g * cells as usize..][..p.cells.len()].copy_from_slice(&p.cells);
        }
        let tier_present = tiers
            .iter()
            .map(|t| t.counts[..groups].iter().take(64).enumerate().fold(0u64, |m, (g, &c)| m | ((c > 0) as u64) << g))
            .collect();
        let tier_magic = tiers.iter().flat_map(|t| t.radices.iter().map(|&d| magic(d))).collect();
        FlatTables { slot_of, within_of, taken_by, tier_radices, offsets, place_cells, tier_present, tier_magic }
    }
}
