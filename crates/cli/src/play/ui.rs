//! Drawing the game: the board, the move list, the status and the keys.

use super::state::{Play, Player};
use gsolve_analysis::{Board, GameKind, MoveInfo};
use gsolve_engine::Value;
use gsolve_games::notation::Coord;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;

/// Characters a cell takes on screen.
const CELL: u16 = 3;

/// The keys, on the last line.
pub const HELP: &str = "↑↓/jk select  Enter play  h hints  u undo  s swap sides  n new game  g ASCII/Unicode  q quit";

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, play: &Play) {
    let [title, main, status, help] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(5), Constraint::Length(6), Constraint::Length(1)])
            .areas(frame.area());
    let now = play.current();
    let heading = format!(" gsolve play: {}  {}", now.setup.game.title(), now.setup.position);
    frame.render_widget(Paragraph::new(heading).bold(), title);

    let board_width = (now.board.cols as u16).saturating_mul(CELL).saturating_add(label_width(&now.board) + 2);
    let moves_width = label_column(play) as u16 + 22;
    let [board_area, moves_area] =
        Layout::horizontal([Constraint::Max(board_width.max(24)), Constraint::Length(moves_width.max(30))])
            .flex(Flex::Start)
            .areas(main);
    draw_board(frame, play, board_area);
    draw_moves(frame, play, moves_area);
    draw_status(frame, play, status);
    frame.render_widget(Paragraph::new(HELP).dim(), help);
}

/// A hint: the symbol readable without colour, and the colour.
pub fn hint(value: Value) -> (&'static str, Color) {
    match value {
        Value::Win(_) => ("+", Color::Green),
        Value::Tie(_) | Value::Draw => ("=", Color::Yellow),
        Value::Loss(_) => ("-", Color::Red),
    }
}

/// `+ win in 5`, `= draw`, `- loss in 4`.
pub fn hint_text(value: Value) -> String {
    format!("{} {value}", hint(value).0)
}

fn label_width(board: &Board) -> u16 {
    board.rows.to_string().len() as u16 + 1
}

/// A board character as drawn (Unicode or ASCII), and its style.
fn glyph(game: GameKind, c: char, ascii: bool) -> (char, Style) {
    let first = Style::new().fg(Color::White).add_modifier(Modifier::BOLD);
    let second = Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD);
    let floor = Style::new().fg(Color::DarkGray);
    let (unicode, style) = match (game, c) {
        (GameKind::Pawns, 'P') => ('♙', first),
        (GameKind::Pawns, 'p') => ('♟', second),
        (GameKind::Chase, 'W') => ('○', first),
        (GameKind::Chase, 'B') => ('●', second),
        (GameKind::QueensCase, 'Q') => ('♛', first),
        (GameKind::QueensCase, 'A') => ('♜', second),
        (GameKind::QueensCase, 'E') => ('⌂', Style::new().fg(Color::Green).add_modifier(Modifier::BOLD)),
        (GameKind::Snakes, '1') => ('1', first),
        (GameKind::Snakes, '2') => ('2', second),
        (_, 'X') => ('✖', Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD)),
        (GameKind::Snakes, '#') => ('▓', Style::new().fg(Color::Gray)),
        (_, '#') => ('█', Style::new().fg(Color::Gray)),
        (_, '.') => ('·', floor),
        (_, other) => (other, Style::new()),
    };
    (if ascii { c } else { unicode }, style)
}

/// The first of `visible` rows or columns out of `total` that keeps `focus` (1-based)
/// in view, near the middle.
fn window(total: u32, visible: u32, focus: u32) -> u32 {
    if visible >= total {
        return 0;
    }
    focus.saturating_sub(1).saturating_sub(visible / 2).min(total - visible)
}

fn draw_board(frame: &mut Frame, play: &Play, area: Rect) {
    let now = play.current();
    let board = &now.board;
    let game = now.setup.game;
    let block = Block::bordered().title(" board: [from] (to) ");
    let inner = block.inner(area);
    frame.render_widget(block, area);

    let selected = play.selected_move();
    let (from, to) = match selected {
        Some(m) => (Some(m.from), Some(m.to)),
        None => (None, None),
    };
    let label = label_width(board);
    let visible_cols = (inner.width.saturating_sub(label) / CELL) as u32;
    let visible_rows = inner.height.saturating_sub(1) as u32;
    let focus = to.unwrap_or(Coord { row: 1, col: 1 });
    let first_row = window(board.rows, visible_rows, focus.row);
    let first_col = window(board.cols, visible_cols, focus.col);
    let last_row = (first_row + visible_rows).min(board.rows);
    let last_col = (first_col + visible_cols).min(board.cols);

    let mut lines = Vec::new();
    let mut header = vec![Span::raw(" ".repeat(label as usize))];
    for col in first_col + 1..=last_col {
        let number = col.to_string();
        let number = &number[number.len().saturating_sub(CELL as usize - 1)..];
        header.push(Span::raw(format!("{number:^3}")).dim());
    }
    lines.push(Line::from(header));
    for row in first_row + 1..=last_row {
        let mut spans = vec![Span::raw(format!("{row:>w$} ", w = label as usize - 1)).dim()];
        for col in first_col + 1..=last_col {
            let here = Coord { row, col };
            let (c, style) = glyph(game, board.at(row, col), play.ascii());
            let (text, style) = if Some(here) == from {
                (format!("[{c}]"), style.bg(Color::Blue))
            } else if Some(here) == to {
                let target = match (play.hints(), selected) {
                    (true, Some(m)) => hint(m.value).1,
                    _ => Color::Cyan,
                };
                (format!("({c})"), style.bg(target))
            } else {
                (format!(" {c} "), style)
            };
            spans.push(Span::styled(text, style));
        }
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The width of the move labels' column: the longest label and two spaces.
fn label_column(play: &Play) -> usize {
    play.current().moves.iter().map(|m| m.label.chars().count()).max().unwrap_or(0) + 2
}

fn move_item(m: &MoveInfo, hints: bool, width: usize) -> ListItem<'static> {
    let mut spans = vec![Span::raw(format!("{:<width$}", m.label))];
    if hints {
        let (_, colour) = hint(m.value);
        spans.push(Span::styled(hint_text(m.value), Style::new().fg(colour).add_modifier(Modifier::BOLD)));
    }
    ListItem::new(Line::from(spans))
}

fn draw_moves(frame: &mut Frame, play: &Play, area: Rect) {
    let title = format!(" your moves ({}) ", play.human());
    let block = Block::bordered().title(title);
    if play.over() || !play.human_to_move() {
        let text = if play.over() { "no moves: the game is over" } else { "the computer is thinking…" };
        frame.render_widget(Paragraph::new(text).block(block), area);
        return;
    }
    let items: Vec<ListItem> =
        play.moves().into_iter().map(|m| move_item(m, play.hints(), label_column(play))).collect();
    let list = List::new(items)
        .block(block)
        .highlight_symbol("> ")
        .highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    let mut state = ListState::default().with_selected(Some(play.selected()));
    frame.render_stateful_widget(list, area, &mut state);
}

fn draw_status(frame: &mut Frame, play: &Play, area: Rect) {
    let now = play.current();
    let mut lines = Vec::new();
    let mut turn =
        vec![Span::raw(format!("{} to move   you: {}   computer: {}", now.to_move, play.human(), play.computer()))];
    if play.hints() {
        let (_, colour) = hint(now.value);
        turn.push(Span::raw(format!("   {}: ", now.to_move)));
        turn.push(Span::styled(hint_text(now.value), Style::new().fg(colour)));
    }
    lines.push(Line::from(turn));
    if let Some(step) = play.history().last() {
        if let Some((player, side, label)) = &step.made_by {
            let who = if *player == Player::Computer { "computer" } else { "you" };
            lines.push(Line::raw(format!("last move: {side} ({who}) {label}")));
        }
    }
    if let Some(outcome) = play.outcome() {
        let result = match (outcome.winner, outcome.human_won) {
            (Some(winner), Some(true)) => format!("{winner} wins: you win!"),
            (Some(winner), _) => format!("{winner} wins: the computer wins"),
            (None, _) => "a tie".to_string(),
        };
        let colour = if outcome.human_won == Some(true) { Color::Green } else { Color::Red };
        lines.push(Line::styled(format!("Game over: {}. {result}", outcome.end), Style::new().fg(colour).bold()));
    } else if play.computer_to_move() {
        lines.push(Line::raw("the computer is thinking…"));
    }
    if !play.message().is_empty() {
        lines.push(Line::raw(play.message().to_string()).italic());
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }).block(Block::bordered()), area);
}
