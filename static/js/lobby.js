// The lobby: the list of public tables follows the lobby socket (docs/protocol.md,
// "The lobby socket") without a reload; the create form shows the settings of the
// chosen game only, and as many seat rows as it has seats.

import { clockLabel, el, fill, gettext, ngettext, seatName } from "./table/format.js";

const root = document.querySelector("[data-lobby]");
const titles = JSON.parse(document.getElementById("game-titles").textContent);

function tableLink(id) {
  return root.dataset.tableUrl.replace(/\/0\/$/, `/${id}/`);
}

// -- the live list ------------------------------------------------------------------------

class LobbyList {
  constructor(list, state) {
    this.list = list;
    this.state = state;
    this.entries = new Map();
    this.known = null; // ids shown so far, to mark new arrivals
    this.attempt = 0;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby/`);
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.state.textContent = gettext("This list follows the tables as they change.");
      this.pinger = setInterval(() => ws.send(JSON.stringify({ t: "ping" })), 20000);
    });
    ws.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    ws.addEventListener("close", (event) => {
      clearInterval(this.pinger);
      if (event.code === 4401) {
        // Signed out (docs/protocol.md, "Close codes"): the page is no longer the person's.
        this.state.textContent = gettext("You were signed out, or your sign-in changed (here or on another device): reload the page to go on.");
        return;
      }
      this.state.textContent = gettext("Connection lost, trying again…");
      let delay = Math.min(8000, 500 * 2 ** this.attempt);
      if (event.code === 4429) delay = 30000; // too many sockets of this person: wait for some to close
      this.attempt += 1;
      setTimeout(() => this.connect(), delay);
    });
  }

  receive(frame) {
    if (frame.t === "lobby") {
      this.entries = new Map(frame.tables.map((entry) => [entry.id, entry]));
    } else if (frame.t === "lobby_update") {
      if (frame.entry) this.entries.set(frame.table, frame.entry);
      else this.entries.delete(frame.table);
    } else {
      return;
    }
    this.render();
  }

  render() {
    const entries = [...this.entries.values()].sort((a, b) => b.id - a.id);
    const fresh = this.known === null ? new Set() : new Set(entries.map((e) => e.id).filter((id) => !this.known.has(id)));
    this.known = new Set(entries.map((e) => e.id));
    if (!entries.length) {
      this.list.replaceChildren(el("li", { class: "empty" }, gettext("No table right now: create one below.")));
      return;
    }
    this.list.replaceChildren(...entries.map((entry) => this.row(entry, fresh.has(entry.id))));
  }

  row(entry, fresh) {
    const title = titles[entry.game] || entry.game;
    const open = entry.status === "open";
    const state = open
      ? fill(ngettext("%(count)s free seat", "%(count)s free seats", entry.free), { count: entry.free })
      : gettext("in play");
    const seats = entry.seats.map((seat) => seatName(seat)).join(" · ");
    const action = open && entry.free > 0 ? gettext("Join") : gettext("Watch");
    return el("li", { class: `table-row${fresh ? " fresh" : ""}`, dataset: { tableId: entry.id, status: entry.status } },
      el("a", { href: tableLink(entry.id) }, `${title} · ${fill(gettext("table %(number)s"), { number: entry.id })}`),
      el("span", { class: "meta" }, [state, clockLabel(entry.clock), entry.host ? fill(gettext("host: %(name)s"), { name: entry.host }) : ""]
        .filter(Boolean).join(" · ")),
      el("a", { class: "button small secondary join", href: tableLink(entry.id) }, action),
      el("span", { class: "seats-line" }, seats));
  }
}

const list = root.querySelector("[data-lobby-list]");
if (list) new LobbyList(list, root.querySelector("[data-lobby-state]")).connect();

// -- the create form ------------------------------------------------------------------------

const form = root.querySelector("[data-create-form]");
if (form) {
  const select = form.querySelector("[data-game-select]");
  const show = () => {
    let seats = 2;
    for (const fieldset of form.querySelectorAll("[data-game-settings]")) {
      const chosen = fieldset.dataset.gameSettings === select.value;
      fieldset.hidden = !chosen;
      fieldset.disabled = !chosen;
      if (chosen) seats = Number(fieldset.querySelector("[data-seat-count]").value);
    }
    for (const row of form.querySelectorAll("[data-seat-row]")) {
      const shown = Number(row.dataset.seatRow) < seats;
      row.hidden = !shown;
      row.querySelector("select").disabled = !shown;
    }
  };
  select.addEventListener("change", show);
  form.addEventListener("change", (event) => {
    if (event.target.matches("[data-seat-count]")) show();
  });
  show();
}

// The two game pickers follow each other: a game chosen once is chosen everywhere.
const pickers = [...root.querySelectorAll("[data-game-select]")];
for (const picker of pickers) {
  picker.addEventListener("change", () => {
    for (const other of pickers) {
      if (other !== picker && other.value !== picker.value) {
        other.value = picker.value;
        other.dispatchEvent(new Event("change"));
      }
    }
  });
}

// Quick play: the player count shows only for the chosen game when it offers one (Drekki).
const quick = root.querySelector("[data-quick-form]");
if (quick) {
  const select = quick.querySelector("[data-game-select]");
  const show = () => {
    for (const label of quick.querySelectorAll("[data-quick-seats]")) {
      const chosen = label.dataset.quickSeats === select.value;
      label.hidden = !chosen;
      label.querySelector("select").disabled = !chosen;
    }
  };
  select.addEventListener("change", show);
  show();
}
