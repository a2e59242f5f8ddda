"""Moon Adventure's track: where a step lands, and spaces taken out of or put into the line.

The track is one list of spaces (state.py): index 0 is the Base board, then the supply
chips, and last the Rover's space. Crew, robot and Rover positions are indexes into it,
so a space inserted or removed in front of them moves them too. `Track` is the part of
`MoonAdventureState` that reads and reshapes that line.
"""

from __future__ import annotations

from engine.games.moon_adventure.table import Table


class Track(Table):
    """The geometry of the line of spaces (the fields are the table's)."""

    def _step(self, p: int, d: int, inventor: bool) -> int:
        """Where one step from `p` in direction `d` lands, or -1 (A-27 jumping)."""
        route = self.route
        pos = self.pos
        robot = self.robot
        size = len(route)
        q = p + d
        while 0 < q < size:
            if (route[q] and not inventor) or q == robot or q in pos:
                q += d
                continue
            return q
        return 0 if q == 0 else -1

    def _robot_step(self, r: int, d: int) -> int:
        route = self.route
        pos = self.pos
        size = len(route)
        q = r + d
        while 0 < q < size:
            if route[q] or q in pos or (q == self.rover and self.rider < 0):
                q += d
                continue
            return q
        return 0 if q == 0 else -1

    def _robot_moves(self) -> list[str]:
        moves = []
        for d, sign in ((1, "+"), (-1, "-")):
            first = self._robot_step(self.robot, d)
            if first < 0:
                continue
            moves.append(f"robot{sign}1")
            if first > 0 and self._robot_step(first, d) >= 0:
                moves.append(f"robot{sign}2")
        return moves

    def _share_partners(self) -> list[int]:
        seat = self.cur
        p = self.pos[seat]
        returned = self.returned
        if returned[seat]:
            return []  # back on the Base: "You may not share supply or oxygen cards"
        return [
            other
            for other, q in enumerate(self.pos)
            if other != seat and not returned[other] and -1 <= q - p <= 1
        ]

    def _free_target(self, q: int) -> bool:
        """A chip space with no route piece, robot or crew on it (gather/route targets)."""
        return not self.route[q] and q != self.robot and q not in self.pos and q != self.rover

    def _remove(self, k: int) -> None:
        """Take space `k` (free: no crew, robot, rover or route on it) out of the line."""
        del self.kind[k], self.chip[k], self.route[k]
        pos = self.pos
        for seat in range(len(pos)):
            if pos[seat] > k:
                pos[seat] -= 1
        if self.robot > k:
            self.robot -= 1
        if self.rover > k:
            self.rover -= 1

    def _insert(self, k: int, kind: int, chip: int) -> None:
        self.kind.insert(k, kind)
        self.chip.insert(k, chip)
        self.route.insert(k, False)
        pos = self.pos
        for seat in range(len(pos)):
            if pos[seat] >= k:
                pos[seat] += 1
        if self.robot >= k:
            self.robot += 1
        if self.rover >= k:
            self.rover += 1
