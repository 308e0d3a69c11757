//! Retrograde's parents walked on cell sets: [`crate::retrograde::unmoves`]'s walk, read
//! from one 64-bit set per group and the hand counts, no piece list made.
//!
//! # Shape
//! Games where both sides move one piece a turn, every move is short (a step
//! or a leap: [`crate::compiled::tables::Tables::short_sources`]), the endings are one
//! table, being stuck is a loss (so a position's ending word says whether it
//! is over), no pieces meet, no piece leaves a trail and the index leaves
//! some endings out ([`crate::retrograde::first_look::applies`], [`crate::retrograde::first_look::SetLook`]'s
//! shape), on boards of at most 64 cells with at most [`MASK_GROUPS`] groups
//! ([`PlacementIndex::unranks_to_sets`], which `SetLook` asks). Dobutsu shogi
//! and Fox and Hounds are two; so is any rules file of that shape. The rules
//! decide.
//!
//! # How
//! 1. **Unrank** the child's index to sets ([`PlacementIndex::unrank_sets`]);
//!    its hands are its tier's.
//! 2. **Fold**: where the index folds by symmetry, the *base* is the child's
//!    image whose parents the index keeps ([`crate::retrograde::fold::Fold::parent_base`]),
//!    mapped a byte of each set at a time ([`SetImage`]).
//! 3. **Walk**: for each piece of the side that moved (group `g` on `to`), the
//!    parents [`crate::retrograde::unmoves`] finds, in the same cases:
//!    - dropped on `to`: the parent lacks it and holds one more in hand;
//!    - moved to `to` as `g` (unless `g` must promote there) or as a kind
//!      that promotes to `g` there, from each empty cell of the move's
//!      sources: quietly, or taking an enemy of each group it may take that
//!      the limits have room for (from the captor's hand where captures go
//!      there);
//!    - passed, where a piece of the side may stay.
//!
//!    A parent that is over is left out: its ending word is the OR of the
//!    child's words with the moved piece's left out ([`Tally`]) and the words
//!    of what the move back puts down. Where the royal pieces are ranked as a
//!    pair, a parent where the side that moved could take the other's royal
//!    piece is left out: the pieces that take the royal cell are read off the
//!    sets ([`RoyalTakers`]).
//! 4. **Rank**: a quiet parent from the base's ranks or its mirror image's
//!    ([`PlacementIndex::group_ranks_of_sets`], once a child, then
//!    [`PlacementIndex::moved_index`]), any other from its own sets
//!    ([`PlacementIndex::index_of_sets`]); a mirrored parent's sets are mapped
//!    as the base's are. Unfolded, the child is the base, and a parent that
//!    changes the counts is ranked through [`PlacementIndex::group_ranks_of_sets`]
//!    so that one whose counts are a tier but that has no index is told from
//!    one whose counts are none, as the list's walk tells them.
//!
//! Why: the walk over lists of pieces and the locating of each changed parent
//! from its list were most of a Dobutsu build; on sets neither list is made
//! (docs/rules-solving.md, "Dobutsu shogi, solved whole"; the instruction counts
//! in docs/performance.md).
//!
//! # Invariant
//! The parents, each as many times, that [`crate::retrograde::unmoves::parents_to_locate`]
//! (folded) or [`crate::retrograde::unmoves::parents_with_moves`] (unfolded) yields,
//! with the same indices: the tests' builds compare every walk with the list's.

use crate::compiled::endings::EndingTable;
use crate::compiled::position::{pack, RulesPosition};
use crate::compiled::symmetry::SetImage;
use crate::compiled::tables::{Tables, MAX_HAND_SLOTS, NO_SLOT};
use crate::index::{GroupRanks, PlacementIndex, TierHint, MASK_GROUPS};
use crate::language::spec::Turn;
use crate::retrograde::first_look::Tally;
use crate::retrograde::fold::{Fold, ParentFold};
use crate::retrograde::unmoves::Quiet;

/// A position as cell sets: `masks[g]` the cells of group g, `hands[s]` the
/// pieces in hand slot s, `to_move` to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sets {
    masks: [u64; MASK_GROUPS],
    hands: [u8; MAX_HAND_SLOTS],
    to_move: usize,
}

impl Sets {
    /// The cells any piece stands on.
    #[inline]
    fn occupied(&self) -> u64 {
        self.masks.iter().fold(0, |all, &mask| all | mask)
    }

    /// Its image under `image`.
    #[inline]
    fn image(&self, image: &SetImage, groups: usize, slots: usize) -> Sets {
        let mut mapped = Sets { masks: [0; MASK_GROUPS], hands: [0; MAX_HAND_SLOTS], to_move: self.to_move };
        for (g, &mask) in self.masks[..groups].iter().enumerate() {
            if mask != 0 {
                mapped.masks[image.group(g)] = image.cells(mask);
            }
        }
        for (slot, &hand) in self.hands[..slots].iter().enumerate() {
            mapped.hands[image.slot(slot)] = hand;
        }
        if image.swaps_sides() {
            mapped.to_move = 1 - self.to_move;
        }
        mapped
    }

    /// The position, for the tests' builds' checks.
    fn position<const N: usize>(&self, groups: usize, slots: usize) -> RulesPosition<N> {
        let mut p = RulesPosition::empty(self.to_move);
        for (g, &mask) in self.masks[..groups].iter().enumerate() {
            let mut mask = mask;
            while mask != 0 {
                p.insert(pack(g, mask.trailing_zeros()));
                mask &= mask - 1;
            }
        }
        for (slot, &hand) in self.hands[..slots].iter().enumerate() {
            for _ in 0..hand {
                p.put_in_hand(slot);
            }
        }
        p
    }
}

/// A parent as the walk yields it: a quiet move of one piece (the counts and
/// hands are the child's), or made whole.
#[derive(Clone, Copy, Debug)]
enum SetParent<'p> {
    Quiet(Quiet),
    Built(&'p Sets),
}

/// A drop run backwards: where a piece of the group may have been dropped.
#[derive(Clone, Copy, Debug)]
struct SetDrop {
    allowed: u64,
    gravity: bool,
    from_hand: bool,
    /// The hand slot, read only where `from_hand`.
    slot: usize,
}

/// Where the royal pieces are ranked as a pair ([`crate::index::RoyalPair`]):
/// `takers[g · cells + x]`, the cells from which a piece of group g takes on
/// `x` for sure; `royal[s]`, side s's royal group.
#[derive(Clone, Debug)]
struct RoyalTakers {
    royal: [usize; 2],
    takers: Vec<u64>,
}

/// Who of the side that moved takes on the other's royal cell in the child:
/// how many pieces (counted up to two a group: two or more means several),
/// and the one where there is one.
#[derive(Clone, Copy)]
struct Takers {
    /// The royal cell's bit.
    target: u32,
    count: u32,
    one: (usize, u32),
}

impl Takers {
    /// Do the side's pieces but the one of group `g` on `to` take the royal piece?
    #[inline]
    fn take_without(&self, g: usize, to: u32) -> bool {
        self.count >= 2 || self.count == 1 && self.one != (g, to)
    }
}

/// The layout of the walk for one game: what [`crate::retrograde::unmoves`] reads from the
/// tables, laid out on 64-bit sets.
#[derive(Clone, Debug)]
pub(crate) struct SetUnmoves {
    cells: usize,
    groups: usize,
    slots: usize,
    side_groups: [Vec<usize>; 2],
    /// `sources[g · cells + to]`: the cells a piece of group g may move to `to`
    /// from, onto an empty cell and onto an enemy.
    sources: Vec<[u64; 2]>,
    /// `words[g · cells + c]`: the ending word of a piece of group g on c.
    words: Vec<usize>,
    drops: Vec<Option<SetDrop>>,
    /// The cells where a piece of the group must promote.
    forced: Vec<u64>,
    /// For each group, the groups that promote to it, each with its zone.
    promoted_from: Vec<Vec<(usize, u64)>>,
    /// For each group, the enemy groups it may take (no meeting), each with the
    /// hand slot it goes to ([`NO_SLOT`]: none).
    takes: Vec<Vec<(usize, u8)>>,
    stays: Vec<bool>,
    limits: Vec<u8>,
    takers: Option<RoyalTakers>,
    swap: Option<SetImage>,
    mirror: Option<SetImage>,
}

impl SetUnmoves {
    /// The layout for the game of `tables` with `index`, folded by `fold`, where
    /// it has the shape (module docs); `set_look`: the game has
    /// [`crate::retrograde::first_look::SetLook`]'s shape.
    pub(crate) fn of(tables: &Tables, index: &PlacementIndex, fold: Option<&Fold>, set_look: bool) -> Option<Self> {
        let shaped = set_look
            && tables.endings().stuck() == gsolve_engine::Outcome::Loss
            && (0..2).all(|side| tables.turn_of(side) == Turn::OnePiece)
            && tables.short_sources(0, 0).is_some();
        if !shaped {
            return None;
        }
        let table = tables.endings().table()?;
        let (cells, groups, slots) = (tables.board().cells(), tables.groups(), tables.hand_groups().len());
        let set =
            |cells_of: &dyn Fn(u32) -> bool| (0..cells as u32).filter(|&c| cells_of(c)).fold(0u64, |s, c| s | 1 << c);
        let swap = match fold.and_then(Fold::swap) {
            Some(swap) => Some(SetImage::of(swap)?),
            None => None,
        };
        let mirror = match fold.and_then(Fold::mirror) {
            Some(mirror) => Some(SetImage::of(mirror)?),
            None => None,
        };
        let takers = index.royal_pair().filter(|_| !tables.steps_only()).map(|pair| {
            let mut takers = vec![0u64; groups * cells];
            for g in 0..groups {
                for x in 0..cells as u32 {
                    let mut takes = pair.sure_takes(g, x);
                    while takes != 0 {
                        let target = takes.trailing_zeros() as usize;
                        takes &= takes - 1;
                        takers[g * cells + target] |= 1 << x;
                    }
                }
            }
            RoyalTakers { royal: pair.groups(), takers }
        });
        Some(SetUnmoves {
            cells,
            groups,
            slots,
            side_groups: [0, 1].map(|side| (0..groups).filter(|&g| tables.side_of(g) == side).collect()),
            sources: (0..groups * cells)
                .map(|i| {
                    let [quiet, capture] = tables.short_sources(i / cells, (i % cells) as u32).expect("short moves");
                    [quiet as u64, capture as u64]
                })
                .collect(),
            words: (0..groups * cells).map(|i| table.word_at(i)).collect(),
            drops: (0..groups)
                .map(|g| {
                    tables.drop_targets(g).map(|drop| SetDrop {
                        allowed: set(&|c| drop.allows(c)),
                        gravity: drop.gravity,
                        from_hand: drop.from_hand,
                        slot: tables.hand_slot_of(g) as usize,
                    })
                })
                .collect(),
            forced: (0..groups)
                .map(|g| match tables.promotion(g) {
                    Some(p) if p.forced => set(&|c| p.zone[c as usize]),
                    _ => 0,
                })
                .collect(),
            promoted_from: (0..groups)
                .map(|g| {
                    (0..groups)
                        .filter_map(|b| {
                            let p = tables.promotion(b).filter(|p| p.group == g)?;
                            Some((b, set(&|c| p.zone[c as usize])))
                        })
                        .collect()
                })
                .collect(),
            takes: (0..groups)
                .map(|g| {
                    (0..groups)
                        .filter(|&h| tables.side_of(h) != tables.side_of(g) && tables.meet_code(g, h) == 0)
                        .map(|h| (h, tables.captured_to_hand(h)))
                        .collect()
                })
                .collect(),
            stays: (0..groups).map(|g| tables.stays(g)).collect(),
            limits: index.limits()[..groups].to_vec(),
            takers,
            swap,
            mirror,
        })
    }

    /// The ending word of a piece of group `g` on `cell`.
    #[inline]
    fn word(&self, g: usize, cell: u32) -> usize {
        self.words[g * self.cells + cell as usize]
    }

    /// Calls `f` with each parent of `c` (module docs, "How", step 3), a
    /// position where play goes on, whose parents have room for `N` pieces.
    ///
    /// Each piece of the side that moved, in the order of the groups and
    /// cells: its drop undone ([`ChildWalk::dropped`]), then its moves
    /// ([`ChildWalk::moved`]); then the pass ([`ChildWalk::passed`]).
    fn parents<const N: usize>(&self, tables: &Tables, c: &Sets, f: &mut impl FnMut(SetParent<'_>)) {
        let walk = ChildWalk::of(self, tables, c);
        let mut can_pass = false;
        for &g in &self.side_groups[walk.side] {
            let mut on = c.masks[g];
            if on == 0 {
                continue;
            }
            can_pass |= self.stays[g];
            while on != 0 {
                let to = on.trailing_zeros();
                on &= on - 1;
                // Where the side's other pieces take the royal piece, every
                // parent of this piece would be a win by the rules: none is kept.
                if walk.takers.is_some_and(|(_, t)| t.take_without(g, to)) {
                    continue;
                }
                let others = walk.words.without(self.word(g, to));
                walk.dropped(g, to, others, f);
                walk.moved::<N>(g, to, others, f);
            }
        }
        if can_pass {
            walk.passed(f);
        }
    }

    /// The ending words of `c`'s pieces, tallied: the OR of all of them but
    /// the moved piece's is read off it for each piece.
    #[inline]
    fn words_of(&self, c: &Sets) -> Tally<usize> {
        let mut tally = Tally::<usize>::default();
        for g in 0..self.groups {
            let mut mask = c.masks[g];
            while mask != 0 {
                tally.add(self.word(g, mask.trailing_zeros()));
                mask &= mask - 1;
            }
        }
        tally
    }

    /// Where the royal pieces are ranked as a pair and `side`'s enemy's royal
    /// piece stands in `c`, who of `side` takes on its cell ([`Takers`]).
    #[inline]
    fn takers_of(&self, c: &Sets, side: usize) -> Option<(&RoyalTakers, Takers)> {
        self.takers.as_ref().and_then(|royal| {
            let target_set = c.masks[royal.royal[1 - side]];
            if target_set == 0 {
                return None;
            }
            let target = target_set.trailing_zeros();
            let mut takers = Takers { target, count: 0, one: (0, 0) };
            for &g in &self.side_groups[side] {
                let by = c.masks[g] & royal.takers[g * self.cells + target as usize];
                if by != 0 {
                    takers.count += by.count_ones().min(2);
                    takers.one = (g, by.trailing_zeros());
                }
            }
            Some((royal, takers))
        })
    }

    /// The kept position at `index` (not a hole) as sets.
    fn unrank<const N: usize>(&self, placement: &PlacementIndex, index: u64) -> Sets {
        let tier = placement.tier_at(index);
        let info = &placement.tiers()[tier];
        let within = index - info.offset;
        let mut kept = Sets { masks: [0; MASK_GROUPS], hands: [0; MAX_HAND_SLOTS], to_move: placement.side_at(within) };
        let placed = placement.unrank_sets::<N>(tier, within, &mut kept.masks);
        assert!(placed && info.sides >> kept.to_move & 1 == 1, "a parent's index names a position");
        kept.hands[..self.slots].copy_from_slice(&info.counts[self.groups..self.groups + self.slots]);
        kept
    }

    /// The column of the anchor's piece in `p`, if it has one.
    #[inline]
    fn anchor_column(fold: &Fold, anchor: usize, p: &Sets) -> Option<u32> {
        let cells = p.masks[anchor];
        (cells != 0).then(|| fold.column(cells.trailing_zeros()))
    }

    /// [`Fold::parent_base`] on sets.
    fn base(&self, fold: &Fold, kept: &Sets) -> (Sets, ParentFold) {
        let (groups, slots) = (self.groups, self.slots);
        let image = |image: &Option<SetImage>, p: &Sets| {
            p.image(image.as_ref().expect("a set image of each symmetry the fold folds"), groups, slots)
        };
        fold.parent_base_with(
            kept,
            |p| image(&self.swap, p),
            |p| image(&self.mirror, p),
            |p| fold.anchor().and_then(|anchor| Self::anchor_column(fold, anchor, p)),
        )
    }

    /// [`gsolve_engine::Unmoves::for_each_parent_index`] on sets: calls `f`
    /// with the index of each parent of the position at `index` (kept by
    /// `fold` where the index folds), as the list's walk gives them.
    pub(crate) fn for_each_parent_index<const N: usize>(
        &self,
        tables: &Tables,
        placement: &PlacementIndex,
        fold: Option<&Fold>,
        index: u64,
        f: &mut impl FnMut(u64),
    ) {
        let (groups, slots) = (self.groups, self.slots);
        let kept = self.unrank::<N>(placement, index);
        let mut hint = TierHint::default();
        let rank_sets =
            |p: &Sets, hint: &mut TierHint| placement.group_ranks_of_sets(&p.masks, &p.hands[..slots], hint);
        let Some(fold) = fold else {
            // As the list's walk: each parent's index, or `u64::MAX` where its
            // counts are a tier but it has none.
            let mut ranks: Option<GroupRanks> = None;
            self.parents::<N>(tables, &kept, &mut |parent| match parent {
                SetParent::Quiet(m) => {
                    let ranks = ranks.get_or_insert_with(|| rank_sets(&kept, &mut hint));
                    f(placement.moved_index(ranks, m.group, m.from, m.to, 1 - kept.to_move).unwrap_or(u64::MAX))
                }
                SetParent::Built(p) => {
                    let ranks = rank_sets(p, &mut hint);
                    if ranks.has_tier() {
                        f(placement.ranked_index(&ranks, p.to_move).unwrap_or(u64::MAX))
                    }
                }
            });
            return;
        };
        let (base, how) = self.base(fold, &kept);
        let to_move = 1 - base.to_move;
        let anchor = fold.anchor();
        let base_column = anchor.and_then(|anchor| Self::anchor_column(fold, anchor, &base));
        let mut ranks: Option<GroupRanks> = None;
        let mut image_ranks: Option<GroupRanks> = None;
        self.parents::<N>(tables, &base, &mut |parent| {
            let column = match (parent, anchor) {
                (_, None) => None,
                (SetParent::Quiet(m), Some(anchor)) if m.group == anchor => Some(fold.column(m.from)),
                (SetParent::Quiet(_), Some(_)) => base_column,
                (SetParent::Built(p), Some(anchor)) => Self::anchor_column(fold, anchor, p),
            };
            let position = || match parent {
                SetParent::Quiet(m) => {
                    let mut p = base;
                    p.masks[m.group] ^= 1 << m.from | 1 << m.to;
                    p.to_move = to_move;
                    p.position::<N>(groups, slots)
                }
                SetParent::Built(p) => p.position::<N>(groups, slots),
            };
            fold.for_each_kept_parent(how, position, column, |mirrored| {
                let located = match (parent, mirrored, &self.mirror) {
                    (SetParent::Quiet(m), true, Some(mirror)) => {
                        let ranks =
                            image_ranks.get_or_insert_with(|| rank_sets(&base.image(mirror, groups, slots), &mut hint));
                        let m = fold.mirror().expect("the fold's mirror, as the set image's").quiet_image(m);
                        placement.moved_index(ranks, m.group, m.from, m.to, to_move)
                    }
                    (SetParent::Quiet(m), _, _) => {
                        let ranks = ranks.get_or_insert_with(|| rank_sets(&base, &mut hint));
                        placement.moved_index(ranks, m.group, m.from, m.to, to_move)
                    }
                    (SetParent::Built(p), true, Some(mirror)) => {
                        let image = p.image(mirror, groups, slots);
                        placement.index_of_sets(&image.masks, &image.hands[..slots], image.to_move, &mut hint)
                    }
                    (SetParent::Built(p), _, _) => {
                        placement.index_of_sets(&p.masks, &p.hands[..slots], p.to_move, &mut hint)
                    }
                };
                if let Some(index) = located {
                    f(index)
                }
            })
        })
    }
}

/// One child's walk ([`SetUnmoves::parents`]): what every piece's parents are
/// read against, found once a child. `side` moved into the child (it is to
/// move in the parents).
struct ChildWalk<'a> {
    unmoves: &'a SetUnmoves,
    tables: &'a Tables,
    table: &'a EndingTable,
    child: &'a Sets,
    side: usize,
    occupied: u64,
    pieces: usize,
    words: Tally<usize>,
    takers: Option<(&'a RoyalTakers, Takers)>,
}

impl<'a> ChildWalk<'a> {
    /// The walk of `c`, a position where play goes on. Always inline: called
    /// from every copy of the walk, it was left out of line, and each child
    /// then paid a call and read its fields back from memory.
    #[inline(always)]
    fn of(unmoves: &'a SetUnmoves, tables: &'a Tables, c: &'a Sets) -> Self {
        let table = tables.endings().table().expect("the walk on sets is made only with an ending table");
        let side = 1 - c.to_move;
        ChildWalk {
            unmoves,
            tables,
            table,
            child: c,
            side,
            occupied: c.occupied(),
            pieces: c.masks[..unmoves.groups].iter().map(|m| m.count_ones()).sum::<u32>() as usize,
            words: unmoves.words_of(c),
            takers: unmoves.takers_of(c, side),
        }
    }

    /// Is a parent with ending word `word` over? Then it has no moves and is
    /// no parent (stuck is a loss, so the word says it).
    #[inline]
    fn over(&self, word: usize) -> bool {
        self.table.outcome(word, self.side).is_some()
    }

    /// Does the piece of group `mover` on `from` take the royal cell? Then the
    /// parent it stands in is a win by the rules, not kept.
    #[inline]
    fn takes_from(&self, mover: usize, from: u32) -> bool {
        let cells = self.unmoves.cells;
        self.takers.is_some_and(|(royal, t)| royal.takers[mover * cells + t.target as usize] >> from & 1 == 1)
    }

    /// The parent where the piece of group `g` on `to` was dropped there, if
    /// its drop lands there and the hand has room: the child without it, one
    /// more in hand. `others`: the OR of the other pieces' words.
    #[inline]
    fn dropped(&self, g: usize, to: u32, others: usize, f: &mut impl FnMut(SetParent<'_>)) {
        let Some(drop) = self.unmoves.drops[g] else { return };
        let c = self.child;
        let landed = drop.allowed >> to & 1 == 1 && (!drop.gravity || self.tables.rests_on(to, self.occupied as u128));
        let hand_room = !drop.from_hand || c.hands[drop.slot] < 15;
        if landed && hand_room && !self.over(others) {
            let mut parent = *c;
            parent.masks[g] &= !(1 << to);
            if drop.from_hand {
                parent.hands[drop.slot] += 1;
            }
            parent.to_move = self.side;
            f(SetParent::Built(&parent));
        }
    }

    /// The parents where the piece of group `g` on `to` came by a move: as
    /// itself (unless it would have had to promote here), or as a kind that
    /// promotes to it here, from each empty source cell whose piece would not
    /// take the royal piece; quietly, or taking an enemy ([`Self::captures`])
    /// where the parent has room for one more piece. `others`: the OR of the
    /// other pieces' words.
    #[inline]
    fn moved<const N: usize>(&self, g: usize, to: u32, others: usize, f: &mut impl FnMut(SetParent<'_>)) {
        let unmoves = self.unmoves;
        let as_itself = (unmoves.forced[g] >> to & 1 == 0).then_some(g);
        let promoted = unmoves.promoted_from[g].iter().filter(|&&(_, zone)| zone >> to & 1 == 1).map(|&(b, _)| b);
        for mover in as_itself.into_iter().chain(promoted) {
            let [by_quiet, by_capture] = unmoves.sources[mover * unmoves.cells + to as usize];
            let mut origins = (by_quiet | by_capture) & !self.occupied;
            while origins != 0 {
                let from = origins.trailing_zeros();
                origins &= origins - 1;
                if self.takes_from(mover, from) {
                    continue;
                }
                let moved_word = others | unmoves.word(mover, from);
                if by_quiet >> from & 1 == 1 && !self.over(moved_word) {
                    if mover == g {
                        f(SetParent::Quiet(Quiet { group: g, from, to }));
                    } else {
                        // A promotion undone: the counts change.
                        f(SetParent::Built(&self.moved_back(g, to, mover, from)));
                    }
                }
                if by_capture >> from & 1 == 0 || self.pieces >= N {
                    continue;
                }
                self.captures(g, to, mover, from, moved_word, f);
            }
        }
    }

    /// The parent with the piece of group `g` on `to` moved back to `from` as
    /// a piece of group `mover`, before any captured piece is put back.
    #[inline]
    fn moved_back(&self, g: usize, to: u32, mover: usize, from: u32) -> Sets {
        let mut parent = *self.child;
        parent.masks[g] &= !(1 << to);
        parent.masks[mover] |= 1 << from;
        parent.to_move = self.side;
        parent
    }

    /// The parents where the piece of group `g` on `to` came from `from` as a
    /// piece of group `mover` taking an enemy there: one for each group
    /// `mover` may take whose limit has room for one more, from the captor's
    /// hand where captures go there (the hand must hold one). `moved_word`:
    /// the parent's word before the enemy is put back.
    #[inline]
    fn captures(
        &self,
        g: usize,
        to: u32,
        mover: usize,
        from: u32,
        moved_word: usize,
        f: &mut impl FnMut(SetParent<'_>),
    ) {
        let (unmoves, c) = (self.unmoves, self.child);
        for &(h, slot) in &unmoves.takes[mover] {
            if slot != NO_SLOT && c.hands[slot as usize] == 0 {
                continue;
            }
            if c.masks[h].count_ones() as u8 >= unmoves.limits[h] || self.over(moved_word | unmoves.word(h, to)) {
                continue;
            }
            let mut parent = self.moved_back(g, to, mover, from);
            parent.masks[h] |= 1 << to;
            if slot != NO_SLOT {
                parent.hands[slot as usize] -= 1;
            }
            f(SetParent::Built(&parent));
        }
    }

    /// The parent where the side passed (a piece of it may stay): the child
    /// with the other side to move, unless the side takes the royal piece
    /// there or it is over.
    #[inline]
    fn passed(&self, f: &mut impl FnMut(SetParent<'_>)) {
        let all_take = self.takers.is_some_and(|(_, t)| t.count > 0);
        if !all_take && !self.over(self.words.all()) {
            let mut parent = *self.child;
            parent.to_move = self.side;
            f(SetParent::Built(&parent));
        }
    }
}
