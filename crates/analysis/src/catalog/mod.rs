//! The catalog: one entry per game, and the only place a game's name becomes a type.
//!
//! Every front end (the command line, the Python package, the server's game list
//! and its web page, the fuzz targets) loops over [`CATALOG`] and takes its
//! decisions from here, as OpenSpiel's registry is the one place `LoadGame("name")`
//! is dispatched. An entry says what a user sees of a game (name, title, sides, the
//! variant's typed parameters with ranges from the game's own constants, notation,
//! an example, the board's characters, how a picture of the board shows them and
//! how a board is set up by clicking: [`Look`], [`Editing`]); [`CatalogGame`] says
//! what a solver needs of it (how to solve it whole, how to store it), and
//! [`open_tablebase`], [`with_variant`], [`with_setup_game`] and
//! [`with_stored_variant`] are the places a name picks a type. Which solver answers
//! a position or solves a game whole is the [`policy`], one function per game kind.
//!
//! | game          | variant (`Setup::variant`)                 | position (plain notation)  | solver                                     |
//! |---------------|--------------------------------------------|----------------------------|--------------------------------------------|
//! | `pawns`       | none: the position gives the board size    | `pppp/..../..../PPPP w`    | whole board solved once (≤ 16 cells), else alpha-beta |
//! | `chase`       | `size` (n)                                 | `1,1 4,4 w`                | retrograde, once per size                  |
//! | `queens-case` | `map` (rows joined by `/`)                 | `1,1 3,4 q`                | retrograde, once per map                   |
//! | `snakes`      | none: the position is the board            | `1../.../..2 1`            | alpha-beta                                 |
//! | `rules`       | none: the position is the board (and map)  | `BBB/.../WWW w`            | alpha-beta if no position can repeat and nothing ties, else retrograde; the rules given with [`crate::Analyzer::with_rules`] |
//!
//! Adding a built-in game: docs/architecture.md, "Adding a built-in game".

mod contest;
pub mod policy;
mod typed;

pub use contest::{Contest, ContestError, Judging};
pub use policy::{Policy, SearchBound, Solver, WholeSolver};
pub use typed::{
    build_tablebase, open_tablebase, with_setup_game, with_stored_variant, with_variant, BuildPlan, Built, CatalogGame,
    ClusterBuild, Layout, TablebaseVisitor, VariantVisitor, FAILURES_SHOWN,
};

use crate::{AnalysisError, Setup};
use gsolve_engine::Value;
use gsolve_games::{chase, pawns};
use std::fmt;

/// The games the front ends offer: a handle on a catalog [`Entry`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Pawn chess (UVa 10838), any R×C board.
    Pawns,
    /// The CQOI 2013 board game.
    Chase,
    /// Queen's Case.
    QueensCase,
    /// Two snakes (alternating Tron).
    Snakes,
    /// The game of a rules file (docs/rules.md), which the [`crate::Analyzer`] holds
    /// ([`crate::Analyzer::with_rules`], or a tablebase of the rules).
    Rules,
}

/// The keys of variant and board parameters, as every front end spells them.
pub mod key {
    /// A chase board's side.
    pub const SIZE: &str = "size";
    /// Rows of a start board.
    pub const ROWS: &str = "rows";
    /// Columns of a start board.
    pub const COLS: &str = "cols";
    /// A map: its rows joined by `/`.
    pub const MAP: &str = "map";
    /// A rules game's piece limits (a stored variant's, not a user's).
    pub const PIECES: &str = "pieces";
}

/// What a parameter holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParameterKind {
    /// A whole number from `min` to `max`; `default` for a menu.
    Number {
        /// The least value.
        min: u32,
        /// The greatest value.
        max: u32,
        /// The value a menu starts from.
        default: u32,
    },
    /// A map: rows of cells joined by `/`.
    Map {
        /// The characters a map is written with.
        cells: &'static str,
    },
}

/// One parameter of a game's variant or start board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parameter {
    /// Its key ([`key`]).
    pub key: &'static str,
    /// What it holds.
    pub kind: ParameterKind,
    /// True when a position needs it beside its notation (chase's size, Queen's
    /// Case's map); false when it only sets the start's board (a pawns position
    /// carries its board).
    pub variant: bool,
    /// What it is, for help texts.
    pub help: &'static str,
}

/// A side: its name and the letter the notation gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    /// The name, as [`gsolve_games::notation::Explain::side_to_move`] gives it.
    pub name: &'static str,
    /// The side-to-move token of the plain notation.
    pub code: &'static str,
}

/// What a character of a drawn board stands for, so that a front end can give each
/// kind of thing its own look. Sides are 0 or 1, in the order of [`Entry::sides`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellRole {
    /// A side's piece.
    Piece(usize),
    /// The head of a side's trail (snakes).
    Head(usize),
    /// A cell a side's trail has taken.
    Trail(usize),
    /// A cell a side wants to reach (an exit).
    Goal,
}

/// A colour a front end draws a piece or a trail in. The web page's stylesheet
/// (crates/cli/assets/style.css) has a class of each [`Colour::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// White (a first side's piece).
    White,
    /// Black (a second side's piece).
    Black,
    /// Purple.
    Purple,
    /// Brown.
    Brown,
    /// Blue.
    Blue,
    /// Orange.
    Orange,
}

impl Colour {
    /// Its name, as the web API gives it.
    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
            Colour::Purple => "purple",
            Colour::Brown => "brown",
            Colour::Blue => "blue",
            Colour::Orange => "orange",
        }
    }
}

/// How a character of a drawn board is shown as a picture (the web page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// A disc of the colour with the character on it.
    Disc(Colour),
    /// A pawn of the colour.
    Pawn(Colour),
    /// The cell itself shaded in a light tone of the colour (a trail).
    Shade(Colour),
    /// The cell shaded as a goal, with this word on it.
    Word(&'static str),
}

/// How a character of a drawn board is shown in a terminal and on the web page.
/// The marks every board may have (`#` a wall, `.` an empty cell, and `X` both
/// pieces on one cell where [`Editing::both`] says so) are the front ends' own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyph {
    /// The character of the board as [`crate::Board`] draws it.
    pub cell: char,
    /// The Unicode symbol shown instead in a terminal.
    pub symbol: char,
    /// What it stands for.
    pub role: CellRole,
    /// How the web page draws it.
    pub look: Look,
}

/// How a board set up cell by cell is written as a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// The rows joined by `/`, then the side to move's code: `pppp/..../..../PPPP w`.
    Board,
    /// The cells of the two [`Editing::unique`] pieces, in order, each as
    /// `row,column` (1-based), then the side to move's code: `1,1 4,4 w`.
    Cells,
}

/// How a board is set up by clicking its cells (the web page's editing), and how
/// the board then becomes a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Editing {
    /// How the board is written as a position.
    pub written: Written,
    /// What a click puts on a cell, in turn, from the empty cell (`.`; on a map,
    /// the map's cell there) on; after the last, the cell is empty again. A
    /// character neither in the cycle nor [`Editing::fixed`] (a capture's `X`, a
    /// snake's body) becomes empty.
    pub cycle: &'static str,
    /// The pieces a board holds one of each: placing one takes it off the cell it
    /// stood on (off a [`Editing::both`] cell, which keeps the other).
    pub unique: &'static str,
    /// The character of a cell with both unique pieces on it (a capture), if the
    /// board can show one.
    pub both: Option<char>,
    /// The characters a click leaves alone (a map's walls).
    pub fixed: &'static str,
    /// What a click does, in a sentence for the page.
    pub help: &'static str,
}

/// A game of the catalog.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The handle.
    pub kind: GameKind,
    /// The name used on the command line, in files and in the web API.
    pub name: &'static str,
    /// A title for menus.
    pub title: &'static str,
    /// The sides, the side moving first at the start first.
    pub sides: [Side; 2],
    /// The variant and start-board parameters.
    pub parameters: &'static [Parameter],
    /// How positions are written, in one line.
    pub notation: &'static str,
    /// A position to start from, in plain notation.
    pub example_position: &'static str,
    /// The example's variant parameters.
    pub example_variant: &'static [(&'static str, &'static str)],
    /// The characters of a drawn board and what they are.
    pub cells: &'static [(char, &'static str)],
    /// The symbols of a drawn board's characters in a terminal and their looks on
    /// the web page.
    pub glyphs: &'static [Glyph],
    /// True when the board's squares are drawn alternately light and dark.
    pub checkered: bool,
    /// How a board is set up by clicking its cells.
    pub editing: Editing,
    /// True when a tablebase of the game can be built ([`CatalogGame`]).
    pub stored: bool,
    /// The answer line of the game's contest format for a value of a case's start
    /// (`true`: the contest's first side is to move); `None` for a game without one.
    /// A rules file may allow what the contest cannot (a draw in pawn chess), which
    /// is then said in words.
    pub contest_line: Option<fn(bool, Value) -> String>,
    /// Reads a file with one map in the game's own format into its `map`
    /// parameter (rows joined by `/`); `None` for a game without a map of its own.
    pub map_file: Option<MapReader>,
    /// The `build` command of a game built from its variant parameters (a number
    /// a flag, a map a file); `None` for a game built otherwise (rules: from a
    /// file) or not at all.
    pub build: Option<BuildHelp>,
    /// The game's contest judged by solving (a command of its own); `None` for a
    /// game without one, or whose contest command searches (pawns, snakes).
    pub contest: Option<&'static Contest>,
    /// The largest boards its alpha-beta search takes on ([`policy`]); `None` for a
    /// game whose search is bounded by the node budget alone, or that is not
    /// searched.
    pub search: Option<SearchBound>,
}

/// The help of a game's `build` command.
#[derive(Clone, Copy, Debug)]
pub struct BuildHelp {
    /// What is stored, in one line.
    pub about: &'static str,
    /// More on how it is built (after the line above).
    pub more: &'static str,
    /// Built tier by tier on disk: the build takes a memory cap and a work directory.
    pub tiers: bool,
}

/// Reads a map file's text into a `map` parameter; the error says what is wrong and
/// where.
pub type MapReader = fn(&str) -> Result<String, String>;

impl Parameter {
    /// The placeholder for its value in help text: `R`, `C`, `N`, `MAP`.
    pub fn value_name(&self) -> &'static str {
        match self.key {
            key::ROWS => "R",
            key::COLS => "C",
            key::SIZE => "N",
            key::MAP => "MAP",
            key::PIECES => "PIECES",
            _ => "VALUE",
        }
    }
}

const fn number(key: &'static str, min: u32, max: u32, default: u32, variant: bool, help: &'static str) -> Parameter {
    Parameter { key, kind: ParameterKind::Number { min, max, default }, variant, help }
}

/// The largest snakes start board offered: an open square whose cells fit the
/// 128-bit masks (11 × 11 = 121 cells).
const SNAKES_START_SIDE: u32 = 11;

/// Every game, in menu order ([`GameKind::Rules`] last: offered when rules are given).
pub static CATALOG: [Entry; 5] = [
    Entry {
        kind: GameKind::Pawns,
        name: "pawns",
        title: "Pawn chess",
        sides: [Side { name: "white", code: "w" }, Side { name: "black", code: "b" }],
        parameters: &[
            number(key::ROWS, pawns::MIN_SIDE, pawns::MAX_SIDE, 4, false, "rows of the board"),
            number(key::COLS, pawns::MIN_SIDE, pawns::MAX_SIDE, 4, false, "columns of the board"),
        ],
        notation: "rows top to bottom joined by '/' (P white, p black, . empty), then w or b",
        example_position: "pppp/..../..../PPPP w",
        example_variant: &[],
        cells: &[('P', "white pawn"), ('p', "black pawn"), ('.', "empty")],
        glyphs: &[
            Glyph { cell: 'P', symbol: '♙', role: CellRole::Piece(0), look: Look::Pawn(Colour::White) },
            Glyph { cell: 'p', symbol: '♟', role: CellRole::Piece(1), look: Look::Pawn(Colour::Black) },
        ],
        checkered: true,
        editing: Editing {
            written: Written::Board,
            cycle: ".Pp",
            unique: "",
            both: None,
            fixed: "",
            help: "Click a cell: empty → white pawn → black pawn → empty.",
        },
        stored: true,
        contest_line: Some(pawns_line),
        map_file: None,
        build: Some(BuildHelp {
            about: "Pawn chess on an R×C board: every position of the tight index (at most C pawns a side, none on its goal rank), solved tier by tier on disk",
            more: "Tiers by (white pawns, black pawns) are solved in order and saved under the work directory; a build stopped at any point (Ctrl-C, kill, power off) and started again with the same command goes on from the last finished tier and writes the same file. The work directory is removed when the file is written.",
            tiers: true,
        }),
        contest: None,
        // Up to 6×6, the largest start a user at the command line waits for; 5×5
        // for a page that answers within about a second (docs/performance.md).
        search: Some(SearchBound { cells: 36, budgeted_cells: 25 }),
    },
    Entry {
        kind: GameKind::Chase,
        name: "chase",
        title: "Chase (CQOI 2013)",
        sides: [Side { name: "white", code: "w" }, Side { name: "black", code: "b" }],
        parameters: &[number(key::SIZE, chase::MIN_SIZE, chase::MAX_SIZE, 4, true, "the board size")],
        notation: "white's cell and black's cell as row,column (1-based), then w or b",
        example_position: "1,1 4,4 w",
        example_variant: &[(key::SIZE, "4")],
        cells: &[('W', "white"), ('B', "black"), ('X', "both (a capture)"), ('.', "empty")],
        glyphs: &[
            Glyph { cell: 'W', symbol: '○', role: CellRole::Piece(0), look: Look::Disc(Colour::White) },
            Glyph { cell: 'B', symbol: '●', role: CellRole::Piece(1), look: Look::Disc(Colour::Black) },
        ],
        checkered: true,
        editing: Editing {
            written: Written::Cells,
            cycle: ".WB",
            unique: "WB",
            both: Some('X'),
            fixed: "",
            help: "Click a cell: white → black → empty (placing a piece moves it there).",
        },
        stored: true,
        contest_line: Some(|_, value| gsolve_games::chase::Chase::verdict(value)),
        map_file: None,
        build: Some(BuildHelp {
            about: "The CQOI 2013 board game on an n×n board: every pair of cells, either side to move",
            more: "",
            tiers: false,
        }),
        contest: Some(&contest::CHASE),
        search: None,
    },
    Entry {
        kind: GameKind::QueensCase,
        name: "queens-case",
        title: "Queen's Case",
        sides: [Side { name: "queen", code: "q" }, Side { name: "army", code: "a" }],
        parameters: &[Parameter {
            key: key::MAP,
            kind: ParameterKind::Map { cells: ".#EQA" },
            variant: true,
            help: "a map",
        }],
        notation: "the queen's cell and the army's cell as row,column (1-based), then q or a",
        example_position: "1,1 4,5 q",
        example_variant: &[(key::MAP, "Q...E/.##../..#../E...A")],
        cells: &[
            ('Q', "queen"),
            ('A', "army"),
            ('X', "both (caught)"),
            ('E', "exit"),
            ('#', "wall"),
            ('.', "floor"),
        ],
        glyphs: &[
            Glyph { cell: 'Q', symbol: '♛', role: CellRole::Piece(0), look: Look::Disc(Colour::Purple) },
            Glyph { cell: 'A', symbol: '♜', role: CellRole::Piece(1), look: Look::Disc(Colour::Brown) },
            Glyph { cell: 'E', symbol: '⌂', role: CellRole::Goal, look: Look::Word("exit") },
        ],
        checkered: false,
        editing: Editing {
            written: Written::Cells,
            cycle: ".QA",
            unique: "QA",
            both: Some('X'),
            fixed: "#",
            help: "Click an open cell: queen → army → floor (placing a piece moves it there). \
                   The map is a board setting.",
        },
        stored: true,
        contest_line: Some(|_, value| gsolve_games::queens_case::QueensCase::verdict(value).to_string()),
        map_file: Some(queens_map),
        build: Some(BuildHelp {
            about: "Queen's Case on one map: every pair of open cells, either side to move",
            more: "",
            tiers: false,
        }),
        contest: Some(&contest::QUEENS_CASE),
        search: None,
    },
    Entry {
        kind: GameKind::Snakes,
        name: "snakes",
        title: "Two snakes",
        sides: [Side { name: "snake 1", code: "1" }, Side { name: "snake 2", code: "2" }],
        parameters: &[
            number(key::ROWS, 1, SNAKES_START_SIDE, 5, false, "rows of the start's open board"),
            number(key::COLS, 2, SNAKES_START_SIDE, 5, false, "columns of the start's open board"),
        ],
        notation: "rows joined by '/' (. free, # obstacle, 1 and 2 the heads, a and b their bodies), then 1 or 2",
        example_position: "1..../...../..#../...../....2 1",
        example_variant: &[],
        cells: &[
            ('1', "snake 1's head"),
            ('2', "snake 2's head"),
            ('a', "snake 1's body"),
            ('b', "snake 2's body"),
            ('#', "obstacle"),
            ('.', "free"),
        ],
        glyphs: &[
            Glyph { cell: '1', symbol: '1', role: CellRole::Head(0), look: Look::Disc(Colour::Blue) },
            Glyph { cell: '2', symbol: '2', role: CellRole::Head(1), look: Look::Disc(Colour::Orange) },
            Glyph { cell: 'a', symbol: '▒', role: CellRole::Trail(0), look: Look::Shade(Colour::Blue) },
            Glyph { cell: 'b', symbol: '▒', role: CellRole::Trail(1), look: Look::Shade(Colour::Orange) },
        ],
        checkered: false,
        editing: Editing {
            written: Written::Board,
            cycle: ".#12",
            unique: "12",
            both: None,
            fixed: "",
            help: "Click a cell: free → obstacle → head 1 → head 2 → free \
                   (placing a head moves it there); a body (a, b) becomes free.",
        },
        stored: false,
        contest_line: Some(snakes_line),
        map_file: None,
        build: None,
        contest: None,
        // Any board gsolve reads; 50 free cells for a page that answers within
        // about a second (the snakes' search rate: docs/performance.md).
        search: Some(SearchBound { cells: gsolve_games::snakes::MAX_EMPTY as u32, budgeted_cells: 50 }),
    },
    Entry {
        kind: GameKind::Rules,
        name: "rules",
        title: "Rules file",
        sides: [Side { name: "first", code: "" }, Side { name: "second", code: "" }],
        parameters: &[
            number(key::ROWS, 1, gsolve_rules::spec::MAX_SIDE as u32, 0, false, "rows of the start's board"),
            number(key::COLS, 1, gsolve_rules::spec::MAX_SIDE as u32, 0, false, "columns of the start's board"),
            Parameter {
                key: key::MAP,
                kind: ParameterKind::Map { cells: ".#" },
                variant: false,
                help: "the start's map",
            },
        ],
        notation:
            "rows joined by '/' (. empty, # wall, the rules' piece letters and zone marks), then the side to move's letter",
        example_position: "",
        example_variant: &[],
        cells: &[('#', "wall"), ('.', "empty")],
        // The rules name their pieces' letters and sides: the analyzer knows them.
        glyphs: &[],
        checkered: true,
        // A click puts the rules' pieces in turn, and leaves their zones' marks
        // alone: the front end adds their letters ([`crate::Analyzer::rules_pieces`]).
        editing: Editing {
            written: Written::Board,
            cycle: ".",
            unique: "",
            both: None,
            fixed: "#",
            help: "Click a cell: empty → each piece of the rules in turn → empty; \
                   walls and marked cells stay.",
        },
        stored: true,
        contest_line: None,
        map_file: None,
        build: None,
        contest: None,
        search: None,
    },
];

/// A Queen's Case map file (the contest's `W H` and H rows) as the `map` parameter.
fn queens_map(text: &str) -> Result<String, String> {
    let map = gsolve_games::queens_case::Map::parse(text).map_err(|e| e.to_string())?;
    let game = gsolve_games::queens_case::QueensCase::new(&map);
    let parameters = gsolve_engine::Variant::parameters(&game);
    Ok(parameters.into_iter().find(|(k, _)| k == key::MAP).map(|(_, v)| v).unwrap_or_default())
}

/// UVa 10838's line: `white (x)` or `black (x)`.
fn pawns_line(first_to_move: bool, value: Value) -> String {
    let first_wins = matches!(value, Value::Win(_)) == first_to_move;
    match value {
        Value::Win(r) | Value::Loss(r) => format!("{} ({r})", if first_wins { "white" } else { "black" }),
        Value::Tie(r) => format!("tie ({r})"),
        Value::Draw => "draw".to_string(),
    }
}

/// The two snakes' line: the winner and the 1-based ply on which the loser is stuck.
fn snakes_line(first_to_move: bool, value: Value) -> String {
    let (mover, other) = if first_to_move { (1, 2) } else { (2, 1) };
    match value {
        Value::Win(r) => format!("{mover} {}", r + 1),
        Value::Loss(r) => format!("{other} {}", r + 1),
        Value::Tie(r) => format!("tie {}", r + 1),
        Value::Draw => "draw".to_string(),
    }
}

impl GameKind {
    /// Every built-in game, in menu order ([`GameKind::Rules`] is offered by an
    /// analyzer that has rules: [`crate::Analyzer::games`]).
    pub const ALL: [GameKind; 4] = [GameKind::Pawns, GameKind::Chase, GameKind::QueensCase, GameKind::Snakes];

    /// The game's catalog entry.
    pub fn entry(self) -> &'static Entry {
        CATALOG.iter().find(|e| e.kind == self).expect("every game has an entry")
    }

    /// The name used on the command line, in files and in the web API.
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// A title for menus.
    pub fn title(self) -> &'static str {
        self.entry().title
    }

    /// The game with this name.
    pub fn from_name(name: &str) -> Result<GameKind, AnalysisError> {
        CATALOG.iter().find(|e| e.name == name).map(|e| e.kind).ok_or_else(|| AnalysisError::UnknownGame(name.into()))
    }

    /// How positions are written, in one line.
    pub fn notation_help(self) -> &'static str {
        self.entry().notation
    }

    /// A setup to start from: the Octapawn start, chase on 4×4, a small Queen's Case
    /// map, snakes on 5×5. A rules game's start depends on its rules: this gives an
    /// empty position, which an analysis refuses; ask [`crate::Analyzer::example`].
    pub fn example(self) -> Setup {
        let entry = self.entry();
        entry.example_variant.iter().fold(Setup::new(self, entry.example_position), |s, (k, v)| s.with(k, *v))
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The catalog's names, as a list for messages: `pawns, chase, queens-case, snakes or rules`.
pub fn names(filter: impl Fn(&Entry) -> bool) -> String {
    let names: Vec<&str> = CATALOG.iter().filter(|e| filter(e)).map(|e| e.name).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl Entry {
    /// The parameter of this key, if the game takes it.
    pub fn parameter(&self, key: &str) -> Option<&'static Parameter> {
        self.parameters.iter().find(|p| p.key == key)
    }

    /// The names of the sides.
    pub fn side_names(&self) -> [&'static str; 2] {
        self.sides.map(|s| s.name)
    }

    /// The value of the number parameter `key` read from `text`, within its range;
    /// the error names the game, the key and the range.
    pub fn number(&self, key: &str, text: &str) -> Result<u32, AnalysisError> {
        let Some(Parameter { kind: ParameterKind::Number { min, max, .. }, .. }) = self.parameter(key) else {
            return Err(AnalysisError::BadVariant(format!("{}: no number parameter {key:?}", self.name)));
        };
        text.parse::<u32>().ok().filter(|n| (*min..=*max).contains(n) && n.to_string() == text).ok_or_else(|| {
            AnalysisError::BadVariant(format!(
                "{}: {key} = {} must be a whole number from {min} to {max}",
                self.name,
                gsolve_games::text::excerpt(text)
            ))
        })
    }

    /// The symbol and side of a drawn board's character, if it has one.
    pub fn glyph(&self, cell: char) -> Option<&'static Glyph> {
        self.glyphs.iter().find(|g| g.cell == cell)
    }

    /// Only the parameters that travel with a position (drops those that only set
    /// the start's board).
    pub fn variant_of(&self, parameters: &[(String, String)]) -> Vec<(String, String)> {
        parameters.iter().filter(|(k, _)| self.parameter(k).is_some_and(|p| p.variant)).cloned().collect()
    }
}

/// The Queen's Case map of a `map` parameter (rows joined by `/`) as the game's own
/// variant parameters.
pub(crate) fn queens_parameters(map: &str) -> Vec<(String, String)> {
    let rows: Vec<&str> = map.split('/').collect();
    vec![
        ("width".to_string(), rows[0].chars().count().to_string()),
        ("height".to_string(), rows.len().to_string()),
        (key::MAP.to_string(), map.to_string()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each entry's editing and looks fit its board's characters: what a click puts,
    /// leaves alone or reads back is a character of `cells`, and a board written as
    /// cells has two unique pieces, one of each side, in the order of the sides.
    #[test]
    fn editing_fits_the_board() {
        for entry in &CATALOG {
            let name = entry.name;
            let editing = &entry.editing;
            let drawn = |c: char| entry.cells.iter().any(|(cell, _)| *cell == c);
            assert!(editing.cycle.starts_with('.'), "{name}: a click cycles from the empty cell");
            assert!(!editing.help.is_empty(), "{name}");
            for c in editing.cycle.chars().chain(editing.unique.chars()).chain(editing.fixed.chars()) {
                assert!(drawn(c), "{name}: {c:?} is no character of its board");
                assert!(!(editing.cycle.contains(c) && editing.fixed.contains(c)), "{name}: {c:?} cycles and stays");
            }
            assert!(
                editing.unique.chars().all(|c| editing.cycle.contains(c)),
                "{name}: a unique piece is put by a click"
            );
            assert!(editing.both.is_none_or(|c| drawn(c) && editing.unique.chars().count() == 2), "{name}");
            if editing.written == Written::Cells {
                let sides: Vec<Option<usize>> = editing
                    .unique
                    .chars()
                    .map(|c| match entry.glyph(c).map(|g| g.role) {
                        Some(CellRole::Piece(side) | CellRole::Head(side)) => Some(side),
                        _ => None,
                    })
                    .collect();
                assert_eq!(sides, [Some(0), Some(1)], "{name}: the unique pieces are the sides' pieces, in order");
            }
            for glyph in entry.glyphs {
                assert!(drawn(glyph.cell), "{name}: the glyph {:?} is no character of its board", glyph.cell);
            }
            for parameter in entry.parameters {
                if let ParameterKind::Map { cells } = parameter.kind {
                    assert!(cells.chars().all(drawn), "{name}: a map character is no character of its board");
                }
            }
        }
    }
}
