//! [`RulesGame`]: the rules compiled for one board, the index over piece
//! placements, the symmetries found and the fast paths chosen, put together
//! once; and the engine's [`Game`].
//!
//! Why a thin composition: each part is built from the parts below it and
//! reads nothing of the game; the game answers the engine's traits by handing a
//! position to the part that knows, through the path [`FastPaths`] chose.

use super::fast_paths::{self, ChildrenPath, FastPath, FastPaths, OutrightPath, Parts};
use crate::compiled::board::{Board, Group};
use crate::compiled::moves;
use crate::compiled::position::{RulesPosition, MAX_PIECES};
use crate::compiled::symmetry::Symmetry;
use crate::compiled::tables::{check_counts, Tables};
use crate::index::{Folds, PlacementIndex};
use crate::language::error::RulesError;
use crate::language::spec::Rules;
use crate::retrograde::fold::Fold;
use crate::search::lines::LineGame;
use gsolve_engine::{Game, Outcome};
use std::sync::Arc;

pub use crate::compiled::moves::{RulesMove, DROP};
pub use crate::compiled::tables::{MAX_ALL_PIECES, MAX_HAND_SLOTS};

/// A game described by rules, on one board; its positions have room for `N`
/// pieces ([`RulesPosition`]).
#[derive(Clone, Debug)]
pub struct RulesGame<const N: usize = MAX_PIECES> {
    /// The rules compiled for the board: what moves and endings read.
    tables: Tables,
    /// The dense index over piece placements, for games without trails; else why
    /// there is none.
    index: Result<PlacementIndex, String>,
    /// The symmetries found from the rules, and how the index folds by them.
    symmetries: Symmetries,
    /// [`gsolve_engine::Indexed::terminals_indexed`], found once.
    pub(super) terminals_indexed: bool,
    /// The fast path chosen for each capability ([`fast_paths`]).
    pub(super) paths: FastPaths,
}

/// The symmetries a game's rules have, and how its index folds by them.
#[derive(Clone, Debug)]
struct Symmetries {
    /// The left-right reflection, when the rules and the board look the same in a
    /// mirror (the search keeps one of a position and its image).
    mirror: Option<Symmetry>,
    /// The side swap, when the two sides' rules are each other's image
    /// ([`crate::compiled::symmetry`]).
    side_swap: Option<Symmetry>,
    /// How positions fold into the index, where it keeps one of each orbit
    /// ([`crate::index`], "Folded by symmetry").
    fold: Option<Arc<Fold>>,
}

impl RulesGame {
    /// The game of `rules` on `board`, its index covering up to `limits[g]` pieces of
    /// each group (the counts of the position to solve, or of the start); without
    /// limits, the game has no index (search, or reading a position to learn them).
    pub fn new(rules: Arc<Rules>, board: Board, limits: Option<&[u8]>) -> Result<RulesGame, RulesError> {
        RulesGame::build(rules, board, limits, Folds::ALL)
    }

    /// [`RulesGame::new`], its index folded by those of the symmetries of the
    /// rules `folds` allows, where it can be ([`crate::index`], "Folded by
    /// symmetry"); a tablebase written before indexes were folded is read with
    /// [`Folds::NONE`].
    pub fn build(
        rules: Arc<Rules>,
        board: Board,
        limits: Option<&[u8]>,
        folds: Folds,
    ) -> Result<RulesGame, RulesError> {
        let tables = Tables::new(rules, board)?;
        if let Some(limits) = limits {
            check_counts(tables.rules(), tables.board(), limits)?;
        }
        let mirror = Symmetry::mirror(&tables);
        let side_swap = Symmetry::side_swap(&tables);
        let index = match limits {
            _ if tables.rules().has_trails() => {
                Err("a piece leaves a trail: positions include walls, which no index covers".to_string())
            }
            _ if tables.rules().has_score_rules() => {
                Err("pieces flip, sides pass or the game ends in a score: no index runs such moves back yet"
                    .to_string())
            }
            None => Err("no piece limits were given".to_string()),
            Some(limits) => PlacementIndex::new(
                &tables,
                limits,
                side_swap.as_ref().filter(|_| folds.side_swap),
                mirror.as_ref().filter(|_| folds.mirror),
                folds.royal_pair,
            ),
        };
        let fold = index
            .as_ref()
            .ok()
            .and_then(|index| Fold::of(index.folding(), side_swap.as_ref(), mirror.as_ref(), tables.board()))
            .map(Arc::new);
        // Meetings (two pieces on one cell) and endings no tier holds are
        // valued from the moves.
        let terminals_indexed = !tables.has_meetings() && index.as_ref().is_ok_and(|index| index.holds_every_ending());
        let symmetries = Symmetries { mirror, side_swap, fold };
        let paths = FastPaths::choose(&parts(&tables, &index, &symmetries, terminals_indexed), &[]);
        Ok(RulesGame { tables, index, symmetries, terminals_indexed, paths })
    }

    /// The same game with an index for up to `limits[g]` pieces of each group.
    pub fn with_limits(&self, limits: &[u8]) -> Result<RulesGame, RulesError> {
        RulesGame::new(self.rules().clone(), self.board().clone(), Some(limits))
    }

    /// The same game with positions of room for `M` pieces, if its index holds no
    /// more (`None` without an index, or with more pieces). Its indices are this
    /// game's: a solution of one is a solution of the other. Solvers take the
    /// smallest room that fits ([`compact()`]).
    pub fn compact<const M: usize>(&self) -> Option<RulesGame<M>> {
        if self.index.as_ref().ok()?.max_pieces() > M {
            return None;
        }
        Some(RulesGame {
            tables: self.tables.clone(),
            index: self.index.clone(),
            symmetries: self.symmetries.clone(),
            terminals_indexed: self.terminals_indexed,
            paths: self.paths.clone(),
        })
    }
}

/// What [`FastPaths::choose`] reads of a game.
fn parts<'a>(
    tables: &'a Tables,
    index: &'a Result<PlacementIndex, String>,
    symmetries: &'a Symmetries,
    terminals_indexed: bool,
) -> Parts<'a> {
    Parts {
        tables,
        index: index.as_ref().ok(),
        fold: symmetries.fold.as_deref(),
        mirror: symmetries.mirror.as_ref(),
        terminals_indexed,
    }
}

impl<const N: usize> RulesGame<N> {
    /// The pieces of each group on the board, then (in games with hands) the
    /// pieces in each hand slot: the count vector of the position's tier.
    pub fn counts(&self, p: &RulesPosition<N>) -> Vec<u8> {
        self.tables.counts(p)
    }

    /// The groups of the hand slots, in slot order.
    pub fn hand_groups(&self) -> &[usize] {
        self.tables.hand_groups()
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        self.tables.rules()
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.tables.board()
    }

    /// The groups (side, kind, letter) in index order.
    pub fn groups(&self) -> &[Group] {
        &self.board().groups
    }

    /// The piece limits the index covers.
    pub fn limits(&self) -> Option<&[u8]> {
        self.index.as_ref().ok().map(|i| i.limits())
    }

    /// Are the tier sweeps' children ranked move by move, without playing moves
    /// (the shape [`crate::retrograde::scan`] describes: pawn chess, Breakthrough)?
    pub fn scans_children(&self) -> bool {
        matches!(self.paths.located, fast_paths::LocatedPath::Scan(_))
    }

    /// Does retrograde's first look at a position ([`crate::retrograde::first_look`]) read
    /// each piece's moves from two bit sets, its targets onto empty cells and
    /// onto enemies ([`Tables::short_targets`]: every ray one cell long or a
    /// leap, boards of at most 128 cells), rather than walk its rays? Dobutsu
    /// shogi, Fox and Hounds, steppers with drops. (Where the pieces only step
    /// on a board of more than 64 cells, the step games' lists are read
    /// instead: [`crate::retrograde::steps`].)
    pub fn first_look_from_bit_sets(&self) -> bool {
        match self.paths.first_look {
            fast_paths::FirstLookPath::Sets(_) => true,
            fast_paths::FirstLookPath::EndingWords => !self.tables.short_target_sets().is_empty(),
            fast_paths::FirstLookPath::StepLists(_) | fast_paths::FirstLookPath::Engine => false,
        }
    }

    /// The dense index, if the game has one (no trails, and it fits in 64 bits).
    pub fn placement_index(&self) -> Result<&PlacementIndex, &str> {
        self.index.as_ref().map_err(|why| why.as_str())
    }

    /// Calls `f` with each legal move of a position where play goes on, each
    /// distinct move once.
    pub fn for_each_move(&self, p: &RulesPosition<N>, f: impl FnMut(RulesMove)) {
        moves::for_each(&self.tables, p, f)
    }

    /// Do pieces only step ([`Tables::steps_only`]) and does the side to move of
    /// `p` move one piece a turn?
    #[inline]
    fn steps_one_piece(&self, p: &RulesPosition<N>) -> bool {
        self.paths.children[p.to_move()] == ChildrenPath::StepList
    }

    /// The rules compiled for the board.
    #[inline]
    pub(crate) fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The index, if the game has one.
    #[inline]
    pub(crate) fn index(&self) -> Option<&PlacementIndex> {
        self.index.as_ref().ok()
    }

    /// The left-right reflection, if the game looks the same in a mirror.
    pub(crate) fn mirror(&self) -> Option<&Symmetry> {
        self.symmetries.mirror.as_ref()
    }

    /// The side swap, if the sides' rules are each other's image.
    pub(crate) fn side_swap(&self) -> Option<&Symmetry> {
        self.symmetries.side_swap.as_ref()
    }

    /// How positions fold into the index, if it keeps one of each orbit.
    pub(crate) fn fold(&self) -> Option<&Fold> {
        self.symmetries.fold.as_deref()
    }

    /// The symmetries found from the rules ([`crate::compiled::symmetry`]): the mirror,
    /// then the side swap, those that hold.
    pub fn symmetries(&self) -> impl Iterator<Item = &Symmetry> {
        self.symmetries.mirror.iter().chain(self.symmetries.side_swap.iter())
    }

    /// The bit-set search, if the game is a line game ([`crate::search::lines`]).
    pub(crate) fn lines(&self) -> Option<&LineGame> {
        match &self.paths.outright {
            OutrightPath::Lines(lines) => Some(lines),
            OutrightPath::Bits(_) | OutrightPath::Engine => None,
        }
    }

    /// For a line game (drops, lines, a full board: docs/rules.md), the positions
    /// its bit-set search has visited and the bytes of its table; `None` for other
    /// games, or before a search.
    pub fn line_search_stats(&self) -> Option<(u64, usize)> {
        self.lines()?.stats()
    }

    /// The same game with none of `left_out`'s fast paths (nor those this game
    /// already left out): each capability is served by the path next in
    /// order ([`fast_paths`]), down to the general one. The tests and the
    /// measurements compare each fast path with what serves without it.
    pub fn without(&self, left_out: &[FastPath]) -> RulesGame<N> {
        let mut all = self.paths.left_out().to_vec();
        all.extend(left_out.iter().filter(|path| !all.contains(path)).collect::<Vec<_>>());
        let parts = parts(&self.tables, &self.index, &self.symmetries, self.terminals_indexed);
        RulesGame { paths: FastPaths::choose(&parts, &all), ..self.clone() }
    }

    /// Is the game searched by the bit-set core of step games (docs/rules-solving.md,
    /// "Step games on bit sets": Breakthrough, pawn chess)?
    pub fn has_bit_core(&self) -> bool {
        self.bits().is_some()
    }

    /// For a game searched by the bit-set core of step games, the positions it
    /// has visited and the bytes of its table; `None` for other games, or
    /// before a search.
    pub fn bit_search_stats(&self) -> Option<(u64, usize)> {
        self.bits()?.stats()
    }

    /// For a game searched by the bit-set core of step games, how many of its
    /// null-window probes were searched by several threads (`-j`, rayon's
    /// pool); `None` for other games, or before a search.
    pub fn bit_search_helped_probes(&self) -> Option<u64> {
        self.bits()?.helped_probes()
    }

    /// The bit-set core of step games, if the game has its shape.
    fn bits(&self) -> Option<&crate::search::bits::BitCore> {
        match &self.paths.outright {
            OutrightPath::Bits(bits) => Some(bits),
            OutrightPath::Lines(_) | OutrightPath::Engine => None,
        }
    }

    /// Are parents ranked from their child's pieces, without building them (the
    /// games whose pieces only step: [`crate::retrograde::steps`])?
    pub fn ranks_parents(&self) -> bool {
        self.paths.step_lists_rank_parents
    }

    /// The fast path chosen for each capability, in words ([`fast_paths`]).
    pub fn fast_paths(&self) -> Vec<String> {
        self.paths.describe(&self.tables)
    }

    /// The number of moves as the general move generator gives them (not the
    /// step games' count): for tests comparing the two.
    fn moves_by_generator(&self, p: &RulesPosition<N>) -> usize {
        let mut n = 0;
        self.for_each_move(p, |_| n += 1);
        n
    }

    /// [`Game::terminal`] with every ending checked in turn, never from the
    /// endings' table: for tests comparing the two.
    #[doc(hidden)]
    pub fn terminal_by_checks(&self, p: &RulesPosition<N>) -> Option<Outcome> {
        let endings = self.tables.endings();
        match endings.ending_by_checks(p) {
            Some(result) => Some(result),
            None if endings.stuck() != Outcome::Loss && self.moves_by_generator(p) == 0 => Some(endings.stuck()),
            None => None,
        }
    }
}

impl<const N: usize> Game for RulesGame<N> {
    type Position = RulesPosition<N>;
    type Move = RulesMove;

    /// The endings, the side that just moved first: a meeting, then each side's
    /// `reach`, `line` and `no-pieces` endings, then a full board, then (when the
    /// rules make being stuck anything but a loss) the side to move having no move.
    fn terminal(&self, p: &RulesPosition<N>) -> Option<Outcome> {
        moves::terminal(&self.tables, p)
    }

    fn moves(&self, p: &RulesPosition<N>, moves: &mut Vec<RulesMove>) {
        self.for_each_move(p, |m| moves.push(m));
    }

    #[inline]
    fn play(&self, p: &RulesPosition<N>, m: &RulesMove) -> RulesPosition<N> {
        moves::play(&self.tables, p, m)
    }

    /// Where pieces only step and a side moves one piece, played from the list
    /// without building the moves ([`moves::for_each_step_child`]).
    #[inline]
    fn for_each_child(&self, p: &RulesPosition<N>, mut f: impl FnMut(RulesPosition<N>)) {
        if self.steps_one_piece(p) {
            return moves::for_each_step_child(&self.tables, p, f);
        }
        moves::for_each(&self.tables, p, |m| f(moves::play(&self.tables, p, &m)));
    }

    /// Counted without playing them.
    #[inline]
    fn move_count(&self, p: &RulesPosition<N>) -> usize {
        if self.steps_one_piece(p) {
            return moves::step_move_count(&self.tables, p);
        }
        let mut n = 0;
        self.for_each_move(p, |_| n += 1);
        n
    }
}

/// A game whose rules have a `[score]`: the final margin counted as the rules
/// say (the other games never end in a score: 0).
impl<const N: usize> gsolve_engine::Scored for RulesGame<N> {
    fn final_margin(&self, p: &RulesPosition<N>) -> i32 {
        self.tables.margin(p)
    }
}

impl<const N: usize> RulesGame<N> {
    /// Does the game end in a score (`[score]`): are its values margins?
    pub fn is_scored(&self) -> bool {
        self.rules().score.is_some()
    }

    /// The shape of a flip game (Othello-like rules on a whole rectangle of at
    /// most 64 cells), whose margins the search on bit sets
    /// (`gsolve_rules::flips::FlipSearch`) finds; `None` for other rules.
    pub fn flip_shape(&self) -> Option<crate::search::flips::FlipShape> {
        match self.paths.margins {
            fast_paths::MarginPath::Flips(shape) => Some(shape),
            fast_paths::MarginPath::Memo => None,
        }
    }

    /// A position of a flip game as the search's bit sets: (the side to move's
    /// pieces, the other side's), cell `row · cols + col`.
    pub fn flip_sets(&self, p: &RulesPosition<N>) -> (u64, u64) {
        let (board, groups) = (self.board(), self.groups());
        let mut sides = [0u64; 2];
        for piece in p.pieces() {
            let (r, c) = board.coords[piece.cell as usize];
            sides[groups[piece.group].side] |= 1 << (r * board.cols + c);
        }
        (sides[p.to_move()], sides[1 - p.to_move()])
    }
}
