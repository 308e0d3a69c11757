//! Self-checks a game author runs in tests: they catch broken trait implementations
//! before a solver silently gives wrong values.

use crate::game::{first_look, FirstLook, Indexed, Unmoves};
use std::collections::HashMap;

/// A difference between what [`Game`] moves and [`Unmoves`] parents say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnmoveMismatch {
    /// The child position's index.
    pub child: u64,
    /// The parent position's index.
    pub parent: u64,
    /// How many moves of the parent lead to the child.
    pub by_moves: usize,
    /// How many times `for_each_parent(child)` yields the parent.
    pub by_unmoves: usize,
}

/// Checks the [`Unmoves`] invariant over the whole index (for small games).
/// Also checks that `index` and `position` are inverse on every position met, and
/// that [`Unmoves::for_each_parent_index`] gives the parents' indices.
/// For a game whose terminal positions are not all indexed
/// ([`crate::Indexed::terminals_indexed`] false), moves into terminal positions
/// and the parents of terminal positions are left out: retrograde uses neither.
pub fn unmoves_match_moves<G: Unmoves>(game: &G) -> Result<(), UnmoveMismatch> {
    // edges[(child, parent)] = (count by moves, count by unmoves)
    let mut edges: HashMap<(u64, u64), (usize, usize)> = HashMap::new();
    // A parent the rules value may be yielded or not: its edges are not counted.
    let valued_by_rules =
        |q: u64| game.position(q).is_some_and(|p| game.terminal(&p).is_none() && game.value_by_rules(&p).is_some());
    for i in 0..game.index_size() {
        let Some(p) = game.position(i) else { continue };
        assert_eq!(game.index(&p), i, "index(position({i})) != {i}");
        let terminal = game.terminal(&p).is_some();
        // An indexed win by the rules ([`FirstLook::ByRules`]): retrograde
        // never asks its parents (none counts it), and its moves count as any
        // position's.
        let by_rules = !terminal && game.value_by_rules(&p).is_some();
        assert!(!by_rules || !game.terminals_indexed(), "value_by_rules of the indexed position {i}");
        if !terminal && !by_rules {
            game.for_each_child(&p, |c| {
                if !game.terminals_indexed() && game.value_by_rules(&c).is_some() {
                    return;
                }
                let ci = game.index(&c);
                // A game folded by symmetry keeps one position of c's class there.
                let kept = game.position(ci).expect("a child's index names a position");
                assert_eq!(game.index(&kept), ci, "index(position(index(c))) != index(c)");
                edges.entry((ci, i)).or_default().0 += 1;
            });
        }
        if game.terminals_indexed() || !terminal && !by_rules {
            let mut by_position = Vec::new();
            game.for_each_parent(&p, |q| by_position.push(game.index(&q)));
            for &q in by_position.iter().filter(|&&q| !valued_by_rules(q)) {
                edges.entry((i, q)).or_default().1 += 1;
            }
            // The parents' indices straight from the child's index: the same ones.
            let mut by_index = Vec::new();
            game.for_each_parent_index(i, |q| by_index.push(q));
            by_position.sort_unstable();
            by_index.sort_unstable();
            assert_eq!(by_index, by_position, "for_each_parent_index({i}) differs from for_each_parent");
        }
    }
    if let Err(index) = values_by_rules_hold(game) {
        panic!(
            "value_by_rules says a win in 1 at a child of {index} where no move ends the game lost for the opponent"
        );
    }
    if let Err((index, by_game, by_default)) = first_looks_match(game) {
        panic!("for_each_first_look_in gives {by_game:?} at {index}, the default {by_default:?}");
    }
    let mut bad: Vec<_> = edges.into_iter().filter(|(_, (a, b))| a != b).collect();
    bad.sort();
    match bad.first() {
        None => Ok(()),
        Some(&((child, parent), (by_moves, by_unmoves))) => Err(UnmoveMismatch { child, parent, by_moves, by_unmoves }),
    }
}

/// Checks [`Indexed::value_by_rules`] on every indexed position and every
/// child of one: a value of remoteness 0 exactly for terminal positions, and
/// otherwise at most a win in 1 that a move makes good (a child terminal and
/// lost for its side to move). The first position whose own value or a
/// child's breaks it, as `Err(index)`.
pub fn values_by_rules_hold<G: Indexed>(game: &G) -> Result<(), u64> {
    use crate::value::Value;
    let holds = |c: &G::Position| {
        let terminal = game.terminal(c);
        match game.value_by_rules(c) {
            None => terminal.is_none(),
            Some(Value::Win(1)) if terminal.is_none() => {
                let mut wins = false;
                game.for_each_child(c, |g| wins |= game.terminal(&g) == Some(crate::Outcome::Loss));
                wins
            }
            Some(value) => terminal.map(|o| o.value()) == Some(value),
        }
    };
    for i in 0..game.index_size() {
        let Some(p) = game.position(i) else { continue };
        if game.terminal(&p).is_some() {
            continue;
        }
        let mut ok = holds(&p);
        game.for_each_child(&p, |c| ok &= holds(&c));
        if !ok {
            return Err(i);
        }
    }
    Ok(())
}

/// Checks [`Indexed::for_each_first_look_in`] against its default ([`first_look`]
/// of each decoded position) over the whole index, in ranges of a few sizes and
/// starts (a game may share work between neighbouring indices): the first
/// difference as (index, the game's look, the default's), a look the default has
/// no position for as `None`.
#[allow(clippy::type_complexity)]
pub fn first_looks_match<G: Indexed>(game: &G) -> Result<(), (u64, Option<FirstLook>, Option<FirstLook>)> {
    let size = game.index_size();
    let mut wanted: Vec<Option<FirstLook>> = vec![None; size as usize];
    game.for_each_position_in(0..size, |index, position| wanted[index as usize] = Some(first_look(game, &position)));
    for step in [size.max(1), 7, 2, 1] {
        let mut got: Vec<Option<FirstLook>> = vec![None; size as usize];
        let mut start = (step / 2).min(size);
        let mut ranges = Vec::new();
        ranges.push(0..start);
        while start < size {
            ranges.push(start..(start + step).min(size));
            start += step;
        }
        for range in ranges {
            let mut last = None;
            game.for_each_first_look_in(range.clone(), |index, look| {
                assert!(range.contains(&index) && last < Some(index), "index {index} out of order or range");
                last = Some(index);
                got[index as usize] = Some(look);
            });
        }
        if let Some(i) = (0..size as usize).find(|&i| got[i] != wanted[i]) {
            return Err((i as u64, got[i], wanted[i]));
        }
    }
    Ok(())
}
