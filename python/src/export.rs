//! `Solution`: every position of a game's index solved, its values handed to NumPy
//! without a copy, with the functions between index and position.

use crate::value::Value;
use crate::InputError;
use gsolve_engine::{layered, retrograde, Indexed, Observer, StoredCodes};
use gsolve_games::chase::Chase;
use gsolve_games::notation::PlainNotation;
use gsolve_games::pawns::Pawns;
use gsolve_games::queens_case::QueensCase;
use gsolve_rules::RulesGame;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;

/// A game with a dense index of its positions.
pub(crate) enum IndexedGame {
    /// Pawn chess on one board (solved in layers).
    Pawns(Pawns),
    /// Chase on one size (retrograde).
    Chase(Chase),
    /// Queen's Case on one map (retrograde).
    QueensCase(QueensCase),
    /// A rules game over every placement of at most its start's pieces (retrograde).
    Rules(Box<RulesGame>),
}

/// Calls `$body` with `$g` bound to the game, whatever its type.
macro_rules! with_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            IndexedGame::Pawns($g) => $body,
            IndexedGame::Chase($g) => $body,
            IndexedGame::QueensCase($g) => $body,
            IndexedGame::Rules($g) => {
                let $g = $g.as_ref();
                $body
            }
        }
    };
}

impl IndexedGame {
    /// Every position's value, by index, as the solver stored them.
    pub(crate) fn solve(&self, observer: Option<Observer<'_>>) -> StoredCodes {
        let options = retrograde::Options { progress: observer, ..retrograde::Options::default() };
        let solution = match self {
            IndexedGame::Pawns(g) => layered::solve_with(g, observer),
            IndexedGame::Chase(g) => retrograde::solve_with(g, &options),
            IndexedGame::QueensCase(g) => retrograde::solve_with(g, &options),
            IndexedGame::Rules(g) => gsolve_rules::solve_whole(g.as_ref(), &options),
        };
        solution.into_codes()
    }

    fn index_size(&self) -> u64 {
        with_game!(self, g => g.index_size())
    }

    fn index_of(&self, text: &str) -> Result<u64, String> {
        with_game!(self, g => {
            let position = g.parse_position(text).map_err(|e| e.to_string())?;
            let index = g.index(&position);
            if index < g.index_size() && g.position(index).as_ref() == Some(&position) {
                Ok(index)
            } else {
                Err("the position is not in this game's index".to_string())
            }
        })
    }

    fn position_at(&self, index: u64) -> Option<String> {
        with_game!(self, g => g.position(index).map(|p| g.format_position(&p)))
    }
}

/// The values, in the array the solver filled.
enum Codes {
    Narrow(Py<PyArray1<u16>>),
    Wide(Py<PyArray1<u32>>),
}

/// Every position of a game's index with its value. `values[i]` is the packed code
/// of the position of index `i` (`remoteness << 2 | tag`: tag 1 loss, 2 tie, 3 win;
/// 0 a draw; 4 an index that names no position), `uint16` when every remoteness
/// fits, else `uint32`; `gsolve.decode(values)` splits the codes into kinds and
/// remoteness. `position(i)` and `index(position)` go between the two.
#[pyclass(frozen, module = "gsolve")]
pub struct Solution {
    game: IndexedGame,
    codes: Codes,
}

impl Solution {
    pub(crate) fn new(py: Python<'_>, game: IndexedGame, codes: StoredCodes) -> PyResult<Solution> {
        let codes = match codes {
            StoredCodes::Narrow(codes) => Codes::Narrow(PyArray1::from_vec(py, codes).unbind()),
            // The same allocation, reinterpreted in place (a `u32` newtype).
            StoredCodes::Wide(values) => {
                Codes::Wide(PyArray1::from_vec(py, values.into_iter().map(|v| v.0).collect()).unbind())
            }
        };
        Ok(Solution { game, codes })
    }

    fn code(&self, py: Python<'_>, index: u64) -> Option<u32> {
        let i = usize::try_from(index).ok()?;
        match &self.codes {
            Codes::Narrow(a) => a.bind(py).readonly().as_slice().ok()?.get(i).map(|&c| c as u32),
            Codes::Wide(a) => a.bind(py).readonly().as_slice().ok()?.get(i).copied(),
        }
    }
}

#[pymethods]
impl Solution {
    /// The packed codes by index (a read-only view would copy nothing either: this
    /// is the array itself; do not write to it if `value` is to stay right).
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.codes {
            Codes::Narrow(a) => a.bind(py).clone().into_any(),
            Codes::Wide(a) => a.bind(py).clone().into_any(),
        }
    }

    /// The number of indices.
    fn __len__(&self) -> usize {
        self.game.index_size() as usize
    }

    /// The index of a position in plain notation.
    fn index(&self, position: &str) -> PyResult<u64> {
        self.game
            .index_of(position)
            .map_err(|e| InputError::new_err(format!("position {}: {e}", gsolve_games::text::excerpt(position))))
    }

    /// The position of an index, in plain notation; `None` for an index that names
    /// no position.
    fn position(&self, index: u64) -> PyResult<Option<String>> {
        if index >= self.game.index_size() {
            return Err(PyIndexError::new_err(format!("index {index} out of range 0..{}", self.game.index_size())));
        }
        Ok(self.game.position_at(index))
    }

    /// The value of the position of an index; `None` for an index that names no
    /// position.
    fn value(&self, py: Python<'_>, index: u64) -> PyResult<Option<Value>> {
        let code = self.code(py, index).ok_or_else(|| {
            PyIndexError::new_err(format!("index {index} out of range 0..{}", self.game.index_size()))
        })?;
        Ok(gsolve_engine::PackedValue(code).unpack().map(Value::from))
    }

    fn __repr__(&self) -> String {
        format!("gsolve.Solution({} positions)", self.game.index_size())
    }
}
