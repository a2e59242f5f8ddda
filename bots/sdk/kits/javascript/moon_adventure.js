// A Moon Adventure starter bot in JavaScript: a random legal move, and a look at the observation.
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
    const phase = observation.phase; // oxygen, act, replenish, ...
    if (this.firstMove) {
      this.firstMove = false; // log once a match: stderr is capped at 64 KiB a match
      const seat = observation.seat;
      arena.log(`moon_adventure seat ${seat}: phase=${phase}, role=${observation.roles[seat]}`);
    }
    return legalActions[Math.floor(this.random() * legalActions.length)];
  }
}

arena.run(() => new Bot());
