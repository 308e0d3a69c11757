//! The first look read from the groups' cell sets: a placement unranked to one set a group, no piece list, no child built.

use super::{tally::*, words::*};
use crate::compiled::tables::Tables;
use crate::index::{PlacementIndex, MASK_GROUPS};
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
