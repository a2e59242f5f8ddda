"""The phases of a Moonrollers decision (`observation["turn"]["phase"]` names them)."""

START, CREW_CHOICE, COMMIT, LOCK, SELECT, HAZARD, PLACE, RETURN, NAMARI = range(9)
PHASES = ("start", "crew", "commit", "lock", "select", "hazard", "place", "return", "namari")
