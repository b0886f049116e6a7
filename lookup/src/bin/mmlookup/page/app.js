// The hint board: every answer comes from the JSON API of `mmlookup serve` (the
// same answers as `mmlookup next --json` and `explain --json`), or, on the folder
// `mmlookup site` writes, from the lookup core compiled to WebAssembly, which
// answers the same requests with the same JSON by walking the tree bytes in this
// page (site.js carries it and the trees). This script only keeps the game (the
// moves entered) and draws it. The position lives in the URL
// (#tree=NAME&moves=1122:1,0+1344:0,1), so it can be shared, bookmarked and
// reloaded; the computer's secret never does.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const FILLS = ["#e01b24", "#2ec27e", "#3584e4", "#f6d32d", "#ff7800", "#9141ac", "#ffffff", "#63452c",
  "#f9a8d4", "#99c1f1", "#8ff0a4", "#000000", "#c0bfbc", "#dc8add", "#cdab8f", "#1c3f8a"];

const state = {
  trees: [], tree: null, mode: "hints",
  moves: [],        // [{guess: "1122", answer: "1,0"}]
  guess: [],        // one symbol (or null) per peg
  slot: 0,          // the peg the next colour goes to
  black: 0, white: 0,
  hint: null,       // the last /api/next answer
  secret: null,     // the computer's secret, in "theirs" mode
  revealed: false,  // in "theirs" mode, whether the player asked for this move's hint
};

// What each mode is for, shown under the choice.
const INSTRUCTIONS = {
  hints: "Play a game elsewhere: enter each guess and the answer it got, and the tree gives the next guess.",
  mine: "Think of a secret: the computer guesses, you give each answer with the black and white pegs.",
  theirs: "The computer hid a secret: pick colours, enter your guess, and ask for a hint only if you want one.",
};

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// The page's lookup core, when site.js brought one: a function from a request
// (`/api/next?moves=...`) to a promise of {status, body}, as the server would
// answer it. It runs in a Web Worker, so a slow answer (a live hint off a big
// tree's line: seconds on 5x8) never freezes the page, and Cancel can stop it.
let core = null;
let worker = null;

const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

// Starts the core (see ports/wasm/src/lib.rs for its interface) on `site`'s trees: a
// function from a request to {status, body}. The worker runs it (and a benchmark
// may, on the page's own thread: `make bench-devices`).
async function startCore(site) {
  const { instance } = await WebAssembly.instantiate(fromBase64(site.core));
  const w = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const put = (bytes) => {
    const at = w.input(bytes.length); // may grow the memory: take its buffer after
    new Uint8Array(w.memory.buffer, at, bytes.length).set(bytes);
  };
  const output = () => decoder.decode(new Uint8Array(w.memory.buffer, w.output(), w.output_len()));
  for (const tree of site.trees) {
    const name = encoder.encode(tree.id);
    const symbols = encoder.encode(tree.symbols || "");
    const file = fromBase64(tree.file);
    const all = new Uint8Array(name.length + symbols.length + file.length);
    all.set(name);
    all.set(symbols, name.length);
    all.set(file, name.length + symbols.length);
    put(all);
    if (!w.add_tree(name.length, symbols.length)) throw new Error(output());
  }
  return (target) => {
    put(encoder.encode(target));
    const status = w.answer();
    return { status, body: JSON.parse(output()) };
  };
}

// The worker's own part of its script (after fromBase64 and startCore): starts
// the core on the trees it is sent, then answers each request.
function coreWorker() {
  // Requests sent while the core starts wait for it.
  let ready = null;
  onmessage = async (event) => {
    const { id, site, target } = event.data;
    try {
      if (site) ready = startCore(site);
      const answer = await ready;
      postMessage({ id, ...(site ? {} : answer(target)) });
    } catch (error) {
      postMessage({ id, error: error.message });
    }
  };
}

// Starts a worker with the core on `site`'s trees; resolves once it is ready.
function startWorker(site) {
  const source = `"use strict";const fromBase64 = ${fromBase64};${startCore};(${coreWorker})();`;
  const pending = new Map();
  let next = 0;
  const ask = (message) => new Promise((resolve, reject) => {
    next += 1;
    pending.set(next, { resolve, reject });
    worker.postMessage({ id: next, ...message });
  });
  worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  worker.onmessage = (event) => {
    const { id, error, ...answer } = event.data;
    const waiting = pending.get(id);
    pending.delete(id);
    if (waiting) error ? waiting.reject(new Error(error)) : waiting.resolve(answer);
  };
  worker.stop = () => {
    worker.terminate();
    for (const waiting of pending.values()) waiting.reject(new Error(CANCELLED));
  };
  core = (target) => ask({ target });
  return ask({ site });
}

const CANCELLED = "cancelled: no hint for this position yet (ask again with Undo, or play on)";
// What is being asked now, so that Cancel can stop it: the fetches' controller.
let inFlight = 0;
let controller = null;

// The answer to a request: from the core when there is one, else the server. A
// request that takes a while shows the spinner and its Cancel button.
async function request(target) {
  inFlight += 1;
  const timer = setTimeout(() => { $("busy").hidden = false; }, 150);
  try {
    if (core) return await core(target);
    controller = new AbortController();
    const response = await fetch(target, { signal: controller.signal });
    return { status: response.status, body: await response.json() };
  } catch (error) {
    throw error.name === "AbortError" ? new Error(CANCELLED) : error;
  } finally {
    inFlight -= 1;
    clearTimeout(timer);
    if (!inFlight) $("busy").hidden = true;
  }
}

// Stops what is being computed: the worker is ended (and a fresh one started on
// the same trees), or the fetch aborted.
function cancel() {
  if (core) {
    worker.stop();
    startWorker(MMTREE_SITE).catch((error) => say(`cannot start the page's lookup core: ${error.message}`));
  } else if (controller) {
    controller.abort();
  }
  say(CANCELLED, "prompt");
}

async function api(path, params = {}) {
  const query = new URLSearchParams({ tree: state.tree.id, ...params });
  const { status, body } = await request(`/api/${path}?${query}`);
  if (status !== 200) throw new Error(body.error || `HTTP ${status}`);
  return body;
}

const movesParam = (moves) => moves.map((m) => `${m.guess}:${m.answer}`).join(" ");

// A message: an error (the default), a prompt, or good news; each looks different.
function say(text, kind = "error") {
  // A cancelled answer is said as such, whatever was waiting for it.
  if (text.endsWith(CANCELLED)) [text, kind] = [CANCELLED, "prompt"];
  const box = $("message");
  box.textContent = text;
  box.className = kind;
}

// The position in the URL: the tree and the moves (not in "theirs" mode, whose
// secret must stay hidden).
function saveHash() {
  const params = new URLSearchParams({ tree: state.tree.id });
  if (state.mode !== "hints") params.set("mode", state.mode);
  if (state.mode !== "theirs" && state.moves.length) params.set("moves", movesParam(state.moves).replaceAll(" ", "+"));
  const hash = "#" + params.toString().replaceAll("%3A", ":").replaceAll("%2C", ",").replaceAll("%2B", "+");
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

// The position a URL names, or null.
function readHash() {
  const params = new URLSearchParams(location.hash.slice(1).replaceAll("+", "%2B"));
  // Junk is cut short, so that a message never echoes more than a few dozen
  // characters of an address.
  const short = (text) => (text.length > 24 ? `${text.slice(0, 24)}…` : text);
  const moves = (params.get("moves") || "").split("+").filter(Boolean).map((m) => {
    const [guess, answer = ""] = m.split(":");
    return { guess: short(guess), answer: short(answer) };
  });
  const tree = params.get("tree");
  return { tree: tree === null ? null : short(tree), mode: params.get("mode"), moves };
}

function peg(symbol, tag = "span") {
  const colour = state.tree.symbols.indexOf(symbol);
  const node = el(tag, { class: symbol ? `peg c${colour}` : "peg empty" }, symbol || "");
  node.setAttribute("aria-label", symbol ? `colour ${symbol}` : "empty");
  return node;
}

function pegs(code) {
  const row = el("span", { class: "pegs", "aria-hidden": "true" });
  for (const s of code) row.append(peg(s));
  return row;
}

function keys(answer) {
  const [b, w] = answer.split(",").map(Number);
  const row = el("span", { class: "keys", "aria-hidden": "true" });
  for (let i = 0; i < b; i++) row.append(el("span", { class: "key black" }));
  for (let i = 0; i < w; i++) row.append(el("span", { class: "key white" }));
  return row;
}

// ---- drawing the game ---------------------------------------------------------

function drawBoard() {
  const board = $("board");
  board.replaceChildren();
  state.moves.forEach((m, i) => {
    const item = el("li", { "aria-label": `move ${i + 1}: ${m.guess}, answer ${m.answer}` });
    item.append(el("span", {}, `${i + 1}.`), pegs(m.guess), el("code", {}, m.guess), keys(m.answer), el("span", {}, m.answer));
    board.append(item);
  });
}

function drawEntry() {
  const slots = $("slots");
  slots.replaceChildren();
  state.guess.forEach((symbol, i) => {
    const button = peg(symbol, "button");
    button.type = "button";
    button.id = `slot-${i}`;
    button.setAttribute("aria-label", `peg ${i + 1}: ${symbol ? "colour " + symbol : "empty"}`);
    if (i === state.slot) button.classList.add("selected");
    button.addEventListener("click", () => { state.slot = i; drawEntry(); });
    slots.append(button);
  });
  $("black").textContent = state.black;
  $("white").textContent = state.white;
  const mine = state.mode === "mine", theirs = state.mode === "theirs";
  for (const id of ["black-minus", "black-plus", "white-minus", "white-plus"]) $(id).disabled = theirs;
  for (const b of $("palette").querySelectorAll("button")) b.disabled = mine;
  $("use-hint").disabled = mine || !state.hint || state.hint.solved || hidden();
}

// In "theirs" mode the next guess, its explanation and the secrets stay hidden
// until the player asks for a hint (as `mmlookup challenge` does).
const hidden = () => state.mode === "theirs" && !state.revealed;

function drawHidden() {
  $("reveal").hidden = !hidden() || (state.hint && state.hint.solved);
  $("hint-body").hidden = hidden();
}

function drawPalette() {
  const palette = $("palette");
  palette.replaceChildren();
  [...state.tree.symbols].forEach((symbol) => {
    const button = peg(symbol, "button");
    button.type = "button";
    button.dataset.symbol = symbol;
    button.setAttribute("aria-label", `colour ${symbol}`);
    button.addEventListener("click", () => place(symbol));
    palette.append(button);
  });
}

function place(symbol) {
  const repeat = state.tree.repeat;
  if (!repeat && state.guess.some((s, i) => s === symbol && i !== state.slot)) {
    say(`no repeated colours on this board: ${symbol} is used already`);
    return;
  }
  state.guess[state.slot] = symbol;
  state.slot = Math.min(state.slot + 1, state.guess.length - 1);
  say("");
  drawEntry();
}

// ---- the hint and its explanation ---------------------------------------------

// Draws the game and asks for its hint (unless `ask` is false: the hint for this
// position was just cancelled).
async function refresh(ask = true) {
  saveHash();
  drawBoard();
  drawHidden();
  $("secrets").textContent = "";
  $("show").setAttribute("aria-expanded", "false");
  if (!ask) {
    for (const id of ["hint-code", "remaining", "why"]) $(id).textContent = "";
    for (const id of ["hint-pegs", "explain"]) $(id).replaceChildren();
    drawEntry();
    return;
  }
  try {
    const hint = await api("next", { moves: movesParam(state.moves) });
    state.hint = hint;
    if (hint.solved) {
      $("hint-code").textContent = "solved";
      $("hint-pegs").replaceChildren();
      $("remaining").textContent = `Solved in ${hint.guesses} ${hint.guesses === 1 ? "guess" : "guesses"}.`;
      $("why").textContent = "";
      $("explain").replaceChildren();
    } else {
      $("hint-code").textContent = hint.guess;
      $("hint-pegs").replaceChildren(...pegs(hint.guess).childNodes);
      const n = hint.candidates;
      const from = hint.source === "tree" ? "from the tree" : `off the tree's line, so computed live with the ${hint.rule} rule`;
      $("remaining").textContent = `${n} ${n === 1 ? "secret" : "secrets"} still possible; guess ${hint.move} of the game, ${from}.`;
      if (state.mode === "mine") { state.guess = [...hint.guess]; state.slot = 0; }
      explainHint();
    }
  } catch (error) {
    say(error.message);
  }
  drawEntry();
}

async function explainHint() {
  try {
    const why = await api("explain", { moves: movesParam(state.moves) });
    const split = why.tree;
    $("why").textContent = why.verdict ? why.verdict.sentence :
      `${split.guess} splits the ${why.candidates} secrets into ${split.class_count} classes; the largest holds ${split.worst_class}.`;
    drawBars($("explain"), split.classes.map((c) => [c.answer, c.secrets]), split.worst_class,
      "secrets left after each answer");
  } catch (error) {
    $("why").textContent = error.message;
  }
}

// Each chart's drawing, by box: charts are drawn as wide as their box, so their
// text keeps its size, and drawn again when the window's width changes.
const charts = new Map();

function drawChart(box, draw) {
  charts.set(box, draw);
  draw();
}

let resized = null;
window.addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(() => charts.forEach((draw) => draw()), 100);
});

// The width to draw a chart in `box` at: its own, within limits.
const chartWidth = (box, least) => Math.max(least, Math.min(640, box.clientWidth || 640));

// Bars of [label, value]; bars equal to `mark` are drawn darker, and the caption
// says what that means (a label on each would overlap when several tie).
function drawBars(box, bars, mark, caption) {
  drawChart(box, () => barChart(box, bars, mark, caption));
}

// A label's width at the charts' 12 px font, generously, and a line's height.
const labelWidth = (text) => String(text).length * 7 + 4;
const LINE = 14;

// Bars stand upright; each row of labels (the values over the bars, the answers
// under them) lies flat while it fits, and is turned upright when it would overlap
// (a 5-peg board's twenty answers on a phone). Bars too many even for upright
// labels make the chart wider than its box, which then scrolls sideways: text
// never shrinks below its size and never overlaps.
function barChart(box, bars, mark, caption) {
  const count = Math.max(1, bars.length), left = 36, plot = 152, fits = chartWidth(box, 280);
  const widest = (row) => Math.max(...bars.map((bar) => labelWidth(bar[row])));
  const flat = [0, 1].map((row) => (fits - left) / count >= widest(row));
  const width = flat[0] && flat[1] ? fits : Math.max(fits, left + count * LINE);
  const step = (width - left) / count;
  const top = flat[1] ? LINE + 3 : widest(1) + 2, bottom = flat[0] ? 20 : widest(0) + 4;
  const height = top + plot + bottom;
  const most = Math.max(1, ...bars.map(([, v]) => v));
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": caption });
  if (width > fits) chart.setAttribute("style", `width: ${width}px; max-width: none`);
  chart.append(svg("title", {}, caption));
  // A label at (x, y): flat and centred, or upright reading upwards with its
  // `anchor` end at the point.
  const text = (lies, x, y, anchor, value) => chart.append(lies ?
    svg("text", { x, y, "text-anchor": "middle" }, value) :
    svg("text", { x: x + 4, y, "text-anchor": anchor, transform: `rotate(-90 ${x + 4} ${y})` }, value));
  bars.forEach(([label, value], i) => {
    const h = plot * value / most;
    const x = left + i * step + step * 0.1, y = top + plot - h, middle = x + step * 0.4;
    const worst = mark !== undefined && value === mark;
    chart.append(svg("rect", { x, y, width: step * 0.8, height: h, fill: worst ? "#a51d2d" : "#3584e4" }));
    text(flat[1], middle, y - 3, "start", value);
    text(flat[0], middle, top + plot + (flat[0] ? 14 : 4), "end", label);
  });
  chart.append(svg("line", { x1: left, x2: width, y1: top + plot, y2: top + plot, stroke: "#333" }));
  // The caption is the page's text, under the chart: it wraps on a phone.
  const said = mark === undefined ? caption : `${caption}; darker: the largest (${mark})`;
  box.replaceChildren(chart, el("p", { class: "caption" }, said));
}

// ---- the tree's pictures --------------------------------------------------------

async function drawStrategy() {
  const t = state.tree;
  $("summary").textContent = `${t.board}, ${t.strategy} tree: first guess ${t.first_guess}; ` +
    `${t.total} guesses over ${t.secrets} secrets (average ${t.average.toFixed(4)}), never more than ${t.worst}` +
    (t.proven ? "; proven optimal." : ".");
  drawBars($("histogram"), t.histogram.map((n, i) => [`${i + 1}`, n]), undefined, "secrets solved with 1, 2, ... guesses");
  try {
    drawTop(await api("top", { depth: 2 }));
  } catch (error) {
    $("top").textContent = error.message;
  }
}

function drawTop(root) {
  drawChart($("top"), () => topChart($("top"), root));
}

// The root's guess on the left, a line to each answer's next guess on the right;
// the lines take what the labels leave, so a phone's width keeps the labels whole.
function topChart(box, root) {
  const branches = root.branches;
  const width = chartWidth(box, 300), rowHeight = 20, height = 40 + rowHeight * Math.max(1, branches.length);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `the tree plays ${root.guess} first, then a guess for each answer` });
  const rootY = height / 2;
  const labels = branches.map((b) => `${b.answer} \u2192 ${b.guess}  (${b.candidates} ${b.candidates === 1 ? "secret" : "secrets"})`);
  // About 7 px a character at 12 px.
  const labelX = Math.max(100, width - 7 * Math.max(0, ...labels.map((l) => l.length)) - 4);
  chart.append(svg("text", { x: 4, y: rootY + 4 }, `${root.guess} (${root.candidates})`));
  branches.forEach((b, i) => {
    const y = 24 + i * rowHeight;
    chart.append(svg("line", { x1: Math.min(90, labelX - 16), y1: rootY, x2: labelX - 6, y2: y, stroke: "#999" }));
    chart.append(svg("text", { x: labelX, y: y + 4 }, labels[i]));
  });
  box.replaceChildren(chart);
}

// ---- moves ------------------------------------------------------------------------

async function enter() {
  if (state.hint && state.hint.solved) { say("the game is over: New game starts another", "prompt"); return; }
  if (state.guess.some((s) => !s)) { say("choose a colour for every peg first", "prompt"); return; }
  const guess = state.guess.join("");
  let answer = `${state.black},${state.white}`;
  try {
    if (state.mode === "theirs") answer = (await api("score", { guess, secret: state.secret })).answer;
    const moves = [...state.moves, { guess, answer }];
    await api("next", { moves: movesParam(moves) }); // refused moves change nothing
    state.moves = moves;
    state.revealed = false;
    state.guess = Array(state.guess.length).fill(null);
    state.slot = 0; state.black = 0; state.white = 0;
    say(answer === `${state.tree.pegs},0` ? `${guess} is the secret: solved in ${moves.length} ${moves.length === 1 ? "guess" : "guesses"}.` : "",
      "good");
    await refresh();
  } catch (error) {
    say(error.message); // what the player entered stays as it was
  }
}

function newGame(moves = [], ask = true) {
  state.moves = moves;
  state.revealed = false;
  state.guess = Array(state.tree.pegs).fill(null);
  state.slot = 0; state.black = 0; state.white = 0;
  state.secret = state.mode === "theirs" ? randomCode() : null;
  $("instructions").textContent = INSTRUCTIONS[state.mode];
  say(state.mode === "theirs" ? "The computer has hidden a secret: guess it." :
    state.mode === "mine" ? "Think of a secret; enter the answer to each guess." : "", "prompt");
  refresh(ask);
}

function randomCode() {
  const symbols = [...state.tree.symbols];
  const code = [];
  while (code.length < state.tree.pegs) {
    const s = symbols[Math.floor(Math.random() * symbols.length)];
    if (state.tree.repeat || !code.includes(s)) code.push(s);
  }
  return code.join("");
}

function step(which, by) {
  const pegs = state.tree.pegs;
  const next = Math.max(0, state[which] + by);
  if (state.black + state.white - state[which] + next > pegs) return;
  state[which] = next;
  drawEntry();
}

function selectTree(id, moves = [], ask = true) {
  state.tree = state.trees.find((t) => t.id === id);
  $("tree").value = id;
  drawPalette();
  drawStrategy();
  newGame(moves, ask);
}

// Opens the position the URL names: its tree, mode and moves (moves the tree
// refuses are dropped, with the reason shown).
async function openHash() {
  const wanted = readHash();
  const known = state.trees.find((t) => t.id === wanted.tree);
  const tree = known || state.trees[0];
  if (wanted.mode && INSTRUCTIONS[wanted.mode] && wanted.mode !== state.mode) {
    state.mode = wanted.mode;
    $("mode").value = wanted.mode;
  }
  const moves = state.mode === "theirs" ? [] : wanted.moves;
  state.tree = tree;
  // The moves the tree takes, up to the first it refuses: those are kept. A hint
  // cancelled on the way is not asked again: the moves are kept without it.
  let kept = moves.length, refused = null, cancelled = false;
  try {
    await api("next", { moves: movesParam(moves) });
  } catch (error) {
    cancelled = error.message === CANCELLED;
    for (kept = cancelled ? kept : 0; kept < moves.length; kept++) {
      try {
        await api("next", { moves: movesParam(moves.slice(0, kept + 1)) });
      } catch (why) {
        cancelled = why.message === CANCELLED;
        refused = why.message;
        break;
      }
    }
  }
  await selectTree(tree.id, moves.slice(0, cancelled ? kept + 1 : kept), !cancelled);
  if (cancelled) say(CANCELLED, "prompt");
  else if (wanted.tree && !known) say(`the address names no tree "${wanted.tree}" here; this is ${tree.id}`);
  else if (refused && kept === 0) say(`the position in the address was not opened: ${refused}`);
  else if (refused) say(`the address's moves were opened up to move ${kept}: ${refused}`);
}

function keyboard(event) {
  if (event.target.tagName === "SELECT" || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key.toLowerCase();
  if (state.tree.symbols.includes(key) && state.mode !== "mine") { place(key); event.preventDefault(); }
  else if (event.key === "Backspace") { state.guess[state.slot] = null; state.slot = Math.max(0, state.slot - 1); drawEntry(); }
  else if (event.key === "Enter" && event.target.tagName !== "BUTTON") enter();
}

async function start() {
  $("black-minus").addEventListener("click", () => step("black", -1));
  $("black-plus").addEventListener("click", () => step("black", 1));
  $("white-minus").addEventListener("click", () => step("white", -1));
  $("white-plus").addEventListener("click", () => step("white", 1));
  $("play").addEventListener("click", enter);
  $("use-hint").addEventListener("click", () => {
    if (state.hint && state.hint.guess) { state.guess = [...state.hint.guess]; state.slot = 0; say(""); drawEntry(); }
  });
  $("undo").addEventListener("click", () => { state.moves.pop(); say(""); refresh(); });
  $("reveal").addEventListener("click", () => { state.revealed = true; drawHidden(); drawEntry(); });
  $("new").addEventListener("click", () => newGame());
  $("mode").addEventListener("change", (e) => { state.mode = e.target.value; newGame(); });
  $("tree").addEventListener("change", (e) => selectTree(e.target.value));
  $("show").addEventListener("click", async () => {
    try {
      const list = await api("candidates", { moves: movesParam(state.moves) });
      const more = list.count > list.secrets.length ? ` ... (${list.count} in all)` : "";
      $("secrets").textContent = list.secrets.join(" ") + more;
      $("show").setAttribute("aria-expanded", "true");
    } catch (error) { say(error.message); }
  });
  document.addEventListener("keydown", keyboard);
  $("cancel").addEventListener("click", cancel);
  const site = typeof MMTREE_SITE === "undefined" ? null : MMTREE_SITE;
  try {
    if (site) await startWorker(site);
  } catch (error) {
    say(`cannot start the page's lookup core: ${error.message}`);
    return;
  }
  try {
    const { trees } = (await request("/api/trees")).body;
    state.trees = trees;
    for (const t of trees) $("tree").append(el("option", { value: t.id }, `${t.board} ${t.strategy} (${t.id})`));
    await openHash();
    // A URL typed or pasted (replaceState, used as the game goes, fires no event).
    window.addEventListener("hashchange", openHash);
  } catch (error) {
    say(`cannot reach the server: ${error.message}`);
  }
}

start();
