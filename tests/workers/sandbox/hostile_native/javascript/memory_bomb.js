// Keeps 16 MB buffers, filled, without end: buffers live outside V8's heap limit, so
// the cgroup's memory limit is what kills it.
const readline = require("readline");
const kept = [];

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (JSON.parse(line).type !== "act") return;
  for (;;) kept.push(Buffer.alloc(16 << 20, 1));
});
