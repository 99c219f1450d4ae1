// The replay page: the game step by step from the table's log (GET the replay API),
// drawn by the game's own board module with no seat and no interaction. Step forward
// and back, jump to any move, autoplay; the address names the step shown, so it can be
// shared.

import { boardHost, boardStylesheets, lastMoveOf, loadBoard } from "./table/boards.js";
import { el, fill, gettext, outcomeWords, seatName } from "./table/format.js";
import { describeMove } from "./table/describe.js";
import { moveText } from "./table/moves.js";

const AUTOPLAY_EVERY = 1200; // ms

class Replay {
  constructor(root) {
    this.root = root;
    const q = (name) => root.querySelector(`[data-${name}]`);
    this.nodes = {
      status: q("replay-status"), controls: q("controls"), range: q("range"), position: q("position"),
      slot: q("board-slot"), players: q("players"), outcome: q("outcome"), moves: q("moves"),
      share: q("share-link"), copy: q("copy-share"), announce: q("announce"),
      play: root.querySelector("[data-go='play']"),
    };
    this.invite = root.dataset.invite || "";
    this.steps = [];
    this.index = 0;
    this.timer = null;
  }

  async start() {
    const url = this.root.dataset.apiReplay + (this.invite ? `?invite=${encodeURIComponent(this.invite)}` : "");
    let data;
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      data = await response.json();
      if (!response.ok) throw new Error(data.message || response.status);
    } catch (error) {
      this.nodes.status.textContent = fill(gettext("The game could not be loaded: %(reason)s"), { reason: error.message });
      return;
    }
    this.data = data;
    this.steps = data.steps;
    this.texts = this.moveTexts();
    if (!this.steps.length) {
      this.nodes.status.textContent = gettext("This game has not started: there is nothing to replay yet.");
      return;
    }
    const module = await loadBoard(this.root.dataset.static, this.root.dataset.game, boardStylesheets(this.root));
    this.board = module.mount(boardHost(this.nodes.slot), {
      seat: null, gettext, onMove: () => {}, announce: (text) => { this.nodes.announce.textContent = text; },
    });
    this.renderPlayers();
    this.renderMoves();
    this.listen();
    this.nodes.controls.hidden = false;
    this.nodes.range.max = String(this.steps.length - 1);
    const asked = Number(new URLSearchParams(location.search).get("step"));
    this.show(Number.isInteger(asked) && asked >= 0 && asked < this.steps.length ? asked : 0);
  }

  listen() {
    const actions = {
      first: () => this.show(0),
      prev: () => this.show(this.index - 1),
      next: () => this.show(this.index + 1),
      last: () => this.show(this.steps.length - 1),
      play: () => this.toggle(),
    };
    for (const button of this.root.querySelectorAll("[data-go]")) {
      button.addEventListener("click", () => actions[button.dataset.go]());
    }
    this.nodes.range.addEventListener("input", () => this.show(Number(this.nodes.range.value)));
    this.nodes.copy.addEventListener("click", async () => {
      this.nodes.share.select();
      try {
        await navigator.clipboard.writeText(this.nodes.share.value);
        this.nodes.announce.textContent = gettext("The link is copied.");
      } catch {
        this.nodes.announce.textContent = gettext("Select the link and copy it.");
      }
    });
    document.addEventListener("keydown", (event) => {
      if (event.target.closest("input, textarea, select, [data-square]")) return;
      const keys = { ArrowLeft: actions.prev, ArrowRight: actions.next, Home: actions.first, End: actions.last };
      if (keys[event.key]) {
        event.preventDefault();
        keys[event.key]();
      }
    });
  }

  toggle() {
    if (this.timer) {
      this.stopAutoplay();
      return;
    }
    if (this.index >= this.steps.length - 1) this.show(0);
    this.timer = setInterval(() => {
      if (this.index >= this.steps.length - 1) this.stopAutoplay();
      else this.show(this.index + 1);
    }, AUTOPLAY_EVERY);
    this.nodes.play.setAttribute("aria-pressed", "true");
    this.nodes.play.textContent = gettext("Pause");
  }

  stopAutoplay() {
    clearInterval(this.timer);
    this.timer = null;
    this.nodes.play.setAttribute("aria-pressed", "false");
    this.nodes.play.textContent = gettext("Autoplay");
  }

  show(index) {
    const clamped = Math.max(0, Math.min(this.steps.length - 1, index));
    this.index = clamped;
    const step = this.steps[clamped];
    const last = clamped === this.steps.length - 1;
    this.board.update(step.view, {
      legalMoves: [],
      lastMove: step.move ?? lastMoveOf(step.view),
      toAct: step.view.to_act || [],
      version: step.v,
      players: this.data.seats.map((seat) => ({ seat: seat.index, name: seatName(seat), isBot: Boolean(seat.bot), connected: true })),
      outcome: last ? this.data.outcome : step.view.outcome ?? null,
      countdown: null,
      interactive: false,
    });
    this.nodes.range.value = String(clamped);
    this.nodes.position.textContent = clamped === 0
      ? gettext("Start of the game")
      : fill(gettext("Move %(number)s of %(count)s"), { number: clamped, count: this.steps.length - 1 });
    this.nodes.status.textContent = this.describe(step, clamped);
    for (const item of this.nodes.moves.children) item.classList.toggle("current", Number(item.dataset.step) === clamped);
    const current = this.nodes.moves.querySelector(".current");
    if (current) {
      // Only the list scrolls to the current move: the page stays where it is (the board
      // on a phone's first screen). The list is the items' offset parent (table.css).
      const list = this.nodes.moves;
      if (current.offsetTop < list.scrollTop) list.scrollTop = current.offsetTop;
      else if (current.offsetTop + current.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = current.offsetTop + current.offsetHeight - list.clientHeight;
      }
    }
    const url = new URL(location.href);
    url.searchParams.set("step", String(clamped));
    history.replaceState(null, "", url);
    this.nodes.share.value = url.href;
    for (const name of ["first", "prev"]) this.root.querySelector(`[data-go='${name}']`).disabled = clamped === 0;
    for (const name of ["next", "last"]) this.root.querySelector(`[data-go='${name}']`).disabled = last;
  }

  describe(step, index) {
    if (index === 0) return gettext("The position at the start.");
    return `${describeMove(this.data.game, this.texts[index], this.context(step, index))}.`;
  }

  /** What a description reads: the names, the view after the step and the one before. */
  context(step, index) {
    return {
      seat: step.seat,
      names: this.data.seats.map((seat) => seatName(seat)),
      view: step.view || null,
      before: index > 0 ? this.steps[index - 1].view || null : null,
    };
  }

  /**
   * Each step's move text, or null while it is a secret: from the step itself (once
   * the game is over), its view's last move, or a later view that reveals it
   * (`revealed_moves`, see static/js/table/moves.js).
   */
  moveTexts() {
    const texts = this.steps.map((step) => step.move ?? lastMoveOf(step.view));
    this.steps.forEach((step, index) => {
      for (const item of (step.view && step.view.revealed_moves) || []) {
        if (!item || typeof item.move !== "string") continue;
        for (let k = index - 1; k > 0; k -= 1) {
          if (this.steps[k].seat === item.seat && this.steps[k].kind === "move" && texts[k] === null) {
            texts[k] = item.move;
            break;
          }
        }
      }
    });
    return texts;
  }

  renderPlayers() {
    this.nodes.players.replaceChildren(...this.data.seats.map((seat) =>
      el("li", { class: "player", dataset: { seat: seat.index } }, el("span", { class: "player-name" }, seatName(seat)))));
    const status = this.data.status;
    if (status === "finished") {
      const words = outcomeWords(this.data.outcome, this.data.seats, null);
      this.nodes.outcome.textContent = words.text;
    } else if (status === "aborted") {
      this.nodes.outcome.textContent = gettext("Game called off.");
    } else {
      this.nodes.outcome.textContent = gettext("The game is still being played: the moves are shown once it is over.");
    }
  }

  renderMoves() {
    const items = this.steps.map((step, index) => {
      const label = index === 0 ? el("span", { class: "move-text" }, gettext("Start"))
        : moveText(this.data.game, this.texts[index], this.context(step, index));
      return el("li", { dataset: { step: index } },
        el("button", { type: "button", class: "move-jump", on: { click: () => this.show(index) } },
          el("span", { class: "move-no" }, index ? `${index}.` : ""), " ",
          label));
    });
    this.nodes.moves.replaceChildren(...items);
  }
}

const root = document.querySelector("[data-replay-page]");
if (root) new Replay(root).start();
