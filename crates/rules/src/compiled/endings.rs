//! The endings of the rules compiled for one board: `reach` zones as one flag a
//! group and cell, royal kinds as group masks, lines as cell runs or bit shifts.
//!
//! Every position and every child of a solve asks whether play is over, so each
//! ending is laid out to be answered from the piece list in one pass, with one load
//! a piece where possible; what the file says stays in [`crate::language::spec`]. Being stuck
//! is the one ending that needs the moves: [`crate::compiled::moves::terminal`] adds it.

use crate::compiled::board::Board;
use crate::compiled::position::{cell_of, group_of, RulesPosition};
use crate::language::error::RulesError;
use crate::language::spec::{Check, Ending, Rules};
use gsolve_engine::Outcome;

/// A `line` ending compiled for a board.
///
/// Where the grid with one spare column fits in 128 bits, a side's pieces are one
/// such bit set and a line is found by shifts, four or fewer directions of
/// `length − 1` shifts each (the spare column stops rows and diagonals from
/// running on into the next row):
/// ```text
///   bit(r, c) = r · (cols + 1) + c          directions: 1 (→), cols + 1 (↓),
///   x = b; x &= b >> d; x &= b >> 2d; …      cols + 2 (↘), cols (↙)
/// ```
/// Otherwise each line is checked cell by cell.
#[derive(Clone, Debug)]
struct LineCheck {
    /// The cells of each line, `length` a line, one after another.
    cells: Vec<u32>,
    length: usize,
    /// The shifts of the directions, where the padded grid fits (else empty).
    shifts: Vec<u32>,
    /// `counts[g]`: pieces of group g make lines.
    counts: Vec<bool>,
    result: Outcome,
}

/// A `reach` ending compiled for a board.
#[derive(Clone, Debug)]
pub(crate) struct ReachCheck {
    /// `hits[g * cells + c]`: a piece of group g on cell c stands in the zone and
    /// counts for the ending (one load a piece: endings are checked for every
    /// position and child of a solve).
    hits: Vec<bool>,
    check: Check,
    result: Outcome,
}

impl ReachCheck {
    /// When the zone is looked at: after the move, or after the reply.
    #[inline]
    pub(crate) fn when(&self) -> Check {
        self.check
    }

    /// Does a piece at `at` (`group * cells + cell`) count for this check?
    #[inline]
    pub(crate) fn hit(&self, at: usize) -> bool {
        self.hits[at]
    }

    /// The result for the side whose piece stands in the zone.
    #[inline]
    pub(crate) fn result(&self) -> Outcome {
        self.result
    }
}

/// The endings of the rules on one board, for each side.
#[derive(Clone, Debug)]
pub(crate) struct Endings {
    /// Playable cells.
    cells: usize,
    /// The side of each group.
    group_side: Vec<usize>,
    /// `reach[side]`: the reach endings that apply to that side.
    reach: [Vec<ReachCheck>; 2],
    /// `reach_bits[g * cells + c]`: bit `j` set when a piece of group g on cell c
    /// counts for side 0's j-th reach check, bit `len0 + j` for side 1's (len0:
    /// side 0's number of checks); empty when there are more than 64 checks. One
    /// load a piece answers every check ([`Endings::reach_hits`]).
    reach_bits: Vec<u64>,
    /// `royal[side]`: for each `captured` ending, the side's groups of its kinds
    /// (`mask[g]`) and the result for the side when it has none of them left.
    royal: [Vec<(Vec<bool>, Outcome)>; 2],
    no_pieces: [Option<Outcome>; 2],
    stuck: Outcome,
    /// `lines[side]`: the line endings that apply to that side.
    lines: [Vec<LineCheck>; 2],
    /// The result for the side to move of a full board, if that ends the game.
    full: Option<Outcome>,
    /// `line_weight[c]`: the lines of the line endings through cell c (move order).
    line_weight: Vec<u16>,
    /// `grid_bit[c]`: cell c's bit in a line check's padded grid ([`LineCheck`]).
    grid_bit: Vec<u8>,
    /// Bits of the padded grid: rows × (cols + 1).
    grid_bits: u32,
    /// Does every line that ends in a tie end on a full board, and no other ending
    /// tie ([`Endings::ties_only_when_full`])?
    ties_only_when_full: bool,
    /// The endings as one table, where every ending but being stuck depends on
    /// which pieces stand where one piece at a time ([`EndingTable`]).
    table: Option<EndingTable>,
}

/// The endings of a game without `line` and `full` endings, as a table: each
/// piece (group and cell) sets bits of a small word, and the word with the side
/// to move names the ending.
///
/// ```text
///   bits[g * cells + c] = reach checks the piece counts for (side 0's, then side 1's)
///                       | 1 << (R + side)                    (its side has a piece)
///                       | 1 << (R + 2 + k)                   (it is of royal check k's kinds)
///   outcome[word << 1 | to_move] = 0 none, 1 win, 2 loss, 3 tie
/// ```
/// Why: every position and every parent of a solve asks whether play is over;
/// one pass over the pieces OR-ing one load each, then one load, replaces a walk
/// over each side's checks, which cost much of a pursuit's retrograde solve. The table
/// answers what [`Endings::ending`]'s checks answer, word for word (it is built
/// by running them on each word).
#[derive(Clone, Debug)]
pub(crate) struct EndingTable {
    bits: Vec<u16>,
    outcome: Vec<u8>,
}

impl EndingTable {
    /// The word of a piece of group `g` on `cell` (`at = g * cells + cell`).
    #[inline]
    pub(crate) fn word_at(&self, at: usize) -> usize {
        self.bits[at] as usize
    }

    /// The number of words: 2^(the word's bits).
    pub(crate) fn words(&self) -> usize {
        self.outcome.len() / 2
    }

    /// The ending for `to_move` of a position without a meeting whose pieces'
    /// words OR to `word`, being stuck aside.
    #[inline]
    pub(crate) fn outcome(&self, word: usize, to_move: usize) -> Option<Outcome> {
        match self.outcome[word << 1 | to_move] {
            0 => None,
            1 => Some(Outcome::Win),
            2 => Some(Outcome::Loss),
            _ => Some(Outcome::Tie),
        }
    }
}

/// The most bits of an [`EndingTable`] word (a table of 2^13 bytes).
const TABLE_BITS: usize = 12;

impl Endings {
    /// The endings of `rules` on `board`; an error for a line no run of the board
    /// holds (the ending could never happen).
    pub(crate) fn new(rules: &Rules, board: &Board) -> Result<Endings, RulesError> {
        let groups = &board.groups;
        // A side without a piece of a royal kind has lost it (it was captured).
        let mut royal: [Vec<(Vec<bool>, Outcome)>; 2] = [Vec::new(), Vec::new()];
        for e in &rules.endings {
            let Ending::Captured { kinds, result } = e else { continue };
            for (side, checks) in royal.iter_mut().enumerate() {
                let mask: Vec<bool> = groups.iter().map(|g| g.side == side && kinds.contains(&g.kind)).collect();
                if mask.contains(&true) {
                    checks.push((mask, *result));
                }
            }
        }
        let mut reach = [Vec::new(), Vec::new()];
        let mut no_pieces = [None, None];
        for ending in &rules.endings {
            match ending {
                Ending::Reach { zone, kinds, sides, check, result } => {
                    for side in 0..2 {
                        if sides[side] {
                            let counts = |g: &crate::compiled::board::Group| {
                                g.side == side && kinds.as_ref().is_none_or(|k| k.contains(&g.kind))
                            };
                            let hits = groups
                                .iter()
                                .flat_map(|g| {
                                    (0..board.cells() as u32).map(move |c| counts(g) && board.in_zone(*zone, side, c))
                                })
                                .collect();
                            reach[side].push(ReachCheck { hits, check: *check, result: *result });
                        }
                    }
                }
                Ending::NoPieces { sides, result } => {
                    for side in 0..2 {
                        if sides[side] && no_pieces[side].is_none() {
                            no_pieces[side] = Some(*result);
                        }
                    }
                }
                Ending::Line { .. }
                | Ending::Full { .. }
                | Ending::Captured { .. }
                | Ending::Meet { .. }
                | Ending::Stuck { .. }
                | Ending::NoMoves { .. }
                | Ending::Scored { .. } => {}
            }
        }
        let lines = lines_of(rules, board)?;
        let full = rules.endings.iter().find_map(|e| match e {
            Ending::Full { result } => Some(*result),
            _ => None,
        });
        let grid_bits = board.rows.saturating_mul(board.cols + 1);
        let grid_bit = board.coords.iter().map(|&(r, c)| (r * (board.cols + 1) + c).min(127) as u8).collect();
        let mut line_weight = vec![0u16; board.cells()];
        for check in lines.iter().flatten() {
            for &c in &check.cells {
                line_weight[c as usize] = line_weight[c as usize].saturating_add(1);
            }
        }
        let reach_bits = reach_bits(&reach, groups.len() * board.cells());
        let tie = |o: &Outcome| *o == Outcome::Tie;
        let ties_only_when_full = rules.endings.iter().all(|e| match e {
            Ending::Reach { result, .. }
            | Ending::NoPieces { result, .. }
            | Ending::Line { result, .. }
            | Ending::Captured { result, .. }
            | Ending::Stuck { result }
            | Ending::NoMoves { result } => !tie(result),
            Ending::Meet { winner, .. } => winner.is_some(),
            Ending::Full { .. } => true,
            Ending::Scored { .. } => false,
        });
        let mut endings = Endings {
            cells: board.cells(),
            group_side: groups.iter().map(|g| g.side).collect(),
            reach,
            reach_bits,
            royal,
            no_pieces,
            stuck: rules.stuck_result(),
            lines,
            full,
            line_weight,
            grid_bit,
            grid_bits,
            ties_only_when_full,
            table: None,
        };
        endings.table = endings.ending_table(board);
        Ok(endings)
    }

    /// The [`EndingTable`] of these endings, `None` where some ending looks at
    /// more than one piece at a time (lines, a full board) or the word would have
    /// more than [`TABLE_BITS`] bits.
    fn ending_table(&self, board: &Board) -> Option<EndingTable> {
        if self.has_lines() || self.has_full() {
            return None;
        }
        let reach_checks = self.reach[0].len() + self.reach[1].len();
        let royal_checks = self.royal[0].len() + self.royal[1].len();
        let width = reach_checks + 2 + royal_checks;
        if width > TABLE_BITS || (reach_checks > 0 && self.reach_bits.is_empty()) {
            return None;
        }
        let groups = board.groups.len();
        let mut bits = vec![0u16; groups * self.cells];
        for g in 0..groups {
            let side = self.group_side[g];
            let mut royal = 0u16;
            for (k, (mask, _)) in self.royal[0].iter().chain(&self.royal[1]).enumerate() {
                if mask[g] {
                    royal |= 1 << (reach_checks + 2 + k);
                }
            }
            for c in 0..self.cells {
                let at = g * self.cells + c;
                let reach = if reach_checks > 0 { self.reach_bits[at] as u16 } else { 0 };
                bits[at] = reach | 1 << (reach_checks + side) | royal;
            }
        }
        let mut outcome = vec![0u8; 2 << width];
        for word in 0..1usize << width {
            for to_move in 0..2 {
                let result = self.ending_of_word(word as u64, to_move);
                outcome[word << 1 | to_move] = match result {
                    None => 0,
                    Some(Outcome::Win) => 1,
                    Some(Outcome::Loss) => 2,
                    Some(Outcome::Tie) => 3,
                };
            }
        }
        Some(EndingTable { bits, outcome })
    }

    /// [`Endings::ending`] of a position without a meeting, from its [`EndingTable`]
    /// word: the side that just moved's checks, then the side to move's, in the
    /// order [`Endings::side_ending`] runs them.
    fn ending_of_word(&self, word: u64, to_move: usize) -> Option<Outcome> {
        let reach_checks = self.reach[0].len() + self.reach[1].len();
        let present = (word >> reach_checks & 3) as u8;
        let mut royal_bit = reach_checks + 2;
        let mut results = [None, None];
        for (side, slot) in results.iter_mut().enumerate() {
            let first_bit = if side == 0 { 0 } else { self.reach[0].len() };
            let mut result = None;
            for (j, check) in self.reach[side].iter().enumerate() {
                let applies = check.check == Check::AfterMove || side == to_move;
                if result.is_none() && applies && word >> (first_bit + j) & 1 == 1 {
                    result = Some(check.result);
                }
            }
            for (_, royal) in &self.royal[side] {
                if result.is_none() && word >> royal_bit & 1 == 0 {
                    result = Some(*royal);
                }
                royal_bit += 1;
            }
            if let Some(none_left) = self.no_pieces[side] {
                if result.is_none() && present >> side & 1 == 0 {
                    result = Some(none_left);
                }
            }
            *slot = result;
        }
        results[1 - to_move].map(flip).or(results[to_move])
    }

    /// The ending of `p` for the side to move, if play is over whatever the moves
    /// (being stuck aside): a meeting, then the endings of the side that just
    /// moved, then of the side to move (`reach`, royal, `line` and `no-pieces`
    /// endings each), then a full board.
    #[inline]
    pub(crate) fn ending<const N: usize>(&self, p: &RulesPosition<N>) -> Option<Outcome> {
        let to_move = p.to_move();
        match p.ended() {
            0 => {}
            3 => return Some(Outcome::Tie),
            code => return Some(if code - 1 == to_move as u8 { Outcome::Win } else { Outcome::Loss }),
        }
        if let Some(table) = &self.table {
            let cells = self.cells;
            let word = p
                .packed()
                .iter()
                .fold(0usize, |word, &q| word | table.word_at(group_of(q) * cells + cell_of(q) as usize));
            return table.outcome(word, to_move);
        }
        self.ending_by_checks(p)
    }

    /// [`Endings::ending`] without the table: each ending checked in turn (games
    /// the table does not take, and tests comparing the two).
    pub(crate) fn ending_by_checks<const N: usize>(&self, p: &RulesPosition<N>) -> Option<Outcome> {
        let to_move = p.to_move();
        match p.ended() {
            0 => {}
            3 => return Some(Outcome::Tie),
            code => return Some(if code - 1 == to_move as u8 { Outcome::Win } else { Outcome::Loss }),
        }
        let present = self.sides_present(p);
        let hits = self.reach_hits(p);
        if let Some(result) = self.side_ending(p, 1 - to_move, present, hits) {
            return Some(flip(result));
        }
        if let Some(result) = self.side_ending(p, to_move, present, hits) {
            return Some(result);
        }
        if let Some(result) = self.full {
            if self.is_full(p) {
                return Some(result);
            }
        }
        None
    }

    /// The endings as one table, where they have one ([`EndingTable`]).
    #[inline]
    pub(crate) fn table(&self) -> Option<&EndingTable> {
        self.table.as_ref()
    }

    /// The result for the side to move of having no move.
    #[inline]
    pub(crate) fn stuck(&self) -> Outcome {
        self.stuck
    }

    /// Does a piece of group `g` on `cell` end the game whoever is to move (a
    /// `reach` ending checked after the move)? Such cells are not among the
    /// group's places in the index.
    pub(crate) fn ends_on_arrival(&self, g: usize, cell: u32) -> bool {
        self.reach[self.group_side[g]]
            .iter()
            .any(|check| check.check == Check::AfterMove && check.hits[g * self.cells + cell as usize])
    }

    /// Has a side none of its royal pieces left with these pieces of each group on
    /// the board (a `captured` ending applies, whatever else)?
    pub(crate) fn royal_lost(&self, counts: &[u8]) -> bool {
        self.royal
            .iter()
            .flatten()
            .any(|(mask, _)| mask.iter().zip(counts).all(|(&royal, &count)| !royal || count == 0))
    }

    /// Does a piece of group `g` (of the side to move) on `cell` end the game
    /// when its own side is to move (a `reach` ending of its side, checked
    /// after the move or after the reply)? In an index that keeps the first
    /// side to move only, such cells are not among its groups' places.
    pub(crate) fn ends_with_own_side_to_move(&self, g: usize, cell: u32) -> bool {
        self.reach[self.group_side[g]].iter().any(|check| check.hits[g * self.cells + cell as usize])
    }

    /// The single royal group of each side, `[first, second]`, where taking the
    /// second side's royal piece with a move of the first side's (a piece of
    /// group `first` onto group `second`'s cell) always ends the game lost for
    /// the second side, whatever else stands on the board:
    /// - each side has one `captured` ending of one group, whose result is a loss;
    /// - the endings checked before the second side's `captured` one cannot
    ///   decide otherwise: every ending of the first side (it just moved) that
    ///   can apply — `reach` checked after the move, `line` — is a win for it,
    ///   and every `reach` ending of the second side is a loss for it or counts
    ///   only its royal piece (gone).
    ///
    /// `None` otherwise (and for more than one royal group a side).
    pub(crate) fn royal_capture_ends(&self) -> Option<[usize; 2]> {
        let mut royal = [0usize; 2];
        for (side, checks) in self.royal.iter().enumerate() {
            let [(mask, result)] = &checks[..] else { return None };
            let mut groups = mask.iter().enumerate().filter(|(_, &r)| r).map(|(g, _)| g);
            let (Some(g), None) = (groups.next(), groups.next()) else { return None };
            if *result != Outcome::Loss {
                return None;
            }
            royal[side] = g;
        }
        let first_wins = self.reach[0]
            .iter()
            .filter(|check| check.check == Check::AfterMove)
            .map(|check| check.result)
            .chain(self.lines[0].iter().map(|line| line.result))
            .all(|result| result == Outcome::Win);
        let second = royal[1];
        let second_loses = self.reach[1].iter().all(|check| {
            check.result == Outcome::Loss
                || check.hits.chunks(self.cells).enumerate().all(|(g, hits)| g == second || !hits.contains(&true))
        });
        (first_wins && second_loses).then_some(royal)
    }

    /// The reach endings that apply to `side`, in the order they are checked.
    pub(crate) fn reach_checks(&self, side: usize) -> &[ReachCheck] {
        &self.reach[side]
    }

    /// The reach checks' hits numbered together ([`Endings::reach_hits`]): one word
    /// a group and cell; empty when the checks are not numbered (none, or over 64).
    pub(crate) fn reach_bits(&self) -> &[u64] {
        &self.reach_bits
    }

    /// The result for `side` of having no piece on the board, if that ends the game.
    pub(crate) fn no_pieces(&self, side: usize) -> Option<Outcome> {
        self.no_pieces[side]
    }

    /// Is there a `captured` ending (royal kinds)?
    pub(crate) fn has_royal(&self) -> bool {
        self.royal.iter().any(|r| !r.is_empty())
    }

    /// Is there a `line` ending?
    pub(crate) fn has_lines(&self) -> bool {
        self.lines.iter().any(|l| !l.is_empty())
    }

    /// Does a full board end the game?
    pub(crate) fn has_full(&self) -> bool {
        self.full.is_some()
    }

    /// Can some ending of these (or being stuck) be a tie? Meetings are the
    /// tables' ([`crate::compiled::tables::Tables::meetings_tie`]).
    pub(crate) fn can_tie(&self) -> bool {
        let tie = |o: Outcome| o == Outcome::Tie;
        tie(self.stuck)
            || self.reach.iter().flatten().any(|c| tie(c.result))
            || self.royal.iter().flatten().any(|(_, o)| tie(*o))
            || self.no_pieces.iter().flatten().any(|&o| tie(o))
            || self.lines.iter().flatten().any(|l| tie(l.result))
            || self.full.is_some_and(tie)
    }

    /// The `reach` ending of a position of two pieces, at `first` and `second`
    /// (`group * cells + cell`), for side `to_move`: the side that just moved's
    /// checks, then the side to move's; `None` when no zone ends the game.
    pub(crate) fn pair_reach(&self, first: usize, second: usize, to_move: usize) -> Option<Outcome> {
        for (side, mover) in [(1 - to_move, true), (to_move, false)] {
            for check in &self.reach[side] {
                let applies = !mover || check.check == Check::AfterMove;
                if applies && (check.hits[first] || check.hits[second]) {
                    return Some(if mover { flip(check.result) } else { check.result });
                }
            }
        }
        None
    }

    /// Does some `reach` ending count a piece at `at` (`group * cells + cell`)?
    pub(crate) fn reach_looks_at(&self, at: usize) -> bool {
        self.reach.iter().flatten().any(|check| check.hits[at])
    }

    /// Which reach checks some piece of `p` counts for, as [`Self::reach_bits`]
    /// numbers them; `None` when they are not numbered (no checks, or over 64).
    #[inline]
    fn reach_hits<const N: usize>(&self, p: &RulesPosition<N>) -> Option<u64> {
        if self.reach_bits.is_empty() {
            return None;
        }
        let cells = self.cells;
        Some(p.packed().iter().fold(0, |bits, &q| bits | self.reach_bits[group_of(q) * cells + cell_of(q) as usize]))
    }

    /// Does a side have a piece in a reach ending's zone?
    #[inline]
    fn reaches<const N: usize>(&self, p: &RulesPosition<N>, check: &ReachCheck) -> bool {
        let cells = self.cells;
        p.packed().iter().any(|&q| check.hits[group_of(q) * cells + cell_of(q) as usize])
    }

    /// Bit `s` set when side `s` has a piece on the board; both bits set without
    /// looking when no `no-pieces` ending needs to know.
    #[inline]
    fn sides_present<const N: usize>(&self, p: &RulesPosition<N>) -> u8 {
        if self.no_pieces == [None, None] {
            return 3;
        }
        let mut present = 0u8;
        for &q in p.packed() {
            present |= 1 << self.group_side[group_of(q)];
            if present == 3 {
                break;
            }
        }
        present
    }

    /// The outcome for `side` of the endings that apply to it at `p`, if any;
    /// `present` as [`Endings::sides_present`] gives it, `hits` as
    /// [`Endings::reach_hits`].
    #[inline]
    fn side_ending<const N: usize>(
        &self,
        p: &RulesPosition<N>,
        side: usize,
        present: u8,
        hits: Option<u64>,
    ) -> Option<Outcome> {
        let first_bit = if side == 0 { 0 } else { self.reach[0].len() };
        for (j, check) in self.reach[side].iter().enumerate() {
            let applies = match check.check {
                Check::AfterMove => true,
                Check::AfterReply => side == p.to_move(),
            };
            let hit = match hits {
                Some(bits) => bits >> (first_bit + j) & 1 == 1,
                None => self.reaches(p, check),
            };
            if applies && hit {
                return Some(check.result);
            }
        }
        for (mask, result) in &self.royal[side] {
            if !p.packed().iter().any(|&q| mask[group_of(q)]) {
                return Some(*result);
            }
        }
        for check in &self.lines[side] {
            if self.has_line(p, check) {
                return Some(check.result);
            }
        }
        if let Some(result) = self.no_pieces[side] {
            if present >> side & 1 == 0 {
                return Some(result);
            }
        }
        None
    }

    /// Do the pieces that count for a line ending make one?
    #[inline]
    fn has_line<const N: usize>(&self, p: &RulesPosition<N>, check: &LineCheck) -> bool {
        if !check.shifts.is_empty() {
            let mut mine = 0u128;
            for &q in p.packed() {
                // Branch-free: a piece that does not count adds nothing.
                let counts = check.counts[group_of(q)] as u128;
                mine |= counts << self.grid_bit[cell_of(q) as usize];
            }
            if (mine.count_ones() as usize) < check.length {
                return false;
            }
            // Most grids fit in 64 bits, where shifts are one instruction.
            if self.grid_bits <= 64 {
                let mine = mine as u64;
                return check.shifts.iter().any(|&d| {
                    let mut run = mine;
                    for i in 1..check.length as u32 {
                        run &= mine >> (i * d);
                    }
                    run != 0
                });
            }
            return check.shifts.iter().any(|&d| {
                let mut run = mine;
                for i in 1..check.length as u32 {
                    run &= mine >> (i * d);
                }
                run != 0
            });
        }
        let mut mine = vec![false; self.cells];
        for &q in p.packed() {
            if check.counts[group_of(q)] {
                mine[cell_of(q) as usize] = true;
            }
        }
        check.cells.chunks(check.length).any(|line| line.iter().all(|&c| mine[c as usize]))
    }

    /// How many lines of the line endings pass through the cell a drop took:
    /// central cells first, which is how people play tic-tac-toe and Connect 4.
    /// (Weighing each line by the mover's pieces in it, threats and blocks first,
    /// searches no fewer positions and costs time to compute: left out.)
    pub(crate) fn drop_weight<const N: usize>(&self, parent: &RulesPosition<N>, child: &RulesPosition<N>) -> i32 {
        let (a, b) = (parent.packed(), child.packed());
        let added = b.iter().zip(a.iter().chain(std::iter::once(&u32::MAX))).find(|(x, y)| x != y).map(|(x, _)| *x);
        let Some(added) = added else { return 0 };
        let cell = cell_of(added) as usize;
        self.line_weight.get(cell).copied().unwrap_or(0) as i32
    }

    /// Is every playable cell taken?
    #[inline]
    fn is_full<const N: usize>(&self, p: &RulesPosition<N>) -> bool {
        p.taken_cells() >= self.cells
    }

    /// Does every line that ends in a tie end on a full board, and no other ending
    /// tie? Then, when every move drops one piece, a tie comes exactly when the
    /// board fills: its remoteness is the number of empty cells.
    pub(crate) fn ties_only_when_full(&self) -> bool {
        self.ties_only_when_full
    }

    /// The number of empty playable cells.
    pub(crate) fn empty_cells<const N: usize>(&self, p: &RulesPosition<N>) -> usize {
        self.cells.saturating_sub(p.taken_cells())
    }
}

/// The reach checks' hits numbered together ([`Endings::reach_bits`]): side 0's
/// checks, then side 1's; empty when there are none or more than 64 (`entries`:
/// groups × cells).
fn reach_bits(reach: &[Vec<ReachCheck>; 2], entries: usize) -> Vec<u64> {
    let checks: Vec<&ReachCheck> = reach.iter().flatten().collect();
    if checks.is_empty() || checks.len() > 64 {
        return Vec::new();
    }
    (0..entries).map(|at| checks.iter().enumerate().fold(0, |bits, (j, c)| bits | (c.hits[at] as u64) << j)).collect()
}

/// The line endings of the rules on a board, for each side: every run of `length`
/// playable cells along a row, a column or a diagonal, as the ending asks. A
/// length no run on this board has is an error (the ending could never happen).
fn lines_of(rules: &Rules, board: &Board) -> Result<[Vec<LineCheck>; 2], RulesError> {
    let mut out = [Vec::new(), Vec::new()];
    for e in &rules.endings {
        let Ending::Line { length, orthogonal, diagonal, kinds, sides, result } = e else { continue };
        let mut directions = Vec::new();
        if *orthogonal {
            directions.extend([(0i64, 1i64), (1, 0)]);
        }
        if *diagonal {
            directions.extend([(1, 1), (1, -1)]);
        }
        let length = *length as usize;
        let mut cells = Vec::new();
        for &(r, c) in &board.coords {
            for &(dr, dc) in &directions {
                let run: Vec<u32> = (0..length as i64)
                    .map_while(|i| {
                        let (rr, cc) = (r as i64 + dr * i, c as i64 + dc * i);
                        if rr < 0 || cc < 0 {
                            return None;
                        }
                        board.cell(rr as u32, cc as u32)
                    })
                    .collect();
                if run.len() == length {
                    cells.extend(run);
                }
            }
        }
        if cells.is_empty() {
            return Err(RulesError::Board(format!(
                "a line of {length} never fits on this board ({} rows × {} columns)",
                board.rows, board.cols
            )));
        }
        let cols = board.cols;
        let shifts: Vec<u32> = if board.rows * (cols + 1) <= 128 {
            let mut shifts = Vec::new();
            if *orthogonal {
                shifts.extend([1, cols + 1]);
            }
            if *diagonal {
                shifts.extend([cols + 2, cols]);
            }
            // A run whose span is the whole padded grid or more never fits on the
            // board; without this, its shifts of 64 (or 128) bits or more would
            // wrap around the word and see lines that are not there.
            shifts.retain(|&d| (length as u64 - 1) * u64::from(d) < u64::from(board.rows * (cols + 1)));
            shifts
        } else {
            Vec::new()
        };
        for side in 0..2 {
            if sides[side] {
                let counts = board
                    .groups
                    .iter()
                    .map(|g| g.side == side && kinds.as_ref().is_none_or(|k| k.contains(&g.kind)))
                    .collect();
                out[side].push(LineCheck {
                    cells: cells.clone(),
                    length,
                    shifts: shifts.clone(),
                    counts,
                    result: *result,
                });
            }
        }
    }
    Ok(out)
}

/// An outcome for one side, seen by the other.
pub(crate) fn flip(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Win => Outcome::Loss,
        Outcome::Loss => Outcome::Win,
        Outcome::Tie => Outcome::Tie,
    }
}
