"""Organiser control of a tournament: pause, resume, cancel.

A paused tournament starts nothing new: its queued matches are held (a worker's claim
takes only queued matches, so a message already in the broker finds its match held and
does nothing) and no next round opens; matches already running finish and are recorded.
Resuming requeues the held matches and opens the round that is due, if the last one ended
during the pause. Cancelling ends the tournament with the standings so far: matches not
yet started are marked failed (never played, never rated), everything recorded stays.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from arena.accounts import is_organiser
from arena.errors import Conflict, NotAllowed
from arena.models import Match, Tournament
from arena.models.tournaments import enqueue_after_commit
from arena.services import rounds

CANCELLED_MATCH = "the tournament was cancelled before this match started"


def _locked(tournament: Tournament, user, verb: str) -> Tournament:
    if not is_organiser(user):
        raise NotAllowed(f"only organisers may {verb} tournaments")
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def pause(tournament: Tournament, user) -> Tournament:
    with transaction.atomic():
        locked = _locked(tournament, user, "pause")
        if locked.status != Tournament.Status.RUNNING:
            raise Conflict(f"tournament {locked.pk} is {locked.status}; only a running one pauses")
        Match.objects.filter(tournament=locked, status=Match.Status.QUEUED).update(
            status=Match.Status.HELD
        )
        locked.status = Tournament.Status.PAUSED
        locked.save(update_fields=["status"])
    return locked


def resume(tournament: Tournament, user) -> Tournament:
    with transaction.atomic():
        locked = _locked(tournament, user, "resume")
        if locked.status != Tournament.Status.PAUSED:
            raise Conflict(f"tournament {locked.pk} is {locked.status}, not paused")
        held = list(
            Match.objects.filter(tournament=locked, status=Match.Status.HELD).values_list(
                "pk", flat=True
            )
        )
        Match.objects.filter(pk__in=held, status=Match.Status.HELD).update(
            status=Match.Status.QUEUED
        )
        locked.status = Tournament.Status.RUNNING
        locked.save(update_fields=["status"])
        enqueue_after_commit(held)
        # A round whose last match ended during the pause opens its successor now.
        if locked.has_rounds():
            rounds.advance(locked)
        else:
            locked.try_finish()
    return locked


def cancel(tournament: Tournament, user) -> Tournament:
    with transaction.atomic():
        locked = _locked(tournament, user, "cancel")
        if locked.is_over():
            raise Conflict(f"tournament {locked.pk} is already {locked.status}")
        now = timezone.now()
        Match.objects.filter(
            tournament=locked, status__in=[Match.Status.QUEUED, Match.Status.HELD]
        ).update(status=Match.Status.FAILED, error=CANCELLED_MATCH, finished_at=now)
        locked.status = Tournament.Status.CANCELLED
        locked.finished_at = now
        locked.save(update_fields=["status", "finished_at"])
    return locked
