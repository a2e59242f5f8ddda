/* The replay viewer's board plugins and their shared SVG helpers (plain JavaScript, no build).
 *
 * THE INTERFACE (every board follows it; the browser tests rely on it)
 *
 * Each game has arena/static/arena/boards/<game>.js (moonrollers, moonrakers, moon_adventure,
 * moon_bots). The match page loads this file and then the match's game's board file, if it
 * exists; without one the viewer shows the data view (fields and a tree of JSON). A board file
 * does:
 *
 *   window.MoonBoards = window.MoonBoards || {};
 *   window.MoonBoards["<game>"] = {
 *     draw: function (frame, ctx) { return svgElement; },
 *     series: function (frame, ctx) { return {label: "Prestige", values: [number per seat]} or null; },
 *     events: function (frame, previous, ctx) { return ["roll", "purchase", ...]; }
 *   };
 *
 * `frame` is one element of GET /api/matches/{id}/frames/?view=...'s `frames` list: index,
 * actor, action, to_move, view (what that view sees), result, legal (the actions the actor
 * could choose from at the previous step, or null where unknown). `previous` is the frame
 * before (null at step 0). `ctx` is
 *   {game, players, names: [seat names], view: "spectator" | "seat:N" | "revealed",
 *    seat: null or N, svg: window.MoonBoards.svg (the helpers below)}.
 *
 * Conventions:
 *  - the root is <svg class="board board-<game>" data-step="<frame.index>"> (svg.root does it);
 *  - a face-down or hidden card or token has data-hidden="1" and nothing revealing what it is
 *    (svg.back draws one);
 *  - a face-up card has data-card="<its id or name as in the view>" (svg.card sets it);
 *  - each player's area is a <g data-seat="<n>"> (svg.seat makes one).
 * `series` values are numbers (null for "none"); the viewer charts them over the match.
 * `events` names what happened at this frame; the viewer offers "next <event>" jumps.
 * Boards draw into a viewBox and let CSS scale the <svg> to its container (readable at 375 px:
 * keep text at 12 units or more in a viewBox about 400 wide).
 */
(function () {
  "use strict";
  window.MoonBoards = window.MoonBoards || {};
  var NS = "http://www.w3.org/2000/svg";
  var SEAT_COLOURS = ["#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b83280", "#2c7a7b"];

  /* An SVG element with attributes; "text" sets its text; children appended (nulls skipped). */
  function el(tag, attrs, children) {
    var node = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined) return;
      if (k === "text") node.textContent = String(v);
      else node.setAttribute(k, String(v));
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }
  function root(game, frame, width, height, children) {
    return el("svg", {
      class: "board board-" + game, "data-step": frame.index,
      viewBox: "0 0 " + width + " " + height, width: "100%", role: "img",
      "aria-label": game + " board at step " + frame.index, preserveAspectRatio: "xMidYMin meet",
    }, children);
  }
  function text(x, y, value, attrs) {
    var a = { x: x, y: y, "font-size": 13, fill: "#1a202c", text: value };
    Object.keys(attrs || {}).forEach(function (k) { a[k] = attrs[k]; });
    return el("text", a);
  }
  function rect(x, y, w, h, attrs) {
    var a = { x: x, y: y, width: w, height: h, rx: 4, fill: "#fff", stroke: "#4a5568" };
    Object.keys(attrs || {}).forEach(function (k) { a[k] = attrs[k]; });
    return el("rect", a);
  }
  function circle(cx, cy, r, attrs) {
    var a = { cx: cx, cy: cy, r: r, fill: "#fff", stroke: "#4a5568" };
    Object.keys(attrs || {}).forEach(function (k) { a[k] = attrs[k]; });
    return el("circle", a);
  }
  function group(attrs, children) { return el("g", attrs, children); }
  function title(value) { return el("title", { text: value }); }
  function clip(value, n) {
    value = String(value === null || value === undefined ? "" : value);
    return value.length > n ? value.slice(0, n - 1) + "…" : value;
  }
  function colour(seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; }

  /* A die of `size` at x,y showing `face`: a number draws pips (1 to 6), a word draws its
   * first letters, with the whole face in a <title>. opts.fill, opts.ink, opts.mark (outline). */
  var PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
    4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
    6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };
  function die(x, y, size, face, opts) {
    opts = opts || {};
    var g = group({ class: "die", "data-face": face, transform: "translate(" + x + "," + y + ")" }, [
      title(String(face)),
      rect(0, 0, size, size, { rx: size / 6, fill: opts.fill || "#fff", stroke: opts.mark || "#2d3748", "stroke-width": opts.mark ? 3 : 1.5 }),
    ]);
    var n = Number(face);
    if (PIPS[n] && String(face) === String(n)) {
      PIPS[n].forEach(function (p) {
        g.appendChild(circle(p[0] * size / 4, p[1] * size / 4, size / 11, { fill: opts.ink || "#1a202c", stroke: "none" }));
      });
    } else {
      g.appendChild(text(size / 2, size / 2 + size / 7, clip(opts.label || face, size >= 30 ? 4 : 3), {
        "text-anchor": "middle", "font-size": Math.max(10, Math.round(size / 3)), fill: opts.ink || "#1a202c", "font-weight": "bold",
      }));
    }
    return g;
  }

  /* A face-up card: data-card=id, a title line and up to `lines` of smaller text. */
  function card(x, y, w, h, id, heading, lines, opts) {
    opts = opts || {};
    var g = group({ class: "card", "data-card": id, transform: "translate(" + x + "," + y + ")" }, [
      title(heading + (lines && lines.length ? ": " + lines.join("; ") : "")),
      rect(0, 0, w, h, { fill: opts.fill || "#fffaf0", stroke: opts.stroke || "#744210", "stroke-width": opts.strokeWidth || 1 }),
      text(5, 15, clip(heading, Math.floor(w / 7)), { "font-weight": "bold", "font-size": 12 }),
    ]);
    (lines || []).forEach(function (line, i) {
      if (16 + 13 * (i + 1) < h) g.appendChild(text(5, 16 + 13 * (i + 1), clip(line, Math.floor(w / 6.3)), { "font-size": 11, fill: "#2d3748" }));
    });
    return g;
  }
  /* A face-down card or hidden token: data-hidden="1", a patterned back, nothing else. */
  function back(x, y, w, h, label) {
    return group({ class: "card back", "data-hidden": "1", transform: "translate(" + x + "," + y + ")" }, [
      title(label || "face down"),
      rect(0, 0, w, h, { fill: "#4a5568", stroke: "#1a202c" }),
      rect(4, 4, w - 8, h - 8, { fill: "none", stroke: "#a0aec0", "stroke-dasharray": "3 3" }),
    ]);
  }
  /* A player's area: <g data-seat=n>, moved to x,y. */
  function seat(n, x, y, children) {
    return group({ class: "seat", "data-seat": n, transform: "translate(" + x + "," + y + ")" }, children);
  }
  /* A horizontal bar `value` of `max` (oxygen, hull, a track). */
  function bar(x, y, w, h, value, max, fillColour) {
    var share = max > 0 ? Math.max(0, Math.min(1, value / max)) : 0;
    return group({ class: "bar" }, [
      rect(x, y, w, h, { rx: 2, fill: "#edf2f7" }),
      rect(x, y, w * share, h, { rx: 2, fill: fillColour || "#3182ce", stroke: "none" }),
    ]);
  }

  window.MoonBoards.svg = {
    NS: NS, el: el, root: root, text: text, rect: rect, circle: circle, group: group,
    title: title, clip: clip, colour: colour, die: die, card: card, back: back, seat: seat, bar: bar,
  };
})();
