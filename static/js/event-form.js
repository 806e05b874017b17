// The new event's form: a team match is scored by total points (Duplicate Law G) and a
// pair contest never is, so the Scoring picker follows the Contest picker. The server
// holds the same rule without the script.
(function () {
  "use strict";
  var kind = document.getElementById("event-kind");
  var method = document.getElementById("event-method");
  if (!kind || !method) return;
  kind.addEventListener("change", function () {
    if (kind.value === "teams") {
      method.value = "total-points";
    } else if (method.value === "total-points") {
      method.value = "plus-minus";
    }
  });
})();
