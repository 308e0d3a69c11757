//! `gsolve pawns`: UVa 10838 cases, or the strong solution of a board size.

use crate::args::PawnsArgs;
use crate::failure::Failure;
use crate::input;
use crate::progress::Bar;
use crate::report::write_error;
use gsolve_analysis::print::{CaseReport, Style};
use gsolve_engine::search::Searcher;
use gsolve_engine::{tiered, Indexed, PackedValue, Progress, Tiered, Value};
use gsolve_games::notation::PlainNotation;
use gsolve_games::pawns::{self, Pawns};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufWriter, Write};

/// Index sizes above this need more memory than a summary here takes (1 byte a
/// position, every tier kept): larger boards are built with `gsolve build` and
/// counted with `gsolve info`.
const MAX_STRONG_POSITIONS: u64 = 8_000_000_000;

pub fn run(args: &PawnsArgs) -> Result<(), Failure> {
    match (args.summary, args.rows, args.cols) {
        (true, Some(rows), Some(cols)) => summary(rows, cols, args.json),
        (true, _, _) => Err(Failure::Input("--summary needs --rows R and --cols C".into())),
        (false, None, None) => cases(args),
        (false, _, _) => Err(Failure::Input("--rows and --cols go with --summary".into())),
    }
}

/// Each case by alpha-beta search, with one transposition table per board size shared
/// by its cases: a 4×4 case reaches a few thousand positions, far fewer than the 4.5
/// million of the board, and the search also reaches boards too large to index. A
/// long search goes on on every thread (`crate::search`).
fn cases(args: &PawnsArgs) -> Result<(), Failure> {
    let (text, name) = input::read(args.file.as_ref())?;
    let boards = pawns::parse_boards(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    if let Some(file) = &args.rules {
        // The board as examples/rules/pawns.toml writes it: `P`, `p`, `w` or `b`.
        let cases = boards
            .iter()
            .map(|case| {
                let mut start = case.position;
                start.white_to_move = !args.black_to_move;
                (Pawns::new(case.rows, case.cols).format_position(&start), !args.black_to_move)
            })
            .collect();
        return crate::rules::contest(gsolve_analysis::GameKind::Pawns, file, cases, args.explain, args.json);
    }
    let style = Style::new(args.explain, args.json);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let games: HashMap<(u32, u32), Pawns> =
        boards.iter().map(|b| ((b.rows, b.cols), Pawns::new(b.rows, b.cols))).collect();
    let mut searchers: HashMap<(u32, u32), Searcher<'_, Pawns>> = HashMap::new();
    for (i, case) in boards.iter().enumerate() {
        let size = (case.rows, case.cols);
        let game = &games[&size];
        let searcher = searchers.entry(size).or_insert_with(|| Searcher::new(game));
        let mut start = case.position;
        start.white_to_move = !args.black_to_move;
        let bar = Bar::new();
        let helper = || Pawns::new(case.rows, case.cols);
        let threads = rayon::current_num_threads();
        crate::search::value(searcher, &start, (threads, PAWNS_ALONE), helper, Some(&|p| bar.observe(p)))
            .map_err(|e| Failure::Other(anyhow::anyhow!("{e}")))?;
        drop(bar);
        let report = CaseReport::new(i + 1, |v| Pawns::verdict(&start, v), game, &*searcher, &start, style);
        report.print(style, &mut out).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}

/// Positions a pawns case is searched on one thread before the others join it
/// ([`crate::search::value`]): the threads share a table of the search's full size
/// (2^24 entries), whose pages cost more to touch than a search this long takes
/// alone; longer searches (the 7×6 and 7×7 starts) gain from the second thread.
const PAWNS_ALONE: u64 = 1 << 22;

/// Wins and losses by remoteness, for one side to move.
#[derive(Default)]
struct SideCounts {
    wins: BTreeMap<u32, u64>,
    losses: BTreeMap<u32, u64>,
}

/// Solves every position of the board size and prints the counts.
fn summary(rows: u32, cols: u32, as_json: bool) -> Result<(), Failure> {
    let game = Pawns::new(rows, cols);
    let size = game.index_size();
    if game.pawn_index().is_none() || size > MAX_STRONG_POSITIONS {
        return Err(Failure::Input(format!(
            "pawns {rows}x{cols}: the index of every position has {} entries, more than the {MAX_STRONG_POSITIONS} a strong solve here can hold",
            if game.pawn_index().is_none() { "over 2^64".to_string() } else { size.to_string() }
        )));
    }
    // Every tier in order, kept in memory (1 byte a position).
    let bar = Bar::new();
    let mut solved = tiered::TiersInMemory::default();
    let mut done = 0u64;
    for tier in game.tiers() {
        let before = done;
        let report = |p: Progress| bar.observe(Progress::new("tiers", before + p.done, size));
        let values = tiered::solve_tier(&game, tier, &solved, Some(&report));
        done += values.len();
        solved.insert(tier, values);
    }
    drop(bar);

    // [white to move, black to move], by code: each tier's layers alternate, white
    // to move first (see the index's layout), so a layer's codes are counted
    // straight from the bytes.
    let mut by_code = [vec![0u64; 256], vec![0u64; 256]];
    let mut longest: Option<(u32, (u32, u32), u64)> = None;
    for tier in game.tiers() {
        let values = solved.get(tier).expect("solved above");
        let mut side = 0;
        game.for_each_layer_in_tier(tier, |layer| {
            for index in layer.clone() {
                let code = values.code(index).0 as usize;
                if code >= by_code[side].len() {
                    by_code[side].resize(code + 1, 0);
                }
                by_code[side][code] += 1;
            }
            side = 1 - side;
        });
        // The longest win: the first index (in solving order) with the largest.
        for index in 0..values.len() {
            if let Some(Value::Win(r)) = values.value(index) {
                if longest.is_none_or(|(best, _, _)| r > best) {
                    longest = Some((r, tier, index));
                }
            }
        }
    }
    let mut counts = [SideCounts::default(), SideCounts::default()];
    for (side, codes) in by_code.iter().enumerate() {
        for (code, &n) in codes.iter().enumerate().filter(|(_, &n)| n > 0) {
            match PackedValue(code as u32).unpack() {
                Some(Value::Win(r)) => *counts[side].wins.entry(r).or_default() += n,
                Some(Value::Loss(r)) => *counts[side].losses.entry(r).or_default() += n,
                Some(Value::Tie(_) | Value::Draw) => unreachable!("pawn chess always ends"),
                None => {}
            }
        }
    }
    let longest = longest.map(|(r, tier, index)| (r, game.position_in(tier, index).expect("a solved position")));
    let example = longest.map(|(r, p)| (r, game.notation(&p)));
    let mut out = BufWriter::new(std::io::stdout().lock());
    if as_json {
        let side_json = |c: &SideCounts| {
            json!({
                "wins": c.wins.values().sum::<u64>(),
                "losses": c.losses.values().sum::<u64>(),
                "wins_by_remoteness": c.wins.iter().map(|(r, n)| json!([r, n])).collect::<Vec<_>>(),
                "losses_by_remoteness": c.losses.iter().map(|(r, n)| json!([r, n])).collect::<Vec<_>>(),
            })
        };
        let object = json!({
            "rows": rows,
            "cols": cols,
            "max_pawns_per_side": cols,
            "positions": size,
            "white_to_move": side_json(&counts[0]),
            "black_to_move": side_json(&counts[1]),
            "longest_win": example.as_ref().map(|(r, p)| json!({"remoteness": r, "position": p})),
        });
        writeln!(out, "{object}").map_err(write_error)?;
        return out.flush().map_err(write_error);
    }
    let w = |out: &mut BufWriter<_>, line: String| writeln!(out, "{line}").map_err(write_error);
    w(&mut out, format!("pawns {rows}x{cols}: {size} positions (at most {cols} pawns a side, none on its goal rank, either side to move)"))?;
    w(&mut out, format!("{:>10}  {:>14} {:>14}  {:>14} {:>14}", "", "white to move", "", "black to move", ""))?;
    w(&mut out, format!("{:>10}  {:>14} {:>14}  {:>14} {:>14}", "remoteness", "wins", "losses", "wins", "losses"))?;
    let max_r = counts.iter().flat_map(|c| c.wins.keys().chain(c.losses.keys())).copied().max().unwrap_or(0);
    let get = |m: &BTreeMap<u32, u64>, r: u32| m.get(&r).copied().unwrap_or(0);
    for r in 0..=max_r {
        let row =
            [get(&counts[0].wins, r), get(&counts[0].losses, r), get(&counts[1].wins, r), get(&counts[1].losses, r)];
        if row.iter().any(|&n| n > 0) {
            w(&mut out, format!("{r:>10}  {:>14} {:>14}  {:>14} {:>14}", row[0], row[1], row[2], row[3]))?;
        }
    }
    let total = |m: &BTreeMap<u32, u64>| m.values().sum::<u64>();
    w(
        &mut out,
        format!(
            "{:>10}  {:>14} {:>14}  {:>14} {:>14}",
            "total",
            total(&counts[0].wins),
            total(&counts[0].losses),
            total(&counts[1].wins),
            total(&counts[1].losses)
        ),
    )?;
    if let Some((r, position)) = example {
        w(&mut out, format!("longest win: {r} plies, e.g. {position}"))?;
    }
    out.flush().map_err(write_error)
}
