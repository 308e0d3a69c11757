//! Retrograde analysis's first look at a position ([`gsolve_engine::FirstLook`]:
//! its moves counted, the children the rules value valued) without building a
//! child, for games whose turn moves one piece and whose endings are one table.
//!
//! # Which games
//! Those [`applies`] accepts: each side moves one piece a turn (or drops one, or
//! passes where a piece may stay); the endings are one table
//! ([`crate::compiled::endings::EndingTable`]); no two pieces meet, no piece leaves a
//! trail, being stuck is a loss; and the index does not hold every ending
//! (where it does, the engine only counts the moves, which is cheap already).
//! Dobutsu shogi, Fox and Hounds with captures, Breakthrough-like games with
//! hands.
//!
//! # How
//! Whether a position is over is the OR of its pieces' ending words, looked up
//! in the table with the side to move. A child differs from its parent by the
//! moved piece (gone from its cell, on its target, perhaps promoted), a taken
//! enemy (gone) or a dropped piece (added): its word is the OR of the parent's
//! words of the pieces still there and the word of the piece where it lands.
//! Hands play no part in the words. Where the royal pieces are ranked as a pair
//! ([`crate::index`], "Royal pieces placed as a pair"), a child that is not over
//! is a win in 1 for its side to move when one of that side's pieces takes the
//! other's royal piece for sure ([`crate::index::RoyalPair::sure_takes`]): the
//! OR of those pieces' cells taken (a move changes it only by taking one of
//! them) against the mover's royal cell after the move. A position that is such
//! a win itself is [`FirstLook::ByRules`], its moves not counted.
//!
//! The moves themselves: where every ray is one cell long or a leap
//! ([`Tables::short_targets`]: Dobutsu shogi), each piece's are its two target
//! sets met with the empty and the enemy cells, and the drops an allowed set
//! met with the empty cells ([`short_moves`]); elsewhere [`moves::for_each`]
//! walks the rays.
//!
//! # From cell sets
//! Where, besides, every move is short and the index unranks to 64-bit sets
//! ([`SetLook`]: boards of at most 64 cells; Dobutsu shogi), no piece list is
//! made at all: each placement is unranked to one cell set a group
//! ([`PlacementIndex::unrank_sets`]) and [`first_look_sets`] reads everything
//! from the sets. The ORs of the pieces' words (and threats) but one or two
//! come from which bits one, two or three pieces have ([`Tally`]); a piece's
//! quiet targets outside its promotion zone are taken a landing word at a time
//! (their children differ only in the mover's cell: one ending asked, the
//! targets counted), and so are the drops that do not fall.
//!
//! This is [`gsolve_engine::first_look`] on [`crate::game::RulesGame`]'s
//! `value_by_rules`, answer for answer; a test compares the two on random
//! games.
//!
//! Why: playing each move into a position and asking the table of its pieces
//! again was more than half of Dobutsu's first look, a third of its solve.

use crate::compiled::moves::{self, DROP};
use crate::compiled::position::{cell_of, group_of, RulesPosition};
use crate::compiled::tables::Tables;
use crate::index::{PlacementIndex, MASK_GROUPS};
use crate::language::spec::Turn;
use gsolve_engine::{FirstLook, Outcome, Value};

/// Does the first look here apply to the game of `tables` with `index` (module
/// docs, "Which games")?
pub(crate) fn applies(tables: &Tables, terminals_indexed: bool) -> bool {
    !terminals_indexed
        && (0..2).all(|side| tables.turn_of(side) == Turn::OnePiece)
        && tables.endings().table().is_some()
        && tables.endings().stuck() == Outcome::Loss
        && !tables.has_meetings()
        && (0..tables.groups()).all(|g| !tables.leaves_trail(g))
}

/// The first look at `p` (module docs, "How"); `p` has room for `N` pieces.
#[inline]
pub(crate) fn first_look<const N: usize>(tables: &Tables, index: &PlacementIndex, p: &RulesPosition<N>) -> FirstLook {
    let endings = tables.endings();
    let table = endings.table().expect("the first look applies only with an ending table");
    let cells = tables.board().cells();
    let to_move = p.to_move();
    let pieces = p.packed();
    // Each piece's word, all of them, and all but each one (the ORs of the
    // words before it and after it): a quiet move's child word is the mover's
    // "all but" and its word where it lands.
    let mut words = [0usize; N];
    let mut all_but = [0usize; N];
    let mut word = 0;
    for (k, &q) in pieces.iter().enumerate() {
        words[k] = table.word_at(group_of(q) * cells + cell_of(q) as usize);
        all_but[k] = word;
        word |= words[k];
    }
    let mut after = 0;
    for k in (0..pieces.len()).rev() {
        all_but[k] |= after;
        after |= words[k];
    }
    if let Some(outcome) = table.outcome(word, to_move) {
        return FirstLook::Over(outcome);
    }
    let pair = index.royal_pair();
    if pair.is_some_and(|pair| pair.side_takes_royal(tables, to_move, pieces)) {
        return FirstLook::ByRules;
    }
    let child_to_move = 1 - to_move;
    // The cells each piece of the child's side to move takes on for sure, and
    // all of them: a move of the side to move changes them only by taking
    // one of those pieces.
    let mut threats = [0u128; N];
    if let Some(pair) = pair {
        for (k, &q) in pieces.iter().enumerate() {
            if tables.side_of(group_of(q)) == child_to_move {
                threats[k] = pair.sure_takes(group_of(q), cell_of(q));
            }
        }
    }
    let all_threats = threats.iter().fold(0, |set, &t| set | t);
    let [first, second] = pair.map_or([usize::MAX; 2], |pair| pair.groups());
    // The royal cells as (first, second), where both stand.
    let royal_cells = pair.and_then(|_| {
        let cell = |g: usize| pieces.iter().find(|&&q| group_of(q) == g).map(|&q| cell_of(q));
        Some((cell(first)?, cell(second)?))
    });
    let (mut count, mut best_over) = (0usize, None::<Value>);
    // A child where some piece of its side to move can take the mover's royal
    // piece is a win in 1 by the rules, whichever piece it is.
    let mut tally = |child_word: usize, child_royals: Option<(u32, u32)>, child_threats: u128| {
        let value = match table.outcome(child_word, child_to_move) {
            Some(outcome) => Some(outcome.value()),
            None => child_royals
                .filter(|&(x, y)| child_threats >> if to_move == 0 { x } else { y } & 1 == 1)
                .map(|_| Value::Win(1)),
        };
        match value {
            Some(value) => best_over = best_over.max(Some(value.parent_view())),
            None => count += 1,
        }
    };
    // The child's word, royal cells (none where a royal piece was taken
    // without ending the game: no index holds such a child) and threats after
    // the piece at place k of the list goes to `to` as a piece of group
    // `lands`, taking the piece at place `taken`, if any.
    let moved = |k: usize, to: u32, lands: usize, taken: Option<usize>| {
        let g = group_of(pieces[k]);
        let mut royals = royal_cells;
        if g == first {
            royals = royals.map(|(_, y)| (to, y));
        } else if g == second {
            royals = royals.map(|(x, _)| (x, to));
        }
        let mut child_word = table.word_at(lands * cells + to as usize);
        let mut child_threats = all_threats;
        match taken {
            None => child_word |= all_but[k],
            Some(taken) => {
                if group_of(pieces[taken]) == first || group_of(pieces[taken]) == second {
                    royals = None;
                }
                for (j, &w) in words[..pieces.len()].iter().enumerate() {
                    if j != k && j != taken {
                        child_word |= w;
                    }
                }
                child_threats = 0;
                for (j, &t) in threats[..pieces.len()].iter().enumerate() {
                    if j != taken {
                        child_threats |= t;
                    }
                }
            }
        }
        (child_word, royals, child_threats)
    };
    if !tables.short_target_sets().is_empty() {
        short_moves(tables, p, |m| match m {
            Short::Piece { k, to, lands, taken } => {
                let (w, r, t) = moved(k, to, lands, taken);
                tally(w, r, t)
            }
            Short::Drop { group, to } => {
                tally(word | table.word_at(group * cells + to as usize), royal_cells, all_threats)
            }
            Short::Pass => tally(word, royal_cells, all_threats),
        });
        return FirstLook::Moves { count, best_over };
    }
    // The cells with a piece, on boards of at most 128 cells: most moves
    // take nothing, and this says so without looking at every piece.
    let occupied = (cells <= 128).then(|| pieces.iter().fold(0u128, |set, &q| set | 1 << cell_of(q)));
    // The cell of the piece moved last and its place in `pieces`.
    let mut mover = (u32::MAX, 0usize);
    moves::for_each(tables, p, |m| {
        let (child_word, child_royals, child_threats) = match m.steps() {
            [] => (word, royal_cells, all_threats),
            &[(from, to)] if from >= DROP => {
                let g = (from - DROP) as usize;
                (word | table.word_at(g * cells + to as usize), royal_cells, all_threats)
            }
            &[(from, to)] if from == to => (word, royal_cells, all_threats),
            &[(from, to)] => {
                let (from, to) = (from as u32, to as u32);
                // The mover: a piece's moves come one after another, so it is
                // looked for once a piece.
                if mover.0 != from {
                    let k = pieces.iter().position(|&q| cell_of(q) == from).expect("a move starts at a piece");
                    mover = (from, k);
                }
                let k = mover.1;
                let g = group_of(pieces[k]);
                let lands = if m.promotes() { tables.promotion(g).map_or(g, |promotion| promotion.group) } else { g };
                let taken = match occupied {
                    Some(occupied) if occupied >> to & 1 == 0 => None,
                    _ => pieces.iter().position(|&q| cell_of(q) == to),
                };
                moved(k, to, lands, taken)
            }
            _ => unreachable!("a side that moves one piece moves one piece"),
        };
        tally(child_word, child_royals, child_threats)
    });
    FirstLook::Moves { count, best_over }
}

/// A move as [`short_moves`] yields it.
enum Short {
    /// The piece at place `k` of the list goes to `to` as a piece of group
    /// `lands` (its own, or its promoted group), taking the piece at place
    /// `taken`, if any.
    Piece { k: usize, to: u32, lands: usize, taken: Option<usize> },
    /// A piece of group `group` dropped on `to`.
    Drop { group: usize, to: u32 },
    /// The side stays put.
    Pass,
}

/// Calls `f` with each move of `p` as [`moves::for_each`] finds them, in a
/// game with [`Tables::short_targets`] whose side moves one piece a turn and
/// leaves no trail: each piece's targets are its two sets against the empty
/// cells and the enemy's, a target in a promotion zone once or twice as
/// [`moves::step_moves`] plays it, then the drops (each droppable group on each
/// allowed empty cell; gravity walked as [`moves::drop_moves`] walks it), then
/// a pass where a piece may stay. The same moves, not in the same order
/// (a first look only counts them and keeps the best ended child).
///
/// Why: each piece's moves are two set operations, where the rays were walked
/// cell by cell and each move built and matched. It measured 0.97 of the CPU
/// of a Dobutsu endgame's build, within the noise: the first look's time is
/// in each position's words and each move's ending, not in finding the moves.
#[inline]
fn short_moves<const N: usize>(tables: &Tables, p: &RulesPosition<N>, mut f: impl FnMut(Short)) {
    let to_move = p.to_move();
    let pieces = p.packed();
    let (mut own, mut enemy) = (0u128, 0u128);
    for &q in pieces {
        if tables.side_of(group_of(q)) == to_move {
            own |= 1 << cell_of(q);
        } else {
            enemy |= 1 << cell_of(q);
        }
    }
    let empty = !(own | enemy);
    let mut can_pass = false;
    for (k, &q) in pieces.iter().enumerate() {
        let g = group_of(q);
        if tables.side_of(g) != to_move {
            continue;
        }
        can_pass |= tables.stays(g);
        let [onto_empty, onto_enemy] = tables.short_targets(g, cell_of(q)).expect("short targets");
        let promotion = tables.promotion(g);
        let mut step = |to: u32, taken: Option<usize>| match promotion {
            Some(promotion) if promotion.zone[to as usize] => {
                f(Short::Piece { k, to, lands: promotion.group, taken });
                if !promotion.forced {
                    f(Short::Piece { k, to, lands: g, taken });
                }
            }
            _ => f(Short::Piece { k, to, lands: g, taken }),
        };
        let mut quiet = onto_empty & empty;
        while quiet != 0 {
            let to = quiet.trailing_zeros();
            quiet &= quiet - 1;
            step(to, None);
        }
        let mut takes = onto_enemy & enemy;
        while takes != 0 {
            let to = takes.trailing_zeros();
            takes &= takes - 1;
            step(to, pieces.iter().position(|&q| cell_of(q) == to));
        }
    }
    if pieces.len() < N {
        for (g, drop) in tables.drops_by_group().iter().enumerate() {
            let Some(drop) = drop else { continue };
            if tables.side_of(g) != to_move || (drop.from_hand && p.in_hand(tables.hand_slot_of(g) as usize) == 0) {
                continue;
            }
            if drop.gravity {
                let occupied = own | enemy;
                for &top in tables.column_tops() {
                    if let Some(to) = tables.fall(top, occupied) {
                        if drop.allows(to) {
                            f(Short::Drop { group: g, to });
                        }
                    }
                }
                continue;
            }
            let mut cells = drop.allowed_set & empty;
            while cells != 0 {
                let to = cells.trailing_zeros();
                cells &= cells - 1;
                f(Short::Drop { group: g, to });
            }
        }
    }
    if can_pass {
        f(Short::Pass);
    }
}

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
    cells: usize,
    starts: Vec<usize>,
    classes: Vec<(usize, u64)>,
    zone: Vec<u64>,
    promoted: Vec<usize>,
    forced: Vec<bool>,
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
    fn classes(&self, g: usize) -> &[(usize, u64)] {
        &self.classes[self.starts[g]..self.starts[g + 1]]
    }
}

/// Which bits of a set of words are had by at least one word, two, three
/// (the words folded in one at a time): the OR of all of them but one or two
/// of them is then read off without going over them again.
#[derive(Clone, Copy, Default)]
pub(crate) struct Tally<W> {
    once: W,
    twice: W,
    thrice: W,
}

impl<W> Tally<W>
where
    W: Copy + std::ops::BitOr<Output = W> + std::ops::BitAnd<Output = W> + std::ops::Not<Output = W>,
{
    #[inline]
    pub(crate) fn add(&mut self, w: W) {
        self.thrice = self.thrice | (self.twice & w);
        self.twice = self.twice | (self.once & w);
        self.once = self.once | w;
    }

    /// The OR of every word.
    #[inline]
    pub(crate) fn all(&self) -> W {
        self.once
    }

    /// The OR of every word but `a`, one of them.
    #[inline]
    pub(crate) fn without(&self, a: W) -> W {
        self.once & !(a & self.once & !self.twice)
    }

    /// The OR of every word but `a` and `b`, two of them.
    #[inline]
    fn without_two(&self, a: W, b: W) -> W {
        let one = self.once & !self.twice;
        let two = self.twice & !self.thrice;
        self.once & !((one & (a | b)) | (two & a & b))
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
    let cells = look.cells;
    let groups = tables.groups();
    let pair = index.royal_pair();
    let child_to_move = 1 - to_move;
    // The words of every piece, the threats of the child's side to move's
    // pieces (which its moves change only by a capture), those of the side to
    // move's, the sides' cells.
    let (mut words, mut threats) = (Tally::<usize>::default(), Tally::<u128>::default());
    let (mut own_takes, mut own, mut enemy, mut pieces) = (0u128, 0u64, 0u64, 0usize);
    for (g, &mask) in masks[..groups].iter().enumerate() {
        if mask == 0 {
            continue;
        }
        let side = tables.side_of(g);
        if side == to_move {
            own |= mask;
        } else {
            enemy |= mask;
        }
        pieces += mask.count_ones() as usize;
        let mut bits = mask;
        while bits != 0 {
            let c = bits.trailing_zeros();
            bits &= bits - 1;
            words.add(table.word_at(g * cells + c as usize));
            if let Some(pair) = pair {
                let takes = pair.sure_takes(g, c);
                if side == child_to_move {
                    threats.add(takes);
                } else {
                    own_takes |= takes;
                }
            }
        }
    }
    let word = words.all();
    if let Some(outcome) = table.outcome(word, to_move) {
        return FirstLook::Over(outcome);
    }
    let [first, second] = pair.map_or([usize::MAX; 2], |pair| pair.groups());
    // The royal cells as (first, second), where both stand.
    let royal_cells = pair.and_then(|_| {
        let (x, y) = (masks[first], masks[second]);
        (x != 0 && y != 0).then(|| (x.trailing_zeros(), y.trailing_zeros()))
    });
    // The side to move takes the other's royal piece at once.
    let target = if to_move == 0 { second } else { first };
    if pair.is_some() && masks[target] != 0 && own_takes >> masks[target].trailing_zeros() & 1 == 1 {
        return FirstLook::ByRules;
    }
    let all_threats = threats.all();
    let (mut count, mut best_over) = (0usize, None::<Value>);
    // `targets` children, alike but for the mover's cell, with the child's
    // word `child_word`, threats `child_threats` and royal cells
    // `child_royals` (where the mover is the side to move's royal piece, its
    // cell is each target in turn, `royal_moves`): each over, a win in 1 by
    // the rules (the child's side to move takes the mover's royal piece for
    // sure), or counted.
    let mut tally =
        |child_word: usize, targets: u64, child_royals: Option<(u32, u32)>, child_threats: u128, royal_moves: bool| {
            if let Some(outcome) = table.outcome(child_word, child_to_move) {
                best_over = best_over.max(Some(outcome.value().parent_view()));
                return;
            }
            // The children where the mover's royal piece can be taken.
            let taken = match child_royals {
                None => 0,
                Some(_) if royal_moves => targets & child_threats as u64,
                Some((x, y)) if child_threats >> if to_move == 0 { x } else { y } & 1 == 1 => targets,
                Some(_) => 0,
            };
            if taken != 0 {
                best_over = best_over.max(Some(Value::Win(1).parent_view()));
            }
            count += (targets & !taken).count_ones() as usize;
        };
    let empty = !(own | enemy);
    let mut can_pass = false;
    for g in 0..groups {
        let mask = masks[g];
        if mask == 0 || tables.side_of(g) != to_move {
            continue;
        }
        can_pass |= tables.stays(g);
        let royal_moves = g == first || g == second;
        let (zone, promoted, forced) = (look.zone[g], look.promoted[g], look.forced[g]);
        let mut bits = mask;
        while bits != 0 {
            let from = bits.trailing_zeros();
            bits &= bits - 1;
            let own_word = table.word_at(g * cells + from as usize);
            let rest = words.without(own_word);
            let [onto_empty, onto_enemy] = tables.short_targets(g, from).expect("short targets");
            // The royal cells after a move of this piece to `to`.
            let royals_at = |to: u32| match royal_cells {
                Some((_, y)) if g == first => Some((to, y)),
                Some((x, _)) if g == second => Some((x, to)),
                royals => royals,
            };
            let quiet = onto_empty as u64 & empty;
            for &(class_word, class) in look.classes(g) {
                let targets = quiet & !zone & class;
                if targets != 0 {
                    tally(rest | class_word, targets, royal_cells, all_threats, royal_moves);
                }
            }
            let mut promotes = quiet & zone;
            while promotes != 0 {
                let to = promotes.trailing_zeros();
                promotes &= promotes - 1;
                let royals = royals_at(to);
                tally(rest | table.word_at(promoted * cells + to as usize), 1 << to, royals, all_threats, false);
                if !forced {
                    tally(rest | table.word_at(g * cells + to as usize), 1 << to, royals, all_threats, false);
                }
            }
            let mut takes = onto_enemy as u64 & enemy;
            while takes != 0 {
                let to = takes.trailing_zeros();
                takes &= takes - 1;
                let victim = (0..groups).find(|&h| masks[h] >> to & 1 == 1).expect("an enemy stands there");
                let victim_word = table.word_at(victim * cells + to as usize);
                let rest = words.without_two(own_word, victim_word);
                let victim_threats = pair.map_or(0, |pair| pair.sure_takes(victim, to));
                let child_threats = threats.without(victim_threats);
                let royals = if victim == first || victim == second { None } else { royals_at(to) };
                let in_zone = zone >> to & 1 == 1;
                if in_zone {
                    tally(rest | table.word_at(promoted * cells + to as usize), 1 << to, royals, child_threats, false);
                }
                if !in_zone || !forced {
                    tally(rest | table.word_at(g * cells + to as usize), 1 << to, royals, child_threats, false);
                }
            }
        }
    }
    if pieces < room {
        for (g, drop) in tables.drops_by_group().iter().enumerate() {
            let Some(drop) = drop else { continue };
            if tables.side_of(g) != to_move || (drop.from_hand && hands[tables.hand_slot_of(g) as usize] == 0) {
                continue;
            }
            if drop.gravity {
                let occupied = (own | enemy) as u128;
                for &top in tables.column_tops() {
                    if let Some(to) = tables.fall(top, occupied) {
                        if drop.allows(to) {
                            tally(
                                word | table.word_at(g * cells + to as usize),
                                1 << to,
                                royal_cells,
                                all_threats,
                                false,
                            );
                        }
                    }
                }
                continue;
            }
            let allowed = drop.allowed_set as u64 & empty;
            for &(class_word, class) in look.classes(g) {
                let targets = allowed & class;
                if targets != 0 {
                    tally(word | class_word, targets, royal_cells, all_threats, false);
                }
            }
        }
    }
    if can_pass {
        tally(word, 1, royal_cells, all_threats, false);
    }
    FirstLook::Moves { count, best_over }
}

#[cfg(test)]
mod tests {
    use super::Tally;
    use proptest::prelude::*;

    proptest! {
        /// The ORs with one or two words left out equal the ORs taken again
        /// over the others (words of 4 bits: most bits are had by several).
        #[test]
        fn tally_leaves_out_words_as_or_of_the_rest(
            words in proptest::collection::vec(0usize..16, 2..9),
            a in 0usize..8,
            b in 0usize..8,
        ) {
            let (a, b) = (a % words.len(), b % words.len());
            prop_assume!(a != b);
            let mut tally = Tally::default();
            words.iter().for_each(|&w| tally.add(w));
            let or_but = |skip: &[usize]| {
                words.iter().enumerate().filter(|(i, _)| !skip.contains(i)).fold(0, |set, (_, &w)| set | w)
            };
            prop_assert_eq!(tally.all(), or_but(&[]));
            prop_assert_eq!(tally.without(words[a]), or_but(&[a]));
            prop_assert_eq!(tally.without_two(words[a], words[b]), or_but(&[a, b]));
        }
    }
}
