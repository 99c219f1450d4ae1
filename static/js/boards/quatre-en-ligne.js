// Quatre en ligne (Karo): 20 tiles at integer coordinates that move and grow the
// board in any direction. Twelve placements ("2,1"), then each turn a step or a
// jump ("0,1>1,1"), optionally after moving an empty tile, written as one move
// ("4,3>5,1:4,0>5,1": the tile 4,3 goes to 5,1 and the piece on 4,0 moves onto it).
// The tile move is guided: pick a movable tile, then a target (ghost tiles), then
// one of the pieces that can reach it, then the moved tile.

import {
  KaroBoard, S, announceOpponent, commonTexts, drawPiece, fmt, playerLegend, svg, turnPrompt,
} from "./karo-common.js";

const DIRECTIONS = [[1, 0], [0, 1], [1, 1], [1, -1]];

function texts(gettext) {
  return {
    ...commonTexts(gettext),
    game: gettext("Quatre en ligne"),
    whitePlain: gettext("white piece, circle down"),
    whiteMarked: gettext("white piece, circle up"),
    redPlain: gettext("red piece, circle down"),
    redMarked: gettext("red piece, circle up"),
    emptyTile: gettext("empty tile"),
    movableTile: gettext("empty tile that may be moved"),
    ghost: gettext("free place: put the tile here"),
    movedTile: gettext("the moved tile"),
    plainLegend: gettext("Circle down"),
    markedLegend: gettext("Circle up: a jump turns a piece over"),
    gripLegend: gettext("An empty tile you may move first"),
    goalLegend: gettext("Goal: four of your pieces circle up in a line"),
    placePrompt: gettext("Place a piece on an empty tile (%(placed)s of 6 placed)."),
    movePrompt: gettext("Your turn: move a piece (step or jump), or first move an empty tile marked with arrows."),
    pickDestination: gettext("Choose a destination (dot), or another piece."),
    tilePrompt: gettext("Choose where the tile goes: one of the dashed places."),
    tilePiecePrompt: gettext("Now choose one of your pieces with a dotted frame: it moves onto the moved tile."),
    tileDestPrompt: gettext("Choose the moved tile as the destination."),
    tileTaken: gettext("%(square)s is not free: place your piece on an empty tile."),
    chooseOwn: gettext("%(square)s: choose one of your own pieces first (those that can move are framed)."),
    undoTile: gettext("Undo the tile move"),
    tileSelected: gettext("Tile %(square)s lifted; places to put it: %(count)s."),
    tilePlaced: gettext("Tile put on %(square)s; pieces of yours that can move onto it: %(count)s."),
    onlyAfterTile: gettext("%(square)s can move only onto a moved tile: move a tile first."),
    placed: gettext("%(player)s placed a piece on %(square)s."),
    move: gettext("%(from)s to %(to)s"),
    tileMove: gettext("%(player)s moved the tile %(tile)s to %(target)s, then the piece %(from)s to %(to)s."),
  };
}

function parsePlace(name) {
  const [x, y] = name.split(",").map(Number);
  return { x, y };
}

/** The legal moves sorted by kind. */
function parseMoves(legal) {
  const placements = new Set();
  const steps = new Map(); // piece -> [destinations]
  const tiles = new Map(); // tile -> Map(target -> [pieces])
  for (const move of legal) {
    if (move === "pass") continue;
    if (!move.includes(">")) {
      placements.add(move);
    } else if (move.includes(":")) {
      const [tilePart, piecePart] = move.split(":");
      const [lift, target] = tilePart.split(">");
      const [from] = piecePart.split(">");
      if (!tiles.has(lift)) tiles.set(lift, new Map());
      const targets = tiles.get(lift);
      if (!targets.has(target)) targets.set(target, []);
      targets.get(target).push(from);
    } else {
      const [from, to] = move.split(">");
      if (!steps.has(from)) steps.set(from, []);
      steps.get(from).push(to);
    }
  }
  return { placements, steps, tiles };
}

/** Four (or more) marked pieces of ``owner`` in a line: the places, or null. */
function winningLine(pieces, owner) {
  const marked = new Set(pieces.filter((p) => p.owner === owner && p.marked).map((p) => `${p.x},${p.y}`));
  for (const name of marked) {
    const { x, y } = parsePlace(name);
    for (const [dx, dy] of DIRECTIONS) {
      if (marked.has(`${x - dx},${y - dy}`)) continue; // start at the line's first piece
      const line = [name];
      while (marked.has(`${x + dx * line.length},${y + dy * line.length}`)) line.push(`${x + dx * line.length},${y + dy * line.length}`);
      if (line.length >= 4) return line;
    }
  }
  return null;
}

export function mount(host, options) {
  const T = texts(options.gettext);
  const seat = options.seat;
  const board = new KaroBoard(host, options, {
    game: "quatre-en-ligne",
    label: fmt(T.boardLabel, { game: T.game }),
  });
  let view = null;
  let ctx = null;
  // What the player has chosen so far this turn:
  // null | {kind: "piece", at} | {kind: "tile", lift} | {kind: "placed", lift, target}
  // | {kind: "tilePiece", lift, target, at}
  let sel = null;

  function moves() {
    if (!ctx || !ctx.interactive || !view || view.phase === "over") return parseMoves([]);
    return parseMoves(ctx.legalMoves);
  }

  function pieceLabel(piece) {
    if (piece.owner === 0) return piece.marked ? T.whiteMarked : T.whitePlain;
    return piece.marked ? T.redMarked : T.redPlain;
  }

  /** Drop a choice that the current legal moves no longer allow. */
  function checkSelection(m) {
    if (!sel) return;
    const targets = sel.lift ? m.tiles.get(sel.lift) : null;
    const ok =
      (sel.kind === "piece" && m.steps.has(sel.at)) ||
      (sel.kind === "tile" && targets) ||
      ((sel.kind === "placed" || sel.kind === "tilePiece") && targets && targets.has(sel.target) &&
        (sel.kind === "placed" || targets.get(sel.target).includes(sel.at)));
    if (!ok) sel = null;
  }

  function render() {
    if (!view) return;
    const m = moves();
    checkSelection(m);
    const movement = view.phase !== "placement";
    const pieces = new Map(view.board.pieces.map((p) => [p.square, p]));
    let tiles = view.board.tiles.map((t) => t.square);
    const tileMoving = sel && sel.kind !== "piece" && sel.kind !== "tile";
    if (tileMoving) tiles = tiles.filter((t) => t !== sel.lift).concat([sel.target]);
    const b = view.board.bounds;
    const pad = movement ? 1 : 0.12;
    const x0 = b.min_x - pad;
    const top = b.max_y + pad;
    const width = b.max_x - b.min_x + 1 + 2 * pad;
    const height = b.max_y - b.min_y + 1 + 2 * pad;
    const display = (name) => {
      const { x, y } = parsePlace(name);
      return [x - x0, top - y];
    };

    // What is on offer now.
    let destinations = new Set();
    let selectable = new Set(); // pieces or tiles the player may pick now
    let ghosts = [];
    if (sel === null) {
      selectable = new Set([...m.steps.keys(), ...m.tiles.keys(), ...m.placements]);
    } else if (sel.kind === "piece") {
      destinations = new Set(m.steps.get(sel.at));
      selectable = new Set([...m.steps.keys(), ...m.tiles.keys()]);
    } else if (sel.kind === "tile") {
      ghosts = [...m.tiles.get(sel.lift).keys()];
    } else if (sel.kind === "placed") {
      selectable = new Set(m.tiles.get(sel.lift).get(sel.target));
    } else if (sel.kind === "tilePiece") {
      selectable = new Set(m.tiles.get(sel.lift).get(sel.target));
      destinations = new Set([sel.target]);
    }
    const selectedName = sel ? (sel.at || (sel.kind === "tile" ? sel.lift : null)) : null;

    let last = null;
    if (ctx.lastMove && ctx.lastMove !== "pass") {
      const move = ctx.lastMove;
      if (!move.includes(">")) last = { to: move };
      else if (move.includes(":")) {
        const [tilePart, piecePart] = move.split(":");
        const [tile] = tilePart.split(">");
        const [from, to] = piecePart.split(">");
        last = { from, to, oldTile: tile };
      } else {
        const [from, to] = move.split(">");
        last = { from, to };
      }
    }

    board.begin(0, 0, width, height);
    // Where the last moved tile came from, and where the lifted one sits now.
    if (last && last.oldTile && !tiles.includes(last.oldTile)) {
      const [dx, dy] = display(last.oldTile);
      svg("rect", { class: "karo-old-place", x: dx * S + 8, y: dy * S + 8, width: S - 16, height: S - 16, rx: 6 }, board.layers.under);
    }
    if (sel && sel.kind !== "piece") {
      const [dx, dy] = display(sel.lift);
      svg("rect", { class: "karo-lifted", x: dx * S + 4, y: dy * S + 4, width: S - 8, height: S - 8, rx: 6 }, board.layers.under);
    }

    for (const name of tiles) {
      const [dx, dy] = display(name);
      const piece = tileMoving && name === sel.lift ? null : pieces.get(name);
      const parts = [name];
      const classes = [];
      const isMoved = tileMoving && name === sel.target;
      const movableTile = movement && !piece && m.tiles.has(name) && (sel === null || sel.kind === "piece");
      if (selectable.has(name) || destinations.has(name) || (sel && sel.kind === "tile" && name === sel.lift)) classes.push("is-actionable");
      if (isMoved) parts.push(T.movedTile);
      if (piece) parts.push(pieceLabel(piece));
      else parts.push(movableTile ? T.movableTile : T.emptyTile);
      if (name === selectedName) parts.push(T.selectedMark);
      if (destinations.has(name)) parts.push(T.destination);
      if (last && name === last.from) parts.push(T.lastFrom);
      if (last && name === last.to) parts.push(T.lastTo);
      const g = board.cell(name, dx, dy, { classes: classes.join(" "), label: parts.join(", ") });
      g.dataset.tile = "";
      if (piece) {
        g.dataset.owner = String(piece.owner);
        g.dataset.marked = String(piece.marked);
      }
      board.tile(g, isMoved ? "is-moved" : "");
      // The tile's coordinates, as the notation and the move list write them.
      svg("text", { class: "karo-coord", x: 6, y: 17, "aria-hidden": "true" }, g).textContent = name;
      if (sel && sel.kind === "tile" && name === sel.lift) g.classList.add("karo-dragging-tile");
      if (last && name === last.from) board.markLastFrom(g);
      if (last && name === last.to) board.markLastTo(g);
      if (movableTile && sel === null) gripMark(g);
      if (selectable.has(name) && piece && (sel === null || sel.kind !== "piece" || name !== sel.at)) board.markMovable(g);
      if (name === selectedName) board.markSelected(g);
      if (piece) drawPiece(g, S / 2, S / 2, { owner: piece.owner, up: piece.marked });
      if (destinations.has(name)) board.markDestination(g);
    }
    for (const name of ghosts) {
      const [dx, dy] = display(name);
      const g = board.cell(name, dx, dy, { classes: "is-actionable is-ghost", label: `${name}, ${T.ghost}` });
      g.dataset.ghost = "";
      svg("rect", { class: "karo-ghost-tile", x: 6, y: 6, width: S - 12, height: S - 12, rx: 6 }, g);
      svg("path", { class: "karo-ghost-plus", d: "M50,34 L50,66 M34,50 L66,50" }, g);
      svg("text", { class: "karo-coord", x: 6, y: 17, "aria-hidden": "true" }, g).textContent = name;
    }
    // The selected piece's jumps, drawn as arrows.
    const from = sel && sel.at;
    if (from) {
      const a = parsePlace(from);
      for (const to of destinations) {
        const c = parsePlace(to);
        if (Math.max(Math.abs(c.x - a.x), Math.abs(c.y - a.y)) === 2) board.arrow(display(from), display(to));
      }
    }
    const outcome = ctx.outcome || view.outcome;
    if (outcome && outcome.winners && outcome.winners.length === 1) {
      const line = winningLine(view.board.pieces, outcome.winners[0]);
      if (line) {
        const [ax, ay] = display(line[0]);
        const [bx, by] = display(line[line.length - 1]);
        svg("line", { class: "karo-winline", x1: (ax + 0.5) * S, y1: (ay + 0.5) * S, x2: (bx + 0.5) * S, y2: (by + 0.5) * S }, board.layers.over);
      }
    }
    const firstChoice = [...selectable][0] || ghosts[0];
    board.finish(selectedName || firstChoice);
    renderStrip(m);
  }

  /** Four little arrows: this empty tile may be moved. */
  function gripMark(g) {
    svg("path", {
      class: "karo-grip",
      d: "M50,22 L50,78 M22,50 L78,50 M42,30 L50,22 L58,30 M42,70 L50,78 L58,70 M30,42 L22,50 L30,58 M70,42 L78,50 L70,58",
    }, g);
  }

  function renderStrip(m) {
    const buttons = [];
    let prompt = turnPrompt(T, view, ctx, seat);
    const mine = ctx.interactive && ctx.legalMoves.length && !(view.outcome || ctx.outcome);
    if (mine && ctx.legalMoves.length === 1 && ctx.legalMoves[0] === "pass") {
      buttons.push({ name: "pass", label: T.pass, primary: true, onClick: () => options.onMove("pass") });
    } else if (mine && m.placements.size) {
      prompt = fmt(T.placePrompt, { placed: view.placed ? view.placed[seat] : 0 });
    } else if (mine) {
      if (sel === null) prompt = T.movePrompt;
      else if (sel.kind === "piece") prompt = T.pickDestination;
      else if (sel.kind === "tile") prompt = T.tilePrompt;
      else if (sel.kind === "placed") prompt = T.tilePiecePrompt;
      else prompt = T.tileDestPrompt;
      if (sel && sel.kind === "piece") buttons.push({ name: "cancel", label: T.cancel, onClick: () => reset(true) });
      if (sel && sel.kind !== "piece") buttons.push({ name: "undo-tile", label: T.undoTile, onClick: () => reset(true) });
    }
    board.setPrompt(prompt);
    board.setActions(buttons);
    const own = seat === 1 ? 1 : 0;
    board.setLegend([
      ...playerLegend(T, ctx, seat),
      { piece: { owner: own, up: false }, text: T.plainLegend },
      { piece: { owner: own, up: true }, text: T.markedLegend },
      {
        mark: (icon) => {
          svg("rect", { class: "karo-tile", x: 5, y: 5, width: 90, height: 90, rx: 8 }, icon);
          gripMark(icon);
        },
        text: T.gripLegend,
      },
      { text: T.goalLegend },
    ]);
  }

  function reset(say) {
    if (!sel) return;
    sel = null;
    render();
    if (say) board.announce(T.deselected);
  }

  function send(move) {
    sel = null;
    render();
    options.onMove(move);
  }

  function pickTile(name, m) {
    sel = { kind: "tile", lift: name };
    render();
    board.announce(fmt(T.tileSelected, { square: name, count: m.tiles.get(name).size }));
  }

  function placeTile(target, m) {
    sel = { kind: "placed", lift: sel.lift, target };
    render();
    board.announce(fmt(T.tilePlaced, { square: target, count: m.tiles.get(sel.lift).get(target).length }));
  }

  board.activate = (name) => {
    if (!view || !ctx) return;
    const m = moves();
    if (m.placements.size) {
      if (m.placements.has(name)) send(name);
      else board.announce(fmt(T.tileTaken, { square: name }));
      return;
    }
    const piece = view.board.pieces.find((p) => p.square === name);
    if (sel && sel.kind === "tile") {
      if (m.tiles.get(sel.lift).has(name)) placeTile(name, m);
      else if (name === sel.lift) reset(true);
      else board.announce(fmt(T.notADestination, { square: name }));
      return;
    }
    if (sel && (sel.kind === "placed" || sel.kind === "tilePiece")) {
      const candidates = m.tiles.get(sel.lift).get(sel.target);
      if (sel.kind === "tilePiece" && name === sel.target) {
        send(`${sel.lift}>${sel.target}:${sel.at}>${sel.target}`);
      } else if (candidates.includes(name)) {
        sel = { ...sel, kind: "tilePiece", at: name };
        render();
        board.announce(fmt(T.selected, { square: name, count: 1 }));
      } else if (name === sel.target) {
        board.announce(T.tilePiecePrompt);
      } else {
        board.announce(fmt(T.notADestination, { square: name }));
      }
      return;
    }
    if (sel && sel.kind === "piece" && m.steps.get(sel.at).includes(name)) {
      send(`${sel.at}>${name}`);
      return;
    }
    if (m.steps.has(name)) {
      if (sel && sel.at === name) {
        reset(true);
      } else {
        sel = { kind: "piece", at: name };
        render();
        board.announce(fmt(T.selected, { square: name, count: m.steps.get(name).length }));
      }
      return;
    }
    if (!piece && m.tiles.has(name)) {
      pickTile(name, m);
      return;
    }
    if (piece && piece.owner === seat) {
      const viaTile = [...m.tiles.values()].some((targets) => [...targets.values()].some((list) => list.includes(name)));
      board.announce(fmt(viaTile ? T.onlyAfterTile : T.noMoveFrom, { square: name }));
    } else if (sel) {
      reset(false);
      board.announce(fmt(T.notADestination, { square: name }));
    } else if (m.steps.size || m.tiles.size) {
      board.announce(fmt(T.chooseOwn, { square: name }));
    }
  };

  board.canDrag = (name) => {
    const m = moves();
    if (m.placements.size) return false;
    if (sel && (sel.kind === "placed" || sel.kind === "tilePiece")) {
      if (!m.tiles.get(sel.lift).get(sel.target).includes(name)) return false;
      sel = { ...sel, kind: "tilePiece", at: name };
      render();
      return true;
    }
    if (m.steps.has(name)) {
      if (!sel || sel.at !== name) {
        sel = { kind: "piece", at: name };
        render();
      }
      return true;
    }
    const piece = view.board.pieces.find((p) => p.square === name);
    if (!piece && m.tiles.has(name)) {
      if (!sel || sel.lift !== name) {
        sel = { kind: "tile", lift: name };
        render();
      }
      return true;
    }
    return false;
  };

  board.drop = (from, to) => {
    const m = moves();
    if (sel && sel.kind === "tile" && from === sel.lift) {
      if (m.tiles.get(sel.lift).has(to)) placeTile(to, m);
      else board.announce(fmt(T.notADestination, { square: to }));
    } else if (sel && sel.kind === "tilePiece" && from === sel.at) {
      if (to === sel.target) send(`${sel.lift}>${sel.target}:${sel.at}>${sel.target}`);
      else board.announce(fmt(T.notADestination, { square: to }));
    } else if (m.steps.has(from) && m.steps.get(from).includes(to)) {
      send(`${from}>${to}`);
    } else {
      board.announce(fmt(T.notADestination, { square: to }));
    }
  };
  board.cancel = () => reset(true);

  return {
    update(newView, newCtx) {
      const versionChanged = board.stamp(newCtx);
      view = newView;
      ctx = newCtx;
      if (versionChanged) sel = null;
      render();
      announceOpponent(board, T, view, ctx, seat, (move, who, player) => {
        if (move === "pass") return null;
        if (!move.includes(">")) return { sentence: fmt(T.placed, { player, square: move }) };
        if (move.includes(":")) {
          const [tilePart, piecePart] = move.split(":");
          const [tile, target] = tilePart.split(">");
          const [from, to] = piecePart.split(">");
          return { sentence: fmt(T.tileMove, { player, tile, target, from, to }) };
        }
        const [from, to] = move.split(">");
        return fmt(T.move, { from, to });
      });
    },
    destroy() {
      board.destroy();
    },
  };
}
