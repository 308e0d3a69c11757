//! The bit-set core of step games: rules whose pieces only step forward and
//! capture, searched on one cell set per group by a search of their own
//! (module `solver`), handed each position by the engine's
//! [`gsolve_engine::search::SearchHooks::solve_outright`]. Found from the
//! rules' shape, never from a game's name.
//!
//! # The shape
//! - no drops (so no hands), no trails, no stays; both sides move one piece a
//!   turn; every move of every kind goes forward (every step vector's forward
//!   part is positive): no position comes back, which is why these games are
//!   searched and not solved whole (`RulesGame::acyclic`), and why a game's
//!   length is bounded by the pieces' advance (checked against the scores'
//!   range at each root);
//! - promotions allowed (forced or not); steps, leaps, ranges and slides
//!   allowed (slides are walked cell by cell, the rest are masks);
//! - endings: `reach` (after the move or the reply), `no-pieces`, `captured`
//!   (royal kinds) and `stuck`, with any result but a tie: the endings' table of
//!   `crate::compiled::endings` (no `line` or `full` ending, at most 12 bits a word);
//!   no meetings, no ending that ties (a tie's remoteness is found otherwise);
//! - at most 8 groups (a kind of one side), at most 128 cells (64-bit sets up to
//!   64 cells, 128-bit beyond), and groups · cells + 1 ≤ 127, so that one
//!   128-bit key holds a whole position (module `table`): Breakthrough and pawn
//!   chess up to 63 cells (7 × 9), not 8 × 8.
//!
//! Every other rules file is searched by the engine's alpha-beta as before (the
//! general path, which the tests compare this one with, value and remoteness).
//!
//! # Threads
//! A search runs on as many threads as rayon's pool has (`-j`), up to
//! [`MAX_THREADS`]: each null-window probe that outlasts a short walk on the
//! calling thread is continued by every thread on one shared table (module
//! `solver`, `Solver::probe`; the table's buckets are sequence locks, module
//! `table`).

mod layout;
mod set;
mod solver;
mod table;

use crate::compiled::position::RulesPosition;
use crate::compiled::symmetry::Symmetry as Mirror;
use crate::compiled::tables::Tables;
use crate::language::spec::{Rules, Turn};
use gsolve_engine::{Observer, Value};
use layout::{Layout, Pos, MAX_GROUPS};
use set::CellSet;
use solver::{Solver, M};
use std::sync::{Arc, Mutex};

/// The most threads one search runs on (`-j`, rayon's pool, up to this).
const MAX_THREADS: usize = 8;

/// The bit-set core of one game: its layout, and its search (made on first use:
/// its table is large), on 64- or 128-bit cell sets.
#[derive(Clone)]
pub(crate) enum BitCore {
    Narrow(Core<u64>),
    Wide(Core<u128>),
}

impl std::fmt::Debug for BitCore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BitCore::Narrow(_) => "BitCore(u64)",
            BitCore::Wide(_) => "BitCore(u128)",
        })
    }
}

/// The core on one width of cell set.
#[derive(Clone)]
pub(crate) struct Core<B> {
    layout: Arc<Layout<B>>,
    /// Shared by the game's clones (a parallel search's helpers): one search at
    /// a time, each later one finding what the earlier stored.
    solver: Arc<Mutex<Option<Solver<B>>>>,
}

/// Do the rules compiled in `t` have the shape (module docs)?
fn accepts(t: &Tables) -> bool {
    let rules: &Rules = t.rules();
    let endings = t.endings();
    let cells = t.board().cells();
    let groups = t.groups();
    let forward_only =
        rules.kinds.iter().all(|k| !k.stay && k.moves.iter().all(|m| m.vectors.iter().all(|&(f, _)| f > 0)));
    forward_only
        && !rules.has_drops()
        && !rules.has_trails()
        && t.hand_groups().is_empty()
        && (0..2).all(|side| t.turn_of(side) == Turn::OnePiece)
        && !t.has_meetings()
        && endings.table().is_some()
        && !endings.can_tie()
        && groups <= MAX_GROUPS
        && cells <= 128
        && groups * cells < 127
}

impl BitCore {
    /// The core of the rules compiled in `t`, if they have the shape.
    /// `mirror`: the game looks the same in a mirror (module `crate::mirror`).
    pub(crate) fn of(t: &Tables, mirror: Option<&Mirror>) -> Option<BitCore> {
        if !accepts(t) {
            return None;
        }
        Some(if t.board().cells() <= 64 {
            BitCore::Narrow(Core::new(t, mirror))
        } else {
            BitCore::Wide(Core::new(t, mirror))
        })
    }

    /// The exact value of `p`, if the core takes it (else `None`: the engine's
    /// search answers, as it does for a position already over); `Some(None)`
    /// once the search has visited more than `budget` positions.
    pub(crate) fn value<const N: usize>(
        &self,
        p: &RulesPosition<N>,
        budget: Option<u64>,
        observer: Option<Observer<'_>>,
    ) -> Option<Option<Value>> {
        match self {
            BitCore::Narrow(core) => core.value(p, budget, observer),
            BitCore::Wide(core) => core.value(p, budget, observer),
        }
    }

    /// Positions the search has visited and its table's bytes; `None` before
    /// its first search.
    pub(crate) fn stats(&self) -> Option<(u64, usize)> {
        match self {
            BitCore::Narrow(core) => core.stats(),
            BitCore::Wide(core) => core.stats(),
        }
    }

    /// Null-window probes searched by more than one thread; `None` before the
    /// first search.
    pub(crate) fn helped_probes(&self) -> Option<u64> {
        match self {
            BitCore::Narrow(core) => core.helped_probes(),
            BitCore::Wide(core) => core.helped_probes(),
        }
    }
}

impl<B: CellSet> Core<B> {
    fn new(t: &Tables, mirror: Option<&Mirror>) -> Core<B> {
        Core { layout: Arc::new(Layout::new(t, mirror)), solver: Arc::new(Mutex::new(None)) }
    }

    /// A rules position as bit sets, if the core takes it: play not ended by a
    /// meeting, no walls or hands (the shape has none).
    fn pos_of<const N: usize>(&self, p: &RulesPosition<N>) -> Option<Pos<B>> {
        if p.ended() != 0 || p.walls() != 0 {
            return None;
        }
        let mut pos = Pos { sets: [B::default(); MAX_GROUPS], sides: [B::default(); 2], to_move: p.to_move() };
        for piece in p.pieces() {
            pos.sets[piece.group] |= B::cell(piece.cell);
            pos.sides[self.layout.side_of[piece.group]] |= B::cell(piece.cell);
        }
        Some(pos)
    }

    fn value<const N: usize>(
        &self,
        p: &RulesPosition<N>,
        budget: Option<u64>,
        observer: Option<Observer<'_>>,
    ) -> Option<Option<Value>> {
        let pos = self.pos_of(p)?;
        let l = &*self.layout;
        if l.ending(&pos).is_some() {
            return None;
        }
        // Every move takes a piece at least one cell forward: a game lasts at
        // most the pieces' advance, which must stay well inside the scores.
        let longest: u64 = (0..2).map(|s| u64::from(pos.sides[s].count()) * u64::from(l.extent[s] - 1)).sum();
        if longest >= (M / 2) as u64 {
            return None;
        }
        let mut solver = self.solver.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let solver = solver.get_or_insert_with(|| Solver::new(Arc::clone(&self.layout), table_entries(l.cells)));
        let threads = rayon::current_num_threads().min(MAX_THREADS);
        Some(solver.score(&pos, threads, budget, observer).ok().map(solver::value_of_score))
    }

    fn stats(&self) -> Option<(u64, usize)> {
        let solver = self.solver.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        solver.as_ref().map(|s| (s.nodes, s.table_bytes()))
    }

    fn helped_probes(&self) -> Option<u64> {
        let solver = self.solver.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        solver.as_ref().map(|s| s.helped_probes)
    }
}

/// The table's entries (32 bytes each) for a board of `cells` cells: small
/// boards are solved in few positions, and a table that stays in the caches
/// is faster; from 5 × 5 on the search visits hundreds of millions.
fn table_entries(cells: usize) -> usize {
    match cells {
        0..=12 => 1 << 12,
        13..=16 => 1 << 16,
        17..=20 => 1 << 20,
        21..=24 => 1 << 22,
        _ => 1 << 24,
    }
}
