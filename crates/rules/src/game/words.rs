//! A rules game in words: moves and endings for explanations, and what the file
//! means for `gsolve rules --check`.

use super::fast_paths::{KnowledgePath, WholePath};
use super::rules_game::{RulesGame, RulesMove};
use crate::compiled::board::Board;
use crate::compiled::position::RulesPosition;
use crate::index::Folds;
use crate::language::spec::{CellColour, Check, Ending, Facing, KindRules, MoveRule, Onto, Rules, ScoredEnd, Turn};
use crate::retrograde::pursuit::Pursuit;
use gsolve_engine::{Game, Outcome};
use gsolve_games::notation::{Coord, Explain, PieceMove};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::Mutex;

/// A side's name as a `&'static str`, as explanations carry it. Each distinct name
/// is stored once for the life of the process: a process reads few rules files.
pub fn intern(name: &str) -> &'static str {
    static NAMES: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    let set = names.get_or_insert_with(HashSet::new);
    if let Some(&found) = set.get(name) {
        return found;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    set.insert(leaked);
    leaked
}

impl RulesGame {
    /// True when no position can come back: every move takes a piece forward (no
    /// stay, no pass, no step without a forward part), drops a piece (in a game
    /// without captures: pieces only come) or leaves a wall. Such a game has no
    /// draws, and alpha-beta search is exact for it.
    pub fn acyclic(&self) -> bool {
        acyclic(self.rules())
    }

    /// Is the game a pursuit that [`crate::solve_by_bit_rows`] solves: one
    /// piece a side whose moves depend on its own cell alone, endings by zones,
    /// meetings or captures, none a tie, every position after a capture over, on
    /// a grid at most a quarter wall, side 0's places among side 1's (see the
    /// `pursuit` module)? Such a solve may still give up on a long game and leave
    /// it to the engine. Checking plays each landing once: cheap beside a solve.
    pub fn is_pursuit(&self) -> bool {
        match self.paths.whole {
            WholePath::BitRows(_) => true,
            WholePath::Retrograde => false,
        }
    }

    /// The cell's coordinates (1-based).
    pub fn coord(&self, cell: u32) -> Coord {
        let (r, c) = self.board().coords[cell as usize];
        Coord { row: r + 1, col: c + 1 }
    }

    /// What a rules file means (its board, sides, pieces, zones and endings), on
    /// `board` when there is one: the first part of [`RulesGame::describe`].
    fn describe_rules(rules: &Rules, board: Option<&Board>) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{} ({})", rules.title, rules.name);
        write_board(&mut out, rules, board);
        write_sides(&mut out, rules);
        for kind in &rules.kinds {
            write_kind(&mut out, rules, kind);
        }
        write_zones(&mut out, rules, board);
        write_endings(&mut out, rules);
        out
    }

    /// What the file means on this board, for `gsolve rules --check`.
    pub fn describe(&self) -> String {
        let mut out = RulesGame::describe_rules(self.rules(), Some(self.board()));
        match self.placement_index() {
            Ok(index) => {
                let limits: Vec<String> =
                    self.groups().iter().zip(index.limits()).map(|(g, l)| format!("{l} `{}`", g.letter)).collect();
                let what = if index.has_holes() {
                    "entries (some name no position: two pieces on one cell, or a side to move the counts rule out)"
                } else {
                    "positions"
                };
                let folded = match index.folding() {
                    f if f.side_swap && f.mirror_anchor.is_some() => {
                        "; folded by the side swap and the mirror: one of each orbit"
                    }
                    f if f.side_swap => "; folded by the side swap: the first side to move only",
                    f if f.mirror_anchor.is_some() => "; folded by the mirror: one of each mirror pair",
                    _ => "",
                };
                let folded = match index.folding().royal_pair {
                    Some([first, second]) => format!(
                        "{folded}; `{}` and `{}` placed as a pair, without the positions where the side to move can take the other's (wins in 1 by the rules; where another piece can, the position keeps its entry and is valued by the rules too)",
                        self.groups()[first].letter,
                        self.groups()[second].letter
                    ),
                    None => folded.to_string(),
                };
                // The size it would have unfolded, for comparison.
                let unfolded = if index.folding().folds() {
                    RulesGame::build(self.rules().clone(), self.board().clone(), Some(index.given()), Folds::NONE)
                        .ok()
                        .and_then(|plain| plain.placement_index().ok().map(|i| i.size()))
                        .map_or(String::new(), |size| format!(" ({size} unfolded)"))
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "index: {} {what}{unfolded} in {} tiers (up to {}){folded}",
                    index.size(),
                    index.tiers().len(),
                    limits.join(", ")
                );
            }
            Err(why) => {
                let _ = writeln!(out, "index: none ({why})");
            }
        }
        let _ = writeln!(
            out,
            "positions can repeat: {}",
            if self.acyclic() { "no (search is exact; no draws)" } else { "yes (retrograde finds draws)" }
        );
        if self.is_race() {
            let _ =
                writeln!(out, "a trail race: the search values pieces that can no longer meet by their longest paths");
        }
        if self.scans_children() {
            let _ = writeln!(
                out,
                "pawn-like: each group ranked on its own places, so tier sweeps rank a position's children move by move from bit sets, no move played"
            );
        }
        if self.first_look_from_bit_sets() {
            let _ = writeln!(
                out,
                "short moves: each piece's moves are two bit sets (onto empty cells, onto enemies), read in retrograde's first look without walking a ray"
            );
        }
        if self.is_pursuit() {
            let _ = writeln!(
                out,
                "a pursuit: one piece a side, solved whole by bit rows (64 positions a machine word), as the built-in chase and Queen's Case"
            );
        }
        for symmetry in self.symmetries() {
            let _ = writeln!(out, "symmetry: {}", symmetry.describe());
        }
        if self.flip_shape().is_some() {
            let _ = writeln!(
                out,
                "values: final margins, by the flip games' search on bit sets (null windows on the margin, a table of bounds, every core)"
            );
        } else if self.is_scored() {
            let _ = writeln!(
                out,
                "values: final margins, every position reached from the one asked valued exactly and kept (a memo)"
            );
        }
        let _ = writeln!(out, "fast paths:");
        for line in self.fast_paths() {
            let _ = writeln!(out, "  {line}");
        }
        if self.is_line_game() {
            let _ = writeln!(
                out,
                "a line game: drops, lines and a full board; searched on bit sets with threats, null windows and every core (docs/rules-solving.md, \"Line games\")"
            );
        }
        out
    }

    /// True when the game is a line game (every move drops a piece, lines and a
    /// full board end it, on a board of at most 64 bits: docs/rules.md), searched
    /// by its own bit-set search.
    pub fn is_line_game(&self) -> bool {
        self.lines().is_some()
    }

    /// The pursuit's bit rows, where the game is one ([`WholePath::BitRows`]).
    pub(crate) fn pursuit(&self) -> Option<&Pursuit> {
        match &self.paths.whole {
            WholePath::BitRows(pursuit) => Some(pursuit),
            WholePath::Retrograde => None,
        }
    }

    /// True when the game is a trail race (the snakes on a graph of its steps), whose
    /// search knows the value of two pieces that can no longer meet.
    pub fn is_race(&self) -> bool {
        matches!(self.paths.knowledge, KnowledgePath::Race(_))
    }
}

/// What a rules file means when there is no position to set the game up with (the
/// rules give no start and none was given), for `gsolve rules --check`: the rules
/// on `board` if there is one, and what the index needs to be sized.
pub fn describe_without_position(rules: &Rules, board: Option<&Board>) -> String {
    let mut out = RulesGame::describe_rules(rules, board);
    let needs = if rules.board.map && board.is_none() {
        "a map and the pieces: give a position (the map comes with it)"
    } else {
        "the pieces: give a position"
    };
    let _ = writeln!(out, "index: its size depends on {needs}");
    let _ = writeln!(
        out,
        "positions can repeat: {}",
        if acyclic(rules) { "no (search is exact; no draws)" } else { "yes (retrograde finds draws)" }
    );
    let _ = writeln!(out, "position: none (the rules give no start)");
    out
}

/// The board's line of [`RulesGame::describe_rules`]: its size and cells when there
/// is a board, else where its size will come from.
fn write_board(out: &mut String, rules: &Rules, board: Option<&Board>) {
    let cells = match rules.board.cells {
        CellColour::All => String::new(),
        CellColour::Dark => ", dark cells only".into(),
        CellColour::Light => ", light cells only".into(),
    };
    let _ = match board {
        Some(board) => writeln!(
            out,
            "board: {} rows × {} columns, {} playable cells{cells}{}",
            board.rows,
            board.cols,
            board.cells(),
            if board.map.is_some() { " (walls and marks from the map)" } else { "" }
        ),
        None if rules.board.map => writeln!(out, "board: from a map, which a position or a map file gives{cells}"),
        None => writeln!(out, "board: its size comes with a position or a board size{cells}"),
    };
}

/// A line a side: its name and letter, which way is forward, what moves in a turn,
/// and which side moves first.
fn write_sides(out: &mut String, rules: &Rules) {
    for (i, side) in rules.sides.iter().enumerate() {
        let facing = match side.forward {
            Facing::Up => "up",
            Facing::Down => "down",
            Facing::Left => "left",
            Facing::Right => "right",
        };
        let turn = match side.turn {
            Turn::OnePiece => "one piece moves a turn",
            Turn::AllPieces => "every piece moves each turn",
        };
        let first = if i == 0 { ", moves first in the start position" } else { "" };
        let _ = writeln!(out, "side {} (`{}`): forward is {facing}, {turn}{first}", side.name, side.letter);
    }
}

/// A piece kind: its letters by side, then a line for each of its moves and for
/// each of its other rules (staying, trails, drops, promotion, the captor's hand).
fn write_kind(out: &mut String, rules: &Rules, kind: &KindRules) {
    let owners: Vec<String> =
        (0..2).filter_map(|s| kind.letters[s].map(|l| format!("`{l}` for {}", rules.sides[s].name))).collect();
    let _ = writeln!(out, "piece {}: {}", kind.name, owners.join(", "));
    for m in &kind.moves {
        write_move(out, m);
    }
    if kind.stay {
        let _ = writeln!(out, "  may stay where it is");
    }
    if kind.trail {
        let _ = writeln!(out, "  leaves a wall on every cell it leaves");
    }
    if let Some(drop) = &kind.drop {
        let zone = drop
            .zone
            .map_or("an empty cell".to_string(), |z| format!("an empty cell of the zone {}", rules.zones[z].name));
        let supply = if drop.from_hand { "its side's hand" } else { "an endless supply" };
        let how = if drop.gravity {
            format!("dropped from {supply} into a column, falls to the lowest empty cell it reaches ({zone})")
        } else {
            format!("dropped from {supply} onto {zone}")
        };
        let _ = writeln!(out, "  is {how}");
        if let Some(flips) = &drop.flips {
            let along = match (flips.orthogonal, flips.diagonal) {
                (true, true) => "rows, columns and diagonals",
                (true, false) => "rows and columns",
                _ => "diagonals",
            };
            let must = if flips.must_flip { "; a drop must flip at least one" } else { "" };
            let _ = writeln!(out, "  flips every enemy run it brackets along {along} into its side's pieces{must}");
        }
    }
    if let Some(promote) = &kind.promote {
        let how = if promote.forced { "becomes" } else { "may become" };
        let _ = writeln!(
            out,
            "  {how} {} on a move that ends in the zone {}",
            with_article(&rules.kinds[promote.to].name),
            rules.zones[promote.zone].name
        );
    }
    if let Some(to) = kind.to_hand {
        let _ = writeln!(out, "  captured, goes to the captor's hand as {}", with_article(&rules.kinds[to].name));
    }
}

/// One move of a piece kind: how far, along which vectors, onto what, leaping or not.
fn write_move(out: &mut String, m: &MoveRule) {
    let range = match m.range {
        None => "sliding".to_string(),
        Some(1) => "one step".to_string(),
        Some(k) => format!("up to {k} steps"),
    };
    let onto = match m.onto {
        Onto::Empty => "onto empty cells",
        Onto::Enemy => "onto enemy pieces only",
        Onto::Any => "onto empty cells or enemy pieces",
    };
    let vectors: Vec<String> = m.vectors.iter().map(|(f, r)| format!("[{f},{r}]")).collect();
    let leap = if m.leap { ", leaping" } else { "" };
    let _ = writeln!(out, "  moves {range} along {} (forward, right), {onto}{leap}", vectors.join(" "));
}

/// A line a zone and side: how many cells it holds on the board, or that the board
/// decides them when there is none yet.
fn write_zones(out: &mut String, rules: &Rules, board: Option<&Board>) {
    for (z, zone) in rules.zones.iter().enumerate() {
        for side in 0..2 {
            let cells = match board {
                Some(board) => {
                    format!("{} cells", (0..board.cells() as u32).filter(|&c| board.in_zone(z, side, c)).count())
                }
                None => "its cells depend on the board (a position or a map gives it)".into(),
            };
            let _ = writeln!(out, "zone {} for {}: {cells}", zone.name, rules.sides[side].name);
        }
    }
}

/// A line an ending, the default ending when a side without a move is not named,
/// and the rule for games that never end.
fn write_endings(out: &mut String, rules: &Rules) {
    for e in &rules.endings {
        let _ = writeln!(out, "end: {}", ending_line(rules, e));
    }
    if rules.pass {
        let _ = writeln!(out, "a side without a legal move passes (a ply)");
    } else if rules.score.is_some() {
        let _ = writeln!(out, "end: the side to move without a legal move: the score decides");
    } else if !rules.endings.iter().any(|e| matches!(e, Ending::Stuck { .. })) {
        let _ = writeln!(out, "end: the side to move without a legal move loses (the default)");
    }
    if let Some(score) = &rules.score {
        let empty = if score.empty_to_winner { "; the empty cells go to the winner" } else { "" };
        let _ = writeln!(
            out,
            "score: each side's pieces on the board; a value is the final margin for the side to move{empty}"
        );
    }
    let _ = writeln!(out, "otherwise play goes on; a game that never ends is a draw");
}

/// One ending in words: what ends the game and with which outcome for whom.
fn ending_line(rules: &Rules, e: &Ending) -> String {
    let result = |o: Outcome| match o {
        Outcome::Win => "wins",
        Outcome::Loss => "loses",
        Outcome::Tie => "ties",
    };
    // An outcome for a side named as a noun ("cops", "white or black", "that side"),
    // so that it reads right whether the name is singular or plural.
    let outcome_for = |o: Outcome, who: &str| match o {
        Outcome::Win => format!("a win for {who}"),
        Outcome::Loss => format!("a loss for {who}"),
        Outcome::Tie => "a tie".to_string(),
    };
    // The side an ending names: itself if one, "that side" if both.
    let which = |who: &[&str]| if who.len() == 1 { who[0].to_string() } else { "that side".to_string() };
    match e {
        Ending::Reach { zone, kinds, sides, check, result: r } => {
            let who: Vec<&str> = (0..2).filter(|&s| sides[s]).map(|s| rules.sides[s].name.as_str()).collect();
            let pieces = kinds.as_ref().map_or("a piece".to_string(), |k| {
                with_article(&k.iter().map(|&k| rules.kinds[k].name.as_str()).collect::<Vec<_>>().join(" or "))
            });
            let when = match check {
                Check::AfterMove => "as soon as it stands there",
                Check::AfterReply => "if it still stands there when its side is to move again",
            };
            format!(
                "{} with {pieces} in the zone {}: {} ({when})",
                who.join(" or "),
                rules.zones[*zone].name,
                outcome_for(*r, &which(&who))
            )
        }
        Ending::Meet { kinds, winner } => format!(
            "{} and {} on one cell: {}",
            rules.kinds[kinds[0]].name,
            rules.kinds[kinds[1]].name,
            winner.map_or("a tie".to_string(), |w| format!("a win for {}", rules.sides[w].name))
        ),
        Ending::NoPieces { sides, result: r } => {
            let who: Vec<&str> = (0..2).filter(|&s| sides[s]).map(|s| rules.sides[s].name.as_str()).collect();
            format!("{} without pieces: {}", who.join(" or "), outcome_for(*r, &which(&who)))
        }
        Ending::Line { length, orthogonal, diagonal, kinds, sides, result: r } => {
            let who: Vec<&str> = (0..2).filter(|&s| sides[s]).map(|s| rules.sides[s].name.as_str()).collect();
            let pieces = kinds.as_ref().map_or("pieces".to_string(), |k| {
                k.iter().map(|&k| rules.kinds[k].name.as_str()).collect::<Vec<_>>().join(" or ")
            });
            let along = match (orthogonal, diagonal) {
                (true, true) => "in a row, a column or a diagonal",
                (true, false) => "in a row or a column",
                _ => "in a diagonal",
            };
            format!("{} with {length} {pieces} {along}: {}", who.join(" or "), outcome_for(*r, &which(&who)))
        }
        Ending::Full { result: r } => format!("every cell taken: {}", outcome_for(*r, "the side to move")),
        Ending::Captured { kinds, result: r } => format!(
            "a side whose {} is captured {} (whoever captures it)",
            kinds.iter().map(|&k| rules.kinds[k].name.as_str()).collect::<Vec<_>>().join(" or "),
            result(*r)
        ),
        Ending::Stuck { result: r } => format!("the side to move without a legal move {}", result(*r)),
        Ending::NoMoves { result: r } => {
            format!("neither side with a legal move: {}", outcome_for(*r, "the side to move"))
        }
        Ending::Scored { when: ScoredEnd::Full } => "every cell taken: the score decides".to_string(),
        Ending::Scored { when: ScoredEnd::NoMoves } => "neither side with a legal move: the score decides".to_string(),
    }
}

/// A noun with its indefinite article: "a lion", "an elephant".
fn with_article(noun: &str) -> String {
    let an = noun.starts_with(|c: char| "aeiouAEIOU".contains(c));
    format!("{} {noun}", if an { "an" } else { "a" })
}

/// True when no position of a game by these rules can come back ([`RulesGame::acyclic`]).
fn acyclic(rules: &Rules) -> bool {
    if rules.has_trails() {
        return rules.kinds.iter().all(|k| k.trail && !k.stay);
    }
    if rules.has_drops() && rules.has_captures() {
        return false;
    }
    rules.kinds.iter().all(|k| !k.stay && k.moves.iter().all(|m| m.vectors.iter().all(|&(f, _)| f > 0)))
}

impl Explain for RulesGame {
    fn side_to_move(&self, p: &RulesPosition) -> &'static str {
        intern(&self.rules().sides[p.to_move()].name)
    }

    /// The first piece that moves (a pass: the side's first piece staying), and,
    /// where the side moves every piece, the others' steps in `also`.
    fn describe_move(&self, p: &RulesPosition, m: &RulesMove) -> PieceMove {
        let side = self.side_to_move(p);
        if let Some((group, to)) = m.dropped() {
            return PieceMove::dropped(side, self.groups()[group].letter, self.coord(to));
        }
        let steps = m.steps();
        let Some(first) = steps.iter().position(|(f, t)| f != t).or((!steps.is_empty()).then_some(0)) else {
            let own = p.pieces().find(|q| self.groups()[q.group].side == p.to_move()).map_or(0, |q| q.cell);
            if self.rules().pass {
                return PieceMove::passed(side, self.coord(own));
            }
            return PieceMove::new(side, self.coord(own), self.coord(own));
        };
        let (f, t) = steps[first];
        let mut described = PieceMove::new(side, self.coord(f as u32), self.coord(t as u32));
        let others = steps.iter().enumerate().filter(|&(i, _)| i != first).map(|(_, s)| s);
        for (slot, &(f, t)) in described.also.iter_mut().zip(others) {
            *slot = Some((self.coord(f as u32), self.coord(t as u32)));
        }
        described
    }

    /// How the game ended and who won, e.g. "the lion of sente was captured, a win
    /// for gote" (worded so that a side's name may be singular or plural).
    fn describe_end(&self, p: &RulesPosition) -> Option<String> {
        let outcome = self.terminal(p);
        let mover = &self.rules().sides[p.to_move()].name;
        let other = &self.rules().sides[1 - p.to_move()].name;
        let result = |o: Outcome| match o {
            Outcome::Win => format!("a win for {mover}"),
            Outcome::Loss => format!("a win for {other}"),
            Outcome::Tie => "a tie".to_string(),
        };
        if let (Some(o), true) = (outcome, self.is_scored()) {
            let margin = gsolve_engine::Scored::final_margin(self, p).abs();
            let why = if p.piece_count() == self.board().cells() {
                "the board is full"
            } else if self.rules().pass {
                "neither side can move"
            } else {
                "the side to move cannot move"
            };
            return Some(match o {
                Outcome::Tie => format!("{why}: the score is level"),
                o => format!("{why}: {} by {margin}", result(o)),
            });
        }
        Some(match (p.ended(), outcome) {
            (1 | 2, _) => format!("the pieces met, a win for {}", self.rules().sides[p.ended() as usize - 1].name),
            (3, _) => "the pieces met, a tie".into(),
            (_, Some(o)) => match self.end_reason(p) {
                Some(why) => format!("{why}, {}", result(o)),
                None => format!("{mover} cannot move, {}", result(o)),
            },
            (_, None) => {
                let mut any = false;
                self.for_each_move(p, |_| any = true);
                if any {
                    return None;
                }
                format!("{mover} cannot move, a win for {other}")
            }
        })
    }
}

impl RulesGame {
    /// Which ending is over at `p`, in words, checked in the order of
    /// [`Game::terminal`]: the side that just moved first, then the side to move,
    /// each side's `reach`, `captured`, `line` and `no-pieces` endings, then a full
    /// board. `None` when none applies (the side to move is stuck).
    fn end_reason(&self, p: &RulesPosition) -> Option<String> {
        let (rules, board) = (self.rules(), self.board());
        let names =
            |kinds: &[usize]| kinds.iter().map(|&k| rules.kinds[k].name.as_str()).collect::<Vec<_>>().join(" or ");
        let to_move = p.to_move();
        for side in [1 - to_move, to_move] {
            let name = &rules.sides[side].name;
            let counts = |kinds: &Option<Vec<usize>>, group: usize| {
                let g = &board.groups[group];
                g.side == side && kinds.as_ref().is_none_or(|k| k.contains(&g.kind))
            };
            for e in &rules.endings {
                let Ending::Reach { zone, kinds, sides, check, .. } = e else { continue };
                let applies = sides[side] && (*check == Check::AfterMove || side == to_move);
                if applies && p.pieces().any(|q| counts(kinds, q.group) && board.in_zone(*zone, side, q.cell)) {
                    let piece = kinds.as_ref().map_or("a piece".to_string(), |k| with_article(&names(k)));
                    return Some(format!("{piece} of {name} in the zone {}", rules.zones[*zone].name));
                }
            }
            for e in &rules.endings {
                let Ending::Captured { kinds, .. } = e else { continue };
                let kinds = Some(kinds.clone());
                let royal = (0..board.groups.len()).any(|g| counts(&kinds, g));
                if royal && !p.pieces().any(|q| counts(&kinds, q.group)) {
                    return Some(format!("the {} of {name} was captured", names(kinds.as_deref().unwrap_or(&[]))));
                }
            }
            for e in &rules.endings {
                let Ending::Line { length, orthogonal, diagonal, kinds, sides, .. } = e else { continue };
                if !sides[side] {
                    continue;
                }
                let mut directions = Vec::new();
                if *orthogonal {
                    directions.extend([(0i64, 1i64), (1, 0)]);
                }
                if *diagonal {
                    directions.extend([(1, 1), (1, -1)]);
                }
                let holds = |r: i64, c: i64| {
                    (r >= 0 && c >= 0)
                        .then(|| board.cell(r as u32, c as u32))
                        .flatten()
                        .and_then(|cell| p.at(cell))
                        .is_some_and(|q| counts(kinds, crate::compiled::position::group_of(q)))
                };
                let line = board.coords.iter().any(|&(r, c)| {
                    directions
                        .iter()
                        .any(|&(dr, dc)| (0..*length as i64).all(|i| holds(r as i64 + dr * i, c as i64 + dc * i)))
                });
                if line {
                    return Some(format!("{length} in a line for {name}"));
                }
            }
            if self.tables().endings().no_pieces(side).is_some()
                && !p.pieces().any(|q| board.groups[q.group].side == side)
            {
                return Some(format!("no piece of {name} is left"));
            }
        }
        (self.tables().endings().has_full() && self.tables().endings().empty_cells(p) == 0)
            .then(|| "every cell is taken".to_string())
    }
}
