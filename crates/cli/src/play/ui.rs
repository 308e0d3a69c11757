//! Drawing the game: the board, the move list, the moves played, the status and the
//! keys, fitted to the window.
//!
//! ```text
//! ┌ title ───────────────────────────────────────────────────────────────┐
//! │ board (scrolls to the selected move)│ your moves (fixed width) │ moves played (what is left) │
//! │ status: whose turn, last move, the end or "solving …", a message     │
//! │ keys (on as many lines as the width needs)                            │
//! ```
//! The board comes first: when it does not fit beside the move list at three
//! characters a cell, its cells shrink to two (the selected move then shows by
//! colour alone, and by its label in the move list), the move list gives up its hint
//! column, and the column numbers go when the rows need the line; a board still too
//! big scrolls to keep the selected move in view and says which rows and columns it
//! shows. Below [`MIN_WIDTH`] × [`MIN_HEIGHT`] the screen only says how large it
//! must be.

use super::state::{Play, Player};
use crate::progress::describe;
use gsolve_analysis::catalog::CellRole;
use gsolve_analysis::{Analyzer, Board, GameKind, MoveInfo, Setup};
use gsolve_engine::{Progress, Value};
use gsolve_games::notation::Coord;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;
use std::time::Duration;

/// Characters a cell takes on screen, and in a window too small for that.
const CELL: u16 = 3;
const COMPACT_CELL: u16 = 2;

/// The narrowest move list: a label and the selection mark, no hint column.
const MIN_MOVES_WIDTH: u16 = 20;

/// The smallest window the game is drawn in.
pub const MIN_WIDTH: u16 = 40;
/// The smallest window height the game is drawn in.
pub const MIN_HEIGHT: u16 = 14;

/// The keys, as the footer lists them (and `gsolve play --help` too).
pub const KEYS: [&str; 8] =
    ["↑↓/jk select", "Enter play", "h hints", "u undo", "s swap sides", "n new game", "g ASCII/Unicode", "q quit"];

/// A width under which no history panel is drawn.
const MIN_HISTORY_WIDTH: u16 = 26;

/// An analysis under way: what is being solved, and its latest progress report.
pub struct Busy {
    /// What is solved, e.g. "the computer's answer".
    pub what: String,
    /// The solver's latest report.
    pub progress: Option<Progress>,
    /// Time since the analysis started.
    pub elapsed: Duration,
}

impl Busy {
    /// `solving the computer's answer … search: 3.07 M positions (…), 12 s`.
    fn line(&self) -> String {
        let mut text = format!("solving {} …", self.what);
        if let Some(p) = &self.progress {
            text.push(' ');
            text.push_str(&describe(p, self.elapsed));
        }
        text.push_str(&format!(" [{} s]", self.elapsed.as_secs()));
        text
    }
}

/// Whether the window is too small; if so, says so.
fn too_small(frame: &mut Frame) -> bool {
    let area = frame.area();
    if area.width >= MIN_WIDTH && area.height >= MIN_HEIGHT {
        return false;
    }
    let text = format!(
        "gsolve play needs a window of at least {MIN_WIDTH}x{MIN_HEIGHT}; this one is {}x{}. Enlarge it, or q to quit.",
        area.width, area.height
    );
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
    true
}

/// The keys laid out in as many lines as `width` needs.
fn key_lines(width: u16) -> Vec<String> {
    let mut lines: Vec<String> = vec![String::new()];
    for key in KEYS {
        let last = lines.last_mut().expect("one line at least");
        if !last.is_empty() && last.chars().count() + 2 + key.chars().count() > width as usize {
            lines.push(key.to_string());
        } else {
            if !last.is_empty() {
                last.push_str("  ");
            }
            last.push_str(key);
        }
    }
    lines
}

/// The screen while the start position is solved, before the game can be drawn;
/// the game's title as the analyzer gives it (a rules game's own).
pub fn draw_waiting(frame: &mut Frame, analyzer: &Analyzer, setup: &Setup, busy: &Busy) {
    if too_small(frame) {
        return;
    }
    let [title, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(frame.area());
    let heading = format!(" gsolve play: {}  {}", analyzer.title(setup.game), setup.position);
    frame.render_widget(Paragraph::new(heading).bold(), title);
    let text = vec![Line::raw(busy.line()), Line::raw("q quits").dim()];
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }).block(Block::bordered()), body);
}

/// Draws the whole screen; `busy` while an analysis runs.
pub fn draw(frame: &mut Frame, play: &Play, busy: Option<&Busy>) {
    if too_small(frame) {
        return;
    }
    let area = frame.area();
    let keys = key_lines(area.width);
    let status = status_lines(play, busy);
    // A border around the status only where the height allows it.
    let bordered = area.height >= 20;
    let status_height = status.len() as u16 + if bordered { 2 } else { 0 };
    let [title, main, status_area, help] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(5),
        Constraint::Length(status_height),
        Constraint::Length(keys.len() as u16),
    ])
    .areas(area);
    let now = play.current();
    let heading = format!(" gsolve play: {}  {}", play.analyzer().title(now.setup.game), now.setup.position);
    frame.render_widget(Paragraph::new(heading).bold(), title);

    let layout = BoardLayout::fit(&now.board, main.width);
    let board_width = layout.width;
    let moves_width = main.width.saturating_sub(board_width).min(moves_width(&now.board)).max(MIN_MOVES_WIDTH);
    let history_width = main.width.saturating_sub(board_width + moves_width);
    let mut columns = vec![Constraint::Length(board_width), Constraint::Length(moves_width)];
    if history_width >= MIN_HISTORY_WIDTH {
        columns.push(Constraint::Min(MIN_HISTORY_WIDTH));
    }
    let areas = Layout::horizontal(columns).flex(Flex::Start).split(main);
    draw_board(frame, play, areas[0], layout.cell);
    draw_moves(frame, play, areas[1], busy.is_some());
    if let Some(&history_area) = areas.get(2) {
        draw_history(frame, play, history_area);
    }
    let paragraph = Paragraph::new(status).wrap(Wrap { trim: true });
    let paragraph = if bordered { paragraph.block(Block::bordered()) } else { paragraph };
    frame.render_widget(paragraph, status_area);
    frame.render_widget(Paragraph::new(keys.join("\n")).dim(), help);
}

/// A hint: the symbol readable without colour, and the colour.
pub fn hint(value: Value) -> (&'static str, Color) {
    match value {
        Value::Win(_) => ("+", Color::Green),
        Value::Tie(_) | Value::Draw => ("=", Color::Yellow),
        Value::Loss(_) => ("-", Color::Red),
    }
}

/// `+ win in 5`, `= draw`, `- loss in 4`; in a game with a score (`score` its
/// margin) `+ win by 4 in 12`.
pub fn hint_text(value: Value, score: Option<i32>) -> String {
    format!("{} {}", hint(value).0, gsolve_analysis::print::shown(value, score))
}

fn label_width(board: &Board) -> u16 {
    board.rows.to_string().len() as u16 + 1
}

/// The widest move label a board can have: `(10,10)->(10,10)` or `stay at (10,10)`.
fn move_label_width(board: &Board) -> usize {
    let coord = board.rows.to_string().len() + board.cols.to_string().len() + 3;
    (2 * coord + 2).max(coord + 8)
}

/// The move list's width: the same for the whole game (labels, a hint, the border
/// and the selection mark), so that it does not jump as moves come and go.
fn moves_width(board: &Board) -> u16 {
    // Room for a margin too (`- loss by 64 in 60`): only games with a score
    // show one, and the panel keeps one width for every game.
    (move_label_width(board) + 2 + "- loss by 64 in 999".len() + 4) as u16
}

/// How the board is laid out in a window `available` characters wide: the cell
/// width, and the width of the board's panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BoardLayout {
    cell: u16,
    width: u16,
}

impl BoardLayout {
    fn fit(board: &Board, available: u16) -> BoardLayout {
        let panel = |cell: u16| (board.cols as u16).saturating_mul(cell).saturating_add(label_width(board) + 2);
        let room = available.saturating_sub(MIN_MOVES_WIDTH);
        // Full cells beside the whole move list, full cells beside a narrower list,
        // then two-character cells; a board wider than that scrolls.
        let cell = if panel(CELL) <= room { CELL } else { COMPACT_CELL };
        let width = panel(cell).max(24).min(room.max(label_width(board) + 2 + cell));
        BoardLayout { cell, width }
    }
}

/// A board character as drawn (Unicode or ASCII), and its style: the symbol the
/// catalog gives it ([`gsolve_analysis::catalog::Glyph`]) in the colour of its side
/// and role. `side`: the side a rules game's piece belongs to (the rules name its
/// letters).
fn glyph(game: GameKind, c: char, side: Option<usize>, ascii: bool) -> (char, Style) {
    let sides = [
        Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
        Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD),
    ];
    let floor = Style::new().fg(Color::DarkGray);
    let (unicode, style) = match (game.entry().glyph(c), side) {
        (Some(glyph), _) => {
            let style = match glyph.role {
                CellRole::Piece(s) => sides[s.min(1)],
                CellRole::Head(s) => sides[s.min(1)].bg(Color::DarkGray),
                // A trail: its head's colour, a lighter fill than a wall.
                CellRole::Trail(s) => Style::new().fg(sides[s.min(1)].fg.unwrap_or(Color::White)),
                CellRole::Goal => Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            };
            (glyph.symbol, style)
        }
        (None, Some(s)) => (c, sides[s.min(1)]),
        // The marks every board may have.
        (None, None) => match c {
            'X' => ('✖', Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD)),
            '#' => ('█', Style::new().fg(Color::Gray)),
            '.' => ('·', floor),
            other => (other, Style::new()),
        },
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

fn draw_board(frame: &mut Frame, play: &Play, area: Rect, cell: u16) {
    let now = play.current();
    let board = &now.board;
    let game = now.setup.game;
    let label = label_width(board);
    let inner_width = area.width.saturating_sub(2);
    let inner_height = area.height.saturating_sub(2);
    let visible_cols = ((inner_width.saturating_sub(label) / cell) as u32).clamp(1, board.cols);
    // The column numbers take a line only when every row fits beside them.
    let numbered = inner_height as u32 > board.rows;
    let visible_rows = (inner_height.saturating_sub(numbered as u16) as u32).clamp(1, board.rows);

    let selected = play.selected_move();
    let (from, to) = match selected {
        Some(m) => (Some(m.from), Some(m.to)),
        None => (None, None),
    };
    let focus = to.unwrap_or(Coord { row: 1, col: 1 });
    let first_row = window(board.rows, visible_rows, focus.row);
    let first_col = window(board.cols, visible_cols, focus.col);
    let last_row = (first_row + visible_rows).min(board.rows);
    let last_col = (first_col + visible_cols).min(board.cols);

    // Say which part shows when the board does not fit.
    let mut title = " board: [from] (to) ".to_string();
    if visible_rows < board.rows || visible_cols < board.cols {
        title = format!(
            " rows {}-{} of {}, cols {}-{} of {} ",
            first_row + 1,
            last_row,
            board.rows,
            first_col + 1,
            last_col,
            board.cols
        );
    }
    let block = Block::bordered().title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);

    let mut lines = Vec::new();
    if numbered {
        let mut header = vec![Span::raw(" ".repeat(label as usize))];
        for col in first_col + 1..=last_col {
            let number = col.to_string();
            let number = &number[number.len().saturating_sub(cell as usize - 1)..];
            header.push(Span::raw(format!("{number:^w$}", w = cell as usize)).dim());
        }
        lines.push(Line::from(header));
    }
    for row in first_row + 1..=last_row {
        let mut spans = vec![Span::raw(format!("{row:>w$} ", w = label as usize - 1)).dim()];
        for col in first_col + 1..=last_col {
            let here = Coord { row, col };
            let at = board.at(row, col);
            let (c, style) = glyph(game, at, play.analyzer().piece_side(game, at), play.ascii());
            let (text, style) = if cell == COMPACT_CELL {
                // Two characters: the marks go, the colours stay.
                let style = if Some(here) == to {
                    style.bg(target_colour(play, selected))
                } else if Some(here) == from {
                    style.bg(Color::Blue)
                } else {
                    style
                };
                (format!("{c} "), style)
            } else if Some(here) == from && Some(here) == to {
                // A piece that stays: both marks on one cell.
                (format!("[{c}]"), style.bg(target_colour(play, selected)))
            } else if Some(here) == from {
                (format!("[{c}]"), style.bg(Color::Blue))
            } else if Some(here) == to {
                (format!("({c})"), style.bg(target_colour(play, selected)))
            } else {
                (format!(" {c} "), style)
            };
            spans.push(Span::styled(text, style));
        }
        lines.push(Line::from(spans));
    }
    // A rules game with hands: the pieces in hand under the board, where a line is
    // left (the heading shows them too, in the position).
    if let Some(hand) = now.setup.position.split_whitespace().nth(2) {
        if (lines.len() as u16) < inner_height {
            let mut spans = vec![Span::raw("hand:").dim()];
            for side in 0..2 {
                let name = play.analyzer().rules().map_or("", |r| r.sides[side].name.as_str()).to_string();
                let held: String =
                    hand.chars().filter(|&c| play.analyzer().piece_side(game, c) == Some(side)).collect();
                let (_, style) = glyph(game, held.chars().next().unwrap_or('.'), Some(side), play.ascii());
                spans.push(Span::raw(format!(" {name} ")).dim());
                spans.push(if held.is_empty() { Span::raw("-").dim() } else { Span::styled(held, style) });
            }
            lines.push(Line::from(spans));
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The target cell's colour: the hint's with hints on, cyan otherwise.
fn target_colour(play: &Play, selected: Option<&MoveInfo>) -> Color {
    match (play.hints(), selected) {
        (true, Some(m)) => hint(m.value).1,
        _ => Color::Cyan,
    }
}

fn move_item(m: &MoveInfo, hints: bool, width: usize) -> ListItem<'static> {
    let mut spans = vec![Span::raw(format!("{:<width$}  ", m.label))];
    if hints {
        let (_, colour) = hint(m.value);
        spans.push(Span::styled(hint_text(m.value, m.score), Style::new().fg(colour).add_modifier(Modifier::BOLD)));
    }
    ListItem::new(Line::from(spans))
}

fn draw_moves(frame: &mut Frame, play: &Play, area: Rect, busy: bool) {
    let title = format!(" your moves ({}) ", play.human());
    let block = Block::bordered().title(title);
    if busy || play.over() || !play.human_to_move() {
        let text = if busy {
            "solving …"
        } else if play.over() {
            "no moves: the game is over"
        } else {
            "the computer is thinking …"
        };
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }).block(block), area);
        return;
    }
    let width = move_label_width(&play.current().board);
    let items: Vec<ListItem> = play.moves().into_iter().map(|m| move_item(m, play.hints(), width)).collect();
    let list = List::new(items)
        .block(block)
        .highlight_symbol("> ")
        .highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    let mut state = ListState::default().with_selected(Some(play.selected()));
    frame.render_stateful_widget(list, area, &mut state);
}

/// The moves played so far, the last ones in view; with hints, each with its value
/// for the side that made it.
fn draw_history(frame: &mut Frame, play: &Play, area: Rect) {
    let history = play.history();
    let mut lines: Vec<Line> = Vec::new();
    for (ply, step) in history.iter().enumerate().skip(1) {
        let Some((player, side, label)) = &step.made_by else { continue };
        let who = if *player == Player::Computer { "computer" } else { "you" };
        let mut spans = vec![Span::raw(format!("{ply:>3}. {side} ({who}) {label}"))];
        if play.hints() {
            let value = step.analysis.value.parent_view();
            let score = step.analysis.score.map(|margin| -margin);
            spans.push(Span::styled(format!("  {}", hint_text(value, score)), Style::new().fg(hint(value).1)));
        }
        lines.push(Line::from(spans));
    }
    if lines.is_empty() {
        lines.push(Line::raw("no moves yet").dim());
    }
    let visible = area.height.saturating_sub(2) as usize;
    let skip = lines.len().saturating_sub(visible);
    let shown: Vec<Line> = lines.into_iter().skip(skip).collect();
    frame.render_widget(Paragraph::new(shown).block(Block::bordered().title(" moves played ")), area);
}

/// The status: whose turn, the last move, the end (or the analysis under way), the
/// last action's message.
fn status_lines(play: &Play, busy: Option<&Busy>) -> Vec<Line<'static>> {
    let now = play.current();
    let mut lines = Vec::new();
    let mut turn =
        vec![Span::raw(format!("{} to move   you: {}   computer: {}", now.to_move, play.human(), play.computer()))];
    if play.hints() {
        let (_, colour) = hint(now.value);
        turn.push(Span::raw(format!("   {}: ", now.to_move)));
        turn.push(Span::styled(hint_text(now.value, now.score), Style::new().fg(colour)));
    }
    lines.push(Line::from(turn));
    if let Some(step) = play.history().last() {
        if let Some((player, side, label)) = &step.made_by {
            let who = if *player == Player::Computer { "computer" } else { "you" };
            lines.push(Line::raw(format!("last move: {side} ({who}) {label}")));
        }
    }
    if let Some(busy) = busy {
        lines.push(Line::styled(busy.line(), Style::new().fg(Color::Cyan)));
    } else if let Some(outcome) = play.outcome() {
        let result = match (outcome.winner, outcome.human_won) {
            (Some(winner), Some(true)) => format!("{winner} wins: you win!"),
            (Some(winner), _) => format!("{winner} wins: the computer wins"),
            (None, _) => "a tie".to_string(),
        };
        let colour = if outcome.human_won == Some(true) { Color::Green } else { Color::Red };
        lines.push(Line::styled(format!("Game over: {}. {result}", outcome.end), Style::new().fg(colour).bold()));
    } else if play.computer_to_move() {
        lines.push(Line::raw("the computer is thinking …"));
    }
    if !play.message().is_empty() {
        lines.push(Line::raw(play.message().to_string()).italic());
    }
    lines
}
