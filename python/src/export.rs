//! `Solution`: every position of a game's index solved, its values handed to NumPy
//! without a copy, with the functions between index and position.

use crate::value::Value;
use crate::InputError;
use gsolve_analysis::catalog::{self, BuildPlan, Built, CatalogGame, VariantVisitor, WholeSolver};
use gsolve_engine::{Indexed, Observer, StoredCodes};
use gsolve_tablebase::Error as StoreError;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use std::path::Path;

/// A catalog game with a dense index of its positions, whatever its type.
pub(crate) trait IndexedGame: Send + Sync {
    /// Every position's value, by index, as the catalog's solver stored them, and
    /// which solver that was.
    fn solve(&self, observer: Option<Observer<'_>>) -> (StoredCodes, WholeSolver);
    /// The number of indices.
    fn index_size(&self) -> u64;
    /// The index of a position in plain notation.
    fn index_of(&self, text: &str) -> Result<u64, String>;
    /// The position of an index, in plain notation.
    fn position_at(&self, index: u64) -> Option<String>;
    /// Builds its tablebase as every front end does ([`catalog::build_tablebase`]).
    fn build(&self, path: &Path, plan: &BuildPlan, observer: Option<Observer<'_>>) -> Result<Built, StoreError>;
}

impl<G: CatalogGame> IndexedGame for G {
    fn solve(&self, observer: Option<Observer<'_>>) -> (StoredCodes, WholeSolver) {
        let (solution, solver) = self.solve_whole(observer);
        (solution.into_codes(), solver)
    }

    fn index_size(&self) -> u64 {
        Indexed::index_size(self)
    }

    fn index_of(&self, text: &str) -> Result<u64, String> {
        let position = self.parse_position(text).map_err(|e| e.to_string())?;
        let index = self.index(&position);
        if index < Indexed::index_size(self) && self.position(index).as_ref() == Some(&position) {
            Ok(index)
        } else {
            Err("the position is not in this game's index".to_string())
        }
    }

    fn position_at(&self, index: u64) -> Option<String> {
        self.position(index).map(|p| self.format_position(&p))
    }

    fn build(&self, path: &Path, plan: &BuildPlan, observer: Option<Observer<'_>>) -> Result<Built, StoreError> {
        catalog::build_tablebase(self, path, plan, observer)
    }
}

/// Boxes the catalog's game.
pub(crate) struct Boxed;

impl VariantVisitor for Boxed {
    type Output = Box<dyn IndexedGame>;
    fn visit<G: CatalogGame>(self, game: G) -> Self::Output {
        Box::new(game)
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
    game: Box<dyn IndexedGame>,
    codes: Codes,
    solver: WholeSolver,
}

impl Solution {
    pub(crate) fn new(
        py: Python<'_>,
        game: Box<dyn IndexedGame>,
        codes: StoredCodes,
        solver: WholeSolver,
    ) -> PyResult<Solution> {
        let codes = match codes {
            StoredCodes::Narrow(codes) => Codes::Narrow(PyArray1::from_vec(py, codes).unbind()),
            // The same allocation, reinterpreted in place (a `u32` newtype).
            StoredCodes::Wide(values) => {
                Codes::Wide(PyArray1::from_vec(py, values.into_iter().map(|v| v.0).collect()).unbind())
            }
        };
        Ok(Solution { game, codes, solver })
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

    /// The solver that solved the game: `"layered"`, `"bit rows"` or
    /// `"retrograde"`, the one `gsolve build` uses for the same game.
    #[getter]
    fn solver(&self) -> &'static str {
        self.solver.name()
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
