// shashki web board: the page keeps the game (a tree of moves); the server checks every
// move, searches and reviews. No libraries, no network beyond this server.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const S = {
  client: "page-" + Math.random().toString(36).slice(2, 12),
  variant: "russian",
  capturesOptional: false,
  startFen: null,
  root: null,
  current: null,
  state: null,
  flipped: false,
  opponent: "engine",
  human: "white",
  level: { time: 0.5 },
  selected: null,
  entered: [],
  analysis: null,
  busy: false,
  reviewed: false,
  headers: {}, // a loaded game's PDN tags, written back on download
  gameComment: "",
  analysedFen: null, // the position the analysis lines are about
  stopping: Promise.resolve(), // the last stop sent to the server
  analysisToken: 0, // changes at every stop: a start that awaited a stop checks it
  clock: null, // {white, black: ms left, inc: ms, turn, since: ms timestamp, flagged}
};

// ---- clocks -------------------------------------------------------------------------------

function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 100)) / 10;
  const minutes = Math.floor(total / 60);
  const seconds = total - 60 * minutes;
  return `${minutes}:${seconds < 10 ? "0" : ""}${seconds.toFixed(total < 20 ? 1 : 0)}`;
}

function clockLeft(color) {
  const c = S.clock;
  const running = c.turn === color && !c.flagged && S.state && S.state.result === "*";
  return c[color] - (running ? performance.now() - c.since : 0);
}

function drawClocks() {
  const box = $("clocks");
  if (!S.clock) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  for (const color of ["white", "black"]) {
    const el = $(`clock-${color}`);
    el.textContent = `${color === "white" ? "White" : "Black"} ${clockText(clockLeft(color))}`;
    el.className =
      "clock" + (S.clock.flagged === color ? " flagged" : S.clock.turn === color ? " running" : "");
  }
}

function tickClocks() {
  const c = S.clock;
  if (!c || c.flagged || !S.state || S.state.result !== "*") return;
  if (clockLeft(c.turn) <= 0) {
    c[c.turn] = 0;
    c.flagged = c.turn;
    stopAnalysis();
    api("/api/stop", { client: S.client }).catch(() => {});
    const result = c.flagged === "white" ? "0-1" : "1-0";
    $("result").textContent = `${result} (time forfeit)`;
    status(`game over: ${result} on time`);
  }
  drawClocks();
}

function clockMoved(color) {
  // The side that just moved stops its clock and gets its increment.
  const c = S.clock;
  if (!c || c.flagged) return;
  c[color] = clockLeft(color) + c.inc;
  c.turn = color === "white" ? "black" : "white";
  c.since = performance.now();
  drawClocks();
}

function newNode(parent, long, text) {
  return { parent, long, text, children: [], comment: "", judgement: null };
}

function pathTo(node) {
  const moves = [];
  for (let n = node; n && n.parent; n = n.parent) moves.push(n.long);
  return moves.reverse();
}

function gameSpec(node) {
  return {
    fen: S.startFen,
    variant: S.variant,
    captures_optional: S.capturesOptional,
    moves: pathTo(node || S.current),
  };
}

async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function say(text, error = false) {
  $("message").textContent = text || "";
  $("message").className = error ? "error" : "";
}
function status(text) { $("status").textContent = text || ""; }

// ---- the board ----------------------------------------------------------------------------

// A game on the turned board (the corner at each player's left hand a light square; the
// state says so): the server's square indices count files the other way there (the core
// stores such a board mirrored), so the page mirrors them back.
function turned() { return Boolean(S.state && S.state.turned); }

// The board's side (8, or 10 for International draughts; the state says so).
function size() { return (S.state && S.state.size) || 8; }

// Every square of the board is played (Turkish draughts; the state says so): square index
// 8 × rank + file, no light squares.
function everySquare() { return Boolean(S.state && S.state.every_square); }

// Each square's [file, rank] when the state lists them (the column games: Lasca's 7×7
// board has no even rows to count by), else null.
function grid() { return (S.state && S.state.grid) || null; }

// The square index at (file, rank) on a listed grid (null for a square not played).
function gridSquare(file, rank) {
  const table = grid();
  if (!table) return null;
  if (!S.gridIndex || S.gridIndex.table !== table) {
    const map = new Map(table.map(([f, r], sq) => [`${f},${r}`, sq]));
    S.gridIndex = { table, map };
  }
  const sq = S.gridIndex.map.get(`${file},${rank}`);
  return sq === undefined ? null : sq;
}

// The rank (0 = White's back rank) of square index `square`.
function rankOf(square) {
  if (grid()) return grid()[square][1];
  return Math.floor(square / (everySquare() ? size() : size() / 2));
}

// The file (0 = a) where square index `square` stands on the board as drawn.
function fileOf(square) {
  if (grid()) return grid()[square][0];
  if (everySquare()) return square % size();
  const half = size() / 2;
  const rank = Math.floor(square / half);
  const file = (square % half) * 2 + (rank % 2);
  return turned() ? size() - 1 - file : file;
}

function coords(square) {
  const rank = rankOf(square);
  const file = fileOf(square);
  const last = size() - 1;
  return S.flipped ? [last - file, rank] : [file, last - rank];
}

function squareAt(col, row) {
  const last = size() - 1;
  const file = S.flipped ? last - col : col;
  const rank = S.flipped ? row : last - row;
  if (grid()) return gridSquare(file, rank);
  if (everySquare()) return rank * size() + file;
  if ((file + rank) % 2 !== (turned() ? 1 : 0)) return null;
  const stored = turned() ? last - file : file;
  return rank * (size() / 2) + Math.floor(stored / 2);
}

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const n = size();
  svg.setAttribute("viewBox", `0 0 ${n * 100} ${n * 100}`);
  const state = S.state;
  const last = S.current && S.current.parent ? findMove(S.current) : null;
  const targets = new Set(nextSquares());
  const mustStart = new Set();
  if (state && state.must_capture) for (const m of state.legal) mustStart.add(m.start);
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const rect = document.createElementNS(SVG_NS, "rect");
      rect.setAttribute("x", col * 100);
      rect.setAttribute("y", row * 100);
      rect.setAttribute("width", 100);
      rect.setAttribute("height", 100);
      const sq = squareAt(col, row);
      // Turkish draughts plays every square: one colour, lined (as its boards are).
      let cls = "square " + (sq === null ? "light" : everySquare() ? "every" : "dark");
      if (sq !== null) {
        rect.dataset.square = sq;
        if (sq === S.selected) cls += " selected";
        else if (targets.has(sq)) cls += " target";
        else if (last && (last.start === sq || last.end === sq)) cls += " last";
        const piece = state && state.pieces[sq];
        const column = state && state.columns && state.columns[sq];
        const said = column ? columnWords(column) : piece ? PIECE_NAMES[piece] : "";
        rect.setAttribute("aria-label", `${squareName(sq)}${said ? ", " + said : ""}`);
      }
      rect.setAttribute("class", cls);
      svg.appendChild(rect);
    }
  }
  for (let i = 0; i < n; i++) {
    const file = document.createElementNS(SVG_NS, "text");
    file.setAttribute("class", "coord");
    file.setAttribute("font-size", fontSize(18));
    file.setAttribute("x", i * 100 + 100 - fontSize(14));
    file.setAttribute("y", n * 100 - 6);
    file.textContent = "abcdefghijkl"[S.flipped ? n - 1 - i : i];
    svg.appendChild(file);
    const rank = document.createElementNS(SVG_NS, "text");
    rank.setAttribute("class", "coord");
    rank.setAttribute("font-size", fontSize(18));
    // Beside the number on numeric boards: the rank's label sits at the square's bottom.
    rank.setAttribute("x", 3);
    rank.setAttribute("y", state && state.numbers ? i * 100 + 94 : i * 100 + fontSize(18));
    rank.textContent = String(S.flipped ? i + 1 : n - i);
    svg.appendChild(rank);
  }
  if (!state) return;
  if (last && last.squares.length > 1) {
    // The last move's path, so that a capture's route (the engine's too) can be followed.
    const line = document.createElementNS(SVG_NS, "polyline");
    line.setAttribute("class", "last-path");
    line.setAttribute(
      "points",
      last.squares.map((sq) => coords(sq).map((v) => v * 100 + 50).join(",")).join(" "),
    );
    svg.appendChild(line);
  }
  for (const [key, symbol] of Object.entries(state.pieces)) {
    const sq = Number(key);
    const column = state.columns && state.columns[key];
    if (column && column.length > 1) {
      drawColumn(svg, sq, column, mustStart.has(sq));
      continue;
    }
    const [col, row] = coords(sq);
    const white = symbol === "w" || symbol === "W";
    const king = symbol === "W" || symbol === "B";
    const colour = `piece ${white ? "white" : "black"}${mustStart.has(sq) ? " must" : ""}`;
    // A king is two men stacked, the upper one crowned, as draughts diagrams draw it.
    const discs = king ? [8, -6] : [0];
    for (const lift of discs) {
      const circle = document.createElementNS(SVG_NS, "circle");
      circle.setAttribute("cx", col * 100 + 50);
      circle.setAttribute("cy", row * 100 + 50 + lift);
      circle.setAttribute("r", king ? 36 : 38);
      circle.dataset.square = sq;
      circle.setAttribute("class", colour);
      svg.appendChild(circle);
    }
    if (king) {
      const crown = document.createElementNS(SVG_NS, "path");
      const x = col * 100 + 50;
      const y = row * 100 + 44;
      crown.setAttribute(
        "d",
        `M${x - 20},${y + 10} L${x - 24},${y - 12} L${x - 10},${y} L${x},${y - 18} ` +
          `L${x + 10},${y} L${x + 24},${y - 12} L${x + 20},${y + 10} Z`,
      );
      crown.setAttribute("class", "crown");
      svg.appendChild(crown);
    }
  }
  drawNumbers(svg);
}

const PIECE_NAMES = { w: "white man", W: "white king", b: "black man", B: "black king" };

// A column in words, top first: "white man over black man, black king" (3 pieces).
function columnWords(column) {
  const words = [...column].map((c) => PIECE_NAMES[c]).join(" over ");
  return column.length > 1 ? `a column of ${column.length}: ${words}` : words;
}

// The most discs a column shows; a taller one shows its top ones and its height.
const COLUMN_SHOWN = 7;

// A column of the column games (towers, Lasca) as a stack seen from the side: one slab a
// piece, the bottom one lowest, each in its piece's colour, a king's slab edged in gold (a
// king inside keeps its rank), a crown on the top one when it is a king; the height in a
// badge. `column` is its pieces' letters from the top down.
function drawColumn(svg, sq, column, must) {
  const [col, row] = coords(sq);
  const shown = [...column.slice(0, COLUMN_SHOWN)].reverse(); // bottom first
  const step = Math.min(24, 80 / shown.length);
  const bottom = row * 100 + 50 + (shown.length * step) / 2;
  const group = document.createElementNS(SVG_NS, "g");
  group.setAttribute("class", "column");
  group.dataset.square = sq;
  shown.forEach((letter, i) => {
    const white = letter === "w" || letter === "W";
    const king = letter === "W" || letter === "B";
    const top = i === shown.length - 1;
    const slab = document.createElementNS(SVG_NS, "rect");
    slab.setAttribute("x", col * 100 + 14);
    slab.setAttribute("y", bottom - (i + 1) * step + 1);
    slab.setAttribute("width", 72);
    slab.setAttribute("height", step - 3);
    slab.setAttribute("rx", Math.min(8, step / 2));
    slab.dataset.square = sq;
    let cls = `piece slab ${white ? "white" : "black"}`;
    if (king) cls += " king-inside";
    if (top && must) cls += " must";
    slab.setAttribute("class", cls);
    group.appendChild(slab);
    if (top && king) {
      const x = col * 100 + 50;
      const y = bottom - (i + 1) * step - 2;
      const crown = document.createElementNS(SVG_NS, "path");
      crown.setAttribute(
        "d",
        `M${x - 14},${y + 2} L${x - 17},${y - 14} L${x - 7},${y - 6} L${x},${y - 18} ` +
          `L${x + 7},${y - 6} L${x + 17},${y - 14} L${x + 14},${y + 2} Z`,
      );
      crown.setAttribute("class", "crown");
      group.appendChild(crown);
    }
  });
  const badge = document.createElementNS(SVG_NS, "text");
  badge.setAttribute("class", "height");
  badge.setAttribute("x", col * 100 + 97);
  badge.setAttribute("y", row * 100 + 97);
  badge.setAttribute("text-anchor", "end");
  badge.setAttribute("font-size", fontSize(16));
  badge.textContent = String(column.length);
  group.appendChild(badge);
  const title = document.createElementNS(SVG_NS, "title");
  title.textContent = columnWords(column);
  group.appendChild(title);
  svg.appendChild(group);
}

function drawNumbers(svg) {
  // Each square's number, where the game's players write numbers: in its top left corner,
  // above the pieces, outlined so that it reads on a man of either colour.
  if (!S.state || !S.state.numbers) return;
  for (let sq = 0; sq < S.state.numbers.length; sq++) {
    const [col, row] = coords(sq);
    const number = document.createElementNS(SVG_NS, "text");
    number.setAttribute("class", "number");
    number.setAttribute("x", col * 100 + 3);
    number.setAttribute("y", row * 100 + 3 + fontSize(15));
    number.setAttribute("font-size", fontSize(15));
    number.textContent = String(S.state.numbers[sq]);
    svg.appendChild(number);
  }
}

function fontSize(pixels) {
  // Text keeps its size on the screen whatever the board's size (the view box grows with it).
  return Math.round((pixels * size()) / 8);
}

function findMove(node) {
  // The move that led to ``node`` as the server listed it for its parent (for highlights).
  const history = S.state ? S.state.moves : [];
  const last = history[history.length - 1];
  if (!last || last.long !== node.long) return null;
  const squares = node.long.split(/[-:]/).map(squareIndex);
  return { start: squares[0], end: squares[squares.length - 1], squares };
}

function squareName(square) {
  return "abcdefghijkl"[fileOf(square)] + String(rankOf(square) + 1);
}

function squareIndex(name) {
  const file = name.charCodeAt(0) - 97;
  const rank = Number(name.slice(1)) - 1;
  if (grid()) return gridSquare(file, rank);
  if (everySquare()) return rank * size() + file;
  const stored = turned() ? size() - 1 - file : file;
  return rank * (size() / 2) + Math.floor(stored / 2);
}

function candidates() {
  if (!S.state || S.selected === null) return [];
  return S.state.legal.filter(
    (m) => m.start === S.selected && S.entered.every((sq, i) => m.path[i] === sq),
  );
}

function nextSquares() {
  return candidates()
    .filter((m) => m.path.length > S.entered.length)
    .map((m) => m.path[S.entered.length]);
}

function humanToMove() {
  if (S.clock && S.clock.flagged) return false;
  if (!S.state || S.state.result !== "*" || S.busy) return false;
  return S.opponent === "human" || S.state.turn === S.human;
}

function clickSquare(sq) {
  if (!humanToMove()) {
    if (S.state && S.state.result !== "*") say("the game is over");
    return;
  }
  const own = S.state.legal.some((m) => m.start === sq);
  if (S.selected !== null && nextSquares().includes(sq)) {
    S.entered.push(sq);
    const left = candidates();
    const done = left.filter((m) => m.path.length === S.entered.length);
    if (done.length === 1 && left.length === 1) {
      playMove(done[0]);
      return;
    }
    say(left.length ? "go on: the capture continues" : "");
    drawBoard();
    return;
  }
  if (S.selected !== null && S.entered.length === 0) {
    const direct = candidates().filter((m) => m.end === sq);
    if (direct.length === 1) {
      playMove(direct[0]);
      return;
    }
  }
  if (own) {
    S.selected = sq;
    S.entered = [];
    say("");
  } else {
    S.selected = null;
    S.entered = [];
    if (S.state.must_capture && S.state.legal.length) say("a capture is compulsory");
  }
  drawBoard();
}

let dragFrom = null;
function squareOf(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  if (!target || target.dataset.square === undefined) return null;
  return Number(target.dataset.square);
}

function setUpBoardEvents() {
  const svg = $("board");
  svg.addEventListener("pointerdown", (event) => {
    const sq = squareOf(event);
    if (sq === null) return;
    dragFrom = sq;
    clickSquare(sq);
  });
  svg.addEventListener("pointerup", (event) => {
    const sq = squareOf(event);
    if (dragFrom !== null && sq !== null && sq !== dragFrom) clickSquare(sq);
    dragFrom = null;
  });
}

// ---- moves --------------------------------------------------------------------------------

function addChild(long, text) {
  let child = S.current.children.find((c) => c.long === long);
  if (!child) {
    child = newNode(S.current, long, text);
    S.current.children.push(child);
  }
  S.current = child;
  return child;
}

async function playMove(move) {
  if (S.clock && S.clock.flagged) return;
  if (S.clock && !S.current.children.length) clockMoved(S.state.turn);
  S.selected = null;
  S.entered = [];
  say(""); // "go on: the capture continues" is over
  stopAnalysis();
  addChild(move.long, move.text);
  await refresh();
  await engineTurn();
}

async function refresh() {
  try {
    S.state = await api("/api/state", { game: gameSpec() });
  } catch (error) {
    say(error.message, true);
    return;
  }
  drawBoard();
  drawMoves();
  updateAddress();
  $("move-input").placeholder = S.state.numbers
    ? "a move: 12-16, 16x23 (or c3-d4)"
    : "c3-d4, e3:c5:e7 or 22-18";
  const state = S.state;
  if (S.analysedFen && S.analysedFen !== state.fen) clearAnalysis();
  drawTables();
  drawClocks();
  if (S.clock && S.clock.flagged) return; // the result on time stays shown
  if (state.result !== "*") {
    $("result").textContent = `${state.result} (${state.termination || "recorded"})`;
    status(`game over: ${state.result}`);
  } else {
    $("result").textContent = "";
    status(`${state.turn === "white" ? "White" : "Black"} to move`);
  }
}

function drawTables() {
  // The endgame tables' value of the position (the server started with --tables, and they
  // hold it): who wins and in how many moves, the best move, and the draw rules' word.
  const box = $("tables");
  const t = S.state.tables;
  if (!t) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const mover = S.state.turn === "white" ? "White" : "Black";
  const other = S.state.turn === "white" ? "Black" : "White";
  let text;
  if (t.wdl === 0) text = "a draw";
  else text = `${t.wdl > 0 ? mover : other} wins in ${t.moves} move${t.moves === 1 ? "" : "s"}`;
  if (t.best) text += ` (best ${t.best})`;
  if (t.rules_wdl !== t.wdl) text += "; a draw by the draw rules' counts";
  box.textContent = `Endgame tables: ${text}`;
}

// ---- the address: a link reproduces the game -----------------------------------------

function updateAddress() {
  // ?variant=…&fen=…&moves=… (the moves to the position shown, in the game's notation):
  // a link, a bookmark or a screenshot tool opens the same position.
  const params = new URLSearchParams();
  if (S.variant !== "russian") params.set("variant", S.variant);
  if (S.capturesOptional) params.set("captures_optional", "1");
  if (S.startFen) params.set("fen", S.startFen);
  const moves = [];
  for (let n = S.current; n && n.parent; n = n.parent) moves.push(n.text || n.long);
  if (moves.length) params.set("moves", moves.reverse().join(" "));
  const query = params.toString();
  const address = location.pathname + (query ? "?" + query : "");
  if (address !== location.pathname + location.search) history.replaceState(null, "", address);
}

async function openAddress() {
  // The game a link names: its variant, setup and moves, on a board two people share.
  const params = new URLSearchParams(location.search);
  if (!params.has("variant") && !params.has("fen") && !params.has("moves")) return false;
  const variant = params.get("variant") || "russian";
  if (![...$("variant").options].some((o) => o.value === variant)) {
    say(`unknown variant ${variant} in the address`, true);
    return false;
  }
  $("variant").value = variant;
  $("fen").value = params.get("fen") || "";
  $("captures-optional").checked = params.get("captures_optional") === "1";
  $("opponent").value = "human"; // a shared position: nobody moves on its own
  $("opening").value = "";
  await startGame();
  for (const text of (params.get("moves") || "").split(/\s+/).filter(Boolean)) {
    const move = S.state.legal.find((m) => [m.text, m.long, m.numeric].includes(text));
    if (!move) {
      say(`${text} in the address is not a legal move here`, true);
      break;
    }
    addChild(move.long, move.text);
    await refresh();
  }
  return true;
}

async function engineTurn() {
  const state = S.state;
  if (S.opponent !== "engine" || !state || state.result !== "*" || state.turn === S.human) return;
  S.busy = true;
  status("the engine is thinking…");
  try {
    const level = S.clock
      ? { clock: Math.max(0.01, clockLeft(state.turn) / 1000), inc: S.clock.inc / 1000 }
      : S.level;
    const reply = await api("/api/engine/move", { game: gameSpec(), level, client: S.client });
    if (S.clock && S.clock.flagged) return; // the engine's flag fell while it thought
    if (S.clock) clockMoved(state.turn);
    addChild(reply.move.long, reply.move.text);
    S.state = reply.state;
    if (reply.info) showEval(reply.info);
  } catch (error) {
    say(error.message, true);
  } finally {
    S.busy = false;
  }
  drawBoard();
  drawMoves();
  await refresh();
}

function drawMoves() {
  const box = $("moves");
  box.replaceChildren();
  const write = (node, ply, container, startOfLine) => {
    let n = node;
    let p = ply;
    let first = startOfLine;
    while (n.children.length) {
      const [main, ...others] = n.children;
      const white = (p + whiteStartsParity()) % 2 === 0;
      const number = Math.floor((p + whiteStartsParity()) / 2) + startNumber();
      if (white) container.append(`${number}. `);
      else if (first) container.append(`${number}... `);
      const span = document.createElement("span");
      span.className = "move" + (main === S.current ? " current" : "") + (main.judgement ? " " + main.judgement : "");
      span.textContent = main.text;
      span.title = main.long;
      span.addEventListener("click", () => goTo(main));
      container.append(span, " ");
      if (main.comment) {
        const note = document.createElement("span");
        note.className = "comment";
        note.textContent = main.comment;
        container.append(note);
      }
      for (const other of others) {
        const variation = document.createElement("span");
        variation.className = "variation";
        variation.append("( ");
        const move = document.createElement("span");
        move.className = "move" + (other === S.current ? " current" : "");
        move.textContent = other.text;
        move.title = other.long;
        move.addEventListener("click", () => goTo(other));
        const num = Math.floor((p + whiteStartsParity()) / 2) + startNumber();
        variation.append(white ? `${num}. ` : `${num}... `, move, " ");
        write(other, p + 1, variation, true);
        variation.append(") ");
        container.append(variation);
      }
      first = others.length > 0;
      n = main;
      p += 1;
    }
  };
  write(S.root, 0, box, true);
  const current = box.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function whiteStartsParity() {
  const fen = S.startFen || "W";
  return fen.trim()[0] === "B" ? 1 : 0;
}

function startNumber() { return 1; }

async function goTo(node) {
  stopAnalysis();
  S.current = node;
  S.selected = null;
  S.entered = [];
  await refresh();
}

async function takeback() {
  if (!S.current.parent || S.busy) return;
  stopAnalysis();
  const undo = () => {
    const parent = S.current.parent;
    parent.children = parent.children.filter((c) => c !== S.current);
    S.current = parent;
  };
  undo();
  await refresh();
  if (S.opponent === "engine" && S.current.parent && S.state.turn !== S.human) {
    undo();
    await refresh();
  }
}

// ---- new game -----------------------------------------------------------------------------

async function startGame() {
  stopAnalysis();
  const variant = $("variant").value;
  const capturesOptional = $("captures-optional").checked;
  const openingChoice = $("opening").value ? JSON.parse($("opening").value) : null;
  let startFen = $("fen").value.trim() || null;
  if (openingChoice && openingChoice.fen && !startFen) startFen = openingChoice.fen;
  // The new game's setup is checked before anything of the page changes: a bad FEN leaves
  // the game on the board as it was.
  try {
    await api("/api/state", {
      game: { fen: startFen, variant, captures_optional: capturesOptional, moves: [] },
    });
  } catch (error) {
    say(error.message, true);
    return;
  }
  S.variant = variant;
  S.capturesOptional = capturesOptional;
  S.opponent = $("opponent").value;
  S.human = $("color").value;
  S.flipped = S.opponent === "engine" && S.human === "black";
  const value = Number($("level-value").value);
  S.level = $("level-kind").value === "depth" ? { depth: Math.round(value) } : { time: value };
  S.startFen = startFen;
  S.headers = {};
  S.gameComment = "";
  S.root = newNode(null, null, null);
  S.current = S.root;
  S.reviewed = false;
  $("plot").replaceChildren();
  $("review-summary").textContent = "";
  clearAnalysis();
  const clock = $("clock").value;
  if (clock) {
    const [base, inc] = clock.split("+").map(Number);
    S.clock = { white: base * 1000, black: base * 1000, inc: inc * 1000, turn: null,
      since: performance.now(), flagged: null };
  } else {
    S.clock = null;
  }
  say("");
  const opening = openingChoice && openingChoice.moves;
  if (opening && !$("fen").value.trim()) {
    for (const text of opening.split(/\s+/)) {
      const state = await api("/api/state", { game: gameSpec() });
      const move = state.legal.find((m) => m.text === text || m.long === text);
      if (!move) break;
      addChild(move.long, move.text);
    }
  }
  await refresh();
  if (S.clock) {
    S.clock.turn = S.state.turn;
    S.clock.since = performance.now();
    drawClocks();
  }
  await engineTurn();
}

// ---- analysis -----------------------------------------------------------------------------

function showEval(info) {
  let fraction = 0.5;
  if (info.win !== null && info.win !== undefined) fraction = info.win > 0 ? 1 : 0;
  else if (info.cp !== null && info.cp !== undefined) fraction = 0.5 + 0.5 * Math.tanh(info.cp / 400);
  $("eval-fill").style.height = `${Math.round(fraction * 100)}%`;
  $("eval-text").textContent = info.score.replace(" (White's view)", "");
}

async function startAnalysis() {
  // A new analysis replaces the running one on the server; only a stop already sent is
  // waited for, so that it cannot reach the server after the new analysis has started.
  stopAnalysis(false);
  const token = S.analysisToken;
  await S.stopping;
  if (token !== S.analysisToken) return; // stopped or started again meanwhile
  if (!S.state || !S.state.legal.length) {
    say("no legal move to analyse");
    return;
  }
  const multipv = Math.max(1, Math.min(5, Number($("multipv").value) || 1));
  const params = new URLSearchParams({
    game: JSON.stringify(gameSpec()),
    multipv: String(multipv),
    client: S.client,
  });
  const source = new EventSource(`/api/analyse?${params}`);
  S.analysis = source;
  S.analysedFen = S.state.fen;
  let depth = 0;
  $("analyse").disabled = true;
  $("stop").disabled = false;
  const lines = [];
  source.onmessage = (event) => {
    if (S.analysis !== source) return; // an analysis replaced since
    const info = JSON.parse(event.data);
    lines[info.multipv - 1] = info;
    if (info.multipv === 1 && info.depth > depth) depth = info.depth; // never backwards
    $("depth").textContent = `depth ${depth}`;
    $("nps").textContent = `${Math.round(info.nps / 1000)} kN/s`;
    const list = $("lines");
    list.replaceChildren();
    for (const line of lines) {
      if (!line) continue;
      const item = document.createElement("li");
      item.textContent = `${line.score.replace(" (White's view)", "")}  ${line.pv.join(" ")}`;
      list.append(item);
    }
    if (info.multipv === 1) showEval(info);
  };
  source.addEventListener("done", () => {
    if (S.analysis === source) stopAnalysis(false);
  });
  source.onerror = () => {
    if (S.analysis === source) stopAnalysis(false);
    else source.close();
  };
}

function clearAnalysis() {
  S.analysedFen = null;
  $("lines").replaceChildren();
  $("depth").textContent = "";
  $("nps").textContent = "";
}

function stopAnalysis(tellServer = true) {
  S.analysisToken += 1;
  if (S.analysis) {
    S.analysis.close();
    S.analysis = null;
    if (tellServer) S.stopping = api("/api/stop", { client: S.client }).catch(() => {});
  }
  $("analyse").disabled = false;
  $("stop").disabled = true;
}

// ---- PDN ----------------------------------------------------------------------------------

function treeFromJson(json, parent) {
  for (const child of json.children) {
    const node = newNode(parent, child.long, child.text);
    node.comment = child.comment || "";
    parent.children.push(node);
    treeFromJson(child, node);
  }
}

function treeToJson(node) {
  return { long: node.long, comment: node.comment, children: node.children.map(treeToJson) };
}

async function loadPdn(text) {
  stopAnalysis();
  try {
    const game = await api("/api/pdn/read", { text });
    S.variant = game.variant;
    S.capturesOptional = game.captures_optional;
    $("variant").value = game.variant;
    $("captures-optional").checked = game.captures_optional;
    const start = await api("/api/state", {
      game: { variant: game.variant, captures_optional: game.captures_optional, moves: [] },
    });
    S.startFen = game.fen === start.fen ? null : game.fen;
    S.headers = game.headers; // kept for the download
    S.clock = null;
    S.gameComment = game.comment || "";
    S.root = newNode(null, null, null);
    treeFromJson(game.tree, S.root);
    S.current = S.root;
    S.opponent = "human";
    $("opponent").value = "human";
    S.reviewed = false;
    $("plot").replaceChildren();
    say(`loaded: ${game.headers.White || "?"} – ${game.headers.Black || "?"}`);
    await refresh();
  } catch (error) {
    say(error.message, true);
  }
}

async function downloadPdn() {
  try {
    const data = await api("/api/pdn/write", {
      game: {
        fen: S.startFen,
        variant: S.variant,
        captures_optional: S.capturesOptional,
        comment: S.gameComment || "",
        tree: { children: S.root.children.map(treeToJson) },
      },
      headers: S.headers || {},
    });
    $("pdn").value = data.pdn;
    const blob = new Blob([data.pdn], { type: "text/plain" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "game.pdn";
    link.click();
    URL.revokeObjectURL(link.href);
  } catch (error) {
    say(error.message, true);
  }
}

// ---- review -------------------------------------------------------------------------------

async function reviewGame() {
  stopAnalysis();
  const main = [];
  for (let n = S.root; n.children.length; n = n.children[0]) main.push(n.children[0]);
  if (!main.length) {
    say("no moves to review");
    return;
  }
  status("reviewing…");
  $("review").disabled = true;
  try {
    const report = await api("/api/review", {
      game: gameSpec(main[main.length - 1]),
      level: { depth: Number($("review-depth").value) || 8 },
      client: S.client,
    });
    report.moves.forEach((m, i) => { main[i].judgement = m.judgement; });
    $("plot").innerHTML = report.svg; // generated by our server, numbers and move texts only
    // Every point of the plot goes to its position (plies from the start of the game).
    for (const point of $("plot").querySelectorAll("[data-ply]")) {
      const ply = Number(point.dataset.ply);
      point.style.cursor = "pointer";
      point.addEventListener("click", () => goTo(ply === 0 ? S.root : main[ply - 1]));
    }
    const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
    const side = (r) =>
      `${count(r.inaccuracy, "inaccuracy", "inaccuracies")}, ` +
      `${count(r.mistake, "mistake", "mistakes")}, ${count(r.blunder, "blunder", "blunders")}`;
    $("review-summary").textContent = `White: ${side(report.white)} · Black: ${side(report.black)}`;
    S.reviewed = true;
    drawMoves();
    status("review done");
  } catch (error) {
    say(error.message, true);
  } finally {
    $("review").disabled = false;
  }
}

// ---- set up -------------------------------------------------------------------------------

async function init() {
  setUpBoardEvents();
  setInterval(tickClocks, 100);
  $("start").addEventListener("click", startGame);
  $("flip").addEventListener("click", () => { S.flipped = !S.flipped; drawBoard(); });
  $("takeback").addEventListener("click", takeback);
  $("first").addEventListener("click", () => goTo(S.root));
  $("back").addEventListener("click", () => S.current.parent && goTo(S.current.parent));
  $("forward").addEventListener("click", () => S.current.children.length && goTo(S.current.children[0]));
  $("last").addEventListener("click", () => {
    let n = S.current;
    while (n.children.length) n = n.children[0];
    goTo(n);
  });
  document.addEventListener("keydown", (event) => {
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
    if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
    if (keys[event.key]) {
      event.preventDefault();
      $(keys[event.key]).click();
    }
  });
  const playTyped = () => {
    const text = $("move-input").value.trim().replace(/x/g, ":");
    if (!text || !S.state) return;
    if (!humanToMove()) {
      say(S.state.result !== "*" ? "the game is over" : "it is not your move", true);
      return;
    }
    const move = S.state.legal.find((m) => [m.text, m.long, m.numeric].includes(text));
    if (!move) {
      say(`${text} is not a legal move here`, true);
      return;
    }
    $("move-input").value = "";
    playMove(move);
  };
  $("move-input").addEventListener("keydown", (event) => {
    if (event.key === "Enter") playTyped();
  });
  $("play-move").addEventListener("click", playTyped);
  $("analyse").addEventListener("click", startAnalysis);
  $("stop").addEventListener("click", () => stopAnalysis(true));
  $("load-pdn").addEventListener("click", () => loadPdn($("pdn").value));
  $("upload").addEventListener("change", () => {
    const file = $("upload").files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => { $("pdn").value = reader.result; loadPdn(reader.result); };
    reader.readAsText(file);
  });
  $("download").addEventListener("click", downloadPdn);
  $("review").addEventListener("click", reviewGame);
  $("level-kind").addEventListener("change", () => {
    const depth = $("level-kind").value === "depth";
    $("level-value").value = depth ? "6" : "0.5";
    $("level-value").step = depth ? "1" : "any";
  });
  try {
    const cards = (await api("/api/games")).games;
    $("variant").replaceChildren(...cards.map((card) => {
      const option = document.createElement("option");
      option.value = card.name;
      const size = card.board_size;
      option.textContent = card.display_name + (size === 8 ? "" : ` (${size}×${size})`);
      return option;
    }));
    $("variant").value = S.variant;
  } catch (error) {
    say(error.message, true);
  }
  try {
    const data = await api("/api/openings");
    for (const opening of data.openings) {
      const option = document.createElement("option");
      option.value = JSON.stringify(opening);
      option.textContent = opening.label;
      $("opening").append(option);
    }
  } catch (error) {
    say(error.message, true);
  }
  S.root = newNode(null, null, null);
  S.current = S.root;
  if (!(await openAddress())) await refresh();
  document.body.dataset.ready = "true";
}

init();
