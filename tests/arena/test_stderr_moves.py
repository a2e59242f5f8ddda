"""A bot's stderr split by move, from what the real runner writes (bots/sdk/runner.py marks
each move's first write) and from text with no marks (bots in other languages)."""

from __future__ import annotations

from arena.stderr_moves import split_moves
from tests.bots.test_runner import START, act, converse, write


def test_a_set_s_stderr_gives_each_match_its_own_moves(tmp_path):
    bot = write(
        tmp_path,
        "class Bot:\n"
        "    def setup(self, info):\n"
        "        self.match, self.moves = info['match'], 0\n"
        "        print('hello from', self.match)\n"
        "    def act(self, observation, legal_actions):\n"
        "        self.moves += 1\n"
        "        if self.moves != 2:\n"
        "            print('match', self.match, 'move', self.moves)\n"
        "        return legal_actions[0]\n",
    )
    _, code, stderr = converse(
        bot,
        {**START, "match": 7},
        {**START, "match": 8},
        *[{**act(["x"]), "match": match} for match in (7, 8, 7, 7, 8)],
    )
    assert code == 0
    text, moves = split_moves(stderr, 7)
    assert moves == {0: "hello from 7", 1: "match 7 move 1", 3: "match 7 move 3"}
    assert text.split("\n") == [
        "— setup —",
        "hello from 7",
        "— move 1 —",
        "match 7 move 1",
        "— move 3 —",
        "match 7 move 3",
        "",
    ]
    assert "match 8" not in text
    _, other = split_moves(stderr, 8)
    assert other == {0: "hello from 8", 1: "match 8 move 1"}


def test_text_without_marks_belongs_to_the_whole_match():
    assert split_moves("compiled\nthinking hard\n", 3) == ("compiled\nthinking hard\n", {})


def test_a_malformed_mark_is_never_taken_for_a_move():
    text, moves = split_moves("\x1emove 3 x\nodd\n\x1emove 3 2\nsaid\n", 3)
    assert moves == {2: "said"}
    assert "odd" not in text
