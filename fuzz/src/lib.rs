//! # gsolve-fuzz
//!
//! One function per input surface of gsolve, each taking the raw bytes a user could
//! give and calling the public entry point they reach, the way the front ends call
//! it. A panic, an endless loop or a runaway allocation in any of them is a bug.
//!
//! | target               | input                                          | entry points                                               |
//! |----------------------|------------------------------------------------|------------------------------------------------------------|
//! | [`contest_queens`]   | a `gsolve queens-case` input file              | `queens_case::parse_maps`, retrograde solve of small maps  |
//! | [`contest_chase`]    | a `gsolve chase` input file                    | `chase::parse_cases`, retrograde solve of n ≤ 6            |
//! | [`contest_pawns`]    | a `gsolve pawns` input file                    | `pawns::parse_boards`, alpha-beta on ≤ 12 cells            |
//! | [`contest_snakes`]   | a `gsolve snakes` input file                   | `snakes::parse_boards`, alpha-beta on ≤ 16 free cells      |
//! | [`position_pawns`]   | variant line, then a pawns position            | `Analyzer::analyze`                                        |
//! | [`position_chase`]   | variant line (`size`), then a chase position   | `Analyzer::analyze`                                        |
//! | [`position_queens`]  | variant line (`map`), then a Queen's Case position | `Analyzer::analyze`                                    |
//! | [`position_snakes`]  | variant line, then a snakes position           | `Analyzer::analyze`                                        |
//! | [`variant_parameters`] | a game name, then `key=value` lines          | `Variant::from_parameters`, `Analyzer::start`              |
//! | [`tablebase`]        | a tablebase file                               | `Tablebase::from_bytes`, `GameTablebase`, probes, `summarize`, `load` + `verify` |
//! | [`http_router`]      | a method line, a target line, then a body      | `gsolve_cli::serve::page` (the router of `gsolve serve`) in-process |
//! | [`book_file`]        | an opening book file                           | `book::decode`, `gsolve_analysis::book::loaded`, `Analyzer::with_book`, the book's start |
//! | [`rules_file`]       | a rules file (TOML), optionally a `# position: ` line | `Rules::parse`, `setup`, `describe`, notation, un-moves check, retrograde or search |
//!
//! Each target also checks what must hold of a successful answer (a solved start has
//! a value, a position's notation reads back, an analysis lists its moves best
//! first with the best move's value its own), cheaply. Sizes are bounded so that one
//! input takes milliseconds: the fuzzer's time goes to many inputs, not a few large
//! solves. `cargo fuzz` runs the binaries in `fuzz_targets/` (nightly); `cargo test`
//! replays the corpora through the same functions on stable (`tests/replay.rs`).
#![forbid(unsafe_code)]

use gsolve_analysis::catalog::{self, CatalogGame, TablebaseVisitor, VariantVisitor};
use gsolve_analysis::{Analysis, AnalysisError, Analyzer, GameKind, Limits, Setup};
use gsolve_engine::search::{SearchError, SearchHooks, Searcher};
use gsolve_engine::{line, retrograde, Game, Indexed, Value, ValueLookup, Variant};
use gsolve_games::chase::{self, Chase};
use gsolve_games::notation::{Explain, PlainNotation};
use gsolve_games::pawns::{self, Pawns};
use gsolve_games::pursuit::BitwiseOptions;
use gsolve_games::queens_case::{self, Map, QueensCase};
use gsolve_games::snakes::{self, Snakes};
use gsolve_tablebase::summary::summarize;
use gsolve_tablebase::{format, GameTablebase, Tablebase};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A fuzz target: it takes any bytes.
pub type Target = fn(&[u8]);

/// Every target by name: the binaries in `fuzz_targets/`, the corpus folders in
/// `corpus/`, and the tests in `tests/replay.rs` use these names.
pub const TARGETS: [(&str, Target); 13] = [
    ("contest_queens", contest_queens),
    ("contest_chase", contest_chase),
    ("contest_pawns", contest_pawns),
    ("contest_snakes", contest_snakes),
    ("position_pawns", position_pawns),
    ("position_chase", position_chase),
    ("position_queens", position_queens),
    ("position_snakes", position_snakes),
    ("variant_parameters", variant_parameters),
    ("tablebase", tablebase),
    ("http_router", http_router),
    ("rules_file", rules_file),
    ("book_file", book_file),
];

/// An opening book file as `--book FILE` reads it: the bytes as given, then with
/// the checksum made right (a hostile file can carry a correct one), so that the
/// fuzzer reaches the keys, values and stored rules.
pub fn book_file(data: &[u8]) {
    open_book(data);
    if data.len() >= 16 {
        let mut signed = data.to_vec();
        let body = signed.len() - 16;
        let checksum = xxhash_rust::xxh3::xxh3_64(&signed[..body]);
        signed[body..body + 8].copy_from_slice(&checksum.to_le_bytes());
        if signed != data {
            open_book(&signed);
        }
    }
}

fn open_book(bytes: &[u8]) {
    let Ok(file) = gsolve_tablebase::book::decode(bytes) else { return };
    let entries = file.entries.len();
    assert!(file.entries.windows(2).all(|w| w[0].0 < w[1].0), "a book read with its keys out of order");
    let Ok(loaded) = gsolve_analysis::book::loaded(file) else { return };
    assert_eq!(loaded.book.len(), entries);
    let Ok(analyzer) = Analyzer::with_rules(Limits::interactive(), loaded.rules).with_book(loaded.book) else {
        return;
    };
    // The book's board for the start (analyses are the rules_file target's).
    let _ = analyzer.start(GameKind::Rules, &[]);
}

/// The largest Queen's Case map solved, in open cells (2·30² = 1,800 positions).
pub const MAX_QUEENS_CELLS: u32 = 30;
/// The largest chase board solved (2·6⁴ = 2,592 positions).
pub const MAX_CHASE_SIZE: u32 = 6;
/// The largest pawns board searched, in cells.
pub const MAX_PAWNS_CELLS: u32 = 12;
/// The largest snakes board searched, in free cells.
pub const MAX_SNAKES_CELLS: u32 = 16;
/// Positions one contest search may visit.
pub const SEARCH_NODES: u64 = 200_000;
/// Entries of a contest search's transposition table.
const TABLE_ENTRIES: usize = 1 << 12;
/// The longest line of play followed (as `--explain` prints it).
const LINE_PLIES: usize = 1_000;

/// The input as text, as the front ends read it (they refuse invalid UTF-8 with a
/// message; here it is replaced, so that the parsers see the rest).
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// What `--explain` does with a solved start: the line of optimal play, each move
/// and the end described.
fn explain<G: Explain, L: ValueLookup<G>>(game: &G, values: &L, start: &G::Position) {
    let line = line::principal_line(game, values, start, LINE_PLIES);
    for ply in &line.plies {
        let _ = game.describe_move(&ply.before, &ply.mv).to_string();
    }
    let _ = game.describe_end(&line.end_position);
}

/// A position's plain notation reads back as the position.
fn notation_round_trip<G: PlainNotation>(game: &G, position: &G::Position) {
    let text = game.format_position(position);
    match game.parse_position(&text) {
        Ok(back) => assert!(back == *position, "{text:?} reads back as another position"),
        Err(e) => panic!("{text:?}, written by format_position, does not read back: {e}"),
    }
}

/// A variant's parameters rebuild the same game (a tablebase stores them).
fn parameters_round_trip<G: Variant + Indexed>(game: &G) {
    let parameters = game.parameters();
    let again = G::from_parameters(&parameters)
        .unwrap_or_else(|e| panic!("{} parameters {parameters:?} do not read back: {e}", G::NAME));
    assert_eq!(again.parameters(), parameters);
    assert_eq!(again.index_size(), game.index_size());
}

/// `gsolve queens-case`: every map parsed; maps of at most [`MAX_QUEENS_CELLS`] open
/// cells solved, answered and explained, and the contest line's other ways (the
/// escape by distance, the bit-parallel solves) checked against the engine's solve.
pub fn contest_queens(data: &[u8]) {
    let Ok(maps) = queens_case::parse_maps(&text(data)) else { return };
    for map in &maps {
        // A map written out reads back as itself (`analyze --map`, tablebases).
        assert_eq!(Map::parse(&map.to_string()).as_ref(), Ok(map));
        let game = QueensCase::new(map);
        if game.open_cells() > MAX_QUEENS_CELLS {
            continue;
        }
        parameters_round_trip(&game);
        let solution = retrograde::solve(&game);
        let start = game.start();
        notation_round_trip(&game, &start);
        let value = solution.value_of(&game, &start).expect("the start is solved");
        let _ = QueensCase::verdict(value);
        explain(&game, &solution, &start);
        // The contest line's other ways agree with the engine's solve.
        if let Some(bound) = game.escape_by_distance(&start) {
            assert!(
                matches!(value, Value::Win(r) if (bound.at_least..=bound.at_most).contains(&r)),
                "{value:?} {bound:?}"
            );
        }
        if let Some(bitwise) = game.value_bitwise(&start, &BitwiseOptions::unlimited()) {
            assert_eq!(bitwise, value);
            assert!(game.solve_bitwise(&BitwiseOptions::unlimited()).is_some_and(|s| s == solution));
        }
    }
}

/// `gsolve chase`: every case parsed; boards up to [`MAX_CHASE_SIZE`] solved (once a
/// size, as the command does), answered and explained, and the bit-parallel solves
/// checked against the engine's.
pub fn contest_chase(data: &[u8]) {
    let Ok(cases) = chase::parse_cases(&text(data)) else { return };
    let mut solved = HashMap::new();
    for case in cases.iter().filter(|c| c.size <= MAX_CHASE_SIZE) {
        let (game, solution) = solved.entry(case.size).or_insert_with(|| {
            let game = Chase::new(case.size);
            let solution = retrograde::solve(&game);
            assert!(game.solve_bitwise(&BitwiseOptions::unlimited()).is_some_and(|s| s == solution));
            (game, solution)
        });
        let start = game.start(case);
        notation_round_trip(&*game, &start);
        let value = solution.value_of(&*game, &start).expect("the start is solved");
        let _ = Chase::verdict(value);
        explain(&*game, &*solution, &start);
        // The contest line's bit-parallel solve agrees with the engine's.
        assert_eq!(game.value_bitwise(&start, &BitwiseOptions::unlimited()), Some(value));
    }
}

/// The value of `start` by a searcher within its node budget: `None` when the budget
/// runs out; any other search error is a bug (these games have no ties, and their
/// lines are short).
fn searched<G: SearchHooks, L: std::borrow::Borrow<G>>(
    searcher: &Searcher<'_, G, L>,
    start: &G::Position,
) -> Option<Value> {
    match searcher.value(start) {
        Ok(value) => Some(value),
        Err(SearchError::OutOfBudget { .. }) => None,
        Err(e) => panic!("search failed: {e}"),
    }
}

/// `gsolve pawns` (with and without `--black-to-move`): every board parsed; boards
/// of at most [`MAX_PAWNS_CELLS`] cells searched, answered and explained.
pub fn contest_pawns(data: &[u8]) {
    let Ok(boards) = pawns::parse_boards(&text(data)) else { return };
    let games: HashMap<(u32, u32), Pawns> =
        boards.iter().map(|b| ((b.rows, b.cols), Pawns::new(b.rows, b.cols))).collect();
    let mut searchers: HashMap<(u32, u32), Searcher<'_, Pawns>> = HashMap::new();
    for case in &boards {
        let size = (case.rows, case.cols);
        let game = &games[&size];
        let start = case.position;
        // The contest format also takes more pawns a side than the board has columns
        // (no game reaches them): only positions of the game's index are notation.
        if game.is_indexed(&start) {
            notation_round_trip(game, &start);
            let index = game.index(&start);
            assert!(index < game.index_size());
            assert_eq!(game.position(index), Some(start));
        }
        if case.rows * case.cols > MAX_PAWNS_CELLS {
            continue;
        }
        let searcher = searchers.entry(size).or_insert_with(|| {
            let searcher = Searcher::with_table_entries(game, TABLE_ENTRIES);
            searcher.set_node_limit(Some(SEARCH_NODES));
            searcher
        });
        for white_to_move in [true, false] {
            let start = pawns::PawnsPosition { white_to_move, ..start };
            if let Some(value) = searched(searcher, &start) {
                let _ = Pawns::verdict(&start, value);
                explain(game, &*searcher, &start);
            }
        }
    }
}

/// `gsolve snakes`: every board parsed and made a game; boards of at most
/// [`MAX_SNAKES_CELLS`] free cells searched, answered and explained.
pub fn contest_snakes(data: &[u8]) {
    let Ok(boards) = snakes::parse_boards(&text(data)) else { return };
    for board in &boards {
        snakes::with_game(board, FuzzSnakes);
    }
}

/// One snakes board of [`contest_snakes`], in whichever mask width it needs.
struct FuzzSnakes;

impl snakes::SnakesTask for FuzzSnakes {
    type Output = ();
    fn run<M: snakes::Mask>(self, game: Snakes<M>) {
        let start = game.start();
        notation_round_trip(&game, &start);
        if game.empty_cells() > MAX_SNAKES_CELLS {
            return;
        }
        let searcher = Searcher::with_table_entries(&game, TABLE_ENTRIES);
        searcher.set_node_limit(Some(SEARCH_NODES));
        if let Some(value) = searched(&searcher, &start) {
            let _ = Snakes::verdict(&start, value);
            explain(&game, &searcher, &start);
        }
    }
}

/// The limits of the position targets: [`Limits::interactive`] cut down so that an
/// input takes milliseconds (whole-game solves up to 20,000 positions, searches up
/// to 20,000 positions, on the boards each catalog entry searches with a node
/// budget); every limit check still runs.
pub fn position_limits() -> Limits {
    Limits { max_positions: 20_000, search_table_entries: 1 << 14, max_search_nodes: Some(20_000) }
}

/// The analyzer of the position targets, one a process (as `gsolve serve` keeps
/// one): its caches carry over from input to input.
fn analyzer() -> &'static Analyzer {
    static ANALYZER: OnceLock<Analyzer> = OnceLock::new();
    ANALYZER.get_or_init(|| Analyzer::new(position_limits()))
}

/// Splits an input into a setup: the first line holds the variant parameters,
/// separated by whitespace, each `key=value` or a bare value for `key`; the rest
/// of the input is the position.
fn setup_of(game: GameKind, key: &str, data: &[u8]) -> Setup {
    let text = text(data);
    let (first, position) = text.split_once('\n').unwrap_or((text.as_str(), ""));
    let variant = first
        .split_whitespace()
        .map(|token| match token.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (key.to_string(), token.to_string()),
        })
        .collect();
    Setup { game, variant, position: position.to_string() }
}

/// Analyses a setup as `gsolve analyze` and the web API do, and checks the answer.
fn analyze(setup: &Setup) {
    let analyzer = analyzer();
    let checked = analyzer.check(setup);
    match analyzer.analyze(setup) {
        Ok(analysis) => {
            assert!(checked.is_ok(), "{setup:?}: check refused what analyze answers: {checked:?}");
            check_analysis(analyzer, &analysis);
        }
        Err(AnalysisError::Internal(e)) => panic!("{setup:?}: internal error: {e}"),
        // A search may run out of its budget after the checks passed.
        Err(AnalysisError::TooLarge(_)) => {}
        Err(e) => assert!(checked.is_err(), "{setup:?}: check passed, analyze failed: {e}"),
    }
}

/// What an analysis promises: moves best first, the position's value that of its
/// best move, deltas measured from the best move of each kind, an end named where
/// there is no move, and every position it names (its own, each move's) a setup
/// the analyzer accepts.
fn check_analysis(analyzer: &Analyzer, analysis: &Analysis) {
    let setup = &analysis.setup;
    if let Some(best) = analysis.best_move() {
        assert_eq!(best.value, analysis.value, "{setup:?}: the best move's value is not the position's");
    } else {
        assert!(analysis.end.is_some(), "{setup:?}: no move and no end");
    }
    for pair in analysis.moves.windows(2) {
        assert!(pair[0].value >= pair[1].value, "{setup:?}: moves not best first");
    }
    for m in &analysis.moves {
        let ok = match (m.value, m.delta) {
            (Value::Win(_) | Value::Tie(_), Some(delta)) => delta >= 0,
            (Value::Loss(_), Some(delta)) => delta <= 0,
            (Value::Draw, None) => true,
            _ => false,
        };
        assert!(ok, "{setup:?}: move {} has value {} and delta {:?}", m.label, m.value, m.delta);
    }
    let _ = analysis.to_json().to_string();
    let accepted = |setup: &Setup| match analyzer.check(setup) {
        Ok(_) | Err(AnalysisError::TooLarge(_)) => {}
        Err(e) => panic!("{setup:?}, written by an analysis, is refused: {e}"),
    };
    accepted(setup);
    for m in &analysis.moves {
        accepted(&setup.at(m.position.clone()));
    }
}

/// `gsolve analyze pawns POSITION`, `GET /api/analyze?game=pawns&...`.
pub fn position_pawns(data: &[u8]) {
    analyze(&setup_of(GameKind::Pawns, "rows", data));
}

/// `gsolve analyze chase --size N POSITION`: the first line is the size.
pub fn position_chase(data: &[u8]) {
    analyze(&setup_of(GameKind::Chase, "size", data));
}

/// `gsolve analyze queens-case --map FILE POSITION`: the first line is the map (rows
/// joined by `/`).
pub fn position_queens(data: &[u8]) {
    analyze(&setup_of(GameKind::QueensCase, "map", data));
}

/// `gsolve analyze snakes POSITION`.
pub fn position_snakes(data: &[u8]) {
    analyze(&setup_of(GameKind::Snakes, "rows", data));
}

/// A game's parameters: each built game's parameters rebuild it.
struct RoundTrip;

impl VariantVisitor for RoundTrip {
    type Output = ();
    fn visit<G: CatalogGame>(self, game: G) {
        parameters_round_trip(&game);
    }
}

/// A tablebase header's parameters (`Variant::from_parameters` of pawns, chase and
/// Queen's Case) and a board's parameters (`Analyzer::start`, `GET /api/start`):
/// an optional first line names the game, then one `key=value` a line. Without a
/// game name, every game gets the parameters.
pub fn variant_parameters(data: &[u8]) {
    let text = text(data);
    let mut lines = text.split('\n').peekable();
    let named = lines.peek().and_then(|first| GameKind::from_name(first.trim_end_matches('\r')).ok());
    if named.is_some() {
        lines.next();
    }
    let pairs: Vec<(String, String)> = lines
        .filter(|l| !l.is_empty())
        .map(|l| match l.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect();
    let games = named.map_or(GameKind::ALL.to_vec(), |g| vec![g]);
    for game in games {
        let _ = catalog::with_stored_variant(game.name(), &pairs, RoundTrip);
        // A board's start is a setup the analyzer accepts.
        if let Ok(setup) = analyzer().start(game, &pairs) {
            match analyzer().check(&setup) {
                Ok(_) | Err(AnalysisError::TooLarge(_)) => {}
                Err(e) => panic!("{setup:?}, the start of {pairs:?}, is refused: {e}"),
            }
        }
    }
}

/// The largest index whose summary (`gsolve info`) a tablebase input gets.
pub const MAX_SUMMARY_POSITIONS: u64 = 1_000_000;
/// The largest index a tablebase input gets loaded and verified (`gsolve verify`).
pub const MAX_VERIFY_POSITIONS: u64 = 100_000;

/// A tablebase file as `gsolve probe`, `info` and `verify` (and `--tablebase`) read
/// it. The bytes are read as given, then once more with every checksum made right
/// ([`resign`]), so that the fuzzer reaches past the checksums: a hostile file can
/// carry correct checksums.
pub fn tablebase(data: &[u8]) {
    open(data.to_vec());
    if let Some(signed) = resign(data) {
        if signed != data {
            open(signed);
        }
    }
}

/// The bytes with the header checksum, each block checksum (of the blocks whose
/// place is inside the file) and the block index checksum recomputed; `None` when
/// the header cannot be read even then.
pub fn resign(data: &[u8]) -> Option<Vec<u8>> {
    let mut bytes = data.to_vec();
    if bytes.len() < format::FIXED_HEADER {
        return None;
    }
    let text_len = u32::from_le_bytes(bytes[40..44].try_into().expect("4 bytes")) as usize;
    let text_end = format::FIXED_HEADER.checked_add(text_len).filter(|&end| end <= bytes.len())?;
    let mut covered = bytes[..48].to_vec();
    covered.extend_from_slice(&bytes[format::FIXED_HEADER..text_end]);
    bytes[48..56].copy_from_slice(&xxhash_rust::xxh3::xxh3_64(&covered).to_le_bytes());
    let header = format::Header::decode(&bytes).ok()?;
    let identity = header.identity();
    let start = header.block_index_offset as usize;
    for block in 0..header.block_count as usize {
        let at = start + block * format::INDEX_ENTRY;
        let offset = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let length = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().expect("4 bytes")) as u64;
        if offset.checked_add(length).is_some_and(|end| end <= bytes.len() as u64) {
            let compressed = &bytes[offset as usize..(offset + length) as usize];
            let checksum = format::block_checksum(identity, block as u64, compressed);
            bytes[at + 16..at + 24].copy_from_slice(&checksum.to_le_bytes());
        }
    }
    let end = start + header.block_count as usize * format::INDEX_ENTRY;
    let checksum = format::index_checksum(&bytes[start..end]);
    bytes[end..end + 8].copy_from_slice(&checksum.to_le_bytes());
    Some(bytes)
}

/// A few indices below `size` to probe: the ends and the middle.
fn probes(size: u64) -> Vec<u64> {
    let mut list: Vec<u64> = [0, 1, size / 2, size.saturating_sub(1)].into_iter().filter(|&i| i < size).collect();
    list.dedup();
    list
}

fn open(bytes: Vec<u8>) {
    let Ok(file) = Tablebase::from_bytes(bytes) else { return };
    let size = file.index_size();
    for index in probes(size) {
        let _ = file.value(index);
    }
    assert!(file.value(size).is_err(), "index {size} of {size} is out of range");
    let _ = catalog::open_tablebase(file, Typed);
}

/// A tablebase of the game it names: probes (`gsolve probe`), the summary (`gsolve
/// info`), the load and the verification (`gsolve verify`), as the commands run them.
struct Typed;

impl TablebaseVisitor for Typed {
    type Output = ();
    fn visit<G: CatalogGame>(self, tablebase: GameTablebase<G>) {
        typed(tablebase)
    }
}

fn typed<G: CatalogGame>(tablebase: GameTablebase<G>) {
    let side_of = |p: &G::Position| tablebase.game().side_index(p);
    let game = tablebase.game();
    let file = tablebase.tablebase();
    let size = file.index_size();
    for index in probes(size) {
        if let Some(position) = game.position(index) {
            notation_round_trip(game, &position);
            let _ = tablebase.value(&position);
            if let Ok(moves) = tablebase.move_values(&position) {
                for m in &moves {
                    let _ = game.describe_move(&position, &m.mv);
                    let _ = game.format_position(&m.child);
                }
            }
            let _ = game.describe_end(&position);
        }
    }
    if size <= MAX_SUMMARY_POSITIONS {
        if let Ok(summary) = summarize(game, file, 2, side_of, None) {
            if let Some((_, index)) = summary.longest_win {
                let position = game.position(index).expect("a stored win is a position");
                let _ = game.format_position(&position);
            }
        }
    }
    if size <= MAX_VERIFY_POSITIONS {
        match file.load(None) {
            Ok(table) => {
                let report = gsolve_tablebase::verify(game, &table, 10, None);
                for failure in &report.failures {
                    let _ = game.position(failure.index).map(|p| game.format_position(&p));
                    let _ = failure.problem.to_string();
                }
            }
            Err(_) => {
                let _ = file.damaged_blocks(10, None);
            }
        }
    }
}

/// The rules file the fuzzed server offers.
const BREAKTHROUGH: &str = include_str!("../../examples/rules/breakthrough.toml");

/// `gsolve serve`'s router, in-process: the first line of the input is the method,
/// the second the request target (path and query), the rest the body (sent with a
/// JSON content type). Every answer must be a full response; a `500` (a solver's
/// bug) or a panic fails. One analyzer and runtime serve every input, as a server's
/// do.
pub fn http_router(data: &[u8]) {
    use tower::ServiceExt;
    static ROUTER: OnceLock<axum::Router> = OnceLock::new();
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    // The server offers a rules game too (`gsolve serve --rules`): Breakthrough.
    let router = ROUTER.get_or_init(|| {
        let rules = gsolve_rules::Rules::parse(BREAKTHROUGH).expect("the example rules file reads");
        gsolve_cli::serve::page(Analyzer::with_rules(position_limits(), std::sync::Arc::new(rules)))
    });
    let runtime =
        RUNTIME.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime"));
    let mut parts = data.splitn(3, |&b| b == b'\n');
    let method = parts.next().unwrap_or_default();
    let target = parts.next().unwrap_or_default();
    let body = parts.next().unwrap_or_default().to_vec();
    let Ok(method) = axum::http::Method::from_bytes(method) else { return };
    let Ok(uri) = axum::http::Uri::try_from(target) else { return };
    let Ok(request) = axum::http::Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body))
    else {
        return;
    };
    let response = runtime.block_on(router.clone().oneshot(request)).expect("the router never fails");
    assert_ne!(response.status(), axum::http::StatusCode::INTERNAL_SERVER_ERROR, "a 500 for {data:?}");
    runtime.block_on(axum::body::to_bytes(response.into_body(), 1 << 24)).expect("a whole body");
}

/// The most positions a rules game of the `rules_file` target is solved whole in
/// (with the un-moves check, the costliest part: a first run with 20,000 went too
/// slowly for fuzzing; docs/performance.md, "Server load and reliability").
pub const MAX_RULES_POSITIONS: u64 = 2_000;

/// A rules file (`gsolve rules FILE`, `--rules FILE`): read and checked; then set up
/// on its default board and on 3×3 (or on the position of a line
/// `# position: ...` in the file, a TOML comment), described as `--check` does, its
/// position written and read back, and solved as the catalog's policy says: whole
/// when its index has at most [`MAX_RULES_POSITIONS`] positions (checking that
/// un-moves match moves, and the whole solve the policy names against the
/// engine's), else searched within 5,000 positions when the game cannot loop.
pub fn rules_file(data: &[u8]) {
    use gsolve_analysis::catalog::{policy, CatalogGame, Solver, WholeSolver};
    use gsolve_rules::{setup, Rules};
    let limits = Limits { max_positions: MAX_RULES_POSITIONS, ..Limits::interactive() };
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(rules) = Rules::parse(text) else { return };
    let rules = std::sync::Arc::new(rules);
    let position = text.lines().find_map(|line| line.strip_prefix("# position: ")).map(str::trim);
    let boards: &[Option<(u32, u32)>] = if position.is_some() { &[None] } else { &[None, Some((3, 3))] };
    for &size in boards {
        let Ok(s) = setup(rules.clone(), size, None, position) else { continue };
        let game = &s.game;
        let _ = game.describe();
        let written = game.format_position(&s.position);
        let read = game.parse_position(&written).unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
        assert_eq!(read, s.position, "{written:?} reads back as another position");
        let Ok(chosen) = policy::rules_policy(game, &limits) else { continue };
        match (chosen.whole, chosen.position) {
            (Some(planned), _) => {
                gsolve_engine::check::unmoves_match_moves(game).unwrap_or_else(|e| panic!("{written:?}: {e:?}"));
                let solution = retrograde::solve(game);
                // The whole solve the policy names (a pursuit's runs bit rows): the
                // engine's values, index for index, and reported as what answered.
                let (whole, answered) = game.solve_whole(None);
                assert!(whole == solution, "{written:?}: the {} solve differs from the engine's", answered.name());
                assert!(
                    answered == planned || (planned, answered) == (WholeSolver::BitRows, WholeSolver::Retrograde),
                    "{written:?}: {} planned, {} answered",
                    planned.name(),
                    answered.name()
                );
                // A pawn-like game's tiers rank children move by move: the tier
                // solve's values are the whole solve's.
                if game.scans_children() {
                    let tiers = gsolve_engine::tiered::solve_all(game);
                    let index = game.placement_index().expect("a scanned game has an index");
                    for (t, info) in index.tiers().iter().enumerate() {
                        let values = tiers.get(t as u32).expect("every tier solved");
                        for i in 0..info.size {
                            assert_eq!(
                                values.value(i),
                                solution.value(info.offset + i),
                                "{written:?}: tier {t}, index {i}: the tier solve differs from the whole one"
                            );
                        }
                    }
                }
                if game.terminal(&s.position).is_none() {
                    let value = solution.value(game.index(&s.position));
                    assert!(value.is_some(), "{written:?}: no value");
                }
            }
            (None, Solver::Search) => {
                let searcher = Searcher::with_table_entries(game, 1 << 12);
                searcher.set_node_limit(Some(5_000));
                match searcher.value(&s.position) {
                    Ok(_) | Err(SearchError::OutOfBudget { .. }) => {}
                    Err(e) => panic!("{written:?}: the search failed: {e}"),
                }
            }
            (None, Solver::MarginSearch) => {
                // A flip game: its search within a small budget, against the memo where both answer.
                let shape = game.flip_shape().expect("a flip game's shape");
                let search = gsolve_rules::flips::FlipSearch::new(shape, 1 << 16);
                if game.terminal(&s.position).is_none() {
                    let (mine, theirs) = game.flip_sets(&s.position);
                    let limits = gsolve_rules::flips::Limits::new(1, Some(5_000));
                    if let Ok((value, _)) = search.value(mine, theirs, limits) {
                        let mut memo = gsolve_engine::score::ScoreMemo::with_limit(5_000);
                        if let Ok(exact) = memo.search(game, &s.position) {
                            assert_eq!(value, exact, "{written:?}: the flip search differs from the memo");
                        }
                    }
                }
            }
            (None, Solver::Margins) => {
                // A game with a score: the memo within a small room, or out of it.
                let mut memo = gsolve_engine::score::ScoreMemo::with_limit(5_000);
                match memo.search(game, &s.position) {
                    Ok(_) | Err(gsolve_engine::MemoError::OutOfRoom { .. }) => {}
                    Err(e) => panic!("{written:?}: the memo failed: {e}"),
                }
            }
            (None, Solver::Whole(_)) => unreachable!("a whole solve within the limits is the policy's whole"),
        }
    }
}
