/* A running challenge followed live (plain JavaScript, no build): poll the API's
 * GET /api/challenges/{id}/ and update the page's figures in place until the test reaches
 * its verdict (accepted, rejected, inconclusive or cancelled), which the status line,
 * a live region, then says; the latest games' list follows GET /api/matches/?challenge=.
 * Polling slows from 2 s to 10 s; a failed poll is tried again. */
(function () {
  "use strict";
  var script = document.currentScript;
  var line = document.getElementById("challenge-status");
  if (!script || !line) return;
  var url = script.dataset.url;
  var verdicts = JSON.parse(document.getElementById("challenge-verdicts").textContent);
  var delay = 2000;
  var games = document.getElementById("c-matches");
  var SHOWN = 20;

  function bound(value, sign) {
    return value === null ? sign + "\u221e" : String(value);
  }
  function showGames(page) {
    if (!games) return;
    page.results.slice().reverse().forEach(function (m) {
      var item = games.querySelector('li[data-match="' + m.id + '"]');
      if (!item) {
        if (!games.querySelector("li[data-match]")) games.textContent = "";
        item = document.createElement("li");
        item.dataset.match = m.id;
        var link = document.createElement("a");
        link.href = "/matches/" + m.id + "/";
        link.textContent = "Match " + m.id;
        var state = document.createElement("span");
        state.className = "m-status";
        item.appendChild(link);
        item.appendChild(document.createTextNode(" \u00b7 "));
        item.appendChild(state);
        games.insertBefore(item, games.firstChild);
      }
      item.querySelector(".m-status").textContent = m.status;
    });
    while (games.children.length > SHOWN) games.removeChild(games.lastChild);
  }
  function pollGames() {
    if (!games) return;
    fetch(games.dataset.url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (page) { if (page) showGames(page); })
      .catch(function () {});
  }

  function set(id, text) {
    var node = document.getElementById(id);
    if (node) node.textContent = text;
  }
  function show(c) {
    set("c-games", String(c.games));
    set("c-pairs", String(c.pairs));
    set("c-llr", Number(c.llr).toFixed(3));
    var meter = document.getElementById("c-llr-meter");
    if (meter) { meter.value = c.llr; meter.textContent = String(c.llr); }
    set("c-elo", c.elo && c.elo.elo !== null ? c.elo.elo + " [" + bound(c.elo.low, "\u2212") + ", " + bound(c.elo.high, "+") + "]" : "\u2014");
    Object.keys(c.pair_counts).forEach(function (score) {
      var cell = document.querySelector('td[data-score="' + score + '"]');
      if (cell) cell.textContent = String(c.pair_counts[score]);
    });
    if (line.dataset.status !== c.status) {
      line.dataset.status = c.status;
      line.className = "verdict " + c.status;
      set("c-status", c.status);
      set("c-verdict", verdicts[c.status] || "");
      var cancel = document.getElementById("c-cancel");
      if (cancel && c.status !== "running") cancel.remove();
    }
  }
  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (c) {
        show(c);
        pollGames();
        if (c.status === "running") next();
      })
      .catch(next);
  }
  function next() {
    setTimeout(poll, delay);
    delay = Math.min(10000, Math.round(delay * 1.2));
  }
  next();
})();
