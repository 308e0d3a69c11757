//! How play ends in a game that passes or ends in a score, compiled for a
//! board: the score counted for the side to move, and the endings that need
//! the moves of both sides (neither can move) or the count (a full board that
//! the score decides).
//!
//! Why apart from [`crate::compiled::endings`]: those endings are read from the
//! piece list alone for every position of a solve; these need the moves, and
//! only games that pass or score pay for them.

use crate::compiled::position::{cell_of, group_of, RulesPosition};
use crate::language::spec::{Ending, Rules, ScoreCount, ScoredEnd};
use gsolve_engine::Outcome;
use std::cmp::Ordering;

/// What ends play: an outcome, or the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EndResult {
    /// This result for the side to move.
    Outcome(Outcome),
    /// The score decides.
    Score,
}

/// Passes, the score and the endings that read them.
#[derive(Clone, Debug)]
pub(crate) struct PlayEnd {
    /// A side with no legal move passes.
    pub(crate) pass: bool,
    /// Empty cells go to the winner.
    empty_to_winner: bool,
    /// A full board ends play, the score deciding.
    full_scored: bool,
    /// Neither side having a move ends play so.
    no_moves: Option<EndResult>,
    /// A game with a score that does not pass: a side without a move ends
    /// play, the score deciding.
    stuck_scored: bool,
    /// Playable cells.
    cells: usize,
}

impl PlayEnd {
    /// The play ends of `rules` on a board of `cells` playable cells; `None` for
    /// a game that neither passes nor scores.
    pub(crate) fn new(rules: &Rules, cells: usize) -> Option<PlayEnd> {
        if !rules.pass && rules.score.is_none() {
            return None;
        }
        let mut full_scored = false;
        let mut no_moves = None;
        for ending in &rules.endings {
            match ending {
                Ending::Scored { when: ScoredEnd::Full } => full_scored = true,
                Ending::Scored { when: ScoredEnd::NoMoves } => no_moves = Some(EndResult::Score),
                Ending::NoMoves { result } => no_moves = Some(EndResult::Outcome(*result)),
                _ => {}
            }
        }
        let empty_to_winner = rules.score.as_ref().is_some_and(|s| s.empty_to_winner);
        if let Some(score) = &rules.score {
            match score.count {
                ScoreCount::Pieces => {}
            }
        }
        let stuck_scored = rules.score.is_some() && !rules.pass;
        Some(PlayEnd { pass: rules.pass, empty_to_winner, full_scored, no_moves, stuck_scored, cells })
    }

    /// Does a full board end play (the score deciding)?
    #[inline]
    pub(crate) fn full_scored(&self) -> bool {
        self.full_scored
    }

    /// Does a side without a move end play, the score deciding (a game with a
    /// score that does not pass)?
    #[inline]
    pub(crate) fn stuck_scored(&self) -> bool {
        self.stuck_scored
    }

    /// What ends play when neither side can move, if that does.
    #[inline]
    pub(crate) fn no_moves(&self) -> Option<EndResult> {
        self.no_moves
    }

    /// The final margin of `p` for its side to move: its pieces less the
    /// opponent's, the empty cells added to the winner's where the rules say.
    pub(crate) fn margin<const N: usize>(&self, group_side: &[usize], p: &RulesPosition<N>) -> i32 {
        let to_move = p.to_move();
        let mut counts = [0i32; 2];
        let mut taken = 0u128;
        for &q in p.packed() {
            counts[group_side[group_of(q)]] += 1;
            taken |= 1 << (cell_of(q) & 127);
        }
        let margin = counts[to_move] - counts[1 - to_move];
        if self.empty_to_winner {
            let empty = self.cells as i32 - taken.count_ones() as i32;
            margin + margin.signum() * empty
        } else {
            margin
        }
    }

    /// The outcome of a finished position whose end is `result`.
    pub(crate) fn outcome<const N: usize>(
        &self,
        result: EndResult,
        group_side: &[usize],
        p: &RulesPosition<N>,
    ) -> Outcome {
        match result {
            EndResult::Outcome(outcome) => outcome,
            EndResult::Score => match self.margin(group_side, p).cmp(&0) {
                Ordering::Greater => Outcome::Win,
                Ordering::Less => Outcome::Loss,
                Ordering::Equal => Outcome::Tie,
            },
        }
    }
}
