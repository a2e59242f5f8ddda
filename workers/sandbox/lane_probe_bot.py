"""The lane probe: a bot that checks, from the inside, the walls a lane gives its bots.

Run by `LanePool.probe` (workers/sandbox/zygote_lanes.py) as a bot file; it prints its verdict
to stderr. Only the standard library: it runs in the sandbox.
"""

import os
import sys


def read(path):
    with open(path) as handle:
        return handle.read()


problems = []
if os.getuid() == 0:
    problems.append("runs as root")
others = [p for p in os.listdir("/proc") if p.isdigit() and p not in ("1", "2")]
if (os.getpid(), os.getppid()) != (2, 1) or others:
    problems.append(f"pid {os.getpid()} of {others}: not alone in its PID namespace")
status = {}
for line in read("/proc/self/status").splitlines():
    key, _, value = line.partition(":")
    status[key] = value.strip()
for key in ("CapEff", "CapPrm", "CapInh", "CapAmb", "CapBnd"):
    if int(status.get(key, "1"), 16):
        problems.append(f"{key} {status.get(key)}")
if status.get("NoNewPrivs") != "1":
    problems.append("no_new_privs not set")
interfaces = [line.split(":")[0].strip() for line in read("/proc/net/dev").splitlines()[2:]]
if interfaces != ["lo"]:
    problems.append(f"network interfaces {interfaces}")
for path in ("/probe", "/usr/probe", "/dev/probe", "/arena/bot/probe", "/arena/probe"):
    try:
        with open(path, "w"):
            pass
        problems.append(f"{path} is writable")
    except OSError:
        pass
with open("/tmp/probe", "w"):
    pass
for line in read("/proc/self/mountinfo").splitlines():
    fields = line.split()
    point, options = fields[4], fields[5].split(",")
    # Device nodes (and bwrap's own pty instance) are not storage a bot could leave data in.
    fresh = point in ("/tmp", "/dev/shm", "/dev/pts") or point.startswith("/proc")
    if "rw" in options and not fresh and os.path.isdir(point):
        problems.append(f"{point} is mounted read-write")
print("probe: " + ("; ".join(problems) or "ok"), file=sys.stderr)


def act(observation, legal_actions):
    return legal_actions[0]
