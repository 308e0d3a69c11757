//! Parents for games that only know their moves: the reverse move graph, built in
//! memory from forward moves, so that such a game still gets retrograde analysis.

use crate::game::{Game, Indexed, Unmoves};
use crate::progress::{report, Observer};
use crate::value::Outcome;

/// A game wrapped with its reverse move graph (compressed sparse rows by child index).
///
/// Memory: 8 bytes per index plus 8 bytes per move of the whole game.
pub struct ReverseGraph<'g, G> {
    game: &'g G,
    /// Parents of child `i` are `parents[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u64>,
    parents: Vec<u64>,
}

impl<'g, G: Indexed> ReverseGraph<'g, G> {
    /// Enumerates every move of every indexed position twice (count, then fill).
    pub fn build(game: &'g G, progress: Option<Observer<'_>>) -> Self {
        let size = usize::try_from(game.index_size()).expect("index fits in memory");
        let for_each_edge = |f: &mut dyn FnMut(u64, u64)| {
            for parent in 0..size as u64 {
                if let Some(p) = game.position(parent) {
                    if game.terminal(&p).is_none() {
                        game.for_each_child(&p, |c| {
                            // Children of such games the rules value are valued from them.
                            if game.terminals_indexed() || game.value_by_rules(&c).is_none() {
                                f(parent, game.index(&c))
                            }
                        });
                    }
                }
                if parent % (1 << 16) == 0 {
                    report(progress, "reverse graph", parent, size as u64);
                }
            }
        };
        let mut offsets = vec![0u64; size + 1];
        for_each_edge(&mut |_, child| offsets[child as usize + 1] += 1);
        for i in 0..size {
            offsets[i + 1] += offsets[i];
        }
        let mut cursor = offsets.clone();
        let mut parents = vec![0u64; offsets[size] as usize];
        for_each_edge(&mut |parent, child| {
            let slot = &mut cursor[child as usize];
            parents[*slot as usize] = parent;
            *slot += 1;
        });
        ReverseGraph { game, offsets, parents }
    }
}

impl<G: Game> Game for ReverseGraph<'_, G> {
    type Position = G::Position;
    type Move = G::Move;

    fn terminal(&self, position: &Self::Position) -> Option<Outcome> {
        self.game.terminal(position)
    }
    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>) {
        self.game.moves(position, moves)
    }
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position {
        self.game.play(position, mv)
    }
    fn for_each_child(&self, position: &Self::Position, f: impl FnMut(Self::Position)) {
        self.game.for_each_child(position, f)
    }
    fn move_count(&self, position: &Self::Position) -> usize {
        self.game.move_count(position)
    }
}

impl<G: Indexed> Indexed for ReverseGraph<'_, G> {
    fn terminals_indexed(&self) -> bool {
        self.game.terminals_indexed()
    }
    fn value_by_rules(&self, position: &Self::Position) -> Option<crate::Value> {
        self.game.value_by_rules(position)
    }
    fn index_size(&self) -> u64 {
        self.game.index_size()
    }
    fn index(&self, position: &Self::Position) -> u64 {
        self.game.index(position)
    }
    fn position(&self, index: u64) -> Option<Self::Position> {
        self.game.position(index)
    }
}

impl<G: Indexed> Unmoves for ReverseGraph<'_, G> {
    fn for_each_parent(&self, position: &Self::Position, mut f: impl FnMut(Self::Position)) {
        let i = self.game.index(position) as usize;
        for &parent in &self.parents[self.offsets[i] as usize..self.offsets[i + 1] as usize] {
            f(self.game.position(parent).expect("parents are positions"));
        }
    }

    /// The stored indices, without decoding a position.
    fn for_each_parent_index(&self, index: u64, mut f: impl FnMut(u64)) {
        let i = index as usize;
        self.parents[self.offsets[i] as usize..self.offsets[i + 1] as usize].iter().for_each(|&parent| f(parent));
    }
}
