// Small helpers shared by the lobby, the table and the replay pages: DOM building,
// translated words for seats, clocks and outcomes.

import { formatTenths } from "../l10n.js";
import { botName, isCastName } from "./bot-names.js";

const catalogue = globalThis;

/** gettext from Django's djangojs catalogue (the page loads /jsi18n/ first). */
export function gettext(text) {
  return typeof catalogue.gettext === "function" ? catalogue.gettext(text) : text;
}

export function ngettext(singular, plural, count) {
  return typeof catalogue.ngettext === "function"
    ? catalogue.ngettext(singular, plural, count)
    : count === 1 ? singular : plural;
}

/** Fill %(name)s placeholders. */
export function fill(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name] ?? ""));
}

/** "a1, b2 and c3" in the page's language. */
export function listWords(items) {
  if (items.length <= 1) return items.join("");
  return fill(gettext("%(first)s and %(last)s"), { first: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

/** el("li", {class: "x", dataset: {seat: 1}, on: {click: f}}, child, "text", ...) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "on") for (const [name, fn] of Object.entries(value)) node.addEventListener(name, fn);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function levelName(level) {
  return { easy: gettext("easy"), medium: gettext("medium"), hard: gettext("hard") }[level] || level;
}

/**
 * How a seat is called: the person's name; a bot's name from its level's cast with
 * its level, "Pomme (robot, easy)"; a seat handed to a bot keeps the person's name,
 * "Zoé (robot)"; or "free seat".
 */
export function seatName(seat) {
  if (!seat) return "";
  if (seat.bot) {
    if (seat.name && !isCastName(seat.name)) return fill(gettext("%(name)s (robot)"), { name: seat.name });
    const name = seat.name || botName(seat.bot, seat.index) || gettext("robot");
    return fill(gettext("%(name)s (robot, %(level)s)"), { name, level: levelName(seat.bot) });
  }
  if (seat.empty) return gettext("free seat");
  return seat.name || fill(gettext("seat %(number)s"), { number: seat.index + 1 });
}

/** 4:05, 0:09.3 under ten seconds, 1 d 03:00 for slow games. */
export function formatClock(ms) {
  const safe = Math.max(0, ms);
  const total = Math.floor(safe / 1000);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days > 0) return fill(gettext("%(days)s d %(hours)s h"), { days, hours: two(hours) });
  if (hours > 0) return `${hours}:${two(minutes)}:${two(seconds)}`;
  if (total < 10) return `0:0${formatTenths(safe / 1000)}`;
  return `${minutes}:${two(seconds)}`;
}

/** A time control in words, as the lobby and the table show it. */
export function clockLabel(clock) {
  if (!clock || clock.kind === "none") return gettext("no clock");
  if (clock.kind === "game") {
    return fill(gettext("%(minutes)s min + %(increment)s s"), {
      minutes: Math.round(clock.base / 60), increment: clock.increment || 0,
    });
  }
  if (clock.seconds >= 86400) {
    const days = Math.round(clock.seconds / 86400);
    return fill(ngettext("%(days)s day a move", "%(days)s days a move", days), { days });
  }
  return fill(gettext("%(seconds)s s a move"), { seconds: clock.seconds });
}

const REASONS = {
  "base-line": () => gettext("the Drumlin reached the base line"),
  "no-elephant": () => gettext("a herd has no elephant left"),
  repetition: () => gettext("the same position came up a third time"),
  stalemate: () => gettext("a player had no legal action"),
  "both-stuck": () => gettext("neither player could move"),
  "all-lit-on-edge": () => gettext("all eight pieces lit and on the edge"),
  "four-in-line": () => gettext("four marked pieces in a line"),
  crossing: () => gettext("all six pieces reached the other side"),
  score: () => gettext("the lowest score"),
  tears: () => gettext("the lowest score, then the most tears"),
  tiles: () => gettext("the lowest score, then the fewest tiles"),
  shared: () => gettext("a shared lowest score"),
  timeout: () => gettext("time ran out"),
  resign: () => gettext("a player resigned"),
  agreement: () => gettext("draw agreed"),
};

export function reasonText(reason) {
  const known = REASONS[reason];
  return known ? known() : reason || "";
}

/** {title, text} for an outcome, from the point of view of `mySeat` (null: a spectator). */
export function outcomeWords(outcome, seats, mySeat) {
  if (!outcome) return { title: gettext("Game called off"), text: gettext("This table ended without a result.") };
  const reason = reasonText(outcome.reason);
  const winners = outcome.winners || [];
  if (winners.length === 0) {
    return { title: gettext("Draw"), text: reason };
  }
  const names = winners.map((index) => seatName(seats[index])).join(", ");
  let title;
  if (mySeat !== null && mySeat !== undefined) {
    title = winners.includes(mySeat) ? gettext("You won!") : gettext("You lost");
  } else {
    title = fill(ngettext("%(names)s wins", "%(names)s win", winners.length), { names });
  }
  const text = fill(ngettext("Winner, %(names)s: %(reason)s.", "Winners, %(names)s: %(reason)s.", winners.length),
    { names, reason });
  return { title, text };
}
