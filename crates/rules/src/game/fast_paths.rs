//! Which fast path serves each of the engine's capabilities, chosen once when
//! the game is made, from the shape of the rules (never from a game's name).
//!
//! | capability | paths, in the order they are preferred | the general path |
//! |---|---|---|
//! | retrograde's first look ([`FirstLookPath`]) | cell sets, step games' lists, pieces' ending words | the engine's (children played) |
//! | parents by index ([`ParentsPath`]) | cell sets, step games' lists | each parent built and located |
//! | tier sweeps: located children, progress ([`LocatedPath`]) | ranked move by move | each move played |
//! | outright search ([`OutrightPath`]) | line games on bit sets, step games on bit sets | the engine's alpha-beta |
//! | the search's knowledge ([`KnowledgePath`]) | a trail race's paths, immediate wins read from the rules | captures first |
//! | whole solve ([`WholePath`]) | bit rows (pursuits) | the engine's retrograde analysis |
//! | a position's children ([`ChildrenPath`], per side) | played from the piece list | the move generator |
//! | a game with a score's margins ([`MarginPath`]) | flip games on bit sets | the engine's memo |
//!
//! Every exclusion (a path that does not serve when another one does, or
//! where the index is folded) is written in [`FastPaths::choose`], and every
//! capability dispatches on its path by one exhaustive `match`. The general
//! path stays for everything else: it is the oracle each fast path is tested
//! against ([`crate::RulesGame::without`]).

use crate::compiled::symmetry::Symmetry;
use crate::compiled::tables::Tables;
use crate::index::PlacementIndex;
use crate::language::spec::Turn;
use crate::retrograde::first_look::{self, SetLook};
use crate::retrograde::fold::Fold;
use crate::retrograde::pursuit::Pursuit;
use crate::retrograde::scan::PlacementScan;
use crate::retrograde::set_unmoves::SetUnmoves;
use crate::retrograde::steps::{self, Steps};
use crate::search::bits::BitCore;
use crate::search::flips::{self, FlipShape};
use crate::search::knowledge::Knowledge;
use crate::search::lines::LineGame;
use crate::search::race::Race;
use std::sync::Arc;

/// A fast path that [`crate::RulesGame::without`] can leave out, so that a
/// test or a measurement compares it with the path that serves without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FastPath {
    /// Retrograde's first look and parents' walk on cell sets.
    CellSets,
    /// The first look and the parents ranked from the step games' lists.
    StepLists,
    /// The first look from the pieces' ending words.
    EndingWords,
    /// Tier sweeps that rank children move by move.
    Scan,
    /// The line games' search on bit sets (and their opening books).
    LineSearch,
    /// The step games' search on bit sets.
    BitCore,
    /// Immediate wins read from the rules, in the search.
    ImmediateWins,
    /// A trail race's longest paths, in the search.
    TrailRace,
    /// Whole solves of pursuits by bit rows.
    BitRows,
    /// Children played from the piece list where pieces only step.
    StepChildren,
    /// The margin search of flip games on bit sets.
    FlipSearch,
}

impl FastPath {
    /// Every fast path, in the order of the module's table.
    pub const ALL: [FastPath; 11] = [
        FastPath::CellSets,
        FastPath::StepLists,
        FastPath::EndingWords,
        FastPath::Scan,
        FastPath::LineSearch,
        FastPath::BitCore,
        FastPath::ImmediateWins,
        FastPath::TrailRace,
        FastPath::BitRows,
        FastPath::StepChildren,
        FastPath::FlipSearch,
    ];
}

/// Retrograde's first look at a position ([`gsolve_engine::FirstLook`]).
#[derive(Clone, Debug)]
pub(crate) enum FirstLookPath {
    /// Read from the groups' cell sets, no position made.
    Sets(Arc<SetLook>),
    /// Read from the step games' lists of rays.
    StepLists(Arc<Steps>),
    /// From the pieces' ending words, no child built.
    EndingWords,
    /// The engine's: the position decoded, its children played.
    Engine,
}

/// Parents by index ([`gsolve_engine::Unmoves::for_each_parent_index`]).
#[derive(Clone, Debug)]
pub(crate) enum ParentsPath {
    /// Walked on cell sets.
    Sets(Arc<SetUnmoves>),
    /// Ranked from the child's pieces along the step games' lists.
    StepLists(Arc<Steps>),
    /// Each parent built from the piece list, and located.
    Listed,
}

/// Children located and progress read in tier sweeps.
#[derive(Clone, Debug)]
pub(crate) enum LocatedPath {
    /// Ranked move by move from bit sets, no move played.
    Scan(Arc<PlacementScan>),
    /// The engine's: each move played and its child located.
    Engine,
}

/// A position valued outright, before the engine's alpha-beta.
#[derive(Clone, Debug)]
pub(crate) enum OutrightPath {
    /// The line games' search on bit sets.
    Lines(LineGame),
    /// The step games' search on bit sets.
    Bits(BitCore),
    /// None: the engine's alpha-beta searches.
    Engine,
}

/// What the engine's search is told beyond the moves.
#[derive(Clone, Debug)]
pub(crate) enum KnowledgePath {
    /// A trail race: pieces that can no longer meet valued by their longest paths.
    Race(Arc<Race>),
    /// Immediate wins and threats read from the rules.
    ImmediateWins(Arc<Knowledge>),
    /// Captures first, nothing more.
    Plain,
}

/// The whole solve of a game with an index.
#[derive(Clone, Debug)]
pub(crate) enum WholePath {
    /// Bit rows, 64 positions a word; the engine still solves where they give up.
    BitRows(Arc<Pursuit>),
    /// The engine's retrograde analysis.
    Retrograde,
}

/// How a game with a score is valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MarginPath {
    /// A flip game: the margin search on bit sets of its shape.
    Flips(FlipShape),
    /// The engine's memo of every position reached (also every game without a
    /// score, which never asks).
    Memo,
}

/// How a side's children are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ChildrenPath {
    /// Pieces only step and the side moves one piece: played from the list.
    StepList,
    /// The move generator, each move played.
    Generator,
}

/// The paths chosen for one game (module docs).
#[derive(Clone, Debug)]
pub(crate) struct FastPaths {
    pub(crate) first_look: FirstLookPath,
    pub(crate) parents: ParentsPath,
    pub(crate) located: LocatedPath,
    pub(crate) outright: OutrightPath,
    pub(crate) knowledge: KnowledgePath,
    pub(crate) whole: WholePath,
    /// By side to move.
    pub(crate) children: [ChildrenPath; 2],
    pub(crate) margins: MarginPath,
    /// The step games' lists rank this game's parents, whether or not the walk
    /// on cell sets is preferred to them.
    pub(crate) step_lists_rank_parents: bool,
    /// What [`FastPaths::choose`] was told to leave out.
    left_out: Vec<FastPath>,
}

/// What the choice reads: the compiled rules, the index and how it folds.
pub(crate) struct Parts<'a> {
    pub(crate) tables: &'a Tables,
    pub(crate) index: Option<&'a PlacementIndex>,
    pub(crate) fold: Option<&'a Fold>,
    pub(crate) mirror: Option<&'a Symmetry>,
    /// [`gsolve_engine::Indexed::terminals_indexed`].
    pub(crate) terminals_indexed: bool,
}

impl FastPaths {
    /// The paths for the game of `parts`, none of `left_out`.
    ///
    /// The exclusions, all of them:
    /// - the step games' lists and the scan rank children and parents
    ///   themselves, unfolded: not where the index is folded;
    /// - the parents' walk on sets needs the first look on sets;
    /// - the first look from ending words is the step games' lists' own
    ///   where those serve;
    /// - a line game is searched by the line search, not the step games';
    /// - a trail race's knowledge and the immediate wins exclude each other by
    ///   their shapes (trails, no trails);
    /// - a game that flips, passes or ends in a score takes the general paths,
    ///   but for its margins (a flip game's search where the rules are one).
    pub(crate) fn choose(parts: &Parts<'_>, left_out: &[FastPath]) -> FastPaths {
        let Parts { tables, index, fold, mirror, terminals_indexed } = *parts;
        // Flips, passes and scores are known to the general paths alone.
        let score_rules = tables.rules().has_score_rules();
        let allowed = |path: FastPath| !left_out.contains(&path) && !score_rules;
        let unfolded_index = index.filter(|_| fold.is_none());
        let set_look = index
            .filter(|_| allowed(FastPath::CellSets))
            .and_then(|index| SetLook::of(tables, index, terminals_indexed))
            .map(Arc::new);
        let set_unmoves = index
            .filter(|_| set_look.is_some())
            .and_then(|index| SetUnmoves::of(tables, index, fold, true))
            .map(Arc::new);
        let steps = unfolded_index
            .filter(|index| allowed(FastPath::StepLists) && steps::ranks_parents(tables, index))
            .map(|index| Arc::new(Steps::new(tables, index)));
        let first_look = match (set_look, &steps) {
            (Some(look), _) => FirstLookPath::Sets(look),
            (None, Some(steps)) => FirstLookPath::StepLists(steps.clone()),
            (None, None)
                if index.is_some()
                    && allowed(FastPath::EndingWords)
                    && first_look::applies(tables, terminals_indexed) =>
            {
                FirstLookPath::EndingWords
            }
            (None, None) => FirstLookPath::Engine,
        };
        let step_lists_rank_parents = steps.is_some();
        let parents = match (set_unmoves, steps) {
            (Some(walk), _) => ParentsPath::Sets(walk),
            (None, Some(steps)) => ParentsPath::StepLists(steps),
            (None, None) => ParentsPath::Listed,
        };
        let located = unfolded_index
            .filter(|_| allowed(FastPath::Scan))
            .and_then(|index| PlacementScan::new(tables, index))
            .map_or(LocatedPath::Engine, |scan| LocatedPath::Scan(Arc::new(scan)));
        let rules = tables.rules();
        let lines =
            allowed(FastPath::LineSearch).then(|| LineGame::of(rules, tables.board(), mirror.is_some())).flatten();
        let outright = match lines {
            Some(lines) => OutrightPath::Lines(lines),
            None => match allowed(FastPath::BitCore).then(|| BitCore::of(tables, mirror)).flatten() {
                Some(bits) => OutrightPath::Bits(bits),
                None => OutrightPath::Engine,
            },
        };
        let race = (rules.has_trails() && allowed(FastPath::TrailRace)).then(|| Race::of(tables)).flatten();
        let knowledge = match race {
            Some(race) => KnowledgePath::Race(Arc::new(race)),
            None => match allowed(FastPath::ImmediateWins).then(|| Knowledge::of(tables)).flatten() {
                Some(knowledge) => KnowledgePath::ImmediateWins(Arc::new(knowledge)),
                None => KnowledgePath::Plain,
            },
        };
        let whole = index
            .filter(|_| allowed(FastPath::BitRows))
            .and_then(|index| Pursuit::new(tables, index))
            .map_or(WholePath::Retrograde, |pursuit| WholePath::BitRows(Arc::new(pursuit)));
        let children = [0, 1].map(|side| {
            if allowed(FastPath::StepChildren) && tables.steps_only() && tables.turn_of(side) == Turn::OnePiece {
                ChildrenPath::StepList
            } else {
                ChildrenPath::Generator
            }
        });
        let margins = match (!left_out.contains(&FastPath::FlipSearch)).then(|| flips::shape_of(tables)).flatten() {
            Some(shape) => MarginPath::Flips(shape),
            None => MarginPath::Memo,
        };
        FastPaths {
            first_look,
            parents,
            located,
            outright,
            knowledge,
            whole,
            children,
            margins,
            step_lists_rank_parents,
            left_out: left_out.to_vec(),
        }
    }

    /// What was left out.
    pub(crate) fn left_out(&self) -> &[FastPath] {
        &self.left_out
    }

    /// Each capability's path in words, one line each, for `--check`.
    pub(crate) fn describe(&self, tables: &Tables) -> Vec<String> {
        let first_look = match &self.first_look {
            FirstLookPath::Sets(_) => "from the groups' cell sets",
            FirstLookPath::StepLists(_) => "from the step games' lists of rays",
            FirstLookPath::EndingWords if !tables.short_target_sets().is_empty() => {
                "from the pieces' ending words, moves read from bit sets"
            }
            FirstLookPath::EndingWords => "from the pieces' ending words",
            FirstLookPath::Engine => "general (each child played)",
        };
        let parents = match &self.parents {
            ParentsPath::Sets(_) => "walked on cell sets",
            ParentsPath::StepLists(_) => "ranked from the child's pieces along the step games' lists",
            ParentsPath::Listed => "general (each parent built and located)",
        };
        let located = match &self.located {
            LocatedPath::Scan(_) => "ranked move by move from bit sets",
            LocatedPath::Engine => "general (each move played)",
        };
        let outright = match &self.outright {
            OutrightPath::Lines(_) => "the line games' search on bit sets",
            OutrightPath::Bits(_) => "the step games' search on bit sets",
            OutrightPath::Engine => "general (alpha-beta)",
        };
        let knowledge = match &self.knowledge {
            KnowledgePath::Race(_) => "a trail race's longest paths",
            KnowledgePath::ImmediateWins(_) => "immediate wins and threats read from the rules",
            KnowledgePath::Plain => "general (captures first)",
        };
        let whole = match &self.whole {
            WholePath::BitRows(_) => "bit rows (a pursuit), the engine where they give up",
            WholePath::Retrograde => "general (retrograde analysis)",
        };
        let children = match self.children {
            [ChildrenPath::StepList, ChildrenPath::StepList] => "played from the piece list",
            [ChildrenPath::Generator, ChildrenPath::Generator] => "general (the move generator)",
            _ => "played from the piece list for the side that moves one piece, the move generator for the other",
        };
        let margins = match self.margins {
            MarginPath::Flips(_) => "the flip games' margin search on bit sets",
            MarginPath::Memo => "general (a memo of every position reached)",
        };
        let mut out = vec![
            format!("first look: {first_look}"),
            format!("parents: {parents}"),
            format!("tier sweeps: {located}"),
            format!("outright search: {outright}"),
            format!("search knowledge: {knowledge}"),
            format!("whole solve: {whole}"),
            format!("children: {children}"),
        ];
        if tables.rules().score.is_some() {
            out.push(format!("margins: {margins}"));
        }
        if !self.left_out.is_empty() {
            out.push(format!("left out: {:?}", self.left_out));
        }
        out
    }
}
