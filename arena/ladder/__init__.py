"""The ladder's maths, with no ORM and no clock: which tables to play, how deep to queue.

- selection.py: the tables (newcomer guarantee, information, exploration, owner fair share)
- tables.py: table sizes per game, duplicate seatings
- depth.py: the target depth from worker capacity
- crashes.py: when a version's ladder record is a crash loop

arena/services/ladder.py reads the rows, calls these, and writes the decision back.
"""
