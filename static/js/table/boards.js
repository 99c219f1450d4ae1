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
// keys; never uses colour as the only cue (shapes, marks, letters); explains an
// impossible attempt with options.announce; calls options.onMove only with a string
// of ctx.legalMoves. destroy() removes its listeners and its nodes.
//
// What the shell does (static/js/table/main.js, static/js/replay.js): the players,
// clocks, presence, the move list, chat, draw / resign / rematch, the end of the
// game, and the server's error messages. A board never talks to the socket.

/** Load the board module of `slug`; resolves to the module (with its mount). */
export async function loadBoard(staticPrefix, slug) {
  if (!/^[a-z0-9-]+$/.test(slug)) throw new Error(`bad game slug ${slug}`);
  const module = await import(`${staticPrefix}js/boards/${slug}.js`);
  if (typeof module.mount !== "function") throw new Error(`board ${slug} exports no mount()`);
  return module;
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
