//! The four seed games as rules files (examples/rules/) against the built-in games:
//! the same value and remoteness on every position of small boards, and on random
//! positions of bigger ones.

mod common;

use common::{load, rules_value};
use gsolve_engine::search::{self, SearchHooks};
use gsolve_engine::{check, retrograde, tiered, Game, Indexed, Tiered, Value};
use gsolve_games::chase::{Chase, ChasePosition};
use gsolve_games::notation::PlainNotation;
use gsolve_games::pawns::Pawns;
use gsolve_games::queens_case::{self, Cell, QueensCase};
use gsolve_games::rng::SplitMix64;
use gsolve_games::snakes::{parse_plain, Snakes};
use gsolve_rules::setup;

fn grid_text(rows: &[Vec<char>], side: char) -> String {
    let rows: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    format!("{} {side}", rows.join("/"))
}

// --- chase -----------------------------------------------------------------------

fn chase_text(n: u32, white: u32, black: u32, white_to_move: bool) -> String {
    let mut rows = vec![vec!['.'; n as usize]; n as usize];
    rows[(white / n) as usize][(white % n) as usize] = 'W';
    rows[(black / n) as usize][(black % n) as usize] = 'B';
    grid_text(&rows, if white_to_move { 'w' } else { 'b' })
}

fn compare_chase(n: u32, positions: impl Iterator<Item = (u32, u32, bool)>) -> usize {
    let built_in = Chase::new(n);
    let expected = retrograde::solve(&built_in);
    let game = setup(load("chase"), None, None, Some(&chase_text(n, 0, 1, true))).unwrap().game;
    let solution = retrograde::solve(&game);
    let mut compared = 0;
    for (white, black, white_to_move) in positions {
        let p = ChasePosition { white, black, white_to_move };
        let want = match built_in.terminal(&p) {
            Some(o) => o.value(),
            None => expected.value(built_in.index(&p)).unwrap(),
        };
        let text = chase_text(n, white, black, white_to_move);
        let q = game.parse_position(&text).unwrap();
        assert_eq!(rules_value(&game, &solution, &q), want, "chase {n}: {text}");
        compared += 1;
    }
    compared
}

#[test]
fn chase_on_every_position_of_boards_up_to_six() {
    for n in 2..=6u32 {
        let cells = n * n;
        let all = (0..cells)
            .flat_map(move |w| (0..cells).filter(move |&b| b != w).flat_map(move |b| [(w, b, true), (w, b, false)]));
        assert_eq!(compare_chase(n, all), (2 * cells * (cells - 1)) as usize);
    }
}

#[test]
fn chase_on_random_positions_of_the_contest_board() {
    let mut rng = SplitMix64::new(20);
    let n = 20u32;
    let positions: Vec<(u32, u32, bool)> = (0..3000)
        .map(|_| {
            let w = rng.below((n * n) as u64) as u32;
            let mut b = rng.below((n * n) as u64) as u32;
            if b == w {
                b = (b + 1) % (n * n);
            }
            (w, b, rng.chance(1, 2))
        })
        .collect();
    assert_eq!(compare_chase(n, positions.into_iter()), 3000);
}

#[test]
fn chase_unmoves_match_moves() {
    let game = setup(load("chase"), None, None, Some(&chase_text(4, 0, 1, true))).unwrap().game;
    check::unmoves_match_moves(&game).unwrap();
}

// --- Queen's Case ----------------------------------------------------------------

fn map_rows(map: &queens_case::Map) -> Vec<Vec<char>> {
    (0..map.height())
        .map(|r| {
            (0..map.width())
                .map(|c| match map.cell(r, c) {
                    Cell::Wall => '#',
                    Cell::Exit => 'E',
                    _ => '.',
                })
                .collect()
        })
        .collect()
}

/// Every (queen, army, side) on the map's open cells, both solvers.
fn compare_queens_case(map: &queens_case::Map, sample: Option<(usize, &mut SplitMix64)>) -> usize {
    let built_in = QueensCase::new(map);
    let expected = retrograde::solve(&built_in);
    let rows = map_rows(map);
    let open: Vec<(usize, usize)> = (0..rows.len())
        .flat_map(|r| (0..rows[0].len()).map(move |c| (r, c)))
        .filter(|&(r, c)| rows[r][c] != '#')
        .collect();
    let text_of = |q: (usize, usize), a: (usize, usize), queen: bool| {
        let mut grid = rows.clone();
        grid[q.0][q.1] = 'Q';
        grid[a.0][a.1] = 'A';
        grid_text(&grid, if queen { 'q' } else { 'a' })
    };
    let rules = load("queens-case");
    let map_text: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let game_map = gsolve_rules::map_from_line(&rules, &map_text.join("/")).unwrap();
    let game = setup(rules, None, Some(game_map), Some(&text_of(open[0], open[1], true))).unwrap().game;
    let solution = retrograde::solve(&game);
    type Cell2 = (usize, usize);
    let mut pairs: Vec<(Cell2, Cell2, bool)> = Vec::new();
    for &q in &open {
        for &a in &open {
            if q != a {
                pairs.push((q, a, true));
                pairs.push((q, a, false));
            }
        }
    }
    if let Some((count, rng)) = sample {
        pairs = (0..count).map(|_| pairs[rng.below(pairs.len() as u64) as usize]).collect();
    }
    for &(q, a, queen) in &pairs {
        let text = text_of(q, a, queen);
        let want_position = built_in.parse_position(&format!(
            "{},{} {},{} {}",
            q.0 + 1,
            q.1 + 1,
            a.0 + 1,
            a.1 + 1,
            if queen { 'q' } else { 'a' }
        ));
        let want_position = want_position.unwrap();
        let want = match built_in.terminal(&want_position) {
            Some(o) => o.value(),
            None => expected.value(built_in.index(&want_position)).unwrap(),
        };
        let p = game.parse_position(&text).unwrap();
        assert_eq!(rules_value(&game, &solution, &p), want, "Queen's Case {text}");
    }
    pairs.len()
}

#[test]
fn queens_case_on_every_position_of_small_random_maps() {
    let mut compared = 0;
    for seed in 0..40u64 {
        let (w, h) = (2 + (seed % 4) as u32, 2 + (seed / 4 % 4) as u32);
        let map = queens_case::generate::random_map(w, h, 20, 1 + (seed % 2) as u32, seed);
        compared += compare_queens_case(&map, None);
    }
    assert!(compared > 5000, "{compared}");
}

#[test]
fn queens_case_on_random_positions_of_bigger_maps_and_mazes() {
    let mut rng = SplitMix64::new(7);
    for seed in 0..4u64 {
        let map = queens_case::generate::random_map(12, 10, 25, 2, seed);
        compare_queens_case(&map, Some((500, &mut rng)));
        let maze = queens_case::generate::maze(11, 9, 2, seed);
        compare_queens_case(&maze, Some((500, &mut rng)));
    }
}

#[test]
fn queens_case_unmoves_match_moves() {
    let game = setup(load("queens-case"), None, None, Some("Q.E/.#./E.A q")).unwrap().game;
    check::unmoves_match_moves(&game).unwrap();
}

// --- pawns -----------------------------------------------------------------------

/// Every position of the rules index (up to `cols` pawns a side), the tiered
/// built-in solve against the rules game's whole-game retrograde and its tiered
/// solve (tiers swept by progress: pawns only go forward).
fn compare_pawns(rows: u32, cols: u32) -> usize {
    let built_in = Pawns::new(rows, cols);
    let expected = tiered::solve_all(&built_in);
    let game = setup(load("pawns"), Some((rows, cols)), None, None).unwrap().game;
    let solution = retrograde::solve(&game);
    let tiers = tiered::solve_all(&game);
    assert!(Tiered::tiers(&game).iter().all(|&t| game.progress_bound(t).is_some()), "pawns have a progress measure");
    // Every position with up to `cols` pawns a side, none on its goal row, is one
    // index exactly: counted by brute force over the cells' contents.
    let cells = (rows * cols) as usize;
    let mut expected_positions = 0u64;
    for assignment in 0..3u64.pow(cells as u32) {
        let (mut code, mut white, mut black, mut ok) = (assignment, 0, 0, true);
        for cell in 0..cells {
            let row = cell as u32 / cols;
            match code % 3 {
                1 => {
                    white += 1;
                    ok &= row != 0;
                }
                2 => {
                    black += 1;
                    ok &= row != rows - 1;
                }
                _ => {}
            }
            code /= 3;
        }
        if ok && white <= cols && black <= cols {
            expected_positions += 2;
        }
    }
    let positions = (0..game.index_size()).filter(|&i| game.position(i).is_some()).count() as u64;
    assert_eq!(positions, expected_positions, "pawns {rows}x{cols}: positions in the index");
    let mut compared = 0;
    for i in 0..game.index_size() {
        // Holes: a white and a black pawn on one cell (the index ranks each side's
        // pawns among the cells off its goal row, on its own).
        let Some(p) = game.position(i) else { continue };
        let text = game.format_position(&p);
        let q = built_in.parse_position(&text).unwrap();
        let want = match built_in.terminal(&q) {
            Some(o) => o.value(),
            None => {
                let (tier, index) = built_in.locate(&q).unwrap();
                expected.get(tier).unwrap().value(index).unwrap()
            }
        };
        assert_eq!(rules_value(&game, &solution, &p), want, "pawns {rows}x{cols}: {text}");
        let by_tiers = match game.terminal(&p) {
            Some(o) => o.value(),
            None => {
                let (tier, index) = Tiered::locate(&game, &p).unwrap();
                tiers.get(tier).unwrap().value(index).unwrap()
            }
        };
        assert_eq!(by_tiers, want, "pawns {rows}x{cols} by tiers: {text}");
        compared += 1;
    }
    compared
}

#[test]
fn pawns_on_every_position_of_small_boards() {
    for (rows, cols) in [(2, 2), (3, 2), (2, 3), (3, 3), (4, 3), (3, 4), (4, 4)] {
        let n = compare_pawns(rows, cols);
        assert!(n > 0);
    }
}

#[test]
fn pawns_known_results() {
    let value = |rows, cols| {
        let s = setup(load("pawns"), Some((rows, cols)), None, None).unwrap();
        let solution = retrograde::solve(&s.game);
        solution.value(s.game.index(&s.position)).unwrap()
    };
    assert_eq!(value(3, 3), Value::Loss(6), "Hexapawn: black wins in 6");
    assert_eq!(value(4, 4), Value::Win(11), "Octapawn: white wins in 11");
}

#[test]
fn pawns_unmoves_match_moves() {
    let game = setup(load("pawns"), Some((3, 3)), None, None).unwrap().game;
    check::unmoves_match_moves(&game).unwrap();
}

// --- snakes ----------------------------------------------------------------------

fn snakes_value<G: SearchHooks>(game: &G, p: &G::Position) -> Value {
    search::solve(game, p).unwrap().0
}

/// A random board: obstacles, the two heads, the snake to move.
fn random_snakes_text(rng: &mut SplitMix64, rows: usize, cols: usize, wall_pct: u64) -> String {
    let mut grid = vec![vec!['.'; cols]; rows];
    for cell in grid.iter_mut().flatten() {
        if rng.chance(wall_pct, 100) {
            *cell = '#';
        }
    }
    let (h1, mut h2) = (rng.below((rows * cols) as u64) as usize, rng.below((rows * cols) as u64) as usize);
    if h2 == h1 {
        h2 = (h1 + 1) % (rows * cols);
    }
    grid[h1 / cols][h1 % cols] = '1';
    grid[h2 / cols][h2 % cols] = '2';
    grid_text(&grid, if rng.chance(1, 2) { '1' } else { '2' })
}

fn compare_snakes(text: &str) {
    let (board, to_move) = parse_plain(text).unwrap();
    let built_in = Snakes::<u128>::new(&board);
    let mut start = built_in.start();
    start.to_move = to_move;
    let want = snakes_value(&built_in, &start);
    let s = setup(load("snakes"), None, None, Some(text)).unwrap();
    assert_eq!(snakes_value(&s.game, &s.position), want, "snakes {text}");
}

#[test]
fn snakes_on_every_position_of_a_three_by_three_board() {
    // Every set of walls and every pair of heads on 3×3, either snake to move.
    let mut compared = 0;
    for walls in 0u32..1 << 9 {
        for h1 in 0..9 {
            for h2 in 0..9 {
                if h1 == h2 || walls >> h1 & 1 == 1 || walls >> h2 & 1 == 1 {
                    continue;
                }
                for side in ['1', '2'] {
                    let mut grid = vec![vec!['.'; 3]; 3];
                    for cell in 0..9 {
                        if walls >> cell & 1 == 1 {
                            grid[cell / 3][cell % 3] = '#';
                        }
                    }
                    grid[h1 / 3][h1 % 3] = '1';
                    grid[h2 / 3][h2 % 3] = '2';
                    compare_snakes(&grid_text(&grid, side));
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}

#[test]
fn snakes_on_random_boards() {
    let mut rng = SplitMix64::new(4);
    for i in 0..600 {
        let (rows, cols) = (2 + i % 4, 2 + i / 4 % 4);
        compare_snakes(&random_snakes_text(&mut rng, rows, cols, 15));
    }
}

// --- positions of small room -------------------------------------------------------

/// The solvers run on positions with room for few pieces (`compact`); the same
/// game with the full room must give the same values, index by index.
#[test]
fn compact_positions_give_the_same_solutions() {
    use gsolve_rules::{compact, solve_by_bit_rows, solve_retrograde, CompactTask, RulesGame};
    struct Tiers;
    impl CompactTask for Tiers {
        type Output = (usize, tiered::TiersInMemory<u32>);
        fn run<const N: usize>(self, game: &RulesGame<N>) -> Self::Output {
            if game.index_size() < 100_000 {
                check::unmoves_match_moves(game).unwrap();
            }
            (N, tiered::solve_all(game))
        }
    }
    let games = [
        (setup(load("chase"), None, None, Some(&chase_text(5, 0, 1, true))).unwrap().game, 4),
        (setup(load("queens-case"), None, None, Some("Q.E./.#../E..A q")).unwrap().game, 4),
        (setup(load("pawns"), Some((4, 4)), None, None).unwrap().game, 8),
        (setup(load("pawns"), Some((3, 5)), None, None).unwrap().game, 16),
        (setup(load("breakthrough"), Some((4, 2)), None, None).unwrap().game, 8),
    ];
    for (game, room) in games {
        let name = format!("{} {}x{}", game.rules().name, game.board().rows, game.board().cols);
        assert!(game.compact::<1>().is_none(), "{name}: more than one piece");
        let full = retrograde::solve(&game);
        let options = retrograde::Options::default();
        let whole = solve_by_bit_rows(&game, &options).unwrap_or_else(|| solve_retrograde(&game, &options));
        assert_eq!(whole, full, "{name}: whole-game solve");
        let (used, small) = compact(&game, Tiers);
        assert_eq!(used, room, "{name}: the room used");
        let wide = tiered::solve_all(&game);
        for tier in Tiered::tiers(&game) {
            assert_eq!(small.get(tier).unwrap().bytes(), wide.get(tier).unwrap().bytes(), "{name}: tier {tier}");
        }
    }
}
