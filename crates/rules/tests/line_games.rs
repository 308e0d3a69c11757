//! Line games (every move drops a piece, lines and a full board end the game) are
//! answered by their own bit-set search (`SearchHooks::solve_outright`); it must
//! give the value of the engine's whole-game retrograde solve on every position of
//! random rules files of that shape: with and without gravity, lines of every
//! length and direction, every result of a full board, boards of every shape up to
//! 12 cells. Files of other shapes are left to the engine.
mod common;

use common::{load, rules_value};
use gsolve_engine::search::SearchHooks;
use gsolve_engine::{retrograde, Game, Indexed};
use gsolve_games::notation::PlainNotation;
use gsolve_games::rng::SplitMix64;
use gsolve_rules::book::{LinesOfPlay, Opponent};
use gsolve_rules::{setup, Rules};
use std::sync::Arc;

/// A rules file of the line shape: `rows` × `cols`, gravity or not, the lines
/// given as (length, directions), and a full board's result (none: being stuck
/// loses, the default).
fn line_rules(rows: u32, cols: u32, gravity: bool, lines: &[(u32, &str)], full: Option<&str>) -> String {
    let drop = if gravity { "{ gravity = true }" } else { "true" };
    let mut text = format!(
        "[game]\nname = \"random-lines\"\nsides = [\"a\", \"b\"]\n\n[board]\nrows = {rows}\ncols = {cols}\n\n\
         [piece.stone]\nletter = {{ a = \"A\", b = \"B\" }}\ndrop = {drop}\n"
    );
    for (length, directions) in lines {
        text += &format!(
            "\n[[end]]\nwhen = \"line\"\nlength = {length}\ndirections = \"{directions}\"\nresult = \"win\"\n"
        );
    }
    if let Some(result) = full {
        text += &format!("\n[[end]]\nwhen = \"full\"\nresult = \"{result}\"\n");
    }
    text + "\n[start]\nto-move = \"a\"\n"
}

/// A random rules file of the line shape, with its number of cells: `smallest`
/// to 4 rows, `smallest` to 5 columns, `fewest` to 12 cells; one line of 2 to 4 in
/// some directions; each result of a full board, or none.
fn random_line_rules(rng: &mut SplitMix64, gravity: bool, smallest: u32, fewest: u32) -> (String, u64) {
    let directions = ["all", "orthogonal", "diagonal"];
    let fulls = [Some("tie"), Some("win"), Some("loss"), None];
    let (rows, cols) = loop {
        let (r, c) =
            (smallest + rng.below(5 - smallest as u64) as u32, smallest + rng.below(6 - smallest as u64) as u32);
        if r * c >= fewest && r * c <= 12 {
            break (r, c);
        }
    };
    let lines = [(2 + rng.below(3) as u32, directions[rng.below(3) as usize])];
    (line_rules(rows, cols, gravity, &lines, fulls[rng.below(4) as usize]), (rows * cols) as u64)
}

/// Every position of the game's index that the bit-set search takes, against the
/// engine's retrograde solve; returns how many were compared (`None`: a line that
/// never fits on the board, which the rules refuse).
fn compare(text: &str) -> Option<usize> {
    let rules = Arc::new(Rules::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}")));
    let s = match setup(rules, None, None, None) {
        Ok(s) => s,
        Err(e) if e.to_string().contains("never fits") => return None,
        Err(e) => panic!("{e}\n{text}"),
    };
    let game = &s.game;
    let solution = retrograde::solve(game);
    let mut compared = 0;
    for index in 0..game.index_size() {
        let Some(p) = game.position(index) else { continue };
        if game.terminal(&p).is_some() {
            continue;
        }
        let Some(fast) = game.solve_outright(&p, None, None) else { continue };
        let fast = fast.expect("no budget, no failure");
        assert_eq!(fast, rules_value(game, &solution, &p), "{}\n{text}", game.format_position(&p));
        compared += 1;
    }
    Some(compared)
}

#[test]
fn random_line_games_equal_the_engine_on_every_position() {
    let mut rng = SplitMix64::new(0x11e5);
    let directions = ["all", "orthogonal", "diagonal"];
    let fulls = [Some("tie"), Some("win"), Some("loss"), None];
    let (mut total, mut games) = (0, 0);
    for case in 0..80 {
        let (rows, cols) = loop {
            let (r, c) = (1 + rng.below(4) as u32, 1 + rng.below(5) as u32);
            if r * c >= 3 && r * c <= 12 {
                break (r, c);
            }
        };
        let gravity = case % 2 == 0;
        let mut lines = vec![(2 + rng.below(3) as u32, directions[rng.below(3) as usize])];
        if rng.below(4) == 0 {
            lines.push((2 + rng.below(3) as u32, directions[rng.below(3) as usize]));
        }
        let full = fulls[rng.below(4) as usize];
        let text = line_rules(rows, cols, gravity, &lines, full);
        let Some(compared) = compare(&text) else { continue };
        assert!(compared > 0, "no position compared:\n{text}");
        total += compared;
        games += 1;
    }
    assert!(games >= 40 && total > 50_000, "{games} games, {total} positions");
}

/// The bundled files of the shape take the bit-set search; a line that loses
/// (misère) is left to the engine, and games whose pieces step forward to the
/// step games' bit-set core (module `bits`).
#[test]
fn the_shape_is_found_from_the_rules() {
    for (file, fast) in [
        ("connect-4", true),
        ("tic-tac-toe", true),
        ("misere-tic-tac-toe", false),
        ("breakthrough", false),
        ("pawns", false),
    ] {
        let s = setup(load(file), Some((4, 4)), None, None).unwrap();
        let step_game = matches!(file, "breakthrough" | "pawns");
        assert_eq!(s.game.has_bit_core(), step_game, "{file}");
        assert_eq!(s.game.solve_outright(&s.position, None, None).is_some(), fast || step_game, "{file}");
        assert_eq!(s.game.is_line_game(), fast, "{file}");
        assert_eq!(s.game.describe().contains("a line game"), fast, "{file}");
    }
}

/// The published values of Connect 4 starts hold on boards the engine's search
/// takes minutes for (John Tromp's table: width 7, height 4; width 8, height 4 is
/// a second-player win on the last move).
#[test]
fn connect_4_starts_of_the_published_table() {
    let rules = load("connect-4");
    for (rows, cols, want) in [(4, 7, gsolve_engine::Value::Tie(28)), (5, 6, gsolve_engine::Value::Tie(30))] {
        let s = setup(rules.clone(), Some((rows, cols)), None, None).unwrap();
        assert_eq!(s.game.solve_outright(&s.position, None, None), Some(Ok(want)), "{cols} wide, {rows} high");
    }
}

/// A search past its budget gives up (the server's limit), and the same game
/// answers with a budget large enough; the searcher says so as for any game.
#[test]
fn a_budget_stops_the_search() {
    use gsolve_engine::search::{SearchError, Searcher};
    let s = setup(load("connect-4"), Some((5, 5)), None, None).unwrap();
    let searcher = Searcher::new(&s.game);
    searcher.set_node_limit(Some(1000));
    assert_eq!(searcher.value(&s.position), Err(SearchError::OutOfBudget { limit: 1000 }));
    searcher.set_node_limit(Some(100_000_000));
    assert_eq!(searcher.value(&s.position), Ok(gsolve_engine::Value::Tie(25)));
}

/// Boards of every shape the layout takes, up to 64 bits (one row to 20, up to 16
/// columns), lines of 2 to 8, positions from random games: the search answers or
/// gives up at its budget, never fails otherwise; where it answers, its value is
/// the best of its children's one ply up (each child over by the rules, or
/// searched too).
#[test]
fn every_shape_up_to_64_bits_is_searched_within_a_budget() {
    use gsolve_engine::search::SearchError;
    let mut rng = SplitMix64::new(0x64b1);
    let directions = ["all", "orthogonal", "diagonal"];
    let mut answered = 0;
    for case in 0..120 {
        let cols = 1 + rng.below(16) as u32;
        let rows = 1 + rng.below((64 / cols - 1).clamp(1, 20) as u64) as u32;
        let length = 2 + rng.below(7) as u32;
        let gravity = case % 2 == 0;
        if !gravity && rows * cols > 32 {
            continue;
        }
        let text = line_rules(rows, cols, gravity, &[(length, directions[rng.below(3) as usize])], Some("tie"));
        let rules = Arc::new(Rules::parse(&text).unwrap());
        let Ok(s) = setup(rules, None, None, None) else { continue };
        let game = &s.game;
        assert!(game.is_line_game(), "{text}");
        // A random game from the empty board, to a random depth.
        let mut p = s.position;
        let plies = rng.below(u64::from(rows * cols) + 1);
        for _ in 0..plies {
            if game.terminal(&p).is_some() {
                break;
            }
            let mut children = Vec::new();
            game.for_each_child(&p, |c| children.push(c));
            p = children[rng.below(children.len() as u64) as usize];
        }
        if game.terminal(&p).is_some() {
            continue;
        }
        match game.solve_outright(&p, Some(20_000), None) {
            Some(Ok(value)) => {
                // A value is a parent's view of its children's.
                let mut best = None;
                game.for_each_child(&p, |c| {
                    let child = match game.terminal(&c) {
                        Some(o) => o.value(),
                        None => game.solve_outright(&c, None, None).unwrap().unwrap(),
                    };
                    best = best.max(Some(child.parent_view()));
                });
                assert_eq!(Some(value), best, "{}\n{text}", game.format_position(&p));
                answered += 1;
            }
            Some(Err(SearchError::OutOfBudget { limit: 20_000 })) => {}
            other => panic!("{other:?}: {}\n{text}", game.format_position(&p)),
        }
    }
    assert!(answered > 30, "{answered}");
}

/// The engine's own line check (every rules game with lines): a direction whose
/// run spans the whole padded grid has no line; its shifts of 64 bits or more
/// once wrapped around the word (a panic in debug builds, in release builds a
/// line seen in any single piece). Two rows of 20: lines of 4 fit along the rows
/// only, and a diagonal's run spans 66 bits.
#[test]
fn a_line_longer_than_the_grid_is_never_seen() {
    let text = line_rules(2, 20, false, &[(4, "all")], Some("tie"));
    let rules = Arc::new(Rules::parse(&text).unwrap());
    // Four pieces a side, none three in a row: enough pieces for the check to shift.
    let row = |letter: char, first: usize| -> String {
        (0..20)
            .map(|c| if c >= first && c < first + 8 && (c - first).is_multiple_of(2) { letter } else { '.' })
            .collect()
    };
    let position = format!("{}/{} a", row('A', 0), row('B', 1));
    let s = setup(rules, None, None, Some(&position)).unwrap();
    assert_eq!(s.game.terminal(&s.position), None);
}

/// An opening book holds each position within its plies of the start that play
/// has not ended, one a mirror pair, each with the engine's value; a game given
/// the book answers as without it; a book of another board or other rules is
/// refused.
#[test]
fn opening_books_hold_the_engine_values_of_every_position_near_the_start() {
    use std::collections::HashSet;
    let mut rng = SplitMix64::new(0xb00c);
    let (mut books, mut checked) = (0, 0);
    for case in 0..40 {
        let (text, cells) = random_line_rules(&mut rng, case % 2 == 0, 1, 3);
        let rules = Arc::new(Rules::parse(&text).unwrap());
        let Ok(s) = setup(rules, None, None, None) else { continue };
        let (game, start) = (&s.game, &s.position);
        let plies = rng.below(cells) as u32;
        let book = Arc::new(
            game.build_book(start, plies, LinesOfPlay::default(), None).unwrap_or_else(|e| panic!("{e}\n{text}")),
        );
        let solution = retrograde::solve(game);
        // Breadth first by the engine's moves, independently of the book's own walk.
        let mut ply = vec![*start];
        let mut keys = HashSet::new();
        for depth in 0..=plies {
            let mut next = Vec::new();
            for p in &ply {
                if game.terminal(p).is_some() {
                    continue;
                }
                let key = game.book_key(p).expect("a line game's position");
                assert_eq!(
                    book.get(key),
                    Some(rules_value(game, &solution, p)),
                    "ply {depth}: {}\n{text}",
                    game.format_position(p)
                );
                keys.insert(key);
                checked += 1;
                if depth < plies {
                    let mut moves = Vec::new();
                    game.moves(p, &mut moves);
                    next.extend(moves.iter().map(|m| game.play(p, m)));
                }
            }
            next.sort();
            next.dedup();
            ply = next;
        }
        assert_eq!(book.len(), keys.len(), "{plies} plies\n{text}");
        let booked = game.clone().with_book(book.clone()).unwrap();
        assert_eq!(
            booked.solve_outright(start, None, None).map(Result::unwrap),
            Some(rules_value(game, &solution, start))
        );
        books += 1;
    }
    assert!(books >= 30 && checked > 2_000, "{books} books, {checked} positions");

    let connect4 = load("connect-4");
    let small = setup(connect4.clone(), Some((4, 4)), None, None).unwrap();
    let book = Arc::new(small.game.build_book(&small.position, 2, LinesOfPlay::default(), None).unwrap());
    let other_board = setup(connect4, Some((4, 5)), None, None).unwrap();
    assert!(other_board.game.with_book(book.clone()).unwrap_err().to_string().contains("4 rows × 4 cols"));
    let tic_tac_toe = setup(load("tic-tac-toe"), None, None, None).unwrap();
    assert!(tic_tac_toe.game.with_book(book).is_err());
    let pawns = setup(load("pawns"), None, None, None).unwrap();
    assert!(pawns
        .game
        .build_book(&pawns.position, 2, LinesOfPlay::default(), None)
        .unwrap_err()
        .to_string()
        .contains("line game"));
}

/// A book with lines of play holds, with the engine's value, every position that
/// a game against perfect play analyses before its ply (`play`'s choice at the
/// computer's turns: the first of `line::move_values`, as the analyzer lists
/// them; every move at its opponent's, or every best move against a perfect
/// opponent, the computer on either side) and every move's position from it; and
/// within its plies every position, as before.
/// Found by a walk of the engine's retrograde values, not the book's.
#[test]
fn opening_books_hold_every_position_of_the_lines_of_play() {
    use gsolve_engine::line;
    use std::collections::HashSet;
    let mut rng = SplitMix64::new(0x91a7);
    let (mut books, mut checked, mut beyond, mut perfect_branches) = (0, 0, 0, 0);
    for case in 0..30 {
        let (text, cells) = random_line_rules(&mut rng, case % 2 == 0, 2, 6);
        let rules = Arc::new(Rules::parse(&text).unwrap());
        let Ok(s) = setup(rules, None, None, None) else { continue };
        let (game, start) = (&s.game, &s.position);
        let plies = rng.below(3) as u32;
        let play = plies + 1 + rng.below(cells) as u32;
        let opponent = if case % 3 == 2 { Opponent::Perfect } else { Opponent::Any };
        let book = game
            .build_book(start, plies, LinesOfPlay::new(play, opponent), None)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let solution = retrograde::solve(game);
        let value = |p: &_| rules_value(game, &solution, p);
        let lookup = |p: &_| book.get(game.book_key(p).expect("a line game's position"));
        let mut expected = HashSet::new();
        for computer in [0, 1] {
            let mut stack = vec![(*start, 0)];
            while let Some((p, ply)) = stack.pop() {
                if ply >= play || game.terminal(&p).is_some() {
                    continue;
                }
                assert_eq!(lookup(&p), Some(value(&p)), "ply {ply}: {}\n{text}", game.format_position(&p));
                expected.insert(game.book_key(&p).unwrap());
                let moves = line::move_values(game, &solution, &p);
                for m in &moves {
                    if game.terminal(&m.child).is_none() {
                        assert_eq!(
                            lookup(&m.child),
                            Some(value(&m.child)),
                            "{}\n{text}",
                            game.format_position(&m.child)
                        );
                        expected.insert(game.book_key(&m.child).unwrap());
                        checked += 1;
                    }
                }
                let next = if p.to_move() == computer {
                    &moves[..moves.len().min(1)]
                } else if opponent == Opponent::Perfect {
                    let best = moves.iter().take_while(|m| m.value == moves[0].value).count();
                    perfect_branches += best - 1;
                    &moves[..best]
                } else {
                    &moves[..]
                };
                stack.extend(next.iter().map(|m| (m.child, ply + 1)));
            }
        }
        // Nothing else but the positions within its plies.
        let every = game.build_book(start, plies, LinesOfPlay::default(), None).unwrap();
        expected.extend(every.entries().map(|(key, _)| key));
        beyond += book.len() - every.len();
        assert_eq!(book.len(), expected.len(), "{plies} plies, play {play}\n{text}");
        books += 1;
    }
    assert!(
        books >= 20 && checked > 500 && beyond > 100 && perfect_branches > 10,
        "{books} books, {checked} moves, {beyond} beyond the plies, {perfect_branches} more best moves than one"
    );
}
