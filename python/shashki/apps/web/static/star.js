// The web board's star (Chinese checkers): the page keeps the game (its settings and its
// moves) and the server replays it for every answer (/api/star/state, /api/star/move).
"use strict";
// pages.js: $, SVG, message, post, element.

const COLOURS = ["#d33", "#2a7de1", "#2b9e3f", "#e8c020", "#8e44ad", "#f2f2f2"];
const NAMES = ["red", "blue", "green", "yellow", "purple", "white"];

const S = {
  game: { holes: 121, players: 2, hop: "any", moves: [] },
  humans: new Set([0]),
  time: 0.3,
  state: null,
  busy: false,
  selected: null,
  generation: 0,
};


function geometry(state) {
  // Doubled coordinates: x = 2q + r, y = r, scaled into the 800 x 800 view.
  const xs = state.holes.map((h) => 2 * h.q + h.r);
  const ys = state.holes.map((h) => h.r);
  const span = Math.max(Math.max(...xs) - Math.min(...xs), (Math.max(...ys) - Math.min(...ys)) * 2);
  const unit = 720 / span;
  const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
  return state.holes.map((h) => ({
    x: 400 + (2 * h.q + h.r - cx) * unit,
    y: 400 + h.r * unit * Math.sqrt(3),
    radius: unit * 0.8,
  }));
}

function draw() {
  const state = S.state;
  const svg = $("star");
  svg.innerHTML = "";
  if (!state) return;
  const at = geometry(state);
  const owner = new Map();
  state.pieces.forEach((holes, p) => holes.forEach((h) => owner.set(h, p)));
  const reach = new Map();
  if (S.selected !== null) {
    for (const m of state.moves) if (m.from === S.selected) reach.set(m.to, m);
  }
  const movable = new Set(state.moves.map((m) => m.from));
  const mine = !state.over && S.humans.has(state.turn) && !S.busy;
  at.forEach((p, h) => {
    const hole = element("circle", {
      cx: p.x, cy: p.y, r: p.radius * 0.45, class: "hole", "data-hole": h,
      fill: reach.has(h) ? "#5a8f3a" : "#3a3a3a", stroke: "#777", "stroke-width": 1,
    }, svg);
    hole.addEventListener("click", () => clickHole(h));
    if (owner.has(h)) {
      const piece = element("circle", {
        cx: p.x, cy: p.y, r: p.radius * 0.62, class: "piece", "data-hole": h,
        "data-player": owner.get(h), fill: COLOURS[owner.get(h)],
        stroke: h === S.selected ? "#fff" : (mine && movable.has(h) ? "#ffd54a" : "#222"),
        "stroke-width": h === S.selected ? 5 : (mine && movable.has(h) ? 3 : 1.5),
      }, svg);
      piece.addEventListener("click", () => clickHole(h));
    }
  });
  if (state.last) {
    const points = state.last.path.map((h) => `${at[h].x},${at[h].y}`).join(" ");
    element("polyline", { points, class: "last-path", "stroke-width": 5 }, svg);
  }
  const legend = $("legend");
  legend.innerHTML = "";
  state.seats.forEach(([seat, target], p) => {
    const li = document.createElement("li");
    const who = S.humans.has(p) ? "you" : "computer";
    const place = state.finished.indexOf(p);
    li.innerHTML = `<span style="color:${COLOURS[p]}">●</span> ${NAMES[p]} (${who}), point ${seat} → ${target}` +
      (place >= 0 ? ` — finished ${place + 1}` : "") + (p === state.turn && !state.over ? " — to move" : "");
    legend.appendChild(li);
  });
  $("result").textContent = state.over
    ? `game over after ${state.plies} plies: ${state.finished.map((p) => NAMES[p]).join(", ") || "nobody finished"}`
    : "";
  $("record").value = state.record;
  $("status").textContent = state.over ? "game over" : `${NAMES[state.turn]} to move (ply ${state.plies + 1})`;
}

async function refresh() {
  S.state = await post("/api/star/state", { game: S.game });
  draw();
}

async function play(text) {
  S.game.moves.push(text);
  S.selected = null;
  try {
    await refresh();
  } catch (error) {
    S.game.moves.pop();
    message(error.message, true);
    return;
  }
  message("");
  await computers();
}

async function computers() {
  const generation = S.generation;
  while (S.state && !S.state.over && !S.humans.has(S.state.turn)) {
    S.busy = true;
    const mover = S.state.turn;
    $("status").textContent = `${NAMES[S.state.turn]} (computer) is thinking…`;
    let answer;
    try {
      answer = await post("/api/star/move", { game: S.game, time: S.time });
    } catch (error) {
      S.busy = false;
      message(error.message, true);
      return;
    }
    if (generation !== S.generation) return;
    S.game.moves.push(answer.move.text);
    S.state = answer.state;
    S.busy = false;
    message(`${NAMES[mover]}: ${answer.move.text} (depth ${answer.info.depth}, ${answer.info.nodes} nodes)`);
    draw();
  }
  S.busy = false;
  draw();
}

function clickHole(h) {
  const state = S.state;
  if (!state || state.over || S.busy || !S.humans.has(state.turn)) return;
  const mine = state.pieces[state.turn].includes(h);
  if (mine) {
    S.selected = S.selected === h ? null : h;
    draw();
    return;
  }
  if (S.selected !== null) {
    const move = state.moves.find((m) => m.from === S.selected && m.to === h);
    if (move) play(move.text);
  }
}

async function start() {
  S.generation += 1;
  const players = Number($("players").value);
  const seat = Number($("seat").value);
  S.game = { holes: Number($("holes").value), players, hop: $("hop").value, moves: [] };
  S.humans = new Set(seat === -1 ? [...Array(players).keys()] : seat === -2 ? [] : [seat]);
  S.time = Number($("time").value) || 0.3;
  S.selected = null;
  S.busy = false;
  message("");
  await refresh();
  await computers();
}

async function undo() {
  if (S.busy) return;
  let taken = 0;
  while (S.game.moves.length && (taken === 0 || !S.humans.has(S.state.turn))) {
    S.game.moves.pop();
    taken += 1;
    await refresh();
  }
}

$("start").addEventListener("click", start);
$("undo").addEventListener("click", undo);
$("play-move").addEventListener("click", () => {
  const text = $("move-input").value.trim();
  if (text) play(text.toUpperCase());
  $("move-input").value = "";
});
$("move-input").addEventListener("keydown", (e) => { if (e.key === "Enter") $("play-move").click(); });
start();
