/* The replay viewer: steps through GET /api/matches/{id}/frames/ (plain JavaScript, no build).
 *
 * Draws each frame with the game's board plugin (arena/static/arena/boards/<game>.js, the
 * interface is written at the top of boards/common.js) and, beside it, each seat's `series`
 * over the match as a line chart. A game without a board shows the data view: the key
 * numbers and the whole view as a tree (which every game also has, folded, under the board).
 *
 * Views: the spectator's, each seat's own (what that bot received, with the legal actions it
 * had), and for a finished match `revealed` (every seat's observation). One response carries
 * one view; switching fetches that view once and keeps it.
 * Moving: Play/Pause with a speed, the scrubber, ←/→ one step, Home/End, "next/previous
 * <event>" (the board's `events`), and #step=N (or ?step=N) opens at step N; the address
 * follows the step shown. A match still running is polled: new steps are added as they are
 * recorded and the viewer follows the last one unless the reader has moved away from it.
 * performance marks: "replay-frames" (frames parsed) and "replay-first-board" (first board
 * drawn); #replay's data-first-paint holds the latter's time in ms since navigation start.
 */
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) return;
  var names = JSON.parse(document.getElementById("seat-names").textContent);
  var stderrNode = document.getElementById("seat-stderr");
  var stderr = stderrNode ? JSON.parse(stderrNode.textContent) : {};
  var game = root.dataset.game;
  var finished = root.dataset.finished === "1";
  var running = root.dataset.running === "1";
  var boards = window.MoonBoards || {};
  var board = boards[game] && typeof boards[game].draw === "function" ? boards[game] : null;
  var frames = [], index = 0, view = "spectator", timer = null, painted = false;
  var loaded = {};  // view name -> its frames, fetched once
  var series = null, events = null;  // per frame, computed after the first paint

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
  function short(value, n) {
    var text = typeof value === "string" ? value : JSON.stringify(value);
    n = n || 120;
    return text.length > n ? text.slice(0, n - 3) + "…" : text;
  }
  function viewName() { return view === "spectator" || view === "revealed" ? view : "seat:" + view; }
  function context() {
    var seat = view === "spectator" || view === "revealed" ? null : Number(view);
    return { game: game, players: names.length, names: names, view: viewName(), seat: seat, svg: boards.svg };
  }

  /* ----- the data view (games without a board, and the folded tree under every board) ----- */
  function scores(v) {
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
  function dataView(frame, box) {
    var v = frame.view, s = scores(v);
    if (s) {
      var list = el("ul", { class: "scores", "aria-label": s.label });
      s.values.forEach(function (value, seat) {
        list.appendChild(el("li", { class: frame.to_move === seat ? "moving" : "", text: (names[seat] || "seat " + seat) + ": " + value }));
      });
      box.appendChild(el("p", { text: s.label }));
      box.appendChild(list);
    }
    var d = dice(v);
    if (d.length) {
      var row = el("p", {}, [document.createTextNode("Dice: ")]);
      d.forEach(function (face) { row.appendChild(el("span", { class: "die", text: String(face) })); });
      box.appendChild(row);
    }
  }

  /* ----- loading ----- */
  function fetchFrames(name, fresh, first) {
    var url = root.dataset.frames + "?view=" + encodeURIComponent(name) + (first ? "&first=" + first : "");
    return fetch(url, { headers: { Accept: "application/json" }, cache: fresh ? "no-store" : "default" })
      .then(function (response) {
        if (!response.ok) return response.json().then(function (body) { throw new Error(body.detail || response.status); });
        return response.json();
      });
  }
  function load(name, fresh) {
    if (loaded[name] && !fresh) return Promise.resolve(loaded[name]);
    return fetchFrames(name, fresh).then(function (body) { loaded[name] = body.frames; return body.frames; });
  }
  /* A finished match's first steps, at once: a long replay the server has not cached yet
   * takes seconds to build, its first PREVIEW steps milliseconds. The whole one follows. */
  var PREVIEW = 60;
  function loadStart(name) {
    return fetchFrames(name, false, PREVIEW).then(function (body) {
      if (!body.partial) loaded[name] = body.frames;
      return body;
    });
  }
  function failed(error) {
    var status = document.getElementById("replay-status");
    if (status) status.textContent = "The replay cannot be shown: " + error.message;
  }

  /* ----- the page's parts ----- */
  var boardBox = el("div", { class: "board-wrap", id: "replay-board" });
  var chartBox = el("div", { class: "charts", id: "replay-charts" });
  var actionBox = el("div", { class: "action" });
  var dataBox = el("div", { class: "data" });
  var stage = el("div", { class: "step", "aria-live": "polite" }, [
    el("div", { class: "table" }, [boardBox, chartBox]), actionBox, dataBox,
  ]);
  var slider = el("input", { type: "range", min: "0", value: "0", "aria-label": "Step", id: "replay-scrubber" });
  var counter = el("span", { id: "replay-counter" });
  var playButton = el("button", { type: "button", id: "replay-play", text: "Play" });
  var speed = el("select", { id: "replay-speed", "aria-label": "Speed" });
  [["1000", "1 step/s"], ["400", "2.5 steps/s"], ["150", "7 steps/s"], ["40", "25 steps/s"]].forEach(function (o) {
    speed.appendChild(el("option", { value: o[0], text: o[1] }));
  });
  speed.value = "400";
  var who = el("select", { id: "replay-view", "aria-label": "Point of view" });
  var kind = el("select", { id: "replay-event", "aria-label": "Event kind" });
  var link = el("a", { id: "replay-link", href: "#step=0", text: "Link to this step" });
  var liveNote = el("span", { id: "replay-live", class: "muted" });

  function button(id, label, text, go) {
    var b = el("button", { type: "button", id: id, "aria-label": label, text: text });
    b.addEventListener("click", go);
    return b;
  }

  function drawBoard(frame) {
    boardBox.textContent = "";
    if (!board) return false;
    try {
      boardBox.appendChild(board.draw(frame, context()));
      return true;
    } catch (error) {
      if (window.console) console.warn("board " + game + " at step " + frame.index + ": " + error);
      boardBox.appendChild(el("p", { class: "muted", text: "This step cannot be drawn; its data is below." }));
      return false;
    }
  }

  function describeAction(frame) {
    var box = el("div", { id: "replay-action-box" });
    box.appendChild(el("p", { id: "replay-action", text: frame.actor === null ? "The start of the game." : seatName(frame.actor) + " played " + short(frame.action) }));
    if (frame.legal && frame.legal.length) {
      var chosen = JSON.stringify(frame.action);
      var list = el("ol", { class: "legal", id: "replay-legal" });
      frame.legal.forEach(function (a) {
        var text = JSON.stringify(a);
        list.appendChild(el("li", { class: text === chosen ? "chosen" : "", text: short(a, 60) }));
      });
      var more = frame.legal_count > frame.legal.length ? " (the first " + frame.legal.length + " shown)" : "";
      box.appendChild(el("details", {}, [
        el("summary", { text: "It had " + frame.legal_count + " legal action" + (frame.legal_count === 1 ? "" : "s") + more }),
        list,
      ]));
    }
    box.appendChild(el("p", { class: "muted", text: frame.to_move === null ? "The game is over." : "To move: " + seatName(frame.to_move) }));
    var seat = context().seat;
    var own = seat !== null ? stderr[String(seat)] : null;
    if (own) {
      // What the bot wrote while making this step's decision: its n-th in the match.
      var said = frame.actor === seat ? own.moves[String(decisionNumber(frame.index, seat))] : null;
      if (said) box.appendChild(el("pre", { id: "replay-stderr-step", class: "stderr", text: said }));
      box.appendChild(el("details", { id: "replay-stderr" }, [
        el("summary", { text: "stderr of seat " + seat + " in this match (only you see this)" }),
        el("pre", { text: own.text }),
      ]));
    }
    return box;
  }

  /* The seat's decision made at frame `index`: its n-th (the runner numbers its stderr so). */
  function decisionNumber(index, seat) {
    var n = 0;
    for (var i = 1; i <= index && i < frames.length; i++) if (frames[i].actor === seat) n++;
    return n;
  }

  function describeResult(frame, box) {
    if (!frame.result) return;
    var res = el("ul", { class: "scores", id: "replay-result", "data-scores": JSON.stringify(frame.result.scores), "data-ranks": JSON.stringify(frame.result.ranks) });
    frame.result.scores.forEach(function (score, seat) {
      res.appendChild(el("li", { text: (names[seat] || "seat " + seat) + ": rank " + frame.result.ranks[seat] + ", score " + JSON.stringify(score) }));
    });
    box.appendChild(el("p", { text: "Result" }));
    if (frame.result.outcome) {
      // A cooperative game: the team won or lost together.
      var verdict = frame.result.outcome === "success" ? "The mission succeeded" : "The mission failed";
      var detail = frame.result.team_score !== undefined ? " (team score " + frame.result.team_score + (frame.result.target !== undefined ? " of " + frame.result.target + " needed" : "") + ")" : "";
      box.appendChild(el("p", { id: "replay-outcome", text: verdict + detail + "." }));
    }
    box.appendChild(res);
  }

  /* ----- charts: each seat's series over the match, a marker at the step shown ----- */
  var NS = "http://www.w3.org/2000/svg";
  function svg(tag, attrs) {
    var node = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }
  var marker = null;
  function computeSeries() {
    series = null;
    if (!board || typeof board.series !== "function") return;
    var ctx = context(), label = null;
    var values = frames.map(function (f) {
      try {
        var s = board.series(f, ctx);
        if (s && !label) label = s.label;
        return s ? s.values : null;
      } catch (error) { return null; }
    });
    if (label) series = { label: label, values: values };
  }
  function drawCharts() {
    chartBox.textContent = "";
    marker = null;
    if (!series || frames.length < 2) return;
    var W = 300, H = 120, pad = 4, max = 1, min = 0;
    series.values.forEach(function (vs) { (vs || []).forEach(function (v) { if (typeof v === "number") { max = Math.max(max, v); min = Math.min(min, v); } }); });
    var chart = svg("svg", { class: "chart", viewBox: "0 0 " + W + " " + (H + 20), width: "100%", role: "img", "aria-label": series.label + " of each seat over the match" });
    chart.appendChild(svg("rect", { x: 0, y: 0, width: W, height: H, fill: "#f7f8fb", stroke: "#d9dce6" }));
    function x(i) { return pad + (W - 2 * pad) * i / (frames.length - 1); }
    function y(v) { return H - pad - (H - 2 * pad) * (v - min) / (max - min || 1); }
    for (var seat = 0; seat < names.length; seat++) {
      var points = [];
      var step = Math.max(1, Math.floor(frames.length / 300));  // at most ~300 points a line
      for (var i = 0; i < frames.length; i += step) {
        var v = series.values[i] && series.values[i][seat];
        if (typeof v === "number") points.push(x(i).toFixed(1) + "," + y(v).toFixed(1));
      }
      var last = series.values[frames.length - 1] && series.values[frames.length - 1][seat];
      if (typeof last === "number") points.push(x(frames.length - 1).toFixed(1) + "," + y(last).toFixed(1));
      chart.appendChild(svg("polyline", { points: points.join(" "), fill: "none", stroke: boards.svg ? boards.svg.colour(seat) : "#333", "stroke-width": 2, "data-seat": seat }));
    }
    marker = svg("line", { x1: 0, x2: 0, y1: 0, y2: H, stroke: "#f0a000", "stroke-width": 2, id: "replay-chart-marker" });
    marker.dataset.x = "1";
    chart.appendChild(marker);
    var caption = svg("text", { x: 4, y: H + 15, "font-size": 12, fill: "#1a202c" });
    caption.textContent = series.label + " (max " + max + ")";
    chart.appendChild(caption);
    chart.addEventListener("click", function (event) {
      var box = chart.getBoundingClientRect();
      stop();
      show(Math.round((event.clientX - box.left) / box.width * (frames.length - 1)));
    });
    chartBox.appendChild(chart);
    var legend = el("ul", { class: "legend" });
    names.forEach(function (name, seat) {
      var swatch = el("span", { class: "swatch" });
      swatch.style.background = boards.svg ? boards.svg.colour(seat) : "#333";
      legend.appendChild(el("li", {}, [swatch, document.createTextNode(" " + name)]));
    });
    chartBox.appendChild(legend);
    moveMarker();
  }
  function moveMarker() {
    if (!marker || frames.length < 2) return;
    var at = 4 + 292 * index / (frames.length - 1);
    marker.setAttribute("x1", at);
    marker.setAttribute("x2", at);
  }

  /* ----- events: the board names what happened at each frame ----- */
  function computeEvents() {
    events = [];
    var kinds = {};
    if (board && typeof board.events === "function") {
      var ctx = context();
      frames.forEach(function (f, i) {
        var found = [];
        try { found = board.events(f, i ? frames[i - 1] : null, ctx) || []; } catch (error) { found = []; }
        events.push(found);
        found.forEach(function (k) { kinds[k] = (kinds[k] || 0) + 1; });
      });
    }
    var was = kind.value;
    kind.textContent = "";
    Object.keys(kinds).sort().forEach(function (k) {
      kind.appendChild(el("option", { value: k, text: k + " (" + kinds[k] + ")" }));
    });
    if (kinds[was]) kind.value = was;
    eventControls.hidden = !Object.keys(kinds).length;
  }
  function jump(direction) {
    if (!events) return;
    var wanted = kind.value;
    for (var i = index + direction; i >= 0 && i < frames.length; i += direction) {
      if (events[i] && events[i].indexOf(wanted) >= 0) { stop(); show(i); return; }
    }
  }
  var eventControls = el("div", { class: "controls", id: "replay-events" }, [
    el("label", { for: "replay-event", text: "Jump to" }), kind,
    button("replay-event-prev", "Previous event of this kind", "‹ previous", function () { jump(-1); }),
    button("replay-event-next", "Next event of this kind", "next ›", function () { jump(1); }),
  ]);
  eventControls.hidden = true;

  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    var frame = frames[index];
    slider.value = String(index);
    counter.textContent = "Step " + index + " of " + (frames.length - 1);
    link.setAttribute("href", "#step=" + index);
    var drawn = drawBoard(frame);
    root.dataset.step = String(index);
    if (drawn && !painted) {
      painted = true;
      if (window.performance && performance.mark) performance.mark("replay-first-board");
      root.dataset.firstPaint = String(Math.round(performance.now()));
    }
    actionBox.textContent = "";
    actionBox.appendChild(describeAction(frame));
    dataBox.textContent = "";
    if (!drawn) dataView(frame, dataBox);
    describeResult(frame, dataBox);
    var details = el("details", {}, [el("summary", { text: "Everything " + (view === "spectator" ? "a spectator" : view === "revealed" ? "any seat" : seatName(Number(view))) + " sees" })]);
    details.open = root.dataset.open === "1";
    details.addEventListener("toggle", function () {
      root.dataset.open = details.open ? "1" : "0";
      if (details.open && details.childNodes.length === 1) details.appendChild(tree(frame.view, 0));
    });
    if (details.open) details.appendChild(tree(frame.view, 0));
    dataBox.appendChild(details);
    moveMarker();
    if (painted || !board) {
      var wanted = "#step=" + index;
      if (location.hash !== wanted && history.replaceState) history.replaceState(null, "", wanted);
    }
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

  function wantedStep() {
    var found = /(?:^|[#&?])step=([0-9]+)/.exec(location.hash) || /(?:^|[?&])step=([0-9]+)/.exec(location.search);
    return found ? Number(found[1]) : 0;
  }

  function afterPaint() {
    // Series and events walk every frame: after the first board, not before it.
    setTimeout(function () { computeSeries(); drawCharts(); computeEvents(); root.dataset.charts = "1"; }, 0);
  }

  function switchView() {
    var wanted = who.value;
    root.dataset.ready = "0";
    root.setAttribute("aria-busy", "true");
    load(wanted === "spectator" || wanted === "revealed" ? wanted : "seat:" + wanted).then(function (got) {
      if (who.value !== wanted) return;  // switched again meanwhile
      view = wanted;
      frames = got;
      slider.max = String(frames.length - 1);
      show(index);
      root.removeAttribute("aria-busy");
      root.dataset.ready = "1";
      afterPaint();
    }).catch(failed);
  }

  /* A running match: ask for its frames again every few seconds; follow the last step. */
  function poll() {
    var every = Number(root.dataset.liveEvery) || 3000;
    setTimeout(function () {
      var name = viewName();
      load(name, true).then(function (got) {
        if (viewName() !== name) return poll();
        var atEnd = index >= frames.length - 1;
        var grew = got.length > frames.length;
        frames = got;
        slider.max = String(frames.length - 1);
        var over = frames.length && frames[frames.length - 1].result;
        liveNote.textContent = over ? "The match is over." : "Live: " + (frames.length - 1) + " steps so far.";
        if (grew && atEnd) show(frames.length - 1);
        else counter.textContent = "Step " + index + " of " + (frames.length - 1);
        if (grew) afterPaint();
        if (!over) poll();
      }).catch(function () { poll(); });
    }, every);
  }

  function build(partial) {
    root.textContent = "";
    who.appendChild(el("option", { value: "spectator", text: "Spectator" }));
    names.forEach(function (name, seat) { who.appendChild(el("option", { value: String(seat), text: "Seat " + seat + ": " + name })); });
    if (finished) who.appendChild(el("option", { value: "revealed", text: "Everything revealed" }));
    who.addEventListener("change", switchView);
    slider.max = String(frames.length - 1);
    slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
    playButton.addEventListener("click", play);
    speed.addEventListener("change", function () { if (timer) { stop(); play(); } });
    root.appendChild(el("div", { class: "controls" }, [
      button("replay-first", "First step", "«", function () { stop(); show(0); }),
      button("replay-prev", "Previous step", "‹", function () { stop(); show(index - 1); }),
      playButton,
      button("replay-next", "Next step", "›", function () { stop(); show(index + 1); }),
      button("replay-last", "Last step", "»", function () { stop(); show(frames.length - 1); }),
      speed,
    ]));
    root.appendChild(el("div", { class: "controls" }, [slider, counter]));
    root.appendChild(el("div", { class: "controls" }, [el("label", { for: "replay-view", text: "Point of view" }), who, link, liveNote]));
    root.appendChild(eventControls);
    root.appendChild(el("p", { id: "replay-status", class: "muted", role: "status" }));
    root.appendChild(stage);
    root.setAttribute("tabindex", "0");
    document.addEventListener("keydown", function (event) {
      var tag = event.target && event.target.tagName;
      if (tag === "INPUT" && event.target !== slider || tag === "SELECT" || tag === "TEXTAREA") return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var to = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: frames.length - 1 }[event.key];
      if (to === undefined) return;
      stop();
      show(to);
      event.preventDefault();
    });
    window.addEventListener("hashchange", function () {
      var n = wantedStep();
      if (n !== index) { stop(); show(n); }
    });
    // A running match opens at its latest step (and follows it), unless a link names one.
    var named = /step=[0-9]/.test(location.hash + location.search);
    show(running && !named ? frames.length - 1 : Math.min(wantedStep(), frames.length - 1));
    if (partial) return;  // ready, charts and events once the whole replay is in
    root.dataset.ready = "1";
    afterPaint();
    if (running) poll();
  }

  (running ? load(viewName()).then(function (got) { return { frames: got }; }) : loadStart(viewName()))
    .then(function (body) {
      if (window.performance && performance.mark) performance.mark("replay-frames");
      frames = body.frames;
      if (!body.partial) { build(); return; }
      var name = viewName(), asked = wantedStep();  // before the preview rewrites the address
      build(true);
      counter.textContent = "Step " + index + " of " + (body.total - 1) + " (loading the rest…)";
      load(name).then(function (got) {
        if (viewName() !== name) return;
        frames = got;
        slider.max = String(frames.length - 1);
        show(asked > index ? asked : index);
        root.dataset.ready = "1";
        afterPaint();
      }).catch(failed);
    }).catch(failed);
})();
