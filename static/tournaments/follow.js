// Shared by a player's tournament page and a tournament table's page: ask
// where the player sits now, and go to their next table by itself: from their
// tournament page, or from a table they sat at (their game there is over). A
// player watching someone else's table stays there; the banner links to theirs.
const POLL_MS = 2000;
const GO_AFTER_MS = 2500;

/** Whether the page is one the player leaves by themselves for their next table. */
export function leavesFor(me, currentTable) {
  if (!me.table || !me.table_url || me.done || String(me.table) === String(currentTable)) return false;
  return !currentTable || (me.tables || []).map(String).includes(String(currentTable));
}

export function follow(meUrl, currentTable, onAnswer) {
  let going = false;
  async function poll() {
    if (going) return;
    try {
      const response = await fetch(meUrl, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (response.ok) {
        const me = await response.json();
        onAnswer(me);
        if (leavesFor(me, currentTable)) {
          going = true;
          setTimeout(() => window.location.assign(me.table_url), GO_AFTER_MS);
          return;
        }
      }
    } catch (error) {
      // Offline for a moment: the next poll tries again.
    }
    setTimeout(poll, POLL_MS);
  }
  setTimeout(poll, POLL_MS);
}

function csrfToken() {
  const found = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  return found ? decodeURIComponent(found.slice("csrftoken=".length)) : "";
}

// An arena table: the berserk button while it is allowed (before the player's
// first move), then the word "Berserk!" (the labels come translated from the server).
function berserkButton(me, box) {
  if (!me.berserk_label || String(me.table) !== box.dataset.table) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (me.berserk !== "allowed") {
    box.replaceChildren(me.berserk_label);
    return;
  }
  if (box.querySelector("button")) return;
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.berserk = "";
  button.textContent = me.berserk_label;
  button.addEventListener("click", async () => {
    button.disabled = true;
    const response = await fetch(me.berserk_url, {
      method: "POST", headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
    });
    const answer = await response.json().catch(() => ({}));
    box.replaceChildren(answer.label || answer.message || "");
  });
  box.replaceChildren(button);
}

// On a table's page (a <script data-tournament-follow> tag): a banner, then the next table.
const tag = document.querySelector("script[data-tournament-follow]");
if (tag) {
  // The banner's and the button's looks (the table page does not load the tournament's stylesheet).
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = new URL("./screen.css", import.meta.url).href;
  document.head.append(css);
  const banner = document.createElement("p");
  banner.className = "tournament-banner";
  banner.setAttribute("aria-live", "polite");
  banner.hidden = true;
  const box = document.createElement("p");
  box.className = "tournament-berserk";
  box.dataset.table = tag.dataset.table;
  box.setAttribute("aria-live", "polite");
  box.hidden = true;
  document.body.append(banner, box);
  follow(tag.dataset.tournamentFollow, tag.dataset.table, (me) => {
    if (me.table && String(me.table) !== tag.dataset.table && me.text) {
      if (leavesFor(me, tag.dataset.table) || !me.table_url) {
        banner.textContent = me.text;
      } else {  // watching another table: the way to one's own, not a move
        const link = document.createElement("a");
        link.href = me.table_url;
        link.textContent = me.text;
        banner.replaceChildren(link);
      }
      banner.hidden = false;
    }
    berserkButton(me, box);
  });
}
