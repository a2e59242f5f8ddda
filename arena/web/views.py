"""The pages: thin views over the same services the API uses (arena/services/).

Reads go through the services (leaderboards, skills history, standings, brackets, frames).
The author's pages (sign-up, uploads, my bots, tokens, challenges), which write, are in
arena/web/author_views.py.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.staticfiles import finders
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

import engine
from arena.accounts import is_organiser
from arena.errors import ArenaError
from arena.models import Bot, BotVersion, LadderEntry, Match, MatchSeat, Tournament
from arena.services import anchors as anchor_service
from arena.services import ladder as ladder_service
from arena.services import leaderboards as leaderboard_service
from arena.services import rating_history
from arena.services import tournaments as tournament_service
from arena.services.brackets import bracket_summary, rounds_summary
from arena.stderr_moves import split_moves
from arena.web import charts

TOP_BOTS = 5
PAGE_SIZE = 25
RECENT_MATCHES = 20
HISTORY_ROWS = 30
# How long the owner's status line keeps saying that the newest version became ready.
NEWS = timedelta(hours=1)


def _games() -> list[engine.Game]:
    return [engine.get_game(name) for name in engine.game_names()]


def home(request: HttpRequest) -> HttpResponse:
    running = list(Tournament.objects.filter(status__in=["running", "paused"]).order_by("-id")[:20])
    games = []
    for game in _games():
        board, fit = leaderboard_service.leaderboard(game.name)
        top = [
            leaderboard_service.entry(r, i + 1, game.cooperative, fit)
            for i, r in enumerate(board[:TOP_BOTS])
        ]
        games.append(
            {
                "game": game,
                "top": top,
                # The newest ladder match, found from the newest end of the (game, id)
                # index: a count of a large table on every home page view would not be.
                "last_ladder": Match.objects.filter(game=game.name, purpose=Match.Purpose.LADDER)
                .order_by("-id")
                .only("id", "created_at")
                .first(),
                "tournaments": [t for t in running if t.game == game.name],
            }
        )
    return render(request, "web/home.html", {"games": games})


TOURNAMENT_GROUPS = [
    ("Running", ["running", "paused"]),
    ("Upcoming", ["scheduled"]),
    ("Finished", ["finished", "cancelled"]),
]


def tournaments(request: HttpRequest) -> HttpResponse:
    """Every tournament, by state: a finished one stays findable, with its standings."""
    queryset = Tournament.objects.only("id", "name", "game", "format", "status", "created_at")
    game, format_ = request.GET.get("game", ""), request.GET.get("format", "")
    if game:
        queryset = queryset.filter(game=game)
    if format_:
        queryset = queryset.filter(format=format_)
    rows = list(queryset.order_by("-id")[:500])
    groups = [
        (title, [t for t in rows if t.status in statuses]) for title, statuses in TOURNAMENT_GROUPS
    ]
    return render(
        request,
        "web/tournaments.html",
        {
            "groups": groups,
            "games": [g.name for g in _games()],
            "formats": Tournament.Format.choices,
            "chosen_game": game,
            "chosen_format": format_,
        },
    )


def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    spec = leaderboard_service.leaderboard_game(game) if _known(game) else _missing(game)
    try:
        order = leaderboard_service.order_named(request.GET.get("order"))
    except ArenaError:
        order = leaderboard_service.DEFAULT_ORDER  # a page shows its default, not an error
    queryset, fit = leaderboard_service.leaderboard(spec.name, order)
    page = Paginator(queryset, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [
        leaderboard_service.entry(r, page.start_index() + i, spec.cooperative, fit)
        for i, r in enumerate(page.object_list)
    ]
    charts.interval_bars(rows)
    context = {"game": spec, "rows": rows, "page": page, "order": order, "fit": fit}
    return render(request, "web/leaderboard.html", context)


def _known(game: str) -> bool:
    return game in engine.game_names()


def _missing(game: str) -> Any:
    raise Http404(f"no game {game!r}")


def bot_detail(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(Bot.objects.select_related("owner"), pk=pk)
    owner = bot.is_owned_by(request.user)
    history = rating_history.chart_history(bot.pk, bot.game, latest=HISTORY_ROWS)
    seats = MatchSeat.objects.select_related("bot", "bot_version").defer("bot_version__source")
    recent = (
        Match.objects.filter(seats__bot=bot)
        .defer("record")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("-id")[:RECENT_MATCHES]
    )
    matches = []
    for match in recent:
        mine = [s for s in match.seats.all() if s.bot_id == bot.pk]
        matches.append({"match": match, "mine": mine, "seats": match.seats.all()})
    rating = bot.ratings.filter(game=bot.game).first()
    chart = charts.rating_chart(history["elo"], history["skill"])
    if chart is not None:
        chart.update(matches=history["elo_count"], fits=history["skill_count"])
    versions = list(bot.versions.defer("source").order_by("-number"))
    against = anchor_service.against_anchors(bot)
    context = {
        "bot": bot,
        "owner": owner,
        "versions": versions,
        # The owner reads the newest version's validation (with the reason: it may quote the
        # bot's stderr, so only the owner); while any version is pending, validation.js
        # polls the API's versions list and updates the page as the worker settles them.
        "latest": _news(versions[0]) if owner and versions else None,
        "pending": any(v.validation == BotVersion.Validation.PENDING for v in versions),
        "rating": rating,
        "chart": chart,
        # The table alternative lists the latest events; the API has the whole history.
        "history": {"elo": history["elo_latest"], "skill": history["skill_latest"]},
        "matches": matches,
        "ladder": ladder_status(bot),
        "cooperative": engine.get_game(bot.game).cooperative,
        # Which reference bots it beats with confidence (the API's /api/bots/<id>/anchors/).
        "against": against,
        # An anchor's owner never signs in: organisers put a paused one back.
        "can_resume": owner or (against["anchor"] and is_organiser(request.user)),
    }
    return render(request, "web/bot.html", context)


def _news(version: BotVersion) -> BotVersion | None:
    """The newest version, while its validation is news: pending, rejected, or just ready."""
    if version.validation != BotVersion.Validation.READY or version.validated_at is None:
        return version
    return version if timezone.now() - version.validated_at < NEWS else None


def ladder_status(bot: Bot) -> ladder_service.BotLadderStatus:
    """The same status the API shows (arena/services/ladder.py)."""
    latest = bot.versions.order_by("-number").values_list("pk", "validation").first()
    entry = LadderEntry.objects.filter(bot=bot).first()
    running = ladder_service.running_ladders().get(bot.game, True)
    return ladder_service.bot_status(
        bot,
        latest[0] if latest else None,
        entry,
        running,
        latest_ready=latest is None or latest[1] == BotVersion.Validation.READY,
    )


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    total, done = tournament_service.progress(tournament)
    names = {b.pk: b.name for b in tournament.bots.all()}
    ties = bracket_summary(tournament)
    context = {
        "tournament": tournament,
        "total": total,
        "done": done,
        "percent": round(100 * done / total) if total else 0,
        "standings": tournament_service.tournament_standings(tournament),
        "rounds": rounds_summary(tournament) if tournament.has_rounds() else [],
        "names": names,
        "bracket": charts.bracket(ties or [], names),
        "ties": ties,
        "matches": Match.objects.filter(tournament=tournament)
        .defer("record")
        .order_by("-id")[:RECENT_MATCHES],
    }
    return render(request, "web/tournament.html", context)


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    seats = MatchSeat.objects.select_related("bot", "bot__owner", "bot_version").defer(
        "bot_version__source"
    )
    match = get_object_or_404(
        Match.objects.defer("record").prefetch_related(Prefetch("seats", queryset=seats)), pk=pk
    )
    shown = []
    for seat in match.seats.all():
        own = seat.stderr if seat.stderr and seat.bot.is_owned_by(request.user) else None
        text, moves = split_moves(own, match.pk) if own else (None, {})
        shown.append({"seat": seat, "stderr": text, "moves": moves})
    context = {
        "match": match,
        "seats": shown,
        # A running match's partial record is watched live; a queued one shows none.
        "has_record": Match.objects.filter(pk=pk, record__isnull=False)
        .exclude(status__in=[Match.Status.QUEUED, Match.Status.HELD])
        .exists(),
        "names": [s.bot.name for s in match.seats.all()],
        "board_script": board_script(match.game),
        # The replay viewer shows a seat's stderr beside that seat's view, to its author only.
        # By decision too (the runner marks each move's first write), shown at its step.
        "own_stderr": {
            str(i["seat"].seat): {"text": i["stderr"], "moves": i["moves"]}
            for i in shown
            if i["stderr"]
        },
    }
    return render(request, "web/match.html", context)


def board_script(game: str) -> str | None:
    """The static path of the game's replay board (arena/static/arena/boards/<game>.js), or
    None while the game has none: the viewer then shows its data view."""
    path = f"arena/boards/{game}.js"
    return path if finders.find(path) else None
