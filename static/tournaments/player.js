// A player's tournament page: the sentence saying where to sit, kept current;
// when a new table is theirs, the phone goes there by itself.
import { follow } from "./follow.js";

const root = document.querySelector("[data-tournament-player]");
if (root) {
  const next = root.querySelector("[data-next]");
  // Any table of theirs not played yet is where the phone goes (none counts as "current" here).
  follow(root.dataset.me, "", (me) => {
    if (me.text && next) next.textContent = me.text;
  });
}
