// The variant chooser of the new-game dialog. The bundled variants, as /api/variants lists them
// (family by family), fill the dialog's variant select (one group per family) and the chooser
// (#catalogue): each variant with its thumbnail (its start position, drawn by the server), its
// title, the first sentence of its description and a link to its rule page (/rules/NAME/, made
// by the server). Choosing one sets the select, as if the player had picked it there. The
// dialog also shows the chosen variant's card. Uses app.js's $ and page.
"use strict";

const catalogue = {
  dialog: $("catalogue"), list: $("catalogue-list"), filter: $("catalogue-filter"), card: $("setup-card"),
  select: $("setup-variant"),
};

// A variant's thumbnail, title, summary and rule-page link; `choice`: the picture and words are a
// button that chooses it (the link stays beside it: a link inside a button would not be one).
function variantCard(variant, choice) {
  const card = document.createElement("div");
  card.className = "variant-card";
  card.dataset.variant = variant.name;
  const body = document.createElement(choice ? "button" : "div");
  body.className = "variant-body";
  if (choice) {
    body.type = "button";
    body.addEventListener("click", () => chooseVariant(variant.name));
  }
  const picture = Object.assign(document.createElement("img"), {src: variant.thumbnail, alt: "", loading: "lazy"});
  picture.className = "thumbnail";
  const words = document.createElement("span");
  words.className = "variant-words";
  words.append(Object.assign(document.createElement("strong"), {textContent: variant.title}),
               Object.assign(document.createElement("span"), {className: "summary", textContent: variant.summary}));
  body.append(picture, words);
  const rules = Object.assign(document.createElement("a"), {href: variant.rules, target: "_blank", rel: "noopener",
                                                            textContent: "Rules"});
  rules.className = "rules-link";
  rules.title = `the rules of ${variant.title}`;
  card.append(body, rules);
  return card;
}

// Fill the select and the chooser from the answer of /api/variants.
function fillVariantChoices(listed) {
  const groups = listed.families.map((family) => {
    const group = document.createElement("optgroup");
    group.label = family;
    group.append(...listed.variants.filter((v) => v.family === family).map((v) => new Option(v.title, v.name)));
    return group;
  });
  catalogue.select.replaceChildren(...groups, new Option("Rules text (paste or upload)…", RULES));
  catalogue.list.replaceChildren(...listed.families.map((family) => {
    const section = document.createElement("section");
    section.className = "family";
    section.append(Object.assign(document.createElement("h3"), {textContent: family}));
    const grid = document.createElement("div");
    grid.className = "variant-grid";
    grid.append(...listed.variants.filter((v) => v.family === family).map((v) => variantCard(v, true)));
    section.appendChild(grid);
    return section;
  }));
}

function showChosenCard() {
  const variant = page.variants.find((v) => v.name === catalogue.select.value);
  catalogue.card.replaceChildren(...(variant ? variantCard(variant, false).childNodes : []));
  catalogue.card.hidden = !variant;
}

function chooseVariant(name) {
  catalogue.dialog.close();
  catalogue.select.value = name;
  catalogue.select.dispatchEvent(new Event("change"));
}

// Show the variants whose name, title, aliases, family or summary hold every word typed.
function filterVariants() {
  const words = catalogue.filter.value.toLowerCase().split(/\s+/).filter(Boolean);
  for (const card of catalogue.list.querySelectorAll(".variant-card")) {
    const v = page.variants.find((variant) => variant.name === card.dataset.variant);
    const text = [v.name, v.title, v.family, v.summary, ...v.aliases].join(" ").toLowerCase();
    card.hidden = !words.every((word) => text.includes(word));
  }
  for (const section of catalogue.list.querySelectorAll(".family")) {
    section.hidden = !section.querySelector(".variant-card:not([hidden])");
  }
}

catalogue.select.addEventListener("change", showChosenCard);
catalogue.filter.addEventListener("input", filterVariants);
$("setup-browse").addEventListener("click", () => {
  catalogue.filter.value = "";
  filterVariants();
  catalogue.dialog.showModal();
  const current = catalogue.list.querySelector(`.variant-card[data-variant="${CSS.escape(catalogue.select.value)}"]`);
  if (current) {
    current.classList.add("current");
    current.scrollIntoView({block: "center"});
  }
});
$("catalogue-close").addEventListener("click", () => catalogue.dialog.close());
catalogue.dialog.addEventListener("close", () => {
  for (const card of catalogue.list.querySelectorAll(".current")) card.classList.remove("current");
});
