// The final table's print button (the page's print stylesheet keeps the tables only).
for (const button of document.querySelectorAll("[data-print]")) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}
