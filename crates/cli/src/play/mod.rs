//! `gsolve play`: a terminal game against perfect play (ratatui).
//!
//! [`state`] is the game as a pure state machine, [`ui`] draws it; this module sets
//! up the terminal, reads keys and restores the terminal however the game ends.

mod state;
#[cfg(test)]
mod tests;
mod ui;

use crate::analyze::{analyzer, setup};
use crate::args::PlayArgs;
use crate::failure::Failure;
use gsolve_analysis::{Analysis, AnalysisError, Analyzer, Limits, Setup};
use gsolve_engine::Progress;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::{DefaultTerminal, Frame};
use state::{Action, Flow, Play, Player};
use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use ui::Busy;

/// How long an analysis may run before the screen says it is solving: quicker ones
/// show nothing.
const QUIET_FOR: Duration = Duration::from_millis(150);
/// How often the screen is redrawn while solving.
const REDRAW_EVERY: Duration = Duration::from_millis(100);

pub fn run(args: &PlayArgs) -> Result<(), Failure> {
    // Bad input is reported before the terminal is looked at.
    let given = &args.setup;
    let analyzer =
        Arc::new(analyzer(given.tablebase.as_ref(), given.rules.as_ref(), given.book.as_ref(), Limits::default())?);
    let setup = setup(&args.setup, &analyzer)?;
    let setup = analyzer.check(&setup).map_err(Failure::from)?;
    if !std::io::stdout().is_terminal() {
        return Err(Failure::Input("gsolve play needs a terminal (standard output is not one)".into()));
    }
    let mut screen = Screen::start().map_err(terminal_error)?;
    let solved = screen.solve(&analyzer, &setup, "the start position", |frame, busy| {
        ui::draw_waiting(frame, &analyzer, &setup, busy)
    })?;
    let Some(start) = solved else { return Ok(()) };
    let start = start.map_err(Failure::from)?;
    let mut play = Play::new(analyzer, start, args.second);
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
    /// thinks about its answer, and every analysis that takes a while with its
    /// progress.
    fn play(&mut self, play: &mut Play) -> Result<(), Failure> {
        loop {
            if let Some(pending) = play.wanted() {
                let setup = pending.setup.clone();
                let what = match pending.made_by.0 {
                    Player::Computer => "the computer's move".to_string(),
                    Player::Human => format!("your move {}", pending.made_by.2),
                };
                let analyzer = play.analyzer().clone();
                let solved = self.solve(&analyzer, &setup, &what, |frame, busy| ui::draw(frame, play, Some(busy)))?;
                let Some(result) = solved else { return Ok(()) };
                play.deliver(result).map_err(Failure::from)?;
                continue;
            }
            self.terminal.draw(|frame| ui::draw(frame, play, None)).map_err(terminal_error)?;
            let Event::Key(key) = event::read().map_err(terminal_error)? else { continue };
            let Some(action) = action(key) else { continue };
            if play.apply(action) == Flow::Quit {
                return Ok(());
            }
        }
    }

    /// Analyses `setup` on another thread, drawing `draw` with the progress while it
    /// runs. `None` when the user quits meanwhile (the analysis is abandoned: the
    /// process is about to end).
    fn solve(
        &mut self,
        analyzer: &Arc<Analyzer>,
        setup: &Setup,
        what: &str,
        draw: impl Fn(&mut Frame, &Busy),
    ) -> Result<Option<Result<Analysis, AnalysisError>>, Failure> {
        let latest: Arc<Mutex<Option<Progress>>> = Arc::default();
        let (sender, receiver) = mpsc::channel();
        {
            let (analyzer, setup, latest) = (analyzer.clone(), setup.clone(), latest.clone());
            std::thread::spawn(move || {
                let observe = |p| *latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(p);
                let _ = sender.send(analyzer.analyze_with_progress(&setup, Some(&observe)));
            });
        }
        let started = Instant::now();
        let mut wait = QUIET_FOR;
        loop {
            match receiver.recv_timeout(wait) {
                Ok(result) => return Ok(Some(result)),
                Err(RecvTimeoutError::Disconnected) => {
                    return Ok(Some(Err(AnalysisError::Internal("the analysis stopped without an answer".into()))))
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            wait = REDRAW_EVERY;
            let busy = Busy {
                what: what.to_string(),
                progress: *latest.lock().unwrap_or_else(|e| e.into_inner()),
                elapsed: started.elapsed(),
            };
            self.terminal.draw(|frame| draw(frame, &busy)).map_err(terminal_error)?;
            while event::poll(Duration::ZERO).map_err(terminal_error)? {
                if let Event::Key(key) = event::read().map_err(terminal_error)? {
                    if action(key) == Some(Action::Quit) {
                        return Ok(None);
                    }
                }
            }
        }
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        ratatui::restore();
    }
}
