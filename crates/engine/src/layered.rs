//! One-sweep solve of an acyclic game whose index comes in [`Layered`] order.
//!
//! Each layer's positions only have children in earlier layers, so a position's value
//! is the best of its children's, read directly: no counters, no parents, no
//! frontier. Within a layer every position is independent: rayon splits the layer.
//!
//! Memory: 4 bytes per index (the result itself).

use crate::game::Layered;
use crate::progress::{report, Observer};
use crate::solution::Solution;
use crate::value::{PackedValue, Value};
use rayon::prelude::*;

/// A value not computed yet (tag 0, remoteness field 2: not a value, not a hole).
const UNSOLVED: PackedValue = PackedValue(2 << 2);
/// Positions per rayon task.
const CHUNK: usize = 1 << 11;

/// Solves every position of a layered game.
pub fn solve<G: Layered + Sync>(game: &G) -> Solution {
    solve_with(game, None)
}

/// [`solve`], reporting progress (step `"layers"`, counted in positions).
pub fn solve_with<G: Layered + Sync>(game: &G, progress: Option<Observer<'_>>) -> Solution {
    let size = usize::try_from(game.index_size()).expect("index fits in memory");
    let mut values = vec![UNSOLVED; size];
    let mut done = 0u64;
    game.for_each_layer(|layer| {
        let (start, end) = (layer.start as usize, layer.end as usize);
        let (before, rest) = values.split_at_mut(start);
        let (current, after) = rest.split_at_mut(end - start);
        let (before, after) = (&*before, &*after);
        let solved = |i: u64| -> PackedValue {
            let i = i as usize;
            if i < start {
                before[i]
            } else if i >= end {
                after[i - end]
            } else {
                UNSOLVED
            }
        };
        let sweep = |(k, chunk): (usize, &mut [PackedValue])| {
            // Holes stay NONE; `for_each_position_in` skips them.
            chunk.fill(PackedValue::NONE);
            let first = (start + k * CHUNK) as u64;
            game.for_each_position_in(first..first + chunk.len() as u64, |index, position| {
                chunk[(index - first) as usize] = evaluate(game, index, position, &solved);
            });
        };
        if current.len() > CHUNK {
            current.par_chunks_mut(CHUNK).enumerate().for_each(sweep);
        } else {
            sweep((0, current));
        }
        done += layer.end - layer.start;
        report(progress, "layers", done, size as u64);
    });
    if let Some(i) = values.iter().position(|&v| v == UNSOLVED) {
        panic!("index {i} is in no layer: the game breaks the Layered invariant");
    }
    Solution::from_packed(values)
}

/// The value of one position from its children's solved values.
fn evaluate<G: Layered>(
    game: &G,
    index: u64,
    position: G::Position,
    solved: &impl Fn(u64) -> PackedValue,
) -> PackedValue {
    if let Some(outcome) = game.terminal(&position) {
        return PackedValue::pack(outcome.value());
    }
    let mut best: Option<Value> = None;
    game.for_each_child(&position, |child| {
        // A terminal child is valued by the rules: it may have no index.
        if let Some(outcome) = game.terminal(&child) {
            best = best.max(Some(outcome.value().parent_view()));
            return;
        }
        let child_index = game.index(&child);
        let Some(v) = solved(child_index).unpack() else {
            panic!("position {index} ({position:?}) has child {child_index} ({child:?}) not solved before it: the game breaks the Layered invariant");
        };
        best = best.max(Some(v.parent_view()));
    });
    PackedValue::pack(best.unwrap_or(Value::Loss(0)))
}
