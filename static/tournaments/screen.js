// The tournament screen: its changing part fetched again whenever the
// tournament's version moves (a 204 otherwise), the countdown ticking, and on
// a wide screen (the living room's TV) each table in play drawn small by the
// game's own board module, as a spectator sees it, refreshed every few seconds.
//
// A host's form in use (moving a player, adjudicating a table: form[data-keep])
// is not redrawn: everything around it is, and the form stays as the host left
// it (its choices, the focus, an open list), as long as the new drawing offers
// the same choices; when they changed (a new round), the choices still offered
// are carried over. A form is in use once the host changed it or while it has
// the focus.
import { boardHost, boardStylesheets, lastMoveOf, loadBoard } from "../js/table/boards.js";
import { gettext, seatName } from "../js/table/format.js";

const root = document.querySelector("[data-tournament-screen]");
const part = root && root.querySelector("[data-live-part]");
const EVERY_MS = 2000;
const BOARDS_EVERY_MS = 3000;
const WIDE = window.matchMedia("(min-width: 900px)");
const boards = new Map(); // table id -> {board, node, version}

function tick() {
  for (const el of document.querySelectorAll("[data-countdown]")) {
    const left = Math.max(0, Number(el.dataset.countdown) - 1);
    el.dataset.countdown = String(left);
    el.textContent = el.textContent.replace(/\d+/, String(left));
  }
}

async function poll() {
  try {
    const url = `${root.dataset.live}?v=${encodeURIComponent(root.dataset.version)}`;
    const response = await fetch(url, { headers: { Accept: "text/html" }, cache: "no-store" });
    if (response.status === 200) {
      redraw(await response.text());
      root.dataset.version = response.headers.get("X-Tournament-Version") || root.dataset.version;
      await mountBoards();
    }
  } catch (error) {
    // The network came and went: the next poll catches up.
  }
  setTimeout(poll, EVERY_MS);
}

const KEPT = "form[data-keep]";

function inUse(form) {
  return form.dataset.used === "true" || form.contains(document.activeElement);
}

/** What a form offers: its fields' names with their choices (or fixed values), not the CSRF token. */
function offer(form) {
  return [...form.elements].filter((field) => field.name && field.name !== "csrfmiddlewaretoken").map((field) => {
    if (field.options) return `${field.name}:${[...field.options].map((o) => `${o.value}=${o.text}`).join(",")}`;
    return field.type === "hidden" ? `${field.name}=${field.value}` : field.name;
  }).join("|");
}

/** The new drawing's form keeps the host's choices it still offers. */
function carryChoices(from, to) {
  let carried = false;
  for (const field of from.elements) {
    const twin = field.name && to.elements.namedItem(field.name);
    if (!twin || !twin.options || !field.options) continue;
    if ([...twin.options].some((o) => o.value === field.value)) {
      twin.value = field.value;
      carried = true;
    }
  }
  if (carried) to.dataset.used = "true";
}

/** The child of ``parent`` that holds ``node`` (or is it). */
function childHolding(parent, node) {
  let at = node;
  while (at && at.parentNode !== parent) at = at.parentNode;
  return at;
}

/**
 * Make ``old`` (in the page) look like ``fresh`` while leaving the kept forms
 * (``pairs``: [form in the page, its twin in ``fresh``]) where they are: the
 * branches that hold no kept form are replaced, the ones that do are walked down.
 * Returns false when the kept forms sit in another order: ``dry`` first checks
 * that without changing anything.
 */
function graft(old, fresh, pairs, dry = false) {
  if (pairs.some(([form]) => form === old)) return true; // the form in use itself
  const branches = new Map(); // fresh child -> {old: child of old, pairs}
  for (const pair of pairs) {
    const oldChild = childHolding(old, pair[0]);
    const freshChild = childHolding(fresh, pair[1]);
    const branch = branches.get(freshChild) || { old: oldChild, pairs: [] };
    if (branch.old !== oldChild) return false;
    branch.pairs.push(pair);
    branches.set(freshChild, branch);
  }
  const keptInOld = [...old.childNodes].filter((child) => [...branches.values()].some((b) => b.old === child));
  const keptInFresh = [...fresh.childNodes].filter((child) => branches.has(child)).map((child) => branches.get(child).old);
  if (keptInOld.length !== keptInFresh.length || keptInOld.some((child, i) => child !== keptInFresh[i])) return false;
  if (dry) return [...branches.entries()].every(([child, branch]) => graft(branch.old, child, branch.pairs, true));
  if (old !== part) {
    for (const name of old.getAttributeNames()) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
    for (const name of fresh.getAttributeNames()) old.setAttribute(name, fresh.getAttribute(name));
  }
  for (const child of [...old.childNodes]) if (!keptInOld.includes(child)) child.remove();
  let before = old.firstChild; // the next kept branch: the fresh nodes before it go in front of it
  for (const child of [...fresh.childNodes]) {
    const branch = branches.get(child);
    if (!branch) {
      old.insertBefore(child, before);
      continue;
    }
    graft(branch.old, child, branch.pairs);
    before = branch.old.nextSibling;
  }
  return true;
}

function keptForm(within, key) {
  return [...within.querySelectorAll(KEPT)].find((form) => form.dataset.keep === key);
}

function redraw(html) {
  const fresh = document.createElement("template");
  fresh.innerHTML = html;
  const pairs = [];
  const carried = []; // forms in use whose choices changed: what is still offered is chosen again
  for (const form of part.querySelectorAll(KEPT)) {
    if (!inUse(form)) continue;
    const twin = keptForm(fresh.content, form.dataset.keep);
    if (!twin) continue; // gone (its table finished, the round ended): nothing left to choose there
    (offer(twin) === offer(form) ? pairs : carried).push([form, twin]);
  }
  if (pairs.length && graft(part, fresh.content, pairs, true)) {
    graft(part, fresh.content, pairs);
  } else {
    carried.push(...pairs);
    part.replaceChildren(fresh.content);
  }
  for (const [form] of carried) {
    const now = keptForm(part, form.dataset.keep);
    if (now && now !== form) carryChoices(form, now);
  }
}

async function mountBoards() {
  for (const [table, entry] of boards) {
    if (!entry.node.isConnected) {
      entry.board.destroy();
      boards.delete(table);
    }
  }
  const slots = [...part.querySelectorAll("[data-mini-board]")];
  if (!WIDE.matches || !slots.length) return;
  let module;
  try {
    module = await loadBoard(root.dataset.static, root.dataset.game, boardStylesheets(root));
  } catch (error) {
    return; // no board for this game: the pairings say enough
  }
  for (const slot of slots) {
    const table = slot.dataset.table;
    const board = module.mount(boardHost(slot), { seat: null, gettext, onMove: () => {}, announce: () => {} });
    boards.set(table, { board, node: slot, version: -1, api: slot.dataset.api });
  }
  await refreshBoards();
}

async function refreshBoards() {
  for (const entry of boards.values()) {
    try {
      const response = await fetch(entry.api, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!response.ok) continue;
      const snap = await response.json();
      if (!snap.view || snap.v === entry.version) continue;
      entry.version = snap.v;
      entry.board.update(snap.view, {
        legalMoves: [], lastMove: lastMoveOf(snap.view), toAct: snap.to_act || [], version: snap.v,
        players: snap.seats.map((seat) => ({ seat: seat.index, name: seatName(seat), isBot: Boolean(seat.bot), connected: true })),
        outcome: snap.outcome || null, countdown: null, interactive: false,
      });
    } catch (error) {
      // One board missing a refresh is redrawn at the next.
    }
  }
}

if (root && part) {
  for (const kind of ["input", "change"]) {
    part.addEventListener(kind, (event) => {
      const form = event.target.closest && event.target.closest(KEPT);
      if (form) form.dataset.used = "true";
    });
  }
  setInterval(tick, 1000);
  setTimeout(poll, EVERY_MS);
  mountBoards();
  setInterval(refreshBoards, BOARDS_EVERY_MS);
}
