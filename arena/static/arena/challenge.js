/* A running challenge followed live (plain JavaScript, no build): poll the API's
 * GET /api/challenges/{id}/ and update the page's figures in place until the test reaches
 * its verdict (accepted, rejected, inconclusive or cancelled), which the status line,
 * a live region, then says. Polling slows from 2 s to 10 s; a failed poll is tried again. */
(function () {
  "use strict";
  var script = document.currentScript;
  var line = document.getElementById("challenge-status");
  if (!script || !line) return;
  var url = script.dataset.url;
  var verdicts = JSON.parse(document.getElementById("challenge-verdicts").textContent);
  var delay = 2000;

  function set(id, text) {
    var node = document.getElementById(id);
    if (node) node.textContent = text;
  }
  function show(c) {
    set("c-games", String(c.games));
    set("c-pairs", String(c.pairs));
    set("c-llr", String(c.llr));
    var meter = document.getElementById("c-llr-meter");
    if (meter) { meter.value = c.llr; meter.textContent = String(c.llr); }
    set("c-elo", c.elo && c.elo.elo !== null ? c.elo.elo + " [" + c.elo.low + ", " + c.elo.high + "]" : "—");
    Object.keys(c.pair_counts).forEach(function (score) {
      var cell = document.querySelector('td[data-score="' + score + '"]');
      if (cell) cell.textContent = String(c.pair_counts[score]);
    });
    if (line.dataset.status !== c.status) {
      line.dataset.status = c.status;
      line.className = "verdict " + c.status;
      set("c-status", c.status);
      set("c-verdict", verdicts[c.status] || "");
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
