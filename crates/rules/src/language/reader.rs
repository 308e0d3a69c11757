//! Reading a rules file into [`Rules`]: the parts of the file in order, each
//! key checked. Reading refuses unknown keys, wrong types, names that are not
//! defined, and combinations that mean nothing, each with the line and column
//! of the offending text.

use crate::language::error::RulesError;
use crate::language::spec::*;
use crate::language::syntax::{as_array, as_int, as_str, as_table, short, Fields, Item, Source};
use gsolve_engine::Outcome;
use std::ops::Range;

impl Rules {
    /// Reads a rules file.
    pub fn parse(text: &str) -> Result<Rules, RulesError> {
        let source = Source { text };
        let document = source.parse()?;
        let root = Fields::new(&source, document.get_ref(), 0..0, "the rules file");
        Reader { source: &source }.read(root, text)
    }
}

/// What a name left for later names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    DropZone,
    PromoteZone,
    PromoteTo,
    ToHand,
}

/// A name read before what it names: (kind, what, name, span).
type PendingName = (usize, Pending, String, Range<usize>);

/// Reads the parts of a file in order; later parts refer to names defined earlier.
struct Reader<'s, 'a> {
    source: &'s Source<'a>,
}

const RESERVED: [char; 4] = ['.', '#', '/', ','];

impl<'s, 'a> Reader<'s, 'a> {
    fn err(&self, span: Range<usize>, message: impl Into<String>) -> RulesError {
        self.source.error(span, message)
    }

    fn read(&self, mut root: Fields<'s, 'a>, text: &str) -> Result<Rules, RulesError> {
        let mut game = root.table("game")?.ok_or_else(|| self.err(0..0, "the rules file lacks the [game] table"))?;
        game.name = "[game]".into();
        let (name, name_span) =
            game.string("name")?.ok_or_else(|| self.err(game.span.clone(), "[game] lacks `name`"))?;
        check_name(self.source, name, name_span, "the game's name")?;
        let title = game.string("title")?.map_or(name, |(t, _)| t).to_string();
        let sides_item = game.require("sides")?;
        let side_items = as_array(self.source, sides_item, "`sides` in [game]")?;
        if side_items.len() != 2 {
            return Err(self.err(sides_item.span(), format!("`sides` must name two sides, not {}", side_items.len())));
        }
        let mut side_names = Vec::new();
        for item in side_items {
            let n = as_str(self.source, item, "a side's name")?;
            check_name(self.source, n, item.span(), "a side's name")?;
            if side_names.contains(&n) {
                return Err(self.err(item.span(), format!("the side `{}` is named twice", short(n))));
            }
            side_names.push(n);
        }
        let pass = game.boolean("pass", false)?;
        let pass_span = game.span.clone();
        game.finish()?;

        let mut rules = Rules {
            text: text.to_string(),
            name: name.to_string(),
            title,
            sides: [0, 1].map(|i| SideRules {
                name: side_names[i].to_string(),
                letter: side_names[i].chars().next().unwrap_or('?').to_ascii_lowercase(),
                forward: if i == 0 { Facing::Up } else { Facing::Down },
                turn: Turn::OnePiece,
            }),
            board: BoardRules { rows: None, cols: None, map: false, cells: CellColour::All },
            kinds: Vec::new(),
            zones: Vec::new(),
            endings: Vec::new(),
            start: None,
            pass,
            score: None,
        };

        if let Some(sides) = root.table("side")? {
            self.read_sides(sides, &mut rules)?;
        }
        if rules.sides[0].letter == rules.sides[1].letter {
            return Err(self.err(
                sides_item.span(),
                format!(
                    "both sides are written `{}` as the side to move: give one a `letter` in [side.{}]",
                    rules.sides[0].letter, rules.sides[1].name
                ),
            ));
        }
        let board = root.table("board")?.ok_or_else(|| self.err(0..0, "the rules file lacks the [board] table"))?;
        self.read_board(board, &mut rules)?;
        let pieces = root.table("piece")?.ok_or_else(|| self.err(0..0, "the rules file defines no [piece.NAME]"))?;
        let mut pending_zones = Vec::new();
        self.read_pieces(pieces, &mut rules, &mut pending_zones)?;
        if let Some(zones) = root.table("zone")? {
            self.read_zones(zones, &mut rules)?;
        }
        self.resolve_names(&mut rules, pending_zones)?;
        if let Some(score) = root.table("score")? {
            rules.score = Some(self.read_score(score)?);
        }
        let ends = root.require("end").map_err(|_| {
            self.err(0..0, "the rules file has no [[end]]: say how the game ends (at least `when = \"stuck\"`)")
        })?;
        self.read_endings(ends, &mut rules)?;
        self.check_score_rules(&rules, ends.span(), pass_span)?;
        if let Some(start) = root.get("start") {
            rules.start = Some(self.read_start(start, &rules)?);
        }
        root.finish()?;
        Ok(rules)
    }

    fn side(&self, rules: &Rules, name: &str, span: Range<usize>) -> Result<usize, RulesError> {
        rules.side_named(name).ok_or_else(|| {
            self.err(
                span,
                format!(
                    "no side is named `{}`: the sides are `{}` and `{}`",
                    short(name),
                    rules.sides[0].name,
                    rules.sides[1].name
                ),
            )
        })
    }

    fn read_sides(&self, mut sides: Fields<'s, 'a>, rules: &mut Rules) -> Result<(), RulesError> {
        for (name, span, item) in sides.entries() {
            let side = self.side(rules, name, span)?;
            let mut f = as_table(self.source, item, &format!("[side.{}]", short(name)))?;
            if let Some((letter, span)) = f.string("letter")? {
                rules.sides[side].letter = single_letter(self.source, letter, span, "a side's letter")?;
            }
            if let Some((facing, span)) = f.string("forward")? {
                rules.sides[side].forward = match facing {
                    "up" => Facing::Up,
                    "down" => Facing::Down,
                    "left" => Facing::Left,
                    "right" => Facing::Right,
                    other => {
                        return Err(self.err(
                            span,
                            format!(
                                "`forward` is {}: it must be \"up\", \"down\", \"left\" or \"right\"",
                                short(other)
                            ),
                        ))
                    }
                };
            }
            if let Some((turn, span)) = f.string("turn")? {
                rules.sides[side].turn = match turn {
                    "one" => Turn::OnePiece,
                    "all" => Turn::AllPieces,
                    other => {
                        return Err(self.err(
                            span,
                            format!(
                                "`turn` is {}: it must be \"one\" (one piece moves) or \"all\" (every piece moves)",
                                short(other)
                            ),
                        ))
                    }
                };
            }
            f.finish()?;
        }
        sides.finish()
    }

    fn read_board(&self, mut board: Fields<'s, 'a>, rules: &mut Rules) -> Result<(), RulesError> {
        board.name = "[board]".into();
        for (key, slot) in [("rows", 0), ("cols", 1)] {
            if let Some(item) = board.get(key) {
                let n = as_int(self.source, item, &format!("`{key}` in [board]"), 1..MAX_SIDE + 1)? as u32;
                if slot == 0 {
                    rules.board.rows = Some(n);
                } else {
                    rules.board.cols = Some(n);
                }
            }
        }
        rules.board.map = board.boolean("map", false)?;
        if let Some((cells, span)) = board.string("cells")? {
            rules.board.cells = match cells {
                "all" => CellColour::All,
                "dark" => CellColour::Dark,
                "light" => CellColour::Light,
                other => {
                    return Err(self
                        .err(span, format!("`cells` is {}: it must be \"all\", \"dark\" or \"light\"", short(other))))
                }
            };
        }
        if !rules.board.map && (rules.board.rows.is_none() || rules.board.cols.is_none()) {
            return Err(self.err(
                board.span.clone(),
                "[board] needs `rows` and `cols` (the default size), or `map = true` (the map comes with each position)",
            ));
        }
        board.finish()
    }

    /// Reads the pieces; names of zones (defined later in the file) and of pieces
    /// (perhaps later in the table) are left in `pending_zones` as (kind, what,
    /// name, span) for [`Self::resolve_names`].
    fn read_pieces(
        &self,
        mut pieces: Fields<'s, 'a>,
        rules: &mut Rules,
        pending_zones: &mut Vec<PendingName>,
    ) -> Result<(), RulesError> {
        let mut letters_seen: Vec<char> = Vec::new();
        for (name, span, item) in pieces.entries() {
            check_name(self.source, name, span.clone(), "a piece's name")?;
            if rules.kinds.len() == MAX_KINDS {
                return Err(self.err(span, format!("more than {MAX_KINDS} piece kinds")));
            }
            let kind = self.read_piece(name, item, rules, &mut letters_seen, pending_zones)?;
            rules.kinds.push(kind);
        }
        if rules.kinds.is_empty() {
            return Err(self.err(pieces.span.clone(), "[piece] defines no piece"));
        }
        for side in 0..2 {
            if !rules.kinds.iter().any(|k| k.letters[side].is_some()) {
                return Err(self.err(
                    pieces.span.clone(),
                    format!("the side `{}` has no piece: give some piece a letter for it", rules.sides[side].name),
                ));
            }
        }
        pieces.finish()
    }

    /// One piece's table, `[piece.NAME]`: its letters, moves and other rules, its
    /// keys read in the file's order of checks; the names it gives are left in
    /// `pending_zones`, and its promotion's names are filled in later.
    fn read_piece(
        &self,
        name: &str,
        item: &'s Item<'a>,
        rules: &Rules,
        letters_seen: &mut Vec<char>,
        pending_zones: &mut Vec<PendingName>,
    ) -> Result<KindRules, RulesError> {
        let table_name = format!("[piece.{}]", short(name));
        let mut f = as_table(self.source, item, &table_name)?;
        let letters = self.read_letters(&mut f, rules, &table_name, letters_seen)?;
        let stay = f.boolean("stay", false)?;
        let trail = f.boolean("trail", false)?;
        let kind = rules.kinds.len();
        let drop = match f.get("drop") {
            None => None,
            Some(item) => self.read_drop(item, &table_name, kind, pending_zones)?,
        };
        if let Some(item) = f.get("to-hand") {
            match item.get_ref().as_bool() {
                Some(true) => pending_zones.push((kind, Pending::ToHand, name.to_string(), item.span())),
                Some(false) => {}
                None => {
                    let other = as_str(self.source, item, "`to-hand` (true, or a piece's name)")?;
                    pending_zones.push((kind, Pending::ToHand, other.to_string(), item.span()));
                }
            }
        }
        let promote_forced = match f.get("promote") {
            None => None,
            Some(item) => Some(self.read_promote(item, &table_name, kind, pending_zones)?),
        };
        let mut moves = Vec::new();
        if let Some(item) = f.get("moves") {
            for m in as_array(self.source, item, &format!("`moves` of {table_name}"))? {
                moves.push(self.read_move(m, &table_name)?);
            }
        }
        // Unknown keys first: a misspelt `moves` is named as such, not as no move.
        let span = f.span.clone();
        f.finish()?;
        if moves.is_empty() && !stay && drop.is_none() {
            return Err(self.err(
                span,
                format!("{table_name} has no move: give it `moves = [...]`, `drop = true` (it is placed on the board), or `stay = true` for a piece that never moves"),
            ));
        }
        let all_at_once = (0..2).any(|side| letters[side].is_some() && rules.sides[side].turn == Turn::AllPieces);
        if all_at_once && (drop.is_some() || promote_forced.is_some()) {
            return Err(self.err(
                span,
                format!("{table_name} is dropped or promotes, but its side moves every piece at once: drops and promotions are for sides that move one piece a turn"),
            ));
        }
        if trail && drop.is_some() {
            return Err(self.err(
                span,
                format!("{table_name} leaves trails and is dropped: trails are for pieces that move on the board"),
            ));
        }
        let promote = promote_forced.map(|forced| Promotion { to: usize::MAX, zone: usize::MAX, forced });
        Ok(KindRules { name: name.to_string(), letters, moves, stay, trail, drop, to_hand: None, promote })
    }

    /// A piece's letters by side: `side` with one `letter`, or a `letter` table by
    /// side. A letter already in `letters_seen` names two pieces; the new ones join it.
    fn read_letters(
        &self,
        f: &mut Fields<'s, 'a>,
        rules: &Rules,
        table_name: &str,
        letters_seen: &mut Vec<char>,
    ) -> Result<[Option<char>; 2], RulesError> {
        let mut letters = [None, None];
        let side = f.string("side")?;
        let letter_item = f.require("letter")?;
        match (side, letter_item.get_ref().as_str()) {
            (Some((side, side_span)), Some(letter)) => {
                let s = self.side(rules, side, side_span)?;
                letters[s] = Some(single_letter(self.source, letter, letter_item.span(), "a piece's letter")?);
            }
            (None, Some(_)) => {
                return Err(self.err(
                    letter_item.span(),
                    format!("{table_name} has one letter but no `side`: add `side = \"...\"`, or give a letter per side (`letter = {{ {} = \"X\", {} = \"x\" }}`)", rules.sides[0].name, rules.sides[1].name),
                ))
            }
            (Some((_, span)), None) => {
                return Err(self.err(span, format!("{table_name} has `side` and letters per side: keep one")))
            }
            (None, None) => {
                let mut per_side = as_table(self.source, letter_item, &format!("`letter` of {table_name}"))?;
                for (side_name, side_span, l) in per_side.entries() {
                    let s = self.side(rules, side_name, side_span)?;
                    let text = as_str(self.source, l, "a piece's letter")?;
                    letters[s] = Some(single_letter(self.source, text, l.span(), "a piece's letter")?);
                }
                per_side.finish()?;
                if letters.iter().all(Option::is_none) {
                    return Err(self.err(letter_item.span(), format!("{table_name} gives no letter")));
                }
            }
        }
        for l in letters.into_iter().flatten() {
            if letters_seen.contains(&l) {
                return Err(self.err(letter_item.span(), format!("the letter `{l}` names two pieces")));
            }
            letters_seen.push(l);
        }
        Ok(letters)
    }

    /// A piece's `promote` table: the piece it becomes and the zone where (both
    /// left in `pending_zones`), and whether it must (`forced`, true unless said).
    fn read_promote(
        &self,
        item: &'s Item<'a>,
        table_name: &str,
        kind: usize,
        pending_zones: &mut Vec<PendingName>,
    ) -> Result<bool, RulesError> {
        let mut p = as_table(self.source, item, &format!("`promote` of {table_name}"))?;
        let (to, to_span) = p
            .string("to")?
            .ok_or_else(|| self.err(item.span(), "`promote` needs `to` (the piece it becomes) and `zone`"))?;
        pending_zones.push((kind, Pending::PromoteTo, to.to_string(), to_span));
        let (zone, zone_span) = p
            .string("zone")?
            .ok_or_else(|| self.err(item.span(), "`promote` needs `zone` (where it becomes the other piece)"))?;
        pending_zones.push((kind, Pending::PromoteZone, zone.to_string(), zone_span));
        let forced = p.boolean("forced", true)?;
        p.finish()?;
        Ok(forced)
    }

    /// `drop = true`, or a table: `zone` (a zone's name), `gravity` (a boolean),
    /// `supply` (`"unlimited"` or `"hand"`).
    fn read_drop(
        &self,
        item: &'s Item<'a>,
        piece: &str,
        kind: usize,
        pending_zones: &mut Vec<PendingName>,
    ) -> Result<Option<DropRule>, RulesError> {
        if let Some(on) = item.get_ref().as_bool() {
            return Ok(on.then_some(DropRule { from_hand: false, zone: None, gravity: false, flips: None }));
        }
        let mut f = as_table(self.source, item, &format!("`drop` of {piece} (true, or a table)"))?;
        if let Some((zone, span)) = f.string("zone")? {
            pending_zones.push((kind, Pending::DropZone, zone.to_string(), span));
        }
        let gravity = f.boolean("gravity", false)?;
        let from_hand = match f.string("supply")? {
            None | Some(("unlimited", _)) => false,
            Some(("hand", _)) => true,
            Some((other, span)) => {
                return Err(
                    self.err(span, format!("`supply` is {}: it must be \"unlimited\" or \"hand\"", short(other)))
                )
            }
        };
        let flips = self.read_flips(&mut f, piece)?;
        f.finish()?;
        Ok(Some(DropRule { from_hand, zone: None, gravity, flips }))
    }

    /// A drop's `flips` (`"all"`, `"orthogonal"` or `"diagonal"`: the directions
    /// along which it turns the enemy runs it brackets) and `must-flip`.
    fn read_flips(&self, f: &mut Fields<'_, '_>, piece: &str) -> Result<Option<Flips>, RulesError> {
        let directions = match f.string("flips")? {
            None => None,
            Some(("all", _)) => Some((true, true)),
            Some(("orthogonal", _)) => Some((true, false)),
            Some(("diagonal", _)) => Some((false, true)),
            Some((other, span)) => {
                return Err(self.err(
                    span,
                    format!("`flips` is {}: it must be \"all\", \"orthogonal\" or \"diagonal\"", short(other)),
                ))
            }
        };
        let must_flip_span = f.get("must-flip").map(|item| item.span());
        let must_flip = f.boolean("must-flip", false)?;
        match (directions, must_flip_span) {
            (Some((orthogonal, diagonal)), _) => Ok(Some(Flips { orthogonal, diagonal, must_flip })),
            (None, Some(span)) => {
                Err(self.err(span, format!("`must-flip` in the drop of {piece}, but the drop has no `flips`")))
            }
            (None, None) => Ok(None),
        }
    }

    /// `[score]`: `count` (`"pieces"`) and `empty-to-winner` (a boolean).
    fn read_score(&self, mut f: Fields<'_, '_>) -> Result<ScoreRules, RulesError> {
        f.name = "[score]".into();
        let count = match f.string("count")? {
            None | Some(("pieces", _)) => ScoreCount::Pieces,
            Some((other, span)) => {
                return Err(self.err(
                    span,
                    format!("`count` is {}: a side's score counts its \"pieces\" on the board", short(other)),
                ))
            }
        };
        let empty_to_winner = f.boolean("empty-to-winner", false)?;
        f.finish()?;
        Ok(ScoreRules { count, empty_to_winner })
    }

    /// The rules of scores, passes and flips that contradict one another: a game
    /// with a score ends only by the score, a score ending needs `[score]`, a
    /// side that passes is never stuck, and play that passes needs a way to end.
    fn check_score_rules(&self, rules: &Rules, ends: Range<usize>, game: Range<usize>) -> Result<(), RulesError> {
        for (i, ending) in rules.endings.iter().enumerate() {
            let scored = matches!(ending, Ending::Scored { .. });
            if rules.score.is_some() && !scored {
                return Err(self.err(
                    ends.clone(),
                    format!(
                        "[[end]] number {}: in a game with a [score] every ending's result is \"score\" (play ends when the board is `full` or there are `no-moves`)",
                        i + 1
                    ),
                ));
            }
            if rules.score.is_none() && scored {
                return Err(self.err(
                    ends.clone(),
                    format!(
                        "[[end]] number {}: `result = \"score\"` needs a [score] table saying what is counted",
                        i + 1
                    ),
                ));
            }
            let no_moves = matches!(ending, Ending::NoMoves { .. } | Ending::Scored { when: ScoredEnd::NoMoves });
            if no_moves && !rules.pass {
                return Err(self.err(
                    ends.clone(),
                    format!(
                        "[[end]] number {}: `no-moves` needs `pass = true` in [game] (without passes, a side with no move is `stuck`)",
                        i + 1
                    ),
                ));
            }
            if rules.pass && matches!(ending, Ending::Stuck { .. }) {
                return Err(self.err(
                    ends.clone(),
                    format!(
                        "[[end]] number {}: a side with no move passes (`pass = true`), so it is never `stuck`",
                        i + 1
                    ),
                ));
            }
        }
        let ends_without_moves = rules
            .endings
            .iter()
            .any(|e| matches!(e, Ending::NoMoves { .. } | Ending::Scored { when: ScoredEnd::NoMoves }));
        if rules.pass && !ends_without_moves {
            return Err(self.err(
                game,
                "`pass = true`, but no [[end]] says what happens when neither side can move (`when = \"no-moves\"`)",
            ));
        }
        if let Some(kind) = rules
            .kinds
            .iter()
            .find(|k| k.drop.as_ref().is_some_and(|d| d.flips.is_some()) && k.letters.iter().any(Option::is_none))
        {
            return Err(self.err(
                0..0,
                format!(
                    "[piece.{}] flips, and a flipped piece becomes the other side's: give it a letter for each side",
                    kind.name
                ),
            ));
        }
        if rules.score.is_some() && rules.has_trails() {
            return Err(self.err(0..0, "a game with a [score] cannot have trails yet"));
        }
        Ok(())
    }

    /// Resolves the names [`Self::read_pieces`] left: zones of drops and
    /// promotions, the kinds pieces promote to and go to a hand as.
    fn resolve_names(&self, rules: &mut Rules, pending: Vec<PendingName>) -> Result<(), RulesError> {
        for (kind, what, name, span) in pending {
            let zone = rules.zones.iter().position(|z| z.name == name);
            let piece = rules.kind_named(&name);
            let no_zone = || {
                self.err(
                    span.clone(),
                    format!("no zone is named `{}`: define it in [zone.{}]", short(&name), short(&name)),
                )
            };
            let no_piece = || {
                self.err(
                    span.clone(),
                    format!(
                        "no piece is named `{}`: the pieces are {}",
                        short(&name),
                        rules.kinds.iter().map(|k| format!("`{}`", k.name)).collect::<Vec<_>>().join(", ")
                    ),
                )
            };
            match what {
                Pending::DropZone => {
                    let z = zone.ok_or_else(no_zone)?;
                    if let Some(drop) = &mut rules.kinds[kind].drop {
                        drop.zone = Some(z);
                    }
                }
                Pending::PromoteZone => {
                    let z = zone.ok_or_else(no_zone)?;
                    if let Some(p) = &mut rules.kinds[kind].promote {
                        p.zone = z;
                    }
                }
                Pending::PromoteTo => {
                    let to = piece.ok_or_else(no_piece)?;
                    let letters_missing = rules.kinds[kind]
                        .letters
                        .iter()
                        .zip(&rules.kinds[to].letters)
                        .any(|(k, t)| k.is_some() && t.is_none());
                    if to == kind || letters_missing {
                        return Err(self.err(
                            span,
                            format!(
                                "`{}` cannot promote to `{}`: it must be another piece, with a letter for each side the first has",
                                rules.kinds[kind].name,
                                short(&name)
                            ),
                        ));
                    }
                    if let Some(p) = &mut rules.kinds[kind].promote {
                        p.to = to;
                    }
                }
                Pending::ToHand => {
                    let to = piece.ok_or_else(no_piece)?;
                    let target = &rules.kinds[to];
                    let droppable = target.drop.as_ref().is_some_and(|d| d.from_hand);
                    if !droppable || target.letters.iter().any(Option::is_none) {
                        return Err(self.err(
                            span,
                            format!(
                                "a captured `{}` goes to the captor's hand as `{}`, which must be dropped from a hand (`drop = {{ supply = \"hand\" }}`) and have a letter for each side",
                                rules.kinds[kind].name, target.name
                            ),
                        ));
                    }
                    rules.kinds[kind].to_hand = Some(to);
                }
            }
        }
        Ok(())
    }

    fn read_move(&self, item: &'s Item<'a>, piece: &str) -> Result<MoveRule, RulesError> {
        let mut f = as_table(self.source, item, &format!("a move of {piece}"))?;
        let steps = f.require("steps")?;
        let vectors = self.read_steps(steps)?;
        let range = match f.get("range") {
            None => Some(1),
            Some(r) if r.get_ref().as_str() == Some("slide") => None,
            Some(r) if r.get_ref().is_str() => {
                return Err(self.err(r.span(), "`range` must be a number of steps or \"slide\""));
            }
            Some(r) => Some(as_int(self.source, r, "`range`", 1..MAX_SIDE + 1)? as u32),
        };
        let onto = match f.string("onto")? {
            None | Some(("any", _)) => Onto::Any,
            Some(("empty", _)) => Onto::Empty,
            Some(("enemy", _)) => Onto::Enemy,
            Some((other, span)) => {
                return Err(
                    self.err(span, format!("`onto` is {}: it must be \"empty\", \"enemy\" or \"any\"", short(other)))
                )
            }
        };
        let leap = f.boolean("leap", false)?;
        f.finish()?;
        Ok(MoveRule { vectors, range, onto, leap })
    }

    /// Step vectors: a named set, a list of names, or a list of `[forward, right]`.
    fn read_steps(&self, item: &Item<'_>) -> Result<Vec<(i32, i32)>, RulesError> {
        let out: std::cell::RefCell<Vec<(i32, i32)>> = std::cell::RefCell::new(Vec::new());
        let add_pair = |v: (i32, i32)| out.borrow_mut().push(v);
        let add_name = |name: &str, span: Range<usize>| -> Result<(), RulesError> {
            let set: &[(i32, i32)] = match name {
                "forward" => &[(1, 0)],
                "backward" => &[(-1, 0)],
                "sideways" => &[(0, 1), (0, -1)],
                "orthogonal" => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
                "forward-diagonal" => &[(1, 1), (1, -1)],
                "backward-diagonal" => &[(-1, 1), (-1, -1)],
                "diagonal" => &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
                "king" => &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
                "knight" => &[(2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2)],
                other => {
                    return Err(self.err(
                        span,
                        format!("unknown steps {}: the named sets are forward, backward, sideways, orthogonal, forward-diagonal, backward-diagonal, diagonal, king, knight; or give [forward, right] pairs", short(other)),
                    ))
                }
            };
            out.borrow_mut().extend_from_slice(set);
            Ok(())
        };
        match item.get_ref().as_str() {
            Some(name) => add_name(name, item.span())?,
            None => {
                let list = as_array(self.source, item, "`steps`")?;
                for entry in list {
                    match entry.get_ref().as_str() {
                        Some(name) => add_name(name, entry.span())?,
                        None => {
                            let pair = as_array(self.source, entry, "a step")?;
                            if pair.len() != 2 {
                                return Err(self.err(entry.span(), "a step is [forward, right]: two numbers"));
                            }
                            let f =
                                as_int(self.source, &pair[0], "a step's forward part", -MAX_SIDE..MAX_SIDE + 1)? as i32;
                            let r =
                                as_int(self.source, &pair[1], "a step's right part", -MAX_SIDE..MAX_SIDE + 1)? as i32;
                            if (f, r) == (0, 0) {
                                return Err(self.err(
                                    entry.span(),
                                    "the step [0, 0] goes nowhere: use `stay = true` on the piece",
                                ));
                            }
                            add_pair((f, r));
                        }
                    }
                }
            }
        }
        let mut out = out.into_inner();
        if out.is_empty() {
            return Err(self.err(item.span(), "`steps` is empty"));
        }
        let mut seen = Vec::new();
        out.retain(|v| {
            let new = !seen.contains(v);
            seen.push(*v);
            new
        });
        Ok(out)
    }

    fn read_cell_set(&self, item: &Item<'_>, what: &str) -> Result<CellSet, RulesError> {
        let mut set = CellSet::default();
        let mut f = as_table(self.source, item, what)?;
        let line = |f: &mut Fields<'_, '_>, key: &'static str| -> Result<Vec<i32>, RulesError> {
            let mut out = Vec::new();
            if let Some(list) = f.get(key) {
                for n in as_array(self.source, list, &format!("`{key}`"))? {
                    let v = as_int(self.source, n, &format!("a number in `{key}`"), -MAX_SIDE..MAX_SIDE + 1)?;
                    if v == 0 {
                        return Err(
                            self.err(n.span(), "rows and columns count from 1 (or from -1 at the far end), not 0")
                        );
                    }
                    out.push(v as i32);
                }
            }
            Ok(out)
        };
        set.rows = line(&mut f, "rows")?;
        set.cols = line(&mut f, "cols")?;
        if let Some(list) = f.get("cells") {
            for cell in as_array(self.source, list, "`cells`")? {
                let pair = as_array(self.source, cell, "a cell")?;
                if pair.len() != 2 {
                    return Err(self.err(cell.span(), "a cell is [row, column]"));
                }
                let r = as_int(self.source, &pair[0], "a row", -MAX_SIDE..MAX_SIDE + 1)? as i32;
                let c = as_int(self.source, &pair[1], "a column", -MAX_SIDE..MAX_SIDE + 1)? as i32;
                if r == 0 || c == 0 {
                    return Err(
                        self.err(cell.span(), "rows and columns count from 1 (or from -1 at the far end), not 0")
                    );
                }
                set.cells.push((r, c));
            }
        }
        if let Some(list) = f.get("centre") {
            for cell in as_array(self.source, list, "`centre`")? {
                let pair = as_array(self.source, cell, "a cell from the centre")?;
                if pair.len() != 2 {
                    return Err(self.err(cell.span(), "a cell from the centre is [rows down, columns right]"));
                }
                let r = as_int(self.source, &pair[0], "rows down", -MAX_SIDE..MAX_SIDE + 1)? as i32;
                let c = as_int(self.source, &pair[1], "columns right", -MAX_SIDE..MAX_SIDE + 1)? as i32;
                set.centre.push((r, c));
            }
        }
        if let Some((mark, span)) = f.string("mark")? {
            set.marks.push(single_letter(self.source, mark, span, "a mark")?);
        }
        set.far_row = f.boolean("far-row", false)?;
        set.home_row = f.boolean("home-row", false)?;
        let span = f.span.clone();
        f.finish()?;
        if set == CellSet::default() {
            return Err(self.err(
                span,
                format!("{what} names no cell: give rows, cols, cells, centre, mark, far-row or home-row"),
            ));
        }
        Ok(set)
    }

    fn read_zones(&self, mut zones: Fields<'s, 'a>, rules: &mut Rules) -> Result<(), RulesError> {
        for (name, span, item) in zones.entries() {
            check_name(self.source, name, span.clone(), "a zone's name")?;
            let what = format!("[zone.{}]", short(name));
            // Per side when every key is a side's name.
            let per_side = item
                .get_ref()
                .as_table()
                .is_some_and(|t| !t.is_empty() && t.iter().all(|(k, _)| rules.side_named(k.get_ref()).is_some()));
            let cells = if per_side {
                let mut f = as_table(self.source, item, &what)?;
                let mut cells = [CellSet::default(), CellSet::default()];
                for (side_name, side_span, set) in f.entries() {
                    let s = self.side(rules, side_name, side_span)?;
                    cells[s] = self.read_cell_set(set, &format!("[zone.{}.{}]", short(name), side_name))?;
                }
                f.finish()?;
                cells
            } else {
                let set = self.read_cell_set(item, &what)?;
                [set.clone(), set]
            };
            for mark in cells.iter().flat_map(|c| &c.marks) {
                if let Some((side, kind)) = rules.piece_with_letter(*mark) {
                    return Err(self.err(
                        item.span(),
                        format!(
                            "the mark `{mark}` is also the letter of the {} {}: marks and pieces need different letters",
                            rules.sides[side].name, rules.kinds[kind].name
                        ),
                    ));
                }
            }
            rules.zones.push(ZoneRules { name: name.to_string(), cells });
        }
        zones.finish()
    }

    fn kinds_list(&self, rules: &Rules, item: &Item<'_>) -> Result<Vec<usize>, RulesError> {
        let mut out = Vec::new();
        let list: Vec<&Item<'_>> = match item.get_ref().as_str() {
            Some(_) => vec![item],
            None => as_array(self.source, item, "`pieces`")?.iter().collect(),
        };
        for entry in list {
            let name = as_str(self.source, entry, "a piece's name")?;
            let k = rules.kind_named(name).ok_or_else(|| {
                self.err(
                    entry.span(),
                    format!(
                        "no piece is named `{}`: the pieces are {}",
                        short(name),
                        rules.kinds.iter().map(|k| format!("`{}`", k.name)).collect::<Vec<_>>().join(", ")
                    ),
                )
            })?;
            out.push(k);
        }
        Ok(out)
    }

    /// A `result` that may also be `"score"` (`None`).
    fn result_or_score(&self, f: &mut Fields<'_, '_>, default: Outcome) -> Result<Option<Outcome>, RulesError> {
        if let Some(item) = f.get("result") {
            if item.get_ref().as_str() == Some("score") {
                return Ok(None);
            }
        }
        self.result(f, default).map(Some)
    }

    fn result(&self, f: &mut Fields<'_, '_>, default: Outcome) -> Result<Outcome, RulesError> {
        match f.string("result")? {
            None => Ok(default),
            Some(("win", _)) => Ok(Outcome::Win),
            Some(("loss", _)) => Ok(Outcome::Loss),
            Some(("tie", _)) => Ok(Outcome::Tie),
            Some((other, span)) => {
                Err(self.err(span, format!("`result` is {}: it must be \"win\", \"loss\" or \"tie\"", short(other))))
            }
        }
    }

    fn sides_of(&self, f: &mut Fields<'_, '_>, rules: &Rules) -> Result<[bool; 2], RulesError> {
        match f.string("side")? {
            None => Ok([true, true]),
            Some((name, span)) => {
                let s = self.side(rules, name, span)?;
                Ok([s == 0, s == 1])
            }
        }
    }

    fn read_endings(&self, item: &'s Item<'a>, rules: &mut Rules) -> Result<(), RulesError> {
        let list = as_array(self.source, item, "`end`")?;
        for (i, entry) in list.iter().enumerate() {
            let name = format!("[[end]] number {}", i + 1);
            let mut f = as_table(self.source, entry, &name)?;
            let (when, when_span) = f.string("when")?.ok_or_else(|| {
                self.err(
                    entry.span(),
                    format!(
                        "{name} lacks `when` (\"reach\", \"meet\", \"line\", \"captured\", \"no-pieces\", \"full\", \"stuck\" or \"no-moves\")"
                    ),
                )
            })?;
            let ending = match when {
                "reach" => self.read_reach(&mut f, entry, &name, rules)?,
                "meet" => self.read_meet(&mut f, entry, &name, rules)?,
                "line" => self.read_line_ending(&mut f, rules)?,
                "captured" => {
                    let p = f.require("pieces")?;
                    let kinds = self.kinds_list(rules, p)?;
                    Ending::Captured { kinds, result: self.result(&mut f, Outcome::Loss)? }
                }
                "full" => {
                    if rules.endings.iter().any(|e| matches!(e, Ending::Full { .. } | Ending::Scored { when: ScoredEnd::Full })) {
                        return Err(self.err(when_span, "two `full` endings: the endings contradict"));
                    }
                    match self.result_or_score(&mut f, Outcome::Tie)? {
                        Some(result) => Ending::Full { result },
                        None => Ending::Scored { when: ScoredEnd::Full },
                    }
                }
                "no-moves" => {
                    if rules.endings.iter().any(|e| matches!(e, Ending::NoMoves { .. } | Ending::Scored { when: ScoredEnd::NoMoves })) {
                        return Err(self.err(when_span, "two `no-moves` endings: the endings contradict"));
                    }
                    match self.result_or_score(&mut f, Outcome::Tie)? {
                        Some(result) => Ending::NoMoves { result },
                        None => Ending::Scored { when: ScoredEnd::NoMoves },
                    }
                }
                "no-pieces" => {
                    let sides = self.sides_of(&mut f, rules)?;
                    Ending::NoPieces { sides, result: self.result(&mut f, Outcome::Loss)? }
                }
                "stuck" => {
                    if rules.endings.iter().any(|e| matches!(e, Ending::Stuck { .. })) {
                        return Err(self.err(when_span, "two `stuck` endings: the endings contradict"));
                    }
                    Ending::Stuck { result: self.result(&mut f, Outcome::Loss)? }
                }
                other => {
                    return Err(self.err(
                        when_span,
                        format!(
                        "`when` is {}: it must be \"reach\", \"meet\", \"line\", \"captured\", \"no-pieces\", \"full\", \"stuck\" or \"no-moves\"",
                        short(other)
                    ),
                    ))
                }
            };
            f.finish()?;
            rules.endings.push(ending);
        }
        self.check_endings(rules, item.span())
    }

    /// A `reach` ending, `[[end]]` table `name` at `entry`: its zone (defined by
    /// now), the pieces and sides it counts, when it is checked, and its result
    /// (a win unless said).
    fn read_reach(
        &self,
        f: &mut Fields<'s, 'a>,
        entry: &'s Item<'a>,
        name: &str,
        rules: &Rules,
    ) -> Result<Ending, RulesError> {
        let (zone, zone_span) =
            f.string("zone")?.ok_or_else(|| self.err(entry.span(), format!("{name} lacks `zone`")))?;
        let zone = rules.zones.iter().position(|z| z.name == zone).ok_or_else(|| {
            self.err(zone_span, format!("no zone is named `{}`: define it in [zone.{}]", short(zone), short(zone)))
        })?;
        let kinds = match f.get("pieces") {
            None => None,
            Some(p) => Some(self.kinds_list(rules, p)?),
        };
        let sides = self.sides_of(f, rules)?;
        let check = match f.string("check")? {
            None | Some(("after-move", _)) => Check::AfterMove,
            Some(("after-reply", _)) => Check::AfterReply,
            Some((other, span)) => {
                return Err(self
                    .err(span, format!("`check` is {}: it must be \"after-move\" or \"after-reply\"", short(other))))
            }
        };
        let result = self.result(f, Outcome::Win)?;
        Ok(Ending::Reach { zone, kinds, sides, check, result })
    }

    /// A `meet` ending, `[[end]]` table `name` at `entry`: two pieces of different
    /// sides, not met by an earlier ending, and who wins when they meet (a side, or
    /// a tie).
    fn read_meet(
        &self,
        f: &mut Fields<'s, 'a>,
        entry: &'s Item<'a>,
        name: &str,
        rules: &Rules,
    ) -> Result<Ending, RulesError> {
        let p = f.require("pieces")?;
        let kinds = self.kinds_list(rules, p)?;
        if kinds.len() != 2 {
            return Err(self.err(p.span(), "a meeting names two pieces, e.g. `pieces = [\"queen\", \"army\"]`"));
        }
        let can_meet = (0..2)
            .any(|s| rules.kinds[kinds[0]].letters[s].is_some() && rules.kinds[kinds[1]].letters[1 - s].is_some());
        if !can_meet {
            return Err(self.err(p.span(), "these pieces never belong to different sides: they cannot meet"));
        }
        let winner = match (f.string("winner")?, f.string("result")?) {
            (Some((w, span)), None) => Some(self.side(rules, w, span)?),
            (None, Some(("tie", _))) => None,
            (None, Some((_, span))) => {
                return Err(self.err(span, "a meeting has a `winner` (a side), or `result = \"tie\"`"))
            }
            (Some((_, span)), Some(_)) => return Err(self.err(span, "give `winner` or `result`, not both")),
            (None, None) => return Err(self.err(entry.span(), format!("{name} lacks `winner`"))),
        };
        if rules.meeting(kinds[0], kinds[1]).is_some() {
            return Err(self.err(p.span(), "these two pieces already have a meeting ending: the endings contradict"));
        }
        Ok(Ending::Meet { kinds: [kinds[0], kinds[1]], winner })
    }

    /// A `line` ending: its length, the directions it runs in, the pieces and sides
    /// it counts, and its result (a win unless said).
    fn read_line_ending(&self, f: &mut Fields<'s, 'a>, rules: &Rules) -> Result<Ending, RulesError> {
        let length_item = f.require("length")?;
        let length = as_int(self.source, length_item, "`length`", 2..MAX_SIDE + 1)? as u32;
        let (orthogonal, diagonal) = match f.string("directions")? {
            None | Some(("all", _)) => (true, true),
            Some(("orthogonal", _)) => (true, false),
            Some(("diagonal", _)) => (false, true),
            Some((other, span)) => {
                return Err(self.err(
                    span,
                    format!("`directions` is {}: it must be \"all\", \"orthogonal\" or \"diagonal\"", short(other)),
                ))
            }
        };
        let kinds = match f.get("pieces") {
            None => None,
            Some(p) => Some(self.kinds_list(rules, p)?),
        };
        let sides = self.sides_of(f, rules)?;
        Ok(Ending::Line { length, orthogonal, diagonal, kinds, sides, result: self.result(f, Outcome::Win)? })
    }

    /// Endings that contradict each other or name what cannot happen.
    fn check_endings(&self, rules: &Rules, span: Range<usize>) -> Result<(), RulesError> {
        type Seen<'r> = (usize, Option<&'r Vec<usize>>, [bool; 2], Check, Outcome);
        let mut reaches: Vec<Seen<'_>> = Vec::new();
        for e in &rules.endings {
            if let Ending::Reach { zone, kinds, sides, check, result } = e {
                for &(z, k, s, c, r) in &reaches {
                    if z == *zone
                        && k == kinds.as_ref()
                        && (s[0] && sides[0] || s[1] && sides[1])
                        && (c, r) != (*check, *result)
                    {
                        return Err(self.err(
                            span.clone(),
                            format!(
                                "two `reach` endings for the zone `{}` give different results: the endings contradict",
                                rules.zones[z].name
                            ),
                        ));
                    }
                }
                reaches.push((*zone, kinds.as_ref(), *sides, *check, *result));
            }
        }
        let trails = rules.has_trails();
        if trails && rules.endings.iter().any(|e| matches!(e, Ending::Stuck { result: Outcome::Tie })) {
            // Search has no ties: say so now rather than at solving time.
            return Err(self.err(span, "a game with trails is solved by search, which cannot end in a tie here"));
        }
        Ok(())
    }

    fn read_start(&self, item: &Item<'_>, rules: &Rules) -> Result<Start, RulesError> {
        if let Some(text) = item.get_ref().as_str() {
            return Ok(Start::Text(text.to_string()));
        }
        let mut f = as_table(self.source, item, "[start]")?;
        let (side, side_span) =
            f.string("to-move")?.ok_or_else(|| self.err(item.span(), "[start] lacks `to-move` (a side's name)"))?;
        let to_move = self.side(rules, side, side_span)?;
        let mut pieces = Vec::new();
        if let Some(mut place) = f.table("place")? {
            for (letter, span, set) in place.entries() {
                let l = single_letter(self.source, letter, span.clone(), "a piece's letter")?;
                let (s, k) = rules
                    .piece_with_letter(l)
                    .ok_or_else(|| self.err(span, format!("no piece has the letter `{l}`")))?;
                pieces.push((s, k, self.read_cell_set(set, &format!("[start.place] `{l}`"))?));
            }
            place.finish()?;
        }
        let hand = match f.string("hand")? {
            Some((hand, span)) => {
                if !rules.has_hands() {
                    return Err(self.err(span, "a hand in [start], but no piece is dropped from a hand"));
                }
                hand.to_string()
            }
            None => String::new(),
        };
        f.finish()?;
        Ok(Start::Place { to_move, pieces, hand })
    }
}

/// Names are short words of letters, digits, `-` and `_`.
fn check_name(source: &Source<'_>, name: &str, span: Range<usize>, what: &str) -> Result<(), RulesError> {
    let ok =
        !name.is_empty() && name.len() <= 32 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(source.error(
            span,
            format!("{what} {}: use 1 to 32 letters, digits, `-` or `_`", gsolve_games::text::excerpt(name)),
        ))
    }
}

/// A letter: one visible ASCII character that is not reserved by the notation.
fn single_letter(source: &Source<'_>, text: &str, span: Range<usize>, what: &str) -> Result<char, RulesError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_graphic() && !RESERVED.contains(&c) => Ok(c),
        _ => Err(source.error(
            span,
            format!(
                "{what} must be one visible ASCII character other than {}, not {}",
                RESERVED.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" "),
                gsolve_games::text::excerpt(text)
            ),
        )),
    }
}
