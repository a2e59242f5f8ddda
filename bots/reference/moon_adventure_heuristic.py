"""Moon Adventure reference heuristic: the same file plays every seat of the team.

Everything on the table is public except which face-down chips are broken, so
every seat reads the same plan from the observation. On its turn a seat
searches the sequences of moves, gathers and OGS builds its AP allows (a small
model of the line, no engine needed) and scores where the turn would end:
supplies gathered, oxygen it can draw there, how far the next chip is, and
whether the oxygen left still covers the way home. Oxygen is handed to any
teammate about to run dry; the whole team heads home once the supplies held
make success likely.

At 2-3 players the team plays boldly (`BOLD`): it goes for the far Area-5 chips first,
never walks home empty-handed, burns its 2xO2 cards first and delays each reshuffle until
the crew out run low on oxygen, so draw piles are big and storms rare. That risks more
crew members (most failed missions now run out of oxygen) for ~10x the successes; larger
teams, where it strands too many crew members, play the steadier plan.

One file, since the sandbox gives a bot its own file and the engine, nothing else. It
reads in three parts:

- Game knowledge: the numbers the plan is tuned with, the two team plans, and `View`,
  the table as the bot reads it (the movement rules included).
- Evaluation: estimates (the chance of reaching the Base, of a storm, of success) and
  the turn search (`Planner`), which scores where each sequence of moves would end.
- Move choice: `Bot` and `act`, and one function per kind of decision.
"""

from __future__ import annotations

from functools import cache
from math import comb

# ----- Game knowledge: the numbers of the plan, the team plans, the table as read --------

ROLE_PREFERENCE = (
    "mechanic",
    "veteran",
    "carrier",
    "flight_surgeon",
    "inventor",
    "athlete",
    "inspector",
    "mood_maker",
    "rookie",
    "engineer",
)
UNDAMAGED = {3: 3, 4: 4, 5: 5}
CHIPS_PER_AREA = 7
EXPECTED_AP = {2: 4.0, 3: 6.0}
MARGIN = 1.5

# Team plan.
GOOD_ENOUGH = 0.9  # head home once the held supplies make success this likely
MIN_VALUE = 0.5  # chips less likely than this to be undamaged are not worth a trip
RESERVE_AP = 7.0  # AP one oxygen card is trusted to give on the way home
KEEP_EMPTY = 0  # containers left empty for supplies when drawing

# Scores of where a turn ends (in "supplies" of W_CHIP).
W_CHIP = 25.0
W_CARD = (5.0, 5.0, 4.0, 3.0, 1.5, 0.5, 0.2)  # an oxygen card drawn, by cards already held
W_HOME = 2.0  # per move still to go, once heading home
W_OUT = 0.5  # per move still to go to the far end, when walking out
OUT_LOW = 50.0  # walking out with one oxygen card left and no OGS under us
W_ROUTE = 1.0  # per future crossing of a space by a crew member
W_RESCUE = 40.0  # handing oxygen to a teammate who has none
W_DEATH = 50.0  # starting a turn without oxygen (times its probability)
REFILL_RELIEF = 0.5  # that risk counts less next to an active OGS
OGS_NEAR = 3  # an active OGS this many moves away counts as a refill
OGS_PRICE = 6.0  # an OGS chip used up is oxygen the team cannot draw later
OGS_WHEN_CARDS = 2  # build an OGS only when holding this few oxygen cards
OGS_REACH = 5  # when sweeping, build only this close to (or past) the nearest chip
AP_PER_DRAW = 4.4
DRAW_RISK = 1.0  # draw while a storm is at most this likely (twice that when low): always
AP_PER_CHIP = 4.5
TAKE_MAX = 2  # oxygen cards taken from a teammate in one exchange
KEEP_CARDS = 2  # a teammate keeps at least this many cards when asked for oxygen
POTENTIAL = 0.3  # supplies still to gather are worth less than supplies in hand


class TeamPlan:
    """How boldly the team plays, chosen per table size (scripts/team_plans.py measures both)."""

    def __init__(
        self,
        *,
        far_slack,
        area5_bonus,
        give_up,
        reshuffle_cards,
        home_ogs,
        routes_per_turn,
        twos_first,
    ):
        self.far_slack = far_slack  # how far short of the outermost chip the walk out may stop
        self.area5_bonus = area5_bonus  # Area-5 chips are worth this much more: go far first
        self.give_up = give_up  # walking home without gathering anything, as a share of a death
        # Reshuffle only when the crew out hold at most this many oxygen cards per seat (or
        # the drawer holds none): big discard piles make draw piles with fewer storms.
        self.reshuffle_cards = reshuffle_cards
        self.home_ogs = home_ogs  # a crew member heading home may still build an OGS
        self.routes_per_turn = routes_per_turn  # route pieces one turn plan may lay
        self.twos_first = twos_first  # burn 2xO2 cards first, keep the 3xO2 cards for later


# At 2-3 players the bold plan succeeds ~10x as often (3 players: 63/500 against 4/500).
# At 4-5 players it strands most crews: at 4 it succeeds 10 times in 400 missions where
# steady never does, but brings everyone home 31 times against 193 (mean team score 1.3
# against 3.2), so the reference plays steady there and the search bot weighs the two.
BOLD = TeamPlan(
    far_slack=6,
    area5_bonus=0.7,
    give_up=1.0,
    reshuffle_cards=1,
    home_ogs=True,
    routes_per_turn=3,
    twos_first=True,
)
STEADY = TeamPlan(
    far_slack=10,
    area5_bonus=0.0,
    give_up=0.5,
    reshuffle_cards=None,
    home_ogs=False,
    routes_per_turn=2,
    twos_first=False,
)
BOLD_UP_TO = 3  # players
PLANS = {"bold": BOLD, "steady": STEADY}


def plan_for(players):
    """The heuristic's own plan for a table of this size."""
    return BOLD if players <= BOLD_UP_TO else STEADY


class View:
    """The observation, with the movement rules needed to plan."""

    def __init__(self, obs, plan=None):
        self.obs = obs
        self.me = obs["seat"]
        self.track = obs["track"]
        self.size = len(self.track)
        self.route = [space["route"] for space in self.track]
        self.crew = obs["crew"]
        self.robot = obs["robot"]
        self.rover = obs["rover"]
        self.rider = obs["rider"]
        self.returned = obs["returned"]
        self.roles = obs["roles"]
        self.role = self.roles[self.me]
        self.pos = self.crew[self.me]
        self.slots = obs["containers"][self.me]
        self.ap = obs["ap"]
        self.n = len(self.crew)
        self.plan = plan or plan_for(self.n)
        self._chance = None

    # ----- containers -------------------------------------------------------------

    def oxygen(self, seat=None):
        slots = self.obs["containers"][self.me if seat is None else seat]
        return [item["oxygen"] for item in slots if item and "oxygen" in item]

    def chips(self, seat=None):
        slots = self.obs["containers"][self.me if seat is None else seat]
        return [item for item in slots if item and "area" in item]

    def empty(self, seat=None):
        slots = self.obs["containers"][self.me if seat is None else seat]
        return sum(1 for item in slots if item is None)

    def capacity(self, seat=None):
        return len(self.obs["containers"][self.me if seat is None else seat])

    def future_ap(self, seat=None):
        return sum(EXPECTED_AP[v] for v in self.oxygen(seat))

    # ----- movement ---------------------------------------------------------------

    def blocked(self, q, seat):
        if self.route[q]:  # everyone jumps them (the Inventor could also walk onto them)
            return True
        if q == self.robot:
            return True
        return any(p == q for s, p in enumerate(self.crew) if s != seat)

    def step(self, p, d, seat):
        q = p + d
        while 0 < q < self.size:
            if self.blocked(q, seat):
                q += d
                continue
            return q
        return 0 if q == 0 else -1

    def move(self, p, d, seat=None, riding=None):
        """Where one Movement action (1 AP) takes `seat` from `p`, or -1."""
        seat = self.me if seat is None else seat
        riding = self.rider == seat if riding is None else riding
        q = self.step(p, d, seat)
        if riding and q > 0:
            nxt = self.step(q, d, seat)
            if nxt >= 0:
                q = nxt
        return q

    def moves_home(self, seat=None, start=None, riding=None):
        seat = self.me if seat is None else seat
        p = self.crew[seat] if start is None else start
        moves = 0
        while p > 0:
            p = self.move(p, -1, seat, riding)
            if p < 0:
                return 99
            moves += 1
        return moves

    # ----- supplies ---------------------------------------------------------------

    def all_chips(self):
        for space in self.track:
            if space["kind"] == "supply":
                yield space
        for slots in self.obs["containers"]:
            for item in slots:
                if item and "area" in item:
                    yield item

    def chip_value(self, space):
        if space.get("broken") is True:
            return 0.0
        if space.get("broken") is False:
            return 1.0
        seen_good = seen = 0
        for chip in self.all_chips():
            if chip["area"] == space["area"] and chip["broken"] is not None:
                seen += 1
                seen_good += not chip["broken"]
        unseen = CHIPS_PER_AREA - seen
        return (UNDAMAGED[space["area"]] - seen_good) / unseen if unseen else 0.0

    def success_chance(self):
        """P(undamaged supplies held by the whole team >= target)."""
        if self._chance is not None:
            return self._chance
        known = 0
        held, good_left, unseen = [], [], []
        for area in UNDAMAGED:
            seen_good = seen = face_down = 0
            for chip in self.all_chips():
                if chip["area"] == area and chip["broken"] is not None:
                    seen += 1
                    seen_good += not chip["broken"]
            for slots in self.obs["containers"]:
                for item in slots:
                    if item and item.get("area") == area:
                        if item["broken"] is None:
                            face_down += 1
                        elif not item["broken"]:
                            known += 1
            held.append(face_down)
            good_left.append(UNDAMAGED[area] - seen_good)
            unseen.append(CHIPS_PER_AREA - seen)
        need = self.obs["target"] - known
        self._chance = undamaged_chance(tuple(held), tuple(good_left), tuple(unseen), need)
        return self._chance


# ----- Evaluation: estimates, then the turn search ------------------------------------


@cache
def undamaged_chance(held, good_left, unseen, need):
    """P(at least `need` undamaged among `held` unseen chips per area), each area's held
    chips a uniform draw from its `unseen` chips, `good_left` of them undamaged."""
    if need <= 0:
        return 1.0
    dist = [1.0]
    for count, good, total in zip(held, good_left, unseen, strict=True):
        count = min(count, total)
        pmf = [
            comb(good, k) * comb(total - good, count - k) / comb(total, count)
            for k in range(count + 1)
        ]
        new = [0.0] * (len(dist) + count)
        for i, a in enumerate(dist):
            for k, b in enumerate(pmf):
                new[i + k] += a * b
        dist = new
    return sum(p for k, p in enumerate(dist) if k >= need)


_AP_TAILS = {}


def reach_chance(twos, threes, moves):
    """P(the AP of these oxygen cards add up to at least `moves`)."""
    if moves <= 0:
        return 1.0
    key = (twos, threes)
    tail = _AP_TAILS.get(key)
    if tail is None:
        dist = {0: 1.0}
        for _ in range(2 * twos + 3 * threes):
            new = {}
            for total, p in dist.items():
                for face in (1, 2, 3):
                    new[total + face] = new.get(total + face, 0.0) + p / 3
            dist = new
        top = max(dist)
        tail = [0.0] * (top + 2)
        for total in range(top, -1, -1):
            tail[total] = tail[total + 1] + dist.get(total, 0.0)
        _AP_TAILS[key] = tail
    return tail[moves] if moves < len(tail) else 0.0


def gather_cost(view):
    return 2 if view.role == "veteran" else 3


def ogs_cost(view):
    return 1 if view.role == "mechanic" and not view.obs["used"]["mechanic"] else 3


def oxygen_spare(view, seat=None):
    """Expected AP beyond what the way home needs (negative: short)."""
    seat = view.me if seat is None else seat
    ap = view.ap if seat == view.me else 0
    return ap + view.future_ap(seat) - view.moves_home(seat) - MARGIN


def chip_room(view, seat=None):
    """How many more chips this seat should carry, keeping oxygen for the way home."""
    seat = view.me if seat is None else seat
    home = view.moves_home(seat)
    reserve = max(1, int(home / RESERVE_AP + 0.999))
    return view.capacity(seat) - reserve - len(view.chips(seat))


def surplus(view, seat):
    """Oxygen cards `seat` can hand over and still get home comfortably."""
    cards = sorted(view.oxygen(seat))
    if len(cards) <= KEEP_CARDS:
        return 0
    home = view.moves_home(seat)
    need = KEEP_CARDS
    while (
        need < len(cards) and reach_chance(cards[:need].count(2), cards[:need].count(3), home) < 0.9
    ):
        need += 1
    return max(0, len(cards) - need)


def storm_risk(view):
    """Chance that the next card drawn is a magnetic storm."""
    pile = view.obs["draw_pile"]
    if not pile["size"]:
        pile = view.obs["discard_pile"]
    return pile["storms"] / pile["size"] if pile["size"] else 1.0


def may_reshuffle(view, cards):
    """Whether a seat holding `cards` oxygen cards should draw from an empty draw pile.

    Each reshuffle adds a storm card, so reshuffling a small discard pile packs the next
    draw pile with storms; the bold plan waits until the crew out run low."""
    per_seat = view.plan.reshuffle_cards
    if per_seat is None or cards == 0:
        return True
    held = sum(len(view.oxygen(s)) for s in range(view.n) if not view.returned[s])
    return held <= per_seat * view.n


def expected_draws(view, slots, cards):
    """Expected oxygen cards drawn into `slots` empty containers before a storm."""
    pile = view.obs["draw_pile"]
    size, storms = pile["size"], pile["storms"]
    if not size:
        if not may_reshuffle(view, cards):
            return 0.0
        size, storms = view.obs["discard_pile"]["size"], view.obs["discard_pile"]["storms"]
    total, alive = 0.0, 1.0
    for _ in range(slots):
        if size <= 0:
            break
        alive *= 1 - storms / size
        total += alive
        size -= 1
    return total


def worth_gathering(view):
    """Supply spaces (index -> value) worth a trip."""
    found = {}
    for q, space in enumerate(view.track):
        if space["kind"] != "supply" or q == view.robot or view.route[q]:
            continue
        if any(p == q for p in view.crew):
            continue
        value = view.chip_value(space)
        if value >= MIN_VALUE:
            found[q] = value * (1.0 + view.plan.area5_bonus * (space["area"] == 5))
    return found


def going_home(view, seat=None):
    seat = view.me if seat is None else seat
    if view.success_chance() >= GOOD_ENOUGH or chip_room(view, seat) <= 0:
        return True
    return not worth_gathering(view)


def mode(view, seat=None):
    """ "home", "out" (walking to the far end of the work) or "sweep" (gathering inward).

    Containers hold oxygen or supplies, so a crew member walks out while its
    containers are free for oxygen and gathers on the way back, ending with full
    containers close to the base.
    """
    seat = view.me if seat is None else seat
    if going_home(view, seat):
        return "home"
    targets = worth_gathering(view)
    far = max(targets)
    if not view.chips(seat) and view.crew[seat] < far - 1 - view.plan.far_slack:
        return "out"
    return "sweep"


# The turn search: every sequence of moves the AP allow, scored where it would end.


def route_spots(view):
    """Spaces where a route piece costs nothing: poor or collected chips, broken OGS."""
    spots = set()
    for q, space in enumerate(view.track):
        if view.route[q] or q == 0:
            continue
        kind = space["kind"]
        if kind in ("collected", "ogs_broken") or (
            kind == "supply" and view.chip_value(space) < MIN_VALUE
        ):
            spots.add(q)
    return spots


class Planner:
    """Depth-first search over this turn's moves, gathers, routes and OGS builds."""

    def __init__(self, view):
        self.view = view
        self.seat = view.me
        self.riding = view.rider == view.me
        self.mode = mode(view)
        self.home = self.mode == "home"
        self.targets = {} if self.riding else worth_gathering(view)
        self.far = max(self.targets) if self.targets else 0
        self.ogs_spots = [
            q
            for q, space in enumerate(view.track)
            if space["kind"] == "ogs" and (q == view.pos or q not in view.crew)
        ]
        if self.mode == "out":
            # On the way out only the far chips are worth containers.
            slack = view.plan.far_slack
            self.targets = {q: v for q, v in self.targets.items() if q >= self.far - slack}
        self.room = max(0, chip_room(view))
        self.gcost = gather_cost(view)
        self.rcost = 1 if view.role == "inventor" and not view.obs["used"]["inventor"] else 2
        self.cards = view.oxygen()
        self.empty = view.empty()
        self.memo = {}
        self.mean_value = sum(self.targets.values()) / len(self.targets) if self.targets else 0.0
        self.graphs = {}
        self.dist_cache = {}
        self.routable = set() if self.riding or not view.obs["routes_left"] else route_spots(view)
        others = [p for s, p in enumerate(view.crew) if s != view.me and p > 0]
        self.occupied = set(others)
        if view.robot is not None:
            self.occupied.add(view.robot)
        # Teammates this seat could save by handing over oxygen.
        self.givable = len(self.cards) >= 2 and (
            oxygen_spare(view) >= 4 or self.home and view.moves_home() <= view.ap
        )
        self.needy = {}
        for other in range(view.n):
            if other != view.me and not view.returned[other] and view.crew[other] > 0:
                if not view.oxygen(other):
                    self.needy[other] = W_RESCUE
                elif oxygen_spare(view, other) < 0 and len(view.oxygen(other)) <= 1:
                    self.needy[other] = W_RESCUE / 4
        # Teammates with oxygen to spare this seat could take from.
        self.rich = {}
        if len(self.cards) <= 2 and not self.riding:
            for other in range(view.n):
                if other != view.me and not view.returned[other]:
                    spare = surplus(view, other)
                    if spare > 0:
                        self.rich[other] = spare
        outside = [p for s, p in enumerate(view.crew) if not view.returned[s]]
        self.crossings = {
            q: sum(1 for p in outside if p > q)
            + 2 * sum(1 for p in outside if 0 < p < q)
            + (2 if view.crew[view.me] == 0 else 0)
            for q in range(view.size)
        }

    def graph(self, routes):
        """Landing spot of one Movement action from each space, per direction."""
        if routes in self.graphs:
            return self.graphs[routes]
        view = self.view
        size = view.size
        blocked = [view.route[q] or q in routes or q in self.occupied for q in range(size)]

        def step(p, d):
            q = p + d
            while 0 < q < size:
                if blocked[q]:
                    q += d
                    continue
                return q
            return 0 if q == 0 else -1

        nxt = {}
        for d in (1, -1):
            row = []
            for p in range(size):
                if p == 0 and d < 0:
                    row.append(-1)
                    continue
                q = step(p, d)
                if self.riding and q > 0:
                    q2 = step(q, d)
                    if q2 >= 0:
                        q = q2
                row.append(q)
            nxt[d] = row
        self.graphs[routes] = nxt
        return nxt

    def distances(self, start, routes):
        key = (start, routes)
        if key in self.dist_cache:
            return self.dist_cache[key]
        nxt = self.graph(routes)
        dist = {start: 0}
        frontier = [start]
        while frontier:
            new = []
            for p in frontier:
                if p == 0 and dist[p]:
                    continue
                for d in (1, -1):
                    q = nxt[d][p]
                    if q >= 0 and q not in dist:
                        dist[q] = dist[p] + 1
                        new.append(q)
            frontier = new
        self.dist_cache[key] = dist
        return dist

    def plan(self):
        """The best sequence of actions for the rest of this turn, each with the (position,
        AP) it is planned from. The sequence stops at an exchange or an OGS build (what
        follows them is planned again) or at the end of the turn."""
        key = (self.view.pos, self.view.ap, (), (), False, 0)
        self.search(*key)
        steps = []
        while True:
            entry = self.memo[key]
            steps.append((entry[1], key[0], key[1]))
            if len(entry) < 3:
                return steps
            key = entry[2]

    def search(self, p, ap, gathered, routes, built, took=0):
        key = (p, ap, gathered, routes, built, took)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = (-1e9, "end")  # guards against cycles
        best = (self.leaf(p, gathered, routes, built, ap, took=took), "end")
        if built:
            self.memo[key] = best
            return best
        view = self.view
        nxt = self.graph(routes)
        if ap >= 1:
            for d, name in ((1, "move+"), (-1, "move-")):
                q = nxt[d][p]
                if q < 0:
                    continue
                if q == 0:
                    score = self.leaf(0, gathered, routes, False, 0, took=took)
                elif q == view.rover and view.rider is None and not self.riding:
                    score = self.leaf(q, gathered, routes, False, 0, boards=True, took=took)
                else:
                    nxt_key = (q, ap - 1, gathered, routes, False, took)
                    score = self.search(*nxt_key)[0]
                    if score > best[0]:
                        best = (score, name, nxt_key)
                    continue
                if score > best[0]:
                    best = (score, name)
        if len(gathered) < min(self.room, self.empty) and ap >= self.gcost:
            for d, name in ((1, "gather+"), (-1, "gather-")):
                q = p + d
                if q in self.targets and q not in gathered:
                    more = tuple(sorted(gathered + (q,)))
                    nxt_key = (p, ap - self.gcost, more, routes, False, took)
                    score = self.search(*nxt_key)[0]
                    if score > best[0]:
                        best = (score, name, nxt_key)
        if ap >= self.rcost and len(routes) < min(
            view.plan.routes_per_turn, view.obs["routes_left"]
        ):
            for d, name in ((1, "route+"), (-1, "route-")):
                q = p + d
                if q in self.routable and q not in routes and q not in self.occupied and q > 0:
                    added = tuple(sorted(routes + (q,)))
                    nxt_key = (p, ap - self.rcost, gathered, added, False, took)
                    score = self.search(*nxt_key)[0]
                    if score > best[0]:
                        best = (score, name, nxt_key)
        share_cost = (
            0 if view.role == "flight_surgeon" and not view.obs["used"]["flight_surgeon"] else 1
        )
        if ap >= share_cost and self.givable and not gathered and not routes:
            for other, value in self.needy.items():
                if abs(view.crew[other] - p) <= 1:
                    score = self.search(p, ap - share_cost, gathered, routes, False, took)[0]
                    if score + value > best[0]:
                        best = (score + value, f"share:{other}")
        if ap >= share_cost and not took and not self.home:
            room = self.empty - len(gathered)
            for other, surplus in self.rich.items():
                if abs(view.crew[other] - p) <= 1 and room > 0:
                    more = min(surplus, room, TAKE_MAX)
                    score = self.search(p, ap - share_cost, gathered, routes, False, more)[0]
                    if score > best[0]:
                        best = (score, f"share:{other}")
        cost = ogs_cost(view)
        if (
            not self.riding
            and view.obs["ogs_left"]
            and ap >= cost + 1
            and (not self.home or view.plan.home_ogs)
            and view.track[p]["kind"] != "ogs"
            and len(self.cards) <= OGS_WHEN_CARDS
            and (
                self.home
                or self.mode == "out"
                or not self.targets
                or p >= min(self.targets) - OGS_REACH
            )
        ):
            # Build beside us and step onto it: we end the turn on a fresh OGS.
            for d, name in ((1, "ogs+"), (-1, "ogs-")):
                if (d > 0 and p + 1 < view.size) or (d < 0 and p >= 1):
                    score = self.leaf(p, gathered, routes, True, ap - cost - 1, took=took)
                    score -= OGS_PRICE
                    if score > best[0]:
                        best = (score, name)
        self.memo[key] = best
        return best

    def leaf(self, p, gathered, routes, on_new_ogs, ap_left, boards=False, took=0):
        """Score the end of the turn at `p`: supplies now, supplies still to come, risk."""
        view = self.view
        riding = self.riding or boards
        score = 0.01 * ap_left  # among equal plans, the one that spends less AP
        for q in gathered:
            score += W_CHIP * self.targets[q]
        for q in routes:
            score += W_ROUTE * self.crossings[q]
        if p == 0:
            if self.mode == "out":
                score -= W_OUT * self.far + W_DEATH * view.plan.give_up  # gave up at once
            return score  # safe, and nothing more to gather
        hand = self.cards + [2] * took
        cards = len(hand)
        empty = self.empty - len(gathered) - took
        on_ogs = on_new_ogs or (view.track[p]["kind"] == "ogs" and not riding)
        drawn = 0.0
        if on_ogs and empty > 0:
            keep = KEEP_EMPTY if (not self.home and self.room > len(gathered)) else 0
            drawn = expected_draws(view, max(0, empty - keep), cards)
        dist = self.distances(p, routes)
        if self.mode == "out" and not gathered:
            # Walking out: get to the far end with oxygen to spare or an OGS to refill at.
            score -= W_OUT * abs(self.far - 1 - p)
            whole = int(drawn)
            for k in range(whole + 1):
                weight = W_CARD[min(cards + k, len(W_CARD) - 1)]
                score += weight * (1.0 if k < whole else drawn - whole)
            if cards + drawn < 0.5:
                score -= W_DEATH
            elif cards + drawn < 1.5:
                score -= OUT_LOW  # one bad roll from stranded
            return score
        home_moves = dist.get(0, 30)
        if boards:
            home_moves = (home_moves + 1) // 2
        future = sum(EXPECTED_AP[v] for v in hand) + AP_PER_DRAW * drawn
        if cards + drawn < 0.5:
            score -= W_DEATH  # nobody can start a turn without oxygen
        else:
            twos = hand.count(2) + int(drawn * 0.67 + 0.5)
            threes = hand.count(3) + int(drawn * 0.33 + 0.5)
            risk = 1.0 - reach_chance(twos, threes, home_moves)
            if risk > 0:
                refill = on_ogs or any(dist.get(q, 99) <= OGS_NEAR for q in self.ogs_spots)
                score -= W_DEATH * risk * (REFILL_RELIEF if refill else 1.0)
        if self.home:
            return score - W_HOME * home_moves
        room_left = min(
            self.room - len(gathered), view.capacity() - len(view.chips()) - len(gathered) - 1
        )
        rest = [q for q in self.targets if q not in gathered]
        if rest and room_left > 0 and not riding:
            inward = [q for q in rest if q <= p + 1] or rest
            spots = [(dist[s], s) for q in inward for s in (q - 1, q + 1) if s in dist and s > 0]
            if not spots:
                return score
            near, spot = min(spots)
            # The trip still to make: out to the next chip, then home from there.
            spare = future - near - self.distances(spot, routes).get(0, 30)
            chips = min(room_left, max(0.0, spare / AP_PER_CHIP))
            score += W_CHIP * self.mean_value * chips * POTENTIAL
        return score


# ----- Move choice: the bot, `act`, and one function per kind of decision -------------

# The rest of the current turn as planned at its first step: following it keeps a turn
# from flip-flopping between plans made from different spots (one module per seat).
_turn_plan: dict = {}


class Bot:
    """One per match: the runner makes one for each match of a set, and the matches of a
    set are interleaved in one process, so each keeps its own turn plan."""

    def __init__(self, plan=None):
        self.turn_plan = {}
        self.plan = plan  # a TeamPlan, or None for the plan of the table's size

    def act(self, observation, legal_actions):
        global _turn_plan
        _turn_plan = self.turn_plan
        return act(observation, legal_actions, self.plan)


def act(observation, legal_actions, plan=None):
    if len(legal_actions) == 1:
        return legal_actions[0]
    view = View(observation, plan)
    phase = observation["phase"]
    if phase == "choose_role":
        for role in ROLE_PREFERENCE:
            if f"role:{role}" in legal_actions:
                return f"role:{role}"
        return legal_actions[0]
    if phase == "robot":
        return "robot0"
    if phase == "oxygen":
        if view.plan.twos_first:
            return "oxygen2"
        home = going_home(view)
        return "oxygen2" if home and view.moves_home() <= 4 else "oxygen3"
    if phase == "replenish":
        return replenish(view, legal_actions)
    if phase == "share":
        return share(view, legal_actions)
    return main_action(view, legal_actions)


def replenish(view, legal):
    if "draw" not in legal:
        return "stop"
    keep = 0 if going_home(view) else min(KEEP_EMPTY, max(0, chip_room(view)))
    if view.empty() <= keep:
        return "stop"
    risk = storm_risk(view)
    cards = len(view.oxygen())
    if not view.obs["draw_pile"]["size"] and not may_reshuffle(view, cards):
        return "stop"
    if cards <= 1 or risk <= DRAW_RISK or (risk <= 2 * DRAW_RISK and cards <= 2):
        return "draw"
    return "stop"


def needs_oxygen(view, seat):
    if view.returned[seat] or seat == view.me:
        return False
    return not view.oxygen(seat) or oxygen_spare(view, seat) < 0


def share(view, legal):
    partner = view.obs["share"]["with"]
    moved = view.obs["share"]["moved_mine"]
    if needs_oxygen(view, partner):
        mine = view.oxygen()
        if not mine:  # nothing left to give (it gave its last card already)
            return "done"
        if len(mine) < 2 and view.moves_home() > 1:
            return "done"
        if view.oxygen(partner) and oxygen_spare(view) < EXPECTED_AP[min(mine)]:
            return "done"
        theirs = view.obs["containers"][partner]
        for value in (2, 3):
            for i, item in enumerate(view.slots):
                if not item or item.get("oxygen") != value:
                    continue
                if f"give:{i}" in legal:
                    return f"give:{i}"
                for j, other in enumerate(theirs):
                    if other and "area" in other and f"swap:{i}:{j}" in legal:
                        return f"swap:{i}:{j}"
        return "done"
    # Otherwise take spare oxygen from a well-stocked teammate.
    taken = sum(1 for i, flag in enumerate(moved) if flag and view.slots[i])
    if taken < min(TAKE_MAX, surplus(view, partner)) and len(view.oxygen()) <= 2 + taken:
        theirs = view.obs["containers"][partner]
        for value in (3, 2):
            for j, item in enumerate(theirs):
                if item and item.get("oxygen") == value and f"take:{j}" in legal:
                    return f"take:{j}"
    return "done"


def main_action(view, legal):
    if view.returned[view.me]:
        # Home with AP left: only the chip beside the Base is worth anything now.
        if "gather+" in legal and 1 in worth_gathering(view):
            return "gather+"
        return "end"
    # Rookie: reroll every die when the roll is below its average (4 on two dice, 6 on three).
    if "reroll" in legal and view.ap < 2 * len(view.obs["dice"]):
        return "reroll"
    cards = len(view.oxygen())
    # Keep a teammate alive: hand over oxygen before they start a turn without it.
    if cards >= 2 and oxygen_spare(view) >= 4:
        for action in legal:
            if action.startswith("share:") and needs_oxygen(view, int(action[6:])):
                return action
    for action in legal:
        if action.startswith("inspect:"):
            return action
    for i, item in enumerate(view.slots):
        if item and item.get("broken") is True and f"abandon:{i}-" in legal:
            return f"abandon:{i}-"
    return planned_action(view, legal)


def planned_action(view, legal):
    obs = view.obs
    turn = (view.me, obs["discard_pile"]["size"], obs["draw_pile"]["size"], tuple(obs["dice"]))
    steps = _turn_plan.get(turn)
    if steps:
        action, pos, ap = steps[0]
        if (pos, ap) == (view.pos, view.ap) and action in legal:
            steps.pop(0)
            return action
    _turn_plan.clear()
    steps = Planner(view).plan()
    action = steps.pop(0)[0]
    _turn_plan[turn] = steps
    return action if action in legal else "end"
