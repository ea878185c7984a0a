// The game controls of the page: the clocks, resigning, draw offers, sounds and premoves
// (docs/serve.md, "Clocks and game controls"). The server keeps the time and decides every
// result; this script counts the running clock down between two states, sends what the player
// does, plays a sound for each new move, and keeps a premove until it is the player's turn.
// Uses app.js's page, api, act, show, markBoard, humanToMove, seatOf and choose.
"use strict";

const controls = {
  received: 0,          // performance.now() when the clocks of the state shown arrived
  ticker: null,         // the interval that counts the running clock down
  resignArmed: null,    // a timer while the Resign button waits to be pressed again
  premove: null,        // {from, to}: a move queued for this page's side while another side is to move
  premoveFrom: null,    // the cell a premove starts from, while its target is chosen
  audio: null,          // the AudioContext, made at the first sound
};
const MUTED_KEY = "rules-dsl:muted";
const LOW_TIME_MS = 10000;

// Called by app.js's show() with the new state and the one shown before it (null for a new game).
function showControls(state, previous) {
  if (state.decided) $("undo").disabled = true;   // a resignation, a draw agreed or a flag fall is final
  showClocks(state);
  showGameButtons(state);
  playSound(state, previous);
  if (!previous || previous.ply !== state.ply || state.result) playPremove(state);
}

// ------------------------------------------------------------------ clocks
// "5:03", "0:07.4" under ten seconds (tenths, rounded up so that 0:00.0 means the flag fell), "1:02:03".
function clockText(ms) {
  const tenths = Math.max(0, Math.ceil(ms / 100));
  const seconds = Math.floor(tenths / 10), minutes = Math.floor(seconds / 60), hours = Math.floor(minutes / 60);
  const ss = String(seconds % 60).padStart(2, "0");
  if (hours) return `${hours}:${String(minutes % 60).padStart(2, "0")}:${ss}`;
  return seconds < 10 ? `${minutes}:${ss}.${tenths % 10}` : `${minutes}:${ss}`;
}

function showClocks(state) {
  const box = $("clocks");
  clearInterval(controls.ticker);
  box.hidden = !state.clock;
  if (!state.clock) return;
  controls.received = performance.now();
  box.replaceChildren(...state.seats.map((seat) => {
    const row = document.createElement("div");
    row.className = "clock";
    row.dataset.seat = seat.name;
    const control = state.clock.controls[seat.name];
    const name = Object.assign(document.createElement("span"), {className: "clock-name", textContent: seat.title});
    name.title = `${control.base / 60} min + ${control.increment} s a move`;
    row.append(name, Object.assign(document.createElement("span"), {className: "clock-time"}));
    return row;
  }));
  tickClocks();
  if (state.clock.running) controls.ticker = setInterval(tickClocks, 100);
}

function tickClocks() {
  const clock = page.game && page.game.clock;
  if (!clock) return;
  const ran = performance.now() - controls.received;
  for (const row of $("clocks").children) {
    const running = clock.running === row.dataset.seat;
    const left = clock.left[row.dataset.seat] - (running ? ran : 0);
    row.querySelector(".clock-time").textContent = clockText(left);
    row.classList.toggle("running", running);
    row.classList.toggle("low", left < LOW_TIME_MS);
  }
}

// ------------------------------------------------------------------ resigning and draws
function seatTitle(state, name) {
  const seat = state.seats.find((s) => s.name === name);
  return seat ? seat.title : name;
}

function showGameButtons(state) {
  const playing = page.held.length > 0 && !state.result;
  const offers = state.draw_offers;
  $("resign").hidden = !playing;
  $("draw-offer").hidden = !playing || state.seats.some((seat) => seat.kind !== "human");
  $("draw-offer").disabled = page.held.every((name) => offers.includes(name));
  if (!playing) disarmResign();
  const box = $("draw-offers");
  box.hidden = !playing || offers.length === 0;
  if (box.hidden) return;
  const names = offers.map((name) => seatTitle(state, name));
  $("draw-offers-text").textContent = `${names.join(" and ")} ${names.length > 1 ? "offer" : "offers"} a draw.`;
  const answers = page.held.some((name) => !offers.includes(name));
  $("draw-accept").hidden = !answers;
  $("draw-decline").textContent = answers ? "Decline" : "Withdraw";
}

function disarmResign() {
  clearTimeout(controls.resignArmed);
  controls.resignArmed = null;
  $("resign").textContent = "Resign";
  $("resign").classList.remove("armed");
}

// The first press asks to be sure ("Really resign?"), for three seconds; the second resigns.
$("resign").addEventListener("click", () => {
  if (!controls.resignArmed) {
    $("resign").textContent = "Really resign?";
    $("resign").classList.add("armed");
    controls.resignArmed = setTimeout(disarmResign, 3000);
    return;
  }
  disarmResign();
  act("POST", `/api/games/${page.game.id}/resign`, {});
});
$("draw-offer").addEventListener("click", () => act("POST", `/api/games/${page.game.id}/draw`, {action: "offer"}));
$("draw-accept").addEventListener("click", () => act("POST", `/api/games/${page.game.id}/draw`, {action: "accept"}));
$("draw-decline").addEventListener("click", () => act("POST", `/api/games/${page.game.id}/draw`, {action: "decline"}));

// ------------------------------------------------------------------ sounds
// Made with WebAudio (no sound files): a short tick for a move, a lower double knock for a
// capture, a rising pair of tones for a check. The mute switch is remembered in localStorage.
const TONES = {
  move: [[520, 0, 0.07, "triangle"]],
  capture: [[300, 0, 0.09, "square"], [170, 0.07, 0.12, "square"]],
  check: [[880, 0, 0.09, "sine"], [1175, 0.11, 0.14, "sine"]],
};

function muted() {
  try { return localStorage.getItem(MUTED_KEY) === "1"; } catch (error) { return false; }
}

function showMute() {
  const button = $("mute");
  button.textContent = muted() ? "Sound off" : "Sound on";
  button.setAttribute("aria-pressed", String(muted()));
}

$("mute").addEventListener("click", () => {
  try { localStorage.setItem(MUTED_KEY, muted() ? "0" : "1"); } catch (error) { /* private mode */ }
  showMute();
});
showMute();

// The sound of the plies between `previous` and `state`: a check, else a capture (the last
// move was a capture among the legal moves of the position before it), else a move.
function playSound(state, previous) {
  if (!previous || previous.id !== state.id || state.ply <= previous.ply) return;
  const last = state.last || {};
  const captured = state.ply === previous.ply + 1 &&
    previous.legal.some((m) => m.capture && m.from === last.from && m.to === last.to);
  tone(state.check.length ? "check" : captured ? "capture" : "move");
}

function tone(kind) {
  if (muted()) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  controls.audio = controls.audio || new Context();
  const audio = controls.audio;
  if (audio.state === "suspended") audio.resume();
  for (const [frequency, at, length, shape] of TONES[kind]) {
    const oscillator = audio.createOscillator(), gain = audio.createGain();
    const start = audio.currentTime + at;
    oscillator.type = shape;
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.2, start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(start);
    oscillator.stop(start + length + 0.02);
  }
  $("mute").dataset.played = kind;   // what was heard last (the page's tests read it)
}

// ------------------------------------------------------------------ premoves
// While another side is to move, a player picks one move for their own side (drag, or click its
// piece then a cell): it is shown and sent when their turn comes, if it is legal then (else it is
// dropped silently). Clicking elsewhere, the premove's first cell again, or a right click cancels it.
function premoveArmies() {
  const g = page.game;
  if (!g || g.result || page.viewing || humanToMove() || g.to_move.length === 0) return [];
  const waiting = g.seats.filter((seat) => seat.kind === "human" && page.held.includes(seat.name) &&
                                           !seat.armies.includes(g.to_move[0]));
  return waiting.flatMap((seat) => seat.armies);
}

function premoveStarts(cell) {
  return premoveArmies().some((army) => (page.game.cells_of[army] || []).includes(cell));
}

function premoveClick(cell) {
  if (premoveArmies().length === 0) return false;
  if (controls.premoveFrom !== null && cell !== controls.premoveFrom) {
    setPremove({from: controls.premoveFrom, to: cell});
  } else if (controls.premoveFrom === null && premoveStarts(cell)) {
    controls.premove = null;
    controls.premoveFrom = cell;
    markBoard();
  } else {
    cancelPremove();
  }
  return true;
}

function premoveDrop(from, to) {
  if (premoveArmies().length === 0) return false;
  setPremove({from, to});
  return true;
}

function setPremove(move) {
  controls.premove = move;
  controls.premoveFrom = null;
  const note = $("premove");
  note.textContent = `Premove ${move.from}–${move.to}: played when it is your turn (right click cancels).`;
  note.hidden = false;
  markBoard();
}

function cancelPremove() {
  controls.premove = null;
  controls.premoveFrom = null;
  $("premove").hidden = true;
  if (page.game) markBoard();
}

// Called by app.js's markBoard() with its add(cell, kind).
function premoveMarks(add) {
  if (controls.premoveFrom !== null) add(controls.premoveFrom, "premove");
  if (controls.premove) {
    add(controls.premove.from, "premove");
    add(controls.premove.to, "premove");
  }
}

// When the player's turn has come: the premove's legal move is played (a choice among several
// readings is asked as for any move), or the premove is dropped.
function playPremove(state) {
  const move = controls.premove;
  if (!move) {
    if (premoveArmies().length === 0) controls.premoveFrom = null;
    return;
  }
  if (state.result) return cancelPremove();
  if (!humanToMove()) return;
  const candidates = state.legal.filter((m) => m.from === move.from && m.to === move.to);
  cancelPremove();
  if (candidates.length) choose(candidates, move.to);
}

$("board").addEventListener("contextmenu", (event) => {
  if (!controls.premove && controls.premoveFrom === null) return;
  event.preventDefault();
  cancelPremove();
});
