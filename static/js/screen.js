// The shared screen (templates/games/screen.html): the table page's shell draws the
// table as a spectator sees it; this adds what a room needs from across the sofa:
// the last move, said in words, flashes when it changes.

const root = document.querySelector("[data-screen]");
const line = root ? root.querySelector("[data-last-move-text]") : null;
if (line) {
  let said = "";
  new MutationObserver(() => {
    const text = line.textContent;
    if (!text || text === said) return;
    said = text;
    const box = line.closest("[data-last-move]");
    box.classList.remove("fresh");
    void box.offsetWidth; // restart the animation
    box.classList.add("fresh");
  }).observe(line, { childList: true, subtree: true, characterData: true });
}
