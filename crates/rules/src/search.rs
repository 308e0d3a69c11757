//! What a rules game tells the alpha-beta search (games with trails, and acyclic
//! games too big for an index).

use crate::game::RulesGame;
use gsolve_engine::search::SearchHooks;

impl SearchHooks for RulesGame {}
