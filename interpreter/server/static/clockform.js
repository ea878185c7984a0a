// The clock of the new-game dialog: no clock (the default), one time control for every seat, or
// one per seat; each a base time in minutes and an increment in seconds. setup.js calls
// fillClockForm(seats) when it knows the seats, and sends clockRequest() as the game's "clock"
// (seconds, as the API takes it; see docs/serve.md).
"use strict";

const clockForm = {box: $("setup-clock"), kind: null};

function clockInputs(name, title) {
  const row = document.createElement("div");
  row.className = "row clock-control";
  row.dataset.seat = name;
  const base = Object.assign(document.createElement("input"), {type: "number", min: "0.05", step: "any", value: "5"});
  const increment = Object.assign(document.createElement("input"), {type: "number", min: "0", step: "any", value: "3"});
  base.className = "clock-base";
  increment.className = "clock-increment";
  base.setAttribute("aria-label", `${title}: minutes`);
  increment.setAttribute("aria-label", `${title}: seconds added a move`);
  const minutes = document.createElement("label");
  minutes.append(base, " min");
  const seconds = document.createElement("label");
  seconds.append("+ ", increment, " s");
  row.append(Object.assign(document.createElement("span"), {textContent: title}), minutes, seconds);
  return row;
}

function fillClockForm(seats) {
  const chosen = clockForm.kind ? clockForm.kind.value : "none";
  clockForm.kind = document.createElement("select");
  clockForm.kind.id = "setup-clock-kind";
  clockForm.kind.append(new Option("No clock", "none"), new Option("The same for every seat", "same"),
                        new Option("For each seat", "seats"));
  clockForm.kind.value = chosen;
  const label = document.createElement("label");
  label.className = "row";
  label.append("Time control", clockForm.kind);
  const same = clockInputs("", "Every seat");
  const each = seats.map((seat) => clockInputs(seat.name, seat.title));
  const showKind = () => {
    same.hidden = clockForm.kind.value !== "same";
    for (const row of each) row.hidden = clockForm.kind.value !== "seats";
  };
  clockForm.kind.addEventListener("change", showKind);
  const legend = Object.assign(document.createElement("legend"), {textContent: "Clock"});
  clockForm.box.replaceChildren(legend, label, same, ...each);
  showKind();
}

// The request's clock (null: no clock); a number the API refuses is sent as typed, so that its
// error is shown.
function clockRequest() {
  if (!clockForm.kind || clockForm.kind.value === "none") return null;
  const control = (row) => ({base: Number(row.querySelector(".clock-base").value) * 60,
                             increment: Number(row.querySelector(".clock-increment").value)});
  const rows = [...clockForm.box.querySelectorAll(".clock-control")];
  if (clockForm.kind.value === "same") return control(rows.find((row) => row.dataset.seat === ""));
  return Object.fromEntries(rows.filter((row) => row.dataset.seat).map((row) => [row.dataset.seat, control(row)]));
}
