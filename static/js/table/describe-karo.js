// The three Karo games' moves in words: Rampants et Sauteurs, Éclaircissement and
// Quatre en ligne (notation: docs/notation.md, "the Karo box").

import { fill, gettext, listWords } from "./format.js";

const FILES = "abcdefgh";

function algebraic(square) {
  const m = /^([a-h])(\d+)$/.exec(square);
  return m ? [FILES.indexOf(m[1]), Number(m[2]) - 1] : null;
}

function cartesian(square) {
  const m = /^(-?\d+),(-?\d+)$/.exec(square);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** The squares strictly between two squares on a line (empty list if not on a line). */
function between(a, b, parse, write) {
  const p = parse(a);
  const q = parse(b);
  if (!p || !q) return [];
  const dx = Math.sign(q[0] - p[0]);
  const dy = Math.sign(q[1] - p[1]);
  const steps = Math.max(Math.abs(q[0] - p[0]), Math.abs(q[1] - p[1]));
  if ((q[0] - p[0]) !== dx * steps || (q[1] - p[1]) !== dy * steps) return [];
  const out = [];
  for (let k = 1; k < steps; k += 1) out.push(write(p[0] + dx * k, p[1] + dy * k));
  return out;
}

const writeAlgebraic = (x, y) => `${FILES[x]}${y + 1}`;
const writeCartesian = (x, y) => `${x},${y}`;

function pieceAt(view, square) {
  const pieces = view && view.board && Array.isArray(view.board.pieces) ? view.board.pieces : [];
  return pieces.find((piece) => piece.square === square) || null;
}

function rampants(move, ctx) {
  const name = ctx.name;
  if (move === null || move === undefined) return fill(gettext("%(name)s chooses a layout in secret"), { name });
  const layout = /^([CJ]{3})\/([CJ]{3})$/.exec(move);
  if (layout) {
    // Back rank then front rank, files a to c; seat 0 sits on ranks 1-2, seat 1 on 8-7.
    const [back, front] = ctx.seat === 1 ? [8, 7] : [1, 2];
    const jumpers = [];
    const crawlers = [];
    [[layout[1], back], [layout[2], front]].forEach(([row, rank]) => {
      [...row].forEach((letter, file) => (letter === "J" ? jumpers : crawlers).push(`${FILES[file]}${rank}`));
    });
    return fill(gettext("%(name)s sets up: jumpers on %(jumpers)s, crawlers on %(crawlers)s"),
      { name, jumpers: listWords(jumpers), crawlers: listWords(crawlers) });
  }
  const step = /^([a-c][1-8])-([a-c][1-8])$/.exec(move);
  if (!step) return null;
  const [, from, to] = step;
  const over = between(from, to, algebraic, writeAlgebraic);
  // A crawler steps to a neighbouring square; a jumper always leaps over a piece at least.
  if (!over.length) return fill(gettext("%(name)s: crawler %(from)s → %(to)s, turns into a jumper"), { name, from, to });
  return fill(gettext("%(name)s: jumper %(from)s → %(to)s over %(over)s, turns into a crawler"),
    { name, from, to, over: listWords(over) });
}

function eclaircissement(move, ctx) {
  const name = ctx.name;
  if (move === "stop") return fill(gettext("%(name)s stops jumping"), { name });
  const step = /^([a-e][1-5])-([a-e][1-5])$/.exec(move || "");
  if (!step) return null;
  const [, from, to] = step;
  const after = pieceAt(ctx.view, to);
  const earlier = pieceAt(ctx.before, from);
  const lit = after ? after.lit : null;
  const wasLit = earlier ? earlier.lit : null;
  const p = algebraic(from);
  const q = algebraic(to);
  const jump = Math.abs(q[0] - p[0]) === 2 || Math.abs(q[1] - p[1]) === 2;
  if (!jump) {
    if (lit && wasLit === false) return fill(gettext("%(name)s: piece %(from)s → %(to)s, lit on the centre"), { name, from, to });
    if (lit) return fill(gettext("%(name)s: lit piece %(from)s → %(to)s"), { name, from, to });
    if (lit === false) return fill(gettext("%(name)s: dark piece %(from)s → %(to)s"), { name, from, to });
    return fill(gettext("%(name)s: piece %(from)s → %(to)s"), { name, from, to });
  }
  const over = between(from, to, algebraic, writeAlgebraic)[0];
  if (lit && wasLit === false) return fill(gettext("%(name)s: piece %(from)s jumps over %(over)s to %(to)s and is lit"), { name, from, to, over });
  return fill(gettext("%(name)s: piece %(from)s jumps over %(over)s to %(to)s"), { name, from, to, over });
}

function pieceMove(from, to, name, withTile) {
  const over = between(from, to, cartesian, writeCartesian);
  if (over.length) {
    const values = { name, from, to, over: over[0], ...withTile };
    return withTile
      ? fill(gettext("%(name)s moves the tile %(tileFrom)s to %(tileTo)s; piece %(from)s jumps over %(over)s onto it and turns over"), values)
      : fill(gettext("%(name)s: piece %(from)s jumps over %(over)s to %(to)s and turns over"), values);
  }
  const values = { name, from, to, ...withTile };
  return withTile
    ? fill(gettext("%(name)s moves the tile %(tileFrom)s to %(tileTo)s; piece %(from)s steps onto it"), values)
    : fill(gettext("%(name)s: piece %(from)s → %(to)s"), values);
}

function quatre(move, ctx) {
  const name = ctx.name;
  const C = "-?\\d+,-?\\d+";
  let m = new RegExp(`^(${C})$`).exec(move || "");
  if (m) return fill(gettext("%(name)s places a piece on %(to)s"), { name, to: m[1] });
  m = new RegExp(`^(${C})>(${C})$`).exec(move || "");
  if (m) return pieceMove(m[1], m[2], name, null);
  m = new RegExp(`^(${C})>(${C}):(${C})>(${C})$`).exec(move || "");
  if (m) return pieceMove(m[3], m[4], name, { tileFrom: m[1], tileTo: m[2] });
  return null;
}

const GAMES = { "rampants-sauteurs": rampants, eclaircissement, "quatre-en-ligne": quatre };

export function describeKaro(move, ctx) {
  if (move === "pass") return fill(gettext("%(name)s has no move and passes"), { name: ctx.name });
  const describe = GAMES[ctx.game];
  if (move === null || move === undefined) return describe === rampants ? rampants(move, ctx) : null;
  return describe ? describe(move, ctx) : null;
}
