//! A rules file on a board, as an engine [`Game`]: move generation, playing a move,
//! and the endings.

use crate::board::{Board, Group};
use crate::error::RulesError;
use crate::index::PlacementIndex;
use crate::position::{cell_of, group_of, pack, RulesPosition, MAX_PIECES, MAX_TRAIL_CELLS};
use crate::spec::{Check, Ending, Facing, Onto, Rules, Turn};
use gsolve_engine::{Game, Outcome};
use std::sync::Arc;

/// The most pieces a side that moves every piece at once may have (its moves are
/// the product of its pieces' moves).
pub const MAX_ALL_PIECES: usize = 4;

/// A move: each moving piece's (from, to) cells; a piece that stays has from = to;
/// no steps at all is a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RulesMove {
    pub(crate) len: u8,
    pub(crate) steps: [(u16, u16); MAX_ALL_PIECES],
}

impl RulesMove {
    /// A pass: the side to move stays put.
    pub const PASS: RulesMove = RulesMove { len: 0, steps: [(0, 0); MAX_ALL_PIECES] };

    fn one(from: u32, to: u32) -> Self {
        let mut m = RulesMove::PASS;
        m.steps[0] = (from as u16, to as u16);
        m.len = 1;
        m
    }

    /// The (from, to) cell of each moving piece.
    pub fn steps(&self) -> &[(u16, u16)] {
        &self.steps[..self.len as usize]
    }
}

impl std::fmt::Debug for RulesMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.steps()).finish()
    }
}

/// A `reach` ending compiled for a board.
#[derive(Clone, Debug)]
struct ReachCheck {
    /// `hits[g * cells + c]`: a piece of group g on cell c stands in the zone and
    /// counts for the ending (one load a piece: endings are checked for every
    /// position and child of a solve).
    hits: Vec<bool>,
    check: Check,
    result: Outcome,
}

/// A game described by rules, on one board; its positions have room for `N`
/// pieces ([`RulesPosition`]).
#[derive(Clone, Debug)]
pub struct RulesGame<const N: usize = MAX_PIECES> {
    pub(crate) rules: Arc<Rules>,
    pub(crate) board: Board,
    /// The side of each group.
    pub(crate) group_side: Vec<usize>,
    group_trail: Vec<bool>,
    group_stay: Vec<bool>,
    /// `meet[a * groups + b]`: the `ended` code when a piece of group a meets one of
    /// group b (0: no meeting, a capture).
    meet: Vec<u8>,
    /// `reach[side]`: the reach endings that apply to that side.
    reach: [Vec<ReachCheck>; 2],
    no_pieces: [Option<Outcome>; 2],
    stuck: Outcome,
    /// The dense index over piece placements, for games without trails.
    pub(crate) index: Option<PlacementIndex>,
    /// Why there is no index.
    pub(crate) no_index: Option<String>,
    /// The step graph when the game is a trail race (the snakes on a graph), for
    /// the search.
    pub(crate) race: Option<Arc<crate::race::Race>>,
    /// `advance[g * cells + c]`: how far a piece of group g on cell c stands from
    /// its side's back edge, in its forward direction. Empty when some move that
    /// stays in a tier (onto an empty cell) does not go forward, or a piece may
    /// stay: then no progress measure holds (see [`RulesGame::progress_of`]).
    pub(crate) advance: Vec<u16>,
}

impl RulesGame {
    /// The game of `rules` on `board`, its index covering up to `limits[g]` pieces of
    /// each group (the counts of the position to solve, or of the start); without
    /// limits, the game has no index (search, or reading a position to learn them).
    pub fn new(rules: Arc<Rules>, board: Board, limits: Option<&[u8]>) -> Result<RulesGame, RulesError> {
        let groups = &board.groups;
        let n = groups.len();
        let group_side: Vec<usize> = groups.iter().map(|g| g.side).collect();
        let group_trail = groups.iter().map(|g| rules.kinds[g.kind].trail).collect();
        let group_stay = groups.iter().map(|g| rules.kinds[g.kind].stay).collect();
        let mut meet = vec![0u8; n * n];
        for (a, ga) in groups.iter().enumerate() {
            for (b, gb) in groups.iter().enumerate() {
                if ga.side != gb.side {
                    if let Some(winner) = rules.meeting(ga.kind, gb.kind) {
                        meet[a * n + b] = winner.map_or(3, |w| 1 + w as u8);
                    }
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
                            let counts =
                                |g: &Group| g.side == side && kinds.as_ref().is_none_or(|k| k.contains(&g.kind));
                            let hits = groups
                                .iter()
                                .flat_map(|g| {
                                    let board = &board;
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
                Ending::Meet { .. } | Ending::Stuck { .. } => {}
            }
        }
        if rules.has_trails() && board.cells() > MAX_TRAIL_CELLS {
            return Err(RulesError::Board(format!(
                "a game with trails may have at most {MAX_TRAIL_CELLS} playable cells; this board has {}",
                board.cells()
            )));
        }
        if let Some(limits) = limits {
            check_counts(&rules, &board, limits)?;
        }
        let stuck = rules.stuck_result();
        let mut game = RulesGame {
            rules,
            board,
            group_side,
            group_trail,
            group_stay,
            meet,
            reach,
            no_pieces,
            stuck,
            index: None,
            no_index: None,
            race: None,
            advance: Vec::new(),
        };
        game.advance = game.advances();
        if game.rules.has_trails() {
            game.race = crate::race::Race::of(&game).map(Arc::new);
        }
        match limits {
            _ if game.rules.has_trails() => {
                game.no_index = Some("a piece leaves a trail: positions include walls, which no index covers".into())
            }
            None => game.no_index = Some("no piece limits were given".into()),
            Some(limits) => match PlacementIndex::new(&game, limits) {
                Ok(index) => game.index = Some(index),
                Err(why) => game.no_index = Some(why),
            },
        }
        Ok(game)
    }

    /// The same game with an index for up to `limits[g]` pieces of each group.
    pub fn with_limits(&self, limits: &[u8]) -> Result<RulesGame, RulesError> {
        RulesGame::new(self.rules.clone(), self.board.clone(), Some(limits))
    }

    /// The same game with positions of room for `M` pieces, if its index holds no
    /// more (`None` without an index, or with more pieces). Its indices are this
    /// game's: a solution of one is a solution of the other. Solvers take the
    /// smallest room that fits ([`crate::compact`]).
    pub fn compact<const M: usize>(&self) -> Option<RulesGame<M>> {
        let limits = self.limits()?;
        if limits.iter().map(|&l| l as usize).sum::<usize>() > M {
            return None;
        }
        Some(RulesGame {
            rules: self.rules.clone(),
            board: self.board.clone(),
            group_side: self.group_side.clone(),
            group_trail: self.group_trail.clone(),
            group_stay: self.group_stay.clone(),
            meet: self.meet.clone(),
            reach: self.reach.clone(),
            no_pieces: self.no_pieces,
            stuck: self.stuck,
            index: self.index.clone(),
            no_index: self.no_index.clone(),
            race: self.race.clone(),
            advance: self.advance.clone(),
        })
    }
}

impl<const N: usize> RulesGame<N> {
    /// The `advance` table, if every move that keeps the pieces on the board (onto
    /// an empty cell) goes forward and no piece may stay: then each such move adds
    /// at least 1 to the sum of the pieces' advances (ranges and slides go several
    /// steps of a forward vector), so that sum orders a tier (captures and
    /// meetings leave it).
    fn advances(&self) -> Vec<u16> {
        let forward_only = self.rules.kinds.iter().all(|k| {
            !k.stay && k.moves.iter().filter(|m| m.onto != Onto::Enemy).all(|m| m.vectors.iter().all(|&(f, _)| f > 0))
        });
        if !forward_only {
            return Vec::new();
        }
        let board = &self.board;
        let (rows, cols) = (board.rows, board.cols);
        let mut advance = Vec::with_capacity(self.group_side.len() * board.cells());
        for &side in &self.group_side {
            for &(r, c) in &board.coords {
                advance.push(match self.rules.sides[side].forward {
                    Facing::Up => rows - 1 - r,
                    Facing::Down => r,
                    Facing::Left => cols - 1 - c,
                    Facing::Right => c,
                } as u16);
            }
        }
        advance
    }

    /// The sum of the pieces' advances, when the game has a progress measure: every
    /// move that stays in a tier makes it grow.
    pub(crate) fn progress_of(&self, p: &RulesPosition<N>) -> Option<u32> {
        if self.advance.is_empty() {
            return None;
        }
        let cells = self.board.cells();
        Some(p.packed().iter().map(|&q| self.advance[group_of(q) * cells + cell_of(q) as usize] as u32).sum())
    }

    /// The greatest progress of a tier's positions (pieces × the longest advance).
    pub(crate) fn tier_progress_bound(&self, counts: &[u8]) -> Option<u32> {
        if self.advance.is_empty() {
            return None;
        }
        let longest = self.board.rows.max(self.board.cols) - 1;
        Some(counts.iter().map(|&c| c as u32).sum::<u32>() * longest)
    }

    /// The pieces of each group in a position.
    pub fn counts(&self, p: &RulesPosition<N>) -> Vec<u8> {
        let mut counts = vec![0u8; self.group_side.len()];
        for &q in p.packed() {
            counts[group_of(q)] += 1;
        }
        counts
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The groups (side, kind, letter) in index order.
    pub fn groups(&self) -> &[Group] {
        &self.board.groups
    }

    /// The piece limits the index covers.
    pub fn limits(&self) -> Option<&[u8]> {
        self.index.as_ref().map(|i| i.limits())
    }

    /// The dense index, if the game has one (no trails, and it fits in 64 bits).
    pub fn placement_index(&self) -> Result<&PlacementIndex, &str> {
        self.index.as_ref().ok_or_else(|| self.no_index.as_deref().unwrap_or("no index"))
    }

    /// Calls `f` with each legal move of a position where play goes on, each
    /// distinct move once.
    pub fn for_each_move(&self, p: &RulesPosition<N>, mut f: impl FnMut(RulesMove)) {
        let side = p.to_move();
        match self.rules.sides[side].turn {
            Turn::OnePiece => self.one_piece_moves(p, side, &mut f),
            Turn::AllPieces => self.all_piece_moves(p, side, &mut f),
        }
    }

    /// What stands on `cell`: `Some(packed)` for a piece, `None` for empty; walls are
    /// reported by [`RulesPosition::is_wall`].
    #[inline]
    fn one_piece_moves(&self, p: &RulesPosition<N>, side: usize, f: &mut impl FnMut(RulesMove)) {
        let board = &self.board;
        let mut can_pass = false;
        let mut seen = crate::unmoves::Seen::<u32>::default();
        for &packed in p.packed() {
            let g = group_of(packed);
            if self.group_side[g] != side {
                continue;
            }
            can_pass |= self.group_stay[g];
            let from = cell_of(packed);
            let rays = board.rays(g, from);
            // A target reached by two rules (or two rays) is one move.
            let dedupe = board.rays_overlap(g, from);
            seen.clear();
            for ray in rays {
                for &to in board.ray_cells(ray) {
                    if p.is_wall(to) {
                        if ray.leap {
                            continue;
                        }
                        break;
                    }
                    let legal = match p.at(to) {
                        None => ray.onto.empty(),
                        Some(other) if self.group_side[group_of(other)] == side => false,
                        Some(_) => ray.onto.enemy(),
                    };
                    if legal && (!dedupe || seen.insert(to)) {
                        f(RulesMove::one(from, to));
                    }
                    if !ray.leap && p.at(to).is_some() {
                        break;
                    }
                }
            }
        }
        if can_pass {
            f(RulesMove::PASS);
        }
    }

    /// Every piece of the side moves at once: the product of each piece's targets
    /// (and staying, where it may), destinations all different. Paths and targets
    /// are read with the side's own pieces lifted off the board; a target holding
    /// an enemy is allowed only where the two pieces meet (which ends the game).
    fn all_piece_moves(&self, p: &RulesPosition<N>, side: usize, f: &mut impl FnMut(RulesMove)) {
        let board = &self.board;
        let n = self.group_side.len();
        let mine: Vec<u32> = p.packed().iter().copied().filter(|&q| self.group_side[group_of(q)] == side).collect();
        if mine.is_empty() {
            return;
        }
        let mut options: Vec<Vec<u32>> = Vec::with_capacity(mine.len());
        for &packed in &mine {
            let (g, from) = (group_of(packed), cell_of(packed));
            let mut targets = Vec::new();
            if self.group_stay[g] {
                targets.push(from);
            }
            for ray in board.rays(g, from) {
                for &to in board.ray_cells(ray) {
                    if p.is_wall(to) {
                        if ray.leap {
                            continue;
                        }
                        break;
                    }
                    let occupant = p.at(to).filter(|&o| self.group_side[group_of(o)] != side);
                    let legal = match occupant {
                        None => ray.onto.empty(),
                        Some(enemy) => ray.onto.enemy() && self.meet[g * n + group_of(enemy)] != 0,
                    };
                    if legal && !targets.contains(&to) {
                        targets.push(to);
                    }
                    if !ray.leap && occupant.is_some() {
                        break;
                    }
                }
            }
            if targets.is_empty() {
                return; // this piece cannot move: the side has no legal turn
            }
            options.push(targets);
        }
        let mut children: Vec<(RulesPosition<N>, RulesMove)> = Vec::new();
        let mut choice = vec![0usize; mine.len()];
        loop {
            let dests: Vec<u32> = choice.iter().enumerate().map(|(i, &c)| options[i][c]).collect();
            let distinct = (0..dests.len()).all(|i| !dests[..i].contains(&dests[i]));
            if distinct {
                let mut m = RulesMove::PASS;
                for (i, &packed) in mine.iter().enumerate() {
                    m.steps[i] = (cell_of(packed) as u16, dests[i] as u16);
                }
                m.len = mine.len() as u8;
                children.push((self.play_move(p, &m), m));
            }
            // Next combination (odometer).
            let mut i = 0;
            loop {
                if i == choice.len() {
                    // Moves that lead to the same position (two pieces of a kind
                    // trading cells) are one move: sorted, not compared pairwise, so
                    // that four pieces' 625 combinations stay cheap.
                    children.sort_by_key(|(child, _)| *child);
                    children.dedup_by(|a, b| a.0 == b.0);
                    children.iter().for_each(|(_, m)| f(*m));
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

    /// The position after a move (which must be legal in `p`).
    pub(crate) fn play_move(&self, p: &RulesPosition<N>, m: &RulesMove) -> RulesPosition<N> {
        if m.len == 1 {
            return self.play_step(p, m.steps[0]);
        }
        let n = self.group_side.len();
        let mut c = *p;
        let side = p.to_move();
        let mut movers = [0u32; MAX_ALL_PIECES];
        for (i, &(from, _)) in m.steps().iter().enumerate() {
            let packed = p.at(from as u32).expect("a move starts from a piece");
            movers[i] = packed;
            c.remove(packed);
        }
        for (i, &(from, to)) in m.steps().iter().enumerate() {
            let g = group_of(movers[i]);
            if let Some(other) = c.at(to as u32) {
                debug_assert_ne!(self.group_side[group_of(other)], side);
                let ended = self.meet[g * n + group_of(other)];
                if ended != 0 {
                    c.ended = ended;
                }
                c.remove(other);
            }
            c.insert(pack(g, to as u32));
            if from != to && self.group_trail[g] {
                c.walls |= 1u128 << from;
            }
        }
        c.to_move ^= 1;
        c
    }

    /// The position after one piece's move `from` → `to` (legal in `p`): the piece
    /// is rewritten where it stands in the list and slid into order, an enemy on
    /// `to` taken off; no list is rebuilt.
    #[inline]
    fn play_step(&self, p: &RulesPosition<N>, (from, to): (u16, u16)) -> RulesPosition<N> {
        let mut c = *p;
        c.to_move ^= 1;
        if from == to {
            return c;
        }
        let (from, to) = (from as u32, to as u32);
        let len = c.len as usize;
        let mut i = c.pieces[..len].iter().position(|&q| cell_of(q) == from).expect("a move starts from a piece");
        let g = group_of(c.pieces[i]);
        if let Some(j) = c.pieces[..len].iter().position(|&q| cell_of(q) == to) {
            let n = self.group_side.len();
            let ended = self.meet[g * n + group_of(c.pieces[j])];
            if ended != 0 {
                c.ended = ended;
            }
            c.pieces.copy_within(j + 1..len, j);
            c.len -= 1;
            if j < i {
                i -= 1;
            }
        }
        let moved = pack(g, to);
        let len = c.len as usize;
        // Slide the piece to its place: the list stays sorted.
        while i > 0 && c.pieces[i - 1] > moved {
            c.pieces[i] = c.pieces[i - 1];
            i -= 1;
        }
        while i + 1 < len && c.pieces[i + 1] < moved {
            c.pieces[i] = c.pieces[i + 1];
            i += 1;
        }
        c.pieces[i] = moved;
        if self.group_trail[g] {
            c.walls |= 1u128 << from;
        }
        c
    }

    /// Does a piece of group `g` on `cell` end the game whoever is to move (a
    /// `reach` ending checked after the move)? Such cells are not among the
    /// group's places in the index.
    pub(crate) fn ends_on_arrival(&self, g: usize, cell: u32) -> bool {
        let cells = self.board.cells();
        self.reach[self.group_side[g]]
            .iter()
            .any(|check| check.check == Check::AfterMove && check.hits[g * cells + cell as usize])
    }

    /// Can two pieces meet (end the game on one cell)?
    pub(crate) fn has_meetings(&self) -> bool {
        self.meet.iter().any(|&m| m != 0)
    }

    /// The `ended` code of a piece of group `a` landing on one of group `b` (0: a
    /// capture, no meeting); `n` is the number of groups.
    #[inline]
    pub(crate) fn meet_code(&self, a: usize, b: usize, n: usize) -> u8 {
        self.meet[a * n + b]
    }

    /// Does a side have a piece in a reach ending's zone?
    #[inline]
    fn reaches(&self, p: &RulesPosition<N>, check: &ReachCheck) -> bool {
        let cells = self.board.cells();
        p.packed().iter().any(|&q| check.hits[group_of(q) * cells + cell_of(q) as usize])
    }

    /// Bit `s` set when side `s` has a piece on the board; both bits set without
    /// looking when no `no-pieces` ending needs to know.
    #[inline]
    fn sides_present(&self, p: &RulesPosition<N>) -> u8 {
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
    /// `present` as [`RulesGame::sides_present`] gives it.
    #[inline]
    fn side_ending(&self, p: &RulesPosition<N>, side: usize, present: u8) -> Option<Outcome> {
        for check in &self.reach[side] {
            let applies = match check.check {
                Check::AfterMove => true,
                Check::AfterReply => side == p.to_move(),
            };
            if applies && self.reaches(p, check) {
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
}

/// Piece counts the game can hold: at most [`MAX_PIECES`] on the board, and few
/// enough for a side that moves every piece at once.
pub(crate) fn check_counts(rules: &Rules, board: &Board, counts: &[u8]) -> Result<(), RulesError> {
    let n = board.groups.len();
    if counts.len() != n {
        return Err(RulesError::Board(format!("{} piece counts for {n} kinds of piece", counts.len())));
    }
    let total: usize = counts.iter().map(|&l| l as usize).sum();
    if total > MAX_PIECES.min(board.cells()) {
        return Err(RulesError::Board(format!(
            "{total} pieces on a board of {} cells (at most {} pieces)",
            board.cells(),
            MAX_PIECES.min(board.cells())
        )));
    }
    for side in 0..2 {
        if rules.sides[side].turn == Turn::AllPieces {
            let count: usize = (0..n).filter(|&g| board.groups[g].side == side).map(|g| counts[g] as usize).sum();
            if count > MAX_ALL_PIECES {
                return Err(RulesError::Board(format!(
                    "the {} move every piece at once, and may have at most {MAX_ALL_PIECES} pieces, not {count}",
                    rules.sides[side].name
                )));
            }
        }
    }
    Ok(())
}

/// An outcome for one side, seen by the other.
fn flip(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Win => Outcome::Loss,
        Outcome::Loss => Outcome::Win,
        Outcome::Tie => Outcome::Tie,
    }
}

impl<const N: usize> Game for RulesGame<N> {
    type Position = RulesPosition<N>;
    type Move = RulesMove;

    /// The endings, the side that just moved first: a meeting, then each side's
    /// `reach` and `no-pieces` endings in file order, then (when the rules make
    /// being stuck anything but a loss) the side to move having no move.
    fn terminal(&self, p: &RulesPosition<N>) -> Option<Outcome> {
        let to_move = p.to_move();
        match p.ended {
            0 => {}
            3 => return Some(Outcome::Tie),
            code => return Some(if code - 1 == to_move as u8 { Outcome::Win } else { Outcome::Loss }),
        }
        let present = self.sides_present(p);
        if let Some(result) = self.side_ending(p, 1 - to_move, present) {
            return Some(flip(result));
        }
        if let Some(result) = self.side_ending(p, to_move, present) {
            return Some(result);
        }
        if self.stuck != Outcome::Loss {
            let mut any = false;
            self.for_each_move(p, |_| any = true);
            if !any {
                return Some(self.stuck);
            }
        }
        None
    }

    fn moves(&self, p: &RulesPosition<N>, moves: &mut Vec<RulesMove>) {
        self.for_each_move(p, |m| moves.push(m));
    }

    #[inline]
    fn play(&self, p: &RulesPosition<N>, m: &RulesMove) -> RulesPosition<N> {
        self.play_move(p, m)
    }

    #[inline]
    fn for_each_child(&self, p: &RulesPosition<N>, mut f: impl FnMut(RulesPosition<N>)) {
        self.for_each_move(p, |m| f(self.play_move(p, &m)));
    }

    /// Counted without playing them.
    #[inline]
    fn move_count(&self, p: &RulesPosition<N>) -> usize {
        let mut n = 0;
        self.for_each_move(p, |_| n += 1);
        n
    }
}
