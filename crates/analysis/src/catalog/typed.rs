//! The catalog's decisions for games with a dense index: how each is solved whole,
//! how its tablebase is laid out and verified, and the two places where a name
//! becomes a type ([`open_tablebase`], [`with_variant`]).
//!
//! | game          | whole solve                                           | tablebase layout                       | across processes |
//! |---------------|-------------------------------------------------------|----------------------------------------|------------------|
//! | `pawns`       | layered sweep                                         | tiers on disk                          | tier by tier |
//! | `chase`       | bit rows within their budget, else retrograde         | whole                                  | whole |
//! | `queens-case` | bit rows on open maps within their budget, else retrograde | whole                             | whole |
//! | `rules`       | bit rows for pursuits, else retrograde of the index   | tiers on disk; whole for pursuits (unless tiers are asked for) and for tiers that lead back to each other | tier by tier where tiers are on disk and every one is swept (layers or progress), else whole |

use super::policy::{self, Policy, WholeSolver};
use super::{queens_parameters, GameKind};
use crate::draw::Draw;
use gsolve_engine::{layered, retrograde, Indexed, Observer, Solution, Variant};
use gsolve_games::chase::Chase;
use gsolve_games::notation::{Explain, PlainNotation};
use gsolve_games::pawns::Pawns;
use gsolve_games::pursuit::BitwiseOptions;
use gsolve_games::queens_case::QueensCase;
use gsolve_rules::RulesGame;
use gsolve_tablebase::tiers::{self, BuildOptions};
use gsolve_tablebase::write::{self, StoredIdentity, Written};
use gsolve_tablebase::{Error, GameTablebase, Tablebase, Verification};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Failures a verification lists before it only counts them.
pub const FAILURES_SHOWN: usize = 10;

/// A bit-row solve if it answered, else the engine's retrograde solve.
fn bit_rows_or_retrograde(
    bit_rows: Option<Solution>,
    retrograde: impl FnOnce() -> Solution,
) -> (Solution, WholeSolver) {
    match bit_rows {
        Some(solution) => (solution, WholeSolver::BitRows),
        None => (retrograde(), WholeSolver::Retrograde),
    }
}

/// How a game's tablebase is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Every position solved at once in memory, then written.
    Whole,
    /// Tier by tier in a work directory, each finished tier kept on disk (a stopped
    /// build resumes), then assembled.
    Tiers,
}

/// What every front end needs of a game with a dense index: a catalog game that can
/// be solved whole, stored, probed and verified. The decisions each method makes
/// are the only copy of them: the command line, the Python package and the
/// analyzer all call these.
pub trait CatalogGame: Variant + Indexed + PlainNotation + Explain + Draw + Send + Sync + 'static {
    /// The game's catalog handle.
    const KIND: GameKind;

    /// The sides' names as [`Explain::side_to_move`] gives them, mover first at the
    /// start.
    fn sides(&self) -> [&'static str; 2] {
        Self::KIND.entry().side_names()
    }

    /// The position a game of this variant starts from (a rules game: none, its
    /// start depends on the position it was set up from).
    fn start_position(&self) -> Option<Self::Position>;

    /// The side to move as 0 or 1, in the order of [`CatalogGame::sides`].
    fn side_index(&self, position: &Self::Position) -> usize {
        let name = self.side_to_move(position);
        self.sides().iter().position(|&s| s == name).unwrap_or(0)
    }

    /// The solver [`CatalogGame::solve_whole`] runs: the game's whole-solve policy
    /// (bit rows may still give up and leave the game to retrograde analysis).
    fn whole_solver(&self) -> WholeSolver;

    /// Which solver answers a position of this game within `limits`, and whether it
    /// may be solved whole: the catalog's policy ([`policy`]), the one every front
    /// end asks.
    fn policy(&self, limits: &crate::Limits) -> Result<Policy, crate::AnalysisError> {
        policy::whole_game_policy(self, limits)
    }

    /// Every position's value, by the solver [`CatalogGame::whole_solver`] names,
    /// and the solver that answered.
    fn solve_whole(&self, observer: Option<Observer<'_>>) -> (Solution, WholeSolver);

    /// How its tablebase is built; `tiers_asked`: the user asked for tiers on disk
    /// (a memory cap or a work directory).
    fn layout(&self, tiers_asked: bool) -> Layout;

    /// Why no tablebase of this variant can be built, if it cannot (its index is too
    /// large to address).
    fn unbuildable(&self) -> Option<String> {
        None
    }

    /// Hands the game to a build spread over processes, as the kind of build it
    /// takes: whole by retrograde analysis, or tier by tier.
    fn build_across<B: ClusterBuild>(self, build: B) -> B::Output;

    /// Every position's stored value checked against the rules and its children's.
    /// The default decompresses the whole table into memory; tiered games go tier
    /// by tier, in the memory of one tier and the tiers it reads.
    fn verify_values(&self, file: &Tablebase, observer: Option<Observer<'_>>) -> Result<Verification, Error> {
        let table = file.load(observer)?;
        Ok(gsolve_tablebase::verify(self, &table, FAILURES_SHOWN, observer))
    }

    /// The board parameters [`crate::Analyzer::start`] takes for this variant.
    fn board_parameters(&self) -> Vec<(String, String)> {
        self.parameters()
    }

    /// Builds the tablebase tier by tier in `work_dir` ([`Layout::Tiers`]); returns
    /// what was written, the tiers solved now (fewer than all when a stopped build
    /// resumed) and the game's tiers. A game without tiers is built whole.
    fn build_tiers(
        &self,
        output: &Path,
        work_dir: &Path,
        options: &BuildOptions,
        observer: Option<Observer<'_>>,
    ) -> Result<(Written, usize, usize), Error> {
        let _ = work_dir;
        let (solution, _) = self.solve_whole(observer);
        Ok((write::write_solution(output, self, &solution, &options.write, observer)?, 1, 1))
    }
}

/// How a tablebase is to be built ([`build_tablebase`]).
#[derive(Clone, Debug, Default)]
pub struct BuildPlan {
    /// Where finished tiers are kept until the file is written; `None`: beside the
    /// output ([`tiers::default_work_dir`]). Asking for it asks for tiers.
    pub work_dir: Option<PathBuf>,
    /// The most memory a tier's solve may take; asking for it asks for tiers.
    pub memory: Option<u64>,
    /// How the file is written.
    pub write: write::WriteOptions,
}

/// What [`build_tablebase`] did.
#[derive(Debug)]
pub struct Built {
    /// The file written.
    pub written: Written,
    /// How it was laid out.
    pub layout: Layout,
    /// The solver and the time spent solving, for a whole build (a tiered one
    /// solves and writes as it goes).
    pub solved: Option<(WholeSolver, Duration)>,
    /// For a tiered build: the tiers solved now and the game's tiers (fewer solved
    /// now when a stopped build resumed), and the work directory.
    pub tiers: Option<(usize, usize, PathBuf)>,
}

/// Builds the tablebase of `game` at `output` on this machine, laid out as the
/// catalog decides ([`CatalogGame::layout`]): the one build every front end runs.
pub fn build_tablebase<G: CatalogGame>(
    game: &G,
    output: &Path,
    plan: &BuildPlan,
    observer: Option<Observer<'_>>,
) -> Result<Built, Error> {
    let layout = game.layout(plan.work_dir.is_some() || plan.memory.is_some());
    match layout {
        Layout::Whole => {
            write::check_output(output, plan.write.force)?;
            let started = Instant::now();
            let (solution, solver) = game.solve_whole(observer);
            let solved = started.elapsed();
            let written = write::write_solution(output, game, &solution, &plan.write, observer)?;
            Ok(Built { written, layout, solved: Some((solver, solved)), tiers: None })
        }
        Layout::Tiers => {
            let work_dir = plan.work_dir.clone().unwrap_or_else(|| tiers::default_work_dir(output));
            let options = BuildOptions { memory: plan.memory, write: plan.write.clone() };
            let (written, solved_now, total) = game.build_tiers(output, &work_dir, &options, observer)?;
            Ok(Built { written, layout, solved: None, tiers: Some((solved_now, total, work_dir)) })
        }
    }
}

/// A build spread over processes, handed in by a front end (the command line's
/// timely runtime): the catalog says, in [`CatalogGame::build_across`], which of the
/// two a game takes.
pub trait ClusterBuild {
    /// What the build returns.
    type Output;
    /// Every position at once, by retrograde analysis over un-moves. `game` is
    /// the catalog's game or a faster form of it with the same index (a rules
    /// game with positions of a smaller room); `stored` is the game the file
    /// says it holds.
    fn whole<G: gsolve_engine::Unmoves + Send + Sync + 'static>(self, game: G, stored: StoredIdentity) -> Self::Output;
    /// Tier by tier, each tier swept (in layers or by progress: the game's
    /// [`gsolve_engine::tiered::sweep_of`]) or solved by retrograde within
    /// it. `game` and `stored` as in [`ClusterBuild::whole`].
    fn tiers<G: gsolve_engine::Tiered + gsolve_engine::Indexed + Send + Sync + 'static>(
        self,
        game: G,
        stored: StoredIdentity,
    ) -> Self::Output;
}

/// The engine's retrograde solve with progress reports.
fn retrograde_with<G: gsolve_engine::Unmoves + Sync>(game: &G, observer: Option<Observer<'_>>) -> Solution {
    retrograde::solve_with(game, &retrograde::Options { progress: observer, ..retrograde::Options::default() })
}

impl CatalogGame for Pawns {
    const KIND: GameKind = GameKind::Pawns;

    fn start_position(&self) -> Option<Self::Position> {
        Some(self.start())
    }

    fn whole_solver(&self) -> WholeSolver {
        WholeSolver::Layered
    }

    fn policy(&self, limits: &crate::Limits) -> Result<Policy, crate::AnalysisError> {
        policy::pawns_policy(self, limits)
    }

    fn solve_whole(&self, observer: Option<Observer<'_>>) -> (Solution, WholeSolver) {
        (layered::solve_with(self, observer), WholeSolver::Layered)
    }

    fn layout(&self, _tiers_asked: bool) -> Layout {
        Layout::Tiers
    }

    fn unbuildable(&self) -> Option<String> {
        self.pawn_index().is_none().then(|| "the index does not fit in 64 bits".to_string())
    }

    fn build_across<B: ClusterBuild>(self, build: B) -> B::Output {
        let stored = StoredIdentity::of(&self);
        build.tiers(self, stored)
    }

    fn verify_values(&self, file: &Tablebase, observer: Option<Observer<'_>>) -> Result<Verification, Error> {
        gsolve_tablebase::verify_tiered(self, file, FAILURES_SHOWN, observer)
    }

    fn build_tiers(
        &self,
        output: &Path,
        work_dir: &Path,
        options: &BuildOptions,
        observer: Option<Observer<'_>>,
    ) -> Result<(Written, usize, usize), Error> {
        let total = gsolve_engine::Tiered::tiers(self).len();
        tiers::build(self, output, work_dir, options, observer).map(|(written, now)| (written, now, total))
    }
}

impl CatalogGame for Chase {
    const KIND: GameKind = GameKind::Chase;

    /// White in the top left corner, black in the bottom right, white to move.
    fn start_position(&self) -> Option<Self::Position> {
        let n = self.size();
        let corners = gsolve_games::chase::ChaseCase {
            size: n,
            white: gsolve_games::notation::Coord { row: 1, col: 1 },
            black: gsolve_games::notation::Coord { row: n, col: n },
        };
        Some(self.start(&corners))
    }

    /// The bit-parallel solve gives the engine's solution, index for index, faster.
    fn whole_solver(&self) -> WholeSolver {
        WholeSolver::BitRows
    }

    /// Bit rows, the engine's retrograde analysis past their budget.
    fn solve_whole(&self, observer: Option<Observer<'_>>) -> (Solution, WholeSolver) {
        let bitwise = BitwiseOptions { budget: self.bitwise_budget(), progress: observer.map(|o| o as _) };
        bit_rows_or_retrograde(self.solve_bitwise(&bitwise), || retrograde_with(self, observer))
    }

    fn layout(&self, _tiers_asked: bool) -> Layout {
        Layout::Whole
    }

    fn build_across<B: ClusterBuild>(self, build: B) -> B::Output {
        let stored = StoredIdentity::of(&self);
        build.whole(self, stored)
    }
}

impl CatalogGame for QueensCase {
    const KIND: GameKind = GameKind::QueensCase;

    fn start_position(&self) -> Option<Self::Position> {
        Some(self.start())
    }

    /// The bit-parallel solve on open maps (those it has a budget for); the
    /// engine's on others.
    fn whole_solver(&self) -> WholeSolver {
        match self.bitwise_budget() {
            Some(_) => WholeSolver::BitRows,
            None => WholeSolver::Retrograde,
        }
    }

    /// Bit rows within their budget, else the engine's retrograde analysis.
    fn solve_whole(&self, observer: Option<Observer<'_>>) -> (Solution, WholeSolver) {
        let bitwise = |budget| self.solve_bitwise(&BitwiseOptions { budget, progress: observer.map(|o| o as _) });
        bit_rows_or_retrograde(self.bitwise_budget().and_then(bitwise), || retrograde_with(self, observer))
    }

    fn layout(&self, _tiers_asked: bool) -> Layout {
        Layout::Whole
    }

    fn build_across<B: ClusterBuild>(self, build: B) -> B::Output {
        let stored = StoredIdentity::of(&self);
        build.whole(self, stored)
    }

    fn board_parameters(&self) -> Vec<(String, String)> {
        self.parameters().into_iter().filter(|(k, _)| k == super::key::MAP).collect()
    }
}

impl CatalogGame for RulesGame {
    const KIND: GameKind = GameKind::Rules;

    fn start_position(&self) -> Option<Self::Position> {
        None
    }

    fn sides(&self) -> [&'static str; 2] {
        self.rules().sides.each_ref().map(|side| gsolve_rules::intern(&side.name))
    }

    /// Bit rows for a pursuit ([`RulesGame::is_pursuit`]), far faster than the
    /// engine (docs/performance.md); the engine's retrograde analysis for any
    /// other game.
    fn whole_solver(&self) -> WholeSolver {
        if self.is_pursuit() {
            WholeSolver::BitRows
        } else {
            WholeSolver::Retrograde
        }
    }

    fn policy(&self, limits: &crate::Limits) -> Result<Policy, crate::AnalysisError> {
        policy::rules_policy(self, limits)
    }

    /// Bit rows for a pursuit, and the engine's retrograde analysis (positions of
    /// the smallest room that holds the pieces) for any other game or when the bit
    /// rows give up (a long game): the same values either way.
    fn solve_whole(&self, observer: Option<Observer<'_>>) -> (Solution, WholeSolver) {
        let options = retrograde::Options { progress: observer, ..retrograde::Options::default() };
        let bit_rows = match self.whole_solver() {
            WholeSolver::BitRows => gsolve_rules::solve_by_bit_rows(self, &options),
            _ => None,
        };
        bit_rows_or_retrograde(bit_rows, || gsolve_rules::solve_retrograde(self, &options))
    }

    /// Tiers that moves lead back to (drops and captures; promotions) are solved
    /// whole; so, unless tiers on disk are asked for, are a pursuit (by bit rows,
    /// far faster than its tiers) and a game of one tier that may have
    /// cycles (Fox and Hounds): retrograde within a tier keeps every position's
    /// parents, about 16 bytes a position and 8 a move, where the whole-game
    /// retrograde un-moves in 3 bytes a position, and one tier spares nothing.
    /// The file is the same.
    fn layout(&self, tiers_asked: bool) -> Layout {
        let ordered = self.placement_index().is_ok_and(|index| index.tiers_ordered());
        let one_loopy_tier = || {
            let tiers = gsolve_engine::Tiered::tiers(self);
            tiers.len() == 1 && gsolve_engine::tiered::sweep_of(self, tiers[0]).is_none()
        };
        if !ordered || (self.whole_solver() == WholeSolver::BitRows || one_loopy_tier()) && !tiers_asked {
            Layout::Whole
        } else {
            Layout::Tiers
        }
    }

    /// Across processes, tier by tier where the single process builds tiers on
    /// disk: each tier swept (in layers or by progress: pawn-like games,
    /// placing games) or solved by retrograde within it (tiers that may have
    /// cycles, as a game of kings that capture has), split over the workers or,
    /// when small, dealt whole to one; else whole, by retrograde analysis over
    /// un-moves (tiers that lead back to each other, as Dobutsu's, pursuits, and
    /// games of one tier with cycles, as the single process builds them). The file is the one a single process writes: the
    /// same index, the same values.
    fn build_across<B: ClusterBuild>(self, build: B) -> B::Output {
        struct Across<B> {
            build: B,
            stored: StoredIdentity,
            by_tiers: bool,
        }
        impl<B: ClusterBuild> gsolve_rules::CompactTask for Across<B> {
            type Output = B::Output;
            fn run<const N: usize>(self, game: &RulesGame<N>) -> Self::Output {
                if self.by_tiers {
                    self.build.tiers(game.clone(), self.stored)
                } else {
                    self.build.whole(game.clone(), self.stored)
                }
            }
        }
        let by_tiers = self.layout(false) == Layout::Tiers;
        // Positions of the smallest room that holds the pieces, as the
        // single-process solve takes them ([`gsolve_rules::compact`]).
        let stored = StoredIdentity::of(&self);
        gsolve_rules::compact(&self, Across { build, stored, by_tiers })
    }

    /// Its tiers are solved with positions of the smallest room that holds its
    /// pieces ([`gsolve_rules::compact`]).
    fn build_tiers(
        &self,
        output: &Path,
        work_dir: &Path,
        options: &BuildOptions,
        observer: Option<Observer<'_>>,
    ) -> Result<(Written, usize, usize), Error> {
        struct Build<'a, 'o> {
            game: &'a RulesGame,
            output: &'a Path,
            work_dir: &'a Path,
            options: &'a BuildOptions,
            observer: Option<Observer<'o>>,
        }
        impl gsolve_rules::CompactTask for Build<'_, '_> {
            type Output = Result<(Written, usize), Error>;
            fn run<const N: usize>(self, solver: &RulesGame<N>) -> Self::Output {
                tiers::build_solving_with(self.game, solver, self.output, self.work_dir, self.options, self.observer)
            }
        }
        let total = gsolve_engine::Tiered::tiers(self).len();
        let built = gsolve_rules::compact(self, Build { game: self, output, work_dir, options, observer });
        built.map(|(written, now)| (written, now, total))
    }

    /// A rules game's index is its tiers one after another, so it is verified tier
    /// by tier like pawns, with positions of the smallest room that holds its
    /// pieces ([`gsolve_rules::compact`]: the same indices; Dobutsu's verify
    /// spent a tenth of its time copying positions of the full room).
    fn verify_values(&self, file: &Tablebase, observer: Option<Observer<'_>>) -> Result<Verification, Error> {
        struct Verify<'a, 'o> {
            file: &'a Tablebase,
            observer: Option<Observer<'o>>,
        }
        impl gsolve_rules::CompactTask for Verify<'_, '_> {
            type Output = Result<Verification, Error>;
            fn run<const N: usize>(self, game: &RulesGame<N>) -> Self::Output {
                gsolve_tablebase::verify_tiered(game, self.file, FAILURES_SHOWN, self.observer)
            }
        }
        gsolve_rules::compact(self, Verify { file, observer })
    }

    /// The rules' board: its map, or its rows and columns.
    fn board_parameters(&self) -> Vec<(String, String)> {
        let parameters = self.parameters();
        let keep: &[&str] = if parameters.iter().any(|(k, _)| k == super::key::MAP) {
            &[super::key::MAP]
        } else {
            &[super::key::ROWS, super::key::COLS]
        };
        parameters.into_iter().filter(|(k, _)| keep.contains(&k.as_str())).collect()
    }
}

/// Work on a tablebase of whatever catalog game the file holds.
pub trait TablebaseVisitor {
    /// What the work gives.
    type Output;
    /// Runs on the file, typed with its game.
    fn visit<G: CatalogGame>(self, tablebase: GameTablebase<G>) -> Self::Output;
}

/// Opens `file` as a tablebase of the game it names and runs `visitor` on it: the
/// one place a stored game's name becomes a type.
pub fn open_tablebase<V: TablebaseVisitor>(file: Tablebase, visitor: V) -> Result<V::Output, Error> {
    let name = file.game_name().to_string();
    let kind = GameKind::from_name(&name).ok().filter(|kind| kind.entry().stored);
    Ok(match kind {
        Some(GameKind::Pawns) => visitor.visit(GameTablebase::<Pawns>::new(file)?),
        Some(GameKind::Chase) => visitor.visit(GameTablebase::<Chase>::new(file)?),
        Some(GameKind::QueensCase) => visitor.visit(GameTablebase::<QueensCase>::new(file)?),
        Some(GameKind::Rules) => visitor.visit(GameTablebase::<RulesGame>::new(file)?),
        Some(GameKind::Snakes) | None => {
            return Err(Error::WrongGame { expected: super::names(|e| e.stored), found: name })
        }
    })
}

/// Work on a catalog game made from its variant parameters.
pub trait VariantVisitor {
    /// What the work gives.
    type Output;
    /// Runs on the game.
    fn visit<G: CatalogGame>(self, game: G) -> Self::Output;
}

/// The game `kind` with the variant `parameters` (as [`crate::Setup::variant`] and
/// [`crate::Analyzer::start`] take them: `rows` and `cols` for pawns, `size` for
/// chase, `map` for Queen's Case), handed to `visitor`: the one place a built-in
/// game's name and parameters become a type. Rules games are made from their rules
/// ([`gsolve_rules::setup`]); snakes have no index.
pub fn with_variant<V: VariantVisitor>(
    kind: GameKind,
    parameters: &[(String, String)],
    visitor: V,
) -> Result<V::Output, crate::AnalysisError> {
    let entry = kind.entry();
    let get = |key: &str| {
        parameters.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str()).ok_or_else(|| {
            crate::AnalysisError::BadVariant(format!("{}: the variant parameter {key:?} is missing", entry.name))
        })
    };
    if let Some((unknown, _)) = parameters.iter().find(|(k, _)| entry.parameter(k).is_none()) {
        let expected: Vec<&str> = entry.parameters.iter().map(|p| p.key).collect();
        return Err(crate::AnalysisError::BadVariant(format!(
            "{}: unknown variant parameter {unknown:?} (expected {})",
            entry.name,
            expected.join(", ")
        )));
    }
    let bad = |e: String| crate::AnalysisError::BadVariant(format!("{}: {e}", entry.name));
    Ok(match kind {
        GameKind::Pawns => {
            let rows = entry.number(super::key::ROWS, get(super::key::ROWS)?)?;
            let cols = entry.number(super::key::COLS, get(super::key::COLS)?)?;
            visitor.visit(Pawns::new(rows, cols))
        }
        GameKind::Chase => visitor.visit(Chase::new(entry.number(super::key::SIZE, get(super::key::SIZE)?)?)),
        GameKind::QueensCase => {
            visitor.visit(QueensCase::from_parameters(&queens_parameters(get(super::key::MAP)?)).map_err(bad)?)
        }
        GameKind::Snakes | GameKind::Rules => {
            return Err(crate::AnalysisError::BadVariant(format!(
                "{}: no whole-game index from variant parameters",
                entry.name
            )))
        }
    })
}

/// The game of a setup with its whole index, handed to `visitor`: a pawns position's
/// board, chase's size, Queen's Case's map, or for a rules game every placement of
/// at most the position's pieces on its board (`rules` needed). Snakes have no index.
pub fn with_setup_game<V: VariantVisitor>(
    setup: &crate::Setup,
    rules: Option<&std::sync::Arc<gsolve_rules::Rules>>,
    visitor: V,
) -> Result<V::Output, crate::AnalysisError> {
    use crate::AnalysisError;
    match setup.game {
        GameKind::Pawns => {
            let board = setup.position.split_whitespace().next().unwrap_or("");
            let rows = board.split('/').count().to_string();
            let cols = board.split('/').next().map_or(0, |r| r.chars().count()).to_string();
            let parameters = [(super::key::ROWS.to_string(), rows), (super::key::COLS.to_string(), cols)];
            with_variant(setup.game, &parameters, visitor)
        }
        GameKind::Chase | GameKind::QueensCase => with_variant(setup.game, &setup.variant, visitor),
        GameKind::Rules => {
            let rules = rules.cloned().ok_or(AnalysisError::NoRules)?;
            let set = gsolve_rules::setup(rules, None, None, Some(&setup.position))
                .map_err(|e| AnalysisError::BadPosition { position: setup.position.clone(), message: e.to_string() })?;
            if let Err(why) = set.game.placement_index() {
                return Err(AnalysisError::TooLarge(format!(
                    "{}: no index ({why}), so no whole-game solve; an analysis searches such games instead",
                    set.game.rules().name
                )));
            }
            Ok(visitor.visit(set.game))
        }
        GameKind::Snakes => Err(AnalysisError::BadVariant(
            "snakes has no index of its positions (each board is searched): analyze positions instead".into(),
        )),
    }
}

/// The game `name` rebuilt from the parameters a tablebase stores
/// ([`Variant::parameters`]), handed to `visitor`; `None` for a name the catalog
/// stores no tablebase of. The error says which parameter is wrong.
pub fn with_stored_variant<V: VariantVisitor>(
    name: &str,
    parameters: &[(String, String)],
    visitor: V,
) -> Option<Result<V::Output, String>> {
    let kind = GameKind::from_name(name).ok().filter(|kind| kind.entry().stored)?;
    Some(match kind {
        GameKind::Pawns => Pawns::from_parameters(parameters).map(|g| visitor.visit(g)),
        GameKind::Chase => Chase::from_parameters(parameters).map(|g| visitor.visit(g)),
        GameKind::QueensCase => QueensCase::from_parameters(parameters).map(|g| visitor.visit(g)),
        GameKind::Rules => RulesGame::from_parameters(parameters).map(|g| visitor.visit(g)),
        GameKind::Snakes => return None,
    })
}
