//! Tiers by the number of pieces of each kind and side ([`Tiered`]).

use super::fast_paths::LocatedPath;
use super::rules_game::RulesGame;
use crate::compiled::position::RulesPosition;
use gsolve_engine::Tiered;

/// Tiers by the number of pieces of each kind and side: fewest pieces first, or
/// where pieces are dropped, most first.
impl<const N: usize> Tiered for RulesGame<N> {
    type Tier = u32;

    fn tiers(&self) -> Vec<u32> {
        (0..self.placement().tiers().len() as u32).collect()
    }

    fn child_tiers(&self, tier: u32) -> Vec<u32> {
        let index = self.placement();
        let counts = &index.tiers()[tier as usize].counts;
        let mut out = Vec::new();
        let groups = self.tables().groups();
        if self.rules().has_drops() || self.rules().has_promotions() {
            // The tiers one turn of either side leads to (or their images, where
            // the index keeps the first side to move only).
            let cells = self.board().cells() as u32;
            let swap = self.side_swap().filter(|_| index.folding().side_swap);
            for side in 0..2 {
                for next in crate::index::count_successors(self.tables(), counts, side, cells) {
                    let next = match swap {
                        Some(swap) => swap.counts_image(&next, groups),
                        None => next,
                    };
                    if let Some(t) = index.tier_of(&next).filter(|&t| t != tier as usize) {
                        if !out.contains(&(t as u32)) {
                            out.push(t as u32);
                        }
                    }
                }
            }
            return out;
        }
        for g in 0..groups {
            if counts[g] > 0 {
                let mut fewer = counts.clone();
                fewer[g] -= 1;
                if let Some(t) = index.tier_of(&fewer) {
                    out.push(t as u32);
                }
            }
        }
        out
    }

    fn tier_size(&self, tier: u32) -> u64 {
        self.placement().tiers()[tier as usize].size
    }

    /// The counts joined by `-` in group order, e.g. `4-3` (white pawns, black pawns).
    fn tier_name(&self, tier: u32) -> String {
        let counts = &self.placement().tiers()[tier as usize].counts;
        counts.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("-")
    }

    fn locate(&self, p: &RulesPosition<N>) -> Option<(u32, u64)> {
        if p.ended() != 0 {
            return None;
        }
        self.placement().locate(&self.kept(p)).map(|(t, i)| (t as u32, i))
    }

    fn position_in(&self, tier: u32, index: u64) -> Option<RulesPosition<N>> {
        self.placement().position_in(tier as usize, index)
    }

    /// The pieces are unranked once for both sides to move.
    fn for_each_position_in_tier(&self, tier: u32, range: std::ops::Range<u64>, f: impl FnMut(u64, RulesPosition<N>)) {
        self.for_each_position_at(tier, range, f)
    }

    /// The pieces are unranked once for both sides to move.
    fn for_each_position_at(
        &self,
        tier: u32,
        indices: impl Iterator<Item = u64>,
        f: impl FnMut(u64, RulesPosition<N>),
    ) {
        let placement = self.placement();
        let sides = placement.tier_sides(tier as usize);
        self.for_each_paired_position(indices, |index| placement.pieces_in(tier as usize, index).map(|p| (p, sides)), f)
    }

    /// Ranked move by move where the game has the shape [`crate::retrograde::scan`] takes;
    /// else the engine's default: every move played and its child located.
    fn for_each_located_at(
        &self,
        tier: u32,
        indices: impl Iterator<Item = u64>,
        f: impl FnMut(u64, gsolve_engine::Scan<'_, u32>),
    ) {
        match &self.paths.located {
            LocatedPath::Scan(scan) => {
                scan.for_each_located_at(self.board(), self.placement(), tier as usize, indices, f)
            }
            LocatedPath::Engine => gsolve_engine::located_at(self, tier, indices, f),
        }
    }

    /// The sum of the pieces' advances, where every move onto an empty cell goes
    /// forward and no piece stays (pawn chess, Breakthrough; not Fox and Hounds,
    /// whose fox steps back).
    fn progress_bound(&self, tier: u32) -> Option<u32> {
        self.tables().tier_progress_bound(&self.placement().tiers()[tier as usize].counts)
    }

    fn progress(&self, _tier: u32, position: &RulesPosition<N>) -> u32 {
        self.tables().progress_of(position).expect("asked only of games with a progress measure")
    }

    /// Read from the groups' cell sets where the game has the shape
    /// [`crate::retrograde::scan`] takes.
    fn for_each_progress_in_tier(&self, tier: u32, range: std::ops::Range<u64>, mut f: impl FnMut(u64, u32)) {
        match &self.paths.located {
            LocatedPath::Scan(scan) => scan.for_each_progress_in_tier(self.placement(), tier as usize, range, f),
            LocatedPath::Engine => {
                self.for_each_position_in_tier(tier, range, |index, p| f(index, self.progress(tier, &p)))
            }
        }
    }
}
