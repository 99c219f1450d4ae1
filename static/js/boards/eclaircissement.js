// Éclaircissement: a 5 x 5 board whose tile-less centre is the source of light.
// A piece steps to any neighbouring empty square or jumps orthogonally over a
// piece; jumps chain, one call each ("a1-a3", then "a3-c3" or "stop"). A piece
// that lands on the centre or jumps over a lit piece is lit (circle up). The
// first player with all eight pieces lit and on the edge wins.

import {
  KaroBoard, PieceSelection, S, announceOpponent, commonTexts, drawPiece, fmt, movesBySource,
  parseSquare, playerLegend, squareName, svg, turnPrompt,
} from "./karo-common.js";

const SIZE = 5;
const STOP = "stop";

function texts(gettext) {
  return {
    ...commonTexts(gettext),
    game: gettext("Éclaircissement"),
    whiteDark: gettext("white piece, unlit (circle down)"),
    whiteLit: gettext("white piece, lit (circle up)"),
    redDark: gettext("red piece, unlit (circle down)"),
    redLit: gettext("red piece, lit (circle up)"),
    centre: gettext("the centre, source of light (no tile)"),
    edge: gettext("edge"),
    visited: gettext("visited in this chain (%(n)s)"),
    darkLegend: gettext("Unlit: circle down"),
    litLegend: gettext("Lit: circle up, with rays"),
    sourceLegend: gettext("The centre lights a piece that lands on it; jumping over a lit piece lights too"),
    edgeLegend: gettext("Goal: all eight pieces lit on the outer ring"),
    pickPiece: gettext("Your turn: choose a piece, then a square to step or jump to."),
    pickDestination: gettext("Choose a destination (dot): a step, or a jump over a piece."),
    chainPrompt: gettext("Jump again with the same piece (numbers show where it has been), or stop here."),
    chainMustStop: gettext("No further jump: stop here."),
    stopHere: gettext("Stop here"),
    stopped: gettext("%(player)s stopped their chain of jumps."),
    move: gettext("%(from)s to %(to)s"),
    jumpAgain: gettext("The piece on %(square)s may jump again (choices: %(count)s), or stop here."),
  };
}

export function mount(host, options) {
  const T = texts(options.gettext);
  const seat = options.seat;
  const board = new KaroBoard(host, options, {
    game: "eclaircissement",
    label: fmt(T.boardLabel, { game: T.game }),
  });
  const flip = seat === 1;
  let view = null;
  let ctx = null;

  const display = (x, y) => (flip ? [SIZE - 1 - x, y] : [x, SIZE - 1 - y]);

  const pick = new PieceSelection(board, T, {
    moves: () => movesBySource(view, ctx),
    render: () => render(),
    send: (move) => options.onMove(move),
    ownPiece: (name) => view.board.pieces.some((p) => p.square === name && p.owner === seat),
    // In a chain of jumps, only the jumping piece may go on.
    fixed: () => {
      if (!view || !view.chain) return null;
      const count = (movesBySource(view, ctx).get(view.chain.piece) || []).length;
      return fmt(T.jumpAgain, { square: view.chain.piece, count });
    },
  });

  function pieceLabel(piece) {
    if (piece.owner === 0) return piece.lit ? T.whiteLit : T.whiteDark;
    return piece.lit ? T.redLit : T.redDark;
  }

  function render() {
    if (!view) return;
    const pieces = new Map(view.board.pieces.map((p) => [p.square, p]));
    const edge = new Set(view.board.edge);
    const centre = view.board.centre.square;
    const chain = view.chain;
    const path = chain ? chain.path : [];
    const moves = movesBySource(view, ctx);
    // In a chain, the jumping piece is the only choice: keep it selected.
    if (chain && moves.has(chain.piece)) pick.selected = chain.piece;
    const marks = pick.marks(moves, ctx);
    const { selected, destinations } = marks;

    board.begin(-0.4, -0.06, SIZE + 0.46, SIZE + 0.46);
    board.gridFrame(SIZE, SIZE, display);

    for (let y = 0; y < SIZE; y += 1) {
      for (let x = 0; x < SIZE; x += 1) {
        const name = squareName(x, y);
        const [dx, dy] = display(x, y);
        const piece = pieces.get(name);
        const parts = [name];
        const classes = [];
        if (moves.has(name) || destinations.has(name)) classes.push("is-actionable");
        if (!edge.has(name) && name !== centre) classes.push("is-inner");
        if (name === centre) parts.push(T.centre);
        else if (edge.has(name)) parts.push(T.edge);
        parts.push(piece ? pieceLabel(piece) : T.empty);
        const step = path.indexOf(name);
        if (step >= 0 && name !== (chain && chain.piece)) parts.push(fmt(T.visited, { n: step + 1 }));
        parts.push(...pick.words(name, marks));
        const g = board.cell(name, dx, dy, { classes: classes.join(" "), label: parts.join(", ") });
        if (piece) {
          g.dataset.owner = String(piece.owner);
          g.dataset.lit = String(piece.lit);
        }
        if (name === centre) {
          // No tile here: a hole, with the light source drawn in it.
          svg("rect", { class: "karo-hole", x: 2, y: 2, width: S - 4, height: S - 4, rx: 6 }, g);
          const source = svg("g", { class: "karo-source" }, g);
          for (let k = 0; k < 12; k += 1) {
            const a = (k * Math.PI) / 6;
            svg("line", {
              x1: (50 + 20 * Math.cos(a)).toFixed(1), y1: (50 + 20 * Math.sin(a)).toFixed(1),
              x2: (50 + 40 * Math.cos(a)).toFixed(1), y2: (50 + 40 * Math.sin(a)).toFixed(1),
            }, source);
          }
          svg("circle", { cx: 50, cy: 50, r: 16 }, source);
        } else {
          board.tile(g);
        }
        pick.drawMarks(g, name, marks);
        if (piece) drawPiece(g, S / 2, S / 2, { owner: piece.owner, up: piece.lit, lit: piece.lit });
        if (step >= 0) board.markNumber(g, step + 1);
        if (destinations.has(name)) board.markDestination(g);
      }
    }
    // The line between the edge ring and the inner squares.
    svg("rect", { class: "karo-zone-line", x: S, y: S, width: 3 * S, height: 3 * S, fill: "none" }, board.layers.over);
    // The chain so far, and the jumps on offer from the selected piece.
    for (let k = 1; k < path.length; k += 1) {
      const a = parseSquare(path[k - 1]);
      const b = parseSquare(path[k]);
      board.arrow(display(a.x, a.y), display(b.x, b.y), "karo-line--done");
    }
    if (selected) {
      const from = parseSquare(selected);
      for (const to of destinations) {
        const end = parseSquare(to);
        if (Math.max(Math.abs(end.x - from.x), Math.abs(end.y - from.y)) === 2) {
          board.arrow(display(from.x, from.y), display(end.x, end.y));
        }
      }
    }
    board.finish(selected || moves.keys().next().value);
    renderStrip(chain, moves, selected);
  }

  function renderStrip(chain, moves, selected) {
    const buttons = [];
    let prompt = turnPrompt(T, view, ctx, seat);
    const mine = ctx.interactive && ctx.legalMoves.length && !(view.outcome || ctx.outcome);
    if (mine && ctx.legalMoves.length === 1 && ctx.legalMoves[0] === "pass") {
      buttons.push({ name: "pass", label: T.pass, primary: true, onClick: () => options.onMove("pass") });
    } else if (mine && chain) {
      prompt = moves.size ? T.chainPrompt : T.chainMustStop;
      if (ctx.legalMoves.includes(STOP)) {
        buttons.push({ name: "stop", label: T.stopHere, primary: true, onClick: () => options.onMove(STOP) });
      }
    } else if (mine) {
      prompt = selected ? T.pickDestination : T.pickPiece;
      if (selected) buttons.push({ name: "cancel", label: T.cancel, onClick: () => pick.deselect(true) });
    }
    board.setPrompt(prompt);
    board.setActions(buttons);
    const own = seat === 1 ? 1 : 0;
    board.setLegend([
      ...playerLegend(T, ctx, seat),
      { piece: { owner: own, up: false }, text: T.darkLegend },
      { piece: { owner: own, up: true, lit: true }, text: T.litLegend },
      {
        mark: (icon) => {
          svg("rect", { class: "karo-hole", x: 5, y: 5, width: 90, height: 90, rx: 8 }, icon);
          const source = svg("g", { class: "karo-source" }, icon);
          svg("circle", { cx: 50, cy: 50, r: 22 }, source);
        },
        text: T.sourceLegend,
      },
      { text: T.edgeLegend },
    ]);
  }

  return {
    update(newView, newCtx) {
      const versionChanged = board.stamp(newCtx);
      view = newView;
      ctx = newCtx;
      if (versionChanged) pick.selected = null;
      render();
      if (versionChanged && view.chain && ctx.legalMoves.length && view.last_move && view.last_move.seat === seat) {
        const count = ctx.legalMoves.filter((m) => m !== STOP).length;
        board.announce(fmt(T.jumpAgain, { square: view.chain.piece, count }));
      }
      announceOpponent(board, T, view, ctx, seat, (move, who, player) => {
        if (move === STOP) return { sentence: fmt(T.stopped, { player }) };
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
