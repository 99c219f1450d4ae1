// What the three Karo boards (Rampants et Sauteurs, Éclaircissement, Quatre en ligne)
// share: an SVG of square places, pieces with their engraved circle up or down,
// highlights that never rely on colour alone, keyboard focus that moves with the
// arrows, clicks and drags turned into one call per place, and the strip of
// prompt, buttons and legend under the board.
//
// Their styles: static/css/boards-karo.css, shared, which each game's own
// boards-<slug>.css imports; the page loads that before mounting the board.
//
// A game module owns its own state (what is selected, the step of a multi-part
// move) and redraws everything from the view and that state after each change:
// a board has at most a few dozen places, so redrawing is cheap and keeps the
// picture a pure function of (view, ctx, local choices).

export const SVG_NS = "http://www.w3.org/2000/svg";
export const S = 100; // user units per square

/** An SVG element with attributes, appended to ``parent`` when given. */
export function svg(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(key, String(value));
  }
  if (parent) parent.append(node);
  return node;
}

/** An HTML element with attributes and text, appended to ``parent`` when given. */
export function html(tag, attrs, parent, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "className") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  if (text !== undefined) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

// A phone or a tablet: say "tap", not "press Enter" or "Escape".
const TOUCH = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
const FILES = "abcdefgh";

/** The name of a square on the fixed grids, file letter then rank: (0, 0) is "a1". */
export function squareName(x, y) {
  return `${FILES[x]}${y + 1}`;
}

/** The column and row of a square name such as "b3" (both from 0). */
export function parseSquare(name) {
  return { x: FILES.indexOf(name[0]), y: Number(name.slice(1)) - 1 };
}

/** "%(name)s" placeholders filled from ``values`` (the catalogue gives only gettext). */
export function fmt(text, values) {
  return text.replace(/%\((\w+)\)s/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/** The strings the shared parts need, through the page's catalogue. */
export function commonTexts(gettext) {
  return {
    white: gettext("White"),
    red: gettext("Red"),
    you: gettext("you"),
    yourTurn: gettext("Your turn."),
    waiting: gettext("The other player is thinking."),
    watching: gettext("You are watching."),
    gameOver: gettext("The game is over."),
    cancel: gettext("Cancel"),
    pass: gettext("Pass"),
    passPrompt: gettext("You have no legal move: you must pass."),
    noMoveFrom: gettext("No legal move from %(square)s."),
    notADestination: gettext("%(square)s is not a destination for the selected piece."),
    selected: TOUCH ? gettext("%(square)s selected; destinations: %(count)s. Tap one.")
      : gettext("%(square)s selected; destinations: %(count)s. Choose one, or press Escape."),
    deselected: gettext("Selection cancelled."),
    chooseOwn: gettext("%(square)s: choose one of your own pieces first (those that can move are framed)."),
    destination: gettext("destination"),
    lastFrom: gettext("last move from here"),
    lastTo: gettext("last move to here"),
    selectedMark: gettext("selected"),
    empty: gettext("empty"),
    boardLabel: gettext("%(game)s board. Arrow keys move between squares; Enter or Space selects."),
    played: gettext("%(player)s played %(move)s."),
  };
}

/** The owner colour name (seat 0 plays the white pieces, seat 1 the red ones). */
export function sideName(T, seat) {
  return seat === 0 ? T.white : T.red;
}

// -- pieces ---------------------------------------------------------------------------

function octagon(cx, cy, r) {
  const points = [];
  for (let k = 0; k < 8; k += 1) {
    const a = Math.PI / 8 + (k * Math.PI) / 4;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(" ");
}

/**
 * A piece centred on (cx, cy): white pieces (seat 0) are discs, red ones (seat 1)
 * octagons, so the owner shows by shape as well as colour. ``up`` draws the
 * engraved circle on top; ``lit`` adds rays around it.
 */
export function drawPiece(parent, cx, cy, { owner, up, lit = false, size = 1 }) {
  const g = svg("g", { class: `karo-piece karo-piece--p${owner}${up ? " karo-piece--up" : ""}${lit ? " karo-piece--lit" : ""}` }, parent);
  const r = 34 * size;
  if (lit) {
    const rays = svg("g", { class: "karo-rays" }, g);
    for (let k = 0; k < 8; k += 1) {
      const a = (k * Math.PI) / 4;
      svg("line", {
        x1: (cx + (r + 3) * Math.cos(a)).toFixed(1),
        y1: (cy + (r + 3) * Math.sin(a)).toFixed(1),
        x2: (cx + (r + 12 * size) * Math.cos(a)).toFixed(1),
        y2: (cy + (r + 12 * size) * Math.sin(a)).toFixed(1),
      }, rays);
    }
  }
  svg("ellipse", { class: "karo-piece-shadow", cx, cy: cy + 4 * size, rx: r, ry: r }, g);
  if (owner === 0) svg("circle", { class: "karo-piece-body", cx, cy, r }, g);
  else svg("polygon", { class: "karo-piece-body", points: octagon(cx, cy, r) }, g);
  if (up) svg("circle", { class: "karo-piece-circle", cx, cy, r: 18 * size }, g);
  return g;
}

/** A small inline SVG with one piece, for legends and buttons. */
export function pieceIcon(parent, piece, label) {
  const icon = svg("svg", { class: "karo-icon", viewBox: "0 0 100 100", "aria-hidden": label ? null : "true", role: label ? "img" : null }, parent);
  if (label) svg("title", {}, icon).textContent = label;
  drawPiece(icon, 50, 48, { ...piece, size: piece.lit ? 0.78 : 1 });
  return icon;
}

// -- the board ------------------------------------------------------------------------

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * The SVG, the places on it, and the input plumbing. A game module sets
 * ``activate(name)`` (a click, a tap, Enter or Space on a place), and for drags
 * ``canDrag(name)`` and ``drop(from, to)``; ``cancel()`` is Escape.
 */
export class KaroBoard {
  constructor(host, options, { game, label }) {
    this.host = host;
    this.options = options;
    this.activate = () => {};
    this.canDrag = () => false;
    this.drop = () => {};
    this.cancel = () => {};
    this.cells = new Map(); // name -> {g, dx, dy}
    this.focusName = null;

    this.root = html("div", { className: `karo karo--${game}` }, host);
    this.svgEl = svg("svg", {
      class: "karo-svg",
      role: "group",
      "aria-label": label,
      "aria-roledescription": "board",
    }, this.root);
    this.defs = svg("defs", {}, this.svgEl);
    svg("path", { d: "M0,0 L10,5 L0,10 z" }, svg("marker", {
      id: `karo-arrow-${game}`, viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse", class: "karo-arrowhead",
    }, this.defs));
    this.arrowId = `karo-arrow-${game}`;
    this.layers = {};
    for (const name of ["under", "cells", "over", "drag"]) {
      this.layers[name] = svg("g", { class: `karo-layer karo-layer--${name}` }, this.svgEl);
    }
    this.prompt = html("p", { className: "karo-prompt" }, this.root);
    this.actions = html("div", { className: "karo-actions" }, this.root);
    this.legend = html("ul", { className: "karo-legend" }, this.root);

    this._keydown = (event) => this.onKey(event);
    this._pointerdown = (event) => this.onPointerDown(event);
    this.svgEl.addEventListener("keydown", this._keydown);
    this.svgEl.addEventListener("pointerdown", this._pointerdown);
    // On the root, not the svg: Chromium makes an SVG element with a focus listener a Tab
    // stop of its own, where the arrows do nothing.
    this.root.addEventListener("focusin", (event) => {
      const cell = event.target.closest && event.target.closest("[data-square]");
      if (cell) this.setRoving(cell.dataset.square);
    });
  }

  /**
   * Record on the board's root which version it shows and how many moves it
   * offers (data-version, data-moves): harmless to the page, and what a test
   * waits for before it clicks. True when the version is a new one (a move was
   * played since the last call).
   */
  stamp(ctx) {
    const version = String(ctx.version);
    const changed = this.root.dataset.version !== version;
    this.root.dataset.version = version;
    this.root.dataset.moves = String(ctx.interactive ? ctx.legalMoves.length : 0);
    return changed;
  }

  announce(text) {
    if (text && this.options.announce) this.options.announce(text);
  }

  destroy() {
    this.endDrag();
    this.root.remove();
  }

  // -- drawing ---------------------------------------------------------------------

  /** Clear the picture; the viewBox is in squares (x0, y0, width, height). */
  begin(x0, y0, width, height) {
    const active = document.activeElement;
    this.hadFocus = Boolean(active && this.svgEl.contains(active));
    this.svgEl.setAttribute("viewBox", `${x0 * S} ${y0 * S} ${width * S} ${height * S}`);
    this.svgEl.dataset.cols = String(width);
    this.svgEl.dataset.rows = String(height);
    // The drag layer survives: a drag may redraw the board under the moving piece.
    for (const name of ["under", "cells", "over"]) this.layers[name].replaceChildren();
    this.cells.clear();
  }

  /** A place at display column dx, row dy (in squares); returns its group. */
  cell(name, dx, dy, { classes = "", label = "", role = "button" } = {}) {
    const g = svg("g", {
      class: `karo-cell ${classes}`.trim(),
      transform: `translate(${dx * S} ${dy * S})`,
      "data-square": name,
      tabindex: "-1",
      role,
      "aria-label": label,
    }, this.layers.cells);
    this.cells.set(name, { g, dx, dy });
    return g;
  }

  /** A square tile inside a cell group (local coordinates 0..100). */
  tile(g, classes = "") {
    return svg("rect", { class: `karo-tile ${classes}`.trim(), x: 2, y: 2, width: S - 4, height: S - 4, rx: 6 }, g);
  }

  /** Marks drawn inside a cell: destination dot, selection, last move, focus ring. */
  markDestination(g) {
    svg("circle", { class: "karo-dest", cx: S / 2, cy: S / 2, r: 13 }, g);
  }

  markSelected(g) {
    svg("rect", { class: "karo-selected", x: 6, y: 6, width: S - 12, height: S - 12, rx: 5 }, g);
  }

  markMovable(g) {
    svg("rect", { class: "karo-movable", x: 9, y: 9, width: S - 18, height: S - 18, rx: 4 }, g);
  }

  /** The square a piece left: a small hollow diamond. */
  markLastFrom(g) {
    svg("path", { class: "karo-last karo-last-from", d: "M50,36 L64,50 L50,64 L36,50 Z" }, g);
  }

  /** The square a piece reached: brackets in the four corners. */
  markLastTo(g) {
    const a = 8, b = 26, c = S - 8, d = S - 26;
    svg("path", {
      class: "karo-last karo-last-to",
      d: `M${a},${b} L${a},${a} L${b},${a} M${d},${a} L${c},${a} L${c},${b} M${c},${d} L${c},${c} L${d},${c} M${b},${c} L${a},${c} L${a},${d}`,
    }, g);
  }

  /** A numbered badge in a corner (the squares a jumping piece went through). */
  markNumber(g, n) {
    const badge = svg("g", { class: "karo-badge" }, g);
    svg("circle", { cx: 20, cy: 20, r: 14 }, badge);
    svg("text", { x: 20, y: 21, "text-anchor": "middle", "dominant-baseline": "central" }, badge).textContent = String(n);
  }

  focusRing(g) {
    svg("rect", { class: "karo-focus-ring", x: 3, y: 3, width: S - 6, height: S - 6, rx: 7 }, g);
  }

  /** A line with an arrowhead between two display positions (in squares, centres). */
  arrow(from, to, classes = "") {
    return svg("line", {
      class: `karo-line ${classes}`.trim(),
      x1: (from[0] + 0.5) * S, y1: (from[1] + 0.5) * S,
      x2: (to[0] + 0.5) * S, y2: (to[1] + 0.5) * S,
      "marker-end": `url(#${this.arrowId})`,
    }, this.layers.over);
  }

  /**
   * The frame of a fixed grid of ``width`` x ``height`` squares: its backing, file
   * letters below and rank numbers on the left; ``display(x, y)`` gives the display
   * column and row of a square (the board turns for seat 1).
   */
  gridFrame(width, height, display) {
    for (let y = 0; y < height; y += 1) this.coordinate(String(y + 1), -0.2 * S, (display(0, y)[1] + 0.5) * S);
    for (let x = 0; x < width; x += 1) this.coordinate(FILES[x], (display(x, 0)[0] + 0.5) * S, (height + 0.2) * S);
    svg("rect", {
      class: "karo-board-back", x: -4, y: -4, width: width * S + 8, height: height * S + 8, rx: 10,
    }, this.layers.under);
  }

  /** Coordinates along the border (a–e, 1–8...): text only, hidden from screen readers. */
  coordinate(text, x, y) {
    svg("text", {
      class: "karo-coord", x, y, "text-anchor": "middle", "dominant-baseline": "central", "aria-hidden": "true",
    }, this.layers.under).textContent = text;
  }

  /** After drawing: roving tabindex on one place, focus back where it was. */
  finish(preferred) {
    for (const { g } of this.cells.values()) this.focusRing(g);
    let name = this.focusName;
    if (!name || !this.cells.has(name)) name = preferred && this.cells.has(preferred) ? preferred : null;
    if (!name) name = this.cells.keys().next().value || null;
    this.setRoving(name);
    if (this.hadFocus && name) this.cells.get(name).g.focus({ preventScroll: true });
  }

  setRoving(name) {
    if (!name || !this.cells.has(name)) return;
    for (const [other, { g }] of this.cells) g.setAttribute("tabindex", other === name ? "0" : "-1");
    this.focusName = name;
  }

  focusCell(name) {
    if (!this.cells.has(name)) return;
    this.setRoving(name);
    this.cells.get(name).g.focus({ preventScroll: true });
  }

  // -- the strip under the board ------------------------------------------------------

  /** The sentence(s) under the board: a string, or a list shown one per line. */
  setPrompt(text) {
    const lines = (Array.isArray(text) ? text : [text]).filter(Boolean);
    this.prompt.replaceChildren();
    lines.forEach((line, k) => {
      if (k) this.prompt.append(document.createElement("br"));
      this.prompt.append(line);
    });
    this.prompt.hidden = lines.length === 0;
  }

  /** Buttons under the board: [{label, onClick, primary, disabled, name}]. */
  setActions(buttons) {
    const focused = document.activeElement;
    const refocus = focused && this.actions.contains(focused) ? focused.dataset.action : null;
    this.actions.replaceChildren();
    for (const spec of buttons) {
      const button = html("button", {
        type: "button",
        className: spec.primary ? "karo-action" : "karo-action secondary",
        "data-action": spec.name || null,
        disabled: spec.disabled || null,
      }, this.actions, spec.label);
      button.addEventListener("click", () => spec.onClick());
      if (refocus && spec.name === refocus && !spec.disabled) button.focus({ preventScroll: true });
    }
    this.actions.hidden = buttons.length === 0;
  }

  /** The legend: [{piece, text}] with a drawn piece before each text. */
  setLegend(items) {
    this.legend.replaceChildren();
    for (const item of items) {
      const li = html("li", {}, this.legend);
      if (item.piece) pieceIcon(li, item.piece);
      if (item.mark) {
        const icon = svg("svg", { class: "karo-icon", viewBox: "0 0 100 100", "aria-hidden": "true" }, li);
        item.mark(icon);
      }
      html("span", {}, li, item.text);
    }
  }

  // -- input -----------------------------------------------------------------------

  onKey(event) {
    this.svgEl.classList.add("is-keyboard"); // focus rings from now on, until a pointer is used
    const cell = event.target.closest && event.target.closest("[data-square]");
    if (!cell) return;
    const name = cell.dataset.square;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.activate(name);
    } else if (event.key === "Escape") {
      event.preventDefault();
      this.cancel();
    } else if (ARROWS[event.key]) {
      event.preventDefault();
      const next = this.neighbour(name, ...ARROWS[event.key]);
      if (next) this.focusCell(next);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      const names = [...this.cells.keys()];
      this.focusCell(event.key === "Home" ? names[0] : names[names.length - 1]);
    }
  }

  /** The nearest place from ``name`` in display direction (ex, ey), any board shape. */
  neighbour(name, ex, ey) {
    const here = this.cells.get(name);
    let best = null;
    let bestScore = Infinity;
    for (const [other, { dx, dy }] of this.cells) {
      if (other === name) continue;
      const along = (dx - here.dx) * ex + (dy - here.dy) * ey;
      if (along <= 0) continue;
      const across = Math.abs((dx - here.dx) * ey) + Math.abs((dy - here.dy) * ex);
      const score = along + 2.5 * across;
      if (score < bestScore) {
        best = other;
        bestScore = score;
      }
    }
    return best;
  }

  /** The place under a client point, found by position (works under pointer capture). */
  cellAt(clientX, clientY) {
    const matrix = this.svgEl.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    const col = point.x / S;
    const row = point.y / S;
    for (const [name, { dx, dy }] of this.cells) {
      if (col >= dx && col < dx + 1 && row >= dy && row < dy + 1) return name;
    }
    return null;
  }

  svgPoint(clientX, clientY) {
    const matrix = this.svgEl.getScreenCTM();
    return new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
  }

  onPointerDown(event) {
    if (event.button !== 0 || this.drag) return;
    const cell = event.target.closest && event.target.closest("[data-square]");
    if (!cell) return;
    const name = cell.dataset.square;
    // The browser focuses the place itself (a pointer focus shows no ring).
    this.svgEl.classList.remove("is-keyboard");
    this.setRoving(name);
    const drag = { name, pointerId: event.pointerId, x: event.clientX, y: event.clientY, moving: false, ghost: null };
    this.drag = drag;
    const move = (e) => {
      if (e.pointerId !== drag.pointerId) return;
      if (!drag.moving) {
        if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8 || !this.canDrag(drag.name)) return;
        drag.moving = true;
        drag.ghost = this.startGhost(drag.name);
      }
      if (drag.ghost) {
        const p = this.svgPoint(e.clientX, e.clientY);
        const { dx, dy } = drag.origin;
        drag.ghost.setAttribute("transform", `translate(${p.x - (dx + 0.5) * S} ${p.y - (dy + 0.5) * S})`);
        this.hover(this.cellAt(e.clientX, e.clientY));
      }
    };
    const up = (e) => {
      if (e.pointerId !== drag.pointerId) return;
      const moved = drag.moving;
      const target = moved ? this.cellAt(e.clientX, e.clientY) : null;
      this.endDrag();
      if (e.type === "pointercancel") return;
      if (moved) {
        if (target && target !== drag.name) this.drop(drag.name, target);
      } else {
        this.activate(drag.name);
      }
    };
    drag.cleanup = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }

  /** A copy of what sits on the dragged place, following the pointer. */
  startGhost(name) {
    const cell = this.cells.get(name);
    if (!cell) return null;
    const source = cell.g.querySelector(".karo-piece") || cell.g.querySelector(".karo-tile");
    if (!source) return null;
    this.drag.origin = cell;
    const wrap = svg("g", { class: "karo-ghost", "aria-hidden": "true" }, this.layers.drag);
    const inner = svg("g", { transform: `translate(${cell.dx * S} ${cell.dy * S})` }, wrap);
    inner.append(source.cloneNode(true));
    cell.g.classList.add(source.classList.contains("karo-tile") ? "karo-dragging-tile" : "karo-dragging");
    return wrap;
  }

  /** Frame the place under a dragged piece or tile. */
  hover(name) {
    for (const [other, { g }] of this.cells) g.classList.toggle("is-hover-target", other === name);
  }

  endDrag() {
    const drag = this.drag;
    if (!drag) return;
    this.hover(null);
    drag.cleanup && drag.cleanup();
    if (drag.ghost) drag.ghost.remove();
    const cell = this.cells.get(drag.name);
    if (cell) cell.g.classList.remove("karo-dragging", "karo-dragging-tile");
    this.drag = null;
  }
}

// -- helpers for the game modules -------------------------------------------------------

/** Who is who: [{seat, name, you}] from ctx.players, with the side colour. */
export function playerLegend(T, ctx, seat) {
  const items = [];
  for (const s of [0, 1]) {
    const player = (ctx.players || []).find((p) => p.seat === s);
    let who = player ? player.name : "";
    if (s === seat) who += ` (${T.you})`;
    items.push({ piece: { owner: s, up: false }, text: `${sideName(T, s)}${who ? " · " + who : ""}` });
  }
  return items;
}

/** The name of a seat's player for sentences, falling back on its colour. */
export function playerName(T, ctx, seat) {
  const player = (ctx.players || []).find((p) => p.seat === seat);
  return player && player.name ? player.name : sideName(T, seat);
}

/** The turn sentence shared by the three boards. */
export function turnPrompt(T, view, ctx, seat) {
  if (ctx.outcome || view.outcome) return T.gameOver;
  if (seat === null || seat === undefined || !ctx.interactive) return T.watching;
  if (ctx.legalMoves.length === 1 && ctx.legalMoves[0] === "pass") return T.passPrompt;
  if (ctx.legalMoves.length) return T.yourTurn;
  return T.waiting;
}

/**
 * Announce the other side's move once per version, in words, when the board
 * knows how to say it: ``describe(move, seat, player)`` returns the move in words,
 * or {sentence} for a whole sentence, or null when it has nothing to say.
 */
export function announceOpponent(board, T, view, ctx, seat, describe) {
  if (board.lastAnnounced === ctx.version) return;
  const first = board.lastAnnounced === undefined; // nothing to say on the first drawing
  board.lastAnnounced = ctx.version;
  const last = view.last_move;
  if (first || !last || last.move === null || last.move === undefined || last.seat === seat) return;
  // The table page says every move itself, in its polite live region (table/speech.js).
  if (board.options.speaksMoves) return;
  const player = playerName(T, ctx, last.seat);
  const words = describe(last.move, last.seat, player);
  if (words) board.announce(words.sentence || fmt(T.played, { player, move: words }));
}

// -- choosing a piece, then where it goes ----------------------------------------------

/** The squares the last "from-to" move left and reached, or nulls. */
export function lastMoveSquares(ctx) {
  if (ctx.lastMove && ctx.lastMove.includes("-")) return ctx.lastMove.split("-");
  return [null, null];
}

/**
 * The viewer's legal "from-to" moves as a Map from a piece's square to its
 * destinations; empty unless the viewer is to move a piece ("play" phase).
 */
export function movesBySource(view, ctx) {
  const out = new Map();
  if (!ctx || !ctx.interactive || !view || view.phase !== "play") return out;
  for (const move of ctx.legalMoves) {
    const [from, to] = move.split("-");
    if (!to) continue;
    if (!out.has(from)) out.set(from, []);
    out.get(from).push(to);
  }
  return out;
}

/**
 * Select a piece, then its destination, by click, keyboard or drag: the input of
 * the boards whose moves are written "from-to" (Rampants et Sauteurs,
 * Éclaircissement). It takes over the board's activate, canDrag, drop and cancel
 * and keeps ``selected`` (a square or null), which the game reads when it draws.
 * The game gives:
 * - ``moves()``: its current movesBySource;
 * - ``render()``, and ``send(move)`` to play a move;
 * - ``ownPiece(name)``: whether one of the viewer's pieces stands on that square;
 * - ``intercept(name)`` (optional): true when the game handled a click itself;
 * - ``fixed()`` (optional): while the selection may not change (a chain of
 *   jumps), the sentence that says what to do instead; otherwise null.
 */
export class PieceSelection {
  constructor(board, T, game) {
    this.board = board;
    this.T = T;
    this.game = game;
    this.selected = null;
    board.activate = (name) => this.activate(name);
    board.canDrag = (name) => this.grab(name);
    board.drop = (from, to) => this.drop(from, to);
    board.cancel = () => this.deselect(true);
  }

  fixed() {
    return this.game.fixed ? this.game.fixed() : null;
  }

  /**
   * Before drawing: forgets a selected square that has no move (any more), and
   * returns what the squares show: {moves, selected, destinations, lastFrom, lastTo}.
   */
  marks(moves, ctx) {
    if (this.selected && !moves.has(this.selected)) this.selected = null;
    const [lastFrom, lastTo] = lastMoveSquares(ctx);
    const destinations = new Set(this.selected ? moves.get(this.selected) : []);
    return { moves, selected: this.selected, destinations, lastFrom, lastTo };
  }

  /** The words that end a square's label: selected, destination, where the last move went. */
  words(name, marks) {
    const { T } = this;
    const out = [];
    if (name === marks.selected) out.push(T.selectedMark);
    if (marks.destinations.has(name)) out.push(T.destination);
    if (name === marks.lastFrom) out.push(T.lastFrom);
    if (name === marks.lastTo) out.push(T.lastTo);
    return out;
  }

  /** The marks drawn on a square before its piece (the destination dot goes over the piece). */
  drawMarks(g, name, marks) {
    const { board } = this;
    if (name === marks.lastFrom) board.markLastFrom(g);
    if (name === marks.lastTo) board.markLastTo(g);
    if (marks.moves.has(name) && !marks.selected) board.markMovable(g);
    if (name === marks.selected) board.markSelected(g);
  }

  activate(name) {
    const { board, T, game } = this;
    if (game.intercept && game.intercept(name)) return;
    const moves = game.moves();
    if (!moves.size) return;
    if (this.selected && (moves.get(this.selected) || []).includes(name)) {
      this.play(this.selected, name);
      return;
    }
    const fixed = this.fixed();
    if (fixed) {
      board.announce(fixed);
      return;
    }
    if (moves.has(name)) {
      if (name === this.selected) {
        this.deselect(true);
      } else {
        this.selected = name;
        game.render();
        board.announce(fmt(T.selected, { square: name, count: moves.get(name).length }));
      }
      return;
    }
    if (game.ownPiece(name)) board.announce(fmt(T.noMoveFrom, { square: name }));
    else if (this.selected) {
      // Refused: the selection goes, so nothing on the board still says it is chosen.
      this.deselect(false);
      board.announce(fmt(T.notADestination, { square: name }));
    } else if (moves.size) {
      board.announce(fmt(T.chooseOwn, { square: name }));
    }
  }

  /** A drag may start from a piece that can move; it selects that piece. */
  grab(name) {
    if (!this.game.moves().has(name)) return false;
    if (this.selected !== name) {
      this.selected = name;
      this.game.render();
    }
    return true;
  }

  drop(from, to) {
    const moves = this.game.moves();
    if (moves.has(from) && moves.get(from).includes(to)) this.play(from, to);
    else this.board.announce(fmt(this.T.notADestination, { square: to }));
  }

  play(from, to) {
    if (!this.fixed()) {
      this.selected = null;
      this.game.render();
    }
    this.game.send(`${from}-${to}`);
  }

  deselect(say) {
    if (!this.selected || this.fixed()) return;
    this.selected = null;
    this.game.render();
    if (say) this.board.announce(this.T.deselected);
  }
}
