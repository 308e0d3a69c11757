//! A rules game as a tablebase's variant ([`Variant`]) and in plain notation.

use super::rules_game::RulesGame;
use super::text::{escape_text, unescape_text};
use crate::compiled::board::{Board, Map};
use crate::compiled::position::RulesPosition;
use crate::language::spec::Rules;
use gsolve_engine::Variant;
use gsolve_games::notation::PlainNotation;
use gsolve_games::FormatError;
use std::sync::Arc;

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
