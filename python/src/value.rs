//! `gsolve.Value`: a position's exact value for the side to move.

use pyo3::basic::CompareOp;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The exact value of a position for the side to move: `kind` is `"win"`,
/// `"loss"`, `"tie"` or `"draw"`; `remoteness` the plies until the game ends in
/// perfect play (the winner fastest, the loser slowest), `None` for a draw (play
/// goes on forever). Values compare by how much the side to move likes them:
/// a faster win > a slower win > a faster tie > a draw > a faster loss.
///
/// In a game that ends in a score (a rules file's `[score]`, e.g. Othello),
/// `margin` is the final margin for the side to move (positive: it wins by that
/// much) and values compare by margin first; `None` in other games.
#[pyclass(frozen, module = "gsolve")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Value {
    pub(crate) inner: gsolve_engine::Value,
    pub(crate) margin: Option<i32>,
}

impl From<gsolve_engine::Value> for Value {
    fn from(inner: gsolve_engine::Value) -> Self {
        Value { inner, margin: None }
    }
}

impl Value {
    /// A value with its margin, in a game with a score (`None`: another game).
    pub(crate) fn scored(inner: gsolve_engine::Value, margin: Option<i32>) -> Self {
        Value { inner, margin }
    }

    /// The engine's value with a score, where there is a margin.
    fn score_value(&self) -> Option<gsolve_engine::ScoreValue> {
        Some(gsolve_engine::ScoreValue { margin: self.margin?, remoteness: self.inner.remoteness()? })
    }
}

#[pymethods]
impl Value {
    /// `Value("loss", 6)`, `Value("draw")`, `Value("loss", 10, margin=-10)`.
    #[new]
    #[pyo3(signature = (kind, remoteness = None, margin = None))]
    fn new(kind: &str, remoteness: Option<u32>, margin: Option<i32>) -> PyResult<Self> {
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
        if let Some(m) = margin {
            let sign_agrees = match inner {
                V::Win(_) => m > 0,
                V::Loss(_) => m < 0,
                V::Tie(_) => m == 0,
                V::Draw => false,
            };
            if !sign_agrees {
                return Err(PyValueError::new_err(format!("a {kind} cannot have the margin {m}")));
            }
        }
        Ok(Value { inner, margin })
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

    /// In a game with a score: the final margin for the side to move under
    /// perfect play (positive when it wins); `None` in other games.
    #[getter]
    fn margin(&self) -> Option<i32> {
        self.margin
    }

    /// The packed code of this value (see `from_code`).
    #[getter]
    fn code(&self) -> u32 {
        gsolve_engine::PackedValue::pack(self.inner).0
    }

    /// The value for the side that moved into this position, one ply earlier.
    fn parent_view(&self) -> Value {
        Value { inner: self.inner.parent_view(), margin: self.margin.map(|m| -m) }
    }

    /// Values with margins compare by margin first (`ScoreValue`'s order);
    /// otherwise by kind and remoteness.
    fn __richcmp__(&self, other: &Self, op: CompareOp) -> bool {
        match (self.score_value(), other.score_value(), op) {
            (Some(a), Some(b), _) => op.matches(a.cmp(&b)),
            (_, _, CompareOp::Eq) => self == other,
            (_, _, CompareOp::Ne) => self != other,
            _ => op.matches(self.inner.cmp(&other.inner)),
        }
    }

    fn __hash__(&self) -> u64 {
        self.code() as u64 ^ (self.margin.unwrap_or(0) as u64) << 32
    }

    fn __repr__(&self) -> String {
        let margin = self.margin.map(|m| format!(", margin={m}")).unwrap_or_default();
        match self.inner.remoteness() {
            Some(r) => format!("Value({:?}, {r}{margin})", self.inner.kind_name()),
            None => "Value(\"draw\")".to_string(),
        }
    }

    /// As the command line writes it: `loss in 6`, `draw`; with a margin
    /// `loss by 10 in 10`.
    fn __str__(&self) -> String {
        match self.score_value() {
            Some(scored) => scored.to_string(),
            None => self.inner.to_string(),
        }
    }
}
