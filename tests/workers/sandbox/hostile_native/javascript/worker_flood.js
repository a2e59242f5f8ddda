// worker_threads: starts workers without end, each a thread with its own V8 heap. The
// pids cgroup, RLIMIT_NPROC or the cgroup's memory limit stops it; a refusal it sees
// it reports, then exits 3.
const readline = require("readline");
const { Worker } = require("worker_threads");
const workers = [];

function refused(count, error) {
  console.error(`BLOCKED worker ${count}: ${error.message || error}`);
  process.exit(3);
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (JSON.parse(line).type !== "act") return;
  for (let count = 0; count < 100000; count++) {
    try {
      const worker = new Worker("setInterval(() => {}, 60000)", { eval: true });
      worker.on("error", (error) => refused(count, error));
      workers.push(worker);
    } catch (error) {
      refused(count, error);
    }
  }
});
