// Menus that fold on a phone (the site's header, a table's links): a button with
// data-menu-button, aria-expanded and aria-controls opens and closes the element it
// names (the attribute data-open; site.css hides a closed one on narrow screens only).
// Loaded in <head> as a classic script: the page is marked before it is first drawn,
// so a phone never sees the unfolded menu jump shut. Without JavaScript nothing folds.
document.documentElement.classList.add("menus");

function setOpen(button, open) {
  button.setAttribute("aria-expanded", String(open));
  const menu = document.getElementById(button.getAttribute("aria-controls"));
  if (menu) menu.toggleAttribute("data-open", open);
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-menu-button]");
  if (button) setOpen(button, button.getAttribute("aria-expanded") !== "true");
});

// Escape closes the open menu and gives the focus back to its button.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  for (const button of document.querySelectorAll("[data-menu-button][aria-expanded='true']")) {
    const menu = document.getElementById(button.getAttribute("aria-controls"));
    if (menu && menu.contains(document.activeElement)) button.focus();
    setOpen(button, false);
  }
});
