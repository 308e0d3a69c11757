//! The state machine driven by actions, and the screen drawn on ratatui's test backend.

use super::action;
use super::state::{Action, Flow, Play, Player};
use super::ui;
use gsolve_analysis::{Analyzer, GameKind, Limits, Setup};
use gsolve_engine::Value;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::Terminal;

const HEXAPAWN: &str = "ppp/.../PPP w";

fn hexapawn() -> Setup {
    Setup::new(GameKind::Pawns, HEXAPAWN)
}

fn chase() -> Setup {
    Setup::new(GameKind::Chase, "1,1 3,3 w").with("size", "3")
}

fn queens() -> Setup {
    Setup::new(GameKind::QueensCase, "1,1 4,5 q").with("map", "Q...E/.##../..#../E...A")
}

fn snakes() -> Setup {
    Setup::new(GameKind::Snakes, "1../.../..2 1")
}

fn analyzer() -> Analyzer {
    Analyzer::new(Limits::default())
}

fn start(setup: &Setup, second: bool) -> Play {
    let analyzer = analyzer();
    let start = analyzer.analyze(setup).unwrap();
    Play::new(analyzer, start, second).unwrap()
}

fn step(play: &mut Play, action: Action) {
    assert_eq!(play.step(action).unwrap(), Flow::Continue);
}

/// Moves the selection to the move with this label.
fn select(play: &mut Play, label: &str) {
    for _ in 0..play.moves().len() {
        if play.selected_move().unwrap().label == label {
            return;
        }
        step(play, Action::Down);
    }
    panic!("no move {label} in {:?}", play.moves().iter().map(|m| &m.label).collect::<Vec<_>>());
}

/// The human plays `label`.
fn play_move(play: &mut Play, label: &str) {
    select(play, label);
    step(play, Action::Play);
}

/// The human plays the best move until the game is over; the plies played.
fn play_out(play: &mut Play) -> usize {
    let before = play.history().len();
    for _ in 0..200 {
        if play.over() {
            return play.history().len() - before;
        }
        let best = play.current().moves[0].label.clone();
        play_move(play, &best);
    }
    panic!("the game did not end");
}

/// The screen as text, one line per row.
fn render(play: &Play) -> String {
    let mut terminal = Terminal::new(TestBackend::new(110, 30)).unwrap();
    terminal.draw(|frame| ui::draw(frame, play)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut text = String::new();
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            text.push_str(buffer.cell((x, y)).unwrap().symbol());
        }
        text.push('\n');
    }
    text
}

#[test]
fn the_computer_answers_a_human_move_with_the_best_move() {
    let mut play = start(&hexapawn(), false);
    assert_eq!(play.human(), "white");
    assert_eq!(play.computer(), "black");
    assert_eq!(play.history().len(), 1);
    play_move(&mut play, "(3,1)->(2,1)");
    let history = play.history();
    assert_eq!(history.len(), 3);
    assert_eq!(history[1].analysis.setup.position, "ppp/P../.PP b");
    assert_eq!(history[1].made_by, Some((Player::Human, "white", "(3,1)->(2,1)".to_string())));
    let reply = analyzer().analyze(&hexapawn().at("ppp/P../.PP b")).unwrap();
    let best = &reply.moves[0];
    assert_eq!(history[2].made_by, Some((Player::Computer, "black", best.label.clone())));
    assert_eq!(play.current().setup.position, best.position);
    assert!(play.human_to_move());
    assert!(!play.computer_to_move());
    assert_eq!(play.selected(), 0);
}

#[test]
fn the_computer_keeps_a_draw() {
    let mut play = start(&queens(), false);
    assert_eq!(play.current().value, Value::Win(6));
    play_move(&mut play, "(1,1)->(1,1)");
    assert_eq!(play.history().len(), 3);
    assert_eq!(play.current().value, Value::Draw);
}

#[test]
fn undo_goes_back_to_the_humans_previous_turn() {
    let mut play = start(&hexapawn(), false);
    play_move(&mut play, "(3,1)->(2,1)");
    let after_one = play.current().setup.position.clone();
    let label = play.moves()[0].label.clone();
    play_move(&mut play, &label);
    assert_eq!(play.history().len(), 5);
    step(&mut play, Action::Undo);
    assert_eq!(play.history().len(), 3);
    assert_eq!(play.current().setup.position, after_one);
    assert!(play.human_to_move());
    step(&mut play, Action::Undo);
    assert_eq!(play.history().len(), 1);
    assert_eq!(play.current().setup.position, HEXAPAWN);
    step(&mut play, Action::Undo);
    assert_eq!(play.history().len(), 1);
    assert_eq!(play.message(), "nothing to undo");
}

#[test]
fn undo_after_the_game_is_over() {
    let mut play = start(&snakes(), false);
    play_out(&mut play);
    assert!(play.over());
    let last_human_turn = play.history().iter().rposition(|s| s.analysis.to_move == "snake 1" && s.made_by.is_some());
    step(&mut play, Action::Undo);
    assert!(!play.over());
    assert!(play.human_to_move());
    assert_eq!(Some(play.history().len() - 1), last_human_turn);
}

#[test]
fn swapping_sides_makes_the_computer_move() {
    let mut play = start(&hexapawn(), false);
    step(&mut play, Action::Swap);
    assert_eq!(play.human(), "black");
    assert_eq!(play.history().len(), 2);
    let best = &analyzer().analyze(&hexapawn()).unwrap().moves[0];
    assert_eq!(play.history()[1].made_by, Some((Player::Computer, "white", best.label.clone())));
    assert_eq!(play.current().setup.position, best.position);
    assert_eq!(play.current().to_move, "black");
    step(&mut play, Action::Swap);
    assert_eq!(play.human(), "white");
    assert_eq!(play.history().len(), 3);
    assert_eq!(play.history()[2].made_by.as_ref().unwrap().1, "black");
    assert!(play.human_to_move());
}

#[test]
fn playing_second_lets_the_computer_open() {
    let mut play = start(&hexapawn(), true);
    assert_eq!(play.human(), "black");
    assert_eq!(play.history().len(), 2);
    assert_eq!(play.current().setup.position, "ppp/.P./P.P b");
    step(&mut play, Action::Undo);
    assert_eq!(play.history().len(), 2, "the computer's opening move stays");
    assert_eq!(play.message(), "nothing to undo");
}

#[test]
fn a_new_game_starts_over() {
    let mut play = start(&chase(), false);
    play_move(&mut play, "(1,1)->(1,2)");
    assert_eq!(play.history().len(), 3);
    step(&mut play, Action::NewGame);
    assert_eq!(play.history().len(), 1);
    assert_eq!(play.current().setup.position, "1,1 3,3 w");
    assert_eq!(play.human(), "white");
    // After a swap the human keeps the new side: the computer opens the new game.
    step(&mut play, Action::Swap);
    step(&mut play, Action::NewGame);
    assert_eq!(play.human(), "black");
    assert_eq!(play.history().len(), 2);
    assert_eq!(play.current().to_move, "black");
}

#[test]
fn selection_wraps_around() {
    let mut play = start(&hexapawn(), false);
    let labels: Vec<String> = play.moves().iter().map(|m| m.label.clone()).collect();
    // Board order, not best first: the list gives nothing away.
    assert_eq!(labels, ["(3,1)->(2,1)", "(3,2)->(2,2)", "(3,3)->(2,3)"]);
    assert_eq!(play.selected(), 0);
    step(&mut play, Action::Up);
    assert_eq!(play.selected(), 2);
    step(&mut play, Action::Down);
    assert_eq!(play.selected(), 0);
    for _ in 0..4 {
        step(&mut play, Action::Down);
    }
    assert_eq!(play.selected(), 1);
    assert_eq!(play.selected_move().unwrap().label, "(3,2)->(2,2)");
    step(&mut play, Action::Play);
    assert_eq!(play.selected(), 0, "the selection starts over after a move");
}

#[test]
fn hints_toggle() {
    let mut play = start(&hexapawn(), false);
    assert!(!play.hints());
    let screen = render(&play);
    assert!(screen.contains("(3,1)->(2,1)"), "{screen}");
    assert!(!screen.contains("loss in"), "{screen}");
    step(&mut play, Action::Hints);
    assert!(play.hints());
    let screen = render(&play);
    assert!(screen.contains("(3,2)->(2,2)  - loss in 6"), "{screen}");
    assert!(screen.contains("(3,1)->(2,1)  - loss in 4"), "{screen}");
    assert!(screen.contains("white: - loss in 6"), "{screen}");
    step(&mut play, Action::Hints);
    let screen = render(&play);
    assert!(!screen.contains("- loss in"), "{screen}");

    let mut play = start(&queens(), false);
    step(&mut play, Action::Hints);
    let screen = render(&play);
    assert!(screen.contains("(1,1)->(2,1)  + win in 6"), "{screen}");
    assert!(screen.contains("(1,1)->(1,1)  = draw"), "{screen}");
    assert!(screen.contains("(1,1)->(1,2)  = draw"), "{screen}");
}

#[test]
fn the_board_is_drawn_with_the_selected_move() {
    let mut play = start(&hexapawn(), false);
    let screen = render(&play);
    assert!(screen.contains(" ♟  ♟  ♟ "), "{screen}");
    assert!(screen.contains("[♙] ♙  ♙ "), "{screen}");
    assert!(screen.contains("(·) ·  · "), "{screen}");
    step(&mut play, Action::Glyphs);
    assert!(play.ascii());
    let screen = render(&play);
    assert!(screen.contains(" p  p  p "), "{screen}");
    assert!(screen.contains("[P] P  P "), "{screen}");
    assert!(screen.contains("(.) .  . "), "{screen}");
    assert!(!screen.contains('♙'), "{screen}");
    step(&mut play, Action::Down);
    let screen = render(&play);
    assert!(screen.contains(" P [P] P "), "{screen}");

    let play = start(&queens(), false);
    let screen = render(&play);
    assert!(screen.contains("♛"), "{screen}");
    assert!(screen.contains("♜"), "{screen}");
    assert!(screen.contains("█"), "{screen}");
    assert!(screen.contains("⌂"), "{screen}");
    assert!(screen.contains("queen to move   you: queen   computer: army"), "{screen}");
}

#[test]
fn hexapawn_ends_with_black_winning() {
    let mut play = start(&hexapawn(), false);
    assert_eq!(play_out(&mut play), 6);
    let outcome = play.outcome().unwrap();
    assert_eq!(outcome.winner, Some("black"));
    assert_eq!(outcome.human_won, Some(false));
    assert!(play.moves().is_empty());
    assert!(play.selected_move().is_none());
    let screen = render(&play);
    assert!(screen.contains("Game over"), "{screen}");
    assert!(screen.contains(&outcome.end), "{screen}");
    assert!(screen.contains("black wins: the computer wins"), "{screen}");
    assert!(screen.contains("no moves: the game is over"), "{screen}");
    step(&mut play, Action::Play);
    assert!(play.message().contains("the game is over"));
    step(&mut play, Action::Down);
    assert_eq!(play.history().len(), 7);
}

#[test]
fn snakes_end_with_the_human_winning() {
    let mut play = start(&snakes(), false);
    assert_eq!(play_out(&mut play), 5);
    let outcome = play.outcome().unwrap();
    assert_eq!(outcome.winner, Some("snake 1"));
    assert_eq!(outcome.human_won, Some(true));
    assert!(outcome.end.starts_with("snake 2 is stuck"), "{}", outcome.end);
    let screen = render(&play);
    assert!(screen.contains("snake 1 wins: you win!"), "{screen}");
    assert!(screen.contains(&outcome.end), "{screen}");
}

#[test]
fn chase_ends_with_a_capture() {
    let mut play = start(&chase(), false);
    assert_eq!(play_out(&mut play), 6);
    let outcome = play.outcome().unwrap();
    assert_eq!(outcome.winner, Some("black"));
    assert!(outcome.end.starts_with("black captures"), "{}", outcome.end);
    let screen = render(&play);
    assert!(screen.contains("✖"), "{screen}");
    assert!(screen.contains("Game over"), "{screen}");
    // A new game after the end.
    step(&mut play, Action::NewGame);
    assert!(play.outcome().is_none());
    assert!(!render(&play).contains("Game over"));
}

#[test]
fn quit() {
    let mut play = start(&hexapawn(), false);
    assert_eq!(play.step(Action::Quit).unwrap(), Flow::Quit);
}

#[test]
fn keys() {
    let key = |code| action(KeyEvent::new(code, KeyModifiers::NONE));
    assert_eq!(key(KeyCode::Up), Some(Action::Up));
    assert_eq!(key(KeyCode::Left), Some(Action::Up));
    assert_eq!(key(KeyCode::Char('k')), Some(Action::Up));
    assert_eq!(key(KeyCode::Down), Some(Action::Down));
    assert_eq!(key(KeyCode::Right), Some(Action::Down));
    assert_eq!(key(KeyCode::Char('j')), Some(Action::Down));
    assert_eq!(key(KeyCode::Enter), Some(Action::Play));
    assert_eq!(key(KeyCode::Char('u')), Some(Action::Undo));
    assert_eq!(key(KeyCode::Char('s')), Some(Action::Swap));
    assert_eq!(key(KeyCode::Char('n')), Some(Action::NewGame));
    assert_eq!(key(KeyCode::Char('h')), Some(Action::Hints));
    assert_eq!(key(KeyCode::Char('g')), Some(Action::Glyphs));
    assert_eq!(key(KeyCode::Char('q')), Some(Action::Quit));
    assert_eq!(key(KeyCode::Esc), Some(Action::Quit));
    assert_eq!(key(KeyCode::Char('x')), None);
    assert_eq!(action(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)), Some(Action::Quit));
    let mut release = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    release.kind = KeyEventKind::Release;
    assert_eq!(action(release), None);
}
