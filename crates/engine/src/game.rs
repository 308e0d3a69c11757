//! The traits a game implements: a required core and optional capabilities.
//!
//! | trait      | required? | what it gives the game                                   |
//! |------------|-----------|----------------------------------------------------------|
//! | [`Game`]    | yes       | rules: moves, the position after a move, the end of play |
//! | [`Indexed`] | no        | a dense index of all positions: whole-game retrograde    |
//! | [`Unmoves`] | no        | parents of a position: retrograde without a reverse graph in memory |
//! | [`Layered`] | no        | an order of index ranges for acyclic games: a one-sweep solve, no counters |
//!
//! A game with only [`Game`] + [`Indexed`] is solved by
//! [`crate::retrograde::solve_forward_only`], which builds the reverse graph itself.

use crate::value::Outcome;
use std::fmt::Debug;
use std::hash::Hash;

/// The rules of a two-player, perfect-information, deterministic game.
///
/// Play alternates: after every move the other side is to move. A position therefore
/// must record whose turn it is.
///
/// # End of the game
/// A position is over when [`Game::terminal`] says so. A position that is not
/// terminal and has no legal move is a **loss for the side to move at remoteness 0**
/// (normal play: the side that cannot move loses). Games where being stuck means
/// something else say so through `terminal`.
pub trait Game {
    /// A position, including the side to move.
    type Position: Clone + Eq + Hash + Debug + Send + Sync;
    /// A move from a position.
    type Move: Clone + Eq + Debug + Send + Sync;

    /// `Some(outcome)` if the game is over at `position`, seen by the side to move.
    fn terminal(&self, position: &Self::Position) -> Option<Outcome>;

    /// Appends the legal moves of a non-terminal `position` to `moves`.
    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>);

    /// The position after `mv` is played in `position`.
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// Calls `f` with the position after each legal move, in the order of [`Game::moves`].
    ///
    /// The default goes through [`Game::moves`]; games override it to avoid the buffer.
    fn for_each_child(&self, position: &Self::Position, mut f: impl FnMut(Self::Position)) {
        let mut moves = Vec::new();
        self.moves(position, &mut moves);
        for mv in &moves {
            f(self.play(position, mv));
        }
    }

    /// The number of legal moves of a non-terminal position.
    fn move_count(&self, position: &Self::Position) -> usize {
        let mut n = 0;
        self.for_each_child(position, |_| n += 1);
        n
    }
}

/// A finite game whose positions are numbered `0..index_size()`.
///
/// # Invariants
/// - `position(index(p)) == Some(p)` for every position `p` the game can reach
///   from any indexed position;
/// - `index(p) < index_size()`;
/// - `position(i)` may return `None` for indices that name no position (holes).
pub trait Indexed: Game {
    /// One more than the largest index.
    fn index_size(&self) -> u64;
    /// The index of a position.
    fn index(&self, position: &Self::Position) -> u64;
    /// The position with this index, or `None` for a hole.
    fn position(&self, index: u64) -> Option<Self::Position>;

    /// Calls `f(index, position)` for each index of `range`, in order; holes are
    /// skipped. Whole-index scans (the layered solver, tablebase verification) use
    /// it. The default decodes each index; games override it to step from one
    /// position to the next, which is several times cheaper than decoding.
    fn for_each_position_in(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64, Self::Position)) {
        for index in range {
            if let Some(p) = self.position(index) {
                f(index, p);
            }
        }
    }
}

/// Parents of a position: the positions with a move that leads to it.
///
/// # Invariant
/// For every non-terminal position `p` and every position `c`, `for_each_parent(c)`
/// yields `p` exactly as many times as `p` has moves leading to `c`. Terminal
/// positions are never parents (they have no moves). The retrograde solver counts
/// children down with this, so a missing or extra parent gives wrong values;
/// [`crate::check::unmoves_match_moves`] tests the invariant for a game.
pub trait Unmoves: Indexed {
    /// Calls `f` with each parent of `position`.
    fn for_each_parent(&self, position: &Self::Position, f: impl FnMut(Self::Position));
}

/// An acyclic game whose index splits into *layers*: contiguous index ranges that can
/// be solved one after another, each in one parallel sweep.
///
/// # Invariant
/// Every index is in exactly one layer, and every child of a non-terminal position
/// lies in a layer listed earlier. [`crate::layered::solve`] panics, naming the
/// position, if a child is not solved yet when its parent is.
pub trait Layered: Indexed {
    /// Calls `f` with each layer, in solving order.
    fn for_each_layer(&self, f: impl FnMut(std::ops::Range<u64>));
}

/// Optional capability: the game names itself and its variant (board size, map, ...),
/// so a stored solution (a tablebase) can say which game it solves and a reader can
/// rebuild the rules from the file alone.
///
/// # Invariant
/// `from_parameters(&g.parameters())` builds a game with the same rules and the same
/// index as `g`.
pub trait Variant: Game + Sized {
    /// A short, stable name, e.g. `"pawns"`. Files store it: never change it.
    const NAME: &'static str;
    /// The parameters that, with [`Variant::NAME`], fix the rules, e.g.
    /// `[("rows", "4"), ("cols", "4")]`. Keys are lowercase ASCII words; values are
    /// UTF-8 text without line breaks.
    fn parameters(&self) -> Vec<(String, String)>;
    /// Rebuilds the game; the error says which parameter is missing or wrong.
    fn from_parameters(parameters: &[(String, String)]) -> Result<Self, String>;
}

/// Values of positions, by index: what a solved table offers to line and move
/// analysis helpers.
pub trait ValueLookup<G: Game + ?Sized> {
    /// The value of `position`, `None` if unknown.
    fn lookup(&self, game: &G, position: &G::Position) -> Option<crate::Value>;
}
