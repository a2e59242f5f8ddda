/* Moon-Bots: the board drawn from one replay frame.
 *
 * Plugin of the replay viewer: window.MoonBoards.moon_bots = {draw, series, events}.
 * Each robot with its six part slots, energy (its health: attacks take it away), upgrades
 * and secret weapons: face down unless the view holds their kinds (the owner's view and the
 * revealed one's `seats`) or they were played (then they lie face up among those played).
 * Drawn with common.js's helpers (loaded before this file). The market shows a face-down
 * weapon as a card back with its price. A reaction window (a robot
 * asked whether it plays a weapon) is drawn as a banner while it is open; an eliminated
 * robot is crossed out with its place in the elimination order.
 */
(function () {
  "use strict";

  var W = 400; // viewBox width (common.js: about 400 wide, text 12 units or more)
  var MAX_ENERGY = 18;
  var WINDOWS = {
    defend: "being hit",
    start_of_turn: "start of a turn",
    after_roll: "after a roll",
    energy_pump: "after an energy gain",
  };
  var PART_W = 122, PART_H = 38;
  var SLOT_BOX = {
    // column, row of each part slot in a robot's silhouette (columns are PART_W + 4 apart)
    head: [1, 0], left_arm: [0, 1], torso: [1, 1], right_arm: [2, 1], left_leg: [0.5, 2], right_leg: [1.5, 2],
  };
  var CATEGORY_COLOUR = { part: "#1d7a7a", upgrade: "#975a16", secret: "#553c9a" };

  // common.js's helpers (el, text, title, clip, back, seat ...): loaded before this file.
  var S = window.MoonBoards.svg;

  function words(key) {
    var s = String(key).replace(/_/g, " ");
    return s.charAt(0).toUpperCase() + s.slice(1);
  }
  function nameOf(ctx, seat) {
    var names = (ctx && ctx.names) || [];
    return names[seat] || "Seat " + seat;
  }
  function section(svg, y, value) {
    svg.appendChild(S.text(6, y + 14, value, { "font-size": 13, "font-weight": "bold", fill: "#2d3748", class: "section" }));
    svg.appendChild(S.el("line", { x1: 6, x2: W - 6, y1: y + 19, y2: y + 19, stroke: "#cbd5e0" }));
    return y + 25;
  }
  // "Game over: X wins" (or "X and Y share first place") from the result's ranks.
  function winners(result, ctx) {
    var first = [];
    (result.ranks || []).forEach(function (rank, seat) {
      if (rank === 1) first.push(nameOf(ctx, seat));
    });
    if (!first.length) return "Game over";
    return "Game over: " + first.join(" and ") + (first.length > 1 ? " share first place" : " wins");
  }

  // What a part or board ability needs and does: "5/6→2F −1E" (2 fist hits, lose 1 energy).
  function effect(a) {
    var when = {
      one: (a.values || []).join("/"),
      doubles: "double",
      total7: "sum 7",
      total_lt4: "sum<4",
      total_gt10: "sum>10",
    }[a.condition] || a.condition;
    var does = [];
    if (a.fists) does.push(a.fists + "F");
    if (a.missiles) does.push(a.missiles + "M");
    if (a.energy) does.push((a.energy > 0 ? "+" : "−") + Math.abs(a.energy) + "E");
    return when + "→" + (does.join(" ") || "nothing");
  }
  function effectWords(a) {
    var does = [];
    if (a.fists) does.push(a.fists + " fist" + (a.fists === 1 ? "" : "s"));
    if (a.missiles) does.push(a.missiles + " missile" + (a.missiles === 1 ? "" : "s"));
    if (a.energy) does.push((a.energy > 0 ? "+" : "−") + Math.abs(a.energy) + " energy");
    return "on " + effect(a).split("→")[0] + ": " + (does.join(", ") || "nothing");
  }

  // One die face with pips; `used` fades it.
  function die(x, y, value, used) {
    var size = 26, q = size / 4;
    var kids = [S.el("rect", { x: x, y: y, width: size, height: size, rx: 4, fill: used ? "#e2e8f0" : "#fff", stroke: "#2d3748", "stroke-width": 1.5 })];
    var pips = {
      1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
      4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
      6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
    }[value] || [];
    pips.forEach(function (p) {
      kids.push(S.el("circle", { cx: x + p[0] * q, cy: y + p[1] * q, r: size / 11, fill: used ? "#a0aec0" : "#1a202c" }));
    });
    kids.push(S.title("die showing " + value + (used ? " (used)" : "")));
    return S.el("g", { class: "die" + (used ? " used" : ""), "data-face": value }, kids);
  }

  function faceUp(x, y, w, h, key, name, colour, note, full) {
    var kids = [
      S.title(full || name),
      S.el("rect", { x: x, y: y, width: w, height: h, rx: 4, fill: "#fff", stroke: colour, "stroke-width": 1.5 }),
      S.el("rect", { x: x, y: y, width: w, height: 4, rx: 2, fill: colour }),
      S.text(x + 4, y + 17, S.clip(name, Math.floor((w - 6) / 6.6)), { "font-size": 12 }),
    ];
    if (note) kids.push(S.text(x + 4, y + h - 5, S.clip(note, Math.floor((w - 6) / 6.6)), { "font-size": 12, fill: "#4a5568" }));
    return S.el("g", { class: "card", "data-card": key }, kids);
  }

  // A face-down card: a back and, at most, its public price.
  function faceDown(x, y, w, h, note) {
    var kids = [
      S.el("rect", { x: x, y: y, width: w, height: h, rx: 4, fill: "#44337a", stroke: "#322659" }),
      S.text(x + w / 2, y + h / 2 + 5, "?", { "font-size": 14, fill: "#e9d8fd", "text-anchor": "middle" }),
    ];
    if (note) kids.push(S.text(x + w - 4, y + h - 5, note, { "font-size": 12, fill: "#fff", "text-anchor": "end" }));
    return S.el("g", { class: "card back", "data-hidden": "1" }, kids);
  }

  function energyBar(x, y, w, energy) {
    var frac = Math.max(0, Math.min(1, energy / MAX_ENERGY));
    var colour = frac > 0.5 ? "#38a169" : frac > 0.25 ? "#d69e2e" : "#e53e3e";
    return S.el("g", { class: "energy", "data-energy": energy }, [
      S.title("energy " + energy + " of " + MAX_ENERGY),
      S.el("rect", { x: x, y: y, width: w, height: 16, rx: 8, fill: "#e2e8f0" }),
      S.el("rect", { x: x, y: y, width: w * frac, height: 16, rx: 8, fill: colour }),
      S.text(x + w / 2, y + 12.5, "energy " + energy + " / " + MAX_ENERGY, { "font-size": 12, "text-anchor": "middle", fill: "#1a202c" }),
    ]);
  }

  // The kinds of a robot's secret weapons this view can name (null: face down).
  function weaponsKnown(v, rb) {
    if (Array.isArray(rb.secret_weapons)) return rb.secret_weapons;
    var seats = Array.isArray(v.seats) ? v.seats : null;
    var own = seats && seats[rb.owner] && seats[rb.owner].robots ? seats[rb.owner].robots[rb.robot] : null;
    return own && Array.isArray(own.secret_weapons) ? own.secret_weapons : null;
  }

  function robotPanel(v, rb, y, ctx, frame) {
    var active = v.active_robot === rb.robot && !frame.result;
    var order = (v.eliminated_robots || []).indexOf(rb.robot);
    var out = !rb.alive || order >= 0;
    var g = S.el("g", {
      class: "robot" + (out ? " eliminated" : "") + (active ? " active" : ""),
      "data-robot": rb.robot, "data-eliminated": out ? "1" : null,
    });
    var top = y;
    var box = S.el("rect", { x: 4, y: y, width: W - 8, height: 10, rx: 6, fill: out ? "#edf2f7" : "#f7fafc", stroke: active ? "#dd6b20" : "#cbd5e0", "stroke-width": active ? 2 : 1 });
    g.appendChild(box);
    g.appendChild(S.text(12, y + 18, S.clip("Robot " + (rb.robot + 1) + " · " + nameOf(ctx, rb.owner), 36), { "font-size": 13, "font-weight": "bold" }));
    if (active) g.appendChild(S.text(W - 12, y + 18, "▶ its turn", { "font-size": 12, "text-anchor": "end", fill: "#9c4221" }));
    g.appendChild(energyBar(12, y + 25, W - 24, rb.energy));
    y += 48;
    // The silhouette: six part slots around the torso.
    Object.keys(SLOT_BOX).forEach(function (slot) {
      var sx = 10 + SLOT_BOX[slot][0] * (PART_W + 4), sy = y + SLOT_BOX[slot][1] * (PART_H + 4);
      var part = (rb.parts || {})[slot];
      if (part) {
        g.appendChild(faceUp(sx, sy, PART_W, PART_H, part.key, part.name, CATEGORY_COLOUR.part, effect(part), part.name + ": " + effectWords(part)));
      } else {
        g.appendChild(S.el("g", { class: "slot empty" }, [
          S.el("rect", { x: sx, y: sy, width: PART_W, height: PART_H, rx: 4, fill: "none", stroke: "#a0aec0", "stroke-dasharray": "3 3" }),
          S.text(sx + PART_W / 2, sy + 24, words(slot), { "font-size": 12, fill: "#718096", "text-anchor": "middle" }),
        ]));
      }
    });
    y += 3 * (PART_H + 4) + 2;
    var targets = (rb.targets || []).map(function (t) { return t + 1; }).join(", ");
    g.appendChild(S.text(12, y + 12, S.clip("Board " + effect(rb.board_ability || {}) + " · " + rb.dice + (rb.dice === 1 ? " die" : " dice") + (targets ? " · targets " + targets : ""), 54), { "font-size": 12, fill: "#2d3748" }));
    y += 20;
    (rb.upgrades || []).forEach(function (key, i) {
      g.appendChild(faceUp(10 + (i % 3) * (PART_W + 4), y + Math.floor(i / 3) * 28, PART_W, 25, key, words(key), CATEGORY_COLOUR.upgrade, null));
    });
    y += Math.ceil((rb.upgrades || []).length / 3) * 28;
    var weapons = S.el("g", { class: "secret-weapons" });
    var known = weaponsKnown(v, rb);
    weapons.appendChild(S.text(12, y + 17, "Secret weapons" + (rb.secret_weapon_count ? "" : ": none"), { "font-size": 12, fill: "#4a5568" }));
    for (var i = 0; i < rb.secret_weapon_count; i++) {
      var wx = 110 + (i % 3) * 94, wy = y + Math.floor(i / 3) * 28;
      weapons.appendChild(known && known[i]
        ? faceUp(wx, wy, 90, 25, known[i], words(known[i]), CATEGORY_COLOUR.secret, null)
        : faceDown(wx, wy, 90, 25, null));
    }
    g.appendChild(weapons);
    y += Math.max(1, Math.ceil(rb.secret_weapon_count / 3)) * 28 + 4;
    box.setAttribute("height", y - top);
    if (out) {
      var h = y - top;
      g.appendChild(S.el("line", { x1: 14, y1: top + 44, x2: W - 14, y2: y - 8, stroke: "#c53030", "stroke-width": 3, opacity: 0.55 }));
      g.appendChild(S.el("line", { x1: W - 14, y1: top + 44, x2: 14, y2: y - 8, stroke: "#c53030", "stroke-width": 3, opacity: 0.55 }));
      g.appendChild(S.el("g", { class: "elimination" }, [
        S.el("rect", { x: W / 2 - 95, y: top + h / 2 - 6, width: 190, height: 28, rx: 4, fill: "#c53030" }),
        S.text(W / 2, top + h / 2 + 13, "ELIMINATED" + (order >= 0 ? " (#" + (order + 1) + ")" : ""), {
          "font-size": 15, "font-weight": "bold", fill: "#fff", "text-anchor": "middle",
        }),
      ]));
    }
    return [g, y - top + 6];
  }

  function drawWindow(svg, y, v, ctx) {
    var d = v.decision;
    if (!d || !WINDOWS[d.kind]) return y;
    var robot = (v.robots || [])[d.robot] || {};
    var why = WINDOWS[d.kind];
    if (d.kind === "defend") why = "hit by robot " + (d.attacker + 1) + ": " + d.hits + " " + d.type + (d.hits === 1 ? "" : "s");
    if (d.kind === "energy_pump") why = "robot " + (d.gainer + 1) + " gained energy";
    svg.appendChild(S.el("g", { class: "reaction-window", "data-window": d.kind, "data-robot": d.robot }, [
      S.el("rect", { x: 4, y: y, width: W - 8, height: 42, rx: 6, fill: "#faf5ff", stroke: "#553c9a", "stroke-width": 1.5 }),
      S.text(12, y + 17, S.clip("Reaction window: " + why, 52), { "font-size": 13, "font-weight": "bold", fill: "#44337a" }),
      S.text(12, y + 34, S.clip("Robot " + (d.robot + 1) + " (" + nameOf(ctx, robot.owner) + ") may play a secret weapon", 56), { "font-size": 12 }),
    ]));
    return y + 48;
  }

  function drawTurn(svg, y, v) {
    var dice = v.dice || [];
    var g = S.el("g", { class: "turn-state" });
    g.appendChild(S.text(6, y + 18, "Dice", { "font-size": 12, fill: "#4a5568" }));
    dice.forEach(function (value, i) {
      g.appendChild(die(40 + i * 31, y, value, (v.dice_used || [])[i]));
    });
    if (!dice.length) g.appendChild(S.text(40, y + 18, "not rolled", { "font-size": 12, fill: "#718096" }));
    y += 32;
    var la = v.last_attack;
    if (la) {
      var line = "Robot " + (la.attacker + 1) + " attacked " + la.targets.map(function (t) { return "robot " + (t + 1); }).join(" and ") + " with " + la.type + "s";
      g.appendChild(S.el("g", { class: "attack", "data-attacker": la.attacker }, [
        S.text(6, y + 13, S.clip(line, 56), { "font-size": 12, fill: "#9b2c2c", "font-weight": "bold" }),
      ]));
      y += 20;
    }
    svg.appendChild(g);
    return y;
  }

  function drawMarket(svg, y, v) {
    y = section(svg, y, "Market · pile " + v.deck_size);
    var cells = v.market || [];
    var w = 160, h = 40;
    cells.forEach(function (c, slot) {
      var x = 6 + (slot % 2) * (w + 4), cy = y + (2 - Math.floor(slot / 2)) * (h + 4); // row 0 is the bottom row
      if (!c) {
        svg.appendChild(S.el("rect", { x: x, y: cy, width: w, height: h, rx: 4, fill: "none", stroke: "#a0aec0", "stroke-dasharray": "3 3" }));
      } else if (c.face_down) {
        svg.appendChild(faceDown(x, cy, w, h, "cost " + c.cost));
      } else {
        var note = "cost " + c.cost + (c.category === "part" ? " · " + effect(c) : "");
        svg.appendChild(faceUp(x, cy, w, h, c.key, c.name, CATEGORY_COLOUR[c.category] || "#4a5568", note));
      }
    });
    // The pile: the back of its top card only.
    var px = 6 + 2 * (w + 4) + 4;
    if (v.deck_top) {
      svg.appendChild(v.deck_top === "secret" ? faceDown(px, y, 54, 84, null) : S.el("g", { class: "card back", "data-hidden": "1" }, [
        S.el("rect", { x: px, y: y, width: 54, height: 84, rx: 4, fill: "#1d4044", stroke: "#0c2a2a" }),
      ]));
    }
    svg.appendChild(S.text(px + 27, y + 100, "pile", { "font-size": 12, "text-anchor": "middle", fill: "#4a5568" }));
    y += 3 * (h + 4) + 4;
    var used = v.used_secret_weapons || [];
    svg.appendChild(S.text(6, y + 14, "Secret weapons played: " + (used.length ? "" : "none"), { "font-size": 12, fill: "#4a5568" }));
    y += 20;
    used.forEach(function (key, i) {
      var card = faceUp(6 + (i % 3) * (PART_W + 4), y + Math.floor(i / 3) * 28, PART_W, 25, key, words(key), CATEGORY_COLOUR.secret, null);
      card.setAttribute("class", "card revealed");
      svg.appendChild(card);
    });
    return y + Math.ceil(used.length / 3) * 28 + 4;
  }

  function draw(frame, ctx) {
    S = (ctx && ctx.svg) || window.MoonBoards.svg;
    var v = (frame && frame.view) || {};
    var svg = S.el("svg", {
      xmlns: "http://www.w3.org/2000/svg", class: "board board-moon_bots", "data-step": frame ? frame.index : 0,
      role: "img", "aria-label": "Moon-Bots table, step " + (frame ? frame.index : 0),
      width: "100%", preserveAspectRatio: "xMidYMin meet",
      style: "display:block;max-width:100%;height:auto;font-family:system-ui,sans-serif",
    });
    var y = 2;
    var d = v.decision;
    svg.appendChild(S.text(6, y + 15, "Turn " + v.turn + " of " + v.turn_limit, { "font-size": 14, "font-weight": "bold" }));
    var status = frame && frame.result ? winners(frame.result, ctx) : d ? words(d.kind) + " · robot " + (d.robot + 1) : "";
    svg.appendChild(S.text(6, y + 33, S.clip(status, 54), { "font-size": 12, fill: frame && frame.result ? "#9b2c2c" : "#4a5568", class: "decision" }));
    y += 42;
    y = drawWindow(svg, y, v, ctx);
    y = drawTurn(svg, y, v);
    y = section(svg, y, "Robots · F fist hits, M missile hits, E energy");
    var robots = v.robots || [];
    var owners = [];
    robots.forEach(function (rb) {
      if (owners.indexOf(rb.owner) < 0) owners.push(rb.owner);
    });
    owners.forEach(function (owner) {
      var area = S.seat(owner, 0, 0, []);
      area.setAttribute("class", "seat player");
      robots.forEach(function (rb) {
        if (rb.owner !== owner) return;
        var panel = robotPanel(v, rb, y, ctx, frame || {});
        area.appendChild(panel[0]);
        y += panel[1];
      });
      svg.appendChild(area);
    });
    y = drawMarket(svg, y + 2, v);
    svg.setAttribute("viewBox", "0 0 " + W + " " + Math.ceil(y + 2));
    return svg;
  }

  // Energy per seat (a seat's robots together): what attacks take away and what wins.
  function series(frame, ctx) {
    var robots = (frame && frame.view && frame.view.robots) || [];
    if (!robots.length) return null;
    var seats = (ctx && ctx.players) || 0;
    robots.forEach(function (rb) {
      seats = Math.max(seats, rb.owner + 1);
    });
    var values = [];
    for (var s = 0; s < seats; s++) values.push(0);
    robots.forEach(function (rb) {
      values[rb.owner] += Math.max(0, rb.energy);
    });
    return { label: "Energy", values: values };
  }

  function events(frame, previous) {
    var kinds = [];
    if (!frame) return kinds;
    var v = frame.view || {};
    var pv = (previous && previous.view) || {};
    var action = frame.action;
    var verb = Array.isArray(action) ? action[0] : action;
    if (verb === "roll" || verb === "reroll") kinds.push("roll");
    if (verb === "buy" || verb === "take" || verb === "part") kinds.push("purchase");
    if (v.last_attack && JSON.stringify(v.last_attack) !== JSON.stringify(pv.last_attack || null)) kinds.push("attack");
    var d = v.decision, pd = pv.decision;
    if (d && WINDOWS[d.kind] && JSON.stringify(d) !== JSON.stringify(pd || null)) kinds.push("reaction");
    if ((v.used_secret_weapons || []).length > (pv.used_secret_weapons || []).length) kinds.push("weapon");
    if ((v.eliminated_robots || []).length > (pv.eliminated_robots || []).length) kinds.push("elimination");
    return kinds;
  }

  window.MoonBoards = window.MoonBoards || {};
  window.MoonBoards.moon_bots = { draw: draw, series: series, events: events };
})();
