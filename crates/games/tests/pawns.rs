//! Pawn chess, "pawns" (GAMES.md §3), checked against an independent brute force,
//! across the engine's solvers, and against the facts GAMES.md states; plus the
//! tight index (`PawnIndex`, `Indexed`, `Layered`, `Tiered`) and the text formats.
//!
//! The brute force below shares no code with the game module nor with the engine: it
//! re-implements the rules of GAMES.md §3 on a grid of characters and finds the exact
//! value (winner as fast as possible, loser as slow as possible) by plain recursive
//! minimax, memoized by the board's text.

use gsolve_engine::{layered, memo, tiered, Game, Indexed, Solution, Tiered, Value};
use gsolve_games::notation::PlainNotation;
use gsolve_games::pawns::{parse_boards, parse_position, Pawns, PawnsPosition};
use gsolve_games::rng::SplitMix64;
use gsolve_games::FormatError;
use std::collections::HashMap;
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------
// The brute force.
// ---------------------------------------------------------------------------------

/// A board as rows of characters, row 0 at the top (white's goal): `P`, `p` or `.`.
type Grid = Vec<Vec<char>>;

/// The brute force's answer: who wins, and in how many plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Naive {
    white_wins: bool,
    plies: u32,
}

impl Naive {
    fn verdict(self) -> String {
        format!("{} ({})", if self.white_wins { "white" } else { "black" }, self.plies)
    }
}

/// Every board reachable in one move of the side to move, with whether that move put
/// a pawn on its far rank. White moves up (row - 1), black down (row + 1): one step
/// straight into an empty cell, or one step diagonally onto an enemy pawn.
fn naive_moves(grid: &Grid, white: bool) -> Vec<(Grid, bool)> {
    let rows = grid.len() as i32;
    let cols = grid[0].len() as i32;
    let (me, enemy, dir, far) = if white { ('P', 'p', -1, 0) } else { ('p', 'P', 1, rows - 1) };
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if grid[r as usize][c as usize] != me {
                continue;
            }
            let nr = r + dir;
            if nr < 0 || nr >= rows {
                continue;
            }
            for dc in [-1, 0, 1] {
                let nc = c + dc;
                if nc < 0 || nc >= cols {
                    continue;
                }
                let target = grid[nr as usize][nc as usize];
                let legal = if dc == 0 { target == '.' } else { target == enemy };
                if legal {
                    let mut next = grid.clone();
                    next[r as usize][c as usize] = '.';
                    next[nr as usize][nc as usize] = me;
                    out.push((next, nr == far));
                }
            }
        }
    }
    out
}

/// The exact result of `grid` with `white` to move (no pawn on its goal rank).
fn naive_solve(grid: &Grid, white: bool, memo: &mut HashMap<(String, bool), Naive>) -> Naive {
    let key: String = grid.iter().flat_map(|row| row.iter().chain(std::iter::once(&'/'))).collect();
    if let Some(&n) = memo.get(&(key.clone(), white)) {
        return n;
    }
    // Results of each move, as (the mover wins, plies from here).
    let results: Vec<(bool, u32)> = naive_moves(grid, white)
        .into_iter()
        .map(|(next, reached_far_rank)| {
            if reached_far_rank {
                (true, 1)
            } else {
                let child = naive_solve(&next, !white, memo);
                (child.white_wins == white, child.plies + 1)
            }
        })
        .collect();
    let fastest_win = results.iter().filter(|r| r.0).map(|r| r.1).min();
    let result = match fastest_win {
        Some(plies) => Naive { white_wins: white, plies },
        // No move at all: the side to move loses, its missing move is not a ply.
        None => Naive { white_wins: !white, plies: results.iter().map(|r| r.1).max().unwrap_or(0) },
    };
    memo.insert((key, white), result);
    result
}

/// A random grid: up to `cols` pawns a side, none on its goal rank.
fn random_grid(rng: &mut SplitMix64, rows: usize, cols: usize) -> Grid {
    let mut grid = vec![vec!['.'; cols]; rows];
    for (piece, banned_row) in [('P', 0), ('p', rows - 1)] {
        let count = rng.below(cols as u64 + 1);
        let mut placed = 0;
        while placed < count {
            let (r, c) = (rng.below(rows as u64) as usize, rng.below(cols as u64) as usize);
            if r != banned_row && grid[r][c] == '.' {
                grid[r][c] = piece;
                placed += 1;
            }
        }
    }
    grid
}

/// A board reached by a few random moves from the start (home ranks full, white to
/// move), stopping before any pawn reaches its far rank; the side to move follows.
fn random_walk(rng: &mut SplitMix64, rows: usize, cols: usize) -> (Grid, bool) {
    let mut grid = vec![vec!['.'; cols]; rows];
    grid[0] = vec!['p'; cols];
    grid[rows - 1] = vec!['P'; cols];
    let mut white = true;
    for _ in 0..rng.below(2 * rows as u64) {
        let moves: Vec<Grid> = naive_moves(&grid, white).into_iter().filter(|(_, far)| !far).map(|(g, _)| g).collect();
        if moves.is_empty() {
            break;
        }
        grid = moves[rng.below(moves.len() as u64) as usize].clone();
        white = !white;
    }
    (grid, white)
}

/// The game's position for a grid (bit `row * cols + col`).
fn to_position(grid: &Grid, white_to_move: bool) -> PawnsPosition {
    let cols = grid[0].len();
    let (mut white, mut black) = (0u64, 0u64);
    for (r, row) in grid.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            let bit = 1u64 << (r * cols + c);
            match ch {
                'P' => white |= bit,
                'p' => black |= bit,
                _ => {}
            }
        }
    }
    PawnsPosition { white, black, white_to_move }
}

fn plain(grid: &Grid, white_to_move: bool) -> String {
    let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    format!("{} {}", rows.join("/"), if white_to_move { 'w' } else { 'b' })
}

// ---------------------------------------------------------------------------------
// Shared solutions (each board solved once per test binary).
// ---------------------------------------------------------------------------------

fn layered_solution(rows: u32, cols: u32) -> &'static Solution {
    static CACHE: OnceLock<std::sync::Mutex<HashMap<(u32, u32), &'static Solution>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    // Holding the lock while solving: other tests asking for the same board wait
    // instead of solving it again.
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    map.entry((rows, cols)).or_insert_with(|| Box::leak(Box::new(layered::solve(&Pawns::new(rows, cols)))))
}

fn no_pawn_on_goal(game: &Pawns, p: &PawnsPosition) -> bool {
    let row = (1u64 << game.cols()) - 1;
    let black_goal = row << ((game.rows() - 1) * game.cols());
    p.white & row == 0 && p.black & black_goal == 0
}

// ---------------------------------------------------------------------------------
// 1. Brute force against the layered solve and the memo search.
// ---------------------------------------------------------------------------------

#[test]
fn brute_force_agrees_with_layered_and_memo_on_random_positions() {
    let sizes = [(3, 3), (3, 4), (4, 3), (4, 4), (2, 5), (5, 2)];
    let mut rng = SplitMix64::new(0x5eed_1083_8000);
    let mut checked = 0;
    let mut plies_seen = std::collections::BTreeSet::new();
    for (rows, cols) in sizes {
        let game = Pawns::new(rows, cols);
        let solution = layered_solution(rows, cols);
        let mut naive_memo = HashMap::new();
        for k in 0..80 {
            // 60 random boards, then 20 boards reached by random play from the start
            // (longer games than random boards have).
            let (grid, white_to_move) = if k < 60 {
                // Alternate the side to move, with a random start.
                (random_grid(&mut rng, rows as usize, cols as usize), (k + rng.below(2) as usize).is_multiple_of(2))
            } else {
                random_walk(&mut rng, rows as usize, cols as usize)
            };
            let pos = to_position(&grid, white_to_move);
            let naive = naive_solve(&grid, white_to_move, &mut naive_memo).verdict();
            let layered = Pawns::verdict(&pos, solution.value_of(&game, &pos).expect("indexed"));
            let memo = memo::solve(&game, &pos).expect("acyclic");
            let searched = Pawns::verdict(&pos, memo.value(&pos).expect("searched"));
            let shown = plain(&grid, white_to_move);
            assert_eq!(game.notation(&pos), shown);
            assert_eq!(layered, naive, "layered vs brute force at {shown}");
            assert_eq!(searched, naive, "memo vs brute force at {shown}");
            plies_seen.insert(naive);
            checked += 1;
        }
    }
    assert!(checked >= 450);
    // The sample is not degenerate: it has both winners and a spread of lengths.
    assert!(plies_seen.iter().any(|v| v.starts_with("white")) && plies_seen.iter().any(|v| v.starts_with("black")));
    assert!(plies_seen.len() >= 15, "{plies_seen:?}");
    eprintln!("{checked} positions; verdicts seen: {plies_seen:?}");
}

/// Hand-made positions for the counting rule: the move that reaches the far rank
/// counts, the move that leaves the opponent stuck counts, the stuck side's missing
/// move does not.
#[test]
fn counting_rule_on_hand_made_positions() {
    let cases = [
        // White steps onto row 0 at once: the move onto the far rank counts.
        ("..p/P../... w", "white (1)"),
        // Black steps onto the last row at once.
        ("../p./.. b", "black (1)"),
        // White's step blocks the only black pawn: black is stuck, 1 ply.
        ("p../.../P.. w", "white (1)"),
        // White captures the only black pawn: black has no pawns, 1 ply.
        (".../.p./P.. w", "white (1)"),
        // White has no pawns: stuck at once, no ply.
        ("ppp/.../... w", "black (0)"),
        // Blocked pawns: the side to move is stuck, no ply.
        ("../p./P. w", "black (0)"),
        ("../p./P. b", "white (0)"),
        ("..p/..p/..P b", "white (0)"),
        // White's only pawn is blocked, with nothing to capture.
        ("p../.p./.P. w", "black (0)"),
    ];
    for (text, expected) in cases {
        let case = parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let game = Pawns::new(case.rows, case.cols);
        let value = memo::solve(&game, &case.position).unwrap().value(&case.position).unwrap();
        assert_eq!(Pawns::verdict(&case.position, value), expected, "{text}");
        let grid: Grid = text.split(' ').next().unwrap().split('/').map(|r| r.chars().collect()).collect();
        let naive = naive_solve(&grid, case.position.white_to_move, &mut HashMap::new());
        assert_eq!(naive.verdict(), expected, "brute force, {text}");
    }
}

// ---------------------------------------------------------------------------------
// 2. Three engine solvers on whole boards.
// ---------------------------------------------------------------------------------

/// The non-terminal positions reachable from `start` (start included), by search:
/// the positions the tight index holds.
fn reachable_indexed(game: &Pawns, start: &PawnsPosition) -> Vec<PawnsPosition> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![*start];
    while let Some(p) = stack.pop() {
        if game.terminal(&p).is_some() || !seen.insert(p) {
            continue;
        }
        game.for_each_child(&p, |c| stack.push(c));
    }
    seen.into_iter().collect()
}

/// The tiered solve against the whole-index layered sweep at every position of the
/// boards from 3×3 to 4×5.
#[test]
fn tiered_equals_layered_at_every_position_up_to_four_by_five() {
    for (rows, cols) in [(3, 3), (3, 4), (4, 3), (3, 5), (4, 4), (4, 5), (5, 4)] {
        let game = Pawns::new(rows, cols);
        let whole = layered::solve(&game);
        let tiers = tiered::solve_all(&game);
        let mut offset = 0;
        for tier in game.tiers() {
            let values = tiers.get(tier).unwrap();
            assert_eq!(values.width(), 1, "{rows}x{cols}: 1-byte values");
            for i in 0..values.len() {
                assert_eq!(values.value(i), whole.value(offset + i), "{rows}x{cols} {tier:?} {i}");
            }
            offset += values.len();
        }
        assert_eq!(offset, game.index_size());
    }
}

#[test]
fn layered_tiered_and_memo_agree_on_whole_boards() {
    let mut rng = SplitMix64::new(77);
    for (rows, cols) in [(3, 3), (2, 4), (3, 4), (4, 3)] {
        let game = Pawns::new(rows, cols);
        let layered = layered_solution(rows, cols);
        let tiers = tiered::solve_all(&game);
        assert_eq!(layered.len(), game.index_size());
        let counts = layered.counts();
        assert_eq!((counts.holes, counts.ties, counts.draws), (0, 0, 0), "{rows}x{cols}: {counts:?}");
        for i in 0..game.index_size() {
            let p = game.position(i).unwrap();
            let (tier, j) = game.locate(&p).expect("indexed positions lie in a tier");
            assert_eq!(
                layered.value(i),
                tiers.get(tier).unwrap().value(j),
                "{rows}x{cols} index {i}: {}",
                game.notation(&p)
            );
        }
        // Memo search from sampled starts (and the real start): every position it
        // reaches has the layered value.
        let mut starts = vec![game.start()];
        starts.extend((0..25).map(|_| game.position(rng.below(game.index_size())).unwrap()));
        let mut compared = 0u64;
        for start in &starts {
            let searched = memo::solve(&game, start).expect("acyclic");
            for p in reachable_indexed(&game, start) {
                assert_eq!(
                    searched.value(&p),
                    layered.value(game.index(&p)),
                    "{rows}x{cols} memo from {} at {}",
                    game.notation(start),
                    game.notation(&p)
                );
                compared += 1;
            }
        }
        assert!(compared > 0);
    }
}

// ---------------------------------------------------------------------------------
// 3. The index.
// ---------------------------------------------------------------------------------

/// C(n, k), independently of the index's table.
fn binomial(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
}

/// The number of positions the tight index holds, counted by brute force over every
/// placement of small boards: at most C pawns a side, no white pawn on row 0, no
/// black pawn on row R-1, either side to move.
fn counted_size(rows: u32, cols: u32) -> u64 {
    let cells = rows * cols;
    let row = (1u64 << cols) - 1;
    let (white_goal, black_goal) = (row, row << ((rows - 1) * cols));
    let mut count = 0;
    for white in 0..1u64 << cells {
        if white & white_goal != 0 || white.count_ones() > cols {
            continue;
        }
        let rest = !white & ((1u64 << cells) - 1) & !black_goal;
        // Every subset of `rest` with at most `cols` bits.
        let mut black = rest;
        loop {
            if black.count_ones() <= cols {
                count += 2;
            }
            if black == 0 {
                break;
            }
            black = (black - 1) & rest;
        }
    }
    count
}

/// The same count by formula: white pawns on the R-1 rows white may stand on, black
/// pawns on the R-1 rows black may stand on, minus the cells white takes in the rows
/// both may use.
fn formula_size(rows: u64, cols: u64) -> u128 {
    let shared = (rows - 2) * cols;
    let mut total = 0;
    for w in 0..=cols {
        for b in 0..=cols {
            for wm in 0..=w {
                total += 2 * binomial(shared, wm) * binomial(cols, w - wm) * binomial((rows - 1) * cols - wm, b);
            }
        }
    }
    total
}

fn check_position_shape(game: &Pawns, i: u64, p: &PawnsPosition) {
    let cells = game.rows() * game.cols();
    let board = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
    assert_eq!(p.white & p.black, 0, "index {i}: overlapping pawns");
    assert_eq!((p.white | p.black) & !board, 0, "index {i}: pawn off the board");
    assert!(p.white.count_ones() <= game.cols() && p.black.count_ones() <= game.cols(), "index {i}: too many pawns");
    assert!(no_pawn_on_goal(game, p), "index {i}: a pawn on its goal rank");
    assert_eq!(game.terminal(p), None, "index {i}: indexed positions are not over");
}

#[test]
fn index_round_trips_on_whole_small_boards() {
    for (rows, cols) in [(3, 3), (3, 4), (2, 4), (2, 2), (4, 3), (2, 5)] {
        let game = Pawns::new(rows, cols);
        let size = game.index_size();
        assert_eq!(size, counted_size(rows, cols), "{rows}x{cols}");
        assert_eq!(size as u128, formula_size(rows as u64, cols as u64), "{rows}x{cols}");
        assert_eq!(game.pawn_index().unwrap().size(), size);
        let mut seen = std::collections::HashSet::new();
        for i in 0..size {
            let p = game.position(i).expect("no holes");
            check_position_shape(&game, i, &p);
            assert_eq!(game.index(&p), i, "{rows}x{cols}: {}", game.notation(&p));
            assert!(seen.insert(p), "{rows}x{cols}: index {i} repeats a position");
        }
        // Tiers: sizes add up, each tier round-trips, and the global index is the
        // tiers one after another.
        let mut offset = 0;
        for tier in game.tiers() {
            let tier_size = game.tier_size(tier);
            for j in 0..tier_size {
                let p = game.position_in(tier, j).unwrap();
                assert_eq!(game.locate(&p), Some((tier, j)));
                assert_eq!(game.index(&p), offset + j);
                assert_eq!((p.white.count_ones(), p.black.count_ones()), tier);
            }
            offset += tier_size;
        }
        assert_eq!(offset, size);
    }
}

#[test]
fn index_round_trips_on_samples_of_large_boards() {
    let mut rng = SplitMix64::new(2024);
    for (rows, cols, samples) in [(4, 4, 100_000), (5, 5, 100_000), (8, 8, 20_000), (2, 8, 20_000), (8, 2, 20_000)] {
        let game = Pawns::new(rows, cols);
        let size = game.index_size();
        let expected = formula_size(rows as u64, cols as u64);
        if expected > u64::MAX as u128 {
            // Too big for 64 bits: no index, and the game says so.
            assert!(game.pawn_index().is_none() && size == 0, "{rows}x{cols}");
            continue;
        }
        assert_eq!(size as u128, expected, "{rows}x{cols}");
        if (rows, cols) == (5, 5) {
            assert_eq!(size, 365_132_764);
        }
        let mut indices: Vec<u64> = (0..samples).map(|_| rng.below(size)).collect();
        indices.extend([0, 1, size / 2, size - 2, size - 1]);
        for i in indices {
            let p = game.position(i).unwrap();
            check_position_shape(&game, i, &p);
            assert_eq!(game.index(&p), i, "{rows}x{cols}: {}", game.notation(&p));
        }
        // And from the position side: random positions index within range and back.
        for _ in 0..samples / 10 {
            let grid = random_grid(&mut rng, rows as usize, cols as usize);
            let p = to_position(&grid, rng.chance(1, 2));
            let i = game.index(&p);
            assert!(i < size);
            assert_eq!(game.position(i), Some(p), "{rows}x{cols}: {}", plain(&grid, p.white_to_move));
        }
    }
}

#[test]
fn positions_with_a_pawn_on_its_goal_rank_are_terminal_and_not_indexed() {
    let game = Pawns::new(3, 3);
    for text in ["P../.../... b", "pp./.../..p w", "P../.../..p w"] {
        let p = game.parse_position(text).unwrap();
        assert!(game.terminal(&p).is_some(), "{text}");
        assert!(!game.is_indexed(&p), "{text}");
        assert_eq!(game.locate(&p), None, "{text}");
        assert!(game.index(&p) >= game.index_size(), "{text}: out of range, never a wrong index");
        // The solution still values it, by the rules.
        assert!(layered_solution(3, 3).value_of(&game, &p).is_some());
    }
}

/// The layer of each index, in solving order (checks that layers partition the index).
fn layer_numbers(game: &Pawns) -> Vec<u32> {
    let size = game.index_size() as usize;
    let mut layer = vec![u32::MAX; size];
    let mut next = 0u32;
    let mut total = 0u64;
    gsolve_engine::Layered::for_each_layer(game, |range| {
        assert!(range.start < range.end && range.end as usize <= size, "bad layer {range:?}");
        total += range.end - range.start;
        for i in range {
            assert_eq!(layer[i as usize], u32::MAX, "index {i} in two layers");
            layer[i as usize] = next;
        }
        next += 1;
    });
    assert_eq!(total, size as u64);
    assert!(layer.iter().all(|&l| l != u32::MAX), "an index is in no layer");
    layer
}

#[test]
fn layers_partition_the_index_and_children_come_first() {
    for (rows, cols) in [(3, 3), (3, 4), (2, 5), (5, 2)] {
        let game = Pawns::new(rows, cols);
        let layer = layer_numbers(&game);
        let mut edges = 0u64;
        for i in 0..game.index_size() {
            let p = game.position(i).unwrap();
            if game.terminal(&p).is_some() {
                continue;
            }
            game.for_each_child(&p, |c| {
                if game.terminal(&c).is_some() {
                    return;
                }
                let j = game.index(&c);
                assert!(
                    layer[j as usize] < layer[i as usize],
                    "{rows}x{cols}: child {} (layer {}) of {} (layer {})",
                    game.notation(&c),
                    layer[j as usize],
                    game.notation(&p),
                    layer[i as usize]
                );
                edges += 1;
            });
        }
        // On two rows every move reaches a goal rank: no child is indexed.
        assert_eq!(edges > 0, rows > 2, "{rows}x{cols}");
    }
}

/// The game's moves against the brute force's, on every indexed position of 3×3 and
/// 3×4 (none has a pawn on its goal rank).
#[test]
fn moves_match_the_brute_force_rules() {
    for (rows, cols) in [(3, 3), (3, 4)] {
        let game = Pawns::new(rows, cols);
        for i in 0..game.index_size() {
            let p = game.position(i).unwrap();
            if !no_pawn_on_goal(&game, &p) {
                assert!(game.terminal(&p).is_some(), "{}", game.notation(&p));
                continue;
            }
            assert_eq!(game.terminal(&p), None);
            let text = game.notation(&p);
            let grid: Grid = text.split(' ').next().unwrap().split('/').map(|r| r.chars().collect()).collect();
            let mut expected: Vec<PawnsPosition> =
                naive_moves(&grid, p.white_to_move).iter().map(|(g, _)| to_position(g, !p.white_to_move)).collect();
            let mut actual = Vec::new();
            game.for_each_child(&p, |c| actual.push(c));
            assert_eq!(game.move_count(&p), actual.len());
            let mut moves = Vec::new();
            game.moves(&p, &mut moves);
            assert_eq!(moves.iter().map(|m| game.play(&p, m)).collect::<Vec<_>>(), actual);
            let key = |q: &PawnsPosition| (q.white, q.black);
            expected.sort_by_key(key);
            actual.sort_by_key(key);
            assert_eq!(actual, expected, "{text}");
        }
    }
}

// ---------------------------------------------------------------------------------
// 4. Known results.
// ---------------------------------------------------------------------------------

#[test]
fn hexapawn_is_a_black_win_in_6() {
    let game = Pawns::new(3, 3);
    let start = game.start();
    assert_eq!(game.notation(&start), "ppp/.../PPP w");
    let value = layered_solution(3, 3).value_of(&game, &start).unwrap();
    assert_eq!(Pawns::verdict(&start, value), "black (6)");
    let searched = memo::solve(&game, &start).unwrap();
    assert_eq!(Pawns::verdict(&start, searched.value(&start).unwrap()), "black (6)");
    let grid: Grid = vec!["ppp".chars().collect(), "...".chars().collect(), "PPP".chars().collect()];
    assert_eq!(naive_solve(&grid, true, &mut HashMap::new()).verdict(), "black (6)");
}

#[test]
fn octapawn_is_a_white_win_in_11() {
    let game = Pawns::new(4, 4);
    let start = game.start();
    assert_eq!(game.notation(&start), "pppp/..../..../PPPP w");
    let value = layered_solution(4, 4).value_of(&game, &start).unwrap();
    assert_eq!(Pawns::verdict(&start, value), "white (11)");
    let searched = memo::solve(&game, &start).unwrap();
    assert_eq!(Pawns::verdict(&start, searched.value(&start).unwrap()), "white (11)");
}

const UVA_SAMPLE: &str = "2\n\n.ppp\n....\n.PPP\n....\n\n...p\n...p\npP.P\n...P\n";

#[test]
fn the_uva_sample() {
    let cases = parse_boards(UVA_SAMPLE).unwrap();
    assert_eq!(cases.len(), 2);
    let answers: Vec<String> = cases
        .iter()
        .map(|case| {
            assert!(case.position.white_to_move);
            let game = Pawns::new(case.rows, case.cols);
            let searched = memo::solve(&game, &case.position).unwrap();
            let answer = Pawns::verdict(&case.position, searched.value(&case.position).unwrap());
            let layered = layered_solution(4, 4).value_of(&game, &case.position).unwrap();
            assert_eq!(Pawns::verdict(&case.position, layered), answer);
            answer
        })
        .collect();
    assert_eq!(answers, ["white (7)", "black (2)"]);
    let grids: Vec<Grid> = [".ppp/..../.PPP/....", ".../...p/pP.P/...P"]
        .iter()
        .map(|t| t.split('/').map(|r| r.chars().collect()).collect())
        .collect();
    assert_eq!(naive_solve(&grids[0], true, &mut HashMap::new()).verdict(), "white (7)");
    assert_eq!(naive_solve(&grids[1], true, &mut HashMap::new()).verdict(), "black (2)");
}

/// 5×5 from the start by memo search: the largest start the test profile
/// (opt-level 1) searches within a test's time.
#[test]
fn five_by_five_is_a_white_win_in_19() {
    let game = Pawns::new(5, 5);
    let start = game.start();
    let searched = memo::solve(&game, &start).unwrap();
    assert_eq!(searched.value(&start), Some(Value::Win(19)));
    assert_eq!(Pawns::verdict(&start, searched.value(&start).unwrap()), "white (19)");
}

/// The contest's count: for white to move (no pawn on a goal rank), x is odd exactly
/// when white wins.
#[test]
fn remoteness_is_odd_exactly_when_white_wins() {
    for (rows, cols) in [(3, 3), (3, 4), (2, 5), (5, 2), (4, 4)] {
        let game = Pawns::new(rows, cols);
        let solution = layered_solution(rows, cols);
        let mut checked = 0u64;
        for i in 0..game.index_size() {
            let value = solution.value(i).unwrap();
            let p = game.position(i).unwrap();
            if !p.white_to_move || !no_pawn_on_goal(&game, &p) {
                continue;
            }
            let (white_wins, x) = match value {
                Value::Win(r) => (true, r),
                Value::Loss(r) => (false, r),
                other => panic!("{rows}x{cols} {}: {other:?}", game.notation(&p)),
            };
            assert_eq!(x % 2 == 1, white_wins, "{rows}x{cols} {}: {value:?}", game.notation(&p));
            assert!(Pawns::verdict(&p, value).starts_with(if white_wins { "white" } else { "black" }));
            checked += 1;
        }
        assert!(checked > 0);
    }
}

// ---------------------------------------------------------------------------------
// 5. Formats.
// ---------------------------------------------------------------------------------

fn error_of(text: &str) -> FormatError {
    match parse_boards(text) {
        Ok(cases) => panic!("accepted {text:?}: {cases:?}"),
        Err(e) => e,
    }
}

#[test]
fn parse_boards_is_lenient_with_whitespace() {
    let crlf = UVA_SAMPLE.replace('\n', "\r\n");
    assert_eq!(parse_boards(&crlf).unwrap(), parse_boards(UVA_SAMPLE).unwrap());
    let messy = "\n\n  2  \r\n\n\n\n.ppp  \n....\t\n  .PPP\n....\n\n\n\n...p\r\n...p \r\npP.P\n...P\n\n\n";
    assert_eq!(parse_boards(messy).unwrap(), parse_boards(UVA_SAMPLE).unwrap());
    // No trailing newline, no blank line after the count.
    let tight = "2\n.ppp\n....\n.PPP\n....\n\n...p\n...p\npP.P\n...P";
    assert_eq!(parse_boards(tight).unwrap(), parse_boards(UVA_SAMPLE).unwrap());
    // Zero cases.
    assert_eq!(parse_boards("0\n").unwrap(), []);
}

#[test]
fn parse_boards_reads_boards_of_different_sizes() {
    let text = "2\n\nppp\n...\nPPP\n\npppp\n....\n..P.\n.p..\nPPP.\n";
    let cases = parse_boards(text).unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!((cases[0].rows, cases[0].cols), (3, 3));
    assert_eq!((cases[1].rows, cases[1].cols), (5, 4));
    let g3 = Pawns::new(3, 3);
    let g54 = Pawns::new(5, 4);
    assert_eq!(cases[0].position, g3.start());
    assert_eq!(g54.notation(&cases[1].position), "pppp/..../..P./.p../PPP. w");
    assert_eq!(cases[1].position.white.count_ones(), 4);
    assert_eq!(cases[1].position.black.count_ones(), 5);
    // Extremes: 2×2 and 8×8.
    let big = format!("2\n\n..\nPP\n\n{}{}\n", "pppppppp\n".repeat(7), "PPPPPPPP");
    let cases = parse_boards(&big).unwrap();
    assert_eq!((cases[0].rows, cases[0].cols, cases[1].rows, cases[1].cols), (2, 2, 8, 8));
    assert_eq!(cases[1].position.black.count_ones(), 56);
}

fn assert_error(text: &str, case: Option<usize>, line: Option<usize>, column: Option<usize>, words: &str) {
    let e = error_of(text);
    assert_eq!((e.case, e.line, e.column), (case, line, column), "{text:?}: {e}");
    assert!(e.message.contains(words), "{text:?}: message {:?} lacks {words:?}", e.message);
    // The Display form names the place.
    let shown = e.to_string();
    if let Some(l) = line {
        assert!(shown.contains(&format!("line {l}")), "{shown}");
    }
}

#[test]
fn parse_boards_rejects_wrong_case_counts() {
    // Fewer boards than announced: the first missing case, at the end of the input.
    assert_error("3\n\n...\n...\nPPP\n\n...\n.p.\nPPP\n", Some(3), Some(9), None, "announces 3 boards but has 2");
    assert_error("1\n", Some(1), Some(1), None, "announces 1 board but has 0");
    // More boards than announced: the first extra case, at its first row.
    assert_error("1\n\n...\n...\nPPP\n\n...\n.p.\nPPP\n", Some(2), Some(7), None, "announces 1 board ");
    assert_error("", None, None, None, "empty input");
    assert_error("\n  \n", None, None, None, "empty input");
}

#[test]
fn parse_boards_rejects_a_bad_count() {
    assert_error("two\n\n...\n...\nPPP\n", None, Some(1), None, "number of cases");
    assert_error("\n\n-1\n\n...\n...\nPPP\n", None, Some(3), None, "number of cases");
    assert_error("2 boards\n\n...\n...\nPPP\n", None, Some(1), None, "number of cases");
}

#[test]
fn parse_boards_rejects_bad_boards_where_they_are() {
    let sample = |board: &str| format!("2\n\n.ppp\n....\n.PPP\n....\n\n{board}\n");
    // Unequal row widths: the row that differs (board 2 starts on line 8).
    assert_error(&sample("...p\n...p\npP.P\n..P"), Some(2), Some(11), None, "row 4 has 3 cells");
    assert_error(&sample("...p\n...p.\npP.P\n...P"), Some(2), Some(9), None, "row 2 has 5 cells");
    // Unknown characters, with the column (leading spaces counted).
    assert_error(&sample("...p\n..xp\npP.P\n...P"), Some(2), Some(9), Some(3), "unknown character 'x'");
    assert_error(&sample("...p\n...p\n  pP.K\n...P"), Some(2), Some(10), Some(6), "unknown character 'K'");
    assert_error(&sample("...p\n...p\npP P\n...P"), Some(2), Some(10), Some(3), "unknown character ' '");
    // A pawn on its goal rank.
    assert_error(&sample("..Pp\n...p\npP.P\n...P"), Some(2), Some(8), Some(3), "white pawn");
    assert_error(&sample("...p\n...p\npP.P\n.p.P"), Some(2), Some(11), Some(2), "black pawn");
    // In the first case too.
    assert_error("1\n\nP..\n...\n...\n", Some(1), Some(3), Some(1), "white pawn");
    // Sizes out of 2..8.
    assert_error(&sample("...p"), Some(2), Some(8), None, "1x4");
    assert_error(&sample("p\n.\nP"), Some(2), Some(8), None, "3x1");
    assert_error(&sample(&"..\n".repeat(9)), Some(2), Some(8), None, "9x2");
    assert_error(&sample(".........\n........P"), Some(2), Some(8), None, "2x9");
}

#[test]
fn plain_notation_round_trips() {
    let case = parse_position("pppp/..../..../PPPP w").unwrap();
    assert_eq!((case.rows, case.cols), (4, 4));
    let game = Pawns::new(4, 4);
    assert_eq!(case.position, game.start());
    assert_eq!(game.notation(&case.position), "pppp/..../..../PPPP w");
    let black = parse_position("  .p./P../... b  ").unwrap();
    assert!(!black.position.white_to_move);
    assert_eq!(Pawns::new(3, 3).notation(&black.position), ".p./P../... b");
    // Random positions of every size, both sides to move.
    let mut rng = SplitMix64::new(9);
    for _ in 0..500 {
        let (rows, cols) = (2 + rng.below(7) as usize, 2 + rng.below(7) as usize);
        let grid = random_grid(&mut rng, rows, cols);
        let p = to_position(&grid, rng.chance(1, 2));
        let game = Pawns::new(rows as u32, cols as u32);
        let text = game.notation(&p);
        assert_eq!(text, plain(&grid, p.white_to_move));
        let back = parse_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!((back.rows, back.cols, back.position), (rows as u32, cols as u32, p), "{text}");
    }
}

#[test]
fn bad_plain_notations_are_errors() {
    for text in [
        "",
        "w",
        "pppp/..../..../PPPP",
        "pppp/..../..../PPPP x",
        "pppp/..../..../PPPP W",
        "pppp/..../..../PPPP wb",
        "pppp/..../..../PPPP w b",
        "ppp/..../..../PPPP w",
        "pppp//PPPP w",
        "pppp/..../..../PPPP/ w",
        "pppp w",
        "p/P w",
        "pppp/..x./..../PPPP w",
        "P.../..../..../PPPP w",
        "pppp/..../..../pPPP w",
        "pppp/..../..../PP PP w",
        "ppppppppp/........./PPPPPPPPP w",
        "../../../../../../../../.. w",
    ] {
        assert!(parse_position(text).is_err(), "accepted {text:?}");
    }
    let e = parse_position("pppp/..x./..../PPPP w").unwrap_err();
    assert_eq!((e.case, e.column), (None, Some(8)), "{e}");
    assert!(e.message.contains("'x'"), "{e}");
    // Columns count in the text as given, leading spaces included.
    let e = parse_position("  pppp/..x./..../PPPP w").unwrap_err();
    assert_eq!(e.column, Some(10), "{e}");
    let e = parse_position("pppp/..../..../PPPP/.p.. w").unwrap_err();
    assert_eq!(e.column, Some(22), "{e}");
    assert!(e.message.contains("black pawn"), "{e}");
    assert!(parse_position("pppp/..../..../PPPP/.... w").is_ok());
    let e = parse_position("pppp/..../..../PPPP x").unwrap_err();
    assert!(e.message.contains("side to move"), "{e}");
}

/// The incremental `for_each_located` gives, for every position of every tier and
/// any range, the children the rules give (played and located one by one).
#[test]
fn located_children_match_the_rules() {
    use gsolve_engine::{ChildAt, Scan};
    for (rows, cols) in [(3, 3), (3, 4), (4, 3), (2, 4), (4, 4), (5, 3)] {
        let game = Pawns::new(rows, cols);
        for tier in game.tiers() {
            let size = game.tier_size(tier);
            // Ranges that start and end inside rows, too.
            let cut = (size / 3).max(1);
            for range in [0..size, 0..cut.min(size), cut.min(size)..size] {
                let mut seen = range.start;
                game.for_each_located(tier, range.clone(), |index, scan| {
                    assert_eq!(index, seen, "{rows}x{cols} {tier:?}: indices in order");
                    seen += 1;
                    let p = game.position_in(tier, index).unwrap();
                    let mut expected: Vec<ChildAt<_>> = Vec::new();
                    game.for_each_child(&p, |c| {
                        expected.push(match game.terminal(&c) {
                            Some(o) => ChildAt::Over(o),
                            None => {
                                let (t, i) = game.locate(&c).unwrap();
                                ChildAt::In(t, i)
                            }
                        })
                    });
                    let children = match scan {
                        Scan::Moves(children) => children,
                        Scan::Known(value) => {
                            // Known at once: a win in 1, and the rules agree.
                            assert_eq!(value, Value::Win(1));
                            assert!(
                                expected.contains(&ChildAt::Over(gsolve_engine::Outcome::Loss)),
                                "{}",
                                game.notation(&p)
                            );
                            return;
                        }
                        Scan::Over(_) => panic!("indexed positions are not over"),
                    };
                    let mut got = children.to_vec();
                    let key = |c: &ChildAt<(u32, u32)>| format!("{c:?}");
                    got.sort_by_key(key);
                    expected.sort_by_key(key);
                    assert_eq!(got, expected, "{rows}x{cols} {}", game.notation(&p));
                });
                assert_eq!(seen, range.end);
            }
        }
    }
}

/// The tiered solve of 5×5 (365 million positions, 1 byte each) against today's
/// whole-index layered sweep (4 bytes each) at every position; too large for the
/// default suite: `cargo test --release -p gsolve-games --test pawns -- --ignored`.
#[test]
#[ignore = "long and large: run with --release -- --ignored (docs/performance.md)"]
fn five_by_five_tiered_equals_layered_everywhere() {
    let game = Pawns::new(5, 5);
    let whole = layered::solve(&game);
    let tiers = tiered::solve_all(&game);
    let mut offset = 0;
    for tier in game.tiers() {
        let values = tiers.get(tier).unwrap();
        for i in 0..values.len() {
            assert_eq!(values.value(i), whole.value(offset + i), "{tier:?} {i}");
        }
        offset += values.len();
    }
    assert_eq!(offset, game.index_size());
}

// ---------------------------------------------------------------------------------
// The alpha-beta search's knowledge: race bounds and move order.
// ---------------------------------------------------------------------------------

/// The runners' bounds hold at every position of every small board (the tight
/// index: every position with no pawn on its goal rank, either side to move,
/// stuck or not), and
/// they are not vacuous: they often give the value, and both ends move.
#[test]
fn race_bounds_hold_at_every_position_of_small_boards() {
    let (mut all_open, mut all_exact, mut all_low, mut all_high) = (0, 0, 0, 0);
    for (rows, cols) in [(3, 3), (3, 4), (4, 3), (4, 4), (3, 5), (5, 3), (2, 6), (6, 2), (4, 5), (5, 4)] {
        let game = Pawns::new(rows, cols);
        let solution = layered_solution(rows, cols);
        let (mut exact, mut low_moved, mut high_moved, mut open) = (0u64, 0u64, 0u64, 0u64);
        game.for_each_position_in(0..game.index_size(), |i, p| {
            if game.terminal(&p).is_some() {
                return;
            }
            open += 1;
            let value = solution.value(i).expect("solved");
            let (low, high) = game.race_bounds(&p);
            assert!(
                low <= value && value <= high,
                "{rows}x{cols} {}: {low:?} ≤ {value:?} ≤ {high:?}",
                game.notation(&p)
            );
            exact += u64::from(low == high);
            low_moved += u64::from(low > Value::Loss(0));
            high_moved += u64::from(high < Value::Win(1));
        });
        eprintln!("{rows}x{cols}: exact {exact}, low {low_moved}, high {high_moved} of {open}");
        (all_open, all_exact, all_low, all_high) =
            (all_open + open, all_exact + exact, all_low + low_moved, all_high + high_moved);
    }
    // Not vacuous: on the boards as a whole (4×4: 29% exact, 35% raised, 6% lowered).
    assert!(all_exact * 4 > all_open && all_low * 4 > all_open, "{all_exact} {all_low} of {all_open}");
    assert!(all_high * 20 > all_open, "{all_high} of {all_open}");
}

/// The pawns' alpha-beta search (runner bounds, ordered moves, the mirror folded)
/// equals the layered solve on random positions, one table kept across them and on
/// two threads too.
#[test]
fn alpha_beta_matches_the_layered_solve() {
    use gsolve_engine::search::Searcher;
    let mut rng = SplitMix64::new(0xa1fa_be7a);
    for (rows, cols) in [(4, 4), (4, 5), (5, 4), (3, 5)] {
        let game = Pawns::new(rows, cols);
        let solution = layered_solution(rows, cols);
        let kept = Searcher::with_table_entries(&game, 1 << 12);
        let mut checked = 0;
        while checked < 150 {
            let i = rng.below(game.index_size());
            let p = game.position(i).expect("in range");
            if game.terminal(&p).is_some() {
                continue;
            }
            let value = solution.value(i).expect("solved");
            assert_eq!(kept.value(&p), Ok(value), "{}", game.notation(&p));
            if checked % 10 == 0 {
                let fresh = Searcher::with_table_entries(&game, 1 << 12);
                let helpers = vec![Pawns::new(rows, cols)];
                assert_eq!(fresh.value_in_parallel(&p, helpers, None), Ok(value), "{}", game.notation(&p));
            }
            checked += 1;
        }
        let start = game.start();
        assert_eq!(Searcher::new(&game).value(&start).ok(), solution.value_of(&game, &start), "{rows}x{cols} start");
    }
}

/// The 6×6 start, a black win in 30, as the search found it before it had race
/// bounds and ordered moves: a strong solve of
/// 6×6 is out of reach of a test (docs/distributed.md).
#[test]
fn six_by_six_is_a_black_win_in_30() {
    let game = Pawns::new(6, 6);
    let searcher = gsolve_engine::search::Searcher::new(&game);
    let value = searcher.value(&game.start()).unwrap();
    assert_eq!(Pawns::verdict(&game.start(), value), "black (30)");
    assert!(searcher.nodes() < 10_000_000, "{} positions", searcher.nodes());
}
