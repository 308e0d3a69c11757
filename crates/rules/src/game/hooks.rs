//! What a rules game tells the alpha-beta search (games with trails, and acyclic
//! games too big for an index): line games and step games by their own
//! searches on bit sets (modules `lines`, `bits`); for a trail race, the snakes'
//! knowledge (module `race`); for other games, captures first.

use super::fast_paths::{KnowledgePath, OutrightPath};
use super::rules_game::RulesGame;
use crate::compiled::position::RulesPosition;
use gsolve_engine::search::{SearchError, SearchHooks};
use gsolve_engine::{Observer, Value};

impl SearchHooks for RulesGame {
    /// Line games (Connect 4, tic-tac-toe, …) by their bit-set search; step
    /// games (Breakthrough, pawn chess, …) by the bit-set core (module `bits`).
    fn solve_outright(
        &self,
        p: &RulesPosition,
        budget: Option<u64>,
        observer: Option<Observer<'_>>,
    ) -> Option<Result<Value, SearchError>> {
        let answer = match &self.paths.outright {
            OutrightPath::Lines(lines) => lines.value(p, budget, observer)?,
            OutrightPath::Bits(bits) => bits.value(p, budget, observer)?,
            OutrightPath::Engine => return None,
        };
        Some(answer.ok_or(SearchError::OutOfBudget { limit: budget.unwrap_or(0) }))
    }

    /// Read from the rules where they allow it (module `knowledge`: no trails,
    /// no lines, one piece a turn).
    fn wins_at_once(&self, p: &RulesPosition) -> Option<bool> {
        match &self.paths.knowledge {
            KnowledgePath::ImmediateWins(knowledge) => knowledge.wins_at_once(self.tables(), p),
            KnowledgePath::Race(_) | KnowledgePath::Plain => None,
        }
    }

    fn exact_value(&self, p: &RulesPosition) -> Option<Value> {
        match &self.paths.knowledge {
            KnowledgePath::Race(race) => race.exact_value(self.tables(), p),
            KnowledgePath::ImmediateWins(_) | KnowledgePath::Plain => None,
        }
    }

    /// A race's key; else, in a game that looks the same in a mirror, the lesser
    /// of the position and its mirror image (a position and its image share one
    /// entry, so the search meets fewer positions).
    fn table_key(&self, p: &RulesPosition) -> (RulesPosition, bool) {
        if let KnowledgePath::Race(race) = &self.paths.knowledge {
            if let Some(key) = race.table_key(self.tables(), p) {
                return (key, true);
            }
        }
        match self.mirror() {
            Some(mirror) => {
                let image = mirror.apply(p);
                if image < *p {
                    (image, false)
                } else {
                    (*p, true)
                }
            }
            None => (*p, true),
        }
    }

    /// A race's territory; in games with drops, drops onto cells on many lines
    /// first; in other games, captures first (the pieces a move takes), then,
    /// where the rules' immediate wins are read (module `knowledge`), moves after
    /// which the mover has a piece that could end the game on arrival (a threat:
    /// the opponent must answer it). Captures first cut the search most, and
    /// threats next cut it further; ordering moves that go furthest forward next
    /// gained nothing more (docs/rules-solving.md, "Immediate wins in the search";
    /// the node counts in docs/performance.md).
    fn order_key(&self, parent: &RulesPosition, child: &RulesPosition) -> i32 {
        let knowledge = match &self.paths.knowledge {
            KnowledgePath::Race(race) => return race.order_key(self.tables(), child),
            KnowledgePath::ImmediateWins(knowledge) => Some(knowledge),
            KnowledgePath::Plain => None,
        };
        if child.piece_count() > parent.piece_count() {
            return self.tables().endings().drop_weight(parent, child);
        }
        let captures = parent.piece_count() as i32 - child.piece_count() as i32;
        let threatens = knowledge.is_some_and(|k| k.threatens(self.tables(), child, parent.to_move()));
        2 * captures + threatens as i32
    }

    /// Where every move drops a piece and only a full board ties, a tie comes
    /// when the board fills: its remoteness is the number of empty cells.
    fn tie_remoteness(&self, p: &RulesPosition) -> Option<u32> {
        let endings = self.tables().endings();
        (self.rules().only_drops() && !self.rules().has_captures() && endings.ties_only_when_full())
            .then(|| endings.empty_cells(p) as u32)
    }
}
