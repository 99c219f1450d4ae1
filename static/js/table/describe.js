// Moves in words: what the move list, the last-move line and the replay say about a
// move, in the page's language, from the game's notation and the views around it.
//
//   describeMove(game, move, {seat, names, view, before}) -> a sentence (no final stop)
//
// game    the engine's slug
// move    the move in the game's notation, or null when it is a secret to this viewer
// seat    the seat that played it (null: the server, e.g. a countdown)
// names   how each seat is called, by seat index
// view    the view right after the move (this viewer's), when known
// before  the view right before it, when known (a few details need it: a capture)
//
// The notation itself is kept by the callers, for export and as a hover title.
// Every sentence goes through gettext (Django's djangojs catalogue).

import { describeDrekki } from "./describe-drekki.js";
import { describeDrumlin } from "./describe-drumlin.js";
import { describeKaro } from "./describe-karo.js";
import { fill, gettext } from "./format.js";

const DESCRIBERS = {
  drumlin: describeDrumlin,
  drekki: describeDrekki,
  "rampants-sauteurs": describeKaro,
  eclaircissement: describeKaro,
  "quatre-en-ligne": describeKaro,
};

/** The move in words; falls back to the notation when nothing better can be said. */
export function describeMove(game, move, context = {}) {
  const names = context.names || [];
  const seat = context.seat ?? null;
  const name = seat !== null && names[seat] ? names[seat] : gettext("someone");
  const ctx = { ...context, game, name, seat, view: context.view || null, before: context.before || null };
  const describer = DESCRIBERS[game];
  let text = null;
  try {
    text = describer ? describer(move, ctx) : null;
  } catch (error) {
    // A describer must never break the list: the notation is still there.
    console.warn(error);
    text = null;
  }
  if (text) return text;
  if (move === null || move === undefined) return fill(gettext("%(name)s played a hidden move"), { name });
  if (move === "pass") return fill(gettext("%(name)s passes"), { name });
  return fill(gettext("%(name)s played %(move)s"), { name, move });
}

