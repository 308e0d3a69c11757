//! `gsolve.Value`: a position's exact value for the side to move.

use pyo3::basic::CompareOp;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The exact value of a position for the side to move: `kind` is `"win"`,
/// `"loss"`, `"tie"` or `"draw"`; `remoteness` the plies until the game ends in
/// perfect play (the winner fastest, the loser slowest), `None` for a draw (play
/// goes on forever). Values compare by how much the side to move likes them:
/// a faster win > a slower win > a faster tie > a draw > a faster loss.
#[pyclass(frozen, module = "gsolve")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Value {
    pub(crate) inner: gsolve_engine::Value,
}

impl From<gsolve_engine::Value> for Value {
    fn from(inner: gsolve_engine::Value) -> Self {
        Value { inner }
    }
}

#[pymethods]
impl Value {
    /// `Value("loss", 6)`, `Value("draw")`.
    #[new]
    #[pyo3(signature = (kind, remoteness = None))]
    fn new(kind: &str, remoteness: Option<u32>) -> PyResult<Self> {
        use gsolve_engine::Value as V;
        let inner = match (kind, remoteness) {
            ("win", Some(r)) => V::Win(r),
            ("loss", Some(r)) => V::Loss(r),
            ("tie", Some(r)) => V::Tie(r),
            ("draw", None) => V::Draw,
            ("draw", Some(_)) => return Err(PyValueError::new_err("a draw has no remoteness")),
            ("win" | "loss" | "tie", None) => {
                return Err(PyValueError::new_err(format!("a {kind} needs its remoteness")))
            }
            _ => return Err(PyValueError::new_err(format!("unknown kind {kind:?}: expected win, loss, tie or draw"))),
        };
        Ok(Value { inner })
    }

    /// The value of a packed code (`remoteness << 2 | tag`, tag 1 loss, 2 tie,
    /// 3 win, code 0 a draw), as `Solution.values` holds them; `None` for the code
    /// of an index that names no position.
    #[staticmethod]
    fn from_code(code: u32) -> Option<Value> {
        gsolve_engine::PackedValue(code).unpack().map(Value::from)
    }

    /// `"win"`, `"loss"`, `"tie"` or `"draw"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind_name()
    }

    /// Plies to the end in perfect play; `None` for a draw.
    #[getter]
    fn remoteness(&self) -> Option<u32> {
        self.inner.remoteness()
    }

    /// The packed code of this value (see `from_code`).
    #[getter]
    fn code(&self) -> u32 {
        gsolve_engine::PackedValue::pack(self.inner).0
    }

    /// The value for the side that moved into this position, one ply earlier.
    fn parent_view(&self) -> Value {
        self.inner.parent_view().into()
    }

    fn __richcmp__(&self, other: &Self, op: CompareOp) -> bool {
        op.matches(self.inner.cmp(&other.inner))
    }

    fn __hash__(&self) -> u64 {
        self.code() as u64
    }

    fn __repr__(&self) -> String {
        match self.inner.remoteness() {
            Some(r) => format!("Value({:?}, {r})", self.inner.kind_name()),
            None => "Value(\"draw\")".to_string(),
        }
    }

    /// As the command line writes it: `loss in 6`, `draw`.
    fn __str__(&self) -> String {
        self.inner.to_string()
    }
}
