"""Allocates 4 GB in 64 MB pieces: the address-space limit must stop it (MemoryError)."""

hoard = []


def act(observation, legal_actions):
    for _ in range(64):
        hoard.append(bytearray(64 << 20))
    return legal_actions[0]
