"""How bots are isolated: the launcher for an isolation kind (ARENA_BOT_ISOLATION).

Above both launchers: the trusted one (launchers.py) and the bubblewrap sandbox
(bubblewrap.py, which builds on launchers.py), so neither imports the other back.
"""

from __future__ import annotations

from workers.sandbox.launchers import Launcher, TrustedProcessLauncher

ISOLATION_KINDS = ("sandbox", "process")


def get_launcher(kind: str = "sandbox") -> Launcher:
    """The launcher for an isolation kind: "sandbox" (bubblewrap) or "process" (trusted)."""
    if kind == "sandbox":
        from workers.sandbox.bubblewrap import BubblewrapLauncher

        return BubblewrapLauncher()
    if kind == "process":
        return TrustedProcessLauncher()
    raise ValueError(f"unknown isolation {kind!r}; choose one of {', '.join(ISOLATION_KINDS)}")
