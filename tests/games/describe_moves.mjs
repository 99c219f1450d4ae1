// Runs the table page's move describers (static/js/table/describe.js) under node over
// cases written by tests/games/test_move_descriptions.py.
//
//   node describe_moves.mjs <input.json>    prints {"texts": [...], "missing": [...]}
//
// input: {"catalogue": {msgid: msgstr} | null, "cases": [{game, move, seat, names, view, before}]}
// With a catalogue, gettext translates from it and every msgid it lacks is listed in
// "missing" (a sentence left in English on the French page).

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
const missing = new Set();
globalThis.gettext = (text) => {
  if (!input.catalogue) return text;
  if (Object.hasOwn(input.catalogue, text) && input.catalogue[text]) return input.catalogue[text];
  missing.add(text);
  return text;
};
globalThis.ngettext = (one, many, count) => globalThis.gettext(count === 1 ? one : many);

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const { describeMove } = await import(pathToFileURL(path.join(root, "static/js/table/describe.js")).href);
const texts = input.cases.map((item) => describeMove(item.game, item.move, item));
process.stdout.write(JSON.stringify({ texts, missing: [...missing] }));
