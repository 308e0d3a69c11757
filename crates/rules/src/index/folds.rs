//! What an index may fold by symmetry, and what it folded (module docs of [`crate::index`], "Folded by symmetry").

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
