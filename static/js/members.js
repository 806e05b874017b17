/* The pairs page's member picker: type a member's number or part of a name, pick one
   of the suggestions (asked of the console's small JSON list as you type), and add the
   pair to the list as "Ann Lee #1234 & Bob Ray #1002". What is typed and not picked is
   used as typed: a name alone is a visitor, "Name #number" a new member.
   On a teams event the page has a team field too (#pick-team): the pair is added as
   "Gramercy: Ann Lee #1234 & Bob Ray #1002", the form the pairs page saves, and the
   team's name stays for the team's next pair.
   A member plays in one pair only: the picker leaves out of its suggestions, and refuses
   to add, a member already written in the list (or in the other seat of the pair being
   added), and says where they are. Saving the list refuses it too (services.pairs_set). */
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

  // A pair's line read as the pairs page reads it (forms.PairsForm, services/members.py):
  // the players are split at "&", "+", "/" or the word "and"; "1234" or "Ann Lee #1234"
  // names a member by number, a name alone is a visitor (two visitors may share a name).
  // (No look-behind here: an older iPad's Safari refuses it, and with it the whole script.)
  var PAIR_SPLIT = /\s*(?:&|\+|\/|\band\b)\s*/i;
  var NAMED_NUMBER = /^(.*?)\s*#\s*([A-Za-z0-9-]+)$/;
  var NUMBER_ONLY = /^[0-9]{1,20}$/;

  function memberOf(written) {
    var token = written.trim();
    var named = NAMED_NUMBER.exec(token);
    if (named) { return {number: named[2], label: token}; }
    if (NUMBER_ONLY.test(token)) { return {number: token, label: "Member " + token}; }
    return null;
  }

  // The members written in the list: number -> {pair, label}. The pairs are numbered by
  // their lines, blank lines left out, as saving numbers them.
  function membersInList(text, teams) {
    var found = {};
    text.split(/\r\n|\r|\n/).map(function (l) { return l.trim(); })
      .filter(function (l) { return l; })
      .forEach(function (line, index) {
        var colon = line.indexOf(":");
        if (teams && colon !== -1) { line = line.slice(colon + 1); }
        line.split(PAIR_SPLIT).forEach(function (token) {
          var member = memberOf(token);
          if (member && !found[member.number]) {
            found[member.number] = {pair: index + 1, label: member.label};
          }
        });
      });
    return found;
  }

  function setUp(picker) {
    var url = picker.getAttribute("data-find");
    var textarea = document.getElementById("pairs-text");
    var note = document.getElementById("pick-note");
    var inputs = [document.getElementById("pick-1"), document.getElementById("pick-2")];
    var team = document.getElementById("pick-team");  // a teams event only
    picker.hidden = false;

    function listOf(input) { return document.getElementById(input.id + "-list"); }

    // A refusal looks like the save's own (the page's .nonfield box), a note like help.
    function say(words, refused) {
      note.textContent = words;
      note.className = refused && words ? "nonfield" : "helptext";
    }

    // Why `member` (number and label) cannot go in `input`'s seat, or "" if it can: already
    // in a pair of the list, or (unless `listOnly`) already in the pair's other seat.
    function whyNot(member, input, listOnly) {
      var inList = membersInList(textarea.value, Boolean(team))[member.number];
      if (inList) {
        var label = /^Member /.test(member.label) ? inList.label : member.label;
        return label + " is already in pair " + inList.pair + ".";
      }
      var other = inputs[1 - inputs.indexOf(input)];
      var there = memberOf(other.value);
      if (!listOnly && there && there.number === member.number) {
        return member.label + " is already the " + (other === inputs[0] ? "first" : "second") +
          " player of this pair.";
      }
      return "";
    }

    // Says so when what is typed in `input` names a member who is already placed.
    function check(input) {
      var member = memberOf(input.value);
      var why = member ? whyNot(member, input) : "";
      if (why) { say(why, true); }
      return why;
    }

    function close(input) {
      var list = listOf(input);
      list.hidden = true;
      list.textContent = "";
      input.setAttribute("aria-expanded", "false");
    }

    function show(input, found) {
      var list = listOf(input);
      list.textContent = "";
      var left = [];
      var members = found.filter(function (m) {
        var why = whyNot({number: m.number, label: m.label}, input);
        if (why) { left.push(why); }
        return !why;
      });
      if (left.length) {
        say(left.join(" "), true);
      } else if (note.className === "nonfield") {
        say("", false);  // an earlier refusal no longer applies
      }
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
      // A member typed with their number ("Ann Lee #1234") gets no suggestions: say at
      // once when they are already placed, not only at "Add the pair".
      input.addEventListener("change", function () { check(input); });
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
        say("Type the team's name first.", true);
        team.focus();
        return;
      }
      // The pairs page reads "Team: players" up to the first colon.
      if (team && teamName.indexOf(":") !== -1) {
        say("A team's name cannot have a colon (:) in it.", true);
        team.focus();
        return;
      }
      if (!a || !b) {
        say("Type both players first.", true);
        (a ? inputs[1] : inputs[0]).focus();
        return;
      }
      // The first seat against the list only: one member in both seats is the second's.
      for (var seat = 0; seat < inputs.length; seat++) {
        var member = memberOf(inputs[seat].value);
        var why = member ? whyNot(member, inputs[seat], seat === 0) : "";
        if (why) {
          say(why, true);
          inputs[seat].focus();
          return;
        }
      }
      var pair = a + " & " + b;
      var line = team ? teamName + ": " + pair : pair;
      var text = textarea.value.replace(/\s+$/, "");
      textarea.value = (text ? text + "\n" : "") + line + "\n";
      var count = textarea.value.split("\n").filter(function (l) { return l.trim(); }).length;
      say(pair + " added as pair " + count + (team ? " (" + teamName + ")" : "") +
          ". Save the pairs when the list is complete.", false);
      inputs.forEach(function (input) { input.value = ""; close(input); });
      inputs[0].focus();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var picker = document.getElementById("member-picker");
    if (picker) { setUp(picker); }
  });
})();
