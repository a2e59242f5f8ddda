/* Moonrollers board for the replay viewer (interface: boards/common.js).
 *
 * Top to bottom: whose turn and its phase, the dice supply, deck and hazard pile; the roll
 * (the faces rolled this time) and the pool with what is locked against the need; the five
 * crew cards on display with their requirements (a coloured dot is the seat whose token
 * covers one; the card being attempted is outlined, its committed requirement marked); then
 * each seat: prestige, hazard tokens (face down unless this view knows their kinds), its crew
 * by faction with each ability in the card's tooltip; and what the last action did.
 */
(function () {
  "use strict";
  window.MoonBoards = window.MoonBoards || {};
  // Crew names and abilities (engine/games/moonrollers/data/crew.json; a test keeps them equal).
  var CREW = {"aponi":["Aponi","If your rolling pool contains 1, 2, or 3 dice, each Wild or Reactor locked may count as 2 Reactors."],"vila_noir":["Vila Noir","If you roll no Reactors, you may re-roll 2 of the dice in your rolling pool."],"salatar":["Salatar","Before locking any dice or using any abilities on the first roll of your turn, you may re-roll all dice in your rolling pool."],"ada_massa":["Ada Massa","Each Extra Die may be locked as 2 Reactors. If a die is locked in this way, it does not add an additional die to your rolling pool if you roll again."],"lee_van_cribb":["Lee Van Cribb","If you roll exactly 1 Reactor, that Reactor may be locked as a Wild."],"lila_al_bindar":["Lila Al Bindar","If you roll 2 or more Reactors, you may re-roll any dice in your rolling pool. This may include the Reactors themselves."],"redacted":["[Redacted]","If your rolling pool contains 1, 2, or 3 dice, each Wild or Shield locked may count as 2 Shields."],"imdar_shade":["Imdar Shade","If you roll no Shields, you may draw 1 Hazard token from the pile."],"namari":["Namari","Gain 2 Prestige after you bust."],"ryle_al_wren":["Ryle Al Wren","Each Extra Die may be locked as 2 Shields. If a die is locked in this way, it does not add an additional die to your rolling pool if you roll again."],"bill_bendo":["Bill Bendo","If you roll exactly 1 Shield, that Shield may be locked as a Wild."],"at_0k":["At-0k","If you roll 2 or more Shields and you do not bust on this roll, you are safe from busting on the next roll. On your next roll, you may stop and keep your completed requirements or roll again even if you are unable to lock any dice."],"dr_umbrage":["Dr. Umbrage","If your rolling pool contains 1, 2, or 3 dice, each Wild or Damage locked may count as 2 Damage."],"saghari":["Saghari","If you roll no Damage, roll 1 die from the supply and add any Wild or Extra Die to your rolling pool. This die is immediately available to use."],"kary_powalk":["Kary Powalk","Any number of Damage on the first roll of your turn may be treated as Extra Dice. Any dice used for this ability may not be locked as Damage."],"dana_powalki":["Dana Powalki","Each Extra Die may be locked as 2 Damage. If a die is locked in this way, it does not add an additional die to your rolling pool if you roll again."],"tantin_al_vale":["Tantin Al Vale","If you roll exactly 1 Damage, that Damage may be locked as a Wild."],"ryan_rogal":["Ryan Rogal","If you roll 2 or more Damage, roll 2 dice from the supply and add any Wilds to your rolling pool. These dice are immediately available to use."],"moro_mada":["Moro Mada","If your rolling pool contains 1, 2, or 3 dice, and you roll at least 1 Extra Die, you are safe from busting. You may stop and keep your completed requirements or roll again even if you are unable to lock any dice. Rolled Extra Dice still add dice to your rolling pool."],"vanta_sae":["Vanta Sae","If you roll no Extra Dice, 1 die from your rolling pool may be locked as a Wild."],"meg_gallak":["Meg Gallak","1 Wild from the first roll of your turn may be saved for your next roll. When you roll again, do not roll this die, but instead place it back into your rolling pool."],"sella_pelleon":["Sella Pelleon","If you roll exactly 1 Extra Die, that Extra Die may be locked as a Wild. If a die is locked in this way, it does not add an additional die to your rolling pool if you roll again."],"ft_1000":["FT-1000","If you roll exactly 1 Wild, that Wild may be treated as an Extra Die. If you use this ability, it may not be locked as a Wild."],"avari":["Avari","If you roll all Wilds, add 3 dice from the supply to your rolling pool when you roll again."],"sol_forst":["Sol Forst","If your rolling pool contains 1, 2, or 3 dice, each Wild or Thruster locked may count as 2 Thrusters."],"b3_ar":["B3-Ar","If you roll 3 or more Thrusters, complete your current committed requirement. If you are not currently committed to a requirement, you must first commit to one by locking at least 1 die and then use this ability on the same roll. Since you complete your requirement, you do not bust this roll."],"kal_damar":["Kal Damar","Your rolling pool starts with 6 dice instead of 5."],"nella_van_daval":["Nella Van Daval","Each Extra Die may be locked as 2 Thrusters. If a die is locked in this way, it does not add an additional die to your rolling pool if you roll again."],"zek_zarag":["Zek Zarag","If you roll exactly 1 Thruster, that Thruster may be locked as a Wild."],"myla_dystra":["Myla Dystra","If you roll 2 or more Thrusters, any die may be treated as an Extra Die. If you use this ability, that die may not be locked."]};
  var FACES = ["damage", "shield", "thruster", "reactor", "wild", "extra"];
  var FACE_COLOURS = { damage: "#c53030", shield: "#2b6cb0", thruster: "#dd6b20", reactor: "#2f855a", wild: "#6b46c1", extra: "#4a5568" };
  var FACTION_COLOURS = { TECH: "#e6fffa", PALADIN: "#fefcbf", MERC: "#fed7d7", AGENT: "#e9d8fd", PILOT: "#bee3f8" };
  var W = 360;

  function crewName(id) { return CREW[id] ? CREW[id][0] : String(id); }
  function ability(id) { return CREW[id] ? CREW[id][1] : ""; }

  /* A face's icon, drawn in a box of `s` at x,y (shapes only: no font has to have them). */
  function faceIcon(svg, face, x, y, s) {
    var c = FACE_COLOURS[face] || "#1a202c", h = s / 2;
    var g = svg.group({ transform: "translate(" + x + "," + y + ")" });
    if (face === "damage") {
      var pts = [];
      for (var i = 0; i < 16; i++) {
        var r = i % 2 ? s * 0.2 : s * 0.45, a = Math.PI * i / 8;
        pts.push((h + r * Math.cos(a)).toFixed(1) + "," + (h + r * Math.sin(a)).toFixed(1));
      }
      g.appendChild(svg.el("polygon", { points: pts.join(" "), fill: c }));
    } else if (face === "shield") {
      g.appendChild(svg.el("path", { d: "M" + s * 0.15 + " " + s * 0.15 + " L" + s * 0.85 + " " + s * 0.15 + " L" + s * 0.85 + " " + s * 0.5 + " Q" + h + " " + s * 0.95 + " " + s * 0.15 + " " + s * 0.5 + "Z", fill: c }));
    } else if (face === "thruster") {
      g.appendChild(svg.el("polygon", { points: h + "," + s * 0.1 + " " + s * 0.85 + "," + s * 0.85 + " " + s * 0.15 + "," + s * 0.85, fill: c }));
    } else if (face === "reactor") {
      g.appendChild(svg.circle(h, h, s * 0.38, { fill: "none", stroke: c, "stroke-width": s * 0.12 }));
      g.appendChild(svg.circle(h, h, s * 0.14, { fill: c, stroke: "none" }));
    } else if (face === "wild") {
      var star = [];
      for (var j = 0; j < 10; j++) {
        var rr = j % 2 ? s * 0.19 : s * 0.46, b = Math.PI * j / 5 - Math.PI / 2;
        star.push((h + rr * Math.cos(b)).toFixed(1) + "," + (h + 0.05 * s + rr * Math.sin(b)).toFixed(1));
      }
      g.appendChild(svg.el("polygon", { points: star.join(" "), fill: c }));
    } else {
      g.appendChild(svg.rect(s * 0.4, s * 0.12, s * 0.2, s * 0.76, { rx: 1, fill: c, stroke: "none" }));
      g.appendChild(svg.rect(s * 0.12, s * 0.4, s * 0.76, s * 0.2, { rx: 1, fill: c, stroke: "none" }));
    }
    return g;
  }
  function faceDie(svg, face, x, y, s, attrs) {
    var g = svg.group({ class: "die", "data-face": face, transform: "translate(" + x + "," + y + ")" }, [
      svg.title(face), svg.rect(0, 0, s, s, { rx: s / 5, fill: "#fff", stroke: (attrs && attrs.stroke) || "#2d3748", "stroke-width": (attrs && attrs.width) || 1.5 }),
    ]);
    g.appendChild(faceIcon(svg, face, s * 0.12, s * 0.12, s * 0.76));
    return g;
  }
  function expand(counts) {
    var out = [];
    FACES.forEach(function (f) { for (var i = 0; i < ((counts || {})[f] || 0); i++) out.push(f); });
    return out;
  }
  function diceRow(svg, label, faces, y, note) {
    var g = svg.group({ class: "dice-row" }, [svg.text(4, y + 17, label, { "font-weight": "bold" })]);
    var size = faces.length > 9 ? 20 : 24;
    faces.forEach(function (f, i) { g.appendChild(faceDie(svg, f, 58 + i * (size + 4), y + 2, size)); });
    if (!faces.length) g.appendChild(svg.text(58, y + 17, "—", { fill: "#718096" }));
    if (note) g.appendChild(svg.text(W - 4, y + 17, note, { "text-anchor": "end", "font-size": 12, fill: "#2d3748" }));
    return g;
  }

  /* The last action in words: the roll's resolution. */
  function said(frame, ctx) {
    var a = frame.action, who = frame.actor === null ? "" : (ctx.names[frame.actor] || "seat " + frame.actor) + ": ";
    if (frame.actor === null) return "The game begins.";
    if (a === "roll") return who + "rolls.";
    if (a === "stop") return who + "stops and banks the locked dice.";
    if (a === "bust") return who + "busts: nothing can be locked.";
    if (a === "reroll") return who + "re-rolls the picked dice.";
    if (a === "no_return" || a === "pass") return who + a.replace("_", " ") + ".";
    if (!Array.isArray(a)) return who + JSON.stringify(a);
    if (a[0] === "crew") return who + "goes for " + crewName(a[1]) + ".";
    if (a[0] === "commit") return who + "commits to requirement " + (a[1] + 1) + ".";
    if (a[0] === "lock") return who + "locks " + a[2] + " × " + a[1] + (a[3] ? " (" + crewName(a[3]) + ")" : "") + ".";
    if (a[0] === "use") return who + "uses " + crewName(a[1]) + (a[2] ? " (" + a[2] + ")" : "") + ".";
    if (a[0] === "keep") return who + "keeps a hazard token.";
    if (a[0] === "place") return who + "places the new crew on the " + a[1] + ".";
    if (a[0] === "pick") return who + "picks a " + a[1] + " die to re-roll.";
    if (a[0] === "return") return who + "returns a hazard token.";
    return who + JSON.stringify(a);
  }

  function displayCard(svg, crew, x, y, w, h, turn) {
    var attempted = turn && turn.crew === crew.crew;
    var g = svg.card(x, y, w, h, crew.crew, crewName(crew.crew), [], {
      fill: FACTION_COLOURS[crew.faction] || "#fffaf0", stroke: attempted ? "#d69e2e" : "#744210", strokeWidth: attempted ? 4 : 1,
    });
    g.appendChild(svg.title(crewName(crew.crew) + " (" + crew.faction + "): " + ability(crew.crew)));
    g.appendChild(svg.text(4, 28, crew.faction, { "font-size": 10, fill: "#4a5568" }));
    crew.requirements.forEach(function (r, i) {
      var ry = 34 + i * 19;
      var committed = attempted && turn.committed === i;
      if (committed) g.appendChild(svg.rect(1, ry - 1, w - 2, 18, { fill: "#faf089", stroke: "none", rx: 2 }));
      g.appendChild(faceIcon(svg, r.face, 3, ry, 15));
      g.appendChild(svg.text(19, ry + 12, "×" + r.count + (r.x2 ? "²" : ""), { "font-size": 12 }));
      if (r.hazard) g.appendChild(svg.el("polygon", { points: (w - 27) + "," + (ry + 14) + " " + (w - 21) + "," + (ry + 3) + " " + (w - 15) + "," + (ry + 14), fill: "#ecc94b", stroke: "#744210" }, [svg.title("hazard: completing it draws hazard tokens")]));
      if (r.token !== null && r.token !== undefined) g.appendChild(svg.circle(w - 8, ry + 8, 6, { fill: svg.colour(r.token), stroke: "#1a202c" }, []));
    });
    return g;
  }

  function playerArea(svg, p, seat, frame, ctx, y, mine) {
    var v = frame.view, turn = v.turn || {};
    var g = svg.seat(seat, 0, y);
    var moving = frame.to_move === seat;
    g.appendChild(svg.rect(2, 0, W - 4, 84, { fill: moving ? "#fffbea" : "#f7fafc", stroke: moving ? "#d69e2e" : svg.colour(seat), "stroke-width": moving ? 3 : 1.5 }));
    g.appendChild(svg.rect(2, 0, 8, 84, { fill: svg.colour(seat), stroke: "none", rx: 2 }));
    g.appendChild(svg.text(16, 17, svg.clip(ctx.names[seat] || "seat " + seat, 18) + (turn.player === seat ? " ▸" : ""), { "font-weight": "bold" }));
    g.appendChild(svg.text(W - 8, 18, p.prestige + " prestige", { "text-anchor": "end", "font-weight": "bold", fill: "#744210" }));
    // Hazard tokens: kinds known to this view are face up (their prestige), the rest face down.
    var kinds = p.hazard_kinds || mine || null;
    var tokens = p.hazard_tokens || 0;
    g.appendChild(svg.text(16, 36, "Hazard", { "font-size": 11, fill: "#4a5568" }));
    for (var t = 0; t < Math.min(tokens, 12); t++) {
      var tx = 60 + t * 17;
      if (kinds && kinds[t] !== undefined) {
        g.appendChild(svg.group({ class: "token", "data-card": String(kinds[t]), transform: "translate(" + tx + ",25)" }, [
          svg.title("hazard token worth " + kinds[t]), svg.circle(7, 7, 7, { fill: "#fefcbf", stroke: "#744210" }),
          svg.text(7, 11, kinds[t], { "text-anchor": "middle", "font-size": 10, "font-weight": "bold" }),
        ]));
      } else {
        g.appendChild(svg.group({ class: "token back", "data-hidden": "1", transform: "translate(" + tx + ",25)" }, [
          svg.title("a face-down hazard token"), svg.circle(7, 7, 7, { fill: "#4a5568", stroke: "#1a202c" }),
        ]));
      }
    }
    if (tokens > 12) g.appendChild(svg.text(60 + 12 * 17, 36, "+" + (tokens - 12), { "font-size": 11 }));
    // The crew, one small card per faction's stack (top card named, the stack's size after).
    var x = 16;
    Object.keys(p.crew || {}).forEach(function (faction) {
      var stack = p.crew[faction];
      if (!stack.length || x > W - 60) return;
      var top = stack[0];
      var c = svg.card(x, 44, 66, 34, top, crewName(top), [], { fill: FACTION_COLOURS[faction] || "#fffaf0" });
      c.appendChild(svg.title(crewName(top) + " (" + faction + ")" + ((p.abilities || []).indexOf(top) >= 0 ? ": " + ability(top) : "")));
      c.appendChild(svg.text(5, 29, faction.slice(0, 4) + (stack.length > 1 ? " ×" + stack.length : ""), { "font-size": 10, fill: "#4a5568" }));
      g.appendChild(c);
      x += 70;
    });
    return g;
  }

  function draw(frame, ctx) {
    var svg = ctx.svg, v = frame.view || {}, turn = v.turn || {};
    var players = v.players || [];
    var height = 278 + players.length * 90;
    var out = svg.root("moonrollers", frame, W, height, []);
    out.appendChild(svg.rect(0, 0, W, height, { rx: 0, fill: "#ffffff", stroke: "none" }));
    var mover = turn.player === undefined || turn.player === null ? "—" : ctx.names[turn.player] || "seat " + turn.player;
    out.appendChild(svg.text(4, 16, "Turn: " + svg.clip(mover, 22) + " · " + (turn.phase || (frame.result ? "over" : "")), { "font-weight": "bold" }));
    out.appendChild(diceRow(svg, "Roll", expand(turn.rolled), 24, turn.first_roll ? "first roll" : ""));
    var need = turn.need ? "locked " + (turn.locked || 0) + ", need " + turn.need : "locked " + (turn.locked || 0);
    out.appendChild(diceRow(svg, "Pool", expand(turn.pool), 52, need));
    // The display: five crew cards on offer.
    var display = v.display || [];
    var cw = Math.floor((W - 8 - (display.length - 1) * 4) / Math.max(display.length, 1));
    out.appendChild(svg.text(4, 96, "Crew on display · deck " + v.deck_size + " · dice supply " + v.supply + " · hazard pile " + v.hazard_pile, { "font-size": 12, fill: "#4a5568" }));
    display.forEach(function (crew, i) { out.appendChild(displayCard(svg, crew, 4 + i * (cw + 4), 102, cw, 116, turn)); });
    // The roll's resolution: what the last action did.
    var resolution = said(frame, ctx);
    if (frame.result) resolution = "Game over" + (v.end_reason ? " (" + String(v.end_reason).replace(/_/g, " ") + ")" : "") + ". " + resolution;
    out.appendChild(svg.rect(2, 226, W - 4, 26, { fill: "#edf2f7", stroke: "none" }));
    out.appendChild(svg.text(8, 244, svg.clip(resolution, 52), { id: "mr-resolution" }));
    var drawn = turn.drawn ? "drawn tokens: " + turn.drawn.join(", ") : turn.drawn_count ? turn.drawn_count + " hazard tokens drawn" : "";
    if (drawn) out.appendChild(svg.text(8, 268, drawn, { "font-size": 11, fill: "#744210" }));
    var mineSeat = ctx.seat;
    players.forEach(function (p, seat) {
      var known = null;
      if (mineSeat === seat && Array.isArray(v.my_hazard_tokens)) known = v.my_hazard_tokens;
      else if (v.seats && v.seats[seat]) known = v.seats[seat].my_hazard_tokens;
      out.appendChild(playerArea(svg, p, seat, frame, ctx, 278 + seat * 90, known));
    });
    return out;
  }

  function series(frame) {
    var players = frame.view && frame.view.players;
    if (!players) return null;
    return { label: "Prestige", values: players.map(function (p) { return p.prestige; }) };
  }

  function crewCount(v) {
    return (v && v.players || []).map(function (p) {
      return Object.keys(p.crew || {}).reduce(function (n, f) { return n + p.crew[f].length; }, 0);
    });
  }
  function events(frame, previous) {
    var found = [], a = frame.action, head = Array.isArray(a) ? a[0] : a;
    if (frame.actor === null) return found;
    if (head === "roll" || head === "reroll") found.push("roll");
    if (head === "lock") found.push("lock");
    if (head === "bust") found.push("bust");
    if (head === "use") found.push("ability");
    if (previous) {
      var before = crewCount(previous.view), after = crewCount(frame.view);
      if (after.some(function (n, i) { return n > (before[i] || 0); })) found.push("hire");
      var hb = (previous.view.players || []).map(function (p) { return p.hazard_tokens; });
      if ((frame.view.players || []).some(function (p, i) { return p.hazard_tokens > (hb[i] || 0); })) found.push("hazard");
      var tb = previous.view.turn || {}, ta = frame.view.turn || {};
      if (tb.player !== ta.player) found.push("turn");
      // A bust also happens inside apply (nothing to lock, no ability): the turn passes with
      // nothing gained.
      if (head !== "bust" && tb.player !== ta.player && tb.phase === "lock" && head === "roll") found.push("bust");
    }
    if (frame.result) found.push("end");
    return found;
  }

  window.MoonBoards.moonrollers = { draw: draw, series: series, events: events };
})();
