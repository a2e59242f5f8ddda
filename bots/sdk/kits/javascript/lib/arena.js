// Moon Arena bot protocol for JavaScript (Node, CommonJS, no packages): the loop that
// answers the arena, and a seeded random number generator.
//
// The arena writes one JSON object per line on stdin ("start", "act", "end"); the bot
// answers each "act" with one line {"match": ..., "action": <one of legal_actions>}.
// Nothing else may go to stdout: log with arena.log (stderr).
//
// JSON numbers are JavaScript numbers: integers beyond 2**53 lose precision (the games
// send none).
"use strict";

const fs = require("fs");

// One line to stderr (the arena keeps the first 64 KiB of a match's stderr).
function log(...parts) {
  fs.writeSync(2, parts.join(" ") + "\n");
}

// A small seeded generator (mulberry32): Math.random cannot be seeded.
function seededRandom(seed) {
  let state = seed >>> 0;
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Writes go straight to the file descriptor: each answer leaves at once, in order.
function say(message) {
  const data = Buffer.from(JSON.stringify(message) + "\n");
  let written = 0;
  while (written < data.length) {
    try {
      written += fs.writeSync(1, data, written);
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
    }
  }
}

// Writes {"match": ..., "error": ...} and ends the process with status 1.
function fail(match, reason) {
  const message = match === undefined || match === null ? {} : { match };
  message.error = String(reason).slice(0, 500);
  say(message);
  log("error:", reason);
  process.exit(1);
}

// Answers the arena until its input closes. newBot() makes the player of one match, an
// object with act(observation, legalActions) returning one element of legalActions, and
// optional start(info) and end(result). Several matches may interleave in one process,
// each keyed by its "match" value.
function run(newBot) {
  const playing = new Map();
  const botFor = (key) => {
    if (!playing.has(key)) playing.set(key, newBot());
    return playing.get(key);
  };
  let pending = "";

  function handle(line) {
    if (!line.trim()) return;
    let message;
    try {
      message = JSON.parse(line);
    } catch (error) {
      fail(null, "the referee sent a line that is not JSON");
    }
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      fail(null, "the referee sent a line that is not a JSON object");
    }
    const match = message.match === undefined ? null : message.match;
    const key = JSON.stringify(match);
    try {
      if (message.type === "act") {
        const action = botFor(key).act(message.observation, message.legal_actions);
        say(match === null ? { action } : { match, action });
      } else if (message.type === "start") {
        const bot = newBot();
        playing.set(key, bot);
        if (bot.start) bot.start(message);
      } else if (message.type === "end") {
        const bot = botFor(key);
        playing.delete(key);
        if (bot.end) bot.end(message.result);
        if (match === null) process.exit(0);
      }
    } catch (error) {
      log(error && error.stack ? error.stack : String(error));
      fail(match, `bot raised ${error}`);
    }
  }

  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    pending += chunk;
    let newline;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      handle(line);
    }
  });
  process.stdin.on("end", () => {
    handle(pending);
    process.exit(0);
  });
}

module.exports = { log, run, seededRandom };
