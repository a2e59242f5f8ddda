// A Moon-Bots starter bot in JavaScript: a random legal move, and a look at the observation.
//
// The arena calls act(observation, legalActions) each time it is this seat's decision;
// it must return one element of legalActions, unchanged. The game's page in the guide
// shows a real observation with every field explained. Run: node bot.js
"use strict";

const arena = require("./arena.js");

class Bot {
  constructor() {
    this.random = arena.seededRandom(7); // seeded: the same match plays the same way again
    this.firstMove = true;
  }

  act(observation, legalActions) {
    const decision = observation.decision; // null, or {"kind": "buy", ...}
    if (this.firstMove) {
      this.firstMove = false; // log once a match: stderr is capped at 64 KiB a match
      arena.log(
        `moon_bots seat ${observation.seat}: decision.kind=${decision ? decision.kind : "none"},`,
        `${observation.my_robots.length} robots of mine`,
      );
    }
    return legalActions[Math.floor(this.random() * legalActions.length)];
  }
}

arena.run(() => new Bot());
