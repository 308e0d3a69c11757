//! The traits a game implements: a required core and optional capabilities.
//!
//! | trait      | required? | what it gives the game                                   |
//! |------------|-----------|----------------------------------------------------------|
//! | [`Game`]    | yes       | rules: moves, the position after a move, the end of play |
//! | [`Indexed`] | no        | a dense index of all positions: whole-game retrograde    |
//! | [`Unmoves`] | no        | parents of a position: retrograde without a reverse graph in memory |
//! | [`Layered`] | no        | an order of index ranges for acyclic games: a one-sweep solve, no counters |
//! | [`Tiered`]  | no        | positions in tiers, each with its own index: solved one tier at a time, on disk |
//!
//! A game with only [`Game`] + [`Indexed`] is solved by
//! [`crate::retrograde::solve_forward_only`], which builds the reverse graph itself.

use crate::value::{Outcome, Value};
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
/// - `position(index(p)) == Some(p)` for every non-terminal position `p` the game
///   can reach from any indexed position; or, in a game whose index keeps one
///   position of each class of symmetric positions (a position and its mirror
///   image, which have one value), `Some(q)` for the position `q` kept for `p`'s
///   class, with `index(q) == index(p)`; [`Unmoves`] then yields the kept
///   positions, each as many times as it has moves into the class;
/// - `index(p) < index_size()`;
/// - `position(i)` may return `None` for indices that name no position (holes);
/// - terminal positions may be indexed or not: solvers, verification and lookups
///   evaluate a terminal position with [`Game::terminal`] and never ask its index
///   (a game whose wins end the moment a piece arrives need not store them);
/// - likewise a position whose value the rules give at once
///   ([`Indexed::value_by_rules`]: a royal piece the side to move can take) may
///   be left out: it is valued by the rules, never looked up.
pub trait Indexed: Game {
    /// True (the default) when every terminal position a move can reach is indexed,
    /// and [`Unmoves`] yields its parents: retrograde analysis starts from them.
    /// A game that leaves some terminal positions out (a game over the moment two
    /// pieces meet need not store the meeting) says false: retrograde then values
    /// each position's terminal children from its moves, and never asks for the
    /// parents of a terminal position. A method, not a constant: a game described
    /// at run time (a rules file) knows only then.
    fn terminals_indexed(&self) -> bool {
        true
    }
    /// OPTIONAL: the value of a position known from the rules alone, which the
    /// index may leave out: a terminal position's ([`Game::terminal`], remoteness
    /// 0; the default, and nothing else), or, in a game that says so, a win in 1
    /// the rules make certain (Dobutsu's side to move can take the enemy lion).
    ///
    /// | returns | meaning |
    /// |---|---|
    /// | `Some(v)`, `v` of remoteness 0 | `position` is terminal and `v` is its outcome |
    /// | `Some(Value::Win(1))` | not terminal; some move ends the game lost for the side then to move |
    /// | `None` | look the position up (it is indexed) |
    ///
    /// Where some position that is not terminal gets `Some`,
    /// [`Indexed::terminals_indexed`] must be false: retrograde analysis then
    /// values such children from here and never propagates from them. Such a
    /// win in 1 may also have an index (an index of placements cannot leave
    /// out every position where some piece can take the royal one): its first
    /// look is then [`FirstLook::ByRules`], and the solvers store its value
    /// without propagating from it, since no parent counted it as a child.
    /// [`crate::check::unmoves_match_moves`] checks the wins in 1 against the moves.
    fn value_by_rules(&self, position: &Self::Position) -> Option<Value> {
        self.terminal(position).map(|outcome| outcome.value())
    }
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

    /// OPTIONAL: calls `f(index, look)` for each index of `range`, in order, holes
    /// skipped, with what retrograde analysis's first step needs of the position
    /// ([`FirstLook`]). The default decodes each position
    /// ([`Indexed::for_each_position_in`]) and asks [`first_look`]: the position's
    /// `terminal`, then its move count or, where terminal positions are not all
    /// indexed, every child played and asked whether it is over. A game overrides
    /// it when it can count its moves and value its ended children without
    /// building positions (a rules game of a few stepping pieces reads both from
    /// its piece list); [`crate::check::first_looks_match`] checks an override
    /// against the default.
    fn for_each_first_look_in(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64, FirstLook)) {
        self.for_each_position_in(range, |index, position| f(index, first_look(self, &position)));
    }
}

/// What retrograde analysis's first step needs of a position
/// ([`Indexed::for_each_first_look_in`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstLook {
    /// The game is over here ([`Game::terminal`]).
    Over(Outcome),
    /// Not over, and a win in 1 by the rules ([`Indexed::value_by_rules`]
    /// gives `Some(Value::Win(1))`): the index holds it, but each parent's
    /// first look valued it from the rules rather than counting it, so
    /// solvers store the win and never propagate from it.
    ///
    /// Why: in Dobutsu shogi 44% of the index is a win in 1 where some piece
    /// can take the lion; walking their parents only to count them down was
    /// the largest level of the solve.
    ByRules,
    /// Play goes on. Where every terminal position is indexed
    /// ([`Indexed::terminals_indexed`]), `count` is the number of moves and
    /// `best_over` is `None`. Otherwise `count` is the number of moves to
    /// children the rules do not value ([`Indexed::value_by_rules`]), and
    /// `best_over` the best value for the side to move among the children they
    /// value (each child's value seen from the position: [`Value::parent_view`];
    /// a win in 1 at most, a loss in 2 at worst), `None` if they value none.
    ///
    /// [`Value::parent_view`]: crate::Value::parent_view
    Moves {
        /// Moves to count (see above).
        count: usize,
        /// The best ended child, for the side to move (see above).
        best_over: Option<crate::Value>,
    },
}

/// [`Indexed::for_each_first_look_in`]'s default for one position: its
/// `terminal`, then [`Game::move_count`] or each child played and asked.
pub fn first_look<G: Indexed + ?Sized>(game: &G, position: &G::Position) -> FirstLook {
    if let Some(outcome) = game.terminal(position) {
        return FirstLook::Over(outcome);
    }
    if game.terminals_indexed() {
        return FirstLook::Moves { count: game.move_count(position), best_over: None };
    }
    if game.value_by_rules(position).is_some() {
        return FirstLook::ByRules;
    }
    let (mut count, mut best_over) = (0usize, None::<crate::Value>);
    game.for_each_child(position, |child| match game.value_by_rules(&child) {
        Some(value) => best_over = best_over.max(Some(value.parent_view())),
        None => count += 1,
    });
    FirstLook::Moves { count, best_over }
}

/// Parents of a position: the positions with a move that leads to it.
///
/// # Invariant
/// For every non-terminal position `p` and every position `c`, `for_each_parent(c)`
/// yields `p` exactly as many times as `p` has moves leading to `c` (in a game
/// whose index keeps one position of each class of symmetric positions: to a
/// position of `c`'s class, `p` and `c` being kept positions). Terminal
/// positions are never parents (they have no moves). A parent the rules value
/// ([`FirstLook::ByRules`]) may be left out: no solver changes its value. The retrograde solver counts
/// children down with this, so a missing or extra parent gives wrong values;
/// [`crate::check::unmoves_match_moves`] tests the invariant for a game.
pub trait Unmoves: Indexed {
    /// Calls `f` with each parent of `position`.
    fn for_each_parent(&self, position: &Self::Position, f: impl FnMut(Self::Position));

    /// OPTIONAL: calls `f` with the index of each parent of the position at
    /// `index`, as [`Unmoves::for_each_parent`] yields them (each as many times,
    /// in any order): what retrograde analysis asks of every position it decides.
    /// The default decodes the position, then indexes each parent; a game
    /// overrides it when it can rank its parents without building them (a rules
    /// game ranks a parent from the pieces of its child with one piece moved).
    /// `index` names a position (not a hole).
    fn for_each_parent_index(&self, index: u64, mut f: impl FnMut(u64)) {
        let position = self.position(index).expect("a parent's index names a position");
        self.for_each_parent(&position, |parent| f(self.index(&parent)));
    }
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

/// Optional capability: the positions split into *tiers*, each numbered densely on its
/// own, so that a game too large to solve in memory is solved one tier at a time,
/// each tier reading only the finished tiers its children lie in (GamesmanOne's tier
/// API; Syzygy's material classes). Pawn chess is tiered by the number of pawns of
/// each side: a capture leaves the tier, and every other move stays in it.
///
/// | method | required? | what it gives |
/// |---|---|---|
/// | `tiers`, `child_tiers`, `tier_size`, `tier_name`, `locate`, `position_in` | yes | the tiers, their order and their indexes |
/// | `for_each_position_in_tier`, `for_each_position_at` | no | faster scans than decoding each index |
/// | `for_each_layer_in_tier` | no | an acyclic tier solved in one sweep (no counters, no parents) |
/// | `progress_bound`, `progress` | no | an acyclic tier in any order solved in sweeps by progress |
/// | `for_each_located` | no | each position's children already located: a faster sweep |
///
/// # Invariants
/// - every non-terminal position lies in exactly one tier: `locate(p) == Some((t, i))`
///   with `i < tier_size(t)` and `position_in(t, i) == Some(p)`; a terminal position
///   may lie in none (`locate` gives `None`);
/// - every child of a position of tier `t` is terminal, or lies in `t` or in one of
///   `child_tiers(t)`;
/// - `tiers()` lists every tier once, each after every tier in its `child_tiers`.
pub trait Tiered: Game {
    /// A tier's name within the game, e.g. (white pawns, black pawns).
    type Tier: Copy + Eq + Ord + Hash + Debug + Send + Sync;

    /// Every tier, in an order that solves child tiers first.
    fn tiers(&self) -> Vec<Self::Tier>;
    /// The other tiers the children of this tier's positions can lie in.
    fn child_tiers(&self, tier: Self::Tier) -> Vec<Self::Tier>;
    /// One more than the largest index in the tier.
    fn tier_size(&self, tier: Self::Tier) -> u64;
    /// A short, stable name for files and messages, e.g. `w3b2`. Files store it.
    fn tier_name(&self, tier: Self::Tier) -> String;
    /// The tier and the index within it of a position; `None` for a terminal
    /// position no tier holds.
    fn locate(&self, position: &Self::Position) -> Option<(Self::Tier, u64)>;
    /// The position at an index of a tier, or `None` for a hole.
    fn position_in(&self, tier: Self::Tier, index: u64) -> Option<Self::Position>;

    /// Calls `f(index, position)` for each index of `range` in `tier`, in order;
    /// holes are skipped. The default decodes each index.
    fn for_each_position_in_tier(
        &self,
        tier: Self::Tier,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, Self::Position),
    ) {
        for index in range {
            if let Some(p) = self.position_in(tier, index) {
                f(index, p);
            }
        }
    }

    /// OPTIONAL: calls `f(index, position)` for each of `indices` of `tier`
    /// (ascending), holes skipped: the sweeps by progress visit a tier this way.
    /// The default decodes each index; a game overrides it when neighbouring
    /// indices share work (a rules game's two sides to move share their pieces).
    fn for_each_position_at(
        &self,
        tier: Self::Tier,
        indices: impl Iterator<Item = u64>,
        mut f: impl FnMut(u64, Self::Position),
    ) {
        for index in indices {
            if let Some(p) = self.position_in(tier, index) {
                f(index, p);
            }
        }
    }

    /// OPTIONAL: calls `f(index, scan)` for each position of `range` in `tier` (holes
    /// skipped), with the position's children already located ([`Scan`]). The
    /// default plays every move and locates every child; a game overrides it when it
    /// can find its children's indices cheaper along a run of positions (pawn chess
    /// ranks them incrementally along a row). Children come in any order; a child
    /// reached by two moves may come twice.
    fn for_each_located(
        &self,
        tier: Self::Tier,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, Scan<'_, Self::Tier>),
    ) {
        let mut children = Vec::new();
        self.for_each_position_in_tier(tier, range, |index, position| {
            if let Some(outcome) = self.terminal(&position) {
                f(index, Scan::Over(outcome));
                return;
            }
            children.clear();
            self.for_each_child(&position, |child| children.push(child_at(self, &child)));
            f(index, Scan::Moves(&children));
        });
    }

    /// OPTIONAL: [`Tiered::for_each_located`] at the given `indices` of `tier`
    /// (ascending; holes skipped): the sweeps by progress visit a tier this way. The
    /// default plays every move and locates every child; a game overrides it when
    /// it can rank its children without playing moves (a rules game of pieces
    /// ranked group by group changes one or two groups' ranks a move).
    fn for_each_located_at(
        &self,
        tier: Self::Tier,
        indices: impl Iterator<Item = u64>,
        f: impl FnMut(u64, Scan<'_, Self::Tier>),
    ) {
        located_at(self, tier, indices, f)
    }

    /// OPTIONAL, for tiers without cycles: calls `f` with ranges of the tier, in an
    /// order where every child in the tier of a position lies in an earlier range,
    /// and returns `true`; each range is then solved in one parallel sweep. The
    /// default returns `false` without calling `f`: the tier is solved by retrograde
    /// analysis, cycles and draws included.
    fn for_each_layer_in_tier(&self, _tier: Self::Tier, _f: impl FnMut(std::ops::Range<u64>)) -> bool {
        false
    }

    /// OPTIONAL, for tiers without cycles whose index is not in layer order: a
    /// measure of progress, `Some(bound)` when every position `p` of the tier has
    /// `progress(tier, p) <= bound` and every move from `p` to a position of the
    /// same tier goes to one of *strictly greater* progress (a pawn only moves
    /// forward: the rows its side has advanced grow). The tier is then sorted by
    /// progress and swept from the greatest down, each progress in one parallel
    /// sweep, as layers are. The default, `None`: no such measure. Bounds from
    /// 2^16 − 1 up are not used (16-bit progress, one value kept for holes).
    fn progress_bound(&self, _tier: Self::Tier) -> Option<u32> {
        None
    }

    /// The progress of a position of `tier` (see [`Tiered::progress_bound`]); asked
    /// only of tiers with a bound.
    fn progress(&self, _tier: Self::Tier, _position: &Self::Position) -> u32 {
        0
    }

    /// OPTIONAL: calls `f(index, progress)` for each position of `range` in `tier`
    /// (holes skipped), as [`Tiered::progress`] gives it; asked only of tiers with
    /// a bound. The default decodes each position.
    fn for_each_progress_in_tier(&self, tier: Self::Tier, range: std::ops::Range<u64>, mut f: impl FnMut(u64, u32)) {
        self.for_each_position_in_tier(tier, range, |index, position| f(index, self.progress(tier, &position)));
    }
}

/// [`Tiered::for_each_located_at`]'s default, for games that override it only
/// for some of their variants: every move played and its child located.
pub fn located_at<G: Tiered + ?Sized>(
    game: &G,
    tier: G::Tier,
    indices: impl Iterator<Item = u64>,
    mut f: impl FnMut(u64, Scan<'_, G::Tier>),
) {
    let mut children = Vec::new();
    game.for_each_position_at(tier, indices, |index, position| {
        if let Some(outcome) = game.terminal(&position) {
            f(index, Scan::Over(outcome));
            return;
        }
        children.clear();
        game.for_each_child(&position, |child| children.push(child_at(game, &child)));
        f(index, Scan::Moves(&children));
    });
}

/// Where a child lies: over, or its tier and index (the default scans' step).
#[inline]
fn child_at<G: Tiered + ?Sized>(game: &G, child: &G::Position) -> ChildAt<G::Tier> {
    match game.terminal(child) {
        Some(outcome) => ChildAt::Over(outcome),
        None => match game.locate(child) {
            Some((tier, index)) => ChildAt::In(tier, index),
            None => ChildAt::Nowhere,
        },
    }
}

/// A position of a tier as [`Tiered::for_each_located`] gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan<'a, T> {
    /// The game is over here.
    Over(Outcome),
    /// The value is known from the rules without looking at the children: a move
    /// that ends the game in the mover's favour at once is a win in 1, the fastest
    /// a game can be won from a position that is not over.
    Known(crate::value::Value),
    /// Where each child lies (none: the side to move has no move).
    Moves(&'a [ChildAt<T>]),
}

/// Where a child lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildAt<T> {
    /// A terminal child, valued by the rules.
    Over(Outcome),
    /// At this index of this tier.
    In(T, u64),
    /// In no tier although not terminal: the game breaks the [`Tiered`] invariants.
    Nowhere,
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
    /// The version of the game's index: files store it, and a file of another
    /// version is refused (to be rebuilt). Raise it whenever the index changes.
    const INDEX_VERSION: u32 = 1;
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
