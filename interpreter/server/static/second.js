// Moves in two parts, chosen on the board: when the moves a click could mean differ by the cell of
// a second part (a neutral piece moved after the move, whose cell the server names as `second`),
// the first click picks the move and the cells of its second part light up; one click on one of
// them plays the move, a click anywhere else (or Escape) takes the choice back. Moves that still
// differ once the second cell is known (a promotion, say) go on to the chooser.
"use strict";

const second = {
  moves: null,      // the legal moves the first part may end in, while its second part is asked for
  version: null,    // the game's version they are legal in
};

// Whether `candidates` (moves between the same cells) differ by their second cell: then the second
// part is asked for on the board, and true is returned.
function askSecond(candidates) {
  if (!candidates.every((move) => move.second)) return false;
  if (new Set(candidates.map((move) => move.second)).size < 2) return false;
  second.moves = candidates;
  second.version = page.game.version;
  notice("Click a lit cell to finish the move: the neutral piece goes there. A click elsewhere takes the move back.", "info");
  markBoard();
  return true;
}

// Whether the second part of a move is being asked for (in the game as it still is).
function askingSecond() {
  return second.moves !== null && !page.viewing && page.game && page.game.version === second.version;
}

// A click on `cell` while the second part is asked for: the move, or the choice taken back.
function clickSecond(cell) {
  const moves = second.moves.filter((move) => move.second === cell);
  forgetSecond();
  notice("");
  if (!moves.length) page.selected = null;
  markBoard();
  if (moves.length) choose(moves, moves[0].to);
}

function forgetSecond() {
  second.moves = null;
  second.version = null;
  board.preview(null);
}

// The marks of the move being finished: its first part's cells, and the cells of its second part;
// its piece is shown where the first part takes it.
function markSecond(add) {
  const first = second.moves[0];
  board.preview(first.from, first.to);
  add(first.from, "selected");
  add(first.to, "selected");
  for (const cell of new Set(second.moves.map((move) => move.second))) add(cell, "second");
}
