// The count page: "✓ n" fills in the expected count, − and + step the count.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step], [data-confirm]");
    if (!button) return;
    var input = button.closest("[data-item]").querySelector("input[type=number]");
    var expected = parseInt(input.dataset.expected, 10);
    if (button.hasAttribute("data-confirm")) {
      input.value = expected;
    } else {
      var now = input.value === "" ? expected : parseInt(input.value, 10) || 0;
      input.value = Math.max(0, now + parseInt(button.dataset.step, 10));
    }
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches("[data-item] input[type=number]")) return;
    var item = input.closest("[data-item]");
    var expected = parseInt(input.dataset.expected, 10);
    item.classList.toggle("short", input.value !== "" && parseInt(input.value, 10) < expected);
    item.classList.toggle("done", input.value !== "" && parseInt(input.value, 10) >= expected);
  });
})();
