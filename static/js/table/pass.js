// Pass-and-play: one device plays every seat its person holds (docs/protocol.md,
// "Several seats on one socket"). The socket sees one seat at a time (`as`); when
// the turn goes to another of them and the game has something secret, the page
// forgets the seat it showed (board, moves), covers itself and waits for the next
// player's tap before it asks for that seat's view. Nothing of one seat is in the
// page while another seat's turn is shown.

import { fill, gettext, seatName } from "./format.js";

export class PassAndPlay {
  constructor(shell, root) {
    this.shell = shell;
    this.root = root;
    this.node = root.querySelector("[data-pass-screen]");
    this.title = root.querySelector("[data-pass-title]");
    this.go = root.querySelector("[data-pass-go]");
    this.layout = root.querySelector(".table-layout");
    this.target = null; // the seat whose player is being handed the device
    this.asking = null; // the seat asked for with `as`, until its state comes
    // Open as nobody: the first frame decides whose turn it is.
    shell.socket.asSeat = -1;
    this.go.addEventListener("click", () => this.reveal());
  }

  /** Whether `frame` may be shown; otherwise it starts a change of seat. */
  accept(frame) {
    const hands = frame.hands || [];
    if (this.asking !== null) {
      if (frame.seat !== this.asking) return false; // a frame of the seat before
      this.asking = null;
    }
    if (this.target !== null) return false; // covered until the tap
    const want = this.wanted(frame, hands);
    const current = frame.seat;
    if (want === current || want === null) return true;
    const secret = (frame.secret || []).includes(want);
    this.shell.forgetSeat();
    if (secret) {
      this.cover(want, frame);
      this.ask(-1);
    } else {
      this.ask(want);
    }
    return false;
  }

  /** The seat to show: the one held here that is to act (the shown one if it still is). */
  wanted(frame, hands) {
    if (frame.status !== "running") return frame.seat;
    const acting = frame.to_act.filter((seat) => hands.includes(seat));
    if (!acting.length) return frame.seat; // a bot's turn: keep what is shown
    return acting.includes(frame.seat) ? frame.seat : acting[0];
  }

  cover(seat, frame) {
    this.target = seat;
    const name = seatName(frame.seats[seat]);
    this.title.textContent = fill(gettext("Pass the device to %(name)s."), { name });
    this.go.textContent = fill(gettext("I am %(name)s: show my game"), { name });
    this.node.hidden = false;
    this.layout.hidden = true;
    this.root.dataset.covered = String(seat);
    this.go.focus();
  }

  reveal() {
    const seat = this.target;
    if (seat === null) return;
    this.target = null;
    this.node.hidden = true;
    this.layout.hidden = false;
    delete this.root.dataset.covered;
    this.ask(seat);
  }

  ask(seat) {
    this.asking = seat === -1 ? null : seat;
    this.shell.socket.asSeat = seat;
    this.shell.socket.send({ t: "as", seat }).catch((error) => {
      this.asking = null;
      this.shell.showError(error.frame);
    });
  }
}
