// The page: a game of any variant through the JSON API of `rules serve` (docs/serve.md).
// The server knows the rules; this script shows its state and sends what the player does.
// The page plays the seats whose secret tokens it holds: all of them for a game it created
// (kept in localStorage under the game's id, never in its address), one for a page opened from
// a seat link (#game=ID&seat=TOKEN), none for a spectator (#game=ID). It follows the game live
// through server-sent events, and asks every two seconds while they are not connected.
"use strict";

const $ = (id) => document.getElementById(id);
const RULES = "__rules__";

const page = {
  game: null,        // the last state the server sent
  variants: [],
  selected: null,    // a cell name, or {drop: code}
  viewing: null,     // a ply being looked at (its position view), or null for the game
  rotation: null,    // degrees; null: not chosen yet for this game
  polling: false,
  setup: null,       // what /api/check said of the variant chosen in the dialog
  tokens: [],        // the seat tokens this page holds for the game shown
  held: [],          // the names of the seats they are the tokens of
  links: null,       // {spectator, seats: {name: link}}: the links this page may share
};
const live = {id: null, source: null, timer: null};

const board = new BoardView($("board"), (cell) => clickCell(cell), (from, to) => dropPiece(from, to));
board.canDrag = (cell) => movesFrom(cell).length > 0 || premoveStarts(cell);

// ------------------------------------------------------------------ the API
async function api(method, path, body, tokens = page.tokens) {
  const options = {method, headers: {}};
  if (tokens.length) options.headers["X-Seat-Token"] = tokens.join(",");
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.message);
    error.text = data.error;
    error.status = response.status;
    throw error;
  }
  return data;
}

function notice(text, kind) {
  const box = $("notice");
  box.textContent = text || "";
  box.hidden = !text;
  box.className = kind || "";
}

async function act(method, path, body) {
  try {
    const state = await api(method, path, body);
    show(state);
    return state;
  } catch (error) {
    notice(error.text || String(error), "error");
    return null;
  }
}

// ------------------------------------------------------------------ names and words
function armyTitle(name) {
  const army = page.game.variant.armies.find((a) => a.name === name);
  return army ? army.title : name;
}

function seatOf(army) {
  return page.game.seats.find((seat) => seat.armies.includes(army));
}

function humanToMove() {
  const g = page.game;
  if (g.result || g.thinking || g.to_move.length === 0) return false;
  const seat = seatOf(g.to_move[0]);
  return seat.kind === "human" && page.held.includes(seat.name);
}

function seatToMoveHeld() {
  const g = page.game;
  return g.to_move.length > 0 && page.held.includes(seatOf(g.to_move[0]).name);
}

// Whether Undo would be allowed: as the server decides, back to the last ply of a person of a seat
// this page holds, every ply after it a computer's or forced (not the other person's answer).
function canUndo() {
  const moves = page.game.moves;
  for (let i = moves.length - 1; i >= 0; i--) {
    const seat = seatOf(moves[i].army);
    if (!moves[i].forced && seat.kind === "human") return page.held.includes(seat.name);
  }
  return moves.length > 0 && page.held.length > 0;
}

function everySeatHeld(state) {
  return state.seats.every((seat) => page.held.includes(seat.name));
}

function sideText(armies) {
  const seat = seatOf(armies[0]);
  if (armies.length > 1 && seat) return `${seat.name[0].toUpperCase()}${seat.name.slice(1)} (${seat.title})`;
  return armies.map(armyTitle).join(" and ");
}

function forcedText(move) {
  if (move.san === "pass") return `${armyTitle(move.army)} has no legal move and passes.`;
  return `${armyTitle(move.army)}'s king is mated and leaves the board; the army plays on.`;
}

// ------------------------------------------------------------------ showing a state
function show(state) {
  const first = !page.game || page.game.id !== state.id;
  if (!first && state.version < page.game.version) return;   // an answer older than one shown
  if (!first && state.version === page.game.version && !state.thinking && !page.game.thinking &&
      state.failure === page.game.failure) return;            // the same state again (an event after an answer)
  const previous = first ? null : page.game;
  page.game = state;
  if (first) {
    page.rotation = startRotation(state);
    page.viewing = null;
    page.selected = null;
    fillBottomChoice(state);
  }
  if (page.selected !== null && !humanToMove()) page.selected = null;
  $("game-title").textContent = state.variant.title;
  $("game-mode").textContent = state.variant.mode ? `· ${modeTitle(state.variant)}` : "";
  document.title = `${state.variant.title} · rules-dsl`;
  notice(state.failure, "error");
  drawBoard();
  showStatus();
  showMoves();
  showSeats();
  showTeams();
  showLegend();
  if (!page.viewing) $("fen").value = state.fen;
  $("record").value = state.record;
  $("undo").disabled = !canUndo();
  $("computer-move").disabled = Boolean(state.result || state.thinking) || !seatToMoveHeld();
  $("undo").hidden = $("computer-move").hidden = page.held.length === 0;   // a spectator changes nothing
  showShare();
  showControls(state, previous);
  follow(state.id);
  poll();
}

function modeTitle(variant) {
  const mode = variant.modes.find((m) => m.name === variant.mode);
  return mode ? mode.title : variant.mode;
}

function startRotation(state) {
  const human = state.seats.find((seat) => seat.kind === "human" && page.held.includes(seat.name)) ||
    state.seats.find((seat) => seat.kind === "human");
  const army = human ? human.armies[0] : state.variant.armies[0].name;
  return state.variant.rotations[army] || 0;
}

function fillBottomChoice(state) {
  const armies = state.variant.armies;
  const select = $("bottom");
  select.replaceChildren(...armies.map((army) => new Option(army.title, army.name)));
  $("bottom-label").hidden = armies.length <= 2;
  const bottom = armies.find((army) => state.variant.rotations[army.name] === page.rotation);
  if (bottom) select.value = bottom.name;
}

function drawBoard() {
  const view = page.viewing || page.game;
  board.show(view.svg, page.rotation, page.game.variant.drawing);
  drawHands(view);
  drawFreeMoves();
  markBoard();
  document.dispatchEvent(new CustomEvent("board-drawn"));   // analysis.js draws its arrows again
}

function markBoard() {
  const view = page.viewing || page.game;
  const marks = new Map();
  const add = (cell, kind) => {
    if (!cell) return;
    if (!marks.has(cell)) marks.set(cell, []);
    marks.get(cell).push(kind);
  };
  if (view.last) {
    add(view.last.from, "last");
    if (view.last.to !== view.last.from) add(view.last.to, "last");
  }
  for (const cell of view.check) add(cell, "check");
  if (!page.viewing) premoveMarks(add);
  if (!page.viewing && askingSecond()) markSecond(add);
  else if (!page.viewing && page.selected !== null) {
    if (typeof page.selected === "string") add(page.selected, "selected");
    for (const move of selectedMoves()) add(move.to, move.capture ? "capture" : "target");
  }
  board.mark(marks);
  for (const button of document.querySelectorAll(".hand-piece")) {
    button.classList.toggle("selected", page.selected !== null && page.selected.drop === Number(button.dataset.code));
  }
}

function drawHands(view) {
  const top = $("hands-top"), bottom = $("hands-bottom");
  top.replaceChildren();
  bottom.replaceChildren();
  const atBottom = page.game.variant.armies.find((a) => page.game.variant.rotations[a.name] === page.rotation);
  for (const [army, pieces] of Object.entries(view.hands)) {
    const row = document.createElement("div");
    row.className = "hand";
    row.dataset.army = army;
    const label = document.createElement("span");
    label.className = "hand-label";
    label.textContent = `${armyTitle(army)} in hand:`;
    row.appendChild(label);
    if (pieces.length === 0) row.appendChild(Object.assign(document.createElement("span"), {className: "muted", textContent: "nothing"}));
    for (const piece of pieces) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "hand-piece";
      button.dataset.code = piece.code;
      button.title = `drop a ${piece.piece}`;
      button.innerHTML = piece.picture;   // the server's own SVG of the piece
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = piece.count > 1 ? `×${piece.count}` : "";
      button.appendChild(count);
      button.disabled = Boolean(page.viewing) || !page.game.legal.some((m) => m.drop === piece.code);
      button.addEventListener("click", () => pickDrop(piece.code));
      row.appendChild(button);
    }
    (atBottom && atBottom.name === army ? bottom : top).appendChild(row);
  }
}

// Legal moves that touch no cell the player can click (a pass that is not forced).
function drawFreeMoves() {
  const box = $("free-moves");
  box.replaceChildren();
  if (page.viewing || !humanToMove()) return;
  for (const move of page.game.legal.filter((m) => m.from === null && m.to === null)) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.san === "pass" ? "Pass" : move.san;
    button.addEventListener("click", () => play(move));
    box.appendChild(button);
  }
}

function showStatus() {
  const g = page.game;
  const status = $("status");
  status.className = "";
  if (g.result) {
    status.textContent = `${capitalise(g.result.text)}.`;
    status.classList.add("over");
  } else {
    const check = g.in_check ? " (in check)" : "";
    status.textContent = `${sideText(g.to_move)} to move${check}`;
  }
  const last = g.moves[g.moves.length - 1];
  if (last && last.forced && !page.viewing) notice(forcedText(last), "info");
  const thinking = $("thinking");
  thinking.hidden = !g.thinking;
  if (g.thinking) {
    const t = g.thinking;
    const seat = seatOf(t.army);
    const parts = [`${seat ? seat.label : "The computer"} is thinking for ${armyTitle(t.army)}`];
    if (t.depth) parts.push(`depth ${t.depth}`);
    if (t.score !== null) parts.push(`score ${t.score}`);
    if (t.nodes) parts.push(`${t.nodes.toLocaleString("en")} positions`);
    $("thinking-text").textContent = parts.join(" · ");
  }
}

function capitalise(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function showMoves() {
  const g = page.game;
  const list = $("moves");
  list.replaceChildren();
  showNotationChoice(g.variant);
  const perRound = g.variant.turns.length;
  list.style.setProperty("--per-round", perRound);
  let row = null;
  g.moves.forEach((move, index) => {
    const turn = index + g.start_turn;
    if (!row || turn % perRound === 0) {
      row = document.createElement("li");
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${g.start_fullmove + Math.floor(turn / perRound)}.`;
      row.appendChild(number);
      if (index === 0 && g.start_turn % perRound) {
        row.appendChild(Object.assign(document.createElement("span"), {className: "move muted", textContent: "…"}));
      }
      list.appendChild(row);
    }
    const item = document.createElement("button");
    item.type = "button";
    item.className = "move" + (move.forced ? " forced" : "");
    item.textContent = moveText(move);
    item.title = `${armyTitle(move.army)}: ${move.san}` + (move.forced ? " (forced)" : "");
    const ply = index + 1;
    if ((page.viewing && page.viewing.ply === ply) || (!page.viewing && ply === g.moves.length)) item.classList.add("current");
    item.addEventListener("click", () => viewPly(ply));
    row.appendChild(item);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({block: "nearest"});
}

function showSeats() {
  const g = page.game;
  const box = $("seats");
  box.replaceChildren();
  for (const seat of g.seats) {
    const label = document.createElement("label");
    label.className = "row";
    const mine = page.held.includes(seat.name);
    label.append(armiesWithColours(seat.armies));
    label.classList.toggle("mine", mine && !everySeatHeld(g));
    const select = seatSelect(g.variant.seat_kinds, seat.kind, (kind) =>
      act("PUT", `/api/games/${g.id}/seats`, {seats: {[seat.name]: kind}}));
    select.disabled = !mine;
    if (!mine) select.title = "only this seat's link changes who plays it";
    label.appendChild(select);
    box.appendChild(label);
  }
}

function seatSelect(kinds, value, onChange) {
  const select = document.createElement("select");
  for (const [kind, label] of Object.entries(kinds)) select.appendChild(new Option(label, kind));
  if (!(value in kinds)) select.appendChild(new Option(value, value));
  select.value = value;
  if (onChange) select.addEventListener("change", () => onChange(select.value));
  return select;
}

// Who this page plays, and the links it may share: every seat's (of a game it created) or its
// own, and the spectator link, each with a copy button.
function showShare() {
  const g = page.game;
  const you = $("you");
  if (page.held.length === 0) you.textContent = "You are watching this game.";
  else if (everySeatHeld(g)) you.textContent = "";
  else you.textContent = `You play ${g.seats.filter((s) => page.held.includes(s.name)).map((s) => s.title).join(" and ")}.`;
  you.hidden = !you.textContent;
  const box = $("share");
  box.replaceChildren();
  if (!page.links || page.links.id !== g.id) return;
  const humans = g.seats.filter((seat) => seat.kind === "human" && page.links.seats[seat.name]);
  const rows = humans.map((seat) => [everySeatHeld(g) ? `${seat.title}'s link (it plays ${seat.title}: send it to them)`
                                                     : `Your link (keep it: it plays ${seat.title})`, page.links.seats[seat.name],
                                     `seat-${seat.name}`]);
  rows.push(["Spectators' link (it watches, and plays nothing)", page.links.spectator, "spectator"]);
  for (const [words, link, name] of rows) {
    const row = document.createElement("div");
    row.className = "share-row";
    row.dataset.link = name;
    const label = document.createElement("span");
    label.textContent = words;
    const input = Object.assign(document.createElement("input"), {type: "text", readOnly: true, value: link});
    input.setAttribute("aria-label", words);
    input.addEventListener("focus", () => input.select());
    const copy = Object.assign(document.createElement("button"), {type: "button", textContent: "Copy"});
    copy.addEventListener("click", () => copyLink(input, copy));
    row.append(label, input, copy);
    box.appendChild(row);
  }
}

async function copyLink(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (error) {          // no clipboard API (a page not served over https or localhost)
    input.select();
    document.execCommand("copy");
  }
  button.textContent = "Copied";
  setTimeout(() => { button.textContent = "Copy"; }, 1500);
}

// The links this page may share, and the seats its tokens hold, for the game `id`.
async function loadLinks(id) {
  const shared = await api("GET", `/api/games/${id}/links`);
  page.held = shared.held;
  page.links = {id, spectator: shared.spectator, seats: shared.seats};
}

// Follow the game `id` live: server-sent events, and a request every two seconds while they are
// not connected (no EventSource, or reconnecting after a dropped connection; the browser's
// EventSource resumes by itself, sending the last version it saw).
function follow(id) {
  if (live.id === id) return;
  if (live.source) live.source.close();
  clearInterval(live.timer);
  live.id = id;
  live.source = window.EventSource ? new EventSource(`/api/games/${encodeURIComponent(id)}/events`) : null;
  if (live.source) {
    live.source.addEventListener("state", (event) => {
      const state = JSON.parse(event.data);
      if (page.game && state.id === page.game.id) show(state);
    });
  }
  live.timer = setInterval(async () => {
    if (live.source && live.source.readyState === EventSource.OPEN) return;
    try {
      const state = await api("GET", `/api/games/${encodeURIComponent(id)}`);
      if (page.game && state.id === page.game.id) show(state);
    } catch (error) {
      if (error.status === 404) clearInterval(live.timer);
    }
  }, 2000);
}

// While the computer thinks, ask again (the server answers as soon as it has moved).
async function poll() {
  if (page.polling || !page.game || !page.game.thinking) return;
  page.polling = true;
  try {
    const state = await api("GET", `/api/games/${page.game.id}?wait=0.5`);
    page.polling = false;
    if (page.game && state.id === page.game.id) show(state);
  } catch (error) {
    page.polling = false;
    notice(error.text || String(error), "error");
  }
}

// ------------------------------------------------------------------ choosing a move
function movesFrom(cell) {
  if (!page.game || page.viewing || !humanToMove()) return [];
  return page.game.legal.filter((m) => m.from === cell && m.to !== null);
}

function selectedMoves() {
  if (page.selected === null) return [];
  if (typeof page.selected === "string") return movesFrom(page.selected);
  return page.game.legal.filter((m) => m.drop === page.selected.drop);
}

function clickCell(cell) {
  hideChooser();
  if (page.viewing || premoveClick(cell)) return;
  if (askingSecond()) {
    clickSecond(cell);
    return;
  }
  const candidates = selectedMoves().filter((m) => m.to === cell);
  if (candidates.length) {
    choose(candidates, cell);
    return;
  }
  page.selected = page.selected !== cell && movesFrom(cell).length ? cell : null;
  markBoard();
}

function dropPiece(from, to) {
  if (premoveDrop(from, to)) return;
  const candidates = movesFrom(from).filter((m) => m.to === to);
  if (candidates.length) {
    page.selected = from;
    choose(candidates, to);
  }
}

function pickDrop(code) {
  hideChooser();
  page.selected = page.selected && page.selected.drop === code ? null : {drop: code};
  markBoard();
}

function choose(candidates, cell) {
  if (candidates.length === 1) {
    play(candidates[0]);
    return;
  }
  if (askSecond(candidates)) return;
  const box = $("chooser");
  box.replaceChildren();
  box.classList.toggle("strip", candidates.every((move) => move.picture));
  const heading = document.createElement("p");
  heading.textContent = "Which move?";
  box.appendChild(heading);
  for (const move of candidates) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.dataset.uci = move.uci;
    button.title = `${move.label || move.san} (${move.san})`;
    if (move.picture) {
      const picture = document.createElement("span");
      picture.className = "picture";
      picture.innerHTML = move.picture;   // the server's own SVG of the piece
      button.appendChild(picture);
    }
    const words = document.createElement("span");
    words.className = "words";
    words.textContent = move.label || move.san;
    const san = document.createElement("span");
    san.className = "san";
    san.textContent = move.san;
    button.append(words, san);
    button.addEventListener("click", () => { hideChooser(); play(move); });
    box.appendChild(button);
  }
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "cancel";
  cancel.textContent = "Cancel";
  cancel.title = "Cancel";
  cancel.addEventListener("click", hideChooser);
  box.appendChild(cancel);
  box.hidden = false;
  placeChooser(box, cell);
  box.querySelector("button").focus();
}

function hideChooser() {
  $("chooser").hidden = true;
}

async function play(move) {
  page.selected = null;
  notice("");
  await act("POST", `/api/games/${page.game.id}/moves`, {move: move.uci});
}

// ------------------------------------------------------------------ looking back
async function viewPly(ply) {
  hideChooser();
  page.selected = null;
  if (ply === page.game.moves.length) return backToGame();
  try {
    page.viewing = await api("GET", `/api/games/${page.game.id}/positions/${ply}`);
  } catch (error) {
    notice(error.text || String(error), "error");
    return;
  }
  $("viewing").hidden = false;
  const move = page.game.moves[ply - 1];
  $("viewing-text").textContent = ply === 0 ? "Viewing the start position." :
    `Viewing the position after ${armyTitle(move.army)}'s ${moveText(move)} (ply ${ply}).`;
  $("fen").value = page.viewing.fen;
  drawBoard();
  showMoves();
}

function backToGame() {
  page.viewing = null;
  $("viewing").hidden = true;
  $("fen").value = page.game.fen;
  drawBoard();
  showMoves();
}

document.addEventListener("keydown", (event) => {
  if (!page.game || event.target.closest("input, textarea, select, dialog")) return;
  const at = page.viewing ? page.viewing.ply : page.game.moves.length;
  if (event.key === "ArrowLeft" && at > 0) viewPly(at - 1);
  else if (event.key === "ArrowRight" && at < page.game.moves.length) viewPly(at + 1);
  else if (event.key === "Escape") { hideChooser(); forgetSecond(); page.selected = null; markBoard(); }
});

// ------------------------------------------------------------------ the toolbar
$("undo").addEventListener("click", () => { backToGameQuietly(); act("POST", `/api/games/${page.game.id}/undo`, {}); });
$("computer-move").addEventListener("click", () => act("POST", `/api/games/${page.game.id}/computer`, {}));
$("flip").addEventListener("click", () => {
  page.rotation = (page.rotation + 180) % 360;
  fillBottomChoice(page.game);
  drawBoard();
});
$("bottom").addEventListener("change", () => {
  page.rotation = page.game.variant.rotations[$("bottom").value] || 0;
  drawBoard();
});
$("back-to-game").addEventListener("click", backToGame);

function backToGameQuietly() {
  page.viewing = null;
  $("viewing").hidden = true;
}

function sourceOf(game) {
  // The variant of the running game, to start another game of it.
  const source = {mode: game.variant.mode, options: game.options,
                  seats: Object.fromEntries(game.seats.map((s) => [s.name, s.kind]))};
  if (page.rules !== undefined && page.rulesGame === game.id) source.rules = page.rules;
  else source.variant = game.variant.name;
  return source;
}

$("fen-load").addEventListener("click", () => startGame({...sourceOf(page.game), fen: $("fen").value.trim()}));
$("record-load").addEventListener("click", () => {
  const source = sourceOf(page.game);
  const body = {record: $("record").value, seats: source.seats};
  if (source.rules !== undefined) body.rules = source.rules;
  startGame(body);
});
$("record-save").addEventListener("click", () => {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([page.game.record], {type: "text/plain"}));
  link.download = `${page.game.variant.name}.pgn`;
  link.click();
  URL.revokeObjectURL(link.href);
});

async function startGame(body) {
  try {
    const state = await api("POST", "/api/games", body, []);
    const old = page.game && everySeatHeld(page.game) ? {id: page.game.id, tokens: page.tokens} : null;
    page.game = null;
    backToGameQuietly();
    notice("");
    if (body.rules !== undefined) {
      page.rules = body.rules;
      page.rulesGame = state.id;
    }
    page.tokens = Object.values(state.tokens);
    page.held = Object.keys(state.tokens);
    page.links = {id: state.id, ...state.links};
    keepTokens(state.id, page.tokens);
    history.replaceState(null, "", `#game=${state.id}`);
    show(state);
    // The game this page created is abandoned; one it only plays a seat of goes on for the others.
    if (old) {
      forgetTokens(old.id);
      api("DELETE", `/api/games/${old.id}`, undefined, old.tokens).catch(() => {});
    }
    return true;
  } catch (error) {
    return error;
  }
}

// ------------------------------------------------------------------ the game of the address
// The tokens of the games this browser created, by game id, so that reloading keeps every seat.
function keepTokens(id, tokens) {
  try { localStorage.setItem(`rules-dsl:tokens:${id}`, JSON.stringify(tokens)); } catch (error) { /* private mode */ }
}

function forgetTokens(id) {
  try { localStorage.removeItem(`rules-dsl:tokens:${id}`); } catch (error) { /* private mode */ }
}

function keptTokens(id) {
  try {
    const kept = JSON.parse(localStorage.getItem(`rules-dsl:tokens:${id}`) || "[]");
    return Array.isArray(kept) ? kept.filter((t) => typeof t === "string") : [];
  } catch (error) {
    return [];
  }
}

// Open the game the address names (#game=ID, with &seat=TOKEN for a seat link); false if it names none.
async function openLinkedGame() {
  const fields = new URLSearchParams(location.hash.slice(1));
  const id = fields.get("game");
  if (!id) return false;
  const seat = (fields.get("seat") || "").split(",").filter(Boolean);
  page.tokens = [...new Set([...seat, ...keptTokens(id)])];
  try {
    await loadLinks(id);
    show(await api("GET", `/api/games/${encodeURIComponent(id)}`));
  } catch (error) {
    notice(error.text || String(error), "error");
    page.tokens = [];
    page.held = [];
    return false;
  }
  if (seat.length && page.held.length === 0) notice("This link's seat token is not one of this game's.", "error");
  return true;
}

window.addEventListener("hashchange", () => location.reload());
