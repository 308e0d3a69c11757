//! What a rules game tells the alpha-beta search (games with trails, and acyclic
//! games too big for an index): for a trail race, the snakes' knowledge (module
//! `race`); for other games, nothing beyond the rules.

use crate::game::RulesGame;
use crate::position::RulesPosition;
use gsolve_engine::search::SearchHooks;
use gsolve_engine::Value;

impl SearchHooks for RulesGame {
    fn exact_value(&self, p: &RulesPosition) -> Option<Value> {
        self.race.as_ref()?.exact_value(self, p)
    }

    fn table_key(&self, p: &RulesPosition) -> (RulesPosition, bool) {
        match self.race.as_ref().and_then(|race| race.table_key(self, p)) {
            Some(key) => (key, true),
            None => (*p, true),
        }
    }

    fn order_key(&self, _parent: &RulesPosition, child: &RulesPosition) -> i32 {
        self.race.as_ref().map_or(0, |race| race.order_key(self, child))
    }
}
