"""`python manage.py seed_benchmark --matches 1000000`: a production-sized arena, in bulk SQL.

For the load benchmark (`scripts/locustfile.py`) and the query-plan tests: users, bots with a
version and a rating each, finished round robins (the largest `--largest` matches, 20,000 by
default, the size the service allows), and ladder matches for the rest; every match has 2-5
seats, ranks and scores, a replay record and rating-history rows. Records are real engine
records (a few random playouts per game and table size, played here) with each match's own
seed, so their sizes and shapes are those a worker stores.

Everything is `INSERT ... SELECT generate_series` on PostgreSQL, one statement per table, so
a million matches take minutes, not hours. It needs a migrated database with no bots and no
matches (a fresh one): ids are assigned here, then the sequences moved past them.
"""

from __future__ import annotations

import random
import time

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

import engine
from arena.services import standings

BOTS_PER_TOURNAMENT = 20
TEMPLATES_PER_TABLE = 4  # distinct records per (game, players)
BENCH_SOURCE = "def act(observation, legal_actions):\n    return legal_actions[0]\n"


def template_records(seed: int = 1) -> list[tuple[int, int, int, str]]:
    """(game index, players, k, record JSON): random playouts, TEMPLATES_PER_TABLE per table."""
    import json

    rng = random.Random(seed)
    rows = []
    for gi, name in enumerate(engine.game_names()):
        game = engine.get_game(name)
        for players in range(2, game.max_players + 1):
            for k in range(TEMPLATES_PER_TABLE):
                state = game.new_state(players, rng.getrandbits(31))
                while not state.is_terminal():
                    state.apply(rng.choice(state.legal_actions()))
                rows.append((gi, players, k, json.dumps(state.record())))
    return rows


class SeedBenchmark(BaseCommand):
    help = "Fill an empty PostgreSQL database with a production-sized arena (bulk SQL)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=1_000_000)
        parser.add_argument("--users", type=int, default=2000)
        parser.add_argument("--bots", type=int, default=5000)
        parser.add_argument("--tournaments", type=int, default=200)
        parser.add_argument(
            "--largest", type=int, default=20000, help="matches in the largest tournament"
        )
        parser.add_argument(
            "--tournament-share",
            type=float,
            default=0.6,
            help="share of the matches that belong to tournaments (the rest is the ladder)",
        )

    def handle(self, *args, **opts) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("seed_benchmark needs PostgreSQL (set DATABASE_URL)")
        n, users, bots, tours = opts["matches"], opts["users"], opts["bots"], opts["tournaments"]
        games = engine.game_names()
        if bots < BOTS_PER_TOURNAMENT * len(games):
            raise CommandError(f"--bots must be at least {BOTS_PER_TOURNAMENT * len(games)}")
        if min(n, users, tours) < 1 or not 0 <= opts["tournament_share"] <= 1:
            raise CommandError("--matches, --users, --tournaments must be positive")
        with connection.cursor() as cur:
            cur.execute(
                "SELECT EXISTS (SELECT 1 FROM arena_bot) OR EXISTS (SELECT 1 FROM arena_match)"
            )
            if cur.fetchone()[0]:
                raise CommandError("the database already has bots or matches: use a fresh one")
        in_tours = int(n * opts["tournament_share"])
        largest = min(opts["largest"], in_tours)
        rest = (in_tours - largest) // max(tours - 1, 1) if tours > 1 else 0
        started = time.monotonic()
        params = {
            "n": n,
            "users": users,
            "bots": bots,
            "tours": tours,
            "largest": largest,
            "rest": rest,
            "ngames": len(games),
            "per_game": bots // len(games),
            "group": BOTS_PER_TOURNAMENT,
        }
        with transaction.atomic(), connection.cursor() as cur:
            self._games_table(cur, games)
            for label, sql in STEPS:
                step = time.monotonic()
                for statement in sql.split(";\n"):
                    cur.execute(statement, params)
                self.stdout.write(f"{label}: {cur.rowcount} rows, {time.monotonic() - step:.1f} s")
            step = time.monotonic()
            standings.rebuild(range(1, tours + 1))
            self.stdout.write(f"standings of {tours} tournaments: {time.monotonic() - step:.1f} s")
        step = time.monotonic()
        with connection.cursor() as cur:
            cur.execute("ANALYZE")
        self.stdout.write(f"analyze: {time.monotonic() - step:.1f} s")
        self.stdout.write(
            f"seeded {n} matches ({in_tours} in {tours} tournaments, the largest {largest}) in "
            f"{time.monotonic() - started:.1f} s"
        )

    def _games_table(self, cur, games: list[str]) -> None:
        cur.execute(
            "CREATE TEMP TABLE bench_game (gi int PRIMARY KEY, name text, rules_version text, "
            "max_players int, options jsonb) ON COMMIT DROP"
        )
        import json

        for gi, name in enumerate(games):
            spec = engine.get_game(name)
            cur.execute(
                "INSERT INTO bench_game VALUES (%s, %s, %s, %s, %s)",
                [
                    gi,
                    name,
                    spec.rules_version,
                    spec.max_players,
                    json.dumps(spec.check_options({})),
                ],
            )
        cur.execute(
            "CREATE TEMP TABLE bench_template (gi int, players int, k int, record jsonb, "
            "PRIMARY KEY (gi, players, k)) ON COMMIT DROP"
        )
        cur.executemany("INSERT INTO bench_template VALUES (%s, %s, %s, %s)", template_records())


# Bot b (1-based) plays game (b - 1) % ngames and is that game's bot number (b - 1) / ngames.
# Tournament t plays game (t + 2) % ngames (tournament 1: moonrollers, competitive) with `group` bots; tournament 1 is the largest.
# Match ids: tournament 1 first, then the others in turn, then the ladder (the newest).
STEPS: list[tuple[str, str]] = [
    (
        "users",
        """
        INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,
                               is_staff, is_active, date_joined)
        SELECT '!', false, 'bench-user-' || i, '', '', '', false, true, now()
        FROM generate_series(1, %(users)s) i
        """,
    ),
    (
        "bots",
        """
        CREATE TEMP TABLE bench_user ON COMMIT DROP AS
            SELECT id, (row_number() OVER (ORDER BY id)) - 1 AS i
            FROM auth_user WHERE username LIKE 'bench-user-%%';
        INSERT INTO arena_bot (id, name, game, is_active, created_at, owner_id)
        SELECT b, 'bench-bot-' || b, g.name, true, now() - interval '400 days', u.id
        FROM generate_series(1, %(bots)s) b
        JOIN bench_game g ON g.gi = (b - 1) %% %(ngames)s
        JOIN bench_user u ON u.i = (b - 1) %% %(users)s
        """,
    ),
    (
        "bot versions",
        """
        INSERT INTO arena_botversion (id, number, source, filename, sha256, size, created_at,
                                      bot_id, validation, validation_error, validated_at)
        SELECT b, 1, src, 'bot.py', encode(sha256(src), 'hex'), length(src),
               now() - interval '400 days', b, 'ready', '', now() - interval '400 days'
        FROM generate_series(1, %(bots)s) b,
             (SELECT convert_to(%(source)s, 'UTF8') AS src) s
        """.replace("%(source)s", "'" + BENCH_SOURCE.replace("\n", "' || chr(10) || '") + "'"),
    ),
    (
        "tournaments",
        """
        CREATE TEMP TABLE bench_tour ON COMMIT DROP AS
            SELECT t, (t + 2) %% %(ngames)s AS gi,
                   2 + ((t - 1) / %(ngames)s) %% (g.max_players - 1) AS players,
                   CASE WHEN t = 1 THEN 1 ELSE %(largest)s + (t - 2) * %(rest)s + 1 END AS first,
                   CASE WHEN t = 1 THEN %(largest)s ELSE %(largest)s + (t - 1) * %(rest)s END
                       AS last
            FROM generate_series(1, %(tours)s) t
            JOIN bench_game g ON g.gi = (t + 2) %% %(ngames)s;
        INSERT INTO arena_tournament (id, name, game, format, players_per_match,
            games_per_pairing, options, limits, start_at, status, created_at, started_at,
            finished_at, created_by_id, duplicate_seats, double_elimination, entrants)
        SELECT t, 'bench round robin ' || t, g.name, 'round_robin', players, 1, g.options,
               '{}', NULL, 'finished', now() - interval '300 days', now() - interval '300 days',
               now() - interval '1 day', (SELECT min(id) FROM bench_user), false, false, '[]'
        FROM bench_tour JOIN bench_game g USING (gi)
        """,
    ),
    (
        "tournament entries",
        """
        INSERT INTO arena_tournament_bots (tournament_id, bot_id)
        SELECT t, 1 + gi + %(ngames)s * ((t * %(group)s + j) %% %(per_game)s)
        FROM bench_tour, generate_series(0, %(group)s - 1) j
        """,
    ),
    (
        "matches",
        """
        INSERT INTO arena_match (id, game, rules_version, players, options, limits, seed,
            status, attempts, finished_at, record, result, decisions, duration_seconds, error,
            rated, created_at, tournament_id, purpose)
        SELECT m.id, g.name, g.rules_version, m.players, tpl.record -> 'options', '{}',
               m.seed, 'finished', 1, m.at + interval '20 seconds',
               jsonb_set(tpl.record, '{seed}', to_jsonb(m.seed)), tpl.record -> 'result',
               jsonb_array_length(tpl.record -> 'actions'), 0.5 + (m.id %% 50) / 10.0, '',
               true, m.at, m.t, CASE WHEN m.t IS NULL THEN 'ladder' ELSE 'tournament' END
        FROM (
            SELECT i AS id, tr.t, coalesce(tr.gi, i %% %(ngames)s) AS gi,
                   coalesce(tr.players,
                            2 + (i / %(ngames)s) %% (lg.max_players - 1)) AS players,
                   (i * 2654435761) %% 4611686018427387903 AS seed,
                   now() - (%(n)s - i) * interval '30 seconds' AS at
            FROM generate_series(1, %(n)s) i
            LEFT JOIN bench_tour tr ON tr.t = CASE
                WHEN i <= %(largest)s THEN 1
                WHEN %(rest)s > 0 THEN 2 + (i - %(largest)s - 1) / greatest(%(rest)s, 1) END
            JOIN bench_game lg ON lg.gi = i %% %(ngames)s
        ) m
        JOIN bench_game g ON g.gi = m.gi
        JOIN bench_template tpl
          ON tpl.gi = m.gi AND tpl.players = m.players AND tpl.k = m.id %% 4
        """,
    ),
    (
        "seats",
        """
        INSERT INTO arena_matchseat (seat, rank, score, forfeit_reason, stderr, rating_before,
                                     rating_after, bot_id, bot_version_id, match_id)
        SELECT s, (m.result -> 'ranks' ->> s)::int, m.result -> 'scores' -> s,
               CASE WHEN (m.id + s) %% 97 = 0 THEN 'timeout: no answer within 1.0 s'
                    ELSE '' END,
               '', 1500 + ((m.id * 7 + s) %% 200) - 100, 1500 + ((m.id * 7 + s) %% 200) - 96,
               bot, bot, m.id
        FROM arena_match m
        CROSS JOIN generate_series(0, m.players - 1) s
        JOIN bench_game g ON g.name = m.game
        LEFT JOIN bench_tour tr ON tr.t = m.tournament_id
        CROSS JOIN LATERAL (SELECT 1 + g.gi + %(ngames)s * CASE
            WHEN tr.t IS NULL THEN (m.id * 7 + s) %% %(per_game)s
            ELSE (tr.t * %(group)s + ((m.id - tr.first) * 7 + s) %% %(group)s) %% %(per_game)s
            END AS bot) pick
        """,
    ),
    (
        "ratings",
        """
        INSERT INTO arena_rating (id, game, rating, games, wins, draws, losses, score_total,
                                  successes, updated_at, bot_id)
        SELECT b.id, b.game, 1100 + (b.id * 7919) %% 800 + (b.id %% 10) / 10.0,
               coalesce(a.games, 0), coalesce(a.wins, 0), 0, coalesce(a.games - a.wins, 0),
               0, 0, now(), b.id
        FROM arena_bot b
        LEFT JOIN (SELECT bot_id, count(*) AS games, count(*) FILTER (WHERE rank = 1) AS wins
                   FROM arena_matchseat GROUP BY bot_id) a ON a.bot_id = b.id
        """,
    ),
    (
        "rating history",
        """
        INSERT INTO arena_ratingchange (before, after, created_at, match_id, rating_id)
        SELECT s.rating_before, s.rating_after, m.finished_at, s.match_id, s.bot_id
        FROM arena_matchseat s JOIN arena_match m ON m.id = s.match_id
        """,
    ),
    (
        "sequences",
        """
        SELECT setval(pg_get_serial_sequence('arena_match', 'id'), %(n)s + 1),
               setval(pg_get_serial_sequence('arena_bot', 'id'), %(bots)s + 1),
               setval(pg_get_serial_sequence('arena_botversion', 'id'), %(bots)s + 1),
               setval(pg_get_serial_sequence('arena_rating', 'id'), %(bots)s + 1),
               setval(pg_get_serial_sequence('arena_tournament', 'id'), %(tours)s + 1)
        """,
    ),
]
