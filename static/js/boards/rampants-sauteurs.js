// Rampants et Sauteurs: a 3 x 8 board; crawlers (engraved circle down) step to a
// neighbouring square, jumpers (circle up) leap in a line over pieces. The game
// opens with a secret setup: each player picks which three of their six start
// squares hold crawlers. Notation (docs/notation.md): "a2-b3" moves, "JCJ/CJC"
// layouts (back rank then front rank, files a to c).

import {
  KaroBoard, PieceSelection, S, announceOpponent, commonTexts, drawPiece, fmt, movesBySource,
  parseSquare, playerLegend, sideName, squareName, svg, turnPrompt,
} from "./karo-common.js";

const WIDTH = 3;
const HEIGHT = 8;
const DEFAULT_LAYOUT = "JCJ/CJC";

function texts(gettext) {
  return {
    ...commonTexts(gettext),
    game: gettext("Rampants et Sauteurs"),
    crawler: gettext("crawler"),
    jumper: gettext("jumper"),
    whiteCrawler: gettext("white crawler (circle down)"),
    whiteJumper: gettext("white jumper (circle up)"),
    redCrawler: gettext("red crawler (circle down)"),
    redJumper: gettext("red jumper (circle up)"),
    hiddenPiece: gettext("a hidden piece"),
    goalOf: gettext("goal of %(side)s"),
    crawlerLegend: gettext("Crawler: circle down, steps to a neighbouring square"),
    jumperLegend: gettext("Jumper: circle up, jumps in a line over pieces"),
    goalLegend: gettext("Hatched rows: your goal, the other side's start rows"),
    goalLegendWatch: gettext("Hatched rows: goals (each side crosses to the other's start rows)"),
    setupPrompt: typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches
      ? gettext("Secret setup: tap a piece to turn it over. Three crawlers and three jumpers, then confirm.")
      : gettext("Secret setup: click a piece to turn it over. Three crawlers and three jumpers, then confirm."),
    setupCount: gettext("Crawlers: %(crawlers)s of 3 · Jumpers: %(jumpers)s of 3"),
    confirmLayout: gettext("Confirm my setup"),
    setupWaiting: gettext("Your setup is chosen. Waiting for the other player's secret choice."),
    otherChose: gettext("The other player has chosen their setup."),
    otherChoosing: gettext("The other player is still choosing."),
    setupWatch: gettext("The players are choosing their setup in secret."),
    turned: gettext("%(square)s is now a %(face)s."),
    pickPiece: gettext("Your turn: choose a piece, then its destination."),
    pickDestination: gettext("Choose a destination (dot), or another piece."),
    move: gettext("%(from)s to %(to)s"),
  };
}

/** The six start squares of a seat, in layout order: back rank a..c, then front rank a..c. */
function startSquares(seat) {
  const back = seat === 0 ? 0 : 7;
  const front = seat === 0 ? 1 : 6;
  return [0, 1, 2].map((x) => squareName(x, back)).concat([0, 1, 2].map((x) => squareName(x, front)));
}

export function mount(host, options) {
  const T = texts(options.gettext);
  const seat = options.seat;
  const board = new KaroBoard(host, options, {
    game: "rampants-sauteurs",
    label: fmt(T.boardLabel, { game: T.game }),
  });
  const flip = seat === 1;
  let view = null;
  let ctx = null;
  let layout = DEFAULT_LAYOUT.replace("/", "").split(""); // the setup being chosen

  // Two hatch patterns, one per goal, leaning different ways.
  for (const s of [0, 1]) {
    const pattern = svg("pattern", {
      id: `karo-rs-hatch-${s}`, class: "karo-hatch", patternUnits: "userSpaceOnUse",
      width: 16, height: 16, patternTransform: `rotate(${s === 0 ? 45 : -45})`,
    }, board.defs);
    svg("line", { x1: 0, y1: 0, x2: 0, y2: 16 }, pattern);
  }

  const display = (x, y) => (flip ? [WIDTH - 1 - x, y] : [x, HEIGHT - 1 - y]);

  const pick = new PieceSelection(board, T, {
    moves: () => movesBySource(view, ctx),
    render: () => render(),
    send: (move) => options.onMove(move),
    ownPiece: (name) => view.board.pieces.some((p) => p.square === name && p.owner === seat),
    // During the secret setup a click turns a piece of the layout over.
    intercept: (name) => {
      if (!choosingSetup()) return false;
      const k = startSquares(seat).indexOf(name);
      if (k >= 0) {
        layout[k] = layout[k] === "J" ? "C" : "J";
        render();
        board.announce(fmt(T.turned, { square: name, face: layout[k] === "J" ? T.jumper : T.crawler }));
      }
      return true;
    },
  });

  function pieceLabel(piece) {
    if (piece.owner === 0) return piece.face === "jumper" ? T.whiteJumper : T.whiteCrawler;
    return piece.face === "jumper" ? T.redJumper : T.redCrawler;
  }

  function choosingSetup() {
    return Boolean(view && view.phase === "setup" && ctx.interactive && seat !== null && ctx.legalMoves.length);
  }

  function render() {
    if (!view) return;
    const pieces = new Map(view.board.pieces.map((p) => [p.square, p]));
    const setup = choosingSetup();
    if (setup) {
      // The layout being chosen is drawn on this seat's start squares.
      startSquares(seat).forEach((name, k) => {
        const { x, y } = parseSquare(name);
        pieces.set(name, { square: name, x, y, owner: seat, face: layout[k] === "J" ? "jumper" : "crawler" });
      });
    }
    const hidden = new Set();
    if (view.phase === "setup" && view.setup) {
      for (const entry of view.setup) {
        if (entry.seat !== seat && entry.chosen && !entry.layout) startSquares(entry.seat).forEach((n) => hidden.add(n));
      }
    }
    const moves = movesBySource(view, ctx);
    const marks = pick.marks(moves, ctx);
    const { selected, destinations } = marks;

    board.begin(-0.42, -0.08, WIDTH + 0.5, HEIGHT + 0.5);
    board.gridFrame(WIDTH, HEIGHT, display);

    for (let y = 0; y < HEIGHT; y += 1) {
      for (let x = 0; x < WIDTH; x += 1) {
        const name = squareName(x, y);
        const [dx, dy] = display(x, y);
        const piece = pieces.get(name);
        let goalOf = y >= 6 ? 0 : y <= 1 ? 1 : null; // whose goal this row is
        if (seat !== null && goalOf !== seat) goalOf = null; // a player sees their own goal only
        const parts = [name];
        const classes = [];
        const actionable = setup ? startSquares(seat).includes(name) : (moves.has(name) || destinations.has(name));
        if (actionable) classes.push("is-actionable");
        if (piece) parts.push(pieceLabel(piece));
        else if (hidden.has(name)) parts.push(T.hiddenPiece);
        else parts.push(T.empty);
        if (goalOf !== null) parts.push(fmt(T.goalOf, { side: sideName(T, goalOf) }));
        parts.push(...pick.words(name, marks));
        const g = board.cell(name, dx, dy, { classes: classes.join(" "), label: parts.join(", ") });
        if (piece) {
          g.dataset.owner = String(piece.owner);
          g.dataset.face = piece.face;
        }
        board.tile(g);
        if (goalOf !== null) {
          svg("rect", { class: "karo-goal", x: 2, y: 2, width: S - 4, height: S - 4, rx: 6, fill: `url(#karo-rs-hatch-${goalOf})` }, g);
        }
        pick.drawMarks(g, name, marks);
        if (piece) {
          drawPiece(g, S / 2, S / 2, { owner: piece.owner, up: piece.face === "jumper" });
        } else if (hidden.has(name)) {
          svg("circle", { class: "karo-hidden-piece", cx: S / 2, cy: S / 2, r: 30 }, g);
          svg("text", { class: "karo-hidden-mark", x: S / 2, y: S / 2 + 2, "text-anchor": "middle", "dominant-baseline": "central" }, g).textContent = "?";
        }
        if (destinations.has(name)) board.markDestination(g);
      }
    }
    // The lines between the start rows and the middle of the board.
    for (const y of [2, 6]) {
      const [, dyA] = display(0, y);
      const [, dyB] = display(0, y - 1);
      const line = Math.max(dyA, dyB) * S;
      svg("line", { class: "karo-zone-line", x1: 0, y1: line, x2: WIDTH * S, y2: line }, board.layers.over);
    }
    // Jumper lines: from the selected jumper to each landing square.
    if (selected && pieces.get(selected) && pieces.get(selected).face === "jumper") {
      const from = parseSquare(selected);
      for (const to of destinations) {
        const end = parseSquare(to);
        board.arrow(display(from.x, from.y), display(end.x, end.y));
      }
    }
    board.finish(selected || (setup ? startSquares(seat)[0] : moves.keys().next().value));
    renderStrip(setup, selected);
  }

  function renderStrip(setup, selected) {
    const buttons = [];
    let prompt = turnPrompt(T, view, ctx, seat);
    if (setup) {
      const crawlers = layout.filter((c) => c === "C").length;
      const chosen = layout.slice(0, 3).join("") + "/" + layout.slice(3).join("");
      const other = (view.setup || []).find((entry) => entry.seat !== seat);
      prompt = [T.setupPrompt, fmt(T.setupCount, { crawlers, jumpers: 6 - crawlers })];
      if (other) prompt.push(other.chosen ? T.otherChose : T.otherChoosing);
      buttons.push({
        name: "confirm-layout",
        label: T.confirmLayout,
        primary: true,
        disabled: !ctx.legalMoves.includes(chosen),
        onClick: () => {
          if (ctx.legalMoves.includes(chosen)) options.onMove(chosen);
        },
      });
    } else if (view.phase === "setup") {
      prompt = seat === null || !ctx.interactive ? T.setupWatch : T.setupWaiting;
    } else if (ctx.interactive && ctx.legalMoves.length === 1 && ctx.legalMoves[0] === "pass") {
      buttons.push({ name: "pass", label: T.pass, primary: true, onClick: () => options.onMove("pass") });
    } else if (ctx.interactive && ctx.legalMoves.length && !(view.outcome || ctx.outcome)) {
      prompt = selected ? T.pickDestination : T.pickPiece;
      if (selected) buttons.push({ name: "cancel", label: T.cancel, onClick: () => pick.deselect(true) });
    }
    board.setPrompt(prompt);
    board.setActions(buttons);
    const goal = seat === null ? T.goalLegendWatch : T.goalLegend;
    board.setLegend([
      ...playerLegend(T, ctx, seat),
      { piece: { owner: seat === 1 ? 1 : 0, up: false }, text: T.crawlerLegend },
      { piece: { owner: seat === 1 ? 1 : 0, up: true }, text: T.jumperLegend },
      {
        mark: (icon) => {
          svg("rect", { class: "karo-tile", x: 5, y: 5, width: 90, height: 90, rx: 8 }, icon);
          svg("rect", { x: 5, y: 5, width: 90, height: 90, rx: 8, fill: `url(#karo-rs-hatch-${seat === 1 ? 1 : 0})` }, icon);
        },
        text: goal,
      },
    ]);
  }

  return {
    update(newView, newCtx) {
      const versionChanged = board.stamp(newCtx);
      view = newView;
      ctx = newCtx;
      if (versionChanged) pick.selected = null;
      if (view.phase !== "setup") layout = DEFAULT_LAYOUT.replace("/", "").split("");
      render();
      announceOpponent(board, T, view, ctx, seat, (move) => {
        if (!move.includes("-")) return null;
        const [from, to] = move.split("-");
        return fmt(T.move, { from, to });
      });
    },
    destroy() {
      board.destroy();
    },
  };
}
