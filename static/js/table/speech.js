// What a screen reader hears at a table without looking: every move as it arrives
// (the bots', the opponents' and one's own), in words, and the end of the game, in a
// polite live region of its own. The visible line over the board (data-announce) is
// assertive and keeps its job: what a click did, why an attempt is refused.
//
// The region is visually hidden and lives on the page from the start, so that what is
// added to it later is read out. It keeps its last few lines (tests read them too) and
// counts in data-said every line it has said.

import { el } from "./format.js";

const KEEP = 6;

export class Speech {
  constructor(root) {
    this.node = el("div", { class: "visually-hidden", "aria-live": "polite", "aria-relevant": "additions",
      dataset: { speech: "" } });
    root.append(this.node);
    this.spokenV = null; // the last version whose move was said; null before the first frame
  }

  /** The table's version when the page opened it: the moves up to it are history, not news. */
  since(v) {
    if (this.spokenV === null) this.spokenV = v;
  }

  /** Say one line (a new node: the same words twice are read twice). */
  say(text) {
    if (!text) return;
    this.node.append(el("p", {}, text));
    this.node.dataset.said = String(Number(this.node.dataset.said || 0) + 1); // lines said so far (tests)
    while (this.node.childElementCount > KEEP) this.node.firstElementChild.remove();
  }

  /**
   * Say the moves of ``entries`` ({v, words}, in version order) played since the last
   * one said, in order; a move whose words are not known yet (null: its text is on its
   * way from the replay API) holds back those after it until it is.
   */
  moves(entries) {
    if (this.spokenV === null) return;
    for (const entry of entries) {
      if (entry.v <= this.spokenV) continue;
      if (entry.words === null) return;
      this.say(entry.words);
      this.spokenV = entry.v;
    }
  }

  /** Forget what was said (pass-and-play: the next seat starts from its own history). */
  reset() {
    this.spokenV = null;
    this.node.replaceChildren();
  }
}
