//! The remoteness of a margin already known: how many plies the game lasts when
//! both sides keep to the best margin and, among such lines, the winner ends as
//! fast as it can and the loser as late as it can (a level game: both as fast).
//!
//! Only moves that keep the margin matter: a position of margin m has children
//! of margin −m (the moves that keep it) and of margin above −m (worse for the
//! side to move, whatever their remoteness). A child's margin is at least −m, so
//! one null-window probe ("is it above −m?") tells which. Over the positions
//! these moves reach, the remoteness is a plain minimax:
//!
//! | margin m | remoteness                                                   |
//! |----------|--------------------------------------------------------------|
//! | over     | 0                                                            |
//! | m > 0    | 1 + the least of the children that keep the margin (win fast) |
//! | m = 0    | 1 + the least (both sides prefer a faster level game)        |
//! | m < 0    | 1 + the greatest (the loser holds out)                       |
//!
//! A pass is the one child, of margin −m. The level game is why this is not an
//! alpha-beta over [`gsolve_engine::ScoreValue::key`]: a faster tie is better
//! for both sides, which no decreasing map of keys says (the engine's search
//! has a step of its own for it); here the minimax over kept margins needs no
//! such step. Each position's remoteness is remembered for the call, so each is
//! found once however many lines reach it.

use super::{cells, FlipSearch, OutOfBudget, Run};
use std::collections::HashMap;

impl FlipSearch {
    /// The remoteness of a position whose margin is `margin`.
    pub(super) fn remoteness(
        &self,
        run: &mut Run<'_>,
        mine: u64,
        theirs: u64,
        margin: i32,
    ) -> Result<u32, OutOfBudget> {
        let mut memo = HashMap::new();
        self.kept(run, &mut memo, mine, theirs, margin)
    }

    fn kept(
        &self,
        run: &mut Run<'_>,
        memo: &mut HashMap<(u64, u64), u32>,
        mine: u64,
        theirs: u64,
        margin: i32,
    ) -> Result<u32, OutOfBudget> {
        if let Some(&r) = memo.get(&(mine, theirs)) {
            return Ok(r);
        }
        let moves = self.moves(mine, theirs);
        let r = if moves == 0 {
            if self.moves(theirs, mine) == 0 {
                debug_assert_eq!(self.final_margin(mine, theirs), margin);
                0
            } else {
                1 + self.kept(run, memo, theirs, mine, -margin)?
            }
        } else {
            let mut best: Option<u32> = None;
            for cell in cells(moves) {
                let (cm, ct) = self.play(mine, theirs, cell);
                if self.probe_once(run, cm, ct, -margin)? > -margin {
                    continue;
                }
                let r = self.kept(run, memo, cm, ct, -margin)?;
                best = Some(match best {
                    None => r,
                    Some(b) if margin < 0 => b.max(r),
                    Some(b) => b.min(r),
                });
            }
            1 + best.expect("a position's margin is kept by one of its moves")
        };
        memo.insert((mine, theirs), r);
        Ok(r)
    }
}
