//! Generated maps for tests and benchmarks (deterministic for a seed).

use super::format::{parse_maps, Map};
use crate::rng::SplitMix64;

/// Builds a map from rows of `. # E Q A`; panics on a malformed map (generator bug).
fn from_rows(rows: &[Vec<u8>]) -> Map {
    let text = format!(
        "{} {}\n{}\n",
        rows[0].len(),
        rows.len(),
        rows.iter().map(|r| String::from_utf8_lossy(r).into_owned()).collect::<Vec<_>>().join("\n")
    );
    parse_maps(&text).expect("generated map is valid").remove(0)
}

/// Picks a random cell whose character is `.` and writes `ch` there.
fn place(rows: &mut [Vec<u8>], rng: &mut SplitMix64, ch: u8) {
    let (h, w) = (rows.len() as u64, rows[0].len() as u64);
    loop {
        let (r, c) = (rng.below(h) as usize, rng.below(w) as usize);
        if rows[r][c] == b'.' {
            rows[r][c] = ch;
            return;
        }
    }
}

/// A `width`×`height` map where each cell is a wall with probability
/// `wall_percent`%, with `exits` exits, a queen and an army on random floor cells.
/// Needs at least `exits + 2` floor cells.
pub fn random_map(width: u32, height: u32, wall_percent: u64, exits: u32, seed: u64) -> Map {
    let mut rng = SplitMix64::new(seed);
    let mut rows: Vec<Vec<u8>> = (0..height)
        .map(|_| (0..width).map(|_| if rng.chance(wall_percent, 100) { b'#' } else { b'.' }).collect())
        .collect();
    let floor = rows.iter().flatten().filter(|&&c| c == b'.').count() as u32;
    if floor < exits + 2 {
        // Too many walls: open the first cells row by row.
        for cell in rows.iter_mut().flatten().take((exits + 2) as usize) {
            *cell = b'.';
        }
    }
    for _ in 0..exits {
        place(&mut rows, &mut rng, b'E');
    }
    place(&mut rows, &mut rng, b'Q');
    place(&mut rows, &mut rng, b'A');
    from_rows(&rows)
}

/// A perfect maze (a tree of corridors, by randomized depth-first search) on a
/// `width`×`height` map: corridor cells at even (row, col), walls between. Exits at
/// `exits` random corridor cells, queen and army on others.
pub fn maze(width: u32, height: u32, exits: u32, seed: u64) -> Map {
    let mut rng = SplitMix64::new(seed);
    let (w, h) = (width as usize, height as usize);
    let mut rows = vec![vec![b'#'; w]; h];
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    let mut seen = vec![false; cw * ch];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    rows[0][0] = b'.';
    while let Some(&(r, c)) = stack.last() {
        let mut next = Vec::new();
        if r > 0 && !seen[(r - 1) * cw + c] {
            next.push((r - 1, c));
        }
        if r + 1 < ch && !seen[(r + 1) * cw + c] {
            next.push((r + 1, c));
        }
        if c > 0 && !seen[r * cw + c - 1] {
            next.push((r, c - 1));
        }
        if c + 1 < cw && !seen[r * cw + c + 1] {
            next.push((r, c + 1));
        }
        if next.is_empty() {
            stack.pop();
            continue;
        }
        let (nr, nc) = next[rng.below(next.len() as u64) as usize];
        seen[nr * cw + nc] = true;
        rows[2 * nr][2 * nc] = b'.';
        rows[r + nr][c + nc] = b'.'; // the wall between: (2r + 2nr) / 2
        stack.push((nr, nc));
    }
    for _ in 0..exits {
        place(&mut rows, &mut rng, b'E');
    }
    place(&mut rows, &mut rng, b'Q');
    place(&mut rows, &mut rng, b'A');
    from_rows(&rows)
}
