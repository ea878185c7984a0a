// The design page (/design): a rules text being written, coloured as the documentation site
// colours it, its first error and each of its warnings underlined at its place (the board's notes,
// which have none, listed under the text), and beside it the start position and
// the rule page of the text as it stands, all from the server (POST /api/design, docs/serve.md).
// The colours are made here, on every keystroke, from the token patterns the server gives
// (GET /api/syntax: those of the site's Pygments lexer), so that the coloured layer under the
// textarea never lags behind the text; the server is asked 300 ms after the last change.
// The text is kept in this browser (localStorage) as it is typed; "Play it" hands it to the
// main page, which starts a game of it (takeDesignedGame, in setup.js).
"use strict";

const DRAFT = "rules-dsl:design";        // {text, name}: the text being designed
const PLAY = "rules-dsl:design-play";    // {text, name}: the text "Play it" hands to the main page
const WAIT_MS = 300;

const el = (id) => document.getElementById(id);
const editor = {text: el("editor-text"), colours: el("editor-colours"), problems: el("problems"),
                status: el("design-status"), board: el("design-board"), page: el("design-page"),
                title: el("design-title"), start: el("design-start")};
const state = {patterns: [], marks: [], label: null, name: "variant", timer: 0, asked: 0, request: null, pageShown: null};

// ------------------------------------------------------------------ colouring
// The tokens of `text`: [start, end, class], by the first pattern that matches at each place.
function tokens(text) {
  const found = [];
  let at = 0;
  while (at < text.length) {
    let matched = false;
    for (const [pattern, cls] of state.patterns) {
      pattern.lastIndex = at;
      const match = pattern.exec(text);
      if (match && match[0].length > 0) {
        found.push([at, at + match[0].length, cls]);
        at += match[0].length;
        matched = true;
        break;
      }
    }
    if (!matched) found.push([at, ++at, ""]);
  }
  return found;
}

// The offset in `text` of 1-based `line` and `column` (the end of the line if it is shorter).
function offsetOf(text, line, column) {
  let at = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf("\n", at);
    if (next < 0) return text.length;
    at = next + 1;
  }
  const end = text.indexOf("\n", at) < 0 ? text.length : text.indexOf("\n", at);
  return Math.min(at + column - 1, end);
}

// The span an error or a warning covers in `text`: its columns, or its first word when it gives no end
// column; at least one character, so that an error at the end of a line shows.
function spanOf(text, location) {
  const start = offsetOf(text, location.line, location.column);
  let end = location.end_column ? offsetOf(text, location.line, location.end_column) : start;
  if (!location.end_column) while (end < text.length && /\S/.test(text[end])) end++;
  return [start, Math.max(end, start + 1)];
}

// The text coloured, each mark ({location, kind, message}) underlined in the style of its kind with
// its message as the title; where an error and a warning overlap, the error's style shows, and the
// title has both messages.
function paint() {
  const text = editor.text.value;
  const marks = state.marks.map((m) => [...spanOf(text, m.location), m]);
  const parts = [];
  for (const [start, end, cls] of tokens(text)) {
    const cuts = new Set([start, end]);
    for (const [s, e] of marks) for (const c of [s, e]) if (c > start && c < end) cuts.add(c);
    const edges = [...cuts].sort((a, b) => a - b);
    for (let i = 0; i + 1 < edges.length; i++) {
      const span = document.createElement("span");
      if (cls) span.className = cls;
      span.textContent = text.slice(edges[i], edges[i + 1]);
      const over = marks.filter(([s, e]) => edges[i] >= s && edges[i] < e).map(([, , m]) => m);
      if (over.length) {
        span.classList.add(over.some((m) => m.kind === "error") ? "error" : "warning");
        span.title = over.map((m) => m.message).join("\n");
      }
      parts.push(span);
    }
  }
  // A final newline needs a character after it, or the layer is a line shorter than the textarea.
  parts.push(document.createTextNode("\n"));
  editor.colours.replaceChildren(...parts);
  syncScroll();
}

function syncScroll() {
  editor.colours.scrollTop = editor.text.scrollTop;
  editor.colours.scrollLeft = editor.text.scrollLeft;
}

// ------------------------------------------------------------------ the server's answer
function changed() {
  keepDraft();
  state.marks = [];   // the old places mean nothing in the new text
  paint();
  clearTimeout(state.timer);
  state.timer = setTimeout(ask, WAIT_MS);
}

async function ask() {
  const asked = ++state.asked;
  if (state.request) state.request.abort();
  state.request = new AbortController();
  editor.status.textContent = "Checking…";
  let answer;
  try {
    const response = await fetch("/api/design", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({rules: editor.text.value, name: `${state.name}.rules`}), signal: state.request.signal});
    answer = await response.json();
    if (!response.ok) answer = {errors: [answer], warnings: [], notes: [], svg: null, page: null, refused: true};
  } catch (error) {
    if (error.name === "AbortError") return;
    answer = {errors: [{message: String(error), error: String(error), location: null}], warnings: [], notes: [], refused: true};
  }
  if (asked !== state.asked) return;
  show(answer);
}

function show(answer) {
  state.label = answer.label || null;   // how the server names this text in its errors
  const here = (found) => found.location && found.location.path === state.label;   // not in an included file
  state.marks = [...answer.errors.filter(here).map((e) => ({location: e.location, kind: "error", message: e.message})),
                 ...answer.warnings.filter(here).map((w) => ({location: w.location, kind: "warning",
                   message: "warning: " + w.message + (w.hint ? `\nhint: ${w.hint}` : "")}))];
  paint();
  editor.problems.replaceChildren(
    ...answer.errors.map((e) => problem(e.error, "error", e.location)),
    ...answer.warnings.map((w) => problem(w.warning, "warning", w.location)),
    ...answer.notes.map((n) => problem(`note: ${n}`, "note", null)));
  if (answer.refused) {
    editor.status.textContent = "Not checked: " + answer.errors[0].message;
    return;
  }
  editor.status.textContent = answer.errors.length ? "The text has an error; the board and the rule page are of the last text without one."
    : `${answer.title}: no errors` + (answer.warnings.length ? `, ${counted(answer.warnings.length, "warning")}` : "")
      + (answer.notes.length ? `, ${counted(answer.notes.length, "note")} on the board` : "");
  if (answer.svg) {
    editor.board.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(answer.svg);
    editor.board.dataset.svg = answer.svg;
    editor.title.textContent = answer.title;
  }
  if (answer.page && answer.page !== state.pageShown) {
    // The frame runs no scripts (sandbox without allow-scripts); it is of this origin so that the
    // page keeps where the reader was in the rule page when it changes.
    const scroll = editor.page.contentWindow ? editor.page.contentWindow.scrollY : 0;
    editor.page.addEventListener("load", () => editor.page.contentWindow.scrollTo(0, scroll), {once: true});
    editor.page.srcdoc = answer.page;
    state.pageShown = answer.page;
  }
}

/** "1 warning", "3 warnings": a count and its noun. */
function counted(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

// One line of the list under the text; clicking a located error or warning puts the cursor at its place.
function problem(text, kind, location) {
  const item = document.createElement("li");
  item.className = kind;
  item.textContent = text;
  if (location && location.path === state.label) {
    item.title = `go to the ${kind}`;
    item.addEventListener("click", () => {
      const [start, end] = spanOf(editor.text.value, location);
      editor.text.focus();
      editor.text.setSelectionRange(start, end);
      const line = editor.text.value.slice(0, start).split("\n").length - 1;
      editor.text.scrollTop = Math.max(0, line * parseFloat(getComputedStyle(editor.text).lineHeight) - 60);
      syncScroll();
    });
  }
  return item;
}

// ------------------------------------------------------------------ the text: drafts, files, variants
function keepDraft() {
  try { localStorage.setItem(DRAFT, JSON.stringify({text: editor.text.value, name: state.name})); } catch (error) { /* private mode */ }
}

function setText(text, name) {
  editor.text.value = text;
  state.name = name;
  editor.text.scrollTop = 0;
  changed();
}

// The name a file is saved as: the `variant NAME` of the text, else the name it was loaded as.
function fileName() {
  const declared = /^\s*variant\s+([A-Za-z0-9_-]+)/m.exec(editor.text.value);
  return `${declared ? declared[1] : state.name}.rules`;
}

editor.text.addEventListener("input", changed);
editor.text.addEventListener("scroll", syncScroll);
// The coloured layer lets the pointer through to the textarea: over an underline, the textarea's
// tooltip is the error's or the warning's message.
editor.text.addEventListener("mousemove", (event) => {
  const over = [...editor.colours.querySelectorAll(".error, .warning")].find((span) => [...span.getClientRects()].some(
    (r) => event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom));
  editor.text.title = over ? over.title : "";
});
editor.text.addEventListener("keydown", (event) => {
  if (event.key !== "Tab" || event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return;
  event.preventDefault();   // a Tab indents (two spaces, as the bundled files do); Escape then Tab leaves
  document.execCommand("insertText", false, "  ");
});
editor.text.addEventListener("keyup", (event) => { if (event.key === "Escape") editor.text.blur(); });
editor.start.addEventListener("change", async () => {
  const name = editor.start.value;
  if (!name) return;
  const response = await fetch(`/api/variants/${encodeURIComponent(name)}/source.rules`);
  if (response.ok) setText(await response.text(), name);
  editor.start.value = "";
});
el("design-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  setText(await file.text(), file.name.replace(/\.rules$/, "").replace(/[^A-Za-z0-9_. -]/g, "") || "variant");
  event.target.value = "";
});
el("design-save").addEventListener("click", () => {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([editor.text.value], {type: "text/plain"}));
  link.download = fileName();
  link.click();
  URL.revokeObjectURL(link.href);
});
el("design-play").addEventListener("click", () => {
  try {
    localStorage.setItem(PLAY, JSON.stringify({text: editor.text.value, name: `${state.name}.rules`}));
  } catch (error) {
    editor.status.textContent = "This browser keeps nothing (private mode?): save the file and load it in New game.";
    return;
  }
  location.href = "/?design";
});

async function start() {
  const [syntax, listed] = await Promise.all([fetch("/api/syntax").then((r) => r.json()),
                                              fetch("/api/variants").then((r) => r.json())]);
  state.patterns = syntax.patterns.map(([source, cls]) => [new RegExp(source, "y"), cls]);
  for (const variant of listed.variants) editor.start.append(new Option(variant.title, variant.name));
  let draft = null;
  try { draft = JSON.parse(localStorage.getItem(DRAFT) || "null"); } catch (error) { /* none kept */ }
  if (draft && typeof draft.text === "string") setText(draft.text, typeof draft.name === "string" ? draft.name : "variant");
  else {
    const response = await fetch(`/api/variants/${encodeURIComponent(listed.default.variant)}/source.rules`);
    setText(await response.text(), listed.default.variant);
  }
}

start().catch((error) => { editor.status.textContent = String(error); });
