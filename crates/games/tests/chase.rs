//! The CQOI 2013 board game, "chase" (GAMES.md §2), checked against an independent
//! naive solver and against the facts GAMES.md states.
//!
//! The naive solver below shares no code with the engine's retrograde solver nor with
//! the game's rule code: it re-implements the rules of GAMES.md §2 directly on
//! (row, col) squares, and finds every state's value by the plainest round-based
//! fixpoint. The engine must agree with it on every state, remoteness included.

use gsolve_engine::{check, retrograde, Indexed, Value};
use gsolve_games::chase::{parse_cases, Chase, ChasePosition};
use gsolve_games::notation::Coord;
use gsolve_games::pursuit::BitwiseOptions;

// ---------------------------------------------------------------------------------
// The naive solver.
// ---------------------------------------------------------------------------------

/// A naive value, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Naive {
    Win(u32),
    Loss(u32),
    Draw,
}

impl Naive {
    fn to_value(self) -> Value {
        match self {
            Naive::Win(r) => Value::Win(r),
            Naive::Loss(r) => Value::Loss(r),
            Naive::Draw => Value::Draw,
        }
    }
}

/// The plainest fixpoint over all states. `terminal[s]` is the value of a terminal
/// state (round 0); `children[s]` lists the states after each move of a non-terminal
/// state. Round t reads only the values decided in rounds < t (a snapshot):
/// a state with a child lost (for the child's mover) wins in t; a state whose children
/// all won (for their movers) loses in t. Whatever is never decided is a draw.
fn fixpoint(terminal: &[Option<Naive>], children: &[Vec<usize>]) -> Vec<Naive> {
    let mut decided: Vec<Option<Naive>> = terminal.to_vec();
    let mut t = 0u32;
    loop {
        t += 1;
        let snapshot = decided.clone();
        let mut changed = 0;
        for s in 0..snapshot.len() {
            if snapshot[s].is_some() {
                continue;
            }
            let kids = &children[s];
            assert!(!kids.is_empty(), "naive: non-terminal state {s} without moves");
            let fastest_loss = kids
                .iter()
                .filter_map(|&c| match snapshot[c] {
                    Some(Naive::Loss(r)) => Some(r),
                    _ => None,
                })
                .min();
            if let Some(r) = fastest_loss {
                assert_eq!(r, t - 1, "naive: state {s} has a lost child of remoteness {r} in round {t}");
                decided[s] = Some(Naive::Win(t));
                changed += 1;
            } else if kids.iter().all(|&c| matches!(snapshot[c], Some(Naive::Win(_)))) {
                let slowest = kids
                    .iter()
                    .map(|&c| match snapshot[c] {
                        Some(Naive::Win(r)) => r,
                        _ => unreachable!(),
                    })
                    .max()
                    .unwrap();
                assert_eq!(slowest + 1, t, "naive: state {s} loses in round {t} with slowest child {slowest}");
                decided[s] = Some(Naive::Loss(t));
                changed += 1;
            }
        }
        if changed == 0 {
            break;
        }
    }
    decided.into_iter().map(|v| v.unwrap_or(Naive::Draw)).collect()
}

/// A square of the board, 0-based (row, col).
type Square = (usize, usize);

/// Every state's naive value on an n×n board: (white square, black square, white to
/// move). States are numbered by their squares in row-major order.
struct NaiveChase {
    n: usize,
    values: Vec<Naive>,
}

impl NaiveChase {
    fn squares(n: usize) -> Vec<Square> {
        (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect()
    }

    fn state(n: usize, white: Square, black: Square, white_to_move: bool) -> usize {
        let (w, b) = (white.0 * n + white.1, black.0 * n + black.1);
        (w * n * n + b) * 2 + white_to_move as usize
    }

    /// The squares `reach` steps or fewer away in a straight line (up, down, left,
    /// right) inside the board. Pieces do not block: black's two-square move may pass
    /// over white's square (this changes no value: next to white, black captures).
    fn targets(n: usize, (r, c): Square, reach: usize) -> Vec<Square> {
        let mut out = Vec::new();
        for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            for k in 1..=reach as i64 {
                let (r2, c2) = (r as i64 + dr * k, c as i64 + dc * k);
                if (0..n as i64).contains(&r2) && (0..n as i64).contains(&c2) {
                    out.push((r2 as usize, c2 as usize));
                }
            }
        }
        out
    }

    fn solve(n: usize) -> NaiveChase {
        let squares = Self::squares(n);
        let mut terminal = vec![None; 2 * n.pow(4)];
        let mut children = vec![Vec::new(); 2 * n.pow(4)];
        for &white in &squares {
            for &black in &squares {
                for white_to_move in [false, true] {
                    let s = Self::state(n, white, black, white_to_move);
                    if white == black {
                        // The side to move has just been captured.
                        terminal[s] = Some(Naive::Loss(0));
                    } else if white_to_move {
                        // White: exactly one square; no passing.
                        children[s] =
                            Self::targets(n, white, 1).into_iter().map(|w| Self::state(n, w, black, false)).collect();
                    } else {
                        // Black: one or two squares in a straight line; no passing.
                        children[s] =
                            Self::targets(n, black, 2).into_iter().map(|b| Self::state(n, white, b, true)).collect();
                    }
                }
            }
        }
        NaiveChase { n, values: fixpoint(&terminal, &children) }
    }

    fn value(&self, white: Square, black: Square, white_to_move: bool) -> Naive {
        self.values[Self::state(self.n, white, black, white_to_move)]
    }
}

// ---------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------

fn coord((r, c): Square) -> Coord {
    Coord { row: r as u32 + 1, col: c as u32 + 1 }
}

/// The engine's position with white and black on these squares.
fn position(game: &Chase, white: Square, black: Square, white_to_move: bool) -> ChasePosition {
    let p = ChasePosition { white: game.cell(coord(white)), black: game.cell(coord(black)), white_to_move };
    assert_eq!((game.coord(p.white), game.coord(p.black)), (coord(white), coord(black)));
    p
}

/// Compares the engine with the naive solver on every state of the n×n board.
/// Returns the number of states compared.
fn compare_all_states(n: usize) -> usize {
    let game = Chase::new(n as u32);
    let solution = retrograde::solve(&game);
    let naive = NaiveChase::solve(n);
    let squares = NaiveChase::squares(n);
    let mut bad = Vec::new();
    let mut compared = 0;
    for &white in &squares {
        for &black in &squares {
            for white_to_move in [false, true] {
                let engine = solution
                    .value_of(&game, &position(&game, white, black, white_to_move))
                    .expect("every state has a value");
                let expected = naive.value(white, black, white_to_move).to_value();
                compared += 1;
                if engine != expected {
                    let side = if white_to_move { "white" } else { "black" };
                    bad.push(format!(
                        "n = {n}, white at {}, black at {}, {side} to move: engine {engine:?}, naive {expected:?}",
                        coord(white),
                        coord(black)
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{} of {compared} states differ:\n{}", bad.len(), bad[..bad.len().min(10)].join("\n"));
    assert_eq!(compared as u64, game.index_size(), "n = {n}: every index is a state");
    compared
}

/// The answer for every start (white to move, pieces apart): (white, black, verdict,
/// value).
fn all_starts(n: u32) -> Vec<(Square, Square, String, Value)> {
    let game = Chase::new(n);
    let solution = retrograde::solve(&game);
    let squares = NaiveChase::squares(n as usize);
    let mut out = Vec::new();
    for &white in &squares {
        for &black in &squares {
            if white != black {
                let value = solution.value_of(&game, &position(&game, white, black, true)).unwrap();
                out.push((white, black, Chase::verdict(value), value));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------------

/// (1) The sample: `2 1 1 2 2` → `BLACK 2`.
#[test]
fn sample_case() {
    for input in ["2 1 1 2 2", "2 1 1 2 2\n", "2 1 1 2 2\r\n", "2\n1 1\n2 2\n"] {
        let cases = parse_cases(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(cases.len(), 1, "{input:?}");
        let case = cases[0];
        assert_eq!((case.size, case.white, case.black), (2, Coord { row: 1, col: 1 }, Coord { row: 2, col: 2 }));
        let game = Chase::new(case.size);
        let solution = retrograde::solve(&game);
        let start = game.start(&case);
        assert_eq!(start, position(&game, (0, 0), (1, 1), true));
        let value = solution.value_of(&game, &start).unwrap();
        assert_eq!(Chase::verdict(value), "BLACK 2", "{input:?}: {value:?}");
    }
    // The naive solver says the same.
    let naive = NaiveChase::solve(2);
    assert_eq!(naive.value((0, 0), (1, 1), true), Naive::Loss(2));
    assert_eq!(Chase::verdict(Naive::Loss(2).to_value()), "BLACK 2");
    assert_eq!(Chase::verdict(Value::Win(1)), "WHITE 1");
    assert_eq!(Chase::verdict(Value::Draw), "DRAW");
}

/// (2) Every state (in particular every start) of every board n = 2..=20: the engine
/// equals the naive solver.
#[test]
fn every_state_matches_the_naive_solver() {
    let mut states = 0;
    for n in 2..=20 {
        states += compare_all_states(n);
    }
    // 2 · n⁴ states per board.
    assert_eq!(states, (2..=20usize).map(|n| 2 * n.pow(4)).sum::<usize>());
}

/// (3) The facts of GAMES.md §2, n = 2..=20, every start: white wins only as
/// `WHITE 1`, exactly when the pieces are adjacent; otherwise black wins (never a
/// draw); the largest answer for n = 20 is 58.
#[test]
fn facts_for_every_start_up_to_twenty() {
    let mut starts = 0;
    for n in 2..=20u32 {
        let mut largest = 0;
        for (white, black, verdict, value) in all_starts(n) {
            starts += 1;
            let adjacent = white.0.abs_diff(black.0) + white.1.abs_diff(black.1) == 1;
            let at = || format!("n = {n}, white at {}, black at {}: {value:?}", coord(white), coord(black));
            if adjacent {
                assert_eq!(verdict, "WHITE 1", "{}", at());
                assert_eq!(value, Value::Win(1), "{}", at());
            } else {
                assert!(verdict.starts_with("BLACK "), "{}", at());
                let Value::Loss(r) = value else { panic!("{}", at()) };
                // Black captures on its own turn: an even ply.
                assert!(r >= 2 && r % 2 == 0, "{}", at());
                assert_eq!(verdict, format!("BLACK {r}"));
                largest = largest.max(r);
            }
        }
        if n == 20 {
            assert_eq!(largest, 58, "largest answer for n = 20");
        }
    }
    assert_eq!(starts, (2..=20u64).map(|n| n * n * (n * n - 1)).sum::<u64>());
}

/// (4) The engine's unmoves agree with its moves on small boards.
#[test]
fn unmoves_match_moves() {
    for n in 2..=5 {
        check::unmoves_match_moves(&Chase::new(n)).unwrap_or_else(|e| panic!("n = {n}: {e:?}"));
    }
}

/// The whole game as tiers by the cell white stands on: white's moves leave the
/// tier, black's stay in it, and moves go both ways between tiers, so the tiers
/// must be solved together; as one tier (all of them) the tier solver's retrograde
/// path runs on a real loopy game and must give the whole-game retrograde values.
struct OneTier(Chase);

impl gsolve_engine::Game for OneTier {
    type Position = ChasePosition;
    type Move = u32;
    fn terminal(&self, p: &ChasePosition) -> Option<gsolve_engine::Outcome> {
        self.0.terminal(p)
    }
    fn moves(&self, p: &ChasePosition, moves: &mut Vec<u32>) {
        self.0.moves(p, moves)
    }
    fn play(&self, p: &ChasePosition, mv: &u32) -> ChasePosition {
        self.0.play(p, mv)
    }
}

impl gsolve_engine::Tiered for OneTier {
    type Tier = ();
    fn tiers(&self) -> Vec<()> {
        vec![()]
    }
    fn child_tiers(&self, _: ()) -> Vec<()> {
        Vec::new()
    }
    fn tier_size(&self, _: ()) -> u64 {
        self.0.index_size()
    }
    fn tier_name(&self, _: ()) -> String {
        "all".into()
    }
    fn locate(&self, p: &ChasePosition) -> Option<((), u64)> {
        Some(((), self.0.index(p)))
    }
    fn position_in(&self, _: (), index: u64) -> Option<ChasePosition> {
        self.0.position(index)
    }
}

#[test]
fn the_tier_solver_equals_the_whole_game_retrograde() {
    use gsolve_engine::Game;
    for n in [2, 3, 5, 6] {
        let game = Chase::new(n);
        let whole = retrograde::solve(&game);
        let tiers = gsolve_engine::tiered::solve_all(&OneTier(game.clone()));
        let tier = tiers.get(()).unwrap();
        for i in 0..game.index_size() {
            assert_eq!(tier.value(i), whole.value(i), "n = {n}, index {i}");
        }
        assert!(game.terminal(&game.position(0).unwrap()).is_some() || n > 0);
    }
}

/// The bit-parallel solve (`Chase::value_bitwise`) gives the engine's value,
/// remoteness included, on every position of boards 2 to 7, and on random
/// positions of boards up to 20 (rows of several words, shifts across them).
#[test]
fn the_bitwise_solve_gives_the_engines_values() {
    let mut checked = 0;
    for n in 2..=7u32 {
        let game = Chase::new(n);
        let solution = retrograde::solve(&game);
        for index in 0..game.index_size() {
            let p = game.position(index).unwrap();
            assert_eq!(
                game.value_bitwise(&p, &BitwiseOptions::unlimited()),
                solution.value_of(&game, &p),
                "n = {n}, {p:?}"
            );
            checked += 1;
        }
    }
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |below: u32| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % below as u64) as u32
    };
    for n in [8, 11, 13, 16, 20] {
        let game = Chase::new(n);
        let solution = retrograde::solve(&game);
        for _ in 0..40 {
            let p = ChasePosition { white: next(n * n), black: next(n * n), white_to_move: next(2) == 0 };
            assert_eq!(
                game.value_bitwise(&p, &BitwiseOptions::unlimited()),
                solution.value_of(&game, &p),
                "n = {n}, {p:?}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, (2..=7u64).map(|n| 2 * n.pow(4)).sum::<u64>() + 200);
    // Within the contest's budget every start up to n = 20 is answered.
    let game = Chase::new(20);
    let start = position(&game, (0, 1), (0, 19), true);
    assert_eq!(game.value_bitwise(&start, &BitwiseOptions::within(game.bitwise_budget())), Some(Value::Loss(58)));
}

/// The bit-parallel solve of every position equals the engine's solution, index
/// for index, on boards 2 to 20.
#[test]
fn the_bitwise_solve_of_every_position_equals_the_engines() {
    for n in 2..=20u32 {
        let game = Chase::new(n);
        let bitwise = game.solve_bitwise(&BitwiseOptions::unlimited()).expect("no budget");
        assert!(bitwise == retrograde::solve(&game), "n = {n}");
    }
    // Over budget: no solution.
    let game = Chase::new(12);
    assert!(game.solve_bitwise(&BitwiseOptions::within(1_000)).is_none());
}
