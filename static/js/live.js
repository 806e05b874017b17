/* Live pages and print jobs, by polling (no websockets).
 *
 * 1. <div id="live" data-live-url data-fragment-url data-seq data-poll-seconds>:
 *    every few seconds ask the event's small JSON for its change number (seq), with
 *    the ETag of the last answer (304: nothing new); when it moves, fetch the page's
 *    table again and swap it in.
 * 2. [data-report-status-url]: a print job's progress bar; poll its status URL
 *    until the PDF is ready (then show the link) or the job failed.
 * Polling pauses while the tab is hidden, and resumes when it is shown.
 */
(function () {
  "use strict";

  function getJSON(url) {
    return fetch(url, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json" },
    }).then(function (response) {
      if (!response.ok) {
        var error = new Error("HTTP " + response.status);
        error.status = response.status;
        throw error;
      }
      return response.json();
    });
  }

  function timeNow() {
    return new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  }

  function every(seconds, tick) {
    var timer = null;
    var stopped = false;
    function schedule() {
      if (!stopped && !document.hidden) timer = setTimeout(run, seconds * 1000);
    }
    function run() {
      timer = null;
      Promise.resolve(tick()).then(function (keepGoing) {
        if (keepGoing === false) stopped = true;
        schedule();
      });
    }
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && timer === null && !stopped) run();
    });
    schedule();
  }

  // A poll that brings back the ETag of its last answer hears 304 while nothing has
  // changed: the server answers it from its cache alone. (cache: "no-store" keeps the
  // browser's own cache out of it; the 304 comes to the script as it is.)
  function pollJSON(url, last) {
    var headers = { Accept: "application/json" };
    if (last.etag) headers["If-None-Match"] = last.etag;
    return fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (response) {
        if (response.status === 304) return null;
        if (!response.ok) {
          var error = new Error("HTTP " + response.status);
          error.status = response.status;
          throw error;
        }
        last.etag = response.headers.get("ETag") || "";
        return response.json();
      });
  }

  function livePage(box) {
    var note = document.getElementById("live-note");
    var seconds = parseFloat(box.dataset.pollSeconds) || 5;
    var last = { etag: "" };
    every(seconds, function () {
      return pollJSON(box.dataset.liveUrl, last)
        .then(function (live) {
          if (live === null || String(live.seq) === box.dataset.seq) return true;
          return fetch(box.dataset.fragmentUrl, { credentials: "same-origin", cache: "no-store" })
            .then(function (response) {
              if (!response.ok) throw Object.assign(new Error("HTTP " + response.status), { status: response.status });
              return response.text();
            })
            .then(function (html) {
              box.innerHTML = html;
              box.dataset.seq = String(live.seq);
              if (note) note.textContent = "Updated at " + timeNow() + ".";
              return true;
            });
        })
        .catch(function (error) {
          if (error.status === 404) {
            if (note) {
              note.textContent = "The director has taken these results down for now.";
              note.className = "live-note gone";
            }
            return false;
          }
          // A dropped connection (a phone changing networks): keep trying quietly. The
          // next poll asks afresh, so a table that failed to load is fetched again.
          last.etag = "";
          if (note) note.textContent = "Cannot reach the server; trying again…";
          return true;
        });
    });
  }

  function reportJob(box) {
    var progress = box.querySelector(".progress");
    var bar = box.querySelector(".progress rect");  // SVG: its width is an attribute
    var message = box.querySelector("[data-report-message]");
    var link = box.querySelector("[data-report-file]");
    var button = box.querySelector("form button");
    every(2, function () {
      return getJSON(box.dataset.reportStatusUrl)
        .then(function (job) {
          if (bar) {
            bar.setAttribute("width", job.percent + "%");
            progress.setAttribute("aria-valuenow", String(job.percent));
          }
          if (message) {
            message.textContent = job.message;
            message.className = job.status === "failed" ? "error"
              : job.waiting_for_worker ? "waiting" : "";
          }
          box.dataset.status = job.status;
          if (button && (job.status === "done" || job.status === "failed")) {
            button.textContent = "Print again";
            button.className = job.status === "done" ? "secondary" : "";  // the file comes first
          }
          if (job.status === "done") {
            if (link) {
              link.href = job.file_url;
              link.hidden = false;
            }
            return false;
          }
          return job.status !== "failed";
        })
        .catch(function () {
          if (message) message.textContent = "Cannot reach the server; trying again…";
          return true;
        });
    });
  }

  // On a phone there is no pointer to hover with: a tap on a score shows its exact
  // value (the title) beside it, and a second tap hides it again.
  document.addEventListener("click", function (event) {
    var el = event.target.closest ? event.target.closest(".exact[title]") : null;
    if (!el) return;
    var shown = el.querySelector(".exact-value");
    if (shown) { shown.remove(); return; }
    var note = document.createElement("small");
    note.className = "exact-value muted";
    note.textContent = " (" + el.getAttribute("title") + ")";
    el.appendChild(note);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("live");
    if (box && box.dataset.liveUrl) livePage(box);
    Array.prototype.forEach.call(document.querySelectorAll("[data-report-status-url]"), function (el) {
      var status = el.dataset.status;
      if (status === "queued" || status === "running") reportJob(el);
    });
  });
})();
