/* Moon-Bots: the board drawn from one replay frame.
 *
 * Plugin of the replay viewer: window.MoonBoards.moon_bots = {draw, series, events}.
 * Each robot with its six part slots, energy (its health: attacks take it away), upgrades
 * and secret weapons: face down unless the view holds their kinds (only the owner's view
 * does) or they were played (then they lie face up among the revealed weapons). The market
 * shows a face-down weapon as a card back with its price. A reaction window (a robot
 * asked whether it plays a weapon) is drawn as a banner while it is open; an eliminated
 * robot is crossed out with its place in the elimination order.
 */
(function () {
  "use strict";

  var NS = "http://www.w3.org/2000/svg";
  var W = 480; // viewBox width: one column that stays readable at phone width
  var MAX_ENERGY = 18;
  var WINDOWS = {
    defend: "being hit",
    start_of_turn: "start of a turn",
    after_roll: "after a roll",
    energy_pump: "after an energy gain",
  };
  var SLOT_BOX = {
    // x, y of each part slot in a robot's silhouette (boxes 74 × 30)
    head: [84, 0],
    left_arm: [4, 36],
    torso: [84, 36],
    right_arm: [164, 36],
    left_leg: [44, 72],
    right_leg: [124, 72],
  };
  var CATEGORY_COLOUR = { part: "#1c8c8c", upgrade: "#b8901c", secret: "#6a1b9a" };

  // Tiny private SVG helpers (the shared ones in common.js have their own file).
  function el(tag, attrs, kids) {
    var node = document.createElementNS(NS, tag);
    var key;
    for (key in attrs || {}) {
      if (attrs[key] !== null && attrs[key] !== undefined) node.setAttribute(key, String(attrs[key]));
    }
    (kids || []).forEach(function (kid) {
      if (kid) node.appendChild(kid);
    });
    return node;
  }
  function text(x, y, value, attrs) {
    var node = el("text", Object.assign({ x: x, y: y, "font-size": 12, fill: "#1d232b" }, attrs || {}));
    node.textContent = String(value);
    return node;
  }
  function title(value) {
    var node = el("title");
    node.textContent = value;
    return node;
  }
  function clip(value, chars) {
    value = String(value);
    return value.length > chars ? value.slice(0, chars - 1) + "…" : value;
  }
  function words(key) {
    var s = String(key).replace(/_/g, " ");
    return s.charAt(0).toUpperCase() + s.slice(1);
  }
  function nameOf(ctx, seat) {
    var names = (ctx && ctx.names) || [];
    return names[seat] || "Seat " + seat;
  }
  function section(svg, y, label) {
    svg.appendChild(text(8, y + 13, label, { "font-size": 12, "font-weight": "bold", fill: "#39424e", class: "section" }));
    svg.appendChild(el("line", { x1: 8, x2: W - 8, y1: y + 17, y2: y + 17, stroke: "#cfd5de" }));
    return y + 22;
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

  // What a part or board ability needs and does: "5/6 → 2 fists, −1 energy".
  function effect(a) {
    var when = {
      one: (a.values || []).join("/"),
      doubles: "double",
      total7: "sum 7",
      total_lt4: "sum<4",
      total_gt10: "sum>10",
    }[a.condition] || a.condition;
    var does = [];
    if (a.fists) does.push(a.fists + " fist");
    if (a.missiles) does.push(a.missiles + " missile");
    if (a.energy) does.push((a.energy > 0 ? "+" : "−") + Math.abs(a.energy) + " energy");
    return when + " → " + (does.join(", ") || "nothing");
  }

  // One die face with pips; `used` fades it.
  function die(x, y, value, used, size) {
    size = size || 22;
    var kids = [
      el("rect", { x: x, y: y, width: size, height: size, rx: 4, fill: used ? "#e3e5e9" : "#fff", stroke: "#333" }),
    ];
    var q = size / 4;
    var pips = {
      1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
      4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
      6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
    }[value] || [];
    pips.forEach(function (p) {
      kids.push(el("circle", { cx: x + p[0] * q, cy: y + p[1] * q, r: size / 11, fill: used ? "#999" : "#111" }));
    });
    return el("g", { class: "die" + (used ? " used" : ""), "data-value": value }, kids);
  }

  function faceUp(x, y, w, h, key, label, colour, note) {
    var kids = [
      title(label),
      el("rect", { x: x, y: y, width: w, height: h, rx: 4, fill: "#fff", stroke: colour, "stroke-width": 1.5 }),
      el("rect", { x: x, y: y, width: w, height: 5, rx: 2, fill: colour }),
      text(x + 3, y + 16, clip(label, Math.floor(w / 5.6)), { "font-size": 9.5 }),
    ];
    if (note) kids.push(text(x + 3, y + h - 4, clip(note, Math.floor(w / 5)), { "font-size": 8.5, fill: "#555" }));
    return el("g", { class: "card", "data-card": key }, kids);
  }

  function faceDown(x, y, w, h, note) {
    var kids = [
      el("rect", { x: x, y: y, width: w, height: h, rx: 4, fill: "#4a2a6b", stroke: "#2a1040" }),
      text(x + w / 2, y + h / 2 + 4, "?", { "font-size": 12, fill: "#d9c6f0", "text-anchor": "middle" }),
    ];
    if (note) kids.push(text(x + w - 3, y + h - 3, note, { "font-size": 8.5, fill: "#fff", "text-anchor": "end" }));
    return el("g", { class: "card back", "data-hidden": "1" }, kids);
  }

  function energyBar(x, y, w, energy) {
    var frac = Math.max(0, Math.min(1, energy / MAX_ENERGY));
    var colour = frac > 0.5 ? "#2e9a52" : frac > 0.25 ? "#e0a21b" : "#c8323c";
    return el("g", { class: "energy", "data-energy": energy }, [
      title("energy " + energy + " of " + MAX_ENERGY),
      el("rect", { x: x, y: y, width: w, height: 12, rx: 6, fill: "#e4e7ec" }),
      el("rect", { x: x, y: y, width: w * frac, height: 12, rx: 6, fill: colour }),
      text(x + w / 2, y + 10, "energy " + energy + " / " + MAX_ENERGY, { "font-size": 9.5, "text-anchor": "middle", fill: "#111" }),
    ]);
  }

  function robotPanel(v, rb, y, ctx, frame) {
    var active = v.active_robot === rb.robot && !frame.result;
    var order = (v.eliminated_robots || []).indexOf(rb.robot);
    var out = !rb.alive || order >= 0;
    var g = el("g", {
      class: "robot" + (out ? " eliminated" : "") + (active ? " active" : ""),
      "data-robot": rb.robot, "data-eliminated": out ? "1" : null,
    });
    var upgradeRows = Math.max(1, Math.ceil((rb.upgrades || []).length / 3));
    var weaponRows = Math.max(1, Math.ceil(rb.secret_weapon_count / 3));
    var h = Math.max(152, 80 + upgradeRows * 24 + 2 + weaponRows * 26 + 8);
    g.appendChild(el("rect", {
      x: 6, y: y, width: W - 12, height: h, rx: 6, fill: out ? "#eceef1" : "#f7f8fa",
      stroke: active ? "#e08a00" : "#c5cbd4", "stroke-width": active ? 2 : 1,
    }));
    var head = "Robot " + (rb.robot + 1) + " · " + nameOf(ctx, rb.owner);
    g.appendChild(text(14, y + 16, clip(head, 36), { "font-size": 12, "font-weight": "bold" }));
    if (active) g.appendChild(text(W - 14, y + 16, "▶ its turn", { "font-size": 11, "text-anchor": "end", fill: "#b25b00" }));
    g.appendChild(energyBar(14, y + 24, W - 28, rb.energy));
    // The silhouette: six part slots around the torso.
    var bx = 10, by = y + 44;
    g.appendChild(el("rect", { x: bx + 100, y: by + 28, width: 42, height: 58, rx: 8, fill: "#dfe3ea" }));
    Object.keys(SLOT_BOX).forEach(function (slot) {
      var sx = bx + SLOT_BOX[slot][0], sy = by + SLOT_BOX[slot][1];
      var part = (rb.parts || {})[slot];
      if (part) {
        var drawn = faceUp(sx, sy, 74, 30, part.key, part.name, CATEGORY_COLOUR.part, effect(part));
        drawn.firstChild.textContent = part.name + ": " + effect(part);
        g.appendChild(drawn);
      } else {
        g.appendChild(el("g", { class: "slot empty" }, [
          el("rect", { x: sx, y: sy, width: 74, height: 30, rx: 4, fill: "none", stroke: "#aab", "stroke-dasharray": "3 3" }),
          text(sx + 37, sy + 19, words(slot), { "font-size": 9, fill: "#99a", "text-anchor": "middle" }),
        ]));
      }
    });
    // Right column: board ability, dice, upgrades, secret weapons.
    var rx = 256;
    g.appendChild(text(rx, y + 56, "Board: " + effect(rb.board_ability || {}), { "font-size": 9.5 }));
    g.appendChild(text(rx, y + 70, rb.dice + (rb.dice === 1 ? " die" : " dice") + " · targets " + (rb.targets || []).map(function (t) { return t + 1; }).join(", "), { "font-size": 9.5, fill: "#555" }));
    var ux = rx, uy = y + 76;
    (rb.upgrades || []).forEach(function (key, i) {
      var cx = ux + (i % 3) * 71, cy = uy + Math.floor(i / 3) * 24;
      g.appendChild(faceUp(cx, cy, 68, 21, key, words(key), CATEGORY_COLOUR.upgrade, null));
    });
    var wy = uy + Math.max(1, Math.ceil((rb.upgrades || []).length / 3)) * 24 + 2;
    g.appendChild(text(rx, wy + 10, "Secret weapons", { "font-size": 9.5, fill: "#555" }));
    var weapons = el("g", { class: "secret-weapons" });
    var known = Array.isArray(rb.secret_weapons) ? rb.secret_weapons : null;
    for (var i = 0; i < rb.secret_weapon_count; i++) {
      var wx = rx + 80 + (i % 3) * 44, wyy = wy + Math.floor(i / 3) * 26;
      if (known && known[i]) {
        weapons.appendChild(faceUp(wx, wyy, 42, 24, known[i], words(known[i]), CATEGORY_COLOUR.secret, null));
      } else {
        weapons.appendChild(faceDown(wx, wyy, 42, 24, null));
      }
    }
    if (!rb.secret_weapon_count) weapons.appendChild(text(rx + 80, wy + 10, "none", { "font-size": 9.5, fill: "#99a" }));
    g.appendChild(weapons);
    if (out) {
      g.appendChild(el("line", { x1: 16, y1: y + 40, x2: W - 16, y2: y + h - 8, stroke: "#c8323c", "stroke-width": 3, opacity: 0.6 }));
      g.appendChild(el("line", { x1: W - 16, y1: y + 40, x2: 16, y2: y + h - 8, stroke: "#c8323c", "stroke-width": 3, opacity: 0.6 }));
      g.appendChild(el("g", { class: "elimination" }, [
        el("rect", { x: W / 2 - 90, y: y + h / 2 - 4, width: 180, height: 26, rx: 4, fill: "#c8323c" }),
        text(W / 2, y + h / 2 + 14, "ELIMINATED" + (order >= 0 ? " (#" + (order + 1) + ")" : ""), {
          "font-size": 14, "font-weight": "bold", fill: "#fff", "text-anchor": "middle",
        }),
      ]));
    }
    return [g, h + 6];
  }

  function drawWindow(svg, y, v, ctx) {
    var d = v.decision;
    if (!d || !WINDOWS[d.kind]) return y;
    var robot = (v.robots || [])[d.robot] || {};
    var line = "Robot " + (d.robot + 1) + " (" + nameOf(ctx, robot.owner) + ") may play a secret weapon";
    var why = WINDOWS[d.kind];
    if (d.kind === "defend") why = "hit by robot " + (d.attacker + 1) + ": " + d.hits + " " + d.type + (d.hits === 1 ? "" : "s");
    if (d.kind === "energy_pump") why = "robot " + (d.gainer + 1) + " gained energy";
    svg.appendChild(el("g", { class: "reaction-window", "data-window": d.kind, "data-robot": d.robot }, [
      el("rect", { x: 6, y: y, width: W - 12, height: 36, rx: 6, fill: "#f3e8ff", stroke: "#6a1b9a", "stroke-width": 1.5 }),
      text(14, y + 15, "Reaction window — " + why, { "font-size": 11, "font-weight": "bold", fill: "#4a1070" }),
      text(14, y + 30, clip(line, 70), { "font-size": 10.5 }),
    ]));
    return y + 42;
  }

  function drawTurn(svg, y, v, ctx) {
    var dice = v.dice || [];
    var g = el("g", { class: "turn-state" });
    g.appendChild(text(8, y + 14, "Dice", { "font-size": 10, fill: "#555" }));
    dice.forEach(function (value, i) {
      g.appendChild(die(40 + i * 27, y, value, (v.dice_used || [])[i]));
    });
    if (!dice.length) g.appendChild(text(40, y + 14, "not rolled", { "font-size": 10, fill: "#99a" }));
    var la = v.last_attack;
    if (la) {
      var line = "Robot " + (la.attacker + 1) + " attacked " + la.targets.map(function (t) { return "robot " + (t + 1); }).join(" and ") + " with " + la.type + "s";
      g.appendChild(el("g", { class: "attack", "data-attacker": la.attacker }, [
        text(W - 8, y + 14, clip(line, 46), { "font-size": 10.5, "text-anchor": "end", fill: "#a3261f" }),
      ]));
    }
    svg.appendChild(g);
    return y + 30;
  }

  function drawMarket(svg, y, v) {
    y = section(svg, y, "Market · pile " + v.deck_size + " · revealed weapons " + (v.used_secret_weapons || []).length);
    var cells = v.market || [];
    var w = 112, h = 34;
    cells.forEach(function (c, slot) {
      var col = slot % 2, row = Math.floor(slot / 2);
      var x = 8 + col * (w + 4), cy = y + (2 - row) * (h + 4); // row 0 is the bottom row
      if (!c) {
        svg.appendChild(el("rect", { x: x, y: cy, width: w, height: h, rx: 4, fill: "none", stroke: "#aab", "stroke-dasharray": "3 3" }));
      } else if (c.face_down) {
        svg.appendChild(faceDown(x, cy, w, h, "cost " + c.cost));
      } else {
        var note = "cost " + c.cost + (c.category === "part" ? " · " + effect(c) : "");
        svg.appendChild(faceUp(x, cy, w, h, c.key, c.name, CATEGORY_COLOUR[c.category] || "#555", note));
      }
    });
    // The pile: the back of its top card only.
    var px = 8 + 2 * (w + 4) + 6;
    if (v.deck_top) {
      var pile = v.deck_top === "secret" ? faceDown(px, y, 50, 70, null) : el("g", { class: "card back", "data-hidden": "1" }, [
        el("rect", { x: px, y: y, width: 50, height: 70, rx: 4, fill: "#1c5c5c", stroke: "#0c3030" }),
      ]);
      svg.appendChild(pile);
    }
    svg.appendChild(text(px + 25, y + 84, "pile " + v.deck_size, { "font-size": 9.5, "text-anchor": "middle", fill: "#555" }));
    var used = v.used_secret_weapons || [];
    var ux = px + 58;
    svg.appendChild(text(ux, y + 10, "Played weapons", { "font-size": 9.5, fill: "#555" }));
    used.forEach(function (key, i) {
      var cx = ux + (i % 2) * 50, cy = y + 14 + Math.floor(i / 2) * 24;
      var card = faceUp(cx, cy, 48, 22, key, words(key), CATEGORY_COLOUR.secret, null);
      card.setAttribute("class", "card revealed");
      svg.appendChild(card);
    });
    var usedRows = Math.ceil(used.length / 2);
    return y + Math.max(3 * (h + 4), 90, 14 + usedRows * 24) + 6;
  }

  function draw(frame, ctx) {
    var v = (frame && frame.view) || {};
    var svg = el("svg", {
      xmlns: NS, class: "board board-moon_bots", "data-step": frame ? frame.index : 0,
      role: "img", "aria-label": "Moon-Bots table, step " + (frame ? frame.index : 0),
      width: "100%", preserveAspectRatio: "xMidYMin meet",
      style: "display:block;max-width:100%;height:auto;font-family:system-ui,sans-serif",
    });
    var y = 4;
    var d = v.decision;
    svg.appendChild(text(8, y + 14, "Turn " + v.turn + " of " + v.turn_limit, { "font-size": 13, "font-weight": "bold" }));
    var status = frame && frame.result ? winners(frame.result, ctx) : d ? words(d.kind) + " · robot " + (d.robot + 1) : "";
    svg.appendChild(text(W - 8, y + 14, clip(status, 44), { "font-size": 11, "text-anchor": "end", fill: frame && frame.result ? "#a3261f" : "#555", class: "decision" }));
    y += 24;
    y = drawWindow(svg, y, v, ctx);
    y = drawTurn(svg, y, v, ctx);
    y = section(svg, y, "Robots");
    var robots = v.robots || [];
    var owners = [];
    robots.forEach(function (rb) {
      if (owners.indexOf(rb.owner) < 0) owners.push(rb.owner);
    });
    owners.forEach(function (owner) {
      var area = el("g", { class: "player", "data-seat": owner });
      robots.forEach(function (rb) {
        if (rb.owner !== owner) return;
        var panel = robotPanel(v, rb, y, ctx, frame || {});
        area.appendChild(panel[0]);
        y += panel[1];
      });
      svg.appendChild(area);
    });
    y = drawMarket(svg, y + 2, v);
    svg.setAttribute("viewBox", "0 0 " + W + " " + Math.ceil(y + 4));
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
