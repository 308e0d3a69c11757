//! Parents by index ([`Unmoves`]): walked on cell sets, ranked along the step games' lists, or built from the piece list and located, folded where the index folds.

use super::fast_paths::ParentsPath;
use super::rules_game::RulesGame;
use crate::compiled::position::RulesPosition;
use gsolve_engine::{Indexed, Unmoves};

impl<const N: usize> RulesGame<N> {
    /// Calls `f(parent, mirrored, index)` for each parent of `kept` that the
    /// index folded by `fold` keeps and holds, as [`Unmoves::for_each_parent`]
    /// yields them: the base's parents found in one walk and folded
    /// ([`crate::retrograde::fold::Fold::for_each_kept_parent`]), each located once.
    /// The kept parent is `parent`'s position or, where `mirrored`, its mirror
    /// image ([`crate::retrograde::fold::Fold::kept_parent`]), each made only where it
    /// is needed: a quiet parent's index is ranked from the base's ranks or
    /// its image's, with no position made.
    /// A kept parent may still have no index: the rules value it (a royal piece
    /// the side to move can take), and it is left out.
    pub(super) fn for_each_folded_parent(
        &self,
        fold: &crate::retrograde::fold::Fold,
        kept: &RulesPosition<N>,
        mut f: impl FnMut(&crate::retrograde::unmoves::Parent<'_, N>, bool, u64),
    ) {
        let placement = self.placement();
        let mut hint = crate::index::TierHint::default();
        let (base, how) = fold.parent_base(kept);
        let base_column = fold.base_anchor_column(&base);
        let mirror = fold.mirror();
        let mut ranks = LazyRanks::of(&base, None);
        let mut image_ranks = LazyRanks::of(&base, mirror);
        crate::retrograde::unmoves::parents_to_locate(self.tables(), placement, &base, &mut |parent| {
            let quiet = parent.quiet();
            let column = fold.parent_anchor_column(base_column, &parent);
            fold.for_each_kept_parent(
                how,
                || parent.position(),
                column,
                |mirrored| {
                    let located = match (mirrored, mirror) {
                        // The base's image with the move's image undone.
                        (true, Some(mirror)) => self.locate_parent(
                            || fold.kept_parent(&parent.position(), true),
                            quiet.map(|m| mirror.quiet_image(m)),
                            &mut image_ranks,
                            &mut hint,
                        ),
                        _ => self.locate_parent(|| parent.position(), quiet, &mut ranks, &mut hint),
                    };
                    if let Some(index) = located {
                        f(&parent, mirrored, index)
                    }
                },
            )
        })
    }

    /// The whole-game index of `parent`, a parent of `ranks`' position by the
    /// quiet move `quiet` where it is one (then from the position's ranks:
    /// one or a few digits change, [`crate::index::PlacementIndex::moved_index`]),
    /// else located from its pieces.
    /// `parent` makes the position, which is not made where the ranks serve.
    #[inline]
    fn locate_parent(
        &self,
        parent: impl Fn() -> RulesPosition<N>,
        quiet: Option<crate::retrograde::unmoves::Quiet>,
        ranks: &mut LazyRanks<'_, N>,
        hint: &mut crate::index::TierHint,
    ) -> Option<u64> {
        let placement = self.placement();
        let located = |hint: &mut crate::index::TierHint| {
            placement.locate_hinted(&parent(), hint).map(|(tier, at)| placement.tiers()[tier].offset + at)
        };
        let Some(m) = quiet else { return located(hint) };
        // A move back passes the turn: the parent's side to move is the other
        // of the child's (a mirror image keeps the side).
        let to_move = 1 - ranks.child.to_move();
        match ranks.get(placement, hint) {
            Some(ranks) => {
                let index = placement.moved_index(ranks, m.group, m.from, m.to, to_move);
                debug_assert_eq!(index, located(hint), "a quiet parent ranked from its child's ranks");
                index
            }
            None => located(hint),
        }
    }
}

/// A child's [`crate::index::GroupRanks`] (or its image's under a symmetry),
/// made when its first quiet parent asks for them (many children have none).
struct LazyRanks<'p, const N: usize> {
    child: &'p RulesPosition<N>,
    image: Option<&'p crate::compiled::symmetry::Symmetry>,
    ranks: Option<Option<crate::index::GroupRanks>>,
}

impl<'p, const N: usize> LazyRanks<'p, N> {
    /// The ranks of `child`, or of its image under `image`.
    fn of(child: &'p RulesPosition<N>, image: Option<&'p crate::compiled::symmetry::Symmetry>) -> Self {
        LazyRanks { child, image, ranks: None }
    }

    #[inline]
    fn get(
        &mut self,
        placement: &crate::index::PlacementIndex,
        hint: &mut crate::index::TierHint,
    ) -> Option<&crate::index::GroupRanks> {
        let (child, image) = (self.child, self.image);
        self.ranks
            .get_or_insert_with(|| match image {
                Some(symmetry) => placement.group_ranks(&symmetry.apply(child), hint),
                None => placement.group_ranks(child, hint),
            })
            .as_ref()
    }
}

impl<const N: usize> Unmoves for RulesGame<N> {
    /// Where the index is folded by symmetry, the positions it keeps with a move
    /// to a position folding onto `p`: each as many times as it has such moves,
    /// which is what retrograde analysis counts down (every move's child is
    /// looked up as its kept image).
    fn for_each_parent(&self, p: &RulesPosition<N>, mut f: impl FnMut(RulesPosition<N>)) {
        match self.fold() {
            None => crate::retrograde::unmoves::parents(self.tables(), self.index(), p, &mut f),
            Some(fold) => self.for_each_folded_parent(fold, p, |parent, mirrored, _| {
                f(fold.kept_parent(&parent.position(), mirrored))
            }),
        }
    }

    /// Walked on cell sets where the game has that shape
    /// ([`crate::retrograde::set_unmoves`]); else ranked from the child's pieces where the
    /// game's pieces only step ([`crate::retrograde::steps`]); else each parent built and
    /// indexed.
    #[inline]
    fn for_each_parent_index(&self, index: u64, mut f: impl FnMut(u64)) {
        let walk = match &self.paths.parents {
            ParentsPath::Sets(walk) => walk,
            ParentsPath::StepLists(steps) => {
                return crate::retrograde::steps::for_each_parent_index::<N>(
                    self.tables(),
                    self.placement(),
                    steps,
                    index,
                    &mut f,
                )
            }
            ParentsPath::Listed => return self.for_each_listed_parent_index(index, f),
        };
        {
            #[cfg(debug_assertions)]
            {
                // The tests' builds check the walk on sets against the list's.
                let mut on_sets = Vec::new();
                walk.for_each_parent_index::<N>(self.tables(), self.placement(), self.fold(), index, &mut |p| {
                    on_sets.push(p)
                });
                let mut listed = Vec::new();
                self.for_each_listed_parent_index(index, |p| listed.push(p));
                let mut sorted = on_sets.clone();
                sorted.sort_unstable();
                listed.sort_unstable();
                debug_assert_eq!(sorted, listed, "the parents on sets of {index}");
                on_sets.into_iter().for_each(f);
            }
            #[cfg(not(debug_assertions))]
            walk.for_each_parent_index::<N>(self.tables(), self.placement(), self.fold(), index, &mut f);
        }
    }
}

impl<const N: usize> RulesGame<N> {
    /// [`Unmoves::for_each_parent_index`] from the child's piece list: each
    /// parent built, or ranked from the child's ranks where it is quiet.
    fn for_each_listed_parent_index(&self, index: u64, mut f: impl FnMut(u64)) {
        let position = self.position(index).expect("a parent's index names a position");
        match self.fold() {
            None => {
                let mut hint = crate::index::TierHint::default();
                let mut ranks = LazyRanks::of(&position, None);
                crate::retrograde::unmoves::parents_with_moves(self.tables(), self.index(), &position, &mut |parent| {
                    f(self
                        .locate_parent(|| parent.position(), parent.quiet(), &mut ranks, &mut hint)
                        .unwrap_or(u64::MAX))
                })
            }
            // Each kept parent located once: those without an index are left out.
            Some(fold) => self.for_each_folded_parent(fold, &position, |_, _, index| f(index)),
        }
    }
}
