// Drawing helpers of the Drekki board: elements, text formatting, and the SVG
// pictures (mage cards, card backs, power-colour shapes, burn and tear icons,
// the dragon) shared by the table and the HTML controls.
//
// A power colour is never shown by colour alone: yellow cards carry a circle
// (a sun), red ones a triangle (a flame), black ones a square (a stone), and
// every card names its colour in its accessible label.

export const SVG_NS = "http://www.w3.org/2000/svg";
export const COLOURS = ["yellow", "red", "black"];

/** The power colour of a card value (0-1 yellow, 2-3 red, 4-5 black). */
export function colourOf(card) {
  return COLOURS[Math.floor(card / 2)];
}

/** An SVG element with attributes, appended to ``parent`` when given. */
export function svg(tag, attrs, parent, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(key, String(value));
  }
  if (text !== undefined) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

/** An HTML element with attributes and text, appended to ``parent`` when given. */
export function html(tag, attrs, parent, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "className") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  if (text !== undefined) node.textContent = text;
  if (parent) parent.append(node);
  return node;
}

/** "%(name)s" placeholders filled from ``values`` (the catalogue gives only gettext). */
export function fmt(text, values) {
  return text.replace(/%\((\w+)\)s/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/** A signed move as printed on the tiles: +1, −1 (a real minus sign), 0. */
export function signed(k) {
  if (k > 0) return `+${k}`;
  if (k < 0) return `\u2212${-k}`;
  return "0";
}

/** The shape of a power colour, centred on (x, y), ``r`` its half size. */
export function shape(colour, x, y, r, parent, extraClass = "") {
  const cls = `dk-shape dk-shape-${colour} ${extraClass}`.trim();
  if (colour === "yellow") return svg("circle", { class: cls, cx: x, cy: y, r: r * 0.9 }, parent);
  if (colour === "red") {
    const points = [
      [x, y - r],
      [x + r, y + r * 0.8],
      [x - r, y + r * 0.8],
    ];
    return svg("polygon", { class: cls, points: points.map((p) => p.join(",")).join(" ") }, parent);
  }
  const s = r * 0.8;
  return svg("rect", { class: cls, x: x - s, y: y - s, width: 2 * s, height: 2 * s }, parent);
}

/** A mage card face: value, power colour and its shape, in a w x h box at (x, y). */
export function cardFace(card, x, y, w, h, parent, extraClass = "") {
  const colour = colourOf(card);
  const g = svg("g", { class: `dk-card dk-face dk-card-${colour} ${extraClass}`.trim(), "data-card": card }, parent);
  svg("rect", { class: "dk-card-body", x, y, width: w, height: h, rx: w * 0.14 }, g);
  svg("text", { class: "dk-card-value", x: x + w / 2, y: y + h * 0.62, "font-size": h * 0.5 }, g, String(card));
  shape(colour, x + w * 0.24, y + h * 0.17, w * 0.13, g, "dk-card-mark");
  shape(colour, x + w * 0.76, y + h * 0.86, w * 0.13, g, "dk-card-mark");
  return g;
}

/** A card seen from the back: a pattern, and nothing else. */
export function cardBack(x, y, w, h, parent, extraClass = "") {
  const g = svg("g", { class: `dk-card dk-back ${extraClass}`.trim() }, parent);
  svg("rect", { class: "dk-card-body", x, y, width: w, height: h, rx: w * 0.14 }, g);
  const m = w * 0.18;
  svg("rect", { class: "dk-back-frame", x: x + m, y: y + m, width: w - 2 * m, height: h - 2 * m, rx: w * 0.08 }, g);
  const cx = x + w / 2;
  const cy = y + h / 2;
  const d = w * 0.22;
  svg("polygon", { class: "dk-back-mark", points: `${cx},${cy - d * 1.4} ${cx + d},${cy} ${cx},${cy + d * 1.4} ${cx - d},${cy}` }, g);
  return g;
}

/** An empty place where a card will be laid. */
export function cardSlot(x, y, w, h, parent) {
  return svg("rect", { class: "dk-card-slot", x, y, width: w, height: h, rx: w * 0.14 }, parent);
}

/** A small flame (burns), centred on (x, y). */
export function flame(x, y, r, parent, extraClass = "") {
  const d =
    `M ${x} ${y + r} ` +
    `C ${x - r * 0.95} ${y + r} ${x - r * 0.9} ${y - r * 0.1} ${x - r * 0.2} ${y - r} ` +
    `C ${x - r * 0.15} ${y - r * 0.35} ${x + r * 0.35} ${y - r * 0.3} ${x + r * 0.45} ${y - r * 0.75} ` +
    `C ${x + r * 1.0} ${y - r * 0.1} ${x + r * 0.9} ${y + r} ${x} ${y + r} Z`;
  return svg("path", { class: `dk-flame ${extraClass}`.trim(), d }, parent);
}

/** A small tear drop, centred on (x, y). */
export function tear(x, y, r, parent, extraClass = "") {
  const d =
    `M ${x} ${y - r} ` +
    `C ${x + r * 0.2} ${y - r * 0.4} ${x + r * 0.75} ${y} ${x + r * 0.75} ${y + r * 0.35} ` +
    `A ${r * 0.75} ${r * 0.75} 0 0 1 ${x - r * 0.75} ${y + r * 0.35} ` +
    `C ${x - r * 0.75} ${y} ${x - r * 0.2} ${y - r * 0.4} ${x} ${y - r} Z`;
  return svg("path", { class: `dk-tear ${extraClass}`.trim(), d }, parent);
}

/** A burn marker (5-6 players): a small disc with its value. */
export function marker(x, y, r, value, parent) {
  const g = svg("g", { class: "dk-marker" }, parent);
  svg("circle", { cx: x, cy: y, r }, g);
  svg("text", { x, y: y + r * 0.4, "font-size": r * 1.2 }, g, String(value));
  return g;
}

/** The dragon, pointing along +x, its snout at (x, 0). */
export function dragon(x, parent) {
  const g = svg("g", { class: "dk-dragon-head" }, parent);
  // Two wings behind a head that ends in a snout, and an eye: a silhouette, not colour, says "dragon".
  svg("path", { class: "dk-dragon-wing", d: `M ${x - 30} 0 L ${x - 44} -20 L ${x - 26} -9 Z M ${x - 30} 0 L ${x - 44} 20 L ${x - 26} 9 Z` }, g);
  svg("path", { class: "dk-dragon-body", d: `M ${x} 0 L ${x - 14} -10 L ${x - 34} -7 L ${x - 28} 0 L ${x - 34} 7 L ${x - 14} 10 Z` }, g);
  svg("circle", { class: "dk-dragon-eye", cx: x - 12, cy: -4, r: 2 }, g);
  return g;
}

/** The symbol of an auction type, centred on (x, y), in a box of side 2r. */
export function auctionIcon(type, x, y, r, parent) {
  const g = svg("g", { class: `dk-auction-icon dk-auction-${type}` }, parent);
  svg("circle", { class: "dk-auction-ring", cx: x, cy: y, r }, g);
  if (type === "infinite") {
    // A lemniscate: the auction goes round and round.
    const a = r * 0.55;
    const b = r * 0.35;
    svg("path", {
      class: "dk-auction-line",
      d: `M ${x} ${y} C ${x + b} ${y - b} ${x + a * 1.4} ${y - b} ${x + a * 1.4} ${y} C ${x + a * 1.4} ${y + b} ${x + b} ${y + b} ${x} ${y} ` +
        `C ${x - b} ${y - b} ${x - a * 1.4} ${y - b} ${x - a * 1.4} ${y} C ${x - a * 1.4} ${y + b} ${x - b} ${y + b} ${x} ${y} Z`,
    }, g);
  } else if (type === "unique") {
    svg("text", { class: "dk-auction-glyph", x, y: y + r * 0.42, "font-size": r * 1.2 }, g, "1");
  } else {
    // A lightning bolt: anybody, at any moment.
    const s = r * 0.7;
    svg("polygon", {
      class: "dk-auction-bolt",
      points: `${x + s * 0.2},${y - s} ${x - s * 0.55},${y + s * 0.1} ${x - s * 0.05},${y + s * 0.1} ${x - s * 0.2},${y + s} ${x + s * 0.55},${y - s * 0.1} ${x + s * 0.05},${y - s * 0.1}`,
    }, g);
  }
  return g;
}

/** A standalone inline SVG picture for HTML controls. */
export function picture(width, height, viewBox, className) {
  return svg("svg", { class: className, width, height, viewBox, "aria-hidden": "true", focusable: "false" });
}
