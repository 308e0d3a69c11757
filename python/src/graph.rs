//! An explicit move graph solved by the engine's retrograde solver: the positions
//! of a game explored elsewhere (the OpenSpiel bridge explores through pyspiel),
//! handed over as arrays.

use crate::interrupt::{self, Outcome as Run};
use crate::InputError;
use gsolve_engine::{retrograde, Game, Indexed, Outcome, StoredCodes};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;

/// Positions `0..n`; position `p`'s children are `children[offsets[p]..offsets[p+1]]`
/// and `outcomes[p]` says whether it is over (0 no; 1 won, 2 lost, 3 tied by the
/// side to move there). Play alternates: a child is the other side's to move.
#[derive(Debug)]
struct Graph {
    offsets: Vec<u64>,
    children: Vec<u64>,
    outcomes: Vec<u8>,
}

impl Game for Graph {
    type Position = u64;
    type Move = u64;

    fn terminal(&self, position: &u64) -> Option<Outcome> {
        match self.outcomes[*position as usize] {
            1 => Some(Outcome::Win),
            2 => Some(Outcome::Loss),
            3 => Some(Outcome::Tie),
            _ => None,
        }
    }

    fn moves(&self, position: &u64, moves: &mut Vec<u64>) {
        let p = *position as usize;
        moves.extend_from_slice(&self.children[self.offsets[p] as usize..self.offsets[p + 1] as usize]);
    }

    fn play(&self, _: &u64, child: &u64) -> u64 {
        *child
    }
}

impl Indexed for Graph {
    fn index_size(&self) -> u64 {
        self.outcomes.len() as u64
    }

    fn index(&self, position: &u64) -> u64 {
        *position
    }

    fn position(&self, index: u64) -> Option<u64> {
        Some(index)
    }
}

impl Graph {
    /// Checks the arrays, with what is wrong.
    fn new(offsets: Vec<u64>, children: Vec<u64>, outcomes: Vec<u8>) -> Result<Graph, String> {
        let n = outcomes.len();
        if offsets.len() != n + 1 {
            return Err(format!("offsets has {} entries; {n} positions need {}", offsets.len(), n + 1));
        }
        if offsets.first() != Some(&0) || offsets.last() != Some(&(children.len() as u64)) {
            return Err("offsets must start at 0 and end at the number of children".into());
        }
        if offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err("offsets must not decrease".into());
        }
        if let Some(c) = children.iter().find(|&&c| c >= n as u64) {
            return Err(format!("child {c} is not a position (there are {n})"));
        }
        if let Some(o) = outcomes.iter().find(|&&o| o > 3) {
            return Err(format!("outcome {o}: expected 0 (not over), 1 (won), 2 (lost) or 3 (tied)"));
        }
        if let Some(p) = (0..n).find(|&p| outcomes[p] == 0 && offsets[p] == offsets[p + 1]) {
            return Err(format!("position {p} is not over and has no move"));
        }
        Ok(Graph { offsets, children, outcomes })
    }
}

/// Solves an explicit move graph (see the module): returns the packed code of
/// every position's value (`gsolve.Value.from_code`, `gsolve.decode`), cycles
/// included (a position where neither side can force an end is a draw, code 0).
/// The GIL is released while it solves; Ctrl-C stops it.
#[pyfunction]
pub fn solve_graph<'py>(
    py: Python<'py>,
    offsets: PyReadonlyArray1<'py, u64>,
    children: PyReadonlyArray1<'py, u64>,
    outcomes: PyReadonlyArray1<'py, u8>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let graph = Graph::new(offsets.as_array().to_vec(), children.as_array().to_vec(), outcomes.as_array().to_vec())
        .map_err(|e| InputError::new_err(format!("solve_graph: {e}")))?;
    let solved = interrupt::run(py, |observer| {
        let options = retrograde::Options { progress: observer, ..retrograde::Options::default() };
        retrograde::solve_forward_only_with(&graph, &options).into_codes()
    })?;
    let codes: Vec<u32> = match solved {
        Run::Done(StoredCodes::Narrow(codes)) => codes.into_iter().map(u32::from).collect(),
        Run::Done(StoredCodes::Wide(values)) => values.into_iter().map(|v| v.0).collect(),
        Run::Interrupted(error) => return Err(error),
    };
    Ok(PyArray1::from_vec(py, codes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gsolve_engine::Value;

    fn solved(offsets: &[u64], children: &[u64], outcomes: &[u8]) -> Vec<Option<Value>> {
        let graph = Graph::new(offsets.to_vec(), children.to_vec(), outcomes.to_vec()).unwrap();
        let solution = retrograde::solve_forward_only(&graph);
        (0..graph.index_size()).map(|i| solution.value(i)).collect()
    }

    #[test]
    fn a_chain_to_a_loss_and_a_tie() {
        // 0 -> {1, 2}; 1 is over, lost by its side to move; 2 is over, tied.
        let values = solved(&[0, 2, 2, 2], &[1, 2], &[0, 2, 3]);
        assert_eq!(values, vec![Some(Value::Win(1)), Some(Value::Loss(0)), Some(Value::Tie(0))]);
    }

    #[test]
    fn a_cycle_with_no_way_out_is_a_draw_not_a_tie() {
        // 0 <-> 1, and 0 may also move to 2, won by the side to move there.
        let values = solved(&[0, 2, 3, 3], &[1, 2, 0], &[0, 0, 1]);
        assert_eq!(values, vec![Some(Value::Draw), Some(Value::Draw), Some(Value::Win(0))]);
    }

    #[test]
    fn bad_arrays_are_refused_with_what_is_wrong() {
        assert!(Graph::new(vec![0, 1], vec![5], vec![0]).unwrap_err().contains("child 5"));
        assert!(Graph::new(vec![0, 0], vec![], vec![0]).unwrap_err().contains("no move"));
        assert!(Graph::new(vec![0], vec![], vec![0]).unwrap_err().contains("offsets"));
        assert!(Graph::new(vec![0, 0], vec![], vec![7]).unwrap_err().contains("outcome 7"));
    }
}
