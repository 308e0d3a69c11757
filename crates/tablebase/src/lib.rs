//! # gsolve-tablebase
//!
//! Solved games on disk: every position's value and remoteness, by index, in a file
//! that answers a probe by decompressing one small block, and that can prove itself
//! right. The layout is in [`format`] and docs/tablebase-format.md. The crate knows
//! no game: it stores what [`gsolve_engine`] solvers produce for any game that is
//! [`Indexed`](gsolve_engine::Indexed) and names itself ([`Variant`](gsolve_engine::Variant)).
//!
//! | module      | what it does                                                   |
//! |-------------|----------------------------------------------------------------|
//! | [`format`]  | the header, block index and value codes, byte by byte          |
//! | [`write`]   | blocks compressed in parallel, written atomically              |
//! | [`read`]    | [`Tablebase`]: memory-mapped, one block decompressed a probe   |
//! | [`typed`]   | [`GameTablebase`]: the file with its game, probed by position  |
//! | [`verify`]  | re-derives every value from the rules and the children's values |
//! | [`summary`] | counts by side to move and remoteness, the longest win         |
//! | [`tiers`]   | a tiered game built tier by tier on disk, resumable            |
//! | [`book`]    | opening books: values of chosen positions by a game's 64-bit key |
//!
//! ```
//! use gsolve_engine::{layered, Value};
//! use gsolve_games::pawns::Pawns;
//! use gsolve_games::notation::PlainNotation;
//! use gsolve_tablebase::{write, GameTablebase};
//!
//! # let dir = std::env::temp_dir().join(format!("gsolve-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("pawns-3x3.gtb");
//! // Build: solve every position, then store the values.
//! let game = Pawns::new(3, 3);
//! let solution = layered::solve(&game);
//! write::write_solution(&path, &game, &solution, &write::WriteOptions::default(), None)?;
//!
//! // Probe: the file alone rebuilds the game (3×3 pawns) and answers.
//! let tablebase = GameTablebase::<Pawns>::open(&path)?;
//! let hexapawn = tablebase.game().parse_position("ppp/.../PPP w").unwrap();
//! assert_eq!(tablebase.value(&hexapawn)?, Some(Value::Loss(6)));
//! let moves = tablebase.move_values(&hexapawn)?; // best first
//! assert_eq!(moves.len(), 3);
//! assert!(moves.iter().all(|m| matches!(m.value, Value::Loss(_))));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), gsolve_tablebase::Error>(())
//! ```
#![warn(missing_docs)]
// Two `unsafe` blocks, the memory maps in `read.rs` (a tablebase) and `tiers.rs` (a
// finished tier), each allowed where it is, with its proof.
#![deny(unsafe_code)]

pub mod book;
pub mod error;
pub mod format;
pub mod read;
pub mod summary;
pub mod tiers;
pub mod typed;
pub mod verify;
pub mod write;

pub use error::{Error, Result};
pub use format::Header;
pub use read::{Table, Tablebase};
pub use typed::GameTablebase;
pub use verify::{verify, verify_tiered, Verification};
pub use write::{WriteOptions, Written};
