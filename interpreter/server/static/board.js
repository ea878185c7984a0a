// The board on the page: the server's SVG (every cell a polygon with data-cell="NAME"),
// turned so that a chosen army sits at the bottom, with marks laid over the cells
// (selection, legal targets, captures, the last move, kings in check), and clicks and
// drags reported as cell names. Nothing here knows a game: cells are found by name.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

class BoardView {
  // container: the element the SVG goes in; onCell(name): a cell was clicked (or a drag
  // started there); onDrop(from, to): a piece was dragged from one cell to another.
  constructor(container, onCell, onDrop) {
    this.container = container;
    this.onCell = onCell;
    this.onDrop = onDrop;
    this.rotation = 0;
    this.points = false;         // pieces on the crossings of lines: marks are discs on the points
    this.facing = false;         // pieces face their army's forward: they turn with the board
    this.svg = null;
    this.cells = new Map();      // name -> polygon
    this.pieces = new Map();     // name -> wrapper groups of the pieces drawn on that cell
    this.canDrag = () => false;  // set by the page: may a drag start on this cell?
    this.drag = null;
    this.previewed = [];         // pieces moved or faded by preview(): [{element, transform, opacity}]
    container.addEventListener("pointerdown", (e) => this._down(e));
    window.addEventListener("pointermove", (e) => this._move(e));
    window.addEventListener("pointerup", (e) => this._up(e));
  }

  // Show a new picture (SVG text from the server), turned by `rotation` degrees clockwise;
  // drawing: the variant's drawing options from the server (drawing.points: a board of points).
  show(svgText, rotation, drawing) {
    this.rotation = rotation;
    this.points = Boolean(drawing && drawing.points);
    this.facing = Boolean(drawing && drawing.facing);
    const parsed = new DOMParser().parseFromString(svgText, "image/svg+xml");
    const svg = document.importNode(parsed.documentElement, true);
    const [, , width, height] = svg.getAttribute("viewBox").split(/\s+/).map(Number);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    svg.classList.add("board-svg");
    const turn = document.createElementNS(SVG_NS, "g");
    turn.setAttribute("class", "turn");
    for (const child of [...svg.childNodes]) {
      if (child.nodeType === 1 && !["defs", "title"].includes(child.localName)) turn.appendChild(child);
    }
    svg.appendChild(turn);
    const quarter = ((rotation % 360) + 360) % 360;
    turn.setAttribute("transform", `rotate(${quarter} ${width / 2} ${height / 2})`);
    const [w, h] = quarter % 180 === 0 ? [width, height] : [height, width];
    svg.setAttribute("viewBox", `${width / 2 - w / 2} ${height / 2 - h / 2} ${w} ${h}`);
    this.container.replaceChildren(svg);
    this.previewed = [];
    this.svg = svg;
    this.turn = turn;
    this.cells = new Map([...svg.querySelectorAll("[data-cell]")].map((p) => [p.dataset.cell, p]));
    this.overlay = document.createElementNS(SVG_NS, "g");
    this.overlay.setAttribute("class", "overlay");
    const board = turn.querySelector("g.board");
    board.after(this.overlay);
    this._uprightPieces(quarter);
    this.quarter = quarter;
    this.arrowLayer = document.createElementNS(SVG_NS, "g");
    this.arrowLayer.setAttribute("class", "arrows");
    turn.appendChild(this.arrowLayer);
  }

  // Pieces (a stack as one), and labels stay upright when the board turns (pieces that face
  // their army's forward turn with the board, so that the army at the bottom sees its own
  // upright); each piece or stack is also filed under the cell it stands on, for dragging.
  _uprightPieces(quarter) {
    this.pieces = new Map();
    const cells = [...this.cells.entries()];
    const drawn = [...this.turn.querySelectorAll("use, g.stack, text")].filter(
      (element) => element.localName === "text" || !element.parentNode.closest("g.stack"));
    for (const element of drawn) {
      const wrap = document.createElementNS(SVG_NS, "g");
      element.before(wrap);
      wrap.appendChild(element);
      const box = wrap.getBBox();
      const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
      const upright = element.localName === "text" || !this.facing;
      if (quarter && upright) wrap.setAttribute("transform", `rotate(${-quarter} ${cx} ${cy})`);
      if (element.localName === "text") continue;
      wrap.classList.add("piece");
      const point = new DOMPoint(cx, cy);
      const found = cells.find(([, polygon]) => polygon.isPointInFill(point));
      if (found) {
        if (!this.pieces.has(found[0])) this.pieces.set(found[0], []);
        this.pieces.get(found[0]).push(wrap);
      }
    }
  }

  // Lay marks over the cells: marks maps a cell name to a list of mark names
  // (selected, target, capture, last, check).
  mark(marks) {
    if (!this.overlay) return;
    this.overlay.replaceChildren();
    for (const [name, kinds] of marks) {
      const cell = this.cells.get(name);
      if (!cell) continue;
      for (const kind of kinds) {
        const shape = this.points ? this._disc(cell) : document.createElementNS(SVG_NS, "polygon");
        if (!this.points) shape.setAttribute("points", cell.getAttribute("points"));
        shape.setAttribute("class", `mark-${kind}`);
        shape.dataset.mark = name;
        this.overlay.appendChild(shape);
      }
    }
    for (const [name, polygon] of this.cells) {
      polygon.classList.toggle("movable", this.canDrag(name));
    }
  }

  // Show the pieces on `from` standing on `to` and those on `to` faded: the first part of a move
  // whose second part is being asked for. preview(null) puts every piece back.
  preview(from, to) {
    for (const {element, transform, opacity} of this.previewed) {
      element.setAttribute("transform", transform);
      element.style.opacity = opacity;
    }
    this.previewed = [];
    if (!from || !to || !this.pieces.has(from) || !this.cells.has(to)) return;
    const centre = (name) => {
      const box = this.cells.get(name).getBBox();
      return [box.x + box.width / 2, box.y + box.height / 2];
    };
    const [[x0, y0], [x1, y1]] = [centre(from), centre(to)];
    const keep = (element) => this.previewed.push(
      {element, transform: element.getAttribute("transform") || "", opacity: element.style.opacity});
    for (const element of this.pieces.get(to) || []) {
      keep(element);
      element.style.opacity = "0.3";
    }
    for (const element of this.pieces.get(from)) {
      keep(element);
      element.setAttribute("transform", `translate(${x1 - x0} ${y1 - y0}) ${element.getAttribute("transform") || ""}`);
    }
  }

  // A disc on a cell's point (its centre), nearly as wide as the cell: a mark on a board of points.
  _disc(cell) {
    const [x, y, size] = this._centre(cell);
    const disc = document.createElementNS(SVG_NS, "circle");
    disc.setAttribute("cx", x);
    disc.setAttribute("cy", y);
    disc.setAttribute("r", size * 0.46);
    return disc;
  }

  // A cell's centre (the middle of its box) and its size (the box's smaller side), in board units.
  _centre(cell) {
    const box = cell.getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2, Math.min(box.width, box.height)];
  }

  // Draw a line of moves as arrows over the pieces, from cell centre to cell centre, so that any
  // board's geometry works: arrows is a list of {from, to, kind} (cell names; kind a class name,
  // e.g. "own" or "other"), the first drawn widest and boldest, the later ones thinner and fainter,
  // each numbered near its head. A move without an origin (a drop) or with the same origin and
  // target is a ring on its target; one without cells (a pass) is left out. [] clears them.
  arrows(list) {
    if (!this.arrowLayer) return;
    this.arrowLayer.replaceChildren();
    list.forEach(({from, to, kind}, index) => {
      const target = this.cells.get(to);
      if (!target) return;
      const origin = this.cells.get(from);
      const [tx, ty, size] = this._centre(target);
      const strength = Math.max(0.35, 1 - index * 0.18);
      const group = document.createElementNS(SVG_NS, "g");
      group.setAttribute("class", `arrow arrow-${kind}`);
      group.setAttribute("opacity", strength.toFixed(2));
      group.dataset.from = from || "";
      group.dataset.to = to;
      const width = size * (0.09 + 0.07 * strength);
      let labelX = tx, labelY = ty;
      if (origin && origin !== target) {
        const [fx, fy] = this._centre(origin);
        const length = Math.hypot(tx - fx, ty - fy);
        const ux = (tx - fx) / length, uy = (ty - fy) / length;
        const head = Math.min(width * 3, length * 0.45);
        const baseX = tx - ux * head, baseY = ty - uy * head;
        const shaft = document.createElementNS(SVG_NS, "line");
        for (const [name, value] of [["x1", fx], ["y1", fy], ["x2", baseX], ["y2", baseY]]) shaft.setAttribute(name, value);
        shaft.setAttribute("stroke-width", width);
        const tip = document.createElementNS(SVG_NS, "polygon");
        const side = width * 1.5;
        tip.setAttribute("points", [[tx, ty], [baseX - uy * side, baseY + ux * side], [baseX + uy * side, baseY - ux * side]]
          .map((point) => point.join(",")).join(" "));
        group.append(shaft, tip);
        labelX = baseX - ux * size * 0.12;
        labelY = baseY - uy * size * 0.12;
      } else {
        const ring = document.createElementNS(SVG_NS, "circle");
        ring.setAttribute("cx", tx);
        ring.setAttribute("cy", ty);
        ring.setAttribute("r", size * 0.4);
        ring.setAttribute("stroke-width", width);
        ring.setAttribute("fill", "none");
        group.appendChild(ring);
      }
      const badge = document.createElementNS(SVG_NS, "g");
      badge.setAttribute("class", "arrow-number");
      badge.setAttribute("transform", `rotate(${-this.quarter} ${labelX} ${labelY})`);
      const disc = document.createElementNS(SVG_NS, "circle");
      disc.setAttribute("cx", labelX);
      disc.setAttribute("cy", labelY);
      disc.setAttribute("r", size * 0.15);
      const number = document.createElementNS(SVG_NS, "text");
      number.setAttribute("x", labelX);
      number.setAttribute("y", labelY);
      number.setAttribute("font-size", size * 0.2);
      number.setAttribute("text-anchor", "middle");
      number.setAttribute("dominant-baseline", "central");
      number.textContent = String(index + 1);
      badge.append(disc, number);
      group.appendChild(badge);
      this.arrowLayer.appendChild(group);
    });
  }

  // Where a cell is on the screen (for placing the move chooser).
  cellRect(name) {
    const cell = this.cells.get(name);
    return cell ? cell.getBoundingClientRect() : this.container.getBoundingClientRect();
  }

  // Where the picture (cells and labels) is on the screen: the SVG element may be wider or taller.
  pictureRect() {
    return this.turn ? this.turn.getBoundingClientRect() : this.container.getBoundingClientRect();
  }

  // The cell at a point of the screen: the one whose polygon's inside holds the point, so that a
  // click near a cell's edge is not taken by the neighbour whose outline is drawn over it (the
  // outlines of non-convex cells, chevrons, run along their neighbours' sides); on an edge itself,
  // the cell drawn on top.
  _cellAt(x, y) {
    if (!this.svg) return null;
    const hits = document.elementsFromPoint(x, y).map((element) => element.closest && element.closest("[data-cell]"))
      .filter((cell) => cell && this.svg.contains(cell));
    const inside = hits.find((cell) => cell.isPointInFill(new DOMPoint(x, y).matrixTransform(cell.getScreenCTM().inverse())));
    const cell = inside || hits[0];
    return cell ? cell.dataset.cell : null;
  }

  _down(event) {
    if (event.button !== 0) return;
    const name = this._cellAt(event.clientX, event.clientY);
    if (!name) return;
    event.preventDefault();
    if (this.canDrag(name) && this.pieces.has(name)) {
      const moving = this._moving(name).map((element) => ({element, transform: element.getAttribute("transform") || ""}));
      this.drag = {from: name, x: event.clientX, y: event.clientY, moved: false, moving};
    }
    this.onCell(name);
  }

  // What a drag from `cell` moves: the piece, or of a stack the top piece and the plate it
  // stands on, while the locked ones stay.
  _moving(cell) {
    return this.pieces.get(cell).flatMap((wrap) => {
      const stack = wrap.querySelector("g.stack");
      if (!stack) return [wrap];
      const parts = [...stack.children];
      const top = parts.map((part) => part.localName).lastIndexOf("use");
      return parts.slice(parts[top - 1]?.localName === "ellipse" ? top - 1 : top);
    });
  }

  _move(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    drag.moved = true;
    for (const {element, transform} of drag.moving) {
      // The pointer's way in the coordinates the element is drawn in (turned boards included).
      const matrix = element.parentNode.getScreenCTM().inverse();
      const start = new DOMPoint(drag.x, drag.y).matrixTransform(matrix);
      const now = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix);
      element.classList.add("dragged");
      element.setAttribute("transform", `translate(${now.x - start.x} ${now.y - start.y}) ${transform}`);
    }
  }

  _up(event) {
    const drag = this.drag;
    this.drag = null;
    if (!drag || !drag.moved) return;
    for (const {element, transform} of drag.moving) {
      element.classList.remove("dragged");
      element.setAttribute("transform", transform);
    }
    const to = this._cellAt(event.clientX, event.clientY);
    if (to && to !== drag.from) this.onDrop(drag.from, to);
  }
}
