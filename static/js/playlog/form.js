// The play form on a phone: the game searched as you type (the catalogue's title
// search, every name of a game), players added from the proposed people with a
// tap, more rows on demand. Without this script the form still works: the game's
// name is searched when the form is sent.
const form = document.querySelector(".playlog-form");

function searchAsYouType() {
  const input = form.querySelector("#id_game_query");
  const hidden = form.querySelector("[data-game-id]");
  const list = form.querySelector("#game-results");
  let timer = null;
  let asked = 0;
  let active = -1;

  const close = () => { list.hidden = true; list.replaceChildren(); input.setAttribute("aria-expanded", "false"); active = -1; };
  const choose = (game) => {
    hidden.value = String(game.id);
    input.value = game.title;
    input.removeAttribute("aria-invalid");
    close();
    const firstName = form.querySelector(".player-row input");
    if (firstName && !firstName.value) firstName.focus();
  };
  const show = (games) => {
    list.replaceChildren();
    if (!games.length) {
      const li = document.createElement("li");
      li.className = "none";
      li.textContent = form.dataset.none;
      list.append(li);
    }
    games.forEach((game, i) => {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.id = `game-option-${i}`;
      button.setAttribute("role", "option");
      button.textContent = game.title;
      const extra = [game.original, game.year].filter(Boolean).join(" · ");
      if (extra) {
        const small = document.createElement("small");
        small.textContent = ` ${extra}`;
        button.append(small);
      }
      button.addEventListener("click", () => choose(game));
      li.append(button);
      list.append(li);
    });
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
  };
  const highlight = (step) => {
    const options = [...list.querySelectorAll("[role=option]")];
    if (!options.length) return;
    active = (active + step + options.length) % options.length;
    options.forEach((o, i) => o.setAttribute("aria-selected", String(i === active)));
    input.setAttribute("aria-activedescendant", options[active].id);
  };

  input.addEventListener("input", () => {
    hidden.value = "";
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length < 2) { close(); return; }
    timer = setTimeout(async () => {
      const mine = ++asked;
      const response = await fetch(`${form.dataset.search}?q=${encodeURIComponent(query)}`, { headers: { Accept: "application/json" } });
      if (!response.ok || mine !== asked) return;
      show((await response.json()).games);
    }, 150);
  });
  input.addEventListener("keydown", (event) => {
    if (list.hidden) return;
    if (event.key === "ArrowDown") { event.preventDefault(); highlight(1); }
    else if (event.key === "ArrowUp") { event.preventDefault(); highlight(-1); }
    else if (event.key === "Escape") { close(); }
    else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      list.querySelectorAll("[role=option]")[active].click();
    }
  });
}

function playerRows() {
  const rows = form.querySelector("[data-player-rows]");
  const count = form.querySelector("[data-rows]");
  const add = form.querySelector("[data-add-player]");
  const newRow = () => {
    const last = rows.lastElementChild;
    const index = Number(count.value);
    const row = last.cloneNode(true);
    row.classList.remove("has-errors");
    row.querySelectorAll(".errorlist").forEach((e) => e.remove());
    row.querySelectorAll("input").forEach((input) => {
      input.name = input.name.replace(/^player-\d+-/, `player-${index}-`);
      if (input.type === "checkbox") input.checked = false; else input.value = "";
      const label = input.getAttribute("aria-label");
      if (label) input.setAttribute("aria-label", label.replace(/\d+/, String(index + 1)));
    });
    row.querySelectorAll(".visually-hidden").forEach((span) => { span.textContent = span.textContent.replace(/\d+/, String(index + 1)); });
    rows.append(row);
    count.value = String(index + 1);
    return row;
  };
  add.hidden = false;
  add.addEventListener("click", () => newRow().querySelector("input").focus());

  const people = form.querySelector("[data-people]");
  if (!people) return;
  const names = () => [...rows.querySelectorAll("input[name$='-name']")];
  const sync = () => {
    const taken = new Set(names().map((i) => i.value.trim().toLowerCase()).filter(Boolean));
    const chips = [...people.querySelectorAll("[data-person]")];
    chips.forEach((chip) => { chip.disabled = taken.has(chip.dataset.person.trim().toLowerCase()); });
    people.hidden = chips.every((chip) => chip.disabled);  // nobody left to add
  };
  people.addEventListener("click", (event) => {
    const chip = event.target.closest("[data-person]");
    if (!chip) return;
    const empty = names().find((i) => !i.value.trim()) || newRow().querySelector("input[name$='-name']");
    empty.value = chip.dataset.person;
    sync();
  });
  rows.addEventListener("input", sync);
  sync();
}

if (form) {
  searchAsYouType();
  playerRows();
}
