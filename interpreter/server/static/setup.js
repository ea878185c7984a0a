// The new-game dialog of the page: a bundled variant or rules text (pasted or uploaded),
// checked by the server (its errors shown as `rules check` prints them), its mode, the
// mode's options, who plays each seat and a start position. Uses app.js's api and startGame,
// and catalogue.js's variant chooser. How the page starts: the game of its address (a seat or
// spectator link); else a game of the variant of `?variant=NAME` (a rule page's "play this") or
// of the one `rules serve VARIANT` named, you against the computer, without asking; else the
// dialog, over the default variant's game if it is cancelled (the page always shows a board).
"use strict";

const setup = {
  dialog: $("setup"), variant: $("setup-variant"), rules: $("setup-rules"), text: $("setup-rules-text"),
  file: $("setup-rules-file"), error: $("setup-error"), warnings: $("setup-warnings"), mode: $("setup-mode"), modeRow: $("setup-mode-row"),
  options: $("setup-options"), seats: $("setup-seats"), fen: $("setup-fen"),
};

function setupError(text) {
  setup.error.textContent = text || "";
  setup.error.hidden = !text;
}

function setupRequest() {
  const body = {};
  if (setup.variant.value === RULES) {
    body.rules = setup.text.value;
    if (setup.fileName) body.name = setup.fileName;
  } else {
    body.variant = setup.variant.value;
  }
  if (!setup.modeRow.hidden && setup.mode.value) body.mode = setup.mode.value;
  const options = {};
  for (const select of setup.options.querySelectorAll("select")) options[select.name] = select.value;
  if (Object.keys(options).length) body.options = options;
  return body;
}

// Only the answer to the latest check counts: a person (or a test) who opens the dialog and at once
// chooses another variant starts two checks, and the first may come back last.
let setupChecks = 0;

async function checkSetup() {
  const serial = ++setupChecks;
  setupError("");
  $("setup-start").disabled = true;
  const failed = () => {
    if (serial !== setupChecks) return;
    page.setup = null;
    setup.seats.hidden = true;
    setup.modeRow.hidden = true;
    setup.options.replaceChildren();
  };
  if (setup.variant.value === RULES && !setup.text.value.trim()) return failed();
  let checked;
  try {
    checked = await api("POST", "/api/check", setupRequest());
  } catch (error) {
    if (serial !== setupChecks) return;
    failed();
    setupError(error.text || String(error));
    return;
  }
  if (serial !== setupChecks) return;
  page.setup = checked;
  setup.seats.hidden = false;
  fillSetup(page.setup);
  $("setup-start").disabled = false;
}

function fillSetup(checked) {
  const variant = checked.variant;
  const lines = [...checked.notes.map((n) => `note: ${n}`), ...checked.warnings];   // as `rules check` prints them
  setup.warnings.textContent = lines.join("\n");
  setup.warnings.hidden = lines.length === 0;
  setup.modeRow.hidden = variant.modes.length === 0;
  setup.mode.replaceChildren(...variant.modes.map((m) => new Option(m.title, m.name)));
  if (variant.mode) setup.mode.value = variant.mode;
  const chosen = {};
  for (const select of setup.options.querySelectorAll("select")) chosen[select.name] = select.value;
  setup.options.replaceChildren();
  const mode = variant.modes.find((m) => m.name === variant.mode);
  for (const [player, team] of Object.entries(mode ? mode.options : {})) {
    const label = document.createElement("label");
    label.className = "row";
    label.append(`${capitalise(player)} plays the team`);
    const select = document.createElement("select");
    select.name = player;
    for (const t of variant.teams) select.appendChild(new Option(t.name, t.name));
    select.value = chosen[player] || team;
    select.addEventListener("change", checkSetup);
    label.appendChild(select);
    setup.options.appendChild(label);
  }
  setup.seats.replaceChildren(Object.assign(document.createElement("legend"), {textContent: "Who plays"}));
  checked.seats.forEach((seat, index) => {
    const label = document.createElement("label");
    label.className = "row";
    label.append(seat.name === seat.armies[0] ? seat.title : `${capitalise(seat.name)} (${seat.title})`);
    const select = seatSelect(variant.seat_kinds, defaultSeatKind(index));
    select.name = seat.name;
    label.appendChild(select);
    setup.seats.appendChild(label);
  });
  fillClockForm(checked.seats);
}

// Who plays a seat unless the player says otherwise: the first seat a person, the others the computer.
function defaultSeatKind(index) {
  return index === 0 ? "human" : "ai:level=easy";
}

// Start a game of a bundled variant (in `mode`, or its default) with the default seats; true, or
// the error (shown as a notice).
async function quickStart(variant, mode) {
  const body = {variant};
  if (mode) body.mode = mode;
  return startAgainstComputer(body);
}

// A game of the variant or rules text of `body`, you (the first seat) against the computer; false
// (the error shown) when it cannot be started.
async function startAgainstComputer(body) {
  let outcome;
  try {
    const checked = await api("POST", "/api/check", body);
    body.seats = Object.fromEntries(checked.seats.map((seat, index) => [seat.name, defaultSeatKind(index)]));
    outcome = await startGame(body);
  } catch (error) {
    outcome = error;
  }
  if (outcome !== true) notice(outcome.text || String(outcome), "error");
  return outcome === true;
}

// The text "Play it" on the design page handed over (once: it is taken), played against the computer.
async function playDesigned() {
  let handed = null;
  try {
    handed = JSON.parse(localStorage.getItem("rules-dsl:design-play") || "null");
    localStorage.removeItem("rules-dsl:design-play");
  } catch (error) { /* nothing handed over */ }
  return !!handed && typeof handed.text === "string" && startAgainstComputer({rules: handed.text, name: handed.name});
}

function openSetup() {
  setupError("");
  if (!setup.dialog.open) setup.dialog.showModal();
  checkSetup();
}

// The dialog for a new game like `source` (sourceOf in app.js: variant or rules text, mode,
// options, seats) from the position `fen`, its seats chosen as in that game ("play from here").
async function openSetupFrom(source, fen) {
  setup.variant.value = source.rules !== undefined ? RULES : source.variant;
  setup.rules.hidden = source.rules === undefined;
  if (source.rules !== undefined) setup.text.value = source.rules;
  setup.mode.replaceChildren(...(source.mode ? [new Option(source.mode, source.mode)] : []));
  setup.modeRow.hidden = !source.mode;
  // The options as chosen selects, which fillSetup keeps when it rebuilds them.
  setup.options.replaceChildren(...Object.entries(source.options || {}).map(([player, team]) => {
    const select = Object.assign(document.createElement("select"), {name: player});
    select.appendChild(new Option(team, team));
    return select;
  }));
  setup.fen.value = fen;
  setupError("");
  if (!setup.dialog.open) setup.dialog.showModal();
  await checkSetup();
  for (const select of setup.seats.querySelectorAll("select")) {
    const kind = source.seats[select.name];
    if (kind !== undefined && [...select.options].some((option) => option.value === kind)) select.value = kind;
  }
}

setup.variant.addEventListener("change", () => {
  setup.rules.hidden = setup.variant.value !== RULES;
  setup.mode.replaceChildren();
  setup.options.replaceChildren();
  checkSetup();
});
setup.mode.addEventListener("change", () => { setup.options.replaceChildren(); checkSetup(); });
$("setup-check").addEventListener("click", checkSetup);
setup.file.addEventListener("change", async () => {
  const file = setup.file.files[0];
  if (!file) return;
  setup.text.value = await file.text();
  setup.fileName = file.name;
  checkSetup();
});
setup.text.addEventListener("input", () => { setup.fileName = null; });
$("setup-cancel").addEventListener("click", () => setup.dialog.close());
// Cancelled (or closed by Escape) before any game: the default variant's game, so that there is a board.
setup.dialog.addEventListener("close", () => {
  if (!page.game && page.defaultVariant) quickStart(page.defaultVariant.variant, page.defaultVariant.mode);
});
$("new-game").addEventListener("click", openSetup);
$("setup-start").addEventListener("click", async () => {
  const body = setupRequest();
  body.seats = Object.fromEntries([...setup.seats.querySelectorAll("select")].map((s) => [s.name, s.value]));
  if (setup.fen.value.trim()) body.fen = setup.fen.value.trim();
  const clock = clockRequest();
  if (clock) body.clock = clock;
  const outcome = await startGame(body);
  if (outcome === true) setup.dialog.close();
  else setupError(outcome.text || String(outcome));
});

// ------------------------------------------------------------------ start
async function start() {
  const listed = await api("GET", "/api/variants");
  page.variants = listed.variants;
  page.defaultVariant = listed.default;
  fillVariantChoices(listed);
  setup.variant.value = listed.default.variant;
  showChosenCard();
  if (listed.default.mode) {
    setup.mode.replaceChildren(new Option(listed.default.mode, listed.default.mode));
    setup.modeRow.hidden = false;
  }
  if (await openLinkedGame()) return;
  if (location.search === "?design") {   // "Play it" on the design page (design.js) left its text
    history.replaceState(null, "", location.pathname + location.hash);
    if (await playDesigned()) return;
  }
  const asked = new URLSearchParams(location.search).get("variant");
  if (asked !== null) {
    history.replaceState(null, "", location.pathname + location.hash);   // a reload opens the game, not another
    if (await quickStart(asked, null)) return;
  } else if (listed.default.named && await quickStart(listed.default.variant, listed.default.mode)) {
    return;
  }
  openSetup();
}

start().catch((error) => notice(String(error), "error"));
