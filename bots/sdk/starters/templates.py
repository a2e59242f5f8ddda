"""The readme and the test that `arena new-bot` writes beside a starter bot.

Kept as string constants (`string.Template`, `$name` fields) so that they travel inside
the package with the starter bots, whatever files the package data lists.
"""

from __future__ import annotations

from string import Template

README = Template("""\
# A $title bot

Written by `arena new-bot $game`. Three files:

| file | what it is |
|---|---|
| `bot.py` | the bot: `act(observation, legal_actions)` returns one of the legal actions |
| `test_bot.py` | plays a few games of $title with the engine, here, and checks every move |
| `README.md` | this page |

`bot.py` already plays sensibly (it beats random play); its comments show how to read
each part of the observation and the legal actions. The guide's page for the game,
*Bot authors → The games → $title* (`docs/bot-authors/games/$slug.md` in the Moon
Arena sources), shows a real observation and a real list of legal actions with every
field explained, and links to the engine's complete rules.

## Try it

```sh
pytest                                          # whole games, every move checked
$play_lines
```

`arena play` runs `bot.py` in the same sandbox as the arena; where the sandbox cannot run
on your machine, add `--isolation process` (for your own files only). `--save-replay
game.json` keeps a game, `arena replay game.json` checks it.

## Make it better

Change one thing at a time and measure it with `arena play` over a few hundred games
(`--seed` keeps runs comparable). The reference bot for this game is longer and stronger:
`bots/reference/${game}_heuristic.py` in the Moon Arena sources.

## Submit it

```sh
arena login https://your-arena.example      # once
arena submit bot.py --game $game --name my-$slug-bot
```

The arena checks the file, runs it in its sandbox and puts it on the ladder.
""")

TEST = Template('''\
"""Tests for bot.py: whole games of $title with the engine, here, in this process.

Each decision goes to the bot as the arena sends it (the observation through JSON) and
its answer must be one of the legal actions: an illegal answer forfeits the match.
Run with `pytest` in this folder.
"""

import json
import random
from pathlib import Path

import engine
from bots.sdk.runner import load_bot

GAME = "$game"
BOT_FILE = Path(__file__).with_name("bot.py")
GAMES = 5  # a few whole games; raise it while you change the bot


def play_one(seed, players=2):
    """Play one game, our bot in $seats; return its result."""
    state = engine.get_game(GAME).new_state(players, seed=seed)
    loaded = load_bot(str(BOT_FILE))
    bots = {}
    for seat in $our_seats:
        bots[seat] = loaded.for_match()  # a new Bot() per match for class bots
        if bots[seat].setup:  # the start message, as the arena sends it
            start = {"type": "start", "match": seed, "game": GAME, "seat": seat}
            bots[seat].setup(dict(start, players=players, options={}, seed=seed))
    rng = random.Random(seed)  # for the seats our bot does not play
    while not state.is_terminal():
        seat = state.to_move()
        legal = state.legal_actions()
        if seat in bots:
            observation = json.loads(json.dumps(state.observation(seat)))
            action = bots[seat].act(observation, json.loads(json.dumps(legal)))
            assert action in legal, f"seed {seed}: {action!r} is not legal"
        else:
            action = rng.choice(legal)
        state.apply(action)
    return state.result()


def test_the_bot_plays_whole_games_legally():
    for seed in range(GAMES):
        result = play_one(seed)
        assert len(result["ranks"]) == 2 and len(result["scores"]) == 2
''')

# What differs between the games: a competitive game seats the bot against random play,
# the cooperative one fills every seat of the team with it.
COMPETITIVE = {
    "seats": "seat 0 and random play in the others",
    "our_seats": "[0]",
    "play_lines": "arena play --game $game --games 100 bot.py random      # against random play\n"
    "arena play --game $game --games 100 bot.py heuristic   # against the reference bot",
}
COOPERATIVE = {
    "seats": "every seat: the whole team",
    "our_seats": "range(players)",
    "play_lines": "arena play --game $game --games 100 bot.py bot.py      # a team of two\n"
    "arena play --game $game --games 100 random random      # the team to beat",
}


def render(template: Template, game: str, title: str, cooperative: bool) -> str:
    """The template's text for one game (`title`: its name as the guide writes it)."""
    fields = dict(COOPERATIVE if cooperative else COMPETITIVE)
    fields["play_lines"] = Template(fields["play_lines"]).substitute(game=game)
    return template.substitute(game=game, title=title, slug=game.replace("_", "-"), **fields)
