// Runs the table page's typed-move matching (static/js/table/typed.js) and clock
// warnings (static/js/table/clock-warnings.js) under node over cases written by
// tests/games/test_a11y_logic.py.
//
//   node a11y_logic.mjs <input.json>    prints {"typed": [...], "clocks": [...], "position": [...]}
//
// input: {"typed": [{game, seat, names, view, legal}], "clocks": [[[clocks, live], ...], ...],
//         "position": [board host or null, ...]} (a host: {squares: [{square, owner, piece,
//         label}], dk: {part: text}}, read by positionWords as it reads the page's board)
// For each typed case, every legal move is typed as written, in lower case, in upper
// case, with spaces around it, and as its words; "typed" lists, per case, what each try
// matched (a move or null) and what two wrong entries gave.

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
globalThis.gettext = (text) => text;
globalThis.ngettext = (one, many, count) => (count === 1 ? one : many);

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const load = (file) => import(pathToFileURL(path.join(root, "static/js/table", file)).href);
const { matchMove, moveChoices, positionWords } = await load("typed.js");
const { ClockWarnings } = await load("clock-warnings.js");

const typed = input.typed.map((item) => {
  const choices = moveChoices(item.game, item.legal, item.seat, item.names, item.view);
  const tries = choices.map((c) => ({
    move: c.move,
    exact: matchMove(c.move, choices).move ?? null,
    lower: matchMove(c.move.toLowerCase(), choices).move ?? null,
    upper: matchMove(c.move.toUpperCase(), choices).move ?? null,
    spaced: matchMove(`  ${c.move} `, choices).move ?? null,
    words: matchMove(c.words, choices).move ?? null,
    short: matchMove(c.short, choices).move ?? null,
    wordsText: c.words,
  }));
  const nonsense = matchMove("zz99 nowhere", choices);
  const empty = matchMove("   ", choices);
  return { tries, nonsense: { move: nonsense.move, candidates: nonsense.candidates.length },
           empty: { move: empty.move, candidates: empty.candidates.length } };
});

const clocks = input.clocks.map((steps) => {
  const warnings = new ClockWarnings();
  return steps.map(([seats, live]) => warnings.check(seats, live));
});

// A board host as positionWords reads it, without a DOM: its squares (each with an
// owner or a piece, and a label) and Drekki's named parts.
function fakeHost(spec) {
  if (spec === null) return null;
  const squares = (spec.squares || []).map((s) => ({
    dataset: { square: s.square, ...(s.owner !== undefined ? { owner: String(s.owner) } : {}) },
    getAttribute: (name) => (name === "aria-label" ? s.label ?? null : null),
    querySelector: (sel) => (sel === ".piece" && s.piece ? {} : null),
  }));
  return {
    querySelectorAll: (sel) => (sel === "[data-square]" ? squares : []),
    querySelector: (sel) => {
      if (sel === "[data-square]") return squares[0] ?? null;
      const name = /^\[data-dk="(\w+)"\]$/.exec(sel)?.[1];
      return name && spec.dk?.[name] ? { hidden: false, innerText: spec.dk[name] } : null;
    },
  };
}
const position = (input.position || []).map((spec) => positionWords(fakeHost(spec)));

process.stdout.write(JSON.stringify({ typed, clocks, position }));
