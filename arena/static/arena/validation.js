/* Live validation on the bot page (plain JavaScript, no build): while a version is pending,
 * poll the API's list of the bot's versions (GET /api/bots/{id}/versions/, the session's
 * cookie says whether this is the owner, who alone gets the reason) and update the versions
 * table and the owner's status line as the worker on the validation queue settles them.
 * Polling slows from 1 s to 5 s and stops once nothing is pending (or after 15 minutes). */
(function () {
  "use strict";
  var table = document.getElementById("versions");
  if (!table) return;
  var status = document.getElementById("validation-status");
  var delay = 1000, started = Date.now(), LIMIT = 15 * 60 * 1000;

  function strong(text) {
    var node = document.createElement("strong");
    node.textContent = text;
    return node;
  }
  function say(version) {
    if (!status || Number(status.dataset.version) !== version.number) return;
    var parts;
    if (version.validation === "pending")
      parts = ["Version " + version.number + " is ", strong("pending"), ": a worker is playing its smoke match. This line updates by itself."];
    else if (version.validation === "ready")
      parts = ["Version " + version.number + " is ", strong("ready"), ": it passed its smoke match and plays from now on."];
    else
      parts = ["Version " + version.number + " was ", strong("rejected"), version.validation_error ? ": " + version.validation_error : "."];
    status.textContent = "";
    parts.forEach(function (p) { status.appendChild(typeof p === "string" ? document.createTextNode(p) : p); });
    status.className = "validation " + version.validation;
  }
  function update(version) {
    var row = table.querySelector('tr[data-version="' + version.number + '"]');
    if (!row) return;
    var cell = row.querySelector("td[data-validation]");
    if (cell.dataset.validation === version.validation) return;
    cell.dataset.validation = version.validation;
    cell.className = "validation " + version.validation;
    cell.textContent = "";
    var badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = version.validation;
    cell.appendChild(badge);
    if (version.validation_error) {
      var reason = document.createElement("span");
      reason.className = "reason";
      reason.textContent = version.validation_error;
      cell.appendChild(document.createTextNode(" "));
      cell.appendChild(reason);
    }
  }
  function poll() {
    fetch(table.dataset.url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (versions) {
        var pending = false;
        versions.forEach(function (v) {
          update(v);
          say(v);
          if (v.validation === "pending") pending = true;
        });
        if (pending) next();
      })
      .catch(next);  // a failed poll (server restarting) is tried again later
  }
  function next() {
    if (Date.now() - started > LIMIT) {
      if (status) status.appendChild(document.createTextNode(" (Still pending: reload the page later.)"));
      return;
    }
    setTimeout(poll, delay);
    delay = Math.min(5000, Math.round(delay * 1.25));
  }
  next();
})();
