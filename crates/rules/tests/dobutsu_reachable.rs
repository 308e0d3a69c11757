//! The positions reachable from Dobutsu shogi's start, counted by a walk written
//! apart from gsolve (its own moves, positions packed in 64 bits, a hash set),
//! under the published count's conventions: as the side to move sees them, a
//! position and its mirror image once, play stopped where the board decides
//! (see `dobutsu.rs`, `positions_reachable_until_the_board_decides`, which
//! counts the same with gsolve's rules game and asserts the same figures).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// A 64-bit mix (splitmix64's finaliser): the keys are packed boards, far from
/// uniform in their low bits.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys")
    }
    fn write_u64(&mut self, x: u64) {
        let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.0 = z ^ (z >> 31);
    }
}

// Pieces of the side to move are positive, the other side's negative.
const CHICK: i8 = 1;
const ELEPHANT: i8 = 2;
const GIRAFFE: i8 = 3;
const HEN: i8 = 4;
const LION: i8 = 5;

/// A position with its side to move at the bottom, moving up (row 0 is its far
/// row): cells row by row from the top, and the hands (chicks, elephants,
/// giraffes) of the side to move and of the other.
#[derive(Clone, Copy)]
struct Position {
    board: [i8; 12],
    mine: [u8; 3],
    theirs: [u8; 3],
}

/// (row, column) steps of a piece of the side to move.
fn steps(piece: i8) -> &'static [(i32, i32)] {
    match piece {
        CHICK => &[(-1, 0)],
        ELEPHANT => &[(-1, -1), (-1, 1), (1, -1), (1, 1)],
        GIRAFFE => &[(-1, 0), (1, 0), (0, -1), (0, 1)],
        HEN => &[(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1)],
        LION => &[(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)],
        _ => unreachable!("no piece {piece}"),
    }
}

/// Four bits a cell (two's complement), two bits a hand count.
fn pack(board: &[i8; 12], mine: [u8; 3], theirs: [u8; 3]) -> u64 {
    let mut x = 0u64;
    for (i, &v) in board.iter().enumerate() {
        x |= ((v as u8 & 15) as u64) << (4 * i);
    }
    for k in 0..3 {
        x |= (mine[k] as u64) << (48 + 2 * k);
        x |= (theirs[k] as u64) << (54 + 2 * k);
    }
    x
}

fn unpack(x: u64) -> Position {
    let mut board = [0i8; 12];
    for (i, v) in board.iter_mut().enumerate() {
        let n = ((x >> (4 * i)) & 15) as i8;
        *v = if n >= 8 { n - 16 } else { n };
    }
    let (mut mine, mut theirs) = ([0u8; 3], [0u8; 3]);
    for k in 0..3 {
        mine[k] = ((x >> (48 + 2 * k)) & 3) as u8;
        theirs[k] = ((x >> (54 + 2 * k)) & 3) as u8;
    }
    Position { board, mine, theirs }
}

fn mirror(board: &[i8; 12]) -> [i8; 12] {
    std::array::from_fn(|i| board[i / 3 * 3 + 2 - i % 3])
}

/// A position's key (the smaller packing of it and its mirror image) and its
/// orbit's size.
fn orbit(board: &[i8; 12], mine: [u8; 3], theirs: [u8; 3]) -> (u64, u8) {
    let (a, m) = (pack(board, mine, theirs), pack(&mirror(board), mine, theirs));
    (a.min(m), if a == m { 1 } else { 2 })
}

/// [`orbit`] of the position after a move (`board` and hands as the mover left
/// them), seen by the new side to move.
fn next(board: &[i8; 12], mine: [u8; 3], theirs: [u8; 3]) -> (u64, u8) {
    let turned: [i8; 12] = std::array::from_fn(|i| -board[11 - i]);
    orbit(&turned, theirs, mine)
}

fn on_board(r: i32, c: i32) -> bool {
    (0..4).contains(&r) && (0..3).contains(&c)
}

/// 0: the side to move can take the other lion; 1: else the other lion
/// stands on the side to move's home row (its try has succeeded); 2: play goes on.
fn kind(p: &Position) -> usize {
    let lion = p.board.iter().position(|&v| v == -LION).expect("both lions");
    let takes = (0..12).filter(|&i| p.board[i] > 0).any(|i| {
        let (r, c) = ((i / 3) as i32, (i % 3) as i32);
        steps(p.board[i]).iter().any(|&(dr, dc)| on_board(r + dr, c + dc) && ((r + dr) * 3 + c + dc) as usize == lion)
    });
    if takes {
        0
    } else if lion / 3 == 3 {
        1
    } else {
        2
    }
}

fn children(p: &Position, out: &mut Vec<(u64, u8)>) {
    for from in 0..12 {
        let piece = p.board[from];
        if piece <= 0 {
            continue;
        }
        let (r, c) = ((from / 3) as i32, (from % 3) as i32);
        for &(dr, dc) in steps(piece) {
            if !on_board(r + dr, c + dc) {
                continue;
            }
            let to = ((r + dr) * 3 + c + dc) as usize;
            if p.board[to] > 0 {
                continue;
            }
            let (mut board, mut mine) = (p.board, p.mine);
            match -board[to] {
                0 => {}
                CHICK | HEN => mine[0] += 1,
                ELEPHANT => mine[1] += 1,
                GIRAFFE => mine[2] += 1,
                other => unreachable!("a position where the lion can be taken is not walked on from ({other})"),
            }
            board[from] = 0;
            board[to] = if piece == CHICK && r + dr == 0 { HEN } else { piece };
            out.push(next(&board, mine, p.theirs));
        }
    }
    for (k, piece) in [CHICK, ELEPHANT, GIRAFFE].into_iter().enumerate() {
        if p.mine[k] == 0 {
            continue;
        }
        for to in (0..12).filter(|&to| p.board[to] == 0) {
            let (mut board, mut mine) = (p.board, p.mine);
            mine[k] -= 1;
            board[to] = piece;
            out.push(next(&board, mine, p.theirs));
        }
    }
}

#[test]
#[ignore = "long and large: run by hand with --release -- --ignored (docs/performance.md)"]
fn an_independent_walk_counts_the_published_figure() {
    // Sente at the bottom, to move: giraffe, lion, elephant of gote at the top.
    let start = [-GIRAFFE, -LION, -ELEPHANT, 0, -CHICK, 0, 0, CHICK, 0, ELEPHANT, LION, GIRAFFE];
    let first = orbit(&start, [0; 3], [0; 3]);
    let mut seen: HashSet<u64, BuildHasherDefault<Mix>> =
        HashSet::with_capacity_and_hasher(300_000_000, Default::default());
    seen.insert(first.0);
    let mut level = vec![first];
    // [take the lion, try made, play goes on], in orbits and in positions.
    let (mut orbits, mut positions) = ([0u64; 3], [0u64; 3]);
    let (mut levels, mut found) = (0, Vec::new());
    while !level.is_empty() {
        levels += 1;
        let mut next_level = Vec::new();
        for &(key, size) in &level {
            let p = unpack(key);
            let k = kind(&p);
            orbits[k] += 1;
            positions[k] += size as u64;
            if k == 2 {
                found.clear();
                children(&p, &mut found);
                next_level.extend(found.iter().filter(|&&(c, _)| seen.insert(c)));
            }
        }
        level = next_level;
    }
    println!("{levels} levels; orbits {orbits:?}; positions {positions:?}");
    assert_eq!(levels, 40);
    assert_eq!(orbits, [140_298_614, 7_018_985, 99_485_568]);
    assert_eq!(orbits.iter().sum::<u64>(), 246_803_167);
    assert_eq!(positions, [280_578_165, 14_037_970, 198_956_907]);
}
