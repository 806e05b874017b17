// The movement page and the movement change page: only the fields the chosen movement
// asks for. A team match asks the pairs in each team, not the tables; only a Mitchell has
// an even variant (skip or relay). A field another movement hides is disabled too, so it
// is not sent: a relay chosen for a Mitchell goes with it when a Howell is chosen, and
// comes back if the Mitchell is chosen again. Without the script every field shows, and
// the form's own checks say what each movement needs (a variant is for a Mitchell only).
(function () {
  "use strict";
  var kind = document.getElementById("movement-kind") || document.getElementById("change-kind");
  if (!kind) return;
  var fields = document.querySelectorAll("[data-for-kinds]");

  function show() {
    for (var i = 0; i < fields.length; i++) {
      var kinds = fields[i].getAttribute("data-for-kinds").split(" ");
      var hidden = kinds.indexOf(kind.value) < 0;
      fields[i].hidden = hidden;
      var controls = fields[i].querySelectorAll("input, select");
      for (var j = 0; j < controls.length; j++) controls[j].disabled = hidden;
    }
  }

  // "Tables" follows the movement chosen while it holds the last one's workable count (7
  // pairs: a Mitchell 4 tables, a Howell 3); a count the director typed stays.
  var tables = document.getElementById("movement-tables");
  var workable = tables ? JSON.parse(tables.getAttribute("data-workable") || "{}") : {};
  var last = kind.value;

  function follow() {
    if (tables && String(workable[last]) === tables.value && workable[kind.value]) {
      tables.value = workable[kind.value];
    }
    last = kind.value;
  }

  kind.addEventListener("change", function () { follow(); show(); });
  show();
})();
