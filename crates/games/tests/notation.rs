//! Plain position notation ([`PlainNotation`]) and variant parameters ([`Variant`])
//! of chase, Queen's Case and pawns: every indexed position reads back as itself,
//! every game rebuilds from its parameters with the same index, and bad text or
//! parameters are errors that say what is wrong and where.

use gsolve_engine::{Game, Indexed, Variant};
use gsolve_games::chase::{Chase, ChasePosition};
use gsolve_games::notation::PlainNotation;
use gsolve_games::pawns::Pawns;
use gsolve_games::queens_case::{generate, Map, QueensCase, QueensPosition};
use gsolve_games::FormatError;
use std::fmt::Debug;

/// Formats and parses back every indexed position; returns how many there were.
fn round_trip_all<G: Indexed + PlainNotation>(game: &G, what: &str) -> u64 {
    let mut n = 0;
    for i in 0..game.index_size() {
        let Some(p) = game.position(i) else { continue };
        let text = game.format_position(&p);
        let back = game.parse_position(&text).unwrap_or_else(|e| panic!("{what}: index {i}, {text:?}: {e}"));
        assert_eq!(back, p, "{what}: index {i}, {text:?}");
        // Surrounding and doubled whitespace is fine too.
        let spaced = format!(" \t{}\n", text.replace(' ', "  "));
        assert_eq!(game.parse_position(&spaced).as_ref(), Ok(&p), "{what}: {spaced:?}");
        n += 1;
    }
    assert!(n > 0, "{what}: no positions");
    n
}

/// Asserts a one-line notation error: no case or line, this column, this text.
fn assert_error<T: Debug>(result: Result<T, FormatError>, column: usize, needle: &str) {
    let e = result.expect_err(&format!("expected an error containing {needle:?}"));
    assert_eq!((e.case, e.line, e.column), (None, None, Some(column)), "{e}");
    assert!(e.message.contains(needle), "{needle:?} not in {:?}", e.message);
}

/// Asserts a parameter error containing every one of `needles`.
fn assert_parameter_error<G: Variant + Debug>(parameters: &[(&str, &str)], needles: &[&str]) {
    let list: Vec<(String, String)> = parameters.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let e = G::from_parameters(&list).expect_err(&format!("{} accepted {parameters:?}", G::NAME));
    for needle in needles {
        assert!(e.contains(needle), "{needle:?} not in {e:?}");
    }
}

fn parameters(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// Rebuilds `game` from its parameters: same name, same parameters, same index.
fn rebuild<G: Variant + Indexed + PlainNotation>(game: &G) -> G {
    let again = G::from_parameters(&game.parameters()).unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
    assert_eq!(again.parameters(), game.parameters(), "{}", G::NAME);
    assert_eq!(again.index_size(), game.index_size(), "{}", G::NAME);
    for i in 0..game.index_size() {
        assert_eq!(again.position(i), game.position(i), "{}: index {i}", G::NAME);
        if let Some(p) = game.position(i) {
            assert_eq!(again.format_position(&p), game.format_position(&p));
        }
    }
    again
}

fn map(text: &str) -> Map {
    Map::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Small maps: open squares, walls, a corridor, generated rooms and a maze.
fn small_maps() -> Vec<Map> {
    let mut maps = vec![
        map("2 2\nQE\nEA\n"),
        map("3 1\nQAE\n"),
        map("4 3\nQ..E\n.#..\n...A\n"),
        map("5 5\n..E..\n.###.\nA###Q\n.###.\n..E..\n"),
        map("5 5\nA....\n####.\n..E..\n.####\n....Q\n"),
    ];
    maps.extend((0..3).map(|seed| generate::random_map(5, 4, 30, 2, seed)));
    maps.push(generate::maze(7, 5, 1, 4));
    maps
}

// ---------------------------------------------------------------------------------
// Round trips.
// ---------------------------------------------------------------------------------

#[test]
fn chase_positions_round_trip() {
    for n in 2..=5 {
        let game = Chase::new(n);
        assert_eq!(round_trip_all(&game, &format!("chase {n}")), 2 * (n as u64).pow(4));
    }
    let game = Chase::new(4);
    let p = ChasePosition { white: 0, black: 15, white_to_move: true };
    assert_eq!(game.format_position(&p), "1,1 4,4 w");
    let p = ChasePosition { white: 6, black: 4, white_to_move: false };
    assert_eq!(game.format_position(&p), "2,3 2,1 b");
    // Both pieces on one cell: a capture, terminal, still a position.
    let caught = game.parse_position("3,2 3,2 b").unwrap();
    assert_eq!(caught, ChasePosition { white: 9, black: 9, white_to_move: false });
    assert!(game.terminal(&caught).is_some());
    // The contest's rows and columns: row r1 column c1 is cell (r1-1)·n + c1-1.
    let g20 = Chase::new(20);
    let p = g20.parse_position("20,1 1,20 w").unwrap();
    assert_eq!((p.white, p.black), (380, 19));
    assert_eq!(g20.format_position(&p), "20,1 1,20 w");
}

#[test]
fn pawns_positions_round_trip() {
    for (rows, cols) in [(3, 3), (3, 4), (4, 4)] {
        let game = Pawns::new(rows, cols);
        let n = round_trip_all(&game, &format!("pawns {rows}x{cols}"));
        assert_eq!(n, game.index_size(), "the pawn index has no holes");
    }
    let game = Pawns::new(4, 4);
    assert_eq!(game.format_position(&game.start()), "pppp/..../..../PPPP w");
    assert_eq!(game.parse_position("pppp/..../..../PPPP w"), Ok(game.start()));
    // Decided positions (a pawn on its goal rank) are indexed, so they read back,
    // unlike in a contest input.
    let won = game.parse_position("P.../..../..../...p b").unwrap();
    assert!(game.terminal(&won).is_some());
    assert!(gsolve_games::pawns::parse_position("P.../..../..../...p b").is_err());
}

#[test]
fn queens_case_positions_round_trip() {
    for m in small_maps() {
        let game = QueensCase::new(&m);
        let n = round_trip_all(&game, &format!("queens-case\n{m}"));
        assert_eq!(n, 2 * (game.open_cells() as u64).pow(2));
        assert_eq!(game.map(), &m);
    }
    // Coordinates are the map's (walls counted), not open-cell ids.
    let game = QueensCase::new(&map("4 3\nQ..E\n.#..\n...A\n"));
    assert_eq!(game.format_position(&game.start()), "1,1 3,4 q");
    let p = game.parse_position("2,3 2,1 a").unwrap();
    assert_eq!(game.coord(p.queen).to_string(), "(2,3)");
    assert_eq!(game.coord(p.army).to_string(), "(2,1)");
    assert!(!p.queen_to_move);
    assert_eq!(
        game.parse_position("1,4 1,4 q").map(|p| (p.queen == p.army, game.terminal(&p).is_some())),
        Ok((true, true))
    );
}

#[test]
fn parameters_round_trip() {
    for n in 2..=6 {
        let game = rebuild(&Chase::new(n));
        assert_eq!(game.size(), n);
    }
    assert_eq!(Chase::new(20).parameters(), parameters(&[("size", "20")]));
    assert_eq!(<Chase as Variant>::NAME, "chase");

    for (rows, cols) in [(2, 2), (3, 3), (3, 4), (4, 3), (2, 5)] {
        let game = rebuild(&Pawns::new(rows, cols));
        assert_eq!((game.rows(), game.cols()), (rows, cols));
    }
    assert_eq!(Pawns::new(4, 5).parameters(), parameters(&[("rows", "4"), ("cols", "5")]));
    // The largest board: too many positions to compare one by one.
    let big = Pawns::from_parameters(&Pawns::new(8, 8).parameters()).unwrap();
    assert_eq!((big.rows(), big.cols(), big.index_size()), (8, 8, Pawns::new(8, 8).index_size()));
    assert_eq!(big.position(12_345_678_901), Pawns::new(8, 8).position(12_345_678_901));
    assert_eq!(<Pawns as Variant>::NAME, "pawns");

    for m in small_maps() {
        let game = rebuild(&QueensCase::new(&m));
        assert_eq!(game.map(), &m);
        assert_eq!(game.start(), QueensCase::new(&m).start());
    }
    let game = QueensCase::new(&map("4 3\nQ..E\n.#..\n...A\n"));
    assert_eq!(game.parameters(), parameters(&[("width", "4"), ("height", "3"), ("map", "Q..E/.#../...A")]));
    // Keys in any order.
    let shuffled = parameters(&[("map", "Q..E/.#../...A"), ("height", "3"), ("width", "4")]);
    assert_eq!(QueensCase::from_parameters(&shuffled).unwrap().map(), game.map());
    assert_eq!(<QueensCase as Variant>::NAME, "queens-case");
}

// ---------------------------------------------------------------------------------
// Bad notations.
// ---------------------------------------------------------------------------------

#[test]
fn bad_chase_notations_are_errors() {
    let game = Chase::new(4);
    let parse = |text: &str| game.parse_position(text);
    assert_error(parse("1,1 4,4 x"), 9, "side to move \"x\": expected w or b");
    assert_error(parse("1,1 4,4 W"), 9, "expected w or b");
    assert_error(parse("1,1 4,4 q"), 9, "expected w or b");
    assert_error(parse("1,1 4,4"), 9, "missing the side to move");
    assert_error(parse("  1,1  4,4  "), 12, "missing the side to move");
    assert_error(parse("1,1"), 5, "missing black's cell");
    assert_error(parse(""), 1, "missing white's cell");
    assert_error(parse("   "), 1, "missing white's cell");
    assert_error(parse("1,1 4,4 w b"), 11, "unexpected \"b\" after the side to move");
    assert_error(parse("1,1 4,4 w 1"), 11, "expected `R,C R,C S`");
    assert_error(parse("1,1 5,4 w"), 5, "black's cell 5,4 is off the 4x4 board");
    assert_error(parse("1,1 4,0 w"), 5, "black's cell 4,0 is off the 4x4 board");
    assert_error(parse("0,1 4,4 w"), 1, "white's cell 0,1 is off the 4x4 board");
    assert_error(parse(" 1,x 4,4 w"), 2, "white's cell \"1,x\": the column \"x\" is not a whole number");
    assert_error(parse("1,1 -4,4 w"), 5, "the row \"-4\" is not a whole number");
    assert_error(parse("1,1 +4,4 w"), 5, "the row \"+4\" is not a whole number");
    assert_error(parse("1, 4,4 w"), 1, "the column \"\" is not a whole number");
    assert_error(parse("1,1,1 4,4 w"), 1, "the column \"1,1\" is not a whole number");
    assert_error(parse("11 4,4 w"), 1, "white's cell \"11\": expected row,column");
    assert_error(parse("1;1 4,4 w"), 1, "expected row,column");
    assert_error(parse("1,1 99999999999,4 w"), 5, "the row 99999999999 is out of range");
    // Columns count characters, not bytes.
    assert_error(parse("1,1 4,4 é"), 9, "side to move \"é\"");
    assert_error(parse("1,1 ４,4 w"), 5, "not a whole number");
    // Line breaks are whitespace, and columns count across them.
    assert_eq!(parse("1,1\n4,4\nb"), Ok(ChasePosition { white: 0, black: 15, white_to_move: false }));
}

#[test]
fn bad_queens_case_notations_are_errors() {
    let game = QueensCase::new(&map("4 3\nQ..E\n.#..\n...A\n"));
    let parse = |text: &str| game.parse_position(text);
    assert_error(parse("2,2 3,4 q"), 1, "queen's cell 2,2 is a wall");
    assert_error(parse("1,1  2,2 a"), 6, "army's cell 2,2 is a wall");
    assert_error(parse("1,1 4,1 q"), 5, "army's cell 4,1 is outside the 4x3 map (rows 1..=3, columns 1..=4)");
    assert_error(parse("1,5 3,4 q"), 1, "queen's cell 1,5 is outside the 4x3 map");
    assert_error(parse("0,0 3,4 q"), 1, "is outside the 4x3 map");
    assert_error(parse("1,1 3,4 w"), 9, "side to move \"w\": expected q or a");
    assert_error(parse("1,1 3,4 Q"), 9, "expected q or a");
    assert_error(parse("1,1 3,4"), 9, "missing the side to move");
    assert_error(parse("1,1"), 5, "missing army's cell");
    assert_error(parse("1,1 3,4 q q"), 11, "unexpected \"q\" after the side to move");
    assert_error(parse("1,1 x,4 q"), 5, "army's cell \"x,4\": the row \"x\" is not a whole number");
    assert_eq!(
        parse(" 1,1\t3,4 q "),
        Ok(QueensPosition { queen: 0, army: game.open_cells() - 1, queen_to_move: true })
    );
}

#[test]
fn bad_pawns_notations_are_errors() {
    let game = Pawns::new(4, 4);
    let parse = |text: &str| game.parse_position(text);
    assert_error(parse("ppp/.../.../PPP w"), 1, "the board is 4x3 but this game is 4x4");
    assert_error(parse("  ppp/.../PPP w"), 3, "the board is 3x3 but this game is 4x4");
    assert_error(parse("pp/PP w"), 1, "the board is 2x2 but this game is 4x4");
    assert_error(parse("pppp/..../..../..../PPPP w"), 1, "the board is 5x4 but this game is 4x4");
    assert_error(parse("pppp/.../..../PPPP w"), 6, "row 2 has 3 cells, the board's first row has 4");
    assert_error(parse("pppp//..../PPPP w"), 6, "row 2 has 0 cells");
    assert_error(parse("pppp/..../..../PPPP/ w"), 21, "row 5 has 0 cells");
    assert_error(parse("pppp/..x./..../PPPP w"), 8, "unknown character 'x'");
    assert_error(parse(" pppp/..../..../PPPK w"), 20, "unknown character 'K'");
    assert_error(parse("pppp/..../..../PPPP x"), 21, "side to move \"x\": expected w or b");
    assert_error(parse("pppp/..../..../PPPP"), 21, "missing the side to move");
    assert_error(parse(""), 1, "missing the board");
    assert_error(parse("pppp/..../..../PPPP w b"), 23, "unexpected \"b\" after the side to move");
    assert_error(parse("pppp/..../..../PP PP w"), 22, "unexpected \"w\"");
    // The board is checked before the side: the first offending token is named.
    assert_error(parse("ppp/.../... x"), 1, "the board is 3x3");
    // The contest-input parser (any size) keeps its rules, with columns now.
    let any = gsolve_games::pawns::parse_position;
    assert_error(any("p/P w"), 1, "the board is 2x1; rows and columns must be 2 to 8");
    assert_error(any("P.../..../..../PPPP w"), 1, "white pawn is already on its goal rank");
    assert_error(any("pppp/..../..../PPPP w x"), 23, "unexpected \"x\"");
    assert_eq!(any("ppp/.../PPP b").map(|c| (c.rows, c.cols)), Ok((3, 3)));
}

// ---------------------------------------------------------------------------------
// Bad parameters.
// ---------------------------------------------------------------------------------

#[test]
fn bad_parameters_are_errors() {
    // Chase.
    assert_parameter_error::<Chase>(&[], &["missing parameter \"size\""]);
    assert_parameter_error::<Chase>(&[("size", "1")], &["\"size\" = 1 is out of range 2..=100"]);
    assert_parameter_error::<Chase>(&[("size", "101")], &["\"size\"", "out of range 2..=100"]);
    assert_parameter_error::<Chase>(&[("size", "99999999999")], &["\"size\"", "out of range"]);
    assert_parameter_error::<Chase>(&[("size", "four")], &["\"size\" = \"four\" is not a whole number"]);
    assert_parameter_error::<Chase>(&[("size", "")], &["\"size\"", "not a whole number"]);
    assert_parameter_error::<Chase>(&[("size", " 4")], &["\"size\"", "not a whole number"]);
    assert_parameter_error::<Chase>(&[("size", "+4")], &["\"size\"", "not a whole number"]);
    assert_parameter_error::<Chase>(&[("size", "4"), ("walls", "0")], &["unknown parameter \"walls\"", "size"]);
    assert_parameter_error::<Chase>(&[("size", "4"), ("size", "4")], &["\"size\" is given twice"]);
    assert_parameter_error::<Chase>(&[("Size", "4")], &["unknown parameter \"Size\""]);

    // Pawns.
    assert_parameter_error::<Pawns>(&[("rows", "4")], &["missing parameter \"cols\""]);
    assert_parameter_error::<Pawns>(&[("cols", "4")], &["missing parameter \"rows\""]);
    assert_parameter_error::<Pawns>(&[("rows", "9"), ("cols", "4")], &["\"rows\" = 9 is out of range 2..=8"]);
    assert_parameter_error::<Pawns>(&[("rows", "4"), ("cols", "1")], &["\"cols\" = 1 is out of range 2..=8"]);
    assert_parameter_error::<Pawns>(&[("rows", "4"), ("cols", "4x")], &["\"cols\" = \"4x\" is not a whole number"]);
    assert_parameter_error::<Pawns>(
        &[("rows", "4"), ("cols", "4"), ("side", "w")],
        &["unknown parameter \"side\"", "rows, cols"],
    );

    // Queen's Case.
    let qc = |w: &'static str, h: &'static str, m: &'static str| [("width", w), ("height", h), ("map", m)];
    assert_parameter_error::<QueensCase>(&qc("4", "3", "Q..E/.#../...A")[..2], &["missing parameter \"map\""]);
    assert_parameter_error::<QueensCase>(&qc("4", "3", "Q..E/.#../...A")[1..], &["missing parameter \"width\""]);
    assert_parameter_error::<QueensCase>(&qc("0", "3", "Q..E/.#../...A"), &["\"width\" = 0 is out of range 1..=1000"]);
    assert_parameter_error::<QueensCase>(&qc("4", "1001", "Q..E"), &["\"height\" = 1001 is out of range"]);
    assert_parameter_error::<QueensCase>(&qc("4", "2", "Q..E/.#../...A"), &["\"map\" has 3 rows, but height is 2"]);
    assert_parameter_error::<QueensCase>(&qc("4", "3", "Q..E/.#./...A"), &["row 2 has 3 cells, but width is 4"]);
    assert_parameter_error::<QueensCase>(&qc("4", "3", "Q..E/.#../...."), &["\"map\" has no army 'A'"]);
    assert_parameter_error::<QueensCase>(&qc("4", "3", "...E/.#../...A"), &["\"map\" has no queen 'Q'"]);
    assert_parameter_error::<QueensCase>(&qc("4", "3", "Q.../.#../...A"), &["\"map\" has no exit 'E'"]);
    assert_parameter_error::<QueensCase>(
        &qc("4", "3", "Q..E/.#x./...A"),
        &["parameter \"map\", row 2, column 3: unknown character 'x'"],
    );
    assert_parameter_error::<QueensCase>(
        &qc("4", "3", "Q..E/.#../.Q.A"),
        &["parameter \"map\", row 3, column 2: a second queen"],
    );
    assert_parameter_error::<QueensCase>(
        &qc("4", "3", "Q..E/.#../..A "),
        &["parameter \"map\", row 3, column 4: unknown character ' '"],
    );
    // The map parser's own limit on open cells.
    let wide = format!("QAE{}{}", ".".repeat(997), format!("/{}", ".".repeat(1000)).repeat(21));
    let list = parameters(&[("width", "1000"), ("height", "22"), ("map", &wide)]);
    let e = QueensCase::from_parameters(&list).unwrap_err();
    assert!(e.contains("parameter \"map\": the map has 22000 open cells; at most 20000"), "{e}");
    let mut extra = qc("4", "3", "Q..E/.#../...A").to_vec();
    extra.push(("exits", "1"));
    assert_parameter_error::<QueensCase>(&extra, &["unknown parameter \"exits\"", "width, height, map"]);
}

/// Snakes: every position met in random games on random boards formats and parses
/// back; the board alone (`parse_plain`) rebuilds the game at its start.
#[test]
fn snakes_positions_round_trip() {
    use gsolve_games::rng::SplitMix64;
    use gsolve_games::snakes::{parse_plain, Snakes};
    let mut rng = SplitMix64::new(4);
    let mut checked = 0;
    for _ in 0..200 {
        let (rows, cols) = (1 + rng.below(6) as usize, 2 + rng.below(6) as usize);
        let mut cells: Vec<char> = (0..rows * cols).map(|_| if rng.below(5) == 0 { '#' } else { '.' }).collect();
        let a = rng.below(cells.len() as u64) as usize;
        let b = (a + 1 + rng.below(cells.len() as u64 - 1) as usize) % cells.len();
        cells[a] = '1';
        cells[b] = '2';
        let side = 1 + rng.below(2);
        let rows_text: Vec<String> = cells.chunks(cols).map(|r| r.iter().collect()).collect();
        let text = format!("{} {side}", rows_text.join("/"));
        let (board, to_move) = parse_plain(&text).unwrap();
        let game = Snakes::<u128>::new(&board);
        let mut position = game.start();
        position.to_move = to_move;
        assert_eq!(game.format_position(&position), text);
        // A random game from there: every position round-trips.
        let mut moves = Vec::new();
        loop {
            let shown = game.format_position(&position);
            assert_eq!(game.parse_position(&shown), Ok(position), "{shown}");
            assert_eq!(game.parse_position(&format!("  {shown}\t\n")), Ok(position));
            checked += 1;
            moves.clear();
            game.moves(&position, &mut moves);
            if moves.is_empty() {
                break;
            }
            position = game.play(&position, &moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn bad_snakes_notations_are_errors() {
    use gsolve_games::snakes::{parse_plain, Snakes};
    assert_error(parse_plain("1../..2"), 9, "missing the snake to move");
    assert_error(parse_plain("1../..2 3"), 9, "expected 1 or 2");
    assert_error(parse_plain("1../..x 1"), 7, "unknown cell 'x'");
    assert_error(parse_plain("1../.. 1"), 5, "row 2 has 2 cells");
    assert_error(parse_plain("1.1/..2 1"), 3, "a second head of snake 1");
    assert_error(parse_plain("1../... 1"), 1, "no snake 2");
    let (board, _) = parse_plain("1.#/..2 1").unwrap();
    let game = Snakes::<u128>::new(&board);
    assert_error(game.parse_position("1../..2 1"), 3, "cell 1,3 is an obstacle");
    assert_error(game.parse_position(".1#/..2 1"), 1, "start cell");
    assert_error(game.parse_position("1.#/..2/... 1"), 1, "the board is 3x3 but this game is 2x3");
    assert_eq!(game.parse_position("1##/..2 2").unwrap().to_move, 1);
}
