// The move list, in words (describe.js; the notation is each move's hover title).
//
// Frames carry the events since the last version a socket saw; a move's text is in
// its author's events only (it may be a secret), and otherwise in the view's
// last_move when the game shows it. What cannot be read from the frames (a reload,
// several moves in one coalesced update, more than 20 versions missed) is filled from
// the replay API, whose steps carry each public view.

import { lastMoveOf } from "./boards.js";
import { describeMove } from "./describe.js";
import { el, fill, gettext, seatName } from "./format.js";

export const MOVE_KINDS = new Set(["move", "timeout", "countdown"]);

/**
 * A move as the list shows it: a node with the move in words (describe.js), the
 * notation kept in data-notation and as its hover title (for export and for those who
 * read it). `context` is what describeMove needs: {seat, names, view, before}.
 */
export function moveText(game, move, context, className = "move-text") {
  const words = describeMove(game, move ?? null, context);
  if (move === null || move === undefined) return el("span", { class: `${className} hidden-move` }, words);
  return el("span", { class: className, title: move, dataset: { notation: move } }, words);
}

export class MoveList {
  constructor(list, replayUrl, game) {
    this.list = list;
    this.game = game;
    this.views = new Map(); // version -> the view at that version (what a description reads)
    this.replayUrl = replayUrl;
    this.entries = new Map(); // version -> {v, seat, kind, text}
    this.seats = [];
    this.fetching = false;
    this.fetchedUpTo = -1;
    this.wanted = false;
    this.onChange = () => {};
    this.onRender = () => {};
  }

  /** Forget every move and view (pass-and-play: what one seat was told is not for the next). */
  reset() {
    this.entries.clear();
    this.views.clear();
    this.fetchedUpTo = -1;
    this.render();
  }

  /** Take what a state or update frame tells about moves. */
  apply(frame) {
    this.seats = frame.seats || this.seats;
    const viewMove = lastMoveOf(frame.view);
    if (frame.view) this.views.set(frame.v, frame.view);
    let unknown = false;
    for (const event of frame.events || []) {
      if (!MOVE_KINDS.has(event.kind)) continue;
      const text = event.move ?? (event.v === frame.v ? viewMove : null);
      this.entries.set(event.v, { v: event.v, seat: event.seat, kind: event.kind, text });
      if (text === null) unknown = true;
    }
    this.reveal(frame.view, frame.v);
    if (frame.full && frame.status !== "open" && frame.view) unknown = true;
    if (unknown) this.fill(frame.v);
    this.render();
  }

  /** Load the whole list from the replay API (at most one request at a time). */
  async fill(upTo) {
    if (upTo <= this.fetchedUpTo) return;
    if (this.fetching) {
      this.wanted = true;
      return;
    }
    this.fetching = true;
    try {
      const response = await fetch(this.replayUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const data = await response.json();
      for (const step of data.steps || []) {
        if (!MOVE_KINDS.has(step.kind)) continue;
        const known = this.entries.get(step.v);
        const text = step.move ?? lastMoveOf(step.view) ?? (known ? known.text : null);
        this.entries.set(step.v, { v: step.v, seat: step.seat, kind: step.kind, text });
        if (step.view && !this.views.has(step.v)) this.views.set(step.v, step.view);
        this.reveal(step.view, step.v);
      }
      this.fetchedUpTo = data.v;
      this.render();
      this.onChange();
    } catch {
      // The list stays as it is; the next frame with a gap asks again.
    } finally {
      this.fetching = false;
      if (this.wanted) {
        this.wanted = false;
        this.fill(Infinity);
      }
    }
  }

  /**
   * A view may make public moves that were played in secret before its version (the
   * layouts of Rampants et Sauteurs, once both are chosen): `revealed_moves`, a list
   * of {seat, move}. Each fills the latest hidden move of that seat before `v`.
   */
  reveal(view, v) {
    const revealed = view && Array.isArray(view.revealed_moves) ? view.revealed_moves : [];
    for (const item of revealed) {
      if (!item || typeof item.move !== "string") continue;
      let latest = null;
      for (const entry of this.entries.values()) {
        if (entry.seat === item.seat && entry.kind === "move" && entry.text === null && entry.v < v
            && (latest === null || entry.v > latest.v)) latest = entry;
      }
      if (latest) latest.text = item.move;
    }
  }

  /** The words of an entry: what the move list and the last-move line say. */
  context(entry) {
    return {
      seat: entry.seat,
      names: this.seats.map((seat) => seatName(seat)),
      view: this.views.get(entry.v) || null,
      before: this.views.get(entry.v - 1) || null,
    };
  }

  /** The last move, as a node for the line above the board (null before the first move). */
  lastNode() {
    const entries = [...this.entries.values()].sort((a, b) => a.v - b.v);
    const entry = entries[entries.length - 1];
    if (!entry) return null;
    return moveText(this.game, entry.text, this.context(entry));
  }

  render() {
    const entries = [...this.entries.values()].sort((a, b) => a.v - b.v);
    const items = entries.map((entry, index) => {
      const note = entry.kind === "timeout" ? gettext("out of time") : entry.kind === "countdown" ? gettext("countdown") : "";
      return el("li", { dataset: { v: entry.v, seat: entry.seat ?? "" }, class: index === entries.length - 1 ? "last" : null },
        el("span", { class: "move-no" }, `${index + 1}.`), " ",
        moveText(this.game, entry.text, this.context(entry)),
        note ? el("span", { class: "meta" }, ` (${note})`) : null);
    });
    if (!items.length) items.push(el("li", { class: "empty" }, gettext("No move yet.")));
    this.list.replaceChildren(...items);
    const last = this.list.lastElementChild;
    if (last && typeof last.scrollIntoView === "function" && this.list.scrollHeight > this.list.clientHeight) {
      this.list.scrollTop = this.list.scrollHeight;
    }
    this.list.setAttribute("aria-label", fill(gettext("%(count)s moves"), { count: entries.length }));
    this.onRender();
  }

  /**
   * The moves in words, in version order, for the live region (speech.js): {v, words},
   * words null while a move's text may still come from the replay API.
   */
  spoken() {
    const loading = this.fetching || this.wanted;
    return [...this.entries.values()].sort((a, b) => a.v - b.v).map((entry) => {
      if (entry.text === null && loading && this.fetchedUpTo < entry.v) return { v: entry.v, words: null };
      const note = entry.kind === "timeout" ? ` (${gettext("out of time")})` : "";
      return { v: entry.v, words: moveText(this.game, entry.text, this.context(entry)).textContent + note };
    });
  }

  /** The moves played by `seat` so far (to know whether it may still abort). */
  countBy(seat) {
    let count = 0;
    for (const entry of this.entries.values()) if (entry.seat === seat && entry.kind === "move") count += 1;
    return count;
  }
}
