"""The bot author's pages: sign-up, uploads, my bots and their versions, tokens, challenges.

Thin views over the services the API uses (arena/services/bots.py, tokens.py, ladder.py,
challenges.py). A domain error (arena.errors) from a form's service call is shown on the form
beside the field it names; one from a button (resume, revoke, cancel) is a message on the
page it returns to. No outside input reaches the services unchecked by a form.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

import engine
from arena.accounts import is_organiser
from arena.errors import ArenaError, NotFound
from arena.models import Bot, BotVersion, Challenge, Match, MatchSeat
from arena.services import bots as bot_service
from arena.services import challenges as challenge_service
from arena.services import ladder as ladder_service
from arena.services import tokens as token_service
from arena.web.forms import ChallengeForm, NewBotForm, TokenForm, UploadForm
from arena.web.views import ladder_status

PAGE_SIZE = 25
RECENT = 20


def _show_error(form, exc: ArenaError) -> None:
    if isinstance(form, UploadForm):
        field = form.field_for(exc.field)
    else:
        field = exc.field if exc.field in form.fields else None
    form.add_error(field, exc.message)


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("web-my-bots")
    return render(request, "web/signup.html", {"form": form})


@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    """Each bot with its ladder status (a paused one with its resume button) and its
    versions, each with how many matches it played and a link to them."""
    versions = BotVersion.objects.defer("source").order_by("-number")
    bots = list(
        Bot.objects.filter(owner=request.user)
        .prefetch_related("ratings", Prefetch("versions", queryset=versions))
        .order_by("game", "name")
    )
    played = dict(
        MatchSeat.objects.filter(bot__owner=request.user)
        .values("bot_version")
        .annotate(n=Count("match", distinct=True))
        .values_list("bot_version", "n")
    )
    rows = [
        {
            "bot": bot,
            "ladder": ladder_status(bot),
            "versions": [
                {"version": v, "matches": played.get(v.pk, 0)} for v in bot.versions.all()
            ],
        }
        for bot in bots
    ]
    mine = Q(candidate__bot__owner=request.user) | Q(baseline__bot__owner=request.user)
    challenges = (
        Challenge.objects.filter(mine)
        .select_related("candidate__bot", "baseline__bot")
        .defer("candidate__source", "baseline__source")
        .order_by("-id")[:RECENT]
    )
    return render(request, "web/my_bots.html", {"rows": rows, "challenges": challenges})


@login_required
def upload(request: HttpRequest) -> HttpResponse:
    """A new bot with its first version."""
    form = NewBotForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            bot = bot_service.create_bot(
                request.user, form.cleaned_data["name"], form.cleaned_data["game"], form.upload()
            )
        except ArenaError as exc:
            _show_error(form, exc)
        else:
            return redirect("web-bot", pk=bot.pk)
    mine = Bot.objects.filter(owner=request.user).only("id", "name", "game").order_by("name")
    return render(request, "web/upload.html", {"form": form, "bot": None, "mine": mine})


@login_required
def upload_version(request: HttpRequest, pk: int) -> HttpResponse:
    """A new version of one of the user's bots."""
    bot = get_object_or_404(Bot, pk=pk)
    if not bot.is_owned_by(request.user):
        raise Http404("not your bot")
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            bot_service.add_version(bot, request.user, form.upload())
        except ArenaError as exc:
            _show_error(form, exc)
        else:
            return redirect("web-bot", pk=bot.pk)
    return render(request, "web/upload.html", {"form": form, "bot": bot, "mine": []})


def version_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One version's matches, newest first, with how its seats did."""
    version = get_object_or_404(
        BotVersion.objects.defer("source").select_related("bot", "bot__owner"),
        bot_id=pk,
        number=number,
    )
    seats = MatchSeat.objects.select_related("bot").defer("stderr")
    matches = (
        Match.objects.filter(seats__bot_version=version)
        .distinct()
        .defer("record")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("-id")
    )
    page = Paginator(matches, PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [
        {
            "match": m,
            "mine": [s for s in m.seats.all() if s.bot_version_id == version.pk],
            "others": [s for s in m.seats.all() if s.bot_version_id != version.pk],
        }
        for m in page.object_list
    ]
    context = {
        "bot": version.bot,
        "version": version,
        "owner": version.bot.is_owned_by(request.user),
        "rows": rows,
        "page": page,
    }
    return render(request, "web/version.html", context)


@require_POST
@login_required
def bot_ladder_resume(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(Bot, pk=pk)
    try:
        ladder_service.resume(bot, request.user)
    except ArenaError as exc:
        raise Http404(exc.message) from None
    messages.success(request, f"{bot.name} is back on the ladder.")
    # The button is on the bot page and on "my bots": back to the page it was pressed on.
    if request.POST.get("back") == "my-bots":
        return redirect("web-my-bots")
    return redirect("web-bot", pk=bot.pk)


@require_POST
@login_required
def bot_active(request: HttpRequest, pk: int) -> HttpResponse:
    bot = get_object_or_404(Bot, pk=pk)
    try:
        bot_service.set_active(bot, request.user, request.POST.get("active") == "1")
    except ArenaError as exc:
        raise Http404(exc.message) from None
    return redirect("web-bot", pk=bot.pk)


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    """The user's API tokens; a new one's key is on the answer to its creation, and only there."""
    form = TokenForm(request.POST or None)
    new_key = None
    if request.method == "POST" and form.is_valid():
        try:
            _, new_key = token_service.create_token(request.user, form.cleaned_data["name"])
        except ArenaError as exc:
            _show_error(form, exc)
        else:
            form = TokenForm()
    context = {
        "form": form,
        "new_key": new_key,
        "tokens": token_service.tokens_of(request.user),
        "login_token": token_service.login_token_of(request.user),
    }
    response = render(request, "web/tokens.html", context)
    if new_key:
        response["Cache-Control"] = "no-store"  # the key stays out of the browser's cache
    return response


@require_POST
@login_required
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        token_service.revoke_token(request.user, pk)
    except NotFound as exc:
        raise Http404(exc.message) from None
    messages.success(request, "The token is revoked: the API refuses it from now on.")
    return redirect("web-tokens")


@require_POST
@login_required
def login_token_revoke(request: HttpRequest) -> HttpResponse:
    try:
        token_service.revoke_login_token(request.user)
    except NotFound as exc:
        raise Http404(exc.message) from None
    messages.success(request, "The login token is revoked: log in again to get a new one.")
    return redirect("web-tokens")


@login_required
def challenge_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Start a challenge of one of this bot's versions against another version."""
    bot = get_object_or_404(Bot, pk=pk)
    form = ChallengeForm(bot, request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            challenge = challenge_service.create_challenge(
                request.user,
                game=bot.game,
                candidate=data["candidate"],
                baseline=data["baseline"],
                elo0=data["elo0"],
                elo1=data["elo1"],
                max_games=data["max_games"],
                players=data.get("players", 2),
            )
        except ArenaError as exc:
            _show_error(form, exc)
        else:
            return redirect("web-challenge", pk=challenge.pk)
    return render(request, "web/challenge_new.html", {"bot": bot, "form": form})


def challenge_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The test's state, updated in place (challenge.js polls the API) until its verdict."""
    challenge = get_object_or_404(
        Challenge.objects.select_related("candidate__bot", "baseline__bot").defer(
            "candidate__source", "baseline__source"
        ),
        pk=pk,
    )
    user = request.user
    may_cancel = challenge.is_running() and (
        is_organiser(user)
        or (user.is_authenticated and challenge.created_by_id == user.pk)
        or challenge.candidate.bot.is_owned_by(user)
        or challenge.baseline.bot.is_owned_by(user)
    )
    verdicts = _verdicts(challenge)
    context = {
        "challenge": challenge,
        "verdicts": verdicts,
        "verdict": verdicts.get(challenge.status, ""),
        "state": challenge_service.describe(challenge),
        "cooperative": engine.get_game(challenge.game).cooperative,
        "may_cancel": may_cancel,
        "matches": Match.objects.filter(challenge=challenge)
        .defer("record")
        .order_by("-id")[:RECENT],
    }
    return render(request, "web/challenge.html", context)


def _verdicts(challenge: Challenge) -> dict[str, str]:
    """What each status means for this challenge, in words (challenge.js reads them too)."""
    candidate = f"{challenge.candidate.bot.name} v{challenge.candidate.number}"
    baseline = f"{challenge.baseline.bot.name} v{challenge.baseline.number}"
    if engine.get_game(challenge.game).cooperative:
        accepted = (
            f"teams of {candidate} succeed more often than teams of {baseline}: by at least "
            f"{challenge.elo1:g} Elo on the pair scores."
        )
        rejected = (
            f"teams of {candidate} do not succeed more often than teams of {baseline} by "
            f"more than {challenge.elo0:g} Elo on the pair scores."
        )
    else:
        accepted = f"{candidate} is stronger than {baseline} by at least {challenge.elo1:g} Elo."
        rejected = (
            f"{candidate} is not stronger than {baseline} by more than {challenge.elo0:g} Elo."
        )
    return {
        "running": "pairs of games are being played; this line updates by itself.",
        "accepted": accepted,
        "rejected": rejected,
        "inconclusive": f"no verdict within {challenge.max_games} games.",
        "cancelled": "stopped before a verdict.",
    }


@require_POST
@login_required
def challenge_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    challenge = get_object_or_404(
        Challenge.objects.select_related("candidate__bot", "baseline__bot"), pk=pk
    )
    try:
        challenge_service.cancel_challenge(challenge, request.user)
    except ArenaError as exc:
        messages.error(request, exc.message)
    return redirect("web-challenge", pk=challenge.pk)
