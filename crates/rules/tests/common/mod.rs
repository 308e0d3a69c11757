//! What the rules crate's test files share: the bundled rules files, and values of
//! solved rules games.
#![allow(dead_code)] // each test file uses a part

use gsolve_engine::{Indexed, Solution, Value};
use gsolve_rules::{Rules, RulesGame, RulesPosition};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;

/// A rules file of examples/rules/.
pub fn load(name: &str) -> Arc<Rules> {
    let path = format!("{}/../../examples/rules/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    Arc::new(Rules::parse(&std::fs::read_to_string(path).unwrap()).unwrap())
}

/// The value of a position of a solved rules game (terminal positions by the rules).
pub fn rules_value(game: &RulesGame, solution: &Solution, p: &RulesPosition) -> Value {
    match game.value_by_rules(p) {
        Some(value) => value,
        None => solution.value(game.index(p)).unwrap(),
    }
}

/// A game as the brute force sees it: the outcome for the side to move of a finished
/// position (`Some(true)` a win, `Some(false)` a loss), and the children.
pub trait Naive: Clone + Eq + Hash {
    /// The outcome of a finished position (`Some(true)`: the side to move has won).
    fn over(&self) -> Option<bool>;
    /// The positions after each move.
    fn children(&self) -> Vec<Self>;
}

/// Every position reachable from `roots`, valued by rounds: round r decides the
/// wins in r (a child lost in r − 1) and the losses in r (every child won, the
/// slowest in r − 1); what no round decides is a draw. A position with no move that
/// is not over is a loss in 0.
pub fn naive_values<S: Naive>(roots: &[S]) -> HashMap<S, Value> {
    let mut ids: HashMap<S, usize> = HashMap::new();
    let mut states: Vec<S> = Vec::new();
    let mut stack: Vec<S> = roots.to_vec();
    while let Some(s) = stack.pop() {
        if ids.contains_key(&s) {
            continue;
        }
        ids.insert(s.clone(), states.len());
        states.push(s.clone());
        if s.over().is_none() {
            stack.extend(s.children());
        }
    }
    let children: Vec<Vec<usize>> = states
        .iter()
        .map(|s| if s.over().is_some() { Vec::new() } else { s.children().iter().map(|c| ids[c]).collect() })
        .collect();
    let mut value: Vec<Option<Value>> = states
        .iter()
        .zip(&children)
        .map(|(s, c)| match s.over() {
            Some(true) => Some(Value::Win(0)),
            Some(false) => Some(Value::Loss(0)),
            None if c.is_empty() => Some(Value::Loss(0)),
            None => None,
        })
        .collect();
    for round in 1.. {
        let mut decided = Vec::new();
        for (i, c) in children.iter().enumerate() {
            if value[i].is_some() {
                continue;
            }
            if c.iter().any(|&k| value[k] == Some(Value::Loss(round - 1))) {
                decided.push((i, Value::Win(round)));
            } else if c.iter().all(|&k| matches!(value[k], Some(Value::Win(_))))
                && c.iter().any(|&k| value[k] == Some(Value::Win(round - 1)))
            {
                decided.push((i, Value::Loss(round)));
            }
        }
        // Round r + 1 decides only from values of remoteness r: after a round that
        // decides nothing, no later one can.
        if decided.is_empty() {
            break;
        }
        for (i, v) in decided {
            value[i] = Some(v);
        }
    }
    states.into_iter().zip(value).map(|(s, v)| (s, v.unwrap_or(Value::Draw))).collect()
}
