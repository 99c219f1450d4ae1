// Drumlin moves in words (notation: docs/notation.md, "Drumlin").

import { fill, gettext } from "./format.js";

const STEP = /^([ED])([a-h](?:10|[1-9]))-([a-h](?:10|[1-9]))$/;
const SWAP = /^EE([a-h](?:10|[1-9]))=D([a-h](?:10|[1-9]))$/;
const DEPART = /^O([a-h](?:10|[1-9]))-([a-h](?:10|[1-9])|base)$/;
const PLACE = /^\*([a-h](?:10|[1-9]))$/;
const REMOVE = /^x([a-h](?:10|[1-9]))$/;

function stackOf(view, square) {
  const info = view && view.board && view.board.squares ? view.board.squares[square] : null;
  return info && Array.isArray(info.stack) ? info.stack : [];
}

function hasEgg(view, square, seat) {
  return stackOf(view, square).some((piece) => piece.kind === "egg" && piece.seat === seat);
}

/** Whether the move took the Drumlin: the mover has an egg on the destination now and had none there before. */
function tookDrumlin(ctx, from, to) {
  if (!ctx.view || !ctx.before || ctx.seat === null) return false;
  if (!hasEgg(ctx.view, to, ctx.seat)) return false;
  return !hasEgg(ctx.before, to, ctx.seat) && !hasEgg(ctx.before, from, ctx.seat);
}

export function describeDrumlin(move, ctx) {
  const name = ctx.name;
  if (move === null || move === undefined) return null;
  let m = STEP.exec(move);
  if (m) {
    const [, kind, from, to] = m;
    const values = { name, from, to };
    const took = tookDrumlin(ctx, from, to);
    if (kind === "E") {
      return fill(took ? gettext("%(name)s: elephant %(from)s → %(to)s, takes the Drumlin")
        : gettext("%(name)s: elephant %(from)s → %(to)s"), values);
    }
    return fill(took ? gettext("%(name)s: dragon %(from)s → %(to)s, takes the Drumlin")
      : gettext("%(name)s: dragon %(from)s → %(to)s"), values);
  }
  m = SWAP.exec(move);
  if (m) return fill(gettext("%(name)s exchanges the two elephants on %(from)s with the dragon on %(to)s"), { name, from: m[1], to: m[2] });
  m = DEPART.exec(move);
  if (m) {
    if (m[2] === "base") return fill(gettext("%(name)s sends the Drumlin from %(from)s onto the base line"), { name, from: m[1] });
    return fill(gettext("%(name)s: the Drumlin leaves %(from)s for %(to)s"), { name, from: m[1], to: m[2] });
  }
  if (move === "stop") return fill(gettext("%(name)s stops: the new egg stays"), { name });
  m = PLACE.exec(move);
  if (m) return fill(gettext("%(name)s places the Drumlin on %(to)s"), { name, to: m[1] });
  m = REMOVE.exec(move);
  if (m) return fill(gettext("%(name)s removes their pieces from %(to)s"), { name, to: m[1] });
  return null;
}
