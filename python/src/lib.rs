//! # gsolve-python
//!
//! The Python module `gsolve._gsolve`: a thin layer over the analysis, tablebase,
//! engine and rules crates, as the command line is. The Python package `gsolve`
//! (python/gsolve) re-exports it and adds the OpenSpiel bridge.
//!
//! | Python                         | Rust                                                   |
//! |--------------------------------|--------------------------------------------------------|
//! | `game(name, **board)`, `rules` | [`gsolve_analysis::Analyzer::start`], `Analyzer::with_rules` |
//! | `Game.analyze(position)`       | [`gsolve_analysis::Analyzer::analyze_with_progress`]   |
//! | `Game.solve()`                 | the engine's whole-game solvers; values handed to NumPy without a copy |
//! | `Game.build_tablebase`, `Tablebase` | the tablebase crate's writers and `Analyzer::with_tablebase` |
//! | `solve_graph`                  | [`gsolve_engine::retrograde`] on an explicit move graph (the OpenSpiel bridge) |
//!
//! Every call that may take long runs on a worker thread while the calling thread
//! waits without the GIL and checks for Ctrl-C ([`interrupt`]).
// pyo3's macros (0.30) expand to no `unsafe` of this crate's own (the C API calls
// are inside pyo3), so `forbid` holds here as in every library root.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod export;
mod game;
mod graph;
mod interrupt;
mod value;

use pyo3::prelude::*;

pyo3::create_exception!(
    _gsolve,
    GsolveError,
    pyo3::exceptions::PyException,
    "Base class of gsolve's errors. The message is the command line's."
);
pyo3::create_exception!(
    _gsolve,
    InputError,
    GsolveError,
    "A game, board, position, rules file or option that gsolve cannot take (the CLI's exit status 2)."
);
pyo3::create_exception!(
    _gsolve,
    TooLargeError,
    InputError,
    "Solving would take more positions, cells or search nodes than the limits allow."
);
pyo3::create_exception!(
    _gsolve,
    TablebaseError,
    GsolveError,
    "A tablebase that cannot be read or written, or that cannot answer this position."
);

/// The module `gsolve._gsolve`.
#[pymodule]
fn _gsolve(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("GsolveError", py.get_type::<GsolveError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("TooLargeError", py.get_type::<TooLargeError>())?;
    m.add("TablebaseError", py.get_type::<TablebaseError>())?;
    m.add_class::<value::Value>()?;
    m.add_class::<game::Move>()?;
    m.add_class::<game::Analysis>()?;
    m.add_class::<game::LegalMove>()?;
    m.add_class::<game::Moves>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::Tablebase>()?;
    m.add_class::<export::Solution>()?;
    m.add_function(wrap_pyfunction!(game::game, m)?)?;
    m.add_function(wrap_pyfunction!(game::rules, m)?)?;
    m.add_function(wrap_pyfunction!(game::games, m)?)?;
    m.add_function(wrap_pyfunction!(graph::solve_graph, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
