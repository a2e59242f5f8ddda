/* Pages that update by themselves (plain JavaScript, no build): leaderboards and running
 * tournaments. Every few seconds, while the tab is visible and the reader has not paused it,
 * ask the page's stamp (a small JSON answer, arena/web/live_views.py); when it has moved,
 * fetch this same page again and swap each [data-live-region] element whose content changed.
 * Keyboard focus, open <details> and sideways scroll inside a region survive the swap. A
 * tournament that has ended says so and stops asking. #live's data-updates counts the swaps. */
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.fetch || !window.DOMParser) return;
  var url = live.dataset.liveUrl, stamp = live.dataset.liveStamp;
  var every = Number(live.dataset.liveEvery) || 5000, delay = every;
  var note = document.getElementById("live-note");
  var toggle = document.getElementById("live-toggle");
  var timer = null, paused = false, ended = false, busy = false;

  function clock() {
    return new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  }
  function say(text) { note.textContent = text; }

  /* A way to find an element again in the fresh copy of its region. */
  function keyOf(el) {
    if (el.id) return { id: el.id };
    return { tag: el.tagName, href: el.getAttribute("href"), text: el.textContent.trim() };
  }
  function find(region, key) {
    if (key.id) return document.getElementById(key.id);
    var same = region.querySelectorAll(key.tag);
    for (var i = 0; i < same.length; i++) {
      if (same[i].getAttribute("href") === key.href && same[i].textContent.trim() === key.text)
        return same[i];
    }
    return null;
  }

  function swap(region, fresh) {
    var active = document.activeElement;
    var focused = active && active !== region && region.contains(active) ? keyOf(active) : null;
    var open = {}, scrolled = {};
    region.querySelectorAll("details[id]").forEach(function (d) { open[d.id] = d.open; });
    region.querySelectorAll("[id]").forEach(function (e) { if (e.scrollLeft) scrolled[e.id] = e.scrollLeft; });
    region.innerHTML = fresh.innerHTML;
    Object.keys(open).forEach(function (id) {
      var d = document.getElementById(id);
      if (d && d.tagName === "DETAILS") d.open = open[id];
    });
    Object.keys(scrolled).forEach(function (id) {
      var e = document.getElementById(id);
      if (e) e.scrollLeft = scrolled[id];
    });
    if (focused) {
      var again = find(region, focused);
      if (again) again.focus({ preventScroll: true });
    }
  }

  function refresh() {
    return fetch(location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var changed = false;
        document.querySelectorAll("[data-live-region]").forEach(function (region) {
          var fresh = region.id && doc.getElementById(region.id);
          if (fresh && fresh.innerHTML !== region.innerHTML) {
            swap(region, fresh);
            changed = true;
          }
        });
        if (changed) live.dataset.updates = String(Number(live.dataset.updates) + 1);
      });
  }

  function check() {
    timer = null;
    if (paused || ended || document.hidden || busy) return;
    busy = true;
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 404) { ended = true; throw new Error("gone"); }
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (answer) {
        // The stamp drawn with the page is read a moment after its content: a result that
        // lands in between shows with the next one, and at the end by one last fetch.
        var current = answer.stamp === stamp && answer.live;
        var done = current ? Promise.resolve() : refresh().then(function () {
          stamp = answer.stamp;
        });
        return done.then(function () {
          delay = every;
          if (!answer.live) {
            ended = true;
            toggle.hidden = true;
            say("This tournament has ended: these are its final results.");
          } else if (!paused) {
            say("Live: last checked at " + clock() + ".");
          }
        });
      })
      .catch(function () {
        // The server restarting, or the network: ask again later, less often.
        delay = Math.min(60000, delay * 2);
        if (ended) say("No longer updating: reload the page.");
        else if (!paused) say("Could not check for new results at " + clock() + "; trying again.");
      })
      .then(function () {
        busy = false;
        schedule();
      });
  }

  function schedule() {
    clearTimeout(timer);
    timer = null;
    if (!paused && !ended && !document.hidden) timer = setTimeout(check, delay);
  }

  toggle.addEventListener("click", function () {
    paused = !paused;
    toggle.setAttribute("aria-pressed", String(paused));
    live.classList.toggle("paused", paused);
    if (paused) {
      clearTimeout(timer);
      timer = null;
      say("Updates paused.");
    } else {
      check();
    }
  });
  // A hidden tab asks nothing; back in view, it checks at once.
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { clearTimeout(timer); timer = null; } else if (!timer) check();
  });

  toggle.hidden = false;
  say("Live: checks for new results every " + Math.round(every / 1000) + " seconds.");
  schedule();
})();
