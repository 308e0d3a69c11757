//! Self-checks a game author runs in tests: they catch broken trait implementations
//! before a solver silently gives wrong values.

use crate::game::Unmoves;
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
    for i in 0..game.index_size() {
        let Some(p) = game.position(i) else { continue };
        assert_eq!(game.index(&p), i, "index(position({i})) != {i}");
        let terminal = game.terminal(&p).is_some();
        if !terminal {
            game.for_each_child(&p, |c| {
                if !game.terminals_indexed() && game.terminal(&c).is_some() {
                    return;
                }
                let ci = game.index(&c);
                // A game folded by symmetry keeps one position of c's class there.
                let kept = game.position(ci).expect("a child's index names a position");
                assert_eq!(game.index(&kept), ci, "index(position(index(c))) != index(c)");
                edges.entry((ci, i)).or_default().0 += 1;
            });
        }
        if game.terminals_indexed() || !terminal {
            let mut by_position = Vec::new();
            game.for_each_parent(&p, |q| by_position.push(game.index(&q)));
            for &q in &by_position {
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
    let mut bad: Vec<_> = edges.into_iter().filter(|(_, (a, b))| a != b).collect();
    bad.sort();
    match bad.first() {
        None => Ok(()),
        Some(&((child, parent), (by_moves, by_unmoves))) => Err(UnmoveMismatch { child, parent, by_moves, by_unmoves }),
    }
}
