//! `gsolve pawns`: UVa 10838 cases, or the strong solution of a board size.

use crate::progress::Bar;
use crate::report::{write_error, CaseReport, Style};
use crate::{input, Failure, PawnsArgs};
use gsolve_engine::search::Searcher;
use gsolve_engine::{layered, Indexed, Layered, Value};
use gsolve_games::pawns::{self, Pawns};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufWriter, Write};

/// Index sizes above this need more memory than a strong solve should take here
/// (4 bytes a position: 20 GB).
const MAX_STRONG_POSITIONS: u64 = 5_000_000_000;

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
/// million of the board, and the search also reaches boards too large to index.
fn cases(args: &PawnsArgs) -> Result<(), Failure> {
    let (text, name) = input::read(args.file.as_ref())?;
    let boards = pawns::parse_boards(&text).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
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
        searcher
            .value_with_progress(&start, Some(&|p| bar.observe(p)))
            .map_err(|e| Failure::Other(anyhow::anyhow!("{e}")))?;
        drop(bar);
        let report = CaseReport::new(i + 1, |v| Pawns::verdict(&start, v), game, &*searcher, &start, style);
        report.print(style, &mut out).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}

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
    let bar = Bar::new();
    let observe = |p| bar.observe(p);
    let solution = layered::solve_with(&game, Some(&observe));
    drop(bar);

    // [white to move, black to move]. A layer holds one side to move throughout.
    let mut counts = [SideCounts::default(), SideCounts::default()];
    let mut longest: Option<(u32, u64)> = None;
    let packed = solution.packed();
    game.for_each_layer(|layer| {
        let side = usize::from(!game.position(layer.start).expect("indexed").white_to_move);
        for index in layer {
            match packed[index as usize].unpack() {
                Some(Value::Win(r)) => {
                    *counts[side].wins.entry(r).or_default() += 1;
                    if longest.is_none_or(|(best, _)| r > best) {
                        longest = Some((r, index));
                    }
                }
                Some(Value::Loss(r)) => *counts[side].losses.entry(r).or_default() += 1,
                Some(Value::Tie(_) | Value::Draw) => unreachable!("pawn chess always ends"),
                None => {}
            }
        }
    });
    let example = longest.map(|(r, i)| (r, game.notation(&game.position(i).expect("indexed"))));
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
    w(&mut out, format!("pawns {rows}x{cols}: {size} positions (every placement of at most {cols} pawns a side, either side to move)"))?;
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
