// The board contract: the single reference for every board module.
//
// A board is an ES module at static/js/boards/<slug>.js (the engine's slug). The
// table page and the replay page load it with a dynamic import of
// `${staticPrefix}js/boards/${slug}.js` and call its one export:
//
//   mount(host, options) -> {update(view, ctx), destroy()}
//
// host     an empty <div class="board-host">; the board owns everything inside it.
// options  {
//   seat:     number | null   the seat this person holds; null for spectators and replays
//   gettext:  function        Django's gettext from the djangojs catalogue (every string
//                             the board shows goes through it; French first, English second)
//   onMove:   function(move)  play `move`, a string taken from ctx.legalMoves
//   announce: function(text)  say something in the page's aria-live region: what a
//                             move did, why an attempt is not possible, in words
//   speaksMoves: boolean      true on the table page, whose shell says every move in
//                             words in a polite live region of its own (speech.js): the
//                             board then does not announce the other side's moves
// }
//
// update(view, ctx) is called on every new version (and once right after mount):
// view     exactly rules.view(state, seat) as the server sent it for this seat
//          (the spectator view when seat is null); draw from it and nothing else.
// ctx      {
//   legalMoves:  string[]   this seat's legal moves now, in the game's notation; empty
//                           when it is not this seat's turn, for spectators, in replays.
//                           During a multi-step turn it holds the follow-up choices.
//   lastMove:    string | null   the last move played (by anyone), when it is public
//   toAct:       number[]   seats expected to act (several in simultaneous phases)
//   version:     number     the table's version this view belongs to
//   players:     [{seat, name, isBot, connected}]   one per seat, in seat order
//   outcome:     {winners, scores, reason} | null
//   countdown:   {seat, move, deadline} | null   the rules' own countdown (Drekki's live
//                           auction); deadline is a local time in ms since the epoch
//   interactive: boolean    false in replays and for spectators
// }
//
// What a board does: draws SVG from the view only; lets the player click (or focus and
// press Enter/Space on) a piece to see its legal destinations, derived from
// ctx.legalMoves by parsing the notation; moves by a click on a destination or by a
// drag; guides multi-step turns; highlights ctx.lastMove; moves focus with the arrow
// keys, the board being one Tab stop (roving tabindex: one square holds tabindex="0",
// the others "-1"; never a focus listener on the <svg> itself, which Chromium would make a
// Tab stop of its own); never uses colour as the only cue (shapes, marks, letters); explains an
// impossible attempt with options.announce; calls options.onMove only with a string
// of ctx.legalMoves. destroy() removes its listeners and its nodes.
//
// What a screen reader reads of a board: each square (cell, tile) is a focusable node with
// data-square and an aria-label that says what stands there ("d4, pion blanc"); a square
// that holds a piece has data-owner or a child of class "piece". The table's "read the
// position" key (Alt+P, static/js/table/typed.js) reads the labels of those squares (Drekki,
// which has no squares, is read from its data-dk panels).
//
// Styles: a board's own styles, if it has any, are in static/css/boards-<slug>.css
// (which may @import a stylesheet shared by several boards, as the Karo boards do).
// The page lists that file in data-board-css when it exists
// (games.pages.board_stylesheets); the shell adds it to the document and mounts the
// board only once it has loaded, so a board is never seen unstyled and never adds a
// stylesheet itself.
//
// What the shell does (static/js/table/main.js, static/js/replay.js): the players,
// clocks, presence, the move list, chat, draw / resign / rematch, the end of the
// game, and the server's error messages. A board never talks to the socket.

/**
 * Load the board module of `slug` and its stylesheets (URLs, see boardStylesheets);
 * resolves to the module (with its mount) once both are there.
 */
export async function loadBoard(staticPrefix, slug, stylesheets = []) {
  if (!/^[a-z0-9-]+$/.test(slug)) throw new Error(`bad game slug ${slug}`);
  const [module] = await Promise.all([
    import(`${staticPrefix}js/boards/${slug}.js`),
    ...stylesheets.map((href) => loadStylesheet(href)),
  ]);
  if (typeof module.mount !== "function") throw new Error(`board ${slug} exports no mount()`);
  return module;
}

/** The board's stylesheets a page lists in its data-board-css attribute (space-separated URLs). */
export function boardStylesheets(root) {
  return (root.dataset.boardCss || "").split(/\s+/).filter(Boolean);
}

const stylesheets = new Map(); // absolute URL -> Promise, resolved once the sheet has loaded

/**
 * Add <link rel="stylesheet" href=`href`> to the document's head (once) and resolve
 * when it has loaded, its @imports included. A sheet that fails to load resolves too,
 * after a warning: an unstyled board is better than none.
 */
export function loadStylesheet(href) {
  const url = new URL(href, document.baseURI).href;
  if (!stylesheets.has(url)) {
    stylesheets.set(url, new Promise((resolve) => {
      const present = [...document.querySelectorAll('link[rel="stylesheet"]')].find((link) => link.href === url);
      if (present && present.sheet) {
        resolve();
        return;
      }
      const link = present || document.createElement("link");
      link.addEventListener("load", () => resolve(), { once: true });
      link.addEventListener("error", () => {
        console.warn(`the board's stylesheet ${url} could not be loaded`);
        resolve();
      }, { once: true });
      if (!present) {
        link.rel = "stylesheet";
        link.href = url;
        link.dataset.boardCss = "";
        document.head.append(link);
      }
    }));
  }
  return stylesheets.get(url);
}

/** A fresh, empty host for a board inside `slot`. */
export function boardHost(slot) {
  slot.replaceChildren();
  const host = document.createElement("div");
  host.className = "board-host";
  slot.append(host);
  return host;
}

/** The text of the last move a view shows, whatever its shape ("Ea3-a5" or {seat, move}). */
export function lastMoveOf(view) {
  const last = view ? view.last_move : null;
  if (typeof last === "string") return last;
  if (last && typeof last.move === "string") return last.move;
  return null;
}
