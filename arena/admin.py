"""The Django admin: leaderboards per game, bots with versions, tournaments, matches.

Everything that changes state goes through model methods or services (start now), never
through raw field edits of results or ratings, which are read-only here.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin.views.main import ERROR_FLAG
from django.db.models import Count, Q
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from arena.errors import ArenaError
from arena.models import (
    Bot,
    BotVersion,
    Challenge,
    GameRating,
    Ladder,
    LadderEntry,
    Leaderboard,
    Match,
    MatchAttempt,
    MatchSeat,
    Rating,
    RatingChange,
    SkillEntry,
    SkillFit,
    Tournament,
)
from arena.services import control
from arena.services.brackets import bracket_summary, rounds_summary
from arena.services.rounds import planned_matches
from arena.services.tournaments import start_tournament

admin.site.site_header = "Moon Arena"
admin.site.site_title = "Moon Arena admin"


class ModelAdmin(admin.ModelAdmin):
    """The arena's ModelAdmin: a list filter value with a NUL byte is a bad lookup, not a 500.

    Django passes list_filter values (?game=...) to the query as given, and PostgreSQL
    refuses NUL in text. Answer as Django does for any bad lookup: back to the list, ?e=1.
    """

    def changelist_view(self, request, extra_context=None):
        if any("\x00" in "".join([key, *values]) for key, values in request.GET.lists()):
            return HttpResponseRedirect(f"{request.path}?{ERROR_FLAG}=1")
        return super().changelist_view(request, extra_context)


@admin.register(Leaderboard)
class LeaderboardAdmin(ModelAdmin):
    list_display = [
        "bot",
        "owner",
        "anchor",
        "game",
        "rating_shown",
        "games",
        "wins",
        "draws",
        "losses",
    ]
    list_filter = ["game", "bot__is_active"]
    ordering = ["game", "-rating"]
    search_fields = ["bot__name", "bot__owner__username"]
    list_select_related = ["bot", "bot__owner"]

    @admin.display(description="owner", ordering="bot__owner__username")
    def owner(self, rating):
        return rating.bot.owner.username

    @admin.display(description="anchor (reference bot)", boolean=True)
    def anchor(self, rating):
        return rating.bot.is_anchor()

    @admin.display(description="rating", ordering="rating")
    def rating_shown(self, rating):
        return f"{rating.rating:.1f}"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ModelAdmin):
    list_display = ["bot", "game", "rating", "games", "wins", "draws", "losses", "successes"]
    list_filter = ["game"]
    ordering = ["game", "-rating"]
    readonly_fields = [f.name for f in Rating._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(GameRating)
class GameRatingAdmin(ModelAdmin):
    list_display = ["game", "players", "rating", "games", "updated_at"]
    list_filter = ["game"]
    readonly_fields = [f.name for f in GameRating._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(ModelAdmin):
    list_display = ["rating", "match", "before", "after", "created_at"]
    list_filter = ["rating__game"]
    readonly_fields = ["rating", "match", "before", "after", "created_at"]

    def has_add_permission(self, request):
        return False


@admin.register(SkillFit)
class SkillFitAdmin(ModelAdmin):
    """Whole-history fits (arena/services/skills.py); read-only, refits run on workers."""

    list_display = ["game", "fitted_at", "bots", "matches", "iterations", "warm", "seconds"]
    list_filter = ["game", "cooperative"]
    readonly_fields = [f.name for f in SkillFit._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(SkillEntry)
class SkillEntryAdmin(ModelAdmin):
    list_display = ["bot", "fit", "skill", "skill_low", "skill_high", "rank_low", "rank_high"]
    list_filter = ["fit__game"]
    list_select_related = ["bot", "fit"]
    readonly_fields = [f.name for f in SkillEntry._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(Challenge)
class ChallengeAdmin(ModelAdmin):
    """Challenges are started and cancelled over the API, where every input is checked."""

    list_display = ["id", "game", "candidate", "baseline", "status", "games", "llr"]
    list_filter = ["game", "status"]
    list_select_related = ["candidate__bot", "baseline__bot"]
    readonly_fields = [f.name for f in Challenge._meta.fields] + ["opponents"]

    def has_add_permission(self, request):
        return False


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    fields = ["number", "filename", "size", "sha256", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["-number"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Bot)
class BotAdmin(ModelAdmin):
    list_display = ["name", "game", "owner", "is_active", "version_count", "created_at"]
    list_filter = ["game", "is_active"]
    search_fields = ["name", "owner__username"]
    readonly_fields = ["created_at"]
    inlines = [BotVersionInline]
    actions = ["deactivate", "activate"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_versions=Count("versions"))

    @admin.display(description="versions", ordering="n_versions")
    def version_count(self, bot):
        return bot.n_versions

    @admin.action(description="Deactivate the selected bots")
    def deactivate(self, request, queryset):
        for bot in queryset:
            bot.deactivate()

    @admin.action(description="Activate the selected bots")
    def activate(self, request, queryset):
        for bot in queryset:
            bot.activate()


@admin.register(Tournament)
class TournamentAdmin(ModelAdmin):
    list_display = [
        "name",
        "game",
        "format",
        "status",
        "progress",
        "health",
        "players_per_match",
        "start_at",
    ]
    list_filter = ["game", "status", "format"]
    search_fields = ["name"]
    filter_horizontal = ["bots"]
    readonly_fields = [
        "status",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
        "entrants",
        "health",
        "rounds_shown",
        "bracket_shown",
    ]
    actions = ["start_now", "pause", "resume", "cancel"]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                n_matches=Count("matches"),
                n_done=Count(
                    "matches",
                    filter=Q(matches__status__in=[Match.Status.FINISHED, Match.Status.FAILED]),
                ),
            )
        )

    @admin.display(description="matches done")
    def progress(self, tournament):
        if tournament.status == Tournament.Status.SCHEDULED:
            return f"0 / {planned_matches(tournament)} planned"
        return f"{tournament.n_done} / {tournament.n_matches}"

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    @admin.display(description="health")
    def health(self, tournament):
        """ok, or degraded with why (failed matches, lapsed leases, re-played matches)."""
        if not tournament.pk:
            return "-"
        from arena.services.attempts import tournament_health

        shown = tournament_health(tournament)
        return shown["status"] + (f": {shown['reason']}" if shown["reason"] else "")

    @admin.display(description="rounds")
    def rounds_shown(self, tournament):
        """Each round's tables: who sits there, the points and the outcome."""
        shown = rounds_summary(tournament) if tournament.pk else []
        if not shown:
            return "-"
        names = dict(Bot.objects.filter(tournaments=tournament).values_list("id", "name"))
        lines = []
        for one_round in shown:
            tables = []
            for table in one_round["tables"]:
                points = table["points"]
                seated = ", ".join(
                    f"{names.get(bot, bot)}" + (f" {points[bot]:g}" if bot in points else "")
                    for bot in table["bots"]
                )
                outcome = table["winner"] or table["advancing"]
                tables.append(
                    f"[{table['tie'] + ': ' if table['tie'] else ''}{seated} - {table['status']}"
                    + (f" -> {_names(outcome, names)}" if outcome else "")
                    + "]"
                )
            byes = f" byes: {_names(one_round['byes'], names)}" if one_round["byes"] else ""
            lines.append((one_round["number"], one_round["status"], " ".join(tables) + byes))
        return format_html(
            "<table>{}</table>",
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>", lines),
        )

    @admin.display(description="bracket")
    def bracket_shown(self, tournament):
        ties = bracket_summary(tournament) if tournament.pk else None
        if not ties:
            return "-"
        names = dict(Bot.objects.filter(tournaments=tournament).values_list("id", "name"))
        rows = [
            (
                tie["tie"],
                " v ".join(
                    f"({seed}) {names.get(bot, bot)}" if bot is not None else "-"
                    for bot, seed in zip(tie["bots"], tie["seeds"], strict=True)
                ),
                tie["status"],
                names.get(tie["winner"], "") if tie["winner"] is not None else "",
            )
            for tie in ties
        ]
        return format_html(
            "<table>{}</table>",
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
        )

    def _control(self, request, queryset, change, done: str):
        for tournament in queryset:
            try:
                change(tournament, request.user)
            except ArenaError as exc:
                self.message_user(request, f"{tournament}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{tournament}: {done}")

    @admin.action(description="Pause (nothing new starts)")
    def pause(self, request, queryset):
        self._control(request, queryset, control.pause, "paused")

    @admin.action(description="Resume")
    def resume(self, request, queryset):
        self._control(request, queryset, control.resume, "resumed")

    @admin.action(description="Cancel (keeps the results so far)")
    def cancel(self, request, queryset):
        self._control(request, queryset, control.cancel, "cancelled")

    @admin.action(description="Start now")
    def start_now(self, request, queryset):
        for tournament in queryset:
            try:
                ids = start_tournament(tournament)
            except ArenaError as exc:
                self.message_user(request, f"{tournament}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{tournament}: started {len(ids)} matches")


def _names(bots, names) -> str:
    if isinstance(bots, list):
        return ", ".join(str(names.get(bot, bot)) for bot in bots)
    return str(names.get(bots, bots))


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    fields = [
        "seat",
        "bot",
        "bot_version",
        "rank",
        "score",
        "forfeit_reason",
        "rating_before",
        "rating_after",
    ]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class MatchAttemptInline(admin.TabularInline):
    """Every claim that ended: the organiser sees why a match was played again."""

    model = MatchAttempt
    fields = ["worker", "started_at", "ended_at", "outcome", "detail"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(ModelAdmin):
    list_display = [
        "id",
        "game",
        "purpose",
        "tournament",
        "match_set",
        "status",
        "result_summary",
        "rated",
        "attempts",
        "requeues",
        "problem",
        "replay",
    ]
    list_filter = ["game", "purpose", "status", "rated"]
    search_fields = ["id", "seats__bot__name"]
    inlines = [MatchSeatInline, MatchAttemptInline]
    actions = ["requeue_failed"]

    @admin.display(description="error / last infrastructure fault")
    def problem(self, match):
        return (match.error or match.last_infra_error or "-")[:120]

    @admin.action(description="Re-queue the selected failed matches")
    def requeue_failed(self, request, queryset):
        from django.db import transaction

        from arena.models.tournaments import enqueue_all, load_enqueue
        from arena.services.attempts import requeue_failed

        enqueue = load_enqueue()
        done = 0
        for match in queryset.filter(status=Match.Status.FAILED):
            if requeue_failed(match):
                # As every service sends: a broker that refuses the message (down, full)
                # fails neither this action nor the other matches' re-queue; the reaper
                # sends a queued match whose message is missing.
                transaction.on_commit(
                    lambda m=match: enqueue_all(enqueue, [m.pk], m.purpose),  # type: ignore[misc]
                    robust=True,
                )
                done += 1
        skipped = queryset.count() - done
        self.message_user(
            request,
            f"re-queued {done} failed matches"
            + (f"; {skipped} were not failed and are unchanged" if skipped else ""),
        )

    exclude = ["record"]
    readonly_fields = [f.name for f in Match._meta.fields if f.name not in {"record"}] + ["replay"]
    list_select_related = ["tournament"]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("record").prefetch_related("seats__bot")

    def has_add_permission(self, request):
        return False

    @admin.display(description="result")
    def result_summary(self, match):
        seats = sorted(match.seats.all(), key=lambda s: (s.rank or 99, s.seat))
        if not seats or seats[0].rank is None:
            return "-"
        return ", ".join(
            f"{s.rank}. {s.bot.name}" + (" (forfeit)" if s.forfeit_reason else "") for s in seats
        )

    @admin.display(description="replay")
    def replay(self, match):
        if match.status != Match.Status.FINISHED:
            return "-"
        return format_html('<a href="{}">replay</a>', reverse("match-replay", args=[match.pk]))


@admin.register(Ladder)
class LadderAdmin(ModelAdmin):
    """Each game's ladder: pause or resume it, change its table sizes, depth, newcomer games.

    Edits are checked by Ladder.clean() with the API's own rules (Ladder.checked).
    """

    list_display = [
        "game",
        "status",
        "sizes",
        "target_depth",
        "newcomer_games",
        "queued",
        "running",
        "updated_at",
    ]
    list_filter = ["status"]
    fields = ["game", "status", "table_sizes", "target_depth", "newcomer_games"]
    readonly_fields = ["game"]
    actions = ["pause", "resume"]

    def has_add_permission(self, request):
        return False  # GET /api/ladders/ creates each game's row with the defaults

    @admin.display(description="table sizes")
    def sizes(self, ladder):
        from arena.services.ladder import table_sizes

        shown = table_sizes(ladder)
        return ", ".join(map(str, shown)) + ("" if ladder.table_sizes else " (default)")

    def _count(self, ladder, status):
        return Match.objects.filter(
            game=ladder.game, purpose=Match.Purpose.LADDER, status=status
        ).count()

    @admin.display(description="queued")
    def queued(self, ladder):
        return self._count(ladder, Match.Status.QUEUED)

    @admin.display(description="running")
    def running(self, ladder):
        return self._count(ladder, Match.Status.RUNNING)

    def save_model(self, request, obj, form, change):
        obj.updated_by = request.user
        super().save_model(request, obj, form, change)

    @admin.action(description="Pause the selected ladders")
    def pause(self, request, queryset):
        queryset.update(status=Ladder.Status.PAUSED, updated_by=request.user)

    @admin.action(description="Resume the selected ladders")
    def resume(self, request, queryset):
        queryset.update(status=Ladder.Status.RUNNING, updated_by=request.user)


@admin.register(LadderEntry)
class LadderEntryAdmin(ModelAdmin):
    list_display = ["bot", "version", "entered_at", "paused_at", "pause_reason"]
    list_filter = ["bot__game", ("paused_at", admin.EmptyFieldListFilter)]
    search_fields = ["bot__name", "bot__owner__username"]
    readonly_fields = [
        "bot",
        "version",
        "entered_at",
        "paused_at",
        "pause_reason",
        "pause_match_ids",
    ]
    list_select_related = ["bot", "version"]
    actions = ["resume"]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Resume the selected paused bots on the ladder")
    def resume(self, request, queryset):
        queryset.filter(paused_at__isnull=False).update(
            paused_at=None, pause_reason="", pause_match_ids=[], entered_at=timezone.now()
        )
