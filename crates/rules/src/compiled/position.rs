//! A position of a rules game: the pieces as a sorted list, the side to move, the
//! walls left by trails, and whether a meeting has ended the game.
//!
//! ```text
//!   pieces[i] = group << 16 | cell      (sorted: the pieces of a group are a run,
//!               \___/        \__/        in increasing cells; one piece a cell)
//!              bits 16..   bits 0..16
//!   walls: bit c set = playable cell c is a wall now (left by a trail)
//!   hand:  bits 4s..4s+4 = pieces in hand slot s (a group dropped from a hand:
//!          crate::compiled::tables::Tables::hand_slot_of), 16 slots of 0 to 15 pieces
//!   ended: 0 = play goes on; 1 + side = that side has won by a meeting; 3 = a tie
//! ```
//! Only the first `len` entries of `pieces` are meaningful; equality and hashing
//! look at those alone.

use std::hash::{Hash, Hasher};

/// The most pieces on a board at once.
pub const MAX_PIECES: usize = 64;
/// The most playable cells of a game with trails (the walls are a 128-bit set).
pub const MAX_TRAIL_CELLS: usize = 128;

/// A position, with room for `N` pieces. Front ends use the default; solvers of
/// games with few pieces use a small `N` ([`crate::RulesGame::compact`]): a
/// position is copied for every move and parent, and 48 pieces' room is 224 bytes.
#[derive(Clone, Copy)]
pub struct RulesPosition<const N: usize = MAX_PIECES> {
    to_move: u8,
    ended: u8,
    len: u8,
    /// The walls as a 128-bit set, low word first: as two words, not a `u128`,
    /// so that the position is aligned to 8 bytes and not 16 (64 bytes, not 80,
    /// with room for 8 pieces; every parent of a solve is a copy).
    walls: [u64; 2],
    hand: u64,
    pieces: [u32; N],
}

// Room for 8 pieces (Dobutsu's) fits a cache line: see `walls`.
const _: () = assert!(std::mem::size_of::<RulesPosition<8>>() == 64);

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its group ([`crate::compiled::board::Group`]).
    pub group: usize,
    /// Its playable cell.
    pub cell: u32,
}

#[inline]
pub(crate) fn pack(group: usize, cell: u32) -> u32 {
    (group as u32) << 16 | cell
}

#[inline]
pub(crate) fn group_of(packed: u32) -> usize {
    (packed >> 16) as usize
}

#[inline]
pub(crate) fn cell_of(packed: u32) -> u32 {
    packed & 0xffff
}

impl<const N: usize> RulesPosition<N> {
    /// An empty board with `to_move` to move.
    pub fn empty(to_move: usize) -> Self {
        RulesPosition { to_move: to_move as u8, ended: 0, len: 0, walls: [0; 2], hand: 0, pieces: [0; N] }
    }

    /// The position of the packed pieces `pieces[..len]` (sorted) with `hand` as
    /// the hand slots (module docs), `to_move` to move, play going on. Built whole
    /// from the list: unranking writes the list, then the position at once.
    #[inline]
    pub(crate) fn from_list(to_move: usize, hand: u64, pieces: [u32; N], len: usize) -> Self {
        RulesPosition { to_move: to_move as u8, ended: 0, len: len as u8, walls: [0; 2], hand, pieces }
    }

    /// The pieces in hand slot `slot`.
    #[inline]
    pub fn in_hand(&self, slot: usize) -> u8 {
        (self.hand >> (4 * slot) & 15) as u8
    }

    /// Adds a piece to hand slot `slot`; the caller keeps the count below 16.
    #[inline]
    pub(crate) fn put_in_hand(&mut self, slot: usize) {
        self.hand += 1 << (4 * slot);
    }

    /// Takes a piece from hand slot `slot`, which holds one.
    #[inline]
    pub(crate) fn take_from_hand(&mut self, slot: usize) {
        self.hand -= 1 << (4 * slot);
    }

    /// The side to move (0 or 1).
    #[inline]
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The packed pieces, sorted.
    #[inline]
    pub(crate) fn packed(&self) -> &[u32] {
        &self.pieces[..self.len as usize]
    }

    /// The pieces, by group then cell.
    pub fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        self.packed().iter().map(|&p| Piece { group: group_of(p), cell: cell_of(p) })
    }

    /// The packed piece on `cell`, if any.
    #[inline]
    pub(crate) fn at(&self, cell: u32) -> Option<u32> {
        self.packed().iter().copied().find(|&p| cell_of(p) == cell)
    }

    /// Is `cell` a wall left by a trail?
    #[inline]
    pub fn is_wall(&self, cell: u32) -> bool {
        cell < 128 && self.walls[(cell >> 6) as usize] >> (cell & 63) & 1 == 1
    }

    /// Adds a piece, keeping the order. The caller keeps `len < N`.
    #[inline]
    pub(crate) fn insert(&mut self, packed: u32) {
        let len = self.len as usize;
        let mut i = len;
        while i > 0 && self.pieces[i - 1] > packed {
            self.pieces[i] = self.pieces[i - 1];
            i -= 1;
        }
        self.pieces[i] = packed;
        self.len += 1;
    }

    /// Removes a piece that is there.
    #[inline]
    pub(crate) fn remove(&mut self, packed: u32) {
        if let Some(i) = self.packed().iter().position(|&p| p == packed) {
            self.remove_at(i);
        }
    }

    /// The place in the sorted list of the piece on `cell`, if any.
    #[inline]
    pub(crate) fn place_of(&self, cell: u32) -> Option<usize> {
        self.packed().iter().position(|&q| cell_of(q) == cell)
    }

    /// Takes the piece at place `i` of the list off the board.
    ///
    /// Why slid to the end by [`Self::replace_at`] (past every piece:
    /// `u32::MAX`): `copy_within` calls `memmove` for a few words, a call that
    /// costs more than sliding a piece, and parents and children are copies
    /// with a piece taken off.
    #[inline]
    pub(crate) fn remove_at(&mut self, i: usize) {
        self.replace_at(i, u32::MAX);
        self.len -= 1;
    }

    /// Rewrites the piece at place `i` of the list as `moved` and slides it to its
    /// place: the list stays sorted and nothing is rebuilt (a move changes one
    /// piece).
    #[inline]
    pub(crate) fn replace_at(&mut self, mut i: usize, moved: u32) {
        let len = self.len as usize;
        while i > 0 && self.pieces[i - 1] > moved {
            self.pieces[i] = self.pieces[i - 1];
            i -= 1;
        }
        while i + 1 < len && self.pieces[i + 1] < moved {
            self.pieces[i] = self.pieces[i + 1];
            i += 1;
        }
        self.pieces[i] = moved;
    }

    /// Every packed piece replaced by `image(it)` (a symmetry: pieces to their
    /// cells' images, perhaps as other groups), the list sorted again.
    pub(crate) fn with_pieces(&self, image: impl Fn(u32) -> u32) -> Self {
        let mut m = *self;
        let len = self.len as usize;
        for q in &mut m.pieces[..len] {
            *q = image(*q);
        }
        m.pieces[..len].sort_unstable();
        m
    }

    /// Sets every hand slot at once (module docs' layout).
    #[inline]
    pub(crate) fn set_hand(&mut self, hand: u64) {
        self.hand = hand;
    }

    /// The number of pieces on the board.
    #[inline]
    pub(crate) fn piece_count(&self) -> usize {
        self.len as usize
    }

    /// How a meeting ended the game: 0 = play goes on, 1 + side = that side won, 3
    /// = a tie (module docs).
    #[inline]
    pub(crate) fn ended(&self) -> u8 {
        self.ended
    }

    /// Ends the game by a meeting ([`Self::ended`]'s code).
    #[inline]
    pub(crate) fn set_ended(&mut self, code: u8) {
        self.ended = code;
    }

    /// Hands the turn to the other side.
    #[inline]
    pub(crate) fn pass_turn(&mut self) {
        self.to_move ^= 1;
    }

    /// Gives the turn to `side`.
    #[inline]
    pub(crate) fn set_to_move(&mut self, side: usize) {
        self.to_move = side as u8;
    }

    /// The walls left by trails, as a set of cells (bit c: cell c).
    #[inline]
    pub(crate) fn walls(&self) -> u128 {
        (self.walls[1] as u128) << 64 | self.walls[0] as u128
    }

    /// Makes the cells of `cells` walls.
    #[inline]
    pub(crate) fn add_walls(&mut self, cells: u128) {
        self.walls[0] |= cells as u64;
        self.walls[1] |= (cells >> 64) as u64;
    }

    /// The cells taken by a piece or a wall.
    #[inline]
    pub(crate) fn taken_cells(&self) -> usize {
        self.len as usize + self.walls().count_ones() as usize
    }

    /// The playable cells holding a piece, as a bit set (boards of at most 128
    /// cells: every game with drops has such a board).
    #[inline]
    pub(crate) fn occupied(&self) -> u128 {
        self.packed().iter().fold(0u128, |set, &q| set | 1u128 << (cell_of(q) & 127))
    }
}

impl<const N: usize> PartialEq for RulesPosition<N> {
    fn eq(&self, other: &Self) -> bool {
        self.to_move == other.to_move
            && self.ended == other.ended
            && self.walls == other.walls
            && self.hand == other.hand
            && self.packed() == other.packed()
    }
}

impl<const N: usize> Eq for RulesPosition<N> {}

impl<const N: usize> Hash for RulesPosition<N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.to_move.hash(state);
        self.ended.hash(state);
        self.walls().hash(state);
        self.hand.hash(state);
        self.packed().hash(state);
    }
}

impl<const N: usize> PartialOrd for RulesPosition<N> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Ord for RulesPosition<N> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.to_move, self.ended, self.walls(), self.hand, self.packed()).cmp(&(
            other.to_move,
            other.ended,
            other.walls(),
            other.hand,
            other.packed(),
        ))
    }
}

impl<const N: usize> std::fmt::Debug for RulesPosition<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RulesPosition")
            .field("to_move", &self.to_move)
            .field("ended", &self.ended)
            .field("walls", &format_args!("{:#x}", self.walls()))
            .field("hand", &format_args!("{:#x}", self.hand))
            .field("pieces", &self.pieces().map(|p| (p.group, p.cell)).collect::<Vec<_>>())
            .finish()
    }
}
