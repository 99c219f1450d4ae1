// The rulebook reader: on a narrow screen, original and translation share one column
// and these buttons switch between them; on a wide screen both are shown side by side.
const reader = document.querySelector("[data-reader]");
const switcher = reader && reader.querySelector("[data-pane-switch]");
if (switcher) {
  const panes = reader.querySelector(".panes");
  switcher.hidden = false;
  panes.classList.add("switchable");
  for (const button of switcher.querySelectorAll("button[data-show]")) {
    button.addEventListener("click", () => {
      panes.dataset.active = button.dataset.show;
      for (const other of switcher.querySelectorAll("button[data-show]")) {
        other.setAttribute("aria-selected", String(other === button));
      }
    });
  }
}
