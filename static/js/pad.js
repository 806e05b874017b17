// The score pad's deal page: the live score while the players tap (tournaments/web/pad.py
// preview answers with the preview box's HTML, made by the page's own partial).
(function () {
  "use strict";
  var form = document.getElementById("pad-deal");
  var box = document.getElementById("pad-preview");
  if (!form || !box) return;
  var url = form.getAttribute("data-preview-url");
  var timer = null;
  var sent = 0;

  function preview() {
    var mine = ++sent;
    fetch(url, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch", "Accept": "application/json" }
    }).then(function (r) { return r.json(); }).then(function (answer) {
      if (mine !== sent) return;
      box.innerHTML = answer.html;
      box.classList.toggle("empty", !answer.html.trim());
      box.setAttribute("data-ok", answer.ok ? "1" : "0");
    }).catch(function () {
      if (mine === sent) box.textContent = "No connection: the score will show when you save.";
    });
  }

  function soon() {
    clearTimeout(timer);
    timer = setTimeout(preview, 200);
  }

  form.addEventListener("change", soon);
  form.addEventListener("input", soon);
})();
