// Where the move chooser goes: off the board, so that it hides none of its cells. A chooser of
// pictures only (every choice shows the piece it leaves, as promotions do) is a compact strip: along
// the board's edge nearer the target cell, over that cell's file (or rank, beside the board);
// each choice's words are its tooltip. A chooser of words goes beside the board. Where nothing fits
// on the screen off the board, it goes beside the target cell, leaving that cell in view.
"use strict";

const CHOOSER_GAP = 6;   // pixels between the chooser and the board

// Place `box` (the chooser, filled and shown) for a move to `cell`.
function placeChooser(box, cell) {
  const target = board.cellRect(cell);
  const picture = board.pictureRect();
  const x = (target.left + target.right) / 2, y = (target.top + target.bottom) / 2;
  const nearTop = y - picture.top < picture.bottom - y, nearLeft = x - picture.left < picture.right - x;
  const ends = nearTop ? ["top", "bottom"] : ["bottom", "top"];
  const sides = nearLeft ? ["left", "right"] : ["right", "left"];
  const order = box.classList.contains("strip") ? [...ends, ...sides] : [...sides, ...ends];
  for (const side of order) {
    box.classList.toggle("across", side === "top" || side === "bottom");
    const spot = chooserSpot(side, box.offsetWidth, box.offsetHeight, picture, x, y);
    if (spot) return moveChooser(box, spot);
  }
  box.classList.remove("across");
  const width = box.offsetWidth, height = box.offsetHeight;
  const left = target.right + 8 + width <= window.innerWidth ? target.right + 8 : Math.max(4, target.left - 8 - width);
  moveChooser(box, {left, top: Math.max(4, Math.min(window.innerHeight - height - 4, target.top))});
}

// Where a box of `width` x `height` goes on `side` of the board's picture, centred on the target's
// file (x) or rank (y) as far as the screen allows; null if it does not fit on the screen there.
function chooserSpot(side, width, height, picture, x, y) {
  const along = (centre, size, limit) => Math.max(4, Math.min(limit - size - 4, centre - size / 2));
  let left, top;
  if (side === "top" || side === "bottom") {
    left = along(x, width, window.innerWidth);
    top = side === "top" ? picture.top - CHOOSER_GAP - height : picture.bottom + CHOOSER_GAP;
  } else {
    top = along(y, height, window.innerHeight);
    left = side === "left" ? picture.left - CHOOSER_GAP - width : picture.right + CHOOSER_GAP;
  }
  const fits = left >= 0 && top >= 0 && left + width <= window.innerWidth && top + height <= window.innerHeight;
  return fits ? {left, top} : null;
}

function moveChooser(box, {left, top}) {
  box.style.left = `${left + window.scrollX}px`;
  box.style.top = `${top + window.scrollY}px`;
}
