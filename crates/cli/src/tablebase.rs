//! `gsolve build`, `probe`, `verify` and `info`: tablebases on disk.

use crate::args::{BuildArgs, BuildGame, DistributedArgs, InfoArgs, OutputArgs, ProbeArgs, TierArgs, VerifyArgs};
use crate::distributed::Plan;
use crate::failure::Failure;
use crate::input;
use crate::progress::Bar;
use crate::report::{parameters_text, report_written, write_error};
use clap::{ArgMatches, FromArgMatches};
use gsolve_analysis::catalog::{
    build_tablebase, open_tablebase, with_variant, BuildPlan, CatalogGame, ClusterBuild, Entry, ParameterKind,
    TablebaseVisitor, VariantVisitor, FAILURES_SHOWN,
};
use gsolve_analysis::{analysis_of_stored, print};
use gsolve_distributed::Cluster;
use gsolve_engine::{Indexed, Tiered, Unmoves};
use gsolve_rules::RulesGame;
use gsolve_tablebase::summary::{remoteness_range, summarize, SideCounts, EXACT_REMOTENESS};
use gsolve_tablebase::write::StoredIdentity;
use gsolve_tablebase::{write, Error, GameTablebase, Tablebase, WriteOptions};
use serde_json::json;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A command run on a tablebase of whatever game the file holds.
trait Command {
    fn run<G: CatalogGame>(self, tablebase: GameTablebase<G>) -> Result<(), Failure>;
}

/// A command as the catalog's visitor of a tablebase's game.
struct Visit<C>(C);

impl<C: Command> TablebaseVisitor for Visit<C> {
    type Output = Result<(), Failure>;
    fn visit<G: CatalogGame>(self, tablebase: GameTablebase<G>) -> Self::Output {
        self.0.run(tablebase)
    }
}

fn bad_file(path: &Path, e: Error) -> Failure {
    if e.is_bad_file() || matches!(e, Error::Io(_)) {
        Failure::Input(format!("{}: {e}", path.display()))
    } else {
        Failure::Other(anyhow::Error::new(e).context(path.display().to_string()))
    }
}

/// Opens `path` and runs `command` with the game the file names.
fn dispatch(path: &Path, command: impl Command) -> Result<(), Failure> {
    let tablebase = Tablebase::open(path).map_err(|e| bad_file(path, e))?;
    match open_tablebase(tablebase, Visit(command)) {
        Ok(result) => result,
        Err(Error::WrongGame { expected, found }) => Err(Failure::Input(format!(
            "{}: a tablebase of the game {found:?}, which this gsolve does not know (it knows {expected})",
            path.display()
        ))),
        Err(e) => Err(bad_file(path, e)),
    }
}

// ---------------------------------------------------------------------------------
// build

/// `build GAME` for a catalog game built from its variant parameters (`matches`:
/// the arguments of the command `crate::args` made for it).
pub fn build_variant(entry: &Entry, matches: &ArgMatches, threads: Option<u16>) -> Result<(), Failure> {
    let out = OutputArgs::from_arg_matches(matches).unwrap_or_else(|e| e.exit());
    let distributed = DistributedArgs::from_arg_matches(matches).unwrap_or_else(|e| e.exit());
    let tiers = match entry.build {
        Some(help) if help.tiers => Some(TierArgs::from_arg_matches(matches).unwrap_or_else(|e| e.exit())),
        _ => None,
    };
    let Some(plan) = prepare(distributed.plan(threads)?, &out)? else { return Ok(()) };
    let mut parameters = Vec::new();
    for parameter in entry.parameters {
        let value = match parameter.kind {
            ParameterKind::Number { .. } => matches.get_one::<u32>(parameter.key).map(u32::to_string),
            ParameterKind::Map { .. } => match (matches.get_one::<PathBuf>(parameter.key), entry.map_file) {
                (Some(path), Some(read_map)) => {
                    let (text, name) = input::read(Some(path))?;
                    Some(read_map(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?)
                }
                _ => None,
            },
        };
        parameters.extend(value.map(|value| (parameter.key.to_string(), value)));
    }
    let build = Build { output: &out, tiers: tiers.as_ref(), plan };
    with_variant(entry.kind, &parameters, build).map_err(Failure::from)?
}

/// Spawns the local processes of `--local-processes` (`None`: nothing is left to
/// do here), or refuses an output that exists (without --force) or is not a
/// regular file (never replaced) before any work; only the process that writes it
/// asks.
fn prepare(plan: Plan, out: &OutputArgs) -> Result<Option<Plan>, Failure> {
    if let Plan::Spawn(processes) = plan {
        crate::distributed::spawn_local(processes)?;
        return Ok(None);
    }
    let writes = match &plan {
        Plan::Member(cluster) => cluster.process == 0,
        _ => true,
    };
    if writes {
        write::check_output(&out.output, out.force).map_err(|e| Failure::Input(worded(&e)))?;
    }
    Ok(Some(plan))
}

/// A build of whatever game the catalog hands over: here, or across processes as
/// the game takes it.
struct Build<'a> {
    output: &'a OutputArgs,
    tiers: Option<&'a TierArgs>,
    plan: Plan,
}

impl VariantVisitor for Build<'_> {
    type Output = Result<(), Failure>;
    fn visit<G: CatalogGame>(self, game: G) -> Self::Output {
        if let Some(why) = game.unbuildable() {
            return Err(Failure::Input(format!("{} {}: {why}", G::NAME, parameters_text(&game.parameters()))));
        }
        let options = write_options(self.output);
        match self.plan {
            Plan::Member(cluster) => {
                let tiers = self.tiers.cloned().unwrap_or_default();
                game.build_across(Across { output: &self.output.output, tiers, options, cluster })
            }
            _ => build_local(&game, &self.output.output, self.tiers, options),
        }
    }
}

/// The catalog's choice of a distributed build, run on timely.
struct Across<'a> {
    output: &'a Path,
    tiers: TierArgs,
    options: WriteOptions,
    cluster: Cluster,
}

impl ClusterBuild for Across<'_> {
    type Output = Result<(), Failure>;
    fn whole<G: Unmoves + Send + Sync + 'static>(self, game: G, stored: StoredIdentity) -> Self::Output {
        crate::distributed::build_retrograde(game, stored, self.output, self.options, self.cluster)
    }
    fn tiers<G: Tiered + Indexed + Send + Sync + 'static>(self, game: G, stored: StoredIdentity) -> Self::Output {
        crate::distributed::build_tiered(game, stored, self.output, &self.tiers, self.options, self.cluster)
    }
}

fn write_options(out: &OutputArgs) -> WriteOptions {
    WriteOptions { force: out.force, level: out.level, ..WriteOptions::default() }
}

/// `build rules FILE`.
pub fn build(args: &BuildArgs, threads: Option<u16>) -> Result<(), Failure> {
    let BuildGame::Rules { file, position, rows, cols, map, tiers, output: out, distributed } = &args.game;
    let game = || rules_game(file, position.as_deref(), *rows, *cols, map.as_deref());
    let plan = distributed.plan(threads)?;
    if let Plan::Spawn(_) = plan {
        // A file that does not make a game is refused here, not by each process started.
        game()?;
    }
    let Some(plan) = prepare(plan, out)? else { return Ok(()) };
    let game = game()?;
    match plan {
        Plan::Member(cluster) => game.build_across(Across {
            output: &out.output,
            tiers: tiers.clone(),
            options: write_options(out),
            cluster,
        }),
        _ => build_local(&game, &out.output, Some(tiers), write_options(out)),
    }
}

/// The game a rules build covers: every position with at most as many pieces of
/// each kind as `position` (or the rules' start) has, on its board.
fn rules_game(
    file: &Path,
    position: Option<&str>,
    rows: Option<u32>,
    cols: Option<u32>,
    map: Option<&Path>,
) -> Result<RulesGame, Failure> {
    let rules = crate::rules::load(file)?;
    let (size, map) = crate::rules::board_options(&rules, rows, cols, map)?;
    let what = match position {
        Some(p) => format!("{}: the position {}", file.display(), gsolve_games::text::excerpt(p)),
        None => format!("{}: the start", file.display()),
    };
    let set = gsolve_rules::setup(rules, size, map, position).map_err(|e| crate::rules::setup_error(&what, e))?;
    if let Err(why) = set.game.placement_index() {
        return Err(Failure::Input(format!(
            "{what}: no index ({why}), so no tablebase; `gsolve rules` searches such games instead"
        )));
    }
    Ok(set.game)
}

/// A tablebase error in the command line's words: the library's, with the flag
/// that changes what it refuses.
pub(crate) fn worded(e: &Error) -> String {
    match e {
        Error::Exists(_) => format!("{e} (use --force to overwrite it)"),
        Error::TierOverMemory { .. } => format!("{e} by --memory"),
        Error::WorkDirTaken(_) => format!("{e} (--work-dir DIR)"),
        e => e.to_string(),
    }
}

/// Builds on this machine as the catalog decides (whole, or tier by tier in the
/// work directory, resuming what a stopped build finished), with a progress bar,
/// then says what was written.
fn build_local<G: CatalogGame>(
    game: &G,
    output: &Path,
    tier_args: Option<&TierArgs>,
    write: WriteOptions,
) -> Result<(), Failure> {
    let plan = BuildPlan {
        work_dir: tier_args.and_then(|t| t.work_dir.clone()),
        memory: tier_args.and_then(|t| t.memory),
        write,
    };
    let started = Instant::now();
    let bar = Bar::new();
    let _cleanup = crate::interrupt::remove_on_interrupt(&write::temporary_path(output));
    let result = build_tablebase(game, output, &plan, Some(&|p| bar.observe(p)));
    drop(bar);
    let built = result.map_err(|e| match e {
        Error::Io(_) => Failure::Input(format!("cannot build {}: {e}", output.display())),
        e if !e.is_bad_file() => Failure::Input(worded(&e)),
        e => Failure::Other(anyhow::Error::new(e).context(format!("cannot build {}", output.display()))),
    })?;
    let resumed = match &built.tiers {
        Some((solved_now, total, work_dir)) if solved_now < total => {
            format!(" ({} of {total} tiers were finished before, in {})", total - solved_now, work_dir.display())
        }
        _ => String::new(),
    };
    let solved = built.solved.map(|(solver, time)| (solver.name(), time));
    report_written(G::NAME, output, &built.written, started.elapsed(), solved, &resumed)
}

/// A parameter for `info`: as it is, or if long (a rules file, a big map) its first
/// line and its length; `--json` gives it whole.
fn long_parameter(value: &str) -> String {
    const SHOWN: usize = 72;
    if value.chars().count() <= SHOWN {
        return value.to_string();
    }
    let first_line = value.split("\\n").next().unwrap_or(value);
    let shown: String = first_line.chars().take(SHOWN).collect();
    format!("{shown}... ({} characters in all; --json gives them all)", value.chars().count())
}

// ---------------------------------------------------------------------------------
// probe

pub fn probe(args: &ProbeArgs) -> Result<(), Failure> {
    dispatch(&args.file, Probe { args })
}

struct Probe<'a> {
    args: &'a ProbeArgs,
}

impl Command for Probe<'_> {
    fn run<G: CatalogGame>(self, tablebase: GameTablebase<G>) -> Result<(), Failure> {
        let game = tablebase.game();
        let path = &self.args.file;
        let positions = self
            .args
            .positions
            .iter()
            .enumerate()
            .map(|(i, text)| {
                game.parse_position(text).map_err(|e| {
                    Failure::Input(format!(
                        "position {} {}: {e} (this tablebase is {} {})",
                        i + 1,
                        gsolve_games::text::excerpt(text),
                        G::NAME,
                        parameters_text(&game.parameters())
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = BufWriter::new(std::io::stdout().lock());
        for position in &positions {
            // A damaged block is named as the reader finds it, before the analysis
            // (which reads the same values) could only say that one is missing.
            tablebase.value(position).map_err(|e| bad_file(path, e))?;
            tablebase.move_values(position).map_err(|e| bad_file(path, e))?;
            let analysis = analysis_of_stored(&tablebase, position)
                .map_err(|e| Failure::Input(format!("{}: {}: {e}", path.display(), game.format_position(position))))?;
            if self.args.json {
                writeln!(out, "{}", analysis.to_json()).map_err(write_error)?;
            } else {
                print::write_brief(&analysis, &mut out).map_err(write_error)?;
            }
        }
        out.flush().map_err(write_error)
    }
}

// ---------------------------------------------------------------------------------
// verify

pub fn verify(args: &VerifyArgs) -> Result<(), Failure> {
    dispatch(&args.file, Verify { args })
}

struct Verify<'a> {
    args: &'a VerifyArgs,
}

impl Command for Verify<'_> {
    fn run<G: CatalogGame>(self, tablebase: GameTablebase<G>) -> Result<(), Failure> {
        let started = Instant::now();
        let game = tablebase.game();
        let file = tablebase.tablebase();
        let path = &self.args.file;
        let mut out = BufWriter::new(std::io::stdout().lock());
        let size = file.index_size();
        writeln!(out, "{}: {} {}, {size} indices", path.display(), G::NAME, parameters_text(&game.parameters()))
            .map_err(write_error)?;

        // Every block decompressed (its place, checksum and length checked) and every
        // value re-derived; only when a block fails are all blocks gone through again
        // to name the damaged ones.
        let bar = Bar::new();
        let checking = Instant::now();
        let report = match game.verify_values(file, Some(&|p| bar.observe(p))) {
            Ok(report) => report,
            Err(first) => {
                let damaged = file.damaged_blocks(FAILURES_SHOWN, Some(&|p| bar.observe(p)));
                drop(bar);
                if damaged.is_empty() {
                    return Err(bad_file(path, first));
                }
                for e in &damaged {
                    writeln!(out, "FAIL {e}").map_err(write_error)?;
                }
                out.flush().map_err(write_error)?;
                return Err(Failure::Verification(format!(
                    "{}: damaged block{} (first shown above); values not checked",
                    path.display(),
                    if damaged.len() > 1 { "s" } else { "" }
                )));
            }
        };
        let check_time = checking.elapsed();
        drop(bar);
        writeln!(out, "blocks: {} checked, every checksum matches", file.block_count()).map_err(write_error)?;
        for failure in &report.failures {
            let position = game.position(failure.index).map(|p| game.format_position(&p));
            let named = position.map_or_else(String::new, |p| format!(" ({p})"));
            writeln!(out, "FAIL position {}{named}: {}", failure.index, failure.problem).map_err(write_error)?;
        }
        if !report.is_ok() {
            out.flush().map_err(write_error)?;
            return Err(Failure::Verification(format!(
                "{}: {} of {size} indices fail (the first {} shown above)",
                path.display(),
                report.failure_count,
                report.failures.len()
            )));
        }
        writeln!(
            out,
            "positions: {} checked ({} indices name no position): every value follows from the rules and its children's values",
            report.positions, report.holes
        )
        .map_err(write_error)?;
        writeln!(
            out,
            "verified in {:.2} s ({:.1} M positions/s checking values)",
            started.elapsed().as_secs_f64(),
            size as f64 / check_time.as_secs_f64().max(1e-9) / 1e6
        )
        .map_err(write_error)?;
        out.flush().map_err(write_error)
    }
}

// ---------------------------------------------------------------------------------
// info

pub fn info(args: &InfoArgs) -> Result<(), Failure> {
    dispatch(&args.file, Info { args })
}

struct Info<'a> {
    args: &'a InfoArgs,
}

impl Command for Info<'_> {
    fn run<G: CatalogGame>(self, tablebase: GameTablebase<G>) -> Result<(), Failure> {
        let game = tablebase.game();
        let file = tablebase.tablebase();
        let path = &self.args.file;
        let header = file.header();
        let bar = Bar::new();
        let sides = game.sides();
        let side_of = |p: &G::Position| game.side_index(p);
        // Block by block: memory for one block a thread and the counts (bounded,
        // summary::EXACT_REMOTENESS), not the whole table; the file's digest beside.
        let (summary, digest) = rayon::join(
            || summarize(game, file, sides.len(), side_of, Some(&|p| bar.observe(p))),
            || file.file_digest(),
        );
        let summary = summary.map_err(|e| bad_file(path, e))?;
        let digest = format!("{digest:032x}");
        drop(bar);
        let longest = summary.longest_win.map(|(r, index)| {
            let position = game.position(index).expect("a stored win is a position");
            (r, game.format_position(&position), game.side_to_move(&position))
        });
        let positions = file.index_size() - summary.holes;
        let ratio = file.raw_size() as f64 / file.file_size().max(1) as f64;
        let mut out = BufWriter::new(std::io::stdout().lock());
        if self.args.json {
            // Remoteness below summary::EXACT_REMOTENESS one by one, `[r, n]`; above
            // it (4-byte files only) by ranges, `[first, last, n]`.
            let histogram = |h: &std::collections::BTreeMap<u32, u64>| {
                h.range(..EXACT_REMOTENESS).map(|(r, n)| json!([r, n])).collect::<Vec<_>>()
            };
            let ranges = |h: &std::collections::BTreeMap<u32, u64>| {
                let range = |&k: &u32| remoteness_range(k);
                h.range(EXACT_REMOTENESS..)
                    .map(|(k, n)| json!([range(k).start(), range(k).end(), n]))
                    .collect::<Vec<_>>()
            };
            let side_json = |c: &SideCounts| {
                json!({
                    "wins": c.total_wins(),
                    "losses": c.total_losses(),
                    "ties": c.total_ties(),
                    "draws": c.draws,
                    "wins_by_remoteness": histogram(&c.wins),
                    "losses_by_remoteness": histogram(&c.losses),
                    "ties_by_remoteness": histogram(&c.ties),
                    "wins_by_remoteness_range": ranges(&c.wins),
                    "losses_by_remoteness_range": ranges(&c.losses),
                    "ties_by_remoteness_range": ranges(&c.ties),
                })
            };
            let mut by_side = serde_json::Map::new();
            for (name, counts) in sides.iter().zip(&summary.sides) {
                by_side.insert(format!("{name}_to_move"), side_json(counts));
            }
            let parameters: serde_json::Map<_, _> =
                header.parameters.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
            let object = json!({
                "file": path.display().to_string(),
                "format_version": header.version,
                "game": header.game,
                "parameters": parameters,
                "index_size": header.index_size,
                "positions": positions,
                "holes": summary.holes,
                "value_width": header.value_width,
                "block_positions": header.block_positions,
                "blocks": header.block_count,
                "file_bytes": file.file_size(),
                "file_digest": digest,
                "raw_bytes": file.raw_size(),
                "sides": by_side,
                "longest_win": longest.as_ref().map(|(r, p, s)| json!({"remoteness": r, "position": p, "to_move": s})),
            });
            writeln!(out, "{object}").map_err(write_error)?;
            return out.flush().map_err(write_error);
        }
        let mut w = |line: String| writeln!(out, "{line}").map_err(write_error);
        w(format!("file        {}", path.display()))?;
        w(format!(
            "format      version {}, {}-byte values, {} positions a block, {} block{}, zstd",
            header.version,
            header.value_width,
            header.block_positions,
            header.block_count,
            if header.block_count == 1 { "" } else { "s" }
        ))?;
        w(format!(
            "size        {} bytes ({} bytes of values: {ratio:.1}x compression)",
            file.file_size(),
            file.raw_size()
        ))?;
        w(format!("digest      {digest} (XXH3-128 of the whole file, as `xxhsum -H2` prints it)"))?;
        w(format!("game        {}", header.game))?;
        for (key, value) in &header.parameters {
            w(format!("  {key:<10}{}", long_parameter(value)))?;
        }
        w(format!("positions   {positions} ({} indices name no position)", summary.holes))?;
        w(String::new())?;
        let [a, b] = sides;
        // Wide enough for a range of remoteness ("536870912-1073741823"), if any.
        let ranged = summary.sides.iter().any(|c| c.max_remoteness().is_some_and(|k| k >= EXACT_REMOTENESS));
        let width = if ranged { 21 } else { 10 };
        w(format!("{:>width$}  {:>36}  {:>36}", "", format!("{a} to move"), format!("{b} to move")))?;
        w(format!(
            "{:>width$}  {:>12}{:>12}{:>12}  {:>12}{:>12}{:>12}",
            "remoteness", "wins", "losses", "ties", "wins", "losses", "ties"
        ))?;
        let get = |h: &std::collections::BTreeMap<u32, u64>, r: u32| h.get(&r).copied().unwrap_or(0);
        // Every remoteness that occurs, in order: one by one below
        // summary::EXACT_REMOTENESS, by ranges above (so at most that many rows).
        let mut remoteness: Vec<u32> = summary
            .sides
            .iter()
            .flat_map(|c| c.wins.keys().chain(c.losses.keys()).chain(c.ties.keys()).copied())
            .collect();
        remoteness.sort_unstable();
        remoteness.dedup();
        for r in remoteness {
            let row: Vec<u64> =
                summary.sides.iter().flat_map(|c| [get(&c.wins, r), get(&c.losses, r), get(&c.ties, r)]).collect();
            if row.iter().any(|&n| n > 0) {
                let range = remoteness_range(r);
                let label =
                    if r < EXACT_REMOTENESS { r.to_string() } else { format!("{}-{}", range.start(), range.end()) };
                w(format!(
                    "{label:>width$}  {:>12}{:>12}{:>12}  {:>12}{:>12}{:>12}",
                    row[0], row[1], row[2], row[3], row[4], row[5]
                ))?;
            }
        }
        let [sa, sb] = [&summary.sides[0], &summary.sides[1]];
        w(format!(
            "{:>width$}  {:>12}{:>12}{:>12}  {:>12}{:>12}{:>12}",
            "total",
            sa.total_wins(),
            sa.total_losses(),
            sa.total_ties(),
            sb.total_wins(),
            sb.total_losses(),
            sb.total_ties()
        ))?;
        w(format!("{:>width$}  {:>36}  {:>36}", "draws", sa.draws, sb.draws))?;
        match longest {
            Some((r, position, side)) => w(format!("longest win: {r} plies, {side} to move, e.g. {position}"))?,
            None => w("longest win: none (no position is won)".into())?,
        }
        out.flush().map_err(write_error)
    }
}
