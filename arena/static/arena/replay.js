/* The replay viewer: steps through GET /api/matches/{id}/frames/ (plain JavaScript, no build).
 * Each frame shows who acted and what, the key public state drawn per game (scores, dice,
 * tracks) and the whole view as a tree, from the spectator's side or any seat's. One
 * response carries one view (?view=spectator or ?view=seat:N): switching the point of view
 * fetches that seat's frames once and keeps them for the next switch. */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var names = JSON.parse(document.getElementById("seat-names").textContent);
  var frames = [], index = 0, view = "spectator", timer = null;
  var loaded = {};  // view name -> its frames, fetched once

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }
  function seatName(seat) {
    return seat === null || seat === undefined ? "nobody" : "seat " + seat + " (" + (names[seat] || "?") + ")";
  }
  function short(value) {
    var text = JSON.stringify(value);
    return text.length > 120 ? text.slice(0, 117) + "…" : text;
  }

  /* Per-game touches: the numbers a viewer looks for first. */
  function scores(game, v) {
    if (!v) return null;
    if (Array.isArray(v.players) && v.players.length && v.players[0] && "prestige" in v.players[0])
      return { label: "Prestige", values: v.players.map(function (p) { return p.prestige; }) };
    if (Array.isArray(v.robots))
      return { label: "Energy (robots)", values: v.robots.map(function (r) { return r.alive ? r.energy : "out"; }) };
    if (Array.isArray(v.crew))
      return { label: "Crew position", values: v.crew };
    return null;
  }
  function dice(v) {
    var out = [];
    if (!v) return out;
    if (Array.isArray(v.dice)) out = v.dice;
    else if (v.turn && v.turn.rolled) {
      Object.keys(v.turn.rolled).forEach(function (face) {
        for (var i = 0; i < v.turn.rolled[face]; i++) out.push(face);
      });
    } else if (v.mission && Array.isArray(v.mission.dice)) out = v.mission.dice;
    return out;
  }
  function track(v) {
    if (!v || !Array.isArray(v.track) || !Array.isArray(v.crew)) return null;
    var box = el("div", { class: "track", role: "img", "aria-label": "the track: " + v.track.length + " spaces; crew at " + v.crew.join(", ") });
    v.track.forEach(function (space, q) {
      var here = v.crew.map(function (pos, seat) { return pos === q ? seat : null; }).filter(function (s) { return s !== null; });
      box.appendChild(el("span", { class: here.length ? "crew" : "", text: q + ":" + space.kind.slice(0, 3) + (here.length ? " ♟" + here.join(",") : "") }));
    });
    return box;
  }
  function tree(value, depth) {
    // null is what a view does not show: hidden from it, or nothing there yet.
    if (value === null) return el("span", { class: "hidden", text: "—", title: "not shown: hidden from this view, or empty" });
    if (typeof value !== "object") return document.createTextNode(String(value));
    if (depth > 3) return document.createTextNode(short(value));
    var dl = el("dl", { class: "tree" });
    Object.keys(value).forEach(function (k) {
      dl.appendChild(el("div", {}, [el("dt", { text: k + ":" }), el("dd", {}, [tree(value[k], depth + 1)])]));
    });
    return dl;
  }

  function load(name) {
    if (loaded[name]) return Promise.resolve(loaded[name]);
    var url = root.dataset.frames + "?view=" + encodeURIComponent(name);
    return fetch(url, { headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) return response.json().then(function (body) { throw new Error(body.detail || response.status); });
        return response.json();
      })
      .then(function (body) { loaded[name] = body.frames; return body.frames; });
  }
  function failed(error) {
    var status = document.getElementById("replay-status");
    if (status) status.textContent = "The replay cannot be shown: " + error.message;
  }
  function viewName() { return view === "spectator" ? view : "seat:" + view; }

  /* The game's board plugin (arena/static/arena/boards/<game>.js, interface in common.js), or
   * none: then the data view alone. A board that throws falls back to the data view too. */
  var boards = window.MoonBoards || {};
  var board = boards[root.dataset.game] && typeof boards[root.dataset.game].draw === "function" ? boards[root.dataset.game] : null;
  function boardContext() {
    var seat = view === "spectator" ? null : Number(view);
    return { game: root.dataset.game, players: names.length, names: names, view: viewName(), seat: seat, svg: boards.svg };
  }
  function drawBoard(frame) {
    if (!board) return null;
    try {
      return el("div", { class: "board-wrap", id: "replay-board" }, [board.draw(frame, boardContext())]);
    } catch (error) {
      if (window.console) console.warn("board " + root.dataset.game + ": " + error);
      return null;
    }
  }

  var stage = el("div", { class: "step", "aria-live": "polite" });
  var slider = el("input", { type: "range", min: "0", value: "0", "aria-label": "Frame" });
  var counter = el("span", { id: "replay-counter" });
  var playButton = el("button", { type: "button", id: "replay-play", text: "Play" });
  var speed = el("select", { id: "replay-speed", "aria-label": "Speed" });
  [["1000", "1 step/s"], ["400", "2.5 steps/s"], ["150", "7 steps/s"], ["40", "25 steps/s"]].forEach(function (o) {
    speed.appendChild(el("option", { value: o[0], text: o[1] }));
  });
  speed.value = "400";
  var who = el("select", { id: "replay-view", "aria-label": "Point of view" });

  function button(id, label, text, go) {
    var b = el("button", { type: "button", id: id, "aria-label": label, text: text });
    b.addEventListener("click", go);
    return b;
  }

  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    var frame = frames[index], v = frame.view;
    slider.value = String(index);
    counter.textContent = "Step " + index + " of " + (frames.length - 1);
    stage.textContent = "";
    var drawn = drawBoard(frame);
    if (drawn) stage.appendChild(drawn);
    stage.appendChild(el("p", { id: "replay-action", text: frame.actor === null ? "The start of the game." : seatName(frame.actor) + " played " + short(frame.action) }));
    stage.appendChild(el("p", { class: "muted", text: frame.to_move === null ? "The game is over." : "To move: " + seatName(frame.to_move) }));
    var s = scores(root.dataset.game, v);
    if (s) {
      var list = el("ul", { class: "scores", "aria-label": s.label });
      s.values.forEach(function (value, seat) {
        list.appendChild(el("li", { class: frame.to_move === seat ? "moving" : "", text: (names[seat] || "seat " + seat) + ": " + value }));
      });
      stage.appendChild(el("p", { text: s.label }));
      stage.appendChild(list);
    }
    var d = dice(v);
    if (d.length) {
      var row = el("p", {}, [document.createTextNode("Dice: ")]);
      d.forEach(function (face) { row.appendChild(el("span", { class: "die", text: String(face) })); });
      stage.appendChild(row);
    }
    var t = track(v);
    if (t) stage.appendChild(t);
    if (frame.result) {
      var res = el("ul", { class: "scores", id: "replay-result", "data-scores": JSON.stringify(frame.result.scores), "data-ranks": JSON.stringify(frame.result.ranks) });
      frame.result.scores.forEach(function (score, seat) {
        res.appendChild(el("li", { text: (names[seat] || "seat " + seat) + ": rank " + frame.result.ranks[seat] + ", score " + JSON.stringify(score) }));
      });
      stage.appendChild(el("p", { text: "Result" }));
      if (frame.result.outcome) {
        // A cooperative game: the team won or lost together.
        var verdict = frame.result.outcome === "success" ? "The mission succeeded" : "The mission failed";
        var detail = frame.result.team_score !== undefined ? " (team score " + frame.result.team_score + (frame.result.target !== undefined ? " of " + frame.result.target + " needed" : "") + ")" : "";
        stage.appendChild(el("p", { id: "replay-outcome", text: verdict + detail + "." }));
      }
      stage.appendChild(res);
    }
    var details = el("details", {}, [el("summary", { text: "Everything " + (view === "spectator" ? "a spectator" : seatName(Number(view))) + " sees" })]);
    details.open = root.dataset.open === "1";
    details.addEventListener("toggle", function () { root.dataset.open = details.open ? "1" : "0"; });
    details.appendChild(tree(v, 0));
    stage.appendChild(details);
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    playButton.textContent = "Play";
  }
  function play() {
    if (timer) return stop();
    if (index >= frames.length - 1) show(0);
    playButton.textContent = "Pause";
    timer = setInterval(function () {
      if (index >= frames.length - 1) return stop();
      show(index + 1);
    }, Number(speed.value));
  }

  function build() {
    root.textContent = "";
    who.appendChild(el("option", { value: "spectator", text: "Spectator" }));
    names.forEach(function (name, seat) { who.appendChild(el("option", { value: String(seat), text: "Seat " + seat + ": " + name })); });
    who.addEventListener("change", function () {
      var wanted = who.value;
      root.dataset.ready = "0";
      root.setAttribute("aria-busy", "true");
      load(wanted === "spectator" ? wanted : "seat:" + wanted).then(function (got) {
        if (who.value !== wanted) return;  // switched again meanwhile
        view = wanted;
        frames = got;
        show(index);
        root.removeAttribute("aria-busy");
        root.dataset.ready = "1";
      }).catch(failed);
    });
    slider.max = String(frames.length - 1);
    slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
    playButton.addEventListener("click", play);
    speed.addEventListener("change", function () { if (timer) { stop(); play(); } });
    root.appendChild(el("div", { class: "controls" }, [
      button("replay-first", "First step", "« First", function () { stop(); show(0); }),
      button("replay-prev", "Previous step", "‹ Previous", function () { stop(); show(index - 1); }),
      button("replay-next", "Next step", "Next ›", function () { stop(); show(index + 1); }),
      button("replay-last", "Last step", "Last »", function () { stop(); show(frames.length - 1); }),
      playButton, speed,
    ]));
    root.appendChild(el("div", { class: "controls" }, [slider, counter]));
    root.appendChild(el("p", {}, [el("label", { for: "replay-view", text: "Point of view: " }), who]));
    root.appendChild(el("p", { id: "replay-status", class: "muted", role: "status" }));
    root.appendChild(stage);
    root.setAttribute("tabindex", "0");
    document.addEventListener("keydown", function (event) {
      var tag = event.target && event.target.tagName;
      if (tag === "INPUT" && event.target !== slider || tag === "SELECT" || tag === "TEXTAREA") return;
      if (event.key === "ArrowRight") { stop(); show(index + 1); event.preventDefault(); }
      else if (event.key === "ArrowLeft") { stop(); show(index - 1); event.preventDefault(); }
    });
    show(0);
    root.dataset.ready = "1";
  }

  load(viewName()).then(function (got) { frames = got; build(); }).catch(failed);
})();
