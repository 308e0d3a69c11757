//! A tablebase opened as a particular game: probe positions rather than indices.

use crate::error::{Error, Result};
use crate::read::Tablebase;
use gsolve_engine::line::{self, MoveValue};
use gsolve_engine::{Indexed, Value, ValueLookup, Variant};
use std::cell::RefCell;
use std::path::Path;

/// A tablebase together with the game it solves, rebuilt from the file's header.
pub struct GameTablebase<G> {
    tablebase: Tablebase,
    game: G,
}

impl<G: Variant + Indexed> GameTablebase<G> {
    /// Opens a tablebase of game `G`; errors if the file is of another game, or its
    /// parameters do not rebuild a game with the file's index size.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::new(Tablebase::open(path)?)
    }

    /// Wraps an open tablebase (see [`GameTablebase::open`]).
    pub fn new(tablebase: Tablebase) -> Result<Self> {
        if tablebase.game_name() != G::NAME {
            return Err(Error::WrongGame { expected: G::NAME.into(), found: tablebase.game_name().into() });
        }
        if tablebase.header().index_version != G::INDEX_VERSION {
            return Err(Error::OldIndex {
                game: G::NAME.into(),
                found: tablebase.header().index_version,
                supported: G::INDEX_VERSION,
            });
        }
        let bad = |message: String| Error::BadParameters { game: G::NAME.into(), message };
        let game = G::from_parameters(&tablebase.header().parameters).map_err(bad)?;
        if game.index_size() != tablebase.index_size() {
            return Err(bad(format!(
                "the game has {} indices, the file {}",
                game.index_size(),
                tablebase.index_size()
            )));
        }
        Ok(GameTablebase { tablebase, game })
    }

    /// The game, as the file describes it.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The underlying tablebase.
    pub fn tablebase(&self) -> &Tablebase {
        &self.tablebase
    }

    /// The value of a position; `None` if the index holds no position (a position
    /// outside the game's index is an [`Error::OutOfRange`]). A position the
    /// rules value (a terminal one, or a win in 1 the index leaves out:
    /// [`gsolve_engine::Indexed::value_by_rules`]) gets that value without a read.
    pub fn value(&self, position: &G::Position) -> Result<Option<Value>> {
        // Valued by the rules: it may have no index.
        if let Some(value) = self.game.value_by_rules(position) {
            return Ok(Some(value));
        }
        self.tablebase.value(self.game.index(position))
    }

    /// Every legal move with the value it leads to, best first (empty at the end of
    /// the game). Each child's block is decompressed once per call.
    pub fn move_values(&self, position: &G::Position) -> Result<Vec<MoveValue<G>>> {
        let lookup = Checked { tablebase: self, error: RefCell::new(None) };
        let moves = line::move_values(&self.game, &lookup, position);
        match lookup.error.into_inner() {
            Some(e) => Err(e),
            None => Ok(moves),
        }
    }
}

/// Lookups for the engine's helpers; an unreadable value is `None`. Use
/// [`GameTablebase::value`] to see errors.
impl<G: Variant + Indexed> ValueLookup<G> for GameTablebase<G> {
    fn lookup(&self, _game: &G, position: &G::Position) -> Option<Value> {
        self.value(position).ok().flatten()
    }
}

/// A lookup that remembers the first error.
struct Checked<'a, G> {
    tablebase: &'a GameTablebase<G>,
    error: RefCell<Option<Error>>,
}

impl<G: Variant + Indexed> ValueLookup<G> for Checked<'_, G> {
    fn lookup(&self, _game: &G, position: &G::Position) -> Option<Value> {
        match self.tablebase.value(position) {
            Ok(value) => value,
            Err(e) => {
                self.error.borrow_mut().get_or_insert(e);
                None
            }
        }
    }
}
