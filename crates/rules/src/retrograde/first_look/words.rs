//! The first look from the pieces' ending words: each piece's moves walked (or read from two bit sets where every move is short), no child built.

use crate::compiled::endings::EndingTable;
use crate::compiled::moves::{self, DROP};
use crate::compiled::position::{cell_of, group_of, RulesPosition};
use crate::compiled::tables::Tables;
use crate::index::{PlacementIndex, RoyalPair};
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
///
/// The steps: the pieces' words ([`Words::of`]) and the position's own
/// ending asked; a win by the rules at once asked; the threats and royal
/// cells ([`ListParent::of`]); then each move's child tallied ([`Children`]):
/// the moves read from bit sets where every move is short
/// ([`ListParent::short_children`]), else walked
/// ([`ListParent::walked_children`]).
#[inline]
pub(crate) fn first_look<const N: usize>(tables: &Tables, index: &PlacementIndex, p: &RulesPosition<N>) -> FirstLook {
    let endings = tables.endings();
    let table = endings.table().expect("the first look applies only with an ending table");
    let cells = tables.board().cells();
    let to_move = p.to_move();
    let pieces = p.packed();
    let words = Words::<N>::of(table, cells, pieces);
    if let Some(outcome) = table.outcome(words.all, to_move) {
        return FirstLook::Over(outcome);
    }
    let pair = index.royal_pair();
    if pair.is_some_and(|pair| pair.side_takes_royal(tables, to_move, pieces)) {
        return FirstLook::ByRules;
    }
    let parent = ListParent::of(tables, table, pair, pieces, &words, to_move);
    let mut children = Children { table, to_move, count: 0, best_over: None };
    if !tables.short_target_sets().is_empty() {
        parent.short_children(tables, p, &mut children);
    } else {
        parent.walked_children(tables, p, &mut children);
    }
    FirstLook::Moves { count: children.count, best_over: children.best_over }
}

/// Each piece's ending word (`each[k]`, by its place in the list), all of
/// them, and all but each one (the ORs of the words before it and after it):
/// a quiet move's child word is the mover's "all but" and its word where it
/// lands.
struct Words<const N: usize> {
    each: [usize; N],
    all_but: [usize; N],
    all: usize,
}

impl<const N: usize> Words<N> {
    /// The words of `pieces` on a board of `cells` cells.
    #[inline]
    fn of(table: &EndingTable, cells: usize, pieces: &[u32]) -> Self {
        let mut words = Words { each: [0; N], all_but: [0; N], all: 0 };
        for (k, &q) in pieces.iter().enumerate() {
            words.each[k] = table.word_at(group_of(q) * cells + cell_of(q) as usize);
            words.all_but[k] = words.all;
            words.all |= words.each[k];
        }
        let mut after = 0;
        for k in (0..pieces.len()).rev() {
            words.all_but[k] |= after;
            after |= words.each[k];
        }
        words
    }
}

/// The children of a position as [`first_look`] tallies them: how many are
/// counted (not over, no win by the rules), and the best value for the
/// parent of those that are.
struct Children<'a> {
    table: &'a EndingTable,
    to_move: usize,
    count: usize,
    best_over: Option<Value>,
}

impl Children<'_> {
    /// The child with word `child_word`, royal cells `child_royals` and
    /// threats `child_threats`: over, a win in 1 by the rules, or counted. A
    /// child where some piece of its side to move can take the mover's royal
    /// piece is a win in 1 by the rules, whichever piece it is.
    #[inline]
    fn tally(&mut self, child_word: usize, child_royals: Option<(u32, u32)>, child_threats: u128) {
        let to_move = self.to_move;
        let value = match self.table.outcome(child_word, 1 - to_move) {
            Some(outcome) => Some(outcome.value()),
            None => child_royals
                .filter(|&(x, y)| child_threats >> if to_move == 0 { x } else { y } & 1 == 1)
                .map(|_| Value::Win(1)),
        };
        match value {
            Some(value) => self.best_over = self.best_over.max(Some(value.parent_view())),
            None => self.count += 1,
        }
    }
}

/// A position [`first_look`] looks at, not over and no win by the rules at
/// once: its pieces and their `words`; the cells each piece of the child's
/// side to move takes on for sure (`threats`), and all of them (a move of
/// the side to move changes them only by taking one of those pieces); the
/// royal groups and their cells as (first, second), where both stand.
struct ListParent<'a, const N: usize> {
    table: &'a EndingTable,
    cells: usize,
    pieces: &'a [u32],
    words: &'a Words<N>,
    threats: [u128; N],
    all_threats: u128,
    first: usize,
    second: usize,
    royal_cells: Option<(u32, u32)>,
}

impl<'a, const N: usize> ListParent<'a, N> {
    /// The position of `pieces` with their `words`, `to_move` to move; the
    /// threats and royal cells only where the index ranks the royal pieces as
    /// a `pair`.
    #[inline]
    fn of(
        tables: &'a Tables,
        table: &'a EndingTable,
        pair: Option<&RoyalPair>,
        pieces: &'a [u32],
        words: &'a Words<N>,
        to_move: usize,
    ) -> Self {
        let child_to_move = 1 - to_move;
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
        let royal_cells = pair.and_then(|_| {
            let cell = |g: usize| pieces.iter().find(|&&q| group_of(q) == g).map(|&q| cell_of(q));
            Some((cell(first)?, cell(second)?))
        });
        let cells = tables.board().cells();
        ListParent { table, cells, pieces, words, threats, all_threats, first, second, royal_cells }
    }

    /// The child's word, royal cells (none where a royal piece was taken
    /// without ending the game: no index holds such a child) and threats
    /// after the piece at place k of the list goes to `to` as a piece of
    /// group `lands`, taking the piece at place `taken`, if any.
    #[inline]
    fn moved(&self, k: usize, to: u32, lands: usize, taken: Option<usize>) -> (usize, Option<(u32, u32)>, u128) {
        let (pieces, n) = (self.pieces, self.pieces.len());
        let g = group_of(pieces[k]);
        let mut royals = self.royal_cells;
        if g == self.first {
            royals = royals.map(|(_, y)| (to, y));
        } else if g == self.second {
            royals = royals.map(|(x, _)| (x, to));
        }
        let mut child_word = self.table.word_at(lands * self.cells + to as usize);
        let mut child_threats = self.all_threats;
        match taken {
            None => child_word |= self.words.all_but[k],
            Some(taken) => {
                if group_of(pieces[taken]) == self.first || group_of(pieces[taken]) == self.second {
                    royals = None;
                }
                for (j, &w) in self.words.each[..n].iter().enumerate() {
                    if j != k && j != taken {
                        child_word |= w;
                    }
                }
                child_threats = 0;
                for (j, &t) in self.threats[..n].iter().enumerate() {
                    if j != taken {
                        child_threats |= t;
                    }
                }
            }
        }
        (child_word, royals, child_threats)
    }

    /// Tallies the children of `p` into `children`, its moves read from bit
    /// sets ([`short_moves`]: every move is short).
    #[inline]
    fn short_children(&self, tables: &Tables, p: &RulesPosition<N>, children: &mut Children<'_>) {
        let (word, royal_cells, all_threats) = (self.words.all, self.royal_cells, self.all_threats);
        short_moves(tables, p, |m| match m {
            Short::Piece { k, to, lands, taken } => {
                let (w, r, t) = self.moved(k, to, lands, taken);
                children.tally(w, r, t)
            }
            Short::Drop { group, to } => {
                children.tally(word | self.table.word_at(group * self.cells + to as usize), royal_cells, all_threats)
            }
            Short::Pass => children.tally(word, royal_cells, all_threats),
        });
    }

    /// Tallies the children of `p` into `children`, its moves walked
    /// ([`moves::for_each`]).
    #[inline]
    fn walked_children(&self, tables: &Tables, p: &RulesPosition<N>, children: &mut Children<'_>) {
        let (pieces, cells, table) = (self.pieces, self.cells, self.table);
        let (word, royal_cells, all_threats) = (self.words.all, self.royal_cells, self.all_threats);
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
                    let lands =
                        if m.promotes() { tables.promotion(g).map_or(g, |promotion| promotion.group) } else { g };
                    let taken = match occupied {
                        Some(occupied) if occupied >> to & 1 == 0 => None,
                        _ => pieces.iter().position(|&q| cell_of(q) == to),
                    };
                    self.moved(k, to, lands, taken)
                }
                _ => unreachable!("a side that moves one piece moves one piece"),
            };
            children.tally(child_word, child_royals, child_threats)
        });
    }
}

/// A move as [`short_moves`] yields it.
pub(super) enum Short {
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
/// cell by cell and each move built and matched. Finding the moves this way is
/// cheap, but the first look's time is in each position's words and each move's
/// ending, not in finding the moves.
#[inline]
pub(super) fn short_moves<const N: usize>(tables: &Tables, p: &RulesPosition<N>, mut f: impl FnMut(Short)) {
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
