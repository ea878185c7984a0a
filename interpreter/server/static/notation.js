// The move list's notation: SAN, or one of the game's traditional notations (WXF; shogi's
// Western and Japanese), for a game whose rules declare one (the state's variant.notations;
// each ply's `notation` holds its text in each). A display choice only: records and what the
// page sends stay SAN. The choice is kept in localStorage per variant.
"use strict";

const notationChoice = $("notation");

function notationKey(variant) {
  return `rules-dsl:notation:${variant.name}`;
}

// Fill the choice for the game's variant: hidden when it has no traditional notation.
function showNotationChoice(variant) {
  const names = variant.notations.map((n) => n.name);
  notationChoice.hidden = names.length === 0;
  if (notationChoice.dataset.variant === variant.name) return;
  notationChoice.dataset.variant = variant.name;
  notationChoice.replaceChildren(new Option("SAN", "san"), ...variant.notations.map((n) => new Option(n.title, n.name)));
  let kept = null;
  try { kept = localStorage.getItem(notationKey(variant)); } catch (error) { /* private mode */ }
  notationChoice.value = names.includes(kept) ? kept : "san";
}

// A ply's text in the chosen notation (its SAN when the choice is SAN or the ply lacks that notation).
function moveText(move) {
  return (move.notation && move.notation[notationChoice.value]) || move.san;
}

notationChoice.addEventListener("change", () => {
  try { localStorage.setItem(notationKey(page.game.variant), notationChoice.value); } catch (error) { /* private mode */ }
  showMoves();
});
