"""Playing matches: the referee and the bots as it sees them.

`referee.py` plays a set of matches through the engine; `players.py` and
`bot_process.py` are the bots' channels, speaking the JSON lines of `protocol.py`.
`set_play.py` plays a claimed set in the worker's launcher (workers/tasks.py calls it);
`smoke.py` is an upload's smoke match. Bots start through workers/sandbox/.
"""
