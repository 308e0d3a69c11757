//! An opening book's lines of play: the positions a game against gsolve's perfect
//! play passes through in its first plies, whichever side gsolve takes and
//! whatever its opponent plays (or, against a perfect opponent, whichever of its
//! best moves), with the value of every move of each of them, so
//! that `play` and `analyze` answer those positions at once.
//!
//! # Why lines, and not every position
//! An analysis shows the value of every move, so it needs the exact value of every
//! child of the position. A book of every position within k plies grows about
//! sevenfold a ply on Connect 4, and each position of its last ply is a search of
//! its own (the times in docs/performance.md, "Rules games: opening books"). In a game against
//! perfect play only the opponent's moves branch: at gsolve's turns one move is
//! played, so the positions analysed grow by the number of moves every *two*
//! plies, and a book reaches about twice as deep in the same time.
//!
//! # What it holds (named steps)
//! 1. **walk**: from the start, once with gsolve moving first and once second,
//!    every position reached before ply `plies` is analysed as `play` analyses
//!    it: the exact value of each move ([`gsolve_engine::line::move_values`]:
//!    the same list and order `play` takes its best move from). At gsolve's turns
//!    the walk goes on after the first move of that list, the move `play` makes;
//!    at the opponent's after every move ([`Opponent::Any`]), or after each move
//!    of the best value ([`Opponent::Perfect`]: the first of the list and those
//!    equal to it). A move that ends the game ends its line.
//!    The moves of a position are searched on every thread at once, each search
//!    on one thread: the position's value, known from the analysis before,
//!    bounds each of them (module `solver`, `Known`), so they do not wait on
//!    each other.
//! 2. **record**: the value of each position analysed and of each of its moves'
//!    positions that the game goes on from, by book key (a position and its mirror
//!    image share a key where the game looks the same in a mirror, as in module
//!    `book`; their values are equal).
//!
//! Every value is exact: it is the line search's, or the book's the walk starts
//! from (an earlier step). The walk does not fold mirror images: `play` on the
//! image of a position may choose the image of another best move, so both are
//! walked; the search's memory of exact values makes the second walk cheap.

use super::rules_game::RulesGame;
use crate::compiled::position::RulesPosition;
use crate::search::lines::book::{LinesOfPlay, Opponent};
use crate::search::lines::solver::MAX_THREADS;
use crate::search::lines::LineGame;
use gsolve_engine::{line, Game, Observer, Value, ValueLookup};
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};

/// Values for [`line::move_values`]: ended positions by the rules, the others by
/// the line search (with its book) on one thread with the small table of `slot`;
/// each value found is recorded by book key.
struct Recording<'a> {
    lines: &'a LineGame,
    slot: usize,
    found: RefCell<HashMap<u64, Value>>,
}

impl<const N: usize> ValueLookup<RulesGame<N>> for Recording<'_> {
    fn lookup(&self, game: &RulesGame<N>, p: &RulesPosition<N>) -> Option<Value> {
        if let Some(outcome) = game.terminal(p) {
            return Some(outcome.value());
        }
        let value = self.lines.value_on_slot(p, self.slot)?;
        if let Some(key) = self.lines.book_key(p) {
            self.found.borrow_mut().insert(key, value);
        }
        Some(value)
    }
}

/// Steps 1 and 2: the entries of the lines of play of `game` from `start` (not
/// ended) before ply `play.plies` against `play.opponent`, searched by `lines`
/// (the game's line search, with the book of earlier steps), by book key. The two walks (gsolve first,
/// gsolve second) run side by side, and each searches a position's moves on
/// every thread at once.
pub(crate) fn entries<const N: usize>(
    game: &RulesGame<N>,
    lines: &LineGame,
    start: &RulesPosition<N>,
    play: LinesOfPlay,
    observer: Option<Observer<'_>>,
) -> HashMap<u64, Value> {
    let analysed = AtomicU64::new(0);
    let walk = |gsolve: usize, slot: usize, observer: Option<Observer<'_>>| {
        walk(game, &Recording { lines, slot, found: RefCell::new(HashMap::new()) }, start, play, gsolve, &|| {
            let done = analysed.fetch_add(1, Ordering::Relaxed) + 1;
            gsolve_engine::progress::report(observer, "lines of play", done, 0);
        })
    };
    let first = start.to_move();
    let (mut found, second) = rayon::join(|| walk(first, 0, observer), || walk(1 - first, 1, None));
    found.extend(second);
    found
}

/// Step 1 and 2 for gsolve playing side `gsolve`: each position analysed (`done`
/// told of it), its moves' values recorded in `recording`; the values found.
fn walk<const N: usize>(
    game: &RulesGame<N>,
    recording: &Recording<'_>,
    start: &RulesPosition<N>,
    play: LinesOfPlay,
    gsolve: usize,
    done: &(dyn Fn() + Sync),
) -> HashMap<u64, Value> {
    // Depth first, so that each search finds in the table what its siblings'
    // searches stored.
    let mut seen: HashSet<RulesPosition<N>> = HashSet::new();
    let mut stack: Vec<(RulesPosition<N>, u32)> = vec![(*start, 0)];
    while let Some((p, ply)) = stack.pop() {
        if ply >= play.plies || !seen.insert(p) {
            continue;
        }
        // The moves' values first, on every thread (each child's search is
        // independent once the position's value bounds it), then listed as
        // `play` lists them, from what the search remembers.
        // The position's own value first (known, but for the start of a book
        // without plies): it bounds each move's search.
        recording.lines.value_on_slot(&p, recording.slot);
        let mut children = Vec::new();
        game.for_each_child(&p, |c| children.push(c));
        children.par_iter().filter(|c| game.terminal(c).is_none()).for_each(|c| {
            let slot = rayon::current_thread_index().unwrap_or(0) % MAX_THREADS;
            recording.lines.value_on_slot(c, slot);
        });
        let moves = line::move_values(game, recording, &p);
        if let (Some(best), Some(key)) = (moves.first(), recording.lines.book_key(&p)) {
            recording.found.borrow_mut().insert(key, best.value);
        }
        let goes_on = |m: &&line::MoveValue<RulesGame<N>>| game.terminal(&m.child).is_none();
        let followed = if p.to_move() == gsolve {
            moves.len().min(1)
        } else {
            match play.opponent {
                Opponent::Any => moves.len(),
                Opponent::Perfect => moves.iter().take_while(|m| m.value == moves[0].value).count(),
            }
        };
        let next = &moves[..followed];
        stack.extend(next.iter().filter(goes_on).map(|m| (m.child, ply + 1)));
        done();
    }
    recording.found.take()
}
