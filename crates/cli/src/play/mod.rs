//! `gsolve play`: a terminal game against perfect play (ratatui).
//!
//! [`state`] is the game as a pure state machine, [`ui`] draws it; this module sets
//! up the terminal, reads keys and restores the terminal however the game ends.

mod state;
#[cfg(test)]
mod tests;
mod ui;

use crate::analyze::{analyzer, failure, setup};
use crate::{Failure, PlayArgs};
use gsolve_analysis::Limits;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::DefaultTerminal;
use state::{Action, Flow, Play};
use std::io::IsTerminal;

pub fn run(args: &PlayArgs) -> Result<(), Failure> {
    // Bad input is reported before the terminal is looked at.
    let setup = setup(&args.setup)?;
    let analyzer = analyzer(args.setup.tablebase.as_ref(), Limits::default())?;
    let start = analyzer.analyze(&setup).map_err(failure)?;
    if !std::io::stdout().is_terminal() {
        return Err(Failure::Input("gsolve play needs a terminal (standard output is not one)".into()));
    }
    let mut play = Play::new(analyzer, start, args.second).map_err(failure)?;
    let mut screen = Screen::start().map_err(terminal_error)?;
    screen.play(&mut play)
}

/// The key's action, if it has one.
fn action(key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    Some(match key.code {
        KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => Action::Quit,
        KeyCode::Up | KeyCode::Left | KeyCode::Char('k') => Action::Up,
        KeyCode::Down | KeyCode::Right | KeyCode::Char('j') => Action::Down,
        KeyCode::Enter | KeyCode::Char(' ') => Action::Play,
        KeyCode::Char('u') => Action::Undo,
        KeyCode::Char('s') => Action::Swap,
        KeyCode::Char('n') => Action::NewGame,
        KeyCode::Char('h') => Action::Hints,
        KeyCode::Char('g') => Action::Glyphs,
        KeyCode::Char('q') | KeyCode::Esc => Action::Quit,
        _ => return None,
    })
}

fn terminal_error(e: std::io::Error) -> Failure {
    Failure::Other(anyhow::Error::new(e).context("terminal"))
}

/// The terminal in raw mode on the alternate screen; restored when dropped (also when
/// unwinding), and by ratatui's panic hook on a panic.
struct Screen {
    terminal: DefaultTerminal,
}

impl Screen {
    fn start() -> std::io::Result<Screen> {
        match ratatui::try_init() {
            Ok(terminal) => Ok(Screen { terminal }),
            Err(e) => {
                ratatui::restore();
                Err(e)
            }
        }
    }

    /// Reads keys until the user quits; draws the human's move before the computer
    /// thinks about its answer.
    fn play(&mut self, play: &mut Play) -> Result<(), Failure> {
        loop {
            self.terminal.draw(|frame| ui::draw(frame, play)).map_err(terminal_error)?;
            if play.computer_to_move() {
                play.computer_move().map_err(failure)?;
                continue;
            }
            let Event::Key(key) = event::read().map_err(terminal_error)? else { continue };
            let Some(action) = action(key) else { continue };
            if play.apply(action).map_err(failure)? == Flow::Quit {
                return Ok(());
            }
        }
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        ratatui::restore();
    }
}
