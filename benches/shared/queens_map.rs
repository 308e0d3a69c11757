//! The 30 × 30 Queen's Case map that the pursuit and rules benches solve, and
//! the same map as a rules position's rows: shared by `benches/rules.rs` and
//! `examples/engine_ratio.rs` (included by `#[path]`), which time the same work.
use gsolve_games::queens_case::{generate, Cell, Map};

/// The map (`generate::random_map(30, 30, 0, 6, 1)`) and its rows: `#` a wall,
/// `E` an exit, `.` floor, the queen `Q` and the ace `A` on the first two
/// floor cells in reading order.
pub fn queens_case_30() -> (Map, Vec<Vec<char>>) {
    let map = generate::random_map(30, 30, 0, 6, 1);
    let mut grid: Vec<Vec<char>> = (0..30)
        .map(|r| {
            (0..30)
                .map(|col| match map.cell(r, col) {
                    Cell::Wall => '#',
                    Cell::Exit => 'E',
                    Cell::Floor => '.',
                })
                .collect()
        })
        .collect();
    let open: Vec<(usize, usize)> =
        (0..30).flat_map(|r| (0..30).map(move |col| (r, col))).filter(|&(r, col)| grid[r][col] == '.').collect();
    grid[open[0].0][open[0].1] = 'Q';
    grid[open[1].0][open[1].1] = 'A';
    (map, grid)
}
