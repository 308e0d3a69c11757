//! How positions fold into an index that keeps one of each orbit under the
//! symmetries found from the rules ([`crate::compiled::symmetry`]), and how a
//! position's parents fold onto the positions that index keeps.
//!
//! Why here and not beside the symmetries: folding speaks of the index's
//! folding and of parents (moves run back), which the compiled rules below
//! know nothing of.

use crate::compiled::board::Board;
use crate::compiled::position::{cell_of, group_of, RulesPosition};
use crate::compiled::symmetry::Symmetry;
use crate::retrograde::unmoves::{Parent, Quiet};

impl Symmetry {
    /// The image of a quiet move: the moved piece's group, and both cells.
    #[inline]
    pub(crate) fn quiet_image(&self, quiet: Quiet) -> Quiet {
        Quiet {
            group: self.groups()[quiet.group],
            from: self.cells()[quiet.from as usize],
            to: self.cells()[quiet.to as usize],
        }
    }
}

/// How positions fold into an index that keeps one position of each orbit
/// ([`crate::index`], "Folded by symmetry"): which position the index keeps,
/// and which positions it keeps a position for.
#[derive(Clone, Debug)]
pub(crate) struct Fold {
    swap: Option<Symmetry>,
    /// The mirror and the anchor group.
    mirror: Option<(Symmetry, usize)>,
    /// `column[c]`: cell c's column, and the board's width.
    column: Vec<u32>,
    width: u32,
}

impl Fold {
    /// The fold of an index that folded `folding`, if it folds anything.
    pub(crate) fn of(
        folding: crate::index::Folding,
        swap: Option<&Symmetry>,
        mirror: Option<&Symmetry>,
        board: &Board,
    ) -> Option<Fold> {
        let swap = swap.filter(|_| folding.side_swap).cloned();
        let mirror = mirror.cloned().zip(folding.mirror_anchor);
        (swap.is_some() || mirror.is_some()).then(|| Fold {
            swap,
            mirror,
            column: board.coords.iter().map(|&(_, c)| c).collect(),
            width: board.cols,
        })
    }

    /// The mirror, where the index folds it.
    #[inline]
    pub(crate) fn mirror(&self) -> Option<&Symmetry> {
        self.mirror.as_ref().map(|(mirror, _)| mirror)
    }

    /// The side swap, where the index folds it.
    #[inline]
    pub(crate) fn swap(&self) -> Option<&Symmetry> {
        self.swap.as_ref()
    }

    /// The mirror's anchor group, where the index folds the mirror.
    #[inline]
    pub(crate) fn anchor(&self) -> Option<usize> {
        self.mirror.as_ref().map(|&(_, anchor)| anchor)
    }

    /// The column of a cell.
    #[inline]
    pub(crate) fn column(&self, cell: u32) -> u32 {
        self.column[cell as usize]
    }

    /// The position the index keeps for `p`: its image with the first side to
    /// move (side swap), then with the anchor on the left half or the middle
    /// column (mirror). Positions the index keeps are their own.
    #[inline]
    pub(crate) fn kept<const N: usize>(&self, p: &RulesPosition<N>) -> RulesPosition<N> {
        let mut q = *p;
        if let Some(swap) = &self.swap {
            if q.to_move() == 1 {
                q = swap.apply(&q);
            }
        }
        if let Some((mirror, anchor)) = &self.mirror {
            let cell = q.packed().iter().find(|&&packed| group_of(packed) == *anchor).map(|&packed| cell_of(packed));
            if cell.is_some_and(|cell| 2 * self.column[cell as usize] >= self.width) {
                q = mirror.apply(&q);
            }
        }
        q
    }

    /// Does the index keep `p` itself ([`Self::kept`]`(p) == p`)? Read from
    /// the side to move and the anchor's column, no image built: a kept image
    /// differs from its position in the side to move (swap) or in the
    /// anchor's cell (mirror: the anchor, one piece, changes column).
    #[inline]
    pub(crate) fn keeps<const N: usize>(&self, p: &RulesPosition<N>) -> bool {
        if self.swap.is_some() && p.to_move() == 1 {
            return false;
        }
        match &self.mirror {
            Some((_, anchor)) => self.anchor_column(p, *anchor).is_none_or(|column| 2 * column < self.width),
            None => true,
        }
    }

    /// The column of the anchor's piece, if it has one.
    #[inline]
    fn anchor_column<const N: usize>(&self, p: &RulesPosition<N>, anchor: usize) -> Option<u32> {
        p.packed()
            .iter()
            .find(|&&packed| group_of(packed) == anchor)
            .map(|&packed| self.column[cell_of(packed) as usize])
    }

    /// The parents of a kept position, from one walk: returns the position
    /// whose parents to find (the *base*: `kept`, or its swap image where the
    /// side swap folds; that one's mirror image where its anchor stands on the
    /// right), and how its parents fold ([`Self::for_each_kept_parent`]).
    ///
    /// Why one walk: the members of `kept`'s orbit that fold onto it are the
    /// base and, unless the anchor stands on the middle column, its mirror
    /// image; the parents of the mirror image are the mirror images of the
    /// base's. Walking both and keeping the kept parents of each walked every
    /// parent twice and threw half away.
    pub(crate) fn parent_base<const N: usize>(&self, kept: &RulesPosition<N>) -> (RulesPosition<N>, ParentFold) {
        self.parent_base_with(
            kept,
            |p| self.swap.as_ref().map_or(*p, |swap| swap.apply(p)),
            |p| self.mirror().map_or(*p, |mirror| mirror.apply(p)),
            |p| self.anchor().and_then(|anchor| self.anchor_column(p, anchor)),
        )
    }

    /// [`Self::parent_base`] of a position in any form: `swap` and `mirror`
    /// make its images (each asked only where the index folds that
    /// symmetry), `anchor_column` reads its anchor's column.
    #[inline]
    pub(crate) fn parent_base_with<P: Copy>(
        &self,
        kept: &P,
        swap: impl Fn(&P) -> P,
        mirror: impl Fn(&P) -> P,
        anchor_column: impl Fn(&P) -> Option<u32>,
    ) -> (P, ParentFold) {
        let base = if self.swap.is_some() { swap(kept) } else { *kept };
        if self.mirror.is_none() {
            return (base, ParentFold::AsThey);
        }
        let right_of_middle = |p: &P| anchor_column(p).map(|column| 2 * column + 1);
        if right_of_middle(kept) == Some(self.width) {
            return (base, ParentFold::KeptOnly);
        }
        // `WithMirror` yields the same kept parents from the base's mirror image
        // (its table is the same read right to left): from the one with the
        // anchor not on the right, the parents where the anchor stays are kept
        // as they are, with no image to make.
        match right_of_middle(&base) {
            Some(twice) if twice > self.width => (mirror(&base), ParentFold::WithMirror),
            _ => (base, ParentFold::WithMirror),
        }
    }

    /// Calls `f` once for each kept parent that stands for `parent`, a parent
    /// of a base ([`Self::parent_base`]), each once per move into the kept
    /// child's orbit: `f(false)` for `parent` itself, `f(true)` for its mirror
    /// image ([`Self::mirror`]; made by the caller where it needs it: a quiet
    /// parent's image is ranked from the base's image's ranks, no position
    /// made).
    ///
    /// | `how`        | anchor of `parent` left of the middle | on the middle column | right |
    /// |--------------|------|--------|-------|
    /// | `AsThey`     | itself | itself | itself |
    /// | `KeptOnly`   | itself | itself | none |
    /// | `WithMirror` | itself | itself and its mirror image | its mirror image |
    ///
    /// `KeptOnly`: the child's anchor is on the middle column, so its mirror
    /// image is kept on its own and is not in the orbit: a parent the index does
    /// not keep moves to that image's orbit. `WithMirror`: the parents of the
    /// child's mirror image are the mirror images of the base's; of a parent and
    /// its image, the index keeps the one with the anchor on the left, or both
    /// where the anchor is on the middle column (each with its own move into
    /// the orbit; one position with two such moves where the two are the same).
    /// Where the swap folds, `parent` has the first side to move, as the index
    /// keeps it. `anchor_column` is the column of `parent`'s anchor (`None`
    /// without one), which the caller may know without reading the pieces.
    #[inline]
    pub(crate) fn for_each_kept_parent<const N: usize>(
        &self,
        how: ParentFold,
        parent: impl Fn() -> RulesPosition<N>,
        anchor_column: Option<u32>,
        mut f: impl FnMut(bool),
    ) {
        debug_assert!(self.swap.is_none() || parent().to_move() == 0, "a base's parents have the first side to move");
        let Some((_, anchor)) = &self.mirror else {
            return f(false);
        };
        debug_assert_eq!(anchor_column, self.anchor_column(&parent(), *anchor));
        let mut f = |mirrored: bool| {
            debug_assert!({
                let q = self.kept_parent(&parent(), mirrored);
                self.keeps(&q) || self.anchor_column(&q, *anchor).is_none()
            });
            f(mirrored)
        };
        let twice = anchor_column.map_or(0, |column| 2 * column);
        let middle = twice + 1 == self.width;
        // `AsThey` has no mirror: it returned above.
        if twice < self.width {
            f(false);
            if middle && how == ParentFold::WithMirror {
                f(true);
            }
        } else if how == ParentFold::WithMirror {
            f(true);
        }
    }

    /// The column of the anchor's piece in `parent`, a parent of a base whose
    /// anchor stands on `base_column`, where the index folds the mirror: read
    /// from the move back where it is quiet, else from the parent's pieces.
    #[inline]
    pub(crate) fn parent_anchor_column<const N: usize>(
        &self,
        base_column: Option<u32>,
        parent: &Parent<'_, N>,
    ) -> Option<u32> {
        let (_, anchor) = self.mirror.as_ref()?;
        match parent.quiet() {
            Some(quiet) if quiet.group == *anchor => Some(self.column[quiet.from as usize]),
            Some(_) => base_column,
            None => self.anchor_column(&parent.position(), *anchor),
        }
    }

    /// The column of the base's anchor, where the index folds the mirror.
    #[inline]
    pub(crate) fn base_anchor_column<const N: usize>(&self, base: &RulesPosition<N>) -> Option<u32> {
        let (_, anchor) = self.mirror.as_ref()?;
        self.anchor_column(base, *anchor)
    }

    /// The kept parent [`Self::for_each_kept_parent`] means by `mirrored`.
    #[inline]
    pub(crate) fn kept_parent<const N: usize>(&self, parent: &RulesPosition<N>, mirrored: bool) -> RulesPosition<N> {
        match (&self.mirror, mirrored) {
            (Some((mirror, _)), true) => mirror.apply(parent),
            _ => *parent,
        }
    }
}

/// How the parents of a base fold onto kept parents ([`Fold::for_each_kept_parent`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ParentFold {
    /// No mirror folds: each parent is kept as it is.
    AsThey,
    /// The child's anchor is on the middle column: the parents the index keeps.
    KeptOnly,
    /// Each parent, or its mirror image, or both.
    WithMirror,
}
