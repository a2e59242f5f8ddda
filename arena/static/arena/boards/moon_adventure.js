/* Moon Adventure board for the replay viewer (interface: boards/common.js).
 *
 * Top: the mission (undamaged supplies needed, what the crew holds), the phase, whose turn
 * with its role, action points and dice, the oxygen draw and discard piles and the storms
 * left. Then the track as a winding line of spaces from the Base: supply chips (face down,
 * data-hidden, until turned up: then undamaged ✓ or broken ✗), collected spaces, OGS and
 * routes, the Rover, the robot and each crew piece in its seat's colour. Then each seat:
 * its role card, its containers (oxygen cards, supply chips), whether it is home. At the
 * end, whether the mission succeeded.
 */
(function () {
  "use strict";
  window.MoonBoards = window.MoonBoards || {};
  var W = 360, COLS = 8, SW = 42, SH = 36, GAP = 3;
  var KIND_FILL = { base: "#c6f6d5", supply: "#fefcbf", collected: "#edf2f7", ogs: "#9ae6b4", ogs_broken: "#feb2b2", rover_spot: "#bee3f8" };
  var ROLE_NAMES = { engineer: "Engineer", carrier: "Carrier", mood_maker: "Mood Maker", mechanic: "Mechanic", inspector: "Inspector", inventor: "Inventor", veteran: "Veteran", flight_surgeon: "Flight Surgeon", athlete: "Athlete", rookie: "Rookie" };

  function spaceAt(q) {
    var row = Math.floor(q / COLS), col = q % COLS;
    if (row % 2) col = COLS - 1 - col;  // the line winds back on odd rows
    return { x: 2 + col * (SW + GAP), y: row * (SH + 14) };
  }

  function chip(svg, x, y, size, shown, label) {
    // A supply chip: its area is public; whether it is broken only once turned face up.
    if (shown.broken === null || shown.broken === undefined) {
      return svg.group({ class: "chip back", "data-hidden": "1", transform: "translate(" + x + "," + y + ")" }, [
        svg.title((label || "a face-down supply chip") + " (Area " + shown.area + ")"),
        svg.rect(0, 0, size, size, { rx: size / 2, fill: "#4a5568", stroke: "#1a202c" }),
        svg.text(size / 2, size / 2 + 4, shown.area, { "text-anchor": "middle", fill: "#fff", "font-size": 11 }),
      ]);
    }
    var ok = shown.broken === false;
    return svg.group({ class: "chip", "data-chip": ok ? "undamaged" : "broken", transform: "translate(" + x + "," + y + ")" }, [
      svg.title("Area " + shown.area + " supply, " + (ok ? "undamaged" : "broken")),
      svg.rect(0, 0, size, size, { rx: size / 2, fill: ok ? "#c6f6d5" : "#fed7d7", stroke: ok ? "#276749" : "#9b2c2c", "stroke-width": 1.5 }),
      svg.text(size / 2, size / 2 + 4, (ok ? "✓" : "✗") + shown.area, { "text-anchor": "middle", "font-size": 10, "font-weight": "bold", fill: ok ? "#276749" : "#9b2c2c" }),
    ]);
  }
  function oxygenCard(svg, x, y, w, h, amount) {
    var g = svg.card(x, y, w, h, String(amount), "O₂", [], { fill: "#ebf8ff", stroke: "#2b6cb0" });
    g.appendChild(svg.text(w / 2, h - 6, "×" + amount, { "text-anchor": "middle", "font-size": 13, "font-weight": "bold", fill: "#2b6cb0" }));
    return g;
  }

  function track(svg, v, frame, ctx, top) {
    var g = svg.group({ class: "track", transform: "translate(0," + top + ")" });
    var spaces = v.track || [];
    // The line joining the spaces.
    var path = [];
    spaces.forEach(function (_, q) { var p = spaceAt(q); path.push((p.x + SW / 2) + "," + (p.y + SH / 2)); });
    g.appendChild(svg.el("polyline", { points: path.join(" "), fill: "none", stroke: "#cbd5e0", "stroke-width": 6 }));
    spaces.forEach(function (space, q) {
      var p = spaceAt(q);
      var s = svg.group({ class: "space", "data-space": q, "data-kind": space.kind, transform: "translate(" + p.x + "," + p.y + ")" }, [
        svg.title(q + ": " + space.kind + (space.route ? " (route)" : "") + (space.abandoned ? " (abandoned)" : "")),
        svg.rect(0, 0, SW, SH, { fill: KIND_FILL[space.kind] || "#fff", stroke: space.route ? "#2b6cb0" : "#718096", "stroke-width": space.route ? 3 : 1, "stroke-dasharray": space.abandoned ? "4 2" : null }),
      ]);
      if (space.kind === "base") s.appendChild(svg.text(SW / 2, 14, "BASE", { "text-anchor": "middle", "font-size": 11, "font-weight": "bold", fill: "#276749" }));
      else if (space.kind === "supply") s.appendChild(chip(svg, 3, 3, 18, space, "a supply chip on the track"));
      else if (space.kind === "ogs" || space.kind === "ogs_broken") s.appendChild(svg.text(SW / 2, 14, space.kind === "ogs" ? "OGS" : "OGS✗", { "text-anchor": "middle", "font-size": 11 }));
      else if (space.kind === "rover_spot") s.appendChild(svg.text(SW / 2, 14, "spot", { "text-anchor": "middle", "font-size": 11 }));
      g.appendChild(s);
    });
    // Pieces: the Rover, the robot, then each crew piece not yet home.
    function at(q) { return q === null || q === undefined || q >= spaces.length ? null : spaceAt(q); }
    var rover = at(v.rover);
    if (rover) g.appendChild(svg.group({ class: "rover" }, [svg.title("the Rover" + (v.rider !== null && v.rider !== undefined ? ", carrying " + ctx.names[v.rider] : "")), svg.rect(rover.x + SW - 17, rover.y + 2, 15, 11, { rx: 2, fill: "#2c5282", stroke: "none" })]));
    var robot = at(v.robot);
    if (robot) g.appendChild(svg.group({ class: "robot" }, [svg.title("the robot"), svg.rect(robot.x + SW - 14, robot.y + 16, 11, 11, { rx: 1, fill: "#718096", stroke: "#1a202c" })]));
    var onBase = 0;
    (v.crew || []).forEach(function (q, seat) {
      var p = at(q);
      if (!p) return;
      var dx = q === 0 ? 6 + (onBase++) * 9 : 10;
      var home = v.returned && v.returned[seat];
      g.appendChild(svg.group({ class: "piece", "data-piece": seat }, [
        svg.title(ctx.names[seat] + (home ? " (home)" : " at space " + q)),
        svg.circle(p.x + dx, p.y + SH - 9, 7, { fill: svg.colour(seat), stroke: frame.to_move === seat ? "#d69e2e" : "#1a202c", "stroke-width": frame.to_move === seat ? 3 : 1 }),
        svg.text(p.x + dx, p.y + SH - 5, seat, { "text-anchor": "middle", "font-size": 10, fill: "#fff" }),
      ]));
    });
    return g;
  }

  function held(v) {
    var known = 0, hidden = 0;
    (v.containers || []).forEach(function (slots, seat) {
      if (v.returned && !v.returned[seat] && v.outcome !== null && v.outcome !== undefined) return;
      slots.forEach(function (item) {
        if (!item || item.oxygen) return;
        if (item.broken === false) known++;
        else if (item.broken === null) hidden++;
      });
    });
    return { known: known, hidden: hidden };
  }

  function seatArea(svg, v, seat, frame, ctx, y) {
    var g = svg.seat(seat, 0, y);
    var current = v.current === seat && !v.outcome;
    g.appendChild(svg.rect(2, 0, W - 4, 62, { fill: current ? "#fffbea" : "#f7fafc", stroke: current ? "#d69e2e" : svg.colour(seat), "stroke-width": current ? 3 : 1.5 }));
    g.appendChild(svg.rect(2, 0, 8, 62, { fill: svg.colour(seat), stroke: "none", rx: 2 }));
    var home = v.returned && v.returned[seat];
    var place = home ? "home" : v.crew && v.crew[seat] === 0 ? "on the Base" : "space " + (v.crew ? v.crew[seat] : "?");
    g.appendChild(svg.text(16, 16, svg.clip(ctx.names[seat] || "seat " + seat, 16) + " · " + place, { "font-weight": "bold" }));
    var role = (v.roles || [])[seat];
    if (role) {
      var rc = svg.card(16, 22, 84, 34, role, ROLE_NAMES[role] || role, [], { fill: "#faf5ff", stroke: "#6b46c1" });
      g.appendChild(rc);
    }
    var slots = (v.containers || [])[seat] || [];
    var oxygen = 0;
    slots.forEach(function (item, i) {
      var x = 108 + i * 40;
      if (!item) { g.appendChild(svg.rect(x, 22, 36, 34, { fill: "none", stroke: "#cbd5e0", "stroke-dasharray": "3 3" })); return; }
      if (item.oxygen) { oxygen += item.oxygen; g.appendChild(oxygenCard(svg, x, 22, 36, 34, item.oxygen)); return; }
      g.appendChild(chip(svg, x + 4, 26, 28, item, "a face-down supply chip in a container"));
    });
    g.appendChild(svg.text(W - 8, 16, "O₂ " + oxygen, { "text-anchor": "end", "font-weight": "bold", fill: "#2b6cb0" }));
    return g;
  }

  function draw(frame, ctx) {
    var svg = ctx.svg, v = frame.view || {};
    var rows = Math.ceil((v.track || []).length / COLS);
    var seats = (v.crew || []).length;
    var trackTop = 92, seatsTop = trackTop + rows * (SH + 14) + 4;
    var height = seatsTop + seats * 68 + (v.outcome ? 44 : 4);
    var out = svg.root("moon_adventure", frame, W, height, [svg.rect(0, 0, W, height, { rx: 0, fill: "#fff", stroke: "none" })]);
    var h = held(v);
    out.appendChild(svg.text(4, 16, "Mission: " + v.target + " undamaged supplies home", { "font-weight": "bold" }));
    out.appendChild(svg.text(W - 4, 16, "held ✓" + h.known + " ?" + h.hidden, { "text-anchor": "end", "font-size": 12 }));
    out.appendChild(svg.bar(4, 22, W - 8, 6, h.known, v.target || 1, "#38a169"));
    var who = v.current === null || v.current === undefined ? "—" : ctx.names[v.current] || "seat " + v.current;
    var role = (v.roles || [])[v.current];
    out.appendChild(svg.text(4, 46, svg.clip(who, 14) + (role ? " (" + (ROLE_NAMES[role] || role) + ")" : "") + " · " + v.phase + " · AP " + v.ap, { "font-size": 12 }));
    var dx = 4;
    out.appendChild(svg.text(dx, 72, "Dice", { "font-size": 12 }));
    (v.dice || []).forEach(function (d, i) { out.appendChild(svg.die(36 + i * 26, 56, 22, d)); });
    var draw_ = v.draw_pile || {}, discard = v.discard_pile || {};
    out.appendChild(svg.text(W - 4, 62, "draw " + draw_.size + " · discard " + discard.size, { "text-anchor": "end", "font-size": 11, fill: "#4a5568" }));
    out.appendChild(svg.text(W - 4, 78, "storms " + v.storms_aside + " · routes " + v.routes_left + " · OGS " + v.ogs_left, { "text-anchor": "end", "font-size": 11, fill: "#4a5568" }));
    out.appendChild(track(svg, v, frame, ctx, trackTop));
    for (var seat = 0; seat < seats; seat++) out.appendChild(seatArea(svg, v, seat, frame, ctx, seatsTop + seat * 68));
    if (v.outcome) {
      var ok = v.outcome === "success";
      out.appendChild(svg.group({ class: "outcome", "data-outcome": v.outcome }, [
        svg.rect(4, height - 40, W - 8, 36, { fill: ok ? "#c6f6d5" : "#fed7d7", stroke: ok ? "#276749" : "#9b2c2c", "stroke-width": 2 }),
        svg.text(W / 2, height - 17, (ok ? "Mission succeeded" : "Mission failed") + ": " + v.team_score + " of " + v.target + " supplies", { "text-anchor": "middle", "font-weight": "bold", "font-size": 14, fill: ok ? "#276749" : "#9b2c2c" }),
      ]));
    }
    return out;
  }

  function oxygenOf(v) {
    return (v.containers || []).map(function (slots) {
      return slots.reduce(function (n, item) { return n + (item && item.oxygen ? item.oxygen : 0); }, 0);
    });
  }
  function series(frame) {
    if (!frame.view || !frame.view.containers) return null;
    return { label: "Oxygen", values: oxygenOf(frame.view) };
  }
  function events(frame, previous) {
    var found = [], a = String(frame.action || ""), v = frame.view || {};
    if (frame.actor === null) return found;
    if (/^oxygen[23]$/.test(a)) found.push("roll");
    if (/^(move|walk)/.test(a)) found.push("move");
    if (/^(give|take|swap|share)/.test(a)) found.push("share");
    if (/^(ogs|route)/.test(a)) found.push("build");
    if (previous) {
      var p = previous.view || {};
      var count = function (t, k) { return (t || []).filter(function (s) { return s.kind === k; }).length; };
      if (count(v.track, "collected") > count(p.track, "collected")) found.push("gather");
      if (((v.discard_pile || {}).storms || 0) > ((p.discard_pile || {}).storms || 0) || (v.storms_aside < p.storms_aside)) found.push("storm");
      if ((v.returned || []).some(function (r, i) { return r && !(p.returned || [])[i]; })) found.push("home");
    }
    if (frame.result) found.push(v.outcome === "success" ? "success" : "failure");
    return found;
  }

  window.MoonBoards.moon_adventure = { draw: draw, series: series, events: events };
})();
