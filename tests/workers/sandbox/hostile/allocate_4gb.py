"""Allocates 4 GB in 64 MB pieces it writes to: the memory limit must stop it (MemoryError)."""

hoard = []


def act(observation, legal_actions):
    for _ in range(64):
        hoard.append(b"x" * (64 << 20))
    return legal_actions[0]
