// The move list, in the game's notation.
//
// Frames carry the events since the last version a socket saw; a move's text is in
// its author's events only (it may be a secret), and otherwise in the view's
// last_move when the game shows it. What cannot be read from the frames (a reload,
// several moves in one coalesced update, more than 20 versions missed) is filled from
// the replay API, whose steps carry each public view.

import { lastMoveOf } from "./boards.js";
import { el, fill, gettext, seatName } from "./format.js";

export const MOVE_KINDS = new Set(["move", "timeout", "countdown"]);

export class MoveList {
  constructor(list, replayUrl) {
    this.list = list;
    this.replayUrl = replayUrl;
    this.entries = new Map(); // version -> {v, seat, kind, text}
    this.seats = [];
    this.fetching = false;
    this.fetchedUpTo = -1;
    this.wanted = false;
    this.onChange = () => {};
  }

  /** Take what a state or update frame tells about moves. */
  apply(frame) {
    this.seats = frame.seats || this.seats;
    const viewMove = lastMoveOf(frame.view);
    let unknown = false;
    for (const event of frame.events || []) {
      if (!MOVE_KINDS.has(event.kind)) continue;
      const text = event.move ?? (event.v === frame.v ? viewMove : null);
      this.entries.set(event.v, { v: event.v, seat: event.seat, kind: event.kind, text });
      if (text === null) unknown = true;
    }
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

  render() {
    const entries = [...this.entries.values()].sort((a, b) => a.v - b.v);
    const items = entries.map((entry, index) => {
      const who = seatName(this.seats[entry.seat]) || "";
      let text = entry.text;
      if (text === null) text = gettext("(hidden)");
      const note = entry.kind === "timeout" ? gettext("out of time") : entry.kind === "countdown" ? gettext("countdown") : "";
      return el("li", { dataset: { v: entry.v, seat: entry.seat ?? "" }, class: index === entries.length - 1 ? "last" : null },
        el("span", { class: "move-no" }, `${index + 1}.`), " ",
        el("span", { class: "move-who" }, who), " ",
        el("span", { class: "move-text", lang: "zxx" }, text),
        note ? el("span", { class: "meta" }, ` (${note})`) : null);
    });
    if (!items.length) items.push(el("li", { class: "empty" }, gettext("No move yet.")));
    this.list.replaceChildren(...items);
    const last = this.list.lastElementChild;
    if (last && typeof last.scrollIntoView === "function" && this.list.scrollHeight > this.list.clientHeight) {
      this.list.scrollTop = this.list.scrollHeight;
    }
    this.list.setAttribute("aria-label", fill(gettext("%(count)s moves"), { count: entries.length }));
  }

  /** The moves played by `seat` so far (to know whether it may still abort). */
  countBy(seat) {
    let count = 0;
    for (const entry of this.entries.values()) if (entry.seat === seat && entry.kind === "move") count += 1;
    return count;
  }
}
