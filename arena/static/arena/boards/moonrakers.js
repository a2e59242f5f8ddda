/* Moonrakers (and Overload): the board drawn from one replay frame.
 *
 * Plugin of the replay viewer: window.MoonBoards.moonrakers = {draw, series, events}.
 * Draws only what the frame's view holds: another player's hand is face down except the
 * cards the table knows (known_hand); the seat's own hand only in that seat's view. The
 * spectator view's "hand" field is what every seat's hand has in common position by
 * position, so it is never drawn; the revealed view's `seats` show every hand. Drawn with
 * common.js's helpers (loaded before this file). Card names and
 * contract requirements come from the engine's public card data, copied below.
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

  var W = 400; // viewBox width (common.js: about 400 wide, text 12 units or more)
  var CAT_COLOUR = {
    R: "#c05621", T: "#2b6cb0", S: "#2f855a", D: "#c53030", M: "#718096", C: "#6b46c1",
    F: "#4a5568", crew: "#6b46c1", part: "#1d7a7a", objective: "#975a16", contract: "#2d3748",
  };
  var REQ_NAMES = { R: "Reactor", T: "Thruster", S: "Shield", D: "Damage", C: "Crew", F: "Flex" };
  var CARD_W = 74, CARD_H = 36, PER_ROW = 5;

  // common.js's helpers (el, text, title, clip, back, seat ...): loaded before this file.
  var S = window.MoonBoards.svg;

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

  function olBadge(x, y) {
    return S.el("g", { class: "ol" }, [
      S.el("rect", { x: x, y: y, width: 20, height: 12, rx: 2, fill: "#553c9a" }),
      S.text(x + 10, y + 10, "OL", { "font-size": 10, fill: "#fff", "text-anchor": "middle" }),
    ]);
  }

  // A face-up card: a colour band, its name, an "OL" corner when it is an Overload card,
  // an optional note above the name (a count, IOspheres). `attr` names what it shows:
  // data-card for a card, data-supply for a supply pile of a kind (the Advanced cards).
  function card(x, y, w, h, id, note, attr) {
    var info = cardInfo(id);
    var colour = CAT_COLOUR[info[1]] || "#4a5568";
    var kids = [
      S.title(info[0] + (info[2] ? " (Overload)" : "") + (note ? " " + note : "")),
      S.el("rect", { x: x, y: y, width: w, height: h, rx: 4, fill: "#fff", stroke: colour, "stroke-width": 1.5 }),
      S.el("rect", { x: x, y: y, width: w, height: 5, rx: 2, fill: colour }),
      S.text(x + 4, y + h - 6, S.clip(info[0], Math.floor(w / 7)), { "font-size": 12 }),
    ];
    if (note) kids.push(S.text(x + 4, y + 17, note, { "font-size": 12, "font-weight": "bold", fill: "#2d3748" }));
    if (info[2]) kids.push(olBadge(x + w - 21, y + 6));
    var attrs = { class: "card", "data-overload": info[2] ? "1" : null };
    attrs[attr || "data-card"] = id;
    return S.el("g", attrs, kids);
  }

  // A hazard die: the face shows how many hazard icons it rolled (0, 1 or 2).
  function hazardDie(x, y, value) {
    var kids = [S.title("hazard die: " + value + " hazard" + (value === 1 ? "" : "s")),
      S.el("rect", { x: x, y: y, width: 22, height: 22, rx: 4, fill: "#fefcbf", stroke: "#744210", "stroke-width": 1.5 })];
    var spots = value === 1 ? [11] : value === 2 ? [6.5, 15.5] : [];
    spots.forEach(function (cx) {
      kids.push(S.el("path", { d: "M" + (x + cx) + " " + (y + 6) + "l4 9h-8z", fill: "#c53030" }));
    });
    return S.el("g", { class: "hazard-die", "data-value": value }, kids);
  }

  function reqChips(x, y, req, attrs) {
    var kids = [];
    Object.keys(req || {}).forEach(function (type) {
      kids.push(S.el("g", {}, [
        S.title(REQ_NAMES[type] + " " + req[type]),
        S.el("rect", { x: x, y: y, width: 34, height: 17, rx: 8, fill: CAT_COLOUR[type] || "#4a5568" }),
        S.text(x + 17, y + 13, type + req[type], { "font-size": 12, fill: "#fff", "text-anchor": "middle", "font-weight": "bold" }),
      ]));
      x += 37;
    });
    return S.el("g", Object.assign({ class: "requirements" }, attrs || {}), kids);
  }

  function contractCard(x, y, w, h, id, highlight) {
    if (!id) {
      return S.el("rect", { x: x, y: y, width: w, height: h, rx: 5, fill: "none", stroke: "#a0aec0", "stroke-dasharray": "4 3" });
    }
    var c = CONTRACTS[id] || [id, "?", "normal", 0, 0, 0, {}, 0, 0, [], 0];
    var mode = c[2] === "h2h" ? "Head to Head" : c[2] === "flex" ? "Flex" : c[1];
    var kids = [
      S.title(c[0] + " (" + c[1] + ", " + c[2] + ")"),
      S.el("rect", { x: x, y: y, width: w, height: h, rx: 5, fill: highlight ? "#fefcbf" : "#f7fafc", stroke: highlight ? "#b7791f" : "#718096", "stroke-width": highlight ? 2.5 : 1 }),
      S.text(x + 5, y + 15, S.clip(c[0], Math.floor((w - 26) / 7)), { "font-size": 12, "font-weight": "bold" }),
    ];
    if (c[2] === "h2h") {
      kids.push(S.text(x + 5, y + 34, "scores " + c[9].join("+") + " · 2nd ¢" + c[10], { "font-size": 12 }));
    } else {
      kids.push(reqChips(x + 5, y + 21, c[6]));
    }
    kids.push(S.text(x + 5, y + h - 7, "★" + c[3] + " ¢" + c[4] + (c[5] ? " +" + c[5] : "") + "  " + mode, { "font-size": 12, fill: "#2d3748" }));
    for (var i = 0; i < c[7]; i++) {
      kids.push(S.el("rect", { x: x + w - 15 - i * 13, y: y + h - 17, width: 11, height: 11, rx: 2, fill: "#fefcbf", stroke: "#744210" }));
    }
    if (c[8] === 1) kids.push(olBadge(x + w - 23, y + 5));
    return S.el("g", { class: "contract", "data-card": id, "data-overload": c[8] === 1 ? "1" : null }, kids);
  }

  // A row of cards that wraps (null draws a face-down card); returns [group, height used].
  function cardRow(x, y, ids, perRow, notes, cls, attr) {
    var g = S.el("g", { class: "cards" + (cls ? " " + cls : "") });
    ids.forEach(function (id, i) {
      var cx = x + (i % perRow) * (CARD_W + 3);
      var cy = y + Math.floor(i / perRow) * (CARD_H + 3);
      g.appendChild(id === null ? S.back(cx, cy, CARD_W, CARD_H) : card(cx, cy, CARD_W, CARD_H, id, notes ? notes[i] : null, attr));
    });
    return [g, ids.length ? Math.ceil(ids.length / perRow) * (CARD_H + 3) : 0];
  }

  function label(parent, x, y, value) {
    parent.appendChild(S.text(x, y, value, { "font-size": 12, fill: "#4a5568" }));
  }

  function section(svg, y, value) {
    svg.appendChild(S.text(6, y + 14, value, { "font-size": 13, "font-weight": "bold", fill: "#2d3748", class: "section" }));
    svg.appendChild(S.el("line", { x1: 6, x2: W - 6, y1: y + 19, y2: y + 19, stroke: "#cbd5e0" }));
    return y + 25;
  }

  function seatOf(ctx) {
    if (!ctx) return null;
    if (typeof ctx.seat === "number") return ctx.seat;
    var m = /^seat:(\d+)$/.exec(ctx.view || "");
    return m ? Number(m[1]) : null;
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

  function drawContracts(svg, y, v) {
    y = section(svg, y, "Contracts on offer · " + v.contract_deck + " in the deck");
    var w = (W - 15) / 2, h = 60;
    (v.contracts || []).forEach(function (id, i) {
      svg.appendChild(contractCard(6 + (i % 2) * (w + 3), y + Math.floor(i / 2) * (h + 3), w, h, id, false));
    });
    return y + Math.ceil((v.contracts || []).length / 2) * (h + 3) + 4;
  }

  function drawCurrent(svg, y, v, ctx) {
    var c = v.contract;
    if (!c) {
      var last = v.last_contract;
      if (!last) return y;
      y = section(svg, y, "Last contract");
      var info = CONTRACTS[last.contract] || [last.contract];
      var who = (last.participants || []).map(function (s) { return nameOf(ctx, s); }).join(", ");
      svg.appendChild(S.el("g", { class: "last-contract", "data-success": last.success ? "1" : "0" }, [
        S.text(6, y + 13, S.clip(info[0] + (last.success ? ": completed" : ": failed"), 52), {
          "font-size": 12, "font-weight": "bold", fill: last.success ? "#276749" : "#9b2c2c",
        }),
        S.text(6, y + 29, S.clip("by " + who, 56), { "font-size": 12 }),
      ]));
      return y + 38;
    }
    y = section(svg, y, "Contract in progress");
    var panel = S.el("g", { class: "current-contract", "data-contract": c.id });
    svg.appendChild(panel);
    var cw = (W - 15) / 2, rx = 6 + cw + 8;
    panel.appendChild(contractCard(6, y, cw, 60, c.id, true));
    var names = (c.participants || []).map(function (s) { return nameOf(ctx, s); });
    label(panel, rx, y + 12, "In the contract:");
    panel.appendChild(S.text(rx, y + 27, S.clip(names.join(", "), 26), { "font-size": 12, class: "participants" }));
    label(panel, rx, y + 43, "Still needed:");
    panel.appendChild(reqChips(rx, y + 47, c.remaining || {}, { class: "remaining" }));
    y += 70;
    var dealText = (c.deals || []).map(function (d) {
      return nameOf(ctx, d[0]) + ": ★" + d[1][0] + " ¢" + d[1][1] + " +" + d[1][2] + " ⚠" + d[1][3];
    }).join("; ");
    if (c.offer) dealText = "Offer to " + nameOf(ctx, c.invitee) + ": ★" + c.offer[0] + " ¢" + c.offer[1] + " +" + c.offer[2] + " ⚠" + c.offer[3];
    if (c.scores) dealText = "Scores: " + c.scores.join(" · ");
    if (dealText) {
      panel.appendChild(S.text(6, y + 8, S.clip(dealText, 56), { "font-size": 12, class: "deals" }));
      y += 18;
    }
    (c.execution || []).forEach(function (entry) {
      var q = entry[0], px = entry[1];
      var row = S.el("g", { class: "attempt", "data-attempt": q });
      row.appendChild(S.text(6, y + 15, S.clip(nameOf(ctx, q), 18), { "font-size": 12, "font-weight": "bold" }));
      (px.dice || []).forEach(function (value, i) {
        row.appendChild(hazardDie(150 + i * 25, y + 1, value));
      });
      row.appendChild(S.text(W - 6, y + 15, "act " + px.actions + " · blk " + px.blocked + " · dmg " + px.damage, { "font-size": 12, "text-anchor": "end", fill: "#4a5568" }));
      y += 28;
      var played = cardRow(6, y, px.played || [], PER_ROW, null, "played");
      row.appendChild(played[0]);
      svg.appendChild(row);
      y += played[1] + 2;
    });
    return y + 2;
  }

  function drawArmory(svg, y, v) {
    y = section(svg, y, "Armory");
    [v.armory_crew || [], v.armory_parts || []].forEach(function (ids) {
      var row = cardRow(6, y, ids, PER_ROW, null, "armory");
      svg.appendChild(row[0]);
      y += row[1];
    });
    if (v.advanced_supply) {
      var kinds = Object.keys(v.advanced_supply);
      var adv = cardRow(6, y, kinds, PER_ROW, kinds.map(function (k) { return "×" + v.advanced_supply[k]; }), "advanced", "data-supply");
      svg.appendChild(adv[0]);
      y += adv[1];
    }
    var mercs = (v.mercs || []).filter(function (m) { return m !== null; });
    if (mercs.length) {
      label(svg, 6, y + 13, "Mercenaries");
      y += 18;
      var row = cardRow(6, y, mercs, PER_ROW, null, "mercs");
      svg.appendChild(row[0]);
      y += row[1];
    }
    if (v.overload) {
      label(svg, 6, y + 13, "IOspheres in supply: " + v.iospheres_supply);
      y += 20;
    }
    return y;
  }

  // The cards of a hand this view can name: all of it for its owner (and in the revealed
  // view); for anyone else the cards the table knows, the rest face down.
  function handOf(v, q, seat) {
    var p = v.players[q];
    var own = Array.isArray(v.seats) && v.seats[q] ? v.seats[q].hand : seat === q ? v.hand : null;
    if (Array.isArray(own)) return own.slice();
    var hand = (p.known_hand || []).slice();
    for (var i = hand.length; i < p.hand_size; i++) hand.push(null);
    return hand;
  }

  function drawPlayer(svg, y, v, q, ctx, seat, toMove) {
    var p = v.players[q];
    var mine = seat === q;
    var area = S.seat(q, 0, 0, []);
    area.setAttribute("class", "seat player");
    svg.appendChild(area);
    var top = y;
    area.appendChild(S.text(12, y + 17, S.clip(nameOf(ctx, q), 30), { "font-size": 13, "font-weight": "bold" }));
    var marks = (v.mission_leader === q ? "◆ Mission Leader" : "") + (toMove === q ? "  ▶ to move" : "");
    if (marks) area.appendChild(S.text(W - 12, y + 17, marks.trim(), { "font-size": 12, "text-anchor": "end", fill: "#9c4221", class: "marks" }));
    area.appendChild(S.text(12, y + 34, "★ " + p.prestige + " Prestige", { "font-size": 13, class: "prestige", fill: "#744210", "font-weight": "bold" }));
    area.appendChild(S.text(130, y + 34, "¢ " + p.credits + " credits", { "font-size": 13, class: "credits" }));
    label(area, 12, y + 51, "deck " + p.draw_size + " · discard " + p.discard_size + " · objectives " + p.objectives_held + (p.claimed.length ? " (✓" + p.claimed.length + ")" : ""));
    y += 58;
    var groups = [];
    var installed = [], notes = [];
    (p.parts || []).concat(p.in_play || []).forEach(function (e) {
      installed.push(e[0]);
      notes.push(e[1] ? "◉" + e[1] : null);
    });
    if (installed.length) groups.push(["Ship", installed, notes, "ship"]);
    groups.push(["Hand", handOf(v, q, seat), null, "hand"]);
    if (p.discard_top) groups.push(["Discard pile top", [p.discard_top], null, "discard-top"]);
    if (p.claimed.length) groups.push(["Objectives claimed", p.claimed, null, "claimed"]);
    var secret = Array.isArray(v.seats) && v.seats[q] ? v.seats[q].objectives : mine ? v.objectives : null;
    if (Array.isArray(secret) && secret.length) groups.push(["Secret objectives", secret, null, "objectives"]);
    groups.forEach(function (gr) {
      label(area, 12, y + 12, gr[0] + (gr[3] === "hand" ? " · " + gr[1].length : ""));
      y += 16;
      var row = cardRow(12, y, gr[1], PER_ROW, gr[2], gr[3]);
      area.appendChild(row[0]);
      y += Math.max(row[1], 4);
    });
    area.insertBefore(
      S.el("rect", {
        x: 4, y: top, width: W - 8, height: y - top + 4, rx: 6,
        fill: mine ? "#ebf8ff" : "#f7fafc", stroke: toMove === q ? "#dd6b20" : "#cbd5e0", "stroke-width": toMove === q ? 2 : 1,
      }),
      area.firstChild
    );
    return y + 12;
  }

  function draw(frame, ctx) {
    S = (ctx && ctx.svg) || window.MoonBoards.svg;
    var v = (frame && frame.view) || {};
    var seat = seatOf(ctx);
    var svg = S.el("svg", {
      xmlns: "http://www.w3.org/2000/svg", class: "board board-moonrakers", "data-step": frame ? frame.index : 0,
      role: "img", "aria-label": "Moonrakers table, step " + (frame ? frame.index : 0),
      width: "100%", preserveAspectRatio: "xMidYMin meet",
      style: "display:block;max-width:100%;height:auto;font-family:system-ui,sans-serif",
    });
    var y = 2;
    svg.appendChild(S.text(6, y + 15, "Turn " + v.turn + (v.overload ? " · Overload" : " · base game"), { "font-size": 14, "font-weight": "bold" }));
    var pending = v.pending || [];
    var status = "";
    if (frame && frame.result) status = winners(frame.result, ctx);
    else if (pending.length) status = (typeof pending[1] === "number" ? nameOf(ctx, pending[1]) + ": " : "") + String(pending[0]).replace(/_/g, " ");
    if (status) {
      svg.appendChild(S.text(6, y + 33, S.clip(status, 54), { "font-size": 12, fill: frame && frame.result ? "#9b2c2c" : "#4a5568", class: frame && frame.result ? "game-over" : "pending" }));
      y += 18;
    }
    y += 24;
    if (Array.isArray(v.contracts)) y = drawContracts(svg, y, v);
    y = drawCurrent(svg, y, v, ctx);
    if (Array.isArray(v.armory_crew)) y = drawArmory(svg, y, v);
    var players = v.players || [];
    if (players.length) y = section(svg, y, "Players");
    for (var q = 0; q < players.length; q++) y = drawPlayer(svg, y, v, q, ctx, seat, frame ? frame.to_move : null);
    svg.setAttribute("viewBox", "0 0 " + W + " " + Math.ceil(y + 2));
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
    var rolled = ((v.contract || {}).execution || []).some(function (e) { return e[1].dice.length > 0; });
    if (rolled && dice(v) !== dice(pv)) kinds.push("roll");
    if (verb === "buy") kinds.push("purchase");
    if (verb === "merc") kinds.push("hire");
    var settled = v.last_contract && JSON.stringify(v.last_contract) !== JSON.stringify(pv.last_contract || null);
    if (verb === "contract" || settled) kinds.push("contract");
    // An Overload card played, bought, gained or used, or an Overload contract taken.
    var named = OVERLOAD_VERBS.indexOf(verb) >= 0 ? actionCards(action.slice(1)) : [];
    if (verb === "contract" && Array.isArray(pv.contracts)) named = [pv.contracts[action[1]]];
    if (v.overload && named.some(function (id) { return id && cardInfo(id)[2]; })) kinds.push("overload");
    var before = (pv.players || []).map(function (p) { return p.prestige; });
    var after = (v.players || []).map(function (p) { return p.prestige; });
    if (before.length && JSON.stringify(before) !== JSON.stringify(after)) kinds.push("prestige");
    return kinds;
  }

  window.MoonBoards = window.MoonBoards || {};
  window.MoonBoards.moonrakers = { draw: draw, series: series, events: events };
})();
