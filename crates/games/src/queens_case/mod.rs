//! Queen's Case (JAG; HDU 3514): a queen flees an army towards the exits of a map.
//!
//! Rules (GAMES.md §1): queen and army alternate, queen first; each moves to an
//! orthogonally adjacent non-wall cell or stays. Sharing a cell catches the queen at
//! once, on any turn. The queen escapes when she stands on an exit, alone, after the
//! army's turn: stepping onto an exit ends nothing until the army has answered.
//!
//! As an engine game: a position is (queen cell, army cell, side to move) over the
//! map's open cells, indexed by [`PairIndex`] (queen first). Terminal positions:
//!
//! | position                               | outcome for the side to move |
//! |----------------------------------------|------------------------------|
//! | same cell, queen to move               | `Loss` (queen caught)        |
//! | same cell, army to move (she walked in) | `Win` (army)                 |
//! | queen on an exit, alone, queen to move | `Win` (escaped)              |

mod bitwise;
mod distance;
mod format;
pub mod generate;

pub use distance::EscapeBound;
pub use format::{parse_maps, Cell, Map, MAX_OPEN_CELLS, MAX_SIDE};

use crate::error::FormatError;
use crate::notation::{Coord, DrawnBoard, Explain, PieceMove, PlainNotation};
use crate::plain::{format_two_cells, parse_two_cells, Parameters};
use crate::pursuit::{Adjacency, Pair, PairIndex};
use gsolve_engine::{Game, Indexed, Outcome, Unmoves, Value, Variant};

/// The game on one map.
#[derive(Clone, Debug)]
pub struct QueensCase {
    /// The map as given: [`Variant::parameters`] writes it back.
    map: Map,
    /// The open-cell id of each map cell (`row * width + col`), `u32::MAX` for walls.
    id: Vec<u32>,
    /// Coordinates of each open cell, by cell id.
    coords: Vec<Coord>,
    exit: Vec<bool>,
    /// Each cell's closed neighbourhood: itself (staying) and its open neighbours.
    steps: Adjacency,
    index: PairIndex,
    start: QueensPosition,
}

/// A position: both cells (open-cell ids) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QueensPosition {
    /// The queen's cell.
    pub queen: u32,
    /// The army's cell.
    pub army: u32,
    /// True when the queen is to move.
    pub queen_to_move: bool,
}

/// The three contest answers.
pub const QUEEN_ESCAPES: &str = "Queen can escape.";
/// Army wins.
pub const ARMY_CATCHES: &str = "Army can catch Queen.";
/// Neither can force an end.
pub const NEITHER: &str = "Queen can not escape and Army can not catch Queen.";

impl QueensCase {
    /// The game on a map.
    pub fn new(map: &Map) -> Self {
        let (w, h) = (map.width(), map.height());
        let mut id = vec![u32::MAX; (w * h) as usize];
        let mut coords = Vec::new();
        let mut exit = Vec::new();
        for row in 0..h {
            for col in 0..w {
                let cell = map.cell(row, col);
                if cell != Cell::Wall {
                    id[(row * w + col) as usize] = coords.len() as u32;
                    coords.push(Coord { row: row + 1, col: col + 1 });
                    exit.push(cell == Cell::Exit);
                }
            }
        }
        let steps = Adjacency::from_lists(coords.iter().map(|c| {
            let (row, col) = (c.row - 1, c.col - 1);
            let here = id[(row * w + col) as usize];
            let around = [(row.wrapping_sub(1), col), (row + 1, col), (row, col.wrapping_sub(1)), (row, col + 1)];
            let open = around
                .into_iter()
                .filter(|&(r, c)| r < h && c < w)
                .map(|(r, c)| id[(r * w + c) as usize])
                .filter(|&i| i != u32::MAX);
            std::iter::once(here).chain(open).collect::<Vec<_>>()
        }));
        let cell_of = |(row, col): (u32, u32)| id[(row * w + col) as usize];
        let start = QueensPosition { queen: cell_of(map.queen()), army: cell_of(map.army()), queen_to_move: true };
        QueensCase { map: map.clone(), id, index: PairIndex::new(coords.len() as u32), coords, exit, steps, start }
    }

    /// The map the game was built from.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The map's start: both pieces where the map puts them, queen to move.
    pub fn start(&self) -> QueensPosition {
        self.start
    }

    /// Number of open (non-wall) cells.
    pub fn open_cells(&self) -> u32 {
        self.coords.len() as u32
    }

    /// Where an open cell is.
    pub fn coord(&self, cell: u32) -> Coord {
        self.coords[cell as usize]
    }

    /// The contest's answer line for the value of a queen-to-move position.
    pub fn verdict(value: Value) -> &'static str {
        match value {
            Value::Win(_) => QUEEN_ESCAPES,
            Value::Loss(_) => ARMY_CATCHES,
            Value::Tie(_) | Value::Draw => NEITHER,
        }
    }

    #[inline]
    fn is_terminal(&self, p: &QueensPosition) -> bool {
        p.queen == p.army || (p.queen_to_move && self.exit[p.queen as usize])
    }
}

impl Game for QueensCase {
    type Position = QueensPosition;
    /// The open cell the mover's piece goes to (its own cell: it stays).
    type Move = u32;

    #[inline]
    fn terminal(&self, p: &QueensPosition) -> Option<Outcome> {
        if p.queen == p.army {
            Some(if p.queen_to_move { Outcome::Loss } else { Outcome::Win })
        } else if p.queen_to_move && self.exit[p.queen as usize] {
            Some(Outcome::Win)
        } else {
            None
        }
    }

    fn moves(&self, p: &QueensPosition, moves: &mut Vec<u32>) {
        let from = if p.queen_to_move { p.queen } else { p.army };
        moves.extend_from_slice(self.steps.of(from));
    }

    #[inline]
    fn play(&self, p: &QueensPosition, &to: &u32) -> QueensPosition {
        if p.queen_to_move {
            QueensPosition { queen: to, army: p.army, queen_to_move: false }
        } else {
            QueensPosition { queen: p.queen, army: to, queen_to_move: true }
        }
    }

    #[inline]
    fn for_each_child(&self, p: &QueensPosition, mut f: impl FnMut(QueensPosition)) {
        let from = if p.queen_to_move { p.queen } else { p.army };
        for to in self.steps.of(from) {
            f(self.play(p, to));
        }
    }

    #[inline]
    fn move_count(&self, p: &QueensPosition) -> usize {
        self.steps.of(if p.queen_to_move { p.queen } else { p.army }).len()
    }
}

impl Indexed for QueensCase {
    fn index_size(&self) -> u64 {
        self.index.size()
    }

    #[inline]
    fn index(&self, p: &QueensPosition) -> u64 {
        self.index.index(Pair { first: p.queen, second: p.army, second_to_move: !p.queen_to_move })
    }

    #[inline]
    fn position(&self, index: u64) -> Option<QueensPosition> {
        let pair = self.index.pair(index);
        Some(QueensPosition { queen: pair.first, army: pair.second, queen_to_move: !pair.second_to_move })
    }
}

impl Unmoves for QueensCase {
    /// The mover of the parent is the side not to move here; it came from a cell of
    /// its piece's closed neighbourhood (moves are symmetric). Terminal parents are
    /// left out: they have no moves.
    #[inline]
    fn for_each_parent(&self, p: &QueensPosition, mut f: impl FnMut(QueensPosition)) {
        if p.queen_to_move {
            for &army in self.steps.of(p.army) {
                let parent = QueensPosition { queen: p.queen, army, queen_to_move: false };
                if !self.is_terminal(&parent) {
                    f(parent);
                }
            }
        } else {
            for &queen in self.steps.of(p.queen) {
                let parent = QueensPosition { queen, army: p.army, queen_to_move: true };
                if !self.is_terminal(&parent) {
                    f(parent);
                }
            }
        }
    }
}

impl Explain for QueensCase {
    fn side_to_move(&self, position: &QueensPosition) -> &'static str {
        if position.queen_to_move {
            "queen"
        } else {
            "army"
        }
    }

    fn describe_move(&self, position: &QueensPosition, &target: &u32) -> PieceMove {
        let from = if position.queen_to_move { position.queen } else { position.army };
        PieceMove::new(self.side_to_move(position), self.coord(from), self.coord(target))
    }

    fn describe_end(&self, position: &QueensPosition) -> Option<String> {
        match self.terminal(position)? {
            Outcome::Win if position.queen_to_move => {
                Some(format!("the queen escapes at {}", self.coord(position.queen)))
            }
            _ => Some(format!("the army catches the queen at {}", self.coord(position.queen))),
        }
    }
}

/// `width`, `height` and `map`: the map's rows (characters `. # E Q A`) joined by `/`,
/// e.g. `Q..E/.#../...A`. The start cells are part of the map, so they round-trip too.
impl Variant for QueensCase {
    const NAME: &'static str = "queens-case";

    fn parameters(&self) -> Vec<(String, String)> {
        let text = self.map.to_string();
        let rows: Vec<&str> = text.lines().skip(1).collect();
        vec![
            ("width".to_string(), self.map.width().to_string()),
            ("height".to_string(), self.map.height().to_string()),
            ("map".to_string(), rows.join("/")),
        ]
    }

    fn from_parameters(parameters: &[(String, String)]) -> Result<Self, String> {
        let parameters = Parameters::new(parameters, &["width", "height", "map"])?;
        let width = parameters.number("width", 1..=MAX_SIDE)?;
        let height = parameters.number("height", 1..=MAX_SIDE)?;
        let rows: Vec<&str> = parameters.text("map")?.split('/').collect();
        if rows.len() != height as usize {
            return Err(format!("parameter \"map\" has {} rows, but height is {height}", rows.len()));
        }
        for (r, row) in rows.iter().enumerate() {
            let len = row.chars().count();
            if len != width as usize {
                return Err(format!("parameter \"map\": row {} has {len} cells, but width is {width}", r + 1));
            }
        }
        // The map parser's messages name lines of the text built below (and, for a
        // missing piece, a range of them): check here first, in the parameter's terms.
        let cells = || {
            rows.iter().enumerate().flat_map(|(r, row)| row.chars().enumerate().map(move |(c, ch)| (r + 1, c + 1, ch)))
        };
        let at = |r: usize, c: usize, message: String| format!("parameter \"map\", row {r}, column {c}: {message}");
        if let Some((r, c, ch)) = cells().find(|&(_, _, ch)| !".#EQA".contains(ch)) {
            return Err(at(r, c, format!("unknown character {ch:?} (expected one of . # E Q A)")));
        }
        for (piece, what) in [('Q', "queen 'Q'"), ('A', "army 'A'"), ('E', "exit 'E'")] {
            let mut found = cells().filter(|&(_, _, ch)| ch == piece);
            match (found.next(), found.next()) {
                (None, _) => return Err(format!("parameter \"map\" has no {what}")),
                (Some((r0, c0, _)), Some((r, c, _))) if piece != 'E' => {
                    return Err(at(r, c, format!("a second {what} (the first is at row {r0}, column {c0})")))
                }
                _ => {}
            }
        }
        let text = format!("{width} {height}\n{}\n", rows.join("\n"));
        // What is left to the parser: the limit on open cells.
        let map = Map::parse(&text).map_err(|e| format!("parameter \"map\": {}", e.message))?;
        Ok(QueensCase::new(&map))
    }
}

/// `R,C R,C S`: the queen's cell, the army's cell (1-based row and column of the
/// map), then `q` or `a` for the side to move: `1,1 3,4 q`. Cells must be open.
impl PlainNotation for QueensCase {
    fn parse_position(&self, text: &str) -> Result<QueensPosition, FormatError> {
        let (w, h) = (self.map.width(), self.map.height());
        let cell = |c: Coord| {
            if !((1..=h).contains(&c.row) && (1..=w).contains(&c.col)) {
                return Err(format!("is outside the {w}x{h} map (rows 1..={h}, columns 1..={w})"));
            }
            match self.id[((c.row - 1) * w + (c.col - 1)) as usize] {
                u32::MAX => Err("is a wall".to_string()),
                id => Ok(id),
            }
        };
        let (queen, army, queen_to_move) = parse_two_cells(text, ["queen", "army"], ["q", "a"], cell)?;
        Ok(QueensPosition { queen, army, queen_to_move })
    }

    fn format_position(&self, p: &QueensPosition) -> String {
        format_two_cells(self.coord(p.queen), self.coord(p.army), if p.queen_to_move { "q" } else { "a" })
    }
}

/// `Q` queen, `A` army, `X` both (caught), `E` exit, `#` wall, `.` floor.
impl DrawnBoard for QueensCase {
    fn drawn_rows(&self, p: &QueensPosition) -> Vec<String> {
        let map = self.map();
        let (queen, army) = (self.coord(p.queen), self.coord(p.army));
        let rows: Vec<String> = (0..map.height())
            .map(|r| {
                (0..map.width())
                    .map(|c| {
                        let here = |at: Coord| at.row == r + 1 && at.col == c + 1;
                        match (here(queen), here(army), map.cell(r, c)) {
                            (true, true, _) => 'X',
                            (true, false, _) => 'Q',
                            (false, true, _) => 'A',
                            (_, _, Cell::Wall) => '#',
                            (_, _, Cell::Exit) => 'E',
                            (_, _, Cell::Floor) => '.',
                        }
                    })
                    .collect()
            })
            .collect();
        rows
    }
}
