// "Learn to play": the lesson page. The steps come with the page (the prompt, the
// learner's view of the position, their legal moves); the game's own board module
// draws each one and takes the clicks (static/js/table/boards.js describes the
// contract). Every move tried goes to the server, which says whether it is the one
// asked and, when it is not, why, in words; the learner then tries again.

import { boardHost, boardStylesheets, lastMoveOf, loadBoard } from "./table/boards.js";
import { fill, gettext } from "./table/format.js";

class Lesson {
  constructor(root) {
    this.root = root;
    this.steps = JSON.parse(document.getElementById("lesson-steps").textContent);
    this.tryUrl = root.dataset.tryUrl; // .../0/try/ (/0/essai/ in French): the 0 is the step number
    const q = (name) => root.querySelector(`[data-${name}]`);
    this.nodes = {
      progress: q("progress"), prompt: q("prompt"), slot: q("board-slot"), feedback: q("feedback"),
      announce: q("announce"), retry: q("retry"), next: q("next"), end: q("end"), restart: q("restart"),
    };
    this.index = 0;
    this.busy = false;
    // On a phone the introduction starts folded, so that the board comes first.
    const intro = root.querySelector("[data-intro]");
    if (intro && window.matchMedia("(max-width: 40rem)").matches) intro.open = false;
    this.nodes.retry.addEventListener("click", () => this.show(this.index));
    this.nodes.next.addEventListener("click", () => this.show(this.index + 1));
    this.nodes.restart.addEventListener("click", () => {
      this.nodes.end.hidden = true;
      this.show(0);
    });
  }

  async start() {
    try {
      const module = await loadBoard(this.root.dataset.static, this.root.dataset.game, boardStylesheets(this.root));
      this.module = module;
      this.show(0);
    } catch (error) {
      this.nodes.slot.textContent = gettext("The board could not be loaded.");
      console.warn(error);
    }
  }

  mount(seat) {
    if (this.board && this.boardSeat === seat) return;
    if (this.board) this.board.destroy();
    this.board = this.module.mount(boardHost(this.nodes.slot), {
      seat,
      gettext,
      onMove: (move) => this.attempt(move),
      announce: (text) => { this.nodes.announce.textContent = text; },
    });
    this.boardSeat = seat;
  }

  context(step, view, legal, lastMove) {
    return {
      legalMoves: legal,
      lastMove,
      toAct: legal.length ? step.toAct : [],
      version: step.number,
      players: step.players,
      outcome: view.outcome || null,
      countdown: null,
      interactive: true, // the learner sits at the board; with no legal move it waits for the next step
    };
  }

  show(index) {
    const step = this.steps[index];
    if (!step) return;
    this.index = index;
    this.busy = false;
    this.nodes.progress.textContent = fill(gettext("Step %(number)s of %(total)s"), { number: index + 1, total: this.steps.length });
    this.nodes.prompt.textContent = step.prompt;
    this.feedback(null);
    this.nodes.announce.textContent = "";
    this.nodes.retry.hidden = true;
    this.nodes.next.hidden = true;
    this.mount(step.seat);
    // The opponent's reply that led here (if any) is highlighted as the last move.
    this.board.update(step.view, this.context(step, step.view, [...step.legal], lastMoveOf(step.view)));
  }

  feedback(kind, text = "") {
    const node = this.nodes.feedback;
    node.hidden = !kind;
    node.dataset.kind = kind || "";
    node.textContent = text;
  }

  async attempt(move) {
    if (this.busy) return;
    this.busy = true;
    const step = this.steps[this.index];
    // Freeze the board while the server judges the move.
    this.board.update(step.view, this.context(step, step.view, [], null));
    let answer;
    try {
      const url = this.tryUrl.replace(/\/0\/([^/]+\/)$/, `/${step.number}/$1`) + `?move=${encodeURIComponent(move)}`;
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      answer = await response.json();
      if (!response.ok) throw new Error(answer.error || response.statusText);
    } catch (error) {
      this.feedback("wrong", gettext("The server could not check this move: try again."));
      this.nodes.retry.hidden = false;
      this.busy = false;
      return;
    }
    this.nodes.announce.textContent = ""; // the board's own line (a selection) is over
    if (answer.ok) {
      this.feedback("right", answer.text);
      this.board.update(answer.view, this.context(step, answer.view, [], move));
      if (answer.last) {
        this.nodes.end.hidden = false;
        this.nodes.end.focus();
      } else {
        this.nodes.next.hidden = false;
        this.nodes.next.focus();
      }
    } else {
      // Explained; the same position comes back at once for another try.
      this.feedback("wrong", answer.text);
      this.board.update(step.view, this.context(step, step.view, [...step.legal], lastMoveOf(step.view)));
      this.busy = false;
      this.nodes.feedback.scrollIntoView({ block: "nearest" });
    }
  }
}

const root = document.querySelector("[data-lesson-page]");
if (root) new Lesson(root).start();
