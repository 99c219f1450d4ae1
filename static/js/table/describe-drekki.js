// Drekki moves in words, the two-player duel included (notation: docs/notation.md,
// "Drekki").

import { fill, gettext } from "./format.js";

const COLOURS = {
  yellow: () => gettext("yellow"),
  red: () => gettext("red"),
  black: () => gettext("black"),
};

function pileLabel(ctx, label) {
  // The duel's mages are called A1, B1, A2, B2 in the view too: the label is the name on the table.
  const mages = (ctx.view && ctx.view.mages) || (ctx.before && ctx.before.mages) || [];
  const mage = mages.find((item) => item.label === label);
  return mage ? mage.label : label;
}

export function describeDrekki(move, ctx) {
  const name = ctx.name;
  if (move === null || move === undefined) return fill(gettext("%(name)s lays a card face down"), { name });
  const [kind, arg] = move.split(" ");
  switch (kind) {
    case "play":
      return fill(gettext("%(name)s lays the %(card)s face down"), { name, card: arg });
    case "top":
      return fill(gettext("%(name)s lays the top card of pile %(pile)s and draws two cards"), { name, pile: pileLabel(ctx, arg) });
    case "keep":
      return fill(gettext("%(name)s keeps the %(card)s and discards the other card face down"), { name, card: arg });
    case "bid":
      return fill(gettext("%(name)s bids %(bid)s"), { name, bid: arg });
    case "withdraw":
      return fill(gettext("%(name)s withdraws"), { name });
    case "colour": {
      const colour = COLOURS[arg];
      return fill(gettext("%(name)s chooses %(colour)s to move the dragon"), { name, colour: colour ? colour() : arg });
    }
    case "burn":
      return fill(gettext("%(name)s chooses mage %(mage)s to take the tile"), { name, mage: pileLabel(ctx, arg) });
    case "close":
      return gettext("The countdown ran out: the auction closes");
    default:
      return null;
  }
}
