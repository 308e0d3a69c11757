//! The engine's capabilities for a rules game: the index (whole game and by tiers),
//! parents, the variant stored in tablebases, and the plain notation.

use crate::compiled::board::{Board, Map};
use crate::compiled::position::RulesPosition;
use crate::game::fast_paths::{FirstLookPath, LocatedPath, ParentsPath};
use crate::game::RulesGame;
use crate::language::spec::Rules;
use gsolve_engine::{Indexed, Tiered, Unmoves, Variant};
use gsolve_games::notation::PlainNotation;
use gsolve_games::FormatError;
use std::sync::Arc;

impl<const N: usize> RulesGame<N> {
    fn placement(&self) -> &crate::index::PlacementIndex {
        // The front ends ask `placement_index()` before using an index solver.
        self.index().expect("a rules game used with an index solver has an index")
    }

    /// Calls `f(parent, mirrored, index)` for each parent of `kept` that the
    /// index folded by `fold` keeps and holds, as [`Unmoves::for_each_parent`]
    /// yields them: the base's parents found in one walk and folded
    /// ([`crate::retrograde::fold::Fold::for_each_kept_parent`]), each located once.
    /// The kept parent is `parent`'s position or, where `mirrored`, its mirror
    /// image ([`crate::retrograde::fold::Fold::kept_parent`]), each made only where it
    /// is needed: a quiet parent's index is ranked from the base's ranks or
    /// its image's, with no position made.
    /// A kept parent may still have no index: the rules value it (a royal piece
    /// the side to move can take), and it is left out.
    fn for_each_folded_parent(
        &self,
        fold: &crate::retrograde::fold::Fold,
        kept: &RulesPosition<N>,
        mut f: impl FnMut(&crate::retrograde::unmoves::Parent<'_, N>, bool, u64),
    ) {
        let placement = self.placement();
        let mut hint = crate::index::TierHint::default();
        let (base, how) = fold.parent_base(kept);
        let base_column = fold.base_anchor_column(&base);
        let mirror = fold.mirror();
        let mut ranks = LazyRanks::of(&base, None);
        let mut image_ranks = LazyRanks::of(&base, mirror);
        crate::retrograde::unmoves::parents_to_locate(self.tables(), placement, &base, &mut |parent| {
            let quiet = parent.quiet();
            let column = fold.parent_anchor_column(base_column, &parent);
            fold.for_each_kept_parent(
                how,
                || parent.position(),
                column,
                |mirrored| {
                    let located = match (mirrored, mirror) {
                        // The base's image with the move's image undone.
                        (true, Some(mirror)) => self.locate_parent(
                            || fold.kept_parent(&parent.position(), true),
                            quiet.map(|m| mirror.quiet_image(m)),
                            &mut image_ranks,
                            &mut hint,
                        ),
                        _ => self.locate_parent(|| parent.position(), quiet, &mut ranks, &mut hint),
                    };
                    if let Some(index) = located {
                        f(&parent, mirrored, index)
                    }
                },
            )
        })
    }

    /// The whole-game index of `parent`, a parent of `ranks`' position by the
    /// quiet move `quiet` where it is one (then from the position's ranks:
    /// one or a few digits change, [`crate::index::PlacementIndex::moved_index`]),
    /// else located from its pieces.
    /// `parent` makes the position, which is not made where the ranks serve.
    #[inline]
    fn locate_parent(
        &self,
        parent: impl Fn() -> RulesPosition<N>,
        quiet: Option<crate::retrograde::unmoves::Quiet>,
        ranks: &mut LazyRanks<'_, N>,
        hint: &mut crate::index::TierHint,
    ) -> Option<u64> {
        let placement = self.placement();
        let located = |hint: &mut crate::index::TierHint| {
            placement.locate_hinted(&parent(), hint).map(|(tier, at)| placement.tiers()[tier].offset + at)
        };
        let Some(m) = quiet else { return located(hint) };
        // A move back passes the turn: the parent's side to move is the other
        // of the child's (a mirror image keeps the side).
        let to_move = 1 - ranks.child.to_move();
        match ranks.get(placement, hint) {
            Some(ranks) => {
                let index = placement.moved_index(ranks, m.group, m.from, m.to, to_move);
                debug_assert_eq!(index, located(hint), "a quiet parent ranked from its child's ranks");
                index
            }
            None => located(hint),
        }
    }

    /// The position the index keeps for `p` (itself, unless the index is folded
    /// by symmetry).
    #[inline]
    pub(crate) fn kept(&self, p: &RulesPosition<N>) -> RulesPosition<N> {
        match self.fold() {
            Some(fold) => fold.kept(p),
            None => *p,
        }
    }

    /// Calls `f(index, decoded, side)` for each of `indices` (ascending), holes
    /// skipped, decoding the pieces once for the two sides to move of one
    /// placement: they are neighbours (`2i`, `2i + 1`; every tier starts at an
    /// even index), where the tiers hold both sides (else each index is a
    /// placement of its own). `decode` gives the pieces at the placement's
    /// first index and the sides to move they have there (bit s: side s).
    fn for_each_paired<T: Copy>(
        &self,
        indices: impl Iterator<Item = u64>,
        decode: impl Fn(u64) -> Option<(T, u8)>,
        mut f: impl FnMut(u64, T, usize),
    ) {
        let shift = self.placement().side_shift();
        let side_mask = shift as u64;
        let mut last: Option<(u64, Option<(T, u8)>)> = None;
        for index in indices {
            let pieces = match last {
                Some((pair, decoded)) if pair == index >> shift => decoded,
                _ => {
                    let decoded = decode(index & !side_mask);
                    last = Some((index >> shift, decoded));
                    decoded
                }
            };
            if let Some((decoded, sides)) = pieces {
                let side = (index & side_mask) as usize;
                if sides >> side & 1 == 1 {
                    f(index, decoded, side);
                }
            }
        }
    }

    /// [`Self::for_each_paired`] of positions, each with its side to move.
    fn for_each_paired_position(
        &self,
        indices: impl Iterator<Item = u64>,
        decode: impl Fn(u64) -> Option<(RulesPosition<N>, u8)>,
        mut f: impl FnMut(u64, RulesPosition<N>),
    ) {
        self.for_each_paired(indices, decode, |index, mut p: RulesPosition<N>, side| {
            p.set_to_move(side);
            f(index, p)
        })
    }

    /// [`Indexed::for_each_first_look_in`] from the groups' cell sets
    /// ([`crate::retrograde::first_look::first_look_sets`]), each placement unranked once
    /// to sets ([`crate::index::PlacementIndex::unrank_sets`]), no position
    /// made.
    fn for_each_set_look_in(
        &self,
        look: &crate::retrograde::first_look::SetLook,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, gsolve_engine::FirstLook),
    ) {
        let (tables, placement) = (self.tables(), self.placement());
        let groups = tables.groups();
        let indices = range.start..range.end.min(placement.size());
        self.for_each_paired(
            indices,
            |index| {
                let tier = placement.tier_at(index);
                let info = &placement.tiers()[tier];
                let mut masks = [0u64; crate::index::MASK_GROUPS];
                placement.unrank_sets::<N>(tier, index - info.offset, &mut masks).then_some(((masks, tier), info.sides))
            },
            |index, (masks, tier), side| {
                let hands = &placement.tiers()[tier].counts[groups..];
                let look =
                    crate::retrograde::first_look::first_look_sets(tables, placement, look, &masks, hands, side, N);
                #[cfg(debug_assertions)]
                {
                    // The tests' builds check it against the look from the list.
                    let offset = placement.tiers()[tier].offset;
                    let mut p: RulesPosition<N> = placement.pieces_in(tier, index - offset).expect("not a hole");
                    p.set_to_move(side);
                    let from_list = crate::retrograde::first_look::first_look(tables, placement, &p);
                    debug_assert_eq!(look, from_list, "the first look from sets at {index}");
                }
                f(index, look)
            },
        )
    }
}

/// A child's [`crate::index::GroupRanks`] (or its image's under a symmetry),
/// made when its first quiet parent asks for them (many children have none).
struct LazyRanks<'p, const N: usize> {
    child: &'p RulesPosition<N>,
    image: Option<&'p crate::compiled::symmetry::Symmetry>,
    ranks: Option<Option<crate::index::GroupRanks>>,
}

impl<'p, const N: usize> LazyRanks<'p, N> {
    /// The ranks of `child`, or of its image under `image`.
    fn of(child: &'p RulesPosition<N>, image: Option<&'p crate::compiled::symmetry::Symmetry>) -> Self {
        LazyRanks { child, image, ranks: None }
    }

    #[inline]
    fn get(
        &mut self,
        placement: &crate::index::PlacementIndex,
        hint: &mut crate::index::TierHint,
    ) -> Option<&crate::index::GroupRanks> {
        let (child, image) = (self.child, self.image);
        self.ranks
            .get_or_insert_with(|| match image {
                Some(symmetry) => placement.group_ranks(&symmetry.apply(child), hint),
                None => placement.group_ranks(child, hint),
            })
            .as_ref()
    }
}

/// The whole game's index: the tiers one after another. Meetings end the game and
/// have no index: retrograde values them from the moves.
impl<const N: usize> Indexed for RulesGame<N> {
    /// Every terminal position is indexed unless pieces can meet (two pieces on one
    /// cell, which no index holds), a piece ends the game where it arrives (no
    /// index holds it there) or a side can lose its royal pieces (no tier holds
    /// it without them): then retrograde values terminal children from the moves.
    fn terminals_indexed(&self) -> bool {
        self.terminals_indexed
    }

    /// Where the royal pieces are ranked as a pair ([`crate::index`], "Royal
    /// pieces placed as a pair"), a position where the side to move can take
    /// the other's royal piece at once is a win in 1: with its royal piece it
    /// has no index, with another piece it has one, but the solvers value it
    /// from here all the same ([`gsolve_engine::FirstLook::ByRules`]).
    #[inline]
    fn value_by_rules(&self, p: &RulesPosition<N>) -> Option<gsolve_engine::Value> {
        if let Some(outcome) = gsolve_engine::Game::terminal(self, p) {
            return Some(outcome.value());
        }
        let pair = self.index()?.royal_pair()?;
        pair.side_takes_royal(self.tables(), p.to_move(), p.packed()).then_some(gsolve_engine::Value::Win(1))
    }

    /// 0 for a game without an index (never built from parameters).
    fn index_size(&self) -> u64 {
        self.index().map_or(0, |index| index.size())
    }

    /// `u64::MAX` (past every index) for a position no tier holds: more pieces
    /// than the limits, or a piece where it would have ended the game; callers
    /// that take positions from users check the index against `index_size`.
    /// A position of an index folded by symmetry has its kept image's index.
    #[inline]
    fn index(&self, p: &RulesPosition<N>) -> u64 {
        self.placement().index(&self.kept(p)).unwrap_or(u64::MAX)
    }

    /// The pieces are unranked once for both sides to move.
    fn for_each_position_in(&self, range: std::ops::Range<u64>, f: impl FnMut(u64, RulesPosition<N>)) {
        let Some(placement) = self.index() else { return };
        let indices = range.start..range.end.min(placement.size());
        self.for_each_paired_position(
            indices,
            |index| {
                let tier = placement.tier_at(index);
                let offset = placement.tiers()[tier].offset;
                placement.pieces_in(tier, index - offset).map(|p| (p, placement.tier_sides(tier)))
            },
            f,
        )
    }

    /// Where a turn moves one piece and the endings are one table
    /// ([`crate::retrograde::first_look`]): from the groups' cell sets if every move is
    /// short and the board has at most 64 cells ("From cell sets"); else,
    /// where the game's pieces only step, from the piece list
    /// ([`crate::retrograde::steps`]); else from the pieces' ending words. Otherwise the
    /// engine's default (each position decoded, its moves counted or its
    /// children played).
    fn for_each_first_look_in(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64, gsolve_engine::FirstLook)) {
        let (tables, placement) = (self.tables(), self.placement());
        match &self.paths.first_look {
            FirstLookPath::Sets(look) => self.for_each_set_look_in(look, range, f),
            FirstLookPath::StepLists(steps) => crate::retrograde::steps::for_each_first_look_in::<N>(
                tables,
                placement,
                steps,
                self.terminals_indexed,
                range,
                &mut f,
            ),
            FirstLookPath::EndingWords => self.for_each_position_in(range, |index, p| {
                f(index, crate::retrograde::first_look::first_look(tables, placement, &p))
            }),
            FirstLookPath::Engine => {
                self.for_each_position_in(range, |index, p| f(index, gsolve_engine::first_look(self, &p)))
            }
        }
    }

    #[inline]
    fn position(&self, index: u64) -> Option<RulesPosition<N>> {
        let placement = self.index()?;
        (index < placement.size()).then(|| placement.position(index)).flatten()
    }
}

impl<const N: usize> Unmoves for RulesGame<N> {
    /// Where the index is folded by symmetry, the positions it keeps with a move
    /// to a position folding onto `p`: each as many times as it has such moves,
    /// which is what retrograde analysis counts down (every move's child is
    /// looked up as its kept image).
    fn for_each_parent(&self, p: &RulesPosition<N>, mut f: impl FnMut(RulesPosition<N>)) {
        match self.fold() {
            None => crate::retrograde::unmoves::parents(self.tables(), self.index(), p, &mut f),
            Some(fold) => self.for_each_folded_parent(fold, p, |parent, mirrored, _| {
                f(fold.kept_parent(&parent.position(), mirrored))
            }),
        }
    }

    /// Walked on cell sets where the game has that shape
    /// ([`crate::retrograde::set_unmoves`]); else ranked from the child's pieces where the
    /// game's pieces only step ([`crate::retrograde::steps`]); else each parent built and
    /// indexed.
    #[inline]
    fn for_each_parent_index(&self, index: u64, mut f: impl FnMut(u64)) {
        let walk = match &self.paths.parents {
            ParentsPath::Sets(walk) => walk,
            ParentsPath::StepLists(steps) => {
                return crate::retrograde::steps::for_each_parent_index::<N>(
                    self.tables(),
                    self.placement(),
                    steps,
                    index,
                    &mut f,
                )
            }
            ParentsPath::Listed => return self.for_each_listed_parent_index(index, f),
        };
        {
            #[cfg(debug_assertions)]
            {
                // The tests' builds check the walk on sets against the list's.
                let mut on_sets = Vec::new();
                walk.for_each_parent_index::<N>(self.tables(), self.placement(), self.fold(), index, &mut |p| {
                    on_sets.push(p)
                });
                let mut listed = Vec::new();
                self.for_each_listed_parent_index(index, |p| listed.push(p));
                let mut sorted = on_sets.clone();
                sorted.sort_unstable();
                listed.sort_unstable();
                debug_assert_eq!(sorted, listed, "the parents on sets of {index}");
                on_sets.into_iter().for_each(f);
            }
            #[cfg(not(debug_assertions))]
            walk.for_each_parent_index::<N>(self.tables(), self.placement(), self.fold(), index, &mut f);
        }
    }
}

impl<const N: usize> RulesGame<N> {
    /// [`Unmoves::for_each_parent_index`] from the child's piece list: each
    /// parent built, or ranked from the child's ranks where it is quiet.
    fn for_each_listed_parent_index(&self, index: u64, mut f: impl FnMut(u64)) {
        let position = self.position(index).expect("a parent's index names a position");
        match self.fold() {
            None => {
                let mut hint = crate::index::TierHint::default();
                let mut ranks = LazyRanks::of(&position, None);
                crate::retrograde::unmoves::parents_with_moves(self.tables(), self.index(), &position, &mut |parent| {
                    f(self
                        .locate_parent(|| parent.position(), parent.quiet(), &mut ranks, &mut hint)
                        .unwrap_or(u64::MAX))
                })
            }
            // Each kept parent located once: those without an index are left out.
            Some(fold) => self.for_each_folded_parent(fold, &position, |_, _, index| f(index)),
        }
    }
}

/// Tiers by the number of pieces of each kind and side: fewest pieces first, or
/// where pieces are dropped, most first.
impl<const N: usize> Tiered for RulesGame<N> {
    type Tier = u32;

    fn tiers(&self) -> Vec<u32> {
        (0..self.placement().tiers().len() as u32).collect()
    }

    fn child_tiers(&self, tier: u32) -> Vec<u32> {
        let index = self.placement();
        let counts = &index.tiers()[tier as usize].counts;
        let mut out = Vec::new();
        let groups = self.tables().groups();
        if self.rules().has_drops() || self.rules().has_promotions() {
            // The tiers one turn of either side leads to (or their images, where
            // the index keeps the first side to move only).
            let cells = self.board().cells() as u32;
            let swap = self.side_swap().filter(|_| index.folding().side_swap);
            for side in 0..2 {
                for next in crate::index::count_successors(self.tables(), counts, side, cells) {
                    let next = match swap {
                        Some(swap) => swap.counts_image(&next, groups),
                        None => next,
                    };
                    if let Some(t) = index.tier_of(&next).filter(|&t| t != tier as usize) {
                        if !out.contains(&(t as u32)) {
                            out.push(t as u32);
                        }
                    }
                }
            }
            return out;
        }
        for g in 0..groups {
            if counts[g] > 0 {
                let mut fewer = counts.clone();
                fewer[g] -= 1;
                if let Some(t) = index.tier_of(&fewer) {
                    out.push(t as u32);
                }
            }
        }
        out
    }

    fn tier_size(&self, tier: u32) -> u64 {
        self.placement().tiers()[tier as usize].size
    }

    /// The counts joined by `-` in group order, e.g. `4-3` (white pawns, black pawns).
    fn tier_name(&self, tier: u32) -> String {
        let counts = &self.placement().tiers()[tier as usize].counts;
        counts.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("-")
    }

    fn locate(&self, p: &RulesPosition<N>) -> Option<(u32, u64)> {
        if p.ended() != 0 {
            return None;
        }
        self.placement().locate(&self.kept(p)).map(|(t, i)| (t as u32, i))
    }

    fn position_in(&self, tier: u32, index: u64) -> Option<RulesPosition<N>> {
        self.placement().position_in(tier as usize, index)
    }

    /// The pieces are unranked once for both sides to move.
    fn for_each_position_in_tier(&self, tier: u32, range: std::ops::Range<u64>, f: impl FnMut(u64, RulesPosition<N>)) {
        self.for_each_position_at(tier, range, f)
    }

    /// The pieces are unranked once for both sides to move.
    fn for_each_position_at(
        &self,
        tier: u32,
        indices: impl Iterator<Item = u64>,
        f: impl FnMut(u64, RulesPosition<N>),
    ) {
        let placement = self.placement();
        let sides = placement.tier_sides(tier as usize);
        self.for_each_paired_position(indices, |index| placement.pieces_in(tier as usize, index).map(|p| (p, sides)), f)
    }

    /// Ranked move by move where the game has the shape [`crate::retrograde::scan`] takes;
    /// else the engine's default: every move played and its child located.
    fn for_each_located_at(
        &self,
        tier: u32,
        indices: impl Iterator<Item = u64>,
        f: impl FnMut(u64, gsolve_engine::Scan<'_, u32>),
    ) {
        match &self.paths.located {
            LocatedPath::Scan(scan) => {
                scan.for_each_located_at(self.board(), self.placement(), tier as usize, indices, f)
            }
            LocatedPath::Engine => gsolve_engine::located_at(self, tier, indices, f),
        }
    }

    /// The sum of the pieces' advances, where every move onto an empty cell goes
    /// forward and no piece stays (pawn chess, Breakthrough; not Fox and Hounds,
    /// whose fox steps back).
    fn progress_bound(&self, tier: u32) -> Option<u32> {
        self.tables().tier_progress_bound(&self.placement().tiers()[tier as usize].counts)
    }

    fn progress(&self, _tier: u32, position: &RulesPosition<N>) -> u32 {
        self.tables().progress_of(position).expect("asked only of games with a progress measure")
    }

    /// Read from the groups' cell sets where the game has the shape
    /// [`crate::retrograde::scan`] takes.
    fn for_each_progress_in_tier(&self, tier: u32, range: std::ops::Range<u64>, mut f: impl FnMut(u64, u32)) {
        match &self.paths.located {
            LocatedPath::Scan(scan) => scan.for_each_progress_in_tier(self.placement(), tier as usize, range, f),
            LocatedPath::Engine => {
                self.for_each_position_in_tier(tier, range, |index, p| f(index, self.progress(tier, &p)))
            }
        }
    }
}

/// Escapes a rules text into one line: `\` → `\\`, line feed → `\n`, carriage
/// return → `\r`.
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// The inverse of [`escape_text`].
pub fn unescape_text(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            other => {
                return Err(format!("the rules text has a bad escape \\{}", other.map_or(String::new(), String::from)))
            }
        }
    }
    Ok(out)
}

/// A rules game names itself `rules`; its parameters carry the whole rules file
/// (escaped to one line), the board (`rows`, `cols`, and `map` for map games) and
/// the piece limits of its index (`pieces`, one count per group). Only a game with
/// an index is built from parameters: a game with trails (no index) has no
/// tablebase, and its parameters serve as a name.
impl Variant for RulesGame {
    const NAME: &'static str = "rules";
    /// 2: a group's pieces are ranked among its places (cells where it does not end
    /// the game on arrival), not every cell.
    const INDEX_VERSION: u32 = 2;

    fn parameters(&self) -> Vec<(String, String)> {
        let mut out = vec![
            ("rules".to_string(), escape_text(&self.rules().text)),
            ("rows".to_string(), self.board().rows.to_string()),
            ("cols".to_string(), self.board().cols.to_string()),
        ];
        if let Some(map) = &self.board().map {
            out.push(("map".to_string(), map.text()));
        }
        if let Some(index) = self.index() {
            out.push(("pieces".to_string(), index.given().iter().map(|l| l.to_string()).collect::<Vec<_>>().join(",")));
            out.push(("symmetry".to_string(), folding_name(index.folding())));
        }
        out
    }

    fn from_parameters(parameters: &[(String, String)]) -> Result<Self, String> {
        let get = |key: &str| parameters.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        for (key, _) in parameters {
            if !["rules", "rows", "cols", "map", "pieces", "symmetry"].contains(&key.as_str()) {
                return Err(format!("unknown parameter {key:?} of a rules game"));
            }
        }
        let text = unescape_text(get("rules").ok_or("the parameter \"rules\" (the rules file) is missing")?)?;
        let rules = Arc::new(Rules::parse(&text).map_err(|e| format!("the stored rules file: {e}"))?);
        let number = |key: &str| -> Result<u32, String> {
            let v = get(key).ok_or_else(|| format!("the parameter {key:?} is missing"))?;
            v.parse::<u32>().ok().filter(|&n| (1..=crate::language::spec::MAX_SIDE as u32).contains(&n)).ok_or_else(
                || format!("the parameter {key:?} is {v:?}: expected 1 to {}", crate::language::spec::MAX_SIDE),
            )
        };
        let (rows, cols) = (number("rows")?, number("cols")?);
        let map = match get("map") {
            Some(text) => {
                let map = crate::game::notation::parse_map(&rules, &text.replace('/', "\n"))
                    .map_err(|e| format!("the stored map: {e}"))?;
                if (map.rows, map.cols) != (rows, cols) {
                    return Err("the stored map does not have the stored size".into());
                }
                Some(map)
            }
            None => None,
        };
        let board = Board::new(&rules, Some((rows, cols)), map).map_err(|e| e.to_string())?;
        let limits = match get("pieces") {
            None => None,
            Some(v) => Some(
                v.split(',')
                    .map(|c| {
                        c.parse::<u8>()
                            .map_err(|_| format!("the parameter \"pieces\" is {v:?}: expected counts joined by commas"))
                    })
                    .collect::<Result<Vec<u8>, String>>()?,
            ),
        };
        // Files written before indexes were folded by symmetry have no
        // `symmetry`: their index is the unfolded one.
        let stored = get("symmetry");
        let folds = if stored.is_some() { crate::index::Folds::ALL } else { crate::index::Folds::NONE };
        let game = RulesGame::build(rules, board, limits.as_deref(), folds).map_err(|e| e.to_string())?;
        if let (Some(stored), Some(index)) = (stored, game.index()) {
            let folded = folding_name(index.folding());
            if stored != folded {
                return Err(format!(
                    "the stored index is folded by {stored:?}, this version of gsolve folds these rules by {folded:?}: build the tablebase again"
                ));
            }
        }
        // Parameters name a game with an index (a tablebase's): without one, the
        // `Indexed` methods have nothing to answer with.
        match (&limits, game.placement_index()) {
            (_, Ok(_)) => Ok(game),
            (None, Err(_)) => Err("the parameter \"pieces\" (the piece limits of the index) is missing".into()),
            (Some(_), Err(why)) => Err(why.to_string()),
        }
    }
}

/// What an index folds and leaves out, as its tablebase's parameter `symmetry`
/// names it: `none`, or its parts joined by `+`, in this order:
///
/// | part | the index |
/// |---|---|
/// | `sides-swapped` | keeps the first side to move only, without the cells where a piece of that side ends the game when its side is to move |
/// | `mirror` | keeps the anchor on the left half and the middle column |
/// | `royal-pair` | ranks the royal pieces as a pair, without the positions where the side to move can take the other's |
///
/// (`side-swap` and `side-swap+mirror`, written by the version before, kept the
/// first side's ending cells: such files are refused by name.)
fn folding_name(folding: crate::index::Folding) -> String {
    let parts: Vec<&str> = [
        (folding.side_swap, "sides-swapped"),
        (folding.mirror_anchor.is_some(), "mirror"),
        (folding.royal_pair.is_some(), "royal-pair"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect();
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join("+")
    }
}

impl PlainNotation for RulesGame {
    fn parse_position(&self, text: &str) -> Result<RulesPosition, FormatError> {
        crate::game::notation::parse_position(self, text)
    }

    fn format_position(&self, p: &RulesPosition) -> String {
        crate::game::notation::format_position(self, p)
    }
}

/// A map from its one-line form (rows joined by `/`), for variants.
pub fn map_from_line(rules: &Rules, line: &str) -> Result<Map, FormatError> {
    crate::game::notation::parse_map(rules, &line.replace('/', "\n"))
}

/// The notation is the board.
impl gsolve_games::notation::DrawnBoard for RulesGame {}
