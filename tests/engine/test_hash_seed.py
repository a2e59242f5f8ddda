"""The legal actions come in the same order in every interpreter: a bot that plays the
first legal action, or a search that expands actions in order, plays the same game from
the same seed whatever PYTHONHASHSEED is (a set of strings iterates in the hash seed's
order, which once reordered Moonrollers' abilities)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]
DIGEST = """
import hashlib, random, sys
import engine
game = engine.get_game(sys.argv[1])
seen = hashlib.sha256()
for seed in range(12):
    state = game.new_state(game.max_players, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        seen.update(repr(legal).encode())
        state.apply(legal[rng.randrange(len(legal))])
print(seen.hexdigest())
"""


@pytest.mark.parametrize("game", engine.game_names())
def test_legal_actions_keep_their_order_across_hash_seeds(game):
    digests = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", DIGEST, game],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        digests.add(done.stdout.strip())
    assert len(digests) == 1, f"{game}: the order changes with the hash seed"
