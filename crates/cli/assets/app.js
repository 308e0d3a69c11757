// gsolve serve: the page. Plain JavaScript, no build step; it talks to the JSON
// API under api/ (docs/web-api.md) and keeps the game's history itself.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const CELL = 60; // board cell size in SVG units
const COMPUTER_DELAY_MS = 450;

const state = {
  games: [], // GET api/games: the games
  tablebase: null, // with --tablebase: {game, parameters, start}
  info: null, // the current game's description
  variant: {}, // its variant parameters
  history: [], // [{analysis, move}]: move is the previous analysis's move that led here (null first)
  editing: false,
  edit: null, // while editing: {cells, side, analysis, before}
  computer: "", // the side the computer plays ("" nobody)
  seq: 0, // request counter: only the latest answer is used
  busy: false,
  timer: null, // the computer's pending move
  error: null, // the message shown: {message, kind}
  dropping: null, // the letter of the hand piece chosen to drop, or null
};

const $ = (id) => document.getElementById(id);

function el(tag, attributes = {}, text) {
  const node = tag.startsWith("svg:")
    ? document.createElementNS(SVG_NS, tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---------------------------------------------------------------- API

async function api(path, body) {
  const options = body === undefined
    ? {}
    : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    throw new Error(`the server does not answer (${e.message}); is gsolve serve still running?`);
  }
  let data;
  try {
    data = await response.json();
  } catch (e) {
    throw new Error(`HTTP ${response.status}: the answer is not JSON`);
  }
  if (!response.ok) {
    const error = new Error(data.error || `HTTP ${response.status}`);
    error.kind = data.kind; // e.g. "too-large": shown as a notice, not as a mistake
    throw error;
  }
  return data;
}

// Runs one request; the answer of an older request is dropped. Returns null on an
// error (shown on the page) or when a newer request has been made.
async function request(work) {
  const seq = ++state.seq;
  state.busy = true;
  updateState();
  try {
    const result = await work();
    if (seq !== state.seq) return null;
    showError(null);
    return result;
  } catch (e) {
    if (seq === state.seq) showError(e.message, e.kind);
    return null;
  } finally {
    if (seq === state.seq) {
      state.busy = false;
      updateState();
    }
  }
}

function analyze(position) {
  return api("api/analyze", { game: state.info.name, variant: state.variant, position });
}

// ---------------------------------------------------------------- values

// In a game with a score, `score` is the final margin (absent in other games):
// the text says by how much, and a move's symbol is its margin.
function valueText(kind, remoteness, score) {
  if (kind === "draw") return "draw";
  if (typeof score === "number" && kind !== "tie") return `${kind} by ${Math.abs(score)} in ${remoteness}`;
  return `${kind} in ${remoteness}`;
}

function symbol(kind, remoteness, score) {
  if (typeof score === "number") return score > 0 ? `+${score}` : score < 0 ? `\u2212${-score}` : "=0";
  switch (kind) {
    case "win": return `+${remoteness}`;
    case "loss": return `\u2212${remoteness}`;
    case "tie": return `=${remoteness}`;
    default: return "=";
  }
}

function flip(kind) {
  return kind === "win" ? "loss" : kind === "loss" ? "win" : kind;
}

// ---------------------------------------------------------------- game flow

const current = () => state.history[state.history.length - 1].analysis;
const gameInfo = (name) => state.games.find((g) => g.name === name);

// Where a game starts: the tablebase's board when the server has one for it.
function firstSetup(info) {
  return state.tablebase && state.tablebase.game === info.name ? state.tablebase.start : info.example;
}

// A new game from a setup {game, variant, position}; false if it cannot be analysed.
async function startSetup(setup) {
  const info = gameInfo(setup.game);
  if (!info) {
    showError(`unknown game ${JSON.stringify(setup.game)}`);
    return false;
  }
  cancelComputer();
  const analysis = await request(() =>
    api("api/analyze", { game: setup.game, variant: setup.variant || {}, position: setup.position }));
  if (!analysis) {
    syncControls();
    return false;
  }
  const changed = !state.info || state.info.name !== info.name;
  state.info = info;
  state.variant = analysis.variant;
  state.history = [{ analysis, move: null }];
  state.editing = false;
  state.edit = null;
  if (changed) buildControls();
  fillParams(analysis);
  render();
  return true;
}

// A game whose start the server refused as too large: its controls, the position
// and the notice, no board, until a smaller board or another position is chosen.
function showUnanswered(setup) {
  state.info = gameInfo(setup.game);
  state.variant = setup.variant || {};
  state.history = [];
  buildControls();
  $("position-text").value = setup.position;
}

async function play(move) {
  cancelComputer();
  if (state.editing || !move) return;
  const from = current();
  const analysis = await request(() => analyze(move.position));
  if (!analysis || current() !== from) return;
  state.history.push({ analysis, move });
  render();
}

function cancelComputer() {
  if (state.timer !== null) {
    clearTimeout(state.timer);
    state.timer = null;
    updateState();
  }
}

// The computer answers when it is its side's turn.
function scheduleComputer() {
  cancelComputer();
  const analysis = current();
  if (state.editing || !state.computer || analysis.to_move !== state.computer || analysis.moves.length === 0) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    play(analysis.moves[0]);
  }, COMPUTER_DELAY_MS);
  updateState();
}

function undo() {
  if (state.editing || state.history.length <= 1) return;
  cancelComputer();
  state.history.pop();
  // Back to a position where the human is to move.
  while (state.computer && state.history.length > 1 && current().to_move === state.computer) state.history.pop();
  render();
}

function goTo(ply) {
  if (state.editing || ply >= state.history.length - 1) return;
  state.history = state.history.slice(0, ply + 1);
  render();
}

// ---------------------------------------------------------------- editing

// How a click edits a cell and how the board set up is written as a position come
// from the game's description (api/games: `editing`, `glyphs`), as do the pieces'
// looks: the page knows no game by name. Its own marks: `.` empty, `#` a wall.

const editing = () => state.info.editing;
const glyph = (ch) => state.info.glyphs[ch];
const isGoal = (ch) => glyph(ch) !== undefined && glyph(ch).role === "goal";

// The rows of the map the board stands on (a variant parameter), or null.
function mapRows() {
  const map = state.info.parameters.find((p) => p.kind === "map" && p.variant);
  return map ? (state.variant[map.name] || "").split("/") : null;
}

// What a cell is without pieces: empty, or on a map the map's floor, exit or wall
// (floor where a piece starts).
function baseCell(r, c) {
  const { cycle, unique } = editing();
  const empty = cycle[0];
  const rows = mapRows();
  const ch = rows && rows[r] ? rows[r][c] : undefined;
  if (ch === undefined || cycle.includes(ch) || unique.includes(ch)) return empty;
  return ch;
}

function sideNames() {
  return state.info.sides.map((s) => s.name);
}

function sideCode(name) {
  const side = state.info.sides.find((s) => s.name === name);
  return side ? side.code : state.info.sides[0].code;
}

function sideName(code) {
  const side = state.info.sides.find((s) => s.code === code);
  return side ? side.name : code;
}

// Puts a unique piece on (r, c), taking it off wherever it was (a cell with both
// unique pieces keeps the other).
function placeUnique(cells, r, c, piece) {
  const { unique, both } = editing();
  const other = unique.find((u) => u !== piece);
  cells.forEach((row, i) => row.forEach((ch, j) => {
    if (ch === piece) row[j] = baseCell(i, j);
    else if (both !== null && ch === both) row[j] = other;
  }));
  cells[r][c] = piece;
}

// A click on (r, c): the next character of the game's cycle (from the cell's base);
// false if the cell is one a click leaves alone.
function cycleCell(r, c) {
  const { cycle, unique, fixed } = editing();
  const cells = state.edit.cells;
  const ch = cells[r][c];
  if (fixed.includes(ch)) return false;
  const base = baseCell(r, c);
  const at = ch === base ? 0 : cycle.indexOf(ch);
  const next = at >= 0 && at + 1 < cycle.length ? cycle[at + 1] : base;
  if (unique.includes(next)) placeUnique(cells, r, c, next);
  else cells[r][c] = next;
  return true;
}

function find(cells, pieces) {
  for (let r = 0; r < cells.length; r++) {
    for (let c = 0; c < cells[r].length; c++) if (pieces.includes(cells[r][c])) return `${r + 1},${c + 1}`;
  }
  return null;
}

// The edited board in plain notation, or {problem}: the rows, or the unique
// pieces' cells, then the side to move.
function editedPosition() {
  const { cells, side } = state.edit;
  const { written, unique, both } = editing();
  if (written === "board") return { position: `${cells.map((row) => row.join("")).join("/")} ${side}` };
  const names = sideNames();
  const at = [];
  for (const [i, piece] of unique.entries()) {
    const cell = find(cells, both === null ? [piece] : [piece, both]);
    const owner = glyph(piece) ? glyph(piece).side : i;
    if (!cell) return { problem: `place the ${names[owner]} on the board (click a cell)` };
    at.push(cell);
  }
  return { position: `${at.join(" ")} ${side}` };
}

function enterEdit() {
  if (!state.history.length) return; // no position shown yet
  cancelComputer();
  const analysis = current();
  state.editing = true;
  state.edit = {
    cells: analysis.board.cells.map((row) => [...row]),
    side: sideCode(analysis.to_move),
    analysis,
  };
  render();
}

async function editChanged() {
  const { position, problem } = editedPosition();
  state.edit.analysis = null;
  $("position-text").value = position || "";
  if (problem) {
    state.seq++; // drop any answer still on its way
    state.busy = false;
    showError(problem);
    render();
    return;
  }
  render();
  const edit = state.edit;
  const analysis = await request(() => analyze(position));
  if (analysis && state.edit === edit) {
    edit.analysis = analysis;
    render();
  }
}

function leaveEdit(keep) {
  if (!state.editing) return;
  if (keep) {
    if (state.busy) return;
    if (!state.edit.analysis) {
      showError("this position cannot be analysed: fix it, or press Cancel to go back");
      return;
    }
    state.history = [{ analysis: state.edit.analysis, move: null }];
  } else {
    showError(null);
  }
  state.editing = false;
  state.edit = null;
  render();
}

function clearBoard() {
  const cells = state.edit.cells;
  cells.forEach((row, r) => row.forEach((_, c) => { row[c] = baseCell(r, c); }));
  editChanged();
}

// ---------------------------------------------------------------- controls

function buildControls() {
  const info = state.info;
  $("game").value = info.name;
  $("notation-help").textContent = `Position notation: ${info.notation}.`;
  const params = $("params");
  params.replaceChildren();
  for (const p of info.parameters) {
    const label = el("label", { class: "row" });
    label.append(p.kind === "map" ? `Map (rows of ${p.cells.join(" ")})` : p.name === "cols" ? "columns" : p.name);
    let input;
    if (p.kind === "map") {
      input = el("textarea", { id: `param-${p.name}`, rows: "6", spellcheck: "false" });
    } else {
      input = el("input", { id: `param-${p.name}`, type: "number", min: p.min, max: p.max, value: p.default });
    }
    input.dataset.name = p.name;
    label.append(input);
    params.append(label);
  }
  const computer = $("computer");
  computer.replaceChildren(el("option", { value: "" }, "nobody"));
  for (const name of sideNames()) computer.append(el("option", { value: name }, name));
  if (!sideNames().includes(state.computer)) state.computer = "";
  computer.value = state.computer;
  $("edit-help").textContent = info.editing.help;
}

// The board settings shown for an analysis.
function fillParams(analysis) {
  for (const input of $("params").querySelectorAll("[data-name]")) {
    const name = input.dataset.name;
    if (name === "rows") input.value = analysis.board.rows;
    else if (name === "cols") input.value = analysis.board.cols;
    else if (name === "map") input.value = (analysis.variant.map || "").split("/").join("\n");
    else if (analysis.variant[name] !== undefined) input.value = analysis.variant[name];
  }
}

// The controls back to the game and board on the page, after a setup that failed
// (e.g. a board too large): the inputs must describe the board shown, not the refused one.
function syncControls() {
  if (!state.info) return;
  $("game").value = state.info.name;
  if (state.history.length) fillParams(current());
}

async function newGameOnBoard(event) {
  event.preventDefault();
  const query = new URLSearchParams({ game: state.info.name });
  for (const input of $("params").querySelectorAll("[data-name]")) {
    let value = input.value.trim();
    if (input.dataset.name === "map") value = value.split(/\s+/).filter((row) => row).join("/");
    query.set(input.dataset.name, value);
  }
  const setup = await request(() => api(`api/start?${query}`));
  if (setup) await startSetup(setup);
  else syncControls();
}

// Shows the server's message in full (or hides the box). A setup refused as too large
// is not a mistake: it is a notice, whose message says how to get the answer, often
// with a command in backticks, shown as code to copy.
function showError(message, kind) {
  state.error = message ? { message, kind: kind || "" } : null;
  const box = $("error");
  box.hidden = !message;
  box.replaceChildren();
  box.className = kind === "too-large" ? "notice" : "";
  box.dataset.kind = kind || "";
  if (!message) return;
  if (kind === "too-large") box.append(el("strong", { class: "heading" }, "Too large to solve here"));
  box.append(...messageNodes(message));
}

// Text with `quoted` parts as <code> elements; an unpaired backtick stays text.
function messageNodes(message) {
  const parts = message.split("`");
  if (parts.length % 2 === 0) return [message];
  return parts.map((part, i) => (i % 2 ? el("code", {}, part) : part)).filter((node) => node !== "");
}

function updateState() {
  document.body.dataset.state = state.busy ? "busy" : state.timer !== null ? "computer" : "ready";
}

// ---------------------------------------------------------------- drawing

function render() {
  if (!state.editing && !state.history.length) return; // no position shown yet
  const analysis = state.editing ? state.edit.analysis : current();
  renderStatus(analysis);
  renderControls();
  renderBoard();
  renderHands();
  renderMoves(analysis);
  renderChart();
  renderHistory();
  if (!state.editing) {
    saveAddress();
    document.body.dataset.position = current().position;
    document.body.dataset.ply = String(state.history.length - 1);
  }
  scheduleComputer();
  updateState();
}

// The address keeps the current setup, for reloads and bookmarks.
function saveAddress() {
  const hash = new URLSearchParams({ game: state.info.name, ...state.variant, position: current().position });
  history.replaceState(null, "", `#${hash}`);
}

function renderStatus(analysis) {
  const value = $("value");
  const end = $("end");
  if (!analysis) {
    value.textContent = state.editing ? `${sideName(state.edit.side)} to move: no value` : "";
    value.className = "value";
    end.textContent = "";
    return;
  }
  const shown = $("show-values").checked;
  value.textContent = shown
    ? `${analysis.to_move} to move: ${valueText(analysis.value, analysis.remoteness, analysis.score)}`
    : `${analysis.to_move} to move`;
  value.className = shown ? `value ${analysis.value}` : "value";
  value.dataset.value = analysis.value;
  value.dataset.remoteness = analysis.remoteness === null ? "" : analysis.remoteness;
  if (analysis.moves.length === 0) end.textContent = `Game over: ${analysis.end || "no legal move"}.`;
  else if (state.computer === analysis.to_move && !state.editing) end.textContent = "The computer is thinking\u2026";
  else end.textContent = "";
  $("solver").textContent = `solver: ${analysis.solver}`;
}

function renderControls() {
  const editing = state.editing;
  const edit = $("edit");
  edit.textContent = editing ? "Done editing" : "Edit position";
  edit.setAttribute("aria-pressed", String(editing));
  $("clear").hidden = !editing;
  $("cancel-edit").hidden = !editing;
  $("edit-help").hidden = !editing;
  const side = $("side");
  side.disabled = !editing;
  side.textContent = editing ? sideName(state.edit.side) : current().to_move;
  side.title = editing ? "click to change the side to move" : "";
  const text = $("position-text");
  if (document.activeElement !== text) {
    if (editing) {
      const { position } = editedPosition();
      text.value = position || "";
    } else {
      text.value = current().position;
    }
  }
  $("undo").disabled = editing || state.history.length <= 1;
  $("restart").disabled = editing || state.history.length <= 1;
  $("best").disabled = editing || current().moves.length === 0;
  document.body.classList.toggle("editing", editing);
}

function svg(tag, attributes, text) {
  return el(`svg:${tag}`, attributes, text);
}

// A character's picture, as its glyph says: a pawn, a disc with the letter, a goal's
// word; the cell with both unique pieces, their two discs; a character without a
// glyph (a zone's mark in a rules game) its letter.
function drawPiece(group, ch, x, y) {
  const disc = (dx, cls, letter) => {
    group.append(svg("circle", { cx: x + dx, cy: y, r: CELL * 0.34, class: `piece ${cls}` }));
    if (letter) group.append(svg("text", { x: x + dx, y: y + 1, class: `piece-letter ${cls}` }, letter));
  };
  const word = (text) => group.append(svg("text", { x, y: y + 1, class: "exit-letter" }, text));
  const { unique, both } = editing();
  if (both !== null && ch === both) {
    const [a, b] = unique.map((piece) => glyph(piece).colour);
    disc(-7, a, "");
    disc(7, b, "\u00d7");
    return;
  }
  const g = glyph(ch);
  if (!g) {
    if (ch !== "." && ch !== "#") word(ch);
  } else if (g.look === "pawn") {
    const body = `M${x - 8},${y + 2} L${x + 8},${y + 2} L${x + 14},${y + 19} L${x - 14},${y + 19} Z`;
    group.append(svg("path", { d: body, class: `piece ${g.colour}` }));
    group.append(svg("circle", { cx: x, cy: y - 8, r: 10, class: `piece ${g.colour}` }));
  } else if (g.look === "disc") {
    disc(0, g.colour, ch);
  } else if (g.look === "word") {
    word(g.word);
  }
}

function renderBoard() {
  const board = $("board");
  board.replaceChildren();
  const analysis = current();
  const cells = state.editing ? state.edit.cells : analysis.board.cells.map((row) => [...row]);
  const rows = cells.length;
  const cols = cells[0].length;
  board.setAttribute("viewBox", `0 0 ${cols * CELL} ${rows * CELL}`);
  board.style.maxWidth = `${Math.max(240, Math.min(620, cols * 78))}px`;
  const checkered = state.info.checkered;
  const last = !state.editing ? state.history[state.history.length - 1].move : null;
  const layer = svg("g", { class: "cells" });
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const ch = cells[r][c];
      const g = svg("g", { class: "cell", "data-row": r + 1, "data-col": c + 1 });
      let cls = checkered ? ((r + c) % 2 ? "square dark" : "square light") : "square floor";
      // Trails (a snake's body) are shaded in their colour, apart from walls; a goal
      // (an exit) is shaded under a piece too.
      const drawn = glyph(ch);
      if (ch === "#") cls += " wall";
      else if (drawn && drawn.look === "shade") cls += ` trail ${drawn.colour}`;
      if (isGoal(ch) || isGoal(baseCell(r, c))) cls += " exit";
      if (last && last.from[0] === r + 1 && last.from[1] === c + 1) cls += " last-from";
      if (last && last.to[0] === r + 1 && last.to[1] === c + 1) cls += " last-to";
      g.append(svg("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: cls }));
      const { x, y } = cellCentre(r + 1, c + 1);
      drawPiece(g, ch, x, y);
      if (state.editing && !editing().fixed.includes(ch)) {
        g.classList.add("editable");
        g.addEventListener("click", () => {
          if (cycleCell(r, c)) editChanged();
        });
      } else if (!state.editing && analysis.moves.some((m) => m.drop)) {
        g.addEventListener("click", () => dropAt(r + 1, c + 1));
      }
      layer.append(g);
    }
  }
  board.append(layer);
  if (state.editing) return;
  const showValues = $("show-values").checked;
  const arrows = svg("g", { class: "arrows" });
  const badges = svg("g", { class: "badges" });
  // In the document before the badges are made: a small badge's width is its text's.
  board.append(arrows, badges);
  const corners = badgeCorners(analysis.moves, cells);
  analysis.moves.forEach((m, i) => {
    const badge = drawBadge(badges, m, corners[i], showValues);
    if (!(m.from[0] === m.to[0] && m.from[1] === m.to[1])) drawArrow(arrows, m, badge.anchor, showValues);
  });
}

// The pieces in hand, in games with hands (a rules position's third part: each
// letter one piece; "-" for none), by side. A piece the side to move can drop is a
// button: chosen, a click on a cell drops it there (its badge there, labelled
// `C*(r,c)`, and the move list play it too).
function renderHands() {
  const hands = $("hands");
  const parts = state.editing ? [] : current().position.split(" ");
  if (parts.length < 3) {
    hands.hidden = true;
    state.dropping = null;
    return;
  }
  const droppable = new Set(current().moves.filter((m) => m.drop).map((m) => m.drop));
  if (!droppable.has(state.dropping)) state.dropping = null;
  const bySide = sideNames().map(() => []);
  for (const ch of parts[2] === "-" ? "" : parts[2]) {
    const side = (state.info.pieces || {})[ch];
    if (side !== undefined) bySide[side].push(ch);
  }
  hands.hidden = false;
  hands.replaceChildren("In hand:");
  sideNames().forEach((name, i) => {
    hands.append(` ${i ? "\u00b7 " : ""}${name} `);
    if (bySide[i].length === 0) hands.append("none");
    for (const ch of bySide[i]) {
      if (!droppable.has(ch)) {
        hands.append(el("span", { class: "hand-piece" }, ch));
        continue;
      }
      const chosen = state.dropping === ch;
      const button = el("button", { type: "button", class: `hand-piece${chosen ? " chosen" : ""}`, "data-drop": ch }, ch);
      button.title = chosen ? "click a cell to drop it there" : `drop ${ch}: then click a cell`;
      button.addEventListener("click", () => {
        state.dropping = chosen ? null : ch;
        renderHands();
      });
      hands.append(button);
    }
  });
}

// A click on a cell in a game with drops: the drop onto that cell (of the hand
// piece chosen, if any); in gravity games, where none lands there, the one into
// that cell's column (a click anywhere in a column drops into it). Played when
// exactly one drop fits.
function dropAt(row, col) {
  const drops = current().moves.filter((m) => m.drop && (!state.dropping || m.drop === state.dropping));
  let fits = drops.filter((m) => m.to[0] === row && m.to[1] === col);
  if (fits.length === 0 && state.info.gravity) fits = drops.filter((m) => m.to[1] === col);
  if (fits.length !== 1) return;
  state.dropping = null;
  play(fits[0]);
}

const cellCentre = (r, c) => ({ x: (c - 0.5) * CELL, y: (r - 0.5) * CELL });

// The corners of a cell as [dx, dy], top right first (where a lone badge reads best).
const CORNERS = [[1, -1], [-1, -1], [1, 1], [-1, 1]];
const SMALL_BADGE = { height: 16, inset: 2 };

// Where each move's badge goes: null for the middle of the target cell (a large badge),
// or a corner [dx, dy]. A badge goes in a corner when the target cell shows a piece (a
// capture; a Queen's Case stay, on the mover's own cell) or when several moves end on
// the same cell, so that neither the piece nor another badge is covered. A move takes
// the free corner nearest its origin, so that its arrow ends at it; a stay, which has
// no arrow, the corner farthest from the other badges, not to look like one of theirs.
function badgeCorners(moves, cells) {
  const into = new Map();
  for (const m of moves) into.set(`${m.to}`, (into.get(`${m.to}`) || 0) + 1);
  const stays = (m) => m.from[0] === m.to[0] && m.from[1] === m.to[1];
  const corners = moves.map((m) => {
    const target = cells[m.to[0] - 1][m.to[1] - 1];
    const occupied = target !== "." && !isGoal(target);
    return occupied || stays(m) || into.get(`${m.to}`) > 1 ? undefined : null;
  });
  const taken = new Map(); // cell -> the corners given out there
  const point = (m, corner) => { // where drawBadge anchors a badge, CELL / 3 from the centre
    const t = cellCentre(...m.to);
    return corner ? { x: t.x + (corner[0] * CELL) / 3, y: t.y + (corner[1] * CELL) / 3 } : t;
  };
  const give = (i, rank) => {
    const key = `${moves[i].to}`;
    const used = taken.get(key) || [];
    // A stable sort: equally good corners (a straight move) keep CORNERS' order.
    const free = CORNERS.filter((corner) => !used.includes(corner)).sort((a, b) => rank(a) - rank(b));
    corners[i] = free[0] || CORNERS[0]; // more than four badges on a cell: none of the games has that
    taken.set(key, [...used, corners[i]]);
  };
  moves.forEach((m, i) => {
    if (corners[i] !== undefined || stays(m)) return;
    const f = cellCentre(...m.from);
    give(i, (corner) => {
      const p = point(m, corner);
      return Math.hypot(p.x - f.x, p.y - f.y);
    });
  });
  moves.forEach((m, i) => {
    if (!stays(m)) return;
    const others = [];
    moves.forEach((o, j) => {
      if (j !== i && corners[j] !== undefined) others.push(point(o, corners[j]));
    });
    give(i, (corner) => {
      const p = point(m, corner);
      return others.length ? -Math.min(...others.map((o) => Math.hypot(p.x - o.x, p.y - o.y))) : 0;
    });
  });
  return corners;
}

// A move's badge: a large disc in the middle of its target cell, or a small pill in a
// corner (growing along the cell's edge as its label needs). Returns the badge with
// `anchor`, the point its arrow ends at.
function drawBadge(layer, m, corner, showValues) {
  const t = cellCentre(...m.to);
  const kind = showValues ? m.value : "hidden";
  const title = showValues ? `${m.move}: ${valueText(m.value, m.remoteness, m.score)}` : m.move;
  const badge = svg("g", {
    class: `move-badge ${kind}${corner ? " corner" : ""}`, "data-move": m.move, role: "button", tabindex: "0",
    "aria-label": title,
  });
  badge.append(svg("title", {}, title));
  layer.append(badge);
  const label = showValues ? symbol(m.value, m.remoteness, m.score) : "";
  if (!corner) {
    badge.anchor = t;
    badge.append(svg("circle", { cx: t.x, cy: t.y, r: CELL * 0.28, class: "disc" }));
    if (label) {
      const size = label.length > 3 ? "small" : label.length > 2 ? "medium" : "";
      badge.append(svg("text", { x: t.x, y: t.y + 1, class: size }, label));
    }
  } else {
    const { height, inset } = SMALL_BADGE;
    const [dx, dy] = corner;
    const edge = CELL / 2 - inset; // from the cell's centre to the pill's outer side
    const anchor = { x: t.x + dx * (edge - height / 2), y: t.y + dy * (edge - height / 2) };
    badge.anchor = anchor;
    let width = height;
    const text = label ? svg("text", { y: anchor.y + 1, class: "small" }, label) : null;
    if (text) {
      badge.append(text);
      // Two pills on one edge (two captures onto one pawn) must not meet in the middle.
      const widest = edge - 1;
      const measured = text.getComputedTextLength() || label.length * 7;
      width = Math.max(height, Math.min(widest, measured + 7));
      if (measured + 7 > widest) {
        text.setAttribute("textLength", widest - 6);
        text.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    }
    const x = dx > 0 ? t.x + edge - width : t.x - edge;
    const pill = svg("rect", {
      x, y: anchor.y - height / 2, width, height, rx: height / 2, class: "disc",
    });
    badge.insertBefore(pill, text); // under the label (appended when there is none)
    if (text) text.setAttribute("x", x + width / 2);
  }
  badge.addEventListener("click", (event) => {
    event.stopPropagation();
    play(m);
  });
  badge.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      play(m);
    }
  });
  badge.addEventListener("mouseenter", () => highlight(m.move, true));
  badge.addEventListener("mouseleave", () => highlight(m.move, false));
  return badge;
}

// A move's arrow, from the edge of the moving piece to its badge.
function drawArrow(layer, m, end, showValues) {
  const f = cellCentre(...m.from);
  const length = Math.hypot(end.x - f.x, end.y - f.y);
  const skip = Math.min(CELL * 0.3, length / 2) / length;
  const start = { x: f.x + (end.x - f.x) * skip, y: f.y + (end.y - f.y) * skip };
  layer.append(svg("line", {
    x1: start.x, y1: start.y, x2: end.x, y2: end.y, class: `arrow ${showValues ? m.value : "hidden"}`, "data-move": m.move,
  }));
}

function highlight(move, on) {
  for (const node of document.querySelectorAll(`[data-move="${CSS.escape(move)}"]`)) node.classList.toggle("hot", on);
}

function renderMoves(analysis) {
  const body = $("moves").querySelector("tbody");
  body.replaceChildren();
  if (!analysis) return;
  if (analysis.moves.length === 0) {
    body.append(el("tr", {}, ""));
    body.lastChild.append(el("td", { colspan: "4", class: "help" }, "no legal move"));
    return;
  }
  const showValues = $("show-values").checked;
  for (const m of analysis.moves) {
    const row = el("tr", { class: showValues ? m.value : "hidden", "data-move": m.move });
    row.append(el("td", {}));
    row.lastChild.append(el("span", { class: `chip ${showValues ? m.value : "hidden"}` }, showValues ? symbol(m.value, m.remoteness, m.score) : "?"));
    const cell = el("td", {});
    const button = el("button", { type: "button", class: "move-button", "data-move": m.move }, m.move);
    button.disabled = state.editing;
    button.addEventListener("click", () => play(m));
    cell.append(button);
    row.append(cell);
    row.append(el("td", {}, showValues ? valueText(m.value, m.remoteness, m.score) : ""));
    const top = analysis.moves[0];
    let delta = "";
    if (showValues && m.value === top.value && m.remoteness === top.remoteness && m.score === top.score) delta = "best";
    else if (showValues && m.delta !== null) delta = m.delta > 0 ? `+${m.delta}` : m.delta < 0 ? `${m.delta}` : "\u00b10";
    row.append(el("td", { class: "delta" }, delta));
    row.addEventListener("mouseenter", () => highlight(m.move, true));
    row.addEventListener("mouseleave", () => highlight(m.move, false));
    body.append(row);
  }
}

// The chart and the history list show every ply from one fixed side, the game's first
// (white, queen, snake 1), whoever is to move: a game one side wins throughout then
// reads as one colour in both, and they never disagree.
function viewSide() {
  return sideNames()[0];
}

function otherSide() {
  return sideNames()[1] || "the other side";
}

// An analysis's value for the viewing side (the API gives it for the side to move).
function viewValue(analysis) {
  return analysis.to_move === viewSide() ? analysis.value : flip(analysis.value);
}

// A value for the viewing side in words: "white wins in 7", "black has won", "draw".
function viewText(kind, remoteness) {
  if (kind === "draw") return "draw";
  if (kind === "tie") return remoteness === 0 ? "tied" : `tie in ${remoteness}`;
  const winner = kind === "win" ? viewSide() : otherSide();
  return remoteness === 0 ? `${winner} has won` : `${winner} wins in ${remoteness}`;
}

// A tick step (1, 2 or 5 times a power of ten) leaving at least `gap` pixels between
// ticks when `range` units span `pixels`: labels of a long game do not run together.
function tickStep(range, pixels, gap) {
  for (let power = 1; ; power *= 10) {
    for (const m of [1, 2, 5]) if ((m * power * pixels) / range >= gap) return m * power;
  }
}

function renderChart() {
  const chart = $("chart");
  chart.replaceChildren();
  const shown = $("show-values").checked;
  chart.style.display = shown ? "" : "none"; // an SVG element has no `hidden`
  if (!shown) {
    $("chart-caption").textContent = "Hidden while values are hidden.";
    return;
  }
  const entries = state.history;
  const view = viewSide();
  const other = otherSide();
  $("chart-caption").textContent =
    `For ${view} (the first player) after each ply, in the chart and the list below: green, above the band, ` +
    `${view} wins; red, below it, ${other} wins; yellow, a draw. On the axis +n: ${view} wins in n plies, ` +
    `\u2212n: loses in n. Click a point or a ply to go back to it.`;
  const W = 460;
  const H = 250;
  const left = 34;
  const right = 10;
  const top = 10;
  const bottom = 26;
  const pad = 10; // between the axes and the first and last points, so that no point sits on an axis
  const plies = Math.max(entries.length - 1, 10);
  const maxR = Math.max(4, ...entries.map((e) => e.analysis.remoteness || 0));
  const band = 9;
  const mid = top + (H - top - bottom) / 2;
  const half = (H - top - bottom) / 2 - band;
  const inner = W - left - right - 2 * pad;
  const x = (i) => left + pad + (i / plies) * inner;
  const y = (kind, r) => kind === "win" ? mid - band - (r / maxR) * half
    : kind === "loss" ? mid + band + (r / maxR) * half : mid;
  chart.setAttribute("viewBox", `0 0 ${W} ${H}`);
  chart.append(svg("rect", { x: left, y: top, width: W - left - right, height: half, class: "region win" }));
  chart.append(svg("rect", { x: left, y: mid - band, width: W - left - right, height: 2 * band, class: "region draw" }));
  chart.append(svg("rect", { x: left, y: mid + band, width: W - left - right, height: half, class: "region loss" }));
  chart.append(svg("text", { x: W - right - 6, y: top + 13, class: "region-label" }, `${view} wins`));
  chart.append(svg("text", { x: W - right - 6, y: mid + 4, class: "region-label" }, "draw"));
  chart.append(svg("text", { x: W - right - 6, y: H - bottom - 5, class: "region-label" }, `${other} wins`));
  // Each label once: +n above the band, -n below it; the band's edges (remoteness 0)
  // go unlabelled rather than showing "0" twice.
  const rStep = tickStep(maxR, half, 14);
  for (let r = rStep; r <= maxR; r += rStep) {
    for (const kind of ["win", "loss"]) {
      chart.append(svg("line", { x1: left, x2: W - right, y1: y(kind, r), y2: y(kind, r), class: "grid" }));
      chart.append(svg("text", { x: left - 4, y: y(kind, r) + 4, class: "tick y" }, symbol(kind, r)));
    }
  }
  const plyStep = tickStep(plies, inner, 24);
  for (let i = 0; i <= plies; i += plyStep) {
    chart.append(svg("text", { x: x(i), y: H - 8, class: "tick x" }, i));
  }
  chart.append(svg("text", { x: left - 4, y: H - 8, class: "tick axis-name" }, "ply"));
  const points = entries.map((entry, i) => {
    const a = entry.analysis;
    const kind = viewValue(a);
    return { i, a, kind, x: x(i), y: y(kind, a.remoteness || 0) };
  });
  chart.append(svg("polyline", { points: points.map((p) => `${p.x},${p.y}`).join(" "), class: "line" }));
  for (const p of points) {
    const dot = svg("circle", {
      cx: p.x, cy: p.y, r: p.i === points.length - 1 ? 6 : 4.5, class: `point ${p.kind}`, "data-ply": p.i,
    });
    dot.append(svg("title", {}, `ply ${p.i}: ${viewText(p.kind, p.a.remoteness)} (${p.a.to_move} to move)`));
    dot.addEventListener("click", () => goTo(p.i));
    chart.append(dot);
  }
}

function renderHistory() {
  const list = $("history");
  list.replaceChildren();
  const shown = $("show-values").checked;
  state.history.forEach((entry, i) => {
    const a = entry.analysis;
    const item = el("li", { "data-ply": i });
    const label = i === 0 ? "start" : `${state.history[i - 1].analysis.to_move} ${entry.move.move}`;
    const button = el("button", { type: "button", class: "link" }, `${i}. ${label}`);
    button.disabled = state.editing || i === state.history.length - 1;
    button.title = "go back to this position";
    button.addEventListener("click", () => goTo(i));
    // Coloured and worded from the chart's side, not from the side to move at this ply.
    const kind = viewValue(a);
    item.append(button, shown ? ` \u2192 ${viewText(kind, a.remoteness)}` : "");
    item.className = shown ? kind : "";
    list.append(item);
  });
}

// ---------------------------------------------------------------- start

function setupFromHash() {
  if (location.hash.length <= 1) return null;
  const params = new URLSearchParams(location.hash.slice(1));
  const game = params.get("game");
  const position = params.get("position");
  if (!game || !position) return null;
  const variant = {};
  for (const [key, value] of params) if (key !== "game" && key !== "position") variant[key] = value;
  return { game, variant, position };
}

async function main() {
  const games = await request(() => api("api/games"));
  if (!games) return;
  state.games = games.games;
  state.tablebase = games.tablebase;
  for (const g of state.games) $("game").append(el("option", { value: g.name }, g.title));

  $("game").addEventListener("change", async (event) => {
    const info = gameInfo(event.target.value);
    if (!(await startSetup(firstSetup(info)))) syncControls();
  });
  $("board-form").addEventListener("submit", newGameOnBoard);
  $("position-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const position = $("position-text").value;
    $("position-text").blur();
    if (state.editing) leaveEdit(false);
    await startSetup({ game: state.info.name, variant: state.variant, position });
  });
  $("edit").addEventListener("click", () => (state.editing ? leaveEdit(true) : enterEdit()));
  $("clear").addEventListener("click", clearBoard);
  $("cancel-edit").addEventListener("click", () => leaveEdit(false));
  $("side").addEventListener("click", () => {
    const codes = state.info.sides.map((s) => s.code);
    state.edit.side = codes[(codes.indexOf(state.edit.side) + 1) % codes.length];
    editChanged();
  });
  $("computer").addEventListener("change", (event) => {
    state.computer = event.target.value;
    render();
  });
  $("show-values").addEventListener("change", render);
  $("undo").addEventListener("click", undo);
  $("restart").addEventListener("click", () => goTo(0));
  $("best").addEventListener("click", () => state.history.length && play(current().moves[0]));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return;
    if (event.key === "Escape" && state.editing) leaveEdit(false);
    else if ((event.key === "z" && (event.ctrlKey || event.metaKey)) || event.key === "u") undo();
  });

  // An address typed or pasted with another setup.
  window.addEventListener("hashchange", async () => {
    const setup = setupFromHash();
    if (!setup || (state.history.length && setup.game === state.info.name && setup.position === current().position)) return;
    if (!(await startSetup(setup))) {
      if (state.error) showError(`the address's position: ${state.error.message}`, state.error.kind);
      if (state.history.length) saveAddress();
    }
  });

  const fromHash = setupFromHash();
  if (fromHash && (await startSetup(fromHash))) return;
  const failed = fromHash ? state.error : null;
  // The server's default game first (a rules file's game when it serves one).
  const ordered = [...state.games].sort((a, b) => (b.name === games.default) - (a.name === games.default));
  const setups = ordered.map(firstSetup);
  if (state.tablebase) setups.unshift(state.tablebase.start);
  for (const setup of setups) {
    if (await startSetup(setup)) break;
    // Its start too hard to answer here (Connect 4 on 6x7): the page stays on the
    // default game, with the notice and its board settings, not on another game.
    if (setup.game === games.default && state.error && state.error.kind === "too-large") {
      showUnanswered(setup);
      break;
    }
  }
  if (failed) showError(`the address's position: ${failed.message}`, failed.kind);
}

main();
