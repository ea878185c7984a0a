// Analysis mode of the page: the computer's evaluation of the position shown (the game's, or an
// earlier one looked at with viewPly) as a bar beside the board, its best line as numbered arrows
// on the board and as text, buttons that step through the game, and "Play from here". The server
// analyses (GET /api/games/ID/analysis, docs/serve.md), sending a report after every depth as a
// server-sent event; a new position shown abandons the analysis of the old one. Uses app.js's
// page, board, viewPly, sourceOf and setup.js's openSetupFrom.
"use strict";

const analysis = {
  on: false,
  key: null,          // the position analysed: game id, ply and FEN
  controller: null,   // aborts the request of the analysis in progress
  report: null,       // the last ANALYSIS the server sent for it
  failure: null,      // why there is none (the server refused, or the search failed)
  running: false,
};
const ARROWS = 6;     // moves of the best line drawn on the board

function shownPly() {
  return page.viewing ? page.viewing.ply : page.game.moves.length;
}

// Start (or end) analysing, each time the board is drawn: a new position is analysed anew, the
// same one keeps its report and only gets its arrows back (the board's picture was replaced).
document.addEventListener("board-drawn", () => {
  if (!analysis.on || !page.game) return;
  const key = `${page.game.id} ${shownPly()} ${(page.viewing || page.game).fen}`;
  if (key !== analysis.key) analyse(key, page.game.id, shownPly());
  else showAnalysis();
});

async function analyse(key, id, ply) {
  if (analysis.controller) analysis.controller.abort();
  const controller = new AbortController();
  Object.assign(analysis, {key, controller, report: null, failure: null, running: true});
  showAnalysis();
  const headers = page.tokens.length ? {"X-Seat-Token": page.tokens.join(",")} : {};
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(id)}/analysis?ply=${ply}`,
                                 {headers, signal: controller.signal});
    if (!response.ok) throw Object.assign(new Error(), {answer: await response.json()});
    await readEvents(response, (kind, data) => {
      if (analysis.controller !== controller) return;
      if (kind === "failed") analysis.failure = data.message;
      else analysis.report = data;
      showAnalysis();
    });
  } catch (error) {
    if (error.name === "AbortError" || analysis.controller !== controller) return;
    analysis.failure = error.answer ? error.answer.message + (error.answer.hint ? ` (${error.answer.hint})` : "") : String(error);
  }
  if (analysis.controller !== controller) return;
  analysis.running = false;
  analysis.controller = null;
  showAnalysis();
}

// Read a server-sent event stream from a fetch response, calling onEvent(kind, data) for each event.
async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const {value, done} = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, {stream: true});
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const lines = buffer.slice(0, end).split("\n");
      buffer = buffer.slice(end + 2);
      const kind = lines.find((line) => line.startsWith("event: "));
      const data = lines.find((line) => line.startsWith("data: "));
      if (kind && data) onEvent(kind.slice(7), JSON.parse(data.slice(6)));
    }
  }
}

function stopAnalysis() {
  if (analysis.controller) analysis.controller.abort();
  Object.assign(analysis, {key: null, controller: null, report: null, failure: null, running: false});
}

// ------------------------------------------------------------------ showing it
function showAnalysis() {
  $("analysis").hidden = !analysis.on;
  $("eval-bar").hidden = !analysis.on;
  $("analyse").setAttribute("aria-pressed", String(analysis.on));
  $("analyse").classList.toggle("pressed", analysis.on);
  // The board beside the bar rather than in the middle of its room.
  if (board.svg) board.svg.setAttribute("preserveAspectRatio", analysis.on ? "xMinYMid meet" : "xMidYMid meet");
  if (!analysis.on || !page.game) {
    board.arrows([]);
    return;
  }
  const at = shownPly(), last = page.game.moves.length;
  $("step-start").disabled = $("step-back").disabled = at === 0;
  $("step-forward").disabled = $("step-end").disabled = at === last;
  const report = analysis.report;
  showBar(report);
  board.arrows(report ? report.pv.slice(0, ARROWS).map((move) =>
    ({from: move.from, to: move.to, kind: move.army === report.to_move ? "own" : "other"})) : []);
  showSummary(report);
  showLine(report);
}

// The bar: in a game of two teams, the first army's team's share from its side of the board (the
// bottom, unless the board is turned to the other team); otherwise the share of the side to move.
function showBar(report) {
  const bar = $("eval-bar"), fill = $("eval-fill"), text = $("eval-text");
  const variant = page.game.variant;
  const firstTeam = teamOf(variant.armies[0].name);
  const bottom = variant.armies.find((army) => variant.rotations[army.name] === page.rotation) || variant.armies[0];
  let share = 0.5, label = "…";
  if (report && report.result) {
    const winners = report.result.winners;
    share = winners.length === 0 ? 0.5 : winners.some((army) => teamOf(army) === firstTeam) ? 1 : 0;
    label = report.result.token || "";
  } else if (report && report.score) {
    const score = report.first || report.score;
    share = score.mate !== null ? (score.mate > 0 ? 1 : 0) : 1 / (1 + Math.pow(10, -score.cp / 400));
    label = score.text;
  }
  const twoTeams = Boolean(report ? report.first : variant.teams.length === 2);
  const flipped = twoTeams && teamOf(bottom.name) !== firstTeam;
  bar.classList.toggle("mover", !twoTeams);
  bar.classList.toggle("flipped", flipped);
  fill.style.height = `${(share * 100).toFixed(1)}%`;
  text.textContent = label;
  // The score is written at the end of the side that leads, in that side's colours.
  text.classList.toggle("on-fill", share >= 0.5);
  text.classList.toggle("at-top", flipped === (share >= 0.5));
  const whose = twoTeams ? armyTitle(variant.armies[0].name) : report ? armyTitle(report.to_move) : "";
  bar.title = report && report.score ? `${label} for ${whose}` : "";
  bar.setAttribute("aria-valuenow", (share * 100).toFixed(0));
}

function teamOf(army) {
  const team = page.game.variant.teams.find((t) => t.armies.includes(army));
  return team ? team.name : army;
}

function showSummary(report) {
  const parts = [];
  if (analysis.failure) parts.push(analysis.failure);
  else if (report && report.result) parts.push(`${capitalise(report.result.text)}.`);
  else if (report && report.score) {
    parts.push(`${armyTitle(report.to_move)} to move: ${report.score.text}`);
    parts.push(`depth ${report.depth}`, `${report.nodes.toLocaleString("en")} positions`);
  }
  if (analysis.running) parts.push(report ? "searching deeper…" : "analysing…");
  const summary = $("analysis-summary");
  summary.textContent = parts.join(" · ");
  summary.classList.toggle("error", Boolean(analysis.failure));
}

function showLine(report) {
  const list = $("analysis-line");
  list.replaceChildren(...(report ? report.pv : []).map((move, index) => {
    const item = document.createElement("li");
    item.className = index < ARROWS ? "drawn" : "";
    item.title = `${armyTitle(move.army)}: ${move.san}`;
    item.textContent = move.san;
    return item;
  }));
}

// ------------------------------------------------------------------ the buttons
$("analyse").addEventListener("click", () => {
  analysis.on = !analysis.on;
  if (!analysis.on) stopAnalysis();
  if (analysis.on && page.game) document.dispatchEvent(new CustomEvent("board-drawn"));
  else showAnalysis();
});
$("step-start").addEventListener("click", () => viewPly(0));
$("step-back").addEventListener("click", () => viewPly(Math.max(0, shownPly() - 1)));
$("step-forward").addEventListener("click", () => viewPly(Math.min(page.game.moves.length, shownPly() + 1)));
$("step-end").addEventListener("click", () => viewPly(page.game.moves.length));
$("play-from-here").addEventListener("click", () => openSetupFrom(sourceOf(page.game), (page.viewing || page.game).fen));
