//! The same work by a built-in game and by its rules file, side by side (docs/rules.md,
//! "Speed"): `cargo run --release -p gsolve-rules --example speed`.
#![forbid(unsafe_code)]
use gsolve_engine::{retrograde, tiered, Indexed};
use gsolve_games::chase::Chase;
use gsolve_games::pawns::Pawns;
use gsolve_games::queens_case::{generate, Cell, QueensCase};
use gsolve_rules::{setup, Rules};
use std::sync::Arc;
use std::time::Instant;

fn load(name: &str) -> Arc<Rules> {
    let path = format!("{}/../../examples/rules/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    Arc::new(Rules::parse(&std::fs::read_to_string(path).unwrap()).unwrap())
}
fn main() {
    let chase = Chase::new(20);
    let t = Instant::now();
    let s = retrograde::solve(&chase);
    println!("chase builtin {:?} {}", t.elapsed(), chase.index_size());
    drop(s);
    let mut rows = vec![vec!['.'; 20]; 20];
    rows[0][0] = 'W';
    rows[19][19] = 'B';
    let text = format!("{} w", rows.iter().map(|r| r.iter().collect::<String>()).collect::<Vec<_>>().join("/"));
    let g = setup(load("chase"), None, None, Some(&text)).unwrap().game;
    let t = Instant::now();
    let s = retrograde::solve(&g);
    println!("chase rules {:?} {}", t.elapsed(), g.index_size());
    drop(s);

    let map = generate::random_map(30, 30, 0, 6, 1);
    let q = QueensCase::new(&map);
    let t = Instant::now();
    let s = retrograde::solve(&q);
    println!("queens builtin {:?} {}", t.elapsed(), q.index_size());
    drop(s);
    let rows: Vec<String> = (0..map.height())
        .map(|r| {
            (0..map.width())
                .map(|c| match map.cell(r, c) {
                    Cell::Wall => '#',
                    Cell::Exit => 'E',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    let mut grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let open: Vec<(usize, usize)> =
        (0..30).flat_map(|r| (0..30).map(move |c| (r, c))).filter(|&(r, c)| grid[r][c] == '.').collect();
    grid[open[0].0][open[0].1] = 'Q';
    grid[open[1].0][open[1].1] = 'A';
    let text = format!("{} q", grid.iter().map(|r| r.iter().collect::<String>()).collect::<Vec<_>>().join("/"));
    let g = setup(load("queens-case"), None, None, Some(&text)).unwrap().game;
    let t = Instant::now();
    let s = retrograde::solve(&g);
    println!("queens rules {:?} {}", t.elapsed(), g.index_size());
    drop(s);

    let p = Pawns::new(4, 4);
    let t = Instant::now();
    let s = tiered::solve_all(&p);
    println!("pawns builtin tiered {:?}", t.elapsed());
    drop(s);
    let g = setup(load("pawns"), Some((4, 4)), None, None).unwrap().game;
    let t = Instant::now();
    let s = retrograde::solve(&g);
    println!("pawns rules retro {:?} {}", t.elapsed(), g.index_size());
    drop(s);
    let t = Instant::now();
    let s = tiered::solve_all(&g);
    println!("pawns rules tiered {:?}", t.elapsed());
    drop(s);
}
