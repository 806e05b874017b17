// The table page's small script: live score preview (with what is unusual about the
// result), "passed out" hides the contract, no trump asks for 4 aces instead of 5 honours,
// and a save button that cannot be tapped twice. The page works without it.
(function () {
  "use strict";
  var form = document.getElementById("result-form");
  if (!form) return;
  var url = form.getAttribute("data-preview-url");
  var box = document.getElementById("score-preview");
  var timer = null;
  var sent = 0;

  function text(id, value) {
    var el = document.getElementById(id);
    if (el) el.textContent = value === undefined || value === null ? "" : String(value);
  }

  function signed(n) {
    if (n > 0) return "+" + n;
    if (n < 0) return "\u2212" + (-n);
    return "0";
  }

  function seatCounts(honours) {
    // The server sends the seats in the engine's order (N, E, S, W).
    return Object.keys(honours).map(function (s) { return s + " " + honours[s]; }).join(" \u00b7 ");
  }

  function clearScore() {
    ["ns", "ew"].forEach(function (side) {
      ["trick", "honour", "total"].forEach(function (col) { text("preview-" + side + "-" + col, ""); });
    });
    text("preview-net", "");
    text("preview-honours", "");
    text("honours-derived", "");
    var items = document.getElementById("preview-items");
    if (items) items.innerHTML = "";
    warnings([]);
    if (box) box.classList.add("empty");
  }

  function warnings(list) {
    var ul = document.getElementById("preview-warnings");
    if (!ul) return;
    ul.innerHTML = "";
    (list || []).forEach(function (w) {
      var li = document.createElement("li");
      li.textContent = w.message;
      ul.appendChild(li);
    });
  }

  function show(answer) {
    if (!answer.ok) {
      clearScore();
      // Half-filled forms are normal while typing: say what is missing, quietly.
      text("preview-error", answer.message || "");
      return;
    }
    var s = answer.score;
    text("preview-error", "");
    ["ns", "ew"].forEach(function (side) {
      text("preview-" + side + "-trick", s[side].trick_score);
      text("preview-" + side + "-honour", s[side].honour_score);
      text("preview-" + side + "-total", s[side].total);
    });
    text("preview-net", "Net N\u2013S: " + signed(s.net_ns));
    if (answer.honours_from_deal && answer.honours) {
      text("preview-honours", "Honours from the hand record: " + seatCounts(answer.honours));
      text("honours-derived", ": " + seatCounts(answer.honours));
    } else {
      text("preview-honours", "");
      text("honours-derived", "");
    }
    var items = document.getElementById("preview-items");
    if (items) {
      items.innerHTML = "";
      s.items.forEach(function (item) {
        var li = document.createElement("li");
        li.textContent = item.line;  // written by the server (presenters.score_item)
        items.appendChild(li);
      });
    }
    warnings(answer.warnings);
    if (box) box.classList.remove("empty");
  }

  function preview() {
    var body = new FormData(form);
    body.set("action", "preview");
    var mine = ++sent;
    fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch", "Accept": "application/json" }
    }).then(function (r) {
      return r.json();
    }).then(function (answer) {
      if (mine === sent) show(answer); // an older answer never overwrites a newer one
    }).catch(function () {
      if (mine === sent) text("preview-error", "No connection: the score will show when you save.");
    });
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(preview, 250);
  }

  function passedOut() {
    var box = document.getElementById("passed-out");
    form.classList.toggle("passed-out-on", !!(box && box.checked));
    // At no trump the honours are the four aces: no "5" to tap, and a "5" tapped before
    // the switch is let go (else it would be sent, hidden, and refused).
    var nt = document.getElementById("denomination-NT");
    var ntOn = !!(nt && nt.checked);
    form.classList.toggle("nt-on", ntOn);
    if (ntOn) {
      form.querySelectorAll(".honour-5 input:checked").forEach(function (five) { five.checked = false; });
    }
  }

  function answered(name) {
    // The page's message about a field (from the last save) goes once the field is
    // answered again: the live score says what is wrong now. The honours' message about
    // them all goes with any seat's answer, or a new denomination (5 honours or 4 aces).
    // It is hidden, not removed: it keeps its place until the page is next drawn. A text
    // field's change comes as it loses the focus, which is the press on Save itself:
    // taking the line out would lift the button under the pointer between the press and
    // the release, and that click would be lost (the page would not be saved).
    var fields = [name];
    if (/^honours_/.test(name) || name === "denomination") fields.push("honours");
    fields.forEach(function (field) {
      form.querySelectorAll('.field-error[data-field="' + field + '"]').forEach(function (error) {
        error.style.visibility = "hidden";
      });
    });
  }

  function edited() {
    // The result shown by "Please look again" has changed: its confirmation no longer
    // applies (the server would ask again); the live score says what is unusual now.
    var again = document.getElementById("look-again");
    if (again) again.parentNode.removeChild(again);
    schedule();
  }

  form.addEventListener("change", function (event) {
    passedOut();
    if (event.target && event.target.name) answered(event.target.name);
    edited();
  });
  form.addEventListener("input", edited);
  form.addEventListener("submit", function (event) {
    var button = event.submitter;
    if (button && button.value === "preview") {
      // With the script, the score is already live: no need to reload the page.
      event.preventDefault();
      preview();
      return;
    }
    if (form.getAttribute("data-sent")) {
      event.preventDefault(); // a second tap: the first is on its way
      return;
    }
    form.setAttribute("data-sent", "1");
    var save = document.getElementById("save-result");
    if (save) { save.disabled = true; save.textContent = "Saving\u2026"; }
    // A disabled button is not sent: keep the action the server expects.
    var hidden = document.createElement("input");
    hidden.type = "hidden"; hidden.name = "action"; hidden.value = "save";
    form.appendChild(hidden);
  });
  window.addEventListener("pageshow", function () {
    // Back from the next page (the browser's page cache): make the form usable again.
    form.removeAttribute("data-sent");
    var save = document.getElementById("save-result");
    var state = document.getElementById("table-state");
    if (save && !(state && state.getAttribute("data-open") === "0")) { save.disabled = false; }
  });
  passedOut();
  if (form.querySelector("input[type=radio]:checked")) schedule();
})();

// Duplicate Law E at the table: poll the round's state, and as soon as the director agrees
// the round (or the event) say so, and take away the buttons that would now be refused,
// rather than let the players find out when they press Save.
(function () {
  "use strict";
  var box = document.getElementById("table-state");
  if (!box) return;
  var seconds = parseFloat(box.getAttribute("data-poll-seconds")) || 5;
  var timer = null;

  function lock(message) {
    var banner = document.getElementById("locked-banner");
    if (banner && message) { banner.textContent = message; banner.hidden = false; }
    box.setAttribute("data-open", "0");
    Array.prototype.forEach.call(document.querySelectorAll("[data-while-open]"), function (el) {
      el.hidden = true;
    });
    var save = document.getElementById("save-result");
    if (save) { save.disabled = true; }
  }

  var etag = ""; // the last answer's: while the round's state is the same, a 304

  function poll() {
    timer = null;
    if (document.hidden) return; // resumed by visibilitychange
    var headers = { "Accept": "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(box.getAttribute("data-state-url"), {
      credentials: "same-origin", cache: "no-store", headers: headers
    }).then(function (r) {
      if (r.status === 304) { // nothing has changed here (perhaps elsewhere: a new tag)
        etag = r.headers.get("ETag") || etag;
        return null;
      }
      if (!r.ok) throw new Error("HTTP " + r.status);
      etag = r.headers.get("ETag") || "";
      return r.json();
    }).then(function (state) {
      if (state && !state.open) { lock(state.message); return; }
      timer = setTimeout(poll, seconds * 1000);
    }).catch(function () {
      etag = ""; // ask afresh next time: the last answer may not have been read
      timer = setTimeout(poll, seconds * 1000); // a phone changing networks: try again
    });
  }

  if (box.getAttribute("data-open") === "0") { lock(""); return; }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && timer === null && box.getAttribute("data-open") === "1") poll();
  });
  timer = setTimeout(poll, seconds * 1000);
})();
