//! gsolve's solvers spread over worker threads, processes and machines on
//! [timely dataflow](https://github.com/TimelyDataflow/timely-dataflow).
//!
//! The single-process solvers of the engine stay the default and the oracle; this
//! crate gives the same values from many workers, each owning a part of the
//! index, never a copy of the whole. It is the only crate that touches timely.
//!
//! - [`cluster`]: who the processes are (a hostfile, timely's conventions), the
//!   connections between them (made here: timeouts, a handshake that refuses a
//!   peer started for another job, errors that name the peer), and a run of
//!   timely workers over them that ends with an error, not a hang, when a peer dies.
//! - [`rounds`]: the one communication pattern the solvers use: a round in which
//!   every worker sends updates to the owners of their targets and a small summary
//!   to everyone, over when timely's progress tracking says every worker is done.
//! - [`partition`]: which worker owns which index (chunks dealt round-robin).
//! - [`retrograde`]: the engine's retrograde analysis, one round per level.
//! - [`build`]: a solve written as a tablebase file, byte for byte the file the
//!   single-process build writes.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod build;
pub mod cluster;
pub mod partition;
pub mod retrograde;
pub mod rounds;
pub mod tiered;

pub use cluster::{Cluster, Error};
pub use partition::Partition;
