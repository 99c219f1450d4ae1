// A move typed in words or in the game's notation: the accessible way to play any of
// the five games without the board (as the "blind mode" of some chess sites does).
//
// The box is in the table page (templates/games/table.html, data-typed-form); it is
// shown while this seat may play. Its completion list (a <datalist>) holds this seat's
// legal moves now, each with its notation as the value and its words as the label.
// What is typed is matched against the legal moves (matchMove, below): the notation,
// case and spaces aside, or the move's words; anything else is refused with a clear
// sentence in the box and in the assertive live region, and nothing is sent.
//
// Two more keys read the table aloud in the polite live region (speech.js), from
// anywhere on the page: Alt+P the position (what stands where, the hand), Alt+L the
// moves one may play now. Each also has a button next to the box.

import { describeMove } from "./describe.js";
import { el, fill, gettext, listWords, ngettext, seatName } from "./format.js";

const SAY_AT_MOST = 12; // moves read out by Alt+L before "and N more"

/** Lower case, no accents, one space between words, no final stop. */
export function normalise(text) {
  return String(text).normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[’']/g, "'").replace(/\s+/g, " ").replace(/[.!]+$/, "").trim();
}

function squeezed(text) {
  return normalise(text).replace(/\s+/g, "");
}

/**
 * The legal move that ``typed`` names, among ``choices`` ([{move, words}]):
 * {move} when exactly one matches (the notation exactly, then the notation with case
 * and spaces aside, then the words), else {move: null, candidates} (the moves whose
 * notation starts with, or whose words contain, what was typed; none when nothing was).
 */
export function matchMove(typed, choices) {
  const raw = String(typed).trim();
  if (!raw) return { move: null, candidates: [] };
  const exact = choices.filter((c) => c.move === raw);
  if (exact.length === 1) return { move: exact[0].move };
  const key = squeezed(raw);
  const loose = choices.filter((c) => squeezed(c.move) === key);
  if (loose.length === 1) return { move: loose[0].move };
  const text = normalise(raw);
  const worded = choices.filter((c) => c.words && (normalise(c.words) === text || normalise(c.short) === text));
  if (worded.length === 1) return { move: worded[0].move };
  const candidates = choices.filter((c) => squeezed(c.move).startsWith(key)
    || (c.words && normalise(c.words).includes(text)));
  return { move: null, candidates };
}

/**
 * The box's choices for ``legal`` moves of ``seat``: {move, words, short}, words as the
 * move list would say them ("Zoé moves ..."), short without the player's name.
 */
export function moveChoices(game, legal, seat, names, view) {
  const name = names[seat] || "";
  return legal.map((move) => {
    const words = describeMove(game, move, { seat, names, view: null, before: view });
    const short = name && words.startsWith(name) ? words.slice(name.length).replace(/^[\s:,]+/, "") : words;
    return { move, words, short };
  });
}

/** What is on the board, in words, read from the board's labelled cells (or Drekki's panels). */
export function positionWords(host) {
  if (!host) return "";
  const cells = [...host.querySelectorAll("[data-square]")]
    .filter((node) => node.dataset.owner !== undefined || node.querySelector(".piece"));
  if (cells.length) {
    const labels = cells.map((node) => node.getAttribute("aria-label") || node.dataset.square);
    return `${fill(ngettext("%(count)s square taken:", "%(count)s squares taken:", cells.length), { count: cells.length })} ${labels.join("; ")}.`;
  }
  if (host.querySelector("[data-square]")) return gettext("No square is taken: the board is empty.");
  const parts = [];
  for (const name of ["status", "auction", "hand", "tile", "seats"]) {
    const node = host.querySelector(`[data-dk="${name}"]`);
    const text = node && !node.hidden ? node.innerText.replace(/\s+/g, " ").trim() : "";
    if (text) parts.push(text);
  }
  return parts.join(" ");
}

export class TypedMove {
  /**
   * ``nodes``: {form, input, list, error, position, legal}; ``table``: the table shell,
   * which gives {frame, board host, playMove, announce, speech}.
   */
  constructor(nodes, shell) {
    this.nodes = nodes;
    this.shell = shell;
    this.choices = [];
    this.shownKey = null;
    nodes.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    nodes.input.addEventListener("input", () => this.clearError());
    nodes.position.addEventListener("click", () => this.readPosition());
    nodes.legal.addEventListener("click", () => this.readLegal());
    this.onKey = (event) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.code === "KeyP") this.readPosition();
      else if (event.code === "KeyL") this.readLegal();
      else return;
      event.preventDefault();
    };
    document.addEventListener("keydown", this.onKey);
  }

  /** The legal moves of this seat now, with their words (for the list and for matching). */
  legalChoices() {
    const frame = this.shell.frame;
    if (!frame || frame.status !== "running" || frame.seat === null) return [];
    return moveChoices(this.shell.game, frame.legal, frame.seat, frame.seats.map((seat) => seatName(seat)), frame.view);
  }

  /** Redraw after a frame: shown while this seat may act, the completion list refreshed. */
  update() {
    const frame = this.shell.frame;
    const seated = Boolean(frame) && frame.seat !== null && !this.shell.root.dataset.screen;
    const running = seated && frame.status === "running";
    this.nodes.form.hidden = !running;
    if (!running) return;
    const mine = frame.to_act.includes(frame.seat) && this.shell.awaitingV === null;
    const key = `${frame.v}:${mine}`;
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.choices = mine ? this.legalChoices() : [];
    this.nodes.list.replaceChildren(...this.choices.map((c) => el("option", { value: c.move, label: c.short })));
    this.nodes.input.placeholder = !mine ? gettext("Wait for your turn")
      : this.choices.length ? fill(gettext("For example: %(move)s"), { move: this.choices[0].move }) : "";
  }

  /** Nothing of a seat's moves left in the page (pass-and-play: the device changes hands). */
  reset() {
    this.shownKey = null;
    this.choices = [];
    this.nodes.list.replaceChildren();
    this.nodes.input.value = "";
    this.nodes.input.placeholder = "";
    this.nodes.form.hidden = true;
    this.clearError();
  }

  clearError() {
    this.nodes.error.textContent = "";
    this.nodes.input.removeAttribute("aria-invalid");
  }

  refuse(text) {
    this.nodes.error.textContent = text;
    this.nodes.input.setAttribute("aria-invalid", "true");
    this.shell.announce(text);
  }

  submit() {
    const typed = this.nodes.input.value;
    const frame = this.shell.frame;
    if (!typed.trim()) {
      this.refuse(gettext("Type a move first (Alt+L reads the moves you can play)."));
      return;
    }
    if (!frame || frame.status !== "running" || !frame.to_act.includes(frame.seat)) {
      this.refuse(gettext("It is not your turn."));
      return;
    }
    if (this.shell.awaitingV !== null) {
      this.refuse(gettext("Your move is on its way."));
      return;
    }
    const { move, candidates } = matchMove(typed, this.choices.length ? this.choices : this.legalChoices());
    if (move) {
      this.clearError();
      this.nodes.input.value = "";
      this.shell.playMove(move);
      return;
    }
    const shown = typed.trim().slice(0, 40);
    if (candidates.length) {
      const some = candidates.slice(0, 6).map((c) => c.move);
      this.refuse(fill(ngettext(
        "“%(typed)s” is not a whole move; %(count)s move fits: %(moves)s.",
        "“%(typed)s” is not a whole move; %(count)s moves fit: %(moves)s.", candidates.length),
      { typed: shown, count: candidates.length, moves: listWords(some) + (candidates.length > some.length ? "…" : "") }));
    } else {
      this.refuse(fill(gettext("“%(typed)s” is not a legal move now (Alt+L reads the moves you can play)."), { typed: shown }));
    }
  }

  readPosition() {
    const host = this.shell.nodes.slot.querySelector(".board-host");
    const words = positionWords(host);
    this.shell.speech.say(words || gettext("The board is not there yet."));
  }

  readLegal() {
    const frame = this.shell.frame;
    if (!frame || frame.status !== "running" || frame.seat === null || !frame.to_act.includes(frame.seat)) {
      this.shell.speech.say(gettext("It is not your turn."));
      return;
    }
    const choices = this.legalChoices();
    const said = choices.slice(0, SAY_AT_MOST).map((c) => `${c.move}: ${c.short}`);
    let text = `${fill(ngettext("%(count)s move possible:", "%(count)s moves possible:", choices.length), { count: choices.length })} ${said.join("; ")}`;
    if (choices.length > said.length) {
      text += `; ${fill(gettext("and %(count)s more (type the start of a move to hear those that fit)"), { count: choices.length - said.length })}`;
    }
    this.shell.speech.say(`${text}.`);
  }
}
