//! The analyzer's plumbing: every legal move listed with the value its child has,
//! best first, remoteness deltas, boards, solver choice, tablebases, errors.

use gsolve_analysis::{Analysis, AnalysisError, Analyzer, GameKind, Limits, Setup};
use gsolve_engine::{layered, Game, Indexed, Value};
use gsolve_games::notation::PlainNotation;
use gsolve_games::pawns::Pawns;
use gsolve_games::rng::SplitMix64;
use gsolve_tablebase::{write, WriteOptions};

/// Checks one analysis against the analyses of its children: each move's value is
/// its child's value seen by the mover, moves are best first, the position's value
/// is the best move's, deltas are remoteness minus the first move of the same kind.
fn check_consistent(analyzer: &Analyzer, analysis: &Analysis) {
    let moves = &analysis.moves;
    if moves.is_empty() {
        assert!(matches!(analysis.value, Value::Loss(0) | Value::Win(0) | Value::Tie(0)), "{analysis:?}");
        assert!(analysis.end.is_some(), "a finished game says how it ended");
        return;
    }
    assert_eq!(analysis.value, moves[0].value, "{}", analysis.setup.position);
    assert!(moves.windows(2).all(|w| w[0].value >= w[1].value), "best first");
    for m in moves {
        let child = analyzer.analyze(&analysis.setup.at(m.position.clone())).unwrap();
        assert_eq!(child.value.parent_view(), m.value, "{} after {}", analysis.setup.position, m.label);
        let first_of_kind = moves.iter().find(|o| o.value.kind_name() == m.value.kind_name()).unwrap();
        let expected = m.value.remoteness().map(|r| r as i64 - first_of_kind.value.remoteness().unwrap() as i64);
        assert_eq!(m.delta, expected);
    }
}

/// Random walks through a game from `start`, checking every position met.
fn walk(analyzer: &Analyzer, start: &Setup, games: usize, seed: u64) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut setup = start.clone();
        for _ in 0..60 {
            let analysis = analyzer.analyze(&setup).unwrap();
            check_consistent(analyzer, &analysis);
            checked += 1;
            if analysis.moves.is_empty() {
                break;
            }
            let pick = &analysis.moves[rng.below(analysis.moves.len() as u64) as usize];
            setup = setup.at(pick.position.clone());
        }
    }
    checked
}

#[test]
fn every_game_is_consistent_along_random_games() {
    let analyzer = Analyzer::new(Limits::default());
    let setups = [
        Setup::new(GameKind::Pawns, "ppp/.../PPP w"),
        Setup::new(GameKind::Pawns, "pppp/..../..../PPPP w"),
        Setup::new(GameKind::Pawns, "ppp/.../.../PPP b"),
        Setup::new(GameKind::Pawns, "pppp/..../..../..../PPPP w"), // 5x4: alpha-beta
        Setup::new(GameKind::Chase, "1,1 4,4 w").with("size", "4"),
        Setup::new(GameKind::Chase, "2,2 3,3 b").with("size", "5"),
        GameKind::QueensCase.example(),
        Setup::new(GameKind::QueensCase, "1,1 3,3 q").with("map", "Q.E/.#./..A"),
        Setup::new(GameKind::Snakes, "1../.../..2 1"),
        Setup::new(GameKind::Snakes, "1.#./..../.#.2 2"),
    ];
    for (i, setup) in setups.iter().enumerate() {
        let checked = walk(&analyzer, setup, 3, i as u64);
        assert!(checked >= 3, "{setup:?}");
    }
}

#[test]
fn known_values() {
    let analyzer = Analyzer::new(Limits::default());
    let value = |setup: Setup| analyzer.analyze(&setup).unwrap();
    let hexapawn = value(Setup::new(GameKind::Pawns, "ppp/.../PPP w"));
    assert_eq!((hexapawn.value, hexapawn.solver, hexapawn.to_move), (Value::Loss(6), "layered", "white"));
    let octapawn = value(GameKind::Pawns.example());
    assert_eq!(octapawn.value, Value::Win(11));
    assert_eq!(octapawn.moves.len(), 4);
    let five = value(Setup::new(GameKind::Pawns, "ppppp/...../...../...../PPPPP w"));
    assert_eq!((five.value, five.solver), (Value::Win(19), "alpha-beta"));
    assert_eq!(five.moves.iter().map(|m| m.delta.unwrap()).collect::<Vec<_>>(), [0, 0, 0, 2, 2]);
    // GAMES.md §2 sample: n = 2, white (1,1), black (2,2): BLACK 2.
    let chase = value(Setup::new(GameKind::Chase, "1,1 2,2 w").with("size", "2"));
    assert_eq!((chase.value, chase.solver), (Value::Loss(2), "retrograde"));
    // The Queen's Case example: the queen escapes in 6, two moves only draw.
    let queens = value(GameKind::QueensCase.example());
    assert_eq!(queens.value, Value::Win(6));
    assert_eq!(queens.moves.iter().filter(|m| m.value == Value::Draw).count(), 2);
    assert!(queens.moves.iter().all(|m| m.value != Value::Draw || m.delta.is_none()));
    // Snakes 3×3, opposite corners: the contest answer is `1 6` (snake 2 is stuck
    // on ply 6), so snake 1 wins in 5 plies.
    let snakes = value(Setup::new(GameKind::Snakes, "1../.../..2 1"));
    assert_eq!((snakes.value, snakes.solver, snakes.to_move), (Value::Win(5), "alpha-beta", "snake 1"));
    // The same 3×3 room walled in at the centre of a 13×13 open board: 151 free
    // cells (256-cell masks), the same value; each of snake 1's two moves wins.
    let mut rows = vec![vec!['.'; 13]; 13];
    for (r, row) in rows.iter_mut().enumerate().take(9).skip(4) {
        for (c, cell) in row.iter_mut().enumerate().take(9).skip(4) {
            if !((5..=7).contains(&r) && (5..=7).contains(&c)) {
                *cell = '#';
            }
        }
    }
    rows[5][5] = '1';
    rows[7][7] = '2';
    let text: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let room = value(Setup::new(GameKind::Snakes, format!("{} 1", text.join("/"))));
    assert_eq!((room.value, room.solver), (Value::Win(5), "alpha-beta"));
    assert_eq!(room.moves.iter().map(|m| m.value).collect::<Vec<_>>(), [Value::Win(5), Value::Win(5)]);
}

#[test]
fn boards_show_the_pieces() {
    let analyzer = Analyzer::new(Limits::default());
    let pawns = analyzer.analyze(&Setup::new(GameKind::Pawns, "p.p/.P./P.. b")).unwrap();
    assert_eq!(pawns.board.cells, ["p.p", ".P.", "P.."]);
    assert_eq!(pawns.to_move, "black");
    let chase = analyzer.analyze(&Setup::new(GameKind::Chase, "1,2 3,1 b").with("size", "3")).unwrap();
    assert_eq!(chase.board.cells, [".W.", "...", "B.."]);
    assert_eq!(chase.board.at(1, 2), 'W');
    let caught = analyzer.analyze(&Setup::new(GameKind::Chase, "2,2 2,2 w").with("size", "3")).unwrap();
    assert_eq!(caught.board.at(2, 2), 'X');
    assert!(caught.moves.is_empty() && caught.end.is_some());
    let queens = analyzer.analyze(&GameKind::QueensCase.example().at("2,1 4,4 a")).unwrap();
    assert_eq!(queens.board.cells, ["....E", "Q##..", "..#..", "E..A."]);
    let snakes = analyzer.analyze(&Setup::new(GameKind::Snakes, "#1./.#./..2 2")).unwrap();
    assert_eq!(snakes.board.cells, ["#1.", ".#.", "..2"]);
    // Moves name cells that match the board: the mover's piece is at `from`.
    for m in &pawns.moves {
        assert_eq!(pawns.board.at(m.from.row, m.from.col), 'p');
    }
    for m in &snakes.moves {
        assert_eq!(snakes.board.at(m.from.row, m.from.col), '2');
        assert_eq!(snakes.board.at(m.to.row, m.to.col), '.');
    }
}

#[test]
fn positions_are_canonical_in_the_analysis() {
    let analyzer = Analyzer::new(Limits::default());
    let analysis = analyzer.analyze(&Setup::new(GameKind::Pawns, "  ppp/.../PPP   w ")).unwrap();
    assert_eq!(analysis.setup.position, "ppp/.../PPP w");
    let json = analysis.to_json();
    assert_eq!(json["position"], "ppp/.../PPP w");
    assert_eq!(json["value"], "loss");
    assert_eq!(json["remoteness"], 6);
    assert_eq!(json["moves"].as_array().unwrap().len(), 3);
    assert_eq!(json["board"]["cells"][0], "ppp");
}

#[test]
fn starts_of_every_game() {
    let p = |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
    let analyzer = Analyzer::new(Limits::interactive());
    let starts = [
        (GameKind::Pawns, p(&[("rows", "3"), ("cols", "4")]), "pppp/..../PPPP w"),
        (GameKind::Chase, p(&[("size", "5")]), "1,1 5,5 w"),
        (GameKind::QueensCase, p(&[("map", "Q.E/.#./..A")]), "1,1 3,3 q"),
        (GameKind::Snakes, p(&[("rows", "2"), ("cols", "3")]), "1../..2 1"),
    ];
    for (game, parameters, position) in starts {
        let setup = Analyzer::new(Limits::default()).start(game, &parameters).unwrap();
        assert_eq!(setup.position, position);
        analyzer.analyze(&setup).unwrap();
    }
    for game in GameKind::ALL {
        let example = game.example();
        assert_eq!(GameKind::from_name(game.name()), Ok(game));
        analyzer.analyze(&example).unwrap();
    }
    let error =
        Analyzer::new(Limits::default()).start(GameKind::Pawns, &p(&[("rows", "9"), ("cols", "3")])).unwrap_err();
    assert!(error.to_string().contains("rows"), "{error}");
    let error = Analyzer::new(Limits::default()).start(GameKind::Chase, &[]).unwrap_err();
    assert!(error.to_string().contains("size"), "{error}");
}

#[test]
fn errors_say_what_is_wrong() {
    let analyzer = Analyzer::new(Limits::interactive());
    let error = |setup: Setup| analyzer.analyze(&setup).unwrap_err();
    assert_eq!(GameKind::from_name("go"), Err(AnalysisError::UnknownGame("go".into())));
    let e = error(Setup::new(GameKind::Chase, "1,1 4,4 w"));
    assert!(matches!(&e, AnalysisError::BadVariant(m) if m.contains("\"size\" is missing")), "{e}");
    let e = error(Setup::new(GameKind::Chase, "1,1 4,4 w").with("size", "4").with("colour", "red"));
    assert!(matches!(&e, AnalysisError::BadVariant(m) if m.contains("colour")), "{e}");
    let e = error(Setup::new(GameKind::Pawns, "ppp/.../PPP w").with("rows", "3"));
    assert!(matches!(&e, AnalysisError::BadVariant(m) if m.contains("no variant")), "{e}");
    let e = error(Setup::new(GameKind::Pawns, "ppp/.x./PPP w"));
    assert!(matches!(&e, AnalysisError::BadPosition { message, .. } if message.contains("column 6")), "{e}");
    let e = error(Setup::new(GameKind::Chase, "1,1 9,9 w").with("size", "4"));
    assert!(matches!(&e, AnalysisError::BadPosition { .. }), "{e}");
    let e = error(Setup::new(GameKind::Chase, "1,1 4,4 w").with("size", "100"));
    assert!(matches!(&e, AnalysisError::TooLarge(m) if m.contains("positions")), "{e}");
    let e = error(Setup::new(GameKind::Pawns, "pppppp/....../....../....../....../PPPPPP w"));
    assert!(matches!(&e, AnalysisError::TooLarge(_)), "{e}");
    let open = vec![".".repeat(8); 8].join("/");
    let snakes = format!("1{}2 1", &open[1..open.len() - 1]);
    let e = error(Setup::new(GameKind::Snakes, snakes));
    assert!(matches!(&e, AnalysisError::TooLarge(m) if m.contains("free cells")), "{e}");
}

/// A pawns 3×3 tablebase answers exactly as the solver does, for every position.
#[test]
fn tablebase_answers_like_the_solver() {
    let dir = std::env::temp_dir().join(format!("gsolve-analysis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pawns-3x3.gtb");
    let game = Pawns::new(3, 3);
    write::write_solution(&path, &game, &layered::solve(&game), &WriteOptions::default(), None).unwrap();
    let from_file = Analyzer::with_tablebase(Limits::default(), &path).unwrap();
    let solving = Analyzer::new(Limits::default());
    let mut compared = 0;
    for index in 0..game.index_size() {
        let position = game.position(index).unwrap();
        if game.move_count(&position) == 0 && game.terminal(&position).is_none() && index % 7 != 0 {
            continue; // plenty of stuck positions: sample them
        }
        let setup = Setup::new(GameKind::Pawns, game.format_position(&position));
        let (a, b) = (from_file.analyze(&setup).unwrap(), solving.analyze(&setup).unwrap());
        assert_eq!(a.solver, "tablebase");
        assert_eq!((a.value, &a.moves, &a.board, &a.end), (b.value, &b.moves, &b.board, &b.end));
        compared += 1;
    }
    assert!(compared > 1000, "{compared}");
    let e = from_file.analyze(&GameKind::Pawns.example()).unwrap_err();
    assert!(matches!(&e, AnalysisError::Tablebase(m) if m.contains("rows=3 cols=3") && m.contains("rows=4")), "{e}");
    let e = from_file.analyze(&GameKind::Snakes.example()).unwrap_err();
    assert!(matches!(e, AnalysisError::Tablebase(_)));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One analyzer serves many threads; the cache hands each the same solve.
#[test]
fn analyzer_is_shared_between_threads() {
    let analyzer = Analyzer::new(Limits::interactive());
    let setup = Setup::new(GameKind::Chase, "1,1 6,6 w").with("size", "6");
    let expected = analyzer.analyze(&setup).unwrap();
    std::thread::scope(|s| {
        for t in 0..4 {
            let (analyzer, setup, expected) = (&analyzer, &setup, &expected);
            s.spawn(move || {
                for i in 0..20 {
                    let position =
                        format!("{},{} 6,6 {}", 1 + (t + i) % 5, 1 + i % 5, if i % 2 == 0 { 'w' } else { 'b' });
                    analyzer.analyze(&setup.at(position)).unwrap();
                }
                assert_eq!(analyzer.analyze(setup).unwrap(), *expected);
            });
        }
    });
}

/// A search over its node budget is refused as too large, and the same analyzer
/// answers what fits.
#[test]
fn searches_over_the_node_budget_are_refused() {
    let limits = Limits { max_search_nodes: Some(2_000), ..Limits::interactive() };
    let analyzer = Analyzer::new(limits);
    let start = Setup::new(GameKind::Pawns, "ppppp/...../...../...../PPPPP w");
    let e = analyzer.analyze(&start).unwrap_err();
    assert!(matches!(&e, AnalysisError::TooLarge(m) if m.contains("gave up after 2000 positions")), "{e}");
    let small = analyzer.analyze(&Setup::new(GameKind::Snakes, "1../.../..2 1")).unwrap();
    assert_eq!(small.value, Value::Win(5));
    // The interactive budget answers the 5x5 start.
    assert_eq!(Analyzer::new(Limits::interactive()).analyze(&start).unwrap().value, Value::Win(19));
}

#[test]
fn long_solves_report_their_progress() {
    use gsolve_engine::Progress;
    use std::sync::Mutex;
    // An alpha-beta search (the 6x6 pawns start, two million positions) reports
    // the positions it has visited, growing, and what it knows of the value; a
    // whole-game solve (chase 12) reports its named steps with their totals.
    let reports: Mutex<Vec<Progress>> = Mutex::new(Vec::new());
    let observe = |p: Progress| reports.lock().unwrap().push(p);
    let analyzer = Analyzer::new(Limits::default());
    let start = Setup::new(GameKind::Pawns, "pppppp/....../....../....../....../PPPPPP w");
    let analysis = analyzer.analyze_with_progress(&start, Some(&observe)).unwrap();
    assert_eq!(analysis.value, Value::Loss(30));
    let searched = std::mem::take(&mut *reports.lock().unwrap());
    assert!(searched.len() >= 2, "{} reports", searched.len());
    assert!(searched.iter().all(|p| p.step == "search" && p.total == 0), "{searched:?}");
    assert!(searched.windows(2).all(|w| w[0].done < w[1].done), "{searched:?}");
    // The start is searched first: once its first probe has found it lost, the
    // bounds are two losses around the value (its moves, searched after it for
    // the other side, are wins).
    let (worst, best) = searched.iter().find_map(|p| p.bounds).expect("bounds are reported");
    assert!(matches!((worst, best), (Value::Loss(_), Value::Loss(_))), "{worst} .. {best}");
    assert!(worst <= Value::Loss(30) && Value::Loss(30) <= best, "{worst} .. {best}");

    let chase = Setup::new(GameKind::Chase, "1,1 12,12 w").with("size", "12");
    analyzer.analyze_with_progress(&chase, Some(&observe)).unwrap();
    let solved = reports.into_inner().unwrap();
    assert!(!solved.is_empty());
    assert!(solved.iter().all(|p| p.total > 0 && p.done <= p.total), "{solved:?}");
}

// ---------------------------------------------------------------------------------
// rules games

fn rules_file(name: &str) -> std::sync::Arc<gsolve_rules::Rules> {
    let path = format!("{}/../../examples/rules/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    std::sync::Arc::new(gsolve_rules::Rules::parse(&text).unwrap())
}

/// A chase position as the rules file writes it: `W` white, `B` black.
fn chase_as_rules(n: u32, white: u32, black: u32, white_to_move: bool) -> String {
    let rows: Vec<String> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| match r * n + c {
                    i if i == white => 'W',
                    i if i == black => 'B',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    format!("{} {}", rows.join("/"), if white_to_move { 'w' } else { 'b' })
}

/// The chase rules file, analysed, gives every position of a 4×4 board the value the
/// built-in chase gives it, and every move the same value; the analyzer keeps one
/// retrograde solve for all of them.
#[test]
fn a_rules_game_is_analysed_like_the_built_in_game() {
    let by_rules = Analyzer::with_rules(Limits::default(), rules_file("chase"));
    let built_in = Analyzer::new(Limits::default());
    let n = 4;
    let mut compared = 0;
    for white in 0..n * n {
        for black in 0..n * n {
            if white == black {
                continue;
            }
            for white_to_move in [true, false] {
                let text = format!(
                    "{},{} {},{} {}",
                    white / n + 1,
                    white % n + 1,
                    black / n + 1,
                    black % n + 1,
                    if white_to_move { 'w' } else { 'b' }
                );
                let want = built_in.analyze(&Setup::new(GameKind::Chase, text).with("size", "4")).unwrap();
                let got = by_rules
                    .analyze(&Setup::new(GameKind::Rules, chase_as_rules(n, white, black, white_to_move)))
                    .unwrap();
                assert_eq!(got.value, want.value, "{}", got.setup.position);
                assert_eq!(got.to_move, want.to_move);
                assert_eq!(got.solver, "retrograde");
                let values = |a: &Analysis| {
                    let mut v: Vec<(u32, u32, u32, u32, Value)> =
                        a.moves.iter().map(|m| (m.from.row, m.from.col, m.to.row, m.to.col, m.value)).collect();
                    v.sort();
                    v
                };
                assert_eq!(values(&got), values(&want), "{}", got.setup.position);
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 480);
    // Moves, deltas and children agree along random games, captures included.
    let start = by_rules.start(GameKind::Rules, &[]).unwrap();
    assert_eq!(start.position, "W.../..../..../...B w");
    assert!(walk(&by_rules, &start, 3, 7) > 10);
}

/// A game that cannot repeat a position (Breakthrough) is searched; its values
/// along random games are consistent move by move, and the start of 4×4 is the
/// published loss in 14 for the first player.
#[test]
fn an_acyclic_rules_game_is_searched() {
    let analyzer = Analyzer::with_rules(Limits::default(), rules_file("breakthrough"));
    let start = analyzer.start(GameKind::Rules, &[("rows".into(), "4".into()), ("cols".into(), "4".into())]).unwrap();
    assert_eq!(start.position, "BBBB/BBBB/WWWW/WWWW w");
    let analysis = analyzer.analyze(&start).unwrap();
    assert_eq!((analysis.value, analysis.solver, analysis.to_move), (Value::Loss(14), "alpha-beta", "white"));
    assert_eq!(analysis.board.cells, ["BBBB", "BBBB", "WWWW", "WWWW"]);
    let small = Setup::new(GameKind::Rules, "BBB/.../WWW w");
    assert!(walk(&analyzer, &small, 4, 11) > 10);
    // The pieces and sides, as the front ends show them.
    assert_eq!(analyzer.sides(GameKind::Rules), ["white", "black"]);
    assert_eq!(analyzer.title(GameKind::Rules), "Breakthrough");
    assert_eq!(analyzer.piece_side(GameKind::Rules, 'B'), Some(1));
    assert_eq!(analyzer.piece_side(GameKind::Rules, '.'), None);
    assert_eq!(analyzer.games().last(), Some(&GameKind::Rules));
}

/// Rules setups without rules, with variant parameters, with a bad position or a
/// board the rules refuse: each a clear error.
#[test]
fn rules_setups_are_checked() {
    let none = Analyzer::new(Limits::default());
    let e = none.analyze(&Setup::new(GameKind::Rules, "W../..B w")).unwrap_err();
    // A library error names no flag: each front end says how to give rules.
    assert!(matches!(&e, AnalysisError::NoRules), "{e}");
    assert!(!none.games().contains(&GameKind::Rules));
    let analyzer = Analyzer::with_rules(Limits::default(), rules_file("chase"));
    let e = analyzer.analyze(&Setup::new(GameKind::Rules, "W../..B w").with("size", "3")).unwrap_err();
    assert!(matches!(&e, AnalysisError::BadVariant(m) if m.contains("size")), "{e}");
    let e = analyzer.analyze(&Setup::new(GameKind::Rules, "W.x/..B w")).unwrap_err();
    assert!(matches!(&e, AnalysisError::BadPosition { message, .. } if message.contains("column")), "{e}");
    let e = analyzer.analyze(&Setup::new(GameKind::Rules, "")).unwrap_err();
    assert!(matches!(e, AnalysisError::BadPosition { .. }), "{e}");
    let e = analyzer.start(GameKind::Rules, &[("rows".into(), "3".into())]).unwrap_err();
    assert!(matches!(&e, AnalysisError::BadVariant(m) if m.contains("together")), "{e}");
    // Beyond the limits: refused before solving.
    let tight = Analyzer::with_rules(Limits { max_positions: 200, ..Limits::default() }, rules_file("chase"));
    let e = tight.analyze(&Setup::new(GameKind::Rules, "W.../..../..../...B w")).unwrap_err();
    assert!(matches!(&e, AnalysisError::TooLarge(m) if m.contains("positions")), "{e}");
    assert!(tight.check(&Setup::new(GameKind::Rules, "W../.../..B w")).is_ok());
}

/// A tablebase of a rules game answers as the solve does, needs no rules file (it
/// stores the rules), and refuses positions with more pieces than it holds.
#[test]
fn a_rules_tablebase_answers_like_the_solver() {
    let dir = std::env::temp_dir().join(format!("gsolve-analysis-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("chase-3x3.gtb");
    let set = gsolve_rules::setup(rules_file("chase"), None, None, Some("W../.../..B w")).unwrap();
    let options = gsolve_tablebase::tiers::BuildOptions { memory: None, write: WriteOptions::default() };
    gsolve_tablebase::tiers::build(&set.game, &path, &dir.join("work"), &options, None).unwrap();
    let from_file = Analyzer::with_tablebase(Limits::default(), &path).unwrap();
    let solving = Analyzer::with_rules(Limits::default(), rules_file("chase"));
    assert_eq!(from_file.games().last(), Some(&GameKind::Rules));
    let start = from_file.example(GameKind::Rules).unwrap();
    assert_eq!(start.position, "W../.../..B w", "the rules' start on the file's board");
    let mut compared = 0;
    for white in 0..9 {
        for black in (0..9).filter(|&b| b != white) {
            for side in [true, false] {
                let setup = Setup::new(GameKind::Rules, chase_as_rules(3, white, black, side));
                let (a, b) = (from_file.analyze(&setup).unwrap(), solving.analyze(&setup).unwrap());
                assert_eq!(a.solver, "tablebase");
                assert_eq!((a.value, &a.moves, &a.board, &a.end), (b.value, &b.moves, &b.board, &b.end));
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 144);
    let e = from_file.analyze(&Setup::new(GameKind::Rules, "WW./.../..B w")).unwrap_err();
    assert!(e.to_string().contains("more than the 1 this game's index covers"), "{e}");
    let e = from_file.analyze(&GameKind::Pawns.example()).unwrap_err();
    assert!(matches!(e, AnalysisError::Tablebase(_)), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A listing has the analysis's moves and positions (in the game's order, not
/// best first), solves nothing (a board too big to solve lists its moves), and
/// says how a finished game ended.
#[test]
fn listings_match_analyses_without_solving() {
    let analyzer = Analyzer::new(Limits::interactive());
    let setups = [
        Setup::new(GameKind::Pawns, "ppp/.../PPP w"),
        GameKind::Chase.example(),
        GameKind::QueensCase.example(),
        Setup::new(GameKind::Snakes, "1a./.#./..2 1"),
    ];
    for setup in setups {
        let listing = analyzer.list(&setup).unwrap();
        let analysis = analyzer.analyze(&setup).unwrap();
        assert_eq!(
            (listing.setup.position.as_str(), listing.to_move),
            (analysis.setup.position.as_str(), analysis.to_move)
        );
        assert_eq!(listing.over, None);
        let mut listed: Vec<(String, String)> =
            listing.moves.iter().map(|m| (m.label.clone(), m.position.clone())).collect();
        let mut analysed: Vec<(String, String)> =
            analysis.moves.iter().map(|m| (m.label.clone(), m.position.clone())).collect();
        listed.sort();
        analysed.sort();
        assert_eq!(listed, analysed, "{setup:?}");
    }
    // 8x8 pawns: far beyond the interactive limits, listed all the same.
    let big = analyzer.list(&Setup::new(
        GameKind::Pawns,
        "pppppppp/......../......../......../......../......../......../PPPPPPPP w",
    ));
    assert_eq!(big.unwrap().moves.len(), 8);
    // White has reached the last row: black to move has lost.
    let over = analyzer.list(&Setup::new(GameKind::Pawns, "P.p/.../... b")).unwrap();
    assert_eq!((over.over, over.moves.len()), (Some(Value::Loss(0)), 0));
    assert!(over.end.is_some());
    // Setups are checked as for an analysis.
    assert!(matches!(
        analyzer.list(&Setup::new(GameKind::Pawns, "ppx/.../PPP w")),
        Err(AnalysisError::BadPosition { .. })
    ));
}
