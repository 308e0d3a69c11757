//! The game against perfect play as a pure state machine: no terminal, only actions
//! and analyses.
//!
//! Analyses can take long (a large board's first search), so the machine never runs
//! one itself: it says which setup it needs analysed next ([`Play::wanted`]) and
//! takes the result when it comes ([`Play::deliver`]). The front end runs it where it
//! likes, drawing progress meanwhile; tests run it at once ([`Play::settle`]).

use gsolve_analysis::{Analysis, AnalysisError, Analyzer, GameKind, MoveInfo, Setup};
use gsolve_engine::Value;
use std::sync::Arc;

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Select the previous legal move (wrapping around).
    Up,
    /// Select the next legal move (wrapping around).
    Down,
    /// Play the selected move.
    Play,
    /// Take back moves up to the human's previous turn.
    Undo,
    /// Change sides: the computer takes the side to move.
    Swap,
    /// Back to the start position.
    NewGame,
    /// Show or hide every move's value.
    Hints,
    /// Draw the board with ASCII letters or with Unicode glyphs.
    Glyphs,
    /// Leave.
    Quit,
}

/// Whether to go on after an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep playing.
    Continue,
    /// The user quits.
    Quit,
}

/// Who made a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The person at the keyboard.
    Human,
    /// Perfect play.
    Computer,
}

/// A position reached, and the move that led to it.
#[derive(Clone, Debug)]
pub struct Step {
    /// The position's analysis.
    pub analysis: Analysis,
    /// Who played the move leading here, its side and its label; `None` at the start.
    pub made_by: Option<(Player, &'static str, String)>,
}

/// The side that is not `side` (as `Analysis::to_move` names them).
pub fn opponent(analyzer: &Analyzer, game: GameKind, side: &str) -> &'static str {
    let [a, b] = analyzer.sides(game);
    if side == a {
        b
    } else {
        a
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winning side, `None` for a tie.
    pub winner: Option<&'static str>,
    /// Whether the human won (`None` for a tie).
    pub human_won: Option<bool>,
    /// How it ended, in the game's words.
    pub end: String,
}

/// A move made whose position is being analysed.
#[derive(Clone, Debug)]
pub struct Pending {
    /// The position after the move.
    pub setup: Setup,
    /// Who made it, its side and its label.
    pub made_by: (Player, &'static str, String),
}

/// A game against perfect play.
pub struct Play {
    analyzer: Arc<Analyzer>,
    start: Analysis,
    history: Vec<Step>,
    human: &'static str,
    selected: usize,
    hints: bool,
    ascii: bool,
    message: String,
    pending: Option<Pending>,
}

impl Play {
    /// A game from the analysed start; the human takes the side to move, or the other
    /// one if `second` (the computer's first move is then [`Play::wanted`]).
    pub fn new(analyzer: Arc<Analyzer>, start: Analysis, second: bool) -> Play {
        let game = start.setup.game;
        let human = if second { opponent(&analyzer, game, start.to_move) } else { start.to_move };
        let mut play = Play {
            analyzer,
            history: vec![Step { analysis: start.clone(), made_by: None }],
            start,
            human,
            selected: 0,
            hints: false,
            ascii: false,
            message: format!("you play {human}"),
            pending: None,
        };
        play.computer_move();
        play
    }

    /// The analyzer every position of this game is analysed with.
    pub fn analyzer(&self) -> &Arc<Analyzer> {
        &self.analyzer
    }

    /// The setup whose analysis the game waits for, if any.
    pub fn wanted(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// Takes the analysis of [`Play::wanted`]: the move is made (and the computer's
    /// answer becomes wanted, if it is to move), or, if the analysis failed, not made.
    pub fn deliver(&mut self, result: Result<Analysis, AnalysisError>) -> Result<(), AnalysisError> {
        let Some(pending) = self.pending.take() else { return Ok(()) };
        let analysis = result?;
        self.history.push(Step { analysis, made_by: Some(pending.made_by) });
        self.selected = 0;
        self.computer_move();
        Ok(())
    }

    /// Runs every wanted analysis at once, on this thread.
    #[cfg(test)]
    pub fn settle(&mut self) -> Result<(), AnalysisError> {
        while let Some(pending) = self.wanted() {
            let result = self.analyzer.analyze(&pending.setup);
            self.deliver(result)?;
        }
        Ok(())
    }

    /// The position now.
    pub fn current(&self) -> &Analysis {
        &self.history.last().expect("the history starts with the start position").analysis
    }

    /// Every position played, the start first.
    pub fn history(&self) -> &[Step] {
        &self.history
    }

    /// The human's side.
    pub fn human(&self) -> &'static str {
        self.human
    }

    /// The computer's side.
    pub fn computer(&self) -> &'static str {
        opponent(&self.analyzer, self.current().setup.game, self.human)
    }

    /// Whether hints (every move's value) are shown.
    pub fn hints(&self) -> bool {
        self.hints
    }

    /// Whether the board is drawn in ASCII letters.
    pub fn ascii(&self) -> bool {
        self.ascii
    }

    /// The message of the last action.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The legal moves in board order (by the moving piece's cell, then the target):
    /// the order they are listed in, which gives nothing away when hints are off.
    pub fn moves(&self) -> Vec<&MoveInfo> {
        let mut moves: Vec<&MoveInfo> = self.current().moves.iter().collect();
        moves.sort_by_key(|m| (m.from.row, m.from.col, m.to.row, m.to.col));
        moves
    }

    /// The index of the selected move in [`Play::moves`].
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// The selected move, when the human has moves.
    pub fn selected_move(&self) -> Option<&MoveInfo> {
        if self.over() || !self.human_to_move() {
            return None;
        }
        self.moves().get(self.selected).copied()
    }

    /// Whether the game is over (the side to move has no move).
    pub fn over(&self) -> bool {
        self.current().moves.is_empty()
    }

    /// Whether it is the human's turn (the game may be over) and no move waits for
    /// its analysis.
    pub fn human_to_move(&self) -> bool {
        self.current().to_move == self.human && self.pending.is_none()
    }

    /// Whether the computer is to move in a game that goes on.
    pub fn computer_to_move(&self) -> bool {
        !self.over() && self.current().to_move != self.human
    }

    /// Who won and how, when the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        let now = self.current();
        let winner = match now.value {
            Value::Win(_) => Some(now.to_move),
            Value::Loss(_) => Some(opponent(&self.analyzer, now.setup.game, now.to_move)),
            Value::Tie(_) | Value::Draw => None,
        };
        Some(Outcome {
            winner,
            human_won: winner.map(|w| w == self.human),
            end: now.end.clone().unwrap_or_else(|| format!("{} has no move", now.to_move)),
        })
    }

    /// The action's effect on the human's side of the game; the computer's answer, if
    /// it is then to move, is [`Play::computer_move`] (so that a front end can draw the
    /// human's move first).
    pub fn apply(&mut self, action: Action) -> Flow {
        let count = self.moves().len();
        if self.pending.is_some() && action != Action::Quit && action != Action::Hints && action != Action::Glyphs {
            self.message = "solving: wait for the answer, or q to quit".into();
            return Flow::Continue;
        }
        match action {
            Action::Up | Action::Down if count > 0 && self.human_to_move() => {
                self.selected = if action == Action::Up {
                    (self.selected + count - 1) % count
                } else {
                    (self.selected + 1) % count
                };
                self.message.clear();
            }
            Action::Up | Action::Down => {}
            Action::Play => match self.selected_move().cloned() {
                Some(chosen) => {
                    self.advance(Player::Human, &chosen);
                    self.message.clear();
                }
                None if self.over() => self.message = "the game is over: n for a new game, u to undo".into(),
                None => self.message = "it is not your turn".into(),
            },
            Action::Undo => {
                let last = self.history.len() - 1;
                match (0..last).rev().find(|&i| self.history[i].analysis.to_move == self.human) {
                    Some(i) => {
                        self.history.truncate(i + 1);
                        self.selected = 0;
                        self.message = "move taken back".into();
                    }
                    None => self.message = "nothing to undo".into(),
                }
            }
            Action::Swap => {
                self.human = self.computer();
                self.selected = 0;
                self.message = format!("you play {} now", self.human);
                self.computer_move();
            }
            Action::NewGame => {
                self.history = vec![Step { analysis: self.start.clone(), made_by: None }];
                self.selected = 0;
                self.message = format!("new game: you play {}", self.human);
                self.computer_move();
            }
            Action::Hints => {
                self.hints = !self.hints;
                self.message = if self.hints {
                    "hints on: + win, = draw, - loss for the side making the move".into()
                } else {
                    "hints off".into()
                };
            }
            Action::Glyphs => {
                self.ascii = !self.ascii;
                self.message = if self.ascii { "ASCII board" } else { "Unicode board" }.into();
            }
            Action::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    /// If the computer is to move, its best move (fastest win, slowest loss, a draw
    /// kept) becomes wanted.
    fn computer_move(&mut self) {
        if self.computer_to_move() && self.pending.is_none() {
            let best = self.current().moves[0].clone();
            self.advance(Player::Computer, &best);
        }
    }

    /// [`Play::apply`], then every analysis it wants: what a key press does.
    #[cfg(test)]
    pub fn step(&mut self, action: Action) -> Result<Flow, AnalysisError> {
        let flow = self.apply(action);
        self.settle()?;
        Ok(flow)
    }

    /// Asks for the position after `chosen` (the move is made when it comes).
    fn advance(&mut self, player: Player, chosen: &MoveInfo) {
        let now = self.current();
        let side = now.to_move;
        let setup = now.setup.at(chosen.position.clone());
        self.pending = Some(Pending { setup, made_by: (player, side, chosen.label.clone()) });
    }
}
