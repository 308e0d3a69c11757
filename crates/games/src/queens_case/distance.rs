//! What walking distances alone prove about a Queen's Case position.
//!
//! Write `d(x, e)` for the number of steps from cell `x` to exit `e` through open
//! cells (∞ when `e` cannot be reached). With the queen on `q` and the army on `a`,
//! queen to move:
//!
//! **Escape.** If some exit has `d(q, e) < d(a, e)`, the queen escapes within
//! `2·d(q, e)` plies whatever the army does. She walks a shortest path
//! `q = c₀, c₁, …, c_d = e`. Her t-th move takes her to `cₜ`, when the army has moved
//! t − 1 times: had it reached `cₜ` (she would walk into it), or were it to reach
//! `cₜ` with its t-th move (it would catch her), then `d(a, e) ≤ t + d(cₜ, e) = d`,
//! against the assumption. So after ply 2d she stands on `e`, alone, queen to move.
//!
//! **Not sooner.** An escape needs the queen on an exit when she is to move, so no
//! play escapes in fewer than `2·min_e d(q, e)` plies.
//!
//! Army to move, the army has one step in hand: the same argument from the position
//! after its move gives an escape when `d(q, e) + 1 < d(a, e)`, within `2·d(q, e) + 1`
//! plies and not sooner than `2·min_e d(q, e) + 1`.
//!
//! When the nearest exit is one she reaches first, the two bounds meet: that is the
//! exact value (the army holds out for the same number of plies whatever it does).
//! Nothing here proves a catch or a draw: those need the solve.

use super::{QueensCase, QueensPosition};
use gsolve_engine::Value;
use std::collections::VecDeque;

/// Plies to the queen's escape, bounded from walking distances: she escapes in at
/// least `at_least` and at most `at_most` plies from the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EscapeBound {
    /// No play escapes sooner: twice the queen's distance to her nearest exit (plus
    /// one with the army to move).
    pub at_least: u32,
    /// She escapes within this many plies against any defence.
    pub at_most: u32,
}

impl EscapeBound {
    /// The position's exact value for the side to move, when the bounds meet.
    pub fn value(&self, queen_to_move: bool) -> Option<Value> {
        (self.at_least == self.at_most).then_some(if queen_to_move {
            Value::Win(self.at_least)
        } else {
            Value::Loss(self.at_least)
        })
    }
}

impl QueensCase {
    /// The escape that walking distances prove (module docs), or `None` when they
    /// prove none. Costs two breadth-first searches of the map; solves nothing.
    pub fn escape_by_distance(&self, p: &QueensPosition) -> Option<EscapeBound> {
        if p.queen == p.army {
            return None;
        }
        let (from_queen, from_army) = (self.distances_from(p.queen), self.distances_from(p.army));
        // The army to move has a step in hand.
        let army_step = u32::from(!p.queen_to_move);
        let exits = || (0..self.open_cells()).filter(|&cell| self.exit[cell as usize]);
        let nearest = exits().map(|e| from_queen[e as usize]).min()?;
        let first_there = exits()
            .filter(|&e| from_queen[e as usize] != u32::MAX)
            .filter(|&e| from_queen[e as usize].saturating_add(army_step) < from_army[e as usize])
            .map(|e| from_queen[e as usize])
            .min()?;
        Some(EscapeBound { at_least: 2 * nearest + army_step, at_most: 2 * first_there + army_step })
    }

    /// Steps from `start` to every open cell (`u32::MAX` where none leads).
    fn distances_from(&self, start: u32) -> Vec<u32> {
        let mut distance = vec![u32::MAX; self.open_cells() as usize];
        distance[start as usize] = 0;
        let mut queue = VecDeque::from([start]);
        while let Some(cell) = queue.pop_front() {
            let next = distance[cell as usize] + 1;
            for &to in self.steps.of(cell) {
                if distance[to as usize] == u32::MAX {
                    distance[to as usize] = next;
                    queue.push_back(to);
                }
            }
        }
        distance
    }
}
