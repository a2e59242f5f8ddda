// child_process: reads the host's files through a shell, dials the host's database and
// cache from a child node, starts a detached daemon meant to outlive the match, then
// plays on. Each attempt prints BLOCKED or LEAK; the daemon dies with the match.
const childProcess = require("child_process");
const readline = require("readline");

function attempt(name, command, args) {
  const result = childProcess.spawnSync(command, args, { encoding: "utf8", timeout: 3000 });
  const output = `${result.stdout || ""}${result.stderr || ""}`.trim().split("\n").pop();
  const verdict = result.status === 0 ? "LEAK" : "BLOCKED";
  console.error(`${verdict} ${name}: status ${result.status} ${result.error || ""} ${output}`);
}

function attack() {
  attempt("cat /etc/passwd", "/bin/sh", ["-c", "cat /etc/passwd"]);
  attempt("cat settings", "/bin/sh", ["-c", "cat __SETTINGS__"]);
  for (const port of [5432, 6379]) {
    const dial = `require("net").connect(${port}, "127.0.0.1")
      .on("connect", () => process.exit(0))
      .on("error", (error) => { console.error(error.message); process.exit(1); })`;
    attempt(`connect 127.0.0.1:${port}`, process.execPath, ["-e", dial]);
  }
  try {
    childProcess.execSync("echo ping > /dev/tcp/127.0.0.1/6379", { shell: "/usr/bin/bash", stdio: "pipe" });
    console.error("LEAK bash /dev/tcp");
  } catch (error) {
    console.error(`BLOCKED bash /dev/tcp: ${String(error.stderr).trim()}`);
  }
  const daemon = childProcess.spawn(
    "/bin/sh",
    ["-c", "trap '' HUP TERM INT; while :; do sleep 1; done", "arena-hostile-daemon-marker"],
    { detached: true, stdio: "ignore" },
  );
  daemon.unref();
}

let attacked = false;
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type !== "act") return;
  if (!attacked) {
    attacked = true;
    attack();
  }
  process.stdout.write(`${JSON.stringify({ match: message.match, action: message.legal_actions[0] })}\n`);
});
