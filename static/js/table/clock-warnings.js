// When to say that a clock runs low: once under 30 seconds and once under 10 (the page
// says it in its polite live region). Pure: fed the clocks' remaining times, it answers
// which marks were just crossed.
//
// A mark is armed only once its clock was seen above it (by more than half a second): a
// clock of 30 seconds a move is not announced at each move, and a page opened when a
// clock is already low does not say old news. A clock given time back above a mark (an
// increment, a new move's time) is armed again.

export const MARKS = [30, 10]; // seconds

export class ClockWarnings {
  constructor(marks = MARKS) {
    this.marks = marks;
    this.state = new Map(); // "seat:seconds" -> "armed" | "said"
  }

  /**
   * ``clocks``: one {ms, running} per seat (ms: what is left now); ``live``: whether the
   * game runs. Returns the [{seat, seconds}] crossed since the last call, lowest mark last.
   */
  check(clocks, live) {
    const crossed = [];
    clocks.forEach((clock, seat) => {
      if (!clock) return;
      for (const seconds of this.marks) {
        const key = `${seat}:${seconds}`;
        if (clock.ms > seconds * 1000 + 500) this.state.set(key, "armed");
        else if (live && clock.running && clock.ms > 0 && clock.ms <= seconds * 1000 && this.state.get(key) === "armed") {
          this.state.set(key, "said");
          crossed.push({ seat, seconds });
        }
      }
    });
    // Several marks crossed at once (a page asleep a while): the lowest one is news enough.
    const bySeat = new Map();
    for (const item of crossed) {
      const known = bySeat.get(item.seat);
      if (!known || item.seconds < known.seconds) bySeat.set(item.seat, item);
    }
    return [...bySeat.values()];
  }
}
