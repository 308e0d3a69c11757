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
    let mut play = Play::new(std::sync::Arc::new(analyzer), start, second);
    play.settle().unwrap();
    play
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
    terminal.draw(|frame| ui::draw(frame, play, None)).unwrap();
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
    play_move(&mut play, "stay at (1,1)");
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
    let line_of = |screen: &str, label: &str| screen.lines().find(|l| l.contains(label)).unwrap_or("").to_string();
    assert!(line_of(&screen, "(3,2)->(2,2)").contains("- loss in 6"), "{screen}");
    assert!(line_of(&screen, "(3,1)->(2,1)").contains("- loss in 4"), "{screen}");
    assert!(screen.contains("white: - loss in 6"), "{screen}");
    step(&mut play, Action::Hints);
    let screen = render(&play);
    assert!(!screen.contains("- loss in"), "{screen}");

    let mut play = start(&queens(), false);
    step(&mut play, Action::Hints);
    let screen = render(&play);
    assert!(line_of(&screen, "(1,1)->(2,1)").contains("+ win in 6"), "{screen}");
    assert!(line_of(&screen, "stay at (1,1)").contains("= draw"), "{screen}");
    assert!(line_of(&screen, "(1,1)->(1,2)").contains("= draw"), "{screen}");
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

/// Breakthrough on 3×3 from a rules file, played to the end with perfect play on
/// both sides: the winner is the side the start's value names, the rules' title,
/// sides and letters on the screen.
#[test]
fn a_rules_game_is_played_like_a_built_in_one() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/rules/breakthrough.toml");
    let rules = gsolve_rules::Rules::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let analyzer = Analyzer::with_rules(Limits::default(), std::sync::Arc::new(rules));
    let start = analyzer.analyze(&Setup::new(GameKind::Rules, "BBB/.../WWW w")).unwrap();
    let (value, human) = (start.value, if start.value > Value::Draw { "the human" } else { "the computer" });
    let mut play = Play::new(std::sync::Arc::new(analyzer), start, false);
    play.settle().unwrap();
    let plies = play_out(&mut play);
    let outcome = play.outcome().unwrap();
    let winner = if matches!(value, Value::Win(_)) { "white" } else { "black" };
    assert_eq!(outcome.winner, Some(winner), "{}", outcome.end);
    assert_eq!(Some(plies as u32), value.remoteness(), "{human} wins as fast as it can");
    let screen = render(&play);
    assert!(screen.contains("gsolve play: Breakthrough"), "{screen}");
    assert!(screen.contains(&format!("{winner} wins")), "{screen}");
    assert!(screen.contains('B'), "{screen}");
}

/// While the start of a rules game is solved, the screen's title is the rules'
/// title, not "Rules file".
#[test]
fn the_waiting_screen_of_a_rules_game_has_its_title() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/rules/connect-4.toml");
    let rules = gsolve_rules::Rules::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let analyzer = Analyzer::with_rules(Limits::default(), std::sync::Arc::new(rules));
    let setup = Setup::new(GameKind::Rules, "......./......./......./......./......./....... r");
    let busy = ui::Busy { what: "the start position".into(), progress: None, elapsed: std::time::Duration::ZERO };
    let mut terminal = Terminal::new(TestBackend::new(110, 30)).unwrap();
    terminal.draw(|frame| ui::draw_waiting(frame, &analyzer, &setup, &busy)).unwrap();
    let buffer = terminal.backend().buffer();
    let first: String = (0..buffer.area.width).map(|x| buffer[(x, 0)].symbol().to_string()).collect();
    assert!(first.contains("gsolve play: Connect 4"), "{first}");
    assert!(!first.contains("Rules file"), "{first}");
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

/// The screen of a given size as text.
fn render_at(play: &Play, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| ui::draw(frame, play, None)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut text = String::new();
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            text.push_str(buffer[(x, y)].symbol());
        }
        text.push('\n');
    }
    text
}

#[test]
fn a_small_window_keeps_the_board_rows_and_every_key() {
    // Hexapawn on 60x15: the board scrolls, says which rows it shows, and the keys
    // wrap instead of being cut.
    let setup = Setup::new(GameKind::Pawns, "ppp/.../.../PPP w");
    let play = start(&setup, false);
    let screen = render_at(&play, 60, 15);
    for key in ui::KEYS {
        let first_word = key.split(' ').next_back().unwrap();
        assert!(screen.contains(first_word), "{key} missing:\n{screen}");
    }
    let big = Setup::new(GameKind::Chase, "1,1 9,9 w").with("size", "9");
    let play = start(&big, false);
    let screen = render_at(&play, 60, 15);
    assert!(screen.contains("rows 1-"), "a clipped board says what it shows:\n{screen}");
    assert!(screen.contains("of 9"), "{screen}");
    assert!(screen.contains("q quit"), "{screen}");
}

/// The board's rows as drawn: what follows the row number on each line of the
/// board's panel.
fn board_rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter_map(|line| {
            // Rows start with their number (these boards have fewer than ten rows);
            // the column numbers' line starts with blanks.
            let inner = line.strip_prefix('│').filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))?;
            let number_end = inner.find(|c: char| !c.is_ascii_digit())?;
            Some(inner[number_end..].split('│').next().unwrap_or("").to_string())
        })
        .collect()
}

#[test]
fn the_smallest_window_shows_every_cell_of_the_default_boards() {
    // At the minimum size, the 4x4 pawns start, the small Queen's Case map and the
    // 5x5 snakes board are drawn whole: every row, every cell of each row.
    let octapawn = Setup::new(GameKind::Pawns, "pppp/..../..../PPPP w");
    let snakes = GameKind::Snakes.example();
    for (setup, rows, cols) in [(octapawn, 4, 4), (queens(), 4, 5), (snakes, 5, 5)] {
        let play = start(&setup, false);
        let screen = render_at(&play, ui::MIN_WIDTH, ui::MIN_HEIGHT);
        let drawn = board_rows(&screen);
        assert_eq!(drawn.len(), rows, "{} rows drawn:\n{screen}", drawn.len());
        for row in &drawn {
            let cells = row.chars().filter(|c| !c.is_whitespace() && !"[]()".contains(*c)).count();
            assert!(cells >= cols, "a row lost cells ({row:?}):\n{screen}");
        }
    }
}

#[test]
fn the_help_lists_every_key_of_the_footer() {
    use clap::CommandFactory;
    let mut cli = crate::args::Cli::command();
    let help = cli.find_subcommand_mut("play").unwrap().render_long_help().to_string();
    for key in ui::KEYS {
        let name = key.split(' ').next().unwrap();
        // The footer draws the arrows; the help says "arrows or j/k".
        let needle = if name.starts_with('↑') { "j/k" } else { name };
        assert!(help.contains(&format!("{needle} ")), "{key} is not in play --help:\n{help}");
    }
}

#[test]
fn a_wide_window_shows_the_moves_played() {
    let mut play = start(&hexapawn(), false);
    play_move(&mut play, "(3,2)->(2,2)");
    let screen = render_at(&play, 140, 30);
    assert!(screen.contains("moves played"), "{screen}");
    assert!(screen.contains("white (you) (3,2)->(2,2)"), "{screen}");
}

#[test]
fn the_move_list_keeps_its_width_when_the_game_ends() {
    let mut play = start(&hexapawn(), false);
    let column = |screen: &str| {
        let line = screen.lines().find(|l| l.contains("your moves")).unwrap().to_string();
        line.find("your moves").unwrap()
    };
    let before = column(&render(&play));
    play_out(&mut play);
    assert!(play.over());
    let after = render(&play);
    assert_eq!(column(&after), before, "{after}");
}

#[test]
fn a_stay_reads_stay() {
    let play = start(&queens(), false);
    let labels: Vec<&str> = play.moves().iter().map(|m| m.label.as_str()).collect();
    assert!(labels.contains(&"stay at (1,1)"), "{labels:?}");
    assert!(!labels.iter().any(|l| l.contains("(1,1)->(1,1)")), "{labels:?}");
}

#[test]
fn a_move_waits_for_its_analysis() {
    let analyzer = analyzer();
    let start = analyzer.analyze(&hexapawn()).unwrap();
    let mut play = Play::new(std::sync::Arc::new(analyzer), start, false);
    assert!(play.wanted().is_none(), "the human moves first");
    play.apply(Action::Play);
    let pending = play.wanted().expect("the human's move waits for its analysis").clone();
    assert_eq!(pending.made_by.0, Player::Human);
    // Keys other than quit, hints and glyphs wait too.
    play.apply(Action::Undo);
    assert!(play.message().contains("solving"));
    let result = play.analyzer().analyze(&pending.setup);
    play.deliver(result).unwrap();
    let computer = play.wanted().expect("then the computer's answer").clone();
    assert_eq!(computer.made_by.0, Player::Computer);
    play.settle().unwrap();
    assert_eq!(play.history().len(), 3);
    assert!(play.human_to_move());
}

#[test]
fn snakes_bodies_are_drawn_apart_from_walls() {
    let setup = Setup::new(GameKind::Snakes, "1.#./..../.#.2 1");
    let mut play = start(&setup, false);
    play_move(&mut play, "(1,1)->(2,1)");
    // The human's old head is now snake 1's body, the computer's snake 2's.
    let position = &play.current().setup.position;
    assert!(position.starts_with('a'), "{position}");
    assert!(position.contains('b'), "{position}");
    assert_eq!(position.matches('#').count(), 2, "the walls stay walls: {position}");
    let screen = render(&play);
    assert!(screen.contains('▒'), "{screen}");
    play.apply(Action::Glyphs);
    assert!(render(&play).contains(" a "));
}

/// Dobutsu shogi from a rules file: the pieces in hand under the board, and a drop
/// played from the move list (`C*(4,1)`) takes the piece from the hand.
#[test]
fn hands_show_under_the_board_and_drops_are_played() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/rules/dobutsu.toml");
    let rules = gsolve_rules::Rules::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let analyzer = Analyzer::with_rules(Limits::default(), std::sync::Arc::new(rules));
    let start = analyzer.analyze(&Setup::new(GameKind::Rules, "l../.../.../..L s Cc")).unwrap();
    let mut play = Play::new(std::sync::Arc::new(analyzer), start, false);
    play.settle().unwrap();
    let screen = render(&play);
    assert!(screen.contains("hand: sente C gote c"), "{screen}");
    play_move(&mut play, "C*(4,1)");
    let screen = render(&play);
    // The computer has answered: sente's hand is empty now, gote's still holds c.
    assert!(screen.contains("sente (you) C*(4,1)") && screen.contains("hand: sente - gote c"), "{screen}");
}
