//! The rules as a file states them, checked: sides, pieces and their moves, zones,
//! endings and the start. Nothing here depends on a board size; [`crate::compiled::board`]
//! makes a board from these rules.
//!
//! Every key is documented in docs/rules.md; [`Rules::parse`] (module
//! `reader`) reads a file into these types.

use gsolve_engine::Outcome;

/// The most piece kinds a rules file may define.
pub const MAX_KINDS: usize = 16;
/// The largest number of rows or columns of a board.
pub const MAX_SIDE: i64 = 256;

/// A game described by a rules file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The file's text, exactly as read: a tablebase stores it to rebuild the game.
    pub text: String,
    /// Short name for files and messages (`[game] name`).
    pub name: String,
    /// A title for menus (`[game] title`, the name if absent).
    pub title: String,
    /// The two sides; the first is the one to move in the start position.
    pub sides: [SideRules; 2],
    /// The board, before a size or map is chosen.
    pub board: BoardRules,
    /// The piece kinds.
    pub kinds: Vec<KindRules>,
    /// Named sets of cells.
    pub zones: Vec<ZoneRules>,
    /// How the game ends, in file order.
    pub endings: Vec<Ending>,
    /// The start position, if the file gives one.
    pub start: Option<Start>,
    /// A side with no legal move passes (`[game] pass = true`); play ends when
    /// neither side can move (a `no-moves` ending says how).
    pub pass: bool,
    /// The game ends in a score (`[score]`): its values are margins.
    pub score: Option<ScoreRules>,
}

/// How a game with a score counts it (`[score]`): a number for each side when
/// play ends; the value of a position is the final margin of the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreRules {
    /// What each side counts.
    pub count: ScoreCount,
    /// The empty cells go to the winner (the World Othello Federation's rule):
    /// the margin grows by them; a level game stays level.
    pub empty_to_winner: bool,
}

/// What a side's score counts. Pieces captured or in a store are the ways
/// this grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreCount {
    /// The side's pieces on the board.
    Pieces,
}

/// Flipping by bracketing (Othello): a dropped piece turns every run of enemy
/// pieces it brackets, along the chosen directions, into the mover's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flips {
    /// Along rows and columns.
    pub orthogonal: bool,
    /// Along diagonals.
    pub diagonal: bool,
    /// A drop must flip at least one piece.
    pub must_flip: bool,
}

/// One side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideRules {
    /// Its name, e.g. `white`.
    pub name: String,
    /// The letter that names it as the side to move in a position, e.g. `w`.
    pub letter: char,
    /// The direction its pieces call forward.
    pub forward: Facing,
    /// Whether one piece or every piece moves in a turn.
    pub turn: Turn,
}

/// A side's forward direction on the board as drawn (row 1 at the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    /// Toward row 1.
    Up,
    /// Toward the last row.
    Down,
    /// Toward column 1.
    Left,
    /// Toward the last column.
    Right,
}

impl Facing {
    /// A step of `forward` rows ahead and `right` columns to the right, as the side
    /// sees the board, in board terms (rows down, columns right). A side facing
    /// down sees the board turned half round: its right is the board's left.
    pub fn turn(self, (forward, right): (i32, i32)) -> (i32, i32) {
        match self {
            Facing::Up => (-forward, right),
            Facing::Down => (forward, -right),
            Facing::Left => (-right, -forward),
            Facing::Right => (right, forward),
        }
    }
}

/// Which pieces move in a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// One piece of the side moves (or, where a piece may stay, the side passes).
    OnePiece,
    /// Every piece of the side moves at once, each by one of its moves or staying
    /// where it may (cops and robbers). Pieces do not capture in such turns.
    AllPieces,
}

/// The board before a size is chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRules {
    /// Default number of rows (`--rows` changes it).
    pub rows: Option<u32>,
    /// Default number of columns (`--cols` changes it).
    pub cols: Option<u32>,
    /// Walls and marked cells come with the position (or `--map`), not the rules.
    pub map: bool,
    /// Which cells of the grid are part of the board.
    pub cells: CellColour,
}

/// Which cells of a grid are playable, by the chessboard pattern (the top-left
/// cell is light).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellColour {
    /// Every cell.
    All,
    /// The dark cells only (row + column odd, 1-based).
    Dark,
    /// The light cells only.
    Light,
}

/// A piece kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindRules {
    /// Its name, e.g. `pawn`.
    pub name: String,
    /// The letter of this kind for each side, `None` where the side has no such piece.
    pub letters: [Option<char>; 2],
    /// How it moves.
    pub moves: Vec<MoveRule>,
    /// It may stay where it is as its move.
    pub stay: bool,
    /// A cell it leaves becomes a wall.
    pub trail: bool,
    /// It may be dropped (placed from its side's supply) onto the board.
    pub drop: Option<DropRule>,
    /// Captured, it goes to the captor's hand as a piece of this kind (index into
    /// [`Rules::kinds`]: itself, or the kind it was promoted from); `None`: it
    /// leaves the game.
    pub to_hand: Option<usize>,
    /// It becomes another kind on a move that ends in a zone.
    pub promote: Option<Promotion>,
}

/// A piece kind that becomes another on a move (not a drop) ending in a zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Promotion {
    /// The kind it becomes (index into [`Rules::kinds`]).
    pub to: usize,
    /// The zone (index into [`Rules::zones`]), the side's part.
    pub zone: usize,
    /// It must promote there (else the player chooses).
    pub forced: bool,
}

/// How a piece enters the board: dropped from its side's supply onto an empty cell
/// (one a turn, instead of moving a piece).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DropRule {
    /// The supply is the side's hand, counted in the position (the start's hand,
    /// and captured pieces); otherwise it never runs out.
    pub from_hand: bool,
    /// Only onto cells of this zone (index into [`Rules::zones`]), the side's part.
    pub zone: Option<usize>,
    /// Dropped into a column, the piece falls from the top row to the lowest empty
    /// cell it can reach (Connect 4): it stops above a piece, a wall or the bottom.
    pub gravity: bool,
    /// The drop flips the enemy runs it brackets.
    pub flips: Option<Flips>,
}

/// One way a piece moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    /// Step vectors as (forward, right) from the owner's side.
    pub vectors: Vec<(i32, i32)>,
    /// How many steps along a vector: up to this many, `None` for sliding until
    /// blocked.
    pub range: Option<u32>,
    /// What the move may land on.
    pub onto: Onto,
    /// Cells passed over do not block (walls and pieces alike).
    pub leap: bool,
}

/// What a move may land on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Onto {
    /// Only an empty cell.
    Empty,
    /// Only a cell with an enemy piece (a capture, or a meeting that ends the game).
    Enemy,
    /// Either.
    Any,
}

impl Onto {
    /// May land on an empty cell.
    pub fn empty(self) -> bool {
        matches!(self, Onto::Empty | Onto::Any)
    }
    /// May land on an enemy piece.
    pub fn enemy(self) -> bool {
        matches!(self, Onto::Enemy | Onto::Any)
    }
}

/// A named set of cells, possibly different for each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZoneRules {
    /// Its name.
    pub name: String,
    /// The cells, for each side.
    pub cells: [CellSet; 2],
}

/// Cells described independently of the board's size.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellSet {
    /// Whole rows, 1-based from the top; negative from the bottom (-1 is the last).
    pub rows: Vec<i32>,
    /// Whole columns, 1-based from the left; negative from the right.
    pub cols: Vec<i32>,
    /// Single cells (row, column), same conventions.
    pub cells: Vec<(i32, i32)>,
    /// Single cells as (row, column) offsets from the board's centre cell (the
    /// middle one, the upper left of the central four on an even board).
    pub centre: Vec<(i32, i32)>,
    /// Cells marked with one of these letters in the map.
    pub marks: Vec<char>,
    /// The side's farthest row forward (the opponent's home row for facing sides).
    pub far_row: bool,
    /// The side's row farthest back.
    pub home_row: bool,
}

/// How a game can end. Each is checked at every position, the side that just moved
/// first, then the side to move (docs/rules.md, "`[[end]]`").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A piece of a side stands in the side's part of a zone.
    Reach {
        /// Index into [`Rules::zones`].
        zone: usize,
        /// The kinds that count (indices into [`Rules::kinds`]); all if `None`.
        kinds: Option<Vec<usize>>,
        /// The sides it applies to.
        sides: [bool; 2],
        /// When it is checked.
        check: Check,
        /// The result for the side whose piece stands there.
        result: Outcome,
    },
    /// Two pieces of these kinds (of different sides) meet on one cell, whoever moved.
    Meet {
        /// The two kinds.
        kinds: [usize; 2],
        /// The winning side, or `None` for a tie.
        winner: Option<usize>,
    },
    /// A side has no piece left.
    NoPieces {
        /// The sides it applies to.
        sides: [bool; 2],
        /// The result for that side.
        result: Outcome,
    },
    /// A side has `length` of its pieces in a row, column or diagonal.
    Line {
        /// How many in a row.
        length: u32,
        /// Along rows and columns.
        orthogonal: bool,
        /// Along diagonals.
        diagonal: bool,
        /// The kinds that count (indices into [`Rules::kinds`]); all if `None`.
        kinds: Option<Vec<usize>>,
        /// The sides it applies to.
        sides: [bool; 2],
        /// The result for the side with the line.
        result: Outcome,
    },
    /// A piece of these kinds is captured (a royal piece).
    Captured {
        /// The kinds (indices into [`Rules::kinds`]).
        kinds: Vec<usize>,
        /// The result for the side whose piece is captured.
        result: Outcome,
    },
    /// Every playable cell holds a piece.
    Full {
        /// The result for the side to move.
        result: Outcome,
    },
    /// The side to move has no legal move.
    Stuck {
        /// The result for the stuck side.
        result: Outcome,
    },
    /// Neither side has a legal move (a game where a stuck side passes).
    NoMoves {
        /// The result for the side to move.
        result: Outcome,
    },
    /// Play ends and the score decides (`result = "score"`).
    Scored {
        /// When play ends.
        when: ScoredEnd,
    },
}

/// When a game with a score ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoredEnd {
    /// Every playable cell holds a piece.
    Full,
    /// Neither side has a legal move.
    NoMoves,
}

/// When a [`Ending::Reach`] is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// As soon as the piece stands there (pawns reaching the far row).
    AfterMove,
    /// Only when its side is to move again: the opponent had a reply (Queen's Case).
    AfterReply,
}

/// The start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// A position in plain notation, for the default board.
    Text(String),
    /// Pieces placed by cell sets, for any board size.
    Place {
        /// The side to move.
        to_move: usize,
        /// (side, kind, cells) to fill.
        pieces: Vec<(usize, usize, CellSet)>,
        /// The pieces in hand, as a position writes them (`CCc`; empty for none).
        hand: String,
    },
}

impl Rules {
    /// The side with this name.
    pub fn side_named(&self, name: &str) -> Option<usize> {
        self.sides.iter().position(|s| s.name == name)
    }

    /// The kind with this name.
    pub fn kind_named(&self, name: &str) -> Option<usize> {
        self.kinds.iter().position(|k| k.name == name)
    }

    /// The (side, kind) whose piece letter is `letter`.
    pub fn piece_with_letter(&self, letter: char) -> Option<(usize, usize)> {
        self.kinds
            .iter()
            .enumerate()
            .find_map(|(k, kind)| kind.letters.iter().position(|&l| l == Some(letter)).map(|side| (side, k)))
    }

    /// True when some piece leaves a trail: the positions then include walls, and
    /// the game is solved by search.
    pub fn has_trails(&self) -> bool {
        self.kinds.iter().any(|k| k.trail)
    }

    /// True when some piece is dropped onto the board: moves add pieces.
    pub fn has_drops(&self) -> bool {
        self.kinds.iter().any(|k| k.drop.is_some())
    }

    /// True when every move drops a piece from an endless supply (no piece moves
    /// or stays once on the board): each turn adds one piece of the side that
    /// plays it.
    pub fn only_drops(&self) -> bool {
        self.kinds.iter().all(|k| k.moves.is_empty() && !k.stay && k.drop.as_ref().is_some_and(|d| !d.from_hand))
    }

    /// True when some drop flips the pieces it brackets.
    pub fn has_flips(&self) -> bool {
        self.kinds.iter().any(|k| k.drop.as_ref().is_some_and(|d| d.flips.is_some()))
    }

    /// True when the game ends in a score, flips pieces or passes: rules that
    /// only the general paths and the margin search know.
    pub fn has_score_rules(&self) -> bool {
        self.score.is_some() || self.pass || self.has_flips()
    }

    /// True when some piece promotes.
    pub fn has_promotions(&self) -> bool {
        self.kinds.iter().any(|k| k.promote.is_some())
    }

    /// True when some piece is dropped from a hand: positions then hold the hands.
    pub fn has_hands(&self) -> bool {
        self.kinds.iter().any(|k| k.drop.as_ref().is_some_and(|d| d.from_hand))
    }

    /// True when a move can remove a piece.
    pub fn has_captures(&self) -> bool {
        self.kinds.iter().enumerate().any(|(k, kind)| {
            kind.moves.iter().any(|m| m.onto.enemy())
                && (0..2).any(|side| {
                    kind.letters[side].is_some()
                        && self.turn_of(side) == Turn::OnePiece
                        && self
                            .kinds
                            .iter()
                            .enumerate()
                            .any(|(other, o)| o.letters[1 - side].is_some() && self.meeting(k, other).is_none())
                })
        })
    }

    /// The side's turn rule.
    pub fn turn_of(&self, side: usize) -> Turn {
        self.sides[side].turn
    }

    /// The `Meet` ending for two kinds, if any (in either order).
    pub fn meeting(&self, a: usize, b: usize) -> Option<Option<usize>> {
        self.endings.iter().find_map(|e| match e {
            Ending::Meet { kinds, winner } if (kinds[0] == a && kinds[1] == b) || (kinds[0] == b && kinds[1] == a) => {
                Some(*winner)
            }
            _ => None,
        })
    }

    /// The result for the stuck side to move.
    pub fn stuck_result(&self) -> Outcome {
        self.endings
            .iter()
            .find_map(|e| match e {
                Ending::Stuck { result } => Some(*result),
                _ => None,
            })
            .unwrap_or(Outcome::Loss)
    }
}
