//! Parents of a position, derived from the rules: every move run backwards.
//!
//! The side that just moved is the one not to move. For a side that moves one
//! piece, each of its pieces may have come back along a backward ray (the move's
//! vectors reversed, blocked by the same cells), from an empty cell: quietly if the
//! move may land on an empty cell, or capturing a piece of any enemy kind that
//! the index has room for if it may land on an enemy (and the two do not meet,
//! which would have ended the game). A side that may pass may have passed. For a
//! side that moves every piece, each piece came from a cell of its backward rays
//! or stayed, all origins different. A piece of a kind that is dropped may have
//! been dropped where it stands (where it may land, and where it would come to
//! rest if it falls; from the hand, which then held one more). A piece of a
//! promoted kind in its promotion zone may have come as the kind it was promoted
//! from; a piece that must promote there did not come to it by a move. A capture
//! that sent the captured piece to the captor's hand took it from there. In games
//! with drops or promotions, a parent whose counts are no tier of the index is
//! left out.
//!
//! # Invariant
//! Each parent is yielded once per move leading to the child, which is once:
//! forward move generation yields each distinct move once, and distinct moves of
//! one position lead to distinct positions. Parents that are over (the game ended
//! there) are left out: they have no moves. [`gsolve_engine::check::unmoves_match_moves`]
//! checks all of this on every test game.

use crate::compiled::endings::EndingTable;
use crate::compiled::moves::{self, RulesMove, Seen};
use crate::compiled::position::{cell_of, group_of, pack, RulesPosition};
use crate::compiled::tables::{Tables, MAX_ALL_PIECES, MAX_HAND_SLOTS, NO_SLOT};
use crate::index::PlacementIndex;
use crate::language::spec::Turn;

/// Calls `f` with each parent of a position where play goes on, in the game of
/// `tables` with the index `index` (whose tiers bound the parents' counts).
pub(crate) fn parents<const N: usize>(
    tables: &Tables,
    index: Option<&PlacementIndex>,
    c: &RulesPosition<N>,
    f: &mut impl FnMut(RulesPosition<N>),
) {
    Parents { tables, index, check_tiers: true }.of(c, &mut |parent| f(parent.position()))
}

/// [`parents`] as [`Parent`]s, which say how a parent differs from the child
/// where that is a quiet move of one piece, for a caller that ranks such
/// parents from the child's ranks.
pub(crate) fn parents_with_moves<const N: usize>(
    tables: &Tables,
    index: Option<&PlacementIndex>,
    c: &RulesPosition<N>,
    f: &mut impl FnMut(Parent<'_, N>),
) {
    Parents { tables, index, check_tiers: true }.of(c, f)
}

/// A parent as the walk yields it: built, or a quiet move's, which is made
/// only where it is asked for ([`Parent::position`]).
///
/// Why: most parents are quiet, and a caller that ranks them from their
/// child's ranks needs no position, where each was a copy of the child with
/// a piece slid into place (in a profile of a Dobutsu endgame's build the
/// walk's own time fell by about a twelfth).
#[derive(Clone, Copy)]
pub(crate) enum Parent<'c, const N: usize> {
    Built(RulesPosition<N>),
    /// The child with its piece at place `at` of the list moved back by
    /// `quiet`, the other side to move.
    Quiet {
        child: &'c RulesPosition<N>,
        at: usize,
        quiet: Quiet,
    },
}

impl<const N: usize> Parent<'_, N> {
    /// The parent.
    #[inline]
    pub(crate) fn position(&self) -> RulesPosition<N> {
        match *self {
            Parent::Built(parent) => parent,
            Parent::Quiet { child, at, quiet } => {
                let mut parent = *child;
                parent.replace_at(at, pack(quiet.group, quiet.from));
                parent.pass_turn();
                parent
            }
        }
    }

    /// The quiet move that leads from it to the child, if it is one.
    #[inline]
    pub(crate) fn quiet(&self) -> Option<Quiet> {
        match *self {
            Parent::Built(_) => None,
            Parent::Quiet { quiet, .. } => Some(quiet),
        }
    }

    /// Its side to move.
    #[inline]
    fn side_to_move(&self) -> usize {
        match self {
            Parent::Built(parent) => parent.to_move(),
            Parent::Quiet { child, .. } => 1 - child.to_move(),
        }
    }
}

/// A parent that differs from its child by one piece of group `group` standing
/// on `from` where the child has it on `to`: a quiet move (no capture, drop or
/// promotion), so the counts and the hands are the child's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quiet {
    pub(crate) group: usize,
    pub(crate) from: u32,
    pub(crate) to: u32,
}

/// [`parents`], less the check that a parent's counts are a tier of the index
/// where drops or promotions change them: for a caller that locates every
/// parent in the index anyway (a parent whose counts are no tier has no place).
/// Why: the check looked each parent's tier up a second time, and every parent
/// of a solve passes here.
pub(crate) fn parents_to_locate<const N: usize>(
    tables: &Tables,
    index: &PlacementIndex,
    c: &RulesPosition<N>,
    f: &mut impl FnMut(Parent<'_, N>),
) {
    Parents { tables, index: Some(index), check_tiers: false }.of(c, f)
}

/// What the parents are found from: the tables, and the index.
struct Parents<'a> {
    tables: &'a Tables,
    index: Option<&'a PlacementIndex>,
    /// Leave out parents whose counts are no tier (where drops or promotions
    /// change the counts): false where the caller locates each parent.
    check_tiers: bool,
}

impl Parents<'_> {
    fn of<const N: usize>(&self, c: &RulesPosition<N>, f: &mut impl FnMut(Parent<'_, N>)) {
        if c.ended() != 0 {
            return;
        }
        let side = 1 - c.to_move();
        match self.tables.turn_of(side) {
            Turn::OnePiece if self.tables.steps_only() => self.step_parents(c, side, f),
            Turn::OnePiece => self.one_piece_parents(c, side, f),
            Turn::AllPieces => self.all_piece_parents(c, side, f),
        }
    }

    fn emit<'c, const N: usize>(&self, parent: Parent<'c, N>, f: &mut impl FnMut(Parent<'c, N>)) {
        if moves::terminal(self.tables, &parent.position()).is_none() {
            f(parent);
        }
    }

    /// [`Self::emit`] of a parent whose ending word is `word`, where the child's
    /// [`Words`] gave it: the same test, read from the word.
    #[inline]
    fn emit_by_word<'c, const N: usize>(
        &self,
        parent: Parent<'c, N>,
        word: Option<usize>,
        f: &mut impl FnMut(Parent<'c, N>),
    ) {
        match (word, self.tables.endings().table()) {
            (Some(word), Some(table)) => {
                if table.outcome(word, parent.side_to_move()).is_none() {
                    f(parent)
                }
            }
            _ => self.emit(parent, f),
        }
    }

    /// [`Self::one_piece_parents`] in a game where pieces only step (no drops,
    /// promotions, hands or trails: [`Tables::steps_only`]): each piece of the side
    /// came back along its backward rays from an empty cell, quietly or capturing
    /// an enemy the index has room for. The same parents, without the count vector
    /// and the checks for drops and promotions that such games never need.
    fn step_parents<const N: usize>(&self, c: &RulesPosition<N>, side: usize, f: &mut impl FnMut(Parent<'_, N>)) {
        let t = self.tables;
        let pieces = c.packed();
        let words = Words::of(t, c);
        let mut can_pass = false;
        let mut seen = Seen::default();
        let mut occupied = None;
        for (i, &packed) in pieces.iter().enumerate() {
            let g = group_of(packed);
            if t.side_of(g) != side {
                continue;
            }
            can_pass |= t.stays(g);
            let to = cell_of(packed);
            // The piece stood on `from`, empty in the child.
            let visit = |from: u32, quiet: bool, capture: bool| {
                let moved_word = words.as_ref().map(|w| w.others[i] | w.at(g, from));
                if quiet {
                    let parent = Parent::Quiet { child: c, at: i, quiet: Quiet { group: g, from, to } };
                    self.emit_by_word(parent, moved_word, f);
                }
                if capture && c.piece_count() < N {
                    self.step_capture_parents(c, i, from, words.as_ref().zip(moved_word), f);
                }
            };
            for_each_origin(t, c, g, to, &mut occupied, &mut seen, visit);
        }
        if can_pass {
            let mut parent = *c;
            parent.pass_turn();
            self.emit_by_word(Parent::Built(parent), words.as_ref().map(|w| w.all), f);
        }
    }

    /// The parents where the piece at place `i` of the child's list came from
    /// `from` capturing an enemy on its cell, in a game where pieces only step: one
    /// for each enemy group it does not meet whose count the index has room for
    /// one more of ([`Self::capture_parents`] without hands). `words`: the
    /// child's, with the word of its pieces after the move back.
    fn step_capture_parents<const N: usize>(
        &self,
        c: &RulesPosition<N>,
        i: usize,
        from: u32,
        words: Option<(&Words<'_, N>, usize)>,
        f: &mut impl FnMut(Parent<'_, N>),
    ) {
        let t = self.tables;
        let packed = c.packed()[i];
        let (g, to) = (group_of(packed), cell_of(packed));
        let side = t.side_of(g);
        for h in 0..t.groups() {
            if t.side_of(h) == side || t.meet_code(g, h) != 0 {
                continue;
            }
            let fits = self.index.is_none_or(|index| {
                let count = c.packed().iter().filter(|&&q| group_of(q) == h).count();
                count < index.limits()[h] as usize
            });
            if fits {
                let mut parent = *c;
                parent.replace_at(i, pack(g, from));
                parent.insert(pack(h, to));
                parent.pass_turn();
                self.emit_by_word(Parent::Built(parent), words.map(|(w, moved)| moved | w.at(h, to)), f);
            }
        }
    }

    fn one_piece_parents<const N: usize>(&self, c: &RulesPosition<N>, side: usize, f: &mut impl FnMut(Parent<'_, N>)) {
        let t = self.tables;
        let n = t.groups();
        let slots = t.hand_groups().len();
        let limits = self.index.map(|index| index.limits());
        // The count vector (groups on the board, then hand slots), on the stack:
        // this runs for every position.
        let mut counts = [0u8; 64 + MAX_HAND_SLOTS];
        for &q in c.packed() {
            counts[group_of(q)] += 1;
        }
        for slot in 0..slots {
            counts[n + slot] = c.in_hand(slot);
        }
        // Where drops or promotions change the counts, the tiers are those they
        // reach: a parent must lie in one. Elsewhere every count up to the limits
        // is a tier.
        let exact = self.index.is_some() && (t.rules().has_drops() || t.rules().has_promotions());
        let check_tiers = exact && self.check_tiers;
        let in_index = |counts: &[u8]| {
            !check_tiers || self.index.is_some_and(|index| index.tier_of(&counts[..n + slots]).is_some())
        };
        let words = Words::of(t, c);
        let threats = Threats::of(t, self.index, c, side);
        let mut can_pass = false;
        let mut seen = Seen::default();
        let mut occupied = None;
        for (k, &packed) in c.packed().iter().enumerate() {
            let g = group_of(packed);
            if t.side_of(g) != side {
                continue;
            }
            can_pass |= t.stays(g);
            let to = cell_of(packed);
            if let Some(drop) = t.drop_targets(g) {
                // Dropped here: the parent lacks the piece (and had it in hand).
                let occupied = *occupied.get_or_insert_with(|| c.occupied());
                let landed = drop.allows(to)
                    && (!drop.gravity || t.rests_on(to, occupied))
                    && !threats.as_ref().is_some_and(|threats| threats.take(threats.others[k]));
                let slot = t.hand_slot_of(g) as usize;
                let hand_room = !drop.from_hand || c.in_hand(slot) < 15;
                if landed && hand_room {
                    counts[g] -= 1;
                    if drop.from_hand {
                        counts[n + slot] += 1;
                    }
                    if in_index(&counts) {
                        let mut parent = *c;
                        parent.remove(packed);
                        if drop.from_hand {
                            parent.put_in_hand(slot);
                        }
                        parent.pass_turn();
                        self.emit_by_word(Parent::Built(parent), words.as_ref().map(|w| w.others[k]), f);
                    }
                    counts[g] += 1;
                    if drop.from_hand {
                        counts[n + slot] -= 1;
                    }
                }
            }
            // The piece came by a move: as itself (unless it would have had to
            // promote here), or as a kind that promotes to it here.
            let forced_here = t.promotion(g).is_some_and(|p| p.forced && p.zone[to as usize]);
            let promoted_from = (0..n).filter(|&b| t.promotion(b).is_some_and(|p| p.group == g && p.zone[to as usize]));
            let movers = (!forced_here).then_some(g).into_iter().chain(promoted_from);
            for mover in movers {
                if mover != g {
                    counts[g] -= 1;
                    counts[mover] += 1;
                }
                // The piece stood on `from`, which is empty in the child; `to`
                // was empty (`quiet`) or held an enemy (`capture`).
                let visit = |from: u32, quiet: bool, capture: bool| {
                    if threats.as_ref().is_some_and(|threats| threats.take_moved(k, mover, from)) {
                        return;
                    }
                    let moved_word = words.as_ref().map(|w| w.others[k] | w.at(mover, from));
                    if quiet && in_index(&counts) {
                        let parent = if mover == g {
                            Parent::Quiet { child: c, at: k, quiet: Quiet { group: g, from, to } }
                        } else {
                            // A promotion undone: the counts change.
                            let mut parent = *c;
                            parent.replace_at(k, pack(mover, from));
                            parent.pass_turn();
                            Parent::Built(parent)
                        };
                        self.emit_by_word(parent, moved_word, f);
                    }
                    if capture && c.piece_count() < N {
                        let back = Back { at: k, packed, mover, from, words: words.as_ref().zip(moved_word) };
                        self.capture_parents(c, back, &mut counts, limits, check_tiers, f);
                    }
                };
                for_each_origin(t, c, mover, to, &mut occupied, &mut seen, visit);
                if mover != g {
                    counts[g] += 1;
                    counts[mover] -= 1;
                }
            }
        }
        if can_pass && !threats.as_ref().is_some_and(|threats| threats.take(threats.all)) {
            let mut parent = *c;
            parent.pass_turn();
            self.emit_by_word(Parent::Built(parent), words.as_ref().map(|w| w.all), f);
        }
    }

    /// The parents where the piece `back.packed` of the child came from
    /// `back.from` as a piece of group `back.mover`, capturing an enemy on its
    /// cell: one for each enemy group the parent's counts have room for (and not a
    /// meeting, which would have ended the game). A captured piece that went to
    /// the captor's hand came from there. `counts` is the child's count vector
    /// with the mover's change made; it is left as it was.
    fn capture_parents<const N: usize>(
        &self,
        c: &RulesPosition<N>,
        back: Back<'_, '_, N>,
        counts: &mut [u8],
        limits: Option<&[u8]>,
        check_tiers: bool,
        f: &mut impl FnMut(Parent<'_, N>),
    ) {
        let t = self.tables;
        let n = t.groups();
        let slots = t.hand_groups().len();
        let Back { at, packed, mover, from, words } = back;
        let side = t.side_of(mover);
        let to = cell_of(packed);
        for h in 0..n {
            if t.side_of(h) == side || t.meet_code(mover, h) != 0 {
                continue;
            }
            let slot = t.captured_to_hand(h);
            if slot != NO_SLOT && c.in_hand(slot as usize) == 0 {
                continue;
            }
            counts[h] += 1;
            if slot != NO_SLOT {
                counts[n + slot as usize] -= 1;
            }
            let fits = if check_tiers {
                self.index.is_some_and(|index| index.tier_of(&counts[..n + slots]).is_some())
            } else {
                limits.is_none_or(|l| counts[h] <= l[h])
            };
            if fits {
                let mut parent = *c;
                parent.replace_at(at, pack(mover, from));
                parent.insert(pack(h, to));
                if slot != NO_SLOT {
                    parent.take_from_hand(slot as usize);
                }
                parent.pass_turn();
                self.emit_by_word(Parent::Built(parent), words.map(|(w, moved)| moved | w.at(h, to)), f);
            }
            counts[h] -= 1;
            if slot != NO_SLOT {
                counts[n + slot as usize] += 1;
            }
        }
    }

    /// Every piece of the side came from a cell of its backward rays (own pieces do
    /// not block: they all moved) or stayed; origins all different.
    fn all_piece_parents<const N: usize>(&self, c: &RulesPosition<N>, side: usize, f: &mut impl FnMut(Parent<'_, N>)) {
        let t = self.tables;
        let board = t.board();
        let mine: Vec<u32> = c.packed().iter().copied().filter(|&q| t.side_of(group_of(q)) == side).collect();
        if mine.is_empty() {
            return;
        }
        let mut options: Vec<Vec<u32>> = Vec::with_capacity(mine.len());
        for &packed in &mine {
            let (g, to) = (group_of(packed), cell_of(packed));
            let mut origins = Vec::new();
            if t.stays(g) {
                origins.push(to);
            }
            for ray in board.back_rays(g, to) {
                if !ray.onto.empty() {
                    continue; // such a move only meets enemies, which ends the game
                }
                for &from in board.ray_cells(ray) {
                    let enemy = c.at(from).is_some_and(|o| t.side_of(group_of(o)) != side);
                    let blocked = enemy || c.is_wall(from);
                    if !blocked && !origins.contains(&from) {
                        origins.push(from);
                    }
                    if blocked && !ray.leap {
                        break;
                    }
                }
            }
            if origins.is_empty() {
                return;
            }
            options.push(origins);
        }
        let mut parents: Vec<RulesPosition<N>> = Vec::new();
        let mut choice = vec![0usize; mine.len()];
        debug_assert!(mine.len() <= MAX_ALL_PIECES);
        loop {
            let origins: Vec<u32> = choice.iter().enumerate().map(|(i, &k)| options[i][k]).collect();
            if (0..origins.len()).all(|i| !origins[..i].contains(&origins[i])) {
                let mut parent = *c;
                for &packed in &mine {
                    parent.remove(packed);
                }
                for (i, &packed) in mine.iter().enumerate() {
                    parent.insert(pack(group_of(packed), origins[i]));
                }
                parent.pass_turn();
                // The parent's turn must really lead here (each piece's move legal
                // from where the others stood): checked by playing it.
                let m = RulesMove::all(origins.iter().zip(&mine).map(|(&from, &packed)| (from, cell_of(packed))));
                if moves::play(t, &parent, &m) == *c {
                    parents.push(parent);
                }
            }
            let mut i = 0;
            loop {
                if i == choice.len() {
                    // Each parent once (see the invariant): sorted, then deduplicated.
                    parents.sort_unstable();
                    parents.dedup();
                    parents.into_iter().for_each(|p| self.emit(Parent::Built(p), f));
                    return;
                }
                choice[i] += 1;
                if choice[i] < options[i].len() {
                    break;
                }
                choice[i] = 0;
                i += 1;
            }
        }
    }
}

/// Calls `visit(from, quiet, capture)` once for each cell `from` a piece of
/// group `g` on `to` in `c` may have come from: empty in `c`, on a backward
/// ray not blocked before it; `quiet` if a ray through it moves onto empty
/// cells, `capture` if one moves onto enemies. Where every move is a step or a
/// leap ([`Tables::short_sources`]) the origins are read off the occupied
/// cells and the walls (`occupied`: [`RulesPosition::occupied`] of `c`, made on
/// first use and kept for the caller), each once; else the rays are walked,
/// `seen` keeping the origins met where rays share cells.
#[inline]
fn for_each_origin<const N: usize>(
    t: &Tables,
    c: &RulesPosition<N>,
    g: usize,
    to: u32,
    occupied: &mut Option<u128>,
    seen: &mut Seen<(u32, bool)>,
    mut visit: impl FnMut(u32, bool, bool),
) {
    if let Some([by_quiet, by_capture]) = t.short_sources(g, to) {
        let blocked = *occupied.get_or_insert_with(|| c.occupied()) | c.walls();
        let mut origins = (by_quiet | by_capture) & !blocked;
        while origins != 0 {
            let from = origins.trailing_zeros();
            origins &= origins - 1;
            visit(from, by_quiet >> from & 1 == 1, by_capture >> from & 1 == 1);
        }
        return;
    }
    let board = t.board();
    seen.clear();
    let dedupe = board.back_rays_overlap(g, to);
    for ray in board.back_rays(g, to) {
        for &from in board.ray_cells(ray) {
            let occupied = c.at(from).is_some() || c.is_wall(from);
            if !occupied {
                let quiet = ray.onto.empty() && (!dedupe || seen.insert((from, false)));
                let capture = ray.onto.enemy() && (!dedupe || seen.insert((from, true)));
                visit(from, quiet, capture);
            }
            if occupied && !ray.leap {
                break;
            }
        }
    }
}

/// A capture run backwards: the child's piece `packed` came from `from` as a
/// piece of group `mover`; `words` are the child's [`Words`] with the word of
/// the parent's pieces but the captured one (where the child has words).
#[derive(Clone, Copy)]
struct Back<'w, 't, const N: usize> {
    /// `packed`'s place in the child's list.
    at: usize,
    packed: u32,
    mover: usize,
    from: u32,
    words: Option<(&'w Words<'t, N>, usize)>,
}

/// What the side that moved threatens in its parents: where the royal pieces
/// are ranked as a pair ([`crate::index::RoyalPair`]), a parent where that side
/// could take the other's royal piece at once is a win in 1 by the rules
/// ([`gsolve_engine::FirstLook::ByRules`]): no solver changes its value, so
/// the walk leaves it out, as it leaves out parents that are over. A parent's
/// threats are those of the child's pieces of that side, the moved piece
/// where it came from (a piece taken, put back, is the other side's; a
/// dropped piece goes back to the hand).
///
/// Why: almost half of Dobutsu's index is such a win, and each was a parent located
/// and looked up for nothing.
struct Threats<'p, const N: usize> {
    pair: &'p crate::index::RoyalPair,
    /// The cell of the child's side to move's royal piece.
    target: u32,
    /// `others[k]`: the cells the side's pieces but the child's k-th take on
    /// for sure.
    others: [u128; N],
    /// Those of all of them.
    all: u128,
}

impl<'p, const N: usize> Threats<'p, N> {
    /// The threats of `side` (the one that moved) in `c`, where the index
    /// ranks the royal pieces as a pair and `c` has the other's.
    fn of(tables: &Tables, index: Option<&'p PlacementIndex>, c: &RulesPosition<N>, side: usize) -> Option<Self> {
        let pair = index?.royal_pair()?;
        let royal = pair.groups()[1 - side];
        let pieces = c.packed();
        let target = cell_of(*pieces.iter().find(|&&q| group_of(q) == royal)?);
        let mut threats = Threats { pair, target, others: [0; N], all: 0 };
        let at = |q: u32| {
            let g = group_of(q);
            if tables.side_of(g) == side {
                pair.sure_takes(g, cell_of(q))
            } else {
                0
            }
        };
        let mut before = 0;
        for (k, &q) in pieces.iter().enumerate() {
            threats.others[k] = before;
            before |= at(q);
        }
        let mut after = 0;
        for (k, &q) in pieces.iter().enumerate().rev() {
            threats.others[k] |= after;
            after |= at(q);
        }
        threats.all = before;
        Some(threats)
    }

    /// Do the cells `threats` hold the royal piece's?
    #[inline]
    fn take(&self, threats: u128) -> bool {
        threats >> self.target & 1 == 1
    }

    /// [`Self::take`] in the parent where the child's `k`-th piece stood on
    /// `from` as a piece of group `mover`.
    #[inline]
    fn take_moved(&self, k: usize, mover: usize, from: u32) -> bool {
        self.take(self.others[k] | self.pair.sure_takes(mover, from))
    }
}

/// The ending words of a child's pieces, where the endings are one table and
/// being stuck is a loss, so that a position is over exactly when the word of
/// its pieces says so ([`crate::compiled::endings::Endings::ending`]). A parent differs
/// from its child by the piece moved back (and a captured piece put back, or a
/// dropped one taken off): its word is the OR of the words of the pieces the
/// two share and of the pieces the move back puts down, read here without
/// going over the pieces again, as [`crate::retrograde::first_look`] reads a child's.
///
/// Why: every parent of a solve is tested for an ending, and the test that walked
/// the pieces was a large part of Dobutsu's solve.
struct Words<'t, const N: usize> {
    table: &'t EndingTable,
    cells: usize,
    /// `others[k]`: the OR of the words of every piece of the child but its k-th.
    others: [usize; N],
    /// The OR of the words of all of them.
    all: usize,
}

impl<'t, const N: usize> Words<'t, N> {
    fn of(tables: &'t Tables, c: &RulesPosition<N>) -> Option<Self> {
        let endings = tables.endings();
        let table = endings.table().filter(|_| endings.stuck() == gsolve_engine::Outcome::Loss)?;
        let cells = tables.board().cells();
        let pieces = c.packed();
        let mut words = Words { table, cells, others: [0; N], all: 0 };
        // Each piece's word is left out of the ORs before it and after it.
        let mut before = 0;
        for (k, &q) in pieces.iter().enumerate() {
            words.others[k] = before;
            before |= words.at(group_of(q), cell_of(q));
        }
        let mut after = 0;
        for (k, &q) in pieces.iter().enumerate().rev() {
            words.others[k] |= after;
            after |= words.at(group_of(q), cell_of(q));
        }
        words.all = before;
        Some(words)
    }

    /// The word of a piece of group `g` on `cell`.
    #[inline]
    fn at(&self, g: usize, cell: u32) -> usize {
        self.table.word_at(g * self.cells + cell as usize)
    }
}
