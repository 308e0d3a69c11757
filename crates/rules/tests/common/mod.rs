//! What the rules crate's test files share: the bundled rules files, and values of
//! solved rules games.
#![allow(dead_code)] // each test file uses a part

use gsolve_engine::{Game, Indexed, Solution, Value};
use gsolve_rules::{Rules, RulesGame, RulesPosition};
use std::sync::Arc;

/// A rules file of examples/rules/.
pub fn load(name: &str) -> Arc<Rules> {
    let path = format!("{}/../../examples/rules/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    Arc::new(Rules::parse(&std::fs::read_to_string(path).unwrap()).unwrap())
}

/// The value of a position of a solved rules game (terminal positions by the rules).
pub fn rules_value(game: &RulesGame, solution: &Solution, p: &RulesPosition) -> Value {
    match game.terminal(p) {
        Some(outcome) => outcome.value(),
        None => solution.value(game.index(p)).unwrap(),
    }
}
