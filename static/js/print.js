// A button marked data-print prints the page (a script file, not an onclick attribute:
// the Content-Security-Policy runs no inline script).
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("button[data-print]"), function (button) {
      button.addEventListener("click", function () { window.print(); });
    });
  });
})();
