// The Drekki board: the mages round the table, the dragon tile facing its target,
// your hand (or, in the duel, your piles), the auction with its countdown, the
// reveal and the dragon's flight, the tied-colour choice, the duel's choice of the
// burned mage when a charm breaks, and the final scores.
//
// Everything is drawn from the seat's view (rules.view(state, seat), see
// games/engines/drekki/views.py) and the shell's ctx; a move is only ever one
// of ctx.legalMoves. Another mage's laid card is never in the view before the
// reveal, so the board has nothing to hide: a laid card it does not know is a
// card back.
//
// Board contract: mount(host, options) -> {update(view, ctx), destroy()}. Its styles
// are in static/css/boards-drekki.css, which the page loads before mounting it.

import {
  COLOURS,
  auctionIcon,
  cardBack,
  cardFace,
  cardSlot,
  colourOf,
  dragon,
  flame,
  fmt,
  html,
  marker,
  picture,
  shape,
  signed,
  svg,
  tear,
} from "./drekki-draw.js";

let gettext = (text) => text;

// Rows of buttons that are one Tab stop each, walked with the arrow keys.
const ROVING_ROWS = ".dk-cards, .dk-bids";

/** A box whose content may scroll sideways (a wide table on a phone): reachable by Tab,
 *  so that it can be scrolled with the keyboard, and named. */
function scrollRegion(parent, label) {
  return html("div", { className: "dk-scroll", tabindex: "0", role: "region", "aria-label": label }, parent);
}

// -- geometry of the table (SVG user units) ----------------------------------------------
// Two layouts: "wide", the dragon tile in the middle of the ring of mages; "narrow"
// (a phone), a taller ring with only the dragon inside and the tile drawn below it.
const PLATE_W = 170;
const PLATE_H = 74;
const GEOMETRY = {
  wide: {
    viewBox: "-302 -212 604 424",
    rx: 212,
    ry: 156,
    orbit: 112, // the dragon's snout, from the centre
    dragonScale: 1,
    tile: { x: -68, y: -54, w: 136, h: 108, layout: "centre" },
    angles: null, // evenly round the table
  },
  narrow: {
    viewBox: null, // from the number of mages, see geometryFor()
    rx: 114,
    ry: 175,
    orbit: 58,
    dragonScale: 0.72,
    tile: { x: -190, y: 0, w: 380, h: 116, layout: "below" },
    // Fixed seats (degrees, clockwise from the bottom) so that no two plates overlap.
    angles: { 3: [90, 215, 325], 4: [90, 180, 270, 0], 5: [90, 150, 215, 325, 30], 6: [90, 145, 215, 270, 325, 35] },
  },
};
const NARROW_RY = { 3: 112, 4: 140, 5: 175, 6: 175 }; // by number of mages

/** The layout for a board ``name`` ("wide" or "narrow"), ``mages`` round the table, with or without the tile. */
function geometryFor(name, mages, withTile) {
  const base = GEOMETRY[name];
  if (name === "wide") return base;
  const ry = NARROW_RY[mages] || 175;
  const top = -(ry + 40);
  const ringBottom = ry + 50;
  const tile = { ...base.tile, y: ringBottom + 6 };
  const bottom = withTile ? tile.y + tile.h + 6 : ringBottom;
  return { ...base, ry, tile, viewBox: `-200 ${top} 400 ${bottom - top}` };
}
const NARROW_BELOW = 600; // px: a board narrower than this uses the narrow layout
const STEP_MS = 700; // one leg of the dragon's flight (the CSS transition lasts as long)
const FLIP_MS = 450;

function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** Every UI string, through the page's catalogue (French first: see djangojs.po). */
function texts() {
  return {
    colour: {
      yellow: gettext("yellow"),
      red: gettext("red"),
      black: gettext("black"),
    },
    shapeName: {
      yellow: gettext("circle"),
      red: gettext("triangle"),
      black: gettext("square"),
    },
    auctionName: {
      infinite: gettext("infinite auction"),
      unique: gettext("unique auction"),
      live: gettext("live auction"),
    },
    auctionHeading: {
      infinite: gettext("Infinite auction"),
      unique: gettext("Unique auction"),
      live: gettext("Live auction"),
    },
    auctionHelp: {
      infinite: gettext("In turn, each mage still in raises or withdraws for good, until one is left."),
      unique: gettext("Each mage speaks once, in turn: the highest bid wins."),
      live: gettext("Anyone still in may raise at any moment; when nobody raises before the countdown ends, the highest bid wins."),
    },
    seatN: gettext("Seat %(n)s"),
    you: gettext("you"),
    bot: gettext("bot"),
    away: gettext("away"),
    toPlay: gettext("to play"),
    out: gettext("withdrawn"),
    bidTag: gettext("bid %(bid)s"),
    boardLabel: gettext("Drekki table"),
    tableSummary: gettext("Round %(round)s of %(rounds)s. The dragon faces %(name)s."),
    round: gettext("Round %(round)s of %(rounds)s"),
    hordeLeft: gettext("Still to come: %(list)s"),
    hordeItem: gettext("%(count)s × %(burns)s burns"),
    hordeNone: gettext("Still to come: nothing, this is the last dragon."),
    // Prompts
    promptPlay: gettext("Your turn: lay a card face down."),
    promptTop: gettext("Your turn: lay the top card of one of your piles (you will see it), then choose from the other pile."),
    promptKeep: gettext("Choose which of the two drawn cards to lay; the other is discarded face down."),
    promptOpen: gettext("You open the auction: you must bid."),
    promptBid: gettext("Your turn to speak: raise or withdraw."),
    promptLive: gettext("Live auction: raise whenever you like, or withdraw."),
    promptColour: gettext("The colours are tied: choose the one that moves the dragon."),
    promptBurn: gettext("Your charm broke: choose which of your mages takes the tile."),
    waitingCards: gettext("The mages are choosing their cards: waiting for %(names)s."),
    waitingBid: gettext("Auction: %(name)s to speak."),
    waitingLive: gettext("Live auction: waiting for a raise from %(names)s."),
    waitingColour: gettext("%(name)s picks the colour that moves the dragon."),
    waitingBurn: gettext("%(name)s picks which of their mages takes the tile."),
    gameOver: gettext("The game is over: the whole horde has passed."),
    // The tile
    tileTitle: gettext("The dragon"),
    tileBurns: gettext("%(burns)s burns"),
    tileFirst: gettext("1st"),
    auctionShort: {
      infinite: gettext("infinite"),
      unique: gettext("unique"),
      live: gettext("live"),
    },
    tileDescribe: gettext("Dragon %(id)s: %(burns)s burns, %(auction)s. It faces %(name)s."),
    movesTitle: gettext("Where the dragon goes, by majority colour"),
    movesHead: gettext("Colour"),
    movesFirst: gettext("Move"),
    movesSecond: gettext("Second move (5–6 players)"),
    movesOnly56: gettext("The second move is used only at 5 and 6 players."),
    movesLegend: gettext("+1: one mage to the left (clockwise, the way the auction goes); −1: one to the right; 0: it stays."),
    reconstruction: gettext("Tile faces are a reconstruction until the printed tiles are transcribed."),
    // Auction
    high: gettext("Highest bid: %(bid)s, by %(name)s."),
    noBid: gettext("No bid yet: %(name)s, whom the dragon faces, opens and must bid."),
    maxTotal: gettext("The cards can show at most %(max)s."),
    bidMeaning: gettext("A bid of N claims the revealed total is at least N."),
    stateIn: gettext("still in"),
    stateOut: gettext("withdrawn"),
    stateSpeaks: gettext("speaks now"),
    stateLeads: gettext("highest bid"),
    stateSpoke: gettext("has spoken"),
    yourBid: gettext("Your bid"),
    bidButton: gettext("Bid %(bid)s"),
    withdraw: gettext("Withdraw"),
    withdrawHelp: gettext("Leave this auction for good."),
    countdown: gettext("Goes to %(name)s in %(seconds)s s unless someone raises."),
    countdownLabel: gettext("Time left before the live auction closes"),
    countdownEnded: gettext("The countdown has run out: the auction closes."),
    // Hand and piles
    handTitle: gettext("Your hand"),
    handTitleDuel: gettext("Your mages"),
    laidCard: gettext("Laid face down this round:"),
    nothingLaid: gettext("No card laid yet this round."),
    playCard: gettext("Lay %(card)s"),
    cardLabel: gettext("%(value)s, %(colour)s (%(shape)s)"),
    notNow: gettext("You cannot lay a card now."),
    notNowBidding: gettext("The cards are laid: this is the auction, bid or withdraw."),
    notYourTurn: gettext("It is not your turn."),
    alreadyLaid: gettext("You have already laid your card this round."),
    handRefill: gettext("When a hand is down to one card, the mage takes all six back."),
    pileOf: gettext("Mage %(label)s"),
    pileCount: gettext("Pile: %(count)s cards"),
    pileHolds: gettext("The pile holds (order unknown): %(cards)s"),
    pileEmpty: gettext("The pile is empty: it is rebuilt from this colour's discards when needed."),
    discardedDown: gettext("Discarded face down: %(cards)s"),
    shownDiscards: gettext("Revealed before: %(cards)s"),
    topButton: gettext("Lay the top card of %(label)s"),
    keepTitle: gettext("You drew two cards for %(label)s: lay one, the other is discarded face down."),
    keepButton: gettext("Lay %(card)s"),
    tearPool: gettext("Tear tokens left: %(count)s (drawn face down)."),
    // Colour choice
    colourTitle: gettext("Tied colours"),
    colourRevealed: gettext("Revealed: %(cards)s = %(total)s; the bid was %(bid)s: the charm holds."),
    colourButton: gettext("%(colour)s: the dragon goes to %(name)s"),
    colourButton2: gettext("%(colour)s: the dragon goes to %(first)s, then %(second)s"),
    colourTied: gettext("Tied: %(colours)s."),
    // Burned mage choice (duel)
    burnTitle: gettext("The charm breaks"),
    burnRevealed: gettext("Revealed: %(cards)s = %(total)s; the bid was %(bid)s: the charm breaks."),
    burnExplain: gettext("%(name)s takes the tile (%(burns)s burns) on one of their mages, chosen by them; the dragon does not move, and the next one faces that mage."),
    burnButton: gettext("Mage %(label)s takes the tile"),
    // Reveal
    revealTitle: gettext("Last round"),
    revealNone: gettext("No round played yet."),
    revealCards: gettext("Round %(round)s, dragon %(tile)s: %(cards)s = %(total)s."),
    revealBroken: gettext("%(name)s bid %(bid)s, more than the total: the charm breaks and %(name)s is burned."),
    revealBrokenMage: gettext("%(name)s bid %(bid)s, more than the total: the charm breaks and mage %(label)s is burned."),
    revealHeld: gettext("%(name)s bid %(bid)s, no more than the total: the charm holds. %(name)s takes a tear and is immune."),
    revealColour: gettext("Majority colour: %(colour)s."),
    revealStop: gettext("The dragon goes from %(from)s to %(to)s: %(to)s is burned."),
    revealStopImmune: gettext("The dragon goes from %(from)s to %(to)s, who is immune: nobody is burned, the tile is discarded."),
    revealStopMarker: gettext("First stop: %(to)s takes a marker."),
    revealStopMarkerImmune: gettext("First stop: %(to)s, immune, takes nothing."),
    revealStopTile: gettext("Second stop: %(to)s takes the tile."),
    revealStopTileImmune: gettext("Second stop: %(to)s, immune, takes nothing."),
    announceBid: gettext("%(name)s bids %(bid)s."),
    announceOut: gettext("%(name)s withdraws."),
    // Seats and scores
    seatsTitle: gettext("Mages"),
    colPlayer: gettext("Player"),
    colBurns: gettext("Burns"),
    colTears: gettext("Tears"),
    colMarkers: gettext("Markers"),
    colScore: gettext("Score"),
    colHolding: gettext("May hold"),
    colPiles: gettext("Piles"),
    scoreHelp: gettext("Score = burns − tears; the lowest wins."),
    hidden: gettext("hidden"),
    burnsTitle: gettext("burns"),
    tearsTitle: gettext("tears"),
    markersTitle: gettext("markers"),
    scoreTitle: gettext("score"),
    // Final
    finalTitle: gettext("Final scores"),
    colRank: gettext("Rank"),
    colPieces: gettext("Tiles and markers"),
    reasonScore: gettext("%(names)s wins with the lowest score."),
    reasonTears: gettext("Tied on score: %(names)s wins with the most tear tokens."),
    reasonTiles: gettext("Tied on score and tears: %(names)s wins with the fewest tiles and markers."),
    reasonShared: gettext("Tied on score, tears, and tiles and markers: %(names)s share the win."),
    reasonOther: gettext("Winners: %(names)s."),
    and: gettext(" and "),
  };
}

/** The seat's "play"/"bid"/... moves, sorted into what the board needs. */
function sortMoves(legal) {
  const moves = { play: new Map(), top: new Map(), keep: new Map(), bid: new Map(), colour: new Map(), burn: new Map(), withdraw: null };
  for (const move of legal || []) {
    const [kind, arg] = move.split(" ");
    if (kind === "withdraw") moves.withdraw = move;
    else if (kind === "play" || kind === "keep" || kind === "bid") moves[kind].set(Number(arg), move);
    else if (kind === "top" || kind === "colour" || kind === "burn") moves[kind].set(arg, move);
  }
  return moves;
}

class DrekkiBoard {
  constructor(host, options) {
    this.host = host;
    this.options = options;
    this.t = texts();
    this.view = null;
    this.ctx = null;
    this.tiles = new Map(); // every tile face seen in a view, by id (to replay a round's flight)
    this.dragonAngle = null; // unwrapped, in degrees
    this.timers = [];
    this.tick = null;
    this.fallbackDeadline = null;
    this.fallbackKey = null;
    this.buttons = new Map(); // key -> button, kept from one drawing to the next
    this.usedButtons = new Set();

    this.root = html("div", { className: "drekki" }, host);
    this.statusLine = html("p", { className: "dk-status", "data-dk": "status" }, this.root);
    this.prompt = html("p", { className: "dk-prompt", "data-dk": "prompt" }, this.root);

    const layout = html("div", { className: "dk-layout" }, this.root);
    const tableBox = html("div", { className: "dk-table-box" }, layout);
    this.svg = svg("svg", { class: "dk-table", role: "img", "aria-label": this.t.boardLabel }, tableBox);
    this.svgTitle = svg("title", {}, this.svg);
    this.cloth = svg("ellipse", { class: "dk-cloth", cx: 0, cy: 0 }, this.svg);
    this.tileGroup = svg("g", { class: "dk-tile" }, this.svg);
    this.dragonGroup = svg("g", { class: "dk-dragon", transform: "rotate(90)" }, this.svg);
    this.dragonShape = svg("g", {}, this.dragonGroup);
    this.platesGroup = svg("g", { class: "dk-plates" }, this.svg);
    this.geoKey = null;
    this.geo = GEOMETRY.wide;
    if (window.ResizeObserver) {
      this.resizer = new ResizeObserver(() => {
        if (this.view && this.fitGeometry()) {
          this.renderTable(null);
          this.jumpDragon(this.direction(this.view.facing));
        }
      });
      this.resizer.observe(this.root);
    }

    const side = html("div", { className: "dk-side" }, layout);
    this.auctionBox = html("section", { className: "dk-panel dk-auction", "data-dk": "auction" }, side);
    this.choiceBox = html("section", { className: "dk-panel dk-choice", "data-dk": "choice" }, side);
    this.handBox = html("section", { className: "dk-panel dk-hand", "data-dk": "hand" }, side);
    this.revealBox = html("section", { className: "dk-panel dk-reveal", "data-dk": "reveal" }, side);
    this.tileBox = html("section", { className: "dk-panel dk-tile-info", "data-dk": "tile" }, side);

    this.finalBox = html("section", { className: "dk-panel dk-final", "data-dk": "final" }, this.root);
    this.seatsBox = html("section", { className: "dk-panel dk-seats", "data-dk": "seats" }, this.root);

    this.root.addEventListener("click", (event) => this.onClick(event));
    this.root.addEventListener("keydown", (event) => this.onRowKey(event));
  }

  // -- keyboard: a row of cards (or of bids) is one Tab stop, the arrows move along it ---

  /** Roving tabindex: in each row, the button that last had the focus keeps the Tab stop
   *  (buttons are kept from one drawing to the next), else the first that can be played. */
  rove() {
    for (const row of this.root.querySelectorAll(ROVING_ROWS)) {
      const buttons = [...row.querySelectorAll("button")];
      if (!buttons.length) continue;
      const stop = buttons.find((b) => b.getAttribute("tabindex") === "0")
        || buttons.find((b) => b.dataset.move) || buttons[0];
      for (const b of buttons) b.setAttribute("tabindex", b === stop ? "0" : "-1");
    }
  }

  onRowKey(event) {
    const button = event.target.closest ? event.target.closest("button") : null;
    const row = button ? button.closest(ROVING_ROWS) : null;
    if (!row) return;
    const buttons = [...row.querySelectorAll("button")];
    let index = buttons.indexOf(button);
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (event.key === "Home") index = 0;
    else if (event.key === "End") index = buttons.length - 1;
    else if (step) index = (index + step + buttons.length) % buttons.length;
    else return;
    event.preventDefault();
    for (const b of buttons) b.setAttribute("tabindex", b === buttons[index] ? "0" : "-1");
    buttons[index].focus();
  }

  // -- who is who --------------------------------------------------------------------------

  seatName(seat) {
    const player = (this.ctx?.players || []).find((p) => p.seat === seat);
    return player?.name || fmt(this.t.seatN, { n: seat + 1 });
  }

  player(seat) {
    return (this.ctx?.players || []).find((p) => p.seat === seat) || null;
  }

  mageName(m) {
    const info = this.view.mages[m];
    if (this.view.players === 2) return `${info.label} · ${this.seatName(info.owner)}`;
    return this.seatName(info.owner);
  }

  mySeat() {
    const seat = this.view?.seat ?? this.options.seat;
    return seat === undefined ? null : seat;
  }

  myMages() {
    const seat = this.mySeat();
    if (seat === null || !this.view.seats[seat]) return [];
    return this.view.seats[seat].mages;
  }

  names(seats) {
    return seats.map((s) => this.seatName(s)).join(", ");
  }

  // -- geometry ----------------------------------------------------------------------------

  /** Choose the layout for the board's width and the view; true if it changed. */
  fitGeometry() {
    const width = this.root.getBoundingClientRect().width || this.host.getBoundingClientRect().width || 1000;
    const name = width < NARROW_BELOW ? "narrow" : "wide";
    const key = `${name}/${this.mageCount()}/${Boolean(this.view.tile)}`;
    if (key === this.geoKey) return false;
    this.geoKey = key;
    this.geo = geometryFor(name, this.mageCount(), Boolean(this.view.tile));
    this.root.dataset.layout = name;
    this.svg.setAttribute("viewBox", this.geo.viewBox);
    this.cloth.setAttribute("rx", String(this.geo.rx + 22));
    this.cloth.setAttribute("ry", String(this.geo.ry + 26));
    this.dragonShape.replaceChildren();
    this.dragonShape.setAttribute("transform", `scale(${this.geo.dragonScale})`);
    dragon(this.geo.orbit / this.geo.dragonScale, this.dragonShape);
    return true;
  }

  mageCount() {
    return this.view.mages.length;
  }

  /** Where mage m sits: the viewer's (first) mage at the bottom, then clockwise. */
  place(m) {
    const n = this.mageCount();
    const mine = this.myMages();
    const base = mine.length ? mine[0] : 0;
    const rel = (((m - base) % n) + n) % n;
    const fixed = this.geo.angles && this.geo.angles[n];
    const degrees = fixed ? fixed[rel] : 90 + (rel * 360) / n;
    const a = (degrees * Math.PI) / 180;
    return { x: this.geo.rx * Math.cos(a), y: this.geo.ry * Math.sin(a) };
  }

  /** The direction (degrees) from the centre to mage m. */
  direction(m) {
    const p = this.place(m);
    return (Math.atan2(p.y, p.x) * 180) / Math.PI;
  }

  /** The unwrapped angle for mage m reached from ``from`` by a move of ``k`` seats (null: shortest). */
  angleTowards(from, m, k) {
    const target = this.direction(m);
    let delta = ((((target - from) % 360) + 540) % 360) - 180; // in [-180, 180)
    if (k === null || k === undefined) return from + delta;
    if (k > 0 && delta <= 0.5) delta += 360;
    if (k < 0 && delta >= -0.5) delta -= 360;
    if (k === 0) delta = 0;
    return from + delta;
  }

  setDragon(angle) {
    this.dragonAngle = angle;
    this.dragonGroup.setAttribute("transform", `rotate(${angle.toFixed(2)})`);
  }

  // -- updates ------------------------------------------------------------------------------

  update(view, ctx) {
    if (!view || view.game !== "drekki") return;
    const previous = this.view;
    // The shell also calls update for the same version (presence, a move on its way):
    // then only the controls change, and a flight under way goes on.
    const sameVersion = previous !== null && this.ctx?.version === ctx?.version && previous.round === view.round && previous.phase === view.phase;
    this.view = view;
    this.ctx = ctx || {};
    this.root.dataset.version = String(this.ctx.version ?? "");
    this.root.dataset.phase = view.phase;
    if (view.tile) this.tiles.set(view.tile.id, view.tile);
    this.moves = sortMoves(this.ctx.interactive === false ? [] : this.ctx.legalMoves);

    const focusKey = this.root.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const fresh = sameVersion ? null : this.freshRound(previous);
    this.usedButtons = new Set();
    if (this.fitGeometry() && previous) this.jumpDragon(this.direction(view.facing));

    this.renderStatus();
    if (!sameVersion || !this.root.classList.contains("dk-flying")) this.renderTable(fresh);
    this.renderTile();
    this.renderAuction();
    this.renderChoice();
    this.renderHand();
    this.renderReveal();
    this.renderSeats();
    this.renderFinal();
    if (!sameVersion) {
      this.clearTimers();
      this.animate(previous, fresh);
      this.announceChanges(previous, fresh);
    }
    this.startCountdown();

    for (const key of [...this.buttons.keys()]) if (!this.usedButtons.has(key)) this.buttons.delete(key);
    this.rove();
    if (focusKey && document.activeElement?.dataset?.key !== focusKey) {
      const again = this.root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
  }

  /** A button kept from one drawing to the next (same key, same node): a click under
   *  way, or the keyboard focus, is not lost when an update redraws its panel.
   *  ``fill`` draws its content, again only when ``content`` changes. */
  button(key, attrs, content, fill) {
    let node = this.buttons.get(key);
    if (!node) {
      node = document.createElement("button");
      node.type = "button";
      node.dataset.key = key;
      this.buttons.set(key, node);
    }
    this.usedButtons.add(key);
    node.className = attrs.className || "";
    node.disabled = false;
    for (const name of ["data-move", "data-why", "aria-disabled", "aria-label", "title"]) {
      const value = attrs[name];
      if (value === undefined || value === null || value === false) node.removeAttribute(name);
      else node.setAttribute(name, String(value));
    }
    if (node.dataset.content !== content) {
      node.dataset.content = content;
      node.replaceChildren();
      fill(node);
    }
    return node;
  }

  /** The round that ended between the previous view and this one (history or a tie's reveal). */
  freshRound(previous) {
    if (!previous) return null;
    const h = this.view.history;
    if (h.length === previous.history.length + 1) return { kind: "round", round: h[h.length - 1], index: h.length };
    // The cards turn face up while the winner chooses (a tied colour, or the duel's burned mage).
    if (this.view.revealed && !previous.revealed) return { kind: "tie" };
    return null;
  }

  destroy() {
    this.clearTimers();
    this.resizer?.disconnect();
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
    this.root.remove();
  }

  clearTimers() {
    for (const id of this.timers) clearTimeout(id);
    this.timers = [];
  }

  later(ms, fn) {
    this.timers.push(setTimeout(fn, ms));
  }

  onClick(event) {
    const button = event.target.closest("button[data-move], button[data-why]");
    if (!button || !this.root.contains(button)) return;
    if (button.dataset.why) {
      this.options.announce?.(button.dataset.why);
      return;
    }
    const move = button.dataset.move;
    if (!(this.ctx?.legalMoves || []).includes(move) || this.ctx.interactive === false) {
      this.options.announce?.(this.t.notYourTurn);
      return;
    }
    // One move per version: the buttons wait for the next update.
    for (const other of this.root.querySelectorAll("button[data-move]")) other.disabled = true;
    this.options.onMove(move);
  }

  // -- status line and prompt -------------------------------------------------------------

  renderStatus() {
    const v = this.view;
    const t = this.t;
    if (v.phase === "over") {
      this.statusLine.textContent = t.gameOver;
    } else {
      const parts = [fmt(t.round, { round: v.round, rounds: v.rounds })];
      const left = Object.entries(v.horde_left || {}).filter(([, count]) => count > 0);
      parts.push(
        left.length
          ? fmt(t.hordeLeft, { list: left.map(([burns, count]) => fmt(t.hordeItem, { count, burns })).join(", ") })
          : t.hordeNone,
      );
      this.statusLine.textContent = parts.join(" · ");
    }
    this.prompt.textContent = this.promptText();
    this.prompt.classList.toggle("dk-your-turn", (this.ctx.legalMoves || []).length > 0 && this.ctx.interactive !== false);
  }

  promptText() {
    const v = this.view;
    const t = this.t;
    const m = this.moves;
    const toAct = this.ctx.toAct || v.to_act || [];
    if (v.phase === "over") return "";
    if (m.play.size) return t.promptPlay;
    if (m.top.size) return t.promptTop;
    if (m.keep.size) return t.promptKeep;
    if (m.colour.size) return t.promptColour;
    if (m.burn.size) return t.promptBurn;
    if (m.bid.size) {
      if (v.auction && v.auction.high === null) return t.promptOpen;
      return v.auction?.type === "live" ? t.promptLive : t.promptBid;
    }
    let text = "";
    if (v.phase === "cards") text = fmt(t.waitingCards, { names: this.names(toAct) });
    else if (v.phase === "colour") text = fmt(t.waitingColour, { name: this.names(toAct) });
    else if (v.phase === "burn") text = fmt(t.waitingBurn, { name: this.names(toAct) });
    else if (v.phase === "bidding") {
      if (v.auction?.turn !== null && v.auction?.turn !== undefined) text = fmt(t.waitingBid, { name: this.seatName(v.auction.turn) });
      else text = fmt(t.waitingLive, { names: this.names(toAct) });
    }
    return text;
  }

  // -- the table (SVG) -------------------------------------------------------------------------

  /** What lies in front of mage m on the table: "back", "face" (with card), "previous" or "empty". */
  slotOf(m) {
    const v = this.view;
    const info = v.mages[m];
    if (v.revealed) return { kind: "face", card: v.revealed[m] };
    if (info.laid) {
      if (info.card !== undefined && info.card !== null) return { kind: "mine", card: info.card };
      return { kind: "back" };
    }
    const last = v.history[v.history.length - 1];
    if (last && v.phase !== "over") return { kind: "previous", card: last.cards[m] };
    if (last) return { kind: "face", card: last.cards[m] };
    return { kind: "empty" };
  }

  renderTable(fresh) {
    const v = this.view;
    const t = this.t;
    const plates = this.platesGroup;
    plates.replaceChildren();
    const auction = v.auction;
    const toAct = new Set(this.ctx.toAct || v.to_act || []);
    const last = v.history[v.history.length - 1] || null;
    const burnedLast = last ? this.burnsOf(last) : new Map();
    const W = PLATE_W;
    const H = PLATE_H;

    for (let m = 0; m < this.mageCount(); m++) {
      const info = v.mages[m];
      const owner = info.owner;
      const seatInfo = v.seats[owner];
      const p = this.place(m);
      const mine = owner === this.mySeat();
      const acting = toAct.has(owner) && v.phase !== "over" && !(v.phase === "cards" && this.mageDone(m));
      const classes = ["dk-plate"];
      if (mine) classes.push("dk-mine");
      if (acting) classes.push("dk-acting");
      if (m === v.facing && v.phase !== "over") classes.push("dk-faced");
      if (auction && auction.out.includes(owner)) classes.push("dk-withdrawn");
      const g = svg("g", { class: classes.join(" "), transform: `translate(${p.x.toFixed(1)} ${p.y.toFixed(1)})`, "data-mage": m }, plates);
      svg("rect", { class: "dk-plate-body", x: -W / 2, y: -H / 2, width: W, height: H, rx: 10 }, g);

      // The card laid this round (a back), or the last revealed one.
      const slot = this.slotOf(m);
      const cx = -W / 2 + 7;
      const cy = -H / 2 + 8;
      const cw = 38;
      const ch = 56;
      if (slot.kind === "back") cardBack(cx, cy, cw, ch, g, "dk-laid");
      else if (slot.kind === "mine") {
        cardFace(slot.card, cx, cy, cw, ch, g, "dk-laid dk-mine-laid");
      } else if (slot.kind === "face" || slot.kind === "previous") {
        const flip = fresh && (fresh.kind === "tie" || (fresh.kind === "round" && slot.kind === "previous"));
        cardFace(slot.card, cx, cy, cw, ch, g, `dk-revealed${slot.kind === "previous" ? " dk-previous" : ""}${flip ? " dk-flip" : ""}`);
      } else cardSlot(cx, cy, cw, ch, g);

      // Name, then what the mage is doing, then burns, tears and score.
      const tx = cx + cw + 8;
      const right = W / 2 - 7;
      svg("text", { class: "dk-name", x: tx, y: -H / 2 + 22 }, g, truncate(this.mageName(m), 13));
      const tags = [];
      if (mine) tags.push(t.you);
      const who = this.player(owner);
      if (who?.isBot) tags.push(t.bot);
      if (who && who.connected === false && !who.isBot) tags.push(t.away);
      if (auction && auction.out.includes(owner)) tags.push(t.out);
      else if (auction && auction.leader === owner && auction.high !== null) tags.push(fmt(t.bidTag, { bid: auction.high }));
      if (acting) tags.push(t.toPlay);
      const showMarkers = v.players >= 5;
      svg("text", { class: "dk-tags", x: tx, y: -H / 2 + 42 }, g, truncate(tags.join(" · "), showMarkers ? 14 : 18));
      if (showMarkers) {
        const mk = marker(right - 7, -H / 2 + 37, 7, info.markers.length, g);
        mk.append(svgTitle(`${t.markersTitle}: ${info.markers.join(", ") || "0"}`));
      }

      const sy = H / 2 - 11;
      const burns = svg("g", { class: "dk-stat-group" }, g);
      flame(tx + 6, sy - 5, 7, burns);
      svg("text", { class: "dk-stat", x: tx + 15, y: sy }, burns, String(this.mageBurns(m)));
      burns.append(svgTitle(t.burnsTitle));
      if (!(v.players === 2 && m !== seatInfo.mages[0])) {
        // In the duel, tears and score belong to the player: shown once, by the first mage.
        const tears = svg("g", { class: "dk-stat-group" }, g);
        tear(tx + 48, sy - 5, 7, tears);
        svg("text", { class: "dk-stat", x: tx + 57, y: sy }, tears, String(seatInfo.tears));
        tears.append(svgTitle(t.tearsTitle));
        const score = seatInfo.score === null || seatInfo.score === undefined ? "?" : String(seatInfo.score).replace("-", "\u2212");
        svg("text", { class: "dk-stat dk-score", x: right, y: sy }, g, `=${score}`).append(svgTitle(t.scoreTitle));
      }

      // What the last round did to this mage: a flame with the burns taken, a tear for the winner.
      const took = burnedLast.get(m);
      if (took) {
        const badge = svg("g", { class: "dk-badge dk-badge-burn", transform: `translate(${W / 2 - 2} ${-H / 2})` }, g);
        const inner = svg("g", { class: fresh?.kind === "round" ? "dk-fresh" : "" }, badge);
        svg("circle", { r: 13 }, inner);
        flame(0, -1, 8, inner, "dk-badge-flame");
        svg("text", { class: "dk-badge-text", x: -18, y: 5 }, inner, `+${took}`);
        badge.append(svgTitle(fmt(t.tileBurns, { burns: took })));
      }
      if (last && last.charm === "held" && owner === last.leader && m === seatInfo.mages[0]) {
        const badge = svg("g", { class: "dk-badge dk-badge-tear", transform: `translate(${-W / 2 + 2} ${-H / 2})` }, g);
        svg("circle", { r: 11 }, badge);
        tear(0, 0, 7, badge);
        badge.append(svgTitle(t.tearsTitle));
      }
    }

    const facing = v.phase === "over" ? null : this.mageName(v.facing);
    this.svgTitle.textContent = facing
      ? `${t.boardLabel}. ${fmt(t.tableSummary, { round: v.round, rounds: v.rounds, name: facing })}`
      : t.boardLabel;
    this.dragonGroup.classList.toggle("dk-hidden", v.phase === "over");
    this.drawTile();
  }

  /** Has mage m laid its card(s) this round? (The duel's second mage waits for the first.) */
  mageDone(m) {
    return Boolean(this.view.mages[m].laid);
  }

  ownerOf(m) {
    return this.view.mages[m].owner;
  }

  mageBurns(m) {
    const info = this.view.mages[m];
    let burns = info.markers.reduce((a, b) => a + b, 0);
    for (const id of info.tiles) burns += this.tileBurns(id);
    return burns;
  }

  /** A tile's burns: from a face seen before, else from its id (docs/notation.md: burns first). */
  tileBurns(id) {
    const seen = this.tiles.get(id);
    if (seen) return seen.burns;
    const n = parseInt(String(id).split("-")[0], 10);
    return Number.isFinite(n) ? n : 0;
  }

  /** Mage -> burns it took in a finished round. */
  burnsOf(round) {
    const took = new Map();
    const burns = this.tileBurns(round.tile);
    if (round.charm === "broken") {
      took.set(round.stops[0], burns);
      return took;
    }
    for (const m of round.stops) {
      if (this.ownerOf(m) !== round.leader) took.set(m, (took.get(m) || 0) + burns);
    }
    return took;
  }

  /** The dragon tile: burns, id, auction symbol and the movement table, from the view's tile. */
  drawTile() {
    const v = this.view;
    const t = this.t;
    const g = this.tileGroup;
    g.replaceChildren();
    const tile = v.tile;
    if (!tile) return;
    const { x, y, w, h, layout } = this.geo.tile;
    const unused = v.players >= 5 ? "" : " dk-unused";
    svg("rect", { class: "dk-tile-body", x, y, width: w, height: h, rx: 12 }, g);
    flame(x + 18, y + 18, 11, g, "dk-tile-flame");
    svg("text", { class: "dk-tile-burns", x: x + 33, y: y + 27 }, g, String(tile.burns));
    if (layout === "centre") {
      svg("text", { class: "dk-tile-id", x: x + w / 2, y: y + 24 }, g, tile.id);
      auctionIcon(tile.auction, x + w - 18, y + 18, 12, g);
      // One row per power colour; the 5-6 column greyed below 5 players.
      const c0 = x + 30;
      const c1 = x + w / 2 + 6;
      const c2 = x + w - 22;
      const head = y + 46;
      svg("text", { class: "dk-tile-head", x: c1, y: head }, g, t.tileFirst);
      svg("text", { class: `dk-tile-head${unused}`, x: c2, y: head }, g, "5–6");
      svg("line", { class: "dk-tile-rule", x1: x + 8, y1: head + 4, x2: x + w - 8, y2: head + 4 }, g);
      COLOURS.forEach((colour, i) => {
        const ry = head + 20 + i * 17;
        shape(colour, c0, ry - 5, 6.5, g);
        svg("text", { class: "dk-tile-move", x: c1, y: ry }, g, signed(tile.moves[colour]));
        svg("text", { class: `dk-tile-move${unused}`, x: c2, y: ry }, g, signed(tile.moves_5_6[colour]));
      });
      return;
    }
    // Below the ring: burns and auction on the left, the table across on the right.
    svg("text", { class: "dk-tile-id dk-start", x: x + 12, y: y + 50 }, g, tile.id);
    auctionIcon(tile.auction, x + 24, y + 80, 13, g);
    svg("text", { class: "dk-tile-auction", x: x + 44, y: y + 85 }, g, t.auctionShort[tile.auction]);
    const left = x + w - 220;
    const rows = [y + 54, y + 90];
    svg("text", { class: "dk-tile-head dk-end", x: left + 24, y: rows[0] }, g, t.tileFirst);
    svg("text", { class: `dk-tile-head dk-end${unused}`, x: left + 24, y: rows[1] }, g, "5–6");
    COLOURS.forEach((colour, i) => {
      const cx = left + 60 + i * 56;
      shape(colour, cx, y + 22, 8, g);
      svg("text", { class: "dk-tile-move", x: cx, y: rows[0] }, g, signed(tile.moves[colour]));
      svg("text", { class: `dk-tile-move${unused}`, x: cx, y: rows[1] }, g, signed(tile.moves_5_6[colour]));
    });
    svg("line", { class: "dk-tile-rule", x1: left + 30, y1: y + 34, x2: x + w - 10, y2: y + 34 }, g);
    svg("line", { class: "dk-tile-rule", x1: left + 10, y1: y + 8, x2: left + 10, y2: y + h - 8 }, g);
  }

  // -- the dragon's flight and the reveal --------------------------------------------------------

  animate(previous, fresh) {
    const v = this.view;
    this.root.classList.remove("dk-flying");
    if (v.phase === "over") {
      if (this.dragonAngle === null) this.setDragon(90);
      return;
    }
    const finalAngle = (from) => this.angleTowards(from, v.facing, null);
    if (this.dragonAngle === null || !previous) {
      // First drawing: no flight, the dragon just faces its mage.
      this.jumpDragon(this.direction(v.facing));
      return;
    }
    if (!fresh || fresh.kind !== "round" || reducedMotion()) {
      this.setDragon(finalAngle(this.dragonAngle));
      return;
    }
    // A round ended: the cards flip, then the dragon flies stop by stop.
    const round = fresh.round;
    const tile = this.tiles.get(round.tile);
    const legs = [];
    let angle = this.angleTowards(this.dragonAngle, round.facing, null);
    legs.push(angle);
    if (round.charm === "broken") {
      angle = this.angleTowards(angle, round.stops[0], null);
      legs.push(angle);
    } else {
      let from = round.facing;
      round.stops.forEach((stop, i) => {
        const table = i === 0 ? tile?.moves : tile?.moves_5_6;
        const k = table ? table[round.colour] : null;
        if (stop !== from || k) angle = this.angleTowards(angle, stop, k);
        legs.push(angle);
        from = stop;
      });
    }
    const end = this.angleTowards(angle, v.facing, null);
    if (end !== angle) legs.push(end);
    this.setDragon(legs[0]);
    legs.slice(1).forEach((a, i) => this.later(FLIP_MS + i * STEP_MS, () => this.setDragon(a)));
    this.root.classList.add("dk-flying");
    this.later(FLIP_MS + legs.length * STEP_MS, () => this.root.classList.remove("dk-flying"));
  }

  /** Place the dragon without a transition. */
  jumpDragon(angle) {
    this.dragonGroup.classList.add("dk-no-transition");
    this.setDragon(angle);
    // Force the style so the next change transitions again.
    void this.dragonGroup.getBoundingClientRect();
    this.dragonGroup.classList.remove("dk-no-transition");
  }

  // -- the tile, in words --------------------------------------------------------------------

  renderTile() {
    const v = this.view;
    const t = this.t;
    const box = this.tileBox;
    box.replaceChildren();
    if (!v.tile) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    html("h3", {}, box, t.tileTitle);
    const tile = v.tile;
    html(
      "p",
      { "data-dk": "tile-summary" },
      box,
      fmt(t.tileDescribe, { id: tile.id, burns: tile.burns, auction: t.auctionName[tile.auction], name: this.mageName(v.facing) }),
    );
    const table = html("table", { className: "dk-moves" }, box);
    html("caption", {}, table, t.movesTitle);
    const head = html("tr", {}, html("thead", {}, table));
    html("th", { scope: "col" }, head, t.movesHead);
    html("th", { scope: "col" }, head, t.movesFirst);
    html("th", { scope: "col", className: v.players >= 5 ? "" : "dk-unused" }, head, t.movesSecond);
    const body = html("tbody", {}, table);
    for (const colour of COLOURS) {
      const row = html("tr", {}, body);
      const th = html("th", { scope: "row" }, row);
      th.append(colourChip(colour, t));
      html("td", {}, row, signed(tile.moves[colour]));
      html("td", { className: v.players >= 5 ? "" : "dk-unused" }, row, signed(tile.moves_5_6[colour]));
    }
    const notes = html("p", { className: "dk-note" }, box, t.movesLegend);
    if (v.players < 5) notes.append(` ${t.movesOnly56}`);
    html("p", { className: "dk-note" }, box, t.reconstruction);
  }

  // -- the auction ------------------------------------------------------------------------------

  renderAuction() {
    const v = this.view;
    const t = this.t;
    const box = this.auctionBox;
    box.replaceChildren();
    const a = v.auction;
    if (!a || v.phase !== "bidding") {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const title = html("h3", {}, box);
    const icon = picture(26, 26, "-14 -14 28 28", "dk-icon");
    auctionIcon(a.type, 0, 0, 12, icon);
    title.append(icon, ` ${t.auctionHeading[a.type]}`);
    html("p", { className: "dk-note" }, box, t.auctionHelp[a.type]);
    html(
      "p",
      { className: "dk-high", "data-dk": "high" },
      box,
      a.high === null ? fmt(t.noBid, { name: this.seatName(a.opener) }) : fmt(t.high, { bid: a.high, name: this.seatName(a.leader) }),
    );

    // Who is still in.
    const list = html("ul", { className: "dk-bidders" }, box);
    const n = v.players;
    for (let k = 0; k < n; k++) {
      const seat = (a.opener + k) % n;
      let state = t.stateIn;
      let cls = "dk-in";
      if (a.out.includes(seat)) {
        state = t.stateOut;
        cls = "dk-out";
      } else if (a.leader === seat && a.high !== null) {
        state = t.stateLeads;
        cls = "dk-leads";
      } else if (a.turn === seat) {
        state = t.stateSpeaks;
        cls = "dk-speaks";
      } else if (a.type === "unique" && a.turn !== null && ((seat - a.opener + n) % n) < ((a.turn - a.opener + n) % n)) {
        state = t.stateSpoke;
        cls = "dk-spoke";
      }
      const item = html("li", { className: cls }, list);
      html("span", { className: "dk-bidder-name" }, item, this.seatName(seat));
      html("span", { className: "dk-bidder-state" }, item, state);
    }

    // The live auction's countdown.
    const clock = this.countdownInfo();
    if (clock) {
      const wrap = html("div", { className: "dk-countdown", "data-dk": "countdown" }, box);
      this.countdownText = html("p", { className: "dk-countdown-text" }, wrap);
      wrap.dataset.deadline = String(Math.round(clock.deadline));
      this.countdownBar = html("progress", { max: String(clock.total), value: String(clock.total), "aria-label": t.countdownLabel }, wrap);
      this.countdownFor = this.seatName(clock.seat);
    } else {
      this.countdownText = null;
      this.countdownBar = null;
    }

    // My bids.
    if (this.moves.bid.size || this.moves.withdraw) {
      const mine = html("div", { className: "dk-bid-controls", role: "group", "aria-label": t.yourBid }, box);
      html("p", { className: "dk-note" }, mine, `${t.bidMeaning} ${fmt(t.maxTotal, { max: a.max })}`);
      const grid = html("div", { className: "dk-bids" }, mine);
      for (const [bid, move] of this.moves.bid) {
        grid.append(this.button(move, { className: "dk-bid", "data-move": move, "aria-label": fmt(t.bidButton, { bid }) }, String(bid), (b) => b.append(String(bid))));
      }
      if (this.moves.withdraw) {
        const move = this.moves.withdraw;
        mine.append(this.button(move, { className: "secondary dk-withdraw", "data-move": move, title: t.withdrawHelp }, t.withdraw, (b) => b.append(t.withdraw)));
      }
    } else {
      html("p", { className: "dk-note" }, box, fmt(t.maxTotal, { max: a.max }));
    }
  }

  /** The live auction's deadline: from ctx.countdown, else measured from the view (fallback). */
  countdownInfo() {
    const v = this.view;
    const total = (v.options?.live_countdown || 15) * 1000;
    const c = this.ctx.countdown;
    if (c && typeof c.deadline === "number") {
      this.fallbackDeadline = null;
      return { seat: c.seat, deadline: c.deadline, total };
    }
    if (v.countdown && v.auction && v.auction.high !== null) {
      // The shell gave no deadline: count from when this bid was first seen.
      const key = `${v.round}:${v.auction.high}:${v.auction.leader}`;
      if (key !== this.fallbackKey) {
        this.fallbackKey = key;
        this.fallbackDeadline = Date.now() + v.countdown.seconds * 1000;
      }
      return { seat: v.countdown.seat, deadline: this.fallbackDeadline, total };
    }
    this.fallbackKey = null;
    return null;
  }

  startCountdown() {
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
    const clock = this.countdownText ? this.countdownInfo() : null;
    if (!clock) return;
    const show = () => {
      if (!this.countdownText) return;
      const left = Math.max(0, clock.deadline - Date.now());
      this.countdownBar.value = Math.min(clock.total, left);
      this.countdownText.textContent =
        left > 0 ? fmt(this.t.countdown, { name: this.countdownFor, seconds: Math.ceil(left / 1000) }) : this.t.countdownEnded;
      this.countdownText.closest(".dk-countdown")?.classList.toggle("dk-urgent", left < 5000);
    };
    show();
    this.tick = setInterval(show, 250);
  }

  // -- the tied colour -----------------------------------------------------------------------

  renderChoice() {
    const v = this.view;
    const box = this.choiceBox;
    box.replaceChildren();
    box.hidden = !v.revealed || (v.phase !== "colour" && v.phase !== "burn");
    if (box.hidden) return;
    box.dataset.choice = v.phase;
    if (v.phase === "colour") this.renderColourChoice(box);
    else this.renderBurnChoice(box);
  }

  renderColourChoice(box) {
    const v = this.view;
    const t = this.t;
    html("h3", {}, box, t.colourTitle);
    const total = v.revealed.reduce((a, b) => a + b, 0);
    const p = html("p", {}, box);
    p.append(
      fmt(t.colourRevealed, {
        cards: v.revealed.map((c) => `${c}`).join(" + "),
        total,
        bid: v.auction?.high ?? "?",
      }),
    );
    html("p", {}, box, fmt(t.colourTied, { colours: (v.colours || []).map((c) => t.colour[c]).join(", ") }));
    const group = html("div", { className: "dk-colours" }, box);
    for (const colour of v.colours || []) {
      const move = this.moves.colour.get(colour);
      const [first, second] = this.flight(colour);
      const label = second === undefined
        ? fmt(t.colourButton, { colour: t.colour[colour], name: this.mageName(first) })
        : fmt(t.colourButton2, { colour: t.colour[colour], first: this.mageName(first), second: this.mageName(second) });
      if (move) {
        group.append(this.button(move, { className: "dk-colour-choice", "data-move": move }, label, (b) => b.append(shapeChip(colour), ` ${label}`)));
      } else {
        html("p", { className: "dk-colour-choice" }, group).append(shapeChip(colour), ` ${label}`);
      }
    }
  }

  /** Duel, broken charm: the winner picks which of its two mages takes the tile. */
  renderBurnChoice(box) {
    const v = this.view;
    const t = this.t;
    html("h3", {}, box, t.burnTitle);
    const total = v.revealed.reduce((a, b) => a + b, 0);
    html("p", {}, box, fmt(t.burnRevealed, { cards: v.revealed.map((c) => `${c}`).join(" + "), total, bid: v.auction?.high ?? "?" }));
    const winner = v.auction?.leader ?? (v.to_act || [])[0];
    html("p", {}, box, fmt(t.burnExplain, { name: this.seatName(winner), burns: v.tile?.burns ?? "?" }));
    const group = html("div", { className: "dk-colours", role: "group", "aria-label": t.burnTitle }, box);
    // Clockwise from the faced mage, in the view as in the legal moves.
    const labels = (v.burn || []).map((m) => v.mages[m].label);
    for (const label of labels) {
      const text = fmt(t.burnButton, { label });
      const move = this.moves.burn.get(label);
      if (move) group.append(this.button(move, { className: "dk-colour-choice dk-burn-choice", "data-move": move }, text, (b) => b.append(text)));
      else html("p", { className: "dk-colour-choice dk-burn-choice" }, group, text);
    }
  }

  /** Where the dragon would stop if ``colour`` moved it now (one stop, or two at 5-6 players). */
  flight(colour) {
    const v = this.view;
    const n = this.mageCount();
    const tile = v.tile;
    const first = (((v.facing + tile.moves[colour]) % n) + n) % n;
    if (v.players < 5) return [first];
    const second = (((first + tile.moves_5_6[colour]) % n) + n) % n;
    return [first, second];
  }

  // -- the hand (3-6 players) or the piles (duel) ------------------------------------------------

  renderHand() {
    const v = this.view;
    const box = this.handBox;
    box.replaceChildren();
    const seat = this.mySeat();
    if (seat === null || v.phase === "over") {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    if (v.players === 2) this.renderPiles(box);
    else this.renderCards(box);
  }

  renderCards(box) {
    const v = this.view;
    const t = this.t;
    const info = v.mages[this.myMages()[0]];
    html("h3", {}, box, t.handTitle);
    const row = html("div", { className: "dk-cards", role: "group", "aria-label": t.handTitle }, box);
    const why = v.phase === "cards" ? (info.laid ? t.alreadyLaid : t.notYourTurn) : v.phase === "bidding" ? t.notNowBidding : t.notNow;
    for (const card of info.hand || []) {
      const move = this.moves.play.get(card);
      row.append(this.cardButton(card, move, why, "play"));
    }
    const laid = html("p", { className: "dk-laid-line" }, box);
    if (info.card !== null && info.card !== undefined) {
      laid.append(`${t.laidCard} `, cardLabelChip(info.card, t));
    } else laid.textContent = t.nothingLaid;
    html("p", { className: "dk-note" }, box, t.handRefill);
  }

  cardButton(card, move, why, prefix) {
    const t = this.t;
    const colour = colourOf(card);
    const label = fmt(t.cardLabel, { value: card, colour: t.colour[colour], shape: t.shapeName[colour] });
    // Named by its content, not an aria-label: what is seen (the value, the colour word)
    // is part of what is heard, "Lay 3, red (triangle)".
    const name = move ? fmt(t.playCard, { card: label }) : label;
    const attrs = { className: `dk-card-button dk-card-${colour}` };
    if (move) attrs["data-move"] = move;
    else {
      attrs["aria-disabled"] = "true";
      attrs["data-why"] = why;
    }
    return this.button(`${prefix} ${card}`, attrs, name, (button) => {
      const pic = picture(48, 70, "0 0 48 70", "dk-card-picture");
      cardFace(card, 2, 2, 44, 66, pic);
      button.append(pic);
      html("span", { className: "visually-hidden" }, button, name);
      html("span", { className: "dk-card-caption", "aria-hidden": "true" }, button, t.colour[colour]);
    });
  }

  renderPiles(box) {
    const v = this.view;
    const t = this.t;
    html("h3", {}, box, t.handTitleDuel);
    for (const m of this.myMages()) {
      const info = v.mages[m];
      const part = html("div", { className: "dk-pile", "data-dk": `pile-${info.label}` }, box);
      html("h4", {}, part, fmt(t.pileOf, { label: info.label }));
      const pile = html("p", {}, part);
      const pic = picture(24, 34, "0 0 24 34", "dk-pile-picture");
      if (info.pile > 0) cardBack(1, 1, 22, 32, pic);
      else cardSlot(1, 1, 22, 32, pic);
      pile.append(pic, ` ${fmt(t.pileCount, { count: info.pile })}`);
      if (info.contents && info.contents.length) {
        const holds = html("p", { className: "dk-note" }, part, `${fmt(t.pileHolds, { cards: "" })}`);
        for (const c of info.contents) holds.append(cardLabelChip(c, t), " ");
      } else if (info.pile === 0) html("p", { className: "dk-note" }, part, t.pileEmpty);
      if (info.discarded && info.discarded.length) html("p", { className: "dk-note" }, part, fmt(t.discardedDown, { cards: info.discarded.join(" ") }));
      if (info.shown && info.shown.length) html("p", { className: "dk-note" }, part, fmt(t.shownDiscards, { cards: info.shown.join(" ") }));
      const laid = html("p", { className: "dk-laid-line" }, part);
      if (info.card !== null && info.card !== undefined) laid.append(`${t.laidCard} `, cardLabelChip(info.card, t));
      else laid.textContent = t.nothingLaid;
      const top = this.moves.top.get(info.label);
      if (top) {
        const text = fmt(t.topButton, { label: info.label });
        part.append(this.button(top, { className: "dk-top", "data-move": top }, text, (b) => b.append(text)));
      }
      if (info.offer && info.offer.length) {
        html("p", {}, part, fmt(t.keepTitle, { label: info.label }));
        const row = html("div", { className: "dk-cards", role: "group" }, part);
        for (const card of info.offer) row.append(this.cardButton(card, this.moves.keep.get(card), t.notYourTurn, "keep"));
      }
    }
    if (typeof v.tear_pool === "number") html("p", { className: "dk-note" }, box, fmt(t.tearPool, { count: v.tear_pool }));
  }

  // -- the last round, in words ------------------------------------------------------------------

  renderReveal() {
    const box = this.revealBox;
    box.replaceChildren();
    const v = this.view;
    const t = this.t;
    html("h3", {}, box, t.revealTitle);
    const last = v.history[v.history.length - 1];
    if (!last) {
      html("p", { className: "dk-note" }, box, t.revealNone);
      return;
    }
    for (const line of this.roundSentences(last, v.history.length)) html("p", {}, box, line);
  }

  roundSentences(round, number) {
    const t = this.t;
    const cards = round.cards.map((c) => `${c} (${t.colour[colourOf(c)]})`).join(" + ");
    const lines = [fmt(t.revealCards, { round: number, tile: round.tile, cards, total: round.total })];
    const winner = this.seatName(round.leader);
    if (round.charm === "broken") {
      if (this.view.players === 2) lines.push(fmt(t.revealBrokenMage, { name: winner, bid: round.bid, label: this.view.mages[round.stops[0]].label }));
      else lines.push(fmt(t.revealBroken, { name: winner, bid: round.bid }));
      return lines;
    }
    lines.push(fmt(t.revealHeld, { name: winner, bid: round.bid }));
    lines.push(fmt(t.revealColour, { colour: t.colour[round.colour] }));
    const immune = (m) => this.ownerOf(m) === round.leader;
    if (round.stops.length === 1) {
      const to = this.mageName(round.stops[0]);
      const from = this.mageName(round.facing);
      lines.push(fmt(immune(round.stops[0]) ? t.revealStopImmune : t.revealStop, { from, to }));
    } else {
      const [a, b] = round.stops;
      lines.push(fmt(immune(a) ? t.revealStopMarkerImmune : t.revealStopMarker, { to: this.mageName(a) }));
      lines.push(fmt(immune(b) ? t.revealStopTileImmune : t.revealStopTile, { to: this.mageName(b) }));
    }
    return lines;
  }

  // -- the mages' table of scores ------------------------------------------------------------------

  renderSeats() {
    const v = this.view;
    const t = this.t;
    const box = this.seatsBox;
    box.replaceChildren();
    if (v.phase === "over") {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    html("h3", {}, box, t.seatsTitle);
    const wrap = scrollRegion(box, t.seatsTitle);
    const table = html("table", { className: "dk-scores" }, wrap);
    const head = html("tr", {}, html("thead", {}, table));
    const cols = [t.colPlayer, t.colBurns, t.colTears];
    if (v.players >= 5) cols.push(t.colMarkers);
    cols.push(t.colScore, v.players === 2 ? t.colPiles : t.colHolding);
    for (const c of cols) html("th", { scope: "col" }, head, c);
    const body = html("tbody", {}, table);
    for (const s of v.seats) {
      const row = html("tr", { className: s.seat === this.mySeat() ? "dk-mine" : "" }, body);
      const th = html("th", { scope: "row" }, row, this.seatName(s.seat));
      if (this.player(s.seat)?.isBot) html("span", { className: "dk-bot-tag" }, th, t.bot);
      if (s.seat === this.mySeat()) html("span", { className: "dk-you-tag" }, th, t.you);
      html("td", {}, row, String(s.burns));
      const tears = html("td", {}, row, String(s.tears));
      if (s.tear_values && s.tear_values.some((x) => x !== 1)) tears.append(` (${s.tear_values.join("+")})`);
      if (v.players >= 5) html("td", {}, row, s.mages.map((m) => v.mages[m].markers.join("+") || "0").join(" "));
      html("td", {}, row, s.score === null || s.score === undefined ? t.hidden : String(s.score));
      const last = html("td", { className: "dk-holding" }, row);
      if (v.players === 2) {
        last.textContent = s.mages.map((m) => `${v.mages[m].label}: ${v.mages[m].pile}`).join(" · ");
      } else {
        for (const c of v.mages[s.mages[0]].holding || []) last.append(cardLabelChip(c, t), " ");
      }
    }
    html("p", { className: "dk-note" }, box, t.scoreHelp);
  }

  // -- the end --------------------------------------------------------------------------------

  renderFinal() {
    const v = this.view;
    const t = this.t;
    const box = this.finalBox;
    box.replaceChildren();
    if (v.phase !== "over") {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    html("h3", {}, box, t.finalTitle);
    const pieces = (s) => s.mages.reduce((n, m) => n + v.mages[m].tiles.length + v.mages[m].markers.length, 0);
    const score = (s) => (s.score === null || s.score === undefined ? s.burns - s.tears : s.score);
    const order = [...v.seats].sort((a, b) => score(a) - score(b) || b.tears - a.tears || pieces(a) - pieces(b));
    const table = html("table", { className: "dk-scores dk-final-table" }, scrollRegion(box, t.finalTitle));
    const head = html("tr", {}, html("thead", {}, table));
    for (const c of [t.colRank, t.colPlayer, t.colBurns, t.colTears, t.colScore, t.colPieces]) html("th", { scope: "col" }, head, c);
    const body = html("tbody", {}, table);
    let rank = 0;
    let previous = null;
    order.forEach((s, i) => {
      const key = `${score(s)}/${s.tears}/${pieces(s)}`;
      if (key !== previous) rank = i + 1;
      previous = key;
      const outcome = this.ctx.outcome || v.outcome;
      const winner = outcome ? outcome.winners.includes(s.seat) : rank === 1;
      const row = html("tr", { className: winner ? "dk-winner" : "" }, body);
      html("td", {}, row, winner ? `${rank} ★` : String(rank));
      const th = html("th", { scope: "row" }, row, this.seatName(s.seat));
      if (this.player(s.seat)?.isBot) html("span", { className: "dk-bot-tag" }, th, t.bot);
      if (s.seat === this.mySeat()) html("span", { className: "dk-you-tag" }, th, t.you);
      html("td", {}, row, String(s.burns));
      html("td", {}, row, String(s.tears));
      html("td", {}, row, String(score(s)));
      html("td", {}, row, String(pieces(s)));
    });
    const outcome = this.ctx.outcome || v.outcome;
    if (outcome) {
      const names = outcome.winners.map((s) => this.seatName(s)).join(t.and);
      const reasons = { score: t.reasonScore, tears: t.reasonTears, tiles: t.reasonTiles, shared: t.reasonShared };
      html("p", { className: "dk-final-reason", "data-dk": "reason" }, box, fmt(reasons[outcome.reason] || t.reasonOther, { names }));
    }
    html("p", { className: "dk-note" }, box, t.scoreHelp);
  }

  // -- words for the live region ---------------------------------------------------------------

  announceChanges(previous, fresh) {
    const say = this.options.announce;
    if (!say || !previous) return;
    const v = this.view;
    const t = this.t;
    const lines = [];
    if (fresh?.kind === "round") lines.push(...this.roundSentences(fresh.round, v.history.length));
    const a = v.auction;
    const b = previous.auction;
    // On the table page the shell says every bid and withdrawal in its polite region
    // (speech.js): said here too, each was heard twice.
    if (this.options.speaksMoves) {
      // Only the round's reveal (which no move says) and the prompt below.
    } else if (a && b && v.round === previous.round) {
      if (a.high !== null && (a.high !== b.high || a.leader !== b.leader)) lines.push(fmt(t.announceBid, { name: this.seatName(a.leader), bid: a.high }));
      for (const seat of a.out) if (!b.out.includes(seat)) lines.push(fmt(t.announceOut, { name: this.seatName(seat) }));
    } else if (a && !b && a.high !== null) {
      lines.push(fmt(t.announceBid, { name: this.seatName(a.leader), bid: a.high }));
    }
    // The prompt is said once per turn (and again when it changes), not at every update
    // of the same turn (a live auction's bids by others repeated it each time).
    const acting = (this.ctx.legalMoves || []).length > 0 && this.ctx.interactive !== false;
    const prompt = acting ? this.promptText() : null;
    if (prompt && prompt !== this.saidPrompt) lines.push(prompt);
    this.saidPrompt = prompt;
    if (lines.length) say(lines.join(" "));
  }
}

// -- small pieces ------------------------------------------------------------------------------

function truncate(text, n) {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

function svgTitle(text) {
  return svg("title", {}, null, text);
}

/** A colour's shape and name, for HTML text. */
function colourChip(colour, t) {
  const span = html("span", { className: `dk-chip dk-chip-${colour}` });
  const pic = picture(14, 14, "-7 -7 14 14", "dk-chip-shape");
  shape(colour, 0, 0, 6, pic);
  span.append(pic, ` ${t.colour[colour]}`);
  return span;
}

/** A colour's shape alone (the words around it name the colour). */
function shapeChip(colour) {
  const pic = picture(14, 14, "-7 -7 14 14", "dk-chip-shape");
  shape(colour, 0, 0, 6, pic);
  return pic;
}

/** A card value with its colour's shape, for HTML text. */
function cardLabelChip(card, t) {
  const colour = colourOf(card);
  const span = html("span", { className: `dk-chip dk-chip-${colour}`, title: t.colour[colour] });
  const pic = picture(14, 14, "-7 -7 14 14", "dk-chip-shape");
  shape(colour, 0, 0, 6, pic);
  span.append(pic, String(card));
  return span;
}

export function mount(host, options) {
  gettext = options.gettext || ((text) => text);
  const board = new DrekkiBoard(host, options);
  return {
    update: (view, ctx) => board.update(view, ctx),
    destroy: () => board.destroy(),
  };
}
