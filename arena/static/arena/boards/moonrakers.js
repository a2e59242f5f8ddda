/* Moonrakers (and Overload): the board drawn from one replay frame.
 *
 * Plugin of the replay viewer: window.MoonBoards.moonrakers = {draw, series, events}.
 * Draws only what the frame's view holds: another player's hand is face down except the
 * cards the table knows (known_hand); the seat's own hand only in that seat's view. The
 * spectator view's "hand" field is what every seat's hand has in common position by
 * position, so it is never drawn. Card names and contract requirements come from the
 * engine's public card data, copied below.
 */
(function () {
  "use strict";
  // BEGIN DATA (engine/games/moonrakers/data/*.json; tests check it matches)
  var CONTRACTS = {
    "abandoned-vessel": ["Abandoned Vessel","Explore","normal",1,4,1,{"R":3,"D":3},2,0,[],0],
    "admirals-flagship": ["Admiral's Flagship","Kill","normal",5,11,1,{"R":5,"S":5,"D":8},4,0,[],0],
    "ancient-ruins": ["Ancient Ruins","Explore","normal",2,7,0,{"R":4,"T":4},2,0,[],0],
    "assault-on-vilonia": ["Assault on Vilonia","Kill","normal",3,5,1,{"D":8},2,0,[],0],
    "asteroid-field": ["Asteroid Field","Explore","normal",2,8,0,{"R":4,"C":3},2,0,[],0],
    "black-hole": ["Black Hole","Explore","normal",5,12,0,{"R":4,"T":4,"C":5},4,0,[],0],
    "blockade-run": ["Blockade Run","Delivery","normal",0,3,0,{"T":1,"S":1},0,0,[],0],
    "bomber-screen": ["Bomber Screen","Kill","normal",3,9,0,{"T":3,"D":6},3,0,[],0],
    "bounty-hunters": ["Bounty Hunters","Kill","normal",3,6,0,{"D":6,"C":2},3,0,[],0],
    "claim-bounty": ["Claim Bounty","Kill","normal",1,3,0,{"R":2,"D":3},1,0,[],0],
    "core-world-ace": ["Core World Ace","Kill","normal",1,5,1,{"D":5},1,0,[],0],
    "cryogenic-pods": ["Cryogenic Pods","Rescue","normal",3,7,0,{"R":4,"S":4},3,0,[],0],
    "derelict-planet": ["Derelict Planet","Explore","normal",3,8,0,{"R":5,"T":2,"C":3},2,0,[],0],
    "distress-beacon": ["Distress Beacon","Explore","normal",1,3,0,{"R":3,"C":1},1,0,[],0],
    "elite-squadron": ["Elite Squadron","Kill","normal",4,6,1,{"R":4,"S":3,"D":8},3,0,[],0],
    "emergency-meds": ["Emergency Meds","Delivery","normal",3,8,0,{"R":3,"T":4,"D":4},2,0,[],0],
    "envoy-in-distress": ["Envoy in Distress","Rescue","normal",1,2,1,{"S":2,"D":2},2,0,[],0],
    "escape-pods": ["Escape Pods","Rescue","normal",2,7,0,{"S":3,"D":3},2,0,[],0],
    "escort-duty": ["Escort Duty","Delivery","normal",1,2,1,{"T":3,"C":1},1,0,[],0],
    "fuel-shortage": ["Fuel Shortage","Delivery","normal",1,3,0,{"T":2,"D":2},1,0,[],0],
    "icarus-run": ["Icarus Run","Rescue","normal",2,8,0,{"T":3,"S":3},2,0,[],0],
    "kill-slavers": ["Kill Slavers","Kill","normal",0,4,0,{"T":1,"D":1},0,0,[],0],
    "martial-law": ["Martial Law","Rescue","normal",1,4,1,{"S":2,"C":2},2,0,[],0],
    "munitions-stockpile": ["Munitions Stockpile","Delivery","normal",3,7,0,{"T":4,"S":3},2,0,[],0],
    "negotiation-insurance": ["Negotiation Insurance","Delivery","normal",1,2,1,{"T":3,"D":1},2,0,[],0],
    "nova-bloom": ["Nova Bloom","Explore","normal",3,7,0,{"R":5,"S":3},3,0,[],0],
    "pirate-treasure": ["Pirate Treasure","Explore","normal",1,2,0,{"R":2,"S":1},1,0,[],0],
    "prison-moon": ["Prison Moon","Rescue","normal",5,10,0,{"T":4,"S":5,"D":2},4,0,[],0],
    "probe-recovery": ["Probe Recovery","Explore","normal",1,2,1,{"R":3,"T":2},1,0,[],0],
    "proof-of-life": ["Proof of Life","Delivery","normal",3,4,0,{"R":4,"T":4},2,0,[],0],
    "reactor-failure": ["Reactor Failure","Rescue","normal",0,3,0,{"R":1,"S":1},0,0,[],0],
    "refugee-crisis": ["Refugee Crisis","Delivery","normal",2,7,0,{"T":3,"C":2},2,0,[],0],
    "resistance-leader": ["Resistance Leader","Rescue","normal",4,6,0,{"T":2,"S":4,"C":2},3,0,[],0],
    "rival-pirate-gang": ["Rival Pirate Gang","Kill","normal",1,3,0,{"S":1,"D":2},1,0,[],0],
    "royal-cargo": ["Royal Cargo","Delivery","normal",5,10,0,{"T":5,"D":5,"C":2},4,0,[],0],
    "scout-cruiser": ["Scout Cruiser","Kill","normal",3,6,0,{"S":2,"D":5},3,0,[],0],
    "space-anomaly": ["Space Anomaly","Explore","normal",0,3,0,{"R":1,"D":1},0,0,[],0],
    "stim-run": ["Stim Run","Delivery","normal",1,2,0,{"R":1,"T":2},1,0,[],0],
    "supernova-escape": ["Supernova Escape","Rescue","normal",1,3,0,{"T":1,"S":2},1,0,[],0],
    "transport-rescue": ["Transport Rescue","Rescue","normal",1,3,0,{"S":2,"C":1},1,0,[],0],
    "battle-simulation": ["Battle Simulation","Kill","h2h",1,5,0,{},0,1,["S","D"],3],
    "brawlers-cup": ["Brawlers Cup","Kill","h2h",1,5,0,{},0,1,["T","C"],3],
    "energy-transfer": ["Energy Transfer","Delivery","h2h",1,5,0,{},0,1,["R","T"],3],
    "last-ship-standing": ["Last Ship Standing","Rescue","h2h",1,5,0,{},0,1,["R","S"],3],
    "nebula-sprint": ["Nebula Sprint","Rescue","h2h",1,5,0,{},0,1,["T","S"],3],
    "payload-delivery": ["Payload Delivery","Kill","h2h",1,5,0,{},0,1,["T","D"],3],
    "protect-the-target": ["Protect the Target","Explore","h2h",1,5,0,{},0,1,["S","C"],3],
    "readiness-inspection": ["Readiness Inspection","Explore","h2h",1,5,0,{},0,1,["R","C"],3],
    "war-games": ["War Games","Explore","h2h",1,5,0,{},0,1,["D","C"],3],
    "weapons-testing": ["Weapons Testing","Explore","h2h",1,5,0,{},0,1,["R","D"],3],
    "concealed-core": ["Concealed Core","Delivery","flex",2,8,0,{"R":4,"F":10},2,1,[],0],
    "concealed-parcel": ["Concealed Parcel","Explore","flex",2,6,0,{"T":3,"F":8},2,1,[],0],
    "cryptic-shadow": ["Cryptic Shadow","Delivery","flex",1,5,0,{"C":1,"F":6},1,1,[],0],
    "guerilla-ambush": ["Guerilla Ambush","Kill","flex",2,6,0,{"D":4,"F":8},0,1,[],0],
    "nameless-ruins": ["Nameless Ruins","Explore","flex",1,5,0,{"R":2,"F":6},1,1,[],0],
    "alpha-nebula": ["The Alpha Nebula","Explore","flex",2,4,0,{"F":12},2,1,[],0],
    "beta-nebula": ["The Beta Nebula","Delivery","flex",3,5,0,{"F":14},3,1,[],0],
    "omega-nebula": ["The Omega Nebula","Delivery","flex",3,8,0,{"F":16},3,1,[],0],
    "uncharted-nebula": ["Uncharted Nebula","Kill","flex",3,8,0,{"C":3,"F":10},3,1,[],0],
    "undisclosed-refuge": ["Undisclosed Refuge","Rescue","flex",1,4,0,{"S":1,"F":6},1,1,[],0]
  };
  var CREW = {
    "ada-massa": ["Ada Massa", 0],
    "at-0k": ["AT-0K", 0],
    "b3-ar": ["B3-AR", 0],
    "bill-bendo": ["Bill Bendo", 0],
    "crusse-parke": ["Crusse Parke", 0],
    "dana-powalki": ["Dana Powalki", 0],
    "kal-damar": ["Kal Damar", 0],
    "kary-powalk": ["Kary Powalk", 0],
    "lee-van-cribb": ["Lee van Cribb", 0],
    "lila-al-bindar": ["Lila al Bindar", 0],
    "meg-gallak": ["Meg Gallak", 0],
    "moro-mada": ["Moro Mada", 0],
    "myla-dystra": ["Myla Dystra", 0],
    "nella-van-daval": ["Nella van Daval", 0],
    "redacted": ["[Redacted]", 0],
    "ryan-rogal": ["Ryan Rogal", 0],
    "ryle-al-wren": ["Ryle al Wren", 0],
    "sella-pelleon": ["Sella Pelleon", 0],
    "tantin-al-vale": ["Tantin al Vale", 0],
    "zek-zarag": ["Zek Zarag", 0],
    "anka-kramer": ["Anka Kramer", 1],
    "armitage": ["Armitage", 1],
    "dae-arum": ["Dae Arum", 1],
    "domi": ["Domi", 1],
    "ft-1000": ["FT-1000", 1],
    "grinar-flok": ["Grinar Flok", 1],
    "ha-kun": ["Ha Kun", 1],
    "io-l1-on": ["IO L1-ON", 1],
    "io-mirage": ["IO Mirage", 1],
    "io-mk8": ["IO MK8", 1],
    "io-wraith-3000": ["IO Wraith 3000", 1],
    "io-mg21": ["IO-MG21", 1],
    "ivan-guyril": ["Ivan Guyril", 1],
    "kin-tobor": ["Kin Tobor", 1],
    "kurt-bilar": ["Kurt Bilar", 1],
    "letyba": ["Letyba", 1],
    "lyntoba-ga": ["Lyntoba Ga", 1],
    "miska-rose": ["Miska Rose", 1],
    "oleg-ali": ["Oleg Ali", 1],
    "pat-nungar": ["Pat Nungar", 1]
  };
  var PARTS = {
    "absorption-k2": ["Absorption K2", 0],
    "accelerator-mk3": ["Accelerator mk3", 0],
    "barrier-a3": ["Barrier A3", 0],
    "cloaking-device": ["Cloaking Device", 0],
    "clone-bay": ["The Clone Bay", 0],
    "daburu-mk1": ["Daburu mk1", 0],
    "dark-matter-mk3": ["Dark Matter mk3", 0],
    "dauntless": ["The Dauntless", 0],
    "defender-5000": ["Defender 5000", 0],
    "duo-1000": ["Duo 1000", 0],
    "emulator-mk2": ["Emulator mk2", 0],
    "escape-jets-e1": ["Escape Jets E1", 0],
    "flash": ["Flash", 0],
    "gatling-laser": ["The Gatling Laser", 0],
    "jump-jets-e2": ["Jump Jets E2", 0],
    "leech": ["The Leech", 0],
    "mg-charge-core": ["MG Charge Core", 0],
    "mg-phase-core": ["MG Phase Core", 0],
    "mg-support-core": ["MG Support Core", 0],
    "mg-warp": ["MG Warp", 0],
    "mg1-kinetic": ["MG1 Kinetic", 0],
    "mg1-rail-gun": ["MG1 Rail Gun", 0],
    "mg2-laser-turrets": ["MG2 Laser Turrets", 0],
    "mg2-quad-laser": ["MG2 Quad Laser", 0],
    "multi-stage-m1": ["Multi Stage M1", 0],
    "predator-mk1": ["Predator mk1", 0],
    "projector-s2": ["Projector S2", 0],
    "pulsor-mk1": ["Pulsor mk1", 0],
    "pursuer": ["The Pursuer", 0],
    "quantum-driver": ["The Quantum Driver", 0],
    "replicator-mk1": ["Replicator mk1", 0],
    "sapphire-mk2": ["Sapphire mk2", 0],
    "swarm-mk1": ["Swarm mk1", 0],
    "symbiote-9000": ["Symbiote 9000", 0],
    "titan-3000": ["Titan 3000", 0],
    "twin-jets-e4": ["Twin Jets E4", 0],
    "vector-jets-e3": ["Vector Jets E3", 0],
    "aclimator-6050": ["Aclimator 6050", 1],
    "arbiter": ["The Arbiter", 1],
    "augmentor-2050": ["Augmentor 2050", 1],
    "catalyzer-mk2": ["Catalyzer mk2", 1],
    "contributor-mk2": ["Contributor mk2", 1],
    "devotion-3050": ["Devotion 3050", 1],
    "eternal": ["The Eternal", 1],
    "inverter-mk2": ["Inverter mk2", 1],
    "io-buffer-2050": ["IO Buffer 2050", 1],
    "io-cache-3050": ["IO Cache 3050", 1],
    "io-exhaust-e1": ["IO Exhaust E1", 1],
    "io-gen-mk1": ["IO Gen mk1", 1],
    "io-hotshot-1050": ["IO Hotshot 1050", 1],
    "io-hub-mk2": ["IO Hub mk2", 1],
    "io-pivot-h2": ["IO Pivot H2", 1],
    "io-spark-mk1": ["IO Spark mk1", 1],
    "io-surge-e2": ["IO Surge E2", 1],
    "magnetite-m1": ["Magnetite M1", 1],
    "mg-io-charge": ["MG IO Charge", 1],
    "mg-io-core": ["MG IO Core", 1],
    "mg-io-overkill": ["MG IO Overkill", 1],
    "mg-overcharger": ["MG Overcharger", 1],
    "mg-raid": ["MG Raid", 1],
    "mg-reformer": ["MG Reformer", 1],
    "mg-tractor-beam": ["MG Tractor Beam", 1],
    "mg-upgrade-core": ["MG Upgrade Core", 1],
    "mill": ["The Mill", 1],
    "modulator-t3": ["Modulator T3", 1],
    "phase-drive-mk3": ["Phase Drive mk3", 1],
    "precari-4050": ["Precari 4050", 1],
    "reclaimer": ["The Reclaimer", 1],
    "staged-burst-e3": ["Staged Burst E3", 1],
    "tesselator-mk1": ["Tesselator mk1", 1],
    "thrust-tuner-e2": ["Thrust Tuner E2", 1],
    "tributor": ["The Tributor", 1],
    "twin-probe-e2": ["Twin Probe E2", 1],
    "underwriter-1050": ["Underwriter 1050", 1]
  };
  var OBJECTIVES = {
    "ace": ["Ace", 0],
    "barrage": ["Barrage", 0],
    "chain-reaction": ["Chain Reaction", 0],
    "daredevil": ["Daredevil", 0],
    "efficiency": ["Efficiency", 0],
    "fire-support": ["Fire Support", 0],
    "generalist": ["Generalist", 0],
    "gun-for-hire": ["Gun for Hire", 0],
    "megaton": ["Megaton", 0],
    "money-bags": ["Money Bags", 0],
    "natural-leader": ["Natural Leader", 0],
    "over-9000": ["Over 9000", 0],
    "quick-run": ["Quick Run", 0],
    "quick-strike": ["Quick Strike", 0],
    "saboteur": ["Saboteur", 0],
    "santa-maria": ["Santa Maria", 0],
    "shield-wall": ["Shield Wall", 0],
    "specialist": ["Specialist", 0],
    "speed-demon": ["Speed Demon", 0],
    "tank": ["Tank", 0],
    "tinker": ["Tinker", 0],
    "utopia": ["Utopia", 0],
    "youre-my-hero": ["You're My Hero", 0],
    "arsenal": ["Arsenal", 1],
    "io-adopter": ["IO-Adopter", 1],
    "io-hoard": ["IO-Hoard", 1],
    "io-power": ["IO-Power", 1],
    "junker": ["Junker", 1],
    "parasite": ["Parasite", 1],
    "tactical": ["Tactical", 1],
    "technologic": ["Technologic", 1],
    "untouchable": ["Untouchable", 1],
    "weird-flex": ["Weird Flex", 1]
  };
  var ACTIONS = {
    "R": ["Reactor", "R", 0],
    "T": ["Thruster", "T", 0],
    "S": ["Shield", "S", 0],
    "D1": ["Damage 1", "D", 0],
    "D2": ["Damage 2", "D", 0],
    "D3": ["Damage 3", "D", 0],
    "M": ["Miss", "M", 0],
    "R+": ["Reactor +", "R", 1],
    "Rx": ["Reactor x", "R", 1],
    "T+": ["Thruster +", "T", 1],
    "Tx": ["Thruster x", "T", 1],
    "S+": ["Shield +", "S", 1],
    "Sx": ["Shield x", "S", 1],
    "D+": ["Damage +", "D", 1]
  };
  // END DATA

  var NS = "http://www.w3.org/2000/svg";
  var W = 480; // viewBox width: one column that stays readable at phone width
  var CAT_COLOUR = {
    R: "#e07b28", T: "#2f7fd1", S: "#2e9a52", D: "#c8323c", M: "#8a8f98", C: "#8a4fc4",
    F: "#6d6d6d", crew: "#8a4fc4", part: "#1c8c8c", objective: "#b8901c", contract: "#39424e",
  };
  var REQ_NAMES = { R: "Reactor", T: "Thruster", S: "Shield", D: "Damage", C: "Crew", F: "Flex" };

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
  function nameOf(ctx, seat) {
    var names = (ctx && ctx.names) || [];
    return names[seat] || "Seat " + seat;
  }

  function cardInfo(id) {
    // [display name, colour key, from the Overload expansion]
    if (ACTIONS[id]) return [ACTIONS[id][0], ACTIONS[id][1], ACTIONS[id][2] === 1];
    if (id === "D4") return ["Damage 4", "D", false];
    if (CREW[id]) return [CREW[id][0], "crew", CREW[id][1] === 1];
    if (PARTS[id]) return [PARTS[id][0], "part", PARTS[id][1] === 1];
    if (OBJECTIVES[id]) return [OBJECTIVES[id][0], "objective", OBJECTIVES[id][1] === 1];
    if (CONTRACTS[id]) return [CONTRACTS[id][0], "contract", CONTRACTS[id][8] === 1];
    return [String(id), "F", false];
  }

  // A face-up card: its colour band, its name, an "OL" corner when it is an Overload card.
  function card(x, y, w, h, id, extra) {
    var info = cardInfo(id);
    var colour = CAT_COLOUR[info[1]] || "#555";
    var kids = [
      title(info[0] + (info[2] ? " (Overload)" : "")),
      el("rect", { x: x, y: y, width: w, height: h, rx: 4, fill: "#fff", stroke: colour, "stroke-width": 1.5 }),
      el("rect", { x: x, y: y, width: w, height: 6, rx: 2, fill: colour }),
      text(x + 3, y + h - 6, clip(info[0], Math.max(3, Math.floor(w / 6))), { "font-size": 10 }),
    ];
    if (extra) kids.push(text(x + 3, y + 15, extra, { "font-size": 9.5, "font-weight": "bold", fill: "#39424e" }));
    if (info[2]) {
      kids.push(el("rect", { x: x + w - 17, y: y + 1, width: 16, height: 9, rx: 2, fill: "#6a1b9a" }));
      kids.push(text(x + w - 9, y + 8.5, "OL", { "font-size": 7, fill: "#fff", "text-anchor": "middle" }));
    }
    return el("g", { class: "card", "data-card": id, "data-overload": info[2] ? "1" : null }, kids);
  }

  // A face-down card: a back and nothing that says which card it is.
  function back(x, y, w, h) {
    return el("g", { class: "card back", "data-hidden": "1" }, [
      el("rect", { x: x, y: y, width: w, height: h, rx: 4, fill: "#3b4a6b", stroke: "#1f2a40" }),
      el("circle", { cx: x + w / 2, cy: y + h / 2, r: Math.min(w, h) / 4, fill: "none", stroke: "#9fb0d6" }),
    ]);
  }

  // A hazard die: the face shows how many hazard icons it rolled (0, 1 or 2).
  function hazardDie(x, y, value) {
    var kids = [el("rect", { x: x, y: y, width: 18, height: 18, rx: 3, fill: "#fdf6e3", stroke: "#6b5b2a" })];
    var spots = value === 1 ? [[9, 9]] : value === 2 ? [[5.5, 9], [12.5, 9]] : [];
    spots.forEach(function (p) {
      kids.push(el("path", {
        d: "M" + (x + p[0]) + " " + (y + p[1] - 4) + "l3.5 7h-7z", fill: "#d03b1f",
      }));
    });
    kids.push(title("hazard die: " + value + " hazard" + (value === 1 ? "" : "s")));
    return el("g", { class: "die", "data-value": value }, kids);
  }

  function reqChips(x, y, req, attrs) {
    var kids = [];
    Object.keys(req || {}).forEach(function (type) {
      var colour = CAT_COLOUR[type] || "#555";
      kids.push(el("rect", { x: x, y: y, width: 28, height: 14, rx: 7, fill: colour }));
      kids.push(text(x + 14, y + 11, type + req[type], { "font-size": 10, fill: "#fff", "text-anchor": "middle" }));
      kids.push(title(REQ_NAMES[type] + " " + req[type]));
      x += 31;
    });
    return el("g", Object.assign({ class: "requirements" }, attrs || {}), kids);
  }

  function contractCard(x, y, w, h, id, highlight) {
    if (!id) {
      return el("rect", { x: x, y: y, width: w, height: h, rx: 5, fill: "none", stroke: "#aab", "stroke-dasharray": "4 3" });
    }
    var c = CONTRACTS[id] || [id, "?", "normal", 0, 0, 0, {}, 0, 0, [], 0];
    var kids = [
      title(c[0] + " (" + c[1] + ", " + c[2] + ")"),
      el("rect", { x: x, y: y, width: w, height: h, rx: 5, fill: highlight ? "#fff7d6" : "#f4f6fa", stroke: highlight ? "#d49b00" : "#8793a6", "stroke-width": highlight ? 2.5 : 1 }),
      text(x + 5, y + 14, clip(c[0], 24), { "font-size": 11, "font-weight": "bold" }),
      text(x + w - 5, y + 14, c[2] === "h2h" ? "Head to Head" : c[2] === "flex" ? "Flex" : c[1], { "font-size": 9, "text-anchor": "end", fill: "#555" }),
    ];
    if (c[2] === "h2h") {
      kids.push(text(x + 5, y + 31, "scores " + c[9].join("+") + " · 2nd ¢" + c[10], { "font-size": 10 }));
    } else {
      kids.push(reqChips(x + 5, y + 20, c[6]));
    }
    var reward = "★" + c[3] + "  ¢" + c[4] + (c[5] ? "  +" + c[5] + " bonus" : "");
    kids.push(text(x + 5, y + h - 6, reward, { "font-size": 10 }));
    for (var i = 0; i < c[7]; i++) {
      kids.push(el("rect", { x: x + w - 14 - i * 13, y: y + h - 16, width: 11, height: 11, rx: 2, fill: "#fdf6e3", stroke: "#6b5b2a" }));
    }
    if (c[8] === 1) {
      kids.push(el("rect", { x: x + w - 22, y: y + 21, width: 17, height: 10, rx: 2, fill: "#6a1b9a" }));
      kids.push(text(x + w - 13.5, y + 29, "OL", { "font-size": 7, fill: "#fff", "text-anchor": "middle" }));
    }
    return el("g", { class: "contract", "data-card": id, "data-overload": c[8] === 1 ? "1" : null }, kids);
  }

  // A row of cards that wraps; returns [group, height used].
  function cardRow(x, y, ids, perRow, w, h, extras) {
    var g = el("g", { class: "cards" });
    ids.forEach(function (id, i) {
      var cx = x + (i % perRow) * (w + 4);
      var cy = y + Math.floor(i / perRow) * (h + 4);
      g.appendChild(id === null ? back(cx, cy, w, h) : card(cx, cy, w, h, id, extras ? extras[i] : null));
    });
    var rows = Math.max(1, Math.ceil(ids.length / perRow));
    return [g, ids.length ? rows * (h + 4) : 0];
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

  function seatOf(ctx) {
    if (!ctx) return null;
    if (typeof ctx.seat === "number") return ctx.seat;
    var m = /^seat:(\d+)$/.exec(ctx.view || "");
    return m ? Number(m[1]) : null;
  }

  function drawContracts(svg, y, v) {
    y = section(svg, y, "Contracts on offer (" + v.contract_deck + " in the deck)");
    var w = (W - 20) / 2, h = 54;
    (v.contracts || []).forEach(function (id, i) {
      svg.appendChild(contractCard(8 + (i % 2) * (w + 4), y + Math.floor(i / 2) * (h + 4), w, h, id, false));
    });
    return y + Math.ceil((v.contracts || []).length / 2) * (h + 4) + 4;
  }

  function drawCurrent(svg, y, v, ctx) {
    var c = v.contract;
    if (!c) {
      var last = v.last_contract;
      if (!last) return y;
      y = section(svg, y, "Last contract");
      var info = CONTRACTS[last.contract] || [last.contract];
      var who = (last.participants || []).map(function (s) { return nameOf(ctx, s); }).join(", ");
      var g = el("g", { class: "last-contract", "data-success": last.success ? "1" : "0" }, [
        text(8, y + 12, info[0] + ": " + (last.success ? "completed" : "failed") + " by " + who, {
          "font-size": 11, fill: last.success ? "#1d6b35" : "#a3261f",
        }),
      ]);
      svg.appendChild(g);
      return y + 22;
    }
    y = section(svg, y, "Contract in progress");
    var panel = el("g", { class: "current-contract", "data-contract": c.id });
    svg.appendChild(panel);
    panel.appendChild(contractCard(8, y, 200, 54, c.id, true));
    var names = (c.participants || []).map(function (s) { return nameOf(ctx, s); });
    panel.appendChild(text(216, y + 11, "In the contract:", { "font-size": 10, fill: "#555" }));
    panel.appendChild(text(216, y + 25, clip(names.join(", "), 40), { "font-size": 11, class: "participants" }));
    panel.appendChild(text(216, y + 41, "Still needed:", { "font-size": 10, fill: "#555" }));
    panel.appendChild(reqChips(286, y + 31, c.remaining || {}, { class: "remaining" }));
    var dealText = (c.deals || []).map(function (d) {
      return nameOf(ctx, d[0]) + ": ★" + d[1][0] + " ¢" + d[1][1] + " +" + d[1][2] + " ⚠" + d[1][3];
    }).join("; ");
    if (c.offer) dealText = "offer to " + nameOf(ctx, c.invitee) + ": " + c.offer.join("/");
    if (dealText) panel.appendChild(text(216, y + 58, clip(dealText, 44), { "font-size": 10 }));
    if (c.scores) panel.appendChild(text(216, y + 58, "Scores: " + c.scores.join(" · "), { "font-size": 10 }));
    y += 66;
    (c.execution || []).forEach(function (entry) {
      var q = entry[0], px = entry[1];
      var row = el("g", { class: "attempt", "data-seat-attempt": q });
      row.appendChild(text(8, y + 13, clip(nameOf(ctx, q), 14), { "font-size": 11, "font-weight": "bold" }));
      row.appendChild(text(8, y + 27, "act " + px.actions + " · blk " + px.blocked + " · dmg " + px.damage, { "font-size": 9.5, fill: "#39424e" }));
      (px.dice || []).forEach(function (value, i) {
        row.appendChild(hazardDie(118 + i * 21, y + 2, value));
      });
      var dx = 118 + Math.max(1, (px.dice || []).length) * 21 + 4;
      var played = cardRow(dx, y, px.played || [], Math.max(1, Math.floor((W - 8 - dx) / 64)), 60, 30);
      row.appendChild(played[0]);
      svg.appendChild(row);
      y += Math.max(34, played[1]) + 2;
    });
    return y + 4;
  }

  function drawArmory(svg, y, v) {
    y = section(svg, y, "Armory");
    var crew = cardRow(8, y, v.armory_crew || [], 7, 62, 34);
    svg.appendChild(crew[0]);
    y += crew[1];
    var parts = cardRow(8, y, v.armory_parts || [], 7, 62, 34);
    svg.appendChild(parts[0]);
    y += parts[1];
    if (v.advanced_supply) {
      var kinds = Object.keys(v.advanced_supply);
      var adv = cardRow(8, y, kinds, 7, 62, 30, kinds.map(function (k) { return "×" + v.advanced_supply[k]; }));
      adv[0].setAttribute("class", "cards advanced");
      svg.appendChild(adv[0]);
      y += adv[1];
    }
    if (v.mercs && v.mercs.length) {
      svg.appendChild(text(8, y + 12, "Mercenaries", { "font-size": 10, fill: "#555" }));
      var mercs = cardRow(80, y, v.mercs.filter(function (m) { return m !== null; }), 6, 62, 30);
      mercs[0].setAttribute("class", "cards mercs");
      svg.appendChild(mercs[0]);
      y += Math.max(18, mercs[1]);
    }
    if (v.overload) {
      svg.appendChild(text(8, y + 12, "IOspheres in supply: " + v.iospheres_supply, { "font-size": 10, fill: "#555" }));
      y += 18;
    }
    return y + 2;
  }

  function drawPlayer(svg, y, v, q, ctx, seat, toMove) {
    var p = v.players[q];
    var mine = seat === q;
    var area = el("g", { class: "player", "data-seat": q });
    svg.appendChild(area);
    var top = y;
    var head = nameOf(ctx, q) + (v.mission_leader === q ? "  ◆ Mission Leader" : "");
    area.appendChild(text(14, y + 15, clip(head, 40), { "font-size": 12, "font-weight": "bold" }));
    if (toMove === q) area.appendChild(text(W - 14, y + 15, "▶ to move", { "font-size": 11, "text-anchor": "end", fill: "#b25b00", class: "to-move" }));
    area.appendChild(text(14, y + 32, "★ " + p.prestige + " Prestige", { "font-size": 12, class: "prestige", fill: "#8a6500" }));
    area.appendChild(text(120, y + 32, "¢ " + p.credits + " credits", { "font-size": 12, class: "credits" }));
    area.appendChild(text(222, y + 32, "deck " + p.draw_size + " · discard " + p.discard_size + " · obj " + p.objectives_held + (p.claimed.length ? " (✓" + p.claimed.length + ")" : ""), { "font-size": 10, fill: "#555" }));
    y += 40;
    // Ship parts (IOspheres on them as a count) and IO crew in play.
    var installed = (p.parts || []).map(function (e) { return e[0]; });
    var extras = (p.parts || []).map(function (e) { return e[1] ? "◉" + e[1] : null; });
    (p.in_play || []).forEach(function (e) {
      installed.push(e[0]);
      extras.push(e[1] ? "◉" + e[1] : null);
    });
    if (installed.length) {
      area.appendChild(text(14, y + 12, "Ship", { "font-size": 10, fill: "#555" }));
      var ship = cardRow(50, y, installed, 6, 66, 30, extras);
      ship[0].setAttribute("class", "cards ship");
      area.appendChild(ship[0]);
      y += ship[1];
    }
    // The hand: all of it face up for its owner; for anyone else the cards the table knows
    // face up and the rest face down.
    var hand;
    if (mine && Array.isArray(v.hand)) {
      hand = v.hand.slice();
    } else {
      hand = (p.known_hand || []).slice();
      for (var i = hand.length; i < p.hand_size; i++) hand.push(null);
    }
    area.appendChild(text(14, y + 12, "Hand", { "font-size": 10, fill: "#555" }));
    var row = cardRow(50, y, hand, 7, 56, 32);
    row[0].setAttribute("class", "cards hand");
    area.appendChild(row[0]);
    y += Math.max(20, row[1]);
    var small = [];
    if (p.discard_top) small.push(["Discard top", [p.discard_top]]);
    if (p.claimed.length) small.push(["Claimed", p.claimed]);
    if (mine && Array.isArray(v.objectives) && v.objectives.length) small.push(["Objectives", v.objectives]);
    small.forEach(function (item) {
      area.appendChild(text(14, y + 12, item[0], { "font-size": 10, fill: "#555" }));
      var r = cardRow(80, y, item[1], 6, 62, 26);
      r[0].setAttribute("class", "cards " + item[0].toLowerCase().replace(" ", "-"));
      area.appendChild(r[0]);
      y += r[1];
    });
    area.insertBefore(
      el("rect", {
        x: 6, y: top, width: W - 12, height: y - top + 4, rx: 6,
        fill: mine ? "#eef6ff" : "#f7f8fa", stroke: toMove === q ? "#e08a00" : "#c5cbd4", "stroke-width": toMove === q ? 2 : 1,
      }),
      area.firstChild
    );
    return y + 10;
  }

  function draw(frame, ctx) {
    var v = (frame && frame.view) || {};
    var seat = seatOf(ctx);
    var svg = el("svg", {
      xmlns: NS, class: "board board-moonrakers", "data-step": frame ? frame.index : 0,
      role: "img", "aria-label": "Moonrakers table, step " + (frame ? frame.index : 0),
      width: "100%", preserveAspectRatio: "xMidYMin meet",
      style: "display:block;max-width:100%;height:auto;font-family:system-ui,sans-serif",
    });
    var y = 4;
    var pending = v.pending || [];
    var head = "Turn " + v.turn + (v.overload ? " · Overload" : " · base game");
    svg.appendChild(text(8, y + 14, head, { "font-size": 13, "font-weight": "bold" }));
    if (frame && frame.result) {
      svg.appendChild(text(W - 8, y + 14, clip(winners(frame.result, ctx), 44), { "font-size": 12, "text-anchor": "end", fill: "#a3261f", class: "game-over" }));
    } else if (pending.length) {
      var who = typeof pending[1] === "number" ? nameOf(ctx, pending[1]) + ": " : "";
      svg.appendChild(text(W - 8, y + 14, clip(who + String(pending[0]).replace(/_/g, " "), 40), { "font-size": 11, "text-anchor": "end", fill: "#555", class: "pending" }));
    }
    y += 22;
    if (Array.isArray(v.contracts)) y = drawContracts(svg, y, v);
    y = drawCurrent(svg, y, v, ctx);
    if (Array.isArray(v.armory_crew)) y = drawArmory(svg, y, v);
    var players = v.players || [];
    if (players.length) y = section(svg, y, "Players");
    for (var q = 0; q < players.length; q++) y = drawPlayer(svg, y, v, q, ctx, seat, frame ? frame.to_move : null);
    svg.setAttribute("viewBox", "0 0 " + W + " " + Math.ceil(y + 4));
    return svg;
  }

  function series(frame) {
    var players = (frame && frame.view && frame.view.players) || [];
    if (!players.length) return null;
    return { label: "Prestige", values: players.map(function (p) { return p.prestige; }) };
  }

  var OVERLOAD_VERBS = ["play", "buy", "ability", "bonus", "take", "merc"];

  function actionCards(action) {
    var found = [];
    (function walk(a) {
      if (Array.isArray(a)) a.forEach(walk);
      else if (typeof a === "string") found.push(a);
    })(action);
    return found;
  }

  function events(frame, previous) {
    var kinds = [];
    if (!frame) return kinds;
    var v = frame.view || {};
    var pv = (previous && previous.view) || {};
    var action = frame.action;
    var verb = Array.isArray(action) ? action[0] : action;
    // A roll: hazard dice appear or change in the attempt.
    var dice = function (view) {
      return JSON.stringify(((view.contract || {}).execution || []).map(function (e) { return e[1].dice; }));
    };
    var now = ((v.contract || {}).execution || []).some(function (e) { return e[1].dice.length > 0; });
    if (now && dice(v) !== dice(pv)) kinds.push("roll");
    if (verb === "buy") kinds.push("purchase");
    if (verb === "merc") kinds.push("hire");
    if (verb === "contract") kinds.push("contract");
    if (JSON.stringify(v.last_contract || null) !== JSON.stringify(pv.last_contract || null) && v.last_contract) {
      if (kinds.indexOf("contract") < 0) kinds.push("contract");
    }
    if (v.overload && actionCards(action).some(function (id) { return cardInfo(id)[2]; })) kinds.push("overload");
    var before = (pv.players || []).map(function (p) { return p.prestige; });
    var after = (v.players || []).map(function (p) { return p.prestige; });
    if (before.length && JSON.stringify(before) !== JSON.stringify(after)) kinds.push("prestige");
    return kinds;
  }

  window.MoonBoards = window.MoonBoards || {};
  window.MoonBoards.moonrakers = { draw: draw, series: series, events: events };
})();
