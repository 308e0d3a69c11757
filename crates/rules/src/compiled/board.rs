//! A board made from the rules: a size (or a map), its playable cells numbered
//! densely, the zones as cell sets, and every piece's moves from every cell laid out
//! as rays of target cells, so that move generation only walks arrays.
//!
//! ```text
//!   grid (row-major, walls and unplayable colours included)     playable cells
//!     . . # .          cell_at[r * cols + c] ──────────────▶      0 1 _ 2
//!     . # . .                                                     3 _ 4 5
//!
//!   rays of (group g, cell c): rays[ray_index[g * cells + c]]
//!     each ray: targets[start .. start + len], nearest first, what it may land on,
//!     and whether cells on the way block it (they do unless it leaps)
//! ```

use crate::language::error::RulesError;
use crate::language::spec::{CellColour, CellSet, Facing, Onto, Rules};

/// No playable cell here.
pub const NO_CELL: u32 = u32::MAX;
/// The most playable cells a board may have: cells are stored as 16-bit numbers,
/// and those from `0xff00` name the group of a drop ([`crate::game::DROP`]).
pub const MAX_CELLS: usize = 0xff00;

/// A piece kind as one side owns it: the unit of the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// The owner.
    pub side: usize,
    /// Index into [`Rules::kinds`].
    pub kind: usize,
    /// Its letter in positions.
    pub letter: char,
}

/// The groups of a rules file: for each side in order, its kinds in file order.
pub fn groups(rules: &Rules) -> Vec<Group> {
    let mut out = Vec::new();
    for side in 0..2 {
        for (kind, k) in rules.kinds.iter().enumerate() {
            if let Some(letter) = k.letters[side] {
                out.push(Group { side, kind, letter });
            }
        }
    }
    out
}

/// Targets along one direction of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ray {
    /// Start of its cells in [`Board::targets`].
    pub start: u32,
    /// Number of cells.
    pub len: u32,
    /// What a move along it may land on.
    pub onto: Onto,
    /// Cells on the way do not block.
    pub leap: bool,
}

/// Walls and marks of a map, given with a position or on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// One character per grid cell, row-major: `.` floor, `#` wall, or a mark.
    pub chars: Vec<char>,
}

impl Map {
    /// The map as its notation writes it: rows joined by `/`.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for r in 0..self.rows as usize {
            if r > 0 {
                out.push('/');
            }
            out.extend(&self.chars[r * self.cols as usize..(r + 1) * self.cols as usize]);
        }
        out
    }
}

/// A board for one size or map.
#[derive(Clone, Debug)]
pub struct Board {
    /// Grid rows.
    pub rows: u32,
    /// Grid columns.
    pub cols: u32,
    /// Playable cell of each grid cell, [`NO_CELL`] for walls and unplayable colours.
    pub cell_at: Vec<u32>,
    /// (row, col), 0-based, of each playable cell.
    pub coords: Vec<(u32, u32)>,
    /// The map, for games whose walls and marks come with the position.
    pub map: Option<Map>,
    /// Zone membership: `zone_cells[(zone * 2 + side) * cells + cell]`.
    zone_cells: Vec<bool>,
    /// Groups ([`groups`]).
    pub groups: Vec<Group>,
    /// Forward rays: range into `rays` for `group * cells + cell`.
    ray_index: Vec<(u32, u32)>,
    /// Backward rays (each move's vectors reversed), to find where a piece came from.
    back_index: Vec<(u32, u32)>,
    /// `overlap[g * cells + c]`: bit 0 set when two forward rays of group g from
    /// cell c share a cell, bit 1 when two backward rays do. Where no ray shares a
    /// cell, move generation needs no check for a target met twice.
    overlap: Vec<u8>,
    rays: Vec<Ray>,
    /// Cells of all rays.
    pub targets: Vec<u32>,
}

impl Board {
    /// Builds the board of `rules` with `rows` × `cols` cells, or the given map.
    pub fn new(rules: &Rules, size: Option<(u32, u32)>, map: Option<Map>) -> Result<Board, RulesError> {
        let (rows, cols) = match (&map, size) {
            (Some(m), _) => (m.rows, m.cols),
            (None, Some(s)) => s,
            (None, None) => match (rules.board.rows, rules.board.cols) {
                (Some(r), Some(c)) => (r, c),
                _ => return Err(RulesError::NeedsMap { whole_board: true }),
            },
        };
        if rules.board.map && map.is_none() {
            return Err(RulesError::NeedsMap { whole_board: false });
        }
        if !rules.board.map && map.as_ref().is_some_and(|m| m.chars.iter().any(|&c| c != '.')) {
            return Err(RulesError::Board(
                "these rules have no map (`map = true` in [board]): a position cannot add walls or marks".into(),
            ));
        }
        if rows == 0
            || cols == 0
            || rows as i64 > crate::language::spec::MAX_SIDE
            || cols as i64 > crate::language::spec::MAX_SIDE
        {
            return Err(RulesError::Board(format!(
                "a board of {rows}×{cols}: rows and columns go from 1 to {}",
                crate::language::spec::MAX_SIDE
            )));
        }
        let mut cell_at = vec![NO_CELL; (rows * cols) as usize];
        let mut coords = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                let colour_ok = match rules.board.cells {
                    CellColour::All => true,
                    CellColour::Dark => (r + c) % 2 == 1,
                    CellColour::Light => (r + c) % 2 == 0,
                };
                let wall = map.as_ref().is_some_and(|m| m.chars[(r * cols + c) as usize] == '#');
                if colour_ok && !wall {
                    cell_at[(r * cols + c) as usize] = coords.len() as u32;
                    coords.push((r, c));
                }
            }
        }
        if coords.is_empty() {
            return Err(RulesError::Board("the board has no playable cell".into()));
        }
        if coords.len() > MAX_CELLS {
            return Err(RulesError::Board(format!(
                "the board has {} playable cells, more than the {MAX_CELLS} the rules games support",
                coords.len()
            )));
        }
        let groups = groups(rules);
        let mut board = Board {
            rows,
            cols,
            cell_at,
            coords,
            map,
            zone_cells: Vec::new(),
            groups,
            ray_index: Vec::new(),
            back_index: Vec::new(),
            overlap: Vec::new(),
            rays: Vec::new(),
            targets: Vec::new(),
        };
        board.zone_cells = board.lay_zones(rules)?;
        for backward in [false, true] {
            let mut index = Vec::new();
            for g in 0..board.groups.len() {
                for cell in 0..board.cells() {
                    let first = board.rays.len() as u32;
                    board.lay_rays(rules, g, cell as u32, backward);
                    index.push((first, board.rays.len() as u32));
                }
            }
            if backward {
                board.back_index = index;
            } else {
                board.ray_index = index;
            }
        }
        board.overlap = (0..board.groups.len() * board.cells())
            .map(|at| {
                let shared = |rays: &[Ray]| {
                    let mut cells: Vec<u32> = rays.iter().flat_map(|r| board.ray_cells(r).iter().copied()).collect();
                    let all = cells.len();
                    cells.sort_unstable();
                    cells.dedup();
                    cells.len() != all
                };
                let (f, b) = (board.ray_index[at], board.back_index[at]);
                shared(&board.rays[f.0 as usize..f.1 as usize]) as u8
                    | (shared(&board.rays[b.0 as usize..b.1 as usize]) as u8) << 1
            })
            .collect();
        Ok(board)
    }

    /// Number of playable cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.coords.len()
    }

    /// The playable cell at 0-based (row, col), if any.
    pub fn cell(&self, row: u32, col: u32) -> Option<u32> {
        (row < self.rows && col < self.cols)
            .then(|| self.cell_at[(row * self.cols + col) as usize])
            .filter(|&c| c != NO_CELL)
    }

    /// The rays of a group's piece standing on `cell`.
    #[inline]
    pub fn rays(&self, group: usize, cell: u32) -> &[Ray] {
        let (a, b) = self.ray_index[group * self.cells() + cell as usize];
        &self.rays[a as usize..b as usize]
    }

    /// The rays back from `cell`: the cells a piece of `group` standing there may have
    /// come from, nearest first, each ray with the move's `onto` and `leap`.
    #[inline]
    pub fn back_rays(&self, group: usize, cell: u32) -> &[Ray] {
        let (a, b) = self.back_index[group * self.cells() + cell as usize];
        &self.rays[a as usize..b as usize]
    }

    /// Do two forward rays of `group` from `cell` share a cell?
    #[inline]
    pub fn rays_overlap(&self, group: usize, cell: u32) -> bool {
        self.overlap[group * self.cells() + cell as usize] & 1 != 0
    }

    /// Do two backward rays of `group` into `cell` share a cell?
    #[inline]
    pub fn back_rays_overlap(&self, group: usize, cell: u32) -> bool {
        self.overlap[group * self.cells() + cell as usize] & 2 != 0
    }

    /// The cells of a ray.
    #[inline]
    pub fn ray_cells(&self, ray: &Ray) -> &[u32] {
        &self.targets[ray.start as usize..(ray.start + ray.len) as usize]
    }

    /// Is `cell` in `side`'s part of zone `zone`?
    #[inline]
    pub fn in_zone(&self, zone: usize, side: usize, cell: u32) -> bool {
        self.zone_cells[(zone * 2 + side) * self.cells() + cell as usize]
    }

    /// The cells of a cell set on this board, for a side facing `facing`.
    pub fn cell_set(&self, set: &CellSet, facing: Facing, what: &str) -> Result<Vec<u32>, RulesError> {
        let (rows, cols) = (self.rows as i32, self.cols as i32);
        let line = |n: i32, count: i32, name: &str| -> Result<u32, RulesError> {
            let i = if n > 0 { n - 1 } else { count + n };
            if (0..count).contains(&i) {
                Ok(i as u32)
            } else {
                Err(RulesError::Board(format!("{what} names {name} {n}, but the board has {count} {name}s")))
            }
        };
        let mut grid = vec![false; (self.rows * self.cols) as usize];
        let mut mark = |r: u32, c: u32| grid[(r * self.cols + c) as usize] = true;
        for &r in &set.rows {
            let r = line(r, rows, "row")?;
            (0..self.cols).for_each(|c| mark(r, c));
        }
        for &c in &set.cols {
            let c = line(c, cols, "column")?;
            (0..self.rows).for_each(|r| mark(r, c));
        }
        for &(r, c) in &set.cells {
            let (r, c) = (line(r, rows, "row")?, line(c, cols, "column")?);
            mark(r, c);
        }
        for &(dr, dc) in &set.centre {
            // Offsets from the centre cell, the upper left of the four central
            // cells on an even board: the same file fits every size.
            let (r, c) = ((rows + 1) / 2 + dr, (cols + 1) / 2 + dc);
            if !(1..=rows).contains(&r) || !(1..=cols).contains(&c) {
                return Err(RulesError::Board(format!(
                    "{what} names the cell [{dr}, {dc}] from the centre, off this {rows} × {cols} board"
                )));
            }
            mark(r as u32 - 1, c as u32 - 1);
        }
        let far_near = [(set.far_row, true), (set.home_row, false)];
        for (wanted, far) in far_near {
            if !wanted {
                continue;
            }
            let edge = match (facing, far) {
                (Facing::Up, true) | (Facing::Down, false) => Edge::Row(0),
                (Facing::Down, true) | (Facing::Up, false) => Edge::Row(self.rows - 1),
                (Facing::Left, true) | (Facing::Right, false) => Edge::Col(0),
                (Facing::Right, true) | (Facing::Left, false) => Edge::Col(self.cols - 1),
            };
            match edge {
                Edge::Row(r) => (0..self.cols).for_each(|c| mark(r, c)),
                Edge::Col(c) => (0..self.rows).for_each(|r| mark(r, c)),
            }
        }
        for &m in &set.marks {
            let Some(map) = &self.map else {
                return Err(RulesError::Board(format!(
                    "{what} is the cells marked `{m}`, but these rules have no map (add `map = true` to [board])"
                )));
            };
            let mut found = false;
            for (i, &ch) in map.chars.iter().enumerate() {
                if ch == m {
                    grid[i] = true;
                    found = true;
                }
            }
            if !found {
                return Err(RulesError::Board(format!("{what} is the cells marked `{m}`, but the map has none")));
            }
        }
        Ok((0..self.cells() as u32)
            .filter(|&cell| {
                let (r, c) = self.coords[cell as usize];
                grid[(r * self.cols + c) as usize]
            })
            .collect())
    }

    fn lay_zones(&self, rules: &Rules) -> Result<Vec<bool>, RulesError> {
        let n = self.cells();
        let mut out = vec![false; rules.zones.len() * 2 * n];
        for (z, zone) in rules.zones.iter().enumerate() {
            for side in 0..2 {
                let set = &zone.cells[side];
                if *set == CellSet::default() {
                    continue;
                }
                let what = format!("the zone `{}` of {}", zone.name, rules.sides[side].name);
                for cell in self.cell_set(set, rules.sides[side].forward, &what)? {
                    out[(z * 2 + side) * n + cell as usize] = true;
                }
            }
        }
        Ok(out)
    }

    /// Appends the rays of a group's piece on `cell` (reversed when `backward`).
    fn lay_rays(&mut self, rules: &Rules, group: usize, cell: u32, backward: bool) {
        let Group { side, kind, .. } = self.groups[group];
        let facing = rules.sides[side].forward;
        let (row, col) = self.coords[cell as usize];
        for rule in &rules.kinds[kind].moves {
            for &vector in &rule.vectors {
                let (mut dr, mut dc) = facing.turn(vector);
                if backward {
                    (dr, dc) = (-dr, -dc);
                }
                let start = self.targets.len() as u32;
                let limit = rule.range.unwrap_or(u32::MAX);
                let (mut r, mut c) = (row as i64, col as i64);
                for _ in 0..limit {
                    r += dr as i64;
                    c += dc as i64;
                    if !(0..self.rows as i64).contains(&r) || !(0..self.cols as i64).contains(&c) {
                        break;
                    }
                    match self.cell(r as u32, c as u32) {
                        Some(target) => self.targets.push(target),
                        None if rule.leap => continue,
                        None => break,
                    }
                }
                let len = self.targets.len() as u32 - start;
                if len > 0 {
                    self.rays.push(Ray { start, len, onto: rule.onto, leap: rule.leap });
                }
            }
        }
    }
}

enum Edge {
    Row(u32),
    Col(u32),
}
