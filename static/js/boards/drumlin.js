// The Drumlin board (contract: static/js/table/boards.js).
//
// An SVG of the 8 x 10 grid and the two base lines, drawn from the seat's view only:
// view.board.squares lists the occupied squares with their stack, value and flags.
// Violet (seat 0) plays up the board from rank 1; pink's players see it turned round.
// Pieces are told apart by shape (elephant: round, dragon: diamond, egg: oval with the
// Drumlin's star, the lone Drumlin: a gold star) and herds by shade (violet solid and
// dark, pink light with a dark outline); every square also has its contents in words.
//
// Moves (docs/notation.md): Ea3-a5, Dc3-c7, EEc3=De5, Oc3-e5, Oc10-base, stop, *e5, xc5.
// A click (or Enter) on a piece shows where it may go, derived from ctx.legalMoves; a
// click or a drag on a destination plays. Placements, removals and the chained
// departure are one click (or a button under the board).

const NS = "http://www.w3.org/2000/svg";
// A phone or a tablet: say "tap", not "click", "press Enter" or "Escape".
const TOUCH = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
const FILES = "abcdefgh";
const RANKS = 10;
const S = 60; // square size in SVG units
const M = 22; // room for the rank numbers
const BAND = 30; // a base line
const LABELS = 22; // room for the file letters
const WIDTH = M + 8 * S + 8;
const HEIGHT = BAND + RANKS * S + BAND + LABELS;
const SQ = "([a-h](?:10|[1-9]))";
const PATTERNS = {
  piece: new RegExp(`^([ED])${SQ}-${SQ}$`),
  swap: new RegExp(`^EE${SQ}=D${SQ}$`),
  depart: new RegExp(`^O${SQ}-(${SQ.slice(1, -1)}|base)$`),
  place: new RegExp(`^\\*${SQ}$`),
  remove: new RegExp(`^x${SQ}$`),
};
const VALUE = { elephant: 1, egg: 1, dragon: 2 };
// Where the pieces of a stack stand inside a square, and how big they are.
const LAYOUTS = {
  1: { scale: 1, at: [[30, 31]] },
  2: { scale: 0.6, at: [[17, 33], [43, 33]] },
  3: { scale: 0.52, at: [[16, 24], [40, 27], [28, 46]] },
  4: { scale: 0.48, at: [[16, 22], [39, 25], [16, 45], [40, 46]] },
};

/** One legal move, taken apart. */
export function parseMove(move) {
  if (move === "stop") return { kind: "stop" };
  let m = PATTERNS.piece.exec(move);
  if (m) return { kind: m[1] === "E" ? "elephant" : "dragon", from: m[2], to: m[3] };
  m = PATTERNS.swap.exec(move);
  if (m) return { kind: "swap", from: m[1], to: m[2] };
  m = PATTERNS.depart.exec(move);
  if (m) return { kind: "depart", from: m[1], to: m[2] };
  m = PATTERNS.place.exec(move);
  if (m) return { kind: "place", to: m[1] };
  m = PATTERNS.remove.exec(move);
  if (m) return { kind: "remove", to: m[1] };
  return null;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

function html(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function fileIndex(square) {
  return FILES.indexOf(square[0]);
}

function rankOf(square) {
  return Number(square.slice(1));
}

function fill(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name] ?? ""));
}

export function mount(host, options) {
  return new DrumlinBoard(host, options);
}

class DrumlinBoard {
  constructor(host, { seat, gettext, onMove, announce }) {
    this.host = host;
    this.seat = seat;
    this.gettext = gettext;
    this.onMove = onMove;
    this.announce = announce;
    this.flipped = seat === 1;
    this.view = null;
    this.ctx = null;
    this.selected = null;
    this.focused = this.flipped ? "e10" : "e1";
    this.focusedBand = null; // a base line holds the board's Tab stop while the arrows are on it
    this.drag = null;
    this.plan = { origins: new Map(), direct: new Map(), chain: null };
    this.build();
  }

  // -- the fixed parts: grid, bands, labels, legend -------------------------------------------

  build() {
    const gettext = this.gettext;
    this.host.classList.add("drumlin");
    this.guide = html("p", { class: "board-guide", "data-guide": "" });
    this.svg = svg("svg", {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "board-svg drumlin-board", role: "group",
      "aria-label": gettext("Drumlin board"), "aria-describedby": "drumlin-legend",
    });
    this.squares = new Map();
    const grid = svg("g", { class: "grid" });
    for (let rank = RANKS; rank >= 1; rank -= 1) {
      for (let file = 0; file < 8; file += 1) {
        const name = FILES[file] + rank;
        const [x, y] = this.origin(name);
        const dark = (file + rank) % 2 === 0;
        const firstRow = rank === 1 ? "violet-row" : rank === RANKS ? "pink-row" : "";
        const node = svg("g", {
          class: `sq ${dark ? "dark" : "light"} ${firstRow}`, transform: `translate(${x} ${y})`,
          "data-square": name, tabindex: -1, role: "button",
        },
        svg("rect", { class: "sq-bg", width: S, height: S }),
        svg("g", { class: "sq-marks-under" }),
        svg("g", { class: "sq-pieces" }),
        svg("g", { class: "sq-marks" }),
        svg("rect", { class: "focus-ring", x: 2, y: 2, width: S - 4, height: S - 4, rx: 4 }));
        grid.append(node);
        this.squares.set(name, node);
      }
    }
    this.bands = new Map();
    for (const owner of [0, 1]) {
      const top = (owner === 1) !== this.flipped;
      const y = top ? 0 : BAND + RANKS * S;
      const label = owner === 0 ? gettext("violet's base line") : gettext("pink's base line");
      const band = svg("g", {
        class: `base-band ${owner === 0 ? "violet" : "pink"}`, transform: `translate(${M} ${y})`,
        "data-base": owner, "data-top": top ? 1 : 0, role: "button", "aria-label": label,
      },
      svg("rect", { class: "band-bg", width: 8 * S, height: BAND - 4, y: top ? 0 : 4, rx: 6 }),
      svg("text", { class: "band-label", x: 8 * S / 2, y: top ? BAND / 2 + 3 : BAND / 2 + 7, "text-anchor": "middle" }, document.createTextNode(label)),
      svg("g", { class: "band-marks" }),
      svg("rect", { class: "focus-ring", x: 2, y: top ? 2 : 6, width: 8 * S - 4, height: BAND - 8, rx: 5 }));
      this.bands.set(owner, band);
      this.svg.append(band);
    }
    const labels = svg("g", { class: "coords", "aria-hidden": "true" });
    for (let file = 0; file < 8; file += 1) {
      const name = FILES[file] + 1;
      const [x] = this.origin(name);
      labels.append(svg("text", { x: x + S / 2, y: HEIGHT - 6, "text-anchor": "middle" }, document.createTextNode(FILES[file])));
    }
    for (let rank = 1; rank <= RANKS; rank += 1) {
      const [, y] = this.origin(`a${rank}`);
      labels.append(svg("text", { x: M / 2, y: y + S / 2 + 5, "text-anchor": "middle" }, document.createTextNode(String(rank))));
    }
    this.overlay = svg("g", { class: "drag-layer", "pointer-events": "none" });
    this.svg.append(grid, labels, this.overlay);
    this.choices = html("div", { class: "board-choices", "data-choices": "", hidden: true });
    this.legend = this.buildLegend();
    this.host.append(this.guide, this.svg, this.choices, this.legend);
    this.listen();
  }

  buildLegend() {
    const gettext = this.gettext;
    const icon = (piece) => {
      const box = svg("svg", { viewBox: "0 0 60 60", width: 22, height: 22, "aria-hidden": "true", class: "legend-icon" });
      box.append(this.piece(piece, 30, 30, 0.9));
      return box;
    };
    this.legendPlayers = [html("span", { "data-legend-player": 0 }), html("span", { "data-legend-player": 1 })];
    return html("div", { class: "board-legend", id: "drumlin-legend" },
      html("p", {},
        html("span", { class: "legend-item" }, icon({ seat: 0, kind: "elephant" }), icon({ seat: 1, kind: "elephant" }), " ", gettext("elephant (1)")),
        html("span", { class: "legend-item" }, icon({ seat: 0, kind: "dragon" }), icon({ seat: 1, kind: "dragon" }), " ", gettext("dragon (2)")),
        html("span", { class: "legend-item" }, icon({ seat: 0, kind: "egg" }), icon({ seat: 1, kind: "egg" }), " ", gettext("egg (1)")),
        html("span", { class: "legend-item" }, icon({ lone: true }), " ", gettext("the lone Drumlin (0)"))),
      html("p", {},
        html("span", { class: "legend-item" }, gettext("Dark, solid pieces: violet"), " — ", this.legendPlayers[0]),
        html("span", { class: "legend-item" }, gettext("light, outlined pieces: pink"), " — ", this.legendPlayers[1])),
      html("p", { class: "meta" }, gettext("The small number on a square is its value; a square worth 5 carries a warning triangle and must be left.")));
  }

  /** Top-left corner of a square in SVG units, for this seat's side of the table. */
  origin(name) {
    const file = fileIndex(name);
    const rank = rankOf(name);
    const col = this.flipped ? 7 - file : file;
    const row = this.flipped ? rank - 1 : RANKS - rank;
    return [M + col * S, BAND + row * S];
  }

  // -- drawing pieces -----------------------------------------------------------------------------

  piece(piece, cx, cy, scale) {
    if (piece.lone) {
      return svg("path", { class: "drumlin-stone", d: star(cx, cy, 17 * scale, 8 * scale, 6) });
    }
    const herd = piece.seat === 0 ? "violet" : "pink";
    if (piece.kind === "dragon") {
      const r = 21 * scale;
      return svg("g", { class: `piece dragon ${herd}` },
        svg("path", { class: "body", d: `M${cx} ${cy - r} L${cx + r} ${cy} L${cx} ${cy + r} L${cx - r} ${cy} Z` }),
        svg("path", { class: "mark", d: `M${cx - r * 0.45} ${cy} L${cx + r * 0.45} ${cy}` }));
    }
    if (piece.kind === "egg") {
      return svg("g", { class: `piece egg ${herd}` },
        svg("ellipse", { class: "body", cx, cy, rx: 14 * scale, ry: 19 * scale }),
        svg("path", { class: "drumlin-stone small", d: star(cx, cy, 9 * scale, 4 * scale, 6) }));
    }
    return svg("g", { class: `piece elephant ${herd}` },
      svg("circle", { class: "body", cx, cy, r: 17 * scale }),
      svg("circle", { class: "mark", cx, cy, r: 6 * scale }));
  }

  drawSquare(name, info) {
    const node = this.squares.get(name);
    const pieces = node.querySelector(".sq-pieces");
    pieces.replaceChildren();
    node.classList.toggle("five", Boolean(info && info.five));
    if (!info) return;
    if (info.lone_drumlin) {
      pieces.append(this.piece({ lone: true }, S / 2, S / 2, 1));
      return;
    }
    const stack = info.stack;
    const layout = LAYOUTS[Math.min(stack.length, 4)];
    stack.slice(0, 4).forEach((piece, i) => {
      const [cx, cy] = layout.at[i];
      pieces.append(this.piece(piece, cx, cy, layout.scale));
    });
    if (stack.length > 4) {
      pieces.append(svg("text", { class: "more", x: S - 4, y: S - 4, "text-anchor": "end" }, document.createTextNode(`+${stack.length - 4}`)));
    }
    if (info.five) {
      pieces.append(svg("path", { class: "five-mark", d: "M4 17 L13 2 L22 17 Z" }),
        svg("text", { class: "five-text", x: 13, y: 15, "text-anchor": "middle" }, document.createTextNode("5")));
    } else {
      pieces.append(svg("circle", { class: "value-badge", cx: S - 9, cy: 9, r: 7.5 }),
        svg("text", { class: "value-text", x: S - 9, y: 12.5, "text-anchor": "middle" }, document.createTextNode(String(info.value))));
    }
  }

  // -- words ---------------------------------------------------------------------------------------

  pieceWords(stack) {
    const gettext = this.gettext;
    const names = {
      "0elephant": gettext("violet elephant"), "1elephant": gettext("pink elephant"),
      "0dragon": gettext("violet dragon"), "1dragon": gettext("pink dragon"),
      "0egg": gettext("violet egg"), "1egg": gettext("pink egg"),
    };
    return stack.map((piece) => names[`${piece.seat}${piece.kind}`]).join(", ");
  }

  squareWords(name) {
    const gettext = this.gettext;
    const info = this.view.board.squares[name];
    let text;
    if (!info) text = fill(gettext("%(square)s, empty"), { square: name });
    else if (info.lone_drumlin) text = fill(gettext("%(square)s, the lone Drumlin"), { square: name });
    else {
      text = fill(gettext("%(square)s, worth %(value)s: %(pieces)s"), { square: name, value: info.value, pieces: this.pieceWords(info.stack) });
      if (info.five) text += `. ${gettext("Warning: worth 5, must be left")}`;
    }
    const marks = [];
    if (this.selected === name) marks.push(gettext("selected"));
    if (this.targetsOf(name).length) marks.push(gettext("possible destination"));
    if (this.lastSquares.has(name)) marks.push(gettext("last move"));
    return marks.length ? `${text} (${marks.join(", ")})` : text;
  }

  moveWords(move) {
    const gettext = this.gettext;
    const p = parseMove(move);
    if (!p) return move;
    const values = { from: p.from, to: p.to };
    switch (p.kind) {
      case "elephant": return fill(gettext("Move the elephant from %(from)s to %(to)s"), values);
      case "dragon": return fill(gettext("Move the dragon from %(from)s to %(to)s"), values);
      case "swap": return fill(gettext("Exchange the two elephants on %(from)s with the dragon on %(to)s"), values);
      case "depart":
        return p.to === "base"
          ? fill(gettext("Send the Drumlin from %(from)s onto the base line"), values)
          : fill(gettext("Send the Drumlin from %(from)s to %(to)s (free departure)"), values);
      case "place": return fill(gettext("Place the Drumlin on %(to)s"), values);
      case "remove": return fill(gettext("Remove your pieces from %(to)s"), values);
      case "stop": return gettext("Stop here: the new egg stays");
      default: return move;
    }
  }

  // -- what the legal moves allow -------------------------------------------------------------------

  makePlan(legal) {
    const origins = new Map();
    const direct = new Map();
    let chain = null;
    const add = (map, key, entry) => {
      if (!map.has(key)) map.set(key, []);
      map.get(key).push(entry);
    };
    for (const move of legal) {
      const p = parseMove(move);
      if (!p) continue;
      if (p.kind === "place" || p.kind === "remove") add(direct, p.to, move);
      else if (p.kind === "stop") chain = chain || [];
      else if (p.kind === "swap") {
        add(origins, p.from, { to: p.to, move });
        add(origins, p.to, { to: p.from, move });
      } else add(origins, p.from, { to: p.to, move });
    }
    if (legal.includes("stop")) {
      chain = legal;
      for (const move of legal) {
        const p = parseMove(move);
        if (p && p.kind === "depart") add(direct, "base", move);
      }
    }
    return { origins, direct, chain };
  }

  targetsOf(name) {
    if (this.plan.direct.has(name)) return this.plan.direct.get(name);
    if (this.selected && this.plan.origins.has(this.selected)) {
      return this.plan.origins.get(this.selected).filter((o) => o.to === name).map((o) => o.move);
    }
    return [];
  }

  // -- update ------------------------------------------------------------------------------------

  update(view, ctx) {
    this.view = view;
    this.ctx = ctx;
    const legal = ctx.interactive ? ctx.legalMoves : [];
    const changed = !this.legalKey || this.legalKey !== legal.join(" ");
    this.legalKey = legal.join(" ");
    this.plan = this.makePlan(legal);
    if (changed) {
      this.selected = null;
      this.hideChoices();
      // One piece to move (the obligation at 5, often): select it at once.
      if (this.plan.origins.size === 1 && this.plan.direct.size === 0) this.selected = [...this.plan.origins.keys()][0];
    }
    this.render();
  }

  render() {
    const view = this.view;
    const squares = view.board.squares;
    this.lastSquares = new Set();
    let lastBase = null;
    const last = this.ctx.lastMove ? parseMove(this.ctx.lastMove) : null;
    if (last) {
      for (const sq of [last.from, last.to]) if (sq && sq !== "base") this.lastSquares.add(sq);
      if (last.to === "base") lastBase = view.outcome && view.outcome.winners.length ? 1 - view.outcome.winners[0] : null;
    }
    for (const [name, node] of this.squares) {
      this.drawSquare(name, squares[name]);
      const targets = this.targetsOf(name);
      const under = node.querySelector(".sq-marks-under");
      const marks = node.querySelector(".sq-marks");
      under.replaceChildren();
      marks.replaceChildren();
      node.classList.toggle("last", this.lastSquares.has(name));
      node.classList.toggle("selected", this.selected === name);
      node.classList.toggle("target", targets.length > 0);
      node.classList.toggle("movable", this.plan.origins.has(name));
      if (this.lastSquares.has(name)) {
        under.append(svg("rect", { class: "last-fill", width: S, height: S }),
          svg("path", { class: "last-corner", d: `M0 0 L14 0 L0 14 Z` }));
      }
      if (!this.selected && this.plan.origins.has(name)) {
        // Before any selection, the pieces that can act wear a dotted ring.
        marks.append(svg("rect", { class: "movable-ring", x: 4, y: 4, width: S - 8, height: S - 8, rx: 6 }));
      }
      if (this.selected === name) {
        marks.append(svg("rect", { class: "selected-ring", x: 2.5, y: 2.5, width: S - 5, height: S - 5, rx: 3 }));
      }
      if (targets.length) marks.append(this.targetMark(name, targets));
      node.setAttribute("aria-label", this.squareWords(name));
    }
    for (const [owner, band] of this.bands) {
      const marks = band.querySelector(".band-marks");
      marks.replaceChildren();
      const isTarget = this.baseTarget() === owner && this.targetsOf("base").length > 0;
      band.classList.toggle("target", isTarget);
      const won = view.step === "won" && lastBase === owner;
      const cy = band.dataset.top === "1" ? (BAND - 4) / 2 : 4 + (BAND - 4) / 2;
      if (isTarget) {
        for (const x of [40, 8 * S - 40]) marks.append(svg("path", { class: "target-star", d: star(x, cy, 11, 5, 6) }));
      }
      if (won) marks.append(svg("path", { class: "drumlin-stone", d: star(8 * S / 2 + 120, cy, 11, 5, 6) }));
    }
    this.renderFocus();
    this.renderGuide();
    this.renderLegend();
  }

  /** The base line a departure from the selected egg (or the chained egg) would reach. */
  baseTarget() {
    return this.seat === null ? null : 1 - this.seat;
  }

  targetMark(name, moves) {
    const kinds = new Set(moves.map((m) => parseMove(m).kind));
    const occupied = Boolean(this.view.board.squares[name]);
    if (kinds.has("place")) return svg("path", { class: "target-star", d: star(S / 2, S / 2, 13, 6, 6) });
    if (kinds.has("remove")) {
      return svg("g", { class: "target-remove" },
        svg("path", { d: `M10 10 L${S - 10} ${S - 10} M${S - 10} 10 L10 ${S - 10}` }));
    }
    const group = svg("g", { class: `target-mark${occupied ? " occupied" : ""}` });
    if (occupied) {
      group.append(svg("rect", { class: "target-ring", x: 4, y: 4, width: S - 8, height: S - 8, rx: 8 }));
    } else {
      group.append(svg("circle", { class: "target-dot", cx: S / 2, cy: S / 2, r: 8 }));
    }
    if (kinds.has("swap")) group.append(svg("text", { class: "target-glyph", x: 5, y: S - 6 }, document.createTextNode("⇄")));
    if (kinds.has("depart")) group.append(svg("path", { class: "target-star small", d: star(11, S - 11, 7, 3, 6) }));
    return group;
  }

  /** One Tab stop on the board (roving tabindex): the focused square, or a base line
   * reached with the arrows while it is a destination. */
  renderFocus() {
    const band = this.focusedBand === null || this.focusedBand === undefined ? null : this.bands.get(this.focusedBand);
    if (band && !band.classList.contains("target")) this.focusedBand = null;
    const onBand = this.focusedBand !== null && this.focusedBand !== undefined;
    for (const [name, node] of this.squares) node.setAttribute("tabindex", !onBand && name === this.focused ? 0 : -1);
    for (const [owner, node] of this.bands) node.setAttribute("tabindex", onBand && owner === this.focusedBand ? 0 : -1);
  }

  renderGuide() {
    const gettext = this.gettext;
    const view = this.view;
    const ctx = this.ctx;
    let text = "";
    if (ctx.interactive && ctx.legalMoves.length) {
      const moves = ctx.legalMoves.map(parseMove).filter(Boolean);
      const kinds = new Set(moves.map((m) => m.kind));
      if (view.step === "place") text = gettext("Place the Drumlin on any empty square (marked with a star).");
      else if (view.step === "chain") text = gettext("Your new egg stands on the opponent's first row: send the Drumlin on to the base line to win, or stop here.");
      else if (kinds.size === 1 && kinds.has("remove")) {
        text = fill(gettext("None of your pieces can leave %(squares)s: your pieces there are removed from the game."),
          { squares: [...this.plan.direct.keys()].join(", ") });
      } else if (this.obligation().length) {
        text = fill(gettext("Obligation at 5: your move must take one of your pieces off %(squares)s."), { squares: this.obligation().join(", ") });
      } else if (this.selected) {
        const count = new Set(this.plan.origins.get(this.selected).map((o) => o.to)).size;
        text = fill(TOUCH ? gettext("%(square)s selected: %(count)s possible destinations. Tap one, or another piece.")
          : gettext("%(square)s selected: %(count)s possible destinations. Choose one, or another piece (Escape cancels)."),
          { square: this.selected, count });
      } else if (TOUCH) text = gettext("Your turn: tap a piece that can move (circled), then its destination.");
      else text = gettext("Your turn: choose a piece that can move (circled; click it, or press Enter on it), then its destination. You may also drag it.");
    } else if (ctx.interactive && ctx.toAct.length && !ctx.toAct.includes(this.seat)) {
      text = gettext("Your opponent is thinking.");
    }
    this.guide.textContent = text;
    this.guide.hidden = !text;
    if (this.plan.chain && ctx.interactive) this.showChoices(gettext("Go on or stop?"), this.plan.chain);
    else if (this.plan.direct.size && [...this.plan.direct.values()].flat().every((m) => m.startsWith("x"))) {
      this.showChoices("", [...this.plan.direct.values()].flat());
    } else if (!this.choicesForTarget) this.hideChoices();
  }

  renderLegend() {
    for (const seat of [0, 1]) {
      const player = (this.ctx.players || []).find((p) => p.seat === seat);
      this.legendPlayers[seat].textContent = player ? player.name : "";
    }
  }

  /** Squares worth 5 holding this seat's pieces, while it is to move. */
  obligation() {
    if (this.seat === null || this.view.step !== "move") return [];
    return (this.view.board.fives || []).filter((name) => {
      const info = this.view.board.squares[name];
      return info && info.points[this.seat] > 0;
    });
  }

  // -- choosing among several moves (buttons under the board) ---------------------------------------

  showChoices(prompt, moves, forTarget = null) {
    this.choicesForTarget = forTarget;
    const buttons = moves.map((move) => html("button", { type: "button", class: "small", "data-move": move }, this.moveWords(move)));
    this.choices.replaceChildren(...(prompt ? [html("p", {}, prompt)] : []), ...buttons);
    this.choices.hidden = false;
    for (const button of buttons) {
      button.addEventListener("click", () => this.play(button.dataset.move));
    }
  }

  hideChoices() {
    this.choicesForTarget = null;
    this.choices.hidden = true;
    this.choices.replaceChildren();
  }

  play(move) {
    this.hideChoices();
    this.selected = null;
    this.onMove(move);
  }

  // -- acting on a square ------------------------------------------------------------------------------

  activate(name) {
    const ctx = this.ctx;
    if (!ctx || !ctx.interactive || !this.view) return;
    const gettext = this.gettext;
    if (!ctx.legalMoves.length) {
      this.announce(gettext("It is not your turn."));
      return;
    }
    const targets = this.targetsOf(name);
    if (targets.length === 1) {
      this.play(targets[0]);
      return;
    }
    if (targets.length > 1) {
      this.showChoices(fill(gettext("Several moves reach %(square)s:"), { square: name === "base" ? gettext("the base line") : name }), targets, name);
      this.announce(gettext("Several moves reach this square: choose one of the buttons under the board."));
      return;
    }
    if (name === this.selected && this.plan.origins.size > 1) {
      this.selected = null;
      this.hideChoices();
      this.render();
      this.announce(gettext("Selection cancelled."));
      return;
    }
    if (this.plan.origins.has(name)) {
      this.selected = name;
      this.hideChoices();
      this.render();
      const count = new Set(this.plan.origins.get(name).map((o) => o.to)).size;
      this.announce(fill(gettext("%(square)s selected: %(count)s possible destinations."), { square: name, count }));
      return;
    }
    // A refused destination drops the selection: the guide line must not go on saying
    // a piece is chosen while the line above the board says why that did not work.
    const why = this.whyNot(name);
    // (A piece chosen for the player, the only one that may move, stays chosen.)
    if (this.selected && this.plan.origins.size > 1) {
      this.selected = null;
      this.hideChoices();
      this.render();
    }
    this.announce(why);
  }

  /** Why clicking `name` does nothing, in words. */
  whyNot(name) {
    const gettext = this.gettext;
    const view = this.view;
    const squares = view.board.squares;
    if (view.step === "place") {
      return fill(gettext("The Drumlin goes to an empty square, and %(square)s is taken."), { square: name });
    }
    if (view.step === "chain") return gettext("Choose first: go on to the base line, or stop.");
    const duty = this.obligation();
    const info = squares[name];
    const mine = info && !info.lone_drumlin && info.points[this.seat] > 0;
    if (mine) {
      // One's own piece that cannot move (clicked as a piece, not as a destination).
      if (duty.length && !duty.includes(name)) {
        return fill(gettext("Obligation at 5: move one of your pieces off %(squares)s first."), { squares: duty.join(", ") });
      }
      if (!this.selected) return fill(gettext("Your pieces on %(square)s cannot move now."), { square: name });
    }
    if (!this.selected) {
      if (name === "base") return gettext("Only an egg on the opponent's first row with the majority there can go onto the base line.");
      return fill(gettext("You have no piece on %(square)s."), { square: name });
    }
    if (name === "base") return gettext("This piece cannot reach the base line.");
    const from = this.selected;
    const stack = squares[from] ? squares[from].stack : [];
    const myPieces = stack.filter((p) => p.seat === this.seat);
    const sameLine = from[0] === name[0] || rankOf(from) === rankOf(name);
    if (!sameLine && !myPieces.some((p) => p.kind === "egg")) {
      return gettext("Elephants and dragons move in a straight line, along a row or a column.");
    }
    if (info && info.lone_drumlin && !myPieces.some((p) => p.kind === "elephant" || p.kind === "egg")) {
      return gettext("A dragon cannot end its move on the lone Drumlin.");
    }
    const lightest = Math.min(...myPieces.filter((p) => p.kind !== "egg").map((p) => VALUE[p.kind]), 2);
    if (info && !info.lone_drumlin && info.value + lightest > 4) {
      return fill(gettext("Rule of 4: %(square)s would be worth more than 4."), { square: name });
    }
    if (sameLine && this.blocked(from, name)) {
      return gettext("The way is blocked: an elephant stops at the first square with pieces, and a dragon cannot fly over a square with two pieces or a dragon.");
    }
    return fill(gettext("No piece on %(from)s can go to %(to)s."), { from, to: name });
  }

  blocked(from, to) {
    const squares = this.view.board.squares;
    const df = Math.sign(fileIndex(to) - fileIndex(from));
    const dr = Math.sign(rankOf(to) - rankOf(from));
    let file = fileIndex(from) + df;
    let rank = rankOf(from) + dr;
    while (FILES[file] + rank !== to) {
      const info = squares[FILES[file] + rank];
      if (info && !info.lone_drumlin) return true;
      file += df;
      rank += dr;
    }
    return false;
  }

  // -- input: pointer, drag, keyboard ---------------------------------------------------------------------

  listen() {
    this.onPointerDown = (event) => this.pointerDown(event);
    this.onPointerMove = (event) => this.pointerMove(event);
    this.onPointerUp = (event) => this.pointerUp(event);
    this.onKeyDown = (event) => this.keyDown(event);
    this.onFocusIn = (event) => {
      const node = event.target.closest("[data-square]");
      const band = event.target.closest("[data-base]");
      if (node) this.focused = node.dataset.square;
      this.focusedBand = band ? Number(band.dataset.base) : null;
      if (node || band) this.renderFocus();
    };
    this.svg.addEventListener("pointerdown", this.onPointerDown);
    this.svg.addEventListener("pointermove", this.onPointerMove);
    this.svg.addEventListener("pointerup", this.onPointerUp);
    this.svg.addEventListener("pointercancel", this.onPointerUp);
    this.svg.addEventListener("keydown", this.onKeyDown);
    // On the host, not the svg: Chromium makes an SVG element with a focus listener a Tab
    // stop of its own, where the arrows do nothing.
    this.host.addEventListener("focusin", this.onFocusIn);
  }

  targetAt(node) {
    if (!node) return null;
    const square = node.closest("[data-square]");
    if (square) return square.dataset.square;
    const band = node.closest("[data-base]");
    if (band) return "base";
    return null;
  }

  pointerDown(event) {
    if (event.button !== 0) return;
    const name = this.targetAt(event.target);
    if (!name || !this.ctx || !this.ctx.interactive) return;
    event.preventDefault();
    if (name !== "base") this.focused = name;
    const startsDrag = this.plan.origins.has(name) && !this.targetsOf(name).length;
    if (!startsDrag) {
      this.activate(name);
      return;
    }
    const wasSelected = name === this.selected;
    if (!wasSelected) this.activate(name);
    this.drag = { from: name, id: event.pointerId, x: event.clientX, y: event.clientY, moved: false, ghost: null, wasSelected };
    this.svg.setPointerCapture(event.pointerId);
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag || drag.id !== event.pointerId) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      const pieces = this.squares.get(drag.from).querySelector(".sq-pieces").cloneNode(true);
      drag.ghost = svg("g", { class: "ghost" }, pieces);
      this.overlay.append(drag.ghost);
    }
    const point = this.svgPoint(event);
    drag.ghost.setAttribute("transform", `translate(${point.x - S / 2} ${point.y - S / 2})`);
  }

  pointerUp(event) {
    const drag = this.drag;
    if (!drag || drag.id !== event.pointerId) return;
    this.drag = null;
    if (drag.ghost) drag.ghost.remove();
    if (this.svg.hasPointerCapture(event.pointerId)) this.svg.releasePointerCapture(event.pointerId);
    if (event.type === "pointercancel") return;
    if (!drag.moved) {
      // A plain click on the selected piece: let go of it.
      if (drag.wasSelected) this.activate(drag.from);
      return;
    }
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const name = this.targetAt(under);
    if (name && name !== drag.from) this.activate(name);
  }

  svgPoint(event) {
    const point = this.svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  keyDown(event) {
    const target = this.targetAt(event.target);
    if (!target) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.activate(target);
      return;
    }
    if (event.key === "Escape") {
      if (this.selected) {
        this.selected = null;
        this.hideChoices();
        this.render();
        this.announce(this.gettext("Selection cancelled."));
      }
      return;
    }
    const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowRight: [1, 0], ArrowLeft: [-1, 0] };
    const step = steps[event.key];
    if (!step) return;
    event.preventDefault();
    if (target === "base") {
      // Off the base line, back to the square it was reached from.
      if (step[1] !== 0) this.focusSquare(this.focused);
      return;
    }
    const sign = this.flipped ? -1 : 1;
    const beyond = rankOf(target) + step[1] * sign;
    if (beyond < 1 || beyond > RANKS) {
      // Past the edge row: the base line on that side of the screen, while it is a destination.
      const up = step[1] > 0;
      const band = [...this.bands.values()].find((node) => (node.dataset.top === "1") === up);
      if (band && band.classList.contains("target")) {
        this.focusedBand = Number(band.dataset.base);
        this.renderFocus();
        band.focus();
      }
      return;
    }
    const file = Math.min(7, Math.max(0, fileIndex(target) + step[0] * sign));
    this.focusSquare(FILES[file] + beyond);
  }

  focusSquare(name) {
    this.focused = name;
    this.focusedBand = null;
    this.renderFocus();
    this.squares.get(name).focus();
  }

  destroy() {
    this.svg.removeEventListener("pointerdown", this.onPointerDown);
    this.svg.removeEventListener("pointermove", this.onPointerMove);
    this.svg.removeEventListener("pointerup", this.onPointerUp);
    this.svg.removeEventListener("pointercancel", this.onPointerUp);
    this.svg.removeEventListener("keydown", this.onKeyDown);
    this.host.removeEventListener("focusin", this.onFocusIn);
    this.host.replaceChildren();
  }
}

/** A star with `points` points around (cx, cy). */
function star(cx, cy, outer, inner, points) {
  const parts = [];
  for (let i = 0; i < points * 2; i += 1) {
    const r = i % 2 === 0 ? outer : inner;
    const angle = (Math.PI * i) / points - Math.PI / 2;
    parts.push(`${i ? "L" : "M"}${(cx + r * Math.cos(angle)).toFixed(2)} ${(cy + r * Math.sin(angle)).toFixed(2)}`);
  }
  return `${parts.join(" ")} Z`;
}
