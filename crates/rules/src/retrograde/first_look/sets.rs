//! The first look read from the groups' cell sets: a placement unranked to one set a group, no piece list, no child built.

use super::{tally::*, words::*};
use crate::compiled::endings::EndingTable;
use crate::compiled::tables::Tables;
use crate::index::{PlacementIndex, RoyalPair, MASK_GROUPS};
use gsolve_engine::{FirstLook, Value};

/// What [`first_look_sets`] reads of a game, laid out once: for each group,
/// its landing cells by ending word, and its promotion as a set.
///
/// ```text
///   classes[starts[g]..starts[g + 1]] = (word, cells): every cell c where a
///       piece of g standing there has ending word `word`, distinct words
///   zone[g], promoted[g], forced[g]: the cells where a move of g promotes,
///       the group it becomes, whether it must (0, g and false where it does
///       not promote)
/// ```
/// Why by word: a piece's quiet targets whose cells have one word make
/// children alike in everything the first look asks (the word of the child's
/// pieces, the threats on the royal pieces, the royal cells unless the mover
/// is one) but the mover's cell, so whether they are over is asked once for
/// all of them, where it was asked for each move (most of Dobutsu's first
/// look); a royal mover's targets are met with the threats as a set.
#[derive(Clone, Debug)]
pub(crate) struct SetLook {
    pub(super) cells: usize,
    pub(super) starts: Vec<usize>,
    pub(super) classes: Vec<(usize, u64)>,
    pub(super) zone: Vec<u64>,
    pub(super) promoted: Vec<usize>,
    pub(super) forced: Vec<bool>,
}

impl SetLook {
    /// The layout for the game of `tables` with `index`, where the first look
    /// applies ([`applies`]), every move is short ([`Tables::short_targets`])
    /// and the index unranks to 64-bit sets
    /// ([`PlacementIndex::unranks_to_sets`]); `None` elsewhere.
    pub(crate) fn of(tables: &Tables, index: &PlacementIndex, terminals_indexed: bool) -> Option<SetLook> {
        let cells = tables.board().cells();
        let table = tables.endings().table()?;
        let shaped =
            applies(tables, terminals_indexed) && !tables.short_target_sets().is_empty() && index.unranks_to_sets();
        if !shaped {
            return None;
        }
        let mut look = SetLook {
            cells,
            starts: vec![0],
            classes: Vec::new(),
            zone: Vec::new(),
            promoted: Vec::new(),
            forced: Vec::new(),
        };
        for g in 0..tables.groups() {
            let first = look.classes.len();
            for c in 0..cells {
                let word = table.word_at(g * cells + c);
                match look.classes[first..].iter_mut().find(|(w, _)| *w == word) {
                    Some((_, set)) => *set |= 1 << c,
                    None => look.classes.push((word, 1 << c)),
                }
            }
            look.starts.push(look.classes.len());
            let promotion = tables.promotion(g);
            look.zone.push(promotion.map_or(0, |p| (0..cells).filter(|&c| p.zone[c]).fold(0, |set, c| set | 1 << c)));
            look.promoted.push(promotion.map_or(g, |p| p.group));
            look.forced.push(promotion.is_some_and(|p| p.forced));
        }
        Some(look)
    }

    /// The cells of group `g`, by the ending word a piece of `g` has there.
    #[inline]
    pub(super) fn classes(&self, g: usize) -> &[(usize, u64)] {
        &self.classes[self.starts[g]..self.starts[g + 1]]
    }
}

/// [`first_look`] of the position whose groups stand on `masks` (`masks[g]`:
/// the cells of group g, [`PlacementIndex::unrank_sets`]) with the hand
/// counts `hands` (by slot), `to_move` to move, room for `room` pieces: the
/// same answer, read from the sets.
///
/// How it differs: the ORs of the pieces' words and threats with one or two of
/// them left out come from [`Tally`], not from lists; a piece's quiet targets
/// outside its promotion zone are taken a word at a time ([`SetLook`]) and
/// counted, as are the drops without gravity; captures, promotions and
/// falling drops are taken one at a time as before.
///
/// The steps: the pieces read ([`SetPieces::of`]) and the position's own
/// ending asked; the royal pieces found ([`Royals::of`]) and a win by the
/// rules at once asked; then the children tallied ([`SetChildren`]): each
/// piece's moves ([`SetMoves::piece_moves`]), the drops where there is room
/// ([`SetMoves::drops`]), the pass.
#[inline]
pub(crate) fn first_look_sets(
    tables: &Tables,
    index: &PlacementIndex,
    look: &SetLook,
    masks: &[u64; MASK_GROUPS],
    hands: &[u8],
    to_move: usize,
    room: usize,
) -> FirstLook {
    let table = tables.endings().table().expect("a set look is made only with an ending table");
    let pair = index.royal_pair();
    let read = SetPieces::of(tables, table, look.cells, pair, masks, to_move);
    let word = read.words.all();
    if let Some(outcome) = table.outcome(word, to_move) {
        return FirstLook::Over(outcome);
    }
    let royals = Royals::of(pair, masks);
    if royals.taken_at_once(masks, read.own_takes, to_move) {
        return FirstLook::ByRules;
    }
    let moves = SetMoves { tables, table, look, masks, read, royals, to_move };
    let mut children = SetChildren { table, to_move, count: 0, best_over: None };
    let can_pass = moves.piece_moves(&mut children);
    if moves.read.pieces < room {
        moves.drops(&mut children, hands);
    }
    if can_pass {
        children.tally(word, 1, moves.royals.cells, moves.read.threats.all(), false);
    }
    FirstLook::Moves { count: children.count, best_over: children.best_over }
}

/// A position's pieces as [`first_look_sets`] reads them from its sets: the
/// words of every piece; the threats of the child's side to move's pieces
/// (which its moves change only by a capture); those of the side to move's;
/// the sides' cells; how many pieces.
struct SetPieces {
    words: Tally<usize>,
    threats: Tally<u128>,
    own_takes: u128,
    own: u64,
    enemy: u64,
    pieces: usize,
}

impl SetPieces {
    /// The pieces of the groups on `masks` (`cells` cells), `to_move` to move;
    /// the threats only where the royal pieces are ranked as a `pair`.
    #[inline]
    fn of(
        tables: &Tables,
        table: &EndingTable,
        cells: usize,
        pair: Option<&RoyalPair>,
        masks: &[u64; MASK_GROUPS],
        to_move: usize,
    ) -> SetPieces {
        let child_to_move = 1 - to_move;
        let mut read =
            SetPieces { words: Tally::default(), threats: Tally::default(), own_takes: 0, own: 0, enemy: 0, pieces: 0 };
        for (g, &mask) in masks[..tables.groups()].iter().enumerate() {
            if mask == 0 {
                continue;
            }
            let side = tables.side_of(g);
            if side == to_move {
                read.own |= mask;
            } else {
                read.enemy |= mask;
            }
            read.pieces += mask.count_ones() as usize;
            let mut bits = mask;
            while bits != 0 {
                let c = bits.trailing_zeros();
                bits &= bits - 1;
                read.words.add(table.word_at(g * cells + c as usize));
                if let Some(pair) = pair {
                    let takes = pair.sure_takes(g, c);
                    if side == child_to_move {
                        read.threats.add(takes);
                    } else {
                        read.own_takes |= takes;
                    }
                }
            }
        }
        read
    }

    /// The empty cells.
    #[inline]
    fn empty(&self) -> u64 {
        !(self.own | self.enemy)
    }
}

/// The royal pieces of a position, where the index ranks them as a `pair`:
/// their groups (`usize::MAX` where it does not), and their cells as (first,
/// second), where both stand.
struct Royals<'a> {
    pair: Option<&'a RoyalPair>,
    first: usize,
    second: usize,
    cells: Option<(u32, u32)>,
}

impl<'a> Royals<'a> {
    /// The royal pieces of the groups on `masks`.
    #[inline]
    fn of(pair: Option<&'a RoyalPair>, masks: &[u64; MASK_GROUPS]) -> Royals<'a> {
        let [first, second] = pair.map_or([usize::MAX; 2], |pair| pair.groups());
        let cells = pair.and_then(|_| {
            let (x, y) = (masks[first], masks[second]);
            (x != 0 && y != 0).then(|| (x.trailing_zeros(), y.trailing_zeros()))
        });
        Royals { pair, first, second, cells }
    }

    /// Does the side to move take the other's royal piece at once
    /// (`own_takes`: the cells its pieces take on for sure)? Then the
    /// position is a win by the rules, its moves not counted.
    #[inline]
    fn taken_at_once(&self, masks: &[u64; MASK_GROUPS], own_takes: u128, to_move: usize) -> bool {
        let target = if to_move == 0 { self.second } else { self.first };
        self.pair.is_some() && masks[target] != 0 && own_takes >> masks[target].trailing_zeros() & 1 == 1
    }

    /// Is group `g` royal?
    #[inline]
    fn is_royal(&self, g: usize) -> bool {
        g == self.first || g == self.second
    }

    /// The royal cells after the piece of group `g` moves to `to`.
    #[inline]
    fn after_move(&self, g: usize, to: u32) -> Option<(u32, u32)> {
        match self.cells {
            Some((_, y)) if g == self.first => Some((to, y)),
            Some((x, _)) if g == self.second => Some((x, to)),
            royals => royals,
        }
    }
}

/// The children of a position as [`first_look_sets`] tallies them: how many
/// are counted (not over, no win by the rules), and the best value for the
/// parent of those that are.
struct SetChildren<'a> {
    table: &'a EndingTable,
    to_move: usize,
    count: usize,
    best_over: Option<Value>,
}

impl SetChildren<'_> {
    /// `targets` children, alike but for the mover's cell, with the child's
    /// word `child_word`, threats `child_threats` and royal cells
    /// `child_royals` (where the mover is the side to move's royal piece, its
    /// cell is each target in turn, `royal_moves`): each over, a win in 1 by
    /// the rules (the child's side to move takes the mover's royal piece for
    /// sure), or counted.
    #[inline]
    fn tally(
        &mut self,
        child_word: usize,
        targets: u64,
        child_royals: Option<(u32, u32)>,
        child_threats: u128,
        royal_moves: bool,
    ) {
        if let Some(outcome) = self.table.outcome(child_word, 1 - self.to_move) {
            self.best_over = self.best_over.max(Some(outcome.value().parent_view()));
            return;
        }
        // The children where the mover's royal piece can be taken.
        let taken = match child_royals {
            None => 0,
            Some(_) if royal_moves => targets & child_threats as u64,
            Some((x, y)) if child_threats >> if self.to_move == 0 { x } else { y } & 1 == 1 => targets,
            Some(_) => 0,
        };
        if taken != 0 {
            self.best_over = self.best_over.max(Some(Value::Win(1).parent_view()));
        }
        self.count += (targets & !taken).count_ones() as usize;
    }
}

/// The moves of a position [`first_look_sets`] looks at, read from its sets:
/// the position (`masks`, `read`, `royals`, `to_move` to move) and the game's
/// layout (`look`).
struct SetMoves<'a> {
    tables: &'a Tables,
    table: &'a EndingTable,
    look: &'a SetLook,
    masks: &'a [u64; MASK_GROUPS],
    read: SetPieces,
    royals: Royals<'a>,
    to_move: usize,
}

impl SetMoves<'_> {
    /// Tallies the moves of the side to move's pieces into `children`: quiet
    /// ones outside the promotion zone a landing word at a time, promotions
    /// and captures ([`Self::captures`]) one at a time. Whether a piece of
    /// the side may stay (the side may pass).
    #[inline]
    fn piece_moves(&self, children: &mut SetChildren<'_>) -> bool {
        let (tables, table, look, royals) = (self.tables, self.table, self.look, &self.royals);
        let cells = look.cells;
        let all_threats = self.read.threats.all();
        let empty = self.read.empty();
        let mut can_pass = false;
        for g in 0..tables.groups() {
            let mask = self.masks[g];
            if mask == 0 || tables.side_of(g) != self.to_move {
                continue;
            }
            can_pass |= tables.stays(g);
            let royal_moves = royals.is_royal(g);
            let (zone, promoted, forced) = (look.zone[g], look.promoted[g], look.forced[g]);
            let mut bits = mask;
            while bits != 0 {
                let from = bits.trailing_zeros();
                bits &= bits - 1;
                let own_word = table.word_at(g * cells + from as usize);
                let rest = self.read.words.without(own_word);
                let [onto_empty, onto_enemy] = tables.short_targets(g, from).expect("short targets");
                let quiet = onto_empty as u64 & empty;
                for &(class_word, class) in look.classes(g) {
                    let targets = quiet & !zone & class;
                    if targets != 0 {
                        children.tally(rest | class_word, targets, royals.cells, all_threats, royal_moves);
                    }
                }
                let mut promotes = quiet & zone;
                while promotes != 0 {
                    let to = promotes.trailing_zeros();
                    promotes &= promotes - 1;
                    let after = royals.after_move(g, to);
                    let word = |lands: usize| rest | table.word_at(lands * cells + to as usize);
                    children.tally(word(promoted), 1 << to, after, all_threats, false);
                    if !forced {
                        children.tally(word(g), 1 << to, after, all_threats, false);
                    }
                }
                let takes = onto_enemy as u64 & self.read.enemy;
                if takes != 0 {
                    self.captures(children, g, own_word, takes);
                }
            }
        }
        can_pass
    }

    /// Tallies the captures of the piece of group `g` with word `own_word` on
    /// each cell of `takes` into `children`: the victim's word and threats
    /// left out of the child's, the royal cells gone where the victim is
    /// royal (no index holds such a child), promoted (or not, or both) where
    /// the target lies in the zone.
    #[inline]
    fn captures(&self, children: &mut SetChildren<'_>, g: usize, own_word: usize, mut takes: u64) {
        let (table, look, royals) = (self.table, self.look, &self.royals);
        let cells = look.cells;
        let (zone, promoted, forced) = (look.zone[g], look.promoted[g], look.forced[g]);
        // Searched as a slice: indexed by group, the search was unrolled
        // over every group the sets may have, each set loaded once a position
        // whether or not it captures.
        let groups = &self.masks[..self.tables.groups()];
        while takes != 0 {
            let to = takes.trailing_zeros();
            takes &= takes - 1;
            let victim = groups.iter().position(|&mask| mask >> to & 1 == 1).expect("an enemy stands there");
            let victim_word = table.word_at(victim * cells + to as usize);
            let rest = self.read.words.without_two(own_word, victim_word);
            let victim_threats = royals.pair.map_or(0, |pair| pair.sure_takes(victim, to));
            let child_threats = self.read.threats.without(victim_threats);
            let after = if royals.is_royal(victim) { None } else { royals.after_move(g, to) };
            let word = |lands: usize| rest | table.word_at(lands * cells + to as usize);
            let in_zone = zone >> to & 1 == 1;
            if in_zone {
                children.tally(word(promoted), 1 << to, after, child_threats, false);
            }
            if !in_zone || !forced {
                children.tally(word(g), 1 << to, after, child_threats, false);
            }
        }
    }

    /// Tallies the drops of the side to move into `children` (`hands`: the
    /// hand counts by slot), where the position has room for a piece: those
    /// that fall one at a time, the others a landing word at a time.
    #[inline]
    fn drops(&self, children: &mut SetChildren<'_>, hands: &[u8]) {
        let (tables, table, look) = (self.tables, self.table, self.look);
        let (cells, royal_cells, all_threats) = (look.cells, self.royals.cells, self.read.threats.all());
        let word = self.read.words.all();
        let empty = self.read.empty();
        for (g, drop) in tables.drops_by_group().iter().enumerate() {
            let Some(drop) = drop else { continue };
            if tables.side_of(g) != self.to_move || (drop.from_hand && hands[tables.hand_slot_of(g) as usize] == 0) {
                continue;
            }
            if drop.gravity {
                let occupied = (self.read.own | self.read.enemy) as u128;
                for &top in tables.column_tops() {
                    if let Some(to) = tables.fall(top, occupied) {
                        if drop.allows(to) {
                            let child_word = word | table.word_at(g * cells + to as usize);
                            children.tally(child_word, 1 << to, royal_cells, all_threats, false);
                        }
                    }
                }
                continue;
            }
            let allowed = drop.allowed_set as u64 & empty;
            for &(class_word, class) in look.classes(g) {
                let targets = allowed & class;
                if targets != 0 {
                    children.tally(word | class_word, targets, royal_cells, all_threats, false);
                }
            }
        }
    }
}
