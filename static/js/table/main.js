// The table page: one socket to the table, the game's board module, and around it the
// players, clocks, presence, move list, chat, the actions of a game (sit, bots, start,
// draw, resign, abort, rematch) and its end. The board contract is in boards.js.

import { boardHost, boardStylesheets, lastMoveOf, loadBoard } from "./boards.js";
import { Chat } from "./chat.js";
import { ClockWarnings } from "./clock-warnings.js";
import { clockLabel, el, fill, formatClock, gettext, ngettext, outcomeWords, seatName } from "./format.js";
import { formatInteger } from "../l10n.js";
import { MoveList } from "./moves.js";
import { PassAndPlay } from "./pass.js";
import { TableSocket } from "./socket.js";
import { Sound } from "./sound.js";
import { Speech } from "./speech.js";
import { TypedMove } from "./typed.js";

const CONNECTION_WORDS = {
  connecting: () => gettext("connecting…"),
  open: () => gettext("connected"),
  closed: () => gettext("connection lost, trying again…"),
  signed_out: () => gettext("You were signed out, or your sign-in changed (here or on another device): reload the page to go on."),
  too_many: () => gettext("Too many pages of yours are open: close a few, trying again in 30 s…"),
};

class TableShell {
  constructor(root) {
    this.root = root;
    const data = root.dataset;
    this.tableId = Number(data.table);
    this.game = data.game;
    this.staticPrefix = data.static;
    this.boardCss = boardStylesheets(root);
    this.invite = data.invite || "";
    this.canSit = data.canSit === "1";
    this.tableUrl = data.tableUrl;
    this.tablePattern = data.tablePattern;
    this.guestUrl = data.guestUrl;
    const q = (name) => root.querySelector(`[data-${name}]`);
    this.nodes = {
      status: q("status"), connection: q("connection"), players: q("players"), spectators: q("spectators"),
      setup: q("setup"), setupActions: q("setup-actions"), inviteBox: q("invite-box"), inviteLink: q("invite-link"),
      copyInvite: q("copy-invite"), botLevelBox: q("bot-level-box"), botLevel: q("bot-level"), actions: q("actions"),
      outcome: q("outcome"), outcomeTitle: q("outcome-title"), outcomeText: q("outcome-text"),
      outcomeActions: q("outcome-actions"), outcomeRatings: q("outcome-ratings"), slot: q("board-slot"), announce: q("announce"),
      strip: q("strip"), banner: q("banner"), bannerText: q("banner-text"), bannerActions: q("banner-actions"),
      lastMove: q("last-move"), lastMoveText: q("last-move-text"),
    };
    const replayApi = data.apiReplay + (this.invite ? `?invite=${encodeURIComponent(this.invite)}` : "");
    this.moves = new MoveList(q("moves"), replayApi, this.game);
    this.speech = new Speech(root);
    this.moves.onRender = () => {
      this.renderLastMove();
      this.speech.moves(this.moves.spoken());
    };
    // Whether one may still call the game off depends on the moves already played.
    this.moves.onChange = () => { if (this.frame) this.renderActions(); };
    this.typed = new TypedMove({ form: q("typed-form"), input: q("typed-input"), list: q("typed-list"),
      error: q("typed-error"), position: q("read-position"), legal: q("read-legal") }, this);
    this.clockWarnings = new ClockWarnings();
    this.sound = new Sound(q("sound"));
    this.socket = new TableSocket(`/ws/tables/${this.tableId}/`, this.invite, {
      frame: (frame) => this.onFrame(frame),
      status: (state) => this.onConnection(state),
    }, data.account === "1");
    this.chat = new Chat(
      { log: q("chat-log"), form: q("chat-form"), input: q("chat-text"), title: q("chat-title") },
      (message) => this.socket.send(message),
    );
    this.frame = null;
    this.seatForgotten = false; // pass-and-play: between forgetSeat() and the next seat's frame
    this.presence = { seats: [], spectators: 0 };
    this.board = null;
    this.boardSeat = undefined;
    this.boardLoading = null;
    this.boardEpoch = 0; // bumped when a seat is forgotten: a board still loading is not mounted
    this.awaitingV = null; // the version a move of ours was sent for, while it is on its way
    this.retryMove = null; // a move refused as stale, to play again on the next version if still legal
    this.resignArmed = false;
    this.outcomeShown = false;
    this.wantRematch = false;
    this.leavingTo = null;
    this.handover = null; // {seats, until}: a seat just handed to a bot, said in the banner for a while
    this.announcedAt = 0; // when the line above the board last said something
    this.pass = data.passPlay === "1" ? new PassAndPlay(this, root) : null;
    // The shared screen is a spectator, even in a browser that holds a seat: the public view only.
    if (data.screen) this.socket.asSeat = -1;
    this.nodes.copyInvite.addEventListener("click", () => this.copyInvite());
    this.nodes.announce.addEventListener("click", () => { this.nodes.announce.textContent = ""; });
  }

  start() {
    this.socket.start();
    setInterval(() => this.tickClocks(), 200);
  }

  // -- frames ---------------------------------------------------------------------------

  onConnection(state) {
    const node = this.nodes.connection;
    node.dataset.state = state;
    node.textContent = CONNECTION_WORDS[state]();
    if (state === "signed_out") this.announce(node.textContent);
  }

  onFrame(frame) {
    if (frame.t === "state" || frame.t === "update") {
      // Pass-and-play decides first whose view may be shown (pass.js).
      if (!this.pass || this.pass.accept(frame)) this.applyTable(frame);
    }
    else if (frame.t === "presence") {
      this.presence = { seats: frame.seats, spectators: frame.spectators };
      this.renderPlayers();
      this.updateBoard();
    } else if (frame.t === "chat") this.chat.add(frame.message);
    else if (frame.t === "error") this.showError(frame);
  }

  applyTable(frame) {
    const before = this.frame;
    frame.receivedAt = Date.now();
    frame.receivedTick = performance.now();
    this.frame = frame;
    this.seatForgotten = false;
    this.root.dataset.v = String(frame.v); // the version on screen (tests wait for it)
    this.root.dataset.seat = frame.seat === null ? "" : String(frame.seat); // whose view it is
    if (frame.presence) this.presence = frame.presence;
    if (frame.chat) this.chat.replaceAll(frame.chat);
    this.chat.setMode(frame.seat !== null ? "players" : "spectators", frame.seat !== null || this.canSit);
    const retry = this.retryMove;
    if (this.awaitingV !== null && frame.v > this.awaitingV) {
      this.awaitingV = null;
      this.retryMove = null;
    }
    this.speech.since(frame.v);
    for (const event of frame.events || []) {
      if (event.kind === "kick" || event.kind === "replace") {
        this.handover = { seats: [event.seat], until: Date.now() + 15000 };
      }
    }
    // What was said about the last version (a selection, a refusal) is stale now; but
    // a refusal gets two seconds to be read, even when the bots play on at once.
    if (before && frame.v !== before.v && Date.now() - this.announcedAt > 2000) this.nodes.announce.textContent = "";
    this.moves.apply(frame);
    this.renderAll();
    this.ensureBoard();
    this.updateBoard();
    const myTurn = (f) => f && f.seat !== null && f.status === "running" && f.to_act.includes(f.seat);
    if (myTurn(frame) && !myTurn(before) && before) this.sound.beep(880);
    document.title = (myTurn(frame) ? "▶ " : "") + document.title.replace(/^▶ /, "");
    if (retry && this.retryMove === null) this.retry(retry);
    if (frame.rematch && this.wantRematch) this.goTo(this.tableLink(frame.rematch));
  }

  /** Take everything one seat was shown off the page (pass-and-play, between two seats). */
  forgetSeat() {
    this.boardEpoch += 1;
    if (this.board) this.board.destroy();
    this.board = null;
    this.boardSeat = undefined;
    this.nodes.slot.replaceChildren();
    this.moves.reset();
    this.speech.reset();
    if (this.typed) this.typed.reset();
    this.nodes.announce.textContent = "";
    this.awaitingV = null;
    this.retryMove = null;
    // Until the next seat's frame comes, nothing may redraw from the frame of the seat
    // just forgotten (a presence refresh, or the answer to that seat's last move).
    this.seatForgotten = true;
  }

  // -- the board --------------------------------------------------------------------------

  ensureBoard() {
    const frame = this.frame;
    if (!frame.view) return;
    if (this.board && this.boardSeat === frame.seat) return;
    if (this.boardLoading) return;
    const epoch = this.boardEpoch;
    // The board's module and its stylesheet: it is mounted (shown) once both are there.
    this.boardLoading = loadBoard(this.staticPrefix, this.game, this.boardCss)
      .then((module) => {
        if (epoch !== this.boardEpoch) return; // the seat was forgotten meanwhile (pass-and-play)
        if (this.board) this.board.destroy();
        const seat = this.frame.seat;
        this.board = module.mount(boardHost(this.nodes.slot), {
          seat,
          gettext,
          onMove: (move) => this.playMove(move),
          announce: (text) => this.announce(text),
          speaksMoves: true, // the shell says every move in words (speech.js)
        });
        this.boardSeat = seat;
        this.updateBoard();
      })
      .catch((error) => {
        this.nodes.slot.replaceChildren(el("p", { class: "error" }, gettext("The board could not be loaded.")));
        console.warn(error);
      })
      .finally(() => {
        this.boardLoading = null;
        if (epoch === this.boardEpoch && this.frame.seat !== this.boardSeat) this.ensureBoard();
      });
  }

  boardContext() {
    const frame = this.frame;
    const running = frame.status === "running";
    let countdown = null;
    if (frame.countdown) {
      const offset = Date.parse(frame.clock.server_time) - frame.receivedAt;
      const fromView = frame.view && typeof frame.view.countdown === "object" ? frame.view.countdown : null;
      countdown = {
        seat: fromView ? fromView.seat ?? null : null,
        move: fromView ? fromView.move ?? null : null,
        deadline: Date.parse(frame.countdown) - offset,
      };
    }
    return {
      legalMoves: running && this.awaitingV === null ? [...frame.legal] : [],
      lastMove: lastMoveOf(frame.view),
      toAct: running ? [...frame.to_act] : [],
      version: frame.v,
      players: frame.seats.map((seat) => ({
        seat: seat.index,
        name: seatName(seat),
        isBot: Boolean(seat.bot),
        // Pass-and-play: every seat of this device is here, as in the players panel.
        connected: Boolean(seat.bot) || this.presence.seats.includes(seat.index) || (frame.hands || []).includes(seat.index),
      })),
      outcome: frame.outcome,
      countdown,
      interactive: frame.seat !== null && running,
    };
  }

  updateBoard() {
    if (this.seatForgotten) return;
    if (this.frame) this.typed.update();
    if (!this.board || !this.frame || !this.frame.view || this.boardSeat !== this.frame.seat) return;
    this.board.update(this.frame.view, this.boardContext());
  }

  async playMove(move) {
    const frame = this.frame;
    if (this.awaitingV !== null) {
      this.announce(gettext("Your move is on its way."));
      return;
    }
    if (!frame || frame.status !== "running" || !frame.legal.includes(move)) {
      this.announce(gettext("This move is not possible now."));
      return;
    }
    const sentV = frame.v;
    this.awaitingV = sentV;
    this.updateBoard();
    try {
      await this.socket.send({ t: "move", move, v: sentV });
    } catch (error) {
      // Once a newer version has come, awaitingV is null (or another move's version).
      const stillWaiting = this.awaitingV === sentV;
      if (error.code === "stale_version") {
        // The table moved on before the move reached it (another seat played, a
        // countdown ran out...): play it again on the newer version, if it is still
        // legal there.
        if (stillWaiting) {
          // That version is on its way: the move stays on its way until it comes.
          this.retryMove = move;
          return;
        }
        // It came before the refusal: nothing more may come, decide now.
        if (this.awaitingV === null) this.retry(move);
        return;
      }
      if (stillWaiting) this.awaitingV = null;
      this.showError(error.frame);
      this.updateBoard();
    }
  }

  /** Play again a move refused as stale, on the current version, if it is still legal there. */
  retry(move) {
    const frame = this.frame;
    if (frame.status === "running" && frame.legal.includes(move)) {
      this.playMove(move);
    } else if (frame.status === "running") {
      this.announce(gettext("The game moved on before your move arrived: choose again."));
    }
  }

  announce(text) {
    const node = this.nodes.announce;
    this.announcedAt = Date.now();
    node.textContent = "";
    // A new text node each time, so that the same words are read out again.
    requestAnimationFrame(() => { node.textContent = text; });
    // It lies over the board's top when it is long: it goes after a while, or at a tap.
    clearTimeout(this.announceTimer);
    this.announceTimer = setTimeout(() => { if (node.textContent === text) node.textContent = ""; }, 8000);
  }

  showError(frame) {
    if (!frame) return;
    let text = frame.message;
    if (frame.code === "offline") text = gettext("Not connected: nothing was sent. Reconnecting…");
    else if (frame.code === "no_answer") text = gettext("The server did not answer: reconnecting…");
    if (frame.detail && frame.code === "illegal_move") text = `${text} (${frame.detail})`;
    this.announce(text || frame.code);
  }

  // -- requests -----------------------------------------------------------------------------

  async request(message) {
    try {
      return await this.socket.send(message);
    } catch (error) {
      this.showError(error.frame);
      return null;
    }
  }

  tableLink(id) {
    return this.tablePattern.replace(/\/0\/$/, `/${id}/`);
  }

  inviteUrl() {
    const frame = this.frame;
    const url = new URL(this.tableUrl, location.origin);
    if (frame && frame.invite) url.searchParams.set("invite", frame.invite);
    return url.href;
  }

  async copyInvite() {
    const input = this.nodes.inviteLink;
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      this.announce(gettext("The invitation link is copied."));
    } catch {
      this.announce(gettext("Select the link and copy it."));
    }
  }

  // -- rendering ------------------------------------------------------------------------------

  renderAll() {
    this.renderStatus();
    this.renderPlayers();
    this.renderStrip();
    this.renderBanner();
    this.renderSetup();
    this.renderActions();
    this.renderOutcome();
  }

  names(indices) {
    return indices.map((index) => seatName(this.frame.seats[index])).join(", ");
  }

  renderStatus() {
    const frame = this.frame;
    let text;
    if (frame.status === "open") {
      const free = frame.seats.filter((seat) => seat.empty).length;
      text = free
        ? fill(ngettext("Waiting for players: %(count)s free seat.", "Waiting for players: %(count)s free seats.", free), { count: free })
        : gettext("Every seat is taken: the host can start the game.");
    } else if (frame.status === "running") {
      if (this.pass && frame.seat !== null && frame.to_act.includes(frame.seat)) {
        text = fill(gettext("%(name)s's turn."), { name: seatName(frame.seats[frame.seat]) });
      } else if (frame.seat !== null && frame.to_act.includes(frame.seat)) text = gettext("Your turn.");
      else if (frame.seat !== null) text = fill(gettext("%(names)s to play."), { names: this.names(frame.to_act) });
      else if (this.root.dataset.screen) text = fill(gettext("%(names)s to play."), { names: this.names(frame.to_act) });
      else text = fill(gettext("You are watching. %(names)s to play."), { names: this.names(frame.to_act) });
    } else if (frame.status === "finished") {
      // Who won is the result card's title, right below: said once.
      text = gettext("The game is over.");
    } else {
      text = gettext("Game called off.");
    }
    this.nodes.status.textContent = text;
    this.nodes.status.dataset.turn = String(frame.status === "running" && frame.seat !== null && frame.to_act.includes(frame.seat));
  }

  renderPlayers() {
    const frame = this.frame;
    if (!frame) return;
    const items = frame.seats.map((seat) => this.playerItem(seat));
    this.nodes.players.replaceChildren(...items);
    const count = this.presence.spectators || 0;
    this.nodes.spectators.textContent = count
      ? fill(ngettext("%(count)s spectator", "%(count)s spectators", count), { count })
      : "";
    this.nodes.players.dataset.clock = clockLabel(frame.clock);
  }

  playerItem(seat) {
    const frame = this.frame;
    const index = seat.index;
    const mine = frame.seat === index;
    const toAct = frame.status === "running" && frame.to_act.includes(index);
    // Pass-and-play: every seat of this device is here, whichever one is shown.
    const connected = this.presence.seats.includes(index) || (frame.hands || []).includes(index);
    let presence;
    if (seat.bot) presence = el("span", { class: "presence bot" }, gettext("bot"));
    else if (seat.empty) presence = null;
    else presence = el("span", { class: `presence ${connected ? "online" : "away"}` },
      connected ? `● ${gettext("here")}` : `○ ${gettext("away")}`);
    const item = el("li", { class: `player${toAct ? " to-act" : ""}${mine ? " mine" : ""}`, dataset: { seat: index } },
      el("span", { class: "turn-mark", "aria-hidden": "true" }, toAct ? "▶" : ""),
      el("span", { class: "player-name" }, seatName(seat),
        mine ? el("span", { class: "meta" }, ` (${gettext("you")})`) : null,
        toAct ? el("span", { class: "visually-hidden" }, ` (${gettext("to play")})`) : null,
        seat.resigned ? el("span", { class: "meta" }, ` (${gettext("resigned")})`) : null),
      presence,
      this.clockNode(index));
    const buttons = this.seatButtons(seat, connected);
    if (buttons.length) item.append(el("span", { class: "seat-actions" }, ...buttons));
    return item;
  }

  /** A seat's clock; the strip's copy is marked data-strip-clock (and is not a timer for screen readers). */
  clockNode(index, strip = false) {
    const clock = this.frame.clock;
    if (!clock || clock.kind === "none" || !clock.seats) return null;
    const info = clock.seats[index];
    const dataset = strip ? { stripClock: index, running: String(info.running) } : { clock: index, running: String(info.running) };
    return el("span", { class: "clock", dataset, role: strip ? null : "timer" }, formatClock(this.clockMs(index)));
  }

  clockMs(index) {
    const info = this.frame.clock.seats[index];
    const elapsed = info.running && this.frame.status === "running" ? performance.now() - this.frame.receivedTick : 0;
    return info.ms - elapsed;
  }

  tickClocks() {
    if (this.handover && Date.now() > this.handover.until) {
      this.handover = null;
      if (this.frame) this.renderBanner();
    }
    if (!this.frame || !this.frame.clock || !this.frame.clock.seats) return;
    this.warnClocks();
    const trouble = this.timeTrouble();
    if (trouble.join() !== (this.shownTrouble || []).join()) this.renderBanner();
    for (const node of this.root.querySelectorAll(".clock[data-clock], .clock[data-strip-clock]")) {
      const index = Number(node.dataset.clock ?? node.dataset.stripClock);
      if (!this.frame.clock.seats[index].running) continue;
      const ms = this.clockMs(index);
      node.textContent = formatClock(ms);
      node.classList.toggle("low", ms < 20000);
    }
  }

  /** Say in the polite region when a running clock goes under 30 and under 10 seconds (clock-warnings.js). */
  warnClocks() {
    const frame = this.frame;
    const live = frame.status === "running";
    const clocks = frame.clock.seats.map((info, index) => ({
      ms: info.running && live ? this.clockMs(index) : info.ms, running: info.running,
    }));
    for (const { seat, seconds } of this.clockWarnings.check(clocks, live)) {
      this.speech.say(seat === frame.seat && !this.pass
        ? fill(ngettext("%(count)s second left on your clock!", "%(count)s seconds left on your clock!", seconds), { count: seconds })
        : fill(ngettext("%(name)s has %(count)s second left.", "%(name)s has %(count)s seconds left.", seconds),
          { name: seatName(frame.seats[seat]), count: seconds }));
    }
  }

  seatButtons(seat, connected) {
    const frame = this.frame;
    const buttons = [];
    const index = seat.index;
    if (frame.status === "open") {
      if (seat.empty && frame.seat === null) {
        if (this.canSit) {
          buttons.push(el("button", { type: "button", class: "small", dataset: { sit: index },
            on: { click: () => this.request({ t: "sit", seat: index }) } }, gettext("Sit here")));
        } else {
          buttons.push(el("a", { class: "button small secondary", href: this.guestUrl }, gettext("Choose a name to sit")));
        }
      }
      if (seat.empty && frame.host) {
        buttons.push(el("button", { type: "button", class: "small secondary", dataset: { addBot: index },
          on: { click: () => this.request({ t: "bots", level: this.nodes.botLevel.value, seats: [index] }) } },
          gettext("Add a bot")));
      }
      if (seat.bot && frame.host) {
        buttons.push(el("button", { type: "button", class: "small secondary", dataset: { unbot: index },
          on: { click: () => this.request({ t: "unbot", seat: index }) } }, gettext("Remove the bot")));
      }
    } else if (frame.status === "running" && frame.seat !== null && index !== frame.seat
               && !seat.bot && !seat.empty && !connected) {
      buttons.push(el("button", { type: "button", class: "small secondary", dataset: { kick: index },
        title: gettext("Possible once the player has been away for the table's grace period."),
        on: { click: () => this.request({ t: "kick", seat: index }) } }, gettext("Hand to a bot")));
    }
    return buttons;
  }

  /** The one-line players strip above the board (a phone shows it instead of the panel). */
  renderStrip() {
    const frame = this.frame;
    const items = frame.seats.map((seat) => {
      const toAct = frame.status === "running" && frame.to_act.includes(seat.index);
      const mine = frame.seat === seat.index;
      return el("li", { class: `strip-seat${toAct ? " to-act" : ""}${mine ? " mine" : ""}`, dataset: { seat: seat.index } },
        toAct ? el("span", { class: "turn-mark" }, "▶") : null,
        el("span", { class: "strip-name" }, seatName(seat)),
        this.clockNode(seat.index, true));
    });
    this.nodes.strip.replaceChildren(...items);
  }

  /** Seats whose running clock is under 20 seconds. */
  timeTrouble() {
    const frame = this.frame;
    if (!frame || frame.status !== "running" || !frame.clock || !frame.clock.seats) return [];
    return frame.clock.seats
      .map((info, index) => (info.running && this.clockMs(index) < 20000 ? index : null))
      .filter((index) => index !== null);
  }

  /**
   * The banner at the board: who offers a draw (with accept / decline for the others),
   * who offers a rematch, whose seat went to a bot, who is short of time. The end of
   * the game has its own box right above it.
   */
  renderBanner() {
    const frame = this.frame;
    const lines = [];
    const actions = [];
    const name = (index) => seatName(frame.seats[index]);
    const offers = frame.draw_offers || [];
    if (frame.status === "running" && offers.length) {
      const others = offers.filter((index) => index !== frame.seat);
      if (others.length) {
        lines.push(fill(gettext("%(name)s offers a draw."), { name: this.names(others) }));
        if (frame.seat !== null && !offers.includes(frame.seat)) {
          actions.push(el("button", { type: "button", dataset: { draw: "accept" },
            on: { click: () => this.request({ t: "draw", action: "accept" }) } }, gettext("Accept the draw")));
          actions.push(el("button", { type: "button", class: "secondary", dataset: { draw: "decline" },
            on: { click: () => this.request({ t: "draw", action: "decline" }) } }, gettext("Decline the draw")));
        }
      } else {
        lines.push(gettext("You offered a draw: waiting for the answer."));
      }
    }
    const rematches = (frame.rematch_offers || []).filter((index) => index !== frame.seat);
    if (frame.status === "finished" && !frame.rematch && rematches.length) {
      lines.push(fill(gettext("%(name)s offers a rematch."), { name: this.names(rematches) }));
    }
    if (this.handover) {
      for (const index of this.handover.seats) {
        const seat = frame.seats[index];
        if (seat && seat.bot) lines.push(fill(gettext("%(name)s has been away too long: a bot plays for them now."), { name: seat.name || name(index) }));
      }
    }
    const trouble = this.timeTrouble();
    this.shownTrouble = trouble;
    for (const index of trouble) {
      lines.push(index === frame.seat ? gettext("You have less than 20 seconds left!")
        : fill(gettext("%(name)s has less than 20 seconds left."), { name: name(index) }));
    }
    this.nodes.bannerText.replaceChildren(...lines.map((line) => el("span", { class: "banner-line" }, line)));
    this.nodes.bannerActions.replaceChildren(...actions);
    this.nodes.bannerActions.hidden = !actions.length;
    this.nodes.banner.hidden = !lines.length;
    this.nodes.banner.dataset.kind = offers.length && frame.status === "running" ? "draw"
      : trouble.length ? "time" : this.handover ? "handover" : rematches.length ? "rematch" : "";
  }

  /** "Last move: Ben bids 7", above the board. */
  renderLastMove() {
    const node = this.moves.lastNode();
    this.nodes.lastMove.hidden = !node;
    this.nodes.lastMoveText.replaceChildren(...(node ? [node] : []));
  }

  renderSetup() {
    const frame = this.frame;
    const open = frame.status === "open";
    this.nodes.setup.hidden = !open;
    if (!open) return;
    this.nodes.inviteLink.value = this.inviteUrl();
    this.nodes.inviteBox.hidden = frame.private && !frame.invite;
    this.nodes.botLevelBox.hidden = !frame.host;
    const actions = [];
    const empty = frame.seats.filter((seat) => seat.empty).length;
    if (frame.host) {
      actions.push(el("button", { type: "button", dataset: { start: "" }, disabled: empty > 0,
        on: { click: () => this.request({ t: "start" }) } }, gettext("Start the game")));
      if (empty) actions.push(el("span", { class: "meta" }, ` ${gettext("Every seat must be taken, by a person or a bot.")}`));
    }
    if (frame.seat !== null) {
      actions.push(el("button", { type: "button", class: "secondary", dataset: { leave: "" },
        on: { click: () => this.request({ t: "leave" }) } }, gettext("Leave the table")));
    }
    this.nodes.setupActions.replaceChildren(...actions);
  }

  renderActions() {
    const frame = this.frame;
    const box = this.nodes.actions;
    const playing = frame.status === "running" && frame.seat !== null;
    box.hidden = !playing;
    if (!playing) {
      box.replaceChildren();
      this.resignArmed = false;
      return;
    }
    const buttons = [];
    const withBots = frame.seats.some((seat) => seat.bot);
    const offers = frame.draw_offers || [];
    const mine = offers.includes(frame.seat);
    if (!withBots) {
      if (offers.length && !mine) {
        // Accept or decline: in the banner at the board, which says who offered.
      } else if (mine) {
        buttons.push(el("span", { class: "meta" }, gettext("You offered a draw.")));
      } else {
        buttons.push(el("button", { type: "button", class: "secondary", dataset: { draw: "offer" },
          on: { click: () => this.request({ t: "draw", action: "offer" }) } }, gettext("Offer a draw")));
      }
    }
    const resign = el("button", { type: "button", class: `secondary${this.resignArmed ? " danger" : ""}`, dataset: { resign: "" },
      on: { click: () => this.resign() } },
      this.resignArmed ? gettext("Yes, resign") : gettext("Resign"));
    buttons.push(resign);
    if (this.moves.countBy(frame.seat) === 0) {
      buttons.push(el("button", { type: "button", class: "secondary", dataset: { abort: "" },
        on: { click: () => this.request({ t: "abort" }) } }, gettext("Call the game off")));
    }
    // Redrawn buttons keep the keyboard focus ("Resign" becomes "Yes, resign" under it).
    const active = document.activeElement;
    const focusedKey = active && box.contains(active) ? Object.keys(active.dataset)[0] : null;
    box.replaceChildren(...buttons);
    if (focusedKey) {
      const again = buttons.find((node) => node.dataset && focusedKey in node.dataset && !node.disabled);
      if (again) again.focus();
    }
  }

  resign() {
    if (!this.resignArmed) {
      // Two clicks: a slip of the finger must not end a game.
      this.resignArmed = true;
      this.renderActions();
      this.announce(gettext("Click again to resign."));
      setTimeout(() => {
        if (this.resignArmed) {
          this.resignArmed = false;
          this.renderActions();
        }
      }, 5000);
      return;
    }
    this.resignArmed = false;
    this.request({ t: "resign" });
  }

  renderOutcome() {
    const frame = this.frame;
    const over = frame.status === "finished" || frame.status === "aborted";
    const box = this.nodes.outcome;
    box.hidden = !over;
    if (!over) return;
    const words = outcomeWords(frame.status === "finished" ? frame.outcome : null, frame.seats, this.pass ? null : frame.seat);
    this.nodes.outcomeTitle.textContent = words.title;
    this.nodes.outcomeText.textContent = words.text;
    box.dataset.result = frame.status === "aborted" ? "aborted"
      : !frame.outcome.winners.length ? "draw"
        : frame.seat !== null && frame.outcome.winners.includes(frame.seat) ? "won"
          : frame.seat !== null ? "lost" : "over";
    this.renderRatings();
    const actions = [];
    if (frame.rematch) {
      actions.push(el("a", { class: "button", href: this.tableLink(frame.rematch), dataset: { rematchLink: "" } },
        gettext("Go to the rematch")));
    } else if (frame.status === "finished" && frame.seat !== null) {
      const offers = frame.rematch_offers || [];
      if (offers.includes(frame.seat)) {
        actions.push(el("span", { class: "meta" }, gettext("Rematch offered, waiting for the others.")));
      } else {
        const label = offers.length ? gettext("Accept the rematch") : gettext("Rematch");
        actions.push(el("button", { type: "button", dataset: { rematch: "" }, on: { click: () => this.rematch() } }, label));
      }
    }
    const replay = this.root.dataset.replayUrl + (this.invite ? `?invite=${encodeURIComponent(this.invite)}` : "");
    actions.push(el("a", { class: "button secondary", href: replay }, gettext("Replay the game")));
    actions.push(el("a", { class: "button secondary", href: this.root.dataset.lobbyUrl },
      gettext("Back to all tables")));
    this.nodes.outcomeActions.replaceChildren(...actions);
    if (!this.outcomeShown) {
      this.outcomeShown = true;
      this.speech.say(`${words.title} ${words.text}`.trim());
      this.sound.beep(520, 0.3);
      box.focus({ preventScroll: false });
    }
  }

  /** What a rated game did to each player's rating: "Ana: 1 500 → 1 512 (+12)". */
  renderRatings() {
    const list = this.nodes.outcomeRatings;
    if (!list) return;
    const ratings = (this.frame.status === "finished" && this.frame.outcome && this.frame.outcome.ratings) || [];
    list.hidden = !ratings.length;
    list.replaceChildren(...ratings.map((r) => {
      const after = formatInteger(r.after) + (r.provisional ? "?" : "");
      const delta = (r.delta > 0 ? "+" : r.delta < 0 ? "−" : "±") + formatInteger(Math.abs(r.delta));
      const text = fill(gettext("%(name)s: %(before)s → %(after)s (%(delta)s)"), {
        name: seatName(this.frame.seats[r.seat] || {}), before: formatInteger(r.before), after, delta,
      });
      return el("li", { dataset: { ratingSeat: String(r.seat), ratingDelta: String(r.delta) },
        class: r.seat === this.frame.seat ? "mine" : "" }, text);
    }));
  }

  async rematch() {
    this.wantRematch = true;
    const ack = await this.request({ t: "rematch" });
    if (ack && ack.result) this.goTo(this.tableLink(ack.result));
  }

  /** Go to `url` once: the rematch's ack and the update naming the rematch both lead there,
   * and a second navigation would cancel the first. */
  goTo(url) {
    if (this.leavingTo === url) return;
    this.leavingTo = url;
    location.assign(url);
  }
}

const root = document.querySelector("[data-table-page]");
if (root) new TableShell(root).start();
