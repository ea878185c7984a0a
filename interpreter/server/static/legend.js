// What the page says of a game's sides and pieces, all from its rules as the server sends them:
// each army's colour (the one its pieces are drawn in) beside its name, who plays with whom (the
// spec's teams), and a legend of the pieces, each with its picture, name, letter and the rules
// file's description. The legend is open from the start when a piece is drawn as a letter or a
// glyph on a disc, which says nothing to one who does not know the piece.
"use strict";

// A small disc of the colour `army` (a name) is drawn in, to put before its name.
function armySwatch(army) {
  const found = page.game.variant.armies.find((a) => a.name === army);
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  swatch.dataset.army = army;
  if (found) swatch.style.backgroundColor = found.colour;   // a colour the server checked (dsl/colours.py)
  return swatch;
}

// Army names, each after its colour, in one span: "● White and ● Tan".
function armiesWithColours(armies) {
  const span = document.createElement("span");
  span.className = "armies";
  armies.forEach((army, i) => {
    if (i) span.append(i === armies.length - 1 ? " and " : ", ");
    span.append(armySwatch(army), armyTitle(army));
  });
  return span;
}

// Who plays with whom, in games whose armies play in teams: for a page that plays some of the seats,
// "You and Tan play together against Black and Brown."; for the others, the teams.
function showTeams() {
  const g = page.game;
  const box = $("teams");
  box.replaceChildren();
  const teams = g.variant.teams.filter((team) => team.armies.length > 1);
  box.hidden = teams.length === 0;
  if (box.hidden) return;
  const held = g.seats.filter((seat) => page.held.includes(seat.name)).flatMap((seat) => seat.armies);
  const mine = everySeatHeld(g) ? null : teams.find((team) => team.armies.some((army) => held.includes(army)));
  if (mine) {
    const partners = mine.armies.filter((army) => !held.includes(army));
    const enemies = g.variant.armies.map((army) => army.name).filter((army) => !mine.armies.includes(army));
    box.append(...(partners.length ? ["You and ", armiesWithColours(partners), " play together"] : ["You play the whole team"]),
               " against ", armiesWithColours(enemies), ".");
  } else {
    box.append("Teams: ");
    teams.forEach((team, i) => box.append(...(i ? [" against "] : []), armiesWithColours(team.armies)));
    box.append(".");
  }
}

// The legend of the pieces: drawn once per game shown.
function showLegend() {
  const g = page.game;
  const list = $("legend-list");
  if (list.dataset.game === g.id) return;
  list.dataset.game = g.id;
  list.replaceChildren();
  for (const piece of g.variant.pieces) {
    const row = document.createElement("div");
    row.className = "legend-piece";
    row.dataset.piece = piece.name;
    const picture = document.createElement("span");
    picture.className = "picture";
    picture.innerHTML = piece.picture;   // the server's own SVG of the piece
    const name = document.createElement("span");
    name.className = "legend-name";
    name.textContent = `${piece.name} (${piece.letter})`;
    const text = document.createElement("span");
    text.className = "legend-text";
    text.append(name, piece.description ? ` ${piece.description}` : "");
    row.title = piece.description || piece.name;
    row.append(picture, text);
    list.appendChild(row);
  }
  $("legend").open = g.variant.pieces.some((piece) => piece.lettered);
}
