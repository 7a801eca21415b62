// The web board's Чапаев: the page keeps the round (its flicks) and the server replays it
// for every answer; a flick's paths come back as frames, animated here at their own pace.
"use strict";
// pages.js: $, SVG, message, post, element.

const S = {
  flicks: [],
  humans: new Set(["w"]),
  level: 2,
  state: null,
  busy: false,
  animating: false,
  drag: null,
  generation: 0,
};
const UNIT = 100; // pixels a square
const FULL = 3.0; // a drag of three squares is a flick of full strength

const px = (x) => x * UNIT;
const py = (y) => (8 - y) * UNIT;

function draw(positions) {
  const svg = $("table");
  svg.innerHTML = "";
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      element("rect", { x: f * UNIT, y: (7 - r) * UNIT, width: UNIT, height: UNIT,
        class: (f + r) % 2 === 0 ? "square dark" : "square light" }, svg);
    }
  }
  if (!S.state) return;
  const mine = !S.state.result && S.humans.has(S.state.turn) && !S.busy && !S.animating;
  S.state.discs.forEach((d, i) => {
    const at = positions ? positions[i] : [d.x, d.y];
    const on = positions ? at[0] >= 0 && at[0] <= 8 && at[1] >= 0 && at[1] <= 8 && (d.on || positions) : d.on;
    if (!on) return;
    const disc = element("circle", {
      cx: px(at[0]), cy: py(at[1]), r: S.state.radius * UNIT, class: "disc",
      "data-disc": d.name,
      fill: d.name[0] === "w" ? "#f4f4f4" : "#1a1a1a",
      stroke: mine && d.name[0] === S.state.turn ? "#ffd54a" : "#888",
      "stroke-width": mine && d.name[0] === S.state.turn ? 5 : 2,
    }, svg);
    disc.addEventListener("pointerdown", (e) => startDrag(e, d));
  });
  if (S.drag && S.drag.to) {
    const { disc, to } = S.drag;
    element("line", { x1: px(disc.x), y1: py(disc.y), x2: px(to[0]), y2: py(to[1]),
      stroke: "#ffd54a", "stroke-width": 6, "stroke-linecap": "round", class: "aim" }, svg);
  }
}

function show() {
  const st = S.state;
  draw(null);
  const count = (side) => st.discs.filter((d) => d.on && d.name[0] === side).length;
  $("counts").textContent = `White ${count("w")} discs, Black ${count("b")}`;
  $("result").textContent = st.result === null ? "" :
    st.result === "draw" ? "the round is drawn" : `${st.result === "w" ? "White" : "Black"} wins the round`;
  $("record").value = st.record;
  $("status").textContent = st.result === null ? `${st.turn === "w" ? "White" : "Black"} to flick` : "round over";
}

function boardPoint(event) {
  const svg = $("table");
  const box = svg.getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * 800 / UNIT;
  const y = 8 - ((event.clientY - box.top) / box.height) * 800 / UNIT;
  return [x, y];
}

function startDrag(event, disc) {
  const st = S.state;
  if (!st || st.result || S.busy || S.animating || !S.humans.has(st.turn) || disc.name[0] !== st.turn) return;
  event.preventDefault();
  S.drag = { disc, to: null };
}

function moveDrag(event) {
  if (!S.drag) return;
  S.drag.to = boardPoint(event);
  draw(null);
}

function endDrag(event) {
  if (!S.drag) return;
  const { disc } = S.drag;
  const to = boardPoint(event);
  S.drag = null;
  const dx = to[0] - disc.x, dy = to[1] - disc.y;
  const length = Math.hypot(dx, dy);
  if (length < 0.05) { draw(null); return; }
  let angle = (Math.atan2(dy, dx) * 180) / Math.PI;
  if (angle < 0) angle += 360;
  const strength = Math.min(1, length / FULL);
  flick(`${disc.name[1]}:${angle.toFixed(2)}:${strength.toFixed(3)}`);
}

function animate(frames) {
  return new Promise((resolve) => {
    S.animating = true;
    const started = performance.now();
    function step(now) {
      const k = Math.min(frames.length - 1, Math.floor(((now - started) / 1000) * 60));
      draw(frames[k]);
      if (k < frames.length - 1) requestAnimationFrame(step);
      else { S.animating = false; resolve(); }
    }
    requestAnimationFrame(step);
  });
}

function said(shot, who) {
  const off = shot.off.length ? `off ${shot.off.join(", ")}` : "nothing off";
  return `${who} ${shot.flick}: ${off}${shot.again ? ", flicks again" : ""}`;
}

async function flick(text) {
  if (S.busy) return;
  S.busy = true;
  let answer;
  try {
    answer = await post("/api/chapaev/flick", { game: { flicks: S.flicks }, flick: text });
  } catch (error) {
    S.busy = false;
    message(error.message, true);
    draw(null);
    return;
  }
  S.flicks.push(answer.shot.flick);
  await animate(answer.shot.frames);
  S.state = answer.state;
  S.busy = false;
  message(said(answer.shot, "you"));
  show();
  await computers();
}

async function computers() {
  const generation = S.generation;
  while (S.state && S.state.result === null && !S.humans.has(S.state.turn)) {
    S.busy = true;
    $("status").textContent = "the computer is aiming…";
    let answer;
    try {
      answer = await post("/api/chapaev/aim", { game: { flicks: S.flicks }, level: S.level });
    } catch (error) {
      S.busy = false;
      message(error.message, true);
      return;
    }
    if (generation !== S.generation) return;
    S.flicks.push(answer.shot.flick);
    await animate(answer.shot.frames);
    S.state = answer.state;
    S.busy = false;
    message(said(answer.shot, "the computer"));
    show();
  }
  S.busy = false;
}

async function start() {
  S.generation += 1;
  const side = $("side-select").value;
  S.humans = new Set(side === "both" ? ["w", "b"] : side === "none" ? [] : [side]);
  S.level = Number($("level").value);
  S.flicks = [];
  S.busy = false;
  message("");
  S.state = await post("/api/chapaev/state", { game: { flicks: [] } });
  show();
  await computers();
}

async function undo() {
  if (S.busy || S.animating) return;
  let taken = 0;
  while (S.flicks.length && (taken === 0 || !S.humans.has(S.state.turn))) {
    S.flicks.pop();
    taken += 1;
    S.state = await post("/api/chapaev/state", { game: { flicks: S.flicks } });
  }
  show();
}

$("table").addEventListener("pointermove", moveDrag);
window.addEventListener("pointerup", endDrag);
$("start").addEventListener("click", start);
$("undo").addEventListener("click", undo);
$("play-flick").addEventListener("click", () => {
  const text = $("flick-input").value.trim();
  $("flick-input").value = "";
  if (text) flick(text.replace(/\s+/g, ":"));
});
$("flick-input").addEventListener("keydown", (e) => { if (e.key === "Enter") $("play-flick").click(); });
start();
