/* The pairs page's member picker: type a member's number or part of a name, pick one
   of the suggestions (asked of the console's small JSON list as you type), and add the
   pair to the list as "Ann Lee #1234 & Bob Ray #1002". What is typed and not picked is
   used as typed: a name alone is a visitor, "Name #number" a new member.
   On a teams event the page has a team field too (#pick-team): the pair is added as
   "Gramercy: Ann Lee #1234 & Bob Ray #1002", the form the pairs page saves, and the
   team's name stays for the team's next pair. */
(function () {
  "use strict";

  function debounce(fn, ms) {
    var timer = null;
    return function () {
      var args = arguments, self = this;
      clearTimeout(timer);
      timer = setTimeout(function () { fn.apply(self, args); }, ms);
    };
  }

  function setUp(picker) {
    var url = picker.getAttribute("data-find");
    var textarea = document.getElementById("pairs-text");
    var note = document.getElementById("pick-note");
    var inputs = [document.getElementById("pick-1"), document.getElementById("pick-2")];
    var team = document.getElementById("pick-team");  // a teams event only
    picker.hidden = false;

    function listOf(input) { return document.getElementById(input.id + "-list"); }

    function close(input) {
      var list = listOf(input);
      list.hidden = true;
      list.textContent = "";
      input.setAttribute("aria-expanded", "false");
    }

    function show(input, members) {
      var list = listOf(input);
      list.textContent = "";
      members.forEach(function (m) {
        var li = document.createElement("li");
        li.setAttribute("role", "option");
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = m.number + " · " + m.name;
        button.setAttribute("data-label", m.label);
        button.addEventListener("click", function () {
          input.value = m.label;
          close(input);
          var next = inputs[inputs.indexOf(input) + 1];
          (next || document.getElementById("pick-add")).focus();
        });
        li.appendChild(button);
        list.appendChild(li);
      });
      list.hidden = members.length === 0;
      input.setAttribute("aria-expanded", members.length ? "true" : "false");
    }

    var ask = debounce(function (input) {
      var q = input.value.trim();
      if (!q || q.indexOf("#") !== -1) { close(input); return; }
      fetch(url + "?q=" + encodeURIComponent(q), {credentials: "same-origin",
                                                   headers: {"Accept": "application/json"}})
        .then(function (r) { return r.ok ? r.json() : {members: []}; })
        .then(function (data) {
          if (input.value.trim() === q) { show(input, data.members || []); }
        })
        .catch(function () { close(input); });
    }, 150);

    inputs.forEach(function (input) {
      input.addEventListener("input", function () { ask(input); });
      input.addEventListener("keydown", function (e) {
        var list = listOf(input);
        if (e.key === "Escape") { close(input); }
        if (e.key === "ArrowDown" && !list.hidden) {
          e.preventDefault();
          var first = list.querySelector("button");
          if (first) { first.focus(); }
        }
        if (e.key === "Enter") {
          e.preventDefault();
          var only = list.querySelectorAll("button");
          if (!list.hidden && only.length >= 1) { only[0].click(); }
        }
      });
      input.addEventListener("blur", function () {
        setTimeout(function () {
          if (!picker.contains(document.activeElement) ||
              document.activeElement.tagName !== "BUTTON") { close(input); }
        }, 200);
      });
    });

    if (team) {
      // Enter in the team field goes on to the first player; it must not save the list.
      team.addEventListener("keydown", function (e) {
        if (e.key === "Enter") { e.preventDefault(); inputs[0].focus(); }
      });
    }

    document.getElementById("pick-add").addEventListener("click", function () {
      var a = inputs[0].value.trim(), b = inputs[1].value.trim();
      var teamName = team ? team.value.trim() : "";
      if (team && !teamName) {
        note.textContent = "Type the team's name first.";
        team.focus();
        return;
      }
      // The pairs page reads "Team: players" up to the first colon.
      if (team && teamName.indexOf(":") !== -1) {
        note.textContent = "A team's name cannot have a colon (:) in it.";
        team.focus();
        return;
      }
      if (!a || !b) {
        note.textContent = "Type both players first.";
        (a ? inputs[1] : inputs[0]).focus();
        return;
      }
      var pair = a + " & " + b;
      var line = team ? teamName + ": " + pair : pair;
      var text = textarea.value.replace(/\s+$/, "");
      textarea.value = (text ? text + "\n" : "") + line + "\n";
      var count = textarea.value.split("\n").filter(function (l) { return l.trim(); }).length;
      note.textContent = pair + " added as pair " + count +
        (team ? " (" + teamName + ")" : "") + ". Save the pairs when the list is complete.";
      inputs.forEach(function (input) { input.value = ""; close(input); });
      inputs[0].focus();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var picker = document.getElementById("member-picker");
    if (picker) { setUp(picker); }
  });
})();
