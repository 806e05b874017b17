// The director's live grid: every few seconds fetch the counts and repaint the cells.
// Without the script the page refreshes itself (<noscript><meta refresh>).
(function () {
  "use strict";
  var grid = document.getElementById("live-grid");
  if (!grid) return;
  var url = grid.getAttribute("data-grid-url");
  var seq = grid.getAttribute("data-seq");
  var STATUSES = ["missing", "entered", "confirmed", "agreed"];

  function countsText(c) {
    var parts = [];
    if (c.status === "agreed") {
      parts.push(c.agreed + " agreed");
      if (c.missing) parts.push(c.missing + " missing");
    } else {
      if (c.missing) parts.push(c.missing + " missing");
      if (c.entered) parts.push(c.entered + " entered");
      if (c.confirmed) parts.push(c.confirmed + " confirmed");
    }
    if (c.not_played) parts.push(c.not_played + " not played");
    if (c.late) parts.push(c.late + " played late");
    if (c.late_leave && c.late_leave.length) {
      parts.push("late play: board" + (c.late_leave.length > 1 ? "s " : " ") +
                 c.late_leave.join(", "));
    }
    return parts.join(" \u00b7 ");
  }

  function paint(data) {
    var missing = false;
    data.cells.forEach(function (c) {
      var cell = document.getElementById("cell-" + c.id);
      if (!cell) { missing = true; return; }
      STATUSES.forEach(function (s) { cell.classList.remove("status-" + s); });
      cell.classList.add("status-" + c.status);
      cell.setAttribute("data-status", c.status);
      var counts = cell.querySelector("[data-counts]");
      if (counts) counts.textContent = countsText(c);
      // The hover text: "... must still agree round R on its phone" while that holds.
      var link = cell.querySelector("[data-cell-link]");
      if (link && typeof c.title === "string") link.setAttribute("title", c.title);
    });
    if (missing) { window.location.reload(); return; } // a new movement: redraw the grid
    grid.querySelectorAll("tr").forEach(agreedRow);
    announce(data.irregular || []);
    var stamp = document.getElementById("grid-updated");
    if (stamp) stamp.textContent = "Updated " + new Date().toLocaleTimeString();
  }

  // Duplicate Law B: a report made since the page was drawn is announced at the top, with
  // a link to decide it (the list of open reports is drawn with the page).
  var known = (grid.getAttribute("data-irregular") || "").split(",").filter(Boolean);
  var base = grid.getAttribute("data-irregular-url");

  function announce(reports) {
    var box = document.getElementById("irregular-new");
    if (!box) return;
    var fresh = reports.filter(function (r) { return known.indexOf(String(r.id)) < 0; });
    box.textContent = "";
    box.hidden = !fresh.length;
    if (!fresh.length) return;
    box.appendChild(document.createTextNode(
      (fresh.length > 1 ? "New irregular boards reported" : "New irregular board reported") +
      " (Duplicate Law B): "));
    fresh.forEach(function (r, i) {
      var where = "Board " + r.board;
      if (r.table !== null) where += " at table " + r.table + ", round " + r.round;
      if (i) box.appendChild(document.createTextNode(" \u00b7 "));
      box.appendChild(document.createTextNode(where + " "));
      var link = document.createElement("a");
      link.href = base + r.id + "/";
      link.textContent = "Decide\u2026";
      link.setAttribute("data-testid", "decide-new-irregular-" + r.board);
      box.appendChild(link);
    });
  }

  function agreedRow(row) {
    // A round now agreed at every table (by the tables, or in another tab): "Agreed" in
    // place of its "Agree round", as the page says once reloaded.
    var link = row.querySelector("a[data-testid^='agree-round-']");
    var cells = row.querySelectorAll("[data-status]");
    if (!link || !cells.length) return;
    for (var i = 0; i < cells.length; i++) {
      if (cells[i].getAttribute("data-status") !== "agreed") return;
    }
    var done = document.createElement("span");
    done.className = "muted";
    done.setAttribute("data-testid", link.getAttribute("data-testid").replace("agree-round-", "round-agreed-"));
    done.textContent = "Agreed";
    link.parentNode.replaceChild(done, link);
  }

  function poll() {
    if (document.hidden) return; // no need while the tab is in the background
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) {
        if (String(data.seq) !== String(seq)) { seq = data.seq; }
        paint(data);
      })
      .catch(function () {
        var stamp = document.getElementById("grid-updated");
        if (stamp) stamp.textContent = "Cannot reach the server; trying again.";
      });
  }
  setInterval(poll, 5000);
  document.addEventListener("visibilitychange", poll);
})();
